//! The shop finder built from the sample store: a page per market listing every shop (address,
//! hours, services, phone, directions) on a drawn map, with JSON-LD and the search island's props;
//! an export without shops; each kind of bad shop or gazetteer input refused with its file, item and
//! field; and a change to the shops rewriting only the shop-finder pages, in a build and through the
//! rebuild daemon (`storefront dev`'s file watch).

mod common;

use common::*;
use domain::market::MARKETS;
use serde_json::{Value, json};
use std::time::{Duration, Instant};

const BASE: &str = "https://www.maisonlark.example";
/// The shop finder of each market, in the order a sorted list of paths has them.
const PAGES: [&str; 3] = [
    "eu/shop-finder/index.html",
    "shop-finder/index.html",
    "us/shop-finder/index.html",
];

/// The JSON of the page's `ShopFinder` island props.
fn island_props(html: &str) -> Value {
    let start = html
        .find("data-island=\"ShopFinder\" data-island-id=\"")
        .expect("the page has the ShopFinder island");
    let id_start = start + "data-island=\"ShopFinder\" data-island-id=\"".len();
    let id = &html[id_start..id_start + html[id_start..].find('"').unwrap()];
    let marker = format!("data-island-props=\"{id}\">");
    let json_start = html.find(&marker).unwrap() + marker.len();
    let json_end = json_start + html[json_start..].find("</script>").unwrap();
    serde_json::from_str(&html[json_start..json_end]).expect("props are JSON")
}

fn jsonld_stores(html: &str) -> Vec<Value> {
    html.split("<script type=\"application/ld+json\">")
        .skip(1)
        .map(|s| serde_json::from_str::<Value>(&s[..s.find("</script>").unwrap()]).unwrap())
        .flat_map(|ld| ld["@graph"].as_array().cloned().unwrap_or_default())
        .filter(|node| node["@type"] == "ClothingStore")
        .collect()
}

#[test]
fn every_market_has_a_shop_finder_listing_every_shop_on_a_drawn_map() {
    let site = built_sample();
    for market in MARKETS {
        let url = market.path("/shop-finder");
        let html = site.read(&url);
        assert!(!html.contains("noindex"), "{url}: indexable");
        assert!(
            html.contains(&format!("<link rel=\"canonical\" href=\"{BASE}{url}\">")),
            "{url}: canonical"
        );
        assert!(html.contains("<h1 class=\"page-title\">Shop finder</h1>"));
        // Twelve shops; the warehouses (locations 1 and 2) are not shown.
        assert_eq!(
            html.matches("<li class=\"shop\" id=\"shop-").count(),
            12,
            "{url}"
        );
        assert!(!html.contains("warehouse"), "{url}: no warehouse");
        // One shop in full: address, phone as a tel: link, services, hours, directions.
        let leeds = &html[html.find("id=\"shop-leeds-briggate\"").unwrap()..];
        let leeds = &leeds[..leeds.find("</li><li class=\"shop\"").unwrap_or(leeds.len())];
        for expected in [
            "Leeds Briggate</h2>",
            "<span class=\"shop__line\">104 Briggate</span><span class=\"shop__line\">Leeds</span><span class=\"shop__line\">LS1 6BG</span><span class=\"shop__line\">United Kingdom</span>",
            "Phone <a href=\"tel:+441134960318\">+44 113 496 0318</a>",
            "<li class=\"shop__service\">Click &amp; collect</li><li class=\"shop__service\">In-store returns</li><li class=\"shop__service\">Alterations</li>",
            "<th scope=\"row\">Thursday</th><td>09:00–20:00</td>",
            "<th scope=\"row\">Sunday</th><td>10:30–16:30</td>",
            "<a href=\"https://www.openstreetmap.org/directions?route=%3B53.7982%2C-1.5429\">Directions<span class=\"visually-hidden\"> to Leeds Briggate</span></a>",
        ] {
            assert!(leeds.contains(expected), "{url}: {expected}\n{leeds}");
        }
        // The Dublin shop has an Eircode and no phone.
        let dublin = &html[html.find("id=\"shop-dublin-grafton\"").unwrap()..];
        let dublin = &dublin[..dublin.find("</li><li class=\"shop\"").unwrap()];
        assert!(dublin.contains("D02 X285</span><span class=\"shop__line\">Ireland</span>"));
        assert!(!dublin.contains("shop__phone"));
        // The map: a marker per shop linking to its entry, over the coastline, with its caption.
        assert_eq!(
            html.matches("<a class=\"shop-map__marker\" href=\"#shop-")
                .count(),
            12
        );
        assert!(html.contains("href=\"#shop-york-stonegate\" aria-label=\"12: York Stonegate\""));
        assert!(html.contains("<path class=\"shop-map__land\" d=\"M"));
        assert!(html.contains("aria-labelledby=\"shop-map-caption\""));
        assert!(
            html.contains(
                "Map of our 12 shops: each numbered marker links to the shop in the list."
            )
        );
        // The island's props: the unit of the market, the gazetteer, and the same shops.
        let props = island_props(&html);
        let unit = if market.code == "eu" { "km" } else { "miles" };
        assert_eq!(props["unit"], unit, "{url}");
        assert_eq!(props["map"]["scale"]["label"], format!("50 {unit}"));
        assert_eq!(props["shops"].as_array().unwrap().len(), 12);
        let places = props["places"].as_array().unwrap();
        let count = |kind: &str| places.iter().filter(|p| p["kind"] == kind).count();
        assert_eq!(count("postcode_area"), 124, "every UK postcode area");
        assert!(count("postcode_district") > 50 && count("town") > 100);
        // JSON-LD: a ClothingStore per shop with its opening hours.
        let stores = jsonld_stores(&html);
        assert_eq!(stores.len(), 12, "{url}");
        let store = stores
            .iter()
            .find(|s| s["name"] == "Maison Lark Leeds Briggate")
            .unwrap();
        assert_eq!(store["url"], format!("{BASE}{url}#shop-leeds-briggate"));
        assert_eq!(store["telephone"], "+44 113 496 0318");
        assert_eq!(store["address"]["postalCode"], "LS1 6BG");
        assert_eq!(store["geo"]["latitude"], json!(53.7982));
        let hours = store["openingHoursSpecification"].as_array().unwrap();
        assert!(
            hours
                .iter()
                .any(|h| h["dayOfWeek"] == json!(["https://schema.org/Thursday"])
                    && h["closes"] == "20:00")
        );
        // The page is in the market's sitemap.
        let sitemap =
            std::fs::read_to_string(site.public().join(format!("sitemap-{}-1.xml", market.code)))
                .unwrap();
        assert!(
            sitemap.contains(&format!("<loc>{BASE}{url}</loc>")),
            "{url}: sitemap"
        );
    }
}

