//! Data derived once per build from the catalog: digests of what each product page shows,
//! category and collection membership in the default ("featured") order, and the
//! recommendation and complete-the-look lists.

use domain::catalog::{Catalog, Product};
use rayon::prelude::*;
use std::collections::{HashMap, HashSet};

/// Recommendations and complete-the-look show this many products.
pub const RECOMMENDATION_COUNT: usize = 8;

pub type Digest = [u8; 32];

pub struct SiteModel {
    /// Hash of everything a page can show of a product (not its stock), by product index.
    pub product_digest: Vec<Digest>,
    /// By category index: member product indices (its own and its descendants'), featured order.
    pub category_products: Vec<Vec<usize>>,
    /// By collection index: product indices in the editor's order.
    pub collection_products: Vec<Vec<usize>>,
    pub recommendations: Vec<Vec<usize>>,
    pub complete_the_look: Vec<Vec<usize>>,
    /// Root category index of each product's deepest category, when it has one.
    pub primary_category: Vec<Option<usize>>,
}

pub fn digest_of<T: serde::Serialize>(value: &T) -> Digest {
    let mut hasher = blake3::Hasher::new();
    serde_json::to_writer(HashWriter(&mut hasher), value).expect("catalog models serialise");
    *hasher.finalize().as_bytes()
}

struct HashWriter<'a>(&'a mut blake3::Hasher);
impl std::io::Write for HashWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.update(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Featured order: the merchandiser's sort order, then newest first, then id for stability.
fn featured_key(p: &Product) -> (i64, std::cmp::Reverse<&str>, u64) {
    (
        p.sort_order,
        std::cmp::Reverse(p.date_created.as_str()),
        p.id,
    )
}

impl SiteModel {
    pub fn new(catalog: &Catalog) -> SiteModel {
        let product_digest: Vec<Digest> = catalog.products.par_iter().map(digest_of).collect();
        let category_pos: HashMap<u64, usize> = catalog
            .categories
            .iter()
            .enumerate()
            .map(|(i, c)| (c.id, i))
            .collect();
        let product_pos: HashMap<u64, usize> = catalog
            .products
            .iter()
            .enumerate()
            .map(|(i, p)| (p.id, i))
            .collect();

        let mut category_products: Vec<Vec<usize>> = vec![Vec::new(); catalog.categories.len()];
        let mut primary_category = vec![None; catalog.products.len()];
        for (pi, p) in catalog.products.iter().enumerate() {
            let mut member_of: Vec<usize> = Vec::new();
            let mut deepest: Option<usize> = None;
            for cid in &p.categories {
                let Some(&ci) = category_pos.get(cid) else {
                    continue;
                };
                let cat = &catalog.categories[ci];
                if deepest
                    .is_none_or(|d| catalog.categories[d].ancestors.len() < cat.ancestors.len())
                {
                    deepest = Some(ci);
                }
                member_of.push(ci);
                member_of.extend(
                    cat.ancestors
                        .iter()
                        .filter_map(|a| category_pos.get(a).copied()),
                );
            }
            member_of.sort_unstable();
            member_of.dedup();
            for ci in member_of {
                category_products[ci].push(pi);
            }
            primary_category[pi] = deepest;
        }
        for members in &mut category_products {
            members.sort_by(|&a, &b| {
                featured_key(&catalog.products[a]).cmp(&featured_key(&catalog.products[b]))
            });
        }
        let collection_products = catalog
            .collections
            .iter()
            .map(|c| {
                c.product_ids
                    .iter()
                    .filter_map(|id| product_pos.get(id).copied())
                    .collect()
            })
            .collect();

        let (recommendations, complete_the_look) = (0..catalog.products.len())
            .into_par_iter()
            .map(|pi| {
                related(
                    catalog,
                    &category_products,
                    &category_pos,
                    primary_category[pi],
                    pi,
                )
            })
            .unzip();
        SiteModel {
            product_digest,
            category_products,
            collection_products,
            recommendations,
            complete_the_look,
            primary_category,
        }
    }
}

/// Recommendations: products from the same deepest category, then from its ancestors, in featured
/// order. Complete the look: products from the same top-level department but other categories,
/// spread deterministically so neighbouring products do not all show the same eight.
fn related(
    catalog: &Catalog,
    category_products: &[Vec<usize>],
    category_pos: &HashMap<u64, usize>,
    primary: Option<usize>,
    me: usize,
) -> (Vec<usize>, Vec<usize>) {
    let Some(primary) = primary else {
        return (Vec::new(), Vec::new());
    };
    let cat = &catalog.categories[primary];
    let mut recs = Vec::with_capacity(RECOMMENDATION_COUNT);
    let chain = std::iter::once(primary).chain(
        cat.ancestors
            .iter()
            .rev()
            .filter_map(|a| category_pos.get(a).copied()),
    );
    for ci in chain {
        for &pi in &category_products[ci] {
            if recs.len() == RECOMMENDATION_COUNT {
                break;
            }
            if pi != me && !recs.contains(&pi) {
                recs.push(pi);
            }
        }
    }
    let root = cat
        .ancestors
        .first()
        .and_then(|a| category_pos.get(a).copied())
        .unwrap_or(primary);
    // Sets, not list scans: a department can hold thousands of products.
    let excluded: HashSet<usize> = category_products[primary]
        .iter()
        .chain(&recs)
        .copied()
        .chain(std::iter::once(me))
        .collect();
    let my_id = catalog.products[me].id;
    let mut candidates: Vec<(u64, usize)> = category_products[root]
        .iter()
        .filter(|pi| !excluded.contains(pi))
        .map(|&pi| (spread(my_id, catalog.products[pi].id), pi))
        .collect();
    // Only the eight smallest keys are needed: select them, then order just those.
    if candidates.len() > RECOMMENDATION_COUNT {
        candidates.select_nth_unstable(RECOMMENDATION_COUNT);
        candidates.truncate(RECOMMENDATION_COUNT);
    }
    candidates.sort_unstable();
    (recs, candidates.into_iter().map(|(_, pi)| pi).collect())
}

fn spread(a: u64, b: u64) -> u64 {
    let mut x = a.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ b.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    x ^= x >> 31;
    x.wrapping_mul(0xFF51_AFD7_ED55_8CCD)
}
