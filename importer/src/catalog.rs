//! The commerce platform's REST catalog API (v3, `{data: [...], meta: {pagination}}` lists,
//! `X-Auth-Token` authentication): channels and their currencies, categories, products with
//! variants, options, modifiers, images and custom fields, price lists assigned to the market
//! channels, and inventory at locations, mapped into the catalog export (docs/import.md).

use crate::config::{CatalogSource, ImportConfig};
use crate::error::ImportError;
use crate::etag_cache::EtagCache;
use crate::http::{Body, HttpClient, parse};
use domain::catalog::CatalogExport;
use domain::export::*;
use domain::market::MARKETS;
use futures_util::{StreamExt, TryStreamExt};
use indicatif::ProgressBar;
use reqwest::header::{HeaderMap, HeaderValue};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, HashSet};

const PRODUCTS: &str = "/v3/catalog/products";
const CATEGORIES: &str = "/v3/catalog/categories";
const INVENTORY: &str = "/v3/inventory/items";
/// Products are requested with everything the product page needs in one response.
const PRODUCT_INCLUDE: &str = "variants,images,custom_fields,options,modifiers";
/// List pages requested at once after the first: faster than one by one, gentle on rate limits.
const PAGES_IN_FLIGHT: usize = 4;
/// Ids per `id:in=` request in the per-item fetches, well inside URL length limits.
const IDS_PER_REQUEST: usize = 50;
/// A custom field that carries the badge string the export keeps as `productBadgeData`.
const BADGE_FIELD: &str = "productBadgeData";

pub struct CatalogClient {
    pub(crate) http: HttpClient,
    source: CatalogSource,
}

impl CatalogClient {
    pub fn new(cfg: &ImportConfig) -> Result<Self, ImportError> {
        let mut headers = HeaderMap::new();
        let token =
            HeaderValue::from_str(&cfg.catalog.access_token).map_err(|_| ImportError::Config {
                var: "BIGCOMMERCE_ACCESS_TOKEN",
                why: "contains characters not allowed in a header".into(),
            })?;
        headers.insert("X-Auth-Token", token);
        Ok(CatalogClient {
            http: HttpClient::new(&cfg.http, headers)?,
            source: cfg.catalog.clone(),
        })
    }
}

/// One request context: the client, the ETag cache (none for the per-item fetches, which must
/// see fresh data) and the progress bar.
pub(crate) struct Ctx<'a> {
    client: &'a CatalogClient,
    cache: Option<&'a EtagCache>,
    progress: &'a ProgressBar,
}

/// Fetches the whole catalog (the same struct the generator's loader builds from the files).
pub async fn fetch_all(
    client: &CatalogClient,
    cfg: &ImportConfig,
    cache: &EtagCache,
    progress: &ProgressBar,
) -> Result<CatalogExport, ImportError> {
    let ctx = Ctx::cached(client, cache, progress);
    let store = fetch_store(&ctx, &cfg.fallback_image).await?;
    let channels = fetch_channels(&ctx).await?;
    let categories = typed::<BcCategory>("category", "id", list(&ctx, CATEGORIES, "").await?)?;
    let mut categories = categories
        .into_iter()
        .map(BcCategory::into_raw)
        .collect::<Result<Vec<_>, _>>()?;
    let mut products = typed::<RawProduct>(
        "product",
        "id",
        list(&ctx, PRODUCTS, &format!("include={PRODUCT_INCLUDE}")).await?,
    )?;
    products.iter_mut().for_each(normalise_product);
    let prices = fetch_price_lists(&ctx, None).await?;
    let inventory = inventory_items(list(&ctx, INVENTORY, "").await?)?;
    let mut collections = match client.source.collections_category {
        Some(parent) => split_collections(parent, &mut categories, &mut products),
        None => Vec::new(),
    };
    for collection in &mut collections {
        apply_merchandised_order(&ctx, collection).await?;
    }
    Ok(CatalogExport {
        store,
        channels,
        categories,
        collections,
        products,
        prices,
        inventory,
        // Media sets live on the media host, which this import does not read: every colourway
        // falls back to its product images (docs/formats.md, catalog/media.json).
        media: BTreeMap::new(),
    })
}

/// Fresh products by id, mapped as in a full import (for webhook-driven rebuilds). Ids the
/// platform no longer has are simply absent from the result.
pub async fn fetch_products(
    client: &CatalogClient,
    ids: &[u64],
) -> Result<Vec<RawProduct>, ImportError> {
    let include = format!("include={PRODUCT_INCLUDE}");
    let items = list_by_ids(&Ctx::fresh(client), PRODUCTS, "id:in", ids, &include).await?;
    let mut products = typed::<RawProduct>("product", "id", items)?;
    products.iter_mut().for_each(normalise_product);
    Ok(products)
}

