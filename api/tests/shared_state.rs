//! Two API hosts on one store behave as one: the sign-in throttle, the payment and reset limits,
//! webhook replay ids and popular searches are shared through the database, on SQLite and on
//! PostgreSQL. Each host is a separate `AppState` with its own connection pool and socket.

mod common;

use api::webhooks::events::Change;
use api::webhooks::{ChangeSink, Origin};
use common::{Backend, TestApi, login, register};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

const PW: &str = "secret123";

/// Failed sign-ins sent alternately to two hosts count against one limit: the fourth attempt is
/// refused by whichever host gets it, and a good password does not get through either.
async fn sign_in_throttle_is_shared_by_the_hosts(backend: Backend) {
    let api = TestApi::start_with(backend, |c| c.login_limit_per_account_client = 3).await;
    let (_other, other_addr) = api.another_host_served().await;
    let mut on_a = api.browser();
    register(&mut on_a, "ada@example.com", PW).await;
    // One client whose requests the load balancer spreads over both hosts.
    let mut guesser = api.browser();
    let hosts = [api.addr, other_addr];
    for i in 0..3 {
        guesser.addr = hosts[i % 2];
        let r = login(&mut guesser, "ada@example.com", "wrong123").await;
        assert_eq!(r.status, 401, "guess {i} is answered, not throttled");
    }
    for host in hosts {
        guesser.addr = host;
        let r = login(&mut guesser, "ada@example.com", PW).await;
        assert_eq!(r.status, 429, "both hosts see the three failures");
        assert!(r.header("retry-after").unwrap().parse::<u64>().unwrap() > 0);
    }
    api.finish().await;
}

/// Hosts admitting the same key at once never let more than the limit through: the count and the
/// refusal are one statement.
async fn concurrent_admits_on_two_hosts_stop_at_the_limit(backend: Backend) {
    let api = TestApi::start(backend).await;
    let other = api.another_host().await;
    let now = api.state.now();
    let mut attempts = Vec::new();
    for i in 0..12 {
        let state = if i % 2 == 0 {
            api.state.clone()
        } else {
            other.clone()
        };
        attempts.push(tokio::spawn(async move {
            state
                .limiter()
                .admit("payment:c1", 5, 60, now)
                .await
                .is_ok()
        }));
    }
    let mut admitted = 0;
    for a in attempts {
        admitted += usize::from(a.await.unwrap());
    }
    assert_eq!(admitted, 5);
    // Refused attempts were not counted, and the window reopens when it ends.
    assert_eq!(
        api.scalar("SELECT hits FROM rate_window WHERE key = $1", "payment:c1")
            .await,
        5
    );
    let later = now + 60;
    assert!(
        other
            .limiter()
            .admit("payment:c1", 5, 60, later)
            .await
            .is_ok()
    );
    assert_eq!(
        api.scalar("SELECT hits FROM rate_window WHERE key = $1", "payment:c1")
            .await,
        1
    );
    // The janitor drops ended windows only.
    api.state
        .limiter()
        .admit("other", 5, 3600, now)
        .await
        .unwrap();
    sqlx::query("UPDATE rate_window SET ends_at = $1 WHERE key = $2")
        .bind(now - 1)
        .bind("payment:c1")
        .execute(api.state.db().pool())
        .await
        .unwrap();
    api.state.purge_expired().await.unwrap();
    assert_eq!(
        api.scalar("SELECT COUNT(*) FROM rate_window WHERE key <> $1", "")
            .await,
        1
    );
    api.finish().await;
}

/// Counts deliveries, standing in for the rebuild daemon.
#[derive(Default)]
struct Counter(AtomicUsize);

impl ChangeSink for Counter {
    fn submit(&self, _origin: Origin, _delivery: &str, _changes: Vec<Change>) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
    fn status(&self) -> Value {
        json!([{"id": 1, "changes": self.0.load(Ordering::SeqCst)}])
    }
}

