//! The only writer of the `inventory` table: the platform's stock report (catalog import), the
//! units an order takes and the units a cancelled order gives back.
//!
//! The rules it keeps:
//! - `available` never goes below zero (the schema's CHECK as well): an order takes stock with the
//!   rows locked in (variant, location) order and a guarded `UPDATE … WHERE available >= units`
//!   that must touch one row, so two orders can never both take the last unit.
//! - A stock report counts what the platform knew when the export was written. Units that
//!   orders took since then (orders created at or after the report's time and not cancelled) are
//!   taken from it again at import, so a re-import never gives back sold stock. When those orders
//!   took more than the report says, `available` is 0 and the difference is kept in `oversold`;
//!   a cancelled order's units first pay that back (available − oversold = reported − taken).

use crate::error::{ApiError, ApiResult};
use crate::store::{Db, Tx, placeholders, values_clause};
use domain::market::{Market, UK};
use std::collections::HashMap;

/// Location 2 is the second warehouse, not sellable outside the UK when the deduction is on.
pub const SECOND_WAREHOUSE: i64 = 2;

/// One location's row of the platform's stock report.
pub struct Reported {
    pub variant_id: u64,
    pub location_id: u64,
    pub enabled: bool,
    pub available: i64,
}

/// Which warehouses `quantity` units come from: the main warehouse first, then the others in id
/// order, never location 2 where the market may not sell it, never below zero. `None` when the
/// sellable stock does not cover the quantity.
pub fn allocate(
    locations: &[(i64, i64)],
    quantity: i64,
    market: &Market,
    deduct_second_outside_uk: bool,
) -> Option<Vec<(i64, i64)>> {
    let mut left = quantity;
    let mut out = Vec::new();
    for &(location, units) in locations {
        if left == 0 {
            break;
        }
        if deduct_second_outside_uk && market.code != UK.code && location == SECOND_WAREHOUSE {
            continue;
        }
        let take = units.max(0).min(left);
        if take > 0 {
            out.push((location, take));
            left -= take;
        }
    }
    (left == 0).then_some(out)
}

/// Takes `quantity` units of `variant` for an order inside `tx`: locks the variant's enabled rows
/// (callers take variants in ascending id order, so two orders never wait on each other in a
/// ring), allocates them and takes each part with a guarded update. `None` when the stock does not
/// cover the quantity now; nothing was taken then.
pub async fn take(
    tx: &mut Tx,
    db: &Db,
    variant: u64,
    quantity: i64,
    market: &Market,
    deduct_second_outside_uk: bool,
) -> ApiResult<Option<Vec<(i64, i64)>>> {
    let sql = format!(
        "SELECT location_id, available FROM inventory WHERE variant_id = $1 AND enabled = 1 \
         ORDER BY location_id{}",
        db.for_update()
    );
    let here: Vec<(i64, i64)> = sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(variant as i64)
        .fetch_all(&mut **tx)
        .await?;
    let Some(parts) = allocate(&here, quantity, market, deduct_second_outside_uk) else {
        return Ok(None);
    };
    for (location, units) in &parts {
        let changed = sqlx::query(
            "UPDATE inventory SET available = available - $1 \
             WHERE variant_id = $2 AND location_id = $3 AND available >= $1",
        )
        .bind(units)
        .bind(variant as i64)
        .bind(location)
        .execute(&mut **tx)
        .await?
        .rows_affected();
        if changed != 1 {
            // Only reachable if the row changed under the lock; the caller's transaction is
            // dropped, so the parts already taken go back with it.
            return Err(ApiError::stock_exceeded("quantity"));
        }
    }
    Ok(Some(parts))
}

