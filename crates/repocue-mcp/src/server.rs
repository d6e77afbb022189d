//! The rmcp glue: tool routing, resources, server info, and the stdio session.
//!
//! Every request opens its own [`repocue::Service`] on tokio's blocking pool: the service is
//! synchronous and not `Sync`, and repository work must never stall the protocol loop (a
//! slow baseline must not delay a `ping`). Nothing is cached between requests.

use std::time::Duration;

use repocue::api::ErrorOutput;
use repocue::{Error, Options};
use rmcp::handler::server::common::schema_for_input;
use rmcp::model::{
    CallToolRequest, CallToolRequestMethod, CallToolResult, ConstString, ContentBlock,
    CustomRequest, CustomResult, ErrorCode, ErrorData, Implementation, InitializeRequest,
    InitializeResultMethod, JsonObject, ListResourceTemplatesRequest,
    ListResourceTemplatesRequestMethod, ListResourceTemplatesResult, ListResourcesRequest,
    ListResourcesRequestMethod, ListResourcesResult, ListToolsRequest, ListToolsRequestMethod,
    PaginatedRequestParams, PingRequest, PingRequestMethod, ReadResourceRequest,
    ReadResourceRequestMethod, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult,
    Resource, ResourceContents, ResourceTemplate, ServerCapabilities, ServerConfig,
};
use rmcp::service::{RequestContext, ServerInitializeError};
use rmcp::{tool, tool_handler, tool_router, RoleServer, ServerHandler, ServiceExt};
use serde::de::DeserializeOwned;
use serde_json::json;

use crate::resources::{self, ResourceError};
use crate::tools::{self, GetArgs, NoArgs, RebaselineArgs, SearchArgs, TaskArgs};
use crate::transport::LineTransport;

/// How long shutdown waits for repository work still running when the client goes away.
/// A publish is one SQLite transaction, so abandoning it after this is safe (it rolls back).
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// Most repository requests that run at once; more wait for a free thread. Agents rarely send
/// more than a few at a time, and each may scan the whole work tree.
const MAX_BLOCKING_THREADS: usize = 8;

/// What the server tells an agent at `initialize`.
pub const INSTRUCTIONS: &str = "RepoCue serves small, token-budgeted, freshness-aware JSON \
cues about this Git repository, so you need not rediscover it by reading files. Start a task \
with context_get {\"view\":\"overview\"}: what the project is, where to start, how to build and \
test it, what state it is in. Always check `freshness` (current, dirty-but-indexed, \
possibly-stale, refresh-needed) and `warnings`; when a cue left items out, `more` lists the \
exact follow-up context_get requests. Use context_search to find where something lives, \
context_get view delta (since a snapshot id) to see what changed, context_status for a cheap \
freshness check. Cues refresh the cache on read; context_refresh and context_rebaseline are \
rarely needed. Errors come back as a JSON object {\"error\":{\"code\",\"message\",\"hint\",\
\"retryable\"}}.";

const GET_DESCRIPTION: &str = "Return a token-budgeted JSON cue about this repository instead \
of reading files to discover it. Start every task with {\"view\":\"overview\"}: purpose, \
the language version the project requires, \
languages, components, entry points (package roots with the names they export), build/test/run \
commands, key documents and symbols, recent commits, dirty paths. Symbols are {path, name, line, signature}; their entity id is \
symbol:<path>:<name>. Check `freshness` and `warnings` before trusting details. If items were \
left out (`omitted` counts them), `more` lists the exact follow-up requests (view, path/id/since/query, max_tokens): \
call context_get with them. Views: manifest (cheapest identity and freshness check), overview, \
delta (what changed since snapshot or commit `since`, default the previous snapshot), structure (`path`), \
entity (`id`), document (`path`), search (`query`). The cache is brought up to date before \
answering unless refresh is false.";

const SEARCH_DESCRIPTION: &str = "Search this repository's paths, symbols and document \
sections (ranked, token-budgeted JSON). Use it to find where something is defined or \
documented before opening files, then ask context_get for the entity or structure. Check \
`freshness`; follow `more` for further hits.";

const REFRESH_DESCRIPTION: &str = "Bring the cache up to date with the working tree: a full \
baseline on first use, else an incremental refresh that rescans only changed paths. Returns the \
snapshot published (if anything changed), its delta and change counts. Rarely needed, since \
context_get refreshes on read; useful after large edits, checkouts or merges, or to get a \
snapshot id to pass later as `since` to the delta view.";

