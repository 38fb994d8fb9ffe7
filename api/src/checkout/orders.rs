//! Orders: created by an authorised express checkout from the bag at the server's prices, with the
//! stock they take (and, when the payment fails, give back) per warehouse; the order confirmation
//! (`GET /orders/{checkout_id}/{order_id}`) and the signed-in customer's order history of the
//! last 12 months (`GET /customer/orders`, §9).

use crate::AppState;
use crate::cart::{LineOption, PricedBag, PricedLine};
use crate::error::{ApiError, ApiResult};
use crate::session::Shopper;
use crate::stock::SECOND_WAREHOUSE;
use crate::store::{Tx, next_position, random_id};
use axum::Json;
use axum::extract::{Path, State};
use domain::market::{Market, UK};
use rand::Rng;
use serde::Serialize;
use std::collections::HashMap;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// §9: the order history covers 12 months.
pub const HISTORY_SECS: i64 = 365 * 24 * 3600;
/// Most orders one history answer lists.
pub const HISTORY_LIMIT: i64 = 100;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(confirmation))
        .routes(routes!(history))
}

/// `(variant, location, units)` of every enabled location holding `ids`, main warehouse first.
pub async fn enabled_locations(
    conn: &mut sqlx::AnyConnection,
    ids: &[u64],
) -> ApiResult<Vec<(u64, i64, i64)>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let placeholders: Vec<String> = (1..=ids.len()).map(|i| format!("${i}")).collect();
    let sql = format!(
        "SELECT variant_id, location_id, available FROM inventory \
         WHERE enabled = 1 AND variant_id IN ({}) ORDER BY variant_id, location_id",
        placeholders.join(",")
    );
    let mut q = sqlx::query_as::<_, (i64, i64, i64)>(sqlx::AssertSqlSafe(sql));
    for id in ids {
        q = q.bind(*id as i64);
    }
    Ok(q.fetch_all(&mut *conn)
        .await?
        .into_iter()
        .map(|(v, l, units)| (v as u64, l, units))
        .collect())
}

/// Which warehouses `quantity` units come from: the main warehouse first, then the others in id
/// order, never location 2 where the market may not sell it, never below zero. `None` when the
/// sellable stock does not cover the quantity.
pub fn allocate(
    locations: &[(i64, i64)],
    quantity: i64,
    market: &Market,
    deduct_second_outside_uk: bool,
) -> Option<Vec<(i64, i64)>> {
    let mut left = quantity;
    let mut out = Vec::new();
    for &(location, units) in locations {
        if left == 0 {
            break;
        }
        if deduct_second_outside_uk && market.code != UK.code && location == SECOND_WAREHOUSE {
            continue;
        }
        let take = units.max(0).min(left);
        if take > 0 {
            out.push((location, take));
            left -= take;
        }
    }
    (left == 0).then_some(out)
}

/// A ten-digit order number for people (the id stays the random 128-bit one).
fn order_number() -> String {
    format!(
        "{:010}",
        rand::rng().random_range(1_000_000_000u64..10_000_000_000)
    )
}

/// The order as the authorisation creates it.
pub struct NewOrder<'a> {
    pub checkout_id: &'a str,
    pub customer_id: Option<&'a str>,
    pub market: &'a Market,
    pub bag: &'a PricedBag,
    pub shipping_option_id: &'a str,
    pub shipping_option_name: &'a str,
    pub shipping: i64,
    pub email: &'a str,
    pub shipping_address: &'a serde_json::Value,
    pub billing_address: &'a serde_json::Value,
    pub now: i64,
}

/// What `create` made: the ids, and the total the payment must take.
pub struct Created {
    pub id: String,
    pub number: String,
    pub total: i64,
}

