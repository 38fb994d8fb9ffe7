//! Search and listings: `GET /search` (the header overlay's Products and Popular Searches) and
//! `GET /listing` (a category, collection or search results page after its static first page:
//! filters, facet counts, sorts, pages). Both read the generator's per-market index, re-opened
//! when a build publishes a new one.

pub mod distribution;

use crate::error::{ApiError, ApiResult, ErrorCode};
use crate::session::Shopper;
use crate::state::AppState;
use ::search::{ParamError, SearchHit, Sort};
use axum::Json;
use axum::extract::{RawQuery, State};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(search_products))
        .routes(routes!(listing))
}

fn param_error(e: ParamError) -> ApiError {
    ApiError::field(e.param, e.message)
}

/// Decoded query pairs; a query string that is not valid form encoding is a 400.
fn pairs(raw: Option<&str>) -> ApiResult<Vec<(String, String)>> {
    serde_urlencoded::from_str(raw.unwrap_or(""))
        .map_err(|_| ApiError::field("query_string", "is not valid URL form encoding"))
}

fn single<'a>(pairs: &'a [(String, String)], name: &str) -> ApiResult<Option<&'a str>> {
    let mut values = pairs
        .iter()
        .filter(|(k, _)| k == name)
        .map(|(_, v)| v.as_str());
    let first = values.next();
    if values.next().is_some() {
        return Err(ApiError::field(name, "must be given once"));
    }
    Ok(first)
}

/// `GET /search` answer.
#[derive(Serialize, ToSchema)]
pub struct SearchAnswer {
    /// Up to 10 products, best first.
    #[schema(value_type = Vec<Object>)]
    pub products: Vec<SearchHit>,
    /// Up to 5 popular searches.
    pub suggestions: Vec<String>,
}

/// Instant search: products and popular searches for what the shopper typed.
#[utoipa::path(get, path = "/search", tag = "search",
    params(("query" = String, Query, description = "The search text: not empty, at most 200 characters"),
           ("market" = Option<crate::contract::MarketCode>, Query, description = "uk (default), us or eu")),
    responses((status = 200, body = SearchAnswer), (status = 400, body = crate::error::ErrorBody),
              (status = 503, body = crate::error::ErrorBody)))]
async fn search_products(
    State(state): State<AppState>,
    shopper: Shopper,
    RawQuery(raw): RawQuery,
) -> ApiResult<Json<SearchAnswer>> {
    let pairs = pairs(raw.as_deref())?;
    if let Some((k, _)) = pairs.iter().find(|(k, _)| k != "market" && k != "query") {
        return Err(ApiError::field(k.clone(), "is not a search parameter"));
    }
    let query = ::search::params::search_text(single(&pairs, "query")?).map_err(param_error)?;
    let service = state.search();
    let index = service.index(&shopper.market)?;
    let products = index
        .search(&query)
        .map_err(|e| ApiError::Internal(anyhow::anyhow!(e)))?;
    if !products.is_empty() {
        service.popular.record(shopper.market.code, &query);
    }
    // Signed-in searches carry the customer id, as the spec's product searches do.
    tracing::info!(
        market = shopper.market.code,
        customer_id = shopper.customer_id.as_deref().unwrap_or(""),
        hits = products.len(),
        "product search"
    );
    let suggestions = service
        .popular
        .suggestions(shopper.market.code, &query, &index.curated);
    Ok(Json(SearchAnswer {
        products,
        suggestions,
    }))
}

/// `GET /listing` answer: one page of products (cards as the static pages render them) with
/// facet counts for the current filters.
#[derive(Serialize, ToSchema)]
pub struct ListingAnswer {
    pub kind: &'static str,
    pub id: Option<u64>,
    pub query: Option<String>,
    pub total: usize,
    pub page: usize,
    pub pages: usize,
    pub per_page: usize,
    /// featured, relevance, newest, price-asc or price-desc.
    pub sort: &'static str,
    #[schema(value_type = Vec<Object>)]
    pub products: Vec<::search::Card>,
    #[schema(value_type = Object)]
    pub facets: ::search::Facets,
}

