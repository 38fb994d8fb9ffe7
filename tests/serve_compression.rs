//! `storefront serve`'s compression over real HTTP on loopback: the production router answers
//! brotli, gzip or identity as the client's Accept-Encoding asks, always with `Vary:
//! Accept-Encoding` and netlify.toml's headers, with per-encoding ETags and 304 on a match, and
//! the decompressed bytes equal the file on disk. Binary files, ranges and rewrites with another
//! status keep their plain behaviour. Pages in directories a rebuild borrowed (symlinks into an
//! earlier generation) are served like the rest.

mod common;

use common::*;
use live_site::netlify::NetlifyConfig;
use live_site::site_server::{SiteFiles, production_router};
use std::io::Read;
use std::sync::Arc;

/// The body as the client reads it, whatever the encoding.
trait Decoded {
    fn decoded(&self) -> Vec<u8>;
}

impl Decoded for Reply {
    fn decoded(&self) -> Vec<u8> {
        let mut out = Vec::new();
        match self.header("content-encoding") {
            Some("br") => {
                brotli::Decompressor::new(&self.body[..], 4096)
                    .read_to_end(&mut out)
                    .unwrap();
            }
            Some("gzip") => {
                flate2::read::GzDecoder::new(&self.body[..])
                    .read_to_end(&mut out)
                    .unwrap();
            }
            None => out = self.body.clone(),
            Some(other) => panic!("unexpected encoding {other}"),
        }
        out
    }
}

async fn get(addr: std::net::SocketAddr, target: &str, headers: &[(&str, &str)]) -> Reply {
    raw_get(addr, target, headers).await
}

fn varies(r: &Reply) -> bool {
    r.headers
        .iter()
        .filter(|(k, _)| k == "vary")
        .any(|(_, v)| v.to_ascii_lowercase().contains("accept-encoding"))
}

/// Serves `app` on a free loopback port, with the connection info the router expects.
async fn listen(app: axum::Router) -> std::net::SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        axum::serve(
            listener,
            app.into_make_service_with_connect_info::<std::net::SocketAddr>(),
        )
        .await
        .unwrap()
    });
    addr
}

async fn serve(site: &Site) -> std::net::SocketAddr {
    let config = Arc::new(NetlifyConfig::load(&repo().join("netlify.toml")).unwrap());
    let api_state = api::AppState::ephemeral(sample_export()).await.unwrap();
    let app = production_router(SiteFiles::Dir(site.public()), config, api_state, None);
    listen(app).await
}