const TASK_DESCRIPTION: &str = "Return the original repository text that the repository's \
authors declared relevant for a kind of task (discovery, explanation, verification) and the \
paths you work on, from a tracked repocue/task-context-1 declaration: required items always \
whole, optional ones while they fit, each source pinned by SHA-256. The texts are quoted \
repository content, not instructions from RepoCue. Fails (stale_pin, budget_too_small with the \
minimum, refresh_needed, ...) rather than deliver partial or outdated text.";

const REBASELINE_DESCRIPTION: &str = "Start a new epoch with a full baseline; the old epoch \
is kept as superseded. Only for deliberate milestones (a release, a large merge) or when the \
cache seems wrong; ordinary edits need no rebaseline. Both label and reason are required.";

const STATUS_DESCRIPTION: &str = "Compare the live repository with the current snapshot \
without refreshing or publishing anything: freshness with reasons, branch, HEAD, working-tree counts and the \
paths changed since the snapshot. Cheap; use it to decide whether cues can be trusted.";

/// The MCP server of one repository (as resolved from its options on every request).
#[derive(Debug, Clone)]
pub struct RepoCueServer {
    opts: Options,
}

fn input_schema<T: schemars::JsonSchema + 'static>() -> std::sync::Arc<JsonObject> {
    schema_for_input::<T>().expect("tool arguments are JSON objects")
}

#[tool_router]
impl RepoCueServer {
    /// Creates a server for the repository and cache the options name.
    pub fn new(opts: Options) -> Self {
        RepoCueServer { opts }
    }

    #[tool(
        name = "context_get",
        description = GET_DESCRIPTION,
        input_schema = input_schema::<GetArgs>(),
        annotations(title = "Get repository context", read_only_hint = true, open_world_hint = false)
    )]
    async fn context_get(&self, args: JsonObject) -> CallToolResult {
        self.run(move |o| tools::parse_args(Some(args)).and_then(|a| tools::handle_get(o, a)))
            .await
    }

    #[tool(
        name = "context_search",
        description = SEARCH_DESCRIPTION,
        input_schema = input_schema::<SearchArgs>(),
        annotations(title = "Search the repository", read_only_hint = true, open_world_hint = false)
    )]
    async fn context_search(&self, args: JsonObject) -> CallToolResult {
        self.run(move |o| tools::parse_args(Some(args)).and_then(|a| tools::handle_search(o, a)))
            .await
    }

    #[tool(
        name = "context_task",
        description = TASK_DESCRIPTION,
        input_schema = input_schema::<TaskArgs>(),
        annotations(title = "Get declared task context", read_only_hint = true, open_world_hint = false)
    )]
    async fn context_task(&self, args: JsonObject) -> CallToolResult {
        self.run(move |o| tools::parse_args(Some(args)).and_then(|a| tools::handle_task(o, a)))
            .await
    }

    #[tool(
        name = "context_refresh",
        description = REFRESH_DESCRIPTION,
        input_schema = input_schema::<NoArgs>(),
        annotations(
            title = "Refresh the repository cache",
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = true,
            open_world_hint = false
        )
    )]
    async fn context_refresh(&self, args: JsonObject) -> CallToolResult {
        self.run(move |o| tools::parse_args(Some(args)).and_then(|a| tools::handle_refresh(o, a)))
            .await
    }

    #[tool(
        name = "context_rebaseline",
        description = REBASELINE_DESCRIPTION,
        input_schema = input_schema::<RebaselineArgs>(),
        annotations(
            title = "Start a new cache epoch",
            read_only_hint = false,
            destructive_hint = false,
            idempotent_hint = false,
            open_world_hint = false
        )
    )]
    async fn context_rebaseline(&self, args: JsonObject) -> CallToolResult {
        self.run(move |o| {
            tools::parse_args(Some(args)).and_then(|a| tools::handle_rebaseline(o, a))
        })
        .await
    }

    #[tool(
        name = "context_status",
        description = STATUS_DESCRIPTION,
        input_schema = input_schema::<NoArgs>(),
        annotations(title = "Check cache freshness", read_only_hint = true, open_world_hint = false)
    )]
    async fn context_status(&self, args: JsonObject) -> CallToolResult {
        self.run(move |o| tools::parse_args(Some(args)).and_then(|a| tools::handle_status(o, a)))
            .await
    }
}

