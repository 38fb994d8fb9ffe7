//! Checkout helpers for the flow, race and provider tests: a bag with stock set exactly, the
//! checkout steps as the screens call them, card tokens from the sandbox's tokenisation endpoint,
//! and Place order with an idempotency key.

use super::{Browser, Reply, TestApi, line};
use serde_json::{Value, json};

pub const CARD_OK: &str = "4242 4242 4242 4242";
pub const CARD_DECLINED: &str = "4000 0000 0000 0002";
pub const CARD_CHALLENGE: &str = "4000 0000 0000 3220";
pub const CARD_ERROR: &str = "4000 0000 0000 0119";

/// Sets a variant's stock: `main` units at the main warehouse (1), `second` at location 2.
pub async fn set_stock(api: &TestApi, variant: u64, main: i64, second: i64) {
    let pool = api.state.db().pool();
    sqlx::query("DELETE FROM inventory WHERE variant_id = $1")
        .bind(variant as i64)
        .execute(pool)
        .await
        .unwrap();
    for (location, units) in [(1i64, main), (2, second)] {
        sqlx::query(
            "INSERT INTO inventory (variant_id, location_id, enabled, available) VALUES ($1, $2, 1, $3)",
        )
        .bind(variant as i64)
        .bind(location)
        .bind(units)
        .execute(pool)
        .await
        .unwrap();
    }
}

/// `(location, available)` of a variant, in location order.
pub async fn stock_of(api: &TestApi, variant: u64) -> Vec<(i64, i64)> {
    sqlx::query_as(
        "SELECT location_id, available FROM inventory WHERE variant_id = $1 ORDER BY location_id",
    )
    .bind(variant as i64)
    .fetch_all(api.state.db().pool())
    .await
    .unwrap()
}

pub async fn count(api: &TestApi, sql: &'static str) -> i64 {
    sqlx::query_scalar(sql)
        .fetch_one(api.state.db().pool())
        .await
        .unwrap()
}

/// The first `n` purchasable (product, variant) pairs of different products, in id order.
pub fn variants(api: &TestApi, n: usize) -> Vec<(u64, u64)> {
    let catalog = api.state.catalog();
    let mut picked: Vec<(u64, u64, i64)> = catalog.purchasable_stock().collect();
    picked.sort();
    let mut out: Vec<(u64, u64)> = Vec::new();
    for (p, v, _) in picked {
        if !out.iter().any(|(q, _)| *q == p) {
            out.push((p, v));
        }
        if out.len() == n {
            break;
        }
    }
    out
}

/// A bag holding `quantity` of each (product, variant), in market `q` (`""`, `"?market=us"`).
pub async fn fill_bag(b: &mut Browser, q: &str, lines: &[(u64, u64, i64)]) -> Value {
    let r = b.post(&format!("/api/cart{q}"), json!({})).await;
    assert_eq!(r.status, 201, "{}", text(&r));
    let mut cart = Value::Null;
    for (p, v, quantity) in lines {
        let r = b
            .post(&format!("/api/cart/items{q}"), line(*p, *v, *quantity))
            .await;
        assert_eq!(r.status, 201, "{}", text(&r));
        cart = r.json();
    }
    cart
}

pub fn text(r: &Reply) -> String {
    String::from_utf8_lossy(&r.body).to_string()
}

/// A complete delivery address in `country`.
pub fn address(country: &str) -> Value {
    let (city, postal, state) = match country {
        "US" => ("Reno", "89501", "Nevada"),
        "DE" => ("Berlin", "10115", ""),
        _ => ("London", "N1 9GU", ""),
    };
    json!({
        "first_name": "Ada", "last_name": "Lovelace", "street_name": "Analytical Row",
        "house_number": "1", "city": city, "state_or_province": state, "postal_code": postal,
        "country_code": country, "phone": "+44 20 7946 0000"
    })
}

/// Starts (or resumes) the checkout of the bag: its view.
pub async fn begin(b: &mut Browser, q: &str) -> Value {
    let r = b.post(&format!("/api/checkout{q}"), json!({})).await;
    assert!(r.status == 201 || r.status == 200, "{}", text(&r));
    r.json()
}

