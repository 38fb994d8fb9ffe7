//! Test harness: the API on a real loopback socket over a fresh database (a temp SQLite file, or a
//! private PostgreSQL schema when TEST_POSTGRES_URL is set), and a tiny cookie-keeping browser.
#![allow(dead_code)]

pub mod checkout;
pub mod express;
pub mod smtp;

use api::store::Db;
use api::{AppState, Config};
use serde_json::Value;
use std::collections::BTreeMap;
use std::net::SocketAddr;

pub const SAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../fixtures/sample");

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// Runs a test body on SQLite, and on PostgreSQL when `TEST_POSTGRES_URL` is set. In CI (`CI`
/// set) a missing PostgreSQL URL fails the test instead of skipping it.
#[macro_export]
macro_rules! on_both {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::$name($crate::common::Backend::Sqlite).await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    if $crate::common::postgres_url().is_some() {
                        super::$name($crate::common::Backend::Postgres).await;
                    }
                }
            )*
        }
    };
}

/// The PostgreSQL URL for tests, or None when PostgreSQL tests are not wanted here.
pub fn postgres_url() -> Option<String> {
    match std::env::var("TEST_POSTGRES_URL") {
        Ok(url) if !url.is_empty() => Some(url),
        _ if std::env::var_os("CI").is_some() => {
            panic!("CI is set but TEST_POSTGRES_URL is not: the PostgreSQL tests must run in CI")
        }
        _ => None,
    }
}

pub struct TestApi {
    pub state: AppState,
    pub addr: SocketAddr,
    pub backend: Backend,
    /// The database URL, for a second connection to the same store (`another_host`).
    url: String,
    schema: Option<(String, String)>,
    _dir: tempfile::TempDir,
}

impl TestApi {
    pub async fn start(backend: Backend) -> TestApi {
        TestApi::start_with(backend, |_| {}).await
    }

    pub async fn start_with(backend: Backend, tweak: impl FnOnce(&mut Config)) -> TestApi {
        let dir = tempfile::tempdir().unwrap();
        let (url, schema) = match backend {
            Backend::Sqlite => (
                format!("sqlite://{}", dir.path().join("t.db").display()),
                None,
            ),
            Backend::Postgres => {
                let url = postgres_url().expect("postgres url");
                let schema = format!("t_{}", api::store::random_id(8));
                (url.clone(), Some((url, schema)))
            }
        };
        let mut config = Config::new(url.clone(), SAMPLE);
        config.watch_interval = None;
        // The sandbox pays, as in `storefront dev`; tests of other providers replace it.
        config.payments = api::payments::config::PaymentsConfig::sandbox();
        tweak(&mut config);
        let db = Db::connect_in_schema(&url, schema.as_ref().map(|(_, s)| s.as_str()))
            .await
            .unwrap();
        let state = AppState::with_db(db, config).await.unwrap();
        let addr = serve(&state).await;
        TestApi {
            state,
            addr,
            backend,
            url,
            schema,
            _dir: dir,
        }
    }

    /// A browser on another machine: it connects from 127.0.0.`n`.
    pub fn browser_at(&self, n: u8) -> Browser {
        Browser {
            from: Some(std::net::IpAddr::from([127, 0, 0, n])),
            ..self.browser()
        }
    }

    pub fn browser(&self) -> Browser {
        Browser {
            addr: self.addr,
            cookies: BTreeMap::new(),
            host: self.addr.to_string(),
            shop: self.state.clone(),
            from: None,
        }
    }

    /// A second API state on the same database with its own connection pool, as another host
    /// of the same shop would have.
    pub async fn another_host(&self) -> AppState {
        self.another_host_with(|_| {}).await
    }

    /// As `another_host`, with its configuration changed by `tweak` (its own search directory).
    pub async fn another_host_with(&self, tweak: impl FnOnce(&mut Config)) -> AppState {
        let schema = self.schema.as_ref().map(|(_, s)| s.as_str());
        let db = Db::connect_in_schema(&self.url, schema).await.unwrap();
        let mut config = self.state.config().clone();
        tweak(&mut config);
        AppState::with_db(db, config).await.unwrap()
    }

    /// `another_host`, serving on a loopback socket of its own: a browser whose `addr` is this
    /// one reaches the same shop through another API process.
    pub async fn another_host_served(&self) -> (AppState, SocketAddr) {
        self.another_host_served_with(|_| {}).await
    }

    /// As `another_host_served`, with its configuration changed by `tweak`.
    pub async fn another_host_served_with(
        &self,
        tweak: impl FnOnce(&mut Config),
    ) -> (AppState, SocketAddr) {
        let state = self.another_host_with(tweak).await;
        let addr = serve(&state).await;
        (state, addr)
    }

    /// Drops the PostgreSQL schema (SQLite's temp dir goes with `self`).
    pub async fn finish(mut self) {
        self.state.db().close().await;
        if let Some((url, schema)) = self.schema.take() {
            drop_schema(&url, &schema).await;
        }
    }

