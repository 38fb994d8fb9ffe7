//! Marketing sign-ups: consent to marketing email or post, and notify-me requests for a size that
//! is sold out. The only writer of `marketing_consent` and `stock_notification`.

use crate::error::{ApiError, ApiResult};
use crate::fields::{is_email, normalise_email};
use crate::json::StrictJson;
use crate::session::Shopper;
use crate::state::AppState;
use crate::store::random_id;
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use domain::catalog::OptionKind;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(marketing_consent))
        .routes(routes!(notify_me))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Consent {
    #[serde(default)]
    pub email: String,
    /// marketing_email or marketing_post.
    #[serde(default)]
    pub category: String,
    /// accept.
    #[serde(default)]
    pub action: String,
}

#[derive(Serialize, ToSchema)]
pub struct Recorded {
    pub status: &'static str,
}

fn recorded() -> Response {
    (StatusCode::CREATED, Json(Recorded { status: "recorded" })).into_response()
}

/// Records marketing consent.
#[utoipa::path(post, path = "/marketing-consent", tag = "marketing", request_body = Consent,
    responses((status = 201, body = Recorded), (status = 400, body = crate::error::ErrorBody)))]
async fn marketing_consent(
    State(state): State<AppState>,
    StrictJson(body): StrictJson<Consent>,
) -> ApiResult<Response> {
    if !is_email(body.email.trim()) {
        return Err(ApiError::field(
            "email",
            "Please enter a valid email address",
        ));
    }
    if !matches!(body.category.as_str(), "marketing_email" | "marketing_post") {
        return Err(ApiError::field(
            "category",
            "must be marketing_email or marketing_post",
        ));
    }
    if body.action != "accept" {
        return Err(ApiError::field("action", "must be accept"));
    }
    sqlx::query("INSERT INTO marketing_consent (id, email, category, action, created_at) VALUES ($1, $2, $3, $4, $5)")
        .bind(random_id(16))
        .bind(normalise_email(&body.email))
        .bind(&body.category)
        .bind(&body.action)
        .bind(state.now())
        .execute(state.db().pool())
        .await?;
    Ok(recorded())
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NotifyMe {
    #[serde(default)]
    pub email: String,
    pub product_id: u64,
    #[serde(default)]
    pub variant_id: Option<u64>,
    /// The size label (or value id) wanted.
    #[serde(default)]
    pub size: String,
    /// The fit (length) label, required when the product has lengths.
    #[serde(default)]
    pub fit: Option<String>,
}

/// Asks to be told when a size comes back in stock.
#[utoipa::path(post, path = "/notify-me", tag = "marketing", params(("market" = Option<String>, Query)),
    request_body = NotifyMe,
    responses((status = 201, body = Recorded), (status = 400, body = crate::error::ErrorBody)))]
async fn notify_me(
    State(state): State<AppState>,
    shopper: Shopper,
    StrictJson(body): StrictJson<NotifyMe>,
) -> ApiResult<Response> {
    let catalog = state.catalog();
    let product = catalog
        .product(body.product_id)
        .ok_or_else(|| ApiError::field("product_id", "is not a product in the catalog"))?;
    let matches = |kind: OptionKind, wanted: &str| {
        product.option(kind).is_some_and(|o| {
            o.values
                .iter()
                .any(|v| v.label == wanted || v.id.to_string() == wanted)
        })
    };
    if body.size.trim().is_empty() {
        return Err(ApiError::field("size", "Please select a size"));
    }
    if product.option(OptionKind::Size).is_some() && !matches(OptionKind::Size, body.size.trim()) {
        return Err(ApiError::field("size", "is not a size of this product"));
    }
    let fit = body.fit.as_deref().map(str::trim).filter(|f| !f.is_empty());
    match (product.option(OptionKind::Length).is_some(), fit) {
        (true, None) => return Err(ApiError::field("fit", "Please select a fit")),
        (true, Some(f)) if !matches(OptionKind::Length, f) => {
            return Err(ApiError::field("fit", "is not a fit of this product"));
        }
        (false, Some(_)) => return Err(ApiError::field("fit", "this product has no fits")),
        _ => {}
    }
    if let Some(v) = body.variant_id
        && !product.variants.iter().any(|x| x.id == v)
    {
        return Err(ApiError::field(
            "variant_id",
            "is not a variant of this product",
        ));
    }
    if !is_email(body.email.trim()) {
        return Err(ApiError::field(
            "email",
            "Please enter a valid email address",
        ));
    }
    sqlx::query(
        "INSERT INTO stock_notification (id, email, product_id, variant_id, size, fit, market, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(random_id(16))
    .bind(normalise_email(&body.email))
    .bind(body.product_id as i64)
    .bind(body.variant_id.map(|v| v as i64))
    .bind(body.size.trim())
    .bind(fit)
    .bind(shopper.market.code)
    .bind(state.now())
    .execute(state.db().pool())
    .await?;
    Ok(recorded())
}
