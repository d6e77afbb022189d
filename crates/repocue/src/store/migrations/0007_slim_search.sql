-- Slimmer search entries: the entity id, short name and (for paths and headings) the title
-- are derived from kind, path and name at query time instead of being stored. The next
-- refresh rebuilds the emptied index.
DROP TABLE search_entries;
DELETE FROM search_fts;
CREATE TABLE search_entries (
    rowid INTEGER PRIMARY KEY,
    path BLOB NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('path', 'symbol', 'doc')),
    name TEXT NOT NULL,               -- qualified symbol name, heading text, or '' for paths
    title TEXT,                       -- signature, for symbols only
    line INTEGER
);
CREATE INDEX search_entries_path ON search_entries(path);
