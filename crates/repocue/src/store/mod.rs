//! The SQLite store: schema migrations, the publish transaction and queries returning
//! [`crate::model`] types. Row ids never leave this module; public ids are text.
//!
//! The database is derived state: deleting it loses nothing that `repocue init` cannot
//! rebuild from the repository (except pins and measurement history).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

pub(crate) mod calibration;
mod compact;
mod dirs;
mod fresh;
pub(crate) mod lifecycle;
mod primed;

use rusqlite::{params, Connection, OptionalExtension, Transaction, TransactionBehavior};

use crate::analyze::Analysis;
use crate::api::{Caveat, Commit, OperationKind, SnapshotId};
use crate::digest::{hex, unhex};
use crate::error::{Error, Result};
use crate::model::{Fault, FileClass, FileState, StatKey};

/// Identifies a RepoCue database (`PRAGMA application_id`): "RCUE".
const APPLICATION_ID: i64 = 0x5243_5545;

/// One schema migration: a SQL script, or code for what SQL alone cannot do.
enum Migration {
    Sql(&'static str),
    Code(fn(&Transaction<'_>) -> Result<()>),
}

/// The preset dictionary that content facts of storage tag 2 are deflated after
/// ([ADR 0016](../docs/adr/0016-facts-deflated-after-a-preset-dictionary.md)): what a tool that
/// reads a cache's tables directly needs to inflate them (zlib: a raw stream with this `zdict`).
pub fn facts_dictionary() -> &'static [u8] {
    primed::DICTIONARY.as_bytes()
}

/// Numbered migrations; the database's `user_version` is how many have been applied.
const MIGRATIONS: &[Migration] = &[
    Migration::Sql(include_str!("migrations/0001_initial.sql")),
    Migration::Sql(include_str!("migrations/0002_rank_cache.sql")),
    Migration::Sql(include_str!("migrations/0003_search.sql")),
    Migration::Sql(include_str!("migrations/0004_checkpoints.sql")),
    Migration::Sql(include_str!("migrations/0005_index_stat.sql")),
    Migration::Sql(include_str!("migrations/0006_view_cache.sql")),
    Migration::Sql(include_str!("migrations/0007_slim_search.sql")),
    Migration::Sql(include_str!("migrations/0008_derived_versions.sql")),
    Migration::Sql(include_str!("migrations/0009_calibration.sql")),
    // migrations/0010_compact.sql, and the data moved into its tables.
    Migration::Code(compact::migrate),
    Migration::Sql(include_str!("migrations/0011_classes.sql")),
    Migration::Sql(include_str!("migrations/0012_file_faults.sql")),
    Migration::Code(compact::migrate_lean),
    Migration::Sql(include_str!("migrations/0014_paths_out_of_search.sql")),
    // Languages stored as short codes (store::compact::LANGUAGES).
    Migration::Code(compact::migrate_language_codes),
    // Path hashes in 3 bytes rather than 8 (store::compact::path_hash).
    Migration::Code(compact::migrate_narrow_path_hashes),
    // migrations/0017_dirs.sql: paths as a directory id and a name.
    Migration::Code(dirs::migrate),
    Migration::Sql(include_str!("migrations/0018_drop_rank_cache.sql")),
    // migrations/0019_references.sql: the names each file references, for `entity`.
    Migration::Sql(include_str!("migrations/0019_references.sql")),
    // Staged deletions and renames' old paths per snapshot (`SnapshotRow::removed`).
    Migration::Sql(include_str!("migrations/0020_removed.sql")),
];

/// Runs the migrations after `version`, recording each in `user_version`.
fn apply_migrations(tx: &Transaction<'_>, version: i64) -> Result<()> {
    for (i, step) in MIGRATIONS.iter().enumerate().skip(version as usize) {
        match step {
            Migration::Sql(sql) => tx.execute_batch(sql)?,
            Migration::Code(run) => run(tx)?,
        }
        tx.pragma_update(None, "user_version", i as i64 + 1)?;
    }
    Ok(())
}

/// The page cache of a connection, in KiB (`PRAGMA cache_size` takes it negated).
const PAGE_CACHE_KIB: i64 = 32_000;

/// WAL pages after which a commit checkpoints them into the database (1 MiB of 4 KiB pages).
const WAL_CHECKPOINT_PAGES: i64 = 256;
/// Bytes a checkpointed WAL is truncated to. Small: the WAL's space is no data, yet at 1 MiB
/// it stayed beside every cache for good (about as large as a small repository's database);
/// regrowing it costs appends, no syncs (`synchronous = NORMAL` syncs at checkpoints).
const WAL_SIZE_LIMIT: i64 = 64 << 10;

/// WAL bytes past which a process that closes the cache folds the WAL into the database and
/// truncates it (about 64 pages). See [`Store::settle_wal`].
const WAL_SETTLE_BYTES: u64 = 256 << 10;

/// The schema version (`PRAGMA user_version`) this build writes and reads: one per migration.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// How long a writer waits for another one before reporting a busy database.
const BUSY_TIMEOUT_MS: u64 = 15_000;

/// [`Store::defining_paths`] asks the full-text index when there is at most one name per
/// this many files.
const FTS_NAME_SHARE: u64 = 100;

/// More digests than this are searched by [`Store::facts_mentioning`] in one pass over every
/// stored fact rather than looked up one by one.
const SCAN_MIN_DIGESTS: usize = 256;

/// See [`Store::facts_probe`].
pub struct FactsProbe {
    conn: std::sync::Mutex<Connection>,
    analyzer: String,
}

impl FactsProbe {
    /// Whether facts are stored for `digest` (hex). A failed lookup answers no: the content
    /// is analyzed again, which costs time and loses nothing.
    pub fn contains(&self, digest: &str) -> bool {
        let Ok(conn) = self.conn.lock() else {
            return false;
        };
        let (key, bytes) = compact::fact_key(digest);
        conn.prepare_cached(
            "SELECT 1 FROM content_facts WHERE key = ?1 AND digest = ?2 AND analyzer = ?3",
        )
        .and_then(|mut stmt| stmt.exists(params![key, bytes, self.analyzer]))
        .unwrap_or(false)
    }
}

/// An open state database.
pub struct Store {
    conn: Connection,
    path: PathBuf,
    /// The directories of stored paths read so far (see [`dirs`]).
    dirs: std::cell::RefCell<dirs::Dirs>,
    /// Whether the database proved to be a cache and was configured: only then does closing
    /// it touch its WAL ([`Store::settle_wal`]).
    configured: bool,
    /// Whether a read may write on the side ([`Store::best_effort`], [`Store::settle_wal`]).
    side_writes: bool,
}

/// The stored row of the repository itself.
#[derive(Debug, Clone)]
pub struct RepoRow {
    /// Public repository id.
    pub repo_id: String,
    /// Work-tree root bytes when initialized.
    pub root: Vec<u8>,
    /// Sequence of the current snapshot, if any.
    pub current: Option<i64>,
}

/// One stored epoch.
#[derive(Debug, Clone)]
pub struct EpochRow {
    /// Sequence number (`epoch-<seq>`).
    pub seq: i64,
    /// `active` or `superseded`.
    pub status: String,
    /// Label given at rebaseline.
    pub label: Option<String>,
    /// Reason given at rebaseline.
    pub reason: Option<String>,
    /// When it started.
    pub created_at: String,
}

/// Counts over every file of a snapshot ([`Store::counts_at`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct FileCounts {
    pub files: u64,
    /// Content bytes (files without a size count none).
    pub bytes: u64,
    pub documents: u64,
    /// Distinct languages.
    pub languages: u64,
    /// Files whose working state is not clean.
    pub dirty: u64,
    pub secret: u64,
    pub excluded: u64,
}

/// One stored snapshot.
#[derive(Debug, Clone, PartialEq)]
pub struct SnapshotRow {
    /// Sequence number (`snapshot-<seq>`).
    pub seq: i64,
    /// Epoch sequence.
    pub epoch: i64,
    /// Parent snapshot sequence.
    pub parent: Option<i64>,
    /// `baseline` or `refresh`.
    pub kind: String,
    /// Branch, `None` when detached.
    pub branch: Option<String>,
    /// HEAD commit, `None` before the first commit.
    pub head: Option<String>,
    /// Whether the work tree differed from HEAD.
    pub dirty: bool,
    /// Digest of Git's status records.
    pub status_digest: String,
    /// Digest of the index listing.
    pub index_digest: String,
    /// Digest over all file states.
    pub repository_digest: String,
    /// Untracked, non-ignored paths.
    pub untracked: Vec<Vec<u8>>,
    /// Paths HEAD holds that the index no longer does: staged deletions and the old paths of
    /// staged renames (`git rm`, `git mv`). They are no file of the snapshot, yet changed.
    pub removed: Vec<Vec<u8>>,
    /// Recent commits at HEAD.
    pub recent_commits: Vec<Commit>,
    /// Reasons the snapshot may not describe everything (e.g. `assume_unchanged`).
    pub caveats: Vec<Caveat>,
    /// When the Git basis was observed.
    pub observed_at: String,
    /// When the snapshot was published.
    pub created_at: String,
    /// Stat signature of the index file its listing came from (a cache).
    pub index_stat: Option<String>,
    /// Tracked files in the snapshot.
    pub file_count: Option<i64>,
    /// Digest of the analysis rules its files were classified under; `None` before classes.
    pub rules_digest: Option<String>,
    /// Whether file contents were checked for secrets.
    pub secret_content: bool,
    /// Paths the snapshot's scan could not read or analyze, sorted by path.
    pub faults: Vec<Fault>,
}

/// What one publish transaction writes.
pub struct Publish<'a> {
    /// The snapshot the scan started from; the transaction fails if it is no longer current.
    pub expected: Option<i64>,
    /// Start a new epoch (initial baseline or rebaseline) with this label and reason.
    pub new_epoch: Option<(Option<String>, Option<String>)>,
    /// The snapshot to publish, `None` for a no-op refresh.
    pub snapshot: Option<NewSnapshot<'a>>,
    /// Index file signature to remember for the resulting current snapshot.
    pub index_stat: Option<String>,
    /// Stat data observed for unchanged current rows (cache refresh only).
    pub stat_updates: &'a [(Vec<u8>, StatKey)],
    /// Analysis facts of newly seen digests.
    pub facts: &'a [(String, Analysis)],
    /// The analyzer version that derived `facts`.
    pub analyzer: &'a str,
    /// Changes to the full-text search index.
    pub search: Option<SearchUpdate<'a>>,
    /// The operation measurement to record.
    pub operation: OperationRecord,
    /// The analyzer version every digest of the resulting snapshot now has facts of, when
    /// this publish brought them all up to it.
    pub facts_checked: Option<&'a str>,
}

/// How the search index changes with a publish.
pub struct SearchUpdate<'a> {
    /// Drop every entry first (new epoch).
    pub reset: bool,
    /// Paths whose entries are removed.
    pub remove: Vec<Vec<u8>>,
    /// Files whose entries are added; entries are generated one file at a time while they
    /// are inserted, so a baseline never holds the whole index in memory.
    pub add: Vec<&'a FileState>,
    /// Analyses of this publish, sorted by digest; others are read from the store.
    pub fresh: &'a [(String, Analysis)],
    /// Turns one file and its analysis into its search rows (the store only stores them).
    pub rows: fn(&FileState, Option<&Analysis>) -> Vec<SearchRow>,
}

/// One search entry to store: what is shown, and the indexed text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchRow {
    /// The file it belongs to.
    pub path: Vec<u8>,
    /// `path`, `symbol` or `doc`.
    pub kind: &'static str,
    /// Qualified symbol name, heading text, or empty for a path entry.
    pub name: String,
    /// Line, when meaningful.
    pub line: Option<u32>,
    /// Indexed text of the `name` column.
    pub index_name: String,
    /// Indexed text of the `detail` column.
    pub index_detail: String,
}

/// One stored entry matched by a full-text query.
#[derive(Debug, Clone, PartialEq)]
pub struct MatchRow {
    /// `path`, `symbol` or `doc`.
    pub kind: String,
    /// File path bytes.
    pub path: Vec<u8>,
    /// Qualified symbol name, heading text, or empty for a path entry.
    pub name: String,
    /// Line.
    pub line: Option<u32>,
    /// bm25 score (lower is better).
    pub score: f64,
    /// Content digest of the file's current version (a symbol's signature is in its facts).
    pub digest: Option<String>,
}

