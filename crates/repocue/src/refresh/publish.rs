//! Stage 5 of a refresh: one write transaction (new snapshot, rows, facts, search entries,
//! measurement, guarded by the expected current snapshot), automatic retention, and the
//! operation's output.

use std::collections::HashSet;
use std::os::unix::ffi::OsStrExt;
use std::time::Instant;

use crate::api::Commit;
use crate::api::{
    ChangeCounts, DeltaId, DeltaItem, DeltaOp, EpochId, OperationKind, RefreshOutput, SnapshotId,
    Warning, WarningCode,
};
use crate::error::{Error, Result};
use crate::freshness;
use crate::model::{Fault, FileState};
use crate::repo::{Repo, Rules};
use crate::search;
use crate::store::lifecycle::Sweep;
use crate::store::{NewSnapshot, OperationRecord, Publish, SearchUpdate, Store};

use super::basis::Start;
use super::changes::Changes;
use super::outcome::ScanOutcome;

/// Recent snapshots of the active epoch that retention keeps (besides the baseline, the
/// current snapshot and checkpoints).
pub const KEEP_RECENT: usize = 20;
/// Automatic pruning runs once this many snapshots beyond retention have accumulated.
const PRUNE_SLACK: usize = 10;

/// Timings of the operation.
pub(crate) struct Clock<'a> {
    pub started: Instant,
    pub scan_us: i64,
    /// When the operation was asked for (before its first attempt), RFC 3339.
    pub requested_at: &'a str,
}

/// Publishes and returns the operation's output.
#[allow(clippy::too_many_arguments)] // the stages' values, each named; a struct would only wrap them
pub(crate) fn publish(
    repo: &Repo,
    store: &mut Store,
    start: &Start,
    outcome: &ScanOutcome,
    changes: Changes,
    recent_commits: &[Commit],
    clock: Clock<'_>,
    rules: &Rules,
) -> Result<RefreshOutput> {
    let full = start.full();
    let basis = &start.basis;
    let files_analyzed = outcome.facts.len() as u64 + outcome.streamed;
    let git_processes = repo.charge_git();
    let operation = OperationRecord {
        kind: start.kind,
        duration_us: clock.started.elapsed().as_micros() as i64,
        scan_duration_us: Some(clock.scan_us),
        git_processes: Some(git_processes as i64),
        files_scanned: Some(outcome.files_scanned as i64),
        bytes_scanned: Some(outcome.bytes as i64),
        files_analyzed: Some(files_analyzed as i64),
        changed_files: Some(changed_files(full, &changes) as i64),
    };
    let snapshot = (!changes.unchanged).then(|| NewSnapshot {
        branch: basis.branch.clone(),
        head: basis.head.clone(),
        dirty: basis.dirty(),
        status_digest: basis.status_digest.clone(),
        index_digest: basis.index_digest.clone(),
        repository_digest: changes.repository_digest.clone(),
        untracked: &basis.untracked,
        removed: basis.removed(),
        recent_commits,
        caveats: &changes.caveats,
        faults: &outcome.faults,
        observed_at: basis.observed_at.clone(),
        file_count: changes.tracked_files,
        rules_digest: rules.digest.clone(),
        secret_content: rules.config.analysis.secret_content,
        files: &outcome.files,
        changed_paths: &changes.changed_paths,
    });
    // An index a migration emptied is rebuilt whole.
    let reindex = store.search_needs_rebuild()?;
    // An incremental refresh holds only the rows it looked at; a rebuild needs them all.
    let merged: Option<Vec<FileState>> = match &start.previous {
        Some(p) if reindex && start.incremental => {
            Some(merge_rows(store.files_at(p)?, &outcome.files))
        }
        _ => None,
    };
    let targets: &[FileState] = merged.as_deref().unwrap_or(&outcome.files);
    let touched = search_touched(
        &changes.changed_paths,
        start.reanalyze.iter().chain(&start.retry),
        &outcome.faults,
    );
    let search = (!changes.unchanged || reindex || !start.reanalyze.is_empty())
        .then(|| search_update(targets, &touched, &outcome.facts, full || reindex));
    let analyzer = crate::analyze::analyzer_version();
    let facts_checked = crate::analyze::enabled().then_some(analyzer);
    let published = match store.publish(
        &repo.repo_id,
        repo.root.as_os_str().as_bytes(),
        Publish {
            expected: start.previous.as_ref().map(|p| p.seq),
            new_epoch: start.new_epoch.clone(),
            snapshot,
            index_stat: basis.index_sig.clone(),
            stat_updates: &outcome.stat_updates,
            facts: &outcome.facts,
            analyzer,
            search,
            operation,
            facts_checked,
        },
    ) {
        Err(Error::Conflict { detail }) => {
            return adopt(repo, store, start, clock.requested_at, detail).map(|adopted| {
                RefreshOutput {
                    files_scanned: outcome.files_scanned,
                    bytes_scanned: outcome.bytes,
                    files_analyzed,
                    git_processes,
                    duration_ms: clock.started.elapsed().as_secs_f64() * 1000.0,
                    ..adopted
                }
            })
        }
        other => other?,
    };
    if !changes.unchanged && (published.snapshot as usize).is_multiple_of(PRUNE_SLACK) {
        let keep = rules.config.keep_recent.map_or(KEEP_RECENT, |k| k as usize);
        auto_prune(repo, store, keep)?;
    }
    Ok(RefreshOutput {
        schema_version: "repocue/refresh-1".into(),
        operation: start.kind,
        published: !changes.unchanged,
        repository: repo.repository_info(basis),
        epoch: EpochId(published.epoch).to_string(),
        snapshot: SnapshotId(published.snapshot).to_string(),
        previous_snapshot: start
            .previous
            .as_ref()
            .map(|p| SnapshotId(p.seq).to_string()),
        delta: published.delta.map(|d| DeltaId(d).to_string()),
        changes: count_changes(&changes.items),
        freshness: freshness::of_snapshot(&changes.caveats, basis.dirty()),
        tracked_files: changes.tracked_files,
        files_scanned: outcome.files_scanned,
        bytes_scanned: outcome.bytes,
        files_analyzed,
        git_processes,
        duration_ms: clock.started.elapsed().as_secs_f64() * 1000.0,
        faults: Fault::listed(&outcome.faults),
        warnings: changes.warnings,
    })
}

