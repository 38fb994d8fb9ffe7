//! Removes what killed builds left in the build cache (unfinished generations, a half-written manifest) without holding up the build that finds them.

use crate::output::OutputDirs;
use std::path::PathBuf;
use std::thread::JoinHandle;

/// A removal running on its own thread. `finish` waits for it; dropping it lets it run on.
pub struct Sweep(Option<JoinHandle<()>>);

/// Starts removing the leftovers of killed builds. Two processes never build into one cache, so
/// an unfinished (`.tmp`) generation named with another process id is abandoned; this process's
/// own are left alone. The leftovers are listed before this returns, so a generation the caller
/// creates afterwards is never touched. A half-written manifest is removed at once: it is one
/// file, and this process may write a new one soon.
pub fn start(dirs: &OutputDirs) -> Sweep {
    let _ = std::fs::remove_file(dirs.manifest_tmp_path());
    let abandoned = abandoned_generations(dirs);
    if abandoned.is_empty() {
        return Sweep(None);
    }
    let handle = std::thread::Builder::new()
        .name("sweep".into())
        .spawn(move || {
            for dir in abandoned {
                let _ = std::fs::remove_dir_all(dir);
            }
        })
        .ok();
    Sweep(handle)
}

impl Sweep {
    /// Waits until the leftovers are gone.
    pub fn finish(mut self) {
        if let Some(handle) = self.0.take() {
            let _ = handle.join();
        }
    }
}

/// Unfinished generations whose name (`gen-{millis}-{pid}-{seq}.tmp`) does not carry this
/// process's id.
fn abandoned_generations(dirs: &OutputDirs) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dirs.generations()) else {
        return Vec::new();
    };
    let own_pid = std::process::id().to_string();
    entries
        .flatten()
        .filter(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            name.strip_suffix(".tmp")
                .is_some_and(|stem| stem.split('-').nth(2) != Some(own_pid.as_str()))
        })
        .map(|e| e.path())
        .collect()
}
