//! The rest of the surface: the OpenAPI document covers every endpoint, health, config, geo,
//! marketing consent, notify-me, request ids, and the catalog reload when the export changes.

mod common;

use common::*;
use serde_json::json;
use std::collections::BTreeSet;

/// Every endpoint the API serves (besides /openapi.json itself).
const ENDPOINTS: &[(&str, &str)] = &[
    ("get", "/health"),
    ("get", "/config"),
    ("get", "/geo"),
    ("post", "/marketing-consent"),
    ("post", "/notify-me"),
    ("get", "/stock"),
    ("get", "/stock/products/{product_id}"),
    ("get", "/stock/locations"),
    ("get", "/variants"),
    ("get", "/search"),
    ("get", "/listing"),
    ("get", "/cart"),
    ("post", "/cart"),
    ("delete", "/cart"),
    ("post", "/cart/items"),
    ("put", "/cart/items/{item_id}"),
    ("delete", "/cart/items/{item_id}"),
    ("post", "/cart/promotions"),
    ("post", "/checkout/express"),
    ("post", "/checkout/express/{checkout_id}/merchant-session"),
    ("post", "/checkout/express/{checkout_id}/shipping-contact"),
    ("post", "/checkout/express/{checkout_id}/shipping-method"),
    ("post", "/checkout/express/{checkout_id}/authorize"),
    ("post", "/checkout"),
    ("get", "/checkout/{checkout_id}"),
    ("put", "/checkout/{checkout_id}/email"),
    ("put", "/checkout/{checkout_id}/consignment"),
    ("put", "/checkout/{checkout_id}/shipping-option"),
    ("put", "/checkout/{checkout_id}/billing-address"),
    ("get", "/checkout/{checkout_id}/payment-methods"),
    ("post", "/checkout/{checkout_id}/apple-pay-session"),
    ("post", "/checkout/{checkout_id}/orders"),
    ("post", "/checkout/{checkout_id}/payment-details"),
    ("get", "/orders/{checkout_id}/{order_id}"),
    ("post", "/orders/{checkout_id}/{order_id}/account"),
    ("get", "/admin/orders"),
    ("post", "/admin/orders/{order_id}/{action}"),
    ("get", "/admin/outbox"),
    ("post", "/admin/outbox/{id}/retry"),
    ("get", "/customer/orders"),
    ("post", "/auth/register"),
    ("post", "/auth/register/confirm"),
    ("post", "/auth/login"),
    ("post", "/auth/logout"),
    ("post", "/auth/password-reset"),
    ("post", "/auth/password-reset/validate"),
    ("post", "/auth/password-reset/confirm"),
    ("get", "/customer"),
    ("put", "/customer"),
    ("get", "/customer/addresses"),
    ("post", "/customer/addresses"),
    ("get", "/customer/addresses/{id}"),
    ("put", "/customer/addresses/{id}"),
    ("delete", "/customer/addresses/{id}"),
    ("post", "/customer/addresses/{id}/default"),
    ("get", "/wishlists"),
    ("post", "/wishlists"),
    ("get", "/wishlists/{id}"),
    ("delete", "/wishlists/{id}"),
    ("post", "/wishlists/{id}/items"),
    ("delete", "/wishlists/{id}/items/{item_id}"),
];

async fn the_openapi_document_covers_every_endpoint(backend: Backend) {
    let api = TestApi::start(backend).await;
    let mut b = api.browser();
    let doc = b.get("/api/openapi.json").await.json();
    assert!(doc["openapi"].as_str().unwrap().starts_with("3."));
    let documented: BTreeSet<(String, String)> = doc["paths"]
        .as_object()
        .unwrap()
        .iter()
        .flat_map(|(path, item)| {
            item.as_object()
                .unwrap()
                .keys()
                .map(move |m| (m.clone(), path.clone()))
        })
        .collect();
    let expected: BTreeSet<(String, String)> = ENDPOINTS
        .iter()
        .map(|(m, p)| (m.to_string(), p.to_string()))
        .collect();
    assert_eq!(documented, expected);
    // And every documented endpoint is routed: none answers the router's own 404 / 405.
    for (method, path) in ENDPOINTS {
        let path = format!(
            "/api{}",
            path.replace("{product_id}", "101")
                .replace("{item_id}", &"0".repeat(32))
                .replace("{id}", &"0".repeat(32))
                .replace("{checkout_id}", &"0".repeat(32))
                .replace("{order_id}", &"0".repeat(32))
                .replace("{action}", "ship")
        );
        let body = (*method != "get" && *method != "delete").then(|| b"{}".to_vec());
        let r = b.send(&method.to_uppercase(), &path, body, &[]).await;
        assert_ne!(r.status, 405, "{method} {path}");
        if r.status == 404 {
            assert_ne!(
                r.json()["error"]["code"],
                "not_found_route",
                "{method} {path}"
            );
        }
        assert!(r.status < 500, "{method} {path}: {}", r.status);
    }
    api.finish().await;
}

