//! Scanning tracked paths: lstat, streaming SHA-256, classification, and content analysis of
//! files whose digest has not been analyzed before.
//!
//! Memory does not grow with file size: files up to [`WHOLE_READ_LIMIT`] are read whole (they
//! may need analysis), larger ones are streamed through a fixed buffer and only hashed.

use std::fs::File;
use std::io::Read;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::Path;

use rayon::prelude::*;
use sha2::{Digest, Sha256};

use crate::analyze::Analysis;
use crate::api::FaultKind;
use crate::classify;
use crate::digest::hex;
use crate::error::{Error, Result};
use crate::inject;
use crate::model::{FileClass, FileState, FileType, StatKey, WorkingState};
use crate::paths;

pub mod crashguard;
pub mod foresight;
mod links;

use links::{behind_link, is_absent};

/// Files up to this size are read whole so they can be analyzed; larger ones are streamed.
pub const WHOLE_READ_LIMIT: u64 = 1 << 20;
pub use crate::classify::HEAD_BYTES;
const STREAM_BUFFER: usize = 64 << 10;

/// Counters a front end may watch to show progress of a long scan.
#[derive(Debug, Default)]
pub struct Progress {
    /// Paths to scan in the current operation.
    pub total: std::sync::atomic::AtomicU64,
    /// Paths scanned so far.
    pub done: std::sync::atomic::AtomicU64,
}

/// Whether and until when a scan analyzes the content it reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Analyze {
    /// Content is hashed and classified, never analyzed (benchmarks of hashing alone).
    Off,
    /// Every file with new content is analyzed.
    All,
    /// Files are analyzed, most useful first, until the instant; the others are hashed and
    /// their analysis is deferred (a `deferred` fault the next refresh settles).
    Until(std::time::Instant),
}

impl Analyze {
    fn enabled(self) -> bool {
        self != Analyze::Off
    }

    fn past_deadline(self) -> bool {
        matches!(self, Analyze::Until(t) if std::time::Instant::now() >= t)
    }
}

/// Files scanned between two looks at a deadline's order: a scan with a deadline reads the
/// most useful files first, in batches of this many shared by the threads.
const DEADLINE_BATCH: usize = 64;

/// The order a scan with a deadline reads paths in: the project's own code and documents
/// before tests, examples and vendored code, shallow paths before deep ones.
fn usefulness(path: &[u8]) -> (bool, usize) {
    use crate::analyze::importance::{role, Role};
    (
        role(path) != Role::Source,
        path.iter().filter(|&&b| b == b'/').count(),
    )
}

/// One tracked path to scan, with what the index and status already say about it.
#[derive(Debug, Clone)]
pub struct ScanItem {
    /// Repository-relative path bytes.
    pub path: Vec<u8>,
    /// Octal index mode.
    pub index_mode: u32,
    /// Index object id.
    pub index_oid: String,
    /// Working state derived from Git status.
    pub working_state: WorkingState,
    /// `assume-unchanged` flag from the index.
    pub assume_unchanged: bool,
    /// `skip-worktree` flag from the index.
    pub skip_worktree: bool,
    /// The class the path has by its name, configuration and attributes.
    pub class: FileClass,
    /// Look for private keys and tokens in the first bytes (a hit makes the file a secret).
    pub check_content: bool,
}

/// The outcome of scanning one path.
#[derive(Debug)]
pub struct Scanned {
    /// The indexed state. For an `unreadable` or `vanished` fault it holds only what Git says
    /// (the refresh keeps the path's previous state instead, when there is one).
    pub state: FileState,
    /// Content analysis, when the content was new to the cache (and not handed to a sink).
    /// Boxed: a baseline holds one result per tracked file until it publishes, and almost
    /// all of them handed their analysis to the writer (368 of 560 bytes each, 100,000 files).
    pub analysis: Option<Box<Analysis>>,
    /// The analysis was handed to the sink.
    pub analyzed: bool,
    /// Bytes read from the file.
    pub bytes_read: u64,
    /// The file changed while it was being read.
    pub unstable: bool,
    /// Why the path could not be read or analyzed, if it could not.
    pub fault: Option<FaultKind>,
}

