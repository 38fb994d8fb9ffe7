//! The standard checkout of the bag (docs/checkout.md): create or resume the cart's checkout, the
//! guest's email, the delivery address with its shipping options, the billing address, the
//! payment methods the provider offers, Place order (with an `Idempotency-Key`) and the result a
//! payment redirect brings back. Every amount is computed here from the bag; the browser sends
//! ids, addresses and a payment token, never an amount.

use super::payment::{self, OrderPayment, PaymentRequest, Settled};
use super::{express_copy, orders, shipping};
use crate::account::address::{
    AddressInput, COUNTRIES, find_address, insert_address, postal_code_label, validate_address,
};
use crate::bag::{LineOption, decimal, priced_bag};
use crate::cart::{CartRow, load_cart};
use crate::error::{ApiError, ApiResult, copy};
use crate::json::StrictJson;
use crate::session::{CookieJar, Shopper, is_token};
use crate::state::AppState;
use crate::stock::VariantStock;
use crate::store::{Tx, random_id};
use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use domain::market::Market;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// The Place order header: the same key is the same order.
pub const IDEMPOTENCY_KEY: &str = "idempotency-key";
/// Spec copy: §4 stock states, §5 email rule.
pub const LOW_STOCK: &str = "There are less than 5 of these left";
pub const INVALID_EMAIL: &str = "Please enter a valid email address";
pub const PROVIDER_UNAVAILABLE: &str =
    "We could not confirm your payment with the payment service. Please try again in a moment.";
pub const PAYMENT_IN_PROGRESS: &str =
    "Your payment is still being confirmed. Please wait a moment and try again.";

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(start))
        .routes(routes!(get_checkout))
        .routes(routes!(set_email))
        .routes(routes!(set_consignment))
        .routes(routes!(set_shipping_option))
        .routes(routes!(set_billing))
        .routes(routes!(payment_methods))
        .routes(routes!(place_order))
        .routes(routes!(payment_details))
        .routes(routes!(account_from_order))
}

// ---- bodies --------------------------------------------------------------------------------

#[derive(Deserialize, ToSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct StartCheckout {}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SetEmail {
    #[serde(default)]
    pub email: String,
}

