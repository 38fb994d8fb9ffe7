//! The card payment provider's Checkout API (Mollie's v2 shape), added to the same client and key
//! as express checkout's wallet calls: `GET /v2/methods` (the methods for a market and amount),
//! `POST /v2/payments` (authorise, `captureMode: manual`, with an `Idempotency-Key`),
//! `GET /v2/payments/{id}` (how it stands after a 3-D Secure or approval redirect, or when a stale
//! order is reconciled), `POST /v2/payments/{id}/captures`, `POST …/release-authorization` (or
//! `DELETE /v2/payments/{id}` for one still waiting for the shopper) and `POST …/refunds`.

use super::client::Client;
use super::{
    Amount, AppleSessionRequest, Authorise, Created, MethodInfo, Outcome, Provider, ProviderError,
};
use crate::upstream;
use reqwest::{Method, StatusCode};
use serde::Deserialize;
use serde_json::{Value, json};

/// The provider's amount: a string of major units with the currency's two decimals.
fn money(amount: &Amount) -> Value {
    json!({
        "currency": amount.currency,
        "value": format!("{}.{:02}", amount.value / 100, amount.value % 100),
    })
}

/// Our method names → the provider's.
fn provider_method(method: &str) -> Option<&'static str> {
    Some(match method {
        "scheme" => "creditcard",
        "paypal" => "paypal",
        "klarna" => "klarna",
        "applepay" => "applepay",
        _ => return None,
    })
}

/// The provider's method ids → ours. Gift cards and vouchers at the provider need the card
/// number sent by the shop, which the storefront never handles, so they are not offered.
fn our_method(id: &str) -> Option<&'static str> {
    Some(match id {
        "creditcard" => "scheme",
        "paypal" => "paypal",
        "klarna" | "klarnapaylater" | "klarnapaynow" | "klarnasliceit" => "klarna",
        "applepay" => "applepay",
        _ => return None,
    })
}

/// The shopper-facing reason for a failed payment, from the provider's failure reason.
fn refusal(reason: Option<&str>) -> String {
    match reason {
        Some("authentication_failed") | Some("authentication_abandoned") => {
            "3-D Secure authentication failed.".into()
        }
        Some("insufficient_funds") => "Your card has insufficient funds.".into(),
        Some("card_expired") => "Your card has expired.".into(),
        _ => "Your card was declined.".into(),
    }
}

#[derive(Debug, Deserialize)]
struct Link {
    href: String,
}

#[derive(Debug, Default, Deserialize)]
struct Links {
    #[serde(default)]
    checkout: Option<Link>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Details {
    #[serde(default)]
    failure_reason: Option<String>,
}

/// A payment as the provider answers it.
#[derive(Debug, Deserialize)]
struct Payment {
    id: String,
    status: String,
    #[serde(default)]
    details: Option<Details>,
    #[serde(default, rename = "_links")]
    links: Links,
}

impl Payment {
    fn outcome(&self) -> Outcome {
        match self.status.as_str() {
            "authorized" | "paid" => Outcome::Authorised,
            "failed" => Outcome::Refused {
                reason: refusal(
                    self.details
                        .as_ref()
                        .and_then(|d| d.failure_reason.as_deref()),
                ),
            },
            "canceled" => Outcome::Refused {
                reason: "The payment was cancelled.".into(),
            },
            "expired" => Outcome::Refused {
                reason: "The payment expired.".into(),
            },
            "open" => match &self.links.checkout {
                Some(link) => Outcome::AwaitingShopper {
                    url: link.href.clone(),
                },
                None => Outcome::Processing,
            },
            _ => Outcome::Processing,
        }
    }
}

#[derive(Debug, Deserialize)]
struct MethodList {
    #[serde(rename = "_embedded")]
    embedded: EmbeddedMethods,
}

#[derive(Debug, Deserialize)]
struct EmbeddedMethods {
    methods: Vec<ProviderMethod>,
}

#[derive(Debug, Deserialize)]
struct ProviderMethod {
    id: String,
    description: String,
}

/// The provider's error body: `{status, title, detail, field?}`.
#[derive(Debug, Deserialize)]
struct Problem {
    #[serde(default)]
    detail: String,
}

impl Client {
    /// One call: JSON in and out, the idempotency key when given. A 4xx with the provider's
    /// problem body is `Rejected` (the request was refused; nothing happened); a 5xx or no answer
    /// leaves the outcome unknown.
    async fn call<T: serde::de::DeserializeOwned>(
        &self,
        op: &'static str,
        method: Method,
        segments: &[&str],
        query: &[(&str, String)],
        body: Option<&Value>,
        idempotency_key: Option<&str>,
    ) -> Result<Option<T>, ProviderError> {
        let mut url = upstream::join(&self.base, segments);
        if !query.is_empty() {
            url.query_pairs_mut()
                .extend_pairs(query.iter().map(|(k, v)| (*k, v.as_str())));
        }
        let mut req = self.http.request(method, url);
        if let Some(body) = body {
            req = req.json(body);
        }
        let res = super::client::send(op, req, idempotency_key).await?;
        let status = res.status();
        if status.is_client_error() && status != StatusCode::UNAUTHORIZED {
            let problem: Problem = res.json().await.unwrap_or(Problem {
                detail: format!("answered {}", status.as_u16()),
            });
            return Err(ProviderError::Rejected {
                op,
                message: problem.detail,
            });
        }
        if !status.is_success() {
            return Err(ProviderError::Status {
                op,
                status: status.as_u16(),
            });
        }
        if status == StatusCode::NO_CONTENT {
            return Ok(None);
        }
        res.json::<T>()
            .await
            .map(Some)
            .map_err(|e| ProviderError::Decode {
                op,
                why: e.to_string(),
            })
    }

