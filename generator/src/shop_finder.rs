//! The shop finder page of a market: its island's props (the shops as the page prints them, the
//! drawn map with each shop placed, the gazetteer the search resolves places with) and its
//! JSON-LD. The map is an SVG drawn here from latitudes and longitudes over a simplified coastline,
//! so the page works offline and needs no map provider or key.

use domain::export::PlaceKind;
use domain::market::Market;
use domain::shops::{Opening, Shop, ShopFinder, WEEKDAYS, hhmm};
use serde_json::{Value, json};

/// The map's width in SVG units; its height follows from the shops' spread.
const MAP_WIDTH: f64 = 400.0;
/// A marker's radius: room for a two-digit number.
const MARKER_RADIUS: f64 = 11.0;
/// Degrees of latitude around the shops, so no marker sits on the edge.
const MAP_MARGIN_DEGREES: f64 = 0.7;
/// The smallest span shown (one shop, or shops in one town, still get some country round them).
const MIN_SPAN_DEGREES: f64 = 2.0;
const KM_PER_DEGREE: f64 = 111.195;
const KM_PER_MILE: f64 = 1.609_344;

/// Coastlines of Great Britain, Ireland and the Isle of Man as (longitude, latitude), simplified
/// to a few kilometres: enough to recognise where a shop is, not to navigate by.
const COASTS: [&[(f64, f64)]; 3] = [
    &[
        (-5.71, 50.07),
        (-5.55, 50.05),
        (-5.2, 49.96),
        (-5.07, 50.15),
        (-4.78, 50.33),
        (-4.45, 50.35),
        (-4.14, 50.37),
        (-3.95, 50.3),
        (-3.64, 50.22),
        (-3.58, 50.35),
        (-3.52, 50.46),
        (-3.4, 50.62),
        (-3.24, 50.68),
        (-2.94, 50.72),
        (-2.45, 50.61),
        (-2.45, 50.52),
        (-2.06, 50.58),
        (-1.98, 50.7),
        (-1.75, 50.73),
        (-1.4, 50.83),
        (-1.1, 50.79),
        (-0.79, 50.73),
        (-0.37, 50.81),
        (-0.14, 50.82),
        (0.24, 50.73),
        (0.58, 50.85),
        (0.97, 50.91),
        (1.18, 51.08),
        (1.38, 51.14),
        (1.4, 51.22),
        (1.44, 51.38),
        (1.03, 51.36),
        (0.76, 51.44),
        (0.45, 51.47),
        (0.58, 51.52),
        (0.7, 51.53),
        (0.95, 51.6),
        (0.9, 51.75),
        (1.15, 51.79),
        (1.28, 51.94),
        (1.35, 51.96),
        (1.57, 52.09),
        (1.68, 52.33),
        (1.76, 52.48),
        (1.74, 52.6),
        (1.6, 52.8),
        (1.3, 52.93),
        (1.0, 52.96),
        (0.5, 52.95),
        (0.4, 52.8),
        (0.2, 52.85),
        (0.34, 53.14),
        (0.26, 53.34),
        (-0.03, 53.56),
        (0.11, 53.58),
        (0.03, 53.73),
        (-0.19, 54.08),
        (-0.08, 54.12),
        (-0.28, 54.21),
        (-0.4, 54.28),
        (-0.61, 54.49),
        (-1.06, 54.62),
        (-1.2, 54.69),
        (-1.37, 54.91),
        (-1.43, 55.02),
        (-1.57, 55.33),
        (-1.71, 55.61),
        (-2.0, 55.77),
        (-2.13, 55.91),
        (-2.5, 56.0),
        (-2.72, 56.06),
        (-3.17, 55.98),
        (-3.7, 56.03),
        (-3.72, 56.07),
        (-3.15, 56.11),
        (-2.8, 56.19),
        (-2.58, 56.28),
        (-2.8, 56.34),
        (-2.88, 56.45),
        (-2.58, 56.56),
        (-2.47, 56.71),
        (-2.2, 56.96),
        (-2.08, 57.15),
        (-1.78, 57.5),
        (-2.0, 57.69),
        (-2.52, 57.67),
        (-2.96, 57.68),
        (-3.28, 57.72),
        (-3.87, 57.59),
        (-4.22, 57.48),
        (-4.04, 57.68),
        (-3.77, 57.86),
        (-4.03, 57.88),
        (-3.65, 58.12),
        (-3.09, 58.44),
        (-3.03, 58.64),
        (-3.37, 58.67),
        (-3.52, 58.6),
        (-4.42, 58.52),
        (-5.0, 58.62),
        (-5.35, 58.25),
        (-5.16, 57.9),
        (-5.82, 57.55),
        (-5.71, 57.28),
        (-5.85, 56.95),
        (-6.22, 56.73),
        (-5.65, 56.55),
        (-5.47, 56.41),
        (-5.6, 56.0),
        (-5.55, 55.7),
        (-5.8, 55.31),
        (-5.45, 55.45),
        (-5.2, 55.9),
        (-4.76, 55.95),
        (-4.85, 55.75),
        (-4.63, 55.46),
        (-5.0, 55.1),
        (-5.05, 54.9),
        (-5.15, 54.85),
        (-4.86, 54.63),
        (-4.4, 54.8),
        (-4.05, 54.84),
        (-3.6, 54.9),
        (-3.26, 54.98),
        (-3.39, 54.87),
        (-3.64, 54.51),
        (-3.23, 54.1),
        (-2.87, 54.07),
        (-3.01, 53.92),
        (-3.05, 53.82),
        (-3.01, 53.65),
        (-3.08, 53.55),
        (-3.0, 53.4),
        (-3.15, 53.39),
        (-3.1, 53.25),
        (-3.4, 53.34),
        (-3.86, 53.34),
        (-4.13, 53.23),
        (-4.2, 53.3),
        (-4.3, 53.42),
        (-4.57, 53.41),
        (-4.68, 53.31),
        (-4.5, 53.17),
        (-4.3, 53.14),
        (-4.55, 52.95),
        (-4.75, 52.8),
        (-4.4, 52.88),
        (-4.13, 52.9),
        (-4.06, 52.72),
        (-4.09, 52.41),
        (-4.36, 52.21),
        (-4.66, 52.1),
        (-4.98, 52.0),
        (-5.31, 51.9),
        (-5.2, 51.72),
        (-5.05, 51.7),
        (-4.7, 51.67),
        (-4.4, 51.73),
        (-4.33, 51.56),
        (-3.94, 51.62),
        (-3.7, 51.48),
        (-3.27, 51.39),
        (-3.17, 51.46),
        (-2.95, 51.55),
        (-2.67, 51.64),
        (-2.7, 51.5),
        (-2.98, 51.35),
        (-3.05, 51.2),
        (-3.47, 51.2),
        (-3.83, 51.23),
        (-4.12, 51.21),
        (-4.53, 51.02),
        (-4.55, 50.83),
        (-4.94, 50.54),
        (-5.08, 50.42),
        (-5.48, 50.21),
        (-5.7, 50.12),
    ],
    &[
        (-7.37, 55.38),
        (-7.0, 55.25),
        (-6.66, 55.2),
        (-6.15, 55.22),
        (-5.8, 54.85),
        (-5.9, 54.66),
        (-5.55, 54.65),
        (-5.44, 54.4),
        (-5.55, 54.25),
        (-5.88, 54.2),
        (-6.1, 54.0),
        (-6.35, 53.98),
        (-6.25, 53.72),
        (-6.18, 53.61),
        (-6.07, 53.38),
        (-6.2, 53.33),
        (-6.1, 53.27),
        (-6.0, 52.98),
        (-6.14, 52.8),
        (-6.2, 52.56),
        (-6.45, 52.34),
        (-6.34, 52.25),
        (-6.36, 52.17),
        (-6.93, 52.12),
        (-7.15, 52.15),
        (-7.6, 52.08),
        (-7.85, 51.95),
        (-8.25, 51.8),
        (-8.52, 51.7),
        (-8.9, 51.6),
        (-9.37, 51.48),
        (-9.82, 51.45),
        (-9.85, 51.55),
        (-10.2, 51.6),
        (-9.9, 51.78),
        (-10.35, 51.9),
        (-10.0, 52.05),
        (-10.48, 52.1),
        (-10.2, 52.27),
        (-9.85, 52.3),
        (-9.93, 52.42),
        (-9.93, 52.56),
        (-9.65, 52.68),
        (-9.35, 52.93),
        (-9.27, 53.15),
        (-9.05, 53.27),
        (-9.3, 53.24),
        (-10.23, 53.4),
        (-10.02, 53.49),
        (-9.9, 53.63),
        (-10.25, 53.97),
        (-10.0, 54.3),
        (-9.35, 54.33),
        (-9.2, 54.22),
        (-8.6, 54.3),
        (-8.45, 54.47),
        (-8.12, 54.65),
        (-8.7, 54.62),
        (-8.75, 54.72),
        (-8.4, 54.95),
        (-8.28, 55.14),
        (-7.98, 55.22),
        (-7.63, 55.27),
        (-7.5, 55.15),
    ],
    &[
        (-4.79, 54.06),
        (-4.62, 54.38),
        (-4.36, 54.41),
        (-4.35, 54.2),
        (-4.6, 54.06),
    ],
];

