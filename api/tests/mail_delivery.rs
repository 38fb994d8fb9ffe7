//! The outbox delivered over SMTP to a real server on loopback (aiosmtpd, see common/smtp.rs), on
//! SQLite and PostgreSQL: the reset email arrives and its link resets the password; a temporary
//! refusal and then success; a refused connection and a silent server retried; tries running out and a permanent
//! refusal becoming dead letters that never hold up the others; the operator's view and retry; the
//! order and newsletter emails with their headers and the one-click unsubscribe; and two senders
//! (two hosts) on one database delivering each of 200 messages exactly once.

mod common;

use api::AppState;
use api::mail::sender::{Pass, Sender};
use api::mail::transport::Transport;
use common::checkout::{CARD_OK, fill_bag, pay_by_card, ready, variants};
use common::smtp::{Received, SmtpServer};
use common::{Backend, Browser, Reply, TestApi};
use serde_json::json;
use std::sync::Arc;

const ADMIN: &str = "mail-operator-token";

async fn start(backend: Backend, smtp: &SmtpServer) -> TestApi {
    let mail = smtp.mail_config();
    TestApi::start_with(backend, move |c| {
        c.mail = mail;
        c.admin_token = Some(ADMIN.into());
    })
    .await
}

fn sender(state: &AppState) -> Sender {
    let transport = Transport::new(&state.config().mail).unwrap().unwrap();
    Sender::new(state.clone(), transport)
}

async fn pass(state: &AppState) -> Pass {
    sender(state).pass().await.unwrap()
}

/// Queues a plain message to `to` through the outbox's own writer.
async fn queue(state: &AppState, to: &str) {
    let head = api::mail::Letterhead::of(state, domain::market::UK);
    let email = api::mail::message::duplicate_registration(&head, to).unwrap();
    let mut tx = state.db().write().await.unwrap();
    api::mail::queue(&mut tx, &email, state.now())
        .await
        .unwrap();
    tx.commit().await.unwrap();
}

/// `(state, attempts, last_error)` of the newest message to `to`.
async fn row(state: &AppState, to: &str) -> (String, i64, Option<String>) {
    sqlx::query_as(
        "SELECT state, attempts, last_error FROM outbox WHERE recipient = $1 \
         ORDER BY created_at DESC LIMIT 1",
    )
    .bind(to)
    .fetch_one(state.db().pool())
    .await
    .unwrap()
}

async fn admin(b: &mut Browser, method: &str, path: &str) -> Reply {
    let bearer = format!("Bearer {ADMIN}");
    let body = (method == "POST").then(Vec::new);
    b.send(method, path, body, &[("Authorization", &bearer)])
        .await
}

/// The one message `to` received.
fn only_message(smtp: &SmtpServer, to: &str) -> Received {
    let got = smtp.received_by(to);
    assert_eq!(got.len(), 1, "messages to {to}: {got:#?}");
    got.into_iter().next().unwrap()
}

/// The first `http…` link in `text` that contains `needle`.
fn link_in(text: &str, needle: &str) -> String {
    text.split_whitespace()
        .find(|w| w.starts_with("http") && w.contains(needle))
        .unwrap_or_else(|| panic!("no link with {needle} in:\n{text}"))
        .to_string()
}

