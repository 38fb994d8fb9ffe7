//! Incremental and atomic builds: no change writes nothing; a changed product rewrites exactly
//! the pages that show it; a removed product's pages are deleted; a template error or a killed
//! build leaves the live site intact.

mod common;

use common::*;
use std::collections::BTreeSet;

#[test]
fn a_rebuild_with_no_change_writes_no_file() {
    let site = copied_sample();
    site.build().unwrap();
    let live = site.live();
    let before = snapshot_files(&site.public());
    let report = site.build().unwrap();
    assert!(
        report.written.is_empty(),
        "wrote {:?}",
        &report.written[..report.written.len().min(5)]
    );
    assert!(report.deleted.is_empty());
    assert!(report.generation.is_none(), "no new generation");
    assert_eq!(site.live(), live);
    assert_eq!(snapshot_files(&site.public()), before);
}

/// Every directory under `root`, `root` itself left out.
fn directories_under(root: &std::path::Path) -> usize {
    std::fs::read_dir(root)
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().unwrap().is_dir())
        .map(|e| 1 + directories_under(&e.path()))
        .sum()
}

#[test]
fn a_cold_build_makes_each_directory_once() {
    let site = copied_sample();
    let cold = site.build().unwrap();
    // One mkdir per directory of the new generation, made before the writes; none per file
    // (a create_dir_all per file made one call for each of the 1,483 files).
    let dirs = directories_under(&site.live());
    assert!(dirs > 100, "{dirs}");
    assert_eq!(cold.dirs_created, dirs, "{} files", cold.written.len());
    // A rebuild with a change publishes a full generation again: the same, once each.
    edit_json(&site.export, "catalog/products.json", |doc| {
        doc["data"][0]["name"] = serde_json::json!("Renamed Dress");
    });
    let rebuilt = site.build().unwrap();
    assert!(!rebuilt.written.is_empty());
    assert_eq!(rebuilt.dirs_created, directories_under(&site.live()));
}

fn phase_names(report: &generator::BuildReport) -> Vec<&'static str> {
    report.phases.iter().map(|(name, _)| *name).collect()
}

#[test]
fn identical_inputs_stop_before_loading_and_any_changed_byte_takes_the_full_path() {
    let site = copied_sample();
    site.build().unwrap();
    let identical = site.build().unwrap();
    assert_eq!(phase_names(&identical), ["digest inputs (unchanged)"]);
    assert!(identical.written.is_empty() && identical.generation.is_none());
    assert!(
        identical.pages > 0,
        "the report still counts the live pages"
    );

    // A stock change: no page shows stock, so the full path runs, validates and writes nothing.
    edit_json(&site.export, "catalog/inventory.json", |doc| {
        let item = &mut doc["data"][0];
        item["allLocationsTotalAvailableToSell"] = serde_json::json!(123);
    });
    let stock_only = site.build().unwrap();
    let phases = phase_names(&stock_only);
    assert!(
        phases.contains(&"load") && phases.contains(&"plan"),
        "{phases:?}"
    );
    assert!(stock_only.written.is_empty(), "{:?}", stock_only.written);
    assert_eq!(stock_only.pages, identical.pages);
    // ...and is recorded, so the next identical build stops early again.
    assert_eq!(
        phase_names(&site.build().unwrap()),
        ["digest inputs (unchanged)"]
    );

    // A broken stock file is still refused with its file, item and field, and nothing changes.
    let live = site.live();
    edit_json(&site.export, "catalog/inventory.json", |doc| {
        doc["data"][0]["locations"] = serde_json::json!("none");
    });
    let err = site.build().unwrap_err().to_string();
    assert!(err.contains("catalog/inventory.json"), "{err}");
    assert_eq!(site.live(), live);
}

