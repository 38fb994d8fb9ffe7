//! `GET /api/search` and `GET /api/listing` over real HTTP against an index the generator built
//! from the sample store: the answer shapes, popular searches from shoppers' queries, every bad
//! parameter the issue lists (each a 400 naming it), and a rebuilt index picked up without a
//! restart. Here rather than in `api/tests` because the API does not depend on the generator.

#[path = "../../api/tests/common/mod.rs"]
mod common;

use common::*;
use domain::catalog::Catalog;
use generator::search_index;
use generator::site::SiteModel;
use serde_json::Value;
use std::path::Path;

fn build_index(cache: &Path, catalog: &Catalog) {
    let inputs = export::load_export(Path::new(SAMPLE)).unwrap();
    let catalog = std::sync::Arc::new(catalog.clone());
    search_index::update(
        cache,
        &catalog,
        &inputs.content,
        &SiteModel::new(&catalog),
        &mut Default::default(),
    )
    .unwrap();
}

/// What `browser` finds after `rebuild_with_a_new_price_and_a_product_gone`: the new price for
/// `path`'s product, and no trace of product 101.
async fn assert_rebuilt_index_served(browser: &mut Browser, path: &str) {
    let after = browser.get(path).await.json();
    assert_eq!(after["products"][0]["original_price"], 9.99);
    let gone = browser
        .get(&format!("/api/search?{}", q(&[("query", "274674")])))
        .await
        .json();
    let hits = gone["products"].as_array().unwrap();
    assert!(hits.iter().all(|h| h["id"] != 101));
}

/// A rebuild after product 112's price became 9.99 and product 101 was removed.
fn rebuild_with_a_new_price_and_a_product_gone(cache: &Path, catalog: &mut Catalog) {
    let product = catalog.products.iter_mut().find(|p| p.id == 112).unwrap();
    for way in &mut std::sync::Arc::make_mut(product).colourways {
        way.prices[0].price.minor = 999;
        way.prices[0].sale = None;
    }
    catalog.products.retain(|p| p.id != 101);
    build_index(cache, catalog);
}

fn sample_catalog() -> Catalog {
    std::sync::Arc::unwrap_or_clone(export::load_export(Path::new(SAMPLE)).unwrap().catalog)
}

async fn start(backend: Backend, cache: &Path) -> TestApi {
    let dir = cache.join(search_index::SEARCH_DIR);
    TestApi::start_with(backend, move |c| c.search_dir = dir).await
}

fn q(pairs: &[(&str, &str)]) -> String {
    serde_urlencoded::to_string(pairs).unwrap()
}

