//! Domain types shared by the state engine, the store and the cues. No SQL, no I/O.

use serde::{Deserialize, Serialize};

/// What a tracked path is in the working tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FileType {
    /// A regular file whose first 8 KiB hold no NUL byte.
    Text,
    /// A regular file with a NUL byte in its first 8 KiB.
    Binary,
    /// A symbolic link; its digest covers the link target text, never what it points to.
    Symlink,
    /// A submodule, recorded by its commit id; its contents are not indexed.
    Gitlink,
    /// Tracked in the index but absent (or not a file) in the working tree.
    Missing,
    /// Present, but its content could not be read (a per-file fault of a path with no earlier
    /// state to keep): size, digest and language are unknown.
    Unreadable,
}

impl FileType {
    /// Returns the public name.
    pub fn as_str(self) -> &'static str {
        match self {
            FileType::Text => "text",
            FileType::Binary => "binary",
            FileType::Symlink => "symlink",
            FileType::Gitlink => "gitlink",
            FileType::Missing => "missing",
            FileType::Unreadable => "unreadable",
        }
    }
}

/// How a tracked path differs from HEAD and the index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, schemars::JsonSchema)]
pub enum WorkingState {
    /// Same in HEAD, index and working tree.
    #[serde(rename = "clean")]
    Clean,
    /// The index differs from HEAD; the working tree matches the index.
    #[serde(rename = "staged")]
    Staged,
    /// The working tree differs from the index; the index matches HEAD.
    #[serde(rename = "unstaged")]
    Unstaged,
    /// Both differ.
    #[serde(rename = "staged+unstaged")]
    StagedUnstaged,
    /// Deleted from the working tree but still in the index.
    #[serde(rename = "deleted")]
    Deleted,
    /// An unmerged (conflicted) path.
    #[serde(rename = "conflicted")]
    Conflicted,
}

impl WorkingState {
    /// Returns the public name.
    pub fn as_str(self) -> &'static str {
        match self {
            WorkingState::Clean => "clean",
            WorkingState::Staged => "staged",
            WorkingState::Unstaged => "unstaged",
            WorkingState::StagedUnstaged => "staged+unstaged",
            WorkingState::Deleted => "deleted",
            WorkingState::Conflicted => "conflicted",
        }
    }
}

/// What analysis does with a tracked file, decided from its path, the configuration, Git
/// attributes and (for secrets) its first bytes. Every class is tracked for freshness; only
/// `source` files are analysed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FileClass {
    /// The project's own file: analysed, searchable and listed.
    #[default]
    Source,
    /// Vendored code (a built-in vendored directory or `linguist-vendored`): not analysed;
    /// its path is searchable and counted, ranked down.
    Vendored,
    /// Generated or minified code (a built-in suffix or `linguist-generated`): handled like
    /// vendored code.
    Generated,
    /// Excluded by the configuration's `exclude` globs: not analysed, searched or listed.
    Excluded,
    /// A secret (by name or by content): never analysed, indexed or named in any output.
    Secret,
}

impl FileClass {
    /// Returns the public name.
    pub fn as_str(self) -> &'static str {
        match self {
            FileClass::Source => "source",
            FileClass::Vendored => "vendored",
            FileClass::Generated => "generated",
            FileClass::Excluded => "excluded",
            FileClass::Secret => "secret",
        }
    }

    /// Tells whether the content is analysed (outlines, manifests, symbols).
    pub fn analysed(self) -> bool {
        self == FileClass::Source
    }

    /// Tells whether the path may be named in listings and search results.
    pub fn listed(self) -> bool {
        !matches!(self, FileClass::Excluded | FileClass::Secret)
    }
}

/// Cheap-to-observe file metadata used to decide whether a file must be hashed again.
///
/// It is a cache, not indexed state: two snapshots with equal content but different stat data
/// are the same snapshot.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StatKey {
    /// Size in bytes.
    pub size: u64,
    /// Modification time in nanoseconds since the epoch.
    pub mtime_ns: i64,
    /// Status-change time in nanoseconds since the epoch.
    pub ctime_ns: i64,
    /// Inode number.
    pub ino: u64,
}

impl StatKey {
    /// Returns the stat key of already-fetched metadata.
    pub fn of(meta: &std::fs::Metadata) -> StatKey {
        use std::os::unix::fs::MetadataExt;
        StatKey {
            size: meta.len(),
            mtime_ns: meta.mtime() * 1_000_000_000 + meta.mtime_nsec(),
            ctime_ns: meta.ctime() * 1_000_000_000 + meta.ctime_nsec(),
            ino: meta.ino(),
        }
    }
}

/// The indexed state of one tracked path in one snapshot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileState {
    /// Repository-relative path bytes.
    pub path: Vec<u8>,
    /// Octal index mode (`0o100644`, `0o100755`, `0o120000`, `0o160000`).
    pub index_mode: u32,
    /// Index object id (for a conflicted path, the "ours" stage when present).
    pub index_oid: String,
    /// Octal working-tree mode, `None` when the path is missing.
    pub worktree_mode: Option<u32>,
    /// Size in bytes of the working-tree content (link target length for a symlink).
    pub size: Option<u64>,
    /// SHA-256 of the working-tree content (link target for a symlink); `None` when missing
    /// or a gitlink.
    pub digest: Option<String>,
    /// What the path is.
    pub file_type: FileType,
    /// Detected language name, if any.
    pub language: Option<String>,
    /// Whether the path is a document (Markdown, reStructuredText, AsciiDoc, text).
    pub is_document: bool,
    /// Difference from HEAD and the index.
    pub working_state: WorkingState,
    /// The index tells Git to ignore working-tree changes (`assume-unchanged`).
    pub assume_unchanged: bool,
    /// The entry is outside the sparse checkout (`skip-worktree`).
    pub skip_worktree: bool,
    /// What analysis does with the file.
    pub class: FileClass,
    /// Stat data at scan time (cache only).
    pub stat: Option<StatKey>,
}

