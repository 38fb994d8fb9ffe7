//! Breadcrumb trails: every trail starts at the market's home page, and a category's trail (its
//! ancestors from the root down, then itself) is built here only.

use domain::catalog::{Catalog, Category};
use domain::market::Market;
use serde::Serialize;

#[derive(Serialize, Clone)]
pub struct Crumb {
    pub name: String,
    pub url: String,
}

/// The trail of a page directly below home: home, then the page.
pub fn below_home(market: &Market, name: &str, url: String) -> Vec<Crumb> {
    vec![
        home(market),
        Crumb {
            name: name.to_string(),
            url,
        },
    ]
}

/// The trail of a category's page: home, the category's ancestors from the root down (those the
/// catalog holds), then the category.
pub fn category_trail(catalog: &Catalog, market: &Market, category: &Category) -> Vec<Crumb> {
    let mut crumbs = vec![home(market)];
    crumbs.extend(
        category
            .ancestors
            .iter()
            .filter_map(|id| catalog.category(*id))
            .chain(std::iter::once(category))
            .map(|c| Crumb {
                name: c.name.clone(),
                url: market.path(&c.path),
            }),
    );
    crumbs
}

/// The market's home page, where every trail starts.
pub fn home(market: &Market) -> Crumb {
    Crumb {
        name: "Home".into(),
        url: market.path("/"),
    }
}
