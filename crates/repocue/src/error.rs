//! The library's error type: one enum whose variants carry a stable machine-readable code.

use std::path::PathBuf;

/// Shorthand for results whose error is [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong in RepoCue, with enough context to act on it.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The requested path is not inside a Git work tree.
    #[error("not a git repository: {path}")]
    NotARepository {
        /// The path that was asked for.
        path: PathBuf,
        /// What Git said.
        detail: String,
    },
    /// The requested path does not exist or cannot be resolved.
    #[error("cannot resolve repository path {path}: {source}")]
    BadPath {
        /// The path that was asked for.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// Running Git failed.
    #[error("git {args} failed: {detail}")]
    Git {
        /// The Git arguments, space separated.
        args: String,
        /// Git's stderr or the spawn error.
        detail: String,
    },
    /// Git printed something RepoCue could not parse.
    #[error("cannot parse output of git {args}: {detail}")]
    GitParse {
        /// The Git arguments, space separated.
        args: String,
        /// What was wrong.
        detail: String,
    },
    /// A tracked file a command must read (a task-context source, a freshness probe) could
    /// not be read. A scan never fails this way: it records a per-file fault instead.
    #[error("cannot read tracked file {path}: {source}")]
    UnreadableFile {
        /// Repository-relative path, displayed lossily.
        path: String,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The cache directory cannot be created or written.
    #[error("cache directory {path} is not writable: {source}")]
    CacheUnwritable {
        /// The directory.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The state database is damaged or belongs to something else.
    #[error("state database {path} is not a usable RepoCue database: {detail}")]
    CorruptCache {
        /// The database file.
        path: PathBuf,
        /// What was found.
        detail: String,
    },
    /// The database was written by a newer RepoCue.
    #[error(
        "state database {path} has schema version {found}, newer than this RepoCue ({supported})"
    )]
    SchemaTooNew {
        /// The database file.
        path: PathBuf,
        /// Version found.
        found: i64,
        /// Highest version this build knows.
        supported: i64,
    },
    /// The repository has not been initialized and the command does not initialize it.
    #[error("repository is not initialized; run `repocue init`")]
    NotInitialized,
    /// Another writer published first and retries were exhausted.
    #[error("another process published a snapshot concurrently ({detail}); retry the command")]
    Conflict {
        /// Which snapshots collided.
        detail: String,
    },
    /// A snapshot, delta or entity id that does not exist (or was pruned).
    #[error("{kind} not found: {id}")]
    NotFound {
        /// What kind of thing was looked up.
        kind: &'static str,
        /// The id that was asked for.
        id: String,
    },
    /// A request argument is invalid.
    #[error("invalid argument: {0}")]
    InvalidArgument(String),
    /// The token budget cannot even hold the envelope.
    #[error("budget of {max_tokens} tokens is too small; this cue needs at least {minimum}")]
    BudgetTooSmall {
        /// The budget given.
        max_tokens: u64,
        /// The smallest budget that works.
        minimum: u64,
    },
    /// A configuration file is invalid (or unreadable); nothing was written.
    #[error("invalid configuration {}: {detail}", config_place(path, *line, key.as_deref()))]
    Config {
        /// The configuration file.
        path: String,
        /// The 1-based line of the problem, when known.
        line: Option<u64>,
        /// The key (`section.key`), when known.
        key: Option<String>,
        /// What is wrong.
        detail: String,
    },
    /// SQLite failed.
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// Some other I/O failure.
    #[error("{context}: {source}")]
    Io {
        /// What was being done.
        context: String,
        /// The underlying error.
        source: std::io::Error,
    },
    /// A task-context declaration does not follow `repocue/task-context-1`.
    #[error("invalid task-context declaration {path}: {detail}")]
    InvalidDeclaration {
        /// The declaration path.
        path: String,
        /// What is wrong.
        detail: String,
    },
    /// A path a task context needs is not tracked in the current snapshot.
    #[error("{path} is not tracked in the current snapshot")]
    NotTracked {
        /// Repository-relative path.
        path: String,
    },
    /// A path a task context needs is not a regular file (a gitlink, deleted, a directory).
    #[error("{path} is not a regular file: {detail}")]
    NotRegular {
        /// Repository-relative path.
        path: String,
        /// What it is instead.
        detail: String,
    },
    /// A path a task context needs is, or lies below, a symbolic link.
    #[error("{path} is or lies below a symbolic link ({link})")]
    SymlinkRejected {
        /// Repository-relative path.
        path: String,
        /// The component that is a symbolic link.
        link: String,
    },
    /// A pinned digest does not match the snapshot or the file.
    #[error("stale pin for {path}: declared {expected}, snapshot {snapshot}, file {actual}")]
    StalePin {
        /// Repository-relative path.
        path: String,
        /// Digest declared (or, for the declaration itself, the snapshot's).
        expected: String,
        /// Digest in the current snapshot.
        snapshot: String,
        /// Digest of the bytes read now.
        actual: String,
    },
    /// A file that must be text is not valid UTF-8.
    #[error("{path} is not valid UTF-8 (line {line})")]
    InvalidUtf8 {
        /// Repository-relative path.
        path: String,
        /// First line with an invalid sequence (1-based).
        line: u64,
    },
    /// `task-context check` found pins that no longer match their files.
    #[error("{stale} of {pins} pins in {path} are stale")]
    StalePins {
        /// The declaration.
        path: String,
        /// Stale pins.
        stale: usize,
        /// All pins.
        pins: usize,
    },
    /// A line range reaches past the end of its file.
    #[error("lines {start}-{end} of {path} are out of bounds: the file has {lines} lines")]
    RangeOutOfBounds {
        /// Repository-relative path.
        path: String,
        /// First line asked for.
        start: u64,
        /// Last line asked for.
        end: u64,
        /// Lines in the file.
        lines: u64,
    },
    /// The snapshot does not describe the working tree and the command may not refresh it.
    #[error("the snapshot is not current ({detail}); run `repocue refresh` or drop --no-refresh")]
    RefreshNeeded {
        /// Why it is not current.
        detail: String,
    },
    /// The repository changed while a cue was read from it.
    #[error("the repository changed while reading: {detail}; retry when it is quiet")]
    ChangedDuringRead {
        /// What changed.
        detail: String,
    },
    /// Hooks RepoCue cannot install or remove without destroying a file it did not write.
    #[error("{detail}; nothing was changed")]
    HookConflict {
        /// Which files are in the way.
        detail: String,
    },
}

