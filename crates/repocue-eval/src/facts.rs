//! The Git side of an experiment: the five deterministic facts an answer is scored against,
//! the content fingerprint that proves the repository did not change, and the scorer.
//!
//! Everything here runs `git` directly (no core internals), so the measuring half does not
//! move when the core's Git layer does.

use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::contract::GitAnswer;
use crate::error::{EvalError, Result};
use crate::util;

/// Version of the content fingerprint algorithm.
pub const FINGERPRINT_ALGORITHM: &str = "repocue/content-evidence-1";

/// Returns a Git command for `root` that takes no optional locks, uses the C locale and
/// never prompts.
pub fn git(root: &Path) -> Command {
    let mut cmd = Command::new("git");
    cmd.arg("-C")
        .arg(root)
        .args(["--no-optional-locks", "-c", "core.quotepath=false"])
        .env("LC_ALL", "C")
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_OPTIONAL_LOCKS", "0")
        .env_remove("GIT_TRACE2_EVENT")
        .stdin(Stdio::null());
    cmd
}

/// Runs Git and returns its stdout, failing with its stderr.
pub fn git_output(root: &Path, args: &[&str]) -> Result<Vec<u8>> {
    let out = git(root)
        .args(args)
        .output()
        .map_err(|e| EvalError::new("git_failed", format!("git {}: {e}", args.join(" "))))?;
    if !out.status.success() {
        return Err(EvalError::new(
            "git_failed",
            format!(
                "git {}: {}",
                args.join(" "),
                String::from_utf8_lossy(&out.stderr).trim()
            ),
        ));
    }
    Ok(out.stdout)
}

/// A work tree's root and Git directory, both canonical.
#[derive(Debug, Clone)]
pub struct Repository {
    /// Canonical work-tree root.
    pub root: PathBuf,
    /// Canonical Git directory.
    pub git_dir: PathBuf,
}

/// Resolves the work tree containing `path`.
pub fn discover(path: &Path) -> Result<Repository> {
    let start = path
        .canonicalize()
        .map_err(|e| EvalError::new("bad_path", format!("{}: {e}", path.display())))?;
    // One question per call: each answer ends with one newline, and a path may itself hold
    // newlines (a root with one was cut at it) or bytes that are no UTF-8.
    let ask = |what: &str| -> Result<PathBuf> {
        let out = git_output(&start, &["rev-parse", what]).map_err(|e| {
            EvalError::new(
                "not_a_git_repository",
                format!(
                    "{} is not inside a Git work tree ({})",
                    start.display(),
                    e.message
                ),
            )
        })?;
        let answer = out.strip_suffix(b"\n").unwrap_or(&out);
        if answer.is_empty() {
            return Err(EvalError::new(
                "git_failed",
                format!("git rev-parse {what} printed nothing"),
            ));
        }
        let path = PathBuf::from(std::ffi::OsStr::from_bytes(answer));
        path.canonicalize()
            .map_err(|e| EvalError::new("bad_path", format!("{}: {e}", path.display())))
    };
    let root = ask("--show-toplevel")?;
    let git_dir = ask("--absolute-git-dir")?;
    Ok(Repository { root, git_dir })
}

/// The five deterministic Git facts of a repository at one moment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct GitFacts {
    /// Checked-out branch; `null` when HEAD is detached.
    pub branch: Option<String>,
    /// Full HEAD commit id; `null` before the first commit.
    pub head: Option<String>,
    /// Whether anything differs from HEAD (staged, unstaged, conflicted or untracked).
    pub dirty: bool,
    /// Tracked paths with staged or unstaged changes or conflicts; a rename contributes its
    /// new path only. Sorted, de-duplicated.
    pub tracked_changes: Vec<String>,
    /// Non-ignored untracked files (each file, not collapsed directories). Sorted.
    pub untracked: Vec<String>,
}

/// Parses `git status --porcelain=v2 -z --branch --untracked-files=all` into the facts.
pub fn parse_facts(out: &[u8]) -> Result<GitFacts> {
    let bad = |why: String| EvalError::new("git_output_unparsable", why);
    let mut f = GitFacts {
        branch: None,
        head: None,
        dirty: false,
        tracked_changes: vec![],
        untracked: vec![],
    };
    let mut records = out.split(|&b| b == 0);
    while let Some(rec) = records.next() {
        if rec.is_empty() {
            continue;
        }
        if let Some(h) = rec.strip_prefix(b"# ") {
            let h = String::from_utf8_lossy(h);
            if let Some(oid) = h.strip_prefix("branch.oid ") {
                f.head = (oid != "(initial)").then(|| oid.to_owned());
            } else if let Some(name) = h.strip_prefix("branch.head ") {
                f.branch = (name != "(detached)").then(|| name.to_owned());
            }
            continue;
        }
        let fields = match rec[0] {
            b'1' => 8,
            b'2' => 9,
            b'u' => 10,
            b'?' => {
                let p = rec
                    .get(2..)
                    .ok_or_else(|| bad("empty untracked record".into()))?;
                f.untracked.push(String::from_utf8_lossy(p).into_owned());
                continue;
            }
            b'!' => continue,
            other => return Err(bad(format!("unknown status record {:?}", other as char))),
        };
        let path = rec
            .splitn(fields + 1, |&b| b == b' ')
            .nth(fields)
            .ok_or_else(|| bad("status record without path".into()))?;
        f.tracked_changes
            .push(String::from_utf8_lossy(path).into_owned());
        if rec[0] == b'2' {
            // The rename's original path follows as its own record; only the new path counts.
            records.next();
        }
    }
    f.tracked_changes.sort();
    f.tracked_changes.dedup();
    f.untracked.sort();
    f.untracked.dedup();
    f.dirty = !f.tracked_changes.is_empty() || !f.untracked.is_empty();
    Ok(f)
}

