//! Atomic, incremental output. Each build that changes anything writes a new generation directory
//! under `content-cache/generations/`: unchanged files are hard links to the live generation,
//! changed files are written fresh. The public directory is a symlink switched with one rename,
//! so readers never see a half-written site and a failed build leaves the live site as it was.
//! The manifest records each file's fingerprint and which generation it describes.
//!
//! Daemons (`storefront serve` / `dev`) publish cheaper *overlay* generations instead: only the
//! changed files, stacked over the full generation that `public` points at. Their server resolves
//! each path through an in-memory `LiveView` (path → generation directory) that is swapped with one
//! pointer flip, so going live costs nothing per unchanged file. `compact` later folds the layers
//! into a new full generation in the background and flips `public`, so the static tree (what
//! Netlify deploys) is always complete and never half-written.
//!
//! A full build that changes little *borrows* (borrow.rs): it makes only the directories holding
//! a change and links each unchanged directory below them, by a relative symlink, to the same
//! directory of the full generation the live tree was built from. Readers of `public` follow
//! the links like any path; the manifest names the generation borrowed from, and pruning keeps
//! it while a kept generation borrows from it.
//!
//! The manifest also records the SHA-1 of every file's bytes, taken when the file is written:
//! Netlify's deploy API lists a site by those digests, and reading 120k files again for each
//! deploy would cost far more than the change being deployed.

pub mod borrow;
pub mod spare;

use crate::site::Digest;
use borrow::{Borrowed, Borrowing};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

const MANIFEST_VERSION: u32 = 1;

#[derive(Debug, thiserror::Error)]
// The OS error is part of the message, not an error `source()`: printed as a chain (`{e:#}`),
// a source would repeat it after the message.
#[error("{path}: {action}: {cause}")]
pub struct IoError {
    pub path: String,
    pub action: &'static str,
    pub cause: std::io::Error,
}

pub fn io_err(path: &Path, action: &'static str) -> impl FnOnce(std::io::Error) -> IoError + use<> {
    let path = path.to_path_buf();
    move |cause| IoError {
        path: path.display().to_string(),
        action,
        cause,
    }
}

/// A failure walking `dir` (`action`: list, stat), naming the entry it happened at and the
/// system's reason once (a walkdir error's own text repeats the path: "IO error for operation
/// on …").
pub fn walk_err(
    dir: &Path,
    action: &'static str,
) -> impl FnOnce(walkdir::Error) -> IoError + use<> {
    let dir = dir.to_path_buf();
    move |e| {
        let path = e.path().unwrap_or(&dir).display().to_string();
        let cause = match e.into_io_error() {
            Some(cause) => cause,
            None => std::io::Error::other("a symbolic link leads back into a directory above it"),
        };
        IoError {
            path,
            action,
            cause,
        }
    }
}

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Manifest {
    pub version: u32,
    pub generation: String,
    /// Output path → fingerprint (hex).
    pub files: BTreeMap<String, String>,
    /// Output path → SHA-1 (hex) of the file's bytes, for deploys. Only a build with
    /// `file_digests` (a daemon's) records them as it writes; `storefront build` carries those of
    /// unchanged files and leaves the rest to `storefront deploy` (`complete_sha1`), which reads
    /// each such file once.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub sha1: BTreeMap<String, String>,
    /// Overlay generations stacked over `generation`, oldest first (daemons only; a static build
    /// always leaves this empty).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub layers: Vec<String>,
    /// Directories that are symlinks into another, full generation (borrow.rs); `None` for a
    /// generation that holds all of its directories.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub borrowed: Option<Borrowed>,
}

/// How a build goes live.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Publish {
    /// A complete generation (unchanged files hard-linked) and a flip of the `public` symlink.
    Full,
    /// Only the changed files, as a layer over the live tree; the caller's `LiveView` serves it.
    Overlay,
}

/// The tree a manifest describes: a full generation and the overlay layers above it.
#[derive(Debug, Clone)]
pub struct LiveTree {
    pub base: PathBuf,
    /// Oldest first.
    pub layers: Vec<PathBuf>,
    /// The full generation the base borrows directories from, which must outlive it.
    pub borrows_from: Option<String>,
}

impl LiveTree {
    /// Where an existing output lives: the newest layer holding it, else the base.
    pub fn locate(&self, rel: &str) -> PathBuf {
        self.layers
            .iter()
            .rev()
            .map(|l| l.join(rel))
            .find(|p| p.is_file())
            .unwrap_or_else(|| self.base.join(rel))
    }

