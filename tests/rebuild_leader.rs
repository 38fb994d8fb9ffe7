//! Two `storefront serve` processes on one PostgreSQL: the first takes the rebuild lead and serves;
//! the second stands by (it neither builds nor listens); killing the leader hands the lead over,
//! and the stand-by builds, serves and takes webhooks. Needs TEST_POSTGRES_URL (CI has it).

use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CATALOG_SECRET: &str = "catalog-secret";

/// Kills the server when the test ends, however it ends.
struct Server {
    child: Child,
    log: PathBuf,
}

impl Server {
    fn start(repo: &Path, dir: &Path, name: &str, addr: &str, database_url: &str) -> Server {
        let log = dir.join(format!("{name}.log"));
        let out = std::fs::File::create(&log).unwrap();
        let child = Command::new(env!("CARGO_BIN_EXE_storefront"))
            .current_dir(repo)
            .env_clear()
            .env("API_CATALOG_WEBHOOK_SECRET", CATALOG_SECRET)
            .args([
                "serve",
                "--addr",
                addr,
                "--export",
                "fixtures/sample",
                "--cache",
            ])
            .arg(dir.join(format!("{name}-cache")))
            .arg("--out")
            .arg(dir.join(format!("{name}-public")))
            .args(["--database-url", database_url])
            .stdout(out.try_clone().unwrap())
            .stderr(out)
            .stdin(Stdio::null())
            .spawn()
            .unwrap();
        Server { child, log }
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Waits until the log says `what`.
    async fn wait_for_log(&self, what: &str) {
        let deadline = Instant::now() + Duration::from_secs(120);
        while !self.log().contains(what) {
            assert!(Instant::now() < deadline, "no {what:?} in:\n{}", self.log());
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_addr() -> String {
    let probe = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    probe.local_addr().unwrap().to_string()
}

async fn get_home(addr: &str) -> Option<u16> {
    storefront::loopback::request(addr, "GET", "/", &[], b"")
        .await
        .ok()
        .map(|(status, _)| status)
}

/// Waits until `addr` serves the home page.
async fn serving(server: &Server, addr: &str) {
    let deadline = Instant::now() + Duration::from_secs(180);
    while get_home(addr).await != Some(200) {
        assert!(Instant::now() < deadline, "not serving:\n{}", server.log());
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

async fn webhook(addr: &str, at: u64) -> (u16, String) {
    let body = json!({"scope": "store/product/updated", "store_id": "1",
        "data": {"type": "product", "id": 101}, "created_at": at});
    storefront::loopback::request(
        addr,
        "POST",
        "/api/webhooks/catalog",
        &[("X-Webhook-Secret", CATALOG_SECRET)],
        body.to_string().as_bytes(),
    )
    .await
    .expect("the webhook is answered")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killing_the_rebuild_leader_hands_the_lead_to_the_stand_by() {
    let url = std::env::var("TEST_POSTGRES_URL")
        .expect("TEST_POSTGRES_URL: this test runs two hosts on one PostgreSQL");
    let schema = format!("t_{}", api::store::random_id(8));
    // Creates the schema and its tables; the servers find it through their search path.
    let db = api::store::Db::connect_in_schema(&url, Some(&schema))
        .await
        .unwrap();
    let sep = if url.contains('?') { '&' } else { '?' };
    let database_url = format!("{url}{sep}options=-c%20search_path%3D{schema}");
    let dir = tempfile::tempdir().unwrap();
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (addr_a, addr_b) = (free_addr(), free_addr());

    let mut leader = Server::start(repo, dir.path(), "a", &addr_a, &database_url);
    leader
        .wait_for_log("this host leads the rebuilds and deploys")
        .await;
    serving(&leader, &addr_a).await;
    let standby = Server::start(repo, dir.path(), "b", &addr_b, &database_url);
    standby.wait_for_log("standing by until it stops").await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(
        get_home(&addr_b).await,
        None,
        "the stand-by does not listen"
    );
    assert!(!standby.log().contains("this host leads"));
    assert!(!dir.path().join("b-public").exists(), "nor build");
    assert_eq!(webhook(&addr_a, 1).await.0, 202);

    // The leader dies without a word: its connection drops and PostgreSQL frees the lock.
    let killed = Instant::now();
    leader.child.kill().unwrap();
    leader.child.wait().unwrap();
    standby
        .wait_for_log("this host leads the rebuilds and deploys")
        .await;
    let took_over = killed.elapsed();
    println!("the stand-by took the lead {took_over:?} after the kill");
    assert!(took_over < Duration::from_secs(10), "{took_over:?}");
    serving(&standby, &addr_b).await;
    let (status, body) = webhook(&addr_b, 2).await;
    assert_eq!(status, 202, "{body}");

    drop(standby);
    let drop_schema = format!("DROP SCHEMA IF EXISTS \"{schema}\" CASCADE");
    sqlx::query(sqlx::AssertSqlSafe(drop_schema))
        .execute(db.pool())
        .await
        .unwrap();
    db.close().await;
}
