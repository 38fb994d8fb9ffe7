//! A digest of everything a build reads (export, templates, bundles, the generator itself), recorded
//! next to the live generation, so that a build whose inputs are byte-identical to the last
//! successful one can stop before loading anything.
//!
//! The pages are a pure function of these inputs, so identical inputs mean an identical site: the
//! full incremental path (load, plan, compare fingerprints) would write nothing anyway, and costs
//! seconds at 10k products. Any change, even to a file the pages do not read (stock), takes the
//! full path, which validates everything again.

use crate::output::{
    FileStamp, IoError, KnownManifest, LiveTree, Manifest, OutputDirs, has_every_sha1, hex, io_err,
    write_atomically,
};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use walkdir::WalkDir;

const RECORD_FILE: &str = "last-inputs.json";

#[derive(Serialize, Deserialize, PartialEq, Eq, Debug)]
struct Record {
    /// The generation these inputs built; the record counts only while it is the live one.
    generation: String,
    digest: String,
    /// What the live manifest held when it was written, so that a build with unchanged inputs
    /// does not parse it (a tenth of a second at 100k files). Absent in records from before it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    manifest: Option<ManifestFacts>,
}

#[derive(Serialize, Deserialize, PartialEq, Eq, Debug, Clone, Copy)]
struct ManifestFacts {
    stamp: FileStamp,
    pages: usize,
    files: usize,
}

/// The live generation, when it was built from exactly these inputs.
pub enum Unchanged {
    /// The manifest file is the one the record describes (same inode, length and time): its
    /// counts are the record's, and it is complete (every file has its SHA-1).
    Recorded { pages: usize, files: usize },
    /// The manifest, read because the record could not vouch for it.
    Read(Manifest, LiveTree),
}

/// Hashes every file under `dirs` (relative path and bytes, in path order) plus `identity`.
pub fn digest_inputs(identity: &str, dirs: &[&Path]) -> Result<String, IoError> {
    let mut files: Vec<(usize, PathBuf)> = Vec::new();
    for (di, dir) in dirs.iter().enumerate() {
        for entry in WalkDir::new(dir).sort_by_file_name() {
            let entry = entry.map_err(|e| IoError {
                path: dir.display().to_string(),
                action: "list",
                cause: e.into(),
            })?;
            if entry.file_type().is_file() {
                files.push((di, entry.into_path()));
            }
        }
    }
    let hashes: Vec<[u8; 32]> = files
        .par_iter()
        .map(|(di, path)| {
            let bytes = std::fs::read(path).map_err(io_err(path, "read"))?;
            let mut h = blake3::Hasher::new();
            h.update(
                path.strip_prefix(dirs[*di])
                    .unwrap_or(path)
                    .as_os_str()
                    .as_encoded_bytes(),
            );
            h.update(&[0]);
            h.update(&bytes);
            Ok(*h.finalize().as_bytes())
        })
        .collect::<Result<_, IoError>>()?;
    let mut all = blake3::Hasher::new();
    all.update(identity.as_bytes());
    for ((di, _), hash) in files.iter().zip(&hashes) {
        all.update(&di.to_le_bytes());
        all.update(hash);
    }
    Ok(hex(all.finalize().as_bytes()))
}

/// The live generation, when it was built from exactly these inputs. The small record is compared
/// first, so a build with changed inputs does not parse the manifest here, and neither does one
/// whose manifest file is still the one recorded.
pub fn matching_live(dirs: &OutputDirs, digest: &str) -> Option<Unchanged> {
    let bytes = std::fs::read(dirs.cache.join(RECORD_FILE)).ok()?;
    let record = serde_json::from_slice::<Record>(&bytes).ok()?;
    if record.digest != digest {
        return None;
    }
    if let Some(facts) = record.manifest
        && FileStamp::of(&dirs.manifest_path()) == Some(facts.stamp)
    {
        let live = dirs.live_generation()?;
        return (live.file_name()? == record.generation.as_str()).then_some(Unchanged::Recorded {
            pages: facts.pages,
            files: facts.files,
        });
    }
    let (manifest, tree) = dirs.previous()?;
    (record.generation == manifest.generation).then_some(Unchanged::Read(manifest, tree))
}

/// Records that the live generation was built from these inputs (after it went live), with what
/// its manifest holds as `known` has it from writing it. Written to a temporary file and renamed,
/// so a crash leaves either the old record or the new one; a record for a generation that is not
/// live is ignored.
pub fn record(dirs: &OutputDirs, digest: &str, known: &KnownManifest) -> Result<(), IoError> {
    let Some((stamp, manifest)) = known.known() else {
        return Ok(());
    };
    // Only a complete, single-layer manifest may stand in for reading it.
    let facts = (has_every_sha1(manifest) && manifest.layers.is_empty()).then(|| ManifestFacts {
        stamp,
        pages: page_count(manifest),
        files: manifest.files.len(),
    });
    let record = Record {
        generation: manifest.generation.clone(),
        digest: digest.to_string(),
        manifest: facts,
    };
    let path = dirs.cache.join(RECORD_FILE);
    let tmp = dirs.cache.join(format!("{RECORD_FILE}.tmp"));
    let bytes = serde_json::to_vec(&record).expect("record serialises");
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
