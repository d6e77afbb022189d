use repocue::CheckpointAction;
use repocue::Service;

use super::json_line;
use crate::CommandError;

/// List, pin or delete checkpoints: snapshots that pruning never removes
#[derive(Debug, clap::Args)]
pub struct CheckpointArgs {
    #[command(subcommand)]
    pub action: CheckpointCmd,
}

#[derive(Debug, clap::Subcommand)]
pub enum CheckpointCmd {
    /// List checkpoints
    List,
    /// Pin a snapshot (default: the current one)
    Pin {
        /// Label, e.g. `release:1.2`
        #[arg(long)]
        label: String,
        /// Snapshot to pin
        #[arg(long, value_name = "SNAPSHOT")]
        snapshot: Option<String>,
    },
    /// Delete a checkpoint (the snapshot stays until pruned)
    Delete {
        /// Checkpoint id, e.g. checkpoint-000001
        id: String,
    },
}

pub fn run_checkpoint(service: &Service, args: CheckpointArgs) -> Result<String, CommandError> {
    let action = match args.action {
        CheckpointCmd::List => CheckpointAction::List,
        CheckpointCmd::Pin { label, snapshot } => CheckpointAction::Pin { snapshot, label },
        CheckpointCmd::Delete { id } => CheckpointAction::Delete { id },
    };
    Ok(json_line(&service.checkpoint(action)?))
}
