//! A loopback fake of Netlify's deploy API for the tests and `storefront bench-deploy`: the same
//! routes, bodies and states as the real API (docs/deploy.md), with the site's known digests
//! remembered across deploys, the live deploy switched only when a deploy becomes ready, and
//! faults on demand (failed uploads, 429 with `Retry-After`, slow uploads).

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, put};
use generator::output::sha1_hex;
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet, HashSet};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// One deploy the fake holds.
#[derive(Debug, Clone)]
pub struct FakeDeploy {
    pub id: String,
    /// "/path" → SHA-1, as created.
    pub files: BTreeMap<String, String>,
    pub async_diff: bool,
    pub state: String,
    /// Digests still to upload.
    pub missing: BTreeSet<String>,
    /// Digests the site lacked when the deploy was created (the `required` answer).
    pub required: Vec<String>,
    pub created: Instant,
    pub ready_at: Option<Instant>,
}

/// One request the fake answered.
#[derive(Debug, Clone)]
pub struct Logged {
    pub method: &'static str,
    pub path: String,
    pub status: u16,
    pub at: Instant,
}

/// Faults to inject, consumed as requests come.
#[derive(Debug, Clone, Default)]
pub struct Faults {
    /// After this many accepted uploads, the next `fail_uploads` uploads answer 500.
    pub fail_after_uploads: usize,
    pub fail_uploads: usize,
    /// The next this many uploads answer 429 with `Retry-After: retry_after_secs`.
    pub rate_limit_uploads: usize,
    pub retry_after_secs: u64,
    /// Each upload takes this long before it is answered.
    pub upload_delay: Duration,
}

#[derive(Default)]
struct Fake {
    token: String,
    site_id: String,
    known: HashSet<String>,
    deploys: BTreeMap<String, FakeDeploy>,
    /// Deploy ids in creation order.
    order: Vec<String>,
    live: Option<String>,
    uploads: Vec<(String, String)>,
    accepted_uploads: usize,
    log: Vec<Logged>,
    faults: Faults,
}

#[derive(Clone)]
pub struct FakeNetlify {
    pub addr: SocketAddr,
    state: Arc<Mutex<Fake>>,
}

type Shared = Arc<Mutex<Fake>>;

impl FakeNetlify {
    /// Serves the fake on a loopback port for `site_id`, accepting bearer `token`.
    pub async fn start(token: &str, site_id: &str) -> std::io::Result<FakeNetlify> {
        let state: Shared = Arc::new(Mutex::new(Fake {
            token: token.into(),
            site_id: site_id.into(),
            ..Fake::default()
        }));
        let app = axum::Router::new()
            .route("/api/v1/sites/{site_id}/deploys", post(create))
            .route("/api/v1/deploys/{deploy_id}", get(read))
            .route(
                "/api/v1/sites/{site_id}/deploys/{deploy_id}",
                get(read_of_site),
            )
            .route("/api/v1/deploys/{deploy_id}/files/{*path}", put(upload))
            // A 120k-file digest list is ~12 MB; axum's default limit is 2 MB.
            .layer(axum::extract::DefaultBodyLimit::max(256 * 1024 * 1024))
            .with_state(state.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        tokio::spawn(async move { axum::serve(listener, app).await });
        Ok(FakeNetlify { addr, state })
    }

    /// The API base URL to configure (`NETLIFY_API_URL`).
    pub fn base_url(&self) -> String {
        format!("http://{}/api/v1", self.addr)
    }

    fn with<T>(&self, f: impl FnOnce(&mut Fake) -> T) -> T {
        f(&mut self.state.lock().unwrap_or_else(|e| e.into_inner()))
    }

    pub fn set_faults(&self, faults: Faults) {
        self.with(|s| {
            s.faults = faults;
            s.accepted_uploads = 0;
        });
    }

    /// The deploy the site serves, if any became ready.
    pub fn live(&self) -> Option<FakeDeploy> {
        self.with(|s| s.live.as_ref().and_then(|id| s.deploys.get(id).cloned()))
    }

    /// Every deploy, oldest first.
    pub fn deploys(&self) -> Vec<FakeDeploy> {
        self.with(|s| {
            s.order
                .iter()
                .filter_map(|id| s.deploys.get(id).cloned())
                .collect()
        })
    }

    /// Every accepted upload: (deploy id, path).
    pub fn uploads(&self) -> Vec<(String, String)> {
        self.with(|s| s.uploads.clone())
    }

    pub fn log(&self) -> Vec<Logged> {
        self.with(|s| s.log.clone())
    }
}

fn error(status: StatusCode, message: &str) -> Response {
    (
        status,
        Json(json!({"code": status.as_u16(), "message": message})),
    )
        .into_response()
}

fn authorised(s: &Fake, headers: &HeaderMap) -> bool {
    headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v == format!("Bearer {}", s.token))
}

