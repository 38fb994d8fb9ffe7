//! netlify.toml and `storefront serve` agree on every rule: the generated route rules in
//! netlify.toml are exactly the generator's (which also writes public/_redirects), and the
//! production router answers a request for every redirect rule the way Netlify would (files
//! shadow unforced rules; forced rules win; proxies reach the API on the same origin), with every
//! header block's values on the responses.

mod common;

use common::*;
use live_site::netlify::{API_ORIGIN, NetlifyConfig};
use live_site::site_server::{SiteFiles, production_router};
use std::sync::Arc;

async fn get(addr: std::net::SocketAddr, target: &str) -> Reply {
    raw_get(addr, target, &[]).await
}

fn config() -> NetlifyConfig {
    NetlifyConfig::load(&repo().join("netlify.toml")).unwrap()
}

#[test]
fn netlify_toml_holds_the_generated_route_rules_and_a_publish_dir() {
    let config = config();
    let text = std::fs::read_to_string(repo().join("netlify.toml")).unwrap();
    let doc: toml::Table = toml::from_str(&text).unwrap();
    assert_eq!(doc["build"]["publish"].as_str(), Some("public"));
    // Netlify compiles nothing: the site is built on the origin and deployed as files.
    let command = doc["build"]["command"].as_str().unwrap();
    assert!(
        !command.contains("cargo") && !command.contains("npm"),
        "{command}"
    );
    // What a deploy sends Netlify holds every rule and header block, in order.
    let redirects = live_site::deploy::rules::redirects_file(&config, "https://o.example").unwrap();
    let lines: Vec<&str> = redirects.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), config.redirects.len());
    for (line, rule) in lines.iter().zip(&config.redirects) {
        assert!(line.starts_with(&format!("{} ", rule.from)), "{line}");
        assert!(
            line.ends_with(&format!(
                " {}{}",
                rule.status,
                if rule.force { "!" } else { "" }
            )),
            "{line}"
        );
        assert!(!line.contains(API_ORIGIN), "{line}");
    }
    let headers = live_site::deploy::rules::headers_file(&config).unwrap();
    for rule in &config.headers {
        assert!(headers.contains(&format!("\n{}\n", rule.path)));
        for (name, value) in &rule.values {
            assert!(headers.contains(&format!("  {name}: {value}\n")), "{name}");
        }
    }
    let generated: Vec<(String, String, u16)> = generator::redirects::rules()
        .into_iter()
        .map(|r| (r.from, r.to, r.status))
        .collect();
    let in_toml: Vec<(String, String, u16)> = config
        .redirects
        .iter()
        .filter(|r| !r.force)
        .map(|r| (r.from.clone(), r.to.clone(), r.status))
        .collect();
    assert_eq!(
        in_toml, generated,
        "netlify.toml's route rules = generator::redirects::rules()"
    );
    let proxies: Vec<&str> = config
        .redirects
        .iter()
        .filter(|r| r.to.starts_with(API_ORIGIN))
        .map(|r| r.from.as_str())
        .collect();
    assert_eq!(proxies, ["/api/*", "/amplience-visualization/*"]);
}

