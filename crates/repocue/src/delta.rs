//! Computing deltas: the operations that turn one indexed state into another.
//!
//! Operation names are public contract. One path gets exactly one operation per delta; when
//! content and metadata change together the operation is `file.content_changed` and its
//! before/after values still carry every changed metadata field.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use serde_json::{json, Map, Value};

use crate::analyze::structure::SymbolFact;
use crate::api::views::{PathChange, RepoChange, SymbolChange};
use crate::api::{DeltaItem, DeltaOp, EntityId};
use crate::model::{mode_str, FileState};
use crate::paths;

/// The repository-level facts compared between two snapshots.
#[derive(Debug, Clone, PartialEq)]
pub struct RepoFacts<'a> {
    /// Branch, `None` when detached.
    pub branch: Option<&'a str>,
    /// HEAD commit.
    pub head: Option<&'a str>,
    /// Dirty flag.
    pub dirty: bool,
    /// Untracked paths, sorted.
    pub untracked: &'a [Vec<u8>],
}

/// Computes the delta between two file sets (both sorted by path) and repository facts.
///
/// Returns the items (repository operations first, then files by path) and the set of paths
/// whose indexed state changed.
pub fn compute(
    old: &[FileState],
    new: &[FileState],
    old_repo: &RepoFacts<'_>,
    new_repo: &RepoFacts<'_>,
) -> (Vec<DeltaItem>, HashSet<Vec<u8>>) {
    let mut items = repository_ops(old_repo, new_repo);
    let mut changed = HashSet::new();
    let mut by_path: BTreeMap<&[u8], (Option<&FileState>, Option<&FileState>)> = BTreeMap::new();
    for f in old {
        by_path.entry(&f.path).or_default().0 = Some(f);
    }
    for f in new {
        by_path.entry(&f.path).or_default().1 = Some(f);
    }
    for (path, pair) in by_path {
        if let Some(item) = file_op(pair.0, pair.1) {
            changed.insert(path.to_vec());
            items.push(item);
        }
    }
    (items, changed)
}

fn repository_ops(a: &RepoFacts<'_>, b: &RepoFacts<'_>) -> Vec<DeltaItem> {
    let mut items = Vec::new();
    let item = |op: DeltaOp, before: Value, after: Value| DeltaItem {
        op,
        entity: "repository".into(),
        before: Some(before),
        after: Some(after),
    };
    if a.branch != b.branch {
        items.push(item(
            DeltaOp::BranchChanged,
            json!({"branch": a.branch}),
            json!({"branch": b.branch}),
        ));
    }
    if a.head != b.head {
        items.push(item(
            DeltaOp::HeadChanged,
            json!({"head": a.head}),
            json!({"head": b.head}),
        ));
    }
    if a.dirty != b.dirty || a.untracked != b.untracked {
        let old: HashSet<&Vec<u8>> = a.untracked.iter().collect();
        let new: HashSet<&Vec<u8>> = b.untracked.iter().collect();
        let added: Vec<String> = b
            .untracked
            .iter()
            .filter(|p| !old.contains(p))
            .map(|p| paths::display(p))
            .collect();
        let removed: Vec<String> = a
            .untracked
            .iter()
            .filter(|p| !new.contains(p))
            .map(|p| paths::display(p))
            .collect();
        let mut before = json!({"dirty": a.dirty, "untracked_count": a.untracked.len()});
        let mut after = json!({"dirty": b.dirty, "untracked_count": b.untracked.len()});
        if !removed.is_empty() {
            before["untracked_removed"] = json!(removed);
        }
        if !added.is_empty() {
            after["untracked_added"] = json!(added);
        }
        items.push(item(DeltaOp::WorkingTreeChanged, before, after));
    }
    items
}

fn file_op(old: Option<&FileState>, new: Option<&FileState>) -> Option<DeltaItem> {
    let (op, before, after) = match (old, new) {
        (None, None) => return None,
        (None, Some(n)) => (DeltaOp::FileAdded, None, Some(summary(n))),
        (Some(o), None) => (DeltaOp::FileDeleted, Some(summary(o)), None),
        (Some(o), Some(n)) if o.same_state(n) => return None,
        (Some(o), Some(n)) => {
            let (b, a) = changed_fields(o, n);
            let op = if o.exists() && !n.exists() {
                DeltaOp::FileDeleted
            } else if !o.exists() && n.exists() {
                DeltaOp::FileRestored
            } else if o.digest != n.digest || o.size != n.size {
                DeltaOp::FileContentChanged
            } else if o.working_state != n.working_state || o.index_oid != n.index_oid {
                DeltaOp::FileStateChanged
            } else {
                DeltaOp::FileMetadataChanged
            };
            (op, Some(b), Some(a))
        }
    };
    let entity = new.or(old).map(FileState::entity_id).unwrap_or_default();
    Some(DeltaItem {
        op,
        entity,
        before,
        after,
    })
}

fn summary(f: &FileState) -> Value {
    let mut m = Map::new();
    m.insert("type".into(), f.file_type.as_str().into());
    m.insert("working_state".into(), f.working_state.as_str().into());
    if let Some(d) = &f.digest {
        m.insert("digest".into(), d.clone().into());
    }
    if let Some(s) = f.size {
        m.insert("size".into(), s.into());
    }
    if let Some(l) = &f.language {
        m.insert("language".into(), l.clone().into());
    }
    if f.class != crate::model::FileClass::Source {
        m.insert("class".into(), f.class.as_str().into());
    }
    Value::Object(m)
}

/// Returns the before and after values of every field that differs.
fn changed_fields(o: &FileState, n: &FileState) -> (Value, Value) {
    let mut b = Map::new();
    let mut a = Map::new();
    let mut put = |k: &str, x: Value, y: Value| {
        if x != y {
            b.insert(k.into(), x);
            a.insert(k.into(), y);
        }
    };
    put("digest", json!(o.digest), json!(n.digest));
    put("size", json!(o.size), json!(n.size));
    put(
        "type",
        json!(o.file_type.as_str()),
        json!(n.file_type.as_str()),
    );
    put(
        "working_state",
        json!(o.working_state.as_str()),
        json!(n.working_state.as_str()),
    );
    put("index_oid", json!(o.index_oid), json!(n.index_oid));
    put(
        "index_mode",
        json!(mode_str(o.index_mode)),
        json!(mode_str(n.index_mode)),
    );
    put(
        "worktree_mode",
        json!(o.worktree_mode.map(mode_str)),
        json!(n.worktree_mode.map(mode_str)),
    );
    put("language", json!(o.language), json!(n.language));
    put("document", json!(o.is_document), json!(n.is_document));
    put(
        "assume_unchanged",
        json!(o.assume_unchanged),
        json!(n.assume_unchanged),
    );
    put(
        "skip_worktree",
        json!(o.skip_worktree),
        json!(n.skip_worktree),
    );
    put("class", json!(o.class.as_str()), json!(n.class.as_str()));
    (Value::Object(b), Value::Object(a))
}

/// Per added and deleted path: how many names the one gained that the other lost.
fn shared_names<'p>(
    added: &'p [(String, &SymbolFact)],
    removed: &'p [(String, &SymbolFact)],
) -> HashMap<(&'p str, &'p str), usize> {
    let mut lost: HashMap<&str, Vec<&str>> = HashMap::new();
    for (rpath, r) in removed {
        lost.entry(r.name()).or_default().push(rpath.as_str());
    }
    let mut shared: HashMap<(&str, &str), usize> = HashMap::new();
    for (apath, a) in added {
        for rpath in lost.get(a.name()).into_iter().flatten() {
            *shared.entry((apath.as_str(), *rpath)).or_default() += 1;
        }
    }
    shared
}

