//! `evaluate-cache`: whether putting the task cue in an explicitly cached prefix of Claude
//! Messages requests lowers the cost of a sequence of requests, without losing correctness.
//!
//! - `prepare` ([`prepare`]) freezes everything without a key or a network request: the
//!   benchmark, the profile table (data) and the chosen profile, the real task cue, and the
//!   exact request bytes of every step with their reusable identity;
//! - `run --step S` ([`run`]) sends exactly one step, once, only with explicit opt-in, over
//!   HTTPS, with the key read from `ANTHROPIC_API_KEY` after local preflight, and retains every
//!   outcome (HTTP errors, timeouts, malformed bodies, missing counters) as a record;
//! - `summary` ([`summary`]) recomputes usage, cost and quality from the retained bytes; it
//!   runs no process, opens no socket and writes nothing.
//!
//! Layout of a prepared directory:
//! ```text
//! <parent>/cache-eval-<id>/
//!   cache-eval.json            manifest (repocue/cache-eval-1)
//!   benchmark.json profiles.json cue.json answer.schema.json
//!   requests/<step>.json       the exact bytes each step sends
//!   cache/                     the private RepoCue cache the cue was read from
//!   journal/<step>.json        written before a step sends anything
//!   attempts/<step>/           record.json (repocue/cache-observation-1), response.body
//! ```

pub mod http;
pub mod profile;
pub mod request;
pub mod run;
pub mod summary;
pub mod usage;

use std::path::{Path, PathBuf};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::{EvalError, Result};
use crate::experiment::{Binary, ExperimentRepository, FileRef};
use crate::facts::{self, Fingerprint};
use crate::measure::{self, CueMeasurement};
use crate::taskbench::Expectation;
use crate::util;
use profile::{Profile, ProfileTable, Ttl};

pub use run::{run, RunOptions};
pub use summary::summary;

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

/// What `prepare` prints.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CachePrepareOutput {
    /// `repocue/cache-prepare-1`.
    pub schema_version: String,
    /// The prepared directory.
    pub directory: String,
    /// The manifest.
    pub manifest: CacheEval,
}

/// What `prepare` needs.
#[derive(Debug, Clone)]
pub struct CachePrepareOptions {
    /// Any directory inside the work tree.
    pub repository: PathBuf,
    /// Parent directory of the prepared directory (outside the repository).
    pub output_directory: PathBuf,
    /// The benchmark file.
    pub benchmark_file: PathBuf,
    /// A profile table file; the shipped table when `None`.
    pub profiles_file: Option<PathBuf>,
    /// The `repocue` executable.
    pub cue_binary: PathBuf,
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

/// Freezes a prepared directory: runs `init` on a private cache and the real task cue,
/// builds every step's exact request bytes, and publishes the directory with one rename. No
/// key is read and no request is sent.
pub fn prepare(opts: &CachePrepareOptions) -> Result<CachePrepareOutput> {
    let now = util::now_ms();
    let table_bytes = match &opts.profiles_file {
        Some(p) => std::fs::read(p)
            .map_err(|e| EvalError::arg(format!("--profiles {}: {e}", p.display())))?,
        None => profile::DEFAULT_PROFILES.as_bytes().to_vec(),
    };
    let table = ProfileTable::parse(&table_bytes, "profile table", now)?;
    let bench_bytes = std::fs::read(&opts.benchmark_file).map_err(|e| {
        EvalError::arg(format!(
            "--benchmark-file {}: {e}",
            opts.benchmark_file.display()
        ))
    })?;
    let (bench, profile) = load_benchmark(&bench_bytes, &table)?;
    let repo = facts::discover(&opts.repository)?;
    let parent = util::require_outside(
        &opts.output_directory,
        &repo.root,
        &repo.git_dir,
        "--output-directory",
    )?;
    let cue_binary = opts
        .cue_binary
        .canonicalize()
        .map_err(|e| EvalError::arg(format!("cue binary {}: {e}", opts.cue_binary.display())))?;
    std::fs::create_dir_all(&parent).map_err(|e| EvalError::io(&parent, e))?;
    let staging = parent.join(format!(
        ".repocue-cache-eval-{}.draft",
        util::unique_suffix()
    ));
    std::fs::create_dir(&staging).map_err(|e| EvalError::io(&staging, e))?;
    let inputs = Inputs {
        repo: &repo,
        bench: &bench,
        bench_bytes: &bench_bytes,
        profile,
        table_bytes: &table_bytes,
        cue_binary: &cue_binary,
    };
    let result = prepare_in(&inputs, &parent, &staging);
    if result.is_err() {
        let _ = std::fs::remove_dir_all(&staging);
    }
    result
}

struct Inputs<'a> {
    repo: &'a facts::Repository,
    bench: &'a CacheBenchmark,
    bench_bytes: &'a [u8],
    profile: Profile,
    table_bytes: &'a [u8],
    cue_binary: &'a Path,
}

