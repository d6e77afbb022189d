//! The `delta` view: operations between an earlier retained snapshot and the current one.

use std::collections::{BTreeMap, HashMap, HashSet};

use crate::api::views::*;
use crate::api::SnapshotId;
use crate::api::{Cue, CueRequest, DeltaItem, DeltaOp, More, View};
use crate::cue::envelope::envelope;
use crate::cue::fit::{fit, round_up, Item, Section};
use crate::delta::{self, RepoFacts};
use crate::error::{Error, Result};
use crate::model::{FileClass, FileState};
use crate::paths;
use crate::read::Reader;
use crate::store::SnapshotRow;

/// Builds the delta cue.
pub(crate) fn build(state: &Reader, request: &CueRequest) -> Result<Cue> {
    let current = &state.snapshot;
    let since = match &request.since {
        Some(s) => s.parse::<SnapshotId>().ok().map(|i| i.0).ok_or_else(|| {
            Error::InvalidArgument(format!(
                "--since must be a snapshot id like snapshot-000001 or a commit, got {s:?}"
            ))
        })?,
        None => current.parent.ok_or_else(|| {
            Error::InvalidArgument(
                "the current snapshot has no parent; pass --since SNAPSHOT".into(),
            )
        })?,
    };
    let from = state
        .store
        .snapshot(since)?
        .ok_or_else(|| Error::NotFound {
            kind: "snapshot",
            id: SnapshotId(since).to_string(),
        })?;
    let (old_files, new_files) = changed_rows(state, &from)?;
    let base = Base {
        from: SnapshotId(from.seq).to_string(),
        branch: from.branch.clone(),
        head: from.head.clone(),
        dirty: from.dirty,
        untracked: from.untracked.clone(),
        old_files,
        new_files,
        facts: HashMap::new(),
    };
    compose(state, request, base)
}

/// An entry of a commit's tree (`git ls-tree -r`): its mode, object id and path.
pub(crate) struct TreeEntry {
    pub mode: u32,
    pub oid: String,
    pub path: Vec<u8>,
}

/// The entries of a commit's `tree` whose path the current snapshot does not hold as it was
/// then: another object or mode, a work-tree change, or no row at all. Their contents are what
/// [`build_since_commit`] needs.
pub(crate) fn differing<'t>(state: &Reader, tree: &'t [TreeEntry]) -> Result<Vec<&'t TreeEntry>> {
    let current: HashMap<&[u8], &FileState> = state
        .all_files()?
        .iter()
        .map(|f| (f.path.as_slice(), f))
        .collect();
    Ok(tree
        .iter()
        .filter(|e| {
            current
                .get(e.path.as_slice())
                .is_none_or(|f| !same_as_committed(f, e))
        })
        .collect())
}

/// Whether a current row is the committed entry, unchanged.
fn same_as_committed(f: &FileState, e: &TreeEntry) -> bool {
    f.index_oid == e.oid
        && f.index_mode == e.mode
        && f.working_state == crate::model::WorkingState::Clean
}

/// The delta cue since a commit no retained snapshot saw (`--since main` on a branch): its
/// `tree` against the current snapshot, the old contents of the entries that differ
/// (`contents`, by object id) hashed, classified and analysed here as a scan would (their facts
/// are the store's when it has them), never stored.
pub(crate) fn build_since_commit(
    state: &Reader,
    request: &CueRequest,
    commit: &str,
    tree: &[TreeEntry],
    contents: &HashMap<String, Vec<u8>>,
) -> Result<Cue> {
    use sha2::{Digest, Sha256};
    let in_tree: HashMap<&[u8], &TreeEntry> = tree.iter().map(|e| (e.path.as_slice(), e)).collect();
    let new_files: Vec<FileState> = state
        .all_files()?
        .iter()
        .filter(|f| {
            in_tree
                .get(f.path.as_slice())
                .is_none_or(|e| !same_as_committed(f, e))
        })
        .cloned()
        .collect();
    let mut old_files = Vec::new();
    let mut wanted: Vec<(String, Vec<u8>, Option<String>)> = Vec::new();
    for e in differing(state, tree)? {
        let mut f = FileState {
            path: e.path.clone(),
            index_mode: e.mode,
            index_oid: e.oid.clone(),
            worktree_mode: Some(e.mode),
            size: None,
            digest: None,
            file_type: crate::model::FileType::Gitlink,
            language: None,
            is_document: false,
            working_state: crate::model::WorkingState::Clean,
            assume_unchanged: false,
            skip_worktree: false,
            class: crate::classify::path_class(&e.path, &state.rules, Default::default()),
            stat: None,
        };
        if let Some(bytes) = contents.get(&e.oid).filter(|_| e.mode != 0o160000) {
            let head = &bytes[..bytes.len().min(8192)];
            f.size = Some(bytes.len() as u64);
            f.digest = Some(crate::digest::hex(&Sha256::digest(bytes)));
            f.file_type = match e.mode {
                0o120000 => crate::model::FileType::Symlink,
                _ if head.contains(&0) => crate::model::FileType::Binary,
                _ => crate::model::FileType::Text,
            };
            if f.file_type == crate::model::FileType::Text {
                f.language = crate::classify::language(&e.path, head).map(str::to_owned);
            }
            f.is_document = f.file_type == crate::model::FileType::Text
                && crate::classify::is_document(&e.path, f.language.as_deref());
            // A private key or token in the old content makes it a secret, as a scan would.
            if state.rules.secret_content && crate::classify::has_secret_content(head) {
                f.class = FileClass::Secret;
            }
            if f.class.analysed() && f.file_type == crate::model::FileType::Text {
                wanted.push((
                    f.digest.clone().unwrap_or_default(),
                    e.path.clone(),
                    f.language.clone(),
                ));
            }
        }
        old_files.push(f);
    }
    crate::read::label_cpp_headers(&mut old_files);
    // The old contents' facts: the store's, else analysed now (a parse that times out or
    // fails leaves the file without symbols, as a scan's would).
    let digests: Vec<&str> = wanted.iter().map(|(d, _, _)| d.as_str()).collect();
    let mut facts = state.store.facts(&digests)?;
    if crate::analyze::enabled() {
        let by_digest: HashMap<&str, &[u8]> = tree
            .iter()
            .filter_map(|e| Some((e.oid.as_str(), contents.get(&e.oid)?.as_slice())))
            .collect();
        for f in &old_files {
            let Some(d) = f.digest.as_deref().filter(|d| !facts.contains_key(*d)) else {
                continue;
            };
            if !wanted.iter().any(|(w, _, _)| w == d) {
                continue;
            }
            let Some(bytes) = by_digest.get(f.index_oid.as_str()) else {
                continue;
            };
            if let Ok(Some(a)) = crate::analyze::analyze(&f.path, f.language.as_deref(), bytes) {
                facts.insert(d.to_owned(), a);
            }
        }
    }
    let abbreviated: String = commit.chars().take(10).collect();
    // A commit is on no branch: the current one is no change.
    let base = Base {
        from: format!("commit {abbreviated}"),
        branch: state.snapshot.branch.clone(),
        head: Some(commit.to_owned()),
        dirty: false,
        untracked: Vec::new(),
        old_files,
        new_files,
        facts,
    };
    compose(state, request, base)
}

