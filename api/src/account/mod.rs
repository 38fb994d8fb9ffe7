//! The customer's account: the customer record with its form fields (Title, Date of Birth,
//! Preference Email, Preference Post, then any custom fields stored at registration), the profile
//! calls, and in `address` the address book. The only writer of `customer` and
//! `customer_form_field`: registration and the password reset change a customer through here.

pub mod address;

use crate::error::{ApiError, ApiResult};
use crate::fields::is_date;
use crate::json::StrictJson;
use crate::rows::row;
use crate::session::Shopper;
use crate::state::AppState;
use crate::store::{Db, Tx, next_position, random_id};
use address::AddressInput;
use axum::Json;
use axum::extract::State;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_customer, update_customer))
        .merge(address::router())
}

/// The titles a customer may choose.
pub const TITLES: &[&str] = &["Mr", "Mrs", "Miss", "Ms", "Mx", "Dr"];

#[derive(Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NameValue {
    pub name: String,
    pub value: String,
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
    pub value: FormValue,
}

/// A form field's value: text (title, date of birth, custom fields) or a yes/no preference.
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
pub enum FormValue {
    Text(String),
    Flag(bool),
}

row! {
    struct CustomerRow {
        email: String,
        first_name: String,
        last_name: String,
        phone: String,
        title: String,
        date_of_birth: String,
        preference_email: i64,
        preference_post: i64,
    }
}

/// The customer as the account screens show them; 401 when the customer is gone.
pub async fn load_customer(conn: &mut sqlx::AnyConnection, id: &str) -> ApiResult<CustomerView> {
    let row: CustomerRow = sqlx::query_as(
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
    let field = |name: &str, value: FormValue| FormField {
        name: name.into(),
        value,
    };
    let mut form_fields = vec![
        field("Title", FormValue::Text(row.title)),
        field("Date of Birth", FormValue::Text(row.date_of_birth)),
        field(
            "Preference Email",
            FormValue::Flag(row.preference_email != 0),
        ),
        field("Preference Post", FormValue::Flag(row.preference_post != 0)),
    ];
    form_fields.extend(
        custom
            .into_iter()
            .map(|(n, v)| field(&n, FormValue::Text(v))),
    );
    Ok(CustomerView {
        id: id.to_string(),
        email: row.email,
        first_name: row.first_name,
        last_name: row.last_name,
        phone: row.phone,
        form_fields,
    })
}

/// The customer with this (normalised) email, if any.
pub async fn id_by_email(conn: &mut sqlx::AnyConnection, email: &str) -> ApiResult<Option<String>> {
    Ok(
        sqlx::query_scalar("SELECT id FROM customer WHERE email = $1")
            .bind(email)
            .fetch_optional(&mut *conn)
            .await?,
    )
}

/// A customer's email, if the customer exists.
pub async fn email_of(conn: &mut sqlx::AnyConnection, id: &str) -> ApiResult<Option<String>> {
    Ok(
        sqlx::query_scalar("SELECT email FROM customer WHERE id = $1")
            .bind(id)
            .fetch_optional(&mut *conn)
            .await?,
    )
}

row! {
    /// What a sign-in checks a password against.
    pub struct Credentials {
        pub id: String,
        pub password_hash: String,
    }
}

/// The credentials of the customer with this (normalised) email, if any.
pub async fn credentials(
    conn: &mut sqlx::AnyConnection,
    email: &str,
) -> ApiResult<Option<Credentials>> {
    Ok(
        sqlx::query_as("SELECT id, password_hash FROM customer WHERE email = $1")
            .bind(email)
            .fetch_optional(&mut *conn)
            .await?,
    )
}

/// Locks the customer's row for the rest of `tx` (PostgreSQL; SQLite's `BEGIN IMMEDIATE` already
/// holds the database): work on one customer's rows from two requests then happens one after
/// the other.
pub async fn lock_customer(tx: &mut Tx, db: &Db, id: &str) -> ApiResult<()> {
    let sql = format!("SELECT id FROM customer WHERE id = $1{}", db.for_update());
    sqlx::query_scalar::<_, String>(sqlx::AssertSqlSafe(sql))
        .bind(id)
        .fetch_one(&mut **tx)
        .await?;
    Ok(())
}

/// A checked registration, as the customer record stores it.
pub struct NewCustomer<'a> {
    /// Normalised (`fields::normalise_email`).
    pub email: &'a str,
    pub password_hash: &'a str,
    pub title: &'a str,
    pub first_name: &'a str,
    pub last_name: &'a str,
    pub phone: &'a str,
    pub date_of_birth: &'a str,
    pub preference_email: bool,
    pub preference_post: bool,
    pub country_iso2: &'a str,
    pub accepts_marketing: bool,
    /// The customer's first saved address.
    pub address: Option<&'a AddressInput>,
    /// Extra form fields, in order.
    pub custom_fields: &'a [NameValue],
}

/// Writes a new customer (with their address and custom fields); `None` when the email already
/// has an account (a concurrent registration won).
pub async fn create_customer(
    tx: &mut Tx,
    new: &NewCustomer<'_>,
    now: i64,
) -> ApiResult<Option<String>> {
    let id = random_id(16);
    let result = sqlx::query(
        "INSERT INTO customer (id, email, password_hash, title, first_name, last_name, phone, date_of_birth, \
         preference_email, preference_post, country_iso2, accepts_marketing, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
    )
    .bind(&id)
    .bind(new.email)
    .bind(new.password_hash)
    .bind(new.title)
    .bind(new.first_name)
    .bind(new.last_name)
    .bind(new.phone)
    .bind(new.date_of_birth)
    .bind(new.preference_email as i64)
    .bind(new.preference_post as i64)
    .bind(new.country_iso2)
    .bind(new.accepts_marketing as i64)
    .bind(now)
    .execute(&mut **tx)
    .await;
    if let Err(sqlx::Error::Database(e)) = &result
        && e.is_unique_violation()
    {
        return Ok(None);
    }
    result?;
    if let Some(a) = new.address {
        address::insert_address(tx, &id, a).await?;
    }
    for f in new.custom_fields {
        sqlx::query(
            "INSERT INTO customer_form_field (customer_id, name, value, position) VALUES ($1, $2, $3, $4)",
        )
        .bind(&id)
        .bind(f.name.trim())
        .bind(&f.value)
        .bind(next_position())
        .execute(&mut **tx)
        .await?;
    }
    Ok(Some(id))
}

/// Replaces a customer's password hash.
pub async fn set_password(tx: &mut Tx, id: &str, password_hash: &str) -> ApiResult<()> {
    sqlx::query("UPDATE customer SET password_hash = $1 WHERE id = $2")
        .bind(password_hash)
        .bind(id)
        .execute(&mut **tx)
        .await?;
    Ok(())
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
#[schema(example = json!({"first_name": "Ada", "last_name": "Lovelace", "phone": "+44 20 7946 0000", "form_fields": [{"name": "Title", "value": "Ms"}]}))]
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
            let v = crate::fields::clean_text(v).map_err(|why| ApiError::field(name, why))?;
            let n = v.chars().count();
            if !(2..=100).contains(&n) {
                return Err(ApiError::field(
                    name,
                    format!("{label} must be from 2 to 100 characters"),
                ));
            }
            sets.push((name, SqlValue::Text(v)));
        }
    }
    if let Some(p) = &body.phone {
        let p = crate::fields::clean_text(p).map_err(|why| ApiError::field("phone", why))?;
        if p.len() > 40 {
            return Err(ApiError::field("phone", "Phone number is too long"));
        }
        sets.push(("phone", SqlValue::Text(p)));
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
