//! What a webhook delivery says changed. The content hub sends content-item and snapshot events
//! carrying item ids; the commerce platform sends `scope` + `data` events for products, their
//! inventory and categories. Events that change nothing the storefront shows are ignored.

use serde_json::Value;

/// Defined with the export, whose source model fingerprints each changed item.
pub use export::Change;

/// A delivery whose JSON is well-formed but says nothing we can act on, with the reason.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {why}")]
pub struct EventError {
    pub field: &'static str,
    pub why: String,
}

fn id_u64(v: Option<&Value>) -> Option<u64> {
    match v? {
        Value::Number(n) => n.as_u64(),
        Value::String(s) => s.parse().ok(),
        _ => None,
    }
}

/// Content hub events: `{"name": "dynamic-content.content-item.updated", "payload": {"id": …}}`,
/// snapshot and edition events naming their root item(s).
pub fn content_changes(body: &Value) -> Result<Vec<Change>, EventError> {
    let name = body.get("name").and_then(Value::as_str).ok_or(EventError {
        field: "name",
        why: "missing: expected the event name".into(),
    })?;
    let payload = body.get("payload").ok_or(EventError {
        field: "payload",
        why: "missing".into(),
    })?;
    let mut ids: Vec<String> = Vec::new();
    let mut push = |v: Option<&Value>| {
        if let Some(id) = v.and_then(Value::as_str).filter(|s| !s.is_empty()) {
            ids.push(id.to_string());
        }
    };
    if name.contains("content-item") {
        push(payload.get("id"));
        push(payload.pointer("/body/_meta/deliveryId"));
    }
    push(payload.pointer("/rootContentItem/id"));
    push(payload.pointer("/contentItem/id"));
    if let Some(items) = payload.get("rootContentItems").and_then(Value::as_array) {
        for item in items {
            push(item.get("id"));
        }
    }
    ids.sort();
    ids.dedup();
    if ids.is_empty() && (name.contains("content-item") || name.contains("snapshot")) {
        return Err(EventError {
            field: "payload.id",
            why: format!("a {name} event must name its content item"),
        });
    }
    Ok(ids.into_iter().map(Change::Content).collect())
}

/// Commerce platform events: `{"scope": "store/product/updated", "data": {"type": "product", "id": 112}}`.
pub fn catalog_changes(body: &Value) -> Result<Vec<Change>, EventError> {
    let scope = body
        .get("scope")
        .and_then(Value::as_str)
        .ok_or(EventError {
            field: "scope",
            why: "missing: expected e.g. store/product/updated".into(),
        })?;
    let data = body.get("data").ok_or(EventError {
        field: "data",
        why: "missing".into(),
    })?;
    let id = || {
        id_u64(data.get("id")).ok_or(EventError {
            field: "data.id",
            why: format!("a {scope} event needs a numeric id"),
        })
    };
    let change = match scope {
        s if s.starts_with("store/product/inventory/") => Change::Inventory(id()?),
        s if s.starts_with("store/sku/inventory/") => Change::Inventory(
            id_u64(data.pointer("/inventory/product_id")).ok_or(EventError {
                field: "data.inventory.product_id",
                why: format!("a {scope} event needs the product id of the sku"),
            })?,
        ),
        s if s.starts_with("store/product/") => Change::Product(id()?),
        s if s.starts_with("store/sku/") => {
            Change::Product(id_u64(data.pointer("/sku/product_id")).ok_or(EventError {
                field: "data.sku.product_id",
                why: format!("a {scope} event needs the product id of the sku"),
            })?)
        }
        s if s.starts_with("store/category/") => Change::Category(id()?),
        _ => return Ok(Vec::new()),
    };
    Ok(vec![change])
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn catalog_scopes() {
        let c = |v| catalog_changes(&v);
        assert_eq!(
            c(json!({"scope": "store/product/updated", "data": {"type": "product", "id": 112}})),
            Ok(vec![Change::Product(112)])
        );
        assert_eq!(
            c(json!({"scope": "store/product/inventory/updated", "data": {"id": 112}})),
            Ok(vec![Change::Inventory(112)])
        );
        assert_eq!(
            c(
                json!({"scope": "store/sku/inventory/updated", "data": {"id": 5, "inventory": {"product_id": 112}}})
            ),
            Ok(vec![Change::Inventory(112)])
        );
        assert_eq!(
            c(json!({"scope": "store/category/deleted", "data": {"id": "11"}})),
            Ok(vec![Change::Category(11)])
        );
        assert_eq!(
            c(json!({"scope": "store/order/created", "data": {"id": 1}})),
            Ok(vec![])
        );
        assert_eq!(c(json!({"data": {}})).unwrap_err().field, "scope");
        assert_eq!(
            c(json!({"scope": "store/product/updated", "data": {"id": "x"}}))
                .unwrap_err()
                .field,
            "data.id"
        );
    }

    #[test]
    fn content_events() {
        assert_eq!(
            content_changes(
                &json!({"name": "dynamic-content.content-item.updated", "payload": {"id": "abc"}})
            ),
            Ok(vec![Change::Content("abc".into())])
        );
        assert_eq!(
            content_changes(
                &json!({"name": "dynamic-content.snapshot.published", "payload": {"rootContentItem": {"id": "r1"}}})
            ),
            Ok(vec![Change::Content("r1".into())])
        );
        assert_eq!(
            content_changes(
                &json!({"name": "dynamic-content.content-item.updated", "payload": {}})
            )
            .unwrap_err()
            .field,
            "payload.id"
        );
    }
}
