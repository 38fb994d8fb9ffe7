//! The commerce API mounted under /api: carts, live stock, accounts and sign-in, addresses,
//! wishlists, the checkouts and the small calls the front end needs. This file declares the
//! modules and assembles the router and its OpenAPI document; `app(state)` returns the router the
//! servers nest at /api, `AppState::open` connects the store and imports the catalog export.

pub mod account;
pub mod auth;
pub mod bag;
pub mod cart;
pub mod catalog;
pub mod checkout;
pub mod config;
pub mod contract;
pub mod error;
pub mod fields;
pub mod health;
pub mod inventory;
pub mod janitor;
pub mod json;
pub mod leader;
pub mod mail;
pub mod marketing;
pub mod password;
pub mod payments;
pub mod preview;
pub mod promotions;
pub mod promotions_client;
pub mod rate_limit;
mod rows;
pub mod search;
pub mod search_index;
pub mod security;
pub mod session;
pub mod state;
pub mod stock;
pub mod stock_rows;
pub mod store;
pub mod strict_query;
pub mod upstream;
pub mod webhook_signature;
pub mod webhook_sink;
pub mod webhooks;
pub mod wishlist;

pub use config::Config;
pub use state::AppState;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use std::sync::Arc;
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;

#[derive(OpenApi)]
#[openapi(
    info(title = "Storefront commerce API", description = "Carts, stock, accounts and wishlists. Mounted at /api."),
    servers((url = "/api")),
    components(schemas(error::ErrorBody, contract::MarketCode))
)]
struct ApiDoc;

/// Every route with its OpenAPI description, before state is attached.
fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .merge(health::router())
        .merge(marketing::router())
        .merge(stock::router())
        .merge(cart::router())
        .merge(promotions::router())
        .merge(checkout::router())
        .merge(mail::admin::router())
        .merge(auth::router())
        .merge(auth::reset::router())
        .merge(auth::confirmation::router())
        .merge(account::router())
        .merge(wishlist::router())
        .merge(search::router())
}

/// The OpenAPI document served at /api/openapi.json.
pub fn openapi() -> utoipa::openapi::OpenApi {
    split_routes().1
}

/// The router and its document, completed with the answers every operation shares.
fn split_routes() -> (axum::Router<AppState>, utoipa::openapi::OpenApi) {
    let (router, mut doc) = routes().split_for_parts();
    contract::complete(&mut doc);
    (router, doc)
}

/// The API router, to be nested at `/api`.
pub fn app(state: AppState) -> Router {
    mail::message::prepare();
    let (router, doc) = split_routes();
    let doc = Arc::new(doc);
    let rules = Arc::new(security::CsrfRules::new(
        state.config().trusted_origins.clone(),
        &doc,
    ));
    let limit = state.config().body_limit;
    router
        .route(
            "/openapi.json",
            axum::routing::get(move || {
                let doc = doc.clone();
                async move { axum::Json(doc.as_ref().clone()) }
            }),
        )
        // Only on routes and methods they take: a method no route takes is a 405, whatever
        // its body, before the CSRF and content-type rules could answer 403 or 415.
        .route_layer(axum::middleware::from_fn_with_state(rules, security::csrf))
        .fallback(|| async { error::ApiError::new(error::ErrorCode::NoRoute, "No such endpoint") })
        .with_state(state.clone())
        // Two limits: axum's extractor limit (what `StrictJson` reads) and tower-http's, which also
        // refuses an honest Content-Length before any byte is read.
        .layer(DefaultBodyLimit::max(limit))
        .layer(tower_http::limit::RequestBodyLimitLayer::new(limit))
        // Server-to-server webhooks: their own body limit, authenticated by signature, not by
        // the browser-oriented CSRF rule.
        .merge(webhooks::router(state.clone()))
        .merge(marketing::unsubscribe_router(state.clone()))
        .merge(preview::router().with_state(state))
        .layer(axum::middleware::from_fn(
            security::json_errors_for_bare_answers,
        ))
        .layer(axum::middleware::from_fn(security::api_response_headers))
        .layer(axum::middleware::from_fn(security::request_id))
        // JSON answers gzipped for a client that accepts it (a product's stock is ~9 kB of
        // JSON, 0.8 kB gzipped); tiny answers and those without Accept-Encoding go as they are.
        .layer(tower_http::compression::CompressionLayer::new())
}

#[cfg(test)]
mod tests;
