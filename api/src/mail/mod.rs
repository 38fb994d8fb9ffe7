//! Email: every message the shop sends is rendered from the mail templates (`message`), written
//! to the `outbox` in the transaction of what it reports (`outbox`), and delivered by a background
//! sender (`sender`) over SMTP or, in development, into a local mailbox (`transport`). Operators
//! see and retry the outbox through `admin`; `storefront dev` shows the mailbox and a preview of
//! every message through `devbox`.

pub mod admin;
pub mod devbox;
pub mod message;
pub mod outbox;
pub mod sender;
pub mod transport;

/// Mail settings live with the other settings, below every feature; the old path stays.
pub use crate::config::mail as config;
pub use message::{Email, Kind, Letterhead};
pub use outbox::queue;