/// What an added or removed symbol's operation stores of it; a namespace's last line too: on
/// its first, it is a statement (see `SymbolChange::statement`).
fn desc(path: &str, s: &crate::analyze::structure::SymbolFact) -> Value {
    match s.kind.as_str() {
        "module" | "namespace" => {
            json!({"path": path, "kind": s.kind, "signature": s.signature, "line": s.start_line, "end": s.end_line})
        }
        _ => json!({"path": path, "kind": s.kind, "signature": s.signature, "line": s.start_line}),
    }
}

/// A qualified name without the duplicate numbers of its segments (`Foo#2.bar#3` → `Foo.bar`).
fn without_duplicate_numbers(qualified: &str) -> String {
    qualified
        .split('.')
        .map(|segment| segment.split('#').next().unwrap_or(segment))
        .collect::<Vec<_>>()
        .join(".")
}

/// Whether a symbol `m` removed from `from` and added to `to` moved as a whole: it holds no
/// member on either side, or a member of it left `from` for `to` unchanged.
fn members_moved_along(
    removed: &[(String, &SymbolFact)],
    from: &str,
    added: &[(String, &SymbolFact)],
    to: &str,
    m: &SymbolFact,
) -> bool {
    let prefix = format!("{}.", m.qualified_name);
    let members =
        |list: &[(String, &'_ SymbolFact)], path: &str| -> Vec<(String, String, String)> {
            list.iter()
                .filter(|(p, s)| p == path && s.qualified_name.starts_with(&prefix))
                .map(|(_, s)| {
                    (
                        s.qualified_name.clone(),
                        s.kind.clone(),
                        s.signature.clone(),
                    )
                })
                .collect()
        };
    let (gone, new) = (members(removed, from), members(added, to));
    (gone.is_empty() && new.is_empty()) || gone.iter().any(|g| new.contains(g))
}

/// The import operations of one changed file: a deleted file's imports go with it (chi's delta
/// of one deleted file spent two of its eleven changes on `import.removed net/http` and
/// `time`; its removed symbols stay, what callers lose), and an added file's that a deleted
/// file of the same change had came with its code (`git mv util.go shout.go` said `import.added
/// fmt` and `strings`).
fn import_ops<'a>(
    path: &str,
    old: Option<&'a crate::analyze::structure::CodeFacts>,
    new: Option<&'a crate::analyze::structure::CodeFacts>,
    deleted_imports: &HashSet<&String>,
) -> Vec<DeltaItem> {
    fn imports(f: Option<&crate::analyze::structure::CodeFacts>) -> HashSet<&String> {
        f.map(|f| f.imports.iter().collect()).unwrap_or_default()
    }
    let (oi, ni) = (imports(old), imports(new));
    let entity = EntityId::file(path.to_owned()).to_string();
    let mut out = Vec::new();
    for imp in new.map(|f| f.imports.as_slice()).unwrap_or_default() {
        let carried = old.is_none() && deleted_imports.contains(imp);
        if !oi.contains(imp) && !carried {
            out.push(DeltaItem {
                op: DeltaOp::ImportAdded,
                entity: entity.clone(),
                before: None,
                after: Some(json!({"import": imp})),
            });
        }
    }
    let removed_from = if new.is_some() { old } else { None };
    for imp in removed_from
        .map(|f| f.imports.as_slice())
        .unwrap_or_default()
    {
        if !ni.contains(imp) {
            out.push(DeltaItem {
                op: DeltaOp::ImportRemoved,
                entity: entity.clone(),
                before: Some(json!({"import": imp})),
                after: None,
            });
        }
    }
    out
}

/// Computes symbol and import operations for changed files, given each side's code facts
/// (`None` when the file is absent or has no code facts on that side). Files are visited in
/// the order given; the result is deterministic.
pub fn structural(
    changes: &[(
        Vec<u8>,
        Option<&crate::analyze::structure::CodeFacts>,
        Option<&crate::analyze::structure::CodeFacts>,
    )],
) -> Vec<DeltaItem> {
    let mut added: Vec<(String, &SymbolFact)> = Vec::new();
    let mut removed: Vec<(String, &SymbolFact)> = Vec::new();
    let mut items = Vec::new();
    // What the deleted files imported: an added file's import that one of them had came with
    // the code (a rename), as a deleted file's imports go with it.
    let deleted_imports: HashSet<&String> = changes
        .iter()
        .filter(|(_, _, new)| new.is_none())
        .flat_map(|(_, old, _)| old.iter().flat_map(|f| &f.imports))
        .collect();
    let sym =
        |path: &str, s: &SymbolFact| EntityId::symbol(path, s.qualified_name.clone()).to_string();
    for (path, old, new) in changes {
        let path = paths::display(path);
        let olds: &[SymbolFact] = old.map_or(&[], |f| &f.symbols);
        let news: &[SymbolFact] = new.map_or(&[], |f| &f.symbols);
        let mut paired = pair_symbols(olds, news);
        // A file past the symbol limit keeps only its best symbols: one it no longer lists
        // may still be there, pushed out by what the edit added (a struct added to tmux's
        // 3,000-declaration header "removed" a prototype), and one it lists now may have been
        // there before. Only what the other side would have kept is an addition or removal.
        paired.removed.retain(|s| surely_listed(*new, s));
        paired.added.retain(|s| surely_listed(*old, s));
        if old.is_none() || new.is_none() {
            paired.drop_repeats();
        }
        for (o, s) in paired.changed {
            items.push(DeltaItem {
                op: DeltaOp::SymbolSignatureChanged,
                entity: sym(&path, s),
                before: Some(
                    json!({"kind": o.kind, "signature": o.signature, "line": o.start_line}),
                ),
                after: Some(
                    json!({"kind": s.kind, "signature": s.signature, "line": s.start_line}),
                ),
            });
        }
        added.extend(paired.added.into_iter().map(|s| (path.clone(), s)));
        removed.extend(paired.removed.into_iter().map(|o| (path.clone(), o)));
        items.extend(import_ops(&path, *old, *new, &deleted_imports));
    }
    // A removal and an addition of the same declaration in different files is a move; not of
    // a namespace (C++, C#, PHP), which many files open: leveldb's `namespace leveldb` of a
    // deleted header "moved" to a header the same commit added. Nor of a module that held
    // other members on each side, none of which moved with it: Sidekiq's `module Sidekiq`
    // around a deleted file's class and around a new file's other class; nor a class reopened
    // the same way (thor's `class Thor` in every file of the gem). A member moves within its
    // owner only: `Thor.Registry.initialize`, new, is no `Thor.NestedContext.initialize` that
    // left with its deleted file.
    let owner = |s: &SymbolFact| s.parent().map(without_duplicate_numbers);
    let mut moved_from: HashSet<usize> = HashSet::new();
    // Per added and deleted path: how many names the one gained that the other lost. Of
    // several files a declaration may have come from, the one most of the file came from
    // (zlib's `#define CHUNK` of a renamed example "moved from" another example deleted by
    // the same commit).
    let shared = shared_names(&added, &removed);
    for (apath, a) in &added {
        let namespace = a.kind == "module" && a.signature.starts_with("namespace ");
        let hit = removed
            .iter()
            .enumerate()
            .filter(|(i, (rpath, r))| {
                !namespace
                    && !moved_from.contains(i)
                    && rpath != apath
                    && r.name() == a.name()
                    && r.same_declaration(a)
                    && owner(r) == owner(a)
                    && members_moved_along(&removed, rpath, &added, apath, a)
            })
            // The most shared names, then the first: `max_by_key` keeps the last of equals.
            .min_by_key(|(i, (rpath, _))| {
                let n = shared.get(&(apath.as_str(), rpath.as_str())).copied();
                (std::cmp::Reverse(n.unwrap_or(0)), *i)
            });
        match hit {
            Some((i, (rpath, r))) => {
                moved_from.insert(i);
                items.push(DeltaItem {
                    op: DeltaOp::SymbolMoved,
                    entity: sym(apath, a),
                    before: Some(json!({"id": sym(rpath, r), "path": rpath, "line": r.start_line})),
                    after: Some(json!({"path": apath, "line": a.start_line})),
                });
            }
            None => items.push(DeltaItem {
                op: DeltaOp::SymbolAdded,
                entity: sym(apath, a),
                before: None,
                after: Some(desc(apath, a)),
            }),
        }
    }
    for (i, (rpath, r)) in removed.iter().enumerate() {
        if !moved_from.contains(&i) {
            items.push(DeltaItem {
                op: DeltaOp::SymbolRemoved,
                entity: sym(rpath, r),
                before: Some(desc(rpath, r)),
                after: None,
            });
        }
    }
    items.sort_by(|a, b| {
        (a.op.rank(), &a.entity, a.op.as_str()).cmp(&(b.op.rank(), &b.entity, b.op.as_str()))
    });
    items
}

