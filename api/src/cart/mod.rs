//! The cart: create, read, add items, change a quantity, remove an item, delete, and what happens
//! to it at sign-in and sign-out. Identified by a per-market cookie holding a random id; priced by
//! the bag and checked against live stock inside one write transaction, so nothing changes when a
//! check fails. The only writer of `cart` and `cart_item`.

mod input;
mod variants;
mod view;

pub use input::*;
pub use view::*;

use crate::bag::{self, LineOption, priced_lines, stored_lines};
use crate::error::{ApiError, ApiResult, copy};
use crate::json::StrictJson;
use crate::session::{CookieJar, Shopper, cart_cookie_name, cookie};
use crate::state::AppState;
use crate::stock::availability;
use crate::store::{Db, Tx, next_position, random_id};
use axum::Json;
use axum::extract::{Path, State};
use axum::http::HeaderValue;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use domain::market::{MARKETS, Market};
use serde::Serialize;
use std::collections::HashMap;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Most lines one add call may carry.
pub const MAX_LINES_PER_ADD: usize = 50;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_cart, create_cart, delete_cart))
        .routes(routes!(add_items))
        .routes(routes!(update_item, remove_item))
        .merge(variants::router())
}

// ---- writes --------------------------------------------------------------------------------

/// Creates an empty cart in `market` (owned by `customer_id` when signed in).
pub async fn create(
    tx: &mut Tx,
    market: &Market,
    customer_id: Option<&str>,
    now: i64,
) -> ApiResult<CartRow> {
    let (id, key) = (random_id(16), random_id(16));
    sqlx::query("INSERT INTO cart (id, cookie_key, market, customer_id, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $5)")
        .bind(&id)
        .bind(&key)
        .bind(market.code)
        .bind(customer_id)
        .bind(now)
        .execute(&mut **tx)
        .await?;
    Ok(CartRow {
        id,
        key,
        customer_id: customer_id.map(str::to_string),
    })
}

/// Quantity of `variant_id` already in the cart.
async fn quantity_in_cart(tx: &mut Tx, cart_id: &str, variant_id: u64) -> ApiResult<i64> {
    Ok(sqlx::query_scalar(
        "SELECT CAST(COALESCE(SUM(quantity), 0) AS BIGINT) FROM cart_item WHERE cart_id = $1 AND variant_id = $2",
    )
    .bind(cart_id)
    .bind(variant_id as i64)
    .fetch_one(&mut **tx)
    .await?)
}

