//! The shape checks of form fields several modules accept, and how they are stored: email
//! addresses (§5) and dates. Pure functions.

/// A simple, permissive email check: text, @, domain, dot, two or more letters (§5).
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
    fn dates() {
        assert!(is_date("1990-02-28"));
        assert!(!is_date("1990-13-01"));
        assert!(!is_date("90-1-1"));
    }
}
