//! What a cart request may carry, and its checks against the catalog: quantities, variants,
//! option selections and gift-card modifiers (the hidden uid is the server's).

use crate::error::{ApiError, ApiResult};
use crate::fields::is_email;
use crate::store::random_id;
use domain::catalog::{Catalog, OptionKind};
use serde::Deserialize;
use std::collections::HashMap;
use utoipa::ToSchema;

use crate::bag::LineOption;

/// Largest quantity of one line; anything above is a typo or an attack, not a basket.
pub const MAX_QUANTITY: i64 = 999;

// ---- request bodies ------------------------------------------------------------------------

#[derive(Deserialize, ToSchema, Default)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({}))]
pub struct CreateCart {}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"line_items": [{"product_id": 101, "variant_id": 10001, "quantity": 1}]}))]
pub struct AddItems {
    pub line_items: Vec<NewLine>,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewLine {
    pub product_id: u64,
    pub variant_id: u64,
    pub quantity: i64,
    #[serde(default)]
    pub option_selections: Vec<OptionSelection>,
}

/// An option (value id) or a modifier (text) the shopper chose.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct OptionSelection {
    pub option_id: u64,
    #[schema(value_type = Object)]
    pub option_value: serde_json::Value,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"quantity": 2}))]
pub struct UpdateItem {
    pub quantity: i64,
}

// ---- validation ----------------------------------------------------------------------------

pub fn check_quantity(field: &str, quantity: i64) -> ApiResult<()> {
    if (1..=MAX_QUANTITY).contains(&quantity) {
        Ok(())
    } else {
        Err(ApiError::field(
            field,
            format!("must be a whole number from 1 to {MAX_QUANTITY}"),
        ))
    }
}

/// A line checked against the catalog, with the modifier values to store.
pub(super) struct ValidLine {
    pub(super) product_id: u64,
    pub(super) variant_id: u64,
    pub(super) quantity: i64,
    pub(super) gift_card: bool,
    pub(super) stored_options: Vec<LineOption>,
}

pub(super) fn validate_line(catalog: &Catalog, line: &NewLine, i: usize) -> ApiResult<ValidLine> {
    let at = |f: &str| format!("line_items[{i}].{f}");
    check_quantity(&at("quantity"), line.quantity)?;
    let product = catalog
        .product(line.product_id)
        .ok_or_else(|| ApiError::field(at("product_id"), "is not a product in the catalog"))?;
    let variant = product
        .variants
        .iter()
        .find(|v| v.id == line.variant_id)
        .ok_or_else(|| ApiError::field(at("variant_id"), "is not a variant of this product"))?;
    if variant.purchasing_disabled {
        return Err(ApiError::field(
            at("variant_id"),
            "is not available for purchase",
        ));
    }
    let mut modifiers: HashMap<u64, String> = HashMap::new();
    for (j, sel) in line.option_selections.iter().enumerate() {
        let field = at(&format!("option_selections[{j}].option_value"));
        if let Some(option) = product.options.iter().find(|o| o.id == sel.option_id) {
            // An option selection must agree with the variant: the variant decides the price.
            let chosen = match option.kind {
                OptionKind::Colour => variant.colour,
                OptionKind::Size => variant.size,
                OptionKind::Length => variant.length,
                OptionKind::Other => variant
                    .other_options
                    .iter()
                    .find(|(o, _)| *o == option.id)
                    .map(|(_, v)| *v),
            };
            if sel.option_value.as_u64() != chosen {
                return Err(ApiError::field(field, "does not match the variant"));
            }
        } else if let Some(modifier) = product.modifiers.iter().find(|m| m.id == sel.option_id) {
            if modifier.kind == "hidden" {
                return Err(ApiError::field(field, "is set by the server"));
            }
            let text = sel
                .option_value
                .as_str()
                .ok_or_else(|| ApiError::field(&field, "must be text"))?
                .trim();
            if text.len() > 500 {
                return Err(ApiError::field(field, "must be at most 500 characters"));
            }
            if modifier.display_name.to_lowercase().contains("email")
                && !text.is_empty()
                && !is_email(text)
            {
                return Err(ApiError::field(field, "must be a valid email address"));
            }
            if modifiers.insert(modifier.id, text.to_string()).is_some() {
                return Err(ApiError::field(field, "is chosen twice"));
            }
        } else {
            return Err(ApiError::field(
                at(&format!("option_selections[{j}].option_id")),
                "is not an option of this product",
            ));
        }
    }
    let mut stored = Vec::new();
    for m in &product.modifiers {
        let value = if m.kind == "hidden" && m.display_name.eq_ignore_ascii_case("uid") {
            // The spec's timestamp-and-random uid, which makes every gift card its own line.
            Some(format!("{}-{}", crate::store::now(), random_id(6)))
        } else {
            modifiers.remove(&m.id).filter(|v| !v.is_empty())
        };
        match value {
            Some(value) => stored.push(LineOption {
                name: m.display_name.clone(),
                nameId: m.id,
                value,
                valueId: None,
            }),
            None if m.required => {
                return Err(ApiError::field(
                    at("option_selections"),
                    format!("{} is required", m.display_name),
                ));
            }
            None => {}
        }
    }
    Ok(ValidLine {
        product_id: product.id,
        variant_id: variant.id,
        quantity: line.quantity,
        gift_card: product.is_gift_card,
        stored_options: stored,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantities_outside_1_to_999_are_refused() {
        for q in [0, -1, 1000, 1 << 31] {
            assert!(check_quantity("quantity", q).is_err(), "{q}");
        }
        assert!(check_quantity("quantity", 1).is_ok());
        assert!(check_quantity("quantity", 999).is_ok());
    }
}
