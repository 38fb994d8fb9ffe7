//! The catalog inside the API: the export is validated with the generator's loader, its prices and
//! stock are written to the store (the only place carts and stock checks read them from), and the
//! names, options and URLs are kept in memory for presenting line items. A watcher re-imports when
//! the export changes. The only writer of `catalog_variant` and `catalog_meta`.

pub use crate::stock_rows::StockSnapshot;
use crate::stock_rows::stock_rows;
use crate::store::{Db, Tx, values_clause};
use anyhow::Context;
use domain::catalog::{Catalog, InventoryTracking, Product, Variant};
use domain::market::MARKETS;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};
use std::time::{Duration, SystemTime};

/// What is served: the catalog and the store's stock rows, swapped together on reload so readers
/// never see a mix of two exports.
#[derive(Clone)]
pub struct CatalogHandle {
    current: Arc<RwLock<(Arc<Catalog>, Arc<StockSnapshot>)>>,
}

impl CatalogHandle {
    pub fn new(catalog: Catalog, stock: StockSnapshot) -> CatalogHandle {
        CatalogHandle {
            current: Arc::new(RwLock::new((Arc::new(catalog), Arc::new(stock)))),
        }
    }

    fn current(&self) -> std::sync::RwLockReadGuard<'_, (Arc<Catalog>, Arc<StockSnapshot>)> {
        self.current
            .read()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub fn get(&self) -> Arc<Catalog> {
        self.current().0.clone()
    }

    pub fn stock(&self) -> Arc<StockSnapshot> {
        self.current().1.clone()
    }

    /// Replaces some variants' stock rows (after an order took or gave back stock), keeping the
    /// catalog and every other row.
    pub fn update_stock(&self, rows: StockSnapshot) {
        let mut current = self
            .current
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let mut stock = (*current.1).clone();
        stock.extend(rows);
        current.1 = Arc::new(stock);
    }

    fn replace(&self, catalog: Catalog, stock: StockSnapshot) {
        *self
            .current
            .write()
            .unwrap_or_else(|poisoned| poisoned.into_inner()) =
            (Arc::new(catalog), Arc::new(stock));
    }
}

/// Reads the stock snapshot back from the store (not from the export), so every instance serves
/// what the store holds even when another instance did the import.
pub async fn load_stock(db: &Db) -> anyhow::Result<StockSnapshot> {
    let mut conn = db.pool().acquire().await?;
    stock_rows(&mut conn, None)
        .await
        .map_err(|e| anyhow::anyhow!("reading stock: {e}"))
}

/// Finds a product and one of its variants.
pub fn find_variant(
    catalog: &Catalog,
    product_id: u64,
    variant_id: u64,
) -> Option<(&Product, &Variant)> {
    let product = catalog.product(product_id)?;
    let variant = product.variants.iter().find(|v| v.id == variant_id)?;
    Some((product, variant))
}

