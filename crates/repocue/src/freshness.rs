//! Every freshness and caveat rule, once: how a snapshot compares with the live repository,
//! which caveats a refresh records, and which warnings a snapshot's caveats carry.
//!
//! The rules are pure functions over values; the one function that looks at the work tree
//! ([`changed_dirty_paths`]) only gathers the evidence they need.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use crate::api::{Caveat, Freshness, Warning, WarningCode};
use crate::error::Result;
use crate::git::{self, Basis};
use crate::model::{FileState, WorkingState};
use crate::paths;
use crate::scan;
use crate::store::SnapshotRow;

/// The result of comparing a snapshot with the live repository.
#[derive(Debug)]
pub(crate) struct Assessment {
    pub freshness: Freshness,
    pub reasons: Vec<String>,
    pub changed: Vec<Vec<u8>>,
    pub warnings: Vec<Warning>,
}

/// The freshness of a snapshot that describes the basis it was just taken from (after a
/// publish, or a read right after one): caveats make it `possibly-stale`, else the work
/// tree's dirtiness decides.
pub(crate) fn of_snapshot(caveats: &[Caveat], dirty: bool) -> Freshness {
    if !caveats.is_empty() {
        Freshness::PossiblyStale
    } else if dirty {
        Freshness::DirtyButIndexed
    } else {
        Freshness::Current
    }
}

/// Dirty (and hidden) paths whose content changed since the snapshot although Git's answer
/// may be the same: stat data first, the content digest when the stat data differs.
pub(crate) fn changed_dirty_paths(root: &Path, files: &[FileState]) -> Result<Vec<Vec<u8>>> {
    let mut changed = Vec::new();
    for f in files
        .iter()
        .filter(|f| f.working_state != WorkingState::Clean || f.assume_unchanged || f.skip_worktree)
    {
        if f.index_mode == 0o160000 {
            continue;
        }
        let live = scan::stat_of(root, &f.path);
        if live.is_some() && live == f.stat {
            continue;
        }
        let now = scan::digest_of(root, &f.path)?;
        let same = match (&now, &f.digest) {
            (None, None) => true,
            (Some((d, _)), Some(old)) => d == old,
            _ => false,
        };
        if !same {
            changed.push(f.path.clone());
        }
    }
    Ok(changed)
}

/// Compares the live basis with a snapshot, given the snapshot's unsettled rows (dirty,
/// hidden or flagged paths) and the dirty paths whose content changed
/// ([`changed_dirty_paths`]). Git's path lists alone are not enough: a dirty file can change
/// again, and a revert can make Git's answer match an older state. `rules_current` tells
/// whether the snapshot was classified under the analysis rules in force now (a changed
/// configuration re-derives classes, so it needs a refresh too).
pub(crate) fn assess(
    snap: &SnapshotRow,
    files: &[FileState],
    basis: &Basis,
    content_changed: Vec<Vec<u8>>,
    rules_current: bool,
) -> Assessment {
    let mut reasons = Vec::new();
    if !rules_current {
        reasons.push("analysis configuration changed".into());
    }
    let mut changed: Vec<Vec<u8>> = Vec::new();
    if snap.branch != basis.branch {
        reasons.push("branch changed".into());
    }
    if snap.head != basis.head {
        reasons.push("HEAD moved".into());
    }
    if snap.index_digest != basis.index_digest {
        reasons.push("index changed".into());
    }
    if snap.status_digest != basis.status_digest {
        reasons.push("git status changed".into());
        let by_path: HashMap<&[u8], &FileState> =
            files.iter().map(|f| (f.path.as_slice(), f)).collect();
        for c in &basis.changed {
            let ws = git::working_state(Some(c));
            if by_path
                .get(c.path.as_slice())
                .is_none_or(|f| f.working_state != ws)
            {
                changed.push(c.path.clone());
            }
        }
        let live: HashSet<&[u8]> = basis.changed.iter().map(|c| c.path.as_slice()).collect();
        for f in files {
            if f.working_state != WorkingState::Clean && !live.contains(f.path.as_slice()) {
                changed.push(f.path.clone());
            }
        }
    }
    if snap.untracked != basis.untracked {
        reasons.push("untracked paths changed".into());
    }
    for p in content_changed {
        if !changed.contains(&p) {
            changed.push(p);
        }
    }
    if !changed.is_empty() && reasons.is_empty() {
        reasons.push("content of a dirty path changed".into());
    }
    changed.sort();
    changed.dedup();
    let mut warnings = caveat_warnings(&snap.caveats);
    let freshness = if !reasons.is_empty() || !changed.is_empty() {
        Freshness::RefreshNeeded
    } else if !snap.caveats.is_empty() {
        let names: Vec<&str> = snap.caveats.iter().map(|c| c.as_str()).collect();
        reasons.push(format!("snapshot caveats: {}", names.join(", ")));
        Freshness::PossiblyStale
    } else if basis.dirty() {
        reasons.push("indexed state equals the dirty working tree".into());
        Freshness::DirtyButIndexed
    } else {
        reasons.push("indexed state equals the clean working tree".into());
        Freshness::Current
    };
    if freshness == Freshness::RefreshNeeded {
        warnings.push(Warning::counted(
            WarningCode::RefreshNeeded,
            changed.len() as u64,
            format!(
                "live repository differs from the snapshot: {}",
                reasons.join(", ")
            ),
        ));
    }
    Assessment {
        freshness,
        reasons,
        changed,
        warnings,
    }
}

