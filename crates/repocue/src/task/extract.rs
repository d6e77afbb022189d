//! Reading pinned sources: snapshot checks, streamed full-file digests, line extraction.
//!
//! A source (or the declaration) must be tracked in the current snapshot as a regular file,
//! with no symbolic link at the path or any directory above it, in the snapshot or in the
//! working tree. The file is opened without following links, hashed in full while streaming,
//! validated as UTF-8 in full (even outside the range), and only the selected lines are kept.
//!
//! Line semantics: a line includes its LF; CRLF stays CRLF; an unterminated last line is a line
//! and stays unterminated; an empty file has no lines and is a valid whole-file source.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::Read;
use std::path::Path;

use sha2::{Digest, Sha256};

use super::declaration::{Lines, Reference};
use super::ident::{digest_string, source_id, DIGEST_PREFIX};
use crate::error::{Error, Result};
use crate::model::FileType;

/// What the snapshot records for one tracked path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// What the path was at the snapshot.
    pub file_type: FileType,
    /// Lowercase hex SHA-256 of the content, when the path had content.
    pub digest: Option<String>,
}

/// The tracked paths of one snapshot, as needed here.
pub trait SnapshotFiles {
    /// Returns the entry of a tracked path, `None` when it is not tracked.
    fn entry(&self, path: &str) -> Option<Entry>;
    /// Tells whether some tracked path lies below `dir` (`.` is always a directory).
    fn is_dir(&self, dir: &str) -> bool;
}

impl SnapshotFiles for BTreeMap<String, Entry> {
    fn entry(&self, path: &str) -> Option<Entry> {
        self.get(path).cloned()
    }

    fn is_dir(&self, dir: &str) -> bool {
        if dir == "." {
            return true;
        }
        let prefix = format!("{dir}/");
        self.range(prefix.clone()..)
            .next()
            .is_some_and(|(p, _)| p.starts_with(&prefix))
    }
}

/// Checks that `path` is tracked as a regular file with no symbolic link at or above it, and
/// returns its snapshot digest as `sha256:<hex>`.
pub fn check_tracked(snapshot: &dyn SnapshotFiles, root: &Path, path: &str) -> Result<String> {
    let symlink = |link: &str| Error::SymlinkRejected {
        path: path.to_owned(),
        link: link.to_owned(),
    };
    // Directories above the path: neither a tracked symbolic link nor one in the working tree.
    let mut end = 0;
    while let Some(i) = path[end..].find('/') {
        let dir = &path[..end + i];
        if snapshot
            .entry(dir)
            .is_some_and(|e| e.file_type == FileType::Symlink)
        {
            return Err(symlink(dir));
        }
        match std::fs::symlink_metadata(root.join(dir)) {
            Ok(m) if m.file_type().is_symlink() => return Err(symlink(dir)),
            _ => {}
        }
        end += i + 1;
    }
    let entry = snapshot.entry(path).ok_or_else(|| Error::NotTracked {
        path: path.to_owned(),
    })?;
    let not_regular = |detail: &str| Error::NotRegular {
        path: path.to_owned(),
        detail: detail.to_owned(),
    };
    match entry.file_type {
        FileType::Text | FileType::Binary => {}
        FileType::Symlink => return Err(symlink(path)),
        FileType::Gitlink => return Err(not_regular("a submodule (gitlink)")),
        FileType::Missing => return Err(not_regular("deleted from the working tree")),
        FileType::Unreadable => return Err(not_regular("unreadable when last scanned")),
    }
    let digest = entry
        .digest
        .ok_or_else(|| not_regular("no content digest in the snapshot"))?;
    Ok(format!("{DIGEST_PREFIX}{digest}"))
}