    /// The directory names of the base, its layers and the generation it borrows from: what
    /// must stay while this tree may be read.
    pub fn names(&self) -> Vec<String> {
        std::iter::once(&self.base)
            .chain(&self.layers)
            .filter_map(|d| d.file_name().map(|n| n.to_string_lossy().to_string()))
            .chain(self.borrows_from.clone())
            .collect()
    }
}

/// What a daemon's server serves: every output path mapped to the generation directory holding
/// it. Immutable; a rebuild makes a new one and the server swaps an `Arc`. The map is persistent,
/// so the next view (one more layer) shares all but the changed paths with this one.
#[derive(Debug, Clone, Default)]
pub struct LiveView {
    dirs: Vec<PathBuf>,
    files: imbl::HashMap<String, u16>,
    /// The full generation the base borrows directories from.
    borrows_from: Option<String>,
}

impl LiveView {
    /// The view of what the manifest describes, if it describes the live tree.
    pub fn load(dirs: &OutputDirs) -> Option<LiveView> {
        let (manifest, tree) = dirs.previous()?;
        let mut view = LiveView {
            dirs: std::iter::once(tree.base.clone())
                .chain(tree.layers.iter().cloned())
                .collect(),
            files: imbl::HashMap::new(),
            borrows_from: tree.borrows_from.clone(),
        };
        for rel in manifest.files.keys() {
            let at = (1..view.dirs.len())
                .rev()
                .find(|&i| view.dirs[i].join(rel).is_file())
                .unwrap_or(0);
            view.files.insert(rel.clone(), at as u16);
        }
        Some(view)
    }

    /// This view with one more layer on top holding `written`, and without `deleted`.
    pub fn with_layer(&self, layer: PathBuf, written: &[String], deleted: &[String]) -> LiveView {
        let mut next = self.clone();
        next.dirs.push(layer);
        let top = (next.dirs.len() - 1) as u16;
        for rel in written {
            next.files.insert(rel.clone(), top);
        }
        for rel in deleted {
            next.files.remove(rel);
        }
        next
    }

    /// The generation directory holding `rel`, if the site has that file.
    pub fn dir_of(&self, rel: &str) -> Option<&Path> {
        self.files
            .get(rel)
            .map(|&i| self.dirs[i as usize].as_path())
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// Overlay layers above the base.
    pub fn layer_count(&self) -> usize {
        self.dirs.len().saturating_sub(1)
    }

    /// Generation directory names this view reads from (never pruned while it may be served).
    pub fn generation_names(&self) -> Vec<String> {
        self.dirs
            .iter()
            .filter_map(|d| d.file_name().map(|n| n.to_string_lossy().to_string()))
            .chain(self.borrows_from.clone())
            .collect()
    }
}

/// The manifest as this process last read or wrote it, with the file's identity at that moment.
/// Every writer replaces the file by a rename, so any other write (a compaction, another
/// process) shows as a new identity and the manifest is read again.
#[derive(Default)]
pub struct KnownManifest(Option<(FileStamp, Arc<Manifest>)>);

impl KnownManifest {
    /// Remembers `manifest` as the one just written to `dirs`.
    pub fn wrote(&mut self, dirs: &OutputDirs, manifest: Manifest) {
        self.0 = FileStamp::of(&dirs.manifest_path()).map(|at| (at, Arc::new(manifest)));
    }

    /// The manifest this process last wrote or read, with the stamp its file had then.
    pub fn known(&self) -> Option<(FileStamp, &Manifest)> {
        self.0.as_ref().map(|(at, manifest)| (*at, &**manifest))
    }
}

/// Inode, length and modification time of a file: while all three are the same, the file is
/// taken to be the one read or written then (it is only ever replaced by a rename).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileStamp(u64, u64, std::time::SystemTime);

impl FileStamp {
    pub fn of(path: &Path) -> Option<FileStamp> {
        use std::os::unix::fs::MetadataExt;
        let meta = std::fs::metadata(path).ok()?;
        Some(FileStamp(meta.ino(), meta.len(), meta.modified().ok()?))
    }
}

pub struct OutputDirs {
    /// The public directory (a symlink to the live generation).
    pub public: PathBuf,
    pub cache: PathBuf,
}

impl OutputDirs {
    pub fn generations(&self) -> PathBuf {
        self.cache.join("generations")
    }
    pub fn manifest_path(&self) -> PathBuf {
        self.cache.join("build-manifest.json")
    }
    /// Where the manifest is written before it is renamed into place.
    pub fn manifest_tmp_path(&self) -> PathBuf {
        self.cache.join("build-manifest.json.tmp")
    }

