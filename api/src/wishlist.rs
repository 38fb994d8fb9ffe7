//! Customer wishlists: list, read one, create, add items (a product + variant pair already there
//! is ignored), remove an item, delete; and the guest-list merge at sign-in. Items are answered in
//! pages of 50. Another customer's wishlist answers 404. The only
//! writer of `wishlist` and `wishlist_item`.

use crate::error::{ApiError, ApiResult};
use crate::json::StrictJson;
use crate::rows::row;
use crate::session::Shopper;
use crate::state::AppState;
use crate::store::{Tx, next_position, random_id};
use axum::Json;
use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use domain::catalog::Catalog;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(get_wishlist, delete_wishlist))
        .routes(routes!(add_items))
        .routes(routes!(remove_item))
}

/// Most items one list may hold (five of the spec's 50-item pages).
pub const MAX_ITEMS: usize = 250;
pub const DEFAULT_NAME: &str = "My Wishlist";
/// The spec's wishlist page size.
pub const PER_PAGE: u64 = 50;

/// The last page a list can have (a full list's).
pub const MAX_PAGE: u64 = MAX_ITEMS as u64 / PER_PAGE;

/// `page` from the query string: 1-based, default 1, at most `MAX_PAGE` (no list has more).
/// Anything else is a 400 naming `page`; a page within bounds but beyond this list's end answers
/// an empty page.
pub fn page_from_query(query: Option<&str>) -> ApiResult<u64> {
    match crate::stock::query_value(query, "page") {
        None => Ok(1),
        Some(v) => match v.parse::<u64>() {
            Ok(n) if (1..=MAX_PAGE).contains(&n) && v.bytes().all(|b| b.is_ascii_digit()) => Ok(n),
            _ => Err(ApiError::field(
                "page",
                format!("must be a whole number from 1 to {MAX_PAGE}"),
            )),
        },
    }
}

#[derive(Deserialize, Serialize, ToSchema, Clone)]
#[serde(deny_unknown_fields)]
pub struct WishlistItemInput {
    pub product_id: u64,
    pub variant_id: u64,
    /// False when the shopper chose only the colour: `variant_id` is then the colour's first
    /// variant, and its size and length are not the shopper's. Default true.
    #[serde(default = "chosen")]
    pub options_chosen: bool,
}

fn chosen() -> bool {
    true
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "Birthday ideas", "is_public": false, "items": [{"product_id": 101, "variant_id": 10001}]}))]
pub struct CreateWishlist {
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub is_public: bool,
    #[serde(default)]
    pub items: Vec<WishlistItemInput>,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"items": [{"product_id": 101, "variant_id": 10001}]}))]
pub struct AddWishlistItems {
    pub items: Vec<WishlistItemInput>,
}

#[derive(Serialize, ToSchema)]
pub struct WishlistItem {
    pub id: String,
    pub product_id: u64,
    pub variant_id: u64,
    pub name: Option<String>,
    /// False: only the colour was chosen (see `WishlistItemInput`).
    pub options_chosen: bool,
}

#[derive(Serialize, ToSchema)]
pub struct Wishlist {
    pub id: String,
    pub customer_id: String,
    pub name: String,
    pub is_public: bool,
    pub token: String,
    /// The requested page of items (50 per page).
    pub items: Vec<WishlistItem>,
    pub pagination: Pagination,
}

/// Paging of a wishlist's items. `count` is the number of items on this page; `total_pages` is at
/// least 1; a page beyond the end has no items.
#[derive(Serialize, ToSchema)]
pub struct Pagination {
    pub total: u64,
    pub count: u64,
    pub per_page: u64,
    pub current_page: u64,
    pub total_pages: u64,
}

#[derive(Serialize, ToSchema)]
pub struct WishlistList {
    pub data: Vec<Wishlist>,
}

