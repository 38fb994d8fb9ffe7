//! The index on disk: per market, a generation directory (tantivy's files, the listing records,
//! per-product fingerprints) behind a symlink `{root}/{market}` that is switched with one rename.
//! A rebuild starts from hard links of the live generation's immutable segment files and applies
//! only the products whose fingerprint changed, so readers never see a half-written index and an
//! unchanged catalog writes nothing.

use crate::record::ProductRecord;
use crate::tantivy_text::TantivyWriter;
use crate::text::{EngineError, TextIndexWriter};
use std::borrow::Borrow;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

pub(crate) const TEXT_DIR: &str = "text";
/// The listing records, in catalog order, as numbered chunk files (see `write_records`).
const RECORDS_DIR: &str = "records";
/// Records per chunk file: a changed product rewrites one chunk, and the rest are hard links.
const RECORDS_PER_CHUNK: usize = 256;
const FINGERPRINTS_FILE: &str = "fingerprints.json";
/// The curated default Popular Searches from the content export.
pub(crate) const CURATED_FILE: &str = "suggestions.json";
const GENERATIONS_DIR: &str = "generations";

#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    #[error("{action} {path}: {source}")]
    Io {
        action: &'static str,
        path: String,
        source: std::io::Error,
    },
    #[error(transparent)]
    Engine(#[from] EngineError),
    #[error("{path}: {message}")]
    Corrupt { path: String, message: String },
    #[error("no search index has been built for market {0} yet")]
    NotBuilt(String),
}

pub(crate) fn io(action: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> IndexError {
    let path = path.display().to_string();
    move |source| IndexError::Io {
        action,
        path,
        source,
    }
}

/// What one market's index update did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MarketUpdate {
    pub market: String,
    /// Products (re)indexed: new or changed.
    pub upserted: usize,
    pub removed: usize,
    pub unchanged: usize,
    /// The new live generation, when anything changed.
    pub generation: Option<PathBuf>,
}

/// The live generation of a market, if one was published.
pub fn live_generation(root: &Path, market: &str) -> Option<PathBuf> {
    let link = root.join(market);
    let target = std::fs::read_link(&link).ok()?;
    let full = root.join(target);
    full.is_dir().then_some(full)
}

fn read_fingerprints(generation: &Path) -> Option<HashMap<u64, String>> {
    let bytes = std::fs::read(generation.join(FINGERPRINTS_FILE)).ok()?;
    let map: BTreeMap<u64, String> = serde_json::from_slice(&bytes).ok()?;
    generation
        .join(TEXT_DIR)
        .join("meta.json")
        .is_file()
        .then(|| map.into_iter().collect())
}

/// A generation's curated suggestions; none when the file is missing or unreadable.
pub(crate) fn read_curated(generation: &Path) -> Vec<String> {
    std::fs::read(generation.join(CURATED_FILE))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default()
}

/// Hard-links (or copies, across file systems) the segment files of `from` into `to`. Tantivy
/// never rewrites a segment file, and replaces its meta files by rename, so the live generation
/// is never touched through the links.
fn link_segments(from: &Path, to: &Path) -> Result<(), IndexError> {
    std::fs::create_dir_all(to).map_err(io("create", to))?;
    for entry in std::fs::read_dir(from).map_err(io("list", from))? {
        let entry = entry.map_err(io("list", from))?;
        let name = entry.file_name();
        if name.to_string_lossy().starts_with(".tantivy-") || !entry.path().is_file() {
            continue; // lock files belong to their writer
        }
        let target = to.join(&name);
        if std::fs::hard_link(entry.path(), &target).is_err() {
            std::fs::copy(entry.path(), &target).map_err(io("copy", &target))?;
        }
    }
    Ok(())
}

fn unique_name(market: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    format!("{market}-{nanos}-{}", std::process::id())
}

/// Brings `{root}/{market}` up to date with `records`: only new, changed and removed products
/// touch the text index; nothing is written when nothing changed. On any error the live index
/// stays as it was and the unfinished generation is removed.
pub fn update_market(
    root: &Path,
    market: &str,
    records: &[ProductRecord],
    curated: &[String],
) -> Result<MarketUpdate, IndexError> {
    let fingerprints: Vec<String> = records.iter().map(ProductRecord::fingerprint).collect();
    update_market_with(root, market, records, &fingerprints, curated)
}

