//! One build: load → plan → render → write, incremental against the previous build's manifest
//! and published atomically.

use crate::bundles::{BundleError, Bundles};
use crate::context::Shared;
use crate::input_digest;
use crate::output::borrow;
use crate::output::spare::Spare;
use crate::output::{
    IoError, KnownManifest, LiveTree, Manifest, NewGeneration, OutputDirs, Publish,
    fill_missing_sha1, has_every_sha1, io_err, new_manifest, sha1_hex_of_parts, walk_err,
};
use crate::plan::{Page, PlanInputs, PlanMemo, plan_reusing};
use crate::render::{TemplateError, Templates};
use crate::search_index::SearchMemo;
use crate::seo;
use crate::site::{Digest, SiteModel};
use crate::sweep;
use domain::catalog::Catalog;
use domain::error::LoadErrors;
use export::{Inputs, load_export};
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};
use walkdir::WalkDir;

/// Bumped when the generator's output changes in a way templates and data do not show.
const GENERATOR_VERSION: &str = "1";

/// Identifies the generator code: its version plus the running executable's size and mtime, so a
/// rebuilt binary (new rendering code) never reuses pages rendered by the old one.
fn generator_identity() -> String {
    let exe = std::env::current_exe().and_then(std::fs::metadata).ok();
    let stamp = exe.map(|m| {
        (
            m.len(),
            m.modified()
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map(|d| d.as_nanos())
                .unwrap_or(0),
        )
    });
    format!("{GENERATOR_VERSION}:{stamp:?}")
}

pub struct BuildOptions {
    pub export_dir: PathBuf,
    pub templates_dir: PathBuf,
    /// Vite's output (`site-src/dist`).
    pub bundles_dir: PathBuf,
    pub public_dir: PathBuf,
    pub cache_dir: PathBuf,
    pub progress: bool,
    /// Make every directory of a new generation, borrowing none from an earlier one through a
    /// symlink (output.rs): for a host or a copy step that does not follow symlinks.
    pub plain_tree: bool,
    /// Record in the manifest the SHA-1 of each file as it is written (the name Netlify's deploy
    /// API gives a file's content) and fill in any the live manifest lacks: for a process that
    /// deploys its builds as they go live (the rebuild daemon). Off, a build hashes nothing (a
    /// tenth of a cold build's CPU): `storefront deploy` reads the files whose digests the
    /// manifest lacks, once, and records them.
    pub file_digests: bool,
}

