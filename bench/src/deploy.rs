//! `storefront bench-deploy`: on a synthetic catalog with the loopback fake of Netlify's deploy
//! API, measures a cold deploy of the whole site (each file uploaded once), a second cold deploy
//! of the same tree (nothing uploaded), and one product changed by webhook until the new deploy
//! is ready at the fake, with the files it uploaded (targets: ≤ 2 s, ≤ 20 files).

use anyhow::{Context, Result, bail};
use api::webhooks::events::Change;
use api::webhooks::{ChangeSink, Origin};
use clap::Args as ClapArgs;
use generator::output::OutputDirs;
use live_site::deploy::api::NetlifyApi;
use live_site::deploy::fake::FakeNetlify;
use live_site::deploy::files::{DeployFiles, ManifestFiles, SiteFiles, generated_files};
use live_site::deploy::{DeployConfig, DeployHandle, DeployRecord, run::deploy_once};
use live_site::netlify::NetlifyConfig;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(ClapArgs)]
pub struct Args {
    /// Catalog size (products).
    #[arg(long, default_value_t = 10_000)]
    pub products: usize,
    /// Product changes measured.
    #[arg(long, default_value_t = 3)]
    pub rounds: usize,
    /// Scratch directory (deleted and recreated).
    #[arg(long, default_value = "content-cache/bench-deploy")]
    pub dir: PathBuf,
    #[arg(long, default_value = "site-src/templates")]
    pub templates: PathBuf,
    #[arg(long, default_value = "site-src/dist")]
    pub bundles: PathBuf,
    #[arg(long, default_value = "netlify.toml")]
    pub netlify: PathBuf,
}

/// Waits until `handle` has `ok` successful deploys; answers the newest record.
async fn deployed(handle: &DeployHandle, ok: usize) -> Result<DeployRecord> {
    let deadline = Instant::now() + Duration::from_secs(1800);
    loop {
        let history = handle.history();
        if history.iter().filter(|r| r.ok).count() >= ok {
            return Ok(history[0].clone());
        }
        if let Some(failed) = history.first().filter(|r| !r.ok) {
            eprintln!("deploy attempt failed: {:?}", failed.error);
        }
        if Instant::now() > deadline {
            bail!("no deploy {ok} within 30 minutes");
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
}

pub fn run(args: Args) -> Result<()> {
    let export = crate::webhook::synthetic_export(&args.dir, args.products)?;
    let dirs = || OutputDirs {
        public: args.dir.join("public"),
        cache: args.dir.join("cache"),
    };
    let netlify = NetlifyConfig::load(&args.netlify)?;
    let started = Instant::now();
    let daemon = crate::webhook::start_daemon_without_compaction(
        &export,
        &args.templates,
        &args.bundles,
        &args.dir,
    )?;
    println!(
        "{} products: daemon up (first build) in {:.1} s",
        args.products,
        started.elapsed().as_secs_f64()
    );
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(async move {
        let fake = FakeNetlify::start("bench-token", "bench-site").await?;
        let config = DeployConfig::new(
            "bench-token".into(),
            "bench-site".into(),
            &fake.base_url(),
            "https://origin.example",
        )?;
        // Cold: the worker's first deploy publishes the whole site.
        let handle = live_site::deploy::start_for_daemon(&daemon, &netlify, dirs(), config.clone())?;
        let cold = deployed(&handle, 1).await?;
        let mut per_path: BTreeMap<String, usize> = BTreeMap::new();
        for (_, path) in fake.uploads() {
            *per_path.entry(path).or_default() += 1;
        }
        let most = per_path.values().copied().max().unwrap_or(0);
        println!("| deploy | files listed | files uploaded | bytes uploaded | create → ready | receipt → ready |");
        println!("|---|---|---|---|---|---|");
        println!(
            "| cold (whole site) | {} | {} (each path at most {most}×) | {} | {} ms | — |",
            cold.files,
            cold.files_uploaded,
            cold.bytes_uploaded,
            cold.time_to_ready_ms.unwrap_or_default()
        );
        // A second cold deploy of the same tree: a new client, the list from the manifest.
        let site = ManifestFiles::new(dirs(), None);
        let list = site.list()?;
        let generated = generated_files(&netlify, &config.api_origin)?;
        let files = DeployFiles { site: &list, generated: &generated };
        let api = NetlifyApi::new(&config)?;
        let again = deploy_once(&api, &files, &site, config.concurrency, Duration::from_secs(600))
            .await
            .map_err(|e| anyhow::anyhow!("{}", e.error))?;
        println!(
            "| cold again (same tree) | {} | {} | {} | {} ms | — |",
            again.files, again.uploaded, again.bytes_uploaded, again.create_to_ready_ms
        );
        let products: Value =
            serde_json::from_slice(&std::fs::read(export.join("catalog/products.json"))?)?;
        let mut worst = (0u64, 0usize);
        for round in 0..args.rounds {
            let product = &products["data"][(round * 7 + 3) % args.products.max(1)];
            let id = product["id"].as_u64().context("product id")?;
            let path = export.join("catalog/products.json");
            let mut doc: Value = serde_json::from_slice(&std::fs::read(&path)?)?;
            if let Some(p) = doc["data"].as_array_mut().and_then(|ps| ps.iter_mut().find(|p| p["id"] == id)) {
                p["description"] = json!(format!("<p>deploy-bench-{round}</p>"));
            }
            std::fs::write(&path, serde_json::to_vec(&doc)?)?;
            let ok_before = handle.history().iter().filter(|r| r.ok).count();
            daemon.submit(Origin::Catalog, &format!("bench-{round}"), vec![Change::Product(id)]);
            let record = deployed(&handle, ok_before + 1).await?;
            let receipt = record.receipt_to_ready_ms.unwrap_or_default();
            worst = (worst.0.max(receipt), worst.1.max(record.files_uploaded));
            let rebuild = daemon.history().first().map(|r| r.receipt_to_live_ms).unwrap_or_default();
            println!(
                "| one product by webhook, round {} | {} | {} | {} | {} ms | {receipt} ms (served here after {rebuild} ms) |",
                round + 1,
                record.files,
                record.files_uploaded,
                record.bytes_uploaded,
                record.time_to_ready_ms.unwrap_or_default()
            );
        }
        println!();
        println!(
            "targets: one product ready ≤ 2000 ms after receipt: {} (worst {} ms); ≤ 20 files: {} (worst {}); cold uploads each file once: {}; second cold deploy uploads nothing: {}",
            if worst.0 <= 2000 { "met" } else { "NOT met" },
            worst.0,
            if worst.1 <= 20 { "met" } else { "NOT met" },
            worst.1,
            if most <= 1 && cold.files_uploaded == cold.files { "met" } else { "NOT met" },
            if again.uploaded == 0 { "met" } else { "NOT met" },
        );
        anyhow::Ok(())
    })
}
