//! Runners: executables that implement the runner contract. Each reads the request file named
//! by `REPOCUE_RUNNER_REQUEST`, runs one agent session (or, for the synthetic runner, none),
//! and prints one observation on stdout.
//!
//! The Codex and Claude Code adapters start a real agent CLI only when the operator passes
//! them to `repocue experiment run --runner`; no command or test ever does so on its own.

pub mod claude;
pub mod codex;
pub mod synthetic;

#[cfg(test)]
mod tests;

use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use crate::contract::{self, Observation, RunnerRequest};
use crate::error::{EvalError, Result};

/// Reads and checks the request named by `REPOCUE_RUNNER_REQUEST`.
pub fn load_request() -> Result<RunnerRequest> {
    let path = std::env::var_os(contract::REQUEST_ENV).ok_or_else(|| {
        EvalError::new(
            "invalid_request",
            format!(
                "{} is not set; runners are started by `repocue experiment run`",
                contract::REQUEST_ENV
            ),
        )
    })?;
    let path = PathBuf::from(path);
    let bytes = std::fs::read(&path).map_err(|e| EvalError::io(&path, e))?;
    let req: RunnerRequest = crate::strict::parse(&bytes, "runner request")?;
    if req.schema_version != contract::REQUEST_SCHEMA {
        return Err(EvalError::new(
            "invalid_request",
            format!(
                "request schema_version {:?}; this runner implements {}",
                req.schema_version,
                contract::REQUEST_SCHEMA
            ),
        ));
    }
    if !req.repository.read_only {
        return Err(EvalError::new(
            "invalid_request",
            "the request does not demand a read-only run; refusing",
        ));
    }
    if ![contract::ANSWER_SCHEMA, contract::TASK_ANSWER_SCHEMA]
        .contains(&req.answer_schema_version.as_str())
    {
        return Err(EvalError::new(
            "invalid_request",
            format!("unsupported answer schema {:?}", req.answer_schema_version),
        ));
    }
    Ok(req)
}

/// Runs a runner body: prints the observation on stdout (exit 0) or one JSON error line on
/// stderr (exit 1).
pub fn main_with(body: fn(&RunnerRequest) -> Result<Observation>) -> ExitCode {
    let result = load_request().and_then(|r| body(&r));
    match result {
        Ok(o) => {
            let mut out = std::io::stdout().lock();
            let _ = out.write_all(&crate::util::pretty(&o));
            ExitCode::SUCCESS
        }
        Err(e) => {
            let line = serde_json::json!({"error": {"code": e.code, "message": e.message}});
            eprintln!("{line}");
            ExitCode::from(1)
        }
    }
}

/// What an agent process produced.
pub struct AgentRun {
    /// Raw stdout.
    pub stdout: Vec<u8>,
    /// Raw stderr.
    pub stderr: Vec<u8>,
    /// Exit code; `None` when killed.
    pub code: Option<i32>,
    /// Wall time.
    pub wall_ms: u64,
}

