//! The background chores on the shared state, each on its own interval: the janitor (every table's
//! owner deletes its rows that outlived their use), the settling of stale Pending orders, the
//! saving of the popular-search counts, the publishing or installing of the search index, and
//! the copying of the rebuild status to the store. A failed pass is logged and tried again at the
//! next tick.

use crate::auth;
use crate::cart;
use crate::checkout;
use crate::mail;
use crate::rate_limit;
use crate::search;
use crate::session;
use crate::state::AppState;
use crate::webhooks;
use std::future::Future;
use std::time::Duration;
use tokio::task::JoinHandle;

impl AppState {
    /// Deletes what has outlived its use, every `every`: expired sessions, spent or expired reset
    /// links, registrations nobody confirmed, browsers not signed in from for a year, guest carts
    /// untouched for longer than the cart cookie lives, emails sent more than a month ago, ended
    /// rate-limit windows and webhook delivery ids older than a day.
    pub fn spawn_janitor(&self, every: Duration) -> JoinHandle<()> {
        repeat(
            self,
            every,
            "purging expired rows failed",
            |state| async move { state.purge_expired().await.map(drop) },
        )
    }

    /// Settles stale Pending orders with the payment provider (`checkout::reconcile`) at start-up
    /// and every `every`.
    pub fn spawn_order_reconciler(&self, every: Duration) -> JoinHandle<()> {
        repeat(
            self,
            every,
            "settling stale Pending orders failed",
            |state| async move { checkout::reconcile::reconcile_stale(&state).await.map(drop) },
        )
    }

    /// Writes the popular-search counts to the store every `every` (searches never wait for it).
    pub fn spawn_search_log_flusher(&self, every: Duration) -> JoinHandle<()> {
        repeat(
            self,
            every,
            "saving popular searches failed",
            |state| async move {
                state
                    .search()
                    .popular
                    .flush(state.db(), state.now())
                    .await
                    .map(drop)
            },
        )
    }

    /// Publishes the search index this host's builds make into the store every `every`, for the
    /// other API hosts (`search::distribution`); the rebuild leader runs it.
    pub fn spawn_search_publisher(&self, every: Duration) -> JoinHandle<()> {
        repeat(
            self,
            every,
            "publishing the search index failed",
            |state| async move {
                let root = state.config().search_dir.clone();
                search::distribution::publish(state.db(), &root, state.now())
                    .await
                    .map(drop)
            },
        )
    }

    /// Installs the search index the leader published, every `every`, so this host searches
    /// the latest build without sharing its disk; every `storefront api` host runs it.
    pub fn spawn_search_follower(&self, every: Duration) -> JoinHandle<()> {
        repeat(
            self,
            every,
            "installing the published search index failed",
            |state| async move {
                let root = state.config().search_dir.clone();
                search::distribution::follow(state.db(), &root)
                    .await
                    .map(drop)
            },
        )
    }

    /// Copies the attached rebuild daemon's status into the store every `every`, for the status
    /// endpoint of the other hosts (`webhooks::status`); the rebuild leader runs it.
    pub fn spawn_status_copier(&self, every: Duration) -> JoinHandle<()> {
        repeat(
            self,
            every,
            "copying the rebuild status to the store failed",
            |state| async move {
                let Some(sink) = state.webhooks().sink() else {
                    return Ok(());
                };
                webhooks::status::copy_to_store(state.db(), sink.as_ref(), state.now()).await?;
                Ok(())
            },
        )
    }

    /// One janitor pass, in one transaction: each owner deletes its expired rows. Answers the
    /// number of sessions, reset links, sent emails and carts removed.
    pub async fn purge_expired(&self) -> anyhow::Result<u64> {
        let now = self.now();
        // A guest cart lives as long as its cookie.
        let stale_carts = now - self.config().cart_cookie_max_age;
        let mut tx = self.db().write().await?;
        let mut removed = session::purge_expired(&mut tx, now).await?;
        removed += auth::reset::purge_spent(&mut tx, now).await?;
        removed += auth::confirmation::purge_expired(&mut tx, now).await?;
        removed += auth::devices::purge_stale(&mut tx, now).await?;
        removed += mail::outbox::purge_sent(&mut tx, now).await?;
        rate_limit::purge_ended(&mut tx, now).await?;
        webhooks::replay::purge_old(&mut tx, now).await?;
        // The checkouts first: they find their carts through the cart table.
        checkout::express::purge_abandoned(&mut tx, stale_carts).await?;
        checkout::record::purge_abandoned(&mut tx, stale_carts).await?;
        removed += cart::purge_stale(&mut tx, stale_carts).await?;
        tx.commit().await?;
        Ok(removed)
    }
}

/// Runs `job` on the state at start-up and then every `every`, logging `failed` with the error of
/// a pass that failed.
fn repeat<F, Fut>(state: &AppState, every: Duration, failed: &'static str, job: F) -> JoinHandle<()>
where
    F: Fn(AppState) -> Fut + Send + 'static,
    Fut: Future<Output = anyhow::Result<()>> + Send,
{
    let state = state.clone();
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(every);
        loop {
            tick.tick().await;
            if let Err(e) = job(state.clone()).await {
                tracing::warn!(error = %format!("{e:#}"), "{failed}");
            }
        }
    })
}
