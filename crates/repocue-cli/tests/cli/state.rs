//! State engine cases: `init`, `status`, `refresh`, `rebaseline` and `metrics` against real
//! repositories in the situations SPEC §2 names.

use std::os::unix::ffi::OsStrExt;
use std::time::Duration;

use repocue::api::Freshness;
use repocue::api::{Measure, RefreshOutput, StatusOutput};
use serde_json::{json, Value};

use crate::support::{op_on, op_pairs, running_as_root, sha256, warning, TestRepo};

fn codes(warnings: &[repocue::api::Warning]) -> Vec<&str> {
    warnings.iter().map(|w| w.code.as_str()).collect()
}

/// A repository with one committed file, initialized.
fn initialized(files: &[(&str, &str)]) -> (TestRepo, RefreshOutput) {
    let repo = TestRepo::with_files(files);
    let init = repo.init();
    assert_eq!(init.operation, "baseline");
    assert_eq!(init.snapshot, "snapshot-000001");
    (repo, init)
}

/// `changed_since_snapshot` names an untracked path that appeared or went since the
/// snapshot, as it names a tracked one (the counts said 1 untracked, the list nothing);
/// never a secret-named one.
#[test]
fn an_untracked_path_that_appeared_or_went_is_changed_since_the_snapshot() {
    let (repo, _) = initialized(&[("a.txt", "one\n")]);
    repo.write("a.txt", "one, edited\n");
    repo.write("scratch.rs", "pub fn scratch() {}\n");
    repo.write(".env", "TOKEN=1\n");
    let st = repo.status();
    assert_eq!(st.freshness, Freshness::RefreshNeeded);
    assert_eq!(st.changed_since_snapshot, vec!["a.txt", "scratch.rs"]);
    assert_eq!(st.working_tree.untracked, 2);
    repo.refresh();
    assert!(repo.status().changed_since_snapshot.is_empty());
    std::fs::remove_file(repo.root().join("scratch.rs")).unwrap();
    assert_eq!(repo.status().changed_since_snapshot, vec!["scratch.rs"]);
}

#[test]
fn modified_file_is_refresh_needed_then_content_changed() {
    let (repo, _) = initialized(&[("a.txt", "one\n"), ("b.txt", "two\n")]);
    repo.write("a.txt", "one, edited\n");

    let st = repo.status();
    assert_eq!(st.freshness, Freshness::RefreshNeeded);
    assert_eq!(st.changed_since_snapshot, vec!["a.txt"]);
    assert_eq!(st.working_tree.unstaged, 1);
    assert!(st.repository.dirty);

    let r = repo.refresh();
    assert!(r.published);
    assert_eq!(r.snapshot, "snapshot-000002");
    assert_eq!(r.previous_snapshot.as_deref(), Some("snapshot-000001"));
    assert_eq!(r.changes.content_changed, 1);
    assert_eq!(r.files_scanned, 1, "only the changed path is rescanned");
    assert_eq!(r.freshness, Freshness::DirtyButIndexed);

    let ops = repo.delta_ops("snapshot-000001");
    let op = op_on(&ops, "file:a.txt");
    assert_eq!(op["op"], "file.content_changed");
    assert_eq!(op["before"]["working_state"], "clean");
    assert_eq!(op["after"]["working_state"], "unstaged");
    assert_eq!(op["after"]["digest"], sha256(b"one, edited\n"));
    assert!(ops.iter().all(|o| o["entity"] != "file:b.txt"));
    assert_eq!(repo.status().freshness, Freshness::DirtyButIndexed);
}

#[test]
fn staged_file_has_working_state_staged() {
    let (repo, _) = initialized(&[("a.txt", "one\n")]);
    repo.write("a.txt", "staged\n");
    repo.git(&["add", "a.txt"]);
    let st = repo.status();
    assert_eq!((st.working_tree.staged, st.working_tree.unstaged), (1, 0));
    repo.refresh();
    let ops = repo.delta_ops("snapshot-000001");
    let op = op_on(&ops, "file:a.txt");
    assert_eq!(op["op"], "file.content_changed");
    assert_eq!(op["after"]["working_state"], "staged");
    assert!(
        op["after"]["index_oid"].is_string(),
        "staging changes the index object: {op}"
    );
}

#[test]
fn staged_then_modified_is_staged_and_unstaged() {
    let (repo, _) = initialized(&[("a.txt", "one\n")]);
    repo.write("a.txt", "staged\n");
    repo.git(&["add", "a.txt"]);
    repo.write("a.txt", "staged, then edited\n");
    let st = repo.status();
    assert_eq!((st.working_tree.staged, st.working_tree.unstaged), (1, 1));
    let r = repo.refresh();
    assert_eq!(r.freshness, Freshness::DirtyButIndexed);
    let ops = repo.delta_ops("snapshot-000001");
    let op = op_on(&ops, "file:a.txt");
    assert_eq!(op["after"]["working_state"], "staged+unstaged");
    assert_eq!(
        op["after"]["digest"],
        sha256(b"staged, then edited\n"),
        "the work tree is hashed"
    );
}

#[test]
fn untracked_file_is_counted_but_not_indexed() {
    let (repo, init) = initialized(&[("a.txt", "one\n")]);
    repo.write("notes/new.txt", "untracked\n");
    let st = repo.status();
    assert_eq!(st.working_tree.untracked, 1);
    assert_eq!(st.freshness, Freshness::RefreshNeeded);
    let r = repo.refresh();
    assert!(r.published);
    assert_eq!(
        r.tracked_files, init.tracked_files,
        "untracked files are not indexed"
    );
    assert_eq!(r.files_scanned, 0);
    let ops = repo.delta_ops("snapshot-000001");
    assert_eq!(
        op_pairs(&ops),
        vec![(
            "repository.working_tree_changed".into(),
            "repository".into()
        )]
    );
    assert_eq!(ops[0]["after"]["untracked_added"], json!(["notes/new.txt"]));
    let manifest = repo.cue("manifest", &["--max-tokens", "1000", "--no-refresh"]);
    assert_eq!(manifest["content"]["untracked_paths"], 1);
    assert_eq!(manifest["content"]["files"], 1);
}

/// A delta over several snapshots names what changed in any of them, once, and nothing
/// else: read from the changed paths' rows alone while no path was added, from every row
/// once one was.
#[test]
fn a_delta_over_several_snapshots_names_each_changed_path_once() {
    let (repo, _) = initialized(&[
        ("a.rs", "pub fn a() {}\n"),
        ("b.rs", "pub fn b() {}\n"),
        ("c.txt", "gone soon\n"),
        ("same.rs", "pub fn same() {}\n"),
    ]);
    repo.write("a.rs", "pub fn a() {}\npub fn a2() {}\n");
    repo.refresh();
    repo.git(&["rm", "-q", "c.txt"]);
    repo.refresh();
    repo.write("b.rs", "pub fn b(x: u8) {}\n");
    repo.write("a.rs", "pub fn a() {}\npub fn a2() {}\npub fn a3() {}\n");
    repo.refresh();
    let files = |ops: &[Value]| -> Vec<(String, String)> {
        let mut v: Vec<(String, String)> = op_pairs(ops)
            .into_iter()
            .filter(|(op, _)| op.starts_with("file."))
            .collect();
        v.sort();
        v
    };
    let changed = |p: &str| ("file.content_changed".to_owned(), format!("file:{p}"));
    let ops = repo.delta_ops("snapshot-000001");
    let deleted = ("file.deleted".to_owned(), "file:c.txt".to_owned());
    assert_eq!(
        files(&ops),
        [changed("a.rs"), changed("b.rs"), deleted.clone()]
    );
    let symbols: Vec<(String, String)> = op_pairs(&ops)
        .into_iter()
        .filter(|(op, _)| op == "symbol.added")
        .collect();
    assert_eq!(symbols.len(), 2, "a2 and a3, each once: {ops:#?}");
    // A path added later: every row is compared, with the same answer for the rest.
    repo.write("d.rs", "pub fn d() {}\n");
    repo.git(&["add", "d.rs"]);
    repo.refresh();
    let ops = repo.delta_ops("snapshot-000001");
    let added = ("file.added".to_owned(), "file:d.rs".to_owned());
    assert_eq!(
        files(&ops),
        [added.clone(), changed("a.rs"), changed("b.rs"), deleted]
    );
    // Since a later snapshot, only what changed after it.
    assert_eq!(
        files(&repo.delta_ops("snapshot-000003")),
        [added, changed("a.rs"), changed("b.rs")]
    );
}

