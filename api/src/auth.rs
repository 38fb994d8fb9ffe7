//! Registration, sign-in and sign-out, and the password-reset cycle. Sign-in rotates the session,
//! merges the cart (§4) and the guest wishlist; sign-in is throttled per account and per address;
//! no answer tells whether an email has an account. Registration stores its §3 `address` as the
//! customer's first saved address and its `custom_fields` as extra customer form fields.

use crate::cart;
use crate::error::{ApiError, ApiResult, copy};
use crate::fields::{is_date, is_email, normalise_email};
use crate::json::StrictJson;
use crate::session::{CookieJar, Shopper, end_session_cookies, start_session};
use crate::state::AppState;
use crate::store::{Tx, next_position, random_id, token_hash};
use crate::wishlist::{self, WishlistItemInput};
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(register))
        .routes(routes!(login))
        .routes(routes!(logout))
        .routes(routes!(request_reset))
        .routes(routes!(validate_reset))
        .routes(routes!(confirm_reset))
}

pub const TITLES: &[&str] = &["Mr", "Mrs", "Miss", "Ms", "Mx", "Dr"];
/// Longest password accepted: argon2 handles any length, but hashing megabytes is a DoS lever.
pub const MAX_PASSWORD: usize = 256;
/// Form-field names the customer record already uses: the four profile fields and the stored
/// cart-id key. Registration's `custom_fields` may not take them (compared ignoring case).
pub const RESERVED_FORM_FIELDS: &[&str] = &[
    "Title",
    "Date of Birth",
    "Preference Email",
    "Preference Post",
    "Cart ID",
];
/// Most `custom_fields` one registration may carry, and the longest name and value.
pub const MAX_CUSTOM_FIELDS: usize = 20;
pub const MAX_CUSTOM_NAME: usize = 50;
pub const MAX_CUSTOM_VALUE: usize = 255;

#[derive(Deserialize, ToSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct PostalAddress {
    #[serde(default, rename = "addressLine1")]
    pub address_line1: String,
    #[serde(default, rename = "addressLine2")]
    pub address_line2: String,
    #[serde(default)]
    pub city: String,
    #[serde(default)]
    pub county: String,
    #[serde(default, rename = "postCode")]
    pub post_code: String,
    #[serde(default)]
    pub country: String,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NameValue {
    pub name: String,
    pub value: String,
}

