//! The commerce API mounted under /api: carts, live stock, accounts and sign-in, addresses,
//! wishlists and the small calls the front end needs. `app(state)` returns the router the servers
//! nest at /api; `AppState::open` connects the store and imports the catalog export.

pub mod account;
pub mod auth;
pub mod cart;
pub mod catalog;
pub mod checkout;
pub mod error;
pub mod inventory;
pub mod json;
pub mod misc;
pub mod password;
pub mod payments;
pub mod preview;
pub mod promotions;
pub mod search;
pub mod security;
pub mod session;
pub mod stock;
pub mod store;
pub mod upstream;
pub mod webhooks;
pub mod wishlist;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;

/// Everything the API can be configured with. The CLI (`storefront api`) fills it from flags and
/// environment variables; see docs/api.md.
#[derive(Debug, Clone)]
pub struct Config {
    /// `sqlite://path/to.db` (created if missing) or `postgres://…`.
    pub database_url: String,
    /// The catalog export to import at start-up and watch.
    pub export_dir: PathBuf,
    /// How often to check the export for changes; `None` disables the watcher.
    pub watch_interval: Option<Duration>,
    /// Outside the UK, stock at location 2 is not sellable (deducted) when this is on.
    pub deduct_location_2_outside_uk: bool,
    /// Origins (scheme://host[:port]) allowed to make state-changing calls besides the API's own
    /// host, e.g. the CDN origin when the API is reached through a different host name.
    pub trusted_origins: Vec<String>,
    /// Request header carrying the visitor's ISO country, set by the CDN.
    pub geo_header: String,
    /// Largest accepted request body, in bytes.
    pub body_limit: usize,
    /// Lifetime of the cart cookie, in seconds.
    pub cart_cookie_max_age: i64,
    /// Forces `Secure` on or off; `None` = Secure except on plain-http localhost.
    pub cookie_secure: Option<bool>,
    /// Lifetime of a password-reset link, in seconds.
    pub reset_token_ttl: i64,
    /// Absolute origin used in links inside emails.
    pub public_base_url: String,
    /// Failed sign-ins allowed per account, and sign-in attempts per client address, per window.
    pub login_limit_per_account: u32,
    pub login_limit_per_ip: u32,
    pub login_window_secs: i64,
    /// The generator's search index root (`{cache}/search`): one symlinked generation per market.
    pub search_dir: PathBuf,
    /// Shared secret of the content hub's webhook (HMAC key); `None` refuses every delivery.
    pub content_webhook_secret: Option<String>,
    /// Secret header value of the commerce platform's webhooks; `None` refuses every delivery.
    pub catalog_webhook_secret: Option<String>,
    /// Largest webhook body, in bytes (the content hub's payloads reach 200 KB).
    pub webhook_body_limit: usize,
    /// Bearer token for operator endpoints (rebuild status); `None` refuses them.
    pub admin_token: Option<String>,
    /// Every content-hub staging host ends with this (preview domains are checked against it).
    pub staging_domain_suffix: String,
    /// The promotions engine (off unless configured; see `promotions::PromotionsConfig`).
    pub promotions: promotions::PromotionsConfig,
    /// Express (wallet) checkout and its card payment provider (off unless configured; see
    /// `checkout::ExpressConfig`).
    pub express: checkout::ExpressConfig,
    /// The standard checkout's payment provider (none unless configured; `storefront dev` uses
    /// the sandbox; see `payments::config`).
    pub payments: payments::config::PaymentsConfig,
    /// Payment attempts (Place order, express authorisations) allowed per client address per
    /// hour: enough for a household, too few to test stolen cards with.
    pub payment_attempts_per_client: u32,
    /// A Pending order older than this is asked about at the provider and settled (reconcile).
    pub pending_order_limit_secs: i64,
}

