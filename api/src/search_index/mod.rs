//! The search service the state holds: the generator's per-market indexes, re-opened when a build
//! publishes a new one, and the popular-search counts.

pub mod popular;

use crate::error::{ApiError, ApiResult, ErrorCode};
use ::search::{LiveIndex, MarketIndex};
use popular::Popular;
use std::path::Path;
use std::sync::Arc;

/// The per-market indexes and the popular-search counts.
pub struct SearchService {
    indexes: [LiveIndex; 3],
    pub popular: Popular,
}

impl SearchService {
    pub fn new(root: &Path, popular: Popular) -> SearchService {
        SearchService {
            indexes: domain::market::MARKETS.map(|m| LiveIndex::new(root, m.code)),
            popular,
        }
    }

    /// The market's index as last published, or 503 while there is none.
    pub fn index(&self, market: &domain::market::Market) -> ApiResult<Arc<MarketIndex>> {
        self.indexes[market.index()].get().map_err(|e| {
            tracing::warn!(error = %e, market = market.code, "search index unavailable");
            ApiError::new(
                ErrorCode::SearchUnavailable,
                "Search is not available right now. Please try again shortly.",
            )
        })
    }
}
