//! Settling a standard-checkout order's payment with the provider: authorise at Place order, then
//! capture and confirm, or cancel and give the stock back. The same steps serve the shopper who
//! comes back from a 3-D Secure or approval redirect and the reconciliation of stale Pending
//! orders, so an order is settled one way whoever asks.

use super::orders;
use super::record;
use crate::error::{ApiResult, copy};
use crate::payments::{Amount, Authorise, Outcome, Provider, ProviderError};
use crate::rows::row;
use crate::state::AppState;
use domain::market::Market;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// How the shopper pays, as Place order sent it; kept on the order so that a retry of the same
/// Place order (same key) asks the provider again with the same request.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PaymentRequest {
    pub method: String,
    #[serde(default)]
    pub token: Option<String>,
}

row! {
    /// An order as the payment steps need it.
    #[derive(Debug, Clone)]
    pub struct OrderPayment {
        pub id: String,
        pub number: String,
        pub checkout_id: String,
        pub customer_id: Option<String>,
        pub market: String,
        pub currency: String,
        pub status: String,
        pub payment_method: String,
        pub payment_status: String,
        pub payment_reference: Option<String>,
        pub payment_request: Option<String>,
        pub payment_action_url: Option<String>,
        pub total: i64,
        pub email: String,
        pub shipping_address: String,
        pub checkout_kind: String,
        pub created_at: i64,
    }
}

pub const ORDER_PAYMENT_COLUMNS: &str = "id, number, checkout_id, customer_id, market, currency, \
    status, payment_method, payment_status, payment_reference, payment_request, \
    payment_action_url, total, email, shipping_address, checkout_kind, created_at";

impl OrderPayment {
    pub fn market(&self) -> Market {
        Market::by_code(&self.market).unwrap_or(domain::market::UK)
    }

    pub fn amount(&self) -> Amount {
        Amount::new(&self.currency, self.total)
    }

    fn country(&self) -> String {
        serde_json::from_str::<serde_json::Value>(&self.shipping_address)
            .ok()
            .and_then(|a| a["country_code"].as_str().map(str::to_string))
            .unwrap_or_default()
    }
}

/// Where an order's payment ended up after a step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Settled {
    /// Captured and Confirmed (or it already was).
    Confirmed,
    /// The shopper must go to `url` first (3-D Secure, PayPal, Klarna).
    AwaitingShopper { url: String },
    /// Declined or failed: the order is Cancelled and its stock is back.
    Refused { reason: String },
    /// The provider did not say (timeout, 5xx, still processing): the order stays Pending and is
    /// settled by a later request or the reconciliation.
    Unknown,
}

/// Loads one order by id (`None` when there is none).
pub async fn load(
    conn: &mut sqlx::AnyConnection,
    order_id: &str,
) -> ApiResult<Option<OrderPayment>> {
    let sql = format!("SELECT {ORDER_PAYMENT_COLUMNS} FROM shop_order WHERE id = $1");
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(order_id)
        .fetch_optional(&mut *conn)
        .await?)
}

/// What an order that is no longer Pending says about its payment.
pub fn settled_already(order: &OrderPayment) -> Option<Settled> {
    match order.status.as_str() {
        "Pending" => None,
        "Cancelled" if order.payment_status == "failed" => Some(Settled::Refused {
            reason: copy::PAYMENT_FAILED.into(),
        }),
        "Cancelled" | "Refunded" => Some(Settled::Refused {
            reason: "This order was cancelled.".into(),
        }),
        _ => Some(Settled::Confirmed),
    }
}

fn provider(state: &AppState) -> Option<Arc<dyn Provider>> {
    state.provider().cloned()
}

