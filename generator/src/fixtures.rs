//! Synthetic catalogs of any size in the export format (docs/formats.md), for benchmarks and
//! scale tests: seeded, so the same size and seed always give the same files.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

const COLOURS: [(&str, &str); 12] = [
    ("Black", "#1d1d1b"),
    ("Off White", "#f4f1ea"),
    ("Navy Blue", "#1f2a44"),
    ("Dusty Pink", "#d8a3a8"),
    ("Forest Green", "#2f4f3a"),
    ("Camel", "#c19a6b"),
    ("Burgundy", "#6d1a2b"),
    ("Sky Blue", "#9cc3e6"),
    ("Mustard", "#d8a31a"),
    ("Grey Marl", "#9a9a9a"),
    ("Chocolate Brown", "#5a3a22"),
    ("Sage", "#a3b18a"),
];
const SIZES: [&str; 5] = ["XS", "S", "M", "L", "XL"];
const NOUNS: [&str; 10] = [
    "Dress", "Jumper", "Shirt", "Trousers", "Coat", "Skirt", "Cardigan", "Blazer", "Tee", "Jacket",
];
const ADJECTIVES: [&str; 10] = [
    "Tiered",
    "Relaxed",
    "Cropped",
    "Ribbed",
    "Wrap",
    "Linen",
    "Oversized",
    "Pleated",
    "Tailored",
    "Boxy",
];
const DEPARTMENTS: [&str; 4] = ["womens", "mens", "other-stuff", "gifts"];

pub struct FixtureOptions {
    pub products: usize,
    pub seed: u64,
    pub colours_per_product: usize,
}

fn write_list(path: &Path, items: impl Iterator<Item = Value>) -> std::io::Result<()> {
    let mut out = BufWriter::new(File::create(path)?);
    out.write_all(b"{\"data\":[")?;
    for (i, item) in items.enumerate() {
        if i > 0 {
            out.write_all(b",\n")?;
        }
        serde_json::to_writer(&mut out, &item)?;
    }
    out.write_all(b"]}\n")?;
    out.flush()
}

fn write_json(path: &Path, value: &Value) -> std::io::Result<()> {
    std::fs::write(path, serde_json::to_vec(value)?)
}

/// Categories: 4 departments × 5 groups × 4 leaves, three levels deep; returns `(leaf id, ancestors)`.
fn categories() -> (Vec<Value>, Vec<(u64, Vec<u64>)>) {
    let mut all = Vec::new();
    let mut leaves = Vec::new();
    for (d, dept) in DEPARTMENTS.iter().enumerate() {
        let dept_id = 1000 + d as u64 * 100;
        all.push(json!({"id": dept_id, "parent_id": 0, "name": dept.replace('-', " "), "url": format!("/browse/{dept}/"), "description": format!("Everything in {dept}."), "path": []}));
        for g in 0..5u64 {
            let group_id = dept_id + 10 + g * 10;
            let group_slug = format!("group-{g}");
            all.push(json!({"id": group_id, "parent_id": dept_id, "name": format!("Group {g}"), "url": format!("/browse/{dept}/{group_slug}/"), "path": [dept_id]}));
            for l in 0..4u64 {
                let leaf_id = group_id + 1 + l;
                all.push(json!({"id": leaf_id, "parent_id": group_id, "name": format!("Line {g}.{l}"), "url": format!("/browse/{dept}/{group_slug}/line-{l}/"), "path": [dept_id, group_id]}));
                leaves.push((leaf_id, vec![dept_id, group_id]));
            }
        }
    }
    (all, leaves)
}

