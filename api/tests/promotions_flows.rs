//! The bag's promotions sync (`POST /api/cart/promotions`) over real HTTP against a fake of the
//! promotions engine on loopback that speaks its HTTP shape: profiles by integration id (408 when
//! unknown, the spec's signal to create one), sessions by id (404 when unknown, then a dry-run
//! session), effects computed from the cart items it was sent. On SQLite and PostgreSQL.

mod common;

use api::promotions::PromotionsConfig;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use common::*;
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

const API_KEY: &str = "test-key-123";

#[derive(Debug, Clone)]
struct Call {
    method: &'static str,
    path: String,
    dry: Option<String>,
    body: Value,
}

/// The engine's rules in this fake: 10% off every item (per item, by position) and a fixed
/// cart-level discount.
#[derive(Default)]
struct EngineState {
    calls: Vec<Call>,
    profiles: HashSet<String>,
    sessions: HashSet<String>,
    /// Answer every request with this status (a broken engine).
    fail_with: Option<u16>,
    /// Wait this long before answering (a hanging engine).
    delay: Option<Duration>,
    cart_off: f64,
    /// Grant free shipping (a discount of the whole shipping cost).
    free_shipping: bool,
}

#[derive(Clone, Default)]
struct Engine(Arc<Mutex<EngineState>>);

impl Engine {
    fn calls(&self) -> Vec<Call> {
        self.0.lock().unwrap().calls.clone()
    }
    fn ops(&self) -> Vec<String> {
        self.calls()
            .iter()
            .map(|c| {
                let kind = if c.path.contains("/customer_profiles/") {
                    "profile"
                } else {
                    "session"
                };
                match &c.dry {
                    Some(d) => format!("{} {kind} dry={d}", c.method),
                    None => format!("{} {kind}", c.method),
                }
            })
            .collect()
    }
    fn clear(&self) {
        self.0.lock().unwrap().calls.clear();
    }
}

/// Records the call; answers the forced failure, if any.
async fn record(
    engine: &Engine,
    method: &'static str,
    path: String,
    dry: Option<String>,
    headers: &HeaderMap,
    body: Value,
) -> Option<Response> {
    let (fail, delay) = {
        let mut s = engine.0.lock().unwrap();
        s.calls.push(Call {
            method,
            path,
            dry,
            body,
        });
        (s.fail_with, s.delay)
    };
    if let Some(d) = delay {
        tokio::time::sleep(d).await;
    }
    let key = format!("ApiKey-v1 {API_KEY}");
    if headers.get("authorization").and_then(|v| v.to_str().ok()) != Some(key.as_str()) {
        return Some(StatusCode::UNAUTHORIZED.into_response());
    }
    fail.map(|s| (StatusCode::from_u16(s).unwrap(), "engine trouble").into_response())
}

async fn get_profile(State(e): State<Engine>, Path(id): Path<String>, h: HeaderMap) -> Response {
    let path = format!("/v1/customer_profiles/{id}");
    if let Some(r) = record(&e, "GET", path, None, &h, Value::Null).await {
        return r;
    }
    if e.0.lock().unwrap().profiles.contains(&id) {
        axum::Json(json!({"integrationId": id})).into_response()
    } else {
        StatusCode::REQUEST_TIMEOUT.into_response()
    }
}

async fn put_profile(
    State(e): State<Engine>,
    Path(id): Path<String>,
    h: HeaderMap,
    axum::Json(body): axum::Json<Value>,
) -> Response {
    let path = format!("/v2/customer_profiles/{id}");
    if let Some(r) = record(&e, "PUT", path, None, &h, body.clone()).await {
        return r;
    }
    e.0.lock().unwrap().profiles.insert(id.clone());
    axum::Json(json!({"integrationId": id, "attributes": body["attributes"]})).into_response()
}

async fn get_session(State(e): State<Engine>, Path(id): Path<String>, h: HeaderMap) -> Response {
    let path = format!("/v2/customer_sessions/{id}");
    if let Some(r) = record(&e, "GET", path, None, &h, Value::Null).await {
        return r;
    }
    if e.0.lock().unwrap().sessions.contains(&id) {
        axum::Json(json!({"integrationId": id, "state": "open"})).into_response()
    } else {
        StatusCode::NOT_FOUND.into_response()
    }
}

