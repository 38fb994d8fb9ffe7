//! Registration, sign-in and sign-out. Sign-in rotates the session, takes over the browser's cart
//! and merges the guest wishlist; it is throttled per account and per address, and no answer
//! tells whether an email has an account. The registration payload and its checks are in
//! `registration`, the emailed confirmation that creates the account in `confirmation`, the
//! password-reset cycle in `reset` (each with its own routes); the customer record itself is the
//! account module's.

pub mod confirmation;
pub mod devices;
pub mod registration;
pub mod reset;

use crate::account;
use crate::cart;
use crate::error::{ApiError, ApiResult, ErrorCode, copy};
use crate::fields::normalise_email;
use crate::json::StrictJson;
use crate::session::{self, CookieJar, Shopper, end_session_cookies, start_session};
use crate::state::AppState;
use crate::store::Tx;
use crate::wishlist::{self, WishlistItemInput};
use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use registration::Register;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// The sign-in and sign-out routes (registration's are `confirmation::router`, the reset's
/// `reset::router`).
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(login))
        .routes(routes!(logout))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"email": "ada@example.com", "password": "Correct-horse-9", "guest_wishlist": []}))]
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
    pub customer: account::CustomerView,
    pub cart: Option<cart::CartView>,
}

#[derive(Serialize, ToSchema)]
pub struct Accepted {
    pub status: &'static str,
}

/// The shared second half of register and sign-in: new session, the cart taken over, wishlist
/// merge.
pub(crate) async fn sign_in(
    state: &AppState,
    shopper: &Shopper,
    tx: &mut Tx,
    customer_id: &str,
    guest_wishlist: &[WishlistItemInput],
) -> ApiResult<(CookieJar, Option<cart::CartView>)> {
    let mut jar = CookieJar::default();
    // Two sign-ins of one customer at once (two devices) would otherwise lock that customer's
    // carts in different orders; taking the customer row first serialises them.
    account::lock_customer(tx, state.db(), customer_id).await?;
    // Rotate: the session presented with this request (if any) ends here.
    if let Some(old) = &shopper.session_hash {
        session::end_session(tx, old).await?;
    }
    for c in start_session(state, tx, customer_id, shopper.secure).await? {
        jar.push(c);
    }
    if let Some(c) = devices::remember(tx, shopper, customer_id, state.now()).await? {
        jar.push(c);
    }
    let signed_in = shopper.signed_in_as(customer_id);
    let view = match cart::adopt_at_sign_in(tx, state, &signed_in).await? {
        Some(cart) => {
            jar.push(signed_in.cart_cookie_set(&cart.key, state));
            Some(cart::render(tx, state, &signed_in.market, &cart).await?)
        }
        None => None,
    };
    if !guest_wishlist.is_empty() {
        wishlist::merge_guest(tx, state, customer_id, guest_wishlist).await?;
    }
    Ok((jar, view))
}

pub(crate) fn check_guest_wishlist(state: &AppState, items: &[WishlistItemInput]) -> ApiResult<()> {
    wishlist::validate_items(&state.catalog(), items, "guest_wishlist")
}

/// Registrations of one email within the sign-in window (each sends that mailbox a message).
const REGISTRATIONS_PER_EMAIL: u32 = 5;

/// Where both ways of registering stand before they write: the email normalised, the password
/// hashed, a write transaction open, and whether the email already has an account.
pub(crate) struct Registering {
    pub(crate) tx: Tx,
    pub(crate) email: String,
    pub(crate) password_hash: String,
    pub(crate) exists: bool,
    pub(crate) now: i64,
}

/// The first half both ways of registering share: the client's throttle, then the hash, then the
/// look-up (hashing before looking makes both outcomes take the same time).
pub(crate) async fn begin_registration(
    state: &AppState,
    shopper: &Shopper,
    body: &Register,
) -> ApiResult<Registering> {
    let now = state.now();
    let cfg = state.config();
    let email = normalise_email(&body.email);
    // Per client, and per address so nobody can flood a mailbox with confirmation links; the
    // address's limit applies alike whether or not it has an account.
    for (key, limit) in [
        (
            format!("register:{}", shopper.client_key()),
            cfg.login_limit_per_ip,
        ),
        (format!("register:{email}"), REGISTRATIONS_PER_EMAIL),
    ] {
        state
            .limiter()
            .admit(&key, limit, cfg.login_window_secs, now)
            .await?;
    }
    let password_hash = state.hasher().hash(body.password.clone()).await?;
    let mut tx = state.db().write().await?;
    let exists = account::id_by_email(&mut tx, &email).await?.is_some();
    Ok(Registering {
        tx,
        email,
        password_hash,
        exists,
        now,
    })
}

