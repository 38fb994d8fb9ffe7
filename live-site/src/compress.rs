//! Compression for `storefront serve`: text files (HTML, CSS, JS, JSON, SVG, XML, plain text) are
//! answered in brotli or gzip when the client accepts it, compressed once on first request and
//! kept in a memory cache keyed by the file's content hash, so a file is compressed once per
//! version however many generations (overlays, compactions, hard links) it appears in. Every
//! answer for such a file carries `Vary: Accept-Encoding` and a strong ETag derived from the
//! content (a suffix per encoding, since the bytes differ), and `If-None-Match` is answered
//! with 304. Why on demand rather than `.br`/`.gz` siblings written by the build: see
//! docs/decisions.md "Editors and deploys (issue 7)".

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::Response;
use std::collections::{HashMap, VecDeque};
use std::io::Write;
use std::sync::Mutex;

/// Files above this size are streamed as they are: the cache is for pages and bundles, and
/// reading a large file whole to hash it would cost more than compression saves locally.
pub const MAX_COMPRESSIBLE: u64 = 8 * 1024 * 1024;
/// Memory held by compressed bodies before the oldest are dropped.
pub const DEFAULT_CACHE_BYTES: usize = 64 * 1024 * 1024;
/// Brotli quality 5 (of 11), as CDNs use for on-the-fly compression: a visitor waits for the first
/// compression of each page version. On the sample's 63 KB home page it is 2% larger than 9 at
/// a third of the time, and 11 takes over 60 times as long for 10% less (docs/decisions.md).
const BROTLI_QUALITY: u32 = 5;
/// A 1 MiB window holds any page whole; a larger one only costs memory.
const BROTLI_WINDOW: u32 = 20;
const GZIP_LEVEL: u32 = 9;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Encoding {
    Br,
    Gzip,
}

impl Encoding {
    pub fn token(self) -> &'static str {
        match self {
            Encoding::Br => "br",
            Encoding::Gzip => "gzip",
        }
    }

    /// Appended to the ETag: each encoding is a different representation with different bytes.
    fn etag_suffix(self) -> &'static str {
        match self {
            Encoding::Br => "-br",
            Encoding::Gzip => "-gz",
        }
    }

    pub fn compress(self, data: &[u8]) -> std::io::Result<Vec<u8>> {
        match self {
            Encoding::Br => {
                let mut out = Vec::with_capacity(data.len() / 4);
                {
                    let mut w = brotli::CompressorWriter::new(
                        &mut out,
                        4096,
                        BROTLI_QUALITY,
                        BROTLI_WINDOW,
                    );
                    w.write_all(data)?;
                    w.flush()?;
                }
                Ok(out)
            }
            Encoding::Gzip => {
                let mut w = flate2::write::GzEncoder::new(
                    Vec::with_capacity(data.len() / 3),
                    flate2::Compression::new(GZIP_LEVEL),
                );
                w.write_all(data)?;
                w.finish()
            }
        }
    }
}

/// The encoding to answer with for an `Accept-Encoding` header: the accepted one with the higher
/// q-value, brotli on a tie (smaller); none when neither is accepted (q=0 refuses; `*` accepts).
pub fn negotiate(accept: Option<&HeaderValue>) -> Option<Encoding> {
    let text = accept.and_then(|v| v.to_str().ok())?;
    let mut br: Option<f32> = None;
    let mut gzip: Option<f32> = None;
    let mut star: Option<f32> = None;
    for part in text.split(',') {
        let mut fields = part.split(';');
        let coding = fields
            .next()
            .unwrap_or_default()
            .trim()
            .to_ascii_lowercase();
        let mut q = 1.0f32;
        for param in fields {
            if let Some((name, value)) = param.split_once('=')
                && name.trim().eq_ignore_ascii_case("q")
            {
                // An unreadable q-value refuses the coding rather than guessing.
                q = value.trim().parse().unwrap_or(0.0);
            }
        }
        match coding.as_str() {
            "br" => br = Some(q),
            "gzip" | "x-gzip" => gzip = Some(q),
            "*" => star = Some(q),
            _ => {}
        }
    }
    let br = br.or(star).unwrap_or(0.0);
    let gzip = gzip.or(star).unwrap_or(0.0);
    if br <= 0.0 && gzip <= 0.0 {
        None
    } else if br >= gzip {
        Some(Encoding::Br)
    } else {
        Some(Encoding::Gzip)
    }
}

