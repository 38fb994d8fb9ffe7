//! Every bad input the issue lists gives a clear 4xx that names the field and changes nothing;
//! CSRF, content type and body-size guards; errors never leak as 500s.

mod common;

use common::*;
use serde_json::{Value, json};

/// A cart with one line, and a snapshot of it to compare after each bad request.
async fn cart_with_a_line(api: &TestApi) -> (Browser, Value, (u64, u64)) {
    let mut b = api.browser();
    b.post("/api/cart", json!({})).await;
    let (p, v, _) = api.variant_with_stock(|n| n >= 10);
    assert_eq!(b.post("/api/cart/items", line(p, v, 1)).await.status, 201);
    let snapshot = b.get("/api/cart").await.json();
    (b, snapshot, (p, v))
}

async fn bad_quantities_and_variants_are_refused(backend: Backend) {
    let api = TestApi::start(backend).await;
    let (mut b, before, (p, v)) = cart_with_a_line(&api).await;
    let catalog = api.state.catalog();
    let (dp, dv) = catalog
        .products
        .iter()
        .flat_map(|p| p.variants.iter().map(move |v| (p, v)))
        .find(|(_, v)| v.purchasing_disabled)
        .map(|(p, v)| (p.id, v.id))
        .unwrap();
    let other_product = catalog.products.iter().find(|x| x.id != p).unwrap().id;
    let q = |raw: &str| {
        format!(r#"{{"line_items":[{{"product_id":{p},"variant_id":{v},"quantity":{raw}}}]}}"#)
    };
    let cases: Vec<(String, &str, u16)> = vec![
        (q("0"), "line_items[0].quantity", 400),
        (q("-1"), "line_items[0].quantity", 400),
        (q("2147483648"), "line_items[0].quantity", 400),
        (q("1.5"), "line_items[0].quantity", 400),
        (q("\"1\""), "line_items[0].quantity", 400),
        (q("null"), "line_items[0].quantity", 400),
        (
            r#"{"line_items":[{"product_id":101,"variant_id":999999,"quantity":1}]}"#.to_string(),
            "line_items[0].variant_id",
            400,
        ),
        (
            format!(r#"{{"line_items":[{{"product_id":{dp},"variant_id":{dv},"quantity":1}}]}}"#),
            "line_items[0].variant_id",
            400,
        ),
        (
            format!(
                r#"{{"line_items":[{{"product_id":{other_product},"variant_id":{v},"quantity":1}}]}}"#
            ),
            "line_items[0].variant_id",
            400,
        ),
        (
            format!(
                r#"{{"line_items":[{{"product_id":{p},"variant_id":{v},"quantity":1,"sale_price":0.01}}]}}"#
            ),
            "line_items[0].sale_price",
            400,
        ),
        (
            format!(
                r#"{{"line_items":[{{"product_id":{p},"variant_id":{v},"quantity":1}}],"cart_amount":1}}"#
            ),
            "cart_amount",
            400,
        ),
        (
            format!(
                r#"{{"line_items":[{{"product_id":{p},"variant_id":{v},"quantity":1,"quantity":5}}]}}"#
            ),
            "line_items[0].quantity",
            400,
        ),
        (
            format!(
                r#"{{"line_items":[{{"product_id":{p},"variant_id":{v},"quantity":1,"colour":"red"}}]}}"#
            ),
            "line_items[0].colour",
            400,
        ),
        (r#"{"line_items":[]}"#.to_string(), "line_items", 400),
        ("{\"line_items\":".to_string(), "body", 400),
    ];
    for (body, field, status) in cases {
        let r = b
            .send(
                "POST",
                "/api/cart/items",
                Some(body.clone().into_bytes()),
                &[],
            )
            .await;
        assert_eq!(
            r.status,
            status,
            "{body}: {}",
            String::from_utf8_lossy(&r.body)
        );
        assert_eq!(r.error_fields(), vec![field.to_string()], "{body}");
        assert!(!r.error_message().is_empty());
    }
    // Invalid UTF-8.
    let mut raw = q("1").into_bytes();
    raw.insert(2, 0xff);
    let r = b.send("POST", "/api/cart/items", Some(raw), &[]).await;
    assert_eq!(
        (r.status, r.error_fields()),
        (400, vec!["body".to_string()])
    );
    // Bad quantities on update too.
    let item = before["line_items"]["physical_items"][0]["id"]
        .as_str()
        .unwrap()
        .to_string();
    for raw in ["0", "-1", "2147483648", "1.5", "\"1\"", "null"] {
        let r = b
            .send(
                "PUT",
                &format!("/api/cart/items/{item}"),
                Some(format!(r#"{{"quantity":{raw}}}"#).into_bytes()),
                &[],
            )
            .await;
        assert_eq!(
            (r.status, r.error_fields()),
            (400, vec!["quantity".to_string()]),
            "{raw}"
        );
    }
    assert_eq!(
        b.put("/api/cart/items/not-an-id", json!({"quantity": 1}))
            .await
            .error_fields(),
        vec!["item_id"]
    );
    assert_eq!(b.get("/api/cart").await.json(), before, "nothing changed");
    api.finish().await;
}

async fn bad_cookies_are_refused_without_changes(backend: Backend) {
    let api = TestApi::start(backend).await;
    let (b, before, (p, v)) = cart_with_a_line(&api).await;
    // Malformed: a 400 naming the cookie.
    let mut bad = b.clone();
    bad.cookies.insert("sf_cart_uk".into(), "Cart%20ID".into());
    let r = bad.post("/api/cart/items", line(p, v, 1)).await;
    assert_eq!(
        (r.status, r.error_fields()),
        (400, vec!["cookie:sf_cart_uk".to_string()])
    );
    // Well-formed but not ours (never issued): no cart, with the spec's copy.
    let mut foreign = b.clone();
    foreign.cookies.insert("sf_cart_uk".into(), "f".repeat(32));
    let r = foreign.post("/api/cart/items", line(p, v, 1)).await;
    assert_eq!(
        (r.status, r.error_message().as_str()),
        (404, "There is no cart to add the item to.")
    );
    // A garbage session cookie is just "signed out".
    let mut session = b.clone();
    session.cookies.insert("sf_session".into(), "x".into());
    assert_eq!(session.get("/api/customer").await.status, 401);
    let mut b = b;
    assert_eq!(b.get("/api/cart").await.json(), before);
    api.finish().await;
}

async fn transport_guards(backend: Backend) {
    let api = TestApi::start_with(backend, |c| c.body_limit = 4096).await;
    let (mut b, before, (p, v)) = cart_with_a_line(&api).await;
    let body = line(p, v, 1).to_string().into_bytes();

    // Wrong content type.
    let r = b
        .send(
            "POST",
            "/api/cart/items",
            Some(body.clone()),
            &[("Content-Type", "text/plain")],
        )
        .await;
    assert_eq!(
        (r.status, r.error_fields()),
        (415, vec!["content-type".to_string()])
    );
    let r = b
        .send(
            "POST",
            "/api/cart/items",
            Some(body.clone()),
            &[("Content-Type", "application/x-www-form-urlencoded")],
        )
        .await;
    assert_eq!(r.status, 415);

    // Cross-site: by fetch metadata and by Origin.
    let r = b
        .send(
            "POST",
            "/api/cart/items",
            Some(body.clone()),
            &[("Sec-Fetch-Site", "cross-site")],
        )
        .await;
    assert_eq!(
        (r.status, r.error_fields()),
        (403, vec!["origin".to_string()])
    );
    let r = b
        .send(
            "POST",
            "/api/cart/items",
            Some(body.clone()),
            &[("Origin", "https://evil.example")],
        )
        .await;
    assert_eq!(r.status, 403);
    let r = b
        .send(
            "DELETE",
            "/api/cart",
            None,
            &[("Origin", "https://evil.example")],
        )
        .await;
    assert_eq!(r.status, 403);

    // Oversized body.
    let mut big = json!({"line_items": [{"product_id": p, "variant_id": v, "quantity": 1}]});
    big["pad"] = json!("x".repeat(5000));
    let r = b
        .send(
            "POST",
            "/api/cart/items",
            Some(big.to_string().into_bytes()),
            &[],
        )
        .await;
    assert_eq!(
        (r.status, r.error_fields()),
        (413, vec!["body".to_string()])
    );

    assert_eq!(b.get("/api/cart").await.json(), before, "nothing changed");
    // Unknown routes answer the JSON error shape too.
    let r = b.get("/api/nope").await;
    assert_eq!(r.status, 404);
    assert_eq!(r.json()["error"]["code"], "no_route");
    api.finish().await;
}

async fn server_faults_are_opaque_with_a_request_id(backend: Backend) {
    let api = TestApi::start(backend).await;
    let mut b = api.browser();
    api.state.db().pool().close().await;
    let r = b.get("/api/health").await;
    assert_eq!(r.status, 500);
    let e = r.json()["error"].clone();
    assert_eq!(e["code"], "internal");
    assert_eq!(e["message"], "Something went wrong. Please try again.");
    let id = e["request_id"].as_str().unwrap();
    assert_eq!(r.header("x-request-id"), Some(id));
    assert!(
        !String::from_utf8_lossy(&r.body)
            .to_lowercase()
            .contains("pool"),
        "no internals leak"
    );
    api.finish().await;
}

/// Bodies of the wrong JSON type, methods a route does not take, the headers every answer
/// carries, and the CSRF origin check's scheme.
async fn wrong_types_methods_and_headers(backend: Backend) {
    let api = TestApi::start(backend).await;
    let mut b = api.browser();
    // `[]` where an object is required: 400 naming the body, and nothing made.
    for path in ["/api/cart", "/api/auth/logout", "/api/cart/items"] {
        for body in ["[]", "[1]", "\"x\"", "null"] {
            let r = b
                .send("POST", path, Some(body.as_bytes().to_vec()), &[])
                .await;
            assert_eq!(
                (r.status, r.error_fields()),
                (400, vec!["body".to_string()]),
                "{path} {body}"
            );
            assert!(
                r.set_cookies().is_empty(),
                "{path} {body}: {:?}",
                r.set_cookies()
            );
        }
    }
    assert_eq!(b.get("/api/cart").await.status, 404, "no cart was created");

    // A method the route does not take: 405 with Allow and the error shape, with or without a
    // body, before any content-type or origin rule.
    for (method, path, body) in [
        ("PUT", "/api/health", None),
        ("PUT", "/api/health", Some(b"{}".to_vec())),
        ("DELETE", "/api/health", None),
        ("PATCH", "/api/cart", Some(b"{}".to_vec())),
        ("POST", "/api/health", Some(b"not json".to_vec())),
    ] {
        let r = b
            .send(method, path, body, &[("Content-Type", "text/plain")])
            .await;
        assert_eq!(r.status, 405, "{method} {path}");
        assert_eq!(
            r.json()["error"]["code"],
            "method_not_allowed",
            "{method} {path}"
        );
        let allow = r.header("allow").unwrap_or_default().to_string();
        assert!(allow.contains("GET"), "{method} {path}: Allow {allow}");
    }

    // An over-long URL: 414 in the error shape.
    let r = b
        .get(&format!("/api/search?q={}", "a".repeat(17_000)))
        .await;
    assert_eq!((r.status, r.error_fields()), (414, vec!["url".to_string()]));

    // Every answer: nosniff and, as nothing here may be cached by the CDN, no-store.
    for path in ["/api/health", "/api/cart", "/api/nope", "/api/customer"] {
        let r = b.get(path).await;
        assert_eq!(
            r.header("x-content-type-options"),
            Some("nosniff"),
            "{path}"
        );
        assert_eq!(r.header("cache-control"), Some("no-store"), "{path}");
    }

    // The origin must match in scheme as well as host.
    let host = b.host.clone();
    let https = format!("https://{host}");
    let http = format!("http://{host}");
    let r = b
        .send(
            "POST",
            "/api/cart",
            Some(b"{}".to_vec()),
            &[("Origin", &https)],
        )
        .await;
    assert_eq!(
        (r.status, r.error_fields()),
        (403, vec!["origin".to_string()])
    );
    // (Behind a proxy that says https, an https origin passes: security.rs's unit tests.)
    let r = b
        .send(
            "POST",
            "/api/cart",
            Some(b"{}".to_vec()),
            &[("Origin", &http)],
        )
        .await;
    assert!(
        r.status == 200 || r.status == 201,
        "{}",
        String::from_utf8_lossy(&r.body)
    );
    api.finish().await;
}

/// Names and address lines: control characters refused with 400 naming the field (nothing
/// saved), and what is kept is Unicode NFC and trimmed.
async fn text_fields_refuse_control_characters_and_are_normalised(backend: Backend) {
    let api = TestApi::start(backend).await;
    let mut b = api.browser();
    let r = b
        .post(
            "/api/auth/register",
            json!({"email": "rene@example.com", "password": "Lark2026pass", "first_name": "Ada\nEve",
                   "last_name": "Love\u{1b}[31mlace", "title": "Ms"}),
        )
        .await;
    assert_eq!(r.status, 400);
    assert_eq!(r.error_fields(), ["first_name", "last_name"]);
    assert!(r.set_cookies().is_empty());
    // "Renée" typed with a combining accent is stored as the composed letter, trimmed.
    register_with(
        &mut b,
        json!({"email": "rene@example.com", "password": "Lark2026pass", "first_name": "  Rene\u{301}e ",
               "last_name": "Lovelace", "title": "Ms"}),
    )
    .await;
    let me = b.get("/api/customer").await.json();
    assert_eq!(me["first_name"], "Ren\u{e9}e", "{me}");

    let mut address = common::checkout::address("GB");
    address["city"] = json!("Lon\tdon");
    address["street_name"] = json!("Row\u{0}");
    let r = b.post("/api/customer/addresses", address.clone()).await;
    assert_eq!(r.status, 400);
    assert_eq!(r.error_fields(), ["city", "street_name"]);
    assert_eq!(
        b.get("/api/customer/addresses").await.json()["data"]
            .as_array()
            .unwrap()
            .len(),
        0
    );
    address["city"] = json!(" Lyon\u{301} ");
    address["street_name"] = json!("Analytical Row");
    let r = b.post("/api/customer/addresses", address).await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(r.json()["city"], "Lyo\u{144}", "{}", r.json());
    api.finish().await;
}

on_both!(
    text_fields_refuse_control_characters_and_are_normalised,
    wrong_types_methods_and_headers,
    bad_quantities_and_variants_are_refused,
    bad_cookies_are_refused_without_changes,
    transport_guards,
    server_faults_are_opaque_with_a_request_id,
);
