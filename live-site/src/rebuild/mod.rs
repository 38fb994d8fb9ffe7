//! The rebuild daemon of `storefront serve` / `dev`: webhook changes (and, in dev, file saves)
//! queue here; bursts are coalesced into one rebuild; fresh data for the changed items is fetched
//! (retrying while the source still serves the old version), applied to the source model kept in
//! memory, validated and built; only the changed files are written, as an overlay generation, and
//! the server's `LiveView` is swapped with one pointer flip; then the source keeps the fetched items
//! where full builds read them (`FreshSource::keep`). A failed rebuild changes nothing that is
//! served and is reported (log and status). When idle, overlays are compacted into a full
//! generation so `public/` catches up. With a deploy worker attached (`attach_deploys`), each
//! rebuild that changed files tells it which, with their SHA-1, for the next CDN deploy.

pub mod importer_source;
mod startup;

use api::webhooks::{ChangeSink, Origin};
use export::Change;
use export::Inputs;
use export::model::{Fresh, SourceModel};
use export::source::{self, FreshSource};
use generator::bundles::Bundles;
use generator::output::{OutputDirs, compact, prune_except};
use generator::render::Templates;
use generator::{BuildFrom, BuildMemo, BuildOptions, LiveView, Publish};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex, OnceLock, RwLock};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// What changed in the live site, as the daemon tells a deploy worker.
#[derive(Debug, Clone)]
pub enum SiteChange {
    /// A rebuild went live: files written (path, SHA-1) and deleted.
    Files {
        rebuild: u64,
        written: Vec<(String, String)>,
        deleted: Vec<String>,
        /// When the first change of the rebuild was received (a webhook).
        received: Instant,
    },
    /// A whole new tree went live (a full build): the list is read again from the manifest.
    Resync,
}

/// Where each rebuild's changes are published (the deploy worker): told every change at once,
/// and asked for its recent attempts by the status endpoint.
pub trait Publisher: Send + Sync {
    /// The live site changed; returns at once.
    fn changed(&self, change: SiteChange);
    /// The recent publishing attempts, newest first, as the status endpoint shows them.
    fn history_json(&self) -> serde_json::Value;
}

/// What the site server reads: the current view, swapped whole after each rebuild.
pub type SharedView = Arc<RwLock<Arc<LiveView>>>;

/// HolyHandGrenade scripts and stylesheets of previewed (unpublished) items, which the live site
/// does not have yet: site path → text. Their names are content hashes, so serving one can
/// never contradict a published file of the same name.
#[derive(Clone, Default)]
pub struct PreviewCode(Arc<Mutex<BTreeMap<String, String>>>);

/// Enough for the code of every item an editor has open; beyond it the oldest previews' files
/// are forgotten (a reload of that preview brings them back).
const PREVIEW_CODE_FILES: usize = 256;

impl PreviewCode {
    /// The text of the file at URL path `path`, if a preview rendered it.
    pub fn get(&self, path: &str) -> Option<String> {
        let files = self.0.lock().unwrap_or_else(|e| e.into_inner());
        files.get(path.trim_start_matches('/')).cloned()
    }

    fn add(&self, new: BTreeMap<String, String>) {
        let mut files = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if files.len() + new.len() > PREVIEW_CODE_FILES {
            files.clear();
        }
        files.extend(new);
    }
}

/// Timing of the daemon's loop.
#[derive(Debug, Clone)]
pub struct Timing {
    /// A batch closes after this long without a new delivery...
    pub quiet: Duration,
    /// ...or, once it holds two or more deliveries (a burst, which tends to go on), this long...
    pub burst_quiet: Duration,
    /// ...or this long after its first delivery, whichever comes first.
    pub max_batch: Duration,
    /// A batch that opens with a dev file save closes after this long without another: the file
    /// watcher has already waited for the save to settle.
    pub save_quiet: Duration,
    /// Waits before refetching items the source still served in their old version.
    pub stale_retries: Vec<Duration>,
    /// Idle time before overlay layers are compacted into a full generation.
    pub compact_after: Duration,
    /// `start_behind_last_good`: how long after a failed start-up build (an invalid export) it
    /// tries again when no delivery comes first.
    pub start_retry: Duration,
}

