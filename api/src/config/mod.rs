//! The API's settings: everything `AppState` is built from. The CLI (`storefront api`) fills them
//! from flags and environment variables; see docs/api.md.

pub mod express;
pub mod mail;
pub mod promotions;

use crate::payments::config::PaymentsConfig;
use express::{ExpressConfig, PAYMENTS_PER_CLIENT, PENDING_LIMIT_SECS};
use mail::MailConfig;
use promotions::PromotionsConfig;
use std::path::PathBuf;
use std::time::Duration;

/// Everything the API can be configured with.
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
    /// Failed sign-ins allowed per window: to one account from one client address; to one
    /// account from all addresses together (after which only the owner's known browsers may try);
    /// and from one client address to any accounts.
    pub login_limit_per_account_client: u32,
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
    pub promotions: PromotionsConfig,
    /// Express (wallet) checkout and its card payment provider (off unless configured; see
    /// `express::ExpressConfig`).
    pub express: ExpressConfig,
    /// The standard checkout's payment provider (none unless configured; `storefront dev` uses
    /// the sandbox; see `payments::config`).
    pub payments: PaymentsConfig,
    /// Payment attempts (Place order, express authorisations) allowed per client address per
    /// hour: enough for a household, too few to test stolen cards with.
    pub payment_attempts_per_client: u32,
    /// A Pending order older than this is asked about at the provider and settled (reconcile).
    pub pending_order_limit_secs: i64,
    /// Mail delivery: where the outbox goes and how failures are retried (see `mail::MailConfig`).
    pub mail: MailConfig,
}

impl Config {
    /// The shop's host name (from `public_base_url`): the domain registered for Apple Pay.
    pub fn public_host(&self) -> String {
        reqwest::Url::parse(&self.public_base_url)
            .ok()
            .and_then(|u| u.host_str().map(str::to_string))
            .unwrap_or_default()
    }

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
            login_limit_per_account_client: 5,
            login_limit_per_account: 50,
            login_limit_per_ip: 50,
            login_window_secs: 900,
            search_dir: PathBuf::from("content-cache/search"),
            content_webhook_secret: None,
            catalog_webhook_secret: None,
            webhook_body_limit: 256 * 1024,
            admin_token: None,
            staging_domain_suffix: ".staging.bigcontent.io".into(),
            promotions: PromotionsConfig::default(),
            express: ExpressConfig::default(),
            payments: PaymentsConfig::default(),
            pending_order_limit_secs: PENDING_LIMIT_SECS,
            payment_attempts_per_client: PAYMENTS_PER_CLIENT,
            mail: MailConfig::default(),
        }
    }
}
