//! `storefront serve`: a production-like local server. The site as Netlify serves it (netlify.toml's
//! redirects and headers, read from the file, not restated), the API on the same origin, the
//! signed webhooks driving incremental rebuilds through the rebuild daemon, graceful shutdown.

use anyhow::Context;
use clap::Args as ClapArgs;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use storefront::netlify::NetlifyConfig;
use storefront::rebuild::source::LocalExport;
use storefront::rebuild::{Daemon, Timing};
use storefront::site_server::{SiteFiles, production_router};

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
    /// The content hub's webhook secret (HMAC key of X-Amplience-Webhook-Signature).
    #[arg(long, env = "API_CONTENT_WEBHOOK_SECRET", hide_env_values = true)]
    pub content_webhook_secret: Option<String>,
    /// The commerce platform's webhook secret header value.
    #[arg(long, env = "API_CATALOG_WEBHOOK_SECRET", hide_env_values = true)]
    pub catalog_webhook_secret: Option<String>,
    /// Bearer token of GET /api/webhooks/status.
    #[arg(long, env = "API_ADMIN_TOKEN", hide_env_values = true)]
    pub admin_token: Option<String>,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let netlify = Arc::new(NetlifyConfig::load(&args.netlify)?);
    let mut opts = args.build.options();
    opts.progress = false;
    let export_dir = opts.export_dir.clone();
    let daemon = Daemon::start(
        opts,
        Box::new(LocalExport {
            dir: export_dir.clone(),
        }),
        Timing::default(),
        Box::new(|_| {}),
    )
    .context("building the site")?;
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    runtime.block_on(async move {
        let mut config = api::Config::new(args.database_url.clone(), export_dir);
        config.public_base_url = format!("http://{}", args.addr);
        config.content_webhook_secret = args.content_webhook_secret.clone();
        config.catalog_webhook_secret = args.catalog_webhook_secret.clone();
        config.admin_token = args.admin_token.clone();
        if config.content_webhook_secret.is_none() || config.catalog_webhook_secret.is_none() {
            println!("note: a webhook secret is not set, so that webhook refuses every delivery");
        }
        let api_state = api::AppState::open(config)
            .await
            .context("starting the API")?;
        let _catalog_watcher = api_state.spawn_watcher();
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
        axum::serve(
            listener,
            app.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .with_graceful_shutdown(super::api::shutdown_signal())
        .await
        .context("serving")?;
        api_state.db().close().await;
        Ok(())
    })
}
