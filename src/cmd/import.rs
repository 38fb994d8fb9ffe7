//! `storefront import`: fetch the catalog and the content from the source APIs into
//! content-cache/export (see docs/import.md); a progress bar on a terminal, one summary line.

use anyhow::{Context, Result};
use clap::Args as ClapArgs;
use importer::{ImportConfig, ImportOptions};
use std::io::IsTerminal;
use std::path::PathBuf;

#[derive(ClapArgs)]
pub struct Args {
    /// Build cache; the import is published to CACHE/export (a symlink swapped atomically).
    #[arg(long, default_value = "content-cache")]
    pub cache: PathBuf,
}

pub fn run(args: Args) -> Result<()> {
    let cfg = ImportConfig::from_env()?;
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    let summary = runtime.block_on(importer::import(
        &cfg,
        &ImportOptions {
            cache_dir: args.cache,
            progress: std::io::stderr().is_terminal(),
        },
    ))?;
    println!("{summary}");
    Ok(())
}
