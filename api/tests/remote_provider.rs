//! The standard checkout against the card payment provider's Checkout API (Mollie's v2 shape),
//! served by a fake on loopback that answers as the provider does (support/payment_provider.rs):
//! the methods, a card payment, 3-D Secure, a decline, a 5xx, a timeout, captures, releases,
//! refunds and Apple Pay's merchant session. The card number never reaches the API: the
//! browser's token is all it sends. On SQLite and PostgreSQL.

mod common;
#[path = "support/payment_provider.rs"]
mod payment_provider;

use api::payments::config::{PaymentsConfig, ProviderKind};
use common::checkout::*;
use common::*;
use payment_provider::{Call, KEY, Psp, TOKENIZE, start_psp};
use serde_json::json;
use std::time::Duration;

const ADMIN: &str = "operator-token-123";

async fn start(backend: Backend) -> (TestApi, Psp) {
    let (psp, addr) = start_psp().await;
    let api = TestApi::start_with(backend, |c| {
        c.payments = PaymentsConfig {
            provider: ProviderKind::Remote,
            base_url: format!("http://{addr}/"),
            api_key: KEY.into(),
            tokenize_url: TOKENIZE.into(),
            timeout: Duration::from_millis(500),
        };
        c.admin_token = Some(ADMIN.into());
    })
    .await;
    (api, psp)
}

/// A ready checkout of 2 units of a variant with 5 in stock.
async fn ready_bag(api: &TestApi, b: &mut Browser) -> (String, u64) {
    let (p, v) = variants(api, 1)[0];
    set_stock(api, v, 5, 0).await;
    fill_bag(b, "", &[(p, v, 2)]).await;
    let (id, _) = ready(b, "", "GB").await;
    (id, v)
}

async fn card(b: &mut Browser, id: &str, key: &str, token: &str) -> Reply {
    place(b, id, "", key, json!({"method": "scheme", "token": token})).await
}

async fn the_methods_and_a_card_payment_in_the_providers_shape(backend: Backend) {
    let (api, psp) = start(backend).await;
    let mut b = api.browser();
    let (id, v) = ready_bag(&api, &mut b).await;
    let r = b.get(&format!("/api/checkout/{id}/payment-methods")).await;
    assert_eq!(r.status, 200, "{}", text(&r));
    let m = r.json();
    let kinds: Vec<&str> = m["methods"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["type"].as_str().unwrap())
        .collect();
    // Vouchers need the card number sent by the shop: never offered.
    assert_eq!(kinds, ["scheme", "paypal", "klarna", "applepay"]);
    assert_eq!(m["tokenize_url"], TOKENIZE);
    let asked = &psp.calls("GET", "/v2/methods")[0];
    assert_eq!(asked.query["amount[currency]"], "GBP");
    assert_eq!(asked.query["billingCountry"], "GB");
    let total = m["amount"].as_f64().unwrap();
    assert_eq!(asked.query["amount[value]"], format!("{total:.2}"));

    let r = card(&mut b, &id, "remote-ok-0001", "tok_ok").await;
    assert_eq!(r.status, 201, "{}", text(&r));
    let order = r.json()["order_id"].as_str().unwrap().to_string();
    let created = &psp.calls("POST", "/v2/payments")[0];
    assert_eq!(created.idempotency_key.as_deref(), Some(order.as_str()));
    assert_eq!(created.body["captureMode"], "manual");
    assert_eq!(created.body["method"], "creditcard");
    assert_eq!(created.body["cardToken"], "tok_ok");
    assert_eq!(
        created.body["amount"],
        json!({"currency": "GBP", "value": format!("{total:.2}")})
    );
    assert_eq!(created.body["metadata"]["order_id"], order.as_str());
    assert!(
        created.body["redirectUrl"]
            .as_str()
            .unwrap()
            .ends_with(&format!("/checkout/return?order_id={order}"))
    );
    let captures = psp.calls("POST", "/v2/payments/tr_1/captures");
    assert_eq!(captures.len(), 1);
    assert_eq!(
        captures[0].idempotency_key.as_deref(),
        Some(format!("{order}-capture").as_str())
    );
    assert_eq!(
        order_state(&api, &order).await,
        ("Confirmed".into(), "paid".into(), Some("tr_1".into()))
    );
    assert_eq!(stock_of(&api, v).await, vec![(1, 3), (2, 0)]);

    // The operator refunds it through the provider.
    let mut op = api.browser();
    let r = op
        .send(
            "POST",
            &format!("/api/admin/orders/{order}/refund"),
            Some(Vec::new()),
            &[("Authorization", &format!("Bearer {ADMIN}"))],
        )
        .await;
    assert_eq!(r.status, 200, "{}", text(&r));
    let refunds = psp.calls("POST", "/v2/payments/tr_1/refunds");
    assert_eq!(refunds[0].body["amount"]["value"], format!("{total:.2}"));
    api.finish().await;
}

