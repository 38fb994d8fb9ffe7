//! A small client of the card payment provider's wallet API: the Apple Pay merchant session
//! (the provider validates the merchant with Apple and returns the opaque session the wallet
//! sheet needs) and `applePayPayment(orderId, paymentToken)`, which charges an order with the
//! token the wallet produced. The API key never reaches the browser. The same client speaks
//! the provider's Checkout API for the standard checkout (`remote`).

use super::ProviderError;
use super::config::PaymentsConfig;
use crate::upstream;
use reqwest::header::{AUTHORIZATION, HeaderMap, HeaderValue};
use reqwest::{StatusCode, Url};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The merchant-session request: which validation URL Apple gave the sheet, for which shop.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MerchantSessionRequest<'a> {
    pub validation_url: &'a str,
    pub display_name: &'a str,
    /// The shop's host name, the domain registered with Apple.
    pub initiative_context: &'a str,
}

/// `applePayPayment`: the order, the wallet's token, and the amount the server computed (the
/// provider charges what the order says, never what the browser said).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PaymentRequest<'a> {
    pub order_id: &'a str,
    pub payment_token: &'a Value,
    /// Minor units.
    pub amount: i64,
    pub currency: &'a str,
}

#[derive(Debug, Deserialize)]
struct PaymentAnswer {
    status: String,
    #[serde(default)]
    reference: Option<String>,
    #[serde(default)]
    reason: Option<String>,
}

/// A payment the provider authorised.
#[derive(Debug, Clone)]
pub struct Authorised {
    pub reference: String,
}

/// Sends one provider call with its `Idempotency-Key` (a retried charge of the same order is one
/// charge at the provider); a connection or timeout failure is a transport error.
pub(super) async fn send(
    op: &'static str,
    mut req: reqwest::RequestBuilder,
    idempotency_key: Option<&str>,
) -> Result<reqwest::Response, ProviderError> {
    if let Some(key) = idempotency_key {
        req = req.header("Idempotency-Key", key);
    }
    req.send().await.map_err(|e| ProviderError::Transport {
        op,
        why: upstream::transport_why(&e),
    })
}

pub struct Client {
    pub(crate) http: reqwest::Client,
    pub(crate) base: Url,
    /// Where the browser tokenises card details (the standard checkout's card form).
    pub(crate) tokenize_url: String,
}

impl Client {
    /// Builds the client for the standard checkout's remote provider (express checkout's is
    /// `ExpressConfig::client`).
    pub fn for_checkout(config: &PaymentsConfig) -> anyhow::Result<Client> {
        Client::new(
            &config.base_url,
            &config.api_key,
            config.timeout,
            &config.tokenize_url,
        )
    }

    /// Bearer API key on every request, bounded timeouts.
    pub fn new(
        base_url: &str,
        api_key: &str,
        timeout: std::time::Duration,
        tokenize_url: &str,
    ) -> anyhow::Result<Client> {
        let base = upstream::base_url("PAYMENT_PROVIDER_BASE_URL", base_url)?;
        let mut headers = HeaderMap::new();
        let mut key = HeaderValue::from_str(&format!("Bearer {api_key}"))
            .map_err(|_| anyhow::anyhow!("PAYMENT_PROVIDER_API_KEY: not a valid header value"))?;
        key.set_sensitive(true);
        headers.insert(AUTHORIZATION, key);
        Ok(Client {
            http: upstream::http_client(timeout, headers)?,
            base,
            tokenize_url: tokenize_url.to_string(),
        })
    }

    /// POSTs JSON and returns the JSON answer of a 2xx (`Ok(None)` for a 402: a refusal the
    /// caller turns into a refusal).
    async fn post(
        &self,
        op: &'static str,
        segments: &[&str],
        body: &impl Serialize,
        idempotency_key: Option<&str>,
    ) -> Result<Option<Value>, ProviderError> {
        let req = self
            .http
            .post(upstream::join(&self.base, segments))
            .json(body);
        let res = send(op, req, idempotency_key).await?;
        let status = res.status();
        if status == StatusCode::PAYMENT_REQUIRED {
            return Ok(None);
        }
        if !status.is_success() {
            return Err(ProviderError::Status {
                op,
                status: status.as_u16(),
            });
        }
        res.json::<Value>()
            .await
            .map(Some)
            .map_err(|e| ProviderError::Decode {
                op,
                why: e.to_string(),
            })
    }

    /// The merchant session for the wallet sheet (opaque JSON, passed to the sheet unchanged).
    pub async fn merchant_session(
        &self,
        request: &MerchantSessionRequest<'_>,
    ) -> Result<Value, ProviderError> {
        let op = "merchantSession";
        match self
            .post(op, &["applepay", "merchant-session"], request, None)
            .await?
        {
            Some(session) if session.is_object() => Ok(session),
            Some(_) => Err(ProviderError::Decode {
                op,
                why: "not a JSON object".into(),
            }),
            None => Err(ProviderError::Status { op, status: 402 }),
        }
    }

    /// `applePayPayment(orderId, paymentToken)`: authorised, or why not.
    pub async fn apple_pay_payment(
        &self,
        request: &PaymentRequest<'_>,
    ) -> Result<Authorised, ProviderError> {
        let op = "applePayPayment";
        let Some(answer) = self
            .post(
                op,
                &["applepay", "payments"],
                request,
                Some(request.order_id),
            )
            .await?
        else {
            return Err(ProviderError::Rejected {
                op,
                message: "refused".into(),
            });
        };
        let answer: PaymentAnswer =
            serde_json::from_value(answer).map_err(|e| ProviderError::Decode {
                op,
                why: e.to_string(),
            })?;
        match (answer.status.as_str(), answer.reference) {
            ("authorised", Some(reference)) if !reference.is_empty() => {
                Ok(Authorised { reference })
            }
            ("authorised", _) => Err(ProviderError::Decode {
                op,
                why: "an authorised payment without a reference".into(),
            }),
            // Declined: an answer, not a failure of the service; both cancel the order.
            (other, _) => Err(ProviderError::Rejected {
                op,
                message: answer.reason.unwrap_or_else(|| other.to_string()),
            }),
        }
    }
}