impl Default for Timing {
    fn default() -> Self {
        Timing {
            quiet: Duration::from_millis(60),
            burst_quiet: Duration::from_millis(300),
            max_batch: Duration::from_secs(1),
            save_quiet: Duration::from_millis(5),
            stale_retries: [100, 200, 400, 800].map(Duration::from_millis).to_vec(),
            compact_after: Duration::from_secs(5),
            start_retry: Duration::from_secs(30),
        }
    }
}

/// One rebuild, as the status endpoint and the log report it.
#[derive(Debug, Clone, Default, Serialize)]
pub struct RebuildStatus {
    pub id: u64,
    /// Unix seconds when the rebuild finished.
    pub finished_at: u64,
    pub deliveries: usize,
    pub changes: Vec<Change>,
    /// A full reload (dev: templates, bundles or the export changed on disk).
    pub reload: bool,
    pub ok: bool,
    pub error: Option<String>,
    pub written: usize,
    pub deleted: usize,
    /// Items the source still served in their old version after every retry.
    pub stale: Vec<Change>,
    /// From the first delivery's receipt until the new files were served.
    pub receipt_to_live_ms: u64,
    /// Where the time went: fetch, model (apply + validate), then the build's phases.
    pub phases_ms: Vec<(String, f64)>,
    /// Keeping the fetched items for later full builds failed (the rebuild itself is live);
    /// see `FreshSource::keep`.
    pub keep_error: Option<String>,
    /// Recording the manifest after going live failed (the rebuild itself is live; a restart
    /// starts from the tree before it).
    pub manifest_error: Option<String>,
}

enum Msg {
    Changes {
        changes: Vec<Change>,
        received: Instant,
    },
    Reload {
        received: Instant,
        /// The files that changed; only content files means only content is re-read.
        paths: Vec<PathBuf>,
    },
    /// Render one content item from a staging host; answered on `reply`, never batched.
    Preview {
        domain: String,
        id: String,
        reply: mpsc::Sender<Result<Option<String>, String>>,
    },
}

/// The handle servers keep: submit changes, read the view and the status.
#[derive(Clone)]
pub struct Daemon {
    tx: mpsc::Sender<Msg>,
    pending: Arc<AtomicUsize>,
    view: SharedView,
    history: Arc<Mutex<VecDeque<RebuildStatus>>>,
    preview_code: PreviewCode,
    /// Where changed files go to be deployed, once attached.
    deploys: Arc<OnceLock<Box<dyn Publisher>>>,
}

const HISTORY: usize = 20;

/// Adds `status` to the history the status endpoint reports, newest first, keeping `HISTORY`.
fn push_history(history: &Mutex<VecDeque<RebuildStatus>>, status: RebuildStatus) {
    let mut history = history.lock().unwrap_or_else(|e| e.into_inner());
    history.push_front(status);
    history.truncate(HISTORY);
}

type OnRebuilt = Box<dyn Fn(&RebuildStatus) + Send>;

struct Worker {
    opts: BuildOptions,
    source: Box<dyn FreshSource>,
    model: SourceModel,
    /// `model`, validated: what the live site was built from.
    inputs: Inputs,
    /// What the last build derived, for the next one to reuse.
    memo: BuildMemo,
    /// The manifest of the overlay just served, recorded once the change is live.
    unrecorded_manifest: Option<generator::output::Manifest>,
    templates: Templates,
    bundles: Bundles,
    timing: Timing,
    pending: Arc<AtomicUsize>,
    view: SharedView,
    history: Arc<Mutex<VecDeque<RebuildStatus>>>,
    preview_code: PreviewCode,
    on_rebuilt: OnRebuilt,
    next_id: u64,
    /// The last rebuild failed: the next save is built even if its files match the model.
    last_failed: bool,
    deploys: Arc<OnceLock<Box<dyn Publisher>>>,
}

