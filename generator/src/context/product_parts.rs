//! What the pages of one product in one market share, whatever their colourway: built once and
//! reused by the sibling pages the same thread renders next (the plan lists a product's
//! colourways together, and each worker takes a run of neighbouring pages).

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};

use minijinja::Value;

use super::product_options::VariantChoice;
use crate::view::breadcrumbs::Crumb;

/// The colourway-independent parts of a product page's context.
pub struct ProductParts {
    /// The description as plain text (meta description, JSON-LD).
    pub description: String,
    /// Home, then the primary category's trail (the product's own crumb is the page's).
    pub trail: Vec<Crumb>,
    pub custom_fields: Value,
    pub modifiers: Value,
    /// Every variant's id, options and purchasability (the ProductOptions island's `variants`).
    pub variants: Vec<VariantChoice>,
    pub recommendations: Value,
    pub complete_the_look: Value,
}

/// Tells one `Shared` (one build's inputs) from another, so that a daemon's next build never
/// reuses parts of the previous one's catalog.
pub fn next_build_serial() -> u64 {
    static SERIAL: AtomicU64 = AtomicU64::new(0);
    SERIAL.fetch_add(1, Ordering::Relaxed)
}

type Key = (u64, usize, usize);

thread_local! {
    /// The parts this thread built last, by build serial, product index and market index.
    static LAST: RefCell<Option<(Key, Rc<ProductParts>)>> = const { RefCell::new(None) };
}

/// The parts for `key`: the ones this thread built last when they are the same product, market
/// and build, else `build()`'s (which then replace them).
pub fn parts_for(key: Key, build: impl FnOnce() -> ProductParts) -> Rc<ProductParts> {
    if let Some(parts) = LAST.with(|last| {
        last.borrow()
            .as_ref()
            .filter(|(k, _)| *k == key)
            .map(|(_, p)| p.clone())
    }) {
        return parts;
    }
    let parts = Rc::new(build());
    LAST.with(|last| *last.borrow_mut() = Some((key, parts.clone())));
    parts
}
