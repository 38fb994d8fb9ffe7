//! The deploy worker of `storefront serve`: rebuilds tell it which files changed (with their
//! SHA-1 from the manifest), and it keeps the site's digest list up to date from those changes.
//! One deploy runs at a time; changes that arrive while it uploads wait and all go in the next
//! deploy. A failed attempt leaves the previous deploy live and is retried, with the latest
//! files, after a doubling backoff. Each attempt is kept for the status endpoint.

use super::api::NetlifyApi;
use super::config::DeployConfig;
use super::files::{DeployFiles, Generated, SiteFiles};
use super::run::{AttemptError, Outcome, deploy_once};
use crate::rebuild::{Publisher, SiteChange};
use serde::Serialize;
use std::collections::{BTreeMap, VecDeque};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

/// One deploy attempt, as the status endpoint shows it.
#[derive(Debug, Clone, Default, Serialize)]
pub struct DeployRecord {
    /// This process's attempt number.
    pub attempt: u64,
    /// Netlify's deploy id, once created.
    pub deploy_id: Option<String>,
    /// Unix seconds when the attempt finished.
    pub finished_at: u64,
    /// The rebuilds whose files this deploy carries (none: the start-up deploy of the live site).
    pub rebuilds: Vec<u64>,
    pub ok: bool,
    pub error: Option<String>,
    pub files: usize,
    /// Digests Netlify lacked.
    pub required: usize,
    pub files_uploaded: usize,
    pub bytes_uploaded: u64,
    /// Creating the deploy until Netlify answered it ready.
    pub time_to_ready_ms: Option<u64>,
    /// From the first webhook of the rebuilds it carries until Netlify answered it ready.
    pub receipt_to_ready_ms: Option<u64>,
    pub create_ms: u64,
    pub upload_ms: u64,
    /// Failed attempts before this one for the same changes.
    pub retries: u32,
}

const HISTORY: usize = 20;

/// The handle the daemon and the status endpoint keep.
#[derive(Clone)]
pub struct DeployHandle {
    tx: mpsc::Sender<SiteChange>,
    history: Arc<Mutex<VecDeque<DeployRecord>>>,
}

impl DeployHandle {
    /// Tells the worker the live site changed; returns at once.
    pub fn changed(&self, change: SiteChange) {
        let _ = self.tx.send(change);
    }

    /// The last deploy attempts, newest first.
    pub fn history(&self) -> Vec<DeployRecord> {
        self.history
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .cloned()
            .collect()
    }
}

impl Publisher for DeployHandle {
    fn changed(&self, change: SiteChange) {
        DeployHandle::changed(self, change);
    }

    fn history_json(&self) -> serde_json::Value {
        serde_json::to_value(self.history()).unwrap_or_default()
    }
}

/// A worker made but not started: attach its handle first, so that no rebuild falls between the
/// worker's first reading of the manifest and the daemon knowing where to send changes.
pub struct Pending {
    worker: Worker,
    rx: mpsc::Receiver<SiteChange>,
}

impl Pending {
    /// Starts the worker's thread; its first deploy publishes the live site as it is.
    pub fn start(self) -> anyhow::Result<()> {
        let Pending { worker, rx } = self;
        std::thread::Builder::new()
            .name("deploy".into())
            .spawn(move || worker.run(rx))?;
        Ok(())
    }
}

/// Makes a worker deploying `site` (plus `generated`) with `config`.
pub fn create(
    config: DeployConfig,
    site: Box<dyn SiteFiles>,
    generated: BTreeMap<String, Generated>,
) -> anyhow::Result<(DeployHandle, Pending)> {
    let (tx, rx) = mpsc::channel();
    let history = Arc::new(Mutex::new(VecDeque::new()));
    let worker = Worker {
        api: NetlifyApi::new(&config)?,
        config,
        site,
        generated,
        history: history.clone(),
    };
    Ok((DeployHandle { tx, history }, Pending { worker, rx }))
}

struct Worker {
    api: NetlifyApi,
    config: DeployConfig,
    site: Box<dyn SiteFiles>,
    generated: BTreeMap<String, Generated>,
    history: Arc<Mutex<VecDeque<DeployRecord>>>,
}

/// Changes not deployed yet.
struct Undeployed {
    /// The list must be read from the manifest again (start, or a full build).
    resync: bool,
    /// Changes since that reading, in order, applied after it.
    after_resync: Vec<SiteChange>,
    rebuilds: Vec<u64>,
    first_received: Option<Instant>,
    retries: u32,
}

impl Undeployed {
    fn any(&self) -> bool {
        self.resync || !self.rebuilds.is_empty()
    }
}

