//! The MCP tools as plain functions: argument types (their JSON Schemas are the tools' input
//! schemas) and one handler per tool that opens a [`Service`], runs one request and returns
//! the exact JSON text the tool answers with, or the single-line JSON error object.
//!
//! Handlers are synchronous and do repository work; the rmcp glue runs them on the blocking
//! pool. They keep no state between calls: every answer carries the live freshness.

use repocue::api::ErrorOutput;
use repocue::Operation;
use repocue::{CueRequest, Format, View, DEFAULT_MAX_TOKENS};
use repocue::{Error, Options, Service};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::Deserialize;

/// Arguments of `context_get`: the fields of the library's [`CueRequest`], with the budget
/// and the refresh policy optional.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GetArgs {
    /// The projection to return. Start with `overview`; `manifest` is the cheapest identity
    /// and freshness check; `delta` lists what changed since an earlier snapshot; follow the
    /// `more` entries of a cue for `structure`, `entity`, `document` and `search`.
    pub view: View,
    /// Token budget: `ceil(bytes / 4)` of the returned JSON (`ceil(bytes * 2 / 7)` of `text`)
    /// never exceeds it (default 500 or the repository's configured `cue.max_tokens`, at most
    /// 20000). Whole items are left out to fit; `warnings` counts them and `more` gives the
    /// follow-up request with a budget that fits.
    #[serde(default)]
    #[schemars(range(min = 1, max = 20000), extend("default" = 500))]
    pub max_tokens: Option<u64>,
    /// For `delta`: the earlier snapshot id, e.g. `snapshot-000003`, or a commit (`HEAD~1`,
    /// `main`, an object id) (default: the parent of the current snapshot).
    #[serde(default)]
    pub since: Option<String>,
    /// For `structure` and `document`: a path or directory prefix relative to the repository
    /// root, e.g. `src/` (`.`: the whole repository).
    #[serde(default)]
    pub path: Option<String>,
    /// For `entity`: an entity id such as `file:src/lib.rs`, `symbol:src/lib.rs:Parser.parse`
    /// or `doc:README.md#install`.
    #[serde(default)]
    pub id: Option<String>,
    /// For `search`: the query (prefer the `context_search` tool).
    #[serde(default)]
    pub query: Option<String>,
    /// For `search`: where to look, `code`, `docs` and/or `paths` (default all).
    #[serde(default)]
    pub scope: Option<Scope>,
    /// For `search`: most hits to consider (default 20, at most 200).
    #[serde(default)]
    #[schemars(range(min = 1, max = 200))]
    pub max_results: Option<u32>,
    /// Bring the cache up to date before answering (default true). With false the stored
    /// snapshot is served as it is, with its true freshness (possibly `refresh-needed`).
    #[serde(default)]
    #[schemars(extend("default" = true))]
    pub refresh: Option<bool>,
    /// `json` (default, canonical), `text` (the same items in a terse layout for agents,
    /// typically a third fewer tokens, budgeted on its own bytes) or `markdown` (for people).
    #[serde(default)]
    pub format: Option<Format>,
    /// Add the full provenance (repository name and id, epoch, full head, dirty flag,
    /// digests, observation time, the budget used and the estimate); on `delta` also every
    /// operation with digests and object ids (default false).
    #[serde(default)]
    pub provenance: Option<bool>,
    /// Ignored. Accepted so that an entry of a cue's `more` list can be passed unchanged.
    #[serde(default)]
    pub reason: Option<String>,
}

/// Search scopes: one comma-separated string (`"code,docs"`) or a list (`["code","docs"]`)
/// of `code`, `docs` and `paths`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Scope {
    /// Comma-separated scopes.
    Text(String),
    /// A list of scopes.
    List(Vec<String>),
}

impl Scope {
    /// Returns the comma-separated form the library takes.
    pub fn joined(&self) -> String {
        match self {
            Scope::Text(s) => s.clone(),
            Scope::List(v) => v.join(","),
        }
    }
}

impl GetArgs {
    /// Returns the library request these arguments stand for (budget 500 when none is given;
    /// the handler replaces it with the configured default).
    pub fn to_request(&self) -> CueRequest {
        CueRequest {
            max_tokens: self.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS),
            since: self.since.clone(),
            path: self.path.clone(),
            id: self.id.clone(),
            query: self.query.clone(),
            scope: self.scope.as_ref().map(Scope::joined),
            max_results: self.max_results,
            refresh: self.refresh.unwrap_or(true),
            format: self.format.unwrap_or_default(),
            provenance: self.provenance.unwrap_or(false),
            ..CueRequest::new(self.view)
        }
    }
}

