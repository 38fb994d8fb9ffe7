//! A small client of the promotions engine (a Talon.One-shaped integration API): customer
//! profiles by integration id and customer sessions by id, with the spec's recovery rules:
//! a profile request answered 408 creates the profile, a session answered 404 creates a dry-run
//! session; every other failure is an error the caller reports as the promotions service's.

use crate::config::promotions::PromotionsConfig;
use crate::upstream;
use reqwest::header::{AUTHORIZATION, HeaderMap, HeaderValue};
use reqwest::{Method, StatusCode, Url};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What went wrong talking to the promotions service. Never the shopper's fault: the API answers
/// 502 naming the service.
#[derive(Debug, thiserror::Error)]
pub enum PromotionsError {
    #[error("{op}: the promotions service answered {status}")]
    Status { op: &'static str, status: u16 },
    #[error("{op}: the promotions service could not be reached ({why})")]
    Transport { op: &'static str, why: String },
    #[error("{op}: the promotions service sent an unreadable answer ({why})")]
    Decode { op: &'static str, why: String },
}

/// One cart line as the engine sees it.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CartItem {
    pub name: String,
    pub sku: String,
    pub quantity: i64,
    /// Unit price in major units (the engine's money is decimal).
    pub price: f64,
    /// Index in `cartItems`; per-item effects point back at it.
    pub position: usize,
    pub attributes: CartItemAttributes,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CartItemAttributes {
    pub product_id: u64,
    pub tmp_variant_id: u64,
}

/// An additional cost of the session (`additionalCosts.{name}.price`).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct AdditionalCost {
    pub price: f64,
}

/// The session the API sends: who, which store, what is in the bag.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CustomerSession {
    /// The profile's integration id; empty for a guest (an anonymous session).
    pub profile_id: String,
    pub store_integration_id: String,
    pub state: &'static str,
    pub cart_items: Vec<CartItem>,
    pub additional_costs: std::collections::BTreeMap<String, AdditionalCost>,
}

/// One effect of the engine's evaluation.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Effect {
    pub effect_type: String,
    #[serde(default)]
    pub props: Value,
    /// Set (to the coupon's id) when a coupon triggered the effect: the spec's coupon flag.
    #[serde(default)]
    pub triggered_by_coupon: Option<Value>,
}

/// The part of a session answer the API uses.
#[derive(Debug, Clone, Deserialize, Default)]
pub struct SessionAnswer {
    #[serde(default)]
    pub effects: Vec<Effect>,
}

/// Whether `ensure_profile` had to create the profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Created {
    Nothing,
    Profile,
}

pub struct Client {
    http: reqwest::Client,
    base: Url,
}

impl Client {
    /// Builds the client from enabled configuration: bounded connect and whole-request timeouts
    /// (a bag must not hang on the engine), the API key on every request.
    pub fn new(config: &PromotionsConfig) -> anyhow::Result<Client> {
        let base = upstream::base_url("PROMOTIONS_BASE_URL", &config.base_url)?;
        let mut headers = HeaderMap::new();
        let mut key = HeaderValue::from_str(&format!("ApiKey-v1 {}", config.api_key))
            .map_err(|_| anyhow::anyhow!("PROMOTIONS_API_KEY: not a valid header value"))?;
        key.set_sensitive(true);
        headers.insert(AUTHORIZATION, key);
        let http = upstream::http_client(config.timeout, headers)?;
        Ok(Client { http, base })
    }

    fn url(&self, segments: &[&str], dry: Option<bool>) -> Url {
        let mut url = upstream::join(&self.base, segments);
        if let Some(dry) = dry {
            url.query_pairs_mut()
                .append_pair("dry", if dry { "true" } else { "false" });
        }
        url
    }