async fn operations_calls(backend: Backend) {
    let api = TestApi::start(backend).await;
    let mut b = api.browser();
    let r = b.get("/api/health").await;
    assert_eq!(r.json()["status"], "ok");
    assert!(r.header("x-request-id").is_some_and(|id| !id.is_empty()));
    let r = b
        .send(
            "GET",
            "/api/health",
            None,
            &[("X-Request-Id", "cdn-abc-123")],
        )
        .await;
    assert_eq!(r.header("x-request-id"), Some("cdn-abc-123"));

    let config = b.get("/api/config").await.json();
    let channels: Vec<u64> = config["markets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["channel_id"].as_u64().unwrap())
        .collect();
    assert_eq!(channels, vec![1406818, 1421371, 1407345]);
    assert_eq!(
        config["markets"][1]["currencies"]["default_currency"],
        "USD"
    );

    let geo = b
        .send("GET", "/api/geo", None, &[("CF-IPCountry", "US")])
        .await
        .json();
    assert_eq!(
        (
            geo["country"].as_str(),
            geo["market"].as_str(),
            geo["source"].as_str()
        ),
        (Some("US"), Some("us"), Some("header"))
    );
    let geo = b.get("/api/geo").await.json();
    assert_eq!(
        (
            geo["country"].is_null(),
            geo["market"].as_str(),
            geo["source"].as_str()
        ),
        (true, Some("eu"), Some("fallback"))
    );

    let r = b
        .post(
            "/api/marketing-consent",
            json!({"email": "a@example.com", "category": "marketing_post", "action": "accept"}),
        )
        .await;
    assert_eq!(r.status, 201);
    let r = b
        .post(
            "/api/marketing-consent",
            json!({"email": "a@example.com", "category": "sms", "action": "accept"}),
        )
        .await;
    assert_eq!(r.error_fields(), vec!["category"]);
    assert_eq!(
        api.scalar(
            "SELECT COUNT(*) FROM marketing_consent WHERE email = $1",
            "a@example.com"
        )
        .await,
        1
    );

    // Notify-me: a size, a fit where the product has lengths, and an email.
    let catalog = api.state.catalog();
    let with_length = catalog
        .products
        .iter()
        .find(|p| p.option(domain::catalog::OptionKind::Length).is_some())
        .unwrap();
    let size = with_length
        .option(domain::catalog::OptionKind::Size)
        .unwrap()
        .values[0]
        .label
        .clone();
    let fit = with_length
        .option(domain::catalog::OptionKind::Length)
        .unwrap()
        .values[0]
        .label
        .clone();
    let base = json!({"email": "a@example.com", "product_id": with_length.id, "size": size});
    assert_eq!(
        b.post("/api/notify-me", base.clone()).await.error_fields(),
        vec!["fit"]
    );
    let mut no_size = base.clone();
    no_size["size"] = json!("");
    no_size["fit"] = json!(fit);
    assert_eq!(
        b.post("/api/notify-me", no_size).await.error_fields(),
        vec!["size"]
    );
    let mut bad_email = base.clone();
    bad_email["fit"] = json!(fit);
    bad_email["email"] = json!("a@b");
    assert_eq!(
        b.post("/api/notify-me", bad_email).await.error_fields(),
        vec!["email"]
    );
    let mut ok = base.clone();
    ok["fit"] = json!(fit);
    assert_eq!(b.post("/api/notify-me", ok).await.status, 201);
    api.finish().await;
}

fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

async fn the_catalog_reloads_when_the_export_changes(backend: Backend) {
    let export = tempfile::tempdir().unwrap();
    copy_dir(std::path::Path::new(SAMPLE), export.path());
    let path = export.path().to_path_buf();
    let api = TestApi::start_with(backend, |c| {
        c.export_dir = path;
        c.watch_interval = Some(std::time::Duration::from_millis(100));
    })
    .await;
    let _watcher = api.state.spawn_watcher();
    let (_, v, _) = api.variant_with_stock(|n| n >= 1);
    let mut b = api.browser();
    let before = b.get(&format!("/api/stock?variant_ids={v}")).await.json();
    assert!(before["data"][0]["available_to_sell"].as_i64().unwrap() >= 1);

    // Sell the variant out in the export.
    let file = export.path().join("catalog/inventory.json");
    let mut inv: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
    for item in inv["data"].as_array_mut().unwrap() {
        if item["identity"]["variant_id"] == v {
            item["allLocationsTotalAvailableToSell"] = json!(0);
            for l in item["locations"].as_array_mut().unwrap() {
                l["available_to_sell"] = json!(0);
            }
        }
    }
    std::fs::write(&file, serde_json::to_vec(&inv).unwrap()).unwrap();
    let mut sold_out = false;
    for _ in 0..100 {
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        if b.get(&format!("/api/stock?variant_ids={v}")).await.json()["data"][0]["sold_out"] == true
        {
            sold_out = true;
            break;
        }
    }
    assert!(sold_out, "the changed export was re-imported");

    // A broken export keeps the last good catalog.
    std::fs::write(&file, b"{ not json").unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(400)).await;
    assert_eq!(
        b.get(&format!("/api/stock?variant_ids={v}")).await.status,
        200
    );
    api.finish().await;
}

