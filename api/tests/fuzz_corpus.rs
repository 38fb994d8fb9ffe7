//! The API fuzz targets' findings as regression tests: every input in fuzz/regressions/{api_json_body,
//! webhook_payload} goes through the same entry point as the fuzzer (fuzz/harness/api.rs).

#[path = "../../fuzz/harness/api.rs"]
mod harness;

#[path = "../../fuzz/harness/replay.rs"]
mod replay;

/// Every input of `fuzz/regressions/{target}` through `entry`, its outcome checked.
fn replay(target: &str, entry: fn(&[u8]) -> harness::Outcome) -> usize {
    replay::replay(target, entry, harness::check_error)
}

#[test]
fn json_body_regressions() {
    replay("api_json_body", harness::json_body);
}

#[test]
fn webhook_payload_regressions() {
    replay("webhook_payload", harness::webhook);
}