/// What a delta compares the current snapshot with: an earlier snapshot's rows, or a commit's
/// tree ([`build_since_commit`]), with the rows of the current snapshot to compare them to,
/// and facts of old contents no snapshot stored.
struct Base {
    /// `snapshot-000001`, or `commit 5673792aa1`: the delta's `from`, and its follow-up's
    /// `since` (a commit's full id there).
    from: String,
    branch: Option<String>,
    head: Option<String>,
    dirty: bool,
    untracked: Vec<Vec<u8>>,
    old_files: Vec<FileState>,
    new_files: Vec<FileState>,
    facts: HashMap<String, crate::analyze::Analysis>,
}

/// Leaves out the addition or removal of a namespace that many files open (a Ruby gem's
/// `module Sidekiq`, a class reopened in each file of the gem, a C++ or PHP `namespace`, a
/// C# `partial class` written in parts) when
/// a file that the change left alone defines it now: it neither came nor went. Deleting one of
/// sidekiq's files said `removed Sidekiq`, adding one `added module Sidekiq`. Asked of the
/// search index, which describes the current snapshot only (for an older one, nothing is left
/// out).
fn drop_reopened(
    state: &Reader,
    ops: &mut Vec<DeltaItem>,
    changed: &HashSet<Vec<u8>>,
) -> Result<()> {
    let container = |o: &DeltaItem| -> Option<String> {
        if !matches!(o.op, DeltaOp::SymbolAdded | DeltaOp::SymbolRemoved) {
            return None;
        }
        let side = o.after.as_ref().or(o.before.as_ref())?;
        let kind = side.get("kind")?.as_str()?;
        let (path, name) = delta::split_entity(&o.entity);
        let ruby = path.ends_with(".rb");
        // A C# `partial class` is written in parts, a file each (Dapper's `SqlMapper`).
        let partial = side
            .get("signature")
            .and_then(|s| s.as_str())
            .is_some_and(|s| s.split_whitespace().any(|w| w == "partial"));
        let opened = matches!(kind, "module" | "namespace") || (ruby && kind == "class") || partial;
        (opened && !name.contains('.') && !name.contains('#')).then(|| name.to_owned())
    };
    let mut names: Vec<String> = ops.iter().filter_map(container).collect();
    names.sort();
    names.dedup();
    // The paths whose addition or removal of each name this change made.
    let mut came_or_went: HashSet<(Vec<u8>, String)> = HashSet::new();
    for o in ops.iter() {
        if let Some(name) = container(o) {
            let (path, _) = delta::split_entity(&o.entity);
            came_or_went.insert((path.as_bytes().to_vec(), name));
        }
    }
    let mut reopened: HashSet<String> = HashSet::new();
    for name in names {
        let Some(defining) = state
            .store
            .defining_paths(&state.snapshot, std::slice::from_ref(&name))?
        else {
            return Ok(());
        };
        // A file that defines it now, and did before: one the change left alone, or one it
        // changed without adding it (tinyxml2's `tinyxml2.h`, edited in the same change
        // that added `xmlstats.cpp` and its `namespace tinyxml2`).
        let before_and_now = |p: &Vec<u8>| {
            !changed.contains(p) || !came_or_went.contains(&(p.clone(), name.clone()))
        };
        if defining.iter().any(before_and_now) {
            reopened.insert(name);
        }
    }
    ops.retain(|o| container(o).is_none_or(|name| !reopened.contains(&name)));
    Ok(())
}