/// Whether a file's facts would list `s` if the file defined it: always, unless they were
/// truncated at the symbol limit and `s` is of no better class than the worst they kept
/// ([`SymbolFact::keep_priority`]).
fn surely_listed(facts: Option<&crate::analyze::structure::CodeFacts>, s: &SymbolFact) -> bool {
    let Some(facts) = facts.filter(|f| f.truncated) else {
        return true;
    };
    facts
        .symbols
        .iter()
        .map(SymbolFact::keep_priority)
        .max()
        .is_some_and(|worst| s.keep_priority() < worst)
}

/// One file's symbols before and after, paired: see [`pair_symbols`].
struct Paired<'a> {
    /// (before, after) of a symbol whose signature or kind changed.
    changed: Vec<(&'a SymbolFact, &'a SymbolFact)>,
    added: Vec<&'a SymbolFact>,
    removed: Vec<&'a SymbolFact>,
}

impl Paired<'_> {
    /// Leaves out the repeats of a definition, of a file that comes or goes whole: a name
    /// defined again with the same kind and signature (a Ruby constant set in each branch of
    /// an `if`) comes or goes once. A deleted compatibility shim read as `removed G.Xml`,
    /// `G.Xml#2`, `G.Xml#3`.
    fn drop_repeats(&mut self) {
        for list in [&mut self.added, &mut self.removed] {
            let mut seen: HashSet<(String, &str, &str)> = HashSet::new();
            list.retain(|s| {
                let base = without_duplicate_numbers(&s.qualified_name);
                seen.insert((base, s.kind.as_str(), s.signature.as_str()))
            });
        }
    }
}

/// Pairs one file's symbols before and after by name. Symbols of one name (overloads, a
/// redefinition: `area`, `area#2`, numbered in file order) pair with one of the same signature
/// first, then in order: adding `area(String unit)` before `area()` and `area(int)` is one
/// addition, not two changed signatures and an addition, as pairing by number made it.
fn pair_symbols<'a>(olds: &'a [SymbolFact], news: &'a [SymbolFact]) -> Paired<'a> {
    let base = |s: &'a SymbolFact| {
        let q = s.qualified_name.as_str();
        match q.rsplit_once('#') {
            Some((b, n)) if !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()) => b,
            _ => q,
        }
    };
    type Sides<'a> = (Vec<&'a SymbolFact>, Vec<&'a SymbolFact>);
    let mut by_name: BTreeMap<&str, Sides<'a>> = BTreeMap::new();
    for o in olds {
        by_name.entry(base(o)).or_default().0.push(o);
    }
    for n in news {
        by_name.entry(base(n)).or_default().1.push(n);
    }
    let mut paired = Paired {
        changed: vec![],
        added: vec![],
        removed: vec![],
    };
    let same = |o: &SymbolFact, n: &SymbolFact| o.same_declaration(n);
    for (before, after) in by_name.into_values() {
        let mut left: Vec<Option<&SymbolFact>> = before.into_iter().map(Some).collect();
        let mut unmatched = Vec::new();
        for n in after {
            match left.iter_mut().find(|o| o.is_some_and(|o| same(o, n))) {
                Some(slot) => *slot = None,
                None => unmatched.push(n),
            }
        }
        let mut rest = left.into_iter().flatten();
        for n in unmatched {
            match rest.next() {
                Some(o) => paired.changed.push((o, n)),
                None => paired.added.push(n),
            }
        }
        paired.removed.extend(rest);
    }
    paired
}

/// The digests whose code facts [`structural_between`] needs for `changed` paths: each side's
/// digest of every changed path.
pub fn digests_for(
    old: &[FileState],
    new: &[FileState],
    changed: &HashSet<Vec<u8>>,
) -> Vec<String> {
    sides(old, new, changed)
        .into_iter()
        .flat_map(|(_, a, b)| [a, b])
        .flatten()
        .collect()
}

/// Each changed path (sorted) with its digest before and after.
fn sides(
    old: &[FileState],
    new: &[FileState],
    changed: &HashSet<Vec<u8>>,
) -> Vec<(Vec<u8>, Option<String>, Option<String>)> {
    let digest_of = |files: &[FileState], p: &[u8]| {
        files
            .binary_search_by(|f| f.path.as_slice().cmp(p))
            .ok()
            .and_then(|i| files[i].digest.clone())
    };
    let mut paths: Vec<&Vec<u8>> = changed.iter().collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| (p.clone(), digest_of(old, p), digest_of(new, p)))
        .collect()
}

/// Symbol and import operations for the changed paths (both file lists sorted by path), from
/// the code facts of their old and new digests as `facts` finds them. A path with content
/// `facts` has no analysis of (one a read deferred, or one too large to analyze) makes none:
/// its symbols are unknown, not gone. Its `file_faults` warning says the structure is missing,
/// and the same delta asked again once the analysis is done has them (a deferred file's
/// symbols were all reported removed, and the delta after the analysis had no change at all).
pub fn structural_between<'a>(
    old: &[FileState],
    new: &[FileState],
    changed: &HashSet<Vec<u8>>,
    facts: impl Fn(&str) -> Option<&'a crate::analyze::Analysis>,
) -> Vec<DeltaItem> {
    // `None` for content never analyzed; `Some(None)` for no content or no code.
    let code = |d: &Option<String>| match d {
        None => Some(None),
        Some(d) => facts(d).map(|a| a.code.as_ref()),
    };
    let sides = sides(old, new, changed);
    let changes: Vec<_> = sides
        .iter()
        .filter(|(_, a, b)| a != b)
        .filter_map(|(p, a, b)| Some((p.clone(), code(a)?, code(b)?)))
        .filter(|(_, a, b)| a.is_some() || b.is_some())
        .collect();
    let mut items = structural(&changes);
    // A document's sections: of a changed document only (an added or deleted one says all).
    let doc = |d: &Option<String>| d.as_deref().and_then(|d| facts(d)?.doc.as_ref());
    for (path, a, b) in sides.iter().filter(|(_, a, b)| a != b) {
        if let (Some(o), Some(n)) = (doc(a), doc(b)) {
            items.extend(section_ops(&paths::display(path), o, n));
        }
    }
    items
}

