//! The page plan: every page of the site in every market, where it is written, and a fingerprint
//! of everything it is built from. Unchanged fingerprint → the page is not rendered again.

use crate::shells::SHELLS;
use crate::site::{Digest, SiteModel};
use domain::catalog::{Catalog, FILE_CATEGORIES};
use domain::content::{Content, LISTING_HEADER, listing_key};
use domain::error::{LoadError, LoadErrors};
use domain::market::{MARKETS, Market};
use domain::shops::ShopFinder;
use domain::url::{collection_path, product_path};
use rayon::prelude::*;
use std::sync::Arc;

/// The shop finder's site path, in every market.
pub const SHOP_FINDER_PATH: &str = "/shop-finder";

/// First path segments that belong to routes, so a content page may not start with them.
const RESERVED_SEGMENTS: &[&str] = &[
    "browse",
    "p",
    "api",
    "assets",
    "media",
    "us",
    "eu",
    "Home",
    "Category",
    "Product",
    "Collection",
    "OrderConfirmation",
    "SearchResults",
    "ContentPage",
    "amplience-visualization",
    "shop-finder",
    "404.html",
    "error.html",
    "sitemap.xml",
    "robots.txt",
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PageKind {
    Home,
    Category(usize),
    Collection(usize),
    Product {
        product: usize,
        colourway: usize,
    },
    Content(usize),
    Shell(usize),
    /// The shops and their search, per market (built from the export's locations).
    ShopFinder,
    NotFound,
    Error,
}

impl PageKind {
    pub fn template(&self) -> &'static str {
        match self {
            PageKind::Home => "pages/home.html",
            PageKind::Category(_) | PageKind::Collection(_) => "pages/listing.html",
            PageKind::Product { .. } => "pages/product.html",
            PageKind::Content(_) => "pages/content.html",
            PageKind::Shell(_) => "pages/shell.html",
            PageKind::ShopFinder => "pages/shop_finder.html",
            PageKind::NotFound => "pages/not_found.html",
            PageKind::Error => "pages/error.html",
        }
    }

    /// Pages that go in the sitemap and carry hreflang alternates.
    pub fn indexable(&self) -> bool {
        match self {
            PageKind::Shell(i) => SHELLS[*i].indexable,
            PageKind::NotFound | PageKind::Error => false,
            _ => true,
        }
    }
}

/// The paths are shared (`Arc<str>`): a daemon's plan reuses most pages of the previous one, and a
/// copy of a page should not copy its paths.
#[derive(Debug, Clone)]
pub struct Page {
    pub kind: PageKind,
    pub market: Market,
    /// Site path without the market prefix (`/p/1/x/Red`, `/` for home).
    pub site_path: Arc<str>,
    /// Output file relative to the site root (`us/p/1/x/Red/index.html`).
    pub file: Arc<str>,
    pub fingerprint: Digest,
}

impl Page {
    /// The URL path including the market prefix.
    pub fn url_path(&self) -> String {
        self.market.path(&self.site_path)
    }
}

/// Output file for a prefixed URL path: directories get an index.html.
pub fn file_for(url_path: &str) -> String {
    let trimmed = url_path.trim_matches('/');
    if trimmed.is_empty() {
        "index.html".to_string()
    } else if trimmed.ends_with(".html") {
        trimmed.to_string()
    } else {
        format!("{trimmed}/index.html")
    }
}

/// What every page of a market depends on: templates, bundles, settings and the layout slots.
pub struct PlanInputs<'a> {
    pub catalog: &'a Arc<Catalog>,
    pub content: &'a Content,
    pub shops: &'a ShopFinder,
    pub site: &'a SiteModel,
    pub global: [Digest; 3],
}

pub fn plan(inputs: &PlanInputs) -> Result<Vec<Page>, LoadErrors> {
    plan_reusing(inputs, &mut PlanMemo::default())
}

/// What a daemon keeps from one plan for the next: the catalog it was made from, what each item's
/// pages depend on, and each market's pages of products. A content change then re-plans no
/// product page, and a change to one product re-plans that product's pages (and those that
/// show it), reusing the other pages as they were.
#[derive(Default)]
pub struct PlanMemo {
    last: Option<LastPlan>,
}

struct LastPlan {
    catalog: Arc<Catalog>,
    global: [Digest; 3],
    deps: ItemDeps,
    /// Per market, every product's pages (one per colourway), in catalog order.
    product_pages: [Vec<Page>; 3],
    /// Where each product's pages start in `product_pages[_]` (the same in every market).
    product_start: Vec<usize>,
}

