//! RepoCue: a local repository context cache for AI coding agents.
//!
//! The library reads a Git work tree once, keeps a compact understanding of it in SQLite,
//! refreshes that understanding incrementally from Git status and content digests, and
//! projects small, token-budgeted, freshness-aware JSON cues from the store.
//!
//! Front ends (the `repocue` CLI, the MCP server) talk to [`Service`] and nothing deeper; the
//! types they exchange with it live in [`api`]. Dependencies between the modules point one
//! way (`scripts/module-cycles.py` checks it):
//!
//! ```text
//! service ─► refresh · read · cue
//!              ▼
//! freshness · delta · search · analyze · scan · git · store · repo
//!              ▼
//! api · model · digest · paths · time · error
//! ```
#![warn(missing_docs)]

pub mod api;

mod analyze;
mod classify;
mod config;
mod cue;
mod delta;
mod digest;
mod error;
mod evaluate;
mod freshness;
mod git;
mod hint;
mod hooks;
mod inject;
mod model;
mod paths;
mod read;
mod refresh;
mod repo;
mod scan;
mod schema;
mod search;
mod service;
mod store;
mod task;
#[cfg(test)]
mod testing;
pub mod time;

pub use api::{CueRequest, Format, View, DEFAULT_MAX_TOKENS, MAX_MAX_TOKENS};
pub use cue::markdown::render as render_markdown;
pub use digest::hex_sha256;
pub use error::{Error, Result};
pub use evaluate::evaluate;
pub use hooks::HooksOutput;
pub use refresh::{Operation, KEEP_RECENT};
pub use repo::repo_id;
pub use scan::Progress;
pub use schema::{schema_drift, schemas};
pub use service::{cache_root, CheckpointAction, Options, Service, DEFAULT_DEBOUNCE_MS};
pub use store::calibration::CalibrationReference;
pub use store::{facts_dictionary, SCHEMA_VERSION};
