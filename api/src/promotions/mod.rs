//! Promotions: the bag sync with the outside promotions engine (`POST /cart/promotions`: the cart
//! from the store, priced by the server, evaluated by the engine), and turning the engine's
//! effects into the discounts the bag stores. Its settings are in
//! `crate::config::promotions`, its client in `crate::promotions_client`.

/// The bag's discounts are what an evaluation grants (they were defined here).
pub use crate::bag::{Discounts, LineDiscount};
pub use crate::config::promotions::PromotionsConfig;

use crate::bag::{self, Grant, PricedLine, fingerprint, priced_lines};
use crate::cart::{self, CartRow, CartView, render_after_commit};
use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::json::StrictJson;
use crate::promotions_client::{
    AdditionalCost, CartItem, CartItemAttributes, CustomerSession, Effect,
};
use crate::session::Shopper;
use crate::state::AppState;
use axum::Json;
use axum::extract::State;
use serde::Deserialize;
use std::collections::BTreeMap;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// The additional cost the session declares for delivery. The bag has no delivery method yet, so
/// it is priced 0; an engine rule that discounts it is how the engine grants free shipping.
pub const SHIPPING_COST: &str = "shipping";

// ---- effects -> discounts ------------------------------------------------------------------

/// An engine money value (major units, decimal) in minor units; negative, absent or absurd
/// values grant nothing.
fn minor(value: &serde_json::Value) -> i64 {
    match value.as_f64() {
        Some(v) if v.is_finite() && v > 0.0 && v < 1e12 => bag::minor_units(v),
        _ => 0,
    }
}

/// Turns the engine's effects on the lines that were sent (`lines[i]` is position `i`) into the
/// bag's discounts: `setDiscountPerItem` by position (summed over sub-positions), `setDiscount`
/// on the cart, a discounted shipping cost as free shipping; the bag caps them
/// (`Discounts::granted`). Other effect types (messages, coupon acceptance, loyalty) change no
/// price and are ignored.
pub fn apply_effects(lines: &[PricedLine], effects: &[Effect]) -> Discounts {
    let mut grants = Vec::new();
    let mut free_shipping = false;
    for effect in effects {
        let coupon = effect
            .triggered_by_coupon
            .as_ref()
            .is_some_and(|c| !c.is_null());
        let amount = minor(&effect.props["value"]);
        match effect.effect_type.as_str() {
            "setDiscountPerItem" => {
                if let Some(position) = effect.props["position"].as_u64() {
                    grants.push(Grant::Line {
                        position: position as usize,
                        amount,
                        coupon,
                    });
                }
            }
            "setDiscount" => grants.push(Grant::Cart { amount, coupon }),
            "setDiscountPerAdditionalCost"
                if effect.props["additionalCost"].as_str() == Some(SHIPPING_COST) =>
            {
                free_shipping = true;
            }
            _ => {}
        }
    }
    Discounts::granted(lines, &grants, free_shipping)
}

// ---- the sync endpoint ---------------------------------------------------------------------

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(sync_promotions))
}

/// The sync takes no input: the bag comes from the store and prices from the catalog, never
/// from the client, so any field is refused.
#[derive(Deserialize, ToSchema, Default)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({}))]
pub struct SyncPromotions {}

fn disabled() -> ApiError {
    ApiError::new(
        ErrorCode::PromotionsDisabled,
        "Promotions are not enabled on this shop",
    )
}

fn upstream(e: crate::promotions_client::PromotionsError) -> ApiError {
    ApiError::Upstream {
        code: ErrorCode::PromotionsUnavailable,
        message: format!("The promotions service failed: {e}"),
    }
}

/// The engine's session id for a cart: a hash of the cart's public id (never the cookie's key,
/// the shopper's bearer secret), so the engine's ids tell nothing about the shop's own.
pub fn session_id(cart_id: &str) -> String {
    crate::store::token_hash(cart_id)
}

fn cart_items(lines: &[PricedLine]) -> Vec<CartItem> {
    lines
        .iter()
        .enumerate()
        .map(|(position, l)| CartItem {
            name: l.name.clone(),
            sku: l.sku.clone(),
            quantity: l.quantity,
            price: bag::decimal(l.unit),
            position,
            attributes: CartItemAttributes {
                product_id: l.product_id,
                tmp_variant_id: l.variant_id,
            },
        })
        .collect()
}

async fn customer_email(state: &AppState, customer_id: Option<&str>) -> ApiResult<Option<String>> {
    let Some(id) = customer_id else {
        return Ok(None);
    };
    let mut conn = state.db().pool().acquire().await?;
    crate::account::email_of(&mut conn, id).await
}

/// Evaluates the bag with the promotions engine when the bag opens: the signed-in shopper's
/// profile (created when the engine answers 408), the session with the bag's lines at the
/// server's prices (a dry-run session when the engine answers 404), then the effects as
/// discounts. Answers the cart with them applied; `cart_amount` is the discounted total.
#[utoipa::path(post, path = "/cart/promotions", tag = "cart", params(("market" = Option<crate::contract::MarketCode>, Query)),
    request_body = SyncPromotions,
    responses((status = 200, body = CartView), (status = 404, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody, description = "promotions are off"),
              (status = 502, body = crate::error::ErrorBody, description = "the promotions service failed")))]
