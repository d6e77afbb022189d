//! Per-file faults (SPEC §2 "Trust"): a tracked file that cannot be read, or whose parse runs
//! out of time, is a fault of that file, never a failed refresh. The snapshot is published,
//! the file keeps its last known state, the freshness is `possibly-stale` with a counted
//! `file_faults` warning, and the next refresh reads the file again.
//!
//! Tests run as root on CI, and root reads files whatever their permissions; the binary under
//! test is built with the library's `testing` feature, whose hooks make a read fail
//! (`REPOCUE_TEST_UNREADABLE`) or a parse time out (`REPOCUE_TEST_PARSE_TIMEOUT_MS`) on any
//! machine. A `chmod 000` case covers the real thing where it can happen.

use std::os::unix::fs::PermissionsExt;

use repocue::api::{FaultKind, FileFault, Freshness, RefreshOutput, StatusOutput, WarningCode};
use serde_json::Value;

use crate::support::{op_on, op_pairs, running_as_root, warning, Ran, TestRepo};

/// Runs `repocue` with extra environment variables.
fn run_env(repo: &TestRepo, args: &[&str], env: &[(&str, &str)]) -> Ran {
    let mut cmd = repo.command(args);
    cmd.envs(env.iter().copied());
    repo.run(cmd)
}

fn fault(path: &str, kind: FaultKind) -> FileFault {
    FileFault {
        path: path.into(),
        kind,
    }
}

/// The `file_faults` warning's count.
#[track_caller]
fn fault_count(v: &Value) -> u64 {
    let w = warning(v, "file_faults").unwrap_or_else(|| panic!("no file_faults warning: {v:#}"));
    w["count"].as_u64().expect("counted")
}

/// How a test makes `b.txt` unreadable and readable again.
struct Breakage {
    /// Environment of every command while the file is unreadable.
    env: Vec<(&'static str, &'static str)>,
    fix: fn(&TestRepo),
}

/// Two edited files, one of them unreadable: the refresh publishes, the cue is served with
/// the caveat, and the fault clears once the file can be read.
fn unreadable_file_scenario(broken: Breakage) {
    let repo = TestRepo::with_files(&[("a.txt", "one\n"), ("b.txt", "two\n")]);
    repo.init();
    repo.write("a.txt", "one, edited\n");
    repo.write("b.txt", "two, edited\n");
    let env = broken.env.as_slice();
    if broken.env.is_empty() {
        std::fs::set_permissions(repo.path("b.txt"), std::fs::Permissions::from_mode(0o000))
            .unwrap();
    }

    let r: RefreshOutput = run_env(&repo, &["refresh"], env).typed();
    assert!(r.published);
    assert_eq!(r.snapshot, "snapshot-000002");
    assert_eq!(r.faults, [fault("b.txt", FaultKind::Unreadable)]);
    assert_eq!(r.freshness, Freshness::PossiblyStale);
    assert_eq!(
        r.changes.content_changed, 1,
        "b.txt keeps its last known content"
    );
    let w = r.warnings.iter().find(|w| w.code == "file_faults").unwrap();
    assert_eq!(w.count, Some(1));
    assert!(w.detail.as_deref().unwrap().contains("b.txt (unreadable)"));
    // What Git says of b.txt is current (it is unstaged now); its content is the last known.
    let ops = repo.delta_ops("snapshot-000001");
    assert_eq!(op_on(&ops, "file:a.txt")["op"], "file.content_changed");
    let b = op_on(&ops, "file:b.txt");
    assert_eq!(b["op"], "file.state_changed", "{b:#}");
    assert!(b["after"].get("digest").is_none(), "{b:#}");

    // Status does not call the snapshot fresh, and does not ask for a refresh that could not
    // settle anything either.
    let st: StatusOutput = run_env(&repo, &["status"], env).typed();
    assert_eq!(st.freshness, Freshness::PossiblyStale, "{st:#?}");
    assert_eq!(st.faults, [fault("b.txt", FaultKind::Unreadable)]);
    assert!(
        st.reasons.iter().any(|r| r.contains("file_faults")),
        "{st:#?}"
    );

    // The cue is served (no refresh: nothing would change) with the caveat and the paths.
    let cue = run_env(&repo, &["cue", "--view", "structure", "--provenance"], env).json();
    assert_eq!(cue["snapshot"], "snapshot-000002");
    assert_eq!(cue["freshness"], "possibly-stale");
    assert_eq!(fault_count(&cue), 1);
    assert_eq!(cue["provenance"]["faults"][0]["path"], "b.txt");
    assert_eq!(cue["provenance"]["faults"][0]["kind"], "unreadable");

    // The next refresh reads b.txt again though nothing about it looks changed; it is still
    // unreadable, so nothing new is published.
    let again: RefreshOutput = run_env(&repo, &["refresh"], env).typed();
    assert_eq!(
        again.files_scanned, 1,
        "only the faulted file is read again"
    );
    assert!(!again.published);
    assert_eq!(again.faults.len(), 1);

    (broken.fix)(&repo);
    // Once it can be read, a refresh can settle it: reads refresh on their own.
    let st = repo.status();
    assert_eq!(st.freshness, Freshness::RefreshNeeded, "{st:#?}");
    let cue = repo.cue("manifest", &[]);
    assert_eq!(cue["snapshot"], "snapshot-000003");
    assert_eq!(cue["freshness"], "dirty-but-indexed");
    assert!(warning(&cue, "file_faults").is_none(), "{cue:#}");
    assert!(warning(&cue, "refreshed").is_some(), "{cue:#}");
    assert!(cue["provenance"].get("faults").is_none(), "{cue:#}");
    let ops = repo.delta_ops("snapshot-000002");
    assert_eq!(
        op_pairs(&ops),
        [("file.content_changed".into(), "file:b.txt".into())]
    );
    let st = repo.status();
    assert_eq!(st.freshness, Freshness::DirtyButIndexed);
    assert!(st.faults.is_empty());
}

