//! The source data a daemon keeps in memory between rebuilds: the raw export items (so that one
//! changed product does not mean re-reading and re-parsing the whole export) plus a fingerprint of
//! each item as last fetched, so a fetch that still returns the old version can be recognised.

use crate::Change;
use crate::error::FetchError;
use crate::raw::{
    ProductRecord, delivery_id, id_of, inventory_variant, read_content_items, read_data_list,
    variant_ids,
};
use crate::validate::{Inputs, validate};
use domain::catalog::*;
use domain::content::{Content, ContentSource};
use domain::error::{LoadError, LoadErrors};
use domain::export::*;
use domain::shops::{FILE_GAZETTEER, FILE_LOCATIONS, ShopFinder};
use imbl::OrdMap;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Fresh versions of changed items, as fetched.
#[derive(Debug, Default)]
pub struct Fresh {
    pub products: BTreeMap<u64, Option<ProductRecord>>,
    pub inventory: BTreeMap<u64, Vec<Value>>,
    pub categories: BTreeMap<u64, Option<Value>>,
    pub content: BTreeMap<String, Option<Value>>,
}

/// Every rebuild applies its changes to a copy (a rejected change must leave the model as it
/// was), so the big collections are cheap to copy: products are shared, price and stock records
/// are persistent maps by variant id, and media (which webhooks do not change) is shared whole.
#[derive(Clone)]
pub struct SourceModel {
    media_dir: Option<PathBuf>,
    store: StoreSettings,
    channels: Vec<RawChannel>,
    collections: Vec<RawCollection>,
    media: Arc<BTreeMap<String, RawMediaSet>>,
    categories: Vec<RawCategory>,
    products: Vec<Arc<RawProduct>>,
    /// Price records by variant id, in file order within a variant.
    prices: OrdMap<u64, Vec<RawPriceRecord>>,
    /// Stock records by variant id, in file order within a variant.
    inventory: OrdMap<u64, Vec<RawInventoryItem>>,
    /// (file, item) as in the export, in file order.
    content: Vec<(String, Value)>,
    /// The shop finder's files as read (`None`: not in the export), written back as they are.
    locations: Option<Arc<Vec<RawLocation>>>,
    places: Option<Arc<Vec<RawPlace>>>,
    /// The same, validated: no webhook changes them, so every rebuild shares this.
    shops: Arc<ShopFinder>,
    fingerprints: imbl::HashMap<Change, [u8; 32]>,
}

fn fingerprint<'a>(values: impl IntoIterator<Item = &'a Value>) -> [u8; 32] {
    let mut h = blake3::Hasher::new();
    for v in values {
        h.update(&serde_json::to_vec(v).unwrap_or_default());
        h.update(b"\0");
    }
    *h.finalize().as_bytes()
}

fn typed<T: DeserializeOwned>(file: &str, item: String, v: &Value) -> Result<T, LoadError> {
    serde_path_to_error::deserialize(v).map_err(|e| {
        let path = e.path().to_string();
        LoadError::new(
            file,
            item,
            if path == "." { "-".into() } else { path },
            e.into_inner().to_string(),
        )
    })
}

fn fetch_failed(e: FetchError) -> LoadErrors {
    LoadErrors(vec![LoadError::new(e.source_name, "file", "-", e.why)])
}

/// Like `fingerprint`, but the records' order does not count: the export lists price and stock
/// records in file order, the per-item fetches in the order the source pages them, and the same
/// records in another order are not a new version.
fn records_fingerprint<'a>(
    head: Option<&'a Value>,
    records: impl IntoIterator<Item = &'a Value>,
) -> [u8; 32] {
    let mut encoded: Vec<Vec<u8>> = records
        .into_iter()
        .map(|v| serde_json::to_vec(v).unwrap_or_default())
        .collect();
    encoded.sort_unstable();
    let mut h = blake3::Hasher::new();
    if let Some(head) = head {
        h.update(&serde_json::to_vec(head).unwrap_or_default());
        h.update(b"\0\0");
    }
    for e in encoded {
        h.update(&e);
        h.update(b"\0");
    }
    *h.finalize().as_bytes()
}

fn product_record_fingerprint(r: &ProductRecord) -> [u8; 32] {
    records_fingerprint(Some(&r.product), &r.prices)
}

