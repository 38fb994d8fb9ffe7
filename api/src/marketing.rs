//! Marketing sign-ups: consent to marketing email or post (an email sign-up gets a confirmation
//! carrying a one-click unsubscribe link), the unsubscribe itself, and notify-me requests for a
//! size that is sold out. The only writer of `marketing_consent` and `stock_notification`.

use crate::error::{ApiError, ApiResult};
use crate::fields::{is_email, normalise_email};
use crate::json::StrictJson;
use crate::mail::Letterhead;
use crate::session::Shopper;
use crate::state::AppState;
use crate::store::{random_id, token_hash};
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
#[schema(example = json!({"email": "ada@example.com", "category": "marketing_email", "action": "accept"}))]
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

/// Records marketing consent; an email sign-up is confirmed by an email with an unsubscribe link.
#[utoipa::path(post, path = "/marketing-consent", tag = "marketing", params(("market" = Option<crate::contract::MarketCode>, Query)),
    request_body = Consent,
    responses((status = 201, body = Recorded), (status = 400, body = crate::error::ErrorBody)))]
async fn marketing_consent(
    State(state): State<AppState>,
    shopper: Shopper,
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
    let email = normalise_email(&body.email);
    let now = state.now();
    // An email sign-up is confirmed by email, with the link that undoes it.
    let token = (body.category == "marketing_email").then(|| random_id(32));
    let mut tx = state.db().write().await?;
    sqlx::query("INSERT INTO marketing_consent (id, email, category, action, created_at, unsubscribe_hash) VALUES ($1, $2, $3, $4, $5, $6)")
        .bind(random_id(16))
        .bind(&email)
        .bind(&body.category)
        .bind(&body.action)
        .bind(now)
        .bind(token.as_deref().map(token_hash))
        .execute(&mut *tx)
        .await?;
    if let Some(token) = token {
        let head = Letterhead::of(&state, shopper.market);
        let link = format!("{}{UNSUBSCRIBE_PATH}?token={token}", head.base_url);
        let message = crate::mail::message::newsletter_confirmation(&head, &email, &link)?;
        crate::mail::queue(&mut tx, &message, now).await?;
    }
    tx.commit().await?;
    Ok(recorded())
}

/// Where a newsletter's unsubscribe link points (outside the JSON API's CSRF rule: see
/// `unsubscribe_router`).
pub const UNSUBSCRIBE_PATH: &str = "/api/marketing-consent/unsubscribe";

/// The unsubscribe link of newsletter emails, `{UNSUBSCRIBE_PATH}?token=…`: GET shows a page
/// with one button, POST unsubscribes (RFC 8058's one-click POST, sent by mail clients, lands
/// here too; GET never changes anything, because mail scanners open links). Mounted beside the
/// JSON API, not under its CSRF and content-type rules: a mail client's POST is a form, and the
/// secret token is what authorises the change, so a forged request without it does nothing.
pub fn unsubscribe_router(state: AppState) -> axum::Router {
    axum::Router::new()
        .route(
            "/marketing-consent/unsubscribe",
            axum::routing::get(unsubscribe_page).post(unsubscribe),
        )
        .with_state(state)
}

#[derive(Deserialize)]
struct UnsubscribeQuery {
    #[serde(default)]
    token: String,
}

fn unsubscribe_answer(status: StatusCode, title: &str, body: &str) -> Response {
    let html = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta name=\"robots\" content=\"noindex\"><title>{title}</title></head>\
         <body><main><h1>{title}</h1>{body}</main></body></html>"
    );
    (status, axum::response::Html(html)).into_response()
}

/// The newsletter sign-up a token belongs to: its email.
async fn subscription(state: &AppState, token: &str) -> ApiResult<Option<String>> {
    let shaped = token.len() == 64 && token.bytes().all(|b| b.is_ascii_hexdigit());
    if !shaped {
        return Ok(None);
    }
    Ok(
        sqlx::query_scalar("SELECT email FROM marketing_consent WHERE unsubscribe_hash = $1")
            .bind(token_hash(token))
            .fetch_optional(state.db().pool())
            .await?,
    )
}

const INVALID_UNSUBSCRIBE: &str = "<p>This unsubscribe link is not valid. Please use the link in the newest email you received from us.</p>";

async fn unsubscribe_page(
    State(state): State<AppState>,
    axum::extract::Query(q): axum::extract::Query<UnsubscribeQuery>,
) -> ApiResult<Response> {
    if subscription(&state, &q.token).await?.is_none() {
        return Ok(unsubscribe_answer(
            StatusCode::BAD_REQUEST,
            "Unsubscribe",
            INVALID_UNSUBSCRIBE,
        ));
    }
    Ok(unsubscribe_answer(
        StatusCode::OK,
        "Unsubscribe",
        &format!(
            "<form method=\"post\" action=\"{UNSUBSCRIBE_PATH}?token={}\">\
             <input type=\"hidden\" name=\"List-Unsubscribe\" value=\"One-Click\">\
             <button type=\"submit\">Unsubscribe from the newsletter</button></form>",
            q.token
        ),
    ))
}

async fn unsubscribe(
    State(state): State<AppState>,
    axum::extract::Query(q): axum::extract::Query<UnsubscribeQuery>,
) -> ApiResult<Response> {
    let Some(email) = subscription(&state, &q.token).await? else {
        return Ok(unsubscribe_answer(
            StatusCode::BAD_REQUEST,
            "Unsubscribe",
            INVALID_UNSUBSCRIBE,
        ));
    };
    sqlx::query("INSERT INTO marketing_consent (id, email, category, action, created_at) VALUES ($1, $2, 'marketing_email', 'withdraw', $3)")
        .bind(random_id(16))
        .bind(&email)
        .bind(state.now())
        .execute(state.db().pool())
        .await?;
    Ok(unsubscribe_answer(
        StatusCode::OK,
        "You are unsubscribed",
        "<p>You will get no more newsletters from us. Emails about your orders and your account still arrive.</p>",
    ))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"email": "ada@example.com", "product_id": 101, "variant_id": 10001, "size": "10"}))]
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
#[utoipa::path(post, path = "/notify-me", tag = "marketing", params(("market" = Option<crate::contract::MarketCode>, Query)),
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
