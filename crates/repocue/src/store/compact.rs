//! Compact storage, introduced by migration 10: every path is stored once (in `paths`) and
//! found by a 64-bit hash of its bytes, Git object ids and content digests are bytes rather
//! than hex, and content facts are deflated when that makes them smaller.

use miniz_oxide::deflate::compress_to_vec;
use miniz_oxide::inflate::decompress_to_vec_with_limit;
use rusqlite::{params, Connection, OptionalExtension, Transaction};
use sha2::{Digest, Sha256};

use crate::digest::hex;
use crate::error::Result;

/// Facts stored as they are.
const RAW: u8 = 0;
/// Facts stored deflated.
const DEFLATE: u8 = 1;
/// Shorter facts are stored raw: deflate's framing would not pay for itself.
const DEFLATE_FROM: usize = 96;
/// Inflated facts larger than this are refused as corrupt (no analysis comes near it).
const MAX_FACTS_BYTES: usize = 64 << 20;

/// The hash a path is looked up by: the first 8 bytes of its SHA-256, as a signed integer.
pub(crate) fn path_hash(path: &[u8]) -> i64 {
    let d = Sha256::digest(path);
    let mut first = [0u8; 8];
    first.copy_from_slice(&d[..8]);
    i64::from_be_bytes(first)
}

/// Returns the id of a stored path, if it is stored.
pub(crate) fn path_id(conn: &Connection, path: &[u8]) -> rusqlite::Result<Option<i64>> {
    conn.prepare_cached("SELECT id FROM paths WHERE hash = ?1 AND path = ?2")?
        .query_row(params![path_hash(path), path], |r| r.get(0))
        .optional()
}

/// Returns the id of a path, storing the path first when it is new.
pub(crate) fn intern_path(conn: &Connection, path: &[u8]) -> rusqlite::Result<i64> {
    if let Some(id) = path_id(conn, path)? {
        return Ok(id);
    }
    conn.prepare_cached("INSERT INTO paths (path, hash) VALUES (?1, ?2)")?
        .execute(params![path, path_hash(path)])?;
    Ok(conn.last_insert_rowid())
}

/// The stored form of a hex object id or digest: its bytes. Ids and digests are produced by
/// Git and by this crate as lowercase hex; anything else is kept as its text bytes.
pub(crate) fn id_bytes(hex_id: &str) -> Vec<u8> {
    unhex(hex_id).unwrap_or_else(|| hex_id.as_bytes().to_vec())
}

/// The hex form of stored id bytes.
pub(crate) fn id_hex(bytes: &[u8]) -> String {
    hex(bytes)
}

fn unhex(h: &str) -> Option<Vec<u8>> {
    if h.len() % 2 != 0 || !h.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
        return None;
    }
    (0..h.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&h[i..i + 2], 16).ok())
        .collect()
}

/// The stored form of facts JSON: a tag byte, then the JSON raw or deflated.
pub(crate) fn encode_facts(json: &str) -> Vec<u8> {
    if json.len() >= DEFLATE_FROM {
        let z = compress_to_vec(json.as_bytes(), 6);
        if z.len() + 1 < json.len() {
            let mut out = Vec::with_capacity(z.len() + 1);
            out.push(DEFLATE);
            out.extend_from_slice(&z);
            return out;
        }
    }
    let mut out = Vec::with_capacity(json.len() + 1);
    out.push(RAW);
    out.extend_from_slice(json.as_bytes());
    out
}

/// The facts JSON of a stored value; `None` when it does not decode.
pub(crate) fn decode_facts(stored: &[u8]) -> Option<String> {
    let (tag, body) = stored.split_first()?;
    let bytes = match *tag {
        RAW => body.to_vec(),
        DEFLATE => decompress_to_vec_with_limit(body, MAX_FACTS_BYTES).ok()?,
        _ => return None,
    };
    String::from_utf8(bytes).ok()
}

