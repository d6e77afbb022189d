use repocue::Operation;
use repocue::Service;

use super::json_line;
use crate::CommandError;

/// Start a new epoch with a full baseline; the old epoch is kept as superseded
#[derive(Debug, clap::Args)]
pub struct RebaselineArgs {
    /// Label of the new epoch, e.g. `release:1.2`
    #[arg(long)]
    pub label: String,
    /// Why the new epoch starts
    #[arg(long)]
    pub reason: String,
}

pub fn run_rebaseline(service: &Service, args: RebaselineArgs) -> Result<String, CommandError> {
    if args.label.trim().is_empty() || args.reason.trim().is_empty() {
        return Err(repocue::Error::InvalidArgument(
            "--label and --reason must not be empty".into(),
        )
        .into());
    }
    Ok(json_line(&service.update(&Operation::Rebaseline {
        label: args.label,
        reason: args.reason,
    })?))
}