/// Adds one line: merges into the same variant's line (gift cards never merge: each has a uid).
async fn insert_line(
    tx: &mut Tx,
    cart_id: &str,
    product_id: u64,
    variant_id: u64,
    quantity: i64,
    options: &[LineOption],
    merge: bool,
) -> ApiResult<()> {
    let merge_key = if merge {
        variant_id.to_string()
    } else {
        random_id(8)
    };
    let existing: Option<String> =
        sqlx::query_scalar("SELECT id FROM cart_item WHERE cart_id = $1 AND merge_key = $2")
            .bind(cart_id)
            .bind(&merge_key)
            .fetch_optional(&mut **tx)
            .await?;
    match existing {
        Some(id) => {
            sqlx::query("UPDATE cart_item SET quantity = quantity + $1 WHERE id = $2")
                .bind(quantity)
                .bind(id)
                .execute(&mut **tx)
                .await?;
        }
        None => {
            let options = serde_json::to_string(options).map_err(anyhow::Error::from)?;
            sqlx::query(
                "INSERT INTO cart_item (id, cart_id, product_id, variant_id, quantity, options, merge_key, position) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            )
            .bind(random_id(16))
            .bind(cart_id)
            .bind(product_id as i64)
            .bind(variant_id as i64)
            .bind(quantity)
            .bind(options)
            .bind(merge_key)
            .bind(next_position())
            .execute(&mut **tx)
            .await?;
        }
    }
    Ok(())
}

async fn touch(tx: &mut Tx, cart_id: &str, now: i64) -> ApiResult<()> {
    sqlx::query("UPDATE cart SET updated_at = $1 WHERE id = $2")
        .bind(now)
        .bind(cart_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Moves every line of `from` into `into` (the sign-in merge), capping merged quantities at the
/// stock now available so the merged cart never claims more than can be sold; then deletes `from`.
async fn merge_into(
    tx: &mut Tx,
    state: &AppState,
    market: &Market,
    from: &str,
    into: &str,
) -> ApiResult<()> {
    let lines = stored_lines(tx, from).await?;
    let ids: Vec<u64> = lines.iter().map(|l| l.variant_id).collect();
    let stock = availability(tx, state, market, &ids).await?;
    for line in lines {
        let gift = line
            .options
            .iter()
            .any(|o| o.name.eq_ignore_ascii_case("uid"));
        let mut quantity = line.quantity;
        if !gift && let Some(a) = stock.get(&line.variant_id).filter(|a| a.tracked) {
            let already = quantity_in_cart(tx, into, line.variant_id).await?;
            quantity = quantity.min((a.available - already).max(0));
        }
        if quantity > 0 {
            insert_line(
                tx,
                into,
                line.product_id,
                line.variant_id,
                quantity,
                &line.options,
                !gift,
            )
            .await?;
        }
    }
    delete(tx, from).await?;
    touch(tx, into, state.now()).await
}

/// The cart at sign-in, for `shopper` just signed in: the customer's saved cart replaces
/// the browser's current one unless the current one has items, which are then merged into the
/// saved cart; a current cart with no saved one becomes the customer's. Answers the customer's
/// cart now, if they have one.
pub async fn adopt_at_sign_in(
    tx: &mut Tx,
    state: &AppState,
    shopper: &Shopper,
) -> ApiResult<Option<CartRow>> {
    let customer_id = shopper.customer()?;
    let market = shopper.market;
    let current = match shopper.cart_cookie().ok().flatten() {
        Some(key) => load_cart(tx, state.db(), shopper, &key, true).await?,
        None => None,
    };
    let sql = format!(
        "SELECT id, cookie_key FROM cart WHERE customer_id = $1 AND market = $2 ORDER BY updated_at DESC, id{}",
        state.db().for_update()
    );
    let saved: Option<(String, String)> = sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(customer_id)
        .bind(market.code)
        .fetch_all(&mut **tx)
        .await?
        .into_iter()
        .find(|(id, _): &(String, String)| current.as_ref().is_none_or(|c| &c.id != id));
    let id = match (current, saved) {
        (Some(current), Some(saved)) => {
            if item_count(tx, &current.id).await? > 0 {
                merge_into(tx, state, &market, &current.id, &saved.0).await?;
            } else {
                delete(tx, &current.id).await?;
            }
            Some(saved)
        }
        (Some(current), None) => {
            sqlx::query("UPDATE cart SET customer_id = $1 WHERE id = $2")
                .bind(customer_id)
                .bind(&current.id)
                .execute(&mut **tx)
                .await?;
            Some((current.id, current.key))
        }
        (None, saved) => saved,
    };
    Ok(id.map(|(id, key)| CartRow {
        id,
        key,
        customer_id: Some(customer_id.to_string()),
    }))
}

/// The carts at sign-out: a cart of the customer's that this browser holds is not left to the
/// next shopper on it. This market's is replaced by a fresh guest cart, the other markets'
/// cookies are cleared. Answers the cookies to set.
pub async fn leave_at_sign_out(
    tx: &mut Tx,
    state: &AppState,
    shopper: &Shopper,
    customer_id: &str,
) -> ApiResult<Vec<HeaderValue>> {
    let mut cookies = Vec::new();
    for market in MARKETS {
        let name = cart_cookie_name(&market);
        let Some(cart_key) = cookie(&shopper.headers, &name) else {
            continue;
        };
        let owner: Option<Option<String>> =
            sqlx::query_scalar("SELECT customer_id FROM cart WHERE cookie_key = $1")
                .bind(cart_key)
                .fetch_optional(&mut **tx)
                .await?;
        if owner.flatten().as_deref() == Some(customer_id) {
            if market == shopper.market {
                let fresh = create(tx, &market, None, state.now()).await?;
                cookies.push(shopper.cart_cookie_set(&fresh.key, state));
            } else {
                cookies.push(shopper.cart_cookie_clear(&market));
            }
        }
    }
    Ok(cookies)
}

/// The checkout's re-read of the bag: a line above the stock left is reduced to it (lines of one
/// variant share what is left, in bag order). Sold-out lines stay as they are, for the shopper to
/// remove. Answers the reduced lines with the quantity each had.
pub async fn reduce_to_stock(
    tx: &mut Tx,
    state: &AppState,
    market: &Market,
    cart: &CartRow,
) -> ApiResult<HashMap<String, i64>> {
    let lines = priced_lines(tx, state, market, &cart.id).await?;
    let ids: Vec<u64> = lines.iter().map(|(l, _)| l.variant_id).collect();
    let stock = availability(tx, state, market, &ids).await?;
    let mut left: HashMap<u64, i64> = stock
        .iter()
        .filter(|(_, a)| a.tracked)
        .map(|(id, a)| (*id, a.available))
        .collect();
    let mut reduced = HashMap::new();
    for (line, _) in &lines {
        let Some(units) = left.get_mut(&line.variant_id) else {
            continue;
        };
        if line.quantity > *units && *units > 0 {
            sqlx::query("UPDATE cart_item SET quantity = $1 WHERE id = $2")
                .bind(*units)
                .bind(&line.item_id)
                .execute(&mut **tx)
                .await?;
            reduced.insert(line.item_id.clone(), line.quantity);
            *units = 0;
        } else {
            *units = (*units - line.quantity).max(0);
        }
    }
    if !reduced.is_empty() {
        touch(tx, &cart.id, state.now()).await?;
    }
    Ok(reduced)
}

/// Locks a cart row for the rest of `tx` (PostgreSQL; SQLite's writer already is alone). Every
/// writer that also locks a checkout row takes the cart first, so two of them never wait on
/// each other in a ring.
pub async fn lock(tx: &mut Tx, db: &crate::store::Db, cart_id: &str) -> ApiResult<()> {
    let sql = format!("SELECT id FROM cart WHERE id = $1{}", db.for_update());
    sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(cart_id)
        .fetch_optional(&mut **tx)
        .await?;
    Ok(())
}

pub async fn delete(tx: &mut Tx, cart_id: &str) -> ApiResult<()> {
    bag::forget_discounts(tx, cart_id).await?;
    sqlx::query("DELETE FROM cart_item WHERE cart_id = $1")
        .bind(cart_id)
        .execute(&mut **tx)
        .await?;
    sqlx::query("DELETE FROM cart WHERE id = $1")
        .bind(cart_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Guest carts untouched since `$1`: their cookie has expired, so nobody can open them again. A
/// `SELECT` of their ids, for the owners of what hangs off a cart to purge theirs with them.
pub const STALE_GUEST_CARTS: &str =
    "SELECT id FROM cart WHERE customer_id IS NULL AND updated_at < $1";

/// The janitor's part: deletes guest carts untouched since `before` with their lines and stored
/// promotions; answers how many carts.
pub async fn purge_stale(tx: &mut Tx, before: i64) -> ApiResult<u64> {
    bag::forget_discounts_of(tx, STALE_GUEST_CARTS, before).await?;
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "DELETE FROM cart_item WHERE cart_id IN ({STALE_GUEST_CARTS})"
    )))
    .bind(before)
    .execute(&mut **tx)
    .await?;
    Ok(sqlx::query(sqlx::AssertSqlSafe(format!(
        "DELETE FROM cart WHERE id IN ({STALE_GUEST_CARTS})"
    )))
    .bind(before)
    .execute(&mut **tx)
    .await?
    .rows_affected())
}

pub async fn item_count(conn: &mut sqlx::AnyConnection, cart_id: &str) -> ApiResult<i64> {
    Ok(
        sqlx::query_scalar("SELECT COUNT(*) FROM cart_item WHERE cart_id = $1")
            .bind(cart_id)
            .fetch_one(&mut *conn)
            .await?,
    )
}

// ---- handlers ------------------------------------------------------------------------------

fn with_cookies(status: StatusCode, jar: CookieJar, body: impl Serialize) -> Response {
    (status, jar.into_headers(), Json(body)).into_response()
}

/// The cart key in the shopper's cookie for this market, or 404 with the spec's no-cart copy.
pub fn cart_key(shopper: &Shopper) -> ApiResult<String> {
    shopper
        .cart_cookie()?
        .ok_or_else(|| ApiError::no_cart(copy::NO_CART))
}

/// `load_cart`, with a cart the shopper may not use as 404 and the spec's no-cart copy.
pub async fn require_cart(
    conn: &mut sqlx::AnyConnection,
    db: &Db,
    shopper: &Shopper,
    cart_key: &str,
    lock: bool,
) -> ApiResult<CartRow> {
    load_cart(conn, db, shopper, cart_key, lock)
        .await?
        .ok_or_else(|| ApiError::no_cart(copy::NO_CART))
}

/// Opens a write transaction and the shopper's cart (locked), or answers `no_cart` with the
/// spec's message for this operation.
async fn open_for_write(
    state: &AppState,
    shopper: &Shopper,
    no_cart: &'static str,
) -> ApiResult<(Tx, CartRow)> {
    let cart_key = shopper
        .cart_cookie()?
        .ok_or_else(|| ApiError::no_cart(no_cart))?;
    let mut tx = state.db().write().await?;
    match load_cart(&mut tx, state.db(), shopper, &cart_key, true).await? {
        Some(cart) => Ok((tx, cart)),
        None => Err(ApiError::no_cart(no_cart)),
    }
}

/// The current cart.
#[utoipa::path(get, path = "/cart", tag = "cart", params(("market" = Option<crate::contract::MarketCode>, Query)),
    responses((status = 200, body = CartView), (status = 404, body = crate::error::ErrorBody)))]