/// What one streamed read of a file found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileRead {
    /// `sha256:<hex>` of the whole file.
    pub digest: String,
    /// Number of lines (an unterminated last line counts).
    pub lines: u64,
    /// First line holding invalid UTF-8, if any.
    pub invalid_utf8_line: Option<u64>,
    /// The selected lines; `None` when longer than the retention limit.
    pub text: Option<String>,
    /// Length of the selected lines in bytes.
    pub text_bytes: u64,
    /// `sha256:<hex>` of the selected lines.
    pub text_digest: String,
}

/// Opens `root/path` without following a final symbolic link and reads it in one pass:
/// full-file digest, line count, UTF-8 validity, and the bytes of `range` (all lines when
/// `None`) kept up to `retain_limit` bytes.
pub fn read(root: &Path, path: &str, range: Option<Lines>, retain_limit: u64) -> Result<FileRead> {
    use std::os::unix::fs::OpenOptionsExt;
    let unreadable = |source: std::io::Error| Error::UnreadableFile {
        path: path.to_owned(),
        source,
    };
    let mut file = File::options()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
        .open(root.join(path))
        .map_err(|e| {
            if e.raw_os_error() == Some(libc::ELOOP) {
                Error::SymlinkRejected {
                    path: path.to_owned(),
                    link: path.to_owned(),
                }
            } else {
                unreadable(e)
            }
        })?;
    let meta = file.metadata().map_err(unreadable)?;
    if !meta.is_file() {
        return Err(Error::NotRegular {
            path: path.to_owned(),
            detail: "not a regular file in the working tree".into(),
        });
    }
    stream(&mut file, range, retain_limit).map_err(unreadable)
}

fn stream(
    file: &mut impl Read,
    range: Option<Lines>,
    retain_limit: u64,
) -> std::io::Result<FileRead> {
    let (first, last) = range.map_or((1, u64::MAX), |l| (l.start, l.end));
    let mut full = Sha256::new();
    let mut part = Sha256::new();
    let mut text: Option<Vec<u8>> = Some(Vec::new());
    let mut text_bytes = 0u64;
    let mut line = 1u64; // line of the next byte
    let mut last_byte = None;
    let mut carry: Vec<u8> = Vec::new(); // an incomplete UTF-8 sequence (never holds LF)
    let mut invalid = None;
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = match file.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        let chunk = &buf[..n];
        full.update(chunk);
        last_byte = chunk.last().copied();
        if invalid.is_none() {
            carry.extend_from_slice(chunk);
            match std::str::from_utf8(&carry) {
                Ok(_) => carry.clear(),
                Err(e) if e.error_len().is_none() => {
                    carry.drain(..e.valid_up_to());
                }
                Err(e) => {
                    let newlines = carry[..e.valid_up_to()].iter().filter(|&&b| b == b'\n');
                    invalid = Some(line + newlines.count() as u64);
                }
            }
        }
        let mut rest = chunk;
        while !rest.is_empty() {
            let (seg, ends_line) = match rest.iter().position(|&b| b == b'\n') {
                Some(i) => (&rest[..=i], true),
                None => (rest, false),
            };
            if (first..=last).contains(&line) {
                part.update(seg);
                text_bytes += seg.len() as u64;
                if text_bytes > retain_limit {
                    text = None;
                }
                if let Some(t) = text.as_mut() {
                    t.extend_from_slice(seg);
                }
            }
            if ends_line {
                line += 1;
            }
            rest = &rest[seg.len()..];
        }
    }
    if invalid.is_none() && !carry.is_empty() {
        invalid = Some(line);
    }
    let lines = match last_byte {
        None => 0,
        Some(b'\n') => line - 1,
        Some(_) => line,
    };
    let text = match (text, invalid) {
        (Some(t), None) => Some(String::from_utf8(t).expect("validated as UTF-8")),
        _ => None,
    };
    Ok(FileRead {
        digest: digest_string(&full.finalize()),
        lines,
        invalid_utf8_line: invalid,
        text,
        text_bytes,
        text_digest: digest_string(&part.finalize()),
    })
}

