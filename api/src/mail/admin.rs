//! The operator's view of the outbox (`Authorization: Bearer API_ADMIN_TOKEN`, like the order
//! endpoints and the rebuild status): how many messages are pending, sent and failed, the messages
//! themselves with the reason of the last failure, and a retry of a dead letter.

use super::outbox::{self, OutboxEntry, STATES};
use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::security::require_admin;
use crate::session::is_token;
use crate::state::AppState;
use axum::Json;
use axum::extract::{Path, RawQuery, State};
use axum::http::HeaderMap;
use serde::Serialize;
use std::collections::BTreeMap;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Messages per page of the list.
pub const PAGE_SIZE: i64 = 50;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(retry))
}

#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
pub struct OutboxQuery {
    /// Only messages in this state: pending, sent or failed.
    #[param(pattern = "^(pending|sent|failed)$")]
    pub state: Option<String>,
    /// From 1.
    #[param(minimum = 1, maximum = 100000)]
    pub page: Option<i64>,
}

/// Reads the list's query by hand, so every mistake is a 400 naming its parameter.
fn parse_query(raw: &str) -> ApiResult<OutboxQuery> {
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(raw)
        .map_err(|_| ApiError::field("query", "is not a valid query string"))?;
    let mut query = OutboxQuery {
        state: None,
        page: None,
    };
    for (key, value) in pairs {
        match key.as_str() {
            "state" if query.state.is_none() => query.state = Some(value),
            "page" if query.page.is_none() => {
                query.page = Some(
                    value
                        .parse()
                        .map_err(|_| ApiError::field("page", "must be from 1 to 100000"))?,
                );
            }
            "state" | "page" => return Err(ApiError::field(key, "is given twice")),
            _ => return Err(ApiError::field(key, "is not a parameter of this list")),
        }
    }
    if let Some(page) = query.page
        && !(1..=100_000).contains(&page)
    {
        return Err(ApiError::field("page", "must be from 1 to 100000"));
    }
    if let Some(s) = &query.state
        && !STATES.contains(&s.as_str())
    {
        return Err(ApiError::field(
            "state",
            format!("must be one of {}", STATES.join(", ")),
        ));
    }
    Ok(query)
}

#[derive(Serialize, ToSchema)]
pub struct OutboxList {
    /// Messages in each state, over the whole outbox.
    pub counts: BTreeMap<String, i64>,
    pub messages: Vec<OutboxEntry>,
    pub page: i64,
}

/// The outbox, newest first, optionally of one state, with the count in each state.
#[utoipa::path(get, path = "/admin/outbox", tag = "admin", params(OutboxQuery),
    responses((status = 200, body = OutboxList), (status = 400, body = crate::error::ErrorBody),
              (status = 401, body = crate::error::ErrorBody)))]
async fn list(
    State(state): State<AppState>,
    headers: HeaderMap,
    RawQuery(raw): RawQuery,
) -> ApiResult<Json<OutboxList>> {
    require_admin(state.config().admin_token.as_deref(), &headers)?;
    let query = parse_query(raw.as_deref().unwrap_or(""))?;
    let page = query.page.unwrap_or(1);
    let db = state.db();
    let mut counts: BTreeMap<String, i64> = STATES.iter().map(|s| (s.to_string(), 0)).collect();
    counts.extend(outbox::counts(db).await?);
    let messages = outbox::list(db, query.state.as_deref(), page, PAGE_SIZE).await?;
    Ok(Json(OutboxList {
        counts,
        messages,
        page,
    }))
}

#[derive(Serialize, ToSchema)]
pub struct Retried {
    pub id: String,
    /// Always `pending`: the sender tries it at its next pass.
    pub state: &'static str,
}

/// Sends a failed message (a dead letter) again: pending, due now, with a fresh count of tries.
#[utoipa::path(post, path = "/admin/outbox/{id}/retry", tag = "admin",
    params(("id" = String, Path)),
    responses((status = 200, body = Retried), (status = 401, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody), (status = 409, body = crate::error::ErrorBody)))]
async fn retry(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> ApiResult<Json<Retried>> {
    require_admin(state.config().admin_token.as_deref(), &headers)?;
    if !is_token(&id) {
        return Err(ApiError::not_found());
    }
    match outbox::retry(state.db(), &id, state.now()).await? {
        None => Err(ApiError::not_found()),
        Some(false) => Err(ApiError::new(
            ErrorCode::NotFailed,
            "Only a failed message can be retried; this one is pending or sent",
        )),
        Some(true) => Ok(Json(Retried {
            id,
            state: "pending",
        })),
    }
}