/// Whether facts for a content digest (hex) are already stored: such content is hashed but
/// not analyzed again. Called from the scan's threads.
pub type Known<'a> = &'a (dyn Fn(&str) -> bool + Sync);

/// Scans the items in parallel. Digests `known` says are stored are not analyzed again.
///
/// A path that cannot be read, that vanished after Git's status, or whose parse ran out of
/// time is a per-file fault in its result, never a failure of the scan: one bad file must not
/// keep every other file's state from being published.
///
/// With [`Analyze::Off`], content is hashed and classified but not analyzed (no outlines, no
/// symbols): the pure hashing cost, for benchmarks. With [`Analyze::Until`], paths are read in
/// the order of their [`usefulness`], so what the deadline leaves unanalyzed is what matters
/// least.
pub fn scan(
    root: &Path,
    mut items: Vec<ScanItem>,
    known: Known<'_>,
    analyze: Analyze,
    guard: &crashguard::Guard,
    progress: Option<&Progress>,
    sink: Option<&std::sync::mpsc::SyncSender<(String, Analysis)>>,
) -> Vec<Scanned> {
    use std::sync::atomic::Ordering::Relaxed;
    if let Some(p) = progress {
        p.total.store(items.len() as u64, Relaxed);
        p.done.store(0, Relaxed);
    }
    // Nothing to read (a refresh that found nothing changed): no thread pool to start.
    if items.is_empty() {
        return vec![];
    }
    let linked = links::linked_dirs(root, items.iter().map(|i| i.path.as_slice()));
    let one = |sink: &mut Option<std::sync::mpsc::SyncSender<(String, Analysis)>>,
               item: ScanItem,
               analyze: Analyze| {
        let behind_link = paths::parent(&item.path).is_some_and(|d| linked.contains(d));
        let mut s = scan_one(root, item, known, analyze, guard, behind_link);
        if let Some(tx) = sink.as_ref() {
            // Hand analyses to the writer as they are made: memory stays flat however many
            // files a baseline analyzes.
            if let (Some(a), Some(d)) = (s.analysis.take(), &s.state.digest) {
                s.analyzed = tx.send((d.clone(), *a)).is_ok();
            }
        }
        if let Some(p) = progress {
            p.done.fetch_add(1, Relaxed);
        }
        s
    };
    let mut out: Vec<Scanned> = match analyze {
        Analyze::Until(_) => {
            items.sort_by_cached_key(|i| usefulness(&i.path));
            let mut out = Vec::with_capacity(items.len());
            let mut rest = items.into_iter();
            // The first batch is analyzed whatever the time: every scan makes progress, so
            // deferred analysis ends however short the budget.
            let mut mode = Analyze::All;
            loop {
                let batch: Vec<ScanItem> = rest.by_ref().take(DEADLINE_BATCH).collect();
                if batch.is_empty() {
                    break;
                }
                out.par_extend(
                    batch
                        .into_par_iter()
                        .map_with(sink.cloned(), |sink, item| one(sink, item, mode)),
                );
                mode = analyze;
            }
            out
        }
        _ => items
            .into_par_iter()
            .map_with(sink.cloned(), |sink, item| one(sink, item, analyze))
            .collect(),
    };
    out.sort_by(|a, b| a.state.path.cmp(&b.state.path));
    out
}

