//! What the index holds about one product in one market: the searchable text, the listing
//! attributes (categories, collections, colours, sizes, price, age, sort order) and the card the
//! listing island renders. The generator produces these; the index and the API only read them.

use serde::{Deserialize, Serialize};

/// One product as one market sees it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProductRecord {
    pub id: u64,
    pub sku: String,
    pub name: String,
    /// The merchandiser's sort order: with `created` and `id`, the featured order (a key, not a
    /// rank, so removing one product does not change every other product's record).
    pub sort_order: i64,
    /// `date_created` as exported (ISO 8601 sorts as text).
    pub created: String,
    /// Every category the product is listed in, ancestors included.
    pub categories: Vec<u64>,
    /// Names of those categories, searchable ("dress" finds the Dresses category's products).
    pub category_names: Vec<String>,
    /// Collections holding the product, with its position in the editor's order.
    pub collections: Vec<(u64, u32)>,
    /// Colourways, the card's default one first.
    pub colourways: Vec<ColourwayRecord>,
    /// Size labels the product offers.
    pub sizes: Vec<String>,
    /// The card's current price (sale price when on sale), minor units: price sort and range.
    pub price_minor: i64,
    /// The product card exactly as the static pages render it (docs/templates.md `card`).
    pub card: Card,
}

/// A product card: what `macros/card.html` prints and the listing island renders. The fields are
/// in name order, so its JSON is the same, byte for byte, as the card object's was.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Card {
    pub badge: Option<CardBadge>,
    /// How many colours the product comes in (the swatches shown may be fewer).
    pub colour_count: usize,
    pub id: u64,
    pub image: CardImage,
    pub name: String,
    /// "20% off" style text when on sale.
    pub percent_off: Option<String>,
    /// Formatted in the market's currency, as every price the shopper sees.
    pub price: String,
    pub price_hidden: bool,
    pub sale_price: Option<String>,
    pub secondary_image: Option<CardImage>,
    pub swatches: Vec<CardSwatch>,
    pub url: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CardImage {
    pub alt: String,
    pub src: String,
}

/// One colour on a card: its swatch, and the colourway's page and first image.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CardSwatch {
    pub image: String,
    pub label: String,
    pub swatch: Option<String>,
    pub url: String,
}

/// The badge a product shows on its card and its page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CardBadge {
    pub background_colour: String,
    pub name: String,
    pub text_colour: String,
}

/// One colour of a product, as a search hit shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ColourwayRecord {
    pub label: String,
    /// Swatch colour (`#1d1d1b`) for the Color facet.
    pub swatch: Option<String>,
    /// The colourway's first variant: what "variation_id" names in a search hit.
    pub variation_id: Option<u64>,
    pub url: String,
    pub image_url: String,
    pub original_price_minor: i64,
    pub sale_price_minor: Option<i64>,
}

impl ProductRecord {
    /// Fingerprint of everything the index stores about the product: an unchanged fingerprint
    /// means the product's documents need no rewrite.
    pub fn fingerprint(&self) -> String {
        let bytes = serde_json::to_vec(self).expect("records serialise");
        blake3::hash(&bytes).to_hex().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pages embed cards as JSON (the listing island's props) and the index stores them: the
    /// keys must stay in name order, as they were when the card was a sorted JSON object.
    #[test]
    fn a_card_serialises_with_its_keys_in_name_order() {
        let card = Card {
            badge: Some(CardBadge {
                background_colour: "#c8102e".into(),
                name: "Sale".into(),
                text_colour: "#ffffff".into(),
            }),
            colour_count: 2,
            id: 7,
            image: CardImage {
                alt: "Front".into(),
                src: "/media/a.jpg".into(),
            },
            name: "Wrap Dress".into(),
            percent_off: Some("25% off".into()),
            price: "£40.00".into(),
            price_hidden: false,
            sale_price: Some("£30.00".into()),
            secondary_image: None,
            swatches: vec![CardSwatch {
                image: "/media/a.jpg".into(),
                label: "Black".into(),
                swatch: None,
                url: "/p/7/wrap-dress/Black".into(),
            }],
            url: "/p/7/wrap-dress/Black".into(),
        };
        let json = serde_json::to_string(&card).unwrap();
        assert_eq!(
            json,
            r##"{"badge":{"background_colour":"#c8102e","name":"Sale","text_colour":"#ffffff"},"colour_count":2,"id":7,"image":{"alt":"Front","src":"/media/a.jpg"},"name":"Wrap Dress","percent_off":"25% off","price":"£40.00","price_hidden":false,"sale_price":"£30.00","secondary_image":null,"swatches":[{"image":"/media/a.jpg","label":"Black","swatch":null,"url":"/p/7/wrap-dress/Black"}],"url":"/p/7/wrap-dress/Black"}"##
        );
        // The same as the sorted object the card used to be.
        let sorted: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(serde_json::to_string(&sorted).unwrap(), json);
    }
}
