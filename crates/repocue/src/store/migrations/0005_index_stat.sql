-- Stat signature (size, mtime, inode) of the Git index file the snapshot's index listing was
-- taken from. Git replaces the index by rename, so an equal signature means an equal index and
-- the listing need not be taken again. A cache, updated in place.
ALTER TABLE snapshots ADD COLUMN index_stat TEXT;

-- Tracked files per snapshot, so status need not count rows.
ALTER TABLE snapshots ADD COLUMN file_count INTEGER;

-- The rows a freshness check must look at (not clean, or flagged): few, found without a scan.
CREATE INDEX file_versions_unsettled ON file_versions(epoch, start_seq)
    WHERE working_state != 'clean' OR assume_unchanged OR skip_worktree;