    /// The live generation directory, if `public` is one of ours.
    pub fn live_generation(&self) -> Option<PathBuf> {
        let target = std::fs::read_link(&self.public).ok()?;
        let target = if target.is_absolute() {
            target
        } else {
            self.public.parent()?.join(target)
        };
        target.is_dir().then_some(target)
    }

    /// The previous build's manifest, trusted only if it describes the generation that is live
    /// (and its overlay layers all exist); otherwise (a killed build, a hand-edited tree)
    /// everything is rebuilt.
    pub fn previous(&self) -> Option<(Manifest, LiveTree)> {
        let manifest: Manifest =
            serde_json::from_slice(&std::fs::read(self.manifest_path()).ok()?).ok()?;
        let tree = self.tree_of(&manifest)?;
        Some((manifest, tree))
    }

    /// `previous`, without reading the manifest file again when `known` holds it as this
    /// process last read or wrote it (a daemon's manifest has an entry per page: parsing it is
    /// a tenth of a second at 100k pages).
    pub fn previous_known(&self, known: &mut KnownManifest) -> Option<(Arc<Manifest>, LiveTree)> {
        let stamp = FileStamp::of(&self.manifest_path());
        let manifest = match (&known.0, stamp) {
            (Some((at, manifest)), Some(now)) if *at == now => manifest.clone(),
            (_, Some(now)) => {
                known.0 = None;
                let manifest: Manifest =
                    serde_json::from_slice(&std::fs::read(self.manifest_path()).ok()?).ok()?;
                let manifest = Arc::new(manifest);
                known.0 = Some((now, manifest.clone()));
                manifest
            }
            (_, None) => return None,
        };
        let tree = self.tree_of(&manifest)?;
        Some((manifest, tree))
    }

    /// The tree `manifest` describes, if it describes the live generation (and its overlay
    /// layers and the generation it borrows from all exist).
    fn tree_of(&self, manifest: &Manifest) -> Option<LiveTree> {
        let live = self.live_generation()?;
        let live_name = live.file_name()?.to_str()?;
        let layers: Vec<PathBuf> = manifest
            .layers
            .iter()
            .map(|l| self.generations().join(l))
            .collect();
        let borrows_from = manifest.borrowed.as_ref().map(|b| b.from.clone());
        (manifest.version == MANIFEST_VERSION
            && manifest.generation == live_name
            && layers.iter().all(|l| l.is_dir())
            && borrows_from
                .as_ref()
                .is_none_or(|from| self.generations().join(from).is_dir()))
        .then_some(LiveTree {
            base: live,
            layers,
            borrows_from,
        })
    }

    /// Writes the manifest of an overlay placed by `NewGeneration::place_overlay`.
    pub fn record_manifest(&self, manifest: &Manifest) -> Result<(), IoError> {
        self.write_manifest(manifest)
    }

    fn write_manifest(&self, manifest: &Manifest) -> Result<(), IoError> {
        let bytes = serde_json::to_vec(manifest).expect("manifest serialises");
        write_atomically(&self.manifest_path(), &self.manifest_tmp_path(), &bytes)
    }

    /// Removes the generations not in `keep` (the live one and the one before it) and unfinished
    /// ones, except, when `keep_spare`, the newest complete one, kept as the spare the next full
    /// build starts from (see spare.rs).
    pub fn prune(&self, keep: &[&str], keep_spare: bool) {
        let Ok(entries) = std::fs::read_dir(self.generations()) else {
            return;
        };
        let mut doomed: Vec<String> = entries
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|name| !keep.contains(&name.as_str()))
            .collect();
        if keep_spare {
            spare::keep_newest(self, &mut doomed);
        }
        for name in doomed {
            let _ = std::fs::remove_dir_all(self.generations().join(name));
        }
        spare::forget_removed(self);
    }
}

/// Writes `bytes` to `tmp` and renames it to `path`, so `path` holds the old bytes or the new ones.
/// When either step fails (a full disk, say) `tmp` is removed: a failed write leaves nothing.
pub fn write_atomically(path: &Path, tmp: &Path, bytes: &[u8]) -> Result<(), IoError> {
    let result = std::fs::write(tmp, bytes)
        .map_err(io_err(tmp, "write"))
        .and_then(|()| std::fs::rename(tmp, path).map_err(io_err(path, "rename")));
    if result.is_err() {
        let _ = std::fs::remove_file(tmp);
    }
    result
}

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

