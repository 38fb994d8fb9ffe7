//! `storefront import`: fetches the catalog from the commerce platform's REST catalog API and the
//! content from the content hub's delivery API, maps them into the export format the generator
//! reads (docs/formats.md), and publishes them atomically to `content-cache/export`
//! (docs/import.md). The per-item fetches (`catalog::fetch_products`,
//! `content::fetch_content_by_delivery_ids`, …) return the same mapped types for webhook-driven
//! rebuilds.

pub mod cache_dir;
pub mod catalog;
pub mod config;
pub mod content;
pub mod error;
pub mod etag_cache;
pub mod http;
pub mod locations;
pub mod run;

pub use catalog::{CatalogClient, fetch_categories, fetch_inventory, fetch_prices, fetch_products};
pub use config::ImportConfig;
pub use content::{ContentClient, fetch_content_by_delivery_ids, fetch_content_by_keys};
pub use error::ImportError;
pub use run::{ImportOptions, ImportSummary, import};
