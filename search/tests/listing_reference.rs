//! Property test: listing results and facet counts for random filter / sort / page combinations
//! equal a brute-force reference computed directly from the records.

use proptest::prelude::*;
use search::{
    Card, CardImage, ColourwayRecord, Filters, ListingIndex, PER_PAGE, ProductRecord, Sort,
};
use std::collections::BTreeMap;

const COLOURS: [&str; 5] = ["Black", "Navy Blue", "Ecru", "Rust", "Sage Green"];
const SIZES: [&str; 5] = ["6", "8", "10", "12", "14"];

fn record(
    id: u64,
    colours: Vec<usize>,
    sizes: Vec<usize>,
    price: i64,
    day: u8,
    cats: Vec<u64>,
) -> ProductRecord {
    ProductRecord {
        id,
        sku: format!("{id:06}"),
        name: format!("Product {id}"),
        sort_order: (id * 7 % 11) as i64,
        created: format!("2026-01-{:02}", day % 28 + 1),
        categories: cats,
        category_names: Vec::new(),
        collections: vec![(1, (id * 13 % 97) as u32)],
        colourways: colours
            .into_iter()
            .map(|c| ColourwayRecord {
                label: COLOURS[c].into(),
                swatch: None,
                variation_id: Some(id * 10 + c as u64),
                url: format!("/p/{id}/x/{c}"),
                image_url: String::new(),
                original_price_minor: price,
                sale_price_minor: None,
            })
            .collect(),
        sizes: sizes.into_iter().map(|s| SIZES[s].to_string()).collect(),
        price_minor: price,
        card: Card {
            badge: None,
            colour_count: 1,
            id,
            image: CardImage {
                alt: String::new(),
                src: String::new(),
            },
            name: String::new(),
            percent_off: None,
            price: String::new(),
            price_hidden: false,
            sale_price: None,
            secondary_image: None,
            swatches: Vec::new(),
            url: format!("/p/{id}/x"),
        },
    }
}

fn records() -> impl Strategy<Value = Vec<ProductRecord>> {
    prop::collection::vec(
        (
            prop::collection::vec(0..COLOURS.len(), 1..4),
            prop::collection::vec(0..SIZES.len(), 0..4),
            prop::sample::select(vec![1000i64, 1999, 2500, 4500, 6000, 9999]),
            any::<u8>(),
            prop::sample::subsequence(vec![1u64, 2, 3], 1..=3),
        ),
        0..150,
    )
    .prop_map(|rows| {
        rows.into_iter()
            .enumerate()
            .map(|(i, (c, s, p, d, cats))| record(i as u64 + 1, c, s, p, d, cats))
            .collect()
    })
}

fn filters() -> impl Strategy<Value = Filters> {
    (
        prop::sample::subsequence(COLOURS.to_vec(), 0..=2),
        prop::sample::subsequence(SIZES.to_vec(), 0..=2),
        prop::option::of((0i64..5000, 0i64..6000)),
    )
        .prop_map(|(c, s, p)| Filters {
            colours: c.into_iter().map(String::from).collect(),
            sizes: s.into_iter().map(String::from).collect(),
            price: p.map(|(low, extra)| (low, low + extra)),
        })
}

