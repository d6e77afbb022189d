//! Offline adapter tests: fake `codex` and `claude` executables (shell scripts written into a
//! temporary directory) replay recorded-shaped event streams. No real agent is ever run.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::contract::{
    self, ArmKind, Limits, RequestRepository, RequestText, RunnerRequest, Status,
};

struct Fake {
    dir: tempfile::TempDir,
}

impl Fake {
    fn new() -> Self {
        Fake {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    /// Writes an executable that prints `version` for `--version`, records its argv and
    /// stdin, then prints `stream`, sleeps `sleep` seconds and exits with `code`.
    fn agent(&self, name: &str, stream: &str, code: i32, sleep: u32) -> PathBuf {
        let stream_file = self.dir.path().join(format!("{name}.stream"));
        std::fs::write(&stream_file, stream).unwrap();
        let d = self.dir.path().display();
        let script = format!(
            "#!/bin/sh\nif [ \"$1\" = --version ]; then echo '{name} 0.0.0-test'; exit 0; fi\n\
             printf '%s\\n' \"$@\" > {d}/{name}.argv\ncat > {d}/{name}.stdin\n\
             cat {}\nsleep {sleep}\nexit {code}\n",
            stream_file.display()
        );
        let exe = self.dir.path().join(name);
        std::fs::write(&exe, script).unwrap();
        std::fs::set_permissions(&exe, std::fs::Permissions::from_mode(0o755)).unwrap();
        // A process another test thread forked while the script was open for writing holds
        // that descriptor until it execs, and running the script then fails with ETXTBSY
        // (seen under load: `agent_version` came back empty). Wait until it runs.
        for _ in 0..200 {
            match std::process::Command::new(&exe).arg("--version").output() {
                Err(e) if e.raw_os_error() == Some(26) => {
                    std::thread::sleep(std::time::Duration::from_millis(5))
                }
                Err(e) => panic!("run {}: {e}", exe.display()),
                Ok(_) => break,
            }
        }
        exe
    }

    fn read(&self, file: &str) -> String {
        std::fs::read_to_string(self.dir.path().join(file)).unwrap()
    }

    fn request(&self, timeout: u64) -> RunnerRequest {
        let artifacts = self.dir.path().join("artifacts");
        std::fs::create_dir_all(&artifacts).unwrap();
        RunnerRequest {
            schema_version: contract::REQUEST_SCHEMA.into(),
            experiment_id: "exp-test".into(),
            attempt_id: "pair-01/basic".into(),
            pair_id: "pair-01".into(),
            arm: "basic".into(),
            arm_kind: ArmKind::Cue,
            repository: RequestRepository {
                root: self.dir.path().display().to_string(),
                branch: Some("main".into()),
                head: None,
                read_only: true,
            },
            task: RequestText::of("task\n".into()),
            context: Some(RequestText::of("{\"cue\":1}".into())),
            prompt: contract::prompt("task\n", Some("{\"cue\":1}")),
            answer_schema_version: contract::ANSWER_SCHEMA.into(),
            answer_schema_path: "/schema.json".into(),
            limits: Limits {
                timeout_seconds: timeout,
            },
            artifacts_dir: artifacts.display().to_string(),
        }
    }
}

const ANSWER: &str = r#"{\"schema_version\":\"repocue/eval-answer-1\",\"git\":{\"branch\":\"main\",\"head\":null,\"dirty\":false,\"tracked_changes\":[],\"untracked\":[]},\"semantic\":{\"purpose\":\"p\",\"entry_points\":[],\"components\":[],\"documentation\":[],\"uncertainties\":[]}}"#;

fn codex_cfg(bin: &Path) -> super::codex::Config {
    super::codex::Config {
        bin: bin.to_owned(),
        model: "gpt-test".into(),
        reasoning_effort: Some("low".into()),
    }
}

fn codex_stream(turn2_usage: &str) -> String {
    format!(
        r#"{{"type":"thread.started","thread_id":"t"}}
{{"type":"item.completed","item":{{"id":"1","type":"command_execution","command":"bash -lc 'git status --short'","exit_code":0}}}}
{{"type":"item.completed","item":{{"id":"2","type":"command_execution","command":"rg --files src","exit_code":0}}}}
{{"type":"item.completed","item":{{"id":"3","type":"mcp_tool_call","server":"s","tool":"t"}}}}
{{"type":"turn.completed","usage":{{"input_tokens":1000,"cached_input_tokens":400,"output_tokens":50,"reasoning_output_tokens":20}}}}
{{"type":"item.completed","item":{{"id":"4","type":"agent_message","text":"{ANSWER}"}}}}
{{"type":"turn.completed"{turn2_usage}}}
"#
    )
}

#[test]
fn codex_usage_present_is_aggregated_and_validates() {
    let f = Fake::new();
    let bin = f.agent(
        "codex",
        &codex_stream(r#","usage":{"input_tokens":500,"cached_input_tokens":0,"output_tokens":30,"reasoning_output_tokens":0}"#),
        0,
        0,
    );
    let req = f.request(30);
    let o = super::codex::observe_with(&req, &codex_cfg(&bin)).unwrap();
    contract::validate_observation(&o, &req).unwrap();
    assert_eq!(o.usage.input_tokens.value, Some(1500));
    assert_eq!(o.usage.cached_input_tokens.value, Some(400));
    assert_eq!(o.usage.total_tokens.value, Some(1580));
    assert_eq!(o.usage.total_tokens.status, Status::Derived);
    assert_eq!(o.turns.len(), 2);
    assert_eq!(o.tool_calls.value, Some(3));
    let classes: Vec<&str> = o
        .commands
        .iter()
        .map(|c| c.classification.as_str())
        .collect();
    assert_eq!(classes, ["git", "filesystem_search"]);
    assert!(o.answer.is_some());
    assert_eq!(o.runner.agent_version.as_deref(), Some("codex 0.0.0-test"));
    assert_eq!(o.duration_ms.status, Status::Observed);
    // The exact prompt reached stdin, and the sandbox is read-only.
    assert_eq!(f.read("codex.stdin"), req.prompt);
    let argv = f.read("codex.argv");
    assert!(
        argv.contains("read-only\n") && argv.contains("--output-schema\n/schema.json\n"),
        "{argv}"
    );
    // The raw stream is retained in the attempt's artifacts.
    assert!(Path::new(&req.artifacts_dir).join("codex.stdout").is_file());
}

#[test]
fn codex_usage_absent_or_partial_is_not_observed_never_zero() {
    let f = Fake::new();
    for (label, usage) in [
        ("absent", ""),
        ("null", r#","usage":null"#),
        ("empty", r#","usage":{}"#),
        (
            "partial",
            r#","usage":{"input_tokens":500,"output_tokens":30}"#,
        ),
    ] {
        let bin = f.agent(&format!("codex-{label}"), &codex_stream(usage), 0, 0);
        let req = f.request(30);
        let o = super::codex::observe_with(&req, &codex_cfg(&bin)).unwrap();
        contract::validate_observation(&o, &req).unwrap();
        assert_eq!(
            o.turns.len(),
            2,
            "{label}: a turn without usage is still a turn"
        );
        assert_eq!(o.usage.cached_input_tokens.value, None, "{label}");
        assert_eq!(
            o.usage.cached_input_tokens.status,
            Status::NotObserved,
            "{label}"
        );
        if label == "partial" {
            assert_eq!(o.usage.input_tokens.value, Some(1500));
            assert_eq!(o.usage.total_tokens.value, Some(1580));
        } else {
            assert_eq!(o.usage.input_tokens.value, None, "{label}");
            assert_eq!(o.usage.total_tokens.status, Status::NotObserved, "{label}");
        }
    }
    // An explicit zero is an observed zero.
    let bin = f.agent(
        "codex-zero",
        &codex_stream(r#","usage":{"input_tokens":0,"cached_input_tokens":0,"output_tokens":0,"reasoning_output_tokens":0}"#),
        0,
        0,
    );
    let o = super::codex::observe_with(&f.request(30), &codex_cfg(&bin)).unwrap();
    assert_eq!(o.usage.reasoning_output_tokens.value, Some(20));
    assert_eq!(o.usage.reasoning_output_tokens.status, Status::Observed);
}

#[test]
fn codex_failures_are_errors() {
    let f = Fake::new();
    let cases = [
        ("exit", codex_stream(""), 3, 0, "agent_failed"),
        ("timeout", codex_stream(""), 0, 30, "agent_timeout"),
        ("noturn", "{\"type\":\"thread.started\"}\n".to_owned(), 0, 0, "invalid_event_stream"),
        ("garbage", "not json\n".to_owned(), 0, 0, "invalid_event_stream"),
        (
            "negative",
            "{\"type\":\"turn.completed\",\"usage\":{\"input_tokens\":-1}}\n".to_owned(),
            0,
            0,
            "invalid_usage",
        ),
        (
            "cached",
            "{\"type\":\"turn.completed\",\"usage\":{\"input_tokens\":1,\"cached_input_tokens\":2}}\n".to_owned(),
            0,
            0,
            "invalid_usage",
        ),
        (
            "overflow",
            format!(
                "{{\"type\":\"turn.completed\",\"usage\":{{\"input_tokens\":{m}}}}}\n{{\"type\":\"turn.completed\",\"usage\":{{\"input_tokens\":{m}}}}}\n",
                m = u64::MAX
            ),
            0,
            0,
            "invalid_usage",
        ),
    ];
    for (name, stream, code, sleep, expected) in cases {
        let bin = f.agent(&format!("codex-{name}"), &stream, code, sleep);
        let started = std::time::Instant::now();
        let e = super::codex::observe_with(&f.request(1), &codex_cfg(&bin)).unwrap_err();
        assert_eq!(e.code, expected, "{name}: {e}");
        // The whole process group is killed: a grandchild (`sleep`) does not keep it alive.
        assert!(
            started.elapsed().as_secs() < 20,
            "{name} took {:?}",
            started.elapsed()
        );
    }
}

fn claude_cfg(bin: &Path) -> super::claude::Config {
    super::claude::Config {
        bin: bin.to_owned(),
        model: "claude-test".into(),
    }
}

fn claude_stream(usage: &str) -> String {
    let answer = ANSWER.replace("\\\"", "\"");
    let result = serde_json::json!({
        "type": "result", "subtype": "success", "is_error": false, "duration_ms": 4321,
        "result": format!("```json\n{answer}\n```"),
        "usage": serde_json::from_str::<serde_json::Value>(usage).unwrap(),
    });
    format!(
        r#"{{"type":"system","subtype":"init","model":"claude-test"}}
{{"type":"assistant","message":{{"content":[{{"type":"text","text":"looking"}},{{"type":"tool_use","id":"a","name":"Bash","input":{{"command":"git log -3"}}}},{{"type":"tool_use","id":"b","name":"Read","input":{{"file_path":"README.md"}}}}]}}}}
{{"type":"user","message":{{"content":[{{"type":"tool_result","tool_use_id":"a"}}]}}}}
{{"type":"assistant","message":{{"content":[{{"type":"tool_use","id":"c","name":"Grep","input":{{"pattern":"fn main"}}}}]}}}}
{result}
"#
    )
}

#[test]
fn claude_usage_present_counts_cache_reads_as_cached_input() {
    let f = Fake::new();
    let bin = f.agent(
        "claude",
        &claude_stream(r#"{"input_tokens":10,"cache_creation_input_tokens":2000,"cache_read_input_tokens":3000,"output_tokens":70}"#),
        0,
        0,
    );
    let req = f.request(30);
    let o = super::claude::observe_with(&req, &claude_cfg(&bin)).unwrap();
    contract::validate_observation(&o, &req).unwrap();
    assert_eq!(o.usage.input_tokens.value, Some(5010));
    assert_eq!(o.usage.cached_input_tokens.value, Some(3000));
    assert_eq!(o.usage.total_tokens.value, Some(5080));
    assert_eq!(o.usage.reasoning_output_tokens.status, Status::NotObserved);
    assert_eq!(o.tool_calls.value, Some(3));
    assert_eq!(o.commands.len(), 1);
    assert_eq!(o.commands[0].classification, "git");
    assert_eq!(o.duration_ms.value, Some(4321));
    assert!(o.answer.is_some(), "a fenced JSON answer is accepted");
    assert_eq!(f.read("claude.stdin"), req.prompt);
    assert!(f.read("claude.argv").contains("plan\n"));
}

#[test]
fn claude_usage_absent_or_partial_is_not_observed() {
    let f = Fake::new();
    for (label, usage) in [
        ("absent", "{}"),
        ("partial", r#"{"input_tokens":10,"output_tokens":70}"#),
    ] {
        let bin = f.agent(&format!("claude-{label}"), &claude_stream(usage), 0, 0);
        let req = f.request(30);
        let o = super::claude::observe_with(&req, &claude_cfg(&bin)).unwrap();
        contract::validate_observation(&o, &req).unwrap();
        assert_eq!(o.usage.input_tokens.status, Status::NotObserved, "{label}");
        assert_eq!(o.usage.total_tokens.value, None, "{label}");
        assert_eq!(
            o.usage.output_tokens.value,
            (label == "partial").then_some(70)
        );
    }
}

#[test]
fn claude_failures_are_errors() {
    let f = Fake::new();
    let error_result = "{\"type\":\"result\",\"subtype\":\"error_max_turns\",\"is_error\":true}\n";
    let cases = [
        ("exit", claude_stream("{}"), 1, 0, "agent_failed"),
        ("timeout", claude_stream("{}"), 0, 30, "agent_timeout"),
        (
            "noresult",
            "{\"type\":\"system\"}\n".to_owned(),
            0,
            0,
            "invalid_event_stream",
        ),
        ("error", error_result.to_owned(), 0, 0, "agent_failed"),
    ];
    for (name, stream, code, sleep, expected) in cases {
        let bin = f.agent(&format!("claude-{name}"), &stream, code, sleep);
        let e = super::claude::observe_with(&f.request(1), &claude_cfg(&bin)).unwrap_err();
        assert_eq!(e.code, expected, "{name}: {e}");
    }
}
