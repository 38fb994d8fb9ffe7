//! Pure storefront types and rules, with no I/O: markets, money, the catalog and content models,
//! URL rules and the validation that turns raw exports into those models.

pub mod blocks;
pub mod catalog;
pub mod content;
pub mod error;
pub mod export;
pub mod html;
pub mod limits;
pub mod market;
pub mod money;
pub mod shops;
pub mod url;