fn prepare_in(i: &Inputs<'_>, parent: &Path, staging: &Path) -> Result<CachePrepareOutput> {
    let before = facts::capture_fingerprint(&i.repo.root)?;
    let root = i.repo.root.to_string_lossy().into_owned();
    let cache = staging.join("cache").to_string_lossy().into_owned();
    let place = ["--repository".to_owned(), root, "--cache-dir".into(), cache];
    let mut init = vec!["init".to_owned()];
    init.extend(place.iter().cloned());
    let no_trace = staging.join("trace");
    let preparation = measure::measure(
        i.cue_binary,
        &init,
        &i.repo.root,
        &staging.join("init.stdout"),
        &no_trace,
        false,
    )?;
    let task = crate::taskbench::Benchmark {
        schema_version: crate::taskbench::BENCHMARK_SCHEMA.into(),
        task_id: i.bench.task_id.clone(),
        task_kind: i.bench.task_kind,
        prompt: String::new(),
        declaration: i.bench.declaration.clone(),
        targets: i.bench.targets.clone(),
        max_tokens: i.bench.max_tokens,
    };
    let mut argv = task.task_argv();
    argv.extend(place);
    let cue_measurement = measure::measure(
        i.cue_binary,
        &argv,
        &i.repo.root,
        &staging.join("cue.json"),
        &no_trace,
        false,
    )
    .map_err(|e| {
        EvalError::new(
            "cue_failed",
            format!("the task cue does not run: {}", e.message),
        )
    })?;
    let after = facts::capture_fingerprint(&i.repo.root)?;
    if before.value != after.value || !after.complete {
        return Err(EvalError::new(
            "repository_changed",
            "the repository changed (or could not be read whole) during preparation; prepare again",
        ));
    }
    let cue = std::fs::read(staging.join("cue.json")).map_err(|e| EvalError::io(staging, e))?;
    let expectation = crate::taskbench::expectation(&cue)?;
    let (stable, volatile) = request::split_cue(&cue)?;
    let steps = write_requests(i, staging, &stable, &volatile)?;
    let manifest = freeze(
        i,
        staging,
        after,
        preparation,
        cue_measurement,
        expectation,
        &stable,
        steps,
    )?;
    let dir = parent.join(&manifest.eval_id);
    if dir.exists() {
        return Err(EvalError::new(
            "already_exists",
            format!("{} already exists", dir.display()),
        ));
    }
    std::fs::rename(staging, &dir).map_err(|e| EvalError::io(&dir, e))?;
    Ok(CachePrepareOutput {
        schema_version: "repocue/cache-prepare-1".into(),
        directory: dir.to_string_lossy().into_owned(),
        manifest,
    })
}

