//! The experiment engine: `prepare` freezes the inputs into a new set directory outside the
//! repository (published with one rename), `run` launches each scheduled attempt once
//! (journalled before launch, fingerprinted before and after, raw streams retained by
//! digest, never retried), and `summary` reads a set without running or writing anything.
//!
//! Set layout:
//! ```text
//! <parent>/<repo>_<experiment-id>/
//!   experiment.json        frozen manifest (repocue/experiment-1)
//!   task.txt               the task text
//!   answer.schema.json     JSON Schema of the answer
//!   cache/                 the prepared RepoCue cache the cue arms read
//!   journal/<attempt>.json written before an attempt launches anything
//!   attempts/<attempt>/    record.json (repocue/experiment-attempt-1), request.json,
//!                          cue.stdout, cue.trace2.json, context.txt, basis.json,
//!                          runner.stdout, runner.stderr, artifacts/
//!   benchmark.json         task sets only (`evaluate-task`): repocue/task-benchmark-1
//!   probes/<arm>.stdout    task sets only: both cues as measured at preparation
//! ```

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::contract::{
    self, ArmKind, Limits, Metric, Observation, RequestRepository, RequestText, RunnerInfo,
    RunnerRequest, Status, Usage,
};
use crate::error::{EvalError, Result};
use crate::facts::{self, Fingerprint, GitFacts, Score};
use crate::measure::{self, CueMeasurement};
use crate::stats::{self, Paired};
use crate::taskbench::{self, Benchmark};
use crate::util;

/// Version of the frozen manifest.
pub const EXPERIMENT_SCHEMA: &str = "repocue/experiment-1";
/// Version of an attempt record.
pub const ATTEMPT_SCHEMA: &str = "repocue/experiment-attempt-1";
/// Version of the summary.
pub const SUMMARY_SCHEMA: &str = "repocue/experiment-summary-1";
/// Id of the built-in task.
pub const DEFAULT_TASK_ID: &str = "repocue/repository-state-1";

/// One arm as the operator declares it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Arm {
    /// Name (`direct`, `basic`, `placebo`, …).
    pub name: String,
    /// What the agent receives.
    pub kind: ArmKind,
    /// For cue arms: the `repocue` arguments (`cue --view overview --max-tokens 500
    /// --no-refresh`); `--repository` and `--cache-dir` are appended at run time.
    pub argv: Vec<String>,
    /// For placebo arms: the cue arm whose token count the placebo text matches.
    pub matches: Option<String>,
    /// For cue arms: the budget given with `--max-tokens` (the cue default when absent).
    pub max_tokens: Option<u64>,
}

impl Arm {
    /// Parses `NAME=ARGS` (a cue invocation), `NAME=placebo:ARM`, or `direct`.
    pub fn parse(spec: &str) -> Result<Arm> {
        let (name, def) = spec.split_once('=').unwrap_or((spec, ""));
        let name = name.trim();
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
        {
            return Err(EvalError::arg(format!(
                "arm name {name:?}: use lowercase letters, digits and '-'"
            )));
        }
        if name == "direct" {
            if !def.trim().is_empty() {
                return Err(EvalError::arg("the direct arm takes no definition"));
            }
            return Ok(Arm {
                name: name.into(),
                kind: ArmKind::Direct,
                argv: vec![],
                matches: None,
                max_tokens: None,
            });
        }
        if let Some(target) = def.trim().strip_prefix("placebo:") {
            return Ok(Arm {
                name: name.into(),
                kind: ArmKind::Placebo,
                argv: vec![],
                matches: Some(target.trim().into()),
                max_tokens: None,
            });
        }
        let mut argv: Vec<String> = def.split_whitespace().map(str::to_owned).collect();
        if argv.first().map(String::as_str) != Some("cue") {
            return Err(EvalError::arg(format!(
                "arm {name:?}: define it as a repocue cue invocation, e.g. {name}=\"cue --view overview --max-tokens 500\""
            )));
        }
        if argv
            .iter()
            .any(|a| a.starts_with("--repository") || a.starts_with("--cache-dir"))
        {
            return Err(EvalError::arg(format!(
                "arm {name:?}: --repository and --cache-dir are set by the experiment"
            )));
        }
        // The measured run is a warm, read-only cue of the prepared snapshot: a refresh on
        // read would silently fold maintenance into Q.
        if !argv.iter().any(|a| a == "--no-refresh") {
            argv.push("--no-refresh".into());
        }
        let max_tokens = match argv.iter().position(|a| a == "--max-tokens") {
            Some(i) => Some(
                argv.get(i + 1)
                    .and_then(|v| v.parse().ok())
                    .ok_or_else(|| EvalError::arg(format!("arm {name:?}: bad --max-tokens")))?,
            ),
            None => Some(repocue::DEFAULT_MAX_TOKENS),
        };
        Ok(Arm {
            name: name.into(),
            kind: ArmKind::Cue,
            argv,
            matches: None,
            max_tokens,
        })
    }
}

/// Returns the arms of a preset: `calibration` (direct vs the 500-token overview) or
/// `compare` (the same plus a placebo of the overview's token count).
pub fn preset(name: &str) -> Result<Vec<Arm>> {
    let basic = "basic=cue --view overview --max-tokens 500";
    let specs: &[&str] = match name {
        "calibration" => &["direct", basic],
        "compare" => &["direct", basic, "placebo=placebo:basic"],
        other => {
            return Err(EvalError::arg(format!(
                "unknown preset {other:?}; use calibration or compare"
            )))
        }
    };
    specs.iter().map(|s| Arm::parse(s)).collect()
}

/// The frozen manifest of a set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Experiment {
    /// [`EXPERIMENT_SCHEMA`].
    pub schema_version: String,
    /// `exp-<16 hex>`.
    pub experiment_id: String,
    /// Preparation time.
    pub created_at: String,
    /// The evaluated repository.
    pub repository: ExperimentRepository,
    /// Content fingerprint at preparation; every attempt must see the same.
    pub fingerprint: Fingerprint,
    /// Arms, `direct` first.
    pub arms: Vec<Arm>,
    /// Number of pairs (each pair runs every arm once).
    pub pairs: u64,
    /// `alternate` or `seeded:<n>`.
    pub order: String,
    /// Every attempt in launch order.
    pub schedule: Vec<Scheduled>,
    /// The task.
    pub task: TaskRef,
    /// The answer schema given to agents.
    pub answer_schema: FileRef,
    /// The `repocue` executable the cue arms run.
    pub cue_binary: Binary,
    /// `git version` output.
    pub git_version: String,
    /// Whether Git writes Trace2 event files (Git processes of Q are observable).
    pub trace2: bool,
    /// Cost of preparing the experiment cache (experiment overhead, never part of H).
    pub preparation: CueMeasurement,
    /// Limits of every attempt.
    pub limits: Limits,
    /// For `evaluate-task` sets: the task-context benchmark and what preparation derived from
    /// it. Its arms are `overview` (the baseline) and `task`; there is no `direct` arm.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_context: Option<TaskContextRef>,
}

impl Experiment {
    /// Returns the answer version the set asks agents for.
    pub fn answer_schema_version(&self) -> &'static str {
        match self.task_context {
            Some(_) => contract::TASK_ANSWER_SCHEMA,
            None => contract::ANSWER_SCHEMA,
        }
    }
}

/// The frozen task-context benchmark of an `evaluate-task` set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TaskContextRef {
    /// The benchmark file as given (`benchmark.json`).
    pub benchmark: FileRef,
    /// The task kind.
    pub task_kind: repocue::api::task::TaskKind,
    /// The declaration's repository-relative path.
    pub declaration: String,
    /// Target paths of the task cue.
    pub targets: Vec<String>,
    /// The common budget of both cues.
    pub max_tokens: u64,
    /// Required items and sources, derived by the selector from the task cue at preparation.
    pub expectation: taskbench::Expectation,
    /// Both cue outputs as measured at preparation (`probes/<arm>.stdout`), arm order.
    pub cues: Vec<FileRef>,
}

/// The repository of a set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExperimentRepository {
    /// RepoCue repository id (derived from the canonical root).
    pub id: String,
    /// Directory name of the root.
    pub name: String,
    /// Absolute root (operator evidence; never copied into a calibration).
    pub root: String,
    /// Branch at preparation.
    pub branch: Option<String>,
    /// HEAD at preparation.
    pub head: Option<String>,
}

/// One scheduled attempt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Scheduled {
    /// `<pair>/<arm>`.
    pub attempt_id: String,
    /// Pair id.
    pub pair_id: String,
    /// Arm name.
    pub arm: String,
    /// 1-based position within the pair.
    pub position: u64,
}

/// The task of a set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TaskRef {
    /// `repocue/repository-state-1` for the built-in task, else `custom-<12 hex>`.
    pub id: String,
    /// The task file inside the set.
    pub file: FileRef,
}

