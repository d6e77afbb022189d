//! Paths stored as a directory id and a file name (migration 17). Every file below a
//! directory repeated the directory's bytes in the `paths` table: on babel/babel (27,674
//! files, 13,024 directories, paths of 94 bytes on average) that table was 3.1 MB, the largest
//! of the cache. Now `paths` holds `(dir, name)` and `dirs` holds `(parent, name)`, 1.2 MB
//! together.
//!
//! A full path is the directory's full path (resolved through its parents) followed by the
//! name. A process resolves directories through [`Dirs`], which reads the `dirs` rows it has
//! not seen yet (all of them, the first time). Directory ids come from `AUTOINCREMENT` and are
//! never used twice, so a row once read means the same directory for the life of the process,
//! even after a sweep deleted it: readers never need to forget anything. Writers do: they
//! look up directories by name to reuse them, and must not reuse one a sweep of another
//! process deleted. A sweep that deletes directories bumps the `dirs_swept` setting, and a
//! writer ([`Dirs::sync`], in its write transaction) starts over when it changed.

use std::collections::HashMap;

use rusqlite::{params, Connection, OptionalExtension, Transaction};

use super::compact::path_hash;
use crate::error::Result;

/// The directory id of top-level files and the parent id of top-level directories: no row.
pub(crate) const TOP: i64 = 0;

/// Directories a process looks up one by one before it reads every row at once: a few for a
/// refresh of a few files (babel: 13,024 rows would cost several milliseconds), all of them
/// for a read of every path.
const LOOKUPS_BEFORE_BULK: usize = 64;

/// The deepest directory chain read before a row is taken for corrupt (a parent loop).
const MAX_DEPTH: usize = 4096;

/// The directories of stored paths this process has read.
#[derive(Debug, Default)]
pub(crate) struct Dirs {
    /// Each directory's full path, with a trailing `/`.
    full: HashMap<i64, Box<[u8]>>,
    /// Every row with an id up to this one is in `full`.
    loaded: i64,
    /// Directories looked up one by one so far.
    lookups: usize,
    /// Directory ids by full path, for writers: every row up to `loaded`.
    ids: Option<HashMap<Box<[u8]>, i64>>,
    /// Whether `ids` was brought up to date in the current write transaction.
    ids_current: bool,
    /// The `dirs_swept` setting at the last [`Dirs::sync`].
    swept: Option<i64>,
}

/// Splits a path into its directory (with the trailing `/`; empty at the top) and its name.
pub(crate) fn split(path: &[u8]) -> (&[u8], &[u8]) {
    match path.iter().rposition(|&b| b == b'/') {
        Some(i) => (&path[..=i], &path[i + 1..]),
        None => (&[], path),
    }
}

/// A corrupt row: a path naming a directory no row holds, or a directory whose parent has
/// none.
fn unknown(what: &str, id: i64) -> rusqlite::Error {
    rusqlite::Error::FromSqlConversionFailure(
        0,
        rusqlite::types::Type::Integer,
        format!("{what} names directory {id}, which is not stored").into(),
    )
}

/// `above` (a directory's full path, or empty) joined with a directory name and a `/`.
fn child(above: &[u8], name: &[u8]) -> Box<[u8]> {
    let mut v = Vec::with_capacity(above.len() + name.len() + 1);
    v.extend_from_slice(above);
    v.extend_from_slice(name);
    v.push(b'/');
    v.into_boxed_slice()
}

impl Dirs {
    /// The full path of a stored `(dir, name)`.
    pub(crate) fn join(
        &mut self,
        conn: &Connection,
        dir: i64,
        name: &[u8],
    ) -> rusqlite::Result<Vec<u8>> {
        if dir == TOP {
            return Ok(name.to_vec());
        }
        let d = self.dir(conn, dir)?;
        let mut out = Vec::with_capacity(d.len() + name.len());
        out.extend_from_slice(d);
        out.extend_from_slice(name);
        Ok(out)
    }

    /// The full path of directory `id` (with its trailing `/`).
    fn dir(&mut self, conn: &Connection, id: i64) -> rusqlite::Result<&[u8]> {
        if !self.full.contains_key(&id) {
            if self.lookups < LOOKUPS_BEFORE_BULK {
                self.look_up(conn, id)?;
            } else {
                self.read_new(conn)?;
            }
        }
        self.full
            .get(&id)
            .map(|d| &**d)
            .ok_or_else(|| unknown("a path", id))
    }