#[test]
fn rename_is_one_delete_and_one_add() {
    let (repo, _) = initialized(&[("old.txt", "content that moves\n"), ("keep.txt", "k\n")]);
    repo.git(&["mv", "old.txt", "new.txt"]);
    let r = repo.refresh();
    assert_eq!((r.changes.added, r.changes.deleted), (1, 1));
    let ops = repo.delta_ops("snapshot-000001");
    assert_eq!(op_on(&ops, "file:old.txt")["op"], "file.deleted");
    let added = op_on(&ops, "file:new.txt");
    assert_eq!(added["op"], "file.added");
    assert_eq!(added["after"]["working_state"], "staged");
    let mut entities: Vec<&str> = ops.iter().map(|o| o["entity"].as_str().unwrap()).collect();
    let n = entities.len();
    entities.sort_unstable();
    entities.dedup();
    assert_eq!(
        entities.len(),
        n,
        "one operation per entity: {:?}",
        op_pairs(&ops)
    );
}

#[test]
fn deleted_from_work_tree_then_restored() {
    let (repo, _) = initialized(&[("a.txt", "one\n"), ("b.txt", "two\n")]);
    repo.remove("a.txt");
    let st = repo.status();
    assert_eq!(st.working_tree.deleted, 1);
    assert_eq!(st.freshness, Freshness::RefreshNeeded);
    let r = repo.refresh();
    assert_eq!(r.changes.deleted, 1);
    assert_eq!(
        r.tracked_files, 2,
        "a deleted work-tree file is still tracked"
    );
    let ops = repo.delta_ops("snapshot-000001");
    let op = op_on(&ops, "file:a.txt");
    assert_eq!(op["op"], "file.deleted");
    assert_eq!(op["after"]["working_state"], "deleted");
    assert_eq!(op["after"]["type"], "missing");

    repo.git(&["checkout", "--", "a.txt"]);
    assert_eq!(repo.status().freshness, Freshness::RefreshNeeded);
    let r = repo.refresh();
    assert_eq!(r.snapshot, "snapshot-000003");
    assert_eq!(r.changes.restored, 1);
    assert_eq!(r.freshness, Freshness::Current);
    let ops = repo.delta_ops("snapshot-000002");
    let op = op_on(&ops, "file:a.txt");
    assert_eq!(op["op"], "file.restored");
    assert_eq!(op["after"]["working_state"], "clean");
}

#[test]
fn ignored_file_never_appears() {
    let repo = TestRepo::with_files(&[(".gitignore", "*.log\nbuild/\n"), ("a.txt", "one\n")]);
    repo.write("debug.log", "secret-looking log line\n");
    repo.write("build/out.bin", "artifact");
    let init = repo.init();
    assert_eq!(init.tracked_files, 2);
    assert_eq!(
        init.freshness,
        Freshness::Current,
        "ignored files do not make it dirty"
    );
    let st = repo.status();
    assert_eq!(st.working_tree.untracked, 0);
    assert_eq!(st.freshness, Freshness::Current);
    repo.write("debug.log", "more\n");
    let r = repo.refresh();
    assert!(!r.published, "a change to an ignored file is no change");
    for view in ["manifest", "overview"] {
        let out = repo.repocue(&["cue", "--view", view, "--max-tokens", "4000"]);
        let text = out.success().stdout();
        assert!(
            !text.contains("debug.log") && !text.contains("build/"),
            "{view}: {text}"
        );
    }
}

/// Adds files in a second commit after the baseline so their delta items show their types.
fn added_after_baseline(setup: impl FnOnce(&TestRepo)) -> (TestRepo, RefreshOutput, Vec<Value>) {
    let (repo, _) = initialized(&[("base.txt", "base\n")]);
    setup(&repo);
    repo.commit("add");
    let r = repo.refresh();
    assert!(r.published);
    let ops = repo.delta_ops("snapshot-000001");
    (repo, r, ops)
}

#[test]
fn binary_file_has_type_binary() {
    let content = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\x01\x02";
    let (_, _, ops) = added_after_baseline(|repo| repo.write("image.png", content));
    let op = op_on(&ops, "file:image.png");
    assert_eq!(op["op"], "file.added");
    assert_eq!(op["after"]["type"], "binary");
    assert_eq!(op["after"]["size"], content.len());
    assert_eq!(op["after"]["digest"], sha256(content));
}

#[test]
fn empty_file_is_text_of_size_zero() {
    let (_, _, ops) = added_after_baseline(|repo| repo.write("empty.txt", ""));
    let op = op_on(&ops, "file:empty.txt");
    assert_eq!(op["after"]["type"], "text");
    assert_eq!(op["after"]["size"], 0);
    assert_eq!(op["after"]["digest"], sha256(b""));
}

#[test]
fn symlinks_are_hashed_by_link_text_and_never_followed() {
    let secret = vec![b's'; 100_000];
    let mut outside_target = None;
    let (repo, r, ops) = added_after_baseline(|repo| {
        let target = repo.outside().join("secret.bin");
        std::fs::write(&target, &secret).unwrap();
        repo.symlink(&target, "outside-link");
        repo.symlink("base.txt", "inside-link");
        repo.symlink("does/not/exist", "dangling-link");
        outside_target = Some(target);
    });
    let target = outside_target.unwrap();
    let target_text = target.as_os_str().as_bytes();
    let outside = op_on(&ops, "file:outside-link");
    assert_eq!(outside["after"]["type"], "symlink");
    assert_eq!(outside["after"]["digest"], sha256(target_text));
    assert_eq!(outside["after"]["size"], target_text.len());
    let inside = op_on(&ops, "file:inside-link");
    assert_eq!(inside["after"]["type"], "symlink");
    assert_eq!(inside["after"]["digest"], sha256(b"base.txt"));
    let dangling = op_on(&ops, "file:dangling-link");
    assert_eq!(dangling["after"]["type"], "symlink");
    assert_eq!(dangling["after"]["digest"], sha256(b"does/not/exist"));
    let link_bytes = (target_text.len() + "base.txt".len() + "does/not/exist".len()) as u64;
    assert_eq!(
        r.bytes_scanned, link_bytes,
        "only link texts are read, never their targets"
    );
    assert_eq!(repo.status().freshness, Freshness::Current);

    // Changing what the link points to outside the tree is no change of the repository.
    std::fs::write(&target, b"changed").unwrap();
    assert_eq!(repo.status().freshness, Freshness::Current);
    assert!(!repo.refresh().published);
}