/// Makes under `root` every directory the relative file `paths` need, each with one `mkdir`,
/// parents first; answers how many it made. (The build's generations and the benchmark's
/// write-only floor both write this way.)
pub fn create_dirs_once<'a>(
    root: &Path,
    paths: impl IntoIterator<Item = &'a str>,
) -> Result<usize, (PathBuf, std::io::Error)> {
    make_dirs(root, dirs_of(paths))
}

/// Makes `dirs` under `root`, in order (parents first); answers how many it made.
fn make_dirs<'a>(
    root: &Path,
    dirs: impl IntoIterator<Item = &'a str>,
) -> Result<usize, (PathBuf, std::io::Error)> {
    let mut made = 0;
    for dir in dirs {
        let path = root.join(dir);
        std::fs::create_dir(&path).map_err(|e| (path, e))?;
        made += 1;
    }
    Ok(made)
}

/// Puts under `root` a link for each borrowed directory `dirs`, to the same directory of the
/// generation `from` (see borrow.rs). In turn: the kernel locks a directory while an entry is
/// added to it, and most links share one of three parents (the markets' product directories); a
/// version making each parent's links in parallel measured no faster.
fn make_links<'a>(
    root: &Path,
    from: &str,
    dirs: impl IntoIterator<Item = &'a String>,
) -> Result<(), IoError> {
    for rel in dirs {
        let path = root.join(rel);
        std::os::unix::fs::symlink(borrow::link_target(from, rel), &path)
            .map_err(io_err(&path, "link a borrowed directory"))?;
    }
    Ok(())
}

/// Writes a new file at `path` with one open (failing if anything is there), one write and one
/// close. A generation's files may be hard links shared with the live tree (a recycled spare),
/// so writing through an existing path could change the live site.
fn create_new(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    create_new_from_parts(path, &[bytes])
}

