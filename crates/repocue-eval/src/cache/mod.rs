//! `evaluate-cache`: whether putting the task cue in an explicitly cached prefix of Claude
//! Messages requests lowers the cost of a sequence of requests, without losing correctness.
//!
//! - `prepare` ([`prepare::prepare`]) freezes everything without a key or a network request: the
//!   benchmark, the profile table (data) and the chosen profile, the real task cue, and the
//!   exact request bytes of every step with their reusable identity;
//! - `run --step S` ([`run::run`]) sends exactly one step, once, only with explicit opt-in, over
//!   HTTPS, with the key read from `ANTHROPIC_API_KEY` after local preflight, and retains every
//!   outcome (HTTP errors, timeouts, malformed bodies, missing counters) as a record;
//! - `summary` ([`summary::summary`]) recomputes usage, cost and quality from the retained bytes; it
//!   runs no process, opens no socket and writes nothing.
//!
//! Layout of a prepared directory:
//! ```text
//! <parent>/cache-eval-<id>/
//!   cache-eval.json            manifest (repocue/cache-eval-1)
//!   benchmark.json profiles.json cue.json answer.schema.json
//!   requests/<step>.json       the exact bytes each step sends
//!   cache/                     the private RepoCue cache the cue was read from
//!   journal/<step>.json        written before a step sends anything
//!   attempts/<step>/           record.json (repocue/cache-observation-1), response.body
//! ```

pub mod http;
pub mod manifest;
pub mod prepare;
pub mod profile;
pub mod request;
pub mod run;
pub mod summary;
pub mod usage;
