//! Task context (`repocue/task-context-1`): the task cue, its selection, path rules, line
//! semantics, staleness, budgeting and determinism, and `task-context check` / `pin --update`
//! (EVALUATION.md §6.10).

use serde_json::{json, Value};

use crate::support::{sha256, tokens, TestRepo};

const CTX: &str = "task-context.json";

/// Returns the `sha256:` pin of a file of the work tree as it is now.
fn pin(repo: &TestRepo, path: &str) -> String {
    format!("sha256:{}", sha256(&repo.read(path)))
}

/// Returns a reference to a file with its current pin.
fn reference(repo: &TestRepo, path: &str, lines: Option<(u64, u64)>) -> Value {
    json!({
        "path": path,
        "content_digest": pin(repo, path),
        "lines": lines.map(|(start, end)| json!({"start": start, "end": end})),
    })
}

/// Returns an item; `tasks` and `paths` are JSON (`null` or a list).
fn item(id: &str, required: bool, tasks: Value, paths: Value, source: Value) -> Value {
    json!({
        "id": id, "kind": "instruction", "required": required,
        "tasks": tasks, "paths": paths, "source": source,
    })
}

/// Writes the declaration at [`CTX`].
fn declare(repo: &TestRepo, items: Vec<Value>) {
    let doc = json!({"schema_version": "repocue/task-context-1", "items": items});
    repo.write(CTX, serde_json::to_string_pretty(&doc).unwrap() + "\n");
}

/// Runs the task cue with the declaration at [`CTX`].
fn task(repo: &TestRepo, kind: &str, targets: &[&str], extra: &[&str]) -> crate::support::Ran {
    let mut args = vec![
        "cue",
        "--view",
        "task",
        "--context-file",
        CTX,
        "--task-kind",
        kind,
    ];
    for t in targets {
        args.extend(["--target", t]);
    }
    args.extend_from_slice(extra);
    repo.repocue(&args)
}

fn ids(cue: &Value, list: &str) -> Vec<String> {
    let v = &cue["content"][list];
    let arr = if list == "omitted" { &v["items"] } else { v };
    arr.as_array()
        .unwrap_or_else(|| panic!("no {list} in {cue:#}"))
        .iter()
        .map(|i| i["id"].as_str().or(i.as_str()).unwrap().to_owned())
        .collect()
}

fn source<'a>(cue: &'a Value, path: &str) -> &'a Value {
    cue["content"]["sources"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["path"] == path)
        .unwrap_or_else(|| panic!("no source {path} in {cue:#}"))
}

const README: &str =
    "# Widget\n\nWidget caches repository context.\n\n## Rules\n\nKeep cues small.\n";

/// The documented example: a repository with `internal/cue`, a README pinned whole by the
/// required item `repository-context`, committed and initialized.
fn example() -> TestRepo {
    let repo = TestRepo::with_files(&[
        ("README.md", README),
        ("internal/cue/cue.go", "package cue\n"),
        ("cmd/main.go", "package main\n"),
        ("docs/build.md", "# Build\n\nRun `make`.\n"),
    ]);
    declare(
        &repo,
        vec![
            item(
                "repository-context",
                true,
                json!(null),
                json!(["."]),
                reference(&repo, "README.md", None),
            ),
            item(
                "build",
                false,
                json!(["verification"]),
                json!(["cmd"]),
                reference(&repo, "docs/build.md", None),
            ),
        ],
    );
    repo.commit("task context");
    repo.init();
    repo
}

