//! A fake of the card payment provider's Checkout API (Mollie's v2 shape) on loopback, answering
//! as the provider does: the methods for an amount and country, payments created with
//! `captureMode: manual` and an `Idempotency-Key` (a repeated key replays the first answer),
//! 3-D Secure through the payment's checkout link (`tok_3ds`), a decline (`tok_decline`), a 5xx
//! (`tok_500`), a slow answer (`tok_slow`), captures, releases, refunds and Apple Pay's merchant
//! session. It records every call. Shared by the API's provider tests and the two-host test.
#![allow(dead_code)]

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

pub const KEY: &str = "live_fake_key";
pub const TOKENIZE: &str = "https://js.psp.example/v1/card-tokens";

#[derive(Debug, Clone)]
pub struct Call {
    pub method: String,
    pub path: String,
    pub idempotency_key: Option<String>,
    pub query: HashMap<String, String>,
    pub body: Value,
}

#[derive(Default)]
pub struct Fake {
    pub calls: Vec<Call>,
    /// Payments by id, and the first answer per idempotency key.
    pub payments: HashMap<String, Value>,
    pub replies: HashMap<String, String>,
}

#[derive(Clone, Default)]
pub struct Psp(pub Arc<Mutex<Fake>>);

impl Psp {
    pub fn calls(&self, method: &str, path_start: &str) -> Vec<Call> {
        let f = self.0.lock().unwrap();
        f.calls
            .iter()
            .filter(|c| c.method == method && c.path.starts_with(path_start))
            .cloned()
            .collect()
    }

    pub fn set_status(&self, id: &str, status: &str) {
        let mut f = self.0.lock().unwrap();
        let p = f.payments.get_mut(id).unwrap();
        p["status"] = json!(status);
        p["_links"] = json!({});
    }

    fn record(
        &self,
        method: &str,
        path: &str,
        h: &HeaderMap,
        q: HashMap<String, String>,
        body: Value,
    ) -> bool {
        let mut f = self.0.lock().unwrap();
        f.calls.push(Call {
            method: method.into(),
            path: path.into(),
            idempotency_key: h
                .get("idempotency-key")
                .and_then(|v| v.to_str().ok())
                .map(str::to_string),
            query: q,
            body,
        });
        h.get("authorization").and_then(|v| v.to_str().ok()) == Some(&format!("Bearer {KEY}"))
    }
}

fn unauthorised() -> Response {
    (StatusCode::UNAUTHORIZED, Json(json!({"status": 401, "title": "Unauthorized Request", "detail": "Missing authentication"}))).into_response()
}

async fn methods(
    State(psp): State<Psp>,
    h: HeaderMap,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    if !psp.record("GET", "/v2/methods", &h, q, Value::Null) {
        return unauthorised();
    }
    Json(json!({
        "count": 5,
        "_embedded": {"methods": [
            {"resource": "method", "id": "creditcard", "description": "Card"},
            {"resource": "method", "id": "paypal", "description": "PayPal"},
            {"resource": "method", "id": "klarnapaylater", "description": "Pay later."},
            {"resource": "method", "id": "applepay", "description": "Apple Pay"},
            {"resource": "method", "id": "voucher", "description": "Vouchers"}
        ]}
    }))
    .into_response()
}

async fn create_payment(State(psp): State<Psp>, h: HeaderMap, Json(body): Json<Value>) -> Response {
    if !psp.record("POST", "/v2/payments", &h, HashMap::new(), body.clone()) {
        return unauthorised();
    }
    let token = body["cardToken"].as_str().unwrap_or("").to_string();
    let key = h
        .get("idempotency-key")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    {
        // A repeated key replays the first answer.
        let f = psp.0.lock().unwrap();
        if let Some(id) = f.replies.get(&key) {
            return (StatusCode::CREATED, Json(f.payments[id].clone())).into_response();
        }
    }
    if token == "tok_500" {
        return (StatusCode::INTERNAL_SERVER_ERROR, "upstream trouble").into_response();
    }
    let payment = {
        let mut f = psp.0.lock().unwrap();
        let id = format!("tr_{}", f.payments.len() + 1);
        let (status, links, reason) = match token.as_str() {
            "tok_decline" => (
                "failed",
                json!({}),
                json!({"failureReason": "card_declined"}),
            ),
            "tok_3ds" => (
                "open",
                json!({"checkout": {"href": format!("https://psp.example/3ds/{id}")}}),
                json!({}),
            ),
            _ => ("authorized", json!({}), json!({})),
        };
        let payment = json!({
            "resource": "payment", "id": id, "mode": "test", "status": status,
            "amount": body["amount"], "method": body["method"], "metadata": body["metadata"],
            "captureMode": body["captureMode"], "details": reason, "_links": links,
        });
        f.payments.insert(id.clone(), payment.clone());
        f.replies.insert(key, id);
        payment
    };
    if token == "tok_slow" {
        // The payment is made, but the answer comes after the API gave up.
        tokio::time::sleep(Duration::from_millis(1500)).await;
    }
    (StatusCode::CREATED, Json(payment)).into_response()
}

