//! The benchmark harness (`bench/run.sh`) on a machine without its optional tools.
//!
//! CI machines have Rust, Git, Python 3 and a C compiler only: hyperfine, universal-ctags and
//! GNU time must stay optional for real. The smoke run here sees a `PATH` made of symlinks to
//! every executable of the test's own `PATH` except those three, and must still measure every
//! line and print the full report.

use std::collections::BTreeSet;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::{TestRepo, BIN};

/// The optional tools the harness must do without.
const HIDDEN: &[&str] = &["hyperfine", "ctags", "time"];

/// Builds `dir` as a directory of symlinks to every executable on `path` (the first of each
/// name, as a shell would find it) except the `hidden` names; returns how many it linked.
fn path_without(path: &std::ffi::OsStr, dir: &Path, hidden: &[&str]) -> usize {
    std::fs::create_dir_all(dir).expect("create PATH dir");
    let mut seen = BTreeSet::new();
    for entry_dir in std::env::split_paths(path) {
        let Ok(entries) = std::fs::read_dir(&entry_dir) else {
            continue;
        };
        let mut names: Vec<_> = entries.flatten().collect();
        names.sort_by_key(|e| e.file_name());
        for e in names {
            let name = e.file_name();
            let Some(text) = name.to_str() else { continue };
            if hidden.contains(&text) || seen.contains(text) {
                continue;
            }
            // Follow symlinks: what matters is whether the target is an executable file.
            let Ok(meta) = std::fs::metadata(e.path()) else {
                continue;
            };
            if !meta.is_file() || meta.permissions().mode() & 0o111 == 0 {
                continue;
            }
            std::os::unix::fs::symlink(e.path(), dir.join(text)).expect("symlink executable");
            seen.insert(text.to_owned());
        }
    }
    seen.len()
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("workspace root")
}

