//! Cookies and who is asking: the server-side session (a random 128-bit id in an HttpOnly cookie,
//! only its hash stored), the UI hint cookie `user-authenticated`, the per-market cart cookies, the
//! `market` query parameter and the client's throttle key. The only writer of `session`: sessions
//! start, end and expire here.

use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use crate::store::{Tx, random_id, token_hash};
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, header};
use domain::market::{MARKETS, Market, UK};

/// Session cookie. The `__Host-` prefix would be stronger but browsers drop it without `Secure`,
/// which plain-http localhost development does not have; Path=/ and no Domain give the same scope.
pub const SESSION_COOKIE: &str = "sf_session";
/// The spec's non-HttpOnly signed-in flag: a hint for the UI, never trusted by the server.
pub const AUTH_FLAG_COOKIE: &str = "user-authenticated";
/// Seven days, the spec's sign-in cookie lifetime; sessions expire server-side at the same time.
pub const SESSION_MAX_AGE: i64 = 604_800;

/// The cart cookie of a market. The spec's name 'Cart ID' contains a space, which is not a valid
/// cookie-name token (RFC 6265 §4.1.1), so the cart lives in `sf_cart_uk` / `sf_cart_us` /
/// `sf_cart_eu`: one per market, because a cart has the market's currency.
pub fn cart_cookie_name(market: &Market) -> String {
    format!("sf_cart_{}", market.code)
}

/// Every value of cookie `name` in the request's `Cookie` headers.
pub fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.trim_matches('"'))
}

/// Ids we hand out are 32 lowercase hex characters (128 random bits).
pub fn is_token(value: &str) -> bool {
    value.len() == 32
        && value
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// Whether cookies get `Secure`: always, except when the request came to plain-http localhost,
/// where browsers would drop a Secure cookie and development would break.
pub fn secure_cookies(state: &AppState, headers: &HeaderMap) -> bool {
    if let Some(forced) = state.config().cookie_secure {
        return forced;
    }
    let host = headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let hostname = if host.starts_with('[') {
        host.split(']')
            .next()
            .map(|h| format!("{h}]"))
            .unwrap_or_default()
    } else {
        host.split(':').next().unwrap_or("").to_string()
    };
    let local = matches!(hostname.as_str(), "localhost" | "127.0.0.1" | "[::1]");
    let https = headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|p| p.eq_ignore_ascii_case("https"));
    !local || https
}

/// Builds one `Set-Cookie` value. `max_age` 0 deletes the cookie.
pub fn set_cookie(
    name: &str,
    value: &str,
    max_age: i64,
    http_only: bool,
    secure: bool,
) -> HeaderValue {
    let mut c = format!("{name}={value}; Path=/; Max-Age={max_age}; SameSite=Lax");
    if http_only {
        c.push_str("; HttpOnly");
    }
    if secure {
        c.push_str("; Secure");
    }
    HeaderValue::from_str(&c).expect("cookie names and values are ASCII tokens")
}

/// Cookies a handler wants set, appended to its response.
#[derive(Default)]
pub struct CookieJar {
    pub cookies: Vec<HeaderValue>,
}

impl CookieJar {
    pub fn push(&mut self, v: HeaderValue) {
        self.cookies.push(v);
    }

    pub fn into_headers(
        self,
    ) -> axum::response::AppendHeaders<Vec<(header::HeaderName, HeaderValue)>> {
        axum::response::AppendHeaders(
            self.cookies
                .into_iter()
                .map(|v| (header::SET_COOKIE, v))
                .collect(),
        )
    }
}

/// The request's view of the shopper: market, signed-in customer (if any), and cookie facts.
pub struct Shopper {
    pub market: Market,
    pub customer_id: Option<String>,
    /// Hash of the session id, when a live session was presented.
    pub session_hash: Option<String>,
    pub headers: HeaderMap,
    pub secure: bool,
    /// The client address, for per-IP throttling (absent under `oneshot` tests).
    pub ip: Option<std::net::IpAddr>,
}

