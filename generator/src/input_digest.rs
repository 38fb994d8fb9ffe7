//! A digest of everything a build reads (export, templates, bundles, the generator itself), recorded
//! next to the live generation, so that a build whose inputs are byte-identical to the last
//! successful one can stop before loading anything.
//!
//! The pages are a pure function of these inputs, so identical inputs mean an identical site: the
//! full incremental path (load, plan, compare fingerprints) would write nothing anyway, and costs
//! seconds at 10k products. Any change, even to a file the pages do not read (stock), takes the
//! full path, which validates everything again.
//!
//! A file is read and hashed again only when `stat` says it may have changed: the record keeps
//! each input file's hash with its inode, length, and modification and change times, and a file
//! with all four as recorded keeps its recorded hash (writing a file's bytes always sets its
//! change time, which no tool can set back). So a no-change build reads no input bytes, whether or
//! not the kernel still caches them (130 MB at 10k products).

use crate::output::{
    FileStamp, IoError, KnownManifest, LiveTree, Manifest, OutputDirs, has_every_sha1, hex, io_err,
    walk_err, write_atomically,
};
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use walkdir::WalkDir;

const RECORD_FILE: &str = "last-inputs.json";

/// A recorded hash is reused only for a file whose times are this much older than the moment the
/// recording build began reading: a file being rewritten in place while that build read it may
/// have been read half-written under its final stamp, and file times come from a clock that lags
/// by up to a tick. Such a file is read again when the build records its inputs, if it has
/// settled by then (see `settle_fresh_files`), else by the next build.
pub const SETTLED: Duration = Duration::from_secs(1);

#[derive(Serialize, Deserialize, PartialEq, Eq, Debug)]
pub struct Record {
    /// The generation these inputs built; the record counts only while it is the live one.
    generation: String,
    digest: String,
    /// What the live manifest held when it was written, so that a build with unchanged inputs
    /// does not parse it (a tenth of a second at 100k files). Absent in records from before it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    manifest: Option<ManifestFacts>,
    /// Each input file's stamp and hash, and when the build began reading them (nanoseconds since
    /// the Unix epoch). Absent in records from before them: every file is read.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    inputs: Vec<InputFile>,
    #[serde(default)]
    read_from_ns: u128,
}

#[derive(Serialize, Deserialize, PartialEq, Eq, Debug, Clone, Copy)]
struct ManifestFacts {
    stamp: FileStamp,
    pages: usize,
    files: usize,
    /// Whether the manifest holds every file's SHA-1 (a build that records digests reads a
    /// manifest without them, to fill them in).
    #[serde(default)]
    digests: bool,
}

/// One input file: which input directory, its path in it, what `stat` said, and its hash.
#[derive(Serialize, Deserialize, PartialEq, Eq, Debug, Clone)]
struct InputFile {
    dir: usize,
    path: String,
    stamp: InputStamp,
    hash: String,
}

/// Inode, length, and modification and change times (nanoseconds since the Unix epoch).
#[derive(Serialize, Deserialize, PartialEq, Eq, Hash, Debug, Clone, Copy)]
struct InputStamp {
    ino: u64,
    len: u64,
    mtime_ns: i128,
    ctime_ns: i128,
}

impl InputStamp {
    fn of(meta: &std::fs::Metadata) -> InputStamp {
        let ns = |secs: i64, nanos: i64| i128::from(secs) * 1_000_000_000 + i128::from(nanos);
        InputStamp {
            ino: meta.ino(),
            len: meta.len(),
            mtime_ns: ns(meta.mtime(), meta.mtime_nsec()),
            ctime_ns: ns(meta.ctime(), meta.ctime_nsec()),
        }
    }
}

/// The live generation, when it was built from exactly these inputs.
pub enum Unchanged {
    /// The manifest file is the one the record describes (same inode, length and time): its
    /// counts are the record's, and it is complete (every file has its SHA-1).
    Recorded { pages: usize, files: usize },
    /// The manifest, read because the record could not vouch for it.
    Read(Box<Manifest>, LiveTree),
}

/// The digest of a build's inputs, what it found of each file, and the record it was checked
/// against.
pub struct InputsDigest {
    pub digest: String,
    /// How many files were read and hashed (the others kept their recorded hashes).
    pub hashed: usize,
    files: Vec<InputFile>,
    read_from_ns: u128,
    previous: Option<Record>,
    /// The input directories, in the order `InputFile::dir` counts them.
    roots: Vec<PathBuf>,
}

/// The last successful build's record in `cache`, if there is one this build can read.
pub fn previous_record(cache: &Path) -> Option<Record> {
    let bytes = std::fs::read(cache.join(RECORD_FILE)).ok()?;
    serde_json::from_slice(&bytes).ok()
}

