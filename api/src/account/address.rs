//! The customer's address book: list, add, read, replace and delete, and the checks every
//! address form shares (each required field with its own message, the countries delivered to
//! and their states). The only writer of `address`; another customer's address answers 404.

use crate::error::{ApiError, ApiResult};
use crate::json::StrictJson;
use crate::rows::row;
use crate::session::Shopper;
use crate::state::AppState;
use crate::store::{next_position, random_id};
use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_addresses, create_address))
        .routes(routes!(get_address, update_address, delete_address))
        .routes(routes!(make_default))
}

/// Countries the address form offers, and the states offered for each (only the US has a list).
pub const COUNTRIES: &[(&str, &str, &[&str])] = &[
    ("US", "United States", &["California", "Nevada"]),
    ("GB", "United Kingdom", &[]),
    ("AT", "Austria", &[]),
    ("DE", "Germany", &[]),
    ("NL", "Netherlands", &[]),
    ("IE", "Ireland", &[]),
    ("JE", "Jersey", &[]),
    ("GG", "Guernsey", &[]),
];

/// The postal code's name in a country: a ZIP code in the US, a postcode elsewhere.
pub fn postal_code_label(country: &str) -> &'static str {
    if country == "US" {
        "ZIP code"
    } else {
        "Postcode"
    }
}

/// What a missing postal code is told, in the country's own word for it.
pub fn postal_code_message(country: &str) -> &'static str {
    if country == "US" {
        "Please enter a ZIP code"
    } else {
        "Please enter a postcode"
    }
}

#[derive(Debug, Deserialize, Serialize, ToSchema, Clone)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"first_name": "Ada", "last_name": "Lovelace", "street_name": "Baker Street", "house_number": "221B", "city": "London", "state_or_province": "", "postal_code": "NW1 6XE", "country_code": "GB", "phone": "+44 20 7946 0000"}))]
pub struct AddressInput {
    #[serde(default)]
    pub first_name: String,
    #[serde(default)]
    pub last_name: String,
    #[serde(default)]
    pub street_name: String,
    #[serde(default)]
    pub house_number: String,
    #[serde(default)]
    pub city: String,
    #[serde(default)]
    pub state_or_province: String,
    #[serde(default)]
    pub postal_code: String,
    /// US, GB (UK is accepted and stored as GB), AT, DE or NL.
    #[serde(default)]
    pub country_code: String,
    #[serde(default)]
    pub phone: String,
}

#[derive(Serialize, ToSchema)]
pub struct AddressList {
    pub data: Vec<Address>,
}

/// Every required field with its own message, and the country / state lists.
pub fn validate_address(mut a: AddressInput) -> ApiResult<AddressInput> {
    let mut fields = BTreeMap::new();
    for (name, v) in [
        ("first_name", &mut a.first_name),
        ("last_name", &mut a.last_name),
        ("street_name", &mut a.street_name),
        ("house_number", &mut a.house_number),
        ("city", &mut a.city),
        ("state_or_province", &mut a.state_or_province),
        ("postal_code", &mut a.postal_code),
        ("country_code", &mut a.country_code),
        ("phone", &mut a.phone),
    ] {
        match crate::fields::clean_text(v) {
            Ok(clean) => *v = clean,
            Err(why) => {
                fields.insert(name.to_string(), why.to_string());
            }
        }
    }
    if a.country_code.eq_ignore_ascii_case("UK") {
        a.country_code = "GB".into();
    }
    a.country_code = a.country_code.to_uppercase();
    let states = COUNTRIES
        .iter()
        .find(|(code, _, _)| *code == a.country_code)
        .map(|(_, _, states)| *states);
    // A state only where the country has states (a US address); an unknown country asks for it.
    let state_needed = states.is_none_or(|s| !s.is_empty());
    let postal_message = postal_code_message(&a.country_code);
    let required = [
        ("first_name", &a.first_name, "Please enter a first name"),
        ("last_name", &a.last_name, "Please enter a last name"),
        ("street_name", &a.street_name, "Please enter a street name"),
        (
            "house_number",
            &a.house_number,
            "Please enter a house or apartment number",
        ),
        ("city", &a.city, "Please enter a city"),
        (
            "state_or_province",
            &a.state_or_province,
            "Please enter a state",
        ),
        ("postal_code", &a.postal_code, postal_message),
        ("country_code", &a.country_code, "Please select a country"),
        ("phone", &a.phone, "Please enter a phone number"),
    ];
    for (name, value, message) in required {
        if fields.contains_key(name) {
            continue;
        }
        if value.is_empty() && (name != "state_or_province" || state_needed) {
            fields.insert(name.to_string(), message.to_string());
        } else if value.chars().count() > 100 {
            fields.insert(name.to_string(), "is too long".to_string());
        }
    }
    match COUNTRIES
        .iter()
        .find(|(code, _, _)| *code == a.country_code)
    {
        None if !a.country_code.is_empty() => {
            fields
                .entry("country_code".into())
                .or_insert_with(|| "We do not deliver to this country".into());
        }
        Some((_, _, states))
            if !states.is_empty()
                && !a.state_or_province.is_empty()
                && !states.contains(&a.state_or_province.as_str()) =>
        {
            fields.insert(
                "state_or_province".into(),
                format!("Please choose one of: {}", states.join(", ")),
            );
        }
        _ => {}
    }
    if fields.is_empty() {
        Ok(a)
    } else {
        Err(ApiError::fields(
            "Please correct the highlighted fields",
            fields,
        ))
    }
}

