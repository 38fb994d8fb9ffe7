//! Content blocks and layout slots → template values (docs/templates.md, docs/content-blocks.md).
//! Each block becomes `{schema_type, template, fields, view}`: `fields` is the typed block as
//! JSON with market-prefixed links, renderable calls to action only, srcsets on images, video
//! sources, Markdown bodies as `bodyHtml` and wavy-underline text as `{key}Html`; `view` holds
//! what the rendering and sizing rules (`domain::blocks::rules`) derive: clickability, sizes,
//! prices, island props.

use crate::view::links::localise_links;
use domain::blocks::model::{
    BenefitBar, CallToAction, Image, LinkTileGroup, ListingHeader, ScrollableCardGroup, StyledText,
};
use domain::blocks::rules::{self, HeroText};
use domain::blocks::{TypedBlock, constants, editor_code, markdown};
use domain::content::{Block, Chrome, Content, LISTING_HEADER, MarketContent};
use domain::market::{MARKETS, Market};
use serde_json::{Map, Value, json};

/// Media widths for a block: link tiles use the narrow set.
fn widths_for(schema_type: &str) -> &'static [u32] {
    rules::media_widths(matches!(schema_type, "link-tile" | "link-tile-group"))
}

/// Calls to action as the renderable views (others dropped).
fn cta_list(value: &Value) -> Value {
    let ctas: Vec<CallToAction> = serde_json::from_value(value.clone()).unwrap_or_default();
    json!(rules::cta_views(&ctas))
}

/// Walks block JSON adding what templates need; `links` are already market-prefixed.
fn prepare(value: &mut Value, widths: &[u32], market: &Market) {
    match value {
        Value::Array(items) => items.iter_mut().for_each(|v| prepare(v, widths, market)),
        Value::Object(map) => {
            let mut extra = Map::new();
            for (key, v) in map.iter_mut() {
                match (key.as_str(), &*v) {
                    ("_meta", _) => {}
                    ("callsToAction", Value::Array(_)) => *v = cta_list(v),
                    ("callToAction", Value::Object(_)) => {
                        *v = cta_list(&Value::Array(vec![v.clone()]))
                            .as_array()
                            .and_then(|a| a.first().cloned())
                            .unwrap_or(Value::Null)
                    }
                    ("body", Value::String(s)) => {
                        let html = markdown::to_html(s, &|p| market.path(p));
                        extra.insert("bodyHtml".into(), Value::String(html));
                    }
                    (_, Value::String(s)) => {
                        if let Ok(Some(html)) = rules::wavy_underline(s) {
                            extra.insert(format!("{key}Html"), Value::String(html));
                        }
                    }
                    _ => prepare(v, widths, market),
                }
            }
            let url = map.get("url").and_then(Value::as_str).map(str::to_string);
            if let Some(url) = url.filter(|_| map.contains_key("alt")) {
                extra.insert("srcset".into(), Value::String(rules::srcset(&url, widths)));
            }
            if let (Some(host), Some(endpoint), Some(name)) = (
                map.get("defaultHost").and_then(Value::as_str),
                map.get("endpoint").and_then(Value::as_str),
                map.get("name").and_then(Value::as_str),
            ) {
                let video = domain::blocks::model::Video {
                    default_host: host.into(),
                    endpoint: endpoint.into(),
                    name: name.into(),
                    meta: None,
                };
                extra.insert("src".into(), Value::String(rules::video_src(&video)));
            }
            map.extend(extra);
        }
        _ => {}
    }
}

/// Typed JSON → template JSON for one value (links prefixed, then prepared).
fn prepared(fields: &Value, schema_type: &str, market: &Market) -> Value {
    let mut v = localise_links(fields, market);
    prepare(&mut v, widths_for(schema_type), market);
    v
}

fn sizes(role: HeroText, text: &Option<StyledText>) -> Value {
    let (d, m) = match text {
        Some(t) => rules::hero_font_sizes(role, t),
        None => rules::hero_font_sizes(
            role,
            &StyledText {
                text: String::new(),
                colour: None,
                font: None,
                font_size_desktop: None,
                font_size_mobile: None,
            },
        ),
    };
    json!({"desktop": d, "mobile": m})
}

fn class(value: &impl serde::Serialize) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(rules::class_name))
        .unwrap_or_default()
}

fn link_of(market: &Market, url: &Option<String>) -> Option<String> {
    url.as_deref()
        .map(str::trim)
        .filter(|u| !u.is_empty())
        .map(|u| {
            localise_links(&json!({"url": u}), market)["url"]
                .as_str()
                .unwrap_or(u)
                .to_string()
        })
}