/// The sections a document gained and lost: headings by level and text, each as often as it
/// appears (a README's new `## Usage`, a renamed one as one lost and one gained), in the
/// document's order, those lost first.
fn section_ops(
    path: &str,
    old: &crate::analyze::docs::DocFacts,
    new: &crate::analyze::docs::DocFacts,
) -> Vec<DeltaItem> {
    use crate::analyze::docs::{slugs, Heading};
    let key = |h: &Heading| (h.level, h.text.clone());
    let count = |list: &[Heading]| {
        let mut m: HashMap<(u8, String), usize> = HashMap::new();
        for h in list {
            *m.entry(key(h)).or_default() += 1;
        }
        m
    };
    let (mut olds, mut news) = (count(&old.headings), count(&new.headings));
    let mut items = Vec::new();
    let (old_slugs, new_slugs) = (slugs(&old.headings), slugs(&new.headings));
    let item = |op: DeltaOp, h: &Heading, slug: &str| {
        let value = json!({"heading": h.text, "level": h.level, "line": h.line});
        let (before, after) = match op {
            DeltaOp::SectionRemoved => (Some(value), None),
            _ => (None, Some(value)),
        };
        DeltaItem {
            op,
            entity: format!("doc:{path}#{slug}"),
            before,
            after,
        }
    };
    for (h, slug) in old.headings.iter().zip(&old_slugs) {
        let k = key(h);
        match news.get_mut(&k).filter(|n| **n > 0) {
            Some(n) => *n -= 1,
            None => items.push(item(DeltaOp::SectionRemoved, h, slug)),
        }
    }
    for (h, slug) in new.headings.iter().zip(&new_slugs) {
        let k = key(h);
        match olds.get_mut(&k).filter(|n| **n > 0) {
            Some(n) => *n -= 1,
            None => items.push(item(DeltaOp::SectionAdded, h, slug)),
        }
    }
    items
}

/// Folds operations into the compact form of the delta view: repository changes first, then
/// one entry per path in path order with its symbol and import operations nested under it, in
/// the order given. Digests and object ids stay out.
pub fn compact(items: &[DeltaItem]) -> (Vec<RepoChange>, Vec<PathChange>) {
    let mut repository = Vec::new();
    let mut by_path: BTreeMap<String, PathChange> = BTreeMap::new();
    let mut files: HashMap<String, (Option<String>, Option<i64>)> = HashMap::new();
    let mut old_signatures: HashMap<(String, String), String> = HashMap::new();
    for it in items {
        if it.op.is_repository() {
            repository.push(RepoChange {
                op: it.op,
                before: it.before.clone().map(abbreviate_heads),
                after: it.after.clone().map(abbreviate_heads),
            });
            continue;
        }
        let (path, name) = split_entity(&it.entity);
        // What pairing a deleted path with an added one needs (see `fold_renames`).
        let side = match it.op {
            DeltaOp::FileAdded => it.after.as_ref(),
            DeltaOp::FileDeleted => it.before.as_ref(),
            _ => None,
        };
        if let Some(v) = side {
            let digest = v.get("digest").and_then(Value::as_str).map(str::to_owned);
            let size = v.get("size").and_then(Value::as_i64);
            files.insert(path.to_owned(), (digest, size));
        }
        if it.op == DeltaOp::SymbolRemoved {
            if let Some(sig) = it
                .before
                .as_ref()
                .and_then(|v| v.get("signature")?.as_str())
            {
                old_signatures.insert((path.to_owned(), name.to_owned()), sig.to_owned());
            }
        }
        let pc = by_path
            .entry(path.to_owned())
            .or_insert_with(|| PathChange::bare(path));
        let text = |v: &Option<Value>, k: &str| {
            v.as_ref()
                .and_then(|v| v.get(k))
                .and_then(Value::as_str)
                .map(str::to_owned)
        };
        let change = |name: String| SymbolChange {
            op: it.op,
            name,
            signature: None,
            before: None,
            from: None,
            namespace: false,
            statement: false,
        };
        let change = match it.op {
            DeltaOp::FileAdded
            | DeltaOp::FileDeleted
            | DeltaOp::FileRenamed
            | DeltaOp::FileRestored
            | DeltaOp::FileContentChanged
            | DeltaOp::FileMetadataChanged
            | DeltaOp::FileStateChanged => {
                fill_file_change(pc, it);
                continue;
            }
            DeltaOp::ImportAdded => change(text(&it.after, "import").unwrap_or_default()),
            DeltaOp::ImportRemoved => change(text(&it.before, "import").unwrap_or_default()),
            DeltaOp::SymbolSignatureChanged => SymbolChange {
                signature: text(&it.after, "signature"),
                before: text(&it.before, "signature"),
                ..change(name.to_owned())
            },
            DeltaOp::SymbolMoved => SymbolChange {
                from: text(&it.before, "path"),
                ..change(name.to_owned())
            },
            // An overload's name is a number (`lib.f#3`) that says nothing of which one went:
            // its old declaration does.
            DeltaOp::SymbolRemoved => SymbolChange {
                before: text(&it.before, "signature").filter(|_| name.contains('#')),
                ..change(name.to_owned())
            },
            DeltaOp::SymbolAdded => {
                let namespace = text(&it.after, "kind")
                    .is_some_and(|k| matches!(k.as_str(), "module" | "namespace"));
                let line = |k: &str| it.after.as_ref().and_then(|v| v.get(k)?.as_u64());
                SymbolChange {
                    signature: text(&it.after, "signature"),
                    namespace,
                    statement: namespace && line("end").is_some() && line("end") == line("line"),
                    ..change(name.to_owned())
                }
            }
            // A section shows as its heading, its level in `#`s: `## Usage`.
            DeltaOp::SectionAdded | DeltaOp::SectionRemoved => {
                let side = it.after.as_ref().or(it.before.as_ref());
                let heading = side.and_then(|v| v.get("heading")?.as_str()).unwrap_or("");
                let level = side.and_then(|v| v.get("level")?.as_u64()).unwrap_or(1);
                SymbolChange {
                    signature: Some(format!("{} {heading}", "#".repeat(level as usize))),
                    ..change(String::new())
                }
            }
            DeltaOp::BranchChanged | DeltaOp::HeadChanged | DeltaOp::WorkingTreeChanged => continue,
        };
        pc.changes.push(change);
    }
    fold_renames(&mut by_path, &files, &old_signatures);
    (repository, by_path.into_values().collect())
}

