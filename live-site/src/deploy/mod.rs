//! Incremental deploys to Netlify: the site is listed by the SHA-1 of every file, Netlify answers
//! the digests it lacks, only those files are uploaded, and Netlify switches the site to the new
//! deploy atomically once it is ready. docs/deploy.md describes the set-up and the API shape.

pub mod api;
pub mod config;
pub mod fake;
pub mod files;
pub mod rules;
pub mod run;
pub mod worker;

pub use crate::rebuild::SiteChange;
pub use config::DeployConfig;
pub use worker::{DeployHandle, DeployRecord};

use crate::netlify::NetlifyConfig;
use crate::rebuild::Daemon;
use generator::output::OutputDirs;

/// Starts deploying the daemon's site: a worker listing the files of `dirs`' manifest, reading
/// them through the daemon's view, with `_redirects` and `_headers` from `netlify`. Its first
/// deploy publishes the live site as it is; then each rebuild's changes.
pub fn start_for_daemon(
    daemon: &Daemon,
    netlify: &NetlifyConfig,
    dirs: OutputDirs,
    config: DeployConfig,
) -> anyhow::Result<DeployHandle> {
    let generated = files::generated_files(netlify, &config.api_origin)?;
    let site = files::ManifestFiles::new(dirs, Some(daemon.view()));
    let (handle, pending) = worker::create(config, Box::new(site), generated)?;
    daemon.attach_deploys(Box::new(handle.clone()));
    pending.start()?;
    Ok(handle)
}