/// The spec's registration payload (§3).
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Register {
    #[serde(default)]
    pub email: String,
    #[serde(default)]
    pub password: String,
    #[serde(default)]
    pub first_name: String,
    #[serde(default)]
    pub last_name: String,
    #[serde(default)]
    pub title: String,
    #[serde(default)]
    pub phone: String,
    #[serde(default, rename = "dateOfBirth")]
    pub date_of_birth: String,
    #[serde(default, rename = "preferenceEmail")]
    pub preference_email: bool,
    #[serde(default, rename = "preferencePost")]
    pub preference_post: bool,
    #[serde(default, rename = "countryIso2")]
    pub country_iso2: String,
    #[serde(default)]
    pub custom_fields: Vec<NameValue>,
    #[serde(default)]
    pub accepts_product_review_abandoned_cart_emails: bool,
    #[serde(default, rename = "addressFinder")]
    #[schema(value_type = Object)]
    pub address_finder: serde_json::Value,
    #[serde(default)]
    pub address: Option<PostalAddress>,
    /// The browser-stored guest wishlist, merged at the sign-in that follows registration.
    #[serde(default)]
    pub guest_wishlist: Vec<WishlistItemInput>,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Login {
    #[serde(default)]
    pub email: String,
    #[serde(default)]
    pub password: String,
    /// The browser-stored guest wishlist, merged into the customer's first wishlist.
    #[serde(default)]
    pub guest_wishlist: Vec<WishlistItemInput>,
}

#[derive(Serialize, ToSchema)]
pub struct LoginResult {
    pub is_valid: bool,
    pub customer: crate::account::CustomerView,
    pub cart: Option<cart::CartView>,
}

#[derive(Serialize, ToSchema)]
pub struct Accepted {
    pub status: &'static str,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ResetRequest {
    #[serde(default)]
    pub email: String,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TokenOnly {
    #[serde(default)]
    pub token: String,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ResetConfirm {
    #[serde(default)]
    pub token: String,
    #[serde(default)]
    pub password: String,
}

#[derive(Serialize, ToSchema)]
pub struct TokenValidity {
    pub is_valid: bool,
}

/// §5: at least 7 characters, with a letter and a number.
pub fn password_problem(p: &str) -> Option<&'static str> {
    if p.chars().count() < 7
        || !p.chars().any(char::is_alphabetic)
        || !p.chars().any(|c| c.is_ascii_digit())
    {
        Some("must be at least 7 characters and include a letter and a number")
    } else if p.len() > MAX_PASSWORD {
        Some("is too long")
    } else {
        None
    }
}

pub(crate) fn validate_register(r: &Register) -> ApiResult<()> {
    let mut fields = BTreeMap::new();
    if !is_email(r.email.trim()) {
        fields.insert("email".into(), "Please enter a valid email address".into());
    }
    if let Some(p) = password_problem(&r.password) {
        fields.insert("password".into(), format!("Password {p}"));
    }
    for (name, value, label) in [
        ("first_name", &r.first_name, "First name"),
        ("last_name", &r.last_name, "Last name"),
    ] {
        let n = value.trim().chars().count();
        if n < 2 {
            fields.insert(
                name.into(),
                format!("{label} must be at least 2 characters"),
            );
        } else if n > 100 {
            fields.insert(
                name.into(),
                format!("{label} must be at most 100 characters"),
            );
        }
    }
    if !TITLES.contains(&r.title.as_str()) {
        fields.insert("title".into(), "Please select a title".into());
    }
    if r.phone.len() > 40 {
        fields.insert("phone".into(), "Phone number is too long".into());
    }
    if !r.country_iso2.is_empty()
        && (r.country_iso2.len() != 2 || !r.country_iso2.chars().all(|c| c.is_ascii_uppercase()))
    {
        fields.insert(
            "countryIso2".into(),
            "must be a two-letter country code".into(),
        );
    }
    if !r.date_of_birth.is_empty() && !is_date(&r.date_of_birth) {
        fields.insert("dateOfBirth".into(), "must be a date (YYYY-MM-DD)".into());
    }
    check_custom_fields(&r.custom_fields, &mut fields);
    if let Some(a) = &r.address {
        registration_address(a, r, &mut fields);
    }
    if fields.is_empty() {
        Ok(())
    } else {
        Err(ApiError::fields(
            "Please correct the highlighted fields",
            fields,
        ))
    }
}

/// Count, name and value lengths, no reserved or repeated name.
fn check_custom_fields(custom: &[NameValue], fields: &mut BTreeMap<String, String>) {
    if custom.len() > MAX_CUSTOM_FIELDS {
        fields.insert(
            "custom_fields".into(),
            format!("must hold at most {MAX_CUSTOM_FIELDS} fields"),
        );
        return;
    }
    let mut seen: Vec<String> = Vec::new();
    for (i, f) in custom.iter().enumerate() {
        let name = f.name.trim();
        let key = name.to_lowercase();
        let problem = if name.is_empty() {
            Some("Please enter a field name".to_string())
        } else if name.chars().count() > MAX_CUSTOM_NAME {
            Some(format!("must be at most {MAX_CUSTOM_NAME} characters"))
        } else if RESERVED_FORM_FIELDS.iter().any(|r| r.to_lowercase() == key) {
            Some("is a reserved form field name".to_string())
        } else if seen.contains(&key) {
            Some("is given more than once".to_string())
        } else {
            None
        };
        if let Some(p) = problem {
            fields.insert(format!("custom_fields[{i}].name"), p);
        }
        if f.value.chars().count() > MAX_CUSTOM_VALUE {
            fields.insert(
                format!("custom_fields[{i}].value"),
                format!("must be at most {MAX_CUSTOM_VALUE} characters"),
            );
        }
        seen.push(key);
    }
}

/// The registration address as an address-book entry: addressLine1 → street name, addressLine2
/// → house/apartment number, county → state/province, postCode → zip, country → country code,
/// with the registrant's names and phone. Required (§5): street name, city, zip, country; each
/// missing one is reported under `address.<field>` with its own message.
fn registration_address(
    a: &PostalAddress,
    r: &Register,
    fields: &mut BTreeMap<String, String>,
) -> crate::account::AddressInput {
    let mut country = a.country.trim().to_uppercase();
    if country == "UK" {
        country = "GB".into();
    }
    let out = crate::account::AddressInput {
        first_name: r.first_name.trim().to_string(),
        last_name: r.last_name.trim().to_string(),
        street_name: a.address_line1.trim().to_string(),
        house_number: a.address_line2.trim().to_string(),
        city: a.city.trim().to_string(),
        state_or_province: a.county.trim().to_string(),
        postal_code: a.post_code.trim().to_string(),
        country_code: country,
        phone: r.phone.trim().to_string(),
    };
    let required = [
        (
            "address.addressLine1",
            &out.street_name,
            "Please enter a street name",
        ),
        ("address.city", &out.city, "Please enter a city"),
        (
            "address.postCode",
            &out.postal_code,
            "Please enter a zip code",
        ),
        (
            "address.country",
            &out.country_code,
            "Please select a country",
        ),
    ];
    for (name, value, message) in required {
        if value.is_empty() {
            fields.insert(name.into(), message.into());
        }
    }
    for (name, value) in [
        ("address.addressLine1", &out.street_name),
        ("address.addressLine2", &out.house_number),
        ("address.city", &out.city),
        ("address.county", &out.state_or_province),
        ("address.postCode", &out.postal_code),
    ] {
        if value.chars().count() > 100 {
            fields.insert(name.into(), "is too long".into());
        }
    }
    if !out.country_code.is_empty() {
        match crate::account::COUNTRIES
            .iter()
            .find(|(code, _, _)| *code == out.country_code)
        {
            None => {
                fields.insert(
                    "address.country".into(),
                    "We do not deliver to this country".into(),
                );
            }
            Some((_, _, states))
                if !states.is_empty()
                    && !out.state_or_province.is_empty()
                    && !states.contains(&out.state_or_province.as_str()) =>
            {
                fields.insert(
                    "address.county".into(),
                    format!("Please choose one of: {}", states.join(", ")),
                );
            }
            _ => {}
        }
    }
    out
}

/// The shared second half of register and sign-in: new session, cart merge, wishlist merge.
pub(crate) async fn sign_in(
    state: &AppState,
    shopper: &Shopper,
    tx: &mut Tx,
    customer_id: &str,
    guest_wishlist: &[WishlistItemInput],
) -> ApiResult<(CookieJar, Option<cart::CartView>)> {
    let mut jar = CookieJar::default();
    // Two sign-ins of one customer at once (two devices) would otherwise lock that customer's
    // carts in different orders; taking the customer row first serialises them (PostgreSQL;
    // SQLite's BEGIN IMMEDIATE already has).
    let sql = format!(
        "SELECT id FROM customer WHERE id = $1{}",
        state.db().for_update()
    );
    sqlx::query_scalar::<_, String>(sqlx::AssertSqlSafe(sql))
        .bind(customer_id)
        .fetch_one(&mut **tx)
        .await?;
    // Rotate: the session presented with this request (if any) ends here.
    if let Some(old) = &shopper.session_hash {
        sqlx::query("DELETE FROM session WHERE id_hash = $1")
            .bind(old)
            .execute(&mut **tx)
            .await?;
    }
    for c in start_session(state, tx, customer_id, shopper.secure).await? {
        jar.push(c);
    }
    // The cart at sign-in (§4): the saved customer cart replaces the current one unless the
    // current one has items, which are then merged into the saved cart.
    let market = shopper.market;
    let signed_in = Shopper {
        market,
        customer_id: Some(customer_id.to_string()),
        session_hash: None,
        headers: shopper.headers.clone(),
        secure: shopper.secure,
        ip: shopper.ip,
    };
    let current = match shopper.cart_cookie().ok().flatten() {
        Some(id) => cart::load_cart(tx, state.db(), &signed_in, &id, true).await?,
        None => None,
    };
    let sql = format!(
        "SELECT id FROM cart WHERE customer_id = $1 AND market = $2 ORDER BY updated_at DESC, id{}",
        state.db().for_update()
    );
    let saved: Option<String> = sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
        .bind(customer_id)
        .bind(market.code)
        .fetch_all(&mut **tx)
        .await?
        .into_iter()
        .find(|id: &String| current.as_ref().is_none_or(|c| &c.id != id));
    let result = match (current, saved) {
        (Some(current), Some(saved)) => {
            if cart::item_count(tx, &current.id).await? > 0 {
                cart::merge_into(tx, state, &market, &current.id, &saved).await?;
            } else {
                cart::delete(tx, &current.id).await?;
            }
            Some(saved)
        }
        (Some(current), None) => {
            sqlx::query("UPDATE cart SET customer_id = $1 WHERE id = $2")
                .bind(customer_id)
                .bind(&current.id)
                .execute(&mut **tx)
                .await?;
            Some(current.id)
        }
        (None, saved) => saved,
    };
    let view = match result {
        Some(id) => {
            jar.push(signed_in.cart_cookie_set(&id, state));
            let row = cart::CartRow {
                id,
                customer_id: Some(customer_id.to_string()),
            };
            Some(cart::render(tx, state, &market, &row).await?)
        }
        None => None,
    };
    if !guest_wishlist.is_empty() {
        wishlist::merge_guest(tx, state, customer_id, guest_wishlist).await?;
    }
    Ok((jar, view))
}

fn check_guest_wishlist(state: &AppState, items: &[WishlistItemInput]) -> ApiResult<()> {
    wishlist::validate_items(&state.catalog(), items, "guest_wishlist")
}

/// Creates an account and signs in. An email that already has an account gets the same answer
/// (no enumeration): the owner is emailed instead, and no session is started.
#[utoipa::path(post, path = "/auth/register", tag = "auth", params(("market" = Option<String>, Query)),
    request_body = Register,
    responses((status = 201, body = Accepted), (status = 400, body = crate::error::ErrorBody),
              (status = 429, body = crate::error::ErrorBody)))]
