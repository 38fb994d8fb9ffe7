//! Which payment provider the checkout uses, from the environment: the in-process sandbox, the
//! card payment provider's Checkout API (the same provider, URL and key as express checkout), or
//! none (the checkout then says payments are not available rather than offering dead buttons).

use crate::upstream;
use std::time::Duration;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ProviderKind {
    /// No provider: `GET /checkout/{id}/payment-methods` answers 503 `payments_not_configured`.
    #[default]
    None,
    /// The sandbox, in process: test cards, a 3-D Secure page, redirect approval pages.
    Sandbox,
    /// The provider's Checkout API at `PAYMENT_PROVIDER_BASE_URL`.
    Remote,
}

#[derive(Debug, Clone)]
pub struct PaymentsConfig {
    pub provider: ProviderKind,
    pub base_url: String,
    pub api_key: String,
    /// Where the browser sends card details to get a token (the provider's client endpoint).
    pub tokenize_url: String,
    pub timeout: Duration,
}

pub const DEFAULT_TIMEOUT_MS: u64 = 10_000;
/// A shopper waits on Place order; the provider must answer (or be given up on) before they leave.
pub const MAX_TIMEOUT_MS: u64 = 25_000;

impl Default for PaymentsConfig {
    fn default() -> Self {
        PaymentsConfig {
            provider: ProviderKind::None,
            base_url: String::new(),
            api_key: String::new(),
            tokenize_url: String::new(),
            timeout: Duration::from_millis(DEFAULT_TIMEOUT_MS),
        }
    }
}

impl PaymentsConfig {
    /// The sandbox, as `storefront dev` and the tests use it.
    pub fn sandbox() -> PaymentsConfig {
        PaymentsConfig {
            provider: ProviderKind::Sandbox,
            ..PaymentsConfig::default()
        }
    }

    /// Reads `PAYMENT_PROVIDER` and `PAYMENT_PROVIDER_*` from the environment; `fallback` is the
    /// provider when `PAYMENT_PROVIDER` is unset (`storefront dev` passes the sandbox, the
    /// production-like servers none). The remote provider is chosen only by name: its URL and key
    /// alone also serve the express checkout's wallet calls, which need no card tokenisation.
    pub fn from_env(fallback: ProviderKind) -> anyhow::Result<PaymentsConfig> {
        PaymentsConfig::from_vars(|name| std::env::var(name).ok(), fallback)
    }

    pub fn from_vars(
        get: impl Fn(&str) -> Option<String>,
        fallback: ProviderKind,
    ) -> anyhow::Result<PaymentsConfig> {
        let timeout = upstream::timeout_setting(
            &get,
            "PAYMENT_PROVIDER_TIMEOUT_MS",
            DEFAULT_TIMEOUT_MS,
            MAX_TIMEOUT_MS,
        )?;
        let provider = match get("PAYMENT_PROVIDER").as_deref().map(str::trim) {
            Some("sandbox") => ProviderKind::Sandbox,
            Some("remote") => ProviderKind::Remote,
            Some("none") => ProviderKind::None,
            None | Some("") => fallback,
            Some(other) => {
                anyhow::bail!("PAYMENT_PROVIDER: must be sandbox, remote or none, not {other:?}")
            }
        };
        let mut config = PaymentsConfig {
            provider,
            timeout,
            ..PaymentsConfig::default()
        };
        if provider == ProviderKind::Remote {
            let required = |name: &str| match get(name).map(|v| v.trim().to_string()) {
                Some(v) if !v.is_empty() => Ok(v),
                _ => Err(anyhow::anyhow!(
                    "{name}: required for the remote payment provider"
                )),
            };
            config.base_url = required("PAYMENT_PROVIDER_BASE_URL")?;
            config.api_key = required("PAYMENT_PROVIDER_API_KEY")?;
            config.tokenize_url = required("PAYMENT_PROVIDER_TOKENIZE_URL")?;
        }
        Ok(config)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |k: &str| {
            pairs
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn the_provider_is_chosen_by_setting_then_fallback() {
        let none = PaymentsConfig::from_vars(vars(&[]), ProviderKind::None).unwrap();
        assert_eq!(none.provider, ProviderKind::None);
        let dev = PaymentsConfig::from_vars(vars(&[]), ProviderKind::Sandbox).unwrap();
        assert_eq!(dev.provider, ProviderKind::Sandbox);
        // The express checkout's URL and key alone leave the fallback (dev keeps its sandbox).
        let express = PaymentsConfig::from_vars(
            vars(&[
                ("PAYMENT_PROVIDER_BASE_URL", "http://x"),
                ("PAYMENT_PROVIDER_API_KEY", "k"),
            ]),
            ProviderKind::Sandbox,
        )
        .unwrap();
        assert_eq!(express.provider, ProviderKind::Sandbox);
        let e = PaymentsConfig::from_vars(
            vars(&[
                ("PAYMENT_PROVIDER", "remote"),
                ("PAYMENT_PROVIDER_BASE_URL", "http://x"),
            ]),
            ProviderKind::Sandbox,
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "PAYMENT_PROVIDER_API_KEY: required for the remote payment provider"
        );
        let remote = PaymentsConfig::from_vars(
            vars(&[
                ("PAYMENT_PROVIDER", "remote"),
                ("PAYMENT_PROVIDER_BASE_URL", "http://x"),
                ("PAYMENT_PROVIDER_API_KEY", "k"),
                (
                    "PAYMENT_PROVIDER_TOKENIZE_URL",
                    "https://pay.example/tokens",
                ),
            ]),
            ProviderKind::None,
        )
        .unwrap();
        assert_eq!(remote.provider, ProviderKind::Remote);
        assert_eq!(remote.tokenize_url, "https://pay.example/tokens");
        let forced = PaymentsConfig::from_vars(
            vars(&[
                ("PAYMENT_PROVIDER", "sandbox"),
                ("PAYMENT_PROVIDER_BASE_URL", "http://x"),
            ]),
            ProviderKind::None,
        )
        .unwrap();
        assert_eq!(forced.provider, ProviderKind::Sandbox);
        assert!(
            PaymentsConfig::from_vars(vars(&[("PAYMENT_PROVIDER", "stripe")]), ProviderKind::None)
                .is_err()
        );
    }
}
