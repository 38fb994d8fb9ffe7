//! The product index per market: text search (tantivy behind the `TextSearch` trait) and
//! listings (filters, disjunctive facet counts, sorts, 48-per-page paging) over the records the
//! generator writes, published atomically and incrementally, opened read-only by the API.

pub mod listing;
pub mod live;
pub mod params;
pub mod record;
pub mod snapshot;
pub mod store;
pub mod tantivy_text;
pub mod text;

pub use listing::{Facets, ListingIndex, ListingPage, PageOutOfRange};
pub use live::{LiveIndex, MarketIndex, SEARCH_HITS, SearchHit};
pub use params::{
    Filters, ListingParams, MAX_QUERY_CHARS, PER_PAGE, ParamError, Sort, first_page, page_count,
};
pub use record::{Card, CardBadge, CardImage, CardSwatch, ColourwayRecord, ProductRecord};
pub use store::{
    IndexError, MarketUpdate, PreparedMarket, live_generation, prepare_market_with, update_market,
    update_market_with,
};
