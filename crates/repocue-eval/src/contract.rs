//! The runner contract: one versioned request file in (`REPOCUE_RUNNER_REQUEST=<path>`), one
//! observation JSON value out on stdout, and the answer shape agents are asked for.
//!
//! A runner is any executable: the deterministic synthetic runner, the Codex CLI adapter, the
//! Claude Code adapter, or the operator's own. The engine validates every observation with
//! [`validate_observation`] before it counts.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::{EvalError, Result};

/// Version of the request file.
pub const REQUEST_SCHEMA: &str = "repocue/eval-runner-request-1";
/// Version of the observation a runner prints.
pub const OBSERVATION_SCHEMA: &str = "repocue/eval-runner-1";
/// Version of the answer agents produce.
pub const ANSWER_SCHEMA: &str = "repocue/eval-answer-1";
/// Version of the answer agents produce in a task-context experiment (`evaluate-task`).
pub const TASK_ANSWER_SCHEMA: &str = "repocue/task-answer-1";
/// Environment variable naming the request file.
pub const REQUEST_ENV: &str = "REPOCUE_RUNNER_REQUEST";
/// The instruction given to every assisted arm (and the placebo arm), before the context.
pub const INSTRUCTION: &str = "Use the supplied repository context first; inspect the repository \
whenever it is incomplete, uncertain or insufficient. Do not modify any file, ref, index or \
configuration.";

/// How a value was obtained.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Read directly from a process, event stream, clock or the store.
    Observed,
    /// Computed from observed values.
    Derived,
    /// A model, not a measurement (e.g. `ceil(bytes/4)` tokens, projections).
    Estimated,
    /// No measurement path exists or the value is missing; the value is `null`, never `0`.
    NotObserved,
}

/// A non-negative counter with its status.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Metric {
    /// The value; `null` exactly when `status` is `not_observed`.
    pub value: Option<u64>,
    /// How it was obtained.
    pub status: Status,
    /// Why it is missing or how it was derived.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

impl Metric {
    /// An observed value.
    pub fn observed(v: u64) -> Self {
        Metric {
            value: Some(v),
            status: Status::Observed,
            reason: None,
        }
    }
    /// A derived value.
    pub fn derived(v: u64) -> Self {
        Metric {
            value: Some(v),
            status: Status::Derived,
            reason: None,
        }
    }
    /// A missing value with its reason.
    pub fn missing(reason: impl Into<String>) -> Self {
        Metric {
            value: None,
            status: Status::NotObserved,
            reason: Some(reason.into()),
        }
    }
    /// An observed value when present, else missing with `reason`.
    pub fn observed_or(v: Option<u64>, reason: &str) -> Self {
        v.map_or_else(|| Metric::missing(reason), Metric::observed)
    }
    fn check(&self, field: &str) -> Result<()> {
        match (self.value, self.status) {
            (None, Status::NotObserved) | (Some(_), Status::Observed | Status::Derived) => Ok(()),
            (Some(_), Status::Estimated) => Err(invalid(format!(
                "{field}: runners report measurements, not estimates"
            ))),
            (Some(_), Status::NotObserved) => Err(invalid(format!(
                "{field}: a value marked not_observed must be null"
            ))),
            (None, _) => Err(invalid(format!(
                "{field}: a null value must be marked not_observed"
            ))),
        }
    }
}

fn invalid(message: String) -> EvalError {
    EvalError::new("invalid_observation", message)
}

/// What kind of context an arm hands to the agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ArmKind {
    /// No context: the agent discovers everything itself.
    Direct,
    /// The captured stdout of a real `repocue` invocation.
    Cue,
    /// Irrelevant but plausible text of the same token count as a cue arm's output.
    Placebo,
}

