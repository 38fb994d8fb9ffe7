//! `storefront serve`: a production-like local server. The site as Netlify serves it (netlify.toml's
//! redirects and headers, read from the file, not restated), the API on the same origin, the
//! signed webhooks driving incremental rebuilds through the rebuild daemon (fresh items from the
//! source APIs when they are configured, else from the export on disk), each rebuild deployed
//! to Netlify when its credentials are set (live-site/src/deploy), graceful shutdown. On PostgreSQL only the
//! host holding the rebuild lead runs; a second one stands by until the leader is gone.

use anyhow::Context;
use api::leader::Leadership;
use clap::Args as ClapArgs;
use export::source::{FreshSource, LocalExport};
use importer::{ImportConfig, ImportOptions};
use live_site::deploy::DeployConfig;
use live_site::netlify::NetlifyConfig;
use live_site::rebuild::importer_source::ImporterSource;
use live_site::rebuild::{Daemon, Timing};
use live_site::site_server::{SiteFiles, production_router};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

#[derive(ClapArgs)]
pub struct Args {
    #[command(flatten)]
    pub build: super::build::BuildArgs,
    /// Address to serve on.
    #[arg(long, default_value = "127.0.0.1:8080", env = "STOREFRONT_ADDR")]
    pub addr: SocketAddr,
    /// The deploy configuration whose redirects and headers are applied.
    #[arg(long, default_value = "netlify.toml")]
    pub netlify: PathBuf,
    /// The API's store (see `storefront api`).
    #[arg(
        long,
        default_value = "sqlite://content-cache/serve.db",
        env = "DATABASE_URL"
    )]
    pub database_url: String,
    #[command(flatten)]
    pub webhooks: super::api::WebhookSecrets,
    /// Bearer token of GET /api/webhooks/status.
    #[arg(long, env = "API_ADMIN_TOKEN", hide_env_values = true)]
    pub admin_token: Option<String>,
}

/// Variables that say the source APIs are configured (docs/import.md); any one of them set means
/// the operator meant to use them, so an incomplete set is an error rather than a silent fallback.
const IMPORT_VARS: [&str; 4] = [
    "BIGCOMMERCE_STORE_HASH",
    "BIGCOMMERCE_ACCESS_TOKEN",
    "AMPLIENCE_HUB",
    "AMPLIENCE_DELIVERY_URL",
];

/// The source APIs' configuration when the environment names them, else `None`.
fn import_config() -> anyhow::Result<Option<ImportConfig>> {
    let set = IMPORT_VARS
        .iter()
        .any(|v| std::env::var(v).is_ok_and(|x| !x.trim().is_empty()));
    if !set {
        return Ok(None);
    }
    ImportConfig::from_env()
        .map(Some)
        .context("the source APIs are partly configured (see docs/import.md)")
}