/// `create_new` for a file whose bytes are `parts` in order, written with one `writev` (a page
/// and its island stylesheets, left where they were rendered instead of joined into a copy).
fn create_new_from_parts(path: &Path, parts: &[&[u8]]) -> std::io::Result<()> {
    use std::io::{IoSlice, Write as _};
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)?;
    let mut slices: Vec<IoSlice> = parts
        .iter()
        .filter(|p| !p.is_empty())
        .map(|p| IoSlice::new(p))
        .collect();
    let mut rest = &mut slices[..];
    // A regular file takes all of it at once; the loop is for a short write all the same.
    while !rest.is_empty() {
        match file.write_vectored(rest) {
            Ok(0) => return Err(std::io::ErrorKind::WriteZero.into()),
            Ok(n) => IoSlice::advance_slices(&mut rest, n),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Lower-case hex of a digest.
pub fn hex(d: &Digest) -> String {
    blake3::Hash::from_bytes(*d).to_hex().to_string()
}

/// A generation being written. Dropped without `publish`, it removes itself.
pub struct NewGeneration {
    pub name: String,
    pub dir: PathBuf,
    tmp_dir: PathBuf,
    published: bool,
    /// Set once `prepare_dirs` has made every directory the writes need: they then open their
    /// file directly, without a `create_dir_all` each.
    dirs_prepared: bool,
    /// `mkdir` calls this generation made (a `create_dir_all` counts as one): what a test checks.
    dirs_created: std::sync::atomic::AtomicUsize,
    /// Outputs already in place with the right bytes: a recycled spare's unchanged files, or
    /// those inside borrowed directories.
    kept: HashSet<String>,
    /// What this generation borrows.
    borrowed: Option<Borrowed>,
    /// Whether every borrowed directory's link is in place: `borrowing` leaves them to
    /// `make_borrowed_links`, and `publish` refuses a generation without them.
    links_made: std::sync::atomic::AtomicBool,
}

impl NewGeneration {
    pub fn create(dirs: &OutputDirs) -> Result<NewGeneration, IoError> {
        let generation = NewGeneration::named(dirs)?;
        std::fs::create_dir_all(&generation.tmp_dir)
            .map_err(io_err(&generation.tmp_dir, "create directory"))?;
        Ok(generation)
    }

    /// A new generation that starts as the spare `spare` (see spare.rs), moved to this
    /// generation's unfinished name with one rename and turned into the tree `plan` describes:
    /// the files it keeps stay as they are, the others are unlinked (never written through:
    /// they are hard links shared with the live tree), directories the new tree lacks are
    /// removed and missing ones made, then the links of a borrowing generation the spare lacks
    /// (its links to remove are unlinked with its files). The outputs left to write or link then
    /// go to paths that
    /// no longer exist. A build killed meanwhile leaves an unfinished generation for the next
    /// build to sweep; one that fails removes it like any other.
    pub fn from_spare(
        dirs: &OutputDirs,
        spare: &Path,
        plan: spare::Recycling,
    ) -> Result<NewGeneration, IoError> {
        use rayon::prelude::*;
        let mut generation = NewGeneration::named(dirs)?;
        std::fs::rename(spare, &generation.tmp_dir)
            .map_err(io_err(spare, "take the spare generation"))?;
        // The spare's paths were checked when it was written; the new directories are checked
        // like every output path: none may leave the generation.
        for rel in plan.make_dirs.iter().chain(&plan.make_links) {
            generation.inside(rel)?;
        }
        let root = generation.tmp_dir.clone();
        plan.unlink.par_iter().try_for_each(|rel| {
            let path = root.join(rel);
            std::fs::remove_file(&path).map_err(io_err(&path, "remove from the spare"))
        })?;
        // Children sort after their parents: in reverse, each directory is empty when removed.
        for rel in plan.remove_dirs.iter().rev() {
            let path = root.join(rel);
            std::fs::remove_dir(&path).map_err(io_err(&path, "remove from the spare"))?;
        }
        let made = make_dirs(&root, plan.make_dirs.iter().map(String::as_str))
            .map_err(|(dir, e)| io_err(&dir, "create directory")(e))?;
        if let Some(borrowed) = &plan.borrowed {
            make_links(&root, &borrowed.from, &plan.make_links)?;
        }
        generation.dirs_created = made.into();
        generation.dirs_prepared = true;
        generation.kept = plan.keep;
        generation.borrowed = plan.borrowed;
        Ok(generation)
    }

    /// A new generation that borrows (borrow.rs): the directories of `plan` made, parents first.
    /// Each borrowed directory becomes a relative symlink to the same path in the full
    /// generation it borrows from in `make_borrowed_links`, which may run while the outputs left
    /// to write or link go into the directories made (no write goes into a borrowed directory).
    pub fn borrowing(dirs: &OutputDirs, plan: Borrowing) -> Result<NewGeneration, IoError> {
        let mut generation = NewGeneration::create(dirs)?;
        for rel in plan.make_dirs.iter().chain(&plan.borrowed.dirs) {
            generation.inside(rel)?;
        }
        let root = generation.tmp_dir.clone();
        let made = make_dirs(&root, plan.make_dirs.iter().map(String::as_str))
            .map_err(|(dir, e)| io_err(&dir, "create directory")(e))?;
        generation.dirs_created = made.into();
        generation.dirs_prepared = true;
        generation.kept = plan.covered;
        generation.borrowed = Some(plan.borrowed);
        generation.links_made = false.into();
        Ok(generation)
    }

    /// Makes the links of a generation from `borrowing` (nothing to do for any other). Up to
    /// ~30k links after a cold build, each a new inode: run beside rendering and indexing, they
    /// take a core the file system would otherwise wait for.
    pub fn make_borrowed_links(&self) -> Result<(), IoError> {
        use std::sync::atomic::Ordering;
        if self.links_made.load(Ordering::Acquire) {
            return Ok(());
        }
        if let Some(borrowed) = &self.borrowed {
            make_links(&self.tmp_dir, &borrowed.from, &borrowed.dirs)?;
        }
        self.links_made.store(true, Ordering::Release);
        Ok(())
    }

    /// What this generation borrows, for its manifest.
    pub fn borrowed(&self) -> Option<&Borrowed> {
        self.borrowed.as_ref()
    }

    /// A new generation's unique name and paths; nothing is made yet.
    fn named(dirs: &OutputDirs) -> Result<NewGeneration, IoError> {
        let gens = dirs.generations();
        std::fs::create_dir_all(&gens).map_err(io_err(&gens, "create directory"))?;
        let millis = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis())
            .unwrap_or(0);
        // Two generations can start in the same millisecond (a daemon's rebuilds, compaction).
        static SEQUENCE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let seq = SEQUENCE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let name = format!("gen-{millis}-{}-{seq}", std::process::id());
        let dir = gens.join(&name);
        let tmp_dir = gens.join(format!("{name}.tmp"));
        Ok(NewGeneration {
            name,
            dir,
            tmp_dir,
            published: false,
            dirs_prepared: false,
            dirs_created: std::sync::atomic::AtomicUsize::new(0),
            kept: HashSet::new(),
            borrowed: None,
            links_made: std::sync::atomic::AtomicBool::new(true),
        })
    }

    /// Whether output `rel` is already in place (kept from the recycled spare, or inside a
    /// borrowed directory).
    pub fn holds(&self, rel: &str) -> bool {
        self.kept.contains(rel)
    }

    /// Creates, once each and parents first, every directory that `paths` (all the outputs
    /// this generation will hold) need. Without it each write made its own `create_dir_all`:
    /// about two `mkdir` calls per file, a quarter of them failing because the directory was
    /// there already, and each costing hundreds of microseconds on this file system.
    pub fn prepare_dirs<'a>(
        &mut self,
        paths: impl IntoIterator<Item = &'a str>,
    ) -> Result<(), IoError> {
        let paths: Vec<&str> = paths.into_iter().collect();
        // Checked like every output path first: none may leave the generation.
        for path in &paths {
            self.inside(path)?;
        }
        let made = create_dirs_once(&self.tmp_dir, paths)
            .map_err(|(dir, e)| io_err(&dir, "create directory")(e))?;
        self.dirs_created
            .fetch_add(made, std::sync::atomic::Ordering::Relaxed);
        self.dirs_prepared = true;
        Ok(())
    }

    /// The directory being written (renamed into place by `publish`).
    pub fn tmp_dir(&self) -> &Path {
        &self.tmp_dir
    }

    /// How many directories this generation has created so far.
    pub fn dirs_created(&self) -> usize {
        self.dirs_created.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// `rel` inside the generation, refused if it would leave it.
    fn inside(&self, rel: &str) -> Result<PathBuf, IoError> {
        // Output paths come from data (slugs, file names): never let one escape the generation.
        let relative = Path::new(rel);
        if !relative
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_)))
        {
            return Err(IoError {
                path: rel.to_string(),
                action: "place output",
                cause: std::io::Error::new(
                    std::io::ErrorKind::InvalidInput,
                    "output paths must be relative and stay inside the site",
                ),
            });
        }
        Ok(self.tmp_dir.join(relative))
    }

    /// Where output `rel` goes, its directory made unless `prepare_dirs` made them all.
    fn target(&self, rel: &str) -> Result<PathBuf, IoError> {
        let path = self.inside(rel)?;
        if let Some(parent) = path.parent().filter(|_| !self.dirs_prepared) {
            std::fs::create_dir_all(parent).map_err(io_err(parent, "create directory"))?;
            self.dirs_created
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        Ok(path)
    }

    pub fn write(&self, rel: &str, bytes: &[u8]) -> Result<(), IoError> {
        self.write_parts(rel, &[bytes])
    }

    /// Writes output `rel` whose bytes are `parts` in order.
    pub fn write_parts(&self, rel: &str, parts: &[&[u8]]) -> Result<(), IoError> {
        let path = self.target(rel)?;
        create_new_from_parts(&path, parts).map_err(io_err(&path, "write"))
    }

    /// Carries an unchanged file over from the live tree without writing it again.
    pub fn link_from(&self, rel: &str, live: &LiveTree) -> Result<(), IoError> {
        let path = self.target(rel)?;
        let source = live.locate(rel);
        self.link(&path, &source)
    }

    /// Links `source` at `path`, or copies it where links fail (another file system). A path
    /// that exists already is an error, never replaced or written through.
    fn link(&self, path: &Path, source: &Path) -> Result<(), IoError> {
        std::fs::hard_link(source, path)
            .or_else(|e| {
                if e.kind() == std::io::ErrorKind::AlreadyExists {
                    return Err(e);
                }
                create_new(path, &std::fs::read(source)?)
            })
            .map_err(io_err(source, "link"))
    }

    /// Finishes an overlay generation: it becomes the top layer of the live tree, whose manifest
    /// `next` (the live one with this layer's files) is recorded with the layer added. `public`
    /// is not touched; the daemon's `LiveView` starts serving the layer.
    pub fn publish_overlay(
        self,
        dirs: &OutputDirs,
        next: Manifest,
    ) -> Result<(PathBuf, Manifest), IoError> {
        let (layer, next) = self.place_overlay(next)?;
        dirs.write_manifest(&next)?;
        Ok((layer, next))
    }

    /// The first half of `publish_overlay`: the layer is in place and `next` names it, but the
    /// manifest is not written yet. A daemon serves the layer first and records the manifest
    /// (`OutputDirs::record_manifest`) after: a manifest has an entry per page, and writing it
    /// is not worth delaying the change for. Until it is written the manifest on disk describes
    /// the tree before this layer, which is still complete, so a restart in between rebuilds
    /// from there.
    pub fn place_overlay(mut self, mut next: Manifest) -> Result<(PathBuf, Manifest), IoError> {
        std::fs::rename(&self.tmp_dir, &self.dir)
            .map_err(io_err(&self.dir, "rename generation"))?;
        self.published = true;
        next.layers.push(self.name.clone());
        Ok((self.dir.clone(), next))
    }

    /// Records the manifest, finishes the generation and points `public` at it atomically.
    /// The manifest goes first: when it cannot be written (a full disk) the build fails with the
    /// old site still live and its manifest intact, so the next build stays incremental. A
    /// manifest naming a generation that never went live is not trusted (`tree_of`), so a
    /// failure after it costs the next build a full rebuild, never a wrong site.
    pub fn publish(mut self, dirs: &OutputDirs, manifest: &Manifest) -> Result<(), IoError> {
        if !self.links_made.load(std::sync::atomic::Ordering::Acquire) {
            return Err(io_err(&self.tmp_dir, "publish")(std::io::Error::other(
                "its borrowed directories are not linked yet",
            )));
        }
        dirs.write_manifest(manifest)?;
        spare::record_manifest(dirs, &self.name);
        std::fs::rename(&self.tmp_dir, &self.dir)
            .map_err(io_err(&self.dir, "rename generation"))?;
        self.published = true;
        if let Ok(meta) = std::fs::symlink_metadata(&dirs.public)
            && !meta.file_type().is_symlink()
        {
            // A plain directory from before generations existed: keep it aside until pruned.
            let aside = dirs
                .generations()
                .join(format!("{}-previous-plain", self.name));
            std::fs::rename(&dirs.public, &aside).map_err(io_err(&dirs.public, "move aside"))?;
        }
        if let Some(parent) = dirs.public.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(io_err(parent, "create directory"))?;
        }
        let link_tmp = dirs
            .public
            .with_extension(format!("swap-{}", std::process::id()));
        let _ = std::fs::remove_file(&link_tmp);
        let target = std::fs::canonicalize(&self.dir).map_err(io_err(&self.dir, "resolve"))?;
        std::os::unix::fs::symlink(&target, &link_tmp)
            .map_err(io_err(&link_tmp, "create symlink"))?;
        std::fs::rename(&link_tmp, &dirs.public).map_err(io_err(&dirs.public, "swap symlink"))
    }
}

