//! netlify.toml's redirects and headers as the `_redirects` and `_headers` files that go in every
//! deploy: files deployed through the API are not built by Netlify, so netlify.toml's rules only
//! reach the CDN this way. The same parsed rules drive `storefront serve` (live-site/src/netlify.rs).

use crate::netlify::{API_ORIGIN, NetlifyConfig};

/// `_redirects`: one line per rule, in netlify.toml's order (the first match wins on Netlify as
/// in `serve`): `from [key=:value ...] to status[!]`, `!` for a forced rule. `${API_ORIGIN}` is
/// replaced by `api_origin`. A rule with white space in a field cannot be written in this format
/// and is an error naming it.
pub fn redirects_file(config: &NetlifyConfig, api_origin: &str) -> anyhow::Result<String> {
    let mut out = String::from("# Generated from netlify.toml by storefront's deploy.\n");
    for (i, rule) in config.redirects.iter().enumerate() {
        let to = rule.to.replace(API_ORIGIN, api_origin);
        let query: Vec<String> = rule.query.iter().map(|(k, v)| format!("{k}={v}")).collect();
        let fields = std::iter::once(rule.from.as_str())
            .chain(query.iter().map(String::as_str))
            .chain(std::iter::once(to.as_str()));
        for field in fields.clone() {
            if field.is_empty() || field.contains(char::is_whitespace) {
                anyhow::bail!(
                    "netlify.toml redirect {} (from {:?}): {field:?} cannot be written to _redirects (empty or white space)",
                    i + 1,
                    rule.from
                );
            }
        }
        let fields: Vec<&str> = fields.collect();
        let force = if rule.force { "!" } else { "" };
        out.push_str(&format!("{} {}{force}\n", fields.join(" "), rule.status));
    }
    Ok(out)
}

/// `_headers`: one block per `[[headers]]` table, in netlify.toml's order. Netlify, like
/// `serve`, applies every block whose path matches, a later block's value replacing an earlier
/// one's for the same header (values are only joined within one block). A header value with a
/// line break is an error naming the block.
pub fn headers_file(config: &NetlifyConfig) -> anyhow::Result<String> {
    let mut out = String::from("# Generated from netlify.toml by storefront's deploy.\n");
    for rule in &config.headers {
        if rule.path.contains(char::is_whitespace) {
            anyhow::bail!(
                "netlify.toml headers for {:?}: the path has white space",
                rule.path
            );
        }
        out.push_str(&rule.path);
        out.push('\n');
        for (name, value) in &rule.values {
            if value.contains(['\n', '\r']) || name.contains([':', '\n', '\r']) {
                anyhow::bail!(
                    "netlify.toml headers for {}: {name} cannot be written to _headers (a line break or colon)",
                    rule.path
                );
            }
            out.push_str(&format!("  {name}: {value}\n"));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_in_netlifys_file_formats() {
        let config: NetlifyConfig = toml::from_str(
            r#"
            [[redirects]]
            from = "/api/*"
            to = "${API_ORIGIN}/api/:splat"
            status = 200
            force = true
            [[redirects]]
            from = "/*"
            query = { a = ":a", b = ":b" }
            to = "/x?a=:a&b=:b"
            status = 302
            force = true
            [[redirects]]
            from = "/Category/*"
            to = "/browse/:splat"
            [[headers]]
            for = "/*"
            values = { X = "1", C = "all" }
            "#,
        )
        .unwrap();
        assert_eq!(
            redirects_file(&config, "https://o.example").unwrap(),
            "# Generated from netlify.toml by storefront's deploy.\n\
             /api/* https://o.example/api/:splat 200!\n\
             /* a=:a b=:b /x?a=:a&b=:b 302!\n\
             /Category/* /browse/:splat 301\n"
        );
        assert_eq!(
            headers_file(&config).unwrap(),
            "# Generated from netlify.toml by storefront's deploy.\n/*\n  C: all\n  X: 1\n"
        );
        let bad: NetlifyConfig =
            toml::from_str("[[redirects]]\nfrom = \"/a b\"\nto = \"/c\"\n").unwrap();
        let e = redirects_file(&bad, "https://o.example")
            .unwrap_err()
            .to_string();
        assert!(e.contains("redirect 1") && e.contains("/a b"), "{e}");
    }
}
