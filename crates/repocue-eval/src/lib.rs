//! RepoCue's measuring half: it proves (or disproves) that an agent spends fewer tokens, tool
//! calls and seconds with a cue than without, and stays as correct.
//!
//! The pieces, in the order data flows through them:
//! - [`experiment`]: freezes inputs into an external set directory, runs each attempt through
//!   a runner process (journalled before launch, repository fingerprinted before and after,
//!   raw streams retained by digest) and summarises the set read-only;
//! - [`contract`]: the versioned runner request and observation, and their validation;
//! - [`facts`]: the five deterministic Git facts and the content fingerprint;
//! - [`measure`]: the full-process measurement of a `repocue` cue invocation (Q);
//! - [`stats`]: paired statistics and break-even arithmetic;
//! - [`calibration`]: validation of a complete set and the immutable calibration artifact;
//! - [`report`]: the read-only maintenance and projection report (JSON and Markdown);
//! - [`runners`]: the synthetic, Codex CLI and Claude Code runners;
//! - [`taskbench`] and [`evaluate_task`]: the overview cue against the task cue, as an
//!   experiment set of two cue arms run one ordered pair at a time;
//! - [`cache`]: Anthropic prompt caching of the task cue (`evaluate-cache`).
//!
//! The core crate stays model- and network-free. Agents are only ever reached as subprocesses
//! named explicitly by the operator, and the one HTTP client (`cache::http`, used only by
//! `evaluate-cache run`) sends nothing without the operator's explicit opt-in.
#![warn(missing_docs)]

pub mod cache;
pub mod calibration;
pub mod contract;
pub mod db;
pub mod error;
pub mod evaluate_task;
pub mod experiment;
pub mod facts;
pub mod measure;
pub mod report;
pub mod runners;
pub mod stats;
pub mod strict;
pub mod taskbench;
pub mod util;

pub use error::{EvalError, Result};

/// Returns every output schema of this crate as `(file stem, JSON Schema)`, in a stable order.
///
/// The checked-in copies live in `docs/schema/<stem>.schema.json`; a test fails when they drift.
pub fn schemas() -> Vec<(&'static str, serde_json::Value)> {
    fn schema<T: schemars::JsonSchema>() -> serde_json::Value {
        serde_json::to_value(schemars::schema_for!(T)).expect("schema serializes")
    }
    vec![
        ("eval-answer", schema::<contract::Answer>()),
        ("eval-runner-request", schema::<contract::RunnerRequest>()),
        ("eval-runner-observation", schema::<contract::Observation>()),
        ("experiment", schema::<experiment::Experiment>()),
        ("experiment-prepare", schema::<experiment::PrepareOutput>()),
        ("experiment-run", schema::<experiment::RunOutput>()),
        ("experiment-attempt", schema::<experiment::AttemptRecord>()),
        ("experiment-summary", schema::<experiment::Summary>()),
        ("task-benchmark", schema::<taskbench::Benchmark>()),
        ("task-answer", schema::<contract::TaskAnswer>()),
        ("task-summary", schema::<evaluate_task::TaskSummary>()),
        (
            "cache-benchmark",
            schema::<cache::manifest::CacheBenchmark>(),
        ),
        ("model-profiles", schema::<cache::profile::ProfileTable>()),
        ("cache-eval", schema::<cache::manifest::CacheEval>()),
        (
            "cache-prepare",
            schema::<cache::prepare::CachePrepareOutput>(),
        ),
        (
            "cache-observation",
            schema::<cache::run::CacheObservation>(),
        ),
        ("cache-summary", schema::<cache::summary::CacheSummary>()),
        ("calibration", schema::<calibration::Calibration>()),
        ("calibration-import", schema::<calibration::ImportOutput>()),
        ("savings-report", schema::<report::Report>()),
    ]
}

#[cfg(test)]
mod schema_tests {
    use std::path::PathBuf;

    /// Fails when `docs/schema/` differs from the types; `REPOCUE_BLESS=1` rewrites it.
    #[test]
    fn checked_in_schemas_match_the_types() {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/schema");
        let stale = repocue::schema_drift(&dir, &super::schemas());
        assert!(
            stale.is_empty(),
            "schemas drifted from the Rust types: {stale:?}\nregenerate with: REPOCUE_BLESS=1 cargo test -p repocue-eval schema"
        );
    }
}