/// Media types worth compressing (by `Content-Type`, as the file server guessed it from the name).
pub fn compressible(content_type: &str) -> bool {
    let essence = content_type
        .split(';')
        .next()
        .unwrap_or_default()
        .trim()
        .to_ascii_lowercase();
    essence.starts_with("text/")
        || matches!(
            essence.as_str(),
            "application/javascript"
                | "application/json"
                | "application/manifest+json"
                | "application/ld+json"
                | "application/xml"
                | "application/rss+xml"
                | "application/atom+xml"
                | "image/svg+xml"
        )
}

type Key = ([u8; 32], Encoding);

#[derive(Default)]
struct Inner {
    entries: HashMap<Key, Bytes>,
    /// Insertion order, for dropping the oldest when over budget.
    order: VecDeque<Key>,
    bytes: usize,
}

/// Compressed bodies by content hash and encoding, bounded by total size (oldest out first).
pub struct CompressCache {
    budget: usize,
    inner: Mutex<Inner>,
}

impl Default for CompressCache {
    fn default() -> Self {
        CompressCache::new(DEFAULT_CACHE_BYTES)
    }
}

impl CompressCache {
    pub fn new(budget: usize) -> Self {
        CompressCache {
            budget,
            inner: Mutex::new(Inner::default()),
        }
    }

    fn get(&self, key: &Key) -> Option<Bytes> {
        self.lock().entries.get(key).cloned()
    }

    fn put(&self, key: Key, body: Bytes) {
        if body.len() > self.budget {
            return;
        }
        let mut inner = self.lock();
        if inner.entries.contains_key(&key) {
            return;
        }
        inner.bytes += body.len();
        inner.entries.insert(key, body);
        inner.order.push_back(key);
        while inner.bytes > self.budget {
            let Some(old) = inner.order.pop_front() else {
                break;
            };
            if let Some(gone) = inner.entries.remove(&old) {
                inner.bytes -= gone.len();
            }
        }
    }

    /// Entries held (for tests and logs).
    pub fn len(&self) -> usize {
        self.lock().entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // A panic while holding the lock cannot leave the map inconsistent in a way that matters
        // more than serving: keep going with what is there.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The compressed body for `data` (hash `hash`), compressing off the async runtime on a miss.
    async fn compressed(&self, hash: [u8; 32], enc: Encoding, data: Bytes) -> Option<Bytes> {
        let key = (hash, enc);
        if let Some(hit) = self.get(&key) {
            return Some(hit);
        }
        let body = tokio::task::spawn_blocking(move || enc.compress(&data))
            .await
            .ok()?
            .ok()?;
        let body = Bytes::from(body);
        self.put(key, body.clone());
        Some(body)
    }
}

/// Whether an `If-None-Match` value names `etag` (weak comparison, as RFC 9110 asks for GET).
fn none_match(headers: &HeaderMap, etag: &str) -> bool {
    let strip = |t: &str| t.trim().trim_start_matches("W/").to_string();
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|t| t.trim() == "*" || strip(t) == etag)
}

