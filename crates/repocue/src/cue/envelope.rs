//! The envelope every view shares, filled from the snapshot being read: lean by default, the
//! full provenance on request (always on `manifest`).

use crate::api::{CueRequest, Envelope, EpochId, Provenance, SnapshotId, View, CUE_SCHEMA_VERSION};
use crate::read::Reader;

/// Digits of HEAD an envelope shows: enough to name a commit in large repositories.
const HEAD_DIGITS: usize = 10;

/// Builds the envelope of a view around `content`.
pub(crate) fn envelope<C>(state: &Reader, request: &CueRequest, content: C) -> Envelope<C> {
    let snap = &state.snapshot;
    // The task view always carries it: its mandatory envelope pins what the text was read from.
    let provenance = (request.provenance || matches!(request.view, View::Manifest | View::Task))
        .then(|| Provenance {
            name: state.name.clone(),
            repository_id: state.repo_id.clone(),
            epoch: EpochId(snap.epoch).to_string(),
            head: snap.head.clone(),
            dirty: snap.dirty,
            status_digest: short_digest(&snap.status_digest),
            repository_digest: short_digest(&snap.repository_digest),
            observed_at: snap.observed_at.clone(),
            faults: crate::model::Fault::in_provenance(&snap.faults),
            max_tokens: request.max_tokens,
            estimated_tokens: 0,
        });
    Envelope {
        schema_version: CUE_SCHEMA_VERSION.into(),
        kind: request.view,
        content,
        warnings: state.warnings.clone(),
        omitted: 0,
        more: vec![],
        branch: snap.branch.clone(),
        head: snap
            .head
            .as_deref()
            .map(|h| h.chars().take(HEAD_DIGITS).collect()),
        snapshot: SnapshotId(snap.seq).to_string(),
        freshness: state.freshness,
        provenance,
        max_tokens: request.max_tokens,
        format: request.format,
    }
}

/// Digests in cues are 16-hex-digit (64-bit) prefixes of the stored SHA-256: enough to tell
/// states apart, a quarter of the tokens.
pub(crate) fn short_digest(d: &str) -> String {
    d.chars().take(16).collect()
}
