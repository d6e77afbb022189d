//! Surviving a crash in a grammar's C code.
//!
//! Parsing runs C code: tree-sitter's runtime and each grammar's hand-written scanner. A fault
//! there (a read past a table, as tree-sitter-bash's `isdigit` did, see
//! `repocue-structure/src/shield.rs`) kills the process: there is no panic to catch and
//! nothing is recorded, and every later refresh parses the same file and dies the same way.
//! One hostile file would disable RepoCue for its repository for good.
//!
//! So every parse of source code is announced before it starts. The content's digest goes
//! into a slot of this process's journal (`parsing/<pid>-<nanos>.journal` beside the
//! database), and the slot is blanked when the parse returns. The process holds an exclusive
//! lock on its journal while it lives; the kernel releases it when the process dies, however it
//! dies. The next process about to parse sweeps the journals it can lock. A digest still in a
//! slot was being parsed when its process died, which is a strike against that content. The
//! process may also have been killed (a user's Ctrl-C, an agent's time-out), and the other
//! threads' parses were innocent, so one strike only makes the content a suspect: it is
//! parsed alone, while no other parse of the process runs, so a crash then strikes nothing
//! else. At [`STRIKES`] strikes the content is not parsed again by this analyzer version: its
//! code facts are stored with the error `crashed`, and its document and manifest facts, which
//! no C code computes, as usual.
//!
//! The journal is best effort: a cache directory that cannot hold it leaves parsing unguarded,
//! as it was before. It costs two `pwrite`s per parsed source file.

use std::collections::HashMap;
use std::fs::{self, File, OpenOptions};
use std::io::{Read, Write};
use std::os::unix::fs::{FileExt, MetadataExt};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, OnceLock, RwLock};

use crate::analyze::{self, structure, Analysis};

/// Deaths during the parse of the same content after which it is not parsed again.
pub const STRIKES: u32 = 2;

/// The directory of the journals and the strikes, beside the database.
const DIR: &str = "parsing";
/// The strikes so far: `<analyzer> <digest> <count>` lines.
const STRIKES_FILE: &str = "strikes";
/// Most strikes kept (the most struck first): a machine that kills RepoCue often must not
/// grow the file without end.
const MAX_KEPT: usize = 1024;
/// A journal slot: a 64-hex digest and a newline, or as many spaces and a newline.
const SLOT: usize = 65;

/// The crash guard of one repository's cache: opened on the first parse it guards.
pub struct Guard {
    dir: Option<PathBuf>,
    watch: OnceLock<Option<Watch>>,
}

impl Guard {
    /// A guard for the cache whose database is `db_path`. Touches nothing until a parse.
    pub fn new(db_path: &Path) -> Guard {
        Guard {
            dir: db_path.parent().map(|p| p.join(DIR)),
            watch: OnceLock::new(),
        }
    }

    /// Analyzes content like [`analyze::analyze`], with its parse announced in the journal;
    /// content that struck out gets [`analyze::analyze_crashed`] instead. `digest` is the
    /// content's hex SHA-256.
    pub fn analyze(
        &self,
        path: &[u8],
        language: Option<&str>,
        content: &[u8],
        digest: &str,
    ) -> Result<Option<Analysis>, structure::TimedOut> {
        // Documents and manifests are read by Rust code alone: nothing to guard.
        let parses = structure::parser_language(path, language).is_some();
        let Some(watch) = self.watch().filter(|_| parses) else {
            return analyze::analyze(path, language, content);
        };
        match watch.strikes.get(digest) {
            Some(&n) if n >= STRIKES => {
                return Ok(analyze::analyze_crashed(path, language, content));
            }
            _ => {}
        }
        // A suspect is parsed alone: should it crash again, its strike is the only one.
        let (_alone, _shared);
        if watch.strikes.contains_key(digest) {
            _alone = watch.gate.write();
        } else {
            _shared = watch.gate.read();
        }
        let slot = watch.enter(digest);
        let out = analyze::analyze(path, language, content);
        watch.leave(slot);
        out
    }

    fn watch(&self) -> Option<&Watch> {
        self.watch
            .get_or_init(|| {
                let dir = self.dir.as_deref()?;
                Watch::open(dir, analyze::analyzer_version()).ok()
            })
            .as_ref()
    }
}