async fn a_decline_and_a_three_d_secure_payment(backend: Backend) {
    let (api, psp) = start(backend).await;
    let mut b = api.browser();
    let (id, v) = ready_bag(&api, &mut b).await;
    let r = card(&mut b, &id, "remote-decline-1", "tok_decline").await;
    assert_eq!(r.status, 402, "{}", text(&r));
    assert_eq!(
        r.json()["error"]["fields"]["payment"],
        "Your card was declined."
    );
    assert_eq!(stock_of(&api, v).await, vec![(1, 5), (2, 0)]);

    let r = card(&mut b, &id, "remote-3ds-0002", "tok_3ds").await;
    assert_eq!(r.status, 202, "{}", text(&r));
    let order = r.json()["order_id"].as_str().unwrap().to_string();
    let psp_id = order_state(&api, &order).await.2.unwrap();
    assert_eq!(
        r.json()["action"]["url"],
        format!("https://psp.example/3ds/{psp_id}")
    );
    // Back before finishing the challenge: still waiting.
    let r = b
        .post(
            &format!("/api/checkout/{id}/payment-details"),
            json!({"order_id": order}),
        )
        .await;
    assert_eq!(r.status, 202, "{}", text(&r));
    psp.set_status(&psp_id, "authorized");
    let r = b
        .post(
            &format!("/api/checkout/{id}/payment-details"),
            json!({"order_id": order}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", text(&r));
    assert_eq!(order_state(&api, &order).await.0, "Confirmed");
    assert_eq!(
        psp.calls("POST", &format!("/v2/payments/{psp_id}/captures"))
            .len(),
        1
    );
    assert_eq!(stock_of(&api, v).await, vec![(1, 3), (2, 0)]);
    api.finish().await;
}

async fn a_timeout_then_the_same_key_pays_once(backend: Backend) {
    let (api, psp) = start(backend).await;
    let mut b = api.browser();
    let (id, v) = ready_bag(&api, &mut b).await;
    let r = card(&mut b, &id, "remote-slow-0001", "tok_slow").await;
    assert_eq!(r.status, 502, "{}", text(&r));
    assert_eq!(r.json()["error"]["code"], "payment_provider_unavailable");
    // The order holds its stock while its outcome is unknown.
    assert_eq!(stock_of(&api, v).await, vec![(1, 3), (2, 0)]);
    // The shopper presses again: the same key asks the provider again with the same payment key,
    // and the provider answers with the payment the first request made.
    let r = card(&mut b, &id, "remote-slow-0001", "tok_slow").await;
    assert_eq!(r.status, 201, "{}", text(&r));
    let created: Vec<Call> = psp
        .calls("POST", "/v2/payments")
        .into_iter()
        .filter(|c| c.path == "/v2/payments")
        .collect();
    assert_eq!(created.len(), 2, "{created:#?}");
    assert_eq!(created[0].idempotency_key, created[1].idempotency_key);
    assert_eq!(psp.0.lock().unwrap().payments.len(), 1);
    assert_eq!(count(&api, "SELECT COUNT(*) FROM shop_order").await, 1);
    assert_eq!(stock_of(&api, v).await, vec![(1, 3), (2, 0)]);
    api.finish().await;
}

async fn a_provider_error_is_reconciled(backend: Backend) {
    let (api, psp) = start(backend).await;
    let mut b = api.browser();
    let (id, v) = ready_bag(&api, &mut b).await;
    let r = card(&mut b, &id, "remote-5xx-00001", "tok_500").await;
    assert_eq!(r.status, 502, "{}", text(&r));
    let order: String = sqlx::query_scalar("SELECT id FROM shop_order")
        .fetch_one(api.state.db().pool())
        .await
        .unwrap();
    assert_eq!(order_state(&api, &order).await.0, "Pending");
    assert_eq!(reconcile(&api, true).await, 1);
    assert_eq!(order_state(&api, &order).await.0, "Cancelled");
    assert_eq!(stock_of(&api, v).await, vec![(1, 5), (2, 0)]);

    // A 3-D Secure payment the shopper abandoned: released at the provider when it goes stale.
    let r = card(&mut b, &id, "remote-3ds-00002", "tok_3ds").await;
    assert_eq!(r.status, 202, "{}", text(&r));
    let order = r.json()["order_id"].as_str().unwrap().to_string();
    let psp_id = order_state(&api, &order).await.2.unwrap();
    assert_eq!(reconcile(&api, true).await, 1);
    assert_eq!(order_state(&api, &order).await.0, "Cancelled");
    assert_eq!(
        psp.calls("DELETE", &format!("/v2/payments/{psp_id}")).len(),
        1
    );
    assert_eq!(stock_of(&api, v).await, vec![(1, 5), (2, 0)]);
    api.finish().await;
}

/// Apple Pay in the payment step: the merchant session through the provider's wallet endpoint
/// (with the shop's domain), then the payment with the wallet's token as `applePayPaymentToken`.
async fn apple_pay_in_the_providers_shape(backend: Backend) {
    let (api, psp) = start(backend).await;
    let mut b = api.browser();
    let (id, v) = ready_bag(&api, &mut b).await;
    let apple_url = "https://apple-pay-gateway.apple.com/paymentservices/paymentSession";
    let r = b
        .post(
            &format!("/api/checkout/{id}/apple-pay-session"),
            json!({"validation_url": apple_url}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", text(&r));
    assert_eq!(r.json()["merchantSessionIdentifier"], "SSH_FAKE");
    let asked = &psp.calls("POST", "/v2/wallets/applepay/sessions")[0];
    assert_eq!(asked.body["validationUrl"], apple_url);
    assert_eq!(asked.body["domain"], "localhost");

    let token = json!({"paymentData": {"data": "enc"}}).to_string();
    let r = place(
        &mut b,
        &id,
        "",
        "remote-apple-01",
        json!({"method": "applepay", "token": token}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", text(&r));
    let created = &psp.calls("POST", "/v2/payments")[0];
    assert_eq!(created.body["method"], "applepay");
    assert_eq!(created.body["applePayPaymentToken"], token.as_str());
    assert!(created.body.get("cardToken").is_none());
    assert_eq!(stock_of(&api, v).await, vec![(1, 3), (2, 0)]);
    api.finish().await;
}

on_both!(
    apple_pay_in_the_providers_shape,
    the_methods_and_a_card_payment_in_the_providers_shape,
    a_decline_and_a_three_d_secure_payment,
    a_timeout_then_the_same_key_pays_once,
    a_provider_error_is_reconciled,
);