/// A typed address, or a saved one by id (signed in).
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SetConsignment {
    #[serde(default)]
    pub address: Option<AddressInput>,
    #[serde(default)]
    pub address_id: Option<String>,
    /// Signed in: also keep the typed address in the address book.
    #[serde(default)]
    pub save_address: bool,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SetShippingOption {
    #[serde(default)]
    pub shipping_option_id: String,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SetBilling {
    #[serde(default)]
    pub same_as_delivery: bool,
    #[serde(default)]
    pub address: Option<AddressInput>,
    #[serde(default)]
    pub address_id: Option<String>,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PaymentChoice {
    /// `scheme` (card), `giftcard`, `paypal`, `klarna`, `applepay` or `googlepay`.
    #[serde(default)]
    pub method: String,
    /// The provider's token for the card, gift card or wallet payment (made in the browser).
    #[serde(default)]
    pub token: Option<String>,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlaceOrder {
    pub payment: PaymentChoice,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PaymentDetails {
    pub order_id: String,
    /// What the provider appended to the return URL, if anything; the API asks the provider
    /// itself, so it is not needed.
    #[serde(default)]
    pub redirect_result: Option<String>,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct OrderAccount {
    #[serde(default)]
    pub title: String,
    #[serde(default)]
    pub password: String,
    #[serde(default)]
    pub first_name: Option<String>,
    #[serde(default)]
    pub last_name: Option<String>,
    #[serde(default, rename = "preferenceEmail")]
    pub preference_email: bool,
}

// ---- the view ------------------------------------------------------------------------------

#[derive(Serialize, ToSchema)]
pub struct CheckoutLine {
    pub id: String,
    pub product_id: u64,
    pub variant_id: u64,
    pub sku: String,
    pub name: String,
    pub url: String,
    pub image_url: Option<String>,
    pub is_gift_card: bool,
    pub quantity: i64,
    pub list_price: f64,
    pub sale_price: f64,
    pub extended_sale_price: f64,
    pub discount_amount: f64,
    pub options: Vec<LineOption>,
    pub available_to_sell: Option<i64>,
    /// `ok`, `low_stock`, `quantity_reduced` or `sold_out`.
    pub stock_state: &'static str,
    /// When the line was reduced to what is left: what the bag held.
    pub previous_quantity: Option<i64>,
}

#[derive(Serialize, ToSchema)]
pub struct ShippingOptionView {
    pub id: String,
    pub label: String,
    pub detail: String,
    /// Decimal major units.
    pub amount: f64,
}

#[derive(Serialize, ToSchema)]
pub struct ConsignmentView {
    pub id: String,
    pub address: AddressInput,
    pub shipping_options: Vec<ShippingOptionView>,
    pub shipping_option_id: Option<String>,
}

#[derive(Serialize, Deserialize, ToSchema, Clone)]
pub struct BillingView {
    pub same_as_delivery: bool,
    pub address: Option<AddressInput>,
}

#[derive(Serialize, ToSchema)]
pub struct TotalsView {
    pub subtotal: f64,
    pub discount: f64,
    /// Null until a shipping option is chosen.
    pub shipping: Option<f64>,
    pub total: f64,
}

#[derive(Serialize, ToSchema)]
pub struct CountryView {
    pub code: &'static str,
    pub name: &'static str,
    pub states: Vec<&'static str>,
    pub postal_code_label: &'static str,
}

#[derive(Serialize, ToSchema)]
pub struct CheckoutView {
    pub id: String,
    pub market: String,
    pub currency: String,
    pub signed_in: bool,
    pub email: Option<String>,
    pub lines: Vec<CheckoutLine>,
    pub consignment: Option<ConsignmentView>,
    pub billing: Option<BillingView>,
    pub totals: TotalsView,
    pub countries: Vec<CountryView>,
    /// `identity`, `delivery`, `billing` or `payment`: the first step not yet done.
    pub next_step: &'static str,
    /// False while a line is sold out (it must be removed from the bag first) or the bag is empty.
    pub can_continue: bool,
    /// An order of this checkout still waiting for the shopper (3-D Secure, PayPal, Klarna).
    pub pending_order_id: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct PaymentMethodsView {
    pub methods: Vec<crate::payments::MethodInfo>,
    /// What Place order will charge, decimal major units.
    pub amount: f64,
    pub currency: String,
    /// Where the browser sends card and gift card details for a token (never /api).
    pub tokenize_url: String,
}

#[derive(Serialize, ToSchema)]
pub struct RedirectAction {
    /// Always `redirect`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub url: String,
}

/// Place order's answer: Confirmed (201) with the confirmation path, or Pending (202) with where
/// the shopper must go first.
#[derive(Serialize, ToSchema)]
pub struct PlacedOrder {
    /// `Confirmed` or `Pending`.
    pub status: &'static str,
    pub order_id: String,
    pub order_number: String,
    pub checkout_id: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub confirmation_path: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action: Option<RedirectAction>,
}

/// Where this market's checkout delivers: the UK store to the UK, Jersey and Guernsey (§5), the
/// US store in the US, the EU store to the European countries of the address book.
pub fn countries(market: &Market) -> Vec<CountryView> {
    let codes: &[&str] = match market.code {
        "uk" => shipping::UK_DESTINATIONS,
        "us" => &["US"],
        _ => &["AT", "DE", "IE", "NL"],
    };
    codes
        .iter()
        .filter_map(|code| COUNTRIES.iter().find(|(c, _, _)| c == code))
        .map(|(code, name, states)| CountryView {
            code,
            name,
            states: states.to_vec(),
            postal_code_label: postal_code_label(code),
        })
        .collect()
}

// ---- the stored checkout -------------------------------------------------------------------

#[derive(sqlx::FromRow)]
struct CheckoutRow {
    id: String,
    email: Option<String>,
    consignment_id: Option<String>,
    shipping_address: Option<String>,
    shipping_option_id: Option<String>,
    billing: Option<String>,
}

const CHECKOUT_COLUMNS: &str = "id, email, consignment_id, shipping_address, \
    shipping_option_id, billing";

/// A checkout opened for the shopper whose cart it belongs to.
struct Opened {
    row: CheckoutRow,
    cart: CartRow,
}

impl Opened {
    fn address(&self) -> ApiResult<Option<AddressInput>> {
        parse_json(&self.row.shipping_address, "shipping_address")
    }

    fn billing(&self) -> ApiResult<Option<BillingView>> {
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

fn cart_id(shopper: &Shopper) -> ApiResult<String> {
    shopper
        .cart_cookie()?
        .ok_or_else(|| ApiError::no_cart(copy::NO_CART))
}

fn not_this_shoppers() -> ApiError {
    ApiError::not_found().with_field("checkout_id", "is not a checkout of your bag")
}

/// Loads checkout `id` (locked when `lock`): it must belong to the cart in the shopper's cookie,
/// in this market, and not be ordered yet; otherwise 404 naming `checkout_id`.
async fn open(
    conn: &mut sqlx::AnyConnection,
    state: &AppState,
    shopper: &Shopper,
    id: &str,
    lock: bool,
) -> ApiResult<Opened> {
    if !is_token(id) {
        return Err(not_this_shoppers());
    }
    let cart_id = cart_id(shopper)?;
    let cart = load_cart(conn, state.db(), shopper, &cart_id, lock)
        .await?
        .ok_or_else(|| ApiError::no_cart(copy::NO_CART))?;
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

async fn touch(tx: &mut Tx, id: &str, now: i64) -> ApiResult<()> {
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
    order: &OrderPayment,
    now: i64,
) -> ApiResult<()> {
    let cart: Option<String> =
        sqlx::query_scalar("SELECT cart_id FROM checkout WHERE id = $1 AND state <> 'ordered'")
            .bind(&order.checkout_id)
            .fetch_optional(&mut **tx)
            .await?;
    sqlx::query("UPDATE checkout SET state = 'ordered', updated_at = $1 WHERE id = $2")
        .bind(now)
        .bind(&order.checkout_id)
        .execute(&mut **tx)
        .await?;
    if let Some(cart) = cart {
        crate::cart::delete(tx, &cart).await?;
    }
    orders::queue_confirmation_mail(tx, state, &order.id, now).await
}

/// The janitor's part: deletes the unfinished checkouts of guest carts untouched since
/// `stale_carts` (the carts go too; orders keep their own copy of what was bought).
pub async fn purge_abandoned(tx: &mut Tx, stale_carts: i64) -> ApiResult<u64> {
    Ok(sqlx::query(sqlx::AssertSqlSafe(format!(
        "DELETE FROM checkout WHERE state <> 'ordered' AND cart_id IN ({})",
        crate::cart::STALE_GUEST_CARTS
    )))
    .bind(stale_carts)
    .execute(&mut **tx)
    .await?
    .rows_affected())
}

// ---- building the view ---------------------------------------------------------------------

fn stock_state(live: &VariantStock, previous: Option<i64>) -> &'static str {
    if live.sold_out {
        "sold_out"
    } else if previous.is_some() {
        "quantity_reduced"
    } else if live.low_stock {
        "low_stock"
    } else {
        "ok"
    }
}

async fn view(
    conn: &mut sqlx::AnyConnection,
    state: &AppState,
    shopper: &Shopper,
    opened: &Opened,
    reduced: &HashMap<String, i64>,
) -> ApiResult<CheckoutView> {
    let market = &shopper.market;
    let bag = priced_bag(conn, state, market, &opened.cart.id).await?;
    let cart = crate::cart::render_bag(state, market, &opened.cart, &bag);
    // The bag's display reads the stock snapshot; the checkout decides on the store's rows.
    let live = crate::stock::availability(conn, state, market, &bag.variant_ids()).await?;
    let lines: Vec<CheckoutLine> = cart
        .line_items
        .physical_items
        .into_iter()
        .chain(cart.line_items.digital_items)
        .map(|item| {
            let previous = reduced.get(&item.id).copied();
            let discount = bag.discounts.line(&item.id).shown();
            let stock = live
                .get(&item.variant_id)
                .map(|a| VariantStock::new(item.variant_id, a));
            CheckoutLine {
                stock_state: stock
                    .as_ref()
                    .map_or("sold_out", |s| stock_state(s, previous)),
                previous_quantity: previous,
                id: item.id,
                product_id: item.product_id,
                variant_id: item.variant_id,
                sku: item.sku,
                name: item.name,
                url: item.url,
                image_url: item.image_url,
                is_gift_card: item.is_gift_card,
                quantity: item.quantity,
                list_price: item.list_price,
                sale_price: item.sale_price,
                extended_sale_price: item.extended_sale_price,
                discount_amount: discount,
                options: item.options,
                available_to_sell: stock.and_then(|s| s.available_to_sell),
            }
        })
        .collect();
    let mut shipping_minor = None;
    let consignment = match (opened.address()?, &opened.row.consignment_id) {
        (Some(address), Some(consignment_id)) => {
            let options =
                shipping::options_for(conn, state, market, &address.country_code, &bag).await?;
            let chosen = opened
                .row
                .shipping_option_id
                .as_deref()
                .and_then(|id| options.iter().find(|o| o.id == id));
            shipping_minor = chosen.map(|o| o.amount_minor);
            Some(ConsignmentView {
                id: consignment_id.clone(),
                shipping_option_id: chosen.map(|o| o.id.clone()),
                shipping_options: options
                    .iter()
                    .map(|o| ShippingOptionView {
                        id: o.id.clone(),
                        label: o.label.clone(),
                        detail: o.detail.clone(),
                        amount: decimal(o.amount_minor),
                    })
                    .collect(),
                address,
            })
        }
        _ => None,
    };
    let billing = opened.billing()?;
    let email = opened.row.email.clone();
    let next_step = if email.is_none() {
        "identity"
    } else if consignment
        .as_ref()
        .is_none_or(|c| c.shipping_option_id.is_none())
    {
        "delivery"
    } else if billing.is_none() {
        "billing"
    } else {
        "payment"
    };
    let can_continue = !lines.is_empty() && lines.iter().all(|l| l.stock_state != "sold_out");
    let pending: Option<String> = sqlx::query_scalar(
        "SELECT id FROM shop_order WHERE checkout_id = $1 AND status = 'Pending' \
         AND payment_action_url IS NOT NULL ORDER BY created_at DESC LIMIT 1",
    )
    .bind(&opened.row.id)
    .fetch_optional(&mut *conn)
    .await?;
    Ok(CheckoutView {
        id: opened.row.id.clone(),
        market: market.code.to_string(),
        currency: market.currency.code().to_string(),
        signed_in: shopper.customer_id.is_some(),
        email,
        lines,
        consignment,
        billing,
        totals: TotalsView {
            subtotal: decimal(bag.special()),
            discount: decimal(bag.discounts.total()),
            shipping: shipping_minor.map(decimal),
            total: decimal(bag.total_with(shipping_minor.unwrap_or(0))),
        },
        countries: countries(market),
        next_step,
        can_continue,
        pending_order_id: pending,
    })
}

/// Answers the view after a step changed the checkout (read after the commit).
async fn answer(
    state: &AppState,
    shopper: &Shopper,
    id: &str,
    status: StatusCode,
    reduced: &HashMap<String, i64>,
) -> ApiResult<Response> {
    let mut conn = state.db().pool().acquire().await?;
    let opened = open(&mut conn, state, shopper, id, false).await?;
    let body = view(&mut conn, state, shopper, &opened, reduced).await?;
    Ok((status, Json(body)).into_response())
}

// ---- steps ---------------------------------------------------------------------------------

/// Creates or resumes the checkout of the shopper's cart. The bag is re-read: a line above what
/// is left is reduced to it (`quantity_reduced`), a sold-out line is flagged (`sold_out`). A
/// browser without the guest cookie gets one.
#[utoipa::path(post, path = "/checkout", tag = "checkout",
    params(("market" = Option<String>, Query)), request_body = StartCheckout,
    responses((status = 200, body = CheckoutView, description = "resumed"),
              (status = 201, body = CheckoutView, description = "created"),
              (status = 404, body = crate::error::ErrorBody, description = "no cart"),
              (status = 409, body = crate::error::ErrorBody, description = "empty bag")))]
async fn start(
    State(state): State<AppState>,
    shopper: Shopper,
    StrictJson(_): StrictJson<StartCheckout>,
) -> ApiResult<Response> {
    let cart_id = cart_id(&shopper)?;
    let market = &shopper.market;
    let now = state.now();
    let mut tx = state.db().write().await?;
    let cart = load_cart(&mut tx, state.db(), &shopper, &cart_id, true)
        .await?
        .ok_or_else(|| ApiError::no_cart(copy::NO_CART))?;
    let reduced = crate::cart::reduce_to_stock(&mut tx, &state, market, &cart).await?;
    if crate::cart::item_count(&mut tx, &cart.id).await? == 0 {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "cart_empty",
            express_copy::EMPTY_BAG,
        ));
    }
    let account_email = match shopper.customer_id.as_deref() {
        Some(customer) => Some(
            crate::account::load_customer(&mut tx, customer)
                .await?
                .email,
        ),
        None => None,
    };
    let existing: Option<String> = sqlx::query_scalar(
        "SELECT id FROM checkout WHERE cart_id = $1 AND market = $2 AND state <> 'ordered' \
         ORDER BY created_at DESC LIMIT 1",
    )
    .bind(&cart.id)
    .bind(market.code)
    .fetch_optional(&mut *tx)
    .await?;
    let (id, status) = match existing {
        Some(id) => {
            sqlx::query(
                "UPDATE checkout SET customer_id = $1, email = COALESCE($2, email), \
                 updated_at = $3 WHERE id = $4",
            )
            .bind(cart.customer_id.as_deref())
            .bind(account_email.as_deref())
            .bind(now)
            .bind(&id)
            .execute(&mut *tx)
            .await?;
            (id, StatusCode::OK)
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
            .bind(account_email.as_deref())
            .bind(now)
            .execute(&mut *tx)
            .await?;
            (id, StatusCode::CREATED)
        }
    };
    tx.commit().await?;
    let mut res = answer(&state, &shopper, &id, status, &reduced).await?;
    // The browser's guest cookie from the start: every order it places is its own (the
    // confirmation is shown to its owner only), whichever request of a double press wins.
    if let (_, Some(cookie)) = shopper.guest_owner() {
        res.headers_mut()
            .append(axum::http::header::SET_COOKIE, cookie);
    }
    Ok(res)
}

/// The checkout as the server holds it, the bag re-read (nothing is changed).
#[utoipa::path(get, path = "/checkout/{checkout_id}", tag = "checkout",
    params(("checkout_id" = String, Path), ("market" = Option<String>, Query)),
    responses((status = 200, body = CheckoutView), (status = 404, body = crate::error::ErrorBody)))]
async fn get_checkout(
    State(state): State<AppState>,
    shopper: Shopper,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    answer(&state, &shopper, &id, StatusCode::OK, &HashMap::new()).await
}

/// A guest's email (§5 rule). A signed-in shopper's is the account's.
#[utoipa::path(put, path = "/checkout/{checkout_id}/email", tag = "checkout",
    params(("checkout_id" = String, Path), ("market" = Option<String>, Query)),
    request_body = SetEmail,
    responses((status = 200, body = CheckoutView), (status = 400, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody), (status = 409, body = crate::error::ErrorBody)))]
async fn set_email(
    State(state): State<AppState>,
    shopper: Shopper,
    Path(id): Path<String>,
    StrictJson(body): StrictJson<SetEmail>,
) -> ApiResult<Response> {
    let email = body.email.trim();
    if !crate::fields::is_email(email) {
        return Err(ApiError::field("email", INVALID_EMAIL));
    }
    if shopper.customer_id.is_some() {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "signed_in",
            "You are signed in: the order uses your account's email.",
        )
        .with_field("email", "is your account's email"));
    }
    let mut tx = state.db().write().await?;
    let opened = open(&mut tx, &state, &shopper, &id, true).await?;
    sqlx::query("UPDATE checkout SET email = $1, updated_at = $2 WHERE id = $3")
        .bind(email)
        .bind(state.now())
        .bind(&opened.row.id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    answer(&state, &shopper, &id, StatusCode::OK, &HashMap::new()).await
}

