//! The payment-attempt throttle both checkouts apply before they write anything, so a refused
//! attempt changes nothing (the limits are in `crate::config::express`).

use crate::config::express::{PAYMENT_WINDOW_SECS, PAYMENTS_PER_CHECKOUT};
use crate::error::ApiResult;
use crate::session::Shopper;
use crate::state::AppState;

/// Counts a payment attempt on `checkout_id`, then one from the shopper's address; 429 at the
/// first of the two that has used up its attempts in the window.
pub async fn admit_payment(
    state: &AppState,
    shopper: &Shopper,
    checkout_id: &str,
    now: i64,
) -> ApiResult<()> {
    for (key, limit) in [
        (format!("payment:{checkout_id}"), PAYMENTS_PER_CHECKOUT),
        (
            format!("payment:{}", shopper.client_key()),
            state.config().payment_attempts_per_client,
        ),
    ] {
        state
            .limiter()
            .admit(&key, limit, PAYMENT_WINDOW_SECS, now)
            .await?;
    }
    Ok(())
}