/// The delta cue of the current snapshot since `base`.
fn compose(state: &Reader, request: &CueRequest, base: Base) -> Result<Cue> {
    let current = &state.snapshot;
    let Base {
        from,
        branch,
        head,
        dirty,
        untracked,
        old_files,
        new_files,
        facts: old_facts,
    } = base;
    let shown = Shown::of(state, old_files, new_files, &untracked)?;
    let (mut ops, changed) = delta::compute(
        &shown.old_files,
        &shown.new_files,
        &RepoFacts {
            branch: branch.as_deref(),
            head: head.as_deref(),
            dirty,
            untracked: &shown.old_untracked,
        },
        &RepoFacts {
            branch: current.branch.as_deref(),
            head: current.head.as_deref(),
            dirty: current.dirty,
            untracked: &shown.new_untracked,
        },
    );
    let wanted = delta::digests_for(&shown.old_files, &shown.new_files, &changed);
    let refs: Vec<&str> = wanted
        .iter()
        .map(String::as_str)
        .filter(|d| !old_facts.contains_key(*d))
        .collect();
    let facts = state.store.facts(&refs)?;
    ops.extend(delta::structural_between(
        &shown.old_files,
        &shown.new_files,
        &changed,
        |d| facts.get(d).or_else(|| old_facts.get(d)),
    ));
    drop_reopened(state, &mut ops, &changed)?;
    ops.sort_by_key(|o| o.op.rank());
    let (repository, mut paths) = delta::compact(&ops);
    // A deletion staged but not committed says so, as a staged edit does (a `git rm` or
    // `git mv` read like a committed change).
    for p in &mut paths {
        if p.op == Some(DeltaOp::FileDeleted)
            && p.state.is_none()
            && current.removed.iter().any(|r| paths::display(r) == p.path)
        {
            p.state = Some("staged".to_owned());
        }
    }
    let since = from.strip_prefix("commit ").map(str::to_owned);
    let content = DeltaContent {
        from: from.clone(),
        to: SnapshotId(current.seq).to_string(),
        totals: DeltaTotals {
            paths: paths.len() as u64,
            changes: paths.iter().map(|p| p.changes.len() as u64).sum(),
            secret_paths: shown.secret_changes,
        },
        repository: vec![],
        directories: vec![],
        paths: vec![],
        operations: vec![],
    };
    let env = envelope(state, request, content);
    let full_ops = if request.provenance { ops } else { vec![] };
    // What a complete answer would need, for the follow-up request.
    let full = [
        serde_json::to_string(&(&repository, &paths)),
        serde_json::to_string(&full_ops),
    ]
    .iter()
    .map(|s| s.as_ref().map_or(0, |s| s.len() as u64 / 4))
    .sum::<u64>();
    let more = More {
        since: Some(since.unwrap_or(from)),
        ..More::of(View::Delta, round_up(full + request.max_tokens))
    };
    // The symbol changes in order of importance only: a changed signature that does not fit
    // is not passed over for a smaller added method (jsoup's `Jsoup.parse` at 300 tokens).
    let sections: Vec<Section> = SECTIONS
        .iter()
        .map(|n| match *n {
            "changes" => Section::new(n, Some(more.clone())).in_order(),
            _ => Section::new(n, Some(more.clone())),
        })
        .collect();
    // The summary by directory stands for the paths a budget cannot list: where every path
    // fits (their JSON entries, longer than their text lines, within the budget beside the
    // envelope), it would say them twice, with the tokens their symbol changes needed
    // (commons-cli's 300-token delta of seven paths showed none of its fifteen).
    let listed: u64 = paths
        .iter()
        .map(|p| {
            let bare = PathChange {
                changes: vec![],
                ..p.clone()
            };
            serde_json::to_string(&bare).map_or(0, |s| s.len() as u64 + 1)
        })
        .sum();
    let roll_up = listed / 4 + ENVELOPE_TOKENS > request.max_tokens;
    fit(env, &sections, items(repository, paths, full_ops, roll_up))
}

/// Estimated tokens a delta's envelope and totals take (`roll_up` in [`build`]).
const ENVELOPE_TOKENS: u64 = 80;

/// The two snapshots' rows to compare: only the paths that changed between them when that is
/// known without reading every row (the earlier snapshot is of the current epoch and no path
/// was added since: the rows that ended after it name every changed or deleted path), else
/// every row of both. Paths whose rows are the same on both sides make no operation, so the
/// delta is the same either way; on a 27,000-file repository a one-file delta no longer reads
/// 54,000 rows.
fn changed_rows(state: &Reader, from: &SnapshotRow) -> Result<(Vec<FileState>, Vec<FileState>)> {
    let current = &state.snapshot;
    if from.epoch == current.epoch && from.seq < current.seq {
        let old = state.store.changed_since(current, from.seq)?;
        let paths: Vec<&[u8]> = old.iter().map(|f| f.path.as_slice()).collect();
        let new = state.store.files_by_paths(current, &paths)?;
        let deleted = (old.len() - new.len()) as u64;
        let then = state.store.file_count_at(from)?;
        // Every path now is one of then's, less the deleted: none was added.
        if state.store.file_count_at(current)? + deleted == then {
            return Ok((old, new));
        }
    }
    // Both sides as readers see them: the current rows come with a C++ project's headers
    // labelled C++ ([`crate::read::label_cpp_headers`]), so the old ones must be too, or every
    // header of fmt read as a language change once a commit added a file.
    let mut old = state.store.files_at(from)?;
    crate::read::label_cpp_headers(&mut old);
    Ok((old, state.all_files()?.to_vec()))
}

/// What the delta may name: both snapshots' rows and untracked paths without secrets. A path
/// that is a secret on either side is left out of both (so a file that became a secret does
/// not show up as deleted), and counted when it changed.
struct Shown {
    old_files: Vec<FileState>,
    new_files: Vec<FileState>,
    old_untracked: Vec<Vec<u8>>,
    new_untracked: Vec<Vec<u8>>,
    secret_changes: u64,
}

