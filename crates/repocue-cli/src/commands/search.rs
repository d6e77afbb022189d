use repocue::Service;
use repocue::{CueRequest, View};

use super::cue::{print, FormatArg};
use crate::CommandError;

/// Search paths, symbols and document headings (ranked: exact names, the project's own code, bm25), within a token budget
#[derive(Debug, clap::Args)]
pub struct SearchArgs {
    /// What to look for: words, identifiers or a path fragment
    #[arg(
        required_unless_present = "query_option",
        conflicts_with = "query_option"
    )]
    pub query: Option<String>,
    /// The query as an option, as in `cue --view search --query TEXT`
    #[arg(long = "query", value_name = "TEXT")]
    pub query_option: Option<String>,
    /// Comma-separated scopes among code, docs, paths [default: all]
    #[arg(long, value_name = "SCOPES")]
    pub scope: Option<String>,
    /// Most hits to consider [default: 20]
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=200))]
    pub max_results: Option<u32>,
    /// Token budget: ceil(output bytes / 4), ceil(bytes * 2 / 7) for text, never exceeds it
    /// [default: cue.max_tokens of the configuration, else 500]
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=repocue::MAX_MAX_TOKENS))]
    pub max_tokens: Option<u64>,
    /// Output format
    #[arg(long, value_enum, default_value = "json")]
    pub format: FormatArg,
    /// Search the stored snapshot as it is, with its true freshness
    #[arg(long)]
    pub no_refresh: bool,
    /// Add the full provenance (repository name and id, epoch, full head, dirty flag, digests,
    /// observation time, the budget used)
    #[arg(long)]
    pub provenance: bool,
}

pub fn run_search(service: &Service, args: SearchArgs) -> Result<String, CommandError> {
    let max_tokens = match args.max_tokens {
        Some(n) => n,
        None => service.default_max_tokens()?,
    };
    let request = CueRequest {
        max_tokens,
        query: args.query.or(args.query_option),
        scope: args.scope,
        max_results: args.max_results,
        refresh: !args.no_refresh,
        format: args.format.format(),
        provenance: args.provenance,
        ..CueRequest::new(View::Search)
    };
    Ok(print(&service.cue(&request)?))
}
