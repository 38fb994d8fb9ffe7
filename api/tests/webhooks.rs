//! The webhook endpoints over real HTTP: signatures (good, missing, wrong, truncated, hex, over
//! re-serialised JSON, empty secret), the secret header, 413 before hashing, replays, and the
//! authenticated status endpoint. A recording sink stands in for the rebuild daemon's queue.

mod common;

use api::webhooks::events::Change;
use api::webhooks::{ChangeSink, Origin, signature};
use common::{Backend, TestApi};
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};

const SECRET: &str = "content-s3cret";
const CATALOG_SECRET: &str = "catalog-s3cret";
const ADMIN: &str = "admin-token";

#[derive(Default)]
struct Recorder(Mutex<Vec<(Origin, Vec<Change>)>>);

impl ChangeSink for Recorder {
    fn submit(&self, origin: Origin, _delivery: &str, changes: Vec<Change>) {
        self.0.lock().unwrap().push((origin, changes));
    }
    fn status(&self) -> Value {
        json!([{"ok": true, "changes": self.0.lock().unwrap().len()}])
    }
}

async fn start(content_secret: Option<&str>) -> (TestApi, Arc<Recorder>) {
    let content_secret = content_secret.map(str::to_string);
    let api = TestApi::start_with(Backend::Sqlite, |c| {
        c.content_webhook_secret = content_secret;
        c.catalog_webhook_secret = Some(CATALOG_SECRET.into());
        c.admin_token = Some(ADMIN.into());
        c.webhook_body_limit = 4096;
    })
    .await;
    let recorder = Arc::new(Recorder::default());
    assert!(api.state.webhooks().attach(recorder.clone()));
    (api, recorder)
}