/// Gives back what an order took (its allocations), paying back `oversold` first.
pub async fn put_back(tx: &mut Tx, variant: u64, parts: &[(i64, i64)]) -> ApiResult<()> {
    for (location, units) in parts {
        sqlx::query(
            "UPDATE inventory SET \
             available = available + CASE WHEN oversold >= $1 THEN 0 ELSE $1 - oversold END, \
             oversold = CASE WHEN oversold >= $1 THEN oversold - $1 ELSE 0 END \
             WHERE variant_id = $2 AND location_id = $3",
        )
        .bind(units)
        .bind(variant as i64)
        .bind(location)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

/// Enabled units of `ids` at `location`, per variant (absent: none there).
pub async fn units_at(
    conn: &mut sqlx::AnyConnection,
    location: i64,
    ids: &[u64],
) -> ApiResult<HashMap<u64, i64>> {
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    let sql = format!(
        "SELECT variant_id, available FROM inventory \
         WHERE enabled = 1 AND location_id = $1 AND variant_id IN ({})",
        placeholders(2, ids.len())
    );
    let mut q = sqlx::query_as::<_, (i64, i64)>(sqlx::AssertSqlSafe(sql)).bind(location);
    for id in ids {
        q = q.bind(*id as i64);
    }
    Ok(q.fetch_all(&mut *conn)
        .await?
        .into_iter()
        .map(|(v, units)| (v as u64, units))
        .collect())
}

/// Sets a variant's stock to `units` at the main warehouse and none elsewhere: an operator's
/// correction (and the benchmarks' set-up), outside any order.
pub async fn set_main_warehouse_stock(db: &Db, variant: u64, units: i64) -> ApiResult<()> {
    let mut tx = db.write().await?;
    sqlx::query("UPDATE inventory SET available = 0, oversold = 0 WHERE variant_id = $1")
        .bind(variant as i64)
        .execute(&mut *tx)
        .await?;
    sqlx::query(
        "UPDATE inventory SET available = $1, enabled = 1 WHERE variant_id = $2 AND location_id = 1",
    )
    .bind(units)
    .bind(variant as i64)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

/// `(location, available)` of a variant, in location order.
pub async fn levels(conn: &mut sqlx::AnyConnection, variant: u64) -> ApiResult<Vec<(i64, i64)>> {
    Ok(sqlx::query_as(
        "SELECT location_id, available FROM inventory WHERE variant_id = $1 ORDER BY location_id",
    )
    .bind(variant as i64)
    .fetch_all(&mut *conn)
    .await?)
}

/// Units that orders created at or after `since` and not cancelled took, per (variant, location).
pub async fn taken_since(
    conn: &mut sqlx::AnyConnection,
    since: i64,
) -> anyhow::Result<HashMap<(u64, i64), i64>> {
    let rows: Vec<(i64, String)> = sqlx::query_as(
        "SELECT l.variant_id, l.allocations FROM shop_order_line l \
         JOIN shop_order o ON o.id = l.order_id \
         WHERE o.created_at >= $1 AND o.status <> 'Cancelled'",
    )
    .bind(since)
    .fetch_all(&mut *conn)
    .await?;
    let mut taken = HashMap::new();
    for (variant, allocations) in rows {
        let parts: Vec<(i64, i64)> = serde_json::from_str(&allocations)
            .map_err(|e| anyhow::anyhow!("shop_order_line allocations {allocations:?}: {e}"))?;
        for (location, units) in parts {
            *taken.entry((variant as u64, location)).or_insert(0) += units;
        }
    }
    Ok(taken)
}

const BATCH: usize = 200;

/// Replaces the whole table with a stock report made at `reported_at` (unix seconds), less what
/// orders took since then (see the module rule).
pub async fn replace(tx: &mut Tx, mut rows: Vec<Reported>, reported_at: i64) -> anyhow::Result<()> {
    let taken = taken_since(tx, reported_at).await?;
    sqlx::query("DELETE FROM inventory")
        .execute(&mut **tx)
        .await?;
    rows.sort_unstable_by_key(|r| (r.variant_id, r.location_id));
    for chunk in rows.chunks(BATCH) {
        let sql = format!(
            "INSERT INTO inventory (variant_id, location_id, enabled, available, oversold) VALUES {}",
            values_clause(chunk.len(), 5)
        );
        let mut q = sqlx::query(sqlx::AssertSqlSafe(sql));
        for r in chunk {
            let left = r.available
                - taken
                    .get(&(r.variant_id, r.location_id as i64))
                    .copied()
                    .unwrap_or(0);
            q = q
                .bind(r.variant_id as i64)
                .bind(r.location_id as i64)
                .bind(r.enabled as i64)
                .bind(left.max(0))
                .bind((-left).max(0));
        }
        q.execute(&mut **tx).await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use domain::market::MARKETS;

    #[test]
    fn stock_is_taken_from_the_main_warehouse_first() {
        let uk = &MARKETS[0];
        assert_eq!(
            allocate(&[(1, 2), (2, 5)], 4, uk, true),
            Some(vec![(1, 2), (2, 2)])
        );
        assert_eq!(
            allocate(&[(1, 5), (2, 5)], 3, uk, false),
            Some(vec![(1, 3)])
        );
        assert_eq!(allocate(&[(1, 0), (2, 2)], 3, uk, false), None);
        // Outside the UK with the deduction on, location 2 is not sellable.
        let us = &MARKETS[1];
        assert_eq!(allocate(&[(1, 2), (2, 5)], 3, us, true), None);
        assert_eq!(
            allocate(&[(1, 2), (2, 5)], 3, us, false),
            Some(vec![(1, 2), (2, 1)])
        );
    }
}
