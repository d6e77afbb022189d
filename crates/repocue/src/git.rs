//! Running Git and parsing what it prints: discovery, the status basis and the index listing.
//!
//! RepoCue never re-implements Git's status logic. Every Git process goes through [`Git::run`],
//! which counts it, so each operation can report how many processes it cost.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::api::Commit;
use crate::classify::Attributes;
use crate::digest::{hex, hex_sha256};
use crate::error::{Error, Result};
use crate::model::WorkingState;
use sha2::{Digest, Sha256};

/// A Git runner bound to one work tree, counting the processes it starts.
#[derive(Debug)]
pub struct Git {
    root: PathBuf,
    processes: Cell<u32>,
    /// A status started ahead of the capture that will use it ([`Git::prefetch_status`]).
    prefetched: RefCell<Option<StatusRun>>,
    /// The pathspec that leaves RepoCue's own cache out of the status, when the cache
    /// directory lies in the work tree ([`Git::excluding`]).
    exclude: Option<String>,
}

/// The arguments of the status a basis is captured from.
const STATUS_ARGS: [&str; 7] = [
    "status",
    "--porcelain=v2",
    "-z",
    "--branch",
    "--no-ahead-behind",
    "--untracked-files=all",
    "--ignore-submodules=none",
];

/// A Git process started in the background: read with [`Running::finish`], stopped (not left
/// behind) when dropped unread, as when the command fails first.
#[derive(Debug)]
struct Running {
    /// Always `Some` until [`Running::finish`] takes it.
    child: Option<std::process::Child>,
    args: String,
}

impl Running {
    /// Waits for the process and returns its output.
    fn finish(mut self) -> Result<Vec<u8>> {
        let failed = |detail: String| Error::Git {
            args: self.args.clone(),
            detail,
        };
        let child = self
            .child
            .take()
            .ok_or_else(|| failed("output already read".into()))?;
        let out = child
            .wait_with_output()
            .map_err(|e| failed(e.to_string()))?;
        if !out.status.success() {
            return Err(failed(
                String::from_utf8_lossy(&out.stderr).trim().to_owned(),
            ));
        }
        Ok(out.stdout)
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// A running `git status`, with what was observed just before it started.
#[derive(Debug)]
struct StatusRun {
    run: Running,
    index_sig: Option<String>,
    observed_at: String,
    observed_ns: i64,
}

/// A running `git log` of the recent commits ([`Git::start_recent_commits`]).
#[derive(Debug)]
pub struct RecentCommits(Running, usize);

impl RecentCommits {
    /// Waits for the log and parses it: at most the number asked for, merges that say only
    /// where they came from left out ([`says_only_where_from`]). A merge of a long-lived
    /// branch (flask merges `stable` into `main`), or another that names no change, stands
    /// for the commits it brought in, read by one more `git log` each (at most
    /// [`MAX_MERGES_READ`]): under the first-parent line they are otherwise not there.
    pub fn finish(self, git: &Git) -> Result<Vec<Commit>> {
        let n = self.1;
        let mut commits = Vec::new();
        let mut read = 0;
        for entry in parse_log(&self.0.finish()?) {
            match entry.brought {
                Some(range) if read < MAX_MERGES_READ && commits.len() < n => {
                    read += 1;
                    let count = format!("-n{n}");
                    let out = git.run(&[
                        "log",
                        "--no-merges",
                        &count,
                        "-z",
                        "--no-show-signature",
                        LOG_FORMAT,
                        &range,
                        "--",
                    ])?;
                    let mut brought: Vec<Commit> =
                        parse_log(&out).into_iter().map(|e| e.commit).collect();
                    if let ([one], Some(n)) = (brought.as_mut_slice(), &entry.number) {
                        if without_pull_request(&one.subject) == one.subject {
                            one.subject = format!("{} (#{n})", one.subject);
                        }
                    }
                    commits.extend(brought);
                }
                _ => commits.push(entry.commit),
            }
        }
        commits.retain(|c| !says_only_where_from(&c.subject));
        // A change merged twice (a pull request into `stable`, then `stable` into `main`:
        // jinja's `svg logo` and `svg logo (#2102)`; commons-lang's subject once with a full
        // stop, once without) is listed once, its newest entry.
        let mut seen = std::collections::HashSet::new();
        commits.retain(|c| seen.insert(change_named(&c.subject)));
        commits.truncate(self.1);
        Ok(commits)
    }
}

/// Whether a commit subject is a merge's that names only where it came from and went: a pull
/// request's number (`Merge pull request #1014 from org/feature`, `Merge #1300`), a remote or
/// a URL (`Merge remote-tracking branch 'origin/master'`, `Merge branch 'master' of
/// https://…`), the branch it went into (`Merge branch 'master' into develop`). The commits it
/// brings in say what changed; three reviewers saw one of the overview's two lines spent on
/// it (javapoet's `Deprecate JavaPoet` cut for `Merge pull request #1014`). A topic's merge
/// names the topic and stays (git's `Merge branch 'kh/doc-trailers'`).
fn says_only_where_from(subject: &str) -> bool {
    if is_dependency_bump(subject) {
        return true;
    }
    let Some(rest) = subject.strip_prefix("Merge ") else {
        return false;
    };
    rest.starts_with("pull request #")
        || rest.starts_with('#')
        || rest.starts_with("remote-tracking branch ")
        || (rest.starts_with("branch ") && (rest.contains("' into ") || rest.contains("' of ")))
        || rest
            .strip_prefix("branch '")
            .and_then(|b| b.strip_suffix('\''))
            .is_some_and(is_long_lived_branch)
}

/// Whether a branch is one a project keeps rather than a topic's: `main`, `stable`,
/// `develop`, a release's (`release/2.1`, `3.1.x`, `v2`). Its merge names no change (jinja
/// listed `Merge branch 'stable'` three times in ten).
fn is_long_lived_branch(branch: &str) -> bool {
    const KEPT: &[&str] = &[
        "main",
        "master",
        "develop",
        "development",
        "dev",
        "stable",
        "next",
        "trunk",
        "maint",
        "latest",
        "staging",
        "production",
    ];
    let release = branch
        .strip_prefix("release")
        .is_some_and(|r| r.is_empty() || r.starts_with(['/', '-', '_']));
    let version = branch
        .trim_start_matches('v')
        .split(['.', '-'])
        .all(|p| !p.is_empty() && (p == "x" || p.bytes().all(|b| b.is_ascii_digit())));
    KEPT.contains(&branch) || release || version
}

/// What a subject says changed, to tell the same change committed twice: without the pull
/// request number a merge appends, a closing full stop or the case of its letters.
fn change_named(subject: &str) -> String {
    let bare = |s: &str| s.trim_end_matches(['.', ' ']).to_owned();
    bare(without_pull_request(&bare(subject))).to_lowercase()
}

/// A subject without the pull request number a merge appends (`svg logo (#2102)`).
fn without_pull_request(subject: &str) -> &str {
    match subject.rsplit_once(" (#") {
        Some((before, number))
            if number
                .strip_suffix(')')
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())) =>
        {
            before
        }
        _ => subject,
    }
}

/// One entry of the index listing (`git ls-files -s -v`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexEntry {
    /// Repository-relative path bytes.
    pub path: Vec<u8>,
    /// Octal index mode, e.g. `0o100644`.
    pub mode: u32,
    /// Object id of the staged blob (or commit, for a gitlink).
    pub oid: String,
    /// Merge stage: 0 normally, 1–3 for a conflicted path.
    pub stage: u8,
    /// Git hides working-tree changes of this entry (`update-index --assume-unchanged`).
    pub assume_unchanged: bool,
    /// The entry is outside the sparse checkout (`skip-worktree`).
    pub skip_worktree: bool,
}

