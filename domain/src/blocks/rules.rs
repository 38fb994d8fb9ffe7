//! The blocks' rendering rules (what renders, what is clickable, prices, text clean-up) and sizing
//! rules as pure functions (docs/content-blocks.md, "Rendering rules"). The generator applies them
//! when it turns blocks into template values; the islands mirror the few that depend on the
//! viewport (sticker fit) or the clock (countdown).

use super::constants::*;
use super::model::*;
use crate::market::Currency;
use crate::money::Money;
use serde::Serialize;

/// A call to action ready to render.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CtaView {
    pub text: String,
    pub link: String,
    /// From the allow-list (`CTA_STYLES`); anything else is `primary`.
    pub style: &'static str,
    /// `button`, `submit` or `reset`.
    pub button_type: &'static str,
    pub custom_id: Option<String>,
}

fn present(value: &Option<String>) -> Option<&str> {
    value.as_deref().map(str::trim).filter(|s| !s.is_empty())
}

/// A style from the allow-list, or the default (`primary`) for anything else.
pub fn cta_style(style: &str) -> &'static str {
    let wanted = style.trim().to_ascii_lowercase().replace(' ', "-");
    CTA_STYLES
        .iter()
        .find(|s| **s == wanted)
        .copied()
        .unwrap_or(CTA_DEFAULT_STYLE)
}

pub fn button_type(kind: ButtonType) -> &'static str {
    match kind {
        ButtonType::Button => "button",
        ButtonType::Submit => "submit",
        ButtonType::Reset => "reset",
    }
}

/// A call to action renders only when buttonText, buttonLink and buttonStyle are all present.
pub fn cta_view(cta: &CallToAction) -> Option<CtaView> {
    let (text, link, style) = (
        present(&cta.button_text)?,
        present(&cta.button_link)?,
        present(&cta.button_style)?,
    );
    Some(CtaView {
        text: text.to_string(),
        link: link.to_string(),
        style: cta_style(style),
        button_type: button_type(cta.button_type),
        custom_id: present(&cta.custom_id).map(str::to_string),
    })
}

/// The renderable calls to action of a list, in order.
pub fn cta_views(ctas: &[CallToAction]) -> Vec<CtaView> {
    ctas.iter().filter_map(cta_view).collect()
}

/// A hero banner is clickable as a whole only with a url and no calls to action.
pub fn hero_is_clickable(url: Option<&str>, ctas: &[CtaView]) -> bool {
    url.is_some_and(|u| !u.trim().is_empty()) && ctas.is_empty()
}

/// A hero banner 2 with exactly one call to action becomes a link around the whole banner.
pub fn hero2_whole_link(ctas: &[CtaView]) -> Option<&CtaView> {
    match ctas {
        [only] => Some(only),
        _ => None,
    }
}

/// A tile is clickable only with an href and at most one call to action.
pub fn tile_is_clickable(href: Option<&str>, ctas: &[CtaView]) -> bool {
    href.is_some_and(|h| !h.trim().is_empty()) && ctas.len() <= 1
}

/// Shop-the-look price: the market's currency, with a trailing ".00" removed (`£45`, `€52.50`).
pub fn look_price(amount: f64, currency: Currency) -> Result<String, String> {
    Money::from_decimal(amount, currency).map(|m| m.format_short())
}

/// The scale (never above 1) that fits a sticker into the viewport minus 56 px wide and 200 px high.
pub fn sticker_scale(width: u32, height: u32, viewport_width: u32, viewport_height: u32) -> f64 {
    if width == 0 || height == 0 {
        return 1.0;
    }
    let room_w = viewport_width.saturating_sub(STICKER_MARGIN_WIDTH_PX) as f64;
    let room_h = viewport_height.saturating_sub(STICKER_MARGIN_HEIGHT_PX) as f64;
    (room_w / width as f64)
        .min(room_h / height as f64)
        .clamp(0.0, 1.0)
}

/// Why a wavy-underline tag could not be applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WavyError {
    /// An opening tag without its closing tag, or the other way round.
    Unbalanced,
    /// A colour with characters a CSS colour never has.
    BadColour(String),
}

