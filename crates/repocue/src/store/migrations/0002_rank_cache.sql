-- Ranked symbols per snapshot, computed on first use by the overview. A snapshot's content
-- never changes, so the cache never goes stale; rows of removed snapshots are dead weight
-- that pruning deletes.
CREATE TABLE rank_cache (
    snapshot INTEGER PRIMARY KEY,
    symbols TEXT NOT NULL
);
