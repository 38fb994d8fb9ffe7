//! The sample store built into a temp dir: every route pattern exists in each market, with the
//! market's currency, path prefix, canonical URL and hreflang alternates.

mod common;

use common::*;
use domain::market::MARKETS;

const BASE: &str = "https://www.maisonlark.example";

/// One concrete URL per route pattern (without market prefix).
fn route_examples(site: &Site) -> Vec<String> {
    let uk_home = site.read("/");
    let first = |needle: &str| -> String {
        let i = uk_home
            .find(needle)
            .unwrap_or_else(|| panic!("home links to a {needle} page"));
        let end = uk_home[i..].find('"').unwrap() + i;
        uk_home[i..end].to_string()
    };
    let category = first("/browse/womens/");
    let listing = site.read(&category);
    let product_start = listing
        .find("href=\"/p/")
        .expect("a listing links to a product")
        + 6;
    let product = listing
        [product_start..product_start + listing[product_start..].find('"').unwrap()]
        .to_string();
    let mut routes = vec![
        "/".to_string(),
        "/browse/womens".into(),
        category,
        "/browse/collection/501".into(),
        product,
        "/about-us".into(),
        "/help/faqs".into(),
    ];
    for shell in [
        "/bag",
        "/login",
        "/create-account",
        "/forgot-password",
        "/updatePassword",
        "/ChangePassword",
        "/checkout-identity",
        "/checkout/delivery",
        "/checkout/billing",
        "/checkout/payment",
        "/checkout/return",
        "/cookies",
        "/shop-finder",
        "/size-guide",
        "/search",
        "/my-account",
        "/MyAccount/MyProfile",
        "/MyAccount/OrderHistory",
        "/MyAccount/SavedAddresses",
        "/order-confirmation",
    ] {
        routes.push(shell.to_string());
    }
    routes
}

#[test]
fn every_route_exists_in_every_market_with_its_currency_canonical_and_hreflang() {
    let site = built_sample();
    let routes = route_examples(&site);
    assert!(
        routes.iter().any(|r| r.starts_with("/p/")),
        "a product route is covered"
    );
    for market in MARKETS {
        for route in &routes {
            let url = market.path(route);
            let html = site.read(&url);
            assert!(
                html.contains(&format!("lang=\"{}\"", market.html_lang)),
                "{url}: lang"
            );
            let indexable = ![
                "/bag",
                "/login",
                "/create-account",
                "/forgot-password",
                "/updatePassword",
                "/ChangePassword",
                "/checkout",
                "/search",
                "/my-account",
                "/MyAccount",
                "/order-confirmation",
            ]
            .iter()
            .any(|p| route.starts_with(p));
            if indexable {
                assert_eq!(
                    attr_after(&html, "rel=\"canonical\"", "href"),
                    Some(format!("{BASE}{url}").as_str()),
                    "{url}: canonical"
                );
                for (lang, mi) in domain::market::HREFLANGS {
                    let expected = format!(
                        "hreflang=\"{lang}\" href=\"{BASE}{}\"",
                        MARKETS[mi].path(route)
                    );
                    let alt = format!(
                        "href=\"{BASE}{}\" hreflang=\"{lang}\"",
                        MARKETS[mi].path(route)
                    );
                    assert!(
                        html.contains(&expected) || html.contains(&alt),
                        "{url}: hreflang {lang}"
                    );
                }
            } else {
                assert!(
                    html.contains("noindex"),
                    "{url}: client-side screens are noindex"
                );
            }
        }
        // Prices on listings and product pages are in the market's currency only.
        for route in routes
            .iter()
            .filter(|r| r.starts_with("/p/") || r.starts_with("/browse/"))
        {
            let html = site.read(&market.path(route));
            let symbol = market.currency.symbol();
            assert!(
                html.contains(symbol),
                "{route} in {}: shows {symbol}",
                market.code
            );
            for other in MARKETS.iter().filter(|m| m.code != market.code) {
                let foreign = format!(">{}", other.currency.symbol());
                assert!(
                    !html.contains(&foreign),
                    "{route} in {}: shows a {} price",
                    market.code,
                    other.currency.code()
                );
            }
        }
    }
}

