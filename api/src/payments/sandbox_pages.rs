//! The sandbox provider's browser-facing side, mounted at `/sandbox-pay` beside the shop (never
//! under `/api`): the tokenisation endpoint the card form posts card details to, the 3-D Secure
//! challenge page and the PayPal / Klarna approval page, each sending the shopper back to the
//! shop's return URL with a redirect result. Card numbers are checked and forgotten here; nothing
//! is logged.

use super::sandbox::{CardProblem, Sandbox};
use crate::error::ApiError;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Form, Json, Router};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The routes, to be nested at `sandbox::MOUNT`.
pub fn router(sandbox: Arc<Sandbox>) -> Router {
    Router::new()
        .route("/v1/tokens", post(tokens))
        .route("/challenge/{psp}", get(challenge_page).post(finish))
        .route("/redirect/{psp}", get(approval_page).post(finish))
        .with_state(sandbox)
}

#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", deny_unknown_fields)]
enum TokenRequest {
    #[serde(rename = "scheme")]
    Card {
        #[serde(default)]
        number: String,
        #[serde(default)]
        expiry_month: String,
        #[serde(default)]
        expiry_year: String,
        #[serde(default)]
        cvc: String,
        #[serde(default)]
        #[allow(dead_code)]
        holder_name: String,
    },
    #[serde(rename = "giftcard")]
    GiftCard {
        #[serde(default)]
        number: String,
        #[serde(default)]
        pin: String,
    },
}

fn field_error(field: &str, message: &str) -> Response {
    let mut fields = BTreeMap::new();
    fields.insert(field.to_string(), message.to_string());
    ApiError::fields(message, fields).into_response()
}

/// The year and month of unix time `secs` (UTC), for the expiry check.
pub fn year_month(secs: i64) -> (u32, u32) {
    // Howard Hinnant's days-to-civil algorithm.
    let z = secs.div_euclid(86_400) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year as u32, month as u32)
}

/// `"7"` / `"07"` → 7; two-digit years are 20xx.
fn expiry(month: &str, year: &str) -> Option<(u32, u32)> {
    let month: u32 = month.trim().parse().ok()?;
    let year: u32 = year.trim().parse().ok()?;
    Some((month, if year < 100 { 2000 + year } else { year }))
}

async fn tokens(State(sandbox): State<Arc<Sandbox>>, body: axum::body::Bytes) -> Response {
    let request: TokenRequest = match serde_json::from_slice(&body) {
        Ok(r) => r,
        Err(e) => return field_error("body", &format!("is not a token request: {e}")),
    };
    let issued = match request {
        TokenRequest::Card {
            number,
            expiry_month,
            expiry_year,
            cvc,
            ..
        } => {
            let Some(expiry) = expiry(&expiry_month, &expiry_year) else {
                return field_error("expiry", "Please enter the expiry date as MM/YY");
            };
            let today = year_month(crate::store::now());
            let (year, month) = today;
            sandbox.tokenize_card(&number, expiry, cvc.trim(), (year, month))
        }
        TokenRequest::GiftCard { number, pin } => sandbox.tokenize_gift_card(&number, &pin),
    };
    match issued {
        Ok(token) => (
            StatusCode::CREATED,
            Json(serde_json::json!({ "token": token })),
        )
            .into_response(),
        Err(CardProblem::Number) => field_error("number", "Your card number is not valid"),
        Err(CardProblem::Expiry) => field_error("expiry", "Your card's expiry date is not valid"),
        Err(CardProblem::SecurityCode) => {
            field_error("cvc", "Your card's security code is not valid")
        }
        Err(CardProblem::GiftCard) => {
            field_error("number", "The gift card number or PIN is not valid")
        }
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// One small page: what is being paid, and two buttons that post the shopper's answer.
fn page(title: &str, intro: &str, amount: &super::Amount, yes: &str, no: &str) -> Response {
    let amount = format!(
        "{} {}.{:02}",
        amount.currency,
        amount.value / 100,
        amount.value % 100
    );
    let html = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{title} (sandbox)</title>\n</head>\n<body>\n<main>\n<h1>{title}</h1>\n\
         <p>{intro}</p>\n<p>Amount: <strong>{amount}</strong></p>\n\
         <form method=\"post\">\n<button type=\"submit\" name=\"result\" value=\"pass\">{yes}</button>\n\
         <button type=\"submit\" name=\"result\" value=\"fail\">{no}</button>\n</form>\n\
         <p>This is the payment sandbox: no money moves.</p>\n</main>\n</body>\n</html>\n",
        title = escape(title),
        intro = escape(intro),
        amount = escape(&amount),
        yes = escape(yes),
        no = escape(no),
    );
    ([(header::CACHE_CONTROL, "no-store")], Html(html)).into_response()
}

fn gone() -> Response {
    (
        StatusCode::NOT_FOUND,
        [(header::CACHE_CONTROL, "no-store")],
        Html("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Payment not found (sandbox)</title></head><body><main><h1>This payment is not waiting for you</h1></main></body></html>\n"),
    )
        .into_response()
}

async fn challenge_page(State(sandbox): State<Arc<Sandbox>>, Path(psp): Path<String>) -> Response {
    match sandbox.awaiting(&psp) {
        Some((_, amount)) => page(
            "3-D Secure",
            "Your bank asks you to confirm this payment.",
            &amount,
            "Authenticate",
            "Fail authentication",
        ),
        None => gone(),
    }
}

async fn approval_page(State(sandbox): State<Arc<Sandbox>>, Path(psp): Path<String>) -> Response {
    match sandbox.awaiting(&psp) {
        Some((method, amount)) => {
            let name = if method == "klarna" {
                "Klarna"
            } else {
                "PayPal"
            };
            page(
                &format!("Pay with {name}"),
                &format!("Approve this payment to {name}."),
                &amount,
                "Approve",
                "Cancel",
            )
        }
        None => gone(),
    }
}

#[derive(Deserialize)]
struct Answer {
    result: String,
}

async fn finish(
    State(sandbox): State<Arc<Sandbox>>,
    Path(psp): Path<String>,
    Form(answer): Form<Answer>,
) -> Response {
    match sandbox.finish(&psp, answer.result == "pass") {
        Some(back) => (StatusCode::SEE_OTHER, [(header::LOCATION, back)]).into_response(),
        None => gone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unix_time_to_year_and_month() {
        assert_eq!(year_month(0), (1970, 1));
        // 2026-11-24T09:00:00Z
        assert_eq!(year_month(1_795_510_800), (2026, 11));
        // 2028-02-29T12:00:00Z
        assert_eq!(year_month(1_835_438_400), (2028, 2));
        assert_eq!(expiry("07", "29"), Some((7, 2029)));
        assert_eq!(expiry("x", "29"), None);
    }
}