#[test]
fn bench_smoke_runs_without_hyperfine_ctags_or_gnu_time() {
    let repo = TestRepo::new();
    let bin_dir = repo.tmp().join("path");
    let path = std::env::var_os("PATH").expect("PATH is set");
    let linked = path_without(&path, &bin_dir, HIDDEN);
    assert!(bin_dir.join("bash").exists() && bin_dir.join("git").exists() && linked > 10);
    for tool in HIDDEN {
        assert!(!bin_dir.join(tool).exists(), "{tool} must be hidden");
    }
    // The harness must not find them through the shell either.
    let probe = Command::new(bin_dir.join("bash"))
        .args(["-c", "type -P hyperfine ctags time; exit 0"])
        .env("PATH", &bin_dir)
        .output()
        .expect("run bash");
    assert_eq!(String::from_utf8_lossy(&probe.stdout), "", "tools visible");

    let report = repo.tmp().join("out/smoke.md");
    let scratch = repo.tmp().join("scratch");
    std::fs::create_dir_all(&scratch).expect("scratch dir");
    let mut cmd = Command::new(bin_dir.join("bash"));
    cmd.arg(workspace_root().join("bench/run.sh"))
        .args(["--smoke", "--bin", BIN, "--out"])
        .arg(&report)
        // Short loops: this proves the lines are measured, not how fast they are.
        .args(["--refreshes", "3", "--agents", "3", "--agent-seconds", "1"])
        .args(["--lock-timeout", "2"]);
    repo.hermetic(&mut cmd)
        .env("PATH", &bin_dir)
        .env("TMPDIR", &scratch)
        .env_remove("BENCH_NO_HYPERFINE")
        .env_remove("BENCH_NO_CTAGS")
        .env_remove("BENCH_NO_GNU_TIME")
        .env_remove("BENCH_SHAPE")
        .env_remove("BENCH_DB_TARGET")
        .env_remove("CARGO_TARGET_DIR");
    let ran = repo.run(cmd);
    ran.success();

    let log = ran.stderr();
    for fallback in [
        "hyperfine: not found on PATH; timing with our own loop",
        "ctags: no universal-ctags on PATH; no ctags reference rows",
        "GNU time: not found on PATH; peak RSS by polling /proc/PID/status",
    ] {
        assert!(
            log.contains(fallback),
            "missing '{fallback}'{}",
            ran.describe()
        );
    }

    let md = std::fs::read_to_string(&report).expect("report written");
    assert_eq!(ran.stdout(), md, "stdout is the report");
    for fact in [
        "| timer | own loop",
        "| ctags | not found: ctags rows skipped |",
        "| peak RSS from | poll |",
    ] {
        assert!(md.contains(fact), "missing fact '{fact}' in\n{md}");
    }
    // Every line of the table, each with a measured value and a target.
    let rows: Vec<&str> = md.lines().filter(|l| l.starts_with("| ")).collect();
    for line in [
        "database after baseline, % of tracked bytes",
        "file-state bytes per tracked file",
        "database over 3 one-file-edit refreshes",
        "git status --porcelain=v2 (reference)",
        "one-file-edit refresh",
        "one-file edit, then overview cue",
        "one-file edit of a file the snapshot has dirty (an agent's next edit), then refresh",
        "the same edit again, then overview cue",
        "one-file edit that defines a new function no file calls, then overview cue",
        "one-file edit that defines a new function calling a name no file defines",
        "one-file edit that defines a new function calling a function another file defines",
        "fixed cost: repocue status (warm, unchanged)",
        "fixed cost: refresh, nothing changed",
        "fixed cost: warm overview cue",
        "parallel sha256sum of tracked files (reference)",
        "content baseline (init, REPOCUE_ANALYSIS=off)",
        "structural baseline (init, full analysis)",
        "time to first overview, cold",
        "peak RSS of the structural baseline",
        "read under another process's write lock: cue --no-refresh",
        "read under another process's write lock: search --no-refresh",
        "read under another process's write lock: status",
        "file edited every 0.2 s: refresh",
        "file edited every 0.2 s: cue overview",
        "file edited every 0.2 s: status",
        "entity cue (warm)",
        "structure cue, whole repository (warm)",
    ] {
        let row = rows
            .iter()
            .find(|r| r.contains(line))
            .unwrap_or_else(|| panic!("no row '{line}' in\n{md}"));
        let cells: Vec<&str> = row.split(" | ").collect();
        assert_eq!(cells.len(), 8, "eight cells in {row}");
        assert!(!cells[1].trim().is_empty(), "a measured value in {row}");
        assert!(!cells[4].trim().is_empty(), "a target in {row}");
    }
    assert!(
        !rows.iter().any(|r| r.contains("ctags over tracked files")),
        "no ctags row without ctags:\n{md}"
    );
    // The per-table sizes: the file-state table has one row per tracked file (300).
    let file_versions = rows
        .iter()
        .find(|r| r.starts_with("| file_versions | file_versions | table | "))
        .unwrap_or_else(|| panic!("no per-table size of file_versions in\n{md}"));
    assert!(
        file_versions.contains("| table | 300 | "),
        "{file_versions}"
    );

    // The raw samples beside the report.
    let raw: serde_json::Value =
        serde_json::from_slice(&std::fs::read(report.with_extension("json")).expect("raw json"))
            .expect("raw samples are JSON");
    let repo0 = &raw["repositories"][0];
    assert_eq!(repo0["facts"]["tracked_files"], 300);
    assert!(
        repo0["operations"]["refresh_edit"]["samples_ms"][0]
            .as_f64()
            .unwrap()
            > 0.0
    );
    // The scratch directory is removed after a successful run.
    let left: Vec<_> = std::fs::read_dir(&scratch)
        .expect("scratch")
        .flatten()
        .map(|e| e.file_name())
        .collect();
    assert!(left.is_empty(), "scratch left behind: {left:?}");
}
