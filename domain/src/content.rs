//! The validated content export: per market, the layout slots (navigation, footer, header
//! settings, benefit bar, countdown, locale image), the home page and the content pages by slug.
//! Blocks and slots are typed here (`crate::blocks`): a known block with a bad field is a load
//! error naming the item, the block and the field; an unknown block schema is skipped with a
//! warning; a bad footer, locale image, benefit bar, countdown or app header is dropped with a
//! warning, while bad navigation fails the load (docs/content-blocks.md).

use crate::blocks::model::{
    AppHeader, BenefitBar, CountdownTimer, DesktopNavigation, Footer, ListingHeader,
    LocaleSelectorImage, MobileNavigation, PageStickers, SearchSuggestions,
};
/// Content items are selected by the same schema type as blocks.
pub use crate::blocks::schema_type;
use crate::blocks::{
    FieldIssue, Parsed, TypedBlock, check_sticker, parse_block, typed, wavy_problems,
};
use crate::error::{LoadError, LoadErrors};
use crate::market::{MARKETS, Market};
use crate::url::decode_quotes;
use serde::Serialize;
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};

/// Slot delivery keys (after the market prefix) that the page shell reads.
pub const SLOTS: [&str; 8] = [
    "desktop-navigation",
    "mobile-navigation",
    "app-header",
    "footer",
    "locale-selector-image",
    "benefit-bar",
    "countdown-timer",
    "search-suggestions",
];
pub const CONTENT_PAGE_SCHEMA: &str = "content-page";
/// Schema type, and delivery-key prefix, of the second listing-header variant.
pub const LISTING_HEADER: &str = "listing-header";
pub const HOME_KEY: &str = "home";

/// One raw content item with its file, for error messages.
pub struct ContentSource {
    pub file: String,
    pub item: Value,
}

#[derive(Debug, Clone, Serialize)]
pub struct ContentItem {
    pub delivery_id: String,
    pub delivery_key: String,
    /// Last path segment of `_meta.schema`.
    pub schema_type: String,
    pub body: Value,
}

#[derive(Debug, Clone, Serialize)]
pub struct Block {
    pub schema_type: String,
    /// The typed block as JSON, defaults filled in (what templates read).
    pub fields: Value,
    #[serde(skip)]
    pub typed: TypedBlock,
}