/// Writes a Pending order with its lines at the server's prices and takes its stock, inside the
/// caller's transaction. The caller has checked stock; an allocation that no longer fits is the
/// same 409 as that check.
pub async fn create(tx: &mut Tx, state: &AppState, order: NewOrder<'_>) -> ApiResult<Created> {
    let id = random_id(16);
    let number = order_number();
    let deduct = state.config().deduct_location_2_outside_uk;
    let tracked: HashMap<u64, bool> = crate::stock::availability(
        tx,
        state,
        order.market,
        &order
            .bag
            .lines
            .iter()
            .map(|(l, _)| l.variant_id)
            .collect::<Vec<_>>(),
    )
    .await?
    .into_iter()
    .map(|(v, a)| (v, a.tracked))
    .collect();
    let goods = order.bag.amount();
    let total = goods + order.shipping;
    sqlx::query(
        "INSERT INTO shop_order (id, number, checkout_id, customer_id, market, currency, status, \
         payment_status, payment_method, subtotal, discount, shipping, total, shipping_option_id, \
         shipping_option_name, email, shipping_address, billing_address, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, 'Pending', 'pending', 'applepay', $7, $8, $9, $10, $11, \
         $12, $13, $14, $15, $16, $16)",
    )
    .bind(&id)
    .bind(&number)
    .bind(order.checkout_id)
    .bind(order.customer_id)
    .bind(order.market.code)
    .bind(order.market.currency.code())
    .bind(order.bag.special())
    .bind(order.bag.discounts.total())
    .bind(order.shipping)
    .bind(total)
    .bind(order.shipping_option_id)
    .bind(order.shipping_option_name)
    .bind(order.email)
    .bind(order.shipping_address.to_string())
    .bind(order.billing_address.to_string())
    .bind(order.now)
    .execute(&mut **tx)
    .await?;
    for (i, (line, options)) in order.bag.lines.iter().enumerate() {
        let allocations = if tracked.get(&line.variant_id).copied().unwrap_or(true) {
            let here: Vec<(i64, i64)> = enabled_locations(tx, &[line.variant_id])
                .await?
                .into_iter()
                .map(|(_, l, u)| (l, u))
                .collect();
            let taken = allocate(&here, line.quantity, order.market, deduct)
                .ok_or_else(|| ApiError::stock_exceeded(&format!("line_items[{i}].quantity")))?;
            for (location, units) in &taken {
                move_stock(tx, line.variant_id, *location, -units).await?;
            }
            taken
        } else {
            Vec::new()
        };
        let off = order
            .bag
            .discounts
            .lines
            .get(&line.item_id)
            .map(|d| d.discount + d.coupon)
            .unwrap_or(0);
        sqlx::query(
            "INSERT INTO shop_order_line (id, order_id, product_id, variant_id, sku, name, \
             quantity, list_price, unit_price, discount, options, allocations, position) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
        )
        .bind(random_id(16))
        .bind(&id)
        .bind(line.product_id as i64)
        .bind(line.variant_id as i64)
        .bind(&line.sku)
        .bind(&line.name)
        .bind(line.quantity)
        .bind(line.list)
        .bind(line.unit)
        .bind(off)
        .bind(
            serde_json::to_string(&line_options(state, line, options))
                .map_err(anyhow::Error::from)?,
        )
        .bind(serde_json::to_string(&allocations).map_err(anyhow::Error::from)?)
        .bind(next_position())
        .execute(&mut **tx)
        .await?;
    }
    Ok(Created { id, number, total })
}

/// A line's options as the bag shows them: Color / Size / Length (Design on gift cards) from the
/// variant, then the shopper's modifiers.
fn line_options(state: &AppState, line: &PricedLine, modifiers: &[LineOption]) -> Vec<LineOption> {
    let catalog = state.catalog();
    let chosen = crate::catalog::find_variant(&catalog, line.product_id, line.variant_id)
        .map(|(product, variant)| crate::cart::variant_options(product, variant))
        .unwrap_or_default();
    [chosen, modifiers.to_vec()].concat()
}