fn content_body(id: &str) -> Vec<u8> {
    // Deliberately not in serde_json's canonical spacing: the signature covers these exact bytes.
    format!(
        r#"{{ "name": "dynamic-content.content-item.updated",  "payload": {{ "id": "{id}" }} }}"#
    )
    .into_bytes()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn content_webhook_signatures() {
    let (api, recorder) = start(Some(SECRET)).await;
    let mut b = api.browser();
    let body = content_body("item-1");
    let good = signature::sign(SECRET.as_bytes(), &body);
    let hex: String = {
        use base64::Engine;
        base64::engine::general_purpose::STANDARD
            .decode(&good)
            .unwrap()
            .iter()
            .map(|x| format!("{x:02x}"))
            .collect()
    };
    let reserialised =
        serde_json::to_vec(&serde_json::from_slice::<Value>(&body).unwrap()).unwrap();
    let over_reserialised = signature::sign(SECRET.as_bytes(), &reserialised);
    let wrong_secret = signature::sign(b"another", &body);
    let bad: Vec<(&str, Vec<(&str, &str)>)> = vec![
        ("missing", vec![]),
        ("empty", vec![("X-Amplience-Webhook-Signature", "")]),
        (
            "wrong secret",
            vec![("X-Amplience-Webhook-Signature", &wrong_secret)],
        ),
        (
            "truncated",
            vec![("X-Amplience-Webhook-Signature", &good[..good.len() - 8])],
        ),
        ("hex", vec![("X-Amplience-Webhook-Signature", &hex)]),
        (
            "re-serialised JSON",
            vec![("X-Amplience-Webhook-Signature", &over_reserialised)],
        ),
        ("garbage", vec![("X-Amplience-Webhook-Signature", "%%%")]),
    ];
    for (case, headers) in bad {
        let r = b
            .send(
                "POST",
                "/api/webhooks/content",
                Some(body.clone()),
                &headers,
            )
            .await;
        assert_eq!(
            r.status,
            401,
            "{case}: {}",
            String::from_utf8_lossy(&r.body)
        );
        assert_eq!(r.json()["error"]["code"], "bad_signature", "{case}");
    }
    assert!(
        recorder.0.lock().unwrap().is_empty(),
        "nothing reached the daemon"
    );

    let r = b
        .send(
            "POST",
            "/api/webhooks/content",
            Some(body.clone()),
            &[("X-Amplience-Webhook-Signature", &good)],
        )
        .await;
    assert_eq!(r.status, 202, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(r.json()["status"], "queued");
    assert_eq!(
        recorder.0.lock().unwrap().clone(),
        vec![(Origin::Content, vec![Change::Content("item-1".into())])]
    );

    // The same delivery again: acknowledged, ignored.
    let r = b
        .send(
            "POST",
            "/api/webhooks/content",
            Some(body.clone()),
            &[("X-Amplience-Webhook-Signature", &good)],
        )
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["status"], "duplicate");
    assert_eq!(recorder.0.lock().unwrap().len(), 1);

    // Signed but not JSON, or JSON naming no item: a clear 4xx, nothing queued.
    let junk = b"{not json".to_vec();
    let r = b
        .send(
            "POST",
            "/api/webhooks/content",
            Some(junk.clone()),
            &[(
                "X-Amplience-Webhook-Signature",
                &signature::sign(SECRET.as_bytes(), &junk),
            )],
        )
        .await;
    assert_eq!(r.status, 400);
    let empty_payload = br#"{"name":"dynamic-content.content-item.updated","payload":{}}"#.to_vec();
    let r = b
        .send(
            "POST",
            "/api/webhooks/content",
            Some(empty_payload.clone()),
            &[(
                "X-Amplience-Webhook-Signature",
                &signature::sign(SECRET.as_bytes(), &empty_payload),
            )],
        )
        .await;
    assert_eq!(r.status, 422);
    assert_eq!(r.error_fields(), vec!["payload.id".to_string()]);
    assert_eq!(recorder.0.lock().unwrap().len(), 1);
    api.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_empty_or_missing_secret_authenticates_nothing() {
    for secret in [Some(""), None] {
        let (api, recorder) = start(secret).await;
        let mut b = api.browser();
        let body = content_body("x");
        let signed_with_empty = signature::sign(b"", &body);
        let r = b
            .send(
                "POST",
                "/api/webhooks/content",
                Some(body),
                &[("X-Amplience-Webhook-Signature", &signed_with_empty)],
            )
            .await;
        assert_eq!(r.status, 401, "secret {secret:?}");
        assert!(recorder.0.lock().unwrap().is_empty());
        api.finish().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oversized_bodies_are_refused_before_hashing() {
    let (api, recorder) = start(Some(SECRET)).await;
    let mut b = api.browser();
    let mut body = content_body("big");
    body.resize(64 * 1024, b' ');
    let sig = signature::sign(SECRET.as_bytes(), &body);
    let r = b
        .send(
            "POST",
            "/api/webhooks/content",
            Some(body.clone()),
            &[("X-Amplience-Webhook-Signature", &sig)],
        )
        .await;
    assert_eq!(r.status, 413);
    let r = b
        .send(
            "POST",
            "/api/webhooks/catalog",
            Some(body),
            &[("X-Webhook-Secret", CATALOG_SECRET)],
        )
        .await;
    assert_eq!(r.status, 413);
    assert!(recorder.0.lock().unwrap().is_empty());
    api.finish().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn catalog_webhook_and_status() {
    let (api, recorder) = start(Some(SECRET)).await;
    let mut b = api.browser();
    let event = |id: u64, at: u64| {
        serde_json::to_vec(&json!({"scope": "store/product/updated", "store_id": "1", "data": {"type": "product", "id": id}, "created_at": at})).unwrap()
    };
    for (case, headers) in [
        ("missing", vec![]),
        ("wrong", vec![("X-Webhook-Secret", "catalog-s3cre")]),
        ("longer", vec![("X-Webhook-Secret", "catalog-s3cret!")]),
    ] {
        let r = b
            .send(
                "POST",
                "/api/webhooks/catalog",
                Some(event(112, 1)),
                &headers,
            )
            .await;
        assert_eq!(r.status, 401, "{case}");
    }
    let ok = [("X-Webhook-Secret", CATALOG_SECRET)];
    let r = b
        .send("POST", "/api/webhooks/catalog", Some(event(112, 1)), &ok)
        .await;
    assert_eq!(r.status, 202, "{}", String::from_utf8_lossy(&r.body));
    // An explicit delivery id wins over the body: a re-sent id is a replay even if re-encoded.
    let with_id = [
        ("X-Webhook-Secret", CATALOG_SECRET),
        ("X-Webhook-Delivery-Id", "d-7"),
    ];
    assert_eq!(
        b.send(
            "POST",
            "/api/webhooks/catalog",
            Some(event(113, 2)),
            &with_id
        )
        .await
        .status,
        202
    );
    assert_eq!(
        b.send(
            "POST",
            "/api/webhooks/catalog",
            Some(event(113, 3)),
            &with_id
        )
        .await
        .status,
        200
    );
    let r = b
        .send(
            "POST",
            "/api/webhooks/catalog",
            Some(br#"{"scope":"store/product/updated","data":{"id":"abc"}}"#.to_vec()),
            &ok,
        )
        .await;
    assert_eq!(r.status, 422);
    assert_eq!(
        recorder.0.lock().unwrap().clone(),
        vec![
            (Origin::Catalog, vec![Change::Product(112)]),
            (Origin::Catalog, vec![Change::Product(113)])
        ]
    );

    assert_eq!(b.get("/api/webhooks/status").await.status, 401);
    let r = b
        .send(
            "GET",
            "/api/webhooks/status",
            None,
            &[("Authorization", "Bearer nope")],
        )
        .await;
    assert_eq!(r.status, 401);
    let r = b
        .send(
            "GET",
            "/api/webhooks/status",
            None,
            &[("Authorization", "Bearer admin-token")],
        )
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["rebuilds"][0]["changes"], 2);
    api.finish().await;
}

/// `storefront api` on its own has no rebuild daemon: an authenticated delivery is refused with a
/// 503 that says where webhooks go (never an opaque 500), and is not remembered as delivered, so
/// the sender's retry is acted on once a daemon is attached.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_rebuild_daemon_webhooks_answer_503_and_are_not_taken_for_replays() {
    let api = TestApi::start_with(Backend::Sqlite, |c| {
        c.content_webhook_secret = Some(SECRET.into());
        c.catalog_webhook_secret = Some(CATALOG_SECRET.into());
    })
    .await;
    let mut b = api.browser();
    let body = content_body("item-503");
    let good = signature::sign(SECRET.as_bytes(), &body);
    let content = [("X-Amplience-Webhook-Signature", good.as_str())];
    let r = b
        .send(
            "POST",
            "/api/webhooks/content",
            Some(body.clone()),
            &content,
        )
        .await;
    assert_eq!(r.status, 503, "{}", String::from_utf8_lossy(&r.body));
    let error = &r.json()["error"];
    assert_eq!(error["code"], "no_rebuild_daemon");
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("storefront serve"),
        "{error}"
    );
    let catalog_body = serde_json::to_vec(&json!({
        "scope": "store/product/updated", "store_id": "1",
        "data": {"type": "product", "id": 101}, "created_at": 1
    }))
    .unwrap();
    let r = b
        .send(
            "POST",
            "/api/webhooks/catalog",
            Some(catalog_body),
            &[("X-Webhook-Secret", CATALOG_SECRET)],
        )
        .await;
    assert_eq!(r.status, 503);
    assert_eq!(r.json()["error"]["code"], "no_rebuild_daemon");
    // Authentication still comes first: a stranger learns nothing about the deployment.
    let r = b
        .send("POST", "/api/webhooks/content", Some(body.clone()), &[])
        .await;
    assert_eq!(r.status, 401);

    // The same delivery, retried once a daemon is there, is queued rather than ignored.
    let recorder = Arc::new(Recorder::default());
    assert!(api.state.webhooks().attach(recorder.clone()));
    let r = b
        .send("POST", "/api/webhooks/content", Some(body), &content)
        .await;
    assert_eq!(r.status, 202, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(r.json()["status"], "queued");
    assert_eq!(recorder.0.lock().unwrap().len(), 1);
}