/// The request file a runner reads (`REPOCUE_RUNNER_REQUEST`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunnerRequest {
    /// [`REQUEST_SCHEMA`].
    pub schema_version: String,
    /// The experiment set this attempt belongs to.
    pub experiment_id: String,
    /// `<pair>/<arm>`, echoed in the observation.
    pub attempt_id: String,
    /// Pair id (`pair-01`, …).
    pub pair_id: String,
    /// Arm name.
    pub arm: String,
    /// What the context is.
    pub arm_kind: ArmKind,
    /// The repository: run with this as the working directory, read-only.
    pub repository: RequestRepository,
    /// The task text and its digest.
    pub task: RequestText,
    /// The context handed to the agent; `null` for the direct arm.
    pub context: Option<RequestText>,
    /// The exact prompt to give the agent: task, then (assisted arms) the instruction and
    /// the context. Runners must not compose their own.
    pub prompt: String,
    /// Version of the answer the agent must produce.
    pub answer_schema_version: String,
    /// Absolute path of the answer's JSON Schema (for agents that accept one).
    pub answer_schema_path: String,
    /// Limits the runner must respect.
    pub limits: Limits,
    /// Absolute path of a directory the runner may write raw artifacts into.
    pub artifacts_dir: String,
}

/// The repository as the runner must see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RequestRepository {
    /// Absolute work-tree root (also the working directory of the runner).
    pub root: String,
    /// Branch at preparation; `null` when detached.
    pub branch: Option<String>,
    /// HEAD at preparation; `null` before the first commit.
    pub head: Option<String>,
    /// Whether the runner must leave the repository untouched (always `true`).
    pub read_only: bool,
}

/// A text with its digest.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RequestText {
    /// The text.
    pub text: String,
    /// `sha256:` of its UTF-8 bytes.
    pub sha256: String,
    /// Byte length.
    pub bytes: u64,
    /// `ceil(bytes/4)`.
    pub estimated_tokens: u64,
}

impl RequestText {
    /// Wraps a text with its digest and size.
    pub fn of(text: String) -> Self {
        let bytes = text.len() as u64;
        RequestText {
            sha256: crate::util::digest(text.as_bytes()),
            bytes,
            estimated_tokens: crate::util::estimated_tokens(bytes),
            text,
        }
    }
}

/// Limits of one attempt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Limits {
    /// Wall-clock limit of the runner process; the engine kills it after this.
    pub timeout_seconds: u64,
}

/// Builds the exact prompt of an arm.
pub fn prompt(task: &str, context: Option<&str>) -> String {
    let mut p = task.to_owned();
    if !p.ends_with('\n') {
        p.push('\n');
    }
    if let Some(ctx) = context {
        p.push('\n');
        p.push_str(INSTRUCTION);
        p.push_str("\n\n--- repository context (RepoCue) ---\n");
        p.push_str(ctx);
        if !ctx.ends_with('\n') {
            p.push('\n');
        }
    }
    p
}

/// What a runner prints on stdout: exactly one JSON value.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Observation {
    /// [`OBSERVATION_SCHEMA`].
    pub schema_version: String,
    /// Must equal the request's `attempt_id`.
    pub attempt_id: String,
    /// Who ran the agent, with which settings.
    pub runner: RunnerInfo,
    /// Aggregate token usage of the attempt.
    pub usage: Usage,
    /// One entry per completed agent turn, in order; counters may be missing (`null`).
    pub turns: Vec<Turn>,
    /// Tool calls of any kind (commands, MCP tools, web searches, file reads).
    pub tool_calls: Metric,
    /// Shell commands the agent ran, in order.
    pub commands: Vec<CommandRecord>,
    /// Agent wall time as the runner measured it.
    pub duration_ms: Metric,
    /// The agent's answer (`repocue/eval-answer-1`), `null` when it gave none.
    pub answer: Option<serde_json::Value>,
    /// What this runner cannot see or had to approximate.
    pub limitations: Vec<String>,
}

/// Runner identity and settings; must be identical across all attempts of a set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunnerInfo {
    /// Adapter name (`synthetic`, `codex-cli`, `claude-code`, …).
    pub adapter: String,
    /// Adapter version.
    pub adapter_version: String,
    /// Version the agent CLI reported, when it has one.
    pub agent_version: Option<String>,
    /// Model.
    pub model: String,
    /// Reasoning effort, when the agent has such a setting.
    pub reasoning_effort: Option<String>,
    /// Sandbox or permission mode.
    pub sandbox: String,
}

