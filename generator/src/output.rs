//! Atomic, incremental output. Each build that changes anything writes a new generation directory
//! under `content-cache/generations/`: unchanged files are hard links to the live generation,
//! changed files are written fresh. The public directory is a symlink switched with one rename,
//! so readers never see a half-written site and a failed build leaves the live site as it was.
//! The manifest records each file's fingerprint and which generation it describes.

use crate::site::Digest;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const MANIFEST_VERSION: u32 = 1;

#[derive(Debug, thiserror::Error)]
#[error("{path}: {action}: {source}")]
pub struct IoError {
    pub path: String,
    pub action: &'static str,
    pub source: std::io::Error,
}

pub fn io_err(path: &Path, action: &'static str) -> impl FnOnce(std::io::Error) -> IoError + use<> {
    let path = path.to_path_buf();
    move |source| IoError {
        path: path.display().to_string(),
        action,
        source,
    }
}

#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Manifest {
    pub version: u32,
    pub generation: String,
    /// Output path → fingerprint (hex).
    pub files: BTreeMap<String, String>,
}

pub struct OutputDirs {
    /// The public directory (a symlink to the live generation).
    pub public: PathBuf,
    pub cache: PathBuf,
}

impl OutputDirs {
    pub fn generations(&self) -> PathBuf {
        self.cache.join("generations")
    }
    pub fn manifest_path(&self) -> PathBuf {
        self.cache.join("build-manifest.json")
    }

    /// The live generation directory, if `public` is one of ours.
    pub fn live_generation(&self) -> Option<PathBuf> {
        let target = std::fs::read_link(&self.public).ok()?;
        let target = if target.is_absolute() {
            target
        } else {
            self.public.parent()?.join(target)
        };
        target.is_dir().then_some(target)
    }

    /// The previous build's manifest, trusted only if it describes the generation that is live;
    /// otherwise (a killed build, a hand-edited tree) everything is rebuilt.
    pub fn previous(&self) -> Option<(Manifest, PathBuf)> {
        let live = self.live_generation()?;
        let manifest: Manifest =
            serde_json::from_slice(&std::fs::read(self.manifest_path()).ok()?).ok()?;
        let live_name = live.file_name()?.to_str()?;
        (manifest.version == MANIFEST_VERSION && manifest.generation == live_name)
            .then_some((manifest, live))
    }

    /// Removes generations that are neither live nor the one before it, and unfinished ones.
    pub fn prune(&self, keep: &[&str]) {
        let Ok(entries) = std::fs::read_dir(self.generations()) else {
            return;
        };
        for e in entries.flatten() {
            let name = e.file_name();
            let name = name.to_string_lossy();
            if !keep.contains(&name.as_ref()) {
                let _ = std::fs::remove_dir_all(e.path());
            }
        }
    }
}

pub fn hex(d: &Digest) -> String {
    d.iter().map(|b| format!("{b:02x}")).collect()
}

/// A generation being written. Dropped without `publish`, it removes itself.
pub struct NewGeneration {
    pub name: String,
    pub dir: PathBuf,
    tmp_dir: PathBuf,
    published: bool,
}

