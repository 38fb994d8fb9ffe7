//! The cart as the front end sees it: line items split by kind, priced from the store in the
//! market's currency, with live stock badges; and loading a cart the shopper may use.

use crate::catalog::find_variant;
use crate::error::{ApiError, ApiResult};
use crate::session::Shopper;
use crate::state::AppState;
use crate::stock::Availability;
use crate::store::Db;
use domain::catalog::{OptionKind, Product, Variant};
use domain::market::Market;
use domain::money::Money;
use domain::url::product_path;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use utoipa::ToSchema;

// ---- responses -----------------------------------------------------------------------------

#[derive(Serialize, ToSchema)]
pub struct CartView {
    /// Null while the cart is new and empty (the spec's empty cart).
    pub id: Option<String>,
    pub customer_id: Option<String>,
    pub market: String,
    pub currency: CurrencyCode,
    /// What the shopper pays: the special (sale) subtotal less the promotions engine's discounts.
    pub cart_amount: f64,
    /// The subtotal before discounts (list prices).
    pub base_amount: f64,
    /// Everything off the list prices: sale prices and promotions.
    pub discount_amount: f64,
    /// The promotions engine's part of `discount_amount` (line and cart discounts).
    pub promotion_discount_amount: f64,
    /// The part of the promotions a coupon triggered.
    pub coupon_amount: f64,
    /// The engine granted free shipping on this bag.
    pub free_shipping: bool,
    /// Whether the bag should sync with the promotions engine when it opens
    /// (`POST /cart/promotions`); false when the feature flag is off.
    pub promotions_enabled: bool,
    /// The wallet express button's settings when express checkout is configured (docs/api.md
    /// "Express checkout"); null hides the button.
    pub express_checkout: Option<ExpressButton>,
    pub coupons: Vec<serde_json::Value>,
    pub line_items: LineItems,
    /// Quantities of physical and digital items.
    pub total_item_count: i64,
}

/// What the bag needs to draw the express button before any call: the wallet sheet must open in
/// the click itself.
#[derive(Serialize, ToSchema)]
pub struct ExpressButton {
    /// The retailer's name (the catalog's store name), the sheet's merchant label.
    pub merchant_label: String,
    /// The merchant's country (§7: GB in every market).
    pub country_code: &'static str,
}

#[derive(Serialize, ToSchema)]
pub struct CurrencyCode {
    pub code: String,
}

#[derive(Serialize, ToSchema, Default)]
pub struct LineItems {
    pub physical_items: Vec<LineItem>,
    pub digital_items: Vec<LineItem>,
    #[schema(value_type = Vec<Object>)]
    pub custom_items: Vec<serde_json::Value>,
    #[schema(value_type = Vec<Object>)]
    pub gift_certificates: Vec<serde_json::Value>,
}

#[derive(Serialize, ToSchema)]
pub struct LineItem {
    pub id: String,
    pub product_id: u64,
    pub variant_id: u64,
    pub parent_id: Option<String>,
    pub sku: String,
    pub name: String,
    pub quantity: i64,
    pub url: String,
    pub image_url: Option<String>,
    pub is_gift_card: bool,
    pub list_price: f64,
    pub sale_price: f64,
    pub extended_list_price: f64,
    pub extended_sale_price: f64,
    pub original_price: f64,
    pub discount_amount: f64,
    pub coupon_amount: f64,
    pub options: Vec<LineOption>,
    /// Live stock of the variant in this market (null when not tracked).
    pub available_to_sell: Option<i64>,
    pub low_stock: bool,
    pub sold_out: bool,
}

#[derive(Serialize, Deserialize, ToSchema, Clone)]
#[allow(non_snake_case)]
pub struct LineOption {
    pub name: String,
    pub nameId: u64,
    pub value: String,
    pub valueId: Option<u64>,
}

pub(super) fn decimal(minor: i64) -> f64 {
    minor as f64 / 100.0
}

// ---- loading and rendering -----------------------------------------------------------------

/// A cart row the shopper may use: same market and either a guest cart or their own.
pub struct CartRow {
    pub id: String,
    pub customer_id: Option<String>,
}

/// Loads the cookie's cart inside `conn`; foreign, other-market and missing carts are all `None`
/// so that nobody can learn whether someone else's cart id exists.
pub async fn load_cart(
    conn: &mut sqlx::AnyConnection,
    db: &Db,
    shopper: &Shopper,
    cart_id: &str,
    lock: bool,
) -> ApiResult<Option<CartRow>> {
    let sql = format!(
        "SELECT id, market, customer_id FROM cart WHERE id = $1{}",
        if lock { db.for_update() } else { "" }
    );
    let row: Option<(String, String, Option<String>)> = sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(cart_id)
        .fetch_optional(&mut *conn)
        .await?;
    Ok(row.and_then(|(id, market, owner)| {
        let mine = owner.is_none() || owner == shopper.customer_id;
        (market == shopper.market.code && mine).then_some(CartRow {
            id,
            customer_id: owner,
        })
    }))
}