/// Reads one path and turns what was found, or the failure to read it, into its result; a
/// path `behind_link` ([`linked_dirs`]) is absent, as Git says.
fn scan_one(
    root: &Path,
    item: ScanItem,
    known: Known<'_>,
    analyze: Analyze,
    guard: &crashguard::Guard,
    behind_link: bool,
) -> Scanned {
    let full = paths::join(root, &item.path);
    let check_content = item.check_content;
    let mut state = FileState {
        path: item.path,
        index_mode: item.index_mode,
        index_oid: item.index_oid,
        worktree_mode: None,
        size: None,
        digest: None,
        file_type: FileType::Missing,
        language: None,
        is_document: false,
        working_state: item.working_state,
        assume_unchanged: item.assume_unchanged,
        skip_worktree: item.skip_worktree,
        class: item.class,
        stat: None,
    };
    let parsing = Parsing {
        known,
        analyze,
        guard,
    };
    let found = if behind_link {
        Ok(Found::Absent)
    } else {
        read_path(&full, &mut state, parsing, check_content)
    };
    match found {
        Err(_) => faulted(unknown(state), FaultKind::Unreadable),
        Ok(Found::Absent) if vanished(&state) => {
            // What Git said of it stands; the refresh keeps its previous content, if any.
            let gone = FileState {
                file_type: FileType::Missing,
                ..unknown(state)
            };
            faulted(gone, FaultKind::Vanished)
        }
        Ok(Found::Absent | Found::NotAFile) => missing(state),
        Ok(Found::Read(r)) => Scanned {
            state,
            analysis: r.analysis.map(Box::new),
            analyzed: false,
            bytes_read: r.bytes_read,
            unstable: r.unstable,
            fault: match (r.timed_out, r.deferred) {
                (true, _) => Some(FaultKind::TimedOut),
                (false, true) => Some(FaultKind::Deferred),
                (false, false) => None,
            },
        },
    }
}

/// Which content a scan analyzes, and how: new content ([`Known`]), while [`Analyze`]
/// allows, each parse announced to the crash guard.
#[derive(Clone, Copy)]
struct Parsing<'a> {
    known: Known<'a>,
    analyze: Analyze,
    guard: &'a crashguard::Guard,
}

/// What reading one path found, besides the fields it filled in.
enum Found {
    /// Nothing at the path: it is missing, or it vanished after Git's status.
    Absent,
    /// A directory or a special file where a tracked file was: it is missing.
    NotAFile,
    /// The path was read (or had nothing to read: a gitlink, a symlink's target text).
    Read(Box<ReadOutcome>),
}

#[derive(Default)]
struct ReadOutcome {
    analysis: Option<Analysis>,
    bytes_read: u64,
    unstable: bool,
    timed_out: bool,
    /// The content was to be analyzed, but past the scan's deadline.
    deferred: bool,
}

