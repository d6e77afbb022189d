//! The `repocue` command line: parses arguments, calls the library's `Service`, prints JSON on
//! stdout, and turns failures into one single-line JSON error on stderr.
//!
//! Exit codes: 0 success, 1 failure (JSON error first on stderr), 2 usage error.
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

/// Runs the CLI with the given arguments (the first is the program name).
pub fn run<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            // clap prints help/version to stdout (exit 0) and usage errors to stderr (exit 2).
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
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
                Err(_) => 1,
            }
        }
        Err(e) => {
            if let Some(text) = &e.stdout {
                let mut out = std::io::stdout().lock();
                let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
            }
            let line = serde_json::to_string(&e.output).expect("error serializes");
            eprintln!("{line}");
            1
        }
    };
    for n in notices {
        eprintln!("repocue: warning: {n}");
    }
    ExitCode::from(code)
}
