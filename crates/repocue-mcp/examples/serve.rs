//! Runs the MCP server over stdio without the CLI:
//! `serve [--repository PATH] [--cache-dir PATH]`.
//!
//! Exit 0 when the client closes stdin; 1 with a single-line JSON error on stderr on failure;
//! 2 on a usage error.

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut opts = repocue::Options::default();
    let mut args = std::env::args_os().skip(1);
    while let Some(flag) = args.next() {
        let slot = match flag.to_str() {
            Some("--repository") => &mut opts.repository,
            Some("--cache-dir") => &mut opts.cache_dir,
            _ => {
                eprintln!("usage: serve [--repository PATH] [--cache-dir PATH]");
                return ExitCode::from(2);
            }
        };
        match args.next() {
            Some(value) => *slot = Some(PathBuf::from(value)),
            None => {
                eprintln!("{} needs a value", flag.to_string_lossy());
                return ExitCode::from(2);
            }
        }
    }
    match repocue_mcp::serve_stdio(opts) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let out = repocue::api::ErrorOutput::from(&e);
            eprintln!("{}", serde_json::to_string(&out).expect("error serializes"));
            ExitCode::from(1)
        }
    }
}
