//! The ProductOptions island's props (site-src/src/features/product/selection.ts `schema`): built
//! from typed values, so their script JSON is written by serde directly instead of by walking
//! template values (the largest props of the site: one per product page, ~2.4 kB).

use serde::Serialize;

use domain::catalog::{OptionKind, Product};
use domain::market::Market;

use crate::render::PreparedProps;
use crate::view::card::colourway_url;

/// One variant's options and whether it can be bought: the same on all of a product's pages.
/// (Every props struct here lists its fields sorted, the order the props have always had.)
#[derive(Serialize)]
pub struct VariantChoice {
    colour: Option<u64>,
    id: u64,
    length: Option<u64>,
    purchasable: bool,
    size: Option<u64>,
}

pub fn variant_choices(product: &Product) -> Vec<VariantChoice> {
    product
        .variants
        .iter()
        .map(|v| VariantChoice {
            colour: v.colour,
            id: v.id,
            length: v.length,
            purchasable: !v.purchasing_disabled,
            size: v.size,
        })
        .collect()
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ColourChoice<'a> {
    label: &'a str,
    selected: bool,
    swatch: &'a Option<String>,
    url: String,
    value_id: Option<u64>,
}

#[derive(Serialize)]
struct OptionChoice<'a> {
    id: u64,
    label: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct OptionsProps<'a> {
    colour_label: &'static str,
    colour_value_id: Option<u64>,
    colours: Vec<ColourChoice<'a>>,
    is_gift_card: bool,
    lengths: Vec<OptionChoice<'a>>,
    name: &'a str,
    product_id: u64,
    size_guide_url: String,
    sizes: Vec<OptionChoice<'a>>,
    style_code: &'a str,
    variants: &'a [VariantChoice],
}

/// The props of colourway `wi`'s page in `market`: its colours (this one selected), the sizes and
/// lengths this colourway comes in, and every variant.
pub fn options_props(
    product: &Product,
    wi: usize,
    market: &Market,
    colour_label: &'static str,
    variants: &[VariantChoice],
) -> PreparedProps {
    let way = &product.colourways[wi];
    // A size or length is offered when one of this colourway's variants has it.
    let offered = |kind: OptionKind| -> Vec<OptionChoice> {
        product
            .option(kind)
            .map(|o| {
                o.values
                    .iter()
                    .filter(|v| {
                        way.variant_ids.iter().any(|vid| {
                            product.variants.iter().any(|var| {
                                var.id == *vid
                                    && match kind {
                                        OptionKind::Size => var.size == Some(v.id),
                                        OptionKind::Length => var.length == Some(v.id),
                                        _ => false,
                                    }
                            })
                        })
                    })
                    .map(|v| OptionChoice {
                        id: v.id,
                        label: &v.label,
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    PreparedProps::new(&OptionsProps {
        colour_label,
        colour_value_id: way.value_id,
        colours: product
            .colourways
            .iter()
            .enumerate()
            .map(|(i, c)| ColourChoice {
                label: &c.label,
                selected: i == wi,
                swatch: &c.swatch,
                url: colourway_url(market, product, c),
                value_id: c.value_id,
            })
            .collect(),
        is_gift_card: product.is_gift_card,
        lengths: offered(OptionKind::Length),
        name: &product.name,
        product_id: product.id,
        size_guide_url: market.path("/size-guide"),
        sizes: offered(OptionKind::Size),
        style_code: &product.style_code,
        variants,
    })
}