impl Config {
    pub fn new(database_url: impl Into<String>, export_dir: impl Into<PathBuf>) -> Config {
        Config {
            database_url: database_url.into(),
            export_dir: export_dir.into(),
            watch_interval: Some(Duration::from_secs(2)),
            deduct_location_2_outside_uk: false,
            trusted_origins: Vec::new(),
            geo_header: "cf-ipcountry".into(),
            body_limit: 16 * 1024,
            cart_cookie_max_age: 30 * 24 * 3600,
            cookie_secure: None,
            reset_token_ttl: 3600,
            public_base_url: "http://localhost:3000".into(),
            login_limit_per_account: 5,
            login_limit_per_ip: 50,
            login_window_secs: 900,
            search_dir: PathBuf::from("content-cache/search"),
            content_webhook_secret: None,
            catalog_webhook_secret: None,
            webhook_body_limit: 256 * 1024,
            admin_token: None,
            staging_domain_suffix: ".staging.bigcontent.io".into(),
            promotions: promotions::PromotionsConfig::default(),
            express: checkout::ExpressConfig::default(),
            payments: payments::config::PaymentsConfig::default(),
            pending_order_limit_secs: checkout::reconcile::PENDING_LIMIT_SECS,
            payment_attempts_per_client: checkout::PAYMENTS_PER_CLIENT,
        }
    }
}

/// Shared state of the API: the store, the catalog, configuration, throttles and the clock.
#[derive(Clone)]
pub struct AppState {
    inner: Arc<Inner>,
}

struct Inner {
    db: store::Db,
    catalog: catalog::CatalogHandle,
    config: Config,
    limiter: security::Limiter,
    hasher: password::Hasher,
    search: search::SearchService,
    /// Seconds added to the wall clock; tests move time forward to expire tokens.
    clock_offset: AtomicI64,
    webhooks: webhooks::Webhooks,
    /// The promotions engine's client, present exactly when the feature flag is on.
    promotions: Option<promotions::client::Client>,
    /// The card payment provider's client, present exactly when express checkout is on.
    payments: Option<checkout::provider::Client>,
    /// The standard checkout's payment provider, when configured.
    provider: Option<Arc<dyn payments::Provider>>,
    /// The sandbox provider's state, when it is the provider (its pages are mounted beside the
    /// shop at `/sandbox-pay`).
    sandbox: Option<Arc<payments::sandbox::Sandbox>>,
    /// Keeps a throwaway database directory alive as long as the state (`ephemeral`).
    _scratch: Option<tempfile::TempDir>,
}

impl AppState {
    /// Connects the database (creating the schema), imports the export if it changed since the
    /// last import, and returns the state. The export watcher is started by `spawn_watcher`.
    pub async fn open(config: Config) -> anyhow::Result<AppState> {
        let db = store::Db::connect(&config.database_url).await?;
        AppState::with_db(db, config).await
    }

    /// As `open`, with an already connected store (tests use a private PostgreSQL schema).
    pub async fn with_db(db: store::Db, config: Config) -> anyhow::Result<AppState> {
        let (catalog, _) = catalog::import(&db, &config.export_dir).await?;
        let stock = catalog::load_stock(&db).await?;
        let popular = search::popular::Popular::load(&db).await?;
        let promotions = if config.promotions.enabled {
            Some(promotions::client::Client::new(&config.promotions)?)
        } else {
            None
        };
        let payments = if config.express.enabled {
            Some(checkout::provider::Client::new(&config.express)?)
        } else {
            None
        };
        let (provider, sandbox): (Option<Arc<dyn payments::Provider>>, _) =
            match config.payments.provider {
                payments::config::ProviderKind::None => (None, None),
                payments::config::ProviderKind::Sandbox => {
                    let sandbox = Arc::new(payments::sandbox::Sandbox::new());
                    (Some(sandbox.clone()), Some(sandbox))
                }
                payments::config::ProviderKind::Remote => (
                    Some(Arc::new(checkout::provider::Client::for_checkout(
                        &config.payments,
                    )?)),
                    None,
                ),
            };
        Ok(AppState {
            inner: Arc::new(Inner {
                search: search::SearchService::new(&config.search_dir, popular),
                db,
                catalog: catalog::CatalogHandle::new(catalog, stock),
                config,
                limiter: security::Limiter::default(),
                hasher: password::Hasher::new(),
                clock_offset: AtomicI64::new(0),
                webhooks: webhooks::Webhooks::default(),
                promotions,
                payments,
                provider,
                sandbox,
                _scratch: None,
            }),
        })
    }

    /// A state on a throwaway SQLite file, removed when the last clone of the state is dropped;
    /// for tests and demos that need a working API and no set-up.
    pub async fn ephemeral(export_dir: impl Into<PathBuf>) -> anyhow::Result<AppState> {
        let scratch = tempfile::tempdir()?;
        let url = format!("sqlite://{}", scratch.path().join("api.db").display());
        let mut config = Config::new(url, export_dir);
        config.watch_interval = None;
        let state = AppState::open(config).await?;
        let inner = Arc::into_inner(state.inner).expect("a new state has one owner");
        Ok(AppState {
            inner: Arc::new(Inner {
                _scratch: Some(scratch),
                ..inner
            }),
        })
    }

