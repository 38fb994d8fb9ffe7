//! Turning an outbox row into an RFC 5322 message and handing it over: to an SMTP server (lettre,
//! STARTTLS or implicit TLS with rustls) or, in development, into a local maildir. Every header is
//! one of lettre's typed headers: addresses are parsed into `Address`es and names and subjects are
//! encoded by lettre (RFC 2047), so text from a shopper or a template can never start a header of
//! its own. The answer is classified as sent, temporary (try again) or permanent (give up).

use super::outbox::Claimed;
use crate::config::mail::{Destination, MailConfig, Security};
use anyhow::Context;
use lettre::address::Address;
use lettre::message::header::{ContentType, Header, HeaderName, HeaderValue};
use lettre::message::{Mailbox, MultiPart, SinglePart};
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use std::path::PathBuf;
use std::str::FromStr;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// What came of one delivery.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The server accepted the message (250), or it is in the local mailbox.
    Sent,
    /// Worth another try later: a 4xx reply, a refused or broken connection, a timeout.
    Temporary(String),
    /// Never worth another try: a 5xx reply (unknown mailbox, refused content), or a message
    /// that cannot be built.
    Permanent(String),
}

/// Text for a header (a subject, a display name): refused when it holds a control character. A
/// line break would be data inside lettre's encoding anyway, but lettre panics on some of them,
/// and a subject or name with one is a bug to report, not to send.
fn header_text<'a>(what: &str, text: &'a str) -> Result<&'a str, String> {
    if text.chars().any(char::is_control) {
        return Err(format!(
            "{what} contains a control character (such as a line break)"
        ));
    }
    Ok(text)
}

/// `From:`: `MAIL_FROM`, named after the shop unless it carries a name of its own.
fn from_mailbox(from: &str, shop_name: &str) -> Result<Mailbox, String> {
    let mailbox = Mailbox::from_str(from).map_err(|e| format!("MAIL_FROM: {e}"))?;
    Ok(match mailbox.name {
        Some(_) => mailbox,
        None => {
            let name = header_text("the shop's name (the From name)", shop_name)?;
            Mailbox::new(Some(name.to_string()), mailbox.email)
        }
    })
}

/// `List-Unsubscribe: <https://…>` (RFC 2369).
#[derive(Clone)]
struct ListUnsubscribe(String);

impl Header for ListUnsubscribe {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe")
    }

    fn parse(s: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(ListUnsubscribe(
            s.trim()
                .trim_start_matches('<')
                .trim_end_matches('>')
                .into(),
        ))
    }

    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), format!("<{}>", self.0))
    }
}

/// `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058): the link unsubscribes with
/// one POST, which mail clients send from their own unsubscribe button.
#[derive(Clone)]
struct ListUnsubscribePost;

impl Header for ListUnsubscribePost {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe-Post")
    }

    fn parse(_: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(ListUnsubscribePost)
    }

    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), "List-Unsubscribe=One-Click".into())
    }
}

/// An unsubscribe URL is written inside `<…>` unencoded, so it must be a plain http(s) URL with
/// no space, control character or angle bracket.
fn is_header_safe_url(url: &str) -> bool {
    (url.starts_with("https://") || url.starts_with("http://"))
        && !url
            .chars()
            .any(|c| c.is_control() || c.is_whitespace() || c == '<' || c == '>')
}

/// The message as it goes on the wire. Its `Message-ID` is derived from the outbox id and `Date`
/// is when it was queued, so every try of one message carries the same two headers (a receiver
/// that saw a try already can recognise a repeat).
pub fn build(msg: &Claimed, from: &str, shop_name: &str) -> Result<Message, String> {
    let from = from_mailbox(from, shop_name)?;
    let to = Address::from_str(&msg.recipient).map_err(|e| format!("recipient: {e}"))?;
    let message_id = format!("<{}@{}>", msg.id, from.email.domain());
    let date = UNIX_EPOCH + Duration::from_secs(msg.created_at.max(0) as u64);
    let mut builder = Message::builder()
        .from(from)
        .to(Mailbox::new(None, to))
        .subject(header_text("the subject", &msg.subject)?)
        .message_id(Some(message_id))
        .date(date);
    if let Some(url) = &msg.list_unsubscribe {
        if !is_header_safe_url(url) {
            return Err("List-Unsubscribe: not a plain http(s) URL".into());
        }
        builder = builder
            .header(ListUnsubscribe(url.clone()))
            .header(ListUnsubscribePost);
    }
    let text = SinglePart::builder()
        .header(ContentType::TEXT_PLAIN)
        .body(msg.body.clone());
    let built = match &msg.html {
        Some(html) => builder.multipart(
            MultiPart::alternative().singlepart(text).singlepart(
                SinglePart::builder()
                    .header(ContentType::TEXT_HTML)
                    .body(html.clone()),
            ),
        ),
        None => builder.singlepart(text),
    };
    built.map_err(|e| format!("building the message: {e}"))
}