/// Arguments of `context_search`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchArgs {
    /// What to look for: words of a path, symbol name or document heading.
    pub query: String,
    /// Token budget of the answer (default 500 or the configured `cue.max_tokens`, at most
    /// 20000).
    #[serde(default)]
    #[schemars(range(min = 1, max = 20000), extend("default" = 500))]
    pub max_tokens: Option<u64>,
    /// Where to look: `code` (symbols), `docs` (document sections) and/or `paths`, as a list
    /// or a comma-separated string (default all).
    #[serde(default)]
    pub scope: Option<Scope>,
    /// Most hits to consider (default 20, at most 200).
    #[serde(default)]
    #[schemars(range(min = 1, max = 200))]
    pub max_results: Option<u32>,
    /// Bring the cache up to date before searching (default true).
    #[serde(default)]
    #[schemars(extend("default" = true))]
    pub refresh: Option<bool>,
    /// Add the full provenance (repository name and id, epoch, full head, dirty flag,
    /// digests, observation time, the budget used and the estimate) (default false).
    #[serde(default)]
    pub provenance: Option<bool>,
}

impl SearchArgs {
    /// Returns the library request: view `search` with the query and its options.
    pub fn to_request(&self) -> CueRequest {
        CueRequest {
            max_tokens: self.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS),
            query: Some(self.query.clone()),
            scope: self.scope.as_ref().map(Scope::joined),
            max_results: self.max_results,
            refresh: self.refresh.unwrap_or(true),
            provenance: self.provenance.unwrap_or(false),
            ..CueRequest::new(View::Search)
        }
    }
}

/// Arguments of `context_task`: the task view's request.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TaskArgs {
    /// Repository-relative path of the tracked `repocue/task-context-1` declaration, e.g.
    /// `docs/task-context.example.json`.
    pub context_file: String,
    /// The kind of task: `discovery`, `explanation` or `verification`.
    pub task_kind: String,
    /// Paths the task is about (at least one), e.g. `["crates/repocue/src/cue"]`; `.` is the
    /// whole repository. A directory also selects items scoped below it.
    pub targets: Vec<String>,
    /// Token budget (default 500 or the configured `cue.max_tokens`, at most 20000). Required
    /// items are always whole; when they do not fit the error states the smallest budget that
    /// does.
    #[serde(default)]
    #[schemars(range(min = 1, max = 20000), extend("default" = 500))]
    pub max_tokens: Option<u64>,
    /// Bring the cache up to date first (default true). With false, a snapshot that does not
    /// describe the work tree fails with `refresh_needed`.
    #[serde(default)]
    #[schemars(extend("default" = true))]
    pub refresh: Option<bool>,
}

impl TaskArgs {
    /// Returns the library request: view `task` with its declaration, kind and targets.
    pub fn to_request(&self) -> CueRequest {
        CueRequest {
            max_tokens: self.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS),
            context_file: Some(self.context_file.clone()),
            task_kind: Some(self.task_kind.clone()),
            targets: self.targets.clone(),
            refresh: self.refresh.unwrap_or(true),
            ..CueRequest::new(View::Task)
        }
    }
}

/// Answers `context_task`: the task cue JSON.
pub fn handle_task(opts: &Options, args: TaskArgs) -> Result<String, ErrorOutput> {
    let request = args.to_request();
    with_service(opts, |s| {
        s.cue(&with_default_budget(s, request, args.max_tokens)?)
            .map(|cue| cue.json)
    })
}

/// Arguments of `context_rebaseline`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RebaselineArgs {
    /// Label of the new epoch, e.g. `release:1.4.0` (required, not empty).
    pub label: String,
    /// Why the new epoch starts, e.g. `large refactor merged` (required, not empty).
    pub reason: String,
}

/// Arguments of the tools that take none (`context_refresh`, `context_status`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
// Some clients reject an object schema without `properties`.
#[schemars(extend("properties" = {}))]
pub struct NoArgs {}

