//! Serves a built site the way the static host does: files and directory index pages, then the
//! `_redirects` rules (legacy routes, client-side screens, per-market 404 pages), with the API
//! nested at /api on the same origin. The files come from a directory (`public/`) or, under the
//! rebuild daemon, from its `LiveView` (generation overlays swapped with one pointer flip). Under
//! `storefront serve` text files are also answered compressed (br / gzip) with ETags
//! (`crate::compress`).

use crate::netlify::NetlifyConfig;
use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use std::path::{Path, PathBuf};
use tower::ServiceExt;
use tower_http::services::ServeDir;

/// Where the site's files are read from.
#[derive(Clone)]
pub enum SiteFiles {
    /// A directory, e.g. the `public` symlink.
    Dir(PathBuf),
    /// The rebuild daemon's current view.
    View(crate::rebuild::SharedView),
}

impl SiteFiles {
    /// The directory that holds `path` (URL path, leading slash), if the site has it.
    fn root_for(&self, path: &str) -> Option<PathBuf> {
        match self {
            SiteFiles::Dir(dir) => Some(dir.clone()),
            SiteFiles::View(view) => {
                let view = view.read().unwrap_or_else(|e| e.into_inner()).clone();
                view.dir_of(path.trim_start_matches('/'))
                    .map(Path::to_path_buf)
            }
        }
    }

    /// A small site file (the redirect rules), read whole.
    pub fn read(&self, rel: &str) -> Option<Vec<u8>> {
        let root = self.root_for(&format!("/{rel}"))?;
        std::fs::read(root.join(rel)).ok()
    }
}

/// Which route rules apply when no file matches.
#[derive(Clone)]
pub enum Rules {
    /// The build's `_redirects` file (what `storefront dev` serves).
    RedirectsFile,
    /// netlify.toml's redirects, as production applies them (`storefront serve`).
    Netlify(std::sync::Arc<NetlifyConfig>),
}

#[derive(Clone)]
pub struct SiteState {
    pub files: SiteFiles,
    pub rules: Rules,
    /// Compressed answers and ETags for text files (`storefront serve`); `None` serves files as
    /// they are (`storefront dev`, whose live-reload layer rewrites HTML bodies).
    pub compress: Option<std::sync::Arc<crate::compress::CompressCache>>,
    /// Editor code that only a content preview has rendered (`storefront serve` with a daemon).
    pub preview_code: Option<crate::rebuild::PreviewCode>,
}

/// The site with the API mounted at /api.
pub fn router(public: PathBuf, api_state: api::AppState) -> Router {
    router_over(SiteFiles::Dir(public), api_state)
}

/// The site from any file source, with the API mounted at /api.
pub fn router_over(files: SiteFiles, api_state: api::AppState) -> Router {
    router_with(files, Rules::RedirectsFile, api_state)
}

/// What `storefront serve` serves: netlify.toml's redirects and headers over the site files, and
/// the content preview route (rendered by the daemon, when there is one).
pub fn production_router(
    files: SiteFiles,
    netlify: std::sync::Arc<crate::netlify::NetlifyConfig>,
    api_state: api::AppState,
    daemon: Option<crate::rebuild::Daemon>,
) -> Router {
    let preview_code = daemon.as_ref().map(crate::rebuild::Daemon::preview_code);
    let preview = crate::preview_route::router(crate::preview_route::PreviewState {
        daemon,
        staging_domain_suffix: api_state.config().staging_domain_suffix.clone(),
    });
    let state = SiteState {
        files,
        rules: Rules::Netlify(netlify.clone()),
        compress: Some(std::sync::Arc::new(
            crate::compress::CompressCache::default(),
        )),
        preview_code,
    };
    router_from(state, api_state)
        .merge(preview)
        .layer(axum::middleware::from_fn_with_state(
            netlify,
            crate::netlify::apply_headers,
        ))
}

pub fn router_with(files: SiteFiles, rules: Rules, api_state: api::AppState) -> Router {
    router_from(
        SiteState {
            files,
            rules,
            compress: None,
            preview_code: None,
        },
        api_state,
    )
}

fn router_from(state: SiteState, api_state: api::AppState) -> Router {
    let router = Router::new().fallback(serve_site).with_state(state);
    with_api(router, api_state)
}

/// Nests the API at `/api` and, when the sandbox is the payment provider, its browser pages
/// (card tokenisation, 3-D Secure, approvals) at `/sandbox-pay`, beside the shop.
pub fn with_api(router: Router, api_state: api::AppState) -> Router {
    let router = match api_state.sandbox_pages() {
        Some(pages) => router.nest(api::payments::sandbox::MOUNT, pages),
        None => router,
    };
    router.nest("/api", api::app(api_state))
}

