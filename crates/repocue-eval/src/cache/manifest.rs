//! The inputs and the frozen manifest of a prepared `evaluate-cache` directory, shared by
//! `prepare`, `run` and `summary`.

use std::path::Path;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::profile::{Profile, ProfileTable, Ttl};
use crate::error::{EvalError, Result};
use crate::experiment::{Binary, ExperimentRepository, FileRef};
use crate::facts::Fingerprint;
use crate::measure::CueMeasurement;
use crate::taskbench::Expectation;

/// Version of the benchmark file.
pub const BENCHMARK_SCHEMA: &str = "repocue/cache-benchmark-1";
/// Version of the manifest.
pub const MANIFEST_SCHEMA: &str = "repocue/cache-eval-1";

/// The prompt-cache benchmark.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CacheBenchmark {
    /// [`BENCHMARK_SCHEMA`].
    pub schema_version: String,
    /// Stable id of the benchmark.
    pub task_id: String,
    /// A model of the profile table.
    pub model: String,
    /// Lifetime of the cache breakpoint on cache steps.
    pub ttl: Ttl,
    /// `max_tokens` of every request (the output bound).
    pub max_output_tokens: u64,
    /// `discovery` or `explanation`.
    pub task_kind: repocue::api::task::TaskKind,
    /// Tracked `repocue/task-context-1` declaration.
    pub declaration: String,
    /// Targets of the task cue.
    pub targets: Vec<String>,
    /// Budget of the task cue.
    pub max_tokens: u64,
    /// Estimated-token bound of each whole request body (`ceil(bytes/4)`).
    pub max_request_tokens: u64,
    /// The steps, in the order they must run.
    pub steps: Vec<StepSpec>,
}

/// One step as declared.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StepSpec {
    /// `^[a-z0-9][a-z0-9-]*$`, unique.
    pub name: String,
    /// `baseline` (no breakpoint) or `cache`.
    pub arm: CacheArm,
    /// The question of this step (after the cached prefix).
    pub task_text: String,
}

/// Whether a step carries a cache breakpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CacheArm {
    /// The same bytes without `cache_control`.
    Baseline,
    /// `cache_control` with the frozen TTL after the cue block.
    Cache,
}

/// The frozen manifest of a prepared directory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CacheEval {
    /// [`MANIFEST_SCHEMA`].
    pub schema_version: String,
    /// `cache-eval-<16 hex>`.
    pub eval_id: String,
    /// Preparation time.
    pub created_at: String,
    /// The repository.
    pub repository: ExperimentRepository,
    /// Content fingerprint at preparation; every step's preflight must see the same.
    pub fingerprint: Fingerprint,
    /// `benchmark.json`.
    pub benchmark: FileRef,
    /// `profiles.json`: the whole table the profile was chosen from.
    pub profiles: FileRef,
    /// The chosen profile, as frozen.
    pub profile: Profile,
    /// Lifetime of the cache steps' breakpoint.
    pub ttl: Ttl,
    /// `discovery` or `explanation`.
    pub task_kind: repocue::api::task::TaskKind,
    /// `cue.json`: the task cue as the CLI printed it.
    pub cue: FileRef,
    /// The measured task-cue invocation.
    pub cue_measurement: CueMeasurement,
    /// The measured `init` of the private cache (preparation overhead).
    pub preparation: CueMeasurement,
    /// The `repocue` executable.
    pub cue_binary: Binary,
    /// Required items and sources, derived by the selector.
    pub expectation: Expectation,
    /// `answer.schema.json` (`repocue/task-answer-1`).
    pub answer_schema: FileRef,
    /// The cached block: bytes, digest, estimate.
    pub cached_block: Block,
    /// The steps with their frozen request bytes.
    pub steps: Vec<Step>,
    /// What the provider will not do for these bytes, as far as the profile says.
    pub warnings: Vec<String>,
}

/// A block of text by size and digest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Block {
    /// Bytes.
    pub bytes: u64,
    /// `ceil(bytes/4)`.
    pub estimated_tokens: u64,
    /// `sha256:`.
    pub sha256: String,
}

