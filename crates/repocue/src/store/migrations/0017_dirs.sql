-- Paths as a directory and a name (run by store::dirs::migrate, which fills the new columns
-- from `path` and then drops it). `dirs` holds each directory once, under its parent
-- (0: the top level); its ids are never used twice (AUTOINCREMENT), so a process may keep the
-- rows it has read. `paths.dir` 0 is the top level.
CREATE TABLE dirs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    parent INTEGER NOT NULL,
    name BLOB NOT NULL
);
ALTER TABLE paths ADD COLUMN dir INTEGER NOT NULL DEFAULT 0;
ALTER TABLE paths ADD COLUMN name BLOB NOT NULL DEFAULT x'';
