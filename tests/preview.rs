//! Content preview over real HTTP: starting a preview (`?ampl_domain&ampl_timestamp` → preview
//! cookie → redirect to /), the staging-domain check, the cookie round trip (the preview bar is on
//! every page; the cookie survives navigation), and the visualisation route rendering an
//! unpublished block through the same templates, uncached, while the live page stays as published.

mod common;

use common::*;
use export::source::LocalExport;
use live_site::netlify::NetlifyConfig;
use live_site::rebuild::{Daemon, Timing};
use live_site::site_server::{SiteFiles, production_router};
use serde_json::json;
use std::sync::Arc;

const ABOUT_US: &str = "49ef9da8-baa5-450c-8a40-d8f571e0eb03";
const STAGING: &str = "kuifkfmrgfsv1qjgkpfz8mhnk.staging.bigcontent.io";

struct Reply {
    status: u16,
    head: String,
    body: String,
}

impl Reply {
    fn header(&self, name: &str) -> Option<String> {
        self.head.lines().find_map(|l| {
            let (k, v) = l.split_once(": ")?;
            k.eq_ignore_ascii_case(name).then(|| v.to_string())
        })
    }
}

async fn get(addr: std::net::SocketAddr, target: &str, cookie: Option<&str>) -> Reply {
    let mut request = loopback::Request::get(target);
    if let Some(cookie) = cookie {
        request = request.header("Cookie", cookie);
    }
    let reply = request.send(addr).await.unwrap();
    Reply {
        status: reply.status,
        head: reply.head.clone(),
        body: reply.text(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn preview_start_domain_check_cookie_and_content_route() {
    let site = copied_sample();
    let daemon = Daemon::start(
        site.options(),
        Box::new(LocalExport::new(site.export.clone())),
        Timing::default(),
        Box::new(|_| {}),
    )
    .unwrap();
    let config = Arc::new(NetlifyConfig::load(&repo().join("netlify.toml")).unwrap());
    let api_state = api::AppState::ephemeral(site.export.clone()).await.unwrap();
    let app = production_router(
        SiteFiles::View(daemon.view()),
        config,
        api_state,
        Some(daemon.clone()),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });

    // The content hub's link: netlify.toml's forced rule sends it to the API...
    let r = get(
        addr,
        &format!("/?ampl_domain={STAGING}&ampl_timestamp=1767225600000"),
        None,
    )
    .await;
    assert_eq!(r.status, 302);
    let to_api = r.header("location").unwrap();
    assert!(to_api.starts_with("/api/preview?ampl_domain="), "{to_api}");
    // ...which stores the cookie and goes home.
    let r = get(addr, &to_api, None).await;
    assert_eq!(r.status, 302, "{}", r.body);
    assert_eq!(r.header("location").as_deref(), Some("/"));
    assert_eq!(r.header("cache-control").as_deref(), Some("no-store"));
    let set_cookie = r.header("set-cookie").unwrap();
    assert!(
        set_cookie.starts_with(&format!("amplience-preview={STAGING}~1767225600000;")),
        "{set_cookie}"
    );
    assert!(set_cookie.contains("Path=/") && set_cookie.contains("SameSite=Lax"));
    assert!(!set_cookie.contains("HttpOnly"), "the preview bar reads it");
    let cookie = set_cookie.split(';').next().unwrap().to_string();
    // Clicking through: every page carries the preview bar island, which reads the cookie.
    for page in ["/", "/about-us/", "/us/"] {
        let r = get(addr, page, Some(&cookie)).await;
        assert_eq!(r.status, 200, "{page}");
        assert!(r.body.contains("data-island=\"PreviewBar\""), "{page}");
    }

    // The staging-domain check, at the start and on the preview route.
    for bad in [
        "evil.example.com",
        "staging.bigcontent.io",
        "x.staging.bigcontent.io.evil.com",
    ] {
        let r = get(
            addr,
            &format!("/api/preview?ampl_domain={bad}&ampl_timestamp=1"),
            None,
        )
        .await;
        assert_eq!(r.status, 400, "{bad}");
        assert!(
            r.body.contains("Invalid amplience staging domain"),
            "{bad}: {}",
            r.body
        );
        assert!(r.header("set-cookie").is_none());
        let r = get(
            addr,
            &format!("/amplience-visualization/{bad}/{ABOUT_US}"),
            None,
        )
        .await;
        assert_eq!(r.status, 400, "{bad}");
        assert_eq!(r.body, "Invalid amplience staging domain");
    }

    // An unpublished edit (a new text block) shows on the preview route, not on the live page.
    edit_json(&site.export, "content/uk.json", |doc| {
        let item = doc["responses"]
            .as_array_mut()
            .unwrap()
            .iter_mut()
            .find(|r| r["content"]["_meta"]["deliveryId"] == ABOUT_US)
            .unwrap();
        item["content"]["content"]
            .as_array_mut()
            .unwrap()
            .push(json!({
                "_meta": {"schema": "https://schema.maisonlark.example/text-box-2"},
                "heading": "Preview-only heading", "body": "Not published yet."
            }));
    });
    let r = get(
        addr,
        &format!("/amplience-visualization/{STAGING}/{ABOUT_US}"),
        Some(&cookie),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.header("cache-control").as_deref(), Some("no-store"));
    assert!(
        r.body.contains("Preview-only heading"),
        "the block is rendered"
    );
    assert!(r.body.contains("Not published yet."));
    assert!(r.body.contains("<main"), "through the page template");
    let live = get(addr, "/about-us/", None).await;
    assert!(
        !live.body.contains("Preview-only heading"),
        "the live page is unchanged"
    );
    let r = get(
        addr,
        &format!("/amplience-visualization/{STAGING}/no-such-item"),
        None,
    )
    .await;
    assert_eq!(r.status, 404);
}