fn errors_text(e: &impl std::fmt::Display) -> String {
    e.to_string()
}

impl Daemon {
    /// Loads the export, templates and bundles, makes sure a complete site is live (building it
    /// if needed), and starts the worker thread.
    pub fn start(
        opts: BuildOptions,
        source: Box<dyn FreshSource>,
        timing: Timing,
        on_rebuilt: OnRebuilt,
    ) -> anyhow::Result<Daemon> {
        let opts = with_file_digests(opts);
        // Killed builds' leftovers are removed on their own thread while the daemon starts.
        drop(generator::sweep::start(&dirs_of(&opts)));
        let prepared = prepare(&opts)?;
        let view = LiveView::load(&dirs_of(&opts))
            .ok_or_else(|| anyhow::anyhow!("no live site after the first build"))?;
        let (daemon, rx) = Daemon::idle(view);
        let worker = daemon.worker(opts, source, prepared, timing, on_rebuilt, 1);
        std::thread::Builder::new()
            .name("rebuild".into())
            .spawn(move || worker.run(rx))?;
        Ok(daemon)
    }

    /// A handle serving `view`, with no worker yet: what is sent to it waits in the channel.
    fn idle(view: LiveView) -> (Daemon, mpsc::Receiver<Msg>) {
        let (tx, rx) = mpsc::channel();
        let daemon = Daemon {
            tx,
            pending: Arc::new(AtomicUsize::new(0)),
            view: Arc::new(RwLock::new(Arc::new(view))),
            history: Arc::new(Mutex::new(VecDeque::new())),
            preview_code: PreviewCode::default(),
            deploys: Arc::new(OnceLock::new()),
        };
        (daemon, rx)
    }

    /// The worker for this handle, starting from `prepared`; its rebuilds are numbered from
    /// `next_id`.
    fn worker(
        &self,
        opts: BuildOptions,
        source: Box<dyn FreshSource>,
        prepared: Prepared,
        timing: Timing,
        on_rebuilt: OnRebuilt,
        next_id: u64,
    ) -> Worker {
        Worker {
            opts,
            source,
            model: prepared.model,
            inputs: prepared.inputs,
            memo: prepared.memo,
            unrecorded_manifest: None,
            templates: prepared.templates,
            bundles: prepared.bundles,
            timing,
            pending: self.pending.clone(),
            view: self.view.clone(),
            history: self.history.clone(),
            preview_code: self.preview_code.clone(),
            on_rebuilt,
            next_id,
            last_failed: false,
            deploys: self.deploys.clone(),
        }
    }

    /// Sends each later rebuild's changed files to `deploys`; only the first attachment counts.
    pub fn attach_deploys(&self, deploys: Box<dyn Publisher>) -> bool {
        self.deploys.set(deploys).is_ok()
    }

    pub fn view(&self) -> SharedView {
        self.view.clone()
    }

    /// Dev: files on disk changed. Content files alone are diffed into content changes; anything
    /// else (catalog, templates, bundles) reloads everything.
    pub fn files_changed(&self, paths: Vec<PathBuf>) {
        self.pending.fetch_add(1, Ordering::SeqCst);
        let _ = self.tx.send(Msg::Reload {
            received: Instant::now(),
            paths,
        });
    }

    /// Renders content item `id` as `staging_domain` serves it (see `Worker::preview`). Blocks
    /// until the worker answers, so call it off the async runtime.
    pub fn preview(&self, staging_domain: &str, id: &str) -> Result<Option<String>, String> {
        let (reply, answer) = mpsc::channel();
        self.tx
            .send(Msg::Preview {
                domain: staging_domain.to_string(),
                id: id.to_string(),
                reply,
            })
            .map_err(|_| "the rebuild daemon has stopped".to_string())?;
        answer
            .recv()
            .map_err(|_| "the rebuild daemon has stopped".to_string())?
    }

