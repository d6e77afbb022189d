//! `calibration import`: validates one or more complete experiment sets against this
//! checkout and binds their numbers to its current epoch and snapshot as an immutable
//! artifact (`calibrations/calibration-<sha256>.json` beside `state.db`) plus a reference
//! row. Every check runs before anything is written; a failure names the failing field and
//! publishes nothing. Re-importing the same input under the same binding is a no-op.

use std::path::{Path, PathBuf};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::contract::{self, ArmKind, Metric, RunnerInfo};
use crate::db::{self, Profile};
use crate::error::{EvalError, Result};
use crate::experiment::{self, AttemptStatus, AttemptSummary, LoadedAttempt};
use crate::facts::{self, Score};
use crate::util;

/// Version of the artifact.
pub const CALIBRATION_SCHEMA: &str = "repocue/calibration-1";

/// The immutable calibration artifact: numbers and digests only — no answers, prompts or
/// absolute paths.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Calibration {
    /// [`CALIBRATION_SCHEMA`].
    pub schema_version: String,
    /// `calibration-<sha256 hex>`.
    pub calibration_id: String,
    /// `exploratory` (1–2 pairs) or `descriptive` (≥ 3).
    pub sample_grade: String,
    /// Pairs.
    pub pair_count: u64,
    /// Whether the runs came from the synthetic runner (pipeline check, not evidence).
    pub synthetic: bool,
    /// What the numbers are bound to.
    pub binding: Binding,
    /// The evidence, by digest.
    pub sources: Vec<SourceSet>,
    /// Frozen settings every pair shares.
    pub contracts: Contracts,
    /// The bound snapshot's size and languages.
    pub profile: Profile,
    /// Per pair: direct and assisted agent numbers, cue cost, correctness.
    pub pairs: Vec<CalibrationPair>,
    /// What these numbers do not cover.
    pub limitations: Vec<String>,
}

/// The local binding of a calibration.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Binding {
    /// Repository id.
    pub repository_id: String,
    /// Epoch id.
    pub epoch: String,
    /// Snapshot id.
    pub snapshot: String,
    /// Fingerprint algorithm.
    pub fingerprint_algorithm: String,
    /// Content fingerprint of the checkout the runs saw.
    pub content_fingerprint: String,
    /// Latest evidence capture time of the runs.
    pub bound_at: String,
}

/// One imported set, by digest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SourceSet {
    /// Experiment id.
    pub experiment_id: String,
    /// `sha256:` of its experiment.json.
    pub manifest_sha256: String,
    /// `sha256:` of each used attempt record, in pair order.
    pub attempt_records: Vec<String>,
}

/// Settings shared by every pair.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Contracts {
    /// Runner and model.
    pub runner: RunnerInfo,
    /// The assisted arm's name.
    pub assisted_arm: String,
    /// Its repocue arguments.
    pub assisted_argv: Vec<String>,
    /// Its cue budget.
    pub max_tokens: Option<u64>,
    /// Task id.
    pub task: String,
    /// Answer schema.
    pub answer_schema: String,
    /// `sha256:` of the repocue executable that produced the cues.
    pub cue_binary_sha256: String,
    /// Its `--version`.
    pub cue_binary_version: String,
    /// `sha256:` over all of the above.
    pub contract_digest: String,
}

/// Numbers of one agent attempt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Sample {
    /// Input tokens.
    pub input_tokens: Metric,
    /// Cached input tokens.
    pub cached_input_tokens: Metric,
    /// Output tokens.
    pub output_tokens: Metric,
    /// Reasoning output tokens.
    pub reasoning_output_tokens: Metric,
    /// Total tokens.
    pub total_tokens: Metric,
    /// Agent wall time, ms.
    pub duration_ms: Metric,
    /// Tool calls.
    pub tool_calls: Metric,
    /// Shell commands.
    pub commands: Metric,
    /// Shell commands classified as Git (a proxy).
    pub agent_git_commands: Metric,
}

/// The cue cost Q of one pair.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CueCost {
    /// Full-process wall time, µs.
    pub wall_us: Metric,
    /// Git processes (Trace2).
    pub git_processes: Metric,
    /// Bytes handed to the agent.
    pub bytes: u64,
    /// `ceil(bytes/4)` (diagnostic; the tokens are inside the assisted input).
    pub estimated_tokens: u64,
}