/// `plan`, reusing the pages that `memo` holds from the previous plan where they cannot have
/// changed, and keeping this plan's for the next.
pub fn plan_reusing(inputs: &PlanInputs, memo: &mut PlanMemo) -> Result<Vec<Page>, LoadErrors> {
    let last = memo.last.take();
    // Product indexes only mean the same product in a catalog of the same structure.
    let last = last.filter(|l| {
        Arc::ptr_eq(&l.catalog, inputs.catalog)
            || crate::site::same_structure(&l.catalog, inputs.catalog)
    });
    let deps = ItemDeps::reusing(
        inputs.catalog,
        inputs.site,
        last.as_ref().map(|l| (&*l.catalog, &l.deps)),
    );
    let product_start = product_starts(inputs.catalog);
    let per_market: Vec<(Vec<Page>, Vec<Page>)> = MARKETS
        .par_iter()
        .enumerate()
        .map(|(mi, market)| {
            let reuse = last
                .as_ref()
                .filter(|l| l.global[mi] == inputs.global[mi])
                .map(|l| ReusableProducts {
                    deps: &l.deps.products,
                    pages: &l.product_pages[mi],
                    start: &l.product_start,
                });
            let products = plan_products(inputs, &deps, market, reuse);
            (plan_market(inputs, &deps, mi, market, &products), products)
        })
        .collect();
    let mut pages = Vec::with_capacity(per_market.iter().map(|(p, _)| p.len()).sum());
    let mut product_pages: Vec<Vec<Page>> = Vec::with_capacity(3);
    for (market_pages, products) in per_market {
        pages.extend(market_pages);
        product_pages.push(products);
    }
    check_paths(&pages, inputs.content)?;
    warn_unplaced_headers(inputs);
    if let Ok(product_pages) = <[Vec<Page>; 3]>::try_from(product_pages) {
        memo.last = Some(LastPlan {
            catalog: inputs.catalog.clone(),
            global: inputs.global,
            deps,
            product_pages,
            product_start,
        });
    }
    Ok(pages)
}

/// Where each product's pages start in a market's product pages.
fn product_starts(catalog: &Catalog) -> Vec<usize> {
    let mut at = 0;
    catalog
        .products
        .iter()
        .map(|p| {
            let start = at;
            at += p.colourways.len();
            start
        })
        .collect()
}

/// A market's product pages from the previous plan, with what they were planned from.
#[derive(Clone, Copy)]
struct ReusableProducts<'a> {
    deps: &'a [Digest],
    pages: &'a [Page],
    start: &'a [usize],
}

/// Every product page of a market, in catalog order. A product whose dependencies are the ones
/// its previous pages were planned from (same settings, same structure) keeps those pages.
fn plan_products(
    inputs: &PlanInputs,
    deps: &ItemDeps,
    market: &Market,
    reuse: Option<ReusableProducts>,
) -> Vec<Page> {
    let mi = market.index();
    let mut pages = Vec::with_capacity(inputs.catalog.products.len() * 4);
    for (pi, product) in inputs.catalog.products.iter().enumerate() {
        if let Some(r) = reuse
            && r.deps.get(pi) == Some(&deps.products[pi])
        {
            let start = r.start[pi];
            pages.extend_from_slice(&r.pages[start..start + product.colourways.len()]);
            continue;
        }
        for (wi, way) in product.colourways.iter().enumerate() {
            pages.push(page(
                inputs.global[mi],
                market,
                PageKind::Product {
                    product: pi,
                    colourway: wi,
                },
                product_path(product.id, &product.slug, &way.segment),
                &[&deps.products[pi]],
            ));
        }
    }
    pages
}

/// A listing header whose category or collection has no page is shown nowhere: the editor hears
/// of it, and the build goes on (content and catalog are published independently).
fn warn_unplaced_headers(inputs: &PlanInputs) {
    let catalog = inputs.catalog;
    let listings: std::collections::HashSet<String> = catalog
        .categories
        .iter()
        .filter(|c| c.visible)
        .map(|c| listing_key("category", c.id))
        .chain(
            catalog
                .collections
                .iter()
                .map(|c| listing_key("collection", c.id)),
        )
        .collect();
    for (market, mc) in MARKETS.iter().zip(&inputs.content.markets) {
        for key in mc.listing_headers.keys().filter(|k| !listings.contains(*k)) {
            eprintln!(
                "warning: content {}{LISTING_HEADER}/{key}: no visible {} has that id; the header is not shown",
                market.content_prefix,
                key.split('/').next().unwrap_or("listing")
            );
        }
    }
}

