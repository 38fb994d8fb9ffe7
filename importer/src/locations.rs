//! The shop finder's data in an import: the platform's locations and services, and the gazetteer.
//!
//! Locations come from `GET /v3/inventory/locations`, each one's services from its
//! `storefront.services` metafield (`GET /v3/inventory/locations/metafields`), mapped into
//! `catalog/locations.json`; the gazetteer, which no source serves, is the project's reference data
//! (docs/import.md).

use crate::catalog::{CatalogClient, Ctx, list, typed};
use crate::error::ImportError;
use crate::etag_cache::EtagCache;
use domain::export::{
    RawDayHours, RawGeoCoordinates, RawLocation, RawLocationAddress, RawOperatingHours, RawPlace,
};
use domain::shops::{FILE_GAZETTEER, ShopFinder};
use indicatif::ProgressBar;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

const LOCATIONS: &str = "/v3/inventory/locations";
const LOCATION_METAFIELDS: &str = "/v3/inventory/locations/metafields";
/// The platform has no services field on a location: a metafield in this namespace and key holds
/// them, its value a JSON array of the storefront's service codes (`["click_and_collect"]`).
pub const SERVICES_NAMESPACE: &str = "storefront";
pub const SERVICES_KEY: &str = "services";

/// The project's gazetteer (UK postcode areas and districts, UK and Irish towns, Eircode routing
/// keys, a few US and European cities): reference data shipped with the program, because neither
/// source has places, so a real import has a working search without any other file.
pub const BUNDLED_GAZETTEER: &[u8] = include_bytes!("../../fixtures/sample/gazetteer.json");

/// A location as the Locations API answers it. Every field but `id` may be absent or null: what a
/// shown shop must have is checked by the generator's loader, which names the location and field.
#[derive(Deserialize)]
struct BcLocation {
    id: u64,
    code: Option<String>,
    label: Option<String>,
    type_id: Option<String>,
    enabled: Option<bool>,
    storefront_visibility: Option<bool>,
    time_zone: Option<String>,
    address: Option<BcAddress>,
    operating_hours: Option<BcOperatingHours>,
}

#[derive(Deserialize, Default)]
struct BcAddress {
    address1: Option<String>,
    address2: Option<String>,
    city: Option<String>,
    state: Option<String>,
    zip: Option<String>,
    country_code: Option<String>,
    phone: Option<String>,
    email: Option<String>,
    geo_coordinates: Option<BcGeo>,
}

#[derive(Deserialize)]
struct BcGeo {
    latitude: Option<f64>,
    longitude: Option<f64>,
}

#[derive(Deserialize)]
struct BcOperatingHours {
    monday: Option<BcDay>,
    tuesday: Option<BcDay>,
    wednesday: Option<BcDay>,
    thursday: Option<BcDay>,
    friday: Option<BcDay>,
    saturday: Option<BcDay>,
    sunday: Option<BcDay>,
}

#[derive(Deserialize)]
struct BcDay {
    open: Option<bool>,
    opening: Option<String>,
    closing: Option<String>,
}

#[derive(Deserialize)]
struct BcMetafield {
    resource_id: u64,
    #[serde(default)]
    value: Option<String>,
}

/// Every location, each with its services, for `catalog/locations.json`.
pub async fn fetch_all(
    client: &CatalogClient,
    cache: &EtagCache,
    progress: &ProgressBar,
) -> Result<Vec<RawLocation>, ImportError> {
    let ctx = Ctx::cached(client, cache, progress);
    let located = typed::<BcLocation>("location", "id", list(&ctx, LOCATIONS, "").await?)?;
    if located.is_empty() {
        return Ok(Vec::new());
    }
    let query = format!("namespace={SERVICES_NAMESPACE}&key={SERVICES_KEY}");
    let mut services: BTreeMap<u64, Vec<String>> = BTreeMap::new();
    let items = list(&ctx, LOCATION_METAFIELDS, &query).await?;
    let urls: Vec<String> = items.iter().map(|(url, _)| url.clone()).collect();
    let metafields = typed::<BcMetafield>("metafield", "id", items)?;
    for (url, metafield) in urls.into_iter().zip(metafields) {
        let field = format!("metafield {SERVICES_NAMESPACE}.{SERVICES_KEY}");
        let bad = |why: String| ImportError::Response {
            method: "GET",
            url: url.clone(),
            item: format!("location {}", metafield.resource_id),
            field: field.clone(),
            why,
        };
        let codes = parse_services(metafield.value.as_deref().unwrap_or("")).map_err(bad)?;
        if services.insert(metafield.resource_id, codes).is_some() {
            return Err(bad("the location has two of these metafields".into()));
        }
    }
    Ok(located
        .into_iter()
        .map(|l| {
            let services = services.remove(&l.id).unwrap_or_default();
            l.into_raw(services)
        })
        .collect())
}

/// The metafield's value: a JSON array of service codes; empty means none. Unknown codes are
/// left for the loader, which lists the codes it knows.
fn parse_services(value: &str) -> Result<Vec<String>, String> {
    if value.trim().is_empty() {
        return Ok(Vec::new());
    }
    serde_json::from_str::<Vec<String>>(value).map_err(|e| {
        format!(
            "{} is not a JSON array of service codes such as [\"click_and_collect\", \"returns\"]: {e}",
            domain::limits::quote(value)
        )
    })
}

