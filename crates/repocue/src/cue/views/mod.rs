//! One module per cue view; this module dispatches requests and builds the shared envelope.

pub mod delta;
pub mod document;
pub mod entity;
pub mod manifest;
pub mod overview;
pub mod search;
pub mod structure;

use std::time::Instant;

use super::{
    Budget, Cue, CueBasis, CueRequest, Envelope, View, CUE_SCHEMA_VERSION, MAX_MAX_TOKENS,
};
use crate::error::{Error, Result};
use crate::model::seq_id;
use crate::output::RepositoryInfo;
use crate::service::{ReadState, Service};
use crate::store::CueRow;

impl Service {
    /// Produces a cue. Unless `request.refresh` is false, the cache is brought up to date
    /// first (initialized or refreshed, noted in warnings). Records a cue measurement.
    pub fn cue(&self, request: &CueRequest) -> Result<Cue> {
        let started = Instant::now();
        if request.max_tokens == 0 || request.max_tokens > MAX_MAX_TOKENS {
            return Err(Error::InvalidArgument(format!(
                "max_tokens must be between 1 and {MAX_MAX_TOKENS}, got {}",
                request.max_tokens
            )));
        }
        let state = self.prepare_read(request.refresh)?;
        let cue = match request.view {
            View::Manifest => manifest::build(&state, request)?,
            View::Overview => overview::build(&state, request)?,
            View::Delta => delta::build(&state, request)?,
            View::Structure => structure::build(&state, request)?,
            View::Entity => entity::build(&state, request)?,
            View::Search => search::build(&state, request)?,
            View::Document => document::build(&state, request)?,
        };
        state.store.record_cue(&CueRow {
            view: request.view.as_str().into(),
            recorded_at: crate::time::now_rfc3339(),
            max_tokens: request.max_tokens as i64,
            output_bytes: cue.json.len() as i64,
            estimated_tokens: cue.estimated_tokens as i64,
            duration_us: started.elapsed().as_micros() as i64,
            snapshot: Some(state.snapshot.seq),
        })?;
        Ok(cue)
    }
}

/// Builds the envelope of a view around `content` with the state's provenance.
pub(crate) fn envelope<C>(
    state: &ReadState,
    request: &CueRequest,
    repo_id: &str,
    name: &str,
    content: C,
) -> Envelope<C> {
    let snap = &state.snapshot;
    Envelope {
        schema_version: CUE_SCHEMA_VERSION.into(),
        kind: request.view,
        repository: RepositoryInfo {
            id: repo_id.into(),
            name: name.into(),
            branch: snap.branch.clone(),
            head: snap.head.clone(),
            dirty: snap.dirty,
        },
        epoch: seq_id("epoch", snap.epoch),
        snapshot: seq_id("snapshot", snap.seq),
        basis: CueBasis {
            status_digest: short_digest(&snap.status_digest),
            repository_digest: short_digest(&snap.repository_digest),
            observed_at: snap.observed_at.clone(),
        },
        freshness: state.freshness,
        budget: Budget {
            max_tokens: request.max_tokens,
            estimated_tokens: 0,
        },
        content,
        warnings: state.warnings.clone(),
        more: vec![],
    }
}

/// Returns (repository id, root directory name) stored for the state.
pub(crate) fn identity(state: &ReadState) -> Result<(String, String)> {
    let repo = state.store.repository()?.ok_or(Error::NotInitialized)?;
    let root = crate::paths::display(&repo.root);
    let name = root.rsplit('/').next().unwrap_or_default().to_owned();
    Ok((repo.repo_id, name))
}

/// Digests in cues are 16-hex-digit (64-bit) prefixes of the stored SHA-256: enough to tell
/// states apart, a quarter of the tokens.
pub(crate) fn short_digest(d: &str) -> String {
    d.chars().take(16).collect()
}