/// A validated, extracted source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Source {
    /// Source id: hash of path, digest and range.
    pub id: String,
    /// Repository-relative path.
    pub path: String,
    /// `sha256:<hex>` of the whole file (declared = snapshot = read).
    pub content_digest: String,
    /// The range; `None` is the whole file.
    pub lines: Option<Lines>,
    /// The original text; `None` when longer than the retention limit.
    pub text: Option<String>,
    /// Length of the text in bytes.
    pub text_bytes: u64,
    /// `sha256:<hex>` of the text.
    pub text_digest: String,
}

/// Validates a reference against the snapshot and the file and extracts its text.
///
/// Fails with `not_tracked`, `not_regular` or `symlink_rejected` (see [`check_tracked`]),
/// `stale_pin` when the declared, snapshot and read digests are not all equal, `invalid_utf8`
/// when any byte of the file is not UTF-8, `range_out_of_bounds` when the range ends past the
/// last line.
pub fn extract(
    snapshot: &dyn SnapshotFiles,
    root: &Path,
    r: &Reference,
    retain_limit: u64,
) -> Result<Source> {
    let in_snapshot = check_tracked(snapshot, root, &r.path)?;
    let read = read(root, &r.path, r.lines, retain_limit)?;
    if r.content_digest != in_snapshot || in_snapshot != read.digest {
        return Err(Error::StalePin {
            path: r.path.clone(),
            expected: r.content_digest.clone(),
            snapshot: in_snapshot,
            actual: read.digest,
        });
    }
    if let Some(line) = read.invalid_utf8_line {
        return Err(Error::InvalidUtf8 {
            path: r.path.clone(),
            line,
        });
    }
    if let Some(l) = r.lines {
        if l.end > read.lines {
            return Err(Error::RangeOutOfBounds {
                path: r.path.clone(),
                start: l.start,
                end: l.end,
                lines: read.lines,
            });
        }
    }
    Ok(Source {
        id: source_id(&r.path, &read.digest, r.lines),
        path: r.path.clone(),
        content_digest: read.digest,
        lines: r.lines,
        text: read.text,
        text_bytes: read.text_bytes,
        text_digest: read.text_digest,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::task::ident::digest_of;

    fn lines(start: u64, end: u64) -> Option<Lines> {
        Some(Lines { start, end })
    }

    fn run(bytes: &[u8], range: Option<Lines>) -> FileRead {
        // Odd chunk sizes exercise sequences and lines split across reads.
        struct Trickle<'a>(&'a [u8], usize);
        impl Read for Trickle<'_> {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                let n = self.1.min(self.0.len()).min(buf.len());
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let whole = stream(&mut Trickle(bytes, usize::MAX), range, u64::MAX).unwrap();
        for size in [1, 2, 3, 5] {
            assert_eq!(
                stream(&mut Trickle(bytes, size), range, u64::MAX).unwrap(),
                whole
            );
        }
        assert_eq!(whole.digest, digest_of(bytes));
        if let Some(t) = &whole.text {
            assert_eq!(whole.text_digest, digest_of(t.as_bytes()));
            assert_eq!(whole.text_bytes, t.len() as u64);
        }
        whole
    }

    #[test]
    fn keeps_line_endings_exactly() {
        let r = run(b"one\ntwo\nthree\n", lines(2, 3));
        assert_eq!((r.text.as_deref(), r.lines), (Some("two\nthree\n"), 3));
        let r = run(b"a\r\nb\r\nc\r\n", lines(2, 2));
        assert_eq!((r.text.as_deref(), r.lines), (Some("b\r\n"), 3));
        let r = run(b"a\nlast", lines(2, 2));
        assert_eq!((r.text.as_deref(), r.lines), (Some("last"), 2));
        let r = run(b"a\nlast", None);
        assert_eq!(r.text.as_deref(), Some("a\nlast"));
        let r = run(b"", None);
        assert_eq!((r.text.as_deref(), r.lines), (Some(""), 0));
        let r = run(b"\n\n", lines(2, 2));
        assert_eq!((r.text.as_deref(), r.lines), (Some("\n"), 2));
        let r = run(b"x\n", lines(3, 4));
        assert_eq!((r.text.as_deref(), r.lines), (Some(""), 1));
    }

    #[test]
    fn finds_invalid_utf8_anywhere_in_the_file() {
        let r = run(b"ok\nok\nbad \xff\n", lines(1, 1));
        assert_eq!(r.invalid_utf8_line, Some(3));
        assert_eq!(r.text, None);
        let r = run("ü\n€\n😀".as_bytes(), None);
        assert_eq!(r.invalid_utf8_line, None);
        assert_eq!(r.text.as_deref(), Some("ü\n€\n😀"));
        // A truncated sequence at the very end.
        assert_eq!(run(b"a\n\xe2\x82", None).invalid_utf8_line, Some(2));
        // An overlong encoding and a lone continuation byte.
        assert_eq!(run(b"\xc0\xaf", None).invalid_utf8_line, Some(1));
        assert_eq!(run(b"x\ny\n\x80", None).invalid_utf8_line, Some(3));
    }

    #[test]
    fn drops_text_beyond_the_retention_limit_but_still_hashes_it() {
        let bytes = b"0123456789\nabc\n";
        let r = stream(&mut &bytes[..], None, 10).unwrap();
        assert_eq!(r.text, None);
        assert_eq!(r.text_bytes, 15);
        assert_eq!(r.text_digest, digest_of(bytes));
        let r = stream(&mut &bytes[..], lines(2, 2), 10).unwrap();
        assert_eq!(r.text.as_deref(), Some("abc\n"));
    }

    struct Repo {
        dir: tempfile::TempDir,
        snapshot: BTreeMap<String, Entry>,
    }

    impl Repo {
        fn new() -> Self {
            Repo {
                dir: tempfile::tempdir().unwrap(),
                snapshot: BTreeMap::new(),
            }
        }

        fn file(&mut self, path: &str, bytes: &[u8]) -> String {
            let full = self.dir.path().join(path);
            std::fs::create_dir_all(full.parent().unwrap()).unwrap();
            std::fs::write(full, bytes).unwrap();
            let d = digest_of(bytes);
            self.track(path, FileType::Text, Some(&d));
            d
        }

        fn track(&mut self, path: &str, file_type: FileType, digest: Option<&str>) {
            let digest = digest.map(|d| d.strip_prefix(DIGEST_PREFIX).unwrap().to_owned());
            self.snapshot
                .insert(path.into(), Entry { file_type, digest });
        }

        fn extract(&self, path: &str, digest: &str, range: Option<Lines>) -> Result<Source> {
            let r = Reference {
                path: path.into(),
                content_digest: digest.into(),
                lines: range,
            };
            extract(&self.snapshot, self.dir.path(), &r, u64::MAX)
        }
    }

    #[test]
    fn extracts_a_pinned_range() {
        let mut repo = Repo::new();
        let d = repo.file("docs/guide.md", b"# Guide\r\nrule one\r\nrule two");
        let s = repo.extract("docs/guide.md", &d, lines(2, 3)).unwrap();
        assert_eq!(s.text.as_deref(), Some("rule one\r\nrule two"));
        assert_eq!(s.content_digest, d);
        assert_eq!(s.id, source_id("docs/guide.md", &d, lines(2, 3)));
        assert_eq!(s.text_digest, digest_of(b"rule one\r\nrule two"));
        let e = repo.extract("docs/guide.md", &d, lines(3, 4)).unwrap_err();
        assert_eq!(e.code(), "range_out_of_bounds");
        assert!(e.to_string().contains("the file has 3 lines"), "{e}");
        let empty = repo.file("empty", b"");
        assert_eq!(
            repo.extract("empty", &empty, None).unwrap().text.as_deref(),
            Some("")
        );
        assert_eq!(
            repo.extract("empty", &empty, lines(1, 1))
                .unwrap_err()
                .code(),
            "range_out_of_bounds"
        );
    }

    #[test]
    fn rejects_stale_pins_against_snapshot_and_file() {
        let mut repo = Repo::new();
        let d = repo.file("README.md", b"v1\n");
        let other = digest_of(b"v0\n");
        let e = repo.extract("README.md", &other, None).unwrap_err();
        assert_eq!(e.code(), "stale_pin");
        assert!(e.to_string().contains(&other), "{e}");
        // The file changed after the snapshot: declared = snapshot, but not the bytes read.
        std::fs::write(repo.dir.path().join("README.md"), b"v2\n").unwrap();
        let e = repo.extract("README.md", &d, None).unwrap_err();
        assert_eq!(e.code(), "stale_pin");
        assert!(e.to_string().contains(&digest_of(b"v2\n")), "{e}");
    }

    #[test]
    fn a_stale_pin_is_reported_before_invalid_utf8() {
        let mut repo = Repo::new();
        let d = repo.file("bin.txt", b"fine\n\xfe\n");
        assert_eq!(
            repo.extract("bin.txt", &d, lines(1, 1)).unwrap_err().code(),
            "invalid_utf8"
        );
        let stale = digest_of(b"x");
        assert_eq!(
            repo.extract("bin.txt", &stale, None).unwrap_err().code(),
            "stale_pin"
        );
    }

    #[test]
    fn rejects_untracked_irregular_and_linked_paths() {
        let mut repo = Repo::new();
        let d = repo.file("real/README.md", b"x\n");
        std::fs::write(repo.dir.path().join("untracked.md"), b"x\n").unwrap();
        let code = |repo: &Repo, p: &str| repo.extract(p, &d, None).unwrap_err().code();
        assert_eq!(code(&repo, "untracked.md"), "not_tracked");
        assert_eq!(code(&repo, "nowhere.md"), "not_tracked");
        repo.track("sub", FileType::Gitlink, None);
        assert_eq!(code(&repo, "sub"), "not_regular");
        repo.track("gone.md", FileType::Missing, None);
        assert_eq!(code(&repo, "gone.md"), "not_regular");
        // A symbolic link tracked as such, and a tracked path reached through a linked
        // directory in the working tree.
        std::os::unix::fs::symlink("real/README.md", repo.dir.path().join("link.md")).unwrap();
        repo.track("link.md", FileType::Symlink, Some(&d));
        assert_eq!(code(&repo, "link.md"), "symlink_rejected");
        std::os::unix::fs::symlink("real", repo.dir.path().join("alias")).unwrap();
        repo.track("alias/README.md", FileType::Text, Some(&d));
        let e = repo.extract("alias/README.md", &d, None).unwrap_err();
        assert_eq!(e.code(), "symlink_rejected");
        assert!(e.to_string().contains("(alias)"), "{e}");
        repo.track("alias", FileType::Symlink, Some(&d));
        assert_eq!(code(&repo, "alias/README.md"), "symlink_rejected");
        // Tracked as a file, but a link in the working tree now: the open refuses to follow.
        std::fs::remove_file(repo.dir.path().join("real/README.md")).unwrap();
        std::os::unix::fs::symlink("../untracked.md", repo.dir.path().join("real/README.md"))
            .unwrap();
        assert_eq!(code(&repo, "real/README.md"), "symlink_rejected");
        // A directory where a file was tracked.
        std::fs::create_dir(repo.dir.path().join("dir.md")).unwrap();
        repo.track("dir.md", FileType::Text, Some(&d));
        assert_eq!(code(&repo, "dir.md"), "not_regular");
    }

    #[test]
    fn snapshot_maps_know_their_directories() {
        let mut repo = Repo::new();
        repo.file("internal/cue/a.go", b"");
        let s = &repo.snapshot;
        assert!(s.is_dir("internal") && s.is_dir("internal/cue") && s.is_dir("."));
        assert!(!s.is_dir("internal/cue/a.go") && !s.is_dir("intern") && !s.is_dir("int"));
    }
}
