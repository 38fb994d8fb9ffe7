//! `GET /variants?variant_ids=…`: what the wishlist shows of each variant — name, link, image,
//! price in the market's currency, the options, whether it can be bought, and live stock — priced
//! and stocked exactly as a bag line would be (the store's prices, the stock snapshot).

use super::view::{line_image, line_url, variant_options};
use crate::bag::{LineOption, decimal, variant_prices};
use crate::error::ApiResult;
use crate::session::market_from_query;
use crate::state::AppState;
use crate::stock::id_list;
use axum::Json;
use axum::extract::{RawQuery, State};
use serde::Serialize;
use std::collections::{HashMap, HashSet};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(variant_summaries))
}

#[derive(Serialize, ToSchema)]
pub struct VariantSummary {
    pub product_id: u64,
    pub variant_id: u64,
    pub sku: String,
    pub name: String,
    pub url: String,
    pub image_url: Option<String>,
    pub is_gift_card: bool,
    /// Decimal major units, like the cart's.
    pub list_price: f64,
    /// The price to pay: the sale price when there is one.
    pub sale_price: f64,
    pub options: Vec<LineOption>,
    /// Not disabled in the catalog and not sold out.
    pub purchasable: bool,
    pub available_to_sell: Option<i64>,
    pub low_stock: bool,
    pub sold_out: bool,
}

#[derive(Serialize, ToSchema)]
pub struct VariantSummaryList {
    pub market: String,
    pub currency: String,
    pub data: Vec<VariantSummary>,
    /// Ids not in the catalog (or without a price in this market), in the order asked.
    pub unknown: Vec<u64>,
}

/// Variants for display (wishlist), in the order asked.
#[utoipa::path(get, path = "/variants", tag = "cart",
    params(("variant_ids" = String, Query, description = "Comma-separated variant ids (at most 250)"),
           ("market" = Option<crate::contract::MarketCode>, Query, description = "uk (default), us or eu")),
    responses((status = 200, body = VariantSummaryList), (status = 400, body = crate::error::ErrorBody)))]
async fn variant_summaries(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
) -> ApiResult<Json<VariantSummaryList>> {
    let market = market_from_query(query.as_deref())?;
    let ids = id_list(query.as_deref(), "variant_ids")?
        .ok_or_else(|| crate::error::ApiError::field("variant_ids", "is required"))?;
    let wanted: HashSet<u64> = ids.iter().copied().collect();
    let catalog = state.catalog();
    // One pass over the catalog finds every asked variant's product.
    let mut found = HashMap::new();
    for product in &catalog.products {
        for variant in &product.variants {
            if wanted.contains(&variant.id) {
                found.insert(variant.id, (product, variant));
            }
        }
    }
    let mut conn = state.db().pool().acquire().await?;
    let prices = variant_prices(&mut conn, &market, &ids).await?;
    let deduct = state.config().deduct_location_2_outside_uk;
    let snapshot = state.stock_snapshot();
    let mut data = Vec::with_capacity(ids.len());
    let mut unknown = Vec::new();
    for id in ids {
        let (Some((product, variant)), Some(price)) = (found.get(&id), prices.get(&id)) else {
            unknown.push(id);
            continue;
        };
        let live = crate::stock::shown(&snapshot, &market, deduct, id);
        data.push(VariantSummary {
            product_id: product.id,
            variant_id: id,
            sku: price.sku.clone(),
            name: product.name.clone(),
            url: market.path(&line_url(product, variant)),
            image_url: Some(line_image(&catalog, product, variant)),
            is_gift_card: product.is_gift_card,
            list_price: decimal(price.list),
            sale_price: decimal(price.unit),
            options: variant_options(product, variant),
            purchasable: !variant.purchasing_disabled && !live.sold_out,
            available_to_sell: live.available_to_sell,
            low_stock: live.low_stock,
            sold_out: live.sold_out,
        });
    }
    Ok(Json(VariantSummaryList {
        market: market.code.to_string(),
        currency: domain::money::Money::new(0, market.currency)
            .currency
            .code()
            .to_string(),
        data,
        unknown,
    }))
}
