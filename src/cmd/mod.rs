//! One module per subcommand.

pub mod api;
pub mod bench;
pub mod bench_api;
pub mod bench_deploy;
pub mod bench_dev;
pub mod bench_orders;
pub mod bench_search;
pub mod bench_webhook;
pub mod build;
pub mod deploy;
pub mod dev;
pub mod fixtures;
pub mod import;
pub mod serve;
