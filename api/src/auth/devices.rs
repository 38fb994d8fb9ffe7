//! Known browsers: a successful sign-in (or password reset) marks the browser with the `sf_device`
//! cookie, so the owner can still sign in from it while strangers' failed guesses hold the
//! account's overall cap. The only writer of `known_device`.

use crate::error::ApiResult;
use crate::session::{Shopper, cookie, is_token, set_cookie};
use crate::store::{Tx, random_id, token_hash};
use axum::http::HeaderValue;
use sqlx::AnyConnection;

pub const DEVICE_COOKIE: &str = "sf_device";
/// A browser stays known for a year after its last sign-in.
pub const DEVICE_MAX_AGE: i64 = 365 * 24 * 3600;

/// The hash of this browser's device cookie, when it has one we could have issued.
fn device_hash(shopper: &Shopper) -> Option<String> {
    cookie(&shopper.headers, DEVICE_COOKIE)
        .filter(|v| is_token(v))
        .map(token_hash)
}

/// Whether this browser has signed in to `customer_id` before.
pub async fn is_known(
    conn: &mut AnyConnection,
    shopper: &Shopper,
    customer_id: &str,
) -> ApiResult<bool> {
    let Some(hash) = device_hash(shopper) else {
        return Ok(false);
    };
    let found: Option<i64> =
        sqlx::query_scalar("SELECT 1 FROM known_device WHERE token_hash = $1 AND customer_id = $2")
            .bind(hash)
            .bind(customer_id)
            .fetch_optional(conn)
            .await?;
    Ok(found.is_some())
}

/// Remembers this browser for `customer_id`; answers the cookie to set when the browser had none.
pub async fn remember(
    tx: &mut Tx,
    shopper: &Shopper,
    customer_id: &str,
    now: i64,
) -> ApiResult<Option<HeaderValue>> {
    let (hash, set) = match device_hash(shopper) {
        Some(hash) => (hash, None),
        None => {
            let token = random_id(16);
            let set = set_cookie(DEVICE_COOKIE, &token, DEVICE_MAX_AGE, true, shopper.secure);
            (token_hash(&token), Some(set))
        }
    };
    let updated = sqlx::query(
        "UPDATE known_device SET last_seen_at = $1 WHERE token_hash = $2 AND customer_id = $3",
    )
    .bind(now)
    .bind(&hash)
    .bind(customer_id)
    .execute(&mut **tx)
    .await?
    .rows_affected();
    if updated == 0 {
        sqlx::query(
            "INSERT INTO known_device (token_hash, customer_id, created_at, last_seen_at) VALUES ($1, $2, $3, $3)",
        )
        .bind(&hash)
        .bind(customer_id)
        .bind(now)
        .execute(&mut **tx)
        .await?;
    }
    Ok(set)
}

/// The janitor's part: forgets browsers not signed in from for a year; answers how many.
pub async fn purge_stale(tx: &mut Tx, now: i64) -> ApiResult<u64> {
    Ok(
        sqlx::query("DELETE FROM known_device WHERE last_seen_at <= $1")
            .bind(now - DEVICE_MAX_AGE)
            .execute(&mut **tx)
            .await?
            .rows_affected(),
    )
}