/// A snapshot to publish.
pub struct NewSnapshot<'a> {
    /// Git basis fields.
    pub branch: Option<String>,
    /// HEAD commit.
    pub head: Option<String>,
    /// Dirty flag.
    pub dirty: bool,
    /// Status digest.
    pub status_digest: String,
    /// Index digest.
    pub index_digest: String,
    /// Repository digest.
    pub repository_digest: String,
    /// Untracked paths.
    pub untracked: &'a [Vec<u8>],
    /// Staged deletions and old paths of staged renames ([`SnapshotRow::removed`]).
    pub removed: Vec<Vec<u8>>,
    /// Recent commits.
    pub recent_commits: &'a [Commit],
    /// Caveats.
    pub caveats: &'a [Caveat],
    /// Per-file faults, sorted by path.
    pub faults: &'a [Fault],
    /// Basis observation time.
    pub observed_at: String,
    /// Tracked files in the new snapshot.
    pub file_count: u64,
    /// Digest of the analysis rules the files were classified under.
    pub rules_digest: String,
    /// Whether file contents were checked for secrets.
    pub secret_content: bool,
    /// Full file set of the new snapshot (or, for an incremental refresh, the rows of the
    /// paths it looked at), sorted by path.
    pub files: &'a [FileState],
    /// Paths whose state differs from the parent (all paths for a new epoch).
    pub changed_paths: &'a HashSet<Vec<u8>>,
}

/// One operation measurement.
#[derive(Debug, Clone)]
pub struct OperationRecord {
    /// The operation.
    pub kind: OperationKind,
    /// Total duration in microseconds.
    pub duration_us: i64,
    /// Scan duration in microseconds.
    pub scan_duration_us: Option<i64>,
    /// Git processes started.
    pub git_processes: Option<i64>,
    /// Files scanned.
    pub files_scanned: Option<i64>,
    /// Bytes read.
    pub bytes_scanned: Option<i64>,
    /// Files analyzed (content new to the cache).
    pub files_analyzed: Option<i64>,
    /// Paths whose indexed state changed.
    pub changed_files: Option<i64>,
}

/// A recorded operation, as read back.
#[derive(Debug, Clone)]
pub struct OperationRow {
    /// The measurement.
    pub record: OperationRecord,
    /// When it was recorded.
    pub recorded_at: String,
    /// Epoch sequence.
    pub epoch: Option<i64>,
    /// Snapshot sequence after the operation.
    pub snapshot: Option<i64>,
    /// Whether it published a snapshot.
    pub published: bool,
}

/// A recorded cue measurement.
#[derive(Debug, Clone)]
pub struct CueRow {
    /// View name.
    pub view: String,
    /// When it was recorded.
    pub recorded_at: String,
    /// Budget.
    pub max_tokens: i64,
    /// Exact output bytes.
    pub output_bytes: i64,
    /// Estimated tokens.
    pub estimated_tokens: i64,
    /// Duration in microseconds.
    pub duration_us: i64,
    /// Snapshot served.
    pub snapshot: Option<i64>,
}

/// The result of a publish.
#[derive(Debug, Clone, Copy)]
pub struct Published {
    /// Epoch after publishing.
    pub epoch: i64,
    /// Current snapshot after publishing.
    pub snapshot: i64,
    /// Delta sequence, when a delta was recorded.
    pub delta: Option<i64>,
}

impl SnapshotRow {
    /// The index signature and listing digest the snapshot was taken with, if remembered.
    pub fn known_index(&self) -> Option<(&str, &str)> {
        Some((self.index_stat.as_deref()?, self.index_digest.as_str()))
    }
}

impl Store {
    /// Turns a value this version cannot decode into a `corrupt_cache` error: stored data is
    /// never silently replaced by a default.
    /// The full path of a row whose path's directory id and name are columns `dir` and `name`
    /// (see [`dirs`]).
    fn row_path(
        &self,
        r: &rusqlite::Row<'_>,
        dir: usize,
        name: usize,
    ) -> rusqlite::Result<Vec<u8>> {
        let name = match r.get_ref(name)? {
            rusqlite::types::ValueRef::Blob(b) | rusqlite::types::ValueRef::Text(b) => b,
            _ => return Err(bad(name, "a path name that is not bytes")),
        };
        self.dirs.borrow_mut().join(&self.conn, r.get(dir)?, name)
    }

    /// A file state from a row of [`FILE_COLUMNS`].
    fn file_row(&self, r: &rusqlite::Row<'_>) -> rusqlite::Result<FileState> {
        file_from_row(r, self.row_path(r, 0, FILE_NAME_COLUMN)?)
    }

    /// File states sorted by path (SQLite cannot order by a path it does not store whole).
    fn sorted_files(&self, r: rusqlite::Result<Vec<FileState>>) -> Result<Vec<FileState>> {
        let mut files = self.decoded(r)?;
        files.sort_unstable_by(|a, b| a.path.cmp(&b.path));
        Ok(files)
    }

    /// The id of a stored path.
    fn path_id(&self, path: &[u8]) -> Result<Option<i64>> {
        let id = dirs::path_id(&self.conn, &mut self.dirs.borrow_mut(), path);
        self.decoded(id)
    }

    fn decoded<T>(&self, r: rusqlite::Result<T>) -> Result<T> {
        r.map_err(|e| match e {
            rusqlite::Error::FromSqlConversionFailure(col, _, detail) => Error::CorruptCache {
                path: self.path.clone(),
                detail: format!("column {col}: {detail}"),
            },
            other => other.into(),
        })
    }

    /// Opens the database at `path`. With `create`, creates it (and its directory) when
    /// missing; without, returns `Ok(None)` when there is no database.
    pub fn open(path: &Path, create: bool) -> Result<Option<Store>> {
        // A cache directory that is a file (or under one) is no missing cache: `init` could
        // not create one there either.
        let exists = path.try_exists().map_err(|source| Error::CacheUnwritable {
            path: path.to_owned(),
            source,
        })?;
        if !exists {
            if !create {
                return Ok(None);
            }
            let dir = path.parent().unwrap_or(Path::new("."));
            create_private_dir(dir)?;
        }
        let corrupt = |detail: String| Error::CorruptCache {
            path: path.to_owned(),
            detail,
        };
        let conn = Connection::open(path).map_err(|e| match e.sqlite_error_code() {
            Some(rusqlite::ErrorCode::CannotOpen | rusqlite::ErrorCode::ReadOnly) => {
                Error::CacheUnwritable {
                    path: path.to_owned(),
                    source: std::io::Error::new(
                        std::io::ErrorKind::PermissionDenied,
                        e.to_string(),
                    ),
                }
            }
            _ => corrupt(e.to_string()),
        })?;
        conn.busy_timeout(std::time::Duration::from_millis(BUSY_TIMEOUT_MS))?;
        let mut store = Store {
            conn,
            path: path.to_owned(),
            dirs: Default::default(),
            configured: false,
            side_writes: true,
        };
        store.configure().map_err(|e| match e {
            Error::Sqlite(ref s)
                if matches!(
                    s.sqlite_error_code(),
                    Some(rusqlite::ErrorCode::NotADatabase)
                ) =>
            {
                corrupt("not an SQLite database".into())
            }
            Error::Sqlite(ref s)
                if matches!(
                    s.sqlite_error_code(),
                    Some(rusqlite::ErrorCode::ReadOnly | rusqlite::ErrorCode::CannotOpen)
                ) =>
            {
                Error::CacheUnwritable {
                    path: path.to_owned(),
                    source: std::io::Error::new(
                        std::io::ErrorKind::PermissionDenied,
                        s.to_string(),
                    ),
                }
            }
            other => other,
        })?;
        store.configured = true;
        Ok(Some(store))
    }