/// Prefixes every field of an address error with `prefix.` (the body's nesting).
fn nested(e: ApiError, prefix: &str) -> ApiError {
    e.prefix_fields(prefix)
}

/// The address a step names: typed (checked as the address book checks it) or saved (by id,
/// the signed-in customer's own; another customer's is 404).
async fn chosen_address(
    conn: &mut sqlx::AnyConnection,
    shopper: &Shopper,
    address: Option<AddressInput>,
    address_id: Option<&str>,
    field: &str,
) -> ApiResult<Option<AddressInput>> {
    match (address, address_id) {
        (Some(_), Some(_)) => Err(ApiError::field(
            field,
            "give either an address or an address_id, not both",
        )),
        (Some(a), None) => validate_address(a).map(Some).map_err(|e| nested(e, field)),
        (None, Some(id)) => {
            let customer = shopper.customer()?;
            let saved = find_address(conn, customer, id)
                .await
                .map_err(|e| e.with_field("address_id", "is not one of your saved addresses"))?;
            Ok(Some(saved.fields))
        }
        (None, None) => Ok(None),
    }
}

/// The delivery address (one consignment holding the bag's lines) and the shipping options for
/// it; the previous option is kept while it is still offered.
#[utoipa::path(put, path = "/checkout/{checkout_id}/consignment", tag = "checkout",
    params(("checkout_id" = String, Path), ("market" = Option<String>, Query)),
    request_body = SetConsignment,
    responses((status = 200, body = CheckoutView), (status = 400, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody, description = "a country this store does not ship to, or no shipping option for the address")))]
