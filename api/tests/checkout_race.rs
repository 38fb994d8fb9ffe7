//! No unit is ever sold twice: K shoppers place orders for a variant with S < K units at the same
//! moment (tasks released together by a barrier, over real HTTP), many rounds, through the
//! standard checkout (sandbox provider) and the express checkout (fake wallet provider). Exactly S
//! orders are paid, the others are refused with the stock message, the stock ends at zero and
//! never below, and nothing answers 5xx. On SQLite and PostgreSQL.

mod common;

use api::checkout::ExpressConfig;
use common::checkout::*;
use common::express::*;
use common::*;
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Barrier;

/// Shoppers per round, and units in stock.
const SHOPPERS: usize = 6;
const STOCK: i64 = 3;
/// Rounds per checkout kind and store: 2 × 100 = 200 contests per store.
const ROUNDS: usize = 100;

async fn start(backend: Backend) -> TestApi {
    let (_provider, addr) = start_provider().await;
    TestApi::start_with(backend, |c| {
        c.express = ExpressConfig {
            enabled: true,
            base_url: format!("http://{addr}/psp/"),
            api_key: API_KEY.into(),
            timeout: Duration::from_millis(5000),
        };
        // Every contender pays from the same loopback address.
        c.payment_attempts_per_client = 100_000;
    })
    .await
}

/// Releases `contenders` together and collects their answers.
async fn contest<F, Fut>(contenders: Vec<F>) -> Vec<Reply>
where
    F: FnOnce() -> Fut + Send + 'static,
    Fut: std::future::Future<Output = Reply> + Send + 'static,
{
    let barrier = Arc::new(Barrier::new(contenders.len()));
    let tasks: Vec<_> = contenders
        .into_iter()
        .map(|go| {
            let barrier = barrier.clone();
            tokio::spawn(async move {
                barrier.wait().await;
                go().await
            })
        })
        .collect();
    let mut replies = Vec::new();
    for t in tasks {
        replies.push(t.await.unwrap());
    }
    replies
}

/// Exactly `STOCK` paid (`ok` status), the rest refused with the stock message, stock at zero.
async fn check_round(api: &TestApi, v: u64, replies: &[Reply], ok: u16, round: usize) {
    let paid = replies.iter().filter(|r| r.status == ok).count();
    for r in replies {
        assert!(r.status < 500, "round {round}: {}", text(r));
        if r.status != ok {
            assert_eq!(r.status, 409, "round {round}: {}", text(r));
            assert_eq!(
                r.json()["error"]["code"],
                "insufficient_stock",
                "{}",
                text(r)
            );
        }
    }
    assert_eq!(paid, STOCK as usize, "round {round}");
    let stock = stock_of(api, v).await;
    assert!(stock.iter().all(|(_, units)| *units >= 0), "{stock:?}");
    assert_eq!(
        stock.iter().map(|(_, u)| u).sum::<i64>(),
        0,
        "round {round}"
    );
}

async fn standard_orders_never_oversell(backend: Backend) {
    let api = start(backend).await;
    let (p, v) = variants(&api, 1)[0];
    for round in 0..ROUNDS {
        // Units split over both warehouses, so an order may take from two rows.
        set_stock(&api, v, STOCK - 1, 1).await;
        let mut contenders = Vec::new();
        for i in 0..SHOPPERS {
            let mut b = api.browser();
            fill_bag(&mut b, "", &[(p, v, 1)]).await;
            let (id, _) = ready(&mut b, "", "GB").await;
            let token = card_token(&mut b, CARD_OK).await;
            let key = format!("race-{round}-{i}-key");
            contenders.push(move || async move {
                place(
                    &mut b,
                    &id,
                    "",
                    &key,
                    json!({"method": "scheme", "token": token}),
                )
                .await
            });
        }
        let replies = contest(contenders).await;
        check_round(&api, v, &replies, 201, round).await;
    }
    let paid = count(
        &api,
        "SELECT COUNT(*) FROM shop_order WHERE status = 'Confirmed'",
    )
    .await;
    assert_eq!(paid, ROUNDS as i64 * STOCK);
    api.finish().await;
}

fn contact() -> Value {
    json!({
        "given_name": "Ada", "family_name": "Lovelace", "email_address": "ada@example.com",
        "phone_number": "+44 20 7946 0000", "address_lines": ["1 Analytical Row"],
        "locality": "London", "postal_code": "N1 9GU", "country_code": "GB"
    })
}

async fn express_authorisations_never_oversell(backend: Backend) {
    let api = start(backend).await;
    let (p, v) = variants(&api, 1)[0];
    for round in 0..ROUNDS {
        set_stock(&api, v, STOCK - 1, 1).await;
        let mut contenders = Vec::new();
        for _ in 0..SHOPPERS {
            let mut b = api.browser();
            fill_bag(&mut b, "", &[(p, v, 1)]).await;
            let r = b.post("/api/checkout/express", json!({})).await;
            assert_eq!(r.status, 201, "{}", text(&r));
            let id = r.json()["checkout_id"].as_str().unwrap().to_string();
            let r = b
                .post(
                    &format!("/api/checkout/express/{id}/shipping-contact"),
                    json!({"country_code": "GB"}),
                )
                .await;
            assert_eq!(r.status, 200, "{}", text(&r));
            contenders.push(move || async move {
                b.post(
                    &format!("/api/checkout/express/{id}/authorize"),
                    json!({
                        "payment_token": {"paymentData": {"data": "ZW5j"}},
                        "shipping_contact": contact(),
                        "billing_contact": contact(),
                    }),
                )
                .await
            });
        }
        let replies = contest(contenders).await;
        check_round(&api, v, &replies, 201, round).await;
    }
    let paid = count(
        &api,
        "SELECT COUNT(*) FROM shop_order WHERE status = 'Confirmed'",
    )
    .await;
    assert_eq!(paid, ROUNDS as i64 * STOCK);
    api.finish().await;
}

on_both!(
    standard_orders_never_oversell,
    express_authorisations_never_oversell
);
