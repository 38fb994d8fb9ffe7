//! Reads netlify.toml's redirects and headers so `storefront serve` applies exactly the rules
//! production applies: one source of truth. Matching follows Netlify: a rule applies when no file
//! shadows the path (or when it is forced), `*` captures the rest as `:splat`, `query` keys must
//! all be present and bind `:placeholders`; every matching header block applies, later blocks
//! overriding a header an earlier one set.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

/// The origin placeholder of the proxy rules; `storefront serve` runs the API on its own origin.
pub const API_ORIGIN: &str = "${API_ORIGIN}";

#[derive(Debug, Clone, Deserialize, PartialEq)]
pub struct Redirect {
    pub from: String,
    pub to: String,
    #[serde(default = "default_status")]
    pub status: u16,
    #[serde(default)]
    pub force: bool,
    #[serde(default)]
    pub query: BTreeMap<String, String>,
}

fn default_status() -> u16 {
    301
}

#[derive(Debug, Clone, Deserialize, PartialEq)]
pub struct HeaderRule {
    #[serde(rename = "for")]
    pub path: String,
    pub values: BTreeMap<String, String>,
}

#[derive(Debug, Clone, Deserialize, Default)]
pub struct NetlifyConfig {
    #[serde(default)]
    pub redirects: Vec<Redirect>,
    #[serde(default)]
    pub headers: Vec<HeaderRule>,
}

/// A rule that applied to a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    /// Target with placeholders filled; a proxy rule keeps the `${API_ORIGIN}` prefix.
    pub to: String,
    pub status: u16,
    pub force: bool,
}

impl NetlifyConfig {
    pub fn load(path: &Path) -> anyhow::Result<NetlifyConfig> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| anyhow::anyhow!("{}: cannot be read: {e}", path.display()))?;
        toml::from_str(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
    }

    /// The first rule matching `path` and `query` (the raw query string) whose force flag is
    /// `forced` or, when `forced` is false, any rule (the caller found no file).
    pub fn resolve(&self, path: &str, query: &str, only_forced: bool) -> Option<Resolved> {
        let params: BTreeMap<String, String> = form_pairs(query);
        self.redirects
            .iter()
            .filter(|r| r.force || !only_forced)
            .find_map(|r| {
                let splat = match_path(&r.from, path)?;
                let mut to = r.to.replace(":splat", splat);
                for (key, placeholder) in &r.query {
                    let value = params.get(key)?;
                    to = to.replace(placeholder, &encode_component(value));
                }
                Some(Resolved {
                    to,
                    status: r.status,
                    force: r.force,
                })
            })
    }

    /// Every header the matching blocks set for `path`, later blocks winning.
    pub fn headers_for(&self, path: &str) -> BTreeMap<String, String> {
        let mut out = BTreeMap::new();
        for rule in &self.headers {
            if match_path(&rule.path, path).is_some() {
                for (k, v) in &rule.values {
                    out.insert(k.clone(), v.clone());
                }
            }
        }
        out
    }
}

/// `:splat` for a pattern ending in `/*`, "" for an exact match.
fn match_path<'a>(pattern: &str, path: &'a str) -> Option<&'a str> {
    match pattern.strip_suffix("/*") {
        Some("") => Some(path.trim_start_matches('/')),
        Some(prefix) => path.strip_prefix(prefix).and_then(|rest| {
            if rest.is_empty() {
                Some("")
            } else {
                rest.strip_prefix('/')
            }
        }),
        None => (pattern == path || pattern == path.trim_end_matches('/')).then_some(""),
    }
}

fn form_pairs(query: &str) -> BTreeMap<String, String> {
    url::form_urlencoded::parse(query.as_bytes())
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect()
}

fn encode_component(value: &str) -> String {
    url::form_urlencoded::byte_serialize(value.as_bytes()).collect()
}

/// Middleware: netlify.toml's headers on every site response (the API sets its own).
pub async fn apply_headers(
    axum::extract::State(config): axum::extract::State<std::sync::Arc<NetlifyConfig>>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let path = req.uri().path().to_string();
    let mut resp = next.run(req).await;
    if path.starts_with("/api/") {
        return resp;
    }
    for (name, value) in config.headers_for(&path) {
        if let (Ok(n), Ok(v)) = (
            axum::http::HeaderName::try_from(name.as_str()),
            axum::http::HeaderValue::from_str(&value),
        ) {
            resp.headers_mut().insert(n, v);
        }
    }
    resp
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matching() {
        let c: NetlifyConfig = toml::from_str(
            r#"
            [[redirects]]
            from = "/*"
            query = { a = ":a" }
            to = "/x?a=:a"
            status = 302
            force = true
            [[redirects]]
            from = "/Category/*"
            to = "/browse/:splat"
            [[headers]]
            for = "/*"
            values = { X = "1", C = "all" }
            [[headers]]
            for = "/assets/*"
            values = { C = "assets" }
            "#,
        )
        .unwrap();
        assert_eq!(
            c.resolve("/Category/a/b", "", false).unwrap().to,
            "/browse/a/b"
        );
        assert_eq!(c.resolve("/Category/a/b", "", true), None);
        assert_eq!(c.resolve("/", "a=b%20c&z=1", true).unwrap().to, "/x?a=b+c");
        assert_eq!(c.headers_for("/assets/m.js")["C"], "assets");
        assert_eq!(c.headers_for("/p/")["C"], "all");
        assert_eq!(c.headers_for("/assets/m.js")["X"], "1");
    }
}