async fn get_cart(State(state): State<AppState>, shopper: Shopper) -> ApiResult<Json<CartView>> {
    let cart_key = cart_key(&shopper)?;
    let mut conn = state.db().pool().acquire().await?;
    let cart = require_cart(&mut conn, state.db(), &shopper, &cart_key, false).await?;
    Ok(Json(
        render(&mut conn, &state, &shopper.market, &cart).await?,
    ))
}

/// Creates a new, empty cart in the market's currency and sets its cookie.
#[utoipa::path(post, path = "/cart", tag = "cart", params(("market" = Option<crate::contract::MarketCode>, Query)),
    request_body = CreateCart, responses((status = 201, body = CartView)))]
async fn create_cart(
    State(state): State<AppState>,
    shopper: Shopper,
    StrictJson(_): StrictJson<CreateCart>,
) -> ApiResult<Response> {
    let mut tx = state.db().write().await?;
    let cart = create(
        &mut tx,
        &shopper.market,
        shopper.customer_id.as_deref(),
        state.now(),
    )
    .await?;
    tx.commit().await?;
    let view = render_after_commit(&state, &shopper.market, &cart).await?;
    let mut jar = CookieJar::default();
    jar.push(shopper.cart_cookie_set(&cart.key, &state));
    Ok(with_cookies(StatusCode::CREATED, jar, view))
}

