//! `storefront bench`: generates synthetic catalogs and measures cold build, no-change rebuild
//! and one-product-change rebuilds (several in a row, so the steady state shows), each in a
//! child `storefront build` process, against a write-only floor (the same files, same sizes,
//! written with no rendering) measured in the same run.

use anyhow::{Context, Result, bail};
use clap::Args as ClapArgs;
use generator::fixtures::{FixtureOptions, write_fixtures};
use rayon::prelude::*;
use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

#[derive(ClapArgs)]
pub struct Args {
    /// Catalog sizes (products) to measure.
    #[arg(long, value_delimiter = ',', default_value = "1000,10000")]
    pub sizes: Vec<usize>,
    /// Scratch directory (an earlier run's trees in it are removed first, this run's at the end).
    #[arg(long, default_value = "content-cache/bench")]
    pub dir: PathBuf,
    #[arg(long, default_value = "site-src/templates")]
    pub templates: PathBuf,
    #[arg(long, default_value = "site-src/dist")]
    pub bundles: PathBuf,
}

/// One-product rebuilds measured in a row: each borrows the unchanged directories of the cold
/// build's generation (output.rs), so the first after a cold build should cost what the later
/// ones do; several show that it stays so.
const ONE_PRODUCT_REBUILDS: usize = 4;

#[derive(Deserialize)]
struct Stats {
    pages: usize,
    written: Vec<String>,
    unchanged: usize,
    /// Until the new site is live.
    seconds: f64,
    peak_rss_mb: Option<f64>,
    /// The whole command, pruning old generations included (measured here, not reported).
    #[serde(skip)]
    wall: f64,
}

/// Every file of the live site (following the public symlink) with its size, relative to the root.
fn files_with_sizes(root: &Path) -> Result<Vec<(PathBuf, u64)>> {
    let root =
        std::fs::canonicalize(root).with_context(|| format!("resolving {}", root.display()))?;
    let mut out = Vec::new();
    // A generation may borrow directories from another through symlinks: followed.
    for entry in walkdir::WalkDir::new(&root).follow_links(true) {
        let entry = entry?;
        if entry.file_type().is_file() {
            let rel = entry
                .path()
                .strip_prefix(&root)
                .unwrap_or(entry.path())
                .to_path_buf();
            out.push((rel, entry.metadata()?.len()));
        }
    }
    Ok(out)
}

fn run_build(args: &Args, export: &Path, work: &Path) -> Result<Stats> {
    let exe = std::env::current_exe().context("finding the storefront binary")?;
    let started = Instant::now();
    let out = Command::new(exe)
        .arg("build")
        .arg("--export")
        .arg(export)
        .arg("--out")
        .arg(work.join("public"))
        .arg("--cache")
        .arg(work.join("cache"))
        .arg("--templates")
        .arg(&args.templates)
        .arg("--bundles")
        .arg(&args.bundles)
        .arg("--stats-json")
        .output()
        .context("running storefront build")?;
    if !out.status.success() {
        bail!("build failed: {}", String::from_utf8_lossy(&out.stderr));
    }
    let wall = started.elapsed().as_secs_f64();
    let line = String::from_utf8_lossy(&out.stdout);
    let stats: Stats = serde_json::from_str(line.trim().lines().last().unwrap_or_default())
        .context("reading build statistics")?;
    Ok(Stats { wall, ..stats })
}

/// Writes the same number of files with the same sizes and directory layout, in parallel, with
/// no rendering: the floor a build cannot beat on this disk. Its directories are made as the
/// build makes them (each once, before the writes), so the floor does no work a build skips.
fn write_floor(files: &[(PathBuf, u64)], dir: &Path) -> Result<f64> {
    let _ = std::fs::remove_dir_all(dir);
    let max = files.iter().map(|f| f.1).max().unwrap_or(0) as usize;
    let payload = vec![b'x'; max];
    let rels: Vec<String> = files
        .iter()
        .map(|(rel, _)| rel.to_string_lossy().replace('\\', "/"))
        .collect();
    let started = Instant::now();
    std::fs::create_dir_all(dir)?;
    generator::output::create_dirs_once(dir, rels.iter().map(String::as_str))
        .map_err(|(path, e)| anyhow::anyhow!("{}: {e}", path.display()))?;
    files
        .par_iter()
        .try_for_each(|(rel, size)| std::fs::write(dir.join(rel), &payload[..*size as usize]))?;
    Ok(started.elapsed().as_secs_f64())
}

