-- Paths are no longer full-text entries: a path query reads the `paths` table and matches its
-- words in Rust (search::Terms::path_score), as the index did. On babel/babel the path entries
-- were 1.75 MB of a 15.2 MB database (one entry per file: its words, its document size, its
-- row), and their words repeated each directory's for every file below it.
-- Every file's entries began with its path entry (search::rows), so each range loses its
-- first row id.
DELETE FROM search_fts WHERE rowid IN (SELECT rowid FROM search_entries WHERE kind = 0);
DELETE FROM search_entries WHERE kind = 0;
UPDATE paths
   SET search_first = CASE WHEN search_count > 1 THEN search_first + 1 END,
       search_count = CASE WHEN search_count > 1 THEN search_count - 1 END
 WHERE search_first IS NOT NULL;
