//! Express (wallet) checkout over the stored cart (docs/api.md, "Express checkout"): start (reload
//! the bag, check stock, the amount to charge), the merchant session for the wallet sheet, the
//! shipping contact (the country and shipping-option rules; one consignment), the shipping
//! method, and the authorisation (re-check stock, create the order at the server's prices, take
//! the stock, charge it with the card payment provider's `applePayPayment`, then confirm — or
//! cancel and put the stock back). The browser sends ids, addresses and the wallet's token,
//! never an amount. The only writer of `express_checkout`.

use super::orders;
use super::shipping::{self, ShippingOption};
use crate::bag::{PricedBag, priced_bag};
use crate::cart::{self, CartRow, MERCHANT_COUNTRY};
use crate::error::{ApiError, ApiResult, ErrorCode, copy};
use crate::json::StrictJson;
use crate::payments::client as provider;
use crate::rows::row;
use crate::session::{CookieJar, Shopper, is_token};
use crate::state::AppState;
use crate::store::{Tx, random_id};
use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use domain::market::Market;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// The confirmation path's `checkoutsource` after a wallet express payment.
pub const CHECKOUT_SOURCE: &str = "applepayexpress";

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(start))
        .routes(routes!(merchant_session))
        .routes(routes!(shipping_contact))
        .routes(routes!(shipping_method))
        .routes(routes!(authorize))
}

/// The janitor's part: deletes the unfinished express checkouts of guest carts untouched since
/// `stale_carts` (the carts go too; orders keep their own copy of what was bought).
pub async fn purge_abandoned(tx: &mut Tx, stale_carts: i64) -> ApiResult<u64> {
    Ok(sqlx::query(sqlx::AssertSqlSafe(format!(
        "DELETE FROM express_checkout WHERE state <> 'ordered' AND cart_id IN ({})",
        cart::STALE_GUEST_CARTS
    )))
    .bind(stale_carts)
    .execute(&mut **tx)
    .await?
    .rows_affected())
}

// ---- bodies and answers --------------------------------------------------------------------

/// Starting takes nothing: the bag is the stored cart.
#[derive(Deserialize, ToSchema, Default)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({}))]
pub struct StartExpress {}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"validation_url": "https://apple-pay-gateway.apple.com/paymentservices/startSession"}))]
pub struct MerchantSession {
    /// The validation URL the wallet sheet gave (an apple.com https URL).
    pub validation_url: String,
}

/// The shipping contact while the sheet is open: the wallet reveals only the area.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"country_code": "GB", "locality": "London", "postal_code": "NW1 6XE", "administrative_area": null}))]
pub struct ShippingContact {
    pub country_code: String,
    #[serde(default)]
    pub postal_code: Option<String>,
    #[serde(default)]
    pub locality: Option<String>,
    #[serde(default)]
    pub administrative_area: Option<String>,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"shipping_option_id": "uk-standard"}))]
pub struct ShippingMethod {
    pub shipping_option_id: String,
}

/// A full contact from the authorised payment.
#[derive(Deserialize, Serialize, ToSchema, Clone)]
#[serde(deny_unknown_fields)]
pub struct Contact {
    pub given_name: String,
    pub family_name: String,
    #[serde(default)]
    pub email_address: Option<String>,
    #[serde(default)]
    pub phone_number: Option<String>,
    #[serde(default)]
    pub address_lines: Vec<String>,
    pub locality: String,
    #[serde(default)]
    pub administrative_area: Option<String>,
    pub postal_code: String,
    pub country_code: String,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"payment_token": {"paymentData": {"version": "EC_v1", "data": "…"}, "paymentMethod": {"network": "Visa", "type": "debit"}, "transactionIdentifier": "…"}, "shipping_contact": {"given_name": "Ada", "family_name": "Lovelace", "address_lines": ["221B Baker Street"], "locality": "London", "administrative_area": null, "postal_code": "NW1 6XE", "country_code": "GB", "email_address": "ada@example.com", "phone_number": "+44 20 7946 0000"}, "billing_contact": {"given_name": "Ada", "family_name": "Lovelace", "address_lines": ["221B Baker Street"], "locality": "London", "administrative_area": null, "postal_code": "NW1 6XE", "country_code": "GB", "email_address": "ada@example.com", "phone_number": "+44 20 7946 0000"}}))]