/// This process's journal, and the strikes against content so far.
struct Watch {
    file: File,
    path: PathBuf,
    /// Which slots a parse holds.
    slots: Mutex<Vec<bool>>,
    strikes: HashMap<String, u32>,
    /// Taken to read by every parse, to write by a suspect's.
    gate: RwLock<()>,
}

impl Watch {
    /// Sweeps the journals of dead processes into the strikes, then starts this process's.
    fn open(dir: &Path, analyzer: &str) -> std::io::Result<Watch> {
        fs::create_dir_all(dir)?;
        let mut strikes = read_strikes(dir, analyzer);
        let struck = sweep(dir, &mut strikes)?;
        if struck {
            write_strikes(dir, analyzer, &strikes)?;
        }
        let (file, path) = start_journal(dir)?;
        Ok(Watch {
            file,
            path,
            slots: Mutex::new(Vec::new()),
            strikes,
            gate: RwLock::new(()),
        })
    }

    /// Writes `digest` into a free slot; returns the slot.
    fn enter(&self, digest: &str) -> usize {
        let slot = match self.slots.lock() {
            Ok(mut slots) => match slots.iter().position(|used| !used) {
                Some(i) => {
                    slots[i] = true;
                    i
                }
                None => {
                    slots.push(true);
                    slots.len() - 1
                }
            },
            Err(_) => return usize::MAX,
        };
        let mut line = [b' '; SLOT];
        let n = digest.len().min(SLOT - 1);
        line[..n].copy_from_slice(&digest.as_bytes()[..n]);
        line[SLOT - 1] = b'\n';
        let _ = self.file.write_all_at(&line, (slot * SLOT) as u64);
        slot
    }

    /// Blanks a slot and frees it.
    fn leave(&self, slot: usize) {
        if slot == usize::MAX {
            return;
        }
        let mut line = [b' '; SLOT];
        line[SLOT - 1] = b'\n';
        let _ = self.file.write_all_at(&line, (slot * SLOT) as u64);
        if let Ok(mut slots) = self.slots.lock() {
            slots[slot] = false;
        }
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        // Removed while still locked: a process sweeping now finds nothing to count.
        let _ = fs::remove_file(&self.path);
    }
}

/// Creates this process's journal under a name sweeps ignore, locks it, then gives it its
/// name: no sweep can take a journal that is not locked yet for a dead one.
fn start_journal(dir: &Path) -> std::io::Result<(File, PathBuf)> {
    let id = format!("{}-{}", std::process::id(), crate::time::now_ns());
    let tmp = dir.join(format!(".{id}.new"));
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create_new(true)
        .open(&tmp)?;
    file.lock()?;
    let path = dir.join(format!("{id}.journal"));
    fs::rename(&tmp, &path)?;
    Ok((file, path))
}

/// Counts a strike for every digest in the journal of a dead process, and removes such
/// journals (and the unnamed ones of processes that died starting theirs). Tells whether any
/// strike was counted.
fn sweep(dir: &Path, strikes: &mut HashMap<String, u32>) -> std::io::Result<bool> {
    let mut struck = false;
    for entry in fs::read_dir(dir)?.flatten() {
        let path = entry.path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        let journal = name.ends_with(".journal");
        let unnamed = name.starts_with('.') && name.ends_with(".new");
        if !(journal || unnamed) {
            continue;
        }
        let Ok(mut file) = OpenOptions::new().read(true).write(true).open(&path) else {
            continue;
        };
        // Locked: its process lives.
        if file.try_lock().is_err() {
            continue;
        }
        // Still the file at that path? A process that swept it first removed it under lock.
        let same = match (fs::metadata(&path), file.metadata()) {
            (Ok(a), Ok(b)) => a.ino() == b.ino() && a.dev() == b.dev(),
            _ => false,
        };
        if !same {
            continue;
        }
        // A journal that cannot be read or removed is another process's business: it is left
        // for a later sweep, and this one goes on.
        let mut text = Vec::new();
        if journal && file.read_to_end(&mut text).is_err() {
            continue;
        }
        if fs::remove_file(&path).is_err() {
            continue;
        }
        for digest in text.chunks(SLOT).filter_map(slot_digest) {
            *strikes.entry(digest).or_default() += 1;
            struck = true;
        }
    }
    Ok(struck)
}

