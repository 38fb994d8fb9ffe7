//! The product card (listings, recommendations, the search index) and the colourway it opens on.

use crate::view::badge::badge_for;
use crate::view::media::media_of;
use crate::view::price::percent_off;
use domain::catalog::{Catalog, Colourway, OptionKind, Product};
use domain::market::Market;
use domain::url::product_path;
use serde_json::json;

/// Swatch limits per breakpoint (xs, sm, md, xl, 2xl; lg shares md's).
pub const SWATCH_LIMITS: [usize; 5] = [3, 4, 6, 8, 9];

/// The colourway whose colour is the product's default value, else the first.
pub fn default_colourway(product: &Product) -> usize {
    let default_value = product
        .option(OptionKind::Colour)
        .and_then(|o| o.values.iter().find(|v| v.is_default))
        .map(|v| v.id);
    product
        .colourways
        .iter()
        .position(|c| c.value_id.is_some() && c.value_id == default_value)
        .unwrap_or(0)
}

/// The colourway's product page in `market`.
pub fn colourway_url(market: &Market, product: &Product, way: &Colourway) -> String {
    market.path(&product_path(product.id, &product.slug, &way.segment))
}

/// The card's data as `macros/card.html` and the listing island read it.
pub fn card(catalog: &Catalog, product: &Product, market: &Market) -> serde_json::Value {
    let mi = market.index();
    let way = &product.colourways[default_colourway(product)];
    let media = media_of(catalog, product, way);
    let price = way.prices[mi];
    let swatches: Vec<_> = product
        .colourways
        .iter()
        .map(|c| json!({"label": c.label, "swatch": c.swatch, "url": colourway_url(market, product, c), "image": media_of(catalog, product, c)[0].0}))
        .collect();
    json!({
        "id": product.id,
        "name": product.name,
        "url": colourway_url(market, product, way),
        "image": {"src": media[0].0, "alt": media[0].1},
        "secondary_image": media.get(1).map(|(src, alt)| json!({"src": src, "alt": alt})),
        "badge": badge_for(product, price.sale.is_some()),
        "price_hidden": product.is_price_hidden,
        "price": price.price.format(),
        "sale_price": price.sale.map(|s| s.format()),
        "percent_off": percent_off(&price),
        "swatches": swatches,
        "colour_count": product.colourways.len(),
    })
}
