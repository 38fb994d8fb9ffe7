//! What the clients of outside services (the promotions engine, the card payment provider) share:
//! reading their settings (the `'true'` flag, required values, a bounded timeout), a reqwest
//! client with bounded timeouts on a base URL, URLs built from percent-encoded segments, and a
//! short description of a transport failure. One place, so both services behave alike.

use reqwest::Url;
use reqwest::header::HeaderMap;
use std::time::Duration;

/// A feature flag is on if the setting is the string 'true' (or boolean true, which an
/// environment variable cannot be). Anything else — `TRUE`, `1`, `yes`, unset — is off.
pub fn flag_on(value: Option<&str>) -> bool {
    value == Some("true")
}

/// Settings read from `pairs` instead of the environment, for tests of the settings rules.
#[cfg(test)]
pub fn settings_from(
    pairs: &'static [(&'static str, &'static str)],
) -> impl Fn(&str) -> Option<String> {
    move |k: &str| {
        pairs
            .iter()
            .find(|(n, _)| *n == k)
            .map(|(_, v)| v.to_string())
    }
}

/// A timeout setting in whole milliseconds from 1 to `max_ms`; `default_ms` when unset or blank.
pub fn timeout_setting(
    get: &impl Fn(&str) -> Option<String>,
    name: &str,
    default_ms: u64,
    max_ms: u64,
) -> anyhow::Result<Duration> {
    let ms = match get(name).filter(|v| !v.trim().is_empty()) {
        None => default_ms,
        Some(v) => match v.trim().parse::<u64>() {
            Ok(ms) if (1..=max_ms).contains(&ms) => ms,
            _ => anyhow::bail!(
                "{name}: must be a whole number of milliseconds from 1 to {max_ms}, not {v:?}"
            ),
        },
    };
    Ok(Duration::from_millis(ms))
}

/// A setting that must be present (and not blank) because the feature `flag` is on, so a
/// half-configured service fails at start-up and not on a shopper's request.
pub fn required_setting(
    get: &impl Fn(&str) -> Option<String>,
    name: &str,
    flag: &str,
) -> anyhow::Result<String> {
    match get(name).map(|v| v.trim().to_string()) {
        Some(v) if !v.is_empty() => Ok(v),
        _ => anyhow::bail!("{name}: required when {flag} is true"),
    }
}

/// An http(s) base URL from setting `name`, without a trailing empty segment (which
/// `path_segments_mut` would otherwise keep, leaving a double slash).
pub fn base_url(name: &str, value: &str) -> anyhow::Result<Url> {
    let mut base = Url::parse(value).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    if !matches!(base.scheme(), "http" | "https") {
        anyhow::bail!("{name}: must be an http or https URL");
    }
    if let Ok(mut segments) = base.path_segments_mut() {
        segments.pop_if_empty();
    }
    Ok(base)
}

/// `base` with `segments` appended, each percent-encoded, so an id or email cannot change the
/// path.
pub fn join(base: &Url, segments: &[&str]) -> Url {
    let mut url = base.clone();
    if let Ok(mut path) = url.path_segments_mut() {
        path.extend(segments);
    }
    url
}

/// A `reqwest` client builder with TLS ready. reqwest is built without a crypto provider of its
/// own (ring is the project's one, see Cargo.toml), so the process's default is installed first;
/// a second install (another client, or another crate's) is refused harmlessly.
pub fn client_builder() -> reqwest::ClientBuilder {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder()
}

/// A client with a bounded connect and whole-request timeout (a shopper's request must not hang
/// on an outside service) and `headers` on every request.
pub fn http_client(timeout: Duration, headers: HeaderMap) -> anyhow::Result<reqwest::Client> {
    Ok(client_builder()
        .connect_timeout(timeout.min(Duration::from_secs(2)))
        .timeout(timeout)
        .default_headers(headers)
        .user_agent(concat!("storefront-api/", env!("CARGO_PKG_VERSION")))
        .build()?)
}

/// Why a request did not get an answer: "timed out", "cannot connect", or the innermost cause.
pub fn transport_why(e: &reqwest::Error) -> String {
    if e.is_timeout() {
        "timed out".to_string()
    } else if e.is_connect() {
        "cannot connect".to_string()
    } else {
        let mut cause: &dyn std::error::Error = e;
        while let Some(next) = cause.source() {
            cause = next;
        }
        cause.to_string()
    }
}
