//! Completes the OpenAPI document with the answers every operation shares, so a client generated
//! from it accepts every answer the server gives: the error answers of the common layers (bad
//! parameters or body, the CSRF origin check, the body and URL limits, a server fault), and the
//! schemas of shared parameters (the market).

use serde::Deserialize;
use utoipa::ToSchema;
use utoipa::openapi::path::Operation;
use utoipa::openapi::{Content, OpenApi, Ref, RefOr, Response};

/// The market a request is about (`market` query parameter); the UK when absent.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
#[allow(dead_code)] // Only its schema is used: requests are read by `session::market_from_query`.
pub enum MarketCode {
    Uk,
    Us,
    Eu,
}

/// A status the shared layers answer in the error shape, its description, and which operations
/// can get it.
type SharedAnswer = (&'static str, &'static str, fn(&Shape) -> bool);

const SHARED: &[SharedAnswer] = &[
    (
        "400",
        "A parameter or the body is malformed or invalid (`fields` names each one)",
        |s| s.has_input,
    ),
    (
        "403",
        "A cross-site request: the Origin is neither this site nor a trusted one",
        |s| s.changes_state,
    ),
    ("413", "The body is larger than the API's limit", |s| {
        s.has_body
    }),
    (
        "414",
        "The path and query are longer than the API's limit",
        |_| true,
    ),
    ("415", "The body is not `application/json`", |s| s.has_body),
    (
        "500",
        "A server fault; `request_id` names its one log line",
        |_| true,
    ),
];

/// What decides which shared answers an operation can get.
struct Shape {
    has_input: bool,
    has_body: bool,
    changes_state: bool,
}

/// Adds the shared error answers each operation can get, keeping any the operation describes
/// itself.
pub fn complete(doc: &mut OpenApi) {
    for item in doc.paths.paths.values_mut() {
        let path_has_params = item.parameters.as_ref().is_some_and(|p| !p.is_empty());
        for (op, changes_state) in [
            (&mut item.get, false),
            (&mut item.post, true),
            (&mut item.put, true),
            (&mut item.patch, true),
            (&mut item.delete, true),
        ] {
            let Some(op) = op.as_mut() else { continue };
            let shape = Shape {
                has_input: path_has_params
                    || op.parameters.as_ref().is_some_and(|p| !p.is_empty())
                    || op.request_body.is_some(),
                has_body: op.request_body.is_some(),
                changes_state,
            };
            add_shared(op, &shape);
        }
    }
}

fn add_shared(op: &mut Operation, shape: &Shape) {
    for (status, description, applies) in SHARED {
        if applies(shape) {
            op.responses
                .responses
                .entry((*status).to_string())
                .or_insert_with(|| error_response(description));
        }
    }
}

fn error_response(description: &str) -> RefOr<Response> {
    let mut response = Response::new(description);
    response.content.insert(
        "application/json".to_string(),
        RefOr::T(Content::new(Some(Ref::from_schema_name("ErrorBody")))),
    );
    RefOr::T(response)
}