const ADDRESS_COLUMNS: &str = "id, first_name, last_name, street_name, house_number, city, state_or_province, postal_code, country_code, phone";
row! {
    /// A saved address as stored and answered: its id and its fields (its own schema, since the
    /// input's refuses an `id`).
    #[derive(Serialize, ToSchema)]
    pub struct Address {
        pub id: String,
        pub first_name: String,
        pub last_name: String,
        pub street_name: String,
        pub house_number: String,
        pub city: String,
        pub state_or_province: String,
        pub postal_code: String,
        pub country_code: String,
        pub phone: String,
    }
}

impl Address {
    fn new(id: String, a: AddressInput) -> Address {
        Address {
            id,
            first_name: a.first_name,
            last_name: a.last_name,
            street_name: a.street_name,
            house_number: a.house_number,
            city: a.city,
            state_or_province: a.state_or_province,
            postal_code: a.postal_code,
            country_code: a.country_code,
            phone: a.phone,
        }
    }

    /// The fields, as a checkout's address takes them.
    pub fn into_input(self) -> AddressInput {
        AddressInput {
            first_name: self.first_name,
            last_name: self.last_name,
            street_name: self.street_name,
            house_number: self.house_number,
            city: self.city,
            state_or_province: self.state_or_province,
            postal_code: self.postal_code,
            country_code: self.country_code,
            phone: self.phone,
        }
    }
}

pub async fn find_address(
    conn: &mut sqlx::AnyConnection,
    customer: &str,
    id: &str,
) -> ApiResult<Address> {
    let sql = format!("SELECT {ADDRESS_COLUMNS} FROM address WHERE id = $1 AND customer_id = $2");
    let row: Option<Address> = sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(id)
        .bind(customer)
        .fetch_optional(&mut *conn)
        .await?;
    row.ok_or_else(ApiError::not_found)
}

/// The customer's addresses, the default (the one the checkout offers first) first.
#[utoipa::path(get, path = "/customer/addresses", tag = "account",
    responses((status = 200, body = AddressList), (status = 401, body = crate::error::ErrorBody)))]
async fn list_addresses(
    State(state): State<AppState>,
    shopper: Shopper,
) -> ApiResult<Json<AddressList>> {
    let customer = shopper.customer()?;
    Ok(Json(address_list(&state, customer).await?))
}

async fn address_list(state: &AppState, customer: &str) -> ApiResult<AddressList> {
    let sql = format!(
        "SELECT {ADDRESS_COLUMNS} FROM address WHERE customer_id = $1 ORDER BY position, id"
    );
    let rows: Vec<Address> = sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(customer)
        .fetch_all(state.db().pool())
        .await?;
    Ok(AddressList { data: rows })
}

/// Makes an address the default: it moves to the front of the book, where the checkout's
/// saved-address choice starts. Answers the book in its new order.
#[utoipa::path(post, path = "/customer/addresses/{id}/default", tag = "account", params(("id" = String, Path)),
    responses((status = 200, body = AddressList), (status = 401, body = crate::error::ErrorBody, description = "Not signed in"),
              (status = 404, body = crate::error::ErrorBody)))]
async fn make_default(
    State(state): State<AppState>,
    shopper: Shopper,
    Path(id): Path<String>,
) -> ApiResult<Json<AddressList>> {
    let customer = shopper.customer()?;
    let moved = sqlx::query(
        "UPDATE address SET position = (SELECT MIN(position) FROM address WHERE customer_id = $1) - 1 \
         WHERE id = $2 AND customer_id = $1",
    )
    .bind(customer)
    .bind(&id)
    .execute(state.db().pool())
    .await?
    .rows_affected();
    if moved == 0 {
        return Err(ApiError::not_found());
    }
    Ok(Json(address_list(&state, customer).await?))
}

/// Adds an address.
#[utoipa::path(post, path = "/customer/addresses", tag = "account", request_body = AddressInput,
    responses((status = 201, body = Address), (status = 400, body = crate::error::ErrorBody),
              (status = 401, body = crate::error::ErrorBody)))]
async fn create_address(
    State(state): State<AppState>,
    shopper: Shopper,
    StrictJson(body): StrictJson<AddressInput>,
) -> ApiResult<Response> {
    let customer = shopper.customer()?;
    let a = validate_address(body)?;
    let mut conn = state.db().pool().acquire().await?;
    let id = insert_address(&mut conn, customer, &a).await?;
    Ok((StatusCode::CREATED, Json(Address::new(id, a))).into_response())
}