/// Captures the five facts now (one Git process).
pub fn capture_facts(root: &Path) -> Result<GitFacts> {
    parse_facts(&git_output(
        root,
        &[
            "status",
            "--porcelain=v2",
            "-z",
            "--branch",
            "--untracked-files=all",
        ],
    )?)
}

/// A content-sensitive fingerprint of the whole checkout, untracked content included.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Fingerprint {
    /// Algorithm id, [`FINGERPRINT_ALGORITHM`].
    pub algorithm: String,
    /// `sha256:` over the encoded entries; the value that is compared.
    pub value: String,
    /// Whether every entry could be read; incomplete evidence cannot bind a calibration.
    pub complete: bool,
    /// Entries that could not be hashed, with the reason (paths are repository-relative).
    pub unreadable: Vec<String>,
    /// When it was captured (RFC 3339 UTC).
    pub captured_at: String,
    /// Capture cost: wall time in milliseconds (experiment overhead, not RepoCue's).
    pub duration_ms: u64,
    /// Capture cost: files hashed.
    pub entries_hashed: u64,
    /// Capture cost: bytes read while hashing.
    pub bytes_read: u64,
    /// Capture cost: Git processes.
    pub git_processes: u64,
    /// Untracked entries included.
    pub untracked_entries: u64,
    /// Bytes of untracked files included.
    pub untracked_bytes: u64,
}

/// Captures the content fingerprint: the Git status records and index listing, plus the
/// content of every tracked path that differs from the index and of every non-ignored
/// untracked entry (symlinks by their target text, never followed).
///
/// Unchanged tracked files are covered by their index object ids, which Git's status has
/// just confirmed against the work tree.
pub fn capture_fingerprint(root: &Path) -> Result<Fingerprint> {
    let started = Instant::now();
    let captured_at = util::now();
    let status = git_output(
        root,
        &[
            "status",
            "--porcelain=v2",
            "-z",
            "--branch",
            "--untracked-files=all",
        ],
    )?;
    let index = git_output(root, &["ls-files", "-z", "--stage"])?;
    let mut h = Sha256::new();
    h.update(FINGERPRINT_ALGORITHM.as_bytes());
    h.update([0]);
    h.update(util::hex_sha256(&status).as_bytes());
    h.update([0]);
    h.update(util::hex_sha256(&index).as_bytes());
    h.update([0]);
    let facts = parse_facts(&status)?;
    let mut entries: Vec<(&str, &String)> = facts
        .tracked_changes
        .iter()
        .map(|p| ("tracked", p))
        .chain(facts.untracked.iter().map(|p| ("untracked", p)))
        .collect();
    entries.sort_by(|a, b| a.1.as_bytes().cmp(b.1.as_bytes()).then(a.0.cmp(b.0)));
    let mut fp = Fingerprint {
        algorithm: FINGERPRINT_ALGORITHM.into(),
        value: String::new(),
        complete: true,
        unreadable: vec![],
        captured_at,
        duration_ms: 0,
        entries_hashed: 0,
        bytes_read: 0,
        git_processes: 2,
        untracked_entries: facts.untracked.len() as u64,
        untracked_bytes: 0,
    };
    for (kind, rel) in entries {
        let path = root.join(rel);
        let (desc, bytes) = match entry_digest(&path) {
            Ok(v) => v,
            Err(why) => {
                fp.complete = false;
                fp.unreadable.push(format!("{rel}: {why}"));
                ("unreadable".to_owned(), 0)
            }
        };
        fp.entries_hashed += 1;
        fp.bytes_read += bytes;
        if kind == "untracked" {
            fp.untracked_bytes += bytes;
        }
        for part in [kind.as_bytes(), rel.as_bytes(), desc.as_bytes()] {
            h.update((part.len() as u64).to_le_bytes());
            h.update(part);
        }
    }
    fp.value = format!("sha256:{}", util::hex(&h.finalize()));
    fp.duration_ms = started.elapsed().as_millis() as u64;
    Ok(fp)
}