#[test]
fn the_example_delivers_the_readme_as_required_repository_context() {
    let repo = example();
    let cue = task(
        &repo,
        "discovery",
        &["internal/cue"],
        &["--max-tokens", "5000"],
    )
    .json();
    assert_eq!(cue["schema_version"], "repocue/cue-4");
    assert!(
        cue["provenance"].is_object(),
        "the task view always carries provenance"
    );
    assert_eq!(cue["kind"], "task");
    assert_eq!(cue["freshness"], "current");
    let content = &cue["content"];
    assert_eq!(content["required_ids"], json!(["repository-context"]));
    assert_eq!(
        content["request"],
        json!({"task_kind": "discovery", "targets": ["internal/cue"]})
    );
    assert_eq!(content["declaration"]["path"], CTX);
    assert_eq!(content["declaration"]["content_digest"], pin(&repo, CTX));
    let readme = source(&cue, "README.md");
    assert_eq!(
        readme["content_digest"],
        format!("sha256:{}", sha256(README.as_bytes()))
    );
    assert_eq!(readme["lines"], Value::Null);
    assert_eq!(
        readme["text"], README,
        "the original text, decoded from JSON"
    );
    assert_eq!(
        readme["text_digest"],
        format!("sha256:{}", sha256(README.as_bytes()))
    );
    assert_eq!(readme["origin"], "repository_text");
    assert_eq!(content["items"][0]["source"], readme["id"]);
    assert_eq!(content["omitted"], json!({"count": 0, "items": []}));
    let out = task(
        &repo,
        "discovery",
        &["internal/cue"],
        &["--max-tokens", "5000"],
    );
    assert_eq!(
        cue["provenance"]["estimated_tokens"].as_u64().unwrap(),
        tokens(out.stdout().trim_end())
    );
    let metrics = repo.metrics();
    assert!(
        metrics.cues.iter().any(|c| c.view == "task"),
        "{:?}",
        metrics.cues
    );
}

#[test]
fn selection_follows_components_directories_unions_and_both_dimensions() {
    let repo = TestRepo::with_files(&[
        ("README.md", "readme\n"),
        ("cmd/main.go", "package main\n"),
        ("cmdline/main.go", "package main\n"),
        ("internal/cue/cue.go", "package cue\n"),
    ]);
    let r = reference(&repo, "README.md", None);
    declare(
        &repo,
        vec![
            item("any", false, json!(null), json!(null), r.clone()),
            item("cmd", false, json!(null), json!(["cmd"]), r.clone()),
            item(
                "cue",
                false,
                json!(null),
                json!(["internal/cue"]),
                r.clone(),
            ),
            item("root", false, json!(["discovery"]), json!(["."]), r.clone()),
            item(
                "verify-cmd",
                false,
                json!(["verification"]),
                json!(["cmd"]),
                r.clone(),
            ),
        ],
    );
    repo.commit("declare");
    repo.init();
    let selected = |kind: &str, targets: &[&str]| {
        let cue = task(&repo, kind, targets, &["--max-tokens", "4000"]).json();
        assert_eq!(cue["content"]["omitted"]["count"], 0);
        ids(&cue, "items")
    };
    assert_eq!(
        selected("discovery", &["cmd/main.go"]),
        ["any", "cmd", "root"]
    );
    assert_eq!(selected("discovery", &["cmdline/main.go"]), ["any", "root"]);
    assert_eq!(selected("explanation", &["cmd"]), ["any", "cmd"]);
    assert_eq!(
        selected("verification", &["cmd"]),
        ["any", "cmd", "verify-cmd"]
    );
    // An existing directory covers the deeper scope; a file path of the same name would not.
    assert_eq!(selected("explanation", &["internal"]), ["any", "cue"]);
    assert_eq!(
        selected("explanation", &["internal/cue/new_file.go"]),
        ["any", "cue"]
    );
    assert_eq!(selected("explanation", &["interna"]), ["any"]);
    // Several targets are a union, sorted and de-duplicated in the request.
    let cue = task(&repo, "verification", &["internal", "cmd", "internal"], &[]).json();
    assert_eq!(ids(&cue, "items"), ["any", "cmd", "cue", "verify-cmd"]);
    assert_eq!(
        cue["content"]["request"]["targets"],
        json!(["cmd", "internal"])
    );
    assert_eq!(
        cue["content"]["sources"].as_array().unwrap().len(),
        1,
        "one shared source"
    );
    assert_eq!(selected("explanation", &["."]), ["any", "cmd", "cue"]);
    // Nothing applies: a valid, empty task cue.
    declare(
        &repo,
        vec![item("cmd", true, json!(null), json!(["cmd"]), r)],
    );
    repo.commit("narrow");
    assert_eq!(selected("discovery", &["docs"]), Vec::<String>::new());
}

