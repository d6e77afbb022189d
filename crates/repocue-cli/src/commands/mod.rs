//! Subcommands: one file each, with an args struct whose doc comment is the help text.

mod calibration;
mod checkpoint;
mod completions;
mod cue;
mod evaluate;
mod evaluate_cache;
mod evaluate_task;
mod experiment;
mod hooks;
mod init;
mod metrics;
mod prune;
mod rebaseline;
mod refresh;
mod report;
mod search;
mod serve;
mod status;
mod task_context;
mod watch;

use std::path::PathBuf;

use clap::{Parser, Subcommand};
use repocue::{Options, Service};

use crate::CommandError;

/// Read a Git repository once, refresh incrementally, and serve small, token-budgeted,
/// freshness-aware JSON cues to any agent
#[derive(Debug, Parser)]
#[command(
    name = "repocue",
    version = concat!(env!("CARGO_PKG_VERSION"), " (", env!("REPOCUE_COMMIT"), ")"),
    propagate_version = true,
    disable_help_subcommand = true
)]
pub struct Cli {
    #[command(flatten)]
    global: GlobalArgs,
    #[command(subcommand)]
    command: Command,
}

/// Options every command accepts.
#[derive(Debug, clap::Args)]
struct GlobalArgs {
    /// Any directory inside the work tree [default: current directory]
    #[arg(long, global = true, value_name = "PATH")]
    repository: Option<PathBuf>,
    /// Cache root [default: $REPOCUE_CACHE_DIR, else $XDG_CACHE_HOME/repocue, else ~/.cache/repocue]
    #[arg(long, global = true, value_name = "PATH")]
    cache_dir: Option<PathBuf>,
}

#[derive(Debug, Subcommand)]
enum Command {
    Init(init::InitArgs),
    Status(status::StatusArgs),
    Refresh(refresh::RefreshArgs),
    Rebaseline(rebaseline::RebaselineArgs),
    Cue(cue::CueArgs),
    Search(search::SearchArgs),
    Metrics(metrics::MetricsArgs),
    Serve(serve::ServeArgs),
    Hooks(hooks::HooksArgs),
    Watch(watch::WatchArgs),
    Checkpoint(checkpoint::CheckpointArgs),
    Prune(prune::PruneArgs),
    Evaluate(evaluate::EvaluateArgs),
    TaskContext(task_context::TaskContextArgs),
    Experiment(experiment::ExperimentArgs),
    EvaluateTask(evaluate_task::EvaluateTaskArgs),
    EvaluateCache(evaluate_cache::EvaluateCacheArgs),
    Calibration(calibration::CalibrationArgs),
    Report(report::ReportArgs),
    Completions(completions::CompletionsArgs),
    Man(completions::ManArgs),
    /// Print help for repocue or one of its commands
    Help {
        /// The command to explain
        command: Option<String>,
    },
}

