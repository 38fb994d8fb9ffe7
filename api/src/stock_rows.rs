//! Stock as the store's rows say it: a variant's inventory summed over its enabled locations
//! (`StockRow`, read from `catalog_variant` and `inventory`), and what that leaves to sell in a
//! market (`Availability`). The catalog keeps these rows as its in-memory snapshot.

use crate::error::ApiResult;
use crate::inventory::SECOND_WAREHOUSE;
use crate::rows::row;
use crate::store::placeholders;
use domain::market::{Market, UK};
use std::collections::HashMap;

/// Sellable stock of one variant in one market.
#[derive(Debug, Clone, Copy)]
pub struct Availability {
    /// False for products without inventory tracking (gift cards): never limited.
    pub tracked: bool,
    /// Whether any inventory record exists for the variant.
    pub recorded: bool,
    pub available: i64,
}

impl Availability {
    /// The add-to-bag rule: tracked stock must exist, be above zero, and cover the quantity.
    pub fn allows(&self, total_quantity: i64) -> bool {
        !self.tracked || (self.recorded && self.available > 0 && total_quantity <= self.available)
    }
}

/// One variant's inventory as stored: enough to compute its availability in any market.
#[derive(Debug, Clone, Copy, Default)]
pub struct StockRow {
    pub tracked: bool,
    pub records: i64,
    /// Sum over enabled locations.
    pub enabled_total: i64,
    /// The enabled second warehouse's part of that sum.
    pub enabled_second: i64,
}

impl StockRow {
    /// Sellable units in `market`: every enabled location, less location 2 outside the UK when
    /// the deduction setting is on. Oversold locations can report negative stock; nobody can buy
    /// below zero.
    pub fn in_market(&self, market: &Market, deduct_second_outside_uk: bool) -> Availability {
        let mut units = self.enabled_total;
        if deduct_second_outside_uk && market.code != UK.code {
            units -= self.enabled_second;
        }
        Availability {
            tracked: self.tracked,
            recorded: self.records > 0,
            available: units.max(0),
        }
    }
}

/// Stock rows of every variant as the store holds them, by variant id (the catalog's snapshot).
pub type StockSnapshot = HashMap<u64, StockRow>;

row! {
    /// A variant's inventory rows summed in the query.
    struct SummedRow {
        variant_id: i64,
        tracked: i64,
        records: i64,
        enabled_total: i64,
        enabled_second: i64,
    }
}

/// Stock rows for `variant_ids` (all variants when `None`); unknown variants are absent.
pub async fn stock_rows(
    conn: &mut sqlx::AnyConnection,
    variant_ids: Option<&[u64]>,
) -> ApiResult<HashMap<u64, StockRow>> {
    let filter = match variant_ids {
        Some([]) => return Ok(HashMap::new()),
        Some(ids) => format!("WHERE cv.variant_id IN ({})", placeholders(1, ids.len())),
        None => String::new(),
    };
    let sql = format!(
        "SELECT cv.variant_id, cv.tracked, COUNT(i.variant_id) AS records, \
         CAST(COALESCE(SUM(CASE WHEN i.enabled = 1 THEN i.available ELSE 0 END), 0) AS BIGINT) \
              AS enabled_total, \
         CAST(COALESCE(SUM(CASE WHEN i.enabled = 1 AND i.location_id = {SECOND_WAREHOUSE} \
              THEN i.available ELSE 0 END), 0) AS BIGINT) AS enabled_second \
         FROM catalog_variant cv LEFT JOIN inventory i ON i.variant_id = cv.variant_id \
         {filter} GROUP BY cv.variant_id, cv.tracked"
    );
    let mut q = sqlx::query_as::<_, SummedRow>(sqlx::AssertSqlSafe(sql));
    for id in variant_ids.unwrap_or_default() {
        q = q.bind(*id as i64);
    }
    let rows = q.fetch_all(&mut *conn).await?;
    Ok(rows
        .into_iter()
        .map(|r| {
            let row = StockRow {
                tracked: r.tracked != 0,
                records: r.records,
                enabled_total: r.enabled_total,
                enabled_second: r.enabled_second,
            };
            (r.variant_id as u64, row)
        })
        .collect())
}
