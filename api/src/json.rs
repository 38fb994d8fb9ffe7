//! `StrictJson<T>`: the only way a request body enters the API. It requires a JSON content type,
//! valid UTF-8, a JSON object, no duplicate keys, no client-supplied price/total/discount fields,
//! and reports the exact field path when the body does not match `T`.

use crate::error::{ApiError, ErrorCode};
use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::{StatusCode, header};
use serde::de::{self, DeserializeOwned, Deserializer, MapAccess, SeqAccess, Visitor};
use std::collections::HashSet;
use std::fmt;

/// Keys that would let a client set what it pays. Prices, totals and discounts come only from the
/// catalog, so a body carrying any of them (at any depth) is refused rather than ignored.
pub const FORBIDDEN_KEYS: &[&str] = &[
    "price",
    "prices",
    "list_price",
    "sale_price",
    "original_price",
    "extended_sale_price",
    "extended_list_price",
    "calculated_price",
    "total",
    "totals",
    "subtotal",
    "cart_amount",
    "base_amount",
    "discount",
    "discounts",
    "discount_amount",
    "coupon_amount",
    "amount",
];

pub struct StrictJson<T>(pub T);

/// The body of an action that takes no fields: none at all, or `{}`.
#[derive(serde::Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({}))]
pub struct EmptyObject {}

/// Checks an optional body that must be empty or the empty object.
pub fn empty_or_empty_object(bytes: &[u8]) -> Result<(), ApiError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Ok(());
    }
    parse::<EmptyObject>(bytes).map(|_| ())
}

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for StrictJson<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let is_json = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(is_json_content_type);
        if !is_json {
            return Err(unsupported_media_type());
        }
        let bytes = Bytes::from_request(req, state).await.map_err(|rejection| {
            if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
                too_large()
            } else {
                ApiError::field("body", "could not be read")
            }
        })?;
        parse(&bytes).map(StrictJson)
    }
}

/// `application/json`, optionally with parameters such as `charset=utf-8`.
pub fn is_json_content_type(value: &str) -> bool {
    let essence = value.split(';').next().unwrap_or("").trim();
    essence.eq_ignore_ascii_case("application/json")
}

pub fn unsupported_media_type() -> ApiError {
    ApiError::new(
        ErrorCode::UnsupportedMediaType,
        "content-type: must be application/json",
    )
    .with_field("content-type", "must be application/json")
}

pub fn too_large() -> ApiError {
    ApiError::new(ErrorCode::PayloadTooLarge, "body: is too large")
        .with_field("body", "is too large")
}

/// Parses a body into `T` with every check above. Public so the rules can be unit-tested.
pub fn parse<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    let text =
        std::str::from_utf8(bytes).map_err(|_| ApiError::field("body", "is not valid UTF-8"))?;
    // First pass: structure only, so duplicate and forbidden keys are reported with their path
    // before any typed deserialization could silently keep the last duplicate.
    let mut de = serde_json::Deserializer::from_str(text);
    let mut path = Vec::new();
    de::DeserializeSeed::deserialize(Checked { path: &mut path }, &mut de)
        .map_err(|e| structure_error(&e))?;
    de.end().map_err(|e| structure_error(&e))?;
    // Every request body is an object: serde would take `[]` (or `[1]`) for a struct whose
    // fields all have defaults, so anything else is refused here.
    if !text.trim_start().starts_with('{') {
        return Err(ApiError::field("body", "must be a JSON object"));
    }

    let mut de = serde_json::Deserializer::from_str(text);
    serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        let field = if path == "." {
            "body".to_string()
        } else {
            path
        };
        ApiError::field(field, clean_serde_message(&e.into_inner().to_string()))
    })
}

fn structure_error(e: &serde_json::Error) -> ApiError {
    let msg = e.to_string();
    // Our own visitor errors are "FIELD\u{0}MESSAGE"; serde_json appends " at line X column Y".
    if let Some((field, rest)) = msg.split_once('\u{0}') {
        let message = rest.split(" at line ").next().unwrap_or(rest);
        return ApiError::field(field, message);
    }
    ApiError::field("body", format!("is not valid JSON ({msg})"))
}