    /// Reads directory `id` and the ones above it that are not read yet, one row each.
    fn look_up(&mut self, conn: &Connection, id: i64) -> rusqlite::Result<()> {
        let mut stmt = conn.prepare_cached("SELECT parent, name FROM dirs WHERE id = ?1")?;
        let mut chain: Vec<(i64, Vec<u8>)> = Vec::new();
        let mut at = id;
        while at != TOP && !self.full.contains_key(&at) {
            if chain.len() == MAX_DEPTH {
                return Err(unknown("a directory loop", id));
            }
            let (parent, name): (i64, Vec<u8>) = stmt
                .query_row([at], |r| Ok((r.get(0)?, r.get(1)?)))
                .optional()?
                .ok_or_else(|| unknown(if at == id { "a path" } else { "a directory" }, at))?;
            chain.push((at, name));
            at = parent;
            self.lookups += 1;
        }
        for (id, name) in chain.into_iter().rev() {
            let above = self.full.get(&at).map_or(&[][..], |d| &**d);
            let full = child(above, &name);
            if let Some(ids) = &mut self.ids {
                ids.entry(full.clone()).or_insert(id);
            }
            self.full.insert(id, full);
            at = id;
        }
        Ok(())
    }

    /// Reads every row not read in bulk yet. Parents have lower ids than their children (a
    /// directory is stored before anything in it), so one pass in id order resolves them.
    fn read_new(&mut self, conn: &Connection) -> rusqlite::Result<()> {
        let mut stmt =
            conn.prepare_cached("SELECT id, parent, name FROM dirs WHERE id > ?1 ORDER BY id")?;
        let mut rows = stmt.query([self.loaded])?;
        while let Some(r) = rows.next()? {
            let (id, parent): (i64, i64) = (r.get(0)?, r.get(1)?);
            self.loaded = id;
            if !self.full.contains_key(&id) {
                let above = match parent {
                    TOP => &[][..],
                    p => self.full.get(&p).ok_or_else(|| unknown("a directory", p))?,
                };
                let full = child(above, r.get_ref(2)?.as_blob()?);
                self.full.insert(id, full);
            }
            if let Some(ids) = &mut self.ids {
                ids.entry(self.full[&id].clone()).or_insert(id);
            }
        }
        Ok(())
    }

    /// Starts a write transaction: forgets every row read when a sweep deleted directories
    /// since the last one (or when there was none), so that no deleted directory is reused.
    pub(crate) fn sync(&mut self, tx: &Connection) -> rusqlite::Result<()> {
        let swept: i64 = tx
            .query_row(
                "SELECT value FROM settings WHERE name = 'dirs_swept'",
                [],
                |r| r.get(0),
            )
            .optional()?
            .unwrap_or(0);
        if self.swept != Some(swept) {
            *self = Dirs {
                swept: Some(swept),
                ..Dirs::default()
            };
        }
        self.ids_current = false;
        Ok(())
    }

    /// The id of directory `dir` (with its trailing `/`; empty: [`TOP`]), storing it and the
    /// directories above it when new. Only in a write transaction begun with [`Dirs::sync`]:
    /// the first call reads the rows it has not read.
    fn intern(&mut self, tx: &Connection, dir: &[u8]) -> rusqlite::Result<i64> {
        if dir.is_empty() {
            return Ok(TOP);
        }
        if !self.ids_current {
            if self.ids.is_none() {
                self.ids = Some(self.full.iter().map(|(id, d)| (d.clone(), *id)).collect());
            }
            self.read_new(tx)?;
            self.ids_current = true;
        }
        if let Some(id) = self.ids.as_ref().and_then(|ids| ids.get(dir)) {
            return Ok(*id);
        }
        let (above, name) = split(&dir[..dir.len() - 1]);
        let parent = self.intern(tx, above)?;
        tx.prepare_cached("INSERT INTO dirs (parent, name) VALUES (?1, ?2)")?
            .execute(params![parent, name])?;
        let id = tx.last_insert_rowid();
        let full: Box<[u8]> = dir.into();
        if let Some(ids) = &mut self.ids {
            ids.insert(full.clone(), id);
        }
        self.full.insert(id, full);
        Ok(id)
    }
}

