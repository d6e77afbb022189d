//! Drives `repocue serve` with an MCP client that is not part of this project (the official
//! MCP Python SDK, installed by `scripts/setup-test-deps.sh` into `target/test-venv`), and with
//! raw JSON-RPC lines that no well-behaved client sends.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use serde_json::{json, Value};

use crate::support::TestRepo;

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn official_python_sdk_client_passes_every_check() {
    let root = workspace();
    let setup = Command::new("bash")
        .arg(root.join("scripts/setup-test-deps.sh"))
        .current_dir(&root)
        .output()
        .expect("run setup-test-deps.sh");
    assert!(
        setup.status.success(),
        "setup-test-deps.sh failed:\n{}{}",
        String::from_utf8_lossy(&setup.stdout),
        String::from_utf8_lossy(&setup.stderr)
    );
    let venv = std::env::var_os("REPOCUE_TEST_VENV")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("target/test-venv"));
    let venv = if venv.is_absolute() {
        venv
    } else {
        root.join(venv)
    };
    let out = Command::new(venv.join("bin/python"))
        .arg(root.join("crates/repocue-mcp/tests/mcp_client.py"))
        .args(["--repeat", "1", "--"])
        .arg(env!("CARGO_BIN_EXE_repocue"))
        .args(["--repository", "{repo}", "--cache-dir", "{cache}", "serve"])
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .expect("run the MCP client");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "MCP client failed:\n{stdout}\n{stderr}"
    );
    let last = stdout
        .lines()
        .rev()
        .find(|l| l.contains(" passed, "))
        .unwrap_or_default();
    assert!(
        last.ends_with(" 0 failed"),
        "unexpected summary {last:?}:\n{stdout}"
    );
    let passed: u32 = last
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    assert!(passed >= 20, "too few checks ran ({passed}):\n{stdout}");
}

/// How long a test waits for an answer before it calls the server silent.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(30);

/// A `repocue serve` process after the MCP handshake, talked to in raw lines.
struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    answers: Receiver<Value>,
    _repo: TestRepo,
}

impl Session {
    fn start() -> Session {
        let repo = TestRepo::with_files(&[("README.md", "# Widget\n")]);
        let mut child = repo
            .command(&["serve"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn repocue serve");
        let stdout = child.stdout.take().expect("stdout");
        let (sender, answers) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                let answer = serde_json::from_str(&line)
                    .unwrap_or_else(|e| panic!("an answer is one line of JSON ({e}): {line}"));
                if sender.send(answer).is_err() {
                    return;
                }
            }
        });
        let mut session = Session {
            stdin: child.stdin.take(),
            child,
            answers,
            _repo: repo,
        };
        let init = json!({
            "jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": { "name": "test", "version": "0" }
            }
        });
        session.send(init.to_string().as_bytes());
        assert_eq!(session.answer("initialize")["id"], 0);
        session.send(br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        session
    }

    fn send(&mut self, line: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(line).expect("write a line");
        stdin.write_all(b"\n").expect("write a newline");
        stdin.flush().expect("flush");
    }

    #[track_caller]
    fn answer(&self, to: &str) -> Value {
        self.answers
            .recv_timeout(ANSWER_TIMEOUT)
            .unwrap_or_else(|_| panic!("no answer to {to}"))
    }

    /// Sends `line` and asserts the answer: an error with `code` and exactly `id` (`null`
    /// included: the member is always there).
    #[track_caller]
    fn assert_error(&mut self, line: &[u8], code: i64, id: Value) {
        let shown = String::from_utf8_lossy(&line[..line.len().min(200)]).into_owned();
        self.send(line);
        let answer = self.answer(&shown);
        assert_eq!(answer["jsonrpc"], "2.0", "{shown}: {answer}");
        assert_eq!(answer["error"]["code"], code, "{shown}: {answer}");
        assert_eq!(answer.get("id"), Some(&id), "{shown}: {answer}");
    }

    /// Asserts that the server still answers a ping, and that nothing else came first.
    #[track_caller]
    fn assert_serving(&mut self, after: &str) {
        self.send(br#"{"jsonrpc":"2.0","id":"still-there","method":"ping"}"#);
        let answer = self.answer(&format!("a ping after {after}"));
        assert_eq!(
            answer,
            json!({ "jsonrpc": "2.0", "id": "still-there", "result": {} }),
            "after {after}"
        );
    }

    /// Closes stdin and asserts a clean exit.
    fn finish(mut self) {
        drop(self.stdin.take());
        let status = self.child.wait().expect("wait for repocue serve");
        assert!(status.success(), "{status}");
    }
}

