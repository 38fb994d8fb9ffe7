//! `storefront serve`'s start: the last good site and the API answer at once while the start-up build runs behind them, and an export that cannot be built is reported and retried instead of stopping the server.

use super::{
    Daemon, Msg, OnRebuilt, Prepared, RebuildStatus, Timing, dirs_of, prepare, push_history,
    with_file_digests,
};
use export::source::FreshSource;
use generator::{BuildOptions, LiveView};
use std::sync::Arc;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{SystemTime, UNIX_EPOCH};

impl Daemon {
    /// Like `start`, but when a complete site from an earlier run is live (its manifest trusted)
    /// it is served at once and the start-up build runs on the worker thread; its result replaces
    /// the view when it succeeds. While the export cannot be built, each failed attempt is in the
    /// history (the status endpoint) and the last good site stays served; the next attempt comes
    /// with the next delivery or after `timing.start_retry`. Deliveries that came meanwhile are
    /// rebuilt once the start-up build succeeds. With no site live yet it is `start`.
    pub fn start_behind_last_good(
        opts: BuildOptions,
        source: Box<dyn FreshSource>,
        timing: Timing,
        on_rebuilt: OnRebuilt,
    ) -> anyhow::Result<Daemon> {
        let opts = with_file_digests(opts);
        let dirs = dirs_of(&opts);
        let Some(last_good) = LiveView::load(&dirs) else {
            return Daemon::start(opts, source, timing, on_rebuilt);
        };
        drop(generator::sweep::start(&dirs));
        println!(
            "serving the last good site ({} files) while the start-up build runs",
            last_good.len()
        );
        let (daemon, rx) = Daemon::idle(last_good);
        let handle = daemon.clone();
        std::thread::Builder::new()
            .name("rebuild".into())
            .spawn(move || {
                let mut attempt = 1;
                let mut waiting: Vec<Msg> = Vec::new();
                let prepared = loop {
                    match prepare(&opts) {
                        Ok(prepared) => break prepared,
                        Err(e) => {
                            eprintln!(
                                "start-up build {attempt} failed, serving the last good site: {e}"
                            );
                            push_history(&handle.history, failed_start(attempt, &e));
                            attempt += 1;
                            if !wait_for_retry(&rx, &timing, &mut waiting) {
                                return;
                            }
                        }
                    }
                };
                match LiveView::load(&dirs) {
                    Some(view) => {
                        *handle.view.write().unwrap_or_else(|e| e.into_inner()) = Arc::new(view)
                    }
                    None => eprintln!("no trusted manifest after the start-up build"),
                }
                if prepared.written + prepared.deleted > 0
                    && let Some(deploys) = handle.deploys.get()
                {
                    deploys.changed(super::SiteChange::Resync);
                }
                // Deliveries taken off the channel while waiting go back to it (behind any that
                // came since: a batch rebuilds a set of changes, so order does not matter); they
                // are still counted as pending.
                for msg in waiting {
                    let _ = handle.tx.send(msg);
                }
                push_history(&handle.history, started(attempt, &prepared));
                let worker = handle.worker(opts, source, prepared, timing, on_rebuilt, attempt + 1);
                // The worker's channel closes when the server's handles are gone.
                drop(handle);
                worker.run(rx);
            })?;
        Ok(daemon)
    }
}

/// The status of the start-up build that succeeded, as the status endpoint shows it.
fn started(id: u64, prepared: &Prepared) -> RebuildStatus {
    RebuildStatus {
        ok: true,
        written: prepared.written,
        deleted: prepared.deleted,
        ..start_status(id)
    }
}

/// The status of a start-up build that failed, as the status endpoint shows it.
fn failed_start(id: u64, error: &anyhow::Error) -> RebuildStatus {
    RebuildStatus {
        error: Some(format!("start-up build: {error}")),
        ..start_status(id)
    }
}

fn start_status(id: u64) -> RebuildStatus {
    RebuildStatus {
        id,
        finished_at: SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0),
        reload: true,
        ..RebuildStatus::default()
    }
}

/// Waits for a delivery or for `timing.start_retry`, keeping deliveries in `waiting` (a burst
/// already queued is taken whole, for one retry); previews are refused (there is no model to
/// render them with). `false` when the daemon is gone.
fn wait_for_retry(rx: &mpsc::Receiver<Msg>, timing: &Timing, waiting: &mut Vec<Msg>) -> bool {
    let first = match rx.recv_timeout(timing.start_retry) {
        Ok(msg) => msg,
        Err(RecvTimeoutError::Timeout) => return true,
        Err(RecvTimeoutError::Disconnected) => return false,
    };
    for msg in std::iter::once(first).chain(rx.try_iter()) {
        match msg {
            Msg::Preview { reply, .. } => {
                let _ = reply.send(Err(
                    "the export cannot be built yet; see the rebuild status".to_string(),
                ));
            }
            other => waiting.push(other),
        }
    }
    true
}