/// The deploy as the API shows it; "preparing" turns "prepared" once read (the diff is done),
/// "processing" turns "ready" (and live) once its processing time has passed.
fn view(s: &mut Fake, id: &str) -> Option<Value> {
    let now = Instant::now();
    let d = s.deploys.get_mut(id)?;
    if d.state == "preparing" {
        d.state = if d.missing.is_empty() {
            "prepared"
        } else {
            "uploading"
        }
        .into();
        if d.missing.is_empty() {
            d.state = "processing".into();
            d.ready_at = Some(now);
        }
    }
    if d.state == "processing" && d.ready_at.is_some_and(|at| at <= now) {
        d.state = "ready".into();
        let id = d.id.clone();
        s.live = Some(id);
    }
    let d = s.deploys.get(id)?;
    let required = if d.state == "preparing" {
        Value::Null
    } else {
        json!(d.required)
    };
    Some(json!({
        "id": d.id,
        "site_id": s.site_id,
        "state": d.state,
        "required": required,
        "required_functions": [],
    }))
}

fn logged(s: &mut Fake, method: &'static str, path: String, response: Response) -> Response {
    s.log.push(Logged {
        method,
        path,
        status: response.status().as_u16(),
        at: Instant::now(),
    });
    response
}

async fn create(
    State(state): State<Shared>,
    Path(site_id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let mut s = state.lock().unwrap_or_else(|e| e.into_inner());
    let path = format!("/api/v1/sites/{site_id}/deploys");
    let response = create_in(&mut s, &site_id, &headers, &body);
    logged(&mut s, "POST", path, response)
}

fn create_in(s: &mut Fake, site_id: &str, headers: &HeaderMap, body: &[u8]) -> Response {
    if !authorised(s, headers) {
        return error(StatusCode::UNAUTHORIZED, "Access Denied");
    }
    if site_id != s.site_id {
        return error(StatusCode::NOT_FOUND, "Not Found");
    }
    let Ok(body) = serde_json::from_slice::<Value>(body) else {
        return error(StatusCode::BAD_REQUEST, "body is not JSON");
    };
    let Some(listed) = body["files"].as_object() else {
        return error(
            StatusCode::UNPROCESSABLE_ENTITY,
            "files: an object is required",
        );
    };
    let mut files = BTreeMap::new();
    for (path, digest) in listed {
        let digest = digest.as_str().unwrap_or_default();
        let hex = digest.len() == 40 && digest.bytes().all(|b| b.is_ascii_hexdigit());
        if !path.starts_with('/') || !hex {
            return error(
                StatusCode::UNPROCESSABLE_ENTITY,
                &format!("files: {path:?}: a /path and a SHA-1 are required"),
            );
        }
        files.insert(path.clone(), digest.to_string());
    }
    let missing: BTreeSet<String> = files
        .values()
        .filter(|d| !s.known.contains(*d))
        .cloned()
        .collect();
    let async_diff = body["async"].as_bool().unwrap_or(false);
    let id = format!("{:024x}", s.order.len() + 1);
    let now = Instant::now();
    let mut deploy = FakeDeploy {
        id: id.clone(),
        files,
        async_diff,
        state: "uploading".into(),
        required: missing.iter().cloned().collect(),
        missing,
        created: now,
        ready_at: None,
    };
    if async_diff {
        deploy.state = "preparing".into();
    } else if deploy.missing.is_empty() {
        deploy.state = "processing".into();
        deploy.ready_at = Some(now);
    }
    s.order.push(id.clone());
    s.deploys.insert(id.clone(), deploy);
    match view(s, &id) {
        Some(v) => Json(v).into_response(),
        None => error(StatusCode::INTERNAL_SERVER_ERROR, "lost the deploy"),
    }
}

async fn read(
    State(state): State<Shared>,
    Path(deploy_id): Path<String>,
    headers: HeaderMap,
) -> Response {
    let mut s = state.lock().unwrap_or_else(|e| e.into_inner());
    let response = if !authorised(&s, &headers) {
        error(StatusCode::UNAUTHORIZED, "Access Denied")
    } else {
        match view(&mut s, &deploy_id) {
            Some(v) => Json(v).into_response(),
            None => error(StatusCode::NOT_FOUND, "Not Found"),
        }
    };
    logged(
        &mut s,
        "GET",
        format!("/api/v1/deploys/{deploy_id}"),
        response,
    )
}

async fn read_of_site(
    State(state): State<Shared>,
    Path((_site, deploy_id)): Path<(String, String)>,
    headers: HeaderMap,
) -> Response {
    read(State(state), Path(deploy_id), headers).await
}

async fn upload(
    State(state): State<Shared>,
    Path((deploy_id, path)): Path<(String, String)>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let delay = state
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .faults
        .upload_delay;
    if !delay.is_zero() {
        tokio::time::sleep(delay).await;
    }
    let mut s = state.lock().unwrap_or_else(|e| e.into_inner());
    let response = upload_in(&mut s, &deploy_id, &path, &headers, &body);
    logged(
        &mut s,
        "PUT",
        format!("/api/v1/deploys/{deploy_id}/files/{path}"),
        response,
    )
}

fn upload_in(s: &mut Fake, id: &str, path: &str, headers: &HeaderMap, body: &[u8]) -> Response {
    if !authorised(s, headers) {
        return error(StatusCode::UNAUTHORIZED, "Access Denied");
    }
    if headers
        .get("content-type")
        .is_none_or(|v| v != "application/octet-stream")
    {
        return error(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "files are uploaded as application/octet-stream",
        );
    }
    if s.faults.rate_limit_uploads > 0 {
        s.faults.rate_limit_uploads -= 1;
        let wait = s.faults.retry_after_secs.to_string();
        let mut response = error(StatusCode::TOO_MANY_REQUESTS, "Rate limit exceeded");
        if let Ok(v) = wait.parse() {
            response.headers_mut().insert("retry-after", v);
        }
        return response;
    }
    if s.accepted_uploads >= s.faults.fail_after_uploads && s.faults.fail_uploads > 0 {
        s.faults.fail_uploads -= 1;
        return error(StatusCode::INTERNAL_SERVER_ERROR, "Internal Server Error");
    }
    let Some(deploy) = s.deploys.get_mut(id) else {
        return error(StatusCode::NOT_FOUND, "Not Found");
    };
    // A digest shared by two paths is uploaded for each; the second may come once the first
    // completed the deploy.
    if !matches!(
        deploy.state.as_str(),
        "uploading" | "prepared" | "processing"
    ) {
        return error(
            StatusCode::UNPROCESSABLE_ENTITY,
            &format!("deploy is {}", deploy.state),
        );
    }
    let key = format!("/{path}");
    let Some(digest) = deploy.files.get(&key).cloned() else {
        return error(
            StatusCode::NOT_FOUND,
            &format!("{key} is not in this deploy"),
        );
    };
    if sha1_hex(body) != digest {
        return error(
            StatusCode::UNPROCESSABLE_ENTITY,
            &format!("{key}: the content does not match its SHA-1"),
        );
    }
    deploy.missing.remove(&digest);
    if deploy.missing.is_empty() {
        deploy.state = "processing".into();
        deploy.ready_at = Some(Instant::now());
    }
    s.known.insert(digest);
    s.accepted_uploads += 1;
    s.uploads.push((id.to_string(), key));
    Json(json!({"id": sha1_hex(path.as_bytes()), "path": format!("/{path}")})).into_response()
}
