//! The build's search-index phase: turns the catalog into each market's index records (the
//! searchable text, listing attributes and the product card) and updates the per-market index
//! under `{cache}/search`, incrementally and atomically (see the `search` crate).

use crate::context::{card, colourway_url, default_colourway, media_of};
use crate::site::SiteModel;
use domain::catalog::{Catalog, OptionKind};
use domain::content::Content;
use domain::market::{MARKETS, Market};
use rayon::prelude::*;
use search::{ColourwayRecord, IndexError, MarketUpdate, ProductRecord};
use std::collections::HashMap;
use std::path::Path;

/// Where the index lives under the build cache; the API reads the same directory.
pub const SEARCH_DIR: &str = "search";

/// Product index → categories (ancestors included) and collections (with positions).
struct Membership {
    categories: Vec<Vec<u64>>,
    collections: Vec<Vec<(u64, u32)>>,
}

fn membership(catalog: &Catalog, site: &SiteModel) -> Membership {
    let n = catalog.products.len();
    let mut categories = vec![Vec::new(); n];
    for (ci, members) in site.category_products.iter().enumerate() {
        for &pi in members {
            categories[pi].push(catalog.categories[ci].id);
        }
    }
    // Positions in the editor's list as exported, so removing one product does not renumber the rest.
    let mut collections = vec![Vec::new(); n];
    let by_id: HashMap<u64, usize> = catalog
        .products
        .iter()
        .enumerate()
        .map(|(i, p)| (p.id, i))
        .collect();
    for c in &catalog.collections {
        for (pos, id) in c.product_ids.iter().enumerate() {
            if let Some(&pi) = by_id.get(id) {
                collections[pi].push((c.id, pos as u32));
            }
        }
    }
    Membership {
        categories,
        collections,
    }
}

fn record(catalog: &Catalog, m: &Membership, pi: usize, market: &Market) -> ProductRecord {
    let product = &catalog.products[pi];
    let mi = market.index();
    let default = default_colourway(product);
    // The card's colourway first, so a search hit without a colour word shows the card's colour.
    let order =
        std::iter::once(default).chain((0..product.colourways.len()).filter(|&i| i != default));
    let colourways = order
        .map(|i| {
            let way = &product.colourways[i];
            let price = way.prices[mi];
            ColourwayRecord {
                label: way.label.clone(),
                swatch: way.swatch.clone(),
                variation_id: way.variant_ids.first().copied(),
                url: colourway_url(market, product, way),
                image_url: media_of(catalog, product, way)[0].0.clone(),
                original_price_minor: price.price.minor,
                sale_price_minor: price.sale.map(|s| s.minor),
            }
        })
        .collect();
    let categories = m.categories[pi].clone();
    let category_names = categories
        .iter()
        .filter_map(|id| catalog.category(*id).map(|c| c.name.clone()))
        .collect();
    ProductRecord {
        id: product.id,
        sku: product.sku.clone(),
        name: product.name.clone(),
        sort_order: product.sort_order,
        created: product.date_created.clone(),
        categories,
        category_names,
        collections: m.collections[pi].clone(),
        colourways,
        sizes: product
            .option(OptionKind::Size)
            .map(|o| o.values.iter().map(|v| v.label.clone()).collect())
            .unwrap_or_default(),
        price_minor: product.colourways[default].prices[mi].current().minor,
        card: card(catalog, product, market),
    }
}

/// Every market's records, in catalog order.
pub fn records(catalog: &Catalog, site: &SiteModel) -> [Vec<ProductRecord>; 3] {
    let m = membership(catalog, site);
    std::array::from_fn(|mi| {
        (0..catalog.products.len())
            .into_par_iter()
            .map(|pi| record(catalog, &m, pi, &MARKETS[mi]))
            .collect()
    })
}

/// Updates the three markets' indexes under `{cache_dir}/search`, with each market's curated
/// Popular Searches from its `search-suggestions` content slot.
pub fn update(
    cache_dir: &Path,
    catalog: &Catalog,
    content: &Content,
    site: &SiteModel,
) -> Result<Vec<MarketUpdate>, IndexError> {
    let root = cache_dir.join(SEARCH_DIR);
    std::fs::create_dir_all(&root).map_err(|source| IndexError::Io {
        action: "create",
        path: root.display().to_string(),
        source,
    })?;
    let records = records(catalog, site);
    MARKETS
        .par_iter()
        .zip(records.par_iter())
        .map(|(market, records)| {
            let curated = content.markets[market.index()]
                .chrome
                .search_suggestions
                .as_ref()
                .map(|s| s.suggestions.clone())
                .unwrap_or_default();
            search::update_market(&root, market.code, records, &curated)
        })
        .collect()
}
