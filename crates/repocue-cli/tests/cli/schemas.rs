//! Real outputs of every command and every cue view validate against the checked-in JSON
//! Schemas in `docs/schema/` (read at test time), error lines against `error.schema.json`.

use serde_json::{json, Value};

use crate::support::schema::{assert_valid, schema_errors};
use crate::support::{Ran, TestRepo};

/// A small repository with code in two languages, a document and a manifest.
fn repo() -> TestRepo {
    TestRepo::with_files(&[
        (
            "README.md",
            "# Widget\n\nWidget caches things.\n\n## Usage\n\nSee [lib](src/lib.rs).\n",
        ),
        (
            "Cargo.toml",
            "[package]\nname = \"widget\"\nversion = \"0.1.0\"\n",
        ),
        (
            "src/lib.rs",
            "pub mod util;\n\npub struct Cache {\n    size: usize,\n}\n\nimpl Cache {\n    pub fn new() -> Self {\n        util::helper();\n        Cache { size: 0 }\n    }\n}\n",
        ),
        ("src/util.rs", "pub fn helper() -> u32 {\n    1\n}\n"),
        ("tools/gen.py", "import os\n\ndef main(argv):\n    return 0\n"),
    ])
}

/// Asserts exit 0, parses stdout and validates it against `schema`.
#[track_caller]
fn valid(ran: Ran, schema: &str) -> Value {
    let value = ran.json();
    assert_valid(schema, &value);
    value
}

/// Asserts the failure contract and validates the error line against `error.schema.json`.
#[track_caller]
fn valid_error(ran: Ran, code: &str) {
    ran.error_code(code);
    let stderr = ran.stderr();
    let line: Value = serde_json::from_str(stderr.lines().next().unwrap()).unwrap();
    assert_valid("error", &line);
}

/// The validator really rejects wrong outputs: a test that cannot fail checks nothing.
#[test]
fn schema_validation_rejects_wrong_outputs() {
    assert!(!schema_errors("status", &json!({})).is_empty());
    assert!(!schema_errors("error", &json!({ "error": { "code": 1 } })).is_empty());
    let repo = repo();
    let mut cue = repo.cue("overview", &[]);
    assert!(schema_errors("cue-overview", &cue).is_empty());
    cue["omitted"] = json!("many");
    assert!(!schema_errors("cue-overview", &cue).is_empty());
}

#[test]
fn every_command_output_matches_its_schema() {
    let repo = repo();
    valid(repo.repocue(&["status"]), "status");
    valid_error(repo.repocue(&["prune"]), "not_initialized");
    valid(repo.repocue(&["init"]), "refresh");
    valid(repo.repocue(&["status"]), "status");
    valid(repo.repocue(&["refresh"]), "refresh");
    repo.write(
        "src/util.rs",
        "pub fn helper() -> u32 {\n    2\n}\n\npub fn other() {}\n",
    );
    repo.commit("change");
    let refreshed = valid(repo.repocue(&["refresh"]), "refresh");
    assert_eq!(refreshed["published"], true);
    valid(
        repo.repocue(&["rebaseline", "--label", "again", "--reason", "schema test"]),
        "refresh",
    );
    valid(repo.repocue(&["metrics"]), "metrics");
    valid(repo.repocue(&["search", "helper"]), "cue-search");
    valid(
        repo.repocue(&["search", "widget", "--scope", "docs,paths"]),
        "cue-search",
    );
    valid(repo.repocue(&["checkpoint", "list"]), "checkpoint");
    let pinned = valid(
        repo.repocue(&["checkpoint", "pin", "--label", "release:1"]),
        "checkpoint",
    );
    let id = pinned["checkpoint"]["id"].as_str().unwrap().to_owned();
    valid(repo.repocue(&["checkpoint", "delete", &id]), "checkpoint");
    valid(repo.repocue(&["prune", "--dry-run"]), "prune");
    valid(repo.repocue(&["prune"]), "prune");
    valid(repo.repocue(&["hooks", "install"]), "hooks");
    valid(repo.repocue(&["hooks", "uninstall"]), "hooks");
    valid(repo.repocue(&["evaluate"]), "evaluation");

    // Error lines.
    valid_error(
        repo.repocue(&["cue", "--view", "delta", "--since", "snapshot-999999"]),
        "not_found",
    );
    valid_error(
        repo.repocue(&["cue", "--view", "entity", "--id", "symbol:src/nope.rs:x"]),
        "not_found",
    );
    valid_error(
        repo.repocue(&["checkpoint", "delete", "checkpoint-999999"]),
        "not_found",
    );
    valid_error(
        repo.repocue(&["cue", "--view", "entity"]),
        "invalid_argument",
    );
}

#[test]
fn every_cue_view_matches_its_schema() {
    let repo = repo();
    repo.init();
    repo.write(
        "src/util.rs",
        "pub fn helper() -> u32 {\n    2\n}\n\npub fn other() {}\n",
    );
    repo.commit("change");
    repo.refresh();
    let requests: Vec<(&str, Vec<&str>)> = vec![
        ("manifest", vec![]),
        ("overview", vec![]),
        ("delta", vec![]),
        ("delta", vec!["--since", "snapshot-000001"]),
        ("structure", vec![]),
        ("structure", vec!["--path", "src/"]),
        ("entity", vec!["--id", "symbol:src/lib.rs:Cache.new"]),
        ("entity", vec!["--id", "file:src/lib.rs"]),
        ("search", vec!["--query", "helper"]),
        ("search", vec!["--query", "nothing-matches-this"]),
        ("document", vec!["--path", "README.md"]),
    ];
    for (view, extra) in requests {
        for budget in ["500", "80"] {
            let mut args = vec!["cue", "--view", view, "--max-tokens", budget];
            args.extend(&extra);
            let ran = repo.repocue(&args);
            if ran.code() == Some(1) {
                // A budget too small for the envelope is an error line, valid too.
                valid_error(ran, "budget_too_small");
                continue;
            }
            let cue = valid(ran, &format!("cue-{view}"));
            assert_eq!(cue["kind"], view);
        }
    }
}
