//! The standard checkout of the bag (docs/checkout.md), its steps: create or resume the cart's
//! checkout, the guest's email, the delivery address with its shipping options, the billing
//! address. Place order and what follows are in `place` (Apple Pay's merchant session in
//! `wallet`), what every step answers in `view`; the stored checkout is `checkout::record`.
//! Every amount comes from the bag; the browser sends ids, addresses and a payment token, never
//! an amount.

pub mod place;
pub mod view;
pub mod wallet;

use super::shipping;
use crate::account::address::{AddressInput, find_address, insert_address, validate_address};
use crate::bag::priced_bag;
use crate::cart;
use crate::checkout::record::{self, BillingView, open};
use crate::error::{ApiError, ApiResult, ErrorCode, copy};
use crate::json::StrictJson;
use crate::session::Shopper;
use crate::state::AppState;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::Deserialize;
use std::collections::HashMap;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use view::{CheckoutView, answer, countries};

/// Spec copy: the low-stock state and the invalid-email message.
pub const LOW_STOCK: &str = "There are less than 5 of these left";
pub const INVALID_EMAIL: &str = "Please enter a valid email address";

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(start))
        .routes(routes!(get_checkout))
        .routes(routes!(set_email))
        .routes(routes!(set_consignment))
        .routes(routes!(set_shipping_option))
        .routes(routes!(set_billing))
        .merge(place::router())
        .merge(wallet::router())
}

// ---- bodies --------------------------------------------------------------------------------

#[derive(Deserialize, ToSchema, Default)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({}))]
pub struct StartCheckout {}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"email": "ada@example.com"}))]
pub struct SetEmail {
    #[serde(default)]
    pub email: String,
}

/// A typed address, or a saved one by id (signed in).
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"address": {"first_name": "Ada", "last_name": "Lovelace", "street_name": "Baker Street", "house_number": "221B", "city": "London", "state_or_province": "", "postal_code": "NW1 6XE", "country_code": "GB", "phone": "+44 20 7946 0000"}, "save_address": false}))]
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
#[schema(example = json!({"shipping_option_id": "uk-next-day"}))]
pub struct SetShippingOption {
    #[serde(default)]
    pub shipping_option_id: String,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"same_as_delivery": true}))]
pub struct SetBilling {
    #[serde(default)]
    pub same_as_delivery: bool,
    #[serde(default)]
    pub address: Option<AddressInput>,
    #[serde(default)]
    pub address_id: Option<String>,
}

// ---- steps ---------------------------------------------------------------------------------

/// Creates or resumes the checkout of the shopper's cart. The bag is re-read: a line above what
/// is left is reduced to it (`quantity_reduced`), a sold-out line is flagged (`sold_out`). A
/// browser without the guest cookie gets one.
#[utoipa::path(post, path = "/checkout", tag = "checkout",
    params(("market" = Option<crate::contract::MarketCode>, Query)), request_body = StartCheckout,
    responses((status = 200, body = CheckoutView, description = "resumed"),
              (status = 201, body = CheckoutView, description = "created"),
              (status = 404, body = crate::error::ErrorBody, description = "no cart"),
              (status = 409, body = crate::error::ErrorBody, description = "empty bag")))]
async fn start(
    State(state): State<AppState>,
    shopper: Shopper,
    StrictJson(_): StrictJson<StartCheckout>,
) -> ApiResult<Response> {
    let cart_key = cart::cart_key(&shopper)?;
    let market = &shopper.market;
    let now = state.now();
    let mut tx = state.db().write().await?;
    let cart = cart::require_cart(&mut tx, state.db(), &shopper, &cart_key, true).await?;
    let reduced = cart::reduce_to_stock(&mut tx, &state, market, &cart).await?;
    if cart::item_count(&mut tx, &cart.id).await? == 0 {
        return Err(ApiError::new(ErrorCode::CartEmpty, copy::EMPTY_BAG));
    }
    let account_email = match shopper.customer_id.as_deref() {
        Some(customer) => Some(
            crate::account::load_customer(&mut tx, customer)
                .await?
                .email,
        ),
        None => None,
    };
    let (id, created) =
        record::start(&mut tx, &cart, market, account_email.as_deref(), now).await?;
    let status = if created {
        StatusCode::CREATED
    } else {
        StatusCode::OK
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
    params(("checkout_id" = String, Path), ("market" = Option<crate::contract::MarketCode>, Query)),
    responses((status = 200, body = CheckoutView), (status = 404, body = crate::error::ErrorBody)))]