/// A file inside the set, by relative path and digest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FileRef {
    /// Path relative to the set directory.
    pub path: String,
    /// `sha256:` of its bytes.
    pub sha256: String,
    /// Size in bytes.
    pub bytes: u64,
}

/// An executable by path and digest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Binary {
    /// Absolute path.
    pub path: String,
    /// `sha256:` of the file.
    pub sha256: String,
    /// What `--version` printed.
    pub version: String,
}

/// What `prepare` needs.
#[derive(Debug, Clone)]
pub struct PrepareOptions {
    /// Any directory inside the work tree.
    pub repository: PathBuf,
    /// Parent directory of the new set (outside the repository).
    pub output_directory: PathBuf,
    /// Arms (`direct` is added first when missing).
    pub arms: Vec<Arm>,
    /// Pairs, ≥ 1.
    pub pairs: u64,
    /// `alternate` or `seeded:<n>`.
    pub order: String,
    /// A task file; the built-in task when `None`.
    pub task_file: Option<PathBuf>,
    /// The `repocue` executable.
    pub cue_binary: PathBuf,
    /// Runner wall-clock limit per attempt.
    pub timeout_seconds: u64,
    /// For `evaluate-task`: the benchmark and its bytes. The arms must then be exactly the
    /// benchmark's overview and task cues; no `direct` arm is added.
    pub task_context: Option<(Benchmark, Vec<u8>)>,
}

/// What `prepare` prints.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PrepareOutput {
    /// `repocue/experiment-prepare-1`.
    pub schema_version: String,
    /// The published set directory.
    pub set: String,
    /// The frozen manifest.
    pub experiment: Experiment,
}

/// Returns the reference (path, digest, size) of a file inside a set.
pub fn file_ref(set: &Path, rel: &str) -> Result<FileRef> {
    let p = set.join(rel);
    let bytes = std::fs::read(&p).map_err(|e| EvalError::io(&p, e))?;
    Ok(FileRef {
        path: rel.into(),
        sha256: util::digest(&bytes),
        bytes: bytes.len() as u64,
    })
}

/// Reads a referenced file and checks its digest.
pub fn read_ref(set: &Path, r: &FileRef, field: &str) -> Result<Vec<u8>> {
    let p = util::resolve_reference(set, &r.path, field)?;
    let bytes = std::fs::read(&p).map_err(|e| EvalError::io(&p, e))?;
    let d = util::digest(&bytes);
    if d != r.sha256 {
        return Err(EvalError::new(
            "bad_reference",
            format!(
                "{field}: {} has digest {d}, the set records {}; the file was changed after it was written",
                r.path, r.sha256
            ),
        ));
    }
    Ok(bytes)
}

/// Verifies the files a set froze at preparation against their recorded digests: the task, the
/// answer schema, the preparation's output and Trace2 events. A summary that read attempts
/// of a set whose task was replaced counted them as the original task's.
pub fn verify_frozen(set: &Path, exp: &Experiment) -> Result<()> {
    read_ref(set, &exp.task.file, "task.file")?;
    read_ref(set, &exp.answer_schema, "answer_schema")?;
    let recorded = |path: &str, sha256: &str| -> Result<()> {
        let bytes = std::fs::metadata(set.join(path)).map_or(0, |m| m.len());
        let r = FileRef {
            path: path.into(),
            sha256: sha256.into(),
            bytes,
        };
        read_ref(set, &r, "preparation").map(drop)
    };
    recorded("prepare.stdout", &exp.preparation.stdout_sha256)?;
    if let Some(trace) = &exp.preparation.trace_sha256 {
        recorded("prepare.trace2.json", trace)?;
    }
    Ok(())
}

/// The canonical path of the RepoCue binary a set's cues run. Another program that happens to
/// exit 0 (a wrong path) would have been measured as the cue: the binary must say it is
/// RepoCue.
pub(crate) fn cue_binary(given: &Path) -> Result<PathBuf> {
    let path = given
        .canonicalize()
        .map_err(|e| EvalError::arg(format!("cue binary {}: {e}", given.display())))?;
    let version = version_of(&path, "--version");
    if !version.starts_with("repocue ") {
        return Err(EvalError::arg(format!(
            "cue binary {}: `--version` printed {:?}, not `repocue <version>`",
            path.display(),
            version.chars().take(80).collect::<String>()
        )));
    }
    Ok(path)
}

/// Holds the set's run lock (`.run.lock`, released when the process ends, however it ends):
/// two runs on one set each launched attempts while the other's were measured, so their
/// times and machine load overlapped. A second run fails at once with `set_busy`.
fn lock_runs(set: &Path) -> Result<std::fs::File> {
    let path = set.join(".run.lock");
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| EvalError::io(&path, e))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(EvalError::new(
            "set_busy",
            format!(
                "another run is measuring attempts of {}: attempts of one set run one at a time; \
                 run again when it has finished",
                set.display()
            ),
        )),
        Err(std::fs::TryLockError::Error(e)) => Err(EvalError::io(&path, e)),
    }
}

/// What `exe arg` prints (`repocue --version`), trimmed; empty when it cannot run.
pub(crate) fn version_of(exe: &Path, arg: &str) -> String {
    Command::new(exe)
        .arg(arg)
        .stdin(Stdio::null())
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default()
}

/// Orders the arms of each pair: `alternate` reverses every second pair; `seeded:<n>`
/// shuffles each pair with a fixed pseudo-random sequence.
pub fn schedule(arms: &[Arm], pairs: u64, order: &str) -> Result<Vec<Scheduled>> {
    let seed = match order {
        "alternate" => None,
        s => Some(
            s.strip_prefix("seeded:")
                .and_then(|n| n.parse::<u64>().ok())
                .ok_or_else(|| {
                    EvalError::arg(format!("--order {s:?}: use alternate or seeded:<number>"))
                })?,
        ),
    };
    let mut state = seed.unwrap_or(0) ^ 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        // splitmix64: small, fixed, and the same on every platform.
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let mut out = vec![];
    for p in 1..=pairs {
        let mut names: Vec<&str> = arms.iter().map(|a| a.name.as_str()).collect();
        match seed {
            None if p % 2 == 0 => names.reverse(),
            None => {}
            Some(_) => {
                for i in (1..names.len()).rev() {
                    let j = (next() % (i as u64 + 1)) as usize;
                    names.swap(i, j);
                }
            }
        }
        let pair_id = format!("pair-{p:02}");
        for (i, n) in names.iter().enumerate() {
            out.push(Scheduled {
                attempt_id: format!("{pair_id}/{n}"),
                pair_id: pair_id.clone(),
                arm: (*n).into(),
                position: i as u64 + 1,
            });
        }
    }
    Ok(out)
}

/// Freezes the inputs and publishes a new set directory (one rename), after building the
/// experiment's own RepoCue cache and checking that every cue arm runs.
pub fn prepare(opts: &PrepareOptions) -> Result<PrepareOutput> {
    let repo = facts::discover(&opts.repository)?;
    let parent = util::require_outside(
        &opts.output_directory,
        &repo.root,
        &repo.git_dir,
        "--output-directory",
    )?;
    if opts.pairs == 0 {
        return Err(EvalError::arg("--pairs must be at least 1"));
    }
    let mut arms = opts.arms.clone();
    if opts.task_context.is_none() && !arms.iter().any(|a| a.kind == ArmKind::Direct) {
        arms.insert(0, Arm::parse("direct")?);
    }
    arms.sort_by_key(|a| a.kind != ArmKind::Direct);
    for (i, a) in arms.iter().enumerate() {
        if arms[..i].iter().any(|b| b.name == a.name) {
            return Err(EvalError::arg(format!(
                "arm {:?} is declared twice",
                a.name
            )));
        }
        if let Some(m) = &a.matches {
            if !arms.iter().any(|b| &b.name == m && b.kind == ArmKind::Cue) {
                return Err(EvalError::arg(format!(
                    "placebo arm {:?} matches {m:?}, which is not a cue arm",
                    a.name
                )));
            }
        }
    }
    if arms.len() < 2 {
        return Err(EvalError::arg(
            "an experiment needs at least one arm besides direct",
        ));
    }
    if opts.task_context.is_some()
        && (arms.len() != 2 || arms.iter().any(|a| a.kind != ArmKind::Cue))
    {
        return Err(EvalError::arg(
            "a task-context experiment has exactly two cue arms: overview and task",
        ));
    }
    let schedule = schedule(&arms, opts.pairs, &opts.order)?;
    let cue_binary = cue_binary(&opts.cue_binary)?;
    let task_text = match (&opts.task_context, &opts.task_file) {
        (Some((b, _)), _) => b.prompt.clone(),
        (None, Some(p)) => std::fs::read_to_string(p)
            .map_err(|e| EvalError::arg(format!("--task-file {}: {e}", p.display())))?,
        (None, None) => contract::DEFAULT_TASK.to_owned(),
    };
    if task_text.trim().is_empty() {
        return Err(EvalError::arg("the task text is empty"));
    }
    let git_version = String::from_utf8_lossy(&facts::git_output(&repo.root, &["version"])?)
        .trim()
        .to_owned();
    let trace2 = measure::git_has_trace2(&git_version);

    std::fs::create_dir_all(&parent).map_err(|e| EvalError::io(&parent, e))?;
    let staging = parent.join(format!(
        ".repocue-experiment-{}.draft",
        util::unique_suffix()
    ));
    std::fs::create_dir(&staging).map_err(|e| EvalError::io(&staging, e))?;
    let result = prepare_in(
        opts,
        &repo,
        &parent,
        &staging,
        arms,
        schedule,
        &cue_binary,
        task_text,
        git_version,
        trace2,
    );
    if result.is_err() {
        let _ = std::fs::remove_dir_all(&staging);
    }
    result
}

