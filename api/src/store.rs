//! The database: a SQLite file by default, PostgreSQL when the URL says so, behind one sqlx `Any`
//! pool so every query is written once. Also the schema migrations and the write-transaction rule
//! (SQLite: `BEGIN IMMEDIATE` with a busy timeout; PostgreSQL: row locks); the only writer of
//! `schema_migrations`.

use anyhow::{Context, bail};
use rand::RngCore;
use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::{Any, AnyConnection, AnyPool, Executor, Transaction};
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tokio::sync::{Mutex, OwnedMutexGuard};

/// Migrations in order. Each runs once, in its own transaction, recorded in `schema_migrations`.
const MIGRATIONS: &[(i64, &str)] = &[
    (1, include_str!("../migrations/0001_init.sql")),
    (
        2,
        include_str!("../migrations/0002_customer_form_field.sql"),
    ),
    (3, include_str!("../migrations/0003_search_query.sql")),
    (4, include_str!("../migrations/0004_cart_promotion.sql")),
    (5, include_str!("../migrations/0005_express_checkout.sql")),
    (6, include_str!("../migrations/0006_checkout.sql")),
    (7, include_str!("../migrations/0007_mail_delivery.sql")),
    (
        8,
        include_str!("../migrations/0008_pending_registration.sql"),
    ),
    (9, include_str!("../migrations/0009_known_device.sql")),
    (10, include_str!("../migrations/0010_cart_cookie_key.sql")),
    (
        11,
        include_str!("../migrations/0011_wishlist_options_chosen.sql"),
    ),
    (12, include_str!("../migrations/0012_shared_throttles.sql")),
    (13, include_str!("../migrations/0013_search_snapshots.sql")),
    (14, include_str!("../migrations/0014_daemon_status.sql")),
];