fn carousel_props(group: &ScrollableCardGroup, fields: &Value, market: &Market) -> Value {
    let cards: Vec<Value> = group
        .card_items
        .iter()
        .zip(fields["cardItems"].as_array().into_iter().flatten())
        .map(|(card, prepared)| {
            let ctas = rules::cta_views(&card.calls_to_action);
            json!({
                "heading": card.heading,
                "subheading": card.subheading,
                "textColour": card.text_colour,
                "backgroundColour": card.background_colour,
                "link": link_of(market, &card.link),
                "clickable": rules::tile_is_clickable(card.link.as_deref(), &ctas),
                "image": image_props(card.background_media.as_ref(), prepared.get("backgroundMedia")),
                "ctas": prepared["callsToAction"],
            })
        })
        .collect();
    json!({
        "title": group.title,
        "titleColour": group.title_colour,
        "backgroundColour": group.background_colour,
        "loop": constants::CAROUSEL_LOOP,
        "loopedSlides": constants::CAROUSEL_LOOPED_SLIDES,
        "slidesPerScroll": constants::CAROUSEL_SLIDES_PER_SCROLL,
        "arrowsMinCards": constants::CAROUSEL_ARROWS_MIN_CARDS,
        "cards": cards,
    })
}

fn image_props(image: Option<&Image>, prepared: Option<&Value>) -> Value {
    match image {
        Some(img) => json!({
            "url": img.url,
            "alt": img.alt,
            "srcset": prepared.and_then(|p| p.get("srcset")).cloned().unwrap_or(Value::Null),
        }),
        None => Value::Null,
    }
}

fn link_tile_orders(group: &LinkTileGroup) -> Value {
    json!(rules::link_tile_orders(group))
}

