//! The signed-in customer: profile and its form fields (Title, Date of Birth, Preference Email,
//! Preference Post, then any custom fields stored at registration), and the address book. Another
//! customer's address answers 404.

use crate::auth::{NameValue, TITLES};
use crate::error::{ApiError, ApiResult};
use crate::fields::is_date;
use crate::json::StrictJson;
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
        .routes(routes!(get_customer, update_customer))
        .routes(routes!(list_addresses, create_address))
        .routes(routes!(get_address, update_address, delete_address))
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

/// The postal code's name in a country: a zip code in the US, a postcode elsewhere.
pub fn postal_code_label(country: &str) -> &'static str {
    if country == "US" {
        "Zip code"
    } else {
        "Postcode"
    }
}

#[derive(Serialize, ToSchema)]
pub struct CustomerView {
    pub id: String,
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    pub phone: String,
    pub form_fields: Vec<FormField>,
}

#[derive(Serialize, ToSchema)]
pub struct FormField {
    pub name: String,
    #[schema(value_type = Object)]
    pub value: serde_json::Value,
}

pub async fn load_customer(conn: &mut sqlx::AnyConnection, id: &str) -> ApiResult<CustomerView> {
    type Row = (String, String, String, String, String, String, i64, i64);
    let (email, first, last, phone, title, dob, pe, pp): Row = sqlx::query_as(
        "SELECT email, first_name, last_name, phone, title, date_of_birth, preference_email, preference_post \
         FROM customer WHERE id = $1",
    )
    .bind(id)
    .fetch_optional(&mut *conn)
    .await?
    .ok_or_else(ApiError::unauthorized)?;
    let custom: Vec<(String, String)> = sqlx::query_as(
        "SELECT name, value FROM customer_form_field WHERE customer_id = $1 ORDER BY position, name",
    )
    .bind(id)
    .fetch_all(&mut *conn)
    .await?;
    let field = |name: &str, value: serde_json::Value| FormField {
        name: name.into(),
        value,
    };
    let mut form_fields = vec![
        field("Title", title.into()),
        field("Date of Birth", dob.into()),
        field("Preference Email", (pe != 0).into()),
        field("Preference Post", (pp != 0).into()),
    ];
    form_fields.extend(custom.into_iter().map(|(n, v)| field(&n, v.into())));
    Ok(CustomerView {
        id: id.to_string(),
        email,
        first_name: first,
        last_name: last,
        phone,
        form_fields,
    })
}

/// The signed-in customer.
#[utoipa::path(get, path = "/customer", tag = "account",
    responses((status = 200, body = CustomerView), (status = 401, body = crate::error::ErrorBody)))]
async fn get_customer(
    State(state): State<AppState>,
    shopper: Shopper,
) -> ApiResult<Json<CustomerView>> {
    let id = shopper.customer()?;
    let mut conn = state.db().pool().acquire().await?;
    Ok(Json(load_customer(&mut conn, id).await?))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct UpdateCustomer {
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub phone: Option<String>,
    /// Title, Date of Birth, Preference Email ("true"/"false"), Preference Post.
    #[serde(default)]
    pub form_fields: Vec<NameValue>,
}

fn as_flag(field: &str, value: &str) -> ApiResult<i64> {
    match value {
        "true" | "1" | "yes" => Ok(1),
        "false" | "0" | "no" | "" => Ok(0),
        _ => Err(ApiError::field(field, "must be true or false")),
    }
}

/// Updates the profile and form fields.
#[utoipa::path(put, path = "/customer", tag = "account", request_body = UpdateCustomer,
    responses((status = 200, body = CustomerView), (status = 400, body = crate::error::ErrorBody),
              (status = 401, body = crate::error::ErrorBody)))]
