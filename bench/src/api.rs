//! `storefront bench-api`: a fixed-rate load test of the commerce API. It starts the API on a
//! fresh SQLite file on loopback, then sends stock checks and add-to-bag requests at a fixed rate
//! (open loop: a request is sent on schedule whether or not earlier ones finished, so slow answers
//! show up as latency instead of silently lowering the rate), and reports throughput and p50/p99;
//! then the Place-order scenarios (`orders`) on SQLite and, with `--postgres-url`, on a
//! throwaway PostgreSQL schema.

use crate::load::{Report, fixed_rate, get, request};
use anyhow::{Context, bail};
use clap::Args as ClapArgs;
use std::net::SocketAddr;
use std::path::PathBuf;

#[derive(ClapArgs)]
pub struct Args {
    /// The catalog export to load.
    #[arg(long, default_value = "fixtures/sample")]
    pub export: PathBuf,
    /// Stock checks per second.
    #[arg(long, default_value_t = 2000)]
    pub stock_rate: u32,
    /// Add-to-bag requests per second.
    #[arg(long, default_value_t = 500)]
    pub add_rate: u32,
    /// Seconds each scenario runs (after a one-second warm-up).
    #[arg(long, default_value_t = 10)]
    pub seconds: u64,
    /// Keep-alive connections the load is spread over.
    #[arg(long, default_value_t = 32)]
    pub connections: usize,
    /// Place-order requests per second in the fixed-rate order scenario.
    #[arg(long, default_value_t = 50)]
    pub order_rate: u32,
    /// Orders placed as fast as the connections allow in the saturation scenario.
    #[arg(long, default_value_t = 1000)]
    pub saturation_orders: usize,
    /// Also run the order scenarios on PostgreSQL at this URL (in a throwaway schema).
    #[arg(long)]
    pub postgres_url: Option<String>,
    /// With `--postgres-url`: also run stock check and add-to-bag through a round-robin proxy in
    /// front of one API host, then of two hosts on the same PostgreSQL (each its own pool).
    #[arg(long)]
    pub hosts: bool,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if cfg!(debug_assertions) {
        eprintln!(
            "warning: this is a debug build; run `cargo run --release -- bench-api` for real figures"
        );
    }
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    runtime.block_on(async move {
        let scratch = tempfile::tempdir()?;
        let url = format!("sqlite://{}", scratch.path().join("api.db").display());
        let state = api::AppState::open(bench_config(&url, &args)).await?;
        let addr = serve(state.clone()).await?;

        println!(
            "bench-api: {} on {} cores, SQLite, loopback, {} connections, {} s per scenario",
            if cfg!(debug_assertions) {
                "debug build"
            } else {
                "release build"
            },
            std::thread::available_parallelism().map_or(0, |n| n.get()),
            args.connections,
            args.seconds
        );
        stock_and_add(&state, addr, &args, ("stock check", "add-to-bag")).await?;
        let orders = |state, addr| {
            crate::orders::run(
                state,
                addr,
                args.order_rate,
                args.seconds,
                args.saturation_orders,
                args.connections,
            )
        };
        println!("place order, SQLite:");
        orders(&state, addr).await?;
        if let Some(url) = &args.postgres_url {
            let schema = format!("bench_{}", api::store::random_id(6));
            let db = api::store::Db::connect_in_schema(url, Some(&schema)).await?;
            let pg = api::AppState::with_db(db, bench_config(url, &args)).await?;
            let pg_addr = serve(pg.clone()).await?;
            println!("place order, PostgreSQL (schema {schema}):");
            let mut result = orders(&pg, pg_addr).await;
            if args.hosts && result.is_ok() {
                result = behind_a_proxy(&pg, url, &schema, &args).await;
            }
            pg.db().drop_schema(&schema).await?;
            result?;
        }
        Ok(())
    })
}

