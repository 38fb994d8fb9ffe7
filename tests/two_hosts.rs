//! Two API hosts behind a round-robin proxy, as real processes on one PostgreSQL and one payment
//! provider (the loopback fake of its Checkout API): the leading `storefront serve` and a
//! `storefront api` with a search directory of its own. A shopper's bag, session and wishlist are
//! the same whichever host answers; a checkout whose steps, payment, repeated Place order and
//! 3-D Secure return land on different hosts makes one order per key, paid and stocked once;
//! failed sign-ins on both hosts count against one limit; and a product renamed by a webhook
//! rebuild on the leader is found by a search on both hosts. Needs TEST_POSTGRES_URL (CI has it).

mod common;
#[path = "../api/tests/support/payment_provider.rs"]
mod payment_provider;

use common::hosts::{Browser, CATALOG_SECRET, Process, Schema, free_addr, round_robin};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

fn quantity(cart: &Value) -> i64 {
    cart["line_items"]["physical_items"][0]["quantity"]
        .as_i64()
        .unwrap_or(0)
}

/// Units of `variant` in stock over all locations.
async fn stock(schema: &Schema, variant: u64) -> i64 {
    sqlx::query_scalar("SELECT CAST(SUM(available) AS BIGINT) FROM inventory WHERE variant_id = $1")
        .bind(variant as i64)
        .fetch_one(schema.db.pool())
        .await
        .unwrap()
}

/// Takes `b`'s bag through the checkout's steps (a UK delivery, the first delivery method, the
/// billing address the same): the checkout's id.
async fn ready_checkout(b: &mut Browser, email: &str) -> String {
    let (code, view) = b.send("POST", "/api/checkout", Some(json!({}))).await;
    assert!(code == 200 || code == 201, "{code} {view}");
    let id = view["id"].as_str().unwrap().to_string();
    let step = |name: &str| format!("/api/checkout/{id}/{name}");
    let (code, view) = b
        .send("PUT", &step("email"), Some(json!({"email": email})))
        .await;
    assert_eq!(code, 200, "{view}");
    let address = json!({"first_name": "Ada", "last_name": "Lovelace",
        "street_name": "Analytical Row", "house_number": "1", "city": "London",
        "state_or_province": "", "postal_code": "N1 9GU", "country_code": "GB",
        "phone": "+44 20 7946 0000"});
    let (code, view) = b
        .send(
            "PUT",
            &step("consignment"),
            Some(json!({"address": address})),
        )
        .await;
    assert_eq!(code, 200, "{view}");
    let option = view["consignment"]["shipping_options"][0]["id"].clone();
    let (code, view) = b
        .send(
            "PUT",
            &step("shipping-option"),
            Some(json!({"shipping_option_id": option})),
        )
        .await;
    assert_eq!(code, 200, "{view}");
    let (code, view) = b
        .send(
            "PUT",
            &step("billing-address"),
            Some(json!({"same_as_delivery": true})),
        )
        .await;
    assert_eq!(
        (code, &view["next_step"]),
        (200, &json!("payment")),
        "{view}"
    );
    let (code, methods) = b.send("GET", &step("payment-methods"), None).await;
    assert_eq!(code, 200, "{methods}");
    id
}

