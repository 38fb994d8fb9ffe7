//! Atomic, incremental output: atomic writes, file digests for deploys, paths kept inside the
//! generation, files written in parts, and overlays served through the live view then compacted.

use generator::output::{
    CompactError, KnownManifest, LiveView, Manifest, NewGeneration, OutputDirs, compact,
    complete_sha1, has_every_sha1, new_manifest, prune_except, sha1_hex, sha1_hex_of_parts,
    write_atomically,
};
use std::collections::BTreeMap;

/// A public directory and a build cache in a fresh temporary directory (kept while it lives).
fn temp_output_dirs() -> (tempfile::TempDir, OutputDirs) {
    let dir = tempfile::tempdir().unwrap();
    let dirs = OutputDirs {
        public: dir.path().join("public"),
        cache: dir.path().join("cache"),
    };
    (dir, dirs)
}

#[test]
fn a_failed_atomic_write_leaves_no_temporary_file_and_the_old_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path().join("m.json.tmp");
    // The rename fails: a non-empty directory stands at the destination.
    let path = dir.path().join("m.json");
    std::fs::create_dir_all(path.join("x")).unwrap();
    let err = write_atomically(&path, &tmp, b"{}").unwrap_err();
    assert_eq!(err.action, "rename");
    assert!(!tmp.exists(), "temporary file removed");
    assert!(path.join("x").is_dir());
    // The write fails: a directory stands where the temporary file goes.
    let file = dir.path().join("n.json");
    std::fs::write(&file, b"old").unwrap();
    let blocked = dir.path().join("n.json.tmp");
    std::fs::create_dir(&blocked).unwrap();
    assert_eq!(
        write_atomically(&file, &blocked, b"new")
            .unwrap_err()
            .action,
        "write"
    );
    assert_eq!(std::fs::read(&file).unwrap(), b"old");
}

#[test]
fn a_manifest_without_digests_gets_each_files_sha1_once() {
    let (_dir, dirs) = temp_output_dirs();
    let base = NewGeneration::create(&dirs).unwrap();
    base.write("a.html", b"a1").unwrap();
    base.write("m/b.css", b"").unwrap();
    let name = base.name.clone();
    // As a build before deploys wrote it: fingerprints only.
    let old = new_manifest(
        &name,
        files(&[("a.html", "1"), ("m/b.css", "1")]),
        BTreeMap::new(),
    );
    base.publish(&dirs, &old).unwrap();
    let text = std::fs::read_to_string(dirs.manifest_path()).unwrap();
    assert!(!text.contains("sha1"), "no empty map written: {text}");
    assert_eq!(complete_sha1(&dirs).unwrap(), 2);
    let (manifest, _) = dirs.previous().unwrap();
    // `printf a1 | sha1sum` and the digest of no bytes.
    assert_eq!(
        manifest.sha1["a.html"],
        "f29bc91bbdab169fc0c0a326965953d11c7dff83"
    );
    assert_eq!(
        manifest.sha1["m/b.css"],
        "da39a3ee5e6b4b0d3255bfef95601890afd80709"
    );
    assert!(has_every_sha1(&manifest));
    assert_eq!(complete_sha1(&dirs).unwrap(), 0, "read once, then kept");
}

#[test]
fn outputs_cannot_escape_the_generation() {
    let (_dir, dirs) = temp_output_dirs();
    let generation = NewGeneration::create(&dirs).unwrap();
    for bad in ["/etc/x", "../x", "a/../../x", ""] {
        assert!(
            generation.write(bad, b"x").is_err(),
            "{bad:?} must be refused"
        );
    }
    generation.write("a/b.html", b"ok").unwrap();
}

#[test]
fn a_file_written_in_parts_holds_them_in_order_and_is_never_written_through() {
    let (_dir, dirs) = temp_output_dirs();
    let generation = NewGeneration::create(&dirs).unwrap();
    generation
        .write_parts("a/page.html", &[b"<head>", b"", b"<link>", b"</head>"])
        .unwrap();
    let path = generation.tmp_dir().join("a/page.html");
    assert_eq!(std::fs::read(&path).unwrap(), b"<head><link></head>");
    // A path that exists is refused, its bytes kept: it may be a link shared with the live tree.
    assert!(generation.write_parts("a/page.html", &[b"x"]).is_err());
    assert_eq!(std::fs::read(&path).unwrap(), b"<head><link></head>");
    assert_eq!(
        sha1_hex_of_parts(&[b"<head>", b"", b"<link>", b"</head>"]),
        sha1_hex(b"<head><link></head>")
    );
}

