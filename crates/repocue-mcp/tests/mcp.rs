//! In-process tests of the MCP adapter against real temporary Git repositories: the tool
//! handlers called directly, resource URIs read through the library, and the rmcp server
//! driven with raw JSON-RPC lines over an in-memory pipe.

use std::path::PathBuf;
use std::process::Command;

use repocue::api::ErrorOutput;
use repocue::Options;
use repocue_mcp::resources::{self, ResourceError};
use repocue_mcp::tools::{self, GetArgs, NoArgs, RebaselineArgs, SearchArgs};
use serde_json::{json, Value};

/// A temporary repository with one commit and a private cache directory.
struct TestRepo {
    _tmp: tempfile::TempDir,
    root: PathBuf,
    cache: PathBuf,
}

impl TestRepo {
    fn new() -> Self {
        let tmp = tempfile::Builder::new()
            .prefix("repocue-mcp-test-")
            .tempdir()
            .unwrap();
        let base = tmp.path().canonicalize().unwrap();
        let (root, cache) = (base.join("repo"), base.join("cache"));
        std::fs::create_dir(&root).unwrap();
        let repo = TestRepo {
            _tmp: tmp,
            root,
            cache,
        };
        repo.git(&["-c", "init.defaultBranch=main", "init", "-q"]);
        repo.write(
            "README.md",
            "# Widget\n\nWidget is a tool that caches repository context for coding agents.\n",
        );
        repo.write(
            "Cargo.toml",
            "[package]\nname = \"widget\"\nversion = \"0.1.0\"\n",
        );
        repo.write("src/lib.rs", "pub fn answer() -> u32 {\n    42\n}\n");
        repo.git(&["add", "-A"]);
        repo.git(&["commit", "-q", "-m", "initial"]);
        repo
    }

    fn opts(&self) -> Options {
        Options {
            repository: Some(self.root.clone()),
            cache_dir: Some(self.cache.clone()),
            ..Options::default()
        }
    }

    fn write(&self, rel: &str, content: &str) {
        let path = self.root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, content).unwrap();
    }

    /// Runs Git hermetically: no global or system configuration, fixed identity and dates.
    fn git(&self, args: &[&str]) {
        let out = Command::new("git")
            .args(args)
            .current_dir(&self.root)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_AUTHOR_NAME", "Test")
            .env("GIT_AUTHOR_EMAIL", "test@example.invalid")
            .env("GIT_COMMITTER_NAME", "Test")
            .env("GIT_COMMITTER_EMAIL", "test@example.invalid")
            .env("GIT_AUTHOR_DATE", "2026-01-01T00:00:00Z")
            .env("GIT_COMMITTER_DATE", "2026-01-01T00:00:00Z")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    fn repo_id(&self) -> String {
        resources::served_repo_id(&self.opts()).unwrap()
    }

    fn uri(&self, suffix: &str) -> String {
        format!("repocue://{}/{suffix}", self.repo_id())
    }

    fn get(&self, args: Value) -> Value {
        let args: GetArgs = serde_json::from_value(args).unwrap();
        parse(&tools::handle_get(&self.opts(), args).unwrap())
    }

    fn status(&self) -> Value {
        parse(&tools::handle_status(&self.opts(), NoArgs {}).unwrap())
    }

    fn refresh(&self) -> Value {
        parse(&tools::handle_refresh(&self.opts(), NoArgs {}).unwrap())
    }

    /// Calls a tool by name with JSON arguments, as the MCP glue does.
    fn call(&self, name: &str, args: Value) -> Result<Value, ErrorOutput> {
        let Value::Object(map) = args else {
            panic!("arguments must be an object")
        };
        let result = tools::call(&self.opts(), name, Some(map)).expect("known tool");
        result.map(|text| parse(&text))
    }

    fn read(&self, uri: &str) -> Result<Value, ResourceError> {
        resources::read(&self.opts(), uri).map(|text| parse(&text))
    }
}

