//! The validated catalog: categories, products with their colourways and per-market prices,
//! collections and inventory, built from the raw export by `Catalog::from_export`, which reports
//! every problem with the file, the item and the field.

use crate::error::{LoadError, LoadErrors};
use crate::export::*;
use crate::limits::{check_name, check_path, check_segment};
use crate::market::{MARKETS, Market};
use crate::money::Money;
use crate::url::{colour_segment, slugify};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

/// Serialises shared items as the items themselves (serde's `rc` feature would do it for every
/// crate in the build, and rebuild them all).
fn serialize_shared<S: serde::Serializer, T: Serialize>(
    items: &[Arc<T>],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_seq(items.iter().map(|i| &**i))
}

/// Style codes that mark gift cards.
pub const GIFT_CARD_STYLE_CODES: [&str; 2] = ["100000", "100001"];
/// Product page custom fields, in display order.
pub const CUSTOM_FIELD_ORDER: [&str; 10] = [
    "fabric_composition",
    "model_wears_displayed",
    "standard_measurements_displayed",
    "petite_model_displayed",
    "petite_measurements_displayed",
    "neck_collar_shape",
    "sleeve_length",
    "product_fit",
    "styling_length",
    "washcare",
];
/// The route allows five category slugs.
pub const MAX_CATEGORY_DEPTH: usize = 5;

