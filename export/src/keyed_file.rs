//! An export file's `{"data": [...]}` items keyed by the id that picks them, kept between webhook
//! rebuilds and, after an edit, re-keyed by parsing only the items the edit changed: the rest
//! are found by comparing bytes.
//!
//! Why: the catalog files of a 10k-product export are ~125 MB of JSON, and keying all of them
//! again for a webhook that names one product cost ~0.6 s of the 1 s budget (docs/decisions.md,
//! "A rebuild redoes only what its change touched"). Comparing the new bytes with the kept ones
//! costs a few milliseconds.

use rayon::prelude::*;
use serde::Deserialize;
use serde_json::Value;
use serde_json::value::RawValue;
use std::ops::Range;

use crate::error::FetchError;

/// The fields that pick a catalog record: a product's `id`, a price record's `variant_id`, an
/// inventory record's `identity.variant_id`. Everything else in the record is skipped unparsed.
#[derive(Deserialize)]
pub struct RecordKey {
    pub id: Option<u64>,
    variant_id: Option<u64>,
    identity: Option<VariantIdentity>,
}

#[derive(Deserialize)]
struct VariantIdentity {
    variant_id: Option<u64>,
}

impl RecordKey {
    /// A price record's or a stock record's variant.
    pub fn variant(&self) -> Option<u64> {
        self.variant_id
            .or(self.identity.as_ref().and_then(|i| i.variant_id))
    }
}

/// Which field of a record is its key.
pub type KeyOf = fn(&RecordKey) -> Option<u64>;

/// `{"data": [...]}` with the items left as raw JSON borrowed from the file's bytes.
#[derive(Deserialize)]
struct RawDataList<'a> {
    #[serde(borrow)]
    data: Vec<&'a RawValue>,
}

/// How `KeyedFile::reread` got its items (the tests check that an edit was not a full parse).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rekeyed {
    /// The file had not changed.
    Unchanged,
    /// Only these many items, around the edit, were parsed.
    Edited { parsed: usize },
    /// The whole file was parsed.
    Whole,
}

/// The items of one export file, each with its key (`None` when it has none) and where it is in
/// the file, left unparsed: a webhook names a few items of files of tens of MB, and only those
/// are built as JSON values.
pub struct KeyedFile {
    file: &'static str,
    key: KeyOf,
    bytes: Vec<u8>,
    items: Vec<(Option<u64>, Range<usize>)>,
    /// Where the data array's closing `]` is, when it has items (an edit of an empty array is
    /// parsed whole).
    array_end: Option<usize>,
}

impl KeyedFile {
    fn error(&self, why: String) -> FetchError {
        FetchError {
            source_name: self.file.to_string(),
            why,
        }
    }

    /// Parses all of `bytes` (the keys are parsed in parallel).
    pub fn parse(file: &'static str, key: KeyOf, bytes: Vec<u8>) -> Result<Self, FetchError> {
        let mut keyed = KeyedFile {
            file,
            key,
            bytes: Vec::new(),
            items: Vec::new(),
            array_end: None,
        };
        let list: RawDataList = serde_json::from_slice(&bytes)
            .map_err(|e| keyed.error(format!("malformed JSON: {e}")))?;
        let base = bytes.as_ptr() as usize;
        keyed.items = list
            .data
            .par_iter()
            .enumerate()
            .map(|(i, raw)| {
                let start = raw.get().as_ptr() as usize - base;
                Ok((keyed.key_of(i, raw)?, start..start + raw.get().len()))
            })
            .collect::<Result<Vec<_>, FetchError>>()?;
        keyed.array_end = keyed
            .items
            .last()
            .map(|(_, last)| skip_whitespace(&bytes, last.end));
        keyed.bytes = bytes;
        Ok(keyed)
    }

    fn key_of(&self, index: usize, raw: &RawValue) -> Result<Option<u64>, FetchError> {
        let k: RecordKey = serde_json::from_str(raw.get())
            .map_err(|e| self.error(format!("data[{index}]: id, variant_id or identity: {e}")))?;
        Ok((self.key)(&k))
    }