/// What each category, collection and product page is built from, apart from the market: computed
/// once and shared by the three markets. `None` for a hidden category (it has no page).
#[derive(Clone)]
struct ItemDeps {
    categories: Vec<Option<Digest>>,
    collections: Vec<Digest>,
    products: Vec<Digest>,
}

impl ItemDeps {
    /// The dependencies of `catalog`'s items, taking those of `previous` (of a catalog of the same
    /// structure) for listings none of whose products changed: their facet counts are the
    /// expensive part.
    fn reusing(
        catalog: &Catalog,
        site: &SiteModel,
        previous: Option<(&Catalog, &ItemDeps)>,
    ) -> ItemDeps {
        let unchanged = |members: &[usize]| {
            previous.is_some_and(|(old, _)| {
                members
                    .iter()
                    .all(|&pi| Arc::ptr_eq(&old.products[pi], &catalog.products[pi]))
            })
        };
        let categories = catalog
            .categories
            .par_iter()
            .enumerate()
            .map(|(ci, cat)| {
                if !cat.visible {
                    return None;
                }
                if let Some((_, old)) = previous
                    && unchanged(&site.category_products[ci])
                {
                    return old.categories[ci];
                }
                let mut h = blake3::Hasher::new();
                h.update(&crate::site::digest_of(cat));
                for child in &cat.children {
                    if let Some(c) = catalog.category(*child) {
                        h.update(c.name.as_bytes());
                        h.update(c.path.as_bytes());
                    }
                }
                for a in &cat.ancestors {
                    if let Some(c) = catalog.category(*a) {
                        h.update(c.name.as_bytes());
                    }
                }
                listing_inputs(
                    &mut h,
                    catalog,
                    &site.category_products[ci],
                    &site.card_digest,
                );
                Some(*h.finalize().as_bytes())
            })
            .collect();
        let collections = catalog
            .collections
            .par_iter()
            .enumerate()
            .map(|(ci, col)| {
                if let Some((_, old)) = previous
                    && unchanged(&site.collection_products[ci])
                {
                    return old.collections[ci];
                }
                let mut h = blake3::Hasher::new();
                h.update(&crate::site::digest_of(col));
                listing_inputs(
                    &mut h,
                    catalog,
                    &site.collection_products[ci],
                    &site.card_digest,
                );
                *h.finalize().as_bytes()
            })
            .collect();
        let products = (0..catalog.products.len())
            .into_par_iter()
            .map(|pi| {
                let mut h = blake3::Hasher::new();
                h.update(&site.product_digest[pi]);
                for &r in site.recommendations[pi]
                    .iter()
                    .chain(&site.complete_the_look[pi])
                {
                    h.update(&site.card_digest[r]);
                }
                if let Some(ci) = site.primary_category[pi] {
                    let cat = &catalog.categories[ci];
                    for id in cat.ancestors.iter().chain(std::iter::once(&cat.id)) {
                        if let Some(c) = catalog.category(*id) {
                            h.update(c.name.as_bytes());
                            h.update(c.path.as_bytes());
                        }
                    }
                }
                *h.finalize().as_bytes()
            })
            .collect();
        ItemDeps {
            categories,
            collections,
            products,
        }
    }
}

/// One page: its output file and the fingerprint of what it is built from.
fn page(
    global: Digest,
    market: &Market,
    kind: PageKind,
    site_path: String,
    deps: &[&[u8]],
) -> Page {
    let mut h = blake3::Hasher::new();
    h.update(&global);
    h.update(format!("{kind:?}|{site_path}").as_bytes());
    for d in deps {
        h.update(d);
    }
    let file = file_for(&market.path(&site_path));
    Page {
        kind,
        market: *market,
        site_path: site_path.into(),
        file: file.into(),
        fingerprint: *h.finalize().as_bytes(),
    }
}