async fn set_consignment(
    State(state): State<AppState>,
    shopper: Shopper,
    Path(id): Path<String>,
    StrictJson(body): StrictJson<SetConsignment>,
) -> ApiResult<Response> {
    let market = &shopper.market;
    let save = body.save_address && body.address.is_some();
    if save {
        shopper.customer()?;
    }
    let mut tx = state.db().write().await?;
    let opened = open(&mut tx, &state, &shopper, &id, true).await?;
    let address = chosen_address(
        &mut tx,
        &shopper,
        body.address,
        body.address_id.as_deref(),
        "address",
    )
    .await?
    .ok_or_else(|| ApiError::field("address", "Please enter a delivery address"))?;
    if !countries(market)
        .iter()
        .any(|c| c.code == address.country_code)
    {
        let message = if market.code == "uk" {
            express_copy::UK_ONLY
        } else {
            "We do not deliver to this country from this store"
        };
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "shipping_country_not_allowed",
            message,
        )
        .with_field("address.country_code", message));
    }
    let bag = priced_bag(&mut tx, &state, market, &opened.cart.id).await?;
    let options =
        shipping::options_for(&mut tx, &state, market, &address.country_code, &bag).await?;
    if options.is_empty() {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "address_unserviceable",
            express_copy::UNSERVICEABLE,
        )
        .with_field("address", express_copy::UNSERVICEABLE));
    }
    let kept = opened
        .row
        .shipping_option_id
        .as_deref()
        .filter(|id| options.iter().any(|o| o.id == *id));
    let stored = serde_json::to_string(&address).map_err(anyhow::Error::from)?;
    sqlx::query(
        "UPDATE checkout SET consignment_id = $1, shipping_address = $2, shipping_option_id = $3, \
         updated_at = $4 WHERE id = $5",
    )
    .bind(random_id(16))
    .bind(&stored)
    .bind(kept)
    .bind(state.now())
    .bind(&opened.row.id)
    .execute(&mut *tx)
    .await?;
    if save && let Some(customer) = shopper.customer_id.as_deref() {
        insert_address(&mut tx, customer, &address).await?;
    }
    tx.commit().await?;
    answer(&state, &shopper, &id, StatusCode::OK, &HashMap::new()).await
}