    /// The editor code files of the items previewed so far (`Worker::preview`).
    pub fn preview_code(&self) -> PreviewCode {
        self.preview_code.clone()
    }

    /// The last rebuilds, newest first.
    pub fn history(&self) -> Vec<RebuildStatus> {
        self.history
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .cloned()
            .collect()
    }
}

impl ChangeSink for Daemon {
    fn submit(&self, _origin: Origin, _delivery: &str, changes: Vec<Change>) {
        self.pending.fetch_add(1, Ordering::SeqCst);
        let _ = self.tx.send(Msg::Changes {
            changes,
            received: Instant::now(),
        });
    }

    fn status(&self) -> serde_json::Value {
        serde_json::to_value(self.history()).unwrap_or_default()
    }

    fn deploys(&self) -> serde_json::Value {
        self.deploys
            .get()
            .map(|d| d.history_json())
            .unwrap_or_default()
    }
}

/// What a worker starts from: the export loaded and validated, and the site brought up to date
/// with it (a full generation if none is live yet).
struct Prepared {
    inputs: Inputs,
    model: SourceModel,
    memo: BuildMemo,
    templates: Templates,
    bundles: Bundles,
    /// Files the start-up build wrote and deleted.
    written: usize,
    deleted: usize,
}

fn prepare(opts: &BuildOptions) -> anyhow::Result<Prepared> {
    let (inputs, templates, bundles) =
        generator::build::load(opts).map_err(|e| anyhow::anyhow!("{e}"))?;
    let model = SourceModel::read(&opts.export_dir).map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut memo = BuildMemo::default();
    let report = generator::build(
        opts,
        BuildFrom::Loaded {
            inputs: &inputs,
            templates: &templates,
            bundles: &bundles,
            publish: Publish::Full,
            memo: &mut memo,
        },
    )
    .map_err(|e| anyhow::anyhow!("{e}"))?;
    println!("built: {}", report.summary());
    Ok(Prepared {
        inputs,
        model,
        memo,
        templates,
        bundles,
        written: report.written.len(),
        deleted: report.deleted.len(),
    })
}

/// A daemon's builds record each written file's SHA-1 in the manifest: a deploy worker, once
/// attached, deploys each rebuild's changes by those digests, and a rebuild writes few files.
fn with_file_digests(opts: BuildOptions) -> BuildOptions {
    BuildOptions {
        file_digests: true,
        ..opts
    }
}

fn dirs_of(opts: &BuildOptions) -> OutputDirs {
    OutputDirs {
        public: opts.public_dir.clone(),
        cache: opts.cache_dir.clone(),
    }
}

/// Deliveries gathered into one rebuild.
struct Batch {
    changes: BTreeSet<Change>,
    reload: bool,
    paths: Vec<PathBuf>,
    deliveries: usize,
    first_received: Instant,
}

impl Batch {
    fn add(&mut self, msg: Msg) {
        self.deliveries += 1;
        match msg {
            Msg::Changes { changes, received } => {
                self.changes.extend(changes);
                self.first_received = self.first_received.min(received);
            }
            Msg::Reload { received, paths } => {
                self.reload = true;
                self.paths.extend(paths);
                self.first_received = self.first_received.min(received);
            }
            Msg::Preview { .. } => unreachable!("previews are answered before batching"),
        }
    }
}

