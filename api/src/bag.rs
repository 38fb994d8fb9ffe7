//! The priced bag: a cart's lines at the server's prices, the promotions engine's stored discounts
//! for them, and the totals the bag, the checkouts, the payment and the order all take from here.
//! The one place that reads prices (the store's `catalog_variant` rows of the market) and does
//! arithmetic on them, so every screen and every charge agree.
//!
//! It owns the `cart_promotion` table, its only writer: the promotions sync stores an evaluation
//! through `save_discounts`, with the fingerprint of the bag it was made for, and the bag applies
//! it only while it is still exactly that bag; a cart's evaluation goes with the cart. It sits
//! below `cart`, `promotions` and `checkout`: it reads a cart's stored lines but knows nothing of
//! cookies, the engine or orders.

use crate::catalog::find_variant;
use crate::error::{ApiError, ApiResult};
use crate::rows::row;
use crate::state::AppState;
use crate::store::{Tx, placeholders};
use domain::market::Market;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use utoipa::ToSchema;

/// An amount as the API's JSON shows it: decimal major units of the currency.
pub fn decimal(minor: i64) -> f64 {
    minor as f64 / 100.0
}

/// A decimal amount (major units, as the JSON and the promotions engine give it) in minor units.
pub fn minor_units(decimal: f64) -> i64 {
    (decimal * 100.0).round() as i64
}

/// What `quantity` units at `unit` cost, minor units.
pub fn extended(unit: i64, quantity: i64) -> i64 {
    unit * quantity
}

// ---- prices --------------------------------------------------------------------------------

/// A variant's prices in a market, minor units.
pub struct VariantPrice {
    pub sku: String,
    pub list: i64,
    /// What one unit costs now: the sale price when there is one.
    pub unit: i64,
}

row! {
    struct PriceRow {
        variant_id: i64,
        sku: String,
        list: i64,
        sale: Option<i64>,
    }
}

/// The prices of variants in `market`, from the store; unknown variants are absent.
pub async fn variant_prices(
    conn: &mut sqlx::AnyConnection,
    market: &Market,
    variant_ids: &[u64],
) -> ApiResult<HashMap<u64, VariantPrice>> {
    if variant_ids.is_empty() {
        return Ok(HashMap::new());
    }
    // The column names come from the fixed market list, never from the request.
    let sql = format!(
        "SELECT variant_id, sku, price_{m} AS list, sale_{m} AS sale FROM catalog_variant \
         WHERE variant_id IN ({})",
        placeholders(1, variant_ids.len()),
        m = market.code
    );
    let mut q = sqlx::query_as::<_, PriceRow>(sqlx::AssertSqlSafe(sql));
    for id in variant_ids {
        q = q.bind(*id as i64);
    }
    Ok(q.fetch_all(&mut *conn)
        .await?
        .into_iter()
        .map(|row| {
            let price = VariantPrice {
                sku: row.sku,
                list: row.list,
                unit: row.sale.unwrap_or(row.list),
            };
            (row.variant_id as u64, price)
        })
        .collect())
}

// ---- lines ---------------------------------------------------------------------------------

// An option of a bag line: the variant's Color / Size / Length, or a modifier the shopper set.
// (A plain comment: a doc comment would become the schema's description in the OpenAPI document.)
#[derive(Serialize, Deserialize, ToSchema, Clone)]
#[allow(non_snake_case)]
pub struct LineOption {
    pub name: String,
    pub nameId: u64,
    pub value: String,
    pub valueId: Option<u64>,
}

/// A cart line as stored (`cart_item`), before pricing.
pub struct StoredLine {
    pub id: String,
    pub product_id: u64,
    pub variant_id: u64,
    pub quantity: i64,
    /// The modifiers the shopper set (gift card messages, the hidden uid).
    pub options: Vec<LineOption>,
}