fn parse(text: &str) -> Value {
    assert!(!text.contains('\n'), "one line of JSON: {text}");
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

#[track_caller]
fn assert_code(result: Result<Value, ErrorOutput>, code: &str) -> ErrorOutput {
    match result {
        Ok(v) => panic!("expected error {code}, got {v}"),
        Err(e) => {
            assert_eq!(e.error.code, code, "{e:?}");
            // The text a failed tool answers with is the single-line JSON error object.
            let line = tools::error_line(&e);
            assert!(!line.contains('\n'));
            assert_eq!(serde_json::from_str::<ErrorOutput>(&line).unwrap(), e);
            e
        }
    }
}

#[test]
fn context_get_overview_initializes_and_fits_the_default_budget() {
    let repo = TestRepo::new();
    let cue = repo.get(json!({ "view": "overview" }));
    assert_eq!(cue["schema_version"], "repocue/cue-4");
    assert_eq!(cue["kind"], "overview");
    assert_eq!(cue["freshness"], "current");
    assert_eq!(cue["snapshot"], "snapshot-000001");
    assert_eq!(cue["provenance"], Value::Null, "lean by default");
    let full = repo.get(json!({ "view": "overview", "provenance": true }));
    assert_eq!(full["provenance"]["repository_id"], repo.repo_id());
    assert_eq!(full["provenance"]["max_tokens"], 500);
    assert!(full["provenance"]["estimated_tokens"].as_u64().unwrap() <= 500);
    assert!(
        cue.get("budget").is_none(),
        "no budget echo by default: {cue}"
    );
    let codes: Vec<&str> = cue["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|w| w["code"].as_str())
        .collect();
    assert!(codes.contains(&"initialized"), "{codes:?}");

    // The text is the library's cue, byte for byte.
    let service = repocue::Service::open(&repo.opts()).unwrap();
    let request = repocue::CueRequest::new(repocue::View::Overview);
    let direct = service.cue(&request).unwrap();
    let via_tool = tools::handle_get(
        &repo.opts(),
        serde_json::from_value(json!({"view": "overview"})).unwrap(),
    );
    assert_eq!(via_tool.unwrap(), direct.json);
}

#[test]
fn context_get_passes_budget_and_refresh_through() {
    let repo = TestRepo::new();
    let manifest = repo.get(json!({ "view": "manifest", "max_tokens": 300 }));
    assert_eq!(manifest["kind"], "manifest");
    assert_eq!(
        manifest["provenance"]["max_tokens"], 300,
        "manifest: always provenance"
    );

    repo.write("src/lib.rs", "pub fn answer() -> u32 {\n    43\n}\n");
    let stale = repo.get(json!({ "view": "manifest", "refresh": false }));
    assert_eq!(stale["freshness"], "refresh-needed");
    assert_eq!(stale["snapshot"], "snapshot-000001");
    let fresh = repo.get(json!({ "view": "manifest" }));
    assert_eq!(fresh["freshness"], "dirty-but-indexed");
    assert_eq!(fresh["snapshot"], "snapshot-000002");

    let delta = repo.get(json!({ "view": "delta", "since": "snapshot-000001", "max_tokens": 800 }));
    assert_eq!(delta["kind"], "delta");
    let paths = delta["content"]["paths"].as_array().unwrap();
    assert!(paths.iter().any(|p| p["path"] == "src/lib.rs"), "{paths:?}");
    // The full operations, digests included, only with provenance.
    assert_eq!(delta["content"]["operations"], Value::Null);
    let full = repo.get(json!({
        "view": "delta", "since": "snapshot-000001", "max_tokens": 2000, "provenance": true
    }));
    let ops = full["content"]["operations"].as_array().unwrap();
    assert!(
        ops.iter().any(|o| o["entity"] == "file:src/lib.rs"),
        "{ops:?}"
    );
}

#[test]
fn context_status_reports_live_freshness() {
    let repo = TestRepo::new();
    let st = repo.status();
    assert_eq!(st["schema_version"], "repocue/status-1");
    assert_eq!(st["freshness"], "uninitialized");
    repo.refresh();
    assert_eq!(repo.status()["freshness"], "current");
    repo.write("src/lib.rs", "pub fn answer() -> u32 {\n    43\n}\n");
    let st = repo.status();
    assert_eq!(st["freshness"], "refresh-needed");
    assert_eq!(st["changed_since_snapshot"], json!(["src/lib.rs"]));
    // Status never writes: still the same snapshot.
    assert_eq!(st["snapshot"], "snapshot-000001");
}

#[test]
fn context_refresh_baselines_then_publishes_after_an_edit() {
    let repo = TestRepo::new();
    let first = repo.refresh();
    assert_eq!(first["schema_version"], "repocue/refresh-1");
    assert_eq!(first["operation"], "baseline");
    assert_eq!(first["snapshot"], "snapshot-000001");

    let noop = repo.refresh();
    assert_eq!(
        (noop["operation"].as_str(), noop["published"].as_bool()),
        (Some("refresh"), Some(false))
    );

    repo.write("src/new.rs", "pub struct New;\n");
    let r = repo.call("context_refresh", json!({})).unwrap();
    assert_eq!(r["operation"], "refresh");
    assert_eq!(r["published"], true);
    assert_eq!(r["snapshot"], "snapshot-000002");
    assert_eq!(r["previous_snapshot"], "snapshot-000001");
    assert_eq!(repo.status()["freshness"], "dirty-but-indexed");
}

#[test]
fn context_rebaseline_needs_label_and_reason() {
    let repo = TestRepo::new();
    let e = assert_code(
        repo.call("context_rebaseline", json!({ "reason": "why" })),
        "invalid_argument",
    );
    assert!(e.error.message.contains("label"), "{e:?}");
    assert_code(
        repo.call("context_rebaseline", json!({ "label": "v1" })),
        "invalid_argument",
    );
    assert_code(
        repo.call(
            "context_rebaseline",
            json!({ "label": "  ", "reason": "why" }),
        ),
        "invalid_argument",
    );
    let empty_reason = RebaselineArgs {
        label: "v1".into(),
        reason: String::new(),
    };
    assert!(tools::handle_rebaseline(&repo.opts(), empty_reason).is_err());

    repo.refresh();
    let r = repo
        .call(
            "context_rebaseline",
            json!({ "label": "release:1.0", "reason": "test" }),
        )
        .unwrap();
    assert_eq!(r["operation"], "rebaseline");
    assert_eq!(r["epoch"], "epoch-000002");
    assert_eq!(r["published"], true);
}

#[test]
fn invalid_arguments_are_error_values() {
    let repo = TestRepo::new();
    for bad in [
        json!({}),
        json!({ "view": "bogus" }),
        json!({ "view": 3 }),
        json!({ "view": "overview", "max_token": 100 }),
        json!({ "view": "overview", "max_tokens": "many" }),
        json!({ "view": "overview", "max_tokens": -1 }),
        // Out-of-range budgets are passed through and rejected by the library.
        json!({ "view": "overview", "max_tokens": 0 }),
        json!({ "view": "overview", "max_tokens": 20001 }),
        json!({ "view": "delta", "since": "yesterday" }),
    ] {
        assert_code(repo.call("context_get", bad), "invalid_argument");
    }
    assert_code(
        repo.call(
            "context_get",
            json!({ "view": "delta", "since": "snapshot-000099" }),
        ),
        "not_found",
    );
    assert_code(repo.call("context_search", json!({})), "invalid_argument");
    assert_code(
        repo.call("context_search", json!({ "query": " " })),
        "invalid_argument",
    );
    assert_code(
        repo.call("context_status", json!({ "verbose": true })),
        "invalid_argument",
    );
    assert_code(
        repo.call("context_refresh", json!({ "mode": "full" })),
        "invalid_argument",
    );
    assert!(tools::call(&repo.opts(), "context_nope", None).is_none());

    // Not a repository: an error value, not a panic.
    let tmp = tempfile::tempdir().unwrap();
    let opts = Options {
        repository: Some(tmp.path().into()),
        cache_dir: Some(tmp.path().join("c")),
        ..Options::default()
    };
    let e = tools::handle_status(&opts, NoArgs {}).unwrap_err();
    assert_eq!(e.error.code, "not_a_git_repository");
}

#[test]
fn search_requests_carry_query_and_scope() {
    let args: SearchArgs = serde_json::from_value(
        json!({ "query": "answer", "scope": "code,docs", "max_tokens": 700, "max_results": 5 }),
    )
    .unwrap();
    let r = args.to_request();
    assert_eq!(r.view, repocue::View::Search);
    assert_eq!(
        (
            r.query.as_deref(),
            r.scope.as_deref(),
            r.max_tokens,
            r.max_results
        ),
        (Some("answer"), Some("code,docs"), 700, Some(5))
    );
    let list: SearchArgs =
        serde_json::from_value(json!({ "query": "answer", "scope": ["code", "docs"] })).unwrap();
    assert_eq!(list.to_request().scope.as_deref(), Some("code,docs"));
    let args: SearchArgs = serde_json::from_value(json!({ "query": "answer" })).unwrap();
    let mut expected = repocue::CueRequest::new(repocue::View::Search);
    expected.query = Some("answer".into());
    assert_eq!(args.to_request(), expected);

    let repo = TestRepo::new();
    let cue = repo
        .call("context_search", json!({ "query": "answer" }))
        .unwrap();
    assert_eq!(cue["kind"], "search");
    assert!(cue.to_string().len().div_ceil(4) <= 500, "{cue}");
    let hits = cue["content"]["hits"].as_array().unwrap();
    assert!(hits.iter().any(|h| h["path"] == "src/lib.rs"), "{hits:?}");
    let docs = repo
        .call(
            "context_search",
            json!({ "query": "widget", "scope": ["docs"] }),
        )
        .unwrap();
    assert_eq!(docs["content"]["scopes"], json!(["docs"]));
    assert_code(
        repo.call(
            "context_search",
            json!({ "query": "answer", "scope": "everything" }),
        ),
        "invalid_argument",
    );
    assert_code(
        repo.call(
            "context_search",
            json!({ "query": "answer", "max_results": 0 }),
        ),
        "invalid_argument",
    );
}

#[test]
fn get_args_default_to_the_cli_defaults() {
    let args: GetArgs = serde_json::from_value(json!({ "view": "overview" })).unwrap();
    assert_eq!(
        args.to_request(),
        repocue::CueRequest::new(repocue::View::Overview)
    );
    let args: GetArgs = serde_json::from_value(json!({
        "view": "entity", "id": "symbol:src/lib.rs:answer", "max_tokens": null, "refresh": false
    }))
    .unwrap();
    let r = args.to_request();
    assert_eq!(
        (r.id.as_deref(), r.max_tokens, r.refresh),
        (Some("symbol:src/lib.rs:answer"), 500, false)
    );

    // An entry of a cue's `more` list can be passed as it is, `reason` included.
    let more = json!({
        "view": "delta", "reason": "all operations of this delta", "since": "snapshot-000001",
        "max_tokens": 800
    });
    let args: GetArgs = serde_json::from_value(more).unwrap();
    assert_eq!(args.to_request().since.as_deref(), Some("snapshot-000001"));
}

#[test]
fn resources_read_current_state_only() {
    let repo = TestRepo::new();
    let overview = repo.read(&repo.uri("overview/current")).unwrap();
    assert_eq!(
        (overview["kind"].as_str(), overview["snapshot"].as_str()),
        (Some("overview"), Some("snapshot-000001"))
    );

    let manifest = repo.read(&repo.uri("snapshot/snapshot-000001")).unwrap();
    assert_eq!(manifest["kind"], "manifest");

    repo.write("src/lib.rs", "pub fn answer() -> u32 {\n    43\n}\n");
    // Reading refreshes: snapshot-000001 is no longer current.
    let old = repo
        .read(&repo.uri("snapshot/snapshot-000001"))
        .unwrap_err();
    assert!(
        matches!(&old, ResourceError::NotFound(m) if m.contains("snapshot-000002")),
        "{old:?}"
    );
    assert_eq!(
        repo.read(&repo.uri("snapshot/snapshot-000002")).unwrap()["snapshot"],
        "snapshot-000002"
    );

    let delta = repo
        .read(&repo.uri("delta/snapshot-000001/snapshot-000002"))
        .unwrap();
    assert_eq!(
        (
            delta["content"]["from"].as_str(),
            delta["content"]["to"].as_str()
        ),
        (Some("snapshot-000001"), Some("snapshot-000002"))
    );
    let stale_to = repo
        .read(&repo.uri("delta/snapshot-000001/snapshot-000001"))
        .unwrap_err();
    assert!(
        matches!(&stale_to, ResourceError::NotFound(m) if m.contains("current")),
        "{stale_to:?}"
    );
    let missing_from = repo
        .read(&repo.uri("delta/snapshot-000042/snapshot-000002"))
        .unwrap_err();
    assert!(
        matches!(&missing_from, ResourceError::Library(e) if e.error.code == "not_found"),
        "{missing_from:?}"
    );

    // Entity and document views go through to the library, whatever it supports now.
    for suffix in ["entity/file:src%2Flib.rs", "document/README.md"] {
        match repo.read(&repo.uri(suffix)) {
            Ok(cue) => assert!(
                cue["kind"] == "entity" || cue["kind"] == "document",
                "{cue}"
            ),
            Err(ResourceError::Library(e)) => {
                assert!(
                    ["invalid_argument", "not_found"].contains(&e.error.code.as_str()),
                    "{e:?}"
                )
            }
            Err(other) => panic!("{suffix}: {other:?}"),
        }
    }
}

#[test]
fn resources_reject_bad_and_foreign_uris() {
    let repo = TestRepo::new();
    let foreign = "repocue://repo-000000000000000000000000/overview/current";
    let e = repo.read(foreign).unwrap_err();
    assert!(
        matches!(&e, ResourceError::NotFound(m) if m.contains(&repo.repo_id())),
        "{e:?}"
    );
    for bad in [
        "",
        "repocue://",
        "file:///etc/passwd",
        "repocue://x/overview/current",
    ] {
        assert!(
            matches!(repo.read(bad), Err(ResourceError::Invalid(_))),
            "{bad}"
        );
    }
    assert!(matches!(
        repo.read(&repo.uri("checkpoint/checkpoint-000001")),
        Err(ResourceError::NotFound(_))
    ));
    assert!(matches!(
        repo.read(&repo.uri("snapshot/latest")),
        Err(ResourceError::Invalid(_))
    ));
    // Nothing was initialized by rejected reads.
    assert_eq!(repo.status()["freshness"], "uninitialized");
}

/// Drives the rmcp server with raw JSON-RPC lines, as a stdio client would.
mod protocol {
    use super::*;
    use repocue_mcp::RepoCueServer;
    use rmcp::ServiceExt;
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

    struct Client {
        write: tokio::io::WriteHalf<tokio::io::DuplexStream>,
        lines: tokio::io::Lines<BufReader<tokio::io::ReadHalf<tokio::io::DuplexStream>>>,
    }

    impl Client {
        async fn send(&mut self, msg: Value) {
            let line = format!("{msg}\n");
            self.write.write_all(line.as_bytes()).await.unwrap();
        }

        /// Sends a request and returns the response with its id (skipping anything else).
        async fn request(&mut self, id: u64, method: &str, params: Value) -> Value {
            self.send(json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))
                .await;
            loop {
                let line = self
                    .lines
                    .next_line()
                    .await
                    .unwrap()
                    .expect("server answered");
                let msg: Value = serde_json::from_str(&line).unwrap();
                if msg["id"] == id {
                    return msg;
                }
            }
        }
    }

    fn tool_text(response: &Value) -> (Value, bool) {
        let result = &response["result"];
        let text = result["content"][0]["text"]
            .as_str()
            .unwrap_or_else(|| panic!("{response}"));
        (parse(text), result["isError"] == true)
    }

    #[tokio::test]
    async fn serves_tools_and_resources_and_ends_on_eof() {
        let repo = TestRepo::new();
        let (client_side, server_side) = tokio::io::duplex(1 << 20);
        let server = RepoCueServer::new(repo.opts());
        let task = tokio::spawn(async move {
            let running = server
                .serve(tokio::io::split(server_side))
                .await
                .expect("initialized");
            running.waiting().await
        });
        let (read, write) = tokio::io::split(client_side);
        let mut c = Client {
            write,
            lines: BufReader::new(read).lines(),
        };

        let init = c
            .request(
                1,
                "initialize",
                json!({
                    "protocolVersion": "2025-06-18",
                    "capabilities": {},
                    "clientInfo": { "name": "test", "version": "0" }
                }),
            )
            .await;
        let info = &init["result"];
        assert_eq!(info["serverInfo"]["name"], "repocue");
        assert_eq!(info["serverInfo"]["version"], env!("CARGO_PKG_VERSION"));
        assert!(info["instructions"]
            .as_str()
            .unwrap()
            .contains("context_get"));
        assert!(
            info["capabilities"]["tools"].is_object()
                && info["capabilities"]["resources"].is_object()
        );
        c.send(json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }))
            .await;

        let list = c.request(2, "tools/list", json!({})).await;
        let tools = list["result"]["tools"].as_array().unwrap();
        let mut names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
        names.sort_unstable();
        assert_eq!(
            names,
            [
                "context_get",
                "context_rebaseline",
                "context_refresh",
                "context_search",
                "context_status",
                "context_task"
            ]
        );
        let get = tools.iter().find(|t| t["name"] == "context_get").unwrap();
        assert_eq!(get["inputSchema"]["type"], "object");
        assert_eq!(get["inputSchema"]["required"], json!(["view"]));
        assert!(get["inputSchema"]["properties"]["max_tokens"].is_object());
        let rebaseline = tools
            .iter()
            .find(|t| t["name"] == "context_rebaseline")
            .unwrap();
        let mut required: Vec<&str> = rebaseline["inputSchema"]["required"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        required.sort_unstable();
        assert_eq!(required, ["label", "reason"]);

        let status = tools
            .iter()
            .find(|t| t["name"] == "context_status")
            .unwrap();
        assert_eq!(status["inputSchema"]["type"], "object");
        assert_eq!(status["inputSchema"]["properties"], json!({}));
        for t in tools {
            assert!(
                t["description"].as_str().is_some_and(|d| d.len() > 100),
                "{t}"
            );
        }
        let r = c
            .request(
                3,
                "tools/call",
                json!({ "name": "context_get", "arguments": { "view": "overview" } }),
            )
            .await;
        let (cue, is_error) = tool_text(&r);
        assert!(!is_error);
        assert_eq!(cue["kind"], "overview");

        let r = c
            .request(
                4,
                "tools/call",
                json!({ "name": "context_get", "arguments": { "view": "nope" } }),
            )
            .await;
        let (err, is_error) = tool_text(&r);
        assert!(is_error);
        assert_eq!(err["error"]["code"], "invalid_argument");

        let r = c
            .request(
                5,
                "tools/call",
                json!({ "name": "context_rebaseline", "arguments": {} }),
            )
            .await;
        assert!(tool_text(&r).1);

        let r = c
            .request(
                6,
                "tools/call",
                json!({ "name": "no_such_tool", "arguments": {} }),
            )
            .await;
        assert_eq!(r["error"]["code"], -32602, "{r}");

        let r = c.request(7, "resources/list", json!({})).await;
        let uri = r["result"]["resources"][0]["uri"]
            .as_str()
            .unwrap()
            .to_owned();
        assert_eq!(uri, repo.uri("overview/current"));
        let r = c.request(8, "resources/templates/list", json!({})).await;
        assert_eq!(
            r["result"]["resourceTemplates"].as_array().unwrap().len(),
            4,
            "{r}"
        );

        let r = c.request(9, "resources/read", json!({ "uri": uri })).await;
        let contents = &r["result"]["contents"][0];
        assert_eq!(contents["mimeType"], "application/json");
        assert_eq!(
            parse(contents["text"].as_str().unwrap())["kind"],
            "overview"
        );

        let r = c
            .request(10, "resources/read", json!({ "uri": "repocue://garbage" }))
            .await;
        assert_eq!(r["error"]["code"], -32602, "{r}");
        let foreign = "repocue://repo-000000000000000000000000/overview/current";
        let r = c
            .request(11, "resources/read", json!({ "uri": foreign }))
            .await;
        assert_eq!(r["error"]["code"], -32002, "{r}");

        // Still serving after the errors.
        let r = c
            .request(
                12,
                "tools/call",
                json!({ "name": "context_status", "arguments": {} }),
            )
            .await;
        assert_eq!(tool_text(&r).0["freshness"], "current");

        // Closing the client's end ends the session cleanly.
        drop(c);
        let reason = task.await.unwrap().unwrap();
        assert!(
            matches!(reason, rmcp::service::QuitReason::Closed),
            "{reason:?}"
        );
    }
}

