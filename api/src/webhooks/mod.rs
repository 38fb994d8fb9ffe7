//! Signed webhooks that trigger rebuilds: `POST /webhooks/content` (the content hub, HMAC
//! signature) and `POST /webhooks/catalog` (the commerce platform, secret header), plus
//! `GET /webhooks/status` (bearer token) reporting the last rebuilds and deploys (on a host
//! without the rebuild daemon, the leader's copy in the store). Bodies above the webhook
//! limit are refused with 413 before any hashing; unauthenticated deliveries get 401; a replayed
//! delivery is acknowledged and ignored. Accepted changes go to the `ChangeSink` the server
//! attached (the rebuild daemon), which coalesces bursts.

pub mod replay;
pub mod status;

/// The signature checks and the sink with its events sit below the state (which holds the sink);
/// their paths under `webhooks` stay.
pub use crate::webhook_signature as signature;
pub use crate::webhook_sink::{ChangeSink, Origin, Webhooks, events};

use crate::error::{ApiError, ErrorCode};
use crate::state::AppState;
use crate::webhook_sink::events::Change;
use axum::Json;
use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};

pub const SIGNATURE_HEADER: &str = "x-amplience-webhook-signature";
pub const SECRET_HEADER: &str = "x-webhook-secret";
/// An explicit delivery id, when the sender (or a relay) provides one; otherwise the body's
/// SHA-256 identifies the delivery (both senders put a timestamp or version in the body).
pub const DELIVERY_ID_HEADER: &str = "x-webhook-delivery-id";

/// The webhook routes, with their own body limit (larger than the shopper API's).
pub fn router(state: AppState) -> Router {
    let limit = state.config().webhook_body_limit;
    Router::new()
        .route("/webhooks/content", axum::routing::post(content))
        .route("/webhooks/catalog", axum::routing::post(catalog))
        .route("/webhooks/status", axum::routing::get(status))
        .with_state(state)
        .layer(DefaultBodyLimit::max(limit))
        // Refuses an honest Content-Length above the limit before reading a byte.
        .layer(tower_http::limit::RequestBodyLimitLayer::new(limit))
}

fn unauthorized(why: &signature::SignatureError, origin: Origin) -> ApiError {
    tracing::warn!(?origin, reason = %why, "webhook refused");
    ApiError::new(
        ErrorCode::BadSignature,
        "The webhook could not be authenticated",
    )
}

/// The answer when this process has no rebuild daemon (`storefront api` on its own): 503, so the
/// sender records a failed delivery and retries rather than believing the site was rebuilt; it
/// is a deployment mistake, not the sender's, and not a fault of this server (never a 500).
fn no_daemon() -> ApiError {
    ApiError::new(
        ErrorCode::NoRebuildDaemon,
        "This server does not rebuild the site: webhooks need `storefront serve` (or `storefront dev`); `storefront api` alone serves the shopper API only",
    )
}

fn header<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}

async fn content(State(state): State<AppState>, headers: HeaderMap, body: Bytes) -> Response {
    let secret = state.config().content_webhook_secret.as_deref();
    match signature::verify_hmac(secret, header(&headers, SIGNATURE_HEADER), &body) {
        Ok(()) => accept(&state, Origin::Content, &headers, &body).await,
        Err(e) => unauthorized(&e, Origin::Content).into_response(),
    }
}

async fn catalog(State(state): State<AppState>, headers: HeaderMap, body: Bytes) -> Response {
    let secret = state.config().catalog_webhook_secret.as_deref();
    match signature::verify_secret_header(secret, header(&headers, SECRET_HEADER)) {
        Ok(()) => accept(&state, Origin::Catalog, &headers, &body).await,
        Err(e) => unauthorized(&e, Origin::Catalog).into_response(),
    }
}

/// What an authenticated delivery's body says changed: 400 when it is not JSON, 422 when it names
/// nothing to act on. Public so the fuzz target and its regression test reach the parser.
pub fn parse_changes(origin: Origin, body: &[u8]) -> Result<Vec<Change>, ApiError> {
    let value: serde_json::Value = serde_json::from_slice(body).map_err(|e| {
        ApiError::new(
            ErrorCode::InvalidJson,
            format!("the webhook body is not JSON: {e}"),
        )
    })?;
    let changes_of = match origin {
        Origin::Content => events::content_changes,
        Origin::Catalog => events::catalog_changes,
    };
    changes_of(&value).map_err(|e| {
        ApiError::new(ErrorCode::WebhookValidation, e.to_string()).with_field(e.field, e.why)
    })
}

/// After authentication: parse, drop replays, hand the changes to the daemon.
async fn accept(state: &AppState, origin: Origin, headers: &HeaderMap, body: &[u8]) -> Response {
    let changes = match parse_changes(origin, body) {
        Ok(c) => c,
        Err(e) => return e.into_response(),
    };
    let delivery = header(headers, DELIVERY_ID_HEADER)
        .filter(|d| !d.is_empty() && d.len() <= 200)
        .map(str::to_string)
        .unwrap_or_else(|| {
            Sha256::digest(body)
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect()
        });
    let webhooks = state.webhooks();
    // Checked before the replay guard so that the sender's retry, once it reaches a process that
    // rebuilds, is not taken for a replay of a delivery nobody acted on.
    let Some(sink) = webhooks.sink.get() else {
        tracing::warn!(
            ?origin,
            %delivery,
            "webhook refused: no rebuild daemon in this process (storefront api alone)"
        );
        let mut res = no_daemon().into_response();
        // Authenticated and about the deployment, not its internals: the sender may read why.
        res.extensions_mut().insert(crate::error::Explained);
        return res;
    };
    let id = format!("{origin:?}:{delivery}");
    match replay::first_time(state.db(), &id, state.now()).await {
        Ok(true) => {}
        Ok(false) => return duplicate(origin, &delivery),
        Err(e) => return e.into_response(),
    }
    tracing::info!(?origin, %delivery, changes = changes.len(), "webhook accepted");
    let count = changes.len();
    if count > 0 {
        sink.submit(origin, &delivery, changes);
    }
    (
        StatusCode::ACCEPTED,
        Json(serde_json::json!({"status": if count > 0 {"queued"} else {"ignored"}, "delivery": delivery, "changes": count})),
    )
        .into_response()
}

/// The answer to a delivery already acted on: 200, so the sender stops retrying.
fn duplicate(origin: Origin, delivery: &str) -> Response {
    tracing::info!(?origin, %delivery, "webhook replay ignored");
    (
        StatusCode::OK,
        Json(serde_json::json!({"status": "duplicate", "delivery": delivery})),
    )
        .into_response()
}

/// `GET /webhooks/status` with `Authorization: Bearer {admin token}`.
async fn status(State(state): State<AppState>, headers: HeaderMap) -> Response {
    if let Err(e) = crate::security::require_admin(state.config().admin_token.as_deref(), &headers)
    {
        return e.into_response();
    }
    match state.webhooks().sink.get() {
        Some(sink) => Json(status::of_daemon(sink.as_ref())).into_response(),
        // Another host leads the rebuilds: its last copy in the store.
        None => match status::from_store(state.db()).await {
            Ok(answer) => Json(answer).into_response(),
            Err(e) => e.into_response(),
        },
    }
}
