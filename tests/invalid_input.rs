//! Each kind of bad export gives a clear error naming the file, the item and the field, and a
//! failed build writes nothing: no site on a first build, the previous site untouched on a rebuild.

mod common;

use common::*;
use serde_json::json;

fn assert_mentions(err: &str, parts: &[&str]) {
    for p in parts {
        assert!(err.contains(p), "error should mention {p:?}:\n{err}");
    }
}

#[test]
fn missing_market_configuration() {
    let err = build_error(|e| {
        edit_json(e, "catalog/channels.json", |d| {
            d["data"]
                .as_array_mut()
                .unwrap()
                .retain(|c| c["id"] != 1421371)
        })
    });
    assert_mentions(
        &err,
        &[
            "catalog/channels.json",
            "market us",
            "missing market configuration",
        ],
    );
}

#[test]
fn product_without_variants() {
    let err = build_error(|e| {
        edit_json(e, "catalog/products.json", |d| {
            d["data"][0]["variants"] = json!([])
        })
    });
    assert_mentions(
        &err,
        &[
            "catalog/products.json",
            "product ",
            ": variants: a product needs at least one variant",
        ],
    );
}

#[test]
fn variant_pointing_at_an_unknown_option_value() {
    let mut id = 0;
    let err = build_error(|e| {
        edit_json(e, "catalog/products.json", |d| {
            id = d["data"][3]["id"].as_u64().unwrap();
            d["data"][3]["variants"][1]["option_values"][0]["id"] = json!(999_999);
        })
    });
    assert_mentions(
        &err,
        &[
            "catalog/products.json",
            &format!("product {id}"),
            "variants[1].option_values[0].id",
            "unknown option value 999999",
        ],
    );
}

#[test]
fn unknown_category_parent() {
    let err = build_error(|e| {
        edit_json(e, "catalog/categories.json", |d| {
            d["data"][1]["parent_id"] = json!(424242)
        })
    });
    assert_mentions(
        &err,
        &[
            "catalog/categories.json",
            "parent_id",
            "unknown parent category 424242",
        ],
    );
}

#[test]
fn category_cycle() {
    let err = build_error(|e| {
        edit_json(e, "catalog/categories.json", |d| {
            let cats = d["data"].as_array_mut().unwrap();
            let root = cats.iter().position(|c| c["parent_id"] == 0).unwrap();
            let root_id = cats[root]["id"].clone();
            let child = cats.iter().find(|c| c["parent_id"] == root_id).unwrap()["id"].clone();
            cats[root]["parent_id"] = child;
        })
    });
    assert_mentions(&err, &["catalog/categories.json", "category cycle"]);
}

#[test]
fn two_pages_wanting_the_same_path() {
    let err = build_error(|e| {
        edit_json(e, "content/uk.json", |d| {
            let responses = d["responses"].as_array_mut().unwrap();
            let mut copy = responses
                .iter()
                .find(|r| r["content"]["_meta"]["deliveryKey"] == "uk/about-us")
                .unwrap()
                .clone();
            copy["content"]["_meta"]["deliveryKey"] = json!("uk/bag");
            copy["content"]["_meta"]["deliveryId"] = json!("dup-bag-page");
            responses.push(copy);
        })
    });
    assert_mentions(
        &err,
        &[
            "content/",
            "content item dup-bag-page",
            "_meta.deliveryKey",
            "/bag",
        ],
    );
}

#[test]
fn two_content_items_with_the_same_key() {
    let err = build_error(|e| {
        edit_json(e, "content/eu.json", |d| {
            let responses = d["responses"].as_array_mut().unwrap();
            let mut copy = responses
                .iter()
                .find(|r| r["content"]["_meta"]["deliveryKey"] == "eu/about-us")
                .unwrap()
                .clone();
            copy["content"]["_meta"]["deliveryId"] = json!("second-about");
            responses.push(copy);
        })
    });
    assert_mentions(
        &err,
        &[
            "content/eu.json",
            "content item second-about",
            "_meta.deliveryKey",
            "\"eu/about-us\" is also the key",
        ],
    );
}

#[test]
fn malformed_json_names_the_file_line_and_column() {
    let err = build_error(|e| {
        let path = e.join("catalog/inventory.json");
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, &text[..text.len() / 2]).unwrap();
    });
    assert_mentions(&err, &["catalog/inventory.json", "malformed JSON", "line"]);
}

#[test]
fn a_wrong_type_names_the_item_and_field() {
    let err = build_error(|e| {
        edit_json(e, "catalog/products.json", |d| {
            d["data"][2]["variants"][0]["id"] = json!("not-a-number")
        })
    });
    assert_mentions(
        &err,
        &["catalog/products.json", "variants[0].id", "invalid type"],
    );
}

#[test]
fn a_missing_price_names_the_variant_and_currency() {
    let err = build_error(|e| {
        edit_json(e, "catalog/price-lists.json", |d| {
            d["data"].as_array_mut().unwrap().remove(0);
        })
    });
    assert_mentions(
        &err,
        &[
            "catalog/products.json",
            "has no",
            "price in catalog/price-lists.json",
        ],
    );
}

