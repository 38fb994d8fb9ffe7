//! The real source APIs as the rebuild daemon's `FreshSource`: a webhook names items, and their
//! fresh versions are fetched with the importer's per-item fetchers (the same clients, HTTP policy
//! and mapping as `storefront import`, without the ETag cache). After a rebuild has gone live the
//! daemon's model is written back as a new import generation (`keep`), so `content-cache/export`
//! — what `storefront build`, the API's catalog and the next daemon start read — holds what is
//! served. See docs/import.md "Webhook-driven rebuilds".

use domain::export::RawProduct;
use export::model::SourceModel;
use export::source::{FetchError, FreshSource, ProductRecord, delivery_id};
use importer::cache_dir::ImportCache;
use importer::{CatalogClient, ContentClient, ImportConfig, ImportError};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

pub struct ImporterSource {
    /// The fetchers are async; the daemon's worker is a plain thread, so it drives them here.
    runtime: tokio::runtime::Runtime,
    catalog: CatalogClient,
    content: ContentClient,
    /// For content previews, which fetch from a virtual staging host (`ContentClient::for_staging`).
    config: ImportConfig,
    /// `content-cache/`, whose `export` symlink is swapped when the model is kept.
    cache_dir: PathBuf,
    /// The collections parent and its descendants: they are not listings, so a full import takes
    /// them out of the category tree and out of each product's `categories`; the per-item fetches
    /// must do the same or the product would name a category the build does not know.
    collection_categories: Mutex<BTreeSet<u64>>,
}

fn catalog_error(e: ImportError) -> FetchError {
    FetchError {
        source_name: "catalog API".into(),
        why: e.to_string(),
    }
}

fn content_error(e: ImportError) -> FetchError {
    FetchError {
        source_name: "content API".into(),
        why: e.to_string(),
    }
}

fn to_value(what: &str, v: &impl serde::Serialize) -> Result<Value, FetchError> {
    serde_json::to_value(v).map_err(|e| FetchError {
        source_name: "catalog API".into(),
        why: format!("{what}: cannot be represented as JSON: {e}"),
    })
}

impl ImporterSource {
    /// Clients for the configured sources; `export_dir` is the live import (its collections tell
    /// which categories are collections).
    pub fn new(
        cfg: &ImportConfig,
        cache_dir: &Path,
        export_dir: &Path,
    ) -> Result<Self, ImportError> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| ImportError::Io {
                path: "async runtime".into(),
                why: format!("cannot start: {e}"),
            })?;
        let mut collection_categories: BTreeSet<u64> =
            cfg.catalog.collections_category.into_iter().collect();
        if !collection_categories.is_empty() {
            let collections =
                export::source::read_data_list(export_dir, domain::catalog::FILE_COLLECTIONS)
                    .map_err(|e| ImportError::Io {
                        path: export_dir.join(&e.source_name).display().to_string(),
                        why: e.why,
                    })?;
            collection_categories.extend(
                collections
                    .iter()
                    .filter_map(|c| export::source::id_of(c, "id")),
            );
        }
        Ok(ImporterSource {
            runtime,
            catalog: CatalogClient::new(cfg)?,
            content: ContentClient::new(cfg)?,
            config: cfg.clone(),
            cache_dir: cache_dir.to_path_buf(),
            collection_categories: Mutex::new(collection_categories),
        })
    }

    fn collection_categories(&self) -> BTreeSet<u64> {
        self.collection_categories
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Fresh products with collection categories taken out, as a full import maps them.
    fn fetch_products(&self, ids: &[u64]) -> Result<Vec<RawProduct>, FetchError> {
        let mut products = self
            .runtime
            .block_on(importer::fetch_products(&self.catalog, ids))
            .map_err(catalog_error)?;
        let collections = self.collection_categories();
        for p in &mut products {
            p.categories.retain(|c| !collections.contains(c));
        }
        Ok(products)
    }

    /// Stock records of these products' variants, by product.
    fn stock_of(&self, products: &[RawProduct]) -> Result<BTreeMap<u64, Vec<Value>>, FetchError> {
        let (owner, variants) = variant_owners(products);
        let records = if variants.is_empty() {
            Vec::new()
        } else {
            self.runtime
                .block_on(importer::fetch_inventory(&self.catalog, &variants))
                .map_err(catalog_error)?
        };
        let mut out: BTreeMap<u64, Vec<Value>> =
            products.iter().map(|p| (p.id, Vec::new())).collect();
        for r in records {
            if let Some(&product) = owner.get(&r.identity.variant_id) {
                let v = to_value(&format!("inventory item {}", r.identity.variant_id), &r)?;
                out.entry(product).or_default().push(v);
            }
        }
        Ok(out)
    }
}

/// Each variant's product, and the variant ids in ascending order (what the per-variant
/// inventory and price endpoints are asked for).
fn variant_owners(products: &[RawProduct]) -> (HashMap<u64, u64>, Vec<u64>) {
    let owner: HashMap<u64, u64> = products
        .iter()
        .flat_map(|p| p.variants.iter().map(move |v| (v.id, p.id)))
        .collect();
    let mut variants: Vec<u64> = owner.keys().copied().collect();
    variants.sort_unstable();
    (owner, variants)
}

