//! A hermetic test environment: real temporary Git repositories with cleared Git
//! configuration, a fixed identity and fixed dates, and a private RepoCue cache per test.
//!
//! Nothing here touches the user's Git configuration or RepoCue cache: Git reads no global or
//! system configuration, `HOME` points into the test's temporary directory, and every
//! `repocue` run gets explicit `--repository` and `--cache-dir` flags.

#![allow(dead_code)]

pub mod schema;

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};

use repocue::api::{ErrorOutput, MetricsOutput, RefreshOutput, StatusOutput};
use serde::de::DeserializeOwned;
use serde_json::Value;

/// The binary under test.
pub const BIN: &str = env!("CARGO_BIN_EXE_repocue");

/// Environment variables that would let the caller's Git or RepoCue setup leak into a test.
const SCRUBBED: &[&str] = &[
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_COMMON_DIR",
    "GIT_CEILING_DIRECTORIES",
    "GIT_DISCOVERY_ACROSS_FILESYSTEM",
    "GIT_CONFIG",
    "GIT_CONFIG_PARAMETERS",
    "GIT_CONFIG_COUNT",
    "GIT_NAMESPACE",
    "GIT_EDITOR",
    "GIT_PAGER",
    "REPOCUE_CACHE_DIR",
    "XDG_CACHE_HOME",
    "XDG_CONFIG_HOME",
    "REPOCUE_CONFIG_HOME",
];