    fn configure(&mut self) -> Result<()> {
        compact::register_functions(&self.conn)?;
        // One statement, so one read transaction: read one by one, a concurrent first
        // `init` could commit in between and a database it is creating look foreign.
        let (app_id, version, tables): (i64, i64, i64) = self.conn.query_row(
            "SELECT (SELECT application_id FROM pragma_application_id),
                    (SELECT user_version FROM pragma_user_version),
                    (SELECT count(*) FROM sqlite_schema)",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )?;
        if app_id != APPLICATION_ID && !(app_id == 0 && version == 0 && tables == 0) {
            return Err(Error::CorruptCache {
                path: self.path.clone(),
                detail: format!(
                    "foreign SQLite database (application_id {app_id:#x}, {tables} schema objects)"
                ),
            });
        }
        // WAL lets readers proceed while one writer publishes; NORMAL sync is still
        // crash-safe in WAL mode (a power loss may drop the last commit, never corrupt).
        // Switching a new database into WAL takes its lock without SQLite's busy handler: a
        // concurrent first `init` that holds it makes this fail at once. Retried like a busy
        // lock, within the busy timeout.
        let started = std::time::Instant::now();
        while let Err(e) = self.conn.pragma_update(None, "journal_mode", "WAL") {
            let busy = e.sqlite_error_code() == Some(rusqlite::ErrorCode::DatabaseBusy);
            if !busy || started.elapsed() > std::time::Duration::from_millis(BUSY_TIMEOUT_MS) {
                return Err(e.into());
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        self.conn.pragma_update(None, "synchronous", "NORMAL")?;
        // A process that closes the last connection would otherwise fold the WAL into the
        // database and delete it: two fsyncs and a new WAL for every cue and no-op refresh
        // (about 1 ms of a 5 ms command, bench/run.sh). Commits checkpoint instead once the
        // WAL holds WAL_CHECKPOINT_PAGES, and a checkpointed WAL is cut back to
        // WAL_SIZE_LIMIT bytes: the WAL stays small and the database consistent either way.
        // Short commands rely on closing the cache instead (see `settle_wal`).
        self.conn.set_db_config(
            rusqlite::config::DbConfig::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE,
            true,
        )?;
        self.conn
            .pragma_update(None, "wal_autocheckpoint", WAL_CHECKPOINT_PAGES)?;
        self.conn
            .pragma_update(None, "journal_size_limit", WAL_SIZE_LIMIT)?;
        self.conn.pragma_update(None, "foreign_keys", "ON")?;
        // A 32 MiB page cache keeps a 100,000-file baseline's B-tree pages in memory.
        self.conn
            .pragma_update(None, "cache_size", -PAGE_CACHE_KIB)?;
        // No integrity scan on open: it reads the whole file and would dominate a warm
        // `status`. SQLite reports corruption on the pages it touches (SQLITE_CORRUPT).
        self.migrate()
    }

    fn migrate(&mut self) -> Result<()> {
        let supported = SCHEMA_VERSION;
        // The common case, an up-to-date schema, takes no write lock: many readers and one
        // publisher may open the database at once.
        let current: i64 = self
            .conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))?;
        if current == supported {
            return Ok(());
        }
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let version: i64 = tx.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        if version > supported {
            return Err(Error::SchemaTooNew {
                path: self.path.clone(),
                found: version,
                supported,
            });
        }
        if version == 0 && fresh::is_empty(&tx)? {
            // A new database is created at the current schema in one script (what the
            // migrations build, checked by `fresh::tests`): 17 migrations took about 8 ms.
            fresh::create(&tx, SCHEMA_VERSION)?;
        } else {
            apply_migrations(&tx, version)?;
        }
        if version == 0 {
            tx.pragma_update(None, "application_id", APPLICATION_ID)?;
        }
        tx.commit()?;
        Ok(())
    }

    /// Returns the database file path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// This store, where a read writes nothing on the side: no cue metrics, no cached views,
    /// no settled index signature, no WAL truncation on close (see
    /// [`crate::Options::observe_only`]). What an operation writes on purpose it still writes.
    pub fn without_side_writes(mut self) -> Store {
        self.side_writes = false;
        self
    }

    /// Returns the size in bytes of the database and its WAL file.
    pub fn size_bytes(&self) -> u64 {
        let wal = self.path.with_extension("db-wal");
        [&self.path, &wal]
            .iter()
            .filter_map(|p| std::fs::metadata(p).ok())
            .map(|m| m.len())
            .sum()
    }

    /// Returns the repository row, `None` before the first baseline.
    pub fn repository(&self) -> Result<Option<RepoRow>> {
        Ok(self
            .conn
            .query_row(
                "SELECT repo_id, root, current_snapshot FROM repository",
                [],
                |r| {
                    Ok(RepoRow {
                        repo_id: r.get(0)?,
                        root: r.get(1)?,
                        current: r.get(2)?,
                    })
                },
            )
            .optional()?)
    }

    /// Returns the current snapshot, if any.
    pub fn current_snapshot(&self) -> Result<Option<SnapshotRow>> {
        match self.repository()?.and_then(|r| r.current) {
            Some(seq) => self.snapshot(seq),
            None => Ok(None),
        }
    }

    /// The latest retained snapshot whose tracked files were those of `commit` (a full object
    /// id): HEAD was the commit and no tracked file differed from it (untracked files may
    /// have been there; the delta lists them apart).
    pub fn clean_snapshot_at(&self, commit: &str) -> Result<Option<i64>> {
        Ok(self
            .conn
            .query_row(
                "SELECT s.seq FROM snapshots s
                 WHERE s.head = ?1 AND (s.dirty = 0 OR NOT EXISTS (
                     SELECT 1 FROM file_versions f
                     WHERE f.epoch = s.epoch AND f.start_seq <= s.seq
                       AND (f.end_seq IS NULL OR f.end_seq > s.seq) AND f.working_state != 0))
                   AND s.removed = '[]'
                 ORDER BY s.seq DESC LIMIT 1",
                [commit],
                |r| r.get(0),
            )
            .optional()?)
    }

    /// Returns a snapshot by sequence. A row that does not decode is a corrupt cache.
    pub fn snapshot(&self, seq: i64) -> Result<Option<SnapshotRow>> {
        let found = self
            .conn
            .query_row(
                "SELECT seq, epoch, parent, kind, branch, head, dirty, status_digest, index_digest,
                        repository_digest, untracked, recent_commits, caveats, observed_at, created_at,
                        index_stat, file_count, rules_digest, secret_content, faults, removed
                 FROM snapshots WHERE seq = ?1",
                [seq],
                |r| {
                    Ok(SnapshotRow {
                        seq: r.get(0)?,
                        epoch: r.get(1)?,
                        parent: r.get(2)?,
                        kind: r.get(3)?,
                        branch: r.get(4)?,
                        head: r.get(5)?,
                        dirty: r.get(6)?,
                        status_digest: r.get(7)?,
                        index_digest: r.get(8)?,
                        repository_digest: r.get(9)?,
                        untracked: json_paths(&r.get::<_, String>(10)?)
                            .ok_or_else(|| bad(10, "untracked paths are not a hex string list"))?,
                        recent_commits: decode(11, &r.get::<_, String>(11)?)?,
                        caveats: decode(12, &r.get::<_, String>(12)?)?,
                        observed_at: r.get(13)?,
                        created_at: r.get(14)?,
                        index_stat: r.get(15)?,
                        file_count: r.get(16)?,
                        rules_digest: r.get(17)?,
                        secret_content: r.get::<_, Option<bool>>(18)?.unwrap_or(false),
                        faults: json_faults(&r.get::<_, String>(19)?)
                            .ok_or_else(|| bad(19, "faults are not [hex path, kind] pairs"))?,
                        removed: json_paths(&r.get::<_, String>(20)?)
                            .ok_or_else(|| bad(20, "removed paths are not a hex string list"))?,
                    })
                },
            )
            .optional();
        self.decoded(found)
    }

    /// Returns all retained snapshot sequences, oldest first.
    pub fn snapshot_seqs(&self) -> Result<Vec<i64>> {
        let mut stmt = self
            .conn
            .prepare("SELECT seq FROM snapshots ORDER BY seq")?;
        let rows = stmt.query_map([], |r| r.get(0))?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Returns every epoch, oldest first.
    pub fn epochs(&self) -> Result<Vec<EpochRow>> {
        let mut stmt = self
            .conn
            .prepare("SELECT seq, status, label, reason, created_at FROM epochs ORDER BY seq")?;
        let rows = stmt.query_map([], |r| {
            Ok(EpochRow {
                seq: r.get(0)?,
                status: r.get(1)?,
                label: r.get(2)?,
                reason: r.get(3)?,
                created_at: r.get(4)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }

    /// Returns the file states of a snapshot, sorted by path.
    pub fn files_at(&self, snapshot: &SnapshotRow) -> Result<Vec<FileState>> {
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT {FILE_COLUMNS} FROM {FILE_ROWS}
             WHERE f.epoch = ?1 AND f.start_seq <= ?2 AND (f.end_seq IS NULL OR f.end_seq > ?2)"
        ))?;
        let rows = stmt.query_map([snapshot.epoch, snapshot.seq], |r| self.file_row(r))?;
        self.sorted_files(rows.collect::<rusqlite::Result<_>>())
    }

    /// Counts over every file of a snapshot (excluded and secret ones included), from its rows
    /// alone: no path is read or built. What the overview's totals and the manifest show;
    /// reading every row to count them took a 27,000-file snapshot 65 ms.
    pub fn counts_at(&self, snapshot: &SnapshotRow) -> Result<FileCounts> {
        let code = |c: FileClass| {
            compact::FILE_CLASSES
                .iter()
                .position(|k| *k == c)
                .expect("every class has a code") as i64
        };
        let mut stmt = self.conn.prepare_cached(
            "SELECT count(*), total(f.size), total(f.is_document), count(DISTINCT f.language),
                    total(f.working_state != 0), total(f.class = ?3), total(f.class = ?4)
             FROM file_versions f
             WHERE f.epoch = ?1 AND f.start_seq <= ?2 AND (f.end_seq IS NULL OR f.end_seq > ?2)",
        )?;
        let counts = stmt.query_row(
            params![
                snapshot.epoch,
                snapshot.seq,
                code(FileClass::Secret),
                code(FileClass::Excluded)
            ],
            |r| {
                let n = |i: usize| r.get::<_, f64>(i).map(|v| v as u64);
                Ok(FileCounts {
                    files: r.get::<_, i64>(0)? as u64,
                    bytes: n(1)?,
                    documents: n(2)?,
                    languages: r.get::<_, i64>(3)? as u64,
                    dirty: n(4)?,
                    secret: n(5)?,
                    excluded: n(6)?,
                })
            },
        )?;
        Ok(counts)
    }

    /// Returns the analyzer version the current snapshot's facts were last brought up to.
    pub fn facts_checked(&self) -> Result<Option<String>> {
        Ok(self
            .conn
            .query_row(
                "SELECT value FROM settings WHERE name = 'facts_checked'",
                [],
                |r| r.get(0),
            )
            .optional()?)
    }

    /// Returns the paths of a snapshot that `analyzer` may read differently, sorted: those
    /// whose content facts another analyzer version derived, and the analysed text files
    /// without facts (an older analyzer found nothing in them: a newer one may, as one that
    /// reads `.csproj` files does in a C# repository's).
    pub fn paths_with_facts_other_than(
        &self,
        snapshot: &SnapshotRow,
        analyzer: &str,
    ) -> Result<Vec<Vec<u8>>> {
        let text = compact::code(&compact::FILE_TYPES, crate::model::FileType::Text);
        let source = compact::code(&compact::FILE_CLASSES, FileClass::Source);
        let mut stmt = self.conn.prepare(
            "SELECT p.dir, p.name FROM file_versions f JOIN paths p ON p.id = f.path
               LEFT JOIN content_facts c ON c.key = digest_key(f.digest) AND c.digest = f.digest
             WHERE f.epoch = ?1 AND f.start_seq <= ?2 AND (f.end_seq IS NULL OR f.end_seq > ?2)
               AND (c.analyzer != ?3
                    OR (c.key IS NULL AND f.digest IS NOT NULL AND f.file_type = ?4
                        AND f.class = ?5))",
        )?;
        let rows = stmt.query_map(
            params![snapshot.epoch, snapshot.seq, analyzer, text, source],
            |r| self.row_path(r, 0, 1),
        )?;
        let mut paths: Vec<Vec<u8>> = self.decoded(rows.collect::<rusqlite::Result<_>>())?;
        paths.sort_unstable();
        Ok(paths)
    }

    /// Returns the file states of a snapshot that Git's answer alone cannot vouch for: not
    /// clean, or flagged assume-unchanged / skip-worktree. Sorted by path.
    pub fn unsettled_files_at(&self, snapshot: &SnapshotRow) -> Result<Vec<FileState>> {
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT {FILE_COLUMNS} FROM {FILE_ROWS}
             WHERE f.epoch = ?1 AND f.start_seq <= ?2 AND (f.end_seq IS NULL OR f.end_seq > ?2)
               AND (f.working_state != 0 OR f.assume_unchanged OR f.skip_worktree)"
        ))?;
        let rows = stmt.query_map([snapshot.epoch, snapshot.seq], |r| self.file_row(r))?;
        self.sorted_files(rows.collect::<rusqlite::Result<_>>())
    }

    /// Returns the rows of the snapshot's epoch that were live at snapshot `since` and ended
    /// after it, up to `snapshot`: the files that changed (or went away) since, as they were
    /// then. Sorted by path.
    pub fn changed_since(&self, snapshot: &SnapshotRow, since: i64) -> Result<Vec<FileState>> {
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT {FILE_COLUMNS} FROM {FILE_ROWS}
             WHERE f.epoch = ?1 AND f.end_seq > ?2 AND f.end_seq <= ?3 AND f.start_seq <= ?2"
        ))?;
        let rows = stmt.query_map(params![snapshot.epoch, since, snapshot.seq], |r| {
            self.file_row(r)
        })?;
        self.sorted_files(rows.collect::<rusqlite::Result<_>>())
    }

    /// Returns the latest snapshot of `snapshot`'s epoch before it that cached a value under
    /// `key` (the versioned view-cache key).
    pub fn latest_cached_before(&self, snapshot: &SnapshotRow, key: &str) -> Result<Option<i64>> {
        Ok(self.conn.query_row(
            "SELECT max(v.snapshot) FROM view_cache v JOIN snapshots s ON s.seq = v.snapshot
             WHERE v.view = ?1 AND v.snapshot < ?2 AND s.epoch = ?3",
            params![key, snapshot.seq, snapshot.epoch],
            |r| r.get(0),
        )?)
    }