impl std::fmt::Display for WavyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WavyError::Unbalanced => write!(
                f,
                "wavy-underline tag without its matching [/wavy] (text left unchanged)"
            ),
            WavyError::BadColour(c) => {
                write!(
                    f,
                    "wavy-underline colour {c:?} is not a CSS colour (text left unchanged)"
                )
            }
        }
    }
}

const WAVY_OPEN: &str = "[wavy";
const WAVY_CLOSE: &str = "[/wavy]";

/// Whether a text uses the wavy-underline tag at all.
pub fn has_wavy(text: &str) -> bool {
    text.contains(WAVY_OPEN) || text.contains(WAVY_CLOSE)
}

fn escape_html(text: &str, out: &mut String) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#x27;"),
            c => out.push(c),
        }
    }
}

fn wavy_colour(attrs: &str) -> Result<String, WavyError> {
    let attrs = attrs.trim();
    if attrs.is_empty() {
        return Ok(WAVY_DEFAULT_COLOUR.to_string());
    }
    let value = attrs
        .strip_prefix("colour=")
        .or_else(|| attrs.strip_prefix("color="))
        .ok_or_else(|| WavyError::BadColour(attrs.to_string()))?
        .trim_matches(|c| c == '"' || c == '\'');
    let safe = !value.is_empty()
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "#(),.% ".contains(c));
    if safe {
        Ok(value.to_string())
    } else {
        Err(WavyError::BadColour(value.to_string()))
    }
}

/// Marketing text with `[wavy]…[/wavy]` or `[wavy colour="#b3262d"]…[/wavy]` as escaped HTML
/// with `<span class="wavy">` around the underlined words. `Ok(None)` when there is no tag.
/// Tags do not nest; an unbalanced tag is an error and the caller keeps the text unchanged.
pub fn wavy_underline(text: &str) -> Result<Option<String>, WavyError> {
    if !has_wavy(text) {
        return Ok(None);
    }
    let mut out = String::with_capacity(text.len() + 64);
    let mut rest = text;
    while let Some(start) = rest.find(WAVY_OPEN) {
        let (before, tag) = rest.split_at(start);
        if before.contains(WAVY_CLOSE) {
            return Err(WavyError::Unbalanced);
        }
        escape_html(before, &mut out);
        let end = tag.find(']').ok_or(WavyError::Unbalanced)?;
        let colour = wavy_colour(&tag[WAVY_OPEN.len()..end])?;
        let body = &tag[end + 1..];
        let close = body.find(WAVY_CLOSE).ok_or(WavyError::Unbalanced)?;
        let inner = &body[..close];
        if inner.contains(WAVY_OPEN) {
            return Err(WavyError::Unbalanced);
        }
        out.push_str("<span class=\"wavy\" style=\"--wavy-colour:");
        escape_html(&colour, &mut out);
        out.push_str("\">");
        escape_html(inner, &mut out);
        out.push_str("</span>");
        rest = &body[close + WAVY_CLOSE.len()..];
    }
    if rest.contains(WAVY_CLOSE) {
        return Err(WavyError::Unbalanced);
    }
    escape_html(rest, &mut out);
    Ok(Some(out))
}

/// Spacing block height in px.
pub fn spacing_px(size: SpacingSize) -> u32 {
    let name = match size {
        SpacingSize::Xxs => "XXS",
        SpacingSize::Xs => "XS",
        SpacingSize::Small => "Small",
        SpacingSize::Medium => "Medium",
        SpacingSize::Large => "Large",
        SpacingSize::Xl => "XL",
        SpacingSize::Xxl => "XXL",
    };
    SPACING_PX
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, px)| *px)
        .unwrap_or(36)
}

/// Which hero heading a styled text is, for its default font sizes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeroText {
    TopHeading,
    Heading,
    SubHeading,
}

/// Font sizes (desktop, mobile) in px: the editor's, else the spec's defaults.
pub fn hero_font_sizes(role: HeroText, text: &StyledText) -> (u32, u32) {
    let (d, m) = match role {
        HeroText::TopHeading => HERO_TOP_HEADING_PX,
        HeroText::Heading => HERO_HEADING_PX,
        HeroText::SubHeading => HERO_SUB_HEADING_PX,
    };
    (
        text.font_size_desktop.unwrap_or(d),
        text.font_size_mobile.unwrap_or(m),
    )
}