/// Paths whose indexed state changed: all of them for a new epoch.
fn changed_files(full: bool, changes: &Changes) -> u64 {
    if full {
        changes.tracked_files
    } else {
        changes.changed_paths.len() as u64
    }
}

/// Another process published first. When its snapshot was observed no earlier than this
/// operation was asked for, it describes the repository at least as recently as the caller
/// asked: the operation adopts it (published `false`, warning `adopted`) instead of
/// publishing its own view or failing. Otherwise the conflict stands and the caller retries
/// from a new basis. A rebaseline never adopts: it was asked to start a new epoch.
fn adopt(
    repo: &Repo,
    store: &Store,
    start: &Start,
    requested_at: &str,
    detail: String,
) -> Result<RefreshOutput> {
    let conflict = || Error::Conflict {
        detail: detail.clone(),
    };
    if start.kind == OperationKind::Rebaseline {
        return Err(conflict());
    }
    let winner = store.current_snapshot()?.ok_or_else(conflict)?;
    if winner.observed_at.as_str() < requested_at {
        return Err(conflict());
    }
    let mut repository = repo.repository_info(&start.basis);
    repository.branch = winner.branch.clone();
    repository.head = winner.head.clone();
    repository.dirty = winner.dirty;
    Ok(RefreshOutput {
        schema_version: "repocue/refresh-1".into(),
        operation: start.kind,
        published: false,
        repository,
        epoch: EpochId(winner.epoch).to_string(),
        snapshot: SnapshotId(winner.seq).to_string(),
        previous_snapshot: start
            .previous
            .as_ref()
            .map(|p| SnapshotId(p.seq).to_string()),
        delta: None,
        changes: ChangeCounts::default(),
        freshness: freshness::of_snapshot(&winner.caveats, winner.dirty),
        tracked_files: winner.file_count.unwrap_or_default() as u64,
        files_scanned: 0,
        bytes_scanned: 0,
        files_analyzed: 0,
        git_processes: 0,
        duration_ms: 0.0,
        faults: Fault::listed(&winner.faults),
        warnings: vec![Warning::new(
            WarningCode::Adopted,
            format!(
                "another process published {}, observed after this operation was asked for: \
                 adopted it instead of publishing",
                SnapshotId(winner.seq)
            ),
        )],
    })
}

/// Retention by the documented rule only (`keep` recent snapshots: `retention.keep_recent`
/// or [`KEEP_RECENT`]); a failure here loses nothing.
fn auto_prune(repo: &Repo, store: &mut Store, keep: usize) -> Result<()> {
    let unpinned = store.snapshot_seqs()?.len();
    if unpinned > keep + PRUNE_SLACK {
        if let Err(e) = store.prune(keep, false, Sweep::Removed) {
            repo.notice(format!("automatic prune skipped: {e}"));
        }
    }
    Ok(())
}

/// Every row of the previous snapshot, with the rows this refresh looked at replacing theirs.
fn merge_rows(all: Vec<FileState>, looked_at: &[FileState]) -> Vec<FileState> {
    let seen: HashSet<&[u8]> = looked_at.iter().map(|f| f.path.as_slice()).collect();
    let mut out: Vec<FileState> = all
        .into_iter()
        .filter(|f| !seen.contains(f.path.as_slice()))
        .collect();
    out.extend(looked_at.iter().cloned());
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

/// Index entries for the changed paths (every path for a new epoch or a rebuild).
/// The paths whose search entries a publish replaces: the changed ones, the re-analyzed ones
/// though their state did not change, and the retried faults (a parse that timed out before
/// may have found symbols now); not those whose analysis this scan deferred again: their
/// facts, and so their entries, are the same (each read after a cold first cue on
/// babel/babel replaced 25,000 paths' entries while it analyzed a few thousand).
fn search_touched<'p>(
    changed: &HashSet<Vec<u8>>,
    forced: impl Iterator<Item = &'p Vec<u8>>,
    faults: &[Fault],
) -> HashSet<Vec<u8>> {
    let deferred: HashSet<&[u8]> = faults
        .iter()
        .filter(|f| f.kind == crate::api::FaultKind::Deferred)
        .map(|f| f.path.as_slice())
        .collect();
    let mut touched = changed.clone();
    touched.extend(forced.filter(|p| !deferred.contains(p.as_slice())).cloned());
    touched
}