pub fn write_fixtures(dir: &Path, opts: &FixtureOptions) -> std::io::Result<()> {
    let mut rng = StdRng::seed_from_u64(opts.seed);
    for sub in ["catalog", "content", "media"] {
        std::fs::create_dir_all(dir.join(sub))?;
    }
    write_json(
        &dir.join("store.json"),
        &json!({"name": "Synthetic Store", "base_url": "https://www.synthetic.example", "fallback_image": "/media/fallback.svg"}),
    )?;
    write_list(
        &dir.join("catalog/channels.json"),
        [(1406818, "UK", "GBP"), (1421371, "US", "USD"), (1407345, "EU", "EUR")]
            .into_iter()
            .map(|(id, name, cur)| json!({"id": id, "name": name, "currencies": {"default_currency": cur, "enabled_currencies": [cur]}})),
    )?;
    let (cats, leaves) = categories();
    write_list(&dir.join("catalog/categories.json"), cats.into_iter())?;
    for (name, hex) in COLOURS {
        let svg = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 600 800\"><rect width=\"600\" height=\"800\" fill=\"#f3f1ee\"/><rect x=\"150\" y=\"120\" width=\"300\" height=\"560\" rx=\"40\" fill=\"{hex}\"/><title>{name}</title></svg>"
        );
        std::fs::write(
            dir.join("media")
                .join(format!("{}.svg", name.replace(' ', "_"))),
            svg,
        )?;
    }
    std::fs::write(
        dir.join("media/fallback.svg"),
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 600 800\"><rect width=\"600\" height=\"800\" fill=\"#ddd\"/></svg>",
    )?;

    // Products are generated once and streamed into products, prices and inventory.
    let mut products = Vec::with_capacity(opts.products);
    let mut prices = Vec::new();
    let mut inventory = Vec::new();
    let mut next_variant = 1_000_000u64;
    for i in 0..opts.products {
        let id = 10_000 + i as u64;
        let style = format!("{:06}", 200_000 + i);
        let (leaf, ancestors) = &leaves[rng.random_range(0..leaves.len())];
        let colour_count = opts.colours_per_product.max(1).min(COLOURS.len());
        let first_colour = rng.random_range(0..COLOURS.len());
        let colours: Vec<(u64, &str, &str)> = (0..colour_count)
            .map(|c| {
                let (name, hex) = COLOURS[(first_colour + c) % COLOURS.len()];
                (id * 100 + c as u64, name, hex)
            })
            .collect();
        let sizes: Vec<(u64, &str)> = SIZES
            .iter()
            .enumerate()
            .map(|(s, l)| (id * 100 + 50 + s as u64, *l))
            .collect();
        let price = (rng.random_range(12..180) as f64) + 0.0;
        let on_sale = rng.random_bool(0.2);
        let sale = on_sale.then(|| (price * 0.7).floor());
        let mut variants = Vec::new();
        for (cid, cname, _) in &colours {
            for (sid, slabel) in &sizes {
                let vid = next_variant;
                next_variant += 1;
                let sku = format!("{style}-{}-{slabel}", &cname[..3].to_uppercase());
                variants.push(json!({"id": vid, "sku": sku, "option_values": [
                    {"option_id": id * 10 + 1, "id": cid, "label": cname, "option_display_name": "Color"},
                    {"option_id": id * 10 + 2, "id": sid, "label": slabel, "option_display_name": "Size"}]}));
                prices.push(json!({"variant_id": vid, "currency": "USD", "price": (price * 1.3).round(), "sale_price": sale.map(|s| (s * 1.3).round())}));
                prices.push(json!({"variant_id": vid, "currency": "EUR", "price": (price * 1.15).round(), "sale_price": sale.map(|s| (s * 1.15).round())}));
                let (a, b) = (rng.random_range(0..30i64), rng.random_range(0..10i64));
                inventory.push(json!({"identity": {"sku": sku, "variant_id": vid}, "allLocationsTotalAvailableToSell": a + b, "locations": [
                    {"location_id": 1, "location_enabled": true, "available_to_sell": a}, {"location_id": 2, "location_enabled": true, "available_to_sell": b}]}));
            }
        }
        let name = format!(
            "{} {} {}",
            ADJECTIVES[rng.random_range(0..ADJECTIVES.len())],
            NOUNS[rng.random_range(0..NOUNS.len())],
            i
        );
        let mut category_ids = ancestors.clone();
        category_ids.push(*leaf);
        products.push(json!({
            "id": id, "sku": style, "name": name, "description": format!("<p>{name}: a synthetic product for benchmarks.</p>"),
            "price": price, "sale_price": sale, "categories": category_ids, "inventory_tracking": "variant",
            "date_created": format!("2026-{:02}-{:02}T10:00:00Z", 1 + i % 11, 1 + i % 28),
            "options": [
                {"id": id * 10 + 1, "display_name": "Color", "option_values": colours.iter().map(|(cid, n, hex)| json!({"id": cid, "label": n, "value_data": {"colors": [hex]}})).collect::<Vec<_>>()},
                {"id": id * 10 + 2, "display_name": "Size", "option_values": sizes.iter().map(|(sid, l)| json!({"id": sid, "label": l})).collect::<Vec<_>>()}],
            "variants": variants,
            "images": [{"id": id, "url_standard": format!("/media/{}.svg", colours[0].1.replace(' ', "_")), "description": name, "is_thumbnail": true}],
            "custom_fields": [{"name": "fabric_composition", "value": "100% cotton"}, {"name": "washcare", "value": "Machine wash 30°C"}],
        }));
    }
    let media: serde_json::Map<String, Value> = products
        .iter()
        .flat_map(|p| {
            let style = p["sku"].as_str().unwrap_or_default().to_string();
            p["options"][0]["option_values"].as_array().cloned().unwrap_or_default().into_iter().map(move |v| {
                let seg = v["label"].as_str().unwrap_or_default().replace(' ', "_");
                (format!("{style}_{seg}"), json!({"items": [{"type": "img", "src": format!("/media/{seg}.svg"), "alt": v["label"]}, {"type": "img", "src": format!("/media/{seg}.svg"), "alt": "back"}]}))
            })
        })
        .collect();
    write_json(&dir.join("catalog/media.json"), &Value::Object(media))?;
    let collection_ids: Vec<u64> = (0..opts.products.min(60))
        .map(|i| 10_000 + i as u64 * 3 % opts.products.max(1) as u64)
        .collect();
    write_list(
        &dir.join("catalog/collections.json"),
        std::iter::once(
            json!({"id": 501, "name": "Featured", "product_ids": dedup(collection_ids)}),
        ),
    )?;
    write_list(&dir.join("catalog/products.json"), products.into_iter())?;
    write_list(&dir.join("catalog/price-lists.json"), prices.into_iter())?;
    write_list(&dir.join("catalog/inventory.json"), inventory.into_iter())?;
    for m in ["uk", "us", "eu"] {
        let item = |key: &str, schema: &str, body: Value| {
            let mut b = body;
            b["_meta"] = json!({"schema": format!("https://schema.synthetic.example/{schema}"), "deliveryKey": format!("{m}/{key}"), "deliveryId": format!("{m}-{key}")});
            json!({"content": b})
        };
        let nav_links: Vec<Value> = DEPARTMENTS
            .iter()
            .map(|d| json!({"link": {"url": format!("/browse/{d}"), "title": d}, "columns": []}))
            .collect();
        let page = json!({"responses": [
            item("home", "content-page", json!({"pageTitle": "Home", "pageDescription": "Synthetic home", "content": []})),
            item("about-us", "content-page", json!({"pageTitle": "About us", "content": []})),
            item("other-stuff", "content-page", json!({"pageTitle": "Other stuff", "content": []})),
            item("desktop-navigation", "desktop-navigation", json!({"topLevelLinks": nav_links})),
            item("footer", "footer", json!({"columns": [{"title": "Help", "links": [{"text": "About us", "link": "/about-us"}]}], "quisasBoxText": "Sometimes it's good to get lost in the details"})),
            // The curated Popular Searches, as a real content export has them.
            item("search-suggestions", "search-suggestions", json!({"suggestions": ["Dress", "Jumper", "Jeans", "Coat"]})),
        ], "page": {"responseCount": 6}});
        write_json(&dir.join(format!("content/{m}.json")), &page)?;
    }
    Ok(())
}

fn dedup(mut ids: Vec<u64>) -> Vec<u64> {
    let mut seen = std::collections::HashSet::new();
    ids.retain(|id| seen.insert(*id));
    ids
}
