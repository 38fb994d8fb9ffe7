//! `storefront import` against a local fake of both sources (fake_source): the mapping back to
//! the sample export, paging, 429 with Retry-After, 500 then success, timeouts, truncated JSON,
//! conditional requests (304), invalid data, the shop finder's shops (the Locations API and the
//! services metafield) and gazetteer (bundled, or a file named in the environment), and the
//! per-item fetches.

mod fake_source;

use domain::export::{RawInventoryItem, RawLocation, RawPriceRecord, RawProduct};
use fake_source::{FakeSource, Fault};
use importer::{ImportConfig, ImportError, ImportOptions, ImportSummary};
use serde_json::Value;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::time::Duration;

fn config(env: &HashMap<String, String>) -> ImportConfig {
    ImportConfig::from_lookup(|k| env.get(k).cloned()).unwrap()
}

async fn run(env: &HashMap<String, String>, cache: &Path) -> Result<ImportSummary, ImportError> {
    importer::import(
        &config(env),
        &ImportOptions {
            cache_dir: cache.to_path_buf(),
            progress: false,
        },
    )
    .await
}

fn sample(file: &str) -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fixtures/sample")
        .join(file);
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

fn imported(cache: &Path, file: &str) -> Value {
    serde_json::from_slice(&std::fs::read(cache.join("export").join(file)).unwrap()).unwrap()
}

