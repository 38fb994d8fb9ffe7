//! View pieces that several stages share: the site model digests cards, the plan fingerprints
//! listings by their first page and facets, the search index stores cards, and the contexts and
//! blocks print them all. They depend only on the catalog and the market, never on a stage.

pub mod badge;
pub mod breadcrumbs;
pub mod card;
pub mod facets;
pub mod links;
pub mod media;
pub mod price;
pub mod text;
