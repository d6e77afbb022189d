use std::path::PathBuf;

use repocue_eval::experiment::{self, Arm, PrepareOptions, RunnerSpec};

use super::json_line;
use crate::CommandError;

/// Measure agents with and without cues: prepare a frozen set, run its attempts, summarise
#[derive(Debug, clap::Args)]
pub struct ExperimentArgs {
    #[command(subcommand)]
    action: Action,
}

#[derive(Debug, clap::Subcommand)]
enum Action {
    Prepare(PrepareArgs),
    Run(RunArgs),
    Summary(SummaryArgs),
    #[command(hide = true)]
    SyntheticRunner,
}

/// Freeze task, arms, schedule and repository state into a new set directory
#[derive(Debug, clap::Args)]
struct PrepareArgs {
    /// Parent directory of the new set; must lie outside the work tree and its Git directory
    #[arg(long, value_name = "DIR")]
    output_directory: PathBuf,
    /// Arm set: calibration (direct, basic) or compare (direct, basic, placebo)
    #[arg(long, default_value = "calibration", conflicts_with = "arm")]
    preset: String,
    /// An arm: NAME="cue …" (a repocue invocation), NAME=placebo:ARM, or direct; repeatable
    #[arg(long, value_name = "SPEC")]
    arm: Vec<String>,
    /// Pairs to run (each pair runs every arm once)
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1000))]
    pairs: u64,
    /// Arm order inside pairs: alternate, or seeded:<number> for a reproducible shuffle
    #[arg(long, default_value = "alternate")]
    order: String,
    /// Task text given to every arm [default: the built-in repository description task]
    #[arg(long, value_name = "FILE")]
    task_file: Option<PathBuf>,
    /// The repocue executable the cue arms run [default: this executable]
    #[arg(long, value_name = "PATH")]
    cue_binary: Option<PathBuf>,
    /// Wall-clock limit of each runner process, in seconds
    #[arg(long, default_value_t = 1800, value_parser = clap::value_parser!(u64).range(1..))]
    timeout: u64,
}

/// Launch every attempt not yet journalled, once; without --runner or --synthetic, a dry run
#[derive(Debug, clap::Args)]
struct RunArgs {
    /// The set directory printed by `experiment prepare`
    #[arg(long, value_name = "DIR")]
    set: PathBuf,
    /// Runner executable (reads $REPOCUE_RUNNER_REQUEST, prints one observation)
    #[arg(long, value_name = "PATH", conflicts_with = "synthetic")]
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
    #[arg(long)]
    synthetic: bool,
}

/// Summarise a set read-only: per-attempt numbers, paired comparisons, verdict
#[derive(Debug, clap::Args)]
struct SummaryArgs {
    /// The set directory
    #[arg(long, value_name = "DIR")]
    set: PathBuf,
}

pub(super) fn current_exe() -> Result<PathBuf, CommandError> {
    std::env::current_exe().map_err(|e| {
        super::eval_error(repocue_eval::EvalError::arg(format!(
            "cannot locate this executable: {e}"
        )))
    })
}

pub fn run_experiment(
    opts: repocue::Options,
    args: ExperimentArgs,
) -> Result<String, CommandError> {
    match args.action {
        Action::Prepare(a) => {
            let arms = if a.arm.is_empty() {
                experiment::preset(&a.preset)
            } else {
                a.arm.iter().map(|s| Arm::parse(s)).collect()
            }
            .map_err(super::eval_error)?;
            let out = experiment::prepare(&PrepareOptions {
                repository: opts.repository.unwrap_or_else(|| PathBuf::from(".")),
                output_directory: a.output_directory,
                arms,
                pairs: a.pairs,
                order: a.order,
                task_file: a.task_file,
                cue_binary: match a.cue_binary {
                    Some(p) => p,
                    None => current_exe()?,
                },
                timeout_seconds: a.timeout,
                task_context: None,
            })
            .map_err(super::eval_error)?;
            Ok(json_line(&out))
        }
        Action::Run(a) => {
            let runner = match (a.runner, a.synthetic) {
                (Some(exe), _) => Some(RunnerSpec {
                    exe,
                    args: a.runner_arg,
                }),
                (None, true) => Some(RunnerSpec {
                    exe: current_exe()?,
                    args: vec!["experiment".into(), "synthetic-runner".into()],
                }),
                (None, false) => None,
            };
            let out = experiment::run(&a.set, runner.as_ref(), experiment::RunLimit::All)
                .map_err(super::eval_error)?;
            Ok(json_line(&out))
        }
        Action::Summary(a) => Ok(json_line(
            &experiment::summary(&a.set).map_err(super::eval_error)?,
        )),
        Action::SyntheticRunner => {
            let req = repocue_eval::runners::load_request().map_err(super::eval_error)?;
            let o = repocue_eval::runners::synthetic::observe(&req).map_err(super::eval_error)?;
            Ok(json_line(&o))
        }
    }
}
