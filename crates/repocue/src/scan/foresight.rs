//! Foresight: the analysis a refresh will most likely need, made while Git computes the
//! status that names the files to read.
//!
//! An agent edits the same few files again and again, so the files that were dirty at the
//! last snapshot are the likeliest to have changed since. While `git status` runs (15 ms on
//! git/git, most of a one-file refresh), a thread of its own reads those of them whose stat
//! changed, hashes and analyzes them; the scan that reads the same content afterwards takes
//! the analysis instead of parsing the file again (9 ms for git's 14 KB `merge-ll.c`).
//!
//! Nothing is trusted that the scan would not compute itself: an analysis is a function of
//! the path and the content bytes ([`analyze::analyze`], with the language
//! [`classify::language`] reads from the same path and bytes), and it is only handed over for
//! the path and content digest the scan read. Nothing is written: what is not taken is
//! dropped by the next foresight or the process's end.

use std::io::Read;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::thread::JoinHandle;

use sha2::{Digest, Sha256};

use super::crashguard::Guard;
use crate::analyze::{self, Analysis};
use crate::classify;
use crate::digest::hex;
use crate::model::{FileState, FileType, StatKey};
use crate::paths;

/// Most files one foresight reads: a refresh that finds more changed has other costs.
const MAX_FILES: usize = 8;
/// Most analyses kept for a scan to take: what a long-lived process (the MCP server) made
/// and never needed does not pile up.
const MAX_READY: usize = 32;
/// Larger files are left to the scan: their parse would outlast Git's status.
const MAX_BYTES: u64 = 256 << 10;

/// One analysis made ahead: the path and content digest it is of.
struct Foreseen {
    path: Vec<u8>,
    digest: String,
    analysis: Option<Analysis>,
}

/// The foresight of this process: a thread at work, or what the last one made.
struct Foresight {
    pending: Option<JoinHandle<Vec<Foreseen>>>,
    ready: Vec<Foreseen>,
}

impl Foresight {
    /// Waits for the thread at work, if any, and keeps what it made.
    fn settle(&mut self) {
        if let Some(pending) = self.pending.take() {
            self.ready.extend(pending.join().unwrap_or_default());
            let over = self.ready.len().saturating_sub(MAX_READY);
            self.ready.drain(..over);
        }
    }
}

static FORESIGHT: Mutex<Foresight> = Mutex::new(Foresight {
    pending: None,
    ready: Vec::new(),
});

/// Whether a foresight was started in this process: a baseline's scan of 100,000 files asks
/// without taking the lock.
static STARTED: AtomicBool = AtomicBool::new(false);

/// Starts reading and analyzing, on a thread of its own, those of `unsettled` (the rows of
/// the current snapshot's dirty files, [`crate::store::Store::unsettled_files_at`]) whose stat
/// differs from the one their row recorded. What earlier foresights made is kept for a scan to
/// take, the latest [`MAX_READY`]. Starts nothing when no row is of an analysed file, content
/// is not analyzed (`REPOCUE_ANALYSIS=off`) or no thread can be started.
pub fn start(root: &Path, db_path: &Path, unsettled: &[FileState]) {
    let rows: Vec<FileState> = unsettled
        .iter()
        .filter(|f| f.class.analysed() && f.file_type == FileType::Text)
        .take(MAX_FILES)
        .cloned()
        .collect();
    if rows.is_empty() || !analyze::enabled() {
        return;
    }
    let root = root.to_path_buf();
    let guard = Guard::new(db_path);
    let work = move || -> Vec<Foreseen> {
        rows.iter()
            .filter_map(|f| foresee(&root, &guard, f))
            .collect()
    };
    let Ok(mut foresight) = FORESIGHT.lock() else {
        return;
    };
    foresight.settle();
    STARTED.store(true, Ordering::Release);
    foresight.pending = std::thread::Builder::new()
        .name("repocue-foresight".into())
        .spawn(work)
        .ok();
}

/// Reads and analyzes one file when its stat changed since its row was recorded and its
/// content since it was analyzed; `None` when there is nothing to do, or the scan should do
/// it (a large, binary or unreadable file, one that looks like it holds a secret, a parse
/// that ran out of time).
fn foresee(root: &Path, guard: &Guard, row: &FileState) -> Option<Foreseen> {
    let full = paths::join(root, &row.path);
    if super::links::behind_link(root, &row.path) {
        return None;
    }
    let meta = std::fs::symlink_metadata(&full).ok()?;
    if !meta.is_file() || meta.len() > MAX_BYTES || row.stat == Some(StatKey::of(&meta)) {
        return None;
    }
    // Opened as the scan opens it: a path swapped for a FIFO since the `lstat` must not block
    // the thread (the scan waits for it), nor a symbolic link lead elsewhere.
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(&full)
        .ok()?;
    let opened = file.metadata().ok()?;
    if !opened.is_file() || opened.len() > MAX_BYTES {
        return None;
    }
    let mut content = Vec::with_capacity(opened.len() as usize);
    file.take(MAX_BYTES + 1).read_to_end(&mut content).ok()?;
    if content.len() as u64 > MAX_BYTES {
        return None;
    }
    let digest = hex(&Sha256::digest(&content));
    if row.digest.as_deref() == Some(digest.as_str()) {
        return None;
    }
    let head = &content[..content.len().min(classify::HEAD_BYTES)];
    if head.contains(&0) || classify::has_secret_content(head) {
        return None;
    }
    let language = classify::language(&row.path, head);
    let analysis = guard.analyze(&row.path, language, &content, &digest).ok()?;
    Some(Foreseen {
        path: row.path.clone(),
        digest,
        analysis,
    })
}