async fn the_janitor_removes_expired_rows_only(backend: Backend) {
    let api = TestApi::start(backend).await;
    let mut guest = api.browser();
    guest.post("/api/cart", json!({})).await;
    let mut ada = api.browser();
    register(&mut ada, "ada@example.com", "secret123").await;
    ada.post("/api/cart", json!({})).await;
    assert_eq!(
        api.state.purge_expired().await.unwrap(),
        0,
        "nothing is stale yet"
    );
    api.state.advance_clock(31 * 24 * 3600);
    // The session (7 days) and the guest cart (30 days) are gone; the customer's cart stays.
    assert_eq!(api.state.purge_expired().await.unwrap(), 2);
    assert_eq!(guest.get("/api/cart").await.status, 404);
    assert_eq!(ada.get("/api/customer").await.status, 401);
    let customer_carts: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM cart WHERE customer_id IS NOT NULL")
            .fetch_one(api.state.db().pool())
            .await
            .unwrap();
    assert_eq!(customer_carts, 1);
    api.finish().await;
}

async fn an_unchanged_export_is_not_imported_again(backend: Backend) {
    let api = TestApi::start(backend).await;
    let db = api.state.db();
    let (catalog, changed) = api::catalog::import(db, std::path::Path::new(SAMPLE))
        .await
        .unwrap();
    assert!(!changed, "start-up already imported this export");
    let variants: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM catalog_variant")
        .fetch_one(db.pool())
        .await
        .unwrap();
    let expected: usize = catalog.products.iter().map(|p| p.variants.len()).sum();
    assert_eq!(variants as usize, expected);
    // An invalid export is refused with its problems listed, and the store keeps the last one.
    let broken = tempfile::tempdir().unwrap();
    copy_dir(std::path::Path::new(SAMPLE), broken.path());
    std::fs::write(broken.path().join("catalog/products.json"), b"[]").unwrap();
    assert!(api::catalog::import(db, broken.path()).await.is_err());
    let after: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM catalog_variant")
        .fetch_one(db.pool())
        .await
        .unwrap();
    assert_eq!(after, variants);
    api.finish().await;
}

/// JSON answers are gzipped for a client that accepts gzip (what browsers send), and the same
/// bytes as the plain answer once unpacked; a client that does not ask gets them plain.
async fn json_answers_are_gzipped_for_a_client_that_accepts_it(backend: Backend) {
    use std::io::Read;
    let api = TestApi::start(backend).await;
    let mut b = api.browser();
    let path = "/api/stock/products/101?market=uk";
    let plain = b.get(path).await;
    assert_eq!(plain.status, 200);
    assert_eq!(plain.header("content-encoding"), None);
    let packed = b
        .send(
            "GET",
            path,
            None,
            &[("Accept-Encoding", "gzip, deflate, br")],
        )
        .await;
    assert_eq!(packed.status, 200);
    assert_eq!(packed.header("content-encoding"), Some("gzip"));
    assert!(
        packed.body.len() * 3 < plain.body.len(),
        "{} vs {}",
        packed.body.len(),
        plain.body.len()
    );
    let mut unpacked = Vec::new();
    flate2::read::GzDecoder::new(packed.body.as_slice())
        .read_to_end(&mut unpacked)
        .unwrap();
    assert_eq!(unpacked, plain.body);
    api.finish().await;
}

on_both!(
    json_answers_are_gzipped_for_a_client_that_accepts_it,
    an_unchanged_export_is_not_imported_again,
    the_janitor_removes_expired_rows_only,
    the_openapi_document_covers_every_endpoint,
    operations_calls,
    the_catalog_reloads_when_the_export_changes
);