impl Shopper {
    /// The signed-in customer, or 401.
    pub fn customer(&self) -> ApiResult<&str> {
        self.customer_id
            .as_deref()
            .ok_or_else(ApiError::unauthorized)
    }

    /// The cart id from this market's cart cookie. A cookie we could not have issued is a client
    /// error, not a missing cart.
    pub fn cart_cookie(&self) -> ApiResult<Option<String>> {
        let name = cart_cookie_name(&self.market);
        match cookie(&self.headers, &name) {
            None | Some("") => Ok(None),
            Some(v) if is_token(v) => Ok(Some(v.to_string())),
            Some(_) => Err(ApiError::field(
                format!("cookie:{name}"),
                "is not a cart key issued by this shop",
            )),
        }
    }

    /// Sets the cart cookie to the cart's secret key (never its public id).
    pub fn cart_cookie_set(&self, cart_key: &str, state: &AppState) -> HeaderValue {
        set_cookie(
            &cart_cookie_name(&self.market),
            cart_key,
            state.config().cart_cookie_max_age,
            true,
            self.secure,
        )
    }

    pub fn cart_cookie_clear(&self, market: &Market) -> HeaderValue {
        set_cookie(&cart_cookie_name(market), "", 0, true, self.secure)
    }

    /// The same browser, signed in as `customer_id` (the session it presented has just ended).
    pub fn signed_in_as(&self, customer_id: &str) -> Shopper {
        Shopper {
            market: self.market,
            customer_id: Some(customer_id.to_string()),
            session_hash: None,
            headers: self.headers.clone(),
            secure: self.secure,
            ip: self.ip,
        }
    }

    /// The throttle key of the client's address (`ip:unknown` when the server was not told it).
    pub fn client_key(&self) -> String {
        format!(
            "ip:{}",
            self.ip
                .map_or_else(|| "unknown".into(), |ip| ip.to_string())
        )
    }
}

/// The cookie that marks the browser a guest placed an order from: its hash is stored with the
/// order, so only that browser (or the signed-in customer) sees the confirmation.
pub const GUEST_COOKIE: &str = "sf_guest";
/// The guest cookie lives a year: long enough to open the confirmation link again.
pub const GUEST_COOKIE_MAX_AGE: i64 = 365 * 24 * 3600;

impl Shopper {
    /// The hash of this browser's guest cookie, when it has one we could have issued.
    pub fn guest_hash(&self) -> Option<String> {
        cookie(&self.headers, GUEST_COOKIE)
            .filter(|v| is_token(v))
            .map(token_hash)
    }

    /// The guest owner hash for a new order: the browser's cookie, or a new one (returned with
    /// the `Set-Cookie` to send).
    pub fn guest_owner(&self) -> (String, Option<HeaderValue>) {
        match self.guest_hash() {
            Some(hash) => (hash, None),
            None => {
                let token = random_id(16);
                let set = set_cookie(
                    GUEST_COOKIE,
                    &token,
                    GUEST_COOKIE_MAX_AGE,
                    true,
                    self.secure,
                );
                (token_hash(&token), Some(set))
            }
        }
    }
}

/// Reads `?market=uk|us|eu` (UK when absent; anything else is a 400 naming `market`).
pub fn market_from_query(query: Option<&str>) -> ApiResult<Market> {
    let value = query
        .unwrap_or("")
        .split('&')
        .filter_map(|kv| kv.split_once('='))
        .find(|(k, _)| *k == "market")
        .map(|(_, v)| v);
    match value {
        None => Ok(UK),
        Some(code) => MARKETS
            .iter()
            .copied()
            .find(|m| m.code == code)
            .ok_or_else(|| ApiError::field("market", "must be one of uk, us, eu")),
    }
}