impl Shown {
    fn of(
        state: &Reader,
        old_files: Vec<FileState>,
        new_files: Vec<FileState>,
        old_untracked: &[Vec<u8>],
    ) -> Result<Shown> {
        let secret: HashSet<Vec<u8>> = old_files
            .iter()
            .chain(&new_files)
            .filter(|f| f.class == FileClass::Secret)
            .map(|f| f.path.clone())
            .collect();
        let (old_secret, old_files): (Vec<FileState>, Vec<FileState>) = old_files
            .into_iter()
            .partition(|f| secret.contains(f.path.as_slice()));
        let new_secret: Vec<&FileState> = new_files
            .iter()
            .filter(|f| secret.contains(f.path.as_slice()))
            .collect();
        let old_by_path: BTreeMap<&[u8], &FileState> =
            old_secret.iter().map(|f| (f.path.as_slice(), f)).collect();
        let mut secret_changes = new_secret
            .iter()
            .filter(|n| {
                old_by_path
                    .get(n.path.as_slice())
                    .is_none_or(|o| !o.same_state(n))
            })
            .count() as u64;
        let new_paths: HashSet<&[u8]> = new_secret.iter().map(|f| f.path.as_slice()).collect();
        secret_changes += old_secret
            .iter()
            .filter(|o| !new_paths.contains(o.path.as_slice()))
            .count() as u64;
        let untracked = |list: &[Vec<u8>]| -> Vec<Vec<u8>> {
            list.iter()
                .filter(|p| !state.secret_untracked(p))
                .cloned()
                .collect()
        };
        let old_untracked_shown = untracked(old_untracked);
        let new_untracked_shown = untracked(&state.snapshot.untracked);
        let hidden = |list: &[Vec<u8>]| -> HashSet<Vec<u8>> {
            list.iter()
                .filter(|p| state.secret_untracked(p))
                .cloned()
                .collect()
        };
        secret_changes += hidden(old_untracked)
            .symmetric_difference(&hidden(&state.snapshot.untracked))
            .count() as u64;
        Ok(Shown {
            old_files,
            new_files: new_files
                .into_iter()
                .filter(|f| !secret.contains(f.path.as_slice()))
                .collect(),
            old_untracked: old_untracked_shown,
            new_untracked: new_untracked_shown,
            secret_changes,
        })
    }
}

/// Sections of the delta view, in the order of [`items`]' section indices.
const SECTIONS: [&str; 5] = [
    "repository",
    "directories",
    "paths",
    "changes",
    "operations",
];

/// Deltas touching more paths than this start with changed paths per directory.
const SMALL_DELTA_PATHS: usize = 5;

/// Ranks the delta's items: repository changes, the directory summary of a large delta (with
/// `roll_up`: when its paths do not all fit), every
/// path (what happened to it), then the symbol and import operations nested under the paths,
/// then the full operations. A small delta shows everything; a large one every path it can
/// before any detail.
fn items(
    repository: Vec<RepoChange>,
    paths: Vec<PathChange>,
    full_ops: Vec<DeltaItem>,
    roll_up: bool,
) -> Vec<Item<DeltaContent>> {
    let mut items: Vec<Item<DeltaContent>> = Vec::new();
    // A moved HEAD is also told by the envelope's `repository.head`: when the budget is short,
    // the files' symbol changes come first (imports and implied detail after it).
    for r in repository {
        items.push(Item::new(
            0,
            change_rank(REPOSITORY_WEIGHT, 0),
            move |c: &mut DeltaContent| c.repository.push(r.clone()),
        ));
    }
    if roll_up && paths.len() > SMALL_DELTA_PATHS {
        for (i, d) in directories(&paths).into_iter().enumerate() {
            items.push(Item::new(
                1,
                3_000_000 - i as i64,
                move |c: &mut DeltaContent| c.directories.push(d.clone()),
            ));
        }
    }
    let mut changes: Vec<(String, SymbolChange, i64)> = Vec::new();
    for (i, mut p) in paths.into_iter().enumerate() {
        let deleted = p.op == Some(DeltaOp::FileDeleted);
        let taken = std::mem::take(&mut p.changes);
        let added = |ch: &&SymbolChange| ch.op == DeltaOp::SymbolAdded;
        // The names that added symbols are members of, and removed ones.
        let parents_of = |op: DeltaOp| -> Vec<&str> {
            taken
                .iter()
                .filter(|ch| ch.op == op)
                .filter_map(|ch| Some(ch.name.rsplit_once('.')?.0))
                .collect()
        };
        let parents = parents_of(DeltaOp::SymbolAdded);
        let removed_parents = parents_of(DeltaOp::SymbolRemoved);
        let weights: Vec<i64> = taken
            .iter()
            .map(|ch| {
                let is_added = ch.op == DeltaOp::SymbolAdded;
                let name = ch.name.as_str();
                let parent = name.rsplit_once('.').map(|(p, _)| p);
                // A member of a type added in the same change is detail of that addition; a
                // namespace added with its members (a new file's `module Sinatra` around its
                // class) is named by their qualified names, and is detail of them; so is a
                // namespace statement added with the definitions that follow it (a new C#
                // file's `namespace Serilog.Core;`). So is a namespace removed with its
                // members (a deleted header's `namespace spdlog` led its `removed` lines).
                let of_added_type = is_added
                    && taken
                        .iter()
                        .filter(added)
                        .any(|t| !t.namespace && Some(t.name.as_str()) == parent);
                let holds_added = is_added
                    && ch.namespace
                    && (parents.contains(&name)
                        || ch.statement && taken.iter().filter(added).any(|t| !t.namespace));
                let holds_removed = ch.op == DeltaOp::SymbolRemoved
                    && ch.namespace
                    && removed_parents.contains(&name);
                if holds_removed && deleted {
                    // After the file's other lines, which weigh nothing beside its deletion.
                    -1
                } else if holds_added || holds_removed {
                    NAMESPACE_OF_ADDED_WEIGHT
                } else if of_added_type {
                    MEMBER_OF_ADDED_WEIGHT
                } else {
                    change_weight(ch.op, deleted)
                }
            })
            .collect();
        changes.extend(taken.into_iter().zip(weights).map(|(mut ch, weight)| {
            if ch
                .signature
                .as_deref()
                .is_some_and(|s| name_implied(&p.path, &ch.name, s))
            {
                ch.name.clear();
            }
            if let (Some(new), Some(old)) = (ch.signature.as_deref(), ch.before.as_mut()) {
                *old = shared_start_elided(new, old);
            }
            (p.path.clone(), ch, weight)
        }));
        items.push(Item::new(
            2,
            2_000_000 - i as i64,
            move |c: &mut DeltaContent| c.paths.push(p.clone()),
        ));
    }
    for (i, (path, ch, weight)) in changes.into_iter().enumerate() {
        items.push(Item::when(
            3,
            change_rank(weight, i),
            move |c: &mut DeltaContent| {
                // Detail goes under its path's entry, which ranks above it: a change whose path
                // was left out is left out too (it brought a bare entry with no operation, a
                // path's detail without what happened to the path).
                let Some(at) = c.paths.iter().position(|p| p.path == path) else {
                    return false;
                };
                c.paths[at].changes.push(ch.clone());
                true
            },
        ));
    }
    let n = full_ops.len() as i64;
    for (i, op) in full_ops.into_iter().enumerate() {
        items.push(Item::push(4, n - i as i64, op, |c: &mut DeltaContent| {
            &mut c.operations
        }));
    }
    items
}

