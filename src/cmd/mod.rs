//! One module per subcommand.

pub mod bench;
pub mod build;
pub mod dev;
pub mod fixtures;
