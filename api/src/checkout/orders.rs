//! Orders: created by either checkout from the bag at the server's prices, with the stock they
//! take (and, when the payment fails, give back) per warehouse; the order confirmation
//! (`GET /orders/{checkout_id}/{order_id}`) and the signed-in customer's order history of the
//! last 12 months (`GET /customer/orders`). The only writer of `shop_order` and
//! `shop_order_line`.

use crate::account::address::AddressInput;
use crate::bag::{LineOption, PricedBag, PricedLine, decimal, extended, minor_units};
use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::mail::message::{Kind, Letterhead, OrderLine, OrderSummary};
use crate::rows::row;
use crate::session::Shopper;
use crate::state::AppState;
use crate::store::{Tx, next_position, random_id};
use axum::Json;
use axum::extract::{Path, State};
use domain::market::Market;
use rand::Rng;
use serde::Serialize;
use std::collections::HashMap;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// The order history covers 12 months.
pub const HISTORY_SECS: i64 = 365 * 24 * 3600;
/// Most orders one history answer lists.
pub const HISTORY_LIMIT: i64 = 100;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(confirmation))
        .routes(routes!(history))
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
    /// `express` or `standard`: which checkout made it.
    pub kind: &'a str,
    /// The payment method type (`applepay`, `scheme`, `paypal`, …).
    pub payment_method: &'a str,
    /// Place order's `Idempotency-Key` (standard checkout).
    pub idempotency_key: Option<&'a str>,
    /// Hash of the guest browser's `sf_guest` cookie, for guest orders.
    pub owner_hash: Option<&'a str>,
    /// How the bag's lines are named in a stock error (`line_items` or `lines`).
    pub lines_field: &'a str,
    /// The payment request (method and token, JSON) to ask the provider again with.
    pub payment_request: Option<&'a str>,
}

/// What `create` made: the ids, and the total the payment must take.
pub struct Created {
    pub id: String,
    pub number: String,
    pub total: i64,
}

