//! Cross-cutting request guards: request ids with one log line per 5xx, CSRF (Sec-Fetch-Site /
//! Origin), the JSON content-type rule for state-changing calls, and the operator endpoints'
//! bearer token.

use crate::error::{ApiError, ErrorBody, ErrorCode, ErrorDetail, Explained, InternalFault, copy};
use crate::json::{is_json_content_type, too_large, unsupported_media_type};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::collections::HashMap;
use tracing::Instrument;

pub const REQUEST_ID: &str = "x-request-id";

/// The operator endpoints' guard: `Authorization: Bearer {API_ADMIN_TOKEN}`, compared in constant
/// time; 401 when it is missing or wrong, and always when no token is configured.
pub fn require_admin(admin_token: Option<&str>, headers: &HeaderMap) -> Result<(), ApiError> {
    let token = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|h| h.strip_prefix("Bearer "));
    crate::webhook_signature::verify_secret_header(admin_token, token).map_err(|e| {
        tracing::warn!(reason = %e, "operator endpoint refused");
        ApiError::new(ErrorCode::Unauthorized, "A valid admin token is required")
    })
}

/// The id of the request being served, for handlers and logs.
#[derive(Clone)]
pub struct RequestId(pub String);

/// Gives every request an id (a sane incoming `X-Request-Id` is kept, so a CDN's id carries
/// through), runs it inside a span carrying that id, echoes it in the response, and turns a 5xx
/// into the opaque error body while logging its cause exactly once.
pub async fn request_id(mut req: Request, next: Next) -> Response {
    let id = req
        .headers()
        .get(REQUEST_ID)
        .and_then(|v| v.to_str().ok())
        .filter(|v| !v.is_empty() && v.len() <= 64 && v.bytes().all(|b| b.is_ascii_graphic()))
        .map(str::to_string)
        .unwrap_or_else(|| crate::store::random_id(8));
    req.extensions_mut().insert(RequestId(id.clone()));
    let method = req.method().clone();
    // Nested under /api, the router sees "/cart"; log what the client asked for.
    let path = req
        .extensions()
        .get::<axum::extract::OriginalUri>()
        .map_or_else(|| req.uri().path().to_string(), |u| u.path().to_string());
    let span = tracing::info_span!("request", request_id = %id, %method, %path);
    let started = std::time::Instant::now();
    let mut res = next.run(req).instrument(span.clone()).await;
    let status = res.status();
    if status.is_server_error() && res.extensions().get::<Explained>().is_some() {
        span.in_scope(|| tracing::warn!(%status, "request refused"));
    } else if status.is_server_error() {
        let cause = res
            .extensions()
            .get::<InternalFault>()
            .map(|f| f.0.to_string())
            .unwrap_or_else(|| "no cause recorded".into());
        span.in_scope(|| tracing::error!(%status, cause = %cause, "request failed"));
        let body = ErrorBody {
            error: ErrorDetail {
                code: ErrorCode::Internal,
                message: copy::INTERNAL.into(),
                fields: Default::default(),
                request_id: Some(id.clone()),
            },
        };
        res = (status, axum::Json(body)).into_response();
    } else {
        span.in_scope(|| {
            tracing::info!(
                status = status.as_u16(),
                elapsed_us = started.elapsed().as_micros() as u64,
                "served"
            )
        });
    }
    if let Ok(v) = HeaderValue::from_str(&id) {
        res.headers_mut().insert(REQUEST_ID, v);
    }
    res
}

/// The longest path and query an API request may have.
pub const MAX_URI_BYTES: usize = 16 * 1024;

