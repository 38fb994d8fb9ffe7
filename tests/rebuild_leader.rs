//! Two `storefront serve` processes on one PostgreSQL: the first takes the rebuild lead and serves;
//! the second stands by (it neither builds nor listens); killing the leader hands the lead over,
//! and the stand-by builds, serves and takes webhooks. Needs TEST_POSTGRES_URL (CI has it).

mod common;

use common::hosts::{CATALOG_SECRET, Process, Schema, free_addr, status};
use serde_json::json;
use std::time::{Duration, Instant};

async fn webhook(addr: &str, at: u64) -> (u16, String) {
    let body = json!({"scope": "store/product/updated", "store_id": "1",
        "data": {"type": "product", "id": 101}, "created_at": at});
    loopback::request(
        addr,
        "POST",
        "/api/webhooks/catalog",
        &[("X-Webhook-Secret", CATALOG_SECRET)],
        body.to_string().as_bytes(),
    )
    .await
    .expect("the webhook is answered")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn killing_the_rebuild_leader_hands_the_lead_to_the_stand_by() {
    let schema = Schema::create().await;
    let dir = tempfile::tempdir().unwrap();
    let export = common::sample_export();
    let (addr_a, addr_b) = (free_addr(), free_addr());

    let mut leader = Process::serve(dir.path(), "a", &addr_a, &export, &schema.url, &[]);
    leader
        .wait_for_log("this host leads the rebuilds and deploys")
        .await;
    leader.wait_for_200(&addr_a, "/").await;
    let standby = Process::serve(dir.path(), "b", &addr_b, &export, &schema.url, &[]);
    standby.wait_for_log("standing by until it stops").await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(
        status(&addr_b, "/").await,
        None,
        "the stand-by does not listen"
    );
    assert!(!standby.log().contains("this host leads"));
    assert!(!dir.path().join("b-public").exists(), "nor build");
    assert_eq!(webhook(&addr_a, 1).await.0, 202);

    // The leader dies without a word: its connection drops and PostgreSQL frees the lock.
    let killed = Instant::now();
    leader.child.kill().unwrap();
    leader.child.wait().unwrap();
    standby
        .wait_for_log("this host leads the rebuilds and deploys")
        .await;
    let took_over = killed.elapsed();
    println!("the stand-by took the lead {took_over:?} after the kill");
    assert!(took_over < Duration::from_secs(10), "{took_over:?}");
    standby.wait_for_200(&addr_b, "/").await;
    let (code, body) = webhook(&addr_b, 2).await;
    assert_eq!(code, 202, "{body}");
    drop(standby);
    schema.drop().await;
}
