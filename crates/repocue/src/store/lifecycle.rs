//! Retention: checkpoints (pinned snapshots) and pruning of snapshots outside the retention
//! window, with the file versions, deltas and facts only they used.

use rusqlite::{params, OptionalExtension, TransactionBehavior};

use super::Store;
use crate::error::{Error, Result};

/// One checkpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckpointRow {
    /// Sequence (`checkpoint-<seq>`).
    pub seq: i64,
    /// Pinned snapshot.
    pub snapshot: i64,
    /// Label.
    pub label: String,
    /// When it was pinned.
    pub created_at: String,
}

/// What a prune removes (or would remove).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PrunePlan {
    /// Snapshots kept.
    pub kept: Vec<i64>,
    /// Snapshots removed.
    pub removed: Vec<i64>,
    /// File version rows removed.
    pub file_versions: u64,
    /// Deltas removed.
    pub deltas: u64,
    /// Content facts removed (no longer referenced by any file version).
    pub facts: u64,
}

impl Store {
    /// Pins a snapshot as a checkpoint; returns its sequence.
    pub fn pin(&mut self, snapshot: i64, label: &str) -> Result<i64> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let exists: bool = tx.query_row(
            "SELECT count(*) FROM snapshots WHERE seq = ?1",
            [snapshot],
            |r| r.get::<_, i64>(0),
        )? > 0;
        if !exists {
            return Err(Error::NotFound {
                kind: "snapshot",
                id: super::snap_id(snapshot),
            });
        }
        let seq = super::next_seq(&tx, "checkpoint")?;
        tx.execute(
            "INSERT INTO checkpoints (seq, snapshot, label, created_at) VALUES (?1, ?2, ?3, ?4)",
            params![seq, snapshot, label, crate::time::now_rfc3339()],
        )?;
        tx.execute("UPDATE snapshots SET pinned = 1 WHERE seq = ?1", [snapshot])?;
        tx.commit()?;
        Ok(seq)
    }

    /// Removes a checkpoint; the snapshot stays until a prune finds it outside retention.
    pub fn unpin(&mut self, checkpoint: i64) -> Result<CheckpointRow> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let row = tx
            .query_row(
                "SELECT seq, snapshot, label, created_at FROM checkpoints WHERE seq = ?1",
                [checkpoint],
                |r| {
                    Ok(CheckpointRow {
                        seq: r.get(0)?,
                        snapshot: r.get(1)?,
                        label: r.get(2)?,
                        created_at: r.get(3)?,
                    })
                },
            )
            .optional()?
            .ok_or_else(|| Error::NotFound {
                kind: "checkpoint",
                id: crate::api::CheckpointId(checkpoint).to_string(),
            })?;
        tx.execute("DELETE FROM checkpoints WHERE seq = ?1", [checkpoint])?;
        tx.execute(
            "UPDATE snapshots SET pinned = EXISTS (SELECT 1 FROM checkpoints c WHERE c.snapshot = ?1) WHERE seq = ?1",
            [row.snapshot],
        )?;
        tx.commit()?;
        Ok(row)
    }

    /// Returns every checkpoint, oldest first.
    pub fn checkpoints(&self) -> Result<Vec<CheckpointRow>> {
        let mut stmt = self
            .conn
            .prepare("SELECT seq, snapshot, label, created_at FROM checkpoints ORDER BY seq")?;
        let rows = stmt.query_map([], |r| {
            Ok(CheckpointRow {
                seq: r.get(0)?,
                snapshot: r.get(1)?,
                label: r.get(2)?,
                created_at: r.get(3)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Plans, and unless `dry_run` applies, a prune that keeps: the current snapshot, the
    /// active epoch's baseline, the `recent` most recent snapshots of the active epoch, and
    /// every pinned snapshot. Everything else goes, with the rows only it used.
    ///
    /// [`Sweep::Full`] (what `repocue prune` asks for) checks every row and folds the result
    /// into the database file; [`Sweep::Removed`] (after a refresh) looks only at the rows of
    /// the removed snapshots.
    pub fn prune(&mut self, recent: usize, dry_run: bool, sweep: Sweep) -> Result<PrunePlan> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let current: Option<(i64, i64)> = tx
            .query_row(
                "SELECT s.seq, s.epoch FROM repository r JOIN snapshots s ON s.seq = r.current_snapshot",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        let active: Option<(i64, Option<i64>)> = tx
            .query_row(
                "SELECT seq, baseline_snapshot FROM epochs WHERE status = 'active'",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        let all: Vec<(i64, i64, bool)> = {
            let mut stmt = tx.prepare("SELECT seq, epoch, pinned FROM snapshots ORDER BY seq")?;
            let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
            rows.collect::<rusqlite::Result<_>>()?
        };
        let plan = plan_retention(&all, current.map(|c| c.0), active, recent);
        if plan.removed.is_empty() {
            return Ok(plan);
        }
        tx.execute_batch(
            "CREATE TEMP TABLE IF NOT EXISTS prune_set (seq INTEGER PRIMARY KEY);
             CREATE TEMP TABLE IF NOT EXISTS prune_versions (
                 id INTEGER PRIMARY KEY, path INTEGER NOT NULL, digest BLOB);
             DELETE FROM prune_set; DELETE FROM prune_versions;",
        )?;
        {
            let mut ins = tx.prepare("INSERT INTO prune_set (seq) VALUES (?1)")?;
            for s in &plan.removed {
                ins.execute([s])?;
            }
        }
        let plan = sweep_rows(&tx, plan, current.map(|c| c.1), dry_run, sweep)?;
        tx.execute_batch("DELETE FROM prune_set; DELETE FROM prune_versions;")?;
        tx.commit()?;
        if sweep == Sweep::Full && !dry_run {
            // Fold the deletions into the database file so its reported size reflects them.
            let _ = self
                .conn
                .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()));
        }
        Ok(plan)
    }
}

/// Which rows a prune checks for whether a kept snapshot still uses them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sweep {
    /// Every row: also what an interrupted baseline or an older binary left behind.
    Full,
    /// Only the rows the removed snapshots used (a few milliseconds, not a scan of every
    /// version, fact and path of the repository).
    Removed,
}

/// Which snapshots a prune keeps and which it removes.
fn plan_retention(
    all: &[(i64, i64, bool)],
    current: Option<i64>,
    active: Option<(i64, Option<i64>)>,
    recent: usize,
) -> PrunePlan {
    let active_epoch = active.map(|a| a.0);
    let recent_of_active: Vec<i64> = all
        .iter()
        .rev()
        .filter(|s| Some(s.1) == active_epoch)
        .take(recent)
        .map(|s| s.0)
        .collect();
    let mut plan = PrunePlan::default();
    for &(seq, _, pinned) in all {
        let keep = pinned
            || Some(seq) == current
            || Some(Some(seq)) == active.map(|a| a.1)
            || recent_of_active.contains(&seq);
        if keep {
            plan.kept.push(seq)
        } else {
            plan.removed.push(seq)
        }
    }
    plan
}

/// Counts, and unless `dry_run` deletes, the rows only the snapshots in `prune_set` use.
///
/// A file version survives when a kept snapshot of its epoch lies in its interval. Each prune
/// leaves every version with some snapshot in its interval, so only versions whose interval
/// meets a removed snapshot can lose theirs; of the current epoch's versions, only closed ones
/// can (an open one holds the current snapshot). Their facts and paths go when nothing else
/// refers to them.
fn sweep_rows(
    tx: &rusqlite::Transaction<'_>,
    mut plan: PrunePlan,
    current_epoch: Option<i64>,
    dry_run: bool,
    sweep: Sweep,
) -> Result<PrunePlan> {
    let survives = "EXISTS (SELECT 1 FROM snapshots s WHERE s.epoch = fv.epoch
                  AND s.seq NOT IN (SELECT seq FROM prune_set)
                  AND s.seq >= fv.start_seq AND (fv.end_seq IS NULL OR s.seq < fv.end_seq))";
    let candidates = match sweep {
        Sweep::Full => "SELECT fv.* FROM file_versions fv".to_string(),
        Sweep::Removed => "WITH removed AS (
                 SELECT epoch, min(seq) AS low, max(seq) AS high FROM snapshots
                 WHERE seq IN (SELECT seq FROM prune_set) GROUP BY epoch)
             SELECT fv.* FROM removed r JOIN file_versions fv
               ON fv.epoch = r.epoch AND fv.end_seq > r.low AND fv.start_seq <= r.high
             UNION ALL
             SELECT fv.* FROM removed r JOIN file_versions fv
               ON fv.epoch = r.epoch AND fv.end_seq IS NULL
             WHERE r.epoch IS NOT ?1"
            .to_string(),
    };
    plan.file_versions = tx.execute(
        &format!(
            "INSERT INTO prune_versions (id, path, digest)
             SELECT fv.id, fv.path, fv.digest FROM ({candidates}) fv WHERE NOT {survives}"
        ),
        rusqlite::params_from_iter(match sweep {
            Sweep::Full => None,
            Sweep::Removed => Some(current_epoch),
        }),
    )? as u64;
    plan.deltas = tx.query_row(
        "SELECT count(*) FROM deltas WHERE snapshot IN (SELECT seq FROM prune_set) OR parent IN (SELECT seq FROM prune_set)",
        [],
        |r| r.get::<_, i64>(0),
    )? as u64;
    // Facts no remaining version refers to: of the removed versions' digests (looked up by
    // key), or of any.
    let unused_facts = match sweep {
        Sweep::Full => {
            "digest NOT IN (
                SELECT digest FROM file_versions
                WHERE digest IS NOT NULL AND id NOT IN (SELECT id FROM prune_versions))"
        }
        Sweep::Removed => {
            "key IN (SELECT digest_key(digest) FROM prune_versions WHERE digest IS NOT NULL)
             AND digest IN (SELECT digest FROM prune_versions)
             AND digest NOT IN (
                SELECT digest FROM file_versions
                WHERE digest IN (SELECT digest FROM prune_versions)
                  AND id NOT IN (SELECT id FROM prune_versions))"
        }
    };
    if dry_run {
        plan.facts = tx.query_row(
            &format!("SELECT count(*) FROM content_facts WHERE {unused_facts}"),
            [],
            |r| r.get::<_, i64>(0),
        )? as u64;
        return Ok(plan);
    }
    plan.facts = tx.execute(
        &format!("DELETE FROM content_facts WHERE {unused_facts}"),
        [],
    )? as u64;
    tx.execute_batch(
        "DELETE FROM file_versions WHERE id IN (SELECT id FROM prune_versions);
         DELETE FROM deltas WHERE snapshot IN (SELECT seq FROM prune_set) OR parent IN (SELECT seq FROM prune_set);
         UPDATE snapshots SET parent = NULL WHERE parent IN (SELECT seq FROM prune_set);
         UPDATE epochs SET baseline_snapshot = NULL WHERE baseline_snapshot IN (SELECT seq FROM prune_set);
         DELETE FROM view_cache WHERE snapshot IN (SELECT seq FROM prune_set);
         DELETE FROM snapshots WHERE seq IN (SELECT seq FROM prune_set);",
    )?;
    // Paths no retained version or search entry refers to.
    let paths = match sweep {
        Sweep::Full => "SELECT id FROM paths",
        Sweep::Removed => "SELECT DISTINCT path FROM prune_versions",
    };
    let gone = tx.execute(
        &format!(
            "DELETE FROM paths WHERE id IN ({paths})
               AND id NOT IN (SELECT path FROM file_versions)
               AND search_first IS NULL"
        ),
        [],
    )?;
    // And the directories no path is in any more (a full sweep checks them all).
    if gone > 0 || sweep == Sweep::Full {
        super::dirs::sweep(tx)?;
    }
    Ok(plan)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::refresh::{run, Operation};
    use crate::testing::{git, raw_db, temp_repo};

    /// Rows of the tables a prune deletes from, in a stable order.
    fn rows(db: &rusqlite::Connection) -> Vec<String> {
        let mut out = vec![];
        for sql in [
            "SELECT 'v', id FROM file_versions ORDER BY id",
            "SELECT 'f', hex(digest) FROM content_facts ORDER BY digest",
            "SELECT 'p', id FROM paths ORDER BY id",
            "SELECT 's', seq FROM snapshots ORDER BY seq",
            "SELECT 'd', snapshot FROM deltas ORDER BY snapshot, parent",
        ] {
            let mut stmt = db.prepare(sql).unwrap();
            let it = stmt
                .query_map([], |r| {
                    Ok(format!(
                        "{}:{}",
                        r.get::<_, String>(0)?,
                        r.get_ref(1)?.as_str().map_or_else(
                            |_| r.get::<_, i64>(1).unwrap().to_string(),
                            str::to_owned
                        )
                    ))
                })
                .unwrap();
            out.extend(it.map(Result::unwrap));
        }
        out
    }

    /// The sweep after a refresh looks only at the removed snapshots' rows, yet leaves exactly
    /// what a sweep of every row leaves: over edits, a revert to earlier content, a deletion, a
    /// rename and a rebaseline (whose old epoch's open versions go with its snapshots).
    #[test]
    fn sweeping_the_removed_rows_leaves_what_a_full_sweep_leaves() {
        let t = temp_repo(&[
            ("a.py", "def a0():\n    pass\n"),
            ("b.py", "def b():\n    pass\n"),
            ("gone.py", "def gone():\n    pass\n"),
        ]);
        let root = t.repo.root.clone();
        run(&t.repo, &Operation::Init).unwrap();
        let step = |f: &dyn Fn()| {
            f();
            assert!(run(&t.repo, &Operation::Refresh).unwrap().published);
        };
        step(&|| std::fs::write(root.join("a.py"), "def a1():\n    pass\n").unwrap());
        step(&|| std::fs::remove_file(root.join("gone.py")).unwrap());
        step(&|| std::fs::write(root.join("a.py"), "def a0():\n    pass\n").unwrap());
        step(&|| git(&root, &["mv", "b.py", "c.py"]));
        let rebaseline = Operation::Rebaseline {
            label: "second".into(),
            reason: "test".into(),
        };
        run(&t.repo, &rebaseline).unwrap();
        for i in 2..6 {
            step(&|| {
                std::fs::write(root.join("a.py"), format!("def a{i}():\n    pass\n")).unwrap()
            });
        }
        let copy = t._dir.path().join("copy.db");
        raw_db(&t.repo)
            .execute("VACUUM INTO ?1", [copy.to_str().unwrap()])
            .unwrap();
        let mut store = t.repo.open_store(false).unwrap().unwrap();
        let mut full = Store::open(&copy, false).unwrap().unwrap();
        let removed = store.prune(2, false, Sweep::Removed).unwrap();
        let all = full.prune(2, false, Sweep::Full).unwrap();
        assert_eq!(removed, all);
        assert!(
            removed.removed.len() >= 6 && removed.file_versions > 0 && removed.facts > 0,
            "{removed:?}"
        );
        assert_eq!(
            rows(&raw_db(&t.repo)),
            rows(&rusqlite::Connection::open(&copy).unwrap())
        );
        // A dry run of either sweep reports what the other removes.
        let again = store.prune(0, true, Sweep::Removed).unwrap();
        assert_eq!(again, full.prune(0, true, Sweep::Full).unwrap());
    }
}