/// One calibration pair.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CalibrationPair {
    /// `<experiment>/<pair>`.
    pub pair_id: String,
    /// Direct arm.
    pub direct: Sample,
    /// Assisted arm.
    pub assisted: Sample,
    /// Cue cost.
    pub cue: CueCost,
    /// Git facts of the direct answer.
    pub direct_score: Score,
    /// Git facts of the assisted answer.
    pub assisted_score: Score,
}

/// What `calibration import` prints.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ImportOutput {
    /// `repocue/calibration-import-1`.
    pub schema_version: String,
    /// Id.
    pub calibration_id: String,
    /// Artifact path relative to the repository's cache directory.
    pub artifact: String,
    /// `sha256:` of the artifact.
    pub artifact_sha256: String,
    /// Whether this import wrote it (`false`: it already existed, nothing was written).
    pub created: bool,
    /// Sample grade.
    pub sample_grade: String,
    /// Pairs.
    pub pair_count: u64,
    /// Binding.
    pub binding: Binding,
}

fn sample(a: &AttemptSummary) -> Sample {
    let u = a.usage.clone().expect("completed attempts have usage");
    Sample {
        input_tokens: u.input_tokens,
        cached_input_tokens: u.cached_input_tokens,
        output_tokens: u.output_tokens,
        reasoning_output_tokens: u.reasoning_output_tokens,
        total_tokens: u.total_tokens,
        duration_ms: a.duration_ms.clone(),
        tool_calls: a.tool_calls.clone(),
        commands: a.commands.clone(),
        agent_git_commands: a.agent_git_commands.clone(),
    }
}

fn incompatible(field: &str, a: impl std::fmt::Debug, b: impl std::fmt::Debug) -> EvalError {
    EvalError::new(
        "incompatible_reports",
        format!("{field} differs between the imported runs: {a:?} vs {b:?}"),
    )
}