/// CSS width of a hero's CTA container: 220 px per button plus 1.5rem gaps, for 1 to 4 buttons.
pub fn hero_cta_width(buttons: usize) -> String {
    let n = buttons.clamp(1, HERO_CTA_MAX);
    if n == 1 {
        format!("{HERO_CTA_WIDTH_PX}px")
    } else {
        format!(
            "calc({}px + {}rem)",
            HERO_CTA_WIDTH_PX as usize * n,
            HERO_CTA_GAP_REM * (n - 1) as f32
        )
    }
}

/// CSS max width of a square CTA group: 4.5rem per column, 1 to 10 columns.
pub fn square_cta_max_width(columns: u8) -> String {
    let n = columns.clamp(1, SQUARE_CTA_MAX_COLUMNS);
    format!("{}rem", SQUARE_CTA_REM_PER_COLUMN * n as f32)
}

/// Large text banner font sizes at sm, md, lg and xl.
pub fn text_banner_px(kind: BannerType) -> [u32; 4] {
    match kind {
        BannerType::Standard => TEXT_BANNER_STANDARD_PX,
        BannerType::Ce => TEXT_BANNER_CE_PX,
    }
}

/// Jump-off group grid columns for its item count (2, 3 or 4; our mapping, docs/content-blocks.md):
/// up to 2 items → 2, a multiple of 3 → 3, otherwise 4.
pub fn jumpoff_columns(items: usize) -> u8 {
    match items {
        0..=2 => 2,
        n if n % 3 == 0 => 3,
        4 => 4,
        n if n % 4 == 0 => 4,
        _ => 3,
    }
}

