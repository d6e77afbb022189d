//! Task context: the task cue's content and the outputs of `task-context check` and
//! `task-context pin --update` (the declaration format itself is documented in `docs/cues.md`).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Version of the `task-context check` output.
pub const TASK_CONTEXT_CHECK_SCHEMA_VERSION: &str = "repocue/task-context-check-1";
/// Version of the `task-context pin --update` output.
pub const TASK_CONTEXT_PIN_SCHEMA_VERSION: &str = "repocue/task-context-pin-1";

/// A task kind known to `repocue/task-context-1`.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum TaskKind {
    /// Finding where something is and how the repository is laid out.
    Discovery,
    /// Explaining how something works or why it is so.
    Explanation,
    /// Checking that a change is correct: builds, tests, procedures.
    Verification,
}

impl TaskKind {
    /// Every known kind, in order.
    pub const ALL: [TaskKind; 3] = [
        TaskKind::Discovery,
        TaskKind::Explanation,
        TaskKind::Verification,
    ];

    /// Returns the public name.
    pub fn as_str(self) -> &'static str {
        match self {
            TaskKind::Discovery => "discovery",
            TaskKind::Explanation => "explanation",
            TaskKind::Verification => "verification",
        }
    }

    /// Parses the public name; `None` for anything else (no case folding).
    pub fn parse(s: &str) -> Option<Self> {
        TaskKind::ALL.into_iter().find(|k| k.as_str() == s)
    }

    /// Returns the known names, comma separated, for error messages.
    pub fn names() -> String {
        TaskKind::ALL.map(TaskKind::as_str).join(", ")
    }
}

/// What an item is, as its author classifies it; RepoCue only reports it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ItemKind {
    /// A rule or convention to follow.
    Instruction,
    /// A design decision and its reasons.
    Decision,
    /// A procedure: how to build, test, release.
    Procedure,
    /// Background reference material.
    Reference,
}

/// An inclusive, 1-based line range.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(deny_unknown_fields)]
pub struct Lines {
    /// First line (1-based).
    pub start: u64,
    /// Last line, inclusive.
    pub end: u64,
}

/// Label every delivered source carries: the text is the repository's, not RepoCue's.
pub const ORIGIN: &str = "repository_text";

/// The declaration a task cue was built from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct DeclarationRef {
    /// Repository-relative path of the declaration.
    pub path: String,
    /// `sha256:<hex>` of the declaration file.
    pub content_digest: String,
}

/// The normalised task request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TaskRequest {
    /// The task kind.
    pub task_kind: TaskKind,
    /// Target paths, sorted and de-duplicated.
    pub targets: Vec<String>,
}

/// One delivered item: its declared identity and the ids of its sources.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ItemRecord {
    /// Item id.
    pub id: String,
    /// The author's classification.
    pub kind: ItemKind,
    /// Whether the item is required.
    pub required: bool,
    /// Id of the primary source in `sources`.
    pub source: String,
    /// Ids of the check sources in `sources`.
    pub checks: Vec<String>,
}

/// Original repository text of one pinned reference.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SourceRecord {
    /// Source id (hash of path, full-file digest and range).
    pub id: String,
    /// Always `repository_text`: quoted from the repository, not written by RepoCue.
    pub origin: String,
    /// Repository-relative path.
    pub path: String,
    /// `sha256:<hex>` of the whole file.
    pub content_digest: String,
    /// Inclusive 1-based line range; `null` is the whole file.
    pub lines: Option<Lines>,
    /// The original text of the range, byte for byte.
    pub text: String,
    /// `sha256:<hex>` of `text`.
    pub text_digest: String,
}

/// An optional item left out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct OmittedItem {
    /// Item id.
    pub id: String,
    /// Why: `budget`.
    pub reason: String,
}

/// The omission accounting.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Omitted {
    /// Number of omitted items.
    pub count: u64,
    /// Omitted items in id order.
    pub items: Vec<OmittedItem>,
}

/// The content of a task cue.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TaskContent {
    /// The declaration used.
    pub declaration: DeclarationRef,
    /// The normalised request.
    pub request: TaskRequest,
    /// Ids of the selected required items (all of them are in `items`).
    pub required_ids: Vec<String>,
    /// Delivered items in id order.
    pub items: Vec<ItemRecord>,
    /// Delivered sources, ordered by path then range; each appears once.
    pub sources: Vec<SourceRecord>,
    /// Selected optional items left out.
    pub omitted: Omitted,
}

/// Which reference of an item a pin belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// The item's primary source.
    Source,
    /// One of the item's checks.
    Check,
}

/// The state of one pinned reference.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Pin {
    /// Item id.
    pub item: String,
    /// Primary source or check.
    pub role: Role,
    /// Position among the item's checks (for `check`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<usize>,
    /// Repository-relative path.
    pub path: String,
    /// The declared range.
    pub lines: Option<Lines>,
    /// Declared digest.
    pub expected: String,
    /// Digest of the file now (equal to the snapshot's).
    pub actual: String,
}

impl Pin {
    /// Tells whether the declared digest no longer matches the file.
    pub fn is_stale(&self) -> bool {
        self.expected != self.actual
    }
}

/// What `repocue task-context check` reports.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TaskContextCheck {
    /// `repocue/task-context-check-1`.
    pub schema_version: String,
    /// The declaration checked.
    pub declaration: DeclarationRef,
    /// The snapshot the pins were compared with.
    pub snapshot: String,
    /// Number of pinned references (sources and checks of every item).
    pub pins: u64,
    /// Pins whose declared digest differs from the file's, items in id order.
    pub stale: Vec<Pin>,
}

/// What `repocue task-context pin --update` did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TaskContextPinOutput {
    /// `repocue/task-context-pin-1`.
    pub schema_version: String,
    /// The declaration after the rewrite (its new digest).
    pub declaration: DeclarationRef,
    /// Number of pinned references.
    pub pins: u64,
    /// The pins that were renewed (`expected` is the old digest, `actual` the new one).
    pub updated: Vec<Pin>,
}
