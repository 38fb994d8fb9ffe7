//! Borrowed directories: a full build that changes a few files of a large site makes only the
//! directories that hold a change, and in place of each unchanged directory below them puts one
//! relative symlink to the same directory of the full generation the live tree was built from.
//! At 10k products a one-product change then makes a few dozen directories and ~30k symlinks
//! instead of 180k directories and 120k hard links, and the swap of `public` stays one rename.
//!
//! Owners stay few: a generation borrows only from one *full* generation (one that borrows
//! nothing), and only directories that are real, complete directories there. A directory that
//! the live tree made itself (a product changed by the previous build) is made again and its
//! files hard-linked. So a borrowing generation needs exactly one other generation to exist, and
//! pruning keeps it (`LiveTree::names`).

use serde::{Deserialize, Serialize};
use std::collections::{BTreeSet, HashSet};

/// Borrowing is chosen only when the new generation would reach at least this share of its files
/// through links. A generation that holds most of its files itself is made whole instead (or
/// from the spare): every later build could borrow only the rest from the old full generation
/// and would make the same directories again, where a whole generation becomes the lender the
/// next small changes borrow nearly everything from.
const MIN_BORROWED_SHARE: f64 = 0.75;

/// What a generation borrows: its directories `dirs` are symlinks to the same paths in the full
/// generation `from`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Borrowed {
    pub from: String,
    pub dirs: BTreeSet<String>,
}

impl Borrowed {
    /// Whether directory `dir` is `from`'s own (it or a directory above it is borrowed).
    pub(crate) fn covers(&self, dir: &str) -> bool {
        std::iter::once(dir)
            .chain(ancestors(dir))
            .any(|d| self.dirs.contains(d))
    }
}

/// How to make a generation that borrows (paths relative to the generation).
#[derive(Debug)]
pub struct Borrowing {
    pub borrowed: Borrowed,
    /// Directories to make, parents first.
    pub make_dirs: Vec<String>,
    /// Outputs inside borrowed directories: in place once the symlinks are.
    pub covered: HashSet<String>,
    /// File-system calls it takes: one per directory made, per symlink and per output left.
    pub calls: usize,
    /// File-system calls a new tree would take: one per directory and per output.
    pub fresh: usize,
}

/// The live tree a new generation may borrow from.
pub struct Lender<'a, Files> {
    /// The live generation's name.
    pub name: &'a str,
    /// Every file of the live tree.
    pub files: Files,
    /// What the live generation itself borrows.
    pub borrowed: Option<&'a Borrowed>,
}

/// Each directory above `path`, nearest first ("a/b/c" → "a/b", "a").
fn ancestors(path: &str) -> impl Iterator<Item = &str> {
    std::iter::successors(path.rsplit_once('/').map(|(dir, _)| dir), |dir| {
        dir.rsplit_once('/').map(|(parent, _)| parent)
    })
}

#[derive(Default)]
struct DirState {
    /// Outputs of the new tree under the directory (at any depth).
    planned: u32,
    /// Files of the live tree under it.
    live: u32,
    /// Whether any output under it is new or changed.
    changed: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    Made,
    Linked,
    /// Below a linked directory: in place through the link.
    Inside,
}

/// The borrowing generation for `outputs` (each path with whether the live tree holds it
/// unchanged), if it reaches `MIN_BORROWED_SHARE` of them through links and takes fewer
/// file-system calls than a new tree (one `mkdir` per directory and one write or link per
/// output). A directory is borrowed when the new tree holds
/// exactly the live tree's files under it, all unchanged, and it is a real directory of the full
/// generation the live one is or borrows from; only the topmost such directories become links.
pub fn plan<'a>(
    outputs: &[(&str, bool)],
    lender: Lender<'a, impl IntoIterator<Item = &'a str>>,
) -> Option<Borrowing> {
    layout(outputs, lender).filter(|b| {
        b.calls < b.fresh && b.covered.len() as f64 >= MIN_BORROWED_SHARE * outputs.len() as f64
    })
}

