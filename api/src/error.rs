//! The API's one error shape, `{"error":{"code","message","fields"}}`, and its mapping to HTTP.
//! Client mistakes carry the field they are about; server faults are opaque and logged once.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use std::collections::BTreeMap;
use utoipa::ToSchema;

/// The spec's error copy, which the front end shows verbatim.
pub mod copy {
    pub const STOCK_EXCEEDED: &str = "The selected quantity exceeds available stock";
    pub const NO_CART_ADD: &str = "There is no cart to add the item to.";
    pub const NO_CART_REMOVE: &str = "There is no cart to remove the item from.";
    pub const NO_CART_UPDATE: &str = "There is no cart to update product quantity in.";
    pub const NO_CART_CLEAR: &str = "There is no cart to clear.";
    pub const NO_CART: &str = "There is no cart.";
    pub const BAD_CREDENTIALS: &str = "Your email/password combination is incorrect. Please click 'Forgot your password?' below to reset your password.";
    pub const WRONG_PASSWORD: &str = "The password you entered was incorrect.";
    pub const MISSING_CREDENTIALS: &str = "Please enter your email address and password";
    pub const INVALID_RESET_LINK: &str = "The link you have clicked is not valid";
    pub const NOT_SIGNED_IN: &str = "You need to sign in first.";
    pub const NOT_FOUND: &str = "Not found";
    pub const TOO_MANY_ATTEMPTS: &str = "Too many attempts. Please wait and try again.";
    pub const INTERNAL: &str = "Something went wrong. Please try again.";
    // The checkouts': the wallet sheet and the checkout pages show these.
    pub const UK_ONLY: &str = "We only ship to UK, Jersey, and Guernsey";
    pub const UNSERVICEABLE: &str = "We can not ship to this address";
    pub const BILLING_REQUIRED: &str = "Billing address is required";
    pub const EMPTY_BAG: &str = "Your shopping bag is empty";
    pub const PAYMENT_FAILED: &str =
        "Your payment was not successful. Please try again or use another payment method.";
}

/// The JSON body of every error answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorDetail {
    /// Stable machine-readable code, e.g. `validation`, `insufficient_stock`, `cart_not_found`.
    pub code: &'static str,
    /// Human-readable message; the spec's copy where it gives one.
    pub message: String,
    /// Per-field messages, keyed by the field's path in the request (`line_items[0].quantity`).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub fields: BTreeMap<String, String>,
    /// Correlates a 5xx with the one log line written for it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_id: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// A 4xx with a code, a message and the fields it is about.
    #[error("{status} {code}: {message}")]
    Client {
        status: StatusCode,
        code: &'static str,
        message: String,
        fields: BTreeMap<String, String>,
        retry_after: Option<u64>,
    },
    /// An outside service (the promotions engine) failed: 502, explained to the caller (the
    /// shopper's request was fine, and the front end needs to know which service failed).
    #[error("502 {code}: {message}")]
    Upstream { code: &'static str, message: String },
    /// Anything the client could not have caused. Logged once, answered opaquely.
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::Client {
            status,
            code,
            message: message.into(),
            fields: BTreeMap::new(),
            retry_after: None,
        }
    }

    /// Adds a per-field message to a client error (no-op on an internal one).
    pub fn with_field(mut self, field: impl Into<String>, message: impl Into<String>) -> ApiError {
        if let ApiError::Client { fields, .. } = &mut self {
            fields.insert(field.into(), message.into());
        }
        self
    }

    /// Names every field of a client error inside `prefix` (`first_name` → `address.first_name`),
    /// for a checked part of a larger body.
    pub fn prefix_fields(mut self, prefix: &str) -> ApiError {
        if let ApiError::Client { fields, .. } = &mut self {
            *fields = std::mem::take(fields)
                .into_iter()
                .map(|(k, v)| (format!("{prefix}.{k}"), v))
                .collect();
        }
        self
    }

    /// A 400 about one field.
    pub fn field(field: impl Into<String>, message: impl Into<String>) -> ApiError {
        let message = message.into();
        let mut fields = BTreeMap::new();
        let field = field.into();
        fields.insert(field.clone(), message.clone());
        ApiError::Client {
            status: StatusCode::BAD_REQUEST,
            code: "validation",
            message: format!("{field}: {message}"),
            fields,
            retry_after: None,
        }
    }

    /// A 400 about several fields at once, so a form can show every message together.
    pub fn fields(message: impl Into<String>, fields: BTreeMap<String, String>) -> ApiError {
        ApiError::Client {
            status: StatusCode::BAD_REQUEST,
            code: "validation",
            message: message.into(),
            fields,
            retry_after: None,
        }
    }

    pub fn not_found() -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, "not_found", copy::NOT_FOUND)
    }

    pub fn no_cart(message: &'static str) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, "cart_not_found", message)
    }

    pub fn unauthorized() -> ApiError {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "not_signed_in",
            copy::NOT_SIGNED_IN,
        )
    }

    pub fn stock_exceeded(field: &str) -> ApiError {
        ApiError::new(
            StatusCode::CONFLICT,
            "insufficient_stock",
            copy::STOCK_EXCEEDED,
        )
        .with_field(field, copy::STOCK_EXCEEDED)
    }

    pub fn too_many(retry_after: u64) -> ApiError {
        ApiError::Client {
            status: StatusCode::TOO_MANY_REQUESTS,
            code: "rate_limited",
            message: copy::TOO_MANY_ATTEMPTS.to_string(),
            fields: BTreeMap::new(),
            retry_after: Some(retry_after.max(1)),
        }
    }

    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::Client { status, .. } => *status,
            ApiError::Upstream { .. } => StatusCode::BAD_GATEWAY,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(e: sqlx::Error) -> Self {
        ApiError::Internal(anyhow::Error::new(e).context("database"))
    }
}

/// Marker put on a 5xx response so the request-id middleware logs it once, with the id.
#[derive(Clone)]
pub struct InternalFault(pub std::sync::Arc<String>);

/// Marker a handler puts on a deliberate 5xx that must explain itself to the caller (503
/// `no_rebuild_daemon`, an authenticated sender told where webhooks go): the request-id
/// middleware keeps its body instead of the opaque internal error every other 5xx gets.
#[derive(Clone, Copy)]
pub struct Explained;

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        match self {
            ApiError::Client {
                status,
                code,
                message,
                fields,
                retry_after,
            } => {
                let body = ErrorBody {
                    error: ErrorDetail {
                        code,
                        message,
                        fields,
                        request_id: None,
                    },
                };
                let mut res = (status, axum::Json(body)).into_response();
                if let Some(secs) = retry_after {
                    res.headers_mut()
                        .insert(header::RETRY_AFTER, HeaderValue::from(secs));
                }
                res
            }
            ApiError::Upstream { code, message } => {
                let body = ErrorBody {
                    error: ErrorDetail {
                        code,
                        message,
                        fields: BTreeMap::new(),
                        request_id: None,
                    },
                };
                let mut res = (StatusCode::BAD_GATEWAY, axum::Json(body)).into_response();
                // The request-id middleware keeps this body instead of the opaque internal one.
                res.extensions_mut().insert(Explained);
                res
            }
            ApiError::Internal(e) => {
                // The body is filled in (with the request id) by `security::request_id`, which
                // also writes the single log line; here we only carry the cause there.
                let mut res = StatusCode::INTERNAL_SERVER_ERROR.into_response();
                res.extensions_mut()
                    .insert(InternalFault(std::sync::Arc::new(format!("{e:#}"))));
                res
            }
        }
    }
}

pub type ApiResult<T> = Result<T, ApiError>;
