use repocue::Service;

use super::json_line;
use crate::CommandError;

/// Show recorded operation and cue measurements and the database size
#[derive(Debug, clap::Args)]
pub struct MetricsArgs {}

pub fn run_metrics(service: &Service, _args: MetricsArgs) -> Result<String, CommandError> {
    Ok(json_line(&service.metrics()?))
}
