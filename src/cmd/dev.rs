//! `storefront dev`: builds the store, serves it at http://127.0.0.1:8080 with the API at /api on
//! the same origin, watches exports, templates and island sources, rebuilds incrementally and
//! live-reloads the browser. A failed rebuild is shown in the terminal and the browser while the
//! last good site keeps being served. Rebuilds go through the rebuild daemon: the source model stays
//! in memory, a saved content file re-reads only the content, and only changed files are written
//! and swapped in (see live-site/src/rebuild).

use anyhow::{Context, Result};
use clap::Args as ClapArgs;
use export::source::LocalExport;
use live_site::dev_errors::{self, LastError};
use live_site::rebuild::{Daemon, Timing};
use live_site::site_server::{self, SiteFiles};
use notify::RecursiveMode;
use notify::event::{AccessKind, AccessMode, EventKind};
use notify_debouncer_full::{DebounceEventResult, new_debouncer};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::mpsc;
use std::time::Duration;
use tower_livereload::{LiveReloadLayer, Reloader};

#[derive(ClapArgs)]
pub struct Args {
    #[command(flatten)]
    pub build: super::build::BuildArgs,
    /// Address to serve on.
    #[arg(long, default_value = "127.0.0.1:8080", env = "STOREFRONT_ADDR")]
    pub addr: SocketAddr,
    /// Island sources; a change there re-runs the Vite build.
    #[arg(long, default_value = "site-src/src")]
    pub island_sources: PathBuf,
    /// Serve without watching for changes.
    #[arg(long)]
    pub no_watch: bool,
}

/// What a batch of file events asks for.
#[derive(Debug, PartialEq, Eq)]
enum Rebuild {
    Site,
    BundlesThenSite,
}

/// Output and tool directories whose changes must not trigger rebuilds (or they would loop).
fn ignored(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    let temp_file = name.starts_with(".#")
        || name.ends_with('~')
        || name.ends_with(".swp")
        || name.ends_with(".swx")
        || name.ends_with(".tmp")
        || name == "4913";
    temp_file
        || path.components().any(|c| {
            matches!(
                c.as_os_str().to_str(),
                Some("public" | "content-cache" | "node_modules" | "dist" | "target" | ".git")
            )
        })
}

fn run_vite_build() -> Result<()> {
    let status = Command::new("npm")
        .args(["--prefix", "site-src", "run", "build", "--silent"])
        .status()
        .context("running npm --prefix site-src run build")?;
    anyhow::ensure!(
        status.success(),
        "the island bundle build (npm --prefix site-src run build) failed"
    );
    Ok(())
}

fn report_error(error: &str, last: &LastError, reloader: &Reloader) {
    eprintln!("rebuild failed, still serving the last good site:\n{error}");
    last.set(Some(error.to_string()));
    reloader.reload();
}