/// Every file under the live export and its bytes, to prove a failed import changed nothing.
fn snapshot(cache: &Path) -> (PathBuf, BTreeMap<PathBuf, Vec<u8>>) {
    let link = std::fs::read_link(cache.join("export")).unwrap();
    let root = cache.join(&link).parent().unwrap().to_path_buf();
    let files = walk(&root)
        .into_iter()
        .map(|p| {
            (
                p.strip_prefix(&root).unwrap().to_path_buf(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();
    (link, files)
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

fn imports_dirs(cache: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(cache.join("imports"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A list file read through the export types, so that an omitted optional field and an
/// explicit null compare equal.
fn as_export<T: serde::de::DeserializeOwned + serde::Serialize>(file: &Value) -> Value {
    let items: Vec<T> = serde_json::from_value(file["data"].clone()).unwrap();
    serde_json::to_value(items).unwrap()
}

fn by_id(list: &Value, key: &str) -> BTreeMap<String, Value> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|item| (item.pointer(key).unwrap().to_string(), item.clone()))
        .collect()
}

/// How many content items of the sample (every market) have a schema ending with `kind` ("/" for
/// all): counted from the sample itself, so adding a content page to it needs no edit here.
fn sample_items(kind: &str) -> usize {
    ["uk", "us", "eu"]
        .iter()
        .flat_map(|m| {
            sample(&format!("content/{m}.json"))["responses"]
                .as_array()
                .unwrap()
                .clone()
        })
        .filter(|r| {
            r["content"]["_meta"]["schema"]
                .as_str()
                .is_some_and(|s| s.ends_with(kind) || kind == "/")
        })
        .count()
}

#[tokio::test]
async fn an_import_maps_both_sources_back_to_the_sample_export_across_pages() {
    let fake = FakeSource::start().await;
    let cache = tempfile::tempdir().unwrap();
    let summary = run(&fake.env(), cache.path()).await.unwrap();

    // The catalog is the sample's, field for field (0 sale prices and the badge custom field
    // mapped back), and the collection categories became collections in merchandised order.
    let products = imported(cache.path(), "catalog/products.json");
    assert_eq!(
        by_id(&as_export::<RawProduct>(&products), "/id"),
        by_id(
            &as_export::<RawProduct>(&sample("catalog/products.json")),
            "/id"
        )
    );
    assert_eq!(
        imported(cache.path(), "catalog/collections.json"),
        sample("catalog/collections.json")
    );
    let categories = imported(cache.path(), "catalog/categories.json");
    let mut expected_categories = sample("catalog/categories.json");
    for c in expected_categories["data"].as_array_mut().unwrap() {
        c.as_object_mut().unwrap().remove("path");
    }
    let strip = |mut v: Value| {
        for c in v["data"].as_array_mut().unwrap() {
            let o = c.as_object_mut().unwrap();
            o.retain(|k, _| ["id", "parent_id", "name", "url"].contains(&k.as_str()));
        }
        by_id(&v["data"], "/id")
    };
    assert_eq!(strip(categories), strip(expected_categories));
    // Every price record once (the customer-group price list is left out), every inventory item.
    let sorted = |mut v: Value| {
        v.as_array_mut().unwrap().sort_by_key(|r| r.to_string());
        v
    };
    assert_eq!(
        sorted(as_export::<RawPriceRecord>(&imported(
            cache.path(),
            "catalog/price-lists.json"
        ))),
        sorted(as_export::<RawPriceRecord>(&sample(
            "catalog/price-lists.json"
        )))
    );
    let mut expected_inventory = as_export::<RawInventoryItem>(&sample("catalog/inventory.json"));
    for item in expected_inventory.as_array_mut().unwrap() {
        if item["allLocationsTotalAvailableToSell"].is_null() {
            let total: i64 = item["locations"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|l| l["location_enabled"] == true)
                .map(|l| l["available_to_sell"].as_i64().unwrap())
                .sum();
            item["allLocationsTotalAvailableToSell"] = total.into();
        }
    }
    assert_eq!(
        as_export::<RawInventoryItem>(&imported(cache.path(), "catalog/inventory.json")),
        expected_inventory
    );
    let channels = imported(cache.path(), "catalog/channels.json");
    assert_eq!(
        channels,
        sample("catalog/channels.json"),
        "the POS channel has no currencies"
    );
    assert_eq!(
        imported(cache.path(), "store.json"),
        sample("store.json"),
        "store.json comes from the store profile"
    );
    for market in ["uk", "us", "eu"] {
        let file = format!("content/{market}.json");
        assert_eq!(
            by_id(
                &imported(cache.path(), &file)["responses"],
                "/content/_meta/deliveryId"
            ),
            by_id(&sample(&file)["responses"], "/content/_meta/deliveryId"),
            "{market}"
        );
    }
    assert_eq!(summary.products, 72);
    assert_eq!(summary.content_items, sample_items("/"));

    // Paging: 72 products at 10 a page; the content pages at 5 a filter page, then the listing
    // headers.
    let log = fake.log();
    let mut product_pages: Vec<u32> = log
        .iter()
        .filter(|l| l.target.contains("/v3/catalog/products?"))
        .map(|l| l.target.rsplit("page=").next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(
        product_pages[0], 1,
        "the first page tells how many there are"
    );
    product_pages.sort();
    assert_eq!(product_pages, [1, 2, 3, 4, 5, 6, 7, 8]);
    let filters = log
        .iter()
        .filter(|l| l.target == "/cdn/content/filter")
        .count();
    assert_eq!(
        filters,
        sample_items("/content-page").div_ceil(5) + sample_items("/listing-header").div_ceil(5)
    );

    // Published atomically: export is a symlink to the one generation, with no staging left.
    let link = std::fs::read_link(cache.path().join("export")).unwrap();
    assert!(link.starts_with("imports"), "{link:?}");
    assert_eq!(imports_dirs(cache.path()).len(), 1);
    assert!(
        summary.to_string().starts_with("imported 72 products ("),
        "{summary}"
    );
}

#[tokio::test]
async fn a_429_waits_for_retry_after_and_a_500_is_retried() {
    let fake = FakeSource::start().await;
    fake.fail(
        "/stores/abc123/v3/catalog/products",
        &[Fault::TooManyRequests {
            retry_after_secs: 1,
        }],
    );
    fake.fail(
        "/stores/abc123/v3/inventory/items",
        &[Fault::ServerError, Fault::ServerError],
    );
    fake.fail("/cdn/content/filter", &[Fault::ServerError]);
    let cache = tempfile::tempdir().unwrap();
    let summary = run(&fake.env(), cache.path()).await.unwrap();
    assert_eq!(summary.retries, 4);

    let log = fake.log();
    let products: Vec<_> = log
        .iter()
        .filter(|l| l.target.contains("/v3/catalog/products?"))
        .collect();
    assert_eq!(products[0].status, 429);
    assert_eq!(products[1].status, 200);
    assert_eq!(products[0].target, products[1].target);
    let waited = products[1].at - products[0].at;
    assert!(waited >= Duration::from_secs(1), "retried after {waited:?}");
    let inventory: Vec<u16> = log
        .iter()
        .filter(|l| l.target.contains("/v3/inventory/items?"))
        .map(|l| l.status)
        .collect();
    assert_eq!(&inventory[..3], [500, 500, 200]);
    assert!(cache.path().join("export/catalog/inventory.json").is_file());
}

#[tokio::test]
async fn a_slow_answer_times_out_and_is_retried_and_a_dead_source_fails_clearly() {
    let fake = FakeSource::start().await;
    let mut env = fake.env();
    env.insert("IMPORT_TIMEOUT_MS".into(), "300".into());
    fake.fail(
        "/stores/abc123/v2/store",
        &[Fault::Slow(Duration::from_secs(2))],
    );
    let cache = tempfile::tempdir().unwrap();
    let summary = run(&env, cache.path()).await.unwrap();
    assert_eq!(summary.retries, 1);
    let before = snapshot(cache.path());

    env.insert("IMPORT_MAX_ATTEMPTS".into(), "2".into());
    fake.fail(
        "/stores/abc123/v2/store",
        &[
            Fault::Slow(Duration::from_secs(2)),
            Fault::Slow(Duration::from_secs(2)),
        ],
    );
    let err = run(&env, cache.path()).await.unwrap_err().to_string();
    assert_eq!(
        err,
        format!(
            "GET {}/stores/abc123/v2/store: timed out after 300 ms (gave up after 2 attempts)",
            fake.base
        )
    );
    assert_eq!(
        snapshot(cache.path()),
        before,
        "the failed import changed the cache"
    );
}

#[tokio::test]
async fn truncated_json_names_the_url_and_leaves_the_cache_untouched() {
    let fake = FakeSource::start().await;
    let cache = tempfile::tempdir().unwrap();
    run(&fake.env(), cache.path()).await.unwrap();
    let before = snapshot(cache.path());

    fake.edit(|data| data.inventory[0]["locations"][0]["available_to_sell"] = 99.into());
    fake.fail("/stores/abc123/v3/inventory/items", &[Fault::Truncated]);
    let err = run(&fake.env(), cache.path())
        .await
        .unwrap_err()
        .to_string();
    let url = format!(
        "GET {}/stores/abc123/v3/inventory/items?limit=10&page=1: malformed JSON",
        fake.base
    );
    assert!(err.starts_with(&url), "{err}");
    assert!(err.contains("EOF while parsing"), "{err}");
    assert_eq!(snapshot(cache.path()), before);
    assert_eq!(
        imports_dirs(cache.path()).len(),
        1,
        "the staging directory is removed"
    );
}

#[tokio::test]
async fn data_the_generator_rejects_is_not_published() {
    let fake = FakeSource::start().await;
    let cache = tempfile::tempdir().unwrap();
    run(&fake.env(), cache.path()).await.unwrap();
    let before = snapshot(cache.path());

    fake.edit(|data| {
        let product = data.products.iter_mut().find(|p| p["id"] == 112).unwrap();
        product["variants"][0]["option_values"][0]["id"] = 999.into();
    });
    let err = run(&fake.env(), cache.path())
        .await
        .unwrap_err()
        .to_string();
    assert!(
        err.starts_with("the imported export is invalid; the previous cache is kept:"),
        "{err}"
    );
    assert!(
        err.contains("catalog/products.json: product 112: variants[0].option_values[0].id"),
        "{err}"
    );
    assert_eq!(snapshot(cache.path()), before);
}

#[tokio::test]
async fn unchanged_data_is_not_downloaded_again() {
    let fake = FakeSource::start().await;
    let cache = tempfile::tempdir().unwrap();
    let first = run(&fake.env(), cache.path()).await.unwrap();
    let first_products = imported(cache.path(), "catalog/products.json");

    fake.clear_log();
    let second = run(&fake.env(), cache.path()).await.unwrap();
    let gets: Vec<_> = fake
        .log()
        .into_iter()
        .filter(|l| l.method == "GET")
        .collect();
    assert!(!gets.is_empty());
    assert!(
        gets.iter().all(|l| l.conditional && l.status == 304),
        "{gets:#?}"
    );
    assert_eq!(second.not_modified as usize, gets.len());
    // Only the content filter (a POST, never conditional) is downloaded again.
    let posted = fake.log().iter().filter(|l| l.method == "POST").count();
    assert_eq!(
        posted,
        sample_items("/content-page").div_ceil(5) + sample_items("/listing-header").div_ceil(5)
    );
    assert!(
        second.bytes < first.bytes / 5,
        "{} vs {}",
        second.bytes,
        first.bytes
    );
    assert_eq!(
        imported(cache.path(), "catalog/products.json"),
        first_products
    );

    // One product changes: only its page is downloaded again, and the change is imported.
    fake.edit(|data| {
        let product = data.products.iter_mut().find(|p| p["id"] == 112).unwrap();
        product["name"] = "Tiered Midi Dress II".into();
    });
    fake.clear_log();
    run(&fake.env(), cache.path()).await.unwrap();
    let downloaded: Vec<String> = fake
        .log()
        .into_iter()
        .filter(|l| l.method == "GET" && l.status == 200)
        .map(|l| l.target)
        .collect();
    assert_eq!(downloaded.len(), 1, "{downloaded:?}");
    assert!(downloaded[0].contains("/v3/catalog/products?"));
    let products = imported(cache.path(), "catalog/products.json");
    let renamed = products["data"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == 112)
        .unwrap();
    assert_eq!(renamed["name"], "Tiered Midi Dress II");
    assert_eq!(
        imports_dirs(cache.path()).len(),
        1,
        "older generations are pruned"
    );
}

#[tokio::test]
async fn bad_credentials_fail_without_retrying() {
    let fake = FakeSource::start().await;
    let mut env = fake.env();
    env.insert("BIGCOMMERCE_ACCESS_TOKEN".into(), "wrong".into());
    let cache = tempfile::tempdir().unwrap();
    let err = run(&env, cache.path()).await.unwrap_err().to_string();
    assert!(err.contains("/stores/abc123/v2/store: HTTP 401 Unauthorized (check the credentials in the environment)"), "{err}");
    assert!(!cache.path().join("export").exists());
    assert_eq!(fake.log().iter().filter(|l| l.status == 401).count(), 1);
}

#[tokio::test]
async fn per_item_fetches_return_the_mapped_export_types() {
    let fake = FakeSource::start().await;
    let cfg = config(&fake.env());
    let catalog = importer::CatalogClient::new(&cfg).unwrap();
    let products = importer::fetch_products(&catalog, &[112, 101, 424242])
        .await
        .unwrap();
    let mut ids: Vec<u64> = products.iter().map(|p| p.id).collect();
    ids.sort();
    assert_eq!(ids, [101, 112]);
    let p101 = products.iter().find(|p| p.id == 101).unwrap();
    assert_eq!(p101.sale_price, Some(41.0));
    let p112 = products.iter().find(|p| p.id == 112).unwrap();
    assert_eq!(
        p112.sale_price, None,
        "the platform's 0 means no sale price"
    );
    let variant = p112.variants[0].id;
    let stock = importer::fetch_inventory(&catalog, &[variant])
        .await
        .unwrap();
    assert_eq!(stock.len(), 1);
    assert_eq!(stock[0].identity.variant_id, variant);
    let prices = importer::fetch_prices(&catalog, &[variant]).await.unwrap();
    let mut currencies: Vec<&str> = prices.iter().map(|p| p.currency.as_str()).collect();
    currencies.sort();
    assert_eq!(currencies, ["EUR", "USD"]);

    let content = importer::ContentClient::new(&cfg).unwrap();
    let uk = sample("content/uk.json");
    let id = uk["responses"][8]["content"]["_meta"]["deliveryId"]
        .as_str()
        .unwrap()
        .to_string();
    let items = importer::fetch_content_by_delivery_ids(&content, &[id.clone(), "gone".into()])
        .await
        .unwrap();
    assert_eq!(items, [uk["responses"][8]["content"].clone()]);
    let footer = importer::fetch_content_by_keys(&content, &["uk/footer".into()])
        .await
        .unwrap();
    assert_eq!(footer[0]["_meta"]["deliveryKey"], "uk/footer");
}

#[tokio::test]
async fn the_shops_come_from_the_locations_api_with_their_services_metafield() {
    let fake = FakeSource::start().await;
    fake.fail(
        "/stores/abc123/v3/inventory/locations",
        &[Fault::ServerError],
    );
    let cache = tempfile::tempdir().unwrap();
    let summary = run(&fake.env(), cache.path()).await.unwrap();

    // The sample's locations field for field: the metafield's JSON array back in `services`, the
    // platform's "" for no phone or email back to null, the API's extra fields left out.
    let file = "catalog/locations.json";
    assert_eq!(
        by_id(
            &as_export::<RawLocation>(&imported(cache.path(), file)),
            "/id"
        ),
        by_id(&as_export::<RawLocation>(&sample(file)), "/id")
    );
    // The gazetteer is the bundled reference data, the sample's byte for byte.
    let export = cache.path().join("export");
    assert_eq!(
        std::fs::read(export.join("gazetteer.json")).unwrap(),
        std::fs::read(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/sample/gazetteer.json")
        )
        .unwrap()
    );
    // The generator's loader accepts both: twelve shops (not the two warehouses) and the places.
    let finder = export::read::read_shops(&export).unwrap();
    assert_eq!(finder.shops.len(), 12);
    assert_eq!(summary.shops, 12);
    let leeds = finder
        .shops
        .iter()
        .find(|s| s.name == "Leeds Briggate")
        .unwrap();
    assert_eq!(
        leeds.services.iter().map(|s| s.label).collect::<Vec<_>>(),
        ["Click & collect", "In-store returns", "Alterations"]
    );
    assert_eq!(leeds.postcode, "LS1 6BG");
    assert!(finder.places.len() > 400, "{}", finder.places.len());
    assert!(summary.to_string().contains(", 12 shops, "), "{summary}");

    // Paged like every list (14 locations at 10 a page, the 500 retried), and the services asked
    // for by namespace and key.
    let log = fake.log();
    let targets = |prefix: &str| -> Vec<(String, u16)> {
        log.iter()
            .filter(|l| l.target.starts_with(prefix))
            .map(|l| (l.target.clone(), l.status))
            .collect()
    };
    assert_eq!(
        targets("/stores/abc123/v3/inventory/locations?"),
        [
            (
                "/stores/abc123/v3/inventory/locations?limit=10&page=1".into(),
                500
            ),
            (
                "/stores/abc123/v3/inventory/locations?limit=10&page=1".into(),
                200
            ),
            (
                "/stores/abc123/v3/inventory/locations?limit=10&page=2".into(),
                200
            ),
        ]
    );
    let metafields = targets("/stores/abc123/v3/inventory/locations/metafields?");
    assert_eq!(metafields.len(), 2, "{metafields:?}");
    assert!(
        metafields[0].0.starts_with(
            "/stores/abc123/v3/inventory/locations/metafields?namespace=storefront&key=services&"
        ),
        "{metafields:?}"
    );
}

#[tokio::test]
async fn a_bad_location_or_services_metafield_is_named_and_nothing_is_published() {
    let fake = FakeSource::start().await;
    let cache = tempfile::tempdir().unwrap();
    run(&fake.env(), cache.path()).await.unwrap();
    let before = snapshot(cache.path());
    let original = fake_data_snapshot(&fake);

    fn metafield(data: &mut fake_source::Data) -> &mut Value {
        data.location_metafields
            .iter_mut()
            .find(|m| m["resource_id"] == 18 && m["key"] == "services")
            .unwrap()
    }
    fn location(data: &mut fake_source::Data) -> &mut Value {
        data.locations.iter_mut().find(|l| l["id"] == 18).unwrap()
    }
    /// A change to the source's locations or metafields, and the error it must cause.
    type Case = (fn(&mut fake_source::Data), String);
    let cases: Vec<Case> = vec![
        (
            (|d| metafield(d)["value"] = "click_and_collect, returns".into()),
            format!(
                "GET {}/stores/abc123/v3/inventory/locations/metafields?namespace=storefront&key=services&limit=10&page=1: \
                 location 18: metafield storefront.services: \"click_and_collect, returns\" is not a JSON array of service codes",
                fake.base
            ),
        ),
        (
            (|d| {
                location(d)["address"]["geo_coordinates"]["latitude"] = "north".into()
            }),
            format!(
                "GET {}/stores/abc123/v3/inventory/locations?limit=10&page=1: location 18: \
                 address.geo_coordinates.latitude: invalid type: string \"north\", expected f64",
                fake.base
            ),
        ),
        (
            (|d| {
                let tuesday = &mut location(d)["operating_hours"]["tuesday"];
                tuesday["opening"] = "18:00".into();
                tuesday["closing"] = "09:00".into();
            }),
            "the imported export is invalid; the previous cache is kept:\n1 problem(s) in the export:\n  \
             catalog/locations.json: location 18: operating_hours.tuesday.closing: 09:00 is not after the opening time 18:00"
                .into(),
        ),
        (
            (|d| metafield(d)["value"] = r#"["returns","valet_parking"]"#.into()),
            "the imported export is invalid; the previous cache is kept:\n1 problem(s) in the export:\n  \
             catalog/locations.json: location 18: services[1]: unknown service \"valet_parking\""
                .into(),
        ),
    ];
    for (break_it, expected) in cases {
        fake.edit(|data| {
            data.locations = original.0.clone();
            data.location_metafields = original.1.clone();
            break_it(data);
        });
        let err = run(&fake.env(), cache.path())
            .await
            .unwrap_err()
            .to_string();
        assert!(err.starts_with(&expected), "{err}\nexpected: {expected}");
        assert_eq!(snapshot(cache.path()), before, "{expected}");
        assert_eq!(imports_dirs(cache.path()).len(), 1, "{expected}");
    }
}

/// The fake's locations and metafields, to put back between cases.
fn fake_data_snapshot(fake: &FakeSource) -> (Vec<Value>, Vec<Value>) {
    let mut out = (Vec::new(), Vec::new());
    fake.edit(|data| out = (data.locations.clone(), data.location_metafields.clone()));
    out
}

#[tokio::test]
async fn the_gazetteer_can_be_replaced_and_a_bad_one_fails_before_any_request() {
    let fake = FakeSource::start().await;
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("content-cache");
    let own = dir.path().join("places.json");
    let places = r#"{"data": [{"name": "Leeds", "kind": "town", "country_code": "GB", "latitude": 53.8008, "longitude": -1.5491}]}"#;
    std::fs::write(&own, places).unwrap();
    let mut env = fake.env();
    env.insert("STOREFRONT_GAZETTEER".into(), own.display().to_string());
    run(&env, &cache).await.unwrap();
    assert_eq!(
        std::fs::read_to_string(cache.join("export/gazetteer.json")).unwrap(),
        places
    );
    let before = snapshot(&cache);

    std::fs::write(
        &own,
        r#"{"data": [{"name": "LS1", "kind": "postcode_district", "country_code": "GB", "latitude": 53.79, "longitude": -1.54}]}"#,
    )
    .unwrap();
    fake.clear_log();
    let err = run(&env, &cache).await.unwrap_err().to_string();
    assert!(
        err.starts_with(&format!(
            "configuration: STOREFRONT_GAZETTEER: 1 problem(s) in the export:\n  {}: place LS1: name: the gazetteer has no postcode area LS",
            own.display()
        )),
        "{err}"
    );
    let missing = dir.path().join("nowhere.json");
    env.insert("STOREFRONT_GAZETTEER".into(), missing.display().to_string());
    let err = run(&env, &cache).await.unwrap_err().to_string();
    assert!(
        err.starts_with(&format!(
            "configuration: STOREFRONT_GAZETTEER: {}: No such file",
            missing.display()
        )),
        "{err}"
    );
    assert!(fake.log().is_empty(), "no request was made");
    assert_eq!(snapshot(&cache), before);
}

#[tokio::test]
async fn a_platform_without_locations_imports_a_shop_finder_without_shops() {
    let fake = FakeSource::start().await;
    fake.edit(|data| data.locations.clear());
    let cache = tempfile::tempdir().unwrap();
    let summary = run(&fake.env(), cache.path()).await.unwrap();
    assert_eq!(summary.shops, 0);
    assert_eq!(
        imported(cache.path(), "catalog/locations.json"),
        serde_json::json!({ "data": [] })
    );
    assert!(
        !fake
            .log()
            .iter()
            .any(|l| l.target.contains("/locations/metafields")),
        "no services are asked for when there is no location"
    );
    let finder = export::read::read_shops(&cache.path().join("export")).unwrap();
    assert!(finder.shops.is_empty());
}
