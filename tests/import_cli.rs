//! `storefront import` as a user runs it: credentials and base URLs from the environment, against
//! the local fake of both sources, then `storefront build` picking the import up from
//! content-cache/export, the shop finder included (the platform's locations and the bundled
//! gazetteer).

#[path = "../importer/tests/fake_source/mod.rs"]
mod fake_source;

use fake_source::FakeSource;
use std::process::Command;

#[tokio::test]
async fn import_then_build_serves_the_imported_catalog() {
    let fake = FakeSource::start().await;
    fake.edit(|data| {
        let product = data.products.iter_mut().find(|p| p["id"] == 101).unwrap();
        product["name"] = "Imported Satin Slip Midi Dress".into();
    });
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("content-cache");
    let bin = env!("CARGO_BIN_EXE_storefront");
    let import = tokio::task::spawn_blocking({
        let cache = cache.clone();
        let env = fake.env();
        move || {
            Command::new(bin)
                .current_dir(env!("CARGO_MANIFEST_DIR"))
                .env_clear()
                .envs(env)
                .args(["import", "--cache"])
                .arg(&cache)
                .output()
                .unwrap()
        }
    })
    .await
    .unwrap();
    let stdout = String::from_utf8_lossy(&import.stdout);
    println!("{stdout}");
    assert!(
        import.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&import.stderr)
    );
    // Every content item of the sample's three markets, counted from the sample itself.
    let content_items: usize = ["uk", "us", "eu"]
        .iter()
        .map(|m| {
            let file = format!(
                "{}/fixtures/sample/content/{m}.json",
                env!("CARGO_MANIFEST_DIR")
            );
            let json: serde_json::Value =
                serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
            json["responses"].as_array().unwrap().len()
        })
        .sum();
    assert!(
        stdout.starts_with("imported 72 products (")
            && stdout.contains(&format!(" {content_items} content items")),
        "{stdout}"
    );

    let public = dir.path().join("public");
    let build = Command::new(bin)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["build", "--cache"])
        .arg(&cache)
        .arg("--out")
        .arg(&public)
        .output()
        .unwrap();
    assert!(
        build.status.success(),
        "{}",
        String::from_utf8_lossy(&build.stderr)
    );
    let found = walkdir::WalkDir::new(&public)
        .follow_links(true)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "html"))
        .any(|e| {
            std::fs::read_to_string(e.path())
                .unwrap_or_default()
                .contains("Imported Satin Slip Midi Dress")
        });
    assert!(found, "the imported product name is on the built site");

    // The shop finder lists the platform's shops (not its warehouses), with the services from
    // their metafield, and its search has the bundled gazetteer's places.
    assert!(stdout.contains(", 12 shops, "), "{stdout}");
    for page in ["shop-finder", "us/shop-finder", "eu/shop-finder"] {
        let html = std::fs::read_to_string(public.join(page).join("index.html")).unwrap();
        assert_eq!(
            html.matches("<li class=\"shop\" id=\"shop-").count(),
            12,
            "{page}"
        );
        assert!(!html.contains("We have no shops to show"), "{page}");
        let leeds = &html[html.find("id=\"shop-leeds-briggate\"").unwrap()..];
        assert!(
            leeds.contains("<li class=\"shop__service\">Click &amp; collect</li>"),
            "{page}"
        );
        assert!(
            html.contains("\"name\":\"Leeds\""),
            "{page}: the search knows Leeds"
        );
    }
}

#[test]
fn a_missing_credential_is_named_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_storefront"))
        .env_clear()
        .env("BIGCOMMERCE_STORE_HASH", "abc")
        .env("AMPLIENCE_HUB", "hub")
        .args(["import", "--cache"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        "error: configuration: BIGCOMMERCE_ACCESS_TOKEN: is not set"
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}
