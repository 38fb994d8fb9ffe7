//! The serde-typed block model: one struct per block type (docs/content-blocks.md), with the
//! content hub's camelCase field names. Fields the spec names are all here; fields it does not
//! name are ignored (docs/formats.md). Required fields have no default: a block without them, or
//! with a field of the wrong type or an unknown option value, fails to load (docs/content-blocks.md).

use serde::{Deserialize, Serialize};

/// `_meta` of a nested item (cards, tiles, media): only the schema is kept, so CMS media links
/// keep their schema marker through to the page.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
pub struct Meta {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
}

/// An image: `{url, alt}`.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
pub struct Image {
    pub url: String,
    #[serde(default)]
    pub alt: String,
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// A video: `{defaultHost, endpoint, name}`.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Video {
    pub default_host: String,
    pub endpoint: String,
    pub name: String,
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

/// A media field that is either an image or a video.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(
    untagged,
    expecting = "an image {url, alt} or a video {defaultHost, endpoint, name}"
)]
pub enum Media {
    Image(Image),
    Video(Video),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, Default)]
pub enum Alignment {
    Left,
    #[default]
    Center,
    Right,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, Default)]
pub enum VerticalPosition {
    Top,
    #[default]
    Middle,
    Bottom,
}

/// Hero banner content position: vertical then horizontal, `"Middle Left"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
pub enum ContentPosition {
    #[serde(rename = "Top Left")]
    TopLeft,
    #[serde(rename = "Top Center")]
    TopCenter,
    #[serde(rename = "Top Right")]
    TopRight,
    #[serde(rename = "Middle Left")]
    MiddleLeft,
    #[serde(rename = "Middle Center")]
    MiddleCenter,
    #[serde(rename = "Middle Right")]
    MiddleRight,
    #[serde(rename = "Bottom Left")]
    BottomLeft,
    #[serde(rename = "Bottom Center")]
    BottomCenter,
    #[serde(rename = "Bottom Right")]
    BottomRight,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, Default)]
pub enum FontWeight {
    #[default]
    Medium,
    Bold,
    #[serde(rename = "Extra Bold")]
    ExtraBold,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, Default)]
pub enum HeadingStyle {
    H1,
    #[default]
    H2,
    H3,
}

/// Divider text sizes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, Default)]
pub enum FontSize {
    H1,
    H2,
    #[default]
    H3,
    H4,
    H5,
    #[serde(rename = "Title 1")]
    Title1,
    #[serde(rename = "Title 2")]
    Title2,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
pub enum QuisasPosition {
    #[serde(rename = "Top Left")]
    TopLeft,
    #[serde(rename = "Top Right")]
    TopRight,
    #[serde(rename = "Bottom Left")]
    BottomLeft,
    #[serde(rename = "Bottom Right")]
    BottomRight,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, Default)]
pub enum AspectRatio {
    #[default]
    #[serde(rename = "4x5")]
    FourByFive,
    #[serde(rename = "5x7")]
    FiveBySeven,
}

/// How a tile lays out its calls to action: one row of two, or two rows of one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, Default)]
pub enum CtaLayout {
    #[default]
    #[serde(rename = "1x2")]
    OneByTwo,
    #[serde(rename = "2x1")]
    TwoByOne,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum ButtonType {
    #[default]
    Button,
    Submit,
    Reset,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
pub enum SpacingSize {
    #[serde(rename = "XXS")]
    Xxs,
    #[serde(rename = "XS")]
    Xs,
    Small,
    Medium,
    Large,
    #[serde(rename = "XL")]
    Xl,
    #[serde(rename = "XXL")]
    Xxl,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, Default)]
pub enum TileFontColour {
    #[default]
    White,
    Black,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, Default)]