async fn register(
    State(state): State<AppState>,
    shopper: Shopper,
    StrictJson(body): StrictJson<Register>,
) -> ApiResult<Response> {
    validate_register(&body)?;
    check_guest_wishlist(&state, &body.guest_wishlist)?;
    let now = state.now();
    let ip_key = format!("register:{}", shopper.client_key());
    let cfg = state.config();
    state
        .limiter()
        .check(&ip_key, cfg.login_limit_per_ip, cfg.login_window_secs, now)
        .map_err(ApiError::too_many)?;
    state.limiter().hit(&ip_key, cfg.login_window_secs, now);
    let email = normalise_email(&body.email);
    // Hash before looking: both outcomes then take the same time.
    let hash = state.hasher().hash(body.password.clone()).await?;
    let mut tx = state.db().write().await?;
    let exists: Option<String> = sqlx::query_scalar("SELECT id FROM customer WHERE email = $1")
        .bind(&email)
        .fetch_optional(&mut *tx)
        .await?;
    let accepted = Accepted {
        status: "registered",
    };
    if exists.is_some() {
        crate::mail::queue_mail(
            &mut tx,
            &email,
            "Someone tried to register with your email",
            &format!(
                "Somebody tried to create an account with this address, which already has one.\n\
                 If it was you, sign in or reset your password at {}/forgot-password",
                cfg.public_base_url
            ),
            "duplicate_registration",
            now,
        )
        .await?;
        tx.commit().await?;
        return Ok((StatusCode::CREATED, Json(accepted)).into_response());
    }
    let Some(id) = insert_customer(&mut tx, &email, &hash, &body, now).await? else {
        // A concurrent registration of the same email won: answer as for any existing email.
        return Ok((StatusCode::CREATED, Json(accepted)).into_response());
    };
    let (jar, _) = sign_in(&state, &shopper, &mut tx, &id, &body.guest_wishlist).await?;
    tx.commit().await?;
    Ok((StatusCode::CREATED, jar.into_headers(), Json(accepted)).into_response())
}

