//! `evaluate-cache prepare|run|summary` end to end, offline: the real CLI, Git and SQLite,
//! and a fake Messages endpoint written here (std `TcpListener` on 127.0.0.1, plain HTTP
//! behind the hidden `--allow-insecure-loopback`). Nothing here contacts the network.

use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::support::schema::assert_valid;
use crate::support::{sha256, Ran, TestRepo};

/// The API key the tests hand to `run`; it must never appear in any retained file.
const SENTINEL: &str = "sk-ant-test-SENTINEL-0123456789";
const MODEL: &str = "claude-sonnet-4-5-20250929";

/// What the fake endpoint does with one connection.
enum Reply {
    /// Answers with a status and a body.
    Respond(u16, String),
    /// Accepts, reads the request, and says nothing for this long.
    Stall(Duration),
    /// Writes these bytes as the whole response.
    Raw(String),
}

/// Requests as received: the head and the body.
type Received = Arc<Mutex<Vec<(String, Vec<u8>)>>>;

/// A scripted loopback endpoint: one reply per connection, in order; it records every request
/// it receives (head and body).
struct FakeServer {
    url: String,
    received: Received,
}

impl FakeServer {
    fn start(replies: Vec<Reply>) -> FakeServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind loopback");
        listener.set_nonblocking(true).unwrap();
        let url = format!(
            "http://127.0.0.1:{}/v1/messages",
            listener.local_addr().unwrap().port()
        );
        let received: Received = Arc::new(Mutex::new(vec![]));
        let log = received.clone();
        std::thread::spawn(move || {
            let deadline = Instant::now() + Duration::from_secs(120);
            let mut replies = replies.into_iter().enumerate();
            while Instant::now() < deadline {
                let Ok((mut stream, _)) = listener.accept() else {
                    std::thread::sleep(Duration::from_millis(10));
                    continue;
                };
                let Some((n, reply)) = replies.next() else {
                    return;
                };
                stream.set_nonblocking(false).unwrap();
                stream
                    .set_read_timeout(Some(Duration::from_secs(10)))
                    .unwrap();
                let (head, body) = read_request(&mut stream);
                log.lock().unwrap().push((head, body));
                match reply {
                    Reply::Respond(status, body) => {
                        let resp = format!(
                            "HTTP/1.1 {status} Scripted\r\ncontent-type: application/json\r\n\
                             request-id: req_test_{n}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
                            body.len()
                        );
                        let _ = stream.write_all(resp.as_bytes());
                    }
                    Reply::Stall(d) => std::thread::sleep(d),
                    Reply::Raw(r) => {
                        let _ = stream.write_all(r.as_bytes());
                    }
                }
            }
        });
        FakeServer { url, received }
    }

    fn requests(&self) -> Vec<(String, Vec<u8>)> {
        self.received.lock().unwrap().clone()
    }
}

/// Reads one HTTP/1.1 request: the head up to the blank line, then `content-length` bytes.
fn read_request(s: &mut std::net::TcpStream) -> (String, Vec<u8>) {
    let mut buf = Vec::new();
    let mut byte = [0u8; 1];
    while !buf.ends_with(b"\r\n\r\n") {
        match s.read(&mut byte) {
            Ok(1) => buf.push(byte[0]),
            _ => break,
        }
    }
    let head = String::from_utf8_lossy(&buf).into_owned();
    let len = head
        .lines()
        .find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.eq_ignore_ascii_case("content-length")
                .then(|| v.trim().parse::<usize>().ok())?
        })
        .unwrap_or(0);
    let mut body = vec![0u8; len];
    let _ = s.read_exact(&mut body);
    (head, body)
}

