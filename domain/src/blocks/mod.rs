//! Content blocks: the typed model (`model`), selected by the item's schema type, the rendering
//! rules (`rules`) and the constants (`constants`) of content-blocks.md. `parse_block` turns one
//! raw block into its typed form or says precisely which field is wrong.

pub mod constants;
pub mod editor_code;
pub mod markdown;
pub mod model;
pub mod rules;

use model::*;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// A problem with one field of a block: `field` is a path inside the block (`callsToAction[1].buttonText`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldIssue {
    pub field: String,
    pub message: String,
}

/// Deserialises `value` into `T`, reporting the path of the first bad field.
pub fn typed<T: DeserializeOwned>(value: &Value) -> Result<T, FieldIssue> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        FieldIssue {
            field: if path == "." { String::new() } else { path },
            message: e.into_inner().to_string(),
        }
    })
}

/// Last path segment of a schema URI: `https://schema.example/hero-banner` → `hero-banner`.
pub fn schema_type(schema: &str) -> String {
    schema
        .trim_end_matches('/')
        .rsplit('/')
        .next()
        .unwrap_or(schema)
        .trim_end_matches(".json")
        .to_string()
}

macro_rules! block_types {
    ($( $schema:literal => $variant:ident($ty:ty) ),* $(,)?) => {
        /// One typed content block; the variant is chosen by the block's schema type.
        #[derive(Debug, Clone, PartialEq)]
        pub enum TypedBlock {
            $( $variant($ty), )*
        }

        /// Every block schema type the storefront renders.
        pub const BLOCK_SCHEMAS: &[&str] = &[$( $schema ),*];

        impl TypedBlock {
            /// The schema type the block was loaded as.
            pub fn schema_type(&self) -> &'static str {
                match self {
                    $( TypedBlock::$variant(_) => $schema, )*
                }
            }

            /// The block's fields as JSON (defaults filled in), for templates.
            pub fn fields(&self) -> Value {
                match self {
                    $( TypedBlock::$variant(b) => to_json(b), )*
                }
            }

            fn deserialize(schema: &str, value: &Value) -> Option<Result<TypedBlock, FieldIssue>> {
                match schema {
                    $( $schema => Some(typed::<$ty>(value).map(TypedBlock::$variant)), )*
                    _ => None,
                }
            }
        }
    };
}

block_types! {
    "accordion" => Accordion(Accordion),
    "animated-text-banner" => AnimatedTextBanner(AnimatedTextBanner),
    "bag-content-image" => BagContentImage(BagContentImage),
    "benefit-bar" => BenefitBar(BenefitBar),
    "call-to-action" => CallToAction(CallToActionBlock),
    "call-to-action-group" => CallToActionGroup(CallToActionGroup),
    "call-to-action-group-round" => CallToActionGroupRound(CallToActionGroup),
    "call-to-action-group-square" => CallToActionGroupSquare(CallToActionGroup),
    "countdown-timer" => CountdownTimer(CountdownTimer),
    "divider-text" => DividerText(DividerText),
    "divider-type-one" => DividerTypeOne(Divider),
    "divider-type-two" => DividerTypeTwo(Divider),
    "hero-banner" => HeroBanner(HeroBanner),
    "hero-banner-2" => HeroBanner2(HeroBanner2),
    "holy-hand-grenade" => HolyHandGrenade(HolyHandGrenade),
    "jumpoff-type-one" => JumpoffTypeOne(Jumpoff),
    "jumpoff-type-two" => JumpoffTypeTwo(Jumpoff),
    "jumpoff-type-three" => JumpoffTypeThree(Jumpoff),
    "jumpoff-group" => JumpoffGroup(JumpoffGroup),
    "large-text-banner" => LargeTextBanner(LargeTextBanner),
    "link-group" => LinkGroup(LinkGroup),
    "link-tile" => LinkTile(LinkTile),
    "link-tile-group" => LinkTileGroup(LinkTileGroup),
    "navigation-links-banner" => NavigationLinksBanner(NavigationLinksBanner),
    "scrollable-card" => ScrollableCard(ScrollableCard),
    "scrollable-card-group" => ScrollableCardGroup(ScrollableCardGroup),
    "shop-the-look-type-one" => ShopTheLookTypeOne(ShopTheLook),
    "shop-the-look-type-two" => ShopTheLookTypeTwo(ShopTheLook),
    "size-block" => SizeBlock(SizeBlock),
    "sizes-banner" => SizesBanner(SizesBanner),
    "snug-content-card" => SnugContentCard(SnugContentCard),
    "sticker" => Sticker(Sticker),
    "spacing-block" => Spacing(Spacing),
    "text-box-1" => TextBox1(TextBox1),
    "text-box-2" => TextBox2(TextBox2),
    "two-column-tile" => TwoColumnTile(TwoColumnTile),
    "tall-image" => TallImage(TallImage),
}

