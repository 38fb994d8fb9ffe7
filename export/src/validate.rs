//! The one validation step of an export: its parsed files (from disk or from a daemon's source
//! model) into the validated catalog, content and shop finder a build renders.

use domain::catalog::{Catalog, CatalogExport};
use domain::content::{Content, ContentSource};
use domain::error::LoadErrors;
use domain::shops::ShopFinder;
use std::path::PathBuf;
use std::sync::Arc;

/// The validated inputs of a build.
pub struct Inputs {
    pub catalog: Arc<Catalog>,
    pub content: Content,
    /// `DIR/media`, copied to `public/media`, when present.
    pub media_dir: Option<PathBuf>,
    /// The shops and the gazetteer of the shop finder (empty when the export has none).
    pub shops: Arc<ShopFinder>,
}

/// Validates the parsed export into a build's inputs; the shop finder comes from `shops`, called
/// after the catalog and the content are validated. Every problem of all three is returned
/// (catalog, then content, then shops), each naming file, item and field.
pub fn validate(
    catalog: CatalogExport,
    content: Vec<ContentSource>,
    shops: impl FnOnce() -> Result<Arc<ShopFinder>, LoadErrors>,
    media_dir: Option<PathBuf>,
) -> Result<Inputs, LoadErrors> {
    let catalog = Catalog::from_export(catalog);
    let content = Content::from_sources(content);
    match (catalog, content, shops()) {
        (Ok(catalog), Ok(content), Ok(shops)) => Ok(Inputs {
            catalog: Arc::new(catalog),
            content,
            media_dir,
            shops,
        }),
        (catalog, content, shops) => {
            let mut errors = LoadErrors::default();
            if let Err(e) = catalog {
                errors.extend(e);
            }
            if let Err(e) = content {
                errors.extend(e);
            }
            if let Err(e) = shops {
                errors.extend(e);
            }
            Err(errors)
        }
    }
}