#[test]
fn flags_and_paths_are_checked_before_anything_is_read() {
    let repo = example();
    let bad_targets = [
        "", "/abs", "C:/x", "c:x", "a\\b", "a\tb", "a/", "a//b", "./a", "a/./b", "a/..", "../x",
    ];
    for t in bad_targets {
        let e = task(&repo, "discovery", &[t], &[]).error_code("invalid_argument");
        assert!(
            e.error.message.contains("--target"),
            "{t:?}: {}",
            e.error.message
        );
    }
    for f in ["", "/etc/passwd", "../x.json", "docs/", "."] {
        let args = [
            "cue",
            "--view",
            "task",
            "--context-file",
            f,
            "--task-kind",
            "discovery",
            "--target",
            ".",
        ];
        repo.repocue(&args).error_code("invalid_argument");
    }
    task(&repo, "deploy", &["."], &[]).error_code("invalid_argument");
    task(&repo, "Discovery", &["."], &[]).error_code("invalid_argument");
    // Missing task flags.
    let base = ["cue", "--view", "task"];
    for missing in [
        &["--task-kind", "discovery", "--target", "."][..],
        &["--context-file", CTX, "--target", "."],
        &["--context-file", CTX, "--task-kind", "discovery"],
    ] {
        let args: Vec<&str> = base.iter().chain(missing).copied().collect();
        repo.repocue(&args).error_code("invalid_argument");
    }
    // Task flags with another view; other views' flags with the task view, even empty.
    for flag in [
        &["--context-file", CTX][..],
        &["--task-kind", "discovery"],
        &["--target", "."],
    ] {
        let args: Vec<&str> = ["cue", "--view", "overview"]
            .iter()
            .chain(flag)
            .copied()
            .collect();
        repo.repocue(&args).error_code("invalid_argument");
    }
    for (flag, value) in [
        ("--since", ""),
        ("--path", ""),
        ("--since", "snapshot-000001"),
        ("--path", "internal"),
        ("--id", "file:README.md"),
        ("--query", "x"),
        ("--scope", "code"),
    ] {
        let e = task(&repo, "discovery", &["."], &[flag, value]).error_code("invalid_argument");
        assert!(
            e.error.message.contains(flag),
            "{flag}: {}",
            e.error.message
        );
    }
}

#[test]
fn declarations_are_parsed_strictly() {
    let repo = example();
    let ok = String::from_utf8(repo.read(CTX)).unwrap();
    let cases: Vec<(String, &str)> = vec![
        (ok.replacen('{', "{\"extra\": 1, ", 1), "unknown field"),
        (
            ok.replacen(
                "\"required\": true",
                "\"required\": true, \"required\": true",
                1,
            ),
            "duplicate field",
        ),
        (format!("{ok} {{}}"), "trailing"),
        (ok.replacen("null", "[\"deploy\"]", 1), "unknown task kind"),
        (
            ok.replacen("\"README.md\"", "\"./README.md\"", 1),
            "segment",
        ),
        (
            ok.replacen("repository-context", "Repository Context", 1),
            "is not an id",
        ),
        (
            ok.replacen("\"build\"", "\"repository-context\"", 1),
            "duplicate id",
        ),
    ];
    for (text, want) in cases {
        repo.write(CTX, &text);
        repo.commit("broken declaration");
        let e = task(&repo, "discovery", &["."], &[]).error_code("invalid_declaration");
        assert!(
            e.error.message.contains(want),
            "{want}: {}",
            e.error.message
        );
    }
    let mut bytes = ok.into_bytes();
    bytes.extend_from_slice(b"\xff");
    repo.write(CTX, &bytes);
    repo.commit("not UTF-8");
    let e = task(&repo, "discovery", &["."], &[]).error_code("invalid_declaration");
    assert!(e.error.message.contains("UTF-8"), "{}", e.error.message);
}

