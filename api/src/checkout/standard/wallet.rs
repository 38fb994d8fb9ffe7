//! Apple Pay in the payment step: the merchant session its sheet asks for before it shows, got
//! through the payment provider (which holds the merchant certificate). The payment itself is
//! Place order with the wallet's token, as for every other method.

use super::place::{provider, provider_unavailable};
use crate::checkout::record;
use crate::error::{ApiError, ApiResult};
use crate::json::StrictJson;
use crate::payments::AppleSessionRequest;
use crate::session::Shopper;
use crate::state::AppState;
use axum::Json;
use axum::extract::{Path, State};
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(apple_pay_session))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"validation_url": "https://apple-pay-gateway.apple.com/paymentservices/paymentSession"}))]
pub struct AppleSession {
    /// The validation URL the sheet's `onvalidatemerchant` gave (https, on apple.com).
    #[serde(default)]
    pub validation_url: String,
}

/// The opaque merchant session for `completeMerchantValidation`, for the shopper whose checkout
/// it is; nothing is written.
#[utoipa::path(post, path = "/checkout/{checkout_id}/apple-pay-session", tag = "checkout",
    params(("checkout_id" = String, Path), ("market" = Option<crate::contract::MarketCode>, Query)),
    request_body = AppleSession,
    responses((status = 200, body = Object, description = "Apple's merchant session, as the provider answered it"),
              (status = 400, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody),
              (status = 502, body = crate::error::ErrorBody), (status = 503, body = crate::error::ErrorBody)))]
async fn apple_pay_session(
    State(state): State<AppState>,
    shopper: Shopper,
    Path(id): Path<String>,
    StrictJson(body): StrictJson<AppleSession>,
) -> ApiResult<Json<serde_json::Value>> {
    if !crate::payments::is_apple_validation_url(&body.validation_url) {
        return Err(ApiError::field(
            "validation_url",
            "must be an https URL on apple.com",
        ));
    }
    let provider = provider(&state)?;
    let mut conn = state.db().pool().acquire().await?;
    record::open(&mut conn, &state, &shopper, &id, false).await?;
    drop(conn);
    let domain = state.config().public_host();
    let session = provider
        .apple_pay_session(&AppleSessionRequest {
            validation_url: &body.validation_url,
            domain: &domain,
            display_name: &state.catalog().store.name,
        })
        .await
        .map_err(|e| {
            tracing::warn!(error = %e, "apple pay merchant session");
            provider_unavailable()
        })?;
    Ok(Json(session))
}
