//! Fuzzes the webhook signature checks and payload parsers of both senders.
#![no_main]

// Each target uses a part of the shared harness.
#[allow(dead_code)]
#[path = "../harness/api.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    harness::check_error(harness::webhook(data));
});