/// The planted values of a secret fixture of the extractor: every `sk-…-Q7` token and every
/// number of nine or more digits starting with `7777`.
fn planted_values(source: &str) -> Vec<String> {
    let mut out = Vec::new();
    for word in source.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-')) {
        let number = word.len() >= 9 && word.starts_with("7777");
        if (word.starts_with("sk-") && word.ends_with("-Q7"))
            || (number && word.bytes().all(|b| b.is_ascii_digit()))
        {
            out.push(word.to_string());
        }
    }
    out
}

/// Tool answers and resources never carry a literal value written in code: the extractor's
/// secret fixtures (every language) are planted, and no `context_get` view, `context_search`
/// answer or resource read shows any of their values.
#[test]
fn tool_answers_never_carry_planted_literal_values() {
    let repo = TestRepo::new();
    // Initialised before planting, so that the delta view lists the planted symbols.
    repo.get(json!({ "view": "overview" }));
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../repocue-structure/tests/fixtures/secrets");
    let mut planted = Vec::new();
    let mut paths = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let content = std::fs::read_to_string(&path).unwrap();
        let rel = format!(
            "src/planted/{}",
            path.file_name().unwrap().to_string_lossy()
        );
        repo.write(&rel, &content);
        planted.extend(planted_values(&content));
        paths.push(rel);
    }
    paths.sort();
    assert!(planted.len() > 50, "{planted:?}");
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-q", "-m", "planted"]);

    let mut answers: Vec<(String, String)> = Vec::new();
    let mut get = |args: Value| {
        let answer = repo.call("context_get", args.clone()).unwrap();
        answers.push((args.to_string(), answer.to_string()));
        answer
    };
    get(json!({ "view": "overview", "max_tokens": 20000 }));
    get(json!({ "view": "manifest", "max_tokens": 20000 }));
    get(json!({ "view": "delta", "since": "snapshot-000001", "max_tokens": 20000 }));
    get(json!({ "view": "structure", "path": "src/", "max_tokens": 20000 }));
    let mut ids = Vec::new();
    for path in &paths {
        let cue = get(json!({ "view": "structure", "path": path, "max_tokens": 20000 }));
        for symbol in cue["content"]["symbols"].as_array().unwrap() {
            ids.push(format!(
                "symbol:{}:{}",
                symbol["path"].as_str().unwrap(),
                symbol["name"].as_str().unwrap()
            ));
        }
    }
    assert!(ids.len() > 100, "{ids:?}");
    for id in &ids {
        get(json!({ "view": "entity", "id": id, "max_tokens": 20000 }));
    }
    for query in [
        "SECRET_KEY",
        "token",
        "password",
        "apiKey",
        "sk",
        "Q7",
        "const",
        "key",
    ] {
        let answer = repo
            .call(
                "context_search",
                json!({ "query": query, "max_tokens": 20000, "max_results": 200 }),
            )
            .unwrap();
        answers.push((query.to_string(), answer.to_string()));
    }
    for suffix in ["overview/current", "snapshot/snapshot-000002"] {
        answers.push((
            suffix.into(),
            repo.read(&repo.uri(suffix)).unwrap().to_string(),
        ));
    }
    let all: String = answers.iter().map(|(_, a)| a.as_str()).collect();
    assert!(all.contains("AWS_SECRET_ACCESS_KEY") && all.contains("apiKey"));
    let leaks: Vec<String> = answers
        .iter()
        .flat_map(|(args, answer)| {
            planted
                .iter()
                .filter(|v| answer.contains(v.as_str()))
                .map(move |v| format!("{v} in {args}"))
        })
        .collect();
    assert!(
        leaks.is_empty(),
        "{} leaks:\n{}",
        leaks.len(),
        leaks.join("\n")
    );
}