/// Writes a Pending order with its lines at the server's prices and takes its stock, inside the
/// caller's transaction: the variants' stock rows are locked in ascending variant order and each
/// part is taken with a guarded update (`inventory::take`), so concurrent orders never sell a unit
/// twice. A line the stock no longer covers is 409 `insufficient_stock` naming it, and the caller
/// drops the transaction: nothing was written.
pub async fn create(tx: &mut Tx, state: &AppState, order: NewOrder<'_>) -> ApiResult<Created> {
    let id = random_id(16);
    let number = order_number();
    let deduct = state.config().deduct_location_2_outside_uk;
    let tracked: HashMap<u64, bool> =
        crate::stock::availability(tx, state, order.market, &order.bag.variant_ids())
            .await?
            .into_iter()
            .map(|(v, a)| (v, a.tracked))
            .collect();
    // Take the stock first, variant by variant in ascending id order (the lock order).
    let mut order_of_taking: Vec<usize> = (0..order.bag.lines.len()).collect();
    order_of_taking.sort_by_key(|&i| (order.bag.lines[i].0.variant_id, i));
    let mut allocations: Vec<Vec<(i64, i64)>> = vec![Vec::new(); order.bag.lines.len()];
    for i in order_of_taking {
        let line = &order.bag.lines[i].0;
        if !tracked.get(&line.variant_id).copied().unwrap_or(true) {
            continue;
        }
        allocations[i] = crate::inventory::take(
            tx,
            state.db(),
            line.variant_id,
            line.quantity,
            order.market,
            deduct,
        )
        .await?
        .ok_or_else(|| ApiError::stock_exceeded(&format!("{}[{i}].quantity", order.lines_field)))?;
    }
    let total = order.bag.total_with(order.shipping);
    sqlx::query(
        "INSERT INTO shop_order (id, number, checkout_id, customer_id, market, currency, status, \
         payment_status, payment_method, subtotal, discount, shipping, total, shipping_option_id, \
         shipping_option_name, email, shipping_address, billing_address, created_at, updated_at, \
         checkout_kind, idempotency_key, owner_hash, payment_request) \
         VALUES ($1, $2, $3, $4, $5, $6, 'Pending', 'pending', $17, $7, $8, $9, $10, $11, \
         $12, $13, $14, $15, $16, $16, $18, $19, $20, $21)",
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
    .bind(order.payment_method)
    .bind(order.kind)
    .bind(order.idempotency_key)
    .bind(order.owner_hash)
    .bind(order.payment_request)
    .execute(&mut **tx)
    .await?;
    for (i, (line, options)) in order.bag.lines.iter().enumerate() {
        let off = order.bag.discounts.line(&line.item_id).total();
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
        .bind(serde_json::to_string(&allocations[i]).map_err(anyhow::Error::from)?)
        .bind(next_position())
        .execute(&mut **tx)
        .await?;
    }
    Ok(Created { id, number, total })
}

/// A line's options as the bag shows them (only the shopper's modifiers when the variant has left
/// the catalog).
fn line_options(state: &AppState, line: &PricedLine, modifiers: &[LineOption]) -> Vec<LineOption> {
    let catalog = state.catalog();
    match crate::catalog::find_variant(&catalog, line.product_id, line.variant_id) {
        Some((product, variant)) => crate::cart::line_options(product, variant, modifiers),
        None => modifiers.to_vec(),
    }
}

/// Marks a paid order Confirmed; false when it was no longer Pending (settled by someone else).
pub async fn mark_paid(tx: &mut Tx, order_id: &str, reference: &str, now: i64) -> ApiResult<bool> {
    let changed = sqlx::query(
        "UPDATE shop_order SET status = 'Confirmed', payment_status = 'paid', \
         payment_reference = $1, payment_action_url = NULL, updated_at = $2 \
         WHERE id = $3 AND status = 'Pending'",
    )
    .bind(reference)
    .bind(now)
    .bind(order_id)
    .execute(&mut **tx)
    .await?
    .rows_affected();
    Ok(changed == 1)
}

/// Records the provider's payment of a Pending order, and where the shopper must go first.
pub async fn record_payment(
    tx: &mut Tx,
    order_id: &str,
    reference: &str,
    action_url: Option<&str>,
    now: i64,
) -> ApiResult<()> {
    sqlx::query(
        "UPDATE shop_order SET payment_reference = $1, payment_action_url = $2, updated_at = $3 \
         WHERE id = $4 AND status = 'Pending'",
    )
    .bind(reference)
    .bind(action_url)
    .bind(now)
    .bind(order_id)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The variants an order holds (to refresh the stock snapshot after it changed).
pub async fn variants_of(state: &AppState, order_id: &str) -> ApiResult<Vec<u64>> {
    let mut conn = state.db().pool().acquire().await?;
    let ids: Vec<i64> =
        sqlx::query_scalar("SELECT variant_id FROM shop_order_line WHERE order_id = $1")
            .bind(order_id)
            .fetch_all(&mut *conn)
            .await?;
    Ok(ids.into_iter().map(|v| v as u64).collect())
}

/// Units of `variant` in paid (Confirmed) orders: the benchmarks' oversell check.
pub async fn paid_units(conn: &mut sqlx::AnyConnection, variant: u64) -> ApiResult<i64> {
    Ok(sqlx::query_scalar(
        "SELECT CAST(COALESCE(SUM(l.quantity), 0) AS BIGINT) FROM shop_order_line l \
         JOIN shop_order o ON o.id = l.order_id WHERE o.status = 'Confirmed' AND l.variant_id = $1",
    )
    .bind(variant as i64)
    .fetch_one(&mut *conn)
    .await?)
}

/// Gives a guest's orders (placed from this browser with this email) to the customer who just
/// created an account from the confirmation.
pub async fn attach_to_customer(
    tx: &mut Tx,
    customer_id: &str,
    owner_hash: &str,
    email: &str,
) -> ApiResult<u64> {
    Ok(sqlx::query(
        "UPDATE shop_order SET customer_id = $1 \
         WHERE owner_hash = $2 AND email = $3 AND customer_id IS NULL",
    )
    .bind(customer_id)
    .bind(owner_hash)
    .bind(email)
    .execute(&mut **tx)
    .await?
    .rows_affected())
}

/// Cancels an order whose payment failed and puts back exactly the stock it took, in the
/// caller's transaction (so the order and the stock change together). An order that is no longer
/// Pending is left as it is.
pub async fn cancel_unpaid(tx: &mut Tx, order_id: &str, now: i64) -> ApiResult<()> {
    cancel(tx, order_id, "Pending", "failed", now)
        .await
        .map(|_| ())
}

/// Moves an order from `from` to Cancelled with `payment_status` and puts back exactly the stock
/// it took; false (nothing changed) when it was not in `from`.
pub async fn cancel(
    tx: &mut Tx,
    order_id: &str,
    from: &str,
    payment_status: &str,
    now: i64,
) -> ApiResult<bool> {
    let changed = sqlx::query(
        "UPDATE shop_order SET status = 'Cancelled', payment_status = $1, \
         payment_action_url = NULL, updated_at = $2 WHERE id = $3 AND status = $4",
    )
    .bind(payment_status)
    .bind(now)
    .bind(order_id)
    .bind(from)
    .execute(&mut **tx)
    .await?
    .rows_affected();
    if changed == 0 {
        return Ok(false);
    }
    let lines: Vec<(i64, String)> =
        // In ascending variant order, as orders take stock: row locks never wait in a ring.
        sqlx::query_as(
            "SELECT variant_id, allocations FROM shop_order_line WHERE order_id = $1 \
             ORDER BY variant_id, position",
        )
            .bind(order_id)
            .fetch_all(&mut **tx)
            .await?;
    for (variant, allocations) in lines {
        let taken: Vec<(i64, i64)> = serde_json::from_str(&allocations)
            .map_err(|e| anyhow::anyhow!("shop_order_line allocations of {order_id}: {e}"))?;
        crate::inventory::put_back(tx, variant as u64, &taken).await?;
    }
    Ok(true)
}

/// Moves an order along without touching stock (ship, complete, refund); false when it was not
/// in `from`.
pub async fn move_status(
    tx: &mut Tx,
    order_id: &str,
    from: &str,
    to: &str,
    payment_status: Option<&str>,
    now: i64,
) -> ApiResult<bool> {
    let changed = sqlx::query(
        "UPDATE shop_order SET status = $1, payment_status = COALESCE($2, payment_status), \
         updated_at = $3 WHERE id = $4 AND status = $5",
    )
    .bind(to)
    .bind(payment_status)
    .bind(now)
    .bind(order_id)
    .bind(from)
    .execute(&mut **tx)
    .await?
    .rows_affected();
    Ok(changed == 1)
}

/// Queues the order confirmation email: number, lines, delivery, total and the link to the
/// confirmation, in the order's market.
pub async fn queue_confirmation_mail(
    tx: &mut Tx,
    state: &AppState,
    order_id: &str,
    now: i64,
) -> ApiResult<()> {
    queue_order_mail(tx, state, order_id, Kind::OrderConfirmation, false, now).await
}

/// Queues one of the order emails (`kind`: confirmation, shipped, cancelled, refunded) in the
/// caller's transaction, so the mail exists exactly when the change it reports does. `refunded`
/// says, for a cancellation, that money already taken was refunded.
pub async fn queue_order_mail(
    tx: &mut Tx,
    state: &AppState,
    order_id: &str,
    kind: Kind,
    refunded: bool,
    now: i64,
) -> ApiResult<()> {
    let sql = format!("SELECT {ORDER_COLUMNS}, checkout_id FROM shop_order WHERE id = $1");
    let (row, checkout_id): (OrderRow, String) = {
        let row: Option<OrderRowWithCheckout> = sqlx::query_as(sqlx::AssertSqlSafe(sql))
            .bind(order_id)
            .fetch_optional(&mut **tx)
            .await?;
        let row = row.ok_or_else(|| anyhow::anyhow!("order {order_id} vanished"))?;
        (row.order, row.checkout_id)
    };
    let market = Market::by_code(&row.market).unwrap_or(domain::market::UK);
    let head = Letterhead::of(state, market);
    let (email, number) = (row.email.clone(), row.number.clone());
    let (subtotal, discount, shipping, total, method) = (
        row.subtotal,
        row.discount,
        row.shipping,
        row.total,
        row.shipping_option_name.clone(),
    );
    let view = order_view(tx, row, false).await?;
    let summary = OrderSummary {
        number,
        lines: view
            .line_items
            .iter()
            .map(|line| OrderLine {
                name: line.name.clone(),
                options: line
                    .options
                    .iter()
                    .map(|o| format!("{}: {}", o.name, o.value))
                    .collect::<Vec<_>>()
                    .join(", "),
                quantity: line.quantity,
                price: head.money(minor_units(line.extended_sale_price)),
            })
            .collect(),
        subtotal: head.money(subtotal),
        discount: (discount > 0).then(|| head.money(discount)),
        shipping: head.money(shipping),
        shipping_method: method,
        total: head.money(total),
        link: head.link(&format!("/order-confirmation/{checkout_id}/{order_id}")),
    };
    let message = crate::mail::message::order(kind, &head, &email, &summary, refunded)?;
    crate::mail::queue(tx, &message, now).await
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

/// A guest order's offer of an account (the confirmation only).
#[derive(Serialize, ToSchema)]
pub struct GuestAccount {
    /// The checkout's email, which the account would use.
    pub email: String,
    /// An account already exists for it: the screen offers a password reset instead.
    pub account_exists: bool,
}

/// A purchase tracking row: one per order line, for analytics.
#[derive(Serialize, ToSchema)]
#[allow(non_snake_case)]
pub struct PurchaseRow {
    pub purchaseId: String,
    /// Style code (the SKU's first 6 characters) + `_` + colour, spaces as underscores.
    pub productId: String,
    pub sku: String,
    pub quantity: i64,
    pub unitPrice: f64,
    pub currency: String,
}

#[derive(Serialize, ToSchema)]
pub struct OrderView {
    pub id: String,
    pub number: String,
    /// One of the spec's order statuses: Pending, Confirmed, Shipped, Complete, Cancelled,
    /// Refunded.
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
    /// The confirmation's extras; absent in the order history.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delivery_address: Option<AddressInput>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub billing_address: Option<AddressInput>,
    /// Present (possibly null) on the confirmation: null when the order belongs to a customer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub guest_account: Option<Option<GuestAccount>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub purchase: Option<Vec<PurchaseRow>>,
}

row! {
    struct OrderRow {
        id: String,
        number: String,
        status: String,
        payment_status: String,
        payment_method: String,
        market: String,
        currency: String,
        created_at: i64,
        subtotal: i64,
        discount: i64,
        shipping: i64,
        total: i64,
        shipping_option_name: String,
        customer_id: Option<String>,
        owner_hash: Option<String>,
        email: String,
        shipping_address: String,
        billing_address: String,
    }
}

row! {
    struct OrderRowWithCheckout {
        @flatten order: OrderRow,
        checkout_id: String,
    }
}

row! {
    struct OrderLineRow {
        product_id: i64,
        variant_id: i64,
        sku: String,
        name: String,
        quantity: i64,
        list_price: i64,
        unit_price: i64,
        discount: i64,
        options: String,
    }
}

const ORDER_COLUMNS: &str = "id, number, status, payment_status, payment_method, market, \
    currency, created_at, subtotal, discount, shipping, total, shipping_option_name, customer_id, \
    owner_hash, email, shipping_address, billing_address";

/// A stored address in the address book's shape: checkout addresses are stored in it; express
/// orders store the wallet's contact, which is mapped field by field.
fn address_view(stored: &str) -> Option<AddressInput> {
    let v: serde_json::Value = serde_json::from_str(stored).ok()?;
    if v.get("given_name").is_none() {
        return serde_json::from_value(v).ok();
    }
    let text = |k: &str| v[k].as_str().unwrap_or_default().to_string();
    let lines: Vec<&str> = v["address_lines"]
        .as_array()
        .map(|l| l.iter().filter_map(|x| x.as_str()).collect())
        .unwrap_or_default();
    Some(AddressInput {
        first_name: text("given_name"),
        last_name: text("family_name"),
        street_name: lines.join(", "),
        house_number: String::new(),
        city: text("locality"),
        state_or_province: text("administrative_area"),
        postal_code: text("postal_code"),
        country_code: text("country_code"),
        phone: text("phone_number"),
    })
}

/// The tracking row's product id: style code + `_` + the colour (or gift card design).
fn tracking_product_id(sku: &str, options: &[LineOption]) -> String {
    let style: String = sku.chars().take(6).collect();
    let colour = options
        .iter()
        .find(|o| matches!(o.name.as_str(), "Color" | "Colour" | "Design"))
        .map(|o| o.value.replace(' ', "_"));
    match colour {
        Some(c) => format!("{style}_{c}"),
        None => style,
    }
}

async fn order_view(
    conn: &mut sqlx::AnyConnection,
    row: OrderRow,
    confirmation: bool,
) -> ApiResult<OrderView> {
    let lines: Vec<OrderLineRow> = sqlx::query_as(
        "SELECT product_id, variant_id, sku, name, quantity, list_price, unit_price, discount, \
         options FROM shop_order_line WHERE order_id = $1 ORDER BY position",
    )
    .bind(&row.id)
    .fetch_all(&mut *conn)
    .await?;
    let line_items = lines
        .into_iter()
        .map(|l| {
            let options = serde_json::from_str(&l.options)
                .map_err(|e| anyhow::anyhow!("shop_order_line options of {}: {e}", row.id))?;
            Ok(OrderLineView {
                product_id: l.product_id as u64,
                variant_id: l.variant_id as u64,
                sku: l.sku,
                name: l.name,
                quantity: l.quantity,
                list_price: decimal(l.list_price),
                sale_price: decimal(l.unit_price),
                discount_amount: decimal(l.discount),
                extended_sale_price: decimal(extended(l.unit_price, l.quantity)),
                options,
            })
        })
        .collect::<ApiResult<Vec<_>>>()?;
    let mut view = OrderView {
        id: row.id,
        number: row.number,
        status: row.status,
        payment_status: row.payment_status,
        payment_method: row.payment_method,
        market: row.market,
        currency: row.currency,
        created_at: row.created_at,
        subtotal: decimal(row.subtotal),
        discount_amount: decimal(row.discount),
        shipping_amount: decimal(row.shipping),
        total: decimal(row.total),
        shipping_method: row.shipping_option_name,
        line_items,
        email: None,
        delivery_address: None,
        billing_address: None,
        guest_account: None,
        purchase: None,
    };
    if confirmation {
        let guest = match row.customer_id {
            Some(_) => None,
            None => {
                let exists =
                    crate::account::id_by_email(conn, &crate::fields::normalise_email(&row.email))
                        .await?;
                Some(GuestAccount {
                    email: row.email.clone(),
                    account_exists: exists.is_some(),
                })
            }
        };
        view.purchase = Some(
            view.line_items
                .iter()
                .map(|l| PurchaseRow {
                    purchaseId: view.number.clone(),
                    productId: tracking_product_id(&l.sku, &l.options),
                    sku: l.sku.clone(),
                    quantity: l.quantity,
                    unitPrice: l.sale_price,
                    currency: view.currency.clone(),
                })
                .collect(),
        );
        view.email = Some(row.email);
        view.delivery_address = address_view(&row.shipping_address);
        view.billing_address = address_view(&row.billing_address);
        view.guest_account = Some(guest);
    }
    Ok(view)
}

/// Whether the shopper may see an order: the signed-in customer it belongs to, or the browser
/// that placed it (the hash of its `sf_guest` cookie).
fn owns(shopper: &Shopper, customer_id: Option<&str>, owner_hash: Option<&str>) -> bool {
    let by_customer =
        shopper.customer_id.is_some() && shopper.customer_id.as_deref() == customer_id;
    let by_browser = owner_hash.is_some() && shopper.guest_hash().as_deref() == owner_hash;
    by_customer || by_browser
}

/// Whether the shopper owns order `order_id` (see `owns`).
pub async fn owned_by(
    conn: &mut sqlx::AnyConnection,
    shopper: &Shopper,
    order_id: &str,
) -> ApiResult<bool> {
    let row: Option<(Option<String>, Option<String>)> =
        sqlx::query_as("SELECT customer_id, owner_hash FROM shop_order WHERE id = $1")
            .bind(order_id)
            .fetch_optional(&mut *conn)
            .await?;
    Ok(row.is_some_and(|(c, o)| owns(shopper, c.as_deref(), o.as_deref())))
}

/// The order confirmation, for its owner only (the signed-in customer it belongs to, or the
/// browser that placed it); anyone else, and unknown pairs, get 404.
#[utoipa::path(get, path = "/orders/{checkout_id}/{order_id}", tag = "checkout",
    params(("checkout_id" = String, Path), ("order_id" = String, Path)),
    responses((status = 200, body = OrderView), (status = 404, body = crate::error::ErrorBody)))]
async fn confirmation(
    State(state): State<AppState>,
    shopper: Shopper,
    Path((checkout_id, order_id)): Path<(String, String)>,
) -> ApiResult<Json<OrderView>> {
    let mut conn = state.db().pool().acquire().await?;
    let row = owned_order(&mut conn, &shopper, &checkout_id, &order_id).await?;
    Ok(Json(order_view(&mut conn, row, true).await?))
}

/// The order `(checkout_id, order_id)` when the shopper owns it, else 404.
async fn owned_order(
    conn: &mut sqlx::AnyConnection,
    shopper: &Shopper,
    checkout_id: &str,
    order_id: &str,
) -> ApiResult<OrderRow> {
    if !crate::session::is_token(checkout_id) || !crate::session::is_token(order_id) {
        return Err(ApiError::not_found());
    }
    let sql = format!("SELECT {ORDER_COLUMNS} FROM shop_order WHERE id = $1 AND checkout_id = $2");
    let row: Option<OrderRow> = sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(order_id)
        .bind(checkout_id)
        .fetch_optional(&mut *conn)
        .await?;
    row.filter(|r| owns(shopper, r.customer_id.as_deref(), r.owner_hash.as_deref()))
        .ok_or_else(ApiError::not_found)
}

/// A guest order's email and billing address, for the account made from its confirmation.
pub struct GuestOrder {
    pub email: String,
    pub billing_address: Option<AddressInput>,
    pub owner_hash: String,
}

/// The guest order the shopper's browser placed (404 otherwise; 409 when it already belongs to
/// a customer).
pub async fn guest_order(
    conn: &mut sqlx::AnyConnection,
    shopper: &Shopper,
    checkout_id: &str,
    order_id: &str,
) -> ApiResult<GuestOrder> {
    let row = owned_order(conn, shopper, checkout_id, order_id).await?;
    if row.customer_id.is_some() {
        return Err(ApiError::new(
            ErrorCode::OrderHasAccount,
            "This order already belongs to an account.",
        ));
    }
    Ok(GuestOrder {
        email: row.email,
        billing_address: address_view(&row.billing_address),
        owner_hash: row.owner_hash.unwrap_or_default(),
    })
}

#[derive(Serialize, ToSchema)]
pub struct OrderHistory {
    pub orders: Vec<OrderView>,
}

/// The signed-in customer's orders of the last 12 months, newest first, each with its
/// current status; 401 for guests.
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
        orders.push(order_view(&mut conn, row, false).await?);
    }
    Ok(Json(OrderHistory { orders }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_numbers_have_ten_digits() {
        let n = order_number();
        assert_eq!(n.len(), 10);
        assert!(n.bytes().all(|b| b.is_ascii_digit()));
    }
}
