-- Delta operations are recomputed by the delta view from the two snapshots' rows and the
-- content facts (docs/adr/0003-deltas-recomputed-not-stored.md); the stored copies were never
-- read. `deltas` keeps the id linking a snapshot to its parent; `delta_items` is no longer
-- written.
DELETE FROM delta_items;

-- Cached view values are now keyed by the version of the code that derived them, and pruned
-- with their snapshot. Entries written before carry no version (and some belong to snapshots
-- pruning already removed): drop them; they are derived again on first use.
DELETE FROM view_cache;
DELETE FROM rank_cache;

-- Small named settings of the store. `facts_checked` is the analyzer version every digest of
-- the current snapshot was last brought up to; a refresh by another analyzer version re-reads
-- only the files whose facts are older.
CREATE TABLE settings (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
