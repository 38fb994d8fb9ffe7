//! The search index built from the sample store: relevance cases, and incremental updates (a
//! price change is reflected after a rebuild, a deleted product disappears, an unchanged catalog
//! writes nothing).

use domain::catalog::Catalog;
use generator::search_index;
use generator::site::SiteModel;
use search::{Filters, MarketIndex, Sort};
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn sample_catalog() -> Catalog {
    Arc::unwrap_or_clone(
        export::load_export(&sample_dir())
            .expect("sample store loads")
            .catalog,
    )
}

fn sample_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fixtures/sample")
}

fn build(cache: &Path, catalog: &Catalog) -> Vec<search::MarketUpdate> {
    build_with(cache, &Arc::new(catalog.clone()), &mut Default::default())
}

/// An index update that reuses what `memo` kept from earlier ones, as the rebuild daemon does.
fn build_with(
    cache: &Path,
    catalog: &Arc<Catalog>,
    memo: &mut search_index::SearchMemo,
) -> Vec<search::MarketUpdate> {
    let content = export::load_export(&sample_dir()).unwrap().content;
    search_index::update(cache, catalog, &content, &SiteModel::new(catalog), memo)
        .expect("index builds")
}

fn open(cache: &Path, market: &str) -> MarketIndex {
    let live = search::store::live_generation(&cache.join(search_index::SEARCH_DIR), market)
        .expect("index published");
    MarketIndex::open(&live).expect("index opens")
}

fn names(index: &MarketIndex, query: &str) -> Vec<String> {
    index
        .search(query)
        .unwrap()
        .into_iter()
        .map(|h| h.name)
        .collect()
}

#[test]
fn relevance_on_the_sample_store() {
    let catalog = sample_catalog();
    let tmp = tempfile::tempdir().unwrap();
    build(tmp.path(), &catalog);
    let uk = open(tmp.path(), "uk");

    // The exact name first, ahead of other dresses sharing its words.
    assert_eq!(names(&uk, "Tiered Midi Dress")[0], "Tiered Midi Dress");
    assert_eq!(names(&uk, "pleated midi skirt")[0], "Pleated Midi Skirt");

    // A sku prefix finds its product.
    let hits = uk.search("27467").unwrap();
    assert_eq!(hits[0].sku, "274674");
    assert_eq!(hits[0].name, "Satin Slip Midi Dress");

    // A colour word finds products in that colour, and the hit is that colourway.
    let hits = uk.search("terracotta").unwrap();
    assert!(!hits.is_empty());
    assert!(hits.iter().all(|h| h.colour == "Terracotta"), "{hits:?}");
    assert!(hits[0].url.ends_with("/Terracotta"), "{}", hits[0].url);
    let hits = uk.search("burgundy dress").unwrap();
    assert!(hits.iter().any(|h| h.name == "Satin Slip Midi Dress"));
    assert!(hits.iter().all(|h| h.colour == "Burgundy"), "{hits:?}");

    // A one-letter typo still finds the product.
    assert_eq!(
        names(&uk, "cashmire blend")[0],
        "Cashmere Blend Crew Jumper"
    );
    assert!(names(&uk, "trensh coat").contains(&"Double-Breasted Trench Coat".to_string()));

    // Multi-word: every word must match, so the intersection comes back.
    let hits = names(&uk, "wide leg");
    assert!(hits.contains(&"Wide Leg Jeans".to_string()));
    assert!(hits.contains(&"Tailored Wide Leg Trousers".to_string()));
    assert!(!hits.contains(&"Straight Leg Jeans".to_string()));

    // The curated Popular Searches come from the content export.
    assert_eq!(uk.curated[0], "Dresses");

    // Prefix as you type.
    assert!(names(&uk, "cardi").contains(&"Fluffy Cardigan".to_string()));

    // At most 10 products, one per product.
    let hits = uk.search("dress").unwrap();
    assert!(hits.len() <= 10);
    let mut ids: Vec<u64> = hits.iter().map(|h| h.id).collect();
    ids.dedup();
    assert_eq!(ids.len(), hits.len());
}

#[test]
fn hits_carry_the_markets_prices_and_urls() {
    let catalog = sample_catalog();
    let tmp = tempfile::tempdir().unwrap();
    build(tmp.path(), &catalog);
    let product = catalog.products.iter().find(|p| p.id == 101).unwrap();
    for (mi, market) in ["uk", "us", "eu"].into_iter().enumerate() {
        let index = open(tmp.path(), market);
        let hit = index.search("Satin Slip Midi Dress").unwrap().remove(0);
        let way = product
            .colourways
            .iter()
            .find(|w| w.label == hit.colour)
            .unwrap();
        assert_eq!(
            hit.original_price,
            way.prices[mi].price.minor as f64 / 100.0
        );
        assert_eq!(
            hit.sale_price,
            way.prices[mi].sale.map(|s| s.minor as f64 / 100.0)
        );
        let prefix = if market == "uk" {
            ""
        } else {
            &*format!("/{market}")
        };
        assert!(
            hit.url.starts_with(&format!("{prefix}/p/101/")),
            "{}",
            hit.url
        );
        assert_eq!(hit.variation_id, way.variant_ids.first().copied());
    }
}

