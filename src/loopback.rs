//! A minimal HTTP/1.1 client for servers on loopback: the webhook benchmark and tests send exact
//! bytes (signatures are over the raw body) with nothing between them and the server. Also a
//! round-robin TCP proxy, standing for the load balancer in front of several API hosts.

use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Sends one request on a fresh connection (`Connection: close`) and reads the whole answer:
/// its status and body as text. A POST body goes as `application/json`.
pub async fn request(
    addr: impl tokio::net::ToSocketAddrs + std::fmt::Display,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> std::io::Result<(u16, String)> {
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    let mut stream = tokio::net::TcpStream::connect(addr).await?;
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    if method == "POST" {
        head.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            body.len()
        ));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).await?;
    stream.write_all(body).await?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).await?;
    let text = String::from_utf8_lossy(&raw).to_string();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| std::io::Error::other(format!("no HTTP status in {head:?}")))?;
    Ok((status, body.to_string()))
}

/// A round-robin TCP proxy on a fresh loopback port: each accepted connection goes to the next of
/// `backends` (one backend per connection, as a load balancer without stickiness, so a client
/// that opens a connection per request meets every host in turn). A backend that refuses the
/// connection closes the client's. Answers the proxy's address; it runs until the runtime ends.
pub async fn round_robin_proxy(
    backends: Vec<std::net::SocketAddr>,
) -> std::io::Result<std::net::SocketAddr> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    tokio::spawn(async move {
        let mut next = 0;
        loop {
            let Ok((mut client, _)) = listener.accept().await else {
                return;
            };
            let backend = backends[next % backends.len()];
            next += 1;
            tokio::spawn(async move {
                if let Ok(mut server) = tokio::net::TcpStream::connect(backend).await {
                    let _ = client.set_nodelay(true);
                    let _ = server.set_nodelay(true);
                    let _ = tokio::io::copy_bidirectional(&mut client, &mut server).await;
                }
            });
        }
    });
    Ok(addr)
}
