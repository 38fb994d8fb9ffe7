//! `storefront dev` end to end, as a developer uses it: the real binary serves a copy of the sample
//! store, a saved content change is rebuilt and pushed to the browser through live reload, a broken
//! export shows its error in the page while the last good site keeps being served, and fixing it
//! clears the error.

mod common;

use common::*;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

struct Dev {
    child: Child,
    addr: String,
}

impl Drop for Dev {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_addr() -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().to_string()
}

/// The status and the whole answer (head and body) of `GET path`, or `None` while the server is
/// not up yet.
fn http_get(addr: &str, path: &str) -> Option<(u16, String)> {
    let reply = loopback::Request::get(path)
        .send_blocking(addr, Duration::from_secs(10))
        .ok()?;
    Some((
        reply.status,
        format!("{}\r\n\r\n{}", reply.head, reply.text()),
    ))
}

/// Polls until `check` holds for the page, for at most 20 s (the watcher debounces, then rebuilds).
fn wait_for(addr: &str, path: &str, what: &str, check: impl Fn(u16, &str) -> bool) -> String {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Some((status, body)) = http_get(addr, path)
            && check(status, &body)
        {
            return body;
        }
        assert!(
            Instant::now() < deadline,
            "timed out waiting for {what} at {path}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

fn start(site: &Site, templates: &std::path::Path) -> Dev {
    start_with_stdout(site, templates, Stdio::null())
}

/// `storefront dev` over `site` with `templates`, its standard output going to `stdout`.
fn start_with_stdout(site: &Site, templates: &std::path::Path, stdout: Stdio) -> Dev {
    let addr = free_addr();
    let child = Command::new(env!("CARGO_BIN_EXE_storefront"))
        .current_dir(repo())
        .args(["dev", "--export"])
        .arg(&site.export)
        .arg("--out")
        .arg(site.public())
        .arg("--cache")
        .arg(site.dir.path().join("cache"))
        .arg("--templates")
        .arg(templates)
        .arg("--island-sources")
        .arg(site.dir.path().join("no-island-sources"))
        .args(["--addr", &addr])
        .stdout(stdout)
        .stderr(Stdio::null())
        .spawn()
        .expect("storefront dev starts");
    let dev = Dev { child, addr };
    wait_for(&dev.addr, "/api/health", "the server", |s, _| s == 200);
    dev
}

/// Opens the live-reload event stream and returns once a `reload` event arrives.
fn reload_listener(addr: &str) -> std::thread::JoinHandle<bool> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let events = runtime
        .block_on(loopback::Request::get("/_tower-livereload/event-stream").open(addr.to_string()))
        .unwrap();
    std::thread::spawn(move || {
        let mut events = events;
        runtime.block_on(async {
            let reload = events.wait_for_line("event: reload");
            matches!(
                tokio::time::timeout(Duration::from_secs(20), reload).await,
                Ok(Ok(true))
            )
        })
    })
}

#[test]
fn saves_rebuild_reload_and_errors_show_over_the_last_good_site() {
    let site = copied_sample();
    let templates = site.dir.path().join("templates");
    copy_dir(&repo().join("site-src/templates"), &templates);
    let dev = start(&site, &templates);
    let home = wait_for(&dev.addr, "/", "the home page", |s, _| s == 200);
    assert!(
        home.contains("_tower-livereload"),
        "pages carry the live-reload script"
    );

    // An editor changes a content page: the page is rebuilt and the browser told to reload.
    let reloaded = reload_listener(&dev.addr);
    std::thread::sleep(Duration::from_millis(300));
    edit_json(&site.export, "content/uk.json", |d| {
        for r in d["responses"].as_array_mut().unwrap() {
            if r["content"]["_meta"]["deliveryKey"] == "uk/about-us" {
                r["content"]["pageTitle"] = serde_json::json!("About the studio");
            }
        }
    });
    wait_for(&dev.addr, "/about-us", "the new title", |s, b| {
        s == 200 && b.contains("About the studio")
    });
    assert!(reloaded.join().unwrap(), "the browser was told to reload");

    // A broken export: the error shows in the page, the last good site is still served.
    let products = site.export.join("catalog/products.json");
    let good = std::fs::read_to_string(&products).unwrap();
    std::fs::write(&products, &good[..good.len() / 3]).unwrap();
    let page = wait_for(&dev.addr, "/about-us", "the error overlay", |_, b| {
        b.contains("storefront-dev-error")
    });
    assert!(
        page.contains("catalog/products.json") && page.contains("malformed JSON"),
        "the overlay names the file and the problem"
    );
    assert!(
        page.contains("About the studio"),
        "the last good page is still served"
    );

    // A template error too.
    let page_template = templates.join("pages/content.html");
    let template_text = std::fs::read_to_string(&page_template).unwrap();
    std::fs::write(&products, &good).unwrap();
    std::fs::write(&page_template, format!("{template_text}{{% if %}}")).unwrap();
    let page = wait_for(&dev.addr, "/about-us", "the template error", |_, b| {
        b.contains("storefront-dev-error") && b.contains("content.html")
    });
    assert!(page.contains("About the studio"));

    // Fixed: the overlay goes away.
    std::fs::write(&page_template, template_text).unwrap();
    wait_for(&dev.addr, "/about-us", "the overlay to clear", |s, b| {
        s == 200 && !b.contains("storefront-dev-error")
    });
}

/// Reading files is not changing them: the dev server's own builds read the templates (and Vite
/// reads the island sources), and the watcher must not take those reads for saves.
#[test]
fn an_idle_dev_server_does_not_rebuild() {
    let site = copied_sample();
    let templates = site.dir.path().join("templates");
    copy_dir(&repo().join("site-src/templates"), &templates);
    let log = site.dir.path().join("dev.log");
    let dev = start_with_stdout(
        &site,
        &templates,
        std::fs::File::create(&log).unwrap().into(),
    );
    wait_for(&dev.addr, "/", "the home page", |s, _| s == 200);
    // Pages served meanwhile read the tree too.
    for _ in 0..10 {
        http_get(&dev.addr, "/about-us");
        std::thread::sleep(Duration::from_millis(300));
    }
    let rebuilds = |text: &str| text.lines().filter(|l| l.starts_with("rebuild ")).count();
    let idle = std::fs::read_to_string(&log).unwrap();
    assert_eq!(rebuilds(&idle), 0, "rebuilt while nothing changed:\n{idle}");

    // A save still rebuilds, once.
    edit_json(&site.export, "content/uk.json", |d| {
        for r in d["responses"].as_array_mut().unwrap() {
            if r["content"]["_meta"]["deliveryKey"] == "uk/about-us" {
                r["content"]["pageTitle"] = serde_json::json!("About the idle studio");
            }
        }
    });
    wait_for(&dev.addr, "/about-us", "the new title", |s, b| {
        s == 200 && b.contains("About the idle studio")
    });
    std::thread::sleep(Duration::from_secs(2));
    let after = std::fs::read_to_string(&log).unwrap();
    assert_eq!(rebuilds(&after), 1, "one save, one rebuild:\n{after}");

    // A save's second event can arrive after its first was built (an editor, or `fs::write`, may
    // write a file in two steps): the same bytes again are not a rebuild. A later real edit shows
    // the watcher has seen the rewrite by then.
    let uk = site.export.join("content/uk.json");
    std::fs::write(&uk, std::fs::read(&uk).unwrap()).unwrap();
    std::thread::sleep(Duration::from_secs(1));
    edit_json(&site.export, "content/uk.json", |d| {
        for r in d["responses"].as_array_mut().unwrap() {
            if r["content"]["_meta"]["deliveryKey"] == "uk/about-us" {
                r["content"]["pageTitle"] = serde_json::json!("About the quiet studio");
            }
        }
    });
    wait_for(&dev.addr, "/about-us", "the second title", |s, b| {
        s == 200 && b.contains("About the quiet studio")
    });
    std::thread::sleep(Duration::from_secs(1));
    let last = std::fs::read_to_string(&log).unwrap();
    assert_eq!(
        rebuilds(&last),
        2,
        "an unchanged rewrite between two saves is not a rebuild:\n{last}"
    );
}