#[test]
fn an_export_without_shops_builds_a_shop_finder_that_says_so() {
    let site = copied_sample();
    std::fs::remove_file(site.export.join("catalog/locations.json")).unwrap();
    std::fs::remove_file(site.export.join("gazetteer.json")).unwrap();
    site.build().expect("builds without the optional files");
    for market in MARKETS {
        let html = site.read(&market.path("/shop-finder"));
        assert!(html.contains("We have no shops to show at the moment."));
        assert!(!html.contains("shop-map"));
        assert!(jsonld_stores(&html).is_empty());
    }
}

fn leeds(doc: &mut Value) -> &mut Value {
    doc["data"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|l| l["code"] == "LEEDS-BRIGGATE")
        .unwrap()
}

#[test]
fn each_bad_shop_or_place_is_named_by_file_item_and_field() {
    type Edit = Box<dyn FnOnce(&std::path::Path)>;
    let locations = |edit: fn(&mut Value)| -> Edit {
        Box::new(move |e| edit_json(e, "catalog/locations.json", |d| edit(leeds(d))))
    };
    let places =
        |edit: fn(&mut Value)| -> Edit { Box::new(move |e| edit_json(e, "gazetteer.json", edit)) };
    let cases: Vec<(Edit, &str)> = vec![
        (
            Box::new(|e| std::fs::write(e.join("catalog/locations.json"), "{\"data\": [").unwrap()),
            "catalog/locations.json: file: -: malformed JSON",
        ),
        (
            locations(|l| l["address"]["geo_coordinates"]["latitude"] = json!("north")),
            "catalog/locations.json: location 18: address.geo_coordinates.latitude: invalid type: string \"north\", expected f64",
        ),
        (
            locations(|l| l["address"]["geo_coordinates"] = json!({"latitude": 0, "longitude": 0})),
            "catalog/locations.json: location 18: address.geo_coordinates: is 0, 0",
        ),
        (
            locations(|l| {
                l["operating_hours"]["tuesday"] =
                    json!({"open": true, "opening": "18:00", "closing": "09:00"})
            }),
            "catalog/locations.json: location 18: operating_hours.tuesday.closing: 09:00 is not after the opening time 18:00",
        ),
        (
            locations(|l| {
                l["operating_hours"]
                    .as_object_mut()
                    .unwrap()
                    .remove("sunday");
            }),
            "catalog/locations.json: location 18: operating_hours.sunday: missing",
        ),
        (
            locations(|l| l["services"] = json!(["click_and_collect", "valet_parking"])),
            "catalog/locations.json: location 18: services[1]: unknown service \"valet_parking\"",
        ),
        (
            locations(|l| l["address"]["zip"] = json!("LS1")),
            "catalog/locations.json: location 18: address.zip: \"LS1\" is not a UK postcode",
        ),
        (
            locations(|l| l["code"] = json!("york-stonegate")),
            "catalog/locations.json: location 22: code: \"YORK-STONEGATE\" is also the code of location 18 (codes are compared ignoring case)",
        ),
        (
            places(|d| {
                d["data"].as_array_mut().unwrap().push(json!({"name": "LS1", "kind": "postcode_district", "country_code": "GB", "latitude": 53.8, "longitude": -1.5}))
            }),
            "gazetteer.json: place LS1: name: \"LS1\" is already a name of LS1",
        ),
        (
            places(|d| {
                d["data"].as_array_mut().unwrap().push(json!({"name": "QQ1", "kind": "postcode_district", "country_code": "GB", "latitude": 53.8, "longitude": -1.5}))
            }),
            "gazetteer.json: place QQ1: name: the gazetteer has no postcode area QQ",
        ),
        (
            places(|d| {
                d["data"].as_array_mut().unwrap().push(json!({"name": "Atlantis", "kind": "city", "country_code": "GB", "latitude": 53.8, "longitude": -1.5}))
            }),
            "gazetteer.json: place Atlantis: kind: unknown variant `city`, expected one of `town`, `postcode_area`, `postcode_district`, `eircode_routing_key`",
        ),
        (
            places(|d| {
                d["data"].as_array_mut().unwrap().push(json!({"name": "Atlantis", "kind": "town", "country_code": "GB", "latitude": 95.0, "longitude": -1.5}))
            }),
            "gazetteer.json: place Atlantis: latitude: is 95; it must be from -90 to 90",
        ),
    ];
    for (break_it, expected) in cases {
        let err = build_error(break_it);
        assert!(err.contains(expected), "expected {expected:?} in:\n{err}");
    }
}