/// Pages of the live site whose HTML links to the product.
#[test]
fn identical_inputs_read_the_manifest_only_when_its_file_is_not_the_one_recorded() {
    let site = copied_sample();
    let cold = site.build().unwrap();
    let manifest_path = site.dir.path().join("cache/build-manifest.json");
    let original = std::fs::read(&manifest_path).unwrap();
    let written_at = std::fs::metadata(&manifest_path)
        .unwrap()
        .modified()
        .unwrap();
    // Overwritten in place with bytes that do not parse, same length and time: a build that
    // parsed the manifest would find no live tree and render everything again.
    let rewrite = |time: std::time::SystemTime| {
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(&manifest_path)
            .unwrap();
        std::io::Write::write_all(&mut &file, &vec![b' '; original.len()]).unwrap();
        file.set_modified(time).unwrap();
    };
    rewrite(written_at);
    let trusted = site.build().unwrap();
    assert_eq!(phase_names(&trusted), ["digest inputs (unchanged)"]);
    assert_eq!(trusted.pages, cold.pages);
    assert_eq!(trusted.unchanged, cold.written.len());
    // A different time means a different file: it is read, found unreadable, and the build
    // takes the full path and publishes a complete generation again.
    rewrite(written_at + std::time::Duration::from_secs(1));
    let read = site.build().unwrap();
    let phases = phase_names(&read);
    assert!(phases.contains(&"load"), "{phases:?}");
    assert_eq!(read.written.len(), cold.written.len());
    assert_same_as_a_fresh_build(&site);
}

/// An identical-inputs build reads no input file whose stamp is the recorded one; a file whose
/// bytes changed is read whatever its modification time says, and one only touched is read and
/// found the same.
#[test]
fn identical_inputs_are_not_read_while_their_stamps_are_the_recorded_ones() {
    let site = copied_sample();
    // Files the recording build reads within a second of being written are read again next time.
    std::thread::sleep(generator::input_digest::SETTLED + std::time::Duration::from_millis(100));
    let cold = site.build().unwrap();
    assert!(cold.inputs_read > 500, "read {}", cold.inputs_read);
    let again = site.build().unwrap();
    assert_eq!(phase_names(&again), ["digest inputs (unchanged)"]);
    assert_eq!(again.inputs_read, 0);

    // The same length and modification time, other bytes: its change time gives it away.
    let products = site.export.join("catalog/products.json");
    let text = std::fs::read_to_string(&products).unwrap();
    let modified = std::fs::metadata(&products).unwrap().modified().unwrap();
    let (name, renamed) = (
        r#""name": "Satin Slip Midi Dress""#,
        r#""name": "Satin Slip Midi Frock""#,
    );
    assert!(text.contains(name));
    std::fs::write(&products, text.replacen(name, renamed, 1)).unwrap();
    std::fs::File::options()
        .write(true)
        .open(&products)
        .unwrap()
        .set_modified(modified)
        .unwrap();
    let edited = site.build().unwrap();
    assert_eq!(edited.inputs_read, 1);
    assert!(phase_names(&edited).contains(&"load"));
    assert!(
        edited.written.iter().any(|f| f.starts_with("p/101/")),
        "the product's pages rewritten"
    );
    assert_same_as_a_fresh_build(&site);

    // Touched only: read, the same digest, nothing loaded.
    std::thread::sleep(generator::input_digest::SETTLED);
    let bytes = std::fs::read(&products).unwrap();
    std::fs::write(&products, bytes).unwrap();
    let touched = site.build().unwrap();
    assert_eq!(touched.inputs_read, 1);
    assert_eq!(phase_names(&touched), ["digest inputs (unchanged)"]);
}

fn pages_linking_to(site: &Site, product_id: u64) -> BTreeSet<String> {
    let needle = format!("/p/{product_id}/");
    snapshot_files(&site.public())
        .into_keys()
        .filter(|f| f.ends_with(".html"))
        .filter(|f| {
            std::fs::read_to_string(site.public().join(f))
                .unwrap()
                .contains(&needle)
        })
        .collect()
}

/// The sample store built, then one of its products edited by `edit` in the export (not yet
/// rebuilt): the site and the product's id.
fn built_then_product_edited(edit: impl FnOnce(&mut serde_json::Value)) -> (Site, u64) {
    let site = copied_sample();
    site.build().unwrap();
    let mut id = 0;
    edit_json(&site.export, "catalog/products.json", |d| {
        let p = &mut d["data"][5];
        id = p["id"].as_u64().unwrap();
        edit(p);
    });
    (site, id)
}

