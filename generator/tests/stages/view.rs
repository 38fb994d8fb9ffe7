//! The view pieces several stages share: discounts, link localising and plain text.

use domain::catalog::Price;
use domain::market::Currency;
use domain::money::Money;
use generator::view::links::localise_links;
use generator::view::price::percent_off;
use generator::view::text::plain_text;
use serde_json::json;

fn price(list: i64, sale: Option<i64>) -> Price {
    Price {
        price: Money::new(list, Currency::Gbp),
        sale: sale.map(|s| Money::new(s, Currency::Gbp)),
    }
}

#[test]
fn percent_off_rounds_down_to_two_decimals() {
    assert_eq!(
        percent_off(&price(6500, Some(4500))).as_deref(),
        Some("30.76% off")
    );
    assert_eq!(
        percent_off(&price(4000, Some(3000))).as_deref(),
        Some("25% off")
    );
    assert_eq!(
        percent_off(&price(3000, Some(2850))).as_deref(),
        Some("5% off")
    );
    assert_eq!(
        percent_off(&price(2000, Some(1990))).as_deref(),
        Some("0.5% off")
    );
    assert_eq!(percent_off(&price(4000, None)), None);
}

#[test]
fn links_get_the_market_prefix_but_media_does_not() {
    let v = json!({"url": "/browse/womens", "image": {"url": "/media/a.svg"}, "links": [{"link": "/about-us"}, {"link": "https://x.example/"}], "text": "/not-a-link"});
    let out = localise_links(&v, &domain::market::EU);
    assert_eq!(out["url"], "/eu/browse/womens");
    assert_eq!(out["image"]["url"], "/media/a.svg");
    assert_eq!(out["links"][0]["link"], "/eu/about-us");
    assert_eq!(out["links"][1]["link"], "https://x.example/");
    assert_eq!(out["text"], "/not-a-link");
}

#[test]
fn plain_text_strips_tags_and_decodes_quotes() {
    assert_eq!(
        plain_text("<p>It&#39;s a <b>tiered</b> midi.</p>"),
        "It's a tiered midi."
    );
}
