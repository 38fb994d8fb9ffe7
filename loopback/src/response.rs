//! An answer as read off the wire: status, headers and the body with its chunk framing removed.

use std::io;

#[derive(Debug, Clone)]
pub struct Response {
    pub status: u16,
    /// The head as sent: status line and header lines.
    pub head: String,
    /// Header names in lower case, values trimmed, in the order sent.
    pub headers: Vec<(String, String)>,
    /// The body's bytes (de-chunked when sent chunked; never decompressed).
    pub body: Vec<u8>,
}

impl Response {
    /// The first value of header `name` (any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The body as text (invalid UTF-8 replaced).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// Reads a whole answer: the head up to the blank line, then the body.
    pub fn parse(raw: &[u8]) -> io::Result<Response> {
        let end = raw
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .unwrap_or(raw.len());
        let head = String::from_utf8_lossy(&raw[..end]).into_owned();
        let mut lines = head.split("\r\n");
        let status = lines
            .next()
            .and_then(|line| line.split_whitespace().nth(1))
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| io::Error::other(format!("no HTTP status in {head:?}")))?;
        let headers: Vec<(String, String)> = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
            .collect();
        let body = raw.get(end + 4..).unwrap_or_default();
        let chunked = headers
            .iter()
            .any(|(k, v)| k == "transfer-encoding" && v.contains("chunked"));
        let body = if chunked {
            dechunk(body)
        } else {
            body.to_vec()
        };
        Ok(Response {
            status,
            head,
            headers,
            body,
        })
    }
}

/// The data of a chunked body (extensions and trailers dropped).
fn dechunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let Some(nl) = data.windows(2).position(|w| w == b"\r\n") else {
            return out;
        };
        let size_field = String::from_utf8_lossy(&data[..nl]);
        let size_field = size_field.split(';').next().unwrap_or_default().trim();
        let size = usize::from_str_radix(size_field, 16).unwrap_or(0);
        let Some(chunk) = data.get(nl + 2..nl + 2 + size) else {
            out.extend_from_slice(&data[nl + 2..]);
            return out;
        };
        if size == 0 {
            return out;
        }
        out.extend_from_slice(chunk);
        data = data.get(nl + 2 + size + 2..).unwrap_or_default();
    }
}
