//! `evaluate-cache run --step S`: one explicit, paid request.
//!
//! Refusals come first and write nothing: no opt-in, a bad endpoint, an unknown step, an
//! earlier step not yet attempted, no API key in the environment, a step already attempted.
//! Then the step is reserved (its journal entry is created exclusively, so it can never run
//! twice), local preflight checks the repository and the frozen bytes, the key is read, one
//! POST is sent, and whatever happens is published as one record (a draft directory renamed
//! into place): there is never a half-written attempt.

use std::path::{Path, PathBuf};
use std::time::Duration;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::http::{self, Endpoint};
use super::manifest::{self, CacheArm, CacheEval, Step};
use super::usage::{self, CacheUsage};
use crate::error::{EvalError, Result};
use crate::experiment::{self, AttemptError, FileRef};
use crate::{facts, util};

/// Version of an attempt record.
pub const OBSERVATION_SCHEMA: &str = "repocue/cache-observation-1";
/// The environment variable holding the API key (read only after preflight, never written).
pub const API_KEY_ENV: &str = "ANTHROPIC_API_KEY";

/// What `run` needs.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// The prepared directory.
    pub directory: PathBuf,
    /// The step to send.
    pub step: String,
    /// The explicit opt-in: without it nothing is sent.
    pub send: bool,
    /// A loopback test endpoint instead of the provider.
    pub endpoint: Option<String>,
    /// Allow plain `http://` to a loopback endpoint (tests only).
    pub allow_insecure_loopback: bool,
    /// Wall-clock limit of the request.
    pub timeout_seconds: u64,
}

/// How an attempt ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CacheState {
    /// HTTP 200 with a JSON body and every usage counter, repository unchanged.
    Completed,
    /// Anything else; `error` says what. Never retried.
    Failed,
}

/// The record of one step (`attempts/<step>/record.json`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CacheObservation {
    /// [`OBSERVATION_SCHEMA`].
    pub schema_version: String,
    /// The prepared directory's id.
    pub eval_id: String,
    /// Step name.
    pub step: String,
    /// Its arm.
    pub arm: CacheArm,
    /// Outcome.
    pub state: CacheState,
    /// Why it failed.
    pub error: Option<AttemptError>,
    /// The journal entry written before anything else.
    pub journal: FileRef,
    /// Start of the whole attempt (preflight included).
    pub started_at: String,
    /// End of the whole attempt (postflight included).
    pub finished_at: String,
    /// The endpoint used.
    pub endpoint: String,
    /// The frozen request the step sends.
    pub request: FileRef,
    /// Bytes handed to the HTTP client; `null` when nothing was sent.
    pub request_bytes_sent: Option<u64>,
    /// Start of the HTTP exchange; `null` when none happened.
    pub http_started_at: Option<String>,
    /// End of the HTTP exchange.
    pub http_finished_at: Option<String>,
    /// Duration of the HTTP exchange in milliseconds.
    pub duration_ms: Option<u64>,
    /// HTTP status, when a response arrived.
    pub http_status: Option<u16>,
    /// The provider's `request-id` header.
    pub request_id: Option<String>,
    /// The raw response body (bounded), when retained.
    pub response: Option<FileRef>,
    /// The body echoed the credential and was not written.
    pub response_withheld: bool,
    /// The body exceeded the retention bound and was cut there.
    pub response_truncated: bool,
    /// The `model` the response names.
    pub response_model: Option<String>,
    /// Usage normalised at run time (the summary recomputes it from `response`).
    pub usage: Option<CacheUsage>,
    /// Whether the repository still had the prepared fingerprint after the request.
    pub repository_unchanged: Option<bool>,
}