impl Error {
    /// Returns the stable machine-readable code of this error (part of the public contract).
    pub fn code(&self) -> &'static str {
        match self {
            Error::NotARepository { .. } => "not_a_git_repository",
            Error::BadPath { .. } => "bad_path",
            Error::Git { .. } => "git_failed",
            Error::GitParse { .. } => "git_output_unparsable",
            Error::UnreadableFile { .. } => "unreadable_file",
            Error::CacheUnwritable { .. } => "cache_unwritable",
            Error::CorruptCache { .. } => "corrupt_cache",
            Error::SchemaTooNew { .. } => "schema_too_new",
            Error::NotInitialized => "not_initialized",
            Error::Conflict { .. } => "concurrent_update",
            Error::NotFound { .. } => "not_found",
            Error::InvalidArgument(_) => "invalid_argument",
            Error::BudgetTooSmall { .. } => "budget_too_small",
            Error::Config { .. } => "invalid_config",
            Error::Sqlite(e) if is_busy(e) => "database_busy",
            // Found by a query rather than when the database was opened: the same codes as
            // [`Error::CacheUnwritable`] and [`Error::CorruptCache`], and what to do about it.
            Error::Sqlite(e) if is_read_only(e) => "cache_unwritable",
            Error::Sqlite(e) if is_corrupt(e) => "corrupt_cache",
            Error::Sqlite(_) => "database_error",
            Error::Io { .. } => "io_error",
            Error::InvalidDeclaration { .. } => "invalid_declaration",
            Error::NotTracked { .. } => "not_tracked",
            Error::NotRegular { .. } => "not_regular",
            Error::SymlinkRejected { .. } => "symlink_rejected",
            Error::StalePin { .. } | Error::StalePins { .. } => "stale_pin",
            Error::InvalidUtf8 { .. } => "invalid_utf8",
            Error::RangeOutOfBounds { .. } => "range_out_of_bounds",
            Error::RefreshNeeded { .. } => "refresh_needed",
            Error::ChangedDuringRead { .. } => "changed_during_read",
            Error::HookConflict { .. } => "hook_conflict",
        }
    }

    /// Tells whether running the same command again may succeed without any change.
    pub fn is_retryable(&self) -> bool {
        match self {
            Error::Conflict { .. } => true,
            Error::Sqlite(e) => is_busy(e),
            _ => false,
        }
    }

    /// Returns a short hint on what to do next, when there is a useful one.
    pub fn hint(&self) -> Option<String> {
        match self {
            // Inside `.git/` or a bare repository Git knows the repository but has no work
            // tree to show: say so, rather than that there is no repository.
            Error::NotARepository { detail, .. } if detail.contains("work tree") => Some(
                "this is a Git directory or a bare repository, not a work tree: run inside the \
                 work tree (the directory that holds .git) or pass --repository PATH"
                    .into(),
            ),
            // Git refuses a repository another user owns, and says why; the code stays (Git
            // will not read it), the hint gives Git's reason and the way out.
            Error::NotARepository { path, detail } if detail.contains("dubious ownership") => {
                let said = detail.lines().next().unwrap_or_default().trim();
                let command = detail
                    .lines()
                    .map(str::trim)
                    .find(|l| l.starts_with("git config") && l.contains("safe.directory"))
                    .map(str::to_owned)
                    .unwrap_or_else(|| {
                        format!("git config --global --add safe.directory {}", path.display())
                    });
                Some(format!(
                    "Git refuses a repository another user owns ({said}): if you trust it, \
                     run `{command}`"
                ))
            }
            Error::NotARepository { .. } => {
                Some("run inside a Git work tree or pass --repository PATH".into())
            }
            Error::CorruptCache { path, .. } => Some(format!(
                "the cache is derived state: move {} aside (or pass --cache-dir) and run `repocue init`",
                path.display()
            )),
            Error::CacheUnwritable { .. } => {
                Some("pass --cache-dir or set REPOCUE_CACHE_DIR to a writable directory".into())
            }
            Error::Sqlite(e) if is_read_only(e) => Some(
                "the cache database is read-only to this process: reads with --no-refresh \
                 still answer; pass --cache-dir or set REPOCUE_CACHE_DIR to a writable directory"
                    .into(),
            ),
            Error::Sqlite(e) if is_corrupt(e) => Some(
                "the cache is derived state: move the repository's directory in the cache \
                 (`repo-…/` under --cache-dir or REPOCUE_CACHE_DIR) aside and run `repocue init`"
                    .into(),
            ),
            Error::NotInitialized => Some("run `repocue init`".into()),
            Error::HookConflict { .. } => Some(
                "move or edit the named files by hand (keep what you wrote), then run the \
                 command again"
                    .into(),
            ),
            Error::InvalidArgument(_) => {
                Some("`repocue help COMMAND` lists the flags each command and view take".into())
            }
            Error::UnreadableFile { .. } => {
                Some("fix the file's permissions, then run `repocue refresh`".into())
            }
            Error::NotFound { kind: "snapshot", .. } => {
                Some("list retained snapshots with `repocue metrics` or use `repocue status`".into())
            }
            Error::NotFound {
                kind: "entity of an untracked file",
                ..
            } => Some(
                "RepoCue indexes tracked files only: `git add` the file and the next cue indexes it"
                    .into(),
            ),
            Error::NotFound { kind: "path", .. } => Some(
                "paths are relative to the repository root; `repocue cue --view structure` lists its top files"
                    .into(),
            ),
            Error::Config { .. } => Some(
                "fix the file (docs/configuration.md lists every key); the cache was not touched"
                    .into(),
            ),
            Error::StalePin { .. } | Error::StalePins { .. } => Some(
                "review the changed source, then run `repocue task-context pin --update`".into(),
            ),
            _ if self.is_retryable() => Some("retry the command".into()),
            _ => None,
        }
    }
}

