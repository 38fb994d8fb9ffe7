//! Where a webhook-driven rebuild gets fresh data for the items a webhook named. `FreshSource` is
//! the seam: `LocalExport` reads the export directory (what `storefront dev`/`serve` build from,
//! e.g. the sample store or `content-cache/export` after an import); `ImporterSource` (the root
//! crate's `src/rebuild/importer_source.rs`) implements it with the HTTP importer's per-item
//! fetchers against the real source APIs. Items come back as the sources' JSON so the daemon can
//! tell a fresh version from the one it already has.

pub use crate::error::FetchError;
use crate::keyed_file::{KeyOf, KeyedFile, RecordKey};
use crate::model::SourceModel;
pub use crate::raw::{
    ProductRecord, delivery_id, id_of, inventory_variant, read_content_items, read_data_list,
    variant_ids,
};
use domain::catalog::{FILE_CATEGORIES, FILE_INVENTORY, FILE_PRICES, FILE_PRODUCTS};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// Fresh data for changed items. `None` means the source no longer has the item (deleted).
pub trait FreshSource: Send + Sync {
    fn products(&self, ids: &[u64]) -> Result<BTreeMap<u64, Option<ProductRecord>>, FetchError>;
    /// Stock records of each product's variants.
    fn inventory(&self, product_ids: &[u64]) -> Result<BTreeMap<u64, Vec<Value>>, FetchError>;
    fn categories(&self, ids: &[u64]) -> Result<BTreeMap<u64, Option<Value>>, FetchError>;
    /// Published content items by id (`_meta.deliveryId`).
    fn content(&self, ids: &[String]) -> Result<BTreeMap<String, Option<Value>>, FetchError>;
    /// A content item as the staging host `staging_domain` serves it (unpublished edits, at the
    /// preview time). A source without staging access answers with the published item.
    fn preview_item(&self, staging_domain: &str, id: &str) -> Result<Option<Value>, FetchError> {
        let _ = staging_domain;
        Ok(self.content(&[id.to_string()])?.remove(id).flatten())
    }
    /// Called after a webhook rebuild has gone live with the model it was built from, so that
    /// whatever full builds read next sees the fetched items. A source whose export on disk is
    /// already the truth (`LocalExport`) has nothing to do.
    fn keep(&self, model: &SourceModel) -> Result<(), FetchError> {
        let _ = model;
        Ok(())
    }
    /// Called once by the daemon's worker before it waits for changes: a source that can do
    /// ahead what its first fetch would otherwise pay for (`LocalExport` keys its catalog
    /// files) does it then. A failure here is left for that fetch to report.
    fn prepare(&self) {}
}

/// The export directory as a source: each call reads the files it needs, and the catalog files
/// are re-keyed from what changed since the last call (`KeyedFile::reread`).
pub struct LocalExport {
    dir: PathBuf,
    /// Each catalog file as last keyed.
    keyed: Mutex<HashMap<&'static str, Arc<KeyedFile>>>,
}

impl LocalExport {
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        LocalExport {
            dir: dir.into(),
            keyed: Mutex::default(),
        }
    }

    /// `file` as it is now, keyed by `key`.
    fn keyed(&self, file: &'static str, key: KeyOf) -> Result<Arc<KeyedFile>, FetchError> {
        let bytes = std::fs::read(self.dir.join(file)).map_err(|e| FetchError {
            source_name: file.to_string(),
            why: format!("cannot be read: {e}"),
        })?;
        let kept = self.keyed_files().get(file).cloned();
        let now = Arc::new(match kept {
            Some(kept) => kept.reread(bytes)?.0,
            None => KeyedFile::parse(file, key, bytes)?,
        });
        self.keyed_files().insert(file, now.clone());
        Ok(now)
    }

    fn keyed_files(&self) -> std::sync::MutexGuard<'_, HashMap<&'static str, Arc<KeyedFile>>> {
        self.keyed.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The product, price and stock files, keyed at once: a product's price and stock records
    /// are picked by variant ids, which only the product file gives, but keying them does not
    /// need those.
    #[allow(clippy::type_complexity)]
    fn catalog_files(
        &self,
    ) -> (
        Result<Arc<KeyedFile>, FetchError>,
        Result<Arc<KeyedFile>, FetchError>,
        Result<Arc<KeyedFile>, FetchError>,
    ) {
        let (products, (prices, stock)) = rayon::join(
            || self.products_file(),
            || {
                rayon::join(
                    || self.variant_file(FILE_PRICES),
                    || self.variant_file(FILE_INVENTORY),
                )
            },
        );
        (products, prices, stock)
    }

    fn products_file(&self) -> Result<Arc<KeyedFile>, FetchError> {
        self.keyed(FILE_PRODUCTS, |k| k.id)
    }

    fn variant_file(&self, file: &'static str) -> Result<Arc<KeyedFile>, FetchError> {
        self.keyed(file, RecordKey::variant)
    }
}

