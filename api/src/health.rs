//! The calls the front end and the operations make before anything else: health (with the
//! database's reachability), the markets and their channels, and the visitor's country from the
//! CDN's geo header.

use crate::error::ApiResult;
use crate::state::AppState;
use axum::Json;
use axum::extract::State;
use axum::http::HeaderMap;
use domain::market::MARKETS;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(health))
        .routes(routes!(config))
        .routes(routes!(geo))
}

#[derive(Serialize, ToSchema)]
pub struct Health {
    pub status: &'static str,
}

/// Liveness and database reachability.
#[utoipa::path(get, path = "/health", tag = "operations", responses((status = 200, body = Health)))]
async fn health(State(state): State<AppState>) -> ApiResult<Json<Health>> {
    let _: i64 = sqlx::query_scalar("SELECT 1")
        .fetch_one(state.db().pool())
        .await?;
    Ok(Json(Health { status: "ok" }))
}

#[derive(Serialize, ToSchema)]
pub struct ChannelCurrencies {
    pub default_currency: String,
}

#[derive(Serialize, ToSchema)]
pub struct MarketConfig {
    pub code: String,
    pub name: String,
    pub channel_id: u64,
    pub currencies: ChannelCurrencies,
    pub path: String,
    pub locale: String,
}

#[derive(Serialize, ToSchema)]
pub struct SiteConfig {
    pub markets: Vec<MarketConfig>,
    /// Location 2 stock is not sold outside the UK when true.
    pub deduct_location_2_outside_uk: bool,
    pub low_stock_below: i64,
}

/// Markets, their channels and currencies.
#[utoipa::path(get, path = "/config", tag = "operations", responses((status = 200, body = SiteConfig)))]
async fn config(State(state): State<AppState>) -> Json<SiteConfig> {
    Json(SiteConfig {
        markets: MARKETS
            .iter()
            .map(|m| MarketConfig {
                code: m.code.into(),
                name: m.name.into(),
                channel_id: m.channel_id,
                currencies: ChannelCurrencies {
                    default_currency: m.currency.code().into(),
                },
                path: m.path("/"),
                locale: m.locale.into(),
            })
            .collect(),
        deduct_location_2_outside_uk: state.config().deduct_location_2_outside_uk,
        low_stock_below: crate::stock::LOW_STOCK_BELOW,
    })
}

#[derive(Serialize, ToSchema)]
pub struct Geo {
    /// ISO 3166 alpha-2, or null when unknown.
    pub country: Option<String>,
    /// The market the country maps to: GB → uk; US, CA → us; IE → eu; AT, DE → the German
    /// site (reported as `de`, external); unknown → eu (Rest of the World, EUR).
    pub market: String,
    pub source: &'static str,
}

/// The market for a country (the spec's country map; anything else is Rest of the World in EUR).
pub fn market_for_country(country: Option<&str>) -> &'static str {
    match country {
        Some("GB") => "uk",
        Some("US") | Some("CA") => "us",
        Some("AT") | Some("DE") => "de",
        _ => "eu",
    }
}

/// Reads the CDN's geo header; without one (or with XX/T1 "unknown"/Tor), the fallback applies.
pub fn country_from(headers: &HeaderMap, header: &str) -> Option<String> {
    let v = headers
        .get(header)?
        .to_str()
        .ok()?
        .trim()
        .to_ascii_uppercase();
    (v.len() == 2 && v.chars().all(|c| c.is_ascii_uppercase()) && v != "XX" && v != "T1")
        .then_some(v)
}

/// The visitor's country from the CDN geo header, with the documented fallback.
#[utoipa::path(get, path = "/geo", tag = "operations", responses((status = 200, body = Geo)))]
async fn geo(State(state): State<AppState>, headers: HeaderMap) -> Json<Geo> {
    let country = country_from(&headers, &state.config().geo_header);
    Json(Geo {
        market: market_for_country(country.as_deref()).into(),
        source: if country.is_some() {
            "header"
        } else {
            "fallback"
        },
        country,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    #[test]
    fn countries_map_to_markets_with_a_eur_fallback() {
        assert_eq!(market_for_country(Some("GB")), "uk");
        assert_eq!(market_for_country(Some("CA")), "us");
        assert_eq!(market_for_country(Some("IE")), "eu");
        assert_eq!(market_for_country(Some("DE")), "de");
        assert_eq!(market_for_country(None), "eu");
    }

    #[test]
    fn geo_header_is_validated() {
        let mut h = HeaderMap::new();
        h.insert("cf-ipcountry", HeaderValue::from_static("gb"));
        assert_eq!(country_from(&h, "cf-ipcountry").as_deref(), Some("GB"));
        h.insert("cf-ipcountry", HeaderValue::from_static("XX"));
        assert_eq!(country_from(&h, "cf-ipcountry"), None);
        h.insert("cf-ipcountry", HeaderValue::from_static("<script>"));
        assert_eq!(country_from(&h, "cf-ipcountry"), None);
    }
}
