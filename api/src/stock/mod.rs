//! Live stock: availability by variant and by product, inventory at locations, the colour /
//! size / length availability rules the product page shows, and the low-stock (< 5) and
//! sold-out (0) flags. Read from the store, which the catalog import fills.

use crate::error::{ApiError, ApiResult};
use crate::rows::row;
use crate::session::market_from_query;
use crate::state::AppState;
use crate::store::placeholders;
use axum::Json;
use axum::extract::{Path, RawQuery, State};
use domain::catalog::{OptionKind, Product};
use domain::market::Market;
use serde::Serialize;
use std::collections::HashMap;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Fewer than this many units is "low stock".
pub const LOW_STOCK_BELOW: i64 = 5;
/// Most ids one stock call may ask about (the spec's variant fetch limit).
pub const MAX_IDS: usize = 250;
/// The location deducted outside the UK when the setting is on.
pub use crate::inventory::SECOND_WAREHOUSE;
pub use crate::stock_rows::{Availability, StockRow, StockSnapshot, stock_rows};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(by_variants))
        .routes(routes!(by_product))
        .routes(routes!(at_locations))
}

/// Availability of `variant_ids` in `market`, read inside `conn` (the add-to-bag transaction);
/// unknown variants are absent from the map.
pub async fn availability(
    conn: &mut sqlx::AnyConnection,
    state: &AppState,
    market: &Market,
    variant_ids: &[u64],
) -> ApiResult<HashMap<u64, Availability>> {
    let deduct = state.config().deduct_location_2_outside_uk;
    Ok(stock_rows(conn, Some(variant_ids))
        .await?
        .into_iter()
        .map(|(id, row)| (id, row.in_market(market, deduct)))
        .collect())
}

/// Availability from the snapshot the catalog import leaves in memory (the same rows as the store,
/// reloaded after every import): the read-only stock calls answer in microseconds without a
/// database round trip. Writes still check the store inside their transaction.
fn snapshot_availability(
    state: &AppState,
    market: &Market,
    variant_ids: &[u64],
) -> HashMap<u64, Availability> {
    let deduct = state.config().deduct_location_2_outside_uk;
    let snapshot = state.stock_snapshot();
    variant_ids
        .iter()
        .filter_map(|id| {
            snapshot
                .get(id)
                .map(|row| (*id, row.in_market(market, deduct)))
        })
        .collect()
}

/// A variant's live stock for display (the bag, the wishlist) from the snapshot: a variant with no
/// stock rows shows as sold out.
pub fn shown(
    snapshot: &StockSnapshot,
    market: &Market,
    deduct_second_outside_uk: bool,
    variant_id: u64,
) -> VariantStock {
    let a = snapshot
        .get(&variant_id)
        .map(|row| row.in_market(market, deduct_second_outside_uk))
        .unwrap_or(Availability {
            tracked: true,
            recorded: false,
            available: 0,
        });
    VariantStock::new(variant_id, &a)
}

#[derive(Serialize, ToSchema)]
pub struct VariantStock {
    pub variant_id: u64,
    pub tracked: bool,
    /// Sellable units in the market; null when the product does not track stock.
    pub available_to_sell: Option<i64>,
    pub low_stock: bool,
    pub sold_out: bool,
}