/// Waits for a foresight at work to finish (a request that ends without a scan: the status
/// found no change), keeping what it made: no thread outlives the request that started it.
pub fn finish() {
    if !STARTED.load(Ordering::Acquire) {
        return;
    }
    if let Ok(mut foresight) = FORESIGHT.lock() {
        foresight.settle();
    }
}

/// The analysis foresight made of `path` with content `digest`, waiting for a foresight at
/// work to finish; `None` when it made none.
pub(super) fn take(path: &[u8], digest: &str) -> Option<Option<Analysis>> {
    if !STARTED.load(Ordering::Acquire) {
        return None;
    }
    let mut foresight = FORESIGHT.lock().ok()?;
    foresight.settle();
    let i = foresight
        .ready
        .iter()
        .position(|f| f.path == path && f.digest == digest)?;
    Some(foresight.ready.remove(i).analysis)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{FileClass, WorkingState};

    /// The row a snapshot recorded of `path` as it is on disk now.
    fn row_of(root: &Path, path: &str, class: FileClass) -> FileState {
        let full = root.join(path);
        let content = std::fs::read(&full).unwrap();
        FileState {
            path: path.as_bytes().to_vec(),
            index_mode: 0o100644,
            index_oid: "0".repeat(40),
            worktree_mode: Some(0o100644),
            size: Some(content.len() as u64),
            digest: Some(hex(&Sha256::digest(&content))),
            file_type: FileType::Text,
            language: Some("Rust".into()),
            is_document: false,
            working_state: WorkingState::Unstaged,
            assume_unchanged: false,
            skip_worktree: false,
            class,
            stat: Some(StatKey::of(&std::fs::symlink_metadata(&full).unwrap())),
        }
    }

    /// Writes `content` to `path` so that its stat differs from the last one (a new inode).
    fn rewrite(root: &Path, path: &str, content: &str) {
        let tmp = root.join(format!("{path}.tmp"));
        std::fs::write(&tmp, content).unwrap();
        std::fs::rename(tmp, root.join(path)).unwrap();
    }

    #[test]
    fn foresight_hands_the_scan_the_analysis_of_what_changed_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        // Paths no other test uses: the foresight of this process is shared.
        let names = [
            "foresight_edited.rs",
            "foresight_same.rs",
            "foresight_vendored.rs",
        ];
        for n in names {
            std::fs::write(root.join(n), "pub fn before() {}\n").unwrap();
        }
        let rows: Vec<FileState> = vec![
            row_of(root, names[0], FileClass::Source),
            row_of(root, names[1], FileClass::Source),
            row_of(root, names[2], FileClass::Vendored),
        ];
        let after = "pub fn before() {}\npub fn added(x: u32) -> u32 { x }\n";
        rewrite(root, names[0], after);
        rewrite(root, names[2], after);
        let cache = tempfile::tempdir().unwrap();
        start(root, &cache.path().join("state.db"), &rows);

        let digest = hex(&Sha256::digest(after.as_bytes()));
        let expected = analyze::analyze(names[0].as_bytes(), Some("Rust"), after.as_bytes());
        let foreseen = take(names[0].as_bytes(), &digest).expect("the edited file was analyzed");
        assert_eq!(foreseen, expected.unwrap());
        assert!(foreseen.is_some_and(|a| {
            a.code
                .is_some_and(|c| c.symbols.iter().any(|s| s.name() == "added"))
        }));
        // Taken once; not for another content of the path, an unchanged file or a file
        // that is not analysed.
        assert!(take(names[0].as_bytes(), &digest).is_none());
        let unchanged = hex(&Sha256::digest(b"pub fn before() {}\n"));
        assert!(take(names[1].as_bytes(), &unchanged).is_none());
        assert!(take(names[2].as_bytes(), &digest).is_none());
    }

    /// A dirty file replaced by a FIFO is skipped, not opened for a read that would wait for
    /// a writer (the scan waits for the foresight).
    #[test]
    fn a_fifo_where_a_dirty_file_was_never_blocks_the_foresight() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let name = "foresight_fifo.rs";
        std::fs::write(root.join(name), "pub fn before() {}\n").unwrap();
        let row = row_of(root, name, FileClass::Source);
        std::fs::remove_file(root.join(name)).unwrap();
        // The project has no `unsafe` for `libc::mkfifo`: the tool makes it.
        let made = std::process::Command::new("mkfifo")
            .arg(root.join(name))
            .status()
            .unwrap();
        assert!(made.success());
        let cache = tempfile::tempdir().unwrap();
        start(root, &cache.path().join("state.db"), &[row]);
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(take(b"foresight_fifo.rs", &"0".repeat(64)));
        });
        let taken = rx
            .recv_timeout(std::time::Duration::from_secs(10))
            .expect("the foresight finished");
        assert!(taken.is_none());
    }
}