/// One of the options listed for the delivery address.
#[utoipa::path(put, path = "/checkout/{checkout_id}/shipping-option", tag = "checkout",
    params(("checkout_id" = String, Path), ("market" = Option<String>, Query)),
    request_body = SetShippingOption,
    responses((status = 200, body = CheckoutView), (status = 400, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody), (status = 409, body = crate::error::ErrorBody)))]
async fn set_shipping_option(
    State(state): State<AppState>,
    shopper: Shopper,
    Path(id): Path<String>,
    StrictJson(body): StrictJson<SetShippingOption>,
) -> ApiResult<Response> {
    let market = &shopper.market;
    let mut tx = state.db().write().await?;
    let opened = open(&mut tx, &state, &shopper, &id, true).await?;
    let Some(address) = opened.address()? else {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "no_consignment",
            "Enter a delivery address first",
        )
        .with_field("consignment", "Enter a delivery address first"));
    };
    let bag = priced_bag(&mut tx, &state, market, &opened.cart.id).await?;
    let options =
        shipping::options_for(&mut tx, &state, market, &address.country_code, &bag).await?;
    if !options.iter().any(|o| o.id == body.shipping_option_id) {
        return Err(ApiError::field(
            "shipping_option_id",
            "is not a shipping option for this address",
        ));
    }
    sqlx::query("UPDATE checkout SET shipping_option_id = $1, updated_at = $2 WHERE id = $3")
        .bind(&body.shipping_option_id)
        .bind(state.now())
        .bind(&opened.row.id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    answer(&state, &shopper, &id, StatusCode::OK, &HashMap::new()).await
}

/// The billing address: the delivery address again, or another one. Without one: 'Billing
/// address is required'.
#[utoipa::path(put, path = "/checkout/{checkout_id}/billing-address", tag = "checkout",
    params(("checkout_id" = String, Path), ("market" = Option<String>, Query)),
    request_body = SetBilling,
    responses((status = 200, body = CheckoutView), (status = 400, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody), (status = 409, body = crate::error::ErrorBody)))]
async fn set_billing(
    State(state): State<AppState>,
    shopper: Shopper,
    Path(id): Path<String>,
    StrictJson(body): StrictJson<SetBilling>,
) -> ApiResult<Response> {
    let mut tx = state.db().write().await?;
    let opened = open(&mut tx, &state, &shopper, &id, true).await?;
    let billing = if body.same_as_delivery {
        if body.address.is_some() || body.address_id.is_some() {
            return Err(ApiError::field(
                "billing_address",
                "give same_as_delivery or an address, not both",
            ));
        }
        let Some(address) = opened.address()? else {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "no_consignment",
                "Enter a delivery address first",
            )
            .with_field("consignment", "Enter a delivery address first"));
        };
        BillingView {
            same_as_delivery: true,
            address: Some(address),
        }
    } else {
        let address = chosen_address(
            &mut tx,
            &shopper,
            body.address,
            body.address_id.as_deref(),
            "address",
        )
        .await?
        .ok_or_else(|| ApiError::field("billing_address", express_copy::BILLING_REQUIRED))?;
        BillingView {
            same_as_delivery: false,
            address: Some(address),
        }
    };
    sqlx::query("UPDATE checkout SET billing = $1, updated_at = $2 WHERE id = $3")
        .bind(serde_json::to_string(&billing).map_err(anyhow::Error::from)?)
        .bind(state.now())
        .bind(&opened.row.id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    answer(&state, &shopper, &id, StatusCode::OK, &HashMap::new()).await
}

fn provider(state: &AppState) -> ApiResult<std::sync::Arc<dyn crate::payments::Provider>> {
    state.provider().cloned().ok_or_else(|| {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "payments_not_configured",
            "Payments are not available on this shop right now.",
        )
    })
}

fn provider_unavailable() -> ApiError {
    ApiError::Upstream {
        code: "payment_provider_unavailable",
        message: PROVIDER_UNAVAILABLE.into(),
    }
}

/// What Place order would charge now, and where to: read without locks (the order re-reads it
/// under lock).
struct Charge {
    total: i64,
    country: String,
}

async fn charge(
    conn: &mut sqlx::AnyConnection,
    state: &AppState,
    shopper: &Shopper,
    opened: &Opened,
) -> ApiResult<Option<Charge>> {
    let Some(address) = opened.address()? else {
        return Ok(None);
    };
    let bag = priced_bag(conn, state, &shopper.market, &opened.cart.id).await?;
    let options =
        shipping::options_for(conn, state, &shopper.market, &address.country_code, &bag).await?;
    let shipping = opened
        .row
        .shipping_option_id
        .as_deref()
        .and_then(|id| options.iter().find(|o| o.id == id))
        .map_or(0, |o| o.amount_minor);
    Ok(Some(Charge {
        total: bag.total_with(shipping),
        country: address.country_code,
    }))
}