/// Aggregate token usage. Cached input is part of input; reasoning is part of output;
/// total = input + output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Usage {
    /// Input tokens (cached included).
    pub input_tokens: Metric,
    /// Cached input tokens (part of input).
    pub cached_input_tokens: Metric,
    /// Output tokens (reasoning included).
    pub output_tokens: Metric,
    /// Reasoning output tokens (part of output).
    pub reasoning_output_tokens: Metric,
    /// Input + output; known only when both are.
    pub total_tokens: Metric,
}

/// Usage of one completed turn; `null` counters were not reported.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Turn {
    /// 1, 2, … in order.
    pub turn: u64,
    /// Input tokens.
    pub input_tokens: Option<u64>,
    /// Cached input tokens.
    pub cached_input_tokens: Option<u64>,
    /// Output tokens.
    pub output_tokens: Option<u64>,
    /// Reasoning output tokens.
    pub reasoning_output_tokens: Option<u64>,
}

/// One shell command the agent ran.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CommandRecord {
    /// The command text.
    pub command: String,
    /// `other`, or `+`-joined among `git`, `filesystem_search`, `filesystem_read`.
    pub classification: String,
}

/// The answer every agent is asked for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Answer {
    /// [`ANSWER_SCHEMA`].
    pub schema_version: String,
    /// The five deterministic Git facts (scored).
    pub git: GitAnswer,
    /// Understanding of the repository (kept for separate assessment, never auto-scored).
    pub semantic: SemanticAnswer,
}

/// The scored part of an answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GitAnswer {
    /// Checked-out branch, `null` when detached.
    pub branch: Option<String>,
    /// Full HEAD commit id, `null` before the first commit.
    pub head: Option<String>,
    /// Whether anything differs from HEAD, untracked files included.
    pub dirty: bool,
    /// Tracked paths with staged or unstaged changes (renames: the new path).
    pub tracked_changes: Vec<String>,
    /// Non-ignored untracked files.
    pub untracked: Vec<String>,
}

/// The semantic part of an answer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SemanticAnswer {
    /// What the project is for.
    pub purpose: String,
    /// Primary entry points (paths).
    pub entry_points: Vec<String>,
    /// Major components.
    pub components: Vec<String>,
    /// Important documentation (paths).
    pub documentation: Vec<String>,
    /// What remains uncertain.
    pub uncertainties: Vec<String>,
}

/// The default task: what the repository is, plus the five Git facts.
pub const DEFAULT_TASK: &str = "Describe this repository for a new contributor, without modifying \
anything (no file, ref, index or configuration changes). Answer with one JSON object of schema \
repocue/eval-answer-1: {\"schema_version\": \"repocue/eval-answer-1\", \"git\": {\"branch\": \
current branch or null when detached, \"head\": full HEAD commit id or null, \"dirty\": whether \
anything differs from HEAD including untracked files, \"tracked_changes\": tracked paths with \
staged or unstaged changes, \"untracked\": non-ignored untracked files}, \"semantic\": \
{\"purpose\": one sentence, \"entry_points\": paths, \"components\": major components, \
\"documentation\": important documentation paths, \"uncertainties\": what you could not \
establish}}. Print only that JSON object as your final answer.\n";

/// The answer asked for in a task-context experiment: which declared items and sources the
/// agent relied on (scored exactly for discovery tasks), and its answer text (kept for
/// separate assessment).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TaskAnswer {
    /// [`TASK_ANSWER_SCHEMA`].
    pub schema_version: String,
    /// Ids of the required task-context items the answer relies on.
    pub required_ids: Vec<String>,
    /// Ids (`src-…`) of the task-context sources the answer relies on.
    pub source_ids: Vec<String>,
    /// The answer to the task, in prose (never auto-scored).
    pub answer: String,
}

