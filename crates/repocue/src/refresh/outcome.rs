//! Stage 3 of a refresh: read the planned paths (streaming a baseline's analyses to a writer
//! thread) and fold what was read into the new rows, the new facts and the scan's counters.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{sync_channel, SyncSender};
use std::thread::JoinHandle;

use crate::analyze::Analysis;
use crate::api::FaultKind;
use crate::error::{Error, Result};
use crate::model::{Fault, FileState, StatKey};
use crate::repo::Repo;
use crate::scan::{self, Scanned};
use crate::store::Store;

use super::basis::Start;
use super::plan::Plan;

/// Scans of at most this many paths look stored facts up per digest.
const PROBE_MAX_PATHS: usize = 1_000;

/// What the scan produced.
#[derive(Debug, Default)]
pub(crate) struct ScanOutcome {
    /// The rows of every planned path (reused and read), sorted by path.
    pub files: Vec<FileState>,
    /// Analyses of content new to the cache, sorted and unique by digest.
    pub facts: Vec<(String, Analysis)>,
    /// Analyses already written by the baseline's writer thread.
    pub streamed: u64,
    /// Paths read.
    pub files_scanned: u64,
    /// Bytes read.
    pub bytes: u64,
    /// Files that changed while (or just before) being read.
    pub unstable: u64,
    /// New stat data for rows whose indexed state did not change.
    pub stat_updates: Vec<(Vec<u8>, StatKey)>,
    /// Paths that could not be read or analyzed, sorted by path.
    pub faults: Vec<Fault>,
}

/// Reads the planned paths and folds the result.
/// With a `deadline`, content not analyzed by then is left for the next refresh (a
/// `deferred` fault).
pub(crate) fn scan(
    repo: &Repo,
    store: &Store,
    start: &Start,
    plan: Plan,
    deadline: Option<std::time::Instant>,
) -> Result<ScanOutcome> {
    // A few paths look their digests up one by one; more load every stored digest at once
    // (27,000 of them take about 6 ms: most of a one-file refresh's own work).
    let analyzer = crate::analyze::analyzer_version();
    let (set, probe) = match plan.to_scan.len() {
        0 => (HashSet::new(), None),
        n if n <= PROBE_MAX_PATHS => (HashSet::new(), Some(store.facts_probe(analyzer)?)),
        _ => (store.known_digests(analyzer)?, None),
    };
    let known = |digest: &str| match &probe {
        Some(p) => p.contains(digest),
        None => set.contains(digest),
    };
    let analyze = match (crate::analyze::enabled(), deadline) {
        (false, _) => scan::Analyze::Off,
        (true, None) => scan::Analyze::All,
        (true, Some(t)) => scan::Analyze::Until(t),
    };
    // A baseline streams its analyses to a writer thread (facts are content-keyed and
    // immutable, so committing them before the snapshot is safe: an interrupted baseline
    // leaves only facts that the next one reuses, or that prune removes).
    let (sink, writer) = if start.full() && analyze != scan::Analyze::Off {
        let (tx, handle) = facts_writer(repo.db_path());
        (Some(tx), Some(handle))
    } else {
        (None, None)
    };
    let guard = scan::crashguard::Guard::new(&repo.db_path());
    let scanned = scan::scan(
        &repo.root,
        plan.to_scan,
        &known,
        analyze,
        &guard,
        repo.progress.as_deref(),
        sink.as_ref(),
    );
    drop(sink);
    let streamed = match writer {
        Some(w) => w
            .join()
            .map_err(|_| Error::InvalidArgument("facts writer panicked".into()))??,
        None => 0,
    };
    // A file written after the basis was captured but before it was read would be described
    // with content newer than its Git state: it counts as changed while being read. (Future
    // mtimes beyond the scan are clock skew, not a race.)
    let window = (start.basis.observed_ns, crate::time::now_ns());
    let mut outcome = fold(
        scanned,
        plan.reused,
        plan.stat_updates,
        Previous {
            rows: &start.prev_files,
            same_epoch: !start.full(),
        },
        window,
    );
    outcome.streamed = streamed;
    Ok(outcome)
}