/// `url?w=415&fmt=auto&qlt=default 415w, …` for the given widths.
pub fn srcset(url: &str, widths: &[u32]) -> String {
    let sep = if url.contains('?') { '&' } else { '?' };
    widths
        .iter()
        .map(|w| format!("{url}{sep}w={w}&{MEDIA_PARAMS} {w}w"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The responsive widths of a media field: the standard set, or 476 for link tiles.
pub fn media_widths(link_tile: bool) -> &'static [u32] {
    if link_tile {
        std::slice::from_ref(&LINK_TILE_WIDTH)
    } else {
        &MEDIA_WIDTHS
    }
}

/// A video's source: the host, endpoint and name with the mp41080p rendition.
pub fn video_src(video: &Video) -> String {
    format!(
        "https://{}/v/{}/{}/{VIDEO_RENDITION}",
        video.default_host.trim_end_matches('/'),
        video.endpoint,
        video.name
    )
}

/// Mobile order of each tile of a link tile group: the group's mobileOrderTileN, else the
/// tile's own mobileOrder, else its position.
pub fn link_tile_orders(group: &LinkTileGroup) -> Vec<u8> {
    let slots = [
        group.mobile_order_tile1,
        group.mobile_order_tile2,
        group.mobile_order_tile3,
        group.mobile_order_tile4,
    ];
    group
        .link_tiles
        .iter()
        .enumerate()
        .map(|(i, tile)| {
            slots
                .get(i)
                .copied()
                .flatten()
                .or(tile.mobile_order)
                .unwrap_or(i as u8 + 1)
        })
        .collect()
}

/// Mobile menu variant two: the top categories that have children, at most 12.
pub fn menu_two_categories(children: &[MobileNode]) -> Vec<&MobileNode> {
    children
        .iter()
        .filter(|c| !c.children.is_empty())
        .take(MOBILE_MENU_MAX_CATEGORIES)
        .collect()
}

/// CSS class fragment of an option value: `"Extra Bold"` → `extra-bold`.
pub fn class_name(value: &str) -> String {
    value.trim().to_ascii_lowercase().replace(' ', "-")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cta(text: Option<&str>, link: Option<&str>, style: Option<&str>) -> CallToAction {
        CallToAction {
            custom_id: Some("promo-1".into()),
            button_text: text.map(Into::into),
            button_link: link.map(Into::into),
            button_style: style.map(Into::into),
            button_type: ButtonType::Button,
        }
    }

    #[test]
    fn a_cta_needs_text_link_and_style() {
        assert!(cta_view(&cta(Some("Shop"), Some("/a"), Some("secondary"))).is_some());
        assert!(cta_view(&cta(None, Some("/a"), Some("primary"))).is_none());
        assert!(cta_view(&cta(Some("Shop"), None, Some("primary"))).is_none());
        assert!(cta_view(&cta(Some("Shop"), Some("/a"), None)).is_none());
        assert!(cta_view(&cta(Some("  "), Some("/a"), Some("primary"))).is_none());
        let v = cta_view(&cta(Some("Shop"), Some("/a"), Some("secondary"))).unwrap();
        assert_eq!(v.custom_id.as_deref(), Some("promo-1"));
        assert_eq!(v.button_type, "button");
    }

    #[test]
    fn cta_styles_come_from_the_allow_list_with_primary_as_default() {
        for style in CTA_STYLES {
            assert_eq!(cta_style(style), style);
        }
        assert_eq!(cta_style("Tertiary White"), "tertiary-white");
        assert_eq!(cta_style("neon"), "primary");
        assert_eq!(cta_style(""), "primary");
        assert_eq!(CTA_STYLES.len(), 9);
    }

    #[test]
    fn button_types_are_button_submit_and_reset() {
        assert_eq!(button_type(ButtonType::Button), "button");
        assert_eq!(button_type(ButtonType::Submit), "submit");
        assert_eq!(button_type(ButtonType::Reset), "reset");
        let parsed: CallToAction = serde_json::from_str(r#"{"buttonType": "submit"}"#).unwrap();
        assert_eq!(parsed.button_type, ButtonType::Submit);
        assert!(serde_json::from_str::<CallToAction>(r#"{"buttonType": "link"}"#).is_err());
    }

    fn views(n: usize) -> Vec<CtaView> {
        (0..n)
            .filter_map(|i| cta_view(&cta(Some("Go"), Some(&format!("/{i}")), Some("primary"))))
            .collect()
    }

    #[test]
    fn a_hero_is_clickable_only_with_a_url_and_no_ctas() {
        assert!(hero_is_clickable(Some("/sale"), &views(0)));
        assert!(!hero_is_clickable(Some("/sale"), &views(1)));
        assert!(!hero_is_clickable(None, &views(0)));
        assert!(!hero_is_clickable(Some(" "), &views(0)));
    }

    #[test]
    fn hero_2_with_exactly_one_cta_is_a_whole_banner_link() {
        assert_eq!(
            hero2_whole_link(&views(1)).map(|c| c.link.as_str()),
            Some("/0")
        );
        assert!(hero2_whole_link(&views(0)).is_none());
        assert!(hero2_whole_link(&views(2)).is_none());
    }

    #[test]
    fn a_tile_is_clickable_with_an_href_and_at_most_one_cta() {
        assert!(tile_is_clickable(Some("/a"), &views(0)));
        assert!(tile_is_clickable(Some("/a"), &views(1)));
        assert!(!tile_is_clickable(Some("/a"), &views(2)));
        assert!(!tile_is_clickable(None, &views(0)));
    }

    #[test]
    fn look_prices_drop_a_trailing_zero_pence() {
        assert_eq!(look_price(45.0, Currency::Gbp).unwrap(), "£45");
        assert_eq!(look_price(52.5, Currency::Eur).unwrap(), "€52.50");
        assert_eq!(look_price(1200.0, Currency::Usd).unwrap(), "$1,200");
        assert!(look_price(-1.0, Currency::Gbp).is_err());
    }

    #[test]
    fn page_descriptions_decode_apostrophes_and_quotes() {
        assert_eq!(
            crate::url::decode_quotes("We&#39;re &quot;made to last&quot;"),
            "We're \"made to last\""
        );
    }

    #[test]
    fn stickers_scale_down_never_up() {
        assert_eq!(sticker_scale(200, 200, 1280, 900), 1.0);
        // 375 − 56 = 319 wide room for 400 → 0.7975.
        assert!((sticker_scale(400, 200, 375, 800) - 319.0 / 400.0).abs() < 1e-9);
        // 600 − 200 = 400 high room for 500 → 0.8.
        assert!((sticker_scale(300, 500, 1280, 600) - 0.8).abs() < 1e-9);
        assert_eq!(sticker_scale(300, 300, 40, 100), 0.0);
        assert_eq!(sticker_scale(0, 0, 1280, 900), 1.0);
    }

    #[test]
    fn wavy_underline_defaults_to_black_and_takes_a_colour() {
        assert_eq!(wavy_underline("plain").unwrap(), None);
        assert_eq!(
            wavy_underline("The [wavy]Party[/wavy] Edit")
                .unwrap()
                .unwrap(),
            "The <span class=\"wavy\" style=\"--wavy-colour:black\">Party</span> Edit"
        );
        assert_eq!(
            wavy_underline("[wavy colour=\"#b3262d\"]Sale[/wavy] & more")
                .unwrap()
                .unwrap(),
            "<span class=\"wavy\" style=\"--wavy-colour:#b3262d\">Sale</span> &amp; more"
        );
        assert_eq!(
            wavy_underline("[wavy color=red]a[/wavy] [wavy]b[/wavy]")
                .unwrap()
                .unwrap(),
            "<span class=\"wavy\" style=\"--wavy-colour:red\">a</span> <span class=\"wavy\" style=\"--wavy-colour:black\">b</span>"
        );
    }

    #[test]
    fn an_unbalanced_wavy_tag_is_an_error() {
        assert_eq!(
            wavy_underline("The [wavy]Party"),
            Err(WavyError::Unbalanced)
        );
        assert_eq!(
            wavy_underline("The Party[/wavy]"),
            Err(WavyError::Unbalanced)
        );
        assert_eq!(
            wavy_underline("[wavy]a[wavy]b[/wavy]"),
            Err(WavyError::Unbalanced)
        );
        assert_eq!(
            wavy_underline("[wavy colour=\"#f00"),
            Err(WavyError::Unbalanced)
        );
        assert!(matches!(
            wavy_underline("[wavy colour=\"red;background:url(x)\"]a[/wavy]"),
            Err(WavyError::BadColour(_))
        ));
    }

    #[test]
    fn spacing_sizes_run_from_6_to_72_px() {
        let all = [
            (SpacingSize::Xxs, 6),
            (SpacingSize::Xs, 12),
            (SpacingSize::Small, 24),
            (SpacingSize::Medium, 36),
            (SpacingSize::Large, 48),
            (SpacingSize::Xl, 60),
            (SpacingSize::Xxl, 72),
        ];
        for (size, px) in all {
            assert_eq!(spacing_px(size), px, "{size:?}");
        }
    }

    #[test]
    fn hero_font_sizes_default_to_the_spec() {
        let t = |d: Option<u32>, m: Option<u32>| StyledText {
            text: "x".into(),
            colour: None,
            font: None,
            font_size_desktop: d,
            font_size_mobile: m,
        };
        assert_eq!(
            hero_font_sizes(HeroText::TopHeading, &t(None, None)),
            (36, 30)
        );
        assert_eq!(hero_font_sizes(HeroText::Heading, &t(None, None)), (94, 94));
        assert_eq!(
            hero_font_sizes(HeroText::SubHeading, &t(None, None)),
            (36, 30)
        );
        assert_eq!(
            hero_font_sizes(HeroText::Heading, &t(Some(72), None)),
            (72, 94)
        );
    }

    #[test]
    fn hero_cta_container_is_220px_per_button_plus_gaps() {
        assert_eq!(hero_cta_width(1), "220px");
        assert_eq!(hero_cta_width(2), "calc(440px + 1.5rem)");
        assert_eq!(hero_cta_width(4), "calc(880px + 4.5rem)");
        assert_eq!(hero_cta_width(7), hero_cta_width(4));
        assert_eq!(hero_cta_width(0), hero_cta_width(1));
    }

    #[test]
    fn square_cta_groups_are_4_5rem_per_column() {
        assert_eq!(square_cta_max_width(1), "4.5rem");
        assert_eq!(square_cta_max_width(4), "18rem");
        assert_eq!(square_cta_max_width(10), "45rem");
        assert_eq!(square_cta_max_width(12), "45rem");
    }

    #[test]
    fn text_banner_sizes_run_from_49_to_100_px() {
        assert_eq!(text_banner_px(BannerType::Standard)[0], 49);
        assert_eq!(text_banner_px(BannerType::Standard)[3], 100);
        let ce = text_banner_px(BannerType::Ce);
        assert!(ce.iter().zip(TEXT_BANNER_STANDARD_PX).all(|(c, s)| *c < s));
    }

    #[test]
    fn jumpoff_grids_have_2_3_or_4_columns() {
        assert_eq!(jumpoff_columns(1), 2);
        assert_eq!(jumpoff_columns(2), 2);
        assert_eq!(jumpoff_columns(3), 3);
        assert_eq!(jumpoff_columns(4), 4);
        assert_eq!(jumpoff_columns(6), 3);
        assert_eq!(jumpoff_columns(8), 4);
        assert_eq!(jumpoff_columns(5), 3);
    }

    #[test]
    fn media_srcsets_use_the_spec_widths_and_parameters() {
        assert_eq!(
            srcset("/m/a.jpg", media_widths(false)),
            "/m/a.jpg?w=415&fmt=auto&qlt=default 415w, /m/a.jpg?w=768&fmt=auto&qlt=default 768w, \
             /m/a.jpg?w=992&fmt=auto&qlt=default 992w, /m/a.jpg?w=1280&fmt=auto&qlt=default 1280w, \
             /m/a.jpg?w=1536&fmt=auto&qlt=default 1536w"
        );
        assert_eq!(
            srcset("/m/t.jpg?v=2", media_widths(true)),
            "/m/t.jpg?v=2&w=476&fmt=auto&qlt=default 476w"
        );
    }

    #[test]
    fn video_sources_use_the_mp41080p_rendition() {
        let v = Video {
            default_host: "cdn.media.example".into(),
            endpoint: "maisonlark".into(),
            name: "party-edit".into(),
            meta: None,
        };
        assert_eq!(
            video_src(&v),
            "https://cdn.media.example/v/maisonlark/party-edit/mp41080p"
        );
    }

    #[test]
    fn cms_media_links_keep_their_schema_marker() {
        let json = r#"{"url": "/m/a.jpg", "alt": "A", "_meta": {"schema": "http://bigcontent.io/cms/schema/v1/core#/definitions/image-link"}}"#;
        let img: Image = serde_json::from_str(json).unwrap();
        let back = serde_json::to_value(&img).unwrap();
        assert_eq!(
            back["_meta"]["schema"],
            "http://bigcontent.io/cms/schema/v1/core#/definitions/image-link"
        );
    }

    #[test]
    fn link_tile_mobile_order_prefers_the_group_slots() {
        let tile = |order: Option<u8>| LinkTile {
            headline: "T".into(),
            font_colour: TileFontColour::White,
            headline_drop_shadow: false,
            tile_colour: None,
            background_media: None,
            link: None,
            mobile_order: order,
            underline_colour: None,
        };
        let group = LinkTileGroup {
            title: None,
            link_tiles: vec![tile(Some(4)), tile(Some(3)), tile(None), tile(None)],
            mobile_order_tile1: Some(2),
            mobile_order_tile2: None,
            mobile_order_tile3: Some(1),
            mobile_order_tile4: None,
        };
        assert_eq!(link_tile_orders(&group), vec![2, 3, 1, 4]);
    }

    #[test]
    fn menu_two_keeps_at_most_12_categories_with_children() {
        let node = |kids: usize| MobileNode {
            title: "N".into(),
            url: None,
            text_colour: None,
            underline: false,
            text_bold: false,
            image: None,
            children: (0..kids)
                .map(|_| MobileNode {
                    title: "c".into(),
                    url: None,
                    text_colour: None,
                    underline: false,
                    text_bold: false,
                    image: None,
                    children: vec![],
                })
                .collect(),
        };
        let mut nodes: Vec<MobileNode> = (0..15).map(|_| node(1)).collect();
        nodes.insert(0, node(0));
        let picked = menu_two_categories(&nodes);
        assert_eq!(picked.len(), 12);
        assert!(picked.iter().all(|n| !n.children.is_empty()));
    }

    #[test]
    fn option_values_become_class_names() {
        assert_eq!(class_name("Extra Bold"), "extra-bold");
        assert_eq!(class_name("Top Left"), "top-left");
    }
}