/// Secret files (a PEM private key and an AWS key in ordinary names, a built-in secret name)
/// are counted but named by no tool answer or resource, and none of their values appears.
#[test]
fn tool_answers_never_name_secret_files_or_carry_their_values() {
    let repo = TestRepo::new();
    let dashes = "-".repeat(5);
    let pem_body = format!("MIIEowIBAAKCAQEA{}", "McpPlantedPem".repeat(4));
    let aws_id = format!("AKIA{}", "MCPPLANTED123456");
    let files = [
        (
            "deploy/signing_material.txt",
            format!(
                "{dashes}BEGIN PRIVATE KEY{dashes}\n{pem_body}\n{dashes}END PRIVATE KEY{dashes}\n"
            ),
        ),
        (
            "src/aws_setup.py",
            format!("KEY = \"{aws_id}\"\n\ndef aws_setup():\n    pass\n"),
        ),
        ("config/api.pem", "not even a key\n".to_string()),
    ];
    for (path, content) in &files {
        repo.write(path, content);
    }
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-q", "-m", "secrets"]);
    let mut answers: Vec<String> = Vec::new();
    for args in [
        json!({ "view": "overview", "max_tokens": 20000 }),
        json!({ "view": "manifest", "max_tokens": 2000 }),
        json!({ "view": "structure", "max_tokens": 20000 }),
        json!({ "view": "structure", "path": "deploy/", "max_tokens": 20000 }),
    ] {
        answers.push(repo.get(args).to_string());
    }
    let rotated = format!("AKIA{}", "MCPPLANTED654321");
    repo.write("src/aws_setup.py", &format!("KEY = \"{rotated}\"\n"));
    answers.push(repo.status().to_string());
    answers.push(repo.refresh().to_string());
    answers.push(
        repo.get(
            json!({ "view": "delta", "since": "snapshot-000001", "max_tokens": 20000,
            "provenance": true }),
        )
        .to_string(),
    );
    for query in [
        "signing", "material", "aws", "setup", "api", "pem", "KEY", "PRIVATE",
    ] {
        let answer = repo
            .call(
                "context_search",
                json!({ "query": query, "max_results": 200 }),
            )
            .unwrap();
        answers.push(answer.to_string());
    }
    answers.push(
        repo.read(&repo.uri("overview/current"))
            .unwrap()
            .to_string(),
    );
    assert_code(
        repo.call(
            "context_get",
            json!({ "view": "entity", "id": "file:src/aws_setup.py" }),
        ),
        "not_found",
    );
    let all = answers.concat();
    assert!(all.contains("src/lib.rs"), "vacuous: {all}");
    for needle in [
        pem_body.as_str(),
        aws_id.as_str(),
        rotated.as_str(),
        "signing_material",
        "aws_setup",
        "api.pem",
    ] {
        assert!(!all.contains(needle), "{needle} leaked");
    }
    let manifest = repo.get(json!({ "view": "manifest" }));
    assert_eq!(manifest["content"]["secret_files"], 3, "{manifest}");
}

