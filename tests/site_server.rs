//! The local site server over real HTTP on loopback: files and directory pages, the `_redirects`
//! rules (legacy routes, client-side screens, per-market 404 pages), the API at /api, and the dev
//! error overlay that shows a failed rebuild while the last good site keeps being served.

mod common;

use common::*;
use live_site::dev_errors::{self, LastError};

struct Reply {
    status: u16,
    headers: String,
    body: String,
}

async fn get(addr: std::net::SocketAddr, path: &str) -> Reply {
    let reply = loopback::Request::get(path).send(addr).await.unwrap();
    Reply {
        status: reply.status,
        headers: reply.head.to_ascii_lowercase(),
        body: reply.text(),
    }
}

/// The export the sample site is built from, which the API imports too.
const SAMPLE_EXPORT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/sample");

async fn serve(app: axum::Router) -> std::net::SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    addr
}

#[tokio::test]
async fn pages_rules_and_api_are_served_like_the_static_host() {
    let site = built_sample();
    let addr = serve(live_site::site_server::router(
        site.public(),
        api::AppState::ephemeral(SAMPLE_EXPORT).await.unwrap(),
    ))
    .await;

    let home = get(addr, "/").await;
    assert_eq!(home.status, 200);
    assert!(home.headers.contains("content-type: text/html"));
    assert!(home.body.contains("data-island=\"HeaderActions\""));

    let listing = get(addr, "/us/browse/womens").await;
    assert_eq!(
        listing.status, 200,
        "directory pages answer without a trailing-slash redirect"
    );
    assert!(listing.body.contains("$"));

    let legacy = get(addr, "/Category/womens/clothing?sort=price-asc").await;
    assert_eq!(legacy.status, 301);
    assert!(
        legacy
            .headers
            .contains("location: /browse/womens/clothing?sort=price-asc"),
        "{}",
        legacy.headers
    );
    let legacy_home = get(addr, "/eu/Home").await;
    assert_eq!(legacy_home.status, 301);
    assert!(legacy_home.headers.contains("location: /eu\r\n"));

    let screen = get(addr, "/us/my-account/orders").await;
    assert_eq!(
        screen.status, 200,
        "client-side account routes get their shell page"
    );
    assert!(screen.body.contains("data-screen=\"my-account\""));

    let missing = get(addr, "/eu/no-such-page").await;
    assert_eq!(missing.status, 404);
    assert!(missing.body.contains("This page could not be found"));
    assert!(
        missing.body.contains("href=\"/eu/browse/womens\""),
        "the EU 404 page links inside the EU site"
    );

    let traversal = get(addr, "/../../etc/passwd").await;
    assert_ne!(traversal.status, 200);

    let health = get(addr, "/api/health").await;
    assert_eq!(health.status, 200);
    assert!(health.body.contains("\"status\":\"ok\""));
}

#[tokio::test]
async fn a_failed_rebuild_is_shown_in_the_browser_over_the_last_good_site() {
    let site = built_sample();
    let last = LastError::default();
    let app = live_site::site_server::router(
        site.public(),
        api::AppState::ephemeral(SAMPLE_EXPORT).await.unwrap(),
    )
    .layer(axum::middleware::from_fn_with_state(
        last.clone(),
        dev_errors::inject,
    ));
    let addr = serve(app).await;
    assert!(!get(addr, "/").await.body.contains("storefront-dev-error"));
    last.set(Some(
        "catalog/products.json: product 101: variants: a product needs <at least> one variant"
            .into(),
    ));
    let page = get(addr, "/").await;
    assert_eq!(page.status, 200);
    assert!(page.body.contains("id=\"storefront-dev-error\""));
    assert!(
        page.body
            .contains("a product needs &lt;at least&gt; one variant"),
        "the error is escaped"
    );
    assert!(
        page.body.contains("data-island=\"HeaderActions\""),
        "the last good page is still served"
    );
    let css = get(addr, "/robots.txt").await;
    assert!(
        !css.body.contains("storefront-dev-error"),
        "only HTML gets the overlay"
    );
    last.set(None);
    assert!(!get(addr, "/").await.body.contains("storefront-dev-error"));
}