#[test]
fn market_links_stay_inside_their_market() {
    let site = built_sample();
    for market in MARKETS.iter().filter(|m| !m.path_prefix.is_empty()) {
        let html = site.read(&market.path("/browse/womens"));
        let hrefs: Vec<&str> = html
            .split("href=\"")
            .skip(1)
            .map(|s| &s[..s.find('"').unwrap()])
            .filter(|h| h.starts_with("/p/") || h.starts_with("/browse/"))
            .collect();
        assert!(
            hrefs.is_empty(),
            "{} listing has unprefixed links: {:?}",
            market.code,
            &hrefs[..hrefs.len().min(5)]
        );
    }
}

#[test]
fn error_pages_robots_sitemaps_and_redirects_exist() {
    let site = built_sample();
    for market in MARKETS {
        let not_found = site.read(&market.path("/404.html"));
        assert!(not_found.contains("This page could not be found"));
        assert!(not_found.contains("Page not found"));
        let error = site.read(&market.path("/error.html"));
        assert!(
            error.contains("An error occured") && error.contains("Please go back or try again")
        );
        for (label, path) in [
            ("Home", "/"),
            ("Women", "/browse/womens"),
            ("Men", "/browse/mens"),
            ("Other Stuff", "/other-stuff"),
        ] {
            assert!(
                error.contains(label) && error.contains(&format!("href=\"{}\"", market.path(path))),
                "error page button {label} in {}",
                market.code
            );
        }
        assert!(
            site.exists(&market.path("/other-stuff")),
            "the error page's Other Stuff link leads somewhere"
        );
    }
    let robots = std::fs::read_to_string(site.public().join("robots.txt")).unwrap();
    assert!(robots.contains(&format!("Sitemap: {BASE}/sitemap.xml")));
    let index = std::fs::read_to_string(site.public().join("sitemap.xml")).unwrap();
    for m in MARKETS {
        let name = format!("sitemap-{}-1.xml", m.code);
        assert!(index.contains(&format!("{BASE}/{name}")));
        let map = std::fs::read_to_string(site.public().join(&name)).unwrap();
        assert!(map.contains(&format!("<loc>{BASE}{}</loc>", m.path("/browse/womens"))));
        assert!(map.contains("hreflang=\"x-default\""));
        assert!(
            !map.contains("/bag<"),
            "client-side screens stay out of the sitemap"
        );
    }
    let rules = live_site::netlify::NetlifyConfig::from_redirects_file(
        &std::fs::read_to_string(site.public().join("_redirects")).unwrap(),
    )
    .unwrap();
    for legacy in [
        "/Category/womens",
        "/Product/1/x/Y",
        "/Collection/501",
        "/OrderConfirmation/1/2",
        "/SearchResults",
        "/ContentPage/about-us",
    ] {
        for m in MARKETS {
            let r = rules.resolve(&m.path(legacy), "", false).unwrap();
            let (to, status) = (r.to, r.status);
            assert_eq!(status, 301, "{legacy}");
            assert!(
                to.starts_with(m.path_prefix),
                "{legacy} stays in {}",
                m.code
            );
        }
    }
}

#[test]
fn product_pages_carry_json_ld_open_graph_and_islands() {
    let site = built_sample();
    let listing = site.read("/us/browse/womens");
    let start = listing.find("href=\"/us/p/").unwrap() + 6;
    let url = &listing[start..start + listing[start..].find('"').unwrap()];
    let html = site.read(url);
    assert!(html.contains("\"@type\":\"Product\""));
    assert!(html.contains("\"priceCurrency\":\"USD\""));
    assert!(html.contains("\"@type\":\"BreadcrumbList\""));
    assert!(
        !html.contains("InStock") && !html.contains("OutOfStock"),
        "static pages never claim stock"
    );
    assert_eq!(
        attr_after(&html, "property=\"og:type\"", "content"),
        Some("product")
    );
    assert!(html.contains("data-island=\"ProductOptions\""));
    assert!(html.contains("data-island=\"HeaderActions\""));
    assert!(
        !html.contains("rel=\"modulepreload\""),
        "island chunks are not preloaded: they took bandwidth from the stylesheet and the picture"
    );
    assert!(!html.contains("<!--island-styles-->"));
    assert!(
        html.contains("<script type=\"module\" fetchpriority=\"low\" src=\"/assets/"),
        "the islands' script comes after the stylesheet and the largest picture"
    );
    assert!(
        html.contains("fetchpriority=\"high\""),
        "the first gallery picture is fetched first"
    );
    for width in ["200w", "453w", "768w", "1517w"] {
        assert!(html.contains(width), "gallery width {width}");
    }
}

