//! JSON inside a `<script>` element: escaped so markup cannot end it, and still the same value.

use generator::inline_json::script_json;
use serde_json::json;

#[test]
fn markup_characters_are_escaped_and_the_value_survives() {
    let value = json!({"name": "a <!--<script> & </script> b"});
    let text = script_json(&value).unwrap();
    assert!(!text.contains(['<', '>', '&']), "{text}");
    let back: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(back, value);
}

#[test]
fn escapes_at_either_end_and_text_without_markup_is_plain_json() {
    let value = json!(["<", "a&b", ">"]);
    let text = script_json(&value).unwrap();
    assert_eq!(text, r#"["\u003c","a\u0026b","\u003e"]"#);
    let plain = json!({"name": "Emerald Green", "price": "£25.00"});
    assert_eq!(
        script_json(&plain).unwrap(),
        serde_json::to_string(&plain).unwrap()
    );
}
