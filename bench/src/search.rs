//! `storefront bench-search`: on a synthetic catalog (10k products by default) measures the search
//! index build (cold, one product changed, nothing changed) and, through the real API on loopback,
//! `GET /api/search` and `GET /api/listing` with two filters and a sort: p50 / p99 / max.

use crate::load::{Report, get};
use anyhow::{Context, Result, bail};
use clap::Args as ClapArgs;
use domain::catalog::{Catalog, OptionKind};
use generator::fixtures::{FixtureOptions, write_fixtures};
use generator::search_index;
use generator::site::SiteModel;
use loopback::Connection;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

#[derive(ClapArgs)]
pub struct Args {
    /// Products in the synthetic catalog.
    #[arg(long, default_value_t = 10_000)]
    pub products: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Requests measured per scenario (after 200 warm-up requests).
    #[arg(long, default_value_t = 3000)]
    pub requests: usize,
    /// Concurrent keep-alive connections (closed loop: each sends its next request on an answer).
    #[arg(long, default_value_t = 2)]
    pub connections: usize,
    /// Page templates, for the cold site build whose search-index share is reported.
    #[arg(long, default_value = "site-src/templates")]
    pub templates: PathBuf,
    /// Vite's build output, for that build.
    #[arg(long, default_value = "site-src/dist")]
    pub bundles: PathBuf,
    /// Skip the cold site build (and so the search-index share of it).
    #[arg(long)]
    pub no_site_build: bool,
    /// Also measure handing the index to another API host through this store (`postgres://…` or
    /// `sqlite://…`, emptied of earlier snapshots): the leader's publish and the other host's
    /// install, cold and after the one-product change.
    #[arg(long)]
    pub publish_to: Option<String>,
    /// Scratch directory (deleted and recreated).
    #[arg(long, default_value = "content-cache/bench-search")]
    pub dir: PathBuf,
}

/// Form-encodes a query value (names and labels here are letters, digits, spaces and hyphens).
fn encode(value: &str) -> String {
    value
        .bytes()
        .map(|b| match b {
            b' ' => "+".to_string(),
            b if b.is_ascii_alphanumeric() || b == b'-' || b == b'.' => (b as char).to_string(),
            b => format!("%{b:02X}"),
        })
        .collect()
}

/// One character doubled in the middle of a word: a typo the engine should forgive.
fn typo(word: &str) -> String {
    let chars: Vec<char> = word.chars().collect();
    let mid = chars.len() / 2;
    chars[..mid]
        .iter()
        .chain(std::iter::once(&chars[mid]))
        .chain(chars[mid..].iter())
        .collect()
}

/// Queries shoppers type: whole names, prefixes, typos, sku prefixes, colour + category words.
fn search_paths(catalog: &Catalog) -> Vec<String> {
    let step = (catalog.products.len() / 200).max(1);
    let mut out = Vec::new();
    for (i, p) in catalog.products.iter().step_by(step).enumerate() {
        let words: Vec<&str> = p.name.split_whitespace().collect();
        let first = words.first().copied().unwrap_or("dress");
        let query = match i % 5 {
            0 => p.name.clone(),
            1 => first.chars().take(3).collect(),
            2 => typo(words.last().copied().unwrap_or(first)),
            3 => p.sku.chars().take(4).collect(),
            _ => format!(
                "{} {}",
                p.colourways
                    .first()
                    .map(|c| c.label.as_str())
                    .unwrap_or("black"),
                words.last().copied().unwrap_or(first)
            ),
        };
        out.push(format!("/api/search?market=uk&query={}", encode(&query)));
    }
    out
}

/// Listings with two filters (a colour and a size) and a price sort, over every category.
fn listing_paths(catalog: &Catalog) -> Vec<String> {
    let mut out = Vec::new();
    for (i, c) in catalog.categories.iter().enumerate() {
        let Some(p) = catalog
            .products
            .iter()
            .find(|p| p.categories.contains(&c.id))
        else {
            continue;
        };
        let colour = &p.colourways[i % p.colourways.len()].label;
        let size = p
            .option(OptionKind::Size)
            .and_then(|o| o.values.get(i % o.values.len().max(1)))
            .map(|v| v.label.clone())
            .unwrap_or_else(|| "M".into());
        let sort = if i % 2 == 0 {
            "price-asc"
        } else {
            "price-desc"
        };
        out.push(format!(
            "/api/listing?market=uk&kind=category&id={}&filters%5BColor%5D={}&filters%5BSize%5D={}&sort={sort}",
            c.id,
            encode(colour),
            encode(&size)
        ));
    }
    out
}