pub struct Authorize {
    /// The wallet's payment token, passed to the payment provider unchanged.
    #[schema(value_type = Object)]
    pub payment_token: serde_json::Value,
    pub shipping_contact: Contact,
    pub billing_contact: Contact,
}

/// What the sheet shows, every amount computed here in minor units of `currency`.
#[derive(Serialize, ToSchema)]
pub struct ExpressTotals {
    pub checkout_id: String,
    pub currency: String,
    /// The bag at the server's prices, promotions applied (the bag's `cart_amount`).
    pub items_minor: i64,
    /// The chosen shipping option's price (0 until one is chosen).
    pub shipping_minor: i64,
    pub total_minor: i64,
    pub merchant_label: String,
    pub country_code: &'static str,
    /// The shipping options for the current contact (empty before one is chosen).
    pub shipping_options: Vec<ShippingOption>,
    pub shipping_option_id: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct ExpressOrder {
    pub order_id: String,
    pub order_number: String,
    pub checkout_id: String,
    /// Where the shopper goes next (with the market's prefix).
    pub confirmation_path: String,
}

// ---- shared steps --------------------------------------------------------------------------

fn payments(state: &AppState) -> ApiResult<&provider::Client> {
    state.payments().ok_or_else(|| {
        ApiError::new(
            ErrorCode::ExpressCheckoutDisabled,
            "Express checkout is not enabled on this shop",
        )
    })
}

/// A refusal about one field, whose message is also that field's (the wallet sheet shows it there).
fn refused_field(code: ErrorCode, message: &'static str, field: &str) -> ApiError {
    ApiError::new(code, message).with_field(field, message)
}

/// One express checkout row, opened for the shopper whose cart it belongs to.
struct Checkout {
    id: String,
    cart: CartRow,
    consignment: Option<serde_json::Value>,
    shipping_option_id: Option<String>,
    state: String,
}

row! {
    struct CheckoutRow {
        consignment: Option<String>,
        shipping_option_id: Option<String>,
        state: String,
    }
}

/// Loads checkout `id` inside `tx` (locked): it must belong to the cart in the shopper's cookie,
/// in this market, else 404 — another shopper's checkout id reveals nothing.
async fn open_checkout(
    tx: &mut Tx,
    state: &AppState,
    shopper: &Shopper,
    id: &str,
) -> ApiResult<Checkout> {
    if !is_token(id) {
        return Err(ApiError::field("checkout_id", "is not a checkout id"));
    }
    let cart_key = cart::cart_key(shopper)?;
    let cart = cart::require_cart(tx, state.db(), shopper, &cart_key, true).await?;
    let sql = format!(
        "SELECT consignment, shipping_option_id, state FROM express_checkout \
         WHERE id = $1 AND cart_id = $2 AND market = $3{}",
        state.db().for_update()
    );
    let row: CheckoutRow = sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(id)
        .bind(&cart.id)
        .bind(shopper.market.code)
        .fetch_optional(&mut **tx)
        .await?
        .ok_or_else(ApiError::not_found)?;
    let consignment = row
        .consignment
        .map(|c| serde_json::from_str(&c))
        .transpose()
        .map_err(|e| anyhow::anyhow!("express_checkout {id} consignment: {e}"))?;
    Ok(Checkout {
        id: id.to_string(),
        cart,
        consignment,
        shipping_option_id: row.shipping_option_id,
        state: row.state,
    })
}

/// A checkout that is not open (an authorisation is running, or it became an order) takes no
/// more steps.
fn require_open(checkout: &Checkout) -> ApiResult<()> {
    if checkout.state == "open" {
        Ok(())
    } else {
        Err(ApiError::new(
            ErrorCode::CheckoutClosed,
            "This checkout is already being paid or has been ordered",
        ))
    }
}

/// The bag as it will be charged, which must have lines and be in stock now (the click and
/// the authorisation both check). A shortage is 409 `insufficient_stock` naming the line; the
/// front end sends the shopper to /bag.
async fn bag_in_stock(
    conn: &mut sqlx::AnyConnection,
    state: &AppState,
    market: &Market,
    cart: &CartRow,
) -> ApiResult<PricedBag> {
    let bag = priced_bag(conn, state, market, &cart.id).await?;
    if bag.lines.is_empty() {
        return Err(ApiError::new(ErrorCode::CartEmpty, copy::EMPTY_BAG));
    }
    let ids = bag.variant_ids();
    let stock = crate::stock::availability(conn, state, market, &ids).await?;
    let mut wanted: HashMap<u64, i64> = HashMap::new();
    for (i, (line, _)) in bag.lines.iter().enumerate() {
        let total = wanted.entry(line.variant_id).or_insert(0);
        *total += line.quantity;
        if !stock
            .get(&line.variant_id)
            .is_some_and(|a| a.allows(*total))
        {
            return Err(ApiError::stock_exceeded(&format!(
                "line_items[{i}].quantity"
            )));
        }
    }
    Ok(bag)
}

fn totals(
    state: &AppState,
    market: &Market,
    checkout_id: &str,
    bag: &PricedBag,
    options: Vec<ShippingOption>,
    chosen: Option<&ShippingOption>,
) -> ExpressTotals {
    let shipping = chosen.map_or(0, |o| o.amount_minor);
    ExpressTotals {
        checkout_id: checkout_id.to_string(),
        currency: market.currency.code().to_string(),
        items_minor: bag.amount(),
        shipping_minor: shipping,
        total_minor: bag.total_with(shipping),
        merchant_label: state.catalog().store.name.clone(),
        country_code: MERCHANT_COUNTRY,
        shipping_option_id: chosen.map(|o| o.id.clone()),
        shipping_options: options,
    }
}

/// The destination country of a contact: two letters, and one the market ships to.
fn destination(market: &Market, raw: &str, field: &str) -> ApiResult<String> {
    let country = shipping::country_code(raw)
        .ok_or_else(|| ApiError::field(field, "must be a two-letter country code"))?;
    if !shipping::country_allowed(market, &country) {
        return Err(refused_field(
            ErrorCode::ShippingCountryNotAllowed,
            copy::UK_ONLY,
            field,
        ));
    }
    Ok(country)
}

/// Rejects free text that is too long for an address field.
/// A wallet contact's field: at most `max` characters, and no control characters (as every
/// text field the API keeps).
fn check_len(field: &str, value: &str, max: usize) -> ApiResult<()> {
    if value.chars().any(char::is_control) {
        return Err(ApiError::field(field, crate::fields::CONTROL_CHARACTERS));
    }
    if value.chars().count() > max {
        return Err(ApiError::field(
            field,
            format!("must be at most {max} characters"),
        ));
    }
    Ok(())
}

// ---- handlers ------------------------------------------------------------------------------

/// Start (the click): reloads the bag, checks its stock and opens a checkout of it. Answers the
/// amount to charge (the bag's total, promotions included) and the checkout id the other steps
/// name.
#[utoipa::path(post, path = "/checkout/express", tag = "checkout",
    params(("market" = Option<crate::contract::MarketCode>, Query)), request_body = StartExpress,
    responses((status = 201, body = ExpressTotals), (status = 404, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody, description = "insufficient stock, empty bag, or express checkout off")))]
