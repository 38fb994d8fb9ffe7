//! Where the sources are and how to talk to them, read from the environment (credentials never
//! come from flags, so they stay out of shell history and process listings).

use crate::error::ImportError;
use std::time::Duration;

/// Everything `storefront import` and the per-item fetches need.
#[derive(Debug, Clone)]
pub struct ImportConfig {
    pub catalog: CatalogSource,
    pub content: ContentSource,
    pub http: HttpPolicy,
    /// `store.json`'s fallback image (the spec's 1600x2133 placeholder), a media-host URL.
    pub fallback_image: String,
    /// `STOREFRONT_GAZETTEER`: a gazetteer file published instead of the bundled one.
    pub gazetteer: Option<std::path::PathBuf>,
}

/// The commerce platform's REST catalog API.
#[derive(Debug, Clone)]
pub struct CatalogSource {
    /// `{api}/stores/{store_hash}`, without a trailing slash; `/v3/...` and `/v2/...` follow.
    pub store_base: String,
    pub access_token: String,
    /// Items per page (the platform allows up to 250).
    pub page_size: u32,
    /// Children of this category are merchandised collections rather than listings.
    pub collections_category: Option<u64>,
}

/// The content hub's delivery API.
#[derive(Debug, Clone)]
pub struct ContentSource {
    /// `https://{hub}.cdn.content.amplience.net`, or a virtual staging host, without a trailing slash.
    pub delivery_base: String,
    /// Schema URI of content pages (home and `/{slug}` pages), listed through the filter API.
    pub content_page_schema: String,
    /// Schema URI of the listing headers (`listing-header/{kind}/{id}`), listed like the pages.
    pub listing_header_schema: String,
    /// Items per filter page (the delivery API allows up to 12).
    pub page_size: u32,
    /// The delivery base of a virtual staging host, with `{domain}` where the staging domain goes
    /// (content preview fetches unpublished items there): `https://{domain}` unless
    /// `AMPLIENCE_STAGING_URL` says otherwise.
    pub staging_base: String,
}

/// Timeouts and retries, shared by every request.
#[derive(Debug, Clone)]
pub struct HttpPolicy {
    /// Whole-request timeout (connect, headers and body).
    pub timeout: Duration,
    /// Attempts per request, the first included.
    pub max_attempts: u32,
    /// First backoff; doubled per retry, with jitter.
    pub base_backoff: Duration,
    pub max_backoff: Duration,
    /// A longer Retry-After is shortened to this rather than stalling the import for hours.
    pub max_retry_after: Duration,
}

impl Default for HttpPolicy {
    fn default() -> Self {
        HttpPolicy {
            timeout: Duration::from_secs(30),
            max_attempts: 5,
            base_backoff: Duration::from_millis(500),
            max_backoff: Duration::from_secs(30),
            max_retry_after: Duration::from_secs(120),
        }
    }
}

pub const DEFAULT_CATALOG_API: &str = "https://api.bigcommerce.com";
pub const DEFAULT_SCHEMA_BASE: &str = "https://schema.maisonlark.example/";
pub const DEFAULT_STAGING_BASE: &str = "https://{domain}";
pub const DEFAULT_FALLBACK_IMAGE: &str = "/media/fallback.svg";

impl ImportConfig {
    /// Reads the configuration from the process environment (see docs/import.md).
    pub fn from_env() -> Result<Self, ImportError> {
        Self::from_lookup(|name| std::env::var(name).ok().filter(|v| !v.trim().is_empty()))
    }

