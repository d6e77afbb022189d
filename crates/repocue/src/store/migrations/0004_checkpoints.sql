-- Checkpoints: deliberately retained snapshots (release, milestone, user pin). A snapshot
-- with a checkpoint is never pruned.
CREATE TABLE checkpoints (
    seq INTEGER PRIMARY KEY,
    snapshot INTEGER NOT NULL REFERENCES snapshots(seq),
    label TEXT NOT NULL,
    created_at TEXT NOT NULL
);
CREATE INDEX checkpoints_snapshot ON checkpoints(snapshot);