impl FileState {
    /// Tells whether two states are the same indexed state (stat data ignored).
    pub fn same_state(&self, other: &FileState) -> bool {
        FileState {
            stat: None,
            ..self.clone()
        } == FileState {
            stat: None,
            ..other.clone()
        }
    }

    /// Tells whether the path exists in the working tree.
    pub fn exists(&self) -> bool {
        self.file_type != FileType::Missing
    }

    /// Returns the public entity id `file:<path>`.
    pub fn entity_id(&self) -> String {
        crate::api::EntityId::file(crate::paths::display(&self.path)).to_string()
    }
}

/// A tracked path one scan could not read or analyze. The snapshot records it, serves the
/// path's last known state, and the next refresh reads the path again whatever its stat data
/// says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fault {
    /// Repository-relative path bytes.
    pub path: Vec<u8>,
    /// What went wrong.
    pub kind: crate::api::FaultKind,
}

impl Fault {
    /// Returns the public form, the path displayed with escapes.
    pub fn public(&self) -> crate::api::FileFault {
        crate::api::FileFault {
            path: crate::paths::display(&self.path),
            kind: self.kind,
        }
    }

    /// The faults `status` and a refresh's output list: at most [`FAULTS_LISTED`], the files
    /// that could not be read or parsed before those whose analysis was only deferred, each
    /// group in path order. A first read of a large repository defers thousands of files; the
    /// `file_faults` warning counts them all.
    pub fn listed(faults: &[Fault]) -> Vec<crate::api::FileFault> {
        let deferred = |f: &Fault| f.kind == crate::api::FaultKind::Deferred;
        let mut order: Vec<&Fault> = faults.iter().collect();
        order.sort_by(|a, b| (deferred(a), &a.path).cmp(&(deferred(b), &b.path)));
        order
            .into_iter()
            .take(FAULTS_LISTED)
            .map(Fault::public)
            .collect()
    }

    /// The faults a cue's provenance lists, which every budget must fit: at most
    /// [`FAULTS_IN_PROVENANCE`] files that could not be read or parsed, in path order.
    /// Deferred analysis is no fault of a file's: the `file_faults` warning counts it.
    pub fn in_provenance(faults: &[Fault]) -> Vec<crate::api::FileFault> {
        let mut read: Vec<&Fault> = faults
            .iter()
            .filter(|f| f.kind != crate::api::FaultKind::Deferred)
            .collect();
        read.sort_by(|a, b| a.path.cmp(&b.path));
        read.into_iter()
            .take(FAULTS_IN_PROVENANCE)
            .map(Fault::public)
            .collect()
    }
}

/// How many faults `status` and a refresh's output list.
pub const FAULTS_LISTED: usize = 20;

/// How many faults a cue's provenance lists (a manifest is 50-150 tokens).
pub const FAULTS_IN_PROVENANCE: usize = 5;

/// Formats an octal mode the way Git prints it (`100644`).
pub fn mode_str(mode: u32) -> String {
    format!("{mode:06o}")
}

/// A clean, tracked text file for unit tests.
#[cfg(test)]
pub(crate) fn sample_file(path: &str, digest: &str) -> FileState {
    FileState {
        path: path.as_bytes().to_vec(),
        index_mode: 0o100644,
        index_oid: "aa".into(),
        worktree_mode: Some(0o100644),
        size: Some(digest.len() as u64),
        digest: Some(digest.into()),
        file_type: FileType::Text,
        language: None,
        is_document: false,
        working_state: WorkingState::Clean,
        assume_unchanged: false,
        skip_worktree: false,
        class: FileClass::Source,
        stat: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::FaultKind;

    /// Outputs list faults within a bound, the files that could not be read before those whose
    /// analysis was only deferred, in path order; a provenance lists no deferred analysis.
    #[test]
    fn fault_lists_are_bounded_and_put_unread_files_first() {
        let mut faults: Vec<Fault> = (0..30)
            .rev()
            .map(|i| Fault {
                path: format!("deferred/{i:02}.rs").into_bytes(),
                kind: FaultKind::Deferred,
            })
            .collect();
        for (path, kind) in [
            ("z.bin", FaultKind::Unreadable),
            ("a.rs", FaultKind::TimedOut),
        ] {
            faults.push(Fault {
                path: path.as_bytes().to_vec(),
                kind,
            });
        }
        let listed: Vec<String> = Fault::listed(&faults).into_iter().map(|f| f.path).collect();
        assert_eq!(listed.len(), FAULTS_LISTED);
        assert_eq!(listed[..3], ["a.rs", "z.bin", "deferred/00.rs"]);
        assert_eq!(listed.last().unwrap(), "deferred/17.rs");
        let provenance: Vec<String> = Fault::in_provenance(&faults)
            .into_iter()
            .map(|f| f.path)
            .collect();
        assert_eq!(provenance, ["a.rs", "z.bin"]);
        let unread: Vec<Fault> = (0..9)
            .map(|i| Fault {
                path: format!("u{i}").into_bytes(),
                kind: FaultKind::Vanished,
            })
            .collect();
        assert_eq!(Fault::in_provenance(&unread).len(), FAULTS_IN_PROVENANCE);
    }
}