#[test]
fn one_changed_product_rewrites_exactly_the_pages_that_show_it() {
    let (site, id) = built_then_product_edited(|p| {
        p["price"] = serde_json::json!(p["price"].as_f64().unwrap() + 11.0);
    });
    let expected = pages_linking_to(&site, id);
    assert!(
        expected.iter().any(|p| p.contains(&format!("p/{id}/"))),
        "its own pages are expected"
    );
    assert!(
        expected.iter().any(|p| p.contains("browse/")),
        "listing pages that show it are expected"
    );
    let before = snapshot_files(&site.public());
    let own_page = expected
        .iter()
        .find(|p| p.starts_with(&format!("p/{id}/")))
        .unwrap()
        .clone();
    let own_before = std::fs::read_to_string(site.public().join(&own_page)).unwrap();
    let report = site.build().unwrap();
    let written: BTreeSet<String> = report.written.iter().cloned().collect();
    assert_eq!(
        written, expected,
        "rewritten pages = pages that show the product"
    );
    let after = snapshot_files(&site.public());
    for (file, inode) in &after {
        if !expected.contains(file) {
            assert_eq!(
                before.get(file),
                Some(inode),
                "{file} was carried over, not rewritten"
            );
        }
    }
    assert_ne!(
        std::fs::read_to_string(site.public().join(&own_page)).unwrap(),
        own_before,
        "its page shows the new price"
    );
}

/// Every file of a live tree with its bytes.
fn tree_contents(root: &std::path::Path) -> std::collections::BTreeMap<String, Vec<u8>> {
    snapshot_files(root)
        .into_keys()
        .filter(|f| f != "build-manifest.json")
        .map(|f| {
            let bytes = std::fs::read(root.join(&f)).unwrap();
            (f, bytes)
        })
        .collect()
}

#[test]
fn a_changed_description_rewrites_only_the_products_own_pages() {
    let (site, id) = built_then_product_edited(|p| {
        p["description"] = serde_json::json!("<p>A description edited for this test.</p>");
    });
    let shown_on = pages_linking_to(&site, id);
    assert!(
        shown_on.iter().any(|p| p.contains("browse/")),
        "its card is on listing pages, which a description does not touch"
    );
    let report = site.build().unwrap();
    let written: BTreeSet<String> = report.written.iter().cloned().collect();
    let own: BTreeSet<String> = shown_on
        .iter()
        .filter(|p| {
            p.split('/')
                .skip_while(|s| *s == "us" || *s == "eu")
                .take(2)
                .eq(["p", id.to_string().as_str()])
        })
        .cloned()
        .collect();
    assert!(!own.is_empty());
    assert_eq!(written, own, "only the product's own pages are rewritten");
    assert!(
        site.read(&format!(
            "/{}",
            own.first().unwrap().trim_end_matches("index.html")
        ))
        .contains("A description edited for this test.")
    );

    assert_same_as_a_fresh_build(&site);
}

/// What was carried over is what a full build of the same export writes, byte for byte.
fn assert_same_as_a_fresh_build(site: &Site) {
    let fresh = Site {
        dir: tempfile::tempdir().unwrap(),
        export: site.export.clone(),
    };
    fresh.build().unwrap();
    let (incremental, full) = (
        tree_contents(&site.public()),
        tree_contents(&fresh.public()),
    );
    assert_eq!(
        incremental.keys().collect::<Vec<_>>(),
        full.keys().collect::<Vec<_>>()
    );
    for (file, bytes) in &full {
        assert!(
            incremental[file] == *bytes,
            "{file} differs from a full build"
        );
    }
}

/// Removes the eighth product from the export, with its collection memberships and stock, as
/// a deleted product leaves it; answers its id.
fn remove_product(site: &Site) -> u64 {
    let mut id = 0;
    edit_json(&site.export, "catalog/products.json", |d| {
        let removed = d["data"].as_array_mut().unwrap().remove(7);
        id = removed["id"].as_u64().unwrap();
    });
    edit_json(&site.export, "catalog/collections.json", |d| {
        for c in d["data"].as_array_mut().unwrap() {
            c["product_ids"]
                .as_array_mut()
                .unwrap()
                .retain(|p| p.as_u64() != Some(id));
        }
    });
    edit_json(&site.export, "catalog/inventory.json", |d| {
        let products: serde_json::Value = serde_json::from_slice(
            &std::fs::read(site.export.join("catalog/products.json")).unwrap(),
        )
        .unwrap();
        let live: std::collections::HashSet<u64> = products["data"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|p| {
                p["variants"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v["id"].as_u64().unwrap())
            })
            .collect();
        d["data"]
            .as_array_mut()
            .unwrap()
            .retain(|i| live.contains(&i["identity"]["variant_id"].as_u64().unwrap()));
    });
    id
}