/// Every value of every row of a state database as text, with stored content facts decoded
/// (a tag byte, then JSON raw or deflated): what a secret scan of the database must read.
pub fn decoded_db_dump(db: &Path) -> String {
    let script = r#"
import sqlite3, sys, zlib
c = sqlite3.connect(sys.argv[1])
# Tag 0: raw; 1: deflated; 2: deflated after the preset dictionary (hex in argv[2]).
zdict = bytes.fromhex(sys.argv[2])
def inflate(v):
    if v[:1] == b"\x00":
        return v[1:]
    if v[:1] == b"\x02":
        return zlib.decompressobj(-15, zdict=zdict).decompress(v[1:])
    return zlib.decompress(v[1:], -15)
out = []
# The full-text table itself is skipped (older SQLite builds cannot open it); its shadow
# tables, which hold all it stores, are read like any other.
for (t,) in c.execute("SELECT name FROM sqlite_schema WHERE type = 'table'"
                      " AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name"):
    cur = c.execute('SELECT * FROM "%s"' % t)
    cols = [d[0] for d in cur.description]
    for row in cur:
        for col, v in zip(cols, row):
            if t == "content_facts" and col == "facts" and isinstance(v, bytes):
                v = inflate(v)
            if isinstance(v, bytes):
                v = v.decode("utf-8", "replace")
            out.append("%s.%s=%s" % (t, col, v))
sys.stdout.write("\n".join(out))
"#;
    let out = Command::new("python3")
        .args(["-c", script])
        .arg(db)
        .arg(
            repocue::facts_dictionary()
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect::<String>(),
        )
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "dumping {} failed: {}",
        db.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Writes an executable file (mode 755) from a child process, so that this multi-threaded test
/// process never holds a descriptor open for writing to it: a process another test thread
/// forks in that window keeps the descriptor until it execs, and running the file then fails
/// with ETXTBSY ("Text file busy"), an intermittent failure under load.
pub fn write_executable(path: &Path, bytes: &[u8]) {
    use std::io::Write;
    let mut child = Command::new("sh")
        .args(["-c", "cat > \"$1\" && chmod 755 \"$1\"", "sh"])
        .arg(path)
        .stdin(Stdio::piped())
        .spawn()
        .expect("spawn sh to write an executable");
    child
        .stdin
        .take()
        .expect("piped stdin")
        .write_all(bytes)
        .expect("write the executable's bytes");
    assert!(
        child.wait().expect("wait for sh").success(),
        "write {}",
        path.display()
    );
}

/// Copies the executable `from` to `to` the way [`write_executable`] writes one: by a child
/// process (`cp`), never through a descriptor of this process.
pub fn copy_executable(from: &Path, to: &Path) {
    let ok = Command::new("cp")
        .arg(from)
        .arg(to)
        .status()
        .expect("run cp");
    assert!(ok.success(), "cp {} {}", from.display(), to.display());
}

/// Tells whether the tests run as root, who can read files whatever their permissions.
pub fn running_as_root() -> bool {
    let out = Command::new("id").arg("-u").output().expect("run `id -u`");
    String::from_utf8_lossy(&out.stdout).trim() == "0"
}

/// Returns the entity id of a ranked symbol of a cue (`symbol:<path>:<name>`).
pub fn symbol_id(s: &serde_json::Value) -> String {
    format!(
        "symbol:{}:{}",
        s["path"].as_str().expect("symbol path"),
        symbol_name(s)
    )
}

/// Returns the name of a ranked symbol of a cue: its `name`, or where the cue leaves it out
/// because the signature names it, the signature's word before its parameters or type
/// parameters (`unsigned long hash(const char *s)` → `hash`, `class Foo<T>` → `Foo`), else its
/// first word that is no keyword of the fixtures' languages (`type Command struct` →
/// `Command`). Checked against the cue's rule: the name must be a whole word of the signature.
pub fn symbol_name(s: &serde_json::Value) -> &str {
    if let Some(name) = s.get("name") {
        return name.as_str().expect("a symbol name is a string");
    }
    const KEYWORDS: &[&str] = &[
        "abstract",
        "async",
        "bool",
        "char",
        "class",
        "const",
        "def",
        "default",
        "double",
        "enum",
        "export",
        "extern",
        "final",
        "float",
        "fn",
        "func",
        "function",
        "impl",
        "inline",
        "int",
        "interface",
        "internal",
        "let",
        "long",
        "module",
        "mod",
        "private",
        "protected",
        "pub",
        "partial",
        "public",
        "readonly",
        "record",
        "sealed",
        "short",
        "signed",
        "static",
        "struct",
        "trait",
        "type",
        "typedef",
        "union",
        "unsafe",
        "unsigned",
        "var",
        "virtual",
        "void",
        "volatile",
    ];
    let signature = s["signature"].as_str().expect("symbol signature");
    let split = |text: &str| -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        let mut start = None;
        for (i, c) in text.char_indices().chain([(text.len(), ' ')]) {
            let word = c.is_alphanumeric() || c == '_' || c == '$';
            match (word, start) {
                (true, None) => start = Some(i),
                (false, Some(at)) => {
                    out.push((at, i));
                    start = None;
                }
                _ => {}
            }
        }
        out
    };
    let name = match signature.find(['(', '<']) {
        Some(end) => split(&signature[..end])
            .last()
            .map(|&(a, b)| &signature[a..b]),
        None => split(signature)
            .into_iter()
            .map(|(a, b)| &signature[a..b])
            .find(|w| !KEYWORDS.contains(w)),
    }
    .unwrap_or_else(|| panic!("no name in {signature:?}"));
    assert!(
        repocue::api::views::signature_names(signature, name),
        "{s}: the name left out is not {name:?}"
    );
    name
}

/// Tells whether a ranked symbol of a cue is `name`: its `name` says so, or it has none and
/// its signature names it (the cue's rule).
pub fn is_symbol(s: &serde_json::Value, name: &str) -> bool {
    match s.get("name") {
        Some(n) => n == name,
        None => s["signature"]
            .as_str()
            .is_some_and(|sig| repocue::api::views::signature_names(sig, name)),
    }
}

/// Returns `ceil(bytes / 4)`, the token estimate of the cue contract for JSON.
pub fn tokens(text: &str) -> u64 {
    (text.len() as u64).div_ceil(4)
}

/// Returns `ceil(bytes * 2 / 7)`, the token estimate of the cue contract for text.
pub fn text_tokens(text: &str) -> u64 {
    (text.len() as u64 * 2).div_ceil(7)
}