    async fn payment(
        &self,
        op: &'static str,
        method: Method,
        segments: &[&str],
        body: Option<&Value>,
        key: Option<&str>,
    ) -> Result<Payment, ProviderError> {
        self.call::<Payment>(op, method, segments, &[], body, key)
            .await?
            .ok_or(ProviderError::Decode {
                op,
                why: "no payment in the answer".into(),
            })
    }
}

#[async_trait::async_trait]
impl Provider for Client {
    async fn payment_methods(
        &self,
        country_code: &str,
        amount: &Amount,
    ) -> Result<Vec<MethodInfo>, ProviderError> {
        let value = money(amount);
        let query = [
            (
                "amount[value]",
                value["value"].as_str().unwrap_or("0").to_string(),
            ),
            ("amount[currency]", amount.currency.clone()),
            ("billingCountry", country_code.to_string()),
            ("locale", "en_GB".to_string()),
            ("sequenceType", "oneoff".to_string()),
        ];
        let list: MethodList = self
            .call(
                "methods",
                Method::GET,
                &["v2", "methods"],
                &query,
                None,
                None,
            )
            .await?
            .ok_or(ProviderError::Decode {
                op: "methods",
                why: "no methods in the answer".into(),
            })?;
        let mut out: Vec<MethodInfo> = Vec::new();
        for m in list.embedded.methods {
            if let Some(kind) = our_method(&m.id)
                && !out.iter().any(|o| o.kind == kind)
            {
                out.push(MethodInfo {
                    kind: kind.to_string(),
                    name: m.description,
                    brands: Vec::new(),
                    configuration: Default::default(),
                });
            }
        }
        Ok(out)
    }

    async fn authorise(&self, request: &Authorise<'_>) -> Result<Created, ProviderError> {
        let op = "payments";
        let method = provider_method(request.method).ok_or(ProviderError::Rejected {
            op,
            message: format!("{} is not offered by this provider", request.method),
        })?;
        let mut body = json!({
            "amount": money(&request.amount),
            "description": request.description,
            "redirectUrl": request.return_url,
            "method": method,
            "captureMode": "manual",
            "billingEmail": request.shopper_email,
            "locale": "en_GB",
            "metadata": { "order_id": request.reference },
        });
        match (request.method, request.token) {
            ("scheme", Some(token)) => body["cardToken"] = json!(token),
            ("applepay", Some(token)) => body["applePayPaymentToken"] = json!(token),
            _ => {}
        }
        let payment = self
            .payment(
                op,
                Method::POST,
                &["v2", "payments"],
                Some(&body),
                Some(request.idempotency_key),
            )
            .await?;
        Ok(Created {
            outcome: payment.outcome(),
            psp_reference: payment.id,
        })
    }

