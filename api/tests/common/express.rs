//! A fake of the card payment provider's wallet API on loopback, in its HTTP shape (merchant
//! session, `applePayPayment` answered authorised, declined, refused or broken), for the express
//! checkout's flow and race tests.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

pub const API_KEY: &str = "psp-test-key";
pub const VALIDATION_URL: &str = "https://apple-pay-gateway.apple.com/paymentservices/startSession";

#[derive(Debug, Clone)]
pub struct Call {
    pub path: String,
    pub authorization: Option<String>,
    pub idempotency_key: Option<String>,
    pub body: Value,
}

/// How the fake provider answers payments.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub enum Answer {
    #[default]
    Authorise,
    /// 200 with `status: declined`.
    Decline,
    /// 402 Payment Required.
    Refuse,
    /// 500.
    Break,
}

#[derive(Clone, Default)]
pub struct Provider(Arc<Mutex<(Vec<Call>, Answer)>>);

impl Provider {
    pub fn calls(&self) -> Vec<Call> {
        self.0.lock().unwrap().0.clone()
    }
    pub fn answer(&self, a: Answer) {
        self.0.lock().unwrap().1 = a;
    }
    fn record(&self, path: &str, h: &HeaderMap, body: Value) -> Answer {
        let header = |n: &str| h.get(n).and_then(|v| v.to_str().ok()).map(str::to_string);
        let mut s = self.0.lock().unwrap();
        s.0.push(Call {
            path: path.into(),
            authorization: header("authorization"),
            idempotency_key: header("idempotency-key"),
            body,
        });
        s.1
    }
}

fn authorised(h: &HeaderMap) -> bool {
    h.get("authorization").and_then(|v| v.to_str().ok())
        == Some(format!("Bearer {API_KEY}").as_str())
}

async fn merchant_session(
    State(p): State<Provider>,
    h: HeaderMap,
    axum::Json(body): axum::Json<Value>,
) -> Response {
    p.record("/merchant-session", &h, body.clone());
    if !authorised(&h) {
        return StatusCode::UNAUTHORIZED.into_response();
    }
    axum::Json(json!({
        "merchantSessionIdentifier": "SSH-test", "displayName": body["displayName"],
        "domainName": body["initiativeContext"], "signature": "c2lnbmF0dXJl"
    }))
    .into_response()
}

async fn payments(
    State(p): State<Provider>,
    h: HeaderMap,
    axum::Json(body): axum::Json<Value>,
) -> Response {
    let answer = p.record("/payments", &h, body.clone());
    if !authorised(&h) {
        return StatusCode::UNAUTHORIZED.into_response();
    }
    match answer {
        Answer::Authorise => axum::Json(json!({
            "status": "authorised", "reference": format!("psp_{}", body["orderId"].as_str().unwrap())
        }))
        .into_response(),
        Answer::Decline => {
            axum::Json(json!({"status": "declined", "reason": "insufficient funds"})).into_response()
        }
        Answer::Refuse => StatusCode::PAYMENT_REQUIRED.into_response(),
        Answer::Break => (StatusCode::INTERNAL_SERVER_ERROR, "provider trouble").into_response(),
    }
}

pub async fn start_provider() -> (Provider, SocketAddr) {
    let provider = Provider::default();
    let app = axum::Router::new()
        .route("/psp/applepay/merchant-session", post(merchant_session))
        .route("/psp/applepay/payments", post(payments))
        .with_state(provider.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (provider, addr)
}