/// A concrete request path for a rule's `from`.
fn sample_path(from: &str) -> String {
    match from.strip_suffix("/*") {
        Some(prefix) => format!("{prefix}/no-such/thing-42"),
        None => from.to_string(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_applies_every_netlify_rule_and_header() {
    let site = built_sample();
    let config = Arc::new(config());
    let api_state = api::AppState::ephemeral(sample_export()).await.unwrap();
    let app = production_router(
        SiteFiles::Dir(site.public()),
        config.clone(),
        api_state,
        None,
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });

    let shadowed = |path: &str| {
        let rel = path.trim_start_matches('/');
        site.public().join(rel).is_file() || site.public().join(rel).join("index.html").is_file()
    };
    let mut checked = 0;
    for rule in &config.redirects {
        let path = sample_path(&rule.from);
        let query: String = rule
            .query
            .keys()
            .map(|k| format!("{k}=v-{k}.example"))
            .collect::<Vec<_>>()
            .join("&");
        let target = if query.is_empty() {
            path.clone()
        } else {
            format!("{path}?{query}")
        };
        let reply = get(addr, &target).await;
        let splat = rule
            .from
            .strip_suffix("/*")
            .map(|p| path[p.len()..].trim_start_matches('/').to_string())
            .unwrap_or_default();
        let mut to = rule.to.replace(":splat", &splat);
        for (k, placeholder) in &rule.query {
            to = to.replace(placeholder, &format!("v-{k}.example"));
        }
        if rule.to.starts_with(API_ORIGIN) {
            // Same origin here: the API (or the preview renderer) answers, not the site's 404.
            assert_ne!(
                reply.body, b"This page could not be found",
                "{target}: proxied rule must reach the API"
            );
            checked += 1;
            continue;
        }
        if !rule.force && shadowed(&path) {
            assert_eq!(reply.status, 200, "{target}: a file shadows the rule");
            checked += 1;
            continue;
        }
        match rule.status {
            301 | 302 | 307 | 308 => {
                assert_eq!(reply.status, rule.status, "{target}");
                assert_eq!(reply.header("location"), Some(to.as_str()), "{target}");
            }
            status => {
                assert_eq!(reply.status, status, "{target}");
                let file = std::fs::read(site.public().join(to.trim_start_matches('/'))).unwrap();
                assert_eq!(reply.body, file, "{target} serves {to}");
            }
        }
        checked += 1;
    }
    assert_eq!(checked, config.redirects.len());

    // Headers: every block's values, the later block winning where two set the same header.
    for path in [
        "/",
        "/about-us/",
        "/assets/",
        "/favicon.svg",
        "/no-such-page",
    ] {
        let target = if path == "/assets/" {
            let asset = std::fs::read_dir(site.public().join("assets"))
                .unwrap()
                .flatten()
                .find(|e| e.file_name().to_string_lossy().ends_with(".js"))
                .unwrap();
            format!("/assets/{}", asset.file_name().to_string_lossy())
        } else {
            path.to_string()
        };
        let reply = get(addr, &target).await;
        let expected = config.headers_for(&target);
        assert!(expected.contains_key("Content-Security-Policy"));
        for (k, v) in &expected {
            assert_eq!(reply.header(k), Some(v.as_str()), "{target}: {k}");
        }
        if target.starts_with("/assets/") {
            assert!(reply.header("cache-control").unwrap().contains("immutable"));
        } else {
            assert!(
                reply
                    .header("cache-control")
                    .unwrap()
                    .contains("must-revalidate")
            );
        }
    }
}

/// The attribute `name="…"` of an HTML start tag's text, if present.
fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let start = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    tag[start..].split('"').next()
}

/// Under the served policy (`script-src 'self'` and the tag manager, `style-src 'self'`, no
/// `'unsafe-inline'`), every script and stylesheet a page uses must be a file of the site: the
/// block gallery (every block type, HolyHandGrenade code included) has no inline executable script
/// and no `<style>` in any market, and every script and stylesheet it loads is served.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_script_and_stylesheet_of_the_block_gallery_is_allowed_by_the_served_csp() {
    let site = built_sample();
    let api_state = api::AppState::ephemeral(sample_export()).await.unwrap();
    let app = production_router(
        SiteFiles::Dir(site.public()),
        Arc::new(config()),
        api_state,
        None,
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });

    for page in [
        "/block-gallery/",
        "/us/block-gallery/",
        "/eu/block-gallery/",
    ] {
        let reply = get(addr, page).await;
        assert_eq!(reply.status, 200, "{page}");
        let csp = reply.header("content-security-policy").unwrap();
        // No 'unsafe-inline'; the one other script host is the market's tag manager, which the
        // page itself adds after consent to analytics (lib/tracking-tag.ts).
        for directive in [
            "script-src 'self' https://www.googletagmanager.com",
            "style-src 'self'",
        ] {
            let policy = csp
                .split(';')
                .map(str::trim)
                .find(|d| {
                    d.starts_with(directive.split(' ').next().unwrap()) && !d.contains("-attr")
                })
                .unwrap_or_else(|| panic!("{page}: no {directive} in {csp}"));
            assert_eq!(policy, directive, "{page}: only the site's own files");
        }
        let html = String::from_utf8(reply.body).unwrap();
        assert!(
            !html.contains("<style"),
            "{page}: an inline <style> is blocked"
        );
        let mut files = Vec::new();
        for tag in html
            .split("<script")
            .skip(1)
            .map(|t| &t[..t.find('>').unwrap()])
        {
            match attr(tag, "src") {
                Some(src) => files.push(src.to_string()),
                None => assert!(
                    matches!(
                        attr(tag, "type"),
                        Some("application/json" | "application/ld+json")
                    ),
                    "{page}: an inline script would be blocked: <script{tag}>"
                ),
            }
        }
        for tag in html
            .split("<link")
            .skip(1)
            .map(|t| &t[..t.find('>').unwrap()])
        {
            if attr(tag, "rel") == Some("stylesheet") {
                files.push(attr(tag, "href").unwrap().to_string());
            }
        }
        assert!(
            files
                .iter()
                .any(|f| f.starts_with("/assets/hhg/") && f.ends_with(".js"))
                && files
                    .iter()
                    .any(|f| f.starts_with("/assets/hhg/") && f.ends_with(".css")),
            "{page}: the HolyHandGrenade code is loaded from files: {files:?}"
        );
        for file in &files {
            assert!(
                file.starts_with('/') && !file.starts_with("//"),
                "{page}: {file}"
            );
            let served = get(addr, file).await;
            assert_eq!(served.status, 200, "{page}: {file}");
            assert!(
                served
                    .header("cache-control")
                    .unwrap()
                    .contains("immutable"),
                "{file}"
            );
        }
    }
}
