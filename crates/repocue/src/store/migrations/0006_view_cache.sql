-- Per-snapshot derived data of views (overview candidates, manifest counts). A snapshot's
-- content never changes, so entries never go stale; pruning removes them with the snapshot.
CREATE TABLE view_cache (
    snapshot INTEGER NOT NULL,
    view TEXT NOT NULL,
    json TEXT NOT NULL,
    PRIMARY KEY (snapshot, view)
);
