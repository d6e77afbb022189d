use std::path::PathBuf;

use repocue_eval::cache::prepare::{self, CachePrepareOptions};
use repocue_eval::cache::run::{self, RunOptions};
use repocue_eval::cache::summary;

use super::json_line;
use crate::CommandError;

/// Measure Anthropic prompt caching of the task cue: prepare frozen requests, send one step, summarise
#[derive(Debug, clap::Args)]
pub struct EvaluateCacheArgs {
    #[command(subcommand)]
    action: Action,
}

#[derive(Debug, clap::Subcommand)]
enum Action {
    Prepare(PrepareArgs),
    Run(RunArgs),
    Summary(SummaryArgs),
}

/// Freeze the benchmark, the model profile, the task cue and every step's exact request bytes (no key, no network)
#[derive(Debug, clap::Args)]
struct PrepareArgs {
    /// The repocue/cache-benchmark-1 file
    #[arg(long, value_name = "FILE")]
    benchmark_file: PathBuf,
    /// Parent directory of the prepared directory; must lie outside the work tree
    #[arg(long, value_name = "DIR")]
    output_directory: PathBuf,
    /// A repocue/model-profiles-1 table [default: the table shipped with this build]
    #[arg(long, value_name = "FILE")]
    profiles: Option<PathBuf>,
    /// The repocue executable the cue runs [default: this executable]
    #[arg(long, value_name = "PATH")]
    cue_binary: Option<PathBuf>,
}

/// Send exactly one step's frozen request to Anthropic, once (needs --send and $ANTHROPIC_API_KEY)
#[derive(Debug, clap::Args)]
struct RunArgs {
    /// The directory printed by `evaluate-cache prepare`
    #[arg(long, value_name = "DIR")]
    input_directory: PathBuf,
    /// The step to send (steps run once each, in their frozen order)
    #[arg(long, value_name = "STEP")]
    step: String,
    /// Confirm that this sends one paid request on your account; without it nothing is sent
    #[arg(long)]
    send: bool,
    /// A loopback test endpoint instead of https://api.anthropic.com/v1/messages
    #[arg(long, value_name = "URL")]
    endpoint: Option<String>,
    /// Wall-clock limit of the request, in seconds
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..=3600))]
    timeout: u64,
    /// Allow plain http:// to a loopback endpoint (tests only)
    #[arg(long, hide = true)]
    allow_insecure_loopback: bool,
}

/// Recompute usage, cost and quality from the retained responses (no process, no network, no writes)
#[derive(Debug, clap::Args)]
struct SummaryArgs {
    /// The prepared directory
    #[arg(long, value_name = "DIR")]
    input_directory: PathBuf,
}

pub fn run_evaluate_cache(
    opts: repocue::Options,
    args: EvaluateCacheArgs,
) -> Result<String, CommandError> {
    match args.action {
        Action::Prepare(a) => {
            let out = prepare::prepare(&CachePrepareOptions {
                repository: opts.repository.unwrap_or_else(|| PathBuf::from(".")),
                output_directory: a.output_directory,
                benchmark_file: a.benchmark_file,
                profiles_file: a.profiles,
                cue_binary: match a.cue_binary {
                    Some(p) => p,
                    None => super::experiment::current_exe()?,
                },
            })
            .map_err(super::eval_error)?;
            Ok(json_line(&out))
        }
        Action::Run(a) => {
            let obs = run::run(&RunOptions {
                directory: a.input_directory,
                step: a.step,
                send: a.send,
                endpoint: a.endpoint,
                allow_insecure_loopback: a.allow_insecure_loopback,
                timeout_seconds: a.timeout,
            })
            .map_err(super::eval_error)?;
            let text = json_line(&obs);
            match obs.error {
                None => Ok(text),
                // The record is the evidence; the error line makes scripts stop.
                Some(e) => {
                    let mut err = super::eval_error(repocue_eval::EvalError::new(
                        "attempt_failed",
                        format!(
                            "step {} failed ({}: {}); its record is retained and it is never retried",
                            obs.step, e.code, e.message
                        ),
                    ));
                    err.stdout = Some(text);
                    Err(err)
                }
            }
        }
        Action::Summary(a) => Ok(json_line(
            &summary::summary(&a.input_directory).map_err(super::eval_error)?,
        )),
    }
}
