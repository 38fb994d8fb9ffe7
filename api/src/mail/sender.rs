//! The background sender: claims due messages from the outbox, delivers them concurrently and
//! records each outcome — sent on the server's 250, tried again after a growing wait on a
//! temporary failure, a dead letter with its reason on a permanent one or after the last try. One
//! message's failure never holds up the others. Any number of senders (threads or hosts) can run
//! on one database: the outbox's lease gives each message to one of them at a time.

use super::outbox::{self, Claimed};
use super::transport::{Outcome, Transport};
use crate::config::mail::MailConfig;
use crate::state::AppState;
use crate::store::random_id;
use tokio::task::JoinHandle;

/// What one pass did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Pass {
    pub claimed: usize,
    pub sent: usize,
    pub retried: usize,
    pub failed: usize,
}

/// One sender: its transport and the owner name its leases carry.
#[derive(Clone)]
pub struct Sender {
    state: AppState,
    transport: Transport,
    owner: String,
}

impl Sender {
    pub fn new(state: AppState, transport: Transport) -> Sender {
        Sender {
            state,
            transport,
            owner: random_id(8),
        }
    }

    fn config(&self) -> &MailConfig {
        &self.state.config().mail
    }

    /// Claims the due messages (up to a batch), delivers them and records what happened.
    pub async fn pass(&self) -> anyhow::Result<Pass> {
        let config = self.config();
        // The lease outlives the longest delivery, so a slow but live one is never claimed by a
        // second sender.
        let lease = self.transport.delivery_limit().as_secs() as i64 + 60;
        let claimed = outbox::claim(
            self.state.db(),
            &self.owner,
            self.state.now(),
            lease,
            config.batch,
            config.max_attempts,
        )
        .await?;
        let mut pass = Pass {
            claimed: claimed.len(),
            ..Pass::default()
        };
        let mut tasks = tokio::task::JoinSet::new();
        for msg in claimed {
            let sender = self.clone();
            tasks.spawn(async move { sender.deliver_one(msg).await });
        }
        // Every delivery runs to its end even when another one fails: stopping one after the
        // server's 250 and before its mark would send it twice.
        let mut trouble = None;
        while let Some(done) = tasks.join_next().await {
            match done {
                Ok(Ok(Outcome::Sent)) => pass.sent += 1,
                Ok(Ok(Outcome::Temporary(_))) => pass.retried += 1,
                Ok(Ok(Outcome::Permanent(_))) => pass.failed += 1,
                Ok(Err(e)) => trouble = Some(e),
                Err(e) => trouble = Some(anyhow::anyhow!("a delivery task stopped: {e}")),
            }
        }
        match trouble {
            // The message stays leased, and is tried again when its lease runs out.
            Some(e) => Err(e.context("recording a delivery's outcome")),
            None => Ok(pass),
        }
    }

    /// Delivers one claimed message and records the outcome; a temporary failure on the last
    /// try is reported as permanent (it became a dead letter).
    async fn deliver_one(&self, msg: Claimed) -> anyhow::Result<Outcome> {
        let config = self.config();
        let shop_name = self.state.catalog().store.name.clone();
        let outcome = self.transport.deliver(&msg, &config.from, &shop_name).await;
        let now = self.state.now();
        let db = self.state.db();
        match &outcome {
            Outcome::Sent => {
                outbox::mark_sent(db, &msg.id, now).await?;
                tracing::info!(outbox_id = %msg.id, kind = %msg.kind, attempt = msg.attempts, "mail sent");
                Ok(Outcome::Sent)
            }
            Outcome::Temporary(reason) if msg.attempts < config.max_attempts => {
                let retry_at = now + config.retry_wait(msg.attempts);
                outbox::mark_failed_try(db, &msg.id, &self.owner, reason, Some(retry_at), now)
                    .await?;
                tracing::warn!(outbox_id = %msg.id, attempt = msg.attempts, %reason, retry_at, "mail delivery failed; will retry");
                Ok(outcome)
            }
            Outcome::Temporary(reason) => {
                let reason = format!("gave up after {} tries: {reason}", msg.attempts);
                outbox::mark_failed_try(db, &msg.id, &self.owner, &reason, None, now).await?;
                tracing::warn!(outbox_id = %msg.id, %reason, "mail undeliverable (dead letter)");
                Ok(Outcome::Permanent(reason))
            }
            Outcome::Permanent(reason) => {
                outbox::mark_failed_try(db, &msg.id, &self.owner, reason, None, now).await?;
                tracing::warn!(outbox_id = %msg.id, %reason, "mail refused permanently (dead letter)");
                Ok(outcome)
            }
        }
    }

    /// Runs passes until the outbox has nothing due, then waits `poll` between passes. A failed
    /// pass (the database is away) is logged and tried again at the next tick.
    pub fn spawn(self) -> JoinHandle<()> {
        tokio::spawn(async move {
            loop {
                let full = match self.pass().await {
                    Ok(pass) => pass.claimed as i64 >= self.config().batch,
                    Err(e) => {
                        tracing::warn!(error = %format!("{e:#}"), "mail sender pass failed");
                        false
                    }
                };
                if !full {
                    tokio::time::sleep(self.config().poll).await;
                }
            }
        })
    }
}

impl AppState {
    /// Starts the mail sender when a destination is configured (SMTP or the dev mailbox); None
    /// when mail goes nowhere, which is logged once, since queued mail then waits unsent.
    pub fn spawn_mail_sender(&self) -> anyhow::Result<Option<JoinHandle<()>>> {
        match Transport::new(&self.config().mail)? {
            Some(transport) => Ok(Some(Sender::new(self.clone(), transport).spawn())),
            None => {
                tracing::warn!(
                    "SMTP_HOST is not set: emails are queued in the outbox but not sent"
                );
                Ok(None)
            }
        }
    }
}
