//! One deploy attempt: create the deploy from the file digests, wait for Netlify's diff when it
//! is computed asynchronously, upload the files whose digests it requires, and wait until the
//! deploy is ready (Netlify then serves it; until then the previous deploy stays live).

use super::api::{Deploy, NetlifyApi};
use super::files::{DeployFiles, SiteFiles};
use futures_util::StreamExt;
use generator::output::sha1_hex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// Above this many files a deploy is created with `async: true` and its diff polled for, as
/// Netlify's own client does.
pub const SYNC_FILE_LIMIT: usize = 100;

/// What a deploy that became ready did.
#[derive(Debug, Clone, Default)]
pub struct Outcome {
    pub deploy_id: String,
    pub files: usize,
    /// Digests Netlify lacked.
    pub required: usize,
    pub uploaded: usize,
    pub bytes_uploaded: u64,
    /// Creating the deploy (and its diff) until the uploads start.
    pub create_ms: u64,
    pub upload_ms: u64,
    /// Creating the deploy until Netlify answered it ready.
    pub create_to_ready_ms: u64,
}

/// Why an attempt stopped; the previous deploy is still the live one.
#[derive(Debug, Clone)]
pub struct AttemptError {
    pub deploy_id: Option<String>,
    pub uploaded: usize,
    pub error: String,
    /// A listed file changed or went before it was uploaded: a newer rebuild is live, and the
    /// next attempt lists it (no backoff needed).
    pub superseded: bool,
}

/// Deploys `files` (read through `site`) with at most `concurrency` uploads in flight.
pub async fn deploy_once(
    api: &NetlifyApi,
    files: &DeployFiles<'_>,
    site: &dyn SiteFiles,
    concurrency: usize,
    ready_timeout: Duration,
) -> Result<Outcome, AttemptError> {
    let started = Instant::now();
    let count = files.len();
    let fail = |deploy_id: Option<&str>, uploaded: usize, error: String| AttemptError {
        deploy_id: deploy_id.map(str::to_string),
        uploaded,
        error,
        superseded: false,
    };
    let body = files.create_body(count > SYNC_FILE_LIMIT);
    let created = api
        .create_deploy(&body)
        .await
        .map_err(|e| fail(None, 0, e.to_string()))?;
    let id = created.id.clone();
    // An async deploy answers "preparing" first; its `required` list comes with "prepared".
    let diffed = wait_for(api, &created, ready_timeout, |s| {
        matches!(s, "prepared" | "uploading" | "uploaded" | "ready")
    })
    .await
    .map_err(|e| fail(Some(&id), 0, e))?;
    let create_ms = started.elapsed().as_millis() as u64;
    let uploads = files.paths_for(&diffed.required);
    let uploading = Instant::now();
    let uploaded = AtomicUsize::new(0);
    let bytes_uploaded = AtomicU64::new(0);
    let results: Vec<Result<(), AttemptError>> = futures_util::stream::iter(uploads.iter())
        .map(|(path, digest)| {
            let (id, uploaded, bytes_uploaded) = (&id, &uploaded, &bytes_uploaded);
            async move {
                let bytes =
                    read(files, site, path, digest)
                        .await
                        .map_err(|error| AttemptError {
                            deploy_id: Some(id.clone()),
                            uploaded: uploaded.load(Ordering::Relaxed),
                            error,
                            superseded: true,
                        })?;
                api.upload(id, path, &bytes)
                    .await
                    .map_err(|e| AttemptError {
                        deploy_id: Some(id.clone()),
                        uploaded: uploaded.load(Ordering::Relaxed),
                        error: e.to_string(),
                        superseded: false,
                    })?;
                uploaded.fetch_add(1, Ordering::Relaxed);
                bytes_uploaded.fetch_add(bytes.len() as u64, Ordering::Relaxed);
                Ok(())
            }
        })
        .buffer_unordered(concurrency.max(1))
        .collect()
        .await;
    let uploaded = uploaded.load(Ordering::Relaxed);
    if let Some(Err(mut e)) = results.into_iter().find(Result::is_err) {
        e.uploaded = uploaded;
        return Err(e);
    }
    let upload_ms = uploading.elapsed().as_millis() as u64;
    wait_for(api, &diffed, ready_timeout, |s| s == "ready")
        .await
        .map_err(|e| fail(Some(&id), uploaded, e))?;
    Ok(Outcome {
        deploy_id: id,
        files: count,
        required: diffed.required.len(),
        uploaded,
        bytes_uploaded: bytes_uploaded.load(Ordering::Relaxed),
        create_ms,
        upload_ms,
        create_to_ready_ms: started.elapsed().as_millis() as u64,
    })
}

/// The bytes of `path`, which the deploy listed with `digest`: a generated file's, or the live
/// site's file, checked against the digest (a newer rebuild may have replaced it since).
async fn read(
    files: &DeployFiles<'_>,
    site: &dyn SiteFiles,
    path: &str,
    digest: &str,
) -> Result<Vec<u8>, String> {
    if let Some(generated) = files.generated.get(path) {
        return Ok(generated.bytes.to_vec());
    }
    let at = site
        .locate(path)
        .ok_or_else(|| format!("{path}: no longer in the live site"))?;
    let bytes = tokio::fs::read(&at)
        .await
        .map_err(|e| format!("{path}: cannot be read from {}: {e}", at.display()))?;
    if sha1_hex(&bytes) != digest {
        return Err(format!("{path}: changed since the deploy listed it"));
    }
    Ok(bytes)
}

/// Polls the deploy until its state passes `done`; "error" fails with Netlify's message. The
/// poll starts at 20 ms and doubles up to 1 s (Netlify's client polls every second).
async fn wait_for(
    api: &NetlifyApi,
    deploy: &Deploy,
    timeout: Duration,
    done: impl Fn(&str) -> bool,
) -> Result<Deploy, String> {
    let started = Instant::now();
    let mut interval = Duration::from_millis(20);
    let mut current = deploy.clone();
    loop {
        if current.state == "error" {
            return Err(format!(
                "deploy {}: {}",
                current.id,
                current
                    .error_message
                    .as_deref()
                    .unwrap_or("Netlify reported an error")
            ));
        }
        if done(&current.state) {
            return Ok(current);
        }
        if started.elapsed() > timeout {
            return Err(format!(
                "deploy {}: still {:?} after {} s",
                current.id,
                current.state,
                timeout.as_secs()
            ));
        }
        tokio::time::sleep(interval).await;
        interval = (interval * 2).min(Duration::from_secs(1));
        current = api
            .get_deploy(&deploy.id)
            .await
            .map_err(|e| e.to_string())?;
    }
}

/// A full deploy of `files` (`storefront deploy`): attempts are repeated up to `attempts`
/// times, waiting the policy's doubling backoff between them; answers the last error.
pub async fn deploy_with_retries(
    api: &NetlifyApi,
    files: &DeployFiles<'_>,
    site: &dyn SiteFiles,
    config: &super::DeployConfig,
    attempts: u32,
) -> Result<Outcome, AttemptError> {
    let mut wait = config.retry.base_delay;
    let mut attempt = 1;
    loop {
        match deploy_once(
            api,
            files,
            site,
            config.concurrency,
            config.retry.ready_timeout,
        )
        .await
        {
            Ok(outcome) => return Ok(outcome),
            Err(e) if attempt >= attempts => return Err(e),
            Err(e) => {
                eprintln!("deploy attempt {attempt} failed, retrying: {}", e.error);
                tokio::time::sleep(wait).await;
                wait = (wait * 2).min(config.retry.max_delay);
                attempt += 1;
            }
        }
    }
}