/// Validates `sets` and imports them as one calibration bound to the current snapshot.
pub fn import(opts: &repocue::Options, sets: &[PathBuf], assisted: &str) -> Result<ImportOutput> {
    if sets.is_empty() {
        return Err(EvalError::arg("give at least one --set"));
    }
    let service = repocue::Service::open(opts)?;
    let (epoch, snapshot) = service
        .calibration_binding()?
        .ok_or_else(|| EvalError::new("not_initialized", "the repository has no snapshot yet"))?;
    let status = service.status()?;
    let fresh = status.freshness.as_str();
    if fresh != "current" && fresh != "dirty-but-indexed" {
        return Err(EvalError::new(
            "refresh_needed",
            format!("the cache is {fresh}; run `repocue refresh` first"),
        )
        .hint("a calibration binds to the maintained snapshot, which must match the checkout"));
    }
    let live = facts::capture_fingerprint(service.root())?;
    if !live.complete {
        return Err(EvalError::new(
            "evidence_incomplete",
            format!("unreadable entries: {}", live.unreadable.join("; ")),
        ));
    }
    let mut pairs = vec![];
    let mut sources = vec![];
    let mut contracts: Option<Contracts> = None;
    let mut bound_at = String::new();
    let mut synthetic = false;
    for set in sets {
        let set = set
            .canonicalize()
            .map_err(|e| EvalError::arg(format!("--set {}: {e}", set.display())))?;
        let (c, mut p, src, latest, synth) =
            validate_set(&set, assisted, service.repo_id(), &live.value)?;
        if let Some(prev) = &contracts {
            for (field, a, b) in [
                (
                    "runner",
                    format!("{:?}", prev.runner),
                    format!("{:?}", c.runner),
                ),
                (
                    "cue budget",
                    format!("{:?}", prev.max_tokens),
                    format!("{:?}", c.max_tokens),
                ),
                (
                    "assisted arm",
                    format!("{:?}", prev.assisted_argv),
                    format!("{:?}", c.assisted_argv),
                ),
                ("task", prev.task.clone(), c.task.clone()),
                (
                    "cue binary",
                    prev.cue_binary_sha256.clone(),
                    c.cue_binary_sha256.clone(),
                ),
            ] {
                if a != b {
                    return Err(incompatible(field, a, b));
                }
            }
        }
        if src.experiment_id.is_empty()
            || sources
                .iter()
                .any(|s: &SourceSet| s.experiment_id == src.experiment_id)
        {
            return Err(EvalError::new(
                "bad_reference",
                format!("set {} is given twice", src.experiment_id),
            ));
        }
        bound_at = bound_at.max(latest);
        synthetic |= synth;
        contracts = Some(c);
        pairs.append(&mut p);
        sources.push(src);
    }
    let contracts = contracts.expect("at least one set");
    let conn = db::open(&service.db_path())?;
    let profile = db::profile(&conn, epoch, snapshot)?;
    drop(conn);
    let binding = Binding {
        repository_id: service.repo_id().to_owned(),
        epoch: repocue::api::EpochId(epoch).to_string(),
        snapshot: repocue::api::SnapshotId(snapshot).to_string(),
        fingerprint_algorithm: live.algorithm.clone(),
        content_fingerprint: live.value.clone(),
        bound_at,
    };
    let id_input = serde_json::to_vec(&(&sources, &binding, &contracts.contract_digest))
        .expect("id input serializes");
    let calibration_id = format!("calibration-{}", util::hex_sha256(&id_input));
    let pair_count = pairs.len() as u64;
    let sample_grade = experiment::sample_grade(pair_count).expect("at least one pair");
    let mut limitations = vec![
        "agent numbers are dated evidence of one model, task and checkout; they are not re-measured for later snapshots".to_owned(),
        "duration is a serial projection (agent wall time + cue wall time), not task-ready latency".to_owned(),
        "agent_git_commands counts classified shell commands, a proxy; RepoCue Git processes are counted separately".to_owned(),
        "semantic quality is not assessed (quality-not-assessed)".to_owned(),
    ];
    if synthetic {
        limitations.insert(
            0,
            "synthetic: the runs came from the deterministic synthetic runner; the numbers check the pipeline and prove nothing".to_owned(),
        );
    }
    let cal = Calibration {
        schema_version: CALIBRATION_SCHEMA.into(),
        calibration_id: calibration_id.clone(),
        sample_grade: sample_grade.clone(),
        pair_count,
        synthetic,
        binding: binding.clone(),
        sources,
        contracts: contracts.clone(),
        profile,
        pairs,
        limitations,
    };
    let bytes = util::pretty(&cal);
    let artifact_sha256 = util::digest(&bytes);
    let rel = format!("calibrations/{calibration_id}.json");
    let repo_dir = service
        .db_path()
        .parent()
        .map(Path::to_owned)
        .unwrap_or_default();
    let path = repo_dir.join(&rel);
    let mut created = false;
    if path.exists() {
        let existing = util::file_digest(&path)?;
        if existing != artifact_sha256 {
            return Err(EvalError::new(
                "corrupt_cache",
                format!(
                    "{} exists with digest {existing}, expected {artifact_sha256}",
                    path.display()
                ),
            ));
        }
    } else {
        let dir = repo_dir.join("calibrations");
        std::fs::create_dir_all(&dir).map_err(|e| EvalError::io(&dir, e))?;
        util::write_atomic(&path, &bytes)?;
        if util::file_digest(&path)? != artifact_sha256 {
            return Err(EvalError::new(
                "io_error",
                format!("{} did not read back", path.display()),
            ));
        }
        created = true;
    }
    let inserted = service.record_calibration(&repocue::CalibrationReference {
        calibration_id: calibration_id.clone(),
        epoch,
        snapshot,
        artifact_path: rel.clone(),
        artifact_digest: artifact_sha256.clone(),
        bound_at: binding.bound_at.clone(),
        content_fingerprint: binding.content_fingerprint.clone(),
        fingerprint_algorithm: binding.fingerprint_algorithm.clone(),
        contract_digest: contracts.contract_digest.clone(),
        model: contracts.runner.model.clone(),
        benchmark: contracts.task.clone(),
        created_at: util::now(),
    })?;
    Ok(ImportOutput {
        schema_version: "repocue/calibration-import-1".into(),
        calibration_id,
        artifact: rel,
        artifact_sha256,
        created: created || inserted,
        sample_grade,
        pair_count,
        binding,
    })
}

