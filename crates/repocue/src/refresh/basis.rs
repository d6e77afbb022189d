//! Stage 1 of a refresh: what kind of operation runs, the Git basis captured once, and the
//! previous snapshot's rows the rest of the pipeline compares with.

use crate::analyze::analyzer_version;
use crate::api::OperationKind;
use crate::error::{Error, Result};
use crate::git::{Basis, IndexEntry};
use crate::model::{FileState, WorkingState};
use crate::repo::Repo;
use crate::store::{SnapshotRow, Store};

/// What kind of state-changing operation to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Operation {
    /// Baseline when uninitialized, refresh otherwise.
    Init,
    /// Incremental refresh; fails when uninitialized.
    Refresh,
    /// New epoch with a full baseline.
    Rebaseline {
        /// Label of the new epoch.
        label: String,
        /// Why it was started.
        reason: String,
    },
}

/// A Git basis a read has just captured to compare with the snapshot `seq`: the refresh that
/// read asks for starts from it instead of running `git status` again (on a 27,000-file
/// repository, that is the time of a second `git status` on every edit-then-cue).
pub(crate) struct Observed {
    /// The snapshot the basis was compared with: the basis serves only a refresh of it.
    pub seq: i64,
    pub basis: Basis,
}

/// The label and reason of a new epoch.
pub(crate) type NewEpoch = (Option<String>, Option<String>);

/// Where a refresh starts from.
pub(crate) struct Start {
    /// The current snapshot before this operation.
    pub previous: Option<SnapshotRow>,
    pub kind: OperationKind,
    /// A new epoch starts (baseline, rebaseline).
    pub new_epoch: Option<NewEpoch>,
    pub basis: Basis,
    /// The index did not change: only paths Git reports as changed, and the snapshot's
    /// unsettled paths, can differ; nothing else is loaded or compared.
    pub incremental: bool,
    /// The previous rows the plan compares with (a subset when incremental), sorted by path.
    pub prev_files: Vec<FileState>,
    /// Index entries to plan over (those of `prev_files` when incremental); taken by the plan.
    pub index: Vec<IndexEntry>,
    /// Paths whose stored facts another analyzer version derived: read and analyzed again
    /// even when their state did not change (an upgraded binary, no rebaseline needed).
    pub reanalyze: Vec<Vec<u8>>,
    /// Every path's class is decided again: the analysis rules (configuration, attributes
    /// files) differ from the previous snapshot's. `prev_files` then holds every row.
    pub reclassify: bool,
    /// The previous snapshot's faults (not for a new epoch, which reads everything): read
    /// again whatever their stat data says, since their stored state is only the last known.
    pub retry: Vec<Vec<u8>>,
}

impl Start {
    /// Whether every path is scanned and a new epoch starts.
    pub fn full(&self) -> bool {
        self.new_epoch.is_some()
    }

    /// Paths read again though their state may look unchanged: outdated facts and faults.
    pub fn forced(&self) -> Vec<Vec<u8>> {
        forced(&self.reanalyze, &self.retry)
    }
}

fn forced(reanalyze: &[Vec<u8>], retry: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let mut paths: Vec<Vec<u8>> = reanalyze.iter().chain(retry).cloned().collect();
    paths.sort();
    paths.dedup();
    paths
}

/// Decides the operation kind. A refresh never creates a cache.
pub(crate) fn kind_of(
    op: &Operation,
    previous: Option<&SnapshotRow>,
) -> Result<(OperationKind, Option<NewEpoch>)> {
    Ok(match (op, previous) {
        (Operation::Rebaseline { label, reason }, _) => (
            OperationKind::Rebaseline,
            Some((Some(label.clone()), Some(reason.clone()))),
        ),
        (Operation::Refresh, None) => return Err(Error::NotInitialized),
        (_, None) => (OperationKind::Baseline, Some((None, None))),
        (_, Some(_)) => (OperationKind::Refresh, None),
    })
}

/// Index entries equivalent to stored rows (used when the index itself did not change).
pub(crate) fn index_of(rows: &[FileState]) -> Vec<IndexEntry> {
    rows.iter()
        .map(|f| IndexEntry {
            path: f.path.clone(),
            mode: f.index_mode,
            oid: f.index_oid.clone(),
            stage: 0,
            assume_unchanged: f.assume_unchanged,
            skip_worktree: f.skip_worktree,
        })
        .collect()
}

