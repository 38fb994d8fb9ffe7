//! The operator's order endpoints (`Authorization: Bearer API_ADMIN_TOKEN`, like the rebuild
//! status): list orders, and move them along the spec's lifecycle. Ship: Confirmed → Shipped.
//! Complete: Shipped → Complete. Cancel: Pending or Confirmed → Cancelled, the stock returned and
//! the payment voided (or refunded once captured). Refund: Confirmed, Shipped or Complete →
//! Refunded through the provider. Anything else is 409 `illegal_transition`. Shipping, cancelling
//! and refunding queue the matching email to the shopper in the same transaction.

use super::orders;
use super::payment::{self, OrderPayment};
use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::mail::Kind;
use crate::rows::row;
use crate::session::is_token;
use crate::state::AppState;
use crate::strict_query::StrictQuery;
use axum::Json;
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Orders per page of the operator's list.
pub const PAGE_SIZE: i64 = 50;
/// The spec's order statuses.
pub const STATUSES: &[&str] = &[
    "Open",
    "Pending",
    "Confirmed",
    "Shipped",
    "Complete",
    "Cancelled",
    "Refunded",
];

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(transition))
}

fn authorised(state: &AppState, headers: &HeaderMap) -> ApiResult<()> {
    crate::security::require_admin(state.config().admin_token.as_deref(), headers)
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct ListQuery {
    /// Only orders in this status.
    #[param(pattern = "^(Open|Pending|Confirmed|Shipped|Complete|Cancelled|Refunded)$")]
    pub status: Option<String>,
    /// From 1.
    #[param(minimum = 1, maximum = 100000)]
    pub page: Option<i64>,
}

row! {
    #[derive(Serialize, ToSchema)]
    pub struct AdminOrder {
        pub id: String,
        pub number: String,
        pub checkout_id: String,
        pub status: String,
        pub payment_status: String,
        pub payment_method: String,
        pub market: String,
        pub currency: String,
        /// Minor units.
        pub total: i64,
        pub email: String,
        pub created_at: i64,
        pub updated_at: i64,
    }
}

#[derive(Serialize, ToSchema)]
pub struct AdminOrderList {
    pub orders: Vec<AdminOrder>,
    pub page: i64,
}

/// Orders, newest first, optionally of one status.
#[utoipa::path(get, path = "/admin/orders", tag = "admin", params(ListQuery),
    responses((status = 200, body = AdminOrderList), (status = 400, body = crate::error::ErrorBody),
              (status = 401, body = crate::error::ErrorBody)))]
async fn list(
    State(state): State<AppState>,
    headers: HeaderMap,
    StrictQuery(query): StrictQuery<ListQuery>,
) -> ApiResult<Json<AdminOrderList>> {
    authorised(&state, &headers)?;
    let page = query.page.unwrap_or(1);
    if !(1..=100_000).contains(&page) {
        return Err(ApiError::field("page", "must be from 1 to 100000"));
    }
    if let Some(s) = &query.status
        && !STATUSES.contains(&s.as_str())
    {
        return Err(ApiError::field(
            "status",
            format!("must be one of {}", STATUSES.join(", ")),
        ));
    }
    let sql = format!(
        "SELECT id, number, checkout_id, status, payment_status, payment_method, market, currency, \
         total, email, created_at, updated_at FROM shop_order \
         WHERE ($1 = '' OR status = $1) ORDER BY created_at DESC, id LIMIT {PAGE_SIZE} OFFSET {}",
        (page - 1) * PAGE_SIZE
    );
    let mut conn = state.db().pool().acquire().await?;
    let orders = sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(query.status.as_deref().unwrap_or(""))
        .fetch_all(&mut *conn)
        .await?;
    Ok(Json(AdminOrderList { orders, page }))
}

#[derive(Serialize, ToSchema)]
pub struct TransitionResult {
    pub id: String,
    pub status: String,
}

fn illegal(from: &str, action: &str) -> ApiError {
    ApiError::new(
        ErrorCode::IllegalTransition,
        format!("An order that is {from} cannot be {action}"),
    )
}

fn provider_failed(e: crate::payments::ProviderError) -> ApiError {
    tracing::warn!(error = %e, "operator payment action");
    ApiError::Upstream {
        code: ErrorCode::PaymentProviderUnavailable,
        message: "The payment provider did not confirm the action; nothing was changed.".into(),
    }
}

