//! The commerce API mounted under /api: carts, stock, accounts and wishlists (built out by the
//! commerce-API work). `app(state)` returns the router the servers nest at /api.

use axum::{Json, Router, routing::get};
use serde_json::json;

/// Shared state of the API. Grows with the store, catalog and sessions.
#[derive(Clone, Default)]
pub struct AppState {}

/// The API router, to be nested at `/api`.
pub fn app(state: AppState) -> Router {
    Router::new()
        .route("/health", get(health))
        .with_state(state)
}

async fn health() -> Json<serde_json::Value> {
    Json(json!({"status": "ok"}))
}
