//! The shape of `api/src`, read from its source text: the modules do not import each other in a
//! cycle, and every table has one owning module, the only one that writes it. Each file is a
//! module; a file's `#[cfg(test)] mod tests` is left out (test code may reach anywhere).

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

/// One source file: its path under `api/src` (`cart/view.rs`), its code with comments removed
/// and literals blanked, and the contents of its string literals.
struct Source {
    file: String,
    code: String,
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
            let (code, strings) = lex(without_tests(&text));
            Source {
                file: file.replace('\\', "/"),
                code,
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

/// The module path of a file: `cart/mod.rs` is `cart`, `cart/view.rs` is `cart::view`, `lib.rs`
/// the crate root (empty).
fn module_of(file: &str) -> Vec<String> {
    let mut path: Vec<String> = file
        .trim_end_matches(".rs")
        .split('/')
        .map(str::to_string)
        .collect();
    if matches!(path.last().map(String::as_str), Some("mod" | "lib")) {
        path.pop();
    }
    path
}

/// The paths a `use` tree names, with the name each is bound to: `a::{b, c::{self, d as e}}` is
/// `a::b` (b), `a::c` (c), `a::c::d` (e).
fn expand_use(tree: &str) -> Vec<(Vec<String>, String)> {
    let tree = tree.split_whitespace().collect::<Vec<_>>().join(" ");
    let Some(open) = tree.find('{') else {
        let (path, alias) = match tree.split_once(" as ") {
            Some((path, alias)) => (path, Some(alias.trim())),
            None => (tree.as_str(), None),
        };
        if path.trim_start().starts_with("::") {
            // `::x`: an outside crate, not one of ours.
            return Vec::new();
        }
        let mut segments: Vec<String> = path
            .split("::")
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect();
        if segments.last().is_some_and(|s| s == "self") {
            segments.pop();
        }
        let name = alias
            .map(str::to_string)
            .or_else(|| segments.last().cloned())
            .unwrap_or_default();
        return vec![(segments, name)];
    };
    let (prefix, inner) = (&tree[..open], &tree[open + 1..tree.rfind('}').unwrap()]);
    let (mut out, mut depth, mut start) = (Vec::new(), 0, 0);
    for (i, c) in inner.char_indices().chain([(inner.len(), ',')]) {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                let part = inner[start..i].trim();
                if !part.is_empty() {
                    out.extend(expand_use(&format!("{prefix}{part}")));
                }
                start = i + 1;
            }
            _ => {}
        }
    }
    out
}

/// Every `a::b::c` path in code that does not continue another path (`x::a::b` gives one path).
fn paths_in(code: &str) -> Vec<Vec<String>> {
    let is_path_char = |c: char| c.is_alphanumeric() || c == '_' || c == ':';
    let mut out = Vec::new();
    let mut i = 0;
    while i < code.len() {
        let rest = &code[i..];
        let len = rest.find(|c: char| !is_path_char(c)).unwrap_or(rest.len());
        if len == 0 {
            i += rest.chars().next().map_or(1, char::len_utf8);
            continue;
        }
        let segments: Vec<String> = rest[..len]
            .split("::")
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect();
        // `::x` is an outside crate, not one of ours.
        if segments.len() > 1 && !rest.starts_with("::") {
            out.push(segments);
        }
        i += len;
    }
    out
}