/// Returns the lowercase hex SHA-256 of `bytes`.
pub fn sha256(bytes: &[u8]) -> String {
    repocue::hex_sha256(bytes)
}

/// A temporary Git repository with its own RepoCue cache.
///
/// Layout of the temporary directory: `repo/` (the work tree), `cache/` (the cache root),
/// `home/` (`HOME` of every process) and `outside/` (files that are not in the repository).
pub struct TestRepo {
    tmp: tempfile::TempDir,
    root: PathBuf,
    cache: PathBuf,
    home: PathBuf,
    outside: PathBuf,
    commits: AtomicU32,
}

impl TestRepo {
    /// Creates a repository with no commits on branch `main`, in a directory named `repo`.
    pub fn new() -> Self {
        TestRepo::named(OsStr::new("repo"))
    }

    /// Creates a repository with no commits on branch `main`, in a directory named `name`.
    pub fn named(name: &OsStr) -> Self {
        let tmp = tempfile::Builder::new()
            .prefix("repocue-test-")
            .tempdir()
            .expect("temp dir");
        let base = tmp.path().canonicalize().expect("canonical temp dir");
        let (root, cache, home, outside) = (
            base.join(name),
            base.join("cache"),
            base.join("home"),
            base.join("outside"),
        );
        for d in [&root, &home, &outside] {
            std::fs::create_dir(d).expect("create test dir");
        }
        let repo = TestRepo {
            tmp,
            root,
            cache,
            home,
            outside,
            commits: AtomicU32::new(0),
        };
        repo.git(&["-c", "init.defaultBranch=main", "init", "-q"]);
        repo
    }

    /// Creates a repository whose first commit holds `files` (path, content).
    pub fn with_files<P: AsRef<str>, C: AsRef<str>>(files: &[(P, C)]) -> Self {
        let repo = TestRepo::new();
        for (path, content) in files {
            repo.write(path.as_ref(), content.as_ref());
        }
        repo.commit("initial");
        repo
    }

    /// Returns the private `HOME` of every process (the user-level configuration lives
    /// below it, in `.config/repocue/config.toml`).
    pub fn home(&self) -> &Path {
        &self.home
    }

    /// Returns the bytes of every file of the cache directory, by path: what a command that
    /// must not touch the cache is compared with. SQLite's `-shm` file is left out: it is the
    /// shared-memory index of the WAL, where every reader marks what it reads, not content.
    pub fn cache_bytes(&self) -> std::collections::BTreeMap<PathBuf, Vec<u8>> {
        fn walk(dir: &Path, out: &mut std::collections::BTreeMap<PathBuf, Vec<u8>>) {
            for entry in std::fs::read_dir(dir).expect("read cache dir") {
                let path = entry.expect("dir entry").path();
                if path.is_dir() {
                    walk(&path, out);
                } else if !path.to_string_lossy().ends_with("-shm") {
                    let bytes = std::fs::read(&path).expect("read cache file");
                    out.insert(path, bytes);
                }
            }
        }
        let mut out = std::collections::BTreeMap::new();
        if self.cache.exists() {
            walk(&self.cache, &mut out);
        }
        out
    }

    /// Returns the canonical work-tree root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Returns the cache root passed as `--cache-dir`.
    pub fn cache_dir(&self) -> &Path {
        &self.cache
    }

    /// Returns a directory outside the repository for files it must never read.
    pub fn outside(&self) -> &Path {
        &self.outside
    }

    /// Returns the temporary directory holding everything of this test.
    pub fn tmp(&self) -> &Path {
        self.tmp.path()
    }

    /// Returns the absolute path of a repository-relative path.
    pub fn path(&self, rel: impl AsRef<Path>) -> PathBuf {
        self.root.join(rel)
    }

