//! The promotions engine's settings: the feature flag (on only for the string `true`) and the
//! connection, read from the `PROMOTIONS_*` environment variables.

use crate::upstream;
use domain::market::Market;
use std::time::Duration;

/// The promotions engine's settings (docs/api.md, "Promotions").
#[derive(Debug, Clone)]
pub struct PromotionsConfig {
    /// On only when the setting is the string `true`.
    pub enabled: bool,
    pub base_url: String,
    pub api_key: String,
    /// The engine's store integration id per market (UK, EU, US).
    pub store_uk: String,
    pub store_eu: String,
    pub store_us: String,
    /// Whole-request timeout of each call to the engine.
    pub timeout: Duration,
}

impl Default for PromotionsConfig {
    fn default() -> Self {
        PromotionsConfig {
            enabled: false,
            base_url: String::new(),
            api_key: String::new(),
            store_uk: String::new(),
            store_eu: String::new(),
            store_us: String::new(),
            timeout: Duration::from_millis(DEFAULT_TIMEOUT_MS),
        }
    }
}

pub const DEFAULT_TIMEOUT_MS: u64 = 3000;
/// A bag must open in human time even when the engine hangs.
pub const MAX_TIMEOUT_MS: u64 = 30_000;

/// On only for the string `true` (shared with the other outside services).
pub use crate::upstream::flag_on;

impl PromotionsConfig {
    /// Reads `PROMOTIONS_*` from the environment.
    pub fn from_env() -> anyhow::Result<PromotionsConfig> {
        PromotionsConfig::from_vars(|name| std::env::var(name).ok())
    }

    /// Reads the settings through `get` (the environment, or a map in tests). With the flag on,
    /// every connection setting is required, so a half-configured engine fails at start-up and
    /// not on a shopper's bag.
    pub fn from_vars(get: impl Fn(&str) -> Option<String>) -> anyhow::Result<PromotionsConfig> {
        let enabled = flag_on(get("PROMOTIONS_ENABLED").as_deref());
        let timeout = upstream::timeout_setting(
            &get,
            "PROMOTIONS_TIMEOUT_MS",
            DEFAULT_TIMEOUT_MS,
            MAX_TIMEOUT_MS,
        )?;
        let mut config = PromotionsConfig {
            enabled,
            timeout,
            ..PromotionsConfig::default()
        };
        if !enabled {
            return Ok(config);
        }
        let required = |name: &str| upstream::required_setting(&get, name, "PROMOTIONS_ENABLED");
        config.base_url = required("PROMOTIONS_BASE_URL")?;
        config.api_key = required("PROMOTIONS_API_KEY")?;
        config.store_uk = required("PROMOTIONS_STORE_UK")?;
        config.store_eu = required("PROMOTIONS_STORE_EU")?;
        config.store_us = required("PROMOTIONS_STORE_US")?;
        Ok(config)
    }

    /// The engine's store for a market.
    pub fn store_for(&self, market: &Market) -> &str {
        match market.code {
            "us" => &self.store_us,
            "eu" => &self.store_eu,
            _ => &self.store_uk,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flag_is_on_only_for_the_string_true() {
        assert!(flag_on(Some("true")));
        for off in [
            None,
            Some(""),
            Some("TRUE"),
            Some("True"),
            Some("1"),
            Some("yes"),
            Some(" true"),
        ] {
            assert!(!flag_on(off), "{off:?}");
        }
    }

    #[test]
    fn an_enabled_engine_needs_every_setting() {
        let vars = crate::upstream::settings_from;
        let off = PromotionsConfig::from_vars(vars(&[("PROMOTIONS_ENABLED", "yes")])).unwrap();
        assert!(!off.enabled);
        let e = PromotionsConfig::from_vars(vars(&[
            ("PROMOTIONS_ENABLED", "true"),
            ("PROMOTIONS_BASE_URL", "http://x"),
        ]))
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "PROMOTIONS_API_KEY: required when PROMOTIONS_ENABLED is true"
        );
        let on = PromotionsConfig::from_vars(vars(&[
            ("PROMOTIONS_ENABLED", "true"),
            ("PROMOTIONS_BASE_URL", "http://x"),
            ("PROMOTIONS_API_KEY", "k"),
            ("PROMOTIONS_STORE_UK", "uk-store"),
            ("PROMOTIONS_STORE_EU", "eu-store"),
            ("PROMOTIONS_STORE_US", "us-store"),
            ("PROMOTIONS_TIMEOUT_MS", "1500"),
        ]))
        .unwrap();
        assert!(on.enabled);
        assert_eq!(on.timeout, Duration::from_millis(1500));
        assert_eq!(on.store_for(&domain::market::MARKETS[1]), on.store_us);
        let e = PromotionsConfig::from_vars(vars(&[("PROMOTIONS_TIMEOUT_MS", "0")])).unwrap_err();
        assert!(e.to_string().starts_with("PROMOTIONS_TIMEOUT_MS:"), "{e}");
    }
}