/// Place order by card with `token` and the `Idempotency-Key` `key`.
async fn place(b: &mut Browser, checkout: &str, key: &str, token: &str) -> (u16, Value) {
    let payment = json!({"payment": {"method": "scheme", "token": token}});
    let path = format!("/api/checkout/{checkout}/orders");
    b.send_with("POST", &path, Some(payment), &[("Idempotency-Key", key)])
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hosts_behind_a_round_robin_proxy_behave_as_one() {
    let schema = Schema::create().await;
    let dir = tempfile::tempdir().unwrap();
    let export = dir.path().join("export");
    common::copy_dir(&common::sample_export(), &export);
    let (psp, psp_addr) = payment_provider::start_psp().await;
    let psp_url = format!("http://{psp_addr}/");
    let provider = [
        ("PAYMENT_PROVIDER", "remote"),
        ("PAYMENT_PROVIDER_BASE_URL", psp_url.as_str()),
        ("PAYMENT_PROVIDER_API_KEY", payment_provider::KEY),
        ("PAYMENT_PROVIDER_TOKENIZE_URL", payment_provider::TOKENIZE),
    ];
    let (addr_a, addr_b) = (free_addr(), free_addr());
    let leader = Process::serve(dir.path(), "a", &addr_a, &export, &schema.url, &provider);
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
        &provider,
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

    // Ada's wishlist: made through one host, added to and read through both.
    let (other_product, other_variant, _) = catalog
        .purchasable_stock()
        .filter(|(p, _, _)| *p != product)
        .min()
        .expect("a second product");
    let item = |p: u64, v: u64| json!({"product_id": p, "variant_id": v});
    let (code, list) = ada
        .send(
            "POST",
            "/api/wishlists",
            Some(json!({"name": "Holiday", "items": [item(product, variant)]})),
        )
        .await;
    assert_eq!(code, 201, "{list}");
    let list_id = list["id"].as_str().unwrap().to_string();
    let (code, list) = ada
        .send(
            "POST",
            &format!("/api/wishlists/{list_id}/items"),
            Some(json!({"items": [item(other_product, other_variant)]})),
        )
        .await;
    assert_eq!(code, 200, "{list}");
    for _ in 0..4 {
        let (code, lists) = ada.send("GET", "/api/wishlists", None).await;
        let variants: Vec<&Value> = lists["data"][0]["items"]
            .as_array()
            .map(|items| items.iter().map(|i| &i["variant_id"]).collect())
            .unwrap_or_default();
        assert_eq!(
            (code, variants),
            (200, vec![&json!(variant), &json!(other_variant)]),
            "{lists}"
        );
    }
    let (code, body) = shopper
        .send("GET", &format!("/api/wishlists/{list_id}"), None)
        .await;
    assert_eq!(code, 401, "a guest cannot read Ada's list: {body}");

    // The checkout: its steps, Place order, the same key again and the order confirmation each
    // go to whichever host answers; one order, one payment, one capture, the stock taken once.
    let units_before = stock(&schema, variant).await;
    let checkout = ready_checkout(&mut shopper, "guest@example.com").await;
    let (code, placed) = place(&mut shopper, &checkout, "two-hosts-order-1", "tok_ok").await;
    assert_eq!(code, 201, "{placed}");
    let order = placed["order_id"].as_str().unwrap().to_string();
    for _ in 0..2 {
        let (code, again) = place(&mut shopper, &checkout, "two-hosts-order-1", "tok_ok").await;
        assert_eq!((code, &again["order_id"]), (201, &json!(order)), "{again}");
    }
    let payments = psp.calls("POST", "/v2/payments");
    let created = payments.iter().filter(|c| c.path == "/v2/payments").count();
    let captured = payments
        .iter()
        .filter(|c| c.path.ends_with("/captures"))
        .count();
    assert_eq!((created, captured), (1, 1), "{payments:#?}");
    assert_eq!(stock(&schema, variant).await, units_before - 2);
    for _ in 0..2 {
        let path = format!("/api/orders/{checkout}/{order}");
        let (code, view) = shopper.send("GET", &path, None).await;
        assert_eq!(code, 200, "{view}");
        assert!(view.to_string().contains(&order), "{view}");
    }

    // 3-D Secure: the challenge starts on one host and the shopper comes back through the other.
    let mut bea = Browser::new(&proxy);
    let (code, cart) = bea.send("POST", "/api/cart", Some(json!({}))).await;
    assert_eq!(code, 201, "{cart}");
    let one =
        json!({"line_items": [{"product_id": product, "variant_id": variant, "quantity": 1}]});
    let (code, cart) = bea.send("POST", "/api/cart/items", Some(one)).await;
    assert_eq!(code, 201, "{cart}");
    let checkout = ready_checkout(&mut bea, "bea@example.com").await;
    let (code, pending) = place(&mut bea, &checkout, "two-hosts-3ds-01", "tok_3ds").await;
    assert_eq!(code, 202, "{pending}");
    let order = pending["order_id"].as_str().unwrap().to_string();
    let details = format!("/api/checkout/{checkout}/payment-details");
    let (code, body) = bea
        .send("POST", &details, Some(json!({"order_id": order})))
        .await;
    assert_eq!(code, 202, "still at the challenge: {body}");
    let psp_id: String =
        sqlx::query_scalar("SELECT payment_reference FROM shop_order WHERE id = $1")
            .bind(&order)
            .fetch_one(schema.db.pool())
            .await
            .unwrap();
    psp.set_status(&psp_id, "authorized");
    let (code, body) = bea
        .send("POST", &details, Some(json!({"order_id": order})))
        .await;
    assert_eq!(code, 201, "{body}");
    let captures = psp.calls("POST", &format!("/v2/payments/{psp_id}/captures"));
    assert_eq!(captures.len(), 1, "{captures:#?}");
    assert_eq!(stock(&schema, variant).await, units_before - 3);

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
