//! Stage 4 of a refresh: what changed. From the start and the scan outcome it derives the
//! caveats and warnings, the repository digest, whether anything changed at all, and the
//! delta operations (file, repository, symbol and import operations).

use std::collections::{HashMap, HashSet};

use crate::analyze::Analysis;
use crate::api::{Caveat, DeltaItem, Warning};
use crate::delta::{self, RepoFacts};
use crate::digest;
use crate::error::Result;
use crate::freshness;

use crate::repo::Rules;
use crate::store::Store;

use super::basis::Start;
use super::outcome::ScanOutcome;

/// What a refresh changes.
#[derive(Debug)]
pub(crate) struct Changes {
    pub caveats: Vec<Caveat>,
    pub warnings: Vec<Warning>,
    pub repository_digest: String,
    pub tracked_files: u64,
    /// Nothing differs from the previous snapshot: no snapshot is published.
    pub unchanged: bool,
    /// Operations from the previous snapshot (empty for a new epoch).
    pub items: Vec<DeltaItem>,
    /// Paths whose state differs (every path for a new epoch).
    pub changed_paths: HashSet<Vec<u8>>,
}

/// Derives the changes, reading the stored facts the structural delta needs.
pub(crate) fn derive(
    store: &Store,
    start: &Start,
    outcome: &ScanOutcome,
    rules: &Rules,
) -> Result<Changes> {
    let tracked_before = match &start.previous {
        Some(p) if start.incremental => Some(store.file_count_at(p)?),
        _ => None,
    };
    let mut changes = file_changes(start, outcome, tracked_before, rules);
    if !start.full() && !changes.changed_paths.is_empty() {
        let fresh = &outcome.facts;
        let is_fresh = |d: &str| fresh.binary_search_by(|(k, _)| k.as_str().cmp(d)).is_ok();
        let wanted: Vec<String> =
            delta::digests_for(&start.prev_files, &outcome.files, &changes.changed_paths)
                .into_iter()
                .filter(|d| !is_fresh(d))
                .collect();
        let refs: Vec<&str> = wanted.iter().map(String::as_str).collect();
        let stored = store.facts(&refs)?;
        changes
            .items
            .extend(structural(start, outcome, &changes.changed_paths, &stored));
    }
    Ok(changes)
}

/// Symbol and import operations, with this scan's analyses first and stored ones second.
fn structural(
    start: &Start,
    outcome: &ScanOutcome,
    changed: &HashSet<Vec<u8>>,
    stored: &HashMap<String, Analysis>,
) -> Vec<DeltaItem> {
    let fresh = &outcome.facts;
    delta::structural_between(&start.prev_files, &outcome.files, changed, |d| {
        fresh
            .binary_search_by(|(k, _)| k.as_str().cmp(d))
            .ok()
            .map(|i| &fresh[i].1)
            .or_else(|| stored.get(d))
    })
}