async fn move_stock(tx: &mut Tx, variant: u64, location: i64, units: i64) -> ApiResult<()> {
    sqlx::query(
        "UPDATE inventory SET available = available + $1 WHERE variant_id = $2 AND location_id = $3",
    )
    .bind(units)
    .bind(variant as i64)
    .bind(location)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Marks a paid order Confirmed.
pub async fn mark_paid(tx: &mut Tx, order_id: &str, reference: &str, now: i64) -> ApiResult<()> {
    sqlx::query(
        "UPDATE shop_order SET status = 'Confirmed', payment_status = 'paid', \
         payment_reference = $1, updated_at = $2 WHERE id = $3 AND status = 'Pending'",
    )
    .bind(reference)
    .bind(now)
    .bind(order_id)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Cancels an order whose payment failed and puts back exactly the stock it took, in the
/// caller's transaction (so the order and the stock change together). An order that is no longer
/// Pending is left as it is.
pub async fn cancel_unpaid(tx: &mut Tx, order_id: &str, now: i64) -> ApiResult<()> {
    let changed = sqlx::query(
        "UPDATE shop_order SET status = 'Cancelled', payment_status = 'failed', updated_at = $1 \
         WHERE id = $2 AND status = 'Pending'",
    )
    .bind(now)
    .bind(order_id)
    .execute(&mut **tx)
    .await?
    .rows_affected();
    if changed == 0 {
        return Ok(());
    }
    let lines: Vec<(i64, String)> =
        sqlx::query_as("SELECT variant_id, allocations FROM shop_order_line WHERE order_id = $1")
            .bind(order_id)
            .fetch_all(&mut **tx)
            .await?;
    for (variant, allocations) in lines {
        let taken: Vec<(i64, i64)> = serde_json::from_str(&allocations)
            .map_err(|e| anyhow::anyhow!("shop_order_line allocations of {order_id}: {e}"))?;
        for (location, units) in taken {
            move_stock(tx, variant as u64, location, units).await?;
        }
    }
    Ok(())
}

// ---- reading orders ------------------------------------------------------------------------

#[derive(Serialize, ToSchema)]
pub struct OrderLineView {
    pub product_id: u64,
    pub variant_id: u64,
    pub sku: String,
    pub name: String,
    pub quantity: i64,
    /// Decimal major units, like the cart's.
    pub list_price: f64,
    pub sale_price: f64,
    pub discount_amount: f64,
    pub extended_sale_price: f64,
    pub options: Vec<LineOption>,
}

#[derive(Serialize, ToSchema)]
pub struct OrderView {
    pub id: String,
    pub number: String,
    /// One of the spec's order statuses: Pending, Confirmed, Cancelled, …
    pub status: String,
    pub payment_status: String,
    pub payment_method: String,
    pub market: String,
    pub currency: String,
    pub created_at: i64,
    pub subtotal: f64,
    pub discount_amount: f64,
    pub shipping_amount: f64,
    pub shipping_method: String,
    pub total: f64,
    pub line_items: Vec<OrderLineView>,
}

type OrderRow = (
    String,
    String,
    String,
    String,
    String,
    String,
    String,
    i64,
    i64,
    i64,
    i64,
    i64,
    String,
);

/// product, variant, sku, name, quantity, list price, unit price, discount, options (JSON).
type OrderLineRow = (i64, i64, String, String, i64, i64, i64, i64, String);

const ORDER_COLUMNS: &str = "id, number, status, payment_status, payment_method, market, \
    currency, created_at, subtotal, discount, shipping, total, shipping_option_name";

fn decimal(minor: i64) -> f64 {
    minor as f64 / 100.0
}

async fn order_view(conn: &mut sqlx::AnyConnection, row: OrderRow) -> ApiResult<OrderView> {
    let (id, number, status, payment_status, payment_method, market, currency, created_at) =
        (row.0, row.1, row.2, row.3, row.4, row.5, row.6, row.7);
    let lines: Vec<OrderLineRow> = sqlx::query_as(
        "SELECT product_id, variant_id, sku, name, quantity, list_price, unit_price, discount, \
         options FROM shop_order_line WHERE order_id = $1 ORDER BY position",
    )
    .bind(&id)
    .fetch_all(&mut *conn)
    .await?;
    let line_items = lines
        .into_iter()
        .map(|(p, v, sku, name, quantity, list, unit, off, options)| {
            let options = serde_json::from_str(&options)
                .map_err(|e| anyhow::anyhow!("shop_order_line options of {id}: {e}"))?;
            Ok(OrderLineView {
                product_id: p as u64,
                variant_id: v as u64,
                sku,
                name,
                quantity,
                list_price: decimal(list),
                sale_price: decimal(unit),
                discount_amount: decimal(off),
                extended_sale_price: decimal(unit * quantity),
                options,
            })
        })
        .collect::<ApiResult<Vec<_>>>()?;
    Ok(OrderView {
        id,
        number,
        status,
        payment_status,
        payment_method,
        market,
        currency,
        created_at,
        subtotal: decimal(row.8),
        discount_amount: decimal(row.9),
        shipping_amount: decimal(row.10),
        total: decimal(row.11),
        shipping_method: row.12,
        line_items,
    })
}

/// The order confirmation: the order a checkout created. Both random ids must match, so the link
/// itself is the proof (a guest has no account to show it in); unknown pairs are 404.
#[utoipa::path(get, path = "/orders/{checkout_id}/{order_id}", tag = "checkout",
    params(("checkout_id" = String, Path), ("order_id" = String, Path)),
    responses((status = 200, body = OrderView), (status = 404, body = crate::error::ErrorBody)))]