/// Starts the thread that writes a baseline's analyses in batches as they are made.
fn facts_writer(db: PathBuf) -> (SyncSender<(String, Analysis)>, JoinHandle<Result<u64>>) {
    let (tx, rx) = sync_channel::<(String, Analysis)>(256);
    let handle = std::thread::spawn(move || -> Result<u64> {
        let store = Store::open(Path::new(&db), false)?.ok_or(Error::NotInitialized)?;
        let analyzer = crate::analyze::analyzer_version();
        let mut batch = Vec::with_capacity(512);
        let mut written = 0u64;
        for item in rx {
            batch.push(item);
            if batch.len() == 512 {
                written += store.put_facts(&batch, analyzer)?;
                batch.clear();
            }
        }
        written += store.put_facts(&batch, analyzer)?;
        Ok(written)
    });
    (tx, handle)
}

/// The previous rows a scan is folded against, sorted by path.
pub(crate) struct Previous<'a> {
    pub rows: &'a [FileState],
    /// The rows belong to the epoch being written (not a new epoch's baseline): new stat data
    /// of unchanged rows is remembered for them.
    pub same_epoch: bool,
}

impl Previous<'_> {
    fn row(&self, path: &[u8]) -> Option<&FileState> {
        self.rows
            .binary_search_by(|f| f.path.as_slice().cmp(path))
            .ok()
            .map(|i| &self.rows[i])
    }
}

/// Folds scanned paths into the outcome. A file read again with the same state but new stat
/// data gets its stat remembered so the next status need not hash it again. A file modified
/// inside `window` (basis observation, end of scan) raced the scan. A path that could not be
/// read keeps its previous content facts under what Git now says of it.
pub(crate) fn fold(
    scanned: Vec<Scanned>,
    reused: Vec<FileState>,
    mut stat_updates: Vec<(Vec<u8>, StatKey)>,
    previous: Previous<'_>,
    window: (i64, i64),
) -> ScanOutcome {
    if previous.same_epoch {
        for s in scanned
            .iter()
            .filter(|s| s.state.stat.is_some() && s.fault.is_none())
        {
            let old = previous.row(&s.state.path);
            if old.is_some_and(|o| o.same_state(&s.state) && o.stat != s.state.stat) {
                stat_updates.push((s.state.path.clone(), s.state.stat.expect("filtered")));
            }
        }
    }
    let mut out = ScanOutcome {
        files: reused,
        files_scanned: scanned.len() as u64,
        stat_updates,
        ..Default::default()
    };
    for s in scanned {
        out.bytes += s.bytes_read;
        let raced = s
            .state
            .stat
            .is_some_and(|st| st.mtime_ns > window.0 && st.mtime_ns <= window.1);
        out.unstable += (s.unstable || raced) as u64;
        if let (Some(a), Some(d)) = (s.analysis, &s.state.digest) {
            out.facts.push((d.clone(), *a));
        }
        let state = match s.fault {
            Some(kind) => {
                out.faults.push(Fault {
                    path: s.state.path.clone(),
                    kind,
                });
                match (kind, previous.row(&s.state.path)) {
                    (FaultKind::Unreadable | FaultKind::Vanished, Some(old)) => {
                        last_known(old, s.state)
                    }
                    _ => s.state,
                }
            }
            None => s.state,
        };
        out.files.push(state);
    }
    out.files.sort_by(|a, b| a.path.cmp(&b.path));
    out.faults.sort_by(|a, b| a.path.cmp(&b.path));
    // Identical content at several paths is analyzed once per digest in the store.
    out.facts.sort_by(|a, b| a.0.cmp(&b.0));
    out.facts.dedup_by(|a, b| a.0 == b.0);
    out
}

