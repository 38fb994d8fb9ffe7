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
//!
//! A spare that borrows directories (borrow.rs) is recycled only into a generation borrowing
//! from the same full generation: its links that the new tree also borrows stay, and only the
//! directories it made are changed, never a path through a link (that would change the lender).
//! So a steady run of small rebuilds neither makes nor removes the ~30k links of a large site.

use crate::output::borrow::{Borrowed, Borrowing};
use crate::output::{OutputDirs, dirs_of};
use serde::Deserialize;
use std::collections::{BTreeSet, HashMap, HashSet};
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

/// A spare generation, the fingerprint (hex) of each file it holds and what it borrows.
pub struct Spare {
    pub dir: PathBuf,
    files: HashMap<String, String>,
    borrowed: Option<Borrowed>,
}

/// The part of a kept manifest recycling needs (the SHA-1 digests are skipped unread).
#[derive(Deserialize)]
struct RecordedFiles {
    files: HashMap<String, String>,
    #[serde(default)]
    borrowed: Option<Borrowed>,
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
    /// Borrowed directories the new tree links and the spare does not, made after `make_dirs`.
    pub make_links: Vec<String>,
    /// What the new generation borrows (`None`: a generation holding all of its directories).
    pub borrowed: Option<Borrowed>,
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
            borrowed: recorded.borrowed,
        })
    }

    /// Whether the spare holds output `path` with `live`, the fingerprint of the live file it
    /// carries over (`None`: an output to be written).
    fn has_as_live(&self, path: &str, live: Option<blake3::Hash>) -> bool {
        live.is_some_and(|fingerprint| {
            self.files
                .get(path)
                .is_some_and(|had| fingerprint.to_hex().as_str() == had)
        })
    }

    /// What turning this spare into the generation of `outputs` takes, if that costs fewer
    /// file-system calls than making a new tree. `outputs` are the new generation's paths, each
    /// with the fingerprint of the live file it carries over, or `None` for one to be written.
    pub fn plan(&self, outputs: &[(&str, Option<blake3::Hash>)]) -> Option<Recycling> {
        if self.borrowed.is_some() {
            // Its files under links are the lender's: unlinking them would change it.
            return None;
        }
        let keep: HashSet<String> = outputs
            .iter()
            .filter(|(path, live)| self.has_as_live(path, *live))
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
            make_links: Vec::new(),
            borrowed: None,
            calls: recycled,
        })
    }

    /// What turning this spare, when it borrows from the same full generation as `new`, into the
    /// borrowing generation `new` takes, if that costs fewer calls than making `new` afresh. Its
    /// links that `new` keeps stay; its other links are unlinked (the link, never what it points
    /// to); of the files in the directories it made, those `new` also holds in a directory it
    /// makes, with the same fingerprint, stay and the rest are unlinked; its directories `new`
    /// does not make are removed (emptied by then), and the directories and links `new` needs
    /// are made. `outputs` as for `plan`.
    pub fn plan_borrowing(
        &self,
        outputs: &[(&str, Option<blake3::Hash>)],
        new: &Borrowing,
    ) -> Option<Recycling> {
        let had = self.borrowed.as_ref()?;
        if had.from != new.borrowed.from {
            return None;
        }
        let links: &BTreeSet<String> = &had.dirs;
        let made: HashSet<&str> = dirs_of(self.files.keys().map(String::as_str))
            .into_iter()
            .filter(|d| !had.covers(d))
            .collect();
        let new_made: HashSet<&str> = new.make_dirs.iter().map(String::as_str).collect();
        // Whether a file's directory is the generation's root or one of `dirs`.
        fn directly_in(dirs: &HashSet<&str>, path: &str) -> bool {
            path.rsplit_once('/')
                .is_none_or(|(dir, _)| dirs.contains(dir))
        }
        let in_new_made = |path: &str| directly_in(&new_made, path);
        let in_made = |path: &str| directly_in(&made, path);
        let mut keep: HashSet<String> = outputs
            .iter()
            .filter(|(path, live)| {
                in_new_made(path) && in_made(path) && self.has_as_live(path, *live)
            })
            .map(|(path, _)| path.to_string())
            .collect();
        let unlink: Vec<String> = links
            .iter()
            .filter(|l| !new.borrowed.dirs.contains(*l))
            .chain(
                self.files
                    .keys()
                    .filter(|f| in_made(f) && !keep.contains(*f)),
            )
            .cloned()
            .collect();
        let mut remove_dirs: Vec<String> = made
            .iter()
            .filter(|d| !new_made.contains(*d))
            .map(|d| d.to_string())
            .collect();
        // Parents first (a path sorts after its prefixes): removed in reverse.
        remove_dirs.sort_unstable();
        let make_dirs: Vec<String> = new
            .make_dirs
            .iter()
            .filter(|d| !made.contains(d.as_str()))
            .cloned()
            .collect();
        let make_links: Vec<String> = new.borrowed.dirs.difference(links).cloned().collect();
        let written = outputs.len() - keep.len() - new.covered.len();
        let calls =
            1 + unlink.len() + remove_dirs.len() + make_dirs.len() + make_links.len() + written;
        if calls >= new.calls {
            return None;
        }
        keep.extend(new.covered.iter().cloned());
        Some(Recycling {
            keep,
            unlink,
            remove_dirs,
            make_dirs,
            make_links,
            borrowed: Some(new.borrowed.clone()),
            calls,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spare(files: &[(&str, &str)]) -> Spare {
        Spare {
            dir: PathBuf::new(),
            borrowed: None,
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
    fn a_borrowing_spare_keeps_the_links_the_new_tree_borrows_and_changes_only_what_it_made() {
        let same = blake3::hash(b"same");
        let roots = [
            "a.html",
            "b.html",
            "c.html",
            "d.html",
            "e.html",
            "index.html",
        ];
        let fingerprint = same.to_hex().to_string();
        let files: Vec<(&str, &str)> = roots
            .iter()
            .copied()
            .chain([
                "p/1/index.html",
                "p/1/red/index.html",
                "p/2/index.html",
                "p/2/red/index.html",
                "p/3/index.html",
            ])
            .map(|path| (path, fingerprint.as_str()))
            .collect();
        let mut old = spare(&files);
        // The spare made p and p/2 (a product changed then) and borrowed p/1 and p/3.
        old.borrowed = Some(Borrowed {
            from: "full".into(),
            dirs: ["p/1".to_string(), "p/3".to_string()].into(),
        });
        // The new tree changes p/1 and borrows p/2 and p/3.
        let new = Borrowing {
            borrowed: Borrowed {
                from: "full".into(),
                dirs: ["p/2".to_string(), "p/3".to_string()].into(),
            },
            make_dirs: vec!["p".into(), "p/1".into(), "p/1/red".into()],
            covered: ["p/2/index.html", "p/2/red/index.html", "p/3/index.html"]
                .map(String::from)
                .into(),
            // 3 directories, 2 links, 8 outputs.
            calls: 13,
            fresh: 17,
        };
        let outputs: Vec<(&str, Option<blake3::Hash>)> = roots
            .iter()
            .map(|r| (*r, Some(same)))
            .chain([
                ("p/1/index.html", None),
                ("p/1/red/index.html", Some(same)),
                ("p/2/index.html", Some(same)),
                ("p/2/red/index.html", Some(same)),
                ("p/3/index.html", Some(same)),
            ])
            .collect();
        assert!(old.plan(&outputs).is_none(), "never recycled file by file");
        let plan = old.plan_borrowing(&outputs, &new).expect("cheaper");
        let mut unlink = plan.unlink.clone();
        unlink.sort();
        // The link p/1 (not what it points to) and the files of p/2, which becomes a link.
        assert_eq!(unlink, ["p/1", "p/2/index.html", "p/2/red/index.html"]);
        assert_eq!(plan.remove_dirs, ["p/2", "p/2/red"]);
        assert_eq!(plan.make_dirs, ["p/1", "p/1/red"]);
        assert_eq!(plan.make_links, ["p/2"]);
        // The root files stay; p/1/red/index.html was the lender's (through the link): linked.
        assert!(roots.iter().all(|r| plan.keep.contains(*r)));
        assert!(!plan.keep.contains("p/1/red/index.html"));
        assert!(plan.keep.contains("p/3/index.html"));
        assert_eq!(plan.borrowed.as_ref(), Some(&new.borrowed));
        // A rename, 3 unlinks, 2 directories removed, 2 made, 1 link, 2 outputs.
        assert_eq!(plan.calls, 11);

        // Never into a generation borrowing from another lender.
        let elsewhere = Borrowing {
            borrowed: Borrowed {
                from: "other".into(),
                ..new.borrowed.clone()
            },
            ..new
        };
        assert!(old.plan_borrowing(&outputs, &elsewhere).is_none());
    }

    #[test]
    fn only_complete_generations_have_a_place_in_time() {
        assert_eq!(order("gen-17-4-2"), Some((17, 2)));
        assert_eq!(order("gen-17-4-2.tmp"), None);
        assert_eq!(order("gen-17-4-2-previous-plain"), None);
        assert_eq!(order("other"), None);
    }
}