pub async fn put(b: &mut Browser, id: &str, step: &str, q: &str, body: Value) -> Reply {
    b.put(&format!("/api/checkout/{id}/{step}{q}"), body).await
}

/// Runs the steps up to payment: email, delivery address, the first shipping option, billing as
/// delivery. Returns the checkout id and the view.
pub async fn ready(b: &mut Browser, q: &str, country: &str) -> (String, Value) {
    let view = begin(b, q).await;
    let id = view["id"].as_str().unwrap().to_string();
    if view["signed_in"] != true {
        let r = put(b, &id, "email", q, json!({"email": "ada@example.com"})).await;
        assert_eq!(r.status, 200, "{}", text(&r));
    }
    let r = put(
        b,
        &id,
        "consignment",
        q,
        json!({ "address": address(country) }),
    )
    .await;
    assert_eq!(r.status, 200, "{}", text(&r));
    let option = r.json()["consignment"]["shipping_options"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    let r = put(
        b,
        &id,
        "shipping-option",
        q,
        json!({ "shipping_option_id": option }),
    )
    .await;
    assert_eq!(r.status, 200, "{}", text(&r));
    let r = put(
        b,
        &id,
        "billing-address",
        q,
        json!({"same_as_delivery": true}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", text(&r));
    let view = r.json();
    assert_eq!(view["next_step"], "payment", "{view}");
    (id, view)
}

/// A card token from the sandbox's tokenisation endpoint (the browser's side of the card form).
pub async fn card_token(b: &mut Browser, number: &str) -> String {
    let r = b
        .post(
            "/sandbox-pay/v1/tokens",
            json!({"type": "scheme", "number": number, "expiry_month": "12",
                   "expiry_year": "2040", "cvc": "123", "holder_name": "Ada Lovelace"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", text(&r));
    r.json()["token"].as_str().unwrap().to_string()
}

/// Place order with `key`, paying with `payment`.
pub async fn place(b: &mut Browser, id: &str, q: &str, key: &str, payment: Value) -> Reply {
    b.send(
        "POST",
        &format!("/api/checkout/{id}/orders{q}"),
        Some(json!({ "payment": payment }).to_string().into_bytes()),
        &[("Idempotency-Key", key)],
    )
    .await
}

/// Place order by card.
pub async fn pay_by_card(b: &mut Browser, id: &str, q: &str, key: &str, number: &str) -> Reply {
    let token = card_token(b, number).await;
    place(b, id, q, key, json!({"method": "scheme", "token": token})).await
}

/// `path?query` of an absolute or relative URL.
pub fn path_of(url: &str) -> String {
    match url.find("://") {
        Some(i) => {
            let rest = &url[i + 3..];
            rest.find('/').map_or("/".into(), |j| rest[j..].to_string())
        }
        None => url.to_string(),
    }
}

/// Follows a sandbox redirect (3-D Secure or approval page) and answers it: the path the
/// sandbox sends the shopper back to.
pub async fn answer_sandbox_page(b: &mut Browser, url: &str, pass: bool) -> String {
    let page = b.get(&path_of(url)).await;
    assert_eq!(page.status, 200, "{}", text(&page));
    let html = text(&page);
    assert!(html.contains("<form method=\"post\">"), "{html}");
    let r = b
        .send(
            "POST",
            &path_of(url),
            Some(format!("result={}", if pass { "pass" } else { "fail" }).into_bytes()),
            &[("Content-Type", "application/x-www-form-urlencoded")],
        )
        .await;
    assert_eq!(r.status, 303, "{}", text(&r));
    r.header("location").unwrap().to_string()
}

/// `(status, payment_status, payment_reference)` of an order.
pub async fn order_state(api: &TestApi, order: &str) -> (String, String, Option<String>) {
    sqlx::query_as("SELECT status, payment_status, payment_reference FROM shop_order WHERE id = $1")
        .bind(order)
        .fetch_one(api.state.db().pool())
        .await
        .unwrap()
}

/// One reconciliation pass, after moving the clock past the Pending limit when `later`.
pub async fn reconcile(api: &TestApi, later: bool) -> u64 {
    if later {
        api.state
            .advance_clock(api::checkout::reconcile::PENDING_LIMIT_SECS + 1);
    }
    api::checkout::reconcile::reconcile_stale(&api.state)
        .await
        .unwrap()
}
