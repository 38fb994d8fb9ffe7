//! The commerce API's fuzzed entry points, shared by the fuzz targets and api/tests/fuzz_corpus.rs:
//! the request-body extractor with every request type, and the webhook payload parsers.

use api::error::ApiError;
use api::json::parse;
use api::webhooks::{Origin, parse_changes, signature};
use axum::http::StatusCode;
use axum::response::IntoResponse;

/// What a run ended with: the body accepted, or the client error the API would answer.
pub type Outcome = Result<(), ApiError>;

/// A refusal must be a 4xx naming what is wrong, and render as a response.
pub fn check_error(outcome: Outcome) {
    if let Err(e) = outcome {
        let text = e.to_string();
        let status = e.into_response().status();
        assert!(status.is_client_error(), "{status} for a bad body: {text}");
    }
}

/// Parses and validates `body` as request type `T` with the handler's own checks.
fn body<T: serde::de::DeserializeOwned>(
    bytes: &[u8],
    validate: impl FnOnce(T) -> Outcome,
) -> Outcome {
    validate(parse::<T>(bytes)?)
}

fn none<T>(_: T) -> Outcome {
    Ok(())
}

/// The first byte picks the request type (as a route would), the rest is the body.
pub fn json_body(data: &[u8]) -> Outcome {
    use api::{account, auth, cart, checkout, marketing, promotions, wishlist};
    use checkout::{express, standard};
    let Some((&which, bytes)) = data.split_first() else {
        return Ok(());
    };
    match which % 31 {
        0 => body::<auth::registration::Register>(bytes, |mut r| {
            auth::registration::validate_register(&mut r)
        }),
        1 => body::<auth::confirmation::ConfirmRegistration>(bytes, none),
        2 => body::<auth::Login>(bytes, none),
        3 => body::<auth::reset::ResetRequest>(bytes, none),
        4 => body::<auth::reset::TokenOnly>(bytes, none),
        5 => body::<auth::reset::ResetConfirm>(bytes, none),
        6 => body::<account::address::AddressInput>(bytes, |a| {
            account::address::validate_address(a).map(drop)
        }),
        7 => body::<account::UpdateCustomer>(bytes, none),
        8 => body::<marketing::Consent>(bytes, none),
        9 => body::<marketing::NotifyMe>(bytes, none),
        10 => body::<express::StartExpress>(bytes, none),
        11 => body::<express::MerchantSession>(bytes, none),
        12 => body::<express::ShippingContact>(bytes, none),
        13 => body::<express::ShippingMethod>(bytes, none),
        14 => body::<express::Authorize>(bytes, none),
        15 => body::<standard::place::PlaceOrder>(bytes, none),
        16 => body::<standard::place::PaymentDetails>(bytes, none),
        17 => body::<standard::place::OrderAccount>(bytes, none),
        18 => body::<standard::StartCheckout>(bytes, none),
        19 => body::<standard::SetEmail>(bytes, none),
        20 => body::<standard::SetConsignment>(bytes, none),
        21 => body::<standard::SetShippingOption>(bytes, none),
        22 => body::<standard::SetBilling>(bytes, none),
        23 => body::<standard::wallet::AppleSession>(bytes, none),
        24 => body::<cart::CreateCart>(bytes, none),
        25 => body::<cart::AddItems>(bytes, |a| {
            a.line_items.iter().enumerate().try_for_each(|(i, l)| {
                cart::check_quantity(&format!("line_items[{i}].quantity"), l.quantity)
            })
        }),
        26 => body::<cart::UpdateItem>(bytes, |u| cart::check_quantity("quantity", u.quantity)),
        27 => body::<promotions::SyncPromotions>(bytes, none),
        28 => body::<wishlist::CreateWishlist>(bytes, none),
        29 => body::<wishlist::AddWishlistItems>(bytes, none),
        _ => api::json::empty_or_empty_object(bytes),
    }
}

/// The first byte picks the sender; the rest is the body as received. The signature checks run
/// on it too (with a header cut from the body), then the parser of that sender's events.
pub fn webhook(data: &[u8]) -> Outcome {
    let Some((&which, body)) = data.split_first() else {
        return Ok(());
    };
    let header = std::str::from_utf8(&body[..body.len().min(64)]).ok();
    let origin = if which % 2 == 0 {
        // Whatever the header, only the right signature may pass.
        let verdict = signature::verify_hmac(Some("fuzz-secret"), header, body);
        let right = header.map(str::trim) == Some(signature::sign(b"fuzz-secret", body).as_str());
        assert_eq!(verdict.is_ok(), right, "{header:?}");
        Origin::Content
    } else {
        let verdict = signature::verify_secret_header(Some("fuzz-secret"), header);
        assert_eq!(verdict.is_ok(), header == Some("fuzz-secret"));
        Origin::Catalog
    };
    match parse_changes(origin, body) {
        Ok(_) => Ok(()),
        Err(e) => {
            let status = e.status();
            assert!(
                status == StatusCode::BAD_REQUEST || status == StatusCode::UNPROCESSABLE_ENTITY,
                "{status}"
            );
            Err(e)
        }
    }
}