/// Flushes dirty pages to disk before a timed step, so that neither the cold build nor the floor
/// pays for the writeback of what ran before it (the fixtures, or the build's ~1 GB of pages).
fn settle() -> Result<()> {
    let status = std::process::Command::new("sync")
        .status()
        .context("running sync")?;
    anyhow::ensure!(status.success(), "sync failed: {status}");
    Ok(())
}

/// Changes one product's price in the export, as an editor would.
fn change_one_product(export: &Path) -> Result<u64> {
    let path = export.join("catalog/products.json");
    let mut doc: serde_json::Value = serde_json::from_slice(&std::fs::read(&path)?)?;
    let product = &mut doc["data"][0];
    let id = product["id"].as_u64().context("product id")?;
    product["price"] = serde_json::json!(product["price"].as_f64().unwrap_or(10.0) + 1.0);
    std::fs::write(&path, serde_json::to_vec(&doc)?)?;
    Ok(id)
}

/// Sells one unit of a variant's stock in the export, as the warehouse feed would: every file the
/// pages read stays byte-identical, so the build takes its full path (load, validate, plan,
/// compare) and must write nothing.
fn change_stock(export: &Path) -> Result<()> {
    let path = export.join("catalog/inventory.json");
    let mut doc: serde_json::Value = serde_json::from_slice(&std::fs::read(&path)?)?;
    let item = doc["data"]
        .as_array_mut()
        .and_then(|items| {
            items
                .iter_mut()
                .find(|i| i["locations"][0]["available_to_sell"].as_i64() > Some(0))
        })
        .context("an inventory item with stock at location 1")?;
    let sell = |v: &serde_json::Value| serde_json::json!(v.as_i64().unwrap_or(1) - 1);
    item["locations"][0]["available_to_sell"] = sell(&item["locations"][0]["available_to_sell"]);
    item["allLocationsTotalAvailableToSell"] = sell(&item["allLocationsTotalAvailableToSell"]);
    std::fs::write(&path, serde_json::to_vec(&doc)?)?;
    Ok(())
}

/// Pages of the live site that link to a product: those a change to it must rewrite.
fn pages_showing(public: &Path, product_id: u64) -> Result<usize> {
    let needle = format!("/p/{product_id}/");
    let files = files_with_sizes(public)?;
    Ok(files
        .par_iter()
        .filter(|(rel, _)| rel.extension().is_some_and(|e| e == "html"))
        .filter(|(rel, _)| {
            std::fs::read_to_string(public.join(rel))
                .map(|t| t.contains(&needle))
                .unwrap_or(false)
        })
        .count())
}