impl Worker {
    fn run(self, rx: mpsc::Receiver<SiteChange>) {
        let runtime = match tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
        {
            Ok(r) => r,
            Err(e) => {
                eprintln!("deploys stopped: no async runtime: {e}");
                return;
            }
        };
        let mut list: BTreeMap<String, String> = BTreeMap::new();
        let mut todo = Undeployed {
            resync: true,
            after_resync: Vec::new(),
            rebuilds: Vec::new(),
            first_received: None,
            retries: 0,
        };
        let mut attempt = 0;
        let mut backoff = self.config.retry.base_delay;
        loop {
            if !todo.any() {
                match rx.recv() {
                    Ok(change) => take(&mut todo, &mut list, change),
                    Err(_) => return,
                }
            }
            // Everything that came while the last deploy ran goes in this one.
            for change in rx.try_iter() {
                take(&mut todo, &mut list, change);
            }
            attempt += 1;
            let result = if todo.resync {
                self.site.list().map_err(|e| AttemptError {
                    deploy_id: None,
                    uploaded: 0,
                    error: format!("listing the live site: {e:#}"),
                    superseded: false,
                })
            } else {
                Ok(BTreeMap::new())
            };
            let result = result.and_then(|fresh| {
                if todo.resync {
                    list = fresh;
                    todo.resync = false;
                    for change in std::mem::take(&mut todo.after_resync) {
                        apply(&mut list, &change);
                    }
                }
                let files = DeployFiles {
                    site: &list,
                    generated: &self.generated,
                };
                runtime.block_on(deploy_once(
                    &self.api,
                    &files,
                    self.site.as_ref(),
                    self.config.concurrency,
                    self.config.retry.ready_timeout,
                ))
            });
            let record = self.record(attempt, &todo, &result);
            match &result {
                Ok(_) => {
                    println!(
                        "deploy {} ready: {} of {} files uploaded, {} ms after creation{}",
                        record.deploy_id.as_deref().unwrap_or_default(),
                        record.files_uploaded,
                        record.files,
                        record.time_to_ready_ms.unwrap_or_default(),
                        record
                            .receipt_to_ready_ms
                            .map(|ms| format!(", {ms} ms after the webhook"))
                            .unwrap_or_default()
                    );
                    todo.rebuilds.clear();
                    todo.first_received = None;
                    todo.retries = 0;
                    backoff = self.config.retry.base_delay;
                }
                Err(e) => {
                    eprintln!(
                        "deploy attempt {attempt} failed, the previous deploy stays live: {}",
                        e.error
                    );
                    todo.retries += 1;
                }
            }
            push(&self.history, record);
            if let Err(e) = result {
                if e.superseded {
                    continue;
                }
                // Changes that come during the wait are taken now and go in the retry.
                let until = Instant::now() + backoff;
                while let Some(left) = until.checked_duration_since(Instant::now()) {
                    match rx.recv_timeout(left) {
                        Ok(change) => take(&mut todo, &mut list, change),
                        Err(RecvTimeoutError::Timeout) => break,
                        Err(RecvTimeoutError::Disconnected) => return,
                    }
                }
                backoff = (backoff * 2).min(self.config.retry.max_delay);
            }
        }
    }

    fn record(
        &self,
        attempt: u64,
        todo: &Undeployed,
        result: &Result<Outcome, AttemptError>,
    ) -> DeployRecord {
        let finished_at = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        let base = DeployRecord {
            attempt,
            finished_at,
            rebuilds: todo.rebuilds.clone(),
            retries: todo.retries,
            ..DeployRecord::default()
        };
        match result {
            Ok(o) => DeployRecord {
                deploy_id: Some(o.deploy_id.clone()),
                ok: true,
                files: o.files,
                required: o.required,
                files_uploaded: o.uploaded,
                bytes_uploaded: o.bytes_uploaded,
                time_to_ready_ms: Some(o.create_to_ready_ms),
                receipt_to_ready_ms: todo
                    .first_received
                    .map(|at| at.elapsed().as_millis() as u64),
                create_ms: o.create_ms,
                upload_ms: o.upload_ms,
                ..base
            },
            Err(e) => DeployRecord {
                deploy_id: e.deploy_id.clone(),
                error: Some(e.error.clone()),
                files_uploaded: e.uploaded,
                ..base
            },
        }
    }
}

/// Takes one change into what is to be deployed.
fn take(todo: &mut Undeployed, list: &mut BTreeMap<String, String>, change: SiteChange) {
    match &change {
        SiteChange::Resync => {
            todo.resync = true;
            todo.after_resync.clear();
            return;
        }
        SiteChange::Files {
            rebuild, received, ..
        } => {
            todo.rebuilds.push(*rebuild);
            todo.first_received = Some(todo.first_received.map_or(*received, |f| f.min(*received)));
        }
    }
    if todo.resync {
        todo.after_resync.push(change);
    } else {
        apply(list, &change);
    }
}

fn apply(list: &mut BTreeMap<String, String>, change: &SiteChange) {
    if let SiteChange::Files {
        written, deleted, ..
    } = change
    {
        for path in deleted {
            list.remove(path);
        }
        for (path, digest) in written {
            list.insert(path.clone(), digest.clone());
        }
    }
}

fn push(history: &Mutex<VecDeque<DeployRecord>>, record: DeployRecord) {
    let mut history = history.lock().unwrap_or_else(|e| e.into_inner());
    history.push_front(record);
    history.truncate(HISTORY);
}