impl Register {
    /// The registration a guest makes from an order confirmation (the checkout's email).
    pub fn for_order(
        email: &str,
        password: &str,
        title: &str,
        first_name: &str,
        last_name: &str,
        phone: &str,
        preference_email: bool,
    ) -> Register {
        Register {
            email: email.to_string(),
            password: password.to_string(),
            first_name: first_name.to_string(),
            last_name: last_name.to_string(),
            title: title.to_string(),
            phone: phone.to_string(),
            date_of_birth: String::new(),
            preference_email,
            preference_post: false,
            country_iso2: String::new(),
            custom_fields: Vec::new(),
            accepts_product_review_abandoned_cart_emails: false,
            address_finder: serde_json::Value::Null,
            address: None,
            guest_wishlist: Vec::new(),
        }
    }
}

/// An account made from a guest order's confirmation (a checked registration): created with
/// `address` in its address book and signed in, or `None` when the email already has one.
pub(crate) async fn register_for_order(
    state: &AppState,
    shopper: &Shopper,
    body: &Register,
    address: Option<&crate::account::AddressInput>,
) -> ApiResult<(CookieJar, Option<String>)> {
    let now = state.now();
    let ip_key = format!("register:{}", shopper.client_key());
    let cfg = state.config();
    state
        .limiter()
        .check(&ip_key, cfg.login_limit_per_ip, cfg.login_window_secs, now)
        .map_err(ApiError::too_many)?;
    state.limiter().hit(&ip_key, cfg.login_window_secs, now);
    let email = normalise_email(&body.email);
    let hash = state.hasher().hash(body.password.clone()).await?;
    let mut tx = state.db().write().await?;
    let exists: Option<String> = sqlx::query_scalar("SELECT id FROM customer WHERE email = $1")
        .bind(&email)
        .fetch_optional(&mut *tx)
        .await?;
    if exists.is_some() {
        return Ok((CookieJar::default(), None));
    }
    let Some(id) = insert_customer(&mut tx, &email, &hash, body, now).await? else {
        return Ok((CookieJar::default(), None));
    };
    if let Some(a) = address {
        crate::account::insert_address(&mut tx, &id, a).await?;
    }
    let (jar, _) = sign_in(state, shopper, &mut tx, &id, &[]).await?;
    tx.commit().await?;
    Ok((jar, Some(id)))
}