type Validated = (Contracts, Vec<CalibrationPair>, SourceSet, String, bool);

fn validate_set(set: &Path, assisted: &str, repo_id: &str, live: &str) -> Result<Validated> {
    let exp = experiment::load(set)?;
    let manifest_sha256 = util::file_digest(&set.join("experiment.json"))?;
    if exp.repository.id != repo_id {
        return Err(EvalError::new(
            "evidence_mismatch",
            format!(
                "repository.id: the set was measured on {} ({}), this checkout is {repo_id}",
                exp.repository.id, exp.repository.name
            ),
        )
        .hint("calibrations never transfer between checkouts; measure this one"));
    }
    if exp.task_context.is_some() {
        return Err(EvalError::new(
            "incompatible_reports",
            format!(
                "{}: task-context evidence (evaluate-task) cannot enter a calibration",
                exp.experiment_id
            ),
        ));
    }
    let arm = exp
        .arms
        .iter()
        .find(|a| a.name == assisted && a.kind == ArmKind::Cue)
        .ok_or_else(|| {
            EvalError::new(
                "incompatible_reports",
                format!("arms: the set has no cue arm named {assisted:?}"),
            )
        })?;
    experiment::verify_frozen(set, &exp)?;
    let (loaded, _) = experiment::load_attempts(set, &exp)?;
    let find = |pair: &str, arm: &str| -> Result<&LoadedAttempt> {
        let a = loaded
            .iter()
            .find(|a| a.record.pair_id == pair && a.record.arm == arm)
            .ok_or_else(|| {
                EvalError::new(
                    "incomplete_set",
                    format!("missing pair: {pair}/{arm} has no attempt record"),
                )
            })?;
        match a.record.status {
            AttemptStatus::Completed => Ok(a),
            AttemptStatus::DryRun => Err(EvalError::new(
                "dry_run_report",
                format!("{pair}/{arm} is a dry run; dry runs carry no agent evidence"),
            )),
            AttemptStatus::Failed => Err(EvalError::new(
                "incomplete_set",
                format!("missing pair: {pair}/{arm} failed and is not retried"),
            )),
        }
    };
    let mut runner: Option<RunnerInfo> = None;
    let mut pairs = vec![];
    let mut records = vec![];
    let mut latest = String::new();
    for p in 1..=exp.pairs {
        let pair = format!("pair-{p:02}");
        let d = find(&pair, "direct")?;
        let a = find(&pair, assisted)?;
        for x in [d, a] {
            let r = &x.record;
            let o = x
                .observation
                .as_ref()
                .expect("completed attempts have observations");
            match &runner {
                None => runner = Some(o.runner.clone()),
                Some(first) if first != &o.runner => {
                    let field = if first.model != o.runner.model {
                        "runner.model"
                    } else {
                        "runner settings"
                    };
                    return Err(incompatible(field, &first.model, &o.runner.model));
                }
                _ => {}
            }
            let (Some(pre), Some(post)) = (&r.pre, &r.post) else {
                return Err(EvalError::new(
                    "invalid_evidence",
                    format!("{}: pre/post fingerprints missing", r.attempt_id),
                ));
            };
            if pre.value != post.value || pre.value != exp.fingerprint.value {
                return Err(EvalError::new(
                    "evidence_mismatch",
                    format!("{}: the repository changed around the run", r.attempt_id),
                ));
            }
            latest = latest.max(post.captured_at.clone());
            records.push(util::file_digest(&set.join(format!(
                "attempts/{}/record.json",
                r.attempt_id.replace('/', "_")
            )))?);
        }
        let cue = a.record.cue.as_ref().ok_or_else(|| {
            EvalError::new(
                "invalid_evidence",
                format!("{pair}/{assisted}: no cue measurement"),
            )
        })?;
        let ctx = a.record.context.as_ref().ok_or_else(|| {
            EvalError::new("invalid_evidence", format!("{pair}/{assisted}: no context"))
        })?;
        if cue.stdout_sha256 != ctx.sha256 || cue.exit_status != Some(0) {
            return Err(EvalError::new(
                "invalid_evidence",
                format!("{pair}/{assisted}: the delivered context is not the measured cue output"),
            ));
        }
        let pre_at = a
            .record
            .pre
            .as_ref()
            .map(|f| f.captured_at.as_str())
            .unwrap_or("");
        match (
            util::parse_utc_ms(&cue.finished_at),
            util::parse_utc_ms(pre_at),
        ) {
            (Some(f), Some(p)) if f <= p => {}
            _ => {
                return Err(EvalError::new(
                    "invalid_evidence",
                    format!("{pair}/{assisted}: the cue did not finish before the pre-run capture"),
                ))
            }
        }
        let (ds, as_) = (
            experiment::attempt_summary(d),
            experiment::attempt_summary(a),
        );
        let score = |s: &AttemptSummary| -> Result<Score> {
            s.score.clone().ok_or_else(|| {
                EvalError::new(
                    "invalid_answer",
                    format!(
                        "{}: {}",
                        s.attempt_id,
                        s.answer_error
                            .clone()
                            .unwrap_or_else(|| "no scorable answer".into())
                    ),
                )
            })
        };
        pairs.push(CalibrationPair {
            pair_id: format!("{}/{pair}", exp.experiment_id),
            direct: sample(&ds),
            assisted: sample(&as_),
            cue: CueCost {
                wall_us: cue.wall_us.clone(),
                git_processes: cue.git_processes.clone(),
                bytes: cue.stdout_bytes,
                estimated_tokens: cue.estimated_tokens,
            },
            direct_score: score(&ds)?,
            assisted_score: score(&as_)?,
        });
    }
    if exp.fingerprint.value != live {
        return Err(EvalError::new(
            "evidence_mismatch",
            "content_fingerprint: the checkout differs from the one the runs saw (tracked or untracked content changed)",
        )
        .hint("calibrate against the checkout as it is now: prepare and run a new set"));
    }
    let runner = runner.expect("at least one pair");
    let synthetic = runner.adapter == "synthetic";
    let mut c = Contracts {
        runner,
        assisted_arm: arm.name.clone(),
        assisted_argv: arm.argv.clone(),
        max_tokens: arm.max_tokens,
        task: exp.task.id.clone(),
        answer_schema: contract::ANSWER_SCHEMA.into(),
        cue_binary_sha256: exp.cue_binary.sha256.clone(),
        cue_binary_version: exp.cue_binary.version.clone(),
        contract_digest: String::new(),
    };
    c.contract_digest = util::digest(&serde_json::to_vec(&c).expect("contracts serialize"));
    Ok((
        c,
        pairs,
        SourceSet {
            experiment_id: exp.experiment_id.clone(),
            manifest_sha256,
            attempt_records: records,
        },
        latest,
        synthetic,
    ))
}