/// Longitude and latitude to SVG units: an equirectangular projection with longitudes shrunk by
/// the cosine of the middle latitude, which keeps the British Isles' shape at this scale.
#[derive(Debug, Clone, Copy)]
struct Projection {
    west: f64,
    north: f64,
    /// SVG units per degree of longitude and of latitude.
    kx: f64,
    ky: f64,
    height: f64,
}

impl Projection {
    fn around(shops: &[Shop]) -> Projection {
        let lats = shops.iter().map(|s| s.latitude);
        let lons = shops.iter().map(|s| s.longitude);
        let (mut south, mut north) = (
            lats.clone().fold(f64::INFINITY, f64::min),
            lats.fold(f64::NEG_INFINITY, f64::max),
        );
        let (mut west, mut east) = (
            lons.clone().fold(f64::INFINITY, f64::min),
            lons.fold(f64::NEG_INFINITY, f64::max),
        );
        let middle = (south + north) / 2.0;
        let shrink = middle.to_radians().cos().max(0.1);
        let grow = |low: &mut f64, high: &mut f64, margin: f64, min: f64| {
            let pad = ((min - (*high - *low)) / 2.0).max(0.0) + margin;
            *low -= pad;
            *high += pad;
        };
        grow(&mut south, &mut north, MAP_MARGIN_DEGREES, MIN_SPAN_DEGREES);
        grow(
            &mut west,
            &mut east,
            MAP_MARGIN_DEGREES / shrink,
            MIN_SPAN_DEGREES / shrink,
        );
        let kx = MAP_WIDTH / (east - west);
        let ky = kx / shrink;
        Projection {
            west,
            north,
            kx,
            ky,
            height: ((north - south) * ky).round(),
        }
    }