/// Drops serde's position suffix, which means nothing to a form.
fn clean_serde_message(msg: &str) -> String {
    msg.split(" at line ").next().unwrap_or(msg).to_string()
}

/// A `DeserializeSeed` that walks any JSON value, tracking the path, and fails on a duplicate key
/// or a forbidden key.
struct Checked<'a> {
    path: &'a mut Vec<String>,
}

impl Checked<'_> {
    /// `line_items[0].quantity`: keys joined by dots, indexes attached to their array.
    fn here(&self, key: &str) -> String {
        let mut p = String::new();
        for segment in self.path.iter().map(String::as_str).chain([key]) {
            if !p.is_empty() && !segment.starts_with('[') {
                p.push('.');
            }
            p.push_str(segment);
        }
        p
    }
}

impl<'de> de::DeserializeSeed<'de> for Checked<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Checked<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut i = 0;
        loop {
            self.path.push(format!("[{i}]"));
            let more = seq.next_element_seed(Checked {
                path: &mut *self.path,
            })?;
            self.path.pop();
            if more.is_none() {
                return Ok(());
            }
            i += 1;
        }
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            let here = self.here(&key);
            if !seen.insert(key.clone()) {
                return Err(de::Error::custom(format!(
                    "{here}\u{0}appears more than once"
                )));
            }
            if FORBIDDEN_KEYS.contains(&key.as_str()) {
                return Err(de::Error::custom(format!(
                    "{here}\u{0}must not be sent: prices, totals and discounts are set by the server"
                )));
            }
            self.path.push(key);
            map.next_value_seed(Checked {
                path: &mut *self.path,
            })?;
            self.path.pop();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Line {
        quantity: i64,
    }
    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Body {
        line_items: Vec<Line>,
    }

    fn field_of(e: ApiError) -> String {
        match e {
            ApiError::Client { fields, .. } => fields.into_keys().next().unwrap(),
            other => panic!("not a client error: {other}"),
        }
    }

    #[test]
    fn duplicate_keys_are_refused_with_their_path() {
        let e = parse::<Body>(br#"{"line_items":[{"quantity":1,"quantity":2}]}"#).unwrap_err();
        assert_eq!(field_of(e), "line_items[0].quantity");
    }

    #[test]
    fn price_fields_are_refused_at_any_depth() {
        let e = parse::<Body>(br#"{"line_items":[{"quantity":1,"sale_price":0}]}"#).unwrap_err();
        assert_eq!(field_of(e), "line_items[0].sale_price");
    }

    #[test]
    fn type_errors_name_the_field() {
        for bad in ["1.5", "\"1\"", "null"] {
            let body = format!(r#"{{"line_items":[{{"quantity":1}},{{"quantity":{bad}}}]}}"#);
            let e = parse::<Body>(body.as_bytes()).unwrap_err();
            assert_eq!(field_of(e), "line_items[1].quantity", "{bad}");
        }
    }

    #[test]
    fn invalid_utf8_and_trailing_garbage_are_refused() {
        assert_eq!(
            field_of(parse::<Body>(b"{\"line_items\":[\xff]}").unwrap_err()),
            "body"
        );
        assert_eq!(
            field_of(parse::<Body>(br#"{"line_items":[]} x"#).unwrap_err()),
            "body"
        );
    }

    #[test]
    fn a_body_that_is_not_an_object_is_refused() {
        #[derive(Deserialize, Debug)]
        #[allow(dead_code)]
        struct AllDefault {
            #[serde(default)]
            email: String,
        }
        for bad in ["[]", "[\"a@b.co\"]", "\"x\"", "1", "null", "true"] {
            assert_eq!(
                field_of(parse::<AllDefault>(bad.as_bytes()).unwrap_err()),
                "body",
                "{bad}"
            );
        }
        assert!(parse::<AllDefault>(b" {}").is_ok());
    }

    #[test]
    fn content_types_with_parameters_are_json() {
        assert!(is_json_content_type("application/json; charset=utf-8"));
        assert!(!is_json_content_type("text/plain"));
        assert!(!is_json_content_type("application/jsonx"));
    }
}