    /// Writes a file (creating parent directories) relative to the work-tree root.
    pub fn write(&self, rel: impl AsRef<Path>, bytes: impl AsRef<[u8]>) {
        let path = self.path(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("create parent dirs");
        }
        std::fs::write(&path, bytes).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
    }

    /// Reads a file relative to the work-tree root.
    pub fn read(&self, rel: impl AsRef<Path>) -> Vec<u8> {
        std::fs::read(self.path(rel)).expect("read file")
    }

    /// Removes a file relative to the work-tree root.
    pub fn remove(&self, rel: impl AsRef<Path>) {
        std::fs::remove_file(self.path(rel)).expect("remove file");
    }

    /// Creates a symbolic link at `rel` whose target text is `target`.
    pub fn symlink(&self, target: impl AsRef<Path>, rel: impl AsRef<Path>) {
        std::os::unix::fs::symlink(target, self.path(rel)).expect("create symlink");
    }

    /// Returns a hermetic Git command in the work tree.
    pub fn git_command(&self) -> Command {
        let mut cmd = Command::new("git");
        self.hermetic(&mut cmd);
        cmd.current_dir(&self.root);
        cmd
    }

    /// Runs Git and returns its output whatever the exit status.
    pub fn git_output<S: AsRef<OsStr>>(&self, args: &[S]) -> Output {
        self.git_command().args(args).output().expect("spawn git")
    }

