//! The mail outbox, its only writer: every email is a row in `outbox`, written in the transaction
//! of what it reports, then claimed by a sender, delivered, and marked sent or failed. A claim is a
//! lease (`lease_owner`, `lease_until`) taken in one short transaction — with `FOR UPDATE SKIP
//! LOCKED` on PostgreSQL, so senders on several hosts take disjoint rows without waiting for each
//! other, and under SQLite's single writer otherwise — so no transaction stays open while an SMTP
//! server is talking. See docs/api.md "Email" for the delivery guarantees.

use super::message::Email;
use crate::error::ApiResult;
use crate::rows::row;
use crate::store::{Db, Tx, placeholders, random_id};
use serde::Serialize;
use utoipa::ToSchema;

/// The delivery states of a message.
pub const STATES: &[&str] = &["pending", "sent", "failed"];

/// Queues `email` in the caller's transaction (it is sent only if that transaction commits) and
/// logs its id. An address no mail server could accept is stored as failed at once, with the
/// reason, so the operator sees it and nothing retries it.
pub async fn queue(tx: &mut Tx, email: &Email, now: i64) -> ApiResult<()> {
    let id = random_id(16);
    // The parse the transport does for the envelope and the `To:` header.
    let undeliverable = email
        .to
        .parse::<lettre::Address>()
        .err()
        .map(|e| format!("not a deliverable address: {e}"));
    let state = if undeliverable.is_some() {
        "failed"
    } else {
        "pending"
    };
    sqlx::query(
        "INSERT INTO outbox (id, recipient, subject, body, html, kind, market, list_unsubscribe, \
         state, last_error, attempts, next_attempt_at, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 0, $11, $11, $11)",
    )
    .bind(&id)
    .bind(&email.to)
    .bind(&email.subject)
    .bind(&email.text)
    .bind(&email.html)
    .bind(email.kind.code())
    .bind(email.market.code)
    .bind(email.list_unsubscribe.as_deref())
    .bind(state)
    .bind(undeliverable.as_deref())
    .bind(now)
    .execute(&mut **tx)
    .await?;
    // The body can hold a secret link, so only the id is logged at info.
    tracing::info!(outbox_id = %id, kind = email.kind.code(), state, "mail queued");
    Ok(())
}

row! {
    /// A message a sender has leased, with everything needed to deliver it.
    #[derive(Clone, Debug)]
    pub struct Claimed {
        pub id: String,
        pub recipient: String,
        pub subject: String,
        pub body: String,
        pub html: Option<String>,
        pub kind: String,
        pub market: String,
        pub list_unsubscribe: Option<String>,
        pub created_at: i64,
        /// Tries so far, this one included.
        pub attempts: i64,
    }
}

const CLAIMED_COLUMNS: &str =
    "id, recipient, subject, body, html, kind, market, list_unsubscribe, created_at, attempts";

/// Leases up to `limit` due messages to `owner` until `now + lease_secs`, counting the try. A
/// lease that runs out (its sender died) makes the message due again; the try it used counts, and
/// a message whose last allowed try ended that way becomes a dead letter here, so a message that
/// stops its sender every time cannot be tried forever.
pub async fn claim(
    db: &Db,
    owner: &str,
    now: i64,
    lease_secs: i64,
    limit: i64,
    max_attempts: i64,
) -> ApiResult<Vec<Claimed>> {
    let mut tx = db.write().await?;
    sqlx::query(
        "UPDATE outbox SET state = 'failed', lease_owner = NULL, lease_until = NULL, \
         last_error = 'no outcome was recorded for the last try (its sender stopped during it)', \
         updated_at = $1 \
         WHERE state = 'pending' AND attempts >= $2 AND lease_until IS NOT NULL AND lease_until <= $1",
    )
    .bind(now)
    .bind(max_attempts)
    .execute(&mut *tx)
    .await?;
    let sql = format!(
        "SELECT id FROM outbox WHERE state = 'pending' AND next_attempt_at <= $1 \
         AND (lease_until IS NULL OR lease_until <= $1) \
         ORDER BY next_attempt_at, created_at, id LIMIT {limit}{}",
        db.skip_locked()
    );
    let ids: Vec<String> = sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
        .bind(now)
        .fetch_all(&mut *tx)
        .await?;
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let list = placeholders(4, ids.len());
    let update = format!(
        "UPDATE outbox SET lease_owner = $1, lease_until = $2, attempts = attempts + 1, \
         updated_at = $3 WHERE id IN ({list})"
    );
    let mut q = sqlx::query(sqlx::AssertSqlSafe(update))
        .bind(owner)
        .bind(now + lease_secs)
        .bind(now);
    for id in &ids {
        q = q.bind(id);
    }
    q.execute(&mut *tx).await?;
    let select = format!(
        "SELECT {CLAIMED_COLUMNS} FROM outbox WHERE id IN ({}) ORDER BY created_at, id",
        placeholders(1, ids.len())
    );
    let mut q = sqlx::query_as(sqlx::AssertSqlSafe(select));
    for id in &ids {
        q = q.bind(id);
    }
    let claimed = q.fetch_all(&mut *tx).await?;
    tx.commit().await?;
    Ok(claimed)
}

