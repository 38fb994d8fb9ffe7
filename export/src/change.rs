//! One changed source item, as a webhook names it: what a daemon refetches and fingerprints.

/// One changed source item, as named by a webhook.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(tag = "kind", content = "id", rename_all = "snake_case")]
pub enum Change {
    /// A product (its options, variants, prices, images, custom fields) by product id.
    Product(u64),
    /// Stock of one product's variants, by product id.
    Inventory(u64),
    Category(u64),
    /// A content item by its id (the delivery API's `_meta.deliveryId`).
    Content(String),
}
