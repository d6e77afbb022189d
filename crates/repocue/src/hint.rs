//! The disposable location hint (`location.json` beside `state.db`): lets a command run at an
//! ordinary repository root skip the Git discovery process.
//!
//! The hint never carries state (branch, HEAD, freshness); it only remembers that Git once
//! confirmed this directory as a work-tree root while `.git` and its config looked the same.
//! Any mismatch, parse error or read failure is a cache miss.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::digest::{hex, hex_sha256};

const HINT_VERSION: u32 = 1;
const MAX_HINT_BYTES: u64 = 4096;
/// Environment variables that change what Git considers the repository.
const GIT_ENV_OVERRIDES: &[&str] = &[
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_COMMON_DIR",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_CEILING_DIRECTORIES",
    "GIT_DISCOVERY_ACROSS_FILESYSTEM",
    "GIT_CONFIG",
    "GIT_CONFIG_PARAMETERS",
    "GIT_CONFIG_COUNT",
];

#[derive(Debug, Serialize, Deserialize, PartialEq)]
struct Hint {
    version: u32,
    root_hex: String,
    git_dir_dev: u64,
    git_dir_ino: u64,
    config_digest: String,
}

fn observe(root: &Path) -> Option<Hint> {
    if GIT_ENV_OVERRIDES
        .iter()
        .any(|v| std::env::var_os(v).is_some())
    {
        return None;
    }
    let git_dir = root.join(".git");
    let meta = std::fs::symlink_metadata(&git_dir).ok()?;
    // Linked worktrees and separate Git dirs use a `.git` file: always discover those.
    if !meta.is_dir() {
        return None;
    }
    let config = std::fs::read(git_dir.join("config")).ok()?;
    use std::os::unix::ffi::OsStrExt;
    Some(Hint {
        version: HINT_VERSION,
        root_hex: hex(root.as_os_str().as_bytes()),
        git_dir_dev: meta.dev(),
        git_dir_ino: meta.ino(),
        config_digest: hex_sha256(&config),
    })
}

/// Returns the root when a valid hint confirms that `candidate` is a work-tree root.
pub fn check(hint_path: &Path, candidate: &Path) -> Option<PathBuf> {
    let meta = std::fs::metadata(hint_path).ok()?;
    if meta.len() > MAX_HINT_BYTES {
        return None;
    }
    let stored: Hint = serde_json::from_slice(&std::fs::read(hint_path).ok()?).ok()?;
    let live = observe(candidate)?;
    (stored == live).then(|| candidate.to_owned())
}

/// Writes a hint for a root Git just confirmed; returns a warning text on failure.
pub fn write(hint_path: &Path, root: &Path) -> Option<String> {
    let hint = observe(root)?;
    let json = serde_json::to_vec(&hint).expect("hint serializes");
    let dir = hint_path.parent()?;
    if let Err(e) = crate::store::create_private_dir(dir) {
        return Some(format!("location hint not written: {e}"));
    }
    let tmp = dir.join(format!(".location.json.{}", std::process::id()));
    let result = std::fs::write(&tmp, &json).and_then(|()| std::fs::rename(&tmp, hint_path));
    match result {
        Ok(()) => None,
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Some(format!(
                "location hint {} not written: {e}",
                hint_path.display()
            ))
        }
    }
}
