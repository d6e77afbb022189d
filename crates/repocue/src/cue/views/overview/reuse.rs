//! Bringing an earlier snapshot's overview data up to date instead of ranking the whole
//! repository again, where what changed since cannot have changed the result.
//!
//! Two kinds of change qualify, file by file:
//! - facts that differ at most in line numbers (an edit inside function bodies), or code of
//!   test data, which no part of the overview reads: the data is reused with the moved lines;
//! - a file that gains, loses or changes definitions or references without changing the
//!   reference graph (its imports are the same; a reference it gained or lost names nothing any
//!   file defines, before or after, so it was and is no edge; no ranked file references a name
//!   it gained or lost; it is no package root, and what makes it a program's `main` file is the
//!   same): every file's rank and every name's uses stay what they were. An edit that calls a
//!   library's function (`strlen`, `os.path.join`) is one. Whether a name is defined now is
//!   the search index's answer (it describes the current snapshot); see
//!   [`names_no_definition`] for before. Its symbols must not be
//!   able to reach the list either: it is none of the files the symbols are picked from, or
//!   it lists none and none of its symbols can score as much as the last pick the list took
//!   (see [`super::super::structure::score_bounds`]). What the earlier snapshot's ranking
//!   must tell for that is its [`GraphSummary`], cached beside its overview data.
//!
//! The result is byte for byte what [`super::compute_data`] gives; the tests compare the two.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::OverviewData;
use crate::analyze::importance;
use crate::analyze::structure::CodeFacts;
use crate::analyze::Analysis;
use crate::error::Result;
use crate::model::FileState;
use crate::paths;
use crate::read::Reader;

/// The view-cache key of [`GraphSummary`]. Only a snapshot whose overview was computed from
/// scratch has one, so reuse always starts from such a snapshot, however many snapshots
/// reused its data since.
pub(super) const GRAPH_KEY: &str = "overview-graph";

/// What a later snapshot needs of this one's ranking to tell that an edit left the ranking as
/// it was (see the module documentation).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub(super) struct GraphSummary {
    /// The files the overview's symbols are picked from, sorted by path, each with the bounds
    /// of what any of its symbols could score ([`super::super::structure::score_bounds`]).
    pub candidates: Vec<Candidate>,
    /// The least score a further exposed symbol must have to change the list
    /// ([`super::super::structure::Tiers::floor`]).
    pub exposed_floor: f64,
    /// The same for a hidden symbol (private, or of a test, example or vendored file).
    pub hidden_floor: f64,
    /// [`name_hash`] of every name a ranked file references, sorted and without repeats. Two
    /// names may share a hash: a name then only seems referenced, and the overview is
    /// computed again. Never the other way round.
    pub referenced: Vec<u32>,
    /// The language families the project hardly writes in, whose symbols are hidden
    /// ([`importance::minor_families`]).
    #[serde(default)]
    pub minor_families: Vec<String>,
    /// The files of the classes the listed types inherit members from, sorted: a change to
    /// their methods may change the members (see `with_members`).
    #[serde(default)]
    pub member_sources: Vec<String>,
    /// The files package roots hand over to, sorted: package roots in their place, whose own
    /// definitions are the package's API ([`super::super::structure::handed_roots`]); the
    /// roots a manifest declares rather than their path makes; the files roots hand on whole.
    #[serde(default)]
    pub handed_roots: Vec<String>,
}

/// A file the overview's symbols are picked from.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub(super) struct Candidate {
    pub path: String,
    /// The rank bound: the file's rank, or the most its names' floors give.
    pub rank: f64,
    /// The use bound: the most any of its names is used.
    pub uses: f64,
}

impl GraphSummary {
    /// Tells whether a file's code is of a language family the project hardly writes in.
    fn is_minor(&self, a: &Analysis) -> bool {
        a.code.as_ref().is_some_and(|c| {
            let family = importance::language_family(&c.language);
            self.minor_families.iter().any(|f| f == family)
        })
    }