/// Stores an (already checked) address as the customer's last; answers its id.
pub async fn insert_address(
    conn: &mut sqlx::AnyConnection,
    customer: &str,
    a: &AddressInput,
) -> ApiResult<String> {
    let id = random_id(16);
    sqlx::query(
        "INSERT INTO address (id, customer_id, first_name, last_name, street_name, house_number, city, \
         state_or_province, postal_code, country_code, phone, position) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
    )
    .bind(&id)
    .bind(customer)
    .bind(&a.first_name)
    .bind(&a.last_name)
    .bind(&a.street_name)
    .bind(&a.house_number)
    .bind(&a.city)
    .bind(&a.state_or_province)
    .bind(&a.postal_code)
    .bind(&a.country_code)
    .bind(&a.phone)
    .bind(next_position())
    .execute(&mut *conn)
    .await?;
    Ok(id)
}

/// One address.
#[utoipa::path(get, path = "/customer/addresses/{id}", tag = "account", params(("id" = String, Path)),
    responses((status = 401, body = crate::error::ErrorBody, description = "Not signed in"), (status = 200, body = Address), (status = 404, body = crate::error::ErrorBody)))]
async fn get_address(
    State(state): State<AppState>,
    shopper: Shopper,
    Path(id): Path<String>,
) -> ApiResult<Json<Address>> {
    let customer = shopper.customer()?;
    let mut conn = state.db().pool().acquire().await?;
    Ok(Json(find_address(&mut conn, customer, &id).await?))
}

/// Replaces an address.
#[utoipa::path(put, path = "/customer/addresses/{id}", tag = "account", params(("id" = String, Path)),
    request_body = AddressInput,
    responses((status = 401, body = crate::error::ErrorBody, description = "Not signed in"), (status = 200, body = Address), (status = 400, body = crate::error::ErrorBody),
              (status = 404, body = crate::error::ErrorBody)))]
async fn update_address(
    State(state): State<AppState>,
    shopper: Shopper,
    Path(id): Path<String>,
    StrictJson(body): StrictJson<AddressInput>,
) -> ApiResult<Json<Address>> {
    let customer = shopper.customer()?;
    let a = validate_address(body)?;
    let updated = sqlx::query(
        "UPDATE address SET first_name = $1, last_name = $2, street_name = $3, house_number = $4, city = $5, \
         state_or_province = $6, postal_code = $7, country_code = $8, phone = $9 WHERE id = $10 AND customer_id = $11",
    )
    .bind(&a.first_name)
    .bind(&a.last_name)
    .bind(&a.street_name)
    .bind(&a.house_number)
    .bind(&a.city)
    .bind(&a.state_or_province)
    .bind(&a.postal_code)
    .bind(&a.country_code)
    .bind(&a.phone)
    .bind(&id)
    .bind(customer)
    .execute(state.db().pool())
    .await?
    .rows_affected();
    if updated == 0 {
        return Err(ApiError::not_found());
    }
    Ok(Json(Address::new(id, a)))
}

/// Deletes an address.
#[utoipa::path(delete, path = "/customer/addresses/{id}", tag = "account", params(("id" = String, Path)),
    responses((status = 401, body = crate::error::ErrorBody, description = "Not signed in"), (status = 204), (status = 404, body = crate::error::ErrorBody)))]
async fn delete_address(
    State(state): State<AppState>,
    shopper: Shopper,
    Path(id): Path<String>,
) -> ApiResult<StatusCode> {
    let customer = shopper.customer()?;
    let deleted = sqlx::query("DELETE FROM address WHERE id = $1 AND customer_id = $2")
        .bind(&id)
        .bind(customer)
        .execute(state.db().pool())
        .await?
        .rows_affected();
    if deleted == 0 {
        return Err(ApiError::not_found());
    }
    Ok(StatusCode::NO_CONTENT)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn address() -> AddressInput {
        AddressInput {
            first_name: "Ada".into(),
            last_name: "Lovelace".into(),
            street_name: "Main St".into(),
            house_number: "1".into(),
            city: "Reno".into(),
            state_or_province: "Nevada".into(),
            postal_code: "89501".into(),
            country_code: "US".into(),
            phone: "555".into(),
        }
    }

    #[test]
    fn addresses_need_every_field_and_a_known_country_and_state() {
        assert!(validate_address(address()).is_ok());
        let e = validate_address(AddressInput {
            city: " ".into(),
            ..address()
        })
        .unwrap_err();
        assert!(matches!(e, ApiError::Client { ref fields, .. } if fields.contains_key("city")));
        assert!(
            validate_address(AddressInput {
                state_or_province: "Texas".into(),
                ..address()
            })
            .is_err()
        );
        assert!(
            validate_address(AddressInput {
                country_code: "FR".into(),
                ..address()
            })
            .is_err()
        );
        let uk = validate_address(AddressInput {
            country_code: "uk".into(),
            state_or_province: "Kent".into(),
            ..address()
        })
        .unwrap();
        assert_eq!(uk.country_code, "GB");
    }
}
