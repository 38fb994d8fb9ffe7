//! The password-reset cycle: a link by email (the same answer whether or not the email has an
//! account), its validation, and the new password, which uses the link up and ends every session
//! of the customer. The only writer of `password_reset`.

use super::Accepted;
use super::registration::password_problem;
use crate::account;
use crate::error::{ApiError, ApiResult, ErrorCode, copy};
use crate::fields::{is_email, normalise_email};
use crate::json::StrictJson;
use crate::mail::{Letterhead, message};
use crate::session::{self, Shopper};
use crate::state::AppState;
use crate::store::{Tx, random_id, token_hash};
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(request_reset))
        .routes(routes!(validate_reset))
        .routes(routes!(confirm_reset))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"email": "ada@example.com"}))]
pub struct ResetRequest {
    #[serde(default)]
    pub email: String,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"token": "5f0c3e1a9b7d4c2e8f6a1b3c5d7e9f0a2b4c6d8e0f1a3b5c7d9e1f2a4b6c8d0e"}))]
pub struct TokenOnly {
    #[serde(default)]
    pub token: String,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"token": "5f0c3e1a9b7d4c2e8f6a1b3c5d7e9f0a2b4c6d8e0f1a3b5c7d9e1f2a4b6c8d0e", "password": "Correct-horse-9"}))]
pub struct ResetConfirm {
    #[serde(default)]
    pub token: String,
    #[serde(default)]
    pub password: String,
}

#[derive(Serialize, ToSchema)]
pub struct TokenValidity {
    pub is_valid: bool,
}

const RESET_ACCEPTED: Accepted = Accepted {
    status: "If an account exists for this email, we have sent a link to reset the password.",
};

/// Requests a reset link. The answer is the same whether or not the email has an account.
#[utoipa::path(post, path = "/auth/password-reset", tag = "auth", request_body = ResetRequest,
    responses((status = 202, body = Accepted), (status = 400, body = crate::error::ErrorBody),
              (status = 429, body = crate::error::ErrorBody)))]
async fn request_reset(
    State(state): State<AppState>,
    shopper: Shopper,
    StrictJson(body): StrictJson<ResetRequest>,
) -> ApiResult<Response> {
    let email = normalise_email(&body.email);
    if !is_email(&email) {
        return Err(ApiError::field(
            "email",
            "Please enter a valid email address",
        ));
    }
    let (now, cfg) = (state.now(), state.config());
    // Limits mail to one address and requests from one client; the same for unknown emails.
    for (key, limit) in [
        (format!("reset:{email}"), 3),
        (
            format!("reset:{}", shopper.client_key()),
            cfg.login_limit_per_ip,
        ),
    ] {
        state.limiter().admit(&key, limit, 3600, now).await?;
    }
    let mut tx = state.db().write().await?;
    if let Some(customer) = account::id_by_email(&mut tx, &email).await? {
        let token = random_id(32);
        sqlx::query("INSERT INTO password_reset (token_hash, customer_id, created_at, expires_at) VALUES ($1, $2, $3, $4)")
            .bind(token_hash(&token))
            .bind(&customer)
            .bind(now)
            .bind(now + cfg.reset_token_ttl)
            .execute(&mut *tx)
            .await?;
        let head = Letterhead::of(&state, shopper.market);
        let link = format!("{}?token={token}", head.link("/updatePassword"));
        let message = message::password_reset(&head, &email, &link, cfg.reset_token_ttl / 60)?;
        crate::mail::queue(&mut tx, &message, now).await?;
    }
    tx.commit().await?;
    Ok((StatusCode::ACCEPTED, Json(RESET_ACCEPTED)).into_response())
}

pub(super) fn invalid_link() -> ApiError {
    ApiError::new(ErrorCode::InvalidToken, copy::INVALID_RESET_LINK)
        .with_field("token", copy::INVALID_RESET_LINK)
}

pub(super) fn check_token_shape(token: &str) -> ApiResult<()> {
    let ok = token.len() == 64
        && token
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
    if ok { Ok(()) } else { Err(invalid_link()) }
}

/// Tells whether a reset link is still usable.
#[utoipa::path(post, path = "/auth/password-reset/validate", tag = "auth", request_body = TokenOnly,
    responses((status = 200, body = TokenValidity), (status = 400, body = crate::error::ErrorBody)))]
async fn validate_reset(
    State(state): State<AppState>,
    StrictJson(body): StrictJson<TokenOnly>,
) -> ApiResult<Json<TokenValidity>> {
    check_token_shape(&body.token)?;
    let live: Option<String> = sqlx::query_scalar(
        "SELECT customer_id FROM password_reset WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2",
    )
    .bind(token_hash(&body.token))
    .bind(state.now())
    .fetch_optional(state.db().pool())
    .await?;
    live.map(|_| Json(TokenValidity { is_valid: true }))
        .ok_or_else(invalid_link)
}

/// Sets a new password with a reset link. The link is used up, and every session of the
/// customer ends (including any an attacker may hold). The browser that opened the link proved
/// the mailbox, so it becomes a known browser of the account (it may sign in past the account's
/// overall cap of failed sign-ins).
#[utoipa::path(post, path = "/auth/password-reset/confirm", tag = "auth", request_body = ResetConfirm,
    responses((status = 200, body = TokenValidity), (status = 400, body = crate::error::ErrorBody)))]
async fn confirm_reset(
    State(state): State<AppState>,
    shopper: Shopper,
    StrictJson(body): StrictJson<ResetConfirm>,
) -> ApiResult<Response> {
    check_token_shape(&body.token)?;
    if let Some(p) = password_problem(&body.password) {
        return Err(ApiError::field("password", format!("Password {p}")));
    }
    let hash = state.hasher().hash(body.password.clone()).await?;
    let now = state.now();
    let mut tx = state.db().write().await?;
    // Claiming the token and checking it is one statement, so two uses cannot both succeed.
    let claimed = sqlx::query(
        "UPDATE password_reset SET used_at = $1 WHERE token_hash = $2 AND used_at IS NULL AND expires_at > $1",
    )
    .bind(now)
    .bind(token_hash(&body.token))
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if claimed != 1 {
        return Err(invalid_link());
    }
    let customer: String =
        sqlx::query_scalar("SELECT customer_id FROM password_reset WHERE token_hash = $1")
            .bind(token_hash(&body.token))
            .fetch_one(&mut *tx)
            .await?;
    account::set_password(&mut tx, &customer, &hash).await?;
    session::end_all_sessions(&mut tx, &customer).await?;
    // Other outstanding links die with the old password.
    sqlx::query(
        "UPDATE password_reset SET used_at = $1 WHERE customer_id = $2 AND used_at IS NULL",
    )
    .bind(now)
    .bind(&customer)
    .execute(&mut *tx)
    .await?;
    let mut jar = session::CookieJar::default();
    if let Some(c) = super::devices::remember(&mut tx, &shopper, &customer, now).await? {
        jar.push(c);
    }
    tx.commit().await?;
    Ok((
        StatusCode::OK,
        jar.into_headers(),
        Json(TokenValidity { is_valid: true }),
    )
        .into_response())
}

/// The janitor's part: deletes reset links that were used or have expired; answers how many.
pub async fn purge_spent(tx: &mut Tx, now: i64) -> ApiResult<u64> {
    Ok(
        sqlx::query("DELETE FROM password_reset WHERE used_at IS NOT NULL OR expires_at <= $1")
            .bind(now)
            .execute(&mut **tx)
            .await?
            .rows_affected(),
    )
}
