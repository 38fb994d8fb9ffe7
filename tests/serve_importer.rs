//! `storefront serve` with the source APIs configured, as an operator runs it: the binary, the
//! importer's environment pointing at the local fake of the catalog and content APIs, a first
//! import when there is none, then signed catalog webhooks over loopback HTTP. A webhook for a
//! product the source still serves unchanged is refetched on the daemon's stale-retry schedule
//! and reported as stale; once the source's price changes, the next webhook puts the new price
//! on the live page and into content-cache/export for the next full build.

#[path = "../importer/tests/fake_source/mod.rs"]
mod fake_source;

use fake_source::FakeSource;
use serde_json::{Value, json};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CATALOG_SECRET: &str = "catalog-secret";
const ADMIN: &str = "admin";
const PRODUCT: u64 = 101;
/// The sample's UK about-us page, and a virtual staging host.
const ABOUT_US: &str = "49ef9da8-baa5-450c-8a40-d8f571e0eb03";
const STAGING: &str = "kuifkfmrgfsv1qjgkpfz8mhnk.staging.bigcontent.io";
/// The daemon's default stale-retry waits (live_site::rebuild::Timing::default()).
const STALE_WAITS_MS: [u64; 4] = [100, 200, 400, 800];

/// Kills the server when the test ends, however it ends.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

