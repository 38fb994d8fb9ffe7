//! The standard checkout as stored: the only writer of the `checkout` table. Opens a checkout for
//! the shopper whose cart it belongs to, records each step, and closes it when its order is
//! confirmed; the janitor purges the abandoned ones with their carts.

use crate::account::address::AddressInput;
use crate::cart::{self, CartRow};
use crate::checkout::orders;
use crate::error::{ApiError, ApiResult};
use crate::rows::row;
use crate::session::{Shopper, is_token};
use crate::state::AppState;
use crate::store::{Tx, random_id};
use domain::market::Market;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

// The billing step as stored and as shown (a plain comment: a doc comment would change the
// OpenAPI schema).
#[derive(Serialize, Deserialize, ToSchema, Clone)]
pub struct BillingView {
    pub same_as_delivery: bool,
    pub address: Option<AddressInput>,
}

row! {
    pub struct CheckoutRow {
        pub id: String,
        pub email: Option<String>,
        pub consignment_id: Option<String>,
        pub shipping_address: Option<String>,
        pub shipping_option_id: Option<String>,
        pub billing: Option<String>,
    }
}

const CHECKOUT_COLUMNS: &str = "id, email, consignment_id, shipping_address, \
    shipping_option_id, billing";

/// A checkout opened for the shopper whose cart it belongs to.
pub struct Opened {
    pub row: CheckoutRow,
    pub cart: CartRow,
}

impl Opened {
    /// The delivery address, once one was set.
    pub fn address(&self) -> ApiResult<Option<AddressInput>> {
        parse_json(&self.row.shipping_address, "shipping_address")
    }

    /// The billing choice, once one was made.
    pub fn billing(&self) -> ApiResult<Option<BillingView>> {
        parse_json(&self.row.billing, "billing")
    }
}

fn parse_json<T: serde::de::DeserializeOwned>(
    value: &Option<String>,
    what: &str,
) -> ApiResult<Option<T>> {
    value
        .as_deref()
        .map(serde_json::from_str)
        .transpose()
        .map_err(|e| anyhow::anyhow!("checkout {what}: {e}").into())
}

fn not_this_shoppers() -> ApiError {
    ApiError::not_found().with_field("checkout_id", "is not a checkout of your bag")
}

/// Loads checkout `id` (locked when `lock`): it must belong to the cart in the shopper's cookie,
/// in this market, and not be ordered yet; otherwise 404 naming `checkout_id`.
pub async fn open(
    conn: &mut sqlx::AnyConnection,
    state: &AppState,
    shopper: &Shopper,
    id: &str,
    lock: bool,
) -> ApiResult<Opened> {
    if !is_token(id) {
        return Err(not_this_shoppers());
    }
    let cart_key = cart::cart_key(shopper)?;
    let cart = cart::require_cart(conn, state.db(), shopper, &cart_key, lock).await?;
    let sql = format!(
        "SELECT {CHECKOUT_COLUMNS} FROM checkout \
         WHERE id = $1 AND cart_id = $2 AND market = $3 AND state <> 'ordered'{}",
        if lock { state.db().for_update() } else { "" }
    );
    let row: CheckoutRow = sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(id)
        .bind(&cart.id)
        .bind(shopper.market.code)
        .fetch_optional(&mut *conn)
        .await?
        .ok_or_else(not_this_shoppers)?;
    Ok(Opened { row, cart })
}

/// Resumes the cart's open checkout in `market`, or creates one; either way it takes the cart's
/// owner and (when signed in) the account's email. Answers its id, and whether it is new.
pub async fn start(
    tx: &mut Tx,
    cart: &CartRow,
    market: &Market,
    account_email: Option<&str>,
    now: i64,
) -> ApiResult<(String, bool)> {
    let existing: Option<String> = sqlx::query_scalar(
        "SELECT id FROM checkout WHERE cart_id = $1 AND market = $2 AND state <> 'ordered' \
         ORDER BY created_at DESC LIMIT 1",
    )
    .bind(&cart.id)
    .bind(market.code)
    .fetch_optional(&mut **tx)
    .await?;
    match existing {
        Some(id) => {
            sqlx::query(
                "UPDATE checkout SET customer_id = $1, email = COALESCE($2, email), \
                 updated_at = $3 WHERE id = $4",
            )
            .bind(cart.customer_id.as_deref())
            .bind(account_email)
            .bind(now)
            .bind(&id)
            .execute(&mut **tx)
            .await?;
            Ok((id, false))
        }
        None => {
            let id = random_id(16);
            sqlx::query(
                "INSERT INTO checkout (id, cart_id, market, customer_id, email, state, created_at, \
                 updated_at) VALUES ($1, $2, $3, $4, $5, 'open', $6, $6)",
            )
            .bind(&id)
            .bind(&cart.id)
            .bind(market.code)
            .bind(cart.customer_id.as_deref())
            .bind(account_email)
            .bind(now)
            .execute(&mut **tx)
            .await?;
            Ok((id, true))
        }
    }
}