async fn sync_promotions(
    State(state): State<AppState>,
    shopper: Shopper,
    StrictJson(_): StrictJson<SyncPromotions>,
) -> ApiResult<Json<CartView>> {
    let Some(engine) = state.promotions() else {
        return Err(disabled());
    };
    let cart_key = cart::cart_key(&shopper)?;
    let (cart, lines) = {
        let mut conn = state.db().pool().acquire().await?;
        let cart = cart::require_cart(&mut conn, state.db(), &shopper, &cart_key, false).await?;
        let lines: Vec<PricedLine> = priced_lines(&mut conn, &state, &shopper.market, &cart.id)
            .await?
            .into_iter()
            .map(|(line, _)| line)
            .collect();
        (cart, lines)
    };
    // An empty bag has nothing to evaluate: no call.
    if lines.is_empty() {
        return Ok(Json(
            render_after_commit(&state, &shopper.market, &cart).await?,
        ));
    }
    // No connection or transaction is held while the engine answers.
    let email = customer_email(&state, shopper.customer_id.as_deref()).await?;
    let market = &shopper.market;
    if let Some(email) = &email {
        let attributes = serde_json::json!({ "locale": market.locale });
        engine
            .ensure_profile(email, attributes)
            .await
            .map_err(upstream)?;
    }
    let mut additional_costs = BTreeMap::new();
    additional_costs.insert(SHIPPING_COST.to_string(), AdditionalCost { price: 0.0 });
    let session = CustomerSession {
        profile_id: email.unwrap_or_default(),
        store_integration_id: state.config().promotions.store_for(market).to_string(),
        state: "open",
        cart_items: cart_items(&lines),
        additional_costs,
    };
    let answer = engine
        .sync_session(&session_id(&cart.id), &session)
        .await
        .map_err(upstream)?;
    let discounts = apply_effects(&lines, &answer.effects);
    save(
        &state,
        &shopper,
        &cart,
        &fingerprint(market, &lines),
        &discounts,
    )
    .await?;
    Ok(Json(render_after_commit(&state, market, &cart).await?))
}

/// Keeps the evaluation with the fingerprint of the bag it was made for. If the bag changed
/// while the engine was answering, the fingerprint no longer matches and the view ignores it.
async fn save(
    state: &AppState,
    shopper: &Shopper,
    cart: &CartRow,
    fingerprint: &str,
    discounts: &Discounts,
) -> ApiResult<()> {
    let mut tx = state.db().write().await?;
    cart::require_cart(&mut tx, state.db(), shopper, &cart.key, true).await?;
    bag::save_discounts(&mut tx, &cart.id, fingerprint, discounts, state.now()).await?;
    tx.commit().await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn line(id: &str, unit: i64, quantity: i64) -> PricedLine {
        PricedLine {
            item_id: id.into(),
            product_id: 1,
            variant_id: 2,
            sku: "S".into(),
            name: "N".into(),
            quantity,
            list: unit,
            unit,
        }
    }

    fn effect(kind: &str, props: serde_json::Value, coupon: bool) -> Effect {
        Effect {
            effect_type: kind.into(),
            props,
            triggered_by_coupon: coupon.then(|| json!(42)),
        }
    }

    #[test]
    fn per_item_discounts_land_on_their_position_and_are_capped() {
        let lines = [line("a", 1000, 2), line("b", 500, 1)];
        let d = apply_effects(
            &lines,
            &[
                effect(
                    "setDiscountPerItem",
                    json!({"position": 0, "subPosition": 0, "value": 2.5}),
                    false,
                ),
                effect(
                    "setDiscountPerItem",
                    json!({"position": 0, "subPosition": 1, "value": 2.5}),
                    false,
                ),
                effect(
                    "setDiscountPerItem",
                    json!({"position": 1, "value": 9.99}),
                    true,
                ),
                effect(
                    "setDiscountPerItem",
                    json!({"position": 7, "value": 1}),
                    false,
                ),
                effect(
                    "setDiscountPerItem",
                    json!({"position": 1, "value": -3}),
                    false,
                ),
            ],
        );
        assert_eq!(
            d.lines["a"],
            LineDiscount {
                discount: 500,
                coupon: 0
            }
        );
        // 9.99 off a 5.00 line: capped at 5.00.
        assert_eq!(
            d.lines["b"],
            LineDiscount {
                discount: 0,
                coupon: 500
            }
        );
        assert_eq!(d.total(), 1000);
    }

    #[test]
    fn the_cart_discount_comes_off_what_is_left() {
        let lines = [line("a", 1000, 1)];
        let d = apply_effects(
            &lines,
            &[
                effect(
                    "setDiscountPerItem",
                    json!({"position": 0, "value": 4}),
                    false,
                ),
                effect("setDiscount", json!({"name": "10 off", "value": 3}), false),
                effect("setDiscount", json!({"value": 100}), true),
                effect("showNotification", json!({"title": "hi"}), false),
                effect(
                    "setDiscountPerAdditionalCost",
                    json!({"additionalCost": "shipping", "value": 0}),
                    false,
                ),
            ],
        );
        assert_eq!(d.cart, 600);
        assert_eq!(d.cart_coupon, 300);
        assert!(d.free_shipping);
        assert_eq!(d.total(), 1000);
    }

    #[test]
    fn a_fingerprint_changes_with_quantity_or_price() {
        let m = &domain::market::MARKETS[0];
        let a = fingerprint(m, &[line("a", 1000, 1)]);
        assert_eq!(a, fingerprint(m, &[line("a", 1000, 1)]));
        assert_ne!(a, fingerprint(m, &[line("a", 1000, 2)]));
        assert_ne!(a, fingerprint(m, &[line("a", 900, 1)]));
    }
}
