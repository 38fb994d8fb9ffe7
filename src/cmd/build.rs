//! `storefront build`: one build of the static site, with a progress bar on a terminal and a
//! one-line summary.

use anyhow::Result;
use clap::Args as ClapArgs;
use generator::BuildOptions;
use std::io::IsTerminal;
use std::path::PathBuf;

#[derive(ClapArgs, Clone)]
pub struct BuildArgs {
    /// Export directory (catalog + content). Defaults to content-cache/export when an import
    /// exists, else the sample store.
    #[arg(long)]
    pub export: Option<PathBuf>,
    /// Where the site goes (a symlink to the live generation).
    #[arg(long, default_value = "public")]
    pub out: PathBuf,
    /// Build cache: manifest and generations.
    #[arg(long, default_value = "content-cache")]
    pub cache: PathBuf,
    /// Page templates.
    #[arg(long, default_value = "site-src/templates")]
    pub templates: PathBuf,
    /// Vite's build output with .vite/manifest.json.
    #[arg(long, default_value = "site-src/dist")]
    pub bundles: PathBuf,
    /// Make every directory of each new generation instead of borrowing unchanged ones from an
    /// earlier generation through symlinks (for a host or copy step that does not follow them).
    #[arg(long)]
    pub plain_tree: bool,
    /// Print one JSON line of build statistics (used by `storefront bench`).
    #[arg(long, hide = true)]
    pub stats_json: bool,
}

impl BuildArgs {
    pub fn options(&self) -> BuildOptions {
        let export = self.export.clone().unwrap_or_else(|| {
            let imported = self.cache.join("export");
            if imported.join("store.json").is_file() {
                imported
            } else {
                PathBuf::from("fixtures/sample")
            }
        });
        BuildOptions {
            export_dir: export,
            templates_dir: self.templates.clone(),
            bundles_dir: self.bundles.clone(),
            public_dir: self.out.clone(),
            cache_dir: self.cache.clone(),
            progress: std::io::stderr().is_terminal(),
            plain_tree: self.plain_tree,
            // `storefront deploy` takes the digests a deploy needs.
            file_digests: false,
        }
    }
}

pub fn run(args: BuildArgs) -> Result<()> {
    let mut opts = args.options();
    if args.stats_json {
        opts.progress = false;
    }
    let report = generator::build(&opts, generator::BuildFrom::Export)?;
    if args.stats_json {
        let stats = serde_json::json!({
            "pages": report.pages,
            "written": report.written,
            "unchanged": report.unchanged,
            "deleted": report.deleted.len(),
            "seconds": report.elapsed.as_secs_f64(),
            "dirs_created": report.dirs_created,
            "dirs_borrowed": report.dirs_borrowed,
            "peak_rss_mb": peak_rss_mb(),
            "phases": report.phases.iter().map(|(name, d)| (name.to_string(), d.as_secs_f64())).collect::<std::collections::BTreeMap<_, _>>(),
        });
        println!("{stats}");
    } else {
        println!("{}", report.summary());
    }
    Ok(())
}

/// Peak resident memory of this process (VmHWM), in MiB.
fn peak_rss_mb() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}
