//! The `delta` view: operations between an earlier retained snapshot and the current one.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::cue::{fit, round_up, Cue, CueRequest, Item, More, Section, View};
use crate::delta::{self, DeltaItem, RepoFacts};
use crate::error::{Error, Result};
use crate::model::{parse_seq_id, seq_id};
use crate::service::ReadState;

/// Content of the `delta` view.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct DeltaContent {
    /// The earlier snapshot.
    pub from: String,
    /// The current snapshot.
    pub to: String,
    /// Number of operations by name (all of them, including those left out).
    pub counts: BTreeMap<String, u64>,
    /// Operations, ranked: repository and content changes first.
    pub operations: Vec<DeltaItem>,
}

/// Builds the delta cue.
pub(crate) fn build(state: &ReadState, request: &CueRequest) -> Result<Cue> {
    let (id, name) = super::identity(state)?;
    let current = &state.snapshot;
    let since = match &request.since {
        Some(s) => parse_seq_id("snapshot", s).ok_or_else(|| {
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
            id: seq_id("snapshot", since),
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
    ops.extend(crate::service::structural_delta(
        &state.store,
        &old_files,
        state.files()?,
        &changed,
        &[],
    )?);
    ops.sort_by_key(|o| delta::rank(&o.op));
    let mut counts = BTreeMap::new();
    for o in &ops {
        *counts.entry(o.op.clone()).or_insert(0) += 1;
    }
    let content = DeltaContent {
        from: seq_id("snapshot", from.seq),
        to: seq_id("snapshot", current.seq),
        counts,
        operations: vec![],
    };
    let env = super::envelope(state, request, &id, &name, content);
    // What a complete answer would need, for the follow-up request.
    let full = serde_json::to_string(&ops)
        .map(|s| s.len() as u64 / 4)
        .unwrap_or(0);
    let more = More {
        since: Some(seq_id("snapshot", from.seq)),
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
