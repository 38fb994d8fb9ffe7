//! Mail delivery settings, from the environment (`SMTP_*`, `MAIL_*`; see docs/api.md "Email"):
//! where messages go (an SMTP server, a local mailbox directory, or nowhere yet), the sender's
//! address, and how long and how often a temporary failure is retried.

use anyhow::{Context, bail};
use std::path::PathBuf;
use std::time::Duration;

/// How the SMTP connection is secured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Security {
    /// Plain connection upgraded with STARTTLS before anything is sent; refused when the server
    /// does not offer it (no downgrade). Usually port 587.
    StartTls,
    /// TLS from the first byte ("implicit TLS", SMTPS). Usually port 465.
    Tls,
    /// No encryption: only for a relay on this machine (the host must be a loopback name).
    None,
}

#[derive(Clone, Debug)]
pub struct SmtpConfig {
    pub host: String,
    pub port: u16,
    pub security: Security,
    /// Username and password, when the server wants AUTH.
    pub credentials: Option<(String, String)>,
    /// The limit on connecting; a whole delivery is cut off after four of them.
    pub timeout: Duration,
    /// Extra trusted CA certificates (PEM), for a relay whose certificate a private CA signed; the
    /// system's roots are trusted either way.
    pub ca_file: Option<PathBuf>,
}

/// Where delivered messages go.
#[derive(Clone, Debug)]
pub enum Destination {
    /// Nothing delivers: messages wait in the outbox (a server without `SMTP_HOST`).
    Nowhere,
    Smtp(SmtpConfig),
    /// A maildir (`new/` holds one `.eml` file per message): `storefront dev`'s mailbox.
    Mailbox(PathBuf),
}

#[derive(Clone, Debug)]
pub struct MailConfig {
    pub destination: Destination,
    /// `From:` address; its display name is the shop's name unless `MAIL_FROM` gives one.
    pub from: String,
    /// Tries before a temporarily refused message is given up (dead letter).
    pub max_attempts: i64,
    /// Wait before the second try; each later wait doubles, up to `MAX_RETRY_WAIT_SECS`.
    pub retry_base_secs: i64,
    /// How often the sender looks for due messages.
    pub poll: Duration,
    /// Messages claimed (and sent concurrently) per pass.
    pub batch: i64,
}

/// The longest wait between two tries.
pub const MAX_RETRY_WAIT_SECS: i64 = 3600;

impl Default for MailConfig {
    fn default() -> MailConfig {
        MailConfig {
            destination: Destination::Nowhere,
            from: "shop@localhost".into(),
            max_attempts: 8,
            retry_base_secs: 30,
            poll: Duration::from_secs(2),
            batch: 20,
        }
    }
}

fn var(name: &str) -> Option<String> {
    std::env::var(name)
        .ok()
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
}

fn number<T>(name: &str, range: std::ops::RangeInclusive<T>) -> anyhow::Result<Option<T>>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display,
{
    let Some(raw) = var(name) else {
        return Ok(None);
    };
    let value: T = raw
        .parse()
        .ok()
        .with_context(|| format!("{name} must be a whole number, not {raw:?}"))?;
    if !range.contains(&value) {
        bail!("{name} must be from {} to {}", range.start(), range.end());
    }
    Ok(Some(value))
}

/// Whether `host` names this machine (the only place an unencrypted relay is accepted).
fn is_loopback(host: &str) -> bool {
    host == "localhost"
        || host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

impl MailConfig {
    /// Reads the environment. Without `SMTP_HOST` the destination is `fallback` (nowhere for the
    /// servers, the local mailbox for `storefront dev`). A bad value stops start-up naming it.
    pub fn from_env(fallback: Destination) -> anyhow::Result<MailConfig> {
        let mut config = MailConfig {
            destination: fallback,
            ..MailConfig::default()
        };
        if let Some(host) = var("SMTP_HOST") {
            let security = match var("SMTP_SECURITY").as_deref().unwrap_or("starttls") {
                "starttls" => Security::StartTls,
                "tls" => Security::Tls,
                "none" if is_loopback(&host) => Security::None,
                "none" => bail!(
                    "SMTP_SECURITY=none sends mail and passwords in clear text: only allowed for a relay on this machine (SMTP_HOST localhost or a loopback address), not {host}"
                ),
                other => bail!("SMTP_SECURITY must be starttls, tls or none, not {other:?}"),
            };
            let default_port = match security {
                Security::StartTls => 587,
                Security::Tls => 465,
                Security::None => 25,
            };
            let credentials = match (var("SMTP_USERNAME"), var("SMTP_PASSWORD")) {
                (Some(u), Some(p)) => Some((u, p)),
                (None, None) => None,
                _ => bail!("SMTP_USERNAME and SMTP_PASSWORD go together: set both or neither"),
            };
            config.destination = Destination::Smtp(SmtpConfig {
                host,
                port: number("SMTP_PORT", 1..=65535)?.unwrap_or(default_port),
                security,
                credentials,
                timeout: Duration::from_secs(number("SMTP_TIMEOUT_SECS", 1..=300)?.unwrap_or(30)),
                ca_file: var("SMTP_CA_FILE").map(PathBuf::from),
            });
            config.from = var("MAIL_FROM")
                .context("MAIL_FROM (the sender's address) is required with SMTP_HOST")?;
        } else if let Some(from) = var("MAIL_FROM") {
            config.from = from;
        }
        config
            .from
            .parse::<lettre::message::Mailbox>()
            .with_context(|| format!("MAIL_FROM {:?} is not an email address", config.from))?;
        if let Some(n) = number("MAIL_MAX_ATTEMPTS", 1..=100)? {
            config.max_attempts = n;
        }
        if let Some(n) = number("MAIL_RETRY_BASE_SECS", 1..=MAX_RETRY_WAIT_SECS)? {
            config.retry_base_secs = n;
        }
        Ok(config)
    }

    /// The wait before the try after `attempts` failed ones: base, 2×base, 4×base… capped.
    pub fn retry_wait(&self, attempts: i64) -> i64 {
        let doublings = (attempts - 1).clamp(0, 20) as u32;
        self.retry_base_secs
            .saturating_mul(1i64 << doublings)
            .min(MAX_RETRY_WAIT_SECS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waits_double_and_stop_at_the_cap() {
        let c = MailConfig::default();
        let waits: Vec<i64> = (1..=9).map(|a| c.retry_wait(a)).collect();
        assert_eq!(waits, vec![30, 60, 120, 240, 480, 960, 1920, 3600, 3600]);
    }

    #[test]
    fn only_loopback_hosts_count_as_local() {
        assert!(is_loopback("127.0.0.1") && is_loopback("localhost") && is_loopback("[::1]"));
        assert!(!is_loopback("smtp.example.com") && !is_loopback("10.0.0.1"));
    }
}