#[test]
fn unreadable_file_is_a_fault_not_a_failed_refresh() {
    unreadable_file_scenario(Breakage {
        env: vec![("REPOCUE_TEST_UNREADABLE", "b.txt")],
        fix: |_| {},
    });
}

#[test]
fn permission_denied_is_a_fault_not_a_failed_refresh() {
    let fix: fn(&TestRepo) = |repo| {
        std::fs::set_permissions(repo.path("b.txt"), std::fs::Permissions::from_mode(0o644))
            .unwrap()
    };
    if !running_as_root() {
        return unreadable_file_scenario(Breakage { env: vec![], fix });
    }
    // Root reads through any permission bits: the same edit is an ordinary refresh.
    let repo = TestRepo::with_files(&[("a.txt", "one\n"), ("b.txt", "two\n")]);
    repo.init();
    repo.write("b.txt", "two, edited\n");
    std::fs::set_permissions(repo.path("b.txt"), std::fs::Permissions::from_mode(0o000)).unwrap();
    let r = repo.refresh();
    assert!(r.faults.is_empty(), "{r:#?}");
    assert_eq!(r.changes.content_changed, 1);
    assert_eq!(repo.status().freshness, Freshness::DirtyButIndexed);
}

#[test]
fn an_unreadable_file_in_a_baseline_is_recorded_as_unreadable() {
    let repo = TestRepo::with_files(&[("a.txt", "one\n"), ("b.txt", "two\n")]);
    let env = [("REPOCUE_TEST_UNREADABLE", "b.txt")];
    let r: RefreshOutput = run_env(&repo, &["init"], &env).typed();
    assert_eq!(r.faults, [fault("b.txt", FaultKind::Unreadable)]);
    assert_eq!(r.tracked_files, 2);
    let cue = run_env(&repo, &["cue", "--view", "manifest"], &env).json();
    assert_eq!(cue["freshness"], "possibly-stale");
    assert_eq!(fault_count(&cue), 1);
    // Readable again: the next read refreshes, and the path gets its real content. Nothing
    // was known of it before: no digest, no size, the `unreadable` type.
    let cue = repo.cue("manifest", &[]);
    assert_eq!(cue["freshness"], "current", "{cue:#}");
    let ops = repo.delta_ops("snapshot-000001");
    let b = op_on(&ops, "file:b.txt");
    assert_eq!(b["op"], "file.content_changed", "{b:#}");
    assert_eq!(b["before"]["type"], "unreadable", "{b:#}");
    assert_eq!(b["after"]["type"], "text", "{b:#}");
    assert_eq!(b["before"]["digest"], Value::Null, "{b:#}");
}