const CATALOG_SECRET: &str = "catalog-s3cret";

/// A delivery acted on by one host is a duplicate on the other; the id is forgotten after a day.
async fn webhook_replays_are_caught_on_another_host(backend: Backend) {
    let api = TestApi::start_with(backend, |c| {
        c.catalog_webhook_secret = Some(CATALOG_SECRET.into())
    })
    .await;
    let (other, other_addr) = api.another_host_served().await;
    let (sink_a, sink_b) = (Arc::new(Counter::default()), Arc::new(Counter::default()));
    assert!(api.state.webhooks().attach(sink_a.clone()));
    assert!(other.webhooks().attach(sink_b.clone()));
    let body = json!({"scope": "store/product/updated", "data": {"type": "product", "id": 112}})
        .to_string();
    let deliver = |addr| {
        let mut b = api.browser();
        b.addr = addr;
        let body = body.clone().into_bytes();
        async move {
            b.send(
                "POST",
                "/api/webhooks/catalog",
                Some(body),
                &[
                    ("X-Webhook-Secret", CATALOG_SECRET),
                    ("X-Webhook-Delivery-Id", "d-1"),
                ],
            )
            .await
        }
    };
    let first = deliver(api.addr).await;
    assert_eq!(
        first.status,
        202,
        "{}",
        String::from_utf8_lossy(&first.body)
    );
    let again = deliver(other_addr).await;
    assert_eq!(again.status, 200);
    assert_eq!(again.json()["status"], "duplicate");
    assert_eq!(
        (
            sink_a.0.load(Ordering::SeqCst),
            sink_b.0.load(Ordering::SeqCst)
        ),
        (1, 0)
    );
    // A day later the janitor forgets the id (the senders retry within hours).
    sqlx::query("UPDATE webhook_delivery SET received_at = received_at - $1")
        .bind(api::webhooks::replay::REMEMBERED_SECS)
        .execute(api.state.db().pool())
        .await
        .unwrap();
    other.purge_expired().await.unwrap();
    assert_eq!(deliver(other_addr).await.status, 202);
    assert_eq!(sink_b.0.load(Ordering::SeqCst), 1);
    api.finish().await;
}

/// The status endpoint of a host without the rebuild daemon answers the leader's last copy.
async fn rebuild_status_is_answered_on_every_host(backend: Backend) {
    let api = TestApi::start_with(backend, |c| c.admin_token = Some("admin".into())).await;
    let (_other, other_addr) = api.another_host_served().await;
    let sink = Arc::new(Counter::default());
    assert!(api.state.webhooks().attach(sink.clone()));
    sink.submit(Origin::Catalog, "d-1", vec![]);
    let status_at = |addr| {
        let mut b = api.browser();
        b.addr = addr;
        async move {
            let r = b
                .send(
                    "GET",
                    "/api/webhooks/status",
                    None,
                    &[("Authorization", "Bearer admin")],
                )
                .await;
            assert_eq!(r.status, 200);
            r.json()
        }
    };
    let on_leader = status_at(api.addr).await;
    assert_eq!(on_leader["rebuilds"], json!([{"id": 1, "changes": 1}]));
    assert_eq!(
        status_at(other_addr).await["rebuilds"],
        Value::Null,
        "nothing copied yet"
    );
    let now = api.state.now();
    api::webhooks::status::copy_to_store(api.state.db(), sink.as_ref(), now)
        .await
        .unwrap();
    let elsewhere = status_at(other_addr).await;
    assert_eq!(elsewhere["rebuilds"], on_leader["rebuilds"]);
    assert_eq!(elsewhere["copied_at"], now);
    api.finish().await;
}

