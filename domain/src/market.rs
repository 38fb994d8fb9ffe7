//! The three markets the store sells in, and everything that differs between them.

use serde::Serialize;

/// ISO 4217 currency of a market.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, PartialOrd, Ord)]
pub enum Currency {
    #[serde(rename = "GBP")]
    Gbp,
    #[serde(rename = "USD")]
    Usd,
    #[serde(rename = "EUR")]
    Eur,
}

impl Currency {
    pub fn code(self) -> &'static str {
        match self {
            Currency::Gbp => "GBP",
            Currency::Usd => "USD",
            Currency::Eur => "EUR",
        }
    }

    pub fn symbol(self) -> &'static str {
        match self {
            Currency::Gbp => "£",
            Currency::Usd => "$",
            Currency::Eur => "€",
        }
    }

    pub fn from_code(code: &str) -> Option<Currency> {
        match code {
            "GBP" => Some(Currency::Gbp),
            "USD" => Some(Currency::Usd),
            "EUR" => Some(Currency::Eur),
            _ => None,
        }
    }
}

/// One market (the spec calls it a locale): UK, US or EU.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Market {
    /// Short code used in file names and the content key prefix: `uk`, `us`, `eu`.
    pub code: &'static str,
    /// The spec's locale code: `en`, `us`, `eu`.
    pub locale: &'static str,
    /// The spec's iso: `en`, `en-us`, `en-eu`.
    pub iso: &'static str,
    pub name: &'static str,
    pub currency: Currency,
    /// URL path prefix: empty for the default market, `/us`, `/eu`.
    pub path_prefix: &'static str,
    /// Content hub delivery key prefix: `uk/`, `us/`, `eu/`.
    pub content_prefix: &'static str,
    /// Search index name.
    pub search_index: &'static str,
    /// Commerce platform channel id.
    pub channel_id: u64,
    /// Locale passed to the size-recommendation widget.
    pub widget_locale: &'static str,
    /// `lang` attribute of the pages.
    pub html_lang: &'static str,
}

pub const UK: Market = Market {
    code: "uk",
    locale: "en",
    iso: "en",
    name: "UK",
    currency: Currency::Gbp,
    path_prefix: "",
    content_prefix: "uk/",
    search_index: "uk",
    channel_id: 1406818,
    widget_locale: "en_GB",
    html_lang: "en-GB",
};

pub const US: Market = Market {
    code: "us",
    locale: "us",
    iso: "en-us",
    name: "US",
    currency: Currency::Usd,
    path_prefix: "/us",
    content_prefix: "us/",
    search_index: "us",
    channel_id: 1421371,
    widget_locale: "en_US",
    html_lang: "en-US",
};

pub const EU: Market = Market {
    code: "eu",
    locale: "eu",
    iso: "en-eu",
    name: "EU",
    currency: Currency::Eur,
    path_prefix: "/eu",
    content_prefix: "eu/",
    search_index: "eu",
    channel_id: 1407345,
    widget_locale: "en_EU",
    html_lang: "en-IE",
};

/// All markets, in a fixed order; per-market arrays elsewhere use this order.
pub const MARKETS: [Market; 3] = [UK, US, EU];

/// The spec's hreflang set and the market each one points at. x-default and en-gb are the UK site,
/// en-us the US site; `en` (rest of the world) and en-ie (Ireland) are the EUR site.
pub const HREFLANGS: [(&str, usize); 5] = [
    ("x-default", 0),
    ("en-gb", 0),
    ("en-us", 1),
    ("en", 2),
    ("en-ie", 2),
];

impl Market {
    /// Position of this market in [`MARKETS`].
    pub fn index(&self) -> usize {
        MARKETS
            .iter()
            .position(|m| m.code == self.code)
            .expect("market is one of MARKETS")
    }

    pub fn by_code(code: &str) -> Option<Market> {
        MARKETS.iter().copied().find(|m| m.code == code)
    }

    pub fn by_channel(channel_id: u64) -> Option<Market> {
        MARKETS.iter().copied().find(|m| m.channel_id == channel_id)
    }

    /// Prefixes a site path (`/p/1/x/Red`) with the market's path prefix.
    pub fn path(&self, site_path: &str) -> String {
        if site_path == "/" && !self.path_prefix.is_empty() {
            return self.path_prefix.to_string();
        }
        format!("{}{}", self.path_prefix, site_path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_carry_the_market_prefix() {
        assert_eq!(UK.path("/bag"), "/bag");
        assert_eq!(US.path("/bag"), "/us/bag");
        assert_eq!(EU.path("/"), "/eu");
        assert_eq!(UK.path("/"), "/");
    }

    #[test]
    fn markets_are_found_by_channel_and_code() {
        assert_eq!(Market::by_channel(1421371), Some(US));
        assert_eq!(Market::by_code("eu"), Some(EU));
        assert_eq!(EU.index(), 2);
        assert_eq!(Market::by_code("de"), None);
    }
}