/// Gives the API's error shape to the bare answers of the layers and the router: the body
/// limit's 413, and the 405 of a method a route does not take (keeping its `Allow` header); and
/// refuses an over-long URL with 414 in that shape.
pub async fn json_errors_for_bare_answers(req: Request, next: Next) -> Response {
    // No route takes a path and query this long; refused here in the error shape rather than
    // by the HTTP layer's bare answer at a far larger size.
    let uri_len = req.uri().path_and_query().map_or(0, |pq| pq.as_str().len());
    if uri_len > MAX_URI_BYTES {
        return ApiError::new(ErrorCode::UriTooLong, "The address is too long")
            .with_field("url", format!("must be at most {MAX_URI_BYTES} bytes"))
            .into_response();
    }
    let res = next.run(req).await;
    if is_json_response(res.headers()) {
        return res;
    }
    match res.status() {
        StatusCode::PAYLOAD_TOO_LARGE => too_large().into_response(),
        StatusCode::METHOD_NOT_ALLOWED => {
            let allow = res.headers().get(header::ALLOW).cloned();
            let message = match allow.as_ref().and_then(|a| a.to_str().ok()) {
                Some(methods) => format!("This endpoint takes {methods} only"),
                None => "This endpoint does not take this method".to_string(),
            };
            let mut answer = ApiError::new(ErrorCode::MethodNotAllowed, message).into_response();
            if let Some(allow) = allow {
                answer.headers_mut().insert(header::ALLOW, allow);
            }
            answer
        }
        _ => res,
    }
}

/// Headers on every API answer: `nosniff`, and `Cache-Control: no-store` unless the answer set
/// its own, since the answers are personal or live and a CDN proxies /api.
pub async fn api_response_headers(req: Request, next: Next) -> Response {
    let mut res = next.run(req).await;
    let headers = res.headers_mut();
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    if !headers.contains_key(header::CACHE_CONTROL) {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    res
}

fn is_json_response(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(is_json_content_type)
}

fn is_state_changing(method: &Method) -> bool {
    !matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
}

/// CSRF defence, the same rule as Go 1.25's CrossOriginProtection (and tower-http's `csrf`):
/// a state-changing request passes when `Sec-Fetch-Site` is `same-origin` or `none`, or, for
/// browsers that do not send it, when `Origin` matches the request's host or a trusted origin, or
/// when neither header is present (not a browser, so no ambient cookies to abuse). On top of that
/// a body must be JSON, which a cross-site HTML form cannot send without a CORS preflight.
pub async fn csrf(
    State(rules): State<std::sync::Arc<CsrfRules>>,
    req: Request,
    next: Next,
) -> Response {
    // A method the route does not take goes on to the router's 405: nothing can change.
    let route = rules.route_method(&req);
    if let (true, RouteMethod::Taken { declares_body }) = (is_state_changing(req.method()), route) {
        if let Err(e) = check_origin(req.headers(), &rules.trusted) {
            return e.into_response();
        }
        let declared_len = req
            .headers()
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.parse::<u64>().ok());
        let has_body = declared_len.is_some_and(|n| n > 0)
            || req.headers().contains_key(header::TRANSFER_ENCODING);
        let json = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(is_json_content_type);
        // An operation that declares a body takes JSON only; one that declares none (a DELETE,
        // an operator's action) may be sent without one, but a body it is sent must be JSON too.
        let needs_json = declares_body || has_body;
        if needs_json && !json {
            return unsupported_media_type().into_response();
        }
    }
    next.run(req).await
}

/// What the CSRF rule needs: the trusted origins, and the methods each route takes (from the
/// OpenAPI document), so a method no route takes is answered 405 rather than 403 or 415.
pub struct CsrfRules {
    pub trusted: Vec<String>,
    /// Route template (as the OpenAPI document and the router write it) → its methods, each with
    /// whether it declares a request body.
    pub methods: HashMap<String, Vec<(Method, bool)>>,
}

/// How the matched route treats a request's method.
enum RouteMethod {
    /// The route does not take the method: the router answers 405.
    NotTaken,
    /// The route takes it; whether its operation declares a body.
    Taken { declares_body: bool },
}

impl CsrfRules {
    pub fn new(trusted: Vec<String>, doc: &utoipa::openapi::OpenApi) -> CsrfRules {
        let methods = doc
            .paths
            .paths
            .iter()
            .map(|(path, item)| {
                let item = serde_json::to_value(item).unwrap_or_default();
                let methods = item
                    .as_object()
                    .map(|ops| {
                        ops.iter()
                            .filter_map(|(m, op)| {
                                let method =
                                    Method::from_bytes(m.to_ascii_uppercase().as_bytes()).ok()?;
                                Some((method, op.get("requestBody").is_some()))
                            })
                            .collect()
                    })
                    .unwrap_or_default();
                (path.clone(), methods)
            })
            .collect();
        CsrfRules { trusted, methods }
    }

