//! The `manifest` view: identity, freshness, counts, and the views and entities to ask next.

use crate::api::views::*;
use crate::api::SnapshotId;
use crate::api::{Cue, CueRequest};
use crate::cue::envelope::envelope;
use crate::cue::fit::{fit, Item, Section};
use crate::error::Result;
use crate::read::Reader;

/// Builds the manifest cue.
pub(crate) fn build(state: &Reader, request: &CueRequest) -> Result<Cue> {
    // Counts cover every tracked file, secret and excluded ones included (counted apart,
    // never named).
    // Counted from the rows (no path is read): a query, not a per-snapshot cache entry.
    let counts = state.store.counts_at(&state.snapshot)?;
    let content = ManifestContent {
        files: counts.files,
        bytes: counts.bytes,
        documents: counts.documents,
        languages: counts.languages,
        // Staged deletions and renames' old paths are no file of the snapshot.
        dirty_paths: counts.dirty + state.snapshot.removed.len() as u64,
        untracked_paths: state.snapshot.untracked.len() as u64,
        secret_files: counts.secret,
        excluded_files: counts.excluded,
        views: vec![],
        snapshots: vec![],
    };
    let env = envelope(state, request, content);
    let more = crate::api::More::of(
        crate::api::View::Manifest,
        crate::cue::fit::round_up(request.max_tokens + 150),
    );
    let sections = vec![
        Section::new("views", Some(more.clone())),
        Section::new("snapshots", Some(more)),
    ];
    let mut items: Vec<Item<ManifestContent>> = Vec::new();
    for (i, view) in [
        "overview",
        "delta",
        "structure",
        "entity",
        "search",
        "document",
    ]
    .into_iter()
    .enumerate()
    {
        items.push(Item::new(
            0,
            100 - i as i64,
            move |c: &mut ManifestContent| c.views.push(view.into()),
        ));
    }
    let seqs = state.store.snapshot_seqs()?;
    for (i, seq) in seqs.iter().rev().take(3).enumerate() {
        let id = SnapshotId(*seq).to_string();
        items.push(Item::new(
            1,
            50 - i as i64,
            move |c: &mut ManifestContent| c.snapshots.push(id.clone()),
        ));
    }
    fit(env, &sections, items)
}