/// The digest a journal slot holds, if it holds one.
fn slot_digest(slot: &[u8]) -> Option<String> {
    let digest = slot.strip_suffix(b"\n").unwrap_or(slot);
    (digest.len() == 64 && digest.iter().all(u8::is_ascii_hexdigit))
        .then(|| String::from_utf8_lossy(digest).into_owned())
}

/// The strikes recorded for this analyzer version (other versions' are dropped: a new
/// analyzer parses everything again, and may not crash).
fn read_strikes(dir: &Path, analyzer: &str) -> HashMap<String, u32> {
    let text = fs::read_to_string(dir.join(STRIKES_FILE)).unwrap_or_default();
    text.lines()
        .filter_map(|line| {
            let mut parts = line.split(' ');
            let (a, d, n) = (parts.next()?, parts.next()?, parts.next()?);
            let digest = slot_digest(d.as_bytes())?;
            (a == analyzer).then_some((digest, n.parse().ok()?))
        })
        .collect()
}

/// Replaces the strikes file (written aside, then renamed: a reader sees the old or the new).
fn write_strikes(
    dir: &Path,
    analyzer: &str,
    strikes: &HashMap<String, u32>,
) -> std::io::Result<()> {
    let mut rows: Vec<(&String, &u32)> = strikes.iter().collect();
    rows.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    let mut text = String::new();
    for (digest, n) in rows.into_iter().take(MAX_KEPT) {
        text.push_str(&format!("{analyzer} {digest} {n}\n"));
    }
    // Not `.new`: sweeps take those for journals of processes that died starting them.
    let tmp = dir.join(format!(".strikes-{}.tmp", std::process::id()));
    let mut file = File::create(&tmp)?;
    file.write_all(text.as_bytes())?;
    file.sync_all()?;
    fs::rename(&tmp, dir.join(STRIKES_FILE))
}

#[cfg(test)]
mod tests {
    use super::*;

    use std::collections::HashSet;

    /// The content that struck out.
    fn poisoned(watch: &Watch) -> HashSet<String> {
        let out = watch.strikes.iter().filter(|(_, n)| **n >= STRIKES);
        out.map(|(d, _)| d.clone()).collect()
    }

    fn digest(c: char) -> String {
        std::iter::repeat_n(c, 64).collect()
    }

    /// A journal left by a process that died parsing `digests` (nobody holds its lock), with
    /// a blanked slot too: a parse that returned.
    fn dead_journal(dir: &Path, name: &str, digests: &[&str]) {
        let mut text = String::new();
        for d in digests {
            text.push_str(d);
            text.push('\n');
        }
        text.push_str(&" ".repeat(64));
        text.push('\n');
        fs::write(dir.join(format!("{name}.journal")), text).unwrap();
    }