/// How a path appears in `git status --porcelain=v2`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatusEntry {
    /// Repository-relative path bytes (the new path of a rename).
    pub path: Vec<u8>,
    /// The old path of a rename or copy.
    pub orig_path: Option<Vec<u8>>,
    /// Index (staged) status letter, `.` when unchanged.
    pub x: u8,
    /// Working-tree (unstaged) status letter, `.` when unchanged.
    pub y: u8,
    /// The entry is an unmerged (conflicted) path.
    pub unmerged: bool,
}

/// The Git basis of one scan, captured once before any file is read.
#[derive(Debug, Clone)]
pub struct Basis {
    /// Current branch, `None` when HEAD is detached.
    pub branch: Option<String>,
    /// HEAD commit, `None` before the first commit.
    pub head: Option<String>,
    /// Tracked paths with staged or unstaged changes, and conflicts.
    pub changed: Vec<StatusEntry>,
    /// Untracked, non-ignored paths.
    pub untracked: Vec<Vec<u8>>,
    /// SHA-256 over the status records (not the branch headers).
    pub status_digest: String,
    /// The index entries, in Git's order (sorted by path, then stage); a refresh moves them
    /// out into its plan's input.
    pub index: Vec<IndexEntry>,
    /// SHA-256 over the raw index listing.
    pub index_digest: String,
    /// When the basis was observed (RFC 3339 UTC).
    pub observed_at: String,
    /// The same instant in nanoseconds since the Unix epoch.
    pub observed_ns: i64,
    /// Whether `index` holds the listing; `false` when an unchanged index file made the
    /// listing unnecessary (then `index_digest` is the known digest and `index` is empty).
    pub index_listed: bool,
    /// Stat signature of the index file, when its location is known.
    pub index_sig: Option<String>,
    /// The `linguist-*` attributes of the listed paths, when the capture was asked for them
    /// (a baseline classifies every path: one `git check-attr` runs while the status does).
    /// Only paths with an attribute set are in it: a listed path that is not has none.
    pub attributes: Option<HashMap<Vec<u8>, Attributes>>,
}

impl Basis {
    /// Tells whether anything differs from HEAD (staged, unstaged, conflicted or untracked).
    pub fn dirty(&self) -> bool {
        !self.changed.is_empty() || !self.untracked.is_empty()
    }

    /// Paths HEAD holds that the index no longer does, sorted: staged deletions (`git rm`)
    /// and the old paths of staged renames (`git mv`). A conflict is no deletion.
    pub fn removed(&self) -> Vec<Vec<u8>> {
        let mut out: Vec<Vec<u8>> = self
            .changed
            .iter()
            .filter(|e| !e.unmerged)
            .filter_map(|e| match e.x {
                b'D' => Some(e.path.clone()),
                b'R' => e.orig_path.clone(),
                _ => None,
            })
            .collect();
        out.sort();
        out.dedup();
        out
    }
}

impl Git {
    /// Creates a runner for the work tree at `root` (already resolved).
    pub fn new(root: PathBuf) -> Self {
        Git {
            root,
            processes: Cell::new(0),
            prefetched: RefCell::new(None),
            exclude: None,
        }
    }

    /// This runner, whose status leaves out the directory `rel` (repository-relative): a cache
    /// kept in the work tree is no untracked content of the repository, and its files come and
    /// go with every command (a WAL, its shared memory), which no read must take for a change.
    /// A path that is not UTF-8 is left in (pathspecs are passed as text).
    pub fn excluding(self, rel: Option<&Path>) -> Self {
        let exclude = rel
            .and_then(Path::to_str)
            .filter(|r| !r.is_empty())
            .map(|r| format!(":(exclude,literal,top){r}"));
        Git { exclude, ..self }
    }

    /// Returns the work-tree root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Returns how many Git processes this runner has started.
    pub fn processes(&self) -> u32 {
        self.processes.get()
    }

    /// Adds processes started elsewhere on behalf of the same operation (discovery).
    pub fn add_processes(&self, n: u32) {
        self.processes.set(self.processes.get() + n);
    }

    /// Runs Git in the work tree and returns its stdout; a non-zero exit is an error.
    pub fn run(&self, args: &[&str]) -> Result<Vec<u8>> {
        let (ok, stdout, stderr) = self.run_raw(args)?;
        if !ok {
            return Err(Error::Git {
                args: args.join(" "),
                detail: stderr,
            });
        }
        Ok(stdout)
    }

    fn run_raw(&self, args: &[&str]) -> Result<(bool, Vec<u8>, String)> {
        self.processes.set(self.processes.get() + 1);
        let out = command(&self.root)
            .args(args)
            .output()
            .map_err(|e| Error::Git {
                args: args.join(" "),
                detail: e.to_string(),
            })?;
        let stderr = String::from_utf8_lossy(&out.stderr).trim().to_owned();
        Ok((out.status.success(), out.stdout, stderr))
    }

    /// Runs Git with `input` on its stdin (written by a second thread, so a large input and
    /// a large output cannot block each other) and returns its stdout.
    fn run_with_input(&self, args: &[&str], input: Vec<u8>) -> Result<Vec<u8>> {
        self.processes.set(self.processes.get() + 1);
        let failed = |detail: String| Error::Git {
            args: args.join(" "),
            detail,
        };
        let mut child = command(&self.root)
            .args(args)
            .stdin(Stdio::piped())
            .spawn()
            .map_err(|e| failed(e.to_string()))?;
        let mut stdin = child
            .stdin
            .take()
            .ok_or_else(|| failed("no stdin".into()))?;
        let writer = std::thread::spawn(move || {
            use std::io::Write;
            // A write error shows up as Git's exit status or output below.
            let _ = stdin.write_all(&input);
        });
        let out = child
            .wait_with_output()
            .map_err(|e| failed(e.to_string()))?;
        let _ = writer.join();
        if !out.status.success() {
            return Err(failed(
                String::from_utf8_lossy(&out.stderr).trim().to_owned(),
            ));
        }
        Ok(out.stdout)
    }

    /// The entries of a commit's tree, recursively (`git ls-tree -r -z --full-tree`): mode,
    /// object id and path of every blob and submodule.
    pub fn tree_entries(&self, commit: &str) -> Result<Vec<(u32, String, Vec<u8>)>> {
        let out = self.run(&["ls-tree", "-r", "-z", "--full-tree", commit])?;
        let mut entries = Vec::new();
        for record in out.split(|&b| b == 0).filter(|r| !r.is_empty()) {
            let bad = || Error::Git {
                args: format!("ls-tree -r -z --full-tree {commit}"),
                detail: format!("unexpected output {:?}", String::from_utf8_lossy(record)),
            };
            let tab = record.iter().position(|&b| b == b'\t').ok_or_else(bad)?;
            let meta = std::str::from_utf8(&record[..tab]).map_err(|_| bad())?;
            let mut fields = meta.split(' ');
            let (Some(mode), Some(_kind), Some(oid)) =
                (fields.next(), fields.next(), fields.next())
            else {
                return Err(bad());
            };
            let mode = u32::from_str_radix(mode, 8).map_err(|_| bad())?;
            entries.push((mode, oid.to_owned(), record[tab + 1..].to_vec()));
        }
        Ok(entries)
    }

