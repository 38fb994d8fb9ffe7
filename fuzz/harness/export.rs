//! The export loader's fuzzed entry points, shared by the fuzz targets and export/tests/fuzz_corpus.rs.
//!
//! Each takes the bytes of one export file, parses it as `storefront build` does and validates it
//! together with the rest of fixtures/sample (cut down to the products in play, so a run stays
//! fast), so a fuzzed product meets real categories, prices and media and reaches the deep rules.

use domain::catalog::{
    Catalog, CatalogExport, FILE_CATEGORIES, FILE_CHANNELS, FILE_COLLECTIONS, FILE_INVENTORY,
    FILE_MEDIA, FILE_PRICES, FILE_PRODUCTS, FILE_STORE,
};
use domain::content::Content;
use domain::error::LoadErrors;
use domain::export::{
    RawCategory, RawChannel, RawCollection, RawInventoryItem, RawMediaSet, RawPriceRecord,
    RawProduct, StoreSettings,
};
use export::read::{parse_content_file, parse_list, parse_object};
use std::collections::{BTreeMap, HashSet};
use std::sync::LazyLock;

/// The sample store, from either crate's directory (both sit beside `fixtures/`).
const SAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/sample");
/// Products of the sample kept in the base export: enough for every option kind, few enough that
/// cloning the base costs little per run.
const BASE_PRODUCTS: usize = 4;

/// The parsed parts of the sample export, cloned into each run (validation consumes them).
pub struct Base {
    store: StoreSettings,
    channels: Vec<RawChannel>,
    categories: Vec<RawCategory>,
    collections: Vec<RawCollection>,
    /// The first few products of the sample: the products of every run but the products target's.
    products: Vec<RawProduct>,
    /// Every price and stock record of the sample; a run keeps those of its products' variants.
    prices: Vec<RawPriceRecord>,
    inventory: Vec<RawInventoryItem>,
    media: BTreeMap<String, RawMediaSet>,
}

fn read(file: &str) -> Vec<u8> {
    std::fs::read(format!("{SAMPLE}/{file}")).unwrap_or_else(|e| panic!("{SAMPLE}/{file}: {e}"))
}

fn sample_list<T: serde::de::DeserializeOwned>(file: &str, noun: &str, id: &str) -> Vec<T> {
    parse_list(&read(file), file, noun, id).unwrap_or_else(|e| panic!("sample {file}: {e}"))
}

pub static BASE: LazyLock<Base> = LazyLock::new(|| Base {
    store: parse_object(&read(FILE_STORE), FILE_STORE).expect("sample store.json"),
    channels: sample_list(FILE_CHANNELS, "channel", "id"),
    categories: sample_list(FILE_CATEGORIES, "category", "id"),
    collections: sample_list(FILE_COLLECTIONS, "collection", "id"),
    products: sample_list::<RawProduct>(FILE_PRODUCTS, "product", "id")
        .into_iter()
        .take(BASE_PRODUCTS)
        .collect(),
    prices: sample_list(FILE_PRICES, "price record", "variant_id"),
    inventory: sample_list(FILE_INVENTORY, "inventory item", "identity"),
    media: parse_object(&read(FILE_MEDIA), FILE_MEDIA).expect("sample media.json"),
});

impl Base {
    /// The sample's export cut down to `products`: collections, prices and stock of other
    /// products left out, so only what the run brings can be wrong.
    fn export(&self, products: Vec<RawProduct>) -> CatalogExport {
        let ids: HashSet<u64> = products.iter().map(|p| p.id).collect();
        let variants: HashSet<u64> = products
            .iter()
            .flat_map(|p| p.variants.iter().map(|v| v.id))
            .collect();
        let mut collections = self.collections.clone();
        for c in &mut collections {
            c.product_ids.retain(|id| ids.contains(id));
        }
        CatalogExport {
            store: self.store.clone(),
            channels: self.channels.clone(),
            categories: self.categories.clone(),
            collections,
            products,
            prices: (self.prices.iter())
                .filter(|p| variants.contains(&p.variant_id))
                .cloned()
                .collect(),
            inventory: (self.inventory.iter())
                .filter(|i| variants.contains(&i.identity.variant_id))
                .cloned()
                .collect(),
            media: self.media.clone(),
        }
    }
}

/// What a run ended with: the catalog or content validated, or the problems found. Either is fine;
/// a panic, a hang or runaway memory is the failure.
pub type Outcome = Result<(), LoadErrors>;

/// Every error must say where the problem is, and what it is, in a bounded line.
pub fn check_errors(outcome: &Outcome) {
    if let Err(errors) = outcome {
        assert!(!errors.0.is_empty(), "an Err with no error in it");
        for e in &errors.0 {
            assert!(
                !e.file.is_empty() && !e.item.is_empty() && !e.field.is_empty(),
                "{e:?}"
            );
            assert!(!e.message.is_empty(), "{e:?}");
            assert!(e.to_string().len() < 4096, "an unbounded error line: {e}");
        }
    }
}

/// The base export with `catalog/products.json` replaced by `data`.
pub fn products(data: &[u8]) -> Outcome {
    let products = parse_list::<RawProduct>(data, FILE_PRODUCTS, "product", "id")?;
    Catalog::from_export(BASE.export(products)).map(drop)
}

/// The base export with `catalog/price-lists.json` replaced by `data`.
pub fn price_lists(data: &[u8]) -> Outcome {
    let prices = parse_list::<RawPriceRecord>(data, FILE_PRICES, "price record", "variant_id")?;
    let export = CatalogExport {
        prices,
        ..BASE.export(BASE.products.clone())
    };
    Catalog::from_export(export).map(drop)
}

/// The other catalog files, the first byte picking which one `data` replaces: categories,
/// collections, inventory, channels, `store.json` or media.
pub fn catalog_file(data: &[u8]) -> Outcome {
    let Some((&which, data)) = data.split_first() else {
        return Ok(());
    };
    let mut export = BASE.export(BASE.products.clone());
    match which % 6 {
        0 => export.categories = parse_list(data, FILE_CATEGORIES, "category", "id")?,
        1 => export.collections = parse_list(data, FILE_COLLECTIONS, "collection", "id")?,
        2 => export.inventory = parse_list(data, FILE_INVENTORY, "inventory item", "identity")?,
        3 => export.channels = parse_list(data, FILE_CHANNELS, "channel", "id")?,
        4 => export.store = parse_object(data, FILE_STORE)?,
        _ => export.media = parse_object(data, FILE_MEDIA)?,
    }
    Catalog::from_export(export).map(drop)
}

/// One content file (`content/uk.json`): the delivery API page, its items, slots, pages and
/// every block's rules.
pub fn content(data: &[u8]) -> Outcome {
    let sources = parse_content_file("content/uk.json", data)?;
    Content::from_sources(sources).map(drop)
}

/// The base export is valid, with its few products and with the whole sample: otherwise every
/// run would end at its errors and prove nothing.
pub fn base_is_valid() -> Outcome {
    Catalog::from_export(BASE.export(BASE.products.clone()))?;
    let all = sample_list(FILE_PRODUCTS, "product", "id");
    Catalog::from_export(BASE.export(all)).map(drop)
}