fn files(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[test]
fn overlays_are_served_through_the_view_and_compacted_into_a_full_generation() {
    let (_dir, dirs) = temp_output_dirs();
    let base = NewGeneration::create(&dirs).unwrap();
    base.write("a.html", b"a1").unwrap();
    base.write("b.html", b"b1").unwrap();
    let base_name = base.name.clone();
    base.publish(
        &dirs,
        &new_manifest(
            &base_name,
            files(&[("a.html", "1"), ("b.html", "1")]),
            BTreeMap::new(),
        ),
    )
    .unwrap();
    let view = LiveView::load(&dirs).unwrap();
    let public_before = std::fs::read_link(&dirs.public).unwrap();

    // Overlay: a.html changed, b.html deleted, c.html added. `public` is untouched.
    let (manifest, _) = dirs.previous().unwrap();
    let layer = NewGeneration::create(&dirs).unwrap();
    layer.write("a.html", b"a2").unwrap();
    layer.write("c.html", b"c2").unwrap();
    let next = Manifest {
        files: files(&[("a.html", "2"), ("c.html", "2")]),
        ..manifest
    };
    let (layer_dir, written) = layer.publish_overlay(&dirs, next).unwrap();
    let mut known = KnownManifest::default();
    known.wrote(&dirs, written);
    let (remembered, tree) = dirs.previous_known(&mut known).unwrap();
    assert_eq!(remembered.files, files(&[("a.html", "2"), ("c.html", "2")]));
    assert_eq!(tree.layers.len(), 1);
    assert_eq!(std::fs::read_link(&dirs.public).unwrap(), public_before);
    let view = view.with_layer(
        layer_dir,
        &["a.html".into(), "c.html".into()],
        &["b.html".into()],
    );
    let read = |v: &LiveView, rel: &str| {
        v.dir_of(rel)
            .map(|d| std::fs::read_to_string(d.join(rel)).unwrap())
    };
    assert_eq!(read(&view, "a.html").as_deref(), Some("a2"));
    assert_eq!(read(&view, "b.html"), None, "deleted in the overlay");
    assert_eq!(read(&view, "c.html").as_deref(), Some("c2"));
    // A restarted daemon sees the same tree from the manifest.
    let reloaded = LiveView::load(&dirs).unwrap();
    assert_eq!(reloaded.layer_count(), 1);
    assert_eq!(read(&reloaded, "a.html").as_deref(), Some("a2"));
    assert_eq!(read(&reloaded, "b.html"), None);

    // An interrupted compaction leaves nothing behind; a finished one flips `public`.
    assert!(matches!(
        compact(&dirs, &|| true),
        Err(CompactError::Interrupted)
    ));
    assert_eq!(std::fs::read_link(&dirs.public).unwrap(), public_before);
    let name = compact(&dirs, &|| false).unwrap();
    let live = dirs.live_generation().unwrap();
    assert!(live.ends_with(&name));
    assert_eq!(std::fs::read_to_string(live.join("a.html")).unwrap(), "a2");
    assert_eq!(std::fs::read_to_string(live.join("c.html")).unwrap(), "c2");
    assert!(!live.join("b.html").exists());
    let (manifest, _) = dirs.previous().unwrap();
    assert!(manifest.layers.is_empty());
    // The compaction replaced the manifest file: what this process remembered is stale.
    let (reread, tree) = dirs.previous_known(&mut known).unwrap();
    assert!(reread.layers.is_empty() && tree.layers.is_empty());
    assert_eq!(reread.generation, name);
    prune_except(&dirs, &view.generation_names());
    assert!(
        dirs.generations().join(&base_name).is_dir(),
        "still served by the old view"
    );
    prune_except(&dirs, &[]);
    assert!(!dirs.generations().join(&base_name).exists());
}

#[test]
fn a_borrowing_generation_keeps_its_lender_and_its_removal_never_reaches_into_it() {
    use generator::output::borrow::{Lender, plan};
    let (_dir, dirs) = temp_output_dirs();
    // A home page and eight product pages.
    let paths: Vec<String> = std::iter::once("index.html".to_string())
        .chain((1..=8).map(|i| format!("p/{i}/index.html")))
        .collect();
    let full = NewGeneration::create(&dirs).unwrap();
    for rel in &paths {
        full.write(rel, rel.as_bytes()).unwrap();
    }
    let full_name = full.name.clone();
    let fingerprints: BTreeMap<String, String> =
        paths.iter().map(|p| (p.clone(), "1".to_string())).collect();
    let manifest = new_manifest(&full_name, fingerprints.clone(), BTreeMap::new());
    full.publish(&dirs, &manifest).unwrap();

    // Only the home page changes: `p` is borrowed whole, with one symlink.
    let outputs: Vec<(&str, bool)> = paths
        .iter()
        .map(|p| (p.as_str(), p != "index.html"))
        .collect();
    let borrowing = || {
        plan(
            &outputs,
            Lender {
                name: &full_name,
                files: manifest.files.keys().map(String::as_str),
                borrowed: None,
            },
        )
        .expect("8 of 9 outputs borrowed")
    };
    // Publishing before the links are made is refused, the full generation staying live.
    let unlinked = NewGeneration::borrowing(&dirs, borrowing()).unwrap();
    let mut next = new_manifest(&unlinked.name, fingerprints.clone(), BTreeMap::new());
    next.borrowed = unlinked.borrowed().cloned();
    let err = unlinked.publish(&dirs, &next).unwrap_err().to_string();
    assert!(err.contains("not linked"), "{err}");
    assert_eq!(
        std::fs::read_link(&dirs.public)
            .unwrap()
            .file_name()
            .unwrap(),
        full_name.as_str()
    );
    let generation = NewGeneration::borrowing(&dirs, borrowing()).unwrap();
    assert!(generation.holds("p/1/index.html") && !generation.holds("index.html"));
    generation.write("index.html", b"new home").unwrap();
    let borrower = generation.name.clone();
    let mut next = new_manifest(&borrower, fingerprints.clone(), BTreeMap::new());
    next.borrowed = generation.borrowed().cloned();
    // The links come apart from the writes (a build makes them beside its rendering), and a
    // generation without them is never published.
    let unfinished_p = dirs.generations().join(format!("{borrower}.tmp/p"));
    assert!(!unfinished_p.exists());
    generation.make_borrowed_links().unwrap();
    assert!(unfinished_p.is_symlink());
    generation.publish(&dirs, &next).unwrap();
    assert_eq!(
        std::fs::read_link(dirs.public.join("p")).unwrap(),
        std::path::Path::new(&format!("../{full_name}/p"))
    );
    assert_eq!(
        std::fs::read_to_string(dirs.public.join("p/2/index.html")).unwrap(),
        "p/2/index.html"
    );

    // A daemon's view over it serves through the link and keeps the lender, as does the
    // manifest's tree; without its lender the live tree is not trusted (everything rebuilt).
    let view = LiveView::load(&dirs).unwrap();
    let served = view
        .dir_of("p/1/index.html")
        .unwrap()
        .join("p/1/index.html");
    assert_eq!(std::fs::read(served).unwrap(), b"p/1/index.html");
    assert!(view.generation_names().contains(&full_name));
    prune_except(&dirs, &[]);
    assert!(
        dirs.generations().join(&full_name).is_dir(),
        "kept: borrowed from"
    );
    let aside = dirs.cache.join("aside");
    std::fs::rename(dirs.generations().join(&full_name), &aside).unwrap();
    assert!(dirs.previous().is_none());
    std::fs::rename(&aside, dirs.generations().join(&full_name)).unwrap();
    assert!(dirs.previous().is_some());

    // A plain generation replaces it; removing the borrower leaves the lender whole.
    let plain = NewGeneration::create(&dirs).unwrap();
    for rel in &paths {
        plain.write(rel, b"plain").unwrap();
    }
    let plain_manifest = new_manifest(&plain.name, fingerprints, BTreeMap::new());
    plain.publish(&dirs, &plain_manifest).unwrap();
    prune_except(&dirs, std::slice::from_ref(&full_name));
    assert!(!dirs.generations().join(&borrower).exists());
    let lender = dirs.generations().join(&full_name);
    for rel in &paths {
        assert_eq!(&std::fs::read_to_string(lender.join(rel)).unwrap(), rel);
    }
    prune_except(&dirs, &[]);
    assert!(!lender.exists());
}