async fn start(
    State(state): State<AppState>,
    shopper: Shopper,
    StrictJson(_): StrictJson<StartExpress>,
) -> ApiResult<Response> {
    payments(&state)?;
    let cart_key = cart::cart_key(&shopper)?;
    let mut tx = state.db().write().await?;
    let cart = cart::require_cart(&mut tx, state.db(), &shopper, &cart_key, true).await?;
    let bag = bag_in_stock(&mut tx, &state, &shopper.market, &cart).await?;
    let id = random_id(16);
    let now = state.now();
    sqlx::query(
        "INSERT INTO express_checkout (id, cart_id, market, customer_id, state, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, 'open', $5, $5)",
    )
    .bind(&id)
    .bind(&cart.id)
    .bind(shopper.market.code)
    .bind(cart.customer_id.as_deref())
    .bind(now)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    let body = totals(&state, &shopper.market, &id, &bag, Vec::new(), None);
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

/// The wallet sheet's merchant validation, through the payment provider (which holds the
/// merchant certificate). Only Apple's https validation hosts are passed on.
#[utoipa::path(post, path = "/checkout/express/{checkout_id}/merchant-session", tag = "checkout",
    params(("checkout_id" = String, Path), ("market" = Option<crate::contract::MarketCode>, Query)),
    request_body = MerchantSession,
    responses((status = 404, body = crate::error::ErrorBody, description = "No cart, or no such checkout of this cart"), (status = 200, body = Object), (status = 400, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody, description = "express checkout off, or the checkout is closed"),
              (status = 502, body = crate::error::ErrorBody)))]
