//! The text-search seam: what the storefront needs from a search engine. The embedded tantivy
//! engine implements it; an external one (Meilisearch, …) can replace it when one machine is not
//! enough, without touching listings, the generator or the API.

use crate::record::ProductRecord;

/// One product matched by a query, with the colourway that matched best (a colour word in the
/// query picks that colour).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Match {
    pub product_id: u64,
    pub colourway: usize,
}

#[derive(Debug, thiserror::Error)]
#[error("search index {path}: {message}")]
pub struct EngineError {
    pub path: String,
    pub message: String,
}

/// Read side: prefix matching as you type, typo tolerance, and best-first results with one
/// entry per product.
pub trait TextSearch: Send + Sync {
    fn search(&self, query: &str, limit: usize) -> Result<Vec<Match>, EngineError>;
}

/// Write side: applies a batch of changes (new or changed products, removed product ids) and
/// makes them durable in one commit, or changes nothing.
pub trait TextIndexWriter {
    fn apply(&mut self, upserts: &[&ProductRecord], removed: &[u64]) -> Result<(), EngineError>;
}
