//! RepoCue: a local repository context cache for AI coding agents.
//!
//! The library reads a Git work tree once, keeps a compact understanding of it in SQLite,
//! refreshes that understanding incrementally from Git status and content digests, and
//! projects small, token-budgeted, freshness-aware JSON cues from the store.
//!
//! Front ends (the `repocue` CLI, the MCP server) talk to [`Service`] and nothing deeper.
#![warn(missing_docs)]

pub mod analyze;
pub mod classify;
pub mod cue;
pub mod delta;
pub mod error;
pub mod evaluate;
pub mod git;
mod hint;
pub mod hooks;
pub mod model;
pub mod output;
pub mod paths;
pub mod scan;
pub mod search;
pub mod service;
pub mod store;
#[allow(dead_code)] // wired into the service and the cue views in a following change
mod task;
pub mod time;

pub use error::{Error, Result};
pub use service::{Options, Service};