fn search_update<'a>(
    files: &'a [FileState],
    changed: &HashSet<Vec<u8>>,
    fresh: &'a [(String, crate::analyze::Analysis)],
    full: bool,
) -> SearchUpdate<'a> {
    let add: Vec<&FileState> = files
        .iter()
        .filter(|f| (full || changed.contains(&f.path)) && f.exists())
        .collect();
    let mut remove: Vec<Vec<u8>> = if full {
        vec![]
    } else {
        changed.iter().cloned().collect()
    };
    remove.sort();
    SearchUpdate {
        reset: full,
        remove,
        add,
        fresh,
        rows: search::rows,
    }
}

/// Counts operations by group for the refresh output.
pub(crate) fn count_changes(items: &[DeltaItem]) -> ChangeCounts {
    let mut c = ChangeCounts::default();
    for i in items {
        match i.op {
            DeltaOp::FileAdded => c.added += 1,
            DeltaOp::FileDeleted => c.deleted += 1,
            DeltaOp::FileRestored => c.restored += 1,
            DeltaOp::FileContentChanged => c.content_changed += 1,
            DeltaOp::FileMetadataChanged => c.metadata_changed += 1,
            DeltaOp::FileStateChanged => c.state_changed += 1,
            op if op.is_repository() => c.repository += 1,
            _ => c.structural += 1,
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(op: DeltaOp) -> DeltaItem {
        DeltaItem {
            op,
            entity: "x".into(),
            before: None,
            after: None,
        }
    }

    #[test]
    fn search_entries_of_paths_deferred_again_stay() {
        let path = |p: &str| p.as_bytes().to_vec();
        let changed: HashSet<Vec<u8>> = [path("edited.rs")].into();
        let forced = [path("analyzed.rs"), path("deferred.rs"), path("edited.rs")];
        let faults = [
            Fault {
                path: path("deferred.rs"),
                kind: crate::api::FaultKind::Deferred,
            },
            Fault {
                path: path("edited.rs"),
                kind: crate::api::FaultKind::Deferred,
            },
        ];
        let mut touched: Vec<Vec<u8>> = search_touched(&changed, forced.iter(), &faults)
            .into_iter()
            .collect();
        touched.sort();
        // A changed path is replaced whatever its analysis; a retried one only once analyzed.
        assert_eq!(touched, [path("analyzed.rs"), path("edited.rs")]);
    }

    #[test]
    fn counts_group_operations() {
        let c = count_changes(&[
            item(DeltaOp::FileAdded),
            item(DeltaOp::HeadChanged),
            item(DeltaOp::BranchChanged),
            item(DeltaOp::SymbolAdded),
            item(DeltaOp::ImportRemoved),
            item(DeltaOp::FileStateChanged),
        ]);
        assert_eq!(
            (c.added, c.repository, c.structural, c.state_changed),
            (1, 2, 2, 1)
        );
        assert_eq!(
            c.deleted + c.restored + c.content_changed + c.metadata_changed,
            0
        );
    }

    #[test]
    fn merged_rows_replace_the_ones_looked_at() {
        let all = vec![
            crate::model::sample_file("a", "1"),
            crate::model::sample_file("b", "2"),
        ];
        let merged = merge_rows(all, &[crate::model::sample_file("b", "3")]);
        let digests: Vec<_> = merged.iter().map(|f| f.digest.clone().unwrap()).collect();
        assert_eq!(digests, ["1", "3"]);
    }

    #[test]
    fn a_search_update_removes_and_adds_only_changed_existing_paths() {
        let mut gone = crate::model::sample_file("c", "3");
        gone.file_type = crate::model::FileType::Missing;
        let files = vec![
            crate::model::sample_file("a", "1"),
            crate::model::sample_file("b", "2"),
            gone,
        ];
        let changed: HashSet<Vec<u8>> = [b"b".to_vec(), b"c".to_vec()].into();
        let u = search_update(&files, &changed, &[], false);
        assert!(!u.reset);
        assert_eq!(u.remove, [b"b".to_vec(), b"c".to_vec()]);
        let added: Vec<&[u8]> = u.add.iter().map(|f| f.path.as_slice()).collect();
        assert_eq!(added, [b"b".as_slice()]);
        assert_eq!(search_update(&files, &changed, &[], true).add.len(), 2);
    }
}
