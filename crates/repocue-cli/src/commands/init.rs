use std::path::PathBuf;

use repocue::Operation;
use repocue::Service;

use super::json_line;
use crate::CommandError;

/// Record a full baseline of the repository (a refresh when already initialized)
#[derive(Debug, clap::Args)]
pub struct InitArgs {
    /// Any directory inside the work tree (same as --repository)
    pub path: Option<PathBuf>,
}

pub fn run_init(service: &Service, _args: InitArgs) -> Result<String, CommandError> {
    Ok(json_line(&service.update(&Operation::Init)?))
}
