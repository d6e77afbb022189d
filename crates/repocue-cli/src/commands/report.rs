use repocue_eval::report::{self, ReportOptions};

use super::json_line;
use crate::CommandError;

/// Report RepoCue's maintenance cost and, with a calibration, projected agent savings;
/// runs nothing, writes nothing, never refreshes
#[derive(Debug, clap::Args)]
pub struct ReportArgs {
    /// Activity window: whole days, e.g. 30d
    #[arg(long, default_value = "30d", value_parser = parse_days)]
    window: u64,
    /// Add a consumer-count scenario to 1, 2, 3, 5 and 10
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    consumers: Option<u64>,
    /// Calibration id to project with (required when several exist)
    #[arg(long, value_name = "ID")]
    profile: Option<String>,
    /// Cutoff instant, RFC 3339 UTC [default: now]
    #[arg(long, value_name = "TIME")]
    as_of: Option<String>,
    /// Output format
    #[arg(long, value_enum, default_value = "json")]
    format: Format,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum Format {
    Json,
    Markdown,
}

fn parse_days(s: &str) -> Result<u64, String> {
    s.strip_suffix('d')
        .and_then(|n| n.parse::<u64>().ok())
        .filter(|n| (1..=36_500).contains(n))
        .ok_or_else(|| format!("{s:?}: use whole days between 1d and 36500d, e.g. 30d"))
}

pub fn run_report(opts: repocue::Options, args: ReportArgs) -> Result<String, CommandError> {
    let r = report::report(
        &opts,
        &ReportOptions {
            window_days: args.window,
            consumers: args.consumers,
            profile: args.profile,
            as_of: args.as_of,
        },
    )
    .map_err(super::eval_error)?;
    Ok(match args.format {
        Format::Json => json_line(&r),
        Format::Markdown => report::markdown(&r),
    })
}
