//! The content blocks' business constants (timings, breakpoints, sizes, limits) and option lists,
//! in one place so the generator, the templates (through the generator) and the tests read the
//! same numbers.

/// Benefit bar ticker: one item every 3.5 s.
pub const BENEFIT_TICKER_MS: u32 = 3500;
/// Benefit bar ticker: the jump back to the first item takes 750 ms.
pub const BENEFIT_RESET_MS: u32 = 750;
/// Countdown timer tick.
pub const COUNTDOWN_TICK_MS: u32 = 1000;
/// Mobile versus desktop is decided at this width (px): below it is mobile.
pub const MOBILE_BREAKPOINT_PX: u32 = 768;
/// Mobile menu variant one: the layers reset this long after the menu closes.
pub const MOBILE_MENU_RESET_MS: u32 = 500;
/// Mobile menu variant two: at most this many top categories (those with children).
pub const MOBILE_MENU_MAX_CATEGORIES: usize = 12;

/// Hero default font sizes in px: (desktop, mobile).
pub const HERO_TOP_HEADING_PX: (u32, u32) = (36, 30);
pub const HERO_HEADING_PX: (u32, u32) = (94, 94);
pub const HERO_SUB_HEADING_PX: (u32, u32) = (36, 30);
/// Hero CTA container: 220 px per button plus 1.5rem gaps, for 1 to 4 buttons.
pub const HERO_CTA_WIDTH_PX: u32 = 220;
pub const HERO_CTA_GAP_REM: f32 = 1.5;
pub const HERO_CTA_MAX: usize = 4;

/// Square CTA group: max width 4.5rem per column, 1 to 10 columns.
pub const SQUARE_CTA_REM_PER_COLUMN: f32 = 4.5;
pub const SQUARE_CTA_MAX_COLUMNS: u8 = 10;
/// Standard and round CTA groups: 1 to 4 columns.
pub const CTA_GROUP_MAX_COLUMNS: u8 = 4;

/// Carousel (scrollable card group): loop on, 4 looped slides, 1 slide per scroll; the arrows are
/// hidden on large screens when there are fewer than 5 cards.
pub const CAROUSEL_LOOP: bool = true;
pub const CAROUSEL_LOOPED_SLIDES: u32 = 4;
pub const CAROUSEL_SLIDES_PER_SCROLL: u32 = 1;
pub const CAROUSEL_ARROWS_MIN_CARDS: usize = 5;

/// Large text banner font sizes in px at the sm, md, lg and xl breakpoints. Standard is the spec's
/// 49 px to 100 px; CE ("smaller, values not shown") is our choice (docs/content-blocks.md).
pub const TEXT_BANNER_STANDARD_PX: [u32; 4] = [49, 64, 80, 100];
pub const TEXT_BANNER_CE_PX: [u32; 4] = [36, 44, 56, 72];

/// Spacing block sizes in px.
pub const SPACING_PX: [(&str, u32); 7] = [
    ("XXS", 6),
    ("XS", 12),
    ("Small", 24),
    ("Medium", 36),
    ("Large", 48),
    ("XL", 60),
    ("XXL", 72),
];

/// Sticker fit margins: a sticker is scaled down to the viewport minus these (px).
pub const STICKER_MARGIN_WIDTH_PX: u32 = 56;
pub const STICKER_MARGIN_HEIGHT_PX: u32 = 200;

/// Responsive image widths, and the narrower set for link tiles.
pub const MEDIA_WIDTHS: [u32; 5] = [415, 768, 992, 1280, 1536];
pub const LINK_TILE_WIDTH: u32 = 476;
/// Media host parameters on every image width.
pub const MEDIA_PARAMS: &str = "fmt=auto&qlt=default";
/// The video rendition the storefront plays.
pub const VIDEO_RENDITION: &str = "mp41080p";

/// Call-to-action styles editors may choose; anything else renders as the default.
pub const CTA_STYLES: [&str; 9] = [
    "primary",
    "secondary",
    "tertiary",
    "tertiary-white",
    "round-style",
    "old-primary",
    "old-secondary",
    "old-tertiary",
    "old-tertiary-white",
];
pub const CTA_DEFAULT_STYLE: &str = "primary";

/// The footer's boxed text when the editor leaves it empty.
pub const FOOTER_QUISAS_DEFAULT: &str = "Sometimes it's good to get lost in the details";

/// Default colour of the wavy underline.
pub const WAVY_DEFAULT_COLOUR: &str = "black";