async fn put_session(
    State(e): State<Engine>,
    Path(id): Path<String>,
    Query(q): Query<HashMap<String, String>>,
    h: HeaderMap,
    axum::Json(body): axum::Json<Value>,
) -> Response {
    let dry = q.get("dry").cloned();
    let path = format!("/v2/customer_sessions/{id}");
    if let Some(r) = record(&e, "PUT", path, dry.clone(), &h, body.clone()).await {
        return r;
    }
    let (cart_off, free_shipping) = {
        let mut s = e.0.lock().unwrap();
        if dry.as_deref() == Some("false") {
            s.sessions.insert(id.clone());
        }
        (s.cart_off, s.free_shipping)
    };
    let mut effects = Vec::new();
    for item in body["customerSession"]["cartItems"].as_array().unwrap() {
        let total = item["price"].as_f64().unwrap() * item["quantity"].as_f64().unwrap();
        effects.push(json!({
            "campaignId": 1, "rulesetId": 1, "ruleIndex": 0, "ruleName": "10% off",
            "effectType": "setDiscountPerItem",
            "props": {"name": "10% off", "value": (total * 10.0).round() / 100.0,
                      "position": item["position"], "subPosition": 0}
        }));
    }
    if cart_off > 0.0 {
        effects.push(json!({"effectType": "setDiscount", "triggeredByCoupon": 7,
                            "props": {"name": "coupon", "value": cart_off}}));
    }
    if free_shipping {
        effects.push(json!({"effectType": "setDiscountPerAdditionalCost",
                            "props": {"name": "free shipping", "additionalCost": "shipping", "value": 0.0}}));
    }
    effects.push(json!({"effectType": "showNotification", "props": {"title": "Hello"}}));
    axum::Json(json!({"effects": effects, "customerSession": body["customerSession"]}))
        .into_response()
}