/// Paths an incremental refresh looks at: those Git reports as changed, the snapshot's
/// unsettled ones and the forced ones, sorted and unique.
pub(crate) fn paths_to_check(
    basis: &Basis,
    unsettled: Vec<FileState>,
    forced: &[Vec<u8>],
) -> Vec<Vec<u8>> {
    let mut paths: Vec<Vec<u8>> = basis.changed.iter().map(|c| c.path.clone()).collect();
    paths.extend(unsettled.into_iter().map(|f| f.path));
    paths.extend(forced.iter().cloned());
    paths.sort();
    paths.dedup();
    paths
}

/// Tells whether a path is a `.gitattributes` file (any directory).
pub(crate) fn is_attributes_file(path: &[u8]) -> bool {
    crate::paths::file_name(path) == b".gitattributes"
}

/// The `.gitattributes` entries of an index (stage 0), or of rows: what decides whether the
/// committed or staged attributes changed.
fn attribute_entries<'a>(
    entries: impl Iterator<Item = (&'a [u8], &'a str)>,
) -> Vec<(&'a [u8], &'a str)> {
    let mut v: Vec<_> = entries.filter(|(p, _)| is_attributes_file(p)).collect();
    v.sort();
    v
}

/// The previous rows the plan needs and whether classes are decided again.
struct Previous {
    files: Vec<FileState>,
    index: Vec<IndexEntry>,
    incremental: bool,
    reclassify: bool,
}

/// Loads the previous snapshot's rows. Only the paths Git reports and the unsettled ones when
/// the index is unchanged and nothing that classifies files changed; every row otherwise.
/// Classes are decided again when the rules digest differs or a `.gitattributes` file (a
/// changed or unsettled path, or an index entry) changed.
fn previous_rows(
    store: &Store,
    p: &SnapshotRow,
    basis: &mut Basis,
    forced: &[Vec<u8>],
    rules: &crate::repo::Rules,
) -> Result<Previous> {
    let attributes_reported = basis.changed.iter().any(|c| {
        is_attributes_file(&c.path) || c.orig_path.as_deref().is_some_and(is_attributes_file)
    });
    let rules_changed = !rules.describe(p) || attributes_reported;
    if p.index_digest == basis.index_digest {
        let unsettled = store.unsettled_files_at(p)?;
        let reclassify = rules_changed || unsettled.iter().any(|f| is_attributes_file(&f.path));
        if !reclassify {
            let paths = paths_to_check(basis, unsettled, forced);
            let refs: Vec<&[u8]> = paths.iter().map(Vec::as_slice).collect();
            let files = store.files_by_paths(p, &refs)?;
            let index = index_of(&files);
            return Ok(Previous {
                files,
                index,
                incremental: true,
                reclassify: false,
            });
        }
        let files = store.files_at(p)?;
        let index = match basis.index_listed {
            true => std::mem::take(&mut basis.index),
            false => index_of(&files),
        };
        return Ok(Previous {
            files,
            index,
            incremental: false,
            reclassify: true,
        });
    }
    let files = store.files_at(p)?;
    let committed = attribute_entries(
        basis
            .index
            .iter()
            .filter(|e| e.stage == 0)
            .map(|e| (e.path.as_slice(), e.oid.as_str())),
    );
    let before = attribute_entries(
        files
            .iter()
            .map(|f| (f.path.as_slice(), f.index_oid.as_str())),
    );
    let unsettled = files
        .iter()
        .any(|f| is_attributes_file(&f.path) && f.working_state != WorkingState::Clean);
    let reclassify = rules_changed || unsettled || committed != before;
    Ok(Previous {
        files,
        index: std::mem::take(&mut basis.index),
        incremental: false,
        reclassify,
    })
}

