//! Full-process measurement of one `repocue` invocation (the cue cost Q): wall time from
//! spawn to exit with stdout drained, stdout bytes and digest, `ceil(bytes/4)` tokens, and the
//! Git processes it started, counted from a Git Trace2 event file.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::contract::Metric;
use crate::error::{EvalError, Result};
use crate::util;

/// One measured `repocue` invocation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CueMeasurement {
    /// Arguments after the executable (the `--repository`/`--cache-dir` pair included).
    pub argv: Vec<String>,
    /// `sha256:` of the executable that ran.
    pub executable_sha256: String,
    /// Spawn instant (RFC 3339 UTC).
    pub started_at: String,
    /// Exit instant, stdout drained (RFC 3339 UTC).
    pub finished_at: String,
    /// Wall time in microseconds (observed).
    pub wall_us: Metric,
    /// Exit code; `null` when killed by a signal.
    pub exit_status: Option<i32>,
    /// Stdout bytes: exactly what the agent receives.
    pub stdout_bytes: u64,
    /// `ceil(stdout_bytes/4)` (estimated; a diagnostic, never added to agent tokens).
    pub estimated_tokens: u64,
    /// `sha256:` of stdout.
    pub stdout_sha256: String,
    /// Top-level Git processes the invocation started, from Trace2 `start` events.
    pub git_processes: Metric,
    /// `sha256:` of the retained Trace2 event file, when there is one.
    pub trace_sha256: Option<String>,
}

/// Runs `exe args…` with `GIT_TRACE2_EVENT` pointing at `trace_path`, writes its stdout to
/// `stdout_path` and returns the measurement. A non-zero exit is an error.
pub fn measure(
    exe: &Path,
    args: &[String],
    cwd: &Path,
    stdout_path: &Path,
    trace_path: &Path,
    trace2: bool,
) -> Result<CueMeasurement> {
    let executable_sha256 = util::file_digest(exe)?;
    if trace2 {
        util::write_new(trace_path, b"")?;
    }
    let mut cmd = Command::new(exe);
    cmd.args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env_remove("GIT_TRACE2_PARENT_SID")
        .env_remove("GIT_TRACE2")
        .env_remove("GIT_TRACE2_PERF");
    if trace2 {
        cmd.env("GIT_TRACE2_EVENT", trace_path);
    } else {
        cmd.env_remove("GIT_TRACE2_EVENT");
    }
    let started_at = util::now();
    let clock = Instant::now();
    let mut child = util::spawn(&mut cmd).map_err(|e| {
        EvalError::new("cue_failed", format!("cannot start {}: {e}", exe.display()))
    })?;
    let mut stdout = Vec::new();
    let mut stderr = Vec::new();
    let mut err_pipe = child.stderr.take().expect("piped stderr");
    let err_thread = std::thread::spawn(move || {
        let _ = err_pipe.read_to_end(&mut stderr);
        stderr
    });
    child
        .stdout
        .take()
        .expect("piped stdout")
        .read_to_end(&mut stdout)
        .map_err(|e| EvalError::new("cue_failed", format!("reading cue stdout: {e}")))?;
    let status = child
        .wait()
        .map_err(|e| EvalError::new("cue_failed", format!("waiting for the cue: {e}")))?;
    let wall_us = clock.elapsed().as_micros() as u64;
    let finished_at = util::now();
    let stderr = err_thread.join().unwrap_or_default();
    if !status.success() {
        return Err(EvalError::new(
            "cue_failed",
            format!(
                "`{} {}` exited with {status}: {}",
                exe.display(),
                args.join(" "),
                String::from_utf8_lossy(&stderr).trim()
            ),
        ));
    }
    util::write_new(stdout_path, &stdout)?;
    let (git_processes, trace_sha256) = if trace2 {
        let bytes = std::fs::read(trace_path).map_err(|e| EvalError::io(trace_path, e))?;
        (
            Metric::observed(count_top_level_starts(&bytes)),
            Some(util::digest(&bytes)),
        )
    } else {
        (
            Metric::missing("this Git has no Trace2 event target (Git < 2.22)"),
            None,
        )
    };
    Ok(CueMeasurement {
        argv: args.to_vec(),
        executable_sha256,
        started_at,
        finished_at,
        wall_us: Metric::observed(wall_us),
        exit_status: status.code(),
        stdout_bytes: stdout.len() as u64,
        estimated_tokens: util::estimated_tokens(stdout.len() as u64),
        stdout_sha256: util::digest(&stdout),
        git_processes,
        trace_sha256,
    })
}

/// Counts Trace2 `start` events of top-level Git sessions: a nested Git (started by Git)
/// carries its parent's session id before a `/`, so only ids without one are counted.
pub fn count_top_level_starts(trace: &[u8]) -> u64 {
    trace
        .split(|&b| b == b'\n')
        .filter_map(|line| serde_json::from_slice::<serde_json::Value>(line).ok())
        .filter(|v| v["event"] == "start")
        .filter(|v| v["sid"].as_str().is_some_and(|s| !s.contains('/')))
        .count() as u64
}

/// Tells whether the installed Git writes Trace2 event files (Git 2.22 and later).
pub fn git_has_trace2(version: &str) -> bool {
    let nums: Vec<u64> = version
        .split_whitespace()
        .nth(2)
        .unwrap_or("")
        .split('.')
        .take(2)
        .filter_map(|p| p.parse().ok())
        .collect();
    matches!(nums.as_slice(), [major, minor] if (*major, *minor) >= (2, 22))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_only_top_level_sessions() {
        let trace = br#"{"event":"version","sid":"a"}
{"event":"start","sid":"20261130T000000.000000Z-H1-P1","argv":["git","status"]}
{"event":"start","sid":"20261130T000000.000000Z-H1-P1/20261130T000000.000001Z-H1-P2","argv":["git","gc"]}
{"event":"exit","sid":"20261130T000000.000000Z-H1-P1"}
{"event":"start","sid":"20261130T000000.000002Z-H1-P3","argv":["git","ls-files"]}
not json
"#;
        assert_eq!(count_top_level_starts(trace), 2);
        assert_eq!(count_top_level_starts(b""), 0);
    }

    #[test]
    fn trace2_needs_git_2_22() {
        assert!(git_has_trace2("git version 2.43.0"));
        assert!(git_has_trace2("git version 3.0.1"));
        assert!(!git_has_trace2("git version 2.21.4"));
        assert!(!git_has_trace2("garbage"));
    }

    #[test]
    fn measures_a_real_git_invocation() {
        let tmp = tempfile::tempdir().unwrap();
        let git = which_git();
        let m = measure(
            &git,
            &["version".into()],
            tmp.path(),
            &tmp.path().join("out"),
            &tmp.path().join("trace"),
            true,
        )
        .unwrap();
        assert_eq!(m.git_processes.value, Some(1));
        assert_eq!(
            m.stdout_bytes,
            std::fs::read(tmp.path().join("out")).unwrap().len() as u64
        );
        assert_eq!(m.estimated_tokens, m.stdout_bytes.div_ceil(4));
    }

    fn which_git() -> std::path::PathBuf {
        std::env::var_os("PATH")
            .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
            .unwrap_or_default()
            .into_iter()
            .map(|d| d.join("git"))
            .find(|p| p.is_file())
            .expect("git on PATH")
    }
}