#[derive(Debug, Default)]
pub struct BuildReport {
    /// Output paths written (rendered or copied) in this build.
    pub written: Vec<String>,
    pub unchanged: usize,
    pub deleted: Vec<String>,
    pub pages: usize,
    pub elapsed: Duration,
    /// Time spent in each phase, in order.
    pub phases: Vec<(&'static str, Duration)>,
    pub generation: Option<String>,
    /// What the search-index phase did per market.
    pub search: Vec<search::MarketUpdate>,
    /// For an overlay publish: the layer directory now holding `written`.
    pub layer: Option<PathBuf>,
    /// For an overlay publish: the manifest naming the layer, for the caller to record with
    /// `record_manifest` once it serves the layer.
    pub manifest: Option<crate::output::Manifest>,
    /// `mkdir` calls the build made: one per directory of a new tree, the directories a
    /// recycled spare lacked, or those of a borrowing generation that hold a change.
    pub dirs_created: usize,
    /// Directories the new generation borrows (one symlink each) instead of making.
    pub dirs_borrowed: usize,
    /// The spare generation this build's generation started as, if it recycled one.
    pub recycled: Option<String>,
    /// Input files read and hashed by a `storefront build` (the others' recorded hashes stood
    /// for them: their stamps were the recorded ones).
    pub inputs_read: usize,
}

impl BuildReport {
    pub fn summary(&self) -> String {
        format!(
            "{} pages: {} files written, {} unchanged, {} deleted in {:.2}s (until live)",
            self.pages,
            self.written.len(),
            self.unchanged,
            self.deleted.len(),
            self.elapsed.as_secs_f64()
        )
    }
}

#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    #[error("{0}")]
    Load(LoadErrors),
    #[error(transparent)]
    Template(#[from] TemplateError),
    #[error(transparent)]
    Bundles(#[from] BundleError),
    #[error("rendering {page}: {source}")]
    Render {
        page: String,
        source: minijinja::Error,
    },
    #[error(transparent)]
    Io(#[from] IoError),
    #[error(transparent)]
    Search(#[from] search::IndexError),
}

/// Wall-clock time per build phase, for the summary and the benchmark.
struct Phases {
    last: Instant,
    done: Vec<(&'static str, Duration)>,
}

impl Phases {
    fn new() -> Phases {
        Phases {
            last: Instant::now(),
            done: Vec::new(),
        }
    }
    fn mark(&mut self, name: &'static str) {
        let now = Instant::now();
        self.done.push((name, now - self.last));
        self.last = now;
    }
    fn done(self) -> Vec<(&'static str, Duration)> {
        self.done
    }
}

enum Source<'a> {
    Page(&'a Page),
    Sitemap(&'a seo::SitemapFile<'a>),
    Text(String),
    Copy(PathBuf),
}

/// One output of the build. Pages lend their path, and fingerprints stay binary until one goes
/// into a manifest: a rebuild plans ~120k outputs and writes a handful.
struct Planned<'a> {
    path: Cow<'a, str>,
    fingerprint: blake3::Hash,
    source: Source<'a>,
}

impl Planned<'_> {
    /// Whether `fingerprint` (a manifest's, in hex) is this output's.
    fn is_fingerprint(&self, fingerprint: &str) -> bool {
        self.fingerprint.to_hex().as_str() == fingerprint
    }

    fn manifest_entry(&self) -> (String, String) {
        (self.path.to_string(), self.fingerprint.to_hex().to_string())
    }
}

fn text_output<'a>(path: String, text: String) -> Planned<'a> {
    Planned {
        fingerprint: blake3::hash(text.as_bytes()),
        path: path.into(),
        source: Source::Text(text),
    }
}

/// What a daemon keeps from one build for the next, so that a rebuild redoes only what its change
/// touched: the site model and search records of the catalog last built (reused whole for the
/// same catalog, product by product for a catalog of the same structure), and the list of files
/// copied as they are. Start a new memo when templates, bundles or media may have changed.
#[derive(Default)]
pub struct BuildMemo {
    site: Option<(Arc<Catalog>, Arc<SiteModel>)>,
    search: SearchMemo,
    /// The files copied from the bundles and media of `CopiedKey`.
    copied: Option<(CopiedKey, Vec<CopiedFile>)>,
    /// The manifest of the live tree, as last published.
    manifest: KnownManifest,
    plan: PlanMemo,
}

/// The bundle manifest and the media directory the copied files were listed from.
type CopiedKey = (Vec<u8>, Option<PathBuf>);

#[derive(Clone)]
struct CopiedFile {
    path: String,
    fingerprint: blake3::Hash,
    source: PathBuf,
}

/// Files copied as they are: `dir`'s files under `prefix` (empty for the site root). Vite's own
/// bookkeeping (`.vite/`) is not published.
fn copied_outputs(dir: &Path, prefix: &str) -> Result<Vec<CopiedFile>, IoError> {
    let mut out = Vec::new();
    for entry in WalkDir::new(dir)
        .into_iter()
        .filter_entry(|e| e.file_name() != ".vite")
    {
        let entry = entry.map_err(walk_err(dir, "list"))?;
        if !entry.file_type().is_file() {
            continue;
        }
        let rel = entry
            .path()
            .strip_prefix(dir)
            .unwrap_or(entry.path())
            .to_string_lossy()
            .replace('\\', "/");
        let bytes = std::fs::read(entry.path()).map_err(io_err(entry.path(), "read"))?;
        let path = if prefix.is_empty() {
            rel
        } else {
            format!("{prefix}/{rel}")
        };
        out.push(CopiedFile {
            path,
            fingerprint: blake3::hash(&bytes),
            source: entry.path().to_path_buf(),
        });
    }
    Ok(out)
}

/// Records the manifest of an overlay build (`BuildReport::manifest`) once its layer is served,
/// and remembers it in `memo` for the next build.
pub fn record_manifest(
    opts: &BuildOptions,
    memo: &mut BuildMemo,
    manifest: crate::output::Manifest,
) -> Result<(), IoError> {
    let dirs = OutputDirs {
        public: opts.public_dir.clone(),
        cache: opts.cache_dir.clone(),
    };
    dirs.record_manifest(&manifest)?;
    memo.manifest.wrote(&dirs, manifest);
    Ok(())
}

/// The live tree's outputs that this build no longer plans. When every live path is planned
/// (the usual rebuild), nothing is looked up.
fn deleted_outputs(
    previous: Option<&Arc<crate::output::Manifest>>,
    planned: &[Planned],
    live_state: &[Option<bool>],
) -> Vec<String> {
    let Some(previous) = previous else {
        return Vec::new();
    };
    let kept = live_state.iter().filter(|s| s.is_some()).count();
    if kept == previous.files.len() {
        return Vec::new();
    }
    let planned: std::collections::HashSet<&str> = planned.iter().map(|p| &*p.path).collect();
    previous
        .files
        .keys()
        .filter(|k| !planned.contains(k.as_str()))
        .cloned()
        .collect()
}

/// The generation a build writes into, whichever of these takes the fewest file-system calls
/// (never anything but a new tree of the changes for an overlay): the spare, recycled; a
/// generation borrowing the unchanged directories of `lender` (the live tree, unless the build
/// must make a plain tree); else a new tree with every directory it will hold made once, before
/// the parallel writes. Answers the recycled spare's name too.
fn start_generation(
    dirs: &OutputDirs,
    planned: &[Planned],
    unchanged: &dyn Fn(usize) -> bool,
    overlay: bool,
    lender: Option<(&Manifest, &LiveTree)>,
) -> Result<(NewGeneration, Option<String>), IoError> {
    if !overlay {
        let spare = Spare::find(dirs);
        let outputs: Vec<(&str, Option<blake3::Hash>)> = match &spare {
            Some(_) => planned
                .iter()
                .enumerate()
                .map(|(i, p)| (&*p.path, unchanged(i).then_some(p.fingerprint)))
                .collect(),
            None => Vec::new(),
        };
        // Only from a tree of one generation: a daemon's overlay layers hold files its
        // directories lack.
        let borrowing = lender
            .filter(|(_, tree)| tree.layers.is_empty())
            .and_then(|(live, _)| {
                let outputs: Vec<(&str, bool)> = planned
                    .iter()
                    .enumerate()
                    .map(|(i, p)| (&*p.path, unchanged(i)))
                    .collect();
                borrow::plan(
                    &outputs,
                    borrow::Lender {
                        name: &live.generation,
                        files: live.files.keys().map(String::as_str),
                        borrowed: live.borrowed.as_ref(),
                    },
                )
            });
        // The spare recycled as a tree of its own, or into the borrowing generation.
        let recycling = spare.and_then(|spare| {
            let plan = [
                spare.plan(&outputs),
                borrowing
                    .as_ref()
                    .and_then(|b| spare.plan_borrowing(&outputs, b)),
            ]
            .into_iter()
            .flatten()
            .min_by_key(|plan| plan.calls)?;
            Some((spare, plan))
        });
        match (recycling, borrowing) {
            (Some((spare, plan)), borrowing)
                if borrowing.as_ref().is_none_or(|b| plan.calls <= b.calls) =>
            {
                let name = spare
                    .dir
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned());
                return Ok((NewGeneration::from_spare(dirs, &spare.dir, plan)?, name));
            }
            (_, Some(plan)) => return Ok((NewGeneration::borrowing(dirs, plan)?, None)),
            _ => {}
        }
    }
    let mut generation = NewGeneration::create(dirs)?;
    generation.prepare_dirs(
        planned
            .iter()
            .enumerate()
            .filter(|&(i, _)| !(overlay && unchanged(i)))
            .map(|(_, p)| &*p.path),
    )?;
    Ok((generation, None))
}

/// Loads and validates inputs; nothing is written.
pub fn load(opts: &BuildOptions) -> Result<(Inputs, Templates, Bundles), BuildError> {
    let inputs = load_export(&opts.export_dir).map_err(BuildError::Load)?;
    let templates = Templates::load(&opts.templates_dir)?;
    let bundles = Bundles::load(&opts.bundles_dir)?;
    Ok((inputs, templates, bundles))
}

/// Where one build's inputs come from, and how it publishes.
pub enum BuildFrom<'a> {
    /// `storefront build`: the export, templates and bundles are read from `BuildOptions`'
    /// directories; when they are those of the live site the build stops there, else it
    /// publishes a full generation.
    Export,
    /// A daemon's build from inputs it keeps loaded (see `load`): publishes a full generation or
    /// an overlay of the changed files, reusing what `memo` kept from the previous build and
    /// keeping this one's.
    Loaded {
        inputs: &'a Inputs,
        templates: &'a Templates,
        bundles: &'a Bundles,
        publish: Publish,
        memo: &'a mut BuildMemo,
    },
}

/// One build: the generator's only build entry point.
pub fn build(opts: &BuildOptions, from: BuildFrom) -> Result<BuildReport, BuildError> {
    match from {
        BuildFrom::Export => build_export(opts),
        BuildFrom::Loaded {
            inputs,
            templates,
            bundles,
            publish,
            memo,
        } => build_loaded(opts, inputs, templates, bundles, publish, memo),
    }
}

fn build_export(opts: &BuildOptions) -> Result<BuildReport, BuildError> {
    let started = Instant::now();
    let dirs = OutputDirs {
        public: opts.public_dir.clone(),
        cache: opts.cache_dir.clone(),
    };
    // Killed builds' leftovers go on another thread while this build runs (no-change builds
    // included), and are waited for only once the new site is live.
    let sweep = sweep::start(&dirs);
    let input_files = input_digest::digest_inputs(
        &generator_identity(),
        &[&opts.export_dir, &opts.templates_dir, &opts.bundles_dir],
        input_digest::previous_record(&dirs.cache),
        input_digest::SETTLED,
    )?;
    if let Some(unchanged) = input_digest::matching_live(&dirs, &input_files, opts.file_digests) {
        let report = unchanged_inputs_report(
            &dirs,
            opts.file_digests,
            unchanged,
            &input_files,
            started.elapsed(),
        );
        // Files read again (written just before the last build read them, or a record from
        // before stamps) get their stamps recorded, so the next build need not read them. Only a
        // shortcut for the next build: failing to write it fails nothing.
        if input_files.hashed > 0 {
            let _ = input_digest::refresh(&dirs, &input_files);
        }
        sweep.finish();
        return Ok(report);
    }
    let digested = started.elapsed();
    let (inputs, templates, bundles) = load(opts)?;
    let loaded = started.elapsed() - digested;
    let mut memo = BuildMemo::default();
    let mut report = build_loaded(
        opts,
        &inputs,
        &templates,
        &bundles,
        Publish::Full,
        &mut memo,
    )?;
    report.phases.insert(0, ("load", loaded));
    report.phases.insert(0, ("digest inputs", digested));
    report.inputs_read = input_files.hashed;
    // Time until the new site is live, loading included (pruning afterwards is not).
    report.elapsed += digested + loaded;
    // The new site is live, so the build succeeded whatever happens now. The record only lets the
    // next identical build stop early: without it that build compares fingerprints and writes
    // nothing, so failing to write it (a full disk) does not fail this one.
    let _ = input_digest::record(&dirs, &input_files, &memo.manifest);
    sweep.finish();
    Ok(report)
}

/// The report of a build that found its inputs identical to the live generation's: nothing loaded,
/// nothing written.
fn unchanged_inputs_report(
    dirs: &OutputDirs,
    file_digests: bool,
    unchanged: input_digest::Unchanged,
    input_files: &input_digest::InputsDigest,
    elapsed: Duration,
) -> BuildReport {
    let (pages, files) = match unchanged {
        input_digest::Unchanged::Recorded { pages, files } => (pages, files),
        input_digest::Unchanged::Read(mut live, tree) => {
            // A build that records digests fills in those the live manifest lacks, once (a
            // failure only means the next build or deploy reads them).
            if file_digests {
                let _ = crate::output::complete_live_sha1(dirs, &mut live, &tree);
            }
            (input_digest::page_count(&live), live.files.len())
        }
    };
    BuildReport {
        pages,
        unchanged: files,
        elapsed,
        phases: vec![("digest inputs (unchanged)", elapsed)],
        inputs_read: input_files.hashed,
        ..Default::default()
    }
}

/// An output a build wrote: its path and, when the build records them, its SHA-1.
type WrittenFile = (String, Option<String>);

/// Builds from already-loaded inputs (daemons keep them in memory between rebuilds), publishing
/// a full generation or, for daemons, an overlay of the changed files only (see output.rs),
/// reusing what `memo` kept from the previous build and keeping this one's.
fn build_loaded(
    opts: &BuildOptions,
    inputs: &Inputs,
    templates: &Templates,
    bundles: &Bundles,
    publish: Publish,
    memo: &mut BuildMemo,
) -> Result<BuildReport, BuildError> {
    let started = Instant::now();
    let mut phases = Phases::new();
    let catalog = &inputs.catalog;
    let content = &inputs.content;
    templates.clear_fragments();
    let site = SiteModel::reusing(catalog, memo.site.as_ref().map(|(c, s)| (c, s)));
    memo.site = Some((catalog.clone(), site.clone()));
    phases.mark("site model");
    let global: [Digest; 3] = std::array::from_fn(|mi| {
        let mut h = blake3::Hasher::new();
        h.update(generator_identity().as_bytes());
        h.update(&templates.digest);
        h.update(&bundles.manifest_bytes);
        h.update(&serde_json::to_vec(&catalog.store).unwrap_or_default());
        h.update(&serde_json::to_vec(&content.markets[mi].slots).unwrap_or_default());
        *h.finalize().as_bytes()
    });
    let pages = plan_reusing(
        &PlanInputs {
            catalog,
            content,
            shops: &inputs.shops,
            site: &site,
            global,
        },
        &mut memo.plan,
    )
    .map_err(BuildError::Load)?;
    phases.mark("plan");
    let shared = Shared::new(catalog, content, &inputs.shops, &site, bundles, templates);
    phases.mark("shared fragments");

    let mut planned: Vec<Planned> = pages
        .iter()
        .map(|p| Planned {
            path: Cow::Borrowed(&p.file),
            fingerprint: blake3::Hash::from_bytes(p.fingerprint),
            source: Source::Page(p),
        })
        .collect();
    phases.mark("page outputs");
    let base = &catalog.store.base_url;
    let sitemaps = seo::plan_sitemaps(
        pages
            .iter()
            .filter(|p| p.kind.indexable())
            .map(|p| (p, shared.presence(p))),
    );
    let sitemap_names: Vec<&str> = sitemaps.iter().map(|f| f.name.as_str()).collect();
    planned.push(text_output(
        "sitemap.xml".into(),
        seo::sitemap_index(base, &sitemap_names),
    ));
    // Each fingerprint hashes its ~40k paths: in parallel.
    planned.par_extend(sitemaps.par_iter().map(|file| Planned {
        path: Cow::Borrowed(&file.name),
        fingerprint: seo::sitemap_fingerprint(base, file),
        source: Source::Sitemap(file),
    }));
    phases.mark("sitemaps");
    planned.push(text_output("robots.txt".into(), seo::robots(base)));
    planned.push(text_output(
        "_redirects".into(),
        crate::redirects::to_netlify(&crate::redirects::rules()),
    ));
    // Editors' HolyHandGrenade code, one file per distinct script or stylesheet.
    for (path, text) in crate::blocks::editor_code_files(content) {
        planned.push(text_output(path, text));
    }
    // Everything Vite emits: hashed bundles under assets/ and its public/ files (the favicon),
    // and the export's media; listed and hashed once per memo.
    let copied_key = (bundles.manifest_bytes.clone(), inputs.media_dir.clone());
    let copied = match memo.copied.take() {
        Some((key, files)) if key == copied_key => files,
        _ => {
            let mut files = copied_outputs(&bundles.dist_dir, "")?;
            if let Some(media) = &inputs.media_dir {
                files.extend(copied_outputs(media, "media")?);
            }
            files
        }
    };
    planned.extend(copied.iter().map(|f| Planned {
        path: f.path.clone().into(),
        fingerprint: f.fingerprint,
        source: Source::Copy(f.source.clone()),
    }));
    memo.copied = Some((copied_key, copied));

    phases.mark("outputs");
    let dirs = OutputDirs {
        public: opts.public_dir.clone(),
        cache: opts.cache_dir.clone(),
    };
    let previous = dirs.previous_known(&mut memo.manifest);
    // Per planned output: `None` for a path the live tree lacks, else whether its fingerprint
    // is the live one. Looked up in parallel: there is one per page.
    let live_state: Vec<Option<bool>> = {
        let old_files = previous.as_ref().map(|(m, _)| &m.files);
        planned
            .par_iter()
            .map(|p| {
                old_files
                    .and_then(|f| f.get(&*p.path))
                    .map(|fp| p.is_fingerprint(fp))
            })
            .collect()
    };
    let unchanged = |i: usize| live_state[i] == Some(true);
    let deleted = deleted_outputs(previous.as_ref().map(|(m, _)| m), &planned, &live_state);
    let changed_count = live_state.iter().filter(|s| **s != Some(true)).count();
    let mut report = BuildReport {
        pages: pages.len(),
        ..Default::default()
    };
    phases.mark("compare");
    if let Some((previous_manifest, tree)) = &previous
        && opts.file_digests
        && changed_count == 0
        && deleted.is_empty()
        && !has_every_sha1(previous_manifest)
    {
        // The pages are current but the manifest lacks digests: they are taken once.
        let mut manifest = (**previous_manifest).clone();
        fill_missing_sha1(&mut manifest, tree)?;
        dirs.record_manifest(&manifest)?;
        memo.manifest.wrote(&dirs, manifest);
        phases.mark("file digests");
    }
    if previous.is_some() && changed_count == 0 && deleted.is_empty() {
        // The pages are current; the index is brought up to date on its own (it may be missing).
        report.search = crate::search_index::update(
            &opts.cache_dir,
            catalog,
            content,
            &site,
            &mut memo.search,
        )?;
        phases.mark("search index");
        report.unchanged = planned.len();
        report.elapsed = started.elapsed();
        report.phases = phases.done();
        return Ok(report);
    }

    let live = previous.as_ref().map(|(_, live)| live.clone());
    // An overlay needs a complete tree underneath; without one this build is a full one.
    let overlay = publish == Publish::Overlay && live.is_some();
    let lender = previous
        .as_ref()
        .filter(|_| !opts.plain_tree)
        .map(|(manifest, tree)| (&**manifest, tree));
    let bar = if opts.progress {
        let bar = ProgressBar::new(planned.len() as u64);
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} files {elapsed} (eta {eta})")
                .expect("valid template"),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    // Each written output's path and, when this build records them, the SHA-1 of its bytes (for
    // the manifest: deploys list files by it).
    let digest = |parts: &[&[u8]]| opts.file_digests.then(|| sha1_hex_of_parts(parts));
    let render_all = |generation: &NewGeneration| -> Result<Vec<Option<WrittenFile>>, BuildError> {
        planned
            .par_iter()
            .enumerate()
            .map(|(i, p)| {
                // Only when shown: even a hidden bar costs its bookkeeping on every output.
                if opts.progress {
                    bar.inc(1);
                }
                if let (true, Some(live)) = (unchanged(i), &live) {
                    if !overlay && !generation.holds(&p.path) {
                        generation.link_from(&p.path, live)?;
                    }
                    return Ok(None);
                }
                let sha1 = match &p.source {
                    Source::Page(page) => templates
                        .render_page_parts(
                            page.kind.template(),
                            shared.context(page),
                            bundles,
                            |parts| {
                                generation.write_parts(&p.path, parts)?;
                                Ok::<_, IoError>(digest(parts))
                            },
                        )
                        .map_err(|source| BuildError::Render {
                            page: page.url_path(),
                            source,
                        })??,
                    Source::Sitemap(file) => {
                        let xml = seo::sitemap_xml(&catalog.store.base_url, file);
                        generation.write(&p.path, xml.as_bytes())?;
                        digest(&[xml.as_bytes()])
                    }
                    Source::Text(text) => {
                        generation.write(&p.path, text.as_bytes())?;
                        digest(&[text.as_bytes()])
                    }
                    Source::Copy(src) => {
                        // Read once: the bytes written are the bytes hashed.
                        let bytes = std::fs::read(src).map_err(io_err(src, "read"))?;
                        generation.write(&p.path, &bytes)?;
                        digest(&[&bytes])
                    }
                };
                Ok(Some((p.path.to_string(), sha1)))
            })
            .collect()
    };
    // The search index is written on a thread of its own from the start, beside the directory
    // pass (one core, in the kernel) and the rendering, and made live only once every page has
    // rendered: a failed build leaves both the site and the index as they were.
    let search_memo = &mut memo.search;
    let (generation, recycled, results, linked, prepared) = std::thread::scope(|outer| {
        let preparing = outer.spawn(|| {
            crate::search_index::prepare(&opts.cache_dir, catalog, content, &site, search_memo)
        });
        let (generation, recycled) =
            start_generation(&dirs, &planned, &unchanged, overlay, lender)?;
        phases.mark("directories");
        // A borrowing generation's links (up to ~30k new inodes, kernel work on one core) are
        // made on a thread of their own while the pages render: no write goes into a borrowed
        // directory, and the generation is published only once they are all in place.
        let (results, linked) = std::thread::scope(|scope| {
            let linking = scope.spawn(|| generation.make_borrowed_links());
            let results = render_all(&generation);
            phases.mark("render and write");
            let linked = linking
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            phases.mark("borrowed links (the rest)");
            (results, linked)
        });
        let prepared = preparing
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        Ok::<_, IoError>((generation, recycled, results, linked, prepared))
    })?;
    bar.finish_and_clear();
    report.recycled = recycled;
    report.dirs_borrowed = generation.borrowed().map_or(0, |b| b.dirs.len());
    report.dirs_created = generation.dirs_created();
    let written_sha1: Vec<WrittenFile> = results?.into_iter().flatten().collect();
    let written: Vec<String> = written_sha1.iter().map(|(p, _)| p.clone()).collect();
    let written_sha1 = written_sha1
        .into_iter()
        .filter_map(|(path, digest)| Some((path, digest?)));
    linked?;
    // Every page is in place: the index goes live, then the site.
    report.search = prepared?.commit(&mut memo.search)?;
    phases.mark("search index (the rest)");
    let name = generation.name.clone();
    match (overlay, previous) {
        (true, Some((previous_manifest, _))) => {
            // The live manifest with this build's changes: updated in place when nothing else
            // holds it (the memo's copy is let go first), instead of rebuilt from every output.
            memo.manifest = KnownManifest::default();
            let mut next = Arc::unwrap_or_clone(previous_manifest);
            for (i, p) in planned.iter().enumerate() {
                if !unchanged(i) {
                    let (path, fingerprint) = p.manifest_entry();
                    next.files.insert(path, fingerprint);
                }
            }
            // A written file's old digest is stale whether or not this build takes the new one.
            for path in deleted.iter().chain(&written) {
                next.sha1.remove(path);
            }
            for path in &deleted {
                next.files.remove(path);
            }
            next.sha1.extend(written_sha1);
            if let (true, Some(live)) = (opts.file_digests, &live) {
                // Digests the live manifest lacked: its unchanged files are read once, here.
                fill_missing_sha1(&mut next, live)?;
            }
            let (layer, manifest) = generation.place_overlay(next)?;
            report.layer = Some(layer);
            report.manifest = Some(manifest);
            phases.mark("publish");
            // Superseded layers are pruned by the daemon, which knows which views are served.
            report.elapsed = started.elapsed();
        }
        (_, previous) => {
            let new_files = planned.iter().map(Planned::manifest_entry).collect();
            // Unchanged files keep the live manifest's digests; when this build records them,
            // what it lacks is read from the new generation (its links to the live files).
            let mut sha1: std::collections::BTreeMap<String, String> = written_sha1.collect();
            if let Some((previous_manifest, _)) = &previous {
                for (i, p) in planned.iter().enumerate() {
                    if unchanged(i)
                        && let Some(digest) = previous_manifest.sha1.get(&*p.path)
                    {
                        sha1.insert(p.path.to_string(), digest.clone());
                    }
                }
            }
            let mut manifest = new_manifest(&name, new_files, sha1);
            manifest.borrowed = generation.borrowed().cloned();
            let lends = manifest.borrowed.as_ref().map(|b| b.from.clone());
            if opts.file_digests {
                fill_missing_sha1(
                    &mut manifest,
                    &LiveTree {
                        base: generation.tmp_dir().to_path_buf(),
                        layers: Vec::new(),
                        borrows_from: None,
                    },
                )?;
            }
            generation.publish(&dirs, &manifest)?;
            memo.manifest.wrote(&dirs, manifest);
            phases.mark("publish");
            // The new site is live now; removing superseded generations is cleanup, timed on
            // its own.
            report.elapsed = started.elapsed();
            // The tree that was live is kept whole, layers and lender included: a reader (a
            // daemon's view served until it swaps in this build) may still hold it. So is the
            // generation this one borrows from.
            let mut keep = live.as_ref().map(LiveTree::names).unwrap_or_default();
            keep.push(name.clone());
            keep.extend(lends);
            let keep: Vec<&str> = keep.iter().map(String::as_str).collect();
            // A daemon's next generation is an overlay: only `storefront build` keeps a spare.
            dirs.prune(&keep, publish == Publish::Full);
            phases.mark("prune old generations");
        }
    }
    report.unchanged = planned.len() - written.len();
    report.written = written;
    report.deleted = deleted;
    report.generation = Some(name);
    report.phases = phases.done();
    Ok(report)
}