/// A tracked directory replaced by a symbolic link (to a directory outside the tree, or one
/// inside it) leaves the files below it deleted, as Git says, and nothing is read through the
/// link: neither its files' contents nor their symbols reach the cache.
#[test]
fn files_below_a_directory_swapped_for_a_link_are_deleted_and_never_read() {
    for inside in [false, true] {
        let (repo, _) = initialized(&[
            ("src/s.py", "def harmless():\n    pass\n"),
            ("src/README.md", "# Title\n\nHello.\n"),
            ("other/s.py", "def inside_function():\n    pass\n"),
        ]);
        let elsewhere = if inside {
            repo.path("other")
        } else {
            let dir = repo.outside().join("elsewhere");
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join("s.py"), "def outside_function():\n    pass\n").unwrap();
            dir
        };
        std::fs::remove_dir_all(repo.path("src")).unwrap();
        repo.symlink(&elsewhere, "src");
        let r = repo.refresh();
        assert!(r.published);
        assert_eq!(r.bytes_scanned, 0, "nothing is read through the link");
        let ops = repo.delta_ops("snapshot-000001");
        for path in ["file:src/s.py", "file:src/README.md"] {
            let op = op_on(&ops, path);
            assert_eq!(op["op"], "file.deleted", "{op:#}");
        }
        for name in ["outside_function", "inside_function"] {
            let found = repo
                .repocue(&["search", name, "--no-refresh"])
                .success()
                .json();
            let hits = found["content"]["hits"].as_array().unwrap();
            let ids: Vec<&str> = hits.iter().map(|h| h["id"].as_str().unwrap()).collect();
            let read_through = |id: &&str| id.contains("src/") || id.contains("outside_function");
            assert!(!ids.iter().any(read_through), "{name}: {ids:?}");
            assert!(
                ids.contains(&"symbol:other/s.py:inside_function"),
                "{ids:?}"
            );
        }
    }
}

#[test]
fn mode_and_type_changes_are_one_operation_showing_the_changed_fields() {
    use std::os::unix::fs::PermissionsExt;
    let (repo, _) = initialized(&[("run.sh", "echo hi\n"), ("b.txt", "base.txt\n")]);
    std::fs::set_permissions(repo.path("run.sh"), std::fs::Permissions::from_mode(0o755)).unwrap();
    repo.remove("b.txt");
    repo.symlink("base.txt", "b.txt");
    let r = repo.refresh();
    assert!(r.published);
    let ops = repo.delta_ops("snapshot-000001");
    let mode = op_on(&ops, "file:run.sh");
    assert_ne!(
        mode["op"], "file.content_changed",
        "the bytes did not change: {mode}"
    );
    assert_eq!(mode["before"]["worktree_mode"], "100644");
    assert_eq!(mode["after"]["worktree_mode"], "100755");
    assert!(
        mode["after"].get("digest").is_none(),
        "unchanged fields are left out: {mode}"
    );
    let typ = op_on(&ops, "file:b.txt");
    assert_eq!(typ["op"], "file.content_changed");
    assert_eq!(
        (&typ["before"]["type"], &typ["after"]["type"]),
        (&json!("text"), &json!("symlink"))
    );
    assert_eq!(
        typ["after"]["worktree_mode"], "120000",
        "metadata shown with the content change"
    );
    assert_eq!(typ["after"]["digest"], sha256(b"base.txt"));
}

#[test]
fn repository_without_commits_initializes_with_null_head() {
    let repo = TestRepo::new();
    let empty = repo.init();
    assert_eq!(empty.repository.head, None);
    assert_eq!(empty.repository.branch.as_deref(), Some("main"));
    assert_eq!(empty.tracked_files, 0);
    assert_eq!(empty.freshness, Freshness::Current);
    assert_eq!(repo.status().freshness, Freshness::Current);

    repo.write("a.txt", "first\n");
    repo.git(&["add", "a.txt"]);
    let st = repo.status();
    assert_eq!(st.repository.head, None);
    assert_eq!(st.freshness, Freshness::RefreshNeeded);
    let r = repo.refresh();
    assert_eq!(r.tracked_files, 1);
    assert_eq!(r.freshness, Freshness::DirtyButIndexed);
    assert_eq!(r.changes.added, 1);
    for view in ["manifest", "overview"] {
        let cue = repo.cue(view, &["--max-tokens", "2000"]);
        assert!(cue.get("head").is_none(), "{view}: {cue}");
        assert_eq!(cue["branch"], "main", "{view}: an unborn branch is named");
    }
}

#[test]
fn detached_head_has_null_branch() {
    let repo = TestRepo::with_files(&[("a.txt", "one\n")]);
    let first = repo.head();
    repo.write("a.txt", "two\n");
    repo.commit("second");
    repo.git(&["checkout", "-q", "--detach", &first]);
    let init = repo.init();
    assert_eq!(init.repository.branch, None);
    assert_eq!(init.repository.head.as_deref(), Some(first.as_str()));
    let st = repo.status();
    assert_eq!(st.repository.branch, None);
    assert_eq!(st.freshness, Freshness::Current);
    let cue = repo.cue("manifest", &["--max-tokens", "1000"]);
    assert!(cue.get("branch").is_none(), "{cue}");
    assert_eq!(cue["head"], first[..10]);
}

#[test]
fn branch_switch_records_branch_and_head_changes() {
    let repo = TestRepo::with_files(&[("a.txt", "main\n")]);
    let main_head = repo.head();
    repo.git(&["checkout", "-q", "-b", "feature"]);
    repo.write("a.txt", "feature\n");
    let feature_head = repo.commit("feature work");
    repo.git(&["checkout", "-q", "main"]);
    repo.init();

    repo.git(&["checkout", "-q", "feature"]);
    let st = repo.status();
    assert_eq!(st.freshness, Freshness::RefreshNeeded);
    assert!(
        st.reasons.iter().any(|r| r.contains("branch")),
        "{:?}",
        st.reasons
    );
    let r = repo.refresh();
    assert_eq!(r.repository.branch.as_deref(), Some("feature"));
    assert_eq!(r.freshness, Freshness::Current);
    let ops = repo.delta_ops("snapshot-000001");
    let branch = ops
        .iter()
        .find(|o| o["op"] == "repository.branch_changed")
        .expect("branch op");
    assert_eq!(branch["before"]["branch"], "main");
    assert_eq!(branch["after"]["branch"], "feature");
    let head = ops
        .iter()
        .find(|o| o["op"] == "repository.head_changed")
        .expect("head op");
    assert_eq!(head["before"]["head"], main_head);
    assert_eq!(head["after"]["head"], feature_head);
    assert_eq!(op_on(&ops, "file:a.txt")["op"], "file.content_changed");
}

#[test]
fn revert_publishes_a_new_snapshot_equal_to_the_first() {
    let (repo, _) = initialized(&[("a.txt", "original\n"), ("b.txt", "other\n")]);
    let first = repo.cue("manifest", &["--max-tokens", "1000", "--no-refresh"]);
    repo.write("a.txt", "edited\n");
    let edited = repo.refresh();
    assert_eq!(edited.snapshot, "snapshot-000002");

    repo.write("a.txt", "original\n");
    let st = repo.status();
    assert_eq!(
        st.freshness,
        Freshness::RefreshNeeded,
        "a revert must not look fresh"
    );
    let reverted = repo.refresh();
    assert!(reverted.published, "the revert is a new state");
    assert_eq!(reverted.snapshot, "snapshot-000003");
    assert_eq!(reverted.freshness, Freshness::Current);
    assert_eq!(reverted.changes.content_changed, 1);

    let third = repo.cue("manifest", &["--max-tokens", "1000", "--no-refresh"]);
    assert_eq!(third["snapshot"], "snapshot-000003");
    assert_eq!(
        third["provenance"]["repository_digest"],
        first["provenance"]["repository_digest"]
    );
    assert_eq!(
        third["provenance"]["status_digest"],
        first["provenance"]["status_digest"]
    );
    let since_first = repo.cue(
        "delta",
        &[
            "--since",
            "snapshot-000001",
            "--max-tokens",
            "1000",
            "--no-refresh",
        ],
    );
    assert_eq!(
        since_first["content"]["paths"],
        json!([]),
        "{since_first:#}"
    );
    assert_eq!(
        since_first["content"]["totals"],
        json!({"paths": 0, "changes": 0})
    );
}

