//! `storefront bench-search`: on a synthetic catalog (10k products by default) measures the search
//! index build (cold, one product changed, nothing changed) and, through the real API on loopback,
//! `GET /api/search` and `GET /api/listing` with two filters and a sort: p50 / p99 / max.

use crate::cmd::bench_api::{Conn, Report, get};
use anyhow::{Context, Result, bail};
use clap::Args as ClapArgs;
use domain::catalog::{Catalog, OptionKind};
use generator::fixtures::{FixtureOptions, write_fixtures};
use generator::search_index;
use generator::site::SiteModel;
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
    let mut warm = Conn::open(addr).await?;
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
            let mut conn = Conn::open(addr).await?;
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
    let site = generator::build(&generator::BuildOptions {
        export_dir: export.clone(),
        templates_dir: args.templates.clone(),
        bundles_dir: args.bundles.clone(),
        public_dir: args.dir.join("public"),
        cache_dir: args.dir.join("site-cache"),
        progress: false,
    })
    .context("the cold site build")?;
    let in_build = site
        .phases
        .iter()
        .filter(|(name, _)| *name == "search index")
        .map(|(_, took)| *took)
        .sum::<Duration>();
    println!(
        "cold site build, {} products × 3 markets: {:.2} s, {} pages; its search-index phase {:.2} s = {:.1}%",
        args.products,
        site.elapsed.as_secs_f64(),
        site.pages,
        in_build.as_secs_f64(),
        100.0 * in_build.as_secs_f64() / site.elapsed.as_secs_f64()
    );

    let mut inputs = export::load_export(&export)
        .map_err(|e| anyhow::anyhow!("{e}"))
        .context("loading the synthetic export")?;
    let (_, model) = timed(|| Ok(SiteModel::new(&inputs.catalog)))?;
    let cold = build_index(&cache, &inputs)?.saturating_sub(model);
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

    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    runtime.block_on(async {
        let mut config = api::Config::new(
            format!("sqlite://{}", args.dir.join("api.db").display()),
            export.clone(),
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
