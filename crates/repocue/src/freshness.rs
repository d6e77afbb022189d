//! Every freshness and caveat rule, once: how a snapshot compares with the live repository,
//! which caveats a refresh records, and which warnings a snapshot's caveats carry.
//!
//! The rules are pure functions over values; the one function that looks at the work tree
//! ([`changed_dirty_paths`]) only gathers the evidence they need.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use crate::api::{Caveat, FaultKind, Freshness, Warning, WarningCode};
use crate::git::{self, Basis};
use crate::model::{Fault, FileState, WorkingState};
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
    /// Whether the live repository differs from the snapshot (else a refresh only continues
    /// what the snapshot left undone: deferred analysis).
    pub differs: bool,
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

/// Paths whose live content may differ from the snapshot although Git's answer may be the
/// same. Dirty (and hidden) rows: stat data first, the content digest when the stat data
/// differs; one that cannot be read now counts as changed (a refresh will record the fault).
/// Faulted paths: an `unreadable` or `vanished` one that can be read (or is gone) now, since a
/// refresh can then settle it. A `timed_out` one only when its stat data changed: retrying the
/// parse is the next refresh's business, not a reason to refresh on every read. Never fails:
/// what cannot be observed counts as changed or faulted, not as an error of the read.
pub(crate) fn changed_dirty_paths(
    root: &Path,
    files: &[FileState],
    faults: &[Fault],
) -> Vec<Vec<u8>> {
    let faulted: HashMap<&[u8], FaultKind> =
        faults.iter().map(|f| (f.path.as_slice(), f.kind)).collect();
    let mut changed = Vec::new();
    for f in files
        .iter()
        .filter(|f| f.working_state != WorkingState::Clean || f.assume_unchanged || f.skip_worktree)
        .filter(|f| !faulted.contains_key(f.path.as_slice()))
    {
        if f.index_mode == 0o160000 {
            continue;
        }
        let live = scan::stat_of(root, &f.path);
        if live.is_some() && live == f.stat {
            continue;
        }
        let same = match (scan::digest_of(root, &f.path), &f.digest) {
            (Ok(None), None) => true,
            (Ok(Some((d, _))), Some(old)) => d == *old,
            _ => false,
        };
        if !same {
            changed.push(f.path.clone());
        }
    }
    for fault in faults {
        let settled = match fault.kind {
            FaultKind::Unreadable | FaultKind::Vanished => {
                scan::digest_of(root, &fault.path).is_ok()
            }
            // A clean row's change shows in Git's status; a dirty one is among `files`.
            // Analysis a read's budget left for later is no change of the path: `assess`
            // asks for the refresh that carries it on.
            FaultKind::Deferred => false,
            FaultKind::TimedOut => files
                .iter()
                .find(|f| f.path == fault.path)
                .is_some_and(|r| r.stat.is_some() && scan::stat_of(root, &fault.path) != r.stat),
        };
        if settled {
            changed.push(fault.path.clone());
        }
    }
    changed
}