    /// The summary of a ranking: its candidate files with their bounds, the picks' floor, and
    /// the ranked files' code facts.
    pub fn new<'a>(
        candidates: impl Iterator<Item = (&'a [u8], f64, f64)>,
        [exposed_floor, hidden_floor]: [f64; 2],
        code: impl Iterator<Item = &'a CodeFacts>,
        minor_families: &[&str],
        member_sources: Vec<String>,
        handed_roots: Vec<String>,
    ) -> GraphSummary {
        let mut candidates: Vec<Candidate> = candidates
            .map(|(path, rank, uses)| Candidate {
                path: paths::display(path),
                rank,
                uses,
            })
            .collect();
        candidates.sort_by(|a, b| a.path.cmp(&b.path));
        candidates.dedup_by(|a, b| a.path == b.path);
        let mut referenced: Vec<u32> = code
            .flat_map(|c| &c.references)
            .map(|r| name_hash(r))
            .collect();
        referenced.sort_unstable();
        referenced.dedup();
        GraphSummary {
            candidates,
            exposed_floor,
            hidden_floor,
            referenced,
            minor_families: minor_families.iter().map(|f| f.to_string()).collect(),
            member_sources,
            handed_roots,
        }
    }

    fn is_referenced(&self, name: &str) -> bool {
        self.referenced.binary_search(&name_hash(name)).is_ok()
    }

    fn candidate(&self, path: &str) -> Option<&Candidate> {
        self.candidates
            .binary_search_by(|c| c.path.as_str().cmp(path))
            .ok()
            .map(|i| &self.candidates[i])
    }
}

