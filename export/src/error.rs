//! The one error of reading export data: which source (file or service) failed, and why.

#[derive(Debug, thiserror::Error)]
#[error("{source_name}: {why}")]
pub struct FetchError {
    pub source_name: String,
    pub why: String,
}
