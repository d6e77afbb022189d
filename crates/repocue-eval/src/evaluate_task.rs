//! `evaluate-task`: the overview cue against the task cue on one task, through the one
//! experiment engine. A task set is an [`experiment`] set with two cue arms, `overview` (the
//! baseline) and `task`, a frozen `repocue/task-benchmark-1` and the selector-derived
//! expectation; `run` launches exactly one ordered pair per invocation, and `summary` adds
//! what a task comparison needs on top of the engine's paired statistics: delivery,
//! correctness and compliance as separate outcomes per attempt.

use std::path::{Path, PathBuf};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::contract::{ArmKind, RunnerInfo, RunnerRequest};
use crate::error::{EvalError, Result};
use crate::experiment::{
    self, Arm, AttemptError, AttemptStatus, AttemptSummary, Comparison, Counts, Experiment,
    LoadedAttempt, PrepareOptions, PrepareOutput, RunLimit, RunOutput, RunnerSpec,
    SummaryRepository, TaskContextRef,
};
use crate::stats::{self, Paired};
use crate::taskbench::{
    self, Benchmark, ExpectedSource, Outcome, OutcomeStatus, OVERVIEW_ARM, TASK_ARM,
};

/// Version of the summary.
pub const TASK_SUMMARY_SCHEMA: &str = "repocue/task-summary-1";

/// What `evaluate-task prepare` needs.
#[derive(Debug, Clone)]
pub struct TaskPrepareOptions {
    /// Any directory inside the work tree.
    pub repository: PathBuf,
    /// Parent directory of the new set (outside the repository).
    pub output_directory: PathBuf,
    /// The `repocue/task-benchmark-1` file.
    pub task_file: PathBuf,
    /// Ordered pairs to schedule (one runs per `evaluate-task run`).
    pub pairs: u64,
    /// `alternate` (overview first in odd pairs) or `seeded:<n>`.
    pub order: String,
    /// The `repocue` executable the cues run.
    pub cue_binary: PathBuf,
    /// Runner wall-clock limit per attempt.
    pub timeout_seconds: u64,
}

/// Freezes a task set: the benchmark, both cue invocations (run once here, kept as
/// evidence), the expectation derived from the task cue, and the pair schedule.
pub fn prepare(opts: &TaskPrepareOptions) -> Result<PrepareOutput> {
    let (benchmark, bytes) = Benchmark::load(&opts.task_file)?;
    let arm = |name: &str, argv: Vec<String>| Arm {
        name: name.into(),
        kind: ArmKind::Cue,
        argv,
        matches: None,
        max_tokens: Some(benchmark.max_tokens),
    };
    let arms = vec![
        arm(OVERVIEW_ARM, benchmark.overview_argv()),
        arm(TASK_ARM, benchmark.task_argv()),
    ];
    experiment::prepare(&PrepareOptions {
        repository: opts.repository.clone(),
        output_directory: opts.output_directory.clone(),
        arms,
        pairs: opts.pairs,
        order: opts.order.clone(),
        task_file: None,
        cue_binary: opts.cue_binary.clone(),
        timeout_seconds: opts.timeout_seconds,
        task_context: Some((benchmark, bytes)),
    })
}

/// Launches the next ordered pair of a task set (both arms, in the recorded order; a failed
/// first arm stops the pair). Never a second pair, never a retry or a continuation.
pub fn run(set: &Path, runner: &RunnerSpec) -> Result<RunOutput> {
    let exp = experiment::load(set)?;
    if exp.task_context.is_none() {
        return Err(EvalError::new(
            "wrong_kind",
            format!(
                "{} is not a task-context set; use `repocue experiment run`",
                exp.experiment_id
            ),
        ));
    }
    experiment::run(set, Some(runner), RunLimit::NextPair)
}

/// A read-only summary of a task set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TaskSummary {
    /// [`TASK_SUMMARY_SCHEMA`].
    pub schema_version: String,
    /// The set.
    pub experiment_id: String,
    /// Repository id and name.
    pub repository: SummaryRepository,
    /// The task and its selector-derived expectation.
    pub task: TaskFacts,
    /// Runner settings shared by the completed attempts.
    pub runner: Option<RunnerInfo>,
    /// Scheduled, completed, failed and not-yet-run attempts.
    pub counts: Counts,
    /// Every attempt in schedule order (failed ones included), with its position in its pair.
    pub attempts: Vec<TaskAttempt>,
    /// The task arm against the overview arm over complete pairs: per metric the per-pair
    /// values, the saving `overview − task` per pair, its median and range, and coverage
    /// (`count` of `pairs` known).
    pub comparison: Comparison,
    /// Per complete pair, task correctness minus overview correctness (1 passed, 0 failed);
    /// unknown where either is not observed.
    pub correctness_difference: Paired,
    /// Whether the task cue may be said to improve on the overview, and why not.
    pub verdict: TaskVerdict,
    /// What the numbers do not cover.
    pub limitations: Vec<String>,
}