#[test]
fn submodule_is_a_gitlink_whose_contents_are_not_indexed() {
    let upstream = TestRepo::with_files(&[("inner.txt", "inside the submodule\n")]);
    let (repo, _) = initialized(&[("a.txt", "one\n")]);
    repo.git(&[
        "-c",
        "protocol.file.allow=always",
        "submodule",
        "add",
        "-q",
        upstream.root().to_str().unwrap(),
        "sub",
    ]);
    repo.commit("add submodule");
    let r = repo.refresh();
    assert_eq!(r.tracked_files, 3, "a.txt, .gitmodules and the gitlink");
    let ops = repo.delta_ops("snapshot-000001");
    let sub = op_on(&ops, "file:sub");
    assert_eq!(sub["op"], "file.added");
    assert_eq!(sub["after"]["type"], "gitlink");
    assert!(ops
        .iter()
        .all(|o| !o["entity"].as_str().unwrap().starts_with("file:sub/")));
    assert_eq!(repo.status().freshness, Freshness::Current);

    // Work inside the submodule is not read, but the parent's status still works.
    std::fs::write(repo.path("sub/inner.txt"), "edited inside\n").unwrap();
    let st = repo.status();
    assert_ne!(
        st.freshness,
        Freshness::Current,
        "Git reports the modified submodule"
    );
    let r = repo.refresh();
    assert_eq!(r.bytes_scanned, 0, "submodule contents are never read");

    // A new submodule commit, staged in the parent: the gitlink is its commit id.
    let sub_git = |args: &[&str]| {
        let out = repo
            .git_command()
            .current_dir(repo.path("sub"))
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    };
    sub_git(&["commit", "-q", "-am", "inner change"]);
    let sub_head = sub_git(&["rev-parse", "HEAD"]);
    repo.git(&["add", "sub"]);
    let before = repo.metrics().current_snapshot.unwrap();
    let r = repo.refresh();
    assert!(r.published);
    assert_eq!(r.bytes_scanned, 0);
    let ops = repo.delta_ops(&before);
    let sub = op_on(&ops, "file:sub");
    assert_eq!(sub["after"]["index_oid"], sub_head, "{sub}");
    assert_eq!(sub["after"]["working_state"], "staged", "{sub}");
}

#[test]
fn unmerged_conflict_is_reported_not_crashed_on() {
    let repo = TestRepo::with_files(&[("a.txt", "base\n"), ("b.txt", "b\n")]);
    repo.git(&["checkout", "-q", "-b", "other"]);
    repo.write("a.txt", "theirs\n");
    repo.commit("theirs");
    repo.git(&["checkout", "-q", "main"]);
    repo.write("a.txt", "ours\n");
    repo.commit("ours");
    repo.init();
    let merge = repo.git_output(&["merge", "--no-edit", "other"]);
    assert!(!merge.status.success(), "the merge must conflict");

    let st = repo.status();
    assert_eq!(st.working_tree.conflicted, 1);
    assert_eq!(st.freshness, Freshness::RefreshNeeded);
    let r = repo.refresh();
    assert!(r.published);
    assert_eq!(
        r.tracked_files, 2,
        "one entry per conflicted path, not one per stage"
    );
    let ops = repo.delta_ops("snapshot-000001");
    assert_eq!(
        op_on(&ops, "file:a.txt")["after"]["working_state"],
        "conflicted"
    );
    assert_eq!(repo.status().freshness, Freshness::DirtyButIndexed);
    let overview = repo.cue("overview", &["--max-tokens", "4000", "--no-refresh"]);
    assert_eq!(
        overview["content"]["working_tree"]["conflicted"],
        json!(["a.txt"])
    );
}

#[test]
fn assume_unchanged_and_skip_worktree_are_never_current() {
    let (repo, _) = initialized(&[("f.txt", "f\n"), ("g.txt", "g\n"), ("h.txt", "h\n")]);
    repo.git(&["update-index", "--assume-unchanged", "f.txt"]);
    repo.git(&["update-index", "--skip-worktree", "g.txt"]);
    let r = repo.refresh();
    assert_eq!(r.freshness, Freshness::PossiblyStale);
    let w = codes(&r.warnings);
    assert!(
        w.contains(&"assume_unchanged") && w.contains(&"skip_worktree"),
        "{w:?}"
    );
    let st = repo.status();
    assert_eq!(st.freshness, Freshness::PossiblyStale);
    let w = codes(&st.warnings);
    assert!(
        w.contains(&"assume_unchanged") && w.contains(&"skip_worktree"),
        "{w:?}"
    );

    // Git hides this edit; RepoCue must not.
    repo.write("f.txt", "f, edited behind Git's back\n");
    assert!(
        repo.git(&["status", "--porcelain"]).is_empty(),
        "Git hides the edit"
    );
    let st = repo.status();
    assert_ne!(st.freshness, Freshness::Current);
    assert_eq!(st.freshness, Freshness::RefreshNeeded);
    assert_eq!(st.changed_since_snapshot, vec!["f.txt"]);
    let r = repo.refresh();
    assert!(r.published);
    assert_eq!(r.freshness, Freshness::PossiblyStale);
    let ops = repo.delta_ops("snapshot-000002");
    assert_eq!(
        op_on(&ops, "file:f.txt")["after"]["digest"],
        sha256(b"f, edited behind Git's back\n")
    );
    let cue = repo.cue("manifest", &["--max-tokens", "1000"]);
    assert_eq!(cue["freshness"], "possibly-stale");
    assert!(warning(&cue, "assume_unchanged").is_some(), "{cue:#}");
}

#[test]
fn odd_paths_are_indexed_and_non_utf8_is_warned() {
    use std::ffi::OsStr;
    let repo = TestRepo::new();
    let names: [&[u8]; 5] = [
        b"with space.txt",
        b"new\nline.txt",
        b"-leading-dash.txt",
        b"bad\xff.txt",
        "ünï.txt".as_bytes(),
    ];
    for n in names {
        repo.write(OsStr::from_bytes(n), b"content\n");
    }
    repo.commit("odd names");
    let init = repo.init();
    assert_eq!(init.tracked_files, 5);
    let w = init
        .warnings
        .iter()
        .find(|w| w.code == "non_utf8_path")
        .expect("non_utf8_path warning");
    assert_eq!(w.count, Some(1));
    assert!(
        w.detail.as_deref().unwrap_or("").contains("bad\\xFF.txt"),
        "{w:?}"
    );
    assert_eq!(repo.status().freshness, Freshness::Current);

    for n in names {
        repo.write(OsStr::from_bytes(n), b"edited\n");
    }
    repo.write(OsStr::from_bytes(b"untracked\n\xfe"), b"u");
    let st = repo.status();
    assert_eq!(st.working_tree.unstaged, 5);
    assert_eq!(st.working_tree.untracked, 1);
    // The five edited files and the untracked path.
    assert_eq!(st.changed_since_snapshot.len(), 6);
    assert!(
        st.changed_since_snapshot
            .contains(&"untracked\n\\xFE".to_owned()),
        "{:?}",
        st.changed_since_snapshot
    );
    assert!(codes(&st.warnings).contains(&"non_utf8_path"));
    let r = repo.refresh();
    assert_eq!(r.changes.content_changed, 5);
    let ops = repo.delta_ops("snapshot-000001");
    for entity in [
        "file:with space.txt",
        "file:new\nline.txt",
        "file:-leading-dash.txt",
        "file:bad\\xFF.txt",
        "file:ünï.txt",
    ] {
        assert_eq!(op_on(&ops, entity)["op"], "file.content_changed");
    }
    assert_eq!(repo.status().freshness, Freshness::DirtyButIndexed);
}

