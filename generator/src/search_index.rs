//! The build's search-index phase: turns the catalog into each market's index records (the
//! searchable text, listing attributes and the product card) and updates the per-market index
//! under `{cache}/search`, incrementally and atomically (see the `search` crate).

use crate::site::SiteModel;
use crate::view::card::{card, colourway_url, default_colourway};
use crate::view::media::media_of;
use domain::catalog::{Catalog, OptionKind};
use domain::content::Content;
use domain::market::{MARKETS, Market};
use rayon::prelude::*;
use search::{ColourwayRecord, IndexError, MarketUpdate, ProductRecord};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

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

/// Every market's records, in catalog order, taking each unchanged product's (shared) records
/// from `previous` (the records of catalog `old`) when the two catalogs have the same structure
/// (`site::same_structure`).
fn records_reusing(
    catalog: &Catalog,
    site: &SiteModel,
    previous: Option<(&Catalog, &[Indexed; 3])>,
) -> [Vec<Arc<ProductRecord>>; 3] {
    let reuse = previous.filter(|(old, _)| crate::site::same_structure(old, catalog));
    let m = membership(catalog, site);
    std::array::from_fn(|mi| {
        (0..catalog.products.len())
            .into_par_iter()
            .map(|pi| match reuse {
                Some((old, indexed)) if Arc::ptr_eq(&old.products[pi], &catalog.products[pi]) => {
                    indexed[mi].records[pi].clone()
                }
                _ => Arc::new(record(catalog, &m, pi, &MARKETS[mi])),
            })
            .collect()
    })
}

/// One market's records and their fingerprints, as last indexed.
struct Indexed {
    records: Vec<Arc<ProductRecord>>,
    fingerprints: Vec<String>,
    curated: Vec<String>,
}

/// What daemons keep between index updates: the catalog last indexed and its records, so a
/// change to one product re-derives one product's records, and an unchanged catalog none.
#[derive(Default)]
pub struct SearchMemo {
    last: Option<(Arc<Catalog>, [Indexed; 3])>,
}

/// Updates the three markets' indexes under `{cache_dir}/search`, with each market's curated
/// Popular Searches from its `search-suggestions` content slot.
pub fn update(
    cache_dir: &Path,
    catalog: &Arc<Catalog>,
    content: &Content,
    site: &SiteModel,
    memo: &mut SearchMemo,
) -> Result<Vec<MarketUpdate>, IndexError> {
    prepare(cache_dir, catalog, content, site, memo)?.commit(memo)
}

/// The three markets' next index generations, written but not live (see
/// `search::PreparedMarket`): a build prepares them beside its pages and commits them only
/// once every page rendered, so a failed build leaves the live index as it was.
pub struct PreparedIndex {
    markets: Vec<search::PreparedMarket>,
    /// What the memo keeps once they are live.
    last: (Arc<Catalog>, [Indexed; 3]),
}

impl PreparedIndex {
    /// Makes every market's prepared generation live and remembers what was indexed.
    pub fn commit(self, memo: &mut SearchMemo) -> Result<Vec<MarketUpdate>, IndexError> {
        let updates = self
            .markets
            .into_iter()
            .map(search::PreparedMarket::commit)
            .collect::<Result<Vec<_>, _>>()?;
        memo.last = Some(self.last);
        Ok(updates)
    }
}

/// Writes the three markets' next indexes under `{cache_dir}/search` without making them live;
/// `PreparedIndex::commit` does. `memo` gives what the last update indexed, and is left empty
/// until the commit (a build that fails recomputes every record next time).
pub fn prepare(
    cache_dir: &Path,
    catalog: &Arc<Catalog>,
    content: &Content,
    site: &SiteModel,
    memo: &mut SearchMemo,
) -> Result<PreparedIndex, IndexError> {
    let root = cache_dir.join(SEARCH_DIR);
    std::fs::create_dir_all(&root).map_err(|source| IndexError::Io {
        action: "create",
        path: root.display().to_string(),
        source,
    })?;
    let curated: [Vec<String>; 3] = std::array::from_fn(|mi| {
        content.markets[mi]
            .chrome
            .search_suggestions
            .as_ref()
            .map(|s| s.suggestions.clone())
            .unwrap_or_default()
    });
    let last = memo.last.take();
    let current = last.as_ref().is_some_and(|(old, indexed)| {
        Arc::ptr_eq(old, catalog)
            && indexed.iter().zip(&curated).all(|(i, c)| i.curated == *c)
            && MARKETS
                .iter()
                .all(|m| search::live_generation(&root, m.code).is_some())
    });
    if current && let Some((old, indexed)) = last {
        // The same catalog and suggestions as last time: the live index is current.
        let markets = MARKETS
            .iter()
            .zip(&indexed)
            .map(|(m, i)| search::PreparedMarket::unchanged(m.code, i.records.len()))
            .collect();
        return Ok(PreparedIndex {
            markets,
            last: (old, indexed),
        });
    }
    let previous = last.as_ref().map(|(old, indexed)| (&**old, indexed));
    let records = records_reusing(catalog, site, previous);
    let fingerprints: [Vec<String>; 3] = std::array::from_fn(|mi| {
        records[mi]
            .par_iter()
            .enumerate()
            .map(|(pi, r)| match previous {
                // A record taken over from the previous update is the very same one.
                Some((_, indexed))
                    if indexed[mi]
                        .records
                        .get(pi)
                        .is_some_and(|o| Arc::ptr_eq(o, r)) =>
                {
                    indexed[mi].fingerprints[pi].clone()
                }
                _ => r.fingerprint(),
            })
            .collect()
    });
    // The markets in parallel, each update with a tantivy writer and its heap: at 10k that costs
    // 15–45 MiB of peak memory (710–730 MiB against 680–715 MiB, tmpfs, since the cards are
    // typed) for 0.15 s less in this phase. (With the cards as JSON values the peak was ~900 MiB
    // and this ran one market at a time to stay under 1 GB.)
    let markets = MARKETS
        .par_iter()
        .enumerate()
        .map(|(mi, market)| {
            search::prepare_market_with(
                &root,
                market.code,
                &records[mi],
                &fingerprints[mi],
                &curated[mi],
            )
        })
        .collect::<Result<Vec<_>, _>>()?;
    let [r0, r1, r2] = records;
    let [f0, f1, f2] = fingerprints;
    let [c0, c1, c2] = curated;
    let indexed =
        [(r0, f0, c0), (r1, f1, c1), (r2, f2, c2)].map(|(records, fingerprints, curated)| {
            Indexed {
                records,
                fingerprints,
                curated,
            }
        });
    Ok(PreparedIndex {
        markets,
        last: (catalog.clone(), indexed),
    })
}