/// Without `max_tokens`, tools and resources use the repository's `cue.max_tokens`.
#[test]
fn the_configured_budget_is_the_default_of_tools_and_resources() {
    let repo = TestRepo::new();
    repo.write(".repocue/config.toml", "[cue]\nmax_tokens = 640\n");
    // The budget each cue was fitted to, as its metrics row records it.
    let last_budget = |repo: &TestRepo| {
        let service = repocue::Service::open(&repo.opts()).unwrap();
        service.metrics().unwrap().cues.last().unwrap().max_tokens
    };
    assert_eq!(
        repo.get(json!({ "view": "manifest" }))["provenance"]["max_tokens"],
        640
    );
    let search = repo
        .call(
            "context_search",
            json!({ "query": "widget", "provenance": true }),
        )
        .unwrap();
    assert_eq!(search["provenance"]["max_tokens"], 640);
    repo.read(&repo.uri("overview/current")).unwrap();
    assert_eq!(last_budget(&repo), 640, "the overview resource");
    let given = repo.get(json!({ "view": "manifest", "max_tokens": 300 }));
    assert_eq!(given["provenance"]["max_tokens"], 300);
    assert_eq!(last_budget(&repo), 300);
    repo.write(".repocue/config.toml", "[cue]\nmax_tokens = \"lots\"\n");
    let e = assert_code(
        repo.call("context_get", json!({ "view": "manifest" })),
        "invalid_config",
    );
    assert!(
        e.error.message.contains("config.toml:2: cue.max_tokens"),
        "{e:?}"
    );
}

