//! `StrictQuery<T>`: a typed query string whose mistakes (an unknown parameter, a value of the
//! wrong type) are 400s in the API's error shape naming the parameter, where axum's own `Query`
//! answers in plain text.

use crate::error::ApiError;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use serde::de::DeserializeOwned;

pub struct StrictQuery<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequestParts<S> for StrictQuery<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        parse(parts.uri.query().unwrap_or("")).map(StrictQuery)
    }
}

/// Reads `raw` into `T`; the error names the parameter serde names (between backticks), else
/// `query`.
pub fn parse<T: DeserializeOwned>(raw: &str) -> Result<T, ApiError> {
    serde_urlencoded::from_str(raw).map_err(|e| {
        let message = e.to_string();
        let field = message
            .split('`')
            .nth(1)
            .filter(|name| !name.is_empty())
            .unwrap_or("query")
            .to_string();
        ApiError::field(field, message)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize, Debug)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct List {
        page: Option<i64>,
    }

    fn field(raw: &str) -> String {
        match parse::<List>(raw).unwrap_err() {
            ApiError::Client { fields, .. } => fields.into_keys().next().unwrap(),
            other => panic!("not a client error: {other}"),
        }
    }

    #[test]
    fn mistakes_name_their_parameter() {
        assert_eq!(parse::<List>("page=2").unwrap().page, Some(2));
        assert_eq!(field("pages=2"), "pages");
        assert_eq!(field("page=two"), "query");
    }
}