fn to_json<T: Serialize>(value: &T) -> Value {
    // Serialising these plain structs cannot fail (string keys, finite numbers from JSON).
    serde_json::to_value(value).unwrap_or(Value::Null)
}

/// The jump-off type (1, 2 or 3) of a schema type.
pub fn jumpoff_kind(schema_type: &str) -> Option<u8> {
    match schema_type {
        "jumpoff-type-one" => Some(1),
        "jumpoff-type-two" => Some(2),
        "jumpoff-type-three" => Some(3),
        _ => None,
    }
}

fn issue(field: impl Into<String>, message: impl Into<String>) -> FieldIssue {
    FieldIssue {
        field: field.into(),
        message: message.into(),
    }
}

fn check_columns(field: &str, value: u8, max: u8) -> Result<(), FieldIssue> {
    if (1..=max).contains(&value) {
        Ok(())
    } else {
        Err(issue(field, format!("must be 1 to {max}, not {value}")))
    }
}

/// Checks the rules serde cannot express (ranges, list lengths) and fills in derived fields.
fn finish(block: &mut TypedBlock) -> Result<(), FieldIssue> {
    use constants::*;
    match block {
        TypedBlock::CallToActionGroup(g) | TypedBlock::CallToActionGroupRound(g) => {
            check_columns("buttonsLayout", g.buttons_layout, CTA_GROUP_MAX_COLUMNS)
        }
        TypedBlock::CallToActionGroupSquare(g) => {
            check_columns("buttonsLayout", g.buttons_layout, SQUARE_CTA_MAX_COLUMNS)
        }
        TypedBlock::JumpoffTypeOne(j) => {
            j.kind = 1;
            Ok(())
        }
        TypedBlock::JumpoffTypeTwo(j) => {
            j.kind = 2;
            Ok(())
        }
        TypedBlock::JumpoffTypeThree(j) => {
            j.kind = 3;
            Ok(())
        }
        TypedBlock::JumpoffGroup(g) => {
            for (i, j) in g.jumpoffs.iter_mut().enumerate() {
                let schema = j.meta.as_ref().and_then(|m| m.schema.as_deref());
                j.kind = match schema.map(schema_type) {
                    None => 1,
                    Some(t) => jumpoff_kind(&t).ok_or_else(|| {
                        issue(
                            format!("jumpoffs[{i}]._meta.schema"),
                            format!("{t:?} is not a jump-off type"),
                        )
                    })?,
                };
            }
            Ok(())
        }
        TypedBlock::LinkTileGroup(g) if g.link_tiles.len() > 4 => Err(issue(
            "linkTiles",
            format!("a group holds at most 4 tiles, not {}", g.link_tiles.len()),
        )),
        TypedBlock::Sticker(s) => check_sticker("", s),
        TypedBlock::HeroBanner2(h) => match h.calls_to_action_column {
            Some(c) => check_columns("callsToActionColumn", c, CTA_GROUP_MAX_COLUMNS),
            None => Ok(()),
        },
        _ => Ok(()),
    }
}

/// A sticker has at most 3 text lines and a size.
pub fn check_sticker(prefix: &str, s: &Sticker) -> Result<(), FieldIssue> {
    if s.text_lines.len() > 3 {
        return Err(issue(
            format!("{prefix}textLines"),
            format!("at most 3 text lines, not {}", s.text_lines.len()),
        ));
    }
    if s.width == 0 || s.height == 0 {
        return Err(issue(
            format!("{prefix}width"),
            "width and height must be above 0",
        ));
    }
    Ok(())
}

/// What became of one raw block.
#[derive(Debug)]
pub enum Parsed {
    Block(Box<TypedBlock>),
    /// A schema the storefront does not know: skipped with a warning.
    Unknown,
}

/// Parses a raw block of a known or unknown schema type.
pub fn parse_block(schema_type: &str, value: &Value) -> Result<Parsed, FieldIssue> {
    match TypedBlock::deserialize(schema_type, value) {
        None => Ok(Parsed::Unknown),
        Some(result) => {
            let mut block = result?;
            finish(&mut block)?;
            Ok(Parsed::Block(Box::new(block)))
        }
    }
}