/// An object file of the export (`store.json`, `catalog/media.json`) as `T`.
fn read_object<T: DeserializeOwned>(dir: &Path, file: &str) -> Result<T, LoadErrors> {
    let bytes = std::fs::read(dir.join(file)).map_err(|e| {
        fetch_failed(FetchError {
            source_name: file.into(),
            why: e.to_string(),
        })
    })?;
    serde_json::from_slice(&bytes)
        .map_err(|e| LoadErrors(vec![LoadError::new(file, "file", "-", e.to_string())]))
}

impl SourceModel {
    /// Reads an export directory. Call after `crate::read::load_export` succeeded on it, so
    /// the shapes are known good; errors still name the file and item.
    pub fn read(dir: &Path) -> Result<SourceModel, LoadErrors> {
        let store: StoreSettings = read_object(dir, FILE_STORE)?;
        let media: BTreeMap<String, RawMediaSet> = read_object(dir, FILE_MEDIA)?;
        let list = |file: &str| read_data_list(dir, file).map_err(fetch_failed);
        let mut errors = LoadErrors::default();
        // Optional files: absent stays absent when the model writes its export.
        let optional = |file: &str| dir.join(file).is_file().then(|| list(file)).transpose();
        let locations: Option<Vec<RawLocation>> = optional(FILE_LOCATIONS)?.map(|items| {
            items
                .iter()
                .filter_map(
                    |v| match typed(FILE_LOCATIONS, format!("location {}", v["id"]), v) {
                        Ok(l) => Some(l),
                        Err(e) => {
                            errors.push(e);
                            None
                        }
                    },
                )
                .collect()
        });
        let places: Option<Vec<RawPlace>> = optional(FILE_GAZETTEER)?.map(|items| {
            items
                .iter()
                .filter_map(
                    |v| match typed(FILE_GAZETTEER, format!("place {}", v["name"]), v) {
                        Ok(p) => Some(p),
                        Err(e) => {
                            errors.push(e);
                            None
                        }
                    },
                )
                .collect()
        });
        let shops = ShopFinder::from_export(
            locations.as_deref().unwrap_or_default(),
            places.as_deref().unwrap_or_default(),
        )
        .unwrap_or_else(|e| {
            errors.extend(e);
            ShopFinder::default()
        });
        let product_values = list(FILE_PRODUCTS)?;
        let price_values = list(FILE_PRICES)?;
        let inventory_values = list(FILE_INVENTORY)?;
        let category_values = list(FILE_CATEGORIES)?;
        let mut model = SourceModel {
            media_dir: Some(dir.join("media")).filter(|d| d.is_dir()),
            store,
            channels: Vec::new(),
            collections: Vec::new(),
            media: Arc::new(media),
            categories: Vec::new(),
            products: Vec::new(),
            prices: OrdMap::new(),
            inventory: OrdMap::new(),
            content: read_content_items(dir).map_err(fetch_failed)?,
            locations: locations.map(Arc::new),
            places: places.map(Arc::new),
            shops: Arc::new(shops),
            fingerprints: imbl::HashMap::new(),
        };
        for v in list(FILE_CHANNELS)? {
            match typed(FILE_CHANNELS, format!("channel {}", v["id"]), &v) {
                Ok(c) => model.channels.push(c),
                Err(e) => errors.push(e),
            }
        }
        for v in list(FILE_COLLECTIONS)? {
            match typed(FILE_COLLECTIONS, format!("collection {}", v["id"]), &v) {
                Ok(c) => model.collections.push(c),
                Err(e) => errors.push(e),
            }
        }
        for v in &category_values {
            match typed(FILE_CATEGORIES, format!("category {}", v["id"]), v) {
                Ok(c) => model.categories.push(c),
                Err(e) => errors.push(e),
            }
            if let Some(id) = id_of(v, "id") {
                model
                    .fingerprints
                    .insert(Change::Category(id), fingerprint([v]));
            }
        }
        // Group price and stock records by product, to fingerprint what a product fetch returns.
        let mut owner: HashMap<u64, u64> = HashMap::new();
        for p in &product_values {
            if let Some(id) = id_of(p, "id") {
                for v in variant_ids(p) {
                    owner.insert(v, id);
                }
            }
        }
        let mut prices_of: HashMap<u64, Vec<&Value>> = HashMap::new();
        for v in &price_values {
            if let Some(p) = id_of(v, "variant_id").and_then(|vid| owner.get(&vid)) {
                prices_of.entry(*p).or_default().push(v);
            }
            match typed::<RawPriceRecord>(
                FILE_PRICES,
                format!("price record {}", v["variant_id"]),
                v,
            ) {
                Ok(r) => model.prices.entry(r.variant_id).or_default().push(r),
                Err(e) => errors.push(e),
            }
        }
        let mut stock_of: HashMap<u64, Vec<&Value>> = HashMap::new();
        for v in &inventory_values {
            if let Some(p) = inventory_variant(v).and_then(|vid| owner.get(&vid)) {
                stock_of.entry(*p).or_default().push(v);
            }
            match typed::<RawInventoryItem>(
                FILE_INVENTORY,
                format!("inventory item {}", v["identity"]["variant_id"]),
                v,
            ) {
                Ok(r) => model
                    .inventory
                    .entry(r.identity.variant_id)
                    .or_default()
                    .push(r),
                Err(e) => errors.push(e),
            }
        }
        for v in &product_values {
            match typed::<RawProduct>(FILE_PRODUCTS, format!("product {}", v["id"]), v) {
                Ok(p) => {
                    let prices = prices_of.remove(&p.id).unwrap_or_default();
                    model
                        .fingerprints
                        .insert(Change::Product(p.id), records_fingerprint(Some(v), prices));
                    model.fingerprints.insert(
                        Change::Inventory(p.id),
                        records_fingerprint(None, stock_of.remove(&p.id).unwrap_or_default()),
                    );
                    model.products.push(Arc::new(p));
                }
                Err(e) => errors.push(e),
            }
        }
        for (_, item) in &model.content {
            if let Some(id) = delivery_id(item) {
                model
                    .fingerprints
                    .insert(Change::Content(id.to_string()), fingerprint([item]));
            }
        }
        errors.into_result(model)
    }

