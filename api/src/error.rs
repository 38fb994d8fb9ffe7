//! The API's one error shape, `{"error":{"code","message","fields"}}`, and its mapping to HTTP.
//! Client mistakes carry the field they are about; server faults are opaque and logged once.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use std::collections::BTreeMap;
use utoipa::openapi::RefOr;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::{PartialSchema, ToSchema};

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

/// Declares `ErrorCode` from one table, so each code's status and wire string are written once:
/// the enum, `ErrorCode::ALL`, `status()` and `as_str()` all come from the same rows.
macro_rules! error_codes {
    ($($(#[$doc:meta])* $variant:ident = ($status:ident, $wire:literal),)*) => {
        /// Every error code the API answers, each with its HTTP status and the string clients see
        /// in `error.code`. Call sites name a variant; the status follows from it.
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum ErrorCode {
            $($(#[$doc])* $variant,)*
        }

        impl ErrorCode {
            /// Every code, in the table's order.
            pub const ALL: &[ErrorCode] = &[$(ErrorCode::$variant,)*];

            /// The HTTP status an answer with this code has.
            pub const fn status(self) -> StatusCode {
                match self {
                    $(ErrorCode::$variant => StatusCode::$status,)*
                }
            }

            /// The code as clients see it in `error.code`.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(ErrorCode::$variant => $wire,)*
                }
            }
        }
    };
}

error_codes! {
    /// A field is missing, mistyped, out of range or unknown; `fields` names each one.
    Validation = (BAD_REQUEST, "validation"),
    /// A password-reset or confirmation link that is not valid.
    InvalidToken = (BAD_REQUEST, "invalid_token"),
    /// A preview request for a domain that is not a staging domain.
    InvalidStagingDomain = (BAD_REQUEST, "invalid_staging_domain"),
    /// A webhook body that is not JSON.
    InvalidJson = (BAD_REQUEST, "invalid_json"),
    /// No session where one is needed.
    NotSignedIn = (UNAUTHORIZED, "not_signed_in"),
    /// Sign-in with a wrong email/password pair.
    InvalidCredentials = (UNAUTHORIZED, "invalid_credentials"),
    /// An operator endpoint without a valid admin token.
    Unauthorized = (UNAUTHORIZED, "unauthorized"),
    /// A webhook whose signature or secret does not check out.
    BadSignature = (UNAUTHORIZED, "bad_signature"),
    /// The payment was refused; the order was cancelled.
    PaymentFailed = (PAYMENT_REQUIRED, "payment_failed"),
    /// The CSRF origin check failed.
    CrossSiteRequest = (FORBIDDEN, "cross_site_request"),
    /// An unknown id, including another customer's cart, wishlist or address.
    NotFound = (NOT_FOUND, "not_found"),
    /// The shopper has no cart.
    CartNotFound = (NOT_FOUND, "cart_not_found"),
    /// No such endpoint.
    NoRoute = (NOT_FOUND, "no_route"),
    /// A method the endpoint does not take (`Allow` lists those it does).
    MethodNotAllowed = (METHOD_NOT_ALLOWED, "method_not_allowed"),
    /// More of a variant than is in stock.
    InsufficientStock = (CONFLICT, "insufficient_stock"),
    /// A promotions call while the promotions flag is off.
    PromotionsDisabled = (CONFLICT, "promotions_disabled"),
    /// An express checkout call while express checkout is off.
    ExpressCheckoutDisabled = (CONFLICT, "express_checkout_disabled"),
    /// An express checkout already being paid or ordered.
    CheckoutClosed = (CONFLICT, "checkout_closed"),
    /// A checkout of an empty bag.
    CartEmpty = (CONFLICT, "cart_empty"),
    /// An express checkout step that needs the shipping contact first.
    NoShippingContact = (CONFLICT, "no_shipping_contact"),
    /// Placing an order before the checkout is complete (`fields` names what is missing).
    CheckoutIncomplete = (CONFLICT, "checkout_incomplete"),
    /// The payment for this idempotency key is still running.
    PaymentInProgress = (CONFLICT, "payment_in_progress"),
    /// A guest checkout's account creation for an email that already has an account.
    AccountExists = (CONFLICT, "account_exists"),
    /// A guest-only checkout step while signed in.
    SignedIn = (CONFLICT, "signed_in"),
    /// A checkout step that needs the delivery address first.
    NoConsignment = (CONFLICT, "no_consignment"),
    /// Claiming an order that already belongs to an account.
    OrderHasAccount = (CONFLICT, "order_has_account"),
    /// An operator action the order's state does not allow.
    IllegalTransition = (CONFLICT, "illegal_transition"),
    /// A refund of an order without a payment.
    NoPayment = (CONFLICT, "no_payment"),
    /// Retrying an outbox message that has not failed.
    NotFailed = (CONFLICT, "not_failed"),
    /// A body above the body limit.
    PayloadTooLarge = (PAYLOAD_TOO_LARGE, "payload_too_large"),
    /// A path and query above the URL limit.
    UriTooLong = (URI_TOO_LONG, "uri_too_long"),
    /// A body that is not `application/json`.
    UnsupportedMediaType = (UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type"),
    /// A webhook body that is JSON but not a change notice: the shopper API's `validation` code
    /// at 422, the status webhook senders act on.
    WebhookValidation = (UNPROCESSABLE_ENTITY, "validation"),
    /// A shipping address in a country the store does not ship to.
    ShippingCountryNotAllowed = (UNPROCESSABLE_ENTITY, "shipping_country_not_allowed"),
    /// A shipping address with no shipping option.
    AddressUnserviceable = (UNPROCESSABLE_ENTITY, "address_unserviceable"),
    /// Too many attempts; `Retry-After` says when to try again.
    RateLimited = (TOO_MANY_REQUESTS, "rate_limited"),
    /// A server fault, answered opaquely with a request id.
    Internal = (INTERNAL_SERVER_ERROR, "internal"),
    /// The promotions engine failed; explained, not opaque.
    PromotionsUnavailable = (BAD_GATEWAY, "promotions_unavailable"),
    /// The payment provider failed; explained, not opaque.
    PaymentProviderUnavailable = (BAD_GATEWAY, "payment_provider_unavailable"),
    /// No search index has been built yet (answered opaquely, like every unexplained 5xx).
    SearchUnavailable = (SERVICE_UNAVAILABLE, "search_unavailable"),
    /// No payment provider is configured.
    PaymentsNotConfigured = (SERVICE_UNAVAILABLE, "payments_not_configured"),
    /// A webhook reached a process with no rebuild daemon.
    NoRebuildDaemon = (SERVICE_UNAVAILABLE, "no_rebuild_daemon"),
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// On the wire a code is its string.
impl Serialize for ErrorCode {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// In the OpenAPI document a code is a string from the set of codes (each string once, though
/// `validation` has two statuses).
impl PartialSchema for ErrorCode {
    fn schema() -> RefOr<Schema> {
        let mut wire: Vec<&str> = Vec::new();
        for code in ErrorCode::ALL {
            if !wire.contains(&code.as_str()) {
                wire.push(code.as_str());
            }
        }
        ObjectBuilder::new()
            .schema_type(Type::String)
            .description(Some(
                "Stable machine-readable code, e.g. `validation`, `insufficient_stock`, `cart_not_found`.",
            ))
            .enum_values(Some(wire))
            .into()
    }
}

impl ToSchema for ErrorCode {}

/// The JSON body of every error answer.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorDetail {
    // Its description is the schema's own (`ErrorCode::schema`): a doc comment here would wrap
    // the inlined enum in an `allOf`.
    #[schema(inline)]
    pub code: ErrorCode,
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
    /// A 4xx (or a deliberate 5xx) with a code, a message and the fields it is about; the code
    /// gives the status.
    #[error("{} {code}: {message}", code.status())]
    Client {
        code: ErrorCode,
        message: String,
        fields: BTreeMap<String, String>,
        retry_after: Option<u64>,
    },
    /// An outside service (the promotions engine, the payment provider) failed: a 502 code,
    /// explained to the caller (the shopper's request was fine, and the front end needs to know
    /// which service failed).
    #[error("{} {code}: {message}", code.status())]
    Upstream { code: ErrorCode, message: String },
    /// Anything the client could not have caused. Logged once, answered opaquely.
    #[error(transparent)]
    Internal(#[from] anyhow::Error),
}

impl ApiError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ApiError {
        ApiError::Client {
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
            code: ErrorCode::Validation,
            message: format!("{field}: {message}"),
            fields,
            retry_after: None,
        }
    }

    /// A 400 about several fields at once, so a form can show every message together.
    pub fn fields(message: impl Into<String>, fields: BTreeMap<String, String>) -> ApiError {
        ApiError::Client {
            code: ErrorCode::Validation,
            message: message.into(),
            fields,
            retry_after: None,
        }
    }

    pub fn not_found() -> ApiError {
        ApiError::new(ErrorCode::NotFound, copy::NOT_FOUND)
    }

    pub fn no_cart(message: &'static str) -> ApiError {
        ApiError::new(ErrorCode::CartNotFound, message)
    }

    pub fn unauthorized() -> ApiError {
        ApiError::new(ErrorCode::NotSignedIn, copy::NOT_SIGNED_IN)
    }

    pub fn stock_exceeded(field: &str) -> ApiError {
        ApiError::new(ErrorCode::InsufficientStock, copy::STOCK_EXCEEDED)
            .with_field(field, copy::STOCK_EXCEEDED)
    }

    pub fn too_many(retry_after: u64) -> ApiError {
        ApiError::Client {
            code: ErrorCode::RateLimited,
            message: copy::TOO_MANY_ATTEMPTS.to_string(),
            fields: BTreeMap::new(),
            retry_after: Some(retry_after.max(1)),
        }
    }

    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::Client { code, .. } | ApiError::Upstream { code, .. } => code.status(),
            ApiError::Internal(_) => ErrorCode::Internal.status(),
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
                let mut res = (code.status(), axum::Json(body)).into_response();
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
                let mut res = (code.status(), axum::Json(body)).into_response();
                // The request-id middleware keeps this body instead of the opaque internal one.
                res.extensions_mut().insert(Explained);
                res
            }
            ApiError::Internal(e) => {
                // The body is filled in (with the request id) by `security::request_id`, which
                // also writes the single log line; here we only carry the cause there.
                let mut res = ErrorCode::Internal.status().into_response();
                res.extensions_mut()
                    .insert(InternalFault(std::sync::Arc::new(format!("{e:#}"))));
                res
            }
        }
    }
}

pub type ApiResult<T> = Result<T, ApiError>;

#[cfg(test)]
mod tests {
    use super::*;

    async fn answer(e: ApiError) -> (StatusCode, Option<String>, String) {
        let res = e.into_response();
        let retry_after = res
            .headers()
            .get(header::RETRY_AFTER)
            .map(|v| v.to_str().unwrap().to_string());
        let status = res.status();
        let body = axum::body::to_bytes(res.into_body(), usize::MAX)
            .await
            .unwrap();
        (
            status,
            retry_after,
            String::from_utf8(body.to_vec()).unwrap(),
        )
    }

    /// A code is declared once per status: two rows with the same string and status would be
    /// one code written twice.
    #[test]
    fn each_code_and_status_pair_is_declared_once() {
        for (i, a) in ErrorCode::ALL.iter().enumerate() {
            for b in &ErrorCode::ALL[i + 1..] {
                assert!(
                    (a.as_str(), a.status()) != (b.as_str(), b.status()),
                    "{a:?} and {b:?}"
                );
            }
        }
    }

    /// The wire shape: the code's status and string, the message, then `fields` only when set.
    #[tokio::test]
    async fn an_error_answers_its_code_status_message_and_fields() {
        assert_eq!(
            answer(ApiError::stock_exceeded("line_items[0].quantity")).await,
            (
                StatusCode::CONFLICT,
                None,
                format!(
                    r#"{{"error":{{"code":"insufficient_stock","message":"{m}","fields":{{"line_items[0].quantity":"{m}"}}}}}}"#,
                    m = copy::STOCK_EXCEEDED
                )
            )
        );
        assert_eq!(
            answer(ApiError::too_many(0)).await,
            (
                StatusCode::TOO_MANY_REQUESTS,
                Some("1".into()),
                format!(
                    r#"{{"error":{{"code":"rate_limited","message":"{}"}}}}"#,
                    copy::TOO_MANY_ATTEMPTS
                )
            )
        );
        assert_eq!(
            answer(ApiError::new(ErrorCode::WebhookValidation, "x: bad").with_field("x", "bad"))
                .await,
            (
                StatusCode::UNPROCESSABLE_ENTITY,
                None,
                r#"{"error":{"code":"validation","message":"x: bad","fields":{"x":"bad"}}}"#.into()
            )
        );
        let upstream = ApiError::Upstream {
            code: ErrorCode::PromotionsUnavailable,
            message: "down".into(),
        };
        assert_eq!(
            answer(upstream).await,
            (
                StatusCode::BAD_GATEWAY,
                None,
                r#"{"error":{"code":"promotions_unavailable","message":"down"}}"#.into()
            )
        );
    }

    /// The OpenAPI document's `code` lists exactly the codes the server can answer.
    #[test]
    fn the_openapi_document_lists_every_code() {
        let doc = serde_json::to_value(crate::openapi()).unwrap();
        let listed: Vec<&str> =
            doc["components"]["schemas"]["ErrorDetail"]["properties"]["code"]["enum"]
                .as_array()
                .expect("an enum on ErrorDetail.code")
                .iter()
                .map(|v| v.as_str().unwrap())
                .collect();
        let mut codes: Vec<&str> = ErrorCode::ALL.iter().map(|c| c.as_str()).collect();
        codes.sort_unstable();
        codes.dedup();
        let mut sorted = listed.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, codes);
        assert_eq!(listed.len(), codes.len(), "each code listed once");
    }
}