impl BcLocation {
    fn into_raw(self, services: Vec<String>) -> RawLocation {
        let text = |v: Option<String>| v.map(|s| s.trim().to_string()).unwrap_or_default();
        let a = self.address.unwrap_or_default();
        // A location never placed has no coordinates; the platform's own default is 0, 0, which
        // the loader refuses for a shown shop with a message saying so.
        let geo = a.geo_coordinates.map_or(
            RawGeoCoordinates {
                latitude: 0.0,
                longitude: 0.0,
            },
            |g| RawGeoCoordinates {
                latitude: g.latitude.unwrap_or(0.0),
                longitude: g.longitude.unwrap_or(0.0),
            },
        );
        let hours = self
            .operating_hours
            .map_or_else(RawOperatingHours::default, |h| RawOperatingHours {
                monday: h.monday.map(BcDay::into_raw),
                tuesday: h.tuesday.map(BcDay::into_raw),
                wednesday: h.wednesday.map(BcDay::into_raw),
                thursday: h.thursday.map(BcDay::into_raw),
                friday: h.friday.map(BcDay::into_raw),
                saturday: h.saturday.map(BcDay::into_raw),
                sunday: h.sunday.map(BcDay::into_raw),
            });
        RawLocation {
            id: self.id,
            code: text(self.code),
            label: text(self.label),
            // The API's documented defaults when a field is left out: physical, enabled, visible.
            type_id: self.type_id.unwrap_or_else(|| "PHYSICAL".into()),
            enabled: self.enabled.unwrap_or(true),
            storefront_visibility: self.storefront_visibility.unwrap_or(true),
            time_zone: text(self.time_zone),
            address: RawLocationAddress {
                address1: text(a.address1),
                address2: text(a.address2),
                city: text(a.city),
                state: text(a.state),
                zip: text(a.zip),
                country_code: alpha2(&text(a.country_code)),
                // The platform sends "" for "none"; the export says none with null.
                phone: Some(text(a.phone)).filter(|p| !p.is_empty()),
                email: Some(text(a.email)).filter(|e| !e.is_empty()),
                geo_coordinates: geo,
            },
            operating_hours: hours,
            services,
        }
    }
}

impl BcDay {
    fn into_raw(self) -> RawDayHours {
        RawDayHours {
            open: self.open.unwrap_or(false),
            opening: hh_mm(self.opening.unwrap_or_default()),
            closing: hh_mm(self.closing.unwrap_or_default()),
        }
    }
}

/// The export's times are `HH:MM`; `HH:MM:00` is the same time with seconds, so they are dropped.
/// Anything else is kept as it is for the loader to name.
fn hh_mm(time: String) -> String {
    let time = time.trim();
    match time.strip_suffix(":00") {
        Some(short) if time.len() == 8 => short.to_string(),
        _ => time.to_string(),
    }
}

/// The API reference calls `country_code` ISO 3166-1 alpha-3 while the platform's examples and
/// control panel use alpha-2, which the export requires: the alpha-3 codes of the countries the
/// shop finder prints postcodes for, and the US, are turned into alpha-2; any other code is kept
/// for the loader, which names it if it is not alpha-2.
fn alpha2(code: &str) -> String {
    let upper = code.to_ascii_uppercase();
    let mapped = match upper.as_str() {
        "GBR" => "GB",
        "IRL" => "IE",
        "JEY" => "JE",
        "GGY" => "GG",
        "IMN" => "IM",
        "USA" => "US",
        _ => return code.to_string(),
    };
    mapped.to_string()
}

/// The gazetteer to publish with the import: the file named by `STOREFRONT_GAZETTEER` when set,
/// otherwise the bundled one. A bad file is a configuration error naming the variable, the file,
/// the place and the field, found before any request is made.
pub fn gazetteer(path: Option<&Path>) -> Result<Vec<u8>, ImportError> {
    let Some(path) = path else {
        return Ok(BUNDLED_GAZETTEER.to_vec());
    };
    let config = |why: String| ImportError::Config {
        var: "STOREFRONT_GAZETTEER",
        why,
    };
    let bytes = std::fs::read(path).map_err(|e| config(format!("{}: {e}", path.display())))?;
    let shown = path.display().to_string();
    let places = export::read::parse_list::<RawPlace>(&bytes, &shown, "place", "name")
        .map_err(|e| config(e.to_string()))?;
    // The same checks the loader makes of the export's gazetteer, each error naming this file.
    ShopFinder::from_export(&[], &places).map_err(|mut errors| {
        for e in &mut errors.0 {
            e.file.clone_from(&shown);
        }
        config(errors.to_string())
    })?;
    if places.is_empty() {
        return Err(config(format!(
            "{shown} has no places: the shop finder's search would find nothing (leave the \
             variable unset for the bundled {FILE_GAZETTEER})"
        )));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn services_are_a_json_array_and_empty_means_none() {
        assert_eq!(
            parse_services(r#"["click_and_collect","returns"]"#).unwrap(),
            ["click_and_collect", "returns"]
        );
        assert!(parse_services("  ").unwrap().is_empty());
        let err = parse_services("click_and_collect, returns").unwrap_err();
        assert!(
            err.starts_with("\"click_and_collect, returns\" is not a JSON array of service codes"),
            "{err}"
        );
    }

    #[test]
    fn times_with_seconds_and_alpha3_countries_are_normalised() {
        assert_eq!(hh_mm("09:30:00".into()), "09:30");
        assert_eq!(hh_mm("09:30".into()), "09:30");
        assert_eq!(hh_mm("09:30:15".into()), "09:30:15");
        assert_eq!(alpha2("GBR"), "GB");
        assert_eq!(alpha2("irl"), "IE");
        assert_eq!(alpha2("GB"), "GB");
        assert_eq!(alpha2("FRA"), "FRA");
    }

    #[test]
    fn the_bundled_gazetteer_is_valid() {
        let places = export::read::parse_list::<RawPlace>(
            BUNDLED_GAZETTEER,
            FILE_GAZETTEER,
            "place",
            "name",
        )
        .unwrap();
        assert!(places.len() > 400);
        ShopFinder::from_export(&[], &places).unwrap();
    }
}