    /// Whether the matched route takes this method, and with a body (an unknown route is
    /// assumed to take it with one, the stricter reading).
    fn route_method(&self, req: &Request) -> RouteMethod {
        let taken = RouteMethod::Taken {
            declares_body: true,
        };
        let Some(matched) = req.extensions().get::<axum::extract::MatchedPath>() else {
            return taken;
        };
        let path = matched.as_str();
        let methods = self
            .methods
            .get(path)
            .or_else(|| path.strip_prefix("/api").and_then(|p| self.methods.get(p)));
        let Some(methods) = methods else {
            return taken;
        };
        match methods.iter().find(|(m, _)| m == req.method()) {
            Some((_, declares_body)) => RouteMethod::Taken {
                declares_body: *declares_body,
            },
            None => RouteMethod::NotTaken,
        }
    }
}

fn check_origin(headers: &HeaderMap, trusted: &[String]) -> Result<(), ApiError> {
    let forbidden = |why: &str| {
        ApiError::new(ErrorCode::CrossSiteRequest, format!("origin: {why}"))
            .with_field("origin", why)
    };
    let origin = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok());
    if let Some(o) = origin
        && trusted.iter().any(|t| t == o)
    {
        return Ok(());
    }
    match headers.get("sec-fetch-site").and_then(|v| v.to_str().ok()) {
        Some("same-origin") | Some("none") => return Ok(()),
        Some(_) => return Err(forbidden("cross-site requests are not allowed")),
        None => {}
    }
    let Some(origin) = origin else {
        return Ok(());
    };
    // Same site means the same scheme and host: the API speaks plain HTTP itself, and a proxy
    // that ends TLS in front of it says so in `X-Forwarded-Proto`.
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok());
    let scheme = headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(',').next())
        .map_or("http", str::trim);
    match (origin.split_once("://"), host) {
        (Some((s, a)), Some(h)) if s.eq_ignore_ascii_case(scheme) && a == h => Ok(()),
        _ => Err(forbidden("does not match this site")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, HeaderValue::from_static(v));
        }
        h
    }

    #[test]
    fn origin_rules() {
        let none: Vec<String> = vec![];
        assert!(check_origin(&headers(&[]), &none).is_ok());
        assert!(check_origin(&headers(&[("sec-fetch-site", "same-origin")]), &none).is_ok());
        assert!(check_origin(&headers(&[("sec-fetch-site", "cross-site")]), &none).is_err());
        assert!(check_origin(&headers(&[("sec-fetch-site", "same-site")]), &none).is_err());
        assert!(
            check_origin(
                &headers(&[("origin", "http://shop.test"), ("host", "shop.test")]),
                &none
            )
            .is_ok()
        );
        // The scheme counts: https only where the proxy says the request came over https.
        assert!(
            check_origin(
                &headers(&[("origin", "https://shop.test"), ("host", "shop.test")]),
                &none
            )
            .is_err()
        );
        assert!(
            check_origin(
                &headers(&[
                    ("origin", "https://shop.test"),
                    ("host", "shop.test"),
                    ("x-forwarded-proto", "https")
                ]),
                &none
            )
            .is_ok()
        );
        assert!(
            check_origin(
                &headers(&[
                    ("origin", "http://shop.test"),
                    ("host", "shop.test"),
                    ("x-forwarded-proto", "https")
                ]),
                &none
            )
            .is_err()
        );
        assert!(
            check_origin(
                &headers(&[("origin", "https://evil.test"), ("host", "shop.test")]),
                &none
            )
            .is_err()
        );
        let trusted = vec!["https://cdn.shop.test".to_string()];
        assert!(
            check_origin(
                &headers(&[
                    ("origin", "https://cdn.shop.test"),
                    ("host", "origin.internal")
                ]),
                &trusted
            )
            .is_ok()
        );
    }
}
