//! Scanning tracked paths: lstat, streaming SHA-256, classification, and content analysis of
//! files whose digest has not been analyzed before.
//!
//! Memory does not grow with file size: files up to [`WHOLE_READ_LIMIT`] are read whole (they
//! may need analysis), larger ones are streamed through a fixed buffer and only hashed.

use std::collections::HashSet;
use std::fs::File;
use std::io::Read;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::Path;

use rayon::prelude::*;
use sha2::{Digest, Sha256};

use crate::analyze::{self, Analysis};
use crate::classify;
use crate::digest::hex;
use crate::error::{Error, Result};
use crate::model::{FileClass, FileState, FileType, StatKey, WorkingState};
use crate::paths;

/// Files up to this size are read whole so they can be analyzed; larger ones are streamed.
pub const WHOLE_READ_LIMIT: u64 = 1 << 20;
/// How much of a file's start is kept to classify it (binary detection, shebang).
pub const HEAD_BYTES: usize = 8 << 10;
const STREAM_BUFFER: usize = 64 << 10;

/// Counters a front end may watch to show progress of a long scan.
#[derive(Debug, Default)]
pub struct Progress {
    /// Paths to scan in the current operation.
    pub total: std::sync::atomic::AtomicU64,
    /// Paths scanned so far.
    pub done: std::sync::atomic::AtomicU64,
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
    /// The indexed state.
    pub state: FileState,
    /// Content analysis, when the content was new to the cache (and not handed to a sink).
    pub analysis: Option<Analysis>,
    /// The analysis was handed to the sink.
    pub analyzed: bool,
    /// Bytes read from the file.
    pub bytes_read: u64,
    /// The file changed while it was being read.
    pub unstable: bool,
}

/// Scans the items in parallel. Digests in `known` are not analyzed again.
///
/// Fails on the first tracked file that exists but cannot be read: publishing a state for it
/// would be a guess.
///
/// With `analyze` false, content is hashed and classified but not analyzed (no outlines, no
/// symbols): the pure hashing cost, for benchmarks.
pub fn scan(
    root: &Path,
    items: Vec<ScanItem>,
    known: &HashSet<String>,
    analyze: bool,
    progress: Option<&Progress>,
    sink: Option<&std::sync::mpsc::SyncSender<(String, Analysis)>>,
) -> Result<Vec<Scanned>> {
    use std::sync::atomic::Ordering::Relaxed;
    if let Some(p) = progress {
        p.total.store(items.len() as u64, Relaxed);
        p.done.store(0, Relaxed);
    }
    let mut out: Vec<Scanned> = items
        .into_par_iter()
        .map_with(sink.cloned(), |sink, item| {
            let mut r = scan_one(root, item, known, analyze);
            if let (Ok(s), Some(tx)) = (&mut r, sink.as_ref()) {
                // Hand analyses to the writer as they are made: memory stays flat however
                // many files a baseline analyzes.
                if let (Some(a), Some(d)) = (s.analysis.take(), &s.state.digest) {
                    s.analyzed = tx.send((d.clone(), a)).is_ok();
                }
            }
            if let Some(p) = progress {
                p.done.fetch_add(1, Relaxed);
            }
            r
        })
        .collect::<Result<_>>()?;
    out.sort_by(|a, b| a.state.path.cmp(&b.state.path));
    Ok(out)
}

/// Reads one path: lstat, then the content (whole or streamed), classification, analysis and
/// the check that the file did not change while it was read.
///
/// long-fn: the system calls on one path in their order, kept in one place so the
/// open/read/re-stat sequence that detects races can be read top to bottom.
fn scan_one(
    root: &Path,
    item: ScanItem,
    known: &HashSet<String>,
    analyze: bool,
) -> Result<Scanned> {
    let full = paths::join(root, &item.path);
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
    let unreadable = |source| Error::UnreadableFile {
        path: paths::display(&state.path),
        source,
    };
    let meta = match std::fs::symlink_metadata(&full) {
        Ok(m) => m,
        Err(e) if is_absent(&e) => return Ok(missing(state)),
        Err(e) => return Err(unreadable(e)),
    };
    if item.index_mode == 0o160000 {
        // A submodule: its commit id is the content identity; its files are not ours to read.
        state.file_type = if meta.is_dir() {
            FileType::Gitlink
        } else {
            FileType::Missing
        };
        state.worktree_mode = meta.is_dir().then_some(0o160000);
        return Ok(Scanned {
            state,
            analysis: None,
            analyzed: false,
            bytes_read: 0,
            unstable: false,
        });
    }
    state.stat = Some(StatKey::of(&meta));
    let ft = meta.file_type();
    if ft.is_symlink() {
        let target = std::fs::read_link(&full).map_err(unreadable)?;
        use std::os::unix::ffi::OsStrExt;
        let bytes = target.as_os_str().as_bytes();
        state.file_type = FileType::Symlink;
        state.worktree_mode = Some(0o120000);
        state.size = Some(bytes.len() as u64);
        state.digest = Some(hex(&Sha256::digest(bytes)));
        return Ok(Scanned {
            state,
            analysis: None,
            analyzed: false,
            bytes_read: bytes.len() as u64,
            unstable: false,
        });
    }
    if !ft.is_file() {
        // A tracked file replaced by a directory or a special file: nothing to hash.
        return Ok(missing(state));
    }
    state.worktree_mode = Some(if meta.mode() & 0o111 != 0 {
        0o100755
    } else {
        0o100644
    });
    let mut file = match std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(&full)
    {
        Ok(f) => f,
        Err(e) if is_absent(&e) => return Ok(missing(state)),
        Err(e) => return Err(unreadable(e)),
    };
    let read = if meta.len() <= WHOLE_READ_LIMIT {
        read_whole(&mut file, meta.len())
    } else {
        read_streaming(&mut file)
    }
    .map_err(unreadable)?;
    let after = file.metadata().map_err(unreadable)?;
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
    if item.check_content && classify::has_secret_content(&read.head) {
        state.class = FileClass::Secret;
    }
    let digest = read.digest;
    let analysis = match (&read.whole, state.file_type) {
        (Some(content), FileType::Text)
            if analyze && state.class.analysed() && !known.contains(&digest) =>
        {
            analyze::analyze(&state.path, language, content)
        }
        _ => None,
    };
    state.digest = Some(digest);
    Ok(Scanned {
        state,
        analysis,
        analyzed: false,
        bytes_read: read.size,
        unstable,
    })
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
    }
}

fn is_absent(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
    ) || e.raw_os_error() == Some(libc::ELOOP)
}

struct FileRead {
    digest: String,
    size: u64,
    head: Vec<u8>,
    whole: Option<Vec<u8>>,
}

fn read_whole(file: &mut File, expected: u64) -> std::io::Result<FileRead> {
    let mut buf = Vec::with_capacity(expected as usize + 1);
    // Cap the read: a file that grows while we read it must not make memory unbounded.
    file.take(WHOLE_READ_LIMIT + 1).read_to_end(&mut buf)?;
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
    let full = paths::join(root, path);
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