/// The products with these ids, as in the export.
fn products_by_id(file: &KeyedFile, ids: &[u64]) -> Result<BTreeMap<u64, Value>, FetchError> {
    let wanted: BTreeSet<u64> = ids.iter().copied().collect();
    Ok(file
        .matching(|id| wanted.contains(&id))?
        .into_iter()
        .filter_map(|p| id_of(&p, "id").map(|id| (id, p)))
        .collect())
}

/// The records of `file` (prices or stock) of each product's variants.
fn variant_records(
    file: &KeyedFile,
    products: &BTreeMap<u64, BTreeSet<u64>>,
) -> Result<BTreeMap<u64, Vec<Value>>, FetchError> {
    let owner: BTreeMap<u64, u64> = products
        .iter()
        .flat_map(|(&product, variants)| variants.iter().map(move |&v| (v, product)))
        .collect();
    let mut out: BTreeMap<u64, Vec<Value>> = products.keys().map(|&id| (id, Vec::new())).collect();
    for record in file.matching(|v| owner.contains_key(&v))? {
        let variant = id_of(&record, "variant_id").or_else(|| inventory_variant(&record));
        if let Some(product) = variant.and_then(|v| owner.get(&v)) {
            out.entry(*product).or_default().push(record);
        }
    }
    Ok(out)
}

/// Each product's variant ids.
fn variants_of(products: &BTreeMap<u64, Value>) -> BTreeMap<u64, BTreeSet<u64>> {
    products
        .iter()
        .map(|(&id, p)| (id, variant_ids(p)))
        .collect()
}

impl FreshSource for LocalExport {
    fn prepare(&self) {
        let _ = self.catalog_files();
    }

    fn products(&self, ids: &[u64]) -> Result<BTreeMap<u64, Option<ProductRecord>>, FetchError> {
        let (products, prices, stock) = self.catalog_files();
        let found = products_by_id(&*products?, ids)?;
        let variants = variants_of(&found);
        let mut prices = variant_records(&*prices?, &variants)?;
        let mut stock = variant_records(&*stock?, &variants)?;
        Ok(ids
            .iter()
            .map(|&id| {
                let record = found.get(&id).map(|p| ProductRecord {
                    product: p.clone(),
                    prices: prices.remove(&id).unwrap_or_default(),
                    inventory: stock.remove(&id).unwrap_or_default(),
                });
                (id, record)
            })
            .collect())
    }

    fn inventory(&self, product_ids: &[u64]) -> Result<BTreeMap<u64, Vec<Value>>, FetchError> {
        let (products, stock) = rayon::join(
            || self.products_file(),
            || self.variant_file(FILE_INVENTORY),
        );
        let variants = variants_of(&products_by_id(&*products?, product_ids)?);
        variant_records(&*stock?, &variants)
    }

    fn categories(&self, ids: &[u64]) -> Result<BTreeMap<u64, Option<Value>>, FetchError> {
        let mut all: BTreeMap<u64, Value> = read_data_list(&self.dir, FILE_CATEGORIES)?
            .into_iter()
            .filter_map(|c| id_of(&c, "id").map(|id| (id, c)))
            .collect();
        Ok(ids.iter().map(|&id| (id, all.remove(&id))).collect())
    }

    fn content(&self, ids: &[String]) -> Result<BTreeMap<String, Option<Value>>, FetchError> {
        let mut all: BTreeMap<String, Value> = read_content_items(&self.dir)?
            .into_iter()
            .filter_map(|(_, item)| delivery_id(&item).map(str::to_string).map(|id| (id, item)))
            .collect();
        Ok(ids.iter().map(|id| (id.clone(), all.remove(id))).collect())
    }
}
