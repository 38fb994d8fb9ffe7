//! Helpers shared by the integration tests: build the sample store (or a modified copy of it) into
//! a temporary directory and read its output; send raw HTTP/1.1 requests to a server on loopback.
#![allow(dead_code)]

pub mod hosts;

use generator::{BuildOptions, BuildReport};
use std::path::{Path, PathBuf};
use tempfile::TempDir;

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn sample_export() -> PathBuf {
    repo().join("fixtures/sample")
}

pub struct Site {
    pub dir: TempDir,
    pub export: PathBuf,
}

impl Site {
    pub fn public(&self) -> PathBuf {
        self.dir.path().join("public")
    }

    pub fn options(&self) -> BuildOptions {
        BuildOptions {
            export_dir: self.export.clone(),
            templates_dir: repo().join("site-src/templates"),
            bundles_dir: repo().join("site-src/dist"),
            public_dir: self.public(),
            cache_dir: self.dir.path().join("cache"),
            progress: false,
            plain_tree: false,
            file_digests: false,
        }
    }

    pub fn build(&self) -> Result<BuildReport, generator::BuildError> {
        generator::build(&self.options(), generator::BuildFrom::Export)
    }

    /// A build that makes every directory of a new generation (borrowing none).
    pub fn build_plain(&self) -> Result<BuildReport, generator::BuildError> {
        let opts = BuildOptions {
            plain_tree: true,
            ..self.options()
        };
        generator::build(&opts, generator::BuildFrom::Export)
    }

    pub fn read(&self, url_path: &str) -> String {
        let file = generator::plan::file_for(url_path);
        std::fs::read_to_string(self.public().join(&file))
            .unwrap_or_else(|e| panic!("{url_path} ({file}): {e}"))
    }

    pub fn exists(&self, url_path: &str) -> bool {
        self.public()
            .join(generator::plan::file_for(url_path))
            .is_file()
    }

    /// The live generation directory the public symlink points at.
    pub fn live(&self) -> PathBuf {
        std::fs::canonicalize(self.public()).expect("public resolves")
    }
}

/// A site built from the sample store as it is in the repository.
pub fn built_sample() -> Site {
    let site = Site {
        dir: tempfile::tempdir().expect("temp dir"),
        export: sample_export(),
    };
    site.build()
        .unwrap_or_else(|e| panic!("sample store builds: {e}"));
    site
}

/// A site whose export is a private copy of the sample store, for tests that change it.
pub fn copied_sample() -> Site {
    let dir = tempfile::tempdir().expect("temp dir");
    let export = dir.path().join("export");
    copy_dir(&sample_export(), &export);
    Site { dir, export }
}

/// Builds a broken copy of the sample store and returns the error text, after checking that
/// nothing was written.
pub fn build_error(break_it: impl FnOnce(&std::path::Path)) -> String {
    let site = copied_sample();
    break_it(&site.export);
    let err = site
        .build()
        .expect_err("a broken export must not build")
        .to_string();
    assert!(
        !site.public().exists(),
        "nothing is written when the export is invalid"
    );
    let gens = site.dir.path().join("cache/generations");
    assert!(
        !gens.exists() || std::fs::read_dir(&gens).unwrap().next().is_none(),
        "no generation left behind"
    );
    err
}

pub fn copy_dir(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.expect("walk");
        let target = to.join(entry.path().strip_prefix(from).expect("prefix"));
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).expect("mkdir");
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// Raises by one the price of the export's product at `index` (a change that rewrites that
/// product's pages and the pages showing its card).
pub fn raise_price_of(export: &Path, index: usize) {
    edit_json(export, "catalog/products.json", |d| {
        let p = &mut d["data"][index];
        p["price"] = serde_json::json!(p["price"].as_f64().unwrap() + 1.0);
    });
}

/// Edits a JSON file of the export in place.
pub fn edit_json(export: &Path, file: &str, edit: impl FnOnce(&mut serde_json::Value)) {
    let path = export.join(file);
    let mut doc: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&path).expect("read")).expect("json");
    edit(&mut doc);
    std::fs::write(&path, serde_json::to_vec_pretty(&doc).expect("serialise")).expect("write");
}

/// Every file below the live site with its inode, to see which were rewritten.
pub fn snapshot_files(root: &Path) -> std::collections::BTreeMap<String, u64> {
    use std::os::unix::fs::MetadataExt;
    let root = std::fs::canonicalize(root).expect("root");
    // Borrowed directories are symlinks into another generation: followed, like any reader.
    walkdir::WalkDir::new(&root)
        .follow_links(true)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(|e| {
            (
                e.path()
                    .strip_prefix(&root)
                    .unwrap()
                    .to_string_lossy()
                    .to_string(),
                e.metadata().unwrap().ino(),
            )
        })
        .collect()
}

/// The `content` of the first `<meta name|property=key>` or the href of `<link rel=key>`.
pub fn attr_after<'a>(html: &'a str, marker: &str, attr: &str) -> Option<&'a str> {
    let start = html.find(marker)?;
    let tag_end = html[start..].find('>')? + start;
    let tag = &html[start..tag_end];
    let a = tag.find(&format!("{attr}=\""))? + attr.len() + 2;
    let end = tag[a..].find('"')? + a;
    Some(&tag[a..end])
}

pub use loopback::Response as Reply;

/// `GET target` over a fresh connection, with extra request headers, read to the end: the bytes
/// exactly as the server sent them (never decompressed), and a Content-Length checked against them.
pub async fn raw_get(addr: std::net::SocketAddr, target: &str, headers: &[(&str, &str)]) -> Reply {
    raw_request(addr, "GET", target, headers, b"").await
}

/// As `raw_get`, for any method, with `body` sent (and its Content-Length) when it is not empty.
pub async fn raw_request(
    addr: std::net::SocketAddr,
    method: &str,
    target: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Reply {
    let reply = loopback::Request::new(method, target)
        .headers(headers)
        .body(body)
        .send(addr)
        .await
        .unwrap();
    if let Some(len) = reply.header("content-length") {
        assert_eq!(
            len.parse::<usize>().unwrap(),
            reply.body.len(),
            "{target}: Content-Length matches the bytes sent"
        );
    }
    reply
}
