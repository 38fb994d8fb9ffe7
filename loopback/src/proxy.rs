//! A round-robin TCP proxy on loopback, standing for the load balancer in front of several API hosts.

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
