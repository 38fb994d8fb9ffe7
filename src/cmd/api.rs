//! `storefront api`: the commerce API on its own (production, or behind the CDN), or with
//! `--import` a one-off import of the catalog export into the store.

use anyhow::Context;
use clap::Args as ClapArgs;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

#[derive(ClapArgs)]
pub struct Args {
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1:8081", env = "API_ADDR")]
    pub addr: SocketAddr,
    /// `sqlite://path` (created if missing) or `postgres://user@host/db`.
    #[arg(
        long,
        default_value = "sqlite://content-cache/api.db",
        env = "DATABASE_URL"
    )]
    pub database_url: String,
    /// The catalog export (the same one the site is built from).
    #[arg(long, default_value = "fixtures/sample", env = "STOREFRONT_EXPORT")]
    pub export: PathBuf,
    /// Import the export into the store and exit.
    #[arg(long)]
    pub import: bool,
    /// Seconds between checks of the export for changes; 0 turns reloading off.
    #[arg(long, default_value_t = 2, env = "API_WATCH_SECS")]
    pub watch_secs: u64,
    /// Outside the UK, do not sell stock held at location 2.
    #[arg(long, env = "API_DEDUCT_LOCATION_2")]
    pub deduct_location_2_outside_uk: bool,
    /// Extra origins allowed to make state-changing calls (comma-separated).
    #[arg(long, value_delimiter = ',', env = "API_TRUSTED_ORIGINS")]
    pub trusted_origins: Vec<String>,
    /// Header carrying the visitor's country, set by the CDN.
    #[arg(long, default_value = "cf-ipcountry", env = "API_GEO_HEADER")]
    pub geo_header: String,
    /// Largest request body in bytes.
    #[arg(long, default_value_t = 16 * 1024, env = "API_BODY_LIMIT")]
    pub body_limit: usize,
    /// Cart cookie lifetime in seconds.
    #[arg(long, default_value_t = 30 * 24 * 3600, env = "API_CART_COOKIE_MAX_AGE")]
    pub cart_cookie_max_age: i64,
    /// Force the cookies' Secure flag on or off (default: on except on plain-http localhost).
    #[arg(long, env = "API_COOKIE_SECURE")]
    pub cookie_secure: Option<bool>,
    /// Password-reset link lifetime in seconds.
    #[arg(long, default_value_t = 3600, env = "API_RESET_TTL")]
    pub reset_ttl: i64,
    /// Public origin used in emailed links.
    #[arg(
        long,
        default_value = "http://localhost:8080",
        env = "API_PUBLIC_BASE_URL"
    )]
    pub public_base_url: String,
    /// Failed sign-ins allowed per window to one account from one client address.
    #[arg(long, default_value_t = 5, env = "API_LOGIN_LIMIT_ACCOUNT_CLIENT")]
    pub login_limit_account_client: u32,
    /// Failed sign-ins allowed per window to one account from all addresses; past it, only
    /// browsers the owner signed in from before may try.
    #[arg(long, default_value_t = 50, env = "API_LOGIN_LIMIT_ACCOUNT")]
    pub login_limit_account: u32,
    /// Sign-in attempts allowed per client address per window.
    #[arg(long, default_value_t = 50, env = "API_LOGIN_LIMIT_IP")]
    pub login_limit_ip: u32,
    /// Throttle window in seconds.
    #[arg(long, default_value_t = 900, env = "API_LOGIN_WINDOW")]
    pub login_window: i64,
    /// The search index the generator builds (`storefront build --cache DIR` → `DIR/search`).
    #[arg(long, default_value = "content-cache/search", env = "API_SEARCH_DIR")]
    pub search_dir: std::path::PathBuf,
    #[command(flatten)]
    pub webhooks: WebhookSecrets,
}

/// The webhooks' secrets, read by every server that mounts the webhook routes: without them a
/// correctly signed delivery could not be told from a forged one.
#[derive(ClapArgs, Clone, Default)]
pub struct WebhookSecrets {
    /// The content hub's webhook secret (HMAC key of X-Amplience-Webhook-Signature).
    #[arg(long, env = "API_CONTENT_WEBHOOK_SECRET", hide_env_values = true)]
    pub content_webhook_secret: Option<String>,
    /// The commerce platform's webhook secret header value.
    #[arg(long, env = "API_CATALOG_WEBHOOK_SECRET", hide_env_values = true)]
    pub catalog_webhook_secret: Option<String>,
}

impl WebhookSecrets {
    pub fn apply(&self, config: &mut api::Config) {
        config.content_webhook_secret = self.content_webhook_secret.clone();
        config.catalog_webhook_secret = self.catalog_webhook_secret.clone();
        if config.content_webhook_secret.is_none() || config.catalog_webhook_secret.is_none() {
            println!("note: a webhook secret is not set, so that webhook refuses every delivery");
        }
    }
}

