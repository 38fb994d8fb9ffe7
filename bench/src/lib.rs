//! The benchmark commands of `storefront bench…`, one module per command, each measuring on a
//! synthetic catalog (or the sample store) and printing its figures.

pub mod api;
pub mod build;
pub mod deploy;
pub mod dev;
mod load;
pub mod orders;
pub mod search;
pub mod webhook;
