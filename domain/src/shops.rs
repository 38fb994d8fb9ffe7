//! The shop finder's data, validated: the shops (the commerce platform's locations that shoppers
//! may see) and the gazetteer its search resolves a town or postcode with, offline. Every problem
//! names the file, the item and the field, as the catalog's do.

use crate::error::{LoadError, LoadErrors};
use crate::export::{PlaceKind, RawDayHours, RawLocation, RawPlace};
use crate::limits::{check_chars, check_name, quote};
use serde::Serialize;
use std::collections::{HashMap, HashSet};

pub const FILE_LOCATIONS: &str = "catalog/locations.json";
pub const FILE_GAZETTEER: &str = "gazetteer.json";

/// Monday first, as British and Irish calendars (and the opening-hours table) start the week.
pub const WEEKDAYS: [&str; 7] = [
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
    "Sunday",
];

/// The services a shop may offer: export code and what the page calls it. A fixed list, so a
/// typo in the export is an error rather than a service nobody can read.
pub const SERVICES: [(&str, &str); 5] = [
    ("click_and_collect", "Click & collect"),
    ("returns", "In-store returns"),
    ("alterations", "Alterations"),
    ("personal_styling", "Personal styling"),
    ("gift_wrapping", "Gift wrapping"),
];

/// Address lines are printed as they are: long enough for any real one.
const MAX_ADDRESS_CHARS: usize = 200;

#[derive(Debug, Clone, Default, Serialize)]
pub struct ShopFinder {
    /// The shops shown, by name.
    pub shops: Vec<Shop>,
    pub places: Vec<Place>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Shop {
    pub id: u64,
    pub code: String,
    /// The id of the shop's entry on the page (`shop-leeds-briggate`), from its code.
    pub anchor: String,
    pub name: String,
    /// Street lines, the empty ones left out.
    pub address_lines: Vec<String>,
    pub town: String,
    pub county: String,
    /// As printed: a UK postcode upper-case with one space (`LS1 6BG`).
    pub postcode: String,
    pub country_code: String,
    pub latitude: f64,
    pub longitude: f64,
    /// International format, as in the export.
    pub phone: Option<String>,
    /// Monday first; `None` when closed that day.
    pub hours: [Option<Opening>; 7],
    pub services: Vec<Service>,
}

/// Opening and closing time in minutes after midnight.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Opening {
    pub opens: u16,
    pub closes: u16,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Service {
    pub code: &'static str,
    pub label: &'static str,
}

#[derive(Debug, Clone, Serialize)]
pub struct Place {
    pub name: String,
    pub kind: PlaceKind,
    pub country_code: String,
    pub latitude: f64,
    pub longitude: f64,
    pub aliases: Vec<String>,
}

/// `HH:MM` of minutes after midnight.
pub fn hhmm(minutes: u16) -> String {
    format!("{:02}:{:02}", minutes / 60, minutes % 60)
}

/// How the search compares names (the island's `normaliseName` does the same): lower case,
/// accents dropped, `&` as "and", anything else that is not a letter or digit a single space.
pub fn place_key(text: &str) -> String {
    let mut words: Vec<String> = Vec::new();
    let mut word = String::new();
    for c in text.chars().flat_map(char::to_lowercase) {
        let c = match c {
            'à' | 'á' | 'â' | 'ä' | 'ã' | 'å' => 'a',
            'ç' => 'c',
            'è' | 'é' | 'ê' | 'ë' => 'e',
            'ì' | 'í' | 'î' | 'ï' => 'i',
            'ñ' => 'n',
            'ò' | 'ó' | 'ô' | 'ö' | 'õ' => 'o',
            'ù' | 'ú' | 'û' | 'ü' => 'u',
            'ŵ' => 'w',
            'ŷ' | 'ÿ' => 'y',
            other => other,
        };
        match c {
            // King's Lynn is searched as "kings lynn".
            '\'' | '’' => {}
            c if c.is_alphanumeric() => word.push(c),
            _ => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
                if c == '&' {
                    words.push("and".into());
                }
            }
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words.join(" ")
}

/// A UK postcode in its printed form (`LS1 6BG`), or `None` when `text` is not one.
pub fn uk_postcode(text: &str) -> Option<String> {
    let compact: String = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| c.to_ascii_uppercase())
        .collect();
    if !(5..=7).contains(&compact.len()) || !compact.is_ascii() {
        return None;
    }
    let (outward, inward) = compact.split_at(compact.len() - 3);
    let inward_ok = inward.as_bytes()[0].is_ascii_digit()
        && inward.as_bytes()[1..].iter().all(u8::is_ascii_alphabetic);
    (inward_ok && is_outward_code(outward)).then(|| format!("{outward} {inward}"))
}

/// `LS1`, `SW1A`, `M60`: one or two letters, a digit, and an optional letter or digit.
fn is_outward_code(text: &str) -> bool {
    let b = text.as_bytes();
    let letters = b.iter().take_while(|c| c.is_ascii_uppercase()).count();
    let rest = &b[letters..];
    (1..=2).contains(&letters)
        && matches!(rest.len(), 1 | 2)
        && rest[0].is_ascii_digit()
        && rest[1..]
            .iter()
            .all(|c| c.is_ascii_digit() || c.is_ascii_uppercase())
}

/// An Eircode's routing key: a letter and two digits, or Dublin 6W's `D6W`.
fn is_routing_key(text: &str) -> bool {
    let b = text.as_bytes();
    text == "D6W"
        || (b.len() == 3 && b[0].is_ascii_uppercase() && b[1..].iter().all(u8::is_ascii_digit))
}

/// An Eircode in its printed form (`D02 X285`), or `None`.
fn eircode(text: &str) -> Option<String> {
    let compact: String = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| c.to_ascii_uppercase())
        .collect();
    let ok = compact.len() == 7
        && compact.is_ascii()
        && is_routing_key(&compact[..3])
        && compact[3..].bytes().all(|c| c.is_ascii_alphanumeric());
    ok.then(|| format!("{} {}", &compact[..3], &compact[3..]))
}