/// An account made from a guest order's confirmation (a checked registration): created with
/// `address` in its address book and signed in, or `None` when the email already has one.
pub(crate) async fn register_for_order(
    state: &AppState,
    shopper: &Shopper,
    body: &Register,
    address: Option<&account::address::AddressInput>,
) -> ApiResult<(CookieJar, Option<String>)> {
    let Registering {
        mut tx,
        email,
        password_hash,
        exists,
        now,
    } = begin_registration(state, shopper, body).await?;
    if exists {
        return Ok((CookieJar::default(), None));
    }
    let customer = body.customer(&email, &password_hash, address);
    let Some(id) = account::create_customer(&mut tx, &customer, now).await? else {
        return Ok((CookieJar::default(), None));
    };
    let (jar, _) = sign_in(state, shopper, &mut tx, &id, &[]).await?;
    tx.commit().await?;
    Ok((jar, Some(id)))
}

/// Signs in: a new session, the cart merge and the guest-wishlist merge.
#[utoipa::path(post, path = "/auth/login", tag = "auth", params(("market" = Option<crate::contract::MarketCode>, Query)),
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
    let window = cfg.login_window_secs;
    // Three counters of failed sign-ins. Per account *and* client address: guessing from one
    // address stops there, and locks out only that address, never the owner elsewhere. Per
    // address: one client trying many accounts. Per account over every address, a slower cap
    // against guessing spread over many addresses: once reached it refuses sign-ins from
    // browsers the owner never signed in from, so the owner's own browsers still get in.
    let pair_key = format!("login:{email}:{}", shopper.client_key());
    let ip_key = format!("login:{}", shopper.client_key());
    let account_key = format!("login-all:{email}");
    let limiter = state.limiter();
    limiter
        .check(&pair_key, cfg.login_limit_per_account_client, now)
        .await?;
    limiter.check(&ip_key, cfg.login_limit_per_ip, now).await?;
    let (found, known_device) = {
        let mut conn = state.db().pool().acquire().await?;
        let found = account::credentials(&mut conn, &email).await?;
        let known = match &found {
            Some(c) => devices::is_known(&mut conn, &shopper, &c.id).await?,
            None => false,
        };
        (found, known)
    };
    if !known_device {
        limiter
            .check(&account_key, cfg.login_limit_per_account, now)
            .await?;
    }
    let (id, hash) = found.map_or((None, None), |c| (Some(c.id), Some(c.password_hash)));
    let ok = state.hasher().verify(body.password.clone(), hash).await?;
    let Some(id) = id.filter(|_| ok) else {
        limiter
            .hit(&[&pair_key, &ip_key, &account_key], window, now)
            .await?;
        return Err(
            ApiError::new(ErrorCode::InvalidCredentials, copy::BAD_CREDENTIALS)
                .with_field("password", copy::WRONG_PASSWORD),
        );
    };
    limiter.reset(&pair_key).await?;
    let tx = state.db().write().await?;
    signed_in_answer(&state, &shopper, tx, &id, &body.guest_wishlist).await
}

/// Signs the customer in within `tx`, commits, and answers as a sign-in does: the customer, the
/// bag they now have, and the session cookies (login and a confirmed registration alike).
pub(crate) async fn signed_in_answer(
    state: &AppState,
    shopper: &Shopper,
    mut tx: Tx,
    customer_id: &str,
    guest_wishlist: &[WishlistItemInput],
) -> ApiResult<Response> {
    let (jar, cart) = sign_in(state, shopper, &mut tx, customer_id, guest_wishlist).await?;
    let customer = account::load_customer(&mut tx, customer_id).await?;
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
#[utoipa::path(post, path = "/auth/logout", tag = "auth", params(("market" = Option<crate::contract::MarketCode>, Query)),
    request_body(content = crate::json::EmptyObject, description = "optional: no body, or `{}`"),
    responses((status = 200, body = Accepted), (status = 400, body = crate::error::ErrorBody)))]
async fn logout(
    State(state): State<AppState>,
    shopper: Shopper,
    body: axum::body::Bytes,
) -> ApiResult<Response> {
    crate::json::empty_or_empty_object(&body)?;
    let mut jar = CookieJar::default();
    for c in end_session_cookies(shopper.secure) {
        jar.push(c);
    }
    let mut tx = state.db().write().await?;
    if let Some(hash) = &shopper.session_hash {
        session::end_session(&mut tx, hash).await?;
    }
    if let Some(customer) = &shopper.customer_id {
        for c in cart::leave_at_sign_out(&mut tx, &state, &shopper, customer).await? {
            jar.push(c);
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
