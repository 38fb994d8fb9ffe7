//! Webhook-driven rebuilds end to end: the site server reading through the rebuild daemon's view,
//! the API on the same origin receiving signed webhooks, and a crawler requesting every file while
//! 20 rebuilds run, some made to fail (an invalid product). The crawler must see no errors, every
//! good rebuild must be served, every failed one must leave the live tree exactly as it was, and a
//! burst of 100 deliveries must make one rebuild.

mod common;

use common::*;
use export::source::LocalExport;
use live_site::rebuild::{Daemon, Timing};
use live_site::site_server::{SiteFiles, router_over};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

const CONTENT_SECRET: &str = "content-secret";
const CATALOG_SECRET: &str = "catalog-secret";
const ADMIN: &str = "admin";
const PRODUCT: u64 = 101;
const ABOUT_US: &str = "49ef9da8-baa5-450c-8a40-d8f571e0eb03";

async fn request(
    addr: std::net::SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> (u16, String) {
    loopback::request(addr, method, path, headers, body)
        .await
        .unwrap()
}

fn manifest_paths(site: &Site) -> Vec<String> {
    let m: Value = serde_json::from_slice(
        &std::fs::read(site.dir.path().join("cache/build-manifest.json")).unwrap(),
    )
    .unwrap();
    m["files"].as_object().unwrap().keys().cloned().collect()
}

fn url_of(rel: &str) -> String {
    match rel.strip_suffix("index.html") {
        Some(dir) => format!("/{dir}"),
        None => format!("/{rel}"),
    }
}

struct Harness {
    site: Site,
    daemon: Daemon,
    addr: std::net::SocketAddr,
}

async fn start() -> Harness {
    let site = copied_sample();
    let timing = Timing {
        // Compaction kicks in between rebuilds too, so the crawler also crosses it.
        compact_after: Duration::from_millis(300),
        ..Timing::default()
    };
    let daemon = Daemon::start(
        site.options(),
        Box::new(LocalExport::new(site.export.clone())),
        timing,
        Box::new(|_| {}),
    )
    .unwrap();
    let mut config = api::Config::new(
        format!("sqlite://{}", site.dir.path().join("api.db").display()),
        site.export.clone(),
    );
    config.watch_interval = None;
    config.content_webhook_secret = Some(CONTENT_SECRET.into());
    config.catalog_webhook_secret = Some(CATALOG_SECRET.into());
    config.admin_token = Some(ADMIN.into());
    let api_state = api::AppState::open(config).await.unwrap();
    assert!(api_state.webhooks().attach(Arc::new(daemon.clone())));
    let app = router_over(SiteFiles::View(daemon.view()), api_state);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    Harness { site, daemon, addr }
}

async fn wait_for_rebuilds(daemon: &Daemon, count: usize) {
    let deadline = Instant::now() + Duration::from_secs(120);
    while daemon.history().len() < count.min(20) || daemon.history()[0].id < count as u64 {
        assert!(Instant::now() < deadline, "rebuild {count} did not finish");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn catalog_event(product: u64, at: u64) -> Vec<u8> {
    serde_json::to_vec(&json!({
        "scope": "store/product/updated", "store_id": "1",
        "data": {"type": "product", "id": product}, "created_at": at
    }))
    .unwrap()
}

/// Every file of the live tree, by content, as served.
async fn served_tree(addr: std::net::SocketAddr, paths: &[String]) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for rel in paths {
        let (status, body) = request(addr, "GET", &url_of(rel), &[], b"").await;
        out.insert(
            rel.clone(),
            format!("{status}:{}", blake3::hash(body.as_bytes())),
        );
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn crawler_sees_no_errors_during_twenty_rebuilds_some_failing() {
    let h = start().await;
    let paths = manifest_paths(&h.site);
    assert!(
        paths.len() > 100,
        "the sample site has {} files",
        paths.len()
    );
    let product_page = paths
        .iter()
        .find(|p| p.starts_with(&format!("p/{PRODUCT}/")) && p.ends_with("index.html"))
        .cloned()
        .expect("the product has a page");
    let about_page = "about-us/index.html".to_string();
    assert!(paths.contains(&about_page));

    let stop = Arc::new(AtomicBool::new(false));
    let requests = Arc::new(AtomicUsize::new(0));
    let mut crawlers = Vec::new();
    for worker in 0..3 {
        let (paths, stop, requests, addr) = (paths.clone(), stop.clone(), requests.clone(), h.addr);
        crawlers.push(tokio::spawn(async move {
            let mut errors = Vec::new();
            let mut i = worker * 7;
            while !stop.load(Ordering::Relaxed) {
                let rel = &paths[i % paths.len()];
                let (status, _) = request(addr, "GET", &url_of(rel), &[], b"").await;
                requests.fetch_add(1, Ordering::Relaxed);
                if status != 200 {
                    errors.push(format!("{status} {rel}"));
                }
                i += 1;
            }
            errors
        }));
    }

    let mut expected_ok = 0;
    for round in 1..=20u64 {
        let fail = round % 4 == 0;
        let marker = format!("crawl-marker-{round}");
        let before = if fail {
            Some((
                served_tree(h.addr, &paths).await,
                std::fs::read_link(h.site.public()).unwrap(),
                h.daemon.view().read().unwrap().clone(),
            ))
        } else {
            None
        };
        let (status, body) = if round % 2 == 1 || fail {
            edit_json(&h.site.export, "catalog/products.json", |doc| {
                let p = doc["data"]
                    .as_array_mut()
                    .unwrap()
                    .iter_mut()
                    .find(|p| p["id"] == PRODUCT)
                    .unwrap();
                p["description"] = json!(format!("<p>{marker}</p>"));
                if fail {
                    p["variants"][0]["option_values"][0]["id"] = json!(999_999);
                }
            });
            request(
                h.addr,
                "POST",
                "/api/webhooks/catalog",
                &[("X-Webhook-Secret", CATALOG_SECRET)],
                &catalog_event(PRODUCT, round),
            )
            .await
        } else {
            edit_json(&h.site.export, "content/uk.json", |doc| {
                let item = doc["responses"]
                    .as_array_mut()
                    .unwrap()
                    .iter_mut()
                    .find(|r| r["content"]["_meta"]["deliveryId"] == ABOUT_US)
                    .unwrap();
                item["content"]["pageTitle"] = json!(marker.clone());
            });
            let event = serde_json::to_vec(&json!({
                "name": "dynamic-content.content-item.updated",
                "payload": {"id": ABOUT_US, "version": round}
            }))
            .unwrap();
            let sig = api::webhooks::signature::sign(CONTENT_SECRET.as_bytes(), &event);
            request(
                h.addr,
                "POST",
                "/api/webhooks/content",
                &[("X-Amplience-Webhook-Signature", &sig)],
                &event,
            )
            .await
        };
        assert_eq!(status, 202, "round {round}: {body}");
        wait_for_rebuilds(&h.daemon, round as usize).await;
        let last = h.daemon.history()[0].clone();
        if let Some((tree, link, view)) = before {
            assert!(!last.ok, "round {round} should fail");
            let error = last.error.clone().unwrap();
            assert!(
                error.contains("product 101") && error.contains("999999"),
                "the error names the item and value: {error}"
            );
            assert!(Arc::ptr_eq(&view, &h.daemon.view().read().unwrap().clone()));
            assert_eq!(std::fs::read_link(h.site.public()).unwrap(), link);
            assert_eq!(
                served_tree(h.addr, &paths).await,
                tree,
                "live tree unchanged"
            );
            // Repair the export; the next round's change goes through.
            edit_json(&h.site.export, "catalog/products.json", |doc| {
                let p = doc["data"]
                    .as_array_mut()
                    .unwrap()
                    .iter_mut()
                    .find(|p| p["id"] == PRODUCT)
                    .unwrap();
                let good = p["variants"][1]["option_values"][0]["id"].clone();
                p["variants"][0]["option_values"][0]["id"] = good;
            });
        } else {
            expected_ok += 1;
            assert!(last.ok, "round {round}: {:?}", last.error);
            assert!(last.written > 0 && last.stale.is_empty(), "{last:?}");
            let page = if round % 2 == 1 {
                &product_page
            } else {
                &about_page
            };
            let (status, html) = request(h.addr, "GET", &url_of(page), &[], b"").await;
            assert_eq!(status, 200);
            assert!(
                html.contains(&marker),
                "round {round}: {page} shows the change"
            );
        }
    }
    stop.store(true, Ordering::Relaxed);
    let mut errors = Vec::new();
    for c in crawlers {
        errors.extend(c.await.unwrap());
    }
    assert!(
        requests.load(Ordering::Relaxed) > paths.len(),
        "the crawler covered the site"
    );
    assert_eq!(errors, Vec::<String>::new(), "crawler errors");
    let history = h.daemon.history();
    assert_eq!(history.iter().filter(|s| s.ok).count(), expected_ok);

    // The status endpoint reports the same, to the operator only.
    let (status, _) = request(h.addr, "GET", "/api/webhooks/status", &[], b"").await;
    assert_eq!(status, 401);
    let (status, body) = request(
        h.addr,
        "GET",
        "/api/webhooks/status",
        &[("Authorization", &format!("Bearer {ADMIN}"))],
        b"",
    )
    .await;
    assert_eq!(status, 200);
    let rebuilds: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(rebuilds["rebuilds"][0]["id"], 20);
    assert_eq!(rebuilds["rebuilds"][0]["ok"], false);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_burst_of_one_hundred_deliveries_makes_one_rebuild() {
    let h = start().await;
    edit_json(&h.site.export, "catalog/products.json", |doc| {
        doc["data"][0]["description"] = json!("<p>burst</p>");
    });
    let first = doc_first_product(&h.site);
    let sends: Vec<_> = (0..100u64)
        .map(|i| {
            let addr = h.addr;
            tokio::spawn(async move {
                request(
                    addr,
                    "POST",
                    "/api/webhooks/catalog",
                    &[("X-Webhook-Secret", CATALOG_SECRET)],
                    &catalog_event(first, 1000 + i),
                )
                .await
                .0
            })
        })
        .collect();
    for s in sends {
        assert_eq!(s.await.unwrap(), 202);
    }
    wait_for_rebuilds(&h.daemon, 1).await;
    // Long enough for a second rebuild to show if the burst had been split.
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let history = h.daemon.history();
    assert_eq!(history.len(), 1, "{history:?}");
    assert_eq!(history[0].deliveries, 100);
    assert!(history[0].ok);
}

fn doc_first_product(site: &Site) -> u64 {
    let doc: Value =
        serde_json::from_slice(&std::fs::read(site.export.join("catalog/products.json")).unwrap())
            .unwrap();
    doc["data"][0]["id"].as_u64().unwrap()
}

/// Restart timing: failed start-up builds are retried quickly.
fn restart_timing() -> Timing {
    Timing {
        start_retry: Duration::from_millis(100),
        ..Timing::default()
    }
}

fn served_generations(daemon: &Daemon) -> Vec<String> {
    daemon.view().read().unwrap().generation_names()
}

fn wait_until(what: &str, done: impl Fn() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !done() {
        assert!(Instant::now() < deadline, "timed out waiting until {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_restart_serves_the_last_good_site_at_once_and_builds_behind_it() {
    let site = copied_sample();
    site.build().unwrap();
    let last_good = served_generations_of(&site);
    edit_json(&site.export, "catalog/products.json", |d| {
        d["data"][0]["description"] = json!("<p>Changed while the server was down.</p>");
    });
    let daemon = Daemon::start_behind_last_good(
        site.options(),
        Box::new(LocalExport::new(site.export.clone())),
        restart_timing(),
        Box::new(|_| {}),
    )
    .unwrap();
    assert_eq!(
        served_generations(&daemon),
        last_good,
        "the last good site is served before the start-up build finishes"
    );
    wait_until("the start-up build is live", || {
        daemon.history().first().is_some_and(|s| s.ok)
    });
    assert_ne!(served_generations(&daemon), last_good);
    assert!(daemon.history()[0].written > 0);
}

#[test]
fn a_restart_with_an_export_that_cannot_build_serves_the_last_good_site_and_keeps_trying() {
    use api::webhooks::ChangeSink;
    let site = copied_sample();
    site.build().unwrap();
    let last_good = served_generations_of(&site);
    let products = site.export.join("catalog/products.json");
    let good = std::fs::read(&products).unwrap();
    edit_json(&site.export, "catalog/products.json", |d| {
        d["data"][0]["name"] = json!("");
    });
    let daemon = Daemon::start_behind_last_good(
        site.options(),
        Box::new(LocalExport::new(site.export.clone())),
        restart_timing(),
        Box::new(|_| {}),
    )
    .expect("a restart does not stop on an invalid export");
    assert_eq!(served_generations(&daemon), last_good);
    wait_until("the status reports the export's problem", || {
        daemon
            .status()
            .to_string()
            .contains("catalog/products.json")
    });
    let failed = daemon.history();
    assert!(!failed[0].ok);
    assert!(
        failed[0]
            .error
            .as_deref()
            .unwrap()
            .contains(": name: must not be empty")
    );
    assert_eq!(
        served_generations(&daemon),
        last_good,
        "still the last good site"
    );

    // Fixed on disk (say by the next import): a later attempt builds it.
    std::fs::write(&products, good).unwrap();
    wait_until("a retry succeeds", || {
        daemon.history().first().is_some_and(|s| s.ok)
    });
    assert!(daemon.status().to_string().contains("\"ok\":true"));
}

/// The generations the site's manifest describes as live.
fn served_generations_of(site: &Site) -> Vec<String> {
    let dirs = generator::output::OutputDirs {
        public: site.public(),
        cache: site.dir.path().join("cache"),
    };
    generator::LiveView::load(&dirs).unwrap().generation_names()
}