async fn serve_file(
    state: &SiteState,
    path: &str,
    req_headers: &axum::http::HeaderMap,
) -> Response {
    let Some(public) = state.files.root_for(path) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let Ok(uri) = path.parse::<Uri>() else {
        return StatusCode::BAD_REQUEST.into_response();
    };
    let mut req = Request::builder()
        .uri(uri)
        .body(Body::empty())
        .expect("request builds");
    // With ETags, If-None-Match decides (RFC 9110 13.2.2): the file server must not answer 304
    // from If-Modified-Since for a representation whose ETag the client does not hold.
    let etags = state.compress.is_some() && req_headers.contains_key(header::IF_NONE_MATCH);
    for name in [header::IF_MODIFIED_SINCE, header::RANGE] {
        if etags && name == header::IF_MODIFIED_SINCE {
            continue;
        }
        if let Some(v) = req_headers.get(&name) {
            req.headers_mut().insert(name, v.clone());
        }
    }
    let resp = match ServeDir::new(&public)
        .append_index_html_on_directories(false)
        .oneshot(req)
        .await
    {
        Ok(resp) => resp.into_response(),
        Err(never) => match never {},
    };
    match &state.compress {
        Some(cache) => crate::compress::negotiate_response(cache, resp, req_headers).await,
        None => resp,
    }
}

/// Files first, then `path/index.html`, then the first matching redirect rule. Under netlify.toml
/// a forced rule applies before the files, as on Netlify.
pub async fn serve_site(State(state): State<SiteState>, req: Request) -> Response {
    let path = req.uri().path().to_string();
    let raw_query = req.uri().query().unwrap_or_default().to_string();
    let headers = req.headers().clone();
    if let Rules::Netlify(config) = &state.rules
        && let Some(r) = config.resolve(&path, &raw_query, true)
        && !r.to.starts_with(crate::netlify::API_ORIGIN)
    {
        return apply_rule(&state, &r.to, r.status, &raw_query, &headers).await;
    }
    if !path.ends_with('/') || path == "/" {
        let resp = serve_file(&state, &path, &headers).await;
        if resp.status() != StatusCode::NOT_FOUND {
            return resp;
        }
    }
    let index = format!("{}/index.html", path.trim_end_matches('/'));
    let resp = serve_file(&state, &index, &headers).await;
    if resp.status() != StatusCode::NOT_FOUND {
        return resp;
    }
    if let Some(text) = state.preview_code.as_ref().and_then(|c| c.get(&path)) {
        return editor_code_response(&path, text);
    }
    let resolved = match &state.rules {
        Rules::RedirectsFile => state
            .files
            .read("_redirects")
            .and_then(|t| String::from_utf8(t).ok())
            .and_then(|t| NetlifyConfig::from_redirects_file(&t).ok())
            .and_then(|rules| rules.resolve(path.trim_end_matches('/'), &raw_query, false))
            .map(|r| (r.to, r.status)),
        Rules::Netlify(config) => config
            .resolve(path.trim_end_matches('/'), &raw_query, false)
            // Proxy rules point at the API, which this server mounts itself.
            .filter(|r| !r.to.starts_with(crate::netlify::API_ORIGIN))
            .map(|r| (r.to, r.status)),
    };
    match resolved {
        Some((to, status)) => apply_rule(&state, &to, status, &raw_query, &headers).await,
        None => (StatusCode::NOT_FOUND, "This page could not be found").into_response(),
    }
}

/// A previewed item's script or stylesheet (`crate::rebuild::PreviewCode`).
fn editor_code_response(path: &str, text: String) -> Response {
    let content_type = if path.ends_with(".css") {
        "text/css; charset=utf-8"
    } else {
        "text/javascript; charset=utf-8"
    };
    ([(header::CONTENT_TYPE, content_type)], text).into_response()
}

/// A redirect (with the request's query unless the target has its own) or a rewrite to a file
/// answered with the rule's status.
async fn apply_rule(
    state: &SiteState,
    to: &str,
    status: u16,
    raw_query: &str,
    headers: &axum::http::HeaderMap,
) -> Response {
    if matches!(status, 301 | 302 | 303 | 307 | 308) {
        let mut resp = Response::new(Body::empty());
        *resp.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::MOVED_PERMANENTLY);
        let location = if to.contains('?') || raw_query.is_empty() {
            to.to_string()
        } else {
            format!("{to}?{raw_query}")
        };
        if let Ok(v) = HeaderValue::from_str(&location) {
            resp.headers_mut().insert(header::LOCATION, v);
        }
        return resp;
    }
    // A rewrite answered with another status (a 404 page) is never a 304 for the client's copy.
    let mut headers = headers.clone();
    if status != 200 {
        headers.remove(header::IF_NONE_MATCH);
        headers.remove(header::IF_MODIFIED_SINCE);
    }
    let mut resp = serve_file(state, to, &headers).await;
    if resp.status() == StatusCode::OK {
        *resp.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::OK);
    }
    resp
}
