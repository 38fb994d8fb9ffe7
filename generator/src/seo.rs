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

pub fn breadcrumb_list(base_url: &str, crumbs: &[(String, String)]) -> String {
    json!({
        "@context": "https://schema.org",
        "@type": "BreadcrumbList",
        "itemListElement": crumbs.iter().enumerate().map(|(i, (name, url))| json!({
            "@type": "ListItem", "position": i + 1, "name": name, "item": absolute(base_url, url)
        })).collect::<Vec<_>>()
    })
    .to_string()
    .replace("</", "<\\/")
}

/// A sitemap page: every indexable page of the markets, with its alternates.
pub struct SitemapEntry {
    pub loc: String,
    pub alternates: Vec<Alternate>,
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
}

/// `(file name, contents)` of each per-market sitemap, chunked, plus the index at `sitemap.xml`.
pub fn sitemaps(base_url: &str, per_market: [Vec<SitemapEntry>; 3]) -> Vec<(String, String)> {
    let mut files = Vec::new();
    for (mi, entries) in per_market.iter().enumerate() {
        for (chunk_no, chunk) in entries.chunks(SITEMAP_CHUNK).enumerate() {
            let mut xml = String::from(
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n",
            );
            for e in chunk {
                xml.push_str("<url><loc>");
                xml.push_str(&xml_escape(&e.loc));
                xml.push_str("</loc>");
                for a in &e.alternates {
                    xml.push_str(&format!(
                        "<xhtml:link rel=\"alternate\" hreflang=\"{}\" href=\"{}\"/>",
                        a.hreflang,
                        xml_escape(&a.href)
                    ));
                }
                xml.push_str("</url>\n");
            }
            xml.push_str("</urlset>\n");
            files.push((
                format!("sitemap-{}-{}.xml", MARKETS[mi].code, chunk_no + 1),
                xml,
            ));
        }
    }
    let mut index = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for (name, _) in &files {
        index.push_str(&format!(
            "<sitemap><loc>{}</loc></sitemap>\n",
            xml_escape(&absolute(base_url, &format!("/{name}")))
        ));
    }
    index.push_str("</sitemapindex>\n");
    files.push(("sitemap.xml".to_string(), index));
    files
}

pub fn robots(base_url: &str) -> String {
    let mut out = String::from("User-agent: *\nDisallow: /api/\n");
    for m in MARKETS {
        for path in [
            "/bag",
            "/my-account",
            "/MyAccount",
            "/checkout-identity",
            "/order-confirmation",
            "/search",
            "/login",
            "/create-account",
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

/// Sitemap entry for an indexable page.
pub fn sitemap_entry(base_url: &str, page: &Page, present: [bool; 3]) -> SitemapEntry {
    SitemapEntry {
        loc: absolute(base_url, &page.url_path()),
        alternates: alternates(base_url, &page.site_path, present),
    }
}