#[test]
fn all_problems_are_reported_together() {
    let err = build_error(|e| {
        edit_json(e, "catalog/products.json", |d| {
            d["data"][0]["variants"] = json!([])
        });
        edit_json(e, "catalog/categories.json", |d| {
            d["data"][1]["parent_id"] = json!(424242)
        });
    });
    assert_mentions(
        &err,
        &[
            "a product needs at least one variant",
            "unknown parent category 424242",
        ],
    );
}

#[test]
fn the_cli_exits_non_zero_and_prints_the_error() {
    let site = copied_sample();
    edit_json(&site.export, "catalog/products.json", |d| {
        d["data"][0]["variants"] = json!([])
    });
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_storefront"))
        .current_dir(repo())
        .args(["build", "--export"])
        .arg(&site.export)
        .arg("--out")
        .arg(site.public())
        .arg("--cache")
        .arg(site.dir.path().join("cache"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("catalog/products.json")
            && stderr.contains("a product needs at least one variant"),
        "{stderr}"
    );
    assert!(!site.public().exists());
}

#[test]
fn a_failed_rebuild_leaves_the_live_site_unchanged() {
    let site = copied_sample();
    site.build().unwrap();
    let live = site.live();
    let before = snapshot_files(&site.public());
    edit_json(&site.export, "catalog/categories.json", |d| {
        d["data"][1]["parent_id"] = json!(424242)
    });
    assert!(site.build().is_err());
    assert_eq!(
        site.live(),
        live,
        "public still points at the same generation"
    );
    assert_eq!(
        snapshot_files(&site.public()),
        before,
        "no file of the live site changed"
    );
}

/// The error lines of a failed build that mention `file`.
fn lines_about<'a>(err: &'a str, file: &str) -> Vec<&'a str> {
    err.lines().filter(|l| l.contains(file)).collect()
}

#[test]
fn a_bad_price_list_price_is_reported_against_the_price_list_record_and_field() {
    let err = build_error(|e| {
        edit_json(e, "catalog/price-lists.json", |d| {
            d["data"][0]["price"] = json!(-5.0);
            d["data"][1]["sale_price"] = json!(1.7e308);
        })
    });
    let prices = lines_about(&err, "catalog/price-lists.json: price record");
    assert_eq!(prices.len(), 2, "{err}");
    assert_mentions(
        prices[0],
        &[
            "price record 0 (variant 10001)",
            ": price: is negative (-5)",
        ],
    );
    assert_mentions(
        prices[1],
        &[
            "price record 1 (variant 10001)",
            ": sale_price: is implausibly large (1.7e308;",
        ],
    );
    assert!(
        !err.contains("catalog/products.json"),
        "nothing is blamed on the products:\n{err}"
    );
    assert!(err.len() < 600, "no 309-digit numbers:\n{err}");
}

#[test]
fn a_bad_uk_price_on_a_product_names_the_product_and_field() {
    let err = build_error(|e| {
        edit_json(e, "catalog/products.json", |d| {
            d["data"][0]["price"] = json!(1e300)
        })
    });
    assert_mentions(
        &err,
        &[
            "catalog/products.json: product ",
            ": price: is implausibly large (1e300;",
        ],
    );
}

#[test]
fn over_long_names_and_paths_are_refused_at_load_with_a_short_error() {
    let err = build_error(|e| {
        edit_json(e, "catalog/products.json", |d| {
            d["data"][0]["name"] = json!("Dress ".repeat(50));
            d["data"][1]["name"] = json!("x".repeat(10 << 20));
        });
        edit_json(e, "catalog/categories.json", |d| {
            let url = d["data"][0]["url"].as_str().unwrap().to_string();
            d["data"][0]["url"] =
                json!(format!("{}{}/", url.trim_end_matches('/'), "a".repeat(300)));
        });
        edit_json(e, "content/uk.json", |d| {
            let page = d["responses"]
                .as_array_mut()
                .unwrap()
                .iter_mut()
                .find(|r| r["content"]["_meta"]["deliveryKey"] == "uk/about-us")
                .unwrap();
            page["content"]["_meta"]["deliveryKey"] = json!(format!("uk/{}", "b".repeat(256)));
        });
    });
    let names = lines_about(&err, ": name: is ");
    assert_eq!(names.len(), 2, "{err}");
    assert_mentions(
        names[0],
        &[
            "catalog/products.json: product ",
            "is 300 characters long; the most is 200",
        ],
    );
    assert_mentions(
        names[1],
        &["is 10485760 characters long; the most is 200", "… ("],
    );
    assert_mentions(
        &err,
        &[
            "catalog/categories.json: category ",
            ": url: makes the path segment",
        ],
    );
    assert_mentions(
        &err,
        &[
            "content/uk.json",
            "_meta.deliveryKey: makes the path segment 256 bytes",
        ],
    );
    assert!(err.len() < 4000, "error lines quote values short:\n{err}");
}
