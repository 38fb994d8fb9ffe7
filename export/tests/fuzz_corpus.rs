//! The export fuzz targets' findings as regression tests: every input in fuzz/regressions/export_*
//! goes through the same entry point as the fuzzer (fuzz/harness/export.rs) without a panic.

#[path = "../../fuzz/harness/export.rs"]
mod harness;

#[path = "../../fuzz/harness/replay.rs"]
mod replay;

/// Every input of `fuzz/regressions/{target}` through `entry`, its outcome checked.
fn replay(target: &str, entry: fn(&[u8]) -> harness::Outcome) -> usize {
    replay::replay(target, entry, |o| harness::check_errors(&o))
}

#[test]
fn the_base_export_of_the_harness_is_valid() {
    harness::base_is_valid().unwrap();
}

#[test]
fn products_regressions() {
    replay("export_products", harness::products);
}

#[test]
fn price_list_regressions() {
    replay("export_price_lists", harness::price_lists);
}

#[test]
fn content_regressions() {
    replay("export_content", harness::content);
}

#[test]
fn other_catalog_file_regressions() {
    replay("export_catalog", harness::catalog_file);
}

/// Found while fuzzing: a top-level category whose url is "/browse/" itself panicked (a segment
/// sliced from after its end); it is now an error on that category's url.
#[test]
fn a_category_url_that_is_only_its_prefix_is_an_error() {
    let input =
        include_bytes!("../../fuzz/regressions/export_catalog/category-url-is-only-the-prefix");
    let errors = harness::catalog_file(input).unwrap_err();
    let e = errors
        .0
        .iter()
        .find(|e| e.field == "url")
        .expect("an error on the url");
    assert_eq!(
        (e.file.as_str(), e.item.as_str()),
        ("catalog/categories.json", "category 1"),
        "{e}"
    );
}
