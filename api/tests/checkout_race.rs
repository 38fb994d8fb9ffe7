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

/// One shopper's last request, ready to send: Place order or the express authorisation.
struct Press {
    browser: Browser,
    path: String,
    body: Value,
    key: Option<String>,
}

impl Press {
    async fn send(mut self) -> Reply {
        let key = self.key.unwrap_or_default();
        let headers: Vec<(&str, &str)> = if key.is_empty() {
            Vec::new()
        } else {
            vec![("Idempotency-Key", key.as_str())]
        };
        self.browser
            .send(
                "POST",
                &self.path,
                Some(self.body.to_string().into_bytes()),
                &headers,
            )
            .await
    }
}

#[derive(Clone, Copy)]
enum Kind {
    Standard,
    Express,
}

fn contact() -> Value {
    json!({
        "given_name": "Ada", "family_name": "Lovelace", "email_address": "ada@example.com",
        "phone_number": "+44 20 7946 0000", "address_lines": ["1 Analytical Row"],
        "locality": "London", "postal_code": "N1 9GU", "country_code": "GB"
    })
}

/// A shopper with one unit of `(p, v)` in the bag, taken through the checkout up to its last press.
async fn shopper(api: &TestApi, kind: Kind, (p, v): (u64, u64), key: String) -> Press {
    let mut b = api.browser();
    fill_bag(&mut b, "", &[(p, v, 1)]).await;
    match kind {
        Kind::Standard => {
            let (id, _) = ready(&mut b, "", "GB").await;
            let token = card_token(&mut b, CARD_OK).await;
            Press {
                browser: b,
                path: format!("/api/checkout/{id}/orders"),
                body: json!({"payment": {"method": "scheme", "token": token}}),
                key: Some(key),
            }
        }
        Kind::Express => {
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
            Press {
                browser: b,
                path: format!("/api/checkout/express/{id}/authorize"),
                body: json!({
                    "payment_token": {"paymentData": {"data": "ZW5j"}},
                    "shipping_contact": contact(),
                    "billing_contact": contact(),
                }),
                key: None,
            }
        }
    }
}

/// `ROUNDS` contests: `SHOPPERS` presses released together by a barrier for `STOCK` units (split
/// over both warehouses, so an order may take from two rows). Each round: exactly `STOCK` paid,
/// the rest refused with the stock message, the stock at zero and never below, no 5xx.
async fn race(backend: Backend, kind: Kind) {
    let api = start(backend).await;
    let line = variants(&api, 1)[0];
    for round in 0..ROUNDS {
        set_stock(&api, line.1, STOCK - 1, 1).await;
        let mut presses = Vec::new();
        for i in 0..SHOPPERS {
            presses.push(shopper(&api, kind, line, format!("race-{round}-{i}-key")).await);
        }
        let barrier = Arc::new(Barrier::new(presses.len()));
        let tasks: Vec<_> = presses
            .into_iter()
            .map(|press| {
                let barrier = barrier.clone();
                tokio::spawn(async move {
                    barrier.wait().await;
                    press.send().await
                })
            })
            .collect();
        let mut paid = 0;
        for t in tasks {
            let r = t.await.unwrap();
            assert!(r.status < 500, "round {round}: {}", text(&r));
            if r.status == 201 {
                paid += 1;
            } else {
                assert_eq!(r.status, 409, "round {round}: {}", text(&r));
                assert_eq!(
                    r.json()["error"]["code"],
                    "insufficient_stock",
                    "{}",
                    text(&r)
                );
            }
        }
        assert_eq!(paid, STOCK, "round {round}");
        let stock = stock_of(&api, line.1).await;
        assert!(stock.iter().all(|(_, units)| *units >= 0), "{stock:?}");
        assert_eq!(
            stock.iter().map(|(_, u)| u).sum::<i64>(),
            0,
            "round {round}"
        );
    }
    let confirmed = count(
        &api,
        "SELECT COUNT(*) FROM shop_order WHERE status = 'Confirmed'",
    )
    .await;
    assert_eq!(confirmed, ROUNDS as i64 * STOCK);
    api.finish().await;
}

async fn standard_orders_never_oversell(backend: Backend) {
    race(backend, Kind::Standard).await;
}

async fn express_authorisations_never_oversell(backend: Backend) {
    race(backend, Kind::Express).await;
}

on_both!(
    standard_orders_never_oversell,
    express_authorisations_never_oversell
);