    /// Returns the path and content digest (hex) of every analysed file of a snapshot, in no
    /// particular order: what a pass over every file's facts needs, without the rest of each
    /// row.
    pub fn analysed_digests_at(&self, snapshot: &SnapshotRow) -> Result<Vec<(Vec<u8>, String)>> {
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT p.dir, p.name, f.digest FROM {FILE_ROWS}
             WHERE f.epoch = ?1 AND f.start_seq <= ?2 AND (f.end_seq IS NULL OR f.end_seq > ?2)
               AND f.class = ?3 AND f.digest IS NOT NULL"
        ))?;
        let rows = stmt.query_map(
            params![
                snapshot.epoch,
                snapshot.seq,
                compact::code(&compact::FILE_CLASSES, FileClass::Source)
            ],
            |r| {
                Ok((
                    self.row_path(r, 0, 1)?,
                    compact::id_hex(r.get_ref(2)?.as_bytes()?),
                ))
            },
        )?;
        self.decoded(rows.collect::<rusqlite::Result<_>>())
    }

    /// Returns the file states of the given paths in a snapshot (those that exist in it),
    /// sorted by path. One lookup per path for up to [`LOOKUPS_MAX`] paths; for more, every
    /// row of the snapshot is read once and filtered.
    pub fn files_by_paths(
        &self,
        snapshot: &SnapshotRow,
        paths: &[&[u8]],
    ) -> Result<Vec<FileState>> {
        if paths.len() > LOOKUPS_MAX {
            let wanted: std::collections::HashSet<&[u8]> = paths.iter().copied().collect();
            let mut files = self.files_at(snapshot)?;
            files.retain(|f| wanted.contains(f.path.as_slice()));
            return Ok(files);
        }
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT {FILE_COLUMNS} FROM {FILE_ROWS} WHERE {LIVE_ROW_OF_PATH_CURRENT}
             UNION ALL
             SELECT {FILE_COLUMNS} FROM {FILE_ROWS} WHERE {LIVE_ROW_OF_PATH_ENDED}"
        ))?;
        let mut out = Vec::with_capacity(paths.len());
        for p in paths {
            let Some(id) = self.path_id(p)? else {
                continue;
            };
            if let Some(f) = stmt
                .query_row(params![snapshot.epoch, snapshot.seq, id], |r| {
                    file_from_row(r, p.to_vec())
                })
                .optional()?
            {
                out.push(f);
            }
        }
        out.sort_by(|a, b| a.path.cmp(&b.path));
        Ok(out)
    }

    /// Returns how many files a snapshot holds.
    pub fn file_count_at(&self, snapshot: &SnapshotRow) -> Result<u64> {
        if let Some(n) = snapshot.file_count {
            return Ok(n as u64);
        }
        Ok(self.conn.query_row(
            "SELECT count(*) FROM file_versions
             WHERE epoch = ?1 AND start_seq <= ?2 AND (end_seq IS NULL OR end_seq > ?2)",
            [snapshot.epoch, snapshot.seq],
            |r| r.get::<_, i64>(0),
        )? as u64)
    }

    /// Returns the snapshot sequence at which each path's current state began within the
    /// snapshot's epoch (its last change), for the paths that exist in the snapshot (callers
    /// ask for a few: one lookup each).
    pub fn last_changed(
        &self,
        snapshot: &SnapshotRow,
        paths: &[&[u8]],
    ) -> Result<HashMap<Vec<u8>, i64>> {
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT f.start_seq FROM file_versions f WHERE {LIVE_ROW_OF_PATH_CURRENT}
             UNION ALL
             SELECT f.start_seq FROM file_versions f WHERE {LIVE_ROW_OF_PATH_ENDED}"
        ))?;
        let mut out = HashMap::new();
        for p in paths {
            let Some(id) = self.path_id(p)? else {
                continue;
            };
            if let Some(seq) = stmt
                .query_row(params![snapshot.epoch, snapshot.seq, id], |r| r.get(0))
                .optional()?
            {
                out.insert(p.to_vec(), seq);
            }
        }
        Ok(out)
    }

    /// A lookup of whether facts by analyzer version `analyzer` are stored for a digest, for a
    /// scan of a few paths: one primary-key read per file instead of loading every digest.
    pub fn facts_probe(&self, analyzer: &str) -> Result<FactsProbe> {
        use rusqlite::OpenFlags;
        // A connection of its own: the scan's threads cannot share this one.
        let conn = Connection::open_with_flags(
            &self.path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        conn.busy_timeout(std::time::Duration::from_millis(BUSY_TIMEOUT_MS))?;
        Ok(FactsProbe {
            conn: std::sync::Mutex::new(conn),
            analyzer: analyzer.to_owned(),
        })
    }

    /// Tells whether `snapshot` is the current snapshot: the one the search and reference
    /// indexes describe. Read inside the caller's read transaction, with the index.
    fn is_current(&self, snapshot: &SnapshotRow) -> Result<bool> {
        let current: Option<i64> = self
            .conn
            .query_row("SELECT current_snapshot FROM repository", [], |r| r.get(0))
            .optional()?
            .flatten();
        Ok(current == Some(snapshot.seq))
    }

    /// The paths of the files that define a symbol whose name (last segment) is in `names`
    /// (sorted), read from the search index instead of from every file's facts.
    /// `None` when `snapshot` is not the current snapshot: the index describes only that one.
    pub fn defining_paths(
        &self,
        snapshot: &SnapshotRow,
        names: &[String],
    ) -> Result<Option<Vec<Vec<u8>>>> {
        // One read transaction: the index and the current snapshot seen together.
        let _read = match self.conn.is_autocommit() {
            true => Some(self.conn.unchecked_transaction()?),
            false => None,
        };
        if !self.is_current(snapshot)? {
            return Ok(None);
        }
        if names.is_empty() {
            return Ok(Some(vec![]));
        }
        let files = self.file_count_at(snapshot)?;
        let by_words = names.len() as u64 * FTS_NAME_SHARE <= files;
        self.defining_paths_by(names, by_words).map(Some)
    }

    /// [`Store::defining_paths`] in the current read transaction, through the full-text index
    /// when `by_words` allows it.
    pub(crate) fn defining_paths_by(
        &self,
        names: &[String],
        by_words: bool,
    ) -> Result<Vec<Vec<u8>>> {
        // Candidates through the full-text index: an entry whose name ends in `n` holds the
        // words of `n` in its name column, so the phrase `"n"` finds it (with entries that
        // merely contain those words, which the exact check below drops). Worth it for a few
        // names in many files (babel's index.ts: 145 ms instead of 224; git's builtin/add.c,
        // with more than 1% as many names as files, reads its rows faster: 24.5 ms instead of
        // 35). A name without a letter or digit has no words: then every symbol row is read.
        let searchable = by_words
            && names
                .iter()
                .all(|n| n.chars().any(char::is_alphanumeric) && !n.contains('"'));
        let (sql, expr) = match searchable {
            true => (
                "SELECT e.path, e.name FROM search_fts JOIN search_entries e ON e.rowid = search_fts.rowid
                 WHERE search_fts MATCH ?1 AND e.kind = 1",
                Some(format!(
                    "name : ({})",
                    names
                        .iter()
                        .map(|n| format!("\"{n}\""))
                        .collect::<Vec<_>>()
                        .join(" OR ")
                )),
            ),
            false => (
                "SELECT path, name FROM search_entries WHERE kind = 1 AND ?1 IS NULL",
                None,
            ),
        };
        // Every symbol row may pass here (git's builtin/add.c: 60,000 of them): a hashed set
        // of names and the rows' bytes, no UTF-8 check or ordered comparison per row, and a
        // fast fixed-seed hash (SipHash was a tenth of a git entity cue; only looked up).
        let wanted: HashSet<&[u8], foldhash::fast::FixedState> =
            names.iter().map(|n| n.as_bytes()).collect();
        let mut ids: Vec<i64> = Vec::new();
        let mut stmt = self.conn.prepare_cached(sql)?;
        let mut rows = stmt.query([expr])?;
        while let Some(row) = rows.next()? {
            let name = match row.get_ref(1)? {
                rusqlite::types::ValueRef::Text(t) => t,
                _ => continue,
            };
            if wanted.contains(bare_name_bytes(name)) {
                ids.push(row.get(0)?);
            }
        }
        ids.sort_unstable();
        ids.dedup();
        let mut path_of = self
            .conn
            .prepare_cached("SELECT dir, name FROM paths WHERE id = ?1")?;
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            let path = path_of.query_row([id], |r| self.row_path(r, 0, 1));
            out.push(self.decoded(path)?);
        }
        out.sort();
        Ok(out)
    }

    /// The paths of the files that may reference `name`: every file of `snapshot` whose facts
    /// list it among their `references`, and perhaps others (the index folds case), read from
    /// the reference index instead of from every file's facts. `None` when the index cannot
    /// answer: `snapshot` is not the current snapshot (the index describes only that one), the
    /// index awaits its rebuild, or the name is no single token ([`is_reference_token`]).
    pub fn referencing_paths(
        &self,
        snapshot: &SnapshotRow,
        name: &str,
    ) -> Result<Option<HashSet<Vec<u8>>>> {
        if !is_reference_token(name) {
            return Ok(None);
        }
        // One read transaction: the index and the current snapshot seen together.
        let _read = match self.conn.is_autocommit() {
            true => Some(self.conn.unchecked_transaction()?),
            false => None,
        };
        if !self.is_current(snapshot)? || self.search_needs_rebuild()? {
            return Ok(None);
        }
        let ids: Vec<i64> = self
            .conn
            .prepare_cached("SELECT rowid FROM reference_fts WHERE reference_fts MATCH ?1")?
            .query_map([format!("\"{name}\"")], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?;
        let mut path_of = self
            .conn
            .prepare_cached("SELECT dir, name FROM paths WHERE id = ?1")?;
        let mut out = HashSet::with_capacity(ids.len());
        for id in ids {
            let path = path_of.query_row([id], |r| self.row_path(r, 0, 1));
            out.insert(self.decoded(path)?);
        }
        Ok(Some(out))
    }

    /// Returns the digests whose facts are stored with analyzer version `analyzer`.
    pub fn known_digests(&self, analyzer: &str) -> Result<HashSet<String>> {
        let mut stmt = self
            .conn
            .prepare("SELECT digest FROM content_facts WHERE analyzer = ?1")?;
        let rows = stmt.query_map([analyzer], |r| r.get::<_, Vec<u8>>(0))?;
        rows.map(|d| Ok(compact::id_hex(&d?))).collect()
    }

    /// Returns stored analysis facts for the given digests.
    pub fn facts(&self, digests: &[&str]) -> Result<HashMap<String, Analysis>> {
        self.facts_mentioning(digests, None)
    }

    /// Like [`Store::facts`], but only for the facts whose stored text mentions `needle` (as a
    /// JSON string, quotes included) when one is given: the others are never parsed, which is
    /// most of the cost of reading every file's facts to find the few that use one name. Read
    /// as `T`: [`Analysis`], or a part of it whose other fields are skipped unparsed
    /// ([`crate::analyze::ReferenceFacts`]).
    pub fn facts_mentioning<T: serde::de::DeserializeOwned + Send>(
        &self,
        digests: &[&str],
        needle: Option<&str>,
    ) -> Result<HashMap<String, T>> {
        let needle = needle.map(|n| serde_json::to_string(n).expect("strings serialize"));
        let mut out = HashMap::new();
        // One read transaction for all lookups: each would otherwise take and release the
        // WAL's read lock (a few system calls), 27,000 times for the whole of a monorepo.
        // Dropped, it ends without writing anything.
        let _read = match self.conn.is_autocommit() {
            true => Some(self.conn.unchecked_transaction()?),
            false => None,
        };
        // The stored facts: for many digests and a needle, in one pass over every stored fact;
        // else looked up one by one.
        let stored: Vec<(String, Vec<u8>)> = match needle.as_deref() {
            Some(_) if digests.len() > SCAN_MIN_DIGESTS => self.stored_facts_of(digests)?,
            _ => {
                let mut stored = Vec::with_capacity(digests.len());
                let mut seen: HashSet<&str> = HashSet::with_capacity(digests.len());
                for d in digests {
                    if seen.insert(*d) {
                        if let Some(blob) = stored_facts(&self.conn, d)? {
                            stored.push(((*d).to_owned(), blob));
                        }
                    }
                }
                stored
            }
        };
        // Inflated, searched for the needle and parsed on every core (a C file's facts inflate
        // to hundreds of kilobytes; a ranking of git/git reads 1,600, and a name that 300 files
        // reference has as many to parse). `None`: no mention; facts that do not inflate are an
        // error, whatever the needle.
        use rayon::prelude::*;
        let decoded: Vec<(&str, rusqlite::Result<T>)> = stored
            .par_iter()
            .filter_map(|(d, blob)| {
                let analysis = match compact::decode_facts(blob) {
                    None => Err(bad(0, "undecodable content facts")),
                    Some(json) if needle.as_ref().is_some_and(|n| !json.contains(n.as_str())) => {
                        return None
                    }
                    Some(json) => decode(0, &json),
                };
                Some((d.as_str(), analysis))
            })
            .collect();
        for (d, a) in decoded {
            out.insert(d.to_owned(), self.decoded(a)?);
        }
        Ok(out)
    }

    /// The stored facts of `digests` (hex), read in one pass over every stored fact: for many
    /// digests, cheaper than a lookup each. Runs inside the caller's read transaction.
    fn stored_facts_of(&self, digests: &[&str]) -> Result<Vec<(String, Vec<u8>)>> {
        let wanted: HashSet<Vec<u8>> = digests.iter().map(|d| compact::id_bytes(d)).collect();
        let mut stored = Vec::with_capacity(wanted.len());
        let mut stmt = self
            .conn
            .prepare_cached("SELECT digest, facts FROM content_facts")?;
        let mut rows = stmt.query([])?;
        fn bytes(v: rusqlite::types::ValueRef<'_>) -> rusqlite::Result<&[u8]> {
            v.as_bytes().map_err(rusqlite::Error::from)
        }
        while let Some(row) = rows.next()? {
            let digest = bytes(row.get_ref(0)?)?;
            if wanted.contains(digest) {
                stored.push((compact::id_hex(digest), bytes(row.get_ref(1)?)?.to_vec()));
            }
        }
        Ok(stored)
    }

    /// Publishes in one immediate transaction, after checking that the current snapshot is
    /// still `expected`. Nothing is written when the check fails.
    pub fn publish(&mut self, repo_id: &str, root: &[u8], p: Publish<'_>) -> Result<Published> {
        let Store { conn, dirs, .. } = self;
        let dirs = dirs.get_mut();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let now = crate::time::now_rfc3339();
        let current = check_current(&tx, p.expected)?;
        dirs.sync(&tx)?;
        // Into a cache without paths (a first baseline) every path is new: the ids this
        // transaction gives them are all there is to look up (not 27,000 index lookups that
        // find nothing, on babel/babel).
        let mut new_paths = paths_empty(&tx)?.then(NewPaths::default);
        let epoch = active_epoch(&tx, repo_id, root, p.new_epoch.as_ref(), &now)?;
        write_facts(&tx, p.facts, p.analyzer)?;
        // The search entries first: a baseline then stores each path with its entries' range
        // in one insert (see `dirs::set_search_range`), before its file versions.
        if let Some(search) = &p.search {
            apply_search(&tx, dirs, search, new_paths.as_mut())?;
        }
        let mut snapshot = current;
        let mut delta_seq = None;
        if let Some(s) = &p.snapshot {
            let baseline = p.new_epoch.is_some();
            let (seq, delta) = insert_snapshot(
                &tx,
                dirs,
                s,
                epoch,
                (current, baseline),
                &now,
                new_paths.as_mut(),
            )?;
            snapshot = Some(seq);
            delta_seq = delta;
        }
        update_stats(&tx, dirs, epoch, p.stat_updates)?;
        if let (Some(seq), Some(sig)) = (snapshot, &p.index_stat) {
            tx.execute(
                "UPDATE snapshots SET index_stat = ?1 WHERE seq = ?2",
                params![sig, seq],
            )?;
        }
        if let Some(version) = p.facts_checked {
            tx.execute(
                "INSERT INTO settings (name, value) VALUES ('facts_checked', ?1)
                 ON CONFLICT(name) DO UPDATE SET value = excluded.value",
                [version],
            )?;
        }
        insert_operation(
            &tx,
            &p.operation,
            &now,
            Some(epoch),
            snapshot,
            p.snapshot.is_some(),
        )?;
        tx.commit()?;
        if p.new_epoch.is_some() {
            // A baseline writes every page once into the WAL; fold it into the database now so
            // the cache does not carry a second copy until the next automatic checkpoint.
            // Best effort: a concurrent reader may keep the WAL, which is only a size issue.
            let _ = self
                .conn
                .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()));
            self.compact_after_baseline();
        }
        let snapshot =
            snapshot.ok_or_else(|| Error::InvalidArgument("nothing published".into()))?;
        Ok(Published {
            epoch,
            snapshot,
            delta: delta_seq,
        })
    }

    /// Gives back the pages a baseline left free (search-index segments merged away, facts
    /// replaced): `VACUUM` when more than 1% of the file is free. Best effort: a busy database
    /// only keeps its free pages, which later writes reuse. Not to pack the half-full pages
    /// of content facts (keyed by a digest prefix, they arrive in random order and leave
    /// pages about two thirds full): packed, the first edits split them again, and the 1,000
    /// refreshes of `bench/run.sh` grew babel/babel's cache by 0.8 MB back to that size. The
    /// size after a baseline is the size a cache keeps. (Merging the search index into one
    /// segment as well was measured: 40 KB on babel/babel for 0.1–0.3 s, not worth it.)
    fn compact_after_baseline(&self) {
        let number = |sql: &str| -> i64 { self.conn.query_row(sql, [], |r| r.get(0)).unwrap_or(0) };
        let free = number("PRAGMA freelist_count");
        let total = number("PRAGMA page_count");
        if free * 100 <= total {
            return;
        }
        // VACUUM copies into a temporary database with a page cache as large as this one's:
        // 32 MiB more at the end of a baseline, whose peak memory is bounded. A small cache
        // costs the sequential copy nothing.
        let _ = self.conn.pragma_update(None, "cache_size", -2_000);
        let _ = self.conn.execute_batch("VACUUM");
        let _ = self.conn.pragma_update(None, "cache_size", -PAGE_CACHE_KIB);
        let _ = self
            .conn
            .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()));
    }

    /// Stores analysis facts derived by analyzer version `analyzer` in their own transaction;
    /// returns how many were written.
    pub fn put_facts(&self, facts: &[(String, Analysis)], analyzer: &str) -> Result<u64> {
        if facts.is_empty() {
            return Ok(0);
        }
        let tx = self.conn.unchecked_transaction()?;
        write_facts(&tx, facts, analyzer)?;
        tx.commit()?;
        Ok(facts.len() as u64)
    }

    /// Returns cached derived data of a view for a snapshot.
    pub fn view_cache(&self, snapshot: i64, view: &str) -> Result<Option<String>> {
        Ok(self
            .conn
            .query_row(
                "SELECT json FROM view_cache WHERE snapshot = ?1 AND view = ?2",
                params![snapshot, view],
                |r| r.get(0),
            )
            .optional()?)
    }

    /// Stores derived data of a view for a snapshot (first writer wins). Best effort: with
    /// another process holding the write lock nothing is stored and `Ok(false)` returned.
    pub fn put_view_cache(&self, snapshot: i64, view: &str, json: &str) -> Result<bool> {
        self.best_effort(|conn| {
            conn.execute(
                "INSERT INTO view_cache (snapshot, view, json) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING",
                params![snapshot, view, json],
            )
        })
    }

    /// Like [`Store::put_view_cache`], and drops what earlier snapshots cached under the same
    /// key once this one has a value (stored now or by another process). Best effort alike:
    /// each statement on its own, since a reader may hold a transaction open.
    pub fn put_view_cache_superseding(
        &self,
        snapshot: i64,
        view: &str,
        json: &str,
    ) -> Result<bool> {
        self.best_effort(|conn| {
            let stored = conn.execute(
                "INSERT INTO view_cache (snapshot, view, json) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING",
                params![snapshot, view, json],
            )?;
            conn.execute(
                "DELETE FROM view_cache WHERE view = ?1 AND snapshot < ?2
                   AND EXISTS (SELECT 1 FROM view_cache WHERE view = ?1 AND snapshot = ?2)",
                params![view, snapshot],
            )?;
            Ok(stored)
        })
    }

    /// Records that snapshot `seq`, taken of an index whose listing digest is `digest`, also
    /// describes the index file with stat signature `sig` (Git rewrote the file without
    /// changing its entries: a plain `git status` refreshing stat data does). Best effort,
    /// like every write of a read path. The signature changes only where the digest still
    /// matches, so a newer listing is never paired with an older snapshot.
    pub fn settle_index_stat(&self, seq: i64, sig: &str, digest: &str) -> Result<bool> {
        self.best_effort(|conn| {
            conn.execute(
                "UPDATE snapshots SET index_stat = ?1 WHERE seq = ?2 AND index_digest = ?3",
                params![sig, seq, digest],
            )
        })
    }

    /// Folds a WAL larger than [`WAL_SETTLE_BYTES`] into the database and truncates it, when
    /// no other process is reading: best effort, without waiting.
    ///
    /// A process that opens the cache while no other has it open rebuilds the WAL index by
    /// reading every frame of the WAL, and forgets which frames earlier checkpoints already
    /// copied: a WAL is only restarted by a later write of the process that checkpointed it,
    /// and a command writes once. The WAL of short commands therefore never shrank: every
    /// cue's metrics row made it longer, every later command read all of it on open, and
    /// every commit past `WAL_CHECKPOINT_PAGES` copied all of it again (flask's cache: 594
    /// frames, 2.4 MB, after a few hundred cues). Truncated here, it stays under this size.
    fn settle_wal(&self) {
        let mut wal = self.path.clone().into_os_string();
        wal.push("-wal");
        let large = std::fs::metadata(&wal).is_ok_and(|m| m.len() > WAL_SETTLE_BYTES);
        if !self.configured || !self.side_writes || !large || !self.conn.is_autocommit() {
            return;
        }
        if self.conn.busy_timeout(std::time::Duration::ZERO).is_ok() {
            let _ = self
                .conn
                .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()));
        }
    }

    /// Runs a write a read path makes on the side (a cue measurement, a cached view value)
    /// without waiting: while another process holds the write lock (a long baseline, a hook's
    /// background refresh) the write is skipped and `Ok(false)` returned, so reads never
    /// stall behind writers; so is it when the database is read-only to this process (a cache
    /// another user owns, a read-only mount): a read answers from what is there.
    fn best_effort(
        &self,
        write: impl FnOnce(&Connection) -> rusqlite::Result<usize>,
    ) -> Result<bool> {
        if !self.side_writes {
            return Ok(false);
        }
        self.conn.busy_timeout(std::time::Duration::ZERO)?;
        let done = write(&self.conn);
        self.conn
            .busy_timeout(std::time::Duration::from_millis(BUSY_TIMEOUT_MS))?;
        match done.map_err(Error::Sqlite) {
            Ok(_) => Ok(true),
            Err(e) if e.is_retryable() => Ok(false),
            Err(Error::Sqlite(e))
                if e.sqlite_error_code() == Some(rusqlite::ErrorCode::ReadOnly) =>
            {
                Ok(false)
            }
            Err(e) => Err(e),
        }
    }

    /// Runs a full-text query (an FTS5 match expression); returns up to `limit` matches, best
    /// bm25 score first.
    ///
    /// Entries named `name` come first, in its case before in any other (see
    /// [`crate::search::short_name`]: the name, or its last `.` segments, without an overload's
    /// `#n`), then the best by bm25: a name that a thousand entries mention (Laravel's
    /// `$model` properties and `model()` methods) does not crowd out the one class `Model`,
    /// whose long signature scores low.
    pub fn search(&self, expr: &str, name: &str, limit: usize) -> Result<Vec<MatchRow>> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT e.kind, p.dir, e.name, e.line, bm25(search_fts, 8.0, 1.0) AS score, f.digest,
                    p.name,
                    CASE WHEN instr(e.name, '#') > 0 THEN substr(e.name, 1, instr(e.name, '#') - 1)
                         ELSE e.name END AS base
             FROM search_fts JOIN search_entries e ON e.rowid = search_fts.rowid
               JOIN paths p ON p.id = e.path
               LEFT JOIN file_versions f ON f.path = e.path AND f.end_seq IS NULL
                 AND f.epoch = (SELECT seq FROM epochs WHERE status = 'active')
             WHERE search_fts MATCH ?1
             ORDER BY ?3 != '' AND (base = ?3 OR substr(base, -length(?3) - 1) = '.' || ?3) DESC,
                      ?3 != '' AND (base = ?3 COLLATE NOCASE
                        OR substr(base, -length(?3) - 1) = '.' || ?3 COLLATE NOCASE) DESC,
                      score, e.rowid
             LIMIT ?2",
        )?;
        let rows = stmt.query_map(params![expr, limit as i64, name], |r| {
            Ok(MatchRow {
                kind: compact::from_code(&compact::SEARCH_KINDS, r.get(0)?)
                    .unwrap_or("unknown")
                    .to_owned(),
                path: self.row_path(r, 1, 6)?,
                name: r.get(2)?,
                line: r.get(3)?,
                score: r.get(4)?,
                digest: r.get::<_, Option<Vec<u8>>>(5)?.map(|d| compact::id_hex(&d)),
            })
        })?;
        self.decoded(rows.collect::<rusqlite::Result<_>>())
    }

    /// Runs a path query: every stored path that `score` matches (see
    /// [`crate::search::Terms::path_score`]; lower is better) and that a listed file of the
    /// current snapshot has, best first, at most `limit`. Paths are not in the full-text
    /// index: one read of the path table (a fraction of a `git status` on 27,000 files) costs
    /// less than a full-text entry per file.
    /// Most paths are refused before `score` runs: those that hold none (`all`: not every one)
    /// of `words` in any ASCII case. Non-ASCII words are left to `score`.
    pub fn search_paths(
        &self,
        words: &[&str],
        all: bool,
        score: impl Fn(&[u8]) -> Option<f64>,
        limit: usize,
    ) -> Result<Vec<MatchRow>> {
        // Any of the words: a path may hold just a non-ASCII one, which `LIKE` cannot test.
        let testable = all || words.iter().all(|w| w.is_ascii());
        let tests: Vec<&[u8]> = words
            .iter()
            .filter(|w| testable && w.is_ascii())
            .map(|w| w.as_bytes())
            .collect();
        let holds = |path: &[u8], word: &[u8]| {
            word.is_empty()
                || path
                    .windows(word.len())
                    .any(|w| w.eq_ignore_ascii_case(word))
        };
        let mut found: Vec<(f64, i64, Vec<u8>)> = Vec::new();
        let mut stmt = self
            .conn
            .prepare_cached("SELECT id, dir, name FROM paths")?;
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            let path = self.decoded(self.row_path(r, 1, 2))?;
            let passes = tests.is_empty()
                || match all {
                    true => tests.iter().all(|w| holds(&path, w)),
                    false => tests.iter().any(|w| holds(&path, w)),
                };
            if !passes {
                continue;
            }
            if let Some(s) = score(&path) {
                found.push((s, r.get(0)?, path));
            }
        }
        found.sort_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.2.cmp(&b.2)));
        let mut live = self.conn.prepare_cached(
            "SELECT f.digest, f.class FROM file_versions f
             WHERE f.epoch = (SELECT seq FROM epochs WHERE status = 'active')
               AND f.end_seq IS NULL AND f.path = ?1",
        )?;
        let mut out = Vec::new();
        for (score, id, path) in found {
            if out.len() >= limit {
                break;
            }
            let Some((digest, class)) = live
                .query_row([id], |r| {
                    Ok((r.get::<_, Option<Vec<u8>>>(0)?, r.get::<_, i64>(1)?))
                })
                .optional()?
            else {
                continue;
            };
            if !compact::from_code(&compact::FILE_CLASSES, class).is_some_and(|c| c.listed()) {
                continue;
            }
            out.push(MatchRow {
                kind: "path".to_owned(),
                path,
                name: String::new(),
                line: None,
                score,
                digest: digest.map(|d| compact::id_hex(&d)),
            });
        }
        Ok(out)
    }

    /// Tells whether the search index must be rebuilt whole (a migration emptied it): the
    /// next publish does it, and until then the snapshot needs a refresh.
    pub fn search_needs_rebuild(&self) -> Result<bool> {
        Ok(self.conn.query_row(
            "SELECT EXISTS (SELECT 1 FROM settings WHERE name = 'search_rebuild')",
            [],
            |r| r.get(0),
        )?)
    }

    /// Records a cue measurement. Best effort (see [`Store::best_effort`]): a cue is never
    /// held back to be counted; `Ok(false)` says the measurement was dropped.
    pub fn record_cue(&self, row: &CueRow) -> Result<bool> {
        self.best_effort(|conn| {
            conn.execute(
                "INSERT INTO cue_metrics (view, recorded_at, max_tokens, output_bytes, estimated_tokens, duration_us, snapshot)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![row.view, row.recorded_at, row.max_tokens, row.output_bytes, row.estimated_tokens, row.duration_us, row.snapshot],
            )
        })
    }

    /// Returns recorded operations, oldest first.
    pub fn operations(&self) -> Result<Vec<OperationRow>> {
        let mut stmt = self.conn.prepare(
            "SELECT kind, recorded_at, duration_us, scan_duration_us, git_processes, files_scanned,
                    bytes_scanned, files_analyzed, changed_files, epoch, snapshot, published
             FROM operations ORDER BY id",
        )?;
        let rows = stmt.query_map([], |r| {
            let kind: String = r.get(0)?;
            Ok(OperationRow {
                record: OperationRecord {
                    kind: kind.parse().map_err(|e: String| bad(0, &e))?,
                    duration_us: r.get(2)?,
                    scan_duration_us: r.get(3)?,
                    git_processes: r.get(4)?,
                    files_scanned: r.get(5)?,
                    bytes_scanned: r.get(6)?,
                    files_analyzed: r.get(7)?,
                    changed_files: r.get(8)?,
                },
                recorded_at: r.get(1)?,
                epoch: r.get(9)?,
                snapshot: r.get(10)?,
                published: r.get(11)?,
            })
        })?;
        self.decoded(rows.collect::<rusqlite::Result<_>>())
    }

    /// Returns recorded cue measurements, oldest first.
    pub fn cue_metrics(&self) -> Result<Vec<CueRow>> {
        let mut stmt = self.conn.prepare(
            "SELECT view, recorded_at, max_tokens, output_bytes, estimated_tokens, duration_us, snapshot
             FROM cue_metrics ORDER BY id",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok(CueRow {
                view: r.get(0)?,
                recorded_at: r.get(1)?,
                max_tokens: r.get(2)?,
                output_bytes: r.get(3)?,
                estimated_tokens: r.get(4)?,
                duration_us: r.get(5)?,
                snapshot: r.get(6)?,
            })
        })?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    }
}

