//! The Claude Code adapter: one `claude -p --output-format stream-json` session per attempt
//! in plan (read-only) permission mode, its event stream turned into an observation.
//!
//! Settings (environment): `REPOCUE_CLAUDE_BIN` (default `claude`), `REPOCUE_CLAUDE_MODEL`
//! (required). Claude Code reports usage once per session in its `result` event, so the
//! observation has one turn; input = uncached input + cache writes + cache reads, cached
//! input = cache reads, and reasoning tokens are not reported separately.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::contract::{self, CommandRecord, Metric, Observation, RunnerInfo, RunnerRequest, Turn};
use crate::error::{EvalError, Result};

/// Adapter version.
pub const VERSION: &str = "1";

/// Adapter settings.
#[derive(Debug, Clone)]
pub struct Config {
    /// The `claude` executable.
    pub bin: PathBuf,
    /// Model.
    pub model: String,
}

impl Config {
    /// Reads the settings from the environment.
    pub fn from_env() -> Result<Config> {
        Ok(Config {
            bin: PathBuf::from(
                std::env::var("REPOCUE_CLAUDE_BIN").unwrap_or_else(|_| "claude".into()),
            ),
            model: super::required_env("REPOCUE_CLAUDE_MODEL")?,
        })
    }
}

/// Runs Claude Code for the request named by the environment.
pub fn observe(req: &RunnerRequest) -> Result<Observation> {
    observe_with(req, &Config::from_env()?)
}

/// Returns the arguments given to `claude` (the prompt goes to stdin).
pub fn argv(cfg: &Config) -> Vec<String> {
    [
        "-p",
        "--output-format",
        "stream-json",
        "--verbose",
        "--permission-mode",
        "plan",
        "--model",
        &cfg.model,
    ]
    .map(String::from)
    .to_vec()
}

/// Runs Claude Code with explicit settings.
pub fn observe_with(req: &RunnerRequest, cfg: &Config) -> Result<Observation> {
    let version = super::agent_version(&cfg.bin);
    let run = super::run_agent(
        &cfg.bin,
        &argv(cfg),
        Path::new(&req.repository.root),
        &req.prompt,
        Duration::from_secs(req.limits.timeout_seconds),
        Path::new(&req.artifacts_dir),
        "claude",
    )?;
    if run.code != Some(0) {
        return Err(EvalError::new(
            "agent_failed",
            format!(
                "claude exited with {:?}: {}",
                run.code,
                String::from_utf8_lossy(&run.stderr).trim()
            ),
        ));
    }
    let mut o = parse_events(&run.stdout, req)?;
    if o.duration_ms.value.is_none() {
        o.duration_ms = Metric::observed(run.wall_ms);
    }
    o.runner = RunnerInfo {
        adapter: "claude-code".into(),
        adapter_version: VERSION.into(),
        agent_version: version,
        model: cfg.model.clone(),
        reasoning_effort: None,
        sandbox: "plan".into(),
    };
    Ok(o)
}

fn counter(usage: &serde_json::Value, key: &str) -> Result<Option<u64>> {
    match usage.get(key) {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(v) => v.as_u64().map(Some).ok_or_else(|| {
            EvalError::new(
                "invalid_usage",
                format!("result usage.{key} is not a non-negative integer: {v}"),
            )
        }),
    }
}

/// Parses a `claude -p --output-format stream-json` stream: `tool_use` blocks of assistant
/// messages are tool calls (`Bash` ones also commands); the `result` event carries the
/// session usage, duration and final text.
pub fn parse_events(stdout: &[u8], req: &RunnerRequest) -> Result<Observation> {
    let mut commands = vec![];
    let mut tool_calls: u64 = 0;
    let mut result: Option<serde_json::Value> = None;
    for (i, line) in stdout.split(|&b| b == b'\n').enumerate() {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let v: serde_json::Value = serde_json::from_slice(line).map_err(|e| {
            EvalError::new(
                "invalid_event_stream",
                format!("line {} is not JSON: {e}", i + 1),
            )
        })?;
        match v["type"].as_str().unwrap_or("") {
            "assistant" => {
                for block in v["message"]["content"].as_array().into_iter().flatten() {
                    if block["type"] == "tool_use" {
                        tool_calls += 1;
                        if block["name"] == "Bash" {
                            let c = block["input"]["command"].as_str().unwrap_or("").to_owned();
                            commands.push(CommandRecord {
                                classification: contract::classify(&c),
                                command: c,
                            });
                        }
                    }
                }
            }
            "result" => result = Some(v),
            _ => {}
        }
    }
    let result = result
        .ok_or_else(|| EvalError::new("invalid_event_stream", "the stream has no result event"))?;
    if result["is_error"] == true || result["subtype"].as_str().is_some_and(|s| s != "success") {
        return Err(EvalError::new(
            "agent_failed",
            format!("claude reported {}", result["subtype"]),
        ));
    }
    let u = &result["usage"];
    let uncached = counter(u, "input_tokens")?;
    let writes = counter(u, "cache_creation_input_tokens")?;
    let reads = counter(u, "cache_read_input_tokens")?;
    let input = match (uncached, writes, reads) {
        (Some(a), Some(b), Some(c)) => a.checked_add(b).and_then(|s| s.checked_add(c)),
        _ => None,
    };
    let turns = vec![Turn {
        turn: 1,
        input_tokens: input,
        cached_input_tokens: reads,
        output_tokens: counter(u, "output_tokens")?,
        reasoning_output_tokens: None,
    }];
    let mut usage = super::usage_from_turns(&turns)?;
    usage.reasoning_output_tokens =
        Metric::missing("Claude Code does not report thinking tokens separately");
    if input.is_none() {
        usage.input_tokens = Metric::missing(
            "input needs input_tokens, cache_creation_input_tokens and cache_read_input_tokens",
        );
    }
    let mut limitations = vec![
        "Claude Code reports usage per session, so the observation has one turn; thinking tokens are inside output".to_owned(),
    ];
    let answer = match result["result"].as_str().map(super::answer_from_text) {
        Some(Some(a)) => Some(a),
        _ => {
            limitations.push("the final result text is not a JSON object".into());
            None
        }
    };
    Ok(Observation {
        schema_version: contract::OBSERVATION_SCHEMA.into(),
        attempt_id: req.attempt_id.clone(),
        runner: RunnerInfo {
            adapter: "claude-code".into(),
            adapter_version: VERSION.into(),
            agent_version: None,
            model: String::new(),
            reasoning_effort: None,
            sandbox: "plan".into(),
        },
        usage,
        turns,
        tool_calls: Metric::observed(tool_calls),
        commands,
        duration_ms: result["duration_ms"].as_u64().map_or_else(
            || Metric::missing("no duration_ms in the result"),
            Metric::observed,
        ),
        answer,
        limitations,
    })
}
