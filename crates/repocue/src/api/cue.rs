//! The cue request and the envelope every cue view shares.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Freshness, Warning};

/// Version of the cue envelope contract. `cue-4`: an overview's symbol leaves out the `name`
/// its signature holds, and a command the `source` of a root manifest (ADR 0023). `cue-3`: a
/// leaner envelope than `cue-2` (the omitted count, branch and head at the top level; the
/// repository name, dirty flag, budget and estimate only in the provenance; empty lists left
/// out). `cue-2` dropped ids, digests and
/// timestamps unless provenance is asked for.
pub const CUE_SCHEMA_VERSION: &str = "repocue/cue-4";
/// Budget used when none is given.
pub const DEFAULT_MAX_TOKENS: u64 = 500;
/// Largest budget accepted; MCP answers stay far below 25,000 tokens.
pub const MAX_MAX_TOKENS: u64 = 20_000;

/// Which projection to produce.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum View {
    /// Identity, freshness, counts and what to ask next (~200 tokens).
    Manifest,
    /// What the project is, where to start, how to build it, what state it is in.
    Overview,
    /// What changed since an earlier snapshot.
    Delta,
    /// Files and ranked symbols under a path.
    Structure,
    /// One symbol, file or document with its relations.
    Entity,
    /// One document's outline, links and staleness.
    Document,
    /// Ranked hits over paths, symbols and document sections.
    Search,
    /// Author-declared original repository text for a task kind and target paths.
    Task,
}

impl View {
    /// Returns the public name.
    pub fn as_str(self) -> &'static str {
        match self {
            View::Manifest => "manifest",
            View::Overview => "overview",
            View::Delta => "delta",
            View::Structure => "structure",
            View::Entity => "entity",
            View::Document => "document",
            View::Search => "search",
            View::Task => "task",
        }
    }
}

/// Output format of a cue.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// Canonical JSON.
    #[default]
    Json,
    /// The same data rendered for a person (budgeted on the JSON).
    Markdown,
    /// The same items in a terse layout for agents, budgeted on its own bytes.
    Text,
}

/// A cue request: the view and its parameters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct CueRequest {
    /// The view.
    pub view: View,
    /// Token budget (`ceil(bytes / 4)` of the output).
    pub max_tokens: u64,
    /// For `delta`: the earlier snapshot id, or a commit (`HEAD~1`, `main`, an object id)
    /// (default: the parent of the current snapshot).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since: Option<String>,
    /// For `structure` and `document`: a path or directory prefix relative to the repository
    /// root (`.`: the whole repository); one that leaves the repository is `invalid_argument`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// For `entity`: an entity id such as `symbol:src/lib.rs:Parser.parse`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// For `search`: the query.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
    /// For `search`: comma-separated scopes among `code`, `docs`, `paths` (default all).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    /// For `search`: most hits to consider (default 20, at most 200).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_results: Option<u32>,
    /// For `task`: repository-relative path of the `repocue/task-context-1` declaration.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context_file: Option<String>,
    /// For `task`: `discovery`, `explanation` or `verification`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_kind: Option<String>,
    /// For `task`: target paths (at least one; `.` is the whole repository).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub targets: Vec<String>,
    /// Bring the cache up to date first (default true).
    #[serde(default = "yes")]
    pub refresh: bool,
    /// Output format; `text` is budgeted on its own bytes, the others on the JSON.
    #[serde(default, skip_serializing_if = "is_json")]
    pub format: Format,
    /// Add the full provenance (repository id, epoch, full head, digests, observation time)
    /// to the envelope, and the full operations with digests to a delta.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub provenance: bool,
}

fn is_json(f: &Format) -> bool {
    *f == Format::Json
}

fn yes() -> bool {
    true
}

impl CueRequest {
    /// Creates a request for a view with the default budget.
    pub fn new(view: View) -> Self {
        CueRequest {
            view,
            max_tokens: DEFAULT_MAX_TOKENS,
            since: None,
            path: None,
            id: None,
            query: None,
            scope: None,
            max_results: None,
            context_file: None,
            task_kind: None,
            targets: vec![],
            refresh: true,
            format: Format::Json,
            provenance: false,
        }
    }
}

