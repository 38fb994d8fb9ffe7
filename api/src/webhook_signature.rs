//! Authenticating webhook deliveries: the content hub's `X-Amplience-Webhook-Signature` (base64
//! HMAC-SHA256 of the raw body with the shared secret) and the commerce platform's secret header.
//! Every comparison is constant-time, and an empty secret never authenticates anything.

use hmac::{KeyInit, Mac};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

type HmacSha256 = hmac::Hmac<Sha256>;

/// Why a delivery was not authenticated (logged; the sender only sees 401).
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum SignatureError {
    #[error("no webhook secret is configured, so no delivery can be authenticated")]
    NoSecret,
    #[error("the signature header is missing")]
    Missing,
    #[error("the signature is not base64")]
    NotBase64,
    #[error("the signature does not match the body")]
    Mismatch,
}

/// The header value the content hub sends for `body` signed with `secret`.
pub fn sign(secret: &[u8], body: &[u8]) -> String {
    use base64::Engine;
    let mut mac = HmacSha256::new_from_slice(secret).expect("HMAC takes keys of any length");
    mac.update(body);
    base64::engine::general_purpose::STANDARD.encode(mac.finalize().into_bytes())
}

/// Checks a content-hub signature over the raw bytes as received.
pub fn verify_hmac(
    secret: Option<&str>,
    header: Option<&str>,
    body: &[u8],
) -> Result<(), SignatureError> {
    use base64::Engine;
    let secret = secret
        .filter(|s| !s.is_empty())
        .ok_or(SignatureError::NoSecret)?;
    let header = header
        .map(str::trim)
        .filter(|h| !h.is_empty())
        .ok_or(SignatureError::Missing)?;
    let claimed = base64::engine::general_purpose::STANDARD
        .decode(header)
        .map_err(|_| SignatureError::NotBase64)?;
    let mut mac =
        HmacSha256::new_from_slice(secret.as_bytes()).expect("HMAC takes keys of any length");
    mac.update(body);
    // verify_slice compares in constant time and refuses a truncated tag.
    mac.verify_slice(&claimed)
        .map_err(|_| SignatureError::Mismatch)
}

/// Checks a shared-secret header. Both sides are hashed first so that the comparison takes the
/// same time whatever the lengths.
pub fn verify_secret_header(
    secret: Option<&str>,
    header: Option<&str>,
) -> Result<(), SignatureError> {
    let secret = secret
        .filter(|s| !s.is_empty())
        .ok_or(SignatureError::NoSecret)?;
    let header = header
        .filter(|h| !h.is_empty())
        .ok_or(SignatureError::Missing)?;
    let same: bool = Sha256::digest(secret.as_bytes())
        .ct_eq(&Sha256::digest(header.as_bytes()))
        .into();
    same.then_some(()).ok_or(SignatureError::Mismatch)
}

#[cfg(test)]
mod tests {
    use super::*;

    // RFC 4231 test case 2: key "Jefe", data "what do ya want for nothing?".
    const KAT_KEY: &str = "Jefe";
    const KAT_BODY: &[u8] = b"what do ya want for nothing?";
    const KAT_HEX: &str = "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843";

    fn kat_base64() -> String {
        use base64::Engine;
        let bytes: Vec<u8> = (0..KAT_HEX.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&KAT_HEX[i..i + 2], 16).unwrap())
            .collect();
        base64::engine::general_purpose::STANDARD.encode(bytes)
    }

    #[test]
    fn known_answer_rfc_4231_case_2() {
        assert_eq!(sign(KAT_KEY.as_bytes(), KAT_BODY), kat_base64());
        assert_eq!(kat_base64(), "W9zBRr9gdU5qBCQmCJV1x1oAPwidJzmDnexYuWTsOEM=");
        assert_eq!(
            verify_hmac(Some(KAT_KEY), Some(&kat_base64()), KAT_BODY),
            Ok(())
        );
    }

    #[test]
    fn bad_signatures_are_refused() {
        let good = kat_base64();
        let check = |h: Option<&str>| verify_hmac(Some(KAT_KEY), h, KAT_BODY);
        assert_eq!(check(None), Err(SignatureError::Missing));
        assert_eq!(check(Some("")), Err(SignatureError::Missing));
        // Hex instead of base64: the hex digits happen to be base64 too, so it decodes to 48
        // bytes that are not the tag.
        assert_eq!(check(Some(KAT_HEX)), Err(SignatureError::Mismatch));
        assert_eq!(check(Some("not base64!")), Err(SignatureError::NotBase64));
        // Truncated: a valid base64 prefix of the tag.
        assert_eq!(check(Some(&good[..20])), Err(SignatureError::Mismatch));
        let mut flipped = good.clone().into_bytes();
        flipped[0] = if flipped[0] == b'A' { b'B' } else { b'A' };
        assert_eq!(
            check(Some(std::str::from_utf8(&flipped).unwrap())),
            Err(SignatureError::Mismatch)
        );
        // Another secret; an empty secret (configured or used by the sender) never passes.
        assert_eq!(
            verify_hmac(Some("other"), Some(&good), KAT_BODY),
            Err(SignatureError::Mismatch)
        );
        let empty_signed = sign(b"", KAT_BODY);
        assert_eq!(
            verify_hmac(Some(""), Some(&empty_signed), KAT_BODY),
            Err(SignatureError::NoSecret)
        );
        assert_eq!(
            verify_hmac(None, Some(&empty_signed), KAT_BODY),
            Err(SignatureError::NoSecret)
        );
    }

    #[test]
    fn the_signature_covers_the_raw_bytes_not_reserialised_json() {
        let raw = br#"{ "name": "dynamic-content.content-item.updated",  "payload": {"id": "a"} }"#;
        let reserialised =
            serde_json::to_vec(&serde_json::from_slice::<serde_json::Value>(raw).unwrap()).unwrap();
        assert_ne!(raw.as_slice(), reserialised.as_slice());
        let over_reserialised = sign(b"s3cret", &reserialised);
        assert_eq!(
            verify_hmac(Some("s3cret"), Some(&over_reserialised), raw),
            Err(SignatureError::Mismatch)
        );
        assert_eq!(
            verify_hmac(Some("s3cret"), Some(&sign(b"s3cret", raw)), raw),
            Ok(())
        );
    }

    #[test]
    fn secret_header() {
        assert_eq!(verify_secret_header(Some("abc"), Some("abc")), Ok(()));
        assert_eq!(
            verify_secret_header(Some("abc"), Some("abd")),
            Err(SignatureError::Mismatch)
        );
        assert_eq!(
            verify_secret_header(Some("abc"), Some("ab")),
            Err(SignatureError::Mismatch)
        );
        assert_eq!(
            verify_secret_header(Some("abc"), None),
            Err(SignatureError::Missing)
        );
        assert_eq!(
            verify_secret_header(Some(""), Some("")),
            Err(SignatureError::NoSecret)
        );
    }
}