/// Why a compaction stopped without publishing.
#[derive(Debug, thiserror::Error)]
pub enum CompactError {
    #[error("the live tree changed (no manifest for it); nothing to compact")]
    NoLiveTree,
    #[error("interrupted by a newer rebuild")]
    Interrupted,
    #[error(transparent)]
    Io(#[from] IoError),
}

/// Folds the overlay layers into a new full generation (hard links, no rendering), flips `public`
/// to it and returns its name. `interrupted` is polled so a waiting rebuild can take over: an
/// interrupted compaction leaves nothing behind.
pub fn compact(dirs: &OutputDirs, interrupted: &dyn Fn() -> bool) -> Result<String, CompactError> {
    let (manifest, tree) = dirs.previous().ok_or(CompactError::NoLiveTree)?;
    if manifest.layers.is_empty() {
        return Ok(manifest.generation);
    }
    let generation = NewGeneration::create(dirs)?;
    for (i, rel) in manifest.files.keys().enumerate() {
        if i % 512 == 0 && interrupted() {
            return Err(CompactError::Interrupted);
        }
        let path = generation.target(rel)?;
        generation.link(&path, &tree.locate(rel))?;
    }
    let name = generation.name.clone();
    let mut next = new_manifest(&name, manifest.files, manifest.sha1);
    fill_missing_sha1(&mut next, &tree)?;
    generation.publish(dirs, &next)?;
    Ok(name)
}

/// Removes generations no longer needed: everything but `keep` (the views that may still be
/// served) and the tree the manifest describes.
pub fn prune_except(dirs: &OutputDirs, keep: &[String]) {
    let mut keep: Vec<String> = keep.to_vec();
    if let Some((_, tree)) = dirs.previous() {
        keep.extend(tree.names());
    }
    let keep: Vec<&str> = keep.iter().map(String::as_str).collect();
    // A daemon's next generation is an overlay or a compaction, which never start from a spare.
    dirs.prune(&keep, false);
}

impl Drop for NewGeneration {
    fn drop(&mut self) {
        if !self.published {
            let _ = std::fs::remove_dir_all(&self.tmp_dir);
        }
    }
}

pub fn new_manifest(
    generation: &str,
    files: BTreeMap<String, String>,
    sha1: BTreeMap<String, String>,
) -> Manifest {
    Manifest {
        version: MANIFEST_VERSION,
        generation: generation.to_string(),
        files,
        sha1,
        layers: Vec::new(),
        borrowed: None,
    }
}

/// Lower-case hex of the SHA-1 of `bytes`: how Netlify's deploy API names a file's content.
pub fn sha1_hex(bytes: &[u8]) -> String {
    sha1_hex_of_parts(&[bytes])
}

/// `sha1_hex` of the bytes of `parts` in order.
pub fn sha1_hex_of_parts(parts: &[&[u8]]) -> String {
    use sha1::Digest as _;
    let mut hasher = sha1::Sha1::new();
    for part in parts {
        hasher.update(part);
    }
    let digest = hasher.finalize();
    let mut out = String::with_capacity(40);
    for b in digest.iter() {
        use std::fmt::Write as _;
        let _ = write!(out, "{b:02x}");
    }
    out
}

/// Whether every file of `manifest` has its SHA-1 recorded.
pub fn has_every_sha1(manifest: &Manifest) -> bool {
    manifest.sha1.len() == manifest.files.len()
        && manifest.files.keys().all(|k| manifest.sha1.contains_key(k))
}

/// Records the SHA-1 of each file of `manifest` that has none (written by a build that hashes nothing),
/// reading it from `tree`, and drops digests of files the manifest no longer lists. Answers how
/// many files were read.
pub fn fill_missing_sha1(manifest: &mut Manifest, tree: &LiveTree) -> Result<usize, IoError> {
    use rayon::prelude::*;
    if manifest.sha1.len() != manifest.files.len() {
        let files = &manifest.files;
        manifest.sha1.retain(|k, _| files.contains_key(k));
    }
    let missing: Vec<&String> = manifest
        .files
        .keys()
        .filter(|k| !manifest.sha1.contains_key(*k))
        .collect();
    let computed: Vec<(String, String)> = missing
        .par_iter()
        .map(|rel| {
            let path = tree.locate(rel);
            let bytes = std::fs::read(&path).map_err(io_err(&path, "read for its SHA-1"))?;
            Ok(((*rel).clone(), sha1_hex(&bytes)))
        })
        .collect::<Result<_, IoError>>()?;
    let read = computed.len();
    manifest.sha1.extend(computed);
    Ok(read)
}

/// Fills in the live manifest's missing SHA-1 digests (see `fill_missing_sha1`) and records it,
/// when it has a trusted live tree and lacks any. Answers how many files were read.
pub fn complete_sha1(dirs: &OutputDirs) -> Result<usize, IoError> {
    let Some((mut manifest, tree)) = dirs.previous() else {
        return Ok(0);
    };
    complete_live_sha1(dirs, &mut manifest, &tree)
}

/// `complete_sha1` for a live manifest the caller has already read (`dirs.previous()`): parsing
/// it is the bulk of a no-change build at 100k files, so it is read once.
pub fn complete_live_sha1(
    dirs: &OutputDirs,
    manifest: &mut Manifest,
    tree: &LiveTree,
) -> Result<usize, IoError> {
    if has_every_sha1(manifest) {
        return Ok(0);
    }
    let read = fill_missing_sha1(manifest, tree)?;
    dirs.write_manifest(manifest)?;
    Ok(read)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_io_error_names_its_path_action_and_cause_once_when_printed_as_a_chain() {
        let path = Path::new("/nonexistent-storefront-dir/page.html");
        let e = std::fs::read(path)
            .map_err(io_err(path, "read"))
            .unwrap_err();
        // What `{e:#}` prints (main.rs): the message, then each source after ": ".
        let mut chain = e.to_string();
        let mut source = std::error::Error::source(&e);
        while let Some(s) = source {
            chain.push_str(&format!(": {s}"));
            source = s.source();
        }
        assert!(
            chain.starts_with("/nonexistent-storefront-dir/page.html: read: "),
            "{chain}"
        );
        assert_eq!(
            chain.matches("No such file or directory").count(),
            1,
            "{chain}"
        );
    }
}
