//! The conditional-request cache: the ETag and body of every GET, kept with the import that
//! fetched them (`content-cache/imports/<generation>/http/`). The next import sends
//! If-None-Match and, on 304, links the body over from the previous generation instead of
//! downloading it again. Because each generation has its own copy, a failed import never damages
//! the cache of the live one.

use crate::error::ImportError;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

const INDEX: &str = "index.json";

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Entry {
    etag: String,
    /// File name of the body inside the cache directory.
    body: String,
}

pub struct EtagCache {
    previous_dir: Option<PathBuf>,
    previous: BTreeMap<String, Entry>,
    next_dir: PathBuf,
    next: Mutex<BTreeMap<String, Entry>>,
}

impl EtagCache {
    /// `previous_dir` is the live import's cache (absent on the first import, or unreadable, in
    /// which case everything is simply downloaded); `next_dir` is the new generation's.
    pub fn open(previous_dir: Option<&Path>, next_dir: &Path) -> Result<Self, ImportError> {
        std::fs::create_dir_all(next_dir).map_err(|e| ImportError::io(next_dir, "create", e))?;
        let previous = previous_dir
            .and_then(|dir| std::fs::read(dir.join(INDEX)).ok())
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or_default();
        Ok(EtagCache {
            previous_dir: previous_dir.map(Path::to_path_buf),
            previous,
            next_dir: next_dir.to_path_buf(),
            next: Mutex::new(BTreeMap::new()),
        })
    }

    /// The ETag to send for `key`, when its body is still on disk.
    pub fn previous_etag(&self, key: &str) -> Option<String> {
        let dir = self.previous_dir.as_ref()?;
        let entry = self.previous.get(key)?;
        dir.join(&entry.body).is_file().then(|| entry.etag.clone())
    }

    /// After a 304: carry the previous body into the new generation and return it.
    pub fn reuse(&self, key: &str) -> Result<Vec<u8>, String> {
        let (Some(dir), Some(entry)) = (&self.previous_dir, self.previous.get(key)) else {
            return Err("answered 304 but nothing is cached for it".into());
        };
        let from = dir.join(&entry.body);
        let to = self.next_dir.join(&entry.body);
        let bytes = std::fs::read(&from)
            .map_err(|e| format!("answered 304 but the cached body cannot be read: {e}"))?;
        if std::fs::hard_link(&from, &to).is_err() {
            std::fs::write(&to, &bytes)
                .map_err(|e| format!("cannot write {}: {e}", to.display()))?;
        }
        self.lock().insert(key.to_string(), entry.clone());
        Ok(bytes)
    }

    pub fn store(&self, key: &str, etag: &str, bytes: &[u8]) -> Result<(), ImportError> {
        let body = format!("{}.body", blake3::hash(key.as_bytes()).to_hex());
        let path = self.next_dir.join(&body);
        std::fs::write(&path, bytes).map_err(|e| ImportError::io(&path, "write", e))?;
        self.lock().insert(
            key.to_string(),
            Entry {
                etag: etag.to_string(),
                body,
            },
        );
        Ok(())
    }

    /// Writes the index of the new generation.
    pub fn finish(&self) -> Result<(), ImportError> {
        let path = self.next_dir.join(INDEX);
        let json = serde_json::to_vec_pretty(&*self.lock()).expect("a map of strings serialises");
        std::fs::write(&path, json).map_err(|e| ImportError::io(&path, "write", e))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, Entry>> {
        self.next.lock().unwrap_or_else(|p| p.into_inner())
    }
}
