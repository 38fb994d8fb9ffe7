//! The mail outbox, its only writer: every email the API sends is a row in `outbox`, written in
//! the transaction of what it reports (a sender drains the table; see docs/api.md).

use crate::error::ApiResult;
use crate::store::{Tx, random_id};

/// Queues an email: a row in `outbox` (a sender drains it; see docs/api.md) and a log line.
pub async fn queue_mail(
    tx: &mut Tx,
    to: &str,
    subject: &str,
    body: &str,
    kind: &str,
    now: i64,
) -> ApiResult<()> {
    let id = random_id(16);
    sqlx::query("INSERT INTO outbox (id, recipient, subject, body, kind, created_at) VALUES ($1, $2, $3, $4, $5, $6)")
        .bind(&id)
        .bind(to)
        .bind(subject)
        .bind(body)
        .bind(kind)
        .bind(now)
        .execute(&mut **tx)
        .await?;
    // The body can hold a secret link, so only its id is logged at info; debug shows it for
    // local development, where the log is the mailbox.
    tracing::info!(outbox_id = %id, %kind, "mail queued");
    tracing::debug!(outbox_id = %id, %to, %subject, %body, "mail body");
    Ok(())
}