/// `update_market` with each record's `fingerprint()` already known (`fingerprints[i]` is
/// `records[i]`'s), as a daemon that kept them (shared, hence `Borrow`) from its last update does.
pub fn update_market_with<R: Borrow<ProductRecord>>(
    root: &Path,
    market: &str,
    records: &[R],
    record_fingerprints: &[String],
    curated: &[String],
) -> Result<MarketUpdate, IndexError> {
    prepare_market_with(root, market, records, record_fingerprints, curated)?.commit()
}

/// A market's index update written as a generation of its own but not yet live: `commit` makes
/// it live; dropped without that (a build that failed after preparing it), it is removed. So a
/// build can write its index beside its pages and publish both only once every page rendered.
pub struct PreparedMarket {
    root: PathBuf,
    update: MarketUpdate,
    /// The new generation's name (none when nothing changed) and the generation live when it
    /// was prepared.
    pending: Option<(String, Option<PathBuf>)>,
}

impl PreparedMarket {
    /// An update of `market` that changes nothing: its `unchanged` products stay as they are live.
    pub fn unchanged(market: &str, unchanged: usize) -> PreparedMarket {
        PreparedMarket {
            root: PathBuf::new(),
            update: MarketUpdate {
                market: market.to_string(),
                unchanged,
                ..Default::default()
            },
            pending: None,
        }
    }

    /// Makes the prepared generation the market's live one and prunes older ones.
    /// If the switch fails, the prepared generation is removed when `self` drops, as uncommitted.
    pub fn commit(mut self) -> Result<MarketUpdate, IndexError> {
        if let Some((name, live)) = &self.pending {
            switch_live(&self.root, &self.update.market, name)?;
            let done = generation_dir(&self.root, name);
            prune(
                &self.root.join(GENERATIONS_DIR),
                &self.update.market,
                &[&done, live.as_deref().unwrap_or(&done)],
            );
            self.update.generation = Some(done);
            self.pending = None;
        }
        Ok(std::mem::take(&mut self.update))
    }
}

impl Drop for PreparedMarket {
    fn drop(&mut self) {
        if let Some((name, _)) = &self.pending {
            let _ = std::fs::remove_dir_all(generation_dir(&self.root, name));
        }
    }
}

/// Writes `{root}/{market}`'s next generation from `records` (only new, changed and removed
/// products touch the text index; nothing is written when nothing changed) without making it
/// live. On any error the unfinished generation is removed.
pub fn prepare_market_with<R: Borrow<ProductRecord>>(
    root: &Path,
    market: &str,
    records: &[R],
    record_fingerprints: &[String],
    curated: &[String],
) -> Result<PreparedMarket, IndexError> {
    let live = live_generation(root, market);
    let curated_changed = live.as_deref().map(read_curated).as_deref() != Some(curated);
    let old = live.as_deref().and_then(read_fingerprints);
    let records: Vec<&ProductRecord> = records.iter().map(Borrow::borrow).collect();
    let fingerprints: BTreeMap<u64, String> = records
        .iter()
        .zip(record_fingerprints)
        .map(|(r, f)| (r.id, f.clone()))
        .collect();
    let upserts: Vec<&ProductRecord> = records
        .iter()
        .copied()
        .filter(|r| old.as_ref().and_then(|o| o.get(&r.id)) != fingerprints.get(&r.id))
        .collect();
    let removed: Vec<u64> = old
        .as_ref()
        .map(|o| {
            o.keys()
                .filter(|id| !fingerprints.contains_key(id))
                .copied()
                .collect()
        })
        .unwrap_or_default();
    let mut prepared = PreparedMarket {
        root: root.to_path_buf(),
        update: MarketUpdate {
            market: market.to_string(),
            upserted: upserts.len(),
            removed: removed.len(),
            unchanged: records.len() - upserts.len(),
            generation: None,
        },
        pending: None,
    };
    if old.is_some() && upserts.is_empty() && removed.is_empty() && !curated_changed {
        return Ok(prepared);
    }

    let generations = root.join(GENERATIONS_DIR);
    let name = unique_name(market);
    let staging = generations.join(format!("{name}.tmp"));
    let result = (|| -> Result<(), IndexError> {
        let text = staging.join(TEXT_DIR);
        match (&live, &old) {
            (Some(live), Some(_)) => link_segments(&live.join(TEXT_DIR), &text)?,
            _ => std::fs::create_dir_all(&text).map_err(io("create", &text))?,
        }
        let mut writer = TantivyWriter::open_or_create(&text)?;
        writer.apply(&upserts, &removed)?;
        writer.finish()?;
        write_records(
            &staging.join(RECORDS_DIR),
            live.as_deref().map(|l| l.join(RECORDS_DIR)).as_deref(),
            &records,
            record_fingerprints,
        )?;
        write_json(&staging.join(FINGERPRINTS_FILE), &fingerprints)?;
        write_json(&staging.join(CURATED_FILE), &curated)?;
        let done = generations.join(&name);
        std::fs::rename(&staging, &done).map_err(io("rename", &staging))
    })();
    match result {
        Ok(()) => {
            prepared.pending = Some((name, live));
            Ok(prepared)
        }
        Err(e) => {
            let _ = std::fs::remove_dir_all(&staging);
            Err(e)
        }
    }
}

