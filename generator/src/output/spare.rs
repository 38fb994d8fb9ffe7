//! The spare generation: a superseded full generation kept (renamed, not deleted) so that the next
//! full build can start from it and change only the files that differ, instead of making a whole
//! new tree (at 10k products, 180k directories and 120k links) and deleting an old one.
//!
//! After a full build publishes, the live generation and the one before it are kept untouched (a
//! reader may still be in either); of the others, the newest complete one becomes the spare
//! (`{name}.spare`) and the rest are removed. Each full generation's manifest is kept beside the
//! generations (a hard link of the manifest as published), so the spare's files and their
//! fingerprints are known without reading the tree. Daemons keep no spare: their next generation
//! is an overlay or a compaction.

use crate::output::{OutputDirs, dirs_of};
use serde::Deserialize;
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

/// The suffix marking the spare among the generations.
const SPARE: &str = ".spare";

fn manifests_dir(dirs: &OutputDirs) -> PathBuf {
    dirs.cache.join("generation-manifests")
}

fn manifest_of(dirs: &OutputDirs, name: &str) -> PathBuf {
    manifests_dir(dirs).join(format!("{name}.json"))
}

/// Keeps the manifest just written for the full generation `name`, as a hard link (the manifest
/// file itself is replaced by the next build), so the generation can later be recycled. A failure
/// here only means the generation is removed instead of recycled once it is superseded.
pub fn record_manifest(dirs: &OutputDirs, name: &str) {
    let _ = std::fs::create_dir_all(manifests_dir(dirs));
    let _ = std::fs::hard_link(dirs.manifest_path(), manifest_of(dirs, name));
}

/// A complete generation's place in time, from its name (`gen-{millis}-{pid}-{seq}`); `None` for
/// anything else (an unfinished `.tmp` generation, a plain directory set aside).
fn order(name: &str) -> Option<(u128, u64)> {
    let mut parts = name.strip_prefix("gen-")?.split('-');
    let millis = parts.next()?.parse().ok()?;
    let _pid: u32 = parts.next()?.parse().ok()?;
    let seq = parts.next()?.parse().ok()?;
    parts.next().is_none().then_some((millis, seq))
}

/// Takes out of `doomed` (generation directory names about to be removed) the newest complete
/// generation whose manifest is kept, and makes it the spare: the closest to the live tree, so
/// the one with the fewest files to change.
pub fn keep_newest(dirs: &OutputDirs, doomed: &mut Vec<String>) {
    let newest = doomed
        .iter()
        .enumerate()
        .filter_map(|(i, name)| {
            let base = name.strip_suffix(SPARE).unwrap_or(name);
            let at = order(base)?;
            manifest_of(dirs, base).is_file().then_some((at, i))
        })
        .max();
    let Some((_, i)) = newest else {
        return;
    };
    let name = doomed.swap_remove(i);
    if !name.ends_with(SPARE) {
        let gens = dirs.generations();
        if std::fs::rename(gens.join(&name), gens.join(format!("{name}{SPARE}"))).is_err() {
            doomed.push(name);
        }
    }
}

/// Removes the kept manifests of generations that are gone (removed, or recycled under a new
/// name).
pub fn forget_removed(dirs: &OutputDirs) {
    let Ok(entries) = std::fs::read_dir(manifests_dir(dirs)) else {
        return;
    };
    let gens = dirs.generations();
    for e in entries.flatten() {
        let file = e.file_name();
        let Some(name) = file.to_str().and_then(|f| f.strip_suffix(".json")) else {
            continue;
        };
        if !gens.join(name).is_dir() && !gens.join(format!("{name}{SPARE}")).is_dir() {
            let _ = std::fs::remove_file(e.path());
        }
    }
}

/// A spare generation and the fingerprint (hex) of each file it holds.
pub struct Spare {
    pub dir: PathBuf,
    files: HashMap<String, String>,
}

/// The part of a kept manifest recycling needs (the SHA-1 digests are skipped unread).
#[derive(Deserialize)]
struct RecordedFiles {
    files: HashMap<String, String>,
}

/// What turning a spare into a new generation takes (paths relative to the generation).
pub struct Recycling {
    /// Outputs whose file in the spare already has the new bytes: left as they are.
    pub keep: HashSet<String>,
    /// The spare's other files: changed, or no longer part of the site.
    pub unlink: Vec<String>,
    /// Directories the new tree does not hold, in path order (parents first).
    pub remove_dirs: Vec<String>,
    /// Directories the new tree needs and the spare lacks, in path order (parents first).
    pub make_dirs: Vec<String>,
    /// File-system calls it takes (see `Spare::plan`).
    pub calls: usize,
}

