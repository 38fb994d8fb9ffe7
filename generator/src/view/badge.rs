//! The badge a product shows on its card and its page.

use domain::catalog::Product;
/// The card's badge type (the search records carry cards) is the page's too.
pub use search::CardBadge as BadgeView;

/// Red "Sale" badge: a sale item always shows it.
fn sale_badge() -> BadgeView {
    BadgeView {
        name: "Sale".into(),
        text_colour: "#ffffff".into(),
        background_colour: "#c8102e".into(),
    }
}

/// Badge precedence: sale, then the product's badge data, then its product_badge field, else none.
pub fn badge_for(product: &Product, on_sale: bool) -> Option<BadgeView> {
    if on_sale {
        return Some(sale_badge());
    }
    if let Some(b) = &product.badge {
        return Some(BadgeView {
            name: b.name.clone(),
            text_colour: b.text_colour.clone(),
            background_colour: b.background_colour.clone(),
        });
    }
    product.product_badge.as_ref().map(|name| BadgeView {
        name: name.clone(),
        text_colour: "#ffffff".into(),
        background_colour: "#1d1d1b".into(),
    })
}