#[allow(clippy::too_many_arguments)]
fn prepare_in(
    opts: &PrepareOptions,
    repo: &facts::Repository,
    parent: &Path,
    staging: &Path,
    arms: Vec<Arm>,
    schedule: Vec<Scheduled>,
    cue_binary: &Path,
    task_text: String,
    git_version: String,
    trace2: bool,
) -> Result<PrepareOutput> {
    let before = facts::capture_fingerprint(&repo.root)?;
    let root_s = repo.root.to_string_lossy().into_owned();
    let cache = staging.join("cache");
    let cache_s = cache.to_string_lossy().into_owned();
    let preparation = measure::measure(
        cue_binary,
        &[
            "init".into(),
            "--repository".into(),
            root_s.clone(),
            "--cache-dir".into(),
            cache_s.clone(),
        ],
        &repo.root,
        &staging.join("prepare.stdout"),
        &staging.join("prepare.trace2.json"),
        trace2,
    )?;
    let probes = probe_arms(
        cue_binary,
        &arms,
        [&root_s, &cache_s],
        &repo.root,
        staging,
        opts.task_context.is_some(),
    )?;
    let after = facts::capture_fingerprint(&repo.root)?;
    if before.value != after.value {
        return Err(EvalError::new(
            "repository_changed",
            "the repository changed while the experiment was prepared; prepare again",
        ));
    }
    if !after.complete {
        return Err(EvalError::new(
            "evidence_incomplete",
            format!("unreadable entries: {}", after.unreadable.join("; ")),
        ));
    }
    let git_facts = facts::capture_facts(&repo.root)?;
    util::write_new(&staging.join("task.txt"), task_text.as_bytes())?;
    let task_context = match &opts.task_context {
        Some((b, bytes)) => Some(freeze_task(staging, b, bytes, probes)?),
        None => None,
    };
    let schema = match task_context {
        Some(_) => serde_json::to_value(schemars::schema_for!(contract::TaskAnswer)),
        None => serde_json::to_value(schemars::schema_for!(contract::Answer)),
    }
    .expect("schema");
    util::write_new(&staging.join("answer.schema.json"), &util::pretty(&schema))?;
    for d in ["journal", "attempts"] {
        std::fs::create_dir(staging.join(d)).map_err(|e| EvalError::io(staging, e))?;
    }
    let task_file = file_ref(staging, "task.txt")?;
    let task_id = if let Some((b, _)) = &opts.task_context {
        b.task_id.clone()
    } else if task_text == contract::DEFAULT_TASK {
        DEFAULT_TASK_ID.to_owned()
    } else {
        format!("custom-{}", &task_file.sha256[7..19])
    };
    let repo_id = repocue::repo_id(&repo.root);
    let created_at = util::now();
    let experiment_id = format!(
        "exp-{}",
        &util::hex_sha256(
            format!(
                "{repo_id}\0{}\0{created_at}\0{}",
                after.value,
                util::unique_suffix()
            )
            .as_bytes()
        )[..16]
    );
    let name = repo
        .root
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "repository".into());
    let exp = Experiment {
        schema_version: EXPERIMENT_SCHEMA.into(),
        experiment_id: experiment_id.clone(),
        created_at,
        repository: ExperimentRepository {
            id: repo_id,
            name: name.clone(),
            root: repo.root.to_string_lossy().into_owned(),
            branch: git_facts.branch,
            head: git_facts.head,
        },
        fingerprint: after,
        arms,
        pairs: opts.pairs,
        order: opts.order.clone(),
        schedule,
        task: TaskRef {
            id: task_id,
            file: task_file,
        },
        answer_schema: file_ref(staging, "answer.schema.json")?,
        cue_binary: Binary {
            path: cue_binary.to_string_lossy().into_owned(),
            sha256: util::file_digest(cue_binary)?,
            version: version_of(cue_binary, "--version"),
        },
        git_version,
        trace2,
        preparation,
        limits: Limits {
            timeout_seconds: opts.timeout_seconds,
        },
        task_context,
    };
    util::write_new(&staging.join("experiment.json"), &util::pretty(&exp))?;
    let final_dir = parent.join(format!("{}_{experiment_id}", util::safe_name(&name)));
    if final_dir.exists() {
        return Err(EvalError::new(
            "already_exists",
            format!("{} already exists", final_dir.display()),
        ));
    }
    std::fs::rename(staging, &final_dir).map_err(|e| EvalError::io(&final_dir, e))?;
    Ok(PrepareOutput {
        schema_version: "repocue/experiment-prepare-1".into(),
        set: final_dir.to_string_lossy().into_owned(),
        experiment: exp,
    })
}

/// Runs every cue arm once, so that a bad arm fails before anything is paid for. With `keep`
/// the outputs stay in `probes/<arm>.stdout` (evidence of what preparation delivered).
fn probe_arms(
    cue_binary: &Path,
    arms: &[Arm],
    [root, cache]: [&String; 2],
    cwd: &Path,
    staging: &Path,
    keep: bool,
) -> Result<Vec<FileRef>> {
    let dir = staging.join("probes");
    std::fs::create_dir(&dir).map_err(|e| EvalError::io(&dir, e))?;
    let mut kept = vec![];
    for arm in arms.iter().filter(|a| a.kind == ArmKind::Cue) {
        let mut args = arm.argv.clone();
        args.extend([
            "--repository".into(),
            root.clone(),
            "--cache-dir".into(),
            cache.clone(),
        ]);
        let rel = format!("probes/{}.stdout", arm.name);
        measure::measure(
            cue_binary,
            &args,
            cwd,
            &staging.join(&rel),
            &staging.join("probe.trace"),
            false,
        )
        .map_err(|e| EvalError::arg(format!("arm {:?} does not run: {}", arm.name, e.message)))?;
        if keep {
            kept.push(file_ref(staging, &rel)?);
        } else {
            let _ = std::fs::remove_file(staging.join(&rel));
        }
    }
    if !keep {
        let _ = std::fs::remove_dir(&dir);
    }
    Ok(kept)
}

/// Freezes the benchmark of a task set and derives the expectation from the task cue that
/// preparation measured.
fn freeze_task(
    staging: &Path,
    b: &Benchmark,
    bytes: &[u8],
    cues: Vec<FileRef>,
) -> Result<TaskContextRef> {
    util::write_new(&staging.join("benchmark.json"), bytes)?;
    let task_cue = cues
        .iter()
        .find(|f| f.path == format!("probes/{}.stdout", taskbench::TASK_ARM))
        .ok_or_else(|| EvalError::arg("a task-context experiment needs the task arm"))?;
    let expectation = taskbench::expectation(&read_ref(staging, task_cue, "task cue")?)?;
    Ok(TaskContextRef {
        benchmark: file_ref(staging, "benchmark.json")?,
        task_kind: b.task_kind,
        declaration: b.declaration.clone(),
        targets: b.targets.clone(),
        max_tokens: b.max_tokens,
        expectation,
        cues,
    })
}

/// Loads a set's manifest strictly.
pub fn load(set: &Path) -> Result<Experiment> {
    let p = set.join("experiment.json");
    let bytes = std::fs::read(&p).map_err(|e| {
        EvalError::new(
            "not_an_experiment",
            format!(
                "{}: {e}; pass a set directory printed by `experiment prepare`",
                p.display()
            ),
        )
    })?;
    let exp: Experiment = crate::strict::parse(&bytes, "experiment.json")?;
    if exp.schema_version != EXPERIMENT_SCHEMA {
        return Err(EvalError::new(
            "invalid_evidence",
            format!(
                "experiment.json: unknown schema_version {:?}",
                exp.schema_version
            ),
        ));
    }
    Ok(exp)
}

/// How an attempt ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AttemptStatus {
    /// The runner returned a valid observation and the repository is unchanged.
    Completed,
    /// Something failed; the record says what. Never retried automatically.
    Failed,
    /// No runner was given: context and fingerprints only, no agent evidence.
    DryRun,
}