/// Formats a snapshot sequence as its public id.
fn snap_id(seq: i64) -> String {
    SnapshotId(seq).to_string()
}

/// Decodes stored content facts (see [`compact::decode_facts`]).
fn decode_stored_facts(stored: &[u8]) -> rusqlite::Result<Analysis> {
    let json = compact::decode_facts(stored).ok_or_else(|| bad(0, "undecodable content facts"))?;
    decode(0, &json)
}

/// The stored (encoded) facts of a hex digest, if any.
fn stored_facts(conn: &Connection, digest: &str) -> rusqlite::Result<Option<Vec<u8>>> {
    let (key, bytes) = compact::fact_key(digest);
    conn.prepare_cached("SELECT facts FROM content_facts WHERE key = ?1 AND digest = ?2")?
        .query_row(params![key, bytes], |r| {
            Ok(r.get_ref(0)?.as_bytes()?.to_vec())
        })
        .optional()
}

/// Decodes a JSON column; a value that does not decode is a conversion failure.
fn decode<T: serde::de::DeserializeOwned>(col: usize, json: &str) -> rusqlite::Result<T> {
    serde_json::from_str(json).map_err(|e| bad(col, &format!("undecodable JSON: {e}")))
}

/// A column value this version cannot read.
fn bad(col: usize, what: &str) -> rusqlite::Error {
    rusqlite::Error::FromSqlConversionFailure(
        col,
        rusqlite::types::Type::Text,
        what.to_owned().into(),
    )
}