/// The files `fingerprint` reads: `store.json` and the catalog's JSON files, in order.
fn fingerprinted_files(dir: &Path) -> anyhow::Result<Vec<PathBuf>> {
    let mut files = vec![dir.join("store.json")];
    let catalog_dir = dir.join("catalog");
    let mut entries: Vec<PathBuf> = std::fs::read_dir(&catalog_dir)
        .with_context(|| format!("reading {}", catalog_dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    entries.sort();
    files.extend(entries);
    Ok(files)
}

/// A hash of every catalog file in the export: the version stored with the imported data so an
/// unchanged export is not written again, and the watcher's test of a real change.
pub fn fingerprint(dir: &Path) -> anyhow::Result<String> {
    let mut hasher = blake3::Hasher::new();
    for f in fingerprinted_files(dir)? {
        let bytes = std::fs::read(&f).with_context(|| format!("reading {}", f.display()))?;
        hasher.update(
            f.strip_prefix(dir)
                .unwrap_or(&f)
                .to_string_lossy()
                .as_bytes(),
        );
        hasher.update(&(bytes.len() as u64).to_le_bytes());
        hasher.update(&bytes);
    }
    Ok(hasher.finalize().to_hex().to_string())
}

/// What `stat` says of the fingerprinted files, and when it was asked. The watcher reads and
/// hashes the files (~125 MB at 10k products) only when this changed, or when a file was modified
/// so recently that a second write in the same clock tick could keep its stamp (file times come
/// from a coarse clock; git calls such entries "racily clean").
#[derive(Debug, Clone)]
pub struct ExportStamps {
    files: Vec<(PathBuf, u64, u64, SystemTime)>,
    taken_at: SystemTime,
}

/// How far back from the moment stamps are taken a modification is still "racy".
const RACY: Duration = Duration::from_millis(100);

impl ExportStamps {
    pub fn take(dir: &Path) -> anyhow::Result<ExportStamps> {
        use std::os::unix::fs::MetadataExt;
        let taken_at = SystemTime::now();
        let files = fingerprinted_files(dir)?
            .into_iter()
            .map(|f| {
                let m =
                    std::fs::metadata(&f).with_context(|| format!("reading {}", f.display()))?;
                let modified = m.modified().unwrap_or(SystemTime::UNIX_EPOCH);
                anyhow::Ok((f, m.ino(), m.len(), modified))
            })
            .collect::<anyhow::Result<_>>()?;
        Ok(ExportStamps { files, taken_at })
    }

    /// Whether the files are surely those `self` was taken of: the same stamps, none of them
    /// modified shortly before `self` was taken.
    pub fn surely_unchanged(&self, now: &ExportStamps) -> bool {
        self.files == now.files
            && self
                .files
                .iter()
                .all(|(_, _, _, modified)| *modified + RACY < self.taken_at)
    }
}

/// Loads and validates the export (off the async threads: it parses in parallel with rayon).
pub async fn load(dir: &Path) -> anyhow::Result<Catalog> {
    let dir = dir.to_path_buf();
    tokio::task::spawn_blocking(move || {
        export::load_export(&dir)
            .map(|inputs| std::sync::Arc::unwrap_or_clone(inputs.catalog))
            .map_err(|errors| {
                anyhow::anyhow!("the export at {} is invalid:\n{errors}", dir.display())
            })
    })
    .await
    .context("loading the export")?
}

/// Loads the export and writes its prices and stock to the store unless this exact export is
/// already there. Returns the catalog and whether the store changed.
pub async fn import(db: &Db, dir: &Path) -> anyhow::Result<(Catalog, bool)> {
    let version = fingerprint(dir)?;
    let catalog = load(dir).await?;
    let mut tx = db.write().await?;
    let stored: Option<String> =
        sqlx::query_scalar("SELECT value FROM catalog_meta WHERE key = 'version'")
            .fetch_optional(&mut *tx)
            .await?;
    if stored.as_deref() == Some(version.as_str()) {
        tx.rollback().await?;
        return Ok((catalog, false));
    }
    sqlx::query("DELETE FROM catalog_variant")
        .execute(&mut *tx)
        .await?;
    write_variants(&mut tx, &catalog).await?;
    write_inventory(&mut tx, &catalog, reported_at(dir)?).await?;
    sqlx::query(
        "INSERT INTO catalog_meta (key, value) VALUES ('version', $1) \
         ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    )
    .bind(&version)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    tracing::info!(
        export = %dir.display(),
        products = catalog.products.len(),
        variants = catalog.inventory.len(),
        "catalog imported"
    );
    Ok((catalog, true))
}

const BATCH: usize = 200;

async fn write_variants(tx: &mut Tx, catalog: &Catalog) -> anyhow::Result<()> {
    let rows: Vec<(&Product, &Variant)> = catalog
        .products
        .iter()
        .flat_map(|p| p.variants.iter().map(move |v| (&**p, v)))
        .collect();
    for chunk in rows.chunks(BATCH) {
        let sql = format!(
            "INSERT INTO catalog_variant (variant_id, product_id, sku, purchasing_disabled, tracked, \
             price_uk, sale_uk, price_us, sale_us, price_eu, sale_eu) VALUES {}",
            values_clause(chunk.len(), 11)
        );
        let mut q = sqlx::query(sqlx::AssertSqlSafe(sql));
        for (p, v) in chunk {
            q = q
                .bind(v.id as i64)
                .bind(p.id as i64)
                .bind(v.sku.clone())
                .bind(v.purchasing_disabled as i64)
                .bind((p.inventory_tracking != InventoryTracking::None) as i64);
            for m in 0..MARKETS.len() {
                q = q
                    .bind(v.prices[m].price.minor)
                    .bind(v.prices[m].sale.map(|s| s.minor));
            }
        }
        q.execute(&mut **tx).await?;
    }
    Ok(())
}

/// The export's stock report, written through the inventory module (which keeps what orders
/// took since the report was made).
async fn write_inventory(tx: &mut Tx, catalog: &Catalog, reported_at: i64) -> anyhow::Result<()> {
    let rows = catalog
        .inventory
        .values()
        .flat_map(|s| {
            s.locations.iter().map(move |l| crate::inventory::Reported {
                variant_id: s.variant_id,
                location_id: l.location_id,
                enabled: l.enabled,
                available: l.available_to_sell,
            })
        })
        .collect();
    crate::inventory::replace(tx, rows, reported_at).await
}

/// When the platform made the stock report: the modification time of the export's
/// `catalog/inventory.json` (the export has no timestamp of its own), in unix seconds.
pub fn reported_at(dir: &Path) -> anyhow::Result<i64> {
    let path = dir.join("catalog").join("inventory.json");
    let modified = std::fs::metadata(&path)
        .and_then(|m| m.modified())
        .with_context(|| format!("reading the time of {}", path.display()))?;
    Ok(modified
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64))
}

/// Re-imports whenever the export's fingerprint changes, polling every `every`. Polling rather
/// than file events: exports are replaced by other processes (the import command, rsync) whose
/// write patterns differ, and a two-second delay is fine for a catalog.
pub fn watch(
    db: Db,
    handle: CatalogHandle,
    dir: PathBuf,
    every: Duration,
) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut stamps = ExportStamps::take(&dir).ok();
        let mut last = fingerprint(&dir).ok();
        let mut tick = tokio::time::interval(every);
        tick.tick().await;
        loop {
            tick.tick().await;
            let now_stamps = match ExportStamps::take(&dir) {
                Ok(s) => s,
                Err(e) => {
                    tracing::warn!(error = %format!("{e:#}"), "catalog export unreadable; keeping the current catalog");
                    continue;
                }
            };
            if stamps
                .as_ref()
                .is_some_and(|s| s.surely_unchanged(&now_stamps))
            {
                continue;
            }
            // Reading and hashing the export is blocking work.
            let hashed = {
                let dir = dir.clone();
                tokio::task::spawn_blocking(move || fingerprint(&dir)).await
            };
            let now = match hashed {
                Ok(Ok(f)) => f,
                Ok(Err(e)) => {
                    tracing::warn!(error = %format!("{e:#}"), "catalog export unreadable; keeping the current catalog");
                    continue;
                }
                Err(e) => {
                    tracing::warn!(error = %e, "hashing the catalog export failed");
                    continue;
                }
            };
            // Whatever the reload does, these stamps have been looked at: a failed export is
            // tried again when it changes.
            stamps = Some(now_stamps);
            if last.as_deref() == Some(now.as_str()) {
                continue;
            }
            let reloaded = async {
                let (catalog, _) = import(&db, &dir).await?;
                let stock = load_stock(&db).await?;
                anyhow::Ok((catalog, stock))
            };
            match reloaded.await {
                Ok((catalog, stock)) => {
                    handle.replace(catalog, stock);
                    last = Some(now);
                }
                // A half-written or invalid export must not take the shop down: keep serving
                // the last good catalog and try again on the next change.
                Err(e) => {
                    tracing::error!(error = %format!("{e:#}"), "catalog reload failed; keeping the current catalog")
                }
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamps_tell_an_untouched_export_from_a_rewritten_or_racy_one() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("catalog")).unwrap();
        let products = dir.path().join("catalog/products.json");
        std::fs::write(dir.path().join("store.json"), b"{}").unwrap();
        std::fs::write(&products, b"[1]").unwrap();
        // Just written: racy, so not surely unchanged even against itself.
        let fresh = ExportStamps::take(dir.path()).unwrap();
        assert!(!fresh.surely_unchanged(&ExportStamps::take(dir.path()).unwrap()));
        std::thread::sleep(RACY * 2);
        let settled = ExportStamps::take(dir.path()).unwrap();
        assert!(settled.surely_unchanged(&ExportStamps::take(dir.path()).unwrap()));
        // Replaced by rename with the same length: another inode.
        let temp = dir.path().join("catalog/products.json.tmp");
        std::fs::write(&temp, b"[2]").unwrap();
        std::fs::rename(&temp, &products).unwrap();
        assert!(!settled.surely_unchanged(&ExportStamps::take(dir.path()).unwrap()));
        // A new catalog file.
        std::thread::sleep(RACY * 2);
        let settled = ExportStamps::take(dir.path()).unwrap();
        std::fs::write(dir.path().join("catalog/prices.json"), b"[]").unwrap();
        assert!(!settled.surely_unchanged(&ExportStamps::take(dir.path()).unwrap()));
    }

    #[test]
    fn values_clause_numbers_placeholders_across_rows() {
        assert_eq!(values_clause(2, 2), "($1,$2),($3,$4)");
    }
}