/// Every item must name a product and one of its variants.
pub fn validate_items(
    catalog: &Catalog,
    items: &[WishlistItemInput],
    field: &str,
) -> ApiResult<()> {
    if items.len() > MAX_ITEMS {
        return Err(ApiError::field(
            field,
            format!("must hold at most {MAX_ITEMS} items"),
        ));
    }
    for (i, item) in items.iter().enumerate() {
        let ok = catalog
            .product(item.product_id)
            .is_some_and(|p| p.variants.iter().any(|v| v.id == item.variant_id));
        if !ok {
            return Err(ApiError::field(
                format!("{field}[{i}].variant_id"),
                "is not a product variant in the catalog",
            ));
        }
    }
    Ok(())
}

async fn insert_items(
    tx: &mut Tx,
    wishlist_id: &str,
    items: &[WishlistItemInput],
) -> ApiResult<()> {
    for item in items {
        // A pair already on the list is ignored, by the unique key rather than a read first.
        sqlx::query(
            "INSERT INTO wishlist_item (id, wishlist_id, product_id, variant_id, position, options_chosen) \
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (wishlist_id, product_id, variant_id) DO NOTHING",
        )
        .bind(random_id(16))
        .bind(wishlist_id)
        .bind(item.product_id as i64)
        .bind(item.variant_id as i64)
        .bind(next_position())
        .bind(item.options_chosen as i64)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

async fn create_list(
    tx: &mut Tx,
    customer: &str,
    name: &str,
    is_public: bool,
) -> ApiResult<String> {
    let id = random_id(16);
    sqlx::query("INSERT INTO wishlist (id, customer_id, name, is_public, token, position) VALUES ($1, $2, $3, $4, $5, $6)")
        .bind(&id)
        .bind(customer)
        .bind(name)
        .bind(is_public as i64)
        .bind(random_id(16))
        .bind(next_position())
        .execute(&mut **tx)
        .await?;
    Ok(id)
}

/// Merges the guest list into the customer's first wishlist, creating it if there is none.
pub async fn merge_guest(
    tx: &mut Tx,
    _state: &AppState,
    customer: &str,
    items: &[WishlistItemInput],
) -> ApiResult<()> {
    let first: Option<String> = sqlx::query_scalar(
        "SELECT id FROM wishlist WHERE customer_id = $1 ORDER BY position LIMIT 1",
    )
    .bind(customer)
    .fetch_optional(&mut **tx)
    .await?;
    let id = match first {
        Some(id) => id,
        None => create_list(tx, customer, DEFAULT_NAME, false).await?,
    };
    insert_items(tx, &id, items).await
}

row! {
    struct ListRow {
        id: String,
        name: String,
        is_public: i64,
        token: String,
    }
}

row! {
    struct ItemRow {
        wishlist_id: String,
        id: String,
        product_id: i64,
        variant_id: i64,
        options_chosen: i64,
    }
}

async fn load(
    conn: &mut sqlx::AnyConnection,
    state: &AppState,
    customer: &str,
    only: Option<&str>,
    page: u64,
) -> ApiResult<Vec<Wishlist>> {
    let lists: Vec<ListRow> = sqlx::query_as(
        "SELECT id, name, is_public, token FROM wishlist WHERE customer_id = $1 ORDER BY position",
    )
    .bind(customer)
    .fetch_all(&mut *conn)
    .await?;
    let items: Vec<ItemRow> = sqlx::query_as(
        "SELECT wi.wishlist_id, wi.id, wi.product_id, wi.variant_id, wi.options_chosen FROM wishlist_item wi \
         JOIN wishlist w ON w.id = wi.wishlist_id WHERE w.customer_id = $1 ORDER BY wi.position",
    )
    .bind(customer)
    .fetch_all(&mut *conn)
    .await?;
    let catalog = state.catalog();
    Ok(lists
        .into_iter()
        .filter(|list| only.is_none_or(|o| o == list.id))
        .map(|list| {
            let all: Vec<_> = items.iter().filter(|i| i.wishlist_id == list.id).collect();
            let total = all.len() as u64;
            let skip = page.saturating_sub(1).saturating_mul(PER_PAGE);
            let page_items: Vec<WishlistItem> = all
                .into_iter()
                .skip(usize::try_from(skip).unwrap_or(usize::MAX))
                .take(PER_PAGE as usize)
                .map(|item| WishlistItem {
                    id: item.id.clone(),
                    product_id: item.product_id as u64,
                    variant_id: item.variant_id as u64,
                    name: catalog
                        .product(item.product_id as u64)
                        .map(|p| p.name.clone()),
                    options_chosen: item.options_chosen != 0,
                })
                .collect();
            Wishlist {
                pagination: Pagination {
                    total,
                    count: page_items.len() as u64,
                    per_page: PER_PAGE,
                    current_page: page,
                    total_pages: total.div_ceil(PER_PAGE).max(1),
                },
                items: page_items,
                id: list.id,
                customer_id: customer.to_string(),
                name: list.name,
                is_public: list.is_public != 0,
                token: list.token,
            }
        })
        .collect())
}

async fn one(
    conn: &mut sqlx::AnyConnection,
    state: &AppState,
    customer: &str,
    id: &str,
    page: u64,
) -> ApiResult<Wishlist> {
    load(conn, state, customer, Some(id), page)
        .await?
        .pop()
        .ok_or_else(ApiError::not_found)
}

/// Opens a write transaction with the customer's wishlist `id` locked, or 404.
async fn owned(state: &AppState, customer: &str, id: &str) -> ApiResult<Tx> {
    let mut tx = state.db().write().await?;
    let sql = format!(
        "SELECT id FROM wishlist WHERE id = $1 AND customer_id = $2{}",
        state.db().for_update()
    );
    let found: Option<String> = sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
        .bind(id)
        .bind(customer)
        .fetch_optional(&mut *tx)
        .await?;
    found.map(|_| tx).ok_or_else(ApiError::not_found)
}

/// The customer's wishlists, each with page `page` of its items (50 per page).
#[utoipa::path(get, path = "/wishlists", tag = "wishlist",
    params(("page" = Option<u64>, Query, minimum = 1, maximum = 5, description = "1-based page of each list's items (50 per page); default 1, beyond the end answers an empty page")),
    responses((status = 200, body = WishlistList), (status = 400, body = crate::error::ErrorBody),
              (status = 401, body = crate::error::ErrorBody)))]
