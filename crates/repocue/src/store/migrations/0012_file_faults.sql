-- Per-file faults of a snapshot: tracked paths its scan could not read (permission denied,
-- I/O error), that vanished between Git's status and the read, or whose parse ran out of
-- time. JSON array of [hex path, kind] pairs, sorted by path. The snapshot keeps such a path's
-- last known state and carries the `file_faults` caveat; the next refresh reads the path
-- again whatever its stat data says. Snapshots from before had no faults: scans failed instead.
ALTER TABLE snapshots ADD COLUMN faults TEXT NOT NULL DEFAULT '[]';