/// `($1,$2,…),(…)` for `rows` rows of `cols` columns: the Any driver's query builder writes `?`,
/// which PostgreSQL does not accept, so multi-row inserts number their own placeholders.
pub fn values_clause(rows: usize, cols: usize) -> String {
    (0..rows)
        .map(|r| {
            let row: Vec<String> = (1..=cols).map(|c| format!("${}", r * cols + c)).collect();
            format!("({})", row.join(","))
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// How long a SQLite writer waits for the lock before giving up.
/// `$from, $from+1, …`: `n` numbered placeholders, for an `IN (…)` list.
pub fn placeholders(from: usize, n: usize) -> String {
    (from..from + n)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(",")
}

pub const SQLITE_BUSY_TIMEOUT_MS: u64 = 5000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

#[derive(Clone)]
pub struct Db {
    pool: AnyPool,
    backend: Backend,
    /// SQLite has one writer at a time. Queuing our own writers here, instead of letting them
    /// race for the lock, keeps them out of SQLite's busy handler, whose back-off sleeps (up to
    /// 100 ms a try) were the whole tail of add-to-bag latency. Other processes still meet the
    /// busy timeout.
    write_gate: Option<Arc<Mutex<()>>>,
}

/// A write transaction; on SQLite it also holds this process's writer slot until it ends.
/// Derefs to the connection, so `&mut *tx` is an executor.
pub struct Tx {
    tx: Transaction<'static, Any>,
    _slot: Option<OwnedMutexGuard<()>>,
}

impl Tx {
    pub async fn commit(self) -> Result<(), sqlx::Error> {
        self.tx.commit().await
    }

    pub async fn rollback(self) -> Result<(), sqlx::Error> {
        self.tx.rollback().await
    }
}

impl std::ops::Deref for Tx {
    type Target = AnyConnection;
    fn deref(&self) -> &AnyConnection {
        &self.tx
    }
}

impl std::ops::DerefMut for Tx {
    fn deref_mut(&mut self) -> &mut AnyConnection {
        &mut self.tx
    }
}

impl Db {
    /// Opens `url` (`sqlite://path`, `sqlite::memory:` is refused because each pooled connection
    /// would see its own database; `postgres://…`) and brings the schema up to date.
    pub async fn connect(url: &str) -> anyhow::Result<Db> {
        Db::connect_in_schema(url, None).await
    }

    /// As `connect`, but on PostgreSQL every connection works inside `schema` (created if needed).
    /// Tests use this to give each test its own tables.
    pub async fn connect_in_schema(url: &str, schema: Option<&str>) -> anyhow::Result<Db> {
        sqlx::any::install_default_drivers();
        let backend = if url.starts_with("sqlite:") {
            if url.contains(":memory:") {
                bail!("an in-memory SQLite database cannot be shared by a pool; use a file");
            }
            Backend::Sqlite
        } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            Backend::Postgres
        } else {
            bail!("DATABASE_URL must start with sqlite: or postgres:");
        };
        let url = if backend == Backend::Sqlite && !url.contains("mode=") {
            let sep = if url.contains('?') { '&' } else { '?' };
            format!("{url}{sep}mode=rwc")
        } else {
            url.to_string()
        };
        if backend == Backend::Sqlite {
            // `storefront dev` points at content-cache/dev.db: make the folder on first run.
            let path = url
                .trim_start_matches("sqlite://")
                .trim_start_matches("sqlite:");
            let path = std::path::Path::new(path.split('?').next().unwrap_or(path));
            if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
                std::fs::create_dir_all(parent)
                    .with_context(|| format!("creating {}", parent.display()))?;
            }
        }
        let options = AnyConnectOptions::from_str(&url).context("parsing the database URL")?;
        if let (Backend::Postgres, Some(schema)) = (backend, schema) {
            let admin = AnyPoolOptions::new()
                .max_connections(1)
                .connect_with(options.clone())
                .await
                .context("connecting to PostgreSQL")?;
            let sql = format!("CREATE SCHEMA IF NOT EXISTS \"{schema}\"");
            admin.execute(sqlx::AssertSqlSafe(sql)).await?;
            admin.close().await;
        }
        let schema = schema.map(str::to_string);
        let pool = AnyPoolOptions::new()
            .max_connections(match backend {
                Backend::Sqlite => 8,
                Backend::Postgres => 16,
            })
            .acquire_timeout(Duration::from_secs(10))
            .after_connect(move |conn, _| {
                let schema = schema.clone();
                Box::pin(async move {
                    match backend {
                        Backend::Sqlite => {
                            // WAL lets readers run beside the one writer; the busy timeout makes a
                            // second writer wait instead of failing with SQLITE_BUSY.
                            conn.execute("PRAGMA journal_mode = WAL").await?;
                            conn.execute("PRAGMA synchronous = NORMAL").await?;
                            // Checkpoints (the only fsyncs in WAL mode with synchronous=NORMAL)
                            // run in `spawn_checkpointer`, not inside a shopper's commit.
                            conn.execute("PRAGMA wal_autocheckpoint = 0").await?;
                            conn.execute("PRAGMA foreign_keys = ON").await?;
                            let busy = format!("PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}");
                            conn.execute(sqlx::AssertSqlSafe(busy)).await?;
                        }
                        Backend::Postgres => {
                            if let Some(schema) = schema {
                                let sql = format!("SET search_path TO \"{schema}\"");
                                conn.execute(sqlx::AssertSqlSafe(sql)).await?;
                            }
                        }
                    }
                    Ok(())
                })
            })
            .connect_with(options)
            .await
            .context("connecting to the database")?;
        let write_gate = (backend == Backend::Sqlite).then(|| Arc::new(Mutex::new(())));
        let db = Db {
            pool,
            backend,
            write_gate,
        };
        db.migrate().await?;
        if backend == Backend::Sqlite {
            db.spawn_checkpointer();
        }
        Ok(db)
    }

    /// Moves the WAL into the database file every five seconds, in the background. A PASSIVE
    /// checkpoint never blocks readers or the writer; its fsync, which can take hundreds of
    /// milliseconds on a busy disk, then no longer stalls whichever request happened to commit
    /// the thousandth page. Stops when the pool is closed.
    fn spawn_checkpointer(&self) {
        let pool = self.pool.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_secs(5));
            loop {
                tick.tick().await;
                if pool.is_closed() {
                    return;
                }
                if let Err(e) = pool.execute("PRAGMA wal_checkpoint(PASSIVE)").await {
                    if pool.is_closed() {
                        return;
                    }
                    tracing::warn!(error = %e, "WAL checkpoint failed");
                }
            }
        });
    }

    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// A write transaction. On SQLite it takes the write lock up front (`BEGIN IMMEDIATE`), so a
    /// read-then-write such as the stock check cannot interleave with another writer and no
    /// transaction fails half-way on a lock upgrade.
    pub async fn write(&self) -> Result<Tx, sqlx::Error> {
        let slot = match &self.write_gate {
            Some(gate) => Some(gate.clone().lock_owned().await),
            None => None,
        };
        let tx = match self.backend {
            Backend::Sqlite => self.pool.begin_with("BEGIN IMMEDIATE").await?,
            Backend::Postgres => self.pool.begin().await?,
        };
        Ok(Tx { tx, _slot: slot })
    }

    /// ` FOR UPDATE SKIP LOCKED` on PostgreSQL, so concurrent claimers of a queue each take rows
    /// the others have not locked instead of waiting for them; empty on SQLite, where
    /// `BEGIN IMMEDIATE` already lets one claimer at a time in.
    pub fn skip_locked(&self) -> &'static str {
        match self.backend {
            Backend::Sqlite => "",
            Backend::Postgres => " FOR UPDATE SKIP LOCKED",
        }
    }

    /// `FOR UPDATE` on PostgreSQL, where concurrent writers need the row lock; empty on SQLite,
    /// where `BEGIN IMMEDIATE` already serialises writers (and the syntax does not exist).
    pub fn for_update(&self) -> &'static str {
        match self.backend {
            Backend::Sqlite => "",
            Backend::Postgres => " FOR UPDATE",
        }
    }

    async fn migrate(&self) -> anyhow::Result<()> {
        self.pool
            .execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations \
                 (version BIGINT PRIMARY KEY, applied_at BIGINT NOT NULL)",
            )
            .await
            .context("creating schema_migrations")?;
        for (version, sql) in MIGRATIONS {
            let mut tx = self.write().await?;
            let done: Option<i64> =
                sqlx::query_scalar("SELECT version FROM schema_migrations WHERE version = $1")
                    .bind(*version)
                    .fetch_optional(&mut *tx)
                    .await?;
            if done.is_some() {
                continue;
            }
            for statement in split_statements(sql) {
                tx.execute(sqlx::AssertSqlSafe(statement.clone()))
                    .await
                    .with_context(|| format!("migration {version}: {statement}"))?;
            }
            sqlx::query("INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)")
                .bind(*version)
                .bind(now())
                .execute(&mut *tx)
                .await?;
            tx.commit().await?;
        }
        Ok(())
    }

    /// Drops a throwaway PostgreSQL schema made by `connect_in_schema` (benchmarks), with
    /// everything in it.
    pub async fn drop_schema(&self, schema: &str) -> anyhow::Result<()> {
        if !schema
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_')
        {
            bail!("not a schema name: {schema}");
        }
        sqlx::query(sqlx::AssertSqlSafe(format!("DROP SCHEMA {schema} CASCADE")))
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    pub async fn close(&self) {
        self.pool.close().await;
    }
}

