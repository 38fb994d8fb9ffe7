//! What a deploy lists: every file of the live site with the SHA-1 of its bytes (taken from the
//! build manifest; only files a build did not hash are read) plus the `_redirects` and `_headers`
//! generated from netlify.toml, and where each file's bytes are read from when Netlify asks.

use crate::netlify::NetlifyConfig;
use crate::rebuild::SharedView;
use generator::output::{LiveTree, OutputDirs, fill_missing_sha1, has_every_sha1, sha1_hex};
use std::collections::{BTreeMap, HashSet};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// The live site as a deploy sees it.
pub trait SiteFiles: Send + Sync {
    /// Every file of the live site: relative path → SHA-1 (hex).
    fn list(&self) -> anyhow::Result<BTreeMap<String, String>>;
    /// Where the live site's file `rel` is on disk now.
    fn locate(&self, rel: &str) -> Option<PathBuf>;
}

/// The site a build manifest describes. With a daemon's view, files are located through it
/// (overlay layers included); without one (`storefront deploy`), in the tree the manifest names.
pub struct ManifestFiles {
    dirs: OutputDirs,
    view: Option<SharedView>,
    tree: Mutex<Option<LiveTree>>,
}

impl ManifestFiles {
    pub fn new(dirs: OutputDirs, view: Option<SharedView>) -> ManifestFiles {
        ManifestFiles {
            dirs,
            view,
            tree: Mutex::new(None),
        }
    }
}

impl SiteFiles for ManifestFiles {
    fn list(&self) -> anyhow::Result<BTreeMap<String, String>> {
        let (mut manifest, tree) = self.dirs.previous().ok_or_else(|| {
            anyhow::anyhow!(
                "{}: no build manifest describing the live site; build first",
                self.dirs.manifest_path().display()
            )
        })?;
        if !has_every_sha1(&manifest) {
            // Written by a build that hashes nothing (`storefront build`): the files without a
            // digest are read (a daemon's next full build records them).
            fill_missing_sha1(&mut manifest, &tree)?;
        }
        *self.tree.lock().unwrap_or_else(|e| e.into_inner()) = Some(tree);
        Ok(manifest.sha1)
    }

    fn locate(&self, rel: &str) -> Option<PathBuf> {
        if let Some(view) = &self.view {
            let view = view.read().unwrap_or_else(|e| e.into_inner()).clone();
            return view.dir_of(rel).map(|d| d.join(rel));
        }
        let tree = self.tree.lock().unwrap_or_else(|e| e.into_inner());
        tree.as_ref().map(|t| t.locate(rel))
    }
}

/// A file made for the deploy (not in the site's tree).
#[derive(Debug, Clone)]
pub struct Generated {
    pub sha1: String,
    pub bytes: Arc<Vec<u8>>,
}

/// `_redirects` and `_headers` from netlify.toml, with `${API_ORIGIN}` replaced by `api_origin`.
pub fn generated_files(
    netlify: &NetlifyConfig,
    api_origin: &str,
) -> anyhow::Result<BTreeMap<String, Generated>> {
    let made = [
        (
            "_redirects",
            super::rules::redirects_file(netlify, api_origin)?,
        ),
        ("_headers", super::rules::headers_file(netlify)?),
    ];
    Ok(made
        .into_iter()
        .map(|(path, text)| {
            let bytes = text.into_bytes();
            (
                path.to_string(),
                Generated {
                    sha1: sha1_hex(&bytes),
                    bytes: Arc::new(bytes),
                },
            )
        })
        .collect())
}

/// The files of one deploy: the site's (relative path → SHA-1) and the generated ones, which
/// replace a site file of the same path (the generator's own `_redirects` holds only its rules;
/// netlify.toml's hold them all).
pub struct DeployFiles<'a> {
    pub site: &'a BTreeMap<String, String>,
    pub generated: &'a BTreeMap<String, Generated>,
}

impl DeployFiles<'_> {
    /// Every deployed path with its digest, in path order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        let site = self
            .site
            .iter()
            .filter(|(p, _)| !self.generated.contains_key(*p))
            .map(|(p, d)| (p.as_str(), d.as_str()));
        let generated = self
            .generated
            .iter()
            .map(|(p, g)| (p.as_str(), g.sha1.as_str()));
        site.chain(generated)
    }

    pub fn len(&self) -> usize {
        self.iter().count()
    }

    pub fn is_empty(&self) -> bool {
        self.site.is_empty() && self.generated.is_empty()
    }

    /// The body creating the deploy: `{"files": {"/path": "sha1", ...}, "async": async_}`.
    pub fn create_body(&self, async_: bool) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.site.len() * 96 + 64);
        out.extend_from_slice(b"{\"files\":{");
        for (i, (path, digest)) in self.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            // Writing a string into a Vec cannot fail.
            let _ = serde_json::to_writer(&mut out, &format!("/{path}"));
            out.push(b':');
            let _ = serde_json::to_writer(&mut out, digest);
        }
        out.extend_from_slice(b"},\"async\":");
        out.extend_from_slice(if async_ { b"true" } else { b"false" });
        out.push(b'}');
        out
    }

    /// The paths to upload when Netlify lacks `required` digests: every path with one of them
    /// (two paths with the same bytes are both uploaded, as Netlify's own client does).
    pub fn paths_for(&self, required: &[String]) -> Vec<(String, String)> {
        let required: HashSet<&str> = required.iter().map(String::as_str).collect();
        self.iter()
            .filter(|(_, d)| required.contains(d))
            .map(|(p, d)| (p.to_string(), d.to_string()))
            .collect()
    }
}