impl FromRequestParts<AppState> for Shopper {
    type Rejection = ApiError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let market = market_from_query(parts.uri.query())?;
        let secure = secure_cookies(state, &parts.headers);
        let ip = parts
            .extensions
            .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
            .map(|c| c.0.ip());
        let mut shopper = Shopper {
            market,
            customer_id: None,
            session_hash: None,
            headers: parts.headers.clone(),
            secure,
            ip,
        };
        // A malformed or unknown session cookie means "signed out", never an error: the cookie
        // may simply have outlived its session.
        if let Some(sid) = cookie(&parts.headers, SESSION_COOKIE).filter(|v| is_token(v)) {
            let hash = token_hash(sid);
            let customer: Option<String> = sqlx::query_scalar(
                "SELECT customer_id FROM session WHERE id_hash = $1 AND expires_at > $2",
            )
            .bind(&hash)
            .bind(state.now())
            .fetch_optional(state.db().pool())
            .await?;
            if customer.is_some() {
                shopper.customer_id = customer;
                shopper.session_hash = Some(hash);
            }
        }
        Ok(shopper)
    }
}

/// Starts a session for `customer_id` and returns the cookies that carry it. Always a fresh id:
/// whatever id the browser had before sign-in is never promoted (session fixation).
pub async fn start_session(
    state: &AppState,
    conn: &mut sqlx::AnyConnection,
    customer_id: &str,
    secure: bool,
) -> ApiResult<Vec<HeaderValue>> {
    let sid = random_id(16);
    let now = state.now();
    sqlx::query("INSERT INTO session (id_hash, customer_id, created_at, expires_at) VALUES ($1, $2, $3, $4)")
        .bind(token_hash(&sid))
        .bind(customer_id)
        .bind(now)
        .bind(now + SESSION_MAX_AGE)
        .execute(&mut *conn)
        .await?;
    Ok(vec![
        set_cookie(SESSION_COOKIE, &sid, SESSION_MAX_AGE, true, secure),
        set_cookie(AUTH_FLAG_COOKIE, "1", SESSION_MAX_AGE, false, secure),
    ])
}

/// The cookies of a signed-out browser.
pub fn end_session_cookies(secure: bool) -> Vec<HeaderValue> {
    vec![
        set_cookie(SESSION_COOKIE, "", 0, true, secure),
        set_cookie(AUTH_FLAG_COOKIE, "0", SESSION_MAX_AGE, false, secure),
    ]
}

/// Ends one session (sign-out, or the session a sign-in replaces).
pub async fn end_session(conn: &mut sqlx::AnyConnection, id_hash: &str) -> ApiResult<()> {
    sqlx::query("DELETE FROM session WHERE id_hash = $1")
        .bind(id_hash)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// Ends every session of a customer (a new password shuts out whoever held the old one).
pub async fn end_all_sessions(conn: &mut sqlx::AnyConnection, customer_id: &str) -> ApiResult<()> {
    sqlx::query("DELETE FROM session WHERE customer_id = $1")
        .bind(customer_id)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// The janitor's part: deletes expired sessions; answers how many.
pub async fn purge_expired(tx: &mut Tx, now: i64) -> ApiResult<u64> {
    Ok(sqlx::query("DELETE FROM session WHERE expires_at <= $1")
        .bind(now)
        .execute(&mut **tx)
        .await?
        .rows_affected())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cookies_are_found_among_several_headers() {
        let mut h = HeaderMap::new();
        h.append(
            header::COOKIE,
            HeaderValue::from_static("a=1; sf_cart_uk=abc"),
        );
        h.append(header::COOKIE, HeaderValue::from_static("b=2"));
        assert_eq!(cookie(&h, "sf_cart_uk"), Some("abc"));
        assert_eq!(cookie(&h, "b"), Some("2"));
        assert_eq!(cookie(&h, "c"), None);
    }

    #[test]
    fn markets_come_from_the_query() {
        assert_eq!(market_from_query(None).unwrap().code, "uk");
        assert_eq!(market_from_query(Some("x=1&market=eu")).unwrap().code, "eu");
        assert!(market_from_query(Some("market=de")).is_err());
    }

    #[test]
    fn only_our_ids_are_tokens() {
        assert!(is_token(&random_id(16)));
        assert!(!is_token("Cart ID"));
        assert!(!is_token(&"A".repeat(32)));
    }
}