impl Spare {
    /// The spare of the build cache, if there is one whose manifest is kept and readable.
    pub fn find(dirs: &OutputDirs) -> Option<Spare> {
        let entries = std::fs::read_dir(dirs.generations()).ok()?;
        let (_, name) = entries
            .flatten()
            .filter_map(|e| {
                let name = e.file_name().to_str()?.strip_suffix(SPARE)?.to_string();
                Some((order(&name)?, name))
            })
            .max()?;
        let recorded: RecordedFiles =
            serde_json::from_slice(&std::fs::read(manifest_of(dirs, &name)).ok()?).ok()?;
        Some(Spare {
            dir: dirs.generations().join(format!("{name}{SPARE}")),
            files: recorded.files,
        })
    }

    /// What turning this spare into the generation of `outputs` takes, if that costs fewer
    /// file-system calls than making a new tree. `outputs` are the new generation's paths, each
    /// with the fingerprint of the live file it carries over, or `None` for one to be written.
    pub fn plan(&self, outputs: &[(&str, Option<blake3::Hash>)]) -> Option<Recycling> {
        let keep: HashSet<String> = outputs
            .iter()
            .filter(|(path, live)| {
                live.is_some_and(|fingerprint| {
                    self.files
                        .get(*path)
                        .is_some_and(|had| fingerprint.to_hex().as_str() == had)
                })
            })
            .map(|(path, _)| path.to_string())
            .collect();
        let unlink: Vec<String> = self
            .files
            .keys()
            .filter(|path| !keep.contains(*path))
            .cloned()
            .collect();
        let new_dirs = dirs_of(outputs.iter().map(|(path, _)| *path));
        let spare_dirs = dirs_of(self.files.keys().map(String::as_str));
        let owned = |dirs: std::collections::btree_set::Difference<'_, &str>| -> Vec<String> {
            dirs.map(|d| d.to_string()).collect()
        };
        let make_dirs = owned(new_dirs.difference(&spare_dirs));
        let remove_dirs = owned(spare_dirs.difference(&new_dirs));
        // A new tree: one mkdir per directory and one write or link per output. The spare: one
        // rename, the directory changes, one unlink per file it loses and one write or link per
        // output it does not keep.
        let fresh = new_dirs.len() + outputs.len();
        let recycled =
            1 + make_dirs.len() + remove_dirs.len() + unlink.len() + (outputs.len() - keep.len());
        (recycled < fresh).then_some(Recycling {
            keep,
            unlink,
            remove_dirs,
            make_dirs,
            calls: recycled,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spare(files: &[(&str, &str)]) -> Spare {
        Spare {
            dir: PathBuf::new(),
            files: files
                .iter()
                .map(|(p, f)| (p.to_string(), f.to_string()))
                .collect(),
        }
    }

    #[test]
    fn a_spare_keeps_what_matches_and_changes_only_the_rest() {
        let same = blake3::hash(b"same");
        let new = blake3::hash(b"new");
        let old = spare(&[
            ("a/x/index.html", same.to_hex().as_str()),
            ("a/x/more.html", same.to_hex().as_str()),
            ("a/x/most.html", same.to_hex().as_str()),
            ("a/y/index.html", blake3::hash(b"old").to_hex().as_str()),
            ("gone/z/index.html", same.to_hex().as_str()),
        ]);
        let outputs = [
            ("a/x/index.html", Some(same)),
            ("a/x/more.html", Some(same)),
            ("a/x/most.html", Some(same)),
            ("a/y/index.html", Some(new)),
            ("b/index.html", None),
        ];
        // A new tree: 4 directories and 5 files; the spare: a rename, 3 directories changed,
        // 2 files unlinked and 2 written.
        let plan = old.plan(&outputs).expect("cheaper than a new tree");
        let kept: HashSet<String> = ["a/x/index.html", "a/x/more.html", "a/x/most.html"]
            .map(String::from)
            .into();
        assert_eq!(plan.keep, kept);
        let mut unlink = plan.unlink.clone();
        unlink.sort();
        assert_eq!(unlink, ["a/y/index.html", "gone/z/index.html"]);
        assert_eq!(plan.remove_dirs, ["gone", "gone/z"]);
        assert_eq!(plan.make_dirs, ["b"]);
    }

    #[test]
    fn a_spare_with_nothing_in_common_is_not_used() {
        let old = spare(&[("old/one.html", "00"), ("old/two.html", "00")]);
        assert!(
            old.plan(&[("new/one.html", None), ("new/two.html", None)])
                .is_none()
        );
    }

    #[test]
    fn only_complete_generations_have_a_place_in_time() {
        assert_eq!(order("gen-17-4-2"), Some((17, 2)));
        assert_eq!(order("gen-17-4-2.tmp"), None);
        assert_eq!(order("gen-17-4-2-previous-plain"), None);
        assert_eq!(order("other"), None);
    }
}