#[test]
fn a_removed_product_has_its_pages_deleted() {
    let site = copied_sample();
    site.build().unwrap();
    let id = remove_product(&site);
    let own_pages: Vec<String> = snapshot_files(&site.public())
        .into_keys()
        .filter(|f| f.contains(&format!("p/{id}/")))
        .collect();
    assert!(
        own_pages.len() >= 3,
        "the product had pages in every market"
    );
    let report = site.build().unwrap();
    for page in &own_pages {
        assert!(report.deleted.contains(page), "{page} reported deleted");
        assert!(!site.public().join(page).exists(), "{page} is gone");
    }
    assert!(
        pages_linking_to(&site, id).is_empty(),
        "nothing links to the removed product"
    );
}

#[test]
fn a_template_error_leaves_the_live_site_and_no_half_generation() {
    let site = copied_sample();
    let templates = site.dir.path().join("templates");
    copy_dir(&repo().join("site-src/templates"), &templates);
    let mut opts = site.options();
    opts.templates_dir = templates.clone();
    generator::build(&opts, generator::BuildFrom::Export).unwrap();
    let live = site.live();
    let before = snapshot_files(&site.public());
    let search_root = site.dir.path().join("cache/search");
    let live_indexes =
        || ["uk", "us", "eu"].map(|m| std::fs::read_link(search_root.join(m)).unwrap());
    let indexes_before = live_indexes();
    let index_generations = || -> BTreeSet<String> {
        std::fs::read_dir(search_root.join("generations"))
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect()
    };
    let index_generations_before = index_generations();
    // A price change too, so that the search index has something to write: it is written beside
    // the pages and made live only after every page rendered.
    raise_price(&site);
    let page = templates.join("pages/product.html");
    let text = std::fs::read_to_string(&page).unwrap();
    std::fs::write(&page, format!("{text}{{{{ 1 / 0 }}}}")).unwrap();
    let err = generator::build(&opts, generator::BuildFrom::Export)
        .unwrap_err()
        .to_string();
    assert!(err.contains("rendering /"), "{err}");
    assert_eq!(site.live(), live);
    assert_eq!(snapshot_files(&site.public()), before);
    for generations in ["cache/generations", "cache/search/generations"] {
        let leftovers: Vec<_> = std::fs::read_dir(site.dir.path().join(generations))
            .unwrap()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
            .collect();
        assert!(
            leftovers.is_empty(),
            "{generations}: the unfinished generation was removed"
        );
    }
    assert_eq!(
        live_indexes(),
        indexes_before,
        "the live search index stays"
    );
    assert_eq!(
        index_generations(),
        index_generations_before,
        "the index written beside the failed pages was removed"
    );
}

#[test]
fn a_killed_build_is_recovered_by_the_next_one() {
    let site = copied_sample();
    site.build().unwrap();
    // A build killed half-way leaves an unfinished generation and possibly a stale manifest.
    let stale = site.dir.path().join("cache/generations/gen-1-1.tmp/p");
    std::fs::create_dir_all(&stale).unwrap();
    std::fs::write(stale.join("half.html"), "<html>").unwrap();
    std::fs::write(
        site.dir.path().join("cache/build-manifest.json"),
        b"{\"version\":1,\"generation\":\"gen-gone\",\"files\":{}}",
    )
    .unwrap();
    let report = site.build().unwrap();
    assert!(
        !report.written.is_empty(),
        "an untrusted manifest means a full rebuild"
    );
    assert!(
        !site
            .dir
            .path()
            .join("cache/generations/gen-1-1.tmp")
            .exists(),
        "the unfinished generation was pruned"
    );
    assert!(site.exists("/"));
}

#[test]
fn an_edited_listing_header_rewrites_only_its_listing_page() {
    let site = copied_sample();
    site.build().unwrap();
    edit_json(&site.export, "content/us.json", |doc| {
        let item = doc["responses"]
            .as_array_mut()
            .unwrap()
            .iter_mut()
            .map(|r| &mut r["content"])
            .find(|c| c["_meta"]["deliveryKey"] == "us/listing-header/collection/501")
            .expect("the sample has a header for collection 501");
        item["subheading"] = serde_json::json!("Party season starts here");
    });
    let report = site.build().unwrap();
    let written: BTreeSet<String> = report.written.iter().cloned().collect();
    assert_eq!(
        written,
        BTreeSet::from(["us/browse/collection/501/index.html".to_string()])
    );
    assert!(
        site.read("/us/browse/collection/501")
            .contains("<p class=\"plp-head__subheading\">Party season starts here</p>")
    );
}