/// A name's 32-bit FNV-1a hash: defined here, not by a hashing crate whose output may change
/// with its version while the cached summaries stay.
fn name_hash(name: &str) -> u32 {
    name.bytes().fold(0x811c_9dc5, |h: u32, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

/// The overview data of the latest earlier snapshot ranked from scratch, brought up to date,
/// when every file that changed since qualifies (see the module documentation): the same
/// paths, every changed one the same kind of file, under the same rules. `None` when the
/// overview must be computed.
pub(super) fn reused(state: &Reader) -> Result<Option<OverviewData>> {
    let Some(changes) = state.changes_since_cached(GRAPH_KEY)? else {
        return Ok(None);
    };
    let Some(mut data) = state.cached_at::<OverviewData>(changes.since, "overview")? else {
        return Ok(None);
    };
    let (old, new) = (&changes.old, &changes.new);
    // The index mode too: an executable bit makes a script a command (`./build.sh`, else
    // `bash ./build.sh`), and a reused overview kept the old one.
    let same_kind = |a: &FileState, b: &FileState| {
        (
            a.class,
            &a.language,
            a.is_document,
            a.file_type,
            a.index_mode,
        ) == (
            b.class,
            &b.language,
            b.is_document,
            b.file_type,
            b.index_mode,
        )
    };
    if !old.iter().zip(new).all(|(a, b)| same_kind(a, b)) {
        return Ok(None);
    }
    let digests: Vec<&str> = old
        .iter()
        .chain(new)
        .filter(|f| f.class.analysed())
        .filter_map(|f| f.digest.as_deref())
        .collect();
    let facts = state.store.facts(&digests)?;
    let analysis = |f: &FileState| {
        f.digest
            .as_deref()
            .filter(|_| f.class.analysed())
            .and_then(|d| facts.get(d))
    };
    // Read only when some file's definitions changed.
    let mut graph: Option<GraphSummary> = None;
    let mut documented: Option<crate::analyze::graph::NameWeights> = None;
    let mut moved: HashMap<String, &Analysis> = HashMap::new();
    // References the changed files gained or lost.
    let mut changed_references: Vec<&str> = Vec::new();
    for (a, b) in old.iter().zip(new) {
        match (analysis(a), analysis(b)) {
            (None, None) => {}
            (Some(x), Some(y)) if x.same_but_lines(y) => {
                moved.insert(paths::display(&b.path), y);
            }
            // Test data's code takes no part in the ranking (a compiler's sample programs, an
            // expected output an agent updates): only its size counts.
            (Some(x), Some(y))
                if only_test_data_code(&b.path, x) && only_test_data_code(&b.path, y) => {}
            (Some(x), Some(y)) => {
                if graph.is_none() {
                    graph = state.cached_at(changes.since, GRAPH_KEY)?;
                }
                let Some(g) = &graph else {
                    return Ok(None);
                };
                let path = paths::display(&b.path);
                if g.member_sources.binary_search(&path).is_ok() {
                    return Ok(None);
                }
                if !graph_unchanged(g, &b.path, x, y, &mut changed_references) {
                    return Ok(None);
                }
                // A file the symbols are picked from: none of its symbols may be listed, and
                // none may come to score enough to be.
                if let Some(c) = g.candidate(&path) {
                    if data.symbols.iter().any(|s| s.path == path) {
                        return Ok(None);
                    }
                    if documented.is_none() {
                        documented = Some(super::super::structure::documented_names(state)?);
                    }
                    let new_names = new_names(x, y);
                    let counts = documented.as_ref().expect("just read");
                    let documents = new_names
                        .iter()
                        .filter_map(|n| counts.get(*n))
                        .fold(0.0f64, |a, &b| a.max(b));
                    let uses = c.uses.max(super::super::structure::DOC_WEIGHT * documents);
                    let bound = super::super::structure::score_bound(c.rank, uses);
                    // A file of the project's own code without hidden symbols, before or
                    // after, in a language the project writes much of (its language stays:
                    // `graph_unchanged`), takes no part in the hidden picks.
                    let no_hidden = importance::role(&b.path) == importance::Role::Source
                        && !has_hidden(x)
                        && !has_hidden(y)
                        && !g.is_minor(y);
                    if bound >= g.exposed_floor || (bound >= g.hidden_floor && !no_hidden) {
                        return Ok(None);
                    }
                }
            }
            _ => return Ok(None),
        }
    }
    if !changed_references.is_empty() && !names_no_definition(state, &changed_references)? {
        return Ok(None);
    }
    for s in &mut data.symbols {
        if let Some(a) = moved.get(&s.path) {
            let symbols = a.code.as_ref().map_or(&[][..], |c| &c.symbols);
            let Some(found) = symbols.iter().find(|f| f.qualified_name == s.name) else {
                return Ok(None);
            };
            s.line = found.start_line;
        }
    }
    // Only the changed files' sizes moved; every count is the same.
    let bytes = |rows: &[FileState]| rows.iter().filter_map(|f| f.size).sum::<u64>();
    data.totals.bytes = (data.totals.bytes + bytes(new)).saturating_sub(bytes(old));
    Ok(Some(data))
}

/// Tells whether a file's facts are code facts of test data, which no part of the overview
/// reads: neither the ranking ([`super::super::structure::below_fixtures`]) nor the sections
/// that read documents' and manifests' facts.
fn only_test_data_code(path: &[u8], a: &Analysis) -> bool {
    super::super::structure::below_fixtures(path, b"") && a.doc.is_none() && a.manifest.is_none()
}

/// Tells whether a code file's change from `x` to `y` left the reference graph and what the
/// overview reads of the file outside its symbols as `graph`'s snapshot ranked them: no other
/// facts than code changed; the file is a node of the graph before and after (it defines
/// something), of the same language, with the same edges (the same imports; every reference it gained or lost is
/// pushed to `changed_references`, for the caller to check that none names a definition), and
/// no ranked file references a name it gained or lost (the files a reference may mean are the
/// same) and no name it keeps that a ranked file references comes to be exportable or no
/// longer (a package root's exports list it by that); it is no package root (whose own
/// definitions are its package's API); and the facts
/// that make it a program's `main` file or a main's delegate are the same. Whether its symbols
/// could now be listed is the caller's question.
fn graph_unchanged<'a>(
    graph: &GraphSummary,
    path: &[u8],
    x: &'a Analysis,
    y: &'a Analysis,
    changed_references: &mut Vec<&'a str>,
) -> bool {
    let (Some(a), Some(b)) = (&x.code, &y.code) else {
        return false;
    };
    if x.doc != y.doc || x.manifest != y.manifest {
        return false;
    }
    if a.symbols.is_empty()
        || b.symbols.is_empty()
        || a.language != b.language
        || a.imports != b.imports
        || a.reexports != b.reexports
        || a.type_reexports != b.type_reexports
        || a.star_exports != b.star_exports
        || a.member_references != b.member_references
        || importance::is_package_root(path)
        || path.ends_with(b"package-info.java")
        || !importance::umbrella_includes(path, a).is_empty()
        || !importance::umbrella_includes(path, b).is_empty()
        || graph
            .handed_roots
            .binary_search(&paths::display(path))
            .is_ok()
        || main_facts(a) != main_facts(b)
    {
        return false;
    }
    // A name defined as a member or no longer (a function becoming a method) may gain or lose
    // the uses written as a value's member (`x.run()`).
    let (before, after) = (owned_names(a), owned_names(b));
    if !before
        .symmetric_difference(&after)
        .all(|(n, _)| !graph.is_referenced(n))
    {
        return false;
    }
    let (before, after) = (names(a), names(b));
    // A name it keeps that comes to be exportable or no longer (`export` added or dropped)
    // may enter or leave a package root's exports.
    let exportable = |c: &CodeFacts, n: &str| {
        c.symbols
            .iter()
            .any(|s| s.name() == n && importance::is_exportable(s))
    };
    if before
        .intersection(&after)
        .any(|n| graph.is_referenced(n) && exportable(a, n) != exportable(b, n))
    {
        return false;
    }
    let referenced = |c: &'a CodeFacts| -> std::collections::BTreeSet<&'a str> {
        c.references.iter().map(String::as_str).collect()
    };
    let (before, after) = (referenced(a), referenced(b));
    changed_references.extend(before.symmetric_difference(&after).copied());
    true
}

/// Tells whether none of `references`, the references changed files gained or lost, names a
/// definition, so that none was or is an edge. Now: by the search index, which describes this
/// snapshot (every analysed file, tests and test data included, so it errs toward a
/// definition); `false` when it cannot tell. Before: the same files defined the same names,
/// but for names a changed file lost; a reference one lost was a ranked file's, so losing its
/// definition fails that file's own check ([`graph_unchanged`]), and one gained was no edge.
fn names_no_definition(state: &Reader, references: &[&str]) -> Result<bool> {
    let mut names: Vec<String> = references.iter().map(|r| (*r).to_owned()).collect();
    names.sort_unstable();
    names.dedup();
    let defining = state.store.defining_paths(&state.snapshot, &names)?;
    Ok(defining.is_some_and(|paths| paths.is_empty()))
}

/// Whether a file defines a symbol its language declares hidden ([`importance::is_hidden`]).
fn has_hidden(a: &Analysis) -> bool {
    a.code
        .as_ref()
        .is_some_and(|c| c.symbols.iter().any(importance::is_hidden))
}

/// The names a file's symbols go by (their last segments).
fn names(c: &CodeFacts) -> std::collections::BTreeSet<&str> {
    c.symbols.iter().map(|s| s.name()).collect()
}

/// The names a file's symbols go by, each with whether it is a member's (a method, field or
/// property) or a top-level definition's.
fn owned_names(c: &CodeFacts) -> std::collections::BTreeSet<(&str, bool)> {
    c.symbols
        .iter()
        .map(|s| (s.name(), s.is_member()))
        .collect()
}

/// The names `y` defines that `x` did not.
fn new_names<'a>(x: &'a Analysis, y: &'a Analysis) -> Vec<&'a str> {
    let before = x.code.as_ref().map(names).unwrap_or_default();
    let after = y.code.as_ref().map(names).unwrap_or_default();
    after.difference(&before).copied().collect()
}

/// What the overview reads of a file's symbols beyond the candidates': whether it defines a
/// `main` function and whether only under a preprocessor condition, whether it defines other
/// functions, how many names a `main`'s file references (programs are listed by it), and the
/// functions named like a main that another program's `main` may hand over to.
fn main_facts(code: &CodeFacts) -> (Option<bool>, bool, Option<usize>, Vec<&str>) {
    let functions = code.symbols.iter().filter(|s| s.kind == "function");
    let has_main = super::main_function(code).map(|s| s.conditional);
    let others = functions.clone().any(|s| s.name() != "main");
    let mut mains: Vec<&str> = functions
        .map(|s| s.qualified_name.as_str())
        .filter(|n| *n != "main" && super::names_a_main(n))
        .collect();
    mains.sort_unstable();
    let references = has_main.map(|_| code.references.len());
    (has_main, others, references, mains)
}

#[cfg(test)]
mod tests {
    use super::super::{compute_data, data};
    use super::*;
    use crate::refresh::{run, Operation};
    use crate::testing::temp_repo;

    const CORE: &str = "def parse(text):\n    return text\n\n\
class Parser:\n    def run(self, text):\n        def step(x):\n            return x\n        return step(text)\n\n\
def render(doc):\n    return parse(doc)\n";

    /// The overview data of each new snapshot, reused from its parent's where that is allowed,
    /// and as computed from scratch.
    fn after(t: &crate::testing::TempRepo, path: &str, content: &str) -> (Option<String>, String) {
        // The parent's data is cached, as a cue before the edit leaves it.
        let parent = data(&crate::read::prepare(&t.repo, false).unwrap(), "work").unwrap();
        let parent = serde_json::to_string(&parent).unwrap();
        // An empty content deletes the file; new and deleted files are staged.
        let root = &t.repo.root;
        if content.is_empty() {
            crate::testing::git(root, &["rm", "-q", "-f", path]);
        } else {
            std::fs::write(root.join(path), content).unwrap();
            crate::testing::git(root, &["add", path]);
        }
        assert!(run(&t.repo, &Operation::Refresh).unwrap().published);
        let reader = crate::read::prepare(&t.repo, false).unwrap();
        let json = |d: &OverviewData| serde_json::to_string(d).unwrap();
        let reused = reused(&reader).unwrap().map(|d| json(&d));
        let fresh = json(&compute_data(&reader, "work").unwrap());
        assert_ne!(
            parent, fresh,
            "the edit of {path} changed the overview data"
        );
        (reused, fresh)
    }

    /// An edit inside function bodies moves lines and sizes only: the parent's overview data
    /// is reused with the new lines and totals, and equals a computation from scratch. Any
    /// other change (a new symbol, a document's title, a new or deleted file) recomputes.
    #[test]
    fn an_edit_inside_bodies_reuses_the_parent_overview_exactly() {
        let t = temp_repo(&[
            ("README.md", "# Work\n\nParses documents.\n"),
            ("src/core.py", CORE),
            ("test/fixtures/case/input.py", "def a():\n    pass\n"),
            (
                "src/use.py",
                "from core import parse, Parser\n\ndef go():\n    return parse(Parser())\n",
            ),
        ]);
        run(&t.repo, &Operation::Init).unwrap();
        // A function added to test data: the ranking never reads it.
        let (reused, fresh) = after(
            &t,
            "test/fixtures/case/input.py",
            "def a():\n    pass\n\n\ndef parse_more():\n    return parse(1)\n",
        );
        assert_eq!(reused.as_deref(), Some(fresh.as_str()), "test data reused");
        // Two lines more in a body, naming nothing new.
        let longer = CORE.replace(
            "    return text\n",
            "    # The text as given:\n    text = text\n    return text\n",
        );
        let lines = |json: &str| -> Vec<u64> {
            let v: serde_json::Value = serde_json::from_str(json).unwrap();
            let symbols = v["symbols"].as_array().unwrap().iter();
            symbols.map(|s| s["line"].as_u64().unwrap()).collect()
        };
        let before = lines(
            &serde_json::to_string(
                &data(&crate::read::prepare(&t.repo, false).unwrap(), "work").unwrap(),
            )
            .unwrap(),
        );
        let (reused, fresh) = after(&t, "src/core.py", &longer);
        assert_eq!(
            reused.as_deref(),
            Some(fresh.as_str()),
            "lines moved, data reused"
        );
        assert_ne!(before, lines(&fresh), "some listed symbol moved");
        // Two more such edits with no cue between: the data comes from two snapshots back.
        data(&crate::read::prepare(&t.repo, false).unwrap(), "work").unwrap();
        for extra in ["    # Once.\n", "    # Twice.\n"] {
            let edited = longer.replace("    text = text\n", &format!("{extra}    text = text\n"));
            std::fs::write(t.repo.root.join("src/core.py"), edited).unwrap();
            assert!(run(&t.repo, &Operation::Refresh).unwrap().published);
        }
        let reader = crate::read::prepare(&t.repo, false).unwrap();
        let json = |d: &OverviewData| serde_json::to_string(d).unwrap();
        assert_eq!(
            super::reused(&reader).unwrap().map(|d| json(&d)),
            Some(json(&compute_data(&reader, "work").unwrap()))
        );
        std::fs::write(t.repo.root.join("src/core.py"), &longer).unwrap();
        assert!(run(&t.repo, &Operation::Refresh).unwrap().published);

        for (path, content) in [
            ("src/core.py", format!("{longer}\ndef extra():\n    pass\n")),
            ("README.md", "# Works\n\nParses documents.\n".to_owned()),
            ("src/new.py", "def fresh():\n    pass\n".to_owned()),
            ("src/new.py", String::new()),
        ] {
            let (reused, _) = after(&t, path, &content);
            assert_eq!(reused, None, "{path} recomputes");
        }
    }

    /// A repository of `files`, its baseline, and the overview data and graph summary of its
    /// first snapshot.
    fn ranked(
        files: &[(String, String)],
    ) -> (crate::testing::TempRepo, OverviewData, GraphSummary) {
        let refs: Vec<(&str, &str)> = files
            .iter()
            .map(|(p, c)| (p.as_str(), c.as_str()))
            .collect();
        let t = temp_repo(&refs);
        run(&t.repo, &Operation::Init).unwrap();
        let reader = crate::read::prepare(&t.repo, false).unwrap();
        let listed = data(&reader, "work").unwrap();
        let graph: GraphSummary = reader
            .cached_at(reader.snapshot.seq, GRAPH_KEY)
            .unwrap()
            .expect("a computed overview leaves its graph summary");
        (t, listed, graph)
    }

    /// Adds fifty functions that twenty files call, each in its own directory (no directory
    /// fills the list): what fills the overview's symbols. Each caller's text starts with
    /// `head` and ends with `tail`.
    fn busy_functions(files: &mut Vec<(String, String)>, head: &str, tail: &str) {
        let calls: String = (0..50).map(|i| format!("    run{i}()\n")).collect();
        // The functions the calls name, imported from their modules: a Python name no import
        // binds is none of another module's.
        let imports: String = (0..50)
            .map(|i| format!("from u{i:02}.mod import run{i}\n"))
            .collect();
        for i in 0..50 {
            files.push((
                format!("src/u{i:02}/mod.py"),
                format!("def run{i}(x=None):\n    return x\n"),
            ));
        }
        for j in 0..20 {
            files.push((
                format!("src/c{j:02}/main.py"),
                format!("{imports}{head}def go{j}():\n{calls}{tail}"),
            ));
        }
    }

    /// A file the overview shows no symbol of gains a function no file calls, or a call of a
    /// name no file defines: the ranking is the same, and the parent's data is reused. A
    /// function some file calls, a call of a name some file defines (or comes to define in a
    /// later edit), or a function in a file whose symbols are shown recomputes.
    #[test]
    fn a_new_definition_nothing_uses_reuses_the_parent_overview_exactly() {
        let mut files: Vec<(String, String)> = vec![
            ("README.md".into(), "# Work\n\nParses documents.\n".into()),
            ("src/core.py".into(), CORE.into()),
            (
                "src/caller.py".into(),
                "from core import parse\n\ndef go():\n    return helper_x(parse(1))\n".into(),
            ),
        ];
        // More files than the overview picks symbols from, each a node of the graph.
        for i in 0..90 {
            files.push((
                format!("src/m{i:02}.py"),
                format!("from core import parse\n\ndef f{i}(x):\n    return parse(x)\n"),
            ));
        }
        let (t, _, graph) = ranked(&files);
        assert!(graph.candidate("src/core.py").is_some());
        let quiet = (0..90)
            .map(|i| format!("src/m{i:02}.py"))
            .rfind(|p| graph.candidate(p).is_none())
            .expect("some file is no candidate");
        let original = files.iter().find(|(p, _)| *p == quiet).unwrap().1.clone();

        let added = format!("{original}\n\ndef unused_one(y):\n    return parse(y)\n");
        let (reused, fresh) = after(&t, &quiet, &added);
        assert_eq!(reused.as_deref(), Some(fresh.as_str()), "{quiet} reused");
        // A second such edit, its signature changed: reused from the snapshot ranked first.
        let changed = added.replace("unused_one(y)", "unused_one(y, z=None)");
        let (reused, fresh) = after(&t, &quiet, &changed);
        assert_eq!(
            reused.as_deref(),
            Some(fresh.as_str()),
            "{quiet} reused again"
        );
        // A call of a name no file defines (a library's function): no edge.
        let calls = format!("{changed}\n\ndef g():\n    return other_name()\n");
        let (reused, fresh) = after(&t, &quiet, &calls);
        assert_eq!(reused.as_deref(), Some(fresh.as_str()), "{quiet} calls out");
        // Another file then defines that name: the call now means it, though neither edit
        // alone changed the graph the reuse starts from.
        let other = (0..90)
            .map(|i| format!("src/m{i:02}.py"))
            .find(|p| *p != quiet && graph.candidate(p).is_none())
            .expect("a second file is no candidate");
        let original = files.iter().find(|(p, _)| *p == other).unwrap().1.clone();
        let defines = format!("{original}\n\ndef other_name():\n    return 1\n");
        let (reused, _) = after(&t, &other, &defines);
        assert_eq!(reused, None, "{other} defines what {quiet} calls");
        std::fs::write(t.repo.root.join(&other), &original).unwrap();
        assert!(run(&t.repo, &Operation::Refresh).unwrap().published);
        // A call of a name `core.py` defines, which the file did not reference before.
        let (reused, _) = after(
            &t,
            &quiet,
            &calls.replace("other_name()", "other_name(render(1))"),
        );
        assert_eq!(reused, None, "{quiet} calls core.py's render");

        for (path, content) in [
            // `caller.py` references `helper_x`: defining it adds an edge.
            (
                &quiet,
                format!("{changed}\n\ndef helper_x(v):\n    return v\n"),
            ),
            // The overview picks symbols of `core.py`.
            (
                &"src/core.py".to_owned(),
                format!("{CORE}\n\ndef spare():\n    pass\n"),
            ),
        ] {
            let (reused, _) = after(&t, path, &content);
            assert_eq!(reused, None, "{path} recomputes");
            std::fs::write(t.repo.root.join(path), content).unwrap();
        }
    }

    /// A file the overview picks symbols from but lists none of, whose symbols cannot score
    /// enough to be listed, gains a function no file calls: reused. A file whose symbols are
    /// listed recomputes.
    #[test]
    fn a_new_definition_below_the_listed_symbols_reuses_the_parent_overview_exactly() {
        let mut files: Vec<(String, String)> =
            vec![("README.md".into(), "# Work\n\nDoes work.\n".into())];
        // Fifty functions that twenty files call, and forty that nothing calls.
        busy_functions(&mut files, "", "");
        for i in 0..40 {
            files.push((
                format!("src/q{i:02}/mod.py"),
                format!("def quiet{i}(x):\n    return x\n"),
            ));
        }
        let (t, listed, graph) = ranked(&files);
        let quiet = (0..40)
            .map(|i| format!("src/q{i:02}/mod.py"))
            .find(|p| graph.candidate(p).is_some() && !listed.symbols.iter().any(|s| &s.path == p))
            .expect("a candidate file lists no symbol");
        let original = files.iter().find(|(p, _)| *p == quiet).unwrap().1.clone();
        let added = format!("{original}\n\ndef unused_one(y):\n    return y\n");
        let (reused, fresh) = after(&t, &quiet, &added);
        assert_eq!(reused.as_deref(), Some(fresh.as_str()), "{quiet} reused");

        let busy = "src/u00/mod.py";
        assert!(
            listed.symbols.iter().any(|s| s.path == busy),
            "{busy} listed"
        );
        let content = "def run0(x=None):\n    return x\n\n\ndef spare():\n    pass\n";
        let (reused, _) = after(&t, busy, content);
        assert_eq!(reused, None, "{busy} recomputes");
    }

    /// A referenced name whose definition comes to be exported, or no longer, may enter or
    /// leave a package root's exports: the graph counts as changed, though every edge stays.
    /// A name nothing references may change so freely, and so may a referenced name whose
    /// exportability stays.
    #[test]
    fn a_referenced_name_that_comes_to_be_exported_changes_what_reuse_keeps() {
        let facts = |visibility: Option<&str>, other: &str| Analysis {
            code: Some(CodeFacts {
                language: "TypeScript".into(),
                symbols: ["helper", "spare"]
                    .into_iter()
                    .map(|name| crate::analyze::structure::SymbolFact {
                        qualified_name: name.into(),
                        kind: "function".into(),
                        signature: format!("function {name}()"),
                        cut_hash: None,
                        start_line: 1,
                        end_line: 1,
                        visibility: match name {
                            "helper" => visibility,
                            _ => Some(other),
                        }
                        .map(str::to_owned),
                        conditional: false,
                        deprecated: false,
                    })
                    .collect(),
                ..Default::default()
            }),
            ..Default::default()
        };
        let graph = GraphSummary {
            referenced: {
                let mut r = vec![name_hash("helper")];
                r.sort_unstable();
                r
            },
            ..Default::default()
        };
        let unchanged = |x: &Analysis, y: &Analysis| {
            graph_unchanged(&graph, b"src/h.ts", x, y, &mut Vec::new())
        };
        let (hidden, exported) = (facts(None, "exported"), facts(Some("exported"), "exported"));
        assert!(
            !unchanged(&hidden, &exported),
            "helper comes to be exported"
        );
        assert!(
            !unchanged(&exported, &hidden),
            "helper is no longer exported"
        );
        assert!(unchanged(&exported, &exported.clone()), "nothing changed");
        // `spare`, which nothing references, stops being exported.
        assert!(unchanged(&exported, &facts(Some("exported"), "private")));
        // Not in a file a package root hands over to: its own exports are the package's.
        let handed = GraphSummary {
            handed_roots: vec!["src/h.ts".into()],
            ..graph.clone()
        };
        let spare_private = facts(Some("exported"), "private");
        assert!(!graph_unchanged(
            &handed,
            b"src/h.ts",
            &exported,
            &spare_private,
            &mut Vec::new()
        ));
    }

    /// A module a package root hands on whole (`export * from "./schemas"`) gains an exported
    /// function nothing calls: the root's exports may name it, so the overview recomputes.
    #[test]
    fn an_edit_of_a_module_a_root_hands_on_whole_recomputes() {
        let mut files: Vec<(String, String)> = vec![
            ("README.md".into(), "# Work\n\nValidates data.\n".into()),
            (
                "src/index.ts".into(),
                // Its own definition: it hands on more than it hands over to.
                "export * from \"./schemas\";\n\nexport function version(): string {\n  return \"1\";\n}\n"
                    .into(),
            ),
            (
                "src/schemas.ts".into(),
                "export function string(): number {\n  return 1;\n}\n".into(),
            ),
        ];
        for i in 0..30 {
            files.push((
                format!("src/m{i:02}.ts"),
                format!("import {{ string }} from \"./schemas\";\n\nexport function f{i}(): number {{\n  return string();\n}}\n"),
            ));
        }
        let (t, _, graph) = ranked(&files);
        assert!(
            graph.handed_roots.iter().any(|p| p == "src/schemas.ts"),
            "{graph:?}"
        );
        let added = "export function string(): number {\n  return 1;\n}\n\nexport function object(): number {\n  return 2;\n}\n";
        let (reused, fresh) = after(&t, "src/schemas.ts", added);
        assert!(fresh.contains("\"object\""), "{fresh}");
        assert_eq!(reused, None, "a module handed on whole recomputes");
    }

    /// A listed type's members include what it inherits: an edit of the file of a class it
    /// extends recomputes, though that file lists no symbol and its new method is used by none.
    #[test]
    fn an_edit_of_a_class_a_listed_type_extends_recomputes() {
        let mut files: Vec<(String, String)> = vec![
            ("README.md".into(), "# Work\n\nServes pages.\n".into()),
            (
                "src/_base.py".into(),
                "class _Base:\n    def route(self, rule):\n        return rule\n".into(),
            ),
            (
                "src/app.py".into(),
                "from _base import _Base\n\n\nclass App(_Base):\n    def run(self):\n        return self\n"
                    .into(),
            ),
        ];
        // The list is full of the fifty busy functions and `App`, which the same files call,
        // while `_base.py` lists nothing.
        busy_functions(
            &mut files,
            "from app import App\n\n",
            "    return App().run()\n",
        );
        let (t, listed, graph) = ranked(&files);
        let app = listed
            .symbols
            .iter()
            .find(|s| s.name == "App")
            .expect("App listed");
        assert!(app.members.iter().any(|m| m == "route"), "{app:?}");
        assert!(
            !listed.symbols.iter().any(|s| s.path == "src/_base.py"),
            "{:?}",
            listed
                .symbols
                .iter()
                .map(|s| (&s.path, &s.name))
                .collect::<Vec<_>>()
        );
        assert_eq!(graph.member_sources, ["src/_base.py"]);
        let added = "class _Base:\n    def route(self, rule):\n        return rule\n\n    def mount(self):\n        return self\n";
        let (reused, fresh) = after(&t, "src/_base.py", added);
        assert!(fresh.contains("\"mount\""), "{fresh}");
        assert_eq!(reused, None, "inherited members recompute");
    }

    #[test]
    fn names_hash_as_fnv1a() {
        // The published FNV-1a test vectors: cached summaries depend on these values.
        assert_eq!(name_hash(""), 0x811c_9dc5);
        assert_eq!(name_hash("a"), 0xe40c_292c);
        assert_eq!(name_hash("foobar"), 0xbf9c_f968);
    }
}
