//! The site's HTML escaping for minijinja, shared by the page templates (generator) and the
//! emails (api), so both escape exactly the same characters.

use minijinja::{Error, State, Value};

/// Escapes like Jinja2's markupsafe (`& < > " '`). minijinja's default also escapes `/`, which
/// bloats every URL in a page and makes server markup differ from React's for the same props.
pub fn html_formatter(
    out: &mut minijinja::Output,
    state: &mut State,
    value: &Value,
) -> Result<(), Error> {
    if matches!(state.auto_escape(), minijinja::AutoEscape::Html)
        && !value.is_safe()
        && let Some(text) = value.as_str()
    {
        // Straight into the output, a run of plain text at a time: every value of every page
        // passes here, so no per-value allocation.
        let mut plain = 0;
        for (i, byte) in text.bytes().enumerate() {
            let entity = match byte {
                b'&' => "&amp;",
                b'<' => "&lt;",
                b'>' => "&gt;",
                b'"' => "&quot;",
                b'\'' => "&#x27;",
                _ => continue,
            };
            out.write_str(&text[plain..i])?;
            out.write_str(entity)?;
            plain = i + 1;
        }
        return out.write_str(&text[plain..]).map_err(Error::from);
    }
    minijinja::escape_formatter(out, state, value)
}
