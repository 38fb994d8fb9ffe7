//! Island bundles: a page links the stylesheets of the islands it carries, once.

use generator::bundles::Bundles;

#[test]
fn a_page_links_the_stylesheets_of_its_islands_once_and_no_others() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join(".vite")).unwrap();
    std::fs::write(
        dir.path().join(".vite/manifest.json"),
        r#"{
          "src/main.ts": {"file": "assets/main.js", "css": ["assets/main.css"]},
          "src/islands/shop-finder.tsx": {"file": "assets/shop-finder.js", "css": ["assets/shop-finder.css"], "imports": ["_shared.js"]},
          "_shared.js": {"file": "assets/shared.js", "css": ["assets/main.css"]},
          "src/islands/header-actions.tsx": {"file": "assets/header-actions.js", "imports": ["_shared.js"]},
          "src/islands/listing.tsx": {"file": "assets/listing.js", "imports": ["_shared.js"]}
        }"#,
    )
    .unwrap();
    let bundles = Bundles::load(dir.path()).unwrap();
    let names = |list: &[&str]| list.iter().map(|n| (*n).into()).collect::<Vec<_>>();
    let tags = bundles.island_style_tags(&names(&[
        "ShopFinder",
        "ShopFinder",
        "HeaderActions",
        "Listing",
    ]));
    // Every island's own stylesheet, once; no chunk is preloaded.
    assert_eq!(
        tags,
        r#"<link rel="stylesheet" href="/assets/shop-finder.css">"#
    );
    assert!(
        !bundles
            .island_style_tags(&names(&["Listing"]))
            .contains("stylesheet")
    );
}
