//! The envelope every view shares, filled from the snapshot being read.

use crate::api::{
    Budget, CueBasis, CueRequest, Envelope, EpochId, RepositoryInfo, SnapshotId, CUE_SCHEMA_VERSION,
};
use crate::read::Reader;

/// Builds the envelope of a view around `content` with the state's provenance.
pub(crate) fn envelope<C>(state: &Reader, request: &CueRequest, content: C) -> Envelope<C> {
    let snap = &state.snapshot;
    Envelope {
        schema_version: CUE_SCHEMA_VERSION.into(),
        kind: request.view,
        repository: RepositoryInfo {
            id: state.repo_id.clone(),
            name: state.name.clone(),
            branch: snap.branch.clone(),
            head: snap.head.clone(),
            dirty: snap.dirty,
        },
        epoch: EpochId(snap.epoch).to_string(),
        snapshot: SnapshotId(snap.seq).to_string(),
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

/// Digests in cues are 16-hex-digit (64-bit) prefixes of the stored SHA-256: enough to tell
/// states apart, a quarter of the tokens.
pub(crate) fn short_digest(d: &str) -> String {
    d.chars().take(16).collect()
}