/// `path:line: key` as far as known.
fn config_place(path: &str, line: Option<u64>, key: Option<&str>) -> String {
    let mut s = path.to_owned();
    if let Some(l) = line {
        s.push_str(&format!(":{l}"));
    }
    if let Some(k) = key {
        s.push_str(&format!(": {k}"));
    }
    s
}

/// Whether SQLite found the database damaged (a truncated or overwritten file).
fn is_corrupt(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(rusqlite::ErrorCode::DatabaseCorrupt | rusqlite::ErrorCode::NotADatabase)
    )
}

/// Whether a write failed because the database is read-only to this process.
fn is_read_only(e: &rusqlite::Error) -> bool {
    e.sqlite_error_code() == Some(rusqlite::ErrorCode::ReadOnly)
}

fn is_busy(e: &rusqlite::Error) -> bool {
    matches!(
        e.sqlite_error_code(),
        Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A repository Git refuses for its owner is named as such, with Git's way out.
    #[test]
    fn a_repository_another_user_owns_gets_gits_reason_and_way_out() {
        let detail = "fatal: detected dubious ownership in repository at '/srv/repo'\n\
                      To add an exception for this directory, call:\n\n\
                      \tgit config --global --add safe.directory /srv/repo";
        let e = Error::NotARepository {
            path: "/srv/repo/src".into(),
            detail: detail.into(),
        };
        let hint = e.hint().unwrap();
        assert!(hint.contains("detected dubious ownership"), "{hint}");
        assert!(
            hint.contains("`git config --global --add safe.directory /srv/repo`"),
            "{hint}"
        );
        assert_eq!(e.code(), "not_a_git_repository");
    }
}