fn plan_market(
    inputs: &PlanInputs,
    deps: &ItemDeps,
    mi: usize,
    market: &Market,
    product_pages: &[Page],
) -> Vec<Page> {
    let PlanInputs {
        catalog,
        content,
        global,
        ..
    } = inputs;
    let at = |kind: PageKind, site_path: String, deps: &[&[u8]]| {
        page(global[mi], market, kind, site_path, deps)
    };
    let mut pages = Vec::with_capacity(product_pages.len() + 256);
    let mc = content.market(market);
    let home_json = mc
        .home
        .as_ref()
        .map(|h| serde_json::to_vec(h).unwrap_or_default())
        .unwrap_or_default();
    pages.push(at(PageKind::Home, "/".into(), &[&home_json]));
    // A listing's second-variant header, when the content export has one for it.
    let header_json = |kind: &str, id: u64| {
        mc.listing_headers
            .get(&listing_key(kind, id))
            .map(|h| serde_json::to_vec(h).unwrap_or_default())
            .unwrap_or_default()
    };
    for (ci, cat) in catalog.categories.iter().enumerate() {
        if let Some(d) = &deps.categories[ci] {
            let header = header_json("category", cat.id);
            pages.push(at(PageKind::Category(ci), cat.path.clone(), &[d, &header]));
        }
    }
    for (ci, col) in catalog.collections.iter().enumerate() {
        let header = header_json("collection", col.id);
        pages.push(at(
            PageKind::Collection(ci),
            collection_path(col.id),
            &[&deps.collections[ci], &header],
        ));
    }
    pages.extend_from_slice(product_pages);
    for (ci, page) in mc.pages.iter().enumerate() {
        let json = serde_json::to_vec(page).unwrap_or_default();
        pages.push(at(
            PageKind::Content(ci),
            format!("/{}", page.slug),
            &[&json],
        ));
    }
    for (si, shell) in SHELLS.iter().enumerate() {
        pages.push(at(PageKind::Shell(si), shell.path.to_string(), &[]));
    }
    // Only the shops and the gazetteer: a catalog or content change leaves the page alone.
    pages.push(at(
        PageKind::ShopFinder,
        SHOP_FINDER_PATH.into(),
        &[&crate::site::digest_of(inputs.shops)],
    ));
    pages.push(at(PageKind::NotFound, "/404.html".into(), &[]));
    pages.push(at(PageKind::Error, "/error.html".into(), &[]));
    pages
}

/// What a listing page shows of its products: the total, the first page's cards and the facet
/// counts. A product further down the listing changes the page only through these.
fn listing_inputs(
    h: &mut blake3::Hasher,
    catalog: &Catalog,
    members: &[usize],
    card_digest: &[Digest],
) {
    h.update(&members.len().to_le_bytes());
    for &pi in search::first_page(members) {
        h.update(&card_digest[pi]);
    }
    h.update(
        crate::view::facets::facets(catalog, members)
            .to_string()
            .as_bytes(),
    );
}

/// Two pages wanting the same file, or a content page inside another route's namespace, is an error.
fn check_paths(pages: &[Page], content: &Content) -> Result<(), LoadErrors> {
    let mut errors = LoadErrors::default();
    // Fx hashing: ~120k of the site's own paths, on every rebuild.
    let mut owners: rustc_hash::FxHashMap<&str, &Page> =
        rustc_hash::FxHashMap::with_capacity_and_hasher(pages.len(), Default::default());
    let describe = |p: &Page| -> (String, String) {
        match p.kind {
            PageKind::Content(ci) => (
                format!("content/ ({} market)", p.market.code),
                format!(
                    "content item {}",
                    content.market(&p.market).pages[ci].delivery_id
                ),
            ),
            PageKind::Category(_) => (
                FILE_CATEGORIES.to_string(),
                format!("category at {}", p.site_path),
            ),
            _ => ("routes".to_string(), format!("{:?} page", p.kind)),
        }
    };
    for page in pages {
        if let PageKind::Content(_) = page.kind {
            let first = page
                .site_path
                .trim_start_matches('/')
                .split('/')
                .next()
                .unwrap_or("");
            let shell_clash = SHELLS
                .iter()
                .any(|s| s.path.trim_start_matches('/').split('/').next() == Some(first));
            if RESERVED_SEGMENTS.contains(&first) || shell_clash {
                let (file, item) = describe(page);
                errors.push(LoadError::new(
                    file,
                    item,
                    "_meta.deliveryKey",
                    format!("path {} is taken by the /{first} route", page.url_path()),
                ));
                continue;
            }
        }
        if let Some(other) = owners.insert(&page.file, page) {
            let (file, item) = describe(page);
            let (_, other_item) = describe(other);
            errors.push(LoadError::new(
                file,
                item,
                "path",
                format!(
                    "two pages want the same path {}: this one and {other_item}",
                    page.url_path()
                ),
            ));
        }
    }
    errors.into_result(())
}
