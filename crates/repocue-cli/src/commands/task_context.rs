use repocue::Service;

use super::json_line;
use crate::CommandError;

/// Check or renew the digest pins of a task-context declaration
#[derive(Debug, clap::Args)]
pub struct TaskContextArgs {
    #[command(subcommand)]
    pub action: TaskContextCmd,
}

/// The declaration used when none is given.
const DEFAULT_CONTEXT_FILE: &str = "docs/task-context.example.json";

#[derive(Debug, clap::Subcommand)]
pub enum TaskContextCmd {
    /// List pins whose declared digest no longer matches the file; exit 1 when any is stale
    Check {
        /// Repository-relative path of the declaration
        #[arg(long, value_name = "PATH", default_value = DEFAULT_CONTEXT_FILE)]
        context_file: String,
    },
    /// Rewrite stale digests in the declaration to the files' current digests
    Pin {
        /// Confirm the rewrite: review the changed sources first, pins are not renewed for you
        #[arg(long, required = true)]
        update: bool,
        /// Repository-relative path of the declaration
        #[arg(long, value_name = "PATH", default_value = DEFAULT_CONTEXT_FILE)]
        context_file: String,
    },
}

pub fn run_task_context(service: &Service, args: TaskContextArgs) -> Result<String, CommandError> {
    match args.action {
        TaskContextCmd::Check { context_file } => {
            let report = service.task_context_check(&context_file)?;
            let text = json_line(&report);
            if report.stale.is_empty() {
                return Ok(text);
            }
            // The report is the listing; the error line makes scripts and CI stop.
            let e = repocue::Error::StalePins {
                path: context_file,
                stale: report.stale.len(),
                pins: report.pins as usize,
            };
            let mut err = CommandError::from(e);
            err.stdout = Some(text);
            Err(err)
        }
        TaskContextCmd::Pin {
            update,
            context_file,
        } => {
            debug_assert!(update, "clap requires --update");
            Ok(json_line(&service.task_context_pin_update(&context_file)?))
        }
    }
}
