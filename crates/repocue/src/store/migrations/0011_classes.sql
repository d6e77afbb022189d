-- What analysis does with each tracked file: `source` (analysed), `vendored`, `generated`
-- (not analysed, path still searchable), `excluded` (configuration: not analysed, searched or
-- listed) or `secret` (by name or content: never analysed, indexed or named). Decided from
-- built-in rules, `.repocue/config.toml`, Git attributes and a file's first bytes.
ALTER TABLE file_versions ADD COLUMN class TEXT NOT NULL DEFAULT 'source';

-- The digest of the analysis rules a snapshot was classified under (configuration, built-in
-- rule version, `info/attributes`), and whether file contents were checked for secrets.
-- Snapshots written before carry neither: the next refresh classifies every file again
-- (reading each once for the content check) without starting a new epoch.
ALTER TABLE snapshots ADD COLUMN rules_digest TEXT;
ALTER TABLE snapshots ADD COLUMN secret_content INTEGER;