#[test]
fn incremental_price_change_and_deletion() {
    let mut catalog = sample_catalog();
    let tmp = tempfile::tempdir().unwrap();
    let first = build(tmp.path(), &catalog);
    assert!(first.iter().all(|u| u.upserted == catalog.products.len()));

    // Unchanged catalog: nothing rewritten, same generation.
    let before = open(tmp.path(), "uk").generation;
    let again = build(tmp.path(), &catalog);
    assert!(
        again
            .iter()
            .all(|u| u.upserted == 0 && u.generation.is_none())
    );
    assert_eq!(open(tmp.path(), "uk").generation, before);

    // A price change: only that product is re-indexed, and the new price is served.
    let product = catalog.products.iter_mut().find(|p| p.id == 112).unwrap();
    for way in &mut Arc::make_mut(product).colourways {
        way.prices[0].price.minor = 1234;
        way.prices[0].sale = None;
    }
    let update = build(tmp.path(), &catalog);
    assert_eq!(update[0].upserted, 1, "{update:?}");
    let uk = open(tmp.path(), "uk");
    assert_ne!(uk.generation, before);
    let hit = uk.search("Ribbed Vest Top").unwrap().remove(0);
    assert_eq!(hit.original_price, 12.34);
    let ribbed = uk.listing.record(112).unwrap();
    assert_eq!(ribbed.price_minor, 1234);
    assert_eq!(ribbed.card.price, "£12.34");

    // A deleted product disappears from search and listings.
    catalog.products.retain(|p| p.id != 101);
    let update = build(tmp.path(), &catalog);
    assert_eq!(
        (update[0].removed, update[0].upserted),
        (1, 0),
        "{update:?}"
    );
    let uk = open(tmp.path(), "uk");
    assert!(
        uk.search("Satin Slip Midi Dress")
            .unwrap()
            .iter()
            .all(|h| h.id != 101)
    );
    assert!(uk.search("274674").unwrap().iter().all(|h| h.id != 101));
    let scope = uk.listing.category(10).unwrap().to_vec();
    let page = uk
        .list(&scope, &Filters::default(), Sort::Featured, 1)
        .unwrap();
    assert!(uk.cards(&page).iter().all(|c| c.id != 101));
    // Only the live generation and the one before it are kept.
    let generations = tmp.path().join("search/generations");
    let uk_generations = std::fs::read_dir(generations)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .starts_with("uk-")
        })
        .count();
    assert_eq!(uk_generations, 2);
}

#[test]
fn unfiltered_listing_matches_the_static_first_page_and_facets() {
    let catalog = sample_catalog();
    let tmp = tempfile::tempdir().unwrap();
    build(tmp.path(), &catalog);
    let site = SiteModel::new(&catalog);
    let uk = open(tmp.path(), "uk");
    for (ci, members) in site.category_products.iter().enumerate() {
        let scope = uk
            .listing
            .category(catalog.categories[ci].id)
            .unwrap_or(&[])
            .to_vec();
        let page = uk
            .list(&scope, &Filters::default(), Sort::Featured, 1)
            .unwrap();
        let ids: Vec<u64> = uk.cards(&page).iter().map(|c| c.id).collect();
        let want: Vec<u64> = members
            .iter()
            .take(48)
            .map(|&pi| catalog.products[pi].id)
            .collect();
        assert_eq!(ids, want, "category {}", catalog.categories[ci].path);
        // The API's unfiltered facet counts equal the static page's.
        assert_eq!(
            serde_json::to_value(&page.facets).unwrap(),
            generator::view::facets::facets(&catalog, members)
        );
    }
}

/// The daemon's memo: an unchanged catalog is not re-derived at all, and a catalog with one
/// product replaced re-indexes that product and gives the same index as an update without memo.
#[test]
fn a_memo_reuses_unchanged_products_and_gives_the_same_index() {
    let memo_dir = tempfile::tempdir().unwrap();
    let plain_dir = tempfile::tempdir().unwrap();
    let mut memo = search_index::SearchMemo::default();
    let first = Arc::new(sample_catalog());
    build_with(memo_dir.path(), &first, &mut memo);
    let again = build_with(memo_dir.path(), &first, &mut memo);
    assert!(
        again
            .iter()
            .all(|u| u.upserted == 0 && u.generation.is_none())
    );

    // The next catalog shares every product but one, as `Catalog::with_products` makes it.
    let mut next = Catalog::clone(&first);
    let at = next.products.iter().position(|p| p.id == 112).unwrap();
    for way in &mut Arc::make_mut(&mut next.products[at]).colourways {
        way.prices[0].price.minor = 4321;
        way.prices[0].sale = None;
    }
    let next = Arc::new(next);
    let update = build_with(memo_dir.path(), &next, &mut memo);
    // Only the UK price changed: the UK index re-indexes that product, the others nothing.
    let upserted: Vec<usize> = update.iter().map(|u| u.upserted).collect();
    assert_eq!(upserted, [1, 0, 0], "{update:?}");
    build(plain_dir.path(), &next);
    for market in ["uk", "us", "eu"] {
        let (with_memo, without) = (
            open(memo_dir.path(), market),
            open(plain_dir.path(), market),
        );
        for p in &next.products {
            assert_eq!(
                with_memo.listing.record(p.id),
                without.listing.record(p.id),
                "{market} {}",
                p.id
            );
        }
    }
    assert_eq!(
        open(memo_dir.path(), "uk")
            .listing
            .record(112)
            .unwrap()
            .price_minor,
        4321
    );
}

