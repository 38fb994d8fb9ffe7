//! The search index on every API host without a shared disk: the rebuild leader publishes each
//! new live generation of each market into the store (`publish`), and every other host installs
//! the generation the store says is live into its own `search_dir` (`follow`), where `LiveIndex`
//! re-opens it at the next search. Files are stored once per content digest, so a rebuild that
//! changed one product uploads its few new segment files, not the index. The only writer of
//! `search_blob`, `search_generation_file` and `search_live`.

use crate::store::{Db, placeholders};
use ::search::snapshot::{self, SnapshotFile};
use base64::Engine;
use base64::engine::general_purpose::STANDARD as BASE64;
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// Publishes each market whose live generation in `root` is not the store's live one yet;
/// answers how many were published.
pub async fn publish(db: &Db, root: &Path, now: i64) -> anyhow::Result<usize> {
    let mut published = 0;
    for market in domain::market::MARKETS.map(|m| m.code) {
        let Some(local) = snapshot::live_name(root, market) else {
            continue;
        };
        if stored_live(db, market).await?.as_deref() == Some(local.as_str()) {
            continue;
        }
        let dir = root.to_path_buf();
        let read = tokio::task::spawn_blocking(move || snapshot::read_live(&dir, market)).await??;
        let Some((name, files)) = read else {
            continue;
        };
        store_generation(db, market, &name, &files, now).await?;
        tracing::info!(market, generation = %name, files = files.len(), "search index published to the store");
        published += 1;
    }
    Ok(published)
}

async fn stored_live(db: &Db, market: &str) -> anyhow::Result<Option<String>> {
    Ok(
        sqlx::query_scalar("SELECT generation FROM search_live WHERE market = $1")
            .bind(market)
            .fetch_optional(db.pool())
            .await?,
    )
}

/// Writes generation `name` (only the file contents the store lacks), makes it the market's live
/// one, and forgets generations older than the one it replaces, in one transaction.
async fn store_generation(
    db: &Db,
    market: &str,
    name: &str,
    files: &[SnapshotFile],
    now: i64,
) -> anyhow::Result<()> {
    let digests: Vec<String> = files
        .iter()
        .map(|(_, bytes)| blake3::hash(bytes).to_hex().to_string())
        .collect();
    let mut tx = db.write().await?;
    let mut known: HashSet<String> = HashSet::new();
    for chunk in digests.chunks(500) {
        let sql = format!(
            "SELECT digest FROM search_blob WHERE digest IN ({})",
            placeholders(1, chunk.len())
        );
        let mut query = sqlx::query_scalar::<_, String>(sqlx::AssertSqlSafe(sql));
        for d in chunk {
            query = query.bind(d);
        }
        known.extend(query.fetch_all(&mut *tx).await?);
    }
    for ((path, bytes), digest) in files.iter().zip(&digests) {
        if known.insert(digest.clone()) {
            sqlx::query("INSERT INTO search_blob (digest, body) VALUES ($1, $2)")
                .bind(digest)
                .bind(BASE64.encode(bytes))
                .execute(&mut *tx)
                .await?;
        }
        sqlx::query(
            "INSERT INTO search_generation_file (market, generation, path, digest) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (market, generation, path) DO NOTHING",
        )
        .bind(market)
        .bind(name)
        .bind(path)
        .bind(digest)
        .execute(&mut *tx)
        .await?;
    }
    let previous: Option<String> =
        sqlx::query_scalar("SELECT generation FROM search_live WHERE market = $1")
            .bind(market)
            .fetch_optional(&mut *tx)
            .await?;
    sqlx::query(
        "INSERT INTO search_live (market, generation, published_at) VALUES ($1, $2, $3) \
         ON CONFLICT (market) DO UPDATE SET generation = excluded.generation, published_at = excluded.published_at",
    )
    .bind(market)
    .bind(name)
    .bind(now)
    .execute(&mut *tx)
    .await?;
    // The generation it replaces stays one round, for hosts that are installing it right now.
    sqlx::query(
        "DELETE FROM search_generation_file WHERE market = $1 AND generation <> $2 AND generation <> $3",
    )
    .bind(market)
    .bind(name)
    .bind(previous.as_deref().unwrap_or(name))
    .execute(&mut *tx)
    .await?;
    sqlx::query(
        "DELETE FROM search_blob WHERE NOT EXISTS \
         (SELECT 1 FROM search_generation_file f WHERE f.digest = search_blob.digest)",
    )
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

/// Installs into `root` each market's live generation from the store that is newer than the one
/// live there (a host never goes back, so one that also builds into `root` keeps its newer
/// build); answers how many markets changed.
pub async fn follow(db: &Db, root: &Path) -> anyhow::Result<usize> {
    let live: Vec<(String, String)> =
        sqlx::query_as("SELECT market, generation FROM search_live ORDER BY market")
            .fetch_all(db.pool())
            .await?;
    let mut installed = 0;
    for (market, name) in live {
        let local = snapshot::live_name(root, &market);
        let newer = match local.as_deref() {
            None => true,
            Some(local) => local != name && snapshot::made_at(&name) > snapshot::made_at(local),
        };
        if !newer {
            continue;
        }
        // One statement: a consistent view even while the leader replaces the generation (it
        // then answers no rows, and the next pass installs the newer one).
        let rows: Vec<(String, String)> = sqlx::query_as(
            "SELECT f.path, b.body FROM search_generation_file f JOIN search_blob b ON b.digest = f.digest \
             WHERE f.market = $1 AND f.generation = $2",
        )
        .bind(&market)
        .bind(&name)
        .fetch_all(db.pool())
        .await?;
        if rows.is_empty() {
            continue;
        }
        let files = rows
            .into_iter()
            .map(|(path, body)| Ok((path, BASE64.decode(body)?)))
            .collect::<anyhow::Result<Vec<SnapshotFile>>>()?;
        let dir: PathBuf = root.to_path_buf();
        let count = files.len();
        let (m, n) = (market.clone(), name.clone());
        tokio::task::spawn_blocking(move || snapshot::install(&dir, &m, &n, &files)).await??;
        tracing::info!(market = %market, generation = %name, files = count, "search index installed from the store");
        installed += 1;
    }
    Ok(installed)
}
