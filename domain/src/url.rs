//! Storefront URL rules: slugs, colour path segments and the route shapes shared by the
//! generator (which writes pages there) and the API (which links to them).

/// Lower-case ASCII slug: letters and digits kept, everything else collapsed to single hyphens.
pub fn slugify(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut pending_dash = false;
    for c in text.chars() {
        let c = match c {
            'à' | 'á' | 'â' | 'ä' | 'ã' => 'a',
            'è' | 'é' | 'ê' | 'ë' => 'e',
            'ì' | 'í' | 'î' | 'ï' => 'i',
            'ò' | 'ó' | 'ô' | 'ö' | 'õ' => 'o',
            'ù' | 'ú' | 'û' | 'ü' => 'u',
            other => other,
        };
        if c.is_ascii_alphanumeric() {
            if pending_dash && !out.is_empty() {
                out.push('-');
            }
            pending_dash = false;
            out.push(c.to_ascii_lowercase());
        } else if c != '\'' && c != '’' {
            pending_dash = true;
        }
    }
    out
}

/// A colour label as a URL segment: spaces become underscores (`Dusty Pink` → `Dusty_Pink`).
/// Characters that are not safe in a path segment are dropped.
pub fn colour_segment(label: &str) -> String {
    label
        .trim()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('_'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// `/p/{id}/{slug}/{colour}` without a market prefix.
pub fn product_path(product_id: u64, slug: &str, colour_segment: &str) -> String {
    format!("/p/{product_id}/{slug}/{colour_segment}")
}

pub fn collection_path(collection_id: u64) -> String {
    format!("/browse/collection/{collection_id}")
}

/// Decodes the encoded apostrophes and quotes editors' text arrives with (`&#39;`, `&apos;`,
/// `&quot;`, `&#34;`, `&amp;`), as the spec asks for page descriptions.
pub fn decode_quotes(text: &str) -> String {
    text.replace("&#39;", "'")
        .replace("&#039;", "'")
        .replace("&apos;", "'")
        .replace("&#x27;", "'")
        .replace("&quot;", "\"")
        .replace("&#34;", "\"")
        .replace("&#x22;", "\"")
        .replace("&amp;", "&")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs_are_lowercase_hyphenated_ascii() {
        assert_eq!(slugify("Tiered Midi Dress"), "tiered-midi-dress");
        assert_eq!(slugify("  Women's  Café / Bar! "), "womens-cafe-bar");
        assert_eq!(slugify("100% Cotton Tee"), "100-cotton-tee");
    }

    #[test]
    fn colour_segments_use_underscores_for_spaces() {
        assert_eq!(colour_segment("Dusty Pink"), "Dusty_Pink");
        assert_eq!(colour_segment("Black/White"), "BlackWhite");
    }

    #[test]
    fn encoded_quotes_are_decoded() {
        assert_eq!(
            decode_quotes("Who we are &amp; what we&#39;re &quot;about&quot;"),
            "Who we are & what we're \"about\""
        );
    }
}