/// Fresh categories by id (without the collections split, which needs the whole tree).
pub async fn fetch_categories(
    client: &CatalogClient,
    ids: &[u64],
) -> Result<Vec<RawCategory>, ImportError> {
    let items = list_by_ids(&Ctx::fresh(client), CATEGORIES, "id:in", ids, "").await?;
    typed::<BcCategory>("category", "id", items)?
        .into_iter()
        .map(BcCategory::into_raw)
        .collect()
}

/// Fresh inventory at locations for these variants.
pub async fn fetch_inventory(
    client: &CatalogClient,
    variant_ids: &[u64],
) -> Result<Vec<RawInventoryItem>, ImportError> {
    let ctx = Ctx::fresh(client);
    inventory_items(list_by_ids(&ctx, INVENTORY, "variant_id:in", variant_ids, "").await?)
}

/// Fresh market prices for these variants, from the price lists assigned to the market channels.
pub async fn fetch_prices(
    client: &CatalogClient,
    variant_ids: &[u64],
) -> Result<Vec<RawPriceRecord>, ImportError> {
    fetch_price_lists(&Ctx::fresh(client), Some(variant_ids)).await
}

impl<'a> Ctx<'a> {
    /// A full import's context: conditional GETs through `cache`, counted on `progress`.
    pub(crate) fn cached(
        client: &'a CatalogClient,
        cache: &'a EtagCache,
        progress: &'a ProgressBar,
    ) -> Self {
        Ctx {
            client,
            cache: Some(cache),
            progress,
        }
    }

    fn fresh(client: &'a CatalogClient) -> Self {
        static HIDDEN: std::sync::OnceLock<ProgressBar> = std::sync::OnceLock::new();
        Ctx {
            client,
            cache: None,
            progress: HIDDEN.get_or_init(ProgressBar::hidden),
        }
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.client.source.store_base)
    }

    async fn get_bytes(&self, url: &str) -> Result<Vec<u8>, ImportError> {
        let body = self.client.http.get(url, self.cache).await;
        self.progress.inc(1);
        match body? {
            Body::Bytes(bytes) => Ok(bytes),
            Body::NotFound => Err(ImportError::Http {
                method: "GET",
                url: url.to_string(),
                why: "HTTP 404 Not Found".into(),
            }),
        }
    }
}

#[derive(Deserialize)]
struct Listing {
    data: Vec<Value>,
    #[serde(default)]
    meta: Option<ListingMeta>,
}

#[derive(Deserialize)]
struct ListingMeta {
    pagination: Option<Pagination>,
}

#[derive(Deserialize)]
struct Pagination {
    #[serde(default)]
    total_pages: u64,
}

/// Every page of a list endpoint for these ids (`filter` is e.g. `id:in`), a few ids a request.
async fn list_by_ids(
    ctx: &Ctx<'_>,
    path: &str,
    filter: &str,
    ids: &[u64],
    extra_query: &str,
) -> Result<Vec<(String, Value)>, ImportError> {
    let mut items = Vec::new();
    for chunk in ids.chunks(IDS_PER_REQUEST) {
        let mut query = format!("{filter}={}", join(chunk));
        if !extra_query.is_empty() {
            query = format!("{query}&{extra_query}");
        }
        items.extend(list(ctx, path, &query).await?);
    }
    Ok(items)
}

/// Every page of a list endpoint; each item keeps the URL it came from for error messages.
pub(crate) async fn list(
    ctx: &Ctx<'_>,
    path: &str,
    query: &str,
) -> Result<Vec<(String, Value)>, ImportError> {
    let separator = if query.is_empty() { "" } else { "&" };
    let page_url = |page: u64| {
        ctx.url(&format!(
            "{path}?{query}{separator}limit={}&page={page}",
            ctx.client.source.page_size
        ))
    };
    let fetch_page = |url: String| async move {
        let listing: Listing = parse("GET", &url, &ctx.get_bytes(&url).await?)?;
        Ok::<_, ImportError>((url, listing))
    };
    // The first page says how many there are; the rest are fetched a few at a time, in order.
    let (first_url, first) = fetch_page(page_url(1)).await?;
    let total_pages = first
        .meta
        .as_ref()
        .and_then(|m| m.pagination.as_ref())
        .map_or(1, |p| p.total_pages.max(1));
    ctx.progress.inc_length(total_pages - 1);
    let more = !first.data.is_empty();
    let mut items: Vec<(String, Value)> = first
        .data
        .into_iter()
        .map(|item| (first_url.clone(), item))
        .collect();
    if more && total_pages > 1 {
        let pages: Vec<(String, Listing)> = futures_util::stream::iter(2..=total_pages)
            .map(|page| fetch_page(page_url(page)))
            .buffered(PAGES_IN_FLIGHT)
            .try_collect()
            .await?;
        for (url, listing) in pages {
            items.extend(listing.data.into_iter().map(|item| (url.clone(), item)));
        }
    }
    Ok(items)
}