/// Deletes the cart and clears its cookie.
#[utoipa::path(delete, path = "/cart", tag = "cart", params(("market" = Option<crate::contract::MarketCode>, Query)),
    responses((status = 204), (status = 404, body = crate::error::ErrorBody)))]
async fn delete_cart(State(state): State<AppState>, shopper: Shopper) -> ApiResult<Response> {
    let (mut tx, cart) = open_for_write(&state, &shopper, copy::NO_CART_CLEAR).await?;
    delete(&mut tx, &cart.id).await?;
    tx.commit().await?;
    let mut jar = CookieJar::default();
    jar.push(shopper.cart_cookie_clear(&shopper.market));
    Ok((StatusCode::NO_CONTENT, jar.into_headers()).into_response())
}

/// Adds items. Each line must be in stock: the quantity already in the bag plus the requested
/// quantity may not exceed what is available to sell; otherwise 409 and nothing is added.
#[utoipa::path(post, path = "/cart/items", tag = "cart", params(("market" = Option<crate::contract::MarketCode>, Query)),
    request_body = AddItems,
    responses((status = 201, body = CartView), (status = 400, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody), (status = 409, body = crate::error::ErrorBody)))]
async fn add_items(
    State(state): State<AppState>,
    shopper: Shopper,
    StrictJson(body): StrictJson<AddItems>,
) -> ApiResult<Response> {
    if body.line_items.is_empty() || body.line_items.len() > MAX_LINES_PER_ADD {
        return Err(ApiError::field(
            "line_items",
            format!("must hold from 1 to {MAX_LINES_PER_ADD} items"),
        ));
    }
    let catalog = state.catalog();
    let lines: Vec<ValidLine> = body
        .line_items
        .iter()
        .enumerate()
        .map(|(i, l)| validate_line(&catalog, l, i))
        .collect::<ApiResult<_>>()?;
    let (mut tx, cart) = open_for_write(&state, &shopper, copy::NO_CART_ADD).await?;
    let ids: Vec<u64> = lines.iter().map(|l| l.variant_id).collect();
    let stock = availability(&mut tx, &state, &shopper.market, &ids).await?;
    let in_cart: HashMap<i64, i64> = sqlx::query_as::<_, (i64, i64)>(
        "SELECT variant_id, CAST(SUM(quantity) AS BIGINT) FROM cart_item WHERE cart_id = $1 GROUP BY variant_id",
    )
    .bind(&cart.id)
    .fetch_all(&mut *tx)
    .await?
    .into_iter()
    .collect();
    let mut requested: HashMap<u64, i64> = HashMap::new();
    for (i, line) in lines.iter().enumerate() {
        let total = requested.entry(line.variant_id).or_insert(0);
        *total += line.quantity;
        let in_bag = in_cart.get(&(line.variant_id as i64)).copied().unwrap_or(0);
        let a = stock.get(&line.variant_id).copied().ok_or_else(|| {
            ApiError::field(
                format!("line_items[{i}].variant_id"),
                "is not a variant in the catalog",
            )
        })?;
        if !a.allows(in_bag + *total) {
            // Dropping `tx` rolls back: nothing from this request is written.
            return Err(ApiError::stock_exceeded(&format!(
                "line_items[{i}].quantity"
            )));
        }
    }
    for line in &lines {
        insert_line(
            &mut tx,
            &cart.id,
            line.product_id,
            line.variant_id,
            line.quantity,
            &line.stored_options,
            !line.gift_card,
        )
        .await?;
    }
    touch(&mut tx, &cart.id, state.now()).await?;
    tx.commit().await?;
    let view = render_after_commit(&state, &shopper.market, &cart).await?;
    Ok(with_cookies(
        StatusCode::CREATED,
        CookieJar::default(),
        view,
    ))
}

