//! Fuzzes the API's request-body extractor (`StrictJson`) with every request type and its checks.
#![no_main]

// Each target uses a part of the shared harness.
#[allow(dead_code)]
#[path = "../harness/api.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    harness::check_error(harness::json_body(data));
});