impl VariantStock {
    pub fn new(variant_id: u64, a: &Availability) -> VariantStock {
        let available = a.available;
        VariantStock {
            variant_id,
            tracked: a.tracked,
            available_to_sell: a.tracked.then_some(available),
            low_stock: a.tracked && available > 0 && available < LOW_STOCK_BELOW,
            sold_out: a.tracked && available <= 0,
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct StockList {
    pub market: String,
    pub data: Vec<VariantStock>,
    /// Requested ids that are not in the catalog.
    pub unknown: Vec<u64>,
}

/// `name=1,2,3` from the query: ids, at most `MAX_IDS`, each a positive integer.
pub fn id_list(query: Option<&str>, name: &str) -> ApiResult<Option<Vec<u64>>> {
    let Some(raw) = query_value(query, name) else {
        return Ok(None);
    };
    let raw = raw.replace("%2C", ",").replace("%2c", ",");
    let ids: Result<Vec<u64>, _> = raw
        .split(',')
        .filter(|s| !s.is_empty())
        .map(|s| s.trim().parse::<u64>())
        .collect();
    let ids = ids.map_err(|_| ApiError::field(name, "must be a comma-separated list of ids"))?;
    if ids.is_empty() {
        return Err(ApiError::field(name, "must list at least one id"));
    }
    if ids.len() > MAX_IDS {
        return Err(ApiError::field(
            name,
            format!("must list at most {MAX_IDS} ids"),
        ));
    }
    Ok(Some(ids))
}

/// The raw value of a query parameter (no percent-decoding: our values are ids and codes).
pub fn query_value<'a>(query: Option<&'a str>, name: &str) -> Option<&'a str> {
    query?
        .split('&')
        .filter_map(|kv| kv.split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

/// Availability by variant ids.
#[utoipa::path(get, path = "/stock", tag = "stock",
    params(("variant_ids" = String, Query, description = "Comma-separated variant ids (at most 250)"),
           ("market" = Option<crate::contract::MarketCode>, Query, description = "uk (default), us or eu")),
    responses((status = 200, body = StockList), (status = 400, body = crate::error::ErrorBody)))]
async fn by_variants(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
) -> ApiResult<Json<StockList>> {
    let market = market_from_query(query.as_deref())?;
    let ids = id_list(query.as_deref(), "variant_ids")?
        .ok_or_else(|| ApiError::field("variant_ids", "is required"))?;
    let found = snapshot_availability(&state, &market, &ids);
    let mut data = Vec::with_capacity(ids.len());
    let mut unknown = Vec::new();
    for id in ids {
        match found.get(&id) {
            Some(a) => data.push(VariantStock::new(id, a)),
            None => unknown.push(id),
        }
    }
    Ok(Json(StockList {
        market: market.code.to_string(),
        data,
        unknown,
    }))
}

#[derive(Serialize, ToSchema)]
pub struct OptionAvailability {
    pub value_id: u64,
    pub label: String,
    /// Colours: whether any variant of the colour has stock. Sizes and lengths: the summed stock of
    /// the variants with this value and the other selected values; null when no variant matches.
    pub available: Option<i64>,
    pub in_stock: bool,
}

#[derive(Serialize, ToSchema)]
pub struct ProductStock {
    pub product_id: u64,
    pub market: String,
    pub tracked: bool,
    pub variants: Vec<VariantStock>,
    pub colours: Vec<OptionAvailability>,
    pub sizes: Vec<OptionAvailability>,
    pub lengths: Vec<OptionAvailability>,
    /// Every variant of the product is out of stock.
    pub sold_out: bool,
}

/// Selected option values that constrain size/length availability.
#[derive(Default, Clone, Copy)]
pub struct Selection {
    pub colour: Option<u64>,
    pub size: Option<u64>,
    pub length: Option<u64>,
}

/// Colour, size and length availability, pure: a colour is in stock if any of its variants
/// is; a size or length sums the variants matching it and the other choices. `stock` maps
/// variant id to sellable units (untracked counts as available).
pub fn option_availability(
    product: &Product,
    stock: &HashMap<u64, i64>,
    sel: Selection,
) -> [Vec<OptionAvailability>; 3] {
    let units = |v: &domain::catalog::Variant| stock.get(&v.id).copied().unwrap_or(0).max(0);
    let colours = product
        .option(OptionKind::Colour)
        .map(|o| {
            o.values
                .iter()
                .map(|val| {
                    let in_stock = product
                        .variants
                        .iter()
                        .any(|v| v.colour == Some(val.id) && units(v) > 0);
                    OptionAvailability {
                        value_id: val.id,
                        label: val.label.clone(),
                        available: None,
                        in_stock,
                    }
                })
                .collect()
        })
        .unwrap_or_default();
    let summed = |kind: OptionKind| -> Vec<OptionAvailability> {
        let Some(option) = product.option(kind) else {
            return Vec::new();
        };
        option
            .values
            .iter()
            .map(|val| {
                let matching: Vec<i64> = product
                    .variants
                    .iter()
                    .filter(|v| {
                        let (own, others) = match kind {
                            OptionKind::Size => {
                                (v.size, [(v.colour, sel.colour), (v.length, sel.length)])
                            }
                            _ => (v.length, [(v.colour, sel.colour), (v.size, sel.size)]),
                        };
                        own == Some(val.id)
                            && others
                                .iter()
                                .all(|(have, want)| want.is_none() || have == want)
                    })
                    .map(units)
                    .collect();
                let available = (!matching.is_empty()).then(|| matching.iter().sum());
                OptionAvailability {
                    value_id: val.id,
                    label: val.label.clone(),
                    available,
                    in_stock: available.unwrap_or(0) > 0,
                }
            })
            .collect()
    };
    [
        colours,
        summed(OptionKind::Size),
        summed(OptionKind::Length),
    ]
}

fn selected(query: Option<&str>, name: &str) -> ApiResult<Option<u64>> {
    query_value(query, name)
        .filter(|v| !v.is_empty())
        .map(|v| {
            v.parse::<u64>()
                .map_err(|_| ApiError::field(name, "must be an option value id"))
        })
        .transpose()
}

/// Availability of a product's variants and options.
#[utoipa::path(get, path = "/stock/products/{product_id}", tag = "stock",
    params(("product_id" = u64, Path), ("market" = Option<crate::contract::MarketCode>, Query),
           ("colour" = Option<u64>, Query, description = "Selected colour value id"),
           ("size" = Option<u64>, Query, description = "Selected size value id"),
           ("length" = Option<u64>, Query, description = "Selected length value id")),
    responses((status = 200, body = ProductStock), (status = 404, body = crate::error::ErrorBody)))]