/// Everything `Catalog::from_export` needs, already parsed from the export files.
pub struct CatalogExport {
    pub store: StoreSettings,
    pub channels: Vec<RawChannel>,
    pub categories: Vec<RawCategory>,
    pub collections: Vec<RawCollection>,
    pub products: Vec<RawProduct>,
    pub prices: Vec<RawPriceRecord>,
    pub inventory: Vec<RawInventoryItem>,
    pub media: BTreeMap<String, RawMediaSet>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Catalog {
    pub store: StoreSettingsModel,
    pub categories: Vec<Category>,
    /// Shared, so a daemon's next catalog reuses every product a change did not touch, and what
    /// was derived from a product can be reused while `Arc::ptr_eq` says it is the same one.
    #[serde(serialize_with = "serialize_shared")]
    pub products: Vec<Arc<Product>>,
    pub collections: Vec<Collection>,
    /// Stock per variant id. Never shown on static pages; the API serves it.
    #[serde(skip)]
    pub inventory: HashMap<u64, Stock>,
    #[serde(skip)]
    category_index: HashMap<u64, usize>,
    #[serde(skip)]
    product_index: HashMap<u64, usize>,
    /// Variant id → product id, to keep variant ids unique when products are replaced.
    #[serde(skip)]
    variant_owner: HashMap<u64, u64>,
}

#[derive(Debug, Clone, Serialize)]
pub struct StoreSettingsModel {
    pub name: String,
    pub base_url: String,
    pub fallback_image: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct Category {
    pub id: u64,
    pub parent_id: Option<u64>,
    pub name: String,
    pub description: String,
    /// Listing path without the trailing slash: `/browse/womens/dresses`.
    pub path: String,
    /// Ancestor ids, root first.
    pub ancestors: Vec<u64>,
    pub children: Vec<u64>,
    pub sort_order: i64,
    pub visible: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct Collection {
    pub id: u64,
    pub name: String,
    pub description: String,
    pub product_ids: Vec<u64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum InventoryTracking {
    None,
    Product,
    Variant,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OptionKind {
    /// Color, or Design on gift cards.
    Colour,
    Size,
    Length,
    Other,
}

#[derive(Debug, Clone, Serialize)]
pub struct ProductOption {
    pub id: u64,
    pub kind: OptionKind,
    pub display_name: String,
    pub values: Vec<OptionValue>,
}

#[derive(Debug, Clone, Serialize)]
pub struct OptionValue {
    pub id: u64,
    pub label: String,
    pub is_default: bool,
    /// Swatch colour (`#1d1d1b`) for colour values.
    pub swatch: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Modifier {
    pub id: u64,
    pub display_name: String,
    pub kind: String,
    pub required: bool,
    pub sort_order: i64,
}

/// A price in one market: the list price and, when lower, the sale price.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Price {
    pub price: Money,
    pub sale: Option<Money>,
}

impl Price {
    /// What the shopper pays.
    pub fn current(&self) -> Money {
        self.sale.unwrap_or(self.price)
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Variant {
    pub id: u64,
    pub sku: String,
    pub colour: Option<u64>,
    pub size: Option<u64>,
    pub length: Option<u64>,
    /// Values of options other than colour/size/length, by option id.
    pub other_options: Vec<(u64, u64)>,
    pub purchasing_disabled: bool,
    /// Per market, in `MARKETS` order.
    pub prices: [Price; 3],
    pub image_url: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct MediaItem {
    pub video: bool,
    pub src: String,
    pub alt: String,
}

/// One colour of a product: its own product page, media and variants.
#[derive(Debug, Clone, Serialize)]
pub struct Colourway {
    pub value_id: Option<u64>,
    pub label: String,
    /// URL segment: the label with spaces as underscores.
    pub segment: String,
    pub swatch: Option<String>,
    pub media: Vec<MediaItem>,
    pub variant_ids: Vec<u64>,
    /// Per market: the lowest current price among this colourway's variants, and its list price.
    pub prices: [Price; 3],
}

#[derive(Debug, Clone, Serialize)]
pub struct Badge {
    pub name: String,
    pub text_colour: String,
    pub background_colour: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct CustomField {
    pub name: String,
    pub value: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct Product {
    pub id: u64,
    pub sku: String,
    pub style_code: String,
    pub name: String,
    pub slug: String,
    pub description_html: String,
    /// Category ids as exported (leaf categories and their ancestors).
    pub categories: Vec<u64>,
    pub is_price_hidden: bool,
    pub inventory_tracking: InventoryTracking,
    pub date_created: String,
    pub sort_order: i64,
    pub is_gift_card: bool,
    pub options: Vec<ProductOption>,
    pub modifiers: Vec<Modifier>,
    pub variants: Vec<Variant>,
    pub colourways: Vec<Colourway>,
    /// Custom fields the product page shows, in the spec's order.
    pub custom_fields: Vec<CustomField>,
    pub badge: Option<Badge>,
    /// The `product_badge` custom field.
    pub product_badge: Option<String>,
}

impl Product {
    pub fn option(&self, kind: OptionKind) -> Option<&ProductOption> {
        self.options.iter().find(|o| o.kind == kind)
    }

    /// A product is on sale in a market when any variant's sale price is below its list price.
    pub fn on_sale(&self, market: &Market) -> bool {
        self.variants
            .iter()
            .any(|v| v.prices[market.index()].sale.is_some())
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Stock {
    pub variant_id: u64,
    pub sku: String,
    pub locations: Vec<LocationStock>,
}

#[derive(Debug, Clone, Copy, Serialize)]
pub struct LocationStock {
    pub location_id: u64,
    pub enabled: bool,
    pub available_to_sell: i64,
}

impl Stock {
    /// Units sellable from the enabled locations.
    pub fn available(&self) -> i64 {
        self.locations
            .iter()
            .filter(|l| l.enabled)
            .map(|l| l.available_to_sell.max(0))
            .sum()
    }
}

impl Catalog {
    /// `(product id, variant id, units in stock)` of every variant a shopper can add to the bag,
    /// gift cards aside (they track no stock).
    pub fn purchasable_stock(&self) -> impl Iterator<Item = (u64, u64, i64)> + '_ {
        self.products
            .iter()
            .filter(|p| !p.is_gift_card)
            .flat_map(|p| {
                p.variants
                    .iter()
                    .filter(|v| !v.purchasing_disabled)
                    .map(move |v| (p.id, v.id))
            })
            .filter_map(|(p, v)| self.inventory.get(&v).map(|s| (p, v, s.available())))
    }

    pub fn category(&self, id: u64) -> Option<&Category> {
        self.category_index.get(&id).map(|&i| &self.categories[i])
    }

    pub fn product(&self, id: u64) -> Option<&Product> {
        self.product_index.get(&id).map(|&i| &*self.products[i])
    }

    /// Builds and validates the catalog. Collects every problem rather than stopping at the first.
    pub fn from_export(export: CatalogExport) -> Result<Catalog, LoadErrors> {
        let mut errors = LoadErrors::default();
        check_channels(&export.channels, &mut errors);
        let store = check_store(&export.store, &mut errors);
        let categories = build_categories(&export.categories, &mut errors);
        let category_index: HashMap<u64, usize> = categories
            .iter()
            .enumerate()
            .map(|(i, c)| (c.id, i))
            .collect();

        let prices = index_prices(&export.prices, &mut errors);
        let mut seen_products = HashSet::new();
        let mut seen_variants = HashMap::new();
        let mut products = Vec::with_capacity(export.products.len());
        let mut unique = Vec::with_capacity(export.products.len());
        for raw in &export.products {
            if !seen_products.insert(raw.id) {
                errors.push(LoadError::new(
                    FILE_PRODUCTS,
                    product_item(raw.id),
                    "id",
                    "duplicate product id",
                ));
                continue;
            }
            for v in &raw.variants {
                if let Some(other) = seen_variants.insert(v.id, raw.id) {
                    errors.push(LoadError::new(
                        FILE_PRODUCTS,
                        product_item(raw.id),
                        "variants[].id",
                        format!("variant id {} is also used by product {other}", v.id),
                    ));
                }
            }
            unique.push(raw);
        }
        // Building a product is independent of the others: in parallel, errors kept in order.
        let built: Vec<(Option<Arc<Product>>, LoadErrors)> = unique
            .par_iter()
            .map(|raw| {
                let mut errors = LoadErrors::default();
                let product =
                    build_product(raw, &category_index, &prices, &export.media, &mut errors);
                (product.map(Arc::new), errors)
            })
            .collect();
        for (product, product_errors) in built {
            errors.extend(product_errors);
            products.extend(product);
        }
        let product_index: HashMap<u64, usize> = products
            .iter()
            .enumerate()
            .map(|(i, p)| (p.id, i))
            .collect();
        let collections = build_collections(&export.collections, &seen_products, &mut errors);
        let inventory = build_inventory(&export.inventory, &seen_variants, &mut errors);
        errors.into_result(Catalog {
            store,
            categories,
            products,
            collections,
            inventory,
            category_index,
            product_index,
            variant_owner: seen_variants,
        })
    }

    /// This catalog with some existing products rebuilt from fresh export records (a webhook's
    /// change), validated by the same rules as `from_export`; every other product is shared, not
    /// copied. `None` when a product is new (the caller builds the whole catalog instead), so
    /// product positions never move here. `inventory` replaces the stock of the products' variants.
    pub fn with_products(
        &self,
        products: &[RawProduct],
        prices: &[RawPriceRecord],
        inventory: &[RawInventoryItem],
        media: &BTreeMap<String, RawMediaSet>,
    ) -> Option<Result<Catalog, LoadErrors>> {
        let mut next = self.clone();
        let mut errors = LoadErrors::default();
        let prices = index_prices(prices, &mut errors);
        for raw in products {
            let at = *self.product_index.get(&raw.id)?;
            for v in &self.products[at].variants {
                next.variant_owner.remove(&v.id);
                next.inventory.remove(&v.id);
            }
            for v in &raw.variants {
                if let Some(other) = next.variant_owner.insert(v.id, raw.id)
                    && other != raw.id
                {
                    errors.push(LoadError::new(
                        FILE_PRODUCTS,
                        product_item(raw.id),
                        "variants[].id",
                        format!("variant id {} is also used by product {other}", v.id),
                    ));
                }
            }
            if let Some(p) = build_product(raw, &self.category_index, &prices, media, &mut errors) {
                next.products[at] = Arc::new(p);
            }
        }
        next.inventory
            .extend(build_inventory(inventory, &next.variant_owner, &mut errors));
        Some(errors.into_result(next))
    }
}

pub const FILE_STORE: &str = "store.json";
pub const FILE_CHANNELS: &str = "catalog/channels.json";
pub const FILE_CATEGORIES: &str = "catalog/categories.json";
pub const FILE_COLLECTIONS: &str = "catalog/collections.json";
pub const FILE_PRODUCTS: &str = "catalog/products.json";
pub const FILE_PRICES: &str = "catalog/price-lists.json";
pub const FILE_INVENTORY: &str = "catalog/inventory.json";
pub const FILE_MEDIA: &str = "catalog/media.json";

fn product_item(id: u64) -> String {
    format!("product {id}")
}

fn check_store(raw: &StoreSettings, errors: &mut LoadErrors) -> StoreSettingsModel {
    let base_url = raw.base_url.trim_end_matches('/').to_string();
    if !(base_url.starts_with("https://") || base_url.starts_with("http://")) {
        errors.push(LoadError::new(
            FILE_STORE,
            "store",
            "base_url",
            "must be an absolute http(s) URL",
        ));
    }
    if raw.name.trim().is_empty() {
        errors.push(LoadError::new(
            FILE_STORE,
            "store",
            "name",
            "must not be empty",
        ));
    }
    if let Err(e) = check_name(&raw.name) {
        errors.push(LoadError::new(FILE_STORE, "store", "name", e));
    }
    StoreSettingsModel {
        name: raw.name.clone(),
        base_url,
        fallback_image: raw.fallback_image.clone(),
    }
}

fn check_channels(channels: &[RawChannel], errors: &mut LoadErrors) {
    for market in MARKETS {
        match channels.iter().find(|c| c.id == market.channel_id) {
            None => errors.push(LoadError::new(
                FILE_CHANNELS,
                format!("market {}", market.code),
                "id",
                format!(
                    "missing market configuration: no channel {} for the {} market",
                    market.channel_id, market.name
                ),
            )),
            Some(c) if c.currencies.default_currency != market.currency.code() => {
                errors.push(LoadError::new(
                    FILE_CHANNELS,
                    format!("channel {}", c.id),
                    "currencies.default_currency",
                    format!(
                        "is {}, the {} market sells in {}",
                        c.currencies.default_currency,
                        market.name,
                        market.currency.code()
                    ),
                ))
            }
            Some(_) => {}
        }
    }
}

fn build_categories(raw: &[RawCategory], errors: &mut LoadErrors) -> Vec<Category> {
    let by_id: HashMap<u64, &RawCategory> = raw.iter().map(|c| (c.id, c)).collect();
    let mut seen = HashSet::new();
    let mut out = Vec::with_capacity(raw.len());
    for c in raw {
        let item = format!("category {}", c.id);
        if !seen.insert(c.id) {
            errors.push(LoadError::new(
                FILE_CATEGORIES,
                item,
                "id",
                "duplicate category id",
            ));
            continue;
        }
        // Walk up the parent chain, catching unknown parents, cycles and excessive depth.
        let mut ancestors = Vec::new();
        let mut cursor = c.parent_id;
        let mut broken = false;
        while cursor != 0 {
            if cursor == c.id || ancestors.contains(&cursor) {
                errors.push(LoadError::new(
                    FILE_CATEGORIES,
                    &item,
                    "parent_id",
                    format!("category cycle through category {cursor}"),
                ));
                broken = true;
                break;
            }
            match by_id.get(&cursor) {
                None => {
                    let field = if cursor == c.parent_id {
                        "parent_id"
                    } else {
                        "parent_id (ancestor)"
                    };
                    errors.push(LoadError::new(
                        FILE_CATEGORIES,
                        &item,
                        field,
                        format!("unknown parent category {cursor}"),
                    ));
                    broken = true;
                    break;
                }
                Some(parent) => {
                    ancestors.push(cursor);
                    cursor = parent.parent_id;
                }
            }
        }
        if broken {
            continue;
        }
        ancestors.reverse();
        if ancestors.len() + 1 > MAX_CATEGORY_DEPTH {
            errors.push(LoadError::new(
                FILE_CATEGORIES,
                &item,
                "parent_id",
                format!(
                    "is {} levels deep; the listing route allows {MAX_CATEGORY_DEPTH}",
                    ancestors.len() + 1
                ),
            ));
            continue;
        }
        if let Some(path) = &c.path
            && *path != ancestors
        {
            errors.push(LoadError::new(
                FILE_CATEGORIES,
                &item,
                "path",
                format!("{path:?} does not match the parent chain {ancestors:?}"),
            ));
        }
        let expected_prefix = match by_id.get(&c.parent_id) {
            Some(parent) => parent.url.clone(),
            None => "/browse/".to_string(),
        };
        // By strip, not by index: the url may be the prefix alone ("/browse/"), whose
        // "segment" would start after it ends.
        let url_ok = (c.url.strip_prefix(expected_prefix.as_str()))
            .and_then(|rest| rest.strip_suffix('/'))
            .is_some_and(|seg| !seg.is_empty() && !seg.contains('/') && slugify(seg) == seg);
        if !url_ok {
            errors.push(LoadError::new(
                FILE_CATEGORIES,
                &item,
                "url",
                format!(
                    "{:?} must be {expected_prefix:?} followed by one lower-case slug and '/'",
                    c.url
                ),
            ));
            continue;
        }
        // The category's slug is a directory of the site and its name a heading.
        let url_segment = c.url[expected_prefix.len()..].trim_end_matches('/');
        let length_problems = [
            ("name", check_name(&c.name)),
            ("url", check_segment(url_segment).and(check_path(&c.url))),
        ];
        // The category is still kept, so its products and children are not also reported.
        for (field, result) in length_problems {
            if let Err(e) = result {
                errors.push(LoadError::new(FILE_CATEGORIES, &item, field, e));
            }
        }
        if c.url == "/browse/collection/" {
            errors.push(LoadError::new(
                FILE_CATEGORIES,
                &item,
                "url",
                "/browse/collection/ is reserved for collections",
            ));
            continue;
        }
        out.push(Category {
            id: c.id,
            parent_id: (c.parent_id != 0).then_some(c.parent_id),
            name: c.name.clone(),
            description: c.description.clone(),
            path: c.url.trim_end_matches('/').to_string(),
            ancestors,
            children: Vec::new(),
            sort_order: c.sort_order,
            visible: c.is_visible,
        });
    }
    let index: HashMap<u64, usize> = out.iter().enumerate().map(|(i, c)| (c.id, i)).collect();
    let mut children: Vec<(usize, u64, i64)> = out
        .iter()
        .filter_map(|c| {
            c.parent_id
                .and_then(|p| index.get(&p).map(|&pi| (pi, c.id, c.sort_order)))
        })
        .collect();
    children.sort_by_key(|&(p, id, order)| (p, order, id));
    for (parent, id, _) in children {
        out[parent].children.push(id);
    }
    out
}

/// A variant's list price and sale price in one currency, or `None` when its record was invalid
/// (already reported against the file that holds it).
type PriceIndex = HashMap<(u64, crate::market::Currency), Option<PricePair>>;
type PricePair = (Money, Option<Money>);

/// Converts an export's list and sale amounts; an error names the field (`price` or
/// `sale_price`) so the caller reports it against its own file and item. A sale price that is
/// zero or not below the list price is no sale.
fn price_pair(
    list: f64,
    sale: Option<f64>,
    currency: crate::market::Currency,
) -> Result<PricePair, (&'static str, String)> {
    let list = Money::from_decimal(list, currency).map_err(|e| ("price", e))?;
    let sale = sale
        .map(|s| Money::from_decimal(s, currency))
        .transpose()
        .map_err(|e| ("sale_price", e))?;
    Ok((list, sale.filter(|s| s.minor > 0 && s.minor < list.minor)))
}

fn index_prices(raw: &[RawPriceRecord], errors: &mut LoadErrors) -> PriceIndex {
    let mut out = HashMap::with_capacity(raw.len());
    for (i, r) in raw.iter().enumerate() {
        let item = format!("price record {i} (variant {})", r.variant_id);
        let Some(cur) = crate::market::Currency::from_code(&r.currency) else {
            errors.push(LoadError::new(
                FILE_PRICES,
                item,
                "currency",
                format!("unknown currency {:?}", r.currency),
            ));
            continue;
        };
        let pair = price_pair(r.price, r.sale_price, cur)
            .map_err(|(field, e)| errors.push(LoadError::new(FILE_PRICES, &item, field, e)))
            .ok();
        if out.insert((r.variant_id, cur), pair).is_some() {
            errors.push(LoadError::new(
                FILE_PRICES,
                item,
                "currency",
                format!("a second {} price for the same variant", r.currency),
            ));
        }
    }
    out
}

fn option_kind(display_name: &str) -> OptionKind {
    match display_name.to_ascii_lowercase().as_str() {
        "color" | "colour" | "design" => OptionKind::Colour,
        "size" => OptionKind::Size,
        "length" => OptionKind::Length,
        _ => OptionKind::Other,
    }
}

fn build_product(
    raw: &RawProduct,
    categories: &HashMap<u64, usize>,
    prices: &PriceIndex,
    media: &BTreeMap<String, RawMediaSet>,
    errors: &mut LoadErrors,
) -> Option<Product> {
    let item = product_item(raw.id);
    let before = errors.len();
    let err = |errors: &mut LoadErrors, field: &str, msg: String| {
        errors.push(LoadError::new(FILE_PRODUCTS, &item, field, msg))
    };

    if raw.sku.chars().count() < 6 {
        err(
            errors,
            "sku",
            format!("{:?} is shorter than the 6-character style code", raw.sku),
        );
    }
    if raw.name.trim().is_empty() {
        err(errors, "name", "must not be empty".into());
    }
    // The name is the page heading and, slugged, a directory of the product's pages (the slug
    // has at most as many bytes as the name has characters).
    if let Err(e) = check_name(&raw.name) {
        err(errors, "name", e);
    }
    let style_code: String = raw.sku.chars().take(6).collect();
    let inventory_tracking = match raw.inventory_tracking.as_str() {
        "none" => InventoryTracking::None,
        "product" => InventoryTracking::Product,
        "variant" => InventoryTracking::Variant,
        other => {
            err(
                errors,
                "inventory_tracking",
                format!("{other:?} is not one of none, product, variant"),
            );
            InventoryTracking::None
        }
    };
    for (i, cat) in raw.categories.iter().enumerate() {
        if !categories.contains_key(cat) {
            err(
                errors,
                &format!("categories[{i}]"),
                format!("unknown category {cat}"),
            );
        }
    }
    let mut options = Vec::with_capacity(raw.options.len());
    let mut kinds_seen = HashSet::new();
    for (i, o) in raw.options.iter().enumerate() {
        let kind = option_kind(&o.display_name);
        if kind != OptionKind::Other && !kinds_seen.insert(kind) {
            err(
                errors,
                &format!("options[{i}].display_name"),
                format!("a second {:?} option", o.display_name),
            );
        }
        if let Err(e) = check_name(&o.display_name) {
            err(errors, &format!("options[{i}].display_name"), e);
        }
        // Option labels are shown on buttons; a colour's label is also a path segment.
        for (j, v) in o.option_values.iter().enumerate() {
            let field = format!("options[{i}].option_values[{j}].label");
            let segment_ok = || match kind {
                OptionKind::Colour => check_segment(&colour_segment(&v.label)),
                _ => Ok(()),
            };
            if let Err(e) = check_name(&v.label).and_then(|()| segment_ok()) {
                err(errors, &field, e);
            }
        }
        if o.option_values.is_empty() {
            err(
                errors,
                &format!("options[{i}].option_values"),
                "an option needs at least one value".into(),
            );
        }
        let mut values: Vec<&RawOptionValue> = o.option_values.iter().collect();
        values.sort_by_key(|v| v.sort_order);
        options.push(ProductOption {
            id: o.id,
            kind,
            display_name: o.display_name.clone(),
            values: values
                .into_iter()
                .map(|v| OptionValue {
                    id: v.id,
                    label: v.label.clone(),
                    is_default: v.is_default,
                    swatch: v
                        .value_data
                        .as_ref()
                        .and_then(|d| d.colors.first().cloned()),
                })
                .collect(),
        });
    }
    if raw.variants.is_empty() {
        err(
            errors,
            "variants",
            "a product needs at least one variant".into(),
        );
    }
    // The product's own UK price, checked once: variants without a price of their own use it.
    let base_gbp = price_pair(raw.price, raw.sale_price, crate::market::Currency::Gbp)
        .map_err(|(name, e)| err(errors, name, e))
        .ok();
    let mut variants = Vec::with_capacity(raw.variants.len());
    for (vi, v) in raw.variants.iter().enumerate() {
        let mut colour = None;
        let mut size = None;
        let mut length = None;
        let mut other_options = Vec::new();
        let mut named = HashSet::new();
        for (oi, ov) in v.option_values.iter().enumerate() {
            let field = format!("variants[{vi}].option_values[{oi}]");
            let Some(option) = options.iter().find(|o| o.id == ov.option_id) else {
                err(
                    errors,
                    &format!("{field}.option_id"),
                    format!("unknown option {} (variant {})", ov.option_id, v.id),
                );
                continue;
            };
            if !option.values.iter().any(|val| val.id == ov.id) {
                err(
                    errors,
                    &format!("{field}.id"),
                    format!(
                        "unknown option value {} for option {} (variant {})",
                        ov.id, option.display_name, v.id
                    ),
                );
                continue;
            }
            named.insert(option.id);
            match option.kind {
                OptionKind::Colour => colour = Some(ov.id),
                OptionKind::Size => size = Some(ov.id),
                OptionKind::Length => length = Some(ov.id),
                OptionKind::Other => other_options.push((option.id, ov.id)),
            }
        }
        for option in &options {
            if !named.contains(&option.id) {
                err(
                    errors,
                    &format!("variants[{vi}].option_values"),
                    format!(
                        "variant {} has no value for option {}",
                        v.id, option.display_name
                    ),
                );
            }
        }
        let mut market_prices = [Price {
            price: Money::new(0, MARKETS[0].currency),
            sale: None,
        }; 3];
        for (mi, market) in MARKETS.iter().enumerate() {
            let (list, sale) = match prices.get(&(v.id, market.currency)) {
                Some(Some(pair)) => *pair,
                // An invalid price-list record is reported against catalog/price-lists.json.
                Some(None) => continue,
                // The UK price may come from the product itself, the variant's own price first.
                None if market.currency == crate::market::Currency::Gbp => {
                    if v.price.is_none() && v.sale_price.is_none() {
                        match base_gbp {
                            Some(pair) => pair,
                            None => continue,
                        }
                    } else {
                        let list = v.price.unwrap_or(raw.price);
                        let sale = v.sale_price.or(raw.sale_price);
                        match price_pair(list, sale, market.currency) {
                            Ok(pair) => pair,
                            Err((name, e)) => {
                                let own = if name == "price" {
                                    v.price
                                } else {
                                    v.sale_price
                                };
                                let field = match own {
                                    Some(_) => format!("variants[{vi}].{name}"),
                                    None => name.to_string(),
                                };
                                err(errors, &field, e);
                                continue;
                            }
                        }
                    }
                }
                None => {
                    err(
                        errors,
                        &format!("variants[{vi}]"),
                        format!(
                            "variant {} has no {} price in {FILE_PRICES}",
                            v.id,
                            market.currency.code()
                        ),
                    );
                    continue;
                }
            };
            market_prices[mi] = Price { price: list, sale };
        }
        variants.push(Variant {
            id: v.id,
            sku: v.sku.clone(),
            colour,
            size,
            length,
            other_options,
            purchasing_disabled: v.purchasing_disabled,
            prices: market_prices,
            image_url: v.image_url.clone(),
        });
    }
    if errors.len() > before {
        return None;
    }

    let colourways = build_colourways(raw, &style_code, &options, &variants, media);
    let mut custom_fields: Vec<CustomField> = CUSTOM_FIELD_ORDER
        .iter()
        .filter_map(|name| raw.custom_fields.iter().find(|f| f.name == *name))
        .map(|f| CustomField {
            name: f.name.clone(),
            value: f.value.clone(),
        })
        .collect();
    custom_fields.retain(|f| !f.value.trim().is_empty());
    let product_badge = raw
        .custom_fields
        .iter()
        .find(|f| f.name == "product_badge")
        .map(|f| f.value.trim().to_string())
        .filter(|v| !v.is_empty() && v != "null");
    let badge = match raw.product_badge_data.as_deref().map(parse_badge_data) {
        Some(Ok(b)) => b,
        Some(Err(e)) => {
            err(errors, "productBadgeData", e);
            return None;
        }
        None => None,
    };
    let mut modifiers: Vec<Modifier> = raw
        .modifiers
        .iter()
        .map(|m| Modifier {
            id: m.id,
            display_name: m.display_name.clone(),
            kind: m.kind.clone(),
            required: m.required,
            sort_order: m.sort_order,
        })
        .collect();
    modifiers.sort_by_key(|m| m.sort_order);
    let slug = slugify(&raw.name);
    Some(Product {
        id: raw.id,
        sku: raw.sku.clone(),
        is_gift_card: GIFT_CARD_STYLE_CODES.contains(&style_code.as_str()),
        style_code,
        slug: if slug.is_empty() {
            raw.id.to_string()
        } else {
            slug
        },
        name: raw.name.clone(),
        description_html: raw.description.clone(),
        categories: raw.categories.clone(),
        is_price_hidden: raw.is_price_hidden,
        inventory_tracking,
        date_created: raw.date_created.clone(),
        sort_order: raw.sort_order,
        options,
        modifiers,
        variants,
        colourways,
        custom_fields,
        badge,
        product_badge,
    })
}

/// Parses `name:New In,textColour:#fff,backgroundColour:#000`. Empty data means no badge.
pub fn parse_badge_data(data: &str) -> Result<Option<Badge>, String> {
    if data.trim().is_empty() {
        return Ok(None);
    }
    let mut name = None;
    let mut text_colour = "#ffffff".to_string();
    let mut background_colour = "#1d1d1b".to_string();
    for pair in data.split(',') {
        let Some((key, value)) = pair.split_once(':') else {
            return Err(format!("{pair:?} is not a key:value pair"));
        };
        let value = value.trim().to_string();
        match key.trim() {
            "name" => name = Some(value),
            "textColour" => text_colour = value,
            "backgroundColour" => background_colour = value,
            _ => {}
        }
    }
    let name = name.ok_or("has no name: pair")?;
    Ok(Some(Badge {
        name,
        text_colour,
        background_colour,
    }))
}

fn build_colourways(
    raw: &RawProduct,
    style_code: &str,
    options: &[ProductOption],
    variants: &[Variant],
    media: &BTreeMap<String, RawMediaSet>,
) -> Vec<Colourway> {
    let product_images = || {
        let mut images: Vec<&RawImage> = raw.images.iter().collect();
        images.sort_by_key(|i| (!i.is_thumbnail, i.sort_order));
        images
            .into_iter()
            .map(|i| MediaItem {
                video: false,
                src: i.url_standard.clone(),
                alt: if i.description.is_empty() {
                    raw.name.clone()
                } else {
                    i.description.clone()
                },
            })
            .collect::<Vec<_>>()
    };
    let colour_values: Vec<Option<&OptionValue>> =
        match options.iter().find(|o| o.kind == OptionKind::Colour) {
            Some(o) => o.values.iter().map(Some).collect(),
            None => vec![None],
        };
    colour_values
        .into_iter()
        .filter_map(|value| {
            let value_id = value.map(|v| v.id);
            let mine: Vec<&Variant> = variants.iter().filter(|v| v.colour == value_id).collect();
            if mine.is_empty() {
                return None;
            }
            let label = value
                .map(|v| v.label.clone())
                .unwrap_or_else(|| "Default".to_string());
            let segment = colour_segment(&label);
            let media_key = format!("{style_code}_{segment}");
            let mut items: Vec<MediaItem> = match media.get(&media_key) {
                Some(set) => set
                    .items
                    .iter()
                    .map(|m| MediaItem {
                        video: m.kind == "video",
                        src: m.src.clone(),
                        alt: if m.alt.is_empty() {
                            format!("{} in {label}", raw.name)
                        } else {
                            m.alt.clone()
                        },
                    })
                    .collect(),
                None => product_images(),
            };
            // The gallery puts the one video second.
            if let Some(pos) = items.iter().position(|m| m.video)
                && items.len() > 1
            {
                let video = items.remove(pos);
                items.insert(1.min(items.len()), video);
            }
            let prices = std::array::from_fn(|mi| {
                mine.iter()
                    .map(|v| v.prices[mi])
                    .min_by_key(|p| (p.current().minor, p.price.minor))
                    .expect("colourway has variants")
            });
            Some(Colourway {
                value_id,
                label,
                segment,
                swatch: value.and_then(|v| v.swatch.clone()),
                media: items,
                variant_ids: mine.iter().map(|v| v.id).collect(),
                prices,
            })
        })
        .collect()
}

fn build_collections(
    raw: &[RawCollection],
    products: &HashSet<u64>,
    errors: &mut LoadErrors,
) -> Vec<Collection> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for c in raw {
        let item = format!("collection {}", c.id);
        if !seen.insert(c.id) {
            errors.push(LoadError::new(
                FILE_COLLECTIONS,
                item,
                "id",
                "duplicate collection id",
            ));
            continue;
        }
        let mut ok = true;
        for (i, p) in c.product_ids.iter().enumerate() {
            if !products.contains(p) {
                errors.push(LoadError::new(
                    FILE_COLLECTIONS,
                    &item,
                    format!("product_ids[{i}]"),
                    format!("unknown product {p}"),
                ));
                ok = false;
            }
        }
        if ok {
            out.push(Collection {
                id: c.id,
                name: c.name.clone(),
                description: c.description.clone(),
                product_ids: c.product_ids.clone(),
            });
        }
    }
    out
}

fn build_inventory(
    raw: &[RawInventoryItem],
    variants: &HashMap<u64, u64>,
    errors: &mut LoadErrors,
) -> HashMap<u64, Stock> {
    let mut out = HashMap::with_capacity(raw.len());
    for item in raw {
        let id = item.identity.variant_id;
        let name = format!("variant {id}");
        if !variants.contains_key(&id) {
            errors.push(LoadError::new(
                FILE_INVENTORY,
                name,
                "identity.variant_id",
                format!("unknown variant {id}"),
            ));
            continue;
        }
        if let Some(l) = item.locations.iter().find(|l| l.available_to_sell < 0) {
            errors.push(LoadError::new(
                FILE_INVENTORY,
                &name,
                "locations[].available_to_sell",
                format!("is negative at location {}", l.location_id),
            ));
            continue;
        }
        let stock = Stock {
            variant_id: id,
            sku: item.identity.sku.clone(),
            locations: item
                .locations
                .iter()
                .map(|l| LocationStock {
                    location_id: l.location_id,
                    enabled: l.location_enabled,
                    available_to_sell: l.available_to_sell,
                })
                .collect(),
        };
        if out.insert(id, stock).is_some() {
            errors.push(LoadError::new(
                FILE_INVENTORY,
                name,
                "identity.variant_id",
                "a second inventory record for the same variant",
            ));
        }
    }
    out
}
