//! The HTTP client of Netlify's deploy API: create a deploy from file digests, read a deploy's
//! state, upload one file. Every request is retried on 429 (after its `Retry-After`), 5xx and
//! transport errors, with a doubling backoff; other answers fail at once (a 4xx will not change).

use super::config::{DeployConfig, RetryPolicy};
use reqwest::header::{AUTHORIZATION, CONTENT_TYPE, HeaderMap, HeaderValue, RETRY_AFTER};
use serde::Deserialize;
use std::time::Duration;
use url::Url;

/// A deploy as the API answers it (the fields this client reads).
#[derive(Debug, Clone, Deserialize)]
pub struct Deploy {
    pub id: String,
    #[serde(default)]
    pub state: String,
    /// SHA-1 digests of files Netlify does not have yet.
    #[serde(default)]
    pub required: Vec<String>,
    #[serde(default)]
    pub error_message: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{what}: Netlify answered {status}: {body}")]
    Status {
        what: String,
        status: u16,
        body: String,
    },
    #[error("{what}: {why}")]
    Transport { what: String, why: String },
    #[error("{what}: the answer is not a deploy: {why}")]
    Decode { what: String, why: String },
}

/// What the client counted, for the status and the tests.
#[derive(Debug, Clone, Copy, Default)]
pub struct Counters {
    pub requests: u64,
    pub retries: u64,
    pub rate_limited: u64,
}

pub struct NetlifyApi {
    client: reqwest::Client,
    base: Url,
    site_id: String,
    retry: RetryPolicy,
    counters: std::sync::Mutex<Counters>,
}

/// One request's method, URL, body and what it is (for errors).
struct Call<'a> {
    what: String,
    method: reqwest::Method,
    url: Url,
    body: Option<(&'static str, &'a [u8])>,
}

impl NetlifyApi {
    pub fn new(config: &DeployConfig) -> anyhow::Result<NetlifyApi> {
        let mut headers = HeaderMap::new();
        let bearer = HeaderValue::from_str(&format!("Bearer {}", config.token))
            .map_err(|_| anyhow::anyhow!("NETLIFY_AUTH_TOKEN: not a valid header value"))?;
        headers.insert(AUTHORIZATION, bearer);
        let client = api::upstream::client_builder()
            .connect_timeout(Duration::from_secs(10))
            .timeout(Duration::from_secs(120))
            .default_headers(headers)
            .user_agent(concat!("storefront-deploy/", env!("CARGO_PKG_VERSION")))
            .build()?;
        Ok(NetlifyApi {
            client,
            base: config.api_base.clone(),
            site_id: config.site_id.clone(),
            retry: config.retry.clone(),
            counters: Default::default(),
        })
    }

    pub fn counters(&self) -> Counters {
        *self.counters.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn count(&self, f: impl FnOnce(&mut Counters)) {
        f(&mut self.counters.lock().unwrap_or_else(|e| e.into_inner()));
    }

    /// `POST /sites/{site_id}/deploys` with `body` (`DeployFiles::create_body`).
    pub async fn create_deploy(&self, body: &[u8]) -> Result<Deploy, ApiError> {
        let url = api::upstream::join(&self.base, &["sites", &self.site_id, "deploys"]);
        let call = Call {
            what: format!("creating a deploy of site {}", self.site_id),
            method: reqwest::Method::POST,
            url,
            body: Some(("application/json", body)),
        };
        self.deploy_answer(call).await
    }

    /// `GET /deploys/{deploy_id}`.
    pub async fn get_deploy(&self, deploy_id: &str) -> Result<Deploy, ApiError> {
        let call = Call {
            what: format!("reading deploy {deploy_id}"),
            method: reqwest::Method::GET,
            url: api::upstream::join(&self.base, &["deploys", deploy_id]),
            body: None,
        };
        self.deploy_answer(call).await
    }

    /// `PUT /deploys/{deploy_id}/files/{path}` with the file's bytes; each segment of the
    /// relative `path` is percent-encoded.
    pub async fn upload(&self, deploy_id: &str, path: &str, bytes: &[u8]) -> Result<(), ApiError> {
        let mut url = api::upstream::join(&self.base, &["deploys", deploy_id, "files"]);
        if let Ok(mut segments) = url.path_segments_mut() {
            segments.extend(path.split('/'));
        }
        let call = Call {
            what: format!("uploading {path} to deploy {deploy_id}"),
            method: reqwest::Method::PUT,
            url,
            body: Some(("application/octet-stream", bytes)),
        };
        self.send(&call).await.map(|_| ())
    }

    async fn deploy_answer(&self, call: Call<'_>) -> Result<Deploy, ApiError> {
        let text = self.send(&call).await?;
        serde_json::from_str(&text).map_err(|e| ApiError::Decode {
            what: call.what,
            why: e.to_string(),
        })
    }

    /// Sends `call`, retrying as the module says; answers the body of the 2xx answer.
    async fn send(&self, call: &Call<'_>) -> Result<String, ApiError> {
        let mut delay = self.retry.base_delay;
        let mut attempt = 1;
        loop {
            self.count(|c| c.requests += 1);
            let mut request = self.client.request(call.method.clone(), call.url.clone());
            if let Some((content_type, body)) = call.body {
                request = request
                    .header(CONTENT_TYPE, content_type)
                    .body(body.to_vec());
            }
            let (error, wait) = match request.send().await {
                Ok(response) => {
                    let status = response.status();
                    let retry_after = retry_after(response.headers());
                    let body = response.text().await.unwrap_or_default();
                    if status.is_success() {
                        return Ok(body);
                    }
                    let error = ApiError::Status {
                        what: call.what.clone(),
                        status: status.as_u16(),
                        body: body.chars().take(300).collect(),
                    };
                    if status.as_u16() == 429 {
                        self.count(|c| c.rate_limited += 1);
                        (error, retry_after.unwrap_or(delay))
                    } else if status.is_server_error() || status.as_u16() == 408 {
                        (error, delay)
                    } else {
                        return Err(error);
                    }
                }
                Err(e) => (
                    ApiError::Transport {
                        what: call.what.clone(),
                        why: api::upstream::transport_why(&e),
                    },
                    delay,
                ),
            };
            if attempt >= self.retry.request_attempts {
                return Err(error);
            }
            attempt += 1;
            self.count(|c| c.retries += 1);
            tokio::time::sleep(wait.min(self.retry.max_delay)).await;
            delay = (delay * 2).min(self.retry.max_delay);
        }
    }
}

/// A `Retry-After` header's wait: delay-seconds or an HTTP date.
fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let value = headers.get(RETRY_AFTER)?.to_str().ok()?.trim();
    if let Ok(seconds) = value.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let at = httpdate::parse_http_date(value).ok()?;
    Some(
        at.duration_since(std::time::SystemTime::now())
            .unwrap_or(Duration::ZERO),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_in_seconds_or_as_a_date() {
        let mut h = HeaderMap::new();
        assert_eq!(retry_after(&h), None);
        h.insert(RETRY_AFTER, HeaderValue::from_static("3"));
        assert_eq!(retry_after(&h), Some(Duration::from_secs(3)));
        h.insert(
            RETRY_AFTER,
            HeaderValue::from_static("Thu, 01 Jan 1970 00:00:00 GMT"),
        );
        assert_eq!(
            retry_after(&h),
            Some(Duration::ZERO),
            "a past date: no wait"
        );
        h.insert(RETRY_AFTER, HeaderValue::from_static("soon"));
        assert_eq!(retry_after(&h), None);
    }
}
