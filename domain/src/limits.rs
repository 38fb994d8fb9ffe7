//! Length limits on export text, checked at load so an over-long value is reported against its file, item and field, never found later on an output path.

/// Names, titles and option labels: what a page shows in a heading or a button.
pub const MAX_NAME_CHARS: usize = 200;

/// One URL path segment becomes one directory name on disk, and file systems allow 255 bytes;
/// this leaves room for the generator's own suffixes.
pub const MAX_SEGMENT_BYTES: usize = 200;

/// A whole page path below the market prefix (content pages may nest), well under PATH_MAX.
pub const MAX_PATH_BYTES: usize = 1000;

/// The most characters an error message quotes from an export value.
pub const MAX_QUOTE_CHARS: usize = 80;

/// `Err` with the reason when `text` has more than `MAX_NAME_CHARS` characters.
pub fn check_name(text: &str) -> Result<(), String> {
    check_chars(text, MAX_NAME_CHARS)
}

/// `Err` with the reason when `text` has more than `max` characters.
pub fn check_chars(text: &str, max: usize) -> Result<(), String> {
    // Counting stops just past the limit, so a 10 MB value costs no more than a short one.
    if text.chars().nth(max).is_some() {
        return Err(format!(
            "is {} characters long; the most is {max} ({})",
            text.chars().count(),
            quote(text)
        ));
    }
    Ok(())
}

/// `Err` with the reason when the URL path segment `segment` made from a value is longer than
/// `MAX_SEGMENT_BYTES` bytes.
pub fn check_segment(segment: &str) -> Result<(), String> {
    check_bytes(segment, "path segment", MAX_SEGMENT_BYTES)
}

/// `Err` with the reason when the page path `path` is longer than `MAX_PATH_BYTES` bytes.
pub fn check_path(path: &str) -> Result<(), String> {
    check_bytes(path, "page path", MAX_PATH_BYTES)
}

fn check_bytes(text: &str, what: &str, max: usize) -> Result<(), String> {
    if text.len() > max {
        return Err(format!(
            "makes the {what} {} bytes long; the most is {max} ({})",
            text.len(),
            quote(text)
        ));
    }
    Ok(())
}

/// `text` as an error message quotes it: Rust-debug quoted, cut to `MAX_QUOTE_CHARS` characters
/// with the full length said when cut.
pub fn quote(text: &str) -> String {
    clip(&format!("{text:?}"), MAX_QUOTE_CHARS)
}

/// `text` cut to `max` characters, ending in `… (N characters)` when it was longer.
pub fn clip(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_string(),
        Some((end, _)) => format!("{}… ({} characters)", &text[..end], text.chars().count()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_values_are_refused_and_quoted_short() {
        assert!(check_name(&"a".repeat(MAX_NAME_CHARS)).is_ok());
        let e = check_name(&"é".repeat(10_000_000)).unwrap_err();
        assert!(
            e.starts_with("is 10000000 characters long; the most is 200"),
            "{e}"
        );
        assert!(e.len() < 300, "{e}");
        assert!(check_segment(&"a".repeat(MAX_SEGMENT_BYTES)).is_ok());
        assert!(check_segment(&"é".repeat(MAX_SEGMENT_BYTES / 2 + 1)).is_err());
        assert_eq!(clip("short", 10), "short");
        assert_eq!(clip("abcdef", 3), "abc… (6 characters)");
    }
}
