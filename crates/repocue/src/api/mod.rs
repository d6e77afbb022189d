//! The public contract: every serialised type of RepoCue (command outputs, cue envelopes and
//! view contents, delta operations, warnings) with its closed vocabularies as enums and its ids
//! as newtypes. They derive `JsonSchema`; the generated schemas are checked in under
//! `docs/schema/` and a test fails when they drift.
//!
//! This module depends on nothing else in the crate but the error type: everything else may
//! use it. (`HooksOutput` still lives in `hooks.rs`; the crate root re-exports it.)

pub mod codes;
pub mod cue;
pub mod ids;
pub mod task;
pub mod views;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use codes::{Caveat, DeltaOp, FaultKind, OperationKind, SearchKind, WarningCode};
pub use cue::{
    Cue, CueRequest, Envelope, Format, More, Provenance, View, CUE_SCHEMA_VERSION,
    DEFAULT_MAX_TOKENS, MAX_MAX_TOKENS,
};
pub use ids::{CheckpointId, DeltaId, EntityId, EpochId, SnapshotId};

/// A measurement that may be missing: a number, or the string `not_observed` (never 0 for
/// "unknown").
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Measure {
    /// The observed value.
    Observed(f64),
    /// Nothing was measured.
    Missing(NotObserved),
}

/// The marker for a missing measurement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum NotObserved {
    /// Nothing was measured.
    #[serde(rename = "not_observed")]
    NotObserved,
}

impl Measure {
    /// Wraps an optional value.
    pub fn from_opt<T: Into<f64>>(v: Option<T>) -> Self {
        match v {
            Some(v) => Measure::Observed(v.into()),
            None => Measure::Missing(NotObserved::NotObserved),
        }
    }

    /// Converts microseconds to milliseconds with microsecond precision.
    pub fn ms_from_us(us: Option<i64>) -> Self {
        Measure::from_opt(us.map(|u| (u as f64) / 1000.0))
    }
}

/// Identity and live Git state of the repository.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct RepositoryInfo {
    /// `repo-<24 hex>`, derived from the canonical root path.
    pub id: String,
    /// Directory name of the root.
    pub name: String,
    /// Branch, `null` when HEAD is detached.
    pub branch: Option<String>,
    /// HEAD commit, `null` before the first commit.
    pub head: Option<String>,
    /// Whether anything differs from HEAD (staged, unstaged, untracked, conflicted).
    pub dirty: bool,
}

/// A warning: something omitted, uncertain or worth knowing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Warning {
    /// Stable machine-readable code.
    pub code: WarningCode,
    /// How many items it concerns, when countable.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u64>,
    /// Human-readable detail.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

impl Warning {
    /// Creates a warning with a detail.
    pub fn new(code: WarningCode, detail: impl Into<String>) -> Self {
        Warning {
            code,
            count: None,
            detail: Some(detail.into()),
        }
    }

    /// Creates a counted warning with a detail.
    pub fn counted(code: WarningCode, count: u64, detail: impl Into<String>) -> Self {
        Warning {
            code,
            count: Some(count),
            detail: Some(detail.into()),
        }
    }
}

/// A tracked file the last scan could not read or analyze (a per-file fault).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct FileFault {
    /// Repository-relative path (`\xNN` escapes for bytes that are not UTF-8).
    pub path: String,
    /// What went wrong.
    pub kind: FaultKind,
}

/// Counts of paths by working state, as seen live.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct WorkingCounts {
    /// Paths with staged changes.
    pub staged: u64,
    /// Paths with unstaged changes.
    pub unstaged: u64,
    /// Tracked paths missing from the working tree.
    pub deleted: u64,
    /// Conflicted paths.
    pub conflicted: u64,
    /// Untracked, non-ignored paths.
    pub untracked: u64,
}

/// Output of `repocue status`: live Git state against the stored snapshot.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct StatusOutput {
    /// `repocue/status-1`.
    pub schema_version: String,
    /// Live repository identity and Git state.
    pub repository: RepositoryInfo,
    /// How far the stored snapshot describes the live repository.
    pub freshness: Freshness,
    /// Why the freshness is what it is.
    pub reasons: Vec<String>,
    /// Active epoch, `null` when uninitialized.
    pub epoch: Option<String>,
    /// Current snapshot, `null` when uninitialized.
    pub snapshot: Option<String>,
    /// When the current snapshot's Git basis was observed.
    pub snapshot_observed_at: Option<String>,
    /// Tracked files in the snapshot.
    pub tracked_files: Option<u64>,
    /// Live path counts.
    pub working_tree: WorkingCounts,
    /// Paths whose live state differs from the snapshot (first 20), untracked paths that
    /// appeared or went among them; secret-named ones left out.
    pub changed_since_snapshot: Vec<String>,
    /// Files the snapshot's scan could not read or analyze, at most 20: those not read or
    /// parsed first, then those whose analysis was deferred, each in path order (the
    /// `file_faults` warning counts them all; omitted when none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub faults: Vec<FileFault>,
    /// Git processes this command started.
    pub git_processes: u32,
    /// Warnings.
    pub warnings: Vec<Warning>,
}

