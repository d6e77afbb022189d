//! Cues: token-budgeted, deterministic JSON projections of the store for one purpose.
//!
//! Every view builds a *base* content (what must always be there) and a list of ranked
//! *items*. [`fit`] admits whole items in rank order while the exact serialized envelope stays
//! within `ceil(bytes / 4) <= max_tokens` (two sevenths of the bytes for text), counts what it left out in warnings, and points to
//! the follow-up request that returns it (`more`). No string is ever cut to fit.

pub(crate) mod envelope;
pub(crate) mod fit;
pub mod markdown;
pub mod text;
pub(crate) mod views;

pub(crate) use views::{build, validate};