#[test]
fn listings_with_a_listing_header_item_show_the_second_header_variant() {
    let site = built_sample();
    for market in MARKETS.iter() {
        // Collection 501: heading with its wavy-underline marking, squiggle, subheading, short
        // description, two calls to action with market-prefixed links.
        let party = site.read(&market.path("/browse/collection/501"));
        assert!(party.contains("plp-head plp-head--two"), "{}", market.code);
        assert!(party.contains("<span class=\"wavy\""), "{}", market.code);
        assert!(party.contains("class=\"plp-head__squiggle\""));
        assert!(party.contains("<p class=\"plp-head__subheading\">Dressed for the season</p>"));
        assert!(party.contains(
            "<p class=\"plp-head__desc\">Sequins, satin and velvet for every celebration.</p>"
        ));
        let dresses_link = format!(
            "href=\"{}\"",
            market.path("/browse/womens/clothing/dresses/")
        );
        assert!(
            party.contains(&dresses_link),
            "{}: {dresses_link}",
            market.code
        );
        assert!(party.contains(">Shop accessories</a>"));
        // Category 12 (Dresses): the listing's own name as heading, no squiggle, a description
        // over 100 characters behind See more, cut at 100 on both screen sizes.
        let dresses = site.read(&market.path("/browse/womens/clothing/dresses"));
        assert!(dresses.contains("<h1 class=\"page-title plp-head__title\">Dresses</h1>"));
        assert!(!dresses.contains("plp-head__squiggle"));
        assert!(dresses.contains("<details class=\"see-more\">"));
        let cut = "Midi, mini and maxi dresses for desk days, weddings and everything in between. Find your new favouri…";
        assert_eq!(dresses.matches(cut).count(), 2, "{}", market.code);
        // Elsewhere the first variant: title, description cut at 30 / 100, subcategory links.
        let womens = site.read(&market.path("/browse/womens"));
        assert!(!womens.contains("plp-head--two"));
        assert!(womens.contains("plp-head__links"));
    }
}

/// The text of every `<script>` element that carries inline JSON (JSON-LD and island props).
fn inline_json_scripts(html: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(start) = rest.find("<script type=\"application/") {
        let open_end = start + rest[start..].find('>').unwrap() + 1;
        let close = open_end + rest[open_end..].find("</script>").unwrap();
        out.push(&rest[open_end..close]);
        rest = &rest[close..];
    }
    out
}

#[test]
fn markup_in_a_product_name_cannot_break_the_pages_inline_json() {
    let site = copied_sample();
    let name = "Dress <!--<script> & </script> \"x\"";
    let mut id = 0;
    edit_json(&site.export, "catalog/products.json", |d| {
        id = d["data"][0]["id"].as_u64().unwrap();
        d["data"][0]["name"] = serde_json::json!(name);
    });
    site.build().expect("builds");
    let listing = site.read("/browse/womens");
    let marker = format!("href=\"/p/{id}/");
    let start = listing.find(&marker).expect("product listed") + 6;
    let url = &listing[start..start + listing[start..].find('"').unwrap()];
    let html = site.read(url);
    let scripts = inline_json_scripts(&html);
    assert!(scripts.len() >= 3, "JSON-LD and island props found");
    let mut product_ld = 0;
    for text in scripts {
        assert!(
            !text.contains(['<', '>', '&']),
            "unescaped markup in {text}"
        );
        let value: serde_json::Value = serde_json::from_str(text).expect("valid JSON");
        if value["@type"] == "Product" {
            assert_eq!(value["name"], name);
            product_ld += 1;
        }
    }
    assert_eq!(product_ld, 1, "one Product block, its name intact");
    assert!(html.contains("\"@type\":\"BreadcrumbList\""));
}