/// The task of a set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TaskFacts {
    /// Task id from the benchmark.
    pub task_id: String,
    /// Task kind.
    pub task_kind: repocue::api::task::TaskKind,
    /// Declaration path.
    pub declaration: String,
    /// `sha256:` of the declaration at preparation.
    pub declaration_digest: String,
    /// Targets.
    pub targets: Vec<String>,
    /// Common budget of both cues.
    pub max_tokens: u64,
    /// Selected required item ids.
    pub required_ids: Vec<String>,
    /// Sources of the required items.
    pub required_sources: Vec<ExpectedSource>,
}

/// One attempt of a task set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TaskAttempt {
    /// `<pair>/<arm>`.
    pub attempt_id: String,
    /// Pair.
    pub pair_id: String,
    /// `overview` or `task`.
    pub arm: String,
    /// 1-based position within its pair (the recorded order).
    pub position: u64,
    /// How the attempt ended (failures are retained, never retried).
    pub status: AttemptStatus,
    /// Failure code and message.
    pub error: Option<AttemptError>,
    /// Whether the arm's context reached the agent.
    pub delivery: Delivery,
    /// Whether the answer is right, by task kind.
    pub correctness: Outcome,
    /// Whether the agent followed the delivered instructions.
    pub compliance: Outcome,
    /// The engine's numbers for the attempt (usage, tool calls, duration, cue cost).
    pub metrics: AttemptSummary,
}

/// Whether an arm's context reached the agent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Delivery {
    /// `complete`: the exact cue bytes are in the prompt (for the task arm, with every
    /// required item and source); `incomplete`; `unknown` when no cue ran.
    pub status: DeliveryStatus,
    /// Whether the prompt holds the exact bytes the cue printed.
    pub cue_in_prompt: Option<bool>,
    /// Required item ids the context does not carry (the overview carries none).
    pub required_ids_missing: Vec<String>,
    /// Required source ids the context does not carry with matching text.
    pub required_sources_missing: Vec<String>,
}

/// A delivery status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DeliveryStatus {
    /// Everything the arm promises reached the agent.
    Complete,
    /// Something is missing; see the lists.
    Incomplete,
    /// Nothing to check: the attempt failed before its cue ran.
    Unknown,
}

/// The verdict of a task set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TaskVerdict {
    /// `improved`, `not_improved` or `unavailable`.
    pub outcome: VerdictOutcome,
    /// The cost compared: `total_tokens` (credit rates are not applied yet).
    pub cost_dimension: String,
    /// `exploratory` (1–2 complete pairs) or `descriptive` (≥ 3); never significance.
    pub sample_grade: Option<String>,
    /// Why the verdict is unavailable or not an improvement.
    pub reasons: Vec<String>,
}

/// A verdict outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum VerdictOutcome {
    /// The paired-median cost saving is positive and every task answer is correct.
    Improved,
    /// The evidence is complete, but the task cue is not cheaper or not as correct.
    NotImproved,
    /// The evidence cannot support a verdict; `reasons` says why.
    Unavailable,
}

