use std::path::PathBuf;

use super::json_line;
use crate::CommandError;

/// Bind measured experiment sets to this checkout as an immutable calibration profile
#[derive(Debug, clap::Args)]
pub struct CalibrationArgs {
    #[command(subcommand)]
    action: Action,
}

#[derive(Debug, clap::Subcommand)]
enum Action {
    Import(ImportArgs),
}

/// Validate complete sets against the live checkout and import them; publishes nothing on failure
#[derive(Debug, clap::Args)]
struct ImportArgs {
    /// A set directory from `experiment prepare` + `experiment run`; repeatable to merge sets
    #[arg(long, value_name = "DIR", required = true)]
    set: Vec<PathBuf>,
    /// The arm that counts as assisted
    #[arg(long, default_value = "basic", value_name = "ARM")]
    assisted: String,
}

pub fn run_calibration(
    opts: repocue::Options,
    args: CalibrationArgs,
) -> Result<String, CommandError> {
    match args.action {
        Action::Import(a) => Ok(json_line(
            &repocue_eval::calibration::import(&opts, &a.set, &a.assisted)
                .map_err(super::eval_error)?,
        )),
    }
}
