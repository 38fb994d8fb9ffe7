//! Fixed-window rate limits (sign-in, registration, reset links, payment attempts) kept in the
//! store, so every API host on one database counts the same hits: a client cannot multiply its
//! attempts by the number of hosts behind the load balancer. The only writer of `rate_window`.

use crate::error::{ApiError, ApiResult};
use crate::store::{Db, Tx};

/// The rate limits of one store. A window starts at a key's first hit and lasts `window` seconds;
/// a hit after it has ended starts a new one.
pub struct Limiter<'a> {
    db: &'a Db,
}

/// Counts one hit, restarting the window when it has ended; `$5` is the hit limit when the hit
/// must be refused at the limit (nothing is counted then, and no row is returned).
const UPSERT: &str = "INSERT INTO rate_window (key, started_at, ends_at, hits) VALUES ($1, $2, $3, 1) \
     ON CONFLICT (key) DO UPDATE SET \
     started_at = CASE WHEN rate_window.ends_at <= $2 THEN $2 ELSE rate_window.started_at END, \
     ends_at = CASE WHEN rate_window.ends_at <= $2 THEN $3 ELSE rate_window.ends_at END, \
     hits = CASE WHEN rate_window.ends_at <= $2 THEN 1 ELSE rate_window.hits + 1 END";

impl<'a> Limiter<'a> {
    pub fn new(db: &'a Db) -> Limiter<'a> {
        Limiter { db }
    }

    /// 429 (with the seconds to wait) when `key` already has `limit` hits in its current window.
    pub async fn check(&self, key: &str, limit: u32, now: i64) -> ApiResult<()> {
        let row: Option<(i64, i64)> =
            sqlx::query_as("SELECT ends_at, hits FROM rate_window WHERE key = $1")
                .bind(key)
                .fetch_optional(self.db.pool())
                .await?;
        match row {
            Some((ends_at, hits)) if now < ends_at && hits >= i64::from(limit) => {
                Err(ApiError::too_many((ends_at - now) as u64))
            }
            _ => Ok(()),
        }
    }

    /// Counts a hit for `key` unless it already has `limit` hits in the current window: then 429
    /// and nothing is counted. One statement, so two hosts admitting at once cannot both take
    /// the last hit.
    pub async fn admit(&self, key: &str, limit: u32, window: i64, now: i64) -> ApiResult<()> {
        let mut tx = self.db.write().await?;
        let sql = format!(
            "{UPSERT} WHERE rate_window.ends_at <= $2 OR rate_window.hits < $4 RETURNING hits"
        );
        let counted: Option<i64> = sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
            .bind(key)
            .bind(now)
            .bind(now + window)
            .bind(i64::from(limit))
            .fetch_optional(&mut *tx)
            .await?;
        if counted.is_some() {
            tx.commit().await?;
            return Ok(());
        }
        let ends_at: i64 = sqlx::query_scalar("SELECT ends_at FROM rate_window WHERE key = $1")
            .bind(key)
            .fetch_one(&mut *tx)
            .await?;
        tx.rollback().await?;
        Err(ApiError::too_many((ends_at - now) as u64))
    }

    /// Counts a hit for each of `keys` (a failed sign-in counts against several limits at once).
    pub async fn hit(&self, keys: &[&str], window: i64, now: i64) -> ApiResult<()> {
        let mut tx = self.db.write().await?;
        for key in keys {
            sqlx::query(UPSERT)
                .bind(*key)
                .bind(now)
                .bind(now + window)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Forgets `key`'s hits (a successful sign-in clears its account-and-client counter).
    pub async fn reset(&self, key: &str) -> ApiResult<()> {
        let mut tx = self.db.write().await?;
        sqlx::query("DELETE FROM rate_window WHERE key = $1")
            .bind(key)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }
}

/// Deletes the windows that have ended (the janitor's pass): a later hit starts a new one anyway.
pub async fn purge_ended(tx: &mut Tx, now: i64) -> ApiResult<u64> {
    Ok(sqlx::query("DELETE FROM rate_window WHERE ends_at <= $1")
        .bind(now)
        .execute(&mut **tx)
        .await?
        .rows_affected())
}