/// Records the server's acceptance (250). Unconditional on the lease: once a server took the
/// message it is sent, even if this sender's lease ran out meanwhile.
pub async fn mark_sent(db: &Db, id: &str, now: i64) -> ApiResult<()> {
    let mut tx = db.write().await?;
    sqlx::query(
        "UPDATE outbox SET state = 'sent', sent_at = $1, lease_owner = NULL, lease_until = NULL, \
         last_error = NULL, updated_at = $1 WHERE id = $2",
    )
    .bind(now)
    .bind(id)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

/// Records a failed try of a message `owner` still holds: tried again at `retry_at`, or given up
/// (`failed`, a dead letter) when `retry_at` is None. False when the lease was lost meanwhile
/// (another sender owns the message now and records its own outcome).
pub async fn mark_failed_try(
    db: &Db,
    id: &str,
    owner: &str,
    reason: &str,
    retry_at: Option<i64>,
    now: i64,
) -> ApiResult<bool> {
    let mut tx = db.write().await?;
    let changed = sqlx::query(
        "UPDATE outbox SET state = $1, next_attempt_at = $2, last_error = $3, lease_owner = NULL, \
         lease_until = NULL, updated_at = $4 \
         WHERE id = $5 AND lease_owner = $6 AND state = 'pending'",
    )
    .bind(if retry_at.is_some() {
        "pending"
    } else {
        "failed"
    })
    .bind(retry_at.unwrap_or(now))
    .bind(reason)
    .bind(now)
    .bind(id)
    .bind(owner)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    tx.commit().await?;
    Ok(changed == 1)
}

/// How long a sent message is kept (for the operator's view) before the janitor deletes it.
pub const SENT_KEPT_SECS: i64 = 30 * 24 * 3600;

/// The janitor's part: deletes messages sent more than `SENT_KEPT_SECS` ago (their bodies can hold
/// reset links, and nothing needs them once delivered); failed ones stay until the operator acts.
pub async fn purge_sent(tx: &mut Tx, now: i64) -> ApiResult<u64> {
    Ok(
        sqlx::query("DELETE FROM outbox WHERE state = 'sent' AND sent_at <= $1")
            .bind(now - SENT_KEPT_SECS)
            .execute(&mut **tx)
            .await?
            .rows_affected(),
    )
}

/// The operator's retry of a dead letter: pending again, due now, with a fresh count of tries.
/// None when there is no such message; Some(false) when it is not failed.
pub async fn retry(db: &Db, id: &str, now: i64) -> ApiResult<Option<bool>> {
    let mut tx = db.write().await?;
    let changed = sqlx::query(
        "UPDATE outbox SET state = 'pending', attempts = 0, next_attempt_at = $1, updated_at = $1 \
         WHERE id = $2 AND state = 'failed'",
    )
    .bind(now)
    .bind(id)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    let exists: Option<String> = sqlx::query_scalar("SELECT id FROM outbox WHERE id = $1")
        .bind(id)
        .fetch_optional(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(exists.map(|_| changed == 1))
}

row! {
    /// One message as the operator's list shows it (no bodies: they can hold secret links).
    #[derive(Serialize, ToSchema)]
    pub struct OutboxEntry {
        pub id: String,
        pub recipient: String,
        pub subject: String,
        pub kind: String,
        pub market: String,
        /// pending, sent or failed.
        pub state: String,
        /// Tries so far.
        pub attempts: i64,
        /// When a pending message is next tried (unix seconds).
        pub next_attempt_at: i64,
        /// Why the last try failed (the server's reply, or the connection problem).
        pub last_error: Option<String>,
        pub created_at: i64,
        pub sent_at: Option<i64>,
        pub updated_at: i64,
    }
}

/// Messages, newest first, optionally in one state; `page` from 1.
pub async fn list(
    db: &Db,
    state: Option<&str>,
    page: i64,
    page_size: i64,
) -> ApiResult<Vec<OutboxEntry>> {
    let sql = format!(
        "SELECT id, recipient, subject, kind, market, state, attempts, next_attempt_at, \
         last_error, created_at, sent_at, updated_at FROM outbox \
         WHERE ($1 = '' OR state = $1) ORDER BY created_at DESC, id LIMIT {page_size} OFFSET {}",
        (page - 1) * page_size
    );
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(state.unwrap_or(""))
        .fetch_all(db.pool())
        .await?)
}

/// How many messages are in each state.
pub async fn counts(db: &Db) -> ApiResult<Vec<(String, i64)>> {
    Ok(sqlx::query_as(
        "SELECT state, CAST(COUNT(*) AS BIGINT) FROM outbox GROUP BY state ORDER BY state",
    )
    .fetch_all(db.pool())
    .await?)
}

row! {
    /// A delivered message with its parts, for the development mailbox.
    #[derive(Clone, Debug)]
    pub struct Delivered {
        pub id: String,
        pub recipient: String,
        pub subject: String,
        pub body: String,
        pub html: Option<String>,
        pub kind: String,
        pub sent_at: Option<i64>,
    }
}

/// The newest `limit` sent messages, newest first (`storefront dev`'s mailbox).
pub async fn delivered(db: &Db, limit: i64) -> ApiResult<Vec<Delivered>> {
    let sql = format!(
        "SELECT id, recipient, subject, body, html, kind, sent_at FROM outbox \
         WHERE state = 'sent' ORDER BY sent_at DESC, created_at DESC, id LIMIT {limit}"
    );
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .fetch_all(db.pool())
        .await?)
}

/// One sent message by id.
pub async fn delivered_one(db: &Db, id: &str) -> ApiResult<Option<Delivered>> {
    Ok(sqlx::query_as(
        "SELECT id, recipient, subject, body, html, kind, sent_at FROM outbox \
         WHERE id = $1 AND state = 'sent'",
    )
    .bind(id)
    .fetch_optional(db.pool())
    .await?)
}
