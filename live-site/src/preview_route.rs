//! The content preview route, `/amplience-visualization/{domain}/{contentId}`: the content hub's
//! visualisation frame asks for one item from its staging host, rendered on demand through the
//! same templates and blocks as the static pages. The domain is checked first ('Invalid amplience
//! staging domain', 400); answers are never cached.

use crate::rebuild::Daemon;
use axum::extract::{Path, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};

#[derive(Clone)]
pub struct PreviewState {
    pub daemon: Option<Daemon>,
    pub staging_domain_suffix: String,
}

pub fn router(state: PreviewState) -> axum::Router {
    axum::Router::new()
        .route(
            "/amplience-visualization/{domain}/{content_id}",
            axum::routing::get(visualize),
        )
        .with_state(state)
}

async fn visualize(
    State(state): State<PreviewState>,
    Path((domain, content_id)): Path<(String, String)>,
) -> Response {
    let mut resp = answer(state, domain, content_id).await;
    resp.headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    resp
}

async fn answer(state: PreviewState, domain: String, content_id: String) -> Response {
    if api::preview::check_staging_domain(&domain, &state.staging_domain_suffix).is_err() {
        return (
            StatusCode::BAD_REQUEST,
            api::preview::INVALID_STAGING_DOMAIN,
        )
            .into_response();
    }
    let Some(daemon) = state.daemon else {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            "Content preview needs the rebuild daemon (storefront serve or dev)",
        )
            .into_response();
    };
    let rendered = tokio::task::spawn_blocking(move || daemon.preview(&domain, &content_id)).await;
    match rendered {
        Ok(Ok(Some(html))) => Html(html).into_response(),
        Ok(Ok(None)) => (StatusCode::NOT_FOUND, "This page could not be found").into_response(),
        Ok(Err(e)) => {
            tracing::error!(error = %e, "content preview failed");
            eprintln!("content preview failed: {e}");
            (
                StatusCode::INTERNAL_SERVER_ERROR,
                "The preview could not be rendered",
            )
                .into_response()
        }
        Err(e) => {
            tracing::error!(error = %e, "content preview task failed");
            (
                StatusCode::INTERNAL_SERVER_ERROR,
                "The preview could not be rendered",
            )
                .into_response()
        }
    }
}