/// Returns the id of a stored path, if it is stored.
pub(crate) fn path_id(
    conn: &Connection,
    dirs: &mut Dirs,
    path: &[u8],
) -> rusqlite::Result<Option<i64>> {
    let (dir, name) = split(path);
    let candidates: Vec<(i64, i64)> = conn
        .prepare_cached("SELECT id, dir FROM paths WHERE hash = ?1 AND name = ?2")?
        .query_map(params![path_hash(path), name], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })?
        .collect::<rusqlite::Result<_>>()?;
    for (id, d) in candidates {
        let same = match d {
            TOP => dir.is_empty(),
            d => dirs.dir(conn, d)? == dir,
        };
        if same {
            return Ok(Some(id));
        }
    }
    Ok(None)
}

/// Returns the id of a path, storing the path first when it is new. Writers only, after
/// [`Dirs::sync`].
pub(crate) fn intern_path(tx: &Connection, dirs: &mut Dirs, path: &[u8]) -> rusqlite::Result<i64> {
    if let Some(id) = path_id(tx, dirs, path)? {
        return Ok(id);
    }
    insert_path(tx, dirs, path, None)
}

/// Stores a path known not to be stored yet (a writer's, after [`Dirs::sync`]) and returns its
/// id.
pub(crate) fn insert_new_path(
    tx: &Connection,
    dirs: &mut Dirs,
    path: &[u8],
) -> rusqlite::Result<i64> {
    insert_path(tx, dirs, path, None)
}

fn insert_path(
    tx: &Connection,
    dirs: &mut Dirs,
    path: &[u8],
    search: Option<(i64, i64)>,
) -> rusqlite::Result<i64> {
    let (dir, name) = split(path);
    let dir = dirs.intern(tx, dir)?;
    let (first, count) = search.unzip();
    tx.prepare_cached(
        "INSERT INTO paths (dir, name, hash, search_first, search_count) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?
    .execute(params![dir, name, path_hash(path), first, count])?;
    Ok(tx.last_insert_rowid())
}

/// Records that the search entries of `path` (whose id is `known`, when stored) are the row ids
/// `first..first + count`, and returns its id. A new path is inserted with its range: one
/// insert, not an insert and an update that grows the row (rows grown after a baseline's
/// inserts split their pages, which were then an eighth empty).
pub(crate) fn set_search_range(
    tx: &Connection,
    dirs: &mut Dirs,
    known: Option<i64>,
    path: &[u8],
    first: i64,
    count: i64,
) -> rusqlite::Result<i64> {
    if let Some(id) = known {
        tx.prepare_cached("UPDATE paths SET search_first = ?1, search_count = ?2 WHERE id = ?3")?
            .execute(params![first, count, id])?;
        return Ok(id);
    }
    insert_path(tx, dirs, path, Some((first, count)))
}

/// Deletes the directories no stored path is in (directly or below), and when any went,
/// bumps `dirs_swept` so that other processes' writers read the rows again. Returns how
/// many went.
pub(crate) fn sweep(tx: &Transaction<'_>) -> Result<usize> {
    let gone = tx.execute(
        "WITH RECURSIVE live(id) AS (
             SELECT DISTINCT dir FROM paths WHERE dir != 0
             UNION SELECT d.parent FROM dirs d JOIN live ON d.id = live.id WHERE d.parent != 0)
         DELETE FROM dirs WHERE id NOT IN live",
        [],
    )?;
    if gone > 0 {
        tx.execute(
            "INSERT INTO settings (name, value) VALUES ('dirs_swept', 1)
             ON CONFLICT(name) DO UPDATE SET value = value + 1",
            [],
        )?;
    }
    Ok(gone)
}

