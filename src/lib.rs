//! The storefront application crate: the local servers shared by `storefront dev` and the tests.

pub mod compress;
pub mod deploy;
pub mod dev_errors;
pub mod loopback;
pub mod netlify;
pub mod preview_route;
pub mod rebuild;
pub mod site_server;
