//! Which host runs the rebuilds and deploys: on PostgreSQL, the one holding a session-level
//! advisory lock on a connection of its own, so the lock goes with the process (a host that dies
//! closes its connection and PostgreSQL releases the lock, and a waiting host takes it); on
//! SQLite, the single host always. Keyed by the schema, so shops in different schemas of one
//! database (the tests) each have their own leader.

use crate::store::{Backend, Db};
use sqlx::{AnyConnection, Connection};
use std::time::Duration;

/// The lock's key: a hash of the current schema's name and this purpose, so it cannot meet
/// another use of advisory locks.
const TRY_LOCK: &str =
    "SELECT pg_try_advisory_lock(hashtext(current_schema() || ':rebuild-leader'))";

const UNLOCK: &str = "SELECT pg_advisory_unlock(hashtext(current_schema() || ':rebuild-leader'))";

/// Being the leader: held as long as this value lives and its connection does.
pub struct Leadership {
    /// The connection holding the lock (none on SQLite, where there is nothing to hold).
    conn: Option<AnyConnection>,
}

impl Leadership {
    /// Takes the lead if no other host holds it, else `None` at once.
    pub async fn try_acquire(db: &Db) -> anyhow::Result<Option<Leadership>> {
        if db.backend() == Backend::Sqlite {
            return Ok(Some(Leadership { conn: None }));
        }
        // Out of the pool for good: a pooled connection would be reused by other work and the
        // lock would outlive this value.
        let mut conn = db.pool().acquire().await?.detach();
        let taken: bool = sqlx::query_scalar(TRY_LOCK).fetch_one(&mut conn).await?;
        if taken {
            Ok(Some(Leadership { conn: Some(conn) }))
        } else {
            conn.close().await?;
            Ok(None)
        }
    }

    /// Waits until this host can take the lead, trying every `every`.
    pub async fn acquire(db: &Db, every: Duration) -> anyhow::Result<Leadership> {
        loop {
            if let Some(lead) = Leadership::try_acquire(db).await? {
                return Ok(lead);
            }
            tokio::time::sleep(every).await;
        }
    }

    /// Completes when the lead is lost: the lock's connection failed a check (made every
    /// `every`), after which PostgreSQL has released, or will release, the lock to another host.
    /// Never completes on SQLite.
    pub async fn lost(&mut self, every: Duration) -> anyhow::Error {
        let Some(conn) = self.conn.as_mut() else {
            return std::future::pending().await;
        };
        loop {
            tokio::time::sleep(every).await;
            if let Err(e) = conn.ping().await {
                return anyhow::Error::new(e).context("the leader's lock connection failed");
            }
        }
    }

    /// Gives the lead up at once: unlocks, then closes the connection (closing alone releases
    /// the lock only once the server has ended the session, a moment later).
    pub async fn release(self) -> anyhow::Result<()> {
        if let Some(mut conn) = self.conn {
            sqlx::query(UNLOCK).execute(&mut conn).await?;
            conn.close().await?;
        }
        Ok(())
    }
}