async fn merchant_session(
    State(state): State<AppState>,
    shopper: Shopper,
    Path(checkout_id): Path<String>,
    StrictJson(body): StrictJson<MerchantSession>,
) -> ApiResult<Json<serde_json::Value>> {
    let client = payments(&state)?;
    if !crate::payments::is_apple_validation_url(&body.validation_url) {
        return Err(ApiError::field(
            "validation_url",
            "must be an https URL on apple.com",
        ));
    }
    {
        // Only the shopper whose checkout it is may ask; nothing is written.
        let mut tx = state.db().write().await?;
        let checkout = open_checkout(&mut tx, &state, &shopper, &checkout_id).await?;
        require_open(&checkout)?;
        tx.rollback().await?;
    }
    let domain = state.config().public_host();
    let label = state.catalog().store.name.clone();
    let session = client
        .merchant_session(&provider::MerchantSessionRequest {
            validation_url: &body.validation_url,
            display_name: &label,
            initiative_context: &domain,
        })
        .await
        .map_err(upstream_error)?;
    Ok(Json(session))
}

fn upstream_error(e: crate::payments::ProviderError) -> ApiError {
    ApiError::Upstream {
        code: ErrorCode::PaymentProviderUnavailable,
        message: format!("The payment provider failed: {e}"),
    }
}

/// Shipping contact chosen: the country rule, then (in one transaction, so a refusal changes
/// nothing) the checkout's consignments are cleared, one is created for this contact, and the
/// options the shipping rules allow are listed; the first is selected, as the sheet shows it
/// selected.
#[utoipa::path(post, path = "/checkout/express/{checkout_id}/shipping-contact", tag = "checkout",
    params(("checkout_id" = String, Path), ("market" = Option<crate::contract::MarketCode>, Query)),
    request_body = ShippingContact,
    responses((status = 404, body = crate::error::ErrorBody, description = "No cart, or no such checkout of this cart"), (status = 200, body = ExpressTotals), (status = 400, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody),
              (status = 422, body = crate::error::ErrorBody, description = "not a destination, or no shipping option for it")))]
async fn shipping_contact(
    State(state): State<AppState>,
    shopper: Shopper,
    Path(checkout_id): Path<String>,
    StrictJson(body): StrictJson<ShippingContact>,
) -> ApiResult<Json<ExpressTotals>> {
    payments(&state)?;
    let market = &shopper.market;
    let country = destination(market, &body.country_code, "country_code")?;
    for (field, value) in [
        ("postal_code", &body.postal_code),
        ("locality", &body.locality),
        ("administrative_area", &body.administrative_area),
    ] {
        check_len(field, value.as_deref().unwrap_or(""), 100)?;
    }
    let mut tx = state.db().write().await?;
    let checkout = open_checkout(&mut tx, &state, &shopper, &checkout_id).await?;
    require_open(&checkout)?;
    let bag = priced_bag(&mut tx, &state, market, &checkout.cart.id).await?;
    let options = shipping::options_for(&mut tx, &state, market, &country, &bag).await?;
    let Some(first) = options.first().cloned() else {
        return Err(refused_field(
            ErrorCode::AddressUnserviceable,
            copy::UNSERVICEABLE,
            "country_code",
        ));
    };
    let consignment = serde_json::json!({
        "country_code": country,
        "postal_code": body.postal_code,
        "locality": body.locality,
        "administrative_area": body.administrative_area,
    });
    sqlx::query(
        "UPDATE express_checkout SET consignment_id = $1, consignment = $2, \
         shipping_option_id = $3, updated_at = $4 WHERE id = $5",
    )
    .bind(random_id(16))
    .bind(consignment.to_string())
    .bind(&first.id)
    .bind(state.now())
    .bind(&checkout.id)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(Json(totals(
        &state,
        market,
        &checkout.id,
        &bag,
        options,
        Some(&first),
    )))
}