    /// The file as it is now, given its new bytes: the items of the unchanged start and end are
    /// kept, and only those in between are parsed. Anything the edit makes unclear (the first
    /// item changed, the array's end moved, malformed JSON) is parsed whole, which also gives
    /// the error that names the item.
    pub fn reread(&self, bytes: Vec<u8>) -> Result<(Self, Rekeyed), FetchError> {
        if bytes == self.bytes {
            let same = KeyedFile {
                bytes,
                items: self.items.clone(),
                ..*self
            };
            return Ok((same, Rekeyed::Unchanged));
        }
        match self.edited_items(&bytes) {
            Some((items, array_end, parsed)) => Ok((
                KeyedFile {
                    bytes,
                    items,
                    array_end: Some(array_end),
                    ..*self
                },
                Rekeyed::Edited { parsed },
            )),
            None => Ok((Self::parse(self.file, self.key, bytes)?, Rekeyed::Whole)),
        }
    }

    /// The items of `new` (with the array's end and how many items were parsed), found by
    /// walking the data array from the last item before the first changed byte: wherever the
    /// old items carry on byte for byte they are kept (moved), and only the items between such
    /// runs are parsed. An item's bytes and the parser's state at its start (an item of the data
    /// array) being the old ones, it parses as it did. `None` leaves it to a whole parse.
    #[allow(clippy::type_complexity)]
    fn edited_items(&self, new: &[u8]) -> Option<(Vec<(Option<u64>, Range<usize>)>, usize, usize)> {
        let prefix = common_prefix(&self.bytes, new);
        // Kept when the byte after the item is unchanged too, so that it ends where it did (a
        // number could otherwise go on). The first item is never kept this way: the walk must
        // start right after a kept item.
        let kept = self.items.partition_point(|(_, r)| r.end < prefix);
        if kept == 0 {
            return None;
        }
        let mut items = self.items[..kept].to_vec();
        // The old item the next new one is most likely to repeat.
        let mut next_old = kept;
        let mut parsed = 0;
        let mut pos = self.items[kept - 1].1.end;
        loop {
            pos = skip_whitespace(new, pos);
            match new.get(pos)? {
                b']' => return self.rest_is_valid(new, pos).then_some((items, pos, parsed)),
                b',' => pos = skip_whitespace(new, pos + 1),
                _ => return None,
            }
            if let Some(run) = self.repeated_run(new, pos, next_old) {
                let (from, to) = (run.start, run.end);
                let old_start = self.items[from].1.start;
                items.extend(
                    self.items[run]
                        .iter()
                        .map(|(k, r)| (*k, r.start - old_start + pos..r.end - old_start + pos)),
                );
                pos += self.items[to - 1].1.end - old_start;
                next_old = to;
                continue;
            }
            let mut de = serde_json::Deserializer::from_slice(&new[pos..]);
            let raw = <&RawValue>::deserialize(&mut de).ok()?;
            let key = self.key_of(items.len(), raw).ok()?;
            let start = raw.get().as_ptr() as usize - new.as_ptr() as usize;
            pos = start + raw.get().len();
            items.push((key, start..pos));
            parsed += 1;
            // A new version of the old item expected here: the next new item is compared with
            // the one after it. Otherwise it was inserted, and the old item is still expected.
            if key.is_some() && self.items.get(next_old).is_some_and(|(k, _)| *k == key) {
                next_old += 1;
            }
        }
    }

    /// The old items that `new` repeats byte for byte from `pos` (an item's start): the run
    /// begins at the first of the `LOOKAHEAD` old items from `next_old` found there (those
    /// skipped were deleted) and goes on while the bytes are the same.
    fn repeated_run(&self, new: &[u8], pos: usize, next_old: usize) -> Option<Range<usize>> {
        /// Deleted items are looked past this far; a bigger deletion is parsed to its end.
        const LOOKAHEAD: usize = 64;
        let array_end = self.array_end?;
        let rest = &new[pos..];
        // With the byte after it, so that the item ends there in `new` too.
        let from = (next_old..self.items.len().min(next_old + LOOKAHEAD)).find(|&i| {
            rest.starts_with(&self.bytes[self.items[i].1.start..=self.items[i].1.end])
        })?;
        let old_start = self.items[from].1.start;
        let same = common_prefix(&self.bytes[old_start..=array_end], rest);
        let count = self.items[from..].partition_point(|(_, r)| r.end - old_start < same);
        Some(from..from + count)
    }