    /// Changes whose fetched version is the one already held (the source has not caught up).
    pub fn stale(&self, fresh: &Fresh) -> BTreeSet<Change> {
        let same = |c: Change, f: [u8; 32]| (self.fingerprints.get(&c) == Some(&f)).then_some(c);
        let mut out = BTreeSet::new();
        for (&id, r) in &fresh.products {
            let f = r.as_ref().map(product_record_fingerprint);
            out.extend(f.and_then(|f| same(Change::Product(id), f)));
            if r.is_none() && !self.fingerprints.contains_key(&Change::Product(id)) {
                out.insert(Change::Product(id)); // deleted, and already gone
            }
        }
        for (&id, records) in &fresh.inventory {
            out.extend(same(
                Change::Inventory(id),
                records_fingerprint(None, records),
            ));
        }
        for (&id, c) in &fresh.categories {
            out.extend(
                c.as_ref()
                    .and_then(|c| same(Change::Category(id), fingerprint([c]))),
            );
        }
        for (id, c) in &fresh.content {
            out.extend(
                c.as_ref()
                    .and_then(|c| same(Change::Content(id.clone()), fingerprint([c]))),
            );
        }
        out
    }

    /// The content items of `items` (as read from the export) that differ from the model's, and
    /// the model's items that are gone, as fresh data to apply.
    pub fn content_diff(&self, items: Vec<(String, Value)>) -> Fresh {
        let mut fresh = Fresh::default();
        let mut seen = BTreeSet::new();
        for (_, item) in items {
            let Some(id) = delivery_id(&item).map(str::to_string) else {
                continue;
            };
            seen.insert(id.clone());
            if self.fingerprints.get(&Change::Content(id.clone())) != Some(&fingerprint([&item])) {
                fresh.content.insert(id, Some(item));
            }
        }
        for (_, item) in &self.content {
            if let Some(id) = delivery_id(item).filter(|id| !seen.contains(*id)) {
                fresh.content.insert(id.to_string(), None);
            }
        }
        fresh
    }