/// The record of one attempt (`attempts/<pair>_<arm>/record.json`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AttemptRecord {
    /// [`ATTEMPT_SCHEMA`].
    pub schema_version: String,
    /// The set.
    pub experiment_id: String,
    /// `<pair>/<arm>`.
    pub attempt_id: String,
    /// Pair id.
    pub pair_id: String,
    /// Arm name.
    pub arm: String,
    /// Arm kind.
    pub arm_kind: ArmKind,
    /// Outcome.
    pub status: AttemptStatus,
    /// Why it failed.
    pub error: Option<AttemptError>,
    /// The journal entry written before launch.
    pub journal: FileRef,
    /// The measured cue invocation (cue arms; for placebo arms, the matched cue measured to
    /// size the placebo, a diagnostic only).
    pub cue: Option<CueMeasurement>,
    /// Retained cue stdout and Trace2 file.
    pub cue_files: Vec<FileRef>,
    /// The context handed to the agent.
    pub context: Option<FileRef>,
    /// Fingerprint before the runner started (after the cue finished).
    pub pre: Option<Fingerprint>,
    /// Fingerprint after the runner exited.
    pub post: Option<Fingerprint>,
    /// The Git facts captured with `pre`, the scoring basis.
    pub basis: Option<FileRef>,
    /// The request file.
    pub request: Option<FileRef>,
    /// The runner process.
    pub runner: Option<RunnerLaunch>,
}

/// Why an attempt failed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AttemptError {
    /// Stable code.
    pub code: String,
    /// Message.
    pub message: String,
}

/// The runner process of an attempt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunnerLaunch {
    /// Executable and arguments.
    pub argv: Vec<String>,
    /// `sha256:` of the executable.
    pub executable_sha256: String,
    /// Spawn instant.
    pub started_at: String,
    /// Exit instant.
    pub finished_at: String,
    /// Wall time of the runner process in milliseconds (includes the runner's own start-up).
    pub wall_ms: u64,
    /// Exit code; `null` when killed.
    pub exit_status: Option<i32>,
    /// Whether the engine killed it at the time limit.
    pub timed_out: bool,
    /// Raw stdout (the observation).
    pub stdout: FileRef,
    /// Raw stderr.
    pub stderr: FileRef,
}

/// The runner to launch: an executable and fixed arguments.
#[derive(Debug, Clone)]
pub struct RunnerSpec {
    /// Executable.
    pub exe: PathBuf,
    /// Arguments.
    pub args: Vec<String>,
}

/// What `run` prints.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunOutput {
    /// `repocue/experiment-run-1`.
    pub schema_version: String,
    /// The set.
    pub set: String,
    /// The experiment.
    pub experiment_id: String,
    /// Whether this was a dry run (no runner).
    pub dry_run: bool,
    /// Attempts launched now, in order.
    pub attempts: Vec<RunAttempt>,
    /// Attempts skipped because a journal entry already existed (never retried).
    pub skipped: Vec<String>,
}

/// One attempt of a `run`.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunAttempt {
    /// `<pair>/<arm>`.
    pub attempt_id: String,
    /// Outcome.
    pub status: AttemptStatus,
    /// Failure code and message.
    pub error: Option<AttemptError>,
}

fn attempt_dir_name(attempt_id: &str) -> String {
    attempt_id.replace('/', "_")
}

/// Which scheduled attempts one `run` may launch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunLimit {
    /// Every attempt without a journal entry (`experiment run`).
    All,
    /// The attempts of the first pair none of whose attempts has a journal entry: one ordered
    /// pair per invocation (`evaluate-task run`). A pair that was started and interrupted is
    /// never continued.
    NextPair,
}

/// Returns the first pair none of whose attempts was journalled.
fn next_pair(set: &Path, exp: &Experiment) -> Result<String> {
    let journalled = |s: &Scheduled| {
        set.join("journal")
            .join(format!("{}.json", attempt_dir_name(&s.attempt_id)))
            .exists()
    };
    let mut pairs: Vec<&str> = exp.schedule.iter().map(|s| s.pair_id.as_str()).collect();
    pairs.dedup();
    pairs
        .into_iter()
        .find(|p| {
            !exp.schedule
                .iter()
                .any(|s| s.pair_id == *p && journalled(s))
        })
        .map(str::to_owned)
        .ok_or_else(|| {
            EvalError::new(
                "nothing_to_run",
                format!(
                    "every pair of {} has been launched; nothing is ever retried or continued",
                    exp.experiment_id
                ),
            )
            .hint("prepare a new set to measure again")
        })
}

/// Launches scheduled attempts that have no journal entry yet (all of them, or one pair), in
/// order, and stops at the first failure. Without a runner it is a dry run (contexts and
/// fingerprints only).
pub fn run(set: &Path, runner: Option<&RunnerSpec>, limit: RunLimit) -> Result<RunOutput> {
    let set = set
        .canonicalize()
        .map_err(|e| EvalError::arg(format!("--set {}: {e}", set.display())))?;
    let exp = load(&set)?;
    let _running = lock_runs(&set)?;
    let root = PathBuf::from(&exp.repository.root);
    let repo = facts::discover(&root)?;
    if repo.root != root || repocue::repo_id(&repo.root) != exp.repository.id {
        return Err(EvalError::new(
            "evidence_mismatch",
            "the set's repository no longer resolves to the same root",
        ));
    }
    let cue_binary = PathBuf::from(&exp.cue_binary.path);
    let resolved = match runner {
        Some(r) => Some(RunnerSpec {
            exe: resolve_exe(&r.exe)?,
            args: r.args.clone(),
        }),
        None => None,
    };
    let runner = resolved.as_ref();
    let runner_digest = match runner {
        Some(r) => Some(util::file_digest(&r.exe)?),
        None => None,
    };
    let mut out = RunOutput {
        schema_version: "repocue/experiment-run-1".into(),
        set: set.to_string_lossy().into_owned(),
        experiment_id: exp.experiment_id.clone(),
        dry_run: runner.is_none(),
        attempts: vec![],
        skipped: vec![],
    };
    let pair = selected_pair(&set, &exp, limit)?;
    let mut first_runner: Option<RunnerInfo> = None;
    for s in &exp.schedule {
        let name = attempt_dir_name(&s.attempt_id);
        let journal = set.join("journal").join(format!("{name}.json"));
        let selected = pair.as_ref().is_none_or(|p| *p == s.pair_id);
        if journal.exists() {
            if selected {
                out.skipped.push(s.attempt_id.clone());
            }
            if first_runner.is_none() {
                first_runner = completed_runner(&set, &name);
            }
            continue;
        }
        if !selected {
            continue;
        }
        write_journal(&journal, s, runner, runner_digest.as_deref())?;
        let draft = set
            .join("attempts")
            .join(format!(".{name}.{}.draft", util::unique_suffix()));
        std::fs::create_dir(&draft).map_err(|e| EvalError::io(&draft, e))?;
        let arm =
            exp.arms.iter().find(|a| a.name == s.arm).ok_or_else(|| {
                EvalError::new("invalid_evidence", format!("unknown arm {}", s.arm))
            })?;
        let mut record = new_record(&set, &exp, s, arm, &name)?;
        let ctx = AttemptCtx {
            set: &set,
            exp: &exp,
            root: &root,
            draft: &draft,
            rel: format!("attempts/{name}"),
            cue_binary: &cue_binary,
            scheduled: s,
            arm,
            runner: runner.map(|r| (r, runner_digest.clone().unwrap_or_default())),
            first_runner: first_runner.as_ref(),
        };
        match run_attempt(&ctx, &mut record) {
            Ok(info) => {
                record.status = if runner.is_some() {
                    AttemptStatus::Completed
                } else {
                    AttemptStatus::DryRun
                };
                if first_runner.is_none() {
                    first_runner = info;
                }
            }
            Err(e) => {
                record.status = AttemptStatus::Failed;
                record.error = Some(AttemptError {
                    code: e.code.into(),
                    message: e.message,
                });
            }
        }
        util::write_new(&draft.join("record.json"), &util::pretty(&record))?;
        let final_dir = set.join("attempts").join(&name);
        std::fs::rename(&draft, &final_dir).map_err(|e| EvalError::io(&final_dir, e))?;
        out.attempts.push(RunAttempt {
            attempt_id: s.attempt_id.clone(),
            status: record.status,
            error: record.error.clone(),
        });
        if let Some(e) = record.error {
            return Err(EvalError::new(
                "attempt_failed",
                format!(
                    "{} failed ({}: {}); its record is retained in {}; later attempts were not launched",
                    s.attempt_id,
                    e.code,
                    e.message,
                    final_dir.display()
                ),
            )
            .hint("nothing is retried automatically: prepare a new set to measure again"));
        }
    }
    Ok(out)
}

/// Refuses `RunLimit::All` on a task set and returns the pair a `NextPair` run launches.
fn selected_pair(set: &Path, exp: &Experiment, limit: RunLimit) -> Result<Option<String>> {
    match limit {
        RunLimit::All if exp.task_context.is_some() => Err(EvalError::new(
            "wrong_kind",
            format!(
                "{} is a task-context set: run it one ordered pair at a time with `repocue evaluate-task run`",
                exp.experiment_id
            ),
        )),
        RunLimit::All => Ok(None),
        RunLimit::NextPair => Ok(Some(next_pair(set, exp)?)),
    }
}

