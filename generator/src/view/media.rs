//! A colourway's images, with the store's fallback image when it has none.

use domain::catalog::{Catalog, Colourway, MediaItem, Product};

/// The store's fallback image, described by the product's name: `(src, alt)`.
pub fn fallback_media(catalog: &Catalog, product: &Product) -> Vec<(String, String)> {
    vec![(catalog.store.fallback_image.clone(), product.name.clone())]
}

/// The colourway's own images, videos left out (possibly none: see `media_of`).
pub fn images_of(way: &Colourway) -> impl Iterator<Item = &MediaItem> {
    way.media.iter().filter(|m| !m.video)
}

/// The colourway's images (videos left out) as `(src, alt)`, never empty.
pub fn media_of(catalog: &Catalog, product: &Product, way: &Colourway) -> Vec<(String, String)> {
    let images: Vec<(String, String)> = images_of(way)
        .map(|m| (m.src.clone(), m.alt.clone()))
        .collect();
    if images.is_empty() {
        fallback_media(catalog, product)
    } else {
        images
    }
}