/// A follow-up request that returns what a cue left out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct More {
    /// View to ask for.
    pub view: View,
    /// Path parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Since parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since: Option<String>,
    /// Id parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
    /// Scope parameter (search).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    /// Result limit (search).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_results: Option<u32>,
    /// Budget that fits it.
    pub max_tokens: u64,
}

impl More {
    /// Creates a follow-up request for a view with no parameters; set the ones it needs with
    /// struct update syntax.
    pub fn of(view: View, max_tokens: u64) -> Self {
        More {
            view,
            path: None,
            since: None,
            id: None,
            query: None,
            scope: None,
            max_results: None,
            max_tokens: max_tokens.min(MAX_MAX_TOKENS),
        }
    }
}

/// The full provenance of the snapshot a cue describes: always in `manifest` and `status`,
/// on any view with `provenance`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Provenance {
    /// Directory name of the repository's root.
    pub name: String,
    /// `repo-<24 hex>`, derived from the canonical root path.
    pub repository_id: String,
    /// Epoch id.
    pub epoch: String,
    /// Full HEAD commit, `null` before the first commit.
    pub head: Option<String>,
    /// Whether anything differed from HEAD at the snapshot.
    pub dirty: bool,
    /// Digest of Git's status records at the snapshot (first 16 hex digits of SHA-256).
    pub status_digest: String,
    /// Digest over all indexed file states (first 16 hex digits of SHA-256).
    pub repository_digest: String,
    /// When the snapshot's Git basis was observed.
    pub observed_at: String,
    /// Files the snapshot's scan could not read or parse, at most 5, in path order (the
    /// `file_faults` warning counts them, and those whose analysis was deferred; `status`
    /// lists 20; omitted when none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub faults: Vec<super::FileFault>,
    /// The budget this cue was fitted to (the request's, or the configured default).
    pub max_tokens: u64,
    /// `ceil(bytes / 4)` of this exact output (`ceil(bytes * 2 / 7)` in the text format): an
    /// estimate, not a tokenizer count; never over `max_tokens`.
    pub estimated_tokens: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// The envelope every cue view shares: lean, since every token of it is one the content cannot
/// use. Stable fields first, volatile ones (head, snapshot, freshness, provenance) last, so
/// consecutive cues share a long byte prefix (friendly to prompt caching and diffs).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Envelope<C> {
    /// `repocue/cue-4`.
    pub schema_version: String,
    /// The view.
    pub kind: View,
    /// The view's content.
    pub content: C,
    /// Anything uncertain or worth knowing (omitted when none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<Warning>,
    /// How many items were left out to fit the budget (omitted when none); `more` says how
    /// to get them.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub omitted: u64,
    /// Follow-up requests that return what was left out (omitted when none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub more: Vec<More>,
    /// Branch at the snapshot (omitted when HEAD is detached).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branch: Option<String>,
    /// HEAD commit at the snapshot, abbreviated to 10 hex digits (omitted before the first
    /// commit).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub head: Option<String>,
    /// Snapshot id.
    pub snapshot: String,
    /// How far this cue describes the live repository.
    pub freshness: Freshness,
    /// Full provenance, when asked for (always in `manifest` and `task`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provenance: Option<Provenance>,
    /// The budget asked for (serialized only in the provenance: the caller chose it).
    #[serde(skip)]
    #[schemars(skip)]
    pub max_tokens: u64,
    /// The format the budget is measured in (not serialized).
    #[serde(skip)]
    #[schemars(skip)]
    pub format: Format,
}

impl<C> Envelope<C> {
    /// The estimate this envelope states (in its provenance), if it states one.
    pub fn stated_estimate(&self) -> Option<u64> {
        self.provenance.as_ref().map(|p| p.estimated_tokens)
    }

    /// Sets the estimate the envelope states (nothing without a provenance).
    pub fn state_estimate(&mut self, tokens: u64) {
        if let Some(p) = &mut self.provenance {
            p.estimated_tokens = tokens;
        }
    }
}

/// A rendered cue.
#[derive(Debug, Clone)]
pub struct Cue {
    /// The canonical JSON document (no trailing newline).
    pub json: String,
    /// Estimated tokens of the output in the requested format (`json` unless `text`).
    pub estimated_tokens: u64,
    /// The envelope as a JSON value (for rendering and adapters).
    pub value: serde_json::Value,
    /// The output in the requested format: `json`, the Markdown rendering, or the text.
    pub output: String,
    /// The requested format.
    pub format: Format,
}