    /// A new model with the fresh items applied; `self` is left as it was.
    pub fn apply(&self, fresh: &Fresh) -> Result<SourceModel, LoadErrors> {
        let mut next = self.clone();
        let mut errors = LoadErrors::default();
        for (&id, record) in &fresh.products {
            let old_variants: BTreeSet<u64> = next
                .products
                .iter()
                .find(|p| p.id == id)
                .map(|p| p.variants.iter().map(|v| v.id).collect())
                .unwrap_or_default();
            let Some(record) = record else {
                next.products.retain(|p| p.id != id);
                for v in &old_variants {
                    next.prices.remove(v);
                    next.inventory.remove(v);
                }
                next.fingerprints.remove(&Change::Product(id));
                next.fingerprints.remove(&Change::Inventory(id));
                continue;
            };
            let product: RawProduct =
                match typed(FILE_PRODUCTS, format!("product {id}"), &record.product) {
                    Ok(p) => p,
                    Err(e) => {
                        errors.push(e);
                        continue;
                    }
                };
            let variants: BTreeSet<u64> = product.variants.iter().map(|v| v.id).collect();
            let mut prices: Vec<RawPriceRecord> = Vec::new();
            for v in &record.prices {
                match typed(FILE_PRICES, format!("price record {}", v["variant_id"]), v) {
                    Ok(r) => prices.push(r),
                    Err(e) => errors.push(e),
                }
            }
            for v in old_variants.iter().chain(&variants) {
                next.prices.remove(v);
            }
            for r in prices {
                next.prices.entry(r.variant_id).or_default().push(r);
            }
            next.fingerprints
                .insert(Change::Product(id), product_record_fingerprint(record));
            match next.products.iter_mut().find(|p| p.id == id) {
                Some(slot) => *slot = Arc::new(product),
                None => next.products.push(Arc::new(product)),
            }
            next.replace_stock(id, &old_variants, &record.inventory, &mut errors);
        }
        for (&id, records) in &fresh.inventory {
            let variants: BTreeSet<u64> = next
                .products
                .iter()
                .find(|p| p.id == id)
                .map(|p| p.variants.iter().map(|v| v.id).collect())
                .unwrap_or_default();
            next.replace_stock(id, &variants, records, &mut errors);
        }
        for (&id, category) in &fresh.categories {
            match category {
                None => {
                    next.categories.retain(|c| c.id != id);
                    next.fingerprints.remove(&Change::Category(id));
                }
                Some(v) => match typed::<RawCategory>(FILE_CATEGORIES, format!("category {id}"), v)
                {
                    Ok(c) => {
                        next.fingerprints
                            .insert(Change::Category(id), fingerprint([v]));
                        match next.categories.iter_mut().find(|x| x.id == id) {
                            Some(slot) => *slot = c,
                            None => next.categories.push(c),
                        }
                    }
                    Err(e) => errors.push(e),
                },
            }
        }
        for (id, item) in &fresh.content {
            let at = next
                .content
                .iter()
                .position(|(_, v)| delivery_id(v) == Some(id));
            match (item, at) {
                (None, Some(i)) => {
                    next.content.remove(i);
                    next.fingerprints.remove(&Change::Content(id.clone()));
                }
                (None, None) => {}
                (Some(v), at) => {
                    next.fingerprints
                        .insert(Change::Content(id.clone()), fingerprint([v]));
                    match at {
                        Some(i) => next.content[i].1 = v.clone(),
                        // New items go to a file of their own market, named for the webhook.
                        None => next
                            .content
                            .push(("content/webhook.json".into(), v.clone())),
                    }
                }
            }
        }
        errors.into_result(next)
    }

    fn replace_stock(
        &mut self,
        product: u64,
        variants: &BTreeSet<u64>,
        records: &[Value],
        errors: &mut LoadErrors,
    ) {
        let mut fresh = Vec::new();
        for v in records {
            match typed::<RawInventoryItem>(
                FILE_INVENTORY,
                format!("inventory item {}", v["identity"]["variant_id"]),
                v,
            ) {
                Ok(r) => fresh.push(r),
                Err(e) => errors.push(e),
            }
        }
        let replaced: BTreeSet<u64> = variants
            .iter()
            .copied()
            .chain(fresh.iter().map(|r| r.identity.variant_id))
            .collect();
        for v in &replaced {
            self.inventory.remove(v);
        }
        for r in fresh {
            self.inventory
                .entry(r.identity.variant_id)
                .or_default()
                .push(r);
        }
        self.fingerprints.insert(
            Change::Inventory(product),
            records_fingerprint(None, records),
        );
    }