#[test]
fn line_ranges_keep_the_original_bytes() {
    let repo = TestRepo::new();
    repo.write("crlf.txt", "one\r\ntwo\r\nthree\r\n");
    repo.write("unterminated.txt", "first\nlast");
    repo.write("empty.txt", "");
    repo.write("mixed.txt", "valid line\n\u{e9}t\u{e9}\n");
    repo.write("README.md", "r\n");
    declare(
        &repo,
        vec![
            item(
                "a-crlf",
                true,
                json!(null),
                json!(null),
                reference(&repo, "crlf.txt", Some((2, 3))),
            ),
            item(
                "b-last",
                true,
                json!(null),
                json!(null),
                reference(&repo, "unterminated.txt", Some((2, 2))),
            ),
            item(
                "c-empty",
                true,
                json!(null),
                json!(null),
                reference(&repo, "empty.txt", None),
            ),
            item(
                "d-mixed",
                true,
                json!(null),
                json!(null),
                reference(&repo, "mixed.txt", Some((2, 2))),
            ),
        ],
    );
    repo.commit("sources");
    repo.init();
    let cue = task(&repo, "discovery", &["."], &["--max-tokens", "2000"]).json();
    let text = |p: &str| source(&cue, p)["text"].as_str().unwrap().to_owned();
    assert_eq!(text("crlf.txt"), "two\r\nthree\r\n");
    assert_eq!(text("unterminated.txt"), "last");
    assert_eq!(text("empty.txt"), "");
    assert_eq!(text("mixed.txt"), "\u{e9}t\u{e9}\n");
    for s in cue["content"]["sources"].as_array().unwrap() {
        let t = s["text"].as_str().unwrap();
        assert_eq!(s["text_digest"], format!("sha256:{}", sha256(t.as_bytes())));
    }

    // A range past the last line.
    declare(
        &repo,
        vec![item(
            "a",
            true,
            json!(null),
            json!(null),
            reference(&repo, "unterminated.txt", Some((2, 3))),
        )],
    );
    repo.commit("past the end");
    let e = task(&repo, "discovery", &["."], &[]).error_code("range_out_of_bounds");
    assert!(
        e.error.message.contains("has 2 lines"),
        "{}",
        e.error.message
    );
    declare(
        &repo,
        vec![item(
            "a",
            true,
            json!(null),
            json!(null),
            reference(&repo, "empty.txt", Some((1, 1))),
        )],
    );
    repo.commit("range in an empty file");
    task(&repo, "discovery", &["."], &[]).error_code("range_out_of_bounds");

    // Invalid UTF-8 outside the selected range still fails.
    repo.write("latin1.txt", b"fine\ncaf\xe9\n");
    declare(
        &repo,
        vec![item(
            "a",
            true,
            json!(null),
            json!(null),
            reference(&repo, "latin1.txt", Some((1, 1))),
        )],
    );
    repo.commit("latin-1");
    let e = task(&repo, "discovery", &["."], &[]).error_code("invalid_utf8");
    assert!(e.error.message.contains("line 2"), "{}", e.error.message);
}

/// Each distinct source reads its file whole (to check its pin): a declaration of a thousand
/// line ranges of one large file would read it a thousand times. A selection that would read
/// more than a gibibyte is refused before anything is read; `task-context check` reads each
/// file once, however many references name it.
#[test]
fn a_declaration_that_would_read_a_file_a_thousand_times_is_refused() {
    let big: String = (0..70_000).map(|i| format!("line {i:>10}\n")).collect();
    assert!(big.len() > 1 << 20);
    let repo = TestRepo::with_files(&[("big.txt", big.as_str())]);
    let items: Vec<Value> = (1..=1100)
        .map(|i| {
            item(
                &format!("r{i:04}"),
                false,
                Value::Null,
                Value::Null,
                reference(&repo, "big.txt", Some((i, i))),
            )
        })
        .collect();
    declare(&repo, items);
    repo.commit("declare");
    let e = task(&repo, "discovery", &["."], &[]).error_code("invalid_declaration");
    assert!(e.error.message.contains("at most"), "{e:?}");
    let check = repo.json(&["task-context", "check", "--context-file", CTX]);
    assert_eq!(check["pins"], 1100, "{check}");
    assert_eq!(check["stale"], json!([]), "{check}");
}