/// Parses list items one by one so that an error names the item by its id and the field.
pub(crate) fn typed<T: DeserializeOwned>(
    noun: &str,
    id_field: &str,
    items: Vec<(String, Value)>,
) -> Result<Vec<T>, ImportError> {
    items
        .into_iter()
        .enumerate()
        .map(|(i, (url, item))| {
            let name = match item.get(id_field) {
                Some(Value::Number(n)) => format!("{noun} {n}"),
                Some(Value::String(s)) => format!("{noun} {s}"),
                _ => format!("{noun} at index {i}"),
            };
            serde_path_to_error::deserialize::<_, T>(item).map_err(|e| ImportError::Response {
                method: "GET",
                url,
                item: name,
                field: e.path().to_string(),
                why: e.into_inner().to_string(),
            })
        })
        .collect()
}

#[derive(Deserialize)]
struct BcStore {
    name: String,
    secure_url: String,
}

/// `store.json` from the store profile (`/v2/store`), whose secure URL is the canonical origin.
async fn fetch_store(ctx: &Ctx<'_>, fallback_image: &str) -> Result<StoreSettings, ImportError> {
    let url = ctx.url("/v2/store");
    let store: BcStore = parse("GET", &url, &ctx.get_bytes(&url).await?)?;
    Ok(StoreSettings {
        name: store.name,
        base_url: store.secure_url.trim_end_matches('/').to_string(),
        fallback_image: fallback_image.to_string(),
    })
}

#[derive(Deserialize)]
struct BcChannel {
    id: u64,
    name: String,
}

#[derive(Deserialize)]
struct BcCurrencyAssignment {
    channel_id: u64,
    default_currency: String,
    #[serde(default)]
    enabled_currencies: Vec<String>,
}

/// Channels with their currency assignments; a channel without one cannot sell and is left out
/// (the loader then reports a missing market channel by name).
async fn fetch_channels(ctx: &Ctx<'_>) -> Result<Vec<RawChannel>, ImportError> {
    let channels = typed::<BcChannel>("channel", "id", list(ctx, "/v3/channels", "").await?)?;
    let url = ctx.url("/v3/channels/currency-assignments");
    let assignments: DataList<BcCurrencyAssignment> =
        parse("GET", &url, &ctx.get_bytes(&url).await?)?;
    let mut by_channel: BTreeMap<u64, BcCurrencyAssignment> = assignments
        .data
        .into_iter()
        .map(|a| (a.channel_id, a))
        .collect();
    Ok(channels
        .into_iter()
        .filter_map(|c| {
            let a = by_channel.remove(&c.id)?;
            Some(RawChannel {
                id: c.id,
                name: c.name,
                currencies: RawChannelCurrencies {
                    default_currency: a.default_currency,
                    enabled_currencies: a.enabled_currencies,
                },
            })
        })
        .collect())
}

#[derive(Deserialize)]
struct BcCategory {
    id: u64,
    parent_id: u64,
    name: String,
    #[serde(default)]
    description: String,
    #[serde(default)]
    sort_order: i64,
    #[serde(default = "yes")]
    is_visible: bool,
    custom_url: Option<BcCustomUrl>,
}

#[derive(Deserialize)]
struct BcCustomUrl {
    url: String,
}

fn yes() -> bool {
    true
}

impl BcCategory {
    fn into_raw(self) -> Result<RawCategory, ImportError> {
        let Some(custom_url) = self.custom_url else {
            return Err(ImportError::Response {
                method: "GET",
                url: "/v3/catalog/categories".into(),
                item: format!("category {}", self.id),
                field: "custom_url".into(),
                why: "missing: the storefront path of the listing comes from it".into(),
            });
        };
        Ok(RawCategory {
            id: self.id,
            parent_id: self.parent_id,
            name: self.name,
            description: self.description,
            url: custom_url.url,
            path: None,
            sort_order: self.sort_order,
            is_visible: self.is_visible,
        })
    }
}

/// The platform reports "no sale price" as 0 and "no variant image" as an empty string.
fn normalise_product(product: &mut RawProduct) {
    if product.sale_price == Some(0.0) {
        product.sale_price = None;
    }
    for variant in &mut product.variants {
        if variant.sale_price == Some(0.0) {
            variant.sale_price = None;
        }
        if variant.image_url.as_deref() == Some("") {
            variant.image_url = None;
        }
    }
    if product.product_badge_data.is_none() {
        product.product_badge_data = product
            .custom_fields
            .iter()
            .find(|f| f.name == BADGE_FIELD)
            .map(|f| f.value.clone());
    }
    product.custom_fields.retain(|f| f.name != BADGE_FIELD);
}

