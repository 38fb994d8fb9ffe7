//! Remembers the deliveries already acted on, in the store, so that a replayed or re-sent
//! delivery is acknowledged and ignored whichever API host it reaches. Kept for a day: the
//! senders retry within hours, not days. The only writer of `webhook_delivery`.

use crate::error::ApiResult;
use crate::store::{Db, Tx};

/// How long a delivery id is remembered.
pub const REMEMBERED_SECS: i64 = 24 * 3600;

/// True the first time `id` is seen (within the day), false for a replay. One insert, so two
/// hosts receiving the same delivery at once cannot both act on it.
pub async fn first_time(db: &Db, id: &str, now: i64) -> ApiResult<bool> {
    let mut tx = db.write().await?;
    let inserted = sqlx::query(
        "INSERT INTO webhook_delivery (id, received_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING",
    )
    .bind(id)
    .bind(now)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    tx.commit().await?;
    Ok(inserted == 1)
}

/// Forgets deliveries older than a day (the janitor's pass).
pub async fn purge_old(tx: &mut Tx, now: i64) -> ApiResult<u64> {
    Ok(
        sqlx::query("DELETE FROM webhook_delivery WHERE received_at <= $1")
            .bind(now - REMEMBERED_SECS)
            .execute(&mut **tx)
            .await?
            .rows_affected(),
    )
}