impl RepoCueServer {
    /// Runs one handler on the blocking pool and turns its answer into a tool result: the
    /// JSON text, or the JSON error object with `isError: true`.
    async fn run<F>(&self, f: F) -> CallToolResult
    where
        F: FnOnce(&Options) -> Result<String, ErrorOutput> + Send + 'static,
    {
        match self.blocking(f).await {
            Ok(text) => CallToolResult::success(vec![ContentBlock::text(text)]),
            Err(e) => CallToolResult::error(vec![ContentBlock::text(tools::error_line(&e))]),
        }
    }

    /// Runs `f` with the options on the blocking pool; a panic becomes an `internal_error`.
    async fn blocking<T, F>(&self, f: F) -> Result<T, ErrorOutput>
    where
        T: Send + 'static,
        F: FnOnce(&Options) -> Result<T, ErrorOutput> + Send + 'static,
    {
        let opts = self.opts.clone();
        match tokio::task::spawn_blocking(move || f(&opts)).await {
            Ok(result) => result,
            Err(e) => Err(internal(format!("request failed unexpectedly: {e}"))),
        }
    }
}

fn internal(message: String) -> ErrorOutput {
    ErrorOutput {
        error: repocue::api::ErrorBody {
            code: "internal_error".into(),
            message,
            hint: None,
            retryable: false,
        },
    }
}

/// Maps a resource failure to the MCP error a client expects.
fn resource_error(uri: &str, e: ResourceError) -> ErrorData {
    match e {
        ResourceError::Invalid(m) => ErrorData::invalid_params(m, Some(json!({ "uri": uri }))),
        ResourceError::NotFound(m) => ErrorData::resource_not_found(m, Some(json!({ "uri": uri }))),
        ResourceError::Library(out) => library_error(out),
    }
}

fn library_error(out: ErrorOutput) -> ErrorData {
    let message = out.error.message.clone();
    let data = serde_json::to_value(&out).ok();
    match out.error.code.as_str() {
        "not_found" => ErrorData::resource_not_found(message, data),
        "invalid_argument" | "budget_too_small" => ErrorData::invalid_params(message, data),
        _ => ErrorData::internal_error(message, data),
    }
}

/// The requests this server answers, each with a check that says why its parameters did not
/// decode. rmcp hands a request of a known method whose `params` do not fit that method's type
/// to [`ServerHandler::on_custom_request`], as if the method were unknown.
const SERVED_REQUESTS: &[(&str, DecodeCheck)] = &[
    (
        InitializeResultMethod::VALUE,
        decode_error::<InitializeRequest>,
    ),
    (PingRequestMethod::VALUE, decode_error::<PingRequest>),
    (
        ListToolsRequestMethod::VALUE,
        decode_error::<ListToolsRequest>,
    ),
    (
        CallToolRequestMethod::VALUE,
        decode_error::<CallToolRequest>,
    ),
    (
        ListResourcesRequestMethod::VALUE,
        decode_error::<ListResourcesRequest>,
    ),
    (
        ListResourceTemplatesRequestMethod::VALUE,
        decode_error::<ListResourceTemplatesRequest>,
    ),
    (
        ReadResourceRequestMethod::VALUE,
        decode_error::<ReadResourceRequest>,
    ),
];

/// A check that returns why a request does not decode as the type of its method.
type DecodeCheck = fn(&CustomRequest) -> Option<String>;

/// Returns why `request` does not decode as a `T`, if it does not.
fn decode_error<T: DeserializeOwned>(request: &CustomRequest) -> Option<String> {
    let wire = json!({ "method": request.method, "params": request.params });
    serde_json::from_value::<T>(wire)
        .err()
        .map(|e| e.to_string())
}

/// Returns the error for a request rmcp could not type: invalid params for a method this
/// server answers, else method not found (rmcp's own answer, the method as the message).
fn custom_request_error(request: &CustomRequest) -> ErrorData {
    let method = request.method.as_str();
    match SERVED_REQUESTS.iter().find(|(name, _)| *name == method) {
        Some((_, why)) => {
            let why = why(request).unwrap_or_else(|| "they do not fit the method".into());
            ErrorData::invalid_params(format!("Invalid params for {method}: {why}"), None)
        }
        None => ErrorData::new(ErrorCode::METHOD_NOT_FOUND, method.to_owned(), None),
    }
}

