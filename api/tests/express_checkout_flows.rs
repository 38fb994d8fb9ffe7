//! Express (wallet) checkout over real HTTP with cookies, against a fake of the card payment
//! provider on loopback that speaks its HTTP shape (merchant session, `applePayPayment` answered
//! authorised or declined): the country and shipping-option rules, stock shortages at the click
//! and at authorisation, a failed payment (no paid order, stock back), a paid one (the order at
//! the server's prices, the cart closed), the confirmation and order history, and the refusals
//! (CSRF, unknown fields, client-sent amounts). On SQLite and PostgreSQL.

mod common;

use api::checkout::ExpressConfig;
use common::checkout::{count, set_stock, stock_of};
use common::express::*;
use common::*;
use serde_json::{Value, json};
use std::time::Duration;

async fn start(backend: Backend, enabled: bool) -> (TestApi, Provider) {
    let (provider, addr) = start_provider().await;
    let api = TestApi::start_with(backend, |c| {
        c.express = ExpressConfig {
            enabled,
            base_url: format!("http://{addr}/psp/"),
            api_key: API_KEY.into(),
            timeout: Duration::from_millis(2000),
        }
    })
    .await;
    (api, provider)
}

/// Two lines (2 + 1 units) of two products, each variant with 10 units at the main warehouse and
/// `second` at location 2. Returns the cart view and the variant ids.
async fn fill_bag(api: &TestApi, b: &mut Browser, q: &str, second: i64) -> (Value, [u64; 2]) {
    let catalog = api.state.catalog();
    let mut picked = catalog.purchasable_stock().collect::<Vec<_>>();
    picked.sort();
    let (p1, v1, _) = picked[0];
    let (p2, v2, _) = *picked.iter().find(|(p, _, _)| *p != p1).unwrap();
    set_stock(api, v1, 10, second).await;
    set_stock(api, v2, 10, second).await;
    assert_eq!(
        b.post(&format!("/api/cart{q}"), json!({})).await.status,
        201
    );
    let r = b
        .post(&format!("/api/cart/items{q}"), line(p1, v1, 2))
        .await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    let r = b
        .post(&format!("/api/cart/items{q}"), line(p2, v2, 1))
        .await;
    assert_eq!(r.status, 201);
    (r.json(), [v1, v2])
}

fn minor(v: &Value) -> i64 {
    (v.as_f64().unwrap() * 100.0).round() as i64
}

fn ids(options: &Value) -> Vec<String> {
    options
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["id"].as_str().unwrap().to_string())
        .collect()
}

fn contact(country: &str) -> Value {
    json!({
        "given_name": "Ada", "family_name": "Lovelace", "email_address": "ada@example.com",
        "phone_number": "+44 20 7946 0000", "address_lines": ["1 Analytical Row"],
        "locality": "London", "postal_code": "N1 9GU", "country_code": country
    })
}

fn authorize_body(country: &str) -> Value {
    json!({
        "payment_token": {
            "paymentData": {"version": "EC_v1", "data": "ZW5jcnlwdGVk", "signature": "c2ln",
                            "header": {"transactionId": "abc"}},
            "paymentMethod": {"displayName": "Visa 1234", "network": "Visa", "type": "debit"},
            "transactionIdentifier": "abc"
        },
        "shipping_contact": contact(country),
        "billing_contact": contact(country),
    })
}

/// Starts a checkout; returns its answer.
async fn begin(b: &mut Browser, q: &str) -> Value {
    let r = b
        .post(&format!("/api/checkout/express{q}"), json!({}))
        .await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    r.json()
}

async fn step(b: &mut Browser, id: &str, name: &str, q: &str, body: Value) -> Reply {
    b.post(&format!("/api/checkout/express/{id}/{name}{q}"), body)
        .await
}