/// Every string field (path, text) of a block whose wavy-underline tag is broken.
pub fn wavy_problems(value: &Value) -> Vec<(String, rules::WavyError)> {
    fn walk(v: &Value, path: String, out: &mut Vec<(String, rules::WavyError)>) {
        match v {
            Value::String(s) => {
                if let Err(e) = rules::wavy_underline(s) {
                    out.push((path, e));
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    walk(item, format!("{path}[{i}]"), out);
                }
            }
            Value::Object(map) => {
                for (k, item) in map.iter().filter(|(k, _)| k.as_str() != "_meta") {
                    let p = if path.is_empty() {
                        k.clone()
                    } else {
                        format!("{path}.{k}")
                    };
                    walk(item, p, out);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(value, String::new(), &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn blocks_are_selected_by_schema_type() {
        let Parsed::Block(b) =
            parse_block("text-box-2", &json!({"heading": "Hi", "body": "There"})).unwrap()
        else {
            panic!("known block")
        };
        let TypedBlock::TextBox2(t) = *b else {
            panic!("{b:?}")
        };
        assert_eq!(t.heading, "Hi");
        assert_eq!(t.text_alignment, Alignment::Left);
        assert!(matches!(
            parse_block("mystery-widget", &json!({})),
            Ok(Parsed::Unknown)
        ));
    }

    #[test]
    fn a_missing_field_or_wrong_type_names_the_field() {
        let e =
            parse_block("hero-banner", &json!({"backgroundDesktop": {"url": "/a"}})).unwrap_err();
        assert_eq!(e.field, "");
        assert!(e.message.contains("missing field `heading`"), "{e:?}");
        let e = parse_block(
            "call-to-action-group",
            &json!({"callsToAction": [{"buttonText": "A"}, {"buttonText": 5}]}),
        )
        .unwrap_err();
        assert_eq!(e.field, "callsToAction[1].buttonText");
        assert!(e.message.contains("invalid type: integer `5`"), "{e:?}");
        let e = parse_block("spacing-block", &json!({"size": "Huge"})).unwrap_err();
        assert_eq!(e.field, "size");
        assert!(e.message.contains("unknown variant `Huge`"), "{e:?}");
    }

    #[test]
    fn cta_group_columns_are_1_to_4_and_square_1_to_10() {
        let group = |schema: &str, n: u8| {
            parse_block(schema, &json!({"callsToAction": [], "buttonsLayout": n}))
        };
        assert!(group("call-to-action-group", 4).is_ok());
        assert_eq!(
            group("call-to-action-group", 5).unwrap_err().field,
            "buttonsLayout"
        );
        assert!(group("call-to-action-group-round", 0).is_err());
        assert!(group("call-to-action-group-square", 10).is_ok());
        assert!(group("call-to-action-group-square", 11).is_err());
    }

    #[test]
    fn jumpoff_types_come_from_the_schema() {
        let Parsed::Block(b) = parse_block(
            "jumpoff-group",
            &json!({"jumpoffs": [
                {"_meta": {"schema": "https://s/jumpoff-type-three"}, "title": "A"},
                {"title": "B"}
            ]}),
        )
        .unwrap() else {
            panic!("known block")
        };
        let TypedBlock::JumpoffGroup(g) = *b else {
            panic!("{b:?}")
        };
        assert_eq!(g.jumpoffs[0].kind, 3);
        assert_eq!(g.jumpoffs[1].kind, 1);
        let e = parse_block(
            "jumpoff-group",
            &json!({"jumpoffs": [{"_meta": {"schema": "https://s/hero-banner"}, "title": "A"}]}),
        )
        .unwrap_err();
        assert_eq!(e.field, "jumpoffs[0]._meta.schema");
    }

    #[test]
    fn stickers_have_at_most_three_text_lines() {
        let lines: Vec<_> = (0..4).map(|i| json!({"text": format!("l{i}")})).collect();
        let e = parse_block(
            "sticker",
            &json!({"width": 100, "height": 100, "textLines": lines}),
        )
        .unwrap_err();
        assert_eq!(e.field, "textLines");
    }

    #[test]
    fn every_schema_is_listed_once() {
        let mut seen = std::collections::HashSet::new();
        assert!(BLOCK_SCHEMAS.iter().all(|s| seen.insert(*s)));
        assert_eq!(BLOCK_SCHEMAS.len(), 37);
    }

    #[test]
    fn broken_wavy_tags_are_found_with_their_path() {
        let found = wavy_problems(&json!({
            "heading": {"text": "The [wavy]Party"},
            "items": [{"title": "ok [wavy]x[/wavy]"}, {"title": "bad[/wavy]"}],
            "_meta": {"schema": "[wavy"}
        }));
        let paths: Vec<_> = found.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(paths, vec!["heading.text", "items[1].title"]);
    }
}