async fn by_product(
    State(state): State<AppState>,
    Path(product_id): Path<String>,
    RawQuery(query): RawQuery,
) -> ApiResult<Json<ProductStock>> {
    let q = query.as_deref();
    let market = market_from_query(q)?;
    let sel = Selection {
        colour: selected(q, "colour")?,
        size: selected(q, "size")?,
        length: selected(q, "length")?,
    };
    let product_id: u64 = product_id
        .parse()
        .map_err(|_| ApiError::field("product_id", "must be a product id"))?;
    let catalog = state.catalog();
    let product = catalog
        .product(product_id)
        .ok_or_else(ApiError::not_found)?;
    let ids: Vec<u64> = product.variants.iter().map(|v| v.id).collect();
    let found = snapshot_availability(&state, &market, &ids);
    let tracked = found.values().any(|a| a.tracked);
    let units: HashMap<u64, i64> = found
        .iter()
        .map(|(id, a)| {
            (
                *id,
                if a.tracked {
                    a.available
                } else {
                    i64::MAX / 1024
                },
            )
        })
        .collect();
    let [colours, sizes, lengths] = option_availability(product, &units, sel);
    let variants: Vec<VariantStock> = ids
        .iter()
        .filter_map(|id| found.get(id).map(|a| VariantStock::new(*id, a)))
        .collect();
    let sold_out = tracked && variants.iter().all(|v| v.sold_out);
    Ok(Json(ProductStock {
        product_id,
        market: market.code.to_string(),
        tracked,
        variants,
        colours,
        sizes,
        lengths,
        sold_out,
    }))
}

#[derive(Serialize, ToSchema)]
pub struct Identity {
    pub sku: String,
    pub variant_id: u64,
}

#[derive(Serialize, ToSchema)]
pub struct LocationRecord {
    pub location_id: u64,
    pub location_enabled: bool,
    pub available_to_sell: i64,
}

#[derive(Serialize, ToSchema)]
#[allow(non_snake_case)]
pub struct InventoryRecord {
    pub identity: Identity,
    /// The spec's field name.
    pub allLocationsTotalAvailableToSell: i64,
    pub locations: Vec<LocationRecord>,
}

#[derive(Serialize, ToSchema)]
pub struct InventoryList {
    pub data: Vec<InventoryRecord>,
}

row! {
    /// One inventory location of a variant, as stored.
    struct LocationRow {
        variant_id: i64,
        sku: String,
        location_id: i64,
        enabled: i64,
        available: i64,
    }
}

/// Inventory at locations (1 = main warehouse, 2 = second), by variant ids, product ids or skus.
#[utoipa::path(get, path = "/stock/locations", tag = "stock",
    params(("variant_ids" = Option<String>, Query), ("product_ids" = Option<String>, Query),
           ("skus" = Option<String>, Query, description = "Comma-separated skus")),
    responses((status = 200, body = InventoryList), (status = 400, body = crate::error::ErrorBody)))]