async fn get_payment(State(psp): State<Psp>, h: HeaderMap, Path(id): Path<String>) -> Response {
    if !psp.record(
        "GET",
        &format!("/v2/payments/{id}"),
        &h,
        HashMap::new(),
        Value::Null,
    ) {
        return unauthorised();
    }
    match psp.0.lock().unwrap().payments.get(&id) {
        Some(p) => Json(p.clone()).into_response(),
        None => (StatusCode::NOT_FOUND, Json(json!({"status": 404, "title": "Not Found", "detail": "No payment exists with token"}))).into_response(),
    }
}

async fn payment_action(
    State(psp): State<Psp>,
    h: HeaderMap,
    Path((id, action)): Path<(String, String)>,
    body: Option<Json<Value>>,
) -> Response {
    let body = body.map_or(Value::Null, |Json(b)| b);
    if !psp.record(
        "POST",
        &format!("/v2/payments/{id}/{action}"),
        &h,
        HashMap::new(),
        body.clone(),
    ) {
        return unauthorised();
    }
    let mut f = psp.0.lock().unwrap();
    let Some(p) = f.payments.get_mut(&id) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    match (action.as_str(), p["status"].as_str().unwrap_or("")) {
        ("captures", "authorized") => {
            p["status"] = json!("paid");
            (StatusCode::CREATED, Json(json!({"resource": "capture", "id": "cpt_1", "amount": body["amount"]}))).into_response()
        }
        ("release-authorization", "authorized") => {
            p["status"] = json!("canceled");
            (StatusCode::ACCEPTED, Json(json!({}))).into_response()
        }
        ("refunds", "paid") => (StatusCode::CREATED, Json(json!({"resource": "refund", "id": "re_1", "amount": body["amount"]}))).into_response(),
        _ => (StatusCode::UNPROCESSABLE_ENTITY, Json(json!({"status": 422, "title": "Unprocessable Entity", "detail": format!("cannot {action} a payment that is {}", p["status"])}))).into_response(),
    }
}

async fn delete_payment(State(psp): State<Psp>, h: HeaderMap, Path(id): Path<String>) -> Response {
    if !psp.record(
        "DELETE",
        &format!("/v2/payments/{id}"),
        &h,
        HashMap::new(),
        Value::Null,
    ) {
        return unauthorised();
    }
    if let Some(p) = psp.0.lock().unwrap().payments.get_mut(&id) {
        p["status"] = json!("canceled");
    }
    StatusCode::OK.into_response()
}

/// Mollie's `POST /v2/wallets/applepay/sessions`: it asks Apple and answers the merchant session.
async fn apple_pay_session(
    State(psp): State<Psp>,
    h: HeaderMap,
    Json(body): Json<Value>,
) -> Response {
    if !psp.record(
        "POST",
        "/v2/wallets/applepay/sessions",
        &h,
        HashMap::new(),
        body.clone(),
    ) {
        return unauthorised();
    }
    Json(json!({
        "epochTimestamp": 1_700_000_000_000_i64, "expiresAt": 1_700_003_600_000_i64,
        "merchantSessionIdentifier": "SSH_FAKE", "nonce": "fe2b",
        "merchantIdentifier": "FAKE", "domainName": body["domain"],
        "displayName": "Shop", "signature": "308006",
    }))
    .into_response()
}

/// Serves the fake on a free loopback port: its recorder and address.
pub async fn start_psp() -> (Psp, SocketAddr) {
    let psp = Psp::default();
    let app = axum::Router::new()
        .route("/v2/methods", get(methods))
        .route("/v2/payments", post(create_payment))
        .route("/v2/payments/{id}", get(get_payment).delete(delete_payment))
        .route("/v2/payments/{id}/{action}", post(payment_action))
        .route("/v2/wallets/applepay/sessions", post(apple_pay_session))
        .with_state(psp.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (psp, addr)
}