    fn point(&self, longitude: f64, latitude: f64) -> (f64, f64) {
        (
            (longitude - self.west) * self.kx,
            (self.north - latitude) * self.ky,
        )
    }
}

/// One decimal place: the map's coordinates, short in the page.
fn round1(v: f64) -> f64 {
    (v * 10.0).round() / 10.0
}

/// A coordinate for the island's props, whole numbers as integers: the template prints `120.0`
/// for a float where React prints `120`, and the two must print the same markup.
fn num(v: f64) -> Value {
    let v = round1(v);
    if v.fract() == 0.0 && v.abs() < 1e9 {
        json!(v as i64)
    } else {
        json!(v)
    }
}

/// The coastlines as one SVG path.
fn coast_path(p: &Projection) -> String {
    let mut d = String::new();
    for coast in COASTS {
        for (i, &(lon, lat)) in coast.iter().enumerate() {
            let (x, y) = p.point(lon, lat);
            d.push_str(&format!(
                "{}{} {}",
                if i == 0 { "M" } else { "L" },
                round1(x),
                round1(y)
            ));
        }
        d.push('Z');
    }
    d
}

/// Where each marker is drawn: at its shop, moved apart from the others just enough that no two
/// overlap (two London shops are a few pixels apart at this scale). Deterministic, so a build
/// with the same shops draws the same map.
fn spread_markers(points: &[(f64, f64)], width: f64, height: f64) -> Vec<(f64, f64)> {
    let mut at: Vec<(f64, f64)> = points.to_vec();
    let gap = 2.0 * MARKER_RADIUS + 2.0;
    for _ in 0..60 {
        let mut moved = false;
        for i in 0..at.len() {
            for j in i + 1..at.len() {
                let (dx, dy) = (at[j].0 - at[i].0, at[j].1 - at[i].1);
                let distance = (dx * dx + dy * dy).sqrt();
                if distance >= gap {
                    continue;
                }
                moved = true;
                // Shops at one spot part sideways, the first to the left.
                let (ux, uy) = if distance < 1e-6 {
                    (1.0, 0.0)
                } else {
                    (dx / distance, dy / distance)
                };
                let push = (gap - distance) / 2.0 + 0.01;
                at[i] = (at[i].0 - ux * push, at[i].1 - uy * push);
                at[j] = (at[j].0 + ux * push, at[j].1 + uy * push);
            }
        }
        for p in &mut at {
            p.0 = p.0.clamp(MARKER_RADIUS + 1.0, width - MARKER_RADIUS - 1.0);
            p.1 = p.1.clamp(MARKER_RADIUS + 1.0, height - MARKER_RADIUS - 1.0);
        }
        if !moved {
            break;
        }
    }
    at
}