/// Writes a new customer from a checked registration (with its address and custom fields);
/// `None` when the email already has an account (a concurrent registration won).
pub(crate) async fn insert_customer(
    tx: &mut Tx,
    email: &str,
    hash: &str,
    body: &Register,
    now: i64,
) -> ApiResult<Option<String>> {
    let id = random_id(16);
    let result = sqlx::query(
        "INSERT INTO customer (id, email, password_hash, title, first_name, last_name, phone, date_of_birth, \
         preference_email, preference_post, country_iso2, accepts_marketing, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
    )
    .bind(&id)
    .bind(email)
    .bind(hash)
    .bind(&body.title)
    .bind(body.first_name.trim())
    .bind(body.last_name.trim())
    .bind(body.phone.trim())
    .bind(&body.date_of_birth)
    .bind(body.preference_email as i64)
    .bind(body.preference_post as i64)
    .bind(&body.country_iso2)
    .bind(body.accepts_product_review_abandoned_cart_emails as i64)
    .bind(now)
    .execute(&mut **tx)
    .await;
    if let Err(sqlx::Error::Database(e)) = &result
        && e.is_unique_violation()
    {
        return Ok(None);
    }
    result?;
    if let Some(a) = &body.address {
        // Already validated with the rest of the payload.
        let a = registration_address(a, body, &mut BTreeMap::new());
        crate::account::insert_address(tx, &id, &a).await?;
    }
    for f in &body.custom_fields {
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

/// Signs in: a new session, the cart merge and the guest-wishlist merge.
#[utoipa::path(post, path = "/auth/login", tag = "auth", params(("market" = Option<String>, Query)),
    request_body = Login,
    responses((status = 200, body = LoginResult), (status = 400, body = crate::error::ErrorBody),
              (status = 401, body = crate::error::ErrorBody), (status = 429, body = crate::error::ErrorBody)))]