async fn start_engine() -> (Engine, SocketAddr) {
    let engine = Engine::default();
    let app = axum::Router::new()
        .route("/promo/v1/customer_profiles/{id}", get(get_profile))
        .route(
            "/promo/v2/customer_profiles/{id}",
            axum::routing::put(put_profile),
        )
        .route(
            "/promo/v2/customer_sessions/{id}",
            get(get_session).put(put_session),
        )
        .with_state(engine.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (engine, addr)
}

fn config(addr: SocketAddr, enabled: bool) -> PromotionsConfig {
    PromotionsConfig {
        enabled,
        // A path prefix and a trailing slash, as an operator might write the base URL.
        base_url: format!("http://{addr}/promo/"),
        api_key: API_KEY.into(),
        store_uk: "store-uk".into(),
        store_eu: "store-eu".into(),
        store_us: "store-us".into(),
        timeout: Duration::from_millis(500),
    }
}

async fn start(backend: Backend, enabled: bool) -> (TestApi, Engine) {
    let (engine, addr) = start_engine().await;
    let api = TestApi::start_with(backend, |c| c.promotions = config(addr, enabled)).await;
    (api, engine)
}

/// A cart with two lines (2 + 1 units); returns the cart view.
async fn fill_bag(api: &TestApi, b: &mut Browser) -> Value {
    assert_eq!(b.post("/api/cart", json!({})).await.status, 201);
    let catalog = api.state.catalog();
    let mut picked = catalog
        .purchasable_stock()
        .filter(|(_, _, units)| *units >= 5)
        .collect::<Vec<_>>();
    picked.sort();
    let (p1, v1, _) = picked[0];
    let (p2, v2, _) = *picked
        .iter()
        .find(|(p, _, _)| *p != p1)
        .expect("two products");
    assert_eq!(b.post("/api/cart/items", line(p1, v1, 2)).await.status, 201);
    let r = b.post("/api/cart/items", line(p2, v2, 1)).await;
    assert_eq!(r.status, 201);
    r.json()
}

fn cents(v: &Value) -> i64 {
    (v.as_f64().unwrap() * 100.0).round() as i64
}

async fn a_guest_bag_is_evaluated_at_the_servers_prices(backend: Backend) {
    let (api, engine) = start(backend, true).await;
    engine.0.lock().unwrap().cart_off = 2.0;
    let mut b = api.browser();
    let before = fill_bag(&api, &mut b).await;
    assert_eq!(before["promotions_enabled"], true);
    let lines = before["line_items"]["physical_items"].as_array().unwrap();

    let r = b.post("/api/cart/promotions", json!({})).await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    // A guest has no profile; an unknown session is created as a dry run.
    assert_eq!(engine.ops(), ["GET session", "PUT session dry=true"]);
    let calls = engine.calls();
    let session_id = api::store::token_hash(before["id"].as_str().unwrap());
    assert_eq!(calls[1].path, format!("/v2/customer_sessions/{session_id}"));
    assert!(
        !calls
            .iter()
            .any(|c| c.path.contains(&b.cookies["sf_cart_uk"])),
        "the cart key (the shopper's cookie) never leaves the shop"
    );
    let sent = &calls[1].body["customerSession"];
    assert_eq!(sent["storeIntegrationId"], "store-uk");
    assert_eq!(sent["profileId"], "");
    assert_eq!(sent["additionalCosts"]["shipping"]["price"], 0.0);
    let items = sent["cartItems"].as_array().unwrap();
    assert_eq!(items.len(), 2);
    for (i, (sent, line)) in items.iter().zip(lines).enumerate() {
        assert_eq!(sent["position"], i);
        assert_eq!(sent["sku"], line["sku"]);
        assert_eq!(sent["name"], line["name"]);
        assert_eq!(sent["quantity"], line["quantity"]);
        // The server's own price for one unit.
        assert_eq!(sent["price"], line["sale_price"]);
        assert_eq!(sent["attributes"]["product_id"], line["product_id"]);
        assert_eq!(sent["attributes"]["tmp_variant_id"], line["variant_id"]);
    }

    // The effects: 10% off each line by position, 2.00 off the cart by coupon.
    let cart = r.json();
    let got = &cart["line_items"]["physical_items"];
    let mut off = 0;
    for (i, line) in lines.iter().enumerate() {
        let ten = (cents(&line["extended_sale_price"]) as f64 / 10.0).round() as i64;
        assert_eq!(cents(&got[i]["discount_amount"]), ten, "line {i}");
        off += ten;
    }
    let special = cents(&before["cart_amount"]);
    assert_eq!(cents(&cart["cart_amount"]), special - off - 200);
    assert_eq!(cents(&cart["promotion_discount_amount"]), off + 200);
    assert_eq!(cents(&cart["coupon_amount"]), 200);
    assert_eq!(
        cents(&cart["discount_amount"]),
        cents(&cart["base_amount"]) - cents(&cart["cart_amount"])
    );

    // Kept: the bag shows the same totals when read again.
    let again = b.get("/api/cart").await.json();
    assert_eq!(again["cart_amount"], cart["cart_amount"]);

    // A changed bag no longer carries an evaluation made for another bag.
    let first = lines[0]["id"].as_str().unwrap();
    let r = b
        .put(&format!("/api/cart/items/{first}"), json!({"quantity": 1}))
        .await;
    assert_eq!(r.status, 200);
    let changed = r.json();
    assert_eq!(cents(&changed["promotion_discount_amount"]), 0);
    assert_eq!(
        cents(&changed["cart_amount"]),
        special - cents(&lines[0]["sale_price"])
    );

    // A known session is updated for real.
    engine.0.lock().unwrap().sessions.insert(session_id);
    engine.clear();
    let r = b.post("/api/cart/promotions", json!({})).await;
    assert_eq!(r.status, 200);
    assert_eq!(engine.ops(), ["GET session", "PUT session dry=false"]);
    assert!(cents(&r.json()["promotion_discount_amount"]) > 200);
    api.finish().await;
}

async fn a_signed_in_shopper_gets_a_profile_when_the_engine_answers_408(backend: Backend) {
    let (api, engine) = start(backend, true).await;
    let mut b = api.browser();
    register(&mut b, "promo@example.com", "secret123").await;
    fill_bag(&api, &mut b).await;

    let r = b.post("/api/cart/promotions?market=uk", json!({})).await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(
        engine.ops(),
        [
            "GET profile",
            "PUT profile",
            "GET session",
            "PUT session dry=true"
        ]
    );
    let calls = engine.calls();
    // The email is one path segment, percent-encoded where needed.
    assert_eq!(calls[0].path, "/v1/customer_profiles/promo@example.com");
    assert_eq!(calls[1].body["attributes"]["locale"], "en");
    assert_eq!(
        calls[3].body["customerSession"]["profileId"],
        "promo@example.com"
    );

    // The profile exists now: read, not created again.
    engine.clear();
    assert_eq!(b.post("/api/cart/promotions", json!({})).await.status, 200);
    assert_eq!(
        engine.ops(),
        ["GET profile", "GET session", "PUT session dry=true"]
    );
    api.finish().await;
}

async fn engine_failures_are_502s_that_change_nothing(backend: Backend) {
    let (api, engine) = start(backend, true).await;
    let mut b = api.browser();
    let before = fill_bag(&api, &mut b).await;
    let cart_id = before["id"].as_str().unwrap().to_string();

    engine.0.lock().unwrap().fail_with = Some(500);
    let r = b.post("/api/cart/promotions", json!({})).await;
    assert_eq!(r.status, 502);
    let e = r.json();
    assert_eq!(e["error"]["code"], "promotions_unavailable");
    assert_eq!(
        e["error"]["message"],
        "The promotions service failed: getCustomerSession: the promotions service answered 500"
    );
    assert_eq!(
        api.scalar(
            "SELECT COUNT(*) FROM cart_promotion WHERE cart_id = $1",
            &cart_id
        )
        .await,
        0
    );
    assert_eq!(
        b.get("/api/cart").await.json()["cart_amount"],
        before["cart_amount"]
    );

    // A hanging engine: the bounded timeout answers 502 well before the engine would.
    {
        let mut s = engine.0.lock().unwrap();
        s.fail_with = None;
        s.delay = Some(Duration::from_secs(5));
    }
    let started = std::time::Instant::now();
    let r = b.post("/api/cart/promotions", json!({})).await;
    assert_eq!(r.status, 502);
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(
        r.json()["error"]["message"],
        "The promotions service failed: getCustomerSession: the promotions service could not be reached (timed out)"
    );
    api.finish().await;
}

async fn bad_requests_and_a_disabled_flag_call_nothing(backend: Backend) {
    // Flag off (base URL configured all the same): the endpoint says so and calls nothing.
    let (api, engine) = start(backend, false).await;
    let mut b = api.browser();
    let cart = fill_bag(&api, &mut b).await;
    assert_eq!(cart["promotions_enabled"], false);
    let r = b.post("/api/cart/promotions", json!({})).await;
    assert_eq!(r.status, 409);
    assert_eq!(r.json()["error"]["code"], "promotions_disabled");
    assert!(engine.calls().is_empty());
    api.finish().await;

    let (api, engine) = start(backend, true).await;
    let mut b = api.browser();
    // No cart yet.
    let r = b.post("/api/cart/promotions", json!({})).await;
    assert_eq!(r.status, 404);
    assert_eq!(r.error_message(), "There is no cart.");
    fill_bag(&api, &mut b).await;
    // Prices (or anything else) from the client are refused, naming the field.
    let r = b
        .post(
            "/api/cart/promotions",
            json!({"cartItems": [{"sku": "X", "price": 0.01, "quantity": 1}]}),
        )
        .await;
    assert_eq!(r.status, 400);
    assert!(
        r.error_message().contains("cartItems"),
        "{}",
        r.error_message()
    );
    // Cross-site: refused by the CSRF rule.
    let r = b
        .send(
            "POST",
            "/api/cart/promotions",
            Some(b"{}".to_vec()),
            &[("Sec-Fetch-Site", "cross-site")],
        )
        .await;
    assert_eq!(r.status, 403);
    assert!(engine.calls().is_empty(), "{:?}", engine.ops());
    api.finish().await;
}

/// The engine's free shipping, which the bag shows as "SHIPPING FREE", is what the checkout
/// charges: the cheapest option costs nothing, faster ones keep their price, and the order's
/// total is the bag's.
async fn free_shipping_is_free_at_checkout(backend: Backend) {
    let (api, engine) = start(backend, true).await;
    engine.0.lock().unwrap().free_shipping = true;
    let mut b = api.browser();
    fill_bag(&api, &mut b).await;
    let cart = b.post("/api/cart/promotions", json!({})).await.json();
    assert_eq!(cart["free_shipping"], true, "{cart}");
    let (id, view) = common::checkout::ready(&mut b, "", "GB").await;
    let options = view["consignment"]["shipping_options"].as_array().unwrap();
    let prices: Vec<i64> = options.iter().map(|o| cents(&o["amount"])).collect();
    let cheapest = prices.iter().position(|p| *p == 0).expect("a free option");
    assert!(
        prices.iter().filter(|p| **p == 0).count() == 1 && prices.len() > 1,
        "{prices:?}"
    );
    // `ready` chose the first option; choose the free one.
    let free = options[cheapest]["id"].as_str().unwrap();
    let r = common::checkout::put(
        &mut b,
        &id,
        "shipping-option",
        "",
        json!({"shipping_option_id": free}),
    )
    .await;
    assert_eq!(r.status, 200);
    let view = r.json();
    assert_eq!(cents(&view["totals"]["shipping"]), 0, "{view}");
    assert_eq!(cents(&view["totals"]["total"]), cents(&cart["cart_amount"]));
    let token = common::checkout::card_token(&mut b, "4242424242424242").await;
    let r = common::checkout::place(
        &mut b,
        &id,
        "",
        "key-free-ship-1",
        json!({"method": "scheme", "token": token}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    let path = r.json()["confirmation_path"]
        .as_str()
        .unwrap()
        .replace("/order-confirmation/", "/api/orders/");
    let order = b.get(&path).await.json();
    assert_eq!(cents(&order["shipping_amount"]), 0, "{order}");
    assert_eq!(
        cents(&order["total"]),
        cents(&cart["cart_amount"]),
        "{order}"
    );
    api.finish().await;
}

on_both!(
    free_shipping_is_free_at_checkout,
    a_guest_bag_is_evaluated_at_the_servers_prices,
    a_signed_in_shopper_gets_a_profile_when_the_engine_answers_408,
    engine_failures_are_502s_that_change_nothing,
    bad_requests_and_a_disabled_flag_call_nothing,
);