    /// Writes the model as an export directory (docs/formats.md), e.g. to keep what webhook
    /// rebuilds fetched. Content items go back to the file they came from, in order.
    pub fn write_export(&self, dir: &Path) -> Result<(), FetchError> {
        let write = |file: &str, value: &Value| -> Result<(), FetchError> {
            let path = dir.join(file);
            let err = |why: String| FetchError {
                source_name: path.display().to_string(),
                why,
            };
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)
                    .map_err(|e| err(format!("cannot create the folder: {e}")))?;
            }
            let bytes =
                serde_json::to_vec(value).map_err(|e| err(format!("cannot serialise: {e}")))?;
            std::fs::write(&path, bytes).map_err(|e| err(format!("cannot be written: {e}")))
        };
        let data = |file: &str, items: Result<Value, serde_json::Error>| {
            let items = items.map_err(|e| FetchError {
                source_name: file.to_string(),
                why: format!("cannot serialise: {e}"),
            })?;
            write(file, &serde_json::json!({ "data": items }))
        };
        write(
            FILE_STORE,
            &serde_json::to_value(&self.store).map_err(|e| FetchError {
                source_name: FILE_STORE.into(),
                why: format!("cannot serialise: {e}"),
            })?,
        )?;
        data(FILE_CHANNELS, serde_json::to_value(&self.channels))?;
        data(FILE_CATEGORIES, serde_json::to_value(&self.categories))?;
        data(FILE_COLLECTIONS, serde_json::to_value(&self.collections))?;
        data(FILE_PRODUCTS, serde_json::to_value(self.raw_products()))?;
        data(FILE_PRICES, serde_json::to_value(self.raw_prices()))?;
        data(FILE_INVENTORY, serde_json::to_value(self.raw_inventory()))?;
        write(
            FILE_MEDIA,
            &serde_json::to_value(&*self.media).map_err(|e| FetchError {
                source_name: FILE_MEDIA.into(),
                why: format!("cannot serialise: {e}"),
            })?,
        )?;
        if let Some(locations) = &self.locations {
            data(FILE_LOCATIONS, serde_json::to_value(&**locations))?;
        }
        if let Some(places) = &self.places {
            data(FILE_GAZETTEER, serde_json::to_value(&**places))?;
        }
        let mut files: Vec<(&str, Vec<Value>)> = Vec::new();
        for (file, item) in &self.content {
            let at = match files.iter().position(|(f, _)| f == file) {
                Some(i) => i,
                None => {
                    files.push((file.as_str(), Vec::new()));
                    files.len() - 1
                }
            };
            files[at].1.push(serde_json::json!({ "content": item }));
        }
        for (file, responses) in files {
            let count = responses.len();
            write(
                file,
                &serde_json::json!({ "responses": responses, "page": { "responseCount": count } }),
            )?;
        }
        Ok(())
    }

    /// The export records of products `ids` (those the model holds): the products, their price
    /// records and their stock records, for `Catalog::with_products`.
    pub fn product_records(
        &self,
        ids: &BTreeSet<u64>,
    ) -> (Vec<RawProduct>, Vec<RawPriceRecord>, Vec<RawInventoryItem>) {
        let products: Vec<RawProduct> = self
            .products
            .iter()
            .filter(|p| ids.contains(&p.id))
            .map(|p| RawProduct::clone(p))
            .collect();
        let variants: BTreeSet<u64> = products
            .iter()
            .flat_map(|p| p.variants.iter().map(|v| v.id))
            .collect();
        let prices = variants
            .iter()
            .flat_map(|v| self.prices.get(v).into_iter().flatten().cloned())
            .collect();
        let inventory = variants
            .iter()
            .flat_map(|v| self.inventory.get(v).into_iter().flatten().cloned())
            .collect();
        (products, prices, inventory)
    }

    fn raw_products(&self) -> Vec<RawProduct> {
        self.products.iter().map(|p| RawProduct::clone(p)).collect()
    }

    fn raw_prices(&self) -> Vec<RawPriceRecord> {
        self.prices.values().flatten().cloned().collect()
    }

    fn raw_inventory(&self) -> Vec<RawInventoryItem> {
        self.inventory.values().flatten().cloned().collect()
    }

    pub fn media(&self) -> &BTreeMap<String, RawMediaSet> {
        &self.media
    }

    /// The shop finder's shops and gazetteer, validated when the export was read.
    pub fn shops(&self) -> Arc<ShopFinder> {
        self.shops.clone()
    }

    /// The model's content, validated (the same rules as a build from disk).
    pub fn content(&self) -> Result<Content, LoadErrors> {
        Content::from_sources(self.content_sources())
    }

    fn content_sources(&self) -> Vec<ContentSource> {
        self.content
            .iter()
            .map(|(file, item)| ContentSource {
                file: file.clone(),
                item: item.clone(),
            })
            .collect()
    }

    /// Validates the model into the generator's inputs (the same rules as a build from disk).
    pub fn inputs(&self) -> Result<Inputs, LoadErrors> {
        validate(
            CatalogExport {
                store: self.store.clone(),
                channels: self.channels.clone(),
                categories: self.categories.clone(),
                collections: self.collections.clone(),
                products: self.raw_products(),
                prices: self.raw_prices(),
                inventory: self.raw_inventory(),
                media: BTreeMap::clone(&self.media),
            },
            self.content_sources(),
            || Ok(self.shops()),
            self.media_dir.clone(),
        )
    }
}