async fn login(
    State(state): State<AppState>,
    shopper: Shopper,
    StrictJson(body): StrictJson<Login>,
) -> ApiResult<Response> {
    if body.email.trim().is_empty() || body.password.is_empty() {
        let mut fields = BTreeMap::new();
        for (name, empty) in [
            ("email", body.email.trim().is_empty()),
            ("password", body.password.is_empty()),
        ] {
            if empty {
                fields.insert(name.to_string(), copy::MISSING_CREDENTIALS.to_string());
            }
        }
        return Err(ApiError::fields(copy::MISSING_CREDENTIALS, fields));
    }
    check_guest_wishlist(&state, &body.guest_wishlist)?;
    let email = normalise_email(&body.email);
    let (now, cfg) = (state.now(), state.config());
    let account_key = format!("login:{email}");
    let ip_key = format!("login:{}", shopper.client_key());
    let limiter = state.limiter();
    limiter
        .check(
            &account_key,
            cfg.login_limit_per_account,
            cfg.login_window_secs,
            now,
        )
        .and_then(|_| limiter.check(&ip_key, cfg.login_limit_per_ip, cfg.login_window_secs, now))
        .map_err(ApiError::too_many)?;
    let found: Option<(String, String)> =
        sqlx::query_as("SELECT id, password_hash FROM customer WHERE email = $1")
            .bind(&email)
            .fetch_optional(state.db().pool())
            .await?;
    let (id, hash) = found.map_or((None, None), |(id, h)| (Some(id), Some(h)));
    let ok = state.hasher().verify(body.password.clone(), hash).await?;
    let Some(id) = id.filter(|_| ok) else {
        limiter.hit(&account_key, cfg.login_window_secs, now);
        limiter.hit(&ip_key, cfg.login_window_secs, now);
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "invalid_credentials",
            copy::BAD_CREDENTIALS,
        )
        .with_field("password", copy::WRONG_PASSWORD));
    };
    limiter.reset(&account_key);
    let mut tx = state.db().write().await?;
    let (jar, cart) = sign_in(&state, &shopper, &mut tx, &id, &body.guest_wishlist).await?;
    let customer = crate::account::load_customer(&mut tx, &id).await?;
    tx.commit().await?;
    Ok((
        StatusCode::OK,
        jar.into_headers(),
        Json(LoginResult {
            is_valid: true,
            customer,
            cart,
        }),
    )
        .into_response())
}

/// Signs out: the session ends on the server; a cart tied to the customer is replaced by a fresh
/// one, so the next shopper on this browser does not see it.
#[utoipa::path(post, path = "/auth/logout", tag = "auth", params(("market" = Option<String>, Query)),
    responses((status = 200, body = Accepted)))]
