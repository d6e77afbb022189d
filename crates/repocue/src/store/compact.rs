//! Compact storage, introduced by migration 10: every path is stored once (in `paths`) and
//! found by a hash of its bytes (23 bits since migration 16), Git object ids and content digests are bytes rather
//! than hex, and content facts are deflated when that makes them smaller (after a preset
//! dictionary since ADR 0016: see [`super::primed`]). Migration 13 made
//! rows leaner still: kinds are small integers, stat values equal to their twins are NULL,
//! content facts are keyed by an integer prefix of their digest, and a path row names the
//! range of its search entries: neither table needs a second index.

use miniz_oxide::inflate::decompress_to_vec_with_limit;
use rusqlite::{params, Connection, OptionalExtension, Transaction};
use sha2::{Digest, Sha256};

use crate::digest::{hex, unhex};
use crate::error::Result;
use crate::model::{FileClass, FileType, WorkingState};

/// Facts stored as they are.
const RAW: u8 = 0;
/// Facts stored deflated (written by caches before the primed form; still read).
const DEFLATE: u8 = 1;
/// Facts stored deflated after the preset dictionary of [`super::primed`].
const DEFLATE_PRIMED: u8 = 2;
/// Shorter facts are stored raw: not even the primed stream's framing pays for itself.
const DEFLATE_FROM: usize = 24;
/// Inflated facts larger than this are refused as corrupt (no analysis comes near it).
const MAX_FACTS_BYTES: usize = 64 << 20;

/// The hash a path is looked up by: the first 23 bits of its SHA-256, a non-negative integer
/// that SQLite stores in 3 bytes, in the row and in the index (8 bytes each before migration
/// 16). It only narrows the search: paths that share a hash (a few dozen pairs among 100,000
/// paths) are told apart by their bytes.
pub(crate) fn path_hash(path: &[u8]) -> i64 {
    let d = Sha256::digest(path);
    i64::from(u32::from_be_bytes([0, d[0], d[1], d[2]]) >> 1)
}

/// Migration 16: every path's hash recomputed as [`path_hash`] now computes it (whatever an
/// earlier migration of this run computed), and the index rebuilt packed.
pub(crate) fn migrate_narrow_path_hashes(tx: &Transaction<'_>) -> Result<()> {
    let rows: Vec<(i64, Vec<u8>)> = tx
        .prepare("SELECT id, path FROM paths")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    tx.execute_batch("DROP INDEX paths_hash")?;
    let mut set = tx.prepare("UPDATE paths SET hash = ?1 WHERE id = ?2")?;
    for (id, path) in rows {
        set.execute(params![path_hash(&path), id])?;
    }
    tx.execute_batch("CREATE INDEX paths_hash ON paths(hash)")?;
    Ok(())
}

/// Returns the id of a stored path, if it is stored, in the `paths(path)` table of migrations
/// 10 to 16 (migration 17 split it: see [`super::dirs`]).
fn legacy_path_id(conn: &Connection, path: &[u8]) -> rusqlite::Result<Option<i64>> {
    conn.prepare_cached("SELECT id FROM paths WHERE hash = ?1 AND path = ?2")?
        .query_row(params![path_hash(path), path], |r| r.get(0))
        .optional()
}

