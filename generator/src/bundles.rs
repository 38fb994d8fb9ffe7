//! The island bundles built by Vite: reads `site-src/dist/.vite/manifest.json` to find the hashed
//! entry script, its CSS, and the stylesheets of each island's chunks, which the pages carrying the
//! island link.

use serde::Deserialize;
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub const ENTRY: &str = "src/main.ts";

#[derive(Debug, Deserialize)]
struct ManifestChunk {
    file: String,
    #[serde(default)]
    css: Vec<String>,
    #[serde(default)]
    imports: Vec<String>,
}

#[derive(Debug, Clone)]
pub struct Bundles {
    /// Directory holding `assets/`, copied to `public/assets/`.
    pub dist_dir: PathBuf,
    pub entry: String,
    pub css: Vec<String>,
    /// Island name → the stylesheets its chunks import (a page's own styles, such as the shop
    /// finder's), linked in the head of the pages that carry the island: styled before and without
    /// JavaScript, and kept out of the stylesheet every page loads.
    pub island_styles: HashMap<String, Vec<String>>,
    /// Raw manifest bytes: part of every page's fingerprint.
    pub manifest_bytes: Vec<u8>,
}

#[derive(Debug, thiserror::Error)]
pub enum BundleError {
    #[error(
        "{path}: the island bundles are not built ({source}); run `npm --prefix site-src run build` first"
    )]
    Missing {
        path: String,
        source: std::io::Error,
    },
    #[error("{path}: malformed Vite manifest: {source}")]
    Malformed {
        path: String,
        source: serde_json::Error,
    },
    #[error("{path}: the Vite manifest has no entry {ENTRY}")]
    NoEntry { path: String },
}

/// `HeaderActions` ← `src/islands/header-actions.tsx`.
fn island_name(src: &str) -> Option<String> {
    let stem = src.strip_prefix("src/islands/")?.strip_suffix(".tsx")?;
    if stem.contains('/') || stem == "registry" {
        return None;
    }
    Some(
        stem.split('-')
            .map(|w| {
                let mut c = w.chars();
                c.next()
                    .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                    .unwrap_or_default()
            })
            .collect(),
    )
}

/// `HeaderActions` → `header-actions`.
pub fn kebab(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for (i, c) in name.chars().enumerate() {
        if c.is_ascii_uppercase() {
            if i > 0 {
                out.push('-');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

impl Bundles {
    pub fn load(dist_dir: &Path) -> Result<Bundles, BundleError> {
        let path = dist_dir.join(".vite/manifest.json");
        let shown = path.display().to_string();
        let bytes = std::fs::read(&path).map_err(|source| BundleError::Missing {
            path: shown.clone(),
            source,
        })?;
        let manifest: BTreeMap<String, ManifestChunk> =
            serde_json::from_slice(&bytes).map_err(|source| BundleError::Malformed {
                path: shown.clone(),
                source,
            })?;
        let entry = manifest
            .get(ENTRY)
            .ok_or(BundleError::NoEntry { path: shown })?;
        let url = |file: &str| format!("/{file}");
        let mut island_styles = HashMap::new();
        for (key, chunk) in &manifest {
            if let Some(name) = island_name(key) {
                let mut visited = vec![url(&chunk.file)];
                let mut styles: Vec<String> = chunk.css.iter().map(|c| url(c)).collect();
                let mut stack: Vec<&String> = chunk.imports.iter().collect();
                while let Some(import) = stack.pop() {
                    if let Some(dep) = manifest.get(import) {
                        let u = url(&dep.file);
                        if !visited.contains(&u) && dep.file != entry.file {
                            visited.push(u);
                            styles.extend(
                                dep.css
                                    .iter()
                                    .map(|c| url(c))
                                    .filter(|c| !entry.css.iter().any(|e| url(e) == *c)),
                            );
                            stack.extend(dep.imports.iter());
                        }
                    }
                }
                styles.dedup();
                if !styles.is_empty() {
                    island_styles.insert(name.clone(), styles);
                }
            }
        }
        Ok(Bundles {
            dist_dir: dist_dir.to_path_buf(),
            entry: url(&entry.file),
            css: entry.css.iter().map(|c| url(c)).collect(),
            island_styles,
            manifest_bytes: bytes,
        })
    }

    /// A `<link rel="stylesheet">` for each stylesheet of `islands` (a page's, as rendered)
    /// (which Vite's loader then finds in place and does not load again). Island chunks are not
    /// preloaded: on a phone's connection their downloads took bandwidth from the first paint's
    /// stylesheet and the largest picture (docs/decisions.md "Nothing preloaded").
    pub fn island_style_tags(&self, islands: &[Arc<str>]) -> String {
        let mut seen: Vec<&str> = Vec::new();
        let mut tags = String::new();
        for name in islands {
            for u in self.island_styles.get(&**name).into_iter().flatten() {
                if !seen.contains(&u.as_str()) {
                    seen.push(u);
                    tags.push_str(&format!("<link rel=\"stylesheet\" href=\"{u}\">"));
                }
            }
        }
        tags
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn island_names_map_to_files_and_back() {
        assert_eq!(
            island_name("src/islands/header-actions.tsx").as_deref(),
            Some("HeaderActions")
        );
        assert_eq!(island_name("src/islands/registry.tsx"), None);
        assert_eq!(island_name("src/lib/store.ts"), None);
        assert_eq!(kebab("ProductOptions"), "product-options");
    }
}