async fn logout(State(state): State<AppState>, shopper: Shopper) -> ApiResult<Response> {
    let mut jar = CookieJar::default();
    for c in end_session_cookies(shopper.secure) {
        jar.push(c);
    }
    let mut tx = state.db().write().await?;
    if let Some(hash) = &shopper.session_hash {
        sqlx::query("DELETE FROM session WHERE id_hash = $1")
            .bind(hash)
            .execute(&mut *tx)
            .await?;
    }
    if let Some(customer) = &shopper.customer_id {
        for market in domain::market::MARKETS {
            let name = crate::session::cart_cookie_name(&market);
            let Some(cart_id) = crate::session::cookie(&shopper.headers, &name) else {
                continue;
            };
            let owner: Option<Option<String>> =
                sqlx::query_scalar("SELECT customer_id FROM cart WHERE id = $1")
                    .bind(cart_id)
                    .fetch_optional(&mut *tx)
                    .await?;
            if owner.flatten().as_deref() == Some(customer.as_str()) {
                if market == shopper.market {
                    let fresh = cart::create(&mut tx, &market, None, state.now()).await?;
                    jar.push(shopper.cart_cookie_set(&fresh.id, &state));
                } else {
                    jar.push(shopper.cart_cookie_clear(&market));
                }
            }
        }
    }
    tx.commit().await?;
    Ok((
        StatusCode::OK,
        jar.into_headers(),
        Json(Accepted {
            status: "signed_out",
        }),
    )
        .into_response())
}

const RESET_ACCEPTED: Accepted = Accepted {
    status: "If an account exists for this email, we have sent a link to reset the password.",
};

/// Requests a reset link. The answer is the same whether or not the email has an account.
#[utoipa::path(post, path = "/auth/password-reset", tag = "auth", request_body = ResetRequest,
    responses((status = 202, body = Accepted), (status = 400, body = crate::error::ErrorBody),
              (status = 429, body = crate::error::ErrorBody)))]
async fn request_reset(
    State(state): State<AppState>,
    shopper: Shopper,
    StrictJson(body): StrictJson<ResetRequest>,
) -> ApiResult<Response> {
    let email = normalise_email(&body.email);
    if !is_email(&email) {
        return Err(ApiError::field(
            "email",
            "Please enter a valid email address",
        ));
    }
    let (now, cfg) = (state.now(), state.config());
    // Limits mail to one address and requests from one client; the same for unknown emails.
    for (key, limit) in [
        (format!("reset:{email}"), 3),
        (
            format!("reset:{}", shopper.client_key()),
            cfg.login_limit_per_ip,
        ),
    ] {
        state
            .limiter()
            .check(&key, limit, 3600, now)
            .map_err(ApiError::too_many)?;
        state.limiter().hit(&key, 3600, now);
    }
    let mut tx = state.db().write().await?;
    let customer: Option<String> = sqlx::query_scalar("SELECT id FROM customer WHERE email = $1")
        .bind(&email)
        .fetch_optional(&mut *tx)
        .await?;
    if let Some(customer) = customer {
        let token = random_id(32);
        sqlx::query("INSERT INTO password_reset (token_hash, customer_id, created_at, expires_at) VALUES ($1, $2, $3, $4)")
            .bind(token_hash(&token))
            .bind(&customer)
            .bind(now)
            .bind(now + cfg.reset_token_ttl)
            .execute(&mut *tx)
            .await?;
        let link = format!("{}/updatePassword?token={token}", cfg.public_base_url);
        crate::mail::queue_mail(
            &mut tx,
            &email,
            "Reset your password",
            &format!("Use this link to choose a new password. It works once and expires in {} minutes.\n{link}", cfg.reset_token_ttl / 60),
            "password_reset",
            now,
        )
        .await?;
    }
    tx.commit().await?;
    Ok((StatusCode::ACCEPTED, Json(RESET_ACCEPTED)).into_response())
}

