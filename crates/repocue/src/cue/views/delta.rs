//! The `delta` view: operations between an earlier retained snapshot and the current one.

use std::collections::BTreeMap;

use crate::api::views::*;
use crate::api::SnapshotId;
use crate::api::{Cue, CueRequest, More, View};
use crate::cue::envelope::envelope;
use crate::cue::fit::{fit, round_up, Item, Section};
use crate::delta::{self, RepoFacts};
use crate::error::{Error, Result};
use crate::read::Reader;

/// Builds the delta cue.
pub(crate) fn build(state: &Reader, request: &CueRequest) -> Result<Cue> {
    let current = &state.snapshot;
    let since = match &request.since {
        Some(s) => s.parse::<SnapshotId>().ok().map(|i| i.0).ok_or_else(|| {
            Error::InvalidArgument(format!(
                "--since must be a snapshot id like snapshot-000001, got {s:?}"
            ))
        })?,
        None => current.parent.ok_or_else(|| {
            Error::InvalidArgument(
                "the current snapshot has no parent; pass --since SNAPSHOT".into(),
            )
        })?,
    };
    let from = state
        .store
        .snapshot(since)?
        .ok_or_else(|| Error::NotFound {
            kind: "snapshot",
            id: SnapshotId(since).to_string(),
        })?;
    let old_files = state.store.files_at(&from)?;
    let (mut ops, changed) = delta::compute(
        &old_files,
        state.files()?,
        &RepoFacts {
            branch: from.branch.as_deref(),
            head: from.head.as_deref(),
            dirty: from.dirty,
            untracked: &from.untracked,
        },
        &RepoFacts {
            branch: current.branch.as_deref(),
            head: current.head.as_deref(),
            dirty: current.dirty,
            untracked: &current.untracked,
        },
    );
    let wanted = delta::digests_for(&old_files, state.files()?, &changed);
    let refs: Vec<&str> = wanted.iter().map(String::as_str).collect();
    let facts = state.store.facts(&refs)?;
    ops.extend(delta::structural_between(
        &old_files,
        state.files()?,
        &changed,
        |d| facts.get(d),
    ));
    ops.sort_by_key(|o| o.op.rank());
    let mut counts = BTreeMap::new();
    for o in &ops {
        *counts.entry(o.op.as_str().to_owned()).or_insert(0) += 1;
    }
    let content = DeltaContent {
        from: SnapshotId(from.seq).to_string(),
        to: SnapshotId(current.seq).to_string(),
        counts,
        operations: vec![],
    };
    let env = envelope(state, request, content);
    // What a complete answer would need, for the follow-up request.
    let full = serde_json::to_string(&ops)
        .map(|s| s.len() as u64 / 4)
        .unwrap_or(0);
    let more = More {
        since: Some(SnapshotId(from.seq).to_string()),
        ..More::of(
            View::Delta,
            "all operations of this delta",
            round_up(full + request.max_tokens),
        )
    };
    let sections = vec![Section::new("operations", Some(more))];
    let n = ops.len() as i64;
    let items = ops
        .into_iter()
        .enumerate()
        .map(|(i, op)| {
            Item::new(0, n - i as i64, move |c: &mut DeltaContent| {
                c.operations.push(op.clone())
            })
        })
        .collect();
    fit(env, &sections, items)
}