/// A category, collection or search results page: filters[Color|Size|price], sort, page.
#[utoipa::path(get, path = "/listing", tag = "search",
    params(("kind" = String, Query, description = "category, collection or search"),
           ("id" = Option<u64>, Query, description = "category or collection id"),
           ("query" = Option<String>, Query, description = "search text (kind=search)"),
           ("filters[name]" = Option<String>, Query, description = "Color, Size (repeatable) or price as low-high"),
           ("sort" = Option<String>, Query, description = "featured, relevance, newest, price-asc, price-desc (or field + direction)"),
           ("direction" = Option<String>, Query, description = "asc or desc, with sort=price"),
           ("page" = Option<u64>, Query, minimum = 1, description = "1-based; 48 products per page; a page past the last is a 400"),
           ("market" = Option<crate::contract::MarketCode>, Query, description = "uk (default), us or eu")),
    responses((status = 200, body = ListingAnswer), (status = 400, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody), (status = 503, body = crate::error::ErrorBody)))]
async fn listing(
    State(state): State<AppState>,
    RawQuery(raw): RawQuery,
) -> ApiResult<Json<ListingAnswer>> {
    let market = crate::session::market_from_query(raw.as_deref())?;
    let pairs = pairs(raw.as_deref())?;
    let params =
        ::search::params::parse_listing(&pairs, &["market", "kind", "id"]).map_err(param_error)?;
    let kind = match single(&pairs, "kind")? {
        Some("category") => "category",
        Some("collection") => "collection",
        Some("search") => "search",
        _ => {
            return Err(ApiError::field(
                "kind",
                "must be category, collection or search",
            ));
        }
    };
    let id = match (kind, single(&pairs, "id")?) {
        ("search", None) => None,
        ("search", Some(_)) => return Err(ApiError::field("id", "does not apply to search")),
        (_, Some(v)) => Some(
            v.parse::<u64>()
                .map_err(|_| ApiError::field("id", "must be a whole number"))?,
        ),
        (_, None) => return Err(ApiError::field("id", "is required")),
    };
    let default_sort = if kind == "search" {
        Sort::Relevance
    } else {
        Sort::Featured
    };
    let sort = params.sort.unwrap_or(default_sort);
    match (kind, sort) {
        ("search", Sort::Featured) => {
            return Err(ApiError::field(
                "sort",
                "search results sort by relevance, not featured",
            ));
        }
        ("category" | "collection", Sort::Relevance) => {
            return Err(ApiError::field(
                "sort",
                "relevance applies to search results only",
            ));
        }
        _ => {}
    }
    let index = state.search().index(&market)?;
    let scope: Vec<usize> = match id {
        None => {
            let query = params
                .query
                .clone()
                .ok_or_else(|| ApiError::field("query", "must not be empty"))?;
            index
                .search_scope(&query)
                .map_err(|e| ApiError::Internal(anyhow::anyhow!(e)))?
        }
        Some(id) => {
            let members = if kind == "category" {
                index.listing.category(id)
            } else {
                index.listing.collection(id)
            };
            members
                .map(<[usize]>::to_vec)
                .ok_or_else(|| ApiError::new(ErrorCode::NotFound, format!("No such {kind}")))?
        }
    };
    let page = index
        .list(&scope, &params.filters, sort, params.page)
        .map_err(|e| ApiError::field("page", format!("must be at most {}", e.pages)))?;
    Ok(Json(ListingAnswer {
        kind,
        id,
        query: params.query.clone(),
        total: page.total,
        page: page.page,
        pages: page.pages,
        per_page: page.per_page,
        sort: page.sort.as_str(),
        products: index.cards(&page).into_iter().cloned().collect(),
        facets: page.facets,
    }))
}