pub(super) struct StoredLine {
    pub(super) id: String,
    pub(super) product_id: u64,
    pub(super) variant_id: u64,
    pub(super) quantity: i64,
    pub(super) options: Vec<LineOption>,
}

pub(super) async fn stored_lines(
    conn: &mut sqlx::AnyConnection,
    cart_id: &str,
) -> ApiResult<Vec<StoredLine>> {
    let rows: Vec<(String, i64, i64, i64, String)> = sqlx::query_as(
        "SELECT id, product_id, variant_id, quantity, options FROM cart_item \
         WHERE cart_id = $1 ORDER BY position",
    )
    .bind(cart_id)
    .fetch_all(&mut *conn)
    .await?;
    rows.into_iter()
        .map(|(id, p, v, quantity, options)| {
            let options = serde_json::from_str(&options)
                .map_err(|e| ApiError::Internal(anyhow::anyhow!("cart_item {id} options: {e}")))?;
            Ok(StoredLine {
                id,
                product_id: p as u64,
                variant_id: v as u64,
                quantity,
                options,
            })
        })
        .collect()
}

/// List and sale price of variants in `market`, from the store.
pub(super) async fn prices(
    conn: &mut sqlx::AnyConnection,
    market: &Market,
    variant_ids: &[u64],
) -> ApiResult<HashMap<u64, (String, i64, Option<i64>)>> {
    if variant_ids.is_empty() {
        return Ok(HashMap::new());
    }
    let placeholders: Vec<String> = (1..=variant_ids.len()).map(|i| format!("${i}")).collect();
    // The column names come from the fixed market list, never from the request.
    let sql = format!(
        "SELECT variant_id, sku, price_{m}, sale_{m} FROM catalog_variant WHERE variant_id IN ({})",
        placeholders.join(","),
        m = market.code
    );
    let mut q = sqlx::query_as::<_, (i64, String, i64, Option<i64>)>(sqlx::AssertSqlSafe(sql));
    for id in variant_ids {
        q = q.bind(*id as i64);
    }
    Ok(q.fetch_all(&mut *conn)
        .await?
        .into_iter()
        .map(|(id, sku, price, sale)| (id as u64, (sku, price, sale)))
        .collect())
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

/// The cart's lines in bag order, priced from the store's catalog rows in `market`.
pub async fn priced_lines(
    conn: &mut sqlx::AnyConnection,
    state: &AppState,
    market: &Market,
    cart: &CartRow,
) -> ApiResult<Vec<(PricedLine, Vec<LineOption>)>> {
    let lines = stored_lines(conn, &cart.id).await?;
    let ids: Vec<u64> = lines.iter().map(|l| l.variant_id).collect();
    let prices = prices(conn, market, &ids).await?;
    let catalog = state.catalog();
    Ok(lines
        .into_iter()
        .filter_map(|line| {
            let (product, _) = find_variant(&catalog, line.product_id, line.variant_id)?;
            let (sku, list, sale) = prices.get(&line.variant_id)?;
            let priced = PricedLine {
                item_id: line.id,
                product_id: line.product_id,
                variant_id: line.variant_id,
                sku: sku.clone(),
                name: product.name.clone(),
                quantity: line.quantity,
                list: *list,
                unit: sale.unwrap_or(*list),
            };
            Some((priced, line.options))
        })
        .collect())
}

/// The bag as it will be charged: its priced lines and the promotions engine's last evaluation,
/// when it was made for exactly these lines. The cart view and the checkout both read it, so the
/// amount a wallet charges is the SUBTOTAL the bag shows.
pub struct PricedBag {
    pub lines: Vec<(PricedLine, Vec<LineOption>)>,
    pub discounts: crate::promotions::Discounts,
}

impl PricedBag {
    /// What the lines cost at their current (sale) prices, minor units.
    pub fn special(&self) -> i64 {
        self.lines.iter().map(|(l, _)| l.unit * l.quantity).sum()
    }

    /// What the shopper pays for the goods: `special` less the promotions (the view's
    /// `cart_amount`). `apply_effects` caps every discount, so this stays >= 0.
    pub fn amount(&self) -> i64 {
        self.special() - self.discounts.total()
    }
}

pub async fn priced_bag(
    conn: &mut sqlx::AnyConnection,
    state: &AppState,
    market: &Market,
    cart: &CartRow,
) -> ApiResult<PricedBag> {
    let lines = priced_lines(conn, state, market, cart).await?;
    let priced: Vec<PricedLine> = lines.iter().map(|(p, _)| p.clone()).collect();
    let discounts = if state.promotions().is_some() && !priced.is_empty() {
        let fingerprint = crate::promotions::fingerprint(market, &priced);
        crate::promotions::stored_discounts(conn, &cart.id, &fingerprint)
            .await?
            .unwrap_or_default()
    } else {
        crate::promotions::Discounts::default()
    };
    Ok(PricedBag { lines, discounts })
}

/// The cart as the front end sees it, priced and stock-checked now, with the promotions engine's
/// last evaluation applied when it was made for exactly this bag.
pub async fn render(
    conn: &mut sqlx::AnyConnection,
    state: &AppState,
    market: &Market,
    cart: &CartRow,
) -> ApiResult<CartView> {
    let PricedBag { lines, discounts } = priced_bag(conn, state, market, cart).await?;
    // Display only: the snapshot of the store's stock is enough here, and saves a query. The
    // decisions (add, update, merge) read the store inside their transactions.
    let deduct = state.config().deduct_location_2_outside_uk;
    let snapshot = state.stock_snapshot();
    let catalog = state.catalog();
    let mut items = LineItems::default();
    let (mut base, mut special, mut count) = (0i64, 0i64, 0i64);
    for (line, options) in lines {
        let Some((product, variant)) = find_variant(&catalog, line.product_id, line.variant_id)
        else {
            continue;
        };
        let off = discounts
            .lines
            .get(&line.item_id)
            .copied()
            .unwrap_or_default();
        base += line.list * line.quantity;
        special += line.unit * line.quantity;
        count += line.quantity;
        let a = snapshot
            .get(&line.variant_id)
            .map(|row| row.in_market(market, deduct))
            .unwrap_or(Availability {
                tracked: true,
                recorded: false,
                available: 0,
            });
        let live = crate::stock::VariantStock::new(line.variant_id, &a);
        let item = LineItem {
            id: line.item_id,
            product_id: product.id,
            variant_id: variant.id,
            parent_id: None,
            sku: line.sku,
            name: line.name,
            quantity: line.quantity,
            url: market.path(&line_url(product, variant)),
            image_url: variant.image_url.clone(),
            is_gift_card: product.is_gift_card,
            list_price: decimal(line.list),
            sale_price: decimal(line.unit),
            extended_list_price: decimal(line.list * line.quantity),
            extended_sale_price: decimal(line.unit * line.quantity),
            original_price: decimal(line.list),
            discount_amount: decimal(off.discount),
            coupon_amount: decimal(off.coupon),
            options: [variant_options(product, variant), options].concat(),
            available_to_sell: live.available_to_sell,
            low_stock: live.low_stock,
            sold_out: live.sold_out,
        };
        // Gift cards are delivered by email: digital. Everything else ships.
        if product.is_gift_card {
            items.digital_items.push(item);
        } else {
            items.physical_items.push(item);
        }
    }
    let empty = items.physical_items.is_empty() && items.digital_items.is_empty();
    let currency = Money::new(0, market.currency).currency;
    // `apply_effects` caps every discount at what is left to pay, so this stays >= 0.
    let cart_amount = special - discounts.total();
    Ok(CartView {
        id: (!empty).then(|| cart.id.clone()),
        customer_id: cart.customer_id.clone(),
        market: market.code.to_string(),
        currency: CurrencyCode {
            code: currency.code().to_string(),
        },
        cart_amount: decimal(cart_amount),
        base_amount: decimal(base),
        discount_amount: decimal(base - cart_amount),
        promotion_discount_amount: decimal(discounts.total()),
        coupon_amount: decimal(
            discounts.cart_coupon + discounts.lines.values().map(|l| l.coupon).sum::<i64>(),
        ),
        free_shipping: discounts.free_shipping,
        promotions_enabled: state.promotions().is_some(),
        express_checkout: state.payments().is_some().then(|| ExpressButton {
            merchant_label: state.catalog().store.name.clone(),
            country_code: crate::checkout::config::MERCHANT_COUNTRY,
        }),
        coupons: Vec::new(),
        line_items: items,
        total_item_count: count,
    })
}

/// Renders outside the write transaction, so the writer slot is held only for the decision and
/// the writes. Another write between commit and render can only make the answer newer.
pub async fn render_after_commit(
    state: &AppState,
    market: &Market,
    cart: &CartRow,
) -> ApiResult<CartView> {
    let mut conn = state.db().pool().acquire().await?;
    render(&mut conn, state, market, cart).await
}

pub(super) fn line_url(product: &Product, variant: &Variant) -> String {
    let colourway = product
        .colourways
        .iter()
        .find(|c| c.variant_ids.contains(&variant.id))
        .or(product.colourways.first());
    product_path(
        product.id,
        &product.slug,
        colourway.map_or("", |c| c.segment.as_str()),
    )
}

/// Color / Size / Length (Design on gift cards) of a variant, in the bag's display order.
pub fn variant_options(product: &Product, variant: &Variant) -> Vec<LineOption> {
    [
        (OptionKind::Colour, variant.colour),
        (OptionKind::Size, variant.size),
        (OptionKind::Length, variant.length),
    ]
    .into_iter()
    .filter_map(|(kind, value)| {
        let option = product.option(kind)?;
        let value = option.values.iter().find(|v| Some(v.id) == value)?;
        Some(LineOption {
            name: option.display_name.clone(),
            nameId: option.id,
            value: value.label.clone(),
            valueId: Some(value.id),
        })
    })
    .collect()
}
