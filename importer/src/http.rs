//! The HTTP client policy shared by every source: a whole-request timeout, retries with
//! exponential backoff and jitter on 429, 5xx, timeouts and dropped connections (honouring
//! Retry-After, in seconds or as an HTTP date), conditional GETs through the ETag cache, and JSON
//! parsing whose errors name the URL, the item and the field.

use crate::config::HttpPolicy;
use crate::error::ImportError;
use crate::etag_cache::EtagCache;
use reqwest::header::{ETAG, HeaderMap, HeaderValue, IF_NONE_MATCH, RETRY_AFTER};
use reqwest::{Method, StatusCode};
use serde::de::DeserializeOwned;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

/// Counters for the summary line.
#[derive(Debug, Default)]
pub struct HttpStats {
    pub requests: AtomicU64,
    pub not_modified: AtomicU64,
    pub retries: AtomicU64,
    pub bytes: AtomicU64,
}

/// What a request produced.
pub enum Body {
    /// 2xx with a body (or, after a 304, the cached body of the same URL).
    Bytes(Vec<u8>),
    /// 404: the item does not exist at the source.
    NotFound,
}

/// One client per source: its own default headers (credentials), the shared policy and stats.
pub struct HttpClient {
    client: reqwest::Client,
    policy: HttpPolicy,
    pub stats: HttpStats,
}

impl HttpClient {
    pub fn new(policy: &HttpPolicy, headers: HeaderMap) -> Result<Self, ImportError> {
        // reqwest has no crypto provider of its own here (ring is the workspace's one): install
        // it as the process default; a second install is refused harmlessly.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let client = reqwest::Client::builder()
            .timeout(policy.timeout)
            .default_headers(headers)
            .user_agent(concat!("storefront-import/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| ImportError::Config {
                var: "HTTP client",
                why: e.to_string(),
            })?;
        Ok(HttpClient {
            client,
            policy: policy.clone(),
            stats: HttpStats::default(),
        })
    }

    /// GET with If-None-Match when `cache` holds an ETag for the URL; a 304 answers from the
    /// cache, so unchanged data is not downloaded again.
    pub async fn get(&self, url: &str, cache: Option<&EtagCache>) -> Result<Body, ImportError> {
        let key = format!("GET {url}");
        let previous = cache.and_then(|c| c.previous_etag(&key));
        let outcome = self
            .send(Method::GET, url, None, previous.as_deref())
            .await?;
        match outcome {
            Outcome::NotModified => {
                self.stats.not_modified.fetch_add(1, Ordering::Relaxed);
                // A source may answer 304 to a request that was not conditional: report, not panic.
                let reused = match cache {
                    Some(cache) => cache.reuse(&key),
                    None => Err("answered 304 to an unconditional request".into()),
                };
                reused
                    .map(Body::Bytes)
                    .map_err(|why| http_error(&Method::GET, url, why))
            }
            Outcome::Fresh { bytes, etag } => {
                if let (Some(cache), Some(etag)) = (cache, etag) {
                    cache.store(&key, &etag, &bytes)?;
                }
                Ok(Body::Bytes(bytes))
            }
            Outcome::NotFound => Ok(Body::NotFound),
        }
    }

    /// POST a JSON body (the delivery API's filter endpoint). Never conditional: If-None-Match
    /// on a POST means a precondition, not a cache check.
    pub async fn post_json(
        &self,
        url: &str,
        body: &serde_json::Value,
    ) -> Result<Body, ImportError> {
        match self.send(Method::POST, url, Some(body), None).await? {
            Outcome::Fresh { bytes, .. } => Ok(Body::Bytes(bytes)),
            Outcome::NotFound => Ok(Body::NotFound),
            Outcome::NotModified => Err(http_error(
                &Method::POST,
                url,
                "answered 304 to an unconditional request".into(),
            )),
        }
    }

    async fn send(
        &self,
        method: Method,
        url: &str,
        json: Option<&serde_json::Value>,
        if_none_match: Option<&str>,
    ) -> Result<Outcome, ImportError> {
        let mut attempt = 1;
        loop {
            self.stats.requests.fetch_add(1, Ordering::Relaxed);
            let (why, retry_after) = match self.attempt(&method, url, json, if_none_match).await {
                Attempt::Done(outcome) => return Ok(outcome),
                Attempt::Fatal(why) => return Err(http_error(&method, url, why)),
                Attempt::Transient { why, retry_after } => (why, retry_after),
            };
            if attempt >= self.policy.max_attempts {
                let tries = if attempt == 1 {
                    String::new()
                } else {
                    format!(" (gave up after {attempt} attempts)")
                };
                return Err(http_error(&method, url, format!("{why}{tries}")));
            }
            let delay = match retry_after {
                Some(wait) => wait.min(self.policy.max_retry_after),
                None => backoff(&self.policy, attempt),
            };
            tracing::warn!(%url, %why, attempt, delay_ms = delay.as_millis() as u64, "retrying");
            self.stats.retries.fetch_add(1, Ordering::Relaxed);
            tokio::time::sleep(delay).await;
            attempt += 1;
        }
    }

