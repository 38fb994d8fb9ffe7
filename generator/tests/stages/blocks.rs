//! Content blocks and layout slots as templates receive them: links prefixed, images sized,
//! bodies rendered, prices in the market's currency.

use domain::blocks::constants;
use domain::blocks::{Parsed, parse_block};
use domain::content::{Block, Chrome};
use generator::blocks::{block_json, chrome_json};
use serde_json::{Value, json};

fn block(schema: &str, v: Value) -> Block {
    let Ok(Parsed::Block(typed)) = parse_block(schema, &v) else {
        panic!("{schema} does not parse")
    };
    Block {
        schema_type: schema.into(),
        fields: typed.fields(),
        typed: *typed,
    }
}

#[test]
fn ctas_are_filtered_styled_and_prefixed() {
    let b = block(
        "call-to-action-group",
        json!({"callsToAction": [
            {"buttonText": "A", "buttonLink": "/a", "buttonStyle": "Secondary"},
            {"buttonText": "B", "buttonLink": "/b"},
            {"buttonText": "C", "buttonLink": "/c", "buttonStyle": "neon", "customId": "c1"}
        ], "buttonsLayout": 2}),
    );
    let v = block_json(&b, &domain::market::US);
    let ctas = v["fields"]["callsToAction"].as_array().unwrap();
    assert_eq!(ctas.len(), 2);
    assert_eq!(ctas[0]["link"], "/us/a");
    assert_eq!(ctas[0]["style"], "secondary");
    assert_eq!(ctas[1]["style"], "primary");
    assert_eq!(ctas[1]["customId"], "c1");
    assert_eq!(v["template"], "blocks/call-to-action-group.html");
}

#[test]
fn images_get_srcsets_videos_get_sources_and_bodies_html() {
    let b = block(
        "hero-banner",
        json!({"heading": {"text": "The [wavy]Party[/wavy]"}, "url": "/sale",
               "backgroundDesktop": {"url": "/media/h.svg", "alt": "A"},
               "backgroundMobile": {"defaultHost": "v.example", "endpoint": "ml", "name": "clip"}}),
    );
    let v = block_json(&b, &domain::market::EU);
    assert!(
        v["fields"]["backgroundDesktop"]["srcset"]
            .as_str()
            .unwrap()
            .contains("w=1536&fmt=auto&qlt=default")
    );
    assert_eq!(
        v["fields"]["backgroundMobile"]["src"],
        "https://v.example/v/ml/clip/mp41080p"
    );
    assert!(
        v["fields"]["heading"]["textHtml"]
            .as_str()
            .unwrap()
            .contains("class=\"wavy\"")
    );
    assert_eq!(v["fields"]["url"], "/eu/sale");
    assert_eq!(v["view"]["clickable"], true);
    assert_eq!(v["view"]["heading"], json!({"desktop": 94, "mobile": 94}));
    assert_eq!(
        v["view"]["topHeading"],
        json!({"desktop": 36, "mobile": 30})
    );
    let tiles = block(
        "link-tile-group",
        json!({"linkTiles": [{"headline": "W", "backgroundMedia": {"url": "/media/t.svg", "alt": ""}}]}),
    );
    let t = block_json(&tiles, &domain::market::UK);
    assert_eq!(
        t["fields"]["linkTiles"][0]["backgroundMedia"]["srcset"],
        "/media/t.svg?w=476&fmt=auto&qlt=default 476w"
    );
    let acc = block(
        "accordion",
        json!({"items": [{"title": "T", "body": "See [faqs](/help/faqs)"}]}),
    );
    let a = block_json(&acc, &domain::market::US);
    assert_eq!(
        a["view"]["props"]["items"][0]["bodyHtml"],
        "<p>See <a href=\"/us/help/faqs\">faqs</a></p>\n"
    );
}

#[test]
fn slots_get_island_props_prefixed_links_and_the_footer_default() {
    let chrome = Chrome {
        footer: Some(
            serde_json::from_value(json!({"columns": [{"title": "Help", "links": [{"text": "FAQs", "link": "/help/faqs"}]}], "quisasBoxText": " "}))
                .unwrap(),
        ),
        benefit_bar: Some(
            serde_json::from_value(json!({"items": [{"text": "Free delivery", "link": "/delivery"}]})).unwrap(),
        ),
        ..Chrome::default()
    };
    let v = chrome_json(&chrome, &domain::market::US);
    assert_eq!(
        v["footer"]["quisasBoxText"],
        constants::FOOTER_QUISAS_DEFAULT
    );
    assert_eq!(
        v["footer"]["props"]["columns"][0]["links"][0]["link"],
        "/us/help/faqs"
    );
    assert_eq!(v["footer"]["props"]["multiple"], false);
    assert_eq!(
        v["benefit_bar"]["props"]["items"][0]["link"],
        "/us/delivery"
    );
    assert_eq!(v["benefit_bar"]["props"]["tickMs"], 3500);
    assert_eq!(v["benefit_bar"]["props"]["resetMs"], 750);
    assert!(v["desktop_nav"].is_null() && v["countdown"].is_null());
    assert_eq!(v["markets"][1]["href"], "/us");
}

#[test]
fn holy_hand_grenade_code_is_loaded_from_files_named_by_its_hash() {
    let b = block(
        "holy-hand-grenade",
        json!({"html": "<p>x</p>", "javascript": "alert('Hello, world.');"}),
    );
    let v = block_json(&b, &domain::market::UK);
    assert_eq!(
        v["view"]["scriptSrc"],
        "/assets/hhg/ab39cb72c44ec7818008fd9d9b450228.js"
    );
    assert!(v["view"]["styleHref"].is_null());
    assert_eq!(v["fields"]["html"], "<p>x</p>");
}

#[test]
fn shop_the_look_prices_are_in_the_market_currency() {
    let product = |price: f64| json!({"image": {"url": "/media/p.svg", "alt": ""}, "url": "/p/1/x/Red", "title": "X", "price": price});
    let b = block(
        "shop-the-look-type-one",
        json!({"title": "Look", "primaryBlockBackground": {"url": "/media/l.svg", "alt": ""},
               "leftProduct": product(45.0), "rightProduct": product(52.5)}),
    );
    let uk = block_json(&b, &domain::market::UK);
    assert_eq!(uk["view"]["leftPrice"], "£45");
    assert_eq!(uk["view"]["rightPrice"], "£52.50");
    assert_eq!(
        block_json(&b, &domain::market::EU)["view"]["leftPrice"],
        "€45"
    );
}