/// Popular searches run on one host are suggested by the other once both have flushed, and the
/// stored counts add up the runs of every host.
async fn popular_searches_reach_every_host(backend: Backend) {
    let api = TestApi::start(backend).await;
    let other = api.another_host().await;
    let (a, b) = (&api.state.search().popular, &other.search().popular);
    let now = api.state.now();
    for _ in 0..3 {
        a.record("uk", "Black Dress");
    }
    b.record("uk", "blazer");
    assert_eq!(
        b.suggestions("uk", "bl", &[]),
        ["blazer"],
        "B has not heard yet"
    );
    assert_eq!(a.flush(api.state.db(), now).await.unwrap(), 1);
    assert_eq!(b.flush(other.db(), now).await.unwrap(), 1);
    assert_eq!(b.suggestions("uk", "bl", &[]), ["black dress", "blazer"]);
    // B's runs reach A at A's next flush, and overtake once they outnumber A's.
    for _ in 0..3 {
        b.record("uk", "blazer");
    }
    b.flush(other.db(), now).await.unwrap();
    assert_eq!(a.suggestions("uk", "bl", &[]), ["black dress"]);
    a.flush(api.state.db(), now).await.unwrap();
    assert_eq!(a.suggestions("uk", "bl", &[]), ["blazer", "black dress"]);
    assert_eq!(
        api.scalar("SELECT runs FROM search_query WHERE query = $1", "blazer")
            .await,
        4
    );
    api.finish().await;
}

/// On PostgreSQL one host at a time leads; a waiting host takes over when the leader gives up or
/// its connection dies, and the old leader learns it has lost the lead. On SQLite (one host) the
/// lead is always free.
async fn one_rebuild_leader_and_a_hand_over(backend: Backend) {
    use api::leader::Leadership;
    use std::time::{Duration, Instant};
    let api = TestApi::start(backend).await;
    let other = api.another_host().await;
    let (db_a, db_b) = (api.state.db().clone(), other.db().clone());
    let mut first = Leadership::try_acquire(&db_a).await.unwrap().unwrap();
    let second = Leadership::try_acquire(&db_b).await.unwrap();
    if backend == Backend::Sqlite {
        assert!(second.is_some(), "SQLite has one host, always the leader");
        api.finish().await;
        return;
    }
    assert!(second.is_none(), "the lead is taken");
    let waiting = tokio::spawn(async move {
        Leadership::acquire(&db_b, Duration::from_millis(50))
            .await
            .unwrap()
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(
        !waiting.is_finished(),
        "no hand-over while the leader lives"
    );
    // The leader's session dies (as when its process is killed): PostgreSQL releases the lock.
    let started = Instant::now();
    let killed: Vec<bool> = sqlx::query_scalar(
        "SELECT pg_terminate_backend(pid) FROM pg_locks WHERE locktype = 'advisory' AND granted \
         AND objid::bigint = (hashtext(current_schema() || ':rebuild-leader')::bigint & 4294967295)",
    )
    .fetch_all(api.state.db().pool())
    .await
    .unwrap();
    assert_eq!(killed, [true]);
    let next = tokio::time::timeout(Duration::from_secs(5), waiting)
        .await
        .expect("the waiting host takes the lead")
        .unwrap();
    assert!(started.elapsed() < Duration::from_secs(2));
    let lost = tokio::time::timeout(
        Duration::from_secs(5),
        first.lost(Duration::from_millis(50)),
    )
    .await
    .expect("the old leader notices");
    assert!(format!("{lost:#}").contains("lock connection"), "{lost:#}");
    // Giving the lead up hands it over at once.
    assert!(Leadership::try_acquire(&db_a).await.unwrap().is_none());
    next.release().await.unwrap();
    assert!(Leadership::try_acquire(&db_a).await.unwrap().is_some());
    api.finish().await;
}

on_both!(
    sign_in_throttle_is_shared_by_the_hosts,
    concurrent_admits_on_two_hosts_stop_at_the_limit,
    webhook_replays_are_caught_on_another_host,
    popular_searches_reach_every_host,
    one_rebuild_leader_and_a_hand_over,
    rebuild_status_is_answered_on_every_host,
);