/// Sends one step and returns its record (also for a failed request; refusals are errors).
pub fn run(opts: &RunOptions) -> Result<CacheObservation> {
    let dir = opts.directory.canonicalize().map_err(|e| {
        EvalError::arg(format!(
            "--input-directory {}: {e}",
            opts.directory.display()
        ))
    })?;
    let m = manifest::load(&dir)?;
    let idx = m
        .steps
        .iter()
        .position(|s| s.name == opts.step)
        .ok_or_else(|| {
            let names: Vec<&str> = m.steps.iter().map(|s| s.name.as_str()).collect();
            EvalError::arg(format!(
                "unknown step {:?}; steps: {}",
                opts.step,
                names.join(", ")
            ))
        })?;
    let step = &m.steps[idx];
    if !opts.send {
        return Err(EvalError::new(
            "opt_in_required",
            format!(
                "evaluate-cache run sends one paid request to {} for step {:?}; nothing was sent",
                opts.endpoint.as_deref().unwrap_or(http::DEFAULT_ENDPOINT),
                step.name
            ),
        )
        .hint("this costs money on your account: add --send to confirm"));
    }
    let ep = http::endpoint(
        opts.endpoint.as_deref().unwrap_or(http::DEFAULT_ENDPOINT),
        opts.allow_insecure_loopback,
    )?;
    let journal = |s: &Step| dir.join("journal").join(format!("{}.json", s.name));
    if let Some(e) = m.steps[..idx].iter().find(|s| !journal(s).exists()) {
        return Err(EvalError::new(
            "out_of_order",
            format!(
                "step {:?} runs after {:?}, which has not been attempted",
                step.name, e.name
            ),
        ));
    }
    if std::env::var_os(API_KEY_ENV).is_none_or(|v| v.is_empty()) {
        return Err(EvalError::new(
            "missing_api_key",
            format!("{API_KEY_ENV} is not set; nothing was sent or recorded"),
        ));
    }
    if journal(step).exists() {
        return Err(EvalError::new(
            "already_attempted",
            format!(
                "step {:?} was already attempted; a step is never retried",
                step.name
            ),
        )
        .hint("prepare a new directory to measure again"));
    }
    let entry = serde_json::json!({
        "schema_version": "repocue/cache-journal-1",
        "step": step.name,
        "started_at": util::now(),
        "endpoint": ep.url,
    });
    util::write_new(&journal(step), &util::pretty(&entry))?;
    let draft =
        dir.join("attempts")
            .join(format!(".{}.{}.draft", step.name, util::unique_suffix()));
    std::fs::create_dir(&draft).map_err(|e| EvalError::io(&draft, e))?;
    let journal_ref = experiment::file_ref(&dir, &format!("journal/{}.json", step.name))?;
    let mut obs = new_observation(&m, step, journal_ref, &ep);
    let ctx = Ctx {
        dir: &dir,
        m: &m,
        step,
        ep: &ep,
        draft: &draft,
        timeout: Duration::from_secs(opts.timeout_seconds),
    };
    match attempt(&ctx, &mut obs) {
        Ok(()) => obs.state = CacheState::Completed,
        Err(e) => {
            obs.error = Some(AttemptError {
                code: e.code.into(),
                message: e.message,
            })
        }
    }
    obs.finished_at = util::now();
    util::write_new(&draft.join("record.json"), &util::pretty(&obs))?;
    let done = dir.join("attempts").join(&step.name);
    std::fs::rename(&draft, &done).map_err(|e| EvalError::io(&done, e))?;
    Ok(obs)
}

/// Returns the record of a reserved step: failed until it completes.
fn new_observation(
    m: &CacheEval,
    step: &Step,
    journal: FileRef,
    ep: &Endpoint,
) -> CacheObservation {
    CacheObservation {
        schema_version: OBSERVATION_SCHEMA.into(),
        eval_id: m.eval_id.clone(),
        step: step.name.clone(),
        arm: step.arm,
        state: CacheState::Failed,
        error: None,
        journal,
        started_at: util::now(),
        finished_at: String::new(),
        endpoint: ep.url.clone(),
        request: step.request.clone(),
        request_bytes_sent: None,
        http_started_at: None,
        http_finished_at: None,
        duration_ms: None,
        http_status: None,
        request_id: None,
        response: None,
        response_withheld: false,
        response_truncated: false,
        response_model: None,
        usage: None,
        repository_unchanged: None,
    }
}

struct Ctx<'a> {
    dir: &'a Path,
    m: &'a CacheEval,
    step: &'a Step,
    ep: &'a Endpoint,
    draft: &'a Path,
    timeout: Duration,
}