    /// A variant with exactly `units` in stock in the UK, tracked and purchasable.
    pub fn variant_with_stock(&self, pred: impl Fn(i64) -> bool) -> (u64, u64, i64) {
        let catalog = self.state.catalog();
        let mut found: Vec<(u64, u64, i64)> = catalog
            .purchasable_stock()
            .filter(|(_, _, units)| pred(*units))
            .collect();
        found.sort();
        *found
            .first()
            .expect("a variant matching the stock predicate")
    }

    pub async fn scalar(&self, sql: &'static str, bind: &str) -> i64 {
        sqlx::query_scalar(sql)
            .bind(bind)
            .fetch_one(self.state.db().pool())
            .await
            .unwrap()
    }
}

/// Serves `state`'s API (and the sandbox provider's pages, when it pays) on a fresh loopback port.
async fn serve(state: &AppState) -> SocketAddr {
    let mut app = axum::Router::new().nest("/api", api::app(state.clone()));
    if let Some(pages) = state.sandbox_pages() {
        app = app.nest(api::payments::sandbox::MOUNT, pages);
    }
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        axum::serve(
            listener,
            app.into_make_service_with_connect_info::<SocketAddr>(),
        )
        .await
        .unwrap()
    });
    addr
}

async fn drop_schema(url: &str, schema: &str) {
    // A bare pool: `Db::connect` would migrate, creating tables in the public schema.
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(url).await.unwrap();
    let sql = format!("DROP SCHEMA IF EXISTS \"{schema}\" CASCADE");
    sqlx::query(sqlx::AssertSqlSafe(sql))
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
}

/// A test that panics never reaches `finish`: drop its schema anyway, on a thread of its own
/// (the test's runtime may be unwinding), so failed runs do not leave tables behind.
impl Drop for TestApi {
    fn drop(&mut self) {
        if let Some((url, schema)) = self.schema.take() {
            let _ = std::thread::spawn(move || {
                tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .unwrap()
                    .block_on(drop_schema(&url, &schema));
            })
            .join();
        }
    }
}

#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl From<loopback::Response> for Reply {
    fn from(response: loopback::Response) -> Reply {
        Reply {
            status: response.status,
            headers: response.headers,
            body: response.body,
        }
    }
}

impl Reply {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn set_cookies(&self) -> Vec<&str> {
        self.headers
            .iter()
            .filter(|(k, _)| k == "set-cookie")
            .map(|(_, v)| v.as_str())
            .collect()
    }

    pub fn set_cookie(&self, name: &str) -> Option<&str> {
        self.set_cookies()
            .into_iter()
            .find(|c| c.starts_with(&format!("{name}=")))
    }

    /// The error's field names, from the one error shape.
    pub fn error_fields(&self) -> Vec<String> {
        let j = self.json();
        j["error"]["fields"]
            .as_object()
            .map(|o| o.keys().cloned().collect())
            .unwrap_or_default()
    }

    pub fn error_message(&self) -> String {
        self.json()["error"]["message"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    }
}

/// A browser: keeps cookies, sends same-origin fetch metadata and JSON like the islands do.
#[derive(Clone)]
pub struct Browser {
    pub addr: SocketAddr,
    pub cookies: BTreeMap<String, String>,
    pub host: String,
    /// The shop this browser talks to: its outbox stands in for the shopper's mailbox.
    pub shop: AppState,
    /// The loopback address it connects from (127.0.0.1 when None): another one is another
    /// client to the API's per-address limits.
    pub from: Option<std::net::IpAddr>,
}

impl Browser {
    /// The `token=` of the one email of `kind` to `to` in the shop's outbox.
    pub async fn mailed_token(&self, to: &str, kind: &str) -> String {
        let tokens = self.mailed_tokens(to, kind).await;
        assert_eq!(tokens.len(), 1, "{kind} emails to {to}");
        tokens[0].clone()
    }

    /// The `token=` of every email of `kind` to `to` in the shop's outbox, in no order (the
    /// outbox's clock counts seconds).
    pub async fn mailed_tokens(&self, to: &str, kind: &str) -> Vec<String> {
        let bodies: Vec<String> =
            sqlx::query_scalar("SELECT body FROM outbox WHERE recipient = $1 AND kind = $2")
                .bind(to)
                .bind(kind)
                .fetch_all(self.shop.db().pool())
                .await
                .unwrap();
        bodies
            .iter()
            .map(|body| body.split("token=").nth(1).unwrap()[..64].to_string())
            .collect()
    }

    pub async fn get(&mut self, path: &str) -> Reply {
        self.send("GET", path, None, &[]).await
    }

    pub async fn post(&mut self, path: &str, body: Value) -> Reply {
        self.send("POST", path, Some(body.to_string().into_bytes()), &[])
            .await
    }

    pub async fn put(&mut self, path: &str, body: Value) -> Reply {
        self.send("PUT", path, Some(body.to_string().into_bytes()), &[])
            .await
    }

