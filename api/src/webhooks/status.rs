//! What the rebuild daemon has done, for `GET /webhooks/status` on every host: the leader (the
//! host whose rebuild daemon is attached) answers from its daemon and copies the same answer into
//! the store every few seconds; a host without a daemon answers the last copy, with when it was
//! made. The only writer of `daemon_status`.

use crate::error::ApiResult;
use crate::store::Db;
use crate::webhook_sink::ChangeSink;
use serde_json::{Value, json};

/// The daemon's answer: its last rebuilds and deploys.
pub fn of_daemon(sink: &dyn ChangeSink) -> Value {
    json!({ "rebuilds": sink.status(), "deploys": sink.deploys() })
}

/// Stores `sink`'s answer for the other hosts.
pub async fn copy_to_store(db: &Db, sink: &dyn ChangeSink, now: i64) -> ApiResult<()> {
    let body = of_daemon(sink).to_string();
    let mut tx = db.write().await?;
    sqlx::query(
        "INSERT INTO daemon_status (name, body, updated_at) VALUES ('rebuild-daemon', $1, $2) \
         ON CONFLICT (name) DO UPDATE SET body = excluded.body, updated_at = excluded.updated_at",
    )
    .bind(body)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

/// The leader's last stored answer with `copied_at` (seconds since the epoch), or nulls when no
/// leader has reported yet.
pub async fn from_store(db: &Db) -> ApiResult<Value> {
    let row: Option<(String, i64)> =
        sqlx::query_as("SELECT body, updated_at FROM daemon_status WHERE name = 'rebuild-daemon'")
            .fetch_optional(db.pool())
            .await?;
    Ok(match row {
        Some((body, at)) => {
            let mut answer: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
            if let Some(fields) = answer.as_object_mut() {
                fields.insert("copied_at".into(), json!(at));
            }
            answer
        }
        None => json!({ "rebuilds": Value::Null, "deploys": Value::Null }),
    })
}