#[test]
fn lines_that_are_not_json_get_a_parse_error_with_a_null_id() {
    let mut s = Session::start();
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    for line in [
        &b"hello world"[..],
        br#"{"jsonrpc":"2.0", "id": 3, "method": "#,
        b"\xff\xfe\x80 not UTF-8",
        b"{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"\xc3\x28\"}",
        br#"{"jsonrpc":"2.0","id":8,"method":"tools/list"} trailing"#,
        deep.as_bytes(),
    ] {
        s.assert_error(line, -32700, Value::Null);
        s.assert_serving(&String::from_utf8_lossy(&line[..line.len().min(40)]));
    }
    s.finish();
}

#[test]
fn invalid_requests_are_answered_with_their_readable_id() {
    let mut s = Session::start();
    for (line, code, id) in [
        (
            r#"{"jsonrpc":"1.0","id":6,"method":"tools/list"}"#,
            -32600,
            json!(6),
        ),
        (
            r#"{"id":"six","method":"tools/list"}"#,
            -32600,
            json!("six"),
        ),
        (
            r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":"x"}"#,
            -32600,
            json!(7),
        ),
        (
            r#"{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}"#,
            -32600,
            Value::Null,
        ),
        (
            r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
            -32600,
            Value::Null,
        ),
        (r#"{"jsonrpc":"2.0","id":11,"method":7}"#, -32600, json!(11)),
        (r#"{"jsonrpc":"2.0","method":7}"#, -32600, Value::Null),
        (r#"{"jsonrpc":"2.0","id":12}"#, -32600, json!(12)),
        (
            r#"[{"jsonrpc":"2.0","id":9,"method":"ping"}]"#,
            -32600,
            Value::Null,
        ),
        ("[]", -32600, Value::Null),
        ("42", -32600, Value::Null),
        (
            r#"{"jsonrpc":"2.0","id":13,"method":"ping","params":[1]}"#,
            -32602,
            json!(13),
        ),
    ] {
        s.assert_error(line.as_bytes(), code, id);
        s.assert_serving(line);
    }
    s.finish();
}

#[test]
fn served_methods_with_badly_typed_params_are_invalid_params() {
    let mut s = Session::start();
    let name_not_a_string =
        r#"{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":5}}"#;
    s.assert_error(name_not_a_string.as_bytes(), -32602, json!(10));
    let no_uri = r#"{"jsonrpc":"2.0","id":11,"method":"resources/read","params":{}}"#;
    s.assert_error(no_uri.as_bytes(), -32602, json!(11));
    // A method the server does not know stays "method not found".
    s.assert_error(
        br#"{"jsonrpc":"2.0","id":12,"method":"nope"}"#,
        -32601,
        json!(12),
    );
    s.assert_serving("invalid params");
    s.finish();
}

#[test]
fn malformed_notifications_and_responses_are_never_answered() {
    let mut s = Session::start();
    for line in [
        r#"{"jsonrpc":"2.0","method":"notifications/foo","params":"x"}"#,
        r#"{"jsonrpc":"2.0","id":5,"result":{},"error":{}}"#,
        r#"{"jsonrpc":"2.0","result":1}"#,
        "   ",
        "",
    ] {
        s.send(line.as_bytes());
        // The next answer is the ping's: nothing answered the line.
        s.assert_serving(line);
    }
    s.finish();
}

#[test]
fn a_line_over_the_limit_is_answered_and_skipped() {
    let mut s = Session::start();
    let padding = "a".repeat(repocue_mcp::MAX_LINE_BYTES + 1024);
    let id_first =
        format!(r#"{{"jsonrpc":"2.0","id":100,"method":"ping","params":{{"x":"{padding}"}}}}"#);
    s.assert_error(id_first.as_bytes(), -32600, json!(100));
    s.assert_serving("an over-long line with its id first");
    let id_last =
        format!(r#"{{"jsonrpc":"2.0","method":"ping","params":{{"x":"{padding}"}},"id":101}}"#);
    s.assert_error(id_last.as_bytes(), -32600, Value::Null);
    s.assert_serving("an over-long line with its id last");
    // Just under the limit is an ordinary request.
    let fits = format!(
        r#"{{"jsonrpc":"2.0","id":102,"method":"ping","params":{{"x":"{}"}}}}"#,
        "a".repeat(repocue_mcp::MAX_LINE_BYTES - 100)
    );
    s.send(fits.as_bytes());
    assert_eq!(s.answer("a line just under the limit")["id"], 102);
    s.finish();
}
