//! The Place-order scenarios of `storefront bench-api`: shoppers with ready checkouts (bag, email,
//! delivery, shipping option, billing, a sandbox card token) place orders, all for one hot
//! variant so every order contends for the same stock rows, at a fixed rate (open loop) and then
//! as fast as the connections allow (saturation). Ends with the oversell check: the units taken
//! from stock equal the units in paid orders, and no stock row is below zero.

use crate::load::{Report, fixed_rate, request};
use anyhow::{Context, bail};
use loopback::Connection;
use std::net::SocketAddr;
use std::time::Instant;

/// A shopper ready to press Place order: the request that does it.
struct Ready {
    place: Vec<u8>,
}

/// The JSON value of `key` in a small JSON body (ids and tokens: plain strings).
fn json_str(body: &[u8], key: &str) -> anyhow::Result<String> {
    let v: serde_json::Value = serde_json::from_slice(body)
        .with_context(|| format!("not JSON: {}", String::from_utf8_lossy(body)))?;
    v[key]
        .as_str()
        .map(str::to_string)
        .with_context(|| format!("no {key} in {v}"))
}

/// Runs one shopper's checkout up to payment over `conn` and builds its Place order request.
async fn prepare_one(
    conn: &mut Connection,
    addr: SocketAddr,
    cart: &str,
    (product, variant): (u64, u64),
    n: usize,
) -> anyhow::Result<Ready> {
    let expect = |step: &str, (status, body): (u16, Vec<u8>), ok: &[u16]| {
        if ok.contains(&status) {
            Ok(body)
        } else {
            bail!(
                "preparing a checkout, {step}: {status} {}",
                String::from_utf8_lossy(&body)
            )
        }
    };
    let cookie = format!("sf_cart_uk={cart}");
    let item = format!(
        r#"{{"line_items":[{{"product_id":{product},"variant_id":{variant},"quantity":1}}]}}"#
    );
    expect(
        "add",
        conn.send(&request(
            addr,
            "POST",
            "/api/cart/items",
            &cookie,
            &item,
            &[],
        ))
        .await?,
        &[201],
    )?;
    let body = expect(
        "checkout",
        conn.send(&request(addr, "POST", "/api/checkout", &cookie, "{}", &[]))
            .await?,
        &[200, 201],
    )?;
    let id = json_str(&body, "id")?;
    let address = r#"{"address":{"first_name":"Ada","last_name":"Lovelace","street_name":"Analytical Row","house_number":"1","city":"London","state_or_province":"","postal_code":"N1 9GU","country_code":"GB","phone":"+44 20 7946 0000"}}"#;
    for (step, body) in [
        ("email", r#"{"email":"bench@example.com"}"#),
        ("consignment", address),
        ("shipping-option", r#"{"shipping_option_id":"uk-standard"}"#),
        ("billing-address", r#"{"same_as_delivery":true}"#),
    ] {
        let path = format!("/api/checkout/{id}/{step}");
        expect(
            step,
            conn.send(&request(addr, "PUT", &path, &cookie, body, &[]))
                .await?,
            &[200],
        )?;
    }
    let card = r#"{"type":"scheme","number":"4242424242424242","expiry_month":"12","expiry_year":"2040","cvc":"123","holder_name":"Ada Lovelace"}"#;
    let body = expect(
        "token",
        conn.send(&request(
            addr,
            "POST",
            "/sandbox-pay/v1/tokens",
            "",
            card,
            &[],
        ))
        .await?,
        &[201],
    )?;
    let token = json_str(&body, "token")?;
    let place = request(
        addr,
        "POST",
        &format!("/api/checkout/{id}/orders"),
        &cookie,
        &format!(r#"{{"payment":{{"method":"scheme","token":"{token}"}}}}"#),
        &[("Idempotency-Key", &format!("bench-order-{n:08}"))],
    );
    Ok(Ready { place })
}

/// `count` ready shoppers, prepared over `connections` connections in parallel. Their carts are
/// made through the store, so their ids (normally only in an HttpOnly cookie) are known here.
async fn prepare(
    state: &api::AppState,
    addr: SocketAddr,
    line: (u64, u64),
    count: usize,
    connections: usize,
    first: usize,
) -> anyhow::Result<Vec<Vec<u8>>> {
    let mut carts = Vec::with_capacity(count);
    let mut tx = state.db().write().await?;
    for _ in 0..count {
        carts.push(
            // The cart cookie carries the cart's cookie key, not its id.
            api::cart::create(&mut tx, &domain::market::UK, None, state.now())
                .await?
                .key,
        );
    }
    tx.commit().await?;
    let carts = std::sync::Arc::new(carts);
    let mut tasks = Vec::new();
    for c in 0..connections {
        let carts = carts.clone();
        tasks.push(tokio::spawn(async move {
            let mut conn = Connection::open(addr).await?;
            let mut out = Vec::new();
            let mut i = c;
            while i < count {
                out.push(
                    prepare_one(&mut conn, addr, &carts[i], line, first + i)
                        .await?
                        .place,
                );
                i += connections;
            }
            anyhow::Ok(out)
        }));
    }
    let mut all = Vec::with_capacity(count);
    for t in tasks {
        all.extend(t.await??);
    }
    Ok(all)
}

/// Sends every request once, each connection taking the next as soon as its last one answered.
async fn saturate(
    addr: SocketAddr,
    connections: usize,
    requests: Vec<Vec<u8>>,
) -> anyhow::Result<Report> {
    let total = requests.len();
    let queue = std::sync::Arc::new(std::sync::Mutex::new(requests));
    let start = Instant::now();
    let mut workers = Vec::new();
    for _ in 0..connections {
        let queue = queue.clone();
        workers.push(tokio::spawn(async move {
            let mut conn = Connection::open(addr).await?;
            let mut out = Vec::new();
            loop {
                let next = queue.lock().map_err(|_| anyhow::anyhow!("poisoned"))?.pop();
                let Some(request) = next else { break };
                let sent = Instant::now();
                let status = conn.send(&request).await.map_or(0, |(s, _)| s);
                out.push((status, sent.elapsed()));
            }
            anyhow::Ok(out)
        }));
    }
    let mut results = Vec::with_capacity(total);
    for w in workers {
        results.extend(w.await??);
    }
    Ok(Report::from_results(
        "place order (saturation)",
        0,
        results,
        &[201],
        start.elapsed(),
    ))
}

/// The oversell check: units taken from the variant's stock = units in paid orders, none below 0.
async fn oversell_check(state: &api::AppState, variant: u64, before: i64) -> anyhow::Result<()> {
    let mut conn = state.db().pool().acquire().await?;
    let rows = api::inventory::levels(&mut conn, variant).await?;
    let after: i64 = rows.iter().map(|r| r.1).sum();
    let negative = rows.iter().filter(|r| r.1 < 0).count();
    let paid = api::checkout::orders::paid_units(&mut conn, variant).await?;
    let oversold = (before - after) - paid;
    println!(
        "oversell check: units taken {}, units in paid orders {paid}, stock rows below zero {negative}, oversold {oversold}",
        before - after
    );
    if oversold != 0 || negative != 0 {
        bail!("the place-order benchmark oversold");
    }
    Ok(())
}

/// Both Place-order scenarios against the API at `addr` (its state `state`), then the check.
pub async fn run(
    state: &api::AppState,
    addr: SocketAddr,
    rate: u32,
    seconds: u64,
    saturation_orders: usize,
    connections: usize,
) -> anyhow::Result<()> {
    let catalog = state.catalog();
    let (product, variant, _) = catalog
        .purchasable_stock()
        .next()
        .context("the export has no purchasable variant")?;
    let fixed = rate as usize * seconds as usize;
    // Stock for every order, all at the main warehouse: the hot row every order locks.
    let before = (fixed + saturation_orders) as i64;
    api::inventory::set_main_warehouse_stock(state.db(), variant, before).await?;
    state.refresh_stock(&[variant]).await;
    let started = Instant::now();
    let line = (product, variant);
    let at_rate = prepare(state, addr, line, fixed, connections.min(8), 0).await?;
    let flat_out = prepare(
        state,
        addr,
        line,
        saturation_orders,
        connections.min(8),
        fixed,
    )
    .await?;
    println!(
        "prepared {} checkouts in {:.1} s",
        fixed + saturation_orders,
        started.elapsed().as_secs_f64()
    );
    let report = fixed_rate(
        "place order",
        addr,
        rate,
        seconds,
        connections,
        at_rate,
        &[201],
    )
    .await?;
    report.print();
    saturate(addr, connections, flat_out).await?.print();
    oversell_check(state, variant, before).await
}
