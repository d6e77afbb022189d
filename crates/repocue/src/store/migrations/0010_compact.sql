-- Compact storage (run by store::compact::migrate, which fills the new tables from the old).
-- Paths are stored once, in `paths`, and referenced by id from file versions and search
-- entries; they are found by a 64-bit hash of their bytes (an index on the hash is a fraction
-- of an index on the path). Git object ids and content digests are stored as bytes, not hex.
-- Content facts are JSON, deflated when that makes them smaller (first byte: 0 raw, 1
-- deflate). Search entries no longer store signatures: a hit's signature is read from its
-- file's facts.
CREATE TABLE paths (
    id INTEGER PRIMARY KEY,
    path BLOB NOT NULL,
    hash INTEGER NOT NULL
);
CREATE INDEX paths_hash ON paths(hash);

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
    worktree_mode INTEGER,
    size INTEGER,
    digest BLOB,                      -- SHA-256 of the content, 32 bytes
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
CREATE INDEX file_versions_unsettled ON file_versions(epoch, start_seq)
    WHERE working_state != 'clean' OR assume_unchanged OR skip_worktree;

ALTER TABLE content_facts RENAME TO old_content_facts;
CREATE TABLE content_facts (
    digest BLOB PRIMARY KEY,
    analyzer TEXT NOT NULL,
    facts BLOB NOT NULL               -- tagged JSON; derived facts only, never file contents
);

ALTER TABLE search_entries RENAME TO old_search_entries;
DROP INDEX search_entries_path;
CREATE TABLE search_entries (
    rowid INTEGER PRIMARY KEY,
    path INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('path', 'symbol', 'doc')),
    name TEXT NOT NULL,               -- qualified symbol name, heading text, or '' for paths
    line INTEGER
);
CREATE INDEX search_entries_path ON search_entries(path);