    /// Re-imports the export whenever it changes (if a watch interval is configured).
    pub fn spawn_watcher(&self) -> Option<tokio::task::JoinHandle<()>> {
        let every = self.inner.config.watch_interval?;
        Some(catalog::watch(
            self.inner.db.clone(),
            self.inner.catalog.clone(),
            self.inner.config.export_dir.clone(),
            every,
        ))
    }

    /// Deletes what has outlived its use, every `every`: expired sessions, spent or expired reset
    /// links, and guest carts untouched for longer than the cart cookie lives.
    pub fn spawn_janitor(&self, every: Duration) -> tokio::task::JoinHandle<()> {
        let state = self.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(every);
            loop {
                tick.tick().await;
                if let Err(e) = state.purge_expired().await {
                    tracing::warn!(error = %format!("{e:#}"), "purging expired rows failed");
                }
            }
        })
    }

    /// Settles stale Pending orders with the payment provider (`checkout::reconcile`) at start-up
    /// and every `every`.
    pub fn spawn_order_reconciler(&self, every: Duration) -> tokio::task::JoinHandle<()> {
        let state = self.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(every);
            loop {
                tick.tick().await;
                if let Err(e) = checkout::reconcile::reconcile_stale(&state).await {
                    tracing::warn!(error = %format!("{e:#}"), "settling stale Pending orders failed");
                }
            }
        })
    }

    /// One janitor pass; returns the number of rows removed.
    pub async fn purge_expired(&self) -> anyhow::Result<u64> {
        let now = self.now();
        let stale_cart = now - self.config().cart_cookie_max_age;
        let mut tx = self.db().write().await?;
        let mut removed = 0;
        removed += sqlx::query("DELETE FROM session WHERE expires_at <= $1")
            .bind(now)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        removed +=
            sqlx::query("DELETE FROM password_reset WHERE used_at IS NOT NULL OR expires_at <= $1")
                .bind(now)
                .execute(&mut *tx)
                .await?
                .rows_affected();
        sqlx::query(
            "DELETE FROM cart_promotion WHERE cart_id IN \
             (SELECT id FROM cart WHERE customer_id IS NULL AND updated_at < $1)",
        )
        .bind(stale_cart)
        .execute(&mut *tx)
        .await?;
        sqlx::query(
            "DELETE FROM cart_item WHERE cart_id IN \
             (SELECT id FROM cart WHERE customer_id IS NULL AND updated_at < $1)",
        )
        .bind(stale_cart)
        .execute(&mut *tx)
        .await?;
        // Unfinished checkouts of those carts go with them (orders keep their own copy).
        for table in ["express_checkout", "checkout"] {
            sqlx::query(sqlx::AssertSqlSafe(format!(
                "DELETE FROM {table} WHERE state <> 'ordered' AND cart_id IN \
                 (SELECT id FROM cart WHERE customer_id IS NULL AND updated_at < $1)"
            )))
            .bind(stale_cart)
            .execute(&mut *tx)
            .await?;
        }
        removed += sqlx::query("DELETE FROM cart WHERE customer_id IS NULL AND updated_at < $1")
            .bind(stale_cart)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        tx.commit().await?;
        Ok(removed)
    }

    pub fn db(&self) -> &store::Db {
        &self.inner.db
    }

    pub fn catalog(&self) -> Arc<domain::catalog::Catalog> {
        self.inner.catalog.get()
    }

    /// The store's stock rows as of the last import (see `catalog::load_stock`).
    pub fn stock_snapshot(&self) -> Arc<catalog::StockSnapshot> {
        self.inner.catalog.stock()
    }

    pub fn config(&self) -> &Config {
        &self.inner.config
    }

    pub fn limiter(&self) -> &security::Limiter {
        &self.inner.limiter
    }

    pub fn search(&self) -> &search::SearchService {
        &self.inner.search
    }

    /// Writes the popular-search counts to the store every `every` (searches never wait for it).
    pub fn spawn_search_log_flusher(&self, every: Duration) -> tokio::task::JoinHandle<()> {
        let state = self.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(every);
            loop {
                tick.tick().await;
                if let Err(e) = state.search().popular.flush(state.db(), state.now()).await {
                    tracing::warn!(error = %format!("{e:#}"), "saving popular searches failed");
                }
            }
        })
    }

    pub fn webhooks(&self) -> &webhooks::Webhooks {
        &self.inner.webhooks
    }

    /// The promotions engine, when the feature flag is on.
    pub fn promotions(&self) -> Option<&promotions::client::Client> {
        self.inner.promotions.as_ref()
    }

    /// The card payment provider, when express checkout is on.
    pub fn payments(&self) -> Option<&checkout::provider::Client> {
        self.inner.payments.as_ref()
    }

    /// The standard checkout's payment provider, when configured.
    pub fn provider(&self) -> Option<&Arc<dyn payments::Provider>> {
        self.inner.provider.as_ref()
    }

    /// The sandbox provider's browser pages (tokenisation, 3-D Secure, approvals), to be nested
    /// at `payments::sandbox::MOUNT` beside the shop, when the sandbox is the provider.
    pub fn sandbox_pages(&self) -> Option<Router> {
        self.inner
            .sandbox
            .clone()
            .map(payments::sandbox_pages::router)
    }

    /// Re-reads `variant_ids`' stock rows from the store into the in-memory snapshot the cart
    /// view and the stock calls show, after an order changed them. A failure only leaves the
    /// display stale until the next import (every decision reads the store), so it is logged.
    pub async fn refresh_stock(&self, variant_ids: &[u64]) {
        let rows = async {
            let mut conn = self.db().pool().acquire().await?;
            stock::stock_rows(&mut conn, Some(variant_ids)).await
        }
        .await;
        match rows {
            Ok(rows) => self.inner.catalog.update_stock(rows),
            Err(e) => tracing::warn!(error = %e, "refreshing the stock snapshot failed"),
        }
    }

    pub fn hasher(&self) -> &password::Hasher {
        &self.inner.hasher
    }

    /// Unix seconds, as the API sees them.
    pub fn now(&self) -> i64 {
        store::now() + self.inner.clock_offset.load(Ordering::Relaxed)
    }

    /// Moves the API's clock forward (tests: expiring reset links and sessions).
    pub fn advance_clock(&self, secs: i64) {
        self.inner.clock_offset.fetch_add(secs, Ordering::Relaxed);
    }
}

