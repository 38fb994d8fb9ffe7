//! Settles Pending orders that nobody is waiting for any more: a crash or a lost answer between
//! taking the stock and hearing from the payment provider, or a shopper who never finished a
//! 3-D Secure page. Run at start-up and periodically by the janitor. The rule (docs/checkout.md):
//! a Pending order untouched for `PENDING_LIMIT_SECS` is asked about at the provider; paid →
//! captured and Confirmed, refused, abandoned or unknown to the provider → Cancelled with its
//! stock returned. While the provider cannot be reached the order waits for the next pass.

use super::payment::{self, OrderPayment, Settled};
use crate::state::AppState;

/// How long a Pending order may wait for its payment before it is settled (the default of
/// `Config::pending_order_limit_secs`).
pub use crate::config::express::PENDING_LIMIT_SECS;

/// One pass; answers how many orders were settled.
pub async fn reconcile_stale(state: &AppState) -> anyhow::Result<u64> {
    let before = state.now() - state.config().pending_order_limit_secs;
    let stale: Vec<OrderPayment> = {
        let mut conn = state.db().pool().acquire().await?;
        let sql = format!(
            "SELECT {} FROM shop_order WHERE status = 'Pending' AND updated_at < $1 \
             ORDER BY updated_at LIMIT 500",
            payment::ORDER_PAYMENT_COLUMNS
        );
        sqlx::query_as(sqlx::AssertSqlSafe(sql))
            .bind(before)
            .fetch_all(&mut *conn)
            .await?
    };
    let mut settled = 0;
    for order in stale {
        let outcome = if order.checkout_kind == "standard" && order.payment_reference.is_some() {
            payment::refresh(state, &order)
                .await
                .map_err(anyhow::Error::from)?
        } else {
            // No payment at the provider that we know of: an express charge whose answer was
            // lost, or a Place order that never reached the provider. Any hold it made lapses
            // uncaptured.
            Settled::AwaitingShopper { url: String::new() }
        };
        match outcome {
            Settled::Confirmed | Settled::Refused { .. } => settled += 1,
            Settled::AwaitingShopper { .. } => {
                payment::abandon(state, &order)
                    .await
                    .map_err(anyhow::Error::from)?;
                settled += 1;
            }
            Settled::Unknown => {
                tracing::warn!(order = %order.id, "stale Pending order: the provider did not answer; trying again later");
            }
        }
        if settled > 0 {
            tracing::info!(order = %order.id, "stale Pending order settled");
        }
    }
    Ok(settled)
}
