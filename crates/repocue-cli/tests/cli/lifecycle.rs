//! Lifecycle cases: document staleness over history, checkpoints, pruning, Git hooks and the
//! watcher (docs/cues.md, docs/state.md).

use std::io::{BufRead, BufReader};
use std::os::unix::fs::PermissionsExt;
use std::process::Child;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use repocue::api::Freshness;
use repocue::api::{CheckpointOutput, PruneOutput};
use repocue::HooksOutput;
use serde_json::{json, Value};

use crate::support::{TestRepo, BIN};

fn document(repo: &TestRepo, path: &str) -> Value {
    repo.cue("document", &["--path", path, "--max-tokens", "2000"])
}

fn evidence(cue: &Value) -> Vec<String> {
    cue["content"]["evidence"]
        .as_array()
        .expect("evidence")
        .iter()
        .map(|e| e.as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn document_staleness_follows_links_through_history() {
    let repo = TestRepo::with_files(&[
        ("src/lib.rs", "pub fn run() {}\n"),
        (
            "docs/guide.md",
            "# Guide\n\nSee [lib](../src/lib.rs), [gone](../src/missing.rs), \
             [site](https://example.com/x) and [below](#usage).\n\n## Install\n\nText.\n\n\
             ### Details\n\nMore.\n\n## Usage\n\nUse it.\n",
        ),
    ]);
    let cue = document(&repo, "docs/guide.md");
    let c = &cue["content"];
    assert_eq!(c["path"], "docs/guide.md");
    assert_eq!(c["title"], "Guide");
    assert_eq!(c["staleness"], "stale-confirmed", "{cue:#}");
    let ev = evidence(&cue);
    assert!(
        !ev.is_empty() && ev.iter().all(|e| e.contains("src/missing.rs")),
        "{ev:?}"
    );
    assert_eq!(
        c["outline"],
        json!([
            {"id": "doc:docs/guide.md#guide", "level": 1, "text": "Guide", "line": 1},
            {"id": "doc:docs/guide.md#install", "level": 2, "text": "Install", "line": 5},
            {"id": "doc:docs/guide.md#details", "level": 3, "text": "Details", "line": 9},
            {"id": "doc:docs/guide.md#usage", "level": 2, "text": "Usage", "line": 13},
        ])
    );
    assert_eq!(
        c["links"],
        json!([
            {"target": "../src/lib.rs", "kind": "file", "path": "src/lib.rs", "exists": true},
            {"target": "../src/missing.rs", "kind": "file", "path": "src/missing.rs",
             "exists": false},
            {"target": "https://example.com/x", "kind": "url"},
            {"target": "#usage", "kind": "anchor"},
        ])
    );

    // The missing file appears: no longer confirmed stale (it is newer than the document).
    repo.write("src/missing.rs", "pub fn back() {}\n");
    repo.commit("add the missing file");
    let cue = document(&repo, "docs/guide.md");
    assert_ne!(cue["content"]["staleness"], "stale-confirmed", "{cue:#}");
    assert!(!evidence(&cue).is_empty(), "{cue:#}");

    // The document is revised after everything it links to: current.
    let text = String::from_utf8(repo.read("docs/guide.md")).unwrap();
    repo.write("docs/guide.md", text.replace("Use it.", "Use it daily."));
    repo.commit("docs: revise");
    let cue = document(&repo, "docs/guide.md");
    assert_eq!(cue["content"]["staleness"], "current", "{cue:#}");
    assert!(!evidence(&cue).is_empty(), "{cue:#}");
    let revised = cue["content"]["last_changed"].clone();
    assert_eq!(revised, cue["snapshot"]);

    // A linked source file changes after the document: possibly stale, naming it.
    repo.write("src/lib.rs", "pub fn run() {}\npub fn more() {}\n");
    repo.commit("lib: more");
    let cue = document(&repo, "docs/guide.md");
    assert_eq!(cue["content"]["staleness"], "possibly-stale", "{cue:#}");
    assert_eq!(cue["content"]["last_changed"], revised);
    let ev = evidence(&cue);
    assert!(ev.iter().any(|e| e.contains("src/lib.rs")), "{ev:?}");
    assert!(ev.iter().all(|e| !e.contains("src/missing.rs")), "{ev:?}");

    repo.repocue(&["cue", "--view", "document", "--path", "src/lib.rs"])
        .error_code("invalid_argument");
    let e = repo
        .repocue(&["cue", "--view", "document", "--path", "docs/nope.md"])
        .error_code("not_found");
    assert!(e.error.message.contains("docs/nope.md"), "{e:?}");
    repo.repocue(&["cue", "--view", "document"])
        .error_code("invalid_argument");
}

#[test]
fn document_headings_keep_identifiers() {
    let repo = TestRepo::with_files(&[(
        "guide.md",
        "# The `max_tokens` option\n\n## parse_config and snake_case\n\n## Vec<T> usage\n",
    )]);
    let cue = document(&repo, "guide.md");
    let texts: Vec<&str> = cue["content"]["outline"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["text"].as_str().unwrap())
        .collect();
    assert_eq!(
        texts,
        [
            "The max_tokens option",
            "parse_config and snake_case",
            "Vec<T> usage"
        ],
        "{cue:#}"
    );
    assert_eq!(cue["content"]["title"], "The max_tokens option");
}

fn checkpoint(repo: &TestRepo, args: &[&str]) -> CheckpointOutput {
    let mut all = vec!["checkpoint"];
    all.extend_from_slice(args);
    repo.repocue(&all).typed()
}

#[test]
fn checkpoints_pin_list_and_delete() {
    let repo = TestRepo::with_files(&[("a.txt", "one\n")]);
    repo.repocue(&["checkpoint", "list"])
        .error_code("not_initialized");
    repo.init();
    repo.write("a.txt", "two\n");
    assert_eq!(repo.refresh().snapshot, "snapshot-000002");

    let pinned = checkpoint(&repo, &["pin", "--label", "release:1.0"]);
    assert_eq!(pinned.schema_version, "repocue/checkpoint-1");
    assert_eq!(pinned.action, "pin");
    let cp = pinned.checkpoint.clone().expect("the pinned checkpoint");
    assert_eq!(
        (cp.id.as_str(), cp.snapshot.as_str(), cp.label.as_str()),
        ("checkpoint-000001", "snapshot-000002", "release:1.0")
    );
    assert!(!cp.created_at.is_empty());
    assert_eq!(pinned.checkpoints, vec![cp.clone()]);

    let base = checkpoint(
        &repo,
        &["pin", "--label", "base", "--snapshot", "snapshot-000001"],
    );
    let base_cp = base.checkpoint.expect("pinned");
    assert_eq!(base_cp.id, "checkpoint-000002");
    assert_eq!(base_cp.snapshot, "snapshot-000001");

    let list = checkpoint(&repo, &["list"]);
    assert_eq!(list.action, "list");
    assert!(list.checkpoint.is_none());
    assert_eq!(list.checkpoints, vec![cp.clone(), base_cp.clone()]);

    let deleted = checkpoint(&repo, &["delete", "checkpoint-000001"]);
    assert_eq!(deleted.action, "delete");
    assert_eq!(deleted.checkpoint, Some(cp));
    assert_eq!(deleted.checkpoints, vec![base_cp.clone()]);
    assert_eq!(checkpoint(&repo, &["list"]).checkpoints, vec![base_cp]);

    for (args, code) in [
        (vec!["delete", "checkpoint-000001"], "not_found"),
        (vec!["delete", "checkpoint-000099"], "not_found"),
        (vec!["delete", "nope"], "invalid_argument"),
        (vec!["delete", "snapshot-000001"], "invalid_argument"),
        (
            vec!["pin", "--label", "x", "--snapshot", "snapshot-000099"],
            "not_found",
        ),
        (
            vec!["pin", "--label", "x", "--snapshot", "yesterday"],
            "invalid_argument",
        ),
        (vec!["pin", "--label", " "], "invalid_argument"),
    ] {
        let mut all = vec!["checkpoint"];
        all.extend(args);
        repo.repocue(&all).error_code(code);
    }
    assert_eq!(checkpoint(&repo, &["list"]).checkpoints.len(), 1);
}

fn snapshot(n: u32) -> String {
    format!("snapshot-{n:06}")
}

fn delta_since(repo: &TestRepo, since: &str) -> crate::support::Ran {
    repo.repocue(&[
        "cue",
        "--view",
        "delta",
        "--since",
        since,
        "--max-tokens",
        "2000",
        "--no-refresh",
    ])
}

#[test]
fn prune_removes_what_it_reports_and_keeps_checkpoints() {
    let repo = TestRepo::with_files(&[("f.py", "def f0():\n    return 0\n")]);
    repo.init();
    for i in 1..=7 {
        repo.write("f.py", format!("def f{i}():\n    return {i}\n"));
        assert_eq!(repo.refresh().snapshot, snapshot(i + 1));
    }
    checkpoint(
        &repo,
        &["pin", "--label", "old", "--snapshot", "snapshot-000002"],
    );
    let all: Vec<String> = (1..=8).map(snapshot).collect();
    assert_eq!(repo.metrics().snapshots, all);

    let dry: PruneOutput = repo.repocue(&["prune", "--dry-run", "--keep", "2"]).typed();
    assert!(dry.dry_run);
    assert_eq!(dry.keep_recent, 2);
    let removed: Vec<String> = (3..=6).map(snapshot).collect();
    assert_eq!(dry.removed, removed, "{dry:?}");
    assert_eq!(dry.kept, [1, 2, 7, 8].map(snapshot), "{dry:?}");
    assert!(
        dry.file_versions_removed > 0 && dry.deltas_removed > 0,
        "{dry:?}"
    );
    assert!(dry.database_bytes > 0);
    // Nothing was deleted.
    assert_eq!(repo.metrics().snapshots, all);
    for s in &removed {
        delta_since(&repo, s).success();
    }

    let done: PruneOutput = repo.repocue(&["prune", "--keep", "2"]).typed();
    assert!(!done.dry_run);
    assert_eq!(done.removed, dry.removed);
    assert_eq!(done.kept, dry.kept);
    assert_eq!(
        (
            done.file_versions_removed,
            done.deltas_removed,
            done.facts_removed
        ),
        (
            dry.file_versions_removed,
            dry.deltas_removed,
            dry.facts_removed
        ),
        "a dry run reports exactly what a prune removes"
    );
    let m = repo.metrics();
    assert_eq!(m.snapshots, done.kept);
    assert_eq!(m.current_snapshot.as_deref(), Some("snapshot-000008"));
    assert!(m.database_bytes > 0);

    // The pinned snapshot survives and still works as --since; removed ones are not_found.
    let cue = delta_since(&repo, "snapshot-000002").json();
    assert_eq!(cue["content"]["from"], "snapshot-000002");
    assert_eq!(cue["content"]["to"], "snapshot-000008");
    assert_eq!(
        cue["content"]["paths"][0]["op"], "file.content_changed",
        "{cue:#}"
    );
    assert_eq!(cue["content"]["totals"]["paths"], 1, "{cue:#}");
    for s in &removed {
        let e = delta_since(&repo, s).error_code("not_found");
        assert!(e.error.message.contains(s.as_str()), "{e:?}");
    }
    let st = repo.status();
    assert_eq!(st.snapshot.as_deref(), Some("snapshot-000008"));
    assert_eq!(st.freshness, Freshness::DirtyButIndexed);
    // Default delta (parent 7 was kept) and a later refresh still work.
    repo.cue("delta", &["--no-refresh"]);
    let again: PruneOutput = repo.repocue(&["prune", "--keep", "2"]).typed();
    assert!(again.removed.is_empty(), "{again:?}");
    repo.write("f.py", "def f8():\n    return 8\n");
    let r = repo.refresh();
    assert_eq!(r.snapshot, "snapshot-000009");
    assert_eq!(r.previous_snapshot.as_deref(), Some("snapshot-000008"));

    // Without its checkpoint, the old snapshot goes at the next prune.
    checkpoint(&repo, &["delete", "checkpoint-000001"]);
    let last: PruneOutput = repo.repocue(&["prune", "--keep", "2"]).typed();
    assert!(last.removed.contains(&snapshot(2)), "{last:?}");
    delta_since(&repo, "snapshot-000002").error_code("not_found");
    assert_eq!(repo.metrics().snapshots, last.kept);
}

/// Removes a spawned process on drop, so a failing test never leaves it running.
struct Reaped(Option<Child>);

impl Drop for Reaped {
    fn drop(&mut self) {
        if let Some(c) = self.0.as_mut() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

#[test]
fn hooks_chain_an_existing_hook_and_refresh_after_a_commit() {
    let repo = TestRepo::with_files(&[("a.txt", "one\n")]);
    let first = repo.init();
    let log = repo.outside().join("hook.log");
    let original = format!(
        "#!/bin/sh\necho \"old hook ran with $# arguments\" >> '{}'\n",
        log.display()
    );
    let hook = repo.path(".git/hooks/post-commit");
    crate::support::write_executable(&hook, original.as_bytes());

    let installed: HooksOutput = repo.repocue(&["hooks", "install"]).typed();
    assert_eq!(installed.schema_version, "repocue/hooks-1");
    assert_eq!(
        std::path::Path::new(&installed.hooks_dir),
        repo.path(".git/hooks")
    );
    let actions: Vec<(&str, &str)> = installed
        .hooks
        .iter()
        .map(|h| (h.hook.as_str(), h.action.as_str()))
        .collect();
    assert_eq!(
        actions,
        [
            ("post-commit", "installed-chained"),
            ("post-checkout", "installed"),
            ("post-merge", "installed"),
            ("post-rewrite", "installed"),
        ]
    );
    let again: HooksOutput = repo.repocue(&["hooks", "install"]).typed();
    assert!(
        again.hooks.iter().all(|h| h.action == "already-installed"),
        "{again:?}"
    );

    // The hook runs `repocue` from PATH: make that the binary under test. It refreshes the
    // cache `hooks install` was given (`--cache-dir`), whatever the environment names: the
    // default cache of a shell without the flag was refreshed instead.
    let bin = repo.tmp().join("bin");
    std::fs::create_dir(&bin).unwrap();
    std::os::unix::fs::symlink(BIN, bin.join("repocue")).unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    repo.write("a.txt", "two\n");
    repo.git(&["add", "-A"]);
    let out = repo
        .git_command()
        .args(["commit", "-q", "-m", "hooked"])
        .env("REPOCUE_CACHE_DIR", repo.outside().join("another-cache"))
        .env("PATH", &path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let head = repo.head();
    assert_eq!(
        std::fs::read_to_string(&log).unwrap(),
        "old hook ran with 0 arguments\n",
        "the chained hook ran once"
    );

    // The refresh runs in the background: poll for it.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let st = repo.status();
        if st.snapshot != Some(first.snapshot.clone()) && st.freshness == Freshness::Current {
            assert_eq!(st.repository.head.as_deref(), Some(head.as_str()));
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the hook did not refresh the cache within 10 s: {st:?}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let stored = repo.cue("manifest", &["--no-refresh"]);
    assert_eq!(stored["provenance"]["head"], head.as_str());
    assert_eq!(stored["head"], head[..10]);
    // Let the background refresh finish recording before the directory goes away.
    let deadline = Instant::now() + Duration::from_secs(5);
    while repo.metrics().operations_total < 2 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }

    let removed: HooksOutput = repo.repocue(&["hooks", "uninstall"]).typed();
    let actions: Vec<(&str, &str)> = removed
        .hooks
        .iter()
        .map(|h| (h.hook.as_str(), h.action.as_str()))
        .collect();
    assert_eq!(
        actions,
        [
            ("post-commit", "restored"),
            ("post-checkout", "removed"),
            ("post-merge", "removed"),
            ("post-rewrite", "removed"),
        ]
    );
    assert_eq!(std::fs::read_to_string(&hook).unwrap(), original);
    let mode = std::fs::metadata(&hook).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o755);
    assert!(!repo.path(".git/hooks/post-commit.repocue-chained").exists());
    for h in ["post-checkout", "post-merge", "post-rewrite"] {
        assert!(!repo.path(format!(".git/hooks/{h}")).exists(), "{h}");
    }
    let twice: HooksOutput = repo.repocue(&["hooks", "uninstall"]).typed();
    assert!(twice.hooks.iter().all(|h| h.action == "not-installed"));
}

/// A hook install that would have to replace a file changes nothing at all (the hooks before
/// the conflicting one were installed, and the command failed as a usage error), and an
/// uninstall leaves a hook alone that changed since RepoCue wrote it (a user's line in it was
/// deleted with the file).
#[test]
fn hooks_never_half_install_nor_remove_what_they_did_not_write() {
    let repo = TestRepo::with_files(&[("a.txt", "one\n")]);
    let hooks = repo.path(".git/hooks");
    std::fs::create_dir_all(&hooks).unwrap();
    crate::support::write_executable(&hooks.join("post-rewrite"), b"#!/bin/sh\necho mine\n");
    crate::support::write_executable(
        &hooks.join("post-rewrite.repocue-chained"),
        b"#!/bin/sh\necho leftover\n",
    );
    let listing = || {
        let mut names: Vec<String> = std::fs::read_dir(&hooks)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    };
    let before = listing();
    let err = repo
        .repocue(&["hooks", "install"])
        .error_code("hook_conflict");
    assert!(err.error.message.contains("post-rewrite"), "{err:?}");
    assert_eq!(listing(), before, "nothing installed");

    std::fs::remove_file(hooks.join("post-rewrite.repocue-chained")).unwrap();
    repo.repocue(&["hooks", "install"]).success();
    let edited = hooks.join("post-commit");
    let mut text = std::fs::read(&edited).unwrap();
    text.extend_from_slice(b"echo notify-ci\n");
    std::fs::write(&edited, &text).unwrap();
    repo.repocue(&["hooks", "uninstall"])
        .error_code("hook_conflict");
    assert_eq!(
        std::fs::read(&edited).unwrap(),
        text,
        "the edited hook is kept"
    );
    assert!(hooks.join("post-merge").exists(), "nothing removed");
    // Once the user's line is gone, it is RepoCue's again.
    text.truncate(text.len() - b"echo notify-ci\n".len());
    std::fs::write(&edited, &text).unwrap();
    let removed: HooksOutput = repo.repocue(&["hooks", "uninstall"]).typed();
    assert_eq!(removed.hooks[0].action, "removed", "{removed:?}");
    assert_eq!(
        std::fs::read(hooks.join("post-rewrite")).unwrap(),
        b"#!/bin/sh\necho mine\n"
    );
}

/// Starts `repocue watch` and returns it with a channel of its stdout lines.
fn watch(repo: &TestRepo) -> (Reaped, Receiver<String>) {
    watching(repo.spawn(&["watch", "--debounce-ms", "200", "--max-refreshes", "1"]))
}

/// A started watcher with a channel of its stdout lines.
fn watching(mut child: Child) -> (Reaped, Receiver<String>) {
    let stdout = child.stdout.take().expect("piped stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    (Reaped(Some(child)), rx)
}

/// Edits `path` until the watcher prints a line (an edit in the instant after `ready` can be
/// lost); returns the line.
fn edit_until_refreshed(repo: &TestRepo, path: &str, lines: &Receiver<String>) -> String {
    let deadline = Instant::now() + Duration::from_secs(15);
    let mut n = 0;
    loop {
        n += 1;
        repo.write(path, format!("edit {n}\n"));
        match lines.recv_timeout(Duration::from_millis(1000)) {
            Ok(line) => return line,
            Err(RecvTimeoutError::Timeout) if Instant::now() < deadline => continue,
            Err(e) => panic!("no refresh within 15 s: {e}"),
        }
    }
}

fn event(line: &str) -> Value {
    serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"))
}

/// Waits for the watcher to exit by itself; returns its exit code.
fn exit_code(mut proc: Reaped) -> Option<i32> {
    let child = proc.0.as_mut().expect("running");
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        if let Some(status) = child.try_wait().expect("try_wait") {
            return status.code();
        }
        assert!(Instant::now() < deadline, "watch did not exit");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn watch_refreshes_after_an_edit() {
    let repo = TestRepo::with_files(&[("a.txt", "one\n"), ("src/b.txt", "two\n")]);
    // Zero refreshes is no stopping point: it ran until killed, or stopped after one.
    repo.repocue(&["watch", "--max-refreshes", "0"])
        .error_code("invalid_argument");
    let (proc, lines) = watch(&repo);
    let ready = lines
        .recv_timeout(Duration::from_secs(15))
        .expect("a ready line");
    let ready = event(&ready);
    assert_eq!(ready["event"], "ready", "{ready}");
    assert_eq!(ready["snapshot"], "snapshot-000001");
    assert_eq!(ready["debounce_ms"], 200);

    // Edits are repeated until one is seen: an edit in the instant after `ready` can be lost
    // (see watch_sees_an_edit_made_right_after_ready).
    let line = edit_until_refreshed(&repo, "src/b.txt", &lines);
    let refreshed = event(&line);
    assert_eq!(refreshed["event"], "refreshed", "{refreshed}");
    assert_eq!(refreshed["published"], true, "{refreshed}");
    assert_eq!(refreshed["snapshot"], "snapshot-000002", "{refreshed}");
    assert_eq!(refreshed["freshness"], "dirty-but-indexed", "{refreshed}");
    let lag = refreshed["lag_ms"].as_f64().expect("numeric lag_ms");
    assert!((0.0..15_000.0).contains(&lag), "{refreshed}");
    assert!(refreshed["refresh_ms"].is_number(), "{refreshed}");
    assert_eq!(exit_code(proc), Some(0));
    assert_eq!(
        repo.metrics().current_snapshot.as_deref(),
        Some("snapshot-000002")
    );
}

/// A cache kept in the work tree (`--cache-dir .cache`) is no part of the repository: its
/// files are no untracked paths (a clean repository stays `current`, cue after cue, without a
/// refresh), and the watcher is not woken by the cache's own writes.
#[test]
fn a_cache_in_the_work_tree_is_no_part_of_the_repository() {
    let repo = TestRepo::with_files(&[("a.txt", "one\n")]);
    let with = |extra: &[&str]| -> Vec<String> {
        ["--cache-dir", ".cache"]
            .iter()
            .chain(extra)
            .map(|s| s.to_string())
            .collect()
    };
    for i in 0..3 {
        let cue = repo
            .repocue_bare(&with(&["cue", "--max-tokens", "500"]))
            .json();
        assert_eq!(cue["freshness"], "current", "{cue:#}");
        assert!(cue["content"].get("working_tree").is_none(), "{cue:#}");
        let refreshed = crate::support::warning_codes(&cue).contains(&"refreshed".to_owned());
        assert!(!refreshed, "cue {i} refreshed: {cue:#}");
    }
    let mut cmd = repo.bare_command();
    cmd.args(with(&[
        "watch",
        "--debounce-ms",
        "200",
        "--max-refreshes",
        "1",
    ]))
    .stdout(std::process::Stdio::piped())
    .stderr(std::process::Stdio::piped());
    let (proc, lines) = watching(cmd.spawn().expect("spawn watch"));
    let ready = lines.recv_timeout(Duration::from_secs(15)).expect("ready");
    assert_eq!(event(&ready)["event"], "ready", "{ready}");
    // Its own writes (the ready line's refresh) wake nothing.
    match lines.recv_timeout(Duration::from_millis(1500)) {
        Err(RecvTimeoutError::Timeout) => {}
        other => panic!("the watcher refreshed without an edit: {other:?}"),
    }
    let line = edit_until_refreshed(&repo, "a.txt", &lines);
    assert_eq!(event(&line)["published"], true, "{line}");
    assert_eq!(exit_code(proc), Some(0));
}

#[test]
fn watch_sees_an_edit_made_right_after_ready() {
    for _ in 0..3 {
        let repo = TestRepo::with_files(&[("d/target/f.txt", "one\n")]);
        let (proc, lines) = watch(&repo);
        let ready = lines
            .recv_timeout(Duration::from_secs(15))
            .expect("a ready line");
        assert_eq!(event(&ready)["event"], "ready");
        repo.write("d/target/f.txt", "edited\n");
        let line = lines
            .recv_timeout(Duration::from_secs(8))
            .expect("the edit made right after `ready` was never refreshed");
        assert_eq!(event(&line)["published"], true, "{line}");
        assert_eq!(exit_code(proc), Some(0));
    }
}

/// A hook installed in a repository that was never initialised, by a binary whose path holds
/// a `'` and other shell metacharacters: the path survives quoting (no `repocue` on `PATH`
/// to fall back to) and the first commit records the baseline.
#[test]
fn hooks_quote_any_binary_path_and_initialise_a_new_repository() {
    let repo = TestRepo::with_files(&[("a.txt", "one\n")]);
    let dir = repo.tmp().join("it's \"odd\" $HOME `x`");
    std::fs::create_dir(&dir).unwrap();
    let exe = dir.join("repocue");
    crate::support::copy_executable(std::path::Path::new(BIN), &exe);

    let mut cmd = std::process::Command::new(&exe);
    repo.hermetic(&mut cmd);
    cmd.current_dir(repo.root())
        .arg("--repository")
        .arg(repo.root())
        .arg("--cache-dir")
        .arg(repo.cache_dir())
        .args(["hooks", "install"]);
    let installed: HooksOutput = repo.run(cmd).typed();
    assert!(installed.hooks.iter().all(|h| h.action == "installed"));
    assert!(repo.status().snapshot.is_none(), "not initialised yet");

    // Only Git's own directory on PATH: the hook must use the quoted path.
    let git = std::process::Command::new("sh")
        .args(["-c", "command -v git"])
        .output()
        .unwrap();
    let git_dir = std::path::Path::new(String::from_utf8_lossy(&git.stdout).trim())
        .parent()
        .unwrap()
        .to_owned();
    assert!(!git_dir.join("repocue").exists());
    repo.write("a.txt", "two\n");
    repo.git(&["add", "-A"]);
    let out = repo
        .git_command()
        .args(["commit", "-q", "-m", "hooked"])
        .env("REPOCUE_CACHE_DIR", repo.cache_dir())
        .env("PATH", format!("{}:/usr/bin:/bin", git_dir.display()))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let head = repo.head();
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        // `status` may race the background baseline's first write; retry until it answers.
        let ran = repo.repocue(&["status"]);
        if ran.code() != Some(0) {
            eprintln!("status during the hook's baseline:{}", ran.describe());
            assert!(Instant::now() < deadline, "status kept failing");
            std::thread::sleep(Duration::from_millis(100));
            continue;
        }
        let st: repocue::api::StatusOutput = ran.typed();
        if st.snapshot.is_some() && st.freshness == Freshness::Current {
            assert_eq!(st.repository.head.as_deref(), Some(head.as_str()));
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the hook did not initialise the cache within 20 s: {st:?}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    // Let the background run finish recording before the directory goes away.
    let deadline = Instant::now() + Duration::from_secs(5);
    while repo.metrics().operations_total < 1 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Output that cannot be written (a full disk) is a failure with its JSON error, saying that
/// the command itself completed: `checkpoint pin` to a full stdout exited 1 with nothing on
/// stderr, and its checkpoint existed; a retry pinned a second one.
#[test]
fn output_that_cannot_be_written_is_an_error_that_says_the_command_completed() {
    let repo = TestRepo::with_files(&[("a.txt", "one\n")]);
    repo.init();
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("open /dev/full");
    let out = repo
        .command(&["checkpoint", "pin", "--label", "before"])
        .stdout(full)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    let first: serde_json::Value =
        serde_json::from_str(stderr.lines().next().unwrap_or_default()).expect("a JSON line");
    assert_eq!(first["error"]["code"], "io_error", "{stderr}");
    assert!(
        first["error"]["hint"]
            .as_str()
            .unwrap()
            .contains("completed"),
        "{stderr}"
    );
    let listed = repo.json(&["checkpoint", "list"]);
    assert_eq!(
        listed["checkpoints"].as_array().unwrap().len(),
        1,
        "{listed}"
    );
}