#[test]
fn stale_pins_and_changed_declarations_fail_without_stdout() {
    let repo = example();
    let ok = task(&repo, "discovery", &["."], &["--max-tokens", "4000"]).json();
    // The README changes (committed or not): the pin is stale until the author renews it.
    repo.write("README.md", format!("{README}More.\n"));
    let e = task(&repo, "discovery", &["."], &[]).error_code("stale_pin");
    assert!(e.error.message.contains("README.md"), "{}", e.error.message);
    assert!(e.error.hint.unwrap_or_default().contains("pin --update"));
    repo.commit("readme grows");
    task(&repo, "discovery", &["."], &[]).error_code("stale_pin");
    repo.write("README.md", README);
    repo.commit("readme back");
    assert_eq!(
        task(&repo, "discovery", &["."], &["--max-tokens", "4000"]).json()["content"],
        ok["content"]
    );

    // An uncommitted edit of the declaration is served after refresh-on-read
    // (dirty-but-indexed), and refused when the snapshot may not be refreshed.
    let edited = String::from_utf8(repo.read(CTX))
        .unwrap()
        .replace("\"build\"", "\"build-2\"");
    repo.write(CTX, &edited);
    task(&repo, "discovery", &["."], &["--no-refresh"]).error_code("refresh_needed");
    let cue = task(&repo, "verification", &["cmd"], &["--max-tokens", "4000"]).json();
    assert_eq!(cue["freshness"], "dirty-but-indexed");
    assert_eq!(ids(&cue, "items"), ["build-2", "repository-context"]);
    assert_eq!(
        cue["content"]["declaration"]["content_digest"],
        pin(&repo, CTX)
    );
    repo.commit("rename item");
    task(&repo, "discovery", &["."], &["--no-refresh"]).error_code("refresh_needed");
    // With --no-refresh and a current snapshot the cue is served.
    repo.refresh();
    task(
        &repo,
        "discovery",
        &["."],
        &["--no-refresh", "--max-tokens", "4000"],
    )
    .json();
}

#[test]
fn sources_must_be_tracked_regular_files_without_links() {
    let repo = example();
    let code = |source: Value| {
        declare(
            &repo,
            vec![item("a", true, json!(null), json!(null), source)],
        );
        repo.commit("declare");
        task(&repo, "discovery", &["."], &[]).error().error.code
    };
    // Untracked (ignored files are neither tracked nor in the snapshot).
    repo.write(".gitignore", "notes.md\n");
    repo.write("notes.md", "private\n");
    assert_eq!(code(reference(&repo, "notes.md", None)), "not_tracked");
    assert_eq!(
        code(
            json!({"path": "nowhere.md", "content_digest": pin(&repo, "README.md"), "lines": null})
        ),
        "not_tracked"
    );
    // A tracked symbolic link.
    repo.symlink("README.md", "link.md");
    assert_eq!(code(reference(&repo, "link.md", None)), "symlink_rejected");
    // A tracked file whose parent directory became a symbolic link.
    repo.write("real/guide.md", "guide\n");
    repo.write("elsewhere/guide.md", "guide\n");
    declare(
        &repo,
        vec![item(
            "a",
            true,
            json!(null),
            json!(null),
            reference(&repo, "real/guide.md", None),
        )],
    );
    repo.commit("guide");
    task(&repo, "discovery", &["."], &[]).json();
    std::fs::remove_dir_all(repo.path("real")).unwrap();
    repo.symlink("elsewhere", "real");
    task(&repo, "discovery", &["."], &[]).error_code("symlink_rejected");
    repo.remove("real");
    repo.git(&["checkout", "--", "real"]);
    // A submodule.
    let upstream = TestRepo::with_files(&[("inner.txt", "inside\n")]);
    repo.git(&[
        "-c",
        "protocol.file.allow=always",
        "submodule",
        "add",
        "-q",
        upstream.root().to_str().unwrap(),
        "sub",
    ]);
    repo.commit("submodule");
    let gitlink = json!({"path": "sub", "content_digest": pin(&repo, "README.md"), "lines": null});
    assert_eq!(code(gitlink), "not_regular");
    // The declaration itself must be tracked.
    repo.write("other.json", String::from_utf8(repo.read(CTX)).unwrap());
    let args = [
        "cue",
        "--view",
        "task",
        "--context-file",
        "other.json",
        "--task-kind",
        "discovery",
        "--target",
        ".",
    ];
    repo.repocue(&args).error_code("not_tracked");
}