    /// The contents of blobs by object id, in one `git cat-file --batch` (none for no ids).
    pub fn blobs(&self, oids: &[&str]) -> Result<HashMap<String, Vec<u8>>> {
        let mut out = HashMap::new();
        if oids.is_empty() {
            return Ok(out);
        }
        let input: Vec<u8> = oids
            .iter()
            .flat_map(|o| format!("{o}\n").into_bytes())
            .collect();
        let bytes = self.run_with_input(&["cat-file", "--batch"], input)?;
        let bad = |detail: &str| Error::Git {
            args: "cat-file --batch".into(),
            detail: detail.to_owned(),
        };
        let mut rest = bytes.as_slice();
        while !rest.is_empty() {
            let end = rest
                .iter()
                .position(|&b| b == b'\n')
                .ok_or_else(|| bad("no header"))?;
            let header = std::str::from_utf8(&rest[..end]).map_err(|_| bad("header"))?;
            rest = &rest[end + 1..];
            let mut fields = header.split(' ');
            let (Some(oid), Some(kind)) = (fields.next(), fields.next()) else {
                return Err(bad(header));
            };
            if kind == "missing" {
                continue;
            }
            let size: usize = fields
                .next()
                .and_then(|n| n.parse().ok())
                .ok_or_else(|| bad(header))?;
            if rest.len() < size + 1 {
                return Err(bad("short content"));
            }
            out.insert(oid.to_owned(), rest[..size].to_vec());
            rest = &rest[size + 1..];
        }
        Ok(out)
    }

    /// Returns the `linguist-vendored` and `linguist-generated` attributes of the paths, in
    /// one `git check-attr --stdin -z` process (none for no paths). Attributes come from the
    /// work tree's `.gitattributes` files, `info/attributes` and the user's attributes file.
    pub fn linguist_attributes(&self, paths: &[&[u8]]) -> Result<HashMap<Vec<u8>, Attributes>> {
        if paths.is_empty() {
            return Ok(HashMap::new());
        }
        let mut input = Vec::with_capacity(paths.iter().map(|p| p.len() + 1).sum());
        for p in paths {
            input.extend_from_slice(p);
            input.push(0);
        }
        let args = [
            "check-attr",
            "--stdin",
            "-z",
            "linguist-vendored",
            "linguist-generated",
        ];
        let out = self.run_with_input(&args, input)?;
        parse_check_attr(&out).map_err(|detail| Error::GitParse {
            args: args.join(" "),
            detail,
        })
    }

    /// Returns the index file of an ordinary repository (`<root>/.git/index`), `None` for
    /// linked worktrees, separate Git dirs or environment overrides.
    pub fn index_file(&self) -> Option<PathBuf> {
        let overridden = [
            "GIT_DIR",
            "GIT_INDEX_FILE",
            "GIT_WORK_TREE",
            "GIT_COMMON_DIR",
        ]
        .iter()
        .any(|v| std::env::var_os(v).is_some());
        let dot_git = self.root.join(".git");
        (!overridden && dot_git.is_dir()).then(|| dot_git.join("index"))
    }

    /// Reads what HEAD names in an ordinary repository's `.git/HEAD`: `Some(Some(branch))` for a
    /// branch (`ref: refs/heads/<branch>`), `Some(None)` for a detached HEAD (an object id).
    /// `None` when the layout is not the ordinary one or the file says anything else: then
    /// `git symbolic-ref` is asked. Reading the file spares a Git process on every command in
    /// a detached checkout (1.5 ms of a 6 ms `status` on pallets/flask).
    fn head_ref(&self) -> Option<Option<String>> {
        let head = std::fs::read(self.index_file()?.with_file_name("HEAD")).ok()?;
        let head = trim_newline(&head);
        if let Some(branch) = head.strip_prefix(b"ref: refs/heads/") {
            let branch = std::str::from_utf8(branch).ok()?;
            // A reftable repository's file names a placeholder no branch can be named, whatever
            // HEAD is (a detached one was reported as branch `.invalid`).
            let named = !branch.is_empty() && !branch.contains('\n') && branch != ".invalid";
            return named.then(|| Some(branch.to_owned()));
        }
        let object_id = matches!(head.len(), 40 | 64) && head.iter().all(u8::is_ascii_hexdigit);
        object_id.then_some(None)
    }

    /// Captures the basis: status (branch, HEAD, changed and untracked paths) and the index.
    /// Costs two Git processes, three when HEAD is detached and `.git/HEAD` cannot be read (to
    /// tell a detached HEAD from a branch literally named `(detached)`). Skips the index
    /// listing when the index file's stat signature still equals `known` (signature, listing digest): Git
    /// replaces the index by rename, so an equal signature means equal contents. The file is
    /// checked before and after `git status`, so a concurrent `git add` is never missed.
    pub fn capture_basis_since(
        &self,
        known: Option<(&str, &str)>,
        attributes: bool,
    ) -> Result<Basis> {
        let prefetched = self.prefetched.borrow_mut().take();
        let run = match prefetched {
            Some(run) => run,
            None => self.start_status()?,
        };
        let index_file = self.index_file();
        let sig_before = run.index_sig.clone();
        let (observed_at, observed_ns) = (run.observed_at.clone(), run.observed_ns);
        // Without a known index the listing is needed whatever the status says: it (and the
        // attributes of its paths) is read while Git computes the status. The status is
        // waited for before any error of theirs is returned.
        let early = known.is_none().then(|| {
            let listing = self.list_index()?;
            let attrs = match attributes {
                true => {
                    let paths: Vec<&[u8]> = listing.1.iter().map(|e| e.path.as_slice()).collect();
                    let mut read = self.linguist_attributes(&paths)?;
                    // Only paths with an attribute set are kept (100,000 entries otherwise).
                    read.retain(|_, a| *a != Attributes::default());
                    Some(read)
                }
                false => None,
            };
            Ok::<_, Error>((listing, attrs))
        });
        let status = run.run.finish()?;
        let early = early.transpose()?;
        let mut basis = parse_status(&status).map_err(|detail| Error::GitParse {
            args: STATUS_ARGS.join(" "),
            detail,
        })?;
        if basis.branch.is_none() {
            // Porcelain says "(detached)" both for a detached HEAD and for a branch of that name.
            basis.branch = match self.head_ref() {
                Some(head) => head,
                None => {
                    let (ok, out, _) =
                        self.run_raw(&["symbolic-ref", "--quiet", "--short", "HEAD"])?;
                    ok.then(|| String::from_utf8_lossy(trim_newline(&out)).into_owned())
                }
            };
        }
        let sig_after = index_file.as_deref().and_then(index_signature);
        basis.index_sig = sig_after.clone().filter(|a| Some(a) == sig_before.as_ref());
        match known {
            Some((sig, digest)) if basis.index_sig.as_deref() == Some(sig) => {
                basis.index_digest = digest.to_owned();
                basis.index_listed = false;
            }
            _ => {
                let ((digest, index), attrs) = match early {
                    Some(read) => read,
                    None => (self.list_index()?, None),
                };
                basis.index = index;
                basis.index_digest = digest;
                basis.attributes = attrs;
                basis.index_listed = true;
                // The listing must describe the file the signature was taken from.
                if index_file.as_deref().and_then(index_signature) != basis.index_sig {
                    basis.index_sig = None;
                }
            }
        }
        basis.observed_at = observed_at;
        basis.observed_ns = observed_ns;
        Ok(basis)
    }

    /// Lists the index: the digest of the raw listing and its entries.
    fn list_index(&self) -> Result<(String, Vec<IndexEntry>)> {
        let ls_args = ["ls-files", "-z", "--stage", "-v"];
        let listing = self.run(&ls_args)?;
        let index = parse_ls_files(&listing).map_err(|detail| Error::GitParse {
            args: ls_args.join(" "),
            detail,
        })?;
        Ok((hex_sha256(&listing), index))
    }

    /// Starts the `git status` the next [`Git::capture_basis_since`] reads, so that what a
    /// command does before it needs the basis (opening the cache, reading its snapshot, about
    /// 2 ms) runs while Git computes the status. The basis is what Git saw from this moment
    /// on, which the capture would have seen as well: nothing is written in between. A status
    /// that cannot start now is started again by the capture, which reports the failure.
    pub fn prefetch_status(&self) {
        if self.prefetched.borrow().is_some() {
            return;
        }
        if let Ok(run) = self.start_status() {
            *self.prefetched.borrow_mut() = Some(run);
        }
    }

