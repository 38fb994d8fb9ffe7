//! Content-Security-Policy sources for HolyHandGrenade blocks: the `'sha256-…'` hash source of an
//! inline script or style, so a policy can allow exactly the editors' inline code on the pages that
//! carry it instead of `'unsafe-inline'` (docs/content-blocks.md).

use base64::Engine;
use sha2::{Digest, Sha256};

/// The CSP hash source (`'sha256-…'`) of an inline script or style's exact text.
pub fn hash_source(text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    format!(
        "'sha256-{}'",
        base64::engine::general_purpose::STANDARD.encode(digest)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csp_hash_sources_match_the_browser_examples() {
        // The example of MDN's CSP script-src page.
        assert_eq!(
            hash_source("alert('Hello, world.');"),
            "'sha256-qznLcsROx4GACP2dm0UCKCzCG+HiZ1guq6ZZDob/Tng='"
        );
        assert_eq!(
            hash_source(""),
            "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='"
        );
    }
}
