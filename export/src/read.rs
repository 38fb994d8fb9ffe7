//! Reads an export directory (catalog + content, see docs/formats.md) and validates it into the
//! domain models. Every problem names the file, the item and the field; nothing is written here.

use crate::validate::{Inputs, validate};
use domain::catalog::*;
use domain::content::ContentSource;
use domain::error::{LoadError, LoadErrors};
use domain::export::*;
use domain::shops::{FILE_GAZETTEER, FILE_LOCATIONS, ShopFinder};
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

pub fn load_export(dir: &Path) -> Result<Inputs, LoadErrors> {
    let mut errors = LoadErrors::default();
    if !dir.is_dir() {
        errors.push(LoadError::new(
            dir.display().to_string(),
            "export",
            "-",
            "is not a directory",
        ));
        return Err(errors);
    }
    // The big files parse in parallel; each returns its own errors.
    let (
        (store, channels),
        ((categories, collections), ((products, prices), ((inventory, media), content))),
    ) = rayon::join(
        || {
            (
                read_object::<StoreSettings>(dir, FILE_STORE),
                read_list::<RawChannel>(dir, FILE_CHANNELS, "channel", "id"),
            )
        },
        || {
            rayon::join(
                || {
                    (
                        read_list::<RawCategory>(dir, FILE_CATEGORIES, "category", "id"),
                        read_list::<RawCollection>(dir, FILE_COLLECTIONS, "collection", "id"),
                    )
                },
                || {
                    rayon::join(
                        || {
                            rayon::join(
                                || read_list::<RawProduct>(dir, FILE_PRODUCTS, "product", "id"),
                                || {
                                    read_list::<RawPriceRecord>(
                                        dir,
                                        FILE_PRICES,
                                        "price record",
                                        "variant_id",
                                    )
                                },
                            )
                        },
                        || {
                            rayon::join(
                                || {
                                    rayon::join(
                                        || {
                                            read_list::<RawInventoryItem>(
                                                dir,
                                                FILE_INVENTORY,
                                                "inventory item",
                                                "identity",
                                            )
                                        },
                                        || {
                                            read_object::<BTreeMap<String, RawMediaSet>>(
                                                dir, FILE_MEDIA,
                                            )
                                        },
                                    )
                                },
                                || read_content(dir),
                            )
                        },
                    )
                },
            )
        },
    );
    let (store, channels, categories, collections, products, prices, inventory, media, content) = (
        take(store, &mut errors),
        take(channels, &mut errors),
        take(categories, &mut errors),
        take(collections, &mut errors),
        take(products, &mut errors),
        take(prices, &mut errors),
        take(inventory, &mut errors),
        take(media, &mut errors),
        take(content, &mut errors),
    );
    let (
        Some(store),
        Some(channels),
        Some(categories),
        Some(collections),
        Some(products),
        Some(prices),
        Some(inventory),
        Some(media),
        Some(content),
    ) = (
        store,
        channels,
        categories,
        collections,
        products,
        prices,
        inventory,
        media,
        content,
    )
    else {
        return Err(errors);
    };
    let media_dir = dir.join("media");
    validate(
        CatalogExport {
            store,
            channels,
            categories,
            collections,
            products,
            prices,
            inventory,
            media,
        },
        content,
        || read_shops(dir).map(Arc::new),
        media_dir.is_dir().then_some(media_dir),
    )
}

/// The shop finder's files, both optional: an export made before shops were exported (or from a
/// platform with no locations) builds a shop finder with no shops.
pub fn read_shops(dir: &Path) -> Result<ShopFinder, LoadErrors> {
    let optional = |file: &str| -> Result<Option<Vec<u8>>, LoadErrors> {
        match std::fs::read(dir.join(file)) {
            Ok(bytes) => Ok(Some(bytes)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(one(file, "file", "-", format!("cannot be read: {e}"))),
        }
    };
    let mut errors = LoadErrors::default();
    let locations = optional(FILE_LOCATIONS).and_then(|bytes| match bytes {
        Some(b) => parse_list::<RawLocation>(&b, FILE_LOCATIONS, "location", "id"),
        None => Ok(Vec::new()),
    });
    let places = optional(FILE_GAZETTEER).and_then(|bytes| match bytes {
        Some(b) => parse_list::<RawPlace>(&b, FILE_GAZETTEER, "place", "name"),
        None => Ok(Vec::new()),
    });
    let (Some(locations), Some(places)) = (take(locations, &mut errors), take(places, &mut errors))
    else {
        return Err(errors);
    };
    let finder = ShopFinder::from_export(&locations, &places)?;
    if !finder.shops.is_empty() && finder.places.is_empty() {
        eprintln!(
            "warning: {FILE_GAZETTEER} is missing or empty: the shop finder lists its shops, but its search finds no town or postcode"
        );
    }
    Ok(finder)
}

fn take<T>(result: Result<T, LoadErrors>, errors: &mut LoadErrors) -> Option<T> {
    result.map_err(|e| errors.extend(e)).ok()
}

fn read_bytes(dir: &Path, file: &str) -> Result<Vec<u8>, LoadErrors> {
    std::fs::read(dir.join(file)).map_err(|e| {
        let why = if e.kind() == std::io::ErrorKind::NotFound {
            "file is missing".to_string()
        } else {
            format!("cannot be read: {e}")
        };
        one(file, "file", "-", why)
    })
}

fn one(
    file: &str,
    item: impl Into<String>,
    field: impl Into<String>,
    why: impl Into<String>,
) -> LoadErrors {
    LoadErrors(vec![LoadError::new(file, item, field, why)])
}

fn read_object<T: DeserializeOwned>(dir: &Path, file: &str) -> Result<T, LoadErrors> {
    parse_object(&read_bytes(dir, file)?, file)
}

/// Parses the bytes of the object file `file` (`store.json`, `catalog/media.json`). Public so the
/// fuzz targets and their regression tests reach the parser without a directory on disk.
pub fn parse_object<T: DeserializeOwned>(bytes: &[u8], file: &str) -> Result<T, LoadErrors> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value: T = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let field = e.path().to_string();
        let inner = e.into_inner();
        if inner.is_syntax() || inner.is_eof() {
            one(file, "file", "-", format!("malformed JSON: {inner}"))
        } else {
            one(file, "file", field, strip_position(&inner.to_string()))
        }
    })?;
    de.end()
        .map_err(|e| one(file, "file", "-", format!("malformed JSON: {e}")))?;
    Ok(value)
}