/// Writes the journal entry of an attempt, exclusively, before anything is launched.
fn write_journal(
    journal: &Path,
    s: &Scheduled,
    runner: Option<&RunnerSpec>,
    digest: Option<&str>,
) -> Result<()> {
    let entry = serde_json::json!({
        "schema_version": "repocue/experiment-journal-1",
        "attempt_id": s.attempt_id,
        "launched_at": util::now(),
        "runner": runner.map(|r| {
            let mut argv = vec![r.exe.to_string_lossy().into_owned()];
            argv.extend(r.args.iter().cloned());
            argv
        }),
        "runner_sha256": digest,
    });
    util::write_new(journal, &util::pretty(&entry))
}

/// Returns the record of an attempt about to run: failed until it completes.
fn new_record(
    set: &Path,
    exp: &Experiment,
    s: &Scheduled,
    arm: &Arm,
    name: &str,
) -> Result<AttemptRecord> {
    Ok(AttemptRecord {
        schema_version: ATTEMPT_SCHEMA.into(),
        experiment_id: exp.experiment_id.clone(),
        attempt_id: s.attempt_id.clone(),
        pair_id: s.pair_id.clone(),
        arm: s.arm.clone(),
        arm_kind: arm.kind,
        status: AttemptStatus::Failed,
        error: None,
        journal: file_ref(set, &format!("journal/{name}.json"))?,
        cue: None,
        cue_files: vec![],
        context: None,
        pre: None,
        post: None,
        basis: None,
        request: None,
        runner: None,
    })
}

/// Resolves a runner executable to an absolute path: a path with a `/` against the current
/// directory (the runner itself starts in the repository root), a bare name through `PATH`.
fn resolve_exe(exe: &Path) -> Result<PathBuf> {
    let bad = |why: String| EvalError::arg(format!("--runner {}: {why}", exe.display()));
    if exe.components().count() > 1 || exe.is_absolute() {
        return exe.canonicalize().map_err(|e| bad(e.to_string()));
    }
    std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .map(|d| d.join(exe))
        .find(|p| p.is_file())
        .ok_or_else(|| bad("not found on PATH".into()))
}

fn completed_runner(set: &Path, name: &str) -> Option<RunnerInfo> {
    let rec: AttemptRecord = serde_json::from_slice(
        &std::fs::read(set.join("attempts").join(name).join("record.json")).ok()?,
    )
    .ok()?;
    let launch = rec.runner?;
    let o: Observation =
        serde_json::from_slice(&std::fs::read(set.join(&launch.stdout.path)).ok()?).ok()?;
    Some(o.runner)
}

struct AttemptCtx<'a> {
    set: &'a Path,
    exp: &'a Experiment,
    root: &'a Path,
    draft: &'a Path,
    rel: String,
    cue_binary: &'a Path,
    scheduled: &'a Scheduled,
    arm: &'a Arm,
    runner: Option<(&'a RunnerSpec, String)>,
    first_runner: Option<&'a RunnerInfo>,
}

impl AttemptCtx<'_> {
    fn write(&self, name: &str, bytes: &[u8]) -> Result<FileRef> {
        util::write_new(&self.draft.join(name), bytes)?;
        Ok(FileRef {
            path: format!("{}/{name}", self.rel),
            sha256: util::digest(bytes),
            bytes: bytes.len() as u64,
        })
    }
    fn retained(&self, name: &str) -> Result<FileRef> {
        let p = self.draft.join(name);
        let bytes = std::fs::read(&p).map_err(|e| EvalError::io(&p, e))?;
        Ok(FileRef {
            path: format!("{}/{name}", self.rel),
            sha256: util::digest(&bytes),
            bytes: bytes.len() as u64,
        })
    }
}

fn run_attempt(c: &AttemptCtx<'_>, rec: &mut AttemptRecord) -> Result<Option<RunnerInfo>> {
    let now = facts::capture_fingerprint(c.root)?;
    if now.value != c.exp.fingerprint.value {
        return Err(EvalError::new(
            "repository_changed",
            "the repository differs from the prepared state; nothing was launched",
        ));
    }
    if util::file_digest(c.cue_binary)? != c.exp.cue_binary.sha256 {
        return Err(EvalError::new(
            "cue_binary_changed",
            format!("{} changed since preparation", c.cue_binary.display()),
        ));
    }
    let cue_arm = match c.arm.kind {
        ArmKind::Direct => None,
        ArmKind::Cue => Some(c.arm),
        ArmKind::Placebo => c
            .exp
            .arms
            .iter()
            .find(|a| Some(&a.name) == c.arm.matches.as_ref()),
    };
    let mut context = None;
    if let Some(arm) = cue_arm {
        let mut args = arm.argv.clone();
        args.extend([
            "--repository".into(),
            c.root.to_string_lossy().into_owned(),
            "--cache-dir".into(),
            c.set.join("cache").to_string_lossy().into_owned(),
        ]);
        let m = measure::measure(
            c.cue_binary,
            &args,
            c.root,
            &c.draft.join("cue.stdout"),
            &c.draft.join("cue.trace2.json"),
            c.exp.trace2,
        )?;
        rec.cue_files.push(c.retained("cue.stdout")?);
        if c.exp.trace2 {
            rec.cue_files.push(c.retained("cue.trace2.json")?);
        }
        let stdout =
            std::fs::read(c.draft.join("cue.stdout")).map_err(|e| EvalError::io(c.draft, e))?;
        let text = String::from_utf8(stdout)
            .map_err(|_| EvalError::new("cue_failed", "the cue printed invalid UTF-8"))?;
        let text = if c.arm.kind == ArmKind::Placebo {
            placebo_text(text.len(), &c.scheduled.pair_id)
        } else {
            text
        };
        rec.context = Some(c.write("context.txt", text.as_bytes())?);
        rec.cue = Some(m);
        context = Some(text);
    }
    let pre = facts::capture_fingerprint(c.root)?;
    let basis = facts::capture_facts(c.root)?;
    rec.basis = Some(c.write("basis.json", &util::pretty(&basis))?);
    let pre_value = pre.value.clone();
    rec.pre = Some(pre);
    if pre_value != c.exp.fingerprint.value {
        return Err(EvalError::new(
            "repository_changed",
            "the repository changed while the cue ran",
        ));
    }
    let Some((runner, runner_digest)) = &c.runner else {
        return Ok(None);
    };
    let task = String::from_utf8(read_ref(c.set, &c.exp.task.file, "task")?)
        .map_err(|_| EvalError::new("invalid_evidence", "task.txt is not UTF-8"))?;
    let artifacts = c.draft.join("artifacts");
    std::fs::create_dir(&artifacts).map_err(|e| EvalError::io(&artifacts, e))?;
    let request = RunnerRequest {
        schema_version: contract::REQUEST_SCHEMA.into(),
        experiment_id: c.exp.experiment_id.clone(),
        attempt_id: c.scheduled.attempt_id.clone(),
        pair_id: c.scheduled.pair_id.clone(),
        arm: c.arm.name.clone(),
        arm_kind: c.arm.kind,
        repository: RequestRepository {
            root: c.exp.repository.root.clone(),
            branch: c.exp.repository.branch.clone(),
            head: c.exp.repository.head.clone(),
            read_only: true,
        },
        prompt: contract::prompt(&task, context.as_deref()),
        task: RequestText::of(task),
        context: context.map(RequestText::of),
        answer_schema_version: c.exp.answer_schema_version().into(),
        answer_schema_path: c
            .set
            .join(&c.exp.answer_schema.path)
            .to_string_lossy()
            .into_owned(),
        limits: c.exp.limits.clone(),
        // The runner writes while the attempt is still a draft; the path it is told is the
        // draft's, and the record names the published one.
        artifacts_dir: artifacts.to_string_lossy().into_owned(),
    };
    rec.request = Some(c.write("request.json", &util::pretty(&request))?);
    let launch = launch_runner(
        runner,
        runner_digest,
        &c.draft.join("request.json"),
        c.root,
        c.draft,
        &c.rel,
        c.exp.limits.timeout_seconds,
    )?;
    let timed_out = launch.timed_out;
    let exit = launch.exit_status;
    rec.runner = Some(launch);
    let post = facts::capture_fingerprint(c.root)?;
    let changed = post.value != pre_value;
    rec.post = Some(post);
    if changed {
        return Err(EvalError::new(
            "repository_modified",
            "the runner modified the repository (content fingerprint differs before and after)",
        ));
    }
    if timed_out {
        return Err(EvalError::new(
            "runner_timeout",
            format!(
                "the runner exceeded {} s and was killed",
                c.exp.limits.timeout_seconds
            ),
        ));
    }
    let stderr = std::fs::read(c.draft.join("runner.stderr")).unwrap_or_default();
    if exit != Some(0) {
        let text = String::from_utf8_lossy(&stderr);
        let tail: String = text.trim().chars().take(500).collect();
        return Err(EvalError::new(
            "runner_failed",
            format!("the runner exited with {exit:?}: {tail}"),
        ));
    }
    let stdout = std::fs::read(c.draft.join("runner.stdout")).unwrap_or_default();
    let obs: Observation = crate::strict::parse(&stdout, "runner observation")
        .map_err(|e| EvalError::new("invalid_observation", e.message))?;
    contract::validate_observation(&obs, &request)?;
    if let Some(first) = c.first_runner {
        if first != &obs.runner {
            return Err(EvalError::new(
                "runner_drift",
                format!(
                    "runner settings differ from the set's first attempt: {:?} vs {:?}",
                    obs.runner, first
                ),
            ));
        }
    }
    Ok(Some(obs.runner))
}