async fn search_answers_products_and_suggestions(backend: Backend) {
    let cache = tempfile::tempdir().unwrap();
    build_index(cache.path(), &sample_catalog());
    let api = start(backend, cache.path()).await;
    let mut b = api.browser();

    let r = b
        .get(&format!(
            "/api/search?{}",
            q(&[("market", "us"), ("query", "Satin Slip Midi Dress")])
        ))
        .await;
    assert_eq!(r.status, 200);
    let body = r.json();
    let products = body["products"].as_array().unwrap();
    assert!(!products.is_empty() && products.len() <= 10);
    let first = products[0].as_object().unwrap();
    let mut keys: Vec<&str> = first.keys().map(String::as_str).collect();
    keys.sort();
    assert_eq!(
        keys,
        [
            "colour",
            "id",
            "image_url",
            "name",
            "original_price",
            "sale_price",
            "sku",
            "url",
            "variation_id"
        ]
    );
    assert_eq!(first["name"], "Satin Slip Midi Dress");
    assert!(first["url"].as_str().unwrap().starts_with("/us/p/101/"));
    assert!(first["original_price"].is_number());
    // Curated suggestions from the content export fill in before anyone has searched.
    let suggestions: Vec<&str> = body["suggestions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    assert!(suggestions.len() <= 5);
    assert!(suggestions.contains(&"dresses"), "{suggestions:?}");

    // Shoppers' queries that found products become popular searches, most-run first.
    for _ in 0..3 {
        b.get(&format!("/api/search?{}", q(&[("query", "Black  Dress")])))
            .await;
    }
    b.get(&format!("/api/search?{}", q(&[("query", "blazerzzqq")])))
        .await; // finds nothing
    let r = b
        .get(&format!("/api/search?{}", q(&[("query", "bl")])))
        .await;
    let suggestions = r.json()["suggestions"].clone();
    assert_eq!(suggestions[0], "black dress", "{suggestions}");
    assert!(
        !suggestions
            .as_array()
            .unwrap()
            .iter()
            .any(|s| s == "blazerzzqq")
    );
    // Counts reach the store.
    let written = api
        .state
        .search()
        .popular
        .flush(api.state.db(), api.state.now())
        .await
        .unwrap();
    assert!(written >= 1);
    assert_eq!(
        api.scalar(
            "SELECT runs FROM search_query WHERE query = $1",
            "black dress"
        )
        .await,
        3
    );
    api.finish().await;
}

async fn bad_search_and_listing_parameters_are_400s_naming_them(backend: Backend) {
    let cache = tempfile::tempdir().unwrap();
    build_index(cache.path(), &sample_catalog());
    let api = start(backend, cache.path()).await;
    let mut b = api.browser();
    let long = "x".repeat(10_000);
    let search_cases: Vec<(String, &str)> = vec![
        (q(&[("query", "")]), "query"),
        (q(&[("query", "   ")]), "query"),
        (String::new(), "query"),
        (q(&[("query", &long)]), "query"),
        (q(&[("query", "dress"), ("page", "2")]), "page"),
        (q(&[("query", "dress"), ("query", "coat")]), "query"),
        (q(&[("query", "dress"), ("market", "fr")]), "market"),
    ];
    for (query, field) in search_cases {
        let r = b.get(&format!("/api/search?{query}")).await;
        assert_eq!(
            (r.status, r.error_fields()),
            (400, vec![field.to_string()]),
            "{query}"
        );
        assert_eq!(r.json()["error"]["code"], "validation");
    }

    let listing = |extra: &[(&str, &str)]| {
        let mut pairs = vec![("kind", "category"), ("id", "10")];
        pairs.extend_from_slice(extra);
        format!("/api/listing?{}", q(&pairs))
    };
    let listing_cases: Vec<(String, &str)> = vec![
        (listing(&[("filters[fabric]", "silk")]), "filters[fabric]"),
        (listing(&[("sort", "cheapest")]), "sort"),
        (listing(&[("sort", "relevance")]), "sort"),
        (
            listing(&[("sort", "price"), ("direction", "sideways")]),
            "direction",
        ),
        (listing(&[("page", "0")]), "page"),
        (listing(&[("page", "-1")]), "page"),
        (listing(&[("page", "99")]), "page"),
        (listing(&[("filters[price]", "50")]), "filters[price]"),
        (listing(&[("filters[price]", "80-20")]), "filters[price]"),
        (listing(&[("filters[price]", "a-b")]), "filters[price]"),
        (listing(&[("colour", "Black")]), "colour"),
        (
            format!(
                "/api/listing?{}",
                q(&[("kind", "search"), ("query", &long)])
            ),
            "query",
        ),
        (
            format!("/api/listing?{}", q(&[("kind", "search")])),
            "query",
        ),
        (
            format!(
                "/api/listing?{}",
                q(&[("kind", "search"), ("query", "dress"), ("sort", "featured")])
            ),
            "sort",
        ),
        (
            format!("/api/listing?{}", q(&[("kind", "aisle"), ("id", "10")])),
            "kind",
        ),
        (format!("/api/listing?{}", q(&[("kind", "category")])), "id"),
        (
            format!("/api/listing?{}", q(&[("kind", "category"), ("id", "ten")])),
            "id",
        ),
    ];
    for (path, field) in listing_cases {
        let r = b.get(&path).await;
        assert_eq!(
            (r.status, r.error_fields()),
            (400, vec![field.to_string()]),
            "{path}"
        );
    }
    let r = b.get(&listing(&[("page", "99")])).await;
    assert!(
        r.error_message().contains("at most 1"),
        "{}",
        r.error_message()
    );
    let r = b.get("/api/listing?kind=category&id=999999").await;
    assert_eq!(r.status, 404);
    api.finish().await;
}

async fn listing_filters_sorts_and_counts(backend: Backend) {
    let cache = tempfile::tempdir().unwrap();
    let catalog = sample_catalog();
    build_index(cache.path(), &catalog);
    let api = start(backend, cache.path()).await;
    let mut b = api.browser();

    // Unfiltered: the static page's first page and facets.
    let site = SiteModel::new(&catalog);
    let ci = catalog.categories.iter().position(|c| c.id == 10).unwrap();
    let r = b.get("/api/listing?market=uk&kind=category&id=10").await;
    assert_eq!(r.status, 200);
    let body = r.json();
    let ids: Vec<u64> = body["products"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_u64().unwrap())
        .collect();
    let want: Vec<u64> = site.category_products[ci]
        .iter()
        .take(48)
        .map(|&pi| catalog.products[pi].id)
        .collect();
    assert_eq!(ids, want);
    assert_eq!(
        body["facets"],
        generator::view::facets::facets(&catalog, &site.category_products[ci])
    );
    assert_eq!(body["sort"], "featured");

    // Size 10 and Black, cheapest first.
    let path = format!(
        "/api/listing?{}",
        q(&[
            ("kind", "category"),
            ("id", "10"),
            ("filters[Size]", "10"),
            ("filters[Color]", "Black"),
            ("sort", "price-asc")
        ])
    );
    let body = b.get(&path).await.json();
    let cards = body["products"].as_array().unwrap();
    assert!(!cards.is_empty());
    for c in cards {
        let p = catalog.product(c["id"].as_u64().unwrap()).unwrap();
        assert!(
            p.colourways.iter().any(|w| w.label == "Black"),
            "{}",
            p.name
        );
        let sizes = &p.option(domain::catalog::OptionKind::Size).unwrap().values;
        assert!(sizes.iter().any(|v| v.label == "10"), "{}", p.name);
    }
    let current: Vec<String> = cards
        .iter()
        .map(|c| {
            c["sale_price"]
                .as_str()
                .or(c["price"].as_str())
                .unwrap()
                .to_string()
        })
        .collect();
    let numeric: Vec<f64> = current
        .iter()
        .map(|s| s.trim_start_matches('£').replace(',', "").parse().unwrap())
        .collect();
    assert!(numeric.windows(2).all(|w| w[0] <= w[1]), "{numeric:?}");
    // Disjunctive counts: the Black count ignores the colour filter but applies the size filter.
    let black = body["facets"]["colours"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["label"] == "Black")
        .unwrap();
    let size_only = b
        .get(&format!(
            "/api/listing?{}",
            q(&[("kind", "category"), ("id", "10"), ("filters[Size]", "10")])
        ))
        .await
        .json();
    let black_products = size_only["products"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| {
            c["swatches"]
                .as_array()
                .unwrap()
                .iter()
                .any(|s| s["label"] == "Black")
        })
        .count();
    assert_eq!(black["count"].as_u64().unwrap() as usize, black_products);
    assert_eq!(body["total"].as_u64().unwrap() as usize, black_products);

    // Search results page: relevance order, same cards.
    let body = b
        .get(&format!(
            "/api/listing?{}",
            q(&[("kind", "search"), ("query", "midi dress")])
        ))
        .await
        .json();
    assert_eq!(body["sort"], "relevance");
    assert!(body["total"].as_u64().unwrap() >= 3);
    api.finish().await;
}

async fn a_rebuilt_index_is_served_without_a_restart(backend: Backend) {
    let cache = tempfile::tempdir().unwrap();
    let mut catalog = sample_catalog();
    build_index(cache.path(), &catalog);
    let api = start(backend, cache.path()).await;
    let mut b = api.browser();
    let path = format!("/api/search?{}", q(&[("query", "Ribbed Vest Top")]));
    let before: Value = b.get(&path).await.json()["products"][0].clone();
    assert_eq!(before["name"], "Ribbed Vest Top");

    rebuild_with_a_new_price_and_a_product_gone(cache.path(), &mut catalog);
    assert_rebuilt_index_served(&mut b, &path).await;
    api.finish().await;
}

/// Another API host, with a search directory of its own, gets the leader's index through the
/// store: nothing to search until the first publish, then the same answers; after a rebuild only
/// the files whose contents are new are stored, and the other host serves the rebuilt index.
async fn the_index_reaches_another_host_through_the_store(backend: Backend) {
    use api::search::distribution::{follow, publish};
    let (cache, elsewhere) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let mut catalog = sample_catalog();
    build_index(cache.path(), &catalog);
    let api = start(backend, cache.path()).await;
    let other_dir = elsewhere.path().join(search_index::SEARCH_DIR);
    let (other, other_addr) = api
        .another_host_served_with(|c| c.search_dir = other_dir.clone())
        .await;
    let (mut on_a, mut on_b) = (api.browser(), api.browser());
    on_b.addr = other_addr;
    let path = format!("/api/search?{}", q(&[("query", "Ribbed Vest Top")]));
    assert_eq!(on_b.get(&path).await.status, 503, "no index there yet");
    assert_eq!(follow(other.db(), &other_dir).await.unwrap(), 0);

    let leader_dir = cache.path().join(search_index::SEARCH_DIR);
    let now = api.state.now();
    assert_eq!(publish(api.state.db(), &leader_dir, now).await.unwrap(), 3);
    assert_eq!(publish(api.state.db(), &leader_dir, now).await.unwrap(), 0);
    assert_eq!(follow(other.db(), &other_dir).await.unwrap(), 3);
    let (a, b) = (on_a.get(&path).await, on_b.get(&path).await);
    assert_eq!(b.status, 200);
    assert_eq!(a.json()["products"], b.json()["products"]);

    // A rebuild: one price changed, one product gone.
    let blobs = |api: &TestApi| {
        let pool = api.state.db().pool().clone();
        async move {
            sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM search_blob")
                .fetch_one(&pool)
                .await
                .unwrap()
        }
    };
    let stored_before = blobs(&api).await;
    rebuild_with_a_new_price_and_a_product_gone(cache.path(), &mut catalog);
    assert_eq!(publish(api.state.db(), &leader_dir, now).await.unwrap(), 3);
    let files: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM search_generation_file f JOIN search_live l \
         ON l.market = f.market AND l.generation = f.generation",
    )
    .fetch_one(api.state.db().pool())
    .await
    .unwrap();
    let stored_after = blobs(&api).await;
    assert!(
        stored_after - stored_before < files / 2,
        "a rebuild stores its new files only: {stored_before} → {stored_after} of {files}"
    );
    assert_eq!(follow(other.db(), &other_dir).await.unwrap(), 3);
    assert_rebuilt_index_served(&mut on_b, &path).await;
    assert_eq!(follow(other.db(), &other_dir).await.unwrap(), 0);
    api.finish().await;
}

async fn without_an_index_search_is_unavailable_not_a_crash(backend: Backend) {
    let cache = tempfile::tempdir().unwrap();
    let api = start(backend, cache.path()).await;
    let r = api.browser().get("/api/search?query=dress").await;
    // Like every 5xx: opaque, with a request id, the cause logged once.
    assert_eq!(
        (r.status, r.json()["error"]["code"].clone()),
        (503, Value::from("internal"))
    );
    assert!(r.json()["error"]["request_id"].is_string());
    api.finish().await;
}

on_both!(
    search_answers_products_and_suggestions,
    bad_search_and_listing_parameters_are_400s_naming_them,
    listing_filters_sorts_and_counts,
    a_rebuilt_index_is_served_without_a_restart,
    the_index_reaches_another_host_through_the_store,
    without_an_index_search_is_unavailable_not_a_crash,
);
