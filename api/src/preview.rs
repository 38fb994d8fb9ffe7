//! Content preview start: the content hub opens the site with `ampl_domain` (its staging host for
//! the previewed content) and `ampl_timestamp` (the moment to preview, epoch milliseconds); the
//! site sends them here (a netlify.toml rule). A valid staging domain is stored in the preview
//! cookie and the editor is redirected to `/`; the preview bar island reads the cookie (so it is
//! not HttpOnly) and Exit Preview deletes it. Preview responses are never cached.

use crate::error::{ApiError, ErrorCode};
use crate::session::{secure_cookies, set_cookie};
use crate::state::AppState;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use std::collections::HashMap;

pub const PREVIEW_COOKIE: &str = "amplience-preview";
/// Spec copy for a staging domain that is not the content hub's.
pub const INVALID_STAGING_DOMAIN: &str = "Invalid amplience staging domain";
/// How long a preview lasts without the editor coming back through the content hub.
const PREVIEW_MAX_AGE: i64 = 24 * 3600;

/// A staging domain is a host name ending with the configured staging suffix, with at least one
/// label of its own before it.
pub fn check_staging_domain(domain: &str, suffix: &str) -> Result<(), ApiError> {
    let host_chars = domain
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-' || b == b'.');
    let own_label = domain
        .strip_suffix(suffix)
        .is_some_and(|label| !label.is_empty() && !label.ends_with('.') && !label.starts_with('.'));
    if host_chars && own_label && domain.len() <= 253 && !suffix.is_empty() {
        Ok(())
    } else {
        Err(
            ApiError::new(ErrorCode::InvalidStagingDomain, INVALID_STAGING_DOMAIN)
                .with_field("ampl_domain", INVALID_STAGING_DOMAIN),
        )
    }
}

pub fn router() -> axum::Router<AppState> {
    axum::Router::new().route("/preview", axum::routing::get(start))
}

fn no_store(mut resp: Response) -> Response {
    resp.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    resp
}

async fn start(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    let domain = query.get("ampl_domain").map(String::as_str).unwrap_or("");
    if let Err(e) = check_staging_domain(domain, &state.config().staging_domain_suffix) {
        return no_store(e.into_response());
    }
    let timestamp = query
        .get("ampl_timestamp")
        .map(String::as_str)
        .unwrap_or("");
    if !timestamp.bytes().all(|b| b.is_ascii_digit()) || timestamp.len() > 16 {
        return no_store(
            ApiError::new(
                ErrorCode::Validation,
                "ampl_timestamp must be a time in epoch milliseconds",
            )
            .with_field("ampl_timestamp", "must be a number of milliseconds")
            .into_response(),
        );
    }
    let secure = secure_cookies(&state, &headers);
    let cookie = set_cookie(
        PREVIEW_COOKIE,
        &format!("{domain}~{timestamp}"),
        PREVIEW_MAX_AGE,
        false,
        secure,
    );
    let mut resp = StatusCode::FOUND.into_response();
    resp.headers_mut()
        .insert(header::LOCATION, HeaderValue::from_static("/"));
    resp.headers_mut().insert(header::SET_COOKIE, cookie);
    no_store(resp)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn staging_domains() {
        let suffix = ".staging.bigcontent.io";
        assert!(check_staging_domain("abc123.staging.bigcontent.io", suffix).is_ok());
        for bad in [
            "",
            ".staging.bigcontent.io",
            "staging.bigcontent.io",
            "abc.staging.bigcontent.io.evil.com",
            "evil.com",
            "abc.staging.bigcontent.io/x",
            "ABC.staging.bigcontent.io",
        ] {
            let e = check_staging_domain(bad, suffix).unwrap_err();
            assert!(e.to_string().contains(INVALID_STAGING_DOMAIN), "{bad}");
        }
    }
}
