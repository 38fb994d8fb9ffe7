//! One full import: fetch both sources concurrently into a staging generation, write the export,
//! validate it with the generator's own loader, publish it atomically, and summarise.

use crate::cache_dir::ImportCache;
use crate::catalog::{self, CatalogClient};
use crate::config::ImportConfig;
use crate::content::{self, ContentClient, ContentExport};
use crate::error::ImportError;
use crate::etag_cache::EtagCache;
use crate::http::HttpStats;
use crate::locations;
use domain::catalog::CatalogExport;
use domain::catalog::{
    FILE_CATEGORIES, FILE_CHANNELS, FILE_COLLECTIONS, FILE_INVENTORY, FILE_MEDIA, FILE_PRICES,
    FILE_PRODUCTS, FILE_STORE,
};
use domain::export::RawLocation;
use domain::shops::{FILE_GAZETTEER, FILE_LOCATIONS, is_shop};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

pub struct ImportOptions {
    /// `content-cache/`: the import goes to `export` (a symlink) and `imports/`.
    pub cache_dir: PathBuf,
    /// Draw a progress bar (on a terminal).
    pub progress: bool,
}

/// What an import did, for the summary line.
#[derive(Debug, Clone)]
pub struct ImportSummary {
    pub products: usize,
    pub variants: usize,
    pub categories: usize,
    pub collections: usize,
    pub prices: usize,
    pub inventory: usize,
    /// Locations shown on the shop finder (physical, enabled, visible to shoppers).
    pub shops: usize,
    pub content_items: usize,
    pub content_skipped: usize,
    pub requests: u64,
    pub not_modified: u64,
    pub retries: u64,
    pub bytes: u64,
    pub elapsed: Duration,
    pub export_dir: PathBuf,
}

impl std::fmt::Display for ImportSummary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "imported {} products ({} variants), {} categories, {} collections, {} prices, \
             {} inventory items, {} shops, {} content items",
            self.products,
            self.variants,
            self.categories,
            self.collections,
            self.prices,
            self.inventory,
            self.shops,
            self.content_items
        )?;
        if self.content_skipped > 0 {
            write!(
                f,
                " ({} without a market prefix skipped)",
                self.content_skipped
            )?;
        }
        write!(
            f,
            " in {:.1} s: {} requests, {} unchanged (304), {} retries, {:.1} MB downloaded → {}",
            self.elapsed.as_secs_f64(),
            self.requests,
            self.not_modified,
            self.retries,
            self.bytes as f64 / 1_000_000.0,
            self.export_dir.display()
        )
    }
}

/// Runs a full import. On any error the staging generation is removed and the live
/// `content-cache/export` (and its ETag cache) is untouched.
pub async fn import(
    cfg: &ImportConfig,
    opts: &ImportOptions,
) -> Result<ImportSummary, ImportError> {
    let started = Instant::now();
    // Read (and checked) first: a bad gazetteer file fails before any request is made.
    let gazetteer = locations::gazetteer(cfg.gazetteer.as_deref())?;
    let cache = ImportCache::new(&opts.cache_dir);
    let live = cache.live_generation();
    let staging = cache.begin()?;
    let etags = EtagCache::open(
        live.as_ref().map(|g| g.join("http")).as_deref(),
        &staging.http_dir(),
    )?;
    let catalog_client = CatalogClient::new(cfg)?;
    let content_client = ContentClient::new(cfg)?;
    let progress = progress_bar(opts.progress);
    // The locations follow the catalog rather than run beside it: the catalog's first request
    // (the store profile) checks the credentials, so a bad token fails on one request.
    let catalog_and_locations = async {
        let catalog = catalog::fetch_all(&catalog_client, cfg, &etags, &progress).await?;
        let locations = locations::fetch_all(&catalog_client, &etags, &progress).await?;
        Ok::<_, ImportError>((catalog, locations))
    };
    let fetched = tokio::try_join!(
        catalog_and_locations,
        content::fetch_all(&content_client, &etags, &progress),
    );
    progress.finish_and_clear();
    let ((catalog, locations), content) = fetched?;
    let export_dir = staging.export_dir();
    write_export(&export_dir, &catalog, &content)?;
    write_shops(&export_dir, &locations, &gazetteer)?;
    etags.finish()?;
    validate(export_dir).await?;
    cache.publish(staging)?;
    let stats = [&catalog_client.http.stats, &content_client.http.stats];
    let sum = |field: fn(&HttpStats) -> u64| stats.iter().map(|s| field(s)).sum::<u64>();
    Ok(ImportSummary {
        products: catalog.products.len(),
        variants: catalog.products.iter().map(|p| p.variants.len()).sum(),
        categories: catalog.categories.len(),
        collections: catalog.collections.len(),
        prices: catalog.prices.len(),
        inventory: catalog.inventory.len(),
        shops: locations.iter().filter(|l| is_shop(l)).count(),
        content_items: content.by_market.values().map(Vec::len).sum(),
        content_skipped: content.skipped,
        requests: sum(|s| s.requests.load(Ordering::Relaxed)),
        not_modified: sum(|s| s.not_modified.load(Ordering::Relaxed)),
        retries: sum(|s| s.retries.load(Ordering::Relaxed)),
        bytes: sum(|s| s.bytes.load(Ordering::Relaxed)),
        elapsed: started.elapsed(),
        export_dir: opts.cache_dir.join("export"),
    })
}