#[derive(Debug, Clone, Serialize)]
pub struct OpenGraph {
    pub title: String,
    pub description: String,
    pub image_url: Option<String>,
    pub image_alt: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct ContentPage {
    /// Path below the market prefix without slashes at the ends: `about-us`, `help/faqs`; empty for home.
    pub slug: String,
    pub delivery_id: String,
    pub title: String,
    /// With encoded apostrophes and quotes decoded.
    pub description: String,
    pub opengraph: OpenGraph,
    pub blocks: Vec<Block>,
    /// The typed `{desktop, mobile}` stickers as JSON (null without any).
    pub stickers: Value,
}

/// The typed layout slots of one market; `None` where a slot is missing (or was dropped).
#[derive(Debug, Clone, Default, Serialize)]
pub struct Chrome {
    pub desktop_nav: Option<DesktopNavigation>,
    pub mobile_nav: Option<MobileNavigation>,
    pub app_header: Option<AppHeader>,
    pub footer: Option<Footer>,
    pub locale_image: Option<LocaleSelectorImage>,
    pub benefit_bar: Option<BenefitBar>,
    pub countdown: Option<CountdownTimer>,
    pub search_suggestions: Option<SearchSuggestions>,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct MarketContent {
    pub slots: BTreeMap<String, ContentItem>,
    pub chrome: Chrome,
    pub home: Option<ContentPage>,
    pub pages: Vec<ContentPage>,
    /// Second-variant listing headers by listing (`category/10`, `collection/501`).
    pub listing_headers: BTreeMap<String, ListingHeader>,
    /// Problems that do not stop the build (unknown block schemas, dropped slots, broken
    /// wavy-underline tags), each naming the file, the content item and the field.
    pub warnings: Vec<String>,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct Content {
    /// In `MARKETS` order.
    pub markets: [MarketContent; 3],
}

impl Content {
    pub fn market(&self, market: &Market) -> &MarketContent {
        &self.markets[market.index()]
    }

    pub fn from_sources(sources: Vec<ContentSource>) -> Result<Content, LoadErrors> {
        let mut errors = LoadErrors::default();
        let mut content = Content::default();
        let mut ids: HashMap<String, String> = HashMap::new();
        let mut keys: HashMap<String, String> = HashMap::new();
        for source in sources {
            let Some(item) = parse_item(&source, &mut errors) else {
                continue;
            };
            let label = format!("content item {}", item.delivery_id);
            if let Some(first) = ids.insert(item.delivery_id.clone(), source.file.clone()) {
                errors.push(LoadError::new(
                    &source.file,
                    &label,
                    "_meta.deliveryId",
                    format!("duplicate deliveryId (also in {first})"),
                ));
                continue;
            }
            if let Some(first) = keys.insert(item.delivery_key.clone(), item.delivery_id.clone()) {
                errors.push(LoadError::new(
                    &source.file,
                    &label,
                    "_meta.deliveryKey",
                    format!(
                        "{:?} is also the key of content item {first}",
                        item.delivery_key
                    ),
                ));
                continue;
            }
            let Some((market, key)) = split_key(&item.delivery_key) else {
                errors.push(LoadError::new(
                    &source.file,
                    &label,
                    "_meta.deliveryKey",
                    format!(
                        "{:?} does not start with a market prefix (uk/, us/ or eu/)",
                        item.delivery_key
                    ),
                ));
                continue;
            };
            let target = &mut content.markets[market.index()];
            if SLOTS.contains(&key) {
                if item.schema_type != key {
                    errors.push(LoadError::new(
                        &source.file,
                        &label,
                        "_meta.schema",
                        format!(
                            "the {key} slot needs schema type {key}, not {}",
                            item.schema_type
                        ),
                    ));
                    continue;
                }
                type_slot(&source.file, &label, key, &item.body, target, &mut errors);
                target.slots.insert(key.to_string(), item);
            } else if let Some(listing) = key
                .strip_prefix(LISTING_HEADER)
                .and_then(|k| k.strip_prefix('/'))
            {
                listing_header(&source.file, &label, listing, &item, target, &mut errors);
            } else if item.schema_type == CONTENT_PAGE_SCHEMA {
                let slug = if key == HOME_KEY {
                    String::new()
                } else {
                    key.to_string()
                };
                let mut warnings = Vec::new();
                let page = parse_page(
                    &source.file,
                    &label,
                    slug,
                    &item,
                    &mut errors,
                    &mut warnings,
                );
                target.warnings.extend(warnings);
                if let Some(page) = page {
                    if key == HOME_KEY {
                        target.home = Some(page);
                    } else {
                        target.pages.push(page);
                    }
                }
            }
            // Items of other schemas (reusable blocks referenced elsewhere) are not pages or slots.
        }
        for m in &mut content.markets {
            m.pages.sort_by(|a, b| a.slug.cmp(&b.slug));
        }
        errors.into_result(content)
    }
}

/// The listing a `listing-header/…` key names: `category/{id}` or `collection/{id}`.
pub fn listing_key(kind: &str, id: u64) -> String {
    format!("{kind}/{id}")
}

/// Files one second-variant listing header. A key or schema that cannot name a listing is an
/// error (the editor meant a header somewhere); a header whose fields do not parse is dropped with
/// a warning and the listing keeps its plain header, like the other optional slots.
fn listing_header(
    file: &str,
    label: &str,
    listing: &str,
    item: &ContentItem,
    target: &mut MarketContent,
    errors: &mut LoadErrors,
) {
    if item.schema_type != LISTING_HEADER {
        errors.push(LoadError::new(
            file,
            label,
            "_meta.schema",
            format!(
                "a {LISTING_HEADER}/ key needs schema type {LISTING_HEADER}, not {}",
                item.schema_type
            ),
        ));
        return;
    }
    let parsed = listing.split_once('/').and_then(|(kind, id)| {
        let id = id.parse::<u64>().ok()?;
        matches!(kind, "category" | "collection").then(|| listing_key(kind, id))
    });
    let Some(key) = parsed else {
        errors.push(LoadError::new(
            file,
            label,
            "_meta.deliveryKey",
            format!(
                "{:?} does not name a listing: expected {LISTING_HEADER}/category/{{id}} or {LISTING_HEADER}/collection/{{id}}",
                item.delivery_key
            ),
        ));
        return;
    };
    match typed::<ListingHeader>(&item.body) {
        Ok(header) => {
            target.listing_headers.insert(key, header);
        }
        Err(issue) => target.warnings.push(format!(
            "{}; the listing keeps its plain header",
            field_error(file, label, "", &issue)
        )),
    }
}

fn split_key(key: &str) -> Option<(Market, &str)> {
    MARKETS.iter().find_map(|m| {
        key.strip_prefix(m.content_prefix)
            .filter(|rest| !rest.is_empty())
            .map(|rest| (*m, rest))
    })
}

fn parse_item(source: &ContentSource, errors: &mut LoadErrors) -> Option<ContentItem> {
    let meta = source.item.get("_meta");
    let id = meta
        .and_then(|m| m.get("deliveryId"))
        .and_then(Value::as_str);
    let label = match id {
        Some(id) => format!("content item {id}"),
        None => "content item (no deliveryId)".to_string(),
    };
    let Some(meta) = meta.filter(|m| m.is_object()) else {
        errors.push(LoadError::new(&source.file, label, "_meta", "missing"));
        return None;
    };
    let mut field = |name: &str| match meta.get(name).and_then(Value::as_str) {
        Some(v) if !v.trim().is_empty() => Some(v.to_string()),
        _ => {
            errors.push(LoadError::new(
                &source.file,
                &label,
                format!("_meta.{name}"),
                "missing or not a string",
            ));
            None
        }
    };
    let (delivery_id, delivery_key, schema) =
        (field("deliveryId"), field("deliveryKey"), field("schema"));
    Some(ContentItem {
        delivery_id: delivery_id?,
        delivery_key: delivery_key?,
        schema_type: schema_type(&schema?),
        body: source.item.clone(),
    })
}

fn str_field<'a>(v: &'a Value, name: &str) -> Option<&'a str> {
    v.get(name).and_then(Value::as_str)
}

fn parse_page(
    file: &str,
    label: &str,
    slug: String,
    item: &ContentItem,
    errors: &mut LoadErrors,
    warnings: &mut Vec<String>,
) -> Option<ContentPage> {
    let body = &item.body;
    let before = errors.len();
    if !slug.is_empty()
        && !slug.split('/').all(|s| {
            !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        })
    {
        errors.push(LoadError::new(
            file,
            label,
            "_meta.deliveryKey",
            format!("{slug:?} is not a valid page path (letters, digits, - and _ between slashes)"),
        ));
    }
    // Each part of the page path is a directory of the site.
    let path_ok = slug
        .split('/')
        .try_for_each(crate::limits::check_segment)
        .and_then(|()| crate::limits::check_path(&slug));
    if let Err(e) = path_ok {
        errors.push(LoadError::new(file, label, "_meta.deliveryKey", e));
    }
    let title = match str_field(body, "pageTitle") {
        Some(t) if !t.trim().is_empty() => decode_quotes(t),
        _ => {
            errors.push(LoadError::new(
                file,
                label,
                "pageTitle",
                "missing or not a string",
            ));
            String::new()
        }
    };
    if let Err(e) = crate::limits::check_name(&title) {
        errors.push(LoadError::new(file, label, "pageTitle", e));
    }
    let description = decode_quotes(str_field(body, "pageDescription").unwrap_or(""));
    let blocks = match body.get("content") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .filter_map(|(i, b)| page_block(file, label, i, b, errors, warnings))
            .collect(),
        Some(_) => {
            errors.push(LoadError::new(
                file,
                label,
                "content",
                "must be a list of blocks",
            ));
            Vec::new()
        }
    };
    let stickers = match body.get("stickers") {
        None | Some(Value::Null) => Value::Null,
        Some(raw) => match typed::<PageStickers>(raw).and_then(|s| {
            for (name, sticker) in [("desktop", &s.desktop), ("mobile", &s.mobile)] {
                if let Some(sticker) = sticker {
                    check_sticker(&format!("{name}."), sticker)?;
                }
            }
            Ok(s)
        }) {
            Ok(s) => serde_json::to_value(s).unwrap_or(Value::Null),
            Err(issue) => {
                errors.push(field_error(file, label, "stickers", &issue));
                Value::Null
            }
        },
    };
    let og = body.get("opengraph").cloned().unwrap_or(Value::Null);
    let opengraph = OpenGraph {
        title: str_field(&og, "title")
            .map(decode_quotes)
            .unwrap_or_else(|| title.clone()),
        description: str_field(&og, "description")
            .map(decode_quotes)
            .unwrap_or_else(|| description.clone()),
        image_url: og
            .get("image")
            .and_then(|i| str_field(i, "url"))
            .map(str::to_string),
        image_alt: og
            .get("image")
            .and_then(|i| str_field(i, "alt"))
            .unwrap_or("")
            .to_string(),
    };
    (errors.len() == before).then(|| ContentPage {
        slug,
        delivery_id: item.delivery_id.clone(),
        title,
        description,
        opengraph,
        blocks,
        stickers,
    })
}