/// Writes `requests/<step>.json` for every step and checks each against the request bound.
fn write_requests(
    i: &Inputs<'_>,
    staging: &Path,
    stable: &str,
    volatile: &str,
) -> Result<Vec<Step>> {
    let dir = staging.join("requests");
    std::fs::create_dir(&dir).map_err(|e| EvalError::io(&dir, e))?;
    let mut steps = vec![];
    for s in &i.bench.steps {
        let ttl = (s.arm == CacheArm::Cache).then_some(i.bench.ttl);
        let body = request::body(
            &i.profile,
            i.bench.max_output_tokens,
            stable,
            ttl,
            &s.task_text,
            volatile,
        );
        let estimated = util::estimated_tokens(body.len() as u64);
        if estimated > i.bench.max_request_tokens {
            return Err(EvalError::new(
                "budget_too_small",
                format!(
                    "step {}: the request is ~{estimated} tokens, over max_request_tokens {}; nothing is ever cut to fit",
                    s.name, i.bench.max_request_tokens
                ),
            ));
        }
        let rel = format!("requests/{}.json", s.name);
        util::write_new(&staging.join(&rel), &body)?;
        steps.push(Step {
            name: s.name.clone(),
            arm: s.arm,
            request: crate::experiment::file_ref(staging, &rel)?,
            reusable_identity: request::reusable_identity(&i.profile.api_version, &body)?,
            estimated_tokens: estimated,
        });
    }
    Ok(steps)
}

#[allow(clippy::too_many_arguments)]
fn freeze(
    i: &Inputs<'_>,
    staging: &Path,
    fingerprint: Fingerprint,
    preparation: CueMeasurement,
    cue_measurement: CueMeasurement,
    expectation: Expectation,
    stable: &str,
    steps: Vec<Step>,
) -> Result<CacheEval> {
    util::write_new(&staging.join("benchmark.json"), i.bench_bytes)?;
    util::write_new(&staging.join("profiles.json"), i.table_bytes)?;
    let schema = serde_json::to_value(schemars::schema_for!(crate::contract::TaskAnswer))
        .expect("schema serializes");
    util::write_new(&staging.join("answer.schema.json"), &util::pretty(&schema))?;
    for d in ["journal", "attempts"] {
        std::fs::create_dir(staging.join(d)).map_err(|e| EvalError::io(staging, e))?;
    }
    let block = Block {
        bytes: stable.len() as u64,
        estimated_tokens: util::estimated_tokens(stable.len() as u64),
        sha256: util::digest(stable.as_bytes()),
    };
    let mut warnings = vec![];
    if block.estimated_tokens < i.profile.min_cacheable_tokens {
        warnings.push(format!(
            "the cached block is ~{} tokens; {} caches prefixes of at least {} tokens, so cache steps will likely write and read nothing",
            block.estimated_tokens, i.profile.model, i.profile.min_cacheable_tokens
        ));
    }
    let git = facts::capture_facts(&i.repo.root)?;
    let repo_id = repocue::repo_id(&i.repo.root);
    let created_at = util::now();
    let seed = format!(
        "{repo_id}\0{}\0{created_at}\0{}",
        fingerprint.value,
        util::unique_suffix()
    );
    let m = CacheEval {
        schema_version: MANIFEST_SCHEMA.into(),
        eval_id: format!("cache-eval-{}", &util::hex_sha256(seed.as_bytes())[..16]),
        created_at,
        repository: ExperimentRepository {
            id: repo_id,
            name: i
                .repo
                .root
                .file_name()
                .map_or_else(|| "repository".into(), |n| n.to_string_lossy().into_owned()),
            root: i.repo.root.to_string_lossy().into_owned(),
            branch: git.branch,
            head: git.head,
        },
        fingerprint,
        benchmark: crate::experiment::file_ref(staging, "benchmark.json")?,
        profiles: crate::experiment::file_ref(staging, "profiles.json")?,
        profile: i.profile.clone(),
        ttl: i.bench.ttl,
        task_kind: i.bench.task_kind,
        cue: crate::experiment::file_ref(staging, "cue.json")?,
        cue_measurement,
        preparation,
        cue_binary: Binary {
            path: i.cue_binary.to_string_lossy().into_owned(),
            sha256: util::file_digest(i.cue_binary)?,
            version: String::new(),
        },
        expectation,
        answer_schema: crate::experiment::file_ref(staging, "answer.schema.json")?,
        cached_block: block,
        steps,
        warnings,
    };
    util::write_new(&staging.join("cache-eval.json"), &util::pretty(&m))?;
    Ok(m)
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