/// Which files each file refers to: through `crate::`, `super::`, `self::`, a child module's name
/// or a name it imported a module as.
fn import_graph() -> BTreeMap<String, BTreeSet<String>> {
    let sources = sources();
    let modules: BTreeMap<Vec<String>, String> = sources
        .iter()
        .map(|s| (module_of(&s.file), s.file.clone()))
        .collect();
    let file_of = |path: &[String]| -> String {
        // The longest prefix that is a module; the crate root at worst.
        (0..=path.len())
            .rev()
            .find_map(|n| modules.get(&path[..n]))
            .cloned()
            .expect("the crate root is a module")
    };
    let mut graph = BTreeMap::new();
    for source in &sources {
        let here = module_of(&source.file);
        let absolute = |path: &[String], names: &BTreeMap<String, Vec<String>>| {
            let (mut out, mut rest) = match path[0].as_str() {
                "crate" => (Vec::new(), &path[1..]),
                "self" => (here.clone(), &path[1..]),
                "super" => (here[..here.len().saturating_sub(1)].to_vec(), &path[1..]),
                name => (names.get(name)?.clone(), &path[1..]),
            };
            while rest.first().is_some_and(|s| s == "super") {
                out.pop();
                rest = &rest[1..];
            }
            out.extend(rest.iter().cloned());
            Some(out)
        };
        // Names that stand for a module here: the child modules (`mod x;`), then imported ones.
        let mut names: BTreeMap<String, Vec<String>> = source
            .code
            .split(';')
            .filter_map(|statement| {
                let words: Vec<&str> = statement.split_whitespace().collect();
                match words.as_slice() {
                    [.., "mod", name] => Some(name.to_string()),
                    _ => None,
                }
            })
            .map(|name| {
                let path = [here.clone(), vec![name.clone()]].concat();
                (name, path)
            })
            .collect();
        let mut referred: Vec<Vec<String>> = Vec::new();
        // The code outside `use` declarations, whose trees are read whole (the `a::` of
        // `use a::{b, c}` names no item of `a`).
        let mut other_code = String::new();
        let mut from = 0;
        for (at, _) in source.code.match_indices("use ") {
            let before = source.code[..at].chars().next_back();
            if at < from || before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let end = at + source.code[at..].find(';').unwrap();
            other_code.push_str(&source.code[from..at]);
            from = end;
            for (path, name) in expand_use(&source.code[at + 4..end]) {
                if path.is_empty() {
                    continue;
                }
                if let Some(full) = absolute(&path, &names) {
                    if modules.contains_key(&full) {
                        names.insert(name, full.clone());
                    }
                    referred.push(full);
                }
            }
        }
        other_code.push_str(&source.code[from..]);
        for path in paths_in(&other_code) {
            if let Some(full) = absolute(&path, &names) {
                referred.push(full);
            }
        }
        let targets: BTreeSet<String> = referred
            .iter()
            .map(|path| file_of(path))
            .filter(|file| *file != source.file)
            .collect();
        graph.insert(source.file.clone(), targets);
    }
    graph
}

/// A cycle of the graph, if it has one, as the files along it.
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit<'a>(
        node: &'a str,
        graph: &'a BTreeMap<String, BTreeSet<String>>,
        done: &mut BTreeSet<&'a str>,
        path: &mut Vec<&'a str>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|n| *n == node) {
            let mut cycle: Vec<String> = path[at..].iter().map(|n| n.to_string()).collect();
            cycle.push(node.to_string());
            return Some(cycle);
        }
        if !done.insert(node) {
            return None;
        }
        path.push(node);
        for next in &graph[node] {
            if let Some(cycle) = visit(next, graph, done, path) {
                return Some(cycle);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|node| visit(node, graph, &mut done, &mut Vec::new()))
}

#[test]
fn the_module_import_graph_has_no_cycle() {
    let graph = import_graph();
    // The reader must see the imports it is meant to see, or a cycle could hide from it.
    for (from, to) in [
        ("lib.rs", "state.rs"),
        ("cart/mod.rs", "bag.rs"),
        ("cart/mod.rs", "cart/view.rs"),
        ("checkout/payment.rs", "checkout/record.rs"),
        ("janitor.rs", "checkout/express.rs"),
    ] {
        assert!(
            graph[from].contains(to),
            "{from} -> {to}: {:?}",
            graph[from]
        );
    }
    let cycle = find_cycle(&graph);
    assert!(
        cycle.is_none(),
        "api/src modules import each other in a cycle: {}",
        cycle.unwrap_or_default().join(" -> ")
    );
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