/// The rank of a symbol or import operation of `weight` (see [`change_weight`]), `i`-th in
/// path order.
fn change_rank(weight: i64, i: usize) -> i64 {
    1_000_000 + weight * 10_000 - i as i64
}

/// Where a repository change (HEAD moved, branch switched) ranks among the operations: after
/// added, removed and moved symbols, before imports.
const REPOSITORY_WEIGHT: i64 = 2;

/// Where a member added with its type ranks: with the moves, after the additions its type's
/// line is one of, before the `repository` changes. It is what the commit added (serilog's
/// `QualityAlphaHost.QualityProbeAlpha`, a C# function in the static class it needs), where the
/// old HEAD adds little to the envelope's new one.
const MEMBER_OF_ADDED_WEIGHT: i64 = 3;

/// Where a namespace added or removed with what it names ranks (a Ruby `module` around a new
/// file's class, a C# `namespace X;` statement, a deleted C++ header's `namespace spdlog`):
/// with the imports, since its members' names say it.
const NAMESPACE_OF_ADDED_WEIGHT: i64 = 2;

/// The old declaration of a changed signature without the start it shares with the new one:
/// `…bool destructureObjects = false)` for serilog's `PushProperty(string name, object? value,
/// bool destructureObjects = false)` that gained a parameter. The shared start is cut after
/// its last `(`, `<` or `, `, so what is left begins with a whole parameter, and read after
/// the new declaration up to where that parameter starts it is the old one. Left whole when
/// that saves less than a dozen bytes.
fn shared_start_elided(new: &str, old: &str) -> String {
    let shared = new
        .char_indices()
        .zip(old.chars())
        .find(|((_, a), b)| a != b)
        .map_or(new.len().min(old.len()), |((i, _), _)| i);
    let start = &old[..shared];
    let cut = [("(", 1), ("<", 1), (", ", 2)]
        .iter()
        .filter_map(|(sep, len)| start.rfind(sep).map(|i| i + len))
        .max()
        .unwrap_or(0);
    if new == old {
        // The whole signatures differ only where a long one's cut left text out.
        return "… (a part not shown changed)".to_owned();
    }
    // Where no parameter begins at the cut (the old list was empty: chi's `NewRouter()` read
    // `…) *Mux`), nothing read after the new declaration's start makes the old one.
    if cut < 12 + "…".len() || old[cut..].starts_with([')', '>']) {
        return old.to_owned();
    }
    // Past a long signature's own cut, its `… ` is not repeated.
    let rest = &old[cut..];
    let rest = rest.strip_prefix("… ").unwrap_or(rest);
    format!("…{}", shared_end_elided(new, rest))
}

/// `rest` (an old declaration from a parameter on) without the end it shares with the new
/// declaration, from the first parameter after what differs: `debug=False, …` for a long
/// `__init__` whose one default changed (starlette's repeated the whole signature). Left
/// whole when that saves less than a dozen bytes or no parameter of the list begins there.
fn shared_end_elided(new: &str, rest: &str) -> String {
    let common: usize = new
        .chars()
        .rev()
        .zip(rest.chars().rev())
        .take_while(|(a, b)| a == b)
        .map(|(_, b)| b.len_utf8())
        .sum();
    let from = rest.len() - common;
    // The first `, ` of the list itself (not one inside a parameter's brackets) at or after
    // where the shared end starts.
    let mut depth = 0usize;
    let mut boundary = None;
    for (i, c) in rest.char_indices() {
        match c {
            '(' | '[' | '{' | '<' => depth += 1,
            ')' | ']' | '}' | '>' => {
                if depth == 0 {
                    break;
                }
                depth -= 1;
            }
            ',' if depth == 0 && i >= from && rest[i..].starts_with(", ") => {
                boundary = Some(i);
                break;
            }
            _ => {}
        }
    }
    match boundary {
        Some(i) if rest.len() - i >= 12 + ", …".len() => format!("{}, …", &rest[..i]),
        _ => rest.to_owned(),
    }
}

