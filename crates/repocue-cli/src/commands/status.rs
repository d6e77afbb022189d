use repocue::Service;

use super::json_line;
use crate::CommandError;

/// Compare the live repository with the current snapshot, without refreshing or publishing anything
#[derive(Debug, clap::Args)]
pub struct StatusArgs {}

pub fn run_status(service: &Service, _args: StatusArgs) -> Result<String, CommandError> {
    Ok(json_line(&service.status()?))
}
