//! Search-engine output: canonical URLs, hreflang alternates, JSON-LD, sitemaps and robots.txt.

use crate::plan::Page;
use domain::market::{HREFLANGS, MARKETS};
use serde::Serialize;
use serde_json::json;

/// URLs per sitemap file; the protocol allows 50,000.
pub const SITEMAP_CHUNK: usize = 45_000;

#[derive(Debug, Clone, Serialize)]
pub struct Alternate {
    pub hreflang: &'static str,
    pub href: String,
}

pub fn absolute(base_url: &str, url_path: &str) -> String {
    format!("{base_url}{url_path}")
}

/// The spec's hreflang set for a page that exists at `site_path` in the markets marked `present`.
pub fn alternates(base_url: &str, site_path: &str, present: [bool; 3]) -> Vec<Alternate> {
    HREFLANGS
        .iter()
        .filter(|(_, mi)| present[*mi])
        .map(|(lang, mi)| Alternate {
            hreflang: lang,
            href: absolute(base_url, &MARKETS[*mi].path(site_path)),
        })
        .collect()
}

pub fn breadcrumb_list(base_url: &str, crumbs: &[(String, String)]) -> serde_json::Value {
    json!({
        "@context": "https://schema.org",
        "@type": "BreadcrumbList",
        "itemListElement": crumbs.iter().enumerate().map(|(i, (name, url))| json!({
            "@type": "ListItem", "position": i + 1, "name": name, "item": absolute(base_url, url)
        })).collect::<Vec<_>>()
    })
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
}

/// One sitemap file: a chunk of one market's indexable pages, each with the markets it exists in.
pub struct SitemapFile<'a> {
    pub name: String,
    pub pages: Vec<(&'a Page, [bool; 3])>,
}

/// Splits each market's indexable pages into sitemap files of at most `SITEMAP_CHUNK` URLs.
pub fn plan_sitemaps<'a>(
    pages: impl Iterator<Item = (&'a Page, [bool; 3])>,
) -> Vec<SitemapFile<'a>> {
    let mut per_market: [Vec<(&Page, [bool; 3])>; 3] = Default::default();
    for (page, present) in pages {
        per_market[page.market.index()].push((page, present));
    }
    let mut files = Vec::new();
    for (mi, entries) in per_market.into_iter().enumerate() {
        for (chunk_no, chunk) in entries.chunks(SITEMAP_CHUNK).enumerate() {
            files.push(SitemapFile {
                name: format!("sitemap-{}-{}.xml", MARKETS[mi].code, chunk_no + 1),
                pages: chunk.to_vec(),
            });
        }
    }
    files
}

/// Fingerprint of a sitemap file from what it lists, so unchanged sitemaps are not even rendered.
pub fn sitemap_fingerprint(base_url: &str, file: &SitemapFile) -> blake3::Hash {
    let mut h = blake3::Hasher::new();
    h.update(base_url.as_bytes());
    for (page, present) in &file.pages {
        h.update(page.market.path_prefix.as_bytes());
        h.update(page.site_path.as_bytes());
        h.update(&[present[0] as u8, present[1] as u8, present[2] as u8, b'\n']);
    }
    h.finalize()
}

pub fn sitemap_xml(base_url: &str, file: &SitemapFile) -> String {
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n",
    );
    for (page, present) in &file.pages {
        xml.push_str("<url><loc>");
        xml.push_str(&xml_escape(&absolute(base_url, &page.url_path())));
        xml.push_str("</loc>");
        for a in alternates(base_url, &page.site_path, *present) {
            xml.push_str(&format!(
                "<xhtml:link rel=\"alternate\" hreflang=\"{}\" href=\"{}\"/>",
                a.hreflang,
                xml_escape(&a.href)
            ));
        }
        xml.push_str("</url>\n");
    }
    xml.push_str("</urlset>\n");
    xml
}

/// `sitemap.xml`: the index of the per-market sitemap files.
pub fn sitemap_index(base_url: &str, names: &[&str]) -> String {
    let mut index = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for name in names {
        index.push_str(&format!(
            "<sitemap><loc>{}</loc></sitemap>\n",
            xml_escape(&absolute(base_url, &format!("/{name}")))
        ));
    }
    index.push_str("</sitemapindex>\n");
    index
}

pub fn robots(base_url: &str) -> String {
    let mut out = String::from("User-agent: *\nDisallow: /api/\n");
    for m in MARKETS {
        for path in [
            "/bag",
            "/my-account",
            "/MyAccount",
            "/checkout-identity",
            "/checkout/",
            "/order-confirmation",
            "/search",
            "/login",
            "/create-account",
            "/confirm-account",
            "/forgot-password",
            "/updatePassword",
            "/ChangePassword",
        ] {
            out.push_str(&format!("Disallow: {}\n", m.path(path)));
        }
    }
    out.push_str(&format!("\nSitemap: {base_url}/sitemap.xml\n"));
    out
}