/// Everything but the structural delta, from values alone. `tracked_before` is the previous
/// snapshot's file count (incremental refreshes only: their rows are a subset).
pub(crate) fn file_changes(
    start: &Start,
    outcome: &ScanOutcome,
    tracked_before: Option<u64>,
    rules: &Rules,
) -> Changes {
    let files = &outcome.files;
    let previous = start.previous.as_ref();
    let incremental = start.incremental && previous.is_some();
    let (caveats, mut warnings) = freshness::refresh_caveats(
        previous
            .filter(|_| incremental)
            .map(|p| p.caveats.as_slice()),
        files,
        outcome.unstable,
        &outcome.faults,
    );
    let (repository_digest, tracked_files) = match (previous, tracked_before) {
        (Some(p), Some(n)) if incremental => (
            digest::update_repository_digest(&p.repository_digest, &start.prev_files, files),
            n,
        ),
        _ => (digest::repository_digest(files), files.len() as u64),
    };
    // Excluded and secret paths are never shown, so never named here either.
    let secret = |p: &&Vec<u8>| crate::classify::is_secret_path(p, &rules.config.analysis);
    warnings.extend(freshness::non_utf8_warning(
        files
            .iter()
            .filter(|f| f.class.listed())
            .map(|f| &f.path)
            .chain(start.basis.untracked.iter().filter(|p| !secret(p))),
    ));
    let basis = &start.basis;
    let old_repo = previous.map(|p| RepoFacts {
        branch: p.branch.as_deref(),
        head: p.head.as_deref(),
        dirty: p.dirty,
        untracked: &p.untracked,
    });
    let new_repo = RepoFacts {
        branch: basis.branch.as_deref(),
        head: basis.head.as_deref(),
        dirty: basis.dirty(),
        untracked: &basis.untracked,
    };
    let full = start.full();
    let unchanged = !full
        && previous.is_some_and(|p| {
            p.repository_digest == repository_digest
                && rules.describe(p)
                && p.status_digest == basis.status_digest
                && p.index_digest == basis.index_digest
                && p.caveats == caveats
                && p.faults == outcome.faults
                && old_repo.as_ref() == Some(&new_repo)
        });
    let (items, changed_paths) = match (&old_repo, full) {
        (Some(old), false) => delta::compute(&start.prev_files, files, old, &new_repo),
        _ => (vec![], files.iter().map(|f| f.path.clone()).collect()),
    };
    Changes {
        caveats,
        warnings,
        repository_digest,
        tracked_files,
        unchanged,
        items,
        changed_paths,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{DeltaOp, OperationKind};
    use crate::git::Basis;
    use crate::model::FileState;
    use crate::store::SnapshotRow;

    fn basis() -> Basis {
        Basis {
            branch: Some("main".into()),
            head: Some("h".into()),
            changed: vec![],
            untracked: vec![],
            status_digest: "s".into(),
            index: vec![],
            index_digest: "i".into(),
            observed_at: "t".into(),
            observed_ns: 0,
            index_listed: true,
            index_sig: None,
            attributes: None,
        }
    }

    fn previous(files: &[FileState]) -> SnapshotRow {
        SnapshotRow {
            seq: 1,
            epoch: 1,
            parent: None,
            kind: "baseline".into(),
            branch: Some("main".into()),
            head: Some("h".into()),
            dirty: false,
            status_digest: "s".into(),
            index_digest: "i".into(),
            repository_digest: digest::repository_digest(files),
            untracked: vec![],
            removed: vec![],
            recent_commits: vec![],
            caveats: vec![],
            observed_at: "t".into(),
            created_at: "t".into(),
            index_stat: None,
            file_count: Some(files.len() as i64),
            rules_digest: Some("r".into()),
            secret_content: true,
            faults: vec![],
        }
    }

    fn rules() -> Rules {
        Rules {
            config: Default::default(),
            digest: "r".into(),
        }
    }

    fn start(prev: Option<SnapshotRow>, prev_files: Vec<FileState>, incremental: bool) -> Start {
        Start {
            kind: if prev.is_some() {
                OperationKind::Refresh
            } else {
                OperationKind::Baseline
            },
            new_epoch: prev.is_none().then_some((None, None)),
            previous: prev,
            basis: basis(),
            incremental,
            prev_files,
            index: vec![],
            reanalyze: vec![],
            reclassify: false,
            retry: vec![],
        }
    }

    fn outcome(files: Vec<FileState>) -> ScanOutcome {
        ScanOutcome {
            files,
            ..Default::default()
        }
    }

    #[test]
    fn a_baseline_changes_every_path_without_operations() {
        let files = vec![crate::model::sample_file("a", "1")];
        let c = file_changes(
            &start(None, vec![], false),
            &outcome(files.clone()),
            None,
            &rules(),
        );
        assert!(!c.unchanged);
        assert!(c.items.is_empty());
        assert_eq!(c.changed_paths.len(), 1);
        assert_eq!(c.tracked_files, 1);
        assert_eq!(c.repository_digest, digest::repository_digest(&files));
    }

    #[test]
    fn the_same_state_again_is_unchanged() {
        let files = vec![crate::model::sample_file("a", "1")];
        let s = start(Some(previous(&files)), files.clone(), false);
        let c = file_changes(&s, &outcome(files.clone()), None, &rules());
        assert!(c.unchanged);
        assert!(c.items.is_empty() && c.changed_paths.is_empty());
        // Other analysis rules make another snapshot, though no file changed.
        let other = Rules {
            digest: "r2".into(),
            ..rules()
        };
        assert!(!file_changes(&s, &outcome(files), None, &other).unchanged);
    }

    #[test]
    fn an_incremental_content_change_updates_the_digest_and_yields_one_operation() {
        let all = vec![
            crate::model::sample_file("a", "1"),
            crate::model::sample_file("b", "2"),
        ];
        let s = start(Some(previous(&all)), vec![all[1].clone()], true);
        let changed = vec![crate::model::sample_file("b", "22")];
        let c = file_changes(&s, &outcome(changed.clone()), Some(2), &rules());
        assert!(!c.unchanged);
        assert_eq!(c.tracked_files, 2);
        let after = vec![all[0].clone(), changed[0].clone()];
        assert_eq!(c.repository_digest, digest::repository_digest(&after));
        assert_eq!(c.items.len(), 1);
        assert_eq!(c.items[0].op, DeltaOp::FileContentChanged);
        assert!(c.changed_paths.contains(b"b".as_slice()));
    }
}