/// Starts `exe args`, writes `stdin`, collects stdout and stderr, and kills the process at
/// `timeout`. Raw streams are also written to `artifacts/<stem>.stdout|.stderr`.
pub fn run_agent(
    exe: &Path,
    args: &[String],
    cwd: &Path,
    stdin: &str,
    timeout: Duration,
    artifacts: &Path,
    stem: &str,
) -> Result<AgentRun> {
    let clock = Instant::now();
    let mut child = crate::util::spawn(
        Command::new(exe)
            .args(args)
            .current_dir(cwd)
            .process_group(0)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped()),
    )
    .map_err(|e| {
        EvalError::new(
            "agent_failed",
            format!("cannot start {}: {e}", exe.display()),
        )
    })?;
    let mut input = child.stdin.take().expect("piped stdin");
    let prompt = stdin.to_owned();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(prompt.as_bytes());
    });
    let mut out_pipe = child.stdout.take().expect("piped stdout");
    let mut err_pipe = child.stderr.take().expect("piped stderr");
    let out_t = std::thread::spawn(move || {
        let mut v = vec![];
        let _ = out_pipe.read_to_end(&mut v);
        v
    });
    let err_t = std::thread::spawn(move || {
        let mut v = vec![];
        let _ = err_pipe.read_to_end(&mut v);
        v
    });
    let mut timed_out = false;
    let status = loop {
        if let Some(s) = child
            .try_wait()
            .map_err(|e| EvalError::new("agent_failed", e.to_string()))?
        {
            break s;
        }
        if clock.elapsed() >= timeout {
            timed_out = true;
            kill_group(&mut child);
            break child
                .wait()
                .map_err(|e| EvalError::new("agent_failed", e.to_string()))?;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let wall_ms = clock.elapsed().as_millis() as u64;
    let _ = writer.join();
    let stdout = out_t.join().unwrap_or_default();
    let stderr = err_t.join().unwrap_or_default();
    if artifacts.is_dir() {
        let _ = std::fs::write(artifacts.join(format!("{stem}.stdout")), &stdout);
        let _ = std::fs::write(artifacts.join(format!("{stem}.stderr")), &stderr);
    }
    if timed_out {
        return Err(EvalError::new(
            "agent_timeout",
            format!(
                "{} did not finish within {} s and was killed",
                exe.display(),
                timeout.as_secs()
            ),
        ));
    }
    Ok(AgentRun {
        stdout,
        stderr,
        code: status.code(),
        wall_ms,
    })
}

/// Kills a child started with `process_group(0)` together with everything it started (an
/// agent's shell commands would otherwise outlive it and hold its output pipes open).
pub fn kill_group(child: &mut std::process::Child) {
    let _ = Command::new("kill")
        .args(["-s", "KILL", "--", &format!("-{}", child.id())])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    let _ = child.kill();
}

/// Returns the first line of `exe --version`, when it prints one.
pub fn agent_version(exe: &Path) -> Option<String> {
    let out = Command::new(exe)
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.lines().next()?.trim();
    (out.status.success() && !line.is_empty()).then(|| line.to_owned())
}

/// Extracts the JSON answer from an agent's final text (bare, or in a Markdown code fence).
pub fn answer_from_text(text: &str) -> Option<serde_json::Value> {
    let t = text.trim();
    let t = t
        .strip_prefix("```json")
        .or_else(|| t.strip_prefix("```"))
        .and_then(|r| r.strip_suffix("```"))
        .map(str::trim)
        .unwrap_or(t);
    let v: serde_json::Value = serde_json::from_str(t).ok()?;
    v.is_object().then_some(v)
}

/// Reads a required environment variable.
pub fn required_env(name: &str) -> Result<String> {
    std::env::var(name)
        .ok()
        .filter(|v| !v.trim().is_empty())
        .ok_or_else(|| EvalError::new("invalid_request", format!("{name} must be set")))
}

/// Aggregates per-turn counters: known only when every turn reported it.
pub fn aggregate(
    turns: &[contract::Turn],
    get: fn(&contract::Turn) -> Option<u64>,
    name: &str,
) -> Result<contract::Metric> {
    let mut sum: u64 = 0;
    for t in turns {
        match get(t) {
            Some(v) => {
                sum = sum.checked_add(v).ok_or_else(|| {
                    EvalError::new("invalid_usage", format!("{name}: sum overflows"))
                })?
            }
            None => {
                return Ok(contract::Metric::missing(format!(
                    "turn {} did not report {name}",
                    t.turn
                )))
            }
        }
    }
    Ok(contract::Metric::observed(sum))
}

/// Builds the usage block from turns: each counter aggregated, total derived when input and
/// output are both known.
pub fn usage_from_turns(turns: &[contract::Turn]) -> Result<contract::Usage> {
    let input = aggregate(turns, |t| t.input_tokens, "input_tokens")?;
    let output = aggregate(turns, |t| t.output_tokens, "output_tokens")?;
    let total = match (input.value, output.value) {
        (Some(i), Some(o)) => contract::Metric::derived(
            i.checked_add(o)
                .ok_or_else(|| EvalError::new("invalid_usage", "total_tokens overflows"))?,
        ),
        _ => contract::Metric::missing("input or output tokens unknown"),
    };
    Ok(contract::Usage {
        cached_input_tokens: aggregate(turns, |t| t.cached_input_tokens, "cached_input_tokens")?,
        reasoning_output_tokens: aggregate(
            turns,
            |t| t.reasoning_output_tokens,
            "reasoning_output_tokens",
        )?,
        input_tokens: input,
        output_tokens: output,
        total_tokens: total,
    })
}