/// The consignment's country, or 409 when no shipping contact was chosen yet.
fn consignment_country(checkout: &Checkout) -> ApiResult<String> {
    checkout
        .consignment
        .as_ref()
        .and_then(|c| c["country_code"].as_str())
        .map(str::to_string)
        .ok_or_else(|| {
            ApiError::new(
                ErrorCode::NoShippingContact,
                "Choose a shipping address first",
            )
        })
}

/// Shipping method chosen: it must be one of the options the consignment allows; the answer is
/// the new total at the server's prices.
#[utoipa::path(post, path = "/checkout/express/{checkout_id}/shipping-method", tag = "checkout",
    params(("checkout_id" = String, Path), ("market" = Option<crate::contract::MarketCode>, Query)),
    request_body = ShippingMethod,
    responses((status = 404, body = crate::error::ErrorBody, description = "No cart, or no such checkout of this cart"), (status = 200, body = ExpressTotals), (status = 400, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody)))]
async fn shipping_method(
    State(state): State<AppState>,
    shopper: Shopper,
    Path(checkout_id): Path<String>,
    StrictJson(body): StrictJson<ShippingMethod>,
) -> ApiResult<Json<ExpressTotals>> {
    payments(&state)?;
    let market = &shopper.market;
    check_len("shipping_option_id", &body.shipping_option_id, 100)?;
    let mut tx = state.db().write().await?;
    let checkout = open_checkout(&mut tx, &state, &shopper, &checkout_id).await?;
    require_open(&checkout)?;
    let country = consignment_country(&checkout)?;
    let bag = priced_bag(&mut tx, &state, market, &checkout.cart.id).await?;
    let options = shipping::options_for(&mut tx, &state, market, &country, &bag).await?;
    let chosen = options
        .iter()
        .find(|o| o.id == body.shipping_option_id)
        .cloned()
        .ok_or_else(|| {
            ApiError::field(
                "shipping_option_id",
                "is not a shipping option for this address",
            )
        })?;
    sqlx::query(
        "UPDATE express_checkout SET shipping_option_id = $1, updated_at = $2 WHERE id = $3",
    )
    .bind(&chosen.id)
    .bind(state.now())
    .bind(&checkout.id)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(Json(totals(
        &state,
        market,
        &checkout.id,
        &bag,
        options,
        Some(&chosen),
    )))
}