fn check_coordinates(latitude: f64, longitude: f64) -> Vec<(&'static str, String)> {
    let mut out = Vec::new();
    if !(-90.0..=90.0).contains(&latitude) {
        out.push((
            "latitude",
            format!("is {latitude}; it must be from -90 to 90"),
        ));
    }
    if !(-180.0..=180.0).contains(&longitude) {
        out.push((
            "longitude",
            format!("is {longitude}; it must be from -180 to 180"),
        ));
    }
    out
}

/// The officially assigned ISO 3166-1 alpha-2 codes, in order: `UK` is not one (the code is `GB`).
const COUNTRY_CODES: &str = concat!(
    "AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ ",
    "BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR ",
    "CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR ",
    "GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ",
    "ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ ",
    "LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ ",
    "MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF ",
    "PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI ",
    "SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR ",
    "TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW ",
);

fn is_country_code(text: &str) -> bool {
    text.len() == 2
        && text.bytes().all(|c| c.is_ascii_uppercase())
        && COUNTRY_CODES.split(' ').any(|c| c == text)
}

/// `HH:MM` (00:00 to 23:59) as minutes after midnight.
fn parse_time(text: &str) -> Option<u16> {
    let (h, m) = text.split_once(':')?;
    if h.len() != 2 || m.len() != 2 {
        return None;
    }
    let (h, m): (u16, u16) = (h.parse().ok()?, m.parse().ok()?);
    (h < 24 && m < 60).then_some(h * 60 + m)
}

/// Whether the platform shows the location to shoppers: a physical, enabled, visible one.
pub fn is_shop(raw: &RawLocation) -> bool {
    raw.type_id == "PHYSICAL" && raw.enabled && raw.storefront_visibility
}