    async fn status(&self, psp_reference: &str) -> Result<Outcome, ProviderError> {
        Ok(self
            .payment(
                "payments",
                Method::GET,
                &["v2", "payments", psp_reference],
                None,
                None,
            )
            .await?
            .outcome())
    }

    async fn capture(
        &self,
        psp_reference: &str,
        amount: &Amount,
        idempotency_key: &str,
    ) -> Result<(), ProviderError> {
        self.call::<Value>(
            "captures",
            Method::POST,
            &["v2", "payments", psp_reference, "captures"],
            &[],
            Some(&json!({ "amount": money(amount) })),
            Some(idempotency_key),
        )
        .await
        .map(drop)
    }

    async fn cancel(
        &self,
        psp_reference: &str,
        idempotency_key: &str,
    ) -> Result<(), ProviderError> {
        let released = self
            .call::<Value>(
                "release-authorization",
                Method::POST,
                &["v2", "payments", psp_reference, "release-authorization"],
                &[],
                Some(&json!({})),
                Some(idempotency_key),
            )
            .await;
        match released {
            // Not authorised (still waiting for the shopper): cancel the payment itself.
            Err(ProviderError::Rejected { .. }) => self
                .call::<Value>(
                    "cancel",
                    Method::DELETE,
                    &["v2", "payments", psp_reference],
                    &[],
                    None,
                    Some(idempotency_key),
                )
                .await
                .map(drop),
            other => other.map(drop),
        }
    }

    async fn refund(
        &self,
        psp_reference: &str,
        amount: &Amount,
        idempotency_key: &str,
    ) -> Result<(), ProviderError> {
        self.call::<Value>(
            "refunds",
            Method::POST,
            &["v2", "payments", psp_reference, "refunds"],
            &[],
            Some(&json!({ "amount": money(amount), "description": "Refund" })),
            Some(idempotency_key),
        )
        .await
        .map(drop)
    }

    /// `POST /v2/wallets/applepay/sessions`: the provider asks Apple for the merchant session
    /// and answers it as Apple sent it, for the sheet's `completeMerchantValidation`.
    async fn apple_pay_session(
        &self,
        request: &AppleSessionRequest<'_>,
    ) -> Result<Value, ProviderError> {
        let op = "applePaySession";
        let body = json!({ "validationUrl": request.validation_url, "domain": request.domain });
        match self
            .call::<Value>(
                op,
                Method::POST,
                &["v2", "wallets", "applepay", "sessions"],
                &[],
                Some(&body),
                None,
            )
            .await?
        {
            Some(session) if session.is_object() => Ok(session),
            _ => Err(ProviderError::Decode {
                op,
                why: "not a JSON object".into(),
            }),
        }
    }

    fn tokenize_url(&self) -> String {
        self.tokenize_url.clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_are_strings_of_major_units() {
        assert_eq!(
            money(&Amount::new("GBP", 4_999)),
            json!({"currency": "GBP", "value": "49.99"})
        );
        assert_eq!(money(&Amount::new("EUR", 5))["value"], "0.05");
    }

    #[test]
    fn payment_states_become_outcomes() {
        let p = |status: &str, checkout: Option<&str>, reason: Option<&str>| Payment {
            id: "tr_1".into(),
            status: status.into(),
            details: Some(Details {
                failure_reason: reason.map(str::to_string),
            }),
            links: Links {
                checkout: checkout.map(|h| Link { href: h.into() }),
            },
        };
        assert_eq!(p("authorized", None, None).outcome(), Outcome::Authorised);
        assert_eq!(
            p("open", Some("https://psp/3ds"), None).outcome(),
            Outcome::AwaitingShopper {
                url: "https://psp/3ds".into()
            }
        );
        assert_eq!(p("open", None, None).outcome(), Outcome::Processing);
        assert_eq!(
            p("failed", None, Some("authentication_failed")).outcome(),
            Outcome::Refused {
                reason: "3-D Secure authentication failed.".into()
            }
        );
        assert_eq!(
            our_method("klarnapaylater"),
            Some("klarna"),
            "Klarna's variants are one method"
        );
        assert_eq!(our_method("giftcard"), None);
        assert_eq!(provider_method("giftcard"), None);
    }
}