/// Where the sender hands messages over.
#[derive(Clone)]
pub enum Transport {
    /// The SMTP client and the longest one whole delivery may take.
    Smtp(AsyncSmtpTransport<Tokio1Executor>, Duration),
    Mailbox(PathBuf),
}

/// A whole delivery may take this many times `SMTP_TIMEOUT_SECS`. lettre's async client applies
/// its timeout to connecting only, so a server that accepts and then never answers is cut off by
/// this limit instead (and the try counts as a temporary failure).
const DELIVERY_TIMEOUTS: u32 = 4;

impl Transport {
    /// The transport of `config::mail`; None when mail goes nowhere.
    pub fn new(config: &MailConfig) -> anyhow::Result<Option<Transport>> {
        Ok(match &config.destination {
            Destination::Nowhere => None,
            Destination::Mailbox(dir) => {
                for sub in ["tmp", "new", "cur"] {
                    std::fs::create_dir_all(dir.join(sub))?;
                }
                Some(Transport::Mailbox(dir.clone()))
            }
            Destination::Smtp(smtp) => {
                let tls = || -> anyhow::Result<TlsParameters> {
                    let mut params = TlsParameters::builder(smtp.host.clone());
                    if let Some(path) = &smtp.ca_file {
                        let pem = std::fs::read(path)
                            .with_context(|| format!("reading SMTP_CA_FILE {}", path.display()))?;
                        let ca = Certificate::from_pem(&pem).with_context(|| {
                            format!("SMTP_CA_FILE {} holds no PEM certificate", path.display())
                        })?;
                        params = params.add_root_certificate(ca);
                    }
                    Ok(params.build()?)
                };
                let security = match smtp.security {
                    Security::StartTls => Tls::Required(tls()?),
                    Security::Tls => Tls::Wrapper(tls()?),
                    Security::None => Tls::None,
                };
                let mut builder =
                    AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(smtp.host.as_str())
                        .port(smtp.port)
                        .tls(security)
                        .timeout(Some(smtp.timeout));
                if let Some((user, password)) = &smtp.credentials {
                    builder = builder.credentials(Credentials::new(user.clone(), password.clone()));
                }
                Some(Transport::Smtp(
                    builder.build(),
                    smtp.timeout * DELIVERY_TIMEOUTS,
                ))
            }
        })
    }

    /// The longest one delivery may take (the sender's lease outlives it).
    pub fn delivery_limit(&self) -> Duration {
        match self {
            Transport::Smtp(_, limit) => *limit,
            Transport::Mailbox(_) => Duration::from_secs(30),
        }
    }

    /// Delivers one message and says what came of it.
    pub async fn deliver(&self, msg: &Claimed, from: &str, shop_name: &str) -> Outcome {
        let message = match build(msg, from, shop_name) {
            Ok(m) => m,
            Err(e) => return Outcome::Permanent(e),
        };
        match self {
            Transport::Smtp(smtp, limit) => {
                match tokio::time::timeout(*limit, smtp.send(message)).await {
                    Ok(Ok(_)) => Outcome::Sent,
                    Ok(Err(e)) => classify(&e),
                    Err(_) => Outcome::Temporary(format!(
                        "timed out: no answer within {} s",
                        limit.as_secs_f64()
                    )),
                }
            }
            Transport::Mailbox(dir) => match write_maildir(dir, &msg.id, &message.formatted()) {
                Ok(()) => Outcome::Sent,
                Err(e) => Outcome::Temporary(format!("writing to the mailbox: {e}")),
            },
        }
    }
}

