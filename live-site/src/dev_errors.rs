//! Shows the last failed rebuild in the browser during `storefront dev`: an overlay injected into
//! every HTML page while the last good site keeps being served.

use axum::body::{Body, to_bytes};
use axum::extract::{Request, State};
use axum::http::header;
use axum::middleware::Next;
use axum::response::Response;
use std::sync::{Arc, RwLock};

#[derive(Clone, Default)]
pub struct LastError(pub Arc<RwLock<Option<String>>>);

impl LastError {
    pub fn set(&self, error: Option<String>) {
        *self.0.write().unwrap_or_else(|e| e.into_inner()) = error;
    }
    pub fn get(&self) -> Option<String> {
        self.0.read().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

pub fn overlay(error: &str) -> String {
    format!(
        "<div id=\"storefront-dev-error\" role=\"alert\" style=\"position:fixed;inset:auto 0 0 0;max-height:60vh;overflow:auto;z-index:2147483647;background:#1d1d1b;color:#fff;font:14px/1.5 monospace;padding:16px 20px;border-top:4px solid #c8102e\"><strong>Rebuild failed — still serving the last good site</strong><pre style=\"white-space:pre-wrap;margin:8px 0 0\">{}</pre></div>",
        escape(error)
    )
}

/// Middleware: while a rebuild error is pending, HTML responses carry the overlay.
pub async fn inject(State(last): State<LastError>, req: Request, next: Next) -> Response {
    let resp = next.run(req).await;
    let Some(error) = last.get() else { return resp };
    let is_html = resp
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/html"));
    if !is_html {
        return resp;
    }
    let (mut parts, body) = resp.into_parts();
    let Ok(bytes) = to_bytes(body, 64 * 1024 * 1024).await else {
        return Response::from_parts(parts, Body::empty());
    };
    let html = String::from_utf8_lossy(&bytes);
    let with_overlay = match html.rfind("</body>") {
        Some(i) => format!("{}{}{}", &html[..i], overlay(&error), &html[i..]),
        None => format!("{html}{}", overlay(&error)),
    };
    parts.headers.remove(header::CONTENT_LENGTH);
    Response::from_parts(parts, Body::from(with_overlay))
}
