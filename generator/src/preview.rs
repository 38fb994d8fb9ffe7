//! Renders one page on demand, for the content preview route: the same plan, templates and blocks
//! as a build, for inputs that carry the previewed (staging) content item. Nothing is written.

use crate::build::BuildError;
use crate::bundles::Bundles;
use crate::context::Shared;
use crate::plan::{PlanInputs, plan};
use crate::render::Templates;
use crate::site::SiteModel;
use domain::market::MARKETS;
use export::Inputs;

/// The page URL a content item is shown at: its market's page for a content page, the market's
/// home page for everything else (navigation, header, footer and other chrome show on every page).
pub fn url_for_delivery_key(key: &str) -> Option<String> {
    let market = MARKETS.iter().find(|m| key.starts_with(m.content_prefix))?;
    let slug = &key[market.content_prefix.len()..];
    let is_chrome = domain::content::SLOTS.contains(&slug);
    Some(if slug == domain::content::HOME_KEY || is_chrome {
        market.path("/")
    } else {
        market.path(&format!("/{slug}"))
    })
}

/// The HTML of the page at `url_path`, or `None` when the inputs have no such page.
pub fn render_url(
    inputs: &Inputs,
    templates: &Templates,
    bundles: &Bundles,
    url_path: &str,
) -> Result<Option<String>, BuildError> {
    let site = SiteModel::new(&inputs.catalog);
    // Fingerprints do not matter here: nothing is compared or written.
    let pages = plan(&PlanInputs {
        catalog: &inputs.catalog,
        content: &inputs.content,
        shops: &inputs.shops,
        site: &site,
        global: [[0; 32]; 3],
    })
    .map_err(BuildError::Load)?;
    let Some(page) = pages.iter().find(|p| p.url_path() == url_path) else {
        return Ok(None);
    };
    // Fragments cached by a build describe published content; the preview must not reuse them,
    // and must not leave its own behind for the next build.
    templates.clear_fragments();
    let shared = Shared::new(
        &inputs.catalog,
        &inputs.content,
        &inputs.shops,
        &site,
        bundles,
        templates,
    );
    let html = templates
        .render_page(page.kind.template(), shared.context(page), bundles)
        .map_err(|source| BuildError::Render {
            page: page.url_path(),
            source,
        });
    templates.clear_fragments();
    html.map(Some)
}