/// Runs the parsed command; returns the stdout text and notices for stderr.
pub fn dispatch(cli: Cli) -> (Result<String, CommandError>, Vec<String>) {
    let mut opts = Options {
        repository: cli.global.repository,
        cache_dir: cli.global.cache_dir,
        ..Options::default()
    };
    if let Command::Init(a) = &cli.command {
        if let Some(p) = &a.path {
            if opts.repository.is_some() {
                let e = repocue::Error::InvalidArgument(
                    "give the repository either as PATH or with --repository, not both".into(),
                );
                return (Err(e.into()), vec![]);
            }
            opts.repository = Some(p.clone());
        }
    }
    if let Command::Help { command } = &cli.command {
        return (Ok(help_text(command.as_deref())), vec![]);
    }
    if let Command::Completions(a) = cli.command {
        return (completions::run_completions(a), vec![]);
    }
    if let Command::Man(a) = cli.command {
        return (completions::run_man(a), vec![]);
    }
    if let Command::Evaluate(a) = cli.command {
        // The probe opens its own service on a temporary cache.
        return (evaluate::run_evaluate(opts, a), vec![]);
    }
    if let Command::Experiment(a) = cli.command {
        // Experiments build their own cache inside the set; no service on the user's cache.
        return (experiment::run_experiment(opts, a), vec![]);
    }
    if let Command::EvaluateTask(a) = cli.command {
        // Task sets are experiment sets: their own cache inside the set.
        return (evaluate_task::run_evaluate_task(opts, a), vec![]);
    }
    if let Command::EvaluateCache(a) = cli.command {
        // Its own cache inside the prepared directory; run is the only networked command.
        return (evaluate_cache::run_evaluate_cache(opts, a), vec![]);
    }
    if let Command::Calibration(a) = cli.command {
        return (calibration::run_calibration(opts, a), vec![]);
    }
    if let Command::Report(a) = cli.command {
        // Read-only: no service that could refresh or migrate the user's cache.
        return (report::run_report(opts, a), vec![]);
    }
    if let Command::Serve(a) = cli.command {
        // The server opens the repository per request, so each answer sees live state.
        return (serve::run_serve(opts, a), vec![]);
    }
    let progress = crate::progress::Display::start(&mut opts);
    let service = match Service::open(&opts) {
        Ok(s) => s,
        Err(e) => return (Err(e.into()), vec![]),
    };
    let result = match cli.command {
        Command::Init(a) => init::run_init(&service, a),
        Command::Status(a) => status::run_status(&service, a),
        Command::Refresh(a) => refresh::run_refresh(&service, a),
        Command::Rebaseline(a) => rebaseline::run_rebaseline(&service, a),
        Command::Cue(a) => cue::run_cue(&service, a),
        Command::Search(a) => search::run_search(&service, a),
        Command::Metrics(a) => metrics::run_metrics(&service, a),
        Command::Hooks(a) => hooks::run_hooks(&service, a),
        Command::Watch(a) => watch::run_watch(&service, a),
        Command::Checkpoint(a) => checkpoint::run_checkpoint(&service, a),
        Command::Prune(a) => prune::run_prune(&service, a),
        Command::TaskContext(a) => task_context::run_task_context(&service, a),
        Command::Help { .. }
        | Command::Serve(_)
        | Command::Evaluate(_)
        | Command::Completions(_)
        | Command::Man(_)
        | Command::Experiment(_)
        | Command::EvaluateTask(_)
        | Command::EvaluateCache(_)
        | Command::Calibration(_)
        | Command::Report(_) => {
            unreachable!("handled above")
        }
    };
    drop(progress);
    (
        result.map_err(|e| naming_the_cache(e, &service.db_path())),
        service.take_notices(),
    )
}

/// A damaged or read-only cache database found by a query (not when it was opened) is told
/// without its file: the message names it, so the hint to move it aside can be followed.
fn naming_the_cache(mut e: CommandError, db: &std::path::Path) -> CommandError {
    let error = &mut e.output.error;
    let about_the_cache = matches!(error.code.as_str(), "corrupt_cache" | "cache_unwritable");
    let db = db.display().to_string();
    if about_the_cache && !error.message.contains(&db) {
        error.message = format!("{} ({db})", error.message);
    }
    e
}

fn help_text(command: Option<&str>) -> String {
    use clap::CommandFactory;
    let mut cmd = Cli::command();
    let target = match command {
        Some(name) => match cmd.find_subcommand_mut(name) {
            Some(sub) => sub.clone(),
            None => return format!("unknown command {name:?}; run `repocue help`\n"),
        },
        None => cmd,
    };
    let mut target = target;
    format!("{}\n", target.render_long_help())
}

/// Converts an error of the measuring half into the CLI's error output.
pub(crate) fn eval_error(e: repocue_eval::EvalError) -> CommandError {
    CommandError {
        output: repocue::api::ErrorOutput {
            error: repocue::api::ErrorBody {
                code: e.code.into(),
                message: e.message,
                hint: e.hint,
                retryable: false,
            },
        },
        stdout: None,
    }
}

/// Serializes a command result as one line of JSON.
pub(crate) fn json_line<T: serde::Serialize>(value: &T) -> String {
    let mut s = serde_json::to_string(value).expect("output serializes");
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    #[test]
    fn clap_definition_is_valid() {
        use clap::CommandFactory;
        super::Cli::command().debug_assert();
    }
}
