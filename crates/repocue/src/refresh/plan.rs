//! Stage 2 of a refresh: from the basis and the previous snapshot's rows, decide which paths
//! must be read again.

use std::collections::HashMap;
use std::path::Path;

use crate::git::{self, IndexEntry, StatusEntry};
use crate::model::{FileClass, FileState, StatKey, WorkingState};
use crate::scan::{self, ScanItem};

/// Which paths are read again and which previous rows are reused.
#[derive(Debug, Default)]
pub(crate) struct Plan {
    /// Previous rows kept as they are.
    pub reused: Vec<FileState>,
    /// Paths to read.
    pub to_scan: Vec<ScanItem>,
    /// New stat data for reused rows (always empty here; the scan outcome adds to it).
    pub stat_updates: Vec<(Vec<u8>, StatKey)>,
}

/// Decides which paths must be read again. Reuses a previous row when the index entry is the
/// same and the path was clean then and is clean now, or when it is dirty in the same way and
/// its stat data is unchanged.
pub(crate) fn plan_scan(
    index: &[IndexEntry],
    changed: &[StatusEntry],
    prev: &[FileState],
    full: bool,
    force: &[Vec<u8>],
    root: &Path,
) -> Plan {
    let force: std::collections::HashSet<&[u8]> = force.iter().map(Vec::as_slice).collect();
    let status: HashMap<&[u8], &StatusEntry> =
        changed.iter().map(|c| (c.path.as_slice(), c)).collect();
    let prev: HashMap<&[u8], &FileState> = prev.iter().map(|f| (f.path.as_slice(), f)).collect();
    let mut plan = Plan::default();
    for group in group_index(index) {
        let item = scan_item(&group, status.get(group[0].path.as_slice()).copied());
        let old = if full || force.contains(item.path.as_slice()) {
            None
        } else {
            prev.get(item.path.as_slice()).copied()
        };
        if let Some(old) = old.filter(|o| same_entry(o, &item)) {
            let hidden = item.assume_unchanged || item.skip_worktree;
            let clean_both = old.working_state == WorkingState::Clean
                && item.working_state == WorkingState::Clean;
            if clean_both && !hidden && old.index_mode != 0o160000 {
                plan.reused.push(old.clone());
                continue;
            }
            if old.index_mode == 0o160000 && old.working_state == item.working_state {
                plan.reused.push(old.clone());
                continue;
            }
            let live = scan::stat_of(root, &item.path);
            if old.working_state == item.working_state && old.stat.is_some() && live == old.stat {
                plan.reused.push(old.clone());
                continue;
            }
        }
        plan.to_scan.push(item);
    }
    plan
}

fn same_entry(old: &FileState, item: &ScanItem) -> bool {
    old.index_mode == item.index_mode
        && old.index_oid == item.index_oid
        && old.assume_unchanged == item.assume_unchanged
        && old.skip_worktree == item.skip_worktree
}

/// Groups index entries of the same path (conflict stages) together.
fn group_index(index: &[IndexEntry]) -> Vec<Vec<&IndexEntry>> {
    let mut groups: Vec<Vec<&IndexEntry>> = Vec::new();
    for e in index {
        match groups.last_mut() {
            Some(g) if g[0].path == e.path => g.push(e),
            _ => groups.push(vec![e]),
        }
    }
    groups
}

fn scan_item(group: &[&IndexEntry], status: Option<&StatusEntry>) -> ScanItem {
    // For a conflict, describe "ours" (stage 2) when present.
    let main = group
        .iter()
        .find(|e| e.stage == 0 || e.stage == 2)
        .unwrap_or(&group[0]);
    let conflicted = group.iter().any(|e| e.stage != 0);
    ScanItem {
        path: main.path.clone(),
        index_mode: main.mode,
        index_oid: main.oid.clone(),
        working_state: if conflicted {
            WorkingState::Conflicted
        } else {
            git::working_state(status)
        },
        assume_unchanged: main.assume_unchanged,
        skip_worktree: main.skip_worktree,
        // Decided by the next stage (`classes::assign`), before anything is read.
        class: FileClass::Source,
        check_content: true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(path: &str, oid: &str, stage: u8) -> IndexEntry {
        IndexEntry {
            path: path.as_bytes().to_vec(),
            mode: 0o100644,
            oid: oid.into(),
            stage,
            assume_unchanged: false,
            skip_worktree: false,
        }
    }

    fn status(path: &str, x: u8, y: u8) -> StatusEntry {
        StatusEntry {
            path: path.as_bytes().to_vec(),
            orig_path: None,
            x,
            y,
            unmerged: false,
        }
    }

    fn prev(path: &str, oid: &str) -> FileState {
        let mut f = crate::model::sample_file(path, "d");
        f.index_oid = oid.into();
        f
    }

    #[test]
    fn clean_unchanged_rows_are_reused_and_the_rest_is_scanned() {
        let root = Path::new("/nonexistent-repocue-test-root");
        let index = [entry("a", "1", 0), entry("b", "2", 0), entry("c", "3", 0)];
        let changed = [status("c", b'.', b'M')];
        let previous = [prev("a", "1"), prev("b", "old"), prev("c", "3")];
        let plan = plan_scan(&index, &changed, &previous, false, &[], root);
        let reused: Vec<&[u8]> = plan.reused.iter().map(|f| f.path.as_slice()).collect();
        assert_eq!(reused, [b"a".as_slice()]);
        let scanned: Vec<(&[u8], WorkingState)> = plan
            .to_scan
            .iter()
            .map(|i| (i.path.as_slice(), i.working_state))
            .collect();
        assert_eq!(
            scanned,
            [
                (b"b".as_slice(), WorkingState::Clean),
                (b"c".as_slice(), WorkingState::Unstaged)
            ]
        );
    }

    #[test]
    fn forced_paths_are_read_again_though_unchanged() {
        let root = Path::new("/nonexistent-repocue-test-root");
        let index = [entry("a", "1", 0), entry("b", "2", 0)];
        let previous = [prev("a", "1"), prev("b", "2")];
        let plan = plan_scan(&index, &[], &previous, false, &[b"b".to_vec()], root);
        assert_eq!(plan.reused.len(), 1);
        assert_eq!(plan.to_scan[0].path, b"b");
    }

    #[test]
    fn a_full_plan_scans_everything_and_conflicts_describe_ours() {
        let root = Path::new("/nonexistent-repocue-test-root");
        let index = [
            entry("a", "1", 0),
            entry("m", "base", 1),
            entry("m", "ours", 2),
            entry("m", "theirs", 3),
        ];
        let plan = plan_scan(&index, &[], &[prev("a", "1")], true, &[], root);
        assert!(plan.reused.is_empty());
        assert_eq!(plan.to_scan.len(), 2);
        let m = &plan.to_scan[1];
        assert_eq!(
            (m.index_oid.as_str(), m.working_state),
            ("ours", WorkingState::Conflicted)
        );
    }
}