/// A 5xx is permanent; everything else (4xx, connection refused or dropped, timeouts, TLS
/// trouble, an unreadable reply) may pass, so it is tried again.
fn classify(e: &lettre::transport::smtp::Error) -> Outcome {
    let reason = match e.status() {
        Some(code) => format!("{code}: {e}"),
        None => e.to_string(),
    };
    if e.is_permanent() {
        Outcome::Permanent(reason)
    } else {
        Outcome::Temporary(reason)
    }
}

/// Writes the message into the maildir the way maildir readers expect: in `tmp/`, then renamed
/// into `new/`, so a reader never sees half a message.
fn write_maildir(dir: &std::path::Path, id: &str, bytes: &[u8]) -> std::io::Result<()> {
    let name = format!("{}.{id}.eml", now_secs());
    let tmp = dir.join("tmp").join(&name);
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, dir.join("new").join(&name))
}

fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claimed(subject: &str, recipient: &str) -> Claimed {
        Claimed {
            id: "0123456789abcdef0123456789abcdef".into(),
            recipient: recipient.into(),
            subject: subject.into(),
            body: "Hello\n".into(),
            html: Some("<p>Hello</p>\n".into()),
            kind: "password_reset".into(),
            market: "uk".into(),
            list_unsubscribe: Some("https://shop.example/api/u?token=1".into()),
            created_at: 1_790_000_000,
            attempts: 1,
        }
    }

    fn header_lines(message: &Message) -> Vec<String> {
        let raw = String::from_utf8(message.formatted()).unwrap();
        let head = raw.split("\r\n\r\n").next().unwrap().to_string();
        head.split("\r\n").map(str::to_string).collect()
    }

    #[test]
    fn a_line_break_in_a_subject_or_name_is_refused_and_never_starts_a_header() {
        let injected = "Hi\r\nBcc: evil@example.com";
        let err = build(
            &claimed(injected, "ada@example.com"),
            "shop@example.com",
            "Shop",
        )
        .unwrap_err();
        assert!(err.contains("the subject"), "{err}");
        let err = build(
            &claimed("Hi", "ada@example.com"),
            "shop@example.com",
            injected,
        )
        .unwrap_err();
        assert!(err.contains("From name"), "{err}");
        // Anything else a header holds is encoded by lettre: no text starts a line of its own.
        let odd = "Ünïcode: \"quotes\" <angle> & Bcc: evil@example.com";
        let built = build(&claimed(odd, "ada@example.com"), "shop@example.com", odd).unwrap();
        let lines = header_lines(&built);
        assert!(
            !lines
                .iter()
                .any(|l| l.to_ascii_lowercase().starts_with("bcc:")),
            "{lines:#?}"
        );
        assert_eq!(built.envelope().to().len(), 1);
    }

    #[test]
    fn a_recipient_with_a_second_address_or_a_line_break_is_refused() {
        for bad in [
            "ada@example.com,evil@example.com",
            "ada@example.com\r\nBcc: e@x.co",
            "ada",
        ] {
            assert!(
                build(&claimed("Hi", bad), "shop@example.com", "Shop").is_err(),
                "{bad}"
            );
        }
    }

    #[test]
    fn message_id_date_and_unsubscribe_headers_are_set() {
        let built = build(
            &claimed("Hi", "ada@example.com"),
            "shop@example.com",
            "Lark",
        )
        .unwrap();
        let lines = header_lines(&built);
        let has = |prefix: &str| lines.iter().any(|l| l.starts_with(prefix));
        assert!(
            has("Message-ID: <0123456789abcdef0123456789abcdef@example.com>"),
            "{lines:#?}"
        );
        assert!(has("Date: "), "{lines:#?}");
        assert!(has("From: Lark <shop@example.com>"), "{lines:#?}");
        assert!(has(
            "List-Unsubscribe: <https://shop.example/api/u?token=1>"
        ));
        assert!(has("List-Unsubscribe-Post: List-Unsubscribe=One-Click"));
        let mut bad = claimed("Hi", "ada@example.com");
        bad.list_unsubscribe = Some("https://x.example/>\r\nBcc: e@x.co".into());
        assert!(build(&bad, "shop@example.com", "Lark").is_err());
    }
}