async fn request(
    addr: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Option<(u16, String)> {
    loopback::request(addr, method, path, headers, body)
        .await
        .ok()
}

fn catalog_event(product: u64, at: u64) -> Vec<u8> {
    serde_json::to_vec(&json!({
        "scope": "store/product/updated", "store_id": "1",
        "data": {"type": "product", "id": product}, "created_at": at
    }))
    .unwrap()
}

async fn send_webhook(addr: &str, at: u64) {
    let (status, body) = request(
        addr,
        "POST",
        "/api/webhooks/catalog",
        &[("X-Webhook-Secret", CATALOG_SECRET)],
        &catalog_event(PRODUCT, at),
    )
    .await
    .expect("the webhook is answered");
    assert_eq!(status, 202, "{body}");
}

/// Waits for rebuild `id` and returns its status entry.
async fn rebuild(addr: &str, id: u64) -> Value {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let auth = format!("Bearer {ADMIN}");
        if let Some((200, body)) = request(
            addr,
            "GET",
            "/api/webhooks/status",
            &[("Authorization", &auth)],
            b"",
        )
        .await
        {
            let status: Value = serde_json::from_str(&body).unwrap();
            if let Some(r) = status["rebuilds"]
                .as_array()
                .and_then(|rs| rs.iter().find(|r| r["id"] == id))
            {
                return r.clone();
            }
        }
        assert!(Instant::now() < deadline, "rebuild {id} did not finish");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The fake's product requests that asked for `PRODUCT` by id, with their times.
fn product_fetches(fake: &FakeSource) -> Vec<Instant> {
    fake.log()
        .into_iter()
        .filter(|l| {
            l.target.starts_with(&format!(
                "/stores/{}/v3/catalog/products?id:in={PRODUCT}&",
                fake_source::STORE_HASH
            ))
        })
        .map(|l| l.at)
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_rebuilds_from_the_source_apis_with_stale_retries_and_keeps_the_fresh_price() {
    let fake = FakeSource::start().await;
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("content-cache");
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let addr = {
        let probe = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        probe.local_addr().unwrap().to_string()
    };
    let log = std::fs::File::create(dir.path().join("serve.log")).unwrap();
    let server = Server(
        Command::new(env!("CARGO_BIN_EXE_storefront"))
            .current_dir(repo)
            .env_clear()
            .envs(fake.env())
            .env("API_CATALOG_WEBHOOK_SECRET", CATALOG_SECRET)
            .env("API_ADMIN_TOKEN", ADMIN)
            .args(["serve", "--addr", &addr, "--cache"])
            .arg(&cache)
            .arg("--out")
            .arg(dir.path().join("public"))
            .arg("--netlify")
            .arg(repo.join("netlify.toml"))
            .arg("--templates")
            .arg(repo.join("site-src/templates"))
            .arg("--bundles")
            .arg(repo.join("site-src/dist"))
            .arg("--database-url")
            .arg(format!(
                "sqlite://{}",
                dir.path().join("serve.db").display()
            ))
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .stdin(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let log_text = || std::fs::read_to_string(dir.path().join("serve.log")).unwrap_or_default();
    let deadline = Instant::now() + Duration::from_secs(240);
    loop {
        if let Some((200, _)) = request(&addr, "GET", "/", &[], b"").await {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "serve did not start:\n{}",
            log_text()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let started = log_text();
    assert!(
        started.contains("importing from the source APIs first")
            && started.contains("imported 72 products"),
        "{started}"
    );
    assert!(
        cache.join("export/catalog/products.json").is_file(),
        "the first import is in content-cache/export"
    );

    // The US product page and its price before any change.
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(cache.join("build-manifest.json")).unwrap()).unwrap();
    let page = manifest["files"]
        .as_object()
        .unwrap()
        .keys()
        .find(|p| p.starts_with(&format!("us/p/{PRODUCT}/")) && p.ends_with("index.html"))
        .map(|p| format!("/{}", p.trim_end_matches("index.html")))
        .expect("the US page of the product");
    let (status, before) = request(&addr, "GET", &page, &[], b"").await.unwrap();
    assert_eq!(status, 200);
    assert!(!before.contains("111.00"), "the new price is not there yet");

    // 1. The source still serves the old version: refetched after each stale wait, then built
    // anyway and reported as stale.
    let imported = std::fs::read_link(cache.join("export")).unwrap();
    fake.clear_log();
    send_webhook(&addr, 1).await;
    let first = rebuild(&addr, 1).await;
    assert_eq!(first["ok"], true, "{first}");
    assert_eq!(
        first["stale"],
        json!([{"kind": "product", "id": PRODUCT}]),
        "{first}"
    );
    let fetches = product_fetches(&fake);
    assert_eq!(
        fetches.len(),
        1 + STALE_WAITS_MS.len(),
        "one fetch and one per stale retry"
    );
    for (i, wait) in STALE_WAITS_MS.iter().enumerate() {
        let gap = fetches[i + 1].duration_since(fetches[i]);
        assert!(
            gap >= Duration::from_millis(*wait),
            "retry {} came {gap:?} after the previous fetch, before its {wait} ms wait",
            i + 1
        );
    }

    assert_eq!(
        std::fs::read_link(cache.join("export")).unwrap(),
        imported,
        "nothing new to keep"
    );

    // 2. The platform's US price list changes: the next webhook fetches it, the page shows it.
    let variants: Vec<u64> = {
        let products: Value = serde_json::from_slice(
            &std::fs::read(cache.join("export/catalog/products.json")).unwrap(),
        )
        .unwrap();
        products["data"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["id"] == PRODUCT)
            .unwrap()["variants"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v["id"].as_u64().unwrap())
            .collect()
    };
    fake.edit(|data| {
        for list in data.price_lists.values_mut() {
            for record in list.iter_mut() {
                let variant = record["variant_id"].as_u64().unwrap();
                if record["currency"] == "USD" && variants.contains(&variant) {
                    record["price"] = json!(111.0);
                    record["sale_price"] = json!(0);
                }
            }
        }
    });
    fake.clear_log();
    send_webhook(&addr, 2).await;
    let second = rebuild(&addr, 2).await;
    assert_eq!(second["ok"], true, "{second}");
    assert_eq!(second["stale"], json!([]), "{second}");
    assert!(second["written"].as_u64().unwrap() > 0, "{second}");
    assert_eq!(second["keep_error"], Value::Null, "{second}");
    assert_eq!(product_fetches(&fake).len(), 1, "fresh at the first fetch");
    let (status, after) = request(&addr, "GET", &page, &[], b"").await.unwrap();
    assert_eq!(status, 200);
    assert!(after.contains("111.00"), "the US page shows the new price");
    // Only the changed items were fetched, not the whole catalog.
    assert!(
        fake.log().iter().all(|l| l.target.contains("id:in=")
            || l.target.contains("variant_id:in=")
            || l.target.contains("/pricelists/assignments")),
        "{:?}",
        fake.log().iter().map(|l| &l.target).collect::<Vec<_>>()
    );

    // 3. The fresh price is kept in the export the next full build reads.
    assert_ne!(
        std::fs::read_link(cache.join("export")).unwrap(),
        imported,
        "a new import generation holds the fetched items"
    );
    let prices: Value = serde_json::from_slice(
        &std::fs::read(cache.join("export/catalog/price-lists.json")).unwrap(),
    )
    .unwrap();
    let usd: Vec<&Value> = prices["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["currency"] == "USD" && variants.contains(&r["variant_id"].as_u64().unwrap()))
        .collect();
    assert_eq!(usd.len(), variants.len());
    assert!(
        usd.iter()
            .all(|r| r["price"] == json!(111.0) && r["sale_price"].is_null()),
        "{usd:?}"
    );
    let loaded = export::load_export(&cache.join("export"));
    assert!(
        loaded.is_ok(),
        "the kept export is valid: {:?}",
        loaded.err()
    );

    // 4. Content preview fetches from the virtual staging host: its unpublished version of the
    // about-us page, with editor code the live site does not have, while the live page and any
    // other staging host show what is published.
    let script = "document.body.setAttribute('data-staged', 'yes');";
    fake.edit(|data| {
        let mut staged = data
            .content
            .iter()
            .find(|i| i["_meta"]["deliveryId"] == ABOUT_US)
            .unwrap()
            .clone();
        staged["content"].as_array_mut().unwrap().extend([
            json!({"_meta": {"schema": "https://schema.maisonlark.example/text-box-2"},
                   "heading": "Staged heading", "body": "Only on the staging host."}),
            json!({"_meta": {"schema": "https://schema.maisonlark.example/holy-hand-grenade"},
                   "html": "<p>staged code</p>", "javascript": script}),
        ]);
        data.staging.insert(STAGING.into(), vec![staged]);
    });
    fake.clear_log();
    let preview = format!("/amplience-visualization/{STAGING}/{ABOUT_US}");
    let (status, staged) = request(&addr, "GET", &preview, &[], b"").await.unwrap();
    assert_eq!(status, 200, "{staged}");
    assert!(staged.contains("Staged heading") && staged.contains("<p>staged code</p>"));
    assert!(
        fake.log().iter().any(|l| l
            .target
            .starts_with(&format!("/staging/{STAGING}/content/id/{ABOUT_US}"))),
        "fetched from the staging host: {:?}",
        fake.log().iter().map(|l| &l.target).collect::<Vec<_>>()
    );
    let code_url = domain::blocks::editor_code::code_url(script, "js");
    assert!(staged.contains(&format!("<script src=\"{code_url}\"></script>")));
    let (status, served) = request(&addr, "GET", &code_url, &[], b"").await.unwrap();
    assert_eq!(
        (status, served.as_str()),
        (200, script),
        "the previewed code is served"
    );
    let (_, live) = request(&addr, "GET", "/about-us/", &[], b"").await.unwrap();
    assert!(
        !live.contains("Staged heading"),
        "the live page is as published"
    );
    let other = format!("/amplience-visualization/other.staging.bigcontent.io/{ABOUT_US}");
    let (status, published) = request(&addr, "GET", &other, &[], b"").await.unwrap();
    assert_eq!(status, 200);
    assert!(
        !published.contains("Staged heading"),
        "another host, another version"
    );
    drop(server);
}

/// A partly configured source is an error naming what is missing, not a silent fallback to the
/// export on disk; and with the source configured, another `--export` is refused. Both before
/// anything is built or served.
#[test]
fn a_partial_source_configuration_or_another_export_is_refused_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let repo = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let serve = |env: &[(&str, &str)], extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_storefront"))
            .current_dir(repo)
            .env_clear()
            .envs(env.iter().copied())
            .args(["serve", "--addr", "127.0.0.1:0", "--cache"])
            .arg(dir.path().join("content-cache"))
            .arg("--out")
            .arg(dir.path().join("public"))
            .args(extra)
            .output()
            .unwrap()
    };
    let out = serve(&[("BIGCOMMERCE_STORE_HASH", "abc123")], &[]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("BIGCOMMERCE_ACCESS_TOKEN: is not set"),
        "{stderr}"
    );
    let out = serve(
        &[
            ("BIGCOMMERCE_STORE_HASH", "abc123"),
            ("BIGCOMMERCE_ACCESS_TOKEN", "t"),
            ("AMPLIENCE_HUB", "hub"),
        ],
        &["--export", "fixtures/sample"],
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("--export fixtures/sample") && stderr.contains("content-cache/export"),
        "{stderr}"
    );
    assert!(!dir.path().join("public").exists(), "nothing was built");
}
