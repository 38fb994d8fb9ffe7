//! One small HTTP/1.1 client for servers on loopback, shared by every test and benchmark: requests
//! go out byte for byte as built (signatures are over the raw body), with nothing between client
//! and server. Also a round-robin TCP proxy, standing for the load balancer in front of several
//! API hosts.

mod connection;
mod proxy;
mod request;
mod response;
mod stream;

pub use connection::Connection;
pub use proxy::round_robin_proxy;
pub use request::{Request, request};
pub use response::Response;
pub use stream::BodyStream;
