use repocue::Service;
use repocue::{CueRequest, Format, View};

use crate::CommandError;

/// Print a token-budgeted cue: manifest, overview, delta, structure, entity, search, document or task
#[derive(Debug, clap::Args)]
pub struct CueArgs {
    /// Which projection [default: overview, or delta with --since]
    #[arg(long, value_enum)]
    pub view: Option<ViewArg>,
    /// Token budget: ceil(output bytes / 4), ceil(bytes * 2 / 7) for text, never exceeds it
    /// [default: cue.max_tokens of the configuration, else 500]
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=repocue::MAX_MAX_TOKENS))]
    pub max_tokens: Option<u64>,
    /// What changed since this snapshot or commit (HEAD~1, main, an object id) (implies --view
    /// delta; default: the current snapshot's parent)
    #[arg(long, value_name = "SNAPSHOT|COMMIT")]
    pub since: Option<String>,
    /// For structure: a directory or file prefix; for document: the document path (relative to
    /// the repository root, not to the working directory)
    #[arg(long, value_name = "PATH")]
    pub path: Option<String>,
    /// For entity: symbol:<path>:<qualified.name>, file:<path>, doc:<path> or doc:<path>#<slug>
    #[arg(long, value_name = "ID")]
    pub id: Option<String>,
    /// For search: the query
    #[arg(long, value_name = "TEXT")]
    pub query: Option<String>,
    /// For search: comma-separated scopes among code, docs, paths
    #[arg(long, value_name = "SCOPES")]
    pub scope: Option<String>,
    /// For task: the repository-relative path of the task-context declaration
    #[arg(long, value_name = "PATH")]
    pub context_file: Option<String>,
    /// For task: discovery, explanation or verification
    #[arg(long, value_name = "KIND")]
    pub task_kind: Option<String>,
    /// For task: a target path (repeatable; `.` is the whole repository)
    #[arg(long = "target", value_name = "PATH")]
    pub targets: Vec<String>,
    /// Output format
    #[arg(long, value_enum, default_value = "json")]
    pub format: FormatArg,
    /// Serve the stored snapshot as it is, with its true freshness
    #[arg(long)]
    pub no_refresh: bool,
    /// Add the full provenance (repository name and id, epoch, full head, dirty flag, digests,
    /// observation time, the budget used); on a delta also every operation with digests and
    /// object ids
    #[arg(long)]
    pub provenance: bool,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum ViewArg {
    Manifest,
    Overview,
    Delta,
    Structure,
    Entity,
    Search,
    Document,
    Task,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub enum FormatArg {
    /// Canonical JSON
    Json,
    /// The same data laid out for people (budgeted on the JSON)
    Markdown,
    /// Terse layout for agents, budgeted on its own bytes
    Text,
}

impl FormatArg {
    /// Returns the library's format.
    pub fn format(self) -> Format {
        match self {
            FormatArg::Json => Format::Json,
            FormatArg::Markdown => Format::Markdown,
            FormatArg::Text => Format::Text,
        }
    }
}

/// Returns a cue's output with a final newline.
pub fn print(cue: &repocue::api::Cue) -> String {
    let mut out = cue.output.clone();
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out
}

pub fn run_cue(service: &Service, args: CueArgs) -> Result<String, CommandError> {
    // `cue --since S` asks what changed since S, as in the reference tool.
    let chosen = args.view.unwrap_or(if args.since.is_some() {
        ViewArg::Delta
    } else {
        ViewArg::Overview
    });
    let view = match chosen {
        ViewArg::Manifest => View::Manifest,
        ViewArg::Overview => View::Overview,
        ViewArg::Delta => View::Delta,
        ViewArg::Structure => View::Structure,
        ViewArg::Entity => View::Entity,
        ViewArg::Search => View::Search,
        ViewArg::Document => View::Document,
        ViewArg::Task => View::Task,
    };
    let max_tokens = match args.max_tokens {
        Some(n) => n,
        None => service.default_max_tokens()?,
    };
    let request = CueRequest {
        max_tokens,
        since: args.since,
        path: args.path,
        id: args.id,
        query: args.query,
        scope: args.scope,
        context_file: args.context_file,
        task_kind: args.task_kind,
        targets: args.targets,
        refresh: !args.no_refresh,
        format: args.format.format(),
        provenance: args.provenance,
        ..CueRequest::new(view)
    };
    Ok(print(&service.cue(&request)?))
}
