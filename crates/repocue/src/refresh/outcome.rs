//! Stage 3 of a refresh: read the planned paths (streaming a baseline's analyses to a writer
//! thread) and fold what was read into the new rows, the new facts and the scan's counters.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{sync_channel, SyncSender};
use std::thread::JoinHandle;

use crate::analyze::Analysis;
use crate::error::{Error, Result};
use crate::model::{FileState, StatKey};
use crate::repo::Repo;
use crate::scan::{self, Scanned};
use crate::store::Store;

use super::basis::Start;
use super::plan::Plan;

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
}

/// Reads the planned paths and folds the result.
pub(crate) fn scan(repo: &Repo, store: &Store, start: &Start, plan: Plan) -> Result<ScanOutcome> {
    let known = if plan.to_scan.is_empty() {
        HashSet::new()
    } else {
        store.known_digests(crate::analyze::analyzer_version())?
    };
    let analyze = crate::analyze::enabled();
    // A baseline streams its analyses to a writer thread (facts are content-keyed and
    // immutable, so committing them before the snapshot is safe: an interrupted baseline
    // leaves only facts that the next one reuses, or that prune removes).
    let (sink, writer) = if start.full() && analyze {
        let (tx, handle) = facts_writer(repo.db_path());
        (Some(tx), Some(handle))
    } else {
        (None, None)
    };
    let scanned = scan::scan(
        &repo.root,
        plan.to_scan,
        &known,
        analyze,
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
    let scanned = scanned?;
    // A file written after the basis was captured but before it was read would be described
    // with content newer than its Git state: it counts as changed while being read. (Future
    // mtimes beyond the scan are clock skew, not a race.)
    let window = (start.basis.observed_ns, crate::time::now_ns());
    let mut outcome = fold(
        scanned,
        plan.reused,
        plan.stat_updates,
        (!start.full()).then_some(start.prev_files.as_slice()),
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

/// Folds scanned paths into the outcome. `previous` (incremental scans only) is the previous
/// rows, sorted by path: a file read again with the same state but new stat data gets its
/// stat remembered so the next status need not hash it again. A file modified inside
/// `window` (basis observation, end of scan) raced the scan.
pub(crate) fn fold(
    scanned: Vec<Scanned>,
    reused: Vec<FileState>,
    mut stat_updates: Vec<(Vec<u8>, StatKey)>,
    previous: Option<&[FileState]>,
    window: (i64, i64),
) -> ScanOutcome {
    if let Some(prev) = previous {
        for s in scanned.iter().filter(|s| s.state.stat.is_some()) {
            let old = prev
                .binary_search_by(|f| f.path.cmp(&s.state.path))
                .ok()
                .map(|i| &prev[i]);
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
            out.facts.push((d.clone(), a));
        }
        out.files.push(s.state);
    }
    out.files.sort_by(|a, b| a.path.cmp(&b.path));
    // Identical content at several paths is analyzed once per digest in the store.
    out.facts.sort_by(|a, b| a.0.cmp(&b.0));
    out.facts.dedup_by(|a, b| a.0 == b.0);
    out
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
            analysis: analysis.then(Analysis::default),
            analyzed: false,
            bytes_read: 10,
            unstable: false,
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
            None,
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
            Some(&prev),
            (10, 100),
        );
        assert_eq!(out.stat_updates.len(), 1);
        assert_eq!(out.stat_updates[0].0, b"a");
        assert_eq!(out.unstable, 0);
    }
}