/// `prefix.field`, or just `prefix` for a problem with the whole value.
fn join_path(prefix: &str, field: &str) -> String {
    match (prefix.is_empty(), field.is_empty()) {
        (_, true) => prefix.to_string(),
        (true, false) => field.to_string(),
        (false, false) if field.starts_with('[') => format!("{prefix}{field}"),
        (false, false) => format!("{prefix}.{field}"),
    }
}

fn field_error(file: &str, label: &str, prefix: &str, issue: &FieldIssue) -> LoadError {
    let path = join_path(prefix, &issue.field);
    let path = if path.is_empty() {
        "(item)".to_string()
    } else {
        path
    };
    LoadError::new(file, label, path, &issue.message)
}

/// One block of a page: typed, or skipped with a warning (unknown schema), or an error.
fn page_block(
    file: &str,
    label: &str,
    index: usize,
    raw: &Value,
    errors: &mut LoadErrors,
    warnings: &mut Vec<String>,
) -> Option<Block> {
    let Some(schema) = raw
        .get("_meta")
        .and_then(|m| m.get("schema"))
        .and_then(Value::as_str)
    else {
        errors.push(LoadError::new(
            file,
            label,
            format!("content[{index}]._meta.schema"),
            "missing: a block needs a schema",
        ));
        return None;
    };
    let schema_type = schema_type(schema);
    let at = format!("content[{index}] ({schema_type})");
    match parse_block(&schema_type, raw) {
        Ok(Parsed::Unknown) => {
            warnings.push(format!(
                "{file}: {label}: {at}: unknown block schema {schema:?}; block skipped"
            ));
            None
        }
        Err(issue) => {
            errors.push(field_error(file, label, &at, &issue));
            None
        }
        Ok(Parsed::Block(typed)) => {
            let typed = *typed;
            for (path, problem) in wavy_problems(raw) {
                warnings.push(format!(
                    "{file}: {label}: {}: {problem}",
                    join_path(&at, &path)
                ));
            }
            Some(Block {
                schema_type,
                fields: typed.fields(),
                typed,
            })
        }
    }
}