#[test]
fn large_file_is_streamed_and_counted() {
    const SIZE: u64 = 64 << 20;
    let repo = TestRepo::with_files(&[("small.txt", "s\n")]);
    // Sparse: no 64 MiB write on a shared disk, and every byte still has to be read.
    let f = std::fs::File::create(repo.path("big.bin")).unwrap();
    f.set_len(SIZE).unwrap();
    drop(f);
    repo.commit("big");
    let init = repo.init();
    assert_eq!(init.tracked_files, 2);
    assert_eq!(init.bytes_scanned, SIZE + 2);
    let metrics = repo.metrics();
    let recorded = metrics.operations[0].bytes_scanned;
    assert_eq!(recorded, Measure::Observed((SIZE + 2) as f64));
    assert_eq!(repo.status().freshness, Freshness::Current);
}

#[test]
fn noop_refresh_publishes_nothing_and_is_measured() {
    let (repo, init) = initialized(&[("a.txt", "one\n")]);
    let r = repo.refresh();
    assert!(!r.published);
    assert_eq!(r.snapshot, init.snapshot);
    assert_eq!(r.previous_snapshot.as_deref(), Some(init.snapshot.as_str()));
    assert_eq!(r.delta, None);
    assert_eq!(r.files_scanned, 0);
    assert_eq!(r.freshness, Freshness::Current);
    let m = repo.metrics();
    assert_eq!(m.snapshots, vec!["snapshot-000001"]);
    assert_eq!(m.operations_total, 2);
    let last = m.operations.last().unwrap();
    assert_eq!(last.kind, "refresh");
    assert!(!last.published);
    assert_eq!(last.snapshot.as_deref(), Some("snapshot-000001"));
    let kinds: Vec<(&str, u64)> = m
        .summary
        .iter()
        .map(|s| (s.kind.as_str(), s.count))
        .collect();
    assert_eq!(kinds, vec![("baseline", 1), ("refresh", 1)]);

    // `init` on an initialized repository is a refresh too.
    let again = repo.init();
    assert_eq!(
        (again.operation.as_str(), again.published),
        ("refresh", false)
    );
    assert_eq!(repo.metrics().operations_total, 3);
}

#[test]
fn dirty_rebaseline_starts_a_new_epoch() {
    let (repo, _) = initialized(&[("a.txt", "one\n")]);
    repo.write("a.txt", "dirty\n");
    let r: RefreshOutput = repo
        .repocue(&["rebaseline", "--label", "release:1.0", "--reason", "test"])
        .typed();
    assert_eq!(r.operation, "rebaseline");
    assert!(r.published);
    assert_eq!(r.epoch, "epoch-000002");
    assert_eq!(r.snapshot, "snapshot-000002");
    assert_eq!(r.freshness, Freshness::DirtyButIndexed);
    assert_eq!(r.files_scanned, 1, "a rebaseline scans everything");
    let m = repo.metrics();
    let epochs: Vec<(&str, &str)> = m
        .epochs
        .iter()
        .map(|e| (e.id.as_str(), e.status.as_str()))
        .collect();
    assert_eq!(
        epochs,
        vec![("epoch-000001", "superseded"), ("epoch-000002", "active")]
    );
    assert_eq!(m.epochs[1].label.as_deref(), Some("release:1.0"));
    assert_eq!(m.epochs[1].reason.as_deref(), Some("test"));
    assert_eq!(m.current_snapshot.as_deref(), Some("snapshot-000002"));
    let st = repo.status();
    assert_eq!(st.epoch.as_deref(), Some("epoch-000002"));
    assert_eq!(st.freshness, Freshness::DirtyButIndexed);
    repo.repocue(&["rebaseline", "--label", " ", "--reason", "x"])
        .error_code("invalid_argument");
}

/// The symbols the structure of `path` lists, read without refreshing.
fn symbol_names(repo: &TestRepo, path: &str) -> Vec<String> {
    let cue = repo.json(&["cue", "--view", "structure", "--path", path, "--no-refresh"]);
    let symbols = cue["content"]["symbols"].as_array().expect("symbols");
    symbols
        .iter()
        .map(|s| s["name"].as_str().expect("name").to_owned())
        .collect()
}

/// A dirty file is what a refresh analyzes while Git computes its status (the scan's
/// foresight): what it serves is the latest content's, whether a reading cue or `refresh`
/// brought it in, and whether the edit kept the size or not.
#[test]
fn a_dirty_file_edited_again_is_analyzed_as_it_is_now() {
    let (repo, _) = initialized(&[("src/lib.rs", "pub fn one() {}\n")]);
    repo.write("src/lib.rs", "pub fn one() {}\npub fn two() {}\n");
    repo.refresh();
    assert_eq!(symbol_names(&repo, "src/lib.rs"), ["one", "two"]);

    repo.write("src/lib.rs", "pub fn one() {}\npub fn three(x: u8) {}\n");
    let cue = repo.json(&["cue", "--view", "entity", "--id", "symbol:src/lib.rs:three"]);
    assert_eq!(cue["content"]["signature"], "pub fn three(x: u8)");
    assert_eq!(symbol_names(&repo, "src/lib.rs"), ["one", "three"]);

    // Same size: only the stat data tells the file changed.
    repo.write("src/lib.rs", "pub fn one() {}\npub fn siren(x: u8) {}\n");
    assert!(repo.refresh().published);
    assert_eq!(symbol_names(&repo, "src/lib.rs"), ["one", "siren"]);
    assert_eq!(repo.status().freshness, Freshness::DirtyButIndexed);
}

#[test]
fn dirty_file_edited_again_is_refresh_needed() {
    let (repo, _) = initialized(&[("a.txt", "one\n")]);
    repo.write("a.txt", "first edit\n");
    repo.refresh();
    assert_eq!(repo.status().freshness, Freshness::DirtyButIndexed);
    let git_before = repo.git(&["status", "--porcelain=v2"]);

    // Same size, different bytes: Git's answer does not change.
    repo.write("a.txt", "other edit\n");
    assert_eq!(repo.git(&["status", "--porcelain=v2"]), git_before);
    let st = repo.status();
    assert_eq!(
        st.freshness,
        Freshness::RefreshNeeded,
        "the freshness trap of SPEC §2"
    );
    assert_eq!(st.changed_since_snapshot, vec!["a.txt"]);
    let r = repo.refresh();
    assert!(r.published);
    assert_eq!(r.changes.content_changed, 1);
    assert_eq!(repo.status().freshness, Freshness::DirtyButIndexed);

    // Rewriting the same bytes changes stat data only: still indexed.
    repo.write("a.txt", "other edit\n");
    assert_eq!(repo.status().freshness, Freshness::DirtyButIndexed);
    assert!(!repo.refresh().published);
}

/// Rewrites every file of the many-files fixture with round-specific content.
fn rewrite_all(repo: &TestRepo, files: usize, round: usize) {
    for i in 0..files {
        repo.write(
            format!("d{}/f{i}.txt", i % 30),
            format!("file {i} round {round}\n"),
        );
    }
}