/// Moves an order along: `ship`, `complete`, `cancel` or `refund`.
#[utoipa::path(post, path = "/admin/orders/{order_id}/{action}", tag = "admin",
    params(("order_id" = String, Path), ("action" = String, Path, description = "ship, complete, cancel or refund")),
    responses((status = 200, body = TransitionResult), (status = 400, body = crate::error::ErrorBody),
              (status = 401, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody),
              (status = 409, body = crate::error::ErrorBody), (status = 502, body = crate::error::ErrorBody)))]
async fn transition(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path((order_id, action)): Path<(String, String)>,
) -> ApiResult<Json<TransitionResult>> {
    authorised(&state, &headers)?;
    if !["ship", "complete", "cancel", "refund"].contains(&action.as_str()) {
        return Err(ApiError::field(
            "action",
            "must be ship, complete, cancel or refund",
        ));
    }
    if !is_token(&order_id) {
        return Err(ApiError::not_found());
    }
    let order = {
        let mut conn = state.db().pool().acquire().await?;
        payment::load(&mut conn, &order_id)
            .await?
            .ok_or_else(ApiError::not_found)?
    };
    let from = order.status.as_str();
    let now = state.now();
    let to = match (action.as_str(), from) {
        ("ship", "Confirmed") => "Shipped",
        ("complete", "Shipped") => "Complete",
        ("cancel", "Pending" | "Confirmed") => "Cancelled",
        ("refund", "Confirmed" | "Shipped" | "Complete") => "Refunded",
        (action, from) => {
            return Err(illegal(
                from,
                match action {
                    "ship" => "shipped",
                    "complete" => "completed",
                    "cancel" => "cancelled",
                    _ => "refunded",
                },
            ));
        }
    };
    // Money first: the provider must confirm a void or refund before the order says so.
    let payment_status = match to {
        "Cancelled" if from == "Confirmed" => {
            refund(&state, &order).await?;
            Some("refunded")
        }
        "Cancelled" => {
            void(&state, &order).await?;
            Some("voided")
        }
        "Refunded" => {
            refund(&state, &order).await?;
            Some("refunded")
        }
        _ => None,
    };
    let mut tx = state.db().write().await?;
    let moved = if to == "Cancelled" {
        orders::cancel(
            &mut tx,
            &order.id,
            from,
            payment_status.unwrap_or("voided"),
            now,
        )
        .await?
    } else {
        orders::move_status(&mut tx, &order.id, from, to, payment_status, now).await?
    };
    if !moved {
        // It moved under us (a payment settled, another operator): nothing was written.
        return Err(illegal("no longer", &action));
    }
    // The shopper hears of every change but completion (which is the operator's bookkeeping).
    let mail = match to {
        "Shipped" => Some(Kind::OrderShipped),
        "Cancelled" => Some(Kind::OrderCancelled),
        "Refunded" => Some(Kind::OrderRefunded),
        _ => None,
    };
    if let Some(kind) = mail {
        let refunded = payment_status == Some("refunded");
        orders::queue_order_mail(&mut tx, &state, &order.id, kind, refunded, now).await?;
    }
    tx.commit().await?;
    if to == "Cancelled" {
        state
            .refresh_stock(&orders::variants_of(&state, &order.id).await?)
            .await;
    }
    Ok(Json(TransitionResult {
        id: order.id,
        status: to.to_string(),
    }))
}

async fn void(state: &AppState, order: &OrderPayment) -> ApiResult<()> {
    if let (Some(provider), Some(psp)) = (state.provider(), order.payment_reference.as_deref()) {
        provider
            .cancel(psp, &format!("{}-cancel", order.id))
            .await
            .map_err(provider_failed)?;
    }
    Ok(())
}

async fn refund(state: &AppState, order: &OrderPayment) -> ApiResult<()> {
    let psp = order.payment_reference.as_deref().ok_or_else(|| {
        ApiError::new(ErrorCode::NoPayment, "This order has no payment to refund")
    })?;
    let provider = state.provider().ok_or_else(|| {
        ApiError::new(
            ErrorCode::PaymentsNotConfigured,
            "No payment provider is configured to refund with",
        )
    })?;
    provider
        .refund(psp, &order.amount(), &format!("{}-refund", order.id))
        .await
        .map_err(provider_failed)
}