/// The caveats a refresh records and the warnings it reports. An incremental refresh (index
/// unchanged, so its flags too) keeps the previous snapshot's caveats except a past scan
/// race, which this scan re-decides; a full scan derives them from the files' index flags.
pub(crate) fn refresh_caveats(
    previous: Option<&[Caveat]>,
    files: &[FileState],
    unstable: u64,
) -> (Vec<Caveat>, Vec<Warning>) {
    let mut caveats: Vec<Caveat> = match previous {
        Some(prev) => prev
            .iter()
            .copied()
            .filter(|c| *c != Caveat::ChangedDuringScan)
            .collect(),
        None => {
            let mut c = Vec::new();
            if files.iter().any(|f| f.assume_unchanged) {
                c.push(Caveat::AssumeUnchanged);
            }
            if files.iter().any(|f| f.skip_worktree) {
                c.push(Caveat::SkipWorktree);
            }
            c
        }
    };
    if unstable > 0 {
        caveats.push(Caveat::ChangedDuringScan);
    }
    let mut warnings: Vec<Warning> = scan_race_warning(unstable).into_iter().collect();
    warnings.extend(
        caveat_warnings(&caveats)
            .into_iter()
            .filter(|w| w.code != WarningCode::ChangedDuringScan),
    );
    (caveats, warnings)
}

fn scan_race_warning(unstable: u64) -> Option<Warning> {
    (unstable > 0).then(|| {
        Warning::counted(
            WarningCode::ChangedDuringScan,
            unstable,
            "files changed while being read; run `repocue refresh` again when the repository is idle",
        )
    })
}

/// The warning each caveat of a snapshot carries on every read.
pub(crate) fn caveat_warnings(caveats: &[Caveat]) -> Vec<Warning> {
    caveats
        .iter()
        .map(|c| match c {
            Caveat::AssumeUnchanged => Warning::new(
                WarningCode::AssumeUnchanged,
                "index entries marked assume-unchanged: Git may hide their changes; RepoCue re-checks them by stat and digest",
            ),
            Caveat::SkipWorktree => Warning::new(
                WarningCode::SkipWorktree,
                "index entries marked skip-worktree (sparse checkout): their working-tree state is not what Git reports",
            ),
            Caveat::ChangedDuringScan => Warning::new(
                WarningCode::ChangedDuringScan,
                "the snapshot may not match the repository exactly",
            ),
        })
        .collect()
}