    /// Runs Git, asserts it succeeded and returns its stdout.
    pub fn git<S: AsRef<OsStr>>(&self, args: &[S]) -> String {
        let out = self.git_output(args);
        if !out.status.success() {
            let args: Vec<_> = args.iter().map(|a| a.as_ref().to_string_lossy()).collect();
            panic!(
                "git {} failed in {}\nstatus: {}\nstdout:\n{}\nstderr:\n{}",
                args.join(" "),
                self.root.display(),
                out.status,
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Stages everything and commits with a fixed, increasing date; returns the new HEAD.
    pub fn commit(&self, msg: &str) -> String {
        self.git(&["add", "-A"]);
        self.commit_staged(msg)
    }

    /// Commits what is staged with a fixed, increasing date; returns the new HEAD.
    pub fn commit_staged(&self, msg: &str) -> String {
        let n = self.commits.fetch_add(1, Ordering::Relaxed) + 1;
        let date = format!("2001-02-03T04:{:02}:{:02}Z", n / 60, n % 60);
        let out = self
            .git_command()
            .args(["commit", "-q", "--allow-empty", "-m", msg])
            .env("GIT_AUTHOR_DATE", &date)
            .env("GIT_COMMITTER_DATE", &date)
            .output()
            .expect("spawn git commit");
        assert!(
            out.status.success(),
            "git commit failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        self.head()
    }

    /// Returns the HEAD commit id.
    pub fn head(&self) -> String {
        self.git(&["rev-parse", "HEAD"]).trim().to_owned()
    }

    /// Applies the hermetic environment to any command (Git or RepoCue).
    pub fn hermetic<'c>(&self, cmd: &'c mut Command) -> &'c mut Command {
        for v in SCRUBBED {
            cmd.env_remove(v);
        }
        cmd.env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_AUTHOR_NAME", "RepoCue Test")
            .env("GIT_AUTHOR_EMAIL", "test@repocue.invalid")
            .env("GIT_COMMITTER_NAME", "RepoCue Test")
            .env("GIT_COMMITTER_EMAIL", "test@repocue.invalid")
            .env("GIT_AUTHOR_DATE", "2001-02-03T04:05:06Z")
            .env("GIT_COMMITTER_DATE", "2001-02-03T04:05:06Z")
            .env("GIT_TERMINAL_PROMPT", "0")
            // A read's analysis budget would make what a cue shows depend on the machine's
            // speed: tests that are not about it never run out (the deferral tests set 0).
            .env("REPOCUE_TEST_ANALYSIS_BUDGET_MS", "600000")
            .env("HOME", &self.home)
            .env("LC_ALL", "C")
            .stdin(Stdio::null())
    }

    /// Returns the `repocue` command with the hermetic environment, run from the work-tree
    /// root, without `--repository` or `--cache-dir`.
    pub fn bare_command(&self) -> Command {
        let mut cmd = Command::new(BIN);
        self.hermetic(&mut cmd);
        cmd.current_dir(&self.root);
        cmd
    }

    /// Returns the `repocue` command for this repository and cache, with `args` appended.
    pub fn command<S: AsRef<OsStr>>(&self, args: &[S]) -> Command {
        let mut cmd = self.bare_command();
        cmd.arg("--repository")
            .arg(&self.root)
            .arg("--cache-dir")
            .arg(&self.cache)
            .args(args);
        cmd
    }

    /// Runs `repocue` for this repository and cache.
    pub fn repocue<S: AsRef<OsStr>>(&self, args: &[S]) -> Ran {
        self.run(self.command(args))
    }

    /// Runs `repocue` with exactly `args`: no `--repository`, no `--cache-dir`.
    pub fn repocue_bare<S: AsRef<OsStr>>(&self, args: &[S]) -> Ran {
        let mut cmd = self.bare_command();
        cmd.args(args);
        self.run(cmd)
    }

    /// Runs `repocue` with an explicit `--repository` and `--cache-dir`.
    pub fn repocue_with<S: AsRef<OsStr>>(
        &self,
        repository: impl AsRef<Path>,
        cache: impl AsRef<Path>,
        args: &[S],
    ) -> Ran {
        let mut cmd = self.bare_command();
        cmd.arg("--repository").arg(repository.as_ref());
        cmd.arg("--cache-dir").arg(cache.as_ref()).args(args);
        self.run(cmd)
    }

    /// Runs any prepared command and records what is needed to explain a failure.
    pub fn run(&self, mut cmd: Command) -> Ran {
        let cwd = cmd
            .get_current_dir()
            .map(Path::to_owned)
            .unwrap_or_default();
        let args: Vec<OsString> = cmd.get_args().map(OsStr::to_owned).collect();
        // A binary copied a moment ago can still be open for writing in a child another test
        // thread forked meanwhile, until that child execs ("Text file busy").
        let mut output = cmd.output();
        for attempt in 0..6 {
            match &output {
                Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy => {
                    std::thread::sleep(std::time::Duration::from_millis(5 << attempt));
                    output = cmd.output();
                }
                _ => break,
            }
        }
        let output = output.expect("spawn repocue");
        Ran { cwd, args, output }
    }

    /// Starts `repocue` in the background with its output captured.
    pub fn spawn<S: AsRef<OsStr>>(&self, args: &[S]) -> Child {
        self.command(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn repocue")
    }

    /// Waits for a spawned `repocue` and records its result like [`TestRepo::run`] does.
    pub fn finish(&self, child: Child, args: &[&str]) -> Ran {
        let output = child.wait_with_output().expect("wait for repocue");
        Ran {
            cwd: self.root.clone(),
            args: args.iter().map(OsString::from).collect(),
            output,
        }
    }

    /// Runs `repocue` and returns its stdout as JSON, asserting exit 0.
    pub fn json<S: AsRef<OsStr>>(&self, args: &[S]) -> Value {
        self.repocue(args).json()
    }

    /// Runs `repocue init`.
    pub fn init(&self) -> RefreshOutput {
        self.repocue(&["init"]).typed()
    }

    /// Runs `repocue refresh`.
    pub fn refresh(&self) -> RefreshOutput {
        self.repocue(&["refresh"]).typed()
    }

    /// Runs `repocue status`.
    pub fn status(&self) -> StatusOutput {
        self.repocue(&["status"]).typed()
    }

    /// Runs `repocue metrics`.
    pub fn metrics(&self) -> MetricsOutput {
        self.repocue(&["metrics"]).typed()
    }

    /// Runs `repocue cue` with extra arguments and returns the cue JSON.
    pub fn cue(&self, view: &str, extra: &[&str]) -> Value {
        let mut args = vec!["cue", "--view", view];
        args.extend_from_slice(extra);
        self.json(&args)
    }

    /// Returns the stored delta operations between `since` and the current snapshot, read
    /// without refreshing and with a budget large enough for all of them.
    pub fn delta_ops(&self, since: &str) -> Vec<Value> {
        let cue = self.cue(
            "delta",
            &[
                "--since",
                since,
                "--max-tokens",
                "20000",
                "--no-refresh",
                "--provenance",
            ],
        );
        assert_no_omissions(&cue);
        cue["content"]["operations"]
            .as_array()
            .expect("operations array")
            .clone()
    }

    /// Returns the path of this repository's state database.
    pub fn db_path(&self) -> PathBuf {
        let id = repocue::repo_id(&self.root);
        self.cache.join(id).join("state.db")
    }
}

/// A finished `repocue` run, with everything needed to explain an unexpected result.
pub struct Ran {
    /// Working directory of the process.
    pub cwd: PathBuf,
    /// Arguments (program name excluded).
    pub args: Vec<OsString>,
    /// What the process printed and how it exited.
    pub output: Output,
}

impl Ran {
    /// Returns the exit code (`None` when killed by a signal).
    pub fn code(&self) -> Option<i32> {
        self.output.status.code()
    }

    /// Returns stdout as text.
    pub fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.output.stdout).into_owned()
    }

    /// Returns stderr as text.
    pub fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.output.stderr).into_owned()
    }

    /// Describes the run for a failure message.
    pub fn describe(&self) -> String {
        let args: Vec<_> = self
            .args
            .iter()
            .map(|a| format!("{:?}", a.to_string_lossy()))
            .collect();
        format!(
            "\ncwd: {}\nargs: {}\nstatus: {}\nstdout:\n{}\nstderr:\n{}\n",
            self.cwd.display(),
            args.join(" "),
            self.output.status,
            self.stdout(),
            self.stderr()
        )
    }

    /// Asserts exit 0.
    #[track_caller]
    pub fn success(&self) -> &Self {
        assert_eq!(self.code(), Some(0), "expected success{}", self.describe());
        self
    }

    /// Asserts exit 0 and parses stdout as one JSON document.
    #[track_caller]
    pub fn json(&self) -> Value {
        self.success();
        serde_json::from_slice(&self.output.stdout)
            .unwrap_or_else(|e| panic!("stdout is not JSON: {e}{}", self.describe()))
    }

    /// Asserts exit 0 and decodes stdout into a typed output.
    #[track_caller]
    pub fn typed<T: DeserializeOwned>(&self) -> T {
        self.success();
        serde_json::from_slice(&self.output.stdout)
            .unwrap_or_else(|e| panic!("stdout does not decode: {e}{}", self.describe()))
    }

    /// Asserts the failure contract: exit 1 (2 for `invalid_argument`, a usage error), nothing
    /// on stdout, and exactly one JSON error object with a code and a message, on the first
    /// line of stderr.
    #[track_caller]
    pub fn error(&self) -> ErrorOutput {
        let usage = self.stderr().contains(r#""code":"invalid_argument""#);
        let expected = if usage { 2 } else { 1 };
        assert_eq!(
            self.code(),
            Some(expected),
            "expected exit {expected}{}",
            self.describe()
        );
        assert!(
            self.output.stdout.is_empty(),
            "stdout must be empty on failure{}",
            self.describe()
        );
        let stderr = self.stderr();
        let mut lines = stderr.lines();
        let first = lines
            .next()
            .unwrap_or_else(|| panic!("stderr is empty{}", self.describe()));
        let raw: Value = serde_json::from_str(first)
            .unwrap_or_else(|e| panic!("first stderr line is not JSON: {e}{}", self.describe()));
        assert!(
            raw["error"]["code"].is_string(),
            "error.code missing{}",
            self.describe()
        );
        assert!(
            raw["error"]["message"].is_string(),
            "error.message missing{}",
            self.describe()
        );
        for line in lines {
            assert!(
                serde_json::from_str::<Value>(line).is_err(),
                "more than one JSON object on stderr{}",
                self.describe()
            );
        }
        serde_json::from_value(raw)
            .unwrap_or_else(|e| panic!("bad error object: {e}{}", self.describe()))
    }

    /// Asserts the failure contract and the error code.
    #[track_caller]
    pub fn error_code(&self, code: &str) -> ErrorOutput {
        let e = self.error();
        assert_eq!(
            e.error.code,
            code,
            "unexpected error code{}",
            self.describe()
        );
        assert!(
            !e.error.message.is_empty(),
            "empty error message{}",
            self.describe()
        );
        e
    }

    /// Asserts a usage error: exit 2, nothing on stdout, and on stderr first the JSON error
    /// line every failure prints (`invalid_argument`), then an explanation for a person.
    #[track_caller]
    pub fn usage_error(&self) {
        assert_eq!(
            self.code(),
            Some(2),
            "expected a usage error{}",
            self.describe()
        );
        assert!(
            self.output.stdout.is_empty(),
            "stdout must be empty{}",
            self.describe()
        );
        let stderr = String::from_utf8_lossy(&self.output.stderr);
        let first = stderr.lines().next().unwrap_or_default();
        let error: repocue::api::ErrorOutput = serde_json::from_str(first)
            .unwrap_or_else(|e| panic!("the first line is no JSON error ({e}){}", self.describe()));
        assert_eq!(error.error.code, "invalid_argument", "{}", self.describe());
        assert!(!error.error.message.is_empty(), "{}", self.describe());
        assert!(
            stderr.lines().count() > 1,
            "stderr must explain{}",
            self.describe()
        );
    }
}