/// Migration 17: `paths(path)` becomes `paths(dir, name)` with the directories in `dirs`. Path
/// ids are kept: file versions and search entries still name the same rows.
pub(crate) fn migrate(tx: &Transaction<'_>) -> Result<()> {
    tx.execute_batch(include_str!("migrations/0017_dirs.sql"))?;
    let mut rows: Vec<(i64, Vec<u8>)> = tx
        .prepare("SELECT id, path FROM paths")?
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<rusqlite::Result<_>>()?;
    // Directories numbered in path order, as a baseline numbers them.
    rows.sort_by(|a, b| a.1.cmp(&b.1));
    let mut dirs = Dirs::default();
    dirs.sync(tx)?;
    let mut set = tx.prepare("UPDATE paths SET dir = ?1, name = ?2 WHERE id = ?3")?;
    for (id, path) in &rows {
        let (dir, name) = split(path);
        set.execute(params![dirs.intern(tx, dir)?, name, id])?;
    }
    drop(set);
    tx.execute_batch("ALTER TABLE paths DROP COLUMN path;")?;
    Ok(())
}

/// Every stored path and its hash, sorted by path: what tests compare across migrations.
#[cfg(test)]
pub(crate) fn stored_paths(db: &Connection) -> Vec<(Vec<u8>, i64)> {
    let rows: Vec<(i64, Vec<u8>, i64)> = db
        .prepare("SELECT dir, name, hash FROM paths")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap();
    let mut dirs = Dirs::default();
    let mut out: Vec<(Vec<u8>, i64)> = rows
        .into_iter()
        .map(|(dir, name, hash)| (dirs.join(db, dir, &name).unwrap(), hash))
        .collect();
    out.sort();
    out
}