/// What the rules derive for one block.
fn view(block: &TypedBlock, fields: &Value, market: &Market) -> Value {
    match block {
        TypedBlock::HeroBanner(h) => {
            let ctas = rules::cta_views(&h.calls_to_action);
            json!({
                "clickable": rules::hero_is_clickable(h.url.as_deref(), &ctas),
                "ctaWidth": rules::hero_cta_width(ctas.len()),
                "topHeading": sizes(HeroText::TopHeading, &h.top_heading),
                "heading": sizes(HeroText::Heading, &Some(h.heading.clone())),
                "subHeading": sizes(HeroText::SubHeading, &h.sub_heading),
                "positionDesktop": class(&h.content_position_desktop),
                "positionMobile": class(&h.content_position_mobile),
                "alignDesktop": class(&h.inner_content_alignment_desktop),
                "alignMobile": class(&h.inner_content_alignment_mobile),
            })
        }
        TypedBlock::HeroBanner2(h) => {
            let ctas = rules::cta_views(&h.calls_to_action);
            let whole = rules::hero2_whole_link(&ctas).map(|c| {
                let mut v = json!(c);
                v["link"] = json!(link_of(market, &Some(c.link.clone())));
                v
            });
            json!({
                "wholeLink": whole,
                "position": class(&h.content_position),
                "align": class(&h.text_content_alignment),
                "quisasPosition": h.quisas_box_position.as_ref().map(class),
                "ctaColumns": h.calls_to_action_column.unwrap_or(ctas.len().clamp(1, 4) as u8),
            })
        }
        TypedBlock::TwoColumnTile(t) => {
            let ctas = rules::cta_views(&t.calls_to_action);
            json!({
                "clickable": rules::tile_is_clickable(t.href.as_deref(), &ctas),
                "aspect": class(&t.aspect_ratio),
                "quisasPosition": t.quisas_position.as_ref().map(class),
                "ctaLayout": class(&t.cta_layout),
                "align": class(&t.text_box_alignment),
            })
        }
        TypedBlock::ScrollableCard(c) => {
            let ctas = rules::cta_views(&c.calls_to_action);
            json!({"clickable": rules::tile_is_clickable(c.link.as_deref(), &ctas)})
        }
        TypedBlock::ScrollableCardGroup(g) => {
            json!({"props": carousel_props(g, fields, market)})
        }
        TypedBlock::ShopTheLookTypeOne(s) | TypedBlock::ShopTheLookTypeTwo(s) => {
            let price =
                |amount: f64| rules::look_price(amount, market.currency).unwrap_or_default();
            json!({
                "leftPrice": price(s.left_product.price),
                "rightPrice": price(s.right_product.price),
                "align": class(&s.primary_block_alignment),
            })
        }
        TypedBlock::Spacing(s) => json!({"px": rules::spacing_px(s.size)}),
        TypedBlock::LargeTextBanner(b) => {
            let [sm, md, lg, xl] = rules::text_banner_px(b.banner_type);
            json!({"sm": sm, "md": md, "lg": lg, "xl": xl, "align": class(&b.text_alignment_desktop), "weight": class(&b.font_weight)})
        }
        TypedBlock::CallToActionGroup(g) | TypedBlock::CallToActionGroupRound(g) => {
            json!({"columns": g.buttons_layout, "align": class(&g.container_alignment)})
        }
        TypedBlock::CallToActionGroupSquare(g) => json!({
            "columns": g.buttons_layout,
            "align": class(&g.container_alignment),
            "maxWidth": rules::square_cta_max_width(g.buttons_layout),
        }),
        TypedBlock::CallToAction(c) => {
            // The CTA's fields sit at the block's top level: read them back from the prefixed JSON.
            let cta: CallToAction = serde_json::from_value(fields.clone()).unwrap_or_default();
            json!({"align": class(&c.container_alignment), "cta": rules::cta_view(&cta)})
        }
        TypedBlock::BenefitBar(b) => json!({"props": benefit_props(b, fields)}),
        TypedBlock::JumpoffGroup(g) => json!({"columns": rules::jumpoff_columns(g.jumpoffs.len())}),
        TypedBlock::LinkTileGroup(g) => json!({"orders": link_tile_orders(g)}),
        TypedBlock::Accordion(a) => json!({"props": {
            "heading": a.heading,
            "items": fields["items"].as_array().into_iter().flatten().map(|i| json!({"title": i["title"], "bodyHtml": i["bodyHtml"]})).collect::<Vec<_>>(),
        }}),
        TypedBlock::AnimatedTextBanner(b) => json!({"props": {
            "text": b.text,
            "textFont": b.text_font,
            "textColour": b.text_colour,
            "backgroundColour": b.background_colour,
            "speedDesktop": number(b.text_speed_desktop.filter(|s| *s > 0.0).unwrap_or(20.0)),
            "speedMobile": number(b.text_speed_mobile.filter(|s| *s > 0.0).unwrap_or(12.0)),
            "link": link_of(market, &b.link),
            "ctaText": b.cta_text,
            "dividers": b.dividers,
        }}),
        TypedBlock::Sticker(_) => json!({"props": fields}),
        TypedBlock::CountdownTimer(_) => json!({"props": countdown_props(fields)}),
        TypedBlock::DividerText(d) => json!({
            "align": class(&d.text_alignment),
            "size": class(&d.font_size),
            "weight": class(&d.font_weight),
        }),
        TypedBlock::TextBox1(t) => json!({"align": class(&t.text_alignment)}),
        TypedBlock::TextBox2(t) => {
            json!({"align": class(&t.text_alignment), "tag": class(&t.heading_style)})
        }
        TypedBlock::NavigationLinksBanner(n) => json!({"valign": class(&n.vertical_alignment)}),
        TypedBlock::JumpoffTypeThree(j) => json!({"imagePosition": class(&j.image_position)}),
        // The script and stylesheet are files of their own (`editor_code_files`), so the site's
        // CSP covers them without 'unsafe-inline'.
        TypedBlock::HolyHandGrenade(h) => json!({
            "scriptSrc": h.javascript.as_deref().map(|js| editor_code::code_url(js, "js")),
            "styleHref": h.css.as_deref().map(|css| editor_code::code_url(css, "css")),
        }),
        _ => json!({}),
    }
}

/// A number as JSON the way JavaScript prints it: whole numbers without ".0" (island props are
/// printed by templates and by components, and both must agree).
fn number(value: f64) -> Value {
    if value.fract() == 0.0 && value.abs() < 1e15 {
        json!(value as i64)
    } else {
        json!(value)
    }
}

fn benefit_props(bar: &BenefitBar, prepared: &Value) -> Value {
    json!({
        "items": prepared["items"],
        "backgroundColour": bar.background_colour,
        "textColour": bar.text_colour,
        "tickMs": constants::BENEFIT_TICKER_MS,
        "resetMs": constants::BENEFIT_RESET_MS,
    })
}

fn countdown_props(cd: &Value) -> Value {
    json!({
        "startDate": cd["startDate"],
        "endDate": cd["endDate"],
        "text": cd["countdownText"],
        "link": cd["countdownLink"],
        "backgroundColour": cd["backgroundColour"],
        "textColour": cd["textColour"],
    })
}

/// One block as a template value.
pub fn block_json(block: &Block, market: &Market) -> Value {
    let fields = prepared(&block.fields, &block.schema_type, market);
    let view = view(&block.typed, &fields, market);
    json!({
        "schema_type": block.schema_type,
        "template": format!("blocks/{}.html", block.schema_type),
        "fields": fields,
        "view": view,
    })
}

