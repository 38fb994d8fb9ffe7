//! The load-test machinery of the API benchmarks: requests sent at a fixed rate over keep-alive
//! connections, and the report of their statuses and latencies.

use loopback::{Connection, Request};
use std::net::SocketAddr;
use std::time::{Duration, Instant};

/// Results of one scenario.
pub(crate) struct Report {
    pub(crate) name: &'static str,
    pub(crate) rate: u32,
    pub(crate) sent: usize,
    pub(crate) ok: usize,
    pub(crate) errors: usize,
    pub(crate) elapsed: Duration,
    pub(crate) latencies: Vec<Duration>,
}

impl Report {
    /// The report of `(status, latency)` results, counting `ok_statuses` as successes.
    pub(crate) fn from_results(
        name: &'static str,
        rate: u32,
        results: Vec<(u16, Duration)>,
        ok_statuses: &[u16],
        elapsed: Duration,
    ) -> Report {
        let ok = results
            .iter()
            .filter(|(s, _)| ok_statuses.contains(s))
            .count();
        let mut latencies: Vec<Duration> = results.iter().map(|(_, l)| *l).collect();
        latencies.sort_unstable();
        Report {
            name,
            rate,
            sent: results.len(),
            ok,
            errors: results.len() - ok,
            elapsed,
            latencies,
        }
    }

    pub(crate) fn percentile(&self, p: f64) -> Duration {
        if self.latencies.is_empty() {
            return Duration::ZERO;
        }
        let i = ((self.latencies.len() as f64 - 1.0) * p).round() as usize;
        self.latencies[i]
    }

    /// One line: the target rate (or "closed loop" when the load ran as fast as answers came),
    /// the achieved rate and the latencies.
    pub(crate) fn print(&self) {
        let target = if self.rate == 0 {
            "closed loop".to_string()
        } else {
            format!("target {:>5}/s", self.rate)
        };
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        println!(
            "{:<24} {target:<14}  achieved {:>7.0}/s  ok {:>6}  errors {:>4}  p50 {:>7.3} ms  p99 {:>7.3} ms  max {:>7.3} ms",
            self.name,
            self.sent as f64 / self.elapsed.as_secs_f64(),
            self.ok,
            self.errors,
            ms(self.percentile(0.50)),
            ms(self.percentile(0.99)),
            ms(self.latencies.last().copied().unwrap_or_default()),
        );
    }
}

/// `GET path` for a keep-alive connection.
pub(crate) fn get(addr: SocketAddr, path: &str) -> Vec<u8> {
    Request::get(path).to_bytes(&addr.to_string(), false)
}

/// A same-origin JSON request as the islands send it (CSRF-checked writes need the fetch
/// metadata), with the cookie and any extra headers, for a keep-alive connection.
pub(crate) fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    cookie: &str,
    body: &str,
    extra: &[(&str, &str)],
) -> Vec<u8> {
    let mut request = Request::new(method, path)
        .header("Content-Type", "application/json")
        .header("Sec-Fetch-Site", "same-origin");
    if !cookie.is_empty() {
        request = request.header("Cookie", cookie);
    }
    request
        .headers(extra)
        .body(body)
        .to_bytes(&addr.to_string(), false)
}

/// Runs `requests[i % len]` at `rate` per second for `seconds`, over `connections` connections.
pub(crate) async fn fixed_rate(
    name: &'static str,
    addr: SocketAddr,
    rate: u32,
    seconds: u64,
    connections: usize,
    requests: Vec<Vec<u8>>,
    ok_statuses: &'static [u16],
) -> anyhow::Result<Report> {
    let (tx, rx) = async_channel::<(Instant, std::sync::Arc<Vec<u8>>)>();
    let mut workers = Vec::new();
    for _ in 0..connections {
        let rx = rx.clone();
        let mut conn = Connection::open(addr).await?;
        workers.push(tokio::spawn(async move {
            let mut out = Vec::new();
            while let Ok((scheduled, request)) = rx.recv().await {
                let request: std::sync::Arc<Vec<u8>> = request;
                let res = conn.send(&request).await;
                // Latency is measured from when the request was due, not when a connection freed
                // up: queueing delay is part of what a shopper waits (no coordinated omission).
                let latency = scheduled.elapsed();
                out.push((res.map(|(s, _)| s).unwrap_or(0), latency));
            }
            out
        }));
    }
    let requests: Vec<std::sync::Arc<Vec<u8>>> =
        requests.into_iter().map(std::sync::Arc::new).collect();
    let interval = Duration::from_secs_f64(1.0 / rate as f64);
    let total = rate as usize * seconds as usize;
    let start = Instant::now();
    for i in 0..total {
        let due = start + interval * i as u32;
        tokio::time::sleep_until(due.into()).await;
        tx.send((due, requests[i % requests.len()].clone())).await?;
    }
    drop(tx);
    let mut results = Vec::with_capacity(total);
    for w in workers {
        results.extend(w.await?);
    }
    Ok(Report::from_results(
        name,
        rate,
        results,
        ok_statuses,
        start.elapsed(),
    ))
}

/// A multi-consumer queue from tokio's mpsc behind a mutex: each worker takes the next due request.
fn async_channel<T: Send + 'static>() -> (tokio::sync::mpsc::Sender<T>, SharedReceiver<T>) {
    let (tx, rx) = tokio::sync::mpsc::channel(65_536);
    (
        tx,
        SharedReceiver(std::sync::Arc::new(tokio::sync::Mutex::new(rx))),
    )
}

struct SharedReceiver<T>(std::sync::Arc<tokio::sync::Mutex<tokio::sync::mpsc::Receiver<T>>>);

impl<T> Clone for SharedReceiver<T> {
    fn clone(&self) -> Self {
        SharedReceiver(self.0.clone())
    }
}

impl<T> SharedReceiver<T> {
    async fn recv(&self) -> Result<T, ()> {
        self.0.lock().await.recv().await.ok_or(())
    }
}
