//! Fuzzes catalog/products.json through the export loader: parse and validate, no panic.
#![no_main]

// Each target uses a part of the shared harness.
#[allow(dead_code)]
#[path = "../harness/export.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    harness::check_errors(&harness::products(data));
});
