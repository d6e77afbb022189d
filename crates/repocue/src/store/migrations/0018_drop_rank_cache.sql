-- The overview's ranked symbols moved into `view_cache` (ADR 0006), and nothing has read or
-- written `rank_cache` since: only pruning still deleted from it. Dropped with its rows.
DROP TABLE IF EXISTS rank_cache;