/// Folds each deleted path into the added path it was renamed to (`git mv`), as one
/// `file.renamed` entry with `from`: the added file has the deleted one's content, or every
/// symbol that moved into it came from that one file and none went elsewhere. Its moves are
/// no longer listed one by one (log's moved `serde.rs` listed 55 of them); what the deleted
/// file lost comes under the new path, a removed symbol that the new file adds again under its
/// name being its changed signature (the old one as `before`).
fn fold_renames(
    by_path: &mut BTreeMap<String, PathChange>,
    files: &HashMap<String, (Option<String>, Option<i64>)>,
    old_signatures: &HashMap<(String, String), String>,
) {
    let with_op = |op: DeltaOp| -> Vec<String> {
        by_path
            .values()
            .filter(|p| p.op == Some(op))
            .map(|p| p.path.clone())
            .collect()
    };
    let (deleted, added) = (with_op(DeltaOp::FileDeleted), with_op(DeltaOp::FileAdded));
    if deleted.is_empty() || added.is_empty() {
        return;
    }
    // Per deleted path, the added paths symbols moved to from it.
    let mut moved_to: HashMap<&str, BTreeSet<&str>> = HashMap::new();
    for a in &added {
        for c in &by_path[a].changes {
            if let (DeltaOp::SymbolMoved, Some(from)) = (c.op, c.from.as_deref()) {
                moved_to.entry(from).or_default().insert(a.as_str());
            }
        }
    }
    let digest = |p: &str| files.get(p).and_then(|(d, _)| d.as_deref());
    let mut pairs: Vec<(String, String)> = Vec::new();
    let mut taken: HashSet<&str> = HashSet::new();
    for a in &added {
        let froms: BTreeSet<&str> = by_path[a]
            .changes
            .iter()
            .filter(|c| c.op == DeltaOp::SymbolMoved)
            .filter_map(|c| c.from.as_deref())
            .collect();
        let from = match froms.len() {
            0 => deleted
                .iter()
                .map(String::as_str)
                .find(|d| !taken.contains(d) && digest(d).is_some() && digest(d) == digest(a))
                .or_else(|| similar_deleted(by_path, &deleted, a, &taken)),
            1 => froms.first().copied().filter(|d| {
                deleted.iter().any(|x| x == d)
                    && !taken.contains(d)
                    && moved_to.get(d).is_some_and(|to| to.len() == 1)
            }),
            _ => None,
        };
        if let Some(d) = from {
            taken.insert(d);
            pairs.push((a.clone(), d.to_owned()));
        }
    }
    for (a, d) in pairs {
        let Some(old) = by_path.remove(&d) else {
            continue;
        };
        let Some(pc) = by_path.get_mut(&a) else {
            continue;
        };
        pc.op = Some(DeltaOp::FileRenamed);
        pc.changes
            .retain(|c| !(c.op == DeltaOp::SymbolMoved && c.from.as_deref() == Some(d.as_str())));
        let size = |p: &str| files.get(p).and_then(|(_, s)| *s);
        pc.size = None;
        pc.size_delta = match (size(&d), size(&a)) {
            (Some(o), Some(n)) if o != n => Some(n - o),
            _ => None,
        };
        // A class renamed with its file (`Regex` in `Regex.php` to `Pattern` in
        // `Pattern.php`): its members are read under the new name.
        let owner = renamed_owner(&old.changes, &pc.changes);
        let renamed = |name: &str| renamed_member(name, owner.as_ref());
        for ch in old.changes {
            let again = (ch.op == DeltaOp::SymbolRemoved)
                .then(|| {
                    let name = renamed(&ch.name);
                    pc.changes
                        .iter()
                        .position(|c| c.op == DeltaOp::SymbolAdded && c.name == name)
                })
                .flatten();
            match again {
                Some(i) => {
                    let added = pc.changes.remove(i);
                    let before = old_signatures.get(&(d.clone(), ch.name.clone())).cloned();
                    // A member that only changed its owner's name changed nothing of its own,
                    // nor did a namespace the new path opens as the old one did (namespaces,
                    // which many files open, never move: a renamed C++ file's `namespace lib`
                    // read as a changed signature).
                    let same = before.is_some() && before == added.signature;
                    if same && (ch.name != added.name || added.namespace) {
                        continue;
                    }
                    pc.changes.push(SymbolChange {
                        op: DeltaOp::SymbolSignatureChanged,
                        before,
                        ..added
                    });
                }
                None => pc.changes.push(ch),
            }
        }
        pc.from = Some(d);
    }
}

/// A symbol's name after its file's class was renamed (`owner`: old name, new name): the
/// class itself, its members, and a member named for the class (a constructor: Java's and
/// C#'s `NameAllocator`, and `NameAllocator#2`), renamed with it.
fn renamed_member(name: &str, owner: Option<&(String, String)>) -> String {
    let Some((from, to)) = owner else {
        return name.to_owned();
    };
    if name == from {
        return to.clone();
    }
    let Some(member) = name
        .strip_prefix(from.as_str())
        .and_then(|r| r.strip_prefix('.'))
    else {
        return name.to_owned();
    };
    let numbered = |n: &str| {
        n.is_empty()
            || n.strip_prefix('#')
                .is_some_and(|d| d.bytes().all(|b| b.is_ascii_digit()))
    };
    match member.strip_prefix(from.as_str()).filter(|n| numbered(n)) {
        Some(n) => format!("{to}.{to}{n}"),
        None => format!("{to}.{member}"),
    }
}

/// The deleted path (not yet `taken`) an added path `a` was renamed from when neither the
/// content nor a move says it: a file of the same extension whose removed symbols' names
/// (their last parts: a renamed class's members keep theirs) are mostly the added file's
/// (at least two besides the name of the file's own class, and three in five of the larger
/// set; namespaces not counted), the only such file. phpdotenv's
/// `Regex.php` renamed to `Pattern.php` with its class was a deletion and an addition of six
/// symbols each.
fn similar_deleted<'d>(
    by_path: &BTreeMap<String, PathChange>,
    deleted: &'d [String],
    a: &str,
    taken: &HashSet<&str>,
) -> Option<&'d str> {
    let extension = |p: &str| p.rsplit_once('.').map(|(_, e)| e.to_owned());
    // A name that is the file's stem (the class a Java or C# file is named for, and its
    // constructors) stands for the file, whatever the file is called.
    let stem = |p: &str| {
        let name = p.rsplit('/').next().unwrap_or(p);
        name.split('.').next().unwrap_or(name).to_owned()
    };
    // A name and whether it is a top-level one, not a member's.
    let names = |p: &str, op: DeltaOp| -> BTreeSet<(String, bool)> {
        let stem = stem(p);
        by_path[p]
            .changes
            .iter()
            // A namespace, which many files open, says nothing of where a file came from.
            .filter(|c| c.op == op && !c.namespace)
            .map(|c| {
                let last = c.name.rsplit('.').next().unwrap_or(&c.name);
                let name = match last.strip_prefix(stem.as_str()) {
                    Some(rest) if rest.is_empty() || rest.starts_with('#') => {
                        format!("\u{0}{rest}")
                    }
                    _ => last.to_owned(),
                };
                (name, !c.name.contains('.'))
            })
            // Nor does a name any class or module of the language may define.
            .filter(|(n, _)| !is_conventional(n))
            .collect()
    };
    let new = names(a, DeltaOp::SymbolAdded);
    let mut found = deleted.iter().filter(|d| {
        let old = names(d, DeltaOp::SymbolRemoved);
        let shared = old.intersection(&new).count();
        // Two names besides the file's own: an enum `TraceLevel` deleted and an unrelated
        // `DuplicateKeyMode` added, each named for its file and sharing a member `Error`,
        // read as a rename git did not see. Or one top-level name that is not the file's:
        // a module of one function moved with its signature edited (got's `stripUrlAuth`
        // from `strip-url-auth.ts` to `redact-url.ts`).
        let (members, top) = old
            .intersection(&new)
            .filter(|(n, _)| !n.starts_with('\u{0}'))
            .fold((0, 0), |(m, t), (_, top)| (m + 1, t + usize::from(*top)));
        !taken.contains(d.as_str())
            && extension(d) == extension(a)
            && (members >= 2 || top >= 1)
            && shared * 5 >= old.len().max(new.len()) * 3
    });
    match (found.next(), found.next()) {
        (Some(d), None) => Some(d.as_str()),
        _ => None,
    }
}