#[test]
fn sigkill_during_refresh_leaves_a_usable_cache() {
    const FILES: usize = 1000;
    let repo = TestRepo::new();
    rewrite_all(&repo, FILES, 0);
    repo.commit("many files");
    repo.init();
    // Fixed early delays hit discovery and scanning; delays near the measured length of a full
    // refresh give the kill a chance to land inside the publish transaction.
    rewrite_all(&repo, FILES, 1);
    let started = std::time::Instant::now();
    assert!(repo.refresh().published);
    let full = started.elapsed().as_millis() as u64;
    let delays = [0, 5, 20, 50, 100, full * 8 / 10, full];
    for (round, delay_ms) in delays.into_iter().enumerate() {
        rewrite_all(&repo, FILES, round + 2);
        let before = repo.metrics().current_snapshot.expect("initialized");
        let mut child = repo.spawn(&["refresh"]);
        std::thread::sleep(Duration::from_millis(delay_ms));
        let _ = child.kill();
        let _ = child.wait();

        let m = repo.metrics();
        let current = m
            .current_snapshot
            .clone()
            .expect("a snapshot stays current");
        let st = repo.status();
        assert_eq!(st.snapshot.as_deref(), Some(current.as_str()));
        if current == before {
            assert_eq!(
                st.freshness,
                Freshness::RefreshNeeded,
                "killed at {delay_ms} ms"
            );
        } else {
            assert_eq!(
                m.snapshots.last(),
                Some(&current),
                "killed at {delay_ms} ms"
            );
            assert_eq!(
                st.freshness,
                Freshness::DirtyButIndexed,
                "a published snapshot is complete"
            );
        }
        let r = repo.refresh();
        assert_eq!(r.tracked_files, FILES as u64);
        assert_eq!(
            repo.status().freshness,
            Freshness::DirtyButIndexed,
            "killed at {delay_ms} ms"
        );
    }
}

#[test]
fn concurrent_inits_create_one_baseline() {
    let repo = TestRepo::with_files(&[("a.txt", "one\n")]);
    let children: Vec<_> = (0..5).map(|_| repo.spawn(&["init"])).collect();
    let mut baselines = 0;
    for child in children {
        let ran = repo.finish(child, &["init"]);
        // Every process answers: the losers adopt the winner's baseline.
        let r: RefreshOutput = ran.typed();
        assert_eq!(r.snapshot, "snapshot-000001");
        baselines += (r.operation == "baseline" && r.published) as u32;
    }
    assert_eq!(baselines, 1);
    let m = repo.metrics();
    assert_eq!(m.snapshots, vec!["snapshot-000001"]);
    assert_eq!(m.epochs.len(), 1);
    assert_eq!(repo.status().freshness, Freshness::Current);
}

#[test]
fn corrupt_state_db_is_reported_and_left_alone() {
    let (repo, _) = initialized(&[("a.txt", "one\n")]);
    let db = repo.db_path();
    assert!(db.is_file());
    let garbage: Vec<u8> = (0..8192u32).map(|i| (i * 7 % 251) as u8).collect();
    std::fs::write(&db, &garbage).unwrap();
    for args in [
        &["status"][..],
        &["refresh"],
        &["init"],
        &["metrics"],
        &["cue", "--view", "manifest", "--max-tokens", "1000"],
    ] {
        let e = repo.repocue(args).error_code("corrupt_cache");
        assert!(!e.error.retryable);
        assert_eq!(
            std::fs::read(&db).unwrap(),
            garbage,
            "{args:?} modified the corrupt file"
        );
    }
}

#[test]
fn foreign_state_db_is_corrupt_cache() {
    let (other, _) = initialized(&[("x.txt", "another repository\n")]);
    let (repo, _) = initialized(&[("a.txt", "one\n")]);
    let foreign = std::fs::read(other.db_path()).unwrap();
    std::fs::write(repo.db_path(), &foreign).unwrap();
    for args in [&["status"][..], &["refresh"], &["metrics"]] {
        let e = repo.repocue(args).error_code("corrupt_cache");
        assert!(e.error.message.contains("belongs to"), "{e:?}");
        assert_eq!(
            std::fs::read(repo.db_path()).unwrap(),
            foreign,
            "{args:?} modified it"
        );
    }
}

/// Overwrites a big-endian 32-bit field of the SQLite header of a closed database.
fn patch_sqlite_header(db: &std::path::Path, offset: usize, value: u32) -> Vec<u8> {
    let wal = db.with_extension("db-wal");
    assert!(
        !wal.exists() || std::fs::metadata(&wal).unwrap().len() == 0,
        "WAL still holds data"
    );
    let mut bytes = std::fs::read(db).unwrap();
    assert!(bytes.starts_with(b"SQLite format 3\0"));
    bytes[offset..offset + 4].copy_from_slice(&value.to_be_bytes());
    std::fs::write(db, &bytes).unwrap();
    bytes
}

#[test]
fn newer_schema_is_refused_and_left_alone() {
    let (repo, _) = initialized(&[("a.txt", "one\n")]);
    // Offset 60 of the header is `PRAGMA user_version`, the applied migration count.
    let bytes = patch_sqlite_header(&repo.db_path(), 60, 999);
    for args in [
        &["status"][..],
        &["refresh"],
        &["cue", "--view", "manifest"],
    ] {
        let e = repo.repocue(args).error_code("schema_too_new");
        assert!(e.error.message.contains("999"), "{e:?}");
        assert_eq!(
            std::fs::read(repo.db_path()).unwrap(),
            bytes,
            "{args:?} modified it"
        );
    }
}

#[test]
fn sqlite_database_of_another_application_is_corrupt_cache() {
    let (repo, _) = initialized(&[("a.txt", "one\n")]);
    // Offset 68 of the header is `PRAGMA application_id`.
    let bytes = patch_sqlite_header(&repo.db_path(), 68, 0x1234_5678);
    for args in [&["status"][..], &["init"], &["metrics"]] {
        repo.repocue(args).error_code("corrupt_cache");
        assert_eq!(
            std::fs::read(repo.db_path()).unwrap(),
            bytes,
            "{args:?} modified it"
        );
    }
}

#[test]
fn non_git_directory_is_not_a_git_repository() {
    let repo = TestRepo::with_files(&[("a.txt", "one\n")]);
    let plain = repo.outside().join("plain");
    std::fs::create_dir(&plain).unwrap();
    let bare = repo.outside().join("bare.git");
    repo.git(&[
        std::ffi::OsStr::new("init"),
        "-q".as_ref(),
        "--bare".as_ref(),
        bare.as_os_str(),
    ]);
    for dir in [
        &plain,
        &bare,
        &repo.path(".git"),
        &repo.path(".git/objects"),
    ] {
        for args in [&["status"][..], &["init"], &["refresh"], &["cue"]] {
            let e = repo
                .repocue_with(dir, repo.cache_dir(), args)
                .error_code("not_a_git_repository");
            // Where Git knows a repository but no work tree, the hint says so.
            let hint = e.error.hint.unwrap_or_default();
            assert_eq!(
                hint.contains("not a work tree"),
                *dir != plain,
                "{dir:?}: {hint}"
            );
        }
    }
    let missing = repo.outside().join("missing");
    repo.repocue_with(&missing, repo.cache_dir(), &["status"])
        .error_code("bad_path");
    assert!(
        !repo.cache_dir().exists(),
        "failures must not create the cache"
    );
}

#[test]
fn unwritable_cache_directory_is_cache_unwritable() {
    let repo = TestRepo::with_files(&[("a.txt", "one\n")]);
    // A path below a regular file cannot be created, not even by root.
    let file = repo.tmp().join("file");
    std::fs::write(&file, "not a directory").unwrap();
    let mut cases = vec![file.join("cache")];
    if !running_as_root() {
        use std::os::unix::fs::PermissionsExt;
        let ro = repo.tmp().join("read-only");
        std::fs::create_dir(&ro).unwrap();
        std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o500)).unwrap();
        cases.push(ro.join("cache"));
        cases.push(ro);
    }
    for cache in cases {
        // Reads too: a cache that cannot exist there is no missing cache (`status` said
        // `uninitialized`, `refresh` said to run `init`, which then failed).
        for args in [
            &["init"][..],
            &["cue", "--view", "manifest"],
            &["status"],
            &["refresh"],
            &["cue", "--no-refresh"],
        ] {
            repo.repocue_with(repo.root(), &cache, args)
                .error_code("cache_unwritable");
        }
    }
}

