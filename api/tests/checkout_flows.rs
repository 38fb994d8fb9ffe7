//! The standard checkout over real HTTP with cookies, paying through the built-in sandbox
//! provider (its tokenisation endpoint and 3-D Secure page on the same loopback server): a guest
//! card order with its confirmation and account offer, a signed-in order with a saved address, a
//! declined card then a good one, a 3-D Secure challenge passed and failed, a provider error, the
//! same Place order key twice, a line sold out before payment, every refused input, the
//! operator's transitions, the stale-Pending reconciliation, a re-import after orders, and the
//! other methods (PayPal, Klarna, gift cards, Apple Pay, Google Pay). On SQLite and PostgreSQL.

mod common;

use common::checkout::*;
use common::*;
use serde_json::{Value, json};

const ADMIN: &str = "operator-token-123";

async fn start(backend: Backend) -> TestApi {
    TestApi::start_with(backend, |c| c.admin_token = Some(ADMIN.into())).await
}

/// One variant with `main` units at the main warehouse, in a bag of `quantity`.
async fn one_line_bag(api: &TestApi, b: &mut Browser, q: &str, main: i64, quantity: i64) -> u64 {
    let (p, v) = variants(api, 1)[0];
    set_stock(api, v, main, 0).await;
    fill_bag(b, q, &[(p, v, quantity)]).await;
    v
}

async fn order_status(api: &TestApi, order: &str) -> (String, String) {
    let (status, payment, _) = order_state(api, order).await;
    (status, payment)
}

async fn admin(b: &mut Browser, method: &str, path: &str) -> Reply {
    let bearer = format!("Bearer {ADMIN}");
    let body = (method == "POST").then(Vec::new);
    b.send(method, path, body, &[("Authorization", &bearer)])
        .await
}