/// Whether a symbol name is one any class or module of its language may define, which says
/// nothing of where a file came from: Python's special methods (uvicorn's `ASGI2Middleware`
/// deleted and an unrelated `CORSMiddleware` added shared `__init__` and `__call__` and read
/// as a rename), constructors, the methods every value has, a program's `main`.
fn is_conventional(name: &str) -> bool {
    const NAMES: &[&str] = &[
        "main",
        "init",
        "new",
        "constructor",
        "initialize",
        "__construct",
        "__toString",
        "setUp",
        "tearDown",
        "setup",
        "teardown",
        "default",
        "fmt",
        "from",
        "drop",
        "clone",
        "call",
        "run",
        "handler",
        "toString",
        "ToString",
        "Equals",
        "GetHashCode",
        "Dispose",
        "equals",
        "hashCode",
        "to_s",
        "inspect",
        "String",
        "Error",
        "to_string",
    ];
    (name.len() > 4 && name.starts_with("__") && name.ends_with("__")) || NAMES.contains(&name)
}

/// The top-level type a renamed file renamed (old name, new name): the one top-level symbol
/// removed and the one added, when each is the only one.
fn renamed_owner(old: &[SymbolChange], new: &[SymbolChange]) -> Option<(String, String)> {
    let top = |changes: &[SymbolChange], op: DeltaOp| -> Option<String> {
        let mut names = changes
            .iter()
            .filter(|c| c.op == op && !c.name.contains('.') && !c.namespace);
        match (names.next(), names.next()) {
            (Some(c), None) => Some(c.name.clone()),
            _ => None,
        }
    };
    let (from, to) = (
        top(old, DeltaOp::SymbolRemoved)?,
        top(new, DeltaOp::SymbolAdded)?,
    );
    (from != to).then_some((from, to))
}

/// Splits `file:<path>`, `doc:<path>#<slug>` or `symbol:<path>:<qualified.name>` into path
/// and name (a section's slug).
pub(crate) fn split_entity(entity: &str) -> (&str, &str) {
    if let Some(rest) = entity.strip_prefix("symbol:") {
        return crate::api::ids::split_symbol(rest).unwrap_or((rest, ""));
    }
    if let Some(rest) = entity.strip_prefix("doc:") {
        return rest.rsplit_once('#').unwrap_or((rest, ""));
    }
    (entity.strip_prefix("file:").unwrap_or(entity), "")
}

/// Sets a path's file operation, its size or size change, its new working state and the
/// other metadata fields that changed.
fn fill_file_change(pc: &mut PathChange, it: &DeltaItem) {
    pc.op = Some(it.op);
    let num =
        |v: &Option<Value>, k: &str| v.as_ref().and_then(|v| v.get(k)).and_then(Value::as_i64);
    let added = matches!(it.op, DeltaOp::FileAdded | DeltaOp::FileRestored);
    if added {
        pc.size = num(&it.after, "size");
        // A file added to the index but not committed says so (`d.go 24 B staged`); one a
        // commit added is clean, which goes without saying.
        pc.state = it
            .after
            .as_ref()
            .and_then(|a| a.get("working_state"))
            .and_then(Value::as_str)
            .filter(|s| *s != "clean")
            .map(str::to_owned);
        return;
    }
    if let (Some(a), Some(b)) = (num(&it.before, "size"), num(&it.after, "size")) {
        pc.size_delta = Some(b - a);
    }
    for (k, v) in it
        .after
        .as_ref()
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        match k.as_str() {
            "digest" | "index_oid" | "size" => {}
            "working_state" => pc.state = v.as_str().map(str::to_owned),
            other => pc.fields.push(other.to_owned()),
        }
    }
}