/// Returns the current snapshot, failing with `concurrent_update` unless it is `expected`.
fn check_current(tx: &Transaction<'_>, expected: Option<i64>) -> Result<Option<i64>> {
    let current: Option<i64> = tx
        .query_row("SELECT current_snapshot FROM repository", [], |r| r.get(0))
        .optional()?
        .flatten();
    if current != expected {
        return Err(Error::Conflict {
            detail: format!(
                "expected {:?}, found {:?}",
                expected.map(snap_id),
                current.map(snap_id),
            ),
        });
    }
    Ok(current)
}

/// Records the repository (first publish) and returns the active epoch, starting a new one
/// (and superseding the old) when asked.
fn active_epoch(
    tx: &Transaction<'_>,
    repo_id: &str,
    root: &[u8],
    new_epoch: Option<&(Option<String>, Option<String>)>,
    now: &str,
) -> Result<i64> {
    tx.execute(
        "INSERT INTO repository (singleton, repo_id, root, created_at) VALUES (1, ?1, ?2, ?3)
         ON CONFLICT(singleton) DO NOTHING",
        params![repo_id, root, now],
    )?;
    let mut epoch: Option<i64> = tx
        .query_row("SELECT seq FROM epochs WHERE status = 'active'", [], |r| {
            r.get(0)
        })
        .optional()?;
    if let Some((label, reason)) = new_epoch {
        tx.execute(
            "UPDATE epochs SET status = 'superseded' WHERE status = 'active'",
            [],
        )?;
        let seq = next_seq(tx, "epoch")?;
        tx.execute(
            "INSERT INTO epochs (seq, status, label, reason, created_at) VALUES (?1, 'active', ?2, ?3, ?4)",
            params![seq, label, reason, now],
        )?;
        epoch = Some(seq);
    }
    epoch.ok_or_else(|| Error::InvalidArgument("no active epoch".into()))
}

/// Stores analysis facts derived by analyzer version `analyzer`.
fn write_facts(tx: &Transaction<'_>, facts: &[(String, Analysis)], analyzer: &str) -> Result<()> {
    // A key taken by another digest keeps its facts (see `compact::digest_key`).
    let mut stmt = tx.prepare_cached(
        "INSERT INTO content_facts (key, digest, analyzer, facts) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT(key) DO UPDATE SET analyzer = excluded.analyzer, facts = excluded.facts
           WHERE digest = excluded.digest",
    )?;
    for (digest, facts) in facts {
        let (Some(key), bytes) = compact::fact_key(digest) else {
            continue;
        };
        let json = serde_json::to_string(facts).expect("analysis serializes");
        stmt.execute(params![key, bytes, analyzer, compact::encode_facts(&json)])?;
    }
    Ok(())
}

/// Inserts a snapshot, its changed file versions and (for a refresh) its delta id, and makes
/// it current. Returns the snapshot and delta sequences.
fn insert_snapshot(
    tx: &Transaction<'_>,
    dirs: &mut dirs::Dirs,
    s: &NewSnapshot<'_>,
    epoch: i64,
    (parent, baseline): (Option<i64>, bool),
    now: &str,
    new_paths: Option<&mut NewPaths>,
) -> Result<(i64, Option<i64>)> {
    let seq = next_seq(tx, "snapshot")?;
    let kind = if baseline { "baseline" } else { "refresh" };
    tx.execute(
        "INSERT INTO snapshots (seq, epoch, parent, kind, branch, head, dirty, status_digest,
            index_digest, repository_digest, untracked, recent_commits, caveats, observed_at, created_at,
            file_count, rules_digest, secret_content, faults, removed)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19,
            ?20)",
        params![
            seq,
            epoch,
            parent,
            kind,
            s.branch,
            s.head,
            s.dirty,
            s.status_digest,
            s.index_digest,
            s.repository_digest,
            paths_json(s.untracked),
            serde_json::to_string(s.recent_commits).expect("commits serialize"),
            serde_json::to_string(s.caveats).expect("caveats serialize"),
            s.observed_at,
            now,
            s.file_count as i64,
            s.rules_digest,
            s.secret_content,
            faults_json(s.faults),
            paths_json(&s.removed),
        ],
    )?;
    if baseline {
        tx.execute(
            "UPDATE epochs SET baseline_snapshot = ?1 WHERE seq = ?2",
            [seq, epoch],
        )?;
    } else {
        let mut close = tx.prepare_cached(
            "UPDATE file_versions SET end_seq = ?1 WHERE epoch = ?2 AND end_seq IS NULL AND path = ?3",
        )?;
        for path in s.changed_paths {
            if let Some(id) = dirs::path_id(tx, dirs, path)? {
                close.execute(params![seq, epoch, id])?;
            }
        }
    }
    let changed = s
        .files
        .iter()
        .filter(|f| baseline || s.changed_paths.contains(&f.path));
    insert_file_versions(tx, dirs, epoch, seq, changed, new_paths)?;
    let mut delta = None;
    if !baseline {
        let d = next_seq(tx, "delta")?;
        tx.execute(
            "INSERT INTO deltas (seq, snapshot, parent, created_at) VALUES (?1, ?2, ?3, ?4)",
            params![d, seq, parent, now],
        )?;
        delta = Some(d);
    }
    tx.execute("UPDATE repository SET current_snapshot = ?1", [seq])?;
    Ok((seq, delta))
}

/// Inserts file rows valid from snapshot `seq` on.
fn insert_file_versions<'f>(
    tx: &Transaction<'_>,
    dirs: &mut dirs::Dirs,
    epoch: i64,
    seq: i64,
    files: impl Iterator<Item = &'f FileState>,
    mut new_paths: Option<&mut NewPaths>,
) -> Result<()> {
    let mut insert = tx.prepare_cached(&format!(
        "INSERT INTO file_versions (epoch, start_seq, {FILE_COLUMNS_STORED})
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19)"
    ))?;
    for f in files {
        let st = f.stat;
        let size = f.size.map(|v| v as i64);
        // NULL where a value equals its twin (migration 13): 0 marks a missing file.
        let worktree_mode = match f.worktree_mode {
            None => Some(0),
            Some(m) if m == f.index_mode => None,
            Some(m) => Some(m),
        };
        let (st_size, st_ctime) = stat_twins(size, st);
        let path = match new_paths.as_deref_mut() {
            Some(new) => match new.get(f.path.as_slice()) {
                Some(id) => *id,
                None => dirs::insert_new_path(tx, dirs, &f.path)?,
            },
            None => dirs::intern_path(tx, dirs, &f.path)?,
        };
        insert.execute(params![
            epoch,
            seq,
            path,
            f.index_mode,
            compact::id_bytes(&f.index_oid),
            worktree_mode,
            size,
            f.digest.as_deref().map(compact::id_bytes),
            compact::code(&compact::FILE_TYPES, f.file_type),
            f.language.as_deref().map(compact::language_code),
            f.is_document,
            compact::code(&compact::WORKING_STATES, f.working_state),
            f.assume_unchanged,
            f.skip_worktree,
            st_size,
            st.map(|s| s.mtime_ns),
            st_ctime,
            st.map(|s| s.ino as i64),
            compact::code(&compact::FILE_CLASSES, f.class),
        ])?;
    }
    Ok(())
}

/// Remembers new stat data of current rows whose indexed state did not change.
fn update_stats(
    tx: &Transaction<'_>,
    dirs: &mut dirs::Dirs,
    epoch: i64,
    updates: &[(Vec<u8>, StatKey)],
) -> Result<()> {
    if updates.is_empty() {
        return Ok(());
    }
    // The stored stat twins (see `stat_twins`), computed against the row's own size.
    let mut stmt = tx.prepare_cached(
        "UPDATE file_versions
         SET st_size = CASE WHEN size IS ?1 THEN NULL ELSE ?1 END, st_mtime_ns = ?2,
             st_ctime_ns = CASE WHEN ?3 = ?2 THEN NULL ELSE ?3 END, st_ino = ?4
         WHERE epoch = ?5 AND end_seq IS NULL AND path = ?6",
    )?;
    for (path, st) in updates {
        let Some(id) = dirs::path_id(tx, dirs, path)? else {
            continue;
        };
        stmt.execute(params![
            st.size as i64,
            st.mtime_ns,
            st.ctime_ns,
            st.ino as i64,
            epoch,
            id
        ])?;
    }
    Ok(())
}

fn insert_operation(
    tx: &Transaction<'_>,
    op: &OperationRecord,
    now: &str,
    epoch: Option<i64>,
    snapshot: Option<i64>,
    published: bool,
) -> Result<()> {
    tx.execute(
        "INSERT INTO operations (kind, recorded_at, duration_us, scan_duration_us, git_processes,
            files_scanned, bytes_scanned, files_analyzed, changed_files, epoch, snapshot, published)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
        params![
            op.kind.as_str(),
            now,
            op.duration_us,
            op.scan_duration_us,
            op.git_processes,
            op.files_scanned,
            op.bytes_scanned,
            op.files_analyzed,
            op.changed_files,
            epoch,
            snapshot,
            published
        ],
    )?;
    Ok(())
}

fn next_seq(tx: &Transaction<'_>, name: &str) -> Result<i64> {
    tx.execute(
        "INSERT INTO sequences (name, value) VALUES (?1, 1) ON CONFLICT(name) DO UPDATE SET value = value + 1",
        [name],
    )?;
    Ok(
        tx.query_row("SELECT value FROM sequences WHERE name = ?1", [name], |r| {
            r.get(0)
        })?,
    )
}

/// The columns a file version is inserted with.
const FILE_COLUMNS_STORED: &str = "path, index_mode, index_oid, worktree_mode, size, digest, file_type, language,
    is_document, working_state, assume_unchanged, skip_worktree, st_size, st_mtime_ns, st_ctime_ns, st_ino,
    class";
/// The columns [`file_from_row`] reads, from [`FILE_ROWS`].
const FILE_COLUMNS: &str =
    "p.dir, f.index_mode, f.index_oid, f.worktree_mode, f.size, f.digest, f.file_type,
    f.language, f.is_document, f.working_state, f.assume_unchanged, f.skip_worktree, f.st_size,
    f.st_mtime_ns, f.st_ctime_ns, f.st_ino, f.class, p.name";
/// The column of [`FILE_COLUMNS`] that holds the path's name (its directory is column 0).
const FILE_NAME_COLUMN: usize = 17;
/// File versions with their paths.
const FILE_ROWS: &str = "file_versions f JOIN paths p ON p.id = f.path";