/// Sets the guest's email.
pub async fn set_email(tx: &mut Tx, id: &str, email: &str, now: i64) -> ApiResult<()> {
    sqlx::query("UPDATE checkout SET email = $1, updated_at = $2 WHERE id = $3")
        .bind(email)
        .bind(now)
        .bind(id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Sets the delivery address as a new consignment, keeping `shipping_option_id` (the previous
/// option, when it is still offered).
pub async fn set_consignment(
    tx: &mut Tx,
    id: &str,
    address: &AddressInput,
    shipping_option_id: Option<&str>,
    now: i64,
) -> ApiResult<()> {
    let stored = serde_json::to_string(address).map_err(anyhow::Error::from)?;
    sqlx::query(
        "UPDATE checkout SET consignment_id = $1, shipping_address = $2, shipping_option_id = $3, \
         updated_at = $4 WHERE id = $5",
    )
    .bind(random_id(16))
    .bind(&stored)
    .bind(shipping_option_id)
    .bind(now)
    .bind(id)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Sets the shipping option.
pub async fn set_shipping_option(
    tx: &mut Tx,
    id: &str,
    shipping_option_id: &str,
    now: i64,
) -> ApiResult<()> {
    sqlx::query("UPDATE checkout SET shipping_option_id = $1, updated_at = $2 WHERE id = $3")
        .bind(shipping_option_id)
        .bind(now)
        .bind(id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Sets the billing choice.
pub async fn set_billing(tx: &mut Tx, id: &str, billing: &BillingView, now: i64) -> ApiResult<()> {
    sqlx::query("UPDATE checkout SET billing = $1, updated_at = $2 WHERE id = $3")
        .bind(serde_json::to_string(billing).map_err(anyhow::Error::from)?)
        .bind(now)
        .bind(id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Marks the checkout as used now (an order was placed from it).
pub async fn touch(tx: &mut Tx, id: &str, now: i64) -> ApiResult<()> {
    sqlx::query("UPDATE checkout SET updated_at = $1 WHERE id = $2")
        .bind(now)
        .bind(id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// The checkout's part of confirming an order: the checkout is ordered and its cart closed. The
/// confirmation email is queued with them (same transaction).
pub async fn close_after_order(
    tx: &mut Tx,
    state: &AppState,
    checkout_id: &str,
    order_id: &str,
    now: i64,
) -> ApiResult<()> {
    let cart: Option<String> =
        sqlx::query_scalar("SELECT cart_id FROM checkout WHERE id = $1 AND state <> 'ordered'")
            .bind(checkout_id)
            .fetch_optional(&mut **tx)
            .await?;
    // The cart before the checkout row, in the order Place order locks them.
    if let Some(cart) = &cart {
        cart::lock(tx, state.db(), cart).await?;
    }
    sqlx::query("UPDATE checkout SET state = 'ordered', updated_at = $1 WHERE id = $2")
        .bind(now)
        .bind(checkout_id)
        .execute(&mut **tx)
        .await?;
    if let Some(cart) = cart {
        cart::delete(tx, &cart).await?;
    }
    orders::queue_confirmation_mail(tx, state, order_id, now).await
}

/// The janitor's part: deletes the unfinished checkouts of guest carts untouched since
/// `stale_carts` (the carts go too; orders keep their own copy of what was bought).
pub async fn purge_abandoned(tx: &mut Tx, stale_carts: i64) -> ApiResult<u64> {
    Ok(sqlx::query(sqlx::AssertSqlSafe(format!(
        "DELETE FROM checkout WHERE state <> 'ordered' AND cart_id IN ({})",
        cart::STALE_GUEST_CARTS
    )))
    .bind(stale_carts)
    .execute(&mut **tx)
    .await?
    .rows_affected())
}