/// The borrowing generation for `outputs`, whatever it costs, if it borrows anything.
fn layout<'a>(
    outputs: &[(&str, bool)],
    lender: Lender<'a, impl IntoIterator<Item = &'a str>>,
) -> Option<Borrowing> {
    let mut dirs: rustc_hash::FxHashMap<&str, DirState> = Default::default();
    for &(path, unchanged) in outputs {
        for dir in ancestors(path) {
            let state = dirs.entry(dir).or_default();
            state.planned += 1;
            state.changed |= !unchanged;
        }
    }
    for path in lender.files {
        for dir in ancestors(path) {
            if let Some(state) = dirs.get_mut(dir) {
                state.live += 1;
            }
        }
    }
    let from = lender
        .borrowed
        .map_or(lender.name, |b| b.from.as_str())
        .to_string();
    let lendable = |dir: &str| lender.borrowed.is_none_or(|b| b.covers(dir));

    let mut order: Vec<&str> = dirs.keys().copied().collect();
    // A path sorts after every prefix of it: parents come first.
    order.sort_unstable();
    let mut places: rustc_hash::FxHashMap<&str, Place> = Default::default();
    let mut borrowed = BTreeSet::new();
    let mut make_dirs = Vec::new();
    for dir in order {
        let parent = dir.rsplit_once('/').map_or(Place::Made, |(p, _)| places[p]);
        let state = &dirs[dir];
        let place = if parent != Place::Made {
            Place::Inside
        } else if !state.changed && state.planned == state.live && lendable(dir) {
            borrowed.insert(dir.to_string());
            Place::Linked
        } else {
            make_dirs.push(dir.to_string());
            Place::Made
        };
        places.insert(dir, place);
    }
    if borrowed.is_empty() {
        return None;
    }
    let covered: HashSet<String> = outputs
        .iter()
        .filter(|(path, _)| {
            path.rsplit_once('/')
                .is_some_and(|(dir, _)| places[dir] != Place::Made)
        })
        .map(|(path, _)| path.to_string())
        .collect();
    Some(Borrowing {
        calls: make_dirs.len() + borrowed.len() + (outputs.len() - covered.len()),
        fresh: dirs.len() + outputs.len(),
        borrowed: Borrowed {
            from,
            dirs: borrowed,
        },
        make_dirs,
        covered,
    })
}

