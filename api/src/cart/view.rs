//! The cart as the front end sees it: the priced bag's lines split by kind, in the market's
//! currency, with live stock badges; and loading a cart the shopper may use.

use crate::bag::{LineOption, PricedBag, decimal, priced_bag};
use crate::catalog::find_variant;
use crate::error::ApiResult;
use crate::session::Shopper;
use crate::state::AppState;
use crate::stock_rows::{StockSnapshot, stock_rows};
use crate::store::Db;
use domain::catalog::{Catalog, Colourway, OptionKind, Product, Variant};
use domain::market::Market;
use domain::money::Money;
use domain::url::product_path;
use serde::Serialize;
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

/// The express button's country is GB in every market (the merchant's country).
pub const MERCHANT_COUNTRY: &str = "GB";

/// What the bag needs to draw the express button before any call: the wallet sheet must open in
/// the click itself.
#[derive(Serialize, ToSchema)]
pub struct ExpressButton {
    /// The retailer's name (the catalog's store name), the sheet's merchant label.
    pub merchant_label: String,
    /// The merchant's country: GB in every market.
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

// ---- loading and rendering -----------------------------------------------------------------

/// A cart row the shopper may use: same market and either a guest cart or their own. `id` is
/// public (answers, order paths); `key` is the secret only the cart cookie holds.
pub struct CartRow {
    pub id: String,
    pub key: String,
    pub customer_id: Option<String>,
}

/// Loads the cart whose cookie key is `cart_key` inside `conn` (never by its public id); foreign,
/// other-market and missing carts are all `None` so that nobody can learn whether a key exists.
pub async fn load_cart(
    conn: &mut sqlx::AnyConnection,
    db: &Db,
    shopper: &Shopper,
    cart_key: &str,
    lock: bool,
) -> ApiResult<Option<CartRow>> {
    let sql = format!(
        "SELECT id, market, customer_id FROM cart WHERE cookie_key = $1{}",
        if lock { db.for_update() } else { "" }
    );
    let row: Option<(String, String, Option<String>)> = sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(cart_key)
        .fetch_optional(&mut *conn)
        .await?;
    Ok(row.and_then(|(id, market, owner)| {
        let mine = owner.is_none() || owner == shopper.customer_id;
        (market == shopper.market.code && mine).then_some(CartRow {
            id,
            key: cart_key.to_string(),
            customer_id: owner,
        })
    }))
}

/// The cart as the front end sees it, priced and stock-checked now, with the promotions engine's
/// last evaluation applied when it was made for exactly this bag.
pub async fn render(
    conn: &mut sqlx::AnyConnection,
    state: &AppState,
    market: &Market,
    cart: &CartRow,
) -> ApiResult<CartView> {
    let bag = priced_bag(conn, state, market, &cart.id).await?;
    // The bag's stock from the store, not the in-memory snapshot: a line the shop can no longer
    // fill in full (stock changed by another instance's order or by the warehouse) must say so
    // here, before checkout, and its quantity field cannot offer more than is left.
    let stock = stock_rows(conn, Some(&bag.variant_ids())).await?;
    Ok(render_bag(state, market, cart, &bag, &stock))
}

/// The cart view of a bag already priced (the checkout shows its lines from the bag it charges),
/// with each line's stock from `stock`.
pub fn render_bag(
    state: &AppState,
    market: &Market,
    cart: &CartRow,
    bag: &PricedBag,
    stock: &StockSnapshot,
) -> CartView {
    let deduct = state.config().deduct_location_2_outside_uk;
    let catalog = state.catalog();
    let mut items = LineItems::default();
    let mut count = 0i64;
    for (line, options) in &bag.lines {
        let Some((product, variant)) = find_variant(&catalog, line.product_id, line.variant_id)
        else {
            continue;
        };
        let off = bag.discounts.line(&line.item_id);
        count += line.quantity;
        let live = crate::stock::shown(stock, market, deduct, line.variant_id);
        let item = LineItem {
            id: line.item_id.clone(),
            product_id: product.id,
            variant_id: variant.id,
            parent_id: None,
            sku: line.sku.clone(),
            name: line.name.clone(),
            quantity: line.quantity,
            url: market.path(&line_url(product, variant)),
            image_url: Some(line_image(&catalog, product, variant)),
            is_gift_card: product.is_gift_card,
            list_price: decimal(line.list),
            sale_price: decimal(line.unit),
            extended_list_price: decimal(line.list_total()),
            extended_sale_price: decimal(line.total()),
            original_price: decimal(line.list),
            discount_amount: decimal(off.discount),
            coupon_amount: decimal(off.coupon),
            options: line_options(product, variant, options),
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
    CartView {
        id: (!empty).then(|| cart.id.clone()),
        customer_id: cart.customer_id.clone(),
        market: market.code.to_string(),
        currency: CurrencyCode {
            code: currency.code().to_string(),
        },
        cart_amount: decimal(bag.amount()),
        base_amount: decimal(bag.list_total()),
        discount_amount: decimal(bag.off_list()),
        promotion_discount_amount: decimal(bag.discounts.total()),
        coupon_amount: decimal(bag.discounts.coupons()),
        free_shipping: bag.discounts.free_shipping,
        promotions_enabled: state.promotions().is_some(),
        express_checkout: state.payments().is_some().then(|| ExpressButton {
            merchant_label: catalog.store.name.clone(),
            country_code: MERCHANT_COUNTRY,
        }),
        coupons: Vec::new(),
        line_items: items,
        total_item_count: count,
    }
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

/// The colourway a variant belongs to (the product's first when the export leaves it out).
fn colourway_of<'a>(product: &'a Product, variant: &Variant) -> Option<&'a Colourway> {
    product
        .colourways
        .iter()
        .find(|c| c.variant_ids.contains(&variant.id))
        .or(product.colourways.first())
}

pub(super) fn line_url(product: &Product, variant: &Variant) -> String {
    product_path(
        product.id,
        &product.slug,
        colourway_of(product, variant).map_or("", |c| c.segment.as_str()),
    )
}

/// The picture a bag line, wishlist item or checkout line shows: the variant's own image when the
/// export gives one, else its colourway's first picture (the one the product card and the product
/// page open with), else the store's fallback image, as the static pages do.
pub(super) fn line_image(catalog: &Catalog, product: &Product, variant: &Variant) -> String {
    variant
        .image_url
        .clone()
        .or_else(|| {
            colourway_of(product, variant)?
                .media
                .iter()
                .find(|m| !m.video)
                .map(|m| m.src.clone())
        })
        .unwrap_or_else(|| catalog.store.fallback_image.clone())
}

/// A line's options as the bag shows them: the variant's, then the shopper's modifiers.
pub fn line_options(
    product: &Product,
    variant: &Variant,
    modifiers: &[LineOption],
) -> Vec<LineOption> {
    [variant_options(product, variant), modifiers.to_vec()].concat()
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
