//! Every table of the API has one owning module, the only one that writes it, read from the
//! source text of `api/src`; a file's `#[cfg(test)] mod tests` is left out (test code may reach
//! anywhere). That no modules import each other in a cycle is checked for every crate by
//! `scripts/check-module-cycles`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The module that owns each table: the only one with an `INSERT INTO`, `UPDATE` or `DELETE FROM`
/// of it. A write to a table missing here fails the test, so a new table gets its owner here.
const OWNERS: &[(&str, &str)] = &[
    ("address", "account/address.rs"),
    ("cart", "cart/mod.rs"),
    ("cart_item", "cart/mod.rs"),
    ("cart_promotion", "bag.rs"),
    ("catalog_meta", "catalog.rs"),
    ("catalog_variant", "catalog.rs"),
    ("checkout", "checkout/record.rs"),
    ("customer", "account/mod.rs"),
    ("daemon_status", "webhooks/status.rs"),
    ("customer_form_field", "account/mod.rs"),
    ("express_checkout", "checkout/express.rs"),
    ("inventory", "inventory.rs"),
    ("marketing_consent", "marketing.rs"),
    ("outbox", "mail/outbox.rs"),
    ("password_reset", "auth/reset.rs"),
    ("rate_window", "rate_limit.rs"),
    ("pending_registration", "auth/confirmation.rs"),
    ("known_device", "auth/devices.rs"),
    ("schema_migrations", "store.rs"),
    ("search_blob", "search/distribution.rs"),
    ("search_generation_file", "search/distribution.rs"),
    ("search_live", "search/distribution.rs"),
    ("search_query", "search_index/popular.rs"),
    ("session", "session.rs"),
    ("shop_order", "checkout/orders.rs"),
    ("shop_order_line", "checkout/orders.rs"),
    ("stock_notification", "marketing.rs"),
    ("webhook_delivery", "webhooks/replay.rs"),
    ("wishlist", "wishlist.rs"),
    ("wishlist_item", "wishlist.rs"),
];

/// One source file: its path under `api/src` (`cart/view.rs`) and the contents of its string
/// literals (outside comments).
struct Source {
    file: String,
    strings: Vec<String>,
}

fn sources() -> Vec<Source> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut paths = Vec::new();
    walk(&root, &mut paths);
    paths.sort();
    paths
        .iter()
        .map(|path| {
            let file = path.strip_prefix(&root).unwrap().to_string_lossy();
            let text = std::fs::read_to_string(path).unwrap();
            let (_, strings) = lex(without_tests(&text));
            Source {
                file: file.replace('\\', "/"),
                strings,
            }
        })
        .collect()
}

/// The text before the file's `#[cfg(test)] mod tests`, which closes a file when it has one.
fn without_tests(text: &str) -> &str {
    text.match_indices("#[cfg(test)]")
        .find(|(at, attr)| {
            text[at + attr.len()..]
                .trim_start()
                .starts_with("mod tests")
        })
        .map_or(text, |(at, _)| &text[..at])
}

/// Splits source text into code, with comments removed and string and char literals blanked,
/// and the string literals' contents.
fn lex(text: &str) -> (String, Vec<String>) {
    let (mut code, mut strings) = (String::new(), Vec::new());
    let mut i = 0;
    while i < text.len() {
        let rest = &text[i..];
        let after_ident = text[..i]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_');
        if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
        } else if rest.starts_with("/*") {
            i += rest.find("*/").map_or(rest.len(), |end| end + 2);
        } else if !after_ident && (rest.starts_with("r\"") || rest.starts_with("r#")) {
            // A raw string r"…" or r#"…"#; r#ident is a raw identifier.
            let hashes = rest[1..].len() - rest[1..].trim_start_matches('#').len();
            if rest[1 + hashes..].starts_with('"') {
                let open = 2 + hashes;
                let close = format!("\"{}", "#".repeat(hashes));
                let end = open + rest[open..].find(&close).unwrap();
                strings.push(rest[open..end].to_string());
                code.push_str("\"\"");
                i += end + close.len();
            } else {
                code.push_str(&rest[..1 + hashes]);
                i += 1 + hashes;
            }
        } else if rest.starts_with('"') {
            let mut chars = rest.char_indices().skip(1);
            let mut end = rest.len();
            while let Some((at, c)) = chars.next() {
                match c {
                    '\\' => {
                        chars.next();
                    }
                    '"' => {
                        end = at;
                        break;
                    }
                    _ => {}
                }
            }
            strings.push(rest[1..end].to_string());
            code.push_str("\"\"");
            i += end + 1;
        } else if let Some(body) = rest.strip_prefix('\'') {
            // A char literal ('x', '\n', '\u{..}') is blanked; a lifetime ('a) stays.
            let len = if body.starts_with('\\') {
                // Past the backslash and the escaped character, to the closing quote.
                body.get(2..).and_then(|b| b.find('\'')).map(|end| end + 4)
            } else {
                let c = body.chars().next().map_or(0, char::len_utf8);
                body[c..].starts_with('\'').then_some(c + 2)
            };
            code.push_str(if len.is_some() { "' '" } else { "'" });
            i += len.unwrap_or(1);
        } else {
            let c = rest.chars().next().unwrap();
            code.push(c);
            i += c.len_utf8();
        }
    }
    (code, strings)
}

#[test]
fn every_table_is_written_by_its_owner_only() {
    let owners: BTreeMap<&str, &str> = OWNERS.iter().copied().collect();
    let (mut wrong, mut written) = (Vec::new(), BTreeSet::new());
    for source in sources() {
        for sql in &source.strings {
            for keyword in ["INSERT INTO ", "UPDATE ", "DELETE FROM "] {
                for (at, _) in sql.match_indices(keyword) {
                    let table: String = sql[at + keyword.len()..]
                        .trim_start()
                        .chars()
                        .take_while(|c| c.is_ascii_lowercase() || *c == '_' || *c == '{')
                        .collect();
                    // `FOR UPDATE SKIP LOCKED`, `DO UPDATE SET`: keywords, not a write to a table.
                    if table.is_empty() {
                        continue;
                    }
                    match owners.get(table.as_str()) {
                        Some(owner) if *owner == source.file => {
                            written.insert(table);
                        }
                        Some(owner) => wrong.push(format!(
                            "{} writes {table}, which {owner} owns",
                            source.file
                        )),
                        None => wrong.push(format!(
                            "{} writes {table}, which has no owner in OWNERS",
                            source.file
                        )),
                    }
                }
            }
        }
    }
    for (table, owner) in OWNERS {
        if !written.contains(*table) {
            wrong.push(format!("{owner} owns {table} but writes it nowhere"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
