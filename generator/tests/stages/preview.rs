//! The content preview finds the page a content item shows on.

use generator::preview::url_for_delivery_key;

#[test]
fn delivery_keys_map_to_their_pages() {
    assert_eq!(
        url_for_delivery_key("uk/about-us").as_deref(),
        Some("/about-us")
    );
    assert_eq!(
        url_for_delivery_key("us/help/faqs").as_deref(),
        Some("/us/help/faqs")
    );
    assert_eq!(url_for_delivery_key("eu/home").as_deref(), Some("/eu"));
    assert_eq!(url_for_delivery_key("uk/footer").as_deref(), Some("/"));
    assert_eq!(url_for_delivery_key("fr/x"), None);
}