async fn list(
    State(state): State<AppState>,
    shopper: Shopper,
    RawQuery(query): RawQuery,
) -> ApiResult<Json<WishlistList>> {
    let customer = shopper.customer()?;
    let page = page_from_query(query.as_deref())?;
    let mut conn = state.db().pool().acquire().await?;
    Ok(Json(WishlistList {
        data: load(&mut conn, &state, customer, None, page).await?,
    }))
}

/// One wishlist with page `page` of its items (50 per page).
#[utoipa::path(get, path = "/wishlists/{id}", tag = "wishlist",
    params(("id" = String, Path),
           ("page" = Option<u64>, Query, minimum = 1, maximum = 5, description = "1-based page of items (50 per page); default 1, beyond the end answers an empty page")),
    responses((status = 200, body = Wishlist), (status = 400, body = crate::error::ErrorBody),
              (status = 401, body = crate::error::ErrorBody), (status = 404, body = crate::error::ErrorBody)))]
async fn get_wishlist(
    State(state): State<AppState>,
    shopper: Shopper,
    Path(id): Path<String>,
    RawQuery(query): RawQuery,
) -> ApiResult<Json<Wishlist>> {
    let customer = shopper.customer()?;
    let page = page_from_query(query.as_deref())?;
    let mut conn = state.db().pool().acquire().await?;
    Ok(Json(one(&mut conn, &state, customer, &id, page).await?))
}

/// Creates a wishlist (clear = delete, then create an empty one).
#[utoipa::path(post, path = "/wishlists", tag = "wishlist", request_body = CreateWishlist,
    responses((status = 201, body = Wishlist), (status = 400, body = crate::error::ErrorBody),
              (status = 401, body = crate::error::ErrorBody)))]