impl Worker {
    fn run(mut self, rx: mpsc::Receiver<Msg>) {
        self.source.prepare();
        loop {
            let has_layers = self.current_view().layer_count() > 0;
            let first = if has_layers {
                match rx.recv_timeout(self.timing.compact_after) {
                    Ok(m) => m,
                    Err(RecvTimeoutError::Timeout) => {
                        self.compact();
                        continue;
                    }
                    Err(RecvTimeoutError::Disconnected) => return,
                }
            } else {
                match rx.recv() {
                    Ok(m) => m,
                    Err(_) => return,
                }
            };
            let first = match first {
                Msg::Preview { domain, id, reply } => {
                    let _ = reply.send(self.preview(&domain, &id));
                    continue;
                }
                other => other,
            };
            let mut batch = Batch {
                changes: BTreeSet::new(),
                reload: false,
                paths: Vec::new(),
                deliveries: 0,
                first_received: Instant::now(),
            };
            let save = matches!(first, Msg::Reload { .. });
            batch.add(first);
            let opened = Instant::now();
            while let Some(left) = self.timing.max_batch.checked_sub(opened.elapsed()) {
                let quiet = if batch.deliveries > 1 {
                    self.timing.burst_quiet
                } else if save {
                    self.timing.save_quiet
                } else {
                    self.timing.quiet
                };
                match rx.recv_timeout(left.min(quiet)) {
                    Ok(Msg::Preview { domain, id, reply }) => {
                        let _ = reply.send(self.preview(&domain, &id));
                    }
                    Ok(m) => batch.add(m),
                    Err(_) => break,
                }
            }
            self.pending.fetch_sub(batch.deliveries, Ordering::SeqCst);
            // A save whose files hold what the live site was built from (an editor's save often
            // arrives as two events, the second after the first was built) is not a rebuild.
            let Some(status) = self.rebuild(&batch) else {
                continue;
            };
            if status.ok {
                println!(
                    "rebuild {}: {} deliveries, {} changes, {} files written, {} deleted, live {} ms after receipt{}",
                    status.id,
                    status.deliveries,
                    status.changes.len(),
                    status.written,
                    status.deleted,
                    status.receipt_to_live_ms,
                    if status.stale.is_empty() {
                        String::new()
                    } else {
                        format!(
                            "; the source still served the old version of {:?}",
                            status.stale
                        )
                    }
                );
            } else {
                eprintln!(
                    "rebuild {} failed, the live site is unchanged: {}",
                    status.id,
                    status.error.as_deref().unwrap_or_default()
                );
            }
            (self.on_rebuilt)(&status);
            push_history(&self.history, status);
        }
    }