#[test]
fn budget_keeps_required_items_whole_and_omits_optional_ones_by_id() {
    let repo = TestRepo::with_files(&[
        ("README.md", &*"required text line\n".repeat(20)),
        ("big.md", &*"optional but large\n".repeat(200)),
        ("small.md", "small optional\n"),
    ]);
    let readme = reference(&repo, "README.md", None);
    declare(
        &repo,
        vec![
            item("a-required", true, json!(null), json!(null), readme.clone()),
            item(
                "b-big",
                false,
                json!(null),
                json!(null),
                reference(&repo, "big.md", None),
            ),
            item(
                "c-small",
                false,
                json!(null),
                json!(null),
                reference(&repo, "small.md", None),
            ),
            item("d-shares-readme", false, json!(null), json!(null), readme),
        ],
    );
    repo.commit("declare");
    repo.init();
    // Too small for the required item: no stdout, the minimum stated, and the minimum works.
    let e =
        task(&repo, "discovery", &["."], &["--max-tokens", "100"]).error_code("budget_too_small");
    let minimum: u64 = e
        .error
        .message
        .split("at least ")
        .nth(1)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert!(minimum > 100, "{minimum}");
    let cue = task(
        &repo,
        "discovery",
        &["."],
        &["--max-tokens", &minimum.to_string()],
    )
    .json();
    assert_eq!(cue["content"]["required_ids"], json!(["a-required"]));
    assert!(cue["provenance"]["estimated_tokens"].as_u64().unwrap() <= minimum);
    let below = (minimum - 50).to_string();
    task(&repo, "discovery", &["."], &["--max-tokens", &below]).error_code("budget_too_small");

    // Room for the small ones but not the big one: skip it, keep going in id order.
    let cue = task(&repo, "discovery", &["."], &["--max-tokens", "900"]).json();
    assert_eq!(
        ids(&cue, "items"),
        ["a-required", "c-small", "d-shares-readme"]
    );
    assert_eq!(
        cue["content"]["omitted"],
        json!({"count": 1, "items": [{"id": "b-big", "reason": "budget"}]})
    );
    assert_eq!(
        cue["content"]["sources"].as_array().unwrap().len(),
        2,
        "README once"
    );
    let out = task(&repo, "discovery", &["."], &["--max-tokens", "900"]);
    assert!(tokens(out.stdout().trim_end()) <= 900);
    assert!(!out.stdout().contains("optional but large"));
    // Everything fits.
    let cue = task(&repo, "discovery", &["."], &["--max-tokens", "5000"]).json();
    assert_eq!(cue["content"]["omitted"]["count"], 0);
    assert_eq!(ids(&cue, "items").len(), 4);

    // An omitted optional item is still validated: its stale pin fails the cue.
    repo.write("big.md", "changed\n");
    repo.commit("big changes");
    task(&repo, "discovery", &["."], &["--max-tokens", "900"]).error_code("stale_pin");
}

