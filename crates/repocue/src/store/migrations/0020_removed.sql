-- The paths HEAD holds that a snapshot's index no longer does (staged deletions, the old
-- paths of staged renames): they are no file of the snapshot, so the overview's working tree
-- and the manifest's dirty paths missed them. Snapshots published before know none.
ALTER TABLE snapshots ADD COLUMN removed TEXT NOT NULL DEFAULT '[]';
