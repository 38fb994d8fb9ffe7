//! The read side the API uses: one market's published index opened read-only (text search plus
//! listing records), and a handle that notices when the generator publishes a new generation and
//! re-opens it on the next request, without a restart.

use crate::listing::{ListingIndex, ListingPage, PageOutOfRange};
use crate::params::{Filters, Sort};
use crate::record::Card;
use crate::store::{IndexError, TEXT_DIR, live_generation, read_curated, read_records};
use crate::tantivy_text::TantivySearch;
use crate::text::TextSearch;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};

/// Most products in a search's Products section.
pub const SEARCH_HITS: usize = 10;
/// A search results page lists at most this many products (the best matches).
pub const SEARCH_LISTING_CAP: usize = 1000;

/// A search hit as the overlay receives it. Prices are decimal major units, as in the cart API.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SearchHit {
    pub id: u64,
    pub sku: String,
    pub name: String,
    pub url: String,
    pub image_url: String,
    pub original_price: f64,
    pub sale_price: Option<f64>,
    pub colour: String,
    pub variation_id: Option<u64>,
}

fn major(minor: i64) -> f64 {
    minor as f64 / 100.0
}

/// One market's index, opened read-only.
pub struct MarketIndex {
    pub listing: ListingIndex,
    text: Box<dyn TextSearch>,
    /// The curated default Popular Searches.
    pub curated: Vec<String>,
    pub generation: PathBuf,
}

impl MarketIndex {
    pub fn open(generation: &Path) -> Result<MarketIndex, IndexError> {
        let records = read_records(generation)?;
        let text = TantivySearch::open(&generation.join(TEXT_DIR))?;
        Ok(MarketIndex {
            listing: ListingIndex::new(records),
            text: Box::new(text),
            curated: read_curated(generation),
            generation: generation.to_path_buf(),
        })
    }

    /// The Products section: up to `SEARCH_HITS` products, best first, each in the colourway
    /// that matched best.
    pub fn search(&self, query: &str) -> Result<Vec<SearchHit>, IndexError> {
        let matches = self.text.search(query, SEARCH_HITS)?;
        Ok(matches
            .into_iter()
            .filter_map(|m| {
                let r = self.listing.record(m.product_id)?;
                let way = r.colourways.get(m.colourway).or(r.colourways.first())?;
                Some(SearchHit {
                    id: r.id,
                    sku: r.sku.clone(),
                    name: r.name.clone(),
                    url: way.url.clone(),
                    image_url: way.image_url.clone(),
                    original_price: major(way.original_price_minor),
                    sale_price: way.sale_price_minor.map(major),
                    colour: way.label.clone(),
                    variation_id: way.variation_id,
                })
            })
            .collect())
    }

    /// Record positions of the products matching `query`, best first (at most
    /// `SEARCH_LISTING_CAP`): the scope of a search results page.
    pub fn search_scope(&self, query: &str) -> Result<Vec<usize>, IndexError> {
        let ids: Vec<u64> = self
            .text
            .search(query, SEARCH_LISTING_CAP)?
            .into_iter()
            .map(|m| m.product_id)
            .collect();
        Ok(self.listing.positions(&ids))
    }

    pub fn list(
        &self,
        scope: &[usize],
        filters: &Filters,
        sort: Sort,
        page: usize,
    ) -> Result<ListingPage, PageOutOfRange> {
        self.listing.list(scope, filters, sort, page)
    }

    /// The cards of a listing page, in order.
    pub fn cards(&self, page: &ListingPage) -> Vec<&Card> {
        page.members
            .iter()
            .map(|&i| &self.listing.records[i].card)
            .collect()
    }
}

/// A market's published index, re-opened when the generator publishes a new generation.
pub struct LiveIndex {
    root: PathBuf,
    market: String,
    current: RwLock<Option<Arc<MarketIndex>>>,
    /// One re-open at a time; other requests keep using the current index meanwhile.
    reopening: Mutex<()>,
}

impl LiveIndex {
    pub fn new(root: &Path, market: &str) -> LiveIndex {
        LiveIndex {
            root: root.to_path_buf(),
            market: market.to_string(),
            current: RwLock::new(None),
            reopening: Mutex::new(()),
        }
    }

    fn cached(&self) -> Option<Arc<MarketIndex>> {
        self.current.read().ok().and_then(|c| c.clone())
    }

    /// The live index. Checks the market's symlink (one `readlink`) and opens the new
    /// generation when it moved. If the new one cannot be opened, the last good one is served.
    pub fn get(&self) -> Result<Arc<MarketIndex>, IndexError> {
        let cached = self.cached();
        let Some(path) = live_generation(&self.root, &self.market) else {
            return cached.ok_or_else(|| IndexError::NotBuilt(self.market.clone()));
        };
        if let Some(current) = cached.as_ref().filter(|c| c.generation == path) {
            return Ok(current.clone());
        }
        let _guard = self.reopening.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(current) = self.cached().filter(|c| c.generation == path) {
            return Ok(current);
        }
        match MarketIndex::open(&path) {
            Ok(index) => {
                let index = Arc::new(index);
                if let Ok(mut slot) = self.current.write() {
                    *slot = Some(index.clone());
                }
                Ok(index)
            }
            Err(e) => cached.ok_or(e),
        }
    }
}