/// Parses a `{"data": [...]}` list. The fast path parses straight into `T`; when that fails the
/// file is parsed again item by item so that the error names the item (by `id_field`) and the field.
fn read_list<T: DeserializeOwned>(
    dir: &Path,
    file: &str,
    noun: &str,
    id_field: &str,
) -> Result<Vec<T>, LoadErrors> {
    parse_list(&read_bytes(dir, file)?, file, noun, id_field)
}

/// Parses the bytes of the list file `file`, as `read_list` does. Public so the fuzz targets and
/// their regression tests reach the parser without a directory on disk.
pub fn parse_list<T: DeserializeOwned>(
    bytes: &[u8],
    file: &str,
    noun: &str,
    id_field: &str,
) -> Result<Vec<T>, LoadErrors> {
    match serde_json::from_slice::<DataList<T>>(bytes) {
        Ok(list) => Ok(list.data),
        Err(e) if e.is_syntax() || e.is_eof() => {
            Err(one(file, "file", "-", format!("malformed JSON: {e}")))
        }
        Err(first) => Err(locate_item_error::<T>(bytes, file, noun, id_field, first)),
    }
}

fn locate_item_error<T: DeserializeOwned>(
    bytes: &[u8],
    file: &str,
    noun: &str,
    id_field: &str,
    first: serde_json::Error,
) -> LoadErrors {
    let Ok(root) = serde_json::from_slice::<Value>(bytes) else {
        return one(file, "file", "-", format!("malformed JSON: {first}"));
    };
    let Some(items) = root.get("data").and_then(Value::as_array) else {
        return one(file, "file", "data", "missing: expected {\"data\": [...]}");
    };
    let mut errors = LoadErrors::default();
    for (i, item) in items.iter().enumerate() {
        if let Err(e) = serde_path_to_error::deserialize::<_, T>(item) {
            let id = match item.get(id_field) {
                Some(Value::Number(n)) => format!("{noun} {n}"),
                Some(Value::String(s)) => format!("{noun} {s}"),
                Some(Value::Object(o)) => format!(
                    "{noun} {}",
                    o.get("variant_id")
                        .map(|v| v.to_string())
                        .unwrap_or_else(|| format!("at index {i}"))
                ),
                _ => format!("{noun} at index {i}"),
            };
            let path = e.path().to_string();
            errors.push(LoadError::new(
                file,
                id,
                if path == "." { "-".into() } else { path },
                strip_position(&e.into_inner().to_string()),
            ));
        }
    }
    if errors.is_empty() {
        errors.push(LoadError::new(
            file,
            "file",
            "-",
            strip_position(&first.to_string()),
        ));
    }
    errors
}

/// serde_json appends " at line 1 column 40" for values parsed from a `Value`, which is noise there.
fn strip_position(message: &str) -> String {
    match message.find(" at line ") {
        Some(i) => message[..i].to_string(),
        None => message.to_string(),
    }
}

fn read_content(dir: &Path) -> Result<Vec<ContentSource>, LoadErrors> {
    let content_dir = dir.join("content");
    let mut files: Vec<PathBuf> = match std::fs::read_dir(&content_dir) {
        Ok(entries) => entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect(),
        Err(e) => {
            return Err(one(
                "content/",
                "directory",
                "-",
                format!("cannot be read: {e}"),
            ));
        }
    };
    files.sort();
    let mut errors = LoadErrors::default();
    let mut out = Vec::new();
    for path in files {
        let name = format!(
            "content/{}",
            path.file_name().unwrap_or_default().to_string_lossy()
        );
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) => {
                errors.push(LoadError::new(
                    &name,
                    "file",
                    "-",
                    format!("cannot be read: {e}"),
                ));
                continue;
            }
        };
        match parse_content_file(&name, &bytes) {
            Ok(sources) => out.extend(sources),
            Err(e) => errors.extend(e),
        }
    }
    errors.into_result(out)
}

/// Parses one content file (`content/{market}.json`, a delivery API page) named `name` into its
/// items. Public so the fuzz targets and their regression tests reach it without a directory.
pub fn parse_content_file(name: &str, bytes: &[u8]) -> Result<Vec<ContentSource>, LoadErrors> {
    match serde_json::from_slice::<RawContentPage>(bytes) {
        Ok(page) => Ok(page
            .responses
            .into_iter()
            .map(|r| ContentSource {
                file: name.to_string(),
                item: r.content,
            })
            .collect()),
        Err(e) if e.is_syntax() || e.is_eof() => {
            Err(one(name, "file", "-", format!("malformed JSON: {e}")))
        }
        Err(e) => Err(one(
            name,
            "file",
            "responses",
            format!(
                "expected a delivery API page {{\"responses\": [{{\"content\": ...}}]}}: {}",
                strip_position(&e.to_string())
            ),
        )),
    }
}
