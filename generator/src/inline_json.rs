//! JSON written inside an HTML `<script>` element (island props, JSON-LD), escaped so no value can end or confuse the element.

use serde::Serialize;

/// Serializes `value` for a `<script>` element. Every `<`, `>` and `&` becomes its JSON escape
/// (`\u003c`, `\u003e`, `\u0026`): the HTML parser then never sees `</script>`, `<!--` or
/// `<script` inside the element, and the text stays valid JSON with the same value.
pub fn script_json(value: &impl Serialize) -> serde_json::Result<String> {
    let json = serde_json::to_string(value)?;
    let escapes = || memchr::memchr3_iter(b'<', b'>', b'&', json.as_bytes());
    if escapes().next().is_none() {
        return Ok(json);
    }
    let mut out = String::with_capacity(json.len() + 16);
    let mut copied = 0;
    for at in escapes() {
        out.push_str(&json[copied..at]);
        out.push_str(match json.as_bytes()[at] {
            b'<' => "\\u003c",
            b'>' => "\\u003e",
            _ => "\\u0026",
        });
        copied = at + 1;
    }
    out.push_str(&json[copied..]);
    Ok(out)
}