#[test]
fn a_parse_that_times_out_is_retried_never_stored() {
    let source: String = (0..200)
        .map(|i| format!("pub fn alpha_{i}(x: u32) -> u32 {{ x + {i} }}\n"))
        .collect();
    let repo = TestRepo::with_files(&[("src/lib.rs", source.as_str()), ("README.md", "# Demo\n")]);
    let env = [("REPOCUE_TEST_PARSE_TIMEOUT_MS", "0")];
    let r: RefreshOutput = run_env(&repo, &["init"], &env).typed();
    assert_eq!(r.faults, [fault("src/lib.rs", FaultKind::TimedOut)]);
    assert_eq!(r.freshness, Freshness::PossiblyStale);
    let search = |env: &[(&str, &str)]| {
        run_env(
            &repo,
            &["search", "alpha_7", "--scope", "code", "--no-refresh"],
            env,
        )
        .json()
    };
    let hits = search(&env);
    assert_eq!(
        hits["content"]["hits"].as_array().unwrap().len(),
        0,
        "{hits:#}"
    );
    assert_eq!(fault_count(&hits), 1);
    let overview_symbols = |env: &[(&str, &str)]| -> String {
        let v = run_env(
            &repo,
            &[
                "cue",
                "--view",
                "overview",
                "--max-tokens",
                "2000",
                "--no-refresh",
            ],
            env,
        )
        .json();
        v["content"]["symbols"].to_string()
    };
    // The overview of the faulted snapshot, cached with it, knows no symbol of the file.
    assert!(!overview_symbols(&env).contains("alpha_"));
    // A time-out says nothing about the content: a read does not refresh for it (it would
    // pay the parse again on every read), the next refresh does.
    let st: StatusOutput = repo.status();
    assert_eq!(st.freshness, Freshness::PossiblyStale, "{st:#?}");
    let r = repo.refresh();
    assert!(r.published, "the faults changed");
    assert!(r.faults.is_empty());
    assert_eq!(r.files_scanned, 1);
    assert_eq!(r.files_analyzed, 1);
    assert_eq!(r.freshness, Freshness::Current);
    let hits = search(&[]);
    let found = hits["content"]["hits"].as_array().unwrap();
    assert!(
        found.iter().any(|h| h["id"] == "symbol:src/lib.rs:alpha_7"),
        "{hits:#}"
    );
    assert_eq!(repo.status().freshness, Freshness::Current);
    // The file's row did not change, its facts did: the overview is derived again, not
    // carried over from the faulted snapshot.
    assert!(overview_symbols(&[]).contains("alpha_"));
}