/// Stock checks and add-to-bag at the fixed rates, sent to `addr` (the API of `state`, or a proxy
/// in front of hosts sharing its store), reported under `names`.
async fn stock_and_add(
    state: &api::AppState,
    addr: SocketAddr,
    args: &Args,
    (stock_name, add_name): (&'static str, &'static str),
) -> anyhow::Result<(Report, Report)> {
    let catalog = state.catalog();
    // Stock checks: a product page's worth of variant ids, cycling over the catalog.
    let variant_ids: Vec<u64> = catalog
        .products
        .iter()
        .flat_map(|p| p.variants.iter().map(|v| v.id))
        .collect();
    let stock_requests: Vec<Vec<u8>> = variant_ids
        .chunks(6)
        .map(|c| {
            let ids: Vec<String> = c.iter().map(u64::to_string).collect();
            get(addr, &format!("/api/stock?variant_ids={}", ids.join(",")))
        })
        .collect();

    // Add to bag: one cart per request slot, each adding one unit of a well-stocked variant,
    // so every request does the full check-and-write transaction and succeeds.
    let stocked: Vec<(u64, u64)> = catalog
        .purchasable_stock()
        .filter(|(_, _, units)| *units >= 40)
        .map(|(p, v, _)| (p, v))
        .collect();
    if stocked.is_empty() {
        bail!("the export has no variant with 40 or more units to add to bags");
    }
    // Each cart receives at most 30 of the requests, so every add stays within stock and does
    // the full check-and-write transaction. Carts are made through the store so their cookie
    // keys (normally only in an HttpOnly cookie) are known here.
    let carts_needed = (args.add_rate as usize * args.seconds as usize).div_ceil(30);
    let mut add_requests = Vec::with_capacity(carts_needed);
    let mut tx = state.db().write().await?;
    for i in 0..carts_needed {
        let cart = api::cart::create(&mut tx, &domain::market::UK, None, state.now()).await?;
        let (p, v) = stocked[i % stocked.len()];
        let body =
            format!(r#"{{"line_items":[{{"product_id":{p},"variant_id":{v},"quantity":1}}]}}"#);
        add_requests.push(request(
            addr,
            "POST",
            "/api/cart/items",
            &format!("sf_cart_uk={}", cart.key),
            &body,
            &[],
        ));
    }
    tx.commit().await?;

    // Warm-up, not reported.
    fixed_rate(
        "warm-up",
        addr,
        args.stock_rate / 2,
        1,
        args.connections,
        stock_requests.clone(),
        &[200],
    )
    .await?;
    let stock = fixed_rate(
        stock_name,
        addr,
        args.stock_rate,
        args.seconds,
        args.connections,
        stock_requests,
        &[200],
    )
    .await?;
    stock.print();
    let add = fixed_rate(
        add_name,
        addr,
        args.add_rate,
        args.seconds,
        args.connections,
        add_requests,
        &[201],
    )
    .await?;
    add.print();
    Ok((stock, add))
}

/// Stock check and add-to-bag through a round-robin proxy on loopback, in front of one API host
/// and then of two (the second its own `AppState` and pool on the same schema, as another
/// process would be): the cost per request of the proxy hop and of sharing the store.
async fn behind_a_proxy(
    first: &api::AppState,
    url: &str,
    schema: &str,
    args: &Args,
) -> anyhow::Result<()> {
    let db = api::store::Db::connect_in_schema(url, Some(schema)).await?;
    let second = api::AppState::with_db(db, bench_config(url, args)).await?;
    let hosts = [serve(first.clone()).await?, serve(second.clone()).await?];
    let one = loopback::round_robin_proxy(hosts[..1].to_vec()).await?;
    let two = loopback::round_robin_proxy(hosts.to_vec()).await?;
    println!("through a round-robin proxy, PostgreSQL (schema {schema}):");
    let (stock_1, add_1) = stock_and_add(
        first,
        one,
        args,
        ("stock check, 1 host", "add-to-bag, 1 host"),
    )
    .await?;
    let (stock_2, add_2) = stock_and_add(
        first,
        two,
        args,
        ("stock check, 2 hosts", "add-to-bag, 2 hosts"),
    )
    .await?;
    let ratio = |a: &Report, b: &Report, p: f64| {
        b.percentile(p).as_secs_f64() / a.percentile(p).as_secs_f64().max(1e-9)
    };
    println!(
        "two hosts / one host: stock check p50 ×{:.2} p99 ×{:.2}; add-to-bag p50 ×{:.2} p99 ×{:.2}",
        ratio(&stock_1, &stock_2, 0.5),
        ratio(&stock_1, &stock_2, 0.99),
        ratio(&add_1, &add_2, 0.5),
        ratio(&add_1, &add_2, 0.99),
    );
    second.db().close().await;
    Ok(())
}

/// The API's configuration for the benchmark: the sandbox pays, and one client address (the
/// load tool) may place every order.
fn bench_config(url: &str, args: &Args) -> api::Config {
    let mut config = api::Config::new(url, &args.export);
    config.watch_interval = None;
    config.payments = api::payments::config::PaymentsConfig::sandbox();
    config.payment_attempts_per_client = u32::MAX;
    config
}

/// Serves the API (and the sandbox's pages) on a loopback port.
async fn serve(state: api::AppState) -> anyhow::Result<SocketAddr> {
    let app = live_site::site_server::with_api(axum::Router::new(), state);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    // Responses go out without waiting on Nagle's algorithm, as in `storefront api`.
    let listener = axum::serve::ListenerExt::tap_io(listener, |tcp| {
        let _ = tcp.set_nodelay(true);
    });
    tokio::spawn(async move { axum::serve(listener, app).await });
    Ok(addr)
}