async fn the_reset_email_arrives_and_its_link_resets_the_password(backend: Backend) {
    let smtp = SmtpServer::start().await;
    let api = start(backend, &smtp).await;
    // Registering: the confirmation arrives by SMTP, and its link makes the account.
    let mut b = api.browser();
    let r = b
        .post(
            "/api/auth/register",
            json!({"email": "ada@example.com", "password": "Lark2026pass", "first_name": "Ada",
                   "last_name": "Lovelace", "title": "Ms"}),
        )
        .await;
    assert_eq!(r.status, 202);
    assert_eq!(pass(&api.state).await.sent, 1);
    let confirmation = only_message(&smtp, "ada@example.com");
    let link = link_in(&confirmation.text(), "/confirm-account?token=");
    let token = link.split("token=").nth(1).unwrap();
    let r = b
        .post("/api/auth/register/confirm", json!({ "token": token }))
        .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));

    let mut anon = api.browser();
    let r = anon
        .post(
            "/api/auth/password-reset?market=us",
            json!({"email": "ada@example.com"}),
        )
        .await;
    assert_eq!(r.status, 202);
    assert_eq!(
        pass(&api.state).await,
        Pass {
            claimed: 1,
            sent: 1,
            ..Pass::default()
        }
    );
    let mail = smtp.received_by("ada@example.com").pop().unwrap();
    let shop = api.state.catalog().store.name.clone();
    assert_eq!(mail.mail_from, "shop@example.com");
    assert_eq!(
        mail.header("From").unwrap(),
        format!("{shop} <shop@example.com>")
    );
    assert_eq!(mail.header("To").unwrap(), "ada@example.com");
    assert_eq!(
        mail.header("Subject").unwrap(),
        format!("Reset your {shop} password")
    );
    assert_eq!(mail.content_type, "multipart/alternative");
    let id: String = sqlx::query_scalar("SELECT id FROM outbox WHERE kind = 'password_reset'")
        .fetch_one(api.state.db().pool())
        .await
        .unwrap();
    assert_eq!(
        mail.header("Message-ID").unwrap(),
        format!("<{id}@example.com>")
    );
    assert!(mail.header("Date").is_some());
    assert!(
        mail.header("List-Unsubscribe").is_none(),
        "not a marketing email"
    );
    // The US market's link, in both parts.
    let link = link_in(&mail.text(), "/updatePassword?token=");
    assert!(
        link.starts_with("http://localhost:3000/us/updatePassword?token="),
        "{link}"
    );
    assert!(mail.html().contains(&link.replace('&', "&amp;")));
    let token = link.split("token=").nth(1).unwrap().to_string();

    let r = anon
        .post(
            "/api/auth/password-reset/confirm",
            json!({"token": token, "password": "Fresh2027pass"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    let r = anon
        .post(
            "/api/auth/login",
            json!({"email": "ada@example.com", "password": "Fresh2027pass"}),
        )
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(row(&api.state, "ada@example.com").await.0, "sent");
    // Nothing is sent twice: the next pass finds nothing due.
    assert_eq!(pass(&api.state).await, Pass::default());
    assert_eq!(
        smtp.received().len(),
        2,
        "the confirmation and the reset link"
    );
    api.finish().await;
}

async fn a_temporary_refusal_is_retried_after_a_wait_then_delivered(backend: Backend) {
    let smtp = SmtpServer::start().await;
    let api = start(backend, &smtp).await;
    let busy = "tempfail-1-ada@example.com";
    queue(&api.state, busy).await;
    let first = pass(&api.state).await;
    assert_eq!((first.claimed, first.retried), (1, 1));
    let (state, attempts, error) = row(&api.state, busy).await;
    assert_eq!((state.as_str(), attempts), ("pending", 1));
    assert!(error.unwrap().contains("451"), "the server's reply is kept");
    // Not due yet: the wait is the configured base (60 s).
    assert_eq!(pass(&api.state).await.claimed, 0);
    api.state.advance_clock(61);
    assert_eq!(pass(&api.state).await.sent, 1);
    assert_eq!(row(&api.state, busy).await, ("sent".into(), 2, None));
    only_message(&smtp, busy);
    api.finish().await;
}

async fn a_refused_connection_is_temporary_and_the_last_try_makes_a_dead_letter(backend: Backend) {
    let smtp = SmtpServer::start().await;
    let api = start(backend, &smtp).await;
    // A port nobody listens on: connecting is refused.
    let closed = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let mut config = api.state.config().mail.clone();
    if let api::mail::config::Destination::Smtp(s) = &mut config.destination {
        s.port = closed;
    }
    let down = Sender::new(api.state.clone(), Transport::new(&config).unwrap().unwrap());
    queue(&api.state, "ada@example.com").await;
    assert_eq!(down.pass().await.unwrap().retried, 1);
    let (state, attempts, error) = row(&api.state, "ada@example.com").await;
    assert_eq!((state.as_str(), attempts), ("pending", 1));
    assert!(error.is_some());
    // A server that takes the connection and never answers: a timeout, also temporary.
    let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let silent_port = silent.local_addr().unwrap().port();
    let held = tokio::spawn(async move {
        let mut open = Vec::new();
        while let Ok((socket, _)) = silent.accept().await {
            open.push(socket);
        }
    });
    if let api::mail::config::Destination::Smtp(s) = &mut config.destination {
        s.port = silent_port;
        s.timeout = std::time::Duration::from_millis(250);
    }
    let hung = Sender::new(api.state.clone(), Transport::new(&config).unwrap().unwrap());
    api.state.advance_clock(61);
    assert_eq!(hung.pass().await.unwrap().retried, 1);
    let (state, attempts, error) = row(&api.state, "ada@example.com").await;
    assert_eq!((state.as_str(), attempts), ("pending", 2));
    assert!(error.unwrap().contains("timed out"));
    held.abort();
    // The server is back: the message goes at its next try.
    api.state.advance_clock(121);
    assert_eq!(pass(&api.state).await.sent, 1);

    // A mailbox busy for longer than three tries (waits of 60 s, then 120 s) becomes a dead
    // letter with the reason.
    let busy = "tempfail-9-bob@example.com";
    queue(&api.state, busy).await;
    for wait in [0, 61, 121] {
        api.state.advance_clock(wait);
        assert_eq!(pass(&api.state).await.claimed, 1);
    }
    let (state, attempts, error) = row(&api.state, busy).await;
    assert_eq!((state.as_str(), attempts), ("failed", 3));
    let error = error.unwrap();
    assert!(
        error.starts_with("gave up after 3 tries: ") && error.contains("451"),
        "{error}"
    );
    api.state.advance_clock(3600);
    assert_eq!(
        pass(&api.state).await.claimed,
        0,
        "a dead letter is never tried again by itself"
    );
    assert!(smtp.received_by(busy).is_empty());
    api.finish().await;
}

async fn a_permanent_refusal_fails_at_once_and_the_operator_can_retry_it(backend: Backend) {
    let smtp = SmtpServer::start().await;
    let api = start(backend, &smtp).await;
    for to in [
        "one@example.com",
        "reject-me@example.com",
        "two@example.com",
    ] {
        queue(&api.state, to).await;
    }
    // An address no server could take (is_email lets a comma through) fails when it is queued.
    let mut b = api.browser();
    let r = b
        .post(
            "/api/marketing-consent",
            json!({"email": "ada@example.com,eve@example.com", "category": "marketing_email", "action": "accept"}),
        )
        .await;
    assert_eq!(r.status, 201);
    let done = pass(&api.state).await;
    assert_eq!((done.claimed, done.sent, done.failed), (3, 2, 1));
    only_message(&smtp, "one@example.com");
    only_message(&smtp, "two@example.com");
    let (state, attempts, error) = row(&api.state, "reject-me@example.com").await;
    assert_eq!((state.as_str(), attempts), ("failed", 1));
    assert!(error.as_deref().unwrap().contains("550"), "{error:?}");
    let (state, attempts, error) = row(&api.state, "ada@example.com,eve@example.com").await;
    assert_eq!((state.as_str(), attempts), ("failed", 0));
    assert!(error.unwrap().starts_with("not a deliverable address"));
    assert!(smtp.received_by("eve@example.com").is_empty());

    // The operator's view.
    let mut op = api.browser();
    assert_eq!(op.get("/api/admin/outbox").await.status, 401);
    let r = admin(&mut op, "GET", "/api/admin/outbox?state=failed").await;
    assert_eq!(r.status, 200);
    let list = r.json();
    assert_eq!(
        list["counts"],
        json!({"failed": 2, "pending": 0, "sent": 2})
    );
    let failed: Vec<&str> = list["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["recipient"].as_str().unwrap())
        .collect();
    assert_eq!(failed.len(), 2);
    assert!(failed.contains(&"reject-me@example.com"));
    assert!(
        list["messages"][0].get("body").is_none(),
        "bodies hold secret links"
    );
    let r = admin(&mut op, "GET", "/api/admin/outbox?state=lost").await;
    assert_eq!(r.status, 400);
    assert_eq!(r.error_fields(), vec!["state"]);
    for (query, field) in [
        ("page=0", "page"),
        ("page=abc", "page"),
        ("sort=new", "sort"),
    ] {
        let r = admin(&mut op, "GET", &format!("/api/admin/outbox?{query}")).await;
        assert_eq!(
            (r.status, r.error_fields()),
            (400, vec![field.to_string()]),
            "{query}"
        );
    }

    let id_of = |to: &'static str| {
        let pool = api.state.db().pool().clone();
        async move {
            sqlx::query_scalar::<_, String>("SELECT id FROM outbox WHERE recipient = $1")
                .bind(to)
                .fetch_one(&pool)
                .await
                .unwrap()
        }
    };
    let rejected = id_of("reject-me@example.com").await;
    let sent = id_of("one@example.com").await;
    let retry = |id: &str| format!("/api/admin/outbox/{id}/retry");
    assert_eq!(op.post(&retry(&rejected), json!({})).await.status, 401);
    assert_eq!(admin(&mut op, "POST", &retry(&sent)).await.status, 409);
    assert_eq!(
        admin(&mut op, "POST", &retry(&"0".repeat(32))).await.status,
        404
    );
    assert_eq!(admin(&mut op, "POST", &retry("nope")).await.status, 404);
    let r = admin(&mut op, "POST", &retry(&rejected)).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["state"], "pending");
    // Retried, and refused again: the server still has no such mailbox.
    assert_eq!(pass(&api.state).await.failed, 1);
    assert_eq!(row(&api.state, "reject-me@example.com").await.1, 1);
    // A month on, the janitor deletes the sent messages and keeps the dead letters.
    api.state
        .advance_clock(api::mail::outbox::SENT_KEPT_SECS + 1);
    api.state.purge_expired().await.unwrap();
    let left: Vec<String> = sqlx::query_scalar("SELECT state FROM outbox ORDER BY state")
        .fetch_all(api.state.db().pool())
        .await
        .unwrap();
    assert_eq!(left, ["failed", "failed"]);
    api.finish().await;
}

async fn order_and_newsletter_emails_arrive_in_the_shoppers_market(backend: Backend) {
    let smtp = SmtpServer::start().await;
    let api = start(backend, &smtp).await;
    let mut b = api.browser();
    let (p, v) = variants(&api, 1)[0];
    fill_bag(&mut b, "?market=eu", &[(p, v, 1)]).await;
    let (id, _) = ready(&mut b, "?market=eu", "IE").await;
    let r = pay_by_card(&mut b, &id, "?market=eu", "key-mail-0001", CARD_OK).await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    let order = r.json()["order_id"].as_str().unwrap().to_string();
    let mut op = api.browser();
    let r = admin(&mut op, "POST", &format!("/api/admin/orders/{order}/ship")).await;
    assert_eq!(r.status, 200);
    let r = admin(
        &mut op,
        "POST",
        &format!("/api/admin/orders/{order}/complete"),
    )
    .await;
    assert_eq!(r.status, 200);
    let r = admin(
        &mut op,
        "POST",
        &format!("/api/admin/orders/{order}/refund"),
    )
    .await;
    assert_eq!(r.status, 200);
    let r = b
        .post(
            "/api/marketing-consent?market=eu",
            json!({"email": "news@example.com", "category": "marketing_email", "action": "accept"}),
        )
        .await;
    assert_eq!(r.status, 201);
    assert_eq!(pass(&api.state).await.sent, 4);

    let mails = smtp.received_by("ada@example.com");
    let subjects: Vec<&str> = mails.iter().map(|m| m.header("Subject").unwrap()).collect();
    assert_eq!(
        subjects.len(),
        3,
        "confirmation, shipped, refunded (completion sends none)"
    );
    for mail in &mails {
        let text = mail.text();
        assert!(text.contains('€'), "EUR amounts: {text}");
        let link = link_in(&text, "/order-confirmation/");
        assert!(
            link.starts_with("http://localhost:3000/eu/order-confirmation/"),
            "{link}"
        );
    }
    // Sent concurrently, so they may arrive in any order.
    let number: String = sqlx::query_scalar("SELECT number FROM shop_order WHERE id = $1")
        .bind(&order)
        .fetch_one(api.state.db().pool())
        .await
        .unwrap();
    let shop = api.state.catalog().store.name.clone();
    let mut subjects: Vec<String> = subjects.into_iter().map(str::to_string).collect();
    subjects.sort();
    let mut expected = vec![
        format!("Your {shop} order {number}"),
        format!("Your {shop} order {number} is on its way"),
        format!("Your {shop} order {number} has been refunded"),
    ];
    expected.sort();
    assert_eq!(subjects, expected);

    let news = only_message(&smtp, "news@example.com");
    let unsubscribe = news.header("List-Unsubscribe").unwrap();
    assert!(
        unsubscribe.starts_with("<http://localhost:3000/api/marketing-consent/unsubscribe?token=")
    );
    assert_eq!(
        news.header("List-Unsubscribe-Post"),
        Some("List-Unsubscribe=One-Click")
    );
    let url = unsubscribe.trim_matches(['<', '>']);
    assert!(news.text().contains(url));
    let path = &url["http://localhost:3000".len()..];
    // GET only shows the button (mail scanners open links); the one-click POST unsubscribes.
    let page = b.get(path).await;
    assert_eq!(page.status, 200);
    let withdrawn =
        "SELECT COUNT(*) FROM marketing_consent WHERE action = 'withdraw' AND email = $1";
    assert_eq!(api.scalar(withdrawn, "news@example.com").await, 0);
    let r = b
        .send(
            "POST",
            path,
            Some(b"List-Unsubscribe=One-Click".to_vec()),
            &[("Content-Type", "application/x-www-form-urlencoded")],
        )
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(api.scalar(withdrawn, "news@example.com").await, 1);
    let bad = b
        .get("/api/marketing-consent/unsubscribe?token=not-a-token")
        .await;
    assert_eq!(bad.status, 400);
    api.finish().await;
}

/// Two hosts on one database, each with its own sender, started together over 200 messages:
/// every message arrives exactly once.
async fn two_senders_deliver_each_of_200_messages_exactly_once(backend: Backend) {
    let smtp = SmtpServer::start().await;
    let api = start(backend, &smtp).await;
    let other = api.another_host().await;
    let mut tx = api.state.db().write().await.unwrap();
    let head = api::mail::Letterhead::of(&api.state, domain::market::UK);
    for i in 0..200 {
        let email =
            api::mail::message::duplicate_registration(&head, &format!("m{i:03}@example.com"))
                .unwrap();
        api::mail::queue(&mut tx, &email, api.state.now())
            .await
            .unwrap();
    }
    tx.commit().await.unwrap();
    let barrier = Arc::new(tokio::sync::Barrier::new(2));
    let mut hosts = Vec::new();
    for state in [api.state.clone(), other.clone()] {
        let (barrier, sender) = (barrier.clone(), sender(&state));
        hosts.push(tokio::spawn(async move {
            barrier.wait().await;
            let mut sent = 0;
            loop {
                let pass = sender.pass().await.unwrap();
                sent += pass.sent;
                if pass.claimed == 0 {
                    return sent;
                }
            }
        }));
    }
    let mut sent = Vec::new();
    for h in hosts {
        sent.push(h.await.unwrap());
    }
    assert_eq!(sent.iter().sum::<usize>(), 200, "per host: {sent:?}");
    let mut recipients: Vec<String> = smtp
        .received()
        .into_iter()
        .flat_map(|m| m.rcpt_tos)
        .collect();
    recipients.sort();
    let expected: Vec<String> = (0..200).map(|i| format!("m{i:03}@example.com")).collect();
    assert_eq!(recipients, expected, "each message exactly once");
    assert_eq!(
        api.scalar("SELECT COUNT(*) FROM outbox WHERE state = $1", "sent")
            .await,
        200
    );
    other.db().close().await;
    api.finish().await;
}

/// STARTTLS and implicit TLS, each verified against the CA the relay's certificate comes from:
/// delivered over TLS with the CA trusted, refused (and retried later) without it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn starttls_and_implicit_tls_deliver_only_to_a_verified_server() {
    use api::mail::config::Security;
    let smtp = SmtpServer::start().await;
    let ca = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/tls/ca.pem");
    let api = start(Backend::Sqlite, &smtp).await;
    for (i, security) in [Security::StartTls, Security::Tls].into_iter().enumerate() {
        let to = format!("tls{i}@example.com");
        queue(&api.state, &to).await;
        let unverified = smtp.mail_config_with(security, None);
        let refused = Sender::new(
            api.state.clone(),
            Transport::new(&unverified).unwrap().unwrap(),
        );
        assert_eq!(
            refused.pass().await.unwrap().retried,
            1,
            "{security:?}: an unknown CA is refused"
        );
        assert!(smtp.received_by(&to).is_empty());
        api.state.advance_clock(61);
        let verified = smtp.mail_config_with(security, Some(ca.clone()));
        let good = Sender::new(
            api.state.clone(),
            Transport::new(&verified).unwrap().unwrap(),
        );
        assert_eq!(good.pass().await.unwrap().sent, 1, "{security:?}");
        assert!(only_message(&smtp, &to).tls, "{security:?}: over TLS");
    }
    // And the plain connection of the other tests did not use TLS.
    queue(&api.state, "plain@example.com").await;
    assert_eq!(pass(&api.state).await.sent, 1);
    assert!(!only_message(&smtp, "plain@example.com").tls);
    api.finish().await;
}

on_both!(
    the_reset_email_arrives_and_its_link_resets_the_password,
    a_temporary_refusal_is_retried_after_a_wait_then_delivered,
    a_refused_connection_is_temporary_and_the_last_try_makes_a_dead_letter,
    a_permanent_refusal_fails_at_once_and_the_operator_can_retry_it,
    order_and_newsletter_emails_arrive_in_the_shoppers_market,
    two_senders_deliver_each_of_200_messages_exactly_once,
);
