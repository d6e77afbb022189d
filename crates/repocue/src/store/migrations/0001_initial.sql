-- RepoCue state schema, version 1.
-- Snapshots share file rows through validity intervals: a row of file_versions is part of
-- every snapshot whose sequence number lies in [start_seq, end_seq) within its epoch, so an
-- unchanged file costs nothing per snapshot.

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
);

CREATE TABLE file_versions (
    id INTEGER PRIMARY KEY,
    epoch INTEGER NOT NULL REFERENCES epochs(seq),
    start_seq INTEGER NOT NULL,
    end_seq INTEGER,                  -- NULL while current
    path BLOB NOT NULL,
    index_mode INTEGER NOT NULL,
    index_oid TEXT NOT NULL,
    worktree_mode INTEGER,
    size INTEGER,
    digest TEXT,
    file_type TEXT NOT NULL,
    language TEXT,
    is_document INTEGER NOT NULL,
    working_state TEXT NOT NULL,
    assume_unchanged INTEGER NOT NULL,
    skip_worktree INTEGER NOT NULL,
    -- stat cache: not indexed state, updated in place
    st_size INTEGER,
    st_mtime_ns INTEGER,
    st_ctime_ns INTEGER,
    st_ino INTEGER
);
CREATE INDEX file_versions_current ON file_versions(epoch, end_seq, path);

CREATE TABLE content_facts (
    digest TEXT PRIMARY KEY,
    analyzer TEXT NOT NULL,
    facts TEXT NOT NULL               -- JSON; derived facts only, never file contents
);

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