    /// Sends one request; `Ok(None)` when the answer's status is `absent` (the status the caller
    /// recovers from), otherwise the JSON body of a 2xx.
    async fn call(
        &self,
        op: &'static str,
        method: Method,
        url: Url,
        body: Option<&Value>,
        absent: Option<StatusCode>,
    ) -> Result<Option<Value>, PromotionsError> {
        let mut req = self.http.request(method, url);
        if let Some(body) = body {
            req = req.json(body);
        }
        let res = req.send().await.map_err(|e| transport(op, &e))?;
        let status = res.status();
        if Some(status) == absent {
            return Ok(None);
        }
        if !status.is_success() {
            return Err(PromotionsError::Status {
                op,
                status: status.as_u16(),
            });
        }
        let bytes = res.bytes().await.map_err(|e| transport(op, &e))?;
        if bytes.is_empty() {
            return Ok(Some(Value::Null));
        }
        serde_json::from_slice(&bytes)
            .map(Some)
            .map_err(|e| PromotionsError::Decode {
                op,
                why: e.to_string(),
            })
    }

    /// The profile, or `None` when the service answers 408 (the spec's signal to create it).
    pub async fn get_customer_profile(
        &self,
        integration_id: &str,
    ) -> Result<Option<Value>, PromotionsError> {
        let url = self.url(&["v1", "customer_profiles", integration_id], None);
        self.call(
            "getCustomerProfile",
            Method::GET,
            url,
            None,
            Some(StatusCode::REQUEST_TIMEOUT),
        )
        .await
    }

    /// Creates or updates a profile.
    pub async fn update_customer_profile(
        &self,
        integration_id: &str,
        attributes: Value,
    ) -> Result<Value, PromotionsError> {
        let url = self.url(&["v2", "customer_profiles", integration_id], None);
        let body = serde_json::json!({ "attributes": attributes });
        let answer = self
            .call("updateCustomerProfile", Method::PUT, url, Some(&body), None)
            .await?;
        Ok(answer.unwrap_or(Value::Null))
    }

    /// The session, or `None` when the service answers 404.
    pub async fn get_customer_session(
        &self,
        session_id: &str,
    ) -> Result<Option<Value>, PromotionsError> {
        let url = self.url(&["v2", "customer_sessions", session_id], None);
        self.call(
            "getCustomerSession",
            Method::GET,
            url,
            None,
            Some(StatusCode::NOT_FOUND),
        )
        .await
    }

    /// Creates or updates a session and answers the engine's effects. `dry` evaluates without
    /// the engine keeping anything.
    pub async fn update_customer_session(
        &self,
        session_id: &str,
        dry: bool,
        session: &CustomerSession,
    ) -> Result<SessionAnswer, PromotionsError> {
        let op = "updateCustomerSession";
        let url = self.url(&["v2", "customer_sessions", session_id], Some(dry));
        let body = serde_json::json!({
            "customerSession": session,
            "responseContent": ["customerSession", "customerProfile"],
        });
        let answer = self
            .call(op, Method::PUT, url, Some(&body), None)
            .await?
            .unwrap_or(Value::Null);
        if answer.is_null() {
            return Ok(SessionAnswer::default());
        }
        serde_json::from_value(answer).map_err(|e| PromotionsError::Decode {
            op,
            why: e.to_string(),
        })
    }

    /// Makes sure the profile exists: a 408 on reading it creates it.
    pub async fn ensure_profile(
        &self,
        integration_id: &str,
        attributes: Value,
    ) -> Result<Created, PromotionsError> {
        match self.get_customer_profile(integration_id).await? {
            Some(_) => Ok(Created::Nothing),
            None => {
                self.update_customer_profile(integration_id, attributes)
                    .await?;
                Ok(Created::Profile)
            }
        }
    }

    /// Evaluates the bag: an unknown session (404) is created as a dry run and its effects
    /// used; a known one is updated with the bag as it is now.
    pub async fn sync_session(
        &self,
        session_id: &str,
        session: &CustomerSession,
    ) -> Result<SessionAnswer, PromotionsError> {
        let exists = self.get_customer_session(session_id).await?.is_some();
        self.update_customer_session(session_id, !exists, session)
            .await
    }
}

fn transport(op: &'static str, e: &reqwest::Error) -> PromotionsError {
    PromotionsError::Transport {
        op,
        why: upstream::transport_why(e),
    }
}
