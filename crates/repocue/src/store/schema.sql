-- The current schema, for new databases (store::fresh). Generated from the migrations:
-- REPOCUE_BLESS=1 cargo test -p repocue --lib fresh
CREATE TABLE repository (
    singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
    repo_id TEXT NOT NULL,
    root BLOB NOT NULL,
    created_at TEXT NOT NULL,
    current_snapshot INTEGER REFERENCES snapshots(seq)
);
CREATE TABLE sequences (
    name TEXT PRIMARY KEY,
    value INTEGER NOT NULL
);
CREATE TABLE epochs (
    seq INTEGER PRIMARY KEY,
    status TEXT NOT NULL CHECK (status IN ('active', 'superseded')),
    label TEXT,
    reason TEXT,
    created_at TEXT NOT NULL,
    baseline_snapshot INTEGER
);
CREATE TABLE snapshots (
    seq INTEGER PRIMARY KEY,
    epoch INTEGER NOT NULL REFERENCES epochs(seq),
    parent INTEGER REFERENCES snapshots(seq),
    kind TEXT NOT NULL CHECK (kind IN ('baseline', 'refresh')),
    branch TEXT,
    head TEXT,
    dirty INTEGER NOT NULL,
    status_digest TEXT NOT NULL,
    index_digest TEXT NOT NULL,
    repository_digest TEXT NOT NULL,
    untracked TEXT NOT NULL,          -- JSON array of paths
    recent_commits TEXT NOT NULL,     -- JSON array of {id, date, subject}
    caveats TEXT NOT NULL,            -- JSON array of caveat codes
    observed_at TEXT NOT NULL,
    created_at TEXT NOT NULL,
    pinned INTEGER NOT NULL DEFAULT 0
, index_stat TEXT, file_count INTEGER, rules_digest TEXT, secret_content INTEGER, faults TEXT NOT NULL DEFAULT '[]', removed TEXT NOT NULL DEFAULT '[]');
CREATE TABLE deltas (
    seq INTEGER PRIMARY KEY,
    snapshot INTEGER NOT NULL UNIQUE REFERENCES snapshots(seq),
    parent INTEGER REFERENCES snapshots(seq),
    created_at TEXT NOT NULL
);
CREATE TABLE delta_items (
    delta INTEGER NOT NULL REFERENCES deltas(seq) ON DELETE CASCADE,
    ordinal INTEGER NOT NULL,
    op TEXT NOT NULL,
    entity TEXT NOT NULL,
    before TEXT,                      -- JSON
    after TEXT,                       -- JSON
    PRIMARY KEY (delta, ordinal)
);
CREATE TABLE operations (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    duration_us INTEGER NOT NULL,
    scan_duration_us INTEGER,
    git_processes INTEGER,
    files_scanned INTEGER,
    bytes_scanned INTEGER,
    files_analyzed INTEGER,
    changed_files INTEGER,
    epoch INTEGER,
    snapshot INTEGER,
    published INTEGER NOT NULL
);
CREATE TABLE cue_metrics (
    id INTEGER PRIMARY KEY,
    view TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    max_tokens INTEGER NOT NULL,
    output_bytes INTEGER NOT NULL,
    estimated_tokens INTEGER NOT NULL,
    duration_us INTEGER NOT NULL,
    snapshot INTEGER
);
CREATE TABLE checkpoints (
    seq INTEGER PRIMARY KEY,
    snapshot INTEGER NOT NULL REFERENCES snapshots(seq),
    label TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX checkpoints_snapshot ON checkpoints(snapshot);
CREATE TABLE view_cache (
    snapshot INTEGER NOT NULL,
    view TEXT NOT NULL,
    json TEXT NOT NULL,
    PRIMARY KEY (snapshot, view)
);
CREATE TABLE settings (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE calibration_references (
    calibration_id TEXT PRIMARY KEY,
    -- No foreign keys: prune may delete the bound snapshot; the artifact carries the
    -- profile, so the reference stays meaningful by its sequence numbers.
    epoch INTEGER NOT NULL,
    snapshot INTEGER NOT NULL,
    artifact_path TEXT NOT NULL,
    artifact_digest TEXT NOT NULL,
    bound_at TEXT NOT NULL,
    content_fingerprint TEXT NOT NULL,
    fingerprint_algorithm TEXT NOT NULL,
    contract_digest TEXT NOT NULL,
    model TEXT NOT NULL,
    benchmark TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE TABLE paths (
    id INTEGER PRIMARY KEY,
    hash INTEGER NOT NULL
, search_first INTEGER, search_count INTEGER, dir INTEGER NOT NULL DEFAULT 0, name BLOB NOT NULL DEFAULT x'');
CREATE TABLE file_versions (
    id INTEGER PRIMARY KEY,
    epoch INTEGER NOT NULL REFERENCES epochs(seq),
    start_seq INTEGER NOT NULL,
    end_seq INTEGER,                  -- NULL while current
    path INTEGER NOT NULL REFERENCES paths(id),
    index_mode INTEGER NOT NULL,
    index_oid BLOB NOT NULL,
    worktree_mode INTEGER,            -- NULL: the index mode; 0: missing
    size INTEGER,
    digest BLOB,                      -- SHA-256 of the content, 32 bytes
    file_type INTEGER NOT NULL,
    language TEXT,
    is_document INTEGER NOT NULL,
    working_state INTEGER NOT NULL,   -- 0: clean
    assume_unchanged INTEGER NOT NULL,
    skip_worktree INTEGER NOT NULL,
    -- stat cache: not indexed state, updated in place
    st_size INTEGER,                  -- NULL: `size`
    st_mtime_ns INTEGER,              -- NULL: no stat data
    st_ctime_ns INTEGER,              -- NULL: `st_mtime_ns`
    st_ino INTEGER,
    class INTEGER NOT NULL            -- 0: source
);
CREATE TABLE content_facts (
    key INTEGER PRIMARY KEY,          -- digest_key(digest)
    digest BLOB NOT NULL,             -- SHA-256 of the content, 32 bytes
    analyzer TEXT NOT NULL,
    facts BLOB NOT NULL               -- tagged JSON; derived facts only, never file contents
);
CREATE VIRTUAL TABLE search_fts USING fts5(
    name,
    detail,
    content = '',
    contentless_delete = 1,
    tokenize = 'unicode61 remove_diacritics 2'
);
CREATE TABLE search_entries (
    rowid INTEGER PRIMARY KEY,
    path INTEGER NOT NULL,
    kind INTEGER NOT NULL,
    name TEXT NOT NULL,               -- qualified symbol name, heading text, or '' for paths
    line INTEGER
);
CREATE INDEX file_versions_current ON file_versions(epoch, end_seq, path);
CREATE INDEX file_versions_unsettled ON file_versions(epoch, start_seq)
             WHERE working_state != 0 OR assume_unchanged OR skip_worktree;
CREATE INDEX paths_hash ON paths(hash);
CREATE TABLE dirs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    parent INTEGER NOT NULL,
    name BLOB NOT NULL
);
CREATE VIRTUAL TABLE reference_fts USING fts5(
    names,
    content = '',
    contentless_delete = 1,
    detail = none,
    tokenize = "unicode61 remove_diacritics 0 tokenchars '_$'"
);
INSERT INTO settings (name, value) VALUES ('search_rebuild', '19');
