//! Deploys to Netlify by file digests, over real HTTP against the loopback fake of the deploy
//! API (live_site::deploy::fake): a cold deploy lists every file's SHA-1 and uploads each once,
//! a change uploads only its files, a second deploy of the same tree uploads nothing, a failure
//! mid-upload leaves the previous deploy live until the retry completes, a 429's Retry-After is
//! waited for, rebuilds during an upload go in one following deploy, `storefront serve`'s
//! daemon deploys a webhook's rebuild with a handful of files, and `storefront deploy` sends a
//! tree that borrows directories whole.

mod common;

use api::webhooks::events::Change;
use api::webhooks::{ChangeSink, Origin};
use common::*;
use export::source::LocalExport;
use generator::output::{OutputDirs, sha1_hex};
use live_site::deploy::api::NetlifyApi;
use live_site::deploy::config::RetryPolicy;
use live_site::deploy::fake::{FakeNetlify, Faults};
use live_site::deploy::files::{DeployFiles, Generated, ManifestFiles, SiteFiles, generated_files};
use live_site::deploy::run::deploy_once;
use live_site::deploy::{DeployConfig, DeployHandle, DeployRecord, SiteChange, worker};
use live_site::netlify::NetlifyConfig;
use live_site::rebuild::{Daemon, Timing};
use serde_json::json;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const TOKEN: &str = "test-token";
const SITE: &str = "site-1";

/// A directory standing for the live site; its list is taken by hashing its files (the test's
/// own reference, not the manifest).
struct DirSite {
    root: PathBuf,
}

impl DirSite {
    fn digests(&self) -> BTreeMap<String, String> {
        walkdir::WalkDir::new(&self.root)
            .follow_links(true)
            .into_iter()
            .flatten()
            .filter(|e| e.file_type().is_file())
            .map(|e| {
                let rel = e.path().strip_prefix(&self.root).unwrap();
                let rel = rel.to_string_lossy().to_string();
                (rel, sha1_hex(&std::fs::read(e.path()).unwrap()))
            })
            .collect()
    }
}

impl SiteFiles for DirSite {
    fn list(&self) -> anyhow::Result<BTreeMap<String, String>> {
        Ok(self.digests())
    }
    fn locate(&self, rel: &str) -> Option<PathBuf> {
        Some(self.root.join(rel)).filter(|p| p.is_file())
    }
}

fn write(root: &Path, rel: &str, text: &str) -> (String, String) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, text).unwrap();
    (rel.to_string(), sha1_hex(text.as_bytes()))
}

fn config(fake: &FakeNetlify) -> DeployConfig {
    let mut config = DeployConfig::new(
        TOKEN.into(),
        SITE.into(),
        &fake.base_url(),
        "https://origin.example",
    )
    .unwrap();
    config.retry = RetryPolicy {
        request_attempts: 3,
        base_delay: Duration::from_millis(50),
        max_delay: Duration::from_secs(5),
        ready_timeout: Duration::from_secs(30),
    };
    config
}

fn generated() -> BTreeMap<String, Generated> {
    let netlify = NetlifyConfig::load(&repo().join("netlify.toml")).unwrap();
    generated_files(&netlify, "https://origin.example").unwrap()
}

/// What the live deploy should list: the tree's files and the generated ones, keyed "/path".
fn expected(site: &DirSite, generated: &BTreeMap<String, Generated>) -> BTreeMap<String, String> {
    let mut out: BTreeMap<String, String> = site
        .digests()
        .into_iter()
        .map(|(p, d)| (format!("/{p}"), d))
        .collect();
    for (p, g) in generated {
        out.insert(format!("/{p}"), g.sha1.clone());
    }
    out
}

/// A synthetic tree of `n` pages, two of them with the same bytes.
fn tree(n: usize) -> (tempfile::TempDir, DirSite) {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..n {
        write(
            dir.path(),
            &format!("p/{i}/index.html"),
            &format!("<p>page {i}</p>"),
        );
    }
    write(dir.path(), "same/a.txt", "same bytes");
    write(dir.path(), "same/b.txt", "same bytes");
    let site = DirSite {
        root: dir.path().to_path_buf(),
    };
    (dir, site)
}

