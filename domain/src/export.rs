//! Raw export formats as they arrive on disk: the catalog export (shaped like the commerce
//! platform's catalog API) and the content export (shaped like the content hub's delivery API).
//! These types only describe shape; `catalog::Catalog::from_export` and `content::Content::from_export`
//! validate them into the models the rest of the system uses; `storefront import` serialises
//! them to write an export. Unknown fields are ignored, as the
//! real APIs return far more than the storefront reads.

use serde::{Deserialize, Serialize};

/// `{"data": [...]}` envelope used by every catalog API list response.
#[derive(Debug, Deserialize, Serialize)]
pub struct DataList<T> {
    pub data: Vec<T>,
}

/// `store.json`: settings that belong to the whole store.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct StoreSettings {
    pub name: String,
    /// Absolute origin used for canonical URLs, hreflang and sitemaps, without a trailing slash.
    pub base_url: String,
    /// Image shown when a colourway has no media (the spec's 1600x2133 fallback).
    pub fallback_image: String,
}

/// `channels.json`: one commerce channel per market.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct RawChannel {
    pub id: u64,
    pub name: String,
    pub currencies: RawChannelCurrencies,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct RawChannelCurrencies {
    pub default_currency: String,
    #[serde(default)]
    pub enabled_currencies: Vec<String>,
}

/// `categories.json`: the category tree, flattened as the catalog API returns it.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct RawCategory {
    pub id: u64,
    /// 0 for a top-level category.
    pub parent_id: u64,
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// Storefront path of the listing, `/browse/womens/dresses/`.
    pub url: String,
    /// Ancestor ids from the root down, the category itself excluded. Checked against parent_id.
    #[serde(default)]
    pub path: Option<Vec<u64>>,
    #[serde(default)]
    pub sort_order: i64,
    #[serde(default = "yes")]
    pub is_visible: bool,
}

/// `collections.json`: merchandised product groups at `/browse/collection/{id}`.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct RawCollection {
    pub id: u64,
    pub name: String,
    #[serde(default)]
    pub description: String,
    pub product_ids: Vec<u64>,
}