fn check_item_id(item_id: &str) -> ApiResult<()> {
    if crate::session::is_token(item_id) {
        Ok(())
    } else {
        Err(ApiError::field("item_id", "is not a cart item id"))
    }
}

/// Changes a line's quantity (1 to 999; within stock).
#[utoipa::path(put, path = "/cart/items/{item_id}", tag = "cart",
    params(("item_id" = String, Path), ("market" = Option<crate::contract::MarketCode>, Query)), request_body = UpdateItem,
    responses((status = 200, body = CartView), (status = 404, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody)))]
async fn update_item(
    State(state): State<AppState>,
    shopper: Shopper,
    Path(item_id): Path<String>,
    StrictJson(body): StrictJson<UpdateItem>,
) -> ApiResult<Json<CartView>> {
    check_item_id(&item_id)?;
    check_quantity("quantity", body.quantity)?;
    let (mut tx, cart) = open_for_write(&state, &shopper, copy::NO_CART_UPDATE).await?;
    let line: Option<(i64, i64)> =
        sqlx::query_as("SELECT variant_id, quantity FROM cart_item WHERE id = $1 AND cart_id = $2")
            .bind(&item_id)
            .bind(&cart.id)
            .fetch_optional(&mut *tx)
            .await?;
    let (variant_id, current) = line.ok_or_else(ApiError::not_found)?;
    let variant_id = variant_id as u64;
    let stock = availability(&mut tx, &state, &shopper.market, &[variant_id]).await?;
    let others = quantity_in_cart(&mut tx, &cart.id, variant_id).await? - current;
    let allowed = stock
        .get(&variant_id)
        .is_some_and(|a| a.allows(others + body.quantity));
    // Lowering a quantity is always allowed, even when stock has since fallen below it.
    if body.quantity > current && !allowed {
        return Err(ApiError::stock_exceeded("quantity"));
    }
    sqlx::query("UPDATE cart_item SET quantity = $1 WHERE id = $2")
        .bind(body.quantity)
        .bind(&item_id)
        .execute(&mut *tx)
        .await?;
    touch(&mut tx, &cart.id, state.now()).await?;
    tx.commit().await?;
    Ok(Json(
        render_after_commit(&state, &shopper.market, &cart).await?,
    ))
}

/// Removes a line. Removing the last one deletes the cart and starts a fresh one (new cookie).
#[utoipa::path(delete, path = "/cart/items/{item_id}", tag = "cart",
    params(("item_id" = String, Path), ("market" = Option<crate::contract::MarketCode>, Query)),
    responses((status = 200, body = CartView), (status = 404, body = crate::error::ErrorBody)))]
async fn remove_item(
    State(state): State<AppState>,
    shopper: Shopper,
    Path(item_id): Path<String>,
) -> ApiResult<Response> {
    check_item_id(&item_id)?;
    let (mut tx, cart) = open_for_write(&state, &shopper, copy::NO_CART_REMOVE).await?;
    let removed = sqlx::query("DELETE FROM cart_item WHERE id = $1 AND cart_id = $2")
        .bind(&item_id)
        .bind(&cart.id)
        .execute(&mut *tx)
        .await?
        .rows_affected();
    if removed == 0 {
        return Err(ApiError::not_found());
    }
    let mut jar = CookieJar::default();
    let cart = if item_count(&mut tx, &cart.id).await? == 0 {
        delete(&mut tx, &cart.id).await?;
        let fresh = create(
            &mut tx,
            &shopper.market,
            cart.customer_id.as_deref(),
            state.now(),
        )
        .await?;
        jar.push(shopper.cart_cookie_set(&fresh.key, &state));
        fresh
    } else {
        touch(&mut tx, &cart.id, state.now()).await?;
        cart
    };
    tx.commit().await?;
    let view = render_after_commit(&state, &shopper.market, &cart).await?;
    Ok(with_cookies(StatusCode::OK, jar, view))
}
