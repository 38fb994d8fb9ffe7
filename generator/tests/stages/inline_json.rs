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