/// Splits a migration file into statements, dropping `--` comments. The schema has no string
/// literals containing `;`, so splitting on it is exact.
fn split_statements(sql: &str) -> Vec<String> {
    let without_comments: String = sql
        .lines()
        .map(|l| l.split("--").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    without_comments
        .split(';')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
        .collect()
}

/// Unix seconds.
pub fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

/// A strictly increasing number used to keep insertion order (carts, lists) on both databases,
/// which have no common auto-increment for TEXT-keyed tables.
pub fn next_position() -> i64 {
    static LAST: AtomicI64 = AtomicI64::new(0);
    let micros = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_micros() as i64)
        .unwrap_or(0);
    let mut last = LAST.load(Ordering::Relaxed);
    loop {
        let next = micros.max(last + 1);
        match LAST.compare_exchange_weak(last, next, Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => return next,
            Err(actual) => last = actual,
        }
    }
}

/// A random id of `bytes` bytes, hex-encoded, from the OS-seeded CSPRNG.
pub fn random_id(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    rand::rng().fill_bytes(&mut buf);
    buf.iter().map(|b| format!("{b:02x}")).collect()
}

/// What is stored for a secret token (session id, reset token): its BLAKE3 hash, hex.
pub fn token_hash(token: &str) -> String {
    blake3::hash(token.as_bytes()).to_hex().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statements_split_without_comments() {
        let s = split_statements(
            "-- a; b\nCREATE TABLE a (x BIGINT); -- c\nCREATE INDEX i ON a (x);\n",
        );
        assert_eq!(
            s,
            vec!["CREATE TABLE a (x BIGINT)", "CREATE INDEX i ON a (x)"]
        );
    }

    #[test]
    fn positions_increase_and_ids_are_long_and_distinct() {
        let a = next_position();
        assert!(next_position() > a);
        let (x, y) = (random_id(16), random_id(16));
        assert_eq!(x.len(), 32);
        assert_ne!(x, y);
    }
}
