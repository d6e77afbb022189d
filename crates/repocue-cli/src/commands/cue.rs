use repocue::Service;
use repocue::{render_markdown, CueRequest, Format, View};

use crate::CommandError;

/// Print a token-budgeted cue: manifest, overview, delta, structure, entity, search, document or task
#[derive(Debug, clap::Args)]
pub struct CueArgs {
    /// Which projection
    #[arg(long, value_enum, default_value = "overview")]
    pub view: ViewArg,
    /// Token budget: ceil(output bytes / 4) never exceeds it
    #[arg(long, default_value_t = repocue::DEFAULT_MAX_TOKENS, value_parser = clap::value_parser!(u64).range(1..=repocue::MAX_MAX_TOKENS))]
    pub max_tokens: u64,
    /// For delta: the earlier snapshot (default: the current snapshot's parent)
    #[arg(long, value_name = "SNAPSHOT")]
    pub since: Option<String>,
    /// For structure: a directory or file prefix; for document: the document path
    #[arg(long, value_name = "PATH")]
    pub path: Option<String>,
    /// For entity: symbol:<path>:<qualified.name> or file:<path>
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
    Json,
    Markdown,
}

pub fn run_cue(service: &Service, args: CueArgs) -> Result<String, CommandError> {
    let view = match args.view {
        ViewArg::Manifest => View::Manifest,
        ViewArg::Overview => View::Overview,
        ViewArg::Delta => View::Delta,
        ViewArg::Structure => View::Structure,
        ViewArg::Entity => View::Entity,
        ViewArg::Search => View::Search,
        ViewArg::Document => View::Document,
        ViewArg::Task => View::Task,
    };
    let format = match args.format {
        FormatArg::Json => Format::Json,
        FormatArg::Markdown => Format::Markdown,
    };
    let request = CueRequest {
        max_tokens: args.max_tokens,
        since: args.since,
        path: args.path,
        id: args.id,
        query: args.query,
        scope: args.scope,
        context_file: args.context_file,
        task_kind: args.task_kind,
        targets: args.targets,
        refresh: !args.no_refresh,
        ..CueRequest::new(view)
    };
    let cue = service.cue(&request)?;
    Ok(match format {
        Format::Json => format!("{}\n", cue.json),
        Format::Markdown => render_markdown(&cue.value),
    })
}
