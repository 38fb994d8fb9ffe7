//! The directories a tree of output files needs, and making them on every core: each `mkdir` on
//! ext4 allocates an inode and a block (tens of microseconds, all in the kernel), so a cold build's
//! 18k directories made one after another kept one core busy while the other waited.

use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Every directory the relative file `paths` need (each parent and its ancestors), in path
/// order: a path sorts after every prefix of it, so a parent comes before its children.
pub fn dirs_of<'a>(paths: impl IntoIterator<Item = &'a str>) -> BTreeSet<&'a str> {
    let mut dirs = BTreeSet::new();
    for path in paths {
        let mut dir = path;
        // Each parent and its ancestors, up to one already known.
        while let Some((parent, _)) = dir.rsplit_once('/') {
            if !dirs.insert(parent) {
                break;
            }
            dir = parent;
        }
    }
    dirs
}

/// Makes `dirs` (relative, each one's parent among them or already there) under `root`, one
/// `mkdir` each: depth by depth, so every parent exists before its children, and within a depth
/// the children of different parents in parallel, those of one parent on one thread (the kernel
/// locks a directory while it adds an entry: two threads adding to one parent wait on each other).
/// Answers how many it made.
pub fn make_dirs<'a>(
    root: &Path,
    dirs: impl IntoIterator<Item = &'a str>,
) -> Result<usize, (PathBuf, std::io::Error)> {
    let mut by_depth: Vec<Vec<&str>> = Vec::new();
    for dir in dirs {
        let depth = dir.bytes().filter(|&b| b == b'/').count();
        if by_depth.len() <= depth {
            by_depth.resize_with(depth + 1, Vec::new);
        }
        by_depth[depth].push(dir);
    }
    for level in &by_depth {
        // In path order a parent's children are next to each other.
        let families: Vec<&[&str]> = level.chunk_by(|a, b| parent(a) == parent(b)).collect();
        families.par_iter().try_for_each(|family| {
            family.iter().try_for_each(|dir| {
                let path = root.join(dir);
                std::fs::create_dir(&path).map_err(|e| (path, e))
            })
        })?;
    }
    Ok(by_depth.iter().map(Vec::len).sum())
}

fn parent(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(parent, _)| parent)
}

/// How the directories of a tree of files are made: those that hold a directory or more than one
/// file up front (`make_shared`), and each that holds one file only by that file's writer, just
/// before it opens the file (`make_own_dir`). At 1k products 12k of the 18k directories are such
/// leaves; made beside rendering, their kernel work spreads over every core.
#[derive(Default)]
pub struct DirPlan {
    /// Directories made up front, parents first.
    shared: Vec<String>,
    /// Files that are the only entry of their directory, which their writer makes.
    own_dir: FxHashSet<Box<str>>,
}

impl DirPlan {
    /// The plan for the relative file `paths` (distinct, none a directory of another).
    pub fn new<'a>(paths: impl IntoIterator<Item = &'a str>) -> DirPlan {
        let paths: Vec<&str> = paths.into_iter().collect();
        let dirs = dirs_of(paths.iter().copied());
        let mut entries: FxHashMap<&str, usize> = FxHashMap::default();
        for entry in dirs.iter().chain(&paths) {
            if let Some((parent, _)) = entry.rsplit_once('/') {
                *entries.entry(parent).or_default() += 1;
            }
        }
        let alone = |file: &&&str| {
            file.rsplit_once('/')
                .is_some_and(|(parent, _)| entries[parent] == 1)
        };
        let own_dir: FxHashSet<Box<str>> = paths.iter().filter(alone).map(|&p| p.into()).collect();
        let made_by_writers: FxHashSet<&str> = own_dir
            .iter()
            .filter_map(|file| file.rsplit_once('/').map(|(parent, _)| parent))
            .collect();
        let shared = dirs
            .into_iter()
            .filter(|dir| !made_by_writers.contains(dir))
            .map(str::to_string)
            .collect();
        DirPlan { shared, own_dir }
    }

    /// Makes the shared directories under `root`; answers how many.
    pub fn make_shared(&self, root: &Path) -> Result<usize, (PathBuf, std::io::Error)> {
        make_dirs(root, self.shared.iter().map(String::as_str))
    }

    /// Makes the directory of file `rel` under `root` when the plan leaves it to this file's
    /// writer; answers whether it made one.
    pub fn make_own_dir(&self, root: &Path, rel: &str) -> Result<bool, (PathBuf, std::io::Error)> {
        match rel.rsplit_once('/') {
            Some((parent, _)) if self.own_dir.contains(rel) => {
                let path = root.join(parent);
                std::fs::create_dir(&path).map_err(|e| (path, e))?;
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    /// How many directories the plan makes in all.
    pub fn len(&self) -> usize {
        self.shared.len() + self.own_dir.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_directory_holding_one_file_is_left_to_that_file() {
        let paths = [
            "index.html",
            "p/1/red/index.html",
            "p/1/blue/index.html",
            "p/2/index.html",
            "p/2/a.css",
            "us/p/1/red/index.html",
        ];
        let plan = DirPlan::new(paths);
        assert_eq!(plan.shared, ["p", "p/1", "p/2", "us", "us/p", "us/p/1"]);
        let mut own: Vec<&str> = plan.own_dir.iter().map(|p| &**p).collect();
        own.sort();
        assert_eq!(
            own,
            [
                "p/1/blue/index.html",
                "p/1/red/index.html",
                "us/p/1/red/index.html"
            ]
        );
        assert_eq!(plan.len(), 9);
    }

    #[test]
    fn the_plan_makes_every_directory_once_and_parents_first() {
        let root = tempfile::tempdir().unwrap();
        let paths = [
            "a/b/c/index.html",
            "a/b/d/index.html",
            "a/index.html",
            "x/y/z/w/index.html",
            "top.html",
        ];
        let plan = DirPlan::new(paths);
        let shared = plan.make_shared(root.path()).unwrap();
        let own: usize = paths
            .iter()
            .map(|p| usize::from(plan.make_own_dir(root.path(), p).unwrap()))
            .sum();
        assert_eq!(shared + own, plan.len());
        for p in paths {
            std::fs::write(root.path().join(p), p).unwrap();
        }
        let made = walkdir::WalkDir::new(root.path())
            .min_depth(1)
            .into_iter()
            .filter(|e| e.as_ref().unwrap().file_type().is_dir())
            .count();
        assert_eq!(made, plan.len());
        assert_eq!(made, 8);
    }
}
