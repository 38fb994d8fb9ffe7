//! The import's place in `content-cache/`: each import is written to a staging directory,
//! validated, renamed to a generation under `imports/`, and made live by swapping the
//! `content-cache/export` symlink with one rename. Readers (`storefront build`, the dev loop) see
//! the old export or the new one, never a mix; a failed import deletes its staging directory and
//! leaves the live generation, its export and its ETag cache, as they were.
//!
//! ```text
//! content-cache/export -> imports/<generation>/export
//! content-cache/imports/<generation>/export/   the export (docs/formats.md)
//! content-cache/imports/<generation>/http/     ETags and bodies of the GETs that produced it
//! ```

use crate::error::ImportError;
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

pub struct ImportCache {
    root: PathBuf,
}

/// A generation being written. Dropping it without publishing removes it.
pub struct Staging {
    pub dir: PathBuf,
    published: bool,
}

impl Staging {
    pub fn export_dir(&self) -> PathBuf {
        self.dir.join("export")
    }

    pub fn http_dir(&self) -> PathBuf {
        self.dir.join("http")
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        if !self.published {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

impl ImportCache {
    pub fn new(root: &Path) -> Self {
        ImportCache {
            root: root.to_path_buf(),
        }
    }

    fn link(&self) -> PathBuf {
        self.root.join("export")
    }

    fn imports(&self) -> PathBuf {
        self.root.join("imports")
    }

    /// The live generation's directory, when an import has been published.
    pub fn live_generation(&self) -> Option<PathBuf> {
        let target = std::fs::read_link(self.link()).ok()?;
        let generation = self.root.join(target).parent()?.to_path_buf();
        generation.is_dir().then_some(generation)
    }

    /// Starts a new generation. Refuses when `content-cache/export` is a real directory, which
    /// this command did not create and will not replace.
    pub fn begin(&self) -> Result<Staging, ImportError> {
        let link = self.link();
        if let Ok(meta) = std::fs::symlink_metadata(&link)
            && !meta.file_type().is_symlink()
        {
            return Err(ImportError::Io {
                path: link.display().to_string(),
                why: "exists and is not an import (a symlink); move it away first".into(),
            });
        }
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            .as_nanos();
        let dir = self
            .imports()
            .join(format!(".staging-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(|e| ImportError::io(&dir, "create", e))?;
        Ok(Staging {
            dir,
            published: false,
        })
    }

    /// Makes a validated staging generation live, then removes older generations.
    pub fn publish(&self, mut staging: Staging) -> Result<PathBuf, ImportError> {
        let name = staging
            .dir
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_prefix(".staging-"))
            .map(|n| format!("g-{n}"))
            .expect("staging directories are named by begin()");
        let generation = self.imports().join(&name);
        std::fs::rename(&staging.dir, &generation)
            .map_err(|e| ImportError::io(&generation, "rename the staging directory to", e))?;
        staging.dir = generation.clone();
        let link_tmp = self.root.join(".export.tmp");
        let _ = std::fs::remove_file(&link_tmp);
        std::os::unix::fs::symlink(Path::new("imports").join(&name).join("export"), &link_tmp)
            .map_err(|e| ImportError::io(&link_tmp, "create symlink", e))?;
        std::fs::rename(&link_tmp, self.link())
            .map_err(|e| ImportError::io(&self.link(), "swap symlink", e))?;
        staging.published = true;
        self.prune(&name);
        Ok(generation)
    }

    /// Removes generations other than `live`, and staging directories left by killed imports.
    /// Failures are ignored: a leftover directory costs space, not correctness.
    fn prune(&self, live: &str) {
        let Ok(entries) = std::fs::read_dir(self.imports()) else {
            return;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            // Another import may be running; only a day-old staging directory is abandoned.
            let stale_staging = name.starts_with(".staging-")
                && entry
                    .metadata()
                    .and_then(|m| m.modified())
                    .ok()
                    .and_then(|t| t.elapsed().ok())
                    .is_some_and(|age| age > std::time::Duration::from_secs(86_400));
            if (name.starts_with("g-") && name != live) || stale_staging {
                let _ = std::fs::remove_dir_all(entry.path());
            }
        }
    }
}