/// A country as the address's last line.
fn country_name(code: &str) -> &str {
    match code {
        "GB" => "United Kingdom",
        "IE" => "Ireland",
        "IM" => "Isle of Man",
        "JE" => "Jersey",
        "GG" => "Guernsey",
        "FR" => "France",
        "DE" => "Germany",
        "NL" => "Netherlands",
        "BE" => "Belgium",
        "ES" => "Spain",
        "IT" => "Italy",
        "US" => "United States",
        other => other,
    }
}

/// Countries whose places a search prefers when a name is in several (Boston, Perth): the
/// market's own first.
fn preferred_countries(market: &Market) -> &'static [&'static str] {
    match market.code {
        "us" => &["US", "GB", "IE"],
        "eu" => &["IE", "GB"],
        _ => &["GB", "JE", "GG", "IM", "IE"],
    }
}

/// Miles in the UK and the US, kilometres in Europe.
pub fn distance_unit(market: &Market) -> &'static str {
    if market.code == "eu" { "km" } else { "miles" }
}

fn hours_text(opening: Option<Opening>) -> String {
    match opening {
        Some(o) => format!("{}–{}", hhmm(o.opens), hhmm(o.closes)),
        None => "Closed".into(),
    }
}

/// OpenStreetMap's directions to the shop (the visitor's start left for them or their browser
/// to fill in): a plain link, no key.
pub fn directions_url(shop: &Shop) -> String {
    format!(
        "https://www.openstreetmap.org/directions?route=%3B{}%2C{}",
        shop.latitude, shop.longitude
    )
}

/// `tel:` with the digits and the leading `+` only.
pub fn tel_href(phone: &str) -> String {
    let digits: String = phone
        .chars()
        .filter(|c| c.is_ascii_digit() || *c == '+')
        .collect();
    format!("tel:{digits}")
}

fn kind_code(kind: PlaceKind) -> &'static str {
    match kind {
        PlaceKind::Town => "town",
        PlaceKind::PostcodeArea => "postcode_area",
        PlaceKind::PostcodeDistrict => "postcode_district",
        PlaceKind::EircodeRoutingKey => "eircode_routing_key",
    }
}

