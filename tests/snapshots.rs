//! Snapshots of one page of each type in each market: the `<main>` element and the SEO head tags,
//! so any change to what shoppers or crawlers see shows up in review.

mod common;

use common::*;
use domain::market::MARKETS;

/// The `<main>` element plus the head's title, canonical, alternates and JSON-LD.
fn essentials(html: &str) -> String {
    let main_start = html.find("<main").expect("page has <main>");
    let main_end = html.find("</main>").expect("page closes <main>") + "</main>".len();
    let head: Vec<&str> = html
        .lines()
        .map(str::trim)
        .filter(|l| {
            l.starts_with("<title")
                || l.contains("rel=\"canonical\"")
                || l.contains("hreflang=")
                || l.contains("application/ld+json")
                || l.starts_with("<meta name=\"description\"")
        })
        .collect();
    let main = &html[main_start..main_end];
    // Put each tag on its own line so diffs are readable.
    format!("{}\n---\n{}", head.join("\n"), main.replace("><", ">\n<"))
}

#[test]
fn one_page_of_each_type_per_market() {
    let site = built_sample();
    let uk_listing = site.read("/browse/womens");
    let start = uk_listing.find("href=\"/p/").unwrap() + 6;
    let product = &uk_listing[start..start + uk_listing[start..].find('"').unwrap()];
    let pages = [
        ("home", "/".to_string()),
        ("category", "/browse/womens".into()),
        ("collection", "/browse/collection/501".into()),
        ("product", product.to_string()),
        ("content", "/about-us".into()),
        ("shell-bag", "/bag".into()),
        ("shop-finder", "/shop-finder".into()),
        ("not-found", "/404.html".into()),
        ("error", "/error.html".into()),
    ];
    for market in MARKETS {
        for (kind, path) in &pages {
            let html = site.read(&market.path(path));
            insta::assert_snapshot!(format!("{kind}-{}", market.code), essentials(&html));
        }
    }
}