/// Rewrites a current cache's paths into the layout of schema version 16 (whole paths in
/// `paths.path`, no `dirs`), as a cache written before migration 17.
#[cfg(test)]
pub(crate) fn downgrade_to_v16(db: &Connection) {
    super::downgrade_to_v18(db);
    let rows: Vec<(i64, i64, Vec<u8>)> = db
        .prepare("SELECT id, dir, name FROM paths")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap();
    db.execute_batch("ALTER TABLE paths ADD COLUMN path BLOB NOT NULL DEFAULT x''")
        .unwrap();
    let mut dirs = Dirs::default();
    for (id, dir, name) in rows {
        let path = dirs.join(db, dir, &name).unwrap();
        db.execute(
            "UPDATE paths SET path = ?1 WHERE id = ?2",
            params![path, id],
        )
        .unwrap();
    }
    db.execute_batch(
        "ALTER TABLE paths DROP COLUMN dir;
         ALTER TABLE paths DROP COLUMN name;
         DROP TABLE dirs;
         DELETE FROM settings WHERE name = 'dirs_swept';
         PRAGMA user_version = 16;",
    )
    .unwrap();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::refresh::{self, Operation};
    use crate::testing::{git, raw_db, temp_repo};

    /// A database of the current schema, in memory.
    fn schema() -> Connection {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE TABLE settings (name TEXT PRIMARY KEY, value);
             CREATE TABLE paths (id INTEGER PRIMARY KEY, hash INTEGER NOT NULL,
                 search_first INTEGER, search_count INTEGER, dir INTEGER NOT NULL DEFAULT 0,
                 name BLOB NOT NULL DEFAULT x'');
             CREATE INDEX paths_hash ON paths(hash);",
        )
        .unwrap();
        conn.execute_batch(
            include_str!("migrations/0017_dirs.sql")
                .split("ALTER")
                .next()
                .unwrap(),
        )
        .unwrap();
        conn
    }

    #[test]
    fn paths_that_share_a_hash_are_told_apart() {
        // Two paths with the same 23-bit hash: a few thousand names hold such a pair.
        let mut seen: HashMap<i64, Vec<u8>> = HashMap::new();
        let (a, b) = (0..100_000)
            .map(|i| format!("src/f{i}.rs").into_bytes())
            .find_map(|p| {
                seen.insert(path_hash(&p), p.clone())
                    .map(|other| (other, p))
            })
            .expect("a shared hash");
        // And one with the same name and hash in another directory is told apart too.
        let conn = schema();
        let mut dirs = Dirs::default();
        dirs.sync(&conn).unwrap();
        let (ia, ib) = (
            intern_path(&conn, &mut dirs, &a).unwrap(),
            intern_path(&conn, &mut dirs, &b).unwrap(),
        );
        assert_ne!(ia, ib);
        assert_eq!(path_id(&conn, &mut dirs, &a).unwrap(), Some(ia));
        assert_eq!(path_id(&conn, &mut dirs, &b).unwrap(), Some(ib));
        assert_eq!(
            intern_path(&conn, &mut dirs, &b).unwrap(),
            ib,
            "found, not stored again"
        );
        // Another process, with nothing read yet, finds them too.
        let mut fresh = Dirs::default();
        assert_eq!(path_id(&conn, &mut fresh, &b).unwrap(), Some(ib));
        assert_eq!(fresh.join(&conn, 1, b"x").unwrap(), b"src/x");
    }

    #[test]
    fn directories_are_stored_once_and_paths_join_back_whole() {
        let conn = schema();
        let mut dirs = Dirs::default();
        dirs.sync(&conn).unwrap();
        let paths: [&[u8]; 5] = [
            b"README.md",
            b"a/b/c.rs",
            b"a/b/d.rs",
            b"a/e.rs",
            b"a/b/f/g.rs",
        ];
        for p in paths {
            intern_path(&conn, &mut dirs, p).unwrap();
        }
        let dir_rows: i64 = conn
            .query_row("SELECT count(*) FROM dirs", [], |r| r.get(0))
            .unwrap();
        assert_eq!(dir_rows, 3, "a/, a/b/, a/b/f/");
        let mut stored: Vec<Vec<u8>> = stored_paths(&conn).into_iter().map(|(p, _)| p).collect();
        stored.sort();
        let mut want: Vec<Vec<u8>> = paths.iter().map(|p| p.to_vec()).collect();
        want.sort();
        assert_eq!(stored, want);
        // A path naming a directory that is not stored is corrupt, not a guess.
        conn.execute("UPDATE paths SET dir = 99 WHERE name = x'632e7273'", [])
            .unwrap();
        let err = Dirs::default().join(&conn, 99, b"c.rs").unwrap_err();
        assert!(err.to_string().contains("directory 99"), "{err}");
    }

    #[test]
    fn writers_reuse_the_directories_other_writers_stored() {
        let conn = schema();
        let (mut a, mut b) = (Dirs::default(), Dirs::default());
        a.sync(&conn).unwrap();
        intern_path(&conn, &mut a, b"src/x.rs").unwrap();
        b.sync(&conn).unwrap();
        intern_path(&conn, &mut b, b"src/y.rs").unwrap();
        intern_path(&conn, &mut b, b"lib/z.rs").unwrap();
        // Writer `a` read `src/` before `lib/` existed; its next transaction finds `lib/`.
        a.sync(&conn).unwrap();
        intern_path(&conn, &mut a, b"lib/w.rs").unwrap();
        let dirs: Vec<Vec<u8>> = conn
            .prepare("SELECT name FROM dirs ORDER BY id")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        assert_eq!(
            dirs,
            [b"src".to_vec(), b"lib".to_vec()],
            "no directory stored twice"
        );
    }

    #[test]
    fn many_directories_are_read_at_once_and_join_the_same() {
        let conn = schema();
        let mut writer = Dirs::default();
        writer.sync(&conn).unwrap();
        let paths: Vec<Vec<u8>> = (0..3 * LOOKUPS_BEFORE_BULK)
            .map(|i| format!("d{}/e{i}/f.rs", i % 7).into_bytes())
            .collect();
        for p in &paths {
            intern_path(&conn, &mut writer, p).unwrap();
        }
        // A reader that needs them all looks the first ones up and reads the rest in bulk.
        let mut reader = Dirs::default();
        let rows: Vec<(i64, Vec<u8>)> = conn
            .prepare("SELECT dir, name FROM paths ORDER BY id")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        let joined: Vec<Vec<u8>> = rows
            .iter()
            .map(|(d, n)| reader.join(&conn, *d, n).unwrap())
            .collect();
        assert_eq!(joined, paths);
        assert!(
            reader.lookups <= LOOKUPS_BEFORE_BULK + 1,
            "{}",
            reader.lookups
        );
        assert!(reader.loaded > 0, "the rest was read in bulk");
    }

    #[test]
    fn a_directory_loop_is_corrupt_not_endless() {
        let conn = schema();
        conn.execute_batch(
            "INSERT INTO dirs (id, parent, name) VALUES (1, 2, x'61'), (2, 1, x'62');",
        )
        .unwrap();
        let err = Dirs::default().join(&conn, 1, b"f.rs").unwrap_err();
        assert!(
            err.to_string().contains("not stored") || err.to_string().contains("loop"),
            "{err}"
        );
    }

    #[test]
    fn a_writer_reads_directories_again_after_another_process_swept_them() {
        let conn = schema();
        conn.execute_batch("CREATE TABLE file_versions (path INTEGER)")
            .unwrap();
        let mut writer = Dirs::default();
        writer.sync(&conn).unwrap();
        let old = intern_path(&conn, &mut writer, b"gone/a.rs").unwrap();
        // Another process deletes the path and sweeps its directory.
        conn.execute("DELETE FROM paths WHERE id = ?1", [old])
            .unwrap();
        let tx =
            rusqlite::Transaction::new_unchecked(&conn, rusqlite::TransactionBehavior::Deferred)
                .unwrap();
        assert_eq!(sweep(&tx).unwrap(), 1);
        tx.commit().unwrap();
        // The writer's next transaction must not reuse the deleted directory's id.
        writer.sync(&conn).unwrap();
        let new = intern_path(&conn, &mut writer, b"gone/b.rs").unwrap();
        let dir: i64 = conn
            .query_row("SELECT dir FROM paths WHERE id = ?1", [new], |r| r.get(0))
            .unwrap();
        let exists: bool = conn
            .query_row(
                "SELECT EXISTS (SELECT 1 FROM dirs WHERE id = ?1)",
                [dir],
                |r| r.get(0),
            )
            .unwrap();
        assert!(exists, "directory {dir} of the new path is stored");
        assert_eq!(stored_paths(&conn)[0].0, b"gone/b.rs");
    }

    /// A stored path, its id and the first row of its search entries.
    type PathRow = (Vec<u8>, i64, Option<i64>);

    /// Every stored path, and the path ids of the current file versions.
    fn path_rows(db: &Connection) -> (Vec<PathRow>, Vec<i64>) {
        let rows: Vec<(i64, i64, Vec<u8>, Option<i64>)> = db
            .prepare("SELECT id, dir, name, search_first FROM paths")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        let mut dirs = Dirs::default();
        let mut paths: Vec<PathRow> = rows
            .into_iter()
            .map(|(id, dir, name, first)| (dirs.join(db, dir, &name).unwrap(), id, first))
            .collect();
        paths.sort();
        let mut versions: Vec<i64> = db
            .prepare("SELECT path FROM file_versions WHERE end_seq IS NULL")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        versions.sort();
        (paths, versions)
    }

    #[test]
    fn a_first_baseline_stores_each_path_once_and_a_rebaseline_keeps_their_ids() {
        // A first baseline looks no path up (there are none): the search entries store some
        // paths, the file versions the rest and find those.
        let t = temp_repo(&[
            ("src/lib.rs", "pub fn add() {}\n"),
            ("src/deep/er/mod.rs", "pub struct Deep;\n"),
            ("README.md", "# Demo\n"),
            ("assets/logo.svg", "<svg/>\n"),
        ]);
        refresh::run(&t.repo, &Operation::Init).unwrap();
        let (paths, versions) = path_rows(&raw_db(&t.repo));
        let names: Vec<&[u8]> = paths.iter().map(|(p, _, _)| p.as_slice()).collect();
        assert_eq!(
            names,
            [
                &b"README.md"[..],
                b"assets/logo.svg",
                b"src/deep/er/mod.rs",
                b"src/lib.rs"
            ]
        );
        let mut ids: Vec<i64> = paths.iter().map(|(_, id, _)| *id).collect();
        ids.sort();
        assert_eq!(versions, ids, "one current version per path, each its own");
        assert!(
            paths.iter().any(|(_, _, first)| first.is_some()),
            "{paths:?}"
        );
        // Every search entry names the path whose range holds it.
        let strays: i64 = raw_db(&t.repo)
            .query_row(
                "SELECT count(*) FROM search_entries e JOIN paths p
                   ON e.rowid BETWEEN p.search_first AND p.search_first + p.search_count - 1
                 WHERE e.path != p.id",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(strays, 0);
        // A rebaseline into the same cache looks the paths up and keeps their ids.
        let rebaseline = Operation::Rebaseline {
            label: "again".into(),
            reason: "test".into(),
        };
        refresh::run(&t.repo, &rebaseline).unwrap();
        let (again, _) = path_rows(&raw_db(&t.repo));
        let without_ranges = |p: &[PathRow]| -> Vec<(Vec<u8>, i64)> {
            p.iter().map(|(p, id, _)| (p.clone(), *id)).collect()
        };
        assert_eq!(without_ranges(&again), without_ranges(&paths));
    }

    #[test]
    fn migration_17_splits_paths_and_everything_reads_the_same() {
        let t = temp_repo(&[
            ("src/lib.rs", "pub fn add() {}\n"),
            ("src/deep/er/mod.rs", "pub struct Deep;\n"),
            ("README.md", "# Demo\n"),
        ]);
        refresh::run(&t.repo, &Operation::Init).unwrap();
        let read = || {
            let store = t.repo.open_store(false).unwrap().unwrap();
            let snap = store.current_snapshot().unwrap().unwrap();
            let files = store.files_at(&snap).unwrap();
            let hits = crate::search::find(
                &store,
                &crate::search::Terms::all_of(&["deep"]),
                "",
                &[crate::api::SearchKind::Path, crate::api::SearchKind::Symbol],
                10,
            )
            .unwrap();
            (
                files,
                hits.into_iter().map(|h| h.entity).collect::<Vec<_>>(),
            )
        };
        let before = read();
        let paths_before = stored_paths(&raw_db(&t.repo));
        downgrade_to_v16(&raw_db(&t.repo));
        {
            let db = raw_db(&t.repo);
            let tables: i64 = db
                .query_row(
                    "SELECT count(*) FROM sqlite_schema WHERE name = 'dirs'",
                    [],
                    |r| r.get(0),
                )
                .unwrap();
            assert_eq!(tables, 0, "rewound to version 16");
        }
        assert_eq!(
            read(),
            before,
            "opening migrates, and reads answer the same"
        );
        let db = raw_db(&t.repo);
        assert_eq!(stored_paths(&db), paths_before);
        let dirs: Vec<(i64, Vec<u8>)> = db
            .prepare("SELECT parent, name FROM dirs ORDER BY id")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        assert_eq!(
            dirs,
            [
                (0, b"src".to_vec()),
                (1, b"deep".to_vec()),
                (2, b"er".to_vec())
            ]
        );
        let columns: Vec<String> = db
            .prepare("SELECT name FROM pragma_table_info('paths')")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<rusqlite::Result<_>>()
            .unwrap();
        assert!(!columns.iter().any(|c| c == "path"), "{columns:?}");
        // A refresh after the migration adds a file in a new directory and finds the old ones.
        drop(db);
        std::fs::write(
            t.repo.root.join("src/lib.rs"),
            "pub fn add() {}\npub fn sub() {}\n",
        )
        .unwrap();
        std::fs::create_dir_all(t.repo.root.join("src/new")).unwrap();
        std::fs::write(t.repo.root.join("src/new/x.rs"), "pub fn x() {}\n").unwrap();
        git(&t.repo.root, &["add", "-A"]);
        refresh::run(&t.repo, &Operation::Refresh).unwrap();
        let after: Vec<Vec<u8>> = stored_paths(&raw_db(&t.repo))
            .into_iter()
            .map(|(p, _)| p)
            .collect();
        assert_eq!(
            after,
            [
                &b"README.md"[..],
                b"src/deep/er/mod.rs",
                b"src/lib.rs",
                b"src/new/x.rs"
            ]
        );
    }

    #[test]
    fn split_keeps_the_slash_with_the_directory() {
        assert_eq!(split(b"a/b/c.rs"), (&b"a/b/"[..], &b"c.rs"[..]));
        assert_eq!(split(b"c.rs"), (&b""[..], &b"c.rs"[..]));
        assert_eq!(split(b"a/"), (&b"a/"[..], &b""[..]));
    }
}