#[test]
fn task_cues_are_deterministic_and_keep_no_text_in_the_store() {
    let marker = "MARKER-7f3a rule text that must not be cached";
    let repo = TestRepo::with_files(&[
        ("README.md", "readme\n"),
        ("rules/policy.rules", &format!("{marker}\n")),
    ]);
    declare(
        &repo,
        vec![item(
            "policy",
            true,
            json!(["verification"]),
            json!(["."]),
            reference(&repo, "rules/policy.rules", None),
        )],
    );
    repo.commit("declare");
    repo.init();
    let args = ["--max-tokens", "1000"];
    let first = task(&repo, "verification", &["."], &args);
    let second = task(&repo, "verification", &["."], &args);
    assert_eq!(first.success().stdout(), second.success().stdout());
    assert!(first.stdout().contains("MARKER-7f3a"));
    let md = task(&repo, "verification", &["."], &["--format", "markdown"]);
    assert!(
        md.success().stdout().contains("MARKER-7f3a"),
        "{}",
        md.stdout()
    );
    let db = std::fs::read(repo.db_path()).unwrap();
    let wal = std::fs::read(repo.db_path().with_extension("db-wal")).unwrap_or_default();
    for bytes in [db, wal] {
        assert!(
            !bytes.windows(11).any(|w| w == b"MARKER-7f3a"),
            "rule text in the store"
        );
    }
}

#[test]
fn check_lists_stale_pins_and_pin_update_renews_them() {
    let repo = example();
    let check = |extra: &[&str]| {
        let mut args = vec!["task-context", "check", "--context-file", CTX];
        args.extend_from_slice(extra);
        repo.repocue(&args)
    };
    let ok = check(&[]).json();
    assert_eq!(ok["schema_version"], "repocue/task-context-check-1");
    assert_eq!(ok["stale"], json!([]));
    assert_eq!(ok["pins"], 2);

    let before = String::from_utf8(repo.read(CTX)).unwrap();
    repo.write("README.md", "# Widget\n\nRewritten.\n");
    repo.commit("new readme");
    let out = check(&[]);
    assert_eq!(out.code(), Some(1), "{}", out.describe());
    let listed: Value = serde_json::from_str(&out.stdout()).unwrap();
    let stale = listed["stale"].as_array().unwrap();
    assert_eq!(stale.len(), 1, "{listed:#}");
    assert_eq!(stale[0]["item"], "repository-context");
    assert_eq!(stale[0]["path"], "README.md");
    assert_eq!(
        stale[0]["expected"],
        format!("sha256:{}", sha256(README.as_bytes()))
    );
    assert_eq!(stale[0]["actual"], pin(&repo, "README.md"));
    task(&repo, "discovery", &["."], &[]).error_code("stale_pin");

    let updated = repo
        .repocue(&["task-context", "pin", "--update", "--context-file", CTX])
        .json();
    assert_eq!(
        updated["updated"].as_array().unwrap().len(),
        1,
        "{updated:#}"
    );
    let after = String::from_utf8(repo.read(CTX)).unwrap();
    assert_eq!(
        after,
        before.replace(
            &format!("sha256:{}", sha256(README.as_bytes())),
            &pin(&repo, "README.md")
        ),
        "only the digest changed"
    );
    assert_eq!(check(&[]).json()["stale"], json!([]));
    repo.commit("renew pins");
    let cue = task(&repo, "discovery", &["."], &["--max-tokens", "4000"]).json();
    assert_eq!(
        source(&cue, "README.md")["text"],
        "# Widget\n\nRewritten.\n"
    );
    // Nothing to do: the file is left byte for byte.
    let again = repo
        .repocue(&["task-context", "pin", "--update", "--context-file", CTX])
        .json();
    assert_eq!(again["updated"], json!([]));
    assert_eq!(repo.read(CTX), after.as_bytes());
    // Without --update nothing is written and the command says so.
    repo.repocue(&["task-context", "pin", "--context-file", CTX])
        .usage_error();
}