#[test]
fn a_no_change_build_removes_what_killed_builds_left() {
    let site = copied_sample();
    site.build().unwrap();
    let gens = site.dir.path().join("cache/generations");
    // What builds killed before publishing leave: unfinished generations of other processes
    // and a half-written manifest.
    let abandoned = ["gen-1-999999999-0.tmp", "gen-2-999999998-3.tmp"];
    for name in abandoned {
        let dir = gens.join(name).join("p");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("half.html"), "<html>").unwrap();
    }
    let manifest_tmp = site.dir.path().join("cache/build-manifest.json.tmp");
    std::fs::write(&manifest_tmp, "{\"version\":").unwrap();
    let live = site.live();
    let report = site.build().unwrap();
    assert_eq!(phase_names(&report), ["digest inputs (unchanged)"]);
    for name in abandoned {
        assert!(!gens.join(name).exists(), "{name} removed");
    }
    assert!(!manifest_tmp.exists(), "half-written manifest removed");
    assert_eq!(site.live(), live, "the live site is untouched");
    assert_eq!(
        phase_names(&site.build().unwrap()),
        ["digest inputs (unchanged)"],
        "and the next build is still a no-change one"
    );
}

/// Names of the generation directories in the build cache.
fn generation_names(site: &Site) -> BTreeSet<String> {
    std::fs::read_dir(site.dir.path().join("cache/generations"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect()
}

#[test]
fn a_manifest_that_cannot_be_written_fails_the_build_with_the_old_site_live() {
    let site = copied_sample();
    site.build().unwrap();
    let live = site.live();
    let before = snapshot_files(&site.public());
    let generations = generation_names(&site);
    edit_json(&site.export, "catalog/products.json", |doc| {
        doc["data"][0]["description"] = serde_json::json!("<p>A new description.</p>");
    });
    // The manifest's write fails as on a full disk: a directory stands where its temporary file
    // goes (a real failing write, with no test hook in the code).
    let blocker = site.dir.path().join("cache/build-manifest.json.tmp");
    std::fs::create_dir_all(blocker.join("x")).unwrap();
    let err = site.build().expect_err("the build fails").to_string();
    assert!(err.contains("build-manifest.json.tmp"), "{err}");
    assert_eq!(site.live(), live, "the old site is still the live one");
    assert_eq!(snapshot_files(&site.public()), before);
    assert_eq!(
        generation_names(&site),
        generations,
        "no new generation left"
    );

    std::fs::remove_dir_all(&blocker).unwrap();
    let report = site.build().unwrap();
    assert!(
        !report.written.is_empty() && report.written.len() * 10 < report.pages,
        "the next build is incremental: wrote {} of {} pages",
        report.written.len(),
        report.pages
    );
    assert_ne!(site.live(), live);
    assert!(!blocker.exists());
}

/// Every file of a generation with its inode and bytes: what "untouched" means.
fn inodes_and_bytes(
    root: &std::path::Path,
) -> (
    std::collections::BTreeMap<String, u64>,
    std::collections::BTreeMap<String, Vec<u8>>,
) {
    (snapshot_files(root), tree_contents(root))
}

/// Every directory under `root`, relative to it.
fn directory_set(root: &std::path::Path) -> BTreeSet<String> {
    walkdir::WalkDir::new(root)
        .min_depth(1)
        .follow_links(true)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_dir())
        .map(|e| e.path().strip_prefix(root).unwrap().display().to_string())
        .collect()
}

/// The spare generation of the build cache, if there is one.
fn spare_generation(site: &Site) -> Option<std::path::PathBuf> {
    std::fs::read_dir(site.dir.path().join("cache/generations"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "spare"))
}

fn raise_price(site: &Site) {
    raise_price_of(&site.export, 5);
}

/// A price raised, then a build (`build`) that fails because its manifest cannot be written:
/// the live site keeps every inode and byte and no unfinished generation is left. The blocker is
/// removed afterwards.
fn a_build_that_cannot_write_its_manifest_leaves_the_live_site(
    site: &Site,
    build: fn(&Site) -> Result<generator::BuildReport, generator::BuildError>,
) {
    let live = site.live();
    let state = inodes_and_bytes(&live);
    raise_price(site);
    let blocker = site.dir.path().join("cache/build-manifest.json.tmp");
    std::fs::create_dir_all(blocker.join("x")).unwrap();
    build(site).expect_err("the manifest cannot be written");
    assert_eq!(site.live(), live);
    assert!(
        inodes_and_bytes(&live) == state,
        "the live site is untouched"
    );
    let leftovers: Vec<String> = generation_names(site)
        .into_iter()
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    std::fs::remove_dir_all(&blocker).unwrap();
}

/// 1: a product removed; 2 and 3: a price; 4: the product back (the export as it was, but the
/// price).
fn four_changes() -> [fn(&Site); 4] {
    [
        |s| {
            remove_product(s);
        },
        raise_price,
        raise_price,
        |s| {
            for file in ["products.json", "collections.json", "inventory.json"] {
                let rel = format!("catalog/{file}");
                std::fs::copy(sample_export().join(&rel), s.export.join(&rel)).unwrap();
            }
        },
    ]
}

#[test]
// Plain trees: with borrowing allowed, these rebuilds would borrow instead (see below).
fn rebuilds_recycle_a_spare_and_never_touch_the_live_tree_or_the_one_before_it() {
    let site = copied_sample();
    site.build_plain().unwrap();
    let mut before_live: Option<std::path::PathBuf> = None;
    // The first two make new trees (no spare yet); the third starts from the cold build's tree,
    // which still has the product, and the fourth from the first rebuild's, which lacks it.
    let changes = four_changes();
    for (round, change) in changes.iter().enumerate() {
        let live = site.live();
        let untouched: Vec<_> = std::iter::once(live.clone())
            .chain(before_live.clone())
            .map(|dir| (inodes_and_bytes(&dir), dir))
            .collect();
        let spare = spare_generation(&site);
        assert_eq!(spare.is_some(), round >= 2, "round {round}: {spare:?}");
        let spare_dirs = spare.as_deref().map(directory_set);
        change(&site);
        let report = site.build_plain().unwrap();
        assert!(!report.written.is_empty());
        for (state, dir) in &untouched {
            // The tree before the live one may have become the spare once this build went live
            // (renamed: the next build may recycle it), but this build never changed it.
            let now = [dir.clone(), dir.with_extension("spare")]
                .into_iter()
                .find(|d| d.is_dir())
                .unwrap();
            assert!(
                inodes_and_bytes(&now) == *state,
                "round {round}: {} changed",
                dir.display()
            );
        }
        let new = site.live();
        assert_ne!(new, live);
        match spare_dirs {
            None => {
                assert!(report.recycled.is_none());
                assert_eq!(report.dirs_created, directory_set(&new).len());
            }
            Some(spare_dirs) => {
                assert!(report.recycled.is_some(), "round {round}");
                // Only the directories the spare lacked were made.
                let lacking = directory_set(&new).difference(&spare_dirs).count();
                assert_eq!(report.dirs_created, lacking, "round {round}");
                assert_eq!(lacking > 0, round == 3, "round {round}");
                // Every file not written is the live file itself, linked.
                let (old_inodes, _) = &untouched[0].0;
                let written: BTreeSet<&String> = report.written.iter().collect();
                for (file, inode) in snapshot_files(&new) {
                    if !written.contains(&file) {
                        assert_eq!(Some(&inode), old_inodes.get(&file), "round {round}: {file}");
                    }
                }
            }
        }
        assert_same_as_a_fresh_build(&site);
        before_live = Some(live);
    }

    // A build that fails after taking the spare (its manifest cannot be written) removes what it
    // made of it and leaves the live site as it was.
    assert!(spare_generation(&site).is_some());
    a_build_that_cannot_write_its_manifest_leaves_the_live_site(&site, Site::build_plain);
    site.build_plain().unwrap();
    assert_same_as_a_fresh_build(&site);

    // A build killed while recycling leaves the spare renamed as its unfinished generation,
    // part-changed: the next build sweeps it and builds a new tree.
    let spare = spare_generation(&site).expect("a spare again");
    let killed = site
        .dir
        .path()
        .join("cache/generations/gen-1-999999999-0.tmp");
    std::fs::rename(&spare, &killed).unwrap();
    std::fs::remove_file(killed.join("robots.txt")).unwrap();
    raise_price(&site);
    let report = site.build_plain().unwrap();
    assert!(report.recycled.is_none());
    assert!(!killed.exists(), "the killed build's generation was swept");
    assert_same_as_a_fresh_build(&site);
}

/// The directories of a generation that are directories, not links to borrowed ones.
fn real_directories(root: &std::path::Path) -> BTreeSet<String> {
    walkdir::WalkDir::new(root)
        .min_depth(1)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_dir())
        .map(|e| e.path().strip_prefix(root).unwrap().display().to_string())
        .collect()
}

