-- Stat signature (size, mtime, inode) of the Git index file the snapshot's index listing was
-- taken from. Git replaces the index by rename, so an equal signature means an equal index and
-- the listing need not be taken again. A cache, updated in place.
ALTER TABLE snapshots ADD COLUMN index_stat TEXT;