/// Hashes every file under `dirs` (relative path and bytes, in path order) plus `identity`,
/// reusing `previous`'s hash of each file whose stamp is the recorded one and was `settled`
/// before that record's build began reading.
pub fn digest_inputs(
    identity: &str,
    dirs: &[&Path],
    previous: Option<Record>,
    settled: Duration,
) -> Result<InputsDigest, IoError> {
    let read_from_ns = now_ns();
    let mut files: Vec<(usize, PathBuf, InputStamp)> = Vec::new();
    for (di, dir) in dirs.iter().enumerate() {
        for entry in WalkDir::new(dir).sort_by_file_name() {
            let entry = entry.map_err(walk_err(dir, "list"))?;
            if entry.file_type().is_file() {
                let meta = entry.metadata().map_err(walk_err(entry.path(), "stat"))?;
                files.push((di, entry.into_path(), InputStamp::of(&meta)));
            }
        }
    }
    let reusable = reusable_hashes(previous.as_ref(), settled);
    let found: Vec<(InputFile, bool)> = files
        .par_iter()
        .map(|(di, path, stamp)| {
            let rel = path.strip_prefix(dirs[*di]).unwrap_or(path);
            let rel_text = rel.to_string_lossy().into_owned();
            let recorded = reusable.get(&(*di, rel_text.as_str(), *stamp));
            let (hash, read) = match recorded {
                Some(hash) => ((*hash).to_string(), false),
                None => (hash_file(path, rel)?, true),
            };
            let file = InputFile {
                dir: *di,
                path: rel_text,
                stamp: *stamp,
                hash,
            };
            Ok((file, read))
        })
        .collect::<Result<_, IoError>>()?;
    let mut all = blake3::Hasher::new();
    all.update(identity.as_bytes());
    for (file, _) in &found {
        all.update(&file.dir.to_le_bytes());
        all.update(file.hash.as_bytes());
    }
    Ok(InputsDigest {
        digest: hex(all.finalize().as_bytes()),
        hashed: found.iter().filter(|(_, read)| *read).count(),
        files: found.into_iter().map(|(file, _)| file).collect(),
        read_from_ns,
        previous,
        roots: dirs.iter().map(|d| d.to_path_buf()).collect(),
    })
}

fn now_ns() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos())
}

/// Whether both of a file's times are before `before_ns`.
fn older_than(file: &InputFile, before_ns: u128) -> bool {
    // A moment past what file times can hold counts as none: nothing is vouched for.
    let before = i128::try_from(before_ns).unwrap_or(0);
    file.stamp.mtime_ns < before && file.stamp.ctime_ns < before
}

/// The moment a record of `inputs` may count from (see `reusable_hashes`). Files written just
/// before the build began reading them (an import or a generator right before the build) could
/// not be vouched for then; once `settled` has passed since their times, each is read again, and
/// when every such file still has the stamp and hash the build used, the record counts from
/// the moment this check began. Otherwise it counts from when the build began reading, and the
/// next build reads them. Costs the build one more read of those files (page-cached, as a rule)
/// so that the next identical build reads none.
fn settle_fresh_files(inputs: &InputsDigest, settled: Duration) -> u128 {
    let now = now_ns();
    let margin = settled.as_nanos();
    let fresh: Vec<&InputFile> = inputs
        .files
        .iter()
        .filter(|f| !older_than(f, inputs.read_from_ns.saturating_sub(margin)))
        // Those still too fresh stay unvouched whichever moment the record counts from.
        .filter(|f| older_than(f, now.saturating_sub(margin)))
        .collect();
    if fresh.is_empty() {
        return inputs.read_from_ns;
    }
    let unchanged = fresh.par_iter().all(|f| {
        let root = &inputs.roots[f.dir];
        let path = root.join(&f.path);
        // Hashed first, then stat'ed: a write during the read shows in the change time.
        hash_file(&path, Path::new(&f.path)).is_ok_and(|hash| hash == f.hash)
            && std::fs::metadata(&path).is_ok_and(|meta| InputStamp::of(&meta) == f.stamp)
    });
    if unchanged { now } else { inputs.read_from_ns }
}

/// The hash of one input file: its path relative to its input directory, a NUL, its bytes.
fn hash_file(path: &Path, rel: &Path) -> Result<String, IoError> {
    let bytes = std::fs::read(path).map_err(io_err(path, "read"))?;
    let mut h = blake3::Hasher::new();
    h.update(rel.as_os_str().as_encoded_bytes());
    h.update(&[0]);
    h.update(&bytes);
    Ok(hex(h.finalize().as_bytes()))
}