/// The methods the provider offers for this market's currency, the delivery country and the
/// total. The front end shows exactly these.
#[utoipa::path(get, path = "/checkout/{checkout_id}/payment-methods", tag = "checkout",
    params(("checkout_id" = String, Path), ("market" = Option<String>, Query)),
    responses((status = 200, body = PaymentMethodsView), (status = 404, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody, description = "no delivery address yet"),
              (status = 502, body = crate::error::ErrorBody), (status = 503, body = crate::error::ErrorBody)))]
async fn payment_methods(
    State(state): State<AppState>,
    shopper: Shopper,
    Path(id): Path<String>,
) -> ApiResult<Json<PaymentMethodsView>> {
    let provider = provider(&state)?;
    let mut conn = state.db().pool().acquire().await?;
    let opened = open(&mut conn, &state, &shopper, &id, false).await?;
    let charge = charge(&mut conn, &state, &shopper, &opened)
        .await?
        .ok_or_else(|| incomplete(vec![("consignment", "Enter a delivery address first")]))?;
    drop(conn);
    let currency = shopper.market.currency.code();
    let methods = provider
        .payment_methods(
            &charge.country,
            &crate::payments::Amount::new(currency, charge.total),
        )
        .await
        .map_err(|e| {
            tracing::warn!(error = %e, "payment methods");
            provider_unavailable()
        })?;
    Ok(Json(PaymentMethodsView {
        methods,
        amount: decimal(charge.total),
        currency: currency.to_string(),
        tokenize_url: provider.tokenize_url(),
    }))
}

fn incomplete(fields: Vec<(&str, &str)>) -> ApiError {
    let message = "Please complete the checkout first";
    let mut e = ApiError::new(StatusCode::CONFLICT, "checkout_incomplete", message);
    for (field, why) in fields {
        e = e.with_field(field, why);
    }
    e
}

/// `Idempotency-Key`: 8–64 of `A-Z a-z 0-9 - _`.
fn idempotency_key(headers: &HeaderMap) -> ApiResult<String> {
    let key = headers
        .get(IDEMPOTENCY_KEY)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let ok = (8..=64).contains(&key.len())
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if ok {
        Ok(key.to_string())
    } else {
        Err(ApiError::field(
            "header:Idempotency-Key",
            "must be 8 to 64 letters, digits, '-' or '_'",
        ))
    }
}

/// The answer for an order in the state a payment step left it.
fn placed(
    state_of: Settled,
    order: &OrderPayment,
    market: &Market,
    shopper: &Shopper,
    guest_cookie: Option<axum::http::HeaderValue>,
) -> ApiResult<Response> {
    let mut jar = CookieJar::default();
    if let Some(c) = guest_cookie {
        jar.push(c);
    }
    let base = PlacedOrder {
        status: "Pending",
        order_id: order.id.clone(),
        order_number: order.number.clone(),
        checkout_id: order.checkout_id.clone(),
        confirmation_path: None,
        action: None,
    };
    match state_of {
        Settled::Confirmed => {
            jar.push(shopper.cart_cookie_clear(market));
            let body = PlacedOrder {
                status: "Confirmed",
                confirmation_path: Some(market.path(&format!(
                    "/order-confirmation/{}/{}",
                    order.checkout_id, order.id
                ))),
                ..base
            };
            Ok((StatusCode::CREATED, jar.into_headers(), Json(body)).into_response())
        }
        Settled::AwaitingShopper { url } => {
            let body = PlacedOrder {
                action: Some(RedirectAction {
                    kind: "redirect",
                    url,
                }),
                ..base
            };
            Ok((StatusCode::ACCEPTED, jar.into_headers(), Json(body)).into_response())
        }
        Settled::Refused { reason } => Err(ApiError::new(
            StatusCode::PAYMENT_REQUIRED,
            "payment_failed",
            express_copy::PAYMENT_FAILED,
        )
        .with_field("payment", reason)),
        Settled::Unknown => Err(provider_unavailable()),
    }
}

/// Place order: re-checks the checkout and the bag, takes the stock and writes the order at the
/// server's prices in one transaction, then authorises the payment (no transaction held while the
/// provider answers) and captures it. The same `Idempotency-Key` answers the same order and never
/// charges twice.
#[utoipa::path(post, path = "/checkout/{checkout_id}/orders", tag = "checkout",
    params(("checkout_id" = String, Path), ("market" = Option<String>, Query),
           ("Idempotency-Key" = String, Header, description = "8–64 of A-Z a-z 0-9 - _; the same key is the same order")),
    request_body = PlaceOrder,
    responses((status = 201, body = PlacedOrder, description = "paid and confirmed"),
              (status = 202, body = PlacedOrder, description = "the shopper must complete the payment at `action.url`"),
              (status = 400, body = crate::error::ErrorBody),
              (status = 402, body = crate::error::ErrorBody, description = "the payment failed; the order was cancelled and its stock returned"),
              (status = 404, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody, description = "insufficient stock, an incomplete checkout, or this key's payment still running"),
              (status = 429, body = crate::error::ErrorBody),
              (status = 502, body = crate::error::ErrorBody), (status = 503, body = crate::error::ErrorBody)))]
