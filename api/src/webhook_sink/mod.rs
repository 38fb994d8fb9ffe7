//! The webhook part of the API's state: where authenticated changes go (the `ChangeSink` the
//! server attached, its rebuild daemon).

pub mod events;

use events::Change;
use std::sync::{Arc, OnceLock};

/// Where webhook deliveries come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    Content,
    Catalog,
}

/// Receives authenticated changes; implemented by the rebuild daemon of `storefront serve`/`dev`.
pub trait ChangeSink: Send + Sync {
    /// Queues changes; must return at once (the rebuild runs elsewhere).
    fn submit(&self, origin: Origin, delivery: &str, changes: Vec<Change>);
    /// The last rebuilds, newest first, for the status endpoint.
    fn status(&self) -> serde_json::Value;
    /// The last deploys to the CDN, newest first, for the status endpoint (null when the sink
    /// does not deploy).
    fn deploys(&self) -> serde_json::Value {
        serde_json::Value::Null
    }
}

/// The webhook part of the API's state.
#[derive(Default)]
pub struct Webhooks {
    pub(super) sink: OnceLock<Arc<dyn ChangeSink>>,
}

impl Webhooks {
    /// The attached rebuild daemon, on the host that leads the rebuilds.
    pub fn sink(&self) -> Option<&Arc<dyn ChangeSink>> {
        self.sink.get()
    }

    /// Attaches the rebuild daemon; only the first attachment counts.
    pub fn attach(&self, sink: Arc<dyn ChangeSink>) -> bool {
        self.sink.set(sink).is_ok()
    }
}