fn set_leeds_thursday(export: &std::path::Path, closing: &str) {
    let closing = closing.to_string();
    edit_json(export, "catalog/locations.json", move |d| {
        leeds(d)["operating_hours"]["thursday"]["closing"] = json!(closing);
    });
}

#[test]
fn a_change_to_the_shops_rewrites_only_the_shop_finder_pages() {
    let site = copied_sample();
    site.build().unwrap();
    set_leeds_thursday(&site.export, "21:00");
    let report = site.build().unwrap();
    let mut written = report.written.clone();
    written.sort();
    assert_eq!(written, PAGES, "only the shop finder in each market");
    for market in MARKETS {
        assert!(
            site.read(&market.path("/shop-finder"))
                .contains("<th scope=\"row\">Thursday</th><td>09:00–21:00</td>")
        );
    }
    // A place added to the gazetteer reaches the pages' search too.
    edit_json(&site.export, "gazetteer.json", |d| {
        d["data"].as_array_mut().unwrap().push(json!({"name": "Otley", "kind": "town", "country_code": "GB", "latitude": 53.9054, "longitude": -1.6917}));
    });
    let mut written = site.build().unwrap().written;
    written.sort();
    assert_eq!(written, PAGES);
    assert!(site.read("/shop-finder").contains("\"name\":\"Otley\""));
}

#[test]
fn the_dev_daemon_rebuilds_the_shop_finder_when_the_shops_file_changes() {
    use export::source::LocalExport;
    use live_site::rebuild::{Daemon, Timing};
    let site = copied_sample();
    let daemon = Daemon::start(
        site.options(),
        Box::new(LocalExport::new(site.export.clone())),
        Timing {
            compact_after: Duration::from_secs(600),
            ..Timing::default()
        },
        Box::new(|_| {}),
    )
    .unwrap();
    let served = |rel: &str| -> String {
        let view = daemon.view().read().unwrap().clone();
        std::fs::read_to_string(view.dir_of(rel).expect("served").join(rel)).unwrap()
    };
    assert!(served(PAGES[0]).contains("<th scope=\"row\">Thursday</th><td>09:00–20:00</td>"));
    set_leeds_thursday(&site.export, "21:30");
    daemon.files_changed(vec![site.export.join("catalog/locations.json")]);
    let deadline = Instant::now() + Duration::from_secs(120);
    while daemon.history().is_empty() {
        assert!(Instant::now() < deadline, "no rebuild");
        std::thread::sleep(Duration::from_millis(20));
    }
    let status = &daemon.history()[0];
    assert!(status.ok, "{:?}", status.error);
    assert_eq!(status.written, PAGES.len(), "only the shop finder pages");
    for rel in PAGES {
        assert!(
            served(rel).contains("<th scope=\"row\">Thursday</th><td>09:00–21:30</td>"),
            "{rel}"
        );
    }

    // A broken shop is refused with its item and field, and the last good pages stay served.
    edit_json(&site.export, "catalog/locations.json", |d| {
        leeds(d)["services"] = json!(["teleportation"]);
    });
    daemon.files_changed(vec![site.export.join("catalog/locations.json")]);
    while daemon.history().len() < 2 {
        assert!(Instant::now() < deadline, "no second rebuild");
        std::thread::sleep(Duration::from_millis(20));
    }
    let status = &daemon.history()[0];
    assert!(!status.ok);
    let error = status.error.as_deref().unwrap_or_default();
    assert!(
        error.contains(
            "catalog/locations.json: location 18: services[0]: unknown service \"teleportation\""
        ),
        "{error}"
    );
    assert!(served(PAGES[0]).contains("<td>09:00–21:30</td>"));
}