    /// Whether `new`, whose data array closes at `close`, is valid JSON of the export's shape
    /// after that: checked on a copy whose array is emptied (its start is the old file's).
    fn rest_is_valid(&self, new: &[u8], close: usize) -> bool {
        let Some((_, first)) = self.items.first() else {
            return false;
        };
        let open = self.bytes[..first.start]
            .iter()
            .rposition(|b| !b.is_ascii_whitespace());
        let Some(open) = open.filter(|&i| self.bytes[i] == b'[') else {
            return false;
        };
        let mut probe = Vec::with_capacity(open + 1 + new.len() - close);
        probe.extend_from_slice(&new[..=open]);
        probe.extend_from_slice(&new[close..]);
        serde_json::from_slice::<RawDataList>(&probe).is_ok()
    }

    /// The items whose key `wanted` accepts, as JSON values, in file order.
    pub fn matching(&self, wanted: impl Fn(u64) -> bool) -> Result<Vec<Value>, FetchError> {
        self.items
            .iter()
            .enumerate()
            .filter(|(_, (key, _))| key.is_some_and(&wanted))
            .map(|(i, (_, range))| {
                serde_json::from_slice(&self.bytes[range.clone()])
                    .map_err(|e| self.error(format!("data[{i}]: {e}")))
            })
            .collect()
    }
}

fn skip_whitespace(bytes: &[u8], mut pos: usize) -> usize {
    while bytes.get(pos).is_some_and(u8::is_ascii_whitespace) {
        pos += 1;
    }
    pos
}

fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    // Compared in blocks first: slice equality is a memcmp, far faster than a byte loop.
    const BLOCK: usize = 4096;
    let mut n = 0;
    while n + BLOCK <= a.len().min(b.len()) && a[n..n + BLOCK] == b[n..n + BLOCK] {
        n += BLOCK;
    }
    n + a[n..]
        .iter()
        .zip(&b[n..])
        .take_while(|(x, y)| x == y)
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    use serde_json::json;

    fn product(id: u64, text: &str) -> Value {
        json!({"id": id, "name": format!("Product {id}"), "description": text, "variants": [{"id": id * 10}]})
    }

    fn file_of(items: &[Value], pretty: bool) -> Vec<u8> {
        let doc = json!({"data": items, "meta": {"total": items.len()}});
        if pretty {
            serde_json::to_vec_pretty(&doc).unwrap()
        } else {
            serde_json::to_vec(&doc).unwrap()
        }
    }

    fn keyed(bytes: Vec<u8>) -> KeyedFile {
        KeyedFile::parse("catalog/products.json", |k| k.id, bytes).unwrap()
    }

    /// Rereads `after` over `before` and checks the result against a whole parse of `after`.
    fn reread(before: &[u8], after: Vec<u8>) -> Rekeyed {
        let (got, how) = keyed(before.to_vec()).reread(after.clone()).unwrap();
        let whole = keyed(after);
        assert_eq!(got.items, whole.items, "{how:?}");
        assert_eq!(got.array_end, whole.array_end, "{how:?}");
        assert_eq!(got.bytes, whole.bytes);
        how
    }

    fn catalog(n: u64) -> Vec<Value> {
        (1..=n).map(|id| product(id, "<p>plain</p>")).collect()
    }

    #[test]
    fn an_edit_in_the_middle_parses_only_the_items_it_touched() {
        let items = catalog(50);
        let before = file_of(&items, false);
        let mut edited = items.clone();
        edited[24] = product(25, "<p>a much longer description than before</p>");
        assert_eq!(
            reread(&before, file_of(&edited, false)),
            Rekeyed::Edited { parsed: 1 }
        );
        edited[24] = product(25, "x");
        assert_eq!(
            reread(&before, file_of(&edited, false)),
            Rekeyed::Edited { parsed: 1 }
        );
        let mut inserted = items.clone();
        inserted.insert(30, product(999, "new"));
        assert!(matches!(
            reread(&before, file_of(&inserted, false)),
            Rekeyed::Edited { parsed } if parsed <= 2
        ));
        let mut removed = items.clone();
        removed.remove(30);
        assert!(matches!(
            reread(&before, file_of(&removed, false)),
            Rekeyed::Edited { parsed } if parsed <= 1
        ));
        assert_eq!(reread(&before, before.clone()), Rekeyed::Unchanged);
    }

    #[test]
    fn edits_at_either_end_of_the_list_are_found() {
        let items = catalog(20);
        let before = file_of(&items, false);
        let mut last = items.clone();
        last[19] = product(20, "changed");
        assert!(matches!(
            reread(&before, file_of(&last, false)),
            Rekeyed::Edited { parsed: 1 }
        ));
        let mut appended = items.clone();
        appended.push(product(21, "new"));
        assert!(matches!(
            reread(&before, file_of(&appended, false)),
            Rekeyed::Edited { .. }
        ));
        let mut dropped = items.clone();
        dropped.pop();
        assert!(matches!(
            reread(&before, file_of(&dropped, false)),
            Rekeyed::Edited { parsed } if parsed <= 1
        ));
        // The first item has no kept item before it to resume after: parsed whole, still right.
        let mut first = items.clone();
        first[0] = product(1, "changed");
        assert_eq!(reread(&before, file_of(&first, false)), Rekeyed::Whole);
        assert_eq!(reread(&before, file_of(&[], false)), Rekeyed::Whole);
        assert_eq!(reread(&file_of(&[], false), before.clone()), Rekeyed::Whole);
    }

    #[test]
    fn text_that_looks_like_items_inside_a_string_does_not_misalign_the_keys() {
        let items = catalog(10);
        let before = file_of(&items, false);
        let mut tricky = items.clone();
        tricky[4] = product(5, r#"},{"id":77},{"id":6,"name":"Product 6"#);
        reread(&before, file_of(&tricky, false));
        let (got, _) = keyed(before).reread(file_of(&tricky, false)).unwrap();
        let ids: Vec<Option<u64>> = got.items.iter().map(|(k, _)| *k).collect();
        assert_eq!(ids, (1..=10).map(Some).collect::<Vec<_>>());
    }

    #[test]
    fn a_broken_edit_is_an_error_that_names_the_file() {
        let items = catalog(10);
        let before = file_of(&items, false);
        let mut broken = before.clone();
        let at = broken.len() / 2;
        broken.truncate(at);
        let err = keyed(before.clone()).reread(broken).err().unwrap();
        assert_eq!(err.source_name, "catalog/products.json");
        assert!(err.why.contains("malformed JSON"), "{}", err.why);
        let bad_id = String::from_utf8(before)
            .unwrap()
            .replace(r#""id":5,"#, r#""id":"five","#);
        let err = keyed(file_of(&items, false))
            .reread(bad_id.into_bytes())
            .err()
            .unwrap();
        assert!(err.why.contains("data[4]"), "{}", err.why);
    }

    #[test]
    fn random_edits_always_key_as_a_whole_parse_does() {
        let mut rng = StdRng::seed_from_u64(11);
        let mut items = catalog(40);
        let mut pretty = false;
        let mut bytes = file_of(&items, pretty);
        let mut file = keyed(bytes.clone());
        let mut edited = 0;
        for round in 0..300 {
            match rng.random_range(0..10) {
                0 => {
                    let at = rng.random_range(0..=items.len());
                    items.insert(at, product(1000 + round, "inserted"));
                }
                1 if items.len() > 1 => {
                    let at = rng.random_range(0..items.len());
                    items.remove(at);
                }
                2 => pretty = !pretty,
                _ if !items.is_empty() => {
                    let at = rng.random_range(0..items.len());
                    let id = items[at]["id"].as_u64().unwrap();
                    let text = "é\"]},".repeat(rng.random_range(0..4));
                    items[at] = product(id, &text);
                }
                _ => {}
            }
            bytes = file_of(&items, pretty);
            let (next, how) = file.reread(bytes.clone()).unwrap();
            let whole = keyed(bytes.clone());
            assert_eq!(next.items, whole.items, "round {round}: {how:?}");
            assert_eq!(next.array_end, whole.array_end, "round {round}");
            edited += usize::from(matches!(how, Rekeyed::Edited { .. }));
            file = next;
        }
        // Most edits are in the middle of the list: they must not have been parsed whole.
        assert!(
            edited > 150,
            "only {edited} of 300 edits were re-keyed in place"
        );
    }
}