    /// Reads the configuration through `lookup` (the environment, or a map in tests).
    pub fn from_lookup(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, ImportError> {
        let required = |var: &'static str| {
            lookup(var).ok_or(ImportError::Config {
                var,
                why: "is not set".into(),
            })
        };
        let number = |var: &'static str, default: u64| -> Result<u64, ImportError> {
            match lookup(var) {
                None => Ok(default),
                Some(v) => v.trim().parse().map_err(|_| ImportError::Config {
                    var,
                    why: format!("{v:?} is not a whole number"),
                }),
            }
        };
        let api = lookup("BIGCOMMERCE_API_URL").unwrap_or_else(|| DEFAULT_CATALOG_API.into());
        let store_hash = required("BIGCOMMERCE_STORE_HASH")?;
        let access_token = required("BIGCOMMERCE_ACCESS_TOKEN")?;
        let delivery_base = match lookup("AMPLIENCE_DELIVERY_URL") {
            Some(url) => url,
            None => match lookup("AMPLIENCE_HUB") {
                Some(hub) => format!("https://{hub}.cdn.content.amplience.net"),
                None => {
                    return Err(ImportError::Config {
                        var: "AMPLIENCE_HUB",
                        why: "is not set (nor AMPLIENCE_DELIVERY_URL)".into(),
                    });
                }
            },
        };
        let staging_base =
            lookup("AMPLIENCE_STAGING_URL").unwrap_or_else(|| DEFAULT_STAGING_BASE.into());
        if !staging_base.contains("{domain}") {
            return Err(ImportError::Config {
                var: "AMPLIENCE_STAGING_URL",
                why: format!("{staging_base:?} has no {{domain}} for the staging domain"),
            });
        }
        let schema_base =
            lookup("AMPLIENCE_SCHEMA_BASE").unwrap_or_else(|| DEFAULT_SCHEMA_BASE.into());
        let collections_category = match lookup("BIGCOMMERCE_COLLECTIONS_CATEGORY") {
            None => None,
            Some(_) => Some(number("BIGCOMMERCE_COLLECTIONS_CATEGORY", 0)?),
        };
        let defaults = HttpPolicy::default();
        let max_attempts = number("IMPORT_MAX_ATTEMPTS", defaults.max_attempts.into())?;
        if max_attempts == 0 {
            return Err(ImportError::Config {
                var: "IMPORT_MAX_ATTEMPTS",
                why: "must be at least 1".into(),
            });
        }
        Ok(ImportConfig {
            catalog: CatalogSource {
                store_base: format!("{}/stores/{}", api.trim_end_matches('/'), store_hash.trim()),
                access_token,
                page_size: number("BIGCOMMERCE_PAGE_SIZE", 250)?.clamp(1, 250) as u32,
                collections_category,
            },
            content: ContentSource {
                delivery_base: delivery_base.trim_end_matches('/').to_string(),
                content_page_schema: format!("{}content-page", with_slash(&schema_base)),
                listing_header_schema: format!("{}listing-header", with_slash(&schema_base)),
                page_size: number("AMPLIENCE_PAGE_SIZE", 12)?.clamp(1, 12) as u32,
                staging_base: staging_base.trim_end_matches('/').to_string(),
            },
            http: HttpPolicy {
                timeout: Duration::from_millis(number(
                    "IMPORT_TIMEOUT_MS",
                    defaults.timeout.as_millis() as u64,
                )?),
                max_attempts: max_attempts as u32,
                base_backoff: Duration::from_millis(number(
                    "IMPORT_BACKOFF_MS",
                    defaults.base_backoff.as_millis() as u64,
                )?),
                ..defaults
            },
            fallback_image: lookup("STOREFRONT_FALLBACK_IMAGE")
                .unwrap_or_else(|| DEFAULT_FALLBACK_IMAGE.into()),
            gazetteer: lookup("STOREFRONT_GAZETTEER").map(std::path::PathBuf::from),
        })
    }
}

fn with_slash(base: &str) -> String {
    if base.ends_with('/') {
        base.to_string()
    } else {
        format!("{base}/")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn lookup(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let map: HashMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        move |k| map.get(k).cloned()
    }

    #[test]
    fn a_missing_credential_is_named() {
        let err = ImportConfig::from_lookup(lookup(&[("BIGCOMMERCE_STORE_HASH", "abc")]))
            .unwrap_err()
            .to_string();
        assert_eq!(err, "configuration: BIGCOMMERCE_ACCESS_TOKEN: is not set");
    }

    #[test]
    fn base_urls_are_built_from_the_store_hash_and_hub() {
        let cfg = ImportConfig::from_lookup(lookup(&[
            ("BIGCOMMERCE_STORE_HASH", "abc123"),
            ("BIGCOMMERCE_ACCESS_TOKEN", "t"),
            ("AMPLIENCE_HUB", "maisonlark"),
            ("IMPORT_TIMEOUT_MS", "2500"),
        ]))
        .unwrap();
        assert_eq!(
            cfg.catalog.store_base,
            "https://api.bigcommerce.com/stores/abc123"
        );
        assert_eq!(
            cfg.content.delivery_base,
            "https://maisonlark.cdn.content.amplience.net"
        );
        assert_eq!(
            cfg.content.content_page_schema,
            "https://schema.maisonlark.example/content-page"
        );
        assert_eq!(cfg.http.timeout, Duration::from_millis(2500));
    }

    #[test]
    fn a_bad_number_is_named() {
        let err = ImportConfig::from_lookup(lookup(&[
            ("BIGCOMMERCE_STORE_HASH", "abc"),
            ("BIGCOMMERCE_ACCESS_TOKEN", "t"),
            ("AMPLIENCE_HUB", "h"),
            ("IMPORT_TIMEOUT_MS", "soon"),
        ]))
        .unwrap_err()
        .to_string();
        assert_eq!(
            err,
            "configuration: IMPORT_TIMEOUT_MS: \"soon\" is not a whole number"
        );
    }
}