/// Describes one entry as `kind mode digest`; returns the bytes read.
fn entry_digest(path: &Path) -> std::result::Result<(String, u64), String> {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        // A tracked deletion: absence is the state.
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(("absent".into(), 0)),
        Err(e) => return Err(e.to_string()),
    };
    let ft = meta.file_type();
    if ft.is_symlink() {
        let target = std::fs::read_link(path).map_err(|e| e.to_string())?;
        let t = target.as_os_str().as_bytes();
        return Ok((format!("symlink {}", util::digest(t)), t.len() as u64));
    }
    if ft.is_file() {
        let mut f = std::fs::File::open(path).map_err(|e| e.to_string())?;
        let mut h = Sha256::new();
        let mut n: u64 = 0;
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            use std::io::Read;
            let k = f.read(&mut buf).map_err(|e| e.to_string())?;
            if k == 0 {
                break;
            }
            h.update(&buf[..k]);
            n += k as u64;
        }
        return Ok((
            format!(
                "file {:o} sha256:{}",
                meta.mode() & 0o111,
                util::hex(&h.finalize())
            ),
            n,
        ));
    }
    if ft.is_dir() {
        // A nested repository or submodule shows as a directory: only its presence counts.
        return Ok(("directory".into(), 0));
    }
    Err("unsupported file type".into())
}

/// The scored result of one answer against its contemporaneous basis.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Score {
    /// Facts that matched.
    pub passed: u32,
    /// Facts scored (always 5).
    pub total: u32,
    /// Per fact: branch, head, dirty, tracked_changes, untracked.
    pub facts: FactResults,
}

/// Pass/fail per fact.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FactResults {
    /// Branch (both null, or equal).
    pub branch: bool,
    /// HEAD (both null, or equal full ids).
    pub head: bool,
    /// Dirty flag.
    pub dirty: bool,
    /// Set of tracked changed paths.
    pub tracked_changes: bool,
    /// Set of untracked paths.
    pub untracked: bool,
}

/// Scores the Git part of an answer against the facts captured for that attempt.
pub fn score(answer: &GitAnswer, basis: &GitFacts) -> Score {
    let set = |v: &[String]| {
        let mut v = v.to_vec();
        v.sort();
        v.dedup();
        v
    };
    let facts = FactResults {
        branch: answer.branch == basis.branch,
        head: answer.head == basis.head,
        dirty: answer.dirty == basis.dirty,
        tracked_changes: set(&answer.tracked_changes) == set(&basis.tracked_changes),
        untracked: set(&answer.untracked) == set(&basis.untracked),
    };
    let passed = [
        facts.branch,
        facts.head,
        facts.dirty,
        facts.tracked_changes,
        facts.untracked,
    ]
    .iter()
    .filter(|b| **b)
    .count() as u32;
    Score {
        passed,
        total: 5,
        facts,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A root whose name holds a newline is found whole (it was cut at the newline: `bad_path`).
    #[test]
    fn a_root_with_a_newline_in_its_name_is_discovered() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("a\nb");
        std::fs::create_dir(&root).unwrap();
        let init = Command::new("git")
            .args(["init", "-q"])
            .current_dir(&root)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .status()
            .unwrap();
        assert!(init.success());
        let repo = discover(&root).unwrap();
        assert_eq!(repo.root, root.canonicalize().unwrap());
        assert_eq!(repo.git_dir, root.join(".git").canonicalize().unwrap());
    }

    #[test]
    fn parses_renames_conflicts_and_detached_heads() {
        let out =
            b"# branch.oid 0123456789012345678901234567890123456789\0# branch.head (detached)\0\
1 .M N... 100644 100644 100644 aaaa bbbb src/a.rs\0\
2 R. N... 100644 100644 100644 aaaa bbbb R100 new name.rs\0old.rs\0\
u UU N... 100644 100644 100644 100644 a b c conflict.txt\0\
? notes/todo.md\0! target/x\0";
        let f = parse_facts(out).unwrap();
        assert_eq!(f.branch, None);
        assert_eq!(
            f.head.as_deref(),
            Some("0123456789012345678901234567890123456789")
        );
        assert_eq!(
            f.tracked_changes,
            ["conflict.txt", "new name.rs", "src/a.rs"]
        );
        assert_eq!(f.untracked, ["notes/todo.md"]);
        assert!(f.dirty);
        let unborn = parse_facts(b"# branch.oid (initial)\0# branch.head main\0").unwrap();
        assert_eq!(
            (unborn.head, unborn.branch.as_deref(), unborn.dirty),
            (None, Some("main"), false)
        );
    }

    #[test]
    fn scores_sets_regardless_of_order_and_duplicates() {
        let basis = GitFacts {
            branch: Some("main".into()),
            head: None,
            dirty: true,
            tracked_changes: vec!["a".into(), "b".into()],
            untracked: vec!["u".into()],
        };
        let mut answer = GitAnswer {
            branch: Some("main".into()),
            head: None,
            dirty: true,
            tracked_changes: vec!["b".into(), "a".into(), "a".into()],
            untracked: vec!["u".into()],
        };
        assert_eq!(score(&answer, &basis).passed, 5);
        answer.branch = Some("master".into());
        answer.untracked.clear();
        let s = score(&answer, &basis);
        assert_eq!(
            (s.passed, s.facts.branch, s.facts.untracked),
            (3, false, false)
        );
    }
}