async fn place_order(
    State(state): State<AppState>,
    shopper: Shopper,
    Path(id): Path<String>,
    headers: HeaderMap,
    StrictJson(body): StrictJson<PlaceOrder>,
) -> ApiResult<Response> {
    let key = idempotency_key(&headers)?;
    let method = body.payment.method.trim().to_string();
    if !crate::payments::METHOD_TYPES.contains(&method.as_str()) {
        return Err(ApiError::field(
            "payment.method",
            format!(
                "must be one of {}",
                crate::payments::METHOD_TYPES.join(", ")
            ),
        ));
    }
    let token = body.payment.token.filter(|t| !t.trim().is_empty());
    match &token {
        None if crate::payments::needs_token(&method) => {
            return Err(ApiError::field(
                "payment.token",
                "is required for this payment method",
            ));
        }
        Some(t) if t.len() > 2048 => {
            return Err(ApiError::field("payment.token", "is too long"));
        }
        _ => {}
    }
    let provider = provider(&state)?;
    let market = shopper.market;

    // The same key again: the same order, as it stands now (its cart may be closed already).
    let mut conn = state.db().pool().acquire().await?;
    if is_token(&id)
        && let Some(order) = order_by_key(&mut conn, &id, &key).await?
        && orders::owned_by(&mut conn, &shopper, &order.id).await?
    {
        drop(conn);
        return again(&state, &shopper, &market, order).await;
    }
    let opened = open(&mut conn, &state, &shopper, &id, false).await?;
    // Completeness, and a method the provider offers for this market and total.
    let mut missing = Vec::new();
    if opened.row.email.is_none() {
        missing.push(("email", "Enter your email address"));
    }
    if opened.row.shipping_address.is_none() {
        missing.push(("consignment", "Enter a delivery address"));
    }
    if opened.row.shipping_option_id.is_none() {
        missing.push(("shipping_option_id", "Choose a delivery method"));
    }
    if opened.row.billing.is_none() {
        missing.push(("billing_address", express_copy::BILLING_REQUIRED));
    }
    if !missing.is_empty() {
        return Err(incomplete(missing));
    }
    let Some(charge) = charge(&mut conn, &state, &shopper, &opened).await? else {
        return Err(incomplete(vec![(
            "consignment",
            "Enter a delivery address",
        )]));
    };
    drop(conn);
    let offered = provider
        .payment_methods(
            &charge.country,
            &crate::payments::Amount::new(market.currency.code(), charge.total),
        )
        .await
        .map_err(|e| {
            tracing::warn!(error = %e, "payment methods at Place order");
            provider_unavailable()
        })?;
    if !offered.iter().any(|m| m.kind == method) {
        return Err(ApiError::field(
            "payment.method",
            "is not offered for this order",
        ));
    }

    // Throttled before anything is written, so a refused attempt changes nothing.
    let now = state.now();
    for (limit_key, limit) in [
        (
            format!("payment:{id}"),
            super::config::PAYMENTS_PER_CHECKOUT,
        ),
        (
            format!("payment:{}", shopper.client_key()),
            state.config().payment_attempts_per_client,
        ),
    ] {
        state
            .limiter()
            .check(&limit_key, limit, super::config::PAYMENT_WINDOW_SECS, now)
            .map_err(ApiError::too_many)?;
        state
            .limiter()
            .hit(&limit_key, super::config::PAYMENT_WINDOW_SECS, now);
    }

    // Phase 1: the order and its stock, or nothing.
    let (owner_hash, guest_cookie) = shopper.guest_owner();
    let request = PaymentRequest {
        method: method.clone(),
        token,
    };
    let mut tx = state.db().write().await?;
    let opened = open(&mut tx, &state, &shopper, &id, true).await?;
    if let Some(order) = order_by_key(&mut tx, &opened.row.id, &key).await? {
        // A concurrent press of the same key won the lock.
        tx.rollback().await?;
        return again(&state, &shopper, &market, order).await;
    }
    let earlier = pending_orders(&mut tx, &opened.row.id).await?;
    let address = opened
        .address()?
        .ok_or_else(|| incomplete(vec![("consignment", "Enter a delivery address")]))?;
    let billing = opened
        .billing()?
        .and_then(|b| b.address)
        .ok_or_else(|| incomplete(vec![("billing_address", express_copy::BILLING_REQUIRED)]))?;
    let bag = priced_bag(&mut tx, &state, &market, &opened.cart.id).await?;
    if bag.lines.is_empty() {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "cart_empty",
            express_copy::EMPTY_BAG,
        ));
    }
    let options =
        shipping::options_for(&mut tx, &state, &market, &address.country_code, &bag).await?;
    let option = opened
        .row
        .shipping_option_id
        .as_deref()
        .and_then(|o| options.iter().find(|x| x.id == o))
        .cloned()
        .ok_or_else(|| {
            incomplete(vec![(
                "shipping_option_id",
                "is no longer offered for this address",
            )])
        })?;
    let request_json = serde_json::to_string(&request).map_err(anyhow::Error::from)?;
    let created = orders::create(
        &mut tx,
        &state,
        orders::NewOrder {
            checkout_id: &opened.row.id,
            customer_id: opened.cart.customer_id.as_deref(),
            market: &market,
            bag: &bag,
            shipping_option_id: &option.id,
            shipping_option_name: &option.label,
            shipping: option.amount_minor,
            email: opened.row.email.as_deref().unwrap_or_default(),
            shipping_address: &serde_json::to_value(&address).map_err(anyhow::Error::from)?,
            billing_address: &serde_json::to_value(&billing).map_err(anyhow::Error::from)?,
            now,
            kind: "standard",
            payment_method: &method,
            idempotency_key: Some(&key),
            owner_hash: Some(&owner_hash),
            lines_field: "lines",
            payment_request: Some(&request_json),
        },
    )
    .await?;
    touch(&mut tx, &opened.row.id, now).await?;
    tx.commit().await?;
    let variants = bag.variant_ids();
    state.refresh_stock(&variants).await;
    // Attempts the shopper left (a 3-D Secure page never finished): released, stock returned.
    for order in &earlier {
        payment::abandon(&state, order).await?;
    }

    // Phase 2: the payment, with no transaction open.
    let mut conn = state.db().pool().acquire().await?;
    let order = payment::load(&mut conn, &created.id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("order {} vanished", created.id))?;
    drop(conn);
    let settled = payment::authorise(&state, &order, &request).await?;
    placed(settled, &order, &market, &shopper, guest_cookie)
}

/// The order a Place order key made on this checkout.
async fn order_by_key(
    conn: &mut sqlx::AnyConnection,
    checkout_id: &str,
    key: &str,
) -> ApiResult<Option<OrderPayment>> {
    let sql = format!(
        "SELECT {} FROM shop_order WHERE checkout_id = $1 AND idempotency_key = $2",
        payment::ORDER_PAYMENT_COLUMNS
    );
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(checkout_id)
        .bind(key)
        .fetch_optional(&mut *conn)
        .await?)
}