    /// Notes the index file's signature and the time, then starts `git status`.
    fn start_status(&self) -> Result<StatusRun> {
        let index_sig = self.index_file().as_deref().and_then(index_signature);
        let observed_at = crate::time::now_rfc3339();
        let observed_ns = crate::time::now_ns();
        let mut args: Vec<&str> = STATUS_ARGS.to_vec();
        if let Some(pathspec) = &self.exclude {
            args.extend(["--", pathspec]);
        }
        Ok(StatusRun {
            run: self.spawn(&args)?,
            index_sig,
            observed_at,
            observed_ns,
        })
    }

    /// Starts Git in the background, counted like [`Git::run`].
    fn spawn(&self, args: &[&str]) -> Result<Running> {
        self.processes.set(self.processes.get() + 1);
        let child = command(&self.root)
            .args(args)
            .spawn()
            .map_err(|e| Error::Git {
                args: args.join(" "),
                detail: e.to_string(),
            })?;
        Ok(Running {
            child: Some(child),
            args: args.join(" "),
        })
    }

    /// Starts reading the most recent commits (at most `n`, some merges left out: see
    /// [`RecentCommits::finish`]) reachable from `head`, the commit
    /// the basis observed (so that the list matches the snapshot even if HEAD moves while the
    /// refresh scans); `HEAD` when that is not an object id.
    pub fn start_recent_commits(&self, n: usize, head: &str) -> Result<RecentCommits> {
        // Enough for `n` after the merges left out.
        let count = format!("-n{}", n * 3);
        let oid = !head.is_empty() && head.bytes().all(|b| b.is_ascii_hexdigit());
        // The first-parent line is what arrived where HEAD is, newest first: a merged branch's
        // commits by date sank below every later commit of the main line (googletest's newest
        // change, merged as #5046, was not among ten), and its merge's message says what came.
        let run = self.spawn(&[
            "log",
            "--first-parent",
            &count,
            "-z",
            "--no-show-signature",
            LOG_FORMAT,
            if oid { head } else { "HEAD" },
            "--",
        ])?;
        Ok(RecentCommits(run, n))
    }
}

/// The version of what [`Git::start_recent_commits`] reads, part of the rules digest
/// ([`crate::repo::Repo::rules`]): a snapshot's list is carried to the next one while HEAD
/// stays, and only under the rules it was read by (5: merges that say only where they came
/// from or merge a long-lived branch, bots' dependency bumps and a change merged twice left
/// out; 7: any commit of a dependency bot; 8: the first-parent line, a merge that names only
/// where it came from told by what its message says it brought, see [`merged_change`], or
/// standing for the commits it brought in, see [`RecentCommits::finish`]; 9: a pull
/// request's merge whose message names no change stands for what it brought, not its branch).
pub(crate) const RECENT_COMMITS_RULE: u32 = 9;

/// Whether a commit subject is a bot's dependency bump (`Bump actions/checkout from 6.0.3 to
/// 7.0.0`, `build(deps): bump serde from 1.0.1 to 1.0.2`, `chore(deps): update rust crate x
/// to v2`): both of rake's and lz4's overview lines were dependabot's, their own changes cut.
fn is_dependency_bump(subject: &str) -> bool {
    let lower = subject.to_ascii_lowercase();
    let rest = lower
        .split_once("(deps): ")
        .or_else(|| lower.split_once("(deps-dev): "))
        .map_or(lower.as_str(), |(_, r)| r);
    (rest.starts_with("bump ") && rest.contains(" from ") && rest.contains(" to "))
        || (lower.contains("(deps") && rest.starts_with("update "))
}

/// How a recent commit is read: abbreviated id, committer date, author, subject, parents,
/// body ([`parse_log`]).
const LOG_FORMAT: &str = "--format=%h%x1f%cI%x1f%an%x1f%s%x1f%P%x1f%b";

/// Most merges whose brought-in commits one reading of the recent commits lists
/// ([`RecentCommits::finish`]).
const MAX_MERGES_READ: usize = 3;

/// One record of the recent commits' log.
struct LogEntry {
    commit: Commit,
    /// For a merge that says only where it came from and names no change of its own, the
    /// range of what it brought in (`first..second` parent).
    brought: Option<String>,
    /// The pull request such a merge names, if any: a lone commit it brought in carries it
    /// (`Fix the parser (#7)`), as a squash merge's subject does.
    number: Option<String>,
}

/// The change a merge brought in where its subject names only where it came from: the first
/// line of its message's body. GitHub follows `Merge pull request #7 from x/feature` with the
/// pull request's title, GitLab and Bitbucket do likewise; the number is kept as a squash merge
/// appends it (`Fix the parser (#7)`); bors's `1300: Fix the parser r=a` is its title.
/// `None` where the body says nothing of its own (empty, a trailer, another merge line): the
/// merge then stands for the commits it brought in (leveldb's `Merge pull request #1249 from
/// victorvianna:main`, whose body is a `PiperOrigin-RevId:` trailer, was told by its branch,
/// `victorvianna:main (#1249)`, not by its change).
fn merged_change(subject: &str, body: &str) -> Option<String> {
    let digits = |n: &str| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit());
    let number = pull_request_number(subject);
    let told = body
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .map(|line| match line.split_once(": ") {
            Some((n, title)) if digits(n) => title,
            _ => line,
        })
        .filter(|line| {
            let trailer = line.split_once(": ").is_some_and(|(key, _)| {
                !key.is_empty() && key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
            });
            !trailer && !line.starts_with(['#', '*']) && !says_only_where_from(line)
        });
    let told = told?;
    Some(match number {
        Some(n) if without_pull_request(told) == told => format!("{told} (#{n})"),
        _ => told.to_owned(),
    })
}

/// The number of the pull request a GitHub merge's subject names (`Merge pull request #7
/// from x/feature`).
fn pull_request_number(subject: &str) -> Option<&str> {
    let (n, _) = subject
        .strip_prefix("Merge pull request #")?
        .split_once(" from ")?;
    (!n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())).then_some(n)
}

/// Parses `git log -z --format=%h%x1f%cI%x1f%an%x1f%s%x1f%b`; a record without the first
/// four fields is skipped, and so is a dependency bot's commit, whatever its subject says
/// (dependabot's `GH Actions: Bump codecov/codecov-action from 6.0.1 to 7.0.0` was PHPMailer's
/// only commit line at 250 tokens). A merge that names only where it came from takes the
/// subject of what it brought ([`merged_change`]) where its message says.
fn parse_log(out: &[u8]) -> Vec<LogEntry> {
    const BOTS: &[&str] = &[
        "dependabot[bot]",
        "dependabot-preview[bot]",
        "renovate[bot]",
        "pre-commit-ci[bot]",
    ];
    let mut commits = Vec::new();
    for rec in out.split(|&b| b == 0).filter(|r| !r.is_empty()) {
        let text = String::from_utf8_lossy(rec);
        let mut parts = text.trim_start_matches('\n').splitn(6, '\u{1f}');
        let (Some(id), Some(date), Some(author), Some(subject)) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        if BOTS.contains(&author) {
            continue;
        }
        let parents: Vec<&str> = parts
            .next()
            .unwrap_or_default()
            .split_whitespace()
            .collect();
        let body = parts.next();
        let number = pull_request_number(subject).map(str::to_owned);
        let (subject, brought) = match body {
            Some(body) if says_only_where_from(subject) && !is_dependency_bump(subject) => {
                match merged_change(subject, body) {
                    Some(told) => (told, None),
                    None => {
                        let range = match parents.as_slice() {
                            [first, second] => Some(format!("{first}..{second}")),
                            _ => None,
                        };
                        (subject.to_owned(), range)
                    }
                }
            }
            _ => (subject.to_owned(), None),
        };
        commits.push(LogEntry {
            commit: Commit {
                id: id.into(),
                date: date.into(),
                subject,
            },
            number: number.filter(|_| brought.is_some()),
            brought,
        });
    }
    commits
}