/// Where webhook rebuilds get fresh items: the source APIs when configured (building from the
/// import in `{cache}/export`, importing first if there is none yet), else the export on disk.
fn fresh_source(
    args: &super::build::BuildArgs,
    opts: &mut generator::BuildOptions,
    runtime: &tokio::runtime::Runtime,
) -> anyhow::Result<Box<dyn FreshSource>> {
    let Some(cfg) = import_config()? else {
        return Ok(Box::new(LocalExport::new(opts.export_dir.clone())));
    };
    let imported = args.cache.join("export");
    if let Some(export) = &args.export
        && export != &imported
    {
        anyhow::bail!(
            "--export {}: with the source APIs configured, serve builds from the import in {} and keeps webhook changes there; unset {} to serve another export",
            export.display(),
            imported.display(),
            IMPORT_VARS.join(", ")
        );
    }
    if !imported.join(domain::catalog::FILE_STORE).is_file() {
        println!(
            "no import in {} yet: importing from the source APIs first",
            imported.display()
        );
        let summary = runtime
            .block_on(importer::import(
                &cfg,
                &ImportOptions {
                    cache_dir: args.cache.clone(),
                    progress: false,
                },
            ))
            .context("the first import failed")?;
        println!("{summary}");
    }
    opts.export_dir = imported.clone();
    println!(
        "webhook rebuilds fetch the changed items from the source APIs and keep them in {}",
        imported.display()
    );
    Ok(Box::new(
        ImporterSource::new(&cfg, &args.cache, &imported)
            .context("connecting to the source APIs")?,
    ))
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let netlify = Arc::new(NetlifyConfig::load(&args.netlify)?);
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    // Before anything is imported or built: a stand-by does neither.
    let (db, lead) = runtime.block_on(take_the_lead(&args.database_url))?;
    let mut opts = args.build.options();
    opts.progress = false;
    let source = fresh_source(&args.build, &mut opts, &runtime)?;
    let export_dir = opts.export_dir.clone();
    let search_dir = opts.cache_dir.join(generator::search_index::SEARCH_DIR);
    let dirs = generator::output::OutputDirs {
        public: opts.public_dir.clone(),
        cache: opts.cache_dir.clone(),
    };
    let deploy = DeployConfig::from_env().context("the Netlify deploy settings")?;
    // A restart serves the last good site and the API at once; the start-up build runs behind.
    let daemon = Daemon::start_behind_last_good(opts, source, Timing::default(), Box::new(|_| {}))
        .context("building the site")?;
    match deploy {
        Some(config) => {
            let site = config.site_id.clone();
            live_site::deploy::start_for_daemon(&daemon, &netlify, dirs, config)
                .context("starting the deploys to Netlify")?;
            println!("deploying the site and each rebuild's changed files to Netlify site {site}");
        }
        None => println!(
            "NETLIFY_AUTH_TOKEN and NETLIFY_SITE_ID are not set: rebuilds are served here and not deployed"
        ),
    }
    runtime.block_on(async move {
        let mut config = api::Config::new(args.database_url.clone(), export_dir);
        config.public_base_url = format!("http://{}", args.addr);
        config.search_dir = search_dir;
        args.webhooks.apply(&mut config);
        config.admin_token = args.admin_token.clone();
        config.promotions = api::promotions::PromotionsConfig::from_env()?;
        config.express = api::checkout::ExpressConfig::from_env()?;
        config.payments = api::payments::config::PaymentsConfig::from_env(
            api::payments::config::ProviderKind::None,
        )?;
        config.mail =
            api::mail::config::MailConfig::from_env(api::mail::config::Destination::Nowhere)?;
        let api_state = api::AppState::with_db(db, config)
            .await
            .context("starting the API")?;
        let _catalog_watcher = api_state.spawn_watcher();
        let _janitor = api_state.spawn_janitor(Duration::from_secs(3600));
        let _reconciler = api_state.spawn_order_reconciler(Duration::from_secs(60));
        // Popular searches reach the store, and so the other API hosts, only through this flush.
        let _search_log = api_state.spawn_search_log_flusher(Duration::from_secs(10));
        // Each build's search index goes to the store, from which every `storefront api` host
        // installs it. Only on PostgreSQL: a SQLite store has this one host, which reads the
        // index where it builds it, and copying it would only grow the file.
        let _search_publisher = (api_state.db().backend() == api::store::Backend::Postgres)
            .then(|| api_state.spawn_search_publisher(SEARCH_SYNC));
        // `GET /api/webhooks/status` on the `storefront api` hosts answers this copy.
        let _status_copier = api_state.spawn_status_copier(Duration::from_secs(2));
        let _mail = api_state.spawn_mail_sender()?;
        api_state.webhooks().attach(Arc::new(daemon.clone()));
        let app = production_router(
            SiteFiles::View(daemon.view()),
            netlify,
            api_state.clone(),
            Some(daemon.clone()),
        );
        let listener = tokio::net::TcpListener::bind(args.addr)
            .await
            .with_context(|| format!("binding {}", args.addr))?;
        println!(
            "serving http://{} like production (API at /api, webhooks at /api/webhooks/*)",
            args.addr
        );
        let (lost_tx, lost_rx) = tokio::sync::oneshot::channel();
        let stop = async move {
            tokio::select! {
                _ = super::api::shutdown_signal() => {}
                lost = watch_the_lead(lead) => { let _ = lost_tx.send(lost); }
            }
        };
        axum::serve(
            listener,
            app.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .with_graceful_shutdown(stop)
        .await
        .context("serving")?;
        api_state.db().close().await;
        match lost_rx.await {
            // Stopping is the safe answer: another host now rebuilds and deploys, and a
            // supervisor that restarts this one makes it the stand-by.
            Ok(lost) => Err(lost.context("stopped: this host lost the rebuild lead")),
            Err(_) => Ok(()),
        }
    })
}

/// How often the leader looks for a new search index to publish (one `readlink` per market).
const SEARCH_SYNC: Duration = Duration::from_millis(500);

/// How often the stand-by tries for the lead, and the leader checks it still holds it.
const LEAD_CHECK: Duration = Duration::from_secs(1);

/// Connects the store and takes the rebuild lead (api/src/leader.rs), waiting while another
/// `storefront serve` on the same PostgreSQL holds it: only one host rebuilds and deploys, and
/// a stand-by neither builds nor listens until the leader is gone.
async fn take_the_lead(database_url: &str) -> anyhow::Result<(api::store::Db, Leadership)> {
    let db = api::store::Db::connect(database_url)
        .await
        .context("connecting the store")?;
    let lead = match Leadership::try_acquire(&db).await? {
        Some(lead) => lead,
        None => {
            println!(
                "another host leads the rebuilds and deploys on this store: standing by until it stops"
            );
            Leadership::acquire(&db, LEAD_CHECK).await?
        }
    };
    println!("this host leads the rebuilds and deploys");
    Ok((db, lead))
}

/// Completes with the cause when the lead is lost (its connection to PostgreSQL failed).
async fn watch_the_lead(mut lead: Leadership) -> anyhow::Error {
    let lost = lead.lost(LEAD_CHECK).await;
    tracing::error!(error = %format!("{lost:#}"), "lost the rebuild lead: stopping");
    lost
}
