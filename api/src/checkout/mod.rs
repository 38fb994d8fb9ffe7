//! The checkouts of the bag: express (wallet) checkout in `express`, the standard checkout in
//! `standard`, and what both build on: the orders they create and the confirmation and history
//! that show them (`orders`), where an order may ship and how (`shipping`), settling a payment
//! with the provider (`payment`, `provider`), the operator's order calls (`admin`), settling
//! stale Pending orders (`reconcile`), the stored standard checkout (`record`) and the
//! payment-attempt throttle; the settings are in `crate::config::express`.

pub mod admin;
pub mod express;
pub mod orders;
pub mod payment;
pub mod reconcile;
pub mod record;
pub mod shipping;
pub mod standard;
pub mod throttle;

pub use crate::config::express::ExpressConfig;

use crate::state::AppState;
use utoipa_axum::router::OpenApiRouter;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .merge(express::router())
        .merge(orders::router())
        .merge(standard::router())
        .merge(admin::router())
}