/// A frozen step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// Name.
    pub name: String,
    /// Arm.
    pub arm: CacheArm,
    /// `requests/<name>.json`: the exact body.
    pub request: FileRef,
    /// Digest of the model, API version, output bound and system prefix.
    pub reusable_identity: String,
    /// `ceil(bytes/4)` of the body.
    pub estimated_tokens: u64,
}

fn invalid(message: String) -> EvalError {
    EvalError::new("invalid_benchmark", message)
}

/// Reads, strictly parses and checks a benchmark against the profile table. Fails before
/// anything is created.
pub fn load_benchmark(bytes: &[u8], table: &ProfileTable) -> Result<(CacheBenchmark, Profile)> {
    let b: CacheBenchmark =
        crate::strict::parse(bytes, "cache benchmark").map_err(|e| invalid(e.message))?;
    if b.schema_version != BENCHMARK_SCHEMA {
        return Err(invalid(format!("schema_version {:?}", b.schema_version)));
    }
    let p = table.find(&b.model).cloned().ok_or_else(|| {
        invalid(format!(
            "model {:?} has no profile; supported: {}",
            b.model,
            table.models()
        ))
    })?;
    if !p.ttls.contains(&b.ttl) {
        return Err(invalid(format!(
            "{} does not accept ttl {}",
            p.model,
            b.ttl.as_str()
        )));
    }
    if b.max_output_tokens == 0 || b.max_output_tokens > p.max_output_tokens {
        return Err(invalid(format!(
            "max_output_tokens must be 1..={} for {}",
            p.max_output_tokens, p.model
        )));
    }
    if b.task_kind == repocue::api::task::TaskKind::Verification {
        return Err(invalid(
            "verification tasks need command execution; use discovery or explanation".into(),
        ));
    }
    if b.steps.is_empty() || b.targets.is_empty() || b.declaration.is_empty() {
        return Err(invalid(
            "steps, targets and declaration must not be empty".into(),
        ));
    }
    for (i, s) in b.steps.iter().enumerate() {
        let ok = s
            .name
            .bytes()
            .enumerate()
            .all(|(j, c)| c.is_ascii_lowercase() || c.is_ascii_digit() || (j > 0 && c == b'-'));
        if s.name.is_empty() || !ok || b.steps[..i].iter().any(|o| o.name == s.name) {
            return Err(invalid(format!(
                "steps[{i}].name {:?} is invalid or repeated",
                s.name
            )));
        }
        if s.task_text.trim().is_empty() {
            return Err(invalid(format!("steps[{i}].task_text is empty")));
        }
    }
    Ok((b, p))
}

/// Loads a prepared directory's manifest strictly.
pub fn load(dir: &Path) -> Result<CacheEval> {
    let p = dir.join("cache-eval.json");
    let bytes = std::fs::read(&p).map_err(|e| {
        EvalError::new(
            "not_a_cache_eval",
            format!(
                "{}: {e}; pass a directory printed by `evaluate-cache prepare`",
                p.display()
            ),
        )
    })?;
    let m: CacheEval = crate::strict::parse(&bytes, "cache-eval.json")?;
    if m.schema_version != MANIFEST_SCHEMA {
        return Err(EvalError::new(
            "invalid_evidence",
            format!(
                "cache-eval.json: unknown schema_version {:?}",
                m.schema_version
            ),
        ));
    }
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_examples_parse() {
        let docs = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs");
        let table = ProfileTable::parse(
            super::super::profile::DEFAULT_PROFILES.as_bytes(),
            "shipped",
            i64::MAX,
        )
        .unwrap();
        let bytes = std::fs::read(docs.join("cache-benchmark.example.json")).unwrap();
        let (b, p) = load_benchmark(&bytes, &table).unwrap();
        assert_eq!(
            (b.steps.len(), p.model.as_str()),
            (4, "claude-sonnet-4-5-20250929")
        );
        crate::taskbench::Benchmark::load(&docs.join("task-benchmark.example.json")).unwrap();
        let bad = String::from_utf8(bytes)
            .unwrap()
            .replace("claude-sonnet-4-5-20250929", "claude-x");
        let e = load_benchmark(bad.as_bytes(), &table).unwrap_err();
        assert!(e.message.contains("supported: claude-haiku"), "{e}");
    }
}