/// Checks a full contact; `shipping` contacts also need an email and a country the market ships
/// to. Returns the address as stored on the order.
fn check_contact(
    market: &Market,
    contact: &Contact,
    prefix: &str,
    shipping: bool,
) -> ApiResult<serde_json::Value> {
    let at = |f: &str| format!("{prefix}.{f}");
    for (field, value) in [
        ("given_name", &contact.given_name),
        ("family_name", &contact.family_name),
        ("locality", &contact.locality),
        ("postal_code", &contact.postal_code),
    ] {
        if value.trim().is_empty() {
            if !shipping && field != "given_name" && field != "family_name" {
                return Err(ApiError::field(at(field), copy::BILLING_REQUIRED));
            }
            return Err(ApiError::field(at(field), "is required"));
        }
        check_len(&at(field), value, 100)?;
    }
    if contact.address_lines.iter().all(|l| l.trim().is_empty()) {
        let message = if shipping {
            "is required"
        } else {
            copy::BILLING_REQUIRED
        };
        return Err(ApiError::field(at("address_lines"), message));
    }
    if contact.address_lines.len() > 4 {
        return Err(ApiError::field(
            at("address_lines"),
            "must have at most 4 lines",
        ));
    }
    for (i, line) in contact.address_lines.iter().enumerate() {
        check_len(&at(&format!("address_lines[{i}]")), line, 200)?;
    }
    for (field, value) in [
        ("administrative_area", &contact.administrative_area),
        ("phone_number", &contact.phone_number),
        ("email_address", &contact.email_address),
    ] {
        check_len(&at(field), value.as_deref().unwrap_or(""), 254)?;
    }
    let country = if shipping {
        destination(market, &contact.country_code, &at("country_code"))?
    } else {
        shipping::country_code(&contact.country_code).ok_or_else(|| {
            ApiError::field(at("country_code"), "must be a two-letter country code")
        })?
    };
    if shipping {
        let email = contact.email_address.as_deref().unwrap_or("").trim();
        if !crate::fields::is_email(email) {
            return Err(ApiError::field(
                at("email_address"),
                "must be a valid email address",
            ));
        }
    }
    let mut stored = serde_json::to_value(contact).map_err(anyhow::Error::from)?;
    stored["country_code"] = serde_json::Value::String(country);
    Ok(stored)
}

/// Authorised: re-checks stock and the shipping option for the full address, sets the
/// shipping and billing addresses, creates the order (Pending, server prices) and takes its stock
/// in one transaction; then charges it with `applePayPayment` (no transaction held while the
/// provider answers). Paid: the order is Confirmed, the cart closed (its cookie cleared) and the
/// answer names the confirmation path. Not paid (declined, error, timeout): the order is
/// Cancelled and its stock put back in one transaction, and the answer is 402.
#[utoipa::path(post, path = "/checkout/express/{checkout_id}/authorize", tag = "checkout",
    params(("checkout_id" = String, Path), ("market" = Option<crate::contract::MarketCode>, Query)),
    request_body = Authorize,
    responses((status = 404, body = crate::error::ErrorBody, description = "No cart, or no such checkout of this cart"), (status = 201, body = ExpressOrder), (status = 400, body = crate::error::ErrorBody),
              (status = 402, body = crate::error::ErrorBody, description = "the payment failed; the order was cancelled"),
              (status = 409, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody)))]
