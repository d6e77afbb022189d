-- Full-text search over paths, symbols and document headings of the current snapshot.
-- The FTS5 table is contentless: it stores only the inverted index, never text; what a hit
-- shows comes from search_entries (names, signatures, headings: structural facts).
CREATE VIRTUAL TABLE search_fts USING fts5(
    name,
    detail,
    content = '',
    contentless_delete = 1,
    tokenize = 'unicode61 remove_diacritics 2'
);

CREATE TABLE search_entries (
    rowid INTEGER PRIMARY KEY,
    path BLOB NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('path', 'symbol', 'doc')),
    entity TEXT NOT NULL,
    name TEXT NOT NULL,
    title TEXT NOT NULL,
    line INTEGER
);
CREATE INDEX search_entries_path ON search_entries(path);