/// How much an agent needs a symbol or import operation when the budget cannot hold them all:
/// a changed signature (callers break) before added and removed symbols, before moves, before
/// imports; what a deleted file's removal already implies comes last.
fn change_weight(op: DeltaOp, in_deleted_file: bool) -> i64 {
    if in_deleted_file {
        return 0;
    }
    match op {
        DeltaOp::SymbolSignatureChanged => 5,
        DeltaOp::SymbolAdded | DeltaOp::SymbolRemoved => 4,
        DeltaOp::SymbolMoved => 3,
        DeltaOp::ImportAdded | DeltaOp::ImportRemoved => 2,
        _ => 1,
    }
}

/// Whether a delta may leave a symbol's `name` out: its signature and its path say it. The
/// signature names a top-level symbol (`def parse(text)`); or it names the last part and the
/// rest are the last parts of the path, the file's name without extensions last (`_`, `-` and
/// case aside): `BooleanUtils.toBoolean` in `…/lang3/BooleanUtils.java`, `Sinatra.QualityProbe`
/// in `lib/sinatra/quality_probe.rb`, `Serilog.Core.Logger.Write` in
/// `src/Serilog/Core/Logger.cs`. A member of any other type keeps its name: `Sinatra.Helpers.uri`
/// in `lib/sinatra/base.rb`, an inner class's method. The path says it only in the languages
/// whose files are named for the type they hold ([`TYPE_PER_FILE`]): a Go interface's new
/// method read `added Name() string` in chi's `finder.go`, whose owner no convention names.
fn name_implied(path: &str, name: &str, signature: &str) -> bool {
    // A Rust `impl` block is named by its header (bat's delta read `added impl
    // crate::controller::RunStats: impl crate::controller::RunStats`).
    if signature_names(signature, name) || signature == name {
        return true;
    }
    let Some((qualifiers, last)) = name.rsplit_once('.') else {
        return false;
    };
    let extension = path.rsplit_once('.').map_or("", |(_, e)| e);
    if !TYPE_PER_FILE.contains(&extension) {
        return false;
    }
    if !signature_names(signature, last) {
        return false;
    }
    let fold = |part: &str| -> String {
        part.chars()
            .filter(|c| !matches!(c, '_' | '-'))
            .flat_map(char::to_lowercase)
            .collect()
    };
    let (dirs, file) = path.rsplit_once('/').unwrap_or(("", path));
    let stem = file.split('.').next().unwrap_or(file);
    let components = std::iter::once(stem).chain(dirs.rsplit('/'));
    // The path's last parts name every qualifier (a member of the type the file is named for),
    // or the whole name (the type the file is named for).
    let named_by_path = |parts: &str| {
        let mut components = components.clone();
        parts.rsplit('.').all(|part| {
            !part.is_empty() && components.next().is_some_and(|c| fold(c) == fold(part))
        })
    };
    named_by_path(qualifiers) || named_by_path(name)
}

/// The extensions of the languages whose source files are named for the type they hold
/// (Java's rule, and the convention of C#, PHP's PSR-4, Ruby, Kotlin, Scala and Swift).
const TYPE_PER_FILE: &[&str] = &["java", "cs", "php", "rb", "kt", "scala", "swift"];