/// Counts of delta operations by name.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ChangeCounts {
    /// `file.added`.
    pub added: u64,
    /// `file.deleted`.
    pub deleted: u64,
    /// `file.restored`.
    pub restored: u64,
    /// `file.content_changed`.
    pub content_changed: u64,
    /// `file.metadata_changed`.
    pub metadata_changed: u64,
    /// `file.state_changed`.
    pub state_changed: u64,
    /// `repository.*` operations.
    pub repository: u64,
    /// `symbol.*` and `import.*` operations.
    pub structural: u64,
}

/// Output of `init`, `refresh` and `rebaseline`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct RefreshOutput {
    /// `repocue/refresh-1`.
    pub schema_version: String,
    /// `baseline`, `refresh` or `rebaseline`.
    pub operation: OperationKind,
    /// Whether a new snapshot was published (false for a no-op refresh).
    pub published: bool,
    /// Repository identity and Git state at scan time.
    pub repository: RepositoryInfo,
    /// Active epoch.
    pub epoch: String,
    /// Current snapshot after the operation.
    pub snapshot: String,
    /// Snapshot before the operation, if any.
    pub previous_snapshot: Option<String>,
    /// Delta recorded by this operation, if any.
    pub delta: Option<String>,
    /// Operation counts of that delta.
    pub changes: ChangeCounts,
    /// Freshness right after the operation.
    pub freshness: Freshness,
    /// Tracked files in the snapshot.
    pub tracked_files: u64,
    /// Files hashed in this operation.
    pub files_scanned: u64,
    /// Bytes read in this operation.
    pub bytes_scanned: u64,
    /// Files whose content was analyzed (new digests).
    pub files_analyzed: u64,
    /// Git processes started, discovery included.
    pub git_processes: u32,
    /// Wall time in milliseconds.
    pub duration_ms: f64,
    /// Files this scan could not read or analyze, at most 20 as in `status` (omitted when
    /// none); the snapshot keeps their last known state and the next refresh tries them
    /// again.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub faults: Vec<FileFault>,
    /// Warnings.
    pub warnings: Vec<Warning>,
}

/// One recorded operation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct OperationMetric {
    /// `baseline`, `refresh` or `rebaseline`.
    pub kind: OperationKind,
    /// When it was recorded.
    pub recorded_at: String,
    /// Whether it published a snapshot.
    pub published: bool,
    /// Epoch.
    pub epoch: Option<String>,
    /// Snapshot after the operation.
    pub snapshot: Option<String>,
    /// Wall time.
    pub duration_ms: Measure,
    /// Scan time.
    pub scan_duration_ms: Measure,
    /// Git processes.
    pub git_processes: Measure,
    /// Files hashed.
    pub files_scanned: Measure,
    /// Bytes read.
    pub bytes_scanned: Measure,
    /// Files analyzed.
    pub files_analyzed: Measure,
    /// Paths whose state changed.
    pub changed_files: Measure,
}

/// One recorded cue.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CueMetric {
    /// View name.
    pub view: String,
    /// When it was recorded.
    pub recorded_at: String,
    /// Snapshot served.
    pub snapshot: Option<String>,
    /// Budget.
    pub max_tokens: u64,
    /// Exact output bytes.
    pub output_bytes: u64,
    /// `ceil(output_bytes / 4)`.
    pub estimated_tokens: u64,
    /// Wall time.
    pub duration_ms: Measure,
}

/// Medians of one operation kind.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct OperationSummary {
    /// Operation kind.
    pub kind: OperationKind,
    /// How many were recorded.
    pub count: u64,
    /// Median wall time.
    pub median_duration_ms: Measure,
    /// Median scan time.
    pub median_scan_duration_ms: Measure,
    /// Median Git processes.
    pub median_git_processes: Measure,
}

/// One epoch.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct EpochInfo {
    /// `epoch-NNNNNN`.
    pub id: String,
    /// `active` or `superseded`.
    pub status: String,
    /// Label given at rebaseline.
    pub label: Option<String>,
    /// Reason given at rebaseline.
    pub reason: Option<String>,
    /// When it started.
    pub created_at: String,
}

/// Output of `repocue metrics`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct MetricsOutput {
    /// `repocue/metrics-1`.
    pub schema_version: String,
    /// Repository id.
    pub repository: String,
    /// Database file.
    pub database_path: String,
    /// Database size now (with WAL), bytes.
    pub database_bytes: u64,
    /// Epochs, oldest first.
    pub epochs: Vec<EpochInfo>,
    /// Retained snapshots, oldest first.
    pub snapshots: Vec<String>,
    /// Current snapshot.
    pub current_snapshot: Option<String>,
    /// Medians per operation kind.
    pub summary: Vec<OperationSummary>,
    /// The most recent operations (at most 20), oldest first.
    pub operations: Vec<OperationMetric>,
    /// All operations recorded.
    pub operations_total: u64,
    /// The most recent cues (at most 20), oldest first.
    pub cues: Vec<CueMetric>,
    /// All cues recorded.
    pub cues_total: u64,
}