async fn confirmation(
    State(state): State<AppState>,
    Path((checkout_id, order_id)): Path<(String, String)>,
) -> ApiResult<Json<OrderView>> {
    if !crate::session::is_token(&checkout_id) || !crate::session::is_token(&order_id) {
        return Err(ApiError::not_found());
    }
    let mut conn = state.db().pool().acquire().await?;
    let sql = format!("SELECT {ORDER_COLUMNS} FROM shop_order WHERE id = $1 AND checkout_id = $2");
    let row: Option<OrderRow> = sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(&order_id)
        .bind(&checkout_id)
        .fetch_optional(&mut *conn)
        .await?;
    let row = row.ok_or_else(ApiError::not_found)?;
    Ok(Json(order_view(&mut conn, row).await?))
}

#[derive(Serialize, ToSchema)]
pub struct OrderHistory {
    pub orders: Vec<OrderView>,
}

/// The signed-in customer's orders of the last 12 months (§9), newest first; 401 for guests.
#[utoipa::path(get, path = "/customer/orders", tag = "account",
    responses((status = 200, body = OrderHistory), (status = 401, body = crate::error::ErrorBody)))]
async fn history(State(state): State<AppState>, shopper: Shopper) -> ApiResult<Json<OrderHistory>> {
    let customer = shopper.customer()?;
    let since = state.now() - HISTORY_SECS;
    let mut conn = state.db().pool().acquire().await?;
    let sql = format!(
        "SELECT {ORDER_COLUMNS} FROM shop_order WHERE customer_id = $1 AND created_at >= $2 \
         ORDER BY created_at DESC, id LIMIT {HISTORY_LIMIT}"
    );
    let rows: Vec<OrderRow> = sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(customer)
        .bind(since)
        .fetch_all(&mut *conn)
        .await?;
    let mut orders = Vec::with_capacity(rows.len());
    for row in rows {
        orders.push(order_view(&mut conn, row).await?);
    }
    Ok(Json(OrderHistory { orders }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use domain::market::MARKETS;

    #[test]
    fn stock_is_taken_from_the_main_warehouse_first() {
        let uk = &MARKETS[0];
        assert_eq!(
            allocate(&[(1, 2), (2, 5)], 4, uk, true),
            Some(vec![(1, 2), (2, 2)])
        );
        assert_eq!(
            allocate(&[(1, 5), (2, 5)], 3, uk, false),
            Some(vec![(1, 3)])
        );
        assert_eq!(allocate(&[(1, -1), (2, 2)], 3, uk, false), None);
        // Outside the UK with the deduction on, location 2 is not sellable.
        let us = &MARKETS[1];
        assert_eq!(allocate(&[(1, 2), (2, 5)], 3, us, true), None);
        assert_eq!(
            allocate(&[(1, 2), (2, 5)], 3, us, false),
            Some(vec![(1, 2), (2, 1)])
        );
    }

    #[test]
    fn order_numbers_have_ten_digits() {
        let n = order_number();
        assert_eq!(n.len(), 10);
        assert!(n.bytes().all(|b| b.is_ascii_digit()));
    }
}
