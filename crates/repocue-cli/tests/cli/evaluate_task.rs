//! `evaluate-task prepare|run|summary` end to end on a real temporary repository with a
//! task-context declaration, through the experiment engine and the synthetic runner (and a
//! small Python runner that fails). No real agent is ever started.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::support::schema::assert_valid;
use crate::support::{sha256, TestRepo, BIN};

const README: &str =
    "# Widget\n\nWidget caches repository context.\n\n## Rules\n\nKeep cues small.\n";

/// A repository whose declaration makes the README required for every task and a guide
/// optional for `src`, committed.
fn repo() -> TestRepo {
    let repo = TestRepo::with_files(&[
        ("README.md", README),
        ("src/lib.rs", "pub fn widget() -> u32 {\n    1\n}\n"),
        ("docs/guide.md", "# Guide\n\nUse the widget.\n"),
    ]);
    let pin = |p: &str| format!("sha256:{}", sha256(&repo.read(p)));
    let item = |id: &str, required: bool, paths: Value, path: &str| {
        json!({"id": id, "kind": "instruction", "required": required, "tasks": null,
               "paths": paths, "source": {"path": path, "content_digest": pin(path), "lines": null}})
    };
    let doc = json!({"schema_version": "repocue/task-context-1", "items": [
        item("repository-context", true, json!(["."]), "README.md"),
        item("guide", false, json!(["src"]), "docs/guide.md"),
    ]});
    repo.write(
        "task-context.json",
        serde_json::to_string_pretty(&doc).unwrap(),
    );
    repo.commit("declare task context");
    repo
}

/// Writes a discovery benchmark outside the repository.
fn benchmark(repo: &TestRepo, kind: &str) -> PathBuf {
    let b = json!({
        "schema_version": "repocue/task-benchmark-1",
        "task_id": "find-the-rules",
        "task_kind": kind,
        "prompt": "Which repository rules apply to changes under src/? Answer with one repocue/task-answer-1 JSON object.",
        "declaration": "task-context.json",
        "targets": ["src"],
        "max_tokens": 3000
    });
    let p = repo.outside().join("benchmark.json");
    std::fs::write(&p, serde_json::to_vec_pretty(&b).unwrap()).unwrap();
    p
}

fn prepare(repo: &TestRepo, extra: &[&str]) -> PathBuf {
    let bench = benchmark(repo, "discovery");
    let out = repo.outside().join("sets");
    let mut args = vec![
        "evaluate-task",
        "prepare",
        "--task-file",
        bench.to_str().unwrap(),
        "--output-directory",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let v = repo.json(&args);
    PathBuf::from(v["set"].as_str().expect("set path"))
}

fn read_json(p: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()
}

fn summary(repo: &TestRepo, set: &Path) -> Value {
    // The summary starts no process: it runs with an empty PATH.
    let mut cmd = repo.bare_command();
    cmd.env("PATH", "")
        .args(["evaluate-task", "summary", "--input-directory"])
        .arg(set);
    let v = repo.run(cmd).json();
    assert_valid("task-summary", &v);
    v
}

fn attempt<'a>(s: &'a Value, id: &str) -> &'a Value {
    s["attempts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["attempt_id"] == id)
        .unwrap_or_else(|| panic!("no attempt {id} in {s:#}"))
}

