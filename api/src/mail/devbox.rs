//! `storefront dev`'s mail pages under `/dev/mail`: the local mailbox (every message the sender
//! delivered, newest first, each with its HTML part, its text part and the raw message from the
//! maildir) and a preview of every message in every market with sample data. Development only:
//! the servers for production never mount it.

use super::message::{self, Email};
use super::outbox::{self, Delivered};
use crate::state::AppState;
use axum::Router;
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use serde::Deserialize;
use std::path::PathBuf;

/// Where the pages are mounted.
pub const MOUNT: &str = "/dev/mail";

/// The pages; `maildir` is the mailbox the sender writes to (for the raw messages).
pub fn router(state: AppState, maildir: Option<PathBuf>) -> Router {
    Router::new()
        .route("/", get(mailbox))
        .route("/preview", get(previews))
        .route("/preview/{market}/{kind}", get(preview))
        .route("/{id}", get(one))
        .route("/{id}/raw", get(raw))
        .with_state((state, maildir))
}

type Pages = (AppState, Option<PathBuf>);

fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

fn page(title: &str, body: &str) -> Html<String> {
    Html(format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{title}</title><style>\
         body{{font-family:system-ui,sans-serif;margin:24px;color:#1d1d1b}}\
         table{{border-collapse:collapse}}td,th{{padding:6px 12px;border-bottom:1px solid #ddd;text-align:left}}\
         iframe{{width:100%;max-width:720px;height:640px;border:1px solid #ccc}}\
         pre{{white-space:pre-wrap;background:#f6f6f6;padding:12px;max-width:720px}}\
         </style></head><body><main>{body}</main></body></html>",
        title = escape(title)
    ))
}

/// The HTML part in a frame; links open in the whole tab, as they would from a mail client.
fn html_frame(title: &str, html: &str) -> String {
    let html = html.replacen("<head>", "<head><base target=\"_top\">", 1);
    format!(
        "<iframe title=\"{}\" srcdoc=\"{}\"></iframe>",
        escape(title),
        escape(&html)
    )
}

fn not_found() -> Response {
    (
        StatusCode::NOT_FOUND,
        page(
            "Not found",
            "<h1>No such message</h1><p><a href=\"/dev/mail\">Back to the mailbox</a></p>",
        ),
    )
        .into_response()
}

#[derive(Deserialize)]
struct MailboxQuery {
    /// Only messages to this address.
    to: Option<String>,
}

async fn mailbox(State((state, _)): State<Pages>, Query(q): Query<MailboxQuery>) -> Response {
    let messages = match outbox::delivered(state.db(), 200).await {
        Ok(m) => m,
        Err(e) => {
            return (
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("reading the outbox: {e}"),
            )
                .into_response();
        }
    };
    let wanted = q.to.as_deref().map(|t| t.trim().to_lowercase());
    let rows: String = messages
        .iter()
        .filter(|m| wanted.as_deref().is_none_or(|w| m.recipient == w))
        .map(|m| {
            format!(
                "<tr><td><a href=\"{MOUNT}/{id}\">{subject}</a></td><td>{to}</td><td>{kind}</td></tr>",
                id = m.id,
                subject = escape(&m.subject),
                to = escape(&m.recipient),
                kind = escape(&m.kind)
            )
        })
        .collect();
    let body = if rows.is_empty() {
        "<p>No mail yet. Messages appear here a moment after the shop sends them.</p>".to_string()
    } else {
        format!(
            "<table><thead><tr><th>Subject</th><th>To</th><th>Kind</th></tr></thead><tbody>{rows}</tbody></table>"
        )
    };
    page(
        "Mailbox",
        &format!(
            "<h1>Mailbox</h1><p>Every email the shop sent while running <code>storefront dev</code>, newest first. \
             <a href=\"{MOUNT}/preview\">Preview every message</a></p>{body}"
        ),
    )
    .into_response()
}

async fn one(State((state, _)): State<Pages>, Path(id): Path<String>) -> Response {
    let Ok(Some(m)) = outbox::delivered_one(state.db(), &id).await else {
        return not_found();
    };
    let Delivered {
        recipient,
        subject,
        body,
        html,
        ..
    } = m;
    let html = html.map(|h| html_frame(&subject, &h)).unwrap_or_default();
    page(
        &subject,
        &format!(
            "<p><a href=\"{MOUNT}\">Back to the mailbox</a> · <a href=\"{MOUNT}/{id}/raw\">Raw message</a></p>\
             <h1>{s}</h1><p>To: {to}</p><h2>HTML</h2>{html}<h2>Text</h2><pre>{text}</pre>",
            s = escape(&subject),
            to = escape(&recipient),
            text = escape(&body)
        ),
    )
    .into_response()
}

/// The message as it was written to the maildir (`new/{time}.{id}.eml`).
async fn raw(State((_, maildir)): State<Pages>, Path(id): Path<String>) -> Response {
    if !crate::session::is_token(&id) {
        return not_found();
    }
    let suffix = format!(".{id}.eml");
    let found = maildir.and_then(|dir| {
        std::fs::read_dir(dir.join("new"))
            .ok()?
            .filter_map(Result::ok)
            .find(|e| e.file_name().to_string_lossy().ends_with(&suffix))
    });
    match found.and_then(|e| std::fs::read(e.path()).ok()) {
        Some(bytes) => {
            ([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], bytes).into_response()
        }
        None => not_found(),
    }
}

fn samples(state: &AppState) -> Vec<Email> {
    message::samples(&state.catalog().store.name, &state.config().public_base_url)
}

async fn previews(State((state, _)): State<Pages>) -> Response {
    let rows: String = samples(&state)
        .iter()
        .map(|e| {
            format!(
                "<tr><td><a href=\"{MOUNT}/preview/{m}/{k}\">{k}</a></td><td>{m}</td><td>{s}</td></tr>",
                m = e.market.code,
                k = e.kind.code(),
                s = escape(&e.subject)
            )
        })
        .collect();
    page(
        "Message previews",
        &format!(
            "<h1>Message previews</h1><p>Every message in every market, rendered from \
             <code>site-src/templates/mail</code> with sample data. <a href=\"{MOUNT}\">Mailbox</a></p>\
             <table><thead><tr><th>Message</th><th>Market</th><th>Subject</th></tr></thead><tbody>{rows}</tbody></table>"
        ),
    )
    .into_response()
}

async fn preview(
    State((state, _)): State<Pages>,
    Path((market, kind)): Path<(String, String)>,
) -> Response {
    let Some(email) = samples(&state)
        .into_iter()
        .find(|e| e.market.code == market && e.kind.code() == kind)
    else {
        return not_found();
    };
    page(
        &email.subject,
        &format!(
            "<p><a href=\"{MOUNT}/preview\">All previews</a></p><h1>{s}</h1><p>To: {to} · market {m}{unsub}</p>\
             <h2>HTML</h2>{html}<h2>Text</h2><pre>{text}</pre>",
            s = escape(&email.subject),
            to = escape(&email.to),
            m = email.market.code,
            unsub = email
                .list_unsubscribe
                .as_deref()
                .map(|u| format!(" · List-Unsubscribe: {}", escape(u)))
                .unwrap_or_default(),
            html = html_frame(&email.subject, &email.html),
            text = escape(&email.text)
        ),
    )
    .into_response()
}