/// Parses and checks a task answer value; returns it or why it is invalid.
pub fn parse_task_answer(value: &serde_json::Value) -> std::result::Result<TaskAnswer, String> {
    let text = serde_json::to_vec(value).map_err(|e| e.to_string())?;
    let a: TaskAnswer = crate::strict::parse(&text, "answer").map_err(|e| e.message)?;
    if a.schema_version != TASK_ANSWER_SCHEMA {
        return Err(format!(
            "answer schema_version {:?}, expected {TASK_ANSWER_SCHEMA}",
            a.schema_version
        ));
    }
    Ok(a)
}

/// Parses and checks an answer value; returns the answer or why it is invalid.
pub fn parse_answer(value: &serde_json::Value) -> std::result::Result<Answer, String> {
    let text = serde_json::to_vec(value).map_err(|e| e.to_string())?;
    let a: Answer = crate::strict::parse(&text, "answer").map_err(|e| e.message)?;
    if a.schema_version != ANSWER_SCHEMA {
        return Err(format!(
            "answer schema_version {:?}, expected {ANSWER_SCHEMA}",
            a.schema_version
        ));
    }
    Ok(a)
}

/// Validates an observation against its request: identity, statuses, turn numbering,
/// aggregate arithmetic and counts. Returns the first violated rule.
pub fn validate_observation(o: &Observation, req: &RunnerRequest) -> Result<()> {
    if o.schema_version != OBSERVATION_SCHEMA {
        return Err(invalid(format!(
            "schema_version {:?}, expected {OBSERVATION_SCHEMA}",
            o.schema_version
        )));
    }
    if o.attempt_id != req.attempt_id {
        return Err(invalid(format!(
            "attempt_id {:?}, the request was {:?}",
            o.attempt_id, req.attempt_id
        )));
    }
    for (name, v) in [
        ("runner.adapter", &o.runner.adapter),
        ("runner.adapter_version", &o.runner.adapter_version),
        ("runner.model", &o.runner.model),
        ("runner.sandbox", &o.runner.sandbox),
    ] {
        if v.trim().is_empty() {
            return Err(invalid(format!("{name} is empty")));
        }
    }
    let u = &o.usage;
    for (name, m) in [
        ("usage.input_tokens", &u.input_tokens),
        ("usage.cached_input_tokens", &u.cached_input_tokens),
        ("usage.output_tokens", &u.output_tokens),
        ("usage.reasoning_output_tokens", &u.reasoning_output_tokens),
        ("usage.total_tokens", &u.total_tokens),
        ("tool_calls", &o.tool_calls),
        ("duration_ms", &o.duration_ms),
    ] {
        m.check(name)?;
    }
    if o.turns.is_empty() {
        return Err(invalid(
            "turns: at least one completed turn is required".into(),
        ));
    }
    for (i, t) in o.turns.iter().enumerate() {
        if t.turn != i as u64 + 1 {
            return Err(invalid(format!(
                "turns[{i}].turn is {}, expected {}",
                t.turn,
                i + 1
            )));
        }
        if let (Some(c), Some(inp)) = (t.cached_input_tokens, t.input_tokens) {
            if c > inp {
                return Err(invalid(format!(
                    "turns[{i}]: cached_input_tokens {c} exceeds input_tokens {inp}"
                )));
            }
        }
        if let (Some(r), Some(out)) = (t.reasoning_output_tokens, t.output_tokens) {
            if r > out {
                return Err(invalid(format!(
                    "turns[{i}]: reasoning_output_tokens {r} exceeds output_tokens {out}"
                )));
            }
        }
    }
    type Get = fn(&Turn) -> Option<u64>;
    let counters: [(&str, &Metric, Get); 4] = [
        ("input_tokens", &u.input_tokens, |t| t.input_tokens),
        ("cached_input_tokens", &u.cached_input_tokens, |t| {
            t.cached_input_tokens
        }),
        ("output_tokens", &u.output_tokens, |t| t.output_tokens),
        ("reasoning_output_tokens", &u.reasoning_output_tokens, |t| {
            t.reasoning_output_tokens
        }),
    ];
    for (name, agg, get) in counters {
        if let Some(v) = agg.value {
            let mut sum: u64 = 0;
            for (i, t) in o.turns.iter().enumerate() {
                let x = get(t).ok_or_else(|| {
                    invalid(format!(
                        "usage.{name} is known but turns[{i}] does not report it"
                    ))
                })?;
                sum = sum
                    .checked_add(x)
                    .ok_or_else(|| invalid(format!("usage.{name}: sum overflows")))?;
            }
            if sum != v {
                return Err(invalid(format!(
                    "usage.{name} is {v} but the turns sum to {sum}"
                )));
            }
        }
    }
    if let (Some(c), Some(i)) = (u.cached_input_tokens.value, u.input_tokens.value) {
        if c > i {
            return Err(invalid(format!(
                "usage: cached_input_tokens {c} exceeds input_tokens {i}"
            )));
        }
    }
    if let (Some(r), Some(out)) = (u.reasoning_output_tokens.value, u.output_tokens.value) {
        if r > out {
            return Err(invalid(format!(
                "usage: reasoning_output_tokens {r} exceeds output_tokens {out}"
            )));
        }
    }
    match (
        u.input_tokens.value,
        u.output_tokens.value,
        u.total_tokens.value,
    ) {
        (Some(i), Some(out), Some(t)) => {
            let sum = i
                .checked_add(out)
                .ok_or_else(|| invalid("usage.total_tokens overflows".into()))?;
            if sum != t {
                return Err(invalid(format!(
                    "usage.total_tokens is {t}, input + output is {sum}"
                )));
            }
        }
        (Some(_), Some(_), None) => {
            return Err(invalid(
                "usage.total_tokens must be reported when input and output are".into(),
            ))
        }
        (_, _, Some(_)) => {
            return Err(invalid(
                "usage.total_tokens is known while input or output is not".into(),
            ))
        }
        _ => {}
    }
    if let Some(t) = o.tool_calls.value {
        if t < o.commands.len() as u64 {
            return Err(invalid(format!(
                "tool_calls {t} is fewer than the {} commands",
                o.commands.len()
            )));
        }
    }
    for (i, c) in o.commands.iter().enumerate() {
        if classify(&c.command) != c.classification {
            return Err(invalid(format!(
                "commands[{i}].classification {:?} differs from the contract's classification {:?}",
                c.classification,
                classify(&c.command)
            )));
        }
    }
    if o.limitations.iter().any(|l| l.trim().is_empty()) {
        return Err(invalid("limitations: empty entry".into()));
    }
    Ok(())
}

