//! The checkouts' settings and limits: express checkout's card payment provider (read from the
//! environment), the payment-attempt throttle and how long a Pending order may wait.

use crate::payments::client::Client;
use crate::upstream;
use std::time::Duration;

/// How long a Pending order may wait for its payment before it is settled: longer than any
/// provider answer (25 s at most) and any 3-D Secure page a shopper is still on.
pub const PENDING_LIMIT_SECS: i64 = 15 * 60;

/// Express checkout's settings (docs/api.md, "Express checkout").
#[derive(Debug, Clone)]
pub struct ExpressConfig {
    /// On only when `EXPRESS_CHECKOUT_ENABLED` is the string `true` (as the promotions flag).
    pub enabled: bool,
    pub base_url: String,
    pub api_key: String,
    /// Whole-request timeout of each call to the payment provider.
    pub timeout: Duration,
}

pub const DEFAULT_TIMEOUT_MS: u64 = 10_000;
/// A wallet sheet gives up after about 30 s; the API must answer before it does.
pub const MAX_TIMEOUT_MS: u64 = 25_000;
/// Payment attempts allowed per checkout and per client address in `PAYMENT_WINDOW_SECS`: enough
/// for a shopper whose card was declined to try others, too few to test stolen cards with.
pub const PAYMENTS_PER_CHECKOUT: u32 = 5;
pub const PAYMENTS_PER_CLIENT: u32 = 20;
pub const PAYMENT_WINDOW_SECS: i64 = 3600;

impl Default for ExpressConfig {
    fn default() -> Self {
        ExpressConfig {
            enabled: false,
            base_url: String::new(),
            api_key: String::new(),
            timeout: Duration::from_millis(DEFAULT_TIMEOUT_MS),
        }
    }
}

impl ExpressConfig {
    /// The card payment provider's client for the wallet calls (enabled configuration).
    pub fn client(&self) -> anyhow::Result<Client> {
        Client::new(&self.base_url, &self.api_key, self.timeout, "")
    }

    /// Reads `EXPRESS_CHECKOUT_ENABLED` and `PAYMENT_PROVIDER_*` from the environment.
    pub fn from_env() -> anyhow::Result<ExpressConfig> {
        ExpressConfig::from_vars(|name| std::env::var(name).ok())
    }

    /// With the flag on, the provider's URL and key are required, so a half-configured button
    /// fails at start-up and not in a shopper's wallet sheet.
    pub fn from_vars(get: impl Fn(&str) -> Option<String>) -> anyhow::Result<ExpressConfig> {
        let enabled = upstream::flag_on(get("EXPRESS_CHECKOUT_ENABLED").as_deref());
        let timeout = upstream::timeout_setting(
            &get,
            "PAYMENT_PROVIDER_TIMEOUT_MS",
            DEFAULT_TIMEOUT_MS,
            MAX_TIMEOUT_MS,
        )?;
        let mut config = ExpressConfig {
            enabled,
            timeout,
            ..ExpressConfig::default()
        };
        if enabled {
            let required =
                |name: &str| upstream::required_setting(&get, name, "EXPRESS_CHECKOUT_ENABLED");
            config.base_url = required("PAYMENT_PROVIDER_BASE_URL")?;
            config.api_key = required("PAYMENT_PROVIDER_API_KEY")?;
        }
        Ok(config)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_button_needs_the_flag_and_the_provider() {
        let vars = crate::upstream::settings_from;
        assert!(
            !ExpressConfig::from_vars(vars(&[("EXPRESS_CHECKOUT_ENABLED", "1")]))
                .unwrap()
                .enabled
        );
        let e = ExpressConfig::from_vars(vars(&[
            ("EXPRESS_CHECKOUT_ENABLED", "true"),
            ("PAYMENT_PROVIDER_BASE_URL", "http://x"),
        ]))
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "PAYMENT_PROVIDER_API_KEY: required when EXPRESS_CHECKOUT_ENABLED is true"
        );
        let on = ExpressConfig::from_vars(vars(&[
            ("EXPRESS_CHECKOUT_ENABLED", "true"),
            ("PAYMENT_PROVIDER_BASE_URL", "http://x"),
            ("PAYMENT_PROVIDER_API_KEY", "k"),
            ("PAYMENT_PROVIDER_TIMEOUT_MS", "800"),
        ]))
        .unwrap();
        assert!(on.enabled);
        assert_eq!(on.timeout, Duration::from_millis(800));
        let e = ExpressConfig::from_vars(vars(&[("PAYMENT_PROVIDER_TIMEOUT_MS", "99999")]))
            .unwrap_err();
        assert!(
            e.to_string().starts_with("PAYMENT_PROVIDER_TIMEOUT_MS:"),
            "{e}"
        );
    }
}