fn launch_runner(
    r: &RunnerSpec,
    digest: &str,
    request: &Path,
    root: &Path,
    draft: &Path,
    rel: &str,
    timeout_s: u64,
) -> Result<RunnerLaunch> {
    let open = |name: &str| {
        std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(draft.join(name))
            .map_err(|e| EvalError::io(&draft.join(name), e))
    };
    let (out, err) = (open("runner.stdout")?, open("runner.stderr")?);
    let started_at = util::now();
    let clock = Instant::now();
    let mut child = util::spawn(
        Command::new(&r.exe)
            .args(&r.args)
            .current_dir(root)
            .process_group(0)
            .env(contract::REQUEST_ENV, request)
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err),
    )
    .map_err(|e| {
        EvalError::new(
            "runner_failed",
            format!("cannot start {}: {e}", r.exe.display()),
        )
    })?;
    let limit = Duration::from_secs(timeout_s);
    let mut timed_out = false;
    let status = loop {
        if let Some(s) = child
            .try_wait()
            .map_err(|e| EvalError::new("runner_failed", e.to_string()))?
        {
            break s;
        }
        if clock.elapsed() >= limit {
            timed_out = true;
            crate::runners::kill_group(&mut child);
            break child
                .wait()
                .map_err(|e| EvalError::new("runner_failed", e.to_string()))?;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let wall_ms = clock.elapsed().as_millis() as u64;
    let file = |name: &str| -> Result<FileRef> {
        let bytes = std::fs::read(draft.join(name)).map_err(|e| EvalError::io(draft, e))?;
        Ok(FileRef {
            path: format!("{rel}/{name}"),
            sha256: util::digest(&bytes),
            bytes: bytes.len() as u64,
        })
    };
    let mut argv = vec![r.exe.to_string_lossy().into_owned()];
    argv.extend(r.args.iter().cloned());
    Ok(RunnerLaunch {
        argv,
        executable_sha256: digest.into(),
        started_at,
        finished_at: util::now(),
        wall_ms,
        exit_status: status.code(),
        timed_out,
        stdout: file("runner.stdout")?,
        stderr: file("runner.stderr")?,
    })
}

/// Returns `len` bytes of plausible but irrelevant text (a fictional project's overview),
/// deterministic per `seed`, so the placebo arm gets the same token count as its cue arm.
pub fn placebo_text(len: usize, seed: &str) -> String {
    const LINES: &[&str] = &[
        "{\"project\": \"tidewatch\", \"summary\": \"firmware and dashboards for coastal tide gauges\"}",
        "- firmware/sampler.c: reads the pressure transducer every 250 ms and filters spikes",
        "- firmware/radio.c: LoRa uplink with retry windows tuned for harbour interference",
        "- dashboard/src/charts.ts: renders tide curves against the harmonic prediction",
        "- dashboard/src/alerts.ts: storm-surge thresholds per station, loaded from stations.yaml",
        "- docs/calibration.md: field procedure for zeroing a gauge against a staff reading",
        "- docs/deploy.md: flashing stations over the serial bootloader",
        "- tools/harmonics.py: fits 37 tidal constituents from a month of readings",
        "- stations.yaml: 14 stations with datum offsets and maintenance contacts",
        "- recent: tune surge thresholds for the northern pier; fix radio backoff overflow",
    ];
    let start = seed
        .bytes()
        .fold(0usize, |a, b| a.wrapping_mul(31).wrapping_add(b as usize));
    let mut s = String::with_capacity(len + 128);
    let mut i = start;
    while s.len() < len {
        s.push_str(LINES[i % LINES.len()]);
        s.push('\n');
        i += 1;
    }
    s.truncate(len);
    s
}

/// A read-only summary of a set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Summary {
    /// [`SUMMARY_SCHEMA`].
    pub schema_version: String,
    /// The set.
    pub experiment_id: String,
    /// Repository id and name.
    pub repository: SummaryRepository,
    /// Task id.
    pub task: String,
    /// Runner settings shared by the completed attempts (`null` for a dry run).
    pub runner: Option<RunnerInfo>,
    /// Scheduled, completed, failed, dry-run and not-yet-run attempts.
    pub counts: Counts,
    /// Every recorded attempt, in schedule order.
    pub attempts: Vec<AttemptSummary>,
    /// Each non-direct arm against direct, and each cue arm against its placebo.
    pub comparisons: Vec<Comparison>,
    /// Whether these numbers may be presented as evidence of savings, and why not.
    pub verdict: Verdict,
    /// What the numbers do not cover.
    pub limitations: Vec<String>,
}

/// Repository identity in a summary (no absolute path).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SummaryRepository {
    /// Repository id.
    pub id: String,
    /// Directory name.
    pub name: String,
}

/// Attempt counts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Counts {
    /// Scheduled.
    pub scheduled: u64,
    /// Completed.
    pub completed: u64,
    /// Failed.
    pub failed: u64,
    /// Dry runs.
    pub dry_run: u64,
    /// Journalled but without a record (interrupted).
    pub interrupted: u64,
    /// Not launched yet.
    pub pending: u64,
}

/// One attempt's numbers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AttemptSummary {
    /// `<pair>/<arm>`.
    pub attempt_id: String,
    /// Pair.
    pub pair_id: String,
    /// Arm.
    pub arm: String,
    /// Outcome.
    pub status: AttemptStatus,
    /// Failure.
    pub error: Option<AttemptError>,
    /// Agent token usage (`null` unless completed).
    pub usage: Option<Usage>,
    /// Agent tool calls.
    pub tool_calls: Metric,
    /// Agent shell commands (derived from the command list).
    pub commands: Metric,
    /// Agent commands classified as Git (a proxy, not Git processes).
    pub agent_git_commands: Metric,
    /// Agent wall time, milliseconds.
    pub duration_ms: Metric,
    /// Cue wall time, microseconds (Q; `null` for direct and placebo).
    pub cue_wall_us: Metric,
    /// Git processes of the cue invocation (Trace2).
    pub cue_git_processes: Metric,
    /// Bytes of context handed to the agent.
    pub context_bytes: Option<u64>,
    /// `ceil(context_bytes/4)`, a diagnostic.
    pub context_estimated_tokens: Option<u64>,
    /// The five Git facts scored against the attempt's own basis.
    pub score: Option<Score>,
    /// Why the answer could not be scored.
    pub answer_error: Option<String>,
}

/// One arm compared with a baseline arm over complete pairs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Comparison {
    /// The arm measured.
    pub arm: String,
    /// The arm it is compared with (`direct`, or a placebo).
    pub baseline: String,
    /// Pairs where both attempts completed.
    pub complete_pairs: u64,
    /// Per dimension: baseline B, arm A (+ Q), saving `B − (A + Q)` per pair.
    pub dimensions: Vec<Dimension>,
    /// Paired difference of facts passed (arm − baseline).
    pub correctness_difference: Paired,
}

/// One dimension of a comparison.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Dimension {
    /// `input_tokens`, …, `duration_us`, `tool_calls`, `commands`, `agent_git_commands`.
    pub name: String,
    /// Unit.
    pub unit: String,
    /// Baseline values per pair.
    pub baseline: Vec<Option<i64>>,
    /// Arm values per pair, the arm's cue cost Q included where the dimension has one.
    pub arm_with_cue: Vec<Option<i64>>,
    /// Saving per pair, `baseline − arm_with_cue`, aggregated.
    pub saving: Paired,
    /// Saving as a percentage of the baseline, per pair, aggregated (baseline > 0 only).
    pub saving_percent: Paired,
}

/// Whether a savings claim is allowed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Verdict {
    /// `true` only for a complete real-agent set without a lower correctness.
    pub claim_allowed: bool,
    /// `exploratory` (1–2 complete pairs) or `descriptive` (≥ 3); never significance.
    pub sample_grade: Option<String>,
    /// Why a claim is not allowed.
    pub reasons: Vec<String>,
}

/// One attempt as read back for summaries and imports.
pub struct LoadedAttempt {
    /// The record.
    pub record: AttemptRecord,
    /// The validated observation, when completed.
    pub observation: Option<Observation>,
    /// The scoring basis.
    pub basis: Option<GitFacts>,
}