/// Reads and verifies an artifact against its reference digest.
pub fn load_artifact(repo_dir: &Path, r: &db::Reference) -> Result<Calibration> {
    let rel_ok = r.artifact_path.starts_with("calibrations/")
        && !r.artifact_path.contains("..")
        && !r.artifact_path.starts_with('/');
    if !rel_ok {
        return Err(EvalError::new(
            "corrupt_cache",
            format!(
                "calibration {} has artifact path {:?}",
                r.calibration_id, r.artifact_path
            ),
        ));
    }
    let path = repo_dir.join(&r.artifact_path);
    let bytes = std::fs::read(&path).map_err(|e| {
        EvalError::new(
            "artifact_missing",
            format!("calibration {}: {}: {e}", r.calibration_id, path.display()),
        )
        .hint("re-import the retained experiment sets with `repocue calibration import`")
    })?;
    let d = util::digest(&bytes);
    if d != r.artifact_digest {
        return Err(EvalError::new(
            "artifact_tampered",
            format!(
                "calibration {}: artifact digest {d} differs from the recorded {}",
                r.calibration_id, r.artifact_digest
            ),
        ));
    }
    let cal: Calibration = crate::strict::parse(&bytes, &r.artifact_path)?;
    if cal.calibration_id != r.calibration_id || cal.schema_version != CALIBRATION_SCHEMA {
        return Err(EvalError::new(
            "artifact_tampered",
            format!(
                "{}: id or schema does not match its reference",
                r.artifact_path
            ),
        ));
    }
    Ok(cal)
}
