//! Refresh: a pipeline of values, one stage per module.
//!
//! ```text
//! basis::capture ─► plan::plan_scan ─► outcome::scan ─► changes::derive ─► publish::publish
//!   (Start)           (Plan)            (ScanOutcome)     (Changes)          (RefreshOutput)
//! ```
//!
//! Each stage takes the previous stages' values and returns its own; the pure parts are unit
//! tested on in-memory data, the I/O (Git, the work tree, SQLite) stays at the stage edges.

pub(crate) mod basis;
pub(crate) mod changes;
pub(crate) mod outcome;
pub(crate) mod plan;
pub(crate) mod publish;

use std::time::Instant;

use crate::api::{Commit, RefreshOutput};
use crate::error::{Error, Result};
use crate::repo::Repo;

pub use basis::Operation;
pub use publish::KEEP_RECENT;

/// How many recent commits a snapshot keeps for overviews.
const RECENT_COMMITS: usize = 10;
/// How often a publish that lost the race to another writer is retried.
const PUBLISH_ATTEMPTS: usize = 4;

/// Runs a baseline, refresh or rebaseline and publishes a snapshot when state changed. A
/// publish that lost the race to another writer is retried from a new basis.
pub(crate) fn run(repo: &Repo, op: &Operation) -> Result<RefreshOutput> {
    let mut attempt = 0;
    loop {
        attempt += 1;
        match run_once(repo, op) {
            Err(Error::Conflict { .. }) if attempt < PUBLISH_ATTEMPTS => continue,
            other => return other,
        }
    }
}

fn run_once(repo: &Repo, op: &Operation) -> Result<RefreshOutput> {
    let started = Instant::now();
    // A refresh never creates a cache: only init and rebaseline start one.
    let Some(mut store) = repo.open_store(*op != Operation::Refresh)? else {
        return Err(Error::NotInitialized);
    };
    let start = basis::capture(repo, &store, op)?;
    let scan_started = Instant::now();
    let plan = plan::plan_scan(
        &start.index,
        &start.basis.changed,
        &start.prev_files,
        start.full(),
        &start.forced(),
        &repo.root,
    );
    let outcome = outcome::scan(repo, &store, &start, plan)?;
    let scan_us = scan_started.elapsed().as_micros() as i64;
    let changes = changes::derive(&store, &start, &outcome)?;
    let commits = recent_commits(repo, &start)?;
    let clock = publish::Clock { started, scan_us };
    publish::publish(repo, &mut store, &start, &outcome, changes, &commits, clock)
}

/// The snapshot's recent commits: the previous snapshot's when HEAD did not move.
fn recent_commits(repo: &Repo, start: &basis::Start) -> Result<Vec<Commit>> {
    Ok(match &start.previous {
        Some(p) if p.head == start.basis.head => p.recent_commits.clone(),
        _ if start.basis.head.is_some() => repo.git.recent_commits(RECENT_COMMITS)?,
        _ => vec![],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::analyzer_version;
    use crate::testing::{raw_db, temp_repo};

    #[test]
    fn a_new_analyzer_rereads_only_files_with_outdated_facts_without_a_rebaseline() {
        let t = temp_repo(&[
            ("a.rs", "pub fn alpha() {}\n"),
            ("b.rs", "pub fn beta() {}\n"),
            ("README.md", "# Title\n"),
        ]);
        let base = run(&t.repo, &Operation::Init).unwrap();
        assert_eq!(base.files_scanned, 3);
        // A no-op refresh reads nothing.
        let noop = run(&t.repo, &Operation::Refresh).unwrap();
        assert_eq!((noop.files_scanned, noop.published), (0, false));
        // Pretend an older binary derived a.rs's facts.
        let db = raw_db(&t.repo);
        let a_digest: String = db
            .query_row(
                "SELECT digest FROM file_versions WHERE path = CAST('a.rs' AS BLOB)",
                [],
                |r| r.get(0),
            )
            .unwrap();
        db.execute(
            "UPDATE content_facts SET analyzer = 'a0-old' WHERE digest = ?1",
            [&a_digest],
        )
        .unwrap();
        db.execute("DELETE FROM settings", []).unwrap();
        let up = run(&t.repo, &Operation::Refresh).unwrap();
        assert_eq!(up.files_scanned, 1, "only the outdated file is read again");
        assert_eq!(up.files_analyzed, 1);
        assert!(
            !up.published,
            "the indexed state did not change: no new snapshot"
        );
        assert_eq!(up.epoch, base.epoch, "no rebaseline");
        let analyzer: String = db
            .query_row(
                "SELECT analyzer FROM content_facts WHERE digest = ?1",
                [&a_digest],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(analyzer, analyzer_version());
        // The check ran once for this analyzer: the next refresh reads nothing.
        let again = run(&t.repo, &Operation::Refresh).unwrap();
        assert_eq!(again.files_scanned, 0);
        // Search still finds the re-analyzed symbol (its entries were rebuilt, not lost).
        let store = t.repo.open_store(false).unwrap().unwrap();
        let hits = crate::search::find(&store, "\"alpha\"*", &[crate::api::SearchKind::Symbol], 5)
            .unwrap();
        assert_eq!(hits.len(), 1, "{hits:?}");
    }

    #[test]
    fn corrupt_stored_json_is_a_corrupt_cache_error_not_a_default() {
        let t = temp_repo(&[("a.rs", "pub fn alpha() {}\n")]);
        run(&t.repo, &Operation::Init).unwrap();
        let store = t.repo.open_store(false).unwrap().unwrap();
        assert!(store
            .current_snapshot()
            .unwrap()
            .unwrap()
            .caveats
            .is_empty());
        let db = raw_db(&t.repo);
        db.execute(
            "UPDATE snapshots SET caveats = '[\"assume_unchanged\",'",
            [],
        )
        .unwrap();
        let e = store.current_snapshot().unwrap_err();
        assert_eq!(e.code(), "corrupt_cache", "{e}");
        db.execute("UPDATE snapshots SET caveats = '[\"no_such_caveat\"]'", [])
            .unwrap();
        assert_eq!(
            store.current_snapshot().unwrap_err().code(),
            "corrupt_cache"
        );
        db.execute("UPDATE snapshots SET caveats = '[]'", [])
            .unwrap();
        db.execute("UPDATE content_facts SET facts = '{not json'", [])
            .unwrap();
        let digests: Vec<String> = store
            .files_at(&store.current_snapshot().unwrap().unwrap())
            .unwrap()
            .into_iter()
            .filter_map(|f| f.digest)
            .collect();
        let refs: Vec<&str> = digests.iter().map(String::as_str).collect();
        assert_eq!(store.facts(&refs).unwrap_err().code(), "corrupt_cache");
        // A refresh that reads the snapshot fails the same way instead of publishing a guess.
        db.execute("UPDATE snapshots SET recent_commits = 'x'", [])
            .unwrap();
        let e = run(&t.repo, &Operation::Refresh).unwrap_err();
        assert_eq!(e.code(), "corrupt_cache");
    }
}