impl NewGeneration {
    pub fn create(dirs: &OutputDirs) -> Result<NewGeneration, IoError> {
        let gens = dirs.generations();
        std::fs::create_dir_all(&gens).map_err(io_err(&gens, "create directory"))?;
        let millis = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_millis())
            .unwrap_or(0);
        let name = format!("gen-{millis}-{}", std::process::id());
        let dir = gens.join(&name);
        let tmp_dir = gens.join(format!("{name}.tmp"));
        std::fs::create_dir_all(&tmp_dir).map_err(io_err(&tmp_dir, "create directory"))?;
        Ok(NewGeneration {
            name,
            dir,
            tmp_dir,
            published: false,
        })
    }

    fn target(&self, rel: &str) -> Result<PathBuf, IoError> {
        // Output paths come from data (slugs, file names): never let one escape the generation.
        let relative = Path::new(rel);
        if !relative
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_)))
        {
            return Err(IoError {
                path: rel.to_string(),
                action: "place output",
                source: std::io::Error::new(
                    std::io::ErrorKind::InvalidInput,
                    "output paths must be relative and stay inside the site",
                ),
            });
        }
        let path = self.tmp_dir.join(relative);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(io_err(parent, "create directory"))?;
        }
        Ok(path)
    }

    pub fn write(&self, rel: &str, bytes: &[u8]) -> Result<(), IoError> {
        let path = self.target(rel)?;
        std::fs::write(&path, bytes).map_err(io_err(&path, "write"))
    }

    pub fn copy_from(&self, rel: &str, source: &Path) -> Result<(), IoError> {
        let path = self.target(rel)?;
        std::fs::copy(source, &path)
            .map(|_| ())
            .map_err(io_err(source, "copy"))
    }

    /// Carries an unchanged file over from the live generation without writing it again.
    pub fn link_from(&self, rel: &str, live: &Path) -> Result<(), IoError> {
        let path = self.target(rel)?;
        let source = live.join(rel);
        std::fs::hard_link(&source, &path)
            .or_else(|_| std::fs::copy(&source, &path).map(|_| ()))
            .map_err(io_err(&source, "link"))
    }

    /// Finishes the generation, points `public` at it atomically, then records the manifest.
    pub fn publish(mut self, dirs: &OutputDirs, manifest: &Manifest) -> Result<(), IoError> {
        std::fs::rename(&self.tmp_dir, &self.dir)
            .map_err(io_err(&self.dir, "rename generation"))?;
        self.published = true;
        if let Ok(meta) = std::fs::symlink_metadata(&dirs.public)
            && !meta.file_type().is_symlink()
        {
            // A plain directory from before generations existed: keep it aside until pruned.
            let aside = dirs
                .generations()
                .join(format!("{}-previous-plain", self.name));
            std::fs::rename(&dirs.public, &aside).map_err(io_err(&dirs.public, "move aside"))?;
        }
        if let Some(parent) = dirs.public.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(io_err(parent, "create directory"))?;
        }
        let link_tmp = dirs
            .public
            .with_extension(format!("swap-{}", std::process::id()));
        let _ = std::fs::remove_file(&link_tmp);
        let target = std::fs::canonicalize(&self.dir).map_err(io_err(&self.dir, "resolve"))?;
        std::os::unix::fs::symlink(&target, &link_tmp)
            .map_err(io_err(&link_tmp, "create symlink"))?;
        std::fs::rename(&link_tmp, &dirs.public).map_err(io_err(&dirs.public, "swap symlink"))?;
        let manifest_path = dirs.manifest_path();
        let manifest_tmp = manifest_path.with_extension("json.tmp");
        let bytes = serde_json::to_vec(manifest).expect("manifest serialises");
        std::fs::write(&manifest_tmp, bytes).map_err(io_err(&manifest_tmp, "write"))?;
        std::fs::rename(&manifest_tmp, &manifest_path).map_err(io_err(&manifest_path, "rename"))?;
        Ok(())
    }
}

impl Drop for NewGeneration {
    fn drop(&mut self) {
        if !self.published {
            let _ = std::fs::remove_dir_all(&self.tmp_dir);
        }
    }
}

pub fn new_manifest(generation: &str, files: BTreeMap<String, String>) -> Manifest {
    Manifest {
        version: MANIFEST_VERSION,
        generation: generation.to_string(),
        files,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outputs_cannot_escape_the_generation() {
        let dir = tempfile::tempdir().unwrap();
        let dirs = OutputDirs {
            public: dir.path().join("public"),
            cache: dir.path().join("cache"),
        };
        let generation = NewGeneration::create(&dirs).unwrap();
        for bad in ["/etc/x", "../x", "a/../../x", ""] {
            assert!(
                generation.write(bad, b"x").is_err(),
                "{bad:?} must be refused"
            );
        }
        generation.write("a/b.html", b"ok").unwrap();
    }
}