    fn journals(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".journal"))
            .collect();
        names.sort();
        names
    }

    #[test]
    fn one_death_is_a_strike_and_two_strike_the_content_out() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let (a, b) = (digest('a'), digest('b'));
        dead_journal(dir, "1-1", &[&a]);
        let watch = Watch::open(dir, "v1").unwrap();
        assert!(
            poisoned(&watch).is_empty(),
            "one strike is a kill as likely as a crash"
        );
        assert_eq!(read_strikes(dir, "v1"), HashMap::from([(a.clone(), 1)]));
        // The dead journal is gone; this process's own is there until it ends.
        assert_eq!(journals(dir).len(), 1);
        assert_ne!(journals(dir), vec!["1-1.journal".to_owned()]);
        drop(watch);
        assert!(journals(dir).is_empty());

        dead_journal(dir, "2-2", &[&a, &b]);
        let watch = Watch::open(dir, "v1").unwrap();
        assert_eq!(poisoned(&watch), HashSet::from([a.clone()]));
        assert_eq!(read_strikes(dir, "v1"), HashMap::from([(a, 2), (b, 1)]));
    }

    #[test]
    fn a_living_process_journal_is_left_alone() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        dead_journal(dir, "7-7", &[&digest('c')]);
        // A process that died before naming its journal left it unnamed: removed, no strike;
        // a strikes file being written aside is no journal.
        fs::write(dir.join(".8-8.new"), format!("{}\n", digest('e'))).unwrap();
        fs::write(dir.join(".strikes-9.tmp"), "").unwrap();
        let living = File::open(dir.join("7-7.journal")).unwrap();
        living.lock().unwrap();
        let watch = Watch::open(dir, "v1").unwrap();
        assert!(read_strikes(dir, "v1").is_empty());
        assert!(journals(dir).contains(&"7-7.journal".to_owned()));
        assert!(!dir.join(".8-8.new").exists());
        assert!(dir.join(".strikes-9.tmp").exists());
        drop(watch);
        // Once its process is gone, it counts.
        drop(living);
        let _watch = Watch::open(dir, "v1").unwrap();
        assert_eq!(read_strikes(dir, "v1"), HashMap::from([(digest('c'), 1)]));
    }

    #[test]
    fn a_new_analyzer_parses_struck_content_again() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path();
        let d = digest('d');
        write_strikes(dir, "v1", &HashMap::from([(d.clone(), STRIKES)])).unwrap();
        assert!(poisoned(&Watch::open(dir, "v1").unwrap()).contains(&d));
        assert!(poisoned(&Watch::open(dir, "v2").unwrap()).is_empty());
        // Malformed lines are skipped, not fatal.
        fs::write(dir.join(STRIKES_FILE), "v1 xyz 2\nv1\n\nv1 {d} many\n").unwrap();
        assert!(poisoned(&Watch::open(dir, "v1").unwrap()).is_empty());
    }

    #[test]
    fn a_guarded_parse_blanks_its_slot_and_struck_content_is_not_parsed() {
        let tmp = tempfile::tempdir().unwrap();
        let guard = Guard::new(&tmp.path().join("state.db"));
        let code = b"def run(x):\n    return x\n";
        let d = crate::digest::hex(&<sha2::Sha256 as sha2::Digest>::digest(code));
        let a = guard
            .analyze(b"app.py", Some("Python"), code, &d)
            .unwrap()
            .unwrap();
        assert_eq!(a.code.as_ref().unwrap().symbols.len(), 1);
        // The slot the parse held is blank again: a kill now strikes nothing.
        let dir = tmp.path().join(DIR);
        let journal = dir.join(&journals(&dir)[0]);
        let text = fs::read(&journal).unwrap();
        assert_eq!(text.len(), SLOT);
        assert!(text.chunks(SLOT).all(|s| slot_digest(s).is_none()));
        drop(guard);
        assert!(!journal.exists());

        let version = analyze::analyzer_version();
        write_strikes(&dir, version, &HashMap::from([(d.clone(), STRIKES)])).unwrap();
        let guard = Guard::new(&tmp.path().join("state.db"));
        let a = guard
            .analyze(b"app.py", Some("Python"), code, &d)
            .unwrap()
            .unwrap();
        let facts = a.code.unwrap();
        assert_eq!(facts.error.as_deref(), Some("crashed"));
        assert!(facts.symbols.is_empty());
        assert_eq!(facts.language, "Python");
        // Documents are not parsed by C code: a struck digest still gets its outline.
        let doc = b"# Title\n\nSome text.\n";
        let a = guard
            .analyze(b"README.md", Some("Markdown"), doc, &d)
            .unwrap();
        assert!(a.is_some_and(|a| a.doc.is_some()));
    }

    #[test]
    fn a_suspect_is_parsed_alone() {
        let tmp = tempfile::tempdir().unwrap();
        let code = b"def run(x):\n    return x\n";
        let d = crate::digest::hex(&<sha2::Sha256 as sha2::Digest>::digest(code));
        let dir = tmp.path().join(DIR);
        fs::create_dir_all(&dir).unwrap();
        write_strikes(
            &dir,
            analyze::analyzer_version(),
            &HashMap::from([(d.clone(), 1)]),
        )
        .unwrap();
        let guard = Guard::new(&tmp.path().join("state.db"));
        let other = guard.watch().unwrap().gate.read().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::scope(|s| {
            s.spawn(|| {
                let a = guard.analyze(b"app.py", Some("Python"), code, &d);
                tx.send(a.unwrap().unwrap()).unwrap();
            });
            let wait = std::time::Duration::from_millis(200);
            assert!(
                rx.recv_timeout(wait).is_err(),
                "parsed beside another parse"
            );
            drop(other);
            let a = rx.recv_timeout(std::time::Duration::from_secs(30)).unwrap();
            // One strike: parsed, not struck out.
            assert_eq!(a.code.unwrap().symbols.len(), 1);
        });
    }
}