async fn wait_for_records(handle: &DeployHandle, ok: usize) -> Vec<DeployRecord> {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let history = handle.history();
        if history.iter().filter(|r| r.ok).count() >= ok {
            return history;
        }
        assert!(Instant::now() < deadline, "no {ok} deploys: {history:#?}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Starts a worker over `site` (its first deploy is the cold one) and waits for it.
async fn started(fake: &FakeNetlify, site: &DirSite) -> DeployHandle {
    let (handle, pending) = worker::create(
        config(fake),
        Box::new(DirSite {
            root: site.root.clone(),
        }),
        generated(),
    )
    .unwrap();
    pending.start().unwrap();
    wait_for_records(&handle, 1).await;
    handle
}

fn files_change(rebuild: u64, written: Vec<(String, String)>, deleted: Vec<&str>) -> SiteChange {
    SiteChange::Files {
        rebuild,
        written,
        deleted: deleted.into_iter().map(String::from).collect(),
        received: Instant::now(),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cold_deploy_uploads_each_file_once_then_only_changes_and_then_nothing() {
    let fake = FakeNetlify::start(TOKEN, SITE).await.unwrap();
    let (dir, site) = tree(150);
    let generated = generated();
    let handle = started(&fake, &site).await;

    // Created with every file's digest (async: over 100 files), _redirects and _headers included.
    let deploys = fake.deploys();
    assert_eq!(deploys.len(), 1);
    assert!(deploys[0].async_diff);
    assert_eq!(deploys[0].files, expected(&site, &generated));
    assert!(generated["_redirects"].bytes.starts_with(b"# Generated"));
    let redirects = String::from_utf8(generated["_redirects"].bytes.to_vec()).unwrap();
    assert!(
        redirects.contains("/api/* https://origin.example/api/:splat 200!"),
        "{redirects}"
    );
    // Each file uploaded once (both paths of the shared digest), and the deploy is live.
    let uploads = fake.uploads();
    let mut paths: Vec<&str> = uploads.iter().map(|(_, p)| p.as_str()).collect();
    paths.sort();
    let listed: Vec<&str> = deploys[0].files.keys().map(String::as_str).collect();
    assert_eq!(paths, listed);
    assert_eq!(fake.live().unwrap().id, deploys[0].id);
    let first = &handle.history()[0];
    assert_eq!(first.deploy_id.as_deref(), Some(deploys[0].id.as_str()));
    assert_eq!(first.files_uploaded, listed.len());
    assert!(first.time_to_ready_ms.is_some());

    // One page changed, one added, one deleted: only the two new files go up.
    let changed = write(dir.path(), "p/3/index.html", "<p>page 3, new price</p>");
    let added = write(dir.path(), "p/new/index.html", "<p>new</p>");
    std::fs::remove_file(dir.path().join("p/4/index.html")).unwrap();
    handle.changed(files_change(
        1,
        vec![changed, added],
        vec!["p/4/index.html"],
    ));
    let history = wait_for_records(&handle, 2).await;
    assert_eq!(history[0].files_uploaded, 2, "{:#?}", history[0]);
    assert_eq!(history[0].rebuilds, vec![1]);
    let live = fake.live().unwrap();
    assert_eq!(live.id, fake.deploys()[1].id);
    assert_eq!(live.files, expected(&site, &generated));
    assert!(!live.files.contains_key("/p/4/index.html"));
    assert_eq!(fake.uploads().len(), listed.len() + 2);

    // A second cold deploy of the same tree (a new client, the list hashed again) uploads nothing.
    let list = site.list().unwrap();
    let files = DeployFiles {
        site: &list,
        generated: &generated,
    };
    let api = NetlifyApi::new(&config(&fake)).unwrap();
    let outcome = deploy_once(&api, &files, &site, 4, Duration::from_secs(10))
        .await
        .unwrap();
    assert_eq!((outcome.required, outcome.uploaded), (0, 0));
    assert_eq!(fake.live().unwrap().id, outcome.deploy_id);
    assert_eq!(fake.uploads().len(), listed.len() + 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failure_mid_upload_leaves_the_previous_deploy_live_and_the_retry_completes() {
    let fake = FakeNetlify::start(TOKEN, SITE).await.unwrap();
    let (dir, site) = tree(20);
    let handle = started(&fake, &site).await;
    let previous = fake.live().unwrap().id;
    // After one accepted upload, every try of the other two fails (3 tries per request each).
    fake.set_faults(Faults {
        fail_after_uploads: 1,
        fail_uploads: 6,
        ..Faults::default()
    });
    let written: Vec<_> = (0..3)
        .map(|i| {
            write(
                dir.path(),
                &format!("p/{i}/index.html"),
                &format!("<p>v2 {i}</p>"),
            )
        })
        .collect();
    handle.changed(files_change(7, written, vec![]));
    // The failed attempt is reported with its deploy id, and the old deploy is still live then.
    let deadline = Instant::now() + Duration::from_secs(30);
    let failed = loop {
        if let Some(r) = handle.history().into_iter().find(|r| r.error.is_some()) {
            break r;
        }
        assert!(Instant::now() < deadline, "no failed attempt");
        tokio::time::sleep(Duration::from_millis(5)).await;
    };
    assert!(failed.deploy_id.is_some());
    assert!(
        failed.error.as_deref().unwrap().contains("500"),
        "{failed:?}"
    );
    assert_eq!(failed.files_uploaded, 1, "a partial upload");
    // The retry waits the 50 ms backoff; the failure was seen within 5 ms of being recorded.
    assert_eq!(
        fake.live().unwrap().id,
        previous,
        "the previous deploy stays live"
    );
    let retried = wait_for_records(&handle, 2).await;
    let abandoned = fake
        .deploys()
        .into_iter()
        .find(|d| Some(&d.id) == failed.deploy_id.as_ref())
        .unwrap();
    assert_eq!(
        abandoned.state, "uploading",
        "the partial deploy never became ready"
    );
    // The retry listed the same files; Netlify had one of them already, so two went up.
    let ok = &retried[0];
    assert!(ok.ok && ok.retries == 1, "{ok:#?}");
    assert_eq!(ok.rebuilds, vec![7]);
    assert_eq!(ok.files_uploaded, 2);
    let live = fake.live().unwrap();
    assert_ne!(live.id, previous);
    assert_eq!(live.files, expected(&site, &generated()));
    // The failed deploy never went live.
    assert_ne!(failed.deploy_id.as_deref(), Some(live.id.as_str()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_429_is_retried_after_its_retry_after() {
    let fake = FakeNetlify::start(TOKEN, SITE).await.unwrap();
    let (dir, site) = tree(5);
    let handle = started(&fake, &site).await;
    fake.set_faults(Faults {
        rate_limit_uploads: 1,
        retry_after_secs: 1,
        ..Faults::default()
    });
    let written = write(dir.path(), "p/1/index.html", "<p>limited</p>");
    handle.changed(files_change(2, vec![written], vec![]));
    let history = wait_for_records(&handle, 2).await;
    assert!(history[0].ok && history[0].files_uploaded == 1);
    // The cold deploy's upload of the page, then the change's: refused once, then accepted.
    let puts: Vec<_> = fake
        .log()
        .into_iter()
        .filter(|l| l.method == "PUT" && l.path.ends_with("/files/p/1/index.html"))
        .collect();
    assert_eq!(
        puts.iter().map(|l| l.status).collect::<Vec<_>>(),
        vec![200, 429, 200]
    );
    let waited = puts[2].at - puts[1].at;
    // The policy's own backoff is 50 ms: only Retry-After explains a second.
    assert!(waited >= Duration::from_millis(1000), "waited {waited:?}");
    assert!(waited < Duration::from_millis(3000), "waited {waited:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_rebuilds_during_an_upload_go_in_one_following_deploy() {
    let fake = FakeNetlify::start(TOKEN, SITE).await.unwrap();
    let (dir, site) = tree(5);
    let handle = started(&fake, &site).await;
    fake.set_faults(Faults {
        upload_delay: Duration::from_millis(400),
        ..Faults::default()
    });
    let a = write(dir.path(), "p/0/index.html", "<p>a</p>");
    handle.changed(files_change(1, vec![a], vec![]));
    // Deploy 2 is created and uploading (each upload takes 400 ms).
    let deadline = Instant::now() + Duration::from_secs(10);
    while fake.deploys().len() < 2 {
        assert!(Instant::now() < deadline);
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    let b = write(dir.path(), "p/1/index.html", "<p>b</p>");
    handle.changed(files_change(2, vec![b], vec![]));
    let c = write(dir.path(), "p/2/index.html", "<p>c</p>");
    handle.changed(files_change(3, vec![c], vec![]));
    let history = wait_for_records(&handle, 3).await;
    tokio::time::sleep(Duration::from_millis(600)).await;
    assert_eq!(fake.deploys().len(), 3, "one deploy for both rebuilds");
    let history: Vec<_> = history.into_iter().rev().collect();
    assert_eq!(history[1].rebuilds, vec![1]);
    assert_eq!(history[2].rebuilds, vec![2, 3]);
    assert_eq!(history[2].files_uploaded, 2);
    assert_eq!(fake.live().unwrap().files, expected(&site, &generated()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_daemon_deploys_a_webhook_rebuild_with_only_its_files() {
    let fake = FakeNetlify::start(TOKEN, SITE).await.unwrap();
    let site = copied_sample();
    let daemon = Daemon::start(
        site.options(),
        Box::new(LocalExport::new(site.export.clone())),
        Timing {
            compact_after: Duration::from_secs(3600),
            ..Timing::default()
        },
        Box::new(|_| {}),
    )
    .unwrap();
    let dirs = generator::output::OutputDirs {
        public: site.public(),
        cache: site.dir.path().join("cache"),
    };
    let netlify = NetlifyConfig::load(&repo().join("netlify.toml")).unwrap();
    let handle =
        live_site::deploy::start_for_daemon(&daemon, &netlify, dirs, config(&fake)).unwrap();
    let cold = wait_for_records(&handle, 1).await;
    let manifest: serde_json::Value = serde_json::from_slice(
        &std::fs::read(site.dir.path().join("cache/build-manifest.json")).unwrap(),
    )
    .unwrap();
    let count = manifest["files"].as_object().unwrap().len();
    // The manifest's digests are the files' (checked on a sample of pages).
    let digests = manifest["sha1"].as_object().unwrap();
    assert_eq!(digests.len(), count);
    for (rel, digest) in digests.iter().step_by(97) {
        let bytes = std::fs::read(site.public().join(rel)).unwrap();
        assert_eq!(digest.as_str().unwrap(), sha1_hex(&bytes), "{rel}");
    }
    // _redirects is replaced by netlify.toml's; _headers is added.
    assert_eq!(cold[0].files, count + 1);
    assert_eq!(cold[0].files_uploaded, cold[0].files);

    let product = 101;
    edit_json(&site.export, "catalog/products.json", |doc| {
        let p = doc["data"]
            .as_array_mut()
            .unwrap()
            .iter_mut()
            .find(|p| p["id"] == product)
            .unwrap();
        p["description"] = json!("<p>deployed description</p>");
    });
    daemon.submit(Origin::Catalog, "d-1", vec![Change::Product(product)]);
    let history = wait_for_records(&handle, 2).await;
    let deploy = &history[0];
    let rebuild = &daemon.history()[0];
    assert!(rebuild.ok, "{rebuild:?}");
    assert_eq!(deploy.rebuilds, vec![rebuild.id]);
    assert_eq!(deploy.files_uploaded, rebuild.written, "{deploy:#?}");
    assert!(deploy.files_uploaded > 0 && deploy.files_uploaded <= 20);
    assert!(deploy.receipt_to_ready_ms.is_some());
    // The live deploy lists the product page's new bytes.
    let live = fake.live().unwrap();
    let page = live
        .files
        .keys()
        .find(|p| p.starts_with(&format!("/p/{product}/")) && p.ends_with("index.html"))
        .unwrap()
        .clone();
    let view = daemon.view().read().unwrap().clone();
    let rel = page.trim_start_matches('/');
    let served = std::fs::read(view.dir_of(rel).unwrap().join(rel)).unwrap();
    assert!(String::from_utf8_lossy(&served).contains("deployed description"));
    assert_eq!(live.files[&page], sha1_hex(&served));
    // The status endpoint's deploys: newest first, with id, files uploaded and time to ready.
    let status = ChangeSink::deploys(&daemon);
    assert_eq!(status[0]["deploy_id"], json!(live.id));
    assert_eq!(status[0]["files_uploaded"], json!(deploy.files_uploaded));
    assert!(status[0]["time_to_ready_ms"].is_u64());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn storefront_deploy_lists_and_uploads_every_file_of_a_tree_that_borrows_directories() {
    let site = copied_sample();
    site.build().unwrap();
    raise_price_of(&site.export, 5);
    let report = site.build().unwrap();
    assert!(report.dirs_borrowed > 0, "the rebuild borrows directories");
    // What `storefront deploy` sends: the manifest's list, bytes read where the tree has them.
    let files = ManifestFiles::new(
        OutputDirs {
            public: site.public(),
            cache: site.dir.path().join("cache"),
        },
        None,
    );
    let list = files.list().unwrap();
    let live = DirSite { root: site.live() };
    assert_eq!(list, live.digests(), "every file, links followed");
    let fake = FakeNetlify::start(TOKEN, SITE).await.unwrap();
    let generated = generated();
    let deploy = DeployFiles {
        site: &list,
        generated: &generated,
    };
    let api = NetlifyApi::new(&config(&fake)).unwrap();
    let outcome = deploy_once(&api, &deploy, &files, 4, Duration::from_secs(30))
        .await
        .unwrap();
    assert_eq!(outcome.uploaded, outcome.required);
    assert_eq!(fake.live().unwrap().files, expected(&live, &generated));
}