/// Captures the basis and loads what the plan compares with.
pub(crate) fn capture(
    repo: &Repo,
    store: &Store,
    op: &Operation,
    rules: &crate::repo::Rules,
    observed: Option<Observed>,
) -> Result<Start> {
    let previous = store.current_snapshot()?;
    let (kind, new_epoch) = kind_of(op, previous.as_ref())?;
    let full = new_epoch.is_some();
    // A basis a read captured against the snapshot that is still current is the one this
    // refresh would capture now: the same question (the index listing skipped under the
    // same condition), asked after the operation was.
    let observed = observed
        .filter(|o| !full && previous.as_ref().is_some_and(|p| p.seq == o.seq))
        .map(|o| o.basis);
    // The listing moves into `Start::index` (the plan's input): 100,000 entries are not kept
    // twice.
    // A baseline classifies every listed path: their attributes are read with the listing.
    let mut basis = match observed {
        Some(basis) => basis,
        None => {
            // A refresh that captures its own basis: the dirty files that changed are
            // analyzed meanwhile (a read that refreshes started that when it captured its own).
            if let Some(p) = previous.as_ref().filter(|_| !full) {
                crate::scan::foresight::start(
                    &repo.root,
                    &repo.db_path(),
                    &store.unsettled_files_at(p)?,
                );
            }
            repo.git.capture_basis_since(
                previous
                    .as_ref()
                    .filter(|_| !full)
                    .and_then(SnapshotRow::known_index),
                full,
            )?
        }
    };
    let reanalyze = match &previous {
        Some(p) if !full => outdated_facts(store, p)?,
        _ => vec![],
    };
    let retry: Vec<Vec<u8>> = match &previous {
        Some(p) if !full => p.faults.iter().map(|f| f.path.clone()).collect(),
        _ => vec![],
    };
    let prev = match &previous {
        Some(p) if !full => {
            previous_rows(store, p, &mut basis, &forced(&reanalyze, &retry), rules)?
        }
        _ => Previous {
            files: vec![],
            index: std::mem::take(&mut basis.index),
            incremental: false,
            reclassify: false,
        },
    };
    Ok(Start {
        previous,
        kind,
        new_epoch,
        basis,
        incremental: prev.incremental,
        prev_files: prev.files,
        index: prev.index,
        reanalyze,
        reclassify: prev.reclassify,
        retry,
    })
}

/// Paths of the snapshot whose facts an older (or other) analyzer derived. Checked once per
/// analyzer version: the store remembers the version it last brought every digest up to.
fn outdated_facts(store: &Store, snapshot: &SnapshotRow) -> Result<Vec<Vec<u8>>> {
    let current = analyzer_version();
    if !crate::analyze::enabled() || store.facts_checked()?.as_deref() == Some(current) {
        return Ok(vec![]);
    }
    store.paths_with_facts_other_than(snapshot, current)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_operation_kind_follows_the_request_and_the_cache() {
        let (k, e) = kind_of(&Operation::Init, None).unwrap();
        assert_eq!((k, e.is_some()), (OperationKind::Baseline, true));
        assert!(matches!(
            kind_of(&Operation::Refresh, None),
            Err(Error::NotInitialized)
        ));
        let rb = Operation::Rebaseline {
            label: "l".into(),
            reason: "r".into(),
        };
        let (k, e) = kind_of(&rb, None).unwrap();
        assert_eq!(k, OperationKind::Rebaseline);
        assert_eq!(e, Some((Some("l".into()), Some("r".into()))));
    }

    #[test]
    fn rows_become_stage_zero_index_entries_and_paths_are_unique() {
        let mut f = crate::model::sample_file("a", "1");
        f.skip_worktree = true;
        let idx = index_of(std::slice::from_ref(&f));
        assert_eq!(idx[0].stage, 0);
        assert!(idx[0].skip_worktree);
        assert_eq!(idx[0].oid, f.index_oid);
        let basis = Basis {
            branch: None,
            head: None,
            changed: vec![crate::git::StatusEntry {
                path: b"b".to_vec(),
                orig_path: None,
                x: b'M',
                y: b'.',
                unmerged: false,
            }],
            untracked: vec![],
            status_digest: String::new(),
            index: vec![],
            index_digest: String::new(),
            observed_at: String::new(),
            observed_ns: 0,
            index_listed: false,
            index_sig: None,
            attributes: None,
        };
        let unsettled = vec![
            crate::model::sample_file("b", "2"),
            crate::model::sample_file("a", "1"),
        ];
        assert_eq!(
            paths_to_check(&basis, unsettled, &[b"c".to_vec()]),
            [b"a".to_vec(), b"b".to_vec(), b"c".to_vec()]
        );
    }
}
