//! `storefront bench-dev`: on a synthetic catalog, runs the real `storefront dev` (a child
//! process) and measures how long a saved content page takes to reach the browser: from writing
//! the content file until the live-reload event arrives on the page's event stream, and until the
//! reloaded page (fetched as the browser's reload fetches it) shows the change.

use crate::webhook::{ABOUT_US_FILE, about_us_titled, synthetic_export};
use anyhow::{Context, Result, bail};
use clap::Args as ClapArgs;
use loopback::{BodyStream, Request};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

#[derive(ClapArgs)]
pub struct Args {
    /// Catalog size (products).
    #[arg(long, default_value_t = 10_000)]
    pub products: usize,
    /// Saves measured.
    #[arg(long, default_value_t = 5)]
    pub rounds: usize,
    /// Scratch directory (deleted and recreated).
    #[arg(long, default_value = "content-cache/bench-dev")]
    pub dir: PathBuf,
    /// Address the dev server listens on.
    #[arg(long, default_value = "127.0.0.1:18180")]
    pub addr: std::net::SocketAddr,
}

/// The page the edit shows on (the about-us content item).
const PAGE: &str = "/about-us/";
/// tower-livereload's event stream (the script it injects into every page listens here).
const EVENTS: &str = "/_tower-livereload/event-stream";

/// Stops the dev server however the benchmark ends.
struct Server(Child);
impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub fn run(args: Args) -> Result<()> {
    let export = synthetic_export(&args.dir, args.products)?;
    let started = Instant::now();
    let server = Server(
        Command::new(std::env::current_exe()?)
            .arg("dev")
            .arg("--export")
            .arg(&export)
            .arg("--out")
            .arg(args.dir.join("public"))
            .arg("--cache")
            .arg(args.dir.join("cache"))
            .arg("--addr")
            .arg(args.addr.to_string())
            .stdout(Stdio::null())
            .spawn()
            .context("starting storefront dev")?,
    );
    let runtime = tokio::runtime::Runtime::new()?;
    runtime.block_on(async move {
        while loopback::request(args.addr, "GET", "/api/health", &[], b"")
            .await
            .is_err()
        {
            if started.elapsed() > Duration::from_secs(600) {
                bail!("storefront dev did not come up within 600 s");
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        println!(
            "storefront dev up on {} products in {:.1}s (first build included)",
            args.products,
            started.elapsed().as_secs_f64()
        );
        // The first build has just written ~120k pages; the kernel's writeback of them would
        // otherwise land on the first rounds. A developer's first save comes later than that.
        let flushed = Command::new("sync").status().is_ok_and(|s| s.success());
        if !flushed {
            println!("(sync failed: the first rounds may include the first build's writeback)");
        }
        println!("| round | save → reload event | save → reloaded page shows the change |");
        println!("|---|---|---|");
        let file = export.join(ABOUT_US_FILE);
        for round in 0..args.rounds {
            let mut events = open_events(args.addr).await?;
            // Let the watcher settle after the previous round's rebuild.
            tokio::time::sleep(Duration::from_millis(500)).await;
            let marker = format!("bench-dev-title-{round}");
            let bytes = about_us_titled(&export, &marker)?;
            let saved = Instant::now();
            std::fs::write(&file, bytes)?;
            wait_for_reload(&mut events).await?;
            let reload = saved.elapsed();
            let (status, html) = loopback::request(args.addr, "GET", PAGE, &[], b"").await?;
            if status != 200 || !html.contains(&marker) {
                bail!("after the reload event {PAGE} answered {status} without the change");
            }
            println!(
                "| {} | {:.0} ms | {:.0} ms |",
                round + 1,
                reload.as_secs_f64() * 1000.0,
                saved.elapsed().as_secs_f64() * 1000.0
            );
        }
        anyhow::Ok(())
    })?;
    drop(server);
    Ok(())
}

/// Opens the live-reload event stream as the page's script does.
async fn open_events(addr: std::net::SocketAddr) -> Result<BodyStream> {
    Request::get(EVENTS)
        .header("Accept", "text/event-stream")
        .open(addr)
        .await
        .context("opening the live-reload stream")
}

async fn wait_for_reload(events: &mut BodyStream) -> Result<()> {
    let deadline = Duration::from_secs(120);
    let arrived = tokio::time::timeout(deadline, events.wait_for_line("event: reload"))
        .await
        .context("no reload event within 120 s")??;
    if !arrived {
        bail!("the live-reload stream closed");
    }
    Ok(())
}