/// The row of path `?3` live at snapshot `?2` of epoch `?1`, in two halves the index on
/// `(epoch, end_seq, path)` answers: the row still current (one lookup), and a row that ended
/// after the snapshot (none for the current snapshot). Written as one condition with
/// `end_seq IS NULL OR end_seq > ?2`, SQLite used the index for the epoch alone and read every
/// row of it for each path.
const LIVE_ROW_OF_PATH_CURRENT: &str =
    "f.epoch = ?1 AND f.end_seq IS NULL AND f.path = ?3 AND f.start_seq <= ?2";
/// See [`LIVE_ROW_OF_PATH_CURRENT`].
const LIVE_ROW_OF_PATH_ENDED: &str =
    "f.epoch = ?1 AND f.end_seq > ?2 AND f.path = ?3 AND f.start_seq <= ?2";

/// [`crate::analyze::structure::bare_name`] on the bytes of a qualified name.
fn bare_name_bytes(qualified: &[u8]) -> &[u8] {
    let q = qualified.split(|&b| b == b'#').next().unwrap_or(qualified);
    q.rsplit(|&b| b == b'.').next().unwrap_or(q)
}

/// Most paths [`Store::files_by_paths`] looks up one by one; more are filtered from one read
/// of every row of the snapshot.
const LOOKUPS_MAX: usize = 1024;

/// The stored stat size and change time: NULL where they equal their twins, the file's size
/// and the modification time.
fn stat_twins(size: Option<i64>, st: Option<StatKey>) -> (Option<i64>, Option<i64>) {
    match st {
        None => (None, None),
        Some(st) => (
            Some(st.size as i64).filter(|s| Some(*s) != size),
            Some(st.ctime_ns).filter(|c| *c != st.mtime_ns),
        ),
    }
}

fn file_from_row(r: &rusqlite::Row<'_>, path: Vec<u8>) -> rusqlite::Result<FileState> {
    // A coded column holding anything but an integer is corrupt, like an unknown code.
    let coded = |col: usize| match r.get_ref(col)? {
        rusqlite::types::ValueRef::Integer(code) => Ok(code),
        _ => Err(bad(col, "not a stored code")),
    };
    // Ids and digests are read in place, hex-formatted straight from the row's bytes.
    let blob = |col: usize| match r.get_ref(col)? {
        rusqlite::types::ValueRef::Blob(b) => Ok(Some(compact::id_hex(b))),
        rusqlite::types::ValueRef::Null => Ok(None),
        _ => Err(bad(col, "not bytes")),
    };
    let index_mode: u32 = r.get(1)?;
    let size: Option<i64> = r.get(4)?;
    let mtime: Option<i64> = r.get(13)?;
    Ok(FileState {
        path,
        index_mode,
        index_oid: blob(2)?.ok_or_else(|| bad(2, "no object id"))?,
        worktree_mode: match r.get::<_, Option<u32>>(3)? {
            None => Some(index_mode),
            Some(0) => None,
            Some(m) => Some(m),
        },
        size: size.map(|v| v as u64),
        digest: blob(5)?,
        file_type: compact::from_code(&compact::FILE_TYPES, coded(6)?)
            .ok_or_else(|| bad(6, "unknown file type"))?,
        language: match r.get_ref(7)? {
            rusqlite::types::ValueRef::Null => None,
            v => Some(compact::language_name(v.as_str()?)),
        },
        is_document: r.get(8)?,
        working_state: compact::from_code(&compact::WORKING_STATES, coded(9)?)
            .ok_or_else(|| bad(9, "unknown working state"))?,
        assume_unchanged: r.get(10)?,
        skip_worktree: r.get(11)?,
        class: compact::from_code(&compact::FILE_CLASSES, coded(16)?)
            .ok_or_else(|| bad(16, "unknown file class"))?,
        stat: match mtime {
            Some(mtime_ns) => {
                let st_size = r.get::<_, Option<i64>>(12)?.or(size);
                Some(StatKey {
                    size: st_size.ok_or_else(|| bad(12, "stat data without a size"))? as u64,
                    mtime_ns,
                    ctime_ns: r.get::<_, Option<i64>>(14)?.unwrap_or(mtime_ns),
                    ino: r.get::<_, i64>(15)? as u64,
                })
            }
            None => None,
        },
    })
}

/// Paths are bytes; JSON arrays of numbers would be wasteful, so untracked paths are stored
/// as hex strings.
fn paths_json(paths: &[Vec<u8>]) -> String {
    let hex: Vec<String> = paths.iter().map(|p| hex(p)).collect();
    serde_json::to_string(&hex).expect("strings serialize")
}

fn json_paths(json: &str) -> Option<Vec<Vec<u8>>> {
    let hex: Vec<String> = serde_json::from_str(json).ok()?;
    hex.iter().map(|h| unhex(h)).collect()
}

/// Faults are stored as `[hex path, kind]` pairs, like untracked paths.
fn faults_json(faults: &[Fault]) -> String {
    let pairs: Vec<(String, &str)> = faults
        .iter()
        .map(|f| (hex(&f.path), f.kind.as_str()))
        .collect();
    serde_json::to_string(&pairs).expect("strings serialize")
}

fn json_faults(json: &str) -> Option<Vec<Fault>> {
    let pairs: Vec<(String, String)> = serde_json::from_str(json).ok()?;
    pairs
        .iter()
        .map(|(path, kind)| {
            Some(Fault {
                path: unhex(path)?,
                kind: kind.parse().ok()?,
            })
        })
        .collect()
}

impl Drop for Store {
    fn drop(&mut self) {
        self.settle_wal();
    }
}

/// Creates a directory (and parents) readable only by the user.
pub fn create_private_dir(dir: &Path) -> Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)
        .map_err(|source| Error::CacheUnwritable {
            path: dir.to_owned(),
            source,
        })?;
    // Probe writability now: SQLite would otherwise fail later with a vaguer error.
    let probe = dir.join(format!(".write-probe-{}", std::process::id()));
    std::fs::write(&probe, b"").map_err(|source| Error::CacheUnwritable {
        path: dir.to_owned(),
        source,
    })?;
    let _ = std::fs::remove_file(probe);
    Ok(())
}

/// The paths a transaction into a cache without paths has stored so far, with their ids.
type NewPaths = HashMap<Vec<u8>, i64>;

/// Whether no path is stored (a first baseline: nothing to look up).
fn paths_empty(tx: &Transaction<'_>) -> Result<bool> {
    Ok(tx.query_row("SELECT NOT EXISTS (SELECT 1 FROM paths)", [], |r| r.get(0))?)
}

/// Applies a search update. With `new_paths` (a cache without paths), no path is looked up:
/// the ones it stores are recorded there.
fn apply_search(
    tx: &Transaction<'_>,
    dirs: &mut dirs::Dirs,
    s: &SearchUpdate<'_>,
    mut new_paths: Option<&mut NewPaths>,
) -> Result<()> {
    if s.reset {
        tx.execute_batch(
            "DELETE FROM search_fts;
             DELETE FROM search_entries;
             DELETE FROM reference_fts;
             UPDATE paths SET search_first = NULL, search_count = NULL
               WHERE search_first IS NOT NULL;
             DELETE FROM settings WHERE name = 'search_rebuild';",
        )?;
    } else {
        for path in &s.remove {
            if let Some(path_id) = dirs::path_id(tx, dirs, path)? {
                remove_search_entries(tx, path_id)?;
                remove_references(tx, path_id)?;
            }
        }
    }
    let mut entry = tx.prepare_cached(
        "INSERT INTO search_entries (rowid, path, kind, name, line) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?;
    let mut fts =
        tx.prepare_cached("INSERT INTO search_fts (rowid, name, detail) VALUES (?1, ?2, ?3)")?;
    // Dense row ids: the full-text index stores their differences.
    let mut next: i64 = tx.query_row(
        "SELECT coalesce(max(rowid), 0) + 1 FROM search_entries",
        [],
        |r| r.get(0),
    )?;
    for f in &s.add {
        // One file's facts at a time: a baseline never holds them all.
        let loaded: Option<Analysis>;
        let analysis = match f.digest.as_deref() {
            Some(d) => match s.fresh.binary_search_by(|(k, _)| k.as_str().cmp(d)) {
                Ok(i) => Some(&s.fresh[i].1),
                Err(_) => {
                    loaded = match stored_facts(tx, d)? {
                        Some(b) => Some(decode_stored_facts(&b)?),
                        None => None,
                    };
                    loaded.as_ref()
                }
            },
            None => None,
        };
        // One lookup of the path's id per file: before its old entries go, or (after a reset,
        // which emptied every range but keeps the paths) only once it has entries to store.
        let mut known = None;
        if !s.reset && new_paths.is_none() {
            known = dirs::path_id(tx, dirs, &f.path)?;
            if let Some(path_id) = known {
                // Entries a path still has are replaced, never doubled.
                remove_search_entries(tx, path_id)?;
                remove_references(tx, path_id)?;
            }
        }
        let rows = (s.rows)(f, analysis);
        let names = analysis
            .and_then(|a| a.code.as_ref())
            .map_or(&[][..], |c| &c.references[..]);
        if rows.is_empty() {
            if !names.is_empty() {
                let path_id = match (known, new_paths.as_deref_mut()) {
                    (Some(id), _) => id,
                    (None, Some(new)) => {
                        let id = dirs::insert_new_path(tx, dirs, &f.path)?;
                        new.insert(f.path.clone(), id);
                        id
                    }
                    (None, None) => dirs::intern_path(tx, dirs, &f.path)?,
                };
                add_references(tx, path_id, names)?;
            }
            continue;
        }
        if s.reset && new_paths.is_none() {
            known = dirs::path_id(tx, dirs, &f.path)?;
        }
        let path_id = dirs::set_search_range(tx, dirs, known, &f.path, next, rows.len() as i64)?;
        if let Some(new) = new_paths.as_deref_mut() {
            new.insert(f.path.clone(), path_id);
        }
        for e in &rows {
            let kind = compact::code(&compact::SEARCH_KINDS, e.kind);
            entry.execute(params![next, path_id, kind, e.name, e.line])?;
            fts.execute(params![next, e.index_name, e.index_detail])?;
            next += 1;
        }
        if !names.is_empty() {
            add_references(tx, path_id, names)?;
        }
    }
    Ok(())
}

/// Stores the names a file references (its facts' `references`) as its row of the reference
/// index, keyed by its path's id.
fn add_references(tx: &Transaction<'_>, path_id: i64, names: &[String]) -> Result<()> {
    tx.prepare_cached("INSERT INTO reference_fts (rowid, names) VALUES (?1, ?2)")?
        .execute(params![path_id, names.join(" ")])?;
    Ok(())
}

/// Deletes a path's row of the reference index, if it has one.
fn remove_references(tx: &Transaction<'_>, path_id: i64) -> Result<()> {
    tx.prepare_cached("DELETE FROM reference_fts WHERE rowid = ?1")?
        .execute([path_id])?;
    Ok(())
}

/// Rewrites a current cache into the layout of schema version 19: snapshots without their
/// removed paths (as a cache written before migration 20).
#[cfg(test)]
pub(crate) fn downgrade_to_v19(db: &Connection) {
    db.execute_batch(
        "ALTER TABLE snapshots DROP COLUMN removed;
         PRAGMA user_version = 19;",
    )
    .unwrap();
}

/// Rewrites a current cache into the layout of schema version 18: no reference index (as a
/// cache written before migration 19).
#[cfg(test)]
pub(crate) fn downgrade_to_v18(db: &Connection) {
    downgrade_to_v19(db);
    db.execute_batch(
        "DROP TABLE reference_fts;
         DELETE FROM settings WHERE name = 'search_rebuild';
         PRAGMA user_version = 18;",
    )
    .unwrap();
}

/// Tells whether the reference index can look `name` up as one token: ASCII letters, digits,
/// `_` and `$` only (what its tokenizer keeps together). Other names are searched in the facts.
pub(crate) fn is_reference_token(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'$')
}