fn invalid_link() -> ApiError {
    ApiError::new(
        StatusCode::BAD_REQUEST,
        "invalid_token",
        copy::INVALID_RESET_LINK,
    )
    .with_field("token", copy::INVALID_RESET_LINK)
}

fn check_token_shape(token: &str) -> ApiResult<()> {
    let ok = token.len() == 64
        && token
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
    if ok { Ok(()) } else { Err(invalid_link()) }
}

/// Tells whether a reset link is still usable.
#[utoipa::path(post, path = "/auth/password-reset/validate", tag = "auth", request_body = TokenOnly,
    responses((status = 200, body = TokenValidity), (status = 400, body = crate::error::ErrorBody)))]
async fn validate_reset(
    State(state): State<AppState>,
    StrictJson(body): StrictJson<TokenOnly>,
) -> ApiResult<Json<TokenValidity>> {
    check_token_shape(&body.token)?;
    let live: Option<String> = sqlx::query_scalar(
        "SELECT customer_id FROM password_reset WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2",
    )
    .bind(token_hash(&body.token))
    .bind(state.now())
    .fetch_optional(state.db().pool())
    .await?;
    live.map(|_| Json(TokenValidity { is_valid: true }))
        .ok_or_else(invalid_link)
}

/// Sets a new password with a reset link. The link is used up, and every session of the
/// customer ends (including any an attacker may hold).
#[utoipa::path(post, path = "/auth/password-reset/confirm", tag = "auth", request_body = ResetConfirm,
    responses((status = 200, body = TokenValidity), (status = 400, body = crate::error::ErrorBody)))]
async fn confirm_reset(
    State(state): State<AppState>,
    StrictJson(body): StrictJson<ResetConfirm>,
) -> ApiResult<Json<TokenValidity>> {
    check_token_shape(&body.token)?;
    if let Some(p) = password_problem(&body.password) {
        return Err(ApiError::field("password", format!("Password {p}")));
    }
    let hash = state.hasher().hash(body.password.clone()).await?;
    let now = state.now();
    let mut tx = state.db().write().await?;
    // Claiming the token and checking it is one statement, so two uses cannot both succeed.
    let claimed = sqlx::query(
        "UPDATE password_reset SET used_at = $1 WHERE token_hash = $2 AND used_at IS NULL AND expires_at > $1",
    )
    .bind(now)
    .bind(token_hash(&body.token))
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if claimed != 1 {
        return Err(invalid_link());
    }
    let customer: String =
        sqlx::query_scalar("SELECT customer_id FROM password_reset WHERE token_hash = $1")
            .bind(token_hash(&body.token))
            .fetch_one(&mut *tx)
            .await?;
    sqlx::query("UPDATE customer SET password_hash = $1 WHERE id = $2")
        .bind(&hash)
        .bind(&customer)
        .execute(&mut *tx)
        .await?;
    sqlx::query("DELETE FROM session WHERE customer_id = $1")
        .bind(&customer)
        .execute(&mut *tx)
        .await?;
    // Other outstanding links die with the old password.
    sqlx::query(
        "UPDATE password_reset SET used_at = $1 WHERE customer_id = $2 AND used_at IS NULL",
    )
    .bind(now)
    .bind(&customer)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(Json(TokenValidity { is_valid: true }))
}

/// The janitor's part: deletes reset links that were used or have expired; answers how many.
pub async fn purge_spent_resets(tx: &mut Tx, now: i64) -> ApiResult<u64> {
    Ok(
        sqlx::query("DELETE FROM password_reset WHERE used_at IS NOT NULL OR expires_at <= $1")
            .bind(now)
            .execute(&mut **tx)
            .await?
            .rows_affected(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn password_rule() {
        assert!(password_problem("abc1234").is_none());
        assert!(password_problem("abc123").is_some());
        assert!(password_problem("abcdefgh").is_some());
        assert!(password_problem("12345678").is_some());
    }
}