/// Makes generation `name` (under `{root}/generations`) the market's live one: a new symlink
/// renamed over the old one is one atomic step for readers.
pub(crate) fn switch_live(root: &Path, market: &str, name: &str) -> Result<(), IndexError> {
    let tmp_link = root.join(format!(".{market}.link-{}", std::process::id()));
    let _ = std::fs::remove_file(&tmp_link);
    symlink(&Path::new(GENERATIONS_DIR).join(name), &tmp_link)?;
    std::fs::rename(&tmp_link, root.join(market)).map_err(io("publish", &tmp_link))
}

/// The directory of generation `name`.
pub(crate) fn generation_dir(root: &Path, name: &str) -> PathBuf {
    root.join(GENERATIONS_DIR).join(name)
}

#[cfg(unix)]
fn symlink(target: &Path, link: &Path) -> Result<(), IndexError> {
    std::os::unix::fs::symlink(target, link).map_err(io("link", link))
}

#[cfg(not(unix))]
fn symlink(target: &Path, link: &Path) -> Result<(), IndexError> {
    std::os::windows::fs::symlink_dir(target, link).map_err(io("link", link))
}

/// Writes `records` (whose fingerprints are `fingerprints`) into `dir` as chunk files of
/// `RECORDS_PER_CHUNK`, each named by its position and a hash of its records' fingerprints. A
/// chunk that the live generation (`live`) holds under the same name has the same records and is
/// hard-linked: a change to one product writes one chunk, not the whole catalog's records.
fn write_records(
    dir: &Path,
    live: Option<&Path>,
    records: &[&ProductRecord],
    fingerprints: &[String],
) -> Result<(), IndexError> {
    std::fs::create_dir_all(dir).map_err(io("create", dir))?;
    for (k, (chunk, prints)) in records
        .chunks(RECORDS_PER_CHUNK)
        .zip(fingerprints.chunks(RECORDS_PER_CHUNK))
        .enumerate()
    {
        let mut h = blake3::Hasher::new();
        for print in prints {
            h.update(print.as_bytes());
        }
        let name = format!("{k:06}-{}.json", &h.finalize().to_hex()[..16]);
        let target = dir.join(&name);
        let linked = live
            .map(|l| l.join(&name))
            .is_some_and(|from| from.is_file() && std::fs::hard_link(&from, &target).is_ok());
        if !linked {
            write_json(&target, &chunk)?;
        }
    }
    Ok(())
}

/// A generation's listing records, in catalog order.
pub(crate) fn read_records(generation: &Path) -> Result<Vec<ProductRecord>, IndexError> {
    let dir = generation.join(RECORDS_DIR);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .map_err(io("list", &dir))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut records = Vec::new();
    for path in files {
        let bytes = std::fs::read(&path).map_err(io("read", &path))?;
        let chunk: Vec<ProductRecord> =
            serde_json::from_slice(&bytes).map_err(|e| IndexError::Corrupt {
                path: path.display().to_string(),
                message: e.to_string(),
            })?;
        records.extend(chunk);
    }
    Ok(records)
}

fn write_json<T: serde::Serialize>(path: &Path, value: &T) -> Result<(), IndexError> {
    let file = std::fs::File::create(path).map_err(io("create", path))?;
    let mut out = std::io::BufWriter::new(file);
    serde_json::to_writer(&mut out, value).map_err(|e| IndexError::Corrupt {
        path: path.display().to_string(),
        message: e.to_string(),
    })?;
    std::io::Write::flush(&mut out).map_err(io("write", path))
}

/// Removes this market's generations other than `keep` (the new one and the one readers may
/// still hold), and unfinished ones left by a killed build.
pub(crate) fn prune(generations: &Path, market: &str, keep: &[&Path]) {
    let Ok(entries) = std::fs::read_dir(generations) else {
        return;
    };
    let prefix = format!("{market}-");
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().to_string();
        if name.starts_with(&prefix) && !keep.iter().any(|k| *k == path) {
            let _ = std::fs::remove_dir_all(&path);
        }
    }
}