/// The recorded hashes that may stand for reading their files: those of files whose times were
/// `settled` before the recording build began reading. Keyed by directory, path and stamp.
fn reusable_hashes(
    previous: Option<&Record>,
    settled: Duration,
) -> FxHashMap<(usize, &str, InputStamp), &str> {
    let Some(record) = previous else {
        return FxHashMap::default();
    };
    let before = record.read_from_ns.saturating_sub(settled.as_nanos());
    record
        .inputs
        .iter()
        .filter(|f| older_than(f, before))
        .map(|f| ((f.dir, f.path.as_str(), f.stamp), f.hash.as_str()))
        .collect()
}

/// The live generation, when it was built from exactly these inputs. The small record is compared
/// first, so a build with changed inputs does not parse the manifest here, and neither does one
/// whose manifest file is still the one recorded (unless it lacks digests `file_digests` wants).
pub fn matching_live(
    dirs: &OutputDirs,
    inputs: &InputsDigest,
    file_digests: bool,
) -> Option<Unchanged> {
    let record = inputs.previous.as_ref()?;
    if record.digest != inputs.digest {
        return None;
    }
    if let Some(facts) = record.manifest
        && (facts.digests || !file_digests)
        && FileStamp::of(&dirs.manifest_path()) == Some(facts.stamp)
    {
        let live = dirs.live_generation()?;
        return (live.file_name()? == record.generation.as_str()).then_some(Unchanged::Recorded {
            pages: facts.pages,
            files: facts.files,
        });
    }
    let (manifest, tree) = dirs.previous()?;
    (record.generation == manifest.generation).then_some(Unchanged::Read(Box::new(manifest), tree))
}

/// Records that the live generation was built from these inputs (after it went live), with what
/// its manifest holds as `known` has it from writing it. Written to a temporary file and renamed,
/// so a crash leaves either the old record or the new one; a record for a generation that is not
/// live is ignored.
pub fn record(
    dirs: &OutputDirs,
    inputs: &InputsDigest,
    known: &KnownManifest,
) -> Result<(), IoError> {
    let Some((stamp, manifest)) = known.known() else {
        return Ok(());
    };
    // Only a single-layer manifest may stand in for reading it.
    let facts = manifest.layers.is_empty().then(|| ManifestFacts {
        stamp,
        pages: page_count(manifest),
        files: manifest.files.len(),
        digests: has_every_sha1(manifest),
    });
    let record = Record {
        generation: manifest.generation.clone(),
        digest: inputs.digest.clone(),
        manifest: facts,
        inputs: inputs.files.clone(),
        read_from_ns: settle_fresh_files(inputs, SETTLED),
    };
    write_record(dirs, &record)
}

/// Rewrites the record `inputs` was found identical to with the stamps and hashes `inputs` holds
/// now (same generation, digest and manifest facts).
pub fn refresh(dirs: &OutputDirs, inputs: &InputsDigest) -> Result<(), IoError> {
    let Some(previous) = &inputs.previous else {
        return Ok(());
    };
    let record = Record {
        generation: previous.generation.clone(),
        digest: inputs.digest.clone(),
        manifest: previous.manifest,
        inputs: inputs.files.clone(),
        read_from_ns: inputs.read_from_ns,
    };
    write_record(dirs, &record)
}

fn write_record(dirs: &OutputDirs, record: &Record) -> Result<(), IoError> {
    let path = dirs.cache.join(RECORD_FILE);
    let tmp = dirs.cache.join(format!("{RECORD_FILE}.tmp"));
    let bytes = serde_json::to_vec(record).expect("record serialises");
    write_atomically(&path, &tmp, &bytes)
}

