//! Place order and what follows it: the payment methods the provider offers for the checkout's
//! total, Place order (with an `Idempotency-Key`: the same key is the same order, never a second
//! charge), the result a payment redirect brings back, and the account a guest makes from the
//! order confirmation.

use crate::account::address::AddressInput;
use crate::auth::{
    self,
    registration::{Register, validate_register},
};
use crate::bag::{decimal, priced_bag};
use crate::checkout::orders;
use crate::checkout::payment::{self, OrderPayment, PaymentRequest, Settled};
use crate::checkout::record::{self, Opened};
use crate::checkout::shipping;
use crate::checkout::throttle;
use crate::error::{ApiError, ApiResult, ErrorCode, copy};
use crate::json::StrictJson;
use crate::session::{CookieJar, Shopper, is_token};
use crate::state::AppState;
use axum::Json;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use domain::market::Market;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// The longest payment token taken: an Apple Pay token (its encrypted data and signature, as
/// JSON) is a few kilobytes; card and gift card tokens are short.
const MAX_TOKEN_LEN: usize = 12 * 1024;
/// The Place order header: the same key is the same order.
pub const IDEMPOTENCY_KEY: &str = "idempotency-key";
pub const PROVIDER_UNAVAILABLE: &str =
    "We could not confirm your payment with the payment service. Please try again in a moment.";
pub const PAYMENT_IN_PROGRESS: &str =
    "Your payment is still being confirmed. Please wait a moment and try again.";

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(payment_methods))
        .routes(routes!(place_order))
        .routes(routes!(payment_details))
        .routes(routes!(account_from_order))
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
#[schema(example = json!({"payment": {"method": "scheme", "token": "tok_4c1d2e3f"}}))]
pub struct PlaceOrder {
    pub payment: PaymentChoice,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"order_id": "8d1e6f2a4b3c5d7e9f0a1b2c3d4e5f60", "redirect_result": "approved"}))]
pub struct PaymentDetails {
    pub order_id: String,
    /// What the provider appended to the return URL, if anything; the API asks the provider
    /// itself, so it is not needed.
    #[serde(default)]
    pub redirect_result: Option<String>,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"password": "Correct-horse-9", "title": "Ms", "preferenceEmail": false}))]
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

#[derive(Serialize, ToSchema)]
pub struct PaymentMethodsView {
    pub methods: Vec<crate::payments::MethodInfo>,
    /// What Place order will charge, decimal major units.
    pub amount: f64,
    pub currency: String,
    /// Where the browser sends card and gift card details for a token (never /api).
    pub tokenize_url: String,
    /// The name a wallet sheet (Apple Pay, Google Pay) shows the shopper: the shop's.
    pub merchant_name: String,
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

pub(super) fn provider(
    state: &AppState,
) -> ApiResult<std::sync::Arc<dyn crate::payments::Provider>> {
    state.provider().cloned().ok_or_else(|| {
        ApiError::new(
            ErrorCode::PaymentsNotConfigured,
            "Payments are not available on this shop right now.",
        )
    })
}

pub(super) fn provider_unavailable() -> ApiError {
    ApiError::Upstream {
        code: ErrorCode::PaymentProviderUnavailable,
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
    params(("checkout_id" = String, Path), ("market" = Option<crate::contract::MarketCode>, Query)),
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
    let opened = record::open(&mut conn, &state, &shopper, &id, false).await?;
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
        merchant_name: state.catalog().store.name.clone(),
    }))
}

