//! `storefront bench-webhook`: on a synthetic catalog, measures how long a webhook takes to go live
//! under the rebuild daemon: one product changed (catalog webhook) and one content page changed
//! (signed content webhook), each from sending the webhook over loopback HTTP until the served
//! page shows the change, plus the daemon's own receipt-to-live time and its phases.

use anyhow::{Context, Result, bail};
use clap::Args as ClapArgs;
use export::source::LocalExport;
use generator::BuildOptions;
use generator::fixtures::{FixtureOptions, write_fixtures};
use live_site::rebuild::{Daemon, Timing};
use live_site::site_server::{SiteFiles, router_over};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(ClapArgs)]
pub struct Args {
    /// Catalog size (products).
    #[arg(long, default_value_t = 10_000)]
    pub products: usize,
    /// Changes measured per kind.
    #[arg(long, default_value_t = 5)]
    pub rounds: usize,
    /// Scratch directory (deleted and recreated).
    #[arg(long, default_value = "content-cache/bench-webhook")]
    pub dir: PathBuf,
    #[arg(long, default_value = "site-src/templates")]
    pub templates: PathBuf,
    #[arg(long, default_value = "site-src/dist")]
    pub bundles: PathBuf,
}

const SECRET: &str = "bench-secret";

async fn http(
    addr: std::net::SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Result<(u16, String)> {
    Ok(loopback::request(addr, method, path, headers, body).await?)
}

fn edit(path: &Path, change: impl FnOnce(&mut Value)) -> Result<()> {
    let mut doc: Value = serde_json::from_slice(&std::fs::read(path)?)?;
    change(&mut doc);
    std::fs::write(path, serde_json::to_vec(&doc)?)?;
    Ok(())
}

/// Sends a webhook and polls the page until it shows `marker`: (wall ms, daemon receipt-to-live ms, phases).
async fn measure(
    addr: std::net::SocketAddr,
    daemon: &Daemon,
    webhook: (&str, Vec<(String, String)>, Vec<u8>),
    page: &str,
    marker: &str,
) -> Result<(f64, u64, String)> {
    let before = daemon.history().first().map(|s| s.id).unwrap_or(0);
    let (path, headers, body) = webhook;
    let headers: Vec<(&str, &str)> = headers
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let sent = Instant::now();
    let (status, text) = http(addr, "POST", path, &headers, &body).await?;
    if status != 202 {
        bail!("webhook answered {status}: {text}");
    }
    loop {
        let (_, html) = http(addr, "GET", page, &[], b"").await?;
        if html.contains(marker) {
            break;
        }
        if sent.elapsed() > Duration::from_secs(120) {
            bail!("{page} did not show the change within 120 s");
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let wall = sent.elapsed().as_secs_f64() * 1000.0;
    while daemon.history().first().map(|s| s.id).unwrap_or(0) == before {
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let status = daemon.history()[0].clone();
    if !status.ok {
        bail!("rebuild failed: {:?}", status.error);
    }
    let phases = status
        .phases_ms
        .iter()
        .map(|(n, ms)| format!("{n} {ms:.0}"))
        .collect::<Vec<_>>()
        .join(", ");
    Ok((
        wall,
        status.receipt_to_live_ms,
        format!("{} written; {phases}", status.written),
    ))
}

/// Empties `dir` and writes a synthetic export of `products` products to `{dir}/export`, the
/// same for the webhook and the dev benchmarks.
pub fn synthetic_export(dir: &Path, products: usize) -> Result<PathBuf> {
    let _ = std::fs::remove_dir_all(dir);
    let export = dir.join("export");
    write_fixtures(
        &export,
        &FixtureOptions {
            products,
            seed: 7,
            colours_per_product: 4,
        },
    )
    .context("writing fixtures")?;
    Ok(export)
}

/// The UK content file of a synthetic export with the about-us page titled `title`, serialised
/// (to be written when the benchmark starts its clock).
pub fn about_us_titled(export: &Path, title: &str) -> Result<Vec<u8>> {
    let mut doc: Value = serde_json::from_slice(&std::fs::read(export.join(ABOUT_US_FILE))?)?;
    let item = doc["responses"]
        .as_array_mut()
        .and_then(|r| {
            r.iter_mut()
                .find(|r| r["content"]["_meta"]["deliveryId"] == ABOUT_US_ITEM)
        })
        .context("the synthetic content has no about-us page")?;
    item["content"]["pageTitle"] = json!(title);
    Ok(serde_json::to_vec(&doc)?)
}

pub const ABOUT_US_FILE: &str = "content/uk.json";
pub const ABOUT_US_ITEM: &str = "uk-about-us";

/// The rebuild daemon over `export` as the benchmarks run it, building into `dir`'s `public` and
/// `cache`: no compaction during the measurement (it would compete for the two cores), and
/// nothing done after each rebuild.
pub fn start_daemon_without_compaction(
    export: &Path,
    templates: &Path,
    bundles: &Path,
    dir: &Path,
) -> Result<Daemon> {
    let opts = BuildOptions {
        export_dir: export.to_path_buf(),
        templates_dir: templates.to_path_buf(),
        bundles_dir: bundles.to_path_buf(),
        public_dir: dir.join("public"),
        cache_dir: dir.join("cache"),
        progress: false,
        plain_tree: false,
        file_digests: false,
    };
    Daemon::start(
        opts,
        Box::new(LocalExport::new(export.to_path_buf())),
        Timing {
            compact_after: Duration::from_secs(3600),
            ..Timing::default()
        },
        Box::new(|_| {}),
    )
}

pub fn run(args: Args) -> Result<()> {
    let started = Instant::now();
    let export = synthetic_export(&args.dir, args.products)?;
    println!(
        "{} products written in {:.1}s",
        args.products,
        started.elapsed().as_secs_f64()
    );
    let started = Instant::now();
    let daemon =
        start_daemon_without_compaction(&export, &args.templates, &args.bundles, &args.dir)?;
    println!(
        "daemon up (first build) in {:.1}s",
        started.elapsed().as_secs_f64()
    );
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(args.dir.join("cache/build-manifest.json"))?)?;
    let files: Vec<String> = manifest["files"]
        .as_object()
        .map(|o| o.keys().cloned().collect())
        .unwrap_or_default();
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(async move {
        let mut config = api::Config::new(
            format!("sqlite://{}", args.dir.join("api.db").display()),
            export.clone(),
        );
        config.watch_interval = None;
        config.content_webhook_secret = Some(SECRET.into());
        config.catalog_webhook_secret = Some(SECRET.into());
        let state = api::AppState::open(config).await?;
        state.webhooks().attach(Arc::new(daemon.clone()));
        let app = router_over(SiteFiles::View(daemon.view()), state);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        tokio::spawn(async move { axum::serve(listener, app).await });

        println!("| change | round | webhook sent → page shows it | daemon receipt → live | detail |");
        println!("|---|---|---|---|---|");
        let products: Value = serde_json::from_slice(&std::fs::read(export.join("catalog/products.json"))?)?;
        for round in 0..args.rounds {
            let product = &products["data"][round * 7 % args.products.max(1)];
            let id = product["id"].as_u64().context("product id")?;
            let page = files
                .iter()
                .find(|f| f.starts_with(&format!("p/{id}/")) && f.ends_with("index.html"))
                .map(|f| format!("/{}", f.trim_end_matches("index.html")))
                .context("product page")?;
            let marker = format!("bench-marker-{round}-{id}");
            edit(&export.join("catalog/products.json"), |doc| {
                if let Some(p) = doc["data"].as_array_mut().and_then(|ps| ps.iter_mut().find(|p| p["id"] == id)) {
                    p["description"] = json!(format!("<p>{marker}</p>"));
                }
            })?;
            let body = serde_json::to_vec(&json!({"scope": "store/product/updated", "data": {"type": "product", "id": id}, "created_at": round}))?;
            let (wall, daemon_ms, detail) = measure(
                addr,
                &daemon,
                ("/api/webhooks/catalog", vec![("X-Webhook-Secret".into(), SECRET.into())], body),
                &page,
                &marker,
            )
            .await?;
            println!("| one product | {} | {wall:.0} ms | {daemon_ms} ms | {detail} |", round + 1);
        }
        for round in 0..args.rounds {
            let marker = format!("bench-title-{round}");
            std::fs::write(export.join(ABOUT_US_FILE), about_us_titled(&export, &marker)?)?;
            let body = serde_json::to_vec(&json!({"name": "dynamic-content.content-item.updated", "payload": {"id": "uk-about-us", "round": round}}))?;
            let sig = api::webhooks::signature::sign(SECRET.as_bytes(), &body);
            let (wall, daemon_ms, detail) = measure(
                addr,
                &daemon,
                ("/api/webhooks/content", vec![("X-Amplience-Webhook-Signature".into(), sig)], body),
                "/about-us/",
                &marker,
            )
            .await?;
            println!("| one content page | {} | {wall:.0} ms | {daemon_ms} ms | {detail} |", round + 1);
        }
        anyhow::Ok(())
    })
}
