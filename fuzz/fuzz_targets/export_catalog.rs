//! Fuzzes the other catalog files (categories, collections, inventory, channels, store, media) through the export loader.
#![no_main]

// Each target uses a part of the shared harness.
#[allow(dead_code)]
#[path = "../harness/export.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    harness::check_errors(&harness::catalog_file(data));
});