/// Preflight, the one request, postflight; fills `obs` as it goes and returns the first
/// reason the attempt is not a usable observation.
fn attempt(c: &Ctx<'_>, obs: &mut CacheObservation) -> Result<()> {
    let body = experiment::read_ref(c.dir, &c.step.request, "request")?;
    let root = Path::new(&c.m.repository.root);
    let before = facts::capture_fingerprint(root)?;
    if before.value != c.m.fingerprint.value {
        return Err(EvalError::new(
            "repository_changed",
            "the repository differs from the prepared state; no request was sent",
        ));
    }
    // Read only now, after preflight; it is never written anywhere.
    let key = std::env::var(API_KEY_ENV).map_err(|_| {
        EvalError::new(
            "missing_api_key",
            format!("{API_KEY_ENV} is not readable as text"),
        )
    })?;
    let ex = http::post(c.ep, &key, &c.m.profile.api_version, &body, c.timeout);
    obs.request_bytes_sent = Some(ex.request_bytes);
    obs.http_started_at = Some(ex.started_at.clone());
    obs.http_finished_at = Some(ex.finished_at.clone());
    obs.duration_ms = Some(ex.duration_ms);
    obs.http_status = ex.status;
    obs.request_id = ex.request_id.clone();
    obs.response_truncated = ex.truncated;
    obs.response_withheld = ex
        .body
        .windows(key.len().max(1))
        .any(|w| w == key.as_bytes());
    if !ex.body.is_empty() && !obs.response_withheld {
        util::write_new(&c.draft.join("response.body"), &ex.body)?;
        // Named by its published path: the draft is renamed into place afterwards.
        obs.response = Some(FileRef {
            path: format!("attempts/{}/response.body", c.step.name),
            sha256: util::digest(&ex.body),
            bytes: ex.body.len() as u64,
        });
    }
    let after = facts::capture_fingerprint(root)?;
    obs.repository_unchanged = Some(after.value == c.m.fingerprint.value);
    classify(c, obs, &ex)
}

/// Decides whether the exchange is a usable observation.
fn classify(c: &Ctx<'_>, obs: &mut CacheObservation, ex: &http::Exchange) -> Result<()> {
    if let Some((kind, message)) = &ex.failure {
        let code = match kind {
            http::Failure::Timeout => "http_timeout",
            http::Failure::Transport => "http_transport",
        };
        return Err(EvalError::new(code, message.clone()));
    }
    if obs.response_withheld {
        return Err(EvalError::new(
            "response_withheld",
            "the response body echoed the API key; it was not written",
        ));
    }
    let parsed: std::result::Result<serde_json::Value, _> =
        crate::strict::parse(&ex.body, "response body");
    let status = ex.status.unwrap_or(0);
    if status != 200 {
        let detail = parsed
            .as_ref()
            .ok()
            .and_then(|v| {
                let e = &v["error"];
                Some(format!(
                    "{}: {}",
                    e["type"].as_str()?,
                    e["message"].as_str()?
                ))
            })
            .unwrap_or_else(|| "no provider error object".into());
        return Err(EvalError::new(
            "http_status",
            format!("the provider answered HTTP {status} ({detail}); the step is not retried"),
        ));
    }
    let v = parsed.map_err(|e| EvalError::new("invalid_response", e.message))?;
    if !v.is_object() {
        return Err(EvalError::new(
            "invalid_response",
            "the response body is not a JSON object",
        ));
    }
    obs.response_model = v["model"].as_str().map(str::to_owned);
    let ttl = (c.step.arm == CacheArm::Cache).then_some(c.m.ttl);
    let u = usage::normalize(&v, ttl).map_err(|e| EvalError::new("invalid_usage", e))?;
    let missing = u.missing.clone();
    obs.usage = Some(u);
    if !missing.is_empty() {
        return Err(EvalError::new(
            "incomplete_usage",
            format!(
                "the response does not report {}; its cost stays unknown",
                missing.join(", ")
            ),
        ));
    }
    if obs.repository_unchanged != Some(true) {
        return Err(EvalError::new(
            "repository_changed",
            "the repository changed while the request was in flight",
        ));
    }
    Ok(())
}