/// Decodes tool arguments (a JSON object; absent means `{}`), turning a mismatch into the
/// `invalid_argument` error object so that every tool error has the same shape.
pub fn parse_args<T: DeserializeOwned>(
    arguments: Option<serde_json::Map<String, serde_json::Value>>,
) -> Result<T, ErrorOutput> {
    let value = serde_json::Value::Object(arguments.unwrap_or_default());
    serde_json::from_value(value)
        .map_err(|e| error_output(Error::InvalidArgument(format!("bad tool arguments: {e}"))))
}

/// Answers `context_get`: the exact cue JSON.
pub fn handle_get(opts: &Options, args: GetArgs) -> Result<String, ErrorOutput> {
    let request = args.to_request();
    with_service(opts, |s| {
        s.cue(&with_default_budget(s, request, args.max_tokens)?)
            .map(|cue| cue.output)
    })
}

/// Gives a request without `max_tokens` the configured default budget (`cue.max_tokens`).
pub(crate) fn with_default_budget(
    service: &Service,
    mut request: CueRequest,
    given: Option<u64>,
) -> repocue::Result<CueRequest> {
    if given.is_none() {
        request.max_tokens = service.default_max_tokens()?;
    }
    Ok(request)
}

/// Answers `context_search`: the search cue JSON.
pub fn handle_search(opts: &Options, args: SearchArgs) -> Result<String, ErrorOutput> {
    if args.query.trim().is_empty() {
        return Err(error_output(Error::InvalidArgument(
            "query must not be empty".into(),
        )));
    }
    let request = args.to_request();
    with_service(opts, |s| {
        s.cue(&with_default_budget(s, request, args.max_tokens)?)
            .map(|cue| cue.json)
    })
}

/// Answers `context_refresh`: a baseline when uninitialized, else an incremental refresh.
pub fn handle_refresh(opts: &Options, _args: NoArgs) -> Result<String, ErrorOutput> {
    with_service(opts, |s| {
        s.update(&Operation::Init).map(|out| to_json(&out))
    })
}

/// Answers `context_rebaseline`: a new epoch with a full baseline.
pub fn handle_rebaseline(opts: &Options, args: RebaselineArgs) -> Result<String, ErrorOutput> {
    if args.label.trim().is_empty() || args.reason.trim().is_empty() {
        return Err(error_output(Error::InvalidArgument(
            "label and reason must not be empty".into(),
        )));
    }
    let op = Operation::Rebaseline {
        label: args.label,
        reason: args.reason,
    };
    with_service(opts, |s| s.update(&op).map(|out| to_json(&out)))
}

/// Answers `context_status`: the live repository against the current snapshot.
pub fn handle_status(opts: &Options, _args: NoArgs) -> Result<String, ErrorOutput> {
    with_service(opts, |s| s.status().map(|out| to_json(&out)))
}

/// Decodes arguments and runs the handler of the tool called `name`; `None` for an unknown
/// tool. This is the whole tool surface in one function, for tests and other transports.
pub fn call(
    opts: &Options,
    name: &str,
    arguments: Option<serde_json::Map<String, serde_json::Value>>,
) -> Option<Result<String, ErrorOutput>> {
    Some(match name {
        "context_get" => parse_args(arguments).and_then(|a| handle_get(opts, a)),
        "context_search" => parse_args(arguments).and_then(|a| handle_search(opts, a)),
        "context_task" => parse_args(arguments).and_then(|a| handle_task(opts, a)),
        "context_refresh" => parse_args(arguments).and_then(|a| handle_refresh(opts, a)),
        "context_rebaseline" => parse_args(arguments).and_then(|a| handle_rebaseline(opts, a)),
        "context_status" => parse_args(arguments).and_then(|a| handle_status(opts, a)),
        _ => return None,
    })
}

/// Opens a service for one request, runs `f`, and passes the service's notices to stderr.
pub(crate) fn with_service<T>(
    opts: &Options,
    f: impl FnOnce(&Service) -> repocue::Result<T>,
) -> Result<T, ErrorOutput> {
    let service = Service::open(opts).map_err(error_output)?;
    let result = f(&service);
    for notice in service.take_notices() {
        eprintln!("repocue: warning: {notice}");
    }
    result.map_err(error_output)
}

/// Converts a library error into its public error object.
pub fn error_output(e: Error) -> ErrorOutput {
    (&e).into()
}

/// Renders an error object as the single line of JSON a failed tool answers with.
pub fn error_line(e: &ErrorOutput) -> String {
    to_json(e)
}

fn to_json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("output serializes")
}
