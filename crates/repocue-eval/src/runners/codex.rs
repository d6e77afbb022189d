//! The Codex CLI adapter: one fresh, non-interactive `codex exec --json` session per attempt,
//! its JSONL event stream turned into an observation.
//!
//! Settings (environment): `REPOCUE_CODEX_BIN` (default `codex`), `REPOCUE_CODEX_MODEL`
//! (required), `REPOCUE_CODEX_REASONING_EFFORT` (optional). The sandbox is always
//! `read-only`. The raw stream is kept in the attempt's artifacts directory.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::contract::{self, CommandRecord, Metric, Observation, RunnerInfo, RunnerRequest, Turn};
use crate::error::{EvalError, Result};

/// Adapter version.
pub const VERSION: &str = "1";

/// Adapter settings.
#[derive(Debug, Clone)]
pub struct Config {
    /// The `codex` executable.
    pub bin: PathBuf,
    /// Model.
    pub model: String,
    /// Reasoning effort.
    pub reasoning_effort: Option<String>,
}

impl Config {
    /// Reads the settings from the environment.
    pub fn from_env() -> Result<Config> {
        Ok(Config {
            bin: PathBuf::from(
                std::env::var("REPOCUE_CODEX_BIN").unwrap_or_else(|_| "codex".into()),
            ),
            model: super::required_env("REPOCUE_CODEX_MODEL")?,
            reasoning_effort: std::env::var("REPOCUE_CODEX_REASONING_EFFORT")
                .ok()
                .filter(|v| !v.is_empty()),
        })
    }
}

/// Runs Codex for the request named by the environment.
pub fn observe(req: &RunnerRequest) -> Result<Observation> {
    observe_with(req, &Config::from_env()?)
}

/// Returns the arguments given to `codex`.
pub fn argv(req: &RunnerRequest, cfg: &Config) -> Vec<String> {
    let mut a: Vec<String> = [
        "exec",
        "--json",
        "--sandbox",
        "read-only",
        "--skip-git-repo-check",
    ]
    .map(String::from)
    .to_vec();
    a.extend(["--model".into(), cfg.model.clone()]);
    if let Some(e) = &cfg.reasoning_effort {
        a.extend(["-c".into(), format!("model_reasoning_effort=\"{e}\"")]);
    }
    a.extend([
        "--cd".into(),
        req.repository.root.clone(),
        "--output-schema".into(),
        req.answer_schema_path.clone(),
        "-".into(),
    ]);
    a
}

/// Runs Codex with explicit settings.
pub fn observe_with(req: &RunnerRequest, cfg: &Config) -> Result<Observation> {
    let version = super::agent_version(&cfg.bin);
    let run = super::run_agent(
        &cfg.bin,
        &argv(req, cfg),
        Path::new(&req.repository.root),
        &req.prompt,
        Duration::from_secs(req.limits.timeout_seconds),
        Path::new(&req.artifacts_dir),
        "codex",
    )?;
    if run.code != Some(0) {
        return Err(EvalError::new(
            "agent_failed",
            format!(
                "codex exited with {:?}: {}",
                run.code,
                String::from_utf8_lossy(&run.stderr).trim()
            ),
        ));
    }
    let mut o = parse_events(&run.stdout, req)?;
    o.duration_ms = Metric::observed(run.wall_ms);
    o.runner = RunnerInfo {
        adapter: "codex-cli".into(),
        adapter_version: VERSION.into(),
        agent_version: version,
        model: cfg.model.clone(),
        reasoning_effort: cfg.reasoning_effort.clone(),
        sandbox: "read-only".into(),
    };
    Ok(o)
}

fn counter(usage: &serde_json::Value, key: &str, line: usize) -> Result<Option<u64>> {
    match usage.get(key) {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(v) => v.as_u64().map(Some).ok_or_else(|| {
            EvalError::new(
                "invalid_usage",
                format!("line {line}: usage.{key} is not a non-negative integer: {v}"),
            )
        }),
    }
}

/// Parses a `codex exec --json` stream. Every `turn.completed` is a turn, with or without
/// usage; `item.completed` command executions are commands and tool calls, MCP tool calls,
/// web searches and file changes are tool calls, and the last agent message is the answer.
pub fn parse_events(stdout: &[u8], req: &RunnerRequest) -> Result<Observation> {
    let mut turns = vec![];
    let mut commands = vec![];
    let mut tool_calls: u64 = 0;
    let mut final_text: Option<String> = None;
    for (i, line) in stdout.split(|&b| b == b'\n').enumerate() {
        let n = i + 1;
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let v: serde_json::Value = serde_json::from_slice(line).map_err(|e| {
            EvalError::new("invalid_event_stream", format!("line {n} is not JSON: {e}"))
        })?;
        if !v.is_object() {
            return Err(EvalError::new(
                "invalid_event_stream",
                format!("line {n} is not a JSON object"),
            ));
        }
        match v["type"].as_str().unwrap_or("") {
            "turn.completed" => {
                let u = &v["usage"];
                let t = Turn {
                    turn: turns.len() as u64 + 1,
                    input_tokens: counter(u, "input_tokens", n)?,
                    cached_input_tokens: counter(u, "cached_input_tokens", n)?,
                    output_tokens: counter(u, "output_tokens", n)?,
                    reasoning_output_tokens: counter(u, "reasoning_output_tokens", n)?,
                };
                if let (Some(c), Some(i)) = (t.cached_input_tokens, t.input_tokens) {
                    if c > i {
                        return Err(EvalError::new(
                            "invalid_usage",
                            format!("line {n}: cached_input_tokens {c} exceeds input_tokens {i}"),
                        ));
                    }
                }
                turns.push(t);
            }
            "turn.failed" | "error" => {
                return Err(EvalError::new(
                    "agent_failed",
                    format!("codex reported a failure on line {n}: {}", v),
                ))
            }
            "item.completed" => {
                let item = &v["item"];
                match item["type"].as_str().unwrap_or("") {
                    "command_execution" => {
                        tool_calls += 1;
                        let c = item["command"].as_str().unwrap_or("").to_owned();
                        commands.push(CommandRecord {
                            classification: contract::classify(&c),
                            command: c,
                        });
                    }
                    "mcp_tool_call" | "web_search" | "file_change" => tool_calls += 1,
                    "agent_message" => final_text = item["text"].as_str().map(str::to_owned),
                    _ => {}
                }
            }
            _ => {}
        }
    }
    if turns.is_empty() {
        return Err(EvalError::new(
            "invalid_event_stream",
            "the stream has no turn.completed event",
        ));
    }
    let mut limitations = vec![
        "Codex's hidden context, provider requests, cache behaviour and billing are not observed"
            .to_owned(),
    ];
    let answer = match final_text.as_deref().map(super::answer_from_text) {
        Some(Some(a)) => Some(a),
        Some(None) => {
            limitations.push("the final agent message is not a JSON object".into());
            None
        }
        None => {
            limitations.push("the stream has no agent message".into());
            None
        }
    };
    Ok(Observation {
        schema_version: contract::OBSERVATION_SCHEMA.into(),
        attempt_id: req.attempt_id.clone(),
        runner: RunnerInfo {
            adapter: "codex-cli".into(),
            adapter_version: VERSION.into(),
            agent_version: None,
            model: String::new(),
            reasoning_effort: None,
            sandbox: "read-only".into(),
        },
        usage: super::usage_from_turns(&turns)?,
        turns,
        tool_calls: Metric::observed(tool_calls),
        commands,
        duration_ms: Metric::missing("set by the caller"),
        answer,
        limitations,
    })
}