/// The row of a path that could not be read: what Git says now (`git`), the content facts
/// of the previous row, and no stat data (nothing was hashed, so nothing may be vouched for
/// by stat).
fn last_known(old: &FileState, git: FileState) -> FileState {
    FileState {
        worktree_mode: old.worktree_mode,
        size: old.size,
        digest: old.digest.clone(),
        file_type: old.file_type,
        language: old.language.clone(),
        is_document: old.is_document,
        stat: None,
        ..git
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scanned(path: &str, digest: &str, mtime_ns: i64, analysis: bool) -> Scanned {
        let mut state = crate::model::sample_file(path, digest);
        state.stat = Some(StatKey {
            size: 1,
            mtime_ns,
            ctime_ns: 0,
            ino: 1,
        });
        Scanned {
            state,
            analysis: analysis.then(Box::default),
            analyzed: false,
            bytes_read: 10,
            unstable: false,
            fault: None,
        }
    }

    #[test]
    fn fold_merges_counts_dedups_facts_and_flags_races() {
        let reused = vec![crate::model::sample_file("m", "9")];
        let out = fold(
            vec![
                scanned("b", "same", 5, true),
                scanned("a", "same", 50, true),
            ],
            reused,
            vec![],
            Previous {
                rows: &[],
                same_epoch: false,
            },
            (10, 100),
        );
        let paths: Vec<&[u8]> = out.files.iter().map(|f| f.path.as_slice()).collect();
        assert_eq!(paths, [b"a".as_slice(), b"b", b"m"]);
        assert_eq!((out.files_scanned, out.bytes), (2, 20));
        assert_eq!(
            out.unstable, 1,
            "a was modified after the basis was observed"
        );
        assert_eq!(out.facts.len(), 1, "one analysis per digest");
        assert!(out.stat_updates.is_empty());
    }

    #[test]
    fn fold_remembers_new_stat_data_of_unchanged_rows() {
        let prev = vec![crate::model::sample_file("a", "1")];
        let out = fold(
            vec![scanned("a", "1", 5, false)],
            vec![],
            vec![],
            Previous {
                rows: &prev,
                same_epoch: true,
            },
            (10, 100),
        );
        assert_eq!(out.stat_updates.len(), 1);
        assert_eq!(out.stat_updates[0].0, b"a");
        assert_eq!(out.unstable, 0);
    }

    #[test]
    fn a_faulted_path_keeps_its_last_known_content_under_what_git_says_now() {
        let mut old = crate::model::sample_file("a", "old-digest");
        old.language = Some("Rust".into());
        let prev = vec![old.clone(), crate::model::sample_file("t", "t0")];
        let fault = |path: &str, kind: FaultKind, digest: Option<&str>| {
            let mut s = scanned(path, digest.unwrap_or("x"), 5, false);
            s.state.digest = digest.map(str::to_owned);
            s.state.index_oid = "new-oid".into();
            s.state.working_state = crate::model::WorkingState::Staged;
            s.fault = Some(kind);
            s
        };
        let out = fold(
            vec![
                fault("a", FaultKind::Unreadable, None),
                fault("n", FaultKind::Unreadable, None),
                fault("t", FaultKind::TimedOut, Some("t1")),
            ],
            vec![],
            vec![],
            Previous {
                rows: &prev,
                same_epoch: true,
            },
            (10, 100),
        );
        let kinds: Vec<(&[u8], FaultKind)> = out
            .faults
            .iter()
            .map(|f| (f.path.as_slice(), f.kind))
            .collect();
        assert_eq!(
            kinds,
            [
                (b"a".as_slice(), FaultKind::Unreadable),
                (b"n", FaultKind::Unreadable),
                (b"t", FaultKind::TimedOut)
            ]
        );
        let a = &out.files[0];
        assert_eq!(
            (a.digest.as_deref(), a.language.as_deref(), a.stat),
            (Some("old-digest"), Some("Rust"), None),
            "content facts kept, no stat to vouch by"
        );
        assert_eq!(
            (a.index_oid.as_str(), a.working_state),
            ("new-oid", crate::model::WorkingState::Staged),
            "Git's side is current"
        );
        // No earlier state: what was scanned (the scan marks it unreadable).
        assert_eq!(out.files[1].digest, None);
        // A time-out read the file: its new state stands, only its analysis is missing.
        assert_eq!(out.files[2].digest.as_deref(), Some("t1"));
        assert!(
            out.stat_updates.is_empty(),
            "faulted rows never update stat data"
        );
    }
}