    async fn attempt(
        &self,
        method: &Method,
        url: &str,
        json: Option<&serde_json::Value>,
        if_none_match: Option<&str>,
    ) -> Attempt {
        let mut request = self
            .client
            .request(method.clone(), url)
            .header(reqwest::header::ACCEPT, "application/json");
        if let Some(json) = json {
            request = request.json(json);
        }
        if let Some(etag) = if_none_match.and_then(|e| HeaderValue::from_str(e).ok()) {
            request = request.header(IF_NONE_MATCH, etag);
        }
        let response = match request.send().await {
            Ok(r) => r,
            Err(e) => return transport_failure(&e, self.policy.timeout),
        };
        let status = response.status();
        if status == StatusCode::NOT_MODIFIED {
            return Attempt::Done(Outcome::NotModified);
        }
        if status == StatusCode::NOT_FOUND {
            return Attempt::Done(Outcome::NotFound);
        }
        if status == StatusCode::TOO_MANY_REQUESTS || status.is_server_error() {
            return Attempt::Transient {
                why: format!("HTTP {status}"),
                retry_after: retry_after(response.headers()),
            };
        }
        if !status.is_success() {
            let hint = match status {
                StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN => {
                    " (check the credentials in the environment)"
                }
                _ => "",
            };
            let body = response.text().await.unwrap_or_default();
            return Attempt::Fatal(format!("HTTP {status}{hint}: {}", snippet(&body)));
        }
        let etag = response
            .headers()
            .get(ETAG)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string);
        match response.bytes().await {
            Ok(bytes) => {
                self.stats
                    .bytes
                    .fetch_add(bytes.len() as u64, Ordering::Relaxed);
                Attempt::Done(Outcome::Fresh {
                    bytes: bytes.to_vec(),
                    etag,
                })
            }
            Err(e) => transport_failure(&e, self.policy.timeout),
        }
    }
}

enum Outcome {
    Fresh {
        bytes: Vec<u8>,
        etag: Option<String>,
    },
    NotModified,
    NotFound,
}

enum Attempt {
    Done(Outcome),
    Transient {
        why: String,
        retry_after: Option<Duration>,
    },
    Fatal(String),
}

fn transport_failure(e: &reqwest::Error, timeout: Duration) -> Attempt {
    let why = if e.is_timeout() {
        format!("timed out after {} ms", timeout.as_millis())
    } else if e.is_connect() {
        format!("cannot connect: {}", root_cause(e))
    } else {
        format!("connection failed: {}", root_cause(e))
    };
    Attempt::Transient {
        why,
        retry_after: None,
    }
}

fn root_cause(e: &(dyn std::error::Error + 'static)) -> String {
    let mut cause = e;
    while let Some(next) = cause.source() {
        cause = next;
    }
    cause.to_string()
}

fn http_error(method: &Method, url: &str, why: String) -> ImportError {
    ImportError::Http {
        method: if *method == Method::POST {
            "POST"
        } else {
            "GET"
        },
        url: url.to_string(),
        why,
    }
}

fn snippet(body: &str) -> String {
    let trimmed = body.trim();
    match trimmed.char_indices().nth(200) {
        Some((i, _)) => format!("{}…", &trimmed[..i]),
        None => trimmed.to_string(),
    }
}

/// Retry-After as delta-seconds or an HTTP date (RFC 9110 §10.2.3).
fn retry_after(headers: &HeaderMap) -> Option<Duration> {
    let value = headers.get(RETRY_AFTER)?.to_str().ok()?.trim();
    if let Ok(seconds) = value.parse::<u64>() {
        return Some(Duration::from_secs(seconds));
    }
    let at = httpdate::parse_http_date(value).ok()?;
    Some(at.duration_since(SystemTime::now()).unwrap_or_default())
}

/// Exponential backoff with "equal jitter": half the step fixed, half random, so that parallel
/// importers do not retry in lock-step.
fn backoff(policy: &HttpPolicy, attempt: u32) -> Duration {
    let step = policy
        .base_backoff
        .saturating_mul(1u32 << (attempt - 1).min(16))
        .min(policy.max_backoff);
    let half = step / 2;
    half + half.mul_f64(rand::random::<f64>())
}

/// Parses a response body, naming the URL and, for shape errors, the JSON path.
pub fn parse<T: DeserializeOwned>(
    method: &'static str,
    url: &str,
    bytes: &[u8],
) -> Result<T, ImportError> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value: Result<T, _> = serde_path_to_error::deserialize(&mut de);
    let value = value.map_err(|e| {
        let field = e.path().to_string();
        let inner = e.into_inner();
        if inner.is_syntax() || inner.is_eof() {
            ImportError::Http {
                method,
                url: url.to_string(),
                why: format!("malformed JSON ({} bytes received): {inner}", bytes.len()),
            }
        } else {
            ImportError::Response {
                method,
                url: url.to_string(),
                item: "response".into(),
                field,
                why: inner.to_string(),
            }
        }
    })?;
    de.end().map_err(|e| ImportError::Http {
        method,
        url: url.to_string(),
        why: format!("malformed JSON: {e}"),
    })?;
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_reads_seconds_and_dates() {
        let mut headers = HeaderMap::new();
        headers.insert(RETRY_AFTER, HeaderValue::from_static("3"));
        assert_eq!(retry_after(&headers), Some(Duration::from_secs(3)));
        let later = SystemTime::now() + Duration::from_secs(60);
        headers.insert(
            RETRY_AFTER,
            HeaderValue::from_str(&httpdate::fmt_http_date(later)).unwrap(),
        );
        let wait = retry_after(&headers).unwrap();
        assert!(wait > Duration::from_secs(58) && wait <= Duration::from_secs(60));
        headers.insert(RETRY_AFTER, HeaderValue::from_static("soon"));
        assert_eq!(retry_after(&headers), None);
    }

    #[test]
    fn backoff_doubles_within_jitter_and_is_capped() {
        let policy = HttpPolicy {
            base_backoff: Duration::from_millis(100),
            max_backoff: Duration::from_millis(1000),
            ..HttpPolicy::default()
        };
        for attempt in 1..=6u32 {
            let step = (100u64 << (attempt - 1)).min(1000);
            let d = backoff(&policy, attempt).as_millis() as u64;
            assert!(d >= step / 2 && d <= step, "attempt {attempt}: {d} ms");
        }
    }
}
