//! The export fuzz targets' findings as regression tests: every input in fuzz/regressions/export_*
//! goes through the same entry point as the fuzzer (fuzz/harness/export.rs) without a panic.

#[path = "../../fuzz/harness/export.rs"]
mod harness;

use std::path::Path;

/// Runs `entry` on every file of `fuzz/regressions/{target}`; returns how many there were.
fn replay(target: &str, entry: fn(&[u8]) -> harness::Outcome) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz/regressions")
        .join(target);
    let mut count = 0;
    for file in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = file.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        // A panic inside names the input that caused it.
        let outcome = std::panic::catch_unwind(|| entry(&bytes))
            .unwrap_or_else(|_| panic!("{} panicked", path.display()));
        harness::check_errors(&outcome);
        count += 1;
    }
    assert!(count > 0, "no regression inputs in {}", dir.display());
    count
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