pub fn run(args: Args) -> Result<()> {
    let cpus = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    println!(
        "machine: {cpus} cores; release build: {}",
        !cfg!(debug_assertions)
    );
    // An earlier run's trees go first, and every tree of this run only at the end: see
    // `wait_out_removals`.
    let roots: Vec<PathBuf> = args
        .sizes
        .iter()
        .map(|size| args.dir.join(format!("p{size}")))
        .collect();
    let mut removed = false;
    for root in &roots {
        removed |= std::fs::remove_dir_all(root).is_ok();
    }
    if removed {
        wait_out_removals(&args.dir)?;
    }
    println!(
        "| products | pages | cold build | pages/s | write-only floor | build / floor | peak memory | no-change rebuild | files written | stock-only change | files written | one-product rebuilds, {ONE_PRODUCT_REBUILDS} in a row: until live (whole command) | files written (expected) |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for (&size, root) in args.sizes.iter().zip(&roots) {
        let export = root.join("export");
        write_fixtures(
            &export,
            &FixtureOptions {
                products: size,
                seed: 7,
                colours_per_product: 4,
            },
        )
        .context("writing fixtures")?;
        let work = root.join("site");
        settle()?;
        let cold = run_build(&args, &export, &work)?;
        let files = files_with_sizes(&work.join("public"))?;
        settle()?;
        let floor = write_floor(&files, &root.join("floor"))?;
        // The floor's 7.5 GB (at 10k) would otherwise still be written back while the rebuilds
        // below are timed. Its tree is removed with the rest at the end, not now: on ext4 without
        // a journal, the kernel skips inodes freed in the last minutes when it allocates new ones
        // (`recently_deleted`), so removing its 300k inodes here made every rebuild pay for it.
        settle()?;
        let again = run_build(&args, &export, &work)?;
        change_stock(&export)?;
        let stock_only = run_build(&args, &export, &work)?;
        let mut expected = 0;
        let mut rebuilds = Vec::new();
        let mut changed_pages = Vec::new();
        for _ in 0..ONE_PRODUCT_REBUILDS {
            let product = change_one_product(&export)?;
            expected = pages_showing(&work.join("public"), product)?;
            let changed = run_build(&args, &export, &work)?;
            rebuilds.push(format!("{:.2} s ({:.2} s)", changed.seconds, changed.wall));
            changed_pages.push(
                changed
                    .written
                    .iter()
                    .filter(|p| p.ends_with(".html"))
                    .count()
                    .to_string(),
            );
        }
        println!(
            "| {size} | {} | {:.2} s | {:.0} | {:.2} s | {:.2}× | {:.0} MiB | {:.2} s | {} | {:.2} s | {} | {} | {} ({expected}) |",
            cold.pages,
            cold.seconds,
            cold.pages as f64 / cold.seconds,
            floor,
            cold.seconds / floor,
            cold.peak_rss_mb.unwrap_or(0.0),
            again.seconds,
            again.written.len(),
            stock_only.seconds,
            stock_only.written.len(),
            rebuilds.join(", "),
            changed_pages.join(", "),
        );
        let _ = again.unchanged;
    }
    for root in &roots {
        let _ = std::fs::remove_dir_all(root);
    }
    Ok(())
}

/// How long ext4 without a journal goes on skipping freed inodes when it allocates new ones
/// (`recently_deleted()` in fs/ext4/ialloc.c: an inode freed less than 60 s ago, or 360 s while
/// its inode-table block is dirty, one buffer lookup each, on every new inode). Measured on the
/// 2-core VM: a 1k cold build took 5.8 s (45 % of its samples in `recently_deleted`) just after a
/// removal and 2.0 s six minutes later.
const RECENTLY_DELETED: std::time::Duration = std::time::Duration::from_secs(370);

/// After removing an earlier run's trees: on ext4 without a journal, waits until new inodes are
/// no longer slowed by the freed ones, so that the cold build measures the build.
fn wait_out_removals(dir: &Path) -> Result<()> {
    if !journal_less_ext4(dir) {
        return Ok(());
    }
    println!(
        "(waiting {} s after removing the earlier run's trees: ext4 without a journal skips inodes freed in the last minutes)",
        RECENTLY_DELETED.as_secs()
    );
    settle()?;
    std::thread::sleep(RECENTLY_DELETED);
    Ok(())
}

/// Whether `dir` (or its nearest existing ancestor) is on ext4 mounted without a journal.
fn journal_less_ext4(dir: &Path) -> bool {
    let existing = dir
        .ancestors()
        .find(|d| d.exists())
        .unwrap_or(Path::new("."));
    let Ok(found) = Command::new("findmnt")
        .args(["-n", "-o", "SOURCE,FSTYPE", "--target"])
        .arg(existing)
        .output()
    else {
        return false;
    };
    let text = String::from_utf8_lossy(&found.stdout);
    let mut fields = text.split_whitespace();
    let (Some(source), Some("ext4")) = (fields.next(), fields.next()) else {
        return false;
    };
    let device = source.rsplit('/').next().unwrap_or(source);
    std::fs::read_to_string(format!("/sys/fs/ext4/{device}/journal_task"))
        .is_ok_and(|task| task.trim() == "<none>")
}
