//! The export's records as raw JSON: reading a data file or the content pages of an export
//! directory, and the ids a record carries. Sources and the source model share these.

use crate::error::FetchError;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// A product as the catalog API returns it, with its variants' price-list records and stock.
#[derive(Debug, Clone, PartialEq)]
pub struct ProductRecord {
    pub product: Value,
    pub prices: Vec<Value>,
    pub inventory: Vec<Value>,
}

/// Reads `{"data": [...]}` from an export file as JSON values.
pub fn read_data_list(dir: &Path, file: &str) -> Result<Vec<Value>, FetchError> {
    let err = |why: String| FetchError {
        source_name: file.to_string(),
        why,
    };
    let bytes = std::fs::read(dir.join(file)).map_err(|e| err(format!("cannot be read: {e}")))?;
    let mut root: Value =
        serde_json::from_slice(&bytes).map_err(|e| err(format!("malformed JSON: {e}")))?;
    match root.get_mut("data").map(Value::take) {
        Some(Value::Array(items)) => Ok(items),
        _ => Err(err("missing: expected {\"data\": [...]}".into())),
    }
}

/// Every content item of the export's `content/*.json` pages, with its file name.
pub fn read_content_items(dir: &Path) -> Result<Vec<(String, Value)>, FetchError> {
    let content_dir = dir.join("content");
    let err = |name: &str, why: String| FetchError {
        source_name: name.to_string(),
        why,
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(&content_dir)
        .map_err(|e| err("content/", format!("cannot be read: {e}")))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let name = format!(
            "content/{}",
            path.file_name().unwrap_or_default().to_string_lossy()
        );
        let bytes = std::fs::read(&path).map_err(|e| err(&name, format!("cannot be read: {e}")))?;
        let page: domain::export::RawContentPage = serde_json::from_slice(&bytes)
            .map_err(|e| err(&name, format!("not a delivery API page: {e}")))?;
        out.extend(
            page.responses
                .into_iter()
                .map(|r| (name.clone(), r.content)),
        );
    }
    Ok(out)
}

pub fn id_of(v: &Value, field: &str) -> Option<u64> {
    v.get(field).and_then(Value::as_u64)
}

pub fn variant_ids(product: &Value) -> BTreeSet<u64> {
    product
        .get("variants")
        .and_then(Value::as_array)
        .map(|vs| vs.iter().filter_map(|v| id_of(v, "id")).collect())
        .unwrap_or_default()
}

pub fn inventory_variant(record: &Value) -> Option<u64> {
    record
        .pointer("/identity/variant_id")
        .and_then(Value::as_u64)
}

pub fn delivery_id(item: &Value) -> Option<&str> {
    item.pointer("/_meta/deliveryId").and_then(Value::as_str)
}
