//! Replays a fuzz target's regression inputs through its entry point, for the regression tests
//! that `cargo test` runs (export/tests/fuzz_corpus.rs, api/tests/fuzz_corpus.rs).

use std::path::Path;

/// Runs `entry` on every file of `fuzz/regressions/{target}` and hands each outcome to `check`;
/// a panic names the input that caused it. Returns how many inputs there were (at least one).
pub fn replay<O>(target: &str, entry: fn(&[u8]) -> O, check: impl Fn(O)) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../fuzz/regressions")
        .join(target);
    let mut count = 0;
    for file in std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = file.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        let outcome = std::panic::catch_unwind(|| entry(&bytes))
            .unwrap_or_else(|_| panic!("{} panicked", path.display()));
        check(outcome);
        count += 1;
    }
    assert!(count > 0, "no regression inputs in {}", dir.display());
    count
}