/// The pages among a manifest's files.
pub fn page_count(manifest: &Manifest) -> usize {
    manifest
        .files
        .keys()
        .filter(|f| f.ends_with(".html"))
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    fn digest(dirs: &[&Path], previous: Option<Record>, settled: Duration) -> InputsDigest {
        digest_inputs("identity", dirs, previous, settled).unwrap()
    }

    /// The record a build would write for `inputs` (the generation and manifest do not matter here).
    fn recorded(inputs: &InputsDigest) -> Record {
        Record {
            generation: "gen".into(),
            digest: inputs.digest.clone(),
            manifest: None,
            inputs: inputs.files.clone(),
            read_from_ns: inputs.read_from_ns,
        }
    }

    /// Writes `bytes` (the file's length) over `path` and sets its modification time back: only
    /// its change time and bytes differ.
    fn rewrite_keeping_length_and_time(path: &Path, bytes: &[u8]) {
        let mtime = fs::metadata(path).unwrap().modified().unwrap();
        fs::write(path, bytes).unwrap();
        fs::File::options()
            .write(true)
            .open(path)
            .unwrap()
            .set_modified(mtime)
            .unwrap();
    }

    fn export() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("catalog")).unwrap();
        fs::write(dir.path().join("catalog/products.json"), b"[1,2,3]").unwrap();
        fs::write(dir.path().join("store.json"), b"{}").unwrap();
        dir
    }

    #[test]
    fn unchanged_stamps_keep_their_hashes_without_reading_the_files() {
        let dir = export();
        let first = digest(&[dir.path()], None, Duration::ZERO);
        assert_eq!(first.hashed, 2);
        let again = digest(&[dir.path()], Some(recorded(&first)), Duration::ZERO);
        assert_eq!(again.hashed, 0, "no file read");
        assert_eq!(again.digest, first.digest);
        // The same digest as reading every file.
        assert_eq!(
            digest(&[dir.path()], None, Duration::ZERO).digest,
            first.digest
        );
    }

    #[test]
    fn a_file_rewritten_with_its_length_and_modification_time_kept_is_read_again() {
        let dir = export();
        let path = dir.path().join("catalog/products.json");
        let first = digest(&[dir.path()], None, Duration::ZERO);
        // Its change time moves on whatever a tool does with the modification time.
        std::thread::sleep(Duration::from_millis(20));
        rewrite_keeping_length_and_time(&path, b"[1,2,4]");
        let again = digest(&[dir.path()], Some(recorded(&first)), Duration::ZERO);
        assert_eq!(again.hashed, 1, "the rewritten file, only");
        assert_ne!(again.digest, first.digest);
    }

    #[test]
    fn files_written_just_before_the_recording_build_read_them_are_read_again() {
        let dir = export();
        let first = digest(&[dir.path()], None, Duration::ZERO);
        let again = digest(
            &[dir.path()],
            Some(recorded(&first)),
            Duration::from_secs(3600),
        );
        assert_eq!(again.hashed, 2);
        assert_eq!(again.digest, first.digest);
    }

    #[test]
    fn fresh_files_settled_by_the_time_of_the_record_are_vouched_for_then() {
        let dir = export();
        let settled = Duration::from_millis(300);
        // Read at once: both files are fresh.
        let first = digest(&[dir.path()], None, settled);
        std::thread::sleep(Duration::from_millis(400));
        let from = settle_fresh_files(&first, settled);
        assert!(from > first.read_from_ns, "counts from the check");
        let record = Record {
            read_from_ns: from,
            ..recorded(&first)
        };
        let again = digest(&[dir.path()], Some(record), settled);
        assert_eq!(again.hashed, 0, "no file read");
        assert_eq!(again.digest, first.digest);
    }

    #[test]
    fn a_fresh_file_changed_before_the_record_leaves_the_fresh_files_to_the_next_build() {
        let dir = export();
        let path = dir.path().join("catalog/products.json");
        let settled = Duration::from_millis(300);
        let first = digest(&[dir.path()], None, settled);
        rewrite_keeping_length_and_time(&path, b"[1,2,4]");
        std::thread::sleep(Duration::from_millis(400));
        assert_eq!(settle_fresh_files(&first, settled), first.read_from_ns);
        let again = digest(&[dir.path()], Some(recorded(&first)), settled);
        assert_eq!(again.hashed, 2, "both fresh files read again");
        assert_ne!(again.digest, first.digest);
    }

    #[test]
    fn files_still_too_fresh_when_recorded_are_read_by_the_next_build() {
        let dir = export();
        let settled = Duration::from_secs(3600);
        let first = digest(&[dir.path()], None, settled);
        let from = settle_fresh_files(&first, settled);
        assert_eq!(from, first.read_from_ns, "nothing could be vouched for");
        let again = digest(&[dir.path()], Some(recorded(&first)), settled);
        assert_eq!(again.hashed, 2);
    }

    #[test]
    fn a_missing_input_directory_is_named_once_with_the_reason() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("templates");
        let err = digest_inputs("identity", &[&missing], None, Duration::ZERO)
            .err()
            .expect("a missing directory fails");
        assert_eq!(
            err.to_string(),
            format!(
                "{}: list: No such file or directory (os error 2)",
                missing.display()
            )
        );
    }

    #[test]
    fn added_and_removed_files_change_the_digest() {
        let dir = export();
        let first = digest(&[dir.path()], None, Duration::ZERO);
        fs::write(dir.path().join("catalog/extra.json"), b"[]").unwrap();
        let added = digest(&[dir.path()], Some(recorded(&first)), Duration::ZERO);
        assert_eq!(added.hashed, 1);
        assert_ne!(added.digest, first.digest);
        fs::remove_file(dir.path().join("catalog/extra.json")).unwrap();
        fs::remove_file(dir.path().join("store.json")).unwrap();
        let removed = digest(&[dir.path()], Some(recorded(&added)), Duration::ZERO);
        assert_eq!(removed.hashed, 0);
        assert_ne!(removed.digest, first.digest);
    }
}
