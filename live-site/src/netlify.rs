//! Netlify's route rules, read the two ways a site states them: netlify.toml (redirects and
//! headers, what `storefront serve` and production apply) and a `_redirects` file (what the build
//! writes and `storefront dev` serves). Both feed one rule type and one matcher, so every server
//! applies exactly the rules production applies. Matching follows Netlify: a rule applies when no
//! file shadows the path (or when it is forced), `*` captures the rest as `:splat`, `query` keys
//! must all be present and bind `:placeholders`; every matching header block applies, later blocks
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

    /// The rules of a `_redirects` file: `from to [status]` per line (status 301 when left out, a
    /// trailing `!` forces the rule), comments and blank lines allowed; no headers.
    pub fn from_redirects_file(text: &str) -> Result<NetlifyConfig, String> {
        let redirects = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
            .map(|(i, l)| {
                let parts: Vec<&str> = l.split_whitespace().collect();
                let (from, to, status) = match parts.as_slice() {
                    [from, to] => (from, to, "301"),
                    [from, to, status] => (from, to, *status),
                    _ => {
                        return Err(format!(
                            "_redirects line {}: expected `from to [status]`",
                            i + 1
                        ));
                    }
                };
                let force = status.ends_with('!');
                let status = status.trim_end_matches('!').parse().map_err(|_| {
                    format!(
                        "_redirects line {}: status {status:?} is not a number",
                        i + 1
                    )
                })?;
                Ok(Redirect {
                    from: from.to_string(),
                    to: to.to_string(),
                    status,
                    force,
                    query: BTreeMap::new(),
                })
            })
            .collect::<Result<_, String>>()?;
        Ok(NetlifyConfig {
            redirects,
            headers: Vec::new(),
        })
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

    /// The build's `_redirects` file, read back: legacy routes lead to their pages in every
    /// market, client-side screens to their shell, anything else to the market's 404 page.
    #[test]
    fn the_builds_redirects_file_reads_back_to_its_rules() {
        let rules = generator::redirects::rules();
        let file =
            NetlifyConfig::from_redirects_file(&generator::redirects::to_netlify(&rules)).unwrap();
        let as_written: Vec<(String, String, u16)> = file
            .redirects
            .iter()
            .map(|r| (r.from.clone(), r.to.clone(), r.status))
            .collect();
        let generated: Vec<(String, String, u16)> = rules
            .into_iter()
            .map(|r| (r.from, r.to, r.status))
            .collect();
        assert_eq!(as_written, generated);
        let to = |path: &str| {
            file.resolve(path, "", false)
                .map(|r| (r.to, r.status))
                .unwrap()
        };
        assert_eq!(
            to("/Category/womens/dresses"),
            ("/browse/womens/dresses".into(), 301)
        );
        assert_eq!(
            to("/us/Product/112/x/Black"),
            ("/us/p/112/x/Black".into(), 301)
        );
        assert_eq!(to("/eu/Home"), ("/eu".into(), 301));
        assert_eq!(to("/Home"), ("/".into(), 301));
        assert_eq!(
            to("/my-account/orders"),
            ("/my-account/index.html".into(), 200)
        );
        assert_eq!(to("/eu/nope"), ("/eu/404.html".into(), 404));
        assert_eq!(to("/nope"), ("/404.html".into(), 404));
    }

    #[test]
    fn a_bad_redirects_line_is_named() {
        let err = NetlifyConfig::from_redirects_file("/a /b 30x").unwrap_err();
        assert_eq!(err, "_redirects line 1: status \"30x\" is not a number");
        let err = NetlifyConfig::from_redirects_file("# c\n\n/a").unwrap_err();
        assert_eq!(err, "_redirects line 3: expected `from to [status]`");
        let forced = NetlifyConfig::from_redirects_file("/a /b 302!").unwrap();
        assert!(forced.redirects[0].force);
        assert_eq!(forced.redirects[0].status, 302);
    }
}