row! {
    struct StoredLineRow {
        id: String,
        product_id: i64,
        variant_id: i64,
        quantity: i64,
        options: String,
    }
}

/// A cart's lines in bag order.
pub async fn stored_lines(
    conn: &mut sqlx::AnyConnection,
    cart_id: &str,
) -> ApiResult<Vec<StoredLine>> {
    let rows: Vec<StoredLineRow> = sqlx::query_as(
        "SELECT id, product_id, variant_id, quantity, options FROM cart_item \
         WHERE cart_id = $1 ORDER BY position",
    )
    .bind(cart_id)
    .fetch_all(&mut *conn)
    .await?;
    rows.into_iter()
        .map(|row| {
            let options = serde_json::from_str(&row.options).map_err(|e| {
                ApiError::Internal(anyhow::anyhow!("cart_item {} options: {e}", row.id))
            })?;
            Ok(StoredLine {
                id: row.id,
                product_id: row.product_id as u64,
                variant_id: row.variant_id as u64,
                quantity: row.quantity,
                options,
            })
        })
        .collect()
}

/// A cart line priced from the store, as the view and the promotions engine see it. Lines whose
/// variant left the catalog are not priced (they cannot be bought and are not shown).
#[derive(Debug, Clone)]
pub struct PricedLine {
    pub item_id: String,
    pub product_id: u64,
    pub variant_id: u64,
    pub sku: String,
    pub name: String,
    pub quantity: i64,
    /// List price, minor units.
    pub list: i64,
    /// What one unit costs now (the sale price when there is one), minor units.
    pub unit: i64,
}

impl PricedLine {
    /// The line at its current (sale) price.
    pub fn total(&self) -> i64 {
        extended(self.unit, self.quantity)
    }

    /// The line at its list price.
    pub fn list_total(&self) -> i64 {
        extended(self.list, self.quantity)
    }
}

/// A cart's lines in bag order, priced from the store's catalog rows in `market`, each with the
/// modifiers the shopper set.
pub async fn priced_lines(
    conn: &mut sqlx::AnyConnection,
    state: &AppState,
    market: &Market,
    cart_id: &str,
) -> ApiResult<Vec<(PricedLine, Vec<LineOption>)>> {
    let lines = stored_lines(conn, cart_id).await?;
    let ids: Vec<u64> = lines.iter().map(|l| l.variant_id).collect();
    let prices = variant_prices(conn, market, &ids).await?;
    let catalog = state.catalog();
    Ok(lines
        .into_iter()
        .filter_map(|line| {
            let (product, _) = find_variant(&catalog, line.product_id, line.variant_id)?;
            let price = prices.get(&line.variant_id)?;
            let priced = PricedLine {
                item_id: line.id,
                product_id: line.product_id,
                variant_id: line.variant_id,
                sku: price.sku.clone(),
                name: product.name.clone(),
                quantity: line.quantity,
                list: price.list,
                unit: price.unit,
            };
            Some((priced, line.options))
        })
        .collect())
}

// ---- discounts -----------------------------------------------------------------------------

/// A line's discounts, minor units: from rules, and from rules a coupon triggered.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineDiscount {
    pub discount: i64,
    pub coupon: i64,
}

impl LineDiscount {
    /// Both parts: what comes off the line.
    pub fn total(&self) -> i64 {
        self.discount + self.coupon
    }

    /// Both parts as the checkout shows them: the sum of the two decimal amounts the bag shows,
    /// so the two screens print the same figure.
    pub fn shown(&self) -> f64 {
        decimal(self.discount) + decimal(self.coupon)
    }
}

/// What one evaluation granted, in minor units, clamped so nothing costs less than nothing.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Discounts {
    /// By cart item id (positions are only meaningful for the list that was sent).
    pub lines: BTreeMap<String, LineDiscount>,
    /// Cart-level discount (`setDiscount`), and the part of it a coupon triggered.
    pub cart: i64,
    pub cart_coupon: i64,
    pub free_shipping: bool,
}