impl Args {
    /// The API's configuration; the promotions engine's settings come from `PROMOTIONS_*`
    /// (docs/api.md), and a half-configured engine is an error here.
    pub fn config(&self) -> anyhow::Result<api::Config> {
        let mut c = api::Config::new(self.database_url.clone(), self.export.clone());
        c.watch_interval = (self.watch_secs > 0).then(|| Duration::from_secs(self.watch_secs));
        c.deduct_location_2_outside_uk = self.deduct_location_2_outside_uk;
        c.trusted_origins = self.trusted_origins.clone();
        c.geo_header = self.geo_header.to_ascii_lowercase();
        c.body_limit = self.body_limit;
        c.cart_cookie_max_age = self.cart_cookie_max_age;
        c.cookie_secure = self.cookie_secure;
        c.reset_token_ttl = self.reset_ttl;
        c.public_base_url = self.public_base_url.trim_end_matches('/').to_string();
        c.login_limit_per_account_client = self.login_limit_account_client;
        c.login_limit_per_account = self.login_limit_account;
        c.login_limit_per_ip = self.login_limit_ip;
        c.login_window_secs = self.login_window;
        c.search_dir = self.search_dir.clone();
        c.promotions = api::promotions::PromotionsConfig::from_env()?;
        c.express = api::checkout::ExpressConfig::from_env()?;
        c.payments = api::payments::config::PaymentsConfig::from_env(
            api::payments::config::ProviderKind::None,
        )?;
        c.mail = api::mail::config::MailConfig::from_env(api::mail::config::Destination::Nowhere)?;
        c.admin_token = std::env::var("API_ADMIN_TOKEN")
            .ok()
            .filter(|t| !t.is_empty());
        // Authenticated deliveries then get 503 `no_rebuild_daemon`, as documented, not 401.
        self.webhooks.apply(&mut c);
        Ok(c)
    }
}

pub fn run(args: Args) -> anyhow::Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stdout()))
        .init();
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    runtime.block_on(async move {
        let config = args.config()?;
        if args.import {
            let db = api::store::Db::connect(&config.database_url).await?;
            let (_, changed) = api::catalog::import(&db, &config.export_dir).await?;
            println!(
                "{}",
                if changed {
                    "catalog imported"
                } else {
                    "catalog unchanged"
                }
            );
            db.close().await;
            return Ok(());
        }
        let state = api::AppState::open(config).await?;
        let _watcher = state.spawn_watcher();
        let _janitor = state.spawn_janitor(Duration::from_secs(3600));
        let _reconciler = state.spawn_order_reconciler(Duration::from_secs(60));
        let _search_log = state.spawn_search_log_flusher(Duration::from_secs(10));
        // The index the rebuild leader (`storefront serve`) published to the store, installed into
        // `--search-dir` without a shared disk or a restart.
        let _search_follower = state.spawn_search_follower(Duration::from_millis(500));
        let _mail = state.spawn_mail_sender()?;
        let app = live_site::site_server::with_api(axum::Router::new(), state.clone());
        let listener = tokio::net::TcpListener::bind(args.addr)
            .await
            .with_context(|| format!("binding {}", args.addr))?;
        // Small JSON answers should leave at once, not wait on Nagle's algorithm for an ACK.
        let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
            if let Err(e) = tcp.set_nodelay(true) {
                tracing::warn!(error = %e, "TCP_NODELAY");
            }
        });
        tracing::info!(addr = %args.addr, "API listening at /api");
        // Connect info gives the sign-in throttle the client address.
        axum::serve(
            listener,
            app.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .with_graceful_shutdown(shutdown_signal())
        .await
        .context("serving")?;
        state.db().close().await;
        Ok(())
    })
}

/// Ctrl-C or SIGTERM: stop accepting, finish in-flight requests, close the pool.
pub async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        if let Ok(mut s) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        {
            s.recv().await;
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
    tracing::info!("shutting down");
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: Args,
    }

    #[test]
    fn the_api_alone_reads_the_webhook_secrets() {
        let cli = Cli::try_parse_from([
            "api",
            "--content-webhook-secret",
            "hub-secret",
            "--catalog-webhook-secret",
            "platform-secret",
        ])
        .unwrap();
        let config = cli.args.config().unwrap();
        assert_eq!(config.content_webhook_secret.as_deref(), Some("hub-secret"));
        assert_eq!(
            config.catalog_webhook_secret.as_deref(),
            Some("platform-secret")
        );
    }
}