/// Returns the codes of a JSON `warnings` array.
pub fn warning_codes(v: &Value) -> Vec<String> {
    v["warnings"]
        .as_array()
        .map(|w| {
            w.iter()
                .filter_map(|w| w["code"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// Returns the warning with `code`, if any.
pub fn warning<'a>(v: &'a Value, code: &str) -> Option<&'a Value> {
    v["warnings"].as_array()?.iter().find(|w| w["code"] == code)
}

/// Asserts that a cue left nothing out.
#[track_caller]
pub fn assert_no_omissions(cue: &Value) {
    assert!(cue.get("omitted").is_none(), "cue omitted items: {cue:#}");
    assert!(cue.get("more").is_none(), "cue offers more: {cue:#}");
}

/// Returns how many items a cue left out for its budget (0 when it says nothing).
pub fn omitted(cue: &Value) -> u64 {
    match cue.get("omitted") {
        None => 0,
        Some(n) => {
            let n = n.as_u64().expect("omitted is a count");
            assert!(n > 0, "a zero count is left out: {cue:#}");
            n
        }
    }
}

/// Returns the follow-up requests of a cue (none when it has no `more`).
pub fn more(cue: &Value) -> Vec<Value> {
    match cue.get("more") {
        None => vec![],
        Some(m) => {
            let m = m.as_array().expect("more is a list").clone();
            assert!(!m.is_empty(), "an empty `more` is left out: {cue:#}");
            m
        }
    }
}

/// Returns the delta operations (op, entity) of an operations array.
pub fn op_pairs(ops: &[Value]) -> Vec<(String, String)> {
    ops.iter()
        .map(|o| {
            (
                o["op"].as_str().unwrap_or("").to_owned(),
                o["entity"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect()
}

/// Returns the single operation on `entity`, asserting there is exactly one.
#[track_caller]
pub fn op_on<'a>(ops: &'a [Value], entity: &str) -> &'a Value {
    let found: Vec<&Value> = ops.iter().filter(|o| o["entity"] == entity).collect();
    assert_eq!(
        found.len(),
        1,
        "expected one operation on {entity}, got {:?}",
        op_pairs(ops)
    );
    found[0]
}