/// Summarises a task set without running anything or writing anything.
pub fn summary(set: &Path) -> Result<TaskSummary> {
    let exp = experiment::load(set)?;
    let Some(tc) = exp.task_context.clone() else {
        return Err(EvalError::new(
            "wrong_kind",
            format!(
                "{} is not a task-context set; use `repocue experiment summary`",
                exp.experiment_id
            ),
        ));
    };
    experiment::verify_frozen(set, &exp)?;
    experiment::read_ref(set, &tc.benchmark, "task_context.benchmark")?;
    for c in &tc.cues {
        experiment::read_ref(set, c, "task_context.cues")?;
    }
    let (loaded, counts) = experiment::load_attempts(set, &exp)?;
    let mut attempts = Vec::with_capacity(loaded.len());
    for a in &loaded {
        attempts.push(task_attempt(set, &exp, &tc, a)?);
    }
    let metrics: Vec<AttemptSummary> = attempts.iter().map(|a| a.metrics.clone()).collect();
    let pairs: Vec<String> = (1..=exp.pairs).map(|p| format!("pair-{p:02}")).collect();
    let comparison = experiment::compare(&metrics, &pairs, TASK_ARM, OVERVIEW_ARM);
    let correctness_difference = stats::paired(&correctness_per_pair(&attempts, &pairs));
    let runner = loaded
        .iter()
        .find_map(|a| a.observation.as_ref().map(|o| o.runner.clone()));
    let verdict = verdict(
        &tc,
        &attempts,
        &comparison,
        exp.pairs,
        runner.as_ref().is_some_and(|r| r.adapter == "synthetic"),
    );
    Ok(TaskSummary {
        schema_version: TASK_SUMMARY_SCHEMA.into(),
        experiment_id: exp.experiment_id.clone(),
        repository: SummaryRepository {
            id: exp.repository.id.clone(),
            name: exp.repository.name.clone(),
        },
        task: TaskFacts {
            task_id: exp.task.id.clone(),
            task_kind: tc.task_kind,
            declaration: tc.declaration.clone(),
            declaration_digest: tc.expectation.declaration_digest.clone(),
            targets: tc.targets.clone(),
            max_tokens: tc.max_tokens,
            required_ids: tc.expectation.required_ids.clone(),
            required_sources: tc.expectation.required_sources.clone(),
        },
        runner,
        counts,
        attempts,
        comparison,
        correctness_difference,
        verdict,
        limitations: vec![
            "token counts are what the agent CLI reported; hidden context, provider request sequences and billing are not observed".into(),
            "cost is compared in total tokens: credit or USD rates are not applied to task sets".into(),
            "compliance needs an independent assessment bound to each attempt; none is read yet, so it is not_observed".into(),
            "duration is a serial sum of agent and cue wall time, not task-ready latency".into(),
        ],
    })
}

/// Builds the outcomes of one attempt from its retained files.
fn task_attempt(
    set: &Path,
    exp: &Experiment,
    tc: &TaskContextRef,
    a: &LoadedAttempt,
) -> Result<TaskAttempt> {
    let r = &a.record;
    let position = exp
        .schedule
        .iter()
        .find(|s| s.attempt_id == r.attempt_id)
        .map_or(0, |s| s.position);
    let request: Option<RunnerRequest> = match &r.request {
        Some(f) => Some(crate::strict::parse(
            &experiment::read_ref(set, f, "request")?,
            &f.path,
        )?),
        None => None,
    };
    let context = match &r.context {
        Some(f) => Some(experiment::read_ref(set, f, "context")?),
        None => None,
    };
    let delivery = delivery(tc, r, context.as_deref(), request.as_ref())?;
    let correctness = match (r.status, &a.observation) {
        (AttemptStatus::Completed, Some(o)) => correctness(tc, o.answer.as_ref()),
        _ => Outcome::not_observed("the attempt did not complete"),
    };
    Ok(TaskAttempt {
        attempt_id: r.attempt_id.clone(),
        pair_id: r.pair_id.clone(),
        arm: r.arm.clone(),
        position,
        status: r.status,
        error: r.error.clone(),
        delivery,
        correctness,
        compliance: Outcome::not_observed(
            "instruction compliance needs an independent assessment bound to this attempt",
        ),
        metrics: experiment::attempt_summary(a),
    })
}

/// Checks that the arm's context reached the agent whole.
fn delivery(
    tc: &TaskContextRef,
    r: &experiment::AttemptRecord,
    context: Option<&[u8]>,
    request: Option<&RunnerRequest>,
) -> Result<Delivery> {
    let Some(context) = context else {
        return Ok(Delivery {
            status: DeliveryStatus::Unknown,
            cue_in_prompt: None,
            required_ids_missing: vec![],
            required_sources_missing: vec![],
        });
    };
    let same_as_cue = r
        .cue
        .as_ref()
        .zip(r.context.as_ref())
        .is_some_and(|(c, f)| c.stdout_sha256 == f.sha256);
    let text = std::str::from_utf8(context).ok();
    // The prompt is compared after JSON decoding (the request is JSON): escaping never
    // counts as a change.
    let cue_in_prompt = match (request, text) {
        (Some(req), Some(t)) => Some(same_as_cue && req.prompt.contains(t)),
        _ => None,
    };
    let got = taskbench::delivered(context)?;
    let required_ids_missing: Vec<String> = tc
        .expectation
        .required_ids
        .iter()
        .filter(|id| !got.required_ids.contains(*id))
        .cloned()
        .collect();
    let declaration_ok =
        got.declaration_digest.as_deref() == Some(tc.expectation.declaration_digest.as_str());
    let required_sources_missing: Vec<String> = tc
        .expectation
        .required_sources
        .iter()
        .filter(|s| !declaration_ok || !got.sources.contains(*s))
        .map(|s| s.id.clone())
        .collect();
    let complete = cue_in_prompt == Some(true)
        && (r.arm != TASK_ARM
            || (required_ids_missing.is_empty() && required_sources_missing.is_empty()));
    Ok(Delivery {
        status: match (cue_in_prompt, complete) {
            (None, _) => DeliveryStatus::Unknown,
            (_, true) => DeliveryStatus::Complete,
            (_, false) => DeliveryStatus::Incomplete,
        },
        cue_in_prompt,
        required_ids_missing,
        required_sources_missing,
    })
}

