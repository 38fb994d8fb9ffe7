//! A published generation as a list of files, so another host can be given the same index: read
//! the live generation's files on the host that built it, and install them on another host as a
//! generation of the same name, switched live the way a build publishes (one rename).

use crate::store::{IndexError, generation_dir, io, live_generation, prune, switch_live};
use std::path::{Path, PathBuf};

/// One file of a generation: its path inside the generation (`/`-separated) and its bytes.
pub type SnapshotFile = (String, Vec<u8>);

/// The market's live generation: its name and its files, or `None` before the first build.
pub fn read_live(
    root: &Path,
    market: &str,
) -> Result<Option<(String, Vec<SnapshotFile>)>, IndexError> {
    let Some(generation) = live_generation(root, market) else {
        return Ok(None);
    };
    let name = generation_name(&generation);
    let mut files = Vec::new();
    read_dir_into(&generation, "", &mut files)?;
    files.sort();
    Ok(Some((name, files)))
}

/// The name of the market's live generation, when there is one.
pub fn live_name(root: &Path, market: &str) -> Option<String> {
    live_generation(root, market).map(|g| generation_name(&g))
}

/// When generation `name` was made (its names are `{market}-{nanoseconds}-{process}`), so a host
/// never switches back to an older generation than the one it has live.
pub fn made_at(name: &str) -> Option<u128> {
    name.split('-').nth(1)?.parse().ok()
}

fn generation_name(generation: &Path) -> String {
    generation
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn read_dir_into(dir: &Path, prefix: &str, out: &mut Vec<SnapshotFile>) -> Result<(), IndexError> {
    for entry in std::fs::read_dir(dir).map_err(io("read", dir))? {
        let entry = entry.map_err(io("read", dir))?;
        let path = entry.path();
        let name = format!("{prefix}{}", entry.file_name().to_string_lossy());
        if entry.file_type().map_err(io("stat", &path))?.is_dir() {
            read_dir_into(&path, &format!("{name}/"), out)?;
        } else {
            let bytes = std::fs::read(&path).map_err(io("read", &path))?;
            out.push((name, bytes));
        }
    }
    Ok(())
}

/// Installs generation `name` of `market` from `files` and makes it live; a generation of that
/// name already on disk is only switched to. Older generations other than the one it replaces
/// are removed. A file path that would leave the generation is refused.
pub fn install(
    root: &Path,
    market: &str,
    name: &str,
    files: &[SnapshotFile],
) -> Result<PathBuf, IndexError> {
    let bad = |message: String| IndexError::Corrupt {
        path: name.to_string(),
        message,
    };
    if !name.starts_with(&format!("{market}-")) || name.contains(['/', '\\']) || name.contains("..")
    {
        return Err(bad(format!("not a generation name of market {market}")));
    }
    let done = generation_dir(root, name);
    let previous = live_generation(root, market);
    if !done.is_dir() {
        let staging = generation_dir(root, &format!("{name}.tmp"));
        let _ = std::fs::remove_dir_all(&staging);
        let written = (|| {
            for (path, bytes) in files {
                let relative = Path::new(path);
                if relative.is_absolute()
                    || relative
                        .components()
                        .any(|c| !matches!(c, std::path::Component::Normal(_)))
                {
                    return Err(bad(format!("{path}: not a path inside the generation")));
                }
                let target = staging.join(relative);
                if let Some(parent) = target.parent() {
                    std::fs::create_dir_all(parent).map_err(io("create", parent))?;
                }
                std::fs::write(&target, bytes).map_err(io("write", &target))?;
            }
            std::fs::rename(&staging, &done).map_err(io("rename", &staging))
        })();
        if let Err(e) = written {
            let _ = std::fs::remove_dir_all(&staging);
            return Err(e);
        }
    }
    switch_live(root, market, name)?;
    let keep = previous.unwrap_or_else(|| done.clone());
    if let Some(generations) = done.parent() {
        prune(generations, market, &[&done, &keep]);
    }
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_generation_read_on_one_host_installs_on_another_and_goes_live() {
        let (a, b) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        std::fs::create_dir_all(a.path().join("generations/uk-1/text")).unwrap();
        std::fs::write(a.path().join("generations/uk-1/text/meta.json"), b"{}").unwrap();
        std::fs::write(a.path().join("generations/uk-1/suggestions.json"), b"[]").unwrap();
        switch_live(a.path(), "uk", "uk-1").unwrap();
        let (name, files) = read_live(a.path(), "uk").unwrap().unwrap();
        assert_eq!(name, "uk-1");
        assert_eq!(
            files,
            [
                ("suggestions.json".to_string(), b"[]".to_vec()),
                ("text/meta.json".to_string(), b"{}".to_vec())
            ]
        );
        install(b.path(), "uk", &name, &files).unwrap();
        assert_eq!(live_name(b.path(), "uk").as_deref(), Some("uk-1"));
        assert_eq!(made_at("uk-1"), Some(1));
        assert_eq!(
            made_at("uk-1764200000123456789-42"),
            Some(1764200000123456789)
        );
        assert_eq!(made_at("uk"), None);
        assert_eq!(
            std::fs::read(b.path().join("uk/text/meta.json")).unwrap(),
            b"{}"
        );
        // Paths that leave the generation, and other markets' names, are refused.
        let escape = [("../x".to_string(), vec![])];
        assert!(install(b.path(), "uk", "uk-2", &escape).is_err());
        assert!(install(b.path(), "uk", "us-3", &files).is_err());
        assert_eq!(live_name(b.path(), "uk").as_deref(), Some("uk-1"));
    }
}
