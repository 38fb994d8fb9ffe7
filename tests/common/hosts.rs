//! Several real `storefront` processes on one PostgreSQL schema: starting and killing them,
//! reading their logs, the loopback round-robin proxy in front of them, and a cookie-keeping HTTP
//! client that opens a connection per request.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub const CATALOG_SECRET: &str = "catalog-secret";

/// A `storefront` process, killed when the test ends however it ends.
pub struct Process {
    pub child: Child,
    log: PathBuf,
}

impl Process {
    /// Runs `storefront {args}` from the repository with only the catalog webhook secret and
    /// `env` in its environment, its output in `{dir}/{name}.log`.
    pub fn start(dir: &Path, name: &str, args: &[&str], env: &[(&str, &str)]) -> Process {
        let log = dir.join(format!("{name}.log"));
        let out = std::fs::File::create(&log).unwrap();
        let child = Command::new(env!("CARGO_BIN_EXE_storefront"))
            .current_dir(super::repo())
            .env_clear()
            .env("API_CATALOG_WEBHOOK_SECRET", CATALOG_SECRET)
            .envs(env.iter().copied())
            .args(args)
            .stdout(out.try_clone().unwrap())
            .stderr(out)
            .stdin(Stdio::null())
            .spawn()
            .unwrap();
        Process { child, log }
    }

    /// `storefront serve` of `export` with its own cache and output under `dir`.
    pub fn serve(
        dir: &Path,
        name: &str,
        addr: &str,
        export: &Path,
        database_url: &str,
        env: &[(&str, &str)],
    ) -> Process {
        let cache = dir.join(format!("{name}-cache"));
        let public = dir.join(format!("{name}-public"));
        let (export, cache, public) = (path(export), path(&cache), path(&public));
        Process::start(
            dir,
            name,
            &[
                "serve",
                "--addr",
                addr,
                "--export",
                &export,
                "--cache",
                &cache,
                "--out",
                &public,
                "--database-url",
                database_url,
            ],
            env,
        )
    }

    pub fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Waits until the log says `what`.
    pub async fn wait_for_log(&self, what: &str) {
        let deadline = Instant::now() + Duration::from_secs(180);
        while !self.log().contains(what) {
            assert!(Instant::now() < deadline, "no {what:?} in:\n{}", self.log());
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Waits until `addr` answers `path` with 200.
    pub async fn wait_for_200(&self, addr: &str, path: &str) {
        let deadline = Instant::now() + Duration::from_secs(180);
        while status(addr, path).await != Some(200) {
            assert!(
                Instant::now() < deadline,
                "no 200 for {path}:\n{}",
                self.log()
            );
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn path(p: &Path) -> String {
    p.display().to_string()
}

/// A free loopback address.
pub fn free_addr() -> String {
    let probe = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    probe.local_addr().unwrap().to_string()
}

/// The status `addr` answers a GET of `path` with, or None when nothing listens.
pub async fn status(addr: &str, path: &str) -> Option<u16> {
    loopback::request(addr, "GET", path, &[], b"")
        .await
        .ok()
        .map(|(status, _)| status)
}

/// A fresh PostgreSQL schema with the API's tables, and the URL that puts a process in it.
pub struct Schema {
    pub db: api::store::Db,
    pub name: String,
    pub url: String,
}

impl Schema {
    pub async fn create() -> Schema {
        let base = std::env::var("TEST_POSTGRES_URL")
            .expect("TEST_POSTGRES_URL: these tests run several hosts on one PostgreSQL");
        let name = format!("t_{}", api::store::random_id(8));
        let db = api::store::Db::connect_in_schema(&base, Some(&name))
            .await
            .unwrap();
        let sep = if base.contains('?') { '&' } else { '?' };
        let url = format!("{base}{sep}options=-c%20search_path%3D{name}");
        Schema { db, name, url }
    }

    pub async fn drop(self) {
        let sql = format!("DROP SCHEMA IF EXISTS \"{}\" CASCADE", self.name);
        sqlx::query(sqlx::AssertSqlSafe(sql))
            .execute(self.db.pool())
            .await
            .unwrap();
        self.db.close().await;
    }
}

/// The round-robin proxy of the `loopback` crate in front of `backends`; answers its address.
pub async fn round_robin(backends: &[String]) -> String {
    let backends = backends.iter().map(|b| b.parse().unwrap()).collect();
    loopback::round_robin_proxy(backends)
        .await
        .unwrap()
        .to_string()
}

/// A shopper's browser: one request per connection (so through the proxy each request may reach
/// another host), cookies kept, same-origin fetch metadata and JSON like the islands send.
pub struct Browser {
    pub addr: String,
    pub cookies: BTreeMap<String, String>,
}

impl Browser {
    pub fn new(addr: &str) -> Browser {
        Browser {
            addr: addr.to_string(),
            cookies: BTreeMap::new(),
        }
    }

    /// Sends a request; answers the status and the JSON body (Null when it is not JSON).
    pub async fn send(
        &mut self,
        method: &str,
        path: &str,
        body: Option<serde_json::Value>,
    ) -> (u16, serde_json::Value) {
        self.send_with(method, path, body, &[]).await
    }

    /// Sends a request with `extra` headers (an `Idempotency-Key`, say).
    pub async fn send_with(
        &mut self,
        method: &str,
        path: &str,
        body: Option<serde_json::Value>,
        extra: &[(&str, &str)],
    ) -> (u16, serde_json::Value) {
        let body = body.map(|b| b.to_string()).unwrap_or_default();
        let cookies: Vec<String> = self
            .cookies
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        let cookie = cookies.join("; ");
        let mut headers = vec![("Sec-Fetch-Site", "same-origin")];
        if !body.is_empty() {
            headers.push(("Content-Type", "application/json"));
        }
        if !cookie.is_empty() {
            headers.push(("Cookie", &cookie));
        }
        headers.extend_from_slice(extra);
        let addr = self.addr.parse().unwrap();
        let reply = super::raw_request(addr, method, path, &headers, body.as_bytes()).await;
        for (name, value) in &reply.headers {
            let pair = value.split(';').next().and_then(|c| c.split_once('='));
            if let (true, Some((k, v))) = (name == "set-cookie", pair) {
                self.cookies.insert(k.to_string(), v.to_string());
            }
        }
        let json = serde_json::from_slice(&reply.body).unwrap_or(serde_json::Value::Null);
        (reply.status, json)
    }
}