/// Migration 10: moves file versions, content facts and search entries into their compact
/// tables (ids, row ids and the full-text index are kept, so nothing is derived again).
pub(crate) fn migrate(tx: &Transaction<'_>) -> Result<()> {
    tx.execute_batch(include_str!("migrations/0010_compact.sql"))?;
    let paths: Vec<Vec<u8>> = tx
        .prepare(
            "SELECT path FROM old_file_versions UNION SELECT path FROM old_search_entries
             ORDER BY 1",
        )?
        .query_map([], |r| r.get(0))?
        .collect::<rusqlite::Result<_>>()?;
    for p in &paths {
        intern_path(tx, p)?;
    }
    // A temporary index makes the joins below lookups instead of scans.
    tx.execute_batch(
        "CREATE TEMP TABLE path_ids AS SELECT id, path FROM paths;
         CREATE INDEX temp.path_ids_path ON path_ids(path);
         INSERT INTO file_versions
           SELECT o.id, o.epoch, o.start_seq, o.end_seq, p.id, o.index_mode, unhex(o.index_oid),
                  o.worktree_mode, o.size, unhex(o.digest), o.file_type, o.language, o.is_document,
                  o.working_state, o.assume_unchanged, o.skip_worktree, o.st_size, o.st_mtime_ns,
                  o.st_ctime_ns, o.st_ino
           FROM old_file_versions o JOIN path_ids p ON p.path = o.path;
         INSERT INTO search_entries
           SELECT e.rowid, p.id, e.kind, e.name, e.line
           FROM old_search_entries e JOIN path_ids p ON p.path = e.path;
         DROP TABLE path_ids;",
    )?;
    {
        let mut read = tx.prepare("SELECT digest, analyzer, facts FROM old_content_facts")?;
        let mut write =
            tx.prepare("INSERT INTO content_facts (digest, analyzer, facts) VALUES (?1, ?2, ?3)")?;
        let mut rows = read.query([])?;
        while let Some(r) = rows.next()? {
            let digest: String = r.get(0)?;
            let analyzer: String = r.get(1)?;
            let json: String = r.get(2)?;
            write.execute(params![id_bytes(&digest), analyzer, encode_facts(&json)])?;
        }
    }
    tx.execute_batch(
        "DROP TABLE old_file_versions;
         DROP TABLE old_content_facts;
         DROP TABLE old_search_entries;",
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::SearchKind;
    use crate::refresh::{self, Operation};
    use crate::testing::{raw_db, temp_repo};

    /// Rewrites a current cache into the layout of schema version 9 (paths inline, hex ids,
    /// JSON facts, no file classes), as a cache written before migrations 10 to 12.
    fn downgrade_to_v9(db: &rusqlite::Connection) {
        let facts: Vec<(Vec<u8>, String, Vec<u8>)> = db
            .prepare("SELECT digest, analyzer, facts FROM content_facts")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        db.execute_batch(
            "CREATE TABLE fv9 (id INTEGER PRIMARY KEY, epoch INTEGER NOT NULL REFERENCES epochs(seq),
                start_seq INTEGER NOT NULL, end_seq INTEGER, path BLOB NOT NULL,
                index_mode INTEGER NOT NULL, index_oid TEXT NOT NULL, worktree_mode INTEGER,
                size INTEGER, digest TEXT, file_type TEXT NOT NULL, language TEXT,
                is_document INTEGER NOT NULL, working_state TEXT NOT NULL,
                assume_unchanged INTEGER NOT NULL, skip_worktree INTEGER NOT NULL,
                st_size INTEGER, st_mtime_ns INTEGER, st_ctime_ns INTEGER, st_ino INTEGER);
             INSERT INTO fv9 SELECT f.id, f.epoch, f.start_seq, f.end_seq, p.path, f.index_mode,
                lower(hex(f.index_oid)), f.worktree_mode, f.size,
                CASE WHEN f.digest IS NULL THEN NULL ELSE lower(hex(f.digest)) END,
                f.file_type, f.language, f.is_document, f.working_state, f.assume_unchanged,
                f.skip_worktree, f.st_size, f.st_mtime_ns, f.st_ctime_ns, f.st_ino
                FROM file_versions f JOIN paths p ON p.id = f.path;
             DROP TABLE file_versions;
             ALTER TABLE fv9 RENAME TO file_versions;
             CREATE INDEX file_versions_current ON file_versions(epoch, end_seq, path);
             CREATE INDEX file_versions_unsettled ON file_versions(epoch, start_seq)
                WHERE working_state != 'clean' OR assume_unchanged OR skip_worktree;
             CREATE TABLE se9 (rowid INTEGER PRIMARY KEY, path BLOB NOT NULL,
                kind TEXT NOT NULL, name TEXT NOT NULL, title TEXT, line INTEGER);
             INSERT INTO se9 SELECT e.rowid, p.path, e.kind, e.name, NULL, e.line
                FROM search_entries e JOIN paths p ON p.id = e.path;
             DROP TABLE search_entries;
             ALTER TABLE se9 RENAME TO search_entries;
             CREATE INDEX search_entries_path ON search_entries(path);
             DROP TABLE paths;
             ALTER TABLE snapshots DROP COLUMN rules_digest;
             ALTER TABLE snapshots DROP COLUMN secret_content;
             ALTER TABLE snapshots DROP COLUMN faults;
             DROP TABLE content_facts;
             CREATE TABLE content_facts (digest TEXT PRIMARY KEY, analyzer TEXT NOT NULL,
                facts TEXT NOT NULL);
             PRAGMA user_version = 9;",
        )
        .unwrap();
        for (digest, analyzer, stored) in facts {
            db.execute(
                "INSERT INTO content_facts VALUES (?1, ?2, ?3)",
                params![id_hex(&digest), analyzer, decode_facts(&stored).unwrap()],
            )
            .unwrap();
        }
    }

    #[test]
    fn migration_10_keeps_every_file_fact_and_search_entry() {
        let t = temp_repo(&[
            (
                "src/lib.rs",
                "/// Adds.\npub fn add(a: i32, b: i32) -> i32 { a + b }\n",
            ),
            ("README.md", "# Demo\n\n## Usage\n"),
            ("empty.txt", ""),
        ]);
        std::fs::write(t.repo.root.join("README.md"), "# Demo\n\nEdited.\n").unwrap();
        refresh::run(&t.repo, &Operation::Init).unwrap();
        let read = || {
            let store = t.repo.open_store(false).unwrap().unwrap();
            let snap = store.current_snapshot().unwrap().unwrap();
            let files = store.files_at(&snap).unwrap();
            let digests: Vec<String> = files.iter().filter_map(|f| f.digest.clone()).collect();
            let refs: Vec<&str> = digests.iter().map(String::as_str).collect();
            let mut facts: Vec<_> = store.facts(&refs).unwrap().into_iter().collect();
            facts.sort_by(|a, b| a.0.cmp(&b.0));
            let facts = serde_json::to_string(&facts).unwrap();
            let hits =
                crate::search::find(&store, "\"add\"*", "add", &[SearchKind::Symbol], 5).unwrap();
            (files, facts, hits)
        };
        let before = read();
        assert_eq!(before.2.len(), 1);
        assert_eq!(before.2[0].title, "pub fn add(a: i32, b: i32) -> i32");
        downgrade_to_v9(&raw_db(&t.repo));
        let after = read();
        assert_eq!(after.0, before.0, "file states");
        assert_eq!(after.1, before.1, "content facts");
        assert_eq!(
            after.2, before.2,
            "search hits, signatures read from the facts"
        );
        let db = raw_db(&t.repo);
        let version: i64 = db
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, crate::store::SCHEMA_VERSION);
        let leftovers: i64 = db
            .query_row(
                "SELECT count(*) FROM sqlite_schema WHERE name LIKE 'old_%'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(leftovers, 0);
        // The migrated cache keeps working. Its snapshot has no rules digest (migration 11),
        // so the first refresh classifies every file once, in the same epoch; after that an
        // edit is refreshed incrementally.
        std::fs::write(t.repo.root.join("src/lib.rs"), "pub fn sub() {}\n").unwrap();
        let out = refresh::run(&t.repo, &Operation::Refresh).unwrap();
        assert!(out.published);
        assert_eq!(out.files_scanned, 3);
        std::fs::write(t.repo.root.join("src/lib.rs"), "pub fn mul() {}\n").unwrap();
        let next = refresh::run(&t.repo, &Operation::Refresh).unwrap();
        assert_eq!((next.files_scanned, next.epoch), (1, out.epoch));
    }

    #[test]
    fn facts_round_trip_raw_and_deflated() {
        let short = r#"{"code":{"language":"C"}}"#;
        assert_eq!(encode_facts(short)[0], RAW);
        let long = format!(
            r#"{{"code":{{"symbols":[{}]}}}}"#,
            vec![r#"{"q":"name","k":"function","s":"fn name()"}"#; 40].join(",")
        );
        let stored = encode_facts(&long);
        assert_eq!(stored[0], DEFLATE);
        assert!(
            stored.len() * 4 < long.len(),
            "{} vs {}",
            stored.len(),
            long.len()
        );
        assert_eq!(decode_facts(&stored).as_deref(), Some(long.as_str()));
        assert_eq!(decode_facts(&encode_facts(short)).as_deref(), Some(short));
        assert_eq!(decode_facts(&[9, 1, 2]), None, "unknown tag");
        assert_eq!(decode_facts(&[DEFLATE, 0xff, 0x00]), None, "broken stream");
        assert_eq!(decode_facts(&[]), None);
    }

    #[test]
    fn ids_are_stored_as_bytes_and_read_back_as_hex() {
        let oid = "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391";
        assert_eq!(id_bytes(oid).len(), 20);
        assert_eq!(id_hex(&id_bytes(oid)), oid);
        assert_eq!(id_bytes("not-hex"), b"not-hex".to_vec());
    }

    #[test]
    fn path_hashes_differ_and_are_stable() {
        assert_ne!(path_hash(b"a.rs"), path_hash(b"b.rs"));
        assert_eq!(path_hash(b"src/lib.rs"), path_hash(b"src/lib.rs"));
    }
}
