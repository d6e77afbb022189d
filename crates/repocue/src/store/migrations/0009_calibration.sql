-- Calibration references: one row per imported calibration profile, binding an immutable
-- artifact (calibrations/<id>.json beside this database) to the epoch and snapshot it was
-- validated against. Only numbers and digests live here; answers, prompts and raw runner
-- streams stay in the operator's external experiment directory.
CREATE TABLE calibration_references (
    calibration_id TEXT PRIMARY KEY,
    -- No foreign keys: prune may delete the bound snapshot; the artifact carries the
    -- profile, so the reference stays meaningful by its sequence numbers.
    epoch INTEGER NOT NULL,
    snapshot INTEGER NOT NULL,
    artifact_path TEXT NOT NULL,
    artifact_digest TEXT NOT NULL,
    bound_at TEXT NOT NULL,
    content_fingerprint TEXT NOT NULL,
    fingerprint_algorithm TEXT NOT NULL,
    contract_digest TEXT NOT NULL,
    model TEXT NOT NULL,
    benchmark TEXT NOT NULL,
    created_at TEXT NOT NULL
);
