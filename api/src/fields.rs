//! The shape checks of form fields several modules accept, and how they are stored: email
//! addresses, dates and free text (names, addresses). Pure functions.

use unicode_normalization::UnicodeNormalization;

/// Why a free-text field was refused.
pub const CONTROL_CHARACTERS: &str = "must not contain control characters";

/// A one-line text field as it is stored: Unicode NFC (so the same name typed on two systems is
/// the same string), trimmed. Control characters (line breaks, tabs, NUL, escapes) are refused:
/// they have no place in a name or an address line and can break the emails and labels they
/// reach.
pub fn clean_text(value: &str) -> Result<String, &'static str> {
    if value.chars().any(char::is_control) {
        return Err(CONTROL_CHARACTERS);
    }
    Ok(value.nfc().collect::<String>().trim().to_string())
}

/// A simple, permissive email check: text, @, domain, dot, two or more letters.
pub fn is_email(s: &str) -> bool {
    let Some((local, domain)) = s.rsplit_once('@') else {
        return false;
    };
    let Some((host, tld)) = domain.rsplit_once('.') else {
        return false;
    };
    !local.is_empty()
        && !host.is_empty()
        && tld.len() >= 2
        && tld.chars().all(|c| c.is_ascii_alphabetic())
        && !s.chars().any(char::is_whitespace)
        && s.len() <= 254
}

/// An email as it is stored and compared: trimmed and in lower case.
pub fn normalise_email(e: &str) -> String {
    e.trim().to_lowercase()
}

/// `YYYY-MM-DD` with a plausible month and day.
pub fn is_date(s: &str) -> bool {
    let parts: Vec<&str> = s.split('-').collect();
    let [y, m, d] = parts.as_slice() else {
        return false;
    };
    let num = |t: &str, len: usize| {
        (t.len() == len && t.bytes().all(|b| b.is_ascii_digit()))
            .then(|| t.parse::<u32>().ok())
            .flatten()
    };
    matches!((num(y, 4), num(m, 2), num(d, 2)), (Some(y), Some(1..=12), Some(1..=31)) if (1900..=2100).contains(&y))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails_follow_the_spec_pattern() {
        assert!(is_email("a.b@example.co"));
        assert!(is_email("A@B.IO"));
        assert!(!is_email("a@b.c"));
        assert!(!is_email("a@b"));
        assert!(!is_email("a b@c.de"));
        assert!(!is_email("@c.de"));
        assert!(!is_email("a@b.1x"));
    }

    #[test]
    fn text_is_nfc_and_trimmed_without_control_characters() {
        // "é" as e + combining acute becomes the single code point.
        assert_eq!(clean_text("  Rene\u{301}e ").unwrap(), "Ren\u{e9}e");
        for bad in ["a\nb", "a\tb", "a\u{0}b", "a\u{1b}[31mb", "a\u{7f}"] {
            assert_eq!(clean_text(bad), Err(CONTROL_CHARACTERS), "{bad:?}");
        }
    }

    #[test]
    fn dates() {
        assert!(is_date("1990-02-28"));
        assert!(!is_date("1990-13-01"));
        assert!(!is_date("90-1-1"));
    }
}