/// Types one layout slot. Navigation must be valid (a broken menu fails the load); any other
/// slot that does not parse is dropped with a warning and the pages render without it.
fn type_slot(
    file: &str,
    label: &str,
    key: &str,
    body: &Value,
    target: &mut MarketContent,
    errors: &mut LoadErrors,
) {
    fn optional<T: serde::de::DeserializeOwned>(
        file: &str,
        label: &str,
        key: &str,
        body: &Value,
        warnings: &mut Vec<String>,
    ) -> Option<T> {
        typed(body)
            .map_err(|issue| {
                warnings.push(format!(
                    "{}; the {key} slot is not rendered",
                    field_error(file, label, "", &issue)
                ));
            })
            .ok()
    }
    let chrome = &mut target.chrome;
    let warnings = &mut target.warnings;
    match key {
        "desktop-navigation" => match typed::<DesktopNavigation>(body) {
            Ok(nav) => chrome.desktop_nav = Some(nav),
            Err(issue) => errors.push(field_error(file, label, "", &issue)),
        },
        "mobile-navigation" => match typed::<MobileNavigation>(body) {
            Ok(nav) => chrome.mobile_nav = Some(nav),
            Err(issue) => errors.push(field_error(file, label, "", &issue)),
        },
        "app-header" => chrome.app_header = optional(file, label, key, body, warnings),
        "footer" => chrome.footer = optional(file, label, key, body, warnings),
        "locale-selector-image" => chrome.locale_image = optional(file, label, key, body, warnings),
        "benefit-bar" => chrome.benefit_bar = optional(file, label, key, body, warnings),
        "countdown-timer" => chrome.countdown = optional(file, label, key, body, warnings),
        "search-suggestions" => {
            chrome.search_suggestions = optional(file, label, key, body, warnings)
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn src(v: Value) -> ContentSource {
        ContentSource {
            file: "content/uk.json".into(),
            item: v,
        }
    }

    #[test]
    fn pages_and_slots_are_sorted_into_markets() {
        let content = Content::from_sources(vec![
            src(json!({"_meta": {"schema": "https://s/footer", "deliveryKey": "us/footer", "deliveryId": "a"}, "columns": []})),
            src(json!({"_meta": {"schema": "https://s/content-page", "deliveryKey": "eu/help/faqs", "deliveryId": "b"}, "pageTitle": "FAQs", "pageDescription": "What&#39;s what"})),
            src(json!({"_meta": {"schema": "https://s/content-page", "deliveryKey": "uk/home", "deliveryId": "c"}, "pageTitle": "Home"})),
        ])
        .unwrap();
        assert!(content.markets[1].slots.contains_key("footer"));
        assert_eq!(content.markets[2].pages[0].slug, "help/faqs");
        assert_eq!(content.markets[2].pages[0].description, "What's what");
        assert_eq!(content.markets[0].home.as_ref().unwrap().title, "Home");
    }

    #[test]
    fn listing_headers_are_filed_by_listing_and_bad_ones_named() {
        let content = Content::from_sources(vec![
            src(json!({"_meta": {"schema": "https://s/listing-header", "deliveryKey": "uk/listing-header/category/10", "deliveryId": "h1"}, "subheading": "New season", "squiggle": true, "callsToAction": [{"buttonText": "Shop", "buttonLink": "/browse/womens/dresses/", "buttonStyle": "primary"}]})),
            src(json!({"_meta": {"schema": "https://s/listing-header", "deliveryKey": "us/listing-header/collection/501", "deliveryId": "h2"}, "heading": 5})),
        ])
        .unwrap();
        let header = &content.markets[0].listing_headers["category/10"];
        assert_eq!(header.subheading, "New season");
        assert!(header.squiggle);
        assert_eq!(header.calls_to_action.len(), 1);
        // A header whose fields do not parse is dropped with a warning naming the item and field.
        assert!(content.markets[1].listing_headers.is_empty());
        let warning = &content.markets[1].warnings[0];
        assert!(warning.contains("content item h2: heading:"), "{warning}");

        let err = Content::from_sources(vec![
            src(json!({"_meta": {"schema": "https://s/listing-header", "deliveryKey": "eu/listing-header/brand/7", "deliveryId": "h3"}, "subheading": "x"})),
            src(json!({"_meta": {"schema": "https://s/content-page", "deliveryKey": "eu/listing-header/category/7", "deliveryId": "h4"}, "pageTitle": "x"})),
        ])
        .unwrap_err()
        .to_string();
        assert!(err.contains("content item h3: _meta.deliveryKey: \"eu/listing-header/brand/7\" does not name a listing"), "{err}");
        assert!(err.contains("content item h4: _meta.schema: a listing-header/ key needs schema type listing-header, not content-page"), "{err}");
    }

    #[test]
    fn errors_name_the_item_and_field() {
        let err = Content::from_sources(vec![
            src(json!({"_meta": {"schema": "https://s/content-page", "deliveryKey": "fr/about", "deliveryId": "x1"}, "pageTitle": "A"})),
            src(json!({"_meta": {"schema": "https://s/content-page", "deliveryKey": "uk/about", "deliveryId": "x2"}})),
        ])
        .unwrap_err();
        let text = err.to_string();
        assert!(text.contains("content/uk.json: content item x1: _meta.deliveryKey: \"fr/about\" does not start with a market prefix"), "{text}");
        assert!(
            text.contains("content item x2: pageTitle: missing"),
            "{text}"
        );
    }

    #[test]
    fn a_markets_tracking_tag_is_read_and_a_malformed_one_named() {
        let content = Content::from_sources(vec![
            src(json!({"_meta": {"schema": "https://s/app-header", "deliveryKey": "us/app-header", "deliveryId": "t1"}, "transparentHomeHeader": true, "trackingTagId": "GTM-MLUS24"})),
            src(json!({"_meta": {"schema": "https://s/app-header", "deliveryKey": "eu/app-header", "deliveryId": "t2"}, "trackingTagId": "UA-1234-5"})),
        ])
        .unwrap();
        let us = content.markets[1].chrome.app_header.as_ref().unwrap();
        assert_eq!(us.tracking_tag_id.as_deref(), Some("GTM-MLUS24"));
        // The slot is dropped (no unknown script on the market's pages) with a warning naming the
        // item, the field and why.
        assert!(content.markets[2].chrome.app_header.is_none());
        let warning = &content.markets[2].warnings[0];
        assert!(
            warning.contains(
                "content item t2: trackingTagId: \"UA-1234-5\" is not a tag manager container id"
            ),
            "{warning}"
        );
    }
}
