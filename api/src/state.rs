//! What every handler shares (`AppState`): the store, the catalog and its stock snapshot, the
//! configuration, the throttles, the outside services' clients and the clock. Built once from a
//! `Config`; the background chores that run on it are in `janitor`.

use crate::catalog::{self, CatalogHandle, StockSnapshot};
use crate::config::Config;
use crate::password::Hasher;
use crate::payments::client::Client;
use crate::payments::config::ProviderKind;
use crate::payments::sandbox::Sandbox;
use crate::payments::{Provider, sandbox_pages};
use crate::promotions_client;
use crate::rate_limit::Limiter;
use crate::search_index::SearchService;
use crate::search_index::popular::Popular;
use crate::stock_rows::stock_rows;
use crate::store::{self, Db};
use crate::webhook_sink::Webhooks;
use axum::Router;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

/// Shared state of the API: the store, the catalog, configuration, throttles and the clock.
#[derive(Clone)]
pub struct AppState {
    inner: Arc<Inner>,
}

struct Inner {
    db: Db,
    catalog: CatalogHandle,
    config: Config,
    hasher: Hasher,
    search: SearchService,
    /// Seconds added to the wall clock; tests move time forward to expire tokens.
    clock_offset: AtomicI64,
    webhooks: Webhooks,
    /// The promotions engine's client, present exactly when the feature flag is on.
    promotions: Option<promotions_client::Client>,
    /// The card payment provider's client, present exactly when express checkout is on.
    payments: Option<Client>,
    /// The standard checkout's payment provider, when configured.
    provider: Option<Arc<dyn Provider>>,
    /// The sandbox provider's state, when it is the provider (its pages are mounted beside the
    /// shop at `/sandbox-pay`).
    sandbox: Option<Arc<Sandbox>>,
    /// Keeps a throwaway database directory alive as long as the state (`ephemeral`).
    _scratch: Option<tempfile::TempDir>,
}

impl AppState {
    /// Connects the database (creating the schema), imports the export if it changed since the
    /// last import, and returns the state. The export watcher is started by `spawn_watcher`.
    pub async fn open(config: Config) -> anyhow::Result<AppState> {
        let db = Db::connect(&config.database_url).await?;
        AppState::with_db(db, config).await
    }

    /// As `open`, with an already connected store (tests use a private PostgreSQL schema).
    pub async fn with_db(db: Db, config: Config) -> anyhow::Result<AppState> {
        let (catalog, _) = catalog::import(&db, &config.export_dir).await?;
        let stock = catalog::load_stock(&db).await?;
        let popular = Popular::load(&db).await?;
        let promotions = if config.promotions.enabled {
            Some(promotions_client::Client::new(&config.promotions)?)
        } else {
            None
        };
        let payments = if config.express.enabled {
            Some(config.express.client()?)
        } else {
            None
        };
        let (provider, sandbox): (Option<Arc<dyn Provider>>, _) = match config.payments.provider {
            ProviderKind::None => (None, None),
            ProviderKind::Sandbox => {
                let sandbox = Arc::new(Sandbox::new());
                (Some(sandbox.clone()), Some(sandbox))
            }
            ProviderKind::Remote => (
                Some(Arc::new(Client::for_checkout(&config.payments)?)),
                None,
            ),
        };
        Ok(AppState {
            inner: Arc::new(Inner {
                search: SearchService::new(&config.search_dir, popular),
                db,
                catalog: CatalogHandle::new(catalog, stock),
                config,
                hasher: Hasher::new(),
                clock_offset: AtomicI64::new(0),
                webhooks: Webhooks::default(),
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

    pub fn db(&self) -> &Db {
        &self.inner.db
    }

    pub fn catalog(&self) -> Arc<domain::catalog::Catalog> {
        self.inner.catalog.get()
    }

    /// The store's stock rows as of the last import (see `catalog::load_stock`).
    pub fn stock_snapshot(&self) -> Arc<StockSnapshot> {
        self.inner.catalog.stock()
    }

    pub fn config(&self) -> &Config {
        &self.inner.config
    }

    pub fn limiter(&self) -> Limiter<'_> {
        Limiter::new(&self.inner.db)
    }

    pub fn search(&self) -> &SearchService {
        &self.inner.search
    }

    pub fn webhooks(&self) -> &Webhooks {
        &self.inner.webhooks
    }

    /// The promotions engine, when the feature flag is on.
    pub fn promotions(&self) -> Option<&promotions_client::Client> {
        self.inner.promotions.as_ref()
    }

    /// The card payment provider, when express checkout is on.
    pub fn payments(&self) -> Option<&Client> {
        self.inner.payments.as_ref()
    }

    /// The standard checkout's payment provider, when configured.
    pub fn provider(&self) -> Option<&Arc<dyn Provider>> {
        self.inner.provider.as_ref()
    }

    /// The sandbox provider's browser pages (tokenisation, 3-D Secure, approvals), to be nested
    /// at `payments::sandbox::MOUNT` beside the shop, when the sandbox is the provider.
    pub fn sandbox_pages(&self) -> Option<Router> {
        self.inner.sandbox.clone().map(sandbox_pages::router)
    }

    /// Re-reads `variant_ids`' stock rows from the store into the in-memory snapshot the cart
    /// view and the stock calls show, after an order changed them. A failure only leaves the
    /// display stale until the next import (every decision reads the store), so it is logged.
    pub async fn refresh_stock(&self, variant_ids: &[u64]) {
        let rows = async {
            let mut conn = self.db().pool().acquire().await?;
            stock_rows(&mut conn, Some(variant_ids)).await
        }
        .await;
        match rows {
            Ok(rows) => self.inner.catalog.update_stock(rows),
            Err(e) => tracing::warn!(error = %e, "refreshing the stock snapshot failed"),
        }
    }

    pub fn hasher(&self) -> &Hasher {
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