async fn a_paid_checkout_becomes_an_order_at_the_servers_prices(backend: Backend) {
    let (api, provider) = start(backend, true).await;
    let mut b = api.browser();
    let (cart, [v1, v2]) = fill_bag(&api, &mut b, "", 0).await;
    assert_eq!(cart["express_checkout"]["merchant_label"], "Maison Lark");
    assert_eq!(cart["express_checkout"]["country_code"], "GB");

    let started = begin(&mut b, "").await;
    let id = started["checkout_id"].as_str().unwrap().to_string();
    assert_eq!(started["currency"], "GBP");
    assert_eq!(started["items_minor"], minor(&cart["cart_amount"]));
    assert_eq!(started["total_minor"], minor(&cart["cart_amount"]));
    assert_eq!(started["merchant_label"], "Maison Lark");

    let r = step(
        &mut b,
        &id,
        "merchant-session",
        "",
        json!({"validation_url": VALIDATION_URL}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(r.json()["merchantSessionIdentifier"], "SSH-test");
    let calls = provider.calls();
    assert_eq!(calls[0].body["validationUrl"], VALIDATION_URL);
    assert_eq!(calls[0].body["displayName"], "Maison Lark");

    // All stock at the main warehouse: the fast options are offered; collection never.
    let r = step(
        &mut b,
        &id,
        "shipping-contact",
        "",
        json!({"country_code": "gb", "postal_code": "N1"}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    let sheet = r.json();
    assert_eq!(
        ids(&sheet["shipping_options"]),
        ["uk-standard", "uk-next-day", "uk-express"]
    );
    assert_eq!(sheet["shipping_option_id"], "uk-standard");
    assert_eq!(sheet["shipping_minor"], 395);

    let r = step(
        &mut b,
        &id,
        "shipping-method",
        "",
        json!({"shipping_option_id": "uk-express"}),
    )
    .await;
    assert_eq!(r.status, 200);
    let sheet = r.json();
    let items = minor(&cart["cart_amount"]);
    assert_eq!(sheet["total_minor"], items + 495);

    let r = step(&mut b, &id, "authorize", "", authorize_body("GB")).await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    let order = r.json();
    let order_id = order["order_id"].as_str().unwrap();
    assert_eq!(
        order["confirmation_path"],
        format!("/order-confirmation/{id}/{order_id}?checkoutsource=applepayexpress")
    );
    // The cart is closed: its cookie cleared and the row gone.
    assert!(r.set_cookie("sf_cart_uk").unwrap().contains("Max-Age=0"));
    assert!(!b.cookies.contains_key("sf_cart_uk"));
    assert_eq!(count(&api, "SELECT COUNT(*) FROM cart_item").await, 0);

    // The provider charged the order's server-computed total, once per order.
    let pay = provider
        .calls()
        .into_iter()
        .find(|c| c.path == "/payments")
        .unwrap();
    assert_eq!(
        pay.authorization.as_deref(),
        Some(&*format!("Bearer {API_KEY}"))
    );
    assert_eq!(pay.idempotency_key.as_deref(), Some(order_id));
    assert_eq!(pay.body["orderId"], order_id);
    assert_eq!(pay.body["amount"], items + 495);
    assert_eq!(pay.body["currency"], "GBP");
    assert_eq!(pay.body["paymentToken"]["paymentMethod"]["network"], "Visa");

    // Stock taken from the main warehouse.
    assert_eq!(stock_of(&api, v1).await, [(1, 8), (2, 0)]);
    assert_eq!(stock_of(&api, v2).await, [(1, 9), (2, 0)]);

    // The confirmation shows the order as stored, at the bag's prices.
    let r = b.get(&format!("/api/orders/{id}/{order_id}")).await;
    assert_eq!(r.status, 200);
    let view = r.json();
    assert_eq!(view["number"], order["order_number"]);
    assert_eq!(view["status"], "Confirmed");
    assert_eq!(view["payment_status"], "paid");
    assert_eq!(view["shipping_method"], "Express Delivery");
    assert_eq!(minor(&view["total"]), items + 495);
    let lines = cart["line_items"]["physical_items"].as_array().unwrap();
    let got = view["line_items"].as_array().unwrap();
    assert_eq!(got.len(), lines.len());
    for (g, l) in got.iter().zip(lines) {
        assert_eq!(g["sku"], l["sku"]);
        assert_eq!(g["quantity"], l["quantity"]);
        assert_eq!(g["sale_price"], l["sale_price"]);
        assert_eq!(g["options"], l["options"]);
    }
    // A wrong pair of ids is not found.
    let other = api::store::random_id(16);
    assert_eq!(
        b.get(&format!("/api/orders/{other}/{order_id}"))
            .await
            .status,
        404
    );
    // The checkout is over.
    let r = step(
        &mut b,
        &id,
        "shipping-method",
        "",
        json!({"shipping_option_id": "uk-standard"}),
    )
    .await;
    assert_eq!(r.status, 404, "the cart is gone with the order");
    api.finish().await;
}

async fn the_country_and_shipping_option_rules(backend: Backend) {
    let (api, _provider) = start(backend, true).await;
    let mut b = api.browser();
    // Part of the stock sits at location 2: not entirely in the main warehouse.
    let (_, [v1, _]) = fill_bag(&api, &mut b, "", 5).await;
    set_stock(&api, v1, 1, 5).await;
    let id = begin(&mut b, "").await["checkout_id"]
        .as_str()
        .unwrap()
        .to_string();

    let r = step(
        &mut b,
        &id,
        "shipping-contact",
        "",
        json!({"country_code": "FR"}),
    )
    .await;
    assert_eq!(r.status, 422);
    assert_eq!(r.json()["error"]["code"], "shipping_country_not_allowed");
    assert_eq!(
        r.error_message(),
        "We only ship to UK, Jersey, and Guernsey"
    );
    assert_eq!(r.error_fields(), ["country_code"]);
    assert_eq!(
        count(
            &api,
            "SELECT COUNT(*) FROM express_checkout WHERE consignment IS NOT NULL"
        )
        .await,
        0,
        "a refused contact changes nothing"
    );

    // UK storefront, stock not all at the main warehouse: no express or next-day, even to GB.
    for country in ["GB", "JE", "GG"] {
        let r = step(
            &mut b,
            &id,
            "shipping-contact",
            "",
            json!({"country_code": country}),
        )
        .await;
        assert_eq!(r.status, 200, "{country}");
        assert_eq!(
            ids(&r.json()["shipping_options"]),
            ["uk-standard"],
            "{country}"
        );
    }
    // A method the address does not allow is refused.
    let r = step(
        &mut b,
        &id,
        "shipping-method",
        "",
        json!({"shipping_option_id": "uk-express"}),
    )
    .await;
    assert_eq!(r.status, 400);
    assert_eq!(r.error_fields(), ["shipping_option_id"]);
    let r = step(
        &mut b,
        &id,
        "shipping-method",
        "",
        json!({"shipping_option_id": "uk-click-collect"}),
    )
    .await;
    assert_eq!(r.status, 400);

    // No option left for the address: 'We can not ship to this address', nothing changed.
    let before: String =
        sqlx::query_scalar("SELECT consignment_id FROM express_checkout WHERE id = $1")
            .bind(&id)
            .fetch_one(api.state.db().pool())
            .await
            .unwrap();
    sqlx::query("DELETE FROM shipping_option WHERE id = 'uk-standard'")
        .execute(api.state.db().pool())
        .await
        .unwrap();
    let r = step(
        &mut b,
        &id,
        "shipping-contact",
        "",
        json!({"country_code": "GB"}),
    )
    .await;
    assert_eq!(r.status, 422);
    assert_eq!(r.json()["error"]["code"], "address_unserviceable");
    assert_eq!(r.error_message(), "We can not ship to this address");
    let after: String =
        sqlx::query_scalar("SELECT consignment_id FROM express_checkout WHERE id = $1")
            .bind(&id)
            .fetch_one(api.state.db().pool())
            .await
            .unwrap();
    assert_eq!(before, after);
    api.finish().await;

    // Other storefronts: express and next-day only to GB, whatever the warehouse; any country.
    let (api, _provider) = start(backend, true).await;
    let mut b = api.browser();
    fill_bag(&api, &mut b, "?market=us", 0).await;
    let started = begin(&mut b, "?market=us").await;
    assert_eq!(started["currency"], "USD");
    let id = started["checkout_id"].as_str().unwrap().to_string();
    let r = step(
        &mut b,
        &id,
        "shipping-contact",
        "?market=us",
        json!({"country_code": "US"}),
    )
    .await;
    assert_eq!(r.status, 200);
    assert_eq!(ids(&r.json()["shipping_options"]), ["us-standard"]);
    let r = step(
        &mut b,
        &id,
        "shipping-contact",
        "?market=us",
        json!({"country_code": "GB"}),
    )
    .await;
    assert_eq!(
        ids(&r.json()["shipping_options"]),
        ["us-standard", "us-express"]
    );
    // The checkout belongs to the US cart: the UK market does not see it.
    let r = step(
        &mut b,
        &id,
        "shipping-contact",
        "",
        json!({"country_code": "GB"}),
    )
    .await;
    assert_eq!(r.status, 404);
    api.finish().await;
}

async fn a_stock_shortage_stops_the_click_and_the_authorisation(backend: Backend) {
    let (api, provider) = start(backend, true).await;
    let mut b = api.browser();
    let (_, [v1, v2]) = fill_bag(&api, &mut b, "", 0).await;

    // At the click: the bag wants 2 of v1, 1 is left.
    set_stock(&api, v1, 1, 0).await;
    let r = b.post("/api/checkout/express", json!({})).await;
    assert_eq!(r.status, 409);
    assert_eq!(r.json()["error"]["code"], "insufficient_stock");
    assert_eq!(r.error_fields(), ["line_items[0].quantity"]);
    assert_eq!(
        count(&api, "SELECT COUNT(*) FROM express_checkout").await,
        0
    );

    // At authorisation: stock fell while the sheet was open.
    set_stock(&api, v1, 10, 0).await;
    let id = begin(&mut b, "").await["checkout_id"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(
        step(
            &mut b,
            &id,
            "shipping-contact",
            "",
            json!({"country_code": "GB"})
        )
        .await
        .status,
        200
    );
    set_stock(&api, v2, 0, 0).await;
    let r = step(&mut b, &id, "authorize", "", authorize_body("GB")).await;
    assert_eq!(r.status, 409);
    assert_eq!(r.json()["error"]["code"], "insufficient_stock");
    assert_eq!(r.error_fields(), ["line_items[1].quantity"]);
    assert_eq!(count(&api, "SELECT COUNT(*) FROM shop_order").await, 0);
    assert_eq!(stock_of(&api, v1).await, [(1, 10), (2, 0)]);
    assert!(!provider.calls().iter().any(|c| c.path == "/payments"));
    // The bag is still there for the shopper to fix.
    assert_eq!(b.get("/api/cart").await.status, 200);
    api.finish().await;
}

async fn a_failed_payment_leaves_no_paid_order_and_puts_the_stock_back(backend: Backend) {
    let (api, provider) = start(backend, true).await;
    let mut b = api.browser();
    // Stock split over both warehouses: the order takes from both, and must give both back.
    let (_, [v1, v2]) = fill_bag(&api, &mut b, "", 0).await;
    set_stock(&api, v1, 1, 3).await;
    let id = begin(&mut b, "").await["checkout_id"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(
        step(
            &mut b,
            &id,
            "shipping-contact",
            "",
            json!({"country_code": "GB"})
        )
        .await
        .status,
        200
    );

    for answer in [Answer::Decline, Answer::Refuse, Answer::Break] {
        provider.answer(answer);
        let r = step(&mut b, &id, "authorize", "", authorize_body("GB")).await;
        assert_eq!(
            r.status,
            402,
            "{answer:?}: {}",
            String::from_utf8_lossy(&r.body)
        );
        assert_eq!(r.json()["error"]["code"], "payment_failed");
        assert_eq!(stock_of(&api, v1).await, [(1, 1), (2, 3)], "{answer:?}");
        assert_eq!(stock_of(&api, v2).await, [(1, 10), (2, 0)], "{answer:?}");
        assert_eq!(
            count(&api, "SELECT COUNT(*) FROM shop_order WHERE payment_status = 'paid' OR status <> 'Cancelled'").await,
            0,
            "{answer:?}"
        );
        // The bag is kept, so the shopper can try again.
        assert_eq!(b.get("/api/cart").await.status, 200);
    }
    assert_eq!(count(&api, "SELECT COUNT(*) FROM shop_order").await, 3);
    // The cancelled orders took 1 from the main warehouse and 1 from location 2 of v1.
    let allocations: String =
        sqlx::query_scalar("SELECT allocations FROM shop_order_line WHERE variant_id = $1 LIMIT 1")
            .bind(v1 as i64)
            .fetch_one(api.state.db().pool())
            .await
            .unwrap();
    assert_eq!(allocations, "[[1,1],[2,1]]");

    // The checkout is open again: a retry that the provider authorises goes through.
    provider.answer(Answer::Authorise);
    let r = step(&mut b, &id, "authorize", "", authorize_body("GB")).await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(stock_of(&api, v1).await, [(1, 0), (2, 2)]);
    assert_eq!(
        count(
            &api,
            "SELECT COUNT(*) FROM shop_order WHERE status = 'Confirmed' AND payment_status = 'paid'"
        )
        .await,
        1
    );
    api.finish().await;
}

async fn payment_attempts_are_throttled_per_checkout(backend: Backend) {
    let (api, provider) = start(backend, true).await;
    let mut b = api.browser();
    let (_, [v1, _]) = fill_bag(&api, &mut b, "", 0).await;
    let id = begin(&mut b, "").await["checkout_id"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(
        step(
            &mut b,
            &id,
            "shipping-contact",
            "",
            json!({"country_code": "GB"})
        )
        .await
        .status,
        200
    );
    provider.answer(Answer::Decline);
    for _ in 0..5 {
        assert_eq!(
            step(&mut b, &id, "authorize", "", authorize_body("GB"))
                .await
                .status,
            402
        );
    }
    // The sixth attempt within the hour is refused before anything is written or charged.
    provider.answer(Answer::Authorise);
    let r = step(&mut b, &id, "authorize", "", authorize_body("GB")).await;
    assert_eq!(r.status, 429);
    assert_eq!(r.json()["error"]["code"], "rate_limited");
    assert!(r.header("retry-after").is_some());
    assert_eq!(count(&api, "SELECT COUNT(*) FROM shop_order").await, 5);
    assert_eq!(
        provider
            .calls()
            .iter()
            .filter(|c| c.path == "/payments")
            .count(),
        5
    );
    assert_eq!(stock_of(&api, v1).await, [(1, 10), (2, 0)]);
    api.finish().await;
}

async fn refused_requests_change_nothing(backend: Backend) {
    // Express checkout off: no button in the cart view, and the endpoints say so.
    let (api, provider) = start(backend, false).await;
    let mut b = api.browser();
    let (cart, _) = fill_bag(&api, &mut b, "", 0).await;
    assert_eq!(cart["express_checkout"], Value::Null);
    let r = b.post("/api/checkout/express", json!({})).await;
    assert_eq!(r.status, 409);
    assert_eq!(r.json()["error"]["code"], "express_checkout_disabled");
    api.finish().await;

    let (api, provider2) = start(backend, true).await;
    let mut b = api.browser();
    // No cart yet.
    let r = b.post("/api/checkout/express", json!({})).await;
    assert_eq!(r.status, 404);
    assert_eq!(r.error_message(), "There is no cart.");
    fill_bag(&api, &mut b, "", 0).await;
    // Cross-site: the CSRF rule.
    let r = b
        .send(
            "POST",
            "/api/checkout/express",
            Some(b"{}".to_vec()),
            &[("Sec-Fetch-Site", "cross-site")],
        )
        .await;
    assert_eq!(r.status, 403);
    // Unknown fields and client amounts, anywhere.
    let r = b
        .post("/api/checkout/express", json!({"coupon": "FREE"}))
        .await;
    assert_eq!(r.status, 400);
    assert!(
        r.error_message().contains("coupon"),
        "{}",
        r.error_message()
    );
    let r = b.post("/api/checkout/express", json!({"amount": 1})).await;
    assert_eq!(r.status, 400);
    assert_eq!(r.error_fields(), ["amount"]);
    assert_eq!(
        count(&api, "SELECT COUNT(*) FROM express_checkout").await,
        0
    );

    let id = begin(&mut b, "").await["checkout_id"]
        .as_str()
        .unwrap()
        .to_string();
    let r = step(
        &mut b,
        &id,
        "shipping-contact",
        "",
        json!({"country_code": "GB", "total": 0}),
    )
    .await;
    assert_eq!(r.status, 400);
    assert_eq!(r.error_fields(), ["total"]);
    // Authorising before a shipping contact: refused.
    let r = step(&mut b, &id, "authorize", "", authorize_body("GB")).await;
    assert_eq!(r.status, 409);
    assert_eq!(
        step(
            &mut b,
            &id,
            "shipping-contact",
            "",
            json!({"country_code": "GB"})
        )
        .await
        .status,
        200
    );
    let mut body = authorize_body("GB");
    body["shipping_contact"]["price"] = json!(0.01);
    let r = step(&mut b, &id, "authorize", "", body).await;
    assert_eq!(r.status, 400);
    assert_eq!(r.error_fields(), ["shipping_contact.price"]);
    let mut body = authorize_body("GB");
    body["payment_token"] = json!("");
    let r = step(&mut b, &id, "authorize", "", body).await;
    assert_eq!(r.error_fields(), ["payment_token"]);
    let mut body = authorize_body("GB");
    body["billing_contact"]["address_lines"] = json!([]);
    let r = step(&mut b, &id, "authorize", "", body).await;
    assert_eq!(r.status, 400);
    assert_eq!(
        r.error_message(),
        "billing_contact.address_lines: Billing address is required"
    );
    let mut body = authorize_body("GB");
    body["shipping_contact"]["country_code"] = json!("DE");
    let r = step(&mut b, &id, "authorize", "", body).await;
    assert_eq!(r.status, 422);
    assert_eq!(r.error_fields(), ["shipping_contact.country_code"]);
    let r = step(
        &mut b,
        &id,
        "merchant-session",
        "",
        json!({"validation_url": "https://evil.example/x"}),
    )
    .await;
    assert_eq!(r.status, 400);
    assert_eq!(r.error_fields(), ["validation_url"]);
    let r = step(
        &mut b,
        "not-an-id",
        "shipping-contact",
        "",
        json!({"country_code": "GB"}),
    )
    .await;
    assert_eq!(r.status, 400);
    // Another shopper cannot use this checkout.
    let mut other = api.browser();
    fill_bag(&api, &mut other, "", 0).await;
    let r = step(
        &mut other,
        &id,
        "shipping-contact",
        "",
        json!({"country_code": "GB"}),
    )
    .await;
    assert_eq!(r.status, 404);

    assert_eq!(count(&api, "SELECT COUNT(*) FROM shop_order").await, 0);
    assert!(provider.calls().is_empty());
    assert!(provider2.calls().iter().all(|c| c.path != "/payments"));
    api.finish().await;
}

async fn a_customers_orders_are_in_their_history(backend: Backend) {
    let (api, _provider) = start(backend, true).await;
    let mut b = api.browser();
    assert_eq!(b.get("/api/customer/orders").await.status, 401);
    register(&mut b, "orders@example.com", "secret123").await;
    assert_eq!(
        b.get("/api/customer/orders").await.json()["orders"],
        json!([])
    );
    let (cart, _) = fill_bag(&api, &mut b, "", 0).await;
    let id = begin(&mut b, "").await["checkout_id"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(
        step(
            &mut b,
            &id,
            "shipping-contact",
            "",
            json!({"country_code": "JE"})
        )
        .await
        .status,
        200
    );
    let r = step(&mut b, &id, "authorize", "", authorize_body("JE")).await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    let number = r.json()["order_number"].clone();

    let orders = b.get("/api/customer/orders").await.json()["orders"].clone();
    assert_eq!(orders.as_array().unwrap().len(), 1);
    assert_eq!(orders[0]["number"], number);
    assert_eq!(
        minor(&orders[0]["total"]),
        minor(&cart["cart_amount"]) + 395
    );
    // Older than 12 months: out of the history.
    sqlx::query("UPDATE shop_order SET created_at = created_at - $1")
        .bind(366i64 * 24 * 3600)
        .execute(api.state.db().pool())
        .await
        .unwrap();
    assert_eq!(
        b.get("/api/customer/orders").await.json()["orders"],
        json!([])
    );
    api.finish().await;
}

on_both!(
    a_paid_checkout_becomes_an_order_at_the_servers_prices,
    the_country_and_shipping_option_rules,
    a_stock_shortage_stops_the_click_and_the_authorisation,
    a_failed_payment_leaves_no_paid_order_and_puts_the_stock_back,
    refused_requests_change_nothing,
    payment_attempts_are_throttled_per_checkout,
    a_customers_orders_are_in_their_history,
);
