//! The colour and size facets of a listing as its static page prints them.

use domain::catalog::{Catalog, OptionKind};
use serde_json::json;
use std::collections::BTreeMap;

/// Colour and size facet counts over a listing's products: how many products offer each value.
pub fn facets(catalog: &Catalog, members: &[usize]) -> serde_json::Value {
    let mut colours: BTreeMap<String, (Option<String>, usize)> = BTreeMap::new();
    let mut sizes: Vec<(String, usize)> = Vec::new();
    for &pi in members {
        let p = &catalog.products[pi];
        for c in &p.colourways {
            let e = colours
                .entry(c.label.clone())
                .or_insert((c.swatch.clone(), 0));
            e.1 += 1;
        }
        if let Some(o) = p.option(OptionKind::Size) {
            for v in &o.values {
                match sizes.iter_mut().find(|(l, _)| *l == v.label) {
                    Some(e) => e.1 += 1,
                    None => sizes.push((v.label.clone(), 1)),
                }
            }
        }
    }
    json!({
        "colours": colours.into_iter().map(|(label, (swatch, count))| json!({"label": label, "swatch": swatch, "count": count})).collect::<Vec<_>>(),
        "sizes": sizes.into_iter().map(|(label, count)| json!({"label": label, "count": count})).collect::<Vec<_>>(),
    })
}