async fn at_locations(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
) -> ApiResult<Json<InventoryList>> {
    let q = query.as_deref();
    let catalog = state.catalog();
    let mut variant_ids: Vec<u64> = Vec::new();
    if let Some(ids) = id_list(q, "variant_ids")? {
        variant_ids.extend(ids);
    }
    if let Some(ids) = id_list(q, "product_ids")? {
        for id in ids {
            if let Some(p) = catalog.product(id) {
                variant_ids.extend(p.variants.iter().map(|v| v.id));
            }
        }
    }
    if let Some(skus) = query_value(q, "skus") {
        let skus: Vec<&str> = skus.split(',').filter(|s| !s.is_empty()).collect();
        if skus.len() > MAX_IDS {
            return Err(ApiError::field(
                "skus",
                format!("must list at most {MAX_IDS} skus"),
            ));
        }
        let by_sku: HashMap<&str, u64> = catalog
            .products
            .iter()
            .flat_map(|p| p.variants.iter().map(|v| (v.sku.as_str(), v.id)))
            .collect();
        variant_ids.extend(skus.iter().filter_map(|s| by_sku.get(s).copied()));
    }
    if q.is_none_or(|q| {
        !["variant_ids=", "product_ids=", "skus="]
            .iter()
            .any(|k| q.contains(k))
    }) {
        return Err(ApiError::field(
            "variant_ids",
            "one of variant_ids, product_ids or skus is required",
        ));
    }
    variant_ids.sort_unstable();
    variant_ids.dedup();
    variant_ids.truncate(MAX_IDS * 4);
    let mut data = Vec::new();
    if !variant_ids.is_empty() {
        let sql = format!(
            "SELECT cv.variant_id, cv.sku, i.location_id, i.enabled, i.available \
             FROM catalog_variant cv JOIN inventory i ON i.variant_id = cv.variant_id \
             WHERE cv.variant_id IN ({}) ORDER BY cv.variant_id, i.location_id",
            placeholders(1, variant_ids.len())
        );
        let mut query = sqlx::query_as::<_, LocationRow>(sqlx::AssertSqlSafe(sql));
        for id in &variant_ids {
            query = query.bind(*id as i64);
        }
        let rows = query.fetch_all(state.db().pool()).await?;
        for LocationRow {
            variant_id,
            sku,
            location_id,
            enabled,
            available,
        } in rows
        {
            let variant_id = variant_id as u64;
            if data
                .last()
                .is_none_or(|r: &InventoryRecord| r.identity.variant_id != variant_id)
            {
                data.push(InventoryRecord {
                    identity: Identity { sku, variant_id },
                    allLocationsTotalAvailableToSell: 0,
                    locations: Vec::new(),
                });
            }
            let record = data.last_mut().expect("pushed above");
            if enabled != 0 {
                record.allLocationsTotalAvailableToSell += available.max(0);
            }
            record.locations.push(LocationRecord {
                location_id: location_id as u64,
                location_enabled: enabled != 0,
                available_to_sell: available,
            });
        }
    }
    Ok(Json(InventoryList { data }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_add_to_bag_rule() {
        let a = Availability {
            tracked: true,
            recorded: true,
            available: 3,
        };
        assert!(a.allows(3));
        assert!(!a.allows(4));
        assert!(
            !Availability {
                tracked: true,
                recorded: false,
                available: 0
            }
            .allows(1)
        );
        assert!(
            !Availability {
                tracked: true,
                recorded: true,
                available: 0
            }
            .allows(1)
        );
        assert!(
            Availability {
                tracked: false,
                recorded: false,
                available: 0
            }
            .allows(1000)
        );
    }

    #[test]
    fn flags_follow_the_thresholds() {
        let s = |n| {
            VariantStock::new(
                1,
                &Availability {
                    tracked: true,
                    recorded: true,
                    available: n,
                },
            )
        };
        assert!(s(4).low_stock && !s(4).sold_out);
        assert!(!s(5).low_stock);
        assert!(s(0).sold_out && !s(0).low_stock);
    }

    #[test]
    fn id_lists_are_validated() {
        assert_eq!(
            id_list(Some("variant_ids=1,2"), "variant_ids").unwrap(),
            Some(vec![1, 2])
        );
        assert!(id_list(Some("variant_ids=1,x"), "variant_ids").is_err());
        assert!(id_list(Some("variant_ids="), "variant_ids").is_err());
        assert_eq!(id_list(Some("a=1"), "variant_ids").unwrap(), None);
    }
}