async fn measure(
    name: &'static str,
    addr: SocketAddr,
    paths: &[String],
    requests: usize,
    connections: usize,
) -> Result<Report> {
    let mut warm = Connection::open(addr).await?;
    for path in paths.iter().cycle().take(200) {
        let (status, body) = warm.send(&get(addr, path)).await?;
        if status != 200 {
            bail!("{path}: {status} {}", String::from_utf8_lossy(&body));
        }
    }
    let started = Instant::now();
    let per_conn = requests.div_ceil(connections.max(1));
    let mut tasks = Vec::new();
    for c in 0..connections.max(1) {
        let paths: Vec<String> = paths.to_vec();
        tasks.push(tokio::spawn(async move {
            let mut conn = Connection::open(addr).await?;
            let mut latencies = Vec::with_capacity(per_conn);
            let mut errors = 0;
            for k in 0..per_conn {
                let path = &paths[(c * 7919 + k) % paths.len()];
                let request = get(addr, path);
                let t = Instant::now();
                let (status, _) = conn.send(&request).await?;
                latencies.push(t.elapsed());
                if status != 200 {
                    errors += 1;
                }
            }
            anyhow::Ok((latencies, errors))
        }));
    }
    let mut latencies = Vec::new();
    let mut errors = 0;
    for task in tasks {
        let (l, e) = task.await??;
        latencies.extend(l);
        errors += e;
    }
    latencies.sort();
    Ok(Report {
        name,
        rate: 0,
        sent: latencies.len(),
        ok: latencies.len() - errors,
        errors,
        elapsed: started.elapsed(),
        latencies,
    })
}

fn timed<T>(f: impl FnOnce() -> Result<T>) -> Result<(T, Duration)> {
    let t = Instant::now();
    let value = f()?;
    Ok((value, t.elapsed()))
}

fn build_index(cache: &Path, inputs: &export::Inputs) -> Result<Duration> {
    let ((), took) = timed(|| {
        let site = SiteModel::new(&inputs.catalog);
        // A fresh memo each time: this measures the index update itself, as a full build runs it.
        search_index::update(
            cache,
            &inputs.catalog,
            &inputs.content,
            &site,
            &mut Default::default(),
        )?;
        Ok(())
    })?;
    Ok(took)
}

pub fn run(args: Args) -> Result<()> {
    let _ = std::fs::remove_dir_all(&args.dir);
    let export = args.dir.join("export");
    let cache = args.dir.join("cache");
    write_fixtures(
        &export,
        &FixtureOptions {
            products: args.products,
            seed: args.seed,
            colours_per_product: 4,
        },
    )
    .with_context(|| format!("writing fixtures to {}", export.display()))?;
    // The share target is against a cold site build: run one here, in the same run, and take its
    // search-index phase (the site model it uses is built by the site build anyway).
    if !args.no_site_build {
        cold_site_build(&args, &export)?;
    }
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    let mut inputs = export::load_export(&export)
        .map_err(|e| anyhow::anyhow!("{e}"))
        .context("loading the synthetic export")?;
    let (_, model) = timed(|| Ok(SiteModel::new(&inputs.catalog)))?;
    let cold = build_index(&cache, &inputs)?.saturating_sub(model);
    let handover = match &args.publish_to {
        Some(url) => Some(runtime.block_on(Handover::start(url, &cache, &args.dir))?),
        None => None,
    };
    let unchanged = build_index(&cache, &inputs)?.saturating_sub(model);
    let catalog = std::sync::Arc::make_mut(&mut inputs.catalog);
    for way in &mut std::sync::Arc::make_mut(&mut catalog.products[0]).colourways {
        way.prices[0].price.minor += 100;
    }
    let one_changed = build_index(&cache, &inputs)?.saturating_sub(model);
    println!(
        "index alone (site model excluded): cold {:.2} s; nothing changed {:.2} s; one product changed {:.2} s",
        cold.as_secs_f64(),
        unchanged.as_secs_f64(),
        one_changed.as_secs_f64()
    );
    if let Some(handover) = handover {
        runtime.block_on(handover.again("one product changed"))?;
    }
    serve_and_measure(&args, &runtime, &export, &cache, &inputs)
}

/// The index handed to another API host through a store (`api::search::distribution`).
struct Handover {
    db: api::store::Db,
    leader: PathBuf,
    follower: PathBuf,
}

impl Handover {
    async fn start(url: &str, cache: &Path, dir: &Path) -> Result<Handover> {
        let db = api::store::Db::connect(url).await?;
        for table in ["search_live", "search_generation_file", "search_blob"] {
            let sql = format!("DELETE FROM {table}");
            sqlx::query(sqlx::AssertSqlSafe(sql))
                .execute(db.pool())
                .await?;
        }
        let handover = Handover {
            db,
            leader: cache.join(search_index::SEARCH_DIR),
            follower: dir.join("other-host").join(search_index::SEARCH_DIR),
        };
        handover.again("cold").await?;
        Ok(handover)
    }