/// Reads every attempt record of a set, verifying each referenced file's digest and path.
pub fn load_attempts(set: &Path, exp: &Experiment) -> Result<(Vec<LoadedAttempt>, Counts)> {
    let mut counts = Counts {
        scheduled: exp.schedule.len() as u64,
        completed: 0,
        failed: 0,
        dry_run: 0,
        interrupted: 0,
        pending: 0,
    };
    let mut out = vec![];
    // The task every request must have given its agent: a task replaced in the set, with its
    // digest in the manifest, was taken for the one the attempts ran.
    let task = read_ref(set, &exp.task.file, "task.file")?;
    let task = String::from_utf8_lossy(&task);
    for s in &exp.schedule {
        let name = attempt_dir_name(&s.attempt_id);
        let rec_rel = format!("attempts/{name}/record.json");
        if !set.join(&rec_rel).exists() {
            if set.join("journal").join(format!("{name}.json")).exists() {
                counts.interrupted += 1;
            } else {
                counts.pending += 1;
            }
            continue;
        }
        let p = util::resolve_reference(set, &rec_rel, "attempt record")?;
        let bytes = std::fs::read(&p).map_err(|e| EvalError::io(&p, e))?;
        let record: AttemptRecord = crate::strict::parse(&bytes, &rec_rel)?;
        if record.attempt_id != s.attempt_id || record.experiment_id != exp.experiment_id {
            return Err(EvalError::new(
                "invalid_evidence",
                format!("{rec_rel}: attempt_id/experiment_id do not match the schedule"),
            ));
        }
        read_ref(set, &record.journal, &format!("{rec_rel}: journal"))?;
        // The manifest's arm says which cue its attempts ran; the records say which they did
        // (an arm edited in the manifest alone put a budget no attempt ran with into a
        // calibration).
        let arm = exp.arms.iter().find(|a| a.name == record.arm);
        if let (Some(arm), Some(cue)) = (arm, &record.cue) {
            if arm.kind == ArmKind::Cue && !cue.argv.starts_with(&arm.argv) {
                return Err(EvalError::new(
                    "invalid_evidence",
                    format!(
                        "{rec_rel}: the attempt ran `{}`, the set's arm {} says `{}`",
                        cue.argv.join(" "),
                        arm.name,
                        arm.argv.join(" ")
                    ),
                ));
            }
        }
        for f in record.cue_files.iter().chain(&record.context) {
            read_ref(set, f, &format!("{rec_rel}: {}", f.path))?;
        }
        if let Some(f) = &record.request {
            let bytes = read_ref(set, f, &format!("{rec_rel}: {}", f.path))?;
            let request: serde_json::Value = serde_json::from_slice(&bytes)
                .map_err(|e| EvalError::new("invalid_json", format!("{}: {e}", f.path)))?;
            if request["task"]["text"].as_str() != Some(&*task) {
                return Err(EvalError::new(
                    "invalid_evidence",
                    format!(
                        "{}: the attempt was given another task than the set's task.txt",
                        f.path
                    ),
                ));
            }
        }
        let basis = match &record.basis {
            Some(b) => Some(crate::strict::parse::<GitFacts>(
                &read_ref(set, b, &format!("{rec_rel}: basis"))?,
                "basis.json",
            )?),
            None => None,
        };
        let mut observation = None;
        if let Some(l) = &record.runner {
            let stdout = read_ref(set, &l.stdout, &format!("{rec_rel}: runner.stdout"))?;
            read_ref(set, &l.stderr, &format!("{rec_rel}: runner.stderr"))?;
            if record.status == AttemptStatus::Completed {
                observation = Some(crate::strict::parse::<Observation>(
                    &stdout,
                    &l.stdout.path,
                )?);
            }
        }
        match record.status {
            AttemptStatus::Completed => counts.completed += 1,
            AttemptStatus::Failed => counts.failed += 1,
            AttemptStatus::DryRun => counts.dry_run += 1,
        }
        out.push(LoadedAttempt {
            record,
            observation,
            basis,
        });
    }
    unscheduled(set, exp)?;
    Ok((out, counts))
}

/// Fails when the set holds an attempt or a journal entry its schedule does not list: attempts
/// dropped from the manifest's schedule (an unfavourable pair) still ran. Hidden entries are
/// drafts of attempts a run was interrupted in (`.pair-01_basic.<suffix>.draft`).
fn unscheduled(set: &Path, exp: &Experiment) -> Result<()> {
    let scheduled: std::collections::HashSet<String> = exp
        .schedule
        .iter()
        .map(|s| attempt_dir_name(&s.attempt_id))
        .collect();
    for (dir, suffix) in [("attempts", ""), ("journal", ".json")] {
        let Ok(entries) = std::fs::read_dir(set.join(dir)) else {
            continue;
        };
        let mut names: Vec<String> = entries
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| !n.starts_with('.'))
            .collect();
        names.sort();
        for name in names {
            let attempt = name.strip_suffix(suffix).unwrap_or(&name);
            if !scheduled.contains(attempt) {
                return Err(EvalError::new(
                    "invalid_evidence",
                    format!(
                        "{dir}/{name} is not in the set's schedule: an attempt ran that the \
                         manifest no longer lists"
                    ),
                ));
            }
        }
    }
    Ok(())
}

fn value(m: &Metric) -> Option<i64> {
    m.value.map(|v| v as i64)
}

/// Builds the per-attempt numbers of a loaded attempt.
pub fn attempt_summary(a: &LoadedAttempt) -> AttemptSummary {
    let r = &a.record;
    let not = |why: &str| Metric::missing(why);
    let why = match r.status {
        AttemptStatus::DryRun => "dry run: no agent was launched",
        AttemptStatus::Failed => "the attempt failed",
        AttemptStatus::Completed => "",
    };
    // Task answers are scored by `evaluate-task summary`, not against the Git facts.
    let task_answer = a.observation.as_ref().is_some_and(|o| {
        o.answer.as_ref().is_some_and(|v| {
            v.get("schema_version").and_then(|s| s.as_str()) == Some(contract::TASK_ANSWER_SCHEMA)
        })
    });
    let (score, answer_error) = match (&a.observation, &a.basis) {
        _ if task_answer => (None, None),
        (Some(o), Some(b)) => match o.answer.as_ref().map(contract::parse_answer) {
            Some(Ok(ans)) => (Some(facts::score(&ans.git, b)), None),
            Some(Err(e)) => (None, Some(e)),
            None => (None, Some("the agent gave no answer".into())),
        },
        _ => (None, None),
    };
    let cue_used = r.arm_kind == ArmKind::Cue;
    AttemptSummary {
        attempt_id: r.attempt_id.clone(),
        pair_id: r.pair_id.clone(),
        arm: r.arm.clone(),
        status: r.status,
        error: r.error.clone(),
        usage: a.observation.as_ref().map(|o| o.usage.clone()),
        tool_calls: a
            .observation
            .as_ref()
            .map_or_else(|| not(why), |o| o.tool_calls.clone()),
        commands: a
            .observation
            .as_ref()
            .map_or_else(|| not(why), |o| Metric::derived(o.commands.len() as u64)),
        agent_git_commands: a.observation.as_ref().map_or_else(
            || not(why),
            |o| {
                Metric::derived(
                    o.commands
                        .iter()
                        .filter(|c| contract::is_git(&c.classification))
                        .count() as u64,
                )
            },
        ),
        duration_ms: a
            .observation
            .as_ref()
            .map_or_else(|| not(why), |o| o.duration_ms.clone()),
        cue_wall_us: match (&r.cue, cue_used) {
            (Some(c), true) => c.wall_us.clone(),
            _ => not("this arm runs no cue"),
        },
        cue_git_processes: match (&r.cue, cue_used) {
            (Some(c), true) => c.git_processes.clone(),
            _ => not("this arm runs no cue"),
        },
        context_bytes: r.context.as_ref().map(|c| c.bytes),
        context_estimated_tokens: r.context.as_ref().map(|c| util::estimated_tokens(c.bytes)),
        score,
        answer_error,
    }
}

/// The dimensions compared, with how each attempt contributes: `(name, unit, agent value,
/// cue value)`. The cue adds wall time to duration only; its tokens are already inside the
/// agent's input, and its Git processes are reported separately from agent Git commands.
pub type DimensionFn = fn(&AttemptSummary) -> (Option<i64>, Option<i64>);

