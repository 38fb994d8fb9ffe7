//! Deploy settings from the environment: Netlify credentials, the site, the API base URL (a
//! loopback fake in tests) and the API origin written into the proxy rules.

use std::time::Duration;
use url::Url;

/// Netlify's API; `NETLIFY_API_URL` replaces it (tests point it at a loopback fake).
pub const DEFAULT_API_URL: &str = "https://api.netlify.com/api/v1";

/// How requests and deploys are retried.
#[derive(Debug, Clone)]
pub struct RetryPolicy {
    /// Tries per request (uploads, creation, polls) before the deploy attempt fails.
    pub request_attempts: u32,
    /// First wait after a failed request or deploy attempt; doubled each time.
    pub base_delay: Duration,
    /// Longest wait between tries, and the most a `Retry-After` is honoured for.
    pub max_delay: Duration,
    /// Longest wait for a deploy to become ready after its uploads.
    pub ready_timeout: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            request_attempts: 5,
            base_delay: Duration::from_millis(500),
            max_delay: Duration::from_secs(90),
            ready_timeout: Duration::from_secs(20 * 60),
        }
    }
}

#[derive(Debug, Clone)]
pub struct DeployConfig {
    /// `NETLIFY_AUTH_TOKEN`: a personal access token, sent as a bearer token.
    pub token: String,
    /// `NETLIFY_SITE_ID`: the site's API id (or its name.netlify.app).
    pub site_id: String,
    pub api_base: Url,
    /// `API_ORIGIN`: where the CDN proxies `/api/*` and previews (netlify.toml's `${API_ORIGIN}`).
    pub api_origin: String,
    /// Uploads in flight at once.
    pub concurrency: usize,
    pub retry: RetryPolicy,
}

impl DeployConfig {
    /// The configuration when `NETLIFY_AUTH_TOKEN` or `NETLIFY_SITE_ID` is set, else `None`
    /// (nothing is deployed). One set without the other, or without `API_ORIGIN`, is an error:
    /// the operator meant to deploy.
    pub fn from_env() -> anyhow::Result<Option<DeployConfig>> {
        let var = |name: &str| {
            std::env::var(name)
                .ok()
                .map(|v| v.trim().to_string())
                .filter(|v| !v.is_empty())
        };
        let (token, site_id) = match (var("NETLIFY_AUTH_TOKEN"), var("NETLIFY_SITE_ID")) {
            (None, None) => return Ok(None),
            (Some(t), Some(s)) => (t, s),
            (Some(_), None) => {
                anyhow::bail!("NETLIFY_AUTH_TOKEN is set but NETLIFY_SITE_ID is not")
            }
            (None, Some(_)) => {
                anyhow::bail!("NETLIFY_SITE_ID is set but NETLIFY_AUTH_TOKEN is not")
            }
        };
        let api_origin = var("API_ORIGIN").ok_or_else(|| {
            anyhow::anyhow!(
                "API_ORIGIN must be set to deploy: the CDN proxies /api/* and previews to it (e.g. https://origin.example.com)"
            )
        })?;
        let api_base = var("NETLIFY_API_URL").unwrap_or_else(|| DEFAULT_API_URL.to_string());
        DeployConfig::new(token, site_id, &api_base, &api_origin).map(Some)
    }

    /// A configuration with the default concurrency and retries.
    pub fn new(
        token: String,
        site_id: String,
        api_base: &str,
        api_origin: &str,
    ) -> anyhow::Result<DeployConfig> {
        let api_base = api::upstream::base_url("NETLIFY_API_URL", api_base)?;
        let origin = Url::parse(api_origin).map_err(|e| anyhow::anyhow!("API_ORIGIN: {e}"))?;
        if !matches!(origin.scheme(), "http" | "https") {
            anyhow::bail!("API_ORIGIN: must start with https:// (got {api_origin})");
        }
        Ok(DeployConfig {
            token,
            site_id,
            api_base,
            api_origin: api_origin.trim_end_matches('/').to_string(),
            concurrency: 8,
            retry: RetryPolicy::default(),
        })
    }
}