/// The errors of `value` against `docs/schema/<name>.schema.json`, read at test time.
fn schema_errors(name: &str, value: &Value) -> Vec<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../docs/schema")
        .join(format!("{name}.schema.json"));
    let text = std::fs::read_to_string(&path).unwrap();
    let schema: Value = serde_json::from_str(&text).unwrap();
    let validator = jsonschema::validator_for(&schema)
        .unwrap_or_else(|e| panic!("{} is not a valid schema: {e}", path.display()));
    validator
        .iter_errors(value)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect()
}

#[track_caller]
fn assert_valid(name: &str, value: &Value) {
    let errors = schema_errors(name, value);
    assert!(
        errors.is_empty(),
        "answer does not match docs/schema/{name}.schema.json:\n{}\n{value:#}",
        errors.join("\n")
    );
}

/// Every tool answer (and every error answer) matches the checked-in JSON Schema of the
/// CLI output it mirrors.
#[test]
fn tool_answers_match_the_checked_in_schemas() {
    assert!(!schema_errors("refresh", &json!({ "published": "yes" })).is_empty());
    let repo = TestRepo::new();
    assert_valid("status", &repo.call("context_status", json!({})).unwrap());
    assert_valid("refresh", &repo.call("context_refresh", json!({})).unwrap());
    repo.write(
        "src/lib.rs",
        "pub fn answer() -> u32 {\n    43\n}\n\npub fn more() {}\n",
    );
    assert_valid("refresh", &repo.call("context_refresh", json!({})).unwrap());
    assert_valid("status", &repo.call("context_status", json!({})).unwrap());
    let views = [
        json!({ "view": "manifest" }),
        json!({ "view": "overview" }),
        json!({ "view": "delta" }),
        json!({ "view": "delta", "since": "snapshot-000001" }),
        json!({ "view": "structure", "path": "src/" }),
        json!({ "view": "entity", "id": "symbol:src/lib.rs:answer" }),
        json!({ "view": "entity", "id": "file:src/lib.rs" }),
        json!({ "view": "search", "query": "answer" }),
        json!({ "view": "document", "path": "README.md" }),
    ];
    for args in views {
        let view = args["view"].as_str().unwrap().to_string();
        let cue = repo.call("context_get", args).unwrap();
        assert_valid(&format!("cue-{view}"), &cue);
    }
    let hits = repo
        .call(
            "context_search",
            json!({ "query": "widget", "max_results": 5 }),
        )
        .unwrap();
    assert_valid("cue-search", &hits);
    assert_valid(
        "refresh",
        &repo
            .call(
                "context_rebaseline",
                json!({ "label": "again", "reason": "schema test" }),
            )
            .unwrap(),
    );
    for (name, args) in [
        (
            "context_get",
            json!({ "view": "entity", "id": "symbol:nope:x" }),
        ),
        (
            "context_get",
            json!({ "view": "delta", "since": "snapshot-999999" }),
        ),
        ("context_search", json!({ "query": "x", "max_results": 0 })),
    ] {
        let error = repo.call(name, args).unwrap_err();
        let line: Value = serde_json::from_str(&tools::error_line(&error)).unwrap();
        assert_valid("error", &line);
    }
}