/// Scores an answer by task kind: discovery answers must name exactly the selector-derived
/// required items and their sources.
fn correctness(tc: &TaskContextRef, answer: Option<&serde_json::Value>) -> Outcome {
    use repocue::api::task::TaskKind;
    match tc.task_kind {
        TaskKind::Explanation => {
            return Outcome::not_observed("explanation answers need an independent assessment")
        }
        TaskKind::Verification => {
            return Outcome::not_observed(
                "verification needs completion evidence for each frozen check command, which the runner contract does not carry yet",
            )
        }
        TaskKind::Discovery => {}
    }
    let Some(value) = answer else {
        return Outcome::failed("the agent gave no answer");
    };
    match taskbench::check_discovery(&tc.expectation, value) {
        Ok(()) => Outcome::passed(),
        Err(why) => Outcome::failed(why),
    }
}

/// Task minus overview correctness per pair (1 passed, 0 failed), unknown unless both are
/// observed.
fn correctness_per_pair(attempts: &[TaskAttempt], pairs: &[String]) -> Vec<Option<i64>> {
    let score = |p: &str, arm: &str| {
        let a = attempts.iter().find(|a| a.pair_id == p && a.arm == arm)?;
        match a.correctness.status {
            OutcomeStatus::Passed => Some(1),
            OutcomeStatus::Failed => Some(0),
            OutcomeStatus::NotObserved => None,
        }
    };
    pairs
        .iter()
        .map(|p| Some(score(p, TASK_ARM)? - score(p, OVERVIEW_ARM)?))
        .collect()
}

/// Decides the verdict: available only for complete pairs with complete task delivery and
/// observed correctness, from a real agent; then `improved` iff the paired-median token
/// saving is positive and every task answer is correct.
fn verdict(
    tc: &TaskContextRef,
    attempts: &[TaskAttempt],
    cmp: &Comparison,
    scheduled_pairs: u64,
    synthetic: bool,
) -> TaskVerdict {
    let mut reasons = vec![];
    if synthetic {
        reasons.push(
            "the synthetic runner fabricates its numbers deterministically; they test the pipeline, not an agent"
                .to_owned(),
        );
    }
    if cmp.complete_pairs < scheduled_pairs {
        reasons.push(format!(
            "{} of {scheduled_pairs} pairs are complete",
            cmp.complete_pairs
        ));
    }
    let task_arms = || attempts.iter().filter(|a| a.arm == TASK_ARM);
    if task_arms().any(|a| a.delivery.status != DeliveryStatus::Complete) {
        reasons.push("the task cue did not reach every task attempt whole".to_owned());
    }
    if let Some(a) = task_arms().find(|a| a.correctness.status == OutcomeStatus::NotObserved) {
        reasons.push(format!(
            "correctness of {} is not observed: {}",
            a.attempt_id,
            a.correctness.reason.as_deref().unwrap_or("no evidence")
        ));
    }
    let saving = cmp
        .dimensions
        .iter()
        .find(|d| d.name == "total_tokens")
        .and_then(|d| d.saving.median);
    let outcome = if !reasons.is_empty() || tc.expectation.required_ids.is_empty() {
        if tc.expectation.required_ids.is_empty() {
            reasons.push("the selector derived no required item for this task".to_owned());
        }
        VerdictOutcome::Unavailable
    } else {
        let all_correct = task_arms().all(|a| a.correctness.status == OutcomeStatus::Passed);
        if !all_correct {
            reasons.push("a task-arm answer is wrong".to_owned());
        }
        match saving {
            Some(m) if m > 0.0 && all_correct => VerdictOutcome::Improved,
            Some(m) => {
                if m <= 0.0 {
                    reasons.push(format!("the paired-median total-token saving is {m}"));
                }
                VerdictOutcome::NotImproved
            }
            None => {
                reasons.push("no pair has known total tokens for both arms".to_owned());
                VerdictOutcome::Unavailable
            }
        }
    };
    TaskVerdict {
        outcome,
        cost_dimension: "total_tokens".into(),
        sample_grade: experiment::sample_grade(cmp.complete_pairs),
        reasons,
    }
}

#[cfg(test)]
mod tests;
