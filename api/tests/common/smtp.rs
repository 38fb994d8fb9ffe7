//! A real SMTP server on loopback for the mail tests: aiosmtpd (from PyPI, in a virtual
//! environment this harness creates once under `target/`) running `tests/support/smtp_server.py`,
//! which writes every accepted message, parsed, as JSON. Recipients stage its failures (see the
//! script). It offers STARTTLS and listens with implicit TLS too, with the test-only certificate
//! in `tests/support/tls`. `TEST_SMTP_PYTHON` points at another Python that has aiosmtpd instead.

use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Mutex;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

const AIOSMTPD: &str = "aiosmtpd==1.4.6";

/// The Python of the virtual environment with aiosmtpd, made on first use (one test binary runs
/// its tests on threads, so a mutex is enough to make it once).
fn python() -> PathBuf {
    if let Ok(p) = std::env::var("TEST_SMTP_PYTHON")
        && !p.is_empty()
    {
        return PathBuf::from(p);
    }
    static MADE: Mutex<()> = Mutex::new(());
    let _once = MADE.lock().unwrap_or_else(|e| e.into_inner());
    let venv = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/aiosmtpd-venv");
    let python = venv.join("bin/python");
    let marker = venv.join(format!("{AIOSMTPD}.installed"));
    if !marker.exists() {
        let run = |cmd: &mut std::process::Command, what: &str| {
            let out = cmd
                .output()
                .unwrap_or_else(|e| panic!("{what}: {e} (is python3 installed?)"));
            assert!(
                out.status.success(),
                "{what} failed:\n{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        };
        run(
            std::process::Command::new("python3")
                .args(["-m", "venv", "--clear"])
                .arg(&venv),
            "python3 -m venv (Debian: apt-get install python3-venv)",
        );
        run(
            std::process::Command::new(&python).args([
                "-m",
                "pip",
                "install",
                "--quiet",
                "--disable-pip-version-check",
                AIOSMTPD,
            ]),
            "pip install aiosmtpd (needs PyPI)",
        );
        std::fs::write(&marker, "").unwrap();
    }
    python
}

/// One message as the server received it.
#[derive(Debug, Clone, Deserialize)]
pub struct Received {
    /// Whether the message came over TLS (STARTTLS or implicit).
    pub tls: bool,
    pub mail_from: String,
    pub rcpt_tos: Vec<String>,
    pub headers: Vec<(String, String)>,
    pub text: Option<String>,
    pub html: Option<String>,
    pub content_type: String,
    pub raw: String,
}

impl Received {
    /// The first header called `name` (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The text part with the wire's CRLF line ends made LF.
    pub fn text(&self) -> String {
        self.text
            .as_deref()
            .unwrap_or_default()
            .replace("\r\n", "\n")
    }

    pub fn html(&self) -> String {
        self.html
            .as_deref()
            .unwrap_or_default()
            .replace("\r\n", "\n")
    }
}

/// The port the server prints on its next line as `{prefix}{port}`.
async fn port_line(
    lines: &mut tokio::io::Lines<BufReader<tokio::process::ChildStdout>>,
    prefix: &str,
) -> u16 {
    let line = tokio::time::timeout(Duration::from_secs(30), lines.next_line())
        .await
        .expect("the SMTP server did not start in 30 s")
        .unwrap()
        .expect("the SMTP server exited");
    line.strip_prefix(prefix)
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("expected {prefix}<port> from the SMTP server: {line}"))
}

pub struct SmtpServer {
    /// Plain SMTP, offering STARTTLS.
    pub port: u16,
    /// Implicit TLS (SMTPS).
    pub tls_port: u16,
    dir: tempfile::TempDir,
    _child: Child,
}

impl SmtpServer {
    pub async fn start() -> SmtpServer {
        let python = tokio::task::spawn_blocking(python).await.unwrap();
        let dir = tempfile::tempdir().unwrap();
        let support = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support");
        let mut child = Command::new(python)
            .arg(support.join("smtp_server.py"))
            .arg(dir.path())
            .arg(support.join("tls/localhost.pem"))
            .arg(support.join("tls/localhost.key"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .expect("starting the SMTP server");
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let port = port_line(&mut lines, "PORT ").await;
        let tls_port = port_line(&mut lines, "TLS_PORT ").await;
        SmtpServer {
            port,
            tls_port,
            dir,
            _child: child,
        }
    }

    /// Every message received so far, in arrival order.
    pub fn received(&self) -> Vec<Received> {
        let mut files: Vec<PathBuf> = std::fs::read_dir(self.dir.path())
            .unwrap()
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "json"))
            .collect();
        files.sort();
        files
            .iter()
            .map(|p| serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap())
            .collect()
    }

    /// The messages received for `address`.
    pub fn received_by(&self, address: &str) -> Vec<Received> {
        self.received()
            .into_iter()
            .filter(|m| m.rcpt_tos.iter().any(|r| r.eq_ignore_ascii_case(address)))
            .collect()
    }

    /// The mail settings of an API that delivers here (no TLS: the server is on loopback).
    pub fn mail_config(&self) -> api::mail::config::MailConfig {
        self.mail_config_with(api::mail::config::Security::None, None)
    }

    /// As `mail_config`, over `security` to `localhost` (the name on the test certificate),
    /// trusting `ca_file`.
    pub fn mail_config_with(
        &self,
        security: api::mail::config::Security,
        ca_file: Option<PathBuf>,
    ) -> api::mail::config::MailConfig {
        use api::mail::config::{Destination, MailConfig, Security, SmtpConfig};
        let (host, port) = match security {
            Security::None => ("127.0.0.1", self.port),
            Security::StartTls => ("localhost", self.port),
            Security::Tls => ("localhost", self.tls_port),
        };
        MailConfig {
            destination: Destination::Smtp(SmtpConfig {
                host: host.into(),
                port,
                security,
                credentials: None,
                timeout: Duration::from_secs(5),
                ca_file,
            }),
            from: "shop@example.com".into(),
            max_attempts: 3,
            retry_base_secs: 60,
            ..MailConfig::default()
        }
    }
}