/// A database damaged inside (pages overwritten, as by a disk error or a stray write) is
/// `corrupt_cache` naming the file, whichever query finds it, and is left as it is.
#[test]
fn a_database_damaged_inside_is_corrupt_cache_naming_the_file() {
    let files: Vec<(String, String)> = (0..40)
        .map(|i| {
            (
                format!("src/m{i}.py"),
                format!("def f{i}(x):\n    return x\n"),
            )
        })
        .collect();
    let files: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, c)| (p.as_str(), c.as_str()))
        .collect();
    let (repo, _) = initialized(&files);
    let db = repo.db_path();
    let wal = db.with_extension("db-wal");
    assert!(!wal.exists() || std::fs::metadata(&wal).unwrap().len() == 0);
    let mut bytes = std::fs::read(&db).unwrap();
    // Every page but the first (the header and the schema's root) zeroed.
    let page = 4096;
    assert!(bytes.len() > 4 * page, "{} bytes", bytes.len());
    bytes[page..].fill(0);
    std::fs::write(&db, &bytes).unwrap();
    for args in [
        &["status"][..],
        &["cue", "--no-refresh"],
        &["refresh"],
        &["search", "f1", "--no-refresh"],
    ] {
        let e = repo.repocue(args).error_code("corrupt_cache");
        assert!(
            e.error.message.contains(&db.display().to_string()),
            "{args:?}: {e:?}"
        );
        assert!(e.error.hint.unwrap_or_default().contains("repocue init"));
        assert_eq!(std::fs::read(&db).unwrap(), bytes, "{args:?} modified it");
    }
}

#[test]
fn repository_subdirectory_resolves_to_the_root() {
    let (repo, init) = initialized(&[("src/deep/a.txt", "one\n"), ("b.txt", "two\n")]);
    let st: StatusOutput = repo
        .repocue_with(repo.path("src/deep"), repo.cache_dir(), &["status"])
        .typed();
    assert_eq!(st.repository.id, init.repository.id);
    assert_eq!(st.repository.name, "repo");
    assert_eq!(st.snapshot.as_deref(), Some("snapshot-000001"));
    assert_eq!(st.freshness, Freshness::Current);

    // `init PATH` and the current directory work the same way.
    let src = repo.path("src");
    let args = [
        "--cache-dir".as_ref(),
        repo.cache_dir().as_os_str(),
        "init".as_ref(),
        src.as_os_str(),
    ];
    let r: RefreshOutput = repo.repocue_bare(&args).typed();
    assert_eq!(r.repository.id, init.repository.id);
    assert!(!r.published);
    let mut cmd = repo.bare_command();
    cmd.current_dir(repo.path("src/deep"));
    cmd.arg("--cache-dir").arg(repo.cache_dir()).arg("status");
    let st: StatusOutput = repo.run(cmd).typed();
    assert_eq!(st.repository.id, init.repository.id);
}

#[test]
fn usage_errors_exit_2() {
    let repo = TestRepo::with_files(&[("a.txt", "one\n")]);
    for args in [
        &["--bogus-flag", "status"][..],
        &["status", "--bogus-flag"],
        &["no-such-command"],
        &["cue", "--view", "nope"],
        &["cue", "--max-tokens", "0"],
        &["cue", "--max-tokens", "lots"],
        &["cue", "--format", "xml"],
        &["cue", "--max-tokens", "-1"],
        &["search"],
        &["rebaseline"],
        &[],
    ] {
        repo.repocue(args).usage_error();
    }
    // The JSON line names what is missing, not only that something is.
    let missing = repo.repocue(&["rebaseline", "--reason", "r"]);
    let first = missing
        .stderr()
        .lines()
        .next()
        .unwrap_or_default()
        .to_owned();
    let error: repocue::api::ErrorOutput = serde_json::from_str(&first).unwrap();
    assert_eq!(
        error.error.message,
        "the following required arguments were not provided: --label <LABEL>",
        "{}",
        missing.describe()
    );
}

#[test]
fn help_exits_0_with_text_on_stdout() {
    let repo = TestRepo::new();
    for args in [
        &["--help"][..],
        &["help"],
        &["cue", "--help"],
        &["help", "refresh"],
        &["--version"],
    ] {
        let ran = repo.repocue_bare(args);
        ran.success();
        assert!(!ran.stdout().trim().is_empty(), "{}", ran.describe());
    }
    let help = repo.repocue_bare(&["--help"]);
    for word in ["init", "status", "refresh", "rebaseline", "cue", "metrics"] {
        assert!(
            help.stdout().contains(word),
            "help lacks {word}{}",
            help.describe()
        );
    }
    let cue_help = repo.repocue_bare(&["cue", "--help"]);
    assert!(
        cue_help.stdout().contains("--max-tokens"),
        "{}",
        cue_help.describe()
    );
}

#[test]
fn commands_before_init_fail_cleanly() {
    let repo = TestRepo::with_files(&[("a.txt", "one\n")]);
    let st = repo.status();
    assert_eq!(st.freshness, Freshness::Uninitialized);
    assert_eq!(st.snapshot, None);
    repo.repocue(&["metrics"]).error_code("not_initialized");
    repo.repocue(&["cue", "--no-refresh"])
        .error_code("not_initialized");
    assert!(
        !repo.db_path().exists(),
        "read-only commands must not create the database"
    );
    repo.repocue(&["refresh"]).error_code("not_initialized");
    assert_eq!(repo.status().freshness, Freshness::Uninitialized);
}

#[test]
fn failed_refresh_before_init_creates_no_database() {
    let repo = TestRepo::with_files(&[("a.txt", "one\n")]);
    repo.repocue(&["refresh"]).error_code("not_initialized");
    assert!(
        !repo.db_path().exists(),
        "a refresh that did nothing created {:?}",
        repo.db_path()
    );
    // The observable consequence: `metrics` answers for a repository that has no cache.
    repo.repocue(&["metrics"]).error_code("not_initialized");
}