/// A repository with a committed declaration that makes the README required everywhere.
fn repo() -> TestRepo {
    let repo = TestRepo::with_files(&[
        (
            "README.md",
            "# Widget\n\nWidget caches repository context.\n\n## Rules\n\nKeep cues small.\n",
        ),
        ("src/lib.rs", "pub fn widget() -> u32 {\n    1\n}\n"),
    ]);
    let pin = format!("sha256:{}", sha256(&repo.read("README.md")));
    let doc = json!({"schema_version": "repocue/task-context-1", "items": [
        {"id": "repository-context", "kind": "instruction", "required": true, "tasks": null,
         "paths": ["."], "source": {"path": "README.md", "content_digest": pin, "lines": null}}
    ]});
    repo.write(
        "task-context.json",
        serde_json::to_string_pretty(&doc).unwrap(),
    );
    repo.commit("declare task context");
    repo
}

/// Prepares a directory whose benchmark has the given steps (`(name, arm)`).
fn prepare(repo: &TestRepo, steps: &[(&str, &str)]) -> (PathBuf, Value) {
    let steps: Vec<Value> = steps
        .iter()
        .map(|(name, arm)| {
            json!({"name": name, "arm": arm,
                   "task_text": format!("Step {name}: which rules apply to changes under src/?")})
        })
        .collect();
    let b = json!({
        "schema_version": "repocue/cache-benchmark-1", "task_id": "rules-under-src",
        "model": MODEL, "ttl": "5m", "max_output_tokens": 512, "task_kind": "discovery",
        "declaration": "task-context.json", "targets": ["src"], "max_tokens": 3000,
        "max_request_tokens": 8000, "steps": steps,
    });
    let file = repo
        .outside()
        .join(format!("bench-{}.json", sha256(b.to_string().as_bytes())));
    std::fs::write(&file, b.to_string()).unwrap();
    let out = repo.json(&[
        "evaluate-cache",
        "prepare",
        "--benchmark-file",
        file.to_str().unwrap(),
        "--output-directory",
        repo.outside().join("cache-evals").to_str().unwrap(),
    ]);
    assert_valid("cache-prepare", &out);
    (
        PathBuf::from(out["directory"].as_str().unwrap()),
        out["manifest"].clone(),
    )
}

/// Runs one step against `url` with the sentinel key (or none).
fn run_step(repo: &TestRepo, dir: &Path, step: &str, url: &str, extra: &[&str], key: bool) -> Ran {
    let mut args = vec![
        "evaluate-cache",
        "run",
        "--input-directory",
        dir.to_str().unwrap(),
        "--step",
        step,
        "--endpoint",
        url,
        "--allow-insecure-loopback",
        "--timeout",
        "2",
    ];
    args.extend_from_slice(extra);
    let mut cmd = repo.command(&args);
    cmd.env_remove("ANTHROPIC_API_KEY");
    if key {
        cmd.env("ANTHROPIC_API_KEY", SENTINEL);
    }
    repo.run(cmd)
}

/// Returns a successful Messages response whose answer names `manifest`'s expectation.
fn success(manifest: &Value, usage: Value) -> Reply {
    let e = &manifest["expectation"];
    let ids: Vec<&Value> = e["required_sources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| &s["id"])
        .collect();
    let answer = json!({"schema_version": "repocue/task-answer-1",
        "required_ids": e["required_ids"], "source_ids": ids, "answer": "Keep cues small."});
    let body = json!({"id": "msg_test", "type": "message", "role": "assistant", "model": MODEL,
        "content": [{"type": "text", "text": answer.to_string()}],
        "stop_reason": "end_turn", "usage": usage, "extension_field": {"accepted": true}});
    Reply::Respond(200, body.to_string())
}

/// Summarises with an empty `PATH` and no key: it needs neither a process nor a credential.
fn summary(repo: &TestRepo, dir: &Path) -> (Value, String) {
    let mut cmd = repo.bare_command();
    cmd.env("PATH", "")
        .env_remove("ANTHROPIC_API_KEY")
        .args(["evaluate-cache", "summary", "--input-directory"])
        .arg(dir);
    let ran = repo.run(cmd);
    let v = ran.json();
    assert_valid("cache-summary", &v);
    (v, ran.stdout())
}

/// Asserts that the key appears in no file of the prepared directory.
fn assert_key_nowhere(dir: &Path) {
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let bytes = std::fs::read(&p).unwrap();
                assert!(
                    !bytes
                        .windows(SENTINEL.len())
                        .any(|w| w == SENTINEL.as_bytes()),
                    "the key leaked into {}",
                    p.display()
                );
            }
        }
    }
}

