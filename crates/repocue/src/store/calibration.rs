//! Calibration reference rows (migration 0009): the only part of the evaluation half that
//! lives in the core store. The experiment engine, validation and artifacts are in the
//! `repocue-eval` crate; the core only records which immutable artifact is bound to which
//! epoch and snapshot, inside one write transaction that re-checks that binding.

use rusqlite::{params, OptionalExtension, TransactionBehavior};

use super::Store;
use crate::error::{Error, Result};

/// One calibration reference row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CalibrationReference {
    /// `calibration-<sha256 hex>`.
    pub calibration_id: String,
    /// Bound epoch sequence.
    pub epoch: i64,
    /// Bound snapshot sequence.
    pub snapshot: i64,
    /// Artifact path relative to the repository's cache directory.
    pub artifact_path: String,
    /// `sha256:<hex>` of the artifact bytes.
    pub artifact_digest: String,
    /// Evidence observation time (RFC 3339 UTC).
    pub bound_at: String,
    /// Content fingerprint the calibration was validated against.
    pub content_fingerprint: String,
    /// Fingerprint algorithm id.
    pub fingerprint_algorithm: String,
    /// Digest over the frozen contracts (runner, cue, task).
    pub contract_digest: String,
    /// Agent model of the calibration runs.
    pub model: String,
    /// Task (benchmark) id.
    pub benchmark: String,
    /// When the row was written (RFC 3339 UTC).
    pub created_at: String,
}

impl Store {
    /// Returns the active epoch and current snapshot sequences; `None` before the first
    /// baseline.
    pub(crate) fn calibration_binding(&self) -> Result<Option<(i64, i64)>> {
        Ok(self.current_snapshot()?.map(|snap| (snap.epoch, snap.seq)))
    }

    /// Inserts a calibration reference when the bound epoch and snapshot are still the
    /// active ones; returns `false` when the same id was already recorded (idempotent).
    ///
    /// A concurrent refresh or rebaseline between validation and this call fails with
    /// `concurrent_update` and writes nothing.
    pub(crate) fn record_calibration(&mut self, r: &CalibrationReference) -> Result<bool> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let current: Option<(i64, i64)> = tx
            .query_row(
                "SELECT s.epoch, s.seq FROM repository r JOIN snapshots s ON s.seq = r.current_snapshot
                 JOIN epochs e ON e.seq = s.epoch AND e.status = 'active'",
                [],
                |row| Ok((row.get(0)?, row.get(1)?)),
            )
            .optional()?;
        if current != Some((r.epoch, r.snapshot)) {
            return Err(Error::Conflict {
                detail: format!(
                    "the calibration was validated against epoch {} snapshot {}, the cache now holds {:?}",
                    r.epoch, r.snapshot, current
                ),
            });
        }
        let existing: Option<String> = tx
            .query_row(
                "SELECT artifact_digest FROM calibration_references WHERE calibration_id = ?1",
                [&r.calibration_id],
                |row| row.get(0),
            )
            .optional()?;
        if let Some(d) = existing {
            if d != r.artifact_digest {
                return Err(Error::CorruptCache {
                    path: self.path.clone(),
                    detail: format!(
                        "calibration {} is recorded with digest {d}, not {}",
                        r.calibration_id, r.artifact_digest
                    ),
                });
            }
            return Ok(false);
        }
        tx.execute(
            "INSERT INTO calibration_references (calibration_id, epoch, snapshot, artifact_path,
                 artifact_digest, bound_at, content_fingerprint, fingerprint_algorithm,
                 contract_digest, model, benchmark, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
            params![
                r.calibration_id,
                r.epoch,
                r.snapshot,
                r.artifact_path,
                r.artifact_digest,
                r.bound_at,
                r.content_fingerprint,
                r.fingerprint_algorithm,
                r.contract_digest,
                r.model,
                r.benchmark,
                r.created_at
            ],
        )?;
        tx.commit()?;
        Ok(true)
    }
}