fn passes(r: &ProductRecord, f: &Filters, skip: &str) -> bool {
    (skip == "colour"
        || f.colours.is_empty()
        || r.colourways.iter().any(|w| f.colours.contains(&w.label)))
        && (skip == "size" || f.sizes.is_empty() || r.sizes.iter().any(|s| f.sizes.contains(s)))
        && f.price
            .is_none_or(|(l, h)| r.price_minor >= l && r.price_minor <= h)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn listing_equals_brute_force(
        recs in records(),
        f in filters(),
        sort in prop::sample::select(vec![Sort::Featured, Sort::Newest, Sort::PriceAsc, Sort::PriceDesc]),
        scope_kind in 0..4u64,
        page in 1usize..4,
    ) {
        let index = ListingIndex::new(recs.clone());
        let scope: Vec<usize> = match scope_kind {
            0 => index.collection(1).unwrap_or(&[]).to_vec(),
            c => index.category(c).unwrap_or(&[]).to_vec(),
        };
        // Reference scope order: featured rank (categories) or collection position.
        let mut reference: Vec<&ProductRecord> = recs
            .iter()
            .filter(|r| if scope_kind == 0 { !r.collections.is_empty() } else { r.categories.contains(&scope_kind) })
            .collect();
        if scope_kind == 0 {
            reference.sort_by_key(|r| (r.collections[0].1, r.id));
        } else {
            reference.sort_by_key(|r| (r.sort_order, std::cmp::Reverse(r.created.clone()), r.id));
        }
        let mut expected: Vec<&ProductRecord> = reference.iter().copied().filter(|r| passes(r, &f, "")).collect();
        match sort {
            Sort::Newest => expected.sort_by(|a, b| b.created.cmp(&a.created)),
            Sort::PriceAsc => expected.sort_by_key(|r| r.price_minor),
            Sort::PriceDesc => expected.sort_by_key(|r| std::cmp::Reverse(r.price_minor)),
            _ => {}
        }
        let pages = expected.len().div_ceil(PER_PAGE).max(1);
        let got = index.list(&scope, &f, sort, page);
        if page > pages {
            prop_assert!(got.is_err());
            return Ok(());
        }
        let got = got.unwrap();
        prop_assert_eq!(got.total, expected.len());
        prop_assert_eq!(got.pages, pages);
        let ids: Vec<u64> = got.members.iter().map(|&i| index.records[i].id).collect();
        let want: Vec<u64> = expected.iter().skip((page - 1) * PER_PAGE).take(PER_PAGE).map(|r| r.id).collect();
        prop_assert_eq!(ids, want);

        // Facets: every value offered in the scope, counted over products passing the other filters.
        let mut colours: BTreeMap<String, usize> = BTreeMap::new();
        let mut sizes: BTreeMap<String, usize> = BTreeMap::new();
        for r in &reference {
            for w in &r.colourways {
                colours.entry(w.label.clone()).or_insert(0);
            }
            for s in &r.sizes {
                sizes.entry(s.clone()).or_insert(0);
            }
            if passes(r, &f, "colour") {
                let mut labels: Vec<&String> = r.colourways.iter().map(|w| &w.label).collect();
                labels.sort();
                labels.dedup();
                for l in labels {
                    *colours.get_mut(l).unwrap() += 1;
                }
            }
            if passes(r, &f, "size") {
                let mut labels: Vec<&String> = r.sizes.iter().collect();
                labels.sort();
                labels.dedup();
                for l in labels {
                    *sizes.get_mut(l).unwrap() += 1;
                }
            }
        }
        let got_colours: BTreeMap<String, usize> = got.facets.colours.iter().map(|c| (c.label.clone(), c.count)).collect();
        let got_sizes: BTreeMap<String, usize> = got.facets.sizes.iter().map(|s| (s.label.clone(), s.count)).collect();
        prop_assert_eq!(got_colours, colours);
        prop_assert_eq!(got_sizes, sizes);
    }
}

#[test]
fn a_colour_facet_takes_the_swatch_of_the_first_product_in_its_scope_to_offer_it() {
    let with_swatch = |id: u64, cat: u64, swatch: &str| {
        let mut r = record(id, vec![0], vec![0], 1000, 1, vec![cat]);
        r.colourways[0].swatch = Some(swatch.to_string());
        r
    };
    // Two products call their colour "Black" with different swatches, in different categories.
    let index = ListingIndex::new(vec![
        with_swatch(1, 10, "#000000"),
        with_swatch(2, 20, "#1d1d1b"),
    ]);
    for (category, swatch) in [(10, "#000000"), (20, "#1d1d1b")] {
        let scope = index.category(category).unwrap();
        let facets = index.facets(scope, &Filters::default());
        assert_eq!(facets.colours[0].label, "Black");
        assert_eq!(
            facets.colours[0].swatch.as_deref(),
            Some(swatch),
            "category {category}"
        );
    }
}