impl ShopFinder {
    /// Validates the export's locations and gazetteer (either may be empty: an export without
    /// them builds a shop finder that says there are no shops to show).
    pub fn from_export(locations: &[RawLocation], places: &[RawPlace]) -> Result<Self, LoadErrors> {
        let mut errors = LoadErrors::default();
        let shops = build_shops(locations, &mut errors);
        let places = build_places(places, &mut errors);
        errors.into_result(ShopFinder { shops, places })
    }
}

fn build_shops(raw: &[RawLocation], errors: &mut LoadErrors) -> Vec<Shop> {
    let mut ids = HashSet::new();
    let mut anchors: HashMap<String, u64> = HashMap::new();
    let mut shops = Vec::new();
    for loc in raw {
        let item = format!("location {}", loc.id);
        let mut fail = |field: &str, why: String| {
            errors.push(LoadError::new(FILE_LOCATIONS, &item, field, why));
        };
        if !ids.insert(loc.id) {
            fail("id", "duplicate location id".into());
            continue;
        }
        // Warehouses and hidden locations need none of what a shop page shows.
        if !is_shop(loc) {
            continue;
        }
        let before = errors.len();
        let mut fail = |field: &str, why: String| {
            errors.push(LoadError::new(FILE_LOCATIONS, &item, field, why));
        };
        let anchor = format!("shop-{}", loc.code.to_ascii_lowercase());
        if loc.code.is_empty() {
            fail(
                "code",
                "is empty; a shown shop needs its location code".into(),
            );
        } else if !loc
            .code
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_')
            || loc.code.len() > 64
        {
            fail(
                "code",
                format!(
                    "{} must be at most 64 letters, digits, '-' or '_' (it is the shop's link on the page)",
                    quote(&loc.code)
                ),
            );
        } else if let Some(other) = anchors.insert(anchor.clone(), loc.id) {
            fail(
                "code",
                format!(
                    "{} is also the code of location {other} (codes are compared ignoring case)",
                    quote(&loc.code)
                ),
            );
        }
        if loc.label.trim().is_empty() {
            fail("label", "is empty; a shown shop needs its name".into());
        } else if let Err(e) = check_name(&loc.label) {
            fail("label", e);
        }
        let a = &loc.address;
        for (field, value, required) in [
            ("address.address1", &a.address1, true),
            ("address.address2", &a.address2, false),
            ("address.city", &a.city, true),
            ("address.state", &a.state, false),
        ] {
            if required && value.trim().is_empty() {
                fail(
                    field,
                    "is empty; a shown shop needs it in its address".into(),
                );
            } else if let Err(e) = check_chars(value, MAX_ADDRESS_CHARS) {
                fail(field, e);
            }
        }
        if !is_country_code(&a.country_code) {
            fail(
                "address.country_code",
                format!(
                    "{} is not an ISO 3166-1 alpha-2 code such as GB or IE",
                    quote(&a.country_code)
                ),
            );
        }
        let postcode = match a.country_code.as_str() {
            "GB" | "JE" | "GG" | "IM" => uk_postcode(&a.zip).ok_or("is not a UK postcode"),
            "IE" => eircode(&a.zip).ok_or("is not an Eircode"),
            _ if a.zip.trim().is_empty() => Err("is empty"),
            _ => Ok(a.zip.trim().to_string()),
        };
        let postcode = postcode.unwrap_or_else(|why| {
            fail("address.zip", format!("{} {why}", quote(&a.zip)));
            String::new()
        });
        let geo = a.geo_coordinates;
        for (field, why) in check_coordinates(geo.latitude, geo.longitude) {
            fail(&format!("address.geo_coordinates.{field}"), why);
        }
        if geo.latitude == 0.0 && geo.longitude == 0.0 {
            fail(
                "address.geo_coordinates",
                "is 0, 0, the platform's default for a location never placed; a shown shop needs its position for the map and the distances".into(),
            );
        }
        let phone = a.phone.as_deref().map(str::trim).filter(|p| !p.is_empty());
        if let Some(p) = phone {
            let digits = p.bytes().filter(u8::is_ascii_digit).count();
            let shape =
                p.starts_with('+') && p[1..].bytes().all(|c| c.is_ascii_digit() || c == b' ');
            if !shape || !(8..=15).contains(&digits) {
                fail(
                    "address.phone",
                    format!(
                        "{} must be in international format: '+', the country code and 8 to 15 digits in all, spaces allowed",
                        quote(p)
                    ),
                );
            }
        }
        let days = [
            ("monday", &loc.operating_hours.monday),
            ("tuesday", &loc.operating_hours.tuesday),
            ("wednesday", &loc.operating_hours.wednesday),
            ("thursday", &loc.operating_hours.thursday),
            ("friday", &loc.operating_hours.friday),
            ("saturday", &loc.operating_hours.saturday),
            ("sunday", &loc.operating_hours.sunday),
        ];
        let mut hours = [None; 7];
        for (i, (day, value)) in days.into_iter().enumerate() {
            match day_hours(value.as_ref()) {
                Ok(h) => hours[i] = h,
                Err((field, why)) => fail(&format!("operating_hours.{day}{field}"), why),
            }
        }
        let mut services: Vec<Service> = Vec::new();
        for (i, code) in loc.services.iter().enumerate() {
            match SERVICES.iter().find(|(c, _)| c == code) {
                None => fail(
                    &format!("services[{i}]"),
                    format!(
                        "unknown service {}; expected one of {}",
                        quote(code),
                        SERVICES.map(|(c, _)| c).join(", ")
                    ),
                ),
                Some(_) if services.iter().any(|s| s.code == code) => fail(
                    &format!("services[{i}]"),
                    format!("{} is listed twice", quote(code)),
                ),
                Some(&(code, label)) => services.push(Service { code, label }),
            }
        }
        if errors.len() > before {
            continue;
        }
        shops.push(Shop {
            id: loc.id,
            code: loc.code.clone(),
            anchor,
            name: loc.label.trim().to_string(),
            address_lines: [&a.address1, &a.address2]
                .into_iter()
                .map(|l| l.trim().to_string())
                .filter(|l| !l.is_empty())
                .collect(),
            town: a.city.trim().to_string(),
            county: a.state.trim().to_string(),
            postcode,
            country_code: a.country_code.clone(),
            latitude: geo.latitude,
            longitude: geo.longitude,
            phone: phone.map(str::to_string),
            hours,
            services,
        });
    }
    shops.sort_by(|a, b| a.name.cmp(&b.name).then(a.id.cmp(&b.id)));
    shops
}

