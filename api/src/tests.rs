//! The assembled OpenAPI document: each operation lists the shared answers it can get, and the
//! bounds it states are the ones the server enforces.

#[test]
fn every_operation_gets_the_shared_answers_it_can_get() {
    let doc = crate::openapi();
    let json = serde_json::to_value(&doc).unwrap();
    let responses = |path: &str, method: &str| -> Vec<String> {
        let mut keys: Vec<String> = json["paths"][path][method]["responses"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        keys.sort();
        keys
    };
    // No input, read only: only the URL limit and a fault.
    assert_eq!(responses("/health", "get"), ["200", "414", "500"]);
    // A body: its limits, the origin check, and its own answers kept.
    let add = responses("/cart/items", "post");
    for s in ["400", "403", "404", "409", "413", "414", "415", "500"] {
        assert!(add.contains(&s.to_string()), "{s} in {add:?}");
    }
    // Bounds the server enforces are the ones the document states.
    let param = |path: &str, name: &str| -> serde_json::Value {
        json["paths"][path]["get"]["parameters"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == name)
            .unwrap_or_else(|| panic!("{path} {name}"))
            .clone()
    };
    for path in ["/wishlists", "/wishlists/{id}"] {
        let page = param(path, "page");
        assert_eq!(page["schema"]["minimum"], 1, "{path}");
        assert_eq!(
            page["schema"]["maximum"],
            crate::wishlist::MAX_PAGE,
            "{path}"
        );
    }
    assert_eq!(param("/listing", "page")["schema"]["minimum"], 1);
    let statuses = param("/admin/orders", "status");
    assert_eq!(statuses["in"], "query");
    assert_eq!(
        statuses["schema"]["pattern"],
        format!("^({})$", crate::checkout::admin::STATUSES.join("|"))
    );
    let states = param("/admin/outbox", "state");
    assert_eq!(states["in"], "query");
    assert_eq!(
        states["schema"]["pattern"],
        format!("^({})$", crate::mail::outbox::STATES.join("|"))
    );
    // Every request body has an example.
    for (path, item) in json["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let Some(body) = op.get("requestBody") else {
                continue;
            };
            let name = body["content"]["application/json"]["schema"]["$ref"]
                .as_str()
                .and_then(|r| r.rsplit('/').next())
                .unwrap_or_else(|| panic!("{method} {path}: body is not a named schema"));
            assert!(
                json["components"]["schemas"][name].get("example").is_some(),
                "{method} {path}: {name} has no example"
            );
        }
    }
    // Answers have their own schemas: an address carries its id, a form field's value is
    // text or a yes/no.
    let schemas = &json["components"]["schemas"];
    assert!(schemas["Address"]["properties"].get("id").is_some());
    assert_eq!(schemas["Address"].get("additionalProperties"), None);
    assert_eq!(
        schemas["FormValue"]["oneOf"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v["type"].as_str().unwrap())
            .collect::<Vec<_>>(),
        ["string", "boolean"]
    );
    // The market is one of the three.
    assert_eq!(
        json["components"]["schemas"]["MarketCode"]["enum"],
        serde_json::json!(["uk", "us", "eu"])
    );
}
