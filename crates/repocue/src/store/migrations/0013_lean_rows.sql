-- Leaner rows (run by store::compact::migrate_lean, which fills the new tables from the old).
-- File versions store their kinds as small integers (store::compact::FILE_TYPES and the lists
-- beside it) and leave NULL what equals its twin: `worktree_mode` NULL is the index mode (0:
-- missing from the working tree), `st_size` NULL is `size`, `st_ctime_ns` NULL is
-- `st_mtime_ns`; stat data is present when `st_mtime_ns` is.
ALTER TABLE file_versions RENAME TO old_file_versions;
DROP INDEX file_versions_current;
DROP INDEX file_versions_unsettled;
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

-- Content facts keyed by the first 8 bytes of their digest (the row id): the digest is
-- checked on every lookup, and no second index copies it.
ALTER TABLE content_facts RENAME TO old_content_facts;
CREATE TABLE content_facts (
    key INTEGER PRIMARY KEY,          -- digest_key(digest)
    digest BLOB NOT NULL,             -- SHA-256 of the content, 32 bytes
    analyzer TEXT NOT NULL,
    facts BLOB NOT NULL               -- tagged JSON; derived facts only, never file contents
);

-- Search entries: kinds are codes (0 path, 1 symbol, 2 doc), and a file's entries have
-- consecutive row ids, the range its path row names (`search_first`, `search_count`; NULL:
-- none), so no index on the entries' path is needed. Row ids stay dense: the full-text index
-- stores their differences. That index keeps no text and cannot be renumbered: both are
-- emptied, and the next refresh rebuilds them from the stored facts.
DROP TABLE search_entries;
DROP TABLE search_fts;
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
ALTER TABLE paths ADD COLUMN search_first INTEGER;
ALTER TABLE paths ADD COLUMN search_count INTEGER;
-- Until then every snapshot needs a refresh (store::Store::search_needs_rebuild).
INSERT INTO settings (name, value) VALUES ('search_rebuild', '13')
    ON CONFLICT(name) DO UPDATE SET value = excluded.value;