fn incomplete(fields: Vec<(&str, &str)>) -> ApiError {
    let message = "Please complete the checkout first";
    let mut e = ApiError::new(ErrorCode::CheckoutIncomplete, message);
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
            ErrorCode::PaymentFailed,
            copy::PAYMENT_FAILED,
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
    params(("checkout_id" = String, Path), ("market" = Option<crate::contract::MarketCode>, Query),
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
        Some(t) if t.len() > MAX_TOKEN_LEN => {
            return Err(ApiError::field("payment.token", "is too long"));
        }
        _ => {}
    }
    let provider = provider(&state)?;
    let market = shopper.market;

    // The same key again: the same order, as it stands now (its cart may be closed already).
    if let Some(order) = placed_with_key(&state, &shopper, &id, &key).await? {
        return again(&state, &shopper, &market, order).await;
    }
    let mut conn = state.db().pool().acquire().await?;
    let opened = match record::open(&mut conn, &state, &shopper, &id, false).await {
        Ok(opened) => opened,
        Err(e) => return or_same_key(e, &state, &shopper, &id, &key).await,
    };
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
        missing.push(("billing_address", copy::BILLING_REQUIRED));
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
    throttle::admit_payment(&state, &shopper, &id, now).await?;

    // Phase 1: the order and its stock, or nothing.
    let (owner_hash, guest_cookie) = shopper.guest_owner();
    let request = PaymentRequest {
        method: method.clone(),
        token,
    };
    let mut tx = state.db().write().await?;
    let opened = match record::open(&mut tx, &state, &shopper, &id, true).await {
        Ok(opened) => opened,
        Err(e) => {
            tx.rollback().await?;
            return or_same_key(e, &state, &shopper, &id, &key).await;
        }
    };
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
        .ok_or_else(|| incomplete(vec![("billing_address", copy::BILLING_REQUIRED)]))?;
    let bag = priced_bag(&mut tx, &state, &market, &opened.cart.id).await?;
    if bag.lines.is_empty() {
        return Err(ApiError::new(ErrorCode::CartEmpty, copy::EMPTY_BAG));
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
    .await;
    let created = match created {
        Ok(order) => order,
        Err(e) => {
            // A shortage above all: once the transaction is gone, the bag shows the stock as the
            // store has it now (the display reads a snapshot).
            drop(tx);
            state.refresh_stock(&bag.variant_ids()).await;
            return Err(e);
        }
    };
    record::touch(&mut tx, &opened.row.id, now).await?;
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
/// The order this key already placed on this checkout, when the shopper owns it.
async fn placed_with_key(
    state: &AppState,
    shopper: &Shopper,
    checkout_id: &str,
    key: &str,
) -> ApiResult<Option<OrderPayment>> {
    if !is_token(checkout_id) {
        return Ok(None);
    }
    let mut conn = state.db().pool().acquire().await?;
    match order_by_key(&mut conn, checkout_id, key).await? {
        Some(order) if orders::owned_by(&mut conn, shopper, &order.id).await? => Ok(Some(order)),
        _ => Ok(None),
    }
}

/// The checkout or its cart could not be opened: a concurrent press of the same key may have
/// placed the order and closed the cart meanwhile, and then this press answers that order.
async fn or_same_key(
    e: ApiError,
    state: &AppState,
    shopper: &Shopper,
    checkout_id: &str,
    key: &str,
) -> ApiResult<Response> {
    match placed_with_key(state, shopper, checkout_id, key).await? {
        Some(order) => again(state, shopper, &shopper.market, order).await,
        None => Err(e),
    }
}

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
            ErrorCode::PaymentInProgress,
            PAYMENT_IN_PROGRESS,
        ));
    }
    placed(settled, &order, market, shopper, None)
}

/// The shopper came back from a 3-D Secure page or a PayPal / Klarna approval: the provider says
/// how the payment stands, and the order is confirmed (201) or cancelled (402).
#[utoipa::path(post, path = "/checkout/{checkout_id}/payment-details", tag = "checkout",
    params(("checkout_id" = String, Path), ("market" = Option<crate::contract::MarketCode>, Query)),
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
            record::open(&mut conn, &state, &shopper, &id, false).await?;
        }
        order
    };
    let settled = payment::refresh(&state, &order).await?;
    if settled == Settled::Unknown {
        return Err(ApiError::new(
            ErrorCode::PaymentInProgress,
            PAYMENT_IN_PROGRESS,
        ));
    }
    placed(settled, &order, &market, &shopper, None)
}

/// A guest's account from the order confirmation: the checkout's email, the order's billing
/// address saved, the guest's orders from this browser attached, and signed in. When the email
/// already has an account: 409 `account_exists` with the spec's copy.
#[utoipa::path(post, path = "/orders/{checkout_id}/{order_id}/account", tag = "checkout",
    params(("checkout_id" = String, Path), ("order_id" = String, Path), ("market" = Option<crate::contract::MarketCode>, Query)),
    request_body = OrderAccount,
    responses((status = 201, body = auth::Accepted), (status = 400, body = crate::error::ErrorBody),
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
    let mut register = Register::for_order(
        &guest.email,
        &body.password,
        &body.title,
        body.first_name.as_deref().unwrap_or(&billing.first_name),
        body.last_name.as_deref().unwrap_or(&billing.last_name),
        &billing.phone,
        body.preference_email,
    );
    validate_register(&mut register)?;
    let (jar, created) =
        auth::register_for_order(&state, &shopper, &register, guest.billing_address.as_ref())
            .await?;
    let Some(customer) = created else {
        return Err(ApiError::new(
            ErrorCode::AccountExists,
            "An account already exists for the email you used to checkout. Please reset your password.",
        ));
    };
    let mut tx = state.db().write().await?;
    orders::attach_to_customer(&mut tx, &customer, &guest.owner_hash, &guest.email).await?;
    tx.commit().await?;
    Ok((
        StatusCode::CREATED,
        jar.into_headers(),
        Json(auth::Accepted {
            status: "registered",
        }),
    )
        .into_response())
}
