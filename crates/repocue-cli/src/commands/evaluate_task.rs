use std::path::PathBuf;

use repocue_eval::evaluate_task::{self, TaskPrepareOptions};
use repocue_eval::experiment::RunnerSpec;

use super::json_line;
use crate::CommandError;

/// Compare the overview cue with the task cue on one task: prepare a set, run one ordered pair, summarise
#[derive(Debug, clap::Args)]
pub struct EvaluateTaskArgs {
    #[command(subcommand)]
    action: Action,
}

#[derive(Debug, clap::Subcommand)]
enum Action {
    Prepare(PrepareArgs),
    Run(RunArgs),
    Summary(SummaryArgs),
}

/// Freeze a task benchmark, both cues and the pair schedule into a new set directory
#[derive(Debug, clap::Args)]
struct PrepareArgs {
    /// The repocue/task-benchmark-1 file (task, declaration, targets, common budget)
    #[arg(long, value_name = "FILE")]
    task_file: PathBuf,
    /// Parent directory of the new set; must lie outside the work tree and its Git directory
    #[arg(long, value_name = "DIR")]
    output_directory: PathBuf,
    /// Ordered pairs to schedule; each `run` launches one
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=100))]
    pairs: u64,
    /// Arm order: alternate (overview first in odd pairs) or seeded:<number>
    #[arg(long, default_value = "alternate")]
    order: String,
    /// The repocue executable the cues run [default: this executable]
    #[arg(long, value_name = "PATH")]
    cue_binary: Option<PathBuf>,
    /// Wall-clock limit of each runner process, in seconds
    #[arg(long, default_value_t = 1800, value_parser = clap::value_parser!(u64).range(1..))]
    timeout: u64,
}

/// Launch the next ordered pair (overview and task arm, in the recorded order), once
#[derive(Debug, clap::Args)]
struct RunArgs {
    /// The set directory printed by `evaluate-task prepare`
    #[arg(long, visible_alias = "input-directory", value_name = "DIR")]
    set: PathBuf,
    /// Runner executable (reads $REPOCUE_RUNNER_REQUEST, prints one observation)
    #[arg(long, value_name = "PATH", required_unless_present = "synthetic")]
    runner: Option<PathBuf>,
    /// Argument passed to the runner; repeatable
    #[arg(
        long,
        value_name = "ARG",
        requires = "runner",
        allow_hyphen_values = true
    )]
    runner_arg: Vec<String>,
    /// Use the built-in deterministic synthetic runner (tests the pipeline; proves nothing)
    #[arg(long, conflicts_with = "runner")]
    synthetic: bool,
}

/// Summarise a task set read-only: delivery, correctness, compliance, paired differences
#[derive(Debug, clap::Args)]
struct SummaryArgs {
    /// The set directory
    #[arg(long, visible_alias = "input-directory", value_name = "DIR")]
    set: PathBuf,
}

pub fn run_evaluate_task(
    opts: repocue::Options,
    args: EvaluateTaskArgs,
) -> Result<String, CommandError> {
    match args.action {
        Action::Prepare(a) => {
            let out = evaluate_task::prepare(&TaskPrepareOptions {
                repository: opts.repository.unwrap_or_else(|| PathBuf::from(".")),
                output_directory: a.output_directory,
                task_file: a.task_file,
                pairs: a.pairs,
                order: a.order,
                cue_binary: match a.cue_binary {
                    Some(p) => p,
                    None => super::experiment::current_exe()?,
                },
                timeout_seconds: a.timeout,
            })
            .map_err(super::eval_error)?;
            Ok(json_line(&out))
        }
        Action::Run(a) => {
            let runner = match a.runner {
                Some(exe) => RunnerSpec {
                    exe,
                    args: a.runner_arg,
                },
                None => RunnerSpec {
                    exe: super::experiment::current_exe()?,
                    args: vec!["experiment".into(), "synthetic-runner".into()],
                },
            };
            let out = evaluate_task::run(&a.set, &runner).map_err(super::eval_error)?;
            Ok(json_line(&out))
        }
        Action::Summary(a) => Ok(json_line(
            &evaluate_task::summary(&a.set).map_err(super::eval_error)?,
        )),
    }
}