/// One checkpoint.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct CheckpointInfo {
    /// `checkpoint-NNNNNN`.
    pub id: String,
    /// The pinned snapshot.
    pub snapshot: String,
    /// Label.
    pub label: String,
    /// When it was pinned.
    pub created_at: String,
}

/// Output of `repocue checkpoint list|pin|delete`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct CheckpointOutput {
    /// `repocue/checkpoint-1`.
    pub schema_version: String,
    /// `list`, `pin` or `delete`.
    pub action: String,
    /// The checkpoint pinned or deleted, for `pin` and `delete`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub checkpoint: Option<CheckpointInfo>,
    /// Every checkpoint after the action.
    pub checkpoints: Vec<CheckpointInfo>,
}

/// Output of `repocue prune`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PruneOutput {
    /// `repocue/prune-1`.
    pub schema_version: String,
    /// Whether nothing was deleted (`--dry-run`).
    pub dry_run: bool,
    /// Recent snapshots of the active epoch kept.
    pub keep_recent: u64,
    /// Snapshots kept.
    pub kept: Vec<String>,
    /// Snapshots removed (or that would be).
    pub removed: Vec<String>,
    /// File version rows removed.
    pub file_versions_removed: u64,
    /// Deltas removed.
    pub deltas_removed: u64,
    /// Content facts removed.
    pub facts_removed: u64,
    /// Database size after, bytes.
    pub database_bytes: u64,
}

/// The single-line JSON error printed first on stderr when a command fails.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ErrorOutput {
    /// The error.
    pub error: ErrorBody,
}

/// Body of [`ErrorOutput`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ErrorBody {
    /// Stable machine-readable code.
    pub code: String,
    /// What failed, with which input.
    pub message: String,
    /// What to do about it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// Whether the same command may succeed when run again.
    pub retryable: bool,
}

impl From<&crate::error::Error> for ErrorOutput {
    fn from(e: &crate::error::Error) -> Self {
        ErrorOutput {
            error: ErrorBody {
                code: e.code().into(),
                message: e.to_string(),
                hint: e.hint(),
                retryable: e.is_retryable(),
            },
        }
    }
}

/// How far a cue or status can be trusted to describe the live repository.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Freshness {
    /// The snapshot equals a clean working tree.
    Current,
    /// The snapshot equals a dirty working tree.
    DirtyButIndexed,
    /// The live repository differs from the snapshot, or a read's time budget left some
    /// files' analysis for later (`deferred` faults); refresh before trusting details.
    RefreshNeeded,
    /// The snapshot matches what can be observed, but Git may hide changes (assume-unchanged,
    /// skip-worktree), the scan saw files change underneath it, or it could not read or parse
    /// some files (`file_faults`).
    PossiblyStale,
    /// No snapshot exists yet.
    Uninitialized,
}

impl Freshness {
    /// Returns the public name.
    pub fn as_str(self) -> &'static str {
        match self {
            Freshness::Current => "current",
            Freshness::DirtyButIndexed => "dirty-but-indexed",
            Freshness::RefreshNeeded => "refresh-needed",
            Freshness::PossiblyStale => "possibly-stale",
            Freshness::Uninitialized => "uninitialized",
        }
    }
}

/// One delta operation with before/after values.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct DeltaItem {
    /// Operation name, e.g. `file.content_changed`.
    pub op: DeltaOp,
    /// Entity id, e.g. `file:src/lib.rs` or `repository`.
    pub entity: String,
    /// Values before, for the fields that changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<Value>,
    /// Values after, for the fields that changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<Value>,
}

/// One commit of the recent history shown in overviews.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Commit {
    /// Abbreviated commit id (12 hex digits).
    pub id: String,
    /// Commit date, strict ISO 8601.
    pub date: String,
    /// First line of the message (repository text).
    pub subject: String,
}

/// Output of `repocue evaluate`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct EvaluationOutput {
    /// `repocue/evaluation-1`.
    pub schema_version: String,
    /// Repository id.
    pub repository: String,
    /// Tracked files.
    pub tracked_files: u64,
    /// Baseline measurements.
    pub baseline: Step,
    /// No-op refresh right after the baseline.
    pub noop_refresh: Step,
    /// Warm overview cue.
    pub overview: CueStep,
    /// Warm manifest cue.
    pub manifest: CueStep,
    /// Database size after the probe, bytes.
    pub database_bytes: u64,
    /// The repository's Git basis was the same before and after the probe.
    pub repository_unchanged: bool,
}

/// One state operation of the probe.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Step {
    /// Wall time, milliseconds.
    pub wall_ms: f64,
    /// Git processes started.
    pub git_processes: u32,
    /// Files read.
    pub files_read: u64,
    /// Bytes read.
    pub bytes_read: u64,
}

/// One cue of the probe.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct CueStep {
    /// Wall time, milliseconds.
    pub wall_ms: f64,
    /// Budget asked for.
    pub max_tokens: u64,
    /// Exact output bytes.
    pub output_bytes: u64,
    /// `ceil(bytes / 4)`.
    pub estimated_tokens: u64,
}