async fn get_checkout(
    State(state): State<AppState>,
    shopper: Shopper,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    answer(&state, &shopper, &id, StatusCode::OK, &HashMap::new()).await
}

/// A guest's email, checked by the shared email rule. A signed-in shopper's is the account's.
#[utoipa::path(put, path = "/checkout/{checkout_id}/email", tag = "checkout",
    params(("checkout_id" = String, Path), ("market" = Option<crate::contract::MarketCode>, Query)),
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
            ErrorCode::SignedIn,
            "You are signed in: the order uses your account's email.",
        )
        .with_field("email", "is your account's email"));
    }
    let mut tx = state.db().write().await?;
    let opened = open(&mut tx, &state, &shopper, &id, true).await?;
    record::set_email(&mut tx, &opened.row.id, email, state.now()).await?;
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
            Ok(Some(saved.into_input()))
        }
        (None, None) => Ok(None),
    }
}

/// The delivery address (one consignment holding the bag's lines) and the shipping options for
/// it; the previous option is kept while it is still offered.
#[utoipa::path(put, path = "/checkout/{checkout_id}/consignment", tag = "checkout",
    params(("checkout_id" = String, Path), ("market" = Option<crate::contract::MarketCode>, Query)),
    request_body = SetConsignment,
    responses((status = 401, body = crate::error::ErrorBody, description = "A saved address (`address_id`) asked for while not signed in"), (status = 200, body = CheckoutView), (status = 400, body = crate::error::ErrorBody),
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
            copy::UK_ONLY
        } else {
            "We do not deliver to this country from this store"
        };
        return Err(ApiError::new(ErrorCode::ShippingCountryNotAllowed, message)
            .with_field("address.country_code", message));
    }
    let bag = priced_bag(&mut tx, &state, market, &opened.cart.id).await?;
    let options =
        shipping::options_for(&mut tx, &state, market, &address.country_code, &bag).await?;
    if options.is_empty() {
        return Err(
            ApiError::new(ErrorCode::AddressUnserviceable, copy::UNSERVICEABLE)
                .with_field("address", copy::UNSERVICEABLE),
        );
    }
    let kept = opened
        .row
        .shipping_option_id
        .as_deref()
        .filter(|id| options.iter().any(|o| o.id == *id));
    record::set_consignment(&mut tx, &opened.row.id, &address, kept, state.now()).await?;
    if save && let Some(customer) = shopper.customer_id.as_deref() {
        insert_address(&mut tx, customer, &address).await?;
    }
    tx.commit().await?;
    answer(&state, &shopper, &id, StatusCode::OK, &HashMap::new()).await
}

/// A step that needs the delivery address, before there is one.
fn no_consignment() -> ApiError {
    let message = "Enter a delivery address first";
    ApiError::new(ErrorCode::NoConsignment, message).with_field("consignment", message)
}

/// One of the options listed for the delivery address.
#[utoipa::path(put, path = "/checkout/{checkout_id}/shipping-option", tag = "checkout",
    params(("checkout_id" = String, Path), ("market" = Option<crate::contract::MarketCode>, Query)),
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
        return Err(no_consignment());
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
    record::set_shipping_option(
        &mut tx,
        &opened.row.id,
        &body.shipping_option_id,
        state.now(),
    )
    .await?;
    tx.commit().await?;
    answer(&state, &shopper, &id, StatusCode::OK, &HashMap::new()).await
}

/// The billing address: the delivery address again, or another one. Without one: 'Billing
/// address is required'.
#[utoipa::path(put, path = "/checkout/{checkout_id}/billing-address", tag = "checkout",
    params(("checkout_id" = String, Path), ("market" = Option<crate::contract::MarketCode>, Query)),
    request_body = SetBilling,
    responses((status = 401, body = crate::error::ErrorBody, description = "A saved address (`address_id`) asked for while not signed in"), (status = 200, body = CheckoutView), (status = 400, body = crate::error::ErrorBody),
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
            return Err(no_consignment());
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
        .ok_or_else(|| ApiError::field("billing_address", copy::BILLING_REQUIRED))?;
        BillingView {
            same_as_delivery: false,
            address: Some(address),
        }
    };
    record::set_billing(&mut tx, &opened.row.id, &billing, state.now()).await?;
    tx.commit().await?;
    answer(&state, &shopper, &id, StatusCode::OK, &HashMap::new()).await
}
