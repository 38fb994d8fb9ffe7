//! Password hashing: argon2id with OWASP's minimum parameters (19 MiB, 2 passes, 1 lane), run on
//! the blocking pool so a sign-in never stalls the async threads, and at most a few at a time so a
//! burst of sign-ins cannot take 19 MiB each without bound.

use anyhow::Context;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use argon2::{Algorithm, Argon2, Params, Version};
use std::sync::{Arc, OnceLock};
use tokio::sync::Semaphore;

fn argon2() -> Argon2<'static> {
    let params = Params::new(19_456, 2, 1, None).expect("OWASP parameters are valid");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// A hash of a password nobody has, verified when an email is unknown so that an unknown account
/// costs the same time as a wrong password (no enumeration by timing).
fn dummy_hash() -> &'static str {
    static DUMMY: OnceLock<String> = OnceLock::new();
    DUMMY.get_or_init(|| {
        argon2()
            .hash_password(b"not-a-real-password-0")
            .expect("hashing a constant")
            .to_string()
    })
}

#[derive(Clone)]
pub struct Hasher {
    permits: Arc<Semaphore>,
}

impl Default for Hasher {
    fn default() -> Self {
        Hasher::new()
    }
}

impl Hasher {
    pub fn new() -> Hasher {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        Hasher {
            permits: Arc::new(Semaphore::new(cores.max(2))),
        }
    }

    pub async fn hash(&self, password: String) -> anyhow::Result<String> {
        let _permit = self.permits.acquire().await.context("hasher closed")?;
        tokio::task::spawn_blocking(move || {
            argon2()
                .hash_password(password.as_bytes())
                .map(|h| h.to_string())
                .map_err(|e| anyhow::anyhow!("hashing a password: {e}"))
        })
        .await
        .context("password hashing task")?
    }

    /// True when `password` matches `hash`. `None` verifies against a dummy hash and is false.
    pub async fn verify(&self, password: String, hash: Option<String>) -> anyhow::Result<bool> {
        let _permit = self.permits.acquire().await.context("hasher closed")?;
        tokio::task::spawn_blocking(move || {
            let known = hash.is_some();
            let hash = hash.unwrap_or_else(|| dummy_hash().to_string());
            let ok = argon2()
                .verify_password(password.as_bytes(), hash.as_str())
                .is_ok();
            known && ok
        })
        .await
        .context("password verification task")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn hashes_are_argon2id_with_owasp_parameters_and_verify() {
        let h = Hasher::new();
        let hash = h.hash("secret123".into()).await.unwrap();
        assert!(
            hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
            "{hash}"
        );
        assert!(
            h.verify("secret123".into(), Some(hash.clone()))
                .await
                .unwrap()
        );
        assert!(!h.verify("secret124".into(), Some(hash)).await.unwrap());
        assert!(
            !h.verify("not-a-real-password-0".into(), None)
                .await
                .unwrap()
        );
    }
}