/// The records files of a market's live generation: (name, hard-link count).
fn record_chunks(cache: &Path, market: &str) -> Vec<(String, u64)> {
    use std::os::unix::fs::MetadataExt;
    let live =
        search::store::live_generation(&cache.join(search_index::SEARCH_DIR), market).unwrap();
    let mut chunks: Vec<(String, u64)> = std::fs::read_dir(live.join("records"))
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            let name = e.file_name().to_string_lossy().to_string();
            (name, e.metadata().unwrap().nlink())
        })
        .collect();
    chunks.sort();
    chunks
}

#[test]
fn a_change_to_one_product_rewrites_only_its_chunk_of_records() {
    let tmp = tempfile::tempdir().unwrap();
    let export = tmp.path().join("export");
    let options = generator::fixtures::FixtureOptions {
        products: 600,
        seed: 3,
        colours_per_product: 2,
    };
    generator::fixtures::write_fixtures(&export, &options).unwrap();
    let mut catalog = Arc::unwrap_or_clone(export::load_export(&export).unwrap().catalog);
    let cache = tmp.path().join("cache");
    build(&cache, &catalog);
    let before = record_chunks(&cache, "uk");
    assert_eq!(before.len(), 3, "600 records in chunks of 256: {before:?}");

    // The 300th product is in the second chunk.
    let product = Arc::make_mut(&mut catalog.products[299]);
    product.name = "Renamed Chunk Test Dress".into();
    let id = product.id;
    build(&cache, &catalog);
    let after = record_chunks(&cache, "uk");
    assert_eq!(after.len(), 3);
    assert_eq!(after[0], (before[0].0.clone(), 2), "first chunk linked");
    assert_ne!(after[1].0, before[1].0, "the changed chunk is a new file");
    assert_eq!(after[1].1, 1, "written, not linked");
    assert_eq!(after[2], (before[2].0.clone(), 2), "last chunk linked");

    // Read back whole and in catalog order, with the new name.
    let uk = open(&cache, "uk");
    assert_eq!(uk.listing.records.len(), 600);
    assert!(
        uk.listing
            .records
            .iter()
            .zip(&catalog.products)
            .all(|(r, p)| r.id == p.id)
    );
    assert_eq!(
        uk.listing.record(id).unwrap().name,
        "Renamed Chunk Test Dress"
    );
}

#[test]
fn a_prepared_index_goes_live_only_when_committed_and_leaves_nothing_when_dropped() {
    let mut catalog = sample_catalog();
    let tmp = tempfile::tempdir().unwrap();
    build(tmp.path(), &catalog);
    let before = open(tmp.path(), "uk").generation;
    let generations = || -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(tmp.path().join("search/generations"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    let kept = generations();
    let product = catalog.products.iter_mut().find(|p| p.id == 112).unwrap();
    for way in &mut Arc::make_mut(product).colourways {
        way.prices[0].price.minor = 1234;
    }
    let catalog = Arc::new(catalog);
    let content = export::load_export(&sample_dir()).unwrap().content;
    let site = SiteModel::new(&catalog);
    let mut memo = search_index::SearchMemo::default();

    // Prepared and dropped (a build whose pages failed): nothing live changed, nothing left.
    let prepared = search_index::prepare(tmp.path(), &catalog, &content, &site, &mut memo).unwrap();
    assert_eq!(open(tmp.path(), "uk").generation, before);
    assert_eq!(
        generations().len(),
        kept.len() + 1,
        "the new uk generation is written"
    );
    drop(prepared);
    assert_eq!(generations(), kept);
    assert_eq!(open(tmp.path(), "uk").generation, before);

    // Prepared and committed: the new price is served.
    let prepared = search_index::prepare(tmp.path(), &catalog, &content, &site, &mut memo).unwrap();
    assert_eq!(open(tmp.path(), "uk").generation, before);
    let updates = prepared.commit(&mut memo).unwrap();
    assert_eq!(updates[0].upserted, 1, "{updates:?}");
    let uk = open(tmp.path(), "uk");
    assert_ne!(uk.generation, before);
    assert_eq!(uk.listing.record(112).unwrap().price_minor, 1234);
}
