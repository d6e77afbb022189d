use repocue::Service;

use super::json_line;
use crate::CommandError;

/// Remove snapshots outside retention: keeps the current snapshot, the active epoch's
/// baseline, the most recent snapshots and every checkpoint
#[derive(Debug, clap::Args)]
pub struct PruneArgs {
    /// Show what would be removed without removing anything
    #[arg(long)]
    pub dry_run: bool,
    /// Recent snapshots of the active epoch to keep
    #[arg(long, default_value_t = repocue::KEEP_RECENT)]
    pub keep: usize,
}

pub fn run_prune(service: &Service, args: PruneArgs) -> Result<String, CommandError> {
    Ok(json_line(&service.prune(args.keep, args.dry_run)?))
}
