//! Leftovers of killed builds are swept from the build cache, and this process's own are kept.

use generator::output::OutputDirs;
use generator::sweep::start;

#[test]
fn other_processes_unfinished_generations_go_and_this_ones_stay() {
    let cache = tempfile::tempdir().unwrap();
    let dirs = OutputDirs {
        public: cache.path().join("public"),
        cache: cache.path().to_path_buf(),
    };
    let gens = dirs.generations();
    let own = format!("gen-5-{}-0.tmp", std::process::id());
    for name in [
        "gen-1-999999999-0.tmp",
        "gen-1-1.tmp",
        "gen-2-3-4",
        own.as_str(),
    ] {
        std::fs::create_dir_all(gens.join(name).join("p")).unwrap();
    }
    std::fs::write(dirs.manifest_tmp_path(), b"{").unwrap();
    start(&dirs).finish();
    let mut left: Vec<String> = std::fs::read_dir(&gens)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["gen-2-3-4".to_string(), own]);
    assert!(!dirs.manifest_tmp_path().exists());
}
