//! Listings from the index's records: the products of a scope (category, collection or search
//! result), filtered, counted per facet, sorted and paged. Facet counts are disjunctive: each
//! facet's counts apply every other filter but its own, so choosing Black still shows how many
//! products come in Navy.

use crate::params::{Filters, PER_PAGE, Sort};
use crate::record::ProductRecord;
use serde::Serialize;
use std::collections::HashMap;

/// One market's records, with category and collection membership ready to list.
pub struct ListingIndex {
    pub records: Vec<ProductRecord>,
    by_id: HashMap<u64, usize>,
    /// Members in featured order.
    by_category: HashMap<u64, Vec<usize>>,
    /// Members in the editor's order.
    by_collection: HashMap<u64, Vec<usize>>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ColourFacet {
    pub label: String,
    pub swatch: Option<String>,
    pub count: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SizeFacet {
    pub label: String,
    pub count: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Facets {
    pub colours: Vec<ColourFacet>,
    pub sizes: Vec<SizeFacet>,
}

/// One page of a listing.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ListingPage {
    pub total: usize,
    pub page: usize,
    pub pages: usize,
    pub per_page: usize,
    pub sort: Sort,
    /// Record positions of this page's products, in order.
    #[serde(skip)]
    pub members: Vec<usize>,
    pub facets: Facets,
}

/// The page asked for does not exist.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("page {page} is beyond the last page ({pages})")]
pub struct PageOutOfRange {
    pub page: usize,
    pub pages: usize,
}

impl ListingIndex {
    pub fn new(records: Vec<ProductRecord>) -> ListingIndex {
        let by_id = records.iter().enumerate().map(|(i, r)| (r.id, i)).collect();
        let mut by_category: HashMap<u64, Vec<usize>> = HashMap::new();
        let mut by_collection: HashMap<u64, Vec<(u32, usize)>> = HashMap::new();
        let mut order: Vec<usize> = (0..records.len()).collect();
        order.sort_by_key(|&i| featured_key(&records[i]));
        for &i in &order {
            for &c in &records[i].categories {
                by_category.entry(c).or_default().push(i);
            }
            for &(c, pos) in &records[i].collections {
                by_collection.entry(c).or_default().push((pos, i));
            }
        }
        let by_collection = by_collection
            .into_iter()
            .map(|(c, mut members)| {
                members.sort_unstable();
                (c, members.into_iter().map(|(_, i)| i).collect())
            })
            .collect();
        ListingIndex {
            records,
            by_id,
            by_category,
            by_collection,
        }
    }

    pub fn category(&self, id: u64) -> Option<&[usize]> {
        self.by_category.get(&id).map(Vec::as_slice)
    }

    pub fn collection(&self, id: u64) -> Option<&[usize]> {
        self.by_collection.get(&id).map(Vec::as_slice)
    }

    /// Record positions of product ids (a search result), keeping their order.
    pub fn positions(&self, ids: &[u64]) -> Vec<usize> {
        ids.iter()
            .filter_map(|id| self.by_id.get(id).copied())
            .collect()
    }

    pub fn record(&self, id: u64) -> Option<&ProductRecord> {
        self.by_id.get(&id).map(|&i| &self.records[i])
    }

    /// Filters, counts, sorts and pages `scope` (record positions in the scope's default order).
    pub fn list(
        &self,
        scope: &[usize],
        filters: &Filters,
        sort: Sort,
        page: usize,
    ) -> Result<ListingPage, PageOutOfRange> {
        let matching: Vec<usize> = scope
            .iter()
            .copied()
            .filter(|&i| {
                let r = &self.records[i];
                colour_ok(r, filters) && size_ok(r, filters) && price_ok(r, filters)
            })
            .collect();
        let facets = self.facets(scope, filters);
        let total = matching.len();
        let pages = total.div_ceil(PER_PAGE).max(1);
        if page == 0 || page > pages {
            return Err(PageOutOfRange { page, pages });
        }
        let mut ordered = matching;
        let records = &self.records;
        // Stable sorts: ties keep the scope's own order (featured, editor's or relevance).
        match sort {
            Sort::Featured | Sort::Relevance => {}
            Sort::Newest => ordered.sort_by(|&a, &b| records[b].created.cmp(&records[a].created)),
            Sort::PriceAsc => ordered.sort_by_key(|&i| records[i].price_minor),
            Sort::PriceDesc => ordered.sort_by_key(|&i| std::cmp::Reverse(records[i].price_minor)),
        }
        let members = ordered
            .into_iter()
            .skip((page - 1) * PER_PAGE)
            .take(PER_PAGE)
            .collect();
        Ok(ListingPage {
            total,
            page,
            pages,
            per_page: PER_PAGE,
            sort,
            members,
            facets,
        })
    }

    /// Every colour and size offered in the scope (colours by label, sizes in first-seen order),
    /// each counted over the products that pass every other filter.
    pub fn facets(&self, scope: &[usize], filters: &Filters) -> Facets {
        let mut colours: Vec<ColourFacet> = Vec::new();
        let mut colour_pos: HashMap<&str, usize> = HashMap::new();
        let mut sizes: Vec<SizeFacet> = Vec::new();
        let mut size_pos: HashMap<&str, usize> = HashMap::new();
        for &i in scope {
            let r = &self.records[i];
            let price = price_ok(r, filters);
            let count_colours = price && size_ok(r, filters);
            let count_sizes = price && colour_ok(r, filters);
            for (k, way) in r.colourways.iter().enumerate() {
                let pos = *colour_pos.entry(way.label.as_str()).or_insert_with(|| {
                    colours.push(ColourFacet {
                        label: way.label.clone(),
                        swatch: way.swatch.clone(),
                        count: 0,
                    });
                    colours.len() - 1
                });
                // A product counts once per colour even if two colourways share a label.
                if count_colours && !r.colourways[..k].iter().any(|w| w.label == way.label) {
                    colours[pos].count += 1;
                }
            }
            for (k, size) in r.sizes.iter().enumerate() {
                let pos = *size_pos.entry(size.as_str()).or_insert_with(|| {
                    sizes.push(SizeFacet {
                        label: size.clone(),
                        count: 0,
                    });
                    sizes.len() - 1
                });
                if count_sizes && !r.sizes[..k].contains(size) {
                    sizes[pos].count += 1;
                }
            }
        }
        colours.sort_by(|a, b| a.label.cmp(&b.label));
        Facets { colours, sizes }
    }
}

/// Featured order: the merchandiser's sort order, then newest first, then id (as the generator's).
pub fn featured_key(r: &ProductRecord) -> (i64, std::cmp::Reverse<&str>, u64) {
    (r.sort_order, std::cmp::Reverse(r.created.as_str()), r.id)
}

fn colour_ok(r: &ProductRecord, f: &Filters) -> bool {
    f.colours.is_empty() || r.colourways.iter().any(|w| f.colours.contains(&w.label))
}

fn size_ok(r: &ProductRecord, f: &Filters) -> bool {
    f.sizes.is_empty() || r.sizes.iter().any(|s| f.sizes.contains(s))
}

fn price_ok(r: &ProductRecord, f: &Filters) -> bool {
    f.price
        .is_none_or(|(low, high)| (low..=high).contains(&r.price_minor))
}
