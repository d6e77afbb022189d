//! Read-only access to a repository's RepoCue database, opened with SQLite's read-only flag
//! so that reports and validations can never migrate, record or refresh anything.

use std::path::Path;

use rusqlite::{Connection, OpenFlags, OptionalExtension};

use crate::error::{EvalError, Result};

/// The newest schema (`PRAGMA user_version`) this crate knows how to read: the core's own, so
/// the two never drift apart.
pub const KNOWN_SCHEMA: i64 = repocue::SCHEMA_VERSION;

/// Opens `path` read-only; `not_initialized` when it does not exist.
pub fn open(path: &Path) -> Result<Connection> {
    if !path.exists() {
        return Err(EvalError::new(
            "not_initialized",
            "repository is not initialized; run `repocue init`",
        ));
    }
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|e| EvalError::new("corrupt_cache", format!("{}: {e}", path.display())))?;
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(|e| EvalError::new("corrupt_cache", format!("{}: {e}", path.display())))?;
    if version > KNOWN_SCHEMA {
        return Err(EvalError::new(
            "schema_too_new",
            format!(
                "{} has schema version {version}; this binary reads up to {KNOWN_SCHEMA}",
                path.display()
            ),
        ));
    }
    Ok(conn)
}

/// A recorded operation.
#[derive(Debug, Clone)]
pub struct Operation {
    /// Row id.
    pub id: i64,
    /// `baseline`, `rebaseline`, `refresh`, …
    pub kind: String,
    /// RFC 3339 UTC.
    pub recorded_at: String,
    /// Full duration.
    pub duration_us: i64,
    /// Git processes; `None` when not recorded.
    pub git_processes: Option<i64>,
    /// Files scanned.
    pub files_scanned: Option<i64>,
    /// Bytes scanned.
    pub bytes_scanned: Option<i64>,
    /// Epoch.
    pub epoch: Option<i64>,
    /// Whether it published a snapshot.
    pub published: bool,
}

/// Returns every recorded operation, oldest first.
pub fn operations(c: &Connection) -> Result<Vec<Operation>> {
    let mut s = c.prepare(
        "SELECT id, kind, recorded_at, duration_us, git_processes, files_scanned, bytes_scanned,
                epoch, published FROM operations ORDER BY id",
    )?;
    let rows = s.query_map([], |r| {
        Ok(Operation {
            id: r.get(0)?,
            kind: r.get(1)?,
            recorded_at: r.get(2)?,
            duration_us: r.get(3)?,
            git_processes: r.get(4)?,
            files_scanned: r.get(5)?,
            bytes_scanned: r.get(6)?,
            epoch: r.get(7)?,
            published: r.get::<_, i64>(8)? != 0,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// A recorded cue.
#[derive(Debug, Clone)]
pub struct CueRow {
    /// RFC 3339 UTC.
    pub recorded_at: String,
    /// Output bytes.
    pub output_bytes: i64,
    /// Estimated tokens.
    pub estimated_tokens: i64,
    /// Duration.
    pub duration_us: i64,
}

/// Returns every recorded cue, oldest first.
pub fn cues(c: &Connection) -> Result<Vec<CueRow>> {
    let mut s = c.prepare(
        "SELECT recorded_at, output_bytes, estimated_tokens, duration_us FROM cue_metrics ORDER BY id",
    )?;
    let rows = s.query_map([], |r| {
        Ok(CueRow {
            recorded_at: r.get(0)?,
            output_bytes: r.get(1)?,
            estimated_tokens: r.get(2)?,
            duration_us: r.get(3)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// A snapshot's identity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snapshot {
    /// Sequence.
    pub seq: i64,
    /// Epoch.
    pub epoch: i64,
    /// RFC 3339 UTC.
    pub observed_at: String,
}

/// Returns all snapshots, oldest first.
pub fn snapshots(c: &Connection) -> Result<Vec<Snapshot>> {
    let mut s = c.prepare("SELECT seq, epoch, observed_at FROM snapshots ORDER BY seq")?;
    let rows = s.query_map([], |r| {
        Ok(Snapshot {
            seq: r.get(0)?,
            epoch: r.get(1)?,
            observed_at: r.get(2)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Returns the current snapshot sequence and active epoch.
pub fn current(c: &Connection) -> Result<Option<(i64, i64)>> {
    Ok(c.query_row(
        "SELECT s.epoch, s.seq FROM repository r JOIN snapshots s ON s.seq = r.current_snapshot",
        [],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
    .optional()?)
}

/// Files, bytes and languages of a snapshot.
#[derive(
    Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    /// Tracked files present in the snapshot.
    pub tracked_files: u64,
    /// Their bytes.
    pub indexed_bytes: u64,
    /// Per language (files without one under `other`), sorted by name.
    pub languages: Vec<LanguageShare>,
}

/// One language's share of a profile.
#[derive(
    Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(deny_unknown_fields)]
pub struct LanguageShare {
    /// Language.
    pub language: String,
    /// Files.
    pub files: u64,
    /// Bytes.
    pub bytes: u64,
}

/// Returns the profile of snapshot `seq` in `epoch`.
pub fn profile(c: &Connection, epoch: i64, seq: i64) -> Result<Profile> {
    let mut s = c.prepare(
        "SELECT coalesce(language, 'other'), count(*), coalesce(sum(size), 0) FROM file_versions
         WHERE epoch = ?1 AND start_seq <= ?2 AND (end_seq IS NULL OR end_seq > ?2)
           AND digest IS NOT NULL
         GROUP BY 1 ORDER BY 1",
    )?;
    let languages: Vec<LanguageShare> = s
        .query_map([epoch, seq], |r| {
            Ok(LanguageShare {
                language: r.get(0)?,
                files: r.get::<_, i64>(1)? as u64,
                bytes: r.get::<_, i64>(2)? as u64,
            })
        })?
        .collect::<rusqlite::Result<_>>()?;
    Ok(Profile {
        tracked_files: languages.iter().map(|l| l.files).sum(),
        indexed_bytes: languages.iter().map(|l| l.bytes).sum(),
        languages,
    })
}

/// A calibration reference row.
#[derive(Debug, Clone)]
pub struct Reference {
    /// Id.
    pub calibration_id: String,
    /// Bound epoch.
    pub epoch: i64,
    /// Bound snapshot.
    pub snapshot: i64,
    /// Relative artifact path.
    pub artifact_path: String,
    /// Artifact digest.
    pub artifact_digest: String,
    /// Evidence time.
    pub bound_at: String,
    /// Model.
    pub model: String,
    /// Task id.
    pub benchmark: String,
}

/// Returns the calibration references; none on a database older than the calibration migration (0009).
pub fn references(c: &Connection) -> Result<Vec<Reference>> {
    let exists: bool = c.query_row(
        "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'calibration_references'",
        [],
        |r| r.get::<_, i64>(0).map(|n| n > 0),
    )?;
    if !exists {
        return Ok(vec![]);
    }
    let mut s = c.prepare(
        "SELECT calibration_id, epoch, snapshot, artifact_path, artifact_digest, bound_at, model,
                benchmark FROM calibration_references ORDER BY calibration_id",
    )?;
    let rows = s.query_map([], |r| {
        Ok(Reference {
            calibration_id: r.get(0)?,
            epoch: r.get(1)?,
            snapshot: r.get(2)?,
            artifact_path: r.get(3)?,
            artifact_digest: r.get(4)?,
            bound_at: r.get(5)?,
            model: r.get(6)?,
            benchmark: r.get(7)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}
