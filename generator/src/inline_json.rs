//! JSON written inside an HTML `<script>` element (island props, JSON-LD), escaped so no value can end or confuse the element.

use serde::Serialize;

/// Serializes `value` for a `<script>` element. Every `<`, `>` and `&` becomes its JSON escape
/// (`\u003c`, `\u003e`, `\u0026`): the HTML parser then never sees `</script>`, `<!--` or
/// `<script` inside the element, and the text stays valid JSON with the same value.
pub fn script_json(value: &impl Serialize) -> serde_json::Result<String> {
    let json = serde_json::to_string(value)?;
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            c => out.push(c),
        }
    }
    Ok(out)
}
