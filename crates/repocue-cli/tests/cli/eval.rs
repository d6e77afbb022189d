//! The measuring half end to end: `experiment prepare|run|summary`, `calibration import` and
//! `report`, on real temporary repositories with the deterministic synthetic runner (and small
//! Python runners wrapping it). No real agent is ever started.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::support::{sha256, TestRepo, BIN};

fn repo() -> TestRepo {
    let repo = TestRepo::with_files(&[
        ("README.md", "# Demo\n\nA demo project.\n"),
        ("src/main.rs", "fn main() {\n    println!(\"hi\");\n}\n"),
        ("docs/guide.md", "# Guide\n"),
    ]);
    repo.write("notes.txt", "scratch\n");
    repo.init();
    repo
}

fn sets_dir(repo: &TestRepo) -> PathBuf {
    repo.outside().join("sets")
}

fn prepare(repo: &TestRepo, extra: &[&str]) -> PathBuf {
    let out = sets_dir(repo);
    let mut args = vec![
        "experiment",
        "prepare",
        "--output-directory",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    let v = repo.json(&args);
    PathBuf::from(v["set"].as_str().expect("set path"))
}

fn run(repo: &TestRepo, set: &Path, extra: &[&str]) -> crate::support::Ran {
    let mut args = vec!["experiment", "run", "--set", set.to_str().unwrap()];
    args.extend_from_slice(extra);
    repo.repocue(&args)
}

fn summary(repo: &TestRepo, set: &Path) -> Value {
    repo.json(&["experiment", "summary", "--set", set.to_str().unwrap()])
}

fn import(repo: &TestRepo, sets: &[&Path]) -> crate::support::Ran {
    let mut args: Vec<&str> = vec!["calibration", "import"];
    for s in sets {
        args.extend(["--set", s.to_str().unwrap()]);
    }
    repo.repocue(&args)
}

fn calibrations_dir(repo: &TestRepo) -> PathBuf {
    repo.db_path().parent().unwrap().join("calibrations")
}

/// Asserts that no calibration artifact and no reference row exist.
#[track_caller]
fn assert_nothing_published(repo: &TestRepo) {
    let dir = calibrations_dir(repo);
    let files = std::fs::read_dir(&dir).map(|d| d.count()).unwrap_or(0);
    assert_eq!(files, 0, "artifacts were published in {}", dir.display());
    let r = repo.json(&["report"]);
    assert_eq!(
        r["profiles"],
        Value::Array(vec![]),
        "a reference row exists"
    );
    assert_eq!(r["selection"]["outcome"], "none");
}

/// Copies a set directory (sets are relocatable: every reference is set-relative).
/// Rewrites a set's `experiment.json` after the fact, as a hand edit would.
fn edit_manifest(set: &Path, edit: impl FnOnce(&mut Value)) {
    let path = set.join("experiment.json");
    let mut exp: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    edit(&mut exp);
    std::fs::write(&path, serde_json::to_vec(&exp).unwrap()).unwrap();
}

fn copy_set(set: &Path, name: &str) -> PathBuf {
    let to = set.parent().unwrap().join(name);
    let ok = std::process::Command::new("cp")
        .arg("-R")
        .arg(set)
        .arg(&to)
        .status()
        .unwrap()
        .success();
    assert!(ok);
    to
}

/// Writes a Python runner that runs the synthetic runner and edits its observation with
/// `edit` (Python statements on `obs` and `req`), or runs `pre` before.
fn python_runner(repo: &TestRepo, name: &str, pre: &str, edit: &str) -> PathBuf {
    let path = repo.outside().join(name);
    let script = format!(
        "#!/usr/bin/env python3\nimport json, os, subprocess\n\
         req = json.load(open(os.environ['REPOCUE_RUNNER_REQUEST']))\n{pre}\n\
         out = subprocess.run([{bin:?}, 'experiment', 'synthetic-runner'], check=True, capture_output=True).stdout\n\
         obs = json.loads(out)\n{edit}\nprint(json.dumps(obs))\n",
        bin = BIN
    );
    crate::support::write_executable(&path, script.as_bytes());
    path
}

/// Validates `value` against the checked-in `docs/schema/<stem>.schema.json`.
#[track_caller]
fn validate_schema(stem: &str, value: &Value) {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../docs/schema/{stem}.schema.json"));
    let schema: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let validator = jsonschema::validator_for(&schema).expect("schema compiles");
    let errors: Vec<String> = validator
        .iter_errors(value)
        .map(|e| e.to_string())
        .collect();
    assert!(errors.is_empty(), "{stem}: {errors:?}");
}

fn file_sha(p: &Path) -> String {
    sha256(&std::fs::read(p).unwrap_or_default())
}

#[test]
fn synthetic_pairs_import_and_report_end_to_end() {
    let repo = repo();
    let set = prepare(&repo, &["--pairs", "3"]);
    assert!(set.starts_with(sets_dir(&repo)));
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(set.join("experiment.json")).unwrap()).unwrap();
    assert_eq!(manifest["schema_version"], "repocue/experiment-1");
    let order: Vec<&str> = manifest["schedule"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["attempt_id"].as_str().unwrap())
        .collect();
    assert_eq!(
        order,
        [
            "pair-01/direct",
            "pair-01/basic",
            "pair-02/basic",
            "pair-02/direct",
            "pair-03/direct",
            "pair-03/basic"
        ],
        "alternating order removes the always-direct-first bias"
    );
    let ran = run(&repo, &set, &["--synthetic"]);
    ran.success();
    let out = ran.json();
    validate_schema("experiment-run", &out);
    assert_eq!(out["attempts"].as_array().unwrap().len(), 6);

    // Every attempt: journal written, context = measured cue stdout, raw streams by digest.
    let rec: Value = serde_json::from_slice(
        &std::fs::read(set.join("attempts/pair-02_basic/record.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(rec["status"], "completed");
    validate_schema("experiment-attempt", &rec);
    validate_schema("experiment", &manifest);
    assert!(set.join("journal/pair-02_basic.json").is_file());
    assert_eq!(rec["cue"]["stdout_sha256"], rec["context"]["sha256"]);
    let ctx = std::fs::read(set.join(rec["context"]["path"].as_str().unwrap())).unwrap();
    assert_eq!(
        format!("sha256:{}", sha256(&ctx)),
        rec["cue"]["stdout_sha256"]
    );
    assert_eq!(
        rec["cue"]["estimated_tokens"],
        (ctx.len() as u64).div_ceil(4)
    );
    assert!(rec["cue"]["argv"]
        .as_array()
        .unwrap()
        .iter()
        .any(|a| a == "--no-refresh"));
    assert!(
        rec["cue"]["git_processes"]["value"].is_u64(),
        "{}",
        rec["cue"]
    );
    assert_eq!(rec["pre"]["value"], rec["post"]["value"]);
    let stdout = set.join(rec["runner"]["stdout"]["path"].as_str().unwrap());
    assert_eq!(
        format!("sha256:{}", file_sha(&stdout)),
        rec["runner"]["stdout"]["sha256"]
    );
    let request: Value = serde_json::from_slice(
        &std::fs::read(set.join("attempts/pair-02_basic/request.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(request["schema_version"], "repocue/eval-runner-request-1");
    assert!(request["prompt"]
        .as_str()
        .unwrap()
        .ends_with(std::str::from_utf8(&ctx).unwrap()));
    let direct_req: Value = serde_json::from_slice(
        &std::fs::read(set.join("attempts/pair-02_direct/request.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(direct_req["context"], Value::Null);

    let s = summary(&repo, &set);
    validate_schema("experiment-summary", &s);
    assert_eq!(s["counts"]["completed"], 6);
    assert_eq!(s["verdict"]["claim_allowed"], false);
    assert_eq!(s["verdict"]["sample_grade"], "descriptive");
    let cmp = &s["comparisons"][0];
    assert_eq!(
        (cmp["arm"].as_str(), cmp["baseline"].as_str()),
        (Some("basic"), Some("direct"))
    );
    assert_eq!(cmp["complete_pairs"], 3);
    for a in s["attempts"].as_array().unwrap() {
        assert_eq!(
            a["score"]["passed"], 5,
            "synthetic answers are correct: {a}"
        );
    }
    // Paired: the saving per pair is computed first, then the median.
    let total = cmp["dimensions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["name"] == "total_tokens")
        .unwrap();
    let mut savings: Vec<i64> = total["baseline"]
        .as_array()
        .unwrap()
        .iter()
        .zip(total["arm_with_cue"].as_array().unwrap())
        .map(|(b, a)| b.as_i64().unwrap() - a.as_i64().unwrap())
        .collect();
    savings.sort();
    assert_eq!(total["saving"]["median"].as_f64(), Some(savings[1] as f64));

    let first = import(&repo, &[&set]);
    first.success();
    let imp = first.json();
    validate_schema("calibration-import", &imp);
    validate_schema(
        "calibration",
        &serde_json::from_slice(
            &std::fs::read(
                repo.db_path()
                    .parent()
                    .unwrap()
                    .join(imp["artifact"].as_str().unwrap()),
            )
            .unwrap(),
        )
        .unwrap(),
    );
    assert_eq!(imp["created"], true);
    assert_eq!(imp["sample_grade"], "descriptive");
    assert_eq!(imp["pair_count"], 3);
    let id = imp["calibration_id"].as_str().unwrap().to_owned();
    let artifact = repo
        .db_path()
        .parent()
        .unwrap()
        .join(imp["artifact"].as_str().unwrap());
    let bytes = std::fs::read(&artifact).unwrap();
    assert_eq!(format!("sha256:{}", sha256(&bytes)), imp["artifact_sha256"]);
    let text = String::from_utf8(bytes.clone()).unwrap();
    assert!(
        !text.contains(repo.root().to_str().unwrap()),
        "no absolute paths in the artifact"
    );
    assert!(
        !text.contains("no model read"),
        "no answers in the artifact"
    );
    // Idempotent: same id, nothing rewritten.
    let again = import(&repo, &[&set]).json();
    assert_eq!(again["calibration_id"], id.as_str());
    assert_eq!(again["created"], false);
    assert_eq!(std::fs::read(&artifact).unwrap(), bytes);

    // Report: read-only, projections for 1,2,3,5,10 and the explicit 7.
    let db_before = file_sha(&repo.db_path());
    let wal = repo.db_path().with_extension("db-wal");
    let wal_before = file_sha(&wal);
    let as_of = repocue::time::now_rfc3339();
    let r = repo.json(&["report", "--consumers", "7", "--as-of", &as_of]);
    assert_eq!(r["schema_version"], "repocue/savings-report-1");
    assert_eq!(
        r["profiles"].as_array().unwrap().len(),
        1,
        "re-import added no row"
    );
    assert_eq!(r["selection"]["applicability"], "measured_reference");
    let h = r["maintenance"]["h"]["duration_us"]["value"]
        .as_i64()
        .expect("H observed");
    assert!(h > 0);
    let dur = r["projections"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["dimension"] == "duration_us")
        .unwrap();
    let ns: Vec<u64> = dur["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["consumers"].as_u64().unwrap())
        .collect();
    assert_eq!(ns, [1, 2, 3, 5, 7, 10]);
    for p in dur["pairs"].as_array().unwrap() {
        let (d, a, q) = (
            p["direct"].as_i64().unwrap(),
            p["assisted"].as_i64().unwrap(),
            p["cue"].as_i64().unwrap(),
        );
        let g = d - (a + q);
        assert_eq!(p["gap"].as_i64(), Some(g));
        if g > 0 {
            assert_eq!(p["break_even"]["kind"], "finite");
            assert_eq!(p["break_even"]["consumers"].as_i64(), Some(h / g + 1));
        } else {
            assert_eq!(p["break_even"]["kind"], "no_finite_break_even");
        }
    }
    let tokens = r["projections"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["dimension"] == "total_tokens")
        .unwrap();
    assert_eq!(tokens["h"]["value"], 0, "maintenance spends no LLM tokens");
    assert_eq!(
        file_sha(&repo.db_path()),
        db_before,
        "report wrote to state.db"
    );
    assert_eq!(file_sha(&wal), wal_before, "report wrote to the WAL");

    // Markdown: same numbers (its appendix is the report), a table, a bar chart, break-even.
    let md = repo.repocue(&[
        "report",
        "--consumers",
        "7",
        "--as-of",
        &as_of,
        "--format",
        "markdown",
    ]);
    md.success();
    let md = md.stdout();
    assert!(md.contains("| dimension | unit | H |"), "{md}");
    assert!(md.contains("  D    #") && md.contains("  A+Q  #"), "{md}");
    assert!(md.contains("Break-even (total_tokens)"), "{md}");
    assert!(md.contains("SYNTHETIC"), "{md}");
    let appendix = md
        .split("```json\n")
        .nth(1)
        .unwrap()
        .split("\n```")
        .next()
        .unwrap();
    let mut from_md: Value = serde_json::from_str(appendix).unwrap();
    let mut from_json = r.clone();
    for v in [&mut from_md, &mut from_json] {
        v["generated_at"] = Value::Null;
        v["current"]["observed_at"] = Value::Null;
        v["current"]["validation_duration_ms"] = Value::Null;
    }
    assert_eq!(from_md, from_json);
    for text in [md.as_str(), &r.to_string()] {
        assert!(
            !text.contains(repo.root().to_str().unwrap()),
            "absolute path in a report"
        );
    }
    validate_schema("savings-report", &r);
}

/// One run at a time on a set: a second run while another measures its attempts fails at once
/// (two runs each launched attempts whose times and machine load overlapped).
#[test]
fn a_second_run_on_a_busy_set_fails_at_once() {
    let repo = repo();
    let set = prepare(&repo, &[]);
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(set.join(".run.lock"))
        .unwrap();
    lock.lock().unwrap();
    run(&repo, &set, &["--synthetic"]).error_code("set_busy");
    assert_eq!(
        summary(&repo, &set)["counts"]["completed"],
        0,
        "nothing ran"
    );
    drop(lock);
    run(&repo, &set, &["--synthetic"]).success();
    assert_eq!(summary(&repo, &set)["counts"]["completed"], 2);
}

#[test]
fn dry_run_builds_contexts_but_cannot_calibrate() {
    let repo = repo();
    let set = prepare(&repo, &["--preset", "compare"]);
    let out = run(&repo, &set, &[]);
    out.success();
    let out = out.json();
    assert_eq!(out["dry_run"], true);
    let rec: Value = serde_json::from_slice(
        &std::fs::read(set.join("attempts/pair-01_placebo/record.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(rec["status"], "dry_run");
    assert_eq!(rec["runner"], Value::Null);
    // The placebo has exactly the byte count (and so the token count) of the basic cue.
    let basic: Value = serde_json::from_slice(
        &std::fs::read(set.join("attempts/pair-01_basic/record.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(rec["context"]["bytes"], basic["context"]["bytes"]);
    assert_ne!(rec["context"]["sha256"], basic["context"]["sha256"]);
    let s = summary(&repo, &set);
    assert_eq!(s["counts"]["dry_run"], 3);
    assert_eq!(s["verdict"]["claim_allowed"], false);
    import(&repo, &[&set]).error_code("dry_run_report");
    assert_nothing_published(&repo);
    // Nothing is retried: a second run launches nothing.
    let again = run(&repo, &set, &["--synthetic"]).json();
    assert_eq!(again["attempts"], Value::Array(vec![]));
    assert_eq!(again["skipped"].as_array().unwrap().len(), 3);
}

#[test]
fn import_rejections_publish_nothing() {
    let repo = repo();
    let set = prepare(&repo, &["--pairs", "2"]);
    run(&repo, &set, &["--synthetic"]).success();

    // Missing pair.
    let missing = copy_set(&set, "missing");
    std::fs::remove_dir_all(missing.join("attempts/pair-02_basic")).unwrap();
    let e = import(&repo, &[&missing]).error_code("incomplete_set");
    assert!(e.error.message.contains("pair-02/basic"), "{e:?}");

    // Tampered retained stream.
    let tampered = copy_set(&set, "tampered");
    let p = tampered.join("attempts/pair-01_direct/runner.stdout");
    let mut bytes = std::fs::read(&p).unwrap();
    bytes.extend_from_slice(b" ");
    std::fs::write(&p, bytes).unwrap();
    import(&repo, &[&tampered]).error_code("bad_reference");

    // A frozen file of the set changed after preparation (the task, what preparation printed):
    // the summary refuses it as the import does; it counted the attempts as the new task's.
    for (name, file) in [("task", "task.txt"), ("prepared", "prepare.stdout")] {
        let changed = copy_set(&set, name);
        let mut bytes = std::fs::read(changed.join(file)).unwrap();
        bytes.extend_from_slice(b"\nanother task\n");
        std::fs::write(changed.join(file), bytes).unwrap();
        let e = repo
            .repocue(&["experiment", "summary", "--set", changed.to_str().unwrap()])
            .error_code("bad_reference");
        assert!(e.error.message.contains(file), "{e:?}");
        import(&repo, &[&changed]).error_code("bad_reference");
    }

    // The manifest edited alone: an arm's budget no attempt ran with, a pair dropped from the
    // schedule whose attempts ran.
    let budget = copy_set(&set, "budget");
    edit_manifest(&budget, |exp| {
        for arm in exp["arms"].as_array_mut().unwrap() {
            if arm["name"] == "basic" {
                arm["max_tokens"] = 9999.into();
                for a in arm["argv"].as_array_mut().unwrap() {
                    if a == "500" {
                        *a = "9999".into();
                    }
                }
            }
        }
    });
    let e = import(&repo, &[&budget]).error_code("invalid_evidence");
    assert!(e.error.message.contains("9999"), "{e:?}");
    let dropped = copy_set(&set, "dropped");
    edit_manifest(&dropped, |exp| {
        exp["pairs"] = 1.into();
        exp["schedule"]
            .as_array_mut()
            .unwrap()
            .retain(|s| s["pair_id"] == "pair-01");
    });
    let e = repo
        .repocue(&["experiment", "summary", "--set", dropped.to_str().unwrap()])
        .error_code("invalid_evidence");
    assert!(e.error.message.contains("pair-02"), "{e:?}");
    import(&repo, &[&dropped]).error_code("invalid_evidence");
    // A task replaced together with its digest in the manifest: the requests say which task
    // the agents were given.
    let replaced = copy_set(&set, "replaced");
    std::fs::write(replaced.join("task.txt"), "Another task.\n").unwrap();
    let digest = format!("sha256:{}", repocue::hex_sha256(b"Another task.\n"));
    edit_manifest(&replaced, |exp| {
        exp["task"]["file"]["sha256"] = digest.into();
        exp["task"]["file"]["bytes"] = 14.into();
    });
    let e = import(&repo, &[&replaced]).error_code("invalid_evidence");
    assert!(e.error.message.contains("another task"), "{e:?}");

    // Absolute and escaping references.
    for (name, path) in [
        ("absolute", "/etc/hostname".to_owned()),
        ("escaping", "../../tampered/task.txt".to_owned()),
    ] {
        let bad = copy_set(&set, name);
        let rec_path = bad.join("attempts/pair-01_basic/record.json");
        let mut rec: Value = serde_json::from_slice(&std::fs::read(&rec_path).unwrap()).unwrap();
        rec["context"]["path"] = Value::String(path);
        std::fs::write(&rec_path, serde_json::to_vec_pretty(&rec).unwrap()).unwrap();
        let e = import(&repo, &[&bad]).error_code("bad_reference");
        assert!(
            e.error.message.contains("context") || e.error.message.contains("attempts/"),
            "{e:?}"
        );
    }

    // Mixed model across merged sets.
    let other_model = python_runner(
        &repo,
        "other-model.py",
        "",
        "obs['runner']['model'] = 'other-model'",
    );
    let set_b = prepare(&repo, &[]);
    run(&repo, &set_b, &["--runner", other_model.to_str().unwrap()]).success();
    let e = import(&repo, &[&set, &set_b]).error_code("incompatible_reports");
    assert!(e.error.message.contains("runner"), "{e:?}");

    // Mixed budget across merged sets.
    let set_c = prepare(
        &repo,
        &["--arm", "basic=cue --view overview --max-tokens 800"],
    );
    run(&repo, &set_c, &["--synthetic"]).success();
    let e = import(&repo, &[&set, &set_c]).error_code("incompatible_reports");
    assert!(e.error.message.contains("cue budget"), "{e:?}");

    // Cross-repository.
    let other = TestRepo::with_files(&[("a.txt", "a\n")]);
    other.init();
    let e = import(&other, &[&set]).error_code("evidence_mismatch");
    assert!(e.error.message.contains("repository.id"), "{e:?}");
    assert_nothing_published(&other);

    // Changed untracked content at the same path: the runs no longer describe this checkout.
    repo.write("notes.txt", "scratch, edited\n");
    let e = import(&repo, &[&set]).error_code("evidence_mismatch");
    assert!(e.error.message.contains("content_fingerprint"), "{e:?}");

    assert_nothing_published(&repo);
    // The untouched set still imports once the checkout is back as it was.
    repo.write("notes.txt", "scratch\n");
    import(&repo, &[&set]).success();
}

#[test]
fn runner_that_modifies_the_repository_is_recorded_and_not_retried() {
    let repo = repo();
    let set = prepare(&repo, &[]);
    let vandal = python_runner(
        &repo,
        "vandal.py",
        "open(os.path.join(req['repository']['root'], 'notes.txt'), 'a').write('x')",
        "",
    );
    let ran = run(&repo, &set, &["--runner", vandal.to_str().unwrap()]);
    ran.error_code("attempt_failed");
    let rec: Value = serde_json::from_slice(
        &std::fs::read(set.join("attempts/pair-01_direct/record.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(rec["status"], "failed");
    assert_eq!(rec["error"]["code"], "repository_modified");
    assert_ne!(rec["pre"]["value"], rec["post"]["value"]);
    assert!(
        !set.join("attempts/pair-01_basic").exists(),
        "later attempts are not launched"
    );
    // A second run never relaunches the failed attempt.
    let again = run(&repo, &set, &["--synthetic"]);
    let again_rec: Value = serde_json::from_slice(
        &std::fs::read(set.join("attempts/pair-01_direct/record.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(again_rec, rec);
    again.error_code("attempt_failed");
    let s = summary(&repo, &set);
    assert_eq!(s["counts"]["failed"], 2);
    import(&repo, &[&set]).error_code("incomplete_set");
}

#[test]
fn runner_failures_and_invalid_observations_are_recorded() {
    let repo = repo();
    for (name, pre, edit, code) in [
        ("exit", "import sys; sys.exit(3)", "", "runner_failed"),
        (
            "negative",
            "",
            "obs['tool_calls']['value'] = -1",
            "invalid_observation",
        ),
        (
            "total",
            "",
            "obs['usage']['total_tokens']['value'] += 1",
            "invalid_observation",
        ),
        (
            "attempt",
            "",
            "obs['attempt_id'] = 'pair-09/direct'",
            "invalid_observation",
        ),
        (
            "two-values",
            "",
            "print(json.dumps(obs))",
            "invalid_observation",
        ),
    ] {
        let set = prepare(&repo, &[]);
        let runner = python_runner(&repo, &format!("{name}.py"), pre, edit);
        run(&repo, &set, &["--runner", runner.to_str().unwrap()]).error_code("attempt_failed");
        let rec: Value = serde_json::from_slice(
            &std::fs::read(set.join("attempts/pair-01_direct/record.json")).unwrap(),
        )
        .unwrap();
        assert_eq!(rec["error"]["code"], code, "{name}: {rec}");
    }
}

#[test]
fn output_directory_inside_the_repository_is_rejected() {
    let repo = repo();
    std::os::unix::fs::symlink(repo.root(), repo.outside().join("link")).unwrap();
    for dir in [
        repo.path("evidence"),
        repo.path(".git/evidence"),
        repo.outside().join("link/evidence"),
    ] {
        repo.repocue(&[
            "experiment",
            "prepare",
            "--output-directory",
            dir.to_str().unwrap(),
        ])
        .error_code("output_inside_repository");
        assert!(!repo.path("evidence").exists() && !repo.path(".git/evidence").exists());
    }
    repo.repocue(&[
        "experiment",
        "prepare",
        "--output-directory",
        "/tmp/x",
        "--arm",
        "x=status",
    ])
    .error_code("invalid_argument");
    // A program that is no RepoCue but exits 0 would have been measured as the cue.
    let other = repo.outside().join("not-repocue");
    crate::support::write_executable(&other, b"#!/bin/sh\necho garbage\n");
    let out = sets_dir(&repo);
    let e = repo
        .repocue(&[
            "experiment",
            "prepare",
            "--output-directory",
            out.to_str().unwrap(),
            "--cue-binary",
            other.to_str().unwrap(),
        ])
        .error_code("invalid_argument");
    assert!(e.error.message.contains("garbage"), "{e:?}");
}

#[test]
fn report_without_calibration_shows_maintenance_only() {
    let repo = TestRepo::with_files(&[("a.txt", "a\n")]);
    repo.repocue(&["report"]).error_code("not_initialized");
    repo.init();
    repo.write("a.txt", "b\n");
    repo.refresh();
    let r = repo.json(&["report", "--window", "7d"]);
    assert_eq!(r["selection"]["outcome"], "none");
    assert_eq!(r["projections"], Value::Array(vec![]));
    assert_eq!(
        r["maintenance"]["h"]["operations"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    assert_eq!(r["window"]["days"], 7);
    let kinds: Vec<&str> = r["maintenance"]["window"]["operations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["baseline", "refresh"]);
    assert!(r["not_observed"]
        .as_array()
        .unwrap()
        .iter()
        .any(|n| n["name"] == "cpu_time"));
    repo.repocue(&["report", "--as-of", "2999-01-01T00:00:00Z"])
        .error_code("invalid_argument");
    repo.repocue(&["report", "--as-of", "yesterday"])
        .error_code("invalid_argument");
    repo.repocue(&["report", "--profile", "calibration-nope"])
        .error_code("not_found");
    // Before the first operation, the window is empty and H is unavailable.
    let early = repo.json(&["report", "--as-of", "2001-01-01T00:00:00Z"]);
    assert_eq!(early["described_state"], Value::Null);
    assert_eq!(
        early["maintenance"]["h"]["duration_us"]["status"],
        "not_observed"
    );
}

/// `report` writes nothing, not even the side writes of the status it takes: Git rewriting
/// the index file (a plain `git status` refreshing stat data) made it record the index
/// file's new signature in the snapshot, as a read does.
#[test]
fn report_writes_nothing_to_the_cache() {
    let repo = TestRepo::with_files(&[("a.txt", "a\n")]);
    repo.init();
    repo.write("a.txt", "b\n");
    repo.commit("b");
    repo.refresh();
    // Git rewrites the index file without changing its entries.
    std::thread::sleep(std::time::Duration::from_millis(20));
    repo.write("a.txt", "b\n");
    repo.git(&["update-index", "--refresh"]);
    let files = |dir: &std::path::Path| -> Vec<(std::ffi::OsString, Vec<u8>)> {
        let mut all: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            // SQLite's shared-memory index of the WAL, rebuilt by whoever opens the database.
            .filter(|p| p.is_file() && p.extension().is_none_or(|e| e != "db-shm"))
            .map(|p| {
                (
                    p.file_name().unwrap().to_owned(),
                    std::fs::read(&p).unwrap(),
                )
            })
            .collect();
        all.sort();
        all
    };
    let dir = repo.db_path().parent().unwrap().to_owned();
    let before = files(&dir);
    repo.json(&["report"]);
    let after = files(&dir);
    let names =
        |f: &[(std::ffi::OsString, Vec<u8>)]| f.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    assert_eq!(names(&after), names(&before));
    assert!(after == before, "report changed the cache");
}

#[test]
fn report_refuses_a_tampered_calibration_and_suppresses_after_refresh() {
    let repo = repo();
    let set = prepare(&repo, &[]);
    run(&repo, &set, &["--synthetic"]).success();
    let imp = import(&repo, &[&set]).json();
    let artifact = repo
        .db_path()
        .parent()
        .unwrap()
        .join(imp["artifact"].as_str().unwrap());
    // A later snapshot of the same epoch: projections stay, labelled estimated with drift.
    repo.write("src/lib.rs", "pub fn f() {}\n");
    repo.refresh();
    let r = repo.json(&["report"]);
    assert_eq!(r["selection"]["applicability"], "estimated");
    assert_eq!(
        r["selection"]["drift"]["tracked_files_delta"], 0,
        "untracked files are not tracked"
    );
    assert!(!r["projections"].as_array().unwrap().is_empty());
    // Unrefreshed changes: no projection, and the report does not refresh.
    repo.git(&["add", "src/lib.rs"]);
    repo.write("src/lib.rs", "pub fn g() {}\n");
    let r = repo.json(&["report"]);
    assert_eq!(r["selection"]["applicability"], "not_applicable");
    assert!(r["selection"]["reason"]
        .as_str()
        .unwrap()
        .starts_with("refresh_needed"));
    assert_eq!(r["projections"], Value::Array(vec![]));
    // A rebaseline starts a new epoch: the calibration no longer applies.
    repo.repocue(&["rebaseline", "--label", "v2", "--reason", "test"])
        .success();
    let r = repo.json(&["report"]);
    assert!(
        r["selection"]["reason"]
            .as_str()
            .unwrap()
            .starts_with("epoch_changed"),
        "{r}"
    );
    // Tampering with the artifact is an error, never a silent default.
    let mut bytes = std::fs::read(&artifact).unwrap();
    bytes[10] ^= 1;
    std::fs::write(&artifact, bytes).unwrap();
    repo.repocue(&["report"]).error_code("artifact_tampered");
}

#[test]
fn runner_past_its_time_limit_is_killed_and_recorded() {
    let repo = repo();
    // Five seconds leave a loaded machine time to start Python and the child before the kill.
    let set = prepare(&repo, &["--timeout", "5"]);
    let pid_file = repo.outside().join("sleep.pid");
    let slow = python_runner(
        &repo,
        "slow.py",
        &format!(
            "import subprocess, time\np = subprocess.Popen(['sleep', '60'])\nopen({:?}, 'w').write(str(p.pid))\ntime.sleep(60)",
            pid_file.to_str().unwrap()
        ),
        "",
    );
    let started = std::time::Instant::now();
    run(&repo, &set, &["--runner", slow.to_str().unwrap()]).error_code("attempt_failed");
    assert!(
        started.elapsed().as_secs() < 50,
        "took {:?}",
        started.elapsed()
    );
    let rec: Value = serde_json::from_slice(
        &std::fs::read(set.join("attempts/pair-01_direct/record.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(rec["error"]["code"], "runner_timeout");
    assert_eq!(rec["runner"]["timed_out"], true);
    // The runner's own children die with it (the whole process group is killed).
    let pid =
        std::fs::read_to_string(&pid_file).expect("the runner started its child before the limit");
    std::thread::sleep(std::time::Duration::from_millis(300));
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    assert!(
        stat.is_empty() || stat.contains(") Z "),
        "sleep {pid} survived: {stat}"
    );
}