pub enum BannerType {
    #[default]
    Standard,
    #[serde(rename = "CE")]
    Ce,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum MobileVariant {
    #[default]
    One,
    Two,
}

/// A call to action. It renders only with text, link and style (`rules::cta_view`).
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CallToAction {
    #[serde(default)]
    pub custom_id: Option<String>,
    #[serde(default)]
    pub button_text: Option<String>,
    #[serde(default)]
    pub button_link: Option<String>,
    #[serde(default)]
    pub button_style: Option<String>,
    #[serde(default)]
    pub button_type: ButtonType,
}

/// Text with its own colour, font and sizes (hero banner headings). A plain string is accepted too.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StyledText {
    pub text: String,
    #[serde(default)]
    pub colour: Option<String>,
    #[serde(default)]
    pub font: Option<String>,
    #[serde(default)]
    pub font_size_desktop: Option<u32>,
    #[serde(default)]
    pub font_size_mobile: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
pub struct AccordionItem {
    pub title: String,
    /// Markdown.
    pub body: String,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
pub struct Accordion {
    #[serde(default)]
    pub heading: Option<String>,
    pub items: Vec<AccordionItem>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AnimatedTextBanner {
    pub text: String,
    #[serde(default)]
    pub text_font: Option<String>,
    #[serde(default)]
    pub text_colour: Option<String>,
    #[serde(default)]
    pub background_colour: Option<String>,
    /// Seconds per loop.
    #[serde(default)]
    pub text_speed_desktop: Option<f64>,
    #[serde(default)]
    pub text_speed_mobile: Option<f64>,
    #[serde(default)]
    pub link: Option<String>,
    #[serde(default)]
    pub cta_text: Option<String>,
    #[serde(default)]
    pub dividers: bool,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BagContentImage {
    pub image_desktop: Image,
    #[serde(default)]
    pub image_mobile: Option<Image>,
    #[serde(default)]
    pub image_link_url: Option<String>,
    #[serde(default)]
    pub alt_text_desktop: Option<String>,
    #[serde(default)]
    pub alt_text_mobile: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BenefitItem {
    pub text: String,
    #[serde(default)]
    pub link: Option<String>,
    #[serde(default)]
    pub open_in_new_tab: bool,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BenefitBar {
    #[serde(default)]
    pub background_colour: Option<String>,
    #[serde(default)]
    pub text_colour: Option<String>,
    #[serde(default)]
    pub show_homepage: bool,
    pub items: Vec<BenefitItem>,
}

/// A single call to action placed as a block.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CallToActionBlock {
    #[serde(flatten)]
    pub cta: CallToAction,
    #[serde(default)]
    pub container_alignment: Alignment,
}

/// A group of calls to action (standard, round or square variant, by schema).
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CallToActionGroup {
    pub calls_to_action: Vec<CallToAction>,
    /// Columns: 1 to 4 (standard, round), 1 to 10 (square).
    #[serde(default = "one")]
    pub buttons_layout: u8,
    #[serde(default)]
    pub container_alignment: Alignment,
}

fn one() -> u8 {
    1
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CountdownTimer {
    /// ISO 8601 date-time.
    pub start_date: String,
    pub end_date: String,
    #[serde(default)]
    pub countdown_text: Option<String>,
    #[serde(default)]
    pub countdown_link: Option<String>,
    #[serde(default)]
    pub background_colour: Option<String>,
    #[serde(default)]
    pub text_colour: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NavLink {
    pub url: String,
    pub title: String,
    #[serde(default)]
    pub text_colour: Option<String>,
    #[serde(default)]
    pub text_bold: bool,
    #[serde(default)]
    pub underline: bool,
    #[serde(default)]
    pub featured_text: Option<String>,
    #[serde(default)]
    pub title_superscript_text: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
pub struct NavLinkGroup {
    #[serde(default)]
    pub title: Option<String>,
    pub links: Vec<NavLink>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NavJumpOff {
    pub image: Image,
    #[serde(default)]
    pub text: Option<String>,
    pub url: String,
    #[serde(default)]
    pub image_caption_text: Option<String>,
    #[serde(default)]
    pub image_alt_text: Option<String>,
}

/// A mega menu column: a jump-off card or link groups.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NavColumn {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jump_off: Option<NavJumpOff>,
    #[serde(default)]
    pub link_groups: Vec<NavLinkGroup>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
pub struct TopLevelLink {
    pub link: NavLink,
    #[serde(default)]
    pub columns: Vec<NavColumn>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DesktopNavigation {
    pub top_level_links: Vec<TopLevelLink>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MobileNode {
    pub title: String,
    #[serde(default)]
    pub url: Option<String>,
    #[serde(default)]
    pub text_colour: Option<String>,
    #[serde(default)]
    pub underline: bool,
    #[serde(default)]
    pub text_bold: bool,
    #[serde(default)]
    pub image: Option<Image>,
    #[serde(default)]
    pub children: Vec<MobileNode>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
pub struct MobileNavigation {
    #[serde(default)]
    pub variant: MobileVariant,
    pub children: Vec<MobileNode>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DividerText {
    pub text: String,
    #[serde(default)]
    pub text_alignment: Alignment,
    #[serde(default)]
    pub font_type: Option<String>,
    #[serde(default)]
    pub font_size: FontSize,
    #[serde(default)]
    pub font_weight: FontWeight,
    #[serde(default)]
    pub upper_case: bool,
    #[serde(default)]
    pub font_colour: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Divider {
    #[serde(default)]
    pub divider_colour: Option<String>,
    /// Type one only: the wave drawn on mobile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub divider_svg_mobile: Option<Image>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FooterLink {
    pub text: String,
    pub link: String,
    #[serde(default)]
    pub open_in_new_tab: bool,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
pub struct FooterColumn {
    pub title: String,
    pub links: Vec<FooterLink>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Footer {
    pub columns: Vec<FooterColumn>,
    /// Mobile: several columns may be open at once.
    #[serde(default)]
    pub multiple: bool,
    /// Mobile: columns start open.
    #[serde(default)]
    pub open: bool,
    #[serde(default)]
    pub quisas_box_text: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HeroBanner {
    #[serde(default)]
    pub top_heading: Option<StyledText>,
    pub heading: StyledText,
    #[serde(default)]
    pub sub_heading: Option<StyledText>,
    #[serde(default)]
    pub url: Option<String>,
    #[serde(default = "middle_center")]
    pub content_position_desktop: ContentPosition,
    #[serde(default = "bottom_center")]
    pub content_position_mobile: ContentPosition,
    #[serde(default)]
    pub inner_content_alignment_desktop: Alignment,
    #[serde(default)]
    pub inner_content_alignment_mobile: Alignment,
    #[serde(default)]
    pub calls_to_action: Vec<CallToAction>,
    pub background_desktop: Media,
    #[serde(default)]
    pub background_mobile: Option<Media>,
    #[serde(default = "yes")]
    pub video_loop_desktop: bool,
    #[serde(default = "yes")]
    pub video_loop_mobile: bool,
    #[serde(default)]
    pub alt_text_desktop: Option<String>,
    #[serde(default)]
    pub alt_text_mobile: Option<String>,
}

fn middle_center() -> ContentPosition {
    ContentPosition::MiddleCenter
}
fn bottom_center() -> ContentPosition {
    ContentPosition::BottomCenter
}
fn yes() -> bool {
    true
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HeroBanner2 {
    #[serde(default)]
    pub content_position: VerticalPosition,
    pub background_media_desktop: Media,
    #[serde(default)]
    pub background_media_mobile: Option<Media>,
    #[serde(default)]
    pub background_colour: Option<String>,
    #[serde(default)]
    pub text_content_alignment: Alignment,
    pub main_title: String,
    #[serde(default)]
    pub sub_title: Option<String>,
    #[serde(default)]
    pub quisas_box_text: Option<String>,
    #[serde(default)]
    pub quisas_box_position: Option<QuisasPosition>,
    #[serde(default)]
    pub text_colour: Option<String>,
    #[serde(default)]
    pub calls_to_action: Vec<CallToAction>,
    /// Height of each CTA in px.
    #[serde(default)]
    pub calls_to_action_height: Option<u32>,
    /// CTAs per row.
    #[serde(default)]
    pub calls_to_action_column: Option<u8>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
pub struct HolyHandGrenade {
    #[serde(default)]
    pub html: Option<String>,
    #[serde(default)]
    pub css: Option<String>,
    #[serde(default)]
    pub javascript: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, Default)]
pub enum ImagePosition {
    #[default]
    Left,
    Right,
}

/// Jump-off card, types one to three (the type comes from the schema; `kind` is set on load).
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Jumpoff {
    #[serde(default)]
    pub kind: u8,
    pub title: String,
    #[serde(default)]
    pub body: Option<String>,
    #[serde(default)]
    pub call_to_action: Option<CallToAction>,
    #[serde(default)]
    pub image: Option<Image>,
    #[serde(default)]
    pub image_alt: Option<String>,
    /// Type three only.
    #[serde(default)]
    pub title_font: Option<String>,
    #[serde(default)]
    pub video: Option<Video>,
    #[serde(default)]
    pub image_position: ImagePosition,
    #[serde(default)]
    pub calls_to_action: Vec<CallToAction>,
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Meta>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JumpoffGroup {
    #[serde(default)]
    pub title: Option<String>,
    pub jumpoffs: Vec<Jumpoff>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LargeTextBanner {
    pub text: String,
    #[serde(default)]
    pub banner_type: BannerType,
    #[serde(default)]
    pub text_alignment_desktop: Alignment,
    #[serde(default)]
    pub font_weight: FontWeight,
    #[serde(default)]
    pub text_colour: Option<String>,
    #[serde(default)]
    pub background_colour: Option<String>,
    #[serde(default)]
    pub banner_link_url: Option<String>,
    #[serde(default)]
    pub calls_to_action: Vec<CallToAction>,
    #[serde(default)]
    pub dividers: bool,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
pub struct TextLink {
    pub text: String,
    pub link: String,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
pub struct LinkGroup {
    #[serde(default)]
    pub heading: Option<String>,
    pub links: Vec<TextLink>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LinkTile {
    pub headline: String,
    #[serde(default)]
    pub font_colour: TileFontColour,
    #[serde(default)]
    pub headline_drop_shadow: bool,
    #[serde(default)]
    pub tile_colour: Option<String>,
    #[serde(default)]
    pub background_media: Option<Image>,
    #[serde(default)]
    pub link: Option<String>,
    #[serde(default)]
    pub mobile_order: Option<u8>,
    #[serde(default)]
    pub underline_colour: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LinkTileGroup {
    #[serde(default)]
    pub title: Option<String>,
    pub link_tiles: Vec<LinkTile>,
    #[serde(default)]
    pub mobile_order_tile1: Option<u8>,
    #[serde(default)]
    pub mobile_order_tile2: Option<u8>,
    #[serde(default)]
    pub mobile_order_tile3: Option<u8>,
    #[serde(default)]
    pub mobile_order_tile4: Option<u8>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BannerLink {
    pub button_text: String,
    pub button_link: String,
    #[serde(default)]
    pub text_colour: Option<String>,
    #[serde(default)]
    pub text_hover_colour: Option<String>,
    #[serde(default)]
    pub custom_id: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NavigationLinksBanner {
    pub media_desktop: Media,
    #[serde(default)]
    pub media_tablet: Option<Media>,
    #[serde(default)]
    pub media_mobile: Option<Media>,
    #[serde(default)]
    pub image_link: Option<String>,
    #[serde(default)]
    pub fifty_fifty: bool,
    #[serde(default)]
    pub vertical_alignment: VerticalPosition,
    #[serde(default)]
    pub links: Vec<BannerLink>,
    #[serde(default)]
    pub invisible_area_link: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ScrollableCard {
    #[serde(default)]
    pub background_media: Option<Image>,
    #[serde(default)]
    pub background_colour: Option<String>,
    #[serde(default)]
    pub subheading: Option<String>,
    pub heading: String,
    #[serde(default)]
    pub text_colour: Option<String>,
    #[serde(default)]
    pub link: Option<String>,
    #[serde(default)]
    pub calls_to_action: Vec<CallToAction>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ScrollableCardGroup {
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub title_colour: Option<String>,
    #[serde(default)]
    pub background_colour: Option<String>,
    pub card_items: Vec<ScrollableCard>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
pub struct LookProduct {
    pub image: Image,
    pub url: String,
    pub title: String,
    /// In the market's currency.
    pub price: f64,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ShopTheLook {
    pub title: String,
    #[serde(default)]
    pub title_font: Option<String>,
    #[serde(default)]
    pub title_bold: bool,
    #[serde(default)]
    pub primary_block_alignment: ImagePosition,
    pub primary_block_background: Image,
    pub left_product: LookProduct,
    pub right_product: LookProduct,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SizeBlock {
    pub title_text: String,
    #[serde(default)]
    pub title_colour: Option<String>,
    #[serde(default)]
    pub calls_to_action: Vec<CallToAction>,
    #[serde(default)]
    pub cta_colour: Option<String>,
    #[serde(default)]
    pub show_underline: bool,
    #[serde(default)]
    pub underline_colour: Option<String>,
    #[serde(default)]
    pub hover_colour: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SizesBanner {
    pub heading: String,
    #[serde(default)]
    pub heading_colour: Option<String>,
    #[serde(default)]
    pub background_colour: Option<String>,
    #[serde(default)]
    pub calls_to_action: Vec<CallToAction>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SnugContentCard {
    pub image: Image,
    #[serde(default)]
    pub call_to_action: Option<CallToAction>,
}

/// One of a sticker's three text lines, positioned in px from the sticker's top left.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StickerText {
    pub text: String,
    #[serde(default)]
    pub top: u32,
    #[serde(default)]
    pub left: u32,
    #[serde(default = "sticker_font")]
    pub font_size: u32,
    #[serde(default)]
    pub colour: Option<String>,
}

fn sticker_font() -> u32 {
    16
}

/// The close button's box, in px from the sticker's top right.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CloseBox {
    #[serde(default)]
    pub top: u32,
    #[serde(default)]
    pub right: u32,
    #[serde(default = "close_size")]
    pub size: u32,
    #[serde(default)]
    pub colour: Option<String>,
}

fn close_size() -> u32 {
    32
}

/// A floating promo sticker (a block, or a content page's desktop / mobile sticker).
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Sticker {
    #[serde(default)]
    pub url: Option<String>,
    pub width: u32,
    pub height: u32,
    /// Distance from the viewport's right and bottom edges, px.
    #[serde(default)]
    pub margin_right: u32,
    #[serde(default)]
    pub margin_bottom: u32,
    /// A background image, or the `template` shape drawn in CSS when there is none.
    #[serde(default)]
    pub image: Option<Image>,
    #[serde(default)]
    pub template: Option<String>,
    #[serde(default)]
    pub background_colour: Option<String>,
    #[serde(default)]
    pub close_button: Option<CloseBox>,
    #[serde(default)]
    pub text_lines: Vec<StickerText>,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
pub struct Spacing {
    pub size: SpacingSize,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TextBox1 {
    #[serde(default)]
    pub subtitle: Option<String>,
    pub body: String,
    #[serde(default)]
    pub annotation: Option<String>,
    #[serde(default)]
    pub calls_to_action: Vec<CallToAction>,
    #[serde(default)]
    pub background_colour: Option<String>,
    #[serde(default)]
    pub background_desktop: Option<Image>,
    #[serde(default)]
    pub background_mobile: Option<Image>,
    #[serde(default)]
    pub alt_text_desktop: Option<String>,
    #[serde(default)]
    pub alt_text_mobile: Option<String>,
    #[serde(default)]
    pub text_colour: Option<String>,
    #[serde(default)]
    pub font: Option<String>,
    #[serde(default)]
    pub text_alignment: Alignment,
    #[serde(default)]
    pub bold: bool,
    #[serde(default)]
    pub underline: bool,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TextBox2 {
    pub heading: String,
    #[serde(default)]
    pub body: Option<String>,
    #[serde(default)]
    pub calls_to_action: Vec<CallToAction>,
    #[serde(default)]
    pub heading_style: HeadingStyle,
    #[serde(default = "left")]
    pub text_alignment: Alignment,
    #[serde(default)]
    pub text_colour: Option<String>,
    #[serde(default)]
    pub background_colour: Option<String>,
}

fn left() -> Alignment {
    Alignment::Left
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TwoColumnTile {
    pub image: Media,
    #[serde(default)]
    pub aspect_ratio: AspectRatio,
    #[serde(default)]
    pub quisas_text: Option<String>,
    #[serde(default)]
    pub quisas_position: Option<QuisasPosition>,
    #[serde(default)]
    pub text_box_alignment: Alignment,
    #[serde(default)]
    pub subtitle: Option<String>,
    pub heading: String,
    #[serde(default)]
    pub href: Option<String>,
    #[serde(default)]
    pub calls_to_action: Vec<CallToAction>,
    #[serde(default)]
    pub cta_layout: CtaLayout,
}

#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TallImage {
    pub image: Image,
    #[serde(default)]
    pub title: Option<String>,
    #[serde(default)]
    pub subtitle: Option<String>,
    #[serde(default)]
    pub call_to_action: Option<CallToAction>,
    #[serde(default)]
    pub quisas_text: Option<String>,
}

/// A content page's stickers.
#[derive(Debug, Clone, Default, PartialEq, Deserialize, Serialize)]
pub struct PageStickers {
    #[serde(default)]
    pub desktop: Option<Sticker>,
    #[serde(default)]
    pub mobile: Option<Sticker>,
}

/// Slot: app header settings.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AppHeader {
    #[serde(default)]
    pub transparent_home_header: bool,
    /// The market's tag manager container (`GTM-…`): the spec's per-market tracking tag, loaded
    /// only once a shopper accepts analytics cookies.
    #[serde(default, deserialize_with = "tracking_tag_id")]
    pub tracking_tag_id: Option<String>,
}

/// A Google Tag Manager container id: `GTM-` and 4 to 12 capital letters or digits. Anything else
/// would put an unknown script address in every page of the market.
fn tracking_tag_id<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    let id = Option::<String>::deserialize(d)?;
    match &id {
        Some(text)
            if !text.strip_prefix("GTM-").is_some_and(|rest| {
                (4..=12).contains(&rest.len())
                    && rest
                        .bytes()
                        .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
            }) =>
        {
            Err(serde::de::Error::custom(format!(
                "{text:?} is not a tag manager container id (GTM- and 4 to 12 capital letters or digits)"
            )))
        }
        _ => Ok(id),
    }
}

/// Slot: the curated default Popular Searches (the search overlay's chips before shoppers'
/// own queries rank).
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchSuggestions {
    pub suggestions: Vec<String>,
}

/// The second listing-header variant of one category or collection page (delivery key
/// `listing-header/category/{id}` or `listing-header/collection/{id}`): a heading (the listing's
/// name when absent) with an optional squiggle under it, a subheading, a description and calls to
/// action, in place of the plain title-and-description header.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ListingHeader {
    #[serde(default)]
    pub heading: Option<String>,
    pub subheading: String,
    #[serde(default)]
    pub description: String,
    /// Draws the decorative wavy line under the heading.
    #[serde(default)]
    pub squiggle: bool,
    #[serde(default)]
    pub calls_to_action: Vec<CallToAction>,
}

/// Slot: the image in the locale selector.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
pub struct LocaleSelectorImage {
    pub image: Image,
}