/// Compares the live basis with a snapshot, given the snapshot's unsettled rows (dirty,
/// hidden or flagged paths) and the dirty paths whose content changed
/// ([`changed_dirty_paths`]). Git's path lists alone are not enough: a dirty file can change
/// again, and a revert can make Git's answer match an older state. `outdated` names what the
/// cache derived from the snapshot that a refresh must derive again (other analysis rules,
/// which re-derive classes; a search index to rebuild): each needs a refresh too.
pub(crate) fn assess(
    snap: &SnapshotRow,
    files: &[FileState],
    basis: &Basis,
    content_changed: Vec<Vec<u8>>,
    outdated: &[&str],
) -> Assessment {
    let mut reasons: Vec<String> = outdated.iter().map(|r| (*r).to_owned()).collect();
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
        // Those that appeared or went: what the snapshot does not list as it is now.
        let before: HashSet<&[u8]> = snap.untracked.iter().map(Vec::as_slice).collect();
        let now: HashSet<&[u8]> = basis.untracked.iter().map(Vec::as_slice).collect();
        changed.extend(before.symmetric_difference(&now).map(|p| p.to_vec()));
    }
    for p in content_changed {
        if !changed.contains(&p) {
            changed.push(p);
        }
    }
    if !changed.is_empty() && reasons.is_empty() {
        reasons.push("content of a dirty path changed".into());
    }
    // What differs from the live repository, then what the snapshot itself left undone.
    let differs = reasons.len();
    let deferred = snap
        .faults
        .iter()
        .filter(|f| f.kind == FaultKind::Deferred)
        .count();
    if deferred > 0 {
        reasons.push(format!(
            "analysis of {deferred} files deferred; the next refresh continues it"
        ));
    }
    changed.sort();
    changed.dedup();
    let mut warnings = caveat_warnings(&snap.caveats, &snap.faults);
    let freshness = if !reasons.is_empty() || !changed.is_empty() {
        Freshness::RefreshNeeded
    } else if !snap.caveats.is_empty() {
        let names: Vec<&str> = snap.caveats.iter().map(|c| c.as_str()).collect();
        reasons.push(format!("snapshot caveats: {}", names.join(", ")));
        Freshness::PossiblyStale
    } else if basis.dirty() {
        // Untracked paths are listed, their content not indexed: what an agent has just
        // written and not added is no symbol yet, and the reason says so.
        reasons.push(match basis.untracked.len() {
            0 => "indexed state equals the dirty working tree".into(),
            n => format!(
                "indexed state equals the dirty working tree's tracked files; {n} untracked \
                 path{} listed, content not indexed until `git add`",
                if n == 1 { " is" } else { "s are" }
            ),
        });
        Freshness::DirtyButIndexed
    } else {
        reasons.push("indexed state equals the clean working tree".into());
        Freshness::Current
    };
    if freshness == Freshness::RefreshNeeded {
        let mut detail = Vec::new();
        if differs > 0 {
            let live = reasons[..differs].join(", ");
            detail.push(format!("live repository differs from the snapshot: {live}"));
        }
        detail.extend(reasons[differs..].iter().cloned());
        // A count of the changed paths, when there are any: a snapshot whose analysis a read
        // deferred said `refresh_needed 0`.
        warnings.push(match changed.len() {
            0 => Warning::new(WarningCode::RefreshNeeded, detail.join("; ")),
            n => Warning::counted(WarningCode::RefreshNeeded, n as u64, detail.join("; ")),
        });
    }
    Assessment {
        freshness,
        reasons,
        changed,
        warnings,
        differs: differs > 0,
    }
}

