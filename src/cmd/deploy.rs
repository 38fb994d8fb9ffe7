//! `storefront deploy`: one full deploy of the built site to Netlify by file digests (only the
//! files Netlify lacks are uploaded), with netlify.toml's redirects and headers.

use anyhow::{Context, anyhow};
use clap::Args as ClapArgs;
use generator::output::{OutputDirs, complete_sha1};
use live_site::deploy::files::{DeployFiles, ManifestFiles, SiteFiles, generated_files};
use live_site::deploy::{DeployConfig, api::NetlifyApi, run::deploy_with_retries};
use live_site::netlify::NetlifyConfig;
use std::path::PathBuf;

#[derive(ClapArgs)]
pub struct Args {
    /// The built site (a symlink to its generation).
    #[arg(long, default_value = "public")]
    pub out: PathBuf,
    /// The build cache holding the manifest.
    #[arg(long, default_value = "content-cache")]
    pub cache: PathBuf,
    /// The deploy configuration whose redirects and headers are deployed.
    #[arg(long, default_value = "netlify.toml")]
    pub netlify: PathBuf,
    /// Whole-deploy attempts before giving up.
    #[arg(long, default_value_t = 4)]
    pub attempts: u32,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let config = DeployConfig::from_env()?.ok_or_else(|| {
        anyhow!("NETLIFY_AUTH_TOKEN and NETLIFY_SITE_ID must be set to deploy (docs/deploy.md)")
    })?;
    let netlify = NetlifyConfig::load(&args.netlify)?;
    let dirs = OutputDirs {
        public: args.out.clone(),
        cache: args.cache.clone(),
    };
    // `storefront build` hashes nothing: the files it wrote are read here for their SHA-1, once,
    // and the manifest keeps the digests (the next build carries those of unchanged files).
    let read = complete_sha1(&dirs).context("recording the files' digests")?;
    if read > 0 {
        println!("{read} files read for their SHA-1 (written since the last deploy)");
    }
    let site = ManifestFiles::new(dirs, None);
    let list = site.list()?;
    let generated = generated_files(&netlify, &config.api_origin)?;
    let files = DeployFiles {
        site: &list,
        generated: &generated,
    };
    let api = NetlifyApi::new(&config)?;
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    let outcome = runtime
        .block_on(deploy_with_retries(
            &api,
            &files,
            &site,
            &config,
            args.attempts,
        ))
        .map_err(|e| {
            anyhow!(
                "deploy{} failed, the previous deploy stays live: {}",
                e.deploy_id.map(|id| format!(" {id}")).unwrap_or_default(),
                e.error
            )
        })?;
    println!(
        "deploy {} ready: {} files listed, {} uploaded ({} bytes), ready {} ms after creation",
        outcome.deploy_id,
        outcome.files,
        outcome.uploaded,
        outcome.bytes_uploaded,
        outcome.create_to_ready_ms
    );
    Ok(())
}