/// Every HolyHandGrenade script and stylesheet on the home and content pages of every market, as
/// site-relative path → text (one file per distinct text, however many pages share it).
pub fn editor_code_files(content: &Content) -> std::collections::BTreeMap<String, String> {
    let mut files = std::collections::BTreeMap::new();
    let pages = content
        .markets
        .iter()
        .flat_map(|m| m.home.iter().chain(m.pages.iter()));
    for block in pages.flat_map(|p| p.blocks.iter()) {
        if let TypedBlock::HolyHandGrenade(h) = &block.typed {
            for (text, extension) in [(&h.javascript, "js"), (&h.css, "css")] {
                if let Some(text) = text {
                    files.insert(editor_code::code_path(text, extension), text.clone());
                }
            }
        }
    }
    files
}

/// A page's blocks as template values.
pub fn blocks_json(blocks: &[Block], market: &Market) -> Value {
    Value::Array(blocks.iter().map(|b| block_json(b, market)).collect())
}

fn mobile_nodes(nodes: &Value) -> Value {
    Value::Array(
        nodes
            .as_array()
            .into_iter()
            .flatten()
            .map(|n| {
                json!({
                    "title": n["title"],
                    "url": n["url"],
                    "textColour": n["textColour"],
                    "textBold": n["textBold"],
                    "underline": n["underline"],
                    "image": if n["image"].is_object() { json!({"url": n["image"]["url"], "alt": n["image"]["alt"]}) } else { Value::Null },
                    "children": mobile_nodes(&n["children"]),
                })
            })
            .collect(),
    )
}

/// The layout slots of one market as template values, each with its island props; null where
/// a slot is missing or was dropped.
pub fn chrome_json(chrome: &Chrome, market: &Market) -> Value {
    let slot = |v: Value| prepared(&v, "slot", market);
    let desktop_nav = chrome.desktop_nav.as_ref().map(|n| {
        let mut v = slot(as_json(n));
        v["props"] = json!({"topLevelLinks": v["topLevelLinks"].clone()});
        v
    });
    let mobile_nav = chrome.mobile_nav.as_ref().map(|n| {
        let mut v = slot(as_json(n));
        let items = mobile_nodes(&v["children"]);
        v["props"] = json!({
            "prefix": market.path_prefix,
            "items": items,
            "resetMs": constants::MOBILE_MENU_RESET_MS,
            "maxCategories": constants::MOBILE_MENU_MAX_CATEGORIES,
        });
        v
    });
    let footer = chrome.footer.as_ref().map(|f| {
        let mut v = slot(as_json(f));
        let quisas = f
            .quisas_box_text
            .as_deref()
            .map(str::trim)
            .filter(|q| !q.is_empty())
            .unwrap_or(constants::FOOTER_QUISAS_DEFAULT);
        v["quisasBoxText"] = json!(quisas);
        v["props"] =
            json!({"columns": v["columns"].clone(), "multiple": f.multiple, "open": f.open});
        v
    });
    let benefit_bar = chrome.benefit_bar.as_ref().map(|b| {
        let mut v = slot(as_json(b));
        v["props"] = benefit_props(b, &v);
        v
    });
    let countdown = chrome.countdown.as_ref().map(|c| {
        let mut v = slot(as_json(c));
        v["props"] = countdown_props(&v);
        v
    });
    let markets: Vec<_> = MARKETS.iter().map(|m| json!({"code": m.code, "name": m.name, "prefix": m.path_prefix, "currency": m.currency.code(), "href": m.path("/")})).collect();
    json!({
        "desktop_nav": desktop_nav,
        "mobile_nav": mobile_nav,
        "app_header": chrome.app_header.as_ref().map(|a| slot(as_json(a))),
        "footer": footer,
        "benefit_bar": benefit_bar,
        "countdown": countdown,
        "locale_image": chrome.locale_image.as_ref().map(|l| slot(as_json(l))),
        "markets": markets,
    })
}

/// A second-variant listing header for the template: links prefixed, calls to action as views,
/// `descriptionIsLong` by the spec's 100-character rule for this variant.
pub fn listing_header_json(header: &ListingHeader, market: &Market) -> Value {
    let mut value = prepared(&as_json(header), LISTING_HEADER, market);
    value["descriptionIsLong"] = Value::Bool(header.description.chars().count() > 100);
    value
}

fn as_json<T: serde::Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// Logs the market's content warnings (unknown blocks, dropped slots, broken wavy tags) once.
pub fn log_warnings(content: &MarketContent) {
    for w in &content.warnings {
        eprintln!("warning: {w}");
    }
}
