//! `evaluate-cache prepare`: freezes everything a step will send, without a key or a
//! network request.

use std::path::{Path, PathBuf};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::manifest::{
    load_benchmark, Block, CacheArm, CacheBenchmark, CacheEval, Step, MANIFEST_SCHEMA,
};
use super::profile::{self, Profile, ProfileTable};
use super::request;
use crate::error::{EvalError, Result};
use crate::experiment::{Binary, ExperimentRepository};
use crate::facts::{self, Fingerprint};
use crate::measure::{self, CueMeasurement};
use crate::taskbench::Expectation;
use crate::util;

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
    let cue_binary = crate::experiment::cue_binary(&opts.cue_binary)?;
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
    // Git's processes are counted as `experiment` counts them, by Trace2 where this Git has it
    // (they were recorded as unobserved "with a Git older than 2.22" on any Git).
    let git_version = String::from_utf8_lossy(&facts::git_output(&i.repo.root, &["version"])?)
        .trim()
        .to_owned();
    let trace2 = measure::git_has_trace2(&git_version);
    let preparation = measure::measure(
        i.cue_binary,
        &init,
        &i.repo.root,
        &staging.join("init.stdout"),
        &staging.join("init.trace2.json"),
        trace2,
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
        &staging.join("cue.trace2.json"),
        trace2,
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
            version: crate::experiment::version_of(i.cue_binary, "--version"),
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