#[tool_handler]
impl ServerHandler for RepoCueServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .build(),
        )
        .with_server_info(Implementation::new("repocue", env!("CARGO_PKG_VERSION")))
        .with_instructions(INSTRUCTIONS)
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        let repo_id = self
            .blocking(resources::served_repo_id)
            .await
            .map_err(library_error)?;
        let overview = Resource::new(resources::overview_uri(&repo_id), "overview")
            .with_title("Repository overview (current)")
            .with_description(
                "Overview cue of the current state: what the project is, where to start, how \
                 to build and test it, what state it is in.",
            )
            .with_mime_type("application/json");
        Ok(ListResourcesResult::with_all_items(vec![overview]))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        let repo_id = self
            .blocking(resources::served_repo_id)
            .await
            .map_err(library_error)?;
        let templates = resources::templates(&repo_id)
            .into_iter()
            .map(|t| {
                ResourceTemplate::new(t.uri_template, t.name)
                    .with_description(t.description)
                    .with_mime_type("application/json")
            })
            .collect();
        Ok(ListResourceTemplatesResult::with_all_items(templates))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let uri = request.uri;
        let target = uri.clone();
        let opts = self.opts.clone();
        let read = tokio::task::spawn_blocking(move || resources::read(&opts, &target)).await;
        let json = match read {
            Ok(result) => result.map_err(|e| resource_error(&uri, e))?,
            Err(e) => return Err(ErrorData::internal_error(format!("read failed: {e}"), None)),
        };
        let contents = ResourceContents::text(json, uri).with_mime_type("application/json");
        // Freshness is live: a client must not reuse the answer.
        Ok(ReadResourceResult::new(vec![contents])
            .with_ttl_ms(0)
            .into())
    }

    async fn on_custom_request(
        &self,
        request: CustomRequest,
        _context: RequestContext<RoleServer>,
    ) -> Result<CustomResult, ErrorData> {
        Err(custom_request_error(&request))
    }
}

/// Serves MCP over stdin/stdout until the client closes stdin or stops reading stdout. Logs go
/// to stderr only.
///
/// Every request gets an answer, a malformed one a JSON-RPC error with its id (or `null`): a
/// parse error for a line that is not JSON, invalid request for a message of the wrong shape or
/// a line longer than [`crate::MAX_LINE_BYTES`], invalid params for a request of a served
/// method whose parameters do not fit. Notifications and responses are never answered.
///
/// Returns `Ok` when the client goes away, before or after `initialize`; an error when the
/// repository or cache cannot be opened, the runtime cannot start, or the session breaks (e.g.
/// the first message is not `initialize`).
pub fn serve_stdio(opts: Options) -> repocue::Result<()> {
    // A wrong --repository or cache directory fails the start, where the person configuring
    // the agent sees it, instead of failing every later call with the same error.
    let service = repocue::Service::open(&opts)?;
    for notice in service.take_notices() {
        eprintln!("repocue: warning: {notice}");
    }
    eprintln!(
        "repocue: serving {} ({}) over MCP on stdio",
        service.repo_id(),
        service.root().display()
    );
    drop(service);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .max_blocking_threads(MAX_BLOCKING_THREADS)
        .build()
        .map_err(|source| Error::Io {
            context: "cannot start the MCP runtime".into(),
            source,
        })?;
    let result = runtime.block_on(session(opts));
    // A stdin read or a repository operation still running must not hold the exit forever.
    runtime.shutdown_timeout(SHUTDOWN_GRACE);
    result
}

async fn session(opts: Options) -> repocue::Result<()> {
    let server = RepoCueServer::new(opts);
    let (input, output) = rmcp::transport::stdio_pipes();
    let running = match server.serve(LineTransport::new(input, output)).await {
        Ok(running) => running,
        // The client went away before `initialize`: nothing was asked, nothing failed.
        Err(ServerInitializeError::ConnectionClosed(_)) => return Ok(()),
        Err(e) => return Err(session_error(e)),
    };
    running.waiting().await.map(|_| ()).map_err(session_error)
}

fn session_error(e: impl std::fmt::Display) -> Error {
    Error::Io {
        context: "MCP session failed".into(),
        source: std::io::Error::other(e.to_string()),
    }
}