impl FreshSource for ImporterSource {
    fn products(&self, ids: &[u64]) -> Result<BTreeMap<u64, Option<ProductRecord>>, FetchError> {
        let products = self.fetch_products(ids)?;
        let (owner, variants) = variant_owners(&products);
        let prices = if variants.is_empty() {
            Vec::new()
        } else {
            self.runtime
                .block_on(importer::fetch_prices(&self.catalog, &variants))
                .map_err(catalog_error)?
        };
        let mut prices_of: BTreeMap<u64, Vec<Value>> = BTreeMap::new();
        for r in prices {
            if let Some(&product) = owner.get(&r.variant_id) {
                let v = to_value(&format!("price record {}", r.variant_id), &r)?;
                prices_of.entry(product).or_default().push(v);
            }
        }
        let mut stock = self.stock_of(&products)?;
        let mut found: BTreeMap<u64, ProductRecord> = BTreeMap::new();
        for p in &products {
            found.insert(
                p.id,
                ProductRecord {
                    product: to_value(&format!("product {}", p.id), p)?,
                    prices: prices_of.remove(&p.id).unwrap_or_default(),
                    inventory: stock.remove(&p.id).unwrap_or_default(),
                },
            );
        }
        // Ids the platform no longer has are deletions.
        Ok(ids.iter().map(|&id| (id, found.remove(&id))).collect())
    }

    fn inventory(&self, product_ids: &[u64]) -> Result<BTreeMap<u64, Vec<Value>>, FetchError> {
        // Stock is kept per variant; the product says which variants it has.
        let products = self.fetch_products(product_ids)?;
        self.stock_of(&products)
    }

    fn categories(&self, ids: &[u64]) -> Result<BTreeMap<u64, Option<Value>>, FetchError> {
        let fetched = self
            .runtime
            .block_on(importer::fetch_categories(&self.catalog, ids))
            .map_err(catalog_error)?;
        let mut collections = self
            .collection_categories
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let mut out: BTreeMap<u64, Option<Value>> = ids.iter().map(|&id| (id, None)).collect();
        for c in fetched {
            // A collection (new or changed) stays out of the category tree, as in a full import;
            // its membership and order come with the next `storefront import`.
            if collections.contains(&c.id) || collections.contains(&c.parent_id) {
                collections.insert(c.id);
                continue;
            }
            let v = to_value(&format!("category {}", c.id), &c)?;
            out.insert(c.id, Some(v));
        }
        Ok(out)
    }

    fn content(&self, ids: &[String]) -> Result<BTreeMap<String, Option<Value>>, FetchError> {
        let items = self
            .runtime
            .block_on(importer::fetch_content_by_delivery_ids(&self.content, ids))
            .map_err(content_error)?;
        let mut out: BTreeMap<String, Option<Value>> =
            ids.iter().map(|id| (id.clone(), None)).collect();
        for item in items {
            if let Some(id) = delivery_id(&item).map(str::to_string) {
                out.insert(id, Some(item));
            }
        }
        Ok(out)
    }

    /// The item as the virtual staging host `staging_domain` delivers it: unpublished edits and,
    /// on a scheduled-preview host, the version due at its time.
    fn preview_item(&self, staging_domain: &str, id: &str) -> Result<Option<Value>, FetchError> {
        let client =
            ContentClient::for_staging(&self.config, staging_domain).map_err(content_error)?;
        let items = self
            .runtime
            .block_on(importer::fetch_content_by_delivery_ids(
                &client,
                &[id.to_string()],
            ))
            .map_err(content_error)?;
        Ok(items.into_iter().find(|item| delivery_id(item) == Some(id)))
    }

    /// Writes the model as a new import generation and swaps `content-cache/export` to it. The
    /// previous generation's ETag cache is linked over: its bodies are still what the source
    /// served for those URLs, so the next `storefront import` stays conditional.
    fn keep(&self, model: &SourceModel) -> Result<(), FetchError> {
        let err = |why: String| FetchError {
            source_name: self.cache_dir.join("export").display().to_string(),
            why,
        };
        let cache = ImportCache::new(&self.cache_dir);
        let live = cache.live_generation();
        let staging = cache.begin().map_err(|e| err(e.to_string()))?;
        model
            .write_export(&staging.export_dir())
            .map_err(|e| err(e.to_string()))?;
        if let Some(live) = &live {
            for dir in ["http", "export/media"] {
                let from = live.join(dir);
                if from.is_dir() {
                    link_tree(&from, &staging.dir.join(dir)).map_err(&err)?;
                }
            }
        }
        cache.publish(staging).map_err(|e| err(e.to_string()))?;
        Ok(())
    }
}

/// Hard-links every file under `from` into `to` (same file system: both are in content-cache/).
fn link_tree(from: &Path, to: &Path) -> Result<(), String> {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.map_err(|e| format!("{}: cannot be read: {e}", from.display()))?;
        let rel = entry.path().strip_prefix(from).unwrap_or(entry.path());
        let target = to.join(rel);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target)
                .map_err(|e| format!("{}: cannot create: {e}", target.display()))?;
        } else {
            std::fs::hard_link(entry.path(), &target).map_err(|e| {
                format!(
                    "{}: cannot link to {}: {e}",
                    entry.path().display(),
                    target.display()
                )
            })?;
        }
    }
    Ok(())
}
