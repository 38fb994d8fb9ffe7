//! The API fuzz targets' findings as regression tests: every input in fuzz/regressions/{api_json_body,
//! webhook_payload} goes through the same entry point as the fuzzer (fuzz/harness/api.rs).

#[path = "../../fuzz/harness/api.rs"]
mod harness;

use std::path::Path;

/// Runs `entry` on every file of `fuzz/regressions/{target}`; returns how many there were.
fn replay(target: &str, entry: fn(&[u8]) -> harness::Outcome) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz/regressions")
        .join(target);
    let mut count = 0;
    for file in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = file.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        // A panic inside names the input that caused it.
        let outcome = std::panic::catch_unwind(|| entry(&bytes))
            .unwrap_or_else(|_| panic!("{} panicked", path.display()));
        harness::check_error(outcome);
        count += 1;
    }
    assert!(count > 0, "no regression inputs in {}", dir.display());
    count
}

#[test]
fn json_body_regressions() {
    replay("api_json_body", harness::json_body);
}

#[test]
fn webhook_payload_regressions() {
    replay("webhook_payload", harness::webhook);
}