/// Builds a Git command that never prompts, never pages, never writes the index as a side
/// effect and prints stable, untranslated output.
/// The working state Git status reports for a path (clean when it reports nothing).
pub fn working_state(status: Option<&StatusEntry>) -> WorkingState {
    let Some(s) = status else {
        return WorkingState::Clean;
    };
    if s.unmerged {
        return WorkingState::Conflicted;
    }
    match (s.x != b'.', s.y != b'.') {
        _ if s.y == b'D' => WorkingState::Deleted,
        (true, true) => WorkingState::StagedUnstaged,
        (true, false) => WorkingState::Staged,
        (false, true) => WorkingState::Unstaged,
        (false, false) => WorkingState::Clean,
    }
}

/// A Git command as RepoCue runs it. Every output is read whole after the fact, never line by
/// line, so `GIT_FLUSH=0` lets Git buffer its stdout: `git check-attr --stdin` otherwise
/// writes each path's record in its own system call when stdout is a pipe (27,690 writes on
/// babel/babel, 40-50 ms of a baseline's CPU).
fn command(dir: &Path) -> Command {
    let mut cmd = Command::new("git");
    cmd.current_dir(dir)
        .arg("--no-optional-locks")
        .arg("-c")
        .arg("core.quotePath=false")
        .env("GIT_OPTIONAL_LOCKS", "0")
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_FLUSH", "0")
        .env("LC_ALL", "C")
        .env_remove("GIT_PAGER")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    cmd
}

/// Resolves the work-tree root that contains `start`, with one `git rev-parse` process.
pub fn discover(start: &Path) -> Result<PathBuf> {
    let meta = std::fs::metadata(start).map_err(|source| Error::BadPath {
        path: start.to_owned(),
        source,
    })?;
    let dir = if meta.is_dir() {
        start.to_owned()
    } else {
        start.parent().unwrap_or(start).to_owned()
    };
    let out = command(&dir)
        .args(["rev-parse", "--show-toplevel"])
        .output()
        .map_err(|e| Error::Git {
            args: "rev-parse --show-toplevel".into(),
            detail: e.to_string(),
        })?;
    if !out.status.success() {
        return Err(Error::NotARepository {
            path: start.to_owned(),
            detail: String::from_utf8_lossy(&out.stderr).trim().to_owned(),
        });
    }
    // rev-parse ends its single answer with one newline; a root may itself contain newlines.
    let raw = trim_newline(&out.stdout);
    if raw.is_empty() {
        return Err(Error::NotARepository {
            path: start.to_owned(),
            detail: "no work tree (bare repository or inside .git)".into(),
        });
    }
    use std::os::unix::ffi::OsStrExt;
    let root = PathBuf::from(std::ffi::OsStr::from_bytes(raw));
    root.canonicalize()
        .map_err(|source| Error::BadPath { path: root, source })
}

/// Returns `size:mtime_ns:ctime_ns:inode` of the index file, `None` when it is absent.
fn index_signature(path: &Path) -> Option<String> {
    let m = std::fs::metadata(path).ok()?;
    let k = crate::model::StatKey::of(&m);
    Some(format!(
        "{}:{}:{}:{}",
        k.size, k.mtime_ns, k.ctime_ns, k.ino
    ))
}

fn trim_newline(b: &[u8]) -> &[u8] {
    b.strip_suffix(b"\n").unwrap_or(b)
}

/// Parses `git status --porcelain=v2 -z --branch` output.
pub fn parse_status(out: &[u8]) -> std::result::Result<Basis, String> {
    let mut branch = None;
    let mut head = None;
    let mut changed = Vec::new();
    let mut untracked = Vec::new();
    let mut hasher = Sha256::new();
    let mut records = out.split(|&b| b == 0).peekable();
    while let Some(rec) = records.next() {
        if rec.is_empty() {
            continue;
        }
        if let Some(h) = rec.strip_prefix(b"# ") {
            let h = String::from_utf8_lossy(h);
            if let Some(oid) = h.strip_prefix("branch.oid ") {
                head = (oid != "(initial)").then(|| oid.to_owned());
            } else if let Some(name) = h.strip_prefix("branch.head ") {
                branch = (name != "(detached)").then(|| name.to_owned());
            }
            continue;
        }
        hasher.update(rec);
        hasher.update([0]);
        let kind = rec[0];
        match kind {
            b'1' | b'2' | b'u' => {
                // Fixed field counts before the path: 1 → 8, 2 → 9, u → 10.
                let fields = match kind {
                    b'1' => 8,
                    b'2' => 9,
                    _ => 10,
                };
                let mut it = rec.splitn(fields + 1, |&b| b == b' ');
                let xy = it.nth(1).ok_or("missing XY field")?;
                let path = it.nth(fields - 2).ok_or("missing path field")?;
                if xy.len() != 2 {
                    return Err(format!("bad XY field {:?}", String::from_utf8_lossy(xy)));
                }
                let orig_path = if kind == b'2' {
                    let orig = records.next().ok_or("rename without original path")?;
                    hasher.update(orig);
                    hasher.update([0]);
                    Some(orig.to_vec())
                } else {
                    None
                };
                changed.push(StatusEntry {
                    path: path.to_vec(),
                    orig_path,
                    x: xy[0],
                    y: xy[1],
                    unmerged: kind == b'u',
                });
            }
            b'?' => untracked.push(rec.get(2..).ok_or("empty untracked record")?.to_vec()),
            b'!' => {}
            other => return Err(format!("unknown record type {:?}", other as char)),
        }
    }
    changed.sort_by(|a, b| a.path.cmp(&b.path));
    untracked.sort();
    Ok(Basis {
        branch,
        head,
        changed,
        untracked,
        status_digest: hex(&hasher.finalize()),
        index: Vec::new(),
        index_digest: String::new(),
        observed_at: String::new(),
        observed_ns: 0,
        index_listed: false,
        index_sig: None,
        attributes: None,
    })
}

/// Parses `git check-attr -z` output: `<path> NUL <attribute> NUL <info> NUL` records, where
/// the info is `set`, `unset`, `unspecified` or a value (`false` turns the attribute off, any
/// other value on, as Linguist reads them).
pub fn parse_check_attr(out: &[u8]) -> std::result::Result<HashMap<Vec<u8>, Attributes>, String> {
    let fields: Vec<&[u8]> = out.split(|&b| b == 0).collect();
    // The output ends with a NUL, so splitting leaves one empty field at the end.
    let fields = match fields.split_last() {
        Some(([], rest)) => rest,
        _ if out.is_empty() => &[][..],
        _ => return Err("output does not end with NUL".into()),
    };
    if fields.len() % 3 != 0 {
        return Err(format!(
            "{} fields, not path/attribute/value triples",
            fields.len()
        ));
    }
    let mut map: HashMap<Vec<u8>, Attributes> = HashMap::new();
    for rec in fields.chunks(3) {
        let value = match rec[2] {
            b"unspecified" => None,
            b"unset" | b"false" => Some(false),
            _ => Some(true),
        };
        let a = map.entry(rec[0].to_vec()).or_default();
        match rec[1] {
            b"linguist-vendored" => a.vendored = value,
            b"linguist-generated" => a.generated = value,
            other => {
                return Err(format!(
                    "unexpected attribute {:?}",
                    String::from_utf8_lossy(other)
                ))
            }
        }
    }
    Ok(map)
}