/// The `non_utf8_path` warning for a set of paths, if any is not UTF-8.
pub(crate) fn non_utf8_warning<'a>(paths: impl Iterator<Item = &'a Vec<u8>>) -> Option<Warning> {
    let bad: Vec<String> = paths
        .filter(|p| !paths::is_utf8(p))
        .map(|p| paths::display(p))
        .collect();
    (!bad.is_empty()).then(|| {
        Warning::counted(
            WarningCode::NonUtf8Path,
            bad.len() as u64,
            format!(
                "paths that are not UTF-8 are shown with \\xNN escapes: {}",
                bad.iter().take(5).cloned().collect::<Vec<_>>().join(", ")
            ),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::git::StatusEntry;

    fn snapshot(caveats: Vec<Caveat>) -> SnapshotRow {
        SnapshotRow {
            seq: 2,
            epoch: 1,
            parent: Some(1),
            kind: "refresh".into(),
            branch: Some("main".into()),
            head: Some("h1".into()),
            dirty: false,
            status_digest: "s".into(),
            index_digest: "i".into(),
            repository_digest: "r".into(),
            untracked: vec![],
            recent_commits: vec![],
            caveats,
            observed_at: "t".into(),
            created_at: "t".into(),
            index_stat: None,
            file_count: Some(1),
            rules_digest: Some("r".into()),
            secret_content: true,
        }
    }

    fn basis() -> Basis {
        Basis {
            branch: Some("main".into()),
            head: Some("h1".into()),
            changed: vec![],
            untracked: vec![],
            status_digest: "s".into(),
            index: vec![],
            index_digest: "i".into(),
            observed_at: "t".into(),
            observed_ns: 0,
            index_listed: false,
            index_sig: None,
        }
    }

    #[test]
    fn an_identical_clean_basis_is_current() {
        let a = assess(&snapshot(vec![]), &[], &basis(), vec![], true);
        assert_eq!(a.freshness, Freshness::Current);
        assert_eq!(a.reasons, ["indexed state equals the clean working tree"]);
        assert!(a.warnings.is_empty());
    }

    #[test]
    fn other_analysis_rules_need_a_refresh() {
        let a = assess(&snapshot(vec![]), &[], &basis(), vec![], false);
        assert_eq!(a.freshness, Freshness::RefreshNeeded);
        assert_eq!(a.reasons, ["analysis configuration changed"]);
    }

    #[test]
    fn a_moved_head_or_a_changed_dirty_file_needs_a_refresh() {
        let mut b = basis();
        b.head = Some("h2".into());
        let a = assess(&snapshot(vec![]), &[], &b, vec![], true);
        assert_eq!(a.freshness, Freshness::RefreshNeeded);
        assert_eq!(a.reasons, ["HEAD moved"]);
        assert_eq!(a.warnings[0].code, WarningCode::RefreshNeeded);

        let a = assess(&snapshot(vec![]), &[], &basis(), vec![b"x".to_vec()], true);
        assert_eq!(a.freshness, Freshness::RefreshNeeded);
        assert_eq!(a.reasons, ["content of a dirty path changed"]);
        assert_eq!(a.changed, [b"x".to_vec()]);
        assert_eq!(a.warnings[0].count, Some(1));
    }

    #[test]
    fn a_new_status_entry_is_a_changed_path() {
        let mut b = basis();
        b.status_digest = "s2".into();
        b.changed = vec![StatusEntry {
            path: b"f".to_vec(),
            orig_path: None,
            x: b'.',
            y: b'M',
            unmerged: false,
        }];
        let a = assess(&snapshot(vec![]), &[], &b, vec![], true);
        assert_eq!(a.freshness, Freshness::RefreshNeeded);
        assert_eq!(a.changed, [b"f".to_vec()]);
    }

    #[test]
    fn caveats_make_a_snapshot_possibly_stale_with_one_warning_each() {
        let a = assess(
            &snapshot(vec![Caveat::SkipWorktree]),
            &[],
            &basis(),
            vec![],
            true,
        );
        assert_eq!(a.freshness, Freshness::PossiblyStale);
        assert_eq!(a.reasons, ["snapshot caveats: skip_worktree"]);
        assert_eq!(a.warnings.len(), 1);
        assert_eq!(a.warnings[0].code, WarningCode::SkipWorktree);
        assert_eq!(
            of_snapshot(&[Caveat::AssumeUnchanged], true),
            Freshness::PossiblyStale
        );
        assert_eq!(of_snapshot(&[], true), Freshness::DirtyButIndexed);
        assert_eq!(of_snapshot(&[], false), Freshness::Current);
    }

    #[test]
    fn refresh_caveats_rederive_the_scan_race_and_keep_index_flags() {
        let mut flagged = crate::model::sample_file("a", "1");
        flagged.assume_unchanged = true;
        let (c, w) = refresh_caveats(None, &[flagged], 2);
        assert_eq!(c, [Caveat::AssumeUnchanged, Caveat::ChangedDuringScan]);
        assert_eq!(w[0].code, WarningCode::ChangedDuringScan);
        assert_eq!(w[0].count, Some(2));
        assert_eq!(w.len(), 2);
        let (c, w) = refresh_caveats(Some(&c), &[], 0);
        assert_eq!(c, [Caveat::AssumeUnchanged]);
        assert_eq!(w.len(), 1);
    }

    #[test]
    fn non_utf8_paths_are_counted_and_escaped() {
        let paths = [b"ok".to_vec(), b"bad\xff".to_vec()];
        let w = non_utf8_warning(paths.iter()).unwrap();
        assert_eq!(w.count, Some(1));
        assert!(w.detail.unwrap().contains("bad\\xFF"));
        assert!(non_utf8_warning([b"ok".to_vec()].iter()).is_none());
    }
}
