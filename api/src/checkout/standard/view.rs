//! What the standard checkout shows after every step: the bag's lines with their stock state, the
//! consignment with its shipping options, billing, totals from the bag, the countries this market
//! delivers to and the next step.

use crate::account::address::{AddressInput, COUNTRIES, postal_code_label};
use crate::bag::{LineOption, decimal, priced_bag};
use crate::checkout::record::{BillingView, Opened, open};
use crate::checkout::shipping;
use crate::error::ApiResult;
use crate::session::Shopper;
use crate::state::AppState;
use crate::stock::VariantStock;
use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use domain::market::Market;
use serde::Serialize;
use std::collections::HashMap;
use utoipa::ToSchema;

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

/// Where this market's checkout delivers: the UK store to the UK, Jersey and Guernsey, the
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

pub(super) async fn view(
    conn: &mut sqlx::AnyConnection,
    state: &AppState,
    shopper: &Shopper,
    opened: &Opened,
    reduced: &HashMap<String, i64>,
) -> ApiResult<CheckoutView> {
    let market = &shopper.market;
    let bag = priced_bag(conn, state, market, &opened.cart.id).await?;
    let cart = crate::cart::render_bag(state, market, &opened.cart, &bag, &state.stock_snapshot());
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
pub(super) async fn answer(
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
