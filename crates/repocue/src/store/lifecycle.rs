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
    pub fn prune(&mut self, recent: usize, dry_run: bool) -> Result<PrunePlan> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let current: Option<i64> = tx
            .query_row("SELECT current_snapshot FROM repository", [], |r| r.get(0))
            .optional()?
            .flatten();
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
        let active_epoch = active.map(|a| a.0);
        let recent_of_active: Vec<i64> = all
            .iter()
            .rev()
            .filter(|s| Some(s.1) == active_epoch)
            .take(recent)
            .map(|s| s.0)
            .collect();
        let mut plan = PrunePlan::default();
        for &(seq, _, pinned) in &all {
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
        if plan.removed.is_empty() {
            return Ok(plan);
        }
        tx.execute_batch("CREATE TEMP TABLE IF NOT EXISTS prune_set (seq INTEGER PRIMARY KEY); DELETE FROM prune_set;")?;
        {
            let mut ins = tx.prepare("INSERT INTO prune_set (seq) VALUES (?1)")?;
            for s in &plan.removed {
                ins.execute([s])?;
            }
        }
        plan.deltas = tx.query_row(
            "SELECT count(*) FROM deltas WHERE snapshot IN (SELECT seq FROM prune_set) OR parent IN (SELECT seq FROM prune_set)",
            [],
            |r| r.get::<_, i64>(0),
        )? as u64;
        // A file version survives when some kept snapshot of its epoch lies in its interval.
        let orphan_versions = "SELECT id FROM file_versions fv WHERE NOT EXISTS (
                SELECT 1 FROM snapshots s WHERE s.epoch = fv.epoch AND s.seq NOT IN (SELECT seq FROM prune_set)
                  AND s.seq >= fv.start_seq AND (fv.end_seq IS NULL OR s.seq < fv.end_seq))";
        plan.file_versions = tx.query_row(
            &format!("SELECT count(*) FROM ({orphan_versions})"),
            [],
            |r| r.get::<_, i64>(0),
        )? as u64;
        if dry_run {
            plan.facts = tx.query_row(
                &format!(
                    "SELECT count(*) FROM content_facts WHERE digest NOT IN (
                        SELECT digest FROM file_versions WHERE digest IS NOT NULL AND id NOT IN ({orphan_versions}))"
                ),
                [],
                |r| r.get::<_, i64>(0),
            )? as u64;
            return Ok(plan);
        }
        tx.execute("DELETE FROM deltas WHERE snapshot IN (SELECT seq FROM prune_set) OR parent IN (SELECT seq FROM prune_set)", [])?;
        tx.execute(
            &format!("DELETE FROM file_versions WHERE id IN ({orphan_versions})"),
            [],
        )?;
        tx.execute(
            "UPDATE snapshots SET parent = NULL WHERE parent IN (SELECT seq FROM prune_set)",
            [],
        )?;
        tx.execute("UPDATE epochs SET baseline_snapshot = NULL WHERE baseline_snapshot IN (SELECT seq FROM prune_set)", [])?;
        tx.execute(
            "DELETE FROM rank_cache WHERE snapshot IN (SELECT seq FROM prune_set)",
            [],
        )?;
        tx.execute(
            "DELETE FROM view_cache WHERE snapshot IN (SELECT seq FROM prune_set)",
            [],
        )?;
        tx.execute(
            "DELETE FROM snapshots WHERE seq IN (SELECT seq FROM prune_set)",
            [],
        )?;
        plan.facts = tx.execute(
            "DELETE FROM content_facts WHERE digest NOT IN (SELECT digest FROM file_versions WHERE digest IS NOT NULL)",
            [],
        )? as u64;
        // Paths no retained version or search entry refers to.
        tx.execute(
            "DELETE FROM paths WHERE id NOT IN (SELECT path FROM file_versions)
               AND id NOT IN (SELECT path FROM search_entries)",
            [],
        )?;
        tx.execute("DELETE FROM prune_set", [])?;
        tx.commit()?;
        // Fold the deletions into the database file so its reported size reflects them.
        let _ = self
            .conn
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()));
        Ok(plan)
    }
}