/// Lists every file under `dir` (`.git` included) with its size and modification time.
fn tree_listing(dir: &std::path::Path) -> Vec<(std::path::PathBuf, u64, std::time::SystemTime)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let entry = entry.unwrap();
            let meta = std::fs::symlink_metadata(entry.path()).unwrap();
            if meta.is_dir() {
                stack.push(entry.path());
            } else {
                out.push((entry.path(), meta.len(), meta.modified().unwrap()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn repository_and_git_index_are_never_written() {
    let repo = TestRepo::with_files(&[("a.txt", "one\n"), ("b.txt", "two\n")]);
    // Files written in the same second as the index are "racily clean": a plain `git status`
    // would re-hash them and rewrite the index. RepoCue must not let Git do that.
    repo.write("a.txt", "dirty\n");
    repo.write("b.txt", "two\n");
    repo.write("untracked.txt", "u\n");
    let before = tree_listing(repo.root());
    repo.init();
    repo.status();
    repo.repocue(&["cue", "--view", "overview"]).success();
    repo.write("a.txt", "dirty again\n");
    let before_second = tree_listing(repo.root());
    repo.repocue(&["cue", "--view", "delta"]).success();
    repo.refresh();
    repo.repocue(&["rebaseline", "--label", "l", "--reason", "r"])
        .success();
    repo.metrics();
    assert_eq!(
        tree_listing(repo.root()).len(),
        before.len(),
        "files were created in the repository"
    );
    assert_eq!(
        tree_listing(repo.root()),
        before_second,
        "the repository or .git was written"
    );
}

#[test]
fn symlinked_repository_path_has_the_same_identity() {
    let (repo, init) = initialized(&[("a.txt", "one\n")]);
    let link = repo.outside().join("link-to-repo");
    std::os::unix::fs::symlink(repo.root(), &link).unwrap();
    let st: StatusOutput = repo
        .repocue_with(&link, repo.cache_dir(), &["status"])
        .typed();
    assert_eq!(st.repository.id, init.repository.id);
    assert_eq!(st.repository.name, "repo");
    assert_eq!(st.snapshot.as_deref(), Some("snapshot-000001"));
}

#[test]
fn non_utf8_root_name_is_the_same_in_every_output() {
    let repo = TestRepo::named(std::ffi::OsStr::from_bytes(b"caf\xe9 repo"));
    repo.write("a.txt", "one\n");
    repo.commit("initial");
    let init = repo.init();
    let st = repo.status();
    let cue = repo.cue("manifest", &["--max-tokens", "1000"]);
    assert_eq!(st.repository.name, init.repository.name);
    assert_eq!(
        json!(st.repository.name),
        cue["provenance"]["name"],
        "status and cue disagree"
    );
    assert_eq!(
        st.repository.name, "caf\\xE9 repo",
        "paths::display is the documented form"
    );
}

/// Git rewrites the index without changing its entries (a plain `git status` refreshing its
/// stat data does). The first read lists it, finds the snapshot's entries and remembers the
/// file's new signature; the reads after it do not list it again.
#[test]
fn reads_list_an_index_rewritten_with_the_same_entries_once() {
    let (repo, _) = initialized(&[("a.txt", "one\n")]);
    repo.status();
    let warm = repo.status().git_processes;
    let touch_index = |secs: u64| {
        let index = std::fs::File::options()
            .write(true)
            .open(repo.path(".git/index"))
            .unwrap();
        let later = std::time::SystemTime::now() + Duration::from_secs(secs);
        index.set_modified(later).unwrap();
    };
    touch_index(5);
    let first = repo.status();
    assert_eq!(first.freshness, Freshness::Current);
    assert_eq!(
        first.git_processes,
        warm + 1,
        "the rewritten index is listed"
    );
    assert_eq!(repo.status().git_processes, warm, "and not listed again");
    // A cue that reads without refreshing remembers it as well.
    touch_index(10);
    let cue = repo.json(&["cue", "--no-refresh", "--max-tokens", "400"]);
    assert_eq!(cue["freshness"], "current");
    assert_eq!(repo.status().git_processes, warm);
    // A changed entry is no rewrite: the listing differs, nothing is remembered. (Another
    // size: the index's future mtime would keep Git from looking at a same-sized file.)
    repo.write("a.txt", "two, staged\n");
    repo.git(&["add", "a.txt"]);
    assert_eq!(repo.status().freshness, Freshness::RefreshNeeded);
    assert_eq!(
        repo.status().git_processes,
        warm + 1,
        "listed while it differs"
    );
}

#[test]
fn warm_status_and_noop_refresh_use_at_most_three_git_processes() {
    let (repo, _) = initialized(&[("a.txt", "one\n")]);
    // The first command after init may discover the root; later ones use the location hint.
    repo.status();
    let st = repo.status();
    assert!(
        st.git_processes <= 3,
        "warm status used {} git processes",
        st.git_processes
    );
    assert!(st.git_processes >= 1);
    let r = repo.refresh();
    assert!(!r.published);
    assert!(
        r.git_processes <= 3,
        "no-op refresh used {} git processes",
        r.git_processes
    );
    let m = repo.metrics();
    let recorded = m.operations.last().unwrap().git_processes;
    assert_eq!(recorded, Measure::Observed(r.git_processes as f64));
}

/// A cue that finds the cache stale refreshes from the Git status it compared with: one
/// `git status` per edit-then-cue, not two, and the cue describes the edit.
#[test]
fn a_cue_refreshes_from_the_status_it_compared_with() {
    let (repo, _) = initialized(&[("a.rs", "pub fn one() {}\n")]);
    repo.write("a.rs", "pub fn one() {}\npub fn two() {}\n");
    let trace = repo.outside().join("git-trace");
    let mut cmd = repo.command(&["cue", "--view", "delta"]);
    cmd.env("GIT_TRACE", &trace);
    let cue = repo.run(cmd).json();
    assert!(warning(&cue, "refreshed").is_some(), "{cue:#}");
    assert!(cue.to_string().contains("pub fn two()"), "{cue:#}");
    assert_eq!(cue["freshness"], "dirty-but-indexed", "{cue:#}");
    let log = std::fs::read_to_string(&trace).unwrap();
    let statuses = log
        .lines()
        .filter(|l| l.contains("built-in: git status"))
        .count();
    assert_eq!(statuses, 1, "{log}");
}

#[test]
fn the_wal_outlives_a_command_and_stays_bounded() {
    // Folding the WAL into the database on every exit costs each cue and no-op refresh two
    // fsyncs: a small WAL is kept. A command that finds it past 256 KiB when it closes the
    // cache folds and truncates it: each command opening the cache reads the whole WAL, and
    // without that the WAL of short commands grew for good.
    let repo = TestRepo::with_files(&[("src/a.py", "def a():\n    return 1\n")]);
    repo.init();
    let wal = repo.db_path().with_extension("db-wal");
    let size = || std::fs::metadata(&wal).map_or(0, |m| m.len());
    let mut largest = 0;
    // Rounds after which the commands had left a WAL behind, and after which it was folded.
    let (mut kept, mut folded) = (0, 0);
    for round in 0..120 {
        let body: String = (0..=round % 40)
            .map(|i| format!("def f{round}_{i}(x: int) -> int:\n    return x\n\n"))
            .collect();
        repo.write("src/a.py", body);
        repo.refresh();
        repo.cue("overview", &[]);
        let now = size();
        largest = largest.max(now);
        if now > 0 {
            kept += 1;
        } else {
            folded += 1;
        }
    }
    assert!(
        kept > folded,
        "the WAL was folded on most exits: {folded} of 120"
    );
    assert!(
        folded > 0,
        "never folded in 120 rounds: {largest} bytes at most"
    );
    // 256 KiB, plus what the last commands wrote before closing.
    assert!(largest < 1 << 20, "WAL grew to {largest} bytes");
    // Every commit is in the database as read through SQLite, WAL and all.
    let cue = repo.cue("structure", &["--path", "src/a.py", "--max-tokens", "4000"]);
    assert!(
        cue.to_string().contains("f119_0("),
        "the last refresh is not visible"
    );
}

/// A file an agent has just written and not added is listed by name, not indexed: the
/// freshness reason says how many such paths there are, and its entity is `not_found` with a
/// hint that says why (it read "the snapshot equals the dirty working tree", no warning).
#[test]
fn an_untracked_file_is_listed_not_indexed_and_says_so() {
    let repo = TestRepo::with_files(&[("web.py", "def new():\n    pass\n")]);
    repo.init();
    repo.write("brandnew.py", "def brand_new_thing():\n    pass\n");
    repo.refresh();
    let status = repo.status();
    assert_eq!(status.freshness.as_str(), "dirty-but-indexed");
    assert!(
        status
            .reasons
            .iter()
            .any(|r| r.contains("1 untracked path is listed, content not indexed")),
        "{status:?}"
    );
    let e = repo
        .repocue(&["cue", "--view", "entity", "--id", "file:brandnew.py"])
        .error_code("not_found");
    assert!(e.error.message.contains("untracked"), "{e:?}");
    assert!(
        e.error
            .hint
            .as_deref()
            .is_some_and(|h| h.contains("git add")),
        "{e:?}"
    );
    // Added, it is indexed like any tracked file.
    repo.git(&["add", "brandnew.py"]);
    let entity = repo.cue("entity", &["--id", "symbol:brandnew.py:brand_new_thing"]);
    assert_eq!(entity["content"]["path"], "brandnew.py", "{entity:#}");
}
