//! The `repocue` command line: parses arguments, calls the library's `Service`, prints JSON on
//! stdout, and turns failures into one single-line JSON error on stderr.
//!
//! Exit codes: 0 success, 1 failure (JSON error first on stderr), 2 usage error (an
//! `invalid_argument`, found by clap or by the command; its JSON error first too).
#![warn(missing_docs)]

mod commands;
mod progress;

use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

pub use commands::Cli;

/// A failure of one command, carrying its exit code.
#[derive(Debug)]
pub struct CommandError {
    /// The JSON error object to print.
    pub output: repocue::api::ErrorOutput,
    /// A report printed on stdout before failing (`task-context check` lists stale pins).
    pub stdout: Option<String>,
}

impl From<repocue::Error> for CommandError {
    fn from(e: repocue::Error) -> Self {
        CommandError {
            output: (&e).into(),
            stdout: None,
        }
    }
}

/// The single-line JSON error of a usage error, from clap's rendering of it: the first line
/// (`error: invalid value 'nope' for '--view <VIEW>'`, without `error: `) is the message, with
/// the indented lines right under it (`the following required arguments were not provided:
/// --label <LABEL>`), its `tip:` the hint (else where to read the usage).
fn usage_error_line(rendered: &str) -> String {
    let mut raw = rendered
        .lines()
        .skip_while(|l| l.trim().is_empty())
        .peekable();
    let first = raw.next().map(str::trim).unwrap_or("invalid arguments");
    let mut message = first.strip_prefix("error: ").unwrap_or(first).to_owned();
    while let Some(detail) = raw.next_if(|l| l.starts_with([' ', '\t']) && !l.trim().is_empty()) {
        message.push(' ');
        message.push_str(detail.trim());
    }
    let hint = raw
        .map(str::trim)
        .find_map(|l| l.strip_prefix("tip: "))
        .unwrap_or("run `repocue --help`, or `repocue COMMAND --help`");
    let output = repocue::api::ErrorOutput {
        error: repocue::api::ErrorBody {
            code: "invalid_argument".into(),
            message: message.to_owned(),
            hint: Some(hint.to_owned()),
            retryable: false,
        },
    };
    serde_json::to_string(&output).expect("error serializes")
}

/// Runs the CLI with the given arguments (the first is the program name).
pub fn run<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // Help and version: to stdout, exit 0.
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            // A usage error is an error like any other for a program reading stderr: the JSON
            // line first, then clap's explanation and usage for a person.
            eprintln!("{}", usage_error_line(&e.render().to_string()));
            let _ = e.print();
            return ExitCode::from(2);
        }
    };
    let (result, notices) = commands::dispatch(cli);
    let code = match result {
        Ok(text) => {
            let mut out = std::io::stdout().lock();
            match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                // A closed pipe (`repocue cue | head`) is not a failure.
                Ok(()) => 0,
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 0,
                Err(e) => {
                    // A full disk, a closed terminal: the command itself ran to the end (a
                    // checkpoint was pinned, a prune committed), only its answer was lost.
                    let output = repocue::api::ErrorOutput {
                        error: repocue::api::ErrorBody {
                            code: "io_error".into(),
                            message: format!("could not write the output to stdout: {e}"),
                            hint: Some(
                                "the command itself completed; only its output was lost \
                                 (`repocue status` or `repocue checkpoint list` shows what it \
                                 changed)"
                                    .into(),
                            ),
                            retryable: false,
                        },
                    };
                    eprintln!(
                        "{}",
                        serde_json::to_string(&output).expect("error serializes")
                    );
                    1
                }
            }
        }
        Err(e) => {
            if let Some(text) = &e.stdout {
                let mut out = std::io::stdout().lock();
                let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
            }
            let line = serde_json::to_string(&e.output).expect("error serializes");
            eprintln!("{line}");
            // A flag the view does not take, a value out of range: a usage error wherever it
            // is found, by clap or by the command.
            if e.output.error.code == "invalid_argument" {
                2
            } else {
                1
            }
        }
    };
    for n in notices {
        eprintln!("repocue: warning: {n}");
    }
    ExitCode::from(code)
}