    fn current_view(&self) -> Arc<LiveView> {
        self.view.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    fn swap_view(&self, view: LiveView) -> Arc<LiveView> {
        std::mem::replace(
            &mut *self.view.write().unwrap_or_else(|e| e.into_inner()),
            Arc::new(view),
        )
    }

    /// Fetches the changed items, refetching those the source still serves unchanged.
    fn fetch(&self, changes: &BTreeSet<Change>) -> Result<(Fresh, BTreeSet<Change>), String> {
        let mut fresh = Fresh::default();
        let mut wanted = changes.clone();
        let mut retries = self.timing.stale_retries.iter();
        loop {
            let products: Vec<u64> = wanted
                .iter()
                .filter_map(|c| match c {
                    Change::Product(id) => Some(*id),
                    _ => None,
                })
                .collect();
            let stock: Vec<u64> = wanted
                .iter()
                .filter_map(|c| match c {
                    Change::Inventory(id) => Some(*id),
                    _ => None,
                })
                .collect();
            let categories: Vec<u64> = wanted
                .iter()
                .filter_map(|c| match c {
                    Change::Category(id) => Some(*id),
                    _ => None,
                })
                .collect();
            let content: Vec<String> = wanted
                .iter()
                .filter_map(|c| match c {
                    Change::Content(id) => Some(id.clone()),
                    _ => None,
                })
                .collect();
            let got = Fresh {
                products: if products.is_empty() {
                    Default::default()
                } else {
                    self.source
                        .products(&products)
                        .map_err(|e| errors_text(&e))?
                },
                inventory: if stock.is_empty() {
                    Default::default()
                } else {
                    self.source.inventory(&stock).map_err(|e| errors_text(&e))?
                },
                categories: if categories.is_empty() {
                    Default::default()
                } else {
                    self.source
                        .categories(&categories)
                        .map_err(|e| errors_text(&e))?
                },
                content: if content.is_empty() {
                    Default::default()
                } else {
                    self.source.content(&content).map_err(|e| errors_text(&e))?
                },
            };
            let stale = self.model.stale(&got);
            fresh.products.extend(got.products);
            fresh.inventory.extend(got.inventory);
            fresh.categories.extend(got.categories);
            fresh.content.extend(got.content);
            if stale.is_empty() {
                return Ok((fresh, stale));
            }
            match retries.next() {
                Some(wait) => {
                    std::thread::sleep(*wait);
                    wanted = stale;
                }
                None => return Ok((fresh, stale)),
            }
        }
    }

    /// `None` when the batch was a save that changed nothing since the last good rebuild.
    fn rebuild(&mut self, batch: &Batch) -> Option<RebuildStatus> {
        let id = self.next_id;
        let mut status = RebuildStatus {
            id,
            finished_at: 0,
            deliveries: batch.deliveries,
            changes: batch.changes.iter().cloned().collect(),
            reload: batch.reload,
            ok: false,
            error: None,
            written: 0,
            deleted: 0,
            stale: Vec::new(),
            receipt_to_live_ms: 0,
            phases_ms: Vec::new(),
            keep_error: None,
            manifest_error: None,
        };
        let model_changed = match self.try_rebuild(batch, &mut status) {
            Ok(Some(changed)) => {
                status.ok = true;
                changed
            }
            Ok(None) => return None,
            Err(e) => {
                status.error = Some(e);
                false
            }
        };
        self.next_id += 1;
        self.last_failed = !status.ok;
        if !status.ok {
            // Nothing went live: the time until the failure was reported.
            status.receipt_to_live_ms = batch.first_received.elapsed().as_millis() as u64;
        }
        if let Some(manifest) = self.unrecorded_manifest.take() {
            let started = Instant::now();
            if let Err(e) = generator::build::record_manifest(&self.opts, &mut self.memo, manifest)
            {
                eprintln!("rebuild {id} is live, but recording its manifest failed: {e}");
                status.manifest_error = Some(e.to_string());
            }
            status.phases_ms.push((
                "manifest (after live)".into(),
                started.elapsed().as_secs_f64() * 1000.0,
            ));
        }
        // After the swap, so keeping the items costs the next batch, not this one's latency.
        if model_changed {
            let started = Instant::now();
            if let Err(e) = self.source.keep(&self.model) {
                eprintln!(
                    "rebuild {id} is live, but keeping the fetched items failed (the next full build reads the previous export): {e}"
                );
                status.keep_error = Some(e.to_string());
            }
            status
                .phases_ms
                .push(("keep".into(), started.elapsed().as_secs_f64() * 1000.0));
        }
        status.finished_at = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        Some(status)
    }

    /// Returns whether the model now holds new versions fetched from the source (which `keep`
    /// then records); a reload from disk already matches the disk. `None`: a save of content
    /// files that hold what the model holds, after a good rebuild, so there is nothing to build
    /// (after a failed one the same files are built again, so that the error clears).
    fn try_rebuild(
        &mut self,
        batch: &Batch,
        status: &mut RebuildStatus,
    ) -> Result<Option<bool>, String> {
        let mut mark = Instant::now();
        let mut lap = |status: &mut RebuildStatus, name: &str| {
            status
                .phases_ms
                .push((name.to_string(), mark.elapsed().as_secs_f64() * 1000.0));
            mark = Instant::now();
        };
        let content_dir = std::fs::canonicalize(self.opts.export_dir.join("content"))
            .unwrap_or_else(|_| self.opts.export_dir.join("content"));
        let content_only = batch.changes.is_empty()
            && !batch.paths.is_empty()
            && batch.paths.iter().all(|p| p.starts_with(&content_dir));
        let (next, inputs, templates, bundles) = if batch.reload && !content_only {
            let (inputs, templates, bundles) =
                generator::build::load(&self.opts).map_err(|e| errors_text(&e))?;
            let model = SourceModel::read(&self.opts.export_dir).map_err(|e| errors_text(&e))?;
            lap(status, "model");
            (model, inputs, Some(templates), Some(bundles))
        } else {
            let fresh = if batch.reload {
                let items = source::read_content_items(&self.opts.export_dir)
                    .map_err(|e| errors_text(&e))?;
                let fresh = self.model.content_diff(items);
                if fresh.content.is_empty() && !self.last_failed {
                    return Ok(None);
                }
                status.changes = fresh.content.keys().cloned().map(Change::Content).collect();
                lap(status, "read content");
                fresh
            } else {
                let (fresh, stale) = self.fetch(&batch.changes)?;
                status.stale = stale.into_iter().collect();
                lap(status, "fetch");
                fresh
            };
            let next = self.model.apply(&fresh).map_err(|e| errors_text(&e))?;
            lap(status, "model");
            let inputs = self.inputs_after(&next, &fresh)?;
            lap(status, "validate");
            (next, inputs, None, None)
        };
        if templates.is_some() {
            // Templates, bundles or media may have changed: nothing derived before still holds.
            self.memo = BuildMemo::default();
        }
        let report = generator::build(
            &self.opts,
            BuildFrom::Loaded {
                inputs: &inputs,
                templates: templates.as_ref().unwrap_or(&self.templates),
                bundles: bundles.as_ref().unwrap_or(&self.bundles),
                publish: Publish::Overlay,
                memo: &mut self.memo,
            },
        )
        .map_err(|e| errors_text(&e))?;
        status.phases_ms.extend(
            report
                .phases
                .iter()
                .map(|(name, d)| (name.to_string(), d.as_secs_f64() * 1000.0)),
        );
        status.written = report.written.len();
        status.deleted = report.deleted.len();
        let dirs = dirs_of(&self.opts);
        let swapping = Instant::now();
        self.unrecorded_manifest = report.manifest;
        match &report.layer {
            Some(layer) => {
                let view =
                    self.current_view()
                        .with_layer(layer.clone(), &report.written, &report.deleted);
                self.swap_view(view);
            }
            // Nothing changed, or a full generation was published (no complete tree was live).
            None if report.generation.is_some() => {
                let view = LiveView::load(&dirs).ok_or("the new generation has no manifest")?;
                self.swap_view(view);
            }
            None => {}
        }
        // Measured here: what follows (dropping the previous model) happens after going live.
        status.receipt_to_live_ms = batch.first_received.elapsed().as_millis() as u64;
        self.tell_deploys(
            status.id,
            batch.first_received,
            (&report.written, &report.deleted),
            report.layer.is_some(),
        );
        status.phases_ms.push((
            "swap view".into(),
            swapping.elapsed().as_secs_f64() * 1000.0,
        ));
        self.model = next;
        self.inputs = inputs;
        if let (Some(t), Some(b)) = (templates, bundles) {
            self.templates = t;
            self.bundles = b;
        }
        // Items that were all still stale brought nothing new to keep.
        Ok(Some(
            !batch.reload && status.stale.len() < batch.changes.len(),
        ))
    }

    /// Tells the deploy worker (if any) what this rebuild changed: the files written, with the
    /// SHA-1 the manifest recorded, and deleted; a full generation makes it list the site again.
    fn tell_deploys(
        &self,
        rebuild: u64,
        received: Instant,
        (written, deleted): (&[String], &[String]),
        overlay: bool,
    ) {
        let Some(deploys) = self.deploys.get() else {
            return;
        };
        if written.is_empty() && deleted.is_empty() {
            return;
        }
        let change = match (overlay, &self.unrecorded_manifest) {
            (true, Some(manifest)) => {
                let written: Option<Vec<(String, String)>> = written
                    .iter()
                    .map(|p| manifest.sha1.get(p).map(|d| (p.clone(), d.clone())))
                    .collect();
                match written {
                    Some(written) => SiteChange::Files {
                        rebuild,
                        written,
                        deleted: deleted.to_vec(),
                        received,
                    },
                    None => SiteChange::Resync,
                }
            }
            _ => SiteChange::Resync,
        };
        deploys.changed(change);
    }

    /// The validated inputs of `next`, which is the current model with `fresh` applied. Only what
    /// `fresh` touches is validated again: a content change keeps the catalog (the same shared
    /// one, so the build reuses everything derived from it), and a change to existing products
    /// rebuilds just those products. Anything else validates the whole model.
    fn inputs_after(&self, next: &SourceModel, fresh: &Fresh) -> Result<Inputs, String> {
        let catalog_unchanged =
            fresh.products.is_empty() && fresh.inventory.is_empty() && fresh.categories.is_empty();
        let catalog = if catalog_unchanged {
            Some(self.inputs.catalog.clone())
        } else if fresh.categories.is_empty() && fresh.products.values().all(Option::is_some) {
            let ids: BTreeSet<u64> = fresh
                .products
                .keys()
                .chain(fresh.inventory.keys())
                .copied()
                .collect();
            let (products, prices, stock) = next.product_records(&ids);
            if products.len() < ids.len() {
                None // stock of a product the model does not hold: let full validation say so
            } else {
                match self
                    .inputs
                    .catalog
                    .with_products(&products, &prices, &stock, next.media())
                {
                    Some(Ok(catalog)) => Some(Arc::new(catalog)),
                    Some(Err(e)) => return Err(errors_text(&e)),
                    None => None,
                }
            }
        } else {
            None
        };
        let Some(catalog) = catalog else {
            return next.inputs().map_err(|e| errors_text(&e));
        };
        let content = if fresh.content.is_empty() {
            self.inputs.content.clone()
        } else {
            next.content().map_err(|e| errors_text(&e))?
        };
        Ok(Inputs {
            catalog,
            content,
            media_dir: self.inputs.media_dir.clone(),
            // Webhooks never change shops; a file save reloads everything.
            shops: next.shops(),
        })
    }

    /// The page showing content item `id` as the staging host serves it, rendered on demand from
    /// the in-memory model with that item swapped in; `None` when the item does not exist. Its
    /// HolyHandGrenade code files that the live site lacks are kept in `preview_code` for the
    /// page's script and stylesheet requests.
    fn preview(&self, domain: &str, id: &str) -> Result<Option<String>, String> {
        let Some(item) = self
            .source
            .preview_item(domain, id)
            .map_err(|e| errors_text(&e))?
        else {
            return Ok(None);
        };
        let key = item
            .pointer("/_meta/deliveryKey")
            .and_then(serde_json::Value::as_str)
            .unwrap_or_default()
            .to_string();
        let url = generator::preview::url_for_delivery_key(&key).ok_or_else(|| {
            format!("content item {id}: _meta.deliveryKey: {key:?} has no market prefix")
        })?;
        let mut fresh = Fresh::default();
        fresh.content.insert(id.to_string(), Some(item));
        let inputs = self
            .model
            .apply(&fresh)
            .and_then(|m| m.inputs())
            .map_err(|e| errors_text(&e))?;
        let view = self.current_view();
        let unpublished: BTreeMap<String, String> =
            generator::blocks::editor_code_files(&inputs.content)
                .into_iter()
                .filter(|(path, _)| view.dir_of(path).is_none())
                .collect();
        self.preview_code.add(unpublished);
        generator::preview::render_url(&inputs, &self.templates, &self.bundles, &url)
            .map_err(|e| errors_text(&e))
    }

    /// Folds overlays into a full generation, unless new deliveries are waiting.
    fn compact(&mut self) {
        let dirs = dirs_of(&self.opts);
        let pending = self.pending.clone();
        match compact(&dirs, &|| pending.load(Ordering::SeqCst) > 0) {
            Ok(name) => {
                if let Some(view) = LiveView::load(&dirs) {
                    let previous = self.swap_view(view);
                    // Requests in flight may still read the previous view's directories.
                    prune_except(&dirs, &previous.generation_names());
                    println!("compacted the live site into {name}");
                }
            }
            Err(generator::output::CompactError::Interrupted) => {}
            Err(e) => {
                eprintln!("compacting the live site failed (still serving the overlays): {e}")
            }
        }
    }
}