fn progress_bar(visible: bool) -> ProgressBar {
    if !visible {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template("importing [{bar:30}] {pos}/{len} requests {elapsed}")
            .expect("a valid template")
            .progress_chars("=> "),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// The generator's loader is the judge: an import it would reject is never published.
async fn validate(export_dir: PathBuf) -> Result<(), ImportError> {
    let outcome = tokio::task::spawn_blocking(move || export::load_export(&export_dir))
        .await
        .map_err(|e| ImportError::Io {
            path: "validation".into(),
            why: e.to_string(),
        })?;
    outcome.map(|_| ()).map_err(ImportError::Invalid)
}

fn write_export(
    dir: &Path,
    catalog: &CatalogExport,
    content: &ContentExport,
) -> Result<(), ImportError> {
    write_json(dir, FILE_STORE, &catalog.store)?;
    write_json(dir, FILE_CHANNELS, &json!({ "data": catalog.channels }))?;
    write_json(dir, FILE_CATEGORIES, &json!({ "data": catalog.categories }))?;
    write_json(
        dir,
        FILE_COLLECTIONS,
        &json!({ "data": catalog.collections }),
    )?;
    write_json(dir, FILE_PRODUCTS, &json!({ "data": catalog.products }))?;
    write_json(dir, FILE_PRICES, &json!({ "data": catalog.prices }))?;
    write_json(dir, FILE_INVENTORY, &json!({ "data": catalog.inventory }))?;
    write_json(dir, FILE_MEDIA, &catalog.media)?;
    for (market, items) in &content.by_market {
        let page = json!({ "responses": items.iter().map(|c| json!({ "content": c })).collect::<Vec<_>>(),
                           "page": { "responseCount": items.len() } });
        write_json(dir, &format!("content/{market}.json"), &page)?;
    }
    Ok(())
}

/// The shop finder's files: the platform's locations, and the gazetteer copied byte for byte
/// (it is reference data, not fetched).
fn write_shops(dir: &Path, locations: &[RawLocation], gazetteer: &[u8]) -> Result<(), ImportError> {
    write_json(dir, FILE_LOCATIONS, &json!({ "data": locations }))?;
    let path = dir.join(FILE_GAZETTEER);
    std::fs::write(&path, gazetteer).map_err(|e| ImportError::io(&path, "write", e))
}

fn write_json(dir: &Path, file: &str, value: &impl Serialize) -> Result<(), ImportError> {
    let path = dir.join(file);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| ImportError::io(parent, "create", e))?;
    }
    let bytes = serde_json::to_vec(value).map_err(|e| ImportError::Io {
        path: path.display().to_string(),
        why: format!("cannot serialise: {e}"),
    })?;
    std::fs::write(&path, bytes).map_err(|e| ImportError::io(&path, "write", e))
}
