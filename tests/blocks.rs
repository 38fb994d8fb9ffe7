//! Content blocks end to end: the block gallery page per market (snapshot), every block type in
//! it, the blocks' rendering rules as they reach the pages, the slot failure rules
//! (docs/content-blocks.md, "Slots"), and what happens with an unknown block, a missing field
//! or a wrong type.

mod common;

use common::*;
use domain::blocks::BLOCK_SCHEMAS;
use domain::market::MARKETS;
use serde_json::{Value, json};
use std::collections::BTreeSet;

const GALLERY: &str = "/block-gallery";

/// The `<main>` element, one tag per line, for snapshots.
fn main_of(html: &str) -> String {
    let start = html.find("<main").expect("page has <main>");
    let end = html.find("</main>").expect("page closes <main>") + "</main>".len();
    html[start..end].replace("><", ">\n<")
}

/// The content item with this delivery key (after the market prefix) in a market's content file.
fn item_mut<'a>(doc: &'a mut Value, market: &str, key: &str) -> &'a mut Value {
    let full = format!("{market}/{key}");
    doc["responses"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .map(|r| &mut r["content"])
        .find(|c| c["_meta"]["deliveryKey"] == full.as_str())
        .unwrap_or_else(|| panic!("no content item {full}"))
}

fn content_json(market: &str) -> Value {
    let path = sample_export().join(format!("content/{market}.json"));
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

fn warnings_of(site: &Site, market: usize) -> Vec<String> {
    let inputs = export::load_export(&site.export).expect("export loads");
    inputs.content.markets[market].warnings.clone()
}

/// Count of non-overlapping occurrences.
fn count(html: &str, needle: &str) -> usize {
    html.matches(needle).count()
}

#[test]
fn block_gallery_per_market() {
    let site = built_sample();
    for market in MARKETS {
        let html = site.read(&market.path(GALLERY));
        insta::assert_snapshot!(format!("block-gallery-{}", market.code), main_of(&html));
    }
}

#[test]
fn the_gallery_holds_every_block_type_in_every_market() {
    let all: BTreeSet<&str> = BLOCK_SCHEMAS.iter().copied().collect();
    for market in MARKETS {
        let mut doc = content_json(market.code);
        let gallery = item_mut(&mut doc, market.code, "block-gallery");
        let used: BTreeSet<String> = gallery["content"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| domain::content::schema_type(b["_meta"]["schema"].as_str().unwrap()))
            .collect();
        let used: BTreeSet<&str> = used.iter().map(String::as_str).collect();
        assert_eq!(used, all, "{}: gallery block types", market.code);
        assert!(
            gallery["stickers"]["desktop"].is_object() && gallery["stickers"]["mobile"].is_object()
        );
    }
}

#[test]
fn gallery_pages_apply_the_rendering_rules() {
    let site = built_sample();
    let uk = site.read(GALLERY);
    // A CTA without a style is not rendered; styles come from the allow-list.
    assert!(!uk.contains("Not rendered: no style"));
    assert!(uk.contains("class=\"btn btn--tertiary-white hero2__cta\""));
    // Hero with CTAs is not a link; hero with a url and no CTA is.
    assert_eq!(count(&uk, "class=\"hero__link\""), 1);
    assert!(uk.contains("<a class=\"hero__link\" href=\"/other-stuff\">"));
    // Hero 2 with exactly one CTA: the whole banner is the CTA's link.
    assert!(uk.contains(
        "<a class=\"hero2__inner\" href=\"/browse/collection/502\" data-cta-id=\"gallery-hero2\">"
    ));
    // Two-column tiles: clickable with an href and one CTA, not with two.
    assert_eq!(count(&uk, "class=\"two-col__link\""), 1);
    // Hero default and editor font sizes.
    assert!(uk.contains("--hero-fs-d:72px;--hero-fs-m:48px;"));
    assert!(
        uk.contains("--hero-fs-d:94px;--hero-fs-m:94px;"),
        "default heading size"
    );
    assert!(
        uk.contains("max-width:calc(440px + 1.5rem)"),
        "hero CTA container for 2 buttons"
    );
    // Square CTA group: 4.5rem per column.
    assert!(uk.contains("--cta-columns:6;max-width:27rem;"));
    // Spacing sizes.
    for px in [6, 12, 24, 36, 48, 60, 72] {
        assert!(
            uk.contains(&format!("style=\"height:{px}px\"")),
            "spacing {px}px"
        );
    }
    // Text banner sizes: Standard 49 → 100 px.
    assert!(uk.contains("--tb-sm:49px;--tb-md:64px;--tb-lg:80px;--tb-xl:100px"));
    // Media: srcset widths, link tiles at 476, video rendition, CMS schema marker.
    assert!(
        uk.contains(
            "/media/content/hero-home-desktop.webp?w=415&amp;fmt=auto&amp;qlt=default 415w"
        )
    );
    assert!(uk.contains("/media/content/tile-womens.webp?w=476&amp;fmt=auto&amp;qlt=default 476w"));
    assert!(
        uk.contains("src=\"https://video.maisonlark.example/v/maisonlark/party-edit/mp41080p\"")
    );
    assert!(uk.contains(
        "data-schema=\"http://bigcontent.io/cms/schema/v1/core#/definitions/image-link\""
    ));
    // Wavy underline with a colour and with the default.
    assert!(uk.contains("<span class=\"wavy\" style=\"--wavy-colour:#b3262d\">Party</span>"));
    assert!(uk.contains("<span class=\"wavy\" style=\"--wavy-colour:black\">worn</span>"));
    // Page description with its encoded apostrophe decoded.
    assert!(uk.contains("<p class=\"page-intro\">Every content block an editor can place, with every field: it&#x27;s all here.</p>"));
    // Markdown bodies.
    assert!(
        uk.contains("<strong>Bold</strong>, <em>italic</em> and a <a href=\"/delivery\">link</a>.")
    );
    // HolyHandGrenade: html as given; javascript and css as given in files named by their hash
    // (css linked in the head), so the site's CSP covers them with no inline code.
    assert!(uk.contains(
        "<div class=\"hhg-demo\" data-hhg-demo><p>HolyHandGrenade: raw editor HTML.</p></div>"
    ));
    let mut doc = content_json("uk");
    let gallery = item_mut(&mut doc, "uk", "block-gallery");
    let code = |field: &str| {
        gallery["content"]
            .as_array()
            .unwrap()
            .iter()
            .find_map(|b| b[field].as_str())
            .unwrap()
            .to_string()
    };
    let (js, css) = (code("javascript"), code("css"));
    let script = domain::blocks::editor_code::code_url(&js, "js");
    let sheet = domain::blocks::editor_code::code_url(&css, "css");
    assert!(uk.contains(&format!("<script src=\"{script}\"></script>")));
    let head = &uk[..uk.find("</head>").unwrap()];
    assert!(head.contains(&format!("<link rel=\"stylesheet\" href=\"{sheet}\">")));
    assert!(!uk.contains("<script>document.") && !head.contains("<style>"));
    for (url, text) in [(&script, &js), (&sheet, &css)] {
        let file = std::fs::read_to_string(site.public().join(url.trim_start_matches('/')))
            .unwrap_or_else(|e| panic!("{url} is published: {e}"));
        assert_eq!(&file, text, "{url} holds the editor's text byte for byte");
    }
    // Link tile group: mobile order from mobileOrderTile1–4.
    assert!(uk.contains("style=\"--tile-order:2;--tile-colour:#f4f1ec;"));
    // Stickers: both page stickers and the sticker block are islands.
    assert_eq!(count(&uk, "data-island=\"Sticker\""), 3);
    // Links are market-prefixed in other markets.
    let eu = site.read(&domain::market::EU.path(GALLERY));
    assert!(eu.contains("<a class=\"hero__link\" href=\"/eu/other-stuff\">"));
}

#[test]
fn shop_the_look_prices_are_in_each_markets_currency() {
    let site = built_sample();
    let products: Value = serde_json::from_slice(
        &std::fs::read(sample_export().join("catalog/products.json")).unwrap(),
    )
    .unwrap();
    let first = products["data"][0]["price"].as_f64().unwrap();
    let uk = site.read(GALLERY);
    let expected = domain::blocks::rules::look_price(first, domain::market::Currency::Gbp).unwrap();
    assert!(!expected.ends_with(".00"));
    assert!(
        uk.contains(&format!("<span class=\"stl__price\">{expected}</span>")),
        "{expected}"
    );
    assert!(
        site.read("/us/block-gallery")
            .contains("<span class=\"stl__price\">$")
    );
    assert!(
        site.read("/eu/block-gallery")
            .contains("<span class=\"stl__price\">€")
    );
}

#[test]
fn slots_render_as_islands_and_the_countdown_never_shows_a_count() {
    let site = built_sample();
    for market in MARKETS {
        let html = site.read(&market.path("/about-us"));
        for island in ["BenefitBar", "Countdown", "MegaMenu", "FooterColumns"] {
            assert!(
                html.contains(&format!("data-island=\"{island}\"")),
                "{island} on {}",
                market.code
            );
        }
        let menu = if market.code == "eu" {
            "MobileMenuTwo"
        } else {
            "MobileMenu"
        };
        assert!(html.contains(&format!("data-island=\"{menu}\"")), "{menu}");
        // The countdown's static markup is an empty hidden container.
        let at = html.find("data-island=\"Countdown\"").unwrap();
        let inner = &html[at..at + html[at..].find("</div>").unwrap()];
        assert!(
            inner.ends_with("<div class=\"countdown\" hidden>"),
            "{inner}"
        );
        // Footer: boxed text, payment logos in order, social links in a new tab, logo home.
        assert!(html.contains(
            "<p class=\"quisas\">Sometimes it&#x27;s good to get lost in the details</p>"
        ));
        let logos = [
            "Apple Pay",
            "Google Pay",
            "Amex",
            "PayPal",
            "Visa",
            "Maestro",
            "Mastercard",
            "Klarna",
        ];
        let positions: Vec<usize> = logos
            .iter()
            .map(|l| html.find(l).unwrap_or_else(|| panic!("{l}")))
            .collect();
        assert!(
            positions.windows(2).all(|w| w[0] < w[1]),
            "payment logo order"
        );
        assert!(html.contains("class=\"social__link\" href=\"https://www.instagram.com/maisonlark\" target=\"_blank\" rel=\"noopener\""));
        let home = if market.path_prefix.is_empty() {
            "/"
        } else {
            market.path_prefix
        };
        assert!(html.contains(&format!("<a class=\"logo logo--footer\" href=\"{home}\">")));
    }
}

#[test]
fn the_benefit_bar_is_hidden_on_home_unless_show_homepage() {
    let site = built_sample();
    assert!(
        site.read("/").contains("data-island=\"BenefitBar\""),
        "sample sets showHomepage"
    );
    let site = copied_sample();
    edit_json(&site.export, "content/uk.json", |d| {
        item_mut(d, "uk", "benefit-bar")["showHomepage"] = json!(false);
    });
    site.build().unwrap();
    assert!(!site.read("/").contains("data-island=\"BenefitBar\""));
    assert!(
        site.read("/about-us")
            .contains("data-island=\"BenefitBar\"")
    );
}

#[test]
fn an_unknown_block_is_skipped_with_a_warning_and_the_page_still_builds() {
    let site = copied_sample();
    let mut id = String::new();
    edit_json(&site.export, "content/uk.json", |d| {
        let page = item_mut(d, "uk", "about-us");
        id = page["_meta"]["deliveryId"].as_str().unwrap().to_string();
        page["content"].as_array_mut().unwrap().insert(
            1,
            json!({"_meta": {"schema": "https://schema.maisonlark.example/mystery-widget"}, "text": "Secret"}),
        );
    });
    site.build()
        .expect("an unknown block does not stop the build");
    assert!(!site.read("/about-us").contains("Secret"));
    assert!(
        site.read("/about-us").contains("Founded in 2009"),
        "the other blocks render"
    );
    let warnings = warnings_of(&site, 0);
    assert!(
        warnings
            .iter()
            .any(|w| w.contains(&format!("content item {id}"))
                && w.contains("content[1] (mystery-widget)")
                && w.contains(
                    "unknown block schema \"https://schema.maisonlark.example/mystery-widget\""
                )),
        "{warnings:?}"
    );
}

fn build_error(break_it: impl FnOnce(&std::path::Path)) -> String {
    let site = copied_sample();
    break_it(&site.export);
    let err = site.build().expect_err("must not build").to_string();
    assert!(!site.public().exists(), "nothing is written");
    err
}

fn about_us_id() -> String {
    let mut doc = content_json("uk");
    item_mut(&mut doc, "uk", "about-us")["_meta"]["deliveryId"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn a_missing_required_field_fails_the_build_naming_item_block_and_field() {
    let err = build_error(|e| {
        edit_json(e, "content/uk.json", |d| {
            let page = item_mut(d, "uk", "about-us");
            page["content"][1]
                .as_object_mut()
                .unwrap()
                .remove("heading");
        })
    });
    let id = about_us_id();
    assert!(
        err.contains(&format!(
            "content/uk.json: content item {id}: content[1] (text-box-2): missing field `heading`"
        )),
        "{err}"
    );
}

#[test]
fn a_wrong_type_fails_the_build_naming_the_field_path() {
    let err = build_error(|e| {
        edit_json(e, "content/uk.json", |d| {
            let page = item_mut(d, "uk", "about-us");
            page["content"][3]["callsToAction"][1]["buttonText"] = json!(5);
        })
    });
    assert!(
        err.contains("content[3] (call-to-action-group).callsToAction[1].buttonText: invalid type: integer `5`, expected a string"),
        "{err}"
    );
    let err = build_error(|e| {
        edit_json(e, "content/uk.json", |d| {
            item_mut(d, "uk", "about-us")["content"][0]["contentPositionDesktop"] =
                json!("Somewhere");
        })
    });
    assert!(
        err.contains(
            "content[0] (hero-banner).contentPositionDesktop: unknown variant `Somewhere`"
        ),
        "{err}"
    );
}

#[test]
fn invalid_navigation_fails_the_build() {
    let err = build_error(|e| {
        edit_json(e, "content/us.json", |d| {
            item_mut(d, "us", "desktop-navigation")["topLevelLinks"][0]["link"]["title"] =
                json!(null);
        })
    });
    assert!(err.contains("content/us.json: content item "), "{err}");
    assert!(
        err.contains("topLevelLinks[0].link.title: invalid type: null, expected a string"),
        "{err}"
    );
    let err = build_error(|e| {
        edit_json(e, "content/eu.json", |d| {
            item_mut(d, "eu", "mobile-navigation")["variant"] = json!("three");
        })
    });
    assert!(err.contains("variant: unknown variant `three`"), "{err}");
}

#[test]
fn an_invalid_footer_or_locale_image_renders_nothing_and_warns() {
    let site = copied_sample();
    let (mut footer_id, mut locale_id) = (String::new(), String::new());
    edit_json(&site.export, "content/us.json", |d| {
        let footer = item_mut(d, "us", "footer");
        footer_id = footer["_meta"]["deliveryId"].as_str().unwrap().to_string();
        footer["columns"] = json!("not a list");
        let locale = item_mut(d, "us", "locale-selector-image");
        locale_id = locale["_meta"]["deliveryId"].as_str().unwrap().to_string();
        locale.as_object_mut().unwrap().remove("image");
    });
    site.build().expect("a bad footer does not stop the build");
    let us = site.read("/us/about-us");
    assert!(
        !us.contains("locale__image"),
        "no locale image where its slot is invalid"
    );
    assert!(
        site.read("/about-us").contains("<img class=\"locale__image\" src=\"/media/content/locale-selector.webp\" alt=\"A map of the places we deliver to\""),
        "the locale selector shows the slot's image"
    );
    assert!(!us.contains("<footer class=\"site-footer\""), "no footer");
    assert!(
        site.read("/about-us")
            .contains("<footer class=\"site-footer\""),
        "other markets keep theirs"
    );
    let warnings = warnings_of(&site, 1);
    assert!(
        warnings.iter().any(|w| w
            .contains(&format!("content item {footer_id}: columns: invalid type"))
            && w.contains("the footer slot is not rendered")),
        "{warnings:?}"
    );
    assert!(
        warnings.iter().any(|w| w.contains(&format!(
            "content item {locale_id}: (item): missing field `image`"
        ))),
        "{warnings:?}"
    );
}

#[test]
fn an_unbalanced_wavy_tag_leaves_the_text_and_warns_naming_the_item() {
    let site = copied_sample();
    edit_json(&site.export, "content/uk.json", |d| {
        item_mut(d, "uk", "about-us")["content"][1]["heading"] = json!("Founded in [wavy]2009");
    });
    site.build().unwrap();
    assert!(site.read("/about-us").contains("Founded in [wavy]2009"));
    let id = about_us_id();
    let warnings = warnings_of(&site, 0);
    assert!(
        warnings.iter().any(|w| w.contains(&format!("content item {id}: content[1] (text-box-2).heading: wavy-underline tag without its matching [/wavy]"))),
        "{warnings:?}"
    );
}
