//! Two API hosts behind a round-robin proxy, as real processes on one PostgreSQL: the leading
//! `storefront serve` and a `storefront api` with a search directory of its own. A shopper's bag
//! and session are the same whichever host answers, failed sign-ins on both hosts count against
//! one limit, and a product renamed by a webhook rebuild on the leader is found by a search on
//! both hosts. Needs TEST_POSTGRES_URL (CI has it).

mod common;

use common::hosts::{Browser, CATALOG_SECRET, Process, Schema, free_addr, round_robin};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

fn quantity(cart: &Value) -> i64 {
    cart["line_items"]["physical_items"][0]["quantity"]
        .as_i64()
        .unwrap_or(0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hosts_behind_a_round_robin_proxy_behave_as_one() {
    let schema = Schema::create().await;
    let dir = tempfile::tempdir().unwrap();
    let export = dir.path().join("export");
    common::copy_dir(&common::sample_export(), &export);
    let (addr_a, addr_b) = (free_addr(), free_addr());
    let leader = Process::serve(dir.path(), "a", &addr_a, &export, &schema.url);
    leader.wait_for_200(&addr_a, "/").await;
    let search_b = dir.path().join("b-search");
    let api_b = Process::start(
        dir.path(),
        "b",
        &[
            "api",
            "--addr",
            &addr_b,
            "--database-url",
            &schema.url,
            "--export",
            &export.display().to_string(),
            "--search-dir",
            &search_b.display().to_string(),
        ],
    );
    // B has no index of its own: it answers searches once it installed the leader's.
    api_b.wait_for_200(&addr_b, "/api/search?query=dress").await;
    let proxy = round_robin(&[addr_a.clone(), addr_b.clone()]).await;

    // The bag: lines added through either host, read back through both.
    let catalog = export::load_export(&common::sample_export())
        .unwrap()
        .catalog;
    let (product, variant, _) = catalog
        .purchasable_stock()
        .filter(|(_, _, units)| *units >= 5)
        .min()
        .expect("a variant with stock");
    let mut shopper = Browser::new(&proxy);
    let (code, cart) = shopper.send("POST", "/api/cart", Some(json!({}))).await;
    assert_eq!(code, 201, "{cart}");
    let line =
        json!({"line_items": [{"product_id": product, "variant_id": variant, "quantity": 1}]});
    let (code, cart) = shopper
        .send("POST", "/api/cart/items", Some(line.clone()))
        .await;
    assert_eq!(code, 201, "{cart}");
    let (code, cart) = shopper.send("POST", "/api/cart/items", Some(line)).await;
    assert!(code == 200 || code == 201, "{code} {cart}");
    assert_eq!(quantity(&cart), 2, "{cart}");
    for _ in 0..4 {
        let (code, cart) = shopper.send("GET", "/api/cart", None).await;
        assert_eq!((code, quantity(&cart)), (200, 2), "{cart}");
    }

    // A session made through one host is honoured by both.
    let mut ada = Browser::new(&proxy);
    let registration = json!({"email": "ada@example.com", "password": "secret123",
        "first_name": "Ada", "last_name": "Lovelace", "title": "Ms"});
    let (code, body) = ada
        .send("POST", "/api/auth/register", Some(registration))
        .await;
    assert_eq!(code, 202, "{body}");
    let mail: String = sqlx::query_scalar(
        "SELECT body FROM outbox WHERE recipient = $1 AND kind = 'account_confirmation'",
    )
    .bind("ada@example.com")
    .fetch_one(schema.db.pool())
    .await
    .unwrap();
    let token = &mail.split("token=").nth(1).unwrap()[..64];
    let (code, body) = ada
        .send(
            "POST",
            "/api/auth/register/confirm",
            Some(json!({"token": token})),
        )
        .await;
    assert_eq!(code, 200, "{body}");
    for _ in 0..4 {
        let (code, me) = ada.send("GET", "/api/customer", None).await;
        assert_eq!(
            (code, &me["email"]),
            (200, &json!("ada@example.com")),
            "{me}"
        );
    }

    // Failed sign-ins spread over both hosts count against one limit (5 per account and client).
    let mut guesser = Browser::new(&proxy);
    let guess = json!({"email": "ada@example.com", "password": "wrong-guess"});
    for i in 0..5 {
        let (code, body) = guesser
            .send("POST", "/api/auth/login", Some(guess.clone()))
            .await;
        assert_eq!(code, 401, "guess {i}: {body}");
    }
    for _ in 0..2 {
        let right = json!({"email": "ada@example.com", "password": "secret123"});
        let (code, body) = guesser.send("POST", "/api/auth/login", Some(right)).await;
        assert_eq!(code, 429, "both hosts refuse: {body}");
    }

    // A rebuild on the leader renames a product; both hosts find it by its new name.
    let products = export.join("catalog/products.json");
    let text = std::fs::read_to_string(&products).unwrap();
    std::fs::write(
        &products,
        text.replace("Satin Slip Midi Dress", "Quokka Slip Midi Dress"),
    )
    .unwrap();
    let event = json!({"scope": "store/product/updated", "store_id": "1",
        "data": {"type": "product", "id": 101}, "created_at": 1});
    let (code, body) = loopback::request(
        &addr_a,
        "POST",
        "/api/webhooks/catalog",
        &[("X-Webhook-Secret", CATALOG_SECRET)],
        event.to_string().as_bytes(),
    )
    .await
    .unwrap();
    assert_eq!(code, 202, "{body}");
    let found = |answer: &Value| {
        answer["products"]
            .as_array()
            .is_some_and(|hits| hits.iter().any(|h| h["id"] == 101))
    };
    let sent = Instant::now();
    let mut seen_in_a_row = 0;
    while seen_in_a_row < 2 {
        assert!(
            sent.elapsed() < Duration::from_secs(90),
            "the renamed product is not found on both hosts:\n{}\n{}",
            leader.log(),
            api_b.log()
        );
        let (_, answer) = shopper.send("GET", "/api/search?query=quokka", None).await;
        seen_in_a_row = if found(&answer) { seen_in_a_row + 1 } else { 0 };
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    println!(
        "the renamed product was found on both hosts {:?} after the webhook",
        sent.elapsed()
    );
    let (_, answer) = Browser::new(&addr_b)
        .send("GET", "/api/search?query=quokka", None)
        .await;
    assert!(found(&answer), "the api host itself finds it: {answer}");
    drop((leader, api_b));
    schema.drop().await;
}