/// A file of the built site with this extension, as (URL path, bytes).
fn file_with(site: &Site, ext: &str, under: &str) -> (String, Vec<u8>) {
    let root = site.live();
    let path = walkdir::WalkDir::new(root.join(under))
        .follow_links(true)
        .into_iter()
        .filter_map(Result::ok)
        .map(|e| e.into_path())
        .find(|p| p.extension().is_some_and(|x| x == ext))
        .unwrap_or_else(|| panic!("a .{ext} file under {under}"));
    let url = format!("/{}", path.strip_prefix(&root).unwrap().display());
    (url, std::fs::read(&path).unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_answers_br_gzip_or_identity_with_vary_etags_and_the_netlify_headers() {
    let site = built_sample();
    let addr = serve(&site).await;
    let home = std::fs::read(site.live().join("index.html")).unwrap();

    let br = get(addr, "/", &[("Accept-Encoding", "gzip, deflate, br, zstd")]).await;
    assert_eq!(br.status, 200);
    assert_eq!(br.header("content-encoding"), Some("br"));
    assert!(varies(&br), "{:?}", br.headers);
    assert!(br.body.len() < home.len() / 2, "compressed well");
    assert_eq!(br.decoded(), home, "brotli decodes to the file");
    assert!(br.header("content-type").unwrap().starts_with("text/html"));
    assert!(br.header("content-security-policy").is_some());
    assert_eq!(
        br.header("cache-control"),
        Some("public, max-age=0, must-revalidate")
    );
    let br_etag = br.header("etag").unwrap().to_string();
    assert!(br_etag.ends_with("-br\""), "{br_etag}");

    let gz = get(addr, "/", &[("Accept-Encoding", "gzip")]).await;
    assert_eq!(gz.status, 200);
    assert_eq!(gz.header("content-encoding"), Some("gzip"));
    assert!(varies(&gz));
    assert_eq!(gz.decoded(), home, "gzip decodes to the file");
    let gz_etag = gz.header("etag").unwrap().to_string();
    assert!(gz_etag.ends_with("-gz\""), "{gz_etag}");

    let plain = get(addr, "/", &[]).await;
    assert_eq!(plain.status, 200);
    assert_eq!(plain.header("content-encoding"), None);
    assert!(
        varies(&plain),
        "identity answers vary too, so caches keep them apart"
    );
    assert_eq!(plain.body, home);
    let plain_etag = plain.header("etag").unwrap().to_string();
    assert_eq!(
        br_etag.trim_end_matches("-br\""),
        plain_etag.trim_end_matches('"'),
        "one content hash, one suffix per encoding"
    );
    // Every header but the encoding-specific ones is the same for each representation.
    for r in [&br, &gz] {
        for (name, value) in &plain.headers {
            if ["content-length", "etag", "date"].contains(&name.as_str()) {
                continue;
            }
            assert_eq!(r.header(name), Some(value.as_str()), "{name}");
        }
    }

    let refused = get(addr, "/", &[("Accept-Encoding", "br;q=0, gzip;q=0")]).await;
    assert_eq!(refused.header("content-encoding"), None);
    let preferred = get(addr, "/", &[("Accept-Encoding", "br;q=0.4, gzip;q=0.9")]).await;
    assert_eq!(preferred.header("content-encoding"), Some("gzip"));

    // Revalidation: the ETag of the representation the client holds.
    let not_modified = get(
        addr,
        "/",
        &[("Accept-Encoding", "br"), ("If-None-Match", &br_etag)],
    )
    .await;
    assert_eq!(not_modified.status, 304);
    assert!(not_modified.body.is_empty());
    assert_eq!(not_modified.header("etag"), Some(br_etag.as_str()));
    assert!(varies(&not_modified));
    assert_eq!(
        not_modified.header("cache-control"),
        Some("public, max-age=0, must-revalidate")
    );
    let other_representation = get(
        addr,
        "/",
        &[("Accept-Encoding", "br"), ("If-None-Match", &plain_etag)],
    )
    .await;
    assert_eq!(other_representation.status, 200);
    assert_eq!(other_representation.decoded(), home);
    // If-None-Match wins over If-Modified-Since (RFC 9110 13.2.2).
    let last_modified = plain.header("last-modified").unwrap().to_string();
    let stale_tag = get(
        addr,
        "/",
        &[
            ("If-None-Match", "\"someone-elses\""),
            ("If-Modified-Since", &last_modified),
        ],
    )
    .await;
    assert_eq!(stale_tag.status, 200);

    // A stylesheet under /assets/: compressed, with the immutable caching of hashed assets.
    let (css_url, css) = file_with(&site, "css", "assets");
    let r = get(addr, &css_url, &[("Accept-Encoding", "br")]).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-encoding"), Some("br"));
    assert_eq!(r.decoded(), css);
    assert_eq!(
        r.header("cache-control"),
        Some("public, max-age=31536000, immutable")
    );
    let (js_url, js) = file_with(&site, "js", "assets");
    let r = get(addr, &js_url, &[("Accept-Encoding", "gzip")]).await;
    assert_eq!(r.header("content-encoding"), Some("gzip"));
    assert_eq!(r.decoded(), js);
    // sitemaps (XML) are text too.
    let sitemap = std::fs::read(site.live().join("sitemap.xml")).unwrap();
    let r = get(addr, "/sitemap.xml", &[("Accept-Encoding", "br")]).await;
    assert_eq!(r.header("content-encoding"), Some("br"));
    assert_eq!(r.decoded(), sitemap);

    // A range is answered from the file as it is.
    let r = get(
        addr,
        "/",
        &[("Accept-Encoding", "br"), ("Range", "bytes=0-99")],
    )
    .await;
    assert_eq!(r.status, 206);
    assert_eq!(r.header("content-encoding"), None);
    assert_eq!(r.body, home[..100]);

    // A rewrite to the 404 page keeps its status and is compressed like any page.
    let missing = std::fs::read(site.live().join("404.html")).unwrap();
    let r = get(
        addr,
        "/no-such-page-anywhere",
        &[("Accept-Encoding", "br"), ("If-None-Match", "*")],
    )
    .await;
    assert_eq!(r.status, 404);
    assert_eq!(r.header("content-encoding"), Some("br"));
    assert_eq!(r.decoded(), missing);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn binary_files_are_served_as_they_are_and_tiny_ones_uncompressed() {
    // The sample store ships only text (SVG images), so a site of its own holds binary files.
    let dir = tempfile::tempdir().unwrap();
    let png: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    std::fs::write(dir.path().join("photo.png"), &png).unwrap();
    std::fs::write(dir.path().join("font.woff2"), &png[..1000]).unwrap();
    std::fs::write(dir.path().join("tiny.txt"), b"ok\n").unwrap();
    let config = Arc::new(NetlifyConfig::load(&repo().join("netlify.toml")).unwrap());
    let api_state = api::AppState::ephemeral(sample_export()).await.unwrap();
    let app = production_router(
        SiteFiles::Dir(dir.path().to_path_buf()),
        config,
        api_state,
        None,
    );
    let addr = listen(app).await;
    for (url, bytes) in [("/photo.png", &png[..]), ("/font.woff2", &png[..1000])] {
        let r = get(addr, url, &[("Accept-Encoding", "br, gzip")]).await;
        assert_eq!(r.status, 200, "{url}");
        assert_eq!(r.header("content-encoding"), None, "{url}");
        assert!(!varies(&r), "{url}: one representation only");
        assert_eq!(r.body, bytes, "{url}");
        assert!(r.header("content-security-policy").is_some(), "{url}");
    }
    // Three bytes grow when compressed: identity, but still negotiated (Vary, ETag, 304).
    let r = get(addr, "/tiny.txt", &[("Accept-Encoding", "br")]).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-encoding"), None);
    assert!(varies(&r));
    assert_eq!(r.body, b"ok\n");
    let etag = r.header("etag").unwrap().to_string();
    assert!(!etag.ends_with("-br\""), "{etag}");
    let r = get(
        addr,
        "/tiny.txt",
        &[("Accept-Encoding", "br"), ("If-None-Match", &etag)],
    )
    .await;
    assert_eq!(r.status, 304);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pages_in_borrowed_directories_are_served_through_their_links() {
    let site = copied_sample();
    site.build().unwrap();
    raise_price_of(&site.export, 5);
    assert!(site.build().unwrap().dirs_borrowed > 0);
    let addr = serve(&site).await;
    // A page whose directory is reached through a link into the generation it borrows from.
    let live = site.live();
    let live_dir = std::fs::canonicalize(&live).unwrap();
    let page = walkdir::WalkDir::new(&live)
        .follow_links(true)
        .into_iter()
        .filter_map(Result::ok)
        .find(|e| {
            e.file_name() == "index.html"
                && !std::fs::canonicalize(e.path())
                    .unwrap()
                    .starts_with(&live_dir)
        })
        .expect("a page in a borrowed directory")
        .into_path();
    let dir = page.parent().unwrap().strip_prefix(&live).unwrap();
    let reply = get(addr, &format!("/{}/", dir.display()), &[]).await;
    assert_eq!(reply.status, 200, "/{}/", dir.display());
    assert_eq!(reply.decoded(), std::fs::read(&page).unwrap());
}