/// The symlink that stands for directory `dir` of a generation: relative, from the generation to
/// its sibling `from`, so it holds wherever the build cache is and after the generation's rename
/// from its unfinished name.
pub fn link_target(from: &str, dir: &str) -> String {
    let depth = dir.split('/').count();
    format!("{}{from}/{dir}", "../".repeat(depth))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan_of(outputs: &[(&str, bool)], live: &[&str], borrowed: Option<&Borrowed>) -> Borrowing {
        layout(
            outputs,
            Lender {
                name: "live",
                files: live.iter().copied(),
                borrowed,
            },
        )
        .expect("something to borrow")
    }

    const LIVE: [&str; 7] = [
        "index.html",
        "p/1/index.html",
        "p/1/red/index.html",
        "p/2/index.html",
        "p/2/red/index.html",
        "p/3/index.html",
        "gone/index.html",
    ];

    #[test]
    fn only_the_topmost_unchanged_directories_are_borrowed() {
        let outputs = [
            ("index.html", false),
            ("p/1/index.html", true),
            ("p/1/red/index.html", true),
            ("p/2/index.html", false),
            ("p/2/red/index.html", true),
            ("p/3/index.html", true),
        ];
        let plan = plan_of(&outputs, &LIVE, None);
        assert_eq!(plan.borrowed.from, "live");
        let dirs: Vec<&str> = plan.borrowed.dirs.iter().map(String::as_str).collect();
        assert_eq!(dirs, ["p/1", "p/2/red", "p/3"]);
        assert_eq!(plan.make_dirs, ["p", "p/2"]);
        let covered: BTreeSet<&str> = plan.covered.iter().map(String::as_str).collect();
        assert_eq!(
            covered,
            [
                "p/1/index.html",
                "p/1/red/index.html",
                "p/2/red/index.html",
                "p/3/index.html"
            ]
            .into()
        );
        // 2 directories, 3 links, 2 outputs; a new tree: 6 directories and 6 outputs.
        assert_eq!((plan.calls, plan.fresh), (7, 12));
        // Cheaper, but 4 of the 6 outputs borrowed is under the share that pays for the
        // directories every later build would make again.
        let lender = Lender {
            name: "live",
            files: LIVE.iter().copied(),
            borrowed: None,
        };
        assert!(super::plan(&outputs, lender).is_none());
    }

    #[test]
    fn a_directory_that_gains_or_loses_a_file_is_not_borrowed() {
        let outputs = [
            ("index.html", false),
            ("p/1/index.html", true),
            ("p/1/red/index.html", true),
            ("p/1/blue/index.html", false),
            ("p/2/index.html", true),
            ("p/3/index.html", true),
        ];
        // p/2 lost p/2/red: its files are all unchanged, but not all of the live ones.
        let plan = plan_of(&outputs, &LIVE, None);
        let dirs: Vec<&str> = plan.borrowed.dirs.iter().map(String::as_str).collect();
        assert_eq!(dirs, ["p/1/red", "p/3"]);
        assert_eq!(plan.make_dirs, ["p", "p/1", "p/1/blue", "p/2"]);
    }

    #[test]
    fn a_borrowing_live_tree_lends_only_what_it_borrowed_from_its_full_generation() {
        // The live tree borrowed p/1 and p/3 from "full" and made p/2 itself.
        let live_borrowed = Borrowed {
            from: "full".into(),
            dirs: ["p/1".to_string(), "p/3".to_string()].into(),
        };
        let outputs = [
            ("index.html", false),
            ("p/1/index.html", true),
            ("p/1/red/index.html", true),
            ("p/2/index.html", true),
            ("p/2/red/index.html", true),
            ("p/3/index.html", true),
        ];
        let plan = plan_of(&outputs, &LIVE, Some(&live_borrowed));
        assert_eq!(plan.borrowed.from, "full");
        let dirs: Vec<&str> = plan.borrowed.dirs.iter().map(String::as_str).collect();
        // p/2 is unchanged but the live tree's own: made again, its files linked.
        assert_eq!(dirs, ["p/1", "p/3"]);
        assert_eq!(plan.make_dirs, ["p", "p/2", "p/2/red"]);
        assert!(!plan.covered.contains("p/2/index.html"));
    }

    #[test]
    fn a_small_change_to_a_large_tree_is_borrowed() {
        let paths: Vec<String> = (0..100).map(|i| format!("p/{i}/index.html")).collect();
        let outputs: Vec<(&str, bool)> = paths
            .iter()
            .enumerate()
            .map(|(i, p)| (p.as_str(), i != 7))
            .collect();
        let lender = Lender {
            name: "live",
            files: paths.iter().map(String::as_str),
            borrowed: None,
        };
        let plan = plan(&outputs, lender).expect("99 of 100 borrowed");
        assert_eq!(plan.make_dirs, ["p", "p/7"]);
        assert_eq!(plan.borrowed.dirs.len(), 99);
    }

    #[test]
    fn nothing_unchanged_means_nothing_to_borrow() {
        let outputs = [("index.html", false), ("p/1/index.html", false)];
        let lender = Lender {
            name: "live",
            files: LIVE.iter().copied(),
            borrowed: None,
        };
        assert!(plan(&outputs, lender).is_none());
    }

    #[test]
    fn a_link_climbs_to_the_generations_directory() {
        assert_eq!(link_target("gen-1", "p"), "../gen-1/p");
        assert_eq!(link_target("gen-1", "us/p/12"), "../../../gen-1/us/p/12");
    }
}
