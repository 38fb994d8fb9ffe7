//! The small calls: health, market and channel config, geo country, marketing consent, notify-me,
//! and the mail outbox every email goes through.

use crate::cart::is_email;
use crate::error::{ApiError, ApiResult};
use crate::json::StrictJson;
use crate::session::Shopper;
use crate::state::AppState;
use crate::store::{Tx, random_id};
use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use domain::catalog::OptionKind;
use domain::market::MARKETS;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(health))
        .routes(routes!(config))
        .routes(routes!(geo))
        .routes(routes!(marketing_consent))
        .routes(routes!(notify_me))
}

/// Queues an email: a row in `outbox` (a sender drains it; see docs/api.md) and a log line.
pub async fn queue_mail(
    tx: &mut Tx,
    to: &str,
    subject: &str,
    body: &str,
    kind: &str,
    now: i64,
) -> ApiResult<()> {
    let id = random_id(16);
    sqlx::query("INSERT INTO outbox (id, recipient, subject, body, kind, created_at) VALUES ($1, $2, $3, $4, $5, $6)")
        .bind(&id)
        .bind(to)
        .bind(subject)
        .bind(body)
        .bind(kind)
        .bind(now)
        .execute(&mut **tx)
        .await?;
    // The body can hold a secret link, so only its id is logged at info; debug shows it for
    // local development, where the log is the mailbox.
    tracing::info!(outbox_id = %id, %kind, "mail queued");
    tracing::debug!(outbox_id = %id, %to, %subject, %body, "mail body");
    Ok(())
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
    /// The market the country maps to (§9): GB → uk; US, CA → us; IE → eu; AT, DE → the German
    /// site (reported as `de`, external); unknown → eu (Rest of the World, EUR).
    pub market: String,
    pub source: &'static str,
}

/// The market for a country (§9's country map; anything else is Rest of the World in EUR).
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

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Consent {
    #[serde(default)]
    pub email: String,
    /// marketing_email or marketing_post.
    #[serde(default)]
    pub category: String,
    /// accept.
    #[serde(default)]
    pub action: String,
}

#[derive(Serialize, ToSchema)]
pub struct Recorded {
    pub status: &'static str,
}

fn recorded() -> Response {
    (StatusCode::CREATED, Json(Recorded { status: "recorded" })).into_response()
}

/// Records marketing consent.
#[utoipa::path(post, path = "/marketing-consent", tag = "marketing", request_body = Consent,
    responses((status = 201, body = Recorded), (status = 400, body = crate::error::ErrorBody)))]
async fn marketing_consent(
    State(state): State<AppState>,
    StrictJson(body): StrictJson<Consent>,
) -> ApiResult<Response> {
    if !is_email(body.email.trim()) {
        return Err(ApiError::field(
            "email",
            "Please enter a valid email address",
        ));
    }
    if !matches!(body.category.as_str(), "marketing_email" | "marketing_post") {
        return Err(ApiError::field(
            "category",
            "must be marketing_email or marketing_post",
        ));
    }
    if body.action != "accept" {
        return Err(ApiError::field("action", "must be accept"));
    }
    sqlx::query("INSERT INTO marketing_consent (id, email, category, action, created_at) VALUES ($1, $2, $3, $4, $5)")
        .bind(random_id(16))
        .bind(crate::auth::normalise_email(&body.email))
        .bind(&body.category)
        .bind(&body.action)
        .bind(state.now())
        .execute(state.db().pool())
        .await?;
    Ok(recorded())
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NotifyMe {
    #[serde(default)]
    pub email: String,
    pub product_id: u64,
    #[serde(default)]
    pub variant_id: Option<u64>,
    /// The size label (or value id) wanted.
    #[serde(default)]
    pub size: String,
    /// The fit (length) label, required when the product has lengths.
    #[serde(default)]
    pub fit: Option<String>,
}

/// Asks to be told when a size comes back in stock.
#[utoipa::path(post, path = "/notify-me", tag = "marketing", params(("market" = Option<String>, Query)),
    request_body = NotifyMe,
    responses((status = 201, body = Recorded), (status = 400, body = crate::error::ErrorBody)))]
async fn notify_me(
    State(state): State<AppState>,
    shopper: Shopper,
    StrictJson(body): StrictJson<NotifyMe>,
) -> ApiResult<Response> {
    let catalog = state.catalog();
    let product = catalog
        .product(body.product_id)
        .ok_or_else(|| ApiError::field("product_id", "is not a product in the catalog"))?;
    let matches = |kind: OptionKind, wanted: &str| {
        product.option(kind).is_some_and(|o| {
            o.values
                .iter()
                .any(|v| v.label == wanted || v.id.to_string() == wanted)
        })
    };
    if body.size.trim().is_empty() {
        return Err(ApiError::field("size", "Please select a size"));
    }
    if product.option(OptionKind::Size).is_some() && !matches(OptionKind::Size, body.size.trim()) {
        return Err(ApiError::field("size", "is not a size of this product"));
    }
    let fit = body.fit.as_deref().map(str::trim).filter(|f| !f.is_empty());
    match (product.option(OptionKind::Length).is_some(), fit) {
        (true, None) => return Err(ApiError::field("fit", "Please select a fit")),
        (true, Some(f)) if !matches(OptionKind::Length, f) => {
            return Err(ApiError::field("fit", "is not a fit of this product"));
        }
        (false, Some(_)) => return Err(ApiError::field("fit", "this product has no fits")),
        _ => {}
    }
    if let Some(v) = body.variant_id
        && !product.variants.iter().any(|x| x.id == v)
    {
        return Err(ApiError::field(
            "variant_id",
            "is not a variant of this product",
        ));
    }
    if !is_email(body.email.trim()) {
        return Err(ApiError::field(
            "email",
            "Please enter a valid email address",
        ));
    }
    sqlx::query(
        "INSERT INTO stock_notification (id, email, product_id, variant_id, size, fit, market, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(random_id(16))
    .bind(crate::auth::normalise_email(&body.email))
    .bind(body.product_id as i64)
    .bind(body.variant_id.map(|v| v as i64))
    .bind(body.size.trim())
    .bind(fit)
    .bind(shopper.market.code)
    .bind(state.now())
    .execute(state.db().pool())
    .await?;
    Ok(recorded())
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
