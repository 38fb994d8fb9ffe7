//! `storefront fixtures`: writes a synthetic catalog of any size in the export format.

use anyhow::{Context, Result};
use clap::Args as ClapArgs;
use generator::fixtures::{FixtureOptions, write_fixtures};
use std::path::PathBuf;

#[derive(ClapArgs)]
pub struct Args {
    /// Number of products.
    #[arg(long, default_value_t = 1000)]
    pub products: usize,
    /// Random seed: the same size and seed give the same files.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Colours per product.
    #[arg(long, default_value_t = 4)]
    pub colours: usize,
    /// Directory to write the export into.
    #[arg(long, default_value = "content-cache/synthetic")]
    pub out: PathBuf,
}

pub fn run(args: Args) -> Result<()> {
    write_fixtures(
        &args.out,
        &FixtureOptions {
            products: args.products,
            seed: args.seed,
            colours_per_product: args.colours,
        },
    )
    .with_context(|| format!("writing fixtures to {}", args.out.display()))?;
    println!(
        "wrote a {}-product synthetic catalog to {}",
        args.products,
        args.out.display()
    );
    Ok(())
}