/// Parses `git ls-files -z --stage -v` output: `<tag> <mode> <oid> <stage>\t<path>`.
pub fn parse_ls_files(out: &[u8]) -> std::result::Result<Vec<IndexEntry>, String> {
    let mut entries = Vec::new();
    for rec in out.split(|&b| b == 0).filter(|r| !r.is_empty()) {
        let tab = rec
            .iter()
            .position(|&b| b == b'\t')
            .ok_or("record without tab")?;
        let head = std::str::from_utf8(&rec[..tab]).map_err(|e| e.to_string())?;
        let mut f = head.split(' ');
        let (Some(tag), Some(mode), Some(oid), Some(stage)) =
            (f.next(), f.next(), f.next(), f.next())
        else {
            return Err(format!("bad index record {head:?}"));
        };
        let tag = tag.bytes().next().ok_or("empty tag")?;
        entries.push(IndexEntry {
            path: rec[tab + 1..].to_vec(),
            mode: u32::from_str_radix(mode, 8).map_err(|e| format!("bad mode {mode:?}: {e}"))?,
            oid: oid.to_owned(),
            stage: stage
                .parse()
                .map_err(|e| format!("bad stage {stage:?}: {e}"))?,
            assume_unchanged: tag.is_ascii_lowercase(),
            skip_worktree: tag.eq_ignore_ascii_case(&b'S'),
        });
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_merge_that_names_only_where_it_came_from_is_told() {
        for noise in [
            "Merge pull request #1014 from square/deprecate",
            "Merge #1300",
            "Merge remote-tracking branch 'refs/remotes/tmux-openbsd/master'",
            "Merge branch 'master' into develop-1.20.1",
            "Merge branch 'master' of https://github.com/jhy/jsoup",
            "Merge branch 'stable'",
            "Merge branch 'main'",
            "Merge branch 'release/2.1'",
            "Merge branch '3.1.x'",
            "Merge branch 'v2'",
        ] {
            assert!(says_only_where_from(noise), "{noise}");
        }
        assert_eq!(without_pull_request("svg logo (#2102)"), "svg logo");
        assert_eq!(without_pull_request("fix (#a)"), "fix (#a)");
        assert_eq!(
            change_named("Keep splits (#1777)."),
            change_named("keep splits (#1777)")
        );
        assert_ne!(change_named("Fix a"), change_named("Fix b"));
        for noise in [
            "Bump actions/checkout from 6.0.3 to 7.0.0",
            "build(deps): bump serde from 1.0.1 to 1.0.2",
            "chore(deps): update rust crate clap to v4.5",
        ] {
            assert!(says_only_where_from(noise), "{noise}");
        }
        for kept in [
            "Bump the version to 2.0",
            "Merge branch 'kh/doc-trailers'",
            "Merge branch 'stable-fixes'",
            "Merge branch 'releases-notes'",
            "Merge the two parsers",
            "Deprecate JavaPoet",
        ] {
            assert!(!says_only_where_from(kept), "{kept}");
        }
    }

    /// The recent commits are the first-parent line: a merged pull request is its merge,
    /// told by the title its message carries (or the commit it brought, with its number), at
    /// the place it arrived, not its branch's commits by their dates.
    #[test]
    fn a_merged_pull_request_is_told_by_its_title_where_it_arrived() {
        let t = crate::testing::temp_repo(&[("a.c", "int a;\n")]);
        let root = &t.repo.root;
        let git = |args: &[&str]| crate::testing::git(root, args);
        let commit = |file: &str, subject: &str| {
            std::fs::write(
                root.join(file),
                format!("int {subject:?};\n").replace(' ', "_"),
            )
            .unwrap();
            git(&["add", "-A"]);
            git(&["commit", "-q", "-m", subject]);
        };
        git(&["checkout", "-q", "-b", "feature"]);
        commit("f.c", "wip on f");
        git(&["checkout", "-q", "main"]);
        commit("b.c", "main work");
        git(&[
            "merge",
            "-q",
            "--no-ff",
            "feature",
            "-m",
            "Merge pull request #7 from x/feature",
            "-m",
            "Add the f feature",
        ]);
        git(&["checkout", "-q", "-b", "other", "HEAD~1"]);
        commit("g.c", "wip on g");
        git(&["checkout", "-q", "main"]);
        git(&[
            "merge",
            "-q",
            "--no-ff",
            "other",
            "-m",
            "Merge pull request #8 from y/other",
        ]);
        // A long-lived branch's merge stands for what it brought in.
        git(&["checkout", "-q", "-b", "stable", "HEAD~2"]);
        commit("h.c", "fix on stable");
        git(&["checkout", "-q", "main"]);
        git(&[
            "merge",
            "-q",
            "--no-ff",
            "stable",
            "-m",
            "Merge branch 'stable'",
        ]);
        let reader = Git::new(root.clone());
        let commits = reader
            .start_recent_commits(10, "HEAD")
            .unwrap()
            .finish(&reader)
            .unwrap();
        let subjects: Vec<&str> = commits.iter().map(|c| c.subject.as_str()).collect();
        assert_eq!(
            subjects,
            [
                "fix on stable",
                "wip on g (#8)",
                "Add the f feature (#7)",
                "main work",
                "initial"
            ]
        );
        assert_eq!(
            merged_change("Merge #1300", "1300: Fix the parser r=a a=b\n"),
            Some("Fix the parser r=a a=b".into())
        );
        assert_eq!(
            merged_change("Merge pull request #9 from z/fix", "Fix it (#9)\n").as_deref(),
            Some("Fix it (#9)")
        );
        assert_eq!(
            merged_change("Merge branch 'main' into dev", "Signed-off-by: A <a@b>"),
            None
        );
    }

    /// Git buffers what it writes to RepoCue whatever the caller's environment says: every
    /// output is read whole, and a flush per record costs a system call per path.
    #[test]
    fn git_buffers_its_output() {
        let cmd = command(Path::new("."));
        let flush = cmd
            .get_envs()
            .find(|(k, _)| *k == std::ffi::OsStr::new("GIT_FLUSH"))
            .and_then(|(_, v)| v);
        assert_eq!(flush, Some(std::ffi::OsStr::new("0")));
    }

    /// The recent commits are read by a process started ahead (a refresh scans meanwhile); one
    /// dropped unread is stopped and reaped, and a record without its three fields is skipped.
    #[test]
    fn recent_commits_are_read_in_the_background_and_never_left_behind() {
        let t = crate::testing::temp_repo(&[("a.rs", "fn a() {}\n")]);
        let git = Git::new(t.repo.root.clone());
        let commits = git
            .start_recent_commits(10, "HEAD")
            .unwrap()
            .finish(&git)
            .unwrap();
        assert_eq!(commits.len(), 1);
        assert_eq!(commits[0].subject, "initial");
        assert_eq!(git.processes(), 1);
        // From the observed commit, not from wherever HEAD is when Git starts.
        let first = git.run(&["rev-parse", "HEAD"]).unwrap();
        let first = String::from_utf8(first).unwrap();
        std::fs::write(t.repo.root.join("b.rs"), "fn b() {}\n").unwrap();
        crate::testing::git(&t.repo.root, &["add", "b.rs"]);
        crate::testing::git(&t.repo.root, &["commit", "-q", "-m", "second"]);
        let then = git
            .start_recent_commits(10, first.trim())
            .unwrap()
            .finish(&git)
            .unwrap();
        let now = git
            .start_recent_commits(10, "HEAD")
            .unwrap()
            .finish(&git)
            .unwrap();
        assert_eq!((then.len(), now.len()), (1, 2));
        assert_eq!(now[0].subject, "second");

        let unread = git.start_recent_commits(10, "HEAD").unwrap();
        let pid = unread
            .0
            .child
            .as_ref()
            .map(|c| c.id())
            .expect("a log was started");
        drop(unread);
        assert!(
            !Path::new(&format!("/proc/{pid}")).exists(),
            "the unread log {pid} was reaped"
        );

        let parsed = parse_log(
            b"abc\x1f2026-01-01T00:00:00Z\x1fAda\x1fa subject\0broken\0\nd\x1fdate\x1fBo\x1fs\0\
              e\x1fdate\x1fdependabot[bot]\x1fGH Actions: Bump x from 1 to 2",
        );
        let ids: Vec<&str> = parsed.iter().map(|e| e.commit.id.as_str()).collect();
        assert_eq!(ids, ["abc", "d"]);
    }

    /// A baseline's capture reads every listed path's attributes (one `check-attr`, while the
    /// status runs), and the capture of a known index reads none.
    #[test]
    fn a_capture_for_a_baseline_reads_the_attributes_of_every_listed_path() {
        let t = crate::testing::temp_repo(&[
            ("a.rs", "fn a() {}\n"),
            ("vendor/x.js", "x\n"),
            (".gitattributes", "vendor/** linguist-vendored\n"),
        ]);
        let git = Git::new(t.repo.root.clone());
        let basis = git.capture_basis_since(None, true).unwrap();
        assert_eq!(git.processes(), 3, "status, listing and check-attr");
        let attributes = basis.attributes.expect("asked for");
        // Only the path with an attribute set is kept.
        assert_eq!(attributes.len(), 1, "{attributes:?}");
        assert_eq!(attributes[b"vendor/x.js".as_slice()].vendored, Some(true));
        let plain = git.capture_basis_since(None, false).unwrap();
        assert!(plain.attributes.is_none());
        assert_eq!(plain.index_digest, basis.index_digest);
    }

    /// A prefetched status is the one the next capture reads (no second status process); the
    /// capture after it starts its own; one never read is stopped and reaped with its runner.
    #[test]
    fn a_prefetched_status_is_read_once_and_never_left_running() {
        let t = crate::testing::temp_repo(&[("a.txt", "one\n")]);
        std::fs::write(t.repo.root.join("b.txt"), "new\n").unwrap();
        let direct = Git::new(t.repo.root.clone())
            .capture_basis_since(None, false)
            .unwrap();
        let git = Git::new(t.repo.root.clone());
        git.prefetch_status();
        git.prefetch_status();
        assert_eq!(git.processes(), 1, "one status, however often prefetched");
        let basis = git.capture_basis_since(None, false).unwrap();
        assert_eq!(
            git.processes(),
            2,
            "the prefetched status and the index listing"
        );
        assert_eq!(basis.untracked, direct.untracked);
        assert_eq!(basis.status_digest, direct.status_digest);
        assert_eq!(basis.index_digest, direct.index_digest);
        assert!(basis.observed_ns <= crate::time::now_ns());
        git.capture_basis_since(None, false).unwrap();
        assert_eq!(
            git.processes(),
            4,
            "a capture without a prefetch runs its own status"
        );

        let unread = Git::new(t.repo.root.clone());
        unread.prefetch_status();
        let pid = unread
            .prefetched
            .borrow()
            .as_ref()
            .and_then(|r| r.run.child.as_ref())
            .map(|c| c.id());
        let pid = pid.expect("a status was started");
        drop(unread);
        assert!(
            !Path::new(&format!("/proc/{pid}")).exists(),
            "the unread status {pid} was reaped"
        );
    }

    /// A detached HEAD and a branch literally named `(detached)`, which porcelain prints alike,
    /// are told apart from `.git/HEAD`, with no Git process beyond the status and the listing.
    #[test]
    fn a_detached_head_is_told_from_a_branch_named_detached_without_a_process() {
        let t = crate::testing::temp_repo(&[("a.txt", "one\n")]);
        let root = &t.repo.root;
        let capture = || {
            let git = Git::new(root.clone());
            let basis = git.capture_basis_since(None, false).unwrap();
            (basis.branch, git.processes())
        };
        crate::testing::git(root, &["checkout", "-q", "--detach"]);
        assert_eq!(capture(), (None, 2));
        crate::testing::git(root, &["checkout", "-q", "-b", "(detached)"]);
        assert_eq!(capture(), (Some("(detached)".to_owned()), 2));
        crate::testing::git(root, &["checkout", "-q", "-b", "topic"]);
        assert_eq!(capture(), (Some("topic".to_owned()), 2));
        // Anything else in HEAD is Git's to read.
        std::fs::write(root.join(".git/HEAD"), "ref: refs/heads/(detached)\n").unwrap();
        assert_eq!(capture().0, Some("(detached)".to_owned()));
        let git = Git::new(root.clone());
        assert_eq!(git.head_ref(), Some(Some("(detached)".to_owned())));
        std::fs::write(root.join(".git/HEAD"), "garbage\n").unwrap();
        assert_eq!(git.head_ref(), None);
    }

    /// A reftable repository's `.git/HEAD` always names the placeholder branch `.invalid`: a
    /// detached HEAD there is no branch, and HEAD is Git's to read.
    #[test]
    fn a_reftable_repositorys_placeholder_head_names_no_branch() {
        let t = crate::testing::temp_repo(&[("a.txt", "one\n")]);
        let git = Git::new(t.repo.root.clone());
        std::fs::write(t.repo.root.join(".git/HEAD"), "ref: refs/heads/.invalid\n").unwrap();
        assert_eq!(git.head_ref(), None);
        // With a Git that writes reftable repositories (2.45 and later), end to end.
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("work");
        std::fs::create_dir_all(&root).unwrap();
        let reftable = Command::new("git")
            .args(["init", "-q", "--ref-format=reftable"])
            .current_dir(&root)
            .output()
            .is_ok_and(|o| o.status.success());
        if !reftable {
            eprintln!("this Git writes no reftable repository: end-to-end half skipped");
            return;
        }
        std::fs::write(root.join("a.txt"), "one\n").unwrap();
        crate::testing::git(&root, &["add", "-A"]);
        crate::testing::git(&root, &["commit", "-q", "-m", "initial"]);
        crate::testing::git(&root, &["checkout", "-q", "--detach"]);
        let branch = || {
            Git::new(root.clone())
                .capture_basis_since(None, false)
                .unwrap()
                .branch
        };
        assert_eq!(branch(), None);
        crate::testing::git(&root, &["checkout", "-q", "-b", "topic"]);
        assert_eq!(branch().as_deref(), Some("topic"));
    }

    #[test]
    fn parses_status_records_with_odd_paths() {
        let out = b"# branch.oid 0123\0# branch.head main\0\
1 .M N... 100644 100644 100644 aa aa with space.txt\0\
2 R. N... 100644 100644 100644 aa aa R100 new\nname\0old name\0\
u UU N... 100644 100644 100644 100644 a b c -dash\0? \xff.bin\0";
        let b = parse_status(out).unwrap();
        assert_eq!(b.branch.as_deref(), Some("main"));
        assert_eq!(b.head.as_deref(), Some("0123"));
        let paths: Vec<&[u8]> = b.changed.iter().map(|c| c.path.as_slice()).collect();
        assert_eq!(paths, vec![&b"-dash"[..], b"new\nname", b"with space.txt"]);
        assert_eq!(b.changed[1].orig_path.as_deref(), Some(&b"old name"[..]));
        assert!(b.changed[0].unmerged);
        assert_eq!(b.untracked, vec![b"\xff.bin".to_vec()]);
    }

    #[test]
    fn parses_initial_and_detached_headers() {
        let b = parse_status(b"# branch.oid (initial)\0# branch.head (detached)\0").unwrap();
        assert_eq!(b.head, None);
        assert_eq!(b.branch, None);
    }

    #[test]
    fn parses_check_attr_records() {
        let out = b"a b\0linguist-vendored\0set\0a b\0linguist-generated\0unspecified\0\
-x\nnl\0linguist-vendored\0false\0-x\nnl\0linguist-generated\0true\0\
c\0linguist-vendored\0unset\0c\0linguist-generated\0unset\0";
        let m = parse_check_attr(out).unwrap();
        let get = |p: &[u8]| m[p];
        assert_eq!(
            get(b"a b"),
            Attributes {
                vendored: Some(true),
                generated: None
            }
        );
        assert_eq!(
            get(b"-x\nnl"),
            Attributes {
                vendored: Some(false),
                generated: Some(true)
            }
        );
        assert_eq!(
            get(b"c"),
            Attributes {
                vendored: Some(false),
                generated: Some(false)
            }
        );
        assert!(parse_check_attr(b"").unwrap().is_empty());
        assert!(parse_check_attr(b"a\0linguist-vendored\0").is_err());
    }

    #[test]
    fn parses_index_flags() {
        let out = b"h 100644 aa 0\ta\0S 100644 bb 0\tb b\0H 160000 cc 0\tsub\0";
        let e = parse_ls_files(out).unwrap();
        assert!(e[0].assume_unchanged && !e[0].skip_worktree);
        assert!(e[1].skip_worktree && !e[1].assume_unchanged);
        assert_eq!(e[2].mode, 0o160000);
        assert_eq!(e[1].path, b"b b");
    }

    /// Property tests of the two parsers. 256 cases each (proptest's default); set
    /// `PROPTEST_CASES` to run more.
    mod properties {
        use super::super::*;
        use proptest::prelude::*;

        /// A path as Git may print it with `-z`: any bytes but NUL, with spaces, newlines,
        /// tabs, quotes, leading dashes and bytes that are not UTF-8 made likely.
        fn path() -> impl Strategy<Value = Vec<u8>> {
            let byte = prop_oneof![
                4 => any::<u8>().prop_filter("no NUL", |b| *b != 0),
                1 => prop::sample::select(b" \n\t\"'-\\\xff\xc3".to_vec()),
            ];
            prop::collection::vec(byte, 1..24)
        }

        fn xy() -> impl Strategy<Value = (u8, u8)> {
            let letter = prop::sample::select(b".MTADRCU".to_vec());
            (letter.clone(), letter)
        }

        /// One changed-path record as porcelain v2 prints it, and what it must parse to.
        fn record() -> impl Strategy<Value = (Vec<u8>, StatusEntry)> {
            (0..3u8, xy(), path(), path()).prop_map(|(kind, (x, y), path, orig)| {
                let mut rec = Vec::new();
                let entry = match kind {
                    0 => {
                        rec.extend_from_slice(b"1 ");
                        rec.extend_from_slice(&[x, y]);
                        rec.extend_from_slice(b" N... 100644 100644 100644 aa bb ");
                        rec.extend_from_slice(&path);
                        StatusEntry {
                            path,
                            orig_path: None,
                            x,
                            y,
                            unmerged: false,
                        }
                    }
                    1 => {
                        rec.extend_from_slice(b"2 ");
                        rec.extend_from_slice(&[x, y]);
                        rec.extend_from_slice(b" N... 100644 100644 100644 aa bb R100 ");
                        rec.extend_from_slice(&path);
                        rec.push(0);
                        rec.extend_from_slice(&orig);
                        StatusEntry {
                            path,
                            orig_path: Some(orig),
                            x,
                            y,
                            unmerged: false,
                        }
                    }
                    _ => {
                        rec.extend_from_slice(b"u ");
                        rec.extend_from_slice(&[x, y]);
                        rec.extend_from_slice(b" N... 100644 100644 100644 100644 a b c ");
                        rec.extend_from_slice(&path);
                        StatusEntry {
                            path,
                            orig_path: None,
                            x,
                            y,
                            unmerged: true,
                        }
                    }
                };
                (rec, entry)
            })
        }

        proptest! {
            /// Whatever Git (or a corrupted pipe) prints, parsing returns a value or an error.
            #[test]
            fn status_parsing_never_panics(out in prop::collection::vec(any::<u8>(), 0..512)) {
                let _ = parse_status(&out);
            }

            /// Any bytes shaped like porcelain v2 records (the fixed fields kept) still never
            /// panic: a field count or a rename's second path may be missing.
            #[test]
            fn truncated_status_records_never_panic(
                head in prop::sample::select(vec![&b"1 "[..], b"2 ", b"u ", b"? ", b"! ", b"# "]),
                rest in prop::collection::vec(any::<u8>(), 0..64),
            ) {
                let mut out = head.to_vec();
                out.extend_from_slice(&rest);
                let _ = parse_status(&out);
            }

            /// Well-formed output parses back to exactly the records it was made from (sorted
            /// by path), whatever bytes the paths hold; the branch headers change nothing but
            /// the branch fields.
            #[test]
            fn status_records_round_trip(
                records in prop::collection::vec(record(), 0..8),
                untracked in prop::collection::vec(path(), 0..4),
                branch in "[a-z][a-z0-9/._-]{0,12}",
                detached in any::<bool>(),
            ) {
                let mut body = Vec::new();
                for (rec, _) in &records {
                    body.extend_from_slice(rec);
                    body.push(0);
                }
                for p in &untracked {
                    body.extend_from_slice(b"? ");
                    body.extend_from_slice(p);
                    body.push(0);
                }
                let head = if detached { "(detached)".to_owned() } else { branch.clone() };
                let mut out = format!("# branch.oid 0123abcd\0# branch.head {head}\0").into_bytes();
                out.extend_from_slice(&body);
                let parsed = parse_status(&out).map_err(TestCaseError::fail)?;
                let mut expected: Vec<StatusEntry> =
                    records.iter().map(|(_, e)| e.clone()).collect();
                expected.sort_by(|a, b| a.path.cmp(&b.path));
                prop_assert_eq!(&parsed.changed, &expected);
                let mut untracked = untracked;
                untracked.sort();
                prop_assert_eq!(&parsed.untracked, &untracked);
                prop_assert_eq!(parsed.head.as_deref(), Some("0123abcd"));
                prop_assert_eq!(parsed.branch, (!detached).then_some(branch));
                let bare = parse_status(&body).map_err(TestCaseError::fail)?;
                prop_assert_eq!(bare.status_digest, parsed.status_digest);
            }

            /// Whatever `ls-files` prints, parsing returns a value or an error.
            #[test]
            fn index_parsing_never_panics(out in prop::collection::vec(any::<u8>(), 0..512)) {
                let _ = parse_ls_files(&out);
            }

            /// Well-formed `ls-files -z --stage -v` output parses back to its entries, flags
            /// included, whatever bytes the paths hold (tabs too: only the first one ends the
            /// fixed fields).
            #[test]
            fn index_entries_round_trip(
                entries in prop::collection::vec(
                    (
                        prop::sample::select(b"HSMhs".to_vec()),
                        prop::sample::select(vec![0o100644u32, 0o100755, 0o120000, 0o160000]),
                        "[0-9a-f]{40}",
                        0..4u8,
                        path(),
                    ),
                    0..8,
                ),
            ) {
                let mut out = Vec::new();
                for (tag, mode, oid, stage, path) in &entries {
                    out.extend_from_slice(
                        format!("{} {mode:06o} {oid} {stage}\t", *tag as char).as_bytes(),
                    );
                    out.extend_from_slice(path);
                    out.push(0);
                }
                let parsed = parse_ls_files(&out).map_err(TestCaseError::fail)?;
                prop_assert_eq!(parsed.len(), entries.len());
                for (e, (tag, mode, oid, stage, path)) in parsed.iter().zip(&entries) {
                    prop_assert_eq!(&e.path, path);
                    prop_assert_eq!((e.mode, &e.oid, e.stage), (*mode, oid, *stage));
                    prop_assert_eq!(e.assume_unchanged, tag.is_ascii_lowercase());
                    prop_assert_eq!(e.skip_worktree, tag.eq_ignore_ascii_case(&b'S'));
                }
            }
        }
    }
}