async fn a_guest_pays_by_card_and_creates_an_account_from_the_confirmation(backend: Backend) {
    let api = start(backend).await;
    let mut b = api.browser();
    let v = one_line_bag(&api, &mut b, "", 5, 2).await;
    let view = begin(&mut b, "").await;
    assert_eq!(view["next_step"], "identity");
    assert_eq!(view["signed_in"], false);
    assert_eq!(view["lines"][0]["quantity"], 2);
    assert_eq!(view["lines"][0]["stock_state"], "ok");
    let codes: Vec<&str> = view["countries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["GB", "JE", "GG"]);
    assert_eq!(view["countries"][0]["postal_code_label"], "Postcode");
    let (id, view) = ready(&mut b, "", "GB").await;
    let total = view["totals"]["total"].as_f64().unwrap();
    assert_eq!(
        total,
        view["totals"]["subtotal"].as_f64().unwrap() - view["totals"]["discount"].as_f64().unwrap()
            + view["totals"]["shipping"].as_f64().unwrap()
    );

    let r = b.get(&format!("/api/checkout/{id}/payment-methods")).await;
    assert_eq!(r.status, 200, "{}", text(&r));
    let methods: Vec<String> = r.json()["methods"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["type"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        methods,
        [
            "scheme",
            "applepay",
            "googlepay",
            "paypal",
            "klarna",
            "giftcard"
        ]
    );
    assert_eq!(r.json()["amount"].as_f64().unwrap(), total);
    assert_eq!(r.json()["tokenize_url"], "/sandbox-pay/v1/tokens");

    let r = pay_by_card(&mut b, &id, "", "key-guest-0001", CARD_OK).await;
    assert_eq!(r.status, 201, "{}", text(&r));
    let placed = r.json();
    assert_eq!(placed["status"], "Confirmed");
    let order = placed["order_id"].as_str().unwrap().to_string();
    assert_eq!(
        placed["confirmation_path"],
        format!("/order-confirmation/{id}/{order}")
    );
    assert!(r.set_cookie("sf_cart_uk").unwrap().contains("Max-Age=0"));
    // The guest cookie (set when the checkout began) marks this browser as the order's owner.
    assert!(b.cookies.contains_key("sf_guest"));
    assert_eq!(stock_of(&api, v).await, vec![(1, 3), (2, 0)]);
    assert_eq!(
        order_status(&api, &order).await,
        ("Confirmed".into(), "paid".into())
    );
    assert_eq!(
        count(
            &api,
            "SELECT COUNT(*) FROM outbox WHERE kind = 'order_confirmation'"
        )
        .await,
        1
    );
    // The cart is closed: no checkout to resume.
    assert_eq!(b.post("/api/checkout", json!({})).await.status, 404);

    // The confirmation, for this browser only.
    let r = b.get(&format!("/api/orders/{id}/{order}")).await;
    assert_eq!(r.status, 200, "{}", text(&r));
    let o = r.json();
    assert_eq!(o["email"], "ada@example.com");
    assert_eq!(o["delivery_address"]["city"], "London");
    assert_eq!(o["billing_address"]["postal_code"], "N1 9GU");
    assert_eq!(o["guest_account"]["email"], "ada@example.com");
    assert_eq!(o["guest_account"]["account_exists"], false);
    assert_eq!(o["purchase"][0]["quantity"], 2);
    assert_eq!(o["purchase"][0]["currency"], "GBP");
    let pid = o["purchase"][0]["productId"].as_str().unwrap();
    let sku = o["purchase"][0]["sku"].as_str().unwrap();
    assert!(pid.starts_with(&format!("{}_", &sku[..6])), "{pid}");
    let mut stranger = api.browser();
    assert_eq!(
        stranger
            .get(&format!("/api/orders/{id}/{order}"))
            .await
            .status,
        404
    );

    // An account from the confirmation: the checkout's email, the order attached, signed in.
    let r = b
        .post(
            &format!("/api/orders/{id}/{order}/account"),
            json!({"title": "Ms", "password": "secret123"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", text(&r));
    assert!(r.set_cookie("sf_session").is_some());
    let history = b.get("/api/customer/orders").await.json();
    assert_eq!(history["orders"][0]["id"], order);
    assert_eq!(history["orders"][0]["status"], "Confirmed");
    let addresses = b.get("/api/customer/addresses").await.json();
    assert_eq!(addresses["data"][0]["city"], "London");
    let r = b.get(&format!("/api/orders/{id}/{order}")).await;
    assert_eq!(r.json()["guest_account"], Value::Null);

    // A second guest order with that email: the account exists, and the offer says so.
    let mut again = api.browser();
    one_line_bag(&api, &mut again, "", 5, 1).await;
    let (id2, _) = ready(&mut again, "", "GB").await;
    let r = pay_by_card(&mut again, &id2, "", "key-guest-0002", CARD_OK).await;
    assert_eq!(r.status, 201, "{}", text(&r));
    let order2 = r.json()["order_id"].as_str().unwrap().to_string();
    let o = again
        .get(&format!("/api/orders/{id2}/{order2}"))
        .await
        .json();
    assert_eq!(o["guest_account"]["account_exists"], true);
    let r = again
        .post(
            &format!("/api/orders/{id2}/{order2}/account"),
            json!({"title": "Ms", "password": "secret123"}),
        )
        .await;
    assert_eq!(r.status, 409);
    assert_eq!(r.json()["error"]["code"], "account_exists");
    assert_eq!(
        r.error_message(),
        "An account already exists for the email you used to checkout. Please reset your password."
    );
    api.finish().await;
}

async fn a_signed_in_shopper_pays_with_a_saved_address(backend: Backend) {
    let api = start(backend).await;
    let mut b = api.browser();
    register(&mut b, "grace@example.com", "secret123").await;
    let r = b.post("/api/customer/addresses", address("GB")).await;
    assert_eq!(r.status, 201, "{}", text(&r));
    let saved = r.json()["id"].as_str().unwrap().to_string();
    one_line_bag(&api, &mut b, "", 5, 1).await;
    let view = begin(&mut b, "").await;
    assert_eq!(view["signed_in"], true);
    assert_eq!(view["email"], "grace@example.com");
    assert_eq!(view["next_step"], "delivery");
    let id = view["id"].as_str().unwrap().to_string();

    // Another customer's address is not usable.
    let mut other = api.browser();
    register(&mut other, "other@example.com", "secret123").await;
    let theirs = other
        .post("/api/customer/addresses", address("GB"))
        .await
        .json()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let r = put(
        &mut b,
        &id,
        "consignment",
        "",
        json!({"address_id": theirs}),
    )
    .await;
    assert_eq!(r.status, 404);
    assert!(r.error_fields().contains(&"address_id".to_string()));

    let r = put(&mut b, &id, "consignment", "", json!({"address_id": saved})).await;
    assert_eq!(r.status, 200, "{}", text(&r));
    let option = r.json()["consignment"]["shipping_options"][0]["id"].clone();
    put(
        &mut b,
        &id,
        "shipping-option",
        "",
        json!({"shipping_option_id": option}),
    )
    .await;
    let r = put(
        &mut b,
        &id,
        "billing-address",
        "",
        json!({"address_id": saved}),
    )
    .await;
    assert_eq!(r.status, 200, "{}", text(&r));
    assert_eq!(r.json()["next_step"], "payment");
    let r = pay_by_card(&mut b, &id, "", "key-signed-in-1", CARD_OK).await;
    assert_eq!(r.status, 201, "{}", text(&r));
    let order = r.json()["order_id"].as_str().unwrap().to_string();
    let o = b.get(&format!("/api/orders/{id}/{order}")).await.json();
    assert_eq!(o["guest_account"], Value::Null);
    assert_eq!(o["email"], "grace@example.com");
    let history = b.get("/api/customer/orders").await.json();
    assert_eq!(history["orders"][0]["id"], order);
    // Saving a typed address keeps it in the book.
    api.finish().await;
}

async fn a_declined_card_then_a_good_one(backend: Backend) {
    let api = start(backend).await;
    let mut b = api.browser();
    let v = one_line_bag(&api, &mut b, "", 3, 2).await;
    let (id, _) = ready(&mut b, "", "GB").await;
    let r = pay_by_card(&mut b, &id, "", "key-declined-1", CARD_DECLINED).await;
    assert_eq!(r.status, 402, "{}", text(&r));
    assert_eq!(r.json()["error"]["code"], "payment_failed");
    assert_eq!(
        r.error_message(),
        "Your payment was not successful. Please try again or use another payment method."
    );
    // The order was cancelled and its stock is back; the bag is intact.
    assert_eq!(stock_of(&api, v).await, vec![(1, 3), (2, 0)]);
    assert_eq!(
        count(
            &api,
            "SELECT COUNT(*) FROM shop_order WHERE status = 'Cancelled'"
        )
        .await,
        1
    );
    // The same key again answers the same refusal, without another attempt.
    let r = pay_by_card(&mut b, &id, "", "key-declined-1", CARD_OK).await;
    assert_eq!(r.status, 402);
    let r = pay_by_card(&mut b, &id, "", "key-good-0002", CARD_OK).await;
    assert_eq!(r.status, 201, "{}", text(&r));
    assert_eq!(stock_of(&api, v).await, vec![(1, 1), (2, 0)]);
    assert_eq!(
        count(
            &api,
            "SELECT COUNT(*) FROM shop_order WHERE status = 'Confirmed'"
        )
        .await,
        1
    );
    api.finish().await;
}

async fn three_d_secure_passed_and_failed(backend: Backend) {
    let api = start(backend).await;
    for pass in [true, false] {
        let mut b = api.browser();
        let v = one_line_bag(&api, &mut b, "?market=eu", 4, 1).await;
        let (id, _) = ready(&mut b, "?market=eu", "DE").await;
        let r = pay_by_card(&mut b, &id, "?market=eu", "key-challenge-1", CARD_CHALLENGE).await;
        assert_eq!(r.status, 202, "{}", text(&r));
        let pending = r.json();
        assert_eq!(pending["status"], "Pending");
        assert_eq!(pending["action"]["type"], "redirect");
        let order = pending["order_id"].as_str().unwrap().to_string();
        // The stock is held while the shopper is on the challenge page.
        assert_eq!(stock_of(&api, v).await, vec![(1, 3), (2, 0)]);
        let view = b.get(&format!("/api/checkout/{id}?market=eu")).await.json();
        assert_eq!(view["pending_order_id"], order);
        let back =
            answer_sandbox_page(&mut b, pending["action"]["url"].as_str().unwrap(), pass).await;
        assert!(
            back.contains(&format!("/eu/checkout/return?order_id={order}")),
            "{back}"
        );
        let r = b
            .post(
                &format!("/api/checkout/{id}/payment-details?market=eu"),
                json!({"order_id": order}),
            )
            .await;
        if pass {
            assert_eq!(r.status, 201, "{}", text(&r));
            assert_eq!(r.json()["status"], "Confirmed");
            assert_eq!(stock_of(&api, v).await, vec![(1, 3), (2, 0)]);
            assert_eq!(order_status(&api, &order).await.0, "Confirmed");
        } else {
            assert_eq!(r.status, 402, "{}", text(&r));
            assert_eq!(stock_of(&api, v).await, vec![(1, 4), (2, 0)]);
            assert_eq!(order_status(&api, &order).await.0, "Cancelled");
        }
    }
    api.finish().await;
}

async fn a_provider_error_keeps_the_order_pending_until_it_is_reconciled(backend: Backend) {
    let api = start(backend).await;
    let mut b = api.browser();
    let v = one_line_bag(&api, &mut b, "", 2, 1).await;
    let (id, _) = ready(&mut b, "", "GB").await;
    let r = pay_by_card(&mut b, &id, "", "key-provider-1", CARD_ERROR).await;
    assert_eq!(r.status, 502, "{}", text(&r));
    assert_eq!(r.json()["error"]["code"], "payment_provider_unavailable");
    let order: String = sqlx::query_scalar("SELECT id FROM shop_order")
        .fetch_one(api.state.db().pool())
        .await
        .unwrap();
    assert_eq!(order_status(&api, &order).await.0, "Pending");
    assert_eq!(stock_of(&api, v).await, vec![(1, 1), (2, 0)]);
    // Not stale yet: left alone.
    assert_eq!(reconcile(&api, false).await, 0);
    assert_eq!(reconcile(&api, true).await, 1);
    assert_eq!(order_status(&api, &order).await.0, "Cancelled");
    assert_eq!(stock_of(&api, v).await, vec![(1, 2), (2, 0)]);
    api.finish().await;
}

async fn a_stale_payment_the_provider_authorised_is_captured(backend: Backend) {
    // A shopper passed 3-D Secure and closed the tab before the return page: the reconciliation
    // asks the provider, captures and confirms.
    let api = start(backend).await;
    let mut b = api.browser();
    let v = one_line_bag(&api, &mut b, "", 2, 1).await;
    let (id, _) = ready(&mut b, "", "GB").await;
    let r = pay_by_card(&mut b, &id, "", "key-stale-auth", CARD_CHALLENGE).await;
    assert_eq!(r.status, 202);
    let order = r.json()["order_id"].as_str().unwrap().to_string();
    answer_sandbox_page(&mut b, r.json()["action"]["url"].as_str().unwrap(), true).await;
    assert_eq!(reconcile(&api, true).await, 1);
    assert_eq!(
        order_status(&api, &order).await,
        ("Confirmed".into(), "paid".into())
    );
    assert_eq!(stock_of(&api, v).await, vec![(1, 1), (2, 0)]);
    api.finish().await;
}

/// Rounds of two presses of Place order at once with one key: whichever way they interleave
/// (the second may find the cart already closed by the first), one order and one charge.
const DOUBLE_PRESS_ROUNDS: usize = 30;

async fn the_same_key_is_the_same_order(backend: Backend) {
    // Every round pays from the same loopback address: past the per-client attempt limit.
    let api = TestApi::start_with(backend, |c| c.payment_attempts_per_client = 1000).await;
    for round in 0..DOUBLE_PRESS_ROUNDS {
        let mut b = api.browser();
        let v = one_line_bag(&api, &mut b, "", 5, 1).await;
        let (id, _) = ready(&mut b, "", "GB").await;
        let token = card_token(&mut b, CARD_OK).await;
        let payment = json!({"method": "scheme", "token": token});
        let key = format!("key-double-{round:03}");
        // Two presses at once, then one more after.
        let (mut b1, mut b2) = (b.clone(), b.clone());
        let (id1, id2) = (id.clone(), id.clone());
        let (p1, p2) = (payment.clone(), payment.clone());
        let (k1, k2) = (key.clone(), key.clone());
        let one = tokio::spawn(async move { place(&mut b1, &id1, "", &k1, p1).await });
        let two = tokio::spawn(async move { place(&mut b2, &id2, "", &k2, p2).await });
        let (r1, r2) = (one.await.unwrap(), two.await.unwrap());
        let ok: Vec<&Reply> = [&r1, &r2].into_iter().filter(|r| r.status == 201).collect();
        assert!(
            !ok.is_empty(),
            "round {round}: {} / {}",
            text(&r1),
            text(&r2)
        );
        for r in [&r1, &r2] {
            // The loser either got the same order, or was told the payment is running.
            assert!(
                r.status == 201 || r.json()["error"]["code"] == "payment_in_progress",
                "round {round}: {}",
                text(r)
            );
        }
        let r3 = place(&mut b, &id, "", &key, payment).await;
        assert_eq!(r3.status, 201, "{}", text(&r3));
        assert_eq!(r3.json()["order_id"], ok[0].json()["order_id"]);
        assert_eq!(
            count(&api, "SELECT COUNT(*) FROM shop_order").await,
            round as i64 + 1
        );
        assert_eq!(stock_of(&api, v).await, vec![(1, 4), (2, 0)]);
    }
    api.finish().await;
}

async fn a_line_sold_out_before_payment_charges_nothing(backend: Backend) {
    let api = start(backend).await;
    let mut b = api.browser();
    let v = one_line_bag(&api, &mut b, "", 2, 2).await;
    let (id, _) = ready(&mut b, "", "GB").await;
    set_stock(&api, v, 1, 0).await;
    let r = pay_by_card(&mut b, &id, "", "key-sold-out-1", CARD_OK).await;
    assert_eq!(r.status, 409, "{}", text(&r));
    assert_eq!(r.json()["error"]["code"], "insufficient_stock");
    assert!(r.error_fields().contains(&"lines[0].quantity".to_string()));
    assert_eq!(count(&api, "SELECT COUNT(*) FROM shop_order").await, 0);
    assert_eq!(stock_of(&api, v).await, vec![(1, 1), (2, 0)]);
    // The bag shows what is left now, not the stock it was shown before.
    let bag = b.get("/api/cart").await.json();
    assert_eq!(
        bag["line_items"]["physical_items"][0]["available_to_sell"],
        1
    );
    // Back on the bag, the checkout reduces the line to what is left and says so.
    let view = begin(&mut b, "").await;
    assert_eq!(view["lines"][0]["quantity"], 1);
    assert_eq!(view["lines"][0]["stock_state"], "quantity_reduced");
    assert_eq!(view["lines"][0]["previous_quantity"], 2);
    set_stock(&api, v, 0, 0).await;
    let view = begin(&mut b, "").await;
    assert_eq!(view["lines"][0]["stock_state"], "sold_out");
    assert_eq!(view["can_continue"], false);
    api.finish().await;
}

async fn every_bad_input_is_refused_and_changes_nothing(backend: Backend) {
    let api = start(backend).await;
    let mut b = api.browser();
    one_line_bag(&api, &mut b, "", 5, 1).await;
    let view = begin(&mut b, "").await;
    let id = view["id"].as_str().unwrap().to_string();
    let fields = |r: &Reply| r.error_fields();

    let r = put(&mut b, &id, "email", "", json!({"email": "not-an-email"})).await;
    assert_eq!(r.status, 400);
    assert_eq!(
        r.json()["error"]["fields"]["email"],
        "Please enter a valid email address"
    );
    let r = put(
        &mut b,
        &id,
        "email",
        "",
        json!({"email": "a@b.co", "amount": 1}),
    )
    .await;
    assert_eq!(r.status, 400);
    let r = put(
        &mut b,
        &id,
        "consignment",
        "",
        json!({"address": {"country_code": "GB"}}),
    )
    .await;
    assert_eq!(r.status, 400);
    for f in [
        "first_name",
        "last_name",
        "street_name",
        "house_number",
        "city",
        "postal_code",
        "phone",
    ] {
        assert!(
            fields(&r).contains(&format!("address.{f}")),
            "{f}: {}",
            text(&r)
        );
    }
    assert_eq!(
        r.json()["error"]["fields"]["address.postal_code"],
        "Please enter a postcode"
    );
    assert!(!fields(&r).contains(&"address.state_or_province".to_string()));
    let r = put(
        &mut b,
        &id,
        "consignment",
        "",
        json!({"address": address("DE")}),
    )
    .await;
    assert_eq!(r.status, 422);
    assert_eq!(r.json()["error"]["code"], "shipping_country_not_allowed");
    assert_eq!(
        r.error_message(),
        "We only ship to UK, Jersey, and Guernsey"
    );
    let r = put(
        &mut b,
        &id,
        "shipping-option",
        "",
        json!({"shipping_option_id": "uk-standard"}),
    )
    .await;
    assert_eq!(r.status, 409);
    let r = put(&mut b, &id, "billing-address", "", json!({})).await;
    assert_eq!(r.status, 400);
    assert_eq!(
        r.json()["error"]["fields"]["billing_address"],
        "Billing address is required"
    );
    // Another shopper's checkout id is not found, and names the field.
    let mut other = api.browser();
    one_line_bag(&api, &mut other, "", 5, 1).await;
    let r = put(
        &mut other,
        &id,
        "email",
        "",
        json!({"email": "x@example.com"}),
    )
    .await;
    assert_eq!(r.status, 404);
    assert!(fields(&r).contains(&"checkout_id".to_string()));
    // Nothing changed.
    let after = b.get(&format!("/api/checkout/{id}")).await.json();
    assert_eq!(after["email"], Value::Null);
    assert_eq!(after["consignment"], Value::Null);
    assert_eq!(after["billing"], Value::Null);

    let (id, _) = ready(&mut b, "", "GB").await;
    let r = put(
        &mut b,
        &id,
        "shipping-option",
        "",
        json!({"shipping_option_id": "us-standard"}),
    )
    .await;
    assert_eq!(r.status, 400);
    assert!(fields(&r).contains(&"shipping_option_id".to_string()));
    let token = card_token(&mut b, CARD_OK).await;
    let r = place(
        &mut b,
        &id,
        "",
        "key-bad-0001",
        json!({"method": "scheme", "token": token, "amount": 1}),
    )
    .await;
    assert_eq!(r.status, 400);
    let r = place(
        &mut b,
        &id,
        "",
        "key-bad-0002",
        json!({"method": "bitcoin", "token": token}),
    )
    .await;
    assert_eq!(r.status, 400);
    assert!(fields(&r).contains(&"payment.method".to_string()));
    // A method not offered here: the sandbox has no Klarna for the Channel Islands.
    {
        let mut je = api.browser();
        one_line_bag(&api, &mut je, "", 5, 1).await;
        let (je_id, _) = ready(&mut je, "", "JE").await;
        let r = place(
            &mut je,
            &je_id,
            "",
            "key-bad-0003",
            json!({"method": "klarna"}),
        )
        .await;
        assert_eq!(r.status, 400, "{}", text(&r));
        assert!(fields(&r).contains(&"payment.method".to_string()));
    }
    let r = place(&mut b, &id, "", "key-bad-0004", json!({"method": "scheme"})).await;
    assert_eq!(r.status, 400);
    assert!(fields(&r).contains(&"payment.token".to_string()));
    let r = b
        .send(
            "POST",
            &format!("/api/checkout/{id}/orders"),
            Some(
                json!({"payment": {"method": "scheme", "token": token}})
                    .to_string()
                    .into_bytes(),
            ),
            &[],
        )
        .await;
    assert_eq!(r.status, 400);
    assert!(fields(&r).contains(&"header:Idempotency-Key".to_string()));
    assert_eq!(count(&api, "SELECT COUNT(*) FROM shop_order").await, 0);
    // And the card token was not spent: it still pays.
    let r = place(
        &mut b,
        &id,
        "",
        "key-good-0005",
        json!({"method": "scheme", "token": token}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", text(&r));
    api.finish().await;
}

async fn the_operator_moves_orders_along(backend: Backend) {
    let api = start(backend).await;
    let mut b = api.browser();
    let v = one_line_bag(&api, &mut b, "", 5, 2).await;
    let (id, _) = ready(&mut b, "", "GB").await;
    let order = pay_by_card(&mut b, &id, "", "key-operator-1", CARD_OK)
        .await
        .json()["order_id"]
        .as_str()
        .unwrap()
        .to_string();
    let mut op = api.browser();
    let r = op.get("/api/admin/orders").await;
    assert_eq!(r.status, 401);
    let r = admin(&mut op, "GET", "/api/admin/orders?status=Confirmed").await;
    assert_eq!(r.status, 200, "{}", text(&r));
    assert_eq!(r.json()["orders"][0]["id"], order);
    let r = admin(&mut op, "GET", "/api/admin/orders?status=Lost").await;
    assert_eq!(r.status, 400);
    // A parameter the list does not take is a 400 in the error shape naming it.
    let r = admin(&mut op, "GET", "/api/admin/orders?sort=newest").await;
    assert_eq!(r.status, 400);
    assert_eq!(r.error_fields(), vec!["sort"]);

    let step = |action: &str| format!("/api/admin/orders/{order}/{action}");
    assert_eq!(admin(&mut op, "POST", &step("complete")).await.status, 409);
    let r = admin(&mut op, "POST", &step("ship")).await;
    assert_eq!(r.status, 200, "{}", text(&r));
    assert_eq!(r.json()["status"], "Shipped");
    let r = admin(&mut op, "POST", &step("ship")).await;
    assert_eq!(r.status, 409);
    assert_eq!(r.json()["error"]["code"], "illegal_transition");
    // An action declares no body, so it is taken without one and without a content type.
    let bearer = format!("Bearer {ADMIN}");
    let r = op
        .send("POST", &step("ship"), None, &[("Authorization", &bearer)])
        .await;
    assert_eq!(r.json()["error"]["code"], "illegal_transition");
    assert_eq!(admin(&mut op, "POST", &step("cancel")).await.status, 409);
    assert_eq!(admin(&mut op, "POST", &step("complete")).await.status, 200);
    let r = admin(&mut op, "POST", &step("refund")).await;
    assert_eq!(r.status, 200, "{}", text(&r));
    assert_eq!(
        order_status(&api, &order).await,
        ("Refunded".into(), "refunded".into())
    );
    assert_eq!(admin(&mut op, "POST", &step("refund")).await.status, 409);
    assert_eq!(admin(&mut op, "POST", &step("fly")).await.status, 400);

    // Cancelling a confirmed order refunds it and returns its stock.
    let mut c = api.browser();
    fill_bag(&mut c, "", &[(variants(&api, 1)[0].0, v, 1)]).await;
    let (id, _) = ready(&mut c, "", "GB").await;
    let second = pay_by_card(&mut c, &id, "", "key-operator-2", CARD_OK)
        .await
        .json()["order_id"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(stock_of(&api, v).await, vec![(1, 2), (2, 0)]);
    let r = admin(
        &mut op,
        "POST",
        &format!("/api/admin/orders/{second}/cancel"),
    )
    .await;
    assert_eq!(r.status, 200, "{}", text(&r));
    assert_eq!(
        order_status(&api, &second).await,
        ("Cancelled".into(), "refunded".into())
    );
    assert_eq!(stock_of(&api, v).await, vec![(1, 3), (2, 0)]);
    // The customer's history shows the real status (guest orders: through the confirmation).
    let o = c.get(&format!("/api/orders/{id}/{second}")).await.json();
    assert_eq!(o["status"], "Cancelled");
    api.finish().await;
}

async fn a_reimport_after_orders_keeps_their_stock_taken(backend: Backend) {
    let api = start(backend).await;
    let catalog = api.state.catalog();
    let mut picked: Vec<(u64, u64, i64)> = catalog.purchasable_stock().collect();
    picked.sort();
    // A variant with at least 3 units at the main warehouse in the export.
    let (p, v) = picked
        .iter()
        .map(|(p, v, _)| (*p, *v))
        .find(|(_, v)| {
            catalog.inventory[v]
                .locations
                .iter()
                .any(|l| l.location_id == 1 && l.enabled && l.available_to_sell >= 3)
        })
        .unwrap();
    let before = stock_of(&api, v).await;
    let mut b = api.browser();
    fill_bag(&mut b, "", &[(p, v, 2)]).await;
    let (id, _) = ready(&mut b, "", "GB").await;
    assert_eq!(
        pay_by_card(&mut b, &id, "", "key-reimport-1", CARD_OK)
            .await
            .status,
        201
    );
    let after_order = stock_of(&api, v).await;
    assert_eq!(after_order[0].1, before[0].1 - 2);
    // The same report imported again (as a webhook or the watcher would after the export is
    // rewritten): the two units sold since the report stay sold.
    sqlx::query("DELETE FROM catalog_meta")
        .execute(api.state.db().pool())
        .await
        .unwrap();
    let (_, changed) = api::catalog::import(api.state.db(), std::path::Path::new(SAMPLE))
        .await
        .unwrap();
    assert!(changed);
    assert_eq!(stock_of(&api, v).await, after_order);
    api.finish().await;
}

/// A gift card token from the sandbox's tokenisation endpoint.
async fn gift_card_token(b: &mut Browser, number: &str) -> String {
    let r = b
        .post(
            "/sandbox-pay/v1/tokens",
            json!({"type": "giftcard", "number": number, "pin": "1234"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", text(&r));
    r.json()["token"].as_str().unwrap().to_string()
}

async fn paypal_klarna_and_gift_cards_pay_through_the_same_flow(backend: Backend) {
    let api = start(backend).await;
    // PayPal approved and Klarna cancelled at their approval pages, then the return.
    for (method, approve) in [("paypal", true), ("klarna", false)] {
        let mut b = api.browser();
        let v = one_line_bag(&api, &mut b, "", 3, 1).await;
        let (id, _) = ready(&mut b, "", "GB").await;
        let r = place(
            &mut b,
            &id,
            "",
            &format!("key-{method}-01"),
            json!({"method": method}),
        )
        .await;
        assert_eq!(r.status, 202, "{method}: {}", text(&r));
        let url = r.json()["action"]["url"].as_str().unwrap().to_string();
        assert!(url.contains("/sandbox-pay/redirect/"), "{url}");
        let order = r.json()["order_id"].as_str().unwrap().to_string();
        answer_sandbox_page(&mut b, &url, approve).await;
        let r = b
            .post(
                &format!("/api/checkout/{id}/payment-details"),
                json!({"order_id": order}),
            )
            .await;
        if approve {
            assert_eq!(r.status, 201, "{method}: {}", text(&r));
            assert_eq!(
                order_status(&api, &order).await,
                ("Confirmed".into(), "paid".into())
            );
            assert_eq!(stock_of(&api, v).await, vec![(1, 2), (2, 0)]);
        } else {
            assert_eq!(r.status, 402, "{method}: {}", text(&r));
            assert_eq!(stock_of(&api, v).await, vec![(1, 3), (2, 0)]);
        }
    }
    // A gift card without enough on it is refused; one with enough pays.
    let mut b = api.browser();
    let v = one_line_bag(&api, &mut b, "", 3, 1).await;
    let (id, _) = ready(&mut b, "", "GB").await;
    let small = gift_card_token(&mut b, "6036 2800 0000 0002").await;
    let r = place(
        &mut b,
        &id,
        "",
        "key-gift-0001",
        json!({"method": "giftcard", "token": small}),
    )
    .await;
    assert_eq!(r.status, 402, "{}", text(&r));
    assert_eq!(stock_of(&api, v).await, vec![(1, 3), (2, 0)]);
    let big = gift_card_token(&mut b, "6036 2800 0000 0001").await;
    let r = place(
        &mut b,
        &id,
        "",
        "key-gift-0002",
        json!({"method": "giftcard", "token": big}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", text(&r));
    assert_eq!(stock_of(&api, v).await, vec![(1, 2), (2, 0)]);
    api.finish().await;
}

/// Apple Pay and Google Pay in the payment step: offered with what their sheets need, Apple
/// Pay's merchant session only for an apple.com URL and this shopper's checkout, then Place
/// order with the wallet's token; a wallet token pays once, and a malformed one is refused.
async fn apple_pay_and_google_pay_pay_through_the_same_flow(backend: Backend) {
    let api = start(backend).await;
    let mut b = api.browser();
    let v = one_line_bag(&api, &mut b, "", 5, 1).await;
    let (id, _) = ready(&mut b, "", "GB").await;
    let r = b.get(&format!("/api/checkout/{id}/payment-methods")).await;
    assert_eq!(r.status, 200, "{}", text(&r));
    let methods = r.json();
    let kinds: Vec<&str> = methods["methods"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["type"].as_str().unwrap())
        .collect();
    assert!(
        kinds.contains(&"applepay") && kinds.contains(&"googlepay"),
        "{kinds:?}"
    );
    let google = methods["methods"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["type"] == "googlepay")
        .unwrap();
    assert_eq!(google["configuration"]["gateway"], "example");
    assert_eq!(google["configuration"]["environment"], "TEST");
    assert!(!methods["merchant_name"].as_str().unwrap().is_empty());

    // The merchant session: only Apple's https hosts, only for this shopper's checkout.
    let session = format!("/api/checkout/{id}/apple-pay-session");
    for bad in [
        "http://apple-pay-gateway.apple.com/x",
        "https://evil.example/apple.com",
        "",
    ] {
        let r = b.post(&session, json!({"validation_url": bad})).await;
        assert_eq!(r.status, 400, "{bad}: {}", text(&r));
        assert!(
            r.json()["error"]["fields"]["validation_url"].is_string(),
            "{}",
            text(&r)
        );
    }
    let apple_url = "https://apple-pay-gateway-cert.apple.com/paymentservices/startSession";
    let mut stranger = api.browser();
    let r = stranger
        .post(&session, json!({"validation_url": apple_url}))
        .await;
    assert!(r.status == 404 || r.status == 409, "{}", text(&r));
    let r = b.post(&session, json!({"validation_url": apple_url})).await;
    assert_eq!(r.status, 200, "{}", text(&r));
    assert!(
        r.json()["merchantSessionIdentifier"].is_string(),
        "{}",
        text(&r)
    );

    // A malformed Apple Pay token is refused and the stock is back.
    let r = place(
        &mut b,
        &id,
        "",
        "key-apple-bad-1",
        json!({"method": "applepay", "token": "not json"}),
    )
    .await;
    assert_eq!(r.status, 402, "{}", text(&r));
    assert_eq!(stock_of(&api, v).await, vec![(1, 5), (2, 0)]);
    // A well-formed one pays.
    let token = json!({"paymentData": {"data": "encrypted", "version": "EC_v1"}, "transactionIdentifier": "T1"}).to_string();
    let r = place(
        &mut b,
        &id,
        "",
        "key-apple-good-1",
        json!({"method": "applepay", "token": token}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", text(&r));
    let order = r.json()["order_id"].as_str().unwrap().to_string();
    assert_eq!(
        order_status(&api, &order).await,
        ("Confirmed".into(), "paid".into())
    );
    assert_eq!(stock_of(&api, v).await, vec![(1, 4), (2, 0)]);

    // Google Pay in a new bag; the same wallet data again (another key) is refused.
    let mut b = api.browser();
    one_line_bag(&api, &mut b, "", 4, 1).await;
    let (id, _) = ready(&mut b, "", "GB").await;
    let gpay = r#"{"protocolVersion":"ECv2","signedMessage":"test"}"#;
    let r = place(
        &mut b,
        &id,
        "",
        "key-google-1",
        json!({"method": "googlepay", "token": gpay}),
    )
    .await;
    assert_eq!(r.status, 201, "{}", text(&r));
    let mut b = api.browser();
    one_line_bag(&api, &mut b, "", 3, 1).await;
    let (id, _) = ready(&mut b, "", "GB").await;
    let r = place(
        &mut b,
        &id,
        "",
        "key-google-2",
        json!({"method": "googlepay", "token": gpay}),
    )
    .await;
    assert_eq!(r.status, 402, "{}", text(&r));
    let r = place(
        &mut b,
        &id,
        "",
        "key-google-3",
        json!({"method": "googlepay"}),
    )
    .await;
    assert_eq!(r.status, 400, "{}", text(&r));
    assert!(
        r.json()["error"]["fields"]["payment.token"].is_string(),
        "{}",
        text(&r)
    );
    api.finish().await;
}

on_both!(
    apple_pay_and_google_pay_pay_through_the_same_flow,
    paypal_klarna_and_gift_cards_pay_through_the_same_flow,
    a_guest_pays_by_card_and_creates_an_account_from_the_confirmation,
    a_signed_in_shopper_pays_with_a_saved_address,
    a_declined_card_then_a_good_one,
    three_d_secure_passed_and_failed,
    a_provider_error_keeps_the_order_pending_until_it_is_reconciled,
    a_stale_payment_the_provider_authorised_is_captured,
    the_same_key_is_the_same_order,
    a_line_sold_out_before_payment_charges_nothing,
    every_bad_input_is_refused_and_changes_nothing,
    the_operator_moves_orders_along,
    a_reimport_after_orders_keeps_their_stock_taken,
);