pub fn run(args: Args) -> Result<()> {
    if !args.build.bundles.join(".vite/manifest.json").is_file() {
        println!("building the island bundles first…");
        run_vite_build()?;
    }
    let last = LastError::default();
    let live_reload = LiveReloadLayer::new();
    let reloader = live_reload.reloader();
    let mut opts = args.build.options();
    opts.progress = false;
    let export_dir = opts.export_dir.clone();
    let on_rebuilt = {
        let (last, reloader) = (last.clone(), reloader.clone());
        Box::new(move |status: &live_site::rebuild::RebuildStatus| {
            if status.ok {
                last.set(None);
                if status.written > 0 || status.deleted > 0 {
                    reloader.reload();
                }
            } else {
                report_error(
                    status.error.as_deref().unwrap_or_default(),
                    &last,
                    &reloader,
                );
            }
        })
    };
    let daemon = Daemon::start(
        opts,
        Box::new(LocalExport::new(export_dir.clone())),
        Timing::default(),
        on_rebuilt,
    )
    .context("the first build failed (fix it and start again)")?;

    let mut watcher = None;
    if !args.no_watch {
        let (tx, rx) = mpsc::channel::<(Rebuild, Vec<PathBuf>)>();
        // notify reports absolute paths.
        let island_sources = std::fs::canonicalize(&args.island_sources)
            .unwrap_or_else(|_| args.island_sources.clone());
        // Short: an editor's save is one or two events within a few milliseconds, and every
        // millisecond here is one the save waits for its reload.
        let mut debouncer = new_debouncer(
            Duration::from_millis(40),
            None,
            move |result: DebounceEventResult| {
                let Ok(events) = result else { return };
                // Reads are reported too (inotify's open and close-without-write): a build reads
                // the templates and Vite reads the island sources, so counting reads as changes
                // would rebuild forever. A close after writing is a change.
                let paths: Vec<&PathBuf> = events
                    .iter()
                    .filter(|e| match e.kind {
                        EventKind::Access(AccessKind::Close(AccessMode::Write)) => true,
                        EventKind::Access(_) => false,
                        _ => true,
                    })
                    .flat_map(|e| e.paths.iter())
                    .filter(|p| !ignored(p))
                    .collect();
                if paths.is_empty() {
                    return;
                }
                let kind = if paths.iter().any(|p| p.starts_with(&island_sources)) {
                    Rebuild::BundlesThenSite
                } else {
                    Rebuild::Site
                };
                let _ = tx.send((kind, paths.into_iter().cloned().collect()));
            },
        )
        .context("starting the file watcher")?;
        let opts = args.build.options();
        for dir in [&opts.export_dir, &opts.templates_dir, &args.island_sources] {
            if dir.exists() {
                debouncer
                    .watch(dir, RecursiveMode::Recursive)
                    .with_context(|| format!("watching {}", dir.display()))?;
            }
        }
        watcher = Some(debouncer);
        let (daemon, last, reloader) = (daemon.clone(), last.clone(), reloader.clone());
        std::thread::spawn(move || {
            while let Ok((first, mut paths)) = rx.recv() {
                // Coalesce whatever else arrived meanwhile (the daemon coalesces too).
                let mut bundles = first == Rebuild::BundlesThenSite;
                while let Ok((more, more_paths)) = rx.try_recv() {
                    bundles |= more == Rebuild::BundlesThenSite;
                    paths.extend(more_paths);
                }
                if bundles && let Err(e) = run_vite_build() {
                    report_error(&format!("{e:#}"), &last, &reloader);
                    continue;
                }
                daemon.files_changed(paths);
            }
        });
    }

    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    let search_dir = args
        .build
        .options()
        .cache_dir
        .join(generator::search_index::SEARCH_DIR);
    runtime.block_on(async move {
        // The API on a SQLite file in the build cache (`--cache`, default content-cache/dev.db), fed
        // by the export the site builds from; a fresh cache directory gives a fresh database.
        let database_url = format!("sqlite://{}", args.build.cache.join("dev.db").display());
        let mut api_config = api::Config::new(&database_url, export_dir);
        api_config.public_base_url = format!("http://{}", args.addr);
        api_config.search_dir = search_dir;
        api_config.promotions = api::promotions::PromotionsConfig::from_env()?;
        api_config.express = api::checkout::ExpressConfig::from_env()?;
        // The sandbox pays unless a provider is configured: a developer can buy end to end.
        api_config.payments = api::payments::config::PaymentsConfig::from_env(
            api::payments::config::ProviderKind::Sandbox,
        )?;
        // No mail server needed: without SMTP_HOST the sender delivers into a maildir in the
        // build cache, which /dev/mail shows.
        let maildir = args.build.cache.join("mail");
        api_config.mail = api::mail::config::MailConfig::from_env(
            api::mail::config::Destination::Mailbox(maildir.clone()),
        )?;
        api_config.mail.poll = Duration::from_millis(500);
        api_config.admin_token = std::env::var("API_ADMIN_TOKEN")
            .ok()
            .filter(|t| !t.is_empty());
        // Every shopper here is the developer (and the browser tests) on one address: the
        // card-testing throttle of production would stop them after 20 test payments an hour.
        api_config.payment_attempts_per_client = 1000;
        let api_state = api::AppState::open(api_config)
            .await
            .context("starting the API")?;
        let _catalog_watcher = api_state.spawn_watcher();
        let _search_log = api_state.spawn_search_log_flusher(Duration::from_secs(10));
        let _reconciler = api_state.spawn_order_reconciler(Duration::from_secs(60));
        let _mail = api_state.spawn_mail_sender()?;
        let mail_pages = api::mail::devbox::router(api_state.clone(), Some(maildir));
        api_state
            .webhooks()
            .attach(std::sync::Arc::new(daemon.clone()));
        let app = site_server::router_over(SiteFiles::View(daemon.view()), api_state)
            .nest(api::mail::devbox::MOUNT, mail_pages)
            .layer(axum::middleware::from_fn_with_state(
                last.clone(),
                dev_errors::inject,
            ))
            .layer(live_reload);
        let listener = tokio::net::TcpListener::bind(args.addr)
            .await
            .with_context(|| format!("binding {}", args.addr))?;
        println!(
            "serving http://{} (API at /api){}",
            args.addr,
            if watcher.is_some() {
                ", watching for changes"
            } else {
                ""
            }
        );
        // Connection info lets the API throttle sign-ins per client address, as in production.
        axum::serve(
            listener,
            app.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .context("serving")?;
        drop(watcher);
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outputs_and_editor_temp_files_are_ignored() {
        assert!(ignored(Path::new("/w/public/index.html")));
        assert!(ignored(Path::new("/w/site-src/templates/.base.html.swp")));
        assert!(ignored(Path::new("/w/site-src/templates/base.html~")));
        assert!(ignored(Path::new("/w/content-cache/build-manifest.json")));
        assert!(!ignored(Path::new("/w/site-src/templates/base.html")));
        assert!(!ignored(Path::new(
            "/w/fixtures/sample/catalog/products.json"
        )));
    }
}