/// A first read on a repository too large to analyze within its budget answers from the most
/// useful files (the project's own code before its tests), says the rest is deferred and is
/// not `current`; each later read carries the analysis on (at least a batch of files however
/// short the budget) until none is left; an explicit refresh finishes it at once.
#[test]
fn a_read_defers_what_its_budget_cannot_analyze_and_later_reads_finish_it() {
    let mut files: Vec<(String, String)> = (0..150)
        .map(|i| {
            (
                format!("tests/deep/t{i:03}.rs"),
                format!("pub fn check_{i}() {{}}\n"),
            )
        })
        .collect();
    files.push(("lib.rs".into(), "pub fn central_api() {}\n".into()));
    let repo = TestRepo::with_files(&files);
    let no_budget = [("REPOCUE_TEST_ANALYSIS_BUDGET_MS", "0")];
    let overview = |repo: &TestRepo, env: &[(&str, &str)]| {
        run_env(
            repo,
            &["cue", "--view", "overview", "--max-tokens", "2000"],
            env,
        )
        .json()
    };
    let first = overview(&repo, &no_budget);
    assert_ne!(first["freshness"], "current", "{first:#}");
    // One batch of 64 is analyzed, the root library first.
    assert_eq!(fault_count(&first), 151 - 64, "{first:#}");
    let detail = warning(&first, "file_faults").unwrap()["detail"].to_string();
    assert!(detail.contains("not analyzed yet"), "{detail}");
    assert!(
        first["content"]["symbols"]
            .to_string()
            .contains("central_api"),
        "{first:#}"
    );
    let st: StatusOutput = repo.status();
    assert_eq!(st.freshness, Freshness::RefreshNeeded, "{st:#?}");
    // Honestly so: no path changed, the analysis is unfinished; and the paths are listed
    // within a bound (a first read of a large repository defers thousands).
    assert!(st.changed_since_snapshot.is_empty(), "{st:#?}");
    assert_eq!(
        st.reasons,
        ["analysis of 87 files deferred; the next refresh continues it"]
    );
    assert_eq!(st.faults.len(), 20, "{st:#?}");
    let listed: Vec<&str> = st.faults.iter().map(|f| f.path.as_str()).collect();
    let mut sorted = listed.clone();
    sorted.sort_unstable();
    assert_eq!(listed, sorted);
    let counted = st
        .warnings
        .iter()
        .find(|w| w.code == WarningCode::FileFaults);
    assert_eq!(counted.and_then(|w| w.count), Some(151 - 64), "{st:#?}");
    // No path changed: the warning counts none (it said `refresh_needed 0`).
    let needed = st
        .warnings
        .iter()
        .find(|w| w.code == WarningCode::RefreshNeeded);
    assert_eq!(needed.map(|w| w.count), Some(None), "{st:#?}");
    // A manifest, whose provenance is required, still fits its budget: deferred analysis is
    // counted in the warning, not listed as the files' faults.
    let manifest = run_env(
        &repo,
        &[
            "cue",
            "--view",
            "manifest",
            "--no-refresh",
            "--max-tokens",
            "300",
        ],
        &[],
    )
    .json();
    assert!(manifest["provenance"].is_object(), "{manifest:#}");
    assert!(
        manifest["provenance"].get("faults").is_none(),
        "{manifest:#}"
    );
    // The next read analyzes another batch, the one after the rest; nothing was stale.
    let second = overview(&repo, &no_budget);
    assert_eq!(fault_count(&second), 151 - 128);
    let refreshed = warning(&second, "refreshed").unwrap()["detail"].to_string();
    assert!(
        refreshed.contains("analysis an earlier read deferred continued")
            && !refreshed.contains("stale"),
        "{refreshed}"
    );
    let third = overview(&repo, &no_budget);
    assert!(warning(&third, "file_faults").is_none(), "{third:#}");
    assert_eq!(third["freshness"], "current", "{third:#}");
    let hits = run_env(&repo, &["search", "check_149", "--no-refresh"], &[]).json();
    assert!(
        hits["content"]["hits"]
            .to_string()
            .contains("symbol:tests/deep/t149.rs"),
        "{hits:#}"
    );

    // An explicit refresh (or init) has no budget: one finishes whatever a read deferred.
    let repo = TestRepo::with_files(&files);
    assert_eq!(fault_count(&overview(&repo, &no_budget)), 151 - 64);
    let r: RefreshOutput = run_env(&repo, &["refresh"], &no_budget).typed();
    assert!(r.faults.is_empty(), "{r:#?}");
    assert_eq!(r.files_analyzed, 151 - 64);
    assert_eq!(r.freshness, Freshness::Current);
}

/// A delta over files whose new content a read deferred names their paths but no symbol
/// operation of theirs: their symbols are unknown, not removed. Asked again once the analysis
/// is done, the same delta has every signature change.
#[test]
fn a_delta_reports_no_symbol_of_a_deferred_file_as_removed() {
    let files: Vec<(String, String)> = (0..100)
        .map(|i| {
            (
                format!("src/m{i:03}.py"),
                format!("def f{i}(a):\n    return a\n"),
            )
        })
        .collect();
    let repo = TestRepo::with_files(&files);
    repo.init();
    for (path, _) in &files {
        let text = std::fs::read_to_string(repo.path(path)).unwrap();
        repo.write(path, text.replace("(a)", "(a, b=None)"));
    }
    let delta = |env: &[(&str, &str)]| {
        let args = ["cue", "--since", "snapshot-000001", "--max-tokens", "20000"];
        run_env(&repo, &args, env).json()
    };
    let ops = |cue: &Value| -> Vec<(String, String)> {
        let mut ops = Vec::new();
        for p in cue["content"]["paths"].as_array().unwrap() {
            for c in p["changes"].as_array().into_iter().flatten() {
                let op = c["op"].as_str().unwrap().to_owned();
                ops.push((p["path"].as_str().unwrap().to_owned(), op));
            }
        }
        ops
    };
    let first = delta(&[("REPOCUE_TEST_ANALYSIS_BUDGET_MS", "0")]);
    assert_eq!(fault_count(&first), 100 - 64, "{first:#}");
    assert_eq!(first["content"]["totals"]["paths"], 100, "{first:#}");
    let first_ops = ops(&first);
    assert_eq!(first_ops.len(), 64, "{first_ops:?}");
    assert!(
        first_ops
            .iter()
            .all(|(_, op)| op == "symbol.signature_changed"),
        "{first_ops:?}"
    );
    let detail = warning(&first, "file_faults").unwrap()["detail"].to_string();
    assert!(
        detail.contains("ask again with the same arguments"),
        "{detail}"
    );
    repo.refresh();
    let again = delta(&[]);
    assert!(warning(&again, "file_faults").is_none(), "{again:#}");
    let again_ops = ops(&again);
    assert_eq!(again_ops.len(), 100, "{again_ops:?}");
    assert!(again_ops
        .iter()
        .all(|(_, op)| op == "symbol.signature_changed"));
}

