//! Cart flows over real HTTP with cookies: a guest cart from create to delete, market currencies,
//! the add-to-bag stock rule, the spec's "no cart" messages, and parallel add-to-bag never
//! overselling a cart.

mod common;

use common::*;
use serde_json::json;

async fn guest_cart_from_create_to_delete(backend: Backend) {
    let api = TestApi::start(backend).await;
    let mut b = api.browser();

    // No cart yet: every operation answers with the spec's message.
    for (method, path, message) in [
        ("GET", "/api/cart", "There is no cart."),
        (
            "POST",
            "/api/cart/items",
            "There is no cart to add the item to.",
        ),
        ("DELETE", "/api/cart", "There is no cart to clear."),
    ] {
        let body = (method == "POST").then(|| line(101, 10001, 1).to_string().into_bytes());
        let r = b.send(method, path, body, &[]).await;
        assert_eq!(r.status, 404, "{method} {path}");
        assert_eq!(r.error_message(), message);
    }
    let fake = "0".repeat(32);
    let r = b
        .put(&format!("/api/cart/items/{fake}"), json!({"quantity": 1}))
        .await;
    assert_eq!(
        r.error_message(),
        "There is no cart to update product quantity in."
    );
    let r = b.delete(&format!("/api/cart/items/{fake}")).await;
    assert_eq!(
        r.error_message(),
        "There is no cart to remove the item from."
    );

    // Create: null id, empty lists, the market's currency.
    let r = b.post("/api/cart", json!({})).await;
    assert_eq!(r.status, 201);
    let cart = r.json();
    assert_eq!(cart["id"], serde_json::Value::Null);
    assert_eq!(cart["currency"]["code"], "GBP");
    for list in [
        "physical_items",
        "digital_items",
        "custom_items",
        "gift_certificates",
    ] {
        assert_eq!(cart["line_items"][list], json!([]), "{list}");
    }
    assert_eq!(cart["total_item_count"], 0);
    assert!(b.cookies.contains_key("sf_cart_uk"));

    // Add: priced from the catalog, options shown, totals computed.
    let (p, v, units) = api.variant_with_stock(|n| n >= 10);
    let r = b.post("/api/cart/items", line(p, v, 2)).await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    let cart = r.json();
    let catalog = api.state.catalog();
    let variant = catalog
        .product(p)
        .unwrap()
        .variants
        .iter()
        .find(|x| x.id == v)
        .unwrap()
        .clone();
    let price = variant.prices[0];
    let item = &cart["line_items"]["physical_items"][0];
    assert_eq!(item["variant_id"], v);
    assert_eq!(item["quantity"], 2);
    assert_eq!(
        item["list_price"].as_f64().unwrap(),
        price.price.minor as f64 / 100.0
    );
    assert_eq!(
        item["sale_price"].as_f64().unwrap(),
        price.current().minor as f64 / 100.0
    );
    assert_eq!(
        item["extended_sale_price"].as_f64().unwrap(),
        2.0 * price.current().minor as f64 / 100.0
    );
    assert_eq!(item["available_to_sell"], units);
    let names: Vec<&str> = item["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"Size"), "{names:?}");
    assert!(cart["id"].is_string());
    assert_eq!(cart["total_item_count"], 2);
    assert_eq!(
        cart["base_amount"].as_f64().unwrap(),
        2.0 * price.price.minor as f64 / 100.0
    );
    assert_eq!(
        cart["cart_amount"].as_f64().unwrap(),
        2.0 * price.current().minor as f64 / 100.0
    );

    // Adding the same variant again merges into one line.
    let r = b.post("/api/cart/items", line(p, v, 1)).await;
    assert_eq!(
        r.json()["line_items"]["physical_items"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    assert_eq!(r.json()["total_item_count"], 3);
    let item_id = r.json()["line_items"]["physical_items"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();

    // A gift card is digital, gets its uid from the server and counts towards the total.
    let gift = catalog.products.iter().find(|p| p.is_gift_card).unwrap();
    let mut selections = vec![];
    for m in &gift.modifiers {
        if m.display_name.contains("email") {
            selections.push(json!({"option_id": m.id, "option_value": "friend@example.com"}));
        }
    }
    let r = b
        .post(
            "/api/cart/items",
            json!({"line_items": [{"product_id": gift.id, "variant_id": gift.variants[0].id, "quantity": 1, "option_selections": selections}]}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    let cart = r.json();
    let digital = &cart["line_items"]["digital_items"][0];
    let uid = digital["options"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["name"] == "uid")
        .unwrap();
    assert!(uid["value"].as_str().unwrap().len() > 10);
    assert_eq!(cart["total_item_count"], 4);
    let gift_line = digital["id"].as_str().unwrap().to_string();

    // Update a quantity, then remove lines; the last removal starts a fresh cart.
    let r = b
        .put(
            &format!("/api/cart/items/{item_id}"),
            json!({"quantity": 1}),
        )
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["total_item_count"], 2);
    let r = b.delete(&format!("/api/cart/items/{gift_line}")).await;
    assert_eq!(r.status, 200);
    assert!(
        r.set_cookie("sf_cart_uk").is_none(),
        "not the last item: same cart"
    );
    let old_cookie = b.cookies["sf_cart_uk"].clone();
    let r = b.delete(&format!("/api/cart/items/{item_id}")).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["id"], serde_json::Value::Null);
    assert_ne!(
        b.cookies["sf_cart_uk"], old_cookie,
        "a fresh cart replaces the emptied one"
    );
    assert_eq!(
        api.scalar("SELECT COUNT(*) FROM cart WHERE id = $1", &old_cookie)
            .await,
        0
    );

    // Delete clears the cookie.
    let r = b.delete("/api/cart").await;
    assert_eq!(r.status, 204);
    assert!(r.set_cookie("sf_cart_uk").unwrap().contains("Max-Age=0"));
    assert!(!b.cookies.contains_key("sf_cart_uk"));
    assert_eq!(b.get("/api/cart").await.status, 404);
    api.finish().await;
}

async fn carts_are_per_market(backend: Backend) {
    let api = TestApi::start(backend).await;
    let mut b = api.browser();
    let r = b.post("/api/cart?market=us", json!({})).await;
    assert_eq!(r.json()["currency"]["code"], "USD");
    assert!(b.cookies.contains_key("sf_cart_us"));
    let (p, v, _) = api.variant_with_stock(|n| n >= 3);
    let r = b.post("/api/cart/items?market=us", line(p, v, 1)).await;
    let us_price = api
        .state
        .catalog()
        .product(p)
        .unwrap()
        .variants
        .iter()
        .find(|x| x.id == v)
        .unwrap()
        .prices[1];
    assert_eq!(
        r.json()["cart_amount"].as_f64().unwrap(),
        us_price.current().minor as f64 / 100.0
    );
    // The US cart is not the UK cart.
    assert_eq!(b.get("/api/cart").await.status, 404);
    // A US cart id presented as the UK cookie is not usable there.
    let us_id = b.cookies["sf_cart_us"].clone();
    b.cookies.insert("sf_cart_uk".into(), us_id);
    assert_eq!(b.get("/api/cart?market=uk").await.status, 404);
    assert_eq!(
        b.get("/api/cart?market=de").await.error_fields(),
        vec!["market"]
    );
    api.finish().await;
}

async fn add_to_bag_respects_stock(backend: Backend) {
    let api = TestApi::start(backend).await;
    let mut b = api.browser();
    b.post("/api/cart", json!({})).await;
    let (p, v, units) = api.variant_with_stock(|n| (2..20).contains(&n));
    let r = b.post("/api/cart/items", line(p, v, units + 1)).await;
    assert_eq!(r.status, 409);
    assert_eq!(
        r.error_message(),
        "The selected quantity exceeds available stock"
    );
    assert_eq!(
        b.post("/api/cart/items", line(p, v, units - 1))
            .await
            .status,
        201
    );
    // In the bag plus requested may not exceed stock.
    let r = b.post("/api/cart/items", line(p, v, 2)).await;
    assert_eq!(r.status, 409);
    let cart = b.get("/api/cart").await.json();
    assert_eq!(
        cart["total_item_count"],
        units - 1,
        "a refused add changes nothing"
    );
    // Raising the line above stock is refused too; lowering is fine.
    let id = cart["line_items"]["physical_items"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(
        b.put(
            &format!("/api/cart/items/{id}"),
            json!({"quantity": units + 1})
        )
        .await
        .status,
        409
    );
    assert_eq!(
        b.put(&format!("/api/cart/items/{id}"), json!({"quantity": 1}))
            .await
            .status,
        200
    );

    // Sold out: zero available.
    let (p0, v0, _) = api.variant_with_stock(|n| n == 0);
    let r = b.post("/api/cart/items", line(p0, v0, 1)).await;
    assert_eq!(r.status, 409);
    assert_eq!(r.error_fields(), vec!["line_items[0].quantity"]);
    api.finish().await;
}

async fn location_two_is_deducted_outside_the_uk_when_configured(backend: Backend) {
    let api = TestApi::start_with(backend, |c| c.deduct_location_2_outside_uk = true).await;
    let catalog = api.state.catalog();
    let (v, main, second) = catalog
        .inventory
        .values()
        .filter_map(|s| {
            let at = |id| {
                s.locations
                    .iter()
                    .find(|l| l.location_id == id && l.enabled)
                    .map(|l| l.available_to_sell)
            };
            Some((s.variant_id, at(1)?, at(2)?))
        })
        .find(|(_, m, s)| *m > 0 && *s > 0)
        .unwrap();
    let mut b = api.browser();
    let uk = b.get(&format!("/api/stock?variant_ids={v}")).await.json();
    assert_eq!(uk["data"][0]["available_to_sell"], main + second);
    let eu = b
        .get(&format!("/api/stock?variant_ids={v}&market=eu"))
        .await
        .json();
    assert_eq!(eu["data"][0]["available_to_sell"], main);
    api.finish().await;
}

async fn parallel_adds_never_oversell_a_cart(backend: Backend) {
    let api = TestApi::start(backend).await;
    let (p, v, stock) = api.variant_with_stock(|n| (3..=8).contains(&n));
    // Three carts, each sent more single-unit adds than there is stock, all at once.
    let k = stock as usize + 4;
    let mut browsers = Vec::new();
    for _ in 0..3 {
        let mut b = api.browser();
        assert_eq!(b.post("/api/cart", json!({})).await.status, 201);
        browsers.push(b);
    }
    let mut tasks = Vec::new();
    for b in &browsers {
        for _ in 0..k {
            let mut b = b.clone();
            tasks.push(tokio::spawn(async move {
                b.post("/api/cart/items", line(p, v, 1)).await.status
            }));
        }
    }
    let mut statuses = Vec::new();
    for t in tasks {
        statuses.push(t.await.unwrap());
    }
    assert!(
        statuses.iter().all(|s| *s == 201 || *s == 409),
        "{statuses:?}"
    );
    assert_eq!(
        statuses.iter().filter(|s| **s == 201).count(),
        3 * stock as usize
    );
    for b in &mut browsers {
        let cart = b.get("/api/cart").await.json();
        assert_eq!(
            cart["total_item_count"], stock,
            "each cart holds exactly the stock, never more"
        );
    }
    // Different carts each asking for all of the stock at once: every one is within its own check.
    let mut tasks = Vec::new();
    for _ in 0..6 {
        let mut b = api.browser();
        tasks.push(tokio::spawn(async move {
            b.post("/api/cart", json!({})).await;
            let s = b.post("/api/cart/items", line(p, v, stock)).await.status;
            let count = b.get("/api/cart").await.json()["total_item_count"]
                .as_i64()
                .unwrap();
            (s, count)
        }));
    }
    for t in tasks {
        let (s, count) = t.await.unwrap();
        assert_eq!(s, 201);
        assert!(count <= stock);
    }
    api.finish().await;
}

async fn stock_endpoints_report_flags_and_option_rules(backend: Backend) {
    let api = TestApi::start(backend).await;
    let mut b = api.browser();
    let (_, low, units) = api.variant_with_stock(|n| (1..5).contains(&n));
    let (p0, out, _) = api.variant_with_stock(|n| n == 0);
    let r = b
        .get(&format!("/api/stock?variant_ids={low},{out},999999"))
        .await
        .json();
    assert_eq!(r["data"][0]["available_to_sell"], units);
    assert_eq!(r["data"][0]["low_stock"], true);
    assert_eq!(r["data"][1]["sold_out"], true);
    assert_eq!(r["unknown"], json!([999999]));
    assert_eq!(
        b.get("/api/stock?variant_ids=1,x").await.error_fields(),
        vec!["variant_ids"]
    );
    assert_eq!(b.get("/api/stock").await.status, 400);

    let product = b.get(&format!("/api/stock/products/{p0}")).await.json();
    assert!(product["sizes"].as_array().is_some_and(|s| !s.is_empty()));
    assert!(
        product["colours"]
            .as_array()
            .is_some_and(|c| c.iter().all(|c| c["in_stock"].is_boolean()))
    );
    assert_eq!(b.get("/api/stock/products/424242").await.status, 404);

    let loc = b
        .get(&format!("/api/stock/locations?variant_ids={low}"))
        .await
        .json();
    assert_eq!(loc["data"][0]["identity"]["variant_id"], low);
    assert!(
        loc["data"][0]["locations"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["location_id"] == 1)
    );
    let by_product = b
        .get(&format!("/api/stock/locations?product_ids={p0}"))
        .await
        .json();
    assert!(!by_product["data"].as_array().unwrap().is_empty());
    api.finish().await;
}

async fn option_availability_follows_the_section_4_rules(backend: Backend) {
    use domain::catalog::OptionKind;
    let api = TestApi::start(backend).await;
    let catalog = api.state.catalog();
    let units = |v: u64| -> i64 {
        catalog.inventory.get(&v).map_or(0, |s| {
            s.locations
                .iter()
                .filter(|l| l.enabled)
                .map(|l| l.available_to_sell)
                .sum::<i64>()
                .max(0)
        })
    };
    let product = catalog
        .products
        .iter()
        .find(|p| p.option(OptionKind::Length).is_some() && p.option(OptionKind::Colour).is_some())
        .expect("a product with colours, sizes and lengths");
    let colour = product.variants[0].colour.unwrap();
    let length = product.variants[0].length.unwrap();
    let mut b = api.browser();
    let r = b
        .get(&format!(
            "/api/stock/products/{}?colour={colour}&length={length}",
            product.id
        ))
        .await
        .json();
    for size in &product.option(OptionKind::Size).unwrap().values {
        let matching: Vec<i64> = product
            .variants
            .iter()
            .filter(|v| {
                v.size == Some(size.id) && v.colour == Some(colour) && v.length == Some(length)
            })
            .map(|v| units(v.id))
            .collect();
        let expected = (!matching.is_empty()).then(|| matching.iter().sum::<i64>());
        let got = r["sizes"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["value_id"] == size.id)
            .unwrap();
        assert_eq!(got["available"].as_i64(), expected, "size {}", size.label);
    }
    for c in &product.option(OptionKind::Colour).unwrap().values {
        let expected = product
            .variants
            .iter()
            .any(|v| v.colour == Some(c.id) && units(v.id) > 0);
        let got = r["colours"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["value_id"] == c.id)
            .unwrap();
        assert_eq!(got["in_stock"], expected, "colour {}", c.label);
    }
    assert_eq!(
        b.get(&format!("/api/stock/products/{}?size=big", product.id))
            .await
            .error_fields(),
        vec!["size"]
    );
    api.finish().await;
}

/// The cart's public id (in every answer) is not the cookie's secret: knowing the id unlocks
/// nothing, and no answer carries the secret.
async fn the_cart_cookie_holds_a_secret_no_answer_shows(backend: Backend) {
    let api = TestApi::start(backend).await;
    let (p, v, _) = api.variant_with_stock(|n| n >= 5);
    let mut b = api.browser();
    let created = b.post("/api/cart", json!({})).await;
    let key = b.cookies["sf_cart_uk"].clone();
    // The id shows once the cart holds something (an empty new cart answers null).
    let added = b.post("/api/cart/items", line(p, v, 1)).await;
    let id = added.json()["id"].as_str().unwrap().to_string();
    assert_ne!(id, key);
    let mut bodies = vec![created.body.clone(), added.body.clone()];
    bodies.push(b.get("/api/cart").await.body);
    bodies.push(b.post("/api/checkout", json!({})).await.body);
    for body in &bodies {
        assert!(
            !String::from_utf8_lossy(body).contains(&key),
            "an answer shows the cart key"
        );
    }
    // Someone who read the id from an answer and sets it as the cookie gets no cart.
    let mut thief = api.browser();
    thief.cookies.insert("sf_cart_uk".into(), id);
    assert_eq!(thief.get("/api/cart").await.status, 404);
    assert_eq!(
        thief.post("/api/cart/items", line(p, v, 1)).await.status,
        404
    );
    // The owner still has it.
    assert_eq!(b.get("/api/cart").await.json()["total_item_count"], 1);
    api.finish().await;
}

/// The bag's lines show the store's stock, not the snapshot of the last import (issue 17 item 2):
/// stock the warehouse (or another instance's order) took shows in the very next cart answer.
async fn bag_lines_show_the_stores_stock(backend: Backend) {
    let api = TestApi::start(backend).await;
    let mut b = api.browser();
    let (product, variant, units) = api.variant_with_stock(|n| n >= 3);
    b.post("/api/cart", json!({})).await;
    let cart = b
        .post("/api/cart/items", line(product, variant, 3))
        .await
        .json();
    assert_eq!(
        cart["line_items"]["physical_items"][0]["available_to_sell"],
        units
    );
    let set = |available: i64| {
        let pool = api.state.db().pool().clone();
        async move {
            sqlx::query(sqlx::AssertSqlSafe(format!(
                "UPDATE inventory SET available = CASE WHEN location_id = 1 THEN {available} ELSE 0 END WHERE variant_id = {variant}"
            )))
            .execute(&pool)
            .await
            .unwrap();
        }
    };
    set(2).await;
    let line = &b.get("/api/cart").await.json()["line_items"]["physical_items"][0];
    assert_eq!(line["available_to_sell"], 2);
    assert_eq!(line["low_stock"], true);
    assert_eq!(line["sold_out"], false);
    // Lowering to what is left is allowed; asking for more is refused with the spec's words.
    let id = line["id"].as_str().unwrap().to_string();
    let refused = b
        .put(&format!("/api/cart/items/{id}"), json!({"quantity": 4}))
        .await;
    assert_eq!(refused.status, 409);
    assert_eq!(
        refused.error_message(),
        "The selected quantity exceeds available stock"
    );
    assert_eq!(
        b.put(&format!("/api/cart/items/{id}"), json!({"quantity": 2}))
            .await
            .json()["line_items"]["physical_items"][0]["quantity"],
        2
    );
    set(0).await;
    let line = &b.get("/api/cart").await.json()["line_items"]["physical_items"][0];
    assert_eq!(line["available_to_sell"], 0);
    assert_eq!(line["sold_out"], true);
    api.finish().await;
}

on_both!(
    bag_lines_show_the_stores_stock,
    the_cart_cookie_holds_a_secret_no_answer_shows,
    option_availability_follows_the_section_4_rules,
    guest_cart_from_create_to_delete,
    carts_are_per_market,
    add_to_bag_respects_stock,
    location_two_is_deducted_outside_the_uk_when_configured,
    parallel_adds_never_oversell_a_cart,
    stock_endpoints_report_flags_and_option_rules,
);
