use super::json_line;
use crate::CommandError;

/// Measure RepoCue on this repository with a throwaway cache: baseline, no-op refresh and
/// cues, with files and bytes read, Git processes, DB size and wall time
#[derive(Debug, clap::Args)]
pub struct EvaluateArgs {
    /// Budget of the probed cues
    #[arg(long, default_value_t = repocue::DEFAULT_MAX_TOKENS, value_parser = clap::value_parser!(u64).range(1..=repocue::MAX_MAX_TOKENS))]
    pub max_tokens: u64,
}

pub fn run_evaluate(opts: repocue::Options, args: EvaluateArgs) -> Result<String, CommandError> {
    Ok(json_line(&repocue::evaluate(&opts, args.max_tokens)?))
}