/// The caveats a refresh records and the warnings it reports. An incremental refresh (index
/// unchanged, so its flags too) keeps the previous snapshot's caveats except a past scan race
/// and past faults, which this scan re-decides; a full scan derives them from the files'
/// index flags.
pub(crate) fn refresh_caveats(
    previous: Option<&[Caveat]>,
    files: &[FileState],
    unstable: u64,
    faults: &[Fault],
) -> (Vec<Caveat>, Vec<Warning>) {
    let mut caveats: Vec<Caveat> = match previous {
        Some(prev) => prev
            .iter()
            .copied()
            .filter(|c| !matches!(c, Caveat::ChangedDuringScan | Caveat::FileFaults))
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
    if !faults.is_empty() {
        caveats.push(Caveat::FileFaults);
    }
    let mut warnings: Vec<Warning> = scan_race_warning(unstable).into_iter().collect();
    warnings.extend(
        caveat_warnings(&caveats, faults)
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

/// How many faulted paths a warning names; `status` lists more
/// ([`crate::model::FAULTS_LISTED`]).
const FAULTS_NAMED: usize = 5;

/// The warning each caveat of a snapshot carries on every read; `faults` are the snapshot's.
pub(crate) fn caveat_warnings(caveats: &[Caveat], faults: &[Fault]) -> Vec<Warning> {
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
            Caveat::FileFaults => fault_warning(faults),
        })
        .collect()
}

fn fault_warning(faults: &[Fault]) -> Warning {
    let (deferred, others): (Vec<&Fault>, Vec<&Fault>) =
        faults.iter().partition(|f| f.kind == FaultKind::Deferred);
    let mut named: Vec<String> = others
        .iter()
        .take(FAULTS_NAMED)
        .map(|f| format!("{} ({})", shortened(&f.path), f.kind))
        .collect();
    if others.len() > FAULTS_NAMED {
        named.push(format!("{} more", others.len() - FAULTS_NAMED));
    }
    let mut detail = Vec::new();
    if !deferred.is_empty() {
        detail.push(format!(
            "{} files not analyzed yet (their structure is missing from this cue, and a delta's symbol changes with it; the next read or `repocue refresh` continues the analysis: then ask again with the same arguments)",
            deferred.len()
        ));
    }
    if !others.is_empty() {
        detail.push(format!(
            "files not read or analyzed; their last known state is shown and the next refresh tries them again: {}",
            named.join(", ")
        ));
    }
    Warning::counted(
        WarningCode::FileFaults,
        faults.len() as u64,
        detail.join("; "),
    )
}

/// Most characters of a path a warning names whole; a longer one keeps its two ends around
/// `…` (a 4,200-character path made every overview need 1,300 tokens for its warning).
const MAX_WARNED_PATH_CHARS: usize = 240;

/// A path as a warning names it: whole, or its ends ([`MAX_WARNED_PATH_CHARS`]).
fn shortened(path: &[u8]) -> String {
    let shown = paths::display(path);
    let n = shown.chars().count();
    if n <= MAX_WARNED_PATH_CHARS {
        return shown;
    }
    let half = MAX_WARNED_PATH_CHARS / 2;
    let head: String = shown.chars().take(half).collect();
    let tail: String = shown.chars().skip(n - (half - 1)).collect();
    format!("{head}…{tail}")
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
            removed: vec![],
            recent_commits: vec![],
            caveats,
            observed_at: "t".into(),
            created_at: "t".into(),
            index_stat: None,
            file_count: Some(1),
            rules_digest: Some("r".into()),
            secret_content: true,
            faults: vec![],
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
            attributes: None,
        }
    }

    #[test]
    fn an_identical_clean_basis_is_current() {
        let a = assess(&snapshot(vec![]), &[], &basis(), vec![], &[]);
        assert_eq!(a.freshness, Freshness::Current);
        assert_eq!(a.reasons, ["indexed state equals the clean working tree"]);
        assert!(a.warnings.is_empty());
    }

    #[test]
    fn other_analysis_rules_need_a_refresh() {
        let a = assess(
            &snapshot(vec![]),
            &[],
            &basis(),
            vec![],
            &["analysis configuration changed"],
        );
        assert_eq!(a.freshness, Freshness::RefreshNeeded);
        assert_eq!(a.reasons, ["analysis configuration changed"]);
    }

    #[test]
    fn a_moved_head_or_a_changed_dirty_file_needs_a_refresh() {
        let mut b = basis();
        b.head = Some("h2".into());
        let a = assess(&snapshot(vec![]), &[], &b, vec![], &[]);
        assert_eq!(a.freshness, Freshness::RefreshNeeded);
        assert_eq!(a.reasons, ["HEAD moved"]);
        assert_eq!(a.warnings[0].code, WarningCode::RefreshNeeded);

        let a = assess(&snapshot(vec![]), &[], &basis(), vec![b"x".to_vec()], &[]);
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
        let a = assess(&snapshot(vec![]), &[], &b, vec![], &[]);
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
            &[],
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
        let (c, w) = refresh_caveats(None, &[flagged], 2, &[]);
        assert_eq!(c, [Caveat::AssumeUnchanged, Caveat::ChangedDuringScan]);
        assert_eq!(w[0].code, WarningCode::ChangedDuringScan);
        assert_eq!(w[0].count, Some(2));
        assert_eq!(w.len(), 2);
        let (c, w) = refresh_caveats(Some(&c), &[], 0, &[]);
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

    fn fault(path: &[u8], kind: FaultKind) -> Fault {
        Fault {
            path: path.to_vec(),
            kind,
        }
    }

    /// A warning names a long path by its two ends, a short one whole.
    #[test]
    fn a_warning_shortens_a_long_path() {
        let long = format!("{}/{}.rs", "d".repeat(300), "f".repeat(300));
        let shown = shortened(long.as_bytes());
        assert_eq!(shown.chars().count(), MAX_WARNED_PATH_CHARS);
        assert!(shown.starts_with("ddd") && shown.ends_with("ff.rs") && shown.contains('…'));
        assert_eq!(shortened(b"src/lib.rs"), "src/lib.rs");
    }

    #[test]
    fn faults_make_a_snapshot_possibly_stale_with_a_counted_warning() {
        let faults: Vec<Fault> = (0..7)
            .map(|i| fault(format!("f{i}").as_bytes(), FaultKind::Unreadable))
            .collect();
        let (c, w) = refresh_caveats(None, &[], 0, &faults);
        assert_eq!(c, [Caveat::FileFaults]);
        assert_eq!((w[0].code, w[0].count), (WarningCode::FileFaults, Some(7)));
        let detail = w[0].detail.as_deref().unwrap();
        assert!(
            detail.contains("f0 (unreadable)") && detail.ends_with("2 more"),
            "{detail}"
        );
        // The next scan re-decides them: none left, no caveat.
        let (c, w) = refresh_caveats(Some(&c), &[], 0, &[]);
        assert!(c.is_empty() && w.is_empty());
        let mut snap = snapshot(vec![Caveat::FileFaults]);
        snap.faults = faults[..1].to_vec();
        let a = assess(&snap, &[], &basis(), vec![], &[]);
        assert_eq!(a.freshness, Freshness::PossiblyStale);
        assert_eq!(a.warnings[0].count, Some(1));
    }

    #[test]
    fn a_fault_asks_for_a_refresh_only_when_a_refresh_can_settle_it() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(root.join("back.txt"), "readable again\n").unwrap();
        std::fs::write(root.join("slow.rs"), "fn f() {}\n").unwrap();
        let long = "x".repeat(300);
        let mut slow = crate::model::sample_file("slow.rs", "d");
        slow.working_state = WorkingState::Unstaged;
        slow.stat = scan::stat_of(root, b"slow.rs");
        let faults = [
            fault(b"back.txt", FaultKind::Unreadable),
            fault(b"gone.txt", FaultKind::Vanished),
            // Still unreadable: ENAMETOOLONG, whoever runs the test.
            fault(long.as_bytes(), FaultKind::Unreadable),
            fault(b"slow.rs", FaultKind::TimedOut),
        ];
        let changed = changed_dirty_paths(root, std::slice::from_ref(&slow), &faults);
        assert_eq!(changed, [b"back.txt".to_vec(), b"gone.txt".to_vec()]);
        // A timed-out file whose content changed since is worth a refresh.
        std::fs::write(root.join("slow.rs"), "fn g() {}\n").unwrap();
        let changed = changed_dirty_paths(root, std::slice::from_ref(&slow), &faults[3..]);
        assert_eq!(changed, [b"slow.rs".to_vec()]);
        // An unreadable dirty path that is not a fault yet cannot be vouched for.
        let mut dirty = crate::model::sample_file(&long, "d");
        dirty.working_state = WorkingState::Unstaged;
        assert_eq!(
            changed_dirty_paths(root, &[dirty], &[]),
            [long.into_bytes()]
        );
    }
}