/// Returns the id of a path, storing the path first when it is new, in the `paths(path)`
/// table of migrations 10 to 16.
fn legacy_intern_path(conn: &Connection, path: &[u8]) -> rusqlite::Result<i64> {
    if let Some(id) = legacy_path_id(conn, path)? {
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

/// The stored form of facts JSON: a tag byte, then the JSON raw or deflated after the preset
/// dictionary, whichever is shorter.
pub(crate) fn encode_facts(json: &str) -> Vec<u8> {
    if json.len() >= DEFLATE_FROM {
        let z = super::primed::compress(json.as_bytes());
        if z.len() + 1 < json.len() {
            let mut out = Vec::with_capacity(z.len() + 1);
            out.push(DEFLATE_PRIMED);
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
        DEFLATE_PRIMED => super::primed::decompress(body, MAX_FACTS_BYTES)?,
        _ => return None,
    };
    String::from_utf8(bytes).ok()
}

/// Stored codes of the file kinds: a value's position in its list. Append only: a cache
/// written by an earlier version must read the same. Code 0, the commonest value, is stored
/// in no bytes at all (SQLite's record format has a type for the integers 0 and 1).
pub(crate) const FILE_TYPES: [FileType; 6] = [
    FileType::Text,
    FileType::Binary,
    FileType::Symlink,
    FileType::Gitlink,
    FileType::Missing,
    FileType::Unreadable,
];
/// See [`FILE_TYPES`]. `clean` must stay 0: the partial index `file_versions_unsettled` and
/// the query that uses it say `working_state != 0`.
pub(crate) const WORKING_STATES: [WorkingState; 6] = [
    WorkingState::Clean,
    WorkingState::Staged,
    WorkingState::Unstaged,
    WorkingState::StagedUnstaged,
    WorkingState::Deleted,
    WorkingState::Conflicted,
];
/// See [`FILE_TYPES`].
pub(crate) const FILE_CLASSES: [FileClass; 5] = [
    FileClass::Source,
    FileClass::Vendored,
    FileClass::Generated,
    FileClass::Excluded,
    FileClass::Secret,
];
/// See [`FILE_TYPES`]; the kinds of search entries.
pub(crate) const SEARCH_KINDS: [&str; 3] = ["path", "symbol", "doc"];

/// Languages as `file_versions.language` stores them: a name's position in this list, as text
/// (one or two bytes where the name took up to sixteen; the column is TEXT, and a migration
/// that turns it into an integer column would rewrite the table). Append only, like
/// [`FILE_TYPES`]. A name that is not listed is stored as itself; a test keeps every language
/// the detector names listed.
pub(crate) const LANGUAGES: [&str; 61] = [
    "Rust",
    "Python",
    "Go",
    "JavaScript",
    "TypeScript",
    "TSX",
    "Java",
    "C",
    "C++",
    "C#",
    "Ruby",
    "Shell",
    "PHP",
    "Makefile",
    "Dockerfile",
    "CMake",
    "Meson",
    "Starlark",
    "Just",
    "Kotlin",
    "Swift",
    "Scala",
    "Objective-C",
    "Objective-C++",
    "Lua",
    "Perl",
    "R",
    "Dart",
    "Elixir",
    "Erlang",
    "Haskell",
    "OCaml",
    "Clojure",
    "Zig",
    "Nim",
    "Vue",
    "Svelte",
    "SQL",
    "HTML",
    "CSS",
    "SCSS",
    "Markdown",
    "reStructuredText",
    "AsciiDoc",
    "Text",
    "TOML",
    "YAML",
    "JSON",
    "XML",
    "Protocol Buffers",
    "Nix",
    "HCL",
    "Gradle",
    "PowerShell",
    "Batchfile",
    "Assembly",
    "RDoc",
    "Tcl",
    "Visual Basic .NET",
    "F#",
    "Gherkin",
];

/// The stored form of a language name (see [`LANGUAGES`]).
pub(crate) fn language_code(name: &str) -> std::borrow::Cow<'_, str> {
    match LANGUAGES.iter().position(|l| *l == name) {
        Some(i) => i.to_string().into(),
        None => name.into(),
    }
}

/// The language name a stored value means (see [`LANGUAGES`]): a code of this version's list,
/// or a name stored as itself.
pub(crate) fn language_name(stored: &str) -> String {
    if stored.is_empty() || !stored.bytes().all(|b| b.is_ascii_digit()) {
        return stored.to_owned();
    }
    match stored.parse::<usize>().ok().and_then(|i| LANGUAGES.get(i)) {
        Some(name) => (*name).to_owned(),
        None => stored.to_owned(),
    }
}

/// Migration 15: languages stored as names become codes (see [`LANGUAGES`]), in one pass.
pub(crate) fn migrate_language_codes(tx: &Transaction<'_>) -> Result<()> {
    let cases: String = LANGUAGES
        .iter()
        .enumerate()
        .map(|(i, name)| format!(" WHEN '{name}' THEN '{i}'"))
        .collect();
    let names: Vec<String> = LANGUAGES.iter().map(|n| format!("'{n}'")).collect();
    tx.execute_batch(&format!(
        "UPDATE file_versions SET language = CASE language{cases} END
         WHERE language IN ({})",
        names.join(", ")
    ))?;
    Ok(())
}

/// The stored code of `value` in `list` (see [`FILE_TYPES`]).
pub(crate) fn code<T: PartialEq>(list: &[T], value: T) -> i64 {
    list.iter()
        .position(|v| *v == value)
        .expect("every value is listed") as i64
}

/// The value of a stored code; `None` for a code this version does not know.
pub(crate) fn from_code<T: Copy>(list: &[T], code: i64) -> Option<T> {
    usize::try_from(code)
        .ok()
        .and_then(|i| list.get(i).copied())
}

/// The key content facts are stored under: the first 8 bytes of the digest, as a signed
/// integer (the row id, so the table needs no second index). The full digest is stored too and
/// checked by every lookup; of two digests with one key only the first is stored, and the
/// other's content is analysed again when needed (with 2^64 keys, never in practice).
pub(crate) fn digest_key(digest: &[u8]) -> Option<i64> {
    let first: [u8; 8] = digest.get(..8)?.try_into().ok()?;
    Some(i64::from_be_bytes(first))
}

/// The key and stored bytes of a hex digest (see [`digest_key`]).
pub(crate) fn fact_key(hex_digest: &str) -> (Option<i64>, Vec<u8>) {
    let bytes = id_bytes(hex_digest);
    (digest_key(&bytes), bytes)
}

/// Registers `digest_key(blob)`, [`digest_key`] in SQL, on a connection: joins from file
/// versions to content facts need it.
pub(crate) fn register_functions(conn: &Connection) -> rusqlite::Result<()> {
    use rusqlite::functions::FunctionFlags;
    conn.create_scalar_function(
        "digest_key",
        1,
        FunctionFlags::SQLITE_UTF8
            | FunctionFlags::SQLITE_DETERMINISTIC
            | FunctionFlags::SQLITE_INNOCUOUS,
        |ctx| {
            Ok(match ctx.get_raw(0) {
                rusqlite::types::ValueRef::Blob(b) => digest_key(b),
                _ => None,
            })
        },
    )
}

/// The CASE expression that turns the text a column held before migration 13 into its code.
/// A text without a code becomes NULL, which the NOT NULL column refuses: a corrupt cache is
/// an error, never a default.
fn case_of(column: &str, names: &[&str]) -> String {
    let arms: Vec<String> = names
        .iter()
        .enumerate()
        .map(|(code, name)| format!("WHEN '{name}' THEN {code}"))
        .collect();
    format!("CASE {column} {} END", arms.join(" "))
}

/// Migration 13: leaner rows (see the module documentation). File versions and content facts
/// are moved; the search index is emptied, and the next refresh rebuilds it from the stored
/// facts (its row ids cannot be renumbered: the full-text index keeps no text).
pub(crate) fn migrate_lean(tx: &Transaction<'_>) -> Result<()> {
    let file_type = case_of("file_type", &FILE_TYPES.map(FileType::as_str));
    let working = case_of("working_state", &WORKING_STATES.map(WorkingState::as_str));
    let class = case_of("class", &FILE_CLASSES.map(FileClass::as_str));
    tx.execute_batch(include_str!("migrations/0013_lean_rows.sql"))?;
    tx.execute_batch(&format!(
        "INSERT INTO file_versions
           SELECT id, epoch, start_seq, end_seq, path, index_mode, index_oid,
                  CASE WHEN worktree_mode IS NULL THEN 0
                       WHEN worktree_mode = index_mode THEN NULL ELSE worktree_mode END,
                  size, digest, {file_type}, language, is_document, {working},
                  assume_unchanged, skip_worktree,
                  CASE WHEN st_size IS size THEN NULL ELSE st_size END,
                  st_mtime_ns,
                  CASE WHEN st_ctime_ns = st_mtime_ns THEN NULL ELSE st_ctime_ns END,
                  st_ino, {class}
           FROM old_file_versions;
         INSERT OR IGNORE INTO content_facts
           SELECT digest_key(digest), digest, analyzer, facts FROM old_content_facts
           WHERE digest_key(digest) IS NOT NULL ORDER BY digest;
         DROP TABLE old_file_versions;
         DROP TABLE old_content_facts;
         CREATE INDEX file_versions_current ON file_versions(epoch, end_seq, path);
         CREATE INDEX file_versions_unsettled ON file_versions(epoch, start_seq)
             WHERE working_state != 0 OR assume_unchanged OR skip_worktree;"
    ))?;
    Ok(())
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
        legacy_intern_path(tx, p)?;
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

    /// The CASE expression that turns a stored code back into the text it was before
    /// migration 13.
    fn name_of(column: &str, names: &[&str]) -> String {
        let arms: Vec<String> = names
            .iter()
            .enumerate()
            .map(|(code, name)| format!("WHEN {code} THEN '{name}'"))
            .collect();
        format!("CASE {column} {} END", arms.join(" "))
    }

    /// Rewrites a current cache into the layout of schema version 9 (paths inline, hex ids,
    /// JSON facts, text kinds, no file classes), as a cache written before migrations 10 to 13.
    fn downgrade_to_v9(db: &rusqlite::Connection) {
        super::super::dirs::downgrade_to_v16(db);
        let file_type = name_of("f.file_type", &FILE_TYPES.map(FileType::as_str));
        let working = name_of("f.working_state", &WORKING_STATES.map(WorkingState::as_str));
        let kind = name_of("e.kind", &SEARCH_KINDS);
        let facts: Vec<(Vec<u8>, String, Vec<u8>)> = db
            .prepare("SELECT digest, analyzer, facts FROM content_facts")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        db.execute_batch(&format!(
            "CREATE TABLE fv9 (id INTEGER PRIMARY KEY, epoch INTEGER NOT NULL REFERENCES epochs(seq),
                start_seq INTEGER NOT NULL, end_seq INTEGER, path BLOB NOT NULL,
                index_mode INTEGER NOT NULL, index_oid TEXT NOT NULL, worktree_mode INTEGER,
                size INTEGER, digest TEXT, file_type TEXT NOT NULL, language TEXT,
                is_document INTEGER NOT NULL, working_state TEXT NOT NULL,
                assume_unchanged INTEGER NOT NULL, skip_worktree INTEGER NOT NULL,
                st_size INTEGER, st_mtime_ns INTEGER, st_ctime_ns INTEGER, st_ino INTEGER);
             INSERT INTO fv9 SELECT f.id, f.epoch, f.start_seq, f.end_seq, p.path, f.index_mode,
                lower(hex(f.index_oid)),
                CASE f.worktree_mode WHEN 0 THEN NULL ELSE coalesce(f.worktree_mode, f.index_mode) END,
                f.size, CASE WHEN f.digest IS NULL THEN NULL ELSE lower(hex(f.digest)) END,
                {file_type}, f.language, f.is_document, {working}, f.assume_unchanged,
                f.skip_worktree,
                CASE WHEN f.st_mtime_ns IS NULL THEN NULL ELSE coalesce(f.st_size, f.size) END,
                f.st_mtime_ns, coalesce(f.st_ctime_ns, f.st_mtime_ns), f.st_ino
                FROM file_versions f JOIN paths p ON p.id = f.path;
             DROP TABLE file_versions;
             ALTER TABLE fv9 RENAME TO file_versions;
             CREATE INDEX file_versions_current ON file_versions(epoch, end_seq, path);
             CREATE INDEX file_versions_unsettled ON file_versions(epoch, start_seq)
                WHERE working_state != 'clean' OR assume_unchanged OR skip_worktree;
             CREATE TABLE se9 (rowid INTEGER PRIMARY KEY, path BLOB NOT NULL,
                kind TEXT NOT NULL, name TEXT NOT NULL, title TEXT, line INTEGER);
             INSERT INTO se9 SELECT e.rowid, p.path, {kind}, e.name, NULL, e.line
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
             PRAGMA user_version = 9;"
        ))
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
    fn migrations_10_to_13_keep_every_file_state_and_fact_and_rebuild_the_search_index() {
        let t = temp_repo(&[
            (
                "src/lib.rs",
                "/// Adds.\npub fn add(a: i32, b: i32) -> i32 { a + b }\n",
            ),
            ("README.md", "# Demo\n\n## Usage\n"),
            ("empty.txt", ""),
            ("vendor/dep.js", "function dep() {}\n"),
            ("gone.txt", "soon deleted\n"),
            ("run.sh", "echo hi\n"),
        ]);
        // Every kind a coded or twinned column holds: edited, deleted (no work-tree mode),
        // a mode change (a work-tree mode of its own), vendored.
        std::fs::write(t.repo.root.join("README.md"), "# Demo\n\nEdited.\n").unwrap();
        std::fs::remove_file(t.repo.root.join("gone.txt")).unwrap();
        let script = t.repo.root.join("run.sh");
        let mut perms = std::fs::metadata(&script).unwrap().permissions();
        std::os::unix::fs::PermissionsExt::set_mode(&mut perms, 0o755);
        std::fs::set_permissions(&script, perms).unwrap();
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
            let hits = crate::search::find(
                &store,
                &crate::search::Terms::all_of(&["add"]),
                "add",
                &[SearchKind::Symbol],
                5,
            )
            .unwrap();
            (files, facts, hits)
        };
        let before = read();
        assert_eq!(before.2.len(), 1);
        assert_eq!(before.2[0].title, "pub fn add(a: i32, b: i32) -> i32");
        let by_path = |p: &str| before.0.iter().find(|f| f.path == p.as_bytes()).unwrap();
        assert_eq!(by_path("gone.txt").worktree_mode, None);
        assert_eq!(by_path("run.sh").worktree_mode, Some(0o100755));
        assert_eq!(by_path("run.sh").index_mode, 0o100644);
        assert_eq!(
            by_path("vendor/dep.js").class,
            crate::model::FileClass::Vendored
        );
        assert!(before.0.iter().filter(|f| f.stat.is_some()).count() >= 4);
        downgrade_to_v9(&raw_db(&t.repo));
        let after = read();
        // Version 9 had no classes: migration 11 makes every file `source` until the next
        // refresh classifies it again.
        let unclassed: Vec<_> = before
            .0
            .iter()
            .map(|f| crate::model::FileState {
                class: crate::model::FileClass::Source,
                ..f.clone()
            })
            .collect();
        assert_eq!(after.0, unclassed, "file states");
        assert_eq!(after.1, before.1, "content facts");
        // Migration 13 emptied the full-text index (it cannot renumber its rows), and says so:
        // until the next refresh rebuilds it, no snapshot is current.
        assert_eq!(after.2, vec![]);
        let reader = crate::read::prepare(&t.repo, false).unwrap();
        assert_eq!(reader.freshness, crate::api::Freshness::RefreshNeeded);
        assert!(
            format!("{:?}", reader.warnings).contains("search index awaits its rebuild"),
            "{:?}",
            reader.warnings
        );
        drop(reader);
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
        // so the first refresh classifies every file once, in the same epoch, and it rebuilds
        // the search index; after that an edit is refreshed incrementally.
        let out = refresh::run(&t.repo, &Operation::Refresh).unwrap();
        assert_eq!(out.files_scanned as usize, before.0.len(), "every file");
        let refreshed = read();
        assert_eq!(refreshed.0, before.0, "file states, classified again");
        let reader = crate::read::prepare(&t.repo, false).unwrap();
        assert_ne!(reader.freshness, crate::api::Freshness::RefreshNeeded);
        drop(reader);
        assert_eq!(
            refreshed.2, before.2,
            "search hits, signatures read from the facts"
        );
        std::fs::write(t.repo.root.join("src/lib.rs"), "pub fn mul() {}\n").unwrap();
        let next = refresh::run(&t.repo, &Operation::Refresh).unwrap();
        // The edited file, and the deleted one (no stat data says it is still gone).
        assert_eq!((next.files_scanned, next.epoch), (2, out.epoch));
    }

    #[test]
    fn migration_14_takes_paths_out_of_the_full_text_index_and_keeps_the_rest() {
        let t = temp_repo(&[
            (
                "src/lib.rs",
                "pub fn add(a: i32, b: i32) -> i32 { a + b }\npub fn sub() {}\n",
            ),
            ("docs/guide.md", "# Guide\n\n## Install\n"),
            ("empty.txt", ""),
        ]);
        refresh::run(&t.repo, &Operation::Init).unwrap();
        // The index as version 13 wrote it: each listed file's entries, in consecutive row
        // ids, begin with an entry for its path (the file name's words, the path's others).
        {
            let db = raw_db(&t.repo);
            let store = t.repo.open_store(false).unwrap().unwrap();
            let snap = store.current_snapshot().unwrap().unwrap();
            let files = store.files_at(&snap).unwrap();
            let digests: Vec<&str> = files.iter().filter_map(|f| f.digest.as_deref()).collect();
            let facts = store.facts(&digests).unwrap();
            super::super::dirs::downgrade_to_v16(&db);
            db.execute_batch(
                "DELETE FROM search_fts; DELETE FROM search_entries;
                 UPDATE paths SET search_first = NULL, search_count = NULL;",
            )
            .unwrap();
            let mut next = 1;
            for f in &files {
                let analysis = f.digest.as_deref().and_then(|d| facts.get(d));
                let name =
                    crate::search::words(&crate::paths::display(crate::paths::file_name(&f.path)));
                let mut rows = vec![(0, String::new(), None, name.clone(), {
                    let all = crate::search::words(&crate::paths::display(&f.path));
                    all.split(' ')
                        .filter(|w| !name.split(' ').any(|n| n.eq_ignore_ascii_case(w)))
                        .collect::<Vec<_>>()
                        .join(" ")
                })];
                for e in crate::search::rows(f, analysis) {
                    let kind = code(&SEARCH_KINDS, e.kind);
                    rows.push((kind, e.name, e.line, e.index_name, e.index_detail));
                }
                let id: i64 = db
                    .query_row("SELECT id FROM paths WHERE path = ?1", [&f.path], |r| {
                        r.get(0)
                    })
                    .unwrap();
                db.execute(
                    "UPDATE paths SET search_first = ?1, search_count = ?2 WHERE id = ?3",
                    params![next, rows.len() as i64, id],
                )
                .unwrap();
                for (kind, name, line, index_name, index_detail) in rows {
                    db.execute(
                        "INSERT INTO search_entries (rowid, path, kind, name, line)
                         VALUES (?1, ?2, ?3, ?4, ?5)",
                        params![next, id, kind, name, line],
                    )
                    .unwrap();
                    db.execute(
                        "INSERT INTO search_fts (rowid, name, detail) VALUES (?1, ?2, ?3)",
                        params![next, index_name, index_detail],
                    )
                    .unwrap();
                    next += 1;
                }
            }
            db.execute_batch("PRAGMA user_version = 13;").unwrap();
        }
        let find = |words: &[&str], kinds: &[SearchKind]| {
            let store = t.repo.open_store(false).unwrap().unwrap();
            let hits =
                crate::search::find(&store, &crate::search::Terms::all_of(words), "", kinds, 10)
                    .unwrap();
            hits.into_iter().map(|h| h.entity).collect::<Vec<_>>()
        };
        // Opening migrates: no path entry is left in either table, in the index's words either.
        let paths = find(&["empty"], &[SearchKind::Path]);
        assert_eq!(paths, vec!["file:empty.txt"]);
        let db = raw_db(&t.repo);
        let count = |sql: &str| db.query_row(sql, [], |r| r.get::<_, i64>(0)).unwrap();
        assert_eq!(
            count("SELECT count(*) FROM search_entries WHERE kind = 0"),
            0
        );
        assert_eq!(
            count("SELECT count(*) FROM search_fts WHERE search_fts MATCH 'empty'"),
            0
        );
        // Each range lost its path entry and names just the file's other entries.
        let ranges = count(
            "SELECT count(*) FROM paths p WHERE p.search_first IS NOT NULL AND p.search_count !=
                (SELECT count(*) FROM search_entries e WHERE e.path = p.id
                   AND e.rowid BETWEEN p.search_first AND p.search_first + p.search_count - 1)",
        );
        assert_eq!(ranges, 0);
        assert_eq!(
            count("SELECT count(*) FROM paths WHERE search_first IS NULL"),
            1,
            "empty.txt has no other entry"
        );
        // Symbols, headings and paths are all found, and an edit replaces a file's entries.
        assert_eq!(
            find(&["add"], &[SearchKind::Symbol]),
            vec!["symbol:src/lib.rs:add"]
        );
        assert_eq!(
            find(&["install"], &[SearchKind::Doc]),
            vec!["doc:docs/guide.md#install"]
        );
        assert_eq!(find(&["lib"], &[SearchKind::Path]), vec!["file:src/lib.rs"]);
        std::fs::write(t.repo.root.join("src/lib.rs"), "pub fn mul() {}\n").unwrap();
        refresh::run(&t.repo, &Operation::Refresh).unwrap();
        assert_eq!(find(&["add"], &[SearchKind::Symbol]), Vec::<String>::new());
        assert_eq!(
            find(&["mul"], &[SearchKind::Symbol]),
            vec!["symbol:src/lib.rs:mul"]
        );
        // `mul`, and the guide's two headings.
        assert_eq!(count("SELECT count(*) FROM search_entries"), 3);
    }

    #[test]
    fn paths_are_found_by_words_in_any_case_ascii_or_not() {
        let t = temp_repo(&[
            ("docs/Über.md", "# Ü\n"),
            ("src/MainLoop.rs", "fn x() {}\n"),
            ("src/other.rs", "fn y() {}\n"),
        ]);
        refresh::run(&t.repo, &Operation::Init).unwrap();
        let store = t.repo.open_store(false).unwrap().unwrap();
        let found = |query: &str, any: bool| {
            let (all, some) = crate::search::query_terms(query).unwrap();
            let terms = if any { some } else { all };
            let hits = crate::search::find(&store, &terms, query, &[SearchKind::Path], 10).unwrap();
            hits.into_iter().map(|h| h.entity).collect::<Vec<_>>()
        };
        assert_eq!(found("über", false), vec!["file:docs/Über.md"]);
        // One word of each: the non-ASCII one cannot refuse paths in SQL, and is not lost.
        let mut any = found("ÜBER mainloop", true);
        any.sort();
        assert_eq!(any, vec!["file:docs/Über.md", "file:src/MainLoop.rs"]);
        // Identifier parts and case, as the index matched them.
        assert_eq!(found("main LOOP", false), vec!["file:src/MainLoop.rs"]);
        assert_eq!(found("loop other", false), Vec::<String>::new());
    }

    #[test]
    fn languages_are_stored_as_codes_that_read_back_as_names() {
        for l in repocue_structure::LANGUAGES {
            let stored = language_code(l.name);
            assert!(stored.len() <= 2, "{} is listed: {stored}", l.name);
            assert_eq!(language_name(&stored), l.name);
        }
        // A name this version does not list is stored, and read, as itself.
        assert_eq!(language_code("Brainfuck"), "Brainfuck");
        assert_eq!(language_name("Brainfuck"), "Brainfuck");
        // A code beyond the list (a newer version's) reads as it was stored.
        assert_eq!(language_name("999"), "999");
    }

    /// A repository of a Rust file and a README, with its baseline.
    fn initialised_demo() -> crate::testing::TempRepo {
        let t = temp_repo(&[
            ("src/lib.rs", "pub fn add() {}\n"),
            ("README.md", "# Demo\n"),
        ]);
        refresh::run(&t.repo, &Operation::Init).unwrap();
        t
    }

    #[test]
    fn migration_16_narrows_path_hashes_and_paths_are_still_found() {
        let t = initialised_demo();
        let hashes = |db: &Connection| -> Vec<(Vec<u8>, i64)> {
            let mut stmt = db
                .prepare("SELECT path, hash FROM paths ORDER BY path")
                .unwrap();
            let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).unwrap();
            rows.collect::<rusqlite::Result<_>>().unwrap()
        };
        {
            // Version 15 stored the first 8 bytes of the SHA-256.
            let db = raw_db(&t.repo);
            super::super::dirs::downgrade_to_v16(&db);
            for (path, _) in hashes(&db) {
                let d = Sha256::digest(&path);
                let wide = i64::from_be_bytes(d[..8].try_into().unwrap());
                db.execute(
                    "UPDATE paths SET hash = ?1 WHERE path = ?2",
                    params![wide, path],
                )
                .unwrap();
            }
            db.execute_batch("PRAGMA user_version = 15;").unwrap();
            assert!(hashes(&db).iter().any(|(_, h)| !(0..1 << 23).contains(h)));
        }
        let store = t.repo.open_store(false).unwrap().unwrap();
        for (path, hash) in super::super::dirs::stored_paths(&raw_db(&t.repo)) {
            assert_eq!(hash, path_hash(&path));
            assert!((0..1 << 23).contains(&hash), "{hash}");
            assert!(store.path_id(&path).unwrap().is_some());
        }
        drop(store);
        // A refresh finds the stored paths: an edit adds no second row for its path.
        std::fs::write(
            t.repo.root.join("src/lib.rs"),
            "pub fn add() {}\npub fn sub() {}\n",
        )
        .unwrap();
        refresh::run(&t.repo, &Operation::Refresh).unwrap();
        let after = super::super::dirs::stored_paths(&raw_db(&t.repo));
        assert_eq!(after.len(), 2, "{after:?}");
    }

    #[test]
    fn migration_15_stores_languages_as_codes() {
        let t = initialised_demo();
        let files = || {
            let store = t.repo.open_store(false).unwrap().unwrap();
            let snap = store.current_snapshot().unwrap().unwrap();
            store.files_at(&snap).unwrap()
        };
        let before = files();
        let stored = |db: &Connection| -> Vec<Option<String>> {
            let mut stmt = db
                .prepare("SELECT language FROM file_versions ORDER BY id")
                .unwrap();
            let rows = stmt.query_map([], |r| r.get(0)).unwrap();
            rows.collect::<rusqlite::Result<_>>().unwrap()
        };
        {
            // Version 14 stored names.
            let db = raw_db(&t.repo);
            super::super::dirs::downgrade_to_v16(&db);
            db.execute_batch(
                "UPDATE file_versions SET language = CASE language WHEN '0' THEN 'Rust'
                     WHEN '41' THEN 'Markdown' ELSE language END;
                 PRAGMA user_version = 14;",
            )
            .unwrap();
            assert_eq!(
                stored(&db),
                [Some("Markdown".to_owned()), Some("Rust".to_owned())]
            );
        }
        assert_eq!(files(), before);
        let db = raw_db(&t.repo);
        assert_eq!(stored(&db), [Some("41".to_owned()), Some("0".to_owned())]);
        assert_eq!(before[1].language.as_deref(), Some("Rust"));
    }

    #[test]
    fn facts_round_trip_raw_and_deflated() {
        let short = r#"{"doc":{}}"#;
        assert_eq!(encode_facts(short)[0], RAW);
        let long = format!(
            r#"{{"code":{{"symbols":[{}]}}}}"#,
            vec![r#"{"q":"name","k":"function","s":"fn name()"}"#; 40].join(",")
        );
        let stored = encode_facts(&long);
        assert_eq!(stored[0], DEFLATE_PRIMED);
        assert!(
            stored.len() * 4 < long.len(),
            "{} vs {}",
            stored.len(),
            long.len()
        );
        assert_eq!(decode_facts(&stored).as_deref(), Some(long.as_str()));
        assert_eq!(decode_facts(&encode_facts(short)).as_deref(), Some(short));
        // What caches stored before the primed form still reads.
        let mut plain = vec![DEFLATE];
        plain.extend(miniz_oxide::deflate::compress_to_vec(long.as_bytes(), 6));
        assert_eq!(decode_facts(&plain).as_deref(), Some(long.as_str()));
        assert_eq!(decode_facts(&[9, 1, 2]), None, "unknown tag");
        assert_eq!(decode_facts(&[DEFLATE, 0xff, 0x00]), None, "broken stream");
        assert_eq!(
            decode_facts(&[DEFLATE_PRIMED, 0xff, 0x00]),
            None,
            "broken stream"
        );
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