/// Authorises a Pending order's payment (the provider's idempotency key is the order id, so
/// asking again for the same order is the same payment) and settles it.
pub async fn authorise(
    state: &AppState,
    order: &OrderPayment,
    request: &PaymentRequest,
) -> ApiResult<Settled> {
    let Some(provider) = provider(state) else {
        return Ok(Settled::Unknown);
    };
    let market = order.market();
    let return_url = format!(
        "{}{}?order_id={}",
        state.config().public_base_url,
        market.path("/checkout/return"),
        order.id
    );
    let description = format!("Order {}", order.number);
    let country = order.country();
    let answer = provider
        .authorise(&Authorise {
            reference: &order.id,
            idempotency_key: &order.id,
            amount: order.amount(),
            country_code: &country,
            method: &request.method,
            token: request.token.as_deref(),
            return_url: &return_url,
            shopper_email: &order.email,
            description: &description,
        })
        .await;
    match answer {
        Ok(created) => {
            let mut tx = state.db().write().await?;
            let url = match &created.outcome {
                Outcome::AwaitingShopper { url } => Some(url.as_str()),
                _ => None,
            };
            orders::record_payment(&mut tx, &order.id, &created.psp_reference, url, state.now())
                .await?;
            tx.commit().await?;
            settle(state, order, &created.psp_reference, created.outcome).await
        }
        // Refused outright: nothing happened at the provider.
        Err(ProviderError::Rejected { message, .. }) => {
            tracing::info!(order = %order.id, %message, "payment request refused by the provider");
            fail(state, order, None, copy::PAYMENT_FAILED).await
        }
        Err(e) => {
            tracing::warn!(order = %order.id, error = %e, "payment outcome unknown; the order stays Pending");
            Ok(Settled::Unknown)
        }
    }
}

/// Asks the provider how a Pending order's payment stands now and settles it.
pub async fn refresh(state: &AppState, order: &OrderPayment) -> ApiResult<Settled> {
    if let Some(done) = settled_already(order) {
        return Ok(done);
    }
    let (Some(provider), Some(psp)) = (provider(state), order.payment_reference.as_deref()) else {
        return Ok(Settled::Unknown);
    };
    match provider.status(psp).await {
        Ok(outcome) => settle(state, order, psp, outcome).await,
        Err(e) => {
            tracing::warn!(order = %order.id, error = %e, "payment status unknown");
            Ok(Settled::Unknown)
        }
    }
}

/// Acts on what the provider said: capture and confirm, cancel, or wait.
pub async fn settle(
    state: &AppState,
    order: &OrderPayment,
    psp: &str,
    outcome: Outcome,
) -> ApiResult<Settled> {
    match outcome {
        Outcome::Authorised => confirm(state, order, psp).await,
        Outcome::Refused { reason } => fail(state, order, Some(psp), &reason).await,
        Outcome::AwaitingShopper { url } => Ok(Settled::AwaitingShopper { url }),
        Outcome::Processing => Ok(Settled::Unknown),
    }
}

/// Captures an authorised payment and confirms the order: Confirmed, the checkout ordered, the
/// cart closed and the confirmation email queued, in one transaction. A capture the provider
/// does not confirm leaves the order Pending (the reconciliation captures it later).
async fn confirm(state: &AppState, order: &OrderPayment, psp: &str) -> ApiResult<Settled> {
    if let Some(provider) = provider(state) {
        let key = format!("{}-capture", order.id);
        if let Err(e) = provider.capture(psp, &order.amount(), &key).await {
            tracing::warn!(order = %order.id, error = %e, "capture failed; the order stays Pending");
            return Ok(Settled::Unknown);
        }
    }
    let mut tx = state.db().write().await?;
    let now = state.now();
    if orders::mark_paid(&mut tx, &order.id, psp, now).await? {
        record::close_after_order(&mut tx, state, &order.checkout_id, &order.id, now).await?;
    }
    tx.commit().await?;
    Ok(Settled::Confirmed)
}

/// Cancels the order and gives its stock back in one transaction; voids a payment still held.
async fn fail(
    state: &AppState,
    order: &OrderPayment,
    psp: Option<&str>,
    reason: &str,
) -> ApiResult<Settled> {
    let mut tx = state.db().write().await?;
    let now = state.now();
    orders::cancel_unpaid(&mut tx, &order.id, now).await?;
    tx.commit().await?;
    state
        .refresh_stock(&orders::variants_of(state, &order.id).await?)
        .await;
    if let (Some(provider), Some(psp)) = (provider(state), psp) {
        // A refused payment holds nothing; one abandoned while waiting for the shopper is released
        // so it cannot be completed later. Failure here only leaves a hold that lapses by itself.
        let key = format!("{}-cancel", order.id);
        if let Err(e) = provider.cancel(psp, &key).await {
            tracing::debug!(order = %order.id, error = %e, "void after a failed payment");
        }
    }
    Ok(Settled::Refused {
        reason: reason.to_string(),
    })
}

/// Cancels a Pending order the shopper left (a newer attempt replaced it, or it went stale):
/// releases its payment at the provider and gives the stock back.
pub async fn abandon(state: &AppState, order: &OrderPayment) -> ApiResult<()> {
    fail(
        state,
        order,
        order.payment_reference.as_deref(),
        "abandoned",
    )
    .await
    .map(|_| ())
}
