//! Payments behind one interface: the payment methods a market may use, authorising an order's
//! payment (which may need the shopper to pass 3-D Secure or approve at PayPal / Klarna first),
//! the result a redirect brings back, capture, cancel and refund. Two implementations: the
//! in-process sandbox (`storefront dev`'s default, no network) and the card payment provider's
//! Checkout API over HTTP. Card numbers never reach this interface: the browser hands them to the
//! provider's tokenisation endpoint and the API passes on only the token.

pub mod client;
pub mod config;
pub mod remote;
pub mod sandbox;
pub mod sandbox_pages;

use serde::Serialize;
use std::collections::BTreeMap;
use utoipa::ToSchema;

/// An amount in minor units of a currency, as providers take it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Amount {
    pub currency: String,
    /// Minor units (pence, cents).
    pub value: i64,
}

impl Amount {
    pub fn new(currency: &str, value: i64) -> Amount {
        Amount {
            currency: currency.to_string(),
            value,
        }
    }
}

/// The payment method types the storefront knows (gift card, Klarna, PayPal, Apple Pay,
/// Google Pay, card), by the provider's names for them.
pub const METHOD_TYPES: &[&str] = &[
    "scheme",
    "giftcard",
    "paypal",
    "klarna",
    "applepay",
    "googlepay",
];

/// Methods the shopper authorises with a token made in the browser (card data, a gift card, a
/// wallet's payment data); the others (PayPal, Klarna) send the shopper to approve elsewhere.
pub fn needs_token(method: &str) -> bool {
    matches!(method, "scheme" | "giftcard" | "applepay" | "googlepay")
}

/// One method as `paymentMethods` lists it.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
pub struct MethodInfo {
    /// `scheme` (card), `giftcard`, `paypal`, `klarna`, `applepay` or `googlepay`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The name to show.
    pub name: String,
    /// Card brands (cards) or the gift card brand, when the provider names them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub brands: Vec<String>,
    /// What the browser's wallet sheet needs, for `applepay` (`merchant_name`) and `googlepay`
    /// (`environment`, `gateway`, `gateway_merchant_id`, `merchant_name`).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub configuration: BTreeMap<String, String>,
}

/// Apple Pay's merchant validation URLs are https on apple.com: no other host is passed on to
/// the provider (which would otherwise call any URL a browser names).
pub fn is_apple_validation_url(url: &str) -> bool {
    reqwest::Url::parse(url).is_ok_and(|u| {
        u.scheme() == "https"
            && u.host_str()
                .is_some_and(|h| h == "apple.com" || h.ends_with(".apple.com"))
    })
}

/// The Apple Pay merchant-session request: the validation URL the wallet sheet gave, the shop's
/// domain registered for Apple Pay, and the name the sheet shows.
#[derive(Debug, Clone)]
pub struct AppleSessionRequest<'a> {
    pub validation_url: &'a str,
    pub domain: &'a str,
    pub display_name: &'a str,
}

/// An authorisation: what the order costs, and how the shopper pays it.
#[derive(Debug, Clone)]
pub struct Authorise<'a> {
    /// Ours: the order id (the provider's merchant reference).
    pub reference: &'a str,
    /// Sent as `Idempotency-Key`: the same key is one payment at the provider.
    pub idempotency_key: &'a str,
    pub amount: Amount,
    /// The delivery country (ISO alpha-2).
    pub country_code: &'a str,
    pub method: &'a str,
    /// The token the browser got from the provider's tokenisation (cards, gift cards, wallets).
    pub token: Option<&'a str>,
    /// Where the provider sends the shopper back after a challenge or an approval page.
    pub return_url: &'a str,
    pub shopper_email: &'a str,
    /// What the shopper's statement shows, e.g. "Order 1234567890".
    pub description: &'a str,
}

/// What the provider says a payment is now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The amount is reserved; capture takes it.
    Authorised,
    /// Declined (by the issuer, the risk checks, a failed challenge, a cancelled approval, an
    /// empty gift card) or expired: the order is cancelled and the shopper may try again.
    Refused { reason: String },
    /// The shopper must go to `url` (3-D Secure challenge, PayPal or Klarna approval) and come
    /// back to the return URL, where `status` tells how it went.
    AwaitingShopper { url: String },
    /// The provider is still deciding; ask again later.
    Processing,
}

/// A payment the provider created: its id there, and how it stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Created {
    pub psp_reference: String,
    pub outcome: Outcome,
}

/// The provider did not give an answer we can act on. The payment's outcome is unknown.
#[derive(Debug, thiserror::Error)]
pub enum ProviderError {
    #[error("{op}: the payment provider answered {status}")]
    Status { op: &'static str, status: u16 },
    #[error("{op}: the payment provider could not be reached ({why})")]
    Transport { op: &'static str, why: String },
    #[error("{op}: the payment provider sent an unreadable answer ({why})")]
    Decode { op: &'static str, why: String },
    #[error("{op}: the payment provider refused the request ({message})")]
    Rejected { op: &'static str, message: String },
}

/// The provider interface the checkout, the reconciliation of stale orders and the operator's
/// order actions use. Every call that changes money carries an idempotency key, so a retry of the
/// same call is the same operation at the provider.
#[async_trait::async_trait]
pub trait Provider: Send + Sync {
    /// The methods the provider offers for a payment of `amount` to a shopper in `country_code`.
    async fn payment_methods(
        &self,
        country_code: &str,
        amount: &Amount,
    ) -> Result<Vec<MethodInfo>, ProviderError>;

    /// Creates and authorises a payment (captured later). The same idempotency key answers the
    /// payment the first call created.
    async fn authorise(&self, request: &Authorise<'_>) -> Result<Created, ProviderError>;

    /// How a payment stands now: after the shopper came back from a redirect, or when a stale
    /// order is reconciled.
    async fn status(&self, psp_reference: &str) -> Result<Outcome, ProviderError>;

    /// Takes an authorised payment.
    async fn capture(
        &self,
        psp_reference: &str,
        amount: &Amount,
        idempotency_key: &str,
    ) -> Result<(), ProviderError>;

    /// Releases an authorised, uncaptured payment (or one still waiting for the shopper).
    async fn cancel(&self, psp_reference: &str, idempotency_key: &str)
    -> Result<(), ProviderError>;

    /// The opaque merchant session Apple Pay's sheet needs before it shows (the provider holds
    /// the merchant certificate and asks Apple for it).
    async fn apple_pay_session(
        &self,
        request: &AppleSessionRequest<'_>,
    ) -> Result<serde_json::Value, ProviderError>;

    /// Gives (part of) a captured payment back.
    async fn refund(
        &self,
        psp_reference: &str,
        amount: &Amount,
        idempotency_key: &str,
    ) -> Result<(), ProviderError>;

    /// Where the browser sends card and gift card details to get a token (a same-origin path for
    /// the sandbox, the provider's endpoint otherwise).
    fn tokenize_url(&self) -> String;
}