/// The `ShopFinder` island's props for `market`.
pub fn island_props(finder: &ShopFinder, market: &Market) -> Value {
    let unit = distance_unit(market);
    let map = (!finder.shops.is_empty()).then(|| {
        let p = Projection::around(&finder.shops);
        let points: Vec<(f64, f64)> = finder
            .shops
            .iter()
            .map(|s| p.point(s.longitude, s.latitude))
            .collect();
        let markers = spread_markers(&points, MAP_WIDTH, p.height);
        // A scale bar of 50 miles (or 50 km), its length measured north–south, where the
        // projection is true.
        let scale_km = if unit == "km" {
            50.0
        } else {
            50.0 * KM_PER_MILE
        };
        let scale_width = round1(scale_km / KM_PER_DEGREE * p.ky);
        let shops: Vec<Value> = points
            .iter()
            .zip(&markers)
            .map(|(&(x, y), &(mx, my))| {
                json!({"x": num(x), "y": num(y), "mx": num(mx), "my": num(my)})
            })
            .collect();
        json!({
            "width": num(MAP_WIDTH),
            "height": num(p.height),
            "coast": coast_path(&p),
            // Bottom left, 12 units in.
            "scale": {
                "d": format!("M12 {}h{scale_width}", p.height - 12.0),
                "x": 12,
                "y": num(p.height - 18.0),
                "label": format!("50 {unit}"),
            },
            "projection": {"west": p.west, "north": p.north, "kx": p.kx, "ky": p.ky},
            "points": shops,
        })
    });
    let shops: Vec<Value> = finder
        .shops
        .iter()
        .map(|s| {
            let mut address = s.address_lines.clone();
            address.push(s.town.clone());
            // US addresses print their state; UK and Irish ones need no county.
            if s.country_code == "US" && !s.county.is_empty() {
                address.push(s.county.clone());
            }
            address.push(s.postcode.clone());
            address.push(country_name(&s.country_code).to_string());
            json!({
                "id": s.anchor,
                "name": s.name,
                "address": address,
                "phone": s.phone,
                "phoneHref": s.phone.as_deref().map(tel_href),
                "services": s.services.iter().map(|v| v.label).collect::<Vec<_>>(),
                "hours": WEEKDAYS.iter().zip(s.hours).map(|(day, h)| json!({"day": day, "hours": hours_text(h)})).collect::<Vec<_>>(),
                "directions": directions_url(s),
                "lat": s.latitude,
                "lon": s.longitude,
            })
        })
        .collect();
    let places: Vec<Value> = finder
        .places
        .iter()
        .map(|p| {
            let mut v = json!({"name": p.name, "kind": kind_code(p.kind), "country": p.country_code, "lat": p.latitude, "lon": p.longitude});
            if !p.aliases.is_empty() {
                v["aliases"] = json!(p.aliases);
            }
            v
        })
        .collect();
    json!({
        "unit": unit,
        "shops": shops,
        "map": map,
        "places": places,
        "countries": preferred_countries(market),
    })
}

/// schema.org `ClothingStore` per shop, each with its opening hours (days with the same hours
/// in one specification), under one `@graph`.
pub fn jsonld(finder: &ShopFinder, store_name: &str, canonical: &str) -> Value {
    let stores: Vec<Value> = finder
        .shops
        .iter()
        .map(|s| {
            let mut specs: Vec<(Opening, Vec<String>)> = Vec::new();
            for (day, opening) in WEEKDAYS.iter().zip(s.hours) {
                let Some(o) = opening else { continue };
                let day = format!("https://schema.org/{day}");
                match specs.iter_mut().find(|(x, _)| *x == o) {
                    Some((_, days)) => days.push(day),
                    None => specs.push((o, vec![day])),
                }
            }
            let url = format!("{canonical}#{}", s.anchor);
            let mut store = json!({
                "@type": "ClothingStore",
                "@id": url,
                "name": format!("{store_name} {}", s.name),
                "url": url,
                "address": {
                    "@type": "PostalAddress",
                    "streetAddress": s.address_lines.join(", "),
                    "addressLocality": s.town,
                    "postalCode": s.postcode,
                    "addressCountry": s.country_code,
                },
                "geo": {"@type": "GeoCoordinates", "latitude": s.latitude, "longitude": s.longitude},
                "openingHoursSpecification": specs.iter().map(|(o, days)| json!({
                    "@type": "OpeningHoursSpecification",
                    "dayOfWeek": days,
                    "opens": hhmm(o.opens),
                    "closes": hhmm(o.closes),
                })).collect::<Vec<_>>(),
                "parentOrganization": {"@type": "Organization", "name": store_name},
            });
            if let Some(phone) = &s.phone {
                store["telephone"] = json!(phone);
            }
            if !s.county.is_empty() {
                store["address"]["addressRegion"] = json!(s.county);
            }
            store
        })
        .collect();
    json!({"@context": "https://schema.org", "@graph": stores})
}

#[cfg(test)]
mod tests {
    use super::*;
    use domain::shops::Service;

    fn shop(name: &str, latitude: f64, longitude: f64) -> Shop {
        let day = Some(Opening {
            opens: 9 * 60,
            closes: 17 * 60 + 30,
        });
        Shop {
            id: 1,
            code: name.to_uppercase(),
            anchor: format!("shop-{}", name.to_lowercase()),
            name: name.into(),
            address_lines: vec!["1 High Street".into()],
            town: name.into(),
            county: String::new(),
            postcode: "LS1 6BG".into(),
            country_code: "GB".into(),
            latitude,
            longitude,
            phone: Some("+44 113 496 0104".into()),
            hours: [
                day,
                day,
                day,
                Some(Opening {
                    opens: 540,
                    closes: 1200,
                }),
                day,
                day,
                None,
            ],
            services: vec![Service {
                code: "returns",
                label: "In-store returns",
            }],
        }
    }