async fn create(
    State(state): State<AppState>,
    shopper: Shopper,
    StrictJson(body): StrictJson<CreateWishlist>,
) -> ApiResult<Response> {
    let customer = shopper.customer()?;
    let name = body
        .name
        .as_deref()
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .unwrap_or(DEFAULT_NAME);
    if name.chars().count() > 100 {
        return Err(ApiError::field("name", "must be at most 100 characters"));
    }
    validate_items(&state.catalog(), &body.items, "items")?;
    let mut tx = state.db().write().await?;
    let id = create_list(&mut tx, customer, name, body.is_public).await?;
    insert_items(&mut tx, &id, &body.items).await?;
    let list = one(&mut tx, &state, customer, &id, 1).await?;
    tx.commit().await?;
    Ok((StatusCode::CREATED, Json(list)).into_response())
}

/// Deletes a wishlist.
#[utoipa::path(delete, path = "/wishlists/{id}", tag = "wishlist", params(("id" = String, Path)),
    responses((status = 401, body = crate::error::ErrorBody, description = "Not signed in"), (status = 204), (status = 404, body = crate::error::ErrorBody)))]
async fn delete_wishlist(
    State(state): State<AppState>,
    shopper: Shopper,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    let customer = shopper.customer()?;
    let mut tx = owned(&state, customer, &id).await?;
    sqlx::query("DELETE FROM wishlist_item WHERE wishlist_id = $1")
        .bind(&id)
        .execute(&mut *tx)
        .await?;
    sqlx::query("DELETE FROM wishlist WHERE id = $1")
        .bind(&id)
        .execute(&mut *tx)
        .await?;
    tx.commit().await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Adds items; pairs already on the list are ignored.
#[utoipa::path(post, path = "/wishlists/{id}/items", tag = "wishlist", params(("id" = String, Path)),
    request_body = AddWishlistItems,
    responses((status = 401, body = crate::error::ErrorBody, description = "Not signed in"), (status = 200, body = Wishlist), (status = 400, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody)))]
async fn add_items(
    State(state): State<AppState>,
    shopper: Shopper,
    Path(id): Path<String>,
    StrictJson(body): StrictJson<AddWishlistItems>,
) -> ApiResult<Json<Wishlist>> {
    let customer = shopper.customer()?;
    if body.items.is_empty() {
        return Err(ApiError::field("items", "must hold at least one item"));
    }
    validate_items(&state.catalog(), &body.items, "items")?;
    let mut tx = owned(&state, customer, &id).await?;
    insert_items(&mut tx, &id, &body.items).await?;
    let count: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM wishlist_item WHERE wishlist_id = $1")
            .bind(&id)
            .fetch_one(&mut *tx)
            .await?;
    if count as usize > MAX_ITEMS {
        return Err(ApiError::field(
            "items",
            format!("a wishlist holds at most {MAX_ITEMS} items"),
        ));
    }
    let list = one(&mut tx, &state, customer, &id, 1).await?;
    tx.commit().await?;
    Ok(Json(list))
}

/// Removes one item.
#[utoipa::path(delete, path = "/wishlists/{id}/items/{item_id}", tag = "wishlist",
    params(("id" = String, Path), ("item_id" = String, Path)),
    responses((status = 401, body = crate::error::ErrorBody, description = "Not signed in"), (status = 200, body = Wishlist), (status = 404, body = crate::error::ErrorBody)))]
async fn remove_item(
    State(state): State<AppState>,
    shopper: Shopper,
    Path((id, item_id)): Path<(String, String)>,
) -> ApiResult<Json<Wishlist>> {
    let customer = shopper.customer()?;
    let mut tx = owned(&state, customer, &id).await?;
    let removed = sqlx::query("DELETE FROM wishlist_item WHERE id = $1 AND wishlist_id = $2")
        .bind(&item_id)
        .bind(&id)
        .execute(&mut *tx)
        .await?
        .rows_affected();
    if removed == 0 {
        return Err(ApiError::not_found());
    }
    let list = one(&mut tx, &state, customer, &id, 1).await?;
    tx.commit().await?;
    Ok(Json(list))
}
