//! The page plan: a plan reused from the previous build equals a fresh one.

use domain::catalog::Catalog;
use domain::content::Content;
use domain::shops::ShopFinder;
use export::load_export;
use generator::plan::{PlanInputs, PlanMemo, plan, plan_reusing};
use generator::site::{Digest, SiteModel};
use std::sync::Arc;

fn sample() -> export::Inputs {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/sample");
    load_export(&dir).expect("the sample store loads")
}

fn planned(
    catalog: &Arc<Catalog>,
    content: &Content,
    site: &SiteModel,
    memo: Option<&mut PlanMemo>,
) -> Vec<(String, Digest)> {
    let shops = ShopFinder::default();
    let inputs = PlanInputs {
        catalog,
        content,
        shops: &shops,
        site,
        global: [[1; 32], [2; 32], [3; 32]],
    };
    let pages = match memo {
        Some(memo) => plan_reusing(&inputs, memo),
        None => plan(&inputs),
    };
    pages
        .expect("plans")
        .into_iter()
        .map(|p| (p.file.to_string(), p.fingerprint))
        .collect()
}

#[test]
fn a_reused_plan_equals_a_fresh_one_after_a_content_or_a_product_change() {
    let inputs = sample();
    let catalog = inputs.catalog.clone();
    let site = SiteModel::new(&catalog);
    let mut memo = PlanMemo::default();
    let first = planned(&catalog, &inputs.content, &site, Some(&mut memo));
    assert_eq!(first, planned(&catalog, &inputs.content, &site, None));

    // A content change: the same catalog, another about-us page title.
    let mut content = inputs.content.clone();
    let about = content.markets[0]
        .pages
        .iter_mut()
        .find(|p| p.slug == "about-us")
        .expect("the sample store has an about-us page");
    about.title = "About us, edited".into();
    let after_content = planned(&catalog, &content, &site, Some(&mut memo));
    assert_eq!(after_content, planned(&catalog, &content, &site, None));
    assert_ne!(
        after_content, first,
        "the about-us page's fingerprint moved"
    );

    // A product change, as `Catalog::with_products` makes it: every other product shared.
    let mut next = Catalog::clone(&catalog);
    let changed = Arc::make_mut(&mut next.products[3]);
    changed.description_html = "<p>Edited</p>".into();
    let changed_id = changed.id;
    let next = Arc::new(next);
    let next_site = SiteModel::reusing(&next, Some((&catalog, &Arc::new(site.clone()))));
    let after_product = planned(&next, &content, &next_site, Some(&mut memo));
    assert_eq!(after_product, planned(&next, &content, &next_site, None));
    let moved: Vec<&String> = after_content
        .iter()
        .zip(&after_product)
        .filter(|(a, b)| a != b)
        .map(|(_, (file, _))| file)
        .collect();
    assert!(
        moved
            .iter()
            .any(|f| f.starts_with(&format!("p/{changed_id}/"))),
        "{moved:?}"
    );
    assert!(moved.len() < after_product.len() / 2, "{moved:?}");
}