async fn update_customer(
    State(state): State<AppState>,
    shopper: Shopper,
    StrictJson(body): StrictJson<UpdateCustomer>,
) -> ApiResult<Json<CustomerView>> {
    let id = shopper.customer()?;
    let mut sets: Vec<(&'static str, SqlValue)> = Vec::new();
    for (name, value, label) in [
        ("first_name", &body.first_name, "First name"),
        ("last_name", &body.last_name, "Last name"),
    ] {
        if let Some(v) = value {
            let n = v.trim().chars().count();
            if !(2..=100).contains(&n) {
                return Err(ApiError::field(
                    name,
                    format!("{label} must be from 2 to 100 characters"),
                ));
            }
            sets.push((name, SqlValue::Text(v.trim().to_string())));
        }
    }
    if let Some(p) = &body.phone {
        if p.len() > 40 {
            return Err(ApiError::field("phone", "Phone number is too long"));
        }
        sets.push(("phone", SqlValue::Text(p.trim().to_string())));
    }
    for (i, f) in body.form_fields.iter().enumerate() {
        let field = format!("form_fields[{i}].value");
        let (column, value) = match f.name.as_str() {
            "Title" if TITLES.contains(&f.value.as_str()) => {
                ("title", SqlValue::Text(f.value.clone()))
            }
            "Title" => return Err(ApiError::field(field, "Please select a title")),
            "Date of Birth" if f.value.is_empty() || is_date(&f.value) => {
                ("date_of_birth", SqlValue::Text(f.value.clone()))
            }
            "Date of Birth" => return Err(ApiError::field(field, "must be a date (YYYY-MM-DD)")),
            "Preference Email" => (
                "preference_email",
                SqlValue::Int(as_flag(&field, &f.value)?),
            ),
            "Preference Post" => ("preference_post", SqlValue::Int(as_flag(&field, &f.value)?)),
            _ => {
                return Err(ApiError::field(
                    format!("form_fields[{i}].name"),
                    "is not a customer form field",
                ));
            }
        };
        sets.push((column, value));
    }
    let mut tx = state.db().write().await?;
    for (column, value) in sets {
        // Column names come from the fixed list above, never from the request.
        let sql = format!("UPDATE customer SET {column} = $1 WHERE id = $2");
        let q = sqlx::query(sqlx::AssertSqlSafe(sql));
        let q = match value {
            SqlValue::Text(t) => q.bind(t),
            SqlValue::Int(n) => q.bind(n),
        };
        q.bind(id).execute(&mut *tx).await?;
    }
    let view = load_customer(&mut tx, id).await?;
    tx.commit().await?;
    Ok(Json(view))
}

enum SqlValue {
    Text(String),
    Int(i64),
}

#[derive(Debug, Deserialize, Serialize, ToSchema, Clone)]
#[serde(deny_unknown_fields)]
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
pub struct Address {
    pub id: String,
    #[serde(flatten)]
    pub fields: AddressInput,
}

#[derive(Serialize, ToSchema)]
pub struct AddressList {
    pub data: Vec<Address>,
}

/// Every required field with its own message, and the country / state lists.
pub fn validate_address(mut a: AddressInput) -> ApiResult<AddressInput> {
    for v in [
        &mut a.first_name,
        &mut a.last_name,
        &mut a.street_name,
        &mut a.house_number,
        &mut a.city,
        &mut a.state_or_province,
        &mut a.postal_code,
        &mut a.country_code,
        &mut a.phone,
    ] {
        *v = v.trim().to_string();
    }
    if a.country_code.eq_ignore_ascii_case("UK") {
        a.country_code = "GB".into();
    }
    a.country_code = a.country_code.to_uppercase();
    let mut fields = BTreeMap::new();
    let states = COUNTRIES
        .iter()
        .find(|(code, _, _)| *code == a.country_code)
        .map(|(_, _, states)| *states);
    // A state only where the country has states (a US address); an unknown country asks for it.
    let state_needed = states.is_none_or(|s| !s.is_empty());
    let postal_message = match postal_code_label(&a.country_code) {
        "Zip code" => "Please enter a zip code",
        _ => "Please enter a postcode",
    };
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
            "Please enter a state or province",
        ),
        ("postal_code", &a.postal_code, postal_message),
        ("country_code", &a.country_code, "Please select a country"),
        ("phone", &a.phone, "Please enter a phone number"),
    ];
    for (name, value, message) in required {
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
            fields.insert(
                "country_code".into(),
                "We do not deliver to this country".into(),
            );
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
type AddressRow = (
    String,
    String,
    String,
    String,
    String,
    String,
    String,
    String,
    String,
    String,
);

fn to_address(r: AddressRow) -> Address {
    Address {
        id: r.0,
        fields: AddressInput {
            first_name: r.1,
            last_name: r.2,
            street_name: r.3,
            house_number: r.4,
            city: r.5,
            state_or_province: r.6,
            postal_code: r.7,
            country_code: r.8,
            phone: r.9,
        },
    }
}

pub async fn find_address(
    conn: &mut sqlx::AnyConnection,
    customer: &str,
    id: &str,
) -> ApiResult<Address> {
    let sql = format!("SELECT {ADDRESS_COLUMNS} FROM address WHERE id = $1 AND customer_id = $2");
    let row: Option<AddressRow> = sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(id)
        .bind(customer)
        .fetch_optional(&mut *conn)
        .await?;
    row.map(to_address).ok_or_else(ApiError::not_found)
}

/// The customer's addresses.
#[utoipa::path(get, path = "/customer/addresses", tag = "account",
    responses((status = 200, body = AddressList), (status = 401, body = crate::error::ErrorBody)))]
async fn list_addresses(
    State(state): State<AppState>,
    shopper: Shopper,
) -> ApiResult<Json<AddressList>> {
    let customer = shopper.customer()?;
    let sql =
        format!("SELECT {ADDRESS_COLUMNS} FROM address WHERE customer_id = $1 ORDER BY position");
    let rows: Vec<AddressRow> = sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(customer)
        .fetch_all(state.db().pool())
        .await?;
    Ok(Json(AddressList {
        data: rows.into_iter().map(to_address).collect(),
    }))
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
    Ok((StatusCode::CREATED, Json(Address { id, fields: a })).into_response())
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
    responses((status = 200, body = Address), (status = 404, body = crate::error::ErrorBody)))]
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
    responses((status = 200, body = Address), (status = 400, body = crate::error::ErrorBody),
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
    Ok(Json(Address { id, fields: a }))
}

/// Deletes an address.
#[utoipa::path(delete, path = "/customer/addresses/{id}", tag = "account", params(("id" = String, Path)),
    responses((status = 204), (status = 404, body = crate::error::ErrorBody)))]
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
