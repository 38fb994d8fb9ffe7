//! Data derived once per build from the catalog: digests of what each product page and each
//! product card shows,
//! category and collection membership in the default ("featured") order, and the
//! recommendation and complete-the-look lists.

use domain::catalog::{Catalog, Product};
use domain::market::MARKETS;
use rayon::prelude::*;
use std::collections::HashMap;
use std::sync::Arc;

/// Recommendations and complete-the-look show this many products.
pub const RECOMMENDATION_COUNT: usize = 8;

pub type Digest = [u8; 32];

#[derive(Clone)]
pub struct SiteModel {
    /// Hash of everything a page can show of a product (not its stock), by product index.
    pub product_digest: Vec<Digest>,
    /// Hash of what the product's card shows in the three markets, by product index. Listings,
    /// recommendations and complete-the-look show only cards, so a change elsewhere in a
    /// product (its description, say) leaves the pages that show its card alone.
    pub card_digest: Vec<Digest>,
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

/// The digest of `product`'s card as each market prints it.
fn card_digest(catalog: &Catalog, product: &Product) -> Digest {
    let mut hasher = blake3::Hasher::new();
    for market in &MARKETS {
        let card = crate::view::card::card(catalog, product, market);
        serde_json::to_writer(HashWriter(&mut hasher), &card).expect("cards serialise");
    }
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

/// Whether two catalogs list the same products in the same places: the same categories and
/// collections, the same product ids in the same order, and every product that is not the very
/// same shared one in the same categories with the same featured-order key. Membership, order,
/// recommendations and complete-the-look are then the same too.
pub fn same_structure(old: &Catalog, new: &Catalog) -> bool {
    old.products.len() == new.products.len()
        && old.products.iter().zip(&new.products).all(|(a, b)| {
            Arc::ptr_eq(a, b)
                || (a.id == b.id
                    && a.categories == b.categories
                    && featured_key(a) == featured_key(b))
        })
        && digest_of(&old.categories) == digest_of(&new.categories)
        && digest_of(&old.collections) == digest_of(&new.collections)
}

impl SiteModel {
    /// The site model of `catalog`, reusing `previous` (built from `old`) where it can: all of it
    /// for the same catalog, and all but the changed products' digests for a catalog of the same
    /// structure (a daemon's product change).
    pub fn reusing(
        catalog: &Arc<Catalog>,
        previous: Option<(&Arc<Catalog>, &Arc<SiteModel>)>,
    ) -> Arc<SiteModel> {
        match previous {
            Some((old, site)) if Arc::ptr_eq(old, catalog) => site.clone(),
            Some((old, site)) if same_structure(old, catalog) => {
                let mut next = SiteModel::clone(site);
                for (pi, (a, b)) in old.products.iter().zip(&catalog.products).enumerate() {
                    if !Arc::ptr_eq(a, b) {
                        next.product_digest[pi] = digest_of(&**b);
                        next.card_digest[pi] = card_digest(catalog, b);
                    }
                }
                Arc::new(next)
            }
            _ => Arc::new(SiteModel::new(catalog)),
        }
    }

    pub fn new(catalog: &Catalog) -> SiteModel {
        let product_digest: Vec<Digest> = catalog
            .products
            .par_iter()
            .map(|p| digest_of(&**p))
            .collect();
        let card_digest: Vec<Digest> = catalog
            .products
            .par_iter()
            .map(|p| card_digest(catalog, p))
            .collect();
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
        // By product: every category it is listed in (its own and their ancestors), sorted.
        let mut listed_in: Vec<Vec<usize>> = Vec::with_capacity(catalog.products.len());
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
            for &ci in &member_of {
                category_products[ci].push(pi);
            }
            listed_in.push(member_of);
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
                    &Membership {
                        category_products: &category_products,
                        category_pos: &category_pos,
                        listed_in: &listed_in,
                    },
                    primary_category[pi],
                    pi,
                )
            })
            .unzip();
        SiteModel {
            product_digest,
            card_digest,
            category_products,
            collection_products,
            recommendations,
            complete_the_look,
            primary_category,
        }
    }
}

/// Who is listed where, for [`related`].
struct Membership<'a> {
    category_products: &'a [Vec<usize>],
    category_pos: &'a HashMap<u64, usize>,
    listed_in: &'a [Vec<usize>],
}

/// Recommendations: products from the same deepest category, then from its ancestors, in featured
/// order. Complete the look: products from the same top-level department but outside the deepest
/// category, taken in featured order from a starting point that depends on the product, so
/// neighbouring products do not all show the same eight. Both walks stop after eight products, so
/// the cost per product does not grow with the size of the department.
fn related(
    catalog: &Catalog,
    members: &Membership,
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
            .filter_map(|a| members.category_pos.get(a).copied()),
    );
    for ci in chain {
        for &pi in &members.category_products[ci] {
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
        .and_then(|a| members.category_pos.get(a).copied())
        .unwrap_or(primary);
    let department = &members.category_products[root];
    let mut look = Vec::with_capacity(RECOMMENDATION_COUNT);
    if department.is_empty() {
        return (recs, look);
    }
    let start = (spread(catalog.products[me].id, 0) % department.len() as u64) as usize;
    for &pi in department[start..].iter().chain(&department[..start]) {
        if look.len() == RECOMMENDATION_COUNT {
            break;
        }
        let in_primary = members.listed_in[pi].binary_search(&primary).is_ok();
        if pi != me && !in_primary && !recs.contains(&pi) {
            look.push(pi);
        }
    }
    (recs, look)
}

fn spread(a: u64, b: u64) -> u64 {
    let mut x = a.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ b.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    x ^= x >> 31;
    x.wrapping_mul(0xFF51_AFD7_ED55_8CCD)
}
