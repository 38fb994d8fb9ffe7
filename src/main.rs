//! The `storefront` command: a thin CLI over the generator, api, live-site and bench crates.

mod cmd;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// mimalloc instead of glibc's malloc: a cold build allocates per page and per template value on
/// every core, and glibc's allocator was about a fifth of its profile (README "Performance").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[derive(Parser)]
#[command(
    name = "storefront",
    version,
    about = "Static storefront generator and commerce API"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Build the static site from an export into public/.
    Build(cmd::build::BuildArgs),
    /// Build the sample store, serve it with the API, and rebuild on every save.
    Dev(cmd::dev::Args),
    /// Write a synthetic catalog of any size, for benchmarks.
    Fixtures(cmd::fixtures::Args),
    /// Measure build performance on synthetic catalogs.
    Bench(bench::build::Args),
    /// Deploy the built site to Netlify (only the files it lacks are uploaded).
    Deploy(cmd::deploy::Args),
    /// Serve the site like production (netlify.toml's rules and headers), the API and the
    /// webhook-driven rebuilds.
    Serve(cmd::serve::Args),
    /// Serve the commerce API (or, with --import, import the catalog export and exit).
    Api(cmd::api::Args),
    /// Fetch the catalog and the content from the source APIs into content-cache/export.
    Import(cmd::import::Args),
    /// Measure webhook-to-live time under the rebuild daemon on a synthetic catalog.
    BenchWebhook(bench::webhook::Args),
    /// Measure deploys to a loopback fake of Netlify's API: cold, again, one product by webhook.
    BenchDeploy(bench::deploy::Args),
    /// Measure save-to-browser-reload time of `storefront dev` on a synthetic catalog.
    BenchDev(bench::dev::Args),
    /// Load-test the API (release build, SQLite, loopback) and report throughput and latency.
    BenchApi(bench::api::Args),
    /// Measure the search index build and the search and listing endpoints on a synthetic catalog.
    BenchSearch(bench::search::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Build(args) => cmd::build::run(args),
        Command::Dev(args) => cmd::dev::run(args),
        Command::Fixtures(args) => cmd::fixtures::run(args),
        Command::Bench(args) => bench::build::run(args),
        Command::Serve(args) => cmd::serve::run(args),
        Command::Deploy(args) => cmd::deploy::run(args),
        Command::Api(args) => cmd::api::run(args),
        Command::BenchApi(args) => bench::api::run(args),
        Command::Import(args) => cmd::import::run(args),
        Command::BenchSearch(args) => bench::search::run(args),
        Command::BenchWebhook(args) => bench::webhook::run(args),
        Command::BenchDev(args) => bench::dev::run(args),
        Command::BenchDeploy(args) => bench::deploy::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