/// A discount the promotions engine asked for, before it is capped.
#[derive(Debug, Clone, Copy)]
pub enum Grant {
    /// Off the line at `position` of the lines that were sent.
    Line {
        position: usize,
        amount: i64,
        coupon: bool,
    },
    /// Off the bag as a whole, after the line discounts.
    Cart { amount: i64, coupon: bool },
}

impl Discounts {
    /// Everything the evaluation takes off.
    pub fn total(&self) -> i64 {
        self.cart + self.lines.values().map(LineDiscount::total).sum::<i64>()
    }

    /// The part of the discounts a coupon triggered.
    pub fn coupons(&self) -> i64 {
        self.cart_coupon + self.lines.values().map(|l| l.coupon).sum::<i64>()
    }

    /// The discounts of one line (none when it has none).
    pub fn line(&self, item_id: &str) -> LineDiscount {
        self.lines.get(item_id).copied().unwrap_or_default()
    }

    /// Applies `grants` to the lines that were sent (`lines[i]` is position `i`), in order. Every
    /// discount is capped at what is left to pay, so a misconfigured rule cannot make a line or
    /// the bag negative: line grants come off their line, then the cart grants (plain before
    /// coupon) off what the lines left. A grant for a position that was not sent is ignored.
    pub fn granted(lines: &[PricedLine], grants: &[Grant], free_shipping: bool) -> Discounts {
        let mut out = Discounts {
            free_shipping,
            ..Discounts::default()
        };
        let mut left: Vec<i64> = lines.iter().map(PricedLine::total).collect();
        let (mut cart_plain, mut cart_coupon) = (0i64, 0i64);
        for grant in grants {
            match *grant {
                Grant::Line {
                    position,
                    amount,
                    coupon,
                } => {
                    let (Some(line), Some(rest)) = (lines.get(position), left.get_mut(position))
                    else {
                        continue;
                    };
                    let granted = amount.min(*rest);
                    *rest -= granted;
                    let entry = out.lines.entry(line.item_id.clone()).or_default();
                    if coupon {
                        entry.coupon += granted;
                    } else {
                        entry.discount += granted;
                    }
                }
                Grant::Cart {
                    amount,
                    coupon: true,
                } => cart_coupon += amount,
                Grant::Cart { amount, .. } => cart_plain += amount,
            }
        }
        let mut rest: i64 = left.iter().sum();
        let plain = cart_plain.min(rest);
        rest -= plain;
        let coupon = cart_coupon.min(rest);
        out.cart = plain + coupon;
        out.cart_coupon = coupon;
        out
    }
}

/// Identifies the priced bag an evaluation was made for. A stored evaluation applies only while
/// the bag is exactly this (same lines, quantities and prices); any change shows the bag without
/// it until the next sync, instead of a discount computed for another bag.
pub fn fingerprint(market: &Market, lines: &[PricedLine]) -> String {
    let mut h = blake3::Hasher::new();
    h.update(market.code.as_bytes());
    for l in lines {
        h.update(format!("\n{}:{}:{}:{}", l.item_id, l.variant_id, l.quantity, l.unit).as_bytes());
    }
    h.finalize().to_hex().to_string()
}

row! {
    struct StoredDiscounts {
        fingerprint: String,
        discounts: String,
    }
}

/// The stored evaluation of a cart, when it was made for the bag as it is now.
async fn stored_discounts(
    conn: &mut sqlx::AnyConnection,
    cart_id: &str,
    fingerprint: &str,
) -> ApiResult<Option<Discounts>> {
    let row: Option<StoredDiscounts> =
        sqlx::query_as("SELECT fingerprint, discounts FROM cart_promotion WHERE cart_id = $1")
            .bind(cart_id)
            .fetch_optional(&mut *conn)
            .await?;
    match row {
        Some(row) if row.fingerprint == fingerprint => serde_json::from_str(&row.discounts)
            .map(Some)
            .map_err(|e| ApiError::Internal(anyhow::anyhow!("cart_promotion {cart_id}: {e}"))),
        _ => Ok(None),
    }
}