#[derive(OpenApi)]
#[openapi(
    info(title = "Storefront commerce API", description = "Carts, stock, accounts and wishlists. Mounted at /api."),
    servers((url = "/api")),
    components(schemas(error::ErrorBody))
)]
struct ApiDoc;

/// Every route with its OpenAPI description, before state is attached.
fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .merge(misc::router())
        .merge(stock::router())
        .merge(cart::router())
        .merge(promotions::router())
        .merge(checkout::router())
        .merge(auth::router())
        .merge(account::router())
        .merge(wishlist::router())
        .merge(search::router())
}

/// The OpenAPI document served at /api/openapi.json.
pub fn openapi() -> utoipa::openapi::OpenApi {
    routes().split_for_parts().1
}

/// The API router, to be nested at `/api`.
pub fn app(state: AppState) -> Router {
    let (router, doc) = routes().split_for_parts();
    let doc = Arc::new(doc);
    let trusted = Arc::new(state.config().trusted_origins.clone());
    let limit = state.config().body_limit;
    router
        .route(
            "/openapi.json",
            axum::routing::get(move || {
                let doc = doc.clone();
                async move { axum::Json(doc.as_ref().clone()) }
            }),
        )
        .fallback(|| async {
            error::ApiError::new(
                axum::http::StatusCode::NOT_FOUND,
                "no_route",
                "No such endpoint",
            )
        })
        .with_state(state.clone())
        .layer(axum::middleware::from_fn_with_state(
            trusted,
            security::csrf,
        ))
        // Two limits: axum's extractor limit (what `StrictJson` reads) and tower-http's, which also
        // refuses an honest Content-Length before any byte is read.
        .layer(DefaultBodyLimit::max(limit))
        .layer(tower_http::limit::RequestBodyLimitLayer::new(limit))
        // Server-to-server webhooks: their own body limit, authenticated by signature, not by
        // the browser-oriented CSRF rule.
        .merge(webhooks::router(state.clone()))
        .merge(preview::router().with_state(state))
        .layer(axum::middleware::from_fn(security::json_errors_for_limits))
        .layer(axum::middleware::from_fn(security::request_id))
}