/// Classifies a shell command: `other`, or `+`-joined among `git`, `filesystem_search`,
/// `filesystem_read` (in that order), by the words it runs.
pub fn classify(command: &str) -> String {
    const SEARCH: &[&str] = &["rg", "grep", "find", "fd", "ls", "tree"];
    const READ: &[&str] = &["cat", "sed", "head", "tail", "less", "bat", "wc", "nl"];
    let words: Vec<&str> = command
        .split(|c: char| c.is_whitespace() || ";&|()'\"`".contains(c))
        .filter(|w| !w.is_empty())
        .map(|w| w.rsplit('/').next().unwrap_or(w))
        .collect();
    let has = |set: &[&str]| words.iter().any(|w| set.contains(w));
    let mut parts = vec![];
    if words.contains(&"git") {
        parts.push("git");
    }
    if has(SEARCH) {
        parts.push("filesystem_search");
    }
    if has(READ) {
        parts.push("filesystem_read");
    }
    if parts.is_empty() {
        "other".into()
    } else {
        parts.join("+")
    }
}

/// Tells whether a classification counts as an agent Git command.
pub fn is_git(classification: &str) -> bool {
    classification.split('+').any(|p| p == "git")
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn request() -> RunnerRequest {
        RunnerRequest {
            schema_version: REQUEST_SCHEMA.into(),
            experiment_id: "exp-1".into(),
            attempt_id: "pair-01/direct".into(),
            pair_id: "pair-01".into(),
            arm: "direct".into(),
            arm_kind: ArmKind::Direct,
            repository: RequestRepository {
                root: "/r".into(),
                branch: None,
                head: None,
                read_only: true,
            },
            task: RequestText::of("t".into()),
            context: None,
            prompt: "t\n".into(),
            answer_schema_version: ANSWER_SCHEMA.into(),
            answer_schema_path: "/s.json".into(),
            limits: Limits {
                timeout_seconds: 60,
            },
            artifacts_dir: "/a".into(),
        }
    }

    fn observation() -> Observation {
        Observation {
            schema_version: OBSERVATION_SCHEMA.into(),
            attempt_id: "pair-01/direct".into(),
            runner: RunnerInfo {
                adapter: "test".into(),
                adapter_version: "1".into(),
                agent_version: None,
                model: "m".into(),
                reasoning_effort: None,
                sandbox: "read-only".into(),
            },
            usage: Usage {
                input_tokens: Metric::observed(30),
                cached_input_tokens: Metric::observed(10),
                output_tokens: Metric::observed(5),
                reasoning_output_tokens: Metric::missing("not reported"),
                total_tokens: Metric::derived(35),
            },
            turns: vec![
                Turn {
                    turn: 1,
                    input_tokens: Some(20),
                    cached_input_tokens: Some(10),
                    output_tokens: Some(2),
                    reasoning_output_tokens: None,
                },
                Turn {
                    turn: 2,
                    input_tokens: Some(10),
                    cached_input_tokens: Some(0),
                    output_tokens: Some(3),
                    reasoning_output_tokens: None,
                },
            ],
            tool_calls: Metric::observed(1),
            commands: vec![CommandRecord {
                command: "git status".into(),
                classification: "git".into(),
            }],
            duration_ms: Metric::observed(100),
            answer: None,
            limitations: vec![],
        }
    }

    #[test]
    fn accepts_a_consistent_observation() {
        validate_observation(&observation(), &request()).unwrap();
    }

    #[test]
    fn rejects_each_inconsistency() {
        type Mutation = fn(&mut Observation);
        let cases: &[(&str, Mutation)] = &[
            ("attempt_id", |o| o.attempt_id = "pair-02/direct".into()),
            ("must be null", |o| {
                o.usage.reasoning_output_tokens.value = Some(1)
            }),
            ("must be marked", |o| {
                o.duration_ms = Metric {
                    value: None,
                    status: Status::Observed,
                    reason: None,
                }
            }),
            ("turns sum", |o| o.usage.input_tokens = Metric::observed(31)),
            ("does not report", |o| o.turns[1].output_tokens = None),
            ("exceeds input", |o| {
                o.turns[0].cached_input_tokens = Some(21)
            }),
            ("input + output", |o| {
                o.usage.total_tokens = Metric::derived(36)
            }),
            ("turn is", |o| o.turns[1].turn = 3),
            ("at least one", |o| o.turns.clear()),
            ("fewer than", |o| o.tool_calls = Metric::observed(0)),
            ("classification", |o| {
                o.commands[0].classification = "other".into()
            }),
            ("empty", |o| o.runner.model = " ".into()),
        ];
        for (needle, mutate) in cases {
            let mut o = observation();
            mutate(&mut o);
            let e = validate_observation(&o, &request()).unwrap_err();
            assert!(e.message.contains(needle), "{needle}: {e}");
        }
    }

    #[test]
    fn partial_usage_keeps_known_aggregates_only() {
        let mut o = observation();
        o.turns[1].input_tokens = None;
        o.usage.input_tokens = Metric::missing("turn 2 did not report input");
        o.usage.total_tokens = Metric::missing("input unknown");
        validate_observation(&o, &request()).unwrap();
    }

    #[test]
    fn classifies_commands_by_the_words_they_run() {
        assert_eq!(classify("git log -3"), "git");
        assert_eq!(
            classify("rg foo src | head -5"),
            "filesystem_search+filesystem_read"
        );
        assert_eq!(classify("/bin/bash -lc 'cat README.md'"), "filesystem_read");
        assert_eq!(classify("cargo test"), "other");
        assert_eq!(classify("git status && ls"), "git+filesystem_search");
        assert!(is_git("git+filesystem_read"));
        assert!(!is_git("filesystem_read"));
    }
}