/// Keeps an evaluation of the cart's bag with the fingerprint of the bag it was made for,
/// replacing the previous one.
pub async fn save_discounts(
    tx: &mut Tx,
    cart_id: &str,
    fingerprint: &str,
    discounts: &Discounts,
    now: i64,
) -> ApiResult<()> {
    let json = serde_json::to_string(discounts).map_err(anyhow::Error::from)?;
    // Delete-then-insert: the one upsert both databases spell the same way.
    forget_discounts(tx, cart_id).await?;
    sqlx::query(
        "INSERT INTO cart_promotion (cart_id, fingerprint, discounts, synced_at) VALUES ($1, $2, $3, $4)",
    )
    .bind(cart_id)
    .bind(fingerprint)
    .bind(json)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Forgets a cart's evaluation (the cart is going).
pub async fn forget_discounts(tx: &mut Tx, cart_id: &str) -> ApiResult<()> {
    sqlx::query("DELETE FROM cart_promotion WHERE cart_id = $1")
        .bind(cart_id)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Forgets the evaluations of the carts `carts` selects: a `SELECT` of cart ids binding `$1` to
/// `before` (the janitor's `cart::STALE_GUEST_CARTS`).
pub async fn forget_discounts_of(tx: &mut Tx, carts: &'static str, before: i64) -> ApiResult<()> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "DELETE FROM cart_promotion WHERE cart_id IN ({carts})"
    )))
    .bind(before)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

// ---- the bag -------------------------------------------------------------------------------

/// The bag as it will be charged: its priced lines and the promotions engine's last evaluation,
/// when it was made for exactly these lines. The cart view, the checkouts and the order all read
/// it, so the amount a payment takes is the SUBTOTAL the bag shows.
pub struct PricedBag {
    pub lines: Vec<(PricedLine, Vec<LineOption>)>,
    pub discounts: Discounts,
}

impl PricedBag {
    /// What the lines cost at their current (sale) prices.
    pub fn special(&self) -> i64 {
        self.lines.iter().map(|(l, _)| l.total()).sum()
    }

    /// What the lines cost at their list prices.
    pub fn list_total(&self) -> i64 {
        self.lines.iter().map(|(l, _)| l.list_total()).sum()
    }

    /// What the shopper pays for the goods: `special` less the promotions (the view's
    /// `cart_amount`). `Discounts::granted` caps every discount, so this stays >= 0.
    pub fn amount(&self) -> i64 {
        self.special() - self.discounts.total()
    }

    /// Everything off the list prices: sale prices and promotions.
    pub fn off_list(&self) -> i64 {
        self.list_total() - self.amount()
    }

    /// The goods and `shipping`: what the payment takes.
    pub fn total_with(&self, shipping: i64) -> i64 {
        self.amount() + shipping
    }

    /// The variant of each line, in bag order.
    pub fn variant_ids(&self) -> Vec<u64> {
        self.lines.iter().map(|(l, _)| l.variant_id).collect()
    }
}

/// The cart's bag as it will be charged now.
pub async fn priced_bag(
    conn: &mut sqlx::AnyConnection,
    state: &AppState,
    market: &Market,
    cart_id: &str,
) -> ApiResult<PricedBag> {
    let lines = priced_lines(conn, state, market, cart_id).await?;
    let discounts = if state.promotions().is_some() && !lines.is_empty() {
        let priced: Vec<PricedLine> = lines.iter().map(|(p, _)| p.clone()).collect();
        stored_discounts(conn, cart_id, &fingerprint(market, &priced))
            .await?
            .unwrap_or_default()
    } else {
        Discounts::default()
    };
    Ok(PricedBag { lines, discounts })
}