/// Reads one path into `state`: lstat, then the content (whole or streamed), classification,
/// analysis and the check that the file did not change while it was read.
///
/// long-fn: the system calls on one path in their order, kept in one place so the
/// open/read/re-stat sequence that detects races can be read top to bottom.
fn read_path(
    full: &Path,
    state: &mut FileState,
    parsing: Parsing<'_>,
    check_content: bool,
) -> std::io::Result<Found> {
    let Parsing {
        known,
        analyze,
        guard,
    } = parsing;
    if let Some(e) = inject::read_error(&state.path) {
        return Err(e);
    }
    let meta = match std::fs::symlink_metadata(full) {
        Ok(m) => m,
        Err(e) if is_absent(&e) => return Ok(Found::Absent),
        Err(e) => return Err(e),
    };
    if state.index_mode == 0o160000 {
        // A submodule: its commit id is the content identity; its files are not ours to read.
        state.file_type = if meta.is_dir() {
            FileType::Gitlink
        } else {
            FileType::Missing
        };
        state.worktree_mode = meta.is_dir().then_some(0o160000);
        return Ok(Found::Read(Box::default()));
    }
    state.stat = Some(StatKey::of(&meta));
    let ft = meta.file_type();
    if ft.is_symlink() {
        let target = std::fs::read_link(full)?;
        use std::os::unix::ffi::OsStrExt;
        let bytes = target.as_os_str().as_bytes();
        state.file_type = FileType::Symlink;
        state.worktree_mode = Some(0o120000);
        state.size = Some(bytes.len() as u64);
        state.digest = Some(hex(&Sha256::digest(bytes)));
        return Ok(Found::Read(Box::new(ReadOutcome {
            bytes_read: bytes.len() as u64,
            ..Default::default()
        })));
    }
    if !ft.is_file() {
        // A tracked file replaced by a directory or a special file: nothing to hash.
        return Ok(Found::NotAFile);
    }
    state.worktree_mode = Some(if meta.mode() & 0o111 != 0 {
        0o100755
    } else {
        0o100644
    });
    let mut file = match std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(full)
    {
        Ok(f) => f,
        Err(e) if is_absent(&e) => return Ok(Found::Absent),
        Err(e) => return Err(e),
    };
    let read = if meta.len() <= WHOLE_READ_LIMIT {
        read_whole(&mut file, meta.len())
    } else {
        read_streaming(&mut file)
    }?;
    let after = file.metadata()?;
    let unstable = StatKey::of(&after) != StatKey::of(&meta) || after.len() != read.size;
    if unstable {
        // Never cache stat data that does not belong to the bytes we hashed.
        state.stat = None;
    }
    let language = classify::language(&state.path, &read.head);
    state.size = Some(read.size);
    state.file_type = if read.head.contains(&0) {
        FileType::Binary
    } else {
        FileType::Text
    };
    state.language = language.map(str::to_owned);
    state.is_document =
        state.file_type == FileType::Text && classify::is_document(&state.path, language);
    if check_content && classify::has_secret_content(&read.head) {
        state.class = FileClass::Secret;
    }
    let digest = read.digest;
    let wanted = analyze.enabled() && state.class.analysed() && !known(&digest);
    let deferred = wanted && analyze.past_deadline();
    let analysis = match (&read.whole, state.file_type) {
        (Some(content), FileType::Text) if wanted && !deferred => {
            match foresight::take(&state.path, &digest) {
                Some(foreseen) => Ok(foreseen),
                None => guard.analyze(&state.path, language, content, &digest),
            }
        }
        _ => Ok(None),
    };
    // Only content that would have been analyzed is deferred (not binary or streamed files).
    let deferred = deferred && read.whole.is_some() && state.file_type == FileType::Text;
    state.digest = Some(digest);
    Ok(Found::Read(Box::new(ReadOutcome {
        timed_out: analysis.is_err(),
        analysis: analysis.unwrap_or(None),
        bytes_read: read.size,
        unstable,
        deferred,
    })))
}

/// Whether an absent path vanished after Git's status was taken: Git saw it present (and
/// does not hide its absence), so the scan raced a deletion.
fn vanished(state: &FileState) -> bool {
    matches!(
        state.working_state,
        WorkingState::Clean
            | WorkingState::Staged
            | WorkingState::Unstaged
            | WorkingState::StagedUnstaged
    ) && !state.assume_unchanged
        && !state.skip_worktree
        && state.index_mode != 0o160000
}

fn missing(mut state: FileState) -> Scanned {
    state.file_type = FileType::Missing;
    // Outside a sparse checkout a file is absent by design, not deleted: Git calls it clean.
    if !state.skip_worktree {
        state.working_state = WorkingState::Deleted;
    }
    Scanned {
        state,
        analysis: None,
        analyzed: false,
        bytes_read: 0,
        unstable: false,
        fault: None,
    }
}

/// A path whose content is unknown: what Git says about it, nothing about its content.
fn unknown(state: FileState) -> FileState {
    FileState {
        worktree_mode: None,
        size: None,
        digest: None,
        file_type: FileType::Unreadable,
        language: None,
        is_document: false,
        stat: None,
        ..state
    }
}

fn faulted(state: FileState, kind: FaultKind) -> Scanned {
    Scanned {
        state,
        analysis: None,
        analyzed: false,
        bytes_read: 0,
        unstable: false,
        fault: Some(kind),
    }
}