#[derive(Deserialize)]
struct BcPriceListAssignment {
    price_list_id: u64,
    #[serde(default)]
    customer_group_id: Option<u64>,
}

/// Price records of the price lists assigned to the market channels (for every shopper, not a
/// customer group), one per variant and currency; the first assignment wins.
async fn fetch_price_lists(
    ctx: &Ctx<'_>,
    variant_ids: Option<&[u64]>,
) -> Result<Vec<RawPriceRecord>, ImportError> {
    let channels = join(&MARKETS.map(|m| m.channel_id));
    let assignments = typed::<BcPriceListAssignment>(
        "price list assignment",
        "id",
        list(
            ctx,
            "/v3/pricelists/assignments",
            &format!("channel_id:in={channels}"),
        )
        .await?,
    )?;
    let mut seen_lists = HashSet::new();
    let mut seen_records = HashSet::new();
    let mut records = Vec::new();
    for assignment in assignments {
        if assignment.customer_group_id.unwrap_or(0) != 0
            || !seen_lists.insert(assignment.price_list_id)
        {
            continue;
        }
        let path = format!("/v3/pricelists/{}/records", assignment.price_list_id);
        let items = match variant_ids {
            None => list(ctx, &path, "").await?,
            Some(ids) => list_by_ids(ctx, &path, "variant_id:in", ids, "").await?,
        };
        for mut record in typed::<RawPriceRecord>("price record", "variant_id", items)? {
            if record.sale_price == Some(0.0) {
                record.sale_price = None;
            }
            if seen_records.insert((record.variant_id, record.currency.clone())) {
                records.push(record);
            }
        }
    }
    Ok(records)
}

fn inventory_items(items: Vec<(String, Value)>) -> Result<Vec<RawInventoryItem>, ImportError> {
    let mut items = typed::<RawInventoryItem>("inventory item", "identity", items)?;
    for item in &mut items {
        if item.all_locations_total_available_to_sell.is_none() {
            item.all_locations_total_available_to_sell = Some(
                item.locations
                    .iter()
                    .filter(|l| l.location_enabled)
                    .map(|l| l.available_to_sell)
                    .sum(),
            );
        }
    }
    Ok(items)
}

/// The platform has no collections: they are kept as the children of one category
/// (`BIGCOMMERCE_COLLECTIONS_CATEGORY`). They become collections of the products assigned to
/// them, in merchandising order, and leave the category tree along with that parent.
fn split_collections(
    parent: u64,
    categories: &mut Vec<RawCategory>,
    products: &mut [RawProduct],
) -> Vec<RawCollection> {
    let mut removed: BTreeSet<u64> = BTreeSet::from([parent]);
    // Descendants of the collections parent, whatever the order of the list.
    loop {
        let before = removed.len();
        for c in categories.iter() {
            if removed.contains(&c.parent_id) {
                removed.insert(c.id);
            }
        }
        if removed.len() == before {
            break;
        }
    }
    let mut ordered: Vec<&RawProduct> = products.iter().collect();
    ordered.sort_by_key(|p| (p.sort_order, p.id));
    let collections = categories
        .iter()
        .filter(|c| c.parent_id == parent)
        .map(|c| RawCollection {
            id: c.id,
            name: c.name.clone(),
            description: c.description.clone(),
            product_ids: ordered
                .iter()
                .filter(|p| p.categories.contains(&c.id))
                .map(|p| p.id)
                .collect(),
        })
        .collect();
    categories.retain(|c| !removed.contains(&c.id));
    for product in products.iter_mut() {
        product.categories.retain(|id| !removed.contains(id));
    }
    collections
}

#[derive(Deserialize)]
struct BcSortOrder {
    product_id: u64,
    sort_order: i64,
}

/// Orders a collection as merchandised in its category (the platform's per-category product
/// sort order); products without a position keep their place after the positioned ones.
async fn apply_merchandised_order(
    ctx: &Ctx<'_>,
    collection: &mut RawCollection,
) -> Result<(), ImportError> {
    let path = format!(
        "/v3/catalog/categories/{}/products/sort-order",
        collection.id
    );
    let positions: BTreeMap<u64, i64> = typed::<BcSortOrder>(
        "product sort order",
        "product_id",
        list(ctx, &path, "").await?,
    )?
    .into_iter()
    .map(|p| (p.product_id, p.sort_order))
    .collect();
    // A stable sort keeps the unpositioned products in their existing order.
    collection
        .product_ids
        .sort_by_key(|id| positions.get(id).copied().unwrap_or(i64::MAX));
    Ok(())
}

fn join(ids: &[u64]) -> String {
    ids.iter().map(u64::to_string).collect::<Vec<_>>().join(",")
}