/// A document whose analysis a read deferred says so (`not_outlined: deferred`); one read that
/// holds no heading has an empty outline and says nothing.
#[test]
fn a_deferred_document_says_it_is_not_outlined_yet() {
    let files: Vec<(String, String)> = (0..100)
        .map(|i| {
            (
                format!("notes/n{i:03}.md"),
                format!("# Note {i}\n\n## Part\n"),
            )
        })
        .collect();
    let repo = TestRepo::with_files(&files);
    let no_budget = [("REPOCUE_TEST_ANALYSIS_BUDGET_MS", "0")];
    run_env(&repo, &["cue", "--max-tokens", "2000"], &no_budget).json();
    let st: StatusOutput = repo.status();
    let deferred = &st.faults.first().expect("deferred documents").path;
    let args = [
        "cue",
        "--view",
        "document",
        "--no-refresh",
        "--path",
        deferred,
    ];
    let cue = run_env(&repo, &args, &[]).json();
    assert_eq!(cue["content"]["not_outlined"], "deferred", "{cue:#}");
}

/// A parse that kills the process (a fault in a grammar's C code: here an abort the test
/// build injects, `REPOCUE_TEST_CRASH_ON`) fails that refresh, and the next, which parses the
/// suspect alone; then the content is struck out: the refresh after publishes every other
/// file's structure, the struck file's state and none of its symbols. New content of the
/// file is parsed again.
#[test]
fn content_whose_parse_kills_the_process_is_struck_out() {
    use std::os::unix::process::ExitStatusExt;
    let repo = TestRepo::with_files(&[
        ("src/bad.py", "def doomed():\n    return 'CRASH_HERE'\n"),
        ("src/good.py", "def healthy(x):\n    return x\n"),
        (
            "src/gen.py",
            "# Code generated by a tool. DO NOT EDIT.\ndef made():\n    pass\n",
        ),
        ("README.md", "# Demo\n\nA demo.\n"),
    ]);
    let env = [("REPOCUE_TEST_CRASH_ON", "CRASH_HERE")];
    for attempt in 1..=2 {
        let r = run_env(&repo, &["init"], &env);
        assert_eq!(
            r.output.status.signal(),
            Some(6), // SIGABRT
            "attempt {attempt}{}",
            r.describe()
        );
    }
    let r: RefreshOutput = run_env(&repo, &["init"], &env).typed();
    assert!(r.faults.is_empty(), "{:?}", r.faults);
    let structure = |env: &[(&str, &str)]| -> Value {
        let v = run_env(
            &repo,
            &["cue", "--view", "structure", "--max-tokens", "2000"],
            env,
        )
        .json();
        v["content"].clone()
    };
    let names = |env: &[(&str, &str)]| structure(env).to_string();
    let content = structure(&env);
    let listed = content.to_string();
    assert!(listed.contains("healthy"), "{content:#}");
    assert!(!listed.contains("doomed"), "{content:#}");
    // The structure says which code files it could not outline, and why.
    assert_eq!(
        content["not_outlined"],
        serde_json::json!({"crashed": 1, "generated": 1}),
        "{content:#}"
    );
    assert_eq!(content["code_files"], 1, "{content:#}");
    // Its state is recorded all the same, and current.
    let v = run_env(
        &repo,
        &["cue", "--view", "overview", "--max-tokens", "4000"],
        &env,
    )
    .json();
    assert_eq!(v["content"]["totals"]["files"], 4, "{v:#}");
    assert_eq!(v["freshness"], "current", "{v:#}");
    repo.write("src/bad.py", "def mended():\n    return 1\n");
    let listed = names(&env);
    assert!(listed.contains("mended"), "{listed}");
    assert!(!listed.contains("crashed"), "{listed}");
}
