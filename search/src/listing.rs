//! Listings from the index's records: the products of a scope (category, collection or search
//! result), filtered, counted per facet, sorted and paged. Facet counts are disjunctive: each
//! facet's counts apply every other filter but its own, so choosing Black still shows how many
//! products come in Navy.

use crate::params::{Filters, PER_PAGE, Sort, page_count};
use crate::record::ProductRecord;
use serde::Serialize;
use std::collections::HashMap;

/// One market's records, with category and collection membership ready to list.
pub struct ListingIndex {
    pub records: Vec<ProductRecord>,
    /// Each record's distinct colour and size values as vocabulary ids, so that filtering and
    /// counting a scope of thousands compares small integers, not strings.
    values: Vec<RecordValues>,
    colour_vocab: Vec<String>,
    size_vocab: Vec<String>,
    by_id: HashMap<u64, usize>,
    /// Members in featured order.
    by_category: HashMap<u64, Vec<usize>>,
    /// Members in the editor's order.
    by_collection: HashMap<u64, Vec<usize>>,
}

/// A record's distinct colour labels and sizes, as ids into the index's vocabularies, each in
/// the record's own order.
struct RecordValues {
    colours: Vec<u32>,
    /// For each of `colours`, the record's first colourway with that label (its swatch is the
    /// facet's when this record is the first in a scope to offer the colour).
    colour_ways: Vec<usize>,
    sizes: Vec<u32>,
}

/// Interns values: the id of each distinct value, in first-seen order.
#[derive(Default)]
struct Vocabulary<'a> {
    ids: HashMap<&'a str, u32>,
}

impl<'a> Vocabulary<'a> {
    /// The value's id, and whether it is new.
    fn id(&mut self, value: &'a str) -> (u32, bool) {
        let next = self.ids.len() as u32;
        match self.ids.entry(value) {
            std::collections::hash_map::Entry::Occupied(e) => (*e.get(), false),
            std::collections::hash_map::Entry::Vacant(e) => (*e.insert(next), true),
        }
    }
}

/// Filters as masks over the vocabularies (`None`: that facet is not filtered).
struct FilterMasks {
    colours: Option<Vec<bool>>,
    sizes: Option<Vec<bool>>,
    price: Option<(i64, i64)>,
}

impl FilterMasks {
    fn colour_ok(&self, v: &RecordValues) -> bool {
        self.colours
            .as_ref()
            .is_none_or(|m| v.colours.iter().any(|&c| m[c as usize]))
    }

    fn size_ok(&self, v: &RecordValues) -> bool {
        self.sizes
            .as_ref()
            .is_none_or(|m| v.sizes.iter().any(|&c| m[c as usize]))
    }

    fn price_ok(&self, r: &ProductRecord) -> bool {
        self.price
            .is_none_or(|(low, high)| (low..=high).contains(&r.price_minor))
    }
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
        let mut colour_ids = Vocabulary::default();
        let mut size_ids = Vocabulary::default();
        let mut colour_vocab = Vec::new();
        let mut size_vocab = Vec::new();
        let values = records
            .iter()
            .map(|r| {
                let mut colours = Vec::new();
                let mut colour_ways = Vec::new();
                for (k, way) in r.colourways.iter().enumerate() {
                    let (id, new) = colour_ids.id(&way.label);
                    if new {
                        colour_vocab.push(way.label.clone());
                    }
                    // A product counts once per colour even if two colourways share a label.
                    if !colours.contains(&id) {
                        colours.push(id);
                        colour_ways.push(k);
                    }
                }
                let mut sizes = Vec::new();
                for size in &r.sizes {
                    let (id, new) = size_ids.id(size);
                    if new {
                        size_vocab.push(size.clone());
                    }
                    if !sizes.contains(&id) {
                        sizes.push(id);
                    }
                }
                RecordValues {
                    colours,
                    colour_ways,
                    sizes,
                }
            })
            .collect();
        ListingIndex {
            values,
            colour_vocab,
            size_vocab,
            records,
            by_id,
            by_category,
            by_collection,
        }
    }

    /// The filters as masks; a label the index does not know matches nothing.
    fn masks(&self, filters: &Filters) -> FilterMasks {
        fn mask<'a>(wanted: &[String], vocab: impl Iterator<Item = &'a str>) -> Option<Vec<bool>> {
            (!wanted.is_empty()).then(|| vocab.map(|v| wanted.iter().any(|w| w == v)).collect())
        }
        FilterMasks {
            colours: mask(
                &filters.colours,
                self.colour_vocab.iter().map(String::as_str),
            ),
            sizes: mask(&filters.sizes, self.size_vocab.iter().map(String::as_str)),
            price: filters.price,
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
        let masks = self.masks(filters);
        let matching: Vec<usize> = scope
            .iter()
            .copied()
            .filter(|&i| {
                let v = &self.values[i];
                masks.colour_ok(v) && masks.size_ok(v) && masks.price_ok(&self.records[i])
            })
            .collect();
        let facets = self.facets_masked(scope, &masks);
        let total = matching.len();
        let pages = page_count(total);
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
        self.facets_masked(scope, &self.masks(filters))
    }

    fn facets_masked(&self, scope: &[usize], masks: &FilterMasks) -> Facets {
        // Counts per vocabulary id; `None` for a value not offered in this scope. A colour's
        // swatch is that of the first product in the scope to offer it (as on the static page).
        let mut colour_counts: Vec<Option<usize>> = vec![None; self.colour_vocab.len()];
        let mut colour_swatch: Vec<Option<&str>> = vec![None; self.colour_vocab.len()];
        let mut size_counts: Vec<Option<usize>> = vec![None; self.size_vocab.len()];
        let mut size_order: Vec<u32> = Vec::new();
        for &i in scope {
            let v = &self.values[i];
            let price = masks.price_ok(&self.records[i]);
            let count_colours = price && masks.size_ok(v);
            let count_sizes = price && masks.colour_ok(v);
            for (&c, &way) in v.colours.iter().zip(&v.colour_ways) {
                let count = &mut colour_counts[c as usize];
                if count.is_none() {
                    colour_swatch[c as usize] = self.records[i].colourways[way].swatch.as_deref();
                }
                *count.get_or_insert(0) += usize::from(count_colours);
            }
            for &z in &v.sizes {
                let count = &mut size_counts[z as usize];
                if count.is_none() {
                    size_order.push(z);
                }
                *count.get_or_insert(0) += usize::from(count_sizes);
            }
        }
        let mut colours: Vec<ColourFacet> = colour_counts
            .iter()
            .enumerate()
            .filter_map(|(c, count)| {
                count.map(|count| ColourFacet {
                    label: self.colour_vocab[c].clone(),
                    swatch: colour_swatch[c].map(str::to_string),
                    count,
                })
            })
            .collect();
        colours.sort_by(|a, b| a.label.cmp(&b.label));
        let sizes = size_order
            .into_iter()
            .map(|z| SizeFacet {
                label: self.size_vocab[z as usize].clone(),
                count: size_counts[z as usize].unwrap_or(0),
            })
            .collect();
        Facets { colours, sizes }
    }
}

/// Featured order: the merchandiser's sort order, then newest first, then id (as the generator's).
pub fn featured_key(r: &ProductRecord) -> (i64, std::cmp::Reverse<&str>, u64) {
    (r.sort_order, std::cmp::Reverse(r.created.as_str()), r.id)
}
