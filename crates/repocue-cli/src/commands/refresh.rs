use repocue::Operation;
use repocue::Service;

use super::json_line;
use crate::CommandError;

/// Rescan what changed and publish a snapshot when the indexed state changed
#[derive(Debug, clap::Args)]
pub struct RefreshArgs {}

pub fn run_refresh(service: &Service, _args: RefreshArgs) -> Result<String, CommandError> {
    Ok(json_line(&service.update(&Operation::Refresh)?))
}