    pub async fn delete(&mut self, path: &str) -> Reply {
        self.send("DELETE", path, None, &[]).await
    }

    /// Sends a request. JSON content type and `Sec-Fetch-Site: same-origin` are added unless
    /// `extra` sets those headers itself.
    pub async fn send(
        &mut self,
        method: &str,
        path: &str,
        body: Option<Vec<u8>>,
        extra: &[(&str, &str)],
    ) -> Reply {
        let has = |name: &str| extra.iter().any(|(k, _)| k.eq_ignore_ascii_case(name));
        let mut request = loopback::Request::new(method, path);
        if body.is_some() && !has("content-type") {
            request = request.header("Content-Type", "application/json");
        }
        if method != "GET" && !has("sec-fetch-site") && !has("origin") {
            request = request.header("Sec-Fetch-Site", "same-origin");
        }
        request = request.headers(extra);
        if !self.cookies.is_empty() {
            let c: Vec<String> = self
                .cookies
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            request = request.header("Cookie", &c.join("; "));
        }
        let request = request.body(body.unwrap_or_default());
        let stream = match self.from {
            None => tokio::net::TcpStream::connect(self.addr).await.unwrap(),
            Some(ip) => {
                let socket = tokio::net::TcpSocket::new_v4().unwrap();
                socket.bind(SocketAddr::new(ip, 0)).unwrap();
                socket.connect(self.addr).await.unwrap()
            }
        };
        let reply = Reply::from(request.send_over(stream, &self.host).await.unwrap());
        let local = self.host.starts_with("127.0.0.1") || self.host.starts_with("localhost");
        for c in reply.set_cookies() {
            assert_cookie_flags(c, local);
        }
        for c in reply.set_cookies() {
            let pair = c.split(';').next().unwrap();
            let (k, v) = pair.split_once('=').unwrap();
            if c.contains("Max-Age=0") {
                self.cookies.remove(k);
            } else {
                self.cookies.insert(k.to_string(), v.to_string());
            }
        }
        reply
    }
}

/// Every Set-Cookie the API sends, in every test: SameSite=Lax, Path=/, a Max-Age, HttpOnly on all
/// but the UI hint `user-authenticated`, and Secure exactly when not on plain-http localhost.
pub fn assert_cookie_flags(cookie: &str, localhost: bool) {
    let attrs: Vec<&str> = cookie.split(';').map(str::trim).collect();
    let name = attrs[0].split('=').next().unwrap();
    assert!(
        [
            "sf_session",
            "user-authenticated",
            "sf_cart_uk",
            "sf_cart_us",
            "sf_cart_eu",
            "sf_guest",
            "sf_device"
        ]
        .contains(&name),
        "unexpected cookie {cookie}"
    );
    assert!(attrs.contains(&"SameSite=Lax"), "{cookie}");
    assert!(attrs.contains(&"Path=/"), "{cookie}");
    assert!(attrs.iter().any(|a| a.starts_with("Max-Age=")), "{cookie}");
    assert_eq!(
        attrs.contains(&"HttpOnly"),
        name != "user-authenticated",
        "{cookie}"
    );
    assert_eq!(attrs.contains(&"Secure"), !localhost, "{cookie}");
    if name == "user-authenticated" {
        assert!(
            attrs[0] == "user-authenticated=1" || attrs[0] == "user-authenticated=0",
            "{cookie}"
        );
        assert!(attrs.contains(&"Max-Age=604800"), "{cookie}");
    }
}

/// Registers a customer and opens the confirmation link emailed to them in `browser`, which
/// creates the account and signs in: answers the confirmation's reply.
pub async fn register(browser: &mut Browser, email: &str, password: &str) -> Reply {
    register_with(
        browser,
        serde_json::json!({
            "email": email, "password": password, "first_name": "Ada", "last_name": "Lovelace",
            "title": "Ms", "preferenceEmail": true
        }),
    )
    .await
}

/// `register` with a registration payload of the test's own (its `email` must be lower case).
pub async fn register_with(browser: &mut Browser, registration: Value) -> Reply {
    let r = browser
        .post("/api/auth/register", registration.clone())
        .await;
    assert_eq!(r.status, 202, "{}", String::from_utf8_lossy(&r.body));
    let email = registration["email"].as_str().unwrap().trim();
    let token = browser.mailed_token(email, "account_confirmation").await;
    let r = browser
        .post(
            "/api/auth/register/confirm",
            serde_json::json!({ "token": token }),
        )
        .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    r
}

pub async fn login(browser: &mut Browser, email: &str, password: &str) -> Reply {
    browser
        .post(
            "/api/auth/login",
            serde_json::json!({"email": email, "password": password}),
        )
        .await
}

pub fn line(product: u64, variant: u64, quantity: i64) -> Value {
    serde_json::json!({"line_items": [{"product_id": product, "variant_id": variant, "quantity": quantity}]})
}
