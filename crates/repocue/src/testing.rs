//! Test support: real Git repositories and caches in temporary directories.

use std::path::Path;
use std::process::Command;

use crate::repo::Repo;

/// A temporary Git repository with one commit, and a cache directory beside it.
pub(crate) struct TempRepo {
    /// Keeps the directory alive as long as the repository is used.
    pub _dir: tempfile::TempDir,
    pub repo: Repo,
}

/// Runs Git in `dir` with a fixed identity; panics on failure (test setup).
pub(crate) fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args(["-c", "user.name=t", "-c", "user.email=t@example.invalid"])
        .args([
            "-c",
            "commit.gpgsign=false",
            "-c",
            "init.defaultBranch=main",
        ])
        .args(args)
        .current_dir(dir)
        .env_remove("GIT_DIR")
        .env_remove("GIT_INDEX_FILE")
        .env_remove("GIT_WORK_TREE")
        .output()
        .expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Creates a repository holding `files` (path, content), committed.
pub(crate) fn temp_repo<P: AsRef<str>, C: AsRef<str>>(files: &[(P, C)]) -> TempRepo {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("work");
    std::fs::create_dir_all(&root).unwrap();
    git(&root, &["init", "-q"]);
    for (path, content) in files {
        let p = root.join(path.as_ref());
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, content.as_ref()).unwrap();
    }
    git(&root, &["add", "-A"]);
    git(&root, &["commit", "-q", "-m", "initial"]);
    let root = root.canonicalize().unwrap();
    let cache = dir.path().join("cache");
    TempRepo {
        repo: Repo::new(root, &cache, None),
        _dir: dir,
    }
}

/// Opens the state database directly, for tests that tamper with it.
pub(crate) fn raw_db(repo: &Repo) -> rusqlite::Connection {
    rusqlite::Connection::open(repo.db_path()).expect("db opens")
}
