//! Where HolyHandGrenade blocks' scripts and stylesheets are published: as files under
//! `assets/hhg/`, named by the SHA-256 of their text, loaded by `<script src>` and `<link>`.
//! The site-wide Content-Security-Policy (`script-src 'self'`, no `'unsafe-inline'`) then covers
//! editors' code on every page with no per-page header, on Netlify and under `storefront serve`
//! alike (docs/content-blocks.md). A name never changes meaning, so the files are cached as
//! immutable like the bundles.

use sha2::{Digest, Sha256};
use std::fmt::Write;

/// Site-relative path of the file holding `text`; `extension` is `js` or `css`.
pub fn code_path(text: &str, extension: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    // 128 bits of the hash: collisions are out of reach, names stay short.
    let mut name = String::with_capacity(32);
    for byte in &digest[..16] {
        let _ = write!(name, "{byte:02x}");
    }
    format!("assets/hhg/{name}.{extension}")
}

/// The URL of that file (root-relative; assets are shared by every market).
pub fn code_url(text: &str, extension: &str) -> String {
    format!("/{}", code_path(text, extension))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_is_named_by_its_sha256() {
        // SHA-256 computed independently (Python hashlib).
        assert_eq!(
            code_path("alert('Hello, world.');", "js"),
            "assets/hhg/ab39cb72c44ec7818008fd9d9b450228.js"
        );
        assert_eq!(
            code_url("", "css"),
            "/assets/hhg/e3b0c44298fc1c149afbf4c8996fb924.css"
        );
        assert_ne!(code_path("a", "js"), code_path("b", "js"));
    }
}
