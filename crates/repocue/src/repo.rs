//! A repository bound to its cache: the context every request stage works in (root, ids,
//! cache paths, the Git runner, notices for the user, Git process accounting).

use std::cell::{Cell, RefCell};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::api::RepositoryInfo;
use crate::digest::hex_sha256;
use crate::error::{Error, Result};
use crate::git::{Basis, Git};
use crate::paths;
use crate::scan::Progress;
use crate::store::Store;

/// The repository and its cache.
pub(crate) struct Repo {
    pub root: PathBuf,
    pub repo_id: String,
    pub repo_dir: PathBuf,
    pub git: Git,
    /// Messages for the user that are not part of any result (e.g. hint write failures).
    pub notices: RefCell<Vec<String>>,
    /// Git processes already charged to an earlier operation.
    charged: Cell<u32>,
    pub progress: Option<Arc<Progress>>,
    /// Stores are opened without side writes ([`Store::without_side_writes`]).
    observe_only: bool,
}

impl Repo {
    pub fn new(root: PathBuf, cache: &Path, progress: Option<Arc<Progress>>) -> Repo {
        let repo_id = repo_id(&root);
        let cache_in_tree = in_tree(&root, cache);
        Repo {
            git: Git::new(root.clone()).excluding(cache_in_tree.as_deref()),
            repo_dir: cache.join(&repo_id),
            root,
            repo_id,
            notices: Default::default(),
            charged: Default::default(),
            progress,
            observe_only: false,
        }
    }

    /// This repository, whose stores make no side writes when `observe_only`
    /// ([`crate::Options::observe_only`]).
    pub fn observing(self, observe_only: bool) -> Repo {
        Repo {
            observe_only,
            ..self
        }
    }

    /// The cache directory's path relative to the work tree, when it lies in it (a
    /// `--cache-dir .cache`): what `watch` and Git's status leave out.
    pub fn cache_in_tree(&self) -> Option<PathBuf> {
        in_tree(&self.root, self.repo_dir.parent()?)
    }

    /// The state database path.
    pub fn db_path(&self) -> PathBuf {
        self.repo_dir.join("state.db")
    }

    /// Records a message for the user.
    pub fn notice(&self, message: String) {
        self.notices.borrow_mut().push(message);
    }

    /// Opens the store; `None` when the repository was never initialized. A store that
    /// belongs to another repository is a corrupt cache.
    pub fn open_store(&self, create: bool) -> Result<Option<Store>> {
        let mut store = Store::open(&self.db_path(), create)?;
        if self.observe_only {
            store = store.map(Store::without_side_writes);
        }
        if let Some(s) = &store {
            if let Some(repo) = s.repository()? {
                if repo.root != self.root.as_os_str().as_bytes() || repo.repo_id != self.repo_id {
                    return Err(Error::CorruptCache {
                        path: self.db_path(),
                        detail: format!(
                            "it belongs to {} at {}",
                            repo.repo_id,
                            paths::display(&repo.root)
                        ),
                    });
                }
            }
        }
        Ok(store)
    }

    /// Identity and live Git state for an output.
    pub fn repository_info(&self, basis: &Basis) -> RepositoryInfo {
        RepositoryInfo {
            id: self.repo_id.clone(),
            name: self
                .root
                .file_name()
                .map(|n| paths::display(n.as_bytes()))
                .unwrap_or_default(),
            branch: basis.branch.clone(),
            head: basis.head.clone(),
            dirty: basis.dirty(),
        }
    }

    /// Loads the configuration in force now and the digest of its analysis rules (with the
    /// built-in rules' version, the repository's `info/attributes` and which commits the
    /// recent ones are): what a snapshot's classes and recent commits were derived under.
    /// Fails with `invalid_config` on a bad file.
    pub fn rules(&self) -> Result<Rules> {
        let config = crate::config::load(&self.root)?;
        let attributes = info_attributes(&self.root)
            .and_then(|p| std::fs::read(p).ok())
            .map_or_else(|| "none".to_owned(), |b| hex_sha256(&b));
        let extra = format!(
            "{};commits:{};info/attributes:{attributes}",
            crate::classify::RULES_VERSION,
            crate::git::RECENT_COMMITS_RULE
        );
        let digest = config.analysis.digest(&extra);
        Ok(Rules { config, digest })
    }

    /// Returns the Git processes started since the last charge (discovery is charged to the
    /// first operation) and marks them charged.
    pub fn charge_git(&self) -> u32 {
        let n = self.git.processes() - self.charged.get();
        self.charged.set(self.git.processes());
        n
    }
}

/// The configuration in force and the digest of its analysis rules.
pub(crate) struct Rules {
    pub config: crate::config::Config,
    pub digest: String,
}

impl Rules {
    /// Tells whether a snapshot was classified under these rules.
    pub fn describe(&self, snapshot: &crate::store::SnapshotRow) -> bool {
        snapshot.rules_digest.as_deref() == Some(self.digest.as_str())
    }
}

/// Returns `info/attributes` of the repository's (common) Git directory, found without Git:
/// `.git` is the Git directory or a `gitdir:` file, whose `commondir` names the shared one.
fn info_attributes(root: &Path) -> Option<PathBuf> {
    let dot = root.join(".git");
    let git_dir = if dot.is_dir() {
        dot
    } else {
        let text = std::fs::read_to_string(&dot).ok()?;
        root.join(text.strip_prefix("gitdir:")?.trim())
    };
    let common = match std::fs::read_to_string(git_dir.join("commondir")) {
        Ok(c) => git_dir.join(c.trim()),
        Err(_) => git_dir,
    };
    Some(common.join("info").join("attributes"))
}

/// Returns the repository id of a canonical root: `repo-` + 24 hex digits of its SHA-256.
pub fn repo_id(root: &Path) -> String {
    format!("repo-{}", &hex_sha256(root.as_os_str().as_bytes())[..24])
}

/// `dir` relative to the work tree at `root` (canonical), when it lies in it: resolved
/// against the working directory, its longest existing part through the file system (the
/// rest need not exist yet).
fn in_tree(root: &Path, dir: &Path) -> Option<PathBuf> {
    let absolute = match dir.is_absolute() {
        true => dir.to_owned(),
        false => std::env::current_dir().ok()?.join(dir),
    };
    let mut existing = absolute.as_path();
    let mut rest: Vec<&std::ffi::OsStr> = Vec::new();
    let resolved = loop {
        if let Ok(found) = existing.canonicalize() {
            break found;
        }
        rest.push(existing.file_name()?);
        existing = existing.parent()?;
    };
    let full = rest.iter().rev().fold(resolved, |p, part| p.join(part));
    let rel = full.strip_prefix(root).ok()?;
    (!rel.as_os_str().is_empty()).then(|| rel.to_owned())
}
