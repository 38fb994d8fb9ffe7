//! The static-site generator: load (the `export` crate parses and validates exports) → plan
//! (pages and what each is built from) → render (minijinja) → write (incremental, atomic), plus
//! sitemaps, redirects and synthetic catalogs for benchmarks.

pub mod blocks;
pub mod build;
pub mod bundles;
pub mod context;
pub mod fixtures;
pub mod inline_json;
pub mod input_digest;
pub mod output;
pub mod plan;
pub mod preview;
pub mod redirects;
pub mod render;
pub mod search_index;
pub mod seo;
pub mod shells;
pub mod shop_finder;
pub mod site;
pub mod sweep;
pub mod view;

pub use build::{BuildError, BuildFrom, BuildMemo, BuildOptions, BuildReport, build};
pub use output::{LiveView, Publish};
