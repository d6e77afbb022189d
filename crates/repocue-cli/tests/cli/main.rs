//! Integration tests of the `repocue` binary, compiled into one test binary (as jj and
//! ripgrep do): every case runs the real command against a real temporary Git repository.
//!
//! The binary lives in `tests/cli/` (`main.rs` plus modules) rather than as `tests/*.rs`
//! files: Cargo builds every `tests/*.rs` as a separate test crate, and the modules are not
//! crates of their own.

mod support;

mod bench;
mod concurrency;
mod config;
mod cues;
mod eval;
mod evaluate_cache;
mod evaluate_task;
mod faults;
mod lifecycle;
mod mcp;
mod quality;
mod release;
mod schemas;
mod search;
mod secrets;
mod state;
mod structure;
mod task;