/// Every compared dimension.
pub fn dimensions() -> Vec<(&'static str, &'static str, DimensionFn)> {
    fn tok(a: &AttemptSummary, f: fn(&Usage) -> &Metric) -> (Option<i64>, Option<i64>) {
        (a.usage.as_ref().and_then(|u| value(f(u))), Some(0))
    }
    vec![
        ("input_tokens", "tokens", |a| tok(a, |u| &u.input_tokens)),
        ("cached_input_tokens", "tokens", |a| {
            tok(a, |u| &u.cached_input_tokens)
        }),
        ("output_tokens", "tokens", |a| tok(a, |u| &u.output_tokens)),
        ("reasoning_output_tokens", "tokens", |a| {
            tok(a, |u| &u.reasoning_output_tokens)
        }),
        ("total_tokens", "tokens", |a| tok(a, |u| &u.total_tokens)),
        ("duration_us", "microseconds", |a| {
            let agent = value(&a.duration_ms).map(|ms| ms * 1000);
            let q = if a.cue_wall_us.status == Status::NotObserved
                && a.cue_wall_us.reason.as_deref() == Some("this arm runs no cue")
            {
                Some(0)
            } else {
                value(&a.cue_wall_us)
            };
            (agent, q)
        }),
        ("tool_calls", "calls", |a| (value(&a.tool_calls), Some(0))),
        ("commands", "commands", |a| (value(&a.commands), Some(0))),
        ("agent_git_commands", "commands", |a| {
            (value(&a.agent_git_commands), Some(0))
        }),
    ]
}

/// Compares `arm` with `baseline` over the pairs where both completed.
pub fn compare(
    attempts: &[AttemptSummary],
    pairs: &[String],
    arm: &str,
    baseline: &str,
) -> Comparison {
    let find = |p: &str, a: &str| {
        attempts
            .iter()
            .find(|x| x.pair_id == p && x.arm == a && x.status == AttemptStatus::Completed)
    };
    let complete: Vec<(&AttemptSummary, &AttemptSummary)> = pairs
        .iter()
        .filter_map(|p| Some((find(p, baseline)?, find(p, arm)?)))
        .collect();
    let dims = dimensions()
        .into_iter()
        .map(|(name, unit, f)| {
            let b: Vec<Option<i64>> = complete
                .iter()
                .map(|(b, _)| {
                    let (v, q) = f(b);
                    Some(v? + q?)
                })
                .collect();
            let a: Vec<Option<i64>> = complete
                .iter()
                .map(|(_, a)| {
                    let (v, q) = f(a);
                    Some(v? + q?)
                })
                .collect();
            let saving: Vec<Option<i64>> =
                b.iter().zip(&a).map(|(b, a)| Some((*b)? - (*a)?)).collect();
            let pct: Vec<Option<i64>> = b
                .iter()
                .zip(&saving)
                .map(|(b, s)| match (b, s) {
                    (Some(b), Some(s)) if *b > 0 => Some(s * 100 / b),
                    _ => None,
                })
                .collect();
            Dimension {
                name: name.into(),
                unit: unit.into(),
                baseline: b,
                arm_with_cue: a,
                saving: stats::paired(&saving),
                saving_percent: stats::paired(&pct),
            }
        })
        .collect();
    let correctness: Vec<Option<i64>> = complete
        .iter()
        .map(|(b, a)| Some(a.score.as_ref()?.passed as i64 - b.score.as_ref()?.passed as i64))
        .collect();
    Comparison {
        arm: arm.into(),
        baseline: baseline.into(),
        complete_pairs: complete.len() as u64,
        dimensions: dims,
        correctness_difference: stats::paired(&correctness),
    }
}

/// Returns `exploratory` for 1–2 complete pairs, `descriptive` for 3 or more.
pub fn sample_grade(pairs: u64) -> Option<String> {
    match pairs {
        0 => None,
        1 | 2 => Some("exploratory".into()),
        _ => Some("descriptive".into()),
    }
}

/// Summarises a set without running anything or writing anything.
pub fn summary(set: &Path) -> Result<Summary> {
    let exp = load(set)?;
    if exp.task_context.is_some() {
        return Err(EvalError::new(
            "wrong_kind",
            format!(
                "{} is a task-context set; summarise it with `repocue evaluate-task summary`",
                exp.experiment_id
            ),
        ));
    }
    verify_frozen(set, &exp)?;
    let (loaded, counts) = load_attempts(set, &exp)?;
    let attempts: Vec<AttemptSummary> = loaded.iter().map(attempt_summary).collect();
    let runner = loaded
        .iter()
        .find_map(|a| a.observation.as_ref().map(|o| o.runner.clone()));
    let pairs: Vec<String> = (1..=exp.pairs).map(|p| format!("pair-{p:02}")).collect();
    let mut comparisons = vec![];
    for arm in exp.arms.iter().filter(|a| a.kind != ArmKind::Direct) {
        comparisons.push(compare(&attempts, &pairs, &arm.name, "direct"));
    }
    for p in exp.arms.iter().filter(|a| a.kind == ArmKind::Placebo) {
        if let Some(m) = &p.matches {
            comparisons.push(compare(&attempts, &pairs, m, &p.name));
        }
    }
    let mut reasons = vec![];
    if counts.completed == 0 {
        reasons.push("no attempt ran an agent (dry run or nothing run yet)".to_owned());
    }
    if runner.as_ref().is_some_and(|r| r.adapter == "synthetic") {
        reasons.push(
            "the synthetic runner fabricates its numbers deterministically; they test the pipeline, not an agent"
                .to_owned(),
        );
    }
    if counts.completed < counts.scheduled {
        reasons.push(format!(
            "{} of {} attempts completed",
            counts.completed, counts.scheduled
        ));
    }
    if attempts.iter().any(|a| a.answer_error.is_some()) {
        reasons.push("some answers could not be scored".to_owned());
    }
    for c in comparisons.iter().filter(|c| c.baseline == "direct") {
        if c.correctness_difference.median.is_some_and(|m| m < 0.0) {
            reasons.push(format!(
                "arm {} answers fewer Git facts correctly than direct (median paired difference {})",
                c.arm,
                c.correctness_difference.median.unwrap_or_default()
            ));
        }
    }
    let complete = comparisons.first().map_or(0, |c| c.complete_pairs);
    Ok(Summary {
        schema_version: SUMMARY_SCHEMA.into(),
        experiment_id: exp.experiment_id.clone(),
        repository: SummaryRepository {
            id: exp.repository.id.clone(),
            name: exp.repository.name.clone(),
        },
        task: exp.task.id.clone(),
        runner,
        counts,
        attempts,
        comparisons,
        verdict: Verdict {
            claim_allowed: reasons.is_empty(),
            sample_grade: sample_grade(complete),
            reasons,
        },
        limitations: vec![
            "token counts are what the agent CLI reported; hidden context, provider request sequences and billing are not observed".into(),
            "duration is a serial sum of agent wall time and cue wall time, not task-ready latency".into(),
            "agent_git_commands counts classified shell commands (a proxy); RepoCue's own Git processes are cue_git_processes".into(),
            "semantic answers are retained in the attempts' runner.stdout for separate assessment and are not scored".into(),
        ],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arms_parse_into_cue_invocations() {
        let a = Arm::parse("structure=cue --view structure --path src/").unwrap();
        assert_eq!(a.kind, ArmKind::Cue);
        assert!(a.argv.contains(&"--no-refresh".to_owned()));
        assert_eq!(a.max_tokens, Some(repocue::DEFAULT_MAX_TOKENS));
        assert_eq!(
            Arm::parse("p=placebo:basic").unwrap().matches.as_deref(),
            Some("basic")
        );
        for bad in [
            "Bad=cue",
            "x=status",
            "x=cue --cache-dir /tmp",
            "direct=cue",
        ] {
            assert!(Arm::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(preset("compare").unwrap().len(), 3);
    }

    #[test]
    fn schedules_alternate_and_seeded_orders_reproducibly() {
        let arms = preset("compare").unwrap();
        let alt = schedule(&arms, 2, "alternate").unwrap();
        let names: Vec<&str> = alt.iter().map(|s| s.arm.as_str()).collect();
        assert_eq!(
            names,
            ["direct", "basic", "placebo", "placebo", "basic", "direct"]
        );
        let a = schedule(&arms, 5, "seeded:7").unwrap();
        assert_eq!(a, schedule(&arms, 5, "seeded:7").unwrap());
        assert_ne!(a, schedule(&arms, 5, "seeded:8").unwrap());
        assert!(schedule(&arms, 1, "random").is_err());
    }

    #[test]
    fn runner_paths_resolve_before_the_working_directory_changes() {
        let rel = resolve_exe(Path::new("src/lib.rs")).unwrap();
        assert!(rel.is_absolute() && rel.ends_with("src/lib.rs"));
        assert!(resolve_exe(Path::new("sh")).unwrap().is_absolute());
        assert_eq!(
            resolve_exe(Path::new("no-such-runner-xyz"))
                .unwrap_err()
                .code,
            "invalid_argument"
        );
    }

    #[test]
    fn placebo_text_matches_the_length_exactly() {
        for n in [0, 1, 100, 1999] {
            let t = placebo_text(n, "pair-01");
            assert_eq!(t.len(), n);
        }
        assert_eq!(placebo_text(500, "x"), placebo_text(500, "x"));
    }
}