/// `products.json`: products with variants, options, modifiers, images and custom fields included.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct RawProduct {
    pub id: u64,
    /// The first 6 characters are the style code.
    pub sku: String,
    pub name: String,
    #[serde(default)]
    pub description: String,
    /// Base price in the UK currency; other markets come from price lists.
    pub price: f64,
    #[serde(default)]
    pub sale_price: Option<f64>,
    #[serde(default)]
    pub categories: Vec<u64>,
    #[serde(default)]
    pub is_price_hidden: bool,
    #[serde(default = "yes")]
    pub is_visible: bool,
    /// none, product or variant.
    pub inventory_tracking: String,
    /// ISO 8601; orders the "newest" sort.
    #[serde(default)]
    pub date_created: String,
    #[serde(default)]
    pub sort_order: i64,
    pub options: Vec<RawOption>,
    #[serde(default)]
    pub modifiers: Vec<RawModifier>,
    pub variants: Vec<RawVariant>,
    #[serde(default)]
    pub images: Vec<RawImage>,
    #[serde(default)]
    pub custom_fields: Vec<RawCustomField>,
    /// Comma-separated key:value pairs: `name:New In,textColour:#ffffff,backgroundColour:#000000`.
    #[serde(default, rename = "productBadgeData")]
    pub product_badge_data: Option<String>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct RawOption {
    pub id: u64,
    /// Color, Size, Length (Design for gift cards).
    pub display_name: String,
    pub option_values: Vec<RawOptionValue>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct RawOptionValue {
    pub id: u64,
    pub label: String,
    #[serde(default)]
    pub is_default: bool,
    #[serde(default)]
    pub sort_order: i64,
    /// Swatch colours for colour options: `{"colors": ["#1f2a44"]}`.
    #[serde(default)]
    pub value_data: Option<RawValueData>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct RawValueData {
    #[serde(default)]
    pub colors: Vec<String>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct RawModifier {
    pub id: u64,
    pub display_name: String,
    /// text, date, checkbox, hidden …
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default)]
    pub required: bool,
    #[serde(default)]
    pub sort_order: i64,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct RawVariant {
    pub id: u64,
    pub sku: String,
    pub option_values: Vec<RawVariantOptionValue>,
    /// Overrides the product price (UK currency) when present.
    #[serde(default)]
    pub price: Option<f64>,
    #[serde(default)]
    pub sale_price: Option<f64>,
    #[serde(default)]
    pub purchasing_disabled: bool,
    #[serde(default)]
    pub image_url: Option<String>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct RawVariantOptionValue {
    pub option_id: u64,
    pub id: u64,
    pub label: String,
    pub option_display_name: String,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct RawImage {
    pub id: u64,
    pub url_standard: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub sort_order: i64,
    #[serde(default)]
    pub is_thumbnail: bool,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct RawCustomField {
    pub name: String,
    pub value: String,
}

/// `price-lists.json`: price records per variant per currency (the catalog API's price-list records).
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct RawPriceRecord {
    pub variant_id: u64,
    pub currency: String,
    pub price: f64,
    #[serde(default)]
    pub sale_price: Option<f64>,
}

/// `inventory.json`: inventory per variant per location (the inventory API's items-at-locations).
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct RawInventoryItem {
    pub identity: RawInventoryIdentity,
    #[serde(rename = "allLocationsTotalAvailableToSell", default)]
    pub all_locations_total_available_to_sell: Option<i64>,
    pub locations: Vec<RawInventoryLocation>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct RawInventoryIdentity {
    pub sku: String,
    pub variant_id: u64,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct RawInventoryLocation {
    pub location_id: u64,
    #[serde(default = "yes")]
    pub location_enabled: bool,
    pub available_to_sell: i64,
}

/// `media.json`: media sets keyed `{style code}_{colour with underscores}`, as the media host
/// names them; each has `items` in gallery order.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct RawMediaSet {
    pub items: Vec<RawMediaItem>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct RawMediaItem {
    /// `img` or `video`.
    #[serde(rename = "type")]
    pub kind: String,
    pub src: String,
    #[serde(default)]
    pub alt: String,
}

/// `catalog/locations.json`: the commerce platform's inventory locations (its Locations API), the
/// shops among them shown by the shop finder. Optional in an export.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct RawLocation {
    pub id: u64,
    /// The platform's unique location code (`LEEDS-BRIGGATE`); a shop's anchor on the page.
    #[serde(default)]
    pub code: String,
    /// The shop's name as shoppers see it.
    pub label: String,
    /// `PHYSICAL` or `VIRTUAL`.
    #[serde(default)]
    pub type_id: String,
    #[serde(default = "yes")]
    pub enabled: bool,
    /// Whether shoppers may see the location: warehouses are not shown.
    #[serde(default)]
    pub storefront_visibility: bool,
    #[serde(default)]
    pub time_zone: String,
    pub address: RawLocationAddress,
    /// Per weekday, `monday` to `sunday`. A missing day is an error for a shown shop.
    #[serde(default)]
    pub operating_hours: RawOperatingHours,
    /// Storefront codes (`click_and_collect`, `returns`, …): the platform keeps them as the
    /// location's metafield `storefront.services`, which the import flattens here.
    #[serde(default)]
    pub services: Vec<String>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct RawLocationAddress {
    #[serde(default)]
    pub address1: String,
    #[serde(default)]
    pub address2: String,
    #[serde(default)]
    pub city: String,
    /// County or state; not printed for UK shops (Royal Mail does not need it).
    #[serde(default)]
    pub state: String,
    /// Postcode.
    #[serde(default)]
    pub zip: String,
    /// ISO 3166-1 alpha-2.
    #[serde(default)]
    pub country_code: String,
    /// International format, `+44 113 496 0104`.
    #[serde(default)]
    pub phone: Option<String>,
    #[serde(default)]
    pub email: Option<String>,
    pub geo_coordinates: RawGeoCoordinates,
}

#[derive(Debug, Clone, Copy, Deserialize, Serialize)]
pub struct RawGeoCoordinates {
    pub latitude: f64,
    pub longitude: f64,
}

/// The platform's `operating_hours`: one entry per weekday.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
pub struct RawOperatingHours {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub monday: Option<RawDayHours>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tuesday: Option<RawDayHours>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wednesday: Option<RawDayHours>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thursday: Option<RawDayHours>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub friday: Option<RawDayHours>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub saturday: Option<RawDayHours>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sunday: Option<RawDayHours>,
}

/// `{"open": true, "opening": "09:00", "closing": "17:30"}`; the times are ignored when closed.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct RawDayHours {
    pub open: bool,
    #[serde(default)]
    pub opening: String,
    #[serde(default)]
    pub closing: String,
}

/// `gazetteer.json`: the places the shop finder's search knows (towns, postcode areas and
/// districts, Eircode routing keys), so it finds a place with no third-party service. Optional.
#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct RawPlace {
    /// `Leeds`, `LS`, `LS1`, `D02`.
    pub name: String,
    pub kind: PlaceKind,
    /// ISO 3166-1 alpha-2.
    pub country_code: String,
    pub latitude: f64,
    pub longitude: f64,
    /// Other names the place is searched by (`Newcastle` for Newcastle upon Tyne).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PlaceKind {
    Town,
    /// The letters of a UK postcode (`LS`).
    PostcodeArea,
    /// The outward code of a UK postcode (`LS1`, `SW1A`).
    PostcodeDistrict,
    /// The first three characters of an Eircode (`D02`).
    EircodeRoutingKey,
}

/// One page of the content delivery API: `{"responses": [{"content": {...}}], "page": {...}}`.
#[derive(Debug, Deserialize, Serialize)]
pub struct RawContentPage {
    pub responses: Vec<RawContentResponse>,
}

#[derive(Debug, Deserialize, Serialize)]
pub struct RawContentResponse {
    pub content: serde_json::Value,
}

fn yes() -> bool {
    true
}
