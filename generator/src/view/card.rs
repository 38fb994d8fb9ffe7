//! The product card (listings, recommendations, the search index) and the colourway it opens on.

use crate::view::badge::badge_for;
use crate::view::media::{fallback_media, images_of};
use crate::view::price::percent_off;
use domain::catalog::{Catalog, Colourway, MediaItem, OptionKind, Product};
use domain::market::Market;
use domain::url::product_path;
use search::{Card, CardImage, CardSwatch};

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

/// The card's data as `macros/card.html` and the listing island read it: the default
/// colourway's first two images (the store's fallback image, described by the product's name,
/// when it has none), and each colourway's swatch with its first image.
pub fn card(catalog: &Catalog, product: &Product, market: &Market) -> Card {
    let mi = market.index();
    let way = &product.colourways[default_colourway(product)];
    let image = |m: &MediaItem| CardImage {
        alt: m.alt.clone(),
        src: m.src.clone(),
    };
    let mut images = images_of(way);
    let (first, secondary) = match images.next() {
        Some(first) => (image(first), images.next().map(image)),
        None => {
            let (src, alt) = fallback_media(catalog, product).swap_remove(0);
            (CardImage { alt, src }, None)
        }
    };
    let price = way.prices[mi];
    let swatches = product
        .colourways
        .iter()
        .map(|c| CardSwatch {
            image: images_of(c)
                .next()
                .map_or_else(|| catalog.store.fallback_image.clone(), |m| m.src.clone()),
            label: c.label.clone(),
            swatch: c.swatch.clone(),
            url: colourway_url(market, product, c),
        })
        .collect();
    Card {
        badge: badge_for(product, price.sale.is_some()),
        colour_count: product.colourways.len(),
        id: product.id,
        image: first,
        name: product.name.clone(),
        percent_off: percent_off(&price),
        price: price.price.format(),
        price_hidden: product.is_price_hidden,
        sale_price: price.sale.map(|s| s.format()),
        secondary_image: secondary,
        swatches,
        url: colourway_url(market, product, way),
    }
}
