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
    /// Recent snapshots of the active epoch to keep [default: retention.keep_recent of the
    /// configuration, else 20]
    #[arg(long)]
    pub keep: Option<usize>,
}

pub fn run_prune(service: &Service, args: PruneArgs) -> Result<String, CommandError> {
    let keep = match args.keep {
        Some(n) => n,
        None => service.default_keep_recent()?,
    };
    Ok(json_line(&service.prune(keep, args.dry_run)?))
}
