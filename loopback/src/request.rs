//! A request built header by header, its bytes, and sending it on a fresh connection.

use crate::response::Response;
use crate::stream::BodyStream;
use std::io;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpStream, ToSocketAddrs};

/// One HTTP/1.1 request: method, target, headers in the order given, body.
#[derive(Debug, Clone)]
pub struct Request {
    method: String,
    target: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Request {
    pub fn new(method: &str, target: &str) -> Request {
        Request {
            method: method.to_string(),
            target: target.to_string(),
            headers: Vec::new(),
            body: Vec::new(),
        }
    }

    pub fn get(target: &str) -> Request {
        Request::new("GET", target)
    }

    /// Adds one header line, after those added before.
    pub fn header(mut self, name: &str, value: &str) -> Request {
        self.headers.push((name.to_string(), value.to_string()));
        self
    }

    /// Adds each of `headers`, in order.
    pub fn headers(self, headers: &[(&str, &str)]) -> Request {
        headers
            .iter()
            .fold(self, |request, (name, value)| request.header(name, value))
    }

    pub fn body(mut self, body: impl Into<Vec<u8>>) -> Request {
        self.body = body.into();
        self
    }

    /// `body` as `application/json` (unless a Content-Type was given already).
    pub fn json(self, body: impl Into<Vec<u8>>) -> Request {
        let request = if self.has_header("content-type") {
            self
        } else {
            self.header("Content-Type", "application/json")
        };
        request.body(body)
    }

    fn has_header(&self, name: &str) -> bool {
        self.headers
            .iter()
            .any(|(k, _)| k.eq_ignore_ascii_case(name))
    }

    /// The bytes on the wire: the request line, `Host`, `Connection: close` when `close`, the
    /// headers, a Content-Length when there is a body or the method carries one (unless given),
    /// the blank line and the body.
    pub fn to_bytes(&self, host: &str, close: bool) -> Vec<u8> {
        let mut head = format!(
            "{} {} HTTP/1.1\r\nHost: {host}\r\n",
            self.method, self.target
        );
        if close {
            head.push_str("Connection: close\r\n");
        }
        for (name, value) in &self.headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        let carries_body = matches!(self.method.as_str(), "POST" | "PUT" | "PATCH");
        if (carries_body || !self.body.is_empty()) && !self.has_header("content-length") {
            head.push_str(&format!("Content-Length: {}\r\n", self.body.len()));
        }
        head.push_str("\r\n");
        let mut bytes = head.into_bytes();
        bytes.extend_from_slice(&self.body);
        bytes
    }

    /// Sends the request on a fresh connection (`Connection: close`) and reads the whole answer.
    pub async fn send(&self, addr: impl ToSocketAddrs + std::fmt::Display) -> io::Result<Response> {
        let host = addr.to_string();
        let stream = TcpStream::connect(addr).await?;
        self.send_over(stream, &host).await
    }

    /// As `send`, over a connection the caller opened (from a chosen source address, say).
    pub async fn send_over(&self, mut stream: TcpStream, host: &str) -> io::Result<Response> {
        let bytes = self.to_bytes(host, true);
        let head_len = bytes.len() - self.body.len();
        stream.write_all(&bytes[..head_len]).await?;
        // The server may answer (413, say) and close before reading a large body: its answer
        // is still read.
        let _ = stream.write_all(&bytes[head_len..]).await;
        let mut raw = Vec::new();
        if let Err(e) = stream.read_to_end(&mut raw).await
            && raw.is_empty()
        {
            return Err(e);
        }
        Response::parse(&raw)
    }

    /// `send` from synchronous code, giving up after `timeout`.
    pub fn send_blocking(&self, addr: &str, timeout: Duration) -> io::Result<Response> {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?
            .block_on(async {
                tokio::time::timeout(timeout, self.send(addr))
                    .await
                    .map_err(|_| io::Error::from(io::ErrorKind::TimedOut))?
            })
    }

    /// Sends the request (keeping the connection open) and reads the answer's head, leaving its
    /// body to be read as it arrives: an event stream.
    pub async fn open(
        &self,
        addr: impl ToSocketAddrs + std::fmt::Display,
    ) -> io::Result<BodyStream> {
        let host = addr.to_string();
        let mut stream = TcpStream::connect(addr).await?;
        stream.write_all(&self.to_bytes(&host, false)).await?;
        BodyStream::after_head(stream).await
    }
}

/// One request as a webhook sender or a page's fetch makes it, on a fresh connection: `headers`
/// as given, a POST body as `application/json`. Answers the status and the body as text.
pub async fn request(
    addr: impl ToSocketAddrs + std::fmt::Display,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> io::Result<(u16, String)> {
    let request = Request::new(method, path).headers(headers);
    let request = if method == "POST" {
        request.json(body)
    } else {
        request.body(body)
    };
    let response = request.send(addr).await?;
    Ok((response.status, response.text()))
}