/// The generation a borrowed directory of `generation` links to, and the link itself.
fn borrowed_links(generation: &std::path::Path) -> Vec<(String, std::path::PathBuf)> {
    walkdir::WalkDir::new(generation)
        .min_depth(1)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.path_is_symlink())
        .map(|e| {
            let rel = e
                .path()
                .strip_prefix(generation)
                .unwrap()
                .display()
                .to_string();
            (rel, std::fs::read_link(e.path()).unwrap())
        })
        .collect()
}

#[test]
fn rebuilds_borrow_unchanged_directories_from_the_full_generation_and_touch_no_kept_tree() {
    let site = copied_sample();
    site.build().unwrap();
    let full = site.live();
    let full_name = full.file_name().unwrap().to_string_lossy().into_owned();
    let full_state = inodes_and_bytes(&full);
    let all_dirs = real_directories(&full).len();
    let mut before_live: Option<std::path::PathBuf> = None;
    // Prices of three products, one of them twice: each rewrites ~15 % of the sample's pages.
    let changes: [fn(&Site); 4] = [
        raise_price,
        |s| raise_price_of(&s.export, 6),
        raise_price,
        |s| raise_price_of(&s.export, 7),
    ];
    for (round, change) in changes.iter().enumerate() {
        let live = site.live();
        // The tree before the live one borrows too: it is pruned once this build is live.
        let untouched: Vec<_> = [live.clone(), full.clone()]
            .into_iter()
            .map(|dir| (inodes_and_bytes(&dir), dir))
            .collect();
        change(&site);
        let report = site.build().unwrap();
        assert!(!report.written.is_empty());
        // The third rebuild leaves the first one's generation as the spare (it borrows from the
        // same full generation), and the fourth recycles it: its links stay.
        let recycles = round == 3;
        assert_eq!(report.recycled.is_some(), recycles, "round {round}");
        for (state, dir) in &untouched {
            assert!(
                inodes_and_bytes(dir) == *state,
                "round {round}: {} changed",
                dir.display()
            );
        }
        let new = site.live();
        assert_ne!(new, live);
        // The directories made follow the change, not the site: each holds a file written or a
        // file gained or lost under it, or the live tree made it itself (it cannot lend it).
        let made = real_directories(&new);
        if recycles {
            assert!(report.dirs_created < made.len(), "round {round}");
        } else {
            assert_eq!(report.dirs_created, made.len(), "round {round}");
        }
        assert!(made.len() < all_dirs, "round {round}");
        let (live_inodes, _) = &untouched[0].0;
        let new_files = snapshot_files(&new);
        let live_canonical = std::fs::canonicalize(&live).unwrap();
        for dir in &made {
            let prefix = format!("{dir}/");
            let under = |files: &std::collections::BTreeMap<String, u64>| -> Vec<String> {
                files
                    .keys()
                    .filter(|f| f.starts_with(&prefix))
                    .cloned()
                    .collect()
            };
            let changed = report.written.iter().any(|w| w.starts_with(&prefix))
                || under(&new_files) != under(live_inodes);
            let live_own = live != full
                && std::fs::canonicalize(live.join(dir))
                    .is_ok_and(|at| at.starts_with(&live_canonical));
            assert!(changed || live_own, "round {round}: {dir} made needlessly");
        }
        // Every borrowed directory is a relative link to the same directory of the cold build's
        // generation, the only full one: never to a generation that itself borrows.
        let links = borrowed_links(&new);
        assert_eq!(links.len(), report.dirs_borrowed, "round {round}");
        assert!(!links.is_empty());
        for (rel, target) in &links {
            let depth = rel.split('/').count();
            let expected = format!("{}{full_name}/{rel}", "../".repeat(depth));
            assert_eq!(target.display().to_string(), expected, "round {round}");
        }
        // Every file not written is the live file itself (linked, or reached through a link).
        let written: BTreeSet<&String> = report.written.iter().collect();
        for (file, inode) in snapshot_files(&new) {
            if !written.contains(&file) {
                assert_eq!(
                    Some(&inode),
                    live_inodes.get(&file),
                    "round {round}: {file}"
                );
            }
        }
        assert_same_as_a_fresh_build(&site);
        // Kept: this generation, the one before it and the full one they borrow from; from the
        // third rebuild on, the tree before those is the spare.
        let names = generation_names(&site);
        let mut expected: BTreeSet<String> = [&new, &live, &full]
            .iter()
            .map(|d| d.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        if round >= 2 {
            let before = before_live.as_ref().unwrap().file_name().unwrap();
            expected.insert(format!("{}.spare", before.to_string_lossy()));
        }
        assert_eq!(names, expected, "round {round}");
        if let Some(before) = before_live.filter(|b| *b != full) {
            assert!(!before.exists(), "round {round}: {} kept", before.display());
        }
        before_live = Some(live);
    }
    // Recycling and removing borrowing generations never reached through their links.
    assert!(
        inodes_and_bytes(&full) == full_state,
        "the lender is untouched"
    );

    // A borrowing build that fails (its manifest cannot be written) leaves the live site and no
    // unfinished generation, and the lender as it was.
    a_build_that_cannot_write_its_manifest_leaves_the_live_site(&site, Site::build);
    assert!(
        inodes_and_bytes(&full) == full_state,
        "the lender is untouched"
    );

    // A change to every page makes a whole new generation (borrowing only the bundles and the
    // media would leave every later build to make the pages' directories again); the old lender
    // is kept while the tree before it borrows from it, and the next small change borrows from
    // the new generation.
    edit_json(&site.export, "store.json", |doc| {
        doc["name"] = serde_json::json!("A Renamed Store");
    });
    let report = site.build().unwrap();
    assert_eq!(report.dirs_borrowed, 0);
    assert!(borrowed_links(&site.live()).is_empty());
    assert_same_as_a_fresh_build(&site);
    assert!(generation_names(&site).contains(&full_name));
    let whole = site.live();
    let whole_name = whole.file_name().unwrap().to_string_lossy().into_owned();
    raise_price(&site);
    let report = site.build().unwrap();
    assert!(report.dirs_borrowed > 0);
    for (rel, target) in borrowed_links(&site.live()) {
        assert!(
            target
                .to_string_lossy()
                .ends_with(&format!("{whole_name}/{rel}")),
            "{rel} → {}",
            target.display()
        );
    }
    assert_same_as_a_fresh_build(&site);
    // Nothing kept borrows from the cold build's generation now: it became the spare.
    assert!(!full.exists());
}

/// Every digest the live manifest holds is the SHA-1 of the live file's bytes.
fn assert_digests_are_the_files(site: &Site, manifest: &generator::output::Manifest) {
    for (rel, digest) in &manifest.sha1 {
        let bytes = std::fs::read(site.public().join(rel)).unwrap();
        assert_eq!(*digest, generator::output::sha1_hex(&bytes), "{rel}");
    }
}

/// `storefront build` takes no SHA-1 of what it writes (only deploys need them): its manifest
/// keeps the digests a deploy took for files it did not change and drops those of files it
/// rewrote, and a deploy reads just those. A build that records digests (a daemon's) has each.
#[test]
fn a_build_hashes_nothing_for_deploys_and_keeps_the_digests_of_unchanged_files() {
    use generator::output::{OutputDirs, complete_sha1, has_every_sha1};
    let site = copied_sample();
    let dirs = OutputDirs {
        public: site.public(),
        cache: site.dir.path().join("cache"),
    };
    let manifest = || dirs.previous().unwrap().0;
    let cold = site.build().unwrap();
    assert!(manifest().sha1.is_empty(), "a build hashes nothing");
    assert_eq!(complete_sha1(&dirs).unwrap(), cold.written.len());
    assert!(has_every_sha1(&manifest()));
    assert_digests_are_the_files(&site, &manifest());
    assert_eq!(complete_sha1(&dirs).unwrap(), 0, "taken once, then kept");
    // A no-change build reads nothing and keeps them.
    assert!(site.build().unwrap().written.is_empty());
    assert!(has_every_sha1(&manifest()));

    raise_price_of(&site.export, 0);
    let changed = site.build().unwrap();
    assert!(!changed.written.is_empty());
    let after = manifest();
    for rel in &changed.written {
        assert!(!after.sha1.contains_key(rel), "{rel}: stale digest kept");
    }
    assert_eq!(after.sha1.len(), after.files.len() - changed.written.len());
    assert_digests_are_the_files(&site, &after);
    assert_eq!(complete_sha1(&dirs).unwrap(), changed.written.len());
    assert_digests_are_the_files(&site, &manifest());

    raise_price_of(&site.export, 0);
    let opts = generator::BuildOptions {
        file_digests: true,
        ..site.options()
    };
    let recorded = generator::build(&opts, generator::BuildFrom::Export).unwrap();
    assert!(!recorded.written.is_empty());
    assert!(has_every_sha1(&manifest()));
    assert_digests_are_the_files(&site, &manifest());
}
