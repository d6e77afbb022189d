//! The `manifest` view: identity, freshness, counts, and the views and entities to ask next.

use crate::api::views::*;
use crate::api::SnapshotId;
use crate::api::{Cue, CueRequest};
use crate::cue::envelope::envelope;
use crate::cue::fit::{fit, Item, Section};
use crate::error::Result;
use crate::model::{FileClass, WorkingState};
use crate::read::Reader;

/// Builds the manifest cue.
pub(crate) fn build(state: &Reader, request: &CueRequest) -> Result<Cue> {
    // Counts cover every tracked file, secret and excluded ones included (counted apart,
    // never named).
    let mut content = state.cached("manifest", |state| {
        let files = state.all_files()?;
        let mut langs: Vec<&str> = files.iter().filter_map(|f| f.language.as_deref()).collect();
        langs.sort_unstable();
        langs.dedup();
        let class_count = |c: FileClass| files.iter().filter(|f| f.class == c).count() as u64;
        Ok(ManifestContent {
            files: files.len() as u64,
            bytes: files.iter().filter_map(|f| f.size).sum(),
            documents: files.iter().filter(|f| f.is_document).count() as u64,
            languages: langs.len() as u64,
            dirty_paths: files
                .iter()
                .filter(|f| f.working_state != WorkingState::Clean)
                .count() as u64,
            untracked_paths: state.snapshot.untracked.len() as u64,
            secret_files: class_count(FileClass::Secret),
            excluded_files: class_count(FileClass::Excluded),
            views: vec![],
            snapshots: vec![],
        })
    })?;
    content.views.clear();
    content.snapshots.clear();
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
