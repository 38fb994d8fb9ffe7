//! A digest of everything a build reads (export, templates, bundles, the generator itself), recorded
//! next to the live generation, so that a build whose inputs are byte-identical to the last
//! successful one can stop before loading anything.
//!
//! The pages are a pure function of these inputs, so identical inputs mean an identical site: the
//! full incremental path (load, plan, compare fingerprints) would write nothing anyway, and costs
//! seconds at 10k products. Any change, even to a file the pages do not read (stock), takes the
//! full path, which validates everything again.

use crate::output::{IoError, LiveTree, Manifest, OutputDirs, hex, io_err, write_atomically};
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

/// The live generation (its manifest and tree), when it was built from exactly these inputs. The
/// small record is compared first, so a build with changed inputs does not parse the manifest here.
pub fn matching_live(dirs: &OutputDirs, digest: &str) -> Option<(Manifest, LiveTree)> {
    let bytes = std::fs::read(dirs.cache.join(RECORD_FILE)).ok()?;
    let record = serde_json::from_slice::<Record>(&bytes).ok()?;
    if record.digest != digest {
        return None;
    }
    let (manifest, tree) = dirs.previous()?;
    (record.generation == manifest.generation).then_some((manifest, tree))
}

/// Records that the live generation was built from these inputs (after it went live). Written to a
/// temporary file and renamed, so a crash leaves either the old record or the new one; a record for
/// a generation that is not live is ignored.
pub fn record(dirs: &OutputDirs, digest: &str) -> Result<(), IoError> {
    let Some((manifest, _)) = dirs.previous() else {
        return Ok(());
    };
    let record = Record {
        generation: manifest.generation,
        digest: digest.to_string(),
    };
    let path = dirs.cache.join(RECORD_FILE);
    let tmp = dirs.cache.join(format!("{RECORD_FILE}.tmp"));
    let bytes = serde_json::to_vec(&record).expect("record serialises");
    write_atomically(&path, &tmp, &bytes)
}