/// Deletes a path's search entries: the range of row ids its path row names.
fn remove_search_entries(tx: &Transaction<'_>, path_id: i64) -> Result<()> {
    let range: Option<(Option<i64>, Option<i64>)> = tx
        .prepare_cached("SELECT search_first, search_count FROM paths WHERE id = ?1")?
        .query_row([path_id], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?;
    let Some((Some(first), Some(count))) = range else {
        return Ok(());
    };
    let mut del_fts = tx.prepare_cached("DELETE FROM search_fts WHERE rowid = ?1")?;
    let mut del = tx.prepare_cached("DELETE FROM search_entries WHERE rowid = ?1 AND path = ?2")?;
    for id in first..first + count {
        if del.execute([id, path_id])? == 1 {
            del_fts.execute([id])?;
        }
    }
    tx.prepare_cached("UPDATE paths SET search_first = NULL, search_count = NULL WHERE id = ?1")?
        .execute([path_id])?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A database that migration 0009 left: rows without classes or rules.
    fn version_9_database(path: &Path) {
        let conn = Connection::open(path).unwrap();
        for step in &MIGRATIONS[..9] {
            let Migration::Sql(sql) = step else {
                unreachable!("migrations 1-9 are SQL")
            };
            conn.execute_batch(sql).unwrap();
        }
        conn.pragma_update(None, "user_version", 9).unwrap();
        conn.pragma_update(None, "application_id", APPLICATION_ID)
            .unwrap();
        conn.execute_batch(
            "INSERT INTO epochs (seq, status, created_at, baseline_snapshot)
                 VALUES (1, 'active', 't', 1);
             INSERT INTO snapshots (seq, epoch, kind, dirty, status_digest, index_digest,
                 repository_digest, untracked, recent_commits, caveats, observed_at, created_at)
                 VALUES (1, 1, 'baseline', 0, 's', 'i', 'r', '[]', '[]', '[]', 't', 't');
             INSERT INTO file_versions (epoch, start_seq, path, index_mode, index_oid, file_type,
                 is_document, working_state, assume_unchanged, skip_worktree)
                 VALUES (1, 1, CAST('vendor/a.c' AS BLOB), 33188, 'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391',
                     'text', 0, 'clean', 0, 0);
             INSERT INTO repository (singleton, repo_id, root, created_at, current_snapshot)
                 VALUES (1, 'repo-x', CAST('/r' AS BLOB), 't', 1);",
        )
        .unwrap();
    }

    #[test]
    fn migrations_10_to_13_give_old_rows_the_source_class_and_snapshots_no_rules() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("state.db");
        version_9_database(&db);
        let store = Store::open(&db, false).unwrap().unwrap();
        let version: i64 = store
            .conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, SCHEMA_VERSION);
        assert_eq!(SCHEMA_VERSION, 20);
        // Migration 19 added the reference index, for the next refresh to build.
        assert!(store.search_needs_rebuild().unwrap());
        // Migration 18 dropped the table nothing used.
        let rank_cache: i64 = store
            .conn
            .query_row(
                "SELECT count(*) FROM sqlite_schema WHERE name = 'rank_cache'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(rank_cache, 0);
        let snap = store.current_snapshot().unwrap().unwrap();
        assert_eq!(
            (snap.rules_digest.as_deref(), snap.secret_content),
            (None, false)
        );
        // Migration 20: a snapshot published before knows no removed paths.
        assert!(snap.removed.is_empty());
        let files = store.files_at(&snap).unwrap();
        assert_eq!(files[0].class, FileClass::Source);
        // Migration 13 coded the kinds and kept the missing work-tree mode apart from the
        // index mode it now leaves out when equal.
        assert_eq!(
            (files[0].file_type, files[0].working_state),
            (
                crate::model::FileType::Text,
                crate::model::WorkingState::Clean
            )
        );
        assert_eq!((files[0].worktree_mode, files[0].stat), (None, None));
        // A class this version does not know is a corrupt cache, not a default.
        for unknown in ["99", "'mystery'"] {
            store
                .conn
                .execute(&format!("UPDATE file_versions SET class = {unknown}"), [])
                .unwrap();
            assert_eq!(store.files_at(&snap).unwrap_err().code(), "corrupt_cache");
        }
    }
}

#[cfg(test)]
mod facts_tests {
    use super::*;

    /// A new store in a temporary directory (kept alive by the returned guard).
    fn new_store() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("state.db"), true)
            .unwrap()
            .unwrap();
        (dir, store)
    }

    /// Facts of a document titled `title`: small, and told apart by the title.
    fn titled(title: &str) -> Analysis {
        Analysis {
            doc: Some(crate::analyze::docs::DocFacts {
                title: Some(title.into()),
                headings: vec![],
                links: vec![],
                purpose: None,
                definition: None,
                code_names: vec![],
                notice: None,
                license: None,
            }),
            ..Analysis::default()
        }
    }

    /// A read's writes on the side are skipped on a database this process may only read (a
    /// cache another user owns), as while another process writes; a write that is the
    /// command's purpose fails as `cache_unwritable`, saying what still works.
    #[test]
    fn a_read_only_database_skips_a_reads_writes_and_refuses_the_others() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("state.db"), true)
            .unwrap()
            .unwrap();
        let row = CueRow {
            view: "overview".into(),
            recorded_at: "2026-01-01T00:00:00Z".into(),
            max_tokens: 500,
            output_bytes: 10,
            estimated_tokens: 3,
            duration_us: 1,
            snapshot: None,
        };
        assert!(store.record_cue(&row).unwrap());
        // What SQLite says of a file this process cannot write: SQLITE_READONLY.
        store.conn.pragma_update(None, "query_only", true).unwrap();
        assert!(!store.record_cue(&row).unwrap());
        assert!(!store.put_view_cache(1, "overview", "{}").unwrap());
        let e = Error::Sqlite(
            store
                .conn
                .execute("DELETE FROM cue_metrics", [])
                .unwrap_err(),
        );
        assert_eq!(e.code(), "cache_unwritable");
        assert!(e.hint().unwrap().contains("--no-refresh"), "{e:?}");
    }

    #[test]
    fn opening_waits_for_a_concurrent_first_writer_of_a_new_database() {
        // Another process has just created the database and writes to it, still in SQLite's
        // rollback journal mode: switching to WAL fails at once without the busy handler, so
        // opening must wait for it like for any lock (found as a rare `database_busy` of one of
        // five concurrent first `init`s).
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("state.db");
        let other = Connection::open(&path).unwrap();
        other
            .execute_batch("BEGIN IMMEDIATE; CREATE TABLE held (x);")
            .unwrap();
        let release = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(300));
            other.execute_batch("ROLLBACK").unwrap();
        });
        let opened = Store::open(&path, true);
        release.join().unwrap();
        let store = opened.expect("waits, then opens").expect("created");
        let mode: String = store
            .conn
            .query_row("PRAGMA journal_mode", [], |r| r.get(0))
            .unwrap();
        assert_eq!(mode, "wal");
    }

    #[test]
    fn digests_sharing_a_key_keep_the_first_facts_and_never_read_each_others() {
        let (_dir, store) = new_store();
        // Two digests whose first 8 bytes (the key) are equal.
        let first = format!("{}{}", "ab".repeat(8), "01".repeat(24));
        let second = format!("{}{}", "ab".repeat(8), "02".repeat(24));
        let facts = titled;
        store
            .put_facts(&[(first.clone(), facts("C"))], "a1")
            .unwrap();
        store
            .put_facts(&[(second.clone(), facts("Go"))], "a1")
            .unwrap();
        let read = store.facts(&[&first, &second]).unwrap();
        assert_eq!(read.len(), 1, "{read:?}");
        assert_eq!(read[&first], facts("C"));
        assert!(!store.facts_probe("a1").unwrap().contains(&second));
        assert!(store.facts_probe("a1").unwrap().contains(&first));
        // The digest's own facts are replaced, by a newer analyzer too.
        store
            .put_facts(&[(first.clone(), facts("Rust"))], "a2")
            .unwrap();
        assert_eq!(store.facts(&[&first]).unwrap()[&first], facts("Rust"));
    }

    /// Many digests' facts, decoded on every core, come back each under its own digest:
    /// repeated digests once, unknown ones not at all, corrupt ones as an error.
    #[test]
    fn many_facts_read_back_each_under_its_digest() {
        let (_dir, store) = new_store();
        let facts = |i: usize| titled(&format!("doc {i}"));
        // Distinct first 8 bytes: the key facts are stored under.
        let digests: Vec<String> = (0..300)
            .map(|i| format!("{:016x}{i:048x}", i + 1))
            .collect();
        let stored: Vec<(String, Analysis)> = digests
            .iter()
            .enumerate()
            .map(|(i, d)| (d.clone(), facts(i)))
            .collect();
        store.put_facts(&stored, "a1").unwrap();
        let unknown = format!("{:064x}", u64::MAX);
        let mut asked: Vec<&str> = digests.iter().map(String::as_str).collect();
        asked.extend([digests[7].as_str(), unknown.as_str()]);
        let read = store.facts(&asked).unwrap();
        assert_eq!(read.len(), 300);
        for (i, d) in digests.iter().enumerate() {
            assert_eq!(read[d], facts(i));
        }
        store
            .conn
            .execute(
                "UPDATE content_facts SET facts = x'00ff' WHERE digest = ?1",
                [compact::id_bytes(&digests[3])],
            )
            .unwrap();
        assert!(matches!(
            store.facts(&asked),
            Err(Error::CorruptCache { .. })
        ));
    }
}

#[cfg(test)]
mod baseline_tests {
    use super::{FileClass, FileCounts};
    use crate::model::WorkingState;
    use crate::testing::{raw_db, temp_repo};

    /// Commands open the cache, write one row (a cue's metrics, a view's cached value) and
    /// exit. Each opener that finds no other rebuilds the WAL index and forgets what earlier
    /// checkpoints copied, so without settling on close the WAL grew by a page per command
    /// for good; settled, it stays under its bound.
    #[test]
    fn the_wal_of_many_short_writers_stays_bounded() {
        let t = temp_repo(&[("a.rs", "pub fn alpha() {}\n")]);
        crate::read::prepare(&t.repo, true).unwrap();
        let db = t.repo.db_path();
        let wal = |db: &std::path::Path| {
            let mut p = db.as_os_str().to_owned();
            p.push("-wal");
            std::fs::metadata(p).map_or(0, |m| m.len())
        };
        let payload = "x".repeat(3000);
        let mut largest = 0;
        for i in 0..200 {
            let store = super::Store::open(&db, false).unwrap().unwrap();
            let seq = store.current_snapshot().unwrap().unwrap().seq;
            assert!(store
                .put_view_cache(seq, &format!("view-{i}"), &payload)
                .unwrap());
            drop(store);
            largest = largest.max(wal(&db));
        }
        // One command's pages past the bound, at most.
        assert!(
            largest <= super::WAL_SETTLE_BYTES + (64 << 10),
            "the WAL reached {largest} bytes"
        );
        // Nothing written was lost to the truncation.
        let n: i64 = raw_db(&t.repo)
            .query_row(
                "SELECT count(*) FROM view_cache WHERE view LIKE 'view-%'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(n, 200);
    }

    /// The counts a query takes from the rows are what counting the loaded files gives.
    #[test]
    fn counts_from_the_rows_equal_counts_over_the_loaded_files() {
        let t = temp_repo(&[
            ("src/a.rs", "pub fn a() {}\n"),
            ("src/b.py", "def b(): pass\n"),
            ("README.md", "# R\n\nText.\n"),
            ("docs/guide.md", "# Guide\n"),
            (".env", "TOKEN=x\n"),
            ("data.bin", "\u{0}\u{1}binary"),
        ]);
        std::fs::write(t.repo.root.join("src/a.rs"), "pub fn a2() {}\n").unwrap();
        std::fs::remove_file(t.repo.root.join("data.bin")).unwrap();
        let reader = crate::read::prepare(&t.repo, true).unwrap();
        let files = reader.all_files().unwrap();
        let counts = reader.store.counts_at(&reader.snapshot).unwrap();
        let class = |c: FileClass| files.iter().filter(|f| f.class == c).count() as u64;
        let mut languages: Vec<&str> = files.iter().filter_map(|f| f.language.as_deref()).collect();
        languages.sort_unstable();
        languages.dedup();
        let expected = FileCounts {
            files: files.len() as u64,
            bytes: files.iter().filter_map(|f| f.size).sum(),
            documents: files.iter().filter(|f| f.is_document).count() as u64,
            languages: languages.len() as u64,
            dirty: files
                .iter()
                .filter(|f| f.working_state != WorkingState::Clean)
                .count() as u64,
            secret: class(FileClass::Secret),
            excluded: class(FileClass::Excluded),
        };
        assert_eq!(counts, expected);
        assert_eq!((counts.files, counts.secret, counts.dirty), (6, 1, 2));
        assert!(counts.languages >= 3 && counts.documents == 2, "{counts:?}");
    }

    #[test]
    fn compacting_after_a_baseline_gives_free_pages_back_and_keeps_the_index() {
        let files: Vec<(String, String)> = (0..300)
            .map(|i| {
                (
                    format!("src/m{i}/lib_{i}.rs"),
                    format!("pub fn function_{i}(x: u32) -> u32 {{ x }}\n"),
                )
            })
            .collect();
        let t = temp_repo(&files);
        crate::read::prepare(&t.repo, true).unwrap();
        let db = raw_db(&t.repo);
        let page = |p: &str| -> i64 {
            db.query_row(&format!("PRAGMA {p}"), [], |r| r.get(0))
                .unwrap()
        };
        // Churn that leaves free pages, as replaced facts and merged index segments do.
        db.execute_batch(
            "CREATE TABLE churn (x BLOB);
             WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
             INSERT INTO churn SELECT randomblob(400) FROM n;
             DROP TABLE churn;",
        )
        .unwrap();
        assert!(page("freelist_count") * 100 > page("page_count"));
        let store = super::Store::open(&t.repo.db_path(), false)
            .unwrap()
            .unwrap();
        store.compact_after_baseline();
        let (free, total) = (page("freelist_count"), page("page_count"));
        assert!(free * 100 <= total, "{free} of {total} pages free");
        let n: i64 = db
            .query_row(
                "SELECT count(*) FROM search_fts WHERE search_fts MATCH '\"function\"*'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(n, 300);
    }
}