#[test]
fn evaluate_task_runs_one_ordered_pair_per_invocation_and_summarises_read_only() {
    let repo = repo();
    let set = prepare(&repo, &["--pairs", "2"]);
    let manifest = read_json(&set.join("experiment.json"));
    let arms: Vec<&str> = manifest["arms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["name"].as_str().unwrap())
        .collect();
    assert_eq!(arms, ["overview", "task"], "no direct arm in a task set");
    let order: Vec<&str> = manifest["schedule"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["attempt_id"].as_str().unwrap())
        .collect();
    assert_eq!(
        order,
        [
            "pair-01/overview",
            "pair-01/task",
            "pair-02/task",
            "pair-02/overview"
        ],
        "alternating order, recorded at preparation"
    );
    let tc = &manifest["task_context"];
    assert_eq!(
        tc["expectation"]["required_ids"],
        json!(["repository-context"])
    );
    assert_eq!(
        tc["expectation"]["required_sources"][0]["path"],
        "README.md"
    );
    assert_eq!(tc["cues"].as_array().unwrap().len(), 2, "both cues kept");
    let task_cue = read_json(&set.join("probes/task.stdout"));
    assert_eq!(task_cue["kind"], "task");
    assert_eq!(
        read_json(&set.join("probes/overview.stdout"))["kind"],
        "overview"
    );
    assert_eq!(
        read_json(&set.join("answer.schema.json"))["title"],
        "TaskAnswer"
    );
    assert_valid("experiment", &manifest);

    // One pair per invocation.
    let first = repo.json(&[
        "evaluate-task",
        "run",
        "--set",
        set.to_str().unwrap(),
        "--synthetic",
    ]);
    let ran: Vec<&str> = first["attempts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["attempt_id"].as_str().unwrap())
        .collect();
    assert_eq!(ran, ["pair-01/overview", "pair-01/task"]);
    let req = read_json(&set.join("attempts/pair-01_task/request.json"));
    assert_eq!(req["answer_schema_version"], "repocue/task-answer-1");
    let cue = std::fs::read_to_string(set.join("attempts/pair-01_task/context.txt")).unwrap();
    assert!(req["prompt"]
        .as_str()
        .unwrap()
        .starts_with("Which repository rules"));
    assert!(
        req["prompt"].as_str().unwrap().contains(&cue),
        "task first, then the cue"
    );

    let s = summary(&repo, &set);
    assert_eq!(s["schema_version"], "repocue/task-summary-1");
    assert_eq!(
        (
            s["counts"]["completed"].as_u64(),
            s["counts"]["pending"].as_u64()
        ),
        (Some(2), Some(2))
    );
    let task = attempt(&s, "pair-01/task");
    assert_eq!(task["position"], 2);
    assert_eq!(task["delivery"]["status"], "complete");
    assert_eq!(task["correctness"]["status"], "passed");
    assert_eq!(task["compliance"]["status"], "not_observed");
    let overview = attempt(&s, "pair-01/overview");
    assert_eq!(overview["delivery"]["status"], "complete");
    assert_eq!(
        overview["delivery"]["required_ids_missing"],
        json!(["repository-context"]),
        "the overview does not carry the declared text"
    );
    assert_eq!(overview["correctness"]["status"], "failed");
    assert_eq!(s["comparison"]["complete_pairs"], 1);
    assert_eq!(s["verdict"]["outcome"], "unavailable");
    let reasons = s["verdict"]["reasons"].to_string();
    assert!(
        reasons.contains("synthetic") && reasons.contains("1 of 2 pairs"),
        "{reasons}"
    );

    repo.repocue(&[
        "evaluate-task",
        "run",
        "--set",
        set.to_str().unwrap(),
        "--synthetic",
    ])
    .success();
    repo.repocue(&[
        "evaluate-task",
        "run",
        "--set",
        set.to_str().unwrap(),
        "--synthetic",
    ])
    .error_code("nothing_to_run");
    let s = summary(&repo, &set);
    assert_eq!(s["comparison"]["complete_pairs"], 2);
    assert_eq!(s["correctness_difference"]["median"], 1.0);
    let total = s["comparison"]["dimensions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["name"] == "total_tokens")
        .unwrap();
    assert_eq!(total["saving"]["count"], 2, "coverage: both pairs known");
    assert_eq!(attempt(&s, "pair-02/task")["position"], 1);
    // Byte-identical on a second read: nothing was written.
    assert_eq!(summary(&repo, &set), s);

    // Task evidence is not a calibration, and the generic summary refuses the set.
    repo.init();
    repo.repocue(&["experiment", "summary", "--set", set.to_str().unwrap()])
        .error_code("wrong_kind");
    repo.repocue(&["calibration", "import", "--set", set.to_str().unwrap()])
        .error_code("incompatible_reports");
    repo.repocue(&["evaluate-task", "run", "--set", set.to_str().unwrap()])
        .usage_error();
}

#[test]
fn a_failed_first_arm_stops_its_pair_and_is_retained() {
    let repo = repo();
    let set = prepare(&repo, &["--pairs", "2"]);
    let runner = repo.outside().join("failing-runner");
    crate::support::write_executable(&runner, b"#!/bin/sh\necho 'agent crashed' >&2\nexit 3\n");
    let ran = repo.repocue(&[
        "evaluate-task",
        "run",
        "--set",
        set.to_str().unwrap(),
        "--runner",
        runner.to_str().unwrap(),
    ]);
    ran.error_code("attempt_failed");
    assert!(set.join("attempts/pair-01_overview/record.json").is_file());
    assert!(
        !set.join("journal/pair-01_task.json").exists(),
        "no second launch after a failed first arm"
    );
    let s = summary(&repo, &set);
    let failed = attempt(&s, "pair-01/overview");
    assert_eq!(failed["status"], "failed");
    assert_eq!(failed["error"]["code"], "runner_failed");
    assert!(failed["error"]["message"]
        .as_str()
        .unwrap()
        .contains("agent crashed"));
    assert_eq!(failed["correctness"]["status"], "not_observed");
    // The interrupted pair is never continued: the next run starts pair-02.
    let next = repo.json(&[
        "evaluate-task",
        "run",
        "--set",
        set.to_str().unwrap(),
        "--runner",
        BIN,
        "--runner-arg",
        "experiment",
        "--runner-arg",
        "synthetic-runner",
    ]);
    assert_eq!(next["attempts"][0]["attempt_id"], "pair-02/task");
    let s = summary(&repo, &set);
    assert_eq!(s["counts"]["failed"], 1);
    assert_eq!(s["counts"]["pending"], 1, "pair-01/task stays unlaunched");
    assert_eq!(s["comparison"]["complete_pairs"], 1);
}

#[test]
fn evaluate_task_prepare_rejects_bad_benchmarks_before_creating_anything() {
    let repo = repo();
    let bench = benchmark(&repo, "deploy");
    let out = repo.outside().join("sets");
    repo.repocue(&[
        "evaluate-task",
        "prepare",
        "--task-file",
        bench.to_str().unwrap(),
        "--output-directory",
        out.to_str().unwrap(),
    ])
    .error_code("invalid_benchmark");
    assert!(!out.exists(), "nothing was created");
    // A declaration that is not tracked fails at preparation, through the real task cue.
    let mut b = read_json(&benchmark(&repo, "discovery"));
    b["declaration"] = json!("missing.json");
    std::fs::write(&bench, serde_json::to_vec(&b).unwrap()).unwrap();
    let e = repo
        .repocue(&[
            "evaluate-task",
            "prepare",
            "--task-file",
            bench.to_str().unwrap(),
            "--output-directory",
            out.to_str().unwrap(),
        ])
        .error_code("invalid_argument");
    assert!(
        e.error.message.contains("arm \"task\""),
        "{}",
        e.error.message
    );
    let leftovers = std::fs::read_dir(&out).map(|d| d.count()).unwrap_or(0);
    assert_eq!(leftovers, 0, "the staging directory was removed");
}
