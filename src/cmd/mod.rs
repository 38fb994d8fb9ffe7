//! One module per subcommand.

pub mod api;
pub mod build;
pub mod deploy;
pub mod dev;
pub mod fixtures;
pub mod import;
pub mod serve;
