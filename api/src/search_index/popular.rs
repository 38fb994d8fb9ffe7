//! Popular Searches: the queries shoppers actually run (only those that found products), counted
//! per market in memory and flushed to the store in the background, so a search never waits for
//! a write. Suggestions for a typed query are the most-run queries that extend it, then the
//! curated default list from the content export, then the most-run queries overall. The only
//! writer of `search_query`.

use crate::store::Db;
use std::collections::HashMap;
use std::sync::Mutex;

/// Suggestions per answer (the overlay's Popular Searches shows up to 5).
pub const SUGGESTIONS: usize = 5;
/// Longer queries are not kept as suggestions (they are rarely anyone else's search).
const MAX_SUGGESTION_CHARS: usize = 50;
/// How many of the most-run queries per market are kept in memory.
const KEPT_PER_MARKET: i64 = 5000;

/// Lowercase, single-spaced: "Black  Dress " and "black dress" are one popular search.
pub fn normalise(query: &str) -> String {
    query
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

#[derive(Default)]
pub struct Popular {
    /// (market, query) → runs: everything known, for ranking.
    runs: Mutex<HashMap<(String, String), i64>>,
    /// Runs not yet written to the store.
    pending: Mutex<HashMap<(String, String), i64>>,
}

impl Popular {
    /// Loads the most-run queries of every market from the store.
    pub async fn load(db: &Db) -> anyhow::Result<Popular> {
        let popular = Popular::default();
        popular.reload(db).await?;
        Ok(popular)
    }

    /// Replaces the counts in memory with the store's, plus the runs not yet written: with
    /// several API hosts each one flushes its own runs, and this is how a host learns the
    /// others' (so every host suggests the same queries, a flush interval behind).
    async fn reload(&self, db: &Db) -> anyhow::Result<()> {
        let rows: Vec<(String, String, i64)> = sqlx::query_as(
            "SELECT market, query, runs FROM search_query ORDER BY runs DESC LIMIT $1",
        )
        .bind(KEPT_PER_MARKET * 3)
        .fetch_all(db.pool())
        .await?;
        let mut stored: HashMap<(String, String), i64> = rows
            .into_iter()
            .map(|(market, query, n)| ((market, query), n))
            .collect();
        // Lock order: `pending` then `runs`, as `record` takes them one at a time and never both.
        let pending = self.pending.lock().map(|p| p.clone()).unwrap_or_default();
        for (key, n) in pending {
            *stored.entry(key).or_insert(0) += n;
        }
        if let Ok(mut runs) = self.runs.lock() {
            *runs = stored;
        }
        Ok(())
    }

    /// Counts one run of a query that found products.
    pub fn record(&self, market: &str, query: &str) {
        let query = normalise(query);
        if query.chars().count() > MAX_SUGGESTION_CHARS {
            return;
        }
        let key = (market.to_string(), query);
        if let Ok(mut runs) = self.runs.lock() {
            *runs.entry(key.clone()).or_insert(0) += 1;
        }
        if let Ok(mut pending) = self.pending.lock() {
            *pending.entry(key).or_insert(0) += 1;
        }
    }

    /// Up to `SUGGESTIONS` popular searches for what the shopper typed.
    pub fn suggestions(&self, market: &str, typed: &str, curated: &[String]) -> Vec<String> {
        let typed = normalise(typed);
        let mut ranked: Vec<(i64, String)> = self
            .runs
            .lock()
            .map(|runs| {
                runs.iter()
                    .filter(|((m, _), _)| m == market)
                    .map(|((_, q), n)| (*n, q.clone()))
                    .collect()
            })
            .unwrap_or_default();
        ranked.sort_by(|a, b| b.0.cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
        let extends =
            |q: &str| q != typed && (q.starts_with(&typed) || q.contains(&format!(" {typed}")));
        let mut out: Vec<String> = Vec::with_capacity(SUGGESTIONS);
        let push = |q: &str, out: &mut Vec<String>| {
            if out.len() < SUGGESTIONS && q != typed && !out.iter().any(|o| o == q) {
                out.push(q.to_string());
            }
        };
        for (_, q) in ranked.iter().filter(|(_, q)| extends(q)) {
            push(q, &mut out);
        }
        for q in curated.iter().map(|c| normalise(c)).filter(|q| extends(q)) {
            push(&q, &mut out);
        }
        for q in curated.iter().map(|c| normalise(c)) {
            push(&q, &mut out);
        }
        for (_, q) in &ranked {
            push(q, &mut out);
        }
        out
    }

    /// Writes pending counts to the store (one upsert per query, adding to what other hosts
    /// wrote), then reloads the counts of every host. On failure the pending counts are kept for
    /// the next flush.
    pub async fn flush(&self, db: &Db, now: i64) -> anyhow::Result<usize> {
        let batch: Vec<((String, String), i64)> = match self.pending.lock() {
            Ok(mut pending) => pending.drain().collect(),
            Err(_) => return Ok(0),
        };
        let written = self.write(db, batch, now).await?;
        self.reload(db).await?;
        Ok(written)
    }

    /// Adds `batch` to the stored counts; puts it back in `pending` when that fails.
    async fn write(
        &self,
        db: &Db,
        batch: Vec<((String, String), i64)>,
        now: i64,
    ) -> anyhow::Result<usize> {
        if batch.is_empty() {
            return Ok(0);
        }
        let result = async {
            let mut tx = db.write().await?;
            for ((market, query), n) in &batch {
                sqlx::query(
                    "INSERT INTO search_query (market, query, runs, last_run_at) VALUES ($1, $2, $3, $4) \
                     ON CONFLICT (market, query) DO UPDATE SET runs = search_query.runs + excluded.runs, \
                     last_run_at = excluded.last_run_at",
                )
                .bind(market)
                .bind(query)
                .bind(*n)
                .bind(now)
                .execute(&mut *tx)
                .await?;
            }
            tx.commit().await?;
            anyhow::Ok(batch.len())
        }
        .await;
        if result.is_err()
            && let Ok(mut pending) = self.pending.lock()
        {
            for (key, n) in batch {
                *pending.entry(key).or_insert(0) += n;
            }
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggestions_rank_extensions_then_curated_then_overall() {
        let p = Popular::default();
        for _ in 0..3 {
            p.record("uk", "Black Dress");
        }
        p.record("uk", "black  dress"); // same search, normalised
        p.record("uk", "blazer");
        p.record("uk", "jeans");
        p.record("us", "blouse");
        let curated = vec!["Blue Floral".to_string(), "Gifts".to_string()];
        let s = p.suggestions("uk", "bl", &curated);
        assert_eq!(
            s,
            ["black dress", "blazer", "blue floral", "gifts", "jeans"]
        );
        // Never the query itself, never another market's.
        let s = p.suggestions("uk", "Blazer", &curated);
        assert!(!s.contains(&"blazer".to_string()));
        assert!(!s.contains(&"blouse".to_string()));
        assert!(s.len() <= SUGGESTIONS);
    }
}