/// Shortens 40-hex HEAD values of repository operations to 10 digits.
fn abbreviate_heads(mut v: Value) -> Value {
    if let Some(Value::String(h)) = v.get_mut("head") {
        h.truncate(10);
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::FileType;

    /// Symbols of one name pair by signature before order: an overload added before the others,
    /// or the first of two definitions removed, is one operation on that one symbol.
    #[test]
    fn same_named_symbols_pair_by_signature_first() {
        let code = |path: &[u8], lang: &str, text: &str| {
            crate::analyze::structure::analyze(path, Some(lang), text.as_bytes())
                .unwrap()
                .unwrap()
        };
        let ops = |path: &[u8], lang: &str, before: &str, after: &str| -> Vec<String> {
            let (old, new) = (code(path, lang, before), code(path, lang, after));
            structural(&[(path.to_vec(), Some(&old), Some(&new))])
                .iter()
                .map(|i| format!("{} {}", i.op.as_str(), i.entity))
                .collect()
        };
        let java = |methods: &str| format!("class Shape {{\n{methods}}}\n");
        let two = "    int area() { return 1; }\n    int area(int scale) { return scale; }\n";
        let three = format!("    int area(String unit) {{ return 0; }}\n{two}");
        assert_eq!(
            ops(b"Shape.java", "Java", &java(two), &java(&three)),
            ["symbol.added symbol:Shape.java:Shape.area"]
        );
        let py = "def compute(x):\n    return x\n\n\ndef compute(x, y):\n    return y\n";
        let last = "def compute(x, y):\n    return y\n";
        assert_eq!(
            ops(b"m.py", "Python", py, last),
            ["symbol.removed symbol:m.py:compute"]
        );
        // One of a name whose signature changed is a changed signature, as before.
        let changed = two.replace("int area(int scale)", "long area(int scale)");
        assert_eq!(
            ops(b"Shape.java", "Java", &java(two), &java(&changed)),
            ["symbol.signature_changed symbol:Shape.java:Shape.area#2"]
        );
    }

    /// A file that comes or goes whole lists a name it defines again the same way once: a
    /// Ruby constant set in each branch of an `if` was `removed G.Xml`, `G.Xml#2`, `G.Xml#3`.
    /// Overloads of other signatures stay.
    #[test]
    fn a_whole_file_lists_a_repeated_definition_once() {
        let shim = "module G\n  if defined?(::A)\n    Xml = ::A\n  elsif defined?(::B)\n    Xml = ::B\n  else\n    Xml = ::C\n  end\nend\n";
        let facts =
            crate::analyze::structure::analyze(b"lib/g/xml.rb", Some("Ruby"), shim.as_bytes())
                .unwrap()
                .unwrap();
        let path = b"lib/g/xml.rb".to_vec();
        let ops = |items: Vec<DeltaItem>| -> Vec<String> {
            items
                .iter()
                .map(|i| format!("{} {}", i.op.as_str(), i.entity))
                .collect()
        };
        let gone = structural(&[(path.clone(), Some(&facts), None)]);
        assert_eq!(
            ops(gone),
            [
                "symbol.removed symbol:lib/g/xml.rb:G",
                "symbol.removed symbol:lib/g/xml.rb:G.Xml"
            ]
        );
        let java =
            "class Shape {\n  int area() { return 1; }\n  int area(int s) { return s; }\n}\n";
        let shape =
            crate::analyze::structure::analyze(b"Shape.java", Some("Java"), java.as_bytes())
                .unwrap()
                .unwrap();
        let added = structural(&[(b"Shape.java".to_vec(), None, Some(&shape))]);
        assert_eq!(ops(added).len(), 3);
    }

    /// A header past the symbol limit keeps its best symbols only: a struct added to it
    /// pushes the last prototype out of the facts, which is no removal (tmux's `tmux.h`:
    /// `removed server_add_accept`); what it adds of a class the facts keep whole is listed,
    /// and so is a removal of one.
    #[test]
    fn a_file_past_the_symbol_limit_invents_no_removal() {
        use crate::analyze::structure::MAX_SYMBOLS;
        let header = |head: &str, tail: &str| {
            let protos: String = (0..MAX_SYMBOLS + 5)
                .map(|i| format!("int fn_{i}(int);\n"))
                .collect();
            let text = format!("{head}{protos}{tail}");
            crate::analyze::structure::analyze(b"big.h", Some("C"), text.as_bytes())
                .unwrap()
                .unwrap()
        };
        let old = header("struct session { int id; };\n", "");
        let new = header(
            "struct session { int id; };\n",
            "struct pane_stats { int lines; };\nint pane_stats_collect(int);\n",
        );
        assert!(old.truncated && new.truncated);
        let ops = |old, new| -> Vec<String> {
            structural(&[(b"big.h".to_vec(), Some(old), Some(new))])
                .iter()
                .map(|i| format!("{} {}", i.op.as_str(), i.entity))
                .collect()
        };
        assert_eq!(
            ops(&old, &new),
            ["symbol.added symbol:big.h:pane_stats"],
            "the prototype pushed out is not removed, the one not kept not added"
        );
        let gone = header("", "");
        assert_eq!(ops(&old, &gone), ["symbol.removed symbol:big.h:session"]);
    }

    /// A long signature is stored cut, but a change in the part left out is still a change
    /// (typer's forty-parameter `Option` changed its return type without a trace).
    #[test]
    fn a_change_where_a_long_signature_was_cut_is_a_changed_signature() {
        let code = |text: &str| {
            crate::analyze::structure::analyze(b"p.py", Some("Python"), text.as_bytes())
                .unwrap()
                .unwrap()
        };
        let option = |middle: &str| {
            let params: Vec<String> = (0..40)
                .map(|i| match i {
                    20 => middle.to_owned(),
                    _ => format!("p{i}: int | None = None"),
                })
                .collect();
            format!("def option({}) -> int:\n    return 0\n", params.join(", "))
        };
        let (old, new) = (code(&option("p20: int")), code(&option("p20: str")));
        assert_eq!(
            old.symbols[0].signature, new.symbols[0].signature,
            "the change is not shown"
        );
        let ops: Vec<String> = structural(&[(b"p.py".to_vec(), Some(&old), Some(&new))])
            .iter()
            .map(|i| format!("{} {}", i.op.as_str(), i.entity))
            .collect();
        assert_eq!(ops, ["symbol.signature_changed symbol:p.py:option"]);
    }

    /// A `macro_rules!` shows no rule in its signature: a rule's new matcher (how it is called)
    /// is a changed declaration (log's `info!`); a new expansion is not.
    #[test]
    fn a_macros_new_matcher_is_a_changed_signature() {
        let ops = |old: &str, new: &str| -> Vec<String> {
            let code = |text: &str| {
                crate::analyze::structure::analyze(b"lib.rs", Some("Rust"), text.as_bytes())
                    .unwrap()
                    .unwrap()
            };
            let (old, new) = (code(old), code(new));
            structural(&[(b"lib.rs".to_vec(), Some(&old), Some(&new))])
                .iter()
                .map(|i| format!("{} {}", i.op.as_str(), i.entity))
                .collect()
        };
        let m = |rule: &str| format!("#[macro_export]\nmacro_rules! info {{\n    {rule}\n}}\n");
        assert_eq!(
            ops(
                &m("($($arg:tt)+) => (log!(1, $($arg)+));"),
                &m("(target: $t:expr, $($arg:tt)+) => (log!(1, $($arg)+));")
            ),
            ["symbol.signature_changed symbol:lib.rs:info"]
        );
        assert!(ops(
            &m("($($arg:tt)+) => (log!(1, $($arg)+));"),
            &m("($($arg:tt)+) => (log!(2, $($arg)+));")
        )
        .is_empty());
    }

    /// A removed overload is named by a number (`lib.f#3`): its old declaration says which one
    /// went. Another removed symbol's name says it.
    #[test]
    fn a_removed_overload_keeps_its_declaration() {
        let removed = |entity: &str, signature: &str| DeltaItem {
            op: DeltaOp::SymbolRemoved,
            entity: entity.into(),
            before: Some(json!({"kind": "function", "signature": signature, "line": 3})),
            after: None,
        };
        let (_, paths) = compact(&[
            removed("symbol:lib.h:lib.f#3", "int f(double x)"),
            removed("symbol:lib.h:lib.g", "int g(void)"),
        ]);
        let changes: Vec<(&str, Option<&str>)> = paths[0]
            .changes
            .iter()
            .map(|c| (c.name.as_str(), c.before.as_deref()))
            .collect();
        assert_eq!(
            changes,
            [("lib.f#3", Some("int f(double x)")), ("lib.g", None)]
        );
    }

    /// A symbol that stands for several overloads shows one signature (TypeScript's first,
    /// Python's implementation); a change to another of them is still a changed signature
    /// (zod's factories, requests' `@overload`s were a bare `file.content_changed`).
    #[test]
    fn a_changed_overload_is_a_changed_signature() {
        let ops = |path: &[u8], language: &str, old: &str, new: &str| -> Vec<String> {
            let code = |text: &str| {
                crate::analyze::structure::analyze(path, Some(language), text.as_bytes())
                    .unwrap()
                    .unwrap()
            };
            let (old, new) = (code(old), code(new));
            structural(&[(path.to_vec(), Some(&old), Some(&new))])
                .iter()
                .map(|i| format!("{} {}", i.op.as_str(), i.entity))
                .collect()
        };
        let ts = |second: &str| {
            format!(
                "export function string(p?: string): string;\n{second}\nexport function string(p?: string): string {{ return p ?? \"\"; }}\n"
            )
        };
        assert_eq!(
            ops(
                b"i.ts",
                "TypeScript",
                &ts("export function string<T>(p?: string): T;"),
                &ts("export function string<T>(p?: string, coerce?: boolean): T;")
            ),
            ["symbol.signature_changed symbol:i.ts:string"]
        );
        let py = |second: &str| {
            format!(
                "from typing import overload\n\n@overload\ndef conv(x: int) -> int: ...\n@overload\n{second}\ndef conv(x):\n    return x\n"
            )
        };
        assert_eq!(
            ops(
                b"m.py",
                "Python",
                &py("def conv(x: str) -> str: ..."),
                &py("def conv(x: str, strict: bool = False) -> str: ...")
            ),
            ["symbol.signature_changed symbol:m.py:conv"]
        );
        // An overload's docstring is no part of its declaration.
        assert!(ops(
            b"m.py",
            "Python",
            &py("def conv(x: str) -> str:\n    \"\"\"One.\"\"\""),
            &py("def conv(x: str) -> str:\n    \"\"\"Two.\"\"\"")
        )
        .is_empty());
    }

    /// A renamed file's imports come with its code, as a deleted file's go with it: a new
    /// file's own imports stay.
    #[test]
    fn a_renamed_files_imports_are_no_import_operations() {
        let code = |path: &[u8], text: &str| {
            crate::analyze::structure::analyze(path, Some("Python"), text.as_bytes())
                .unwrap()
                .unwrap()
        };
        let old = code(
            b"util.py",
            "import os\nimport re\n\ndef shout(s):\n    return s\n",
        );
        let new = code(
            b"shout.py",
            "import os\nimport re\n\ndef shout(s):\n    return s\n",
        );
        let fresh = code(b"fresh.py", "import json\n\ndef load(s):\n    return s\n");
        let ops: Vec<String> = structural(&[
            (b"shout.py".to_vec(), None, Some(&new)),
            (b"util.py".to_vec(), Some(&old), None),
            (b"fresh.py".to_vec(), None, Some(&fresh)),
        ])
        .iter()
        .map(|i| format!("{} {}", i.op.as_str(), i.entity))
        .collect();
        assert!(
            ops.contains(&"symbol.moved symbol:shout.py:shout".to_owned()),
            "{ops:?}"
        );
        let imports: Vec<&String> = ops.iter().filter(|o| o.starts_with("import.")).collect();
        assert_eq!(imports, ["import.added file:fresh.py"], "{ops:?}");
    }

    /// A parameter's default value is shown as `…` (it may be a secret), yet changing it
    /// changes what a caller gets: guzzle's `request($method = 'GET')` becoming `'POST'` was a
    /// bare `file.content_changed`. So does a constant's plain value (chi's `RequestIDHeader`,
    /// Polly's `MaxRetryAttempts = 3`); not a function's body assigned to a name, nor the
    /// value of a name that says it holds a secret.
    #[test]
    fn a_changed_default_or_constant_value_is_a_changed_signature() {
        let code = |text: &str| {
            crate::analyze::structure::analyze(b"p.py", Some("Python"), text.as_bytes())
                .unwrap()
                .unwrap()
        };
        let ops = |old: &str, new: &str| -> Vec<String> {
            let (old, new) = (code(old), code(new));
            structural(&[(b"p.py".to_vec(), Some(&old), Some(&new))])
                .iter()
                .map(|i| format!("{} {}", i.op.as_str(), i.entity))
                .collect()
        };
        assert_eq!(
            ops(
                "def send(method='GET', sep=','):\n    pass\n",
                "def send(method='POST', sep=','):\n    pass\n"
            ),
            ["symbol.signature_changed symbol:p.py:send"]
        );
        assert!(ops(
            "TOKEN = 'a'\n\ndef f():\n    return 'x'\n",
            "TOKEN = 'b'\n\ndef f():\n    return 'y'\n"
        )
        .is_empty());
        assert_eq!(
            ops(
                "RETRIES = 3\nHEADER = 'X-Request-Id'\nEXTS = ['json', 'toml']\n",
                "RETRIES = 5\nHEADER = 'X-Request-Id'\nEXTS = ['json', 'yaml']\n"
            ),
            [
                "symbol.signature_changed symbol:p.py:EXTS",
                "symbol.signature_changed symbol:p.py:RETRIES"
            ]
        );
        assert!(ops("handler = lambda x: x\n", "handler = lambda x: x + 1\n").is_empty());
    }

    #[test]
    fn compact_nests_symbol_operations_under_their_path_without_digests() {
        let item = |op: DeltaOp, entity: &str, before: Value, after: Value| DeltaItem {
            op,
            entity: entity.into(),
            before: Some(before).filter(|v| !v.is_null()),
            after: Some(after).filter(|v| !v.is_null()),
        };
        let head = "0123456789abcdef0123456789abcdef01234567";
        let items = vec![
            item(
                DeltaOp::HeadChanged,
                "repository",
                json!({"head": head}),
                json!({"head": head}),
            ),
            item(
                DeltaOp::FileContentChanged,
                "file:src/a.rs",
                json!({"digest": "d1", "size": 10, "index_oid": "o1", "working_state": "clean"}),
                json!({"digest": "d2", "size": 25, "index_oid": "o2", "working_state": "staged"}),
            ),
            item(
                DeltaOp::FileAdded,
                "file:src/b.rs",
                Value::Null,
                json!({"digest": "d3", "size": 7}),
            ),
            item(
                DeltaOp::SymbolSignatureChanged,
                "symbol:src/a.rs:Parser.parse",
                json!({"kind": "method", "signature": "fn parse(&self)"}),
                json!({"kind": "method", "signature": "fn parse(&self, strict: bool)"}),
            ),
            item(
                DeltaOp::SymbolAdded,
                "symbol:src/b.rs:Config",
                Value::Null,
                json!({"kind": "struct", "signature": "pub struct Config"}),
            ),
            item(
                DeltaOp::SymbolMoved,
                "symbol:src/b.rs:helper",
                json!({"path": "src/a.rs"}),
                json!({"path": "src/b.rs"}),
            ),
            item(
                DeltaOp::ImportAdded,
                "file:src/b.rs",
                Value::Null,
                json!({"import": "std::fs"}),
            ),
        ];
        let (repo, paths) = compact(&items);
        assert_eq!(repo.len(), 1);
        assert_eq!(repo[0].after.as_ref().unwrap()["head"], "0123456789");
        assert_eq!(paths.len(), 2);
        let a = &paths[0];
        assert_eq!(
            (a.path.as_str(), a.op, a.size_delta),
            ("src/a.rs", Some(DeltaOp::FileContentChanged), Some(15))
        );
        assert_eq!(a.state.as_deref(), Some("staged"));
        assert!(a.fields.is_empty(), "{:?}", a.fields);
        assert_eq!(a.changes[0].name, "Parser.parse");
        assert_eq!(a.changes[0].before.as_deref(), Some("fn parse(&self)"));
        assert_eq!(
            a.changes[0].signature.as_deref(),
            Some("fn parse(&self, strict: bool)")
        );
        let b = &paths[1];
        assert_eq!((b.op, b.size), (Some(DeltaOp::FileAdded), Some(7)));
        let names: Vec<(&str, &str)> = b
            .changes
            .iter()
            .map(|c| (c.op.as_str(), c.name.as_str()))
            .collect();
        assert_eq!(
            names,
            [
                ("symbol.added", "Config"),
                ("symbol.moved", "helper"),
                ("import.added", "std::fs")
            ]
        );
        assert_eq!(b.changes[1].from.as_deref(), Some("src/a.rs"));
        let text = serde_json::to_string(&paths).unwrap();
        assert!(!text.contains("d1") && !text.contains("o2"), "{text}");
    }

    fn file(path: &str, digest: &str) -> FileState {
        crate::model::sample_file(path, digest)
    }

    fn repo() -> RepoFacts<'static> {
        RepoFacts {
            branch: Some("main"),
            head: Some("c1"),
            dirty: false,
            untracked: &[],
        }
    }

    #[test]
    fn one_operation_per_path_with_metadata_kept() {
        let old = vec![file("a", "1"), file("b", "2"), file("c", "3")];
        let mut changed = file("a", "11");
        changed.worktree_mode = Some(0o100755);
        let mut missing = file("c", "3");
        missing.file_type = FileType::Missing;
        let new = vec![changed, missing, file("d", "4")];
        let (items, paths) = compute(&old, &new, &repo(), &repo());
        let ops: Vec<(DeltaOp, &str)> = items.iter().map(|i| (i.op, i.entity.as_str())).collect();
        assert_eq!(
            ops,
            vec![
                (DeltaOp::FileContentChanged, "file:a"),
                (DeltaOp::FileDeleted, "file:b"),
                (DeltaOp::FileDeleted, "file:c"),
                (DeltaOp::FileAdded, "file:d")
            ]
        );
        assert_eq!(items[0].after.as_ref().unwrap()["worktree_mode"], "100755");
        assert_eq!(paths.len(), 4);
    }

    #[test]
    fn stat_only_change_is_no_change() {
        let mut a = file("a", "1");
        a.stat = Some(Default::default());
        let (items, _) = compute(&[file("a", "1")], &[a], &repo(), &repo());
        assert!(items.is_empty());
    }
}