/// The checkout's orders still Pending (earlier attempts).
async fn pending_orders(
    conn: &mut sqlx::AnyConnection,
    checkout_id: &str,
) -> ApiResult<Vec<OrderPayment>> {
    let sql = format!(
        "SELECT {} FROM shop_order WHERE checkout_id = $1 AND status = 'Pending'",
        payment::ORDER_PAYMENT_COLUMNS
    );
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(checkout_id)
        .fetch_all(&mut *conn)
        .await?)
}

/// A repeated Place order: the order as it stands; a Pending one the provider never answered for
/// is asked again with the same request (the provider's key is the order id: one payment).
async fn again(
    state: &AppState,
    shopper: &Shopper,
    market: &Market,
    order: OrderPayment,
) -> ApiResult<Response> {
    let settled = match payment::settled_already(&order) {
        Some(done) => done,
        None => match (&order.payment_reference, &order.payment_action_url) {
            (Some(_), Some(url)) => Settled::AwaitingShopper { url: url.clone() },
            (Some(_), None) => payment::refresh(state, &order).await?,
            (None, _) => {
                let request: PaymentRequest =
                    serde_json::from_str(order.payment_request.as_deref().unwrap_or("{}"))
                        .map_err(|e| anyhow::anyhow!("order {} payment request: {e}", order.id))?;
                payment::authorise(state, &order, &request).await?
            }
        },
    };
    if settled == Settled::Unknown && order.payment_reference.is_some() {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "payment_in_progress",
            PAYMENT_IN_PROGRESS,
        ));
    }
    placed(settled, &order, market, shopper, None)
}

/// The shopper came back from a 3-D Secure page or a PayPal / Klarna approval: the provider says
/// how the payment stands, and the order is confirmed (201) or cancelled (402).
#[utoipa::path(post, path = "/checkout/{checkout_id}/payment-details", tag = "checkout",
    params(("checkout_id" = String, Path), ("market" = Option<String>, Query)),
    request_body = PaymentDetails,
    responses((status = 201, body = PlacedOrder), (status = 202, body = PlacedOrder, description = "still waiting for the shopper"),
              (status = 400, body = crate::error::ErrorBody),
              (status = 402, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody), (status = 502, body = crate::error::ErrorBody)))]
async fn payment_details(
    State(state): State<AppState>,
    shopper: Shopper,
    Path(id): Path<String>,
    StrictJson(body): StrictJson<PaymentDetails>,
) -> ApiResult<Response> {
    if !is_token(&body.order_id) {
        return Err(ApiError::field("order_id", "is not an order id"));
    }
    let market = shopper.market;
    let order = {
        let mut conn = state.db().pool().acquire().await?;
        // The checkout is ordered once the payment is confirmed; its order still answers.
        let order = payment::load(&mut conn, &body.order_id)
            .await?
            .filter(|o| o.checkout_id == id && o.checkout_kind == "standard")
            .ok_or_else(|| {
                ApiError::not_found().with_field("order_id", "is not an order of this checkout")
            })?;
        if order.status == "Pending" {
            open(&mut conn, &state, &shopper, &id, false).await?;
        }
        order
    };
    let settled = payment::refresh(&state, &order).await?;
    if settled == Settled::Unknown {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "payment_in_progress",
            PAYMENT_IN_PROGRESS,
        ));
    }
    placed(settled, &order, &market, &shopper, None)
}

/// A guest's account from the order confirmation: the checkout's email, the order's billing
/// address saved, the guest's orders from this browser attached, and signed in. When the email
/// already has an account: 409 `account_exists` with the spec's copy.
#[utoipa::path(post, path = "/orders/{checkout_id}/{order_id}/account", tag = "checkout",
    params(("checkout_id" = String, Path), ("order_id" = String, Path), ("market" = Option<String>, Query)),
    request_body = OrderAccount,
    responses((status = 201, body = crate::auth::Accepted), (status = 400, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody), (status = 409, body = crate::error::ErrorBody),
              (status = 429, body = crate::error::ErrorBody)))]
async fn account_from_order(
    State(state): State<AppState>,
    shopper: Shopper,
    Path((checkout_id, order_id)): Path<(String, String)>,
    StrictJson(body): StrictJson<OrderAccount>,
) -> ApiResult<Response> {
    let mut conn = state.db().pool().acquire().await?;
    let guest = orders::guest_order(&mut conn, &shopper, &checkout_id, &order_id).await?;
    drop(conn);
    let billing = guest
        .billing_address
        .clone()
        .unwrap_or_else(|| AddressInput {
            first_name: String::new(),
            last_name: String::new(),
            street_name: String::new(),
            house_number: String::new(),
            city: String::new(),
            state_or_province: String::new(),
            postal_code: String::new(),
            country_code: String::new(),
            phone: String::new(),
        });
    let register = crate::auth::registration::Register::for_order(
        &guest.email,
        &body.password,
        &body.title,
        body.first_name.as_deref().unwrap_or(&billing.first_name),
        body.last_name.as_deref().unwrap_or(&billing.last_name),
        &billing.phone,
        body.preference_email,
    );
    crate::auth::registration::validate_register(&register)?;
    let (jar, created) = crate::auth::register_for_order(
        &state,
        &shopper,
        &register,
        guest.billing_address.as_ref(),
    )
    .await?;
    let Some(customer) = created else {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "account_exists",
            "An account already exists for the email you used to checkout. Please reset your password.",
        ));
    };
    let mut tx = state.db().write().await?;
    orders::attach_to_customer(&mut tx, &customer, &guest.owner_hash, &guest.email).await?;
    tx.commit().await?;
    Ok((
        StatusCode::CREATED,
        jar.into_headers(),
        Json(crate::auth::Accepted {
            status: "registered",
        }),
    )
        .into_response())
}