async fn authorize(
    State(state): State<AppState>,
    shopper: Shopper,
    Path(checkout_id): Path<String>,
    StrictJson(body): StrictJson<Authorize>,
) -> ApiResult<Response> {
    let client = payments(&state)?;
    let market = &shopper.market;
    let token_ok = body
        .payment_token
        .as_object()
        .is_some_and(|o| !o.is_empty());
    if !token_ok {
        return Err(ApiError::field(
            "payment_token",
            "must be the wallet's payment token (an object)",
        ));
    }
    let shipping_address = check_contact(market, &body.shipping_contact, "shipping_contact", true)?;
    let billing_address = check_contact(market, &body.billing_contact, "billing_contact", false)?;
    let country = shipping_address["country_code"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let email = shipping_address["email_address"]
        .as_str()
        .unwrap_or_default()
        .trim()
        .to_string();

    // Throttled before anything is written, so a refused attempt changes nothing.
    let now = state.now();
    super::throttle::admit_payment(&state, &shopper, &checkout_id, now).await?;

    // Phase 1: the order and its stock, or nothing.
    let mut tx = state.db().write().await?;
    let checkout = open_checkout(&mut tx, &state, &shopper, &checkout_id).await?;
    require_open(&checkout)?;
    consignment_country(&checkout)?;
    let bag = bag_in_stock(&mut tx, &state, market, &checkout.cart).await?;
    let options = shipping::options_for(&mut tx, &state, market, &country, &bag).await?;
    let Some(option) = checkout
        .shipping_option_id
        .as_deref()
        .and_then(|id| options.iter().find(|o| o.id == id))
        .cloned()
    else {
        return Err(refused_field(
            ErrorCode::AddressUnserviceable,
            copy::UNSERVICEABLE,
            "shipping_contact.country_code",
        ));
    };
    let (owner_hash, guest_cookie) = shopper.guest_owner();
    let order = orders::create(
        &mut tx,
        &state,
        orders::NewOrder {
            checkout_id: &checkout.id,
            customer_id: checkout.cart.customer_id.as_deref(),
            market,
            bag: &bag,
            shipping_option_id: &option.id,
            shipping_option_name: &option.label,
            shipping: option.amount_minor,
            email: &email,
            shipping_address: &shipping_address,
            billing_address: &billing_address,
            now,
            kind: "express",
            payment_method: "applepay",
            idempotency_key: None,
            owner_hash: Some(&owner_hash),
            lines_field: "line_items",
            payment_request: None,
        },
    )
    .await;
    let order = match order {
        Ok(order) => order,
        Err(e) => {
            // A shortage above all: once the transaction is gone, the bag shows the stock as the
            // store has it now (the display reads a snapshot).
            drop(tx);
            state.refresh_stock(&bag.variant_ids()).await;
            return Err(e);
        }
    };
    sqlx::query("UPDATE express_checkout SET state = 'paying', updated_at = $1 WHERE id = $2")
        .bind(now)
        .bind(&checkout.id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    let variants = bag.variant_ids();
    state.refresh_stock(&variants).await;

    // Phase 2: the charge, with no transaction open.
    let paid = client
        .apple_pay_payment(&provider::PaymentRequest {
            order_id: &order.id,
            payment_token: &body.payment_token,
            amount: order.total,
            currency: market.currency.code(),
        })
        .await;

    // Phase 3: confirm, or cancel and give the stock back.
    let mut tx = state.db().write().await?;
    let now = state.now();
    match paid {
        Ok(authorised) => {
            // The cart before the checkout row, in the order every step locks them.
            cart::lock(&mut tx, state.db(), &checkout.cart.id).await?;
            // The confirmation email only when this call confirmed the order (not a settled one).
            if orders::mark_paid(&mut tx, &order.id, &authorised.reference, now).await? {
                orders::queue_confirmation_mail(&mut tx, &state, &order.id, now).await?;
            }
            sqlx::query(
                "UPDATE express_checkout SET state = 'ordered', updated_at = $1 WHERE id = $2",
            )
            .bind(now)
            .bind(&checkout.id)
            .execute(&mut *tx)
            .await?;
            cart::delete(&mut tx, &checkout.cart.id).await?;
            tx.commit().await?;
            let mut jar = CookieJar::default();
            jar.push(shopper.cart_cookie_clear(market));
            if let Some(c) = guest_cookie {
                jar.push(c);
            }
            let body = ExpressOrder {
                confirmation_path: market.path(&format!(
                    "/order-confirmation/{}/{}?checkoutsource={CHECKOUT_SOURCE}",
                    checkout.id, order.id
                )),
                order_id: order.id,
                order_number: order.number,
                checkout_id: checkout.id,
            };
            Ok((StatusCode::CREATED, jar.into_headers(), Json(body)).into_response())
        }
        Err(e) => {
            tracing::warn!(order = %order.id, error = %e, "express checkout payment failed");
            orders::cancel_unpaid(&mut tx, &order.id, now).await?;
            sqlx::query(
                "UPDATE express_checkout SET state = 'open', updated_at = $1 WHERE id = $2",
            )
            .bind(now)
            .bind(&checkout.id)
            .execute(&mut *tx)
            .await?;
            tx.commit().await?;
            state.refresh_stock(&variants).await;
            Err(ApiError::new(
                ErrorCode::PaymentFailed,
                copy::PAYMENT_FAILED,
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contact_fields_refuse_control_characters_and_length() {
        assert!(check_len("shipping_contact.locality", "London", 100).is_ok());
        for bad in ["Lon\ndon", "Lon\u{0}don"] {
            let e = check_len("shipping_contact.locality", bad, 100).unwrap_err();
            assert!(e.to_string().contains("control characters"), "{e}");
        }
        assert!(check_len("f", &"x".repeat(101), 100).is_err());
    }
}