fn record(dir: &Path, step: &str) -> Value {
    let v: Value = serde_json::from_slice(
        &std::fs::read(dir.join("attempts").join(step).join("record.json")).unwrap(),
    )
    .unwrap();
    assert_valid("cache-observation", &v);
    v
}

#[test]
fn evaluate_cache_sends_frozen_steps_once_and_summarises_usage_cost_and_quality() {
    let repo = repo();
    let (dir, manifest) = prepare(
        &repo,
        &[
            ("baseline-a", "baseline"),
            ("baseline-b", "baseline"),
            ("cache-a", "cache"),
            ("cache-b", "cache"),
        ],
    );
    assert_valid("cache-eval", &manifest);
    // Git's processes are counted where Git can trace them (they were "not observed" on any
    // Git), and the binary says its version.
    for m in ["preparation", "cue_measurement"] {
        assert_eq!(
            manifest[m]["git_processes"]["status"], "observed",
            "{m}: {manifest:#}"
        );
    }
    assert!(
        manifest["cue_binary"]["version"]
            .as_str()
            .is_some_and(|v| v.starts_with("repocue ")),
        "{manifest:#}"
    );
    let ids: Vec<&Value> = manifest["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| &s["reusable_identity"])
        .collect();
    assert_eq!(ids[0], ids[1], "baseline steps share their prefix identity");
    assert_eq!(ids[2], ids[3], "cache steps share theirs");
    assert_ne!(ids[1], ids[2], "the breakpoint is part of the identity");
    let usage = |i: u64, w: u64, r: u64, o: u64| {
        json!({"input_tokens": i, "cache_creation_input_tokens": w,
               "cache_read_input_tokens": r, "output_tokens": o, "service_tier": "standard"})
    };
    let server = FakeServer::start(vec![
        success(&manifest, usage(1500, 0, 0, 60)),
        success(&manifest, usage(1480, 0, 0, 70)),
        success(&manifest, usage(20, 1460, 0, 65)),
        success(&manifest, usage(22, 0, 1460, 58)),
    ]);
    for step in ["baseline-a", "baseline-b", "cache-a", "cache-b"] {
        let out = run_step(&repo, &dir, step, &server.url, &["--send"], true).json();
        assert_eq!(out["state"], "completed", "{out:#}");
        assert_valid("cache-observation", &out);
    }
    let got = server.requests();
    assert_eq!(got.len(), 4, "exactly one request per step");
    for ((head, body), step) in got
        .iter()
        .zip(["baseline-a", "baseline-b", "cache-a", "cache-b"])
    {
        let frozen = std::fs::read(dir.join(format!("requests/{step}.json"))).unwrap();
        assert_eq!(body, &frozen, "{step}: the frozen bytes, byte for byte");
        let head = head.to_ascii_lowercase();
        assert!(head.starts_with("post /v1/messages http/1.1"), "{head}");
        assert!(head.contains(&format!("x-api-key: {}", SENTINEL.to_ascii_lowercase())));
        assert!(head.contains("anthropic-version: 2023-06-01"));
    }
    let cache_a = String::from_utf8(got[2].1.clone()).unwrap();
    assert!(cache_a.contains(r#""cache_control":{"type":"ephemeral","ttl":"5m"}"#));
    assert!(!String::from_utf8_lossy(&got[0].1).contains("cache_control"));
    assert_eq!(record(&dir, "cache-b")["request_id"], "req_test_3");
    // Never twice.
    run_step(&repo, &dir, "cache-b", &server.url, &["--send"], true)
        .error_code("already_attempted");
    assert_eq!(server.requests().len(), 4);
    assert_key_nowhere(&dir);

    let (s, text) = summary(&repo, &dir);
    let pair = &s["pair"];
    assert_eq!(pair["baseline_usd"], "0.01089");
    assert_eq!(pair["cache_usd"], "0.007884");
    assert_eq!(pair["difference_usd"], "0.003006");
    assert_eq!(pair["initial_request_usd"], "0.00651");
    assert_eq!(pair["subsequent_requests_usd"], "0.001374");
    assert_eq!(pair["observed_reuse_count"]["value"], 1);
    for st in s["steps"].as_array().unwrap() {
        assert_eq!(st["quality"]["status"], "passed", "{st:#}");
        assert_eq!(st["request_matches_frozen"], true);
    }
    let cache_a = &s["steps"][2]["usage"];
    assert_eq!(cache_a["cache_write_5m_tokens"]["value"], 1460);
    assert_eq!(cache_a["cache_write_5m_tokens"]["status"], "derived");
    assert_eq!(s["verdict"]["cheaper"], true);
    assert_eq!(
        s["verdict"]["claim_allowed"], false,
        "lower cost alone is never enough"
    );
    assert!(s["verdict"]["reasons"].to_string().contains("compliance"));
    assert_eq!(
        summary(&repo, &dir).1,
        text,
        "byte-identical, nothing written"
    );
    eprintln!("fake-server prompt-cache summary:\n{text}");
}

#[test]
fn evaluate_cache_refuses_without_opt_in_and_retains_every_failure() {
    let repo = repo();
    let steps = [
        ("s1", "baseline"),
        ("s2", "baseline"),
        ("s3", "cache"),
        ("s4", "cache"),
        ("s5", "cache"),
        ("s6", "cache"),
        ("s7", "cache"),
        ("s8", "cache"),
        ("s9", "cache"),
        ("s10", "cache"),
    ];
    let (dir, _) = prepare(&repo, &steps);
    let server = FakeServer::start(vec![
        Reply::Respond(400, json!({"type": "error", "error": {"type": "invalid_request_error", "message": "bad field"}}).to_string()),
        Reply::Respond(529, json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}).to_string()),
        Reply::Stall(Duration::from_secs(3)),
        Reply::Respond(200, "{\"id\": \"msg\", \"content\": [".into()),
        Reply::Respond(200, json!({"model": MODEL, "content": [], "usage": {"input_tokens": 10}}).to_string()),
        Reply::Raw(
            "HTTP/1.1 302 Found\r\nlocation: http://127.0.0.1:9/elsewhere\r\ncontent-length: 0\r\nconnection: close\r\n\r\n".into(),
        ),
        Reply::Respond(200, json!({"model": MODEL, "echo": SENTINEL}).to_string()),
        Reply::Respond(200, format!(r#"{{"model": "{MODEL}", "model": "other", "content": []}}"#)),
        Reply::Respond(200, json!({"model": MODEL,
            "content": [{"type": "thinking", "thinking": "hmm"}, {"type": "text", "text": "{}"}],
            "usage": {"input_tokens": 5, "cache_creation_input_tokens": 0,
                      "cache_read_input_tokens": 100, "output_tokens": 9}}).to_string()),
    ]);
    // Refusals send nothing and write nothing.
    let e = run_step(&repo, &dir, "s1", &server.url, &[], true).error_code("opt_in_required");
    assert!(e.error.hint.unwrap().contains("--send"));
    run_step(&repo, &dir, "s1", &server.url, &["--send"], false).error_code("missing_api_key");
    run_step(&repo, &dir, "s2", &server.url, &["--send"], true).error_code("out_of_order");
    let mut no_flag = repo.command(&[
        "evaluate-cache",
        "run",
        "--input-directory",
        dir.to_str().unwrap(),
        "--step",
        "s1",
        "--endpoint",
        &server.url,
        "--send",
    ]);
    no_flag.env("ANTHROPIC_API_KEY", SENTINEL);
    repo.run(no_flag).error_code("invalid_argument");
    run_step(
        &repo,
        &dir,
        "s1",
        "https://example.com/v1/messages",
        &["--send"],
        true,
    )
    .error_code("invalid_argument");
    assert!(
        server.requests().is_empty(),
        "no refusal reached the endpoint"
    );
    assert_eq!(std::fs::read_dir(dir.join("journal")).unwrap().count(), 0);

    let expect = [
        ("s1", "http_status", "invalid_request_error"),
        ("s2", "http_status", "overloaded_error"),
        ("s3", "http_timeout", ""),
        ("s4", "invalid_response", ""),
        ("s5", "incomplete_usage", "cache_creation_input_tokens"),
        ("s6", "http_status", "302"),
        ("s7", "response_withheld", "echoed"),
        ("s8", "invalid_response", "duplicate"),
    ];
    for (step, code, detail) in expect {
        let ran = run_step(&repo, &dir, step, &server.url, &["--send"], true);
        assert_eq!(ran.code(), Some(1), "{}", ran.describe());
        let printed: Value =
            serde_json::from_slice(&ran.output.stdout).expect("the record on stdout");
        let rec = record(&dir, step);
        assert_eq!(printed, rec, "stdout is the retained record");
        assert_eq!(rec["state"], "failed");
        assert_eq!(rec["error"]["code"], code, "{step}: {rec:#}");
        assert!(
            rec["error"]["message"].as_str().unwrap().contains(detail),
            "{rec:#}"
        );
        assert!(rec["http_started_at"].is_string(), "{step}: HTTP happened");
    }
    assert!(
        record(&dir, "s3")["duration_ms"].as_u64().unwrap() < 3000,
        "the client gave up"
    );
    assert_eq!(record(&dir, "s5")["usage"]["input_tokens"]["value"], 10);
    assert_eq!(
        record(&dir, "s5")["usage"]["output_tokens"]["status"],
        "not_observed"
    );
    assert_eq!(
        record(&dir, "s7")["response"],
        Value::Null,
        "an echo of the key is not kept"
    );
    assert!(!dir.join("attempts/s7/response.body").exists());
    // A thinking block breaks the text-only answer contract; usage and cost stay known.
    let thinking = run_step(&repo, &dir, "s9", &server.url, &["--send"], true).json();
    assert_eq!(thinking["state"], "completed");
    // A preflight failure is recorded without any HTTP.
    let before = server.requests().len();
    repo.write("scratch.txt", "an edit after preparation\n");
    let ran = run_step(&repo, &dir, "s10", &server.url, &["--send"], true);
    assert_eq!(ran.code(), Some(1));
    let rec = record(&dir, "s10");
    assert_eq!(rec["error"]["code"], "repository_changed");
    assert_eq!(rec["http_started_at"], Value::Null);
    assert_eq!(
        server.requests().len(),
        before,
        "no request after a failed preflight"
    );
    assert_key_nowhere(&dir);

    let (s, _) = summary(&repo, &dir);
    let statuses: Vec<&str> = s["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["status"].as_str().unwrap())
        .collect();
    let mut expected = ["failed"; 10];
    expected[8] = "completed";
    assert_eq!(statuses, expected);
    let s9 = &s["steps"][8];
    assert_eq!(s9["quality"]["status"], "failed", "{s9:#}");
    assert!(s9["quality"]["reason"]
        .as_str()
        .unwrap()
        .contains("non-text block"));
    assert_eq!(
        s9["cost"]["usd"], "0.00018",
        "(5·3 + 100·0.30 + 9·15) / 10⁶"
    );
    assert_eq!(
        s["pair"]["cache_usd"],
        Value::Null,
        "unknown costs suppress the total"
    );
    assert_eq!(s["pair"]["observed_reuse_count"]["status"], "not_observed");
    assert_eq!(s["verdict"]["claim_allowed"], false);
}
