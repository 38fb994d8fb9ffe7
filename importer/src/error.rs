//! The importer's errors. Each names what was being fetched (method and URL, or the item) and why,
//! so that an operator can tell a bad credential from a broken source from a bad record.

use domain::error::LoadErrors;

#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error("configuration: {var}: {why}")]
    Config { var: &'static str, why: String },
    #[error("{method} {url}: {why}")]
    Http {
        method: &'static str,
        url: String,
        why: String,
    },
    #[error("{method} {url}: {item}: {field}: {why}")]
    Response {
        method: &'static str,
        url: String,
        item: String,
        field: String,
        why: String,
    },
    #[error("{path}: {why}")]
    Io { path: String, why: String },
    #[error("the imported export is invalid; the previous cache is kept:\n{0}")]
    Invalid(LoadErrors),
}

impl ImportError {
    pub(crate) fn io(path: &std::path::Path, action: &str, e: std::io::Error) -> Self {
        ImportError::Io {
            path: path.display().to_string(),
            why: format!("cannot {action}: {e}"),
        }
    }
}