/// One day's hours: `Ok(None)` when closed; the error's field is relative to the day.
fn day_hours(day: Option<&RawDayHours>) -> Result<Option<Opening>, (&'static str, String)> {
    let Some(day) = day else {
        return Err((
            "",
            "missing; a shown shop needs every day's {\"open\", \"opening\", \"closing\"}".into(),
        ));
    };
    if !day.open {
        return Ok(None);
    }
    let opens = parse_time(&day.opening).ok_or_else(|| {
        (
            ".opening",
            format!("{} is not a time from 00:00 to 23:59", quote(&day.opening)),
        )
    })?;
    let closes = parse_time(&day.closing).ok_or_else(|| {
        (
            ".closing",
            format!("{} is not a time from 00:00 to 23:59", quote(&day.closing)),
        )
    })?;
    if closes <= opens {
        return Err((
            ".closing",
            format!(
                "{} is not after the opening time {}",
                day.closing, day.opening
            ),
        ));
    }
    Ok(Some(Opening { opens, closes }))
}

fn build_places(raw: &[RawPlace], errors: &mut LoadErrors) -> Vec<Place> {
    let areas: HashSet<&str> = raw
        .iter()
        .filter(|p| p.kind == PlaceKind::PostcodeArea)
        .map(|p| p.name.as_str())
        .collect();
    // Names the search finds, each once per kind and country.
    let mut taken: HashMap<(PlaceKind, String, String), usize> = HashMap::new();
    let mut places = Vec::with_capacity(raw.len());
    for (i, p) in raw.iter().enumerate() {
        let item = if p.name.trim().is_empty() {
            format!("place at index {i}")
        } else {
            format!("place {}", crate::limits::clip(&p.name, 60))
        };
        let before = errors.len();
        let mut fail = |field: &str, why: String| {
            errors.push(LoadError::new(FILE_GAZETTEER, &item, field, why));
        };
        if p.name.trim().is_empty() {
            fail("name", "is empty".into());
        } else if let Err(e) = check_name(&p.name) {
            fail("name", e);
        }
        if !is_country_code(&p.country_code) {
            fail(
                "country_code",
                format!(
                    "{} is not an ISO 3166-1 alpha-2 code such as GB or IE",
                    quote(&p.country_code)
                ),
            );
        }
        for (field, why) in check_coordinates(p.latitude, p.longitude) {
            fail(field, why);
        }
        match p.kind {
            PlaceKind::Town => {}
            PlaceKind::PostcodeArea => {
                let b = p.name.as_bytes();
                if !(matches!(b.len(), 1 | 2) && b.iter().all(u8::is_ascii_uppercase)) {
                    fail(
                        "name",
                        format!(
                            "{} is not a postcode area: one or two capital letters, such as LS",
                            quote(&p.name)
                        ),
                    );
                }
            }
            PlaceKind::PostcodeDistrict => {
                if !is_outward_code(&p.name) {
                    fail(
                        "name",
                        format!(
                            "{} is not a postcode district: an outward code in capitals, such as LS1 or SW1A",
                            quote(&p.name)
                        ),
                    );
                } else {
                    let area: String = p
                        .name
                        .chars()
                        .take_while(char::is_ascii_uppercase)
                        .collect();
                    if !areas.contains(area.as_str()) {
                        fail(
                            "name",
                            format!(
                                "the gazetteer has no postcode area {area}, which a search for another {area} district falls back to"
                            ),
                        );
                    }
                }
            }
            PlaceKind::EircodeRoutingKey => {
                if !is_routing_key(&p.name) {
                    fail(
                        "name",
                        format!(
                            "{} is not an Eircode routing key: a capital letter and two digits, such as D02, or D6W",
                            quote(&p.name)
                        ),
                    );
                }
            }
        }
        for (j, alias) in p.aliases.iter().enumerate() {
            if place_key(alias).is_empty() {
                fail(&format!("aliases[{j}]"), "is empty".into());
            } else if let Err(e) = check_name(alias) {
                fail(&format!("aliases[{j}]"), e);
            }
        }
        if errors.len() > before {
            continue;
        }
        let names = std::iter::once(&p.name).chain(&p.aliases);
        for (j, name) in names.enumerate() {
            let key = (p.kind, place_key(name), p.country_code.clone());
            if let Some(&other) = taken.get(&key) {
                let field = if j == 0 {
                    "name".to_string()
                } else {
                    format!("aliases[{}]", j - 1)
                };
                errors.push(LoadError::new(
                    FILE_GAZETTEER,
                    &item,
                    field,
                    format!(
                        "{} is already a name of {} (at index {other}) in {}: a search could not tell them apart",
                        quote(name),
                        raw[other].name,
                        p.country_code
                    ),
                ));
            } else {
                taken.insert(key, i);
            }
        }
        places.push(Place {
            name: p.name.trim().to_string(),
            kind: p.kind,
            country_code: p.country_code.clone(),
            latitude: p.latitude,
            longitude: p.longitude,
            aliases: p.aliases.clone(),
        });
    }
    places
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::export::{RawGeoCoordinates, RawLocationAddress, RawOperatingHours};

    fn open(opening: &str, closing: &str) -> Option<RawDayHours> {
        Some(RawDayHours {
            open: true,
            opening: opening.into(),
            closing: closing.into(),
        })
    }

    fn shop() -> RawLocation {
        RawLocation {
            id: 3,
            code: "LEEDS-BRIGGATE".into(),
            label: "Leeds Briggate".into(),
            type_id: "PHYSICAL".into(),
            enabled: true,
            storefront_visibility: true,
            time_zone: "Europe/London".into(),
            address: RawLocationAddress {
                address1: "104 Briggate".into(),
                address2: String::new(),
                city: "Leeds".into(),
                state: "West Yorkshire".into(),
                zip: "ls1 6bg".into(),
                country_code: "GB".into(),
                phone: Some("+44 113 496 0104".into()),
                email: None,
                geo_coordinates: RawGeoCoordinates {
                    latitude: 53.7982,
                    longitude: -1.5429,
                },
            },
            operating_hours: RawOperatingHours {
                monday: open("09:00", "17:30"),
                tuesday: open("09:00", "17:30"),
                wednesday: open("09:00", "17:30"),
                thursday: open("09:00", "20:00"),
                friday: open("09:00", "17:30"),
                saturday: open("09:00", "18:00"),
                sunday: Some(RawDayHours {
                    open: false,
                    opening: String::new(),
                    closing: String::new(),
                }),
            },
            services: vec!["click_and_collect".into(), "returns".into()],
        }
    }

    fn place(name: &str, kind: PlaceKind) -> RawPlace {
        RawPlace {
            name: name.into(),
            kind,
            country_code: "GB".into(),
            latitude: 53.8,
            longitude: -1.55,
            aliases: Vec::new(),
        }
    }

    fn errors_of(locations: &[RawLocation], places: &[RawPlace]) -> Vec<String> {
        match ShopFinder::from_export(locations, places) {
            Ok(_) => Vec::new(),
            Err(e) => e.0.iter().map(ToString::to_string).collect(),
        }
    }

    fn one_error(locations: &[RawLocation], places: &[RawPlace]) -> String {
        let errors = errors_of(locations, places);
        assert_eq!(errors.len(), 1, "{errors:#?}");
        errors[0].clone()
    }

    #[test]
    fn a_valid_shop_and_gazetteer_load() {
        let finder = ShopFinder::from_export(
            &[shop()],
            &[
                place("Leeds", PlaceKind::Town),
                place("LS", PlaceKind::PostcodeArea),
                place("LS1", PlaceKind::PostcodeDistrict),
            ],
        )
        .unwrap();
        let s = &finder.shops[0];
        assert_eq!(s.anchor, "shop-leeds-briggate");
        assert_eq!(s.postcode, "LS1 6BG");
        assert_eq!(s.address_lines, ["104 Briggate"]);
        assert_eq!(
            s.hours[0],
            Some(Opening {
                opens: 540,
                closes: 1050
            })
        );
        assert_eq!(s.hours[6], None);
        assert_eq!(s.services[0].label, "Click & collect");
        assert_eq!(finder.places.len(), 3);
    }

    #[test]
    fn warehouses_and_hidden_locations_are_not_shops_and_need_no_shop_fields() {
        let mut warehouse = shop();
        warehouse.id = 1;
        warehouse.storefront_visibility = false;
        warehouse.operating_hours = RawOperatingHours::default();
        warehouse.address.geo_coordinates = RawGeoCoordinates {
            latitude: 0.0,
            longitude: 0.0,
        };
        let mut disabled = shop();
        disabled.id = 2;
        disabled.enabled = false;
        let finder = ShopFinder::from_export(&[warehouse, disabled, shop()], &[]).unwrap();
        assert_eq!(finder.shops.len(), 1);
    }

    #[test]
    fn each_bad_shop_field_is_named() {
        type Edit = fn(&mut RawLocation);
        let cases: Vec<(Edit, &str)> = vec![
            (
                |l| l.code = String::new(),
                "catalog/locations.json: location 3: code: is empty",
            ),
            (
                |l| l.code = "LEEDS BRIGGATE".into(),
                "location 3: code: \"LEEDS BRIGGATE\" must be at most 64",
            ),
            (|l| l.label = " ".into(), "location 3: label: is empty"),
            (
                |l| l.address.address1 = String::new(),
                "location 3: address.address1: is empty",
            ),
            (
                |l| l.address.city = String::new(),
                "location 3: address.city: is empty",
            ),
            (
                |l| l.address.country_code = "UK".into(),
                "location 3: address.country_code: \"UK\" is not an ISO 3166-1",
            ),
            (
                |l| l.address.zip = "LS1 6B".into(),
                "location 3: address.zip: \"LS1 6B\" is not a UK postcode",
            ),
            (
                |l| l.address.geo_coordinates.latitude = 91.5,
                "location 3: address.geo_coordinates.latitude: is 91.5; it must be from -90 to 90",
            ),
            (
                |l| l.address.geo_coordinates.longitude = -200.0,
                "address.geo_coordinates.longitude: is -200; it must be from -180 to 180",
            ),
            (
                |l| {
                    l.address.geo_coordinates = RawGeoCoordinates {
                        latitude: 0.0,
                        longitude: 0.0,
                    }
                },
                "location 3: address.geo_coordinates: is 0, 0",
            ),
            (
                |l| l.address.phone = Some("0113 496 0104".into()),
                "location 3: address.phone: \"0113 496 0104\" must be in international format",
            ),
            (
                |l| l.operating_hours.sunday = None,
                "location 3: operating_hours.sunday: missing",
            ),
            (
                |l| l.operating_hours.monday = open("9am", "17:30"),
                "location 3: operating_hours.monday.opening: \"9am\" is not a time",
            ),
            (
                |l| l.operating_hours.friday = open("09:00", "24:00"),
                "location 3: operating_hours.friday.closing: \"24:00\" is not a time",
            ),
            (
                |l| l.operating_hours.tuesday = open("18:00", "09:00"),
                "location 3: operating_hours.tuesday.closing: 09:00 is not after the opening time 18:00",
            ),
            (
                |l| l.services.push("valet".into()),
                "location 3: services[2]: unknown service \"valet\"; expected one of click_and_collect, returns,",
            ),
            (
                |l| l.services.push("returns".into()),
                "location 3: services[2]: \"returns\" is listed twice",
            ),
        ];
        for (edit, expected) in cases {
            let mut l = shop();
            edit(&mut l);
            let errors = errors_of(&[l], &[]);
            assert_eq!(errors.len(), 1, "{expected}: {errors:#?}");
            let e = errors[0].clone();
            assert!(e.contains(expected), "{e}\nshould contain {expected}");
        }
    }

    #[test]
    fn duplicate_ids_and_codes_are_named() {
        let mut twin = shop();
        twin.code = "leeds-briggate".into();
        twin.id = 4;
        let e = one_error(&[shop(), twin], &[]);
        assert!(
            e.contains("location 4: code: \"leeds-briggate\" is also the code of location 3"),
            "{e}"
        );
        let e = one_error(&[shop(), shop()], &[]);
        assert!(e.contains("location 3: id: duplicate location id"), "{e}");
    }

    #[test]
    fn an_irish_shop_needs_an_eircode_and_other_countries_any_postcode() {
        let mut dublin = shop();
        dublin.address.country_code = "IE".into();
        dublin.address.zip = "d02x285".into();
        let finder = ShopFinder::from_export(&[dublin.clone()], &[]).unwrap();
        assert_eq!(finder.shops[0].postcode, "D02 X285");
        dublin.address.zip = "Dublin 2".into();
        assert!(one_error(&[dublin], &[]).contains("address.zip: \"Dublin 2\" is not an Eircode"));
        let mut paris = shop();
        paris.address.country_code = "FR".into();
        paris.address.zip = "75001".into();
        assert!(ShopFinder::from_export(&[paris], &[]).is_ok());
    }

    #[test]
    fn each_bad_place_is_named() {
        let area = place("LS", PlaceKind::PostcodeArea);
        let cases: Vec<(RawPlace, &str)> = vec![
            (
                place("", PlaceKind::Town),
                "gazetteer.json: place at index 1: name: is empty",
            ),
            (
                place("ls", PlaceKind::PostcodeArea),
                "place ls: name: \"ls\" is not a postcode area",
            ),
            (
                place("LS1 4AP", PlaceKind::PostcodeDistrict),
                "place LS1 4AP: name: \"LS1 4AP\" is not a postcode district",
            ),
            (
                place("M1", PlaceKind::PostcodeDistrict),
                "place M1: name: the gazetteer has no postcode area M",
            ),
            (
                place("DO2", PlaceKind::EircodeRoutingKey),
                "place DO2: name: \"DO2\" is not an Eircode routing key",
            ),
            (
                RawPlace {
                    latitude: -95.0,
                    ..place("Leeds", PlaceKind::Town)
                },
                "place Leeds: latitude: is -95; it must be from -90 to 90",
            ),
            (
                RawPlace {
                    country_code: "gb".into(),
                    ..place("Leeds", PlaceKind::Town)
                },
                "place Leeds: country_code: \"gb\" is not",
            ),
            (
                RawPlace {
                    aliases: vec!["  ".into()],
                    ..place("Leeds", PlaceKind::Town)
                },
                "place Leeds: aliases[0]: is empty",
            ),
            (
                place("LS", PlaceKind::PostcodeArea),
                "place LS: name: \"LS\" is already a name of LS (at index 0) in GB",
            ),
        ];
        for (bad, expected) in cases {
            let e = one_error(&[], &[area.clone(), bad]);
            assert!(e.contains(expected), "{e}\nshould contain {expected}");
        }
        // The same town name in another country is another place (Boston, Lincolnshire and Massachusetts).
        let us = RawPlace {
            country_code: "US".into(),
            ..place("Boston", PlaceKind::Town)
        };
        assert!(ShopFinder::from_export(&[], &[place("Boston", PlaceKind::Town), us]).is_ok());
        // An alias that repeats another town's name is refused.
        let newcastle = RawPlace {
            aliases: vec!["Newcastle".into()],
            ..place("Newcastle upon Tyne", PlaceKind::Town)
        };
        let e = one_error(&[], &[place("Newcastle", PlaceKind::Town), newcastle]);
        assert!(e.contains("place Newcastle upon Tyne: aliases[0]: \"Newcastle\" is already a name of Newcastle"), "{e}");
    }

    #[test]
    fn country_codes_are_the_assigned_ones() {
        let codes: Vec<&str> = COUNTRY_CODES.split_whitespace().collect();
        assert_eq!(codes.len(), 249);
        assert!(codes.windows(2).all(|w| w[0] < w[1]), "sorted, no repeats");
        assert!(is_country_code("GB") && is_country_code("IE") && is_country_code("US"));
        assert!(!is_country_code("UK") && !is_country_code("EU") && !is_country_code("gb"));
    }

    #[test]
    fn names_compare_without_case_accents_or_punctuation() {
        assert_eq!(place_key("  Stoke-on-Trent "), "stoke on trent");
        assert_eq!(place_key("King's Lynn"), "kings lynn");
        assert_eq!(place_key("Düsseldorf"), "dusseldorf");
        assert_eq!(place_key("Brighton & Hove"), "brighton and hove");
        assert_eq!(place_key("A&B"), "a and b");
    }

    #[test]
    fn uk_postcodes_are_recognised_and_printed_with_one_space() {
        assert_eq!(uk_postcode("sw1a1aa").as_deref(), Some("SW1A 1AA"));
        assert_eq!(uk_postcode("M1 1AE").as_deref(), Some("M1 1AE"));
        assert_eq!(uk_postcode("EH1  2NG").as_deref(), Some("EH1 2NG"));
        assert_eq!(uk_postcode("LS1"), None);
        assert_eq!(uk_postcode("1S1 4AP"), None);
        assert_eq!(uk_postcode("LS1 4A1"), None);
        assert_eq!(uk_postcode("LSS1 4AP"), None);
    }
}
