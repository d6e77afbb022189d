//! The directories above the paths a scan reads, checked for what they are: nothing is read
//! through a directory the work tree has swapped for a symbolic link.

use std::path::Path;

use crate::paths;

/// The directories above the paths `items` that are no directories in the work tree: a symbolic
/// link (to anywhere, inside the tree or out), a file, or nothing. Git reads a path below one as
/// deleted, and so does the scan, which must not read through a link what lies outside the
/// tree (`rm -r src && ln -s /elsewhere src` made `/elsewhere/s.py` the content of `src/s.py`).
/// Each directory is checked once, a parent before its children.
pub(crate) fn linked_dirs<'a>(
    root: &Path,
    items: impl Iterator<Item = &'a [u8]>,
) -> std::collections::HashSet<Vec<u8>> {
    let mut dirs: std::collections::BTreeSet<&[u8]> = std::collections::BTreeSet::new();
    for path in items {
        let mut dir = paths::parent(path);
        while let Some(d) = dir {
            if !dirs.insert(d) {
                break;
            }
            dir = paths::parent(d);
        }
    }
    let mut linked = std::collections::HashSet::new();
    for d in dirs {
        if paths::parent(d).is_some_and(|p| linked.contains(p)) || !is_dir(&paths::join(root, d)) {
            linked.insert(d.to_vec());
        }
    }
    linked
}

/// Whether `full` is a directory itself, not a link to one; one that cannot be looked at for
/// another reason than its absence counts as one (reading below it fails on its own).
fn is_dir(full: &Path) -> bool {
    match std::fs::symlink_metadata(full) {
        Ok(m) => m.is_dir(),
        Err(e) => !is_absent(&e),
    }
}

/// Whether a directory above `path` is no directory in the work tree ([`linked_dirs`] of one
/// path, for a reader of a few).
pub(crate) fn behind_link(root: &Path, path: &[u8]) -> bool {
    let mut dir = paths::parent(path);
    while let Some(d) = dir {
        if !is_dir(&paths::join(root, d)) {
            return true;
        }
        dir = paths::parent(d);
    }
    false
}

/// Whether reading a path failed because nothing is there (or a directory above it is none, or
/// a link loops): the path is absent, not unreadable.
pub(crate) fn is_absent(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
    ) || e.raw_os_error() == Some(libc::ELOOP)
}