struct FileRead {
    digest: String,
    size: u64,
    head: Vec<u8>,
    whole: Option<Vec<u8>>,
}

/// Reads a file of `expected` bytes (its size at the `lstat`) whole. A read that asks for one
/// byte more and gets exactly `expected` reached the end: a regular file returns fewer bytes
/// than asked only there, so the read of nothing that would confirm it is skipped (one system
/// call of six per file: lstat, open, read, read, fstat, close). The caller compares the size with a `fstat` after the read, which
/// is the same check at a later instant; a file that grew is read on to its end.
fn read_whole(file: &mut File, expected: u64) -> std::io::Result<FileRead> {
    let mut buf = vec![0; expected as usize + 1];
    let mut filled = 0;
    while filled < buf.len() {
        match file.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => {
                filled += n;
                if filled as u64 == expected {
                    break;
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    let grew = filled == buf.len();
    buf.truncate(filled);
    if grew {
        // Cap the read: a file that grows while we read it must not make memory unbounded.
        let left = (WHOLE_READ_LIMIT + 1).saturating_sub(filled as u64);
        file.take(left).read_to_end(&mut buf)?;
    }
    if buf.len() as u64 > WHOLE_READ_LIMIT {
        let mut hasher = Sha256::new();
        hasher.update(&buf);
        let head = buf[..HEAD_BYTES].to_vec();
        let size = buf.len() as u64 + stream_into(file, &mut hasher)?;
        return Ok(FileRead {
            digest: hex(&hasher.finalize()),
            size,
            head,
            whole: None,
        });
    }
    let head = buf[..buf.len().min(HEAD_BYTES)].to_vec();
    Ok(FileRead {
        digest: hex(&Sha256::digest(&buf)),
        size: buf.len() as u64,
        head,
        whole: Some(buf),
    })
}

fn read_streaming(file: &mut File) -> std::io::Result<FileRead> {
    let mut hasher = Sha256::new();
    let mut head = vec![0; HEAD_BYTES];
    let mut filled = 0;
    while filled < HEAD_BYTES {
        match file.read(&mut head[filled..])? {
            0 => break,
            n => filled += n,
        }
    }
    head.truncate(filled);
    hasher.update(&head);
    let size = filled as u64 + stream_into(file, &mut hasher)?;
    Ok(FileRead {
        digest: hex(&hasher.finalize()),
        size,
        head,
        whole: None,
    })
}

fn stream_into(file: &mut File, hasher: &mut Sha256) -> std::io::Result<u64> {
    let mut buf = vec![0; STREAM_BUFFER];
    let mut total = 0;
    loop {
        match file.read(&mut buf) {
            Ok(0) => return Ok(total),
            Ok(n) => {
                hasher.update(&buf[..n]);
                total += n as u64;
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
}

/// Hashes one working-tree file the way [`scan`] does, for the freshness check of dirty
/// paths. Returns `None` when the path is missing.
pub fn digest_of(root: &Path, path: &[u8]) -> Result<Option<(String, StatKey)>> {
    if let Some(source) = inject::read_error(path) {
        return Err(Error::UnreadableFile {
            path: paths::display(path),
            source,
        });
    }
    let full = paths::join(root, path);
    if behind_link(root, path) {
        return Ok(None);
    }
    let meta = match std::fs::symlink_metadata(&full) {
        Ok(m) => m,
        Err(e) if is_absent(&e) => return Ok(None),
        Err(source) => {
            return Err(Error::UnreadableFile {
                path: paths::display(path),
                source,
            })
        }
    };
    let key = StatKey::of(&meta);
    if meta.file_type().is_symlink() {
        let target = std::fs::read_link(&full).map_err(|source| Error::UnreadableFile {
            path: paths::display(path),
            source,
        })?;
        use std::os::unix::ffi::OsStrExt;
        return Ok(Some((
            hex(&Sha256::digest(target.as_os_str().as_bytes())),
            key,
        )));
    }
    if !meta.is_file() {
        return Ok(None);
    }
    let mut file = File::open(&full).map_err(|source| Error::UnreadableFile {
        path: paths::display(path),
        source,
    })?;
    let mut hasher = Sha256::new();
    stream_into(&mut file, &mut hasher).map_err(|source| Error::UnreadableFile {
        path: paths::display(path),
        source,
    })?;
    Ok(Some((hex(&hasher.finalize()), key)))
}

/// Returns the current stat key of a path, `None` when it is missing.
pub fn stat_of(root: &Path, path: &[u8]) -> Option<StatKey> {
    std::fs::symlink_metadata(paths::join(root, path))
        .ok()
        .map(|m| StatKey::of(&m))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A whole read returns the file's bytes whatever size the `lstat` before it saw: the
    /// same, smaller (the file grew: read on to the end), larger (it shrank), or empty.
    #[test]
    fn a_whole_read_returns_the_content_whatever_size_was_expected() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        for content in [&b""[..], b"x", b"hello world\n", &[7u8; 70_000][..]] {
            std::fs::write(&path, content).unwrap();
            let len = content.len() as u64;
            for expected in [len, len.saturating_sub(1), 0, len + 1, len + 4096] {
                let mut file = File::open(&path).unwrap();
                let read = read_whole(&mut file, expected).unwrap();
                assert_eq!(read.whole.as_deref(), Some(content), "expected {expected}");
                assert_eq!(read.size, len);
                assert_eq!(read.digest, hex(&Sha256::digest(content)));
            }
        }
    }

    fn item(path: &str, working_state: WorkingState) -> ScanItem {
        ScanItem {
            path: path.as_bytes().to_vec(),
            index_mode: 0o100644,
            index_oid: "aa".into(),
            working_state,
            assume_unchanged: false,
            skip_worktree: false,
            class: FileClass::Source,
            check_content: true,
        }
    }

    #[test]
    fn a_scan_result_stays_small() {
        // A baseline holds one result per tracked path until it publishes (100,000 on the
        // synthetic benchmark): an analysis inline would add 368 bytes to each.
        assert!(
            std::mem::size_of::<Scanned>() <= 208,
            "{}",
            std::mem::size_of::<Scanned>()
        );
    }

    #[test]
    fn faults_are_results_of_one_path_never_errors_of_the_scan() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("ok.txt"), "fine\n").unwrap();
        let long = "x".repeat(300);
        let items = vec![
            item("ok.txt", WorkingState::Clean),
            // Git saw it, the read did not: deleted after the status was taken.
            item("gone.txt", WorkingState::Clean),
            // Git already reports it deleted: simply missing.
            item("deleted.txt", WorkingState::Deleted),
            // A name longer than NAME_MAX fails to stat with ENAMETOOLONG, even for root.
            item(&long, WorkingState::Unstaged),
        ];
        let guard = crashguard::Guard::new(&dir.path().join("cache/state.db"));
        let out = scan(
            dir.path(),
            items,
            &|_| false,
            Analyze::All,
            &guard,
            None,
            None,
        );
        let got: Vec<(&[u8], Option<FaultKind>, FileType)> = out
            .iter()
            .map(|s| (s.state.path.as_slice(), s.fault, s.state.file_type))
            .collect();
        assert_eq!(
            got,
            [
                (b"deleted.txt".as_slice(), None, FileType::Missing),
                (b"gone.txt", Some(FaultKind::Vanished), FileType::Missing),
                (b"ok.txt", None, FileType::Text),
                (
                    long.as_bytes(),
                    Some(FaultKind::Unreadable),
                    FileType::Unreadable
                ),
            ]
        );
        let unreadable = &out[3].state;
        assert_eq!(
            (
                unreadable.digest.as_deref(),
                unreadable.size,
                unreadable.stat
            ),
            (None, None, None)
        );
        assert_eq!(unreadable.working_state, WorkingState::Unstaged);
        assert_eq!(out[1].state.working_state, WorkingState::Clean);
    }
}