    #[test]
    fn every_shop_is_on_the_map_and_markers_do_not_overlap() {
        let shops = vec![
            shop("Leeds", 53.7982, -1.5429),
            shop("Covent", 51.5117, -0.1240),
            shop("Chelsea", 51.4877, -0.1687),
            shop("Twin", 51.4877, -0.1687),
            shop("Dublin", 53.3418, -6.2597),
        ];
        let p = Projection::around(&shops);
        let points: Vec<_> = shops
            .iter()
            .map(|s| p.point(s.longitude, s.latitude))
            .collect();
        for &(x, y) in &points {
            assert!((0.0..=MAP_WIDTH).contains(&x) && (0.0..=p.height).contains(&y));
        }
        // North is up, west is left.
        assert!(points[0].1 < points[1].1 && points[4].0 < points[0].0);
        let markers = spread_markers(&points, MAP_WIDTH, p.height);
        for i in 0..markers.len() {
            for j in i + 1..markers.len() {
                let d = ((markers[i].0 - markers[j].0).powi(2)
                    + (markers[i].1 - markers[j].1).powi(2))
                .sqrt();
                assert!(d >= 2.0 * MARKER_RADIUS, "{i} and {j} overlap: {d}");
            }
        }
        // Shops far from the others stay where they are.
        assert_eq!(markers[0], points[0]);
    }

    #[test]
    fn one_shop_still_gets_a_map_with_country_around_it() {
        let p = Projection::around(&[shop("York", 53.96, -1.08)]);
        let (x, y) = p.point(-1.08, 53.96);
        assert!((x - MAP_WIDTH / 2.0).abs() < 1.0, "{x}");
        assert!((y - p.height / 2.0).abs() < 1.0, "{y}");
        assert!(p.height > 100.0);
    }

    #[test]
    fn days_with_the_same_hours_share_one_opening_hours_specification() {
        let finder = ShopFinder {
            shops: vec![shop("Leeds", 53.7982, -1.5429)],
            places: Vec::new(),
        };
        let ld = jsonld(&finder, "Maison Lark", "https://x.example/shop-finder");
        let store = &ld["@graph"][0];
        assert_eq!(store["@type"], "ClothingStore");
        assert_eq!(store["url"], "https://x.example/shop-finder#shop-leeds");
        let specs = store["openingHoursSpecification"].as_array().unwrap();
        assert_eq!(specs.len(), 2);
        assert_eq!(specs[0]["dayOfWeek"].as_array().unwrap().len(), 5);
        assert_eq!(specs[0]["opens"], "09:00");
        assert_eq!(specs[1]["dayOfWeek"][0], "https://schema.org/Thursday");
        assert_eq!(specs[1]["closes"], "20:00");
    }

    #[test]
    fn links_and_units_per_market() {
        let s = shop("Leeds", 53.7982, -1.5429);
        assert_eq!(
            directions_url(&s),
            "https://www.openstreetmap.org/directions?route=%3B53.7982%2C-1.5429"
        );
        assert_eq!(tel_href("+44 113 496 0104"), "tel:+441134960104");
        assert_eq!(distance_unit(&domain::market::UK), "miles");
        assert_eq!(distance_unit(&domain::market::US), "miles");
        assert_eq!(distance_unit(&domain::market::EU), "km");
        let props = island_props(
            &ShopFinder {
                shops: vec![s],
                places: Vec::new(),
            },
            &domain::market::EU,
        );
        assert_eq!(props["unit"], "km");
        assert_eq!(props["map"]["scale"]["label"], "50 km");
        // Whole coordinates are integers, so the template prints them as React does.
        assert_eq!(props["map"]["width"], json!(400));
        assert!(props["map"]["height"].is_i64());
        assert_eq!(props["shops"][0]["hours"][6]["hours"], "Closed");
        assert_eq!(props["shops"][0]["hours"][3]["hours"], "09:00–20:00");
        assert_eq!(
            props["shops"][0]["address"],
            json!(["1 High Street", "Leeds", "LS1 6BG", "United Kingdom"])
        );
    }
}