/// `context_task` delivers the declared README text whole, refuses a stale pin, states the
/// minimum budget, and rejects what the task view does not take.
#[test]
fn context_task_delivers_declared_text_and_fails_cleanly() {
    let repo = TestRepo::new();
    let readme = std::fs::read(repo.root.join("README.md")).unwrap();
    let pin = format!("sha256:{}", repocue::hex_sha256(&readme));
    let declaration = json!({
        "schema_version": "repocue/task-context-1",
        "items": [{
            "id": "repository-context", "kind": "instruction", "required": true,
            "tasks": null, "paths": ["."],
            "source": {"path": "README.md", "content_digest": pin, "lines": null}
        }]
    });
    repo.write("ctx.json", &declaration.to_string());
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-q", "-m", "declare"]);
    let args = json!({
        "context_file": "ctx.json", "task_kind": "discovery", "targets": ["src"],
        "max_tokens": 2000
    });
    let cue = repo.call("context_task", args.clone()).unwrap();
    assert_eq!(cue["kind"], "task");
    assert_eq!(
        cue["content"]["required_ids"],
        json!(["repository-context"])
    );
    assert_eq!(
        cue["content"]["sources"][0]["text"],
        String::from_utf8(readme).unwrap()
    );
    assert_eq!(cue["content"]["sources"][0]["content_digest"], pin);
    // context_get with view task but no task arguments is refused.
    let args_get: GetArgs = serde_json::from_value(json!({"view": "task"})).unwrap();
    assert_code(
        tools::handle_get(&repo.opts(), args_get).map(|t| parse(&t)),
        "invalid_argument",
    );
    let mut small = args.clone();
    small["max_tokens"] = json!(50);
    let e = assert_code(repo.call("context_task", small), "budget_too_small");
    assert!(e.error.message.contains("at least"), "{}", e.error.message);
    for bad in [
        json!({"context_file": "ctx.json", "task_kind": "deploy", "targets": ["."]}),
        json!({"context_file": "ctx.json", "task_kind": "discovery", "targets": []}),
        json!({"context_file": "/ctx.json", "task_kind": "discovery", "targets": ["."]}),
        json!({"context_file": "ctx.json", "task_kind": "discovery", "targets": ["a/../b"]}),
        json!({"context_file": "ctx.json", "task_kind": "discovery"}),
        json!({"context_file": "ctx.json", "task_kind": "discovery", "targets": ["."], "path": ""}),
    ] {
        assert_code(repo.call("context_task", bad), "invalid_argument");
    }
    repo.write("README.md", "# Widget\n\nChanged.\n");
    assert_code(repo.call("context_task", args), "stale_pin");
}