    /// Publishes the leader's live index and installs it on the other host, timing both.
    async fn again(&self, what: &str) -> Result<()> {
        use api::search::distribution::{follow, publish};
        let count = |sql: &'static str| async move {
            sqlx::query_scalar::<_, i64>(sql)
                .fetch_one(self.db.pool())
                .await
        };
        let (blobs, bytes) = (
            count("SELECT COUNT(*) FROM search_blob").await?,
            count("SELECT COALESCE(SUM(LENGTH(body)), 0) FROM search_blob").await?,
        );
        let t = Instant::now();
        let markets = publish(&self.db, &self.leader, 0).await?;
        let published = t.elapsed();
        let t = Instant::now();
        let installed = follow(&self.db, &self.follower).await?;
        let followed = t.elapsed();
        let (blobs_after, bytes_after) = (
            count("SELECT COUNT(*) FROM search_blob").await?,
            count("SELECT COALESCE(SUM(LENGTH(body)), 0) FROM search_blob").await?,
        );
        let files = count("SELECT COUNT(*) FROM search_generation_file f JOIN search_live l ON l.market = f.market AND l.generation = f.generation").await?;
        println!(
            "index to another host through the store, {what}: publish {markets} markets {:.3} s (files {files}, new contents {} = {:.1} MB base64); install {installed} markets {:.3} s",
            published.as_secs_f64(),
            blobs_after - blobs.min(blobs_after),
            (bytes_after - bytes).max(0) as f64 / 1e6,
            followed.as_secs_f64(),
        );
        Ok(())
    }
}

fn cold_site_build(args: &Args, export: &Path) -> Result<()> {
    let site = generator::build(
        &generator::BuildOptions {
            export_dir: export.to_path_buf(),
            templates_dir: args.templates.clone(),
            bundles_dir: args.bundles.clone(),
            public_dir: args.dir.join("public"),
            cache_dir: args.dir.join("site-cache"),
            progress: false,
            plain_tree: false,
            file_digests: false,
        },
        generator::BuildFrom::Export,
    )
    .context("the cold site build")?;
    let in_build = site
        .phases
        .iter()
        // A cold build writes its index beside the pages; the phase is what was left after them.
        .filter(|(name, _)| name.starts_with("search index"))
        .map(|(_, took)| *took)
        .sum::<Duration>();
    println!(
        "cold site build, {} products × 3 markets: {:.2} s, {} pages; its search index after the pages {:.2} s = {:.1}%",
        args.products,
        site.elapsed.as_secs_f64(),
        site.pages,
        in_build.as_secs_f64(),
        100.0 * in_build.as_secs_f64() / site.elapsed.as_secs_f64()
    );
    Ok(())
}

/// Starts the API on loopback over the index and measures the search and listing endpoints.
fn serve_and_measure(
    args: &Args,
    runtime: &tokio::runtime::Runtime,
    export: &Path,
    cache: &Path,
    inputs: &export::Inputs,
) -> Result<()> {
    runtime.block_on(async {
        let mut config = api::Config::new(
            format!("sqlite://{}", args.dir.join("api.db").display()),
            export.to_path_buf(),
        );
        config.watch_interval = None;
        config.search_dir = cache.join(search_index::SEARCH_DIR);
        let state = api::AppState::open(config).await?;
        let app = axum::Router::new().nest("/api", api::app(state));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        tokio::spawn(async move { axum::serve(listener, app).await });
        println!(
            "API on loopback, {} closed-loop connections, {} requests per scenario:",
            args.connections, args.requests
        );
        let scenarios = [
            ("search", search_paths(&inputs.catalog)),
            ("listing", listing_paths(&inputs.catalog)),
        ];
        for (name, paths) in scenarios {
            let report = measure(name, addr, &paths, args.requests, args.connections).await?;
            println!(
                "  {:<8} {:>6} requests  {:>6.0}/s  errors {}  p50 {:.3} ms  p99 {:.3} ms  max {:.3} ms",
                report.name,
                report.sent,
                report.sent as f64 / report.elapsed.as_secs_f64(),
                report.errors,
                report.percentile(0.50).as_secs_f64() * 1e3,
                report.percentile(0.99).as_secs_f64() * 1e3,
                report.latencies.last().copied().unwrap_or_default().as_secs_f64() * 1e3
            );
        }
        anyhow::Ok(())
    })
}
