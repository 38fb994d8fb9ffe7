//! `GET /api/variants`: the wishlist's view of variants (name, link, price, options, stock), over
//! real HTTP on SQLite and PostgreSQL, priced per market like a bag line.

mod common;

use common::*;
use serde_json::json;

async fn variants_are_priced_per_market_with_stock(backend: Backend) {
    let api = TestApi::start(backend).await;
    let mut b = api.browser();
    let (product, low, units) = api.variant_with_stock(|n| (1..5).contains(&n));
    let (_, out, _) = api.variant_with_stock(|n| n == 0);

    let uk = b
        .get(&format!("/api/variants?variant_ids={low},{out},999999"))
        .await;
    assert_eq!(uk.status, 200);
    let uk = uk.json();
    assert_eq!(uk["currency"], "GBP");
    assert_eq!(uk["unknown"], json!([999999]));
    let first = &uk["data"][0];
    assert_eq!(first["variant_id"], low);
    assert_eq!(first["product_id"], product);
    assert_eq!(first["available_to_sell"], units);
    assert_eq!(first["low_stock"], true);
    assert_eq!(first["purchasable"], true);
    assert!(
        first["url"]
            .as_str()
            .unwrap()
            .starts_with(&format!("/p/{product}/"))
    );
    assert!(first["options"].as_array().is_some_and(|o| !o.is_empty()));
    assert!(first["sale_price"].as_f64().unwrap() <= first["list_price"].as_f64().unwrap());
    assert_eq!(uk["data"][1]["sold_out"], true);
    assert_eq!(uk["data"][1]["purchasable"], false);

    // The same variant as a bag line in the same market costs the same.
    b.post("/api/cart", json!({})).await;
    let cart = b
        .post(
            "/api/cart/items",
            json!({"line_items": [{"product_id": product, "variant_id": low, "quantity": 1}]}),
        )
        .await
        .json();
    assert_eq!(
        cart["line_items"]["physical_items"][0]["sale_price"],
        first["sale_price"]
    );

    let us = b
        .get(&format!("/api/variants?variant_ids={low}&market=us"))
        .await
        .json();
    assert_eq!(us["currency"], "USD");
    assert!(us["data"][0]["url"].as_str().unwrap().starts_with("/us/p/"));

    // Bad input names the field.
    assert_eq!(
        b.get("/api/variants").await.error_fields(),
        vec!["variant_ids"]
    );
    assert_eq!(
        b.get("/api/variants?variant_ids=1,x").await.error_fields(),
        vec!["variant_ids"]
    );
    assert_eq!(
        b.get("/api/variants?variant_ids=1&market=fr").await.status,
        400
    );
    api.finish().await;
}

/// Wishlist items and bag lines show their colourway's picture (the product card's), not a grey
/// box: the export's variants carry no image of their own.
async fn items_show_their_colourways_image(backend: Backend) {
    let api = TestApi::start(backend).await;
    let mut b = api.browser();
    // Satin Slip Midi Dress: 10 Regular in Emerald Green and 6 Regular in Gold, each its own.
    let (emerald, gold) = (10008u64, 10044u64);
    let answer = b
        .get(&format!(
            "/api/variants?variant_ids={emerald},{gold}&market=eu"
        ))
        .await
        .json();
    assert_eq!(
        answer["data"][0]["image_url"],
        "/media/products/274674_Emerald_Green_1.webp"
    );
    assert_eq!(
        answer["data"][1]["image_url"],
        "/media/products/274674_Gold_1.webp"
    );

    b.post("/api/cart", json!({})).await;
    let cart = b
        .post("/api/cart/items", line(101, emerald, 1))
        .await
        .json();
    assert_eq!(
        cart["line_items"]["physical_items"][0]["image_url"],
        "/media/products/274674_Emerald_Green_1.webp"
    );
    api.finish().await;
}

on_both!(
    variants_are_priced_per_market_with_stock,
    items_show_their_colourways_image
);