/// Counts changed paths per directory, most first (ties by path); the root is `./` (it was an
/// empty path, a bare count in text).
fn directories(paths: &[PathChange]) -> Vec<DirectoryCount> {
    let mut by_dir: BTreeMap<&str, u64> = BTreeMap::new();
    for p in paths {
        let dir = p.path.rfind('/').map_or("./", |i| &p.path[..=i]);
        *by_dir.entry(dir).or_default() += 1;
    }
    let mut out: Vec<DirectoryCount> = by_dir
        .into_iter()
        .map(|(d, n)| DirectoryCount {
            path: d.to_owned(),
            paths: n,
        })
        .collect();
    out.sort_by(|a, b| b.paths.cmp(&a.paths).then(a.path.cmp(&b.path)));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(op: DeltaOp, name: &str) -> SymbolChange {
        SymbolChange {
            op,
            name: name.into(),
            signature: Some(format!("fn {name}()")),
            before: None,
            from: None,
            namespace: false,
            statement: false,
        }
    }

    #[test]
    fn a_changed_signature_outranks_additions_and_a_deleted_files_implied_removals() {
        let mut gone = PathChange::bare("a_gone.rs");
        gone.op = Some(DeltaOp::FileDeleted);
        gone.changes = vec![change(DeltaOp::ImportRemoved, "std::io")];
        let mut edited = PathChange::bare("b_edited.rs");
        edited.op = Some(DeltaOp::FileContentChanged);
        edited.changes = vec![
            change(DeltaOp::ImportAdded, "std::fs"),
            change(DeltaOp::SymbolAdded, "Probe"),
            SymbolChange {
                signature: Some("fn measure()".into()),
                ..change(DeltaOp::SymbolAdded, "Probe.measure")
            },
            change(DeltaOp::SymbolAdded, "helper"),
            change(DeltaOp::SymbolSignatureChanged, "run"),
        ];
        let ranked = items(vec![], vec![gone, edited], vec![], true);
        let mut changes: Vec<(i64, String)> = ranked
            .iter()
            .filter(|i| i.section == 3)
            .map(|i| {
                let mut c = DeltaContent {
                    from: String::new(),
                    to: String::new(),
                    totals: DeltaTotals {
                        paths: 0,
                        changes: 0,
                        secret_paths: 0,
                    },
                    repository: vec![],
                    directories: vec![],
                    paths: vec![
                        PathChange::bare("a_gone.rs"),
                        PathChange::bare("b_edited.rs"),
                    ],
                    operations: vec![],
                };
                assert!((i.add)(&mut c), "a change goes under its path's entry");
                let p = c.paths.iter().find(|p| !p.changes.is_empty());
                let ch = &p.expect("the change's path").changes[0];
                // A name the signature holds is left out; a member's qualified name, and a name
                // of more than one word (`std::fs`), are kept.
                let shown = format!("{}|{}", ch.name, ch.signature.as_deref().unwrap_or(""));
                (i.rank, shown)
            })
            .collect();
        changes.sort_by_key(|c| std::cmp::Reverse(c.0));
        let order: Vec<&str> = changes.iter().map(|(_, n)| n.as_str()).collect();
        assert_eq!(
            order,
            [
                "|fn run()",
                "|fn Probe()",
                "|fn helper()",
                // Members added with their type rank before the imports; a deleted file's
                // removals last.
                "Probe.measure|fn measure()",
                "std::fs|fn std::fs()",
                "std::io|fn std::io()"
            ]
        );
    }

    #[test]
    fn a_name_the_signature_and_path_say_is_left_out() {
        let implied = |path: &str, name: &str, signature: &str| name_implied(path, name, signature);
        // The signature names a top-level symbol; an `impl` block is its header.
        assert!(implied("src/lib.rs", "parse", "pub fn parse(text: &str)"));
        assert!(implied(
            "src/extra.rs",
            "impl crate::controller::RunStats",
            "impl crate::controller::RunStats"
        ));
        // The file is named for the type: its members, and the type itself with its namespaces.
        let java = "src/main/java/org/apache/commons/lang3/BooleanUtils.java";
        assert!(implied(
            java,
            "BooleanUtils.toBoolean",
            "public static boolean toBoolean(int v)"
        ));
        assert!(implied(
            "lib/sinatra/quality_probe.rb",
            "Sinatra.QualityProbe",
            "class QualityProbe"
        ));
        assert!(implied(
            "src/Serilog/Core/Logger.cs",
            "Serilog.Core.Logger.Write",
            "public void Write()"
        ));
        assert!(implied(
            "src/Polly/Policy.Async.cs",
            "Policy.ExecuteAsync",
            "public Task ExecuteAsync()"
        ));
        // Anything else keeps its name: a module the file is not named for, an inner type's
        // member, a duplicate's `#2`, a signature without the name.
        assert!(!implied(
            "lib/sinatra/base.rb",
            "Sinatra.Helpers.uri",
            "def uri(addr = nil)"
        ));
        assert!(!implied(
            "lib/sinatra/version.rb",
            "Sinatra.beta",
            "def self.beta(name)"
        ));
        assert!(!implied(java, "BooleanUtils.Inner.run", "void run()"));
        // Nor where files are not named for a type: a Go interface's method.
        assert!(!implied("finder.go", "Finder.Name", "Name() string"));
        assert!(!implied("src/finder.py", "Finder.name", "def name(self)"));
        assert!(!implied(
            java,
            "BooleanUtils.toBoolean#2",
            "public static boolean toBoolean(int v)"
        ));
        assert!(!implied(
            java,
            "BooleanUtils.toBoolean",
            "public static boolean convert(int v)"
        ));
        assert!(!implied("Probe.java", ".run", "void run()"));
    }

    /// A namespace added with what it holds (a new Ruby file's `module Sinatra` around its
    /// class) is named by its members' qualified names: the members rank as additions, the
    /// namespace as their detail. A namespace added empty is an addition of its own.
    #[test]
    fn a_namespace_added_or_removed_is_detail_of_its_members() {
        let namespace = |name: &str| SymbolChange {
            namespace: true,
            ..change(DeltaOp::SymbolAdded, name)
        };
        let mut new_file = PathChange::bare("lib/probe.rb");
        new_file.op = Some(DeltaOp::FileAdded);
        new_file.changes = vec![
            namespace("Sinatra"),
            change(DeltaOp::SymbolAdded, "Sinatra.Probe"),
            change(DeltaOp::SymbolAdded, "Sinatra.Probe.run"),
            namespace("Empty"),
        ];
        let ranked = items(vec![], vec![new_file], vec![], true);
        // The changes keep their order; the `i`-th ranks at `change_rank(weight, i)`.
        let changes: Vec<i64> = ranked
            .iter()
            .filter(|i| i.section == 3)
            .map(|i| i.rank)
            .collect();
        let weight = |name: &str| {
            let i = ["Sinatra", "Sinatra.Probe", "Sinatra.Probe.run", "Empty"]
                .iter()
                .position(|n| *n == name)
                .expect("a change of the fixture");
            (0..=5)
                .find(|&w| change_rank(w, i) == changes[i])
                .expect("a known weight")
        };
        assert_eq!(weight("Sinatra.Probe"), 4);
        assert_eq!(weight("Empty"), 4);
        assert_eq!(weight("Sinatra"), NAMESPACE_OF_ADDED_WEIGHT);
        assert_eq!(weight("Sinatra.Probe.run"), MEMBER_OF_ADDED_WEIGHT);

        // A deleted header: its namespace comes after the definitions removed in it.
        let removed_namespace = SymbolChange {
            namespace: true,
            ..change(DeltaOp::SymbolRemoved, "lib")
        };
        let mut gone = PathChange::bare("null_sink.h");
        gone.op = Some(DeltaOp::FileDeleted);
        gone.changes = vec![
            removed_namespace,
            change(DeltaOp::SymbolRemoved, "lib.null_logger_mt"),
        ];
        let ranked = items(vec![], vec![gone], vec![], true);
        let changes: Vec<i64> = ranked
            .iter()
            .filter(|i| i.section == 3)
            .map(|i| i.rank)
            .collect();
        assert!(
            changes[1] > changes[0],
            "the removed definition before its namespace: {changes:?}"
        );
        assert_eq!(change_rank(-1, 0), changes[0]);
    }

    /// A changed signature's old declaration leaves out the start it shares with the new one,
    /// cut where a parameter begins; a short shared start keeps it whole.
    #[test]
    fn an_old_signature_leaves_out_the_start_it_shares_with_the_new_one() {
        let elided = shared_start_elided;
        assert_eq!(
            elided(
                "public static IDisposable PushProperty(string name, object? value, bool d = false, bool strict = false)",
                "public static IDisposable PushProperty(string name, object? value, bool d = false)"
            ),
            "…bool d = false)"
        );
        assert_eq!(
            elided(
                "def uri(addr = nil, absolute = true, limit = nil)",
                "def uri(addr = nil, absolute = true)"
            ),
            "…absolute = true)"
        );
        // A return type that changed: only `fn f(` is shared where a parameter begins.
        assert_eq!(
            elided("fn f(x: u32) -> u64", "fn f(x: u32) -> u32"),
            "fn f(x: u32) -> u32"
        );
        assert_eq!(elided("fn f(a: Vec<u8>)", "fn f()"), "fn f()");
        // The end both share is left out from the first parameter after what differs, not
        // inside a parameter's brackets, and only where it saves a dozen bytes.
        assert_eq!(
            elided(
                "def __init__(self, debug: bool = True, routes: Sequence[BaseRoute] | None = None, middleware: Sequence[Middleware] | None = None) -> None",
                "def __init__(self, debug: bool = False, routes: Sequence[BaseRoute] | None = None, middleware: Sequence[Middleware] | None = None) -> None"
            ),
            "…debug: bool = False, …"
        );
        assert_eq!(
            elided(
                "def run(self, name: str, options: Dict[str, int], verbose: bool = True) -> Result",
                "def run(self, name: str, options: Dict[int, int], verbose: bool = True) -> Result"
            ),
            "…options: Dict[int, int], …"
        );
        assert_eq!(
            elided(
                "fn parse(&self, input: &str, strict: bool)",
                "fn parse(&self, input: &[u8], strict: bool)"
            ),
            "…input: &[u8], strict: bool)"
        );
        // An empty list is no parameter to begin with.
        assert_eq!(
            elided(
                "func NewRouter(opts ...Option) *Mux",
                "func NewRouter() *Mux"
            ),
            "func NewRouter() *Mux"
        );
        assert_eq!(
            elided(
                "public static Config<T, U> make()",
                "public static Config<> make()"
            ),
            "public static Config<> make()"
        );
        // Multi-byte characters before the cut stay whole.
        assert_eq!(
            elided(
                "fn größe_berechnen(a: u8, b: u8)",
                "fn größe_berechnen(a: u8)"
            ),
            "…a: u8)"
        );
        // Long signatures cut in their middle: the cut's own `…` is not repeated, and two that
        // read alike differ in what the cut left out.
        assert_eq!(
            elided(
                "def f(a: int, b: int, … y: int, z: int) -> int",
                "def f(a: int, b: int, … w: int, z: int) -> int"
            ),
            "…w: int, z: int) -> int"
        );
        assert_eq!(
            elided("def f(a: int, … z: int)", "def f(a: int, … z: int)"),
            "… (a part not shown changed)"
        );
    }

    /// Changed paths per directory, most first, the root named `./` (an empty path was a bare
    /// count in text).
    #[test]
    fn directories_count_changed_paths_and_name_the_root() {
        let paths: Vec<PathChange> = ["a.txt", "b.txt", "src/x.rs", "src/y.rs", "src/z.rs"]
            .into_iter()
            .map(PathChange::bare)
            .collect();
        let counted: Vec<(String, u64)> = directories(&paths)
            .into_iter()
            .map(|d| (d.path, d.paths))
            .collect();
        assert_eq!(counted, [("src/".into(), 3), ("./".into(), 2)]);
    }

    /// A namespace statement (a new C# file's `namespace Serilog.Core;`) names what follows it
    /// without qualifying it: added with definitions, it is their detail; added alone, an
    /// addition of its own.
    #[test]
    fn an_added_namespace_statement_is_detail_of_what_follows_it() {
        let statement = |name: &str| SymbolChange {
            namespace: true,
            statement: true,
            ..change(DeltaOp::SymbolAdded, name)
        };
        let file = |path: &str, changes: Vec<SymbolChange>| {
            let mut p = PathChange::bare(path);
            p.op = Some(DeltaOp::FileAdded);
            p.changes = changes;
            p
        };
        let ranked = items(
            vec![],
            vec![
                file(
                    "src/Probe.cs",
                    vec![
                        statement("Serilog.Core"),
                        change(DeltaOp::SymbolAdded, "Probe"),
                    ],
                ),
                file("src/Empty.cs", vec![statement("Serilog.Empty")]),
            ],
            vec![],
            true,
        );
        let ranks: Vec<i64> = ranked
            .iter()
            .filter(|i| i.section == 3)
            .map(|i| i.rank)
            .collect();
        assert_eq!(ranks[0], change_rank(NAMESPACE_OF_ADDED_WEIGHT, 0));
        assert_eq!(ranks[1], change_rank(4, 1));
        assert_eq!(ranks[2], change_rank(4, 2));
    }
}