/// Turns the file server's 200 for a compressible file into the negotiated representation:
/// brotli, gzip or identity, with `Vary`, an ETag and 304 on a matching `If-None-Match`. Any
/// other answer (errors, 304 from `If-Modified-Since`, ranges, large or binary files) passes
/// through untouched.
pub async fn negotiate_response(
    cache: &CompressCache,
    resp: Response,
    req_headers: &HeaderMap,
) -> Response {
    let headers = resp.headers();
    let eligible = resp.status() == StatusCode::OK
        && !headers.contains_key(header::CONTENT_ENCODING)
        && !headers.contains_key(header::CONTENT_RANGE)
        && headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(compressible)
        && headers
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok())
            .is_some_and(|n| n <= MAX_COMPRESSIBLE);
    if !eligible {
        return resp;
    }
    let (mut parts, body) = resp.into_parts();
    let data = match axum::body::to_bytes(body, MAX_COMPRESSIBLE as usize).await {
        Ok(d) => d,
        // The file could not be read to the end (e.g. it shrank); a 500 says so.
        Err(_) => {
            let mut resp = Response::new(Body::empty());
            *resp.status_mut() = StatusCode::INTERNAL_SERVER_ERROR;
            return resp;
        }
    };
    let hash = *blake3::hash(&data).as_bytes();
    let base: String = hash[..12].iter().map(|b| format!("{b:02x}")).collect();
    parts
        .headers
        .append(header::VARY, HeaderValue::from_static("accept-encoding"));
    let mut encoded = None;
    if let Some(enc) = negotiate(req_headers.get(header::ACCEPT_ENCODING))
        && let Some(body) = cache.compressed(hash, enc, data.clone()).await
        // A tiny file can grow when compressed; identity is then the better answer.
        && body.len() < data.len()
    {
        encoded = Some((enc, body));
    }
    let etag = format!(
        "\"{base}{}\"",
        encoded.as_ref().map_or("", |(e, _)| e.etag_suffix())
    );
    if let Ok(v) = HeaderValue::from_str(&etag) {
        parts.headers.insert(header::ETAG, v);
    }
    if none_match(req_headers, &etag) {
        parts.status = StatusCode::NOT_MODIFIED;
        parts.headers.remove(header::CONTENT_LENGTH);
        return Response::from_parts(parts, Body::empty());
    }
    let body = match encoded {
        Some((enc, body)) => {
            parts.headers.insert(
                header::CONTENT_ENCODING,
                HeaderValue::from_static(enc.token()),
            );
            body
        }
        None => data,
    };
    parts
        .headers
        .insert(header::CONTENT_LENGTH, HeaderValue::from(body.len()));
    Response::from_parts(parts, Body::from(body))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pick(v: &str) -> Option<Encoding> {
        negotiate(Some(&HeaderValue::from_str(v).unwrap()))
    }

    #[test]
    fn negotiation_follows_q_values() {
        assert_eq!(pick("gzip, deflate, br, zstd"), Some(Encoding::Br));
        assert_eq!(pick("gzip"), Some(Encoding::Gzip));
        assert_eq!(pick("br;q=0.5, gzip;q=0.8"), Some(Encoding::Gzip));
        assert_eq!(pick("br;q=0, gzip"), Some(Encoding::Gzip));
        assert_eq!(pick("br;q=0, gzip;q=0"), None);
        assert_eq!(pick("identity"), None);
        assert_eq!(pick("*"), Some(Encoding::Br));
        assert_eq!(pick("*, br;q=0"), Some(Encoding::Gzip));
        assert_eq!(pick("br;q=nonsense"), None);
        assert_eq!(negotiate(None), None);
    }

    #[test]
    fn text_types_are_compressible_and_images_are_not() {
        assert!(compressible("text/html; charset=utf-8"));
        assert!(compressible("text/css"));
        assert!(compressible("application/javascript"));
        assert!(compressible("image/svg+xml"));
        assert!(!compressible("image/png"));
        assert!(!compressible("font/woff2"));
    }

    #[test]
    fn the_cache_stays_within_its_budget() {
        let cache = CompressCache::new(10);
        cache.put(([1; 32], Encoding::Br), Bytes::from_static(b"123456"));
        cache.put(([2; 32], Encoding::Br), Bytes::from_static(b"123456"));
        assert_eq!(cache.len(), 1, "the oldest entry made room");
        assert!(cache.get(&([2; 32], Encoding::Br)).is_some());
        cache.put(([3; 32], Encoding::Br), Bytes::from_static(b"12345678901"));
        assert!(
            cache.get(&([3; 32], Encoding::Br)).is_none(),
            "too big to keep"
        );
    }
}
