//! Registration by email: a registration waits for its owner, and the account is created only
//! when the link emailed to the address is opened, so registering answers the same whether or not
//! the email already has an account (no enumeration). The only writer of `pending_registration`.

use super::registration::{Register, validate_register};
use super::reset::{check_token_shape, invalid_link};
use super::{
    Accepted, LoginResult, Registering, begin_registration, check_guest_wishlist, signed_in_answer,
};
use crate::account;
use crate::error::ApiResult;
use crate::json::StrictJson;
use crate::mail::{Letterhead, message};
use crate::session::Shopper;
use crate::state::AppState;
use crate::store::{Tx, random_id, token_hash};
use crate::wishlist::WishlistItemInput;
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// How long a confirmation link stays usable: a day, so a shopper who registers in the evening
/// can still confirm the next morning.
pub const CONFIRMATION_TTL_SECS: i64 = 24 * 3600;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(register))
        .routes(routes!(confirm_registration))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"token": "5f0c…64 hex digits", "guest_wishlist": []}))]
pub struct ConfirmRegistration {
    #[serde(default)]
    pub token: String,
    /// The guest wishlist the browser holds now, merged with the one sent at registration.
    #[serde(default)]
    pub guest_wishlist: Vec<WishlistItemInput>,
}

/// Registers: the account is created when the owner opens the link emailed to the address
/// (`confirmation`). An email that already has an account gets the same answer, byte for byte
/// (no enumeration): its owner is emailed a note instead. No session starts either way.
#[utoipa::path(post, path = "/auth/register", tag = "auth", params(("market" = Option<crate::contract::MarketCode>, Query)),
    request_body = Register,
    responses((status = 202, body = Accepted), (status = 400, body = crate::error::ErrorBody),
              (status = 429, body = crate::error::ErrorBody)))]
async fn register(
    State(state): State<AppState>,
    shopper: Shopper,
    StrictJson(mut body): StrictJson<Register>,
) -> ApiResult<Response> {
    validate_register(&mut body)?;
    check_guest_wishlist(&state, &body.guest_wishlist)?;
    let Registering {
        mut tx,
        email,
        password_hash,
        exists,
        now,
    } = begin_registration(&state, &shopper, &body).await?;
    if exists {
        let head = crate::mail::Letterhead::of(&state, shopper.market);
        let message = crate::mail::message::duplicate_registration(&head, &email)?;
        crate::mail::queue(&mut tx, &message, now).await?;
    } else {
        hold(
            &mut tx,
            &state,
            &shopper,
            &email,
            &password_hash,
            &body,
            now,
        )
        .await?;
    }
    tx.commit().await?;
    Ok((
        StatusCode::ACCEPTED,
        Json(Accepted {
            status: "confirmation_sent",
        }),
    )
        .into_response())
}

/// Keeps a checked registration until its owner confirms it, and emails the link. A newer
/// registration of the same email replaces an older one, so whoever controls the mailbox decides
/// (a stranger who registered the address first cannot keep its owner out).
pub async fn hold(
    tx: &mut Tx,
    state: &AppState,
    shopper: &Shopper,
    email: &str,
    password_hash: &str,
    registration: &Register,
    now: i64,
) -> ApiResult<()> {
    // The password itself is never serialised (only its hash is kept, in its own column).
    let payload = serde_json::to_string(registration).map_err(anyhow::Error::from)?;
    sqlx::query("DELETE FROM pending_registration WHERE email = $1")
        .bind(email)
        .execute(&mut **tx)
        .await?;
    let token = random_id(32);
    sqlx::query(
        "INSERT INTO pending_registration (token_hash, email, password_hash, payload, created_at, expires_at) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(token_hash(&token))
    .bind(email)
    .bind(password_hash)
    .bind(payload)
    .bind(now)
    .bind(now + CONFIRMATION_TTL_SECS)
    .execute(&mut **tx)
    .await?;
    let head = Letterhead::of(state, shopper.market);
    let link = format!("{}?token={token}", head.link("/confirm-account"));
    let email = message::account_confirmation(&head, email, &link, CONFIRMATION_TTL_SECS / 3600)?;
    crate::mail::queue(tx, &email, now).await
}

/// Opens a confirmation link: creates the account the registration described, signs in (taking
/// over this browser's bag, as a sign-in does) and merges the guest wishlist. A link is used once;
/// an expired or unknown one, or one whose email got an account meanwhile, is 400 `invalid_token`.
#[utoipa::path(post, path = "/auth/register/confirm", tag = "auth", params(("market" = Option<crate::contract::MarketCode>, Query)),
    request_body = ConfirmRegistration,
    responses((status = 200, body = LoginResult), (status = 400, body = crate::error::ErrorBody)))]
async fn confirm_registration(
    State(state): State<AppState>,
    shopper: Shopper,
    StrictJson(body): StrictJson<ConfirmRegistration>,
) -> ApiResult<Response> {
    check_token_shape(&body.token)?;
    check_guest_wishlist(&state, &body.guest_wishlist)?;
    let now = state.now();
    let mut tx = state.db().write().await?;
    // Claiming the row and checking it is one statement, so a link cannot be used twice.
    let claimed: Option<(String, String, String)> = sqlx::query_as(
        "DELETE FROM pending_registration WHERE token_hash = $1 AND expires_at > $2 \
         RETURNING email, password_hash, payload",
    )
    .bind(token_hash(&body.token))
    .bind(now)
    .fetch_optional(&mut *tx)
    .await?;
    let Some((email, password_hash, payload)) = claimed else {
        return Err(invalid_link());
    };
    let registration: Register = serde_json::from_str(&payload).map_err(anyhow::Error::from)?;
    let address = registration.address_entry();
    let customer = registration.customer(&email, &password_hash, address.as_ref());
    let Some(id) = account::create_customer(&mut tx, &customer, now).await? else {
        // The address got an account since (through a checkout): the link is spent.
        tx.commit().await?;
        return Err(invalid_link());
    };
    let mut wishlist = registration.guest_wishlist.clone();
    wishlist.extend(body.guest_wishlist.iter().cloned());
    signed_in_answer(&state, &shopper, tx, &id, &wishlist).await
}

/// The janitor's part: deletes registrations nobody confirmed in time; answers how many.
pub async fn purge_expired(tx: &mut Tx, now: i64) -> ApiResult<u64> {
    Ok(
        sqlx::query("DELETE FROM pending_registration WHERE expires_at <= $1")
            .bind(now)
            .execute(&mut **tx)
            .await?
            .rows_affected(),
    )
}
