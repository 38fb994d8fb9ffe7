//! Fuzzes a content file (content/{market}.json) through the export loader and block rules: no panic.
#![no_main]

// Each target uses a part of the shared harness.
#[allow(dead_code)]
#[path = "../harness/export.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    harness::check_errors(&harness::content(data));
});
