//! The registration payload and its checks: every field with its own message, the custom
//! form fields, the registration address as an address-book entry, and the password rule,
//! which the password reset applies too. No storage: the account module writes the customer.

use crate::account::address::{AddressInput, COUNTRIES};
use crate::account::{NameValue, NewCustomer, TITLES};
use crate::error::{ApiError, ApiResult};
use crate::fields::{is_date, is_email};
use crate::wishlist::WishlistItemInput;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use utoipa::ToSchema;

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

#[derive(Deserialize, Serialize, ToSchema, Default)]
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

/// The registration payload. Serialised (without the password) while it waits for the owner to
/// confirm the email.
#[derive(Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"title": "Ms", "first_name": "Ada", "last_name": "Lovelace", "email": "ada@example.com", "password": "Correct-horse-9", "preferenceEmail": true, "preferencePost": false, "guest_wishlist": []}))]
pub struct Register {
    #[serde(default)]
    pub email: String,
    #[serde(default, skip_serializing)]
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

/// The password rule: at least 7 characters, with a letter and a number.
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

/// Every field of a registration, each problem under its own field name; the names and phone
/// are stored as `clean_text` makes them (NFC, trimmed).
pub fn validate_register(r: &mut Register) -> ApiResult<()> {
    let mut fields = BTreeMap::new();
    for (name, value) in [
        ("first_name", &mut r.first_name),
        ("last_name", &mut r.last_name),
        ("phone", &mut r.phone),
    ] {
        match crate::fields::clean_text(value) {
            Ok(clean) => *value = clean,
            Err(why) => {
                fields.insert(name.to_string(), why.to_string());
            }
        }
    }
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
        if fields.contains_key(name) {
            continue;
        }
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
    if r.phone.len() > 40 && !fields.contains_key("phone") {
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
/// → house/apartment number, county → state/province, postCode → postal code, country → country code,
/// with the registrant's names and phone. Required: street name, city, postal code (ZIP code in the US), country; each
/// missing one is reported under `address.<field>` with its own message.
fn registration_address(
    a: &PostalAddress,
    r: &Register,
    fields: &mut BTreeMap<String, String>,
) -> AddressInput {
    let mut country = a.country.trim().to_uppercase();
    if country == "UK" {
        country = "GB".into();
    }
    let out = AddressInput {
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
            crate::account::address::postal_code_message(&out.country_code),
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
        match COUNTRIES
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

    /// The customer record this (checked) registration makes, with `address` as the first
    /// saved address: names and phone trimmed.
    pub fn customer<'a>(
        &'a self,
        email: &'a str,
        password_hash: &'a str,
        address: Option<&'a AddressInput>,
    ) -> NewCustomer<'a> {
        NewCustomer {
            email,
            password_hash,
            title: &self.title,
            first_name: self.first_name.trim(),
            last_name: self.last_name.trim(),
            phone: self.phone.trim(),
            date_of_birth: &self.date_of_birth,
            preference_email: self.preference_email,
            preference_post: self.preference_post,
            country_iso2: &self.country_iso2,
            accepts_marketing: self.accepts_product_review_abandoned_cart_emails,
            address,
            custom_fields: &self.custom_fields,
        }
    }

    /// The payload's `address` as an address-book entry (checked with the rest of the payload).
    pub fn address_entry(&self) -> Option<AddressInput> {
        self.address
            .as_ref()
            .map(|a| registration_address(a, self, &mut BTreeMap::new()))
    }
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
