//! The `overview` view: what the project is, where to start, how to build and test it, and
//! what state the work tree is in, in a few hundred tokens.
//!
//! Content is ordered slow-changing first (identity, structure, commands) and fast-changing
//! last (recent commits, dirty paths), so consecutive cues share long stable prefixes.

use std::collections::{BTreeMap, HashMap, HashSet};

use serde::{Deserialize, Serialize};

use crate::analyze::graph::NameWeights;
use crate::analyze::importance;
use crate::analyze::manifest::ManifestFacts;
use crate::analyze::structure::SymbolFact;
use crate::analyze::Analysis;
use crate::api::views::*;
use crate::api::{Commit, Cue, CueRequest, More, View};
use crate::cue::envelope::envelope;
use crate::cue::fit::{fit, Item, Section};
use crate::error::Result;
use crate::model::{FileClass, FileState, FileType, WorkingState};
use crate::paths;
use crate::read::Reader;

mod reuse;

const SECTION_NAMES: [&str; 10] = [
    "purpose",
    "languages",
    "components",
    "entry_points",
    "commands",
    "documents",
    "recent_commits",
    "working_tree_paths",
    "symbols",
    "totals",
];

/// What the overview derives from the whole snapshot: computed once per snapshot and cached,
/// so a warm overview never loads every file row.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct OverviewData {
    name: String,
    purpose: Option<(String, String)>,
    /// The README's status notice, with the README's path ([`Project::notice`]).
    #[serde(default)]
    notice: Option<(String, String)>,
    #[serde(default)]
    dependencies: Vec<String>,
    #[serde(default)]
    requires: Option<String>,
    #[serde(default)]
    license: Option<License>,
    totals: Totals,
    languages: Vec<LanguageCount>,
    components: Vec<Component>,
    entry_points: Vec<String>,
    /// What the entry points that are package roots export, in their order.
    #[serde(default)]
    exports: Vec<EntryExports>,
    /// The names each root exports past its first [`EXPORT_NAMES`], shown at larger budgets.
    #[serde(default)]
    more_exports: Vec<EntryExports>,
    commands: Vec<(bool, CommandRef)>,
    documents: Vec<DocumentRef>,
    symbols: Vec<SymbolEntry>,
}

#[cfg(test)]
fn compute_data(state: &Reader, dir_name: &str) -> Result<OverviewData> {
    Ok(compute(state, dir_name)?.0)
}

/// Computes the overview data of the reader's snapshot from its file rows and facts, with the
/// summary of its ranking.
fn compute(state: &Reader, dir_name: &str) -> Result<(OverviewData, reuse::GraphSummary)> {
    let files = state.files()?;
    let readme = displayed_readme(files);
    let mut facts = load_facts(state, readme)?;
    let listed_documents: Vec<&FileState> = listed_documents(files, readme, &facts)
        .into_iter()
        .take(MAX_DOCUMENTS * 2)
        .collect();
    document_titles(state, &listed_documents, &mut facts)?;
    let listed_documents: Vec<&FileState> = listed_documents
        .into_iter()
        .filter(|f| !is_bare_text(state, f, &facts))
        .take(MAX_DOCUMENTS)
        .collect();
    let adopted = adopt_nested_solution(files, &mut facts);
    let mut root_manifests: Vec<(&FileState, &ManifestFacts)> = manifests(files, &facts, |p| {
        !p.contains(&b'/') || adopted.as_deref() == Some(p)
    });
    let minor = minor_languages(files, &mut root_manifests);
    let main_ecosystem = |m: &ManifestFacts| {
        ecosystem_languages(&m.kind).is_none_or(|langs| !langs.iter().any(|l| minor.contains(l)))
    };
    // The workspace members a minor ecosystem declares are no parts of the project: rails's
    // `package.json` names the three gems that ship JavaScript, which came before
    // `activerecord/` and `actionpack/`.
    let main_manifests: Vec<(&FileState, &ManifestFacts)> = root_manifests
        .iter()
        .filter(|(_, m)| main_ecosystem(m))
        .copied()
        .collect();
    // A monorepo's private root package is often named for its place, not the project
    // (trpc's `"name": "root"`): no name, the directory's is.
    let placeholder = |n: &String| {
        ["root", "monorepo", "workspace", "workspace-root"]
            .iter()
            .any(|p| n.eq_ignore_ascii_case(p))
    };
    // Where no manifest names the project, a README titled by a name names it: a checkout's
    // directory is often named for a branch, a task or a worktree (`main`, `fix-1234`).
    let titled = || {
        let doc = facts.get(readme?.digest.as_deref()?)?.doc.as_ref()?;
        doc.title.clone().filter(|t| is_a_name(t))
    };
    let name = root_manifests
        .iter()
        .filter(|(_, m)| main_ecosystem(m))
        .find_map(|(_, m)| m.name.clone().filter(|n| !placeholder(n)))
        .or_else(titled)
        .unwrap_or_else(|| dir_name.to_owned());
    let dependencies: Vec<String> = root_manifests
        .iter()
        .filter(|(_, m)| main_ecosystem(m))
        .map(|(_, m)| m.dependencies.clone())
        .find(|d| !d.is_empty())
        .unwrap_or_default();
    let requires = root_manifests
        .iter()
        .filter(|(_, m)| main_ecosystem(m))
        .find_map(|(_, m)| m.requires.clone());
    let license_name = root_manifests
        .iter()
        .filter(|(_, m)| main_ecosystem(m))
        .find_map(|(_, m)| m.license.clone());
    // Purpose: README sentence first, then a manifest description.
    let description = root_manifests
        .iter()
        .filter(|(_, m)| main_ecosystem(m))
        .find_map(|(f, m)| Some((m.description.clone()?, paths::display(&f.path))));
    let purpose = readme
        .and_then(|f| {
            let doc = facts.get(f.digest.as_deref()?)?.doc.as_ref()?;
            let purpose = readme_purpose(doc, &name)?;
            // A README that defines another thing than the project (serde_json's opens with
            // "Serde is a framework for serializing and deserializing Rust data structures
            // …", its parent's purpose) gives way to the manifest's description ("A JSON
            // serialization file format").
            if defines_another(&purpose, &name, doc.title.as_deref()) && description.is_some() {
                return None;
            }
            // So does a sentence about the name itself: tqdm's README opens with where its
            // name comes from ("tqdm derives from the Arabic word taqaddum …"), its
            // pyproject says "Fast, Extensible Progress Meter".
            if about_the_name(&purpose) && description.is_some() {
                return None;
            }
            // So does a sentence that neither names nor defines anything, where the manifest
            // describes the project by its name: PHPMailer's README opens its prose with "Many
            // PHP developers need to send email from their code.", its composer.json says
            // "PHPMailer is a full-featured email creation and transfer class for PHP".
            let names_project = |text: &str| names_the_project(text, &name);
            let describes = description.as_ref().is_some_and(|(d, _)| names_project(d));
            if describes && !names_project(&purpose) && !crate::analyze::docs::defines(&purpose) {
                return None;
            }
            Some((purpose, paths::display(&f.path)))
        })
        .or(description);
    let notice = readme.and_then(|f| {
        let doc = facts.get(f.digest.as_deref()?)?.doc.as_ref()?;
        Some((doc.notice.clone()?, paths::display(&f.path)))
    });
    // Languages with their file counts (documents and data formats count too: they are what is
    // there), ordered by the project's own files that are not documents, a code file weighing
    // as [`CODE_FILE_WEIGHT`] data files: thousands of JSON or JavaScript test fixtures do not
    // make a TypeScript project a JSON one, nor a thousand manual pages a C project an
    // AsciiDoc one, nor redis's 403 JSON command descriptions beside 190 C files. Below that
    // weight, the rest by their files: starlette's one YAML, HTML and TOML file came before its
    // 30 Markdown documents and 10 Shell scripts.
    let mut langs: BTreeMap<&str, (u64, u64)> = BTreeMap::new();
    for f in files {
        if let Some(l) = f.language.as_deref().map(shown_language) {
            let e = langs.entry(l).or_default();
            e.0 += 1;
            e.1 +=
                u64::from(!f.is_document && importance::role(&f.path) == importance::Role::Source);
        }
    }
    // In a repository of documents the documents are what is there, first (tldr's 38,000
    // Markdown pages beside a few scripts).
    let of_documents = is_document_project(files);
    let mut langs: Vec<(&str, (u64, u64))> = langs
        .into_iter()
        .map(|(l, (n, own))| {
            let code = is_programming_language(l);
            // A data format's few files of the project's own weigh nothing: a repository of
            // configuration is still one of YAML, but not one with a CI file.
            let weight = match code {
                true => own * CODE_FILE_WEIGHT,
                false if own >= CODE_FILE_WEIGHT => own,
                false => 0,
            };
            (l, (n, weight))
        })
        .collect();
    if of_documents {
        langs.sort_by(|a, b| b.1 .0.cmp(&a.1 .0).then(a.0.cmp(b.0)));
    } else {
        // A language of a few own files beside the main one's is no part of what the project
        // is written in: with the rest, code before data and documents, each by its files
        // (zstd's ten Windows build scripts came before its 93 Shell test scripts, which
        // pushed Shell out of 250 tokens).
        let heaviest = langs.iter().map(|(_, (_, w))| *w).max().unwrap_or(0);
        // (One own file beside the heaviest language's is never more than a minor one: a
        // tiny repository's single Windows script.)
        let major = |w: u64| {
            w > 0 && w * MINOR_LANGUAGE_SHARE > heaviest && (w > CODE_FILE_WEIGHT || w == heaviest)
        };
        langs.sort_by(|a, b| {
            let key = |(l, (n, w)): &(&str, (u64, u64))| {
                let major = major(*w);
                (
                    major,
                    if major { *w } else { 0 },
                    is_programming_language(l),
                    *n,
                )
            };
            key(b).cmp(&key(a)).then(a.0.cmp(b.0))
        });
    }
    let langs: Vec<(&str, u64)> = langs.into_iter().map(|(l, (n, _))| (l, n)).collect();
    let member_manifests = manifests(files, &facts, |p| {
        (1..=2).contains(&p.iter().filter(|&&b| b == b'/').count())
    });
    let mut declared = entry_points(files, &root_manifests, &member_manifests, &[], &name);
    let built = built_entry_points(files, root_manifests.iter().chain(&member_manifests));
    for b in &built {
        if !declared.contains(b) {
            declared.push(b.clone());
        }
    }
    // The programs builds run (Cargo's `build = "build/main.rs"`, bat's): no entry points.
    let build_scripts: Vec<Vec<u8>> = root_manifests
        .iter()
        .chain(&member_manifests)
        .flat_map(|(f, m)| {
            let dir = &f.path[..f.path.len() - paths::file_name(&f.path).len()];
            m.build_scripts
                .iter()
                .map(move |b| [dir, b.as_bytes()].concat())
        })
        .collect();
    let namespaces = namespace_roots(root_manifests.iter().chain(&member_manifests));
    let declaring = declaring_packages(root_manifests.iter().chain(&member_manifests));
    let code = code_summary(
        state,
        &name,
        (&declared, &built, &namespaces, &declaring),
        &dependencies,
        &build_scripts,
    )?;
    // A workspace whose root says nothing of its purpose, runtime or license says what the
    // member users install says (MediatR's `MediatR.sln` at the root, `src/MediatR/MediatR.csproj`
    // with its target frameworks and `PackageLicenseExpression`).
    let members = match purpose.is_none() || requires.is_none() || license_name.is_none() {
        true => ordered_members(state, files, &main_manifests, &code.file_rank)?,
        false => Vec::new(),
    };
    let purpose = match purpose {
        Some(p) => Some(p),
        None => member_purpose(state, files, &members)?,
    };
    let member_fact = |fact: fn(&ManifestFacts) -> Option<String>| {
        members
            .iter()
            .find_map(|(_, m)| m.as_ref().and_then(|(_, m)| fact(m)))
    };
    let requires = requires.or_else(|| member_fact(|m| m.requires.clone()));
    let license = license(
        state,
        files,
        license_name.or_else(|| member_fact(|m| m.license.clone())),
    )?;
    // A Java package root is its `package-info.java`, a package's documentation: a program's
    // `main` comes first (spring-petclinic's 250 tokens listed `owner/package-info.java`
    // alone, not `PetClinicApplication.java`).
    let package_doc = |r: &&String| r.ends_with("/package-info.java");
    let ranked_entries: Vec<String> = (code.roots.iter().filter(|r| !package_doc(r)))
        .chain(&code.mains)
        .chain(code.roots.iter().filter(package_doc))
        .cloned()
        .collect();
    let mut entries = entry_points(
        files,
        &root_manifests,
        &member_manifests,
        &ranked_entries,
        &name,
    );
    if !minor.is_empty() {
        let language: HashMap<&[u8], &str> = files
            .iter()
            .filter_map(|f| Some((f.path.as_slice(), f.language.as_deref()?)))
            .collect();
        let in_minor = |e: &String| {
            language
                .get(e.as_bytes())
                .is_some_and(|l| minor.contains(l))
        };
        // Stable: the main ecosystems' entry points keep their order, then the others'.
        entries.sort_by_key(in_minor);
    }
    let entries: Vec<String> = with_delegates(entries, &code.delegates)
        .into_iter()
        .take(20)
        .collect();
    // A root that hands on another's names lists its own (rayon's `src/lib.rs` re-exports
    // `ThreadPool` and `scope` from `rayon-core/src/lib.rs`, listed above it): each name once.
    let mut listed: HashSet<&str> = HashSet::new();
    let mut exported = |take: usize| -> Vec<EntryExports> {
        entries
            .iter()
            .filter_map(|e| {
                let names: Vec<String> = code
                    .exports
                    .get(e)?
                    .iter()
                    .filter(|n| listed.insert(n.as_str()))
                    .take(take)
                    .cloned()
                    .collect();
                (!names.is_empty()).then(|| EntryExports {
                    path: e.clone(),
                    names,
                })
            })
            .collect()
    };
    // The first few of each root, then the rest of them (http's root re-exports twelve names;
    // `StatusCode` and `HeaderName` were never listed, even at 2,000 tokens).
    let exports = exported(EXPORT_NAMES);
    let more_exports = exported(2 * EXPORT_NAMES);
    // What the overview says of the project before its documents: a title that only repeats
    // it is left out.
    let said = format!(
        "{name} {}",
        purpose.as_ref().map_or("", |(p, _)| p.as_str())
    );
    let mut commands = commands(files, &facts, &root_manifests);
    commands.truncate(30);
    let data = OverviewData {
        name,
        purpose,
        notice,
        dependencies: code.dependencies.clone(),
        requires,
        license,
        totals: totals(state.store.counts_at(&state.snapshot)?),
        languages: langs
            .iter()
            .take(12)
            .map(|(l, n)| LanguageCount {
                language: (*l).into(),
                files: *n,
            })
            .collect(),
        components: components(files, &main_manifests, &code.file_rank, of_documents)
            .into_iter()
            .take(40)
            .collect(),
        symbols: code.symbols,
        entry_points: entries,
        exports,
        more_exports,
        commands,
        documents: documents(&listed_documents, &facts, &said),
    };
    Ok((data, code.graph))
}

/// The project's license ([`Project::license`]): the one its main manifest declares (`name`)
/// and its license file at the root, the first by name of those named `LICENSE`, `LICENCE`,
/// `COPYING` or `UNLICENSE` in any case, with or without an extension or a suffix
/// (`LICENSE-MIT`, `license.txt`). Where no manifest declares one, the license its file's text
/// is ([`crate::analyze::docs::spdx`]): Go, C and C++ have no manifest field for it. Several
/// license files of different licenses at the root are a choice of them (zstd's BSD
/// `LICENSE` and GPL-2.0 `COPYING`: `BSD-3-Clause OR GPL-2.0`).
fn license(state: &Reader, files: &[FileState], name: Option<String>) -> Result<Option<License>> {
    let mut found: Vec<&FileState> = files
        .iter()
        .filter(|f| !f.path.contains(&b'/') && crate::analyze::docs::is_license_file(&f.path))
        .collect();
    found.sort_by(|a, b| a.path.cmp(&b.path));
    let file = found.first().copied();
    let name = match name {
        Some(name) => Some(name),
        None => {
            let digests: Vec<&str> = found.iter().filter_map(|f| f.digest.as_deref()).collect();
            let mut facts = state.store.facts(&digests)?;
            let mut ids: Vec<String> = Vec::new();
            for d in digests {
                let id = facts.remove(d).and_then(|a| a.doc?.license);
                if let Some(id) = id.filter(|id| !ids.contains(id)) {
                    ids.push(id);
                }
            }
            (!ids.is_empty()).then(|| ids.join(" OR "))
        }
    };
    let file = file.map(|f| paths::display(&f.path));
    Ok((name.is_some() || file.is_some()).then_some(License { name, file }))
}

/// Counts every tracked file; secret and excluded ones also apart (they appear nowhere else).
fn totals(all: crate::store::FileCounts) -> Totals {
    Totals {
        files: all.files,
        bytes: all.bytes,
        documents: all.documents,
        secret_files: all.secret,
        excluded_files: all.excluded,
    }
}

/// Tells whether the overview of the reader's snapshot is served from its cache: built from
/// it without ranking anything.
pub(crate) fn is_warm(state: &Reader) -> Result<bool> {
    state.is_cached(DATA_KEY)
}

/// The key the overview data of a snapshot is cached under.
const DATA_KEY: &str = "overview";

/// The overview data of the reader's snapshot: cached, else brought up to date from an
/// earlier snapshot's ([`reuse`]), else computed, with the summary of the ranking later
/// snapshots reuse it by.
fn data(state: &Reader, dir_name: &str) -> Result<OverviewData> {
    state.cached(DATA_KEY, |state| {
        if let Some(data) = reuse::reused(state)? {
            return Ok(data);
        }
        let (data, graph) = compute(state, dir_name)?;
        state.cached_latest(reuse::GRAPH_KEY, |_| Ok(graph))?;
        Ok(data)
    })
}

/// Ranks items so that sections interleave: every section's first item comes before any
/// section's second, and so on, with `order` breaking ties between sections (0 first). Past
/// `top` items a section drops below every other section's top items.
fn tiered(i: usize, top: usize, order: i64) -> i64 {
    let round = if i < top { i as i64 } else { 10 + i as i64 };
    10_000 - round * 100 - order
}

/// The components' items: the workspace's members are listed in it, each a path: a
/// monorepo's packages are what a contributor looks for first, and as components of their own
/// four of them filled the room of a dozen paths.
fn component_items(components: Vec<Component>) -> Vec<Item<OverviewContent>> {
    let mut items = Vec::new();
    let workspace = components
        .iter()
        .find(|c| c.kind == "workspace")
        .map(|c| c.path.clone());
    let (mut listed, mut nested) = (0, 0);
    for comp in components {
        match &workspace {
            Some(ws) if comp.kind == "member" && comp.path.starts_with(ws.as_str()) => {
                let (ws, member) = (ws.clone(), comp.path);
                // Three a round, the first three with the workspace itself: a path costs a
                // fifth of a component or a symbol.
                let rank = tiered(nested / 3, 8, 4) - 1 - (nested % 3) as i64;
                nested += 1;
                items.push(Item::new(2, rank, move |c: &mut OverviewContent| {
                    if let Some(w) = c.components.iter_mut().find(|c| c.path == ws) {
                        w.members.push(member.clone());
                    }
                }));
            }
            _ => {
                items.push(Item::new(
                    2,
                    tiered(listed, 6, 4),
                    move |c: &mut OverviewContent| c.components.push(comp.clone()),
                ));
                listed += 1;
            }
        }
    }
    items
}

/// How many rounds after a command what it runs comes ([`CommandRef::runs`]).
const RUNS_DELAY: usize = 3;

/// Documents the overview offers in the first rounds, one a round.
const DOCUMENT_ROUNDS: usize = 5;

/// Most dependencies the overview names.
const MAX_DEPENDENCIES: usize = 3;

/// Orders dependencies by how many of the project's code files import them (declaration
/// order among equals), at most [`MAX_DEPENDENCIES`]: what the code is built on, not the
/// alphabetical head of a manifest. An import names a dependency when it is the dependency or
/// a path, module or item below it (`werkzeug.exceptions`, `serde::Serialize`,
/// `github.com/spf13/pflag`), in any case, with Cargo's `-` read as `_`.
fn by_use<'a>(dependencies: &[String], imports: impl Iterator<Item = &'a [String]>) -> Vec<String> {
    let names: Vec<String> = dependencies
        .iter()
        .map(|d| d.to_ascii_lowercase().replace('-', "_"))
        .collect();
    let mut uses = vec![0usize; dependencies.len()];
    for file in imports {
        let mut seen = vec![false; dependencies.len()];
        for import in file {
            let import = import.to_ascii_lowercase().replace('-', "_");
            for (i, name) in names.iter().enumerate() {
                let below = import
                    .strip_prefix(name.as_str())
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with(['/', '.', ':']));
                seen[i] |= below;
            }
        }
        for (u, s) in uses.iter_mut().zip(seen) {
            *u += usize::from(s);
        }
    }
    let mut order: Vec<usize> = (0..dependencies.len()).collect();
    // Stable: equal counts keep declaration order.
    order.sort_by_key(|&i| std::cmp::Reverse(uses[i]));
    order
        .into_iter()
        .take(MAX_DEPENDENCIES)
        .map(|i| dependencies[i].clone())
        .collect()
}

/// Builds the overview cue.
///
/// long-fn: one list of the overview's sections in their output order (content first, then
/// each section's ranked items); splitting it would scatter the order the output depends on.
pub(crate) fn build(state: &Reader, request: &CueRequest) -> Result<Cue> {
    let dir_name = state.name.clone();
    let d = data(state, &dir_name)?;
    let content = OverviewContent {
        project: Project {
            name: d.name.clone(),
            ..Default::default()
        },
        ..Default::default()
    };
    let env = envelope(state, request, content);
    let mut items: Vec<Item<OverviewContent>> = Vec::new();
    if let Some((text, source)) = d.purpose {
        items.push(Item::new(0, 20_000, move |c: &mut OverviewContent| {
            c.project.purpose = Some(RepositoryText {
                text: text.clone(),
                source: source.clone(),
                label: "repository-text".into(),
            })
        }));
    }
    if let Some((text, source)) = d.notice {
        // Right after the purpose: a deprecated project changes what an agent should do.
        items.push(Item::new(0, 19_999, move |c: &mut OverviewContent| {
            c.project.notice = Some(RepositoryText {
                text: text.clone(),
                source: source.clone(),
                label: "repository-text".into(),
            })
        }));
    }
    if let Some(requires) = d.requires {
        // With the second round: a few tokens that say what code may use, before any
        // section's second item.
        items.push(Item::new(
            0,
            tiered(1, 5, 0),
            move |c: &mut OverviewContent| c.project.requires = Some(requires.clone()),
        ));
    }
    if let Some(license) = d.license {
        // With the totals ([`TOTALS_ROUND`]), once every section has shown its first items: at
        // the third round (bench/quality, tuned repositories) it cost more facts at 500 tokens
        // than it named (text recall 0.8154 → 0.8066), with the totals nothing up to 500 and
        // ky's and yaml-cpp's license at 1,000 (0.8780 → 0.8836) and 2,000.
        items.push(Item::new(
            0,
            tiered(TOTALS_ROUND, 5, 0),
            move |c: &mut OverviewContent| c.project.license = Some(license.clone()),
        ));
    }
    if !d.dependencies.is_empty() {
        // With the third round: what the project is built on matters once every section
        // has its first two items.
        let deps = d.dependencies;
        items.push(Item::new(
            0,
            tiered(4, 5, 0),
            move |c: &mut OverviewContent| c.project.dependencies = deps.clone(),
        ));
    }
    for (i, lc) in d.languages.into_iter().enumerate() {
        items.push(Item::push(
            1,
            tiered(i, 2, 2),
            lc,
            |c: &mut OverviewContent| &mut c.languages,
        ));
    }
    items.extend(component_items(d.components));
    let entry_round: HashMap<String, usize> = d
        .entry_points
        .iter()
        .enumerate()
        .map(|(i, e)| (e.clone(), i))
        .collect();
    for (i, e) in d.entry_points.into_iter().enumerate() {
        items.push(Item::push(
            3,
            tiered(i, 4, 5),
            e,
            |c: &mut OverviewContent| &mut c.entry_points,
        ));
    }
    // A package root's exports follow it [`EXPORTS_DELAY`] rounds later (the next entry
    // points first), and only when it is listed.
    for x in d.exports {
        let Some(&i) = entry_round.get(&x.path) else {
            continue;
        };
        items.push(Item::when(
            3,
            tiered(i + EXPORTS_DELAY, 4 + EXPORTS_DELAY, 5),
            move |c: &mut OverviewContent| {
                let listed = c.entry_points.contains(&x.path);
                if listed {
                    c.exports.push(x.clone());
                }
                listed
            },
        ));
    }
    // The rest of a root's exports once every section has shown its top items.
    for x in d.more_exports {
        let Some(&i) = entry_round.get(&x.path) else {
            continue;
        };
        items.push(Item::when(
            3,
            tiered(MORE_EXPORTS_ROUND + i, 0, 5),
            move |c: &mut OverviewContent| {
                let listed = c.exports.iter_mut().find(|e| e.path == x.path);
                listed
                    .map(|e| e.names.extend(x.names.iter().cloned()))
                    .is_some()
            },
        ));
    }
    for (i, (primary, mut cmd)) in d.commands.into_iter().enumerate() {
        let top = if primary { 4 } else { 0 };
        // What the command runs comes rounds after the command: at 250 tokens an entry
        // point is worth more than the name of a test runner.
        let runs = std::mem::take(&mut cmd.runs);
        let command = cmd.command.clone();
        items.push(Item::push(
            4,
            tiered(i, top, 3),
            cmd,
            |c: &mut OverviewContent| &mut c.commands,
        ));
        if !runs.is_empty() {
            items.push(Item::when(
                4,
                tiered(i + RUNS_DELAY, top + RUNS_DELAY, 3),
                move |c: &mut OverviewContent| {
                    let listed = c.commands.iter_mut().find(|c| c.command == command);
                    listed.map(|c| c.runs.clone_from(&runs)).is_some()
                },
            ));
        }
    }
    // A document is a path and a title, a few tokens: five lead, not three (bench/quality:
    // git's SubmittingPatches and ripgrep's FAQ fit at 500 tokens, and held-out gson's
    // troubleshooting guide; text recall of the tuned repositories 0.786 → 0.791).
    for (i, doc) in d.documents.into_iter().enumerate() {
        items.push(Item::push(
            5,
            tiered(i, DOCUMENT_ROUNDS, 6),
            doc,
            |c: &mut OverviewContent| &mut c.documents,
        ));
    }
    // The central API is the largest group of what a new contributor must learn: once
    // re-exports rank it (bench/quality), two symbols per round find more than they cost.
    // The symbols after the first come after everything else (larger budgets only).
    for (i, mut s) in d.symbols.into_iter().enumerate() {
        let members = std::mem::take(&mut s.members);
        let also = std::mem::take(&mut s.also);
        let (path, name) = (s.path.clone(), s.name.clone());
        let rank = |delay: usize| match i < FIRST_SYMBOLS {
            true => tiered(i / 2 + delay, 5, 8) - (i % 2) as i64,
            false => tiered(LATE_ROUND + i + delay, 0, 8),
        };
        // A line names its symbol: the file's `also` no longer does (uvicorn's `also: is_dir`
        // then `124 def is_dir` at 2,400 tokens).
        items.push(Item::new(8, rank(0), move |c: &mut OverviewContent| {
            let own = last_segment(&s.name);
            for e in c.symbols.iter_mut().filter(|e| e.path == s.path) {
                e.also.retain(|n| n != own);
            }
            c.symbols.push(s.clone());
        }));
        // The file's other names, and a type's methods, come a few rounds after it: the next
        // symbols first; not those already on a line of their own.
        if !also.is_empty() {
            let (at, first) = (path.clone(), name.clone());
            items.push(Item::new(
                8,
                rank(ALSO_DELAY),
                move |c: &mut OverviewContent| {
                    let lines: Vec<String> = c
                        .symbols
                        .iter()
                        .filter(|e| e.path == at)
                        .map(|e| last_segment(&e.name).to_owned())
                        .collect();
                    let owner = c
                        .symbols
                        .iter_mut()
                        .find(|e| e.path == at && e.name == first);
                    if let Some(owner) = owner {
                        owner.also = also
                            .iter()
                            .filter(|n| !lines.contains(n))
                            .cloned()
                            .collect();
                    }
                },
            ));
        }
        if !members.is_empty() {
            let set = move |owner: &mut SymbolEntry| owner.members = members.clone();
            items.push(completing(&path, &name, rank(MEMBER_DELAY), set));
        }
    }
    // How large the repository is matters once every section has shown its first items
    // ([`TOTALS_ROUND`]).
    let totals = d.totals;
    items.push(Item::new(
        9,
        tiered(TOTALS_ROUND, 5, 9),
        move |c: &mut OverviewContent| c.totals = Some(totals.clone()),
    ));
    // The day is what tells a reader how recent the work is; the time of day costs tokens.
    let commits = state.snapshot.recent_commits.iter().map(|c| Commit {
        date: c.date.chars().take(10).collect(),
        ..c.clone()
    });
    for (i, commit) in commits.enumerate() {
        // The commits after the first two come every other round ([`LATER_COMMIT_STEP`]).
        let round = if i < 2 { i } else { LATER_COMMIT_STEP * i };
        items.push(Item::push(
            6,
            tiered(round, 2, 7),
            commit,
            |c: &mut OverviewContent| &mut c.recent_commits,
        ));
    }
    let (tree, first_paths) = working_tree_items(state)?;
    items.extend(tree);
    // The follow-up that returns everything: the same view with a budget that fits it all.
    let more = More::of(View::Overview, crate::cue::fit::full_budget(&env, &items));
    let sections: Vec<Section> = SECTION_NAMES
        .iter()
        .map(|n| {
            let s = Section::new(n, Some(more.clone()));
            // Dirty paths change with every edit; see `fit` for why that matters.
            match *n {
                "working_tree_paths" => s.volatile_holding(first_paths),
                // A list by weight: a fourth language never shows where the third did not
                // (sinatra's 500 tokens read `Ruby 156, Markdown 12, SCSS 4`, its 10 YAML
                // files cut).
                "languages" => s.in_order(),
                _ => s,
            }
        })
        .collect();
    fit(env, &sections, items)
}

/// An item that completes the listed symbol `name` of `path` (`set`), ranked `rank`. Should
/// the symbol itself not fit, there is nothing to complete: its omission is what is counted.
fn completing(
    path: &str,
    name: &str,
    rank: i64,
    set: impl Fn(&mut SymbolEntry) + 'static,
) -> Item<OverviewContent> {
    let (path, name) = (path.to_owned(), name.to_owned());
    Item::new(8, rank, move |c: &mut OverviewContent| {
        let owner = c
            .symbols
            .iter_mut()
            .find(|e| e.path == path && e.name == name);
        if let Some(owner) = owner {
            set(owner);
        }
    })
}

/// Work-tree paths: the first few of each kind matter as much as structure. Only the
/// unsettled rows can be dirty, so the whole file list is not needed. With the bytes the first
/// path of each kind (conflicted, staged, unstaged, deleted, untracked) takes.
fn working_tree_items(state: &Reader) -> Result<(Vec<Item<OverviewContent>>, u64)> {
    let mut items: Vec<Item<OverviewContent>> = Vec::new();
    // Secrets are never named: a changed secret file or an untracked one with a secret name.
    let mut wt: Vec<(u8, String)> = Vec::new();
    for f in state.store.unsettled_files_at(&state.snapshot)? {
        if f.class == FileClass::Secret {
            continue;
        }
        let p = paths::display(&f.path);
        match f.working_state {
            WorkingState::Conflicted => wt.push((0, p)),
            WorkingState::Staged => wt.push((1, p)),
            WorkingState::Unstaged => wt.push((2, p)),
            WorkingState::StagedUnstaged => {
                wt.push((1, p.clone()));
                wt.push((2, p));
            }
            WorkingState::Deleted => wt.push((3, p)),
            WorkingState::Clean => {}
        }
    }
    // Staged deletions and renames' old paths: no file of the snapshot, staged all the same.
    for r in &state.snapshot.removed {
        if !state.secret_untracked(r) {
            wt.push((1, paths::display(r)));
        }
    }
    wt.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
    for u in &state.snapshot.untracked {
        if !state.secret_untracked(u) {
            wt.push((4, paths::display(u)));
        }
    }
    let mut per_kind = [0i64; 5];
    // The bytes of the first path of each kind, with its label.
    let mut first = 0u64;
    for (kind, p) in wt {
        let k = kind as usize;
        if per_kind[k] == 0 {
            first += (p.len() + "unstaged \"\": [],".len()) as u64;
        }
        // Kinds interleave too: the first conflicted, staged, unstaged... path each come first.
        let rank = tiered(per_kind[k] as usize, 5, 1) - k as i64 * 10 + 9;
        per_kind[k] += 1;
        items.push(Item::new(7, rank, move |c: &mut OverviewContent| {
            let list = match kind {
                0 => &mut c.working_tree.conflicted,
                1 => &mut c.working_tree.staged,
                2 => &mut c.working_tree.unstaged,
                3 => &mut c.working_tree.deleted,
                _ => &mut c.working_tree.untracked,
            };
            list.push(p.clone());
        }));
    }
    Ok((items, first))
}

/// The README a repository's visitors see: the root's, else where GitHub shows one from when
/// the root has none, `.github/`, then `docs/` (imgui's `docs/README.md`; its overview had no
/// purpose; FluentValidation's `.github/README.md` was no document either).
fn displayed_readme(files: &[FileState]) -> Option<&FileState> {
    readme_in(files, b"")
        .or_else(|| linked_readme(files))
        .or_else(|| readme_in(files, b".github"))
        .or_else(|| readme_in(files, b"docs"))
}

/// The document a README at the root links to when it is a symbolic link, as GitHub shows it
/// (axum's `README.md` → `axum/README.md`; the overview had no README and named the project
/// after its directory). A link's digest is its target's text's, so the target is found
/// among the documents without reading the work tree.
fn linked_readme(files: &[FileState]) -> Option<&FileState> {
    let link = files.iter().find(|f| {
        f.file_type == FileType::Symlink
            && !f.path.contains(&b'/')
            && f.path.to_ascii_uppercase().starts_with(b"README")
    })?;
    let target = link.digest.as_deref()?;
    files.iter().filter(|f| f.is_document).find(|f| {
        let dotted = [b"./".as_slice(), &f.path].concat();
        crate::digest::hex_sha256(&f.path) == target || crate::digest::hex_sha256(&dotted) == target
    })
}

/// The README right in directory `dir` (`b""`: the root): a plain `README` before one with a
/// suffix (`README-VIM.md`), Markdown before reStructuredText before none and others, then by
/// path.
fn readme_in<'a>(files: &'a [FileState], dir: &[u8]) -> Option<&'a FileState> {
    files
        .iter()
        .filter(|f| {
            let parent = &f.path[..f.path.len() - paths::file_name(&f.path).len()];
            f.is_document && parent.strip_suffix(b"/").unwrap_or(parent) == dir
        })
        .filter(|f| {
            paths::file_name(&f.path)
                .to_ascii_uppercase()
                .starts_with(b"README")
        })
        .min_by_key(|f| {
            // `README.md` before `README-VIM.md` (fzf's Vim integration) and a translation,
            // `README.cn.md` (rich's), which sort first.
            let name = paths::file_name(&f.path);
            let stem = match name.iter().rposition(|&b| b == b'.') {
                Some(dot) if dot > 0 => &name[..dot],
                _ => name,
            };
            let plain = stem.eq_ignore_ascii_case(b"README");
            (!plain, readme_rank(&f.path), f.path.clone())
        })
}

fn readme_rank(path: &[u8]) -> u8 {
    match paths::extension(path).as_deref() {
        Some("md") => 0,
        Some("rst") => 1,
        None => 2,
        _ => 3,
    }
}

/// Whether a text names the project by the last part of its name, as a word.
fn names_the_project(text: &str, project: &str) -> bool {
    let key = last_name(project).to_lowercase();
    text.to_lowercase()
        .split(|c: char| !(c.is_alphanumeric() || matches!(c, '-' | '_' | '.')))
        .any(|w| w.trim_end_matches('.') == key)
}

/// A README's purpose sentence, or its defining sentence when that one names the project and
/// the purpose does not (fastify's README opens with "An efficient server implies a lower
/// cost of the infrastructure…", then says "Fastify is a web framework…").
fn readme_purpose(doc: &crate::analyze::docs::DocFacts, project: &str) -> Option<String> {
    let names = |text: &str| names_the_project(text, project);
    // A definition of the project ("Werkzeug is a comprehensive WSGI web application
    // library.") before a purpose that does not name it, or names it without saying what it
    // is (werkzeug's "*werkzeug* German noun: "tool".").
    let defines = crate::analyze::docs::defines;
    match (&doc.purpose, &doc.definition) {
        (Some(p), Some(d)) if (!names(p) || !defines(p)) && names(d) => Some(d.clone()),
        (p, _) => p.clone(),
    }
}

/// Whether a sentence defines something other than the project: its subject
/// ([`crate::analyze::docs::subject`]), letters and digits only, is neither the project's
/// name nor the README's title, nor contains the name ("Dear ImGui" is imgui); and either
/// the README is titled with the project's name (serde_json's "Serde JSON", whose first
/// sentence defines Serde) or the name does not contain the subject (svelte's package
/// `svelte-monorepo` is Svelte's).
fn defines_another(sentence: &str, project: &str, title: Option<&str>) -> bool {
    let norm = |s: &str| -> String {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect()
    };
    let Some(subject) =
        crate::analyze::docs::subject(sentence).filter(|_| crate::analyze::docs::defines(sentence))
    else {
        return false;
    };
    let (subject, name) = (norm(subject), norm(last_name(project)));
    let title = title.map(norm);
    if subject.is_empty()
        || name.is_empty()
        || subject.contains(&name)
        || title.as_ref() == Some(&subject)
    {
        return false;
    }
    title.as_ref() == Some(&name) || !name.contains(&subject)
}

/// Whether a sentence tells where a name comes from or how it is said rather than what the
/// project does.
fn about_the_name(sentence: &str) -> bool {
    let lower = sentence.to_lowercase();
    [
        "derives from",
        "is derived from",
        "stands for",
        "is pronounced",
        "is an abbreviation",
        "is an acronym",
        "is named after",
        "is short for",
        "comes from the",
    ]
    .iter()
    .any(|p| lower.contains(p))
}

/// A workspace member: its directory, and its manifest's path and facts when it has one.
type Member = (Vec<u8>, Option<(String, ManifestFacts)>);

/// A workspace's members, in the order that says which is the project users install: first
/// those no other member depends on, the one that depends on the most members first, then the
/// one whose code ranks highest; each with its manifest (its path and facts) when it has one
/// directly in its directory. Empty for no workspace.
fn ordered_members(
    state: &Reader,
    files: &[FileState],
    root: &[(&FileState, &ManifestFacts)],
    file_rank: &HashMap<Vec<u8>, f64>,
) -> Result<Vec<Member>> {
    let patterns: Vec<&str> = root
        .iter()
        .flat_map(|(_, m)| m.members.iter().map(String::as_str))
        .collect();
    if patterns.is_empty() {
        return Ok(Vec::new());
    }
    let dirs = crate::analyze::manifest::expand_members(
        &patterns,
        files.iter().map(|f| f.path.as_slice()),
    );
    let in_dir =
        |f: &FileState, d: &[u8]| f.path.starts_with(d) && f.path.get(d.len()) == Some(&b'/');
    // Each member's manifest, directly in its directory.
    let manifest_of = |d: &[u8]| {
        files.iter().find(|f| {
            f.path.len() > d.len() + 1
                && in_dir(f, d)
                && !f.path[d.len() + 1..].contains(&b'/')
                && crate::analyze::manifest::is_manifest(&f.path)
        })
    };
    let manifest_files: Vec<Option<&FileState>> = dirs.iter().map(|d| manifest_of(d)).collect();
    let digests: Vec<&str> = manifest_files
        .iter()
        .flatten()
        .filter_map(|f| f.digest.as_deref())
        .collect();
    let manifest_facts = state.store.facts(&digests)?;
    let manifests: Vec<Option<&ManifestFacts>> = manifest_files
        .iter()
        .map(|f| {
            manifest_facts
                .get((*f)?.digest.as_deref()?)?
                .manifest
                .as_ref()
        })
        .collect();
    let names: HashSet<&str> = manifests
        .iter()
        .flatten()
        .filter_map(|m| m.name.as_deref())
        .collect();
    let depended: HashSet<&str> = manifests
        .iter()
        .flatten()
        .flat_map(|m| m.dependencies.iter().map(String::as_str))
        .filter(|d| names.contains(d))
        .collect();
    type Ordered<'m> = (
        bool,
        usize,
        f64,
        &'m Vec<u8>,
        Option<(&'m FileState, &'m ManifestFacts)>,
    );
    // A member in a support directory (a benchmark, a test project, a tool) is no project
    // users install and says nothing of one: RestSharp's overview required `.NET net9.0`, its
    // benchmark's, though the library targets netstandard2.0 on.
    // Nor is a code generator (Autofac's `codegen/Autofac.CodeGen/`, whose netstandard2.0
    // stood for the library's net10.0;net8.0;netstandard2.1;netstandard2.0).
    let support = |d: &[u8]| {
        let top = paths::top_dir(d).unwrap_or(d);
        let file = [d, b"/x"].concat();
        importance::role(&file) != importance::Role::Source
            || component_rank(&format!("{}/", paths::display(top))) == 2
            || is_tool(&file)
    };
    let mut members: Vec<Ordered<'_>> = dirs
        .iter()
        .zip(manifest_files.iter().zip(&manifests))
        .map(|(d, (file, m))| {
            let mass = files
                .iter()
                .filter(|f| in_dir(f, d))
                .filter_map(|f| file_rank.get(&f.path))
                .sum();
            let name = m.and_then(|m| m.name.as_deref());
            let used = name.is_some_and(|n| depended.contains(n));
            let uses = m.map_or(0, |m| {
                m.dependencies
                    .iter()
                    .filter(|d| names.contains(d.as_str()))
                    .count()
            });
            (used, uses, mass, d, file.zip(*m))
        })
        .filter(|(_, _, _, d, _)| !support(d))
        .collect();
    members.sort_by(|a, b| {
        a.0.cmp(&b.0)
            .then(b.1.cmp(&a.1))
            .then(b.2.total_cmp(&a.2))
            .then(a.3.cmp(b.3))
    });
    Ok(members
        .into_iter()
        .map(|(_, _, _, dir, m)| {
            let m = m.map(|(f, m)| (paths::display(&f.path), m.clone()));
            (dir.clone(), m)
        })
        .collect())
}

/// For a workspace whose root says nothing of its purpose, the purpose its members' READMEs
/// give, else their manifests' descriptions, the members read in [`ordered_members`]' order:
/// tokio-rs/axum's root `README.md` is a symlink to `axum/README.md` (a symlink is tracked as
/// its link text) and its root `Cargo.toml` a workspace without a description. vuejs/core's
/// purpose was a note of `packages/reactivity/README.md`, the member its code ranks highest,
/// not `vue`'s "The progressive JavaScript framework for building modern web UI.".
fn member_purpose(
    state: &Reader,
    files: &[FileState],
    members: &[Member],
) -> Result<Option<(String, String)>> {
    for (dir, manifest) in members {
        let readme = readme_in(files, dir);
        if let Some((f, digest)) = readme.and_then(|f| Some((f, f.digest.as_deref()?))) {
            let facts = state.store.facts(&[digest])?;
            if let Some(p) = facts
                .get(digest)
                .and_then(|a| a.doc.as_ref()?.purpose.clone())
            {
                return Ok(Some((p, paths::display(&f.path))));
            }
        }
        // A description that says something (not just the package's name, as vue's
        // `@vue/shared` members' do).
        let described = manifest.as_ref().and_then(|(path, m)| {
            let d = m.description.as_deref()?;
            (d.split_whitespace().count() >= 4).then(|| (d.to_owned(), path.clone()))
        });
        if described.is_some() {
            return Ok(described);
        }
    }
    Ok(None)
}

/// The language a file is counted in: TypeScript with JSX (`.tsx`) is TypeScript, as
/// JavaScript with JSX is JavaScript (zustand's `TypeScript 22, TSX 13`, its `tests/` said to
/// be in `TSX`).
fn shown_language(language: &str) -> &str {
    match language {
        "TSX" => "TypeScript",
        other => other,
    }
}

/// The facts of the files the overview reads before it knows which documents it lists: the
/// manifests, the documents at the root and the README visitors see ([`displayed_readme`]):
/// its purpose and links. The titles of
/// the documents listed below the root are read with [`document_titles`], for the few the
/// overview lists: reading every document near the root (986 of git/git's) was a tenth of
/// computing its overview.
fn load_facts(state: &Reader, readme: Option<&FileState>) -> Result<HashMap<String, Analysis>> {
    let wanted: Vec<&str> = state
        .files()?
        .iter()
        .filter(|f| f.class.analysed())
        .filter(|f| {
            let depth = f.path.iter().filter(|&&b| b == b'/').count();
            (f.is_document && depth == 0)
                || (crate::analyze::manifest::is_manifest(&f.path) && depth <= 2)
                || crate::analyze::workflow::is_workflow(&f.path)
                || readme.is_some_and(|r| r.path == f.path)
        })
        .filter_map(|f| f.digest.as_deref())
        .collect();
    state.store.facts(&wanted)
}

/// Whether a plain-text file at the root or one level below, not a license, has nothing to
/// read: analysis found no title, heading, link or sentence in it, so it has no facts
/// ([`load_facts`] and [`document_titles`] loaded those of such files; a file whose analysis
/// is deferred or failed is a fault of the snapshot). A `requirements.txt` at the root or in `docs/` (Sphinx's) and
/// jekyll's `docs/latest_version.txt` (`4.4.1`) were listed among the documents.
fn is_bare_text(state: &Reader, f: &FileState, facts: &HashMap<String, Analysis>) -> bool {
    f.language.as_deref() == Some("Text")
        && !is_license(&document_stem(f))
        && f.class.analysed()
        && f.path.iter().filter(|&&b| b == b'/').count() <= 1
        && f.digest.as_deref().is_some_and(|d| !facts.contains_key(d))
        && !state.snapshot.faults.iter().any(|x| x.path == f.path)
}

/// Adds to `facts` those of the listed `documents` one level below the root, which
/// [`load_facts`] left out; their titles are all the overview takes from them.
fn document_titles(
    state: &Reader,
    documents: &[&FileState],
    facts: &mut HashMap<String, Analysis>,
) -> Result<()> {
    let wanted: Vec<&str> = documents
        .iter()
        .filter(|f| f.class.analysed() && f.is_document)
        .filter(|f| f.path.iter().filter(|&&b| b == b'/').count() == 1)
        .filter_map(|f| f.digest.as_deref())
        .filter(|d| !facts.contains_key(*d))
        .collect();
    if !wanted.is_empty() {
        facts.extend(state.store.facts(&wanted)?);
    }
    Ok(())
}

/// Orders the root manifests by the weight of what they build, a manifest of a minor
/// ecosystem last, and returns the minor ecosystems' languages. A manifest is minor when the
/// languages it builds hold under a tenth of the project's own code files: git/git's
/// `Cargo.toml` (a few Rust files beside ~1,000 C files) names neither the project nor its
/// first build command, and its `src/lib.rs` is not where a reader starts. Build systems of
/// any language (make, CMake, Meson, autotools, just) are never minor.
fn minor_languages(
    files: &[FileState],
    root: &mut [(&FileState, &ManifestFacts)],
) -> Vec<&'static str> {
    let mut code: HashMap<&str, u64> = HashMap::new();
    let mut total = 0u64;
    for f in files {
        let Some(l) = f.language.as_deref() else {
            continue;
        };
        let own = !f.is_document && importance::role(&f.path) == importance::Role::Source;
        if own && crate::analyze::structure::parser_language(&f.path, Some(l)).is_some() {
            *code.entry(l).or_default() += 1;
            total += 1;
        }
    }
    let minor = |kind: &str| {
        ecosystem_languages(kind).filter(|langs| {
            langs
                .iter()
                .map(|l| code.get(l).copied().unwrap_or(0))
                .sum::<u64>()
                * 10
                < total
        })
    };
    root.sort_by_key(|(_, m)| minor(&m.kind).is_some());
    let mut out: Vec<&'static str> = root
        .iter()
        .filter_map(|(_, m)| minor(&m.kind))
        .flatten()
        .copied()
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Whether a language is one programs are written in, parsed or not: PowerShell build scripts
/// weighed as data came after AutoMapper's Markdown and YAML, and so would a Kotlin or Perl
/// source tree.
fn is_programming_language(language: &str) -> bool {
    const UNPARSED: &[&str] = &[
        "Assembly",
        "Batchfile",
        "Clojure",
        "Dart",
        "Elixir",
        "Erlang",
        "Haskell",
        "Kotlin",
        "Lua",
        "Nim",
        "OCaml",
        "Objective-C",
        "Objective-C++",
        "Perl",
        "PowerShell",
        "R",
        "Scala",
        "Svelte",
        "Swift",
        "Tcl",
        "Vue",
        "Zig",
    ];
    crate::analyze::structure::parser_language(b"x", Some(language)).is_some()
        || UNPARSED.contains(&language)
}

/// The languages a manifest kind builds; `None` for build systems of any language.
fn ecosystem_languages(kind: &str) -> Option<&'static [&'static str]> {
    Some(match kind {
        "cargo" => &["Rust"],
        "npm" | "pnpm" => &["JavaScript", "TypeScript", "TSX"],
        "python" | "tox" | "nox" => &["Python"],
        "go" => &["Go"],
        "maven" | "gradle" => &["Java", "Kotlin", "Scala"],
        "ruby" => &["Ruby"],
        "composer" => &["PHP"],
        "dotnet" => &["C#"],
        _ => return None,
    })
}

/// A .NET repository often keeps its solution in its source directory and no build file at
/// its root (Newtonsoft.Json's `Src/Newtonsoft.Json.slnx`): then the one solution one directory
/// down stands for the root manifest, its members named from the root. Returns its path.
fn adopt_nested_solution(
    files: &[FileState],
    facts: &mut HashMap<String, Analysis>,
) -> Option<Vec<u8>> {
    let manifest_of = |f: &FileState| facts.get(f.digest.as_deref()?)?.manifest.as_ref();
    if files
        .iter()
        .any(|f| !f.path.contains(&b'/') && manifest_of(f).is_some())
    {
        return None;
    }
    let mut solutions = files.iter().filter(|f| {
        f.path.iter().filter(|&&b| b == b'/').count() == 1
            && manifest_of(f).is_some_and(|m| m.kind == "dotnet" && !m.members.is_empty())
    });
    let (one, None) = (solutions.next()?, solutions.next()) else {
        return None;
    };
    let dir = paths::display(&one.path[..one.path.len() - paths::file_name(&one.path).len()]);
    let m = facts.get_mut(one.digest.as_deref()?)?.manifest.as_mut()?;
    for member in &mut m.members {
        *member = format!("{dir}{member}");
    }
    Some(one.path.clone())
}

fn manifests<'a>(
    files: &'a [FileState],
    facts: &'a HashMap<String, Analysis>,
    keep: impl Fn(&[u8]) -> bool,
) -> Vec<(&'a FileState, &'a ManifestFacts)> {
    files
        .iter()
        .filter(|f| keep(&f.path))
        .filter_map(|f| Some((f, facts.get(f.digest.as_deref()?)?.manifest.as_ref()?)))
        .collect()
}

/// The project's parts, in the order a new contributor needs them: the workspace directories
/// that hold the members, the members by the rank of their code, then directories by kind
/// (source roots first) and the rank of their code; the first test and documentation
/// directories are brought forward, since where the tests live is among the first things to
/// learn. A directory whose files all lie in one subdirectory (`src/` of `src/flask/`) is
/// named by that subdirectory, and the most important source package is followed by its own
/// subpackages.
fn components<'a>(
    files: &'a [FileState],
    root: &[(&FileState, &ManifestFacts)],
    file_rank: &HashMap<Vec<u8>, f64>,
    of_documents: bool,
) -> Vec<Component> {
    let members: Vec<&str> = root
        .iter()
        .flat_map(|(_, m)| m.members.iter().map(String::as_str))
        .collect();
    let mut member_dirs =
        crate::analyze::manifest::expand_members(&members, files.iter().map(|f| f.path.as_slice()));
    // A directory with a `go.mod` of its own under a Go module is another module, which the
    // root's `go test ./...` does not reach (viper's `remote/`, chi's `_examples/rest/`). Not
    // one in a directory Go's tools skip (`_` or `.` first, `testdata`): testify's
    // `_codegen/`, the generator of its code, led its components as a member.
    if root.iter().any(|(f, _)| f.path == b"go.mod") {
        let skipped = |dir: &[u8]| {
            dir.split(|&b| b == b'/')
                .any(|s| s.starts_with(b"_") || s.starts_with(b".") || s == b"testdata")
        };
        let nested = files.iter().filter_map(|f| {
            let dir = f.path.strip_suffix(b"/go.mod")?;
            let tested = importance::role(&f.path) == importance::Role::Source && !skipped(dir);
            (tested && !member_dirs.iter().any(|m| m.as_slice() == dir)).then(|| dir.to_vec())
        });
        member_dirs.extend(nested.collect::<Vec<_>>());
    }
    // Each file's member directory, looked up once: the first member (in their order) that
    // is one of the file's directories.
    let member_index: HashMap<&[u8], usize> = member_dirs
        .iter()
        .enumerate()
        .rev()
        .map(|(i, m)| (m.as_slice(), i))
        .collect();
    let member: Vec<Option<&Vec<u8>>> = files
        .iter()
        .map(|f| {
            let ancestors = f.path.iter().enumerate().filter(|(_, &b)| b == b'/');
            ancestors
                .filter_map(|(i, _)| member_index.get(&f.path[..i]).copied())
                .min()
                .map(|i| &member_dirs[i])
        })
        .collect();
    // Whether each file is the project's own (no test, example or vendored file).
    let own: Vec<bool> = files
        .iter()
        .map(|f| importance::role(&f.path) == importance::Role::Source)
        .collect();
    let dir_of = |p: &[u8]| p[..p.iter().rposition(|&b| b == b'/').unwrap_or(0)].to_vec();
    let minor = importance::minor_families(
        files
            .iter()
            .zip(&own)
            .filter(|(_, &own)| own)
            .filter_map(|(f, _)| f.language.as_deref())
            .filter(|&l| crate::analyze::structure::parser_language(b"x", Some(l)).is_some()),
    );
    // Per top directory: the longest directory prefix all its files share.
    let mut common: BTreeMap<Vec<u8>, Vec<u8>> = BTreeMap::new();
    for (f, _) in files.iter().zip(&member).filter(|(_, m)| m.is_none()) {
        let Some(top) = paths::top_dir(&f.path) else {
            continue;
        };
        let dir = dir_of(&f.path);
        common
            .entry(top.to_vec())
            .and_modify(|c| *c = common_dir(c, &dir))
            .or_insert(dir);
    }
    // Per top directory that is a JVM source set's (`src/` of `src/main/java/`): the package
    // the project's own code there shares (jsoup's `src/main/java/org/jsoup/`), which names
    // that code rather than `src/`, whose tests and resources lie beside it.
    let mut jvm_packages: BTreeMap<Vec<u8>, Vec<u8>> = BTreeMap::new();
    // The same for the test source set (`src/test/java/`): the package its tests share
    // (commons-lang's `src/test/java/org/apache/commons/lang3/`), where they were counted
    // as `src/`, beside the main package, and read as XML by their resources.
    let mut jvm_tests: BTreeMap<Vec<u8>, Vec<u8>> = BTreeMap::new();
    for ((f, _), &own) in files
        .iter()
        .zip(&member)
        .zip(&own)
        .filter(|((_, m), _)| m.is_none())
    {
        let Some(top) = paths::top_dir(&f.path) else {
            continue;
        };
        let source_set = |set: &[u8]| {
            f.path[top.len()..]
                .strip_prefix(set)
                .and_then(|rest| rest.iter().position(|&b| b == b'/').map(|i| &rest[..i]))
                .is_some_and(importance::is_jvm_language_dir)
        };
        let map = match () {
            _ if own && source_set(b"/main/") => &mut jvm_packages,
            _ if source_set(b"/test/") => &mut jvm_tests,
            _ => continue,
        };
        let dir = dir_of(&f.path);
        map.entry(top.to_vec())
            .and_modify(|c| *c = common_dir(c, &dir))
            .or_insert(dir);
    }
    let mut dirs: BTreeMap<Vec<u8>, Tally<'_>> = BTreeMap::new();
    // The directories that hold workspace members (`packages/` of `packages/*`).
    let mut holders: BTreeMap<Vec<u8>, Tally<'_>> = BTreeMap::new();
    let holder_dirs: HashSet<Vec<u8>> = member_dirs
        .iter()
        .filter(|m| m.contains(&b'/'))
        .map(|m| dir_of(m))
        .collect();
    for ((f, m), &own) in files.iter().zip(&member).zip(&own) {
        let key = match m {
            Some(m) => Some(*m),
            None => paths::top_dir(&f.path).and_then(|t| {
                let under =
                    |p: &&Vec<u8>| f.path.starts_with(p) && f.path.get(p.len()) == Some(&b'/');
                jvm_packages
                    .get(t)
                    .filter(under)
                    .or_else(|| jvm_tests.get(t).filter(under))
                    .or_else(|| common.get(t))
            }),
        };
        let add = |map: &mut BTreeMap<Vec<u8>, Tally<'a>>, k: &[u8]| {
            Tally::add_to(map, k, f, own, file_rank)
        };
        match key {
            // The files beside the members are the workspace's too, not a second component
            // of the same path (Newtonsoft.Json's `Src/` solution and settings).
            Some(k) if m.is_none() && holder_dirs.contains(k) => add(&mut holders, k),
            Some(k) => add(&mut dirs, k),
            None => {}
        }
        if let Some(m) = m.filter(|m| m.contains(&b'/')) {
            add(&mut holders, &dir_of(m));
        }
    }
    // Directories that hold documents only, and packages of code named like documentation.
    let (mut documentation, mut code_named_docs) = (Vec::new(), Vec::new());
    // (rank, mass, component); see `component_rank` for the rank.
    let mut out: Vec<(u8, f64, Component)> = dirs
        .iter()
        // A hidden directory configures a tool (`.github/` CI, `.claude/` an agent's
        // instructions, `.devcontainer/` an editor's container): no part of the project.
        .filter(|(d, _)| !d.starts_with(b"."))
        .map(|(d, t)| {
            let member = member_dirs.contains(d);
            let c = t.component(d, if member { "member" } else { "directory" });
            // A directory of vendored or generated files only (by name or attribute) is
            // support, whatever it is called; so is a member of test fixtures.
            let by_content = t.kind_by_content(&c.path);
            match by_content {
                Some(2) => documentation.push(c.path.clone()),
                Some(0) => code_named_docs.push(c.path.clone()),
                _ => {}
            }
            let rank = match (t.own, by_content) {
                (0, _) => 2,
                // Files in no language (images, fonts) are assets, whatever the name says; files
                // of a build system only configure or port the build (cJSON's CMake package
                // configuration `library_config/`, zlib's `nintendods/` Makefile).
                _ if t.langs.keys().all(|l| BUILD_LANGUAGES.contains(l)) => 2,
                // A repository of documents is its documents (tldr's `pages/`).
                (_, Some(2)) if of_documents => 0,
                // Code in a directory named as one of data is code: hugo's Go package
                // `resources/`, ranked among the packages.
                (_, None) if is_data_named(&c.path) && t.code * 2 > t.files && t.mass > 0.0 => 1,
                _ => by_content.unwrap_or_else(|| match component_rank(&c.path) {
                    // A directory named by the one below it that holds all its files is no
                    // source root for being nested: gin's `codec/json/` came before its
                    // `render/` and `binding/`. A member is one wherever it lies.
                    0 if !member && !names_source_root(&c.path) => 1,
                    rank => rank,
                }),
            };
            // A source root by name in a language the project hardly writes in is no source
            // root of the project's: git's `src/` (seven Rust files beside a thousand of C),
            // ripgrep's `pkg/` (a Homebrew formula in Ruby).
            let minor_code = c
                .language
                .as_deref()
                .is_some_and(|l| minor.contains(&importance::language_family(l)));
            let rank = if rank == 0 && minor_code { 1 } else { rank };
            (rank, t.mass * importance::errors_dir_factor(&c.path), c)
        })
        .collect();
    // A source root by name that holds little of the project's ranked code is one package
    // among others: hugo's `modules/`, `source/` and `internal/` (a Go repository of packages
    // at the root) came before `hugolib/` and `tpl/`.
    if !of_documents {
        let heaviest = out
            .iter()
            .filter(|c| c.0 <= 1)
            .map(|c| c.1)
            .fold(0.0, f64::max);
        for c in out.iter_mut() {
            if c.0 == 0 && c.2.kind == "directory" && c.1 * LIGHT_ROOT < heaviest {
                c.0 = 1;
            }
        }
    }
    // The one holding the most-ranked code leads; the others rank among directories. Not one
    // of tests, examples or tools (syn's `tests/` of two test crates led its components).
    let lead = holders
        .iter()
        .filter(|(d, _)| component_rank(&format!("{}/", paths::display(d))) < 2)
        .max_by(|a, b| a.1.mass.total_cmp(&b.1.mass).then(b.0.cmp(a.0)))
        .map(|(d, _)| d.clone());
    for (d, t) in &holders {
        let kind = if Some(d) == lead.as_ref() {
            "workspace"
        } else {
            "directory"
        };
        out.push((0, t.mass, t.component(d, kind)));
    }
    // A Go module's root package is a component of its own (logrus's twenty root files, the
    // library every sub-package imports, were in no component; its `hooks/` led), and so is a
    // C or C++ library kept at the root alone, none of its own code in a directory (cJSON's
    // `cJSON.h` and `cJSON.c`: its only components were `tests/`, `fuzzing/` and
    // `library_config/`; git's root files are listed by its `builtin/` and `reftable/`).
    let go_module = root
        .iter()
        .any(|(f, m)| m.kind == "go" && f.path == b"go.mod");
    let at_root = |f: &FileState, languages: &[&str]| {
        !f.path.contains(&b'/')
            && f.language
                .as_deref()
                .is_some_and(|l| languages.contains(&l))
    };
    let root_languages: &[&str] = match go_module {
        true => &["Go"],
        false => &["C", "C++"],
    };
    let c_elsewhere = files.iter().zip(&own).any(|(f, &own)| {
        own && f.path.contains(&b'/')
            && f.language
                .as_deref()
                .is_some_and(|l| root_languages.contains(&l))
    });
    if go_module || !c_elsewhere {
        // Its tests beside it count as a directory's do (gin read `./ 3 Go` beside `render/ 6
        // Go`, the one without its `_test.go` files, the other with them); two of its own
        // files make it a package.
        let mut package: BTreeMap<Vec<u8>, Tally<'_>> = BTreeMap::new();
        let mut own_files = 0;
        for (f, &own) in files.iter().zip(&own) {
            if at_root(f, root_languages) {
                own_files += usize::from(own);
                Tally::add_to(&mut package, b".", f, own, file_rank);
            }
        }
        if let Some(t) = package.get(b".".as_slice()).filter(|_| own_files >= 2) {
            out.push((0, t.mass, t.component(b".", "directory")));
        }
    }
    // A Go module's `internal/` is what the compiler keeps from its users: one package among
    // the others at most, however much the root package imports it (gin's `internal/`, then
    // `internal/bytesconv/` and `internal/fs/` as its subpackages, came before `binding/`).
    if go_module {
        for c in out.iter_mut() {
            if c.2.path.split('/').next() == Some("internal") {
                c.0 = c.0.max(1);
            }
        }
    }
    // The top directories of the root package's own targets (a Cargo package's `src/` beside
    // its workspace members): the project's own code leads with the workspace (syn's `src/`
    // came after its `dev/` member and its tests).
    let root_package: Vec<&[u8]> = root
        .iter()
        .filter(|(_, m)| m.name.is_some())
        .flat_map(|(_, m)| m.entry_points.iter())
        .filter_map(|e| paths::top_dir(e.trim_start_matches("./").as_bytes()))
        .collect();
    let of_root_package = |c: &Component| {
        let top = c.path.split('/').next().unwrap_or_default();
        root_package.contains(&top.as_bytes())
    };
    out.sort_by(|a, b| {
        let kind = |c: &(u8, f64, Component)| match c.2.kind.as_str() {
            "workspace" => 0,
            "directory" if c.0 == 0 && of_root_package(&c.2) => 0,
            "member" if c.0 < 2 => 1,
            _ => 2,
        };
        (kind(a), a.0)
            .cmp(&(kind(b), b.0))
            .then(b.1.total_cmp(&a.1))
            .then(b.2.files.cmp(&a.2.files))
            .then(a.2.path.cmp(&b.2.path))
    });
    // The best source package's subpackages follow it (when no workspace lists the parts). A
    // package with one subpackage is that subpackage and a few files beside it: a second line
    // would say again what its line says (sinatra's `lib/sinatra/` of `lib/`, libuv's
    // `include/uv/` of `include/`).
    // A package whose files all lie in the subpackages listed gives its line to them: attrs'
    // `src/ 31` said again what `src/attr/ 23` and `src/attrs/ 8` say.
    if member_dirs.is_empty() {
        if let Some(i) = out.iter().position(|c| c.0 == 0) {
            let subs = subpackages(files, &out[i].2.path, file_rank);
            let subs: Vec<(f64, Component)> = match subs.len() > 1 {
                true => subs.into_iter().take(4).collect(),
                false => Vec::new(),
            };
            let covered = subs.iter().map(|(_, c)| c.files).sum::<u64>() == out[i].2.files;
            // After the other source roots: curl's `include/` (its public headers) came after
            // `lib/curlx/` and `lib/vtls/`.
            // (A repository of documents lists its pages' parts right after them: tldr's
            // `pages/common/` before the translations' `pages.fr/`.)
            let best = out[i].2.path.clone();
            let at = i
                + 1
                + out[i + 1..]
                    .iter()
                    .take_while(|c| !of_documents && c.0 == 0 && !c.2.path.starts_with(&best))
                    .count();
            for (j, (mass, c)) in subs.into_iter().enumerate() {
                out.insert(at + j, (0, mass, c));
            }
            // (A repository of documents keeps its pages' line: tldr's `pages/` of its
            // platforms' pages is what the repository is.)
            if covered && !of_documents {
                out.remove(i);
            }
        }
    }
    // A test's or an example's member in a directory of members listed beside it is named by
    // that directory's line: serilog's `test/Serilog.Tests/` by `test/`, svelte's
    // `playgrounds/sandbox/` (all of `playgrounds/`) by `playgrounds/`.
    let listed_holders: HashSet<String> = out
        .iter()
        .filter(|c| c.2.kind == "directory")
        .map(|c| c.2.path.clone())
        .filter(|p| holders.contains_key(p.trim_end_matches('/').as_bytes()))
        .collect();
    out.retain(|(rank, _, c)| {
        let holder = c
            .path
            .trim_end_matches('/')
            .rsplit_once('/')
            .map(|(h, _)| format!("{h}/"));
        !(c.kind == "member" && *rank == 2 && holder.is_some_and(|h| listed_holders.contains(&h)))
    });
    let out: Vec<Component> = out.into_iter().map(|c| c.2).collect();
    // A hidden directory of documents is tooling's (go-redis's `.claude/` of agent
    // instructions), not the project's documentation.
    let docs = |c: &Component| {
        let by_name = is_docs_dir(&c.path) && !code_named_docs.contains(&c.path);
        (by_name || documentation.contains(&c.path)) && !c.path.starts_with('.')
    };
    bring_forward(out, files.len() as u64, &docs)
}

/// Whether a path lies in a top directory of the maintainers' tools (`support/`, `scripts/`,
/// `tools/`, `ci/`, a hidden one): their definitions are no part of the API, whatever language
/// they are in (fmt's `support/` Python scripts outnumber its headers, and their `main()`,
/// `args = …` and `path = …` took three of its five overview symbols). Only the top directory:
/// Laravel's `src/Illuminate/Support/` is its API; and not documentation, whose directory may
/// be a package of code (cobra's Go package `doc/`, `GenMarkdownTree`).
fn in_support_top_dir(path: &[u8]) -> bool {
    paths::top_dir(path).is_some_and(|d| {
        d.starts_with(b".")
            || PROGRAM_SUPPORT_DIRS
                .iter()
                .chain(&["tools", "ci"])
                .any(|s| d.eq_ignore_ascii_case(s.as_bytes()))
    })
}

/// Directories whose programs are the maintainers' scripts, no entry point of the project
/// ([`code_summary`]).
const PROGRAM_SUPPORT_DIRS: &[&str] = &[
    "scripts",
    "script",
    "support",
    "extra",
    "hack",
    "maint",
    "maintenance",
];

/// The languages of build systems' files ([`components`]).
const BUILD_LANGUAGES: &[&str] = &[
    "Makefile",
    "CMake",
    "Meson",
    "Starlark",
    "Just",
    "Gradle",
    "Dockerfile",
];

/// How many times a source root by name may weigh less than the heaviest directory of code
/// and still lead as one ([`components`]).
const LIGHT_ROOT: f64 = 4.0;

/// Whether a top-level directory is named as one of data or assets (`resources/`, `assets/`).
fn is_data_named(dir: &str) -> bool {
    let top = dir.split('/').next().unwrap_or(dir);
    ["resources", "assets"]
        .iter()
        .any(|n| top.eq_ignore_ascii_case(n))
}

/// How many documents per code file make a repository one of documents, not code with its
/// documentation: git/git has about one (980 AsciiDoc pages, 1,000 C files), tldr a thousand.
const DOCUMENTS_PER_CODE_FILE: u64 = 10;

/// Whether the repository is one of documents (a handbook, a wiki, tldr's pages in forty
/// languages) rather than code: its documents outnumber its code files
/// [`DOCUMENTS_PER_CODE_FILE`] to one.
fn is_document_project(files: &[FileState]) -> bool {
    let (mut documents, mut code) = (0u64, 0u64);
    for f in files {
        documents += u64::from(f.is_document);
        code += u64::from(
            crate::analyze::structure::parser_language(&f.path, f.language.as_deref()).is_some(),
        );
    }
    documents > DOCUMENTS_PER_CODE_FILE * code.max(1)
}

/// Brings the first test directory and the first documentation directory of some size (2% of
/// the files) forward, right after the lead component.
fn bring_forward(
    mut out: Vec<Component>,
    files: u64,
    docs: &dyn Fn(&Component) -> bool,
) -> Vec<Component> {
    // A workspace's members are listed in it, in their own order: a test member brought
    // forward came before the library (AutoMapper's `src/UnitTests/` before `src/AutoMapper/`).
    let sizable = |c: &Component| c.files * 50 >= files && c.kind != "member";
    // Where the tests are, not their data: Go's tests lie beside the code, and gin's
    // `testdata/` (certificates and templates) came second, before its packages.
    let tests = |c: &Component| is_test_dir(&c.path) && !is_test_data_dir(&c.path);
    let wanted: [&dyn Fn(&Component) -> bool; 2] =
        [&|c| tests(c) && sizable(c), &|c| docs(c) && sizable(c)];
    for (k, wanted) in wanted.into_iter().enumerate() {
        let slot = (1 + k).min(out.len());
        if let Some(i) = out.iter().position(wanted) {
            if i > slot {
                let c = out.remove(i);
                out.insert(slot, c);
            }
        }
    }
    out
}

/// The directories right below `parent` that hold the project's own files, heaviest first.
fn subpackages<'a>(
    files: &'a [FileState],
    parent: &str,
    file_rank: &HashMap<Vec<u8>, f64>,
) -> Vec<(f64, Component)> {
    let mut subs: BTreeMap<Vec<u8>, Tally<'a>> = BTreeMap::new();
    // On bytes: a parent whose name is not UTF-8 (shown escaped) matches no path and lists no
    // subpackages.
    for f in files {
        let Some(rest) = f.path.strip_prefix(parent.as_bytes()) else {
            continue;
        };
        if let Some(slash) = rest.iter().position(|&b| b == b'/') {
            let d = &f.path[..parent.len() + slash];
            let own = importance::role(&f.path) == importance::Role::Source;
            Tally::add_to(&mut subs, d, f, own, file_rank);
        }
    }
    let mut subs: Vec<(f64, Component)> = subs
        .iter()
        .filter(|(d, t)| {
            t.own > 0
                && importance::role(&[d.as_slice(), b"/x"].concat()) == importance::Role::Source
        })
        .map(|(d, t)| (t.mass, t.component(d, "directory")))
        .collect();
    // Heaviest code first; then, code or none (a repository of documents), most files.
    subs.sort_by(|a, b| {
        b.0.total_cmp(&a.0)
            .then(b.1.files.cmp(&a.1.files))
            .then(a.1.path.cmp(&b.1.path))
    });
    subs
}

fn is_test_dir(dir: &str) -> bool {
    importance::role(format!("{dir}x").as_bytes()) == importance::Role::Test
}

/// A directory of what tests read (`testdata/`, `fixtures/`, `__mocks__/`), by its name.
fn is_test_data_dir(dir: &str) -> bool {
    let name = dir.trim_end_matches('/').rsplit('/').next().unwrap_or(dir);
    importance::TEST_DATA_DIRS
        .iter()
        .any(|d| name.eq_ignore_ascii_case(d))
}

fn is_docs_dir(dir: &str) -> bool {
    let name = dir.trim_end_matches('/');
    ["docs", "doc", "documentation"]
        .iter()
        .any(|d| name.eq_ignore_ascii_case(d))
}

/// The longest directory prefix two directories share.
fn common_dir(a: &[u8], b: &[u8]) -> Vec<u8> {
    let mut end = 0;
    let mut i = 0;
    while i < a.len() && i < b.len() && a[i] == b[i] {
        i += 1;
        let a_ends = i == a.len() || a[i] == b'/';
        if a_ends && (i == b.len() || b[i] == b'/') {
            end = i;
        }
    }
    a[..end].to_vec()
}

/// Files, the project's own files, languages and code rank under one directory.
#[derive(Default)]
struct Tally<'a> {
    files: u64,
    own: u64,
    /// Files in a language RepoCue parses for structure.
    code: u64,
    documents: u64,
    mass: f64,
    langs: BTreeMap<&'a str, u64>,
    /// Languages of the project's own files: not tests, fixtures or examples.
    code_langs: BTreeMap<&'a str, u64>,
}

impl<'a> Tally<'a> {
    /// Counts a file into the tally of directory `dir` (a key made only for a new directory).
    fn add_to(
        tallies: &mut BTreeMap<Vec<u8>, Tally<'a>>,
        dir: &[u8],
        f: &'a FileState,
        own: bool,
        file_rank: &HashMap<Vec<u8>, f64>,
    ) {
        match tallies.get_mut(dir) {
            Some(t) => t.add(f, own, file_rank),
            None => tallies
                .entry(dir.to_vec())
                .or_default()
                .add(f, own, file_rank),
        }
    }

    /// Counts a file in; `own` tells whether it is the project's own (its role is source).
    fn add(&mut self, f: &'a FileState, own: bool, file_rank: &HashMap<Vec<u8>, f64>) {
        self.files += 1;
        self.own += u64::from(f.class == FileClass::Source);
        self.documents += u64::from(f.is_document);
        self.code += u64::from(
            crate::analyze::structure::parser_language(&f.path, f.language.as_deref()).is_some(),
        );
        self.mass += file_rank.get(&f.path).copied().unwrap_or(0.0);
        if let Some(l) = f.language.as_deref().map(shown_language) {
            *self.langs.entry(l).or_default() += 1;
            if own {
                *self.code_langs.entry(l).or_default() += 1;
            }
        }
    }

    /// What the directory holds, when that overrules its name: `Some(0)` for a package of
    /// code named like documentation (cobra's Go package `doc/`), `Some(2)` for a directory
    /// of documents only (cobra's `site/content/`), which [`component_rank`] would take for
    /// source by its depth.
    fn kind_by_content(&self, dir: &str) -> Option<u8> {
        if is_docs_dir(dir) && self.code * 2 > self.files && self.mass > 0.0 {
            Some(0)
        } else if self.code == 0 && self.documents * 5 >= self.files * 4 {
            Some(2)
        } else {
            None
        }
    }

    /// Whether the languages `m` counts hold at least half the directory's code files.
    fn mostly_own_code(&self, m: &BTreeMap<&str, u64>) -> bool {
        let code = |(l, n): (&&str, &u64)| {
            let parsed = crate::analyze::structure::parser_language(b"x", Some(l)).is_some();
            if parsed {
                *n
            } else {
                0
            }
        };
        let counted: u64 = m.iter().map(code).sum();
        let all: u64 = self.langs.iter().map(code).sum();
        counted * 2 >= all
    }

    fn component(&self, dir: &[u8], kind: &str) -> Component {
        Component {
            kind: kind.into(),
            path: format!("{}/", paths::display(dir)),
            files: self.files,
            members: vec![],
            // A package is in the language of its code, not of its test fixtures (babel's
            // parser holds 13,000 JSON fixtures beside its TypeScript), unless most of its
            // code is no code of the project's own: Catch2's `tools/` of Python scripts (in
            // `scripts/`, the maintainers') read `C++` by its one program.
            language: [&self.code_langs, &self.langs]
                .into_iter()
                .find(|m| !m.is_empty() && self.mostly_own_code(m))
                .and_then(|m| {
                    // A code file weighs as [`CODE_FILE_WEIGHT`] data files or documents
                    // (redis's `src/`: 190 C files beside 403 JSON command descriptions); on a
                    // tie, code before a manifest or data file (`index.ts` over
                    // `package.json`), then by name.
                    let code = |l: &str| {
                        crate::analyze::structure::parser_language(b"x", Some(l)).is_some()
                    };
                    // In a directory named for documentation a script is an asset of its
                    // pages (fmt's `doc/`: five Markdown pages and a `fmt.js` read
                    // `JavaScript`); a package of code named so is still in its language.
                    let code_weight = match is_docs_dir(&format!("{}/", paths::display(dir))) {
                        true => 1,
                        false => CODE_FILE_WEIGHT,
                    };
                    let weight = |(l, n): (&&str, &u64)| n * if code(l) { code_weight } else { 1 };
                    m.iter().max_by(|a, b| {
                        weight(*a)
                            .cmp(&weight(*b))
                            .then(code(a.0).cmp(&code(b.0)))
                            .then(b.0.cmp(a.0))
                    })
                })
                .map(|(l, _)| (*l).to_owned()),
        }
    }
}

/// How many data files or documents one code file weighs as when a directory's language is
/// told: a package of code with its data is in the language of its code, a directory of
/// documents with a script or two (Sphinx's `conf.py`) in that of its documents.
const CODE_FILE_WEIGHT: u64 = 5;

/// A language whose own files weigh at most the heaviest's over this many is a minor one of
/// the project, ordered among the rest by its files in the overview's languages.
const MINOR_LANGUAGE_SHARE: u64 = 10;

/// Directory names of source roots, in any case ([`component_rank`]).
const SOURCE_ROOTS: &[&str] = &[
    "src",
    "lib",
    "libs",
    "pkg",
    "cmd",
    "internal",
    "crates",
    "packages",
    "app",
    "apps",
    "include",
    "core",
    "server",
    "client",
    "modules",
    "components",
    "builtin",
    "source",
    // Swift packages' (`Sources/Alamofire/`).
    "sources",
];

/// Whether a directory is, or lies below, a source root by name (`src/flask/`, Newtonsoft.Json's
/// `Src/Newtonsoft.Json/`).
fn names_source_root(dir: &str) -> bool {
    dir.split('/')
        .any(|part| SOURCE_ROOTS.contains(&part.to_ascii_lowercase().as_str()))
}

/// Orders top-level directories by what they hold: 0 source roots, 1 unknown, 2 support
/// (tests, examples, documentation, tooling, CI).
fn component_rank(dir: &str) -> u8 {
    const SUPPORT: &[&str] = &[
        "docs",
        "doc",
        "documentation",
        "scripts",
        "script",
        "tools",
        "ci",
        ".github",
        ".circleci",
        "contrib",
        "misc",
        "assets",
        "resources",
        "po",
        "translations",
        // CMake's modules and feature checks (google/benchmark's `cmake/`).
        "cmake",
        // A documentation site's sources (Humanizer's Docusaurus `website/`).
        "website",
    ];
    let d = dir.trim_end_matches('/');
    // Below a hidden or support directory is support too (`.github/workflows/`).
    let support =
        |part: &str| part.starts_with('.') || SUPPORT.contains(&part.to_ascii_lowercase().as_str());
    if d.split('/').any(support) {
        2
    } else if importance::role(format!("{d}/x").as_bytes()) != importance::Role::Source {
        // The project's own shims are a part of it, if none of its source roots.
        if d.split('/').any(importance::is_shim_dir) {
            1
        } else {
            2
        }
    } else if names_source_root(d) || d.contains('/') {
        0
    } else {
        1
    }
}

/// Where execution starts and what a package's users import first, per ecosystem: declared
/// entry points of the root manifest, then `ranked` (the best-ranked package roots and files
/// that define `main`, see [`code_summary`]), conventional mains, crate and package
/// roots (`lib.rs`, a top-level package's `__init__.py`, a Go module's root file), then the
/// entry points that workspace members' manifests declare.
fn entry_points(
    files: &[FileState],
    root: &[(&FileState, &ManifestFacts)],
    members: &[(&FileState, &ManifestFacts)],
    ranked: &[String],
    project: &str,
) -> Vec<String> {
    const CONVENTIONAL: &[&str] = &[
        "src/main.rs",
        "src/lib.rs",
        "main.go",
        "main.py",
        "__main__.py",
        "app.py",
        "manage.py",
        "index.js",
        "index.ts",
        "src/index.ts",
        "src/index.js",
        "src/main.ts",
        "src/main.js",
        "src/main.tsx",
        "src/App.tsx",
        "main.c",
        "src/main.c",
        "main.cpp",
        "src/main.cpp",
        "Program.cs",
        "src/main/java",
        "cmd",
        "bin",
    ];
    let tracked: std::collections::HashSet<&[u8]> =
        files.iter().map(|f| f.path.as_slice()).collect();
    let mut out: Vec<String> = Vec::new();
    // A declared path that is neither tracked nor built from a tracked source is build output
    // the checkout lacks (zustand's `"main": "./index.js"`): nothing to open. A script name
    // (`black`, a console script) is kept.
    let is_dir = |d: &str| {
        files
            .iter()
            .any(|f| f.path.starts_with(d.as_bytes()) && f.path.get(d.len()) == Some(&b'/'))
    };
    for (_, m) in root {
        for e in &m.entry_points {
            let e = e.trim_start_matches("./").trim_end_matches('/');
            // A console script's function (`scrapy.cmdline:execute`) is its module's file, or
            // the reference as written when no tracked file is that module.
            if let Some(reference) = python_reference(e) {
                let e = python_module_file(reference, "", &tracked).unwrap_or_else(|| e.to_owned());
                if !out.contains(&e) {
                    out.push(e);
                }
                continue;
            }
            let e = match source_counterpart(e, &tracked) {
                Some(source) => source,
                None if e.contains(['/', '.']) && !is_dir(e) => continue,
                None => e.to_owned(),
            };
            if !out.contains(&e) {
                out.push(e);
            }
        }
    }
    // A single-header C or C++ library at the top, named after the project (cpp-httplib's
    // `httplib.h`): the library itself, which every user includes, before its programs. So is
    // the umbrella header of a library's directory in `include/`, named after it
    // (google/benchmark's `include/benchmark/benchmark.h`, curl's `include/curl/curl.h`): its
    // Rust binding's `lib.rs` was its first entry point, and no header was one.
    for f in files {
        if (!f.path.contains(&b'/') && is_header_named_after(&f.path, project))
            || is_umbrella_header(&f.path)
        {
            let p = paths::display(&f.path);
            if !out.contains(&p) {
                out.push(p);
            }
        }
    }
    for e in ranked {
        // A Python package before its sub-packages: uvicorn's `supervisors/__init__.py`, which
        // hands on one class, came before `uvicorn/__init__.py`.
        for package in python_packages_above(e) {
            let listed = ranked.contains(&package)
                || (package.matches('/').count() == 1 && tracked.contains(package.as_bytes()))
                || (package.starts_with("src/") && package.matches('/').count() == 2);
            if listed && tracked.contains(package.as_bytes()) && !out.contains(&package) {
                out.push(package);
            }
        }
        if !out.contains(e) {
            out.push(e.clone());
        }
    }
    // A Go module's root package file is named after the module's last path component.
    let go_roots: Vec<String> = root
        .iter()
        .filter(|(_, m)| m.kind == "go")
        .filter_map(|(_, m)| Some(format!("{}.go", last_name(m.name.as_deref()?))))
        .collect();
    // Every file is looked at: on bytes, the path's role (the costly part) only for a file
    // whose place makes it a candidate.
    let mut conventional: Vec<(usize, String)> = Vec::new();
    // With a `src/` layout, a Python package beside `src/` is not what is installed (see
    // [`code_summary`]).
    let src_layout = files.iter().any(|f| is_src_layout_package(&f.path));
    for f in files {
        let p = f.path.as_slice();
        let name = paths::file_name(p);
        let depth = p.iter().filter(|&&b| b == b'/').count();
        let hit = CONVENTIONAL
            .iter()
            .position(|c| p == c.as_bytes())
            .or_else(|| {
                // Member crates' and commands' mains: crates/x/src/main.rs, cmd/tool/main.go.
                let main = depth <= 3
                    && (p.ends_with(b"/src/main.rs")
                        || (p.starts_with(b"cmd/") && name == b"main.go")
                        || name == b"__main__.py");
                // Package roots: a member crate's lib.rs, a top-level Python package.
                let root = (depth <= 3 && p.ends_with(b"/src/lib.rs"))
                    || (name == b"__init__.py" && depth == 1 && !src_layout)
                    || is_src_layout_package(p)
                    || go_roots.iter().any(|g| p == g.as_bytes());
                // The project's own: not an example's crate (reqwest's
                // `examples/wasm_github_fetch/src/lib.rs`), a test's or a vendored one.
                // (Nor a tool: syn's `codegen/src/main.rs`.)
                let own = || importance::role(p) == importance::Role::Source && !is_tool(p);
                ((main || root) && own()).then_some(CONVENTIONAL.len() + usize::from(root))
            });
        if let Some(rank) = hit {
            conventional.push((rank, paths::display(p)));
        }
    }
    conventional.sort();
    for (_, p) in conventional {
        if !out.contains(&p) {
            out.push(p);
        }
    }
    // Members' declared entry points (package.json `main`/`bin`, pyproject scripts' modules:
    // only existing files count), relative to the member's directory. The one named
    // after the project first: the project's own command (babel's `packages/babel-cli/bin/
    // babel.js`) before the helper programs of other members.
    let mut declared: Vec<String> = Vec::new();
    for (f, m) in members {
        let dir = match f.path.iter().rposition(|&b| b == b'/') {
            Some(i) => paths::display(&f.path[..=i]),
            None => continue,
        };
        for e in &m.entry_points {
            let p = match python_reference(e) {
                Some(reference) => match python_module_file(reference, &dir, &tracked) {
                    Some(file) => file,
                    None => continue,
                },
                None => format!("{dir}{}", e.trim_start_matches("./")),
            };
            // A test or example program is not where a newcomer starts (serilog's
            // `test/AotTestApp/Program.cs` was its only entry point), nor is a member in a
            // support directory (Humanizer's `tools/Humanizer.UnicodeDataGenerator/`) or a
            // tool's (syn's `codegen/`, whose manifest implies `src/main.rs`).
            let support = paths::top_dir(p.as_bytes())
                .is_some_and(|d| component_rank(&format!("{}/", paths::display(d))) == 2);
            let own = importance::role(p.as_bytes()) == importance::Role::Source
                && !support
                && !is_tool(p.as_bytes());
            if own && !out.contains(&p) && !declared.contains(&p) && tracked.contains(p.as_bytes())
            {
                declared.push(p);
            }
        }
    }
    // Stable: the others keep the members' order.
    declared.sort_by_key(|p| !named_after(p.as_bytes(), project));
    out.extend(declared);
    later_module_descriptors_last(out)
}

/// Moves every Java module descriptor after the first (`module-info.java`) to the end, the
/// others keeping their order: one module's exports say where a library's API is, a dozen
/// modules' descriptors crowd out its programs (slf4j's api, nop and simple modules'
/// descriptors were the three entry points of 250 tokens, its migrator's `Main.java` fourth).
fn later_module_descriptors_last(entries: Vec<String>) -> Vec<String> {
    let descriptor = |e: &String| paths::file_name(e.as_bytes()) == b"module-info.java";
    let first = entries.iter().position(descriptor);
    let (mut kept, mut later) = (Vec::new(), Vec::new());
    for (i, e) in entries.into_iter().enumerate() {
        match descriptor(&e) && Some(i) != first {
            true => later.push(e),
            false => kept.push(e),
        }
    }
    kept.append(&mut later);
    kept
}

/// Whether a file is the `__init__.py` of a Python package in a `src/` layout
/// (`src/urllib3/__init__.py`).
fn is_src_layout_package(path: &[u8]) -> bool {
    path.starts_with(b"src/")
        && path.ends_with(b"/__init__.py")
        && path.iter().filter(|&&b| b == b'/').count() == 2
}

/// The `__init__.py` of the packages a Python package's `__init__.py` lies in, outermost first
/// (`a/__init__.py` for `a/b/__init__.py`); none for any other file.
fn python_packages_above(init: &str) -> Vec<String> {
    let Some(dir) = init.strip_suffix("/__init__.py") else {
        return Vec::new();
    };
    dir.match_indices('/')
        .map(|(i, _)| format!("{}/__init__.py", &dir[..i]))
        .collect()
}

/// The module of a Python console script's reference (`scrapy.cmdline` of
/// `scrapy.cmdline:execute`), if the entry point is one.
fn python_reference(entry: &str) -> Option<&str> {
    let (module, function) = entry.split_once(':')?;
    let name = |s: &str| {
        !s.is_empty()
            && s.split('.')
                .all(|p| !p.is_empty() && p.chars().all(|c| c.is_alphanumeric() || c == '_'))
    };
    (name(module) && name(function)).then_some(module)
}

/// The tracked file of a Python module below `dir` (a member's directory, with its `/`, or
/// the root's ``): `a/b.py` or `a/b/__init__.py`, at `dir` or in its `src/` layout.
fn python_module_file(
    module: &str,
    dir: &str,
    tracked: &std::collections::HashSet<&[u8]>,
) -> Option<String> {
    let path = module.replace('.', "/");
    ["", "src/"]
        .iter()
        .flat_map(|layout| {
            [
                format!("{dir}{layout}{path}.py"),
                format!("{dir}{layout}{path}/__init__.py"),
            ]
        })
        .find(|candidate| tracked.contains(candidate.as_bytes()))
}

/// The sources of the manifests' declared entry points that are build output (a package.json's
/// `"exports": "./dist/node/index.js"`, see [`source_counterpart`]). They are package roots to
/// the ranking, which lists the roots that matter (vite's `packages/vite/src/node/index.ts`),
/// not all of them: in babel's 150 packages each `"main": "lib/index.js"` is one.
fn built_entry_points<'a>(
    files: &[FileState],
    manifests: impl Iterator<Item = &'a (&'a FileState, &'a ManifestFacts)>,
) -> Vec<String> {
    let tracked: std::collections::HashSet<&[u8]> =
        files.iter().map(|f| f.path.as_slice()).collect();
    let mut out: Vec<String> = Vec::new();
    for (f, m) in manifests {
        let dir = paths::display(&f.path[..f.path.len() - paths::file_name(&f.path).len()]);
        for e in &m.entry_points {
            let p = match python_reference(e) {
                Some(reference) => match python_module_file(reference, &dir, &tracked) {
                    Some(file) => file,
                    None => continue,
                },
                None => format!("{dir}{}", e.trim_start_matches("./")),
            };
            if tracked.contains(p.as_bytes()) {
                continue;
            }
            match source_counterpart(&p, &tracked) {
                Some(source) if !out.contains(&source) => out.push(source),
                _ => {}
            }
        }
    }
    out
}

/// Build output directories whose files a package's manifest names, and the extensions a
/// built JavaScript file has, against the source extensions it is built from.
const BUILD_DIRS: &[&str] = &["dist", "distribution", "lib", "build", "out", "esm", "cjs"];
/// The directories sources are built from, in the order tried.
const SOURCE_DIRS: &[&str] = &["src", "source"];
const BUILT_EXTENSIONS: &[&str] = &["js", "mjs", "cjs", "jsx"];
const SOURCE_EXTENSIONS: &[&str] = &["ts", "tsx", "mts", "cts", "js", "mjs", "jsx"];

/// The tracked file a declared entry point stands for: itself when tracked; else, for a built
/// file (a package.json's `"exports": "./dist/node/index.js"`, which is not tracked), its
/// source: the build directory read as `src` or `source` and a source extension for the built one
/// (vite's `packages/vite/src/node/index.ts`), or a file built beside its manifest read as one
/// in `src/` (zod's `index.cjs`). `None` when neither is tracked.
fn source_counterpart(path: &str, tracked: &std::collections::HashSet<&[u8]>) -> Option<String> {
    if tracked.contains(path.as_bytes()) {
        return Some(path.to_owned());
    }
    let (stem, ext) = path.rsplit_once('.')?;
    if !BUILT_EXTENSIONS.contains(&ext) {
        return None;
    }
    let parts: Vec<&str> = stem.split('/').collect();
    let with_source = |source: Vec<&str>| {
        let source = source.join("/");
        SOURCE_EXTENSIONS
            .iter()
            .map(|x| format!("{source}.{x}"))
            .find(|p| tracked.contains(p.as_bytes()))
    };
    // The build directory is the last part so named: a workspace's `packages/lib/dist/` is
    // built from `packages/lib/src/`, not `packages/src/dist/`. A file built beside the
    // manifest (zod's `"main": "./index.cjs"`, its `outDir` the package's own directory) is
    // built from the same name in a source directory there.
    let build: Vec<usize> = (0..parts.len().saturating_sub(1))
        .rev()
        .filter(|&i| BUILD_DIRS.contains(&parts[i]))
        .collect();
    // Or the build directory holds the source tree as it is (got's `dist/source/index.js`,
    // built with no `rootDir` from `source/index.ts`).
    build
        .iter()
        .find_map(|&at| {
            SOURCE_DIRS
                .iter()
                .find_map(|dir| {
                    let mut source = parts.clone();
                    source[at] = dir;
                    with_source(source)
                })
                .or_else(|| {
                    let mut source = parts.clone();
                    source.remove(at);
                    with_source(source)
                })
        })
        .or_else(|| {
            (ext != "jsx").then(|| {
                SOURCE_DIRS.iter().find_map(|dir| {
                    let mut source = parts.clone();
                    source.insert(parts.len() - 1, dir);
                    with_source(source)
                })
            })?
        })
}

/// The last part of a scoped or path-like project name (`widget` for `example.com/acme/widget`,
/// `@acme/widget`), a Go module's major version left out: `charm.land/bubbletea/v2` is
/// `bubbletea`, not `v2`.
fn last_name(project: &str) -> &str {
    let mut parts = project.rsplit(['/', '\\']);
    let last = parts.next().unwrap_or(project);
    let version =
        last.len() > 1 && last.starts_with('v') && last[1..].bytes().all(|b| b.is_ascii_digit());
    match parts.next() {
        Some(before) if version && !before.is_empty() => before,
        _ => last,
    }
}

/// Whether a file is a C or C++ header (`.h`, `.hh`, `.hpp`, `.hxx`) named after the project,
/// or after it without a language's mark (`cpp-httplib`'s `httplib.h`, `libfoo`'s `foo.h`).
fn is_header_named_after(path: &[u8], project: &str) -> bool {
    let header = [".h", ".hh", ".hpp", ".hxx"]
        .iter()
        .any(|e| path.ends_with(e.as_bytes()));
    let project = last_name(project).to_ascii_lowercase();
    let bare = ["cpp-", "c-", "lib"]
        .iter()
        .find_map(|p| project.strip_prefix(p))
        .or_else(|| project.strip_suffix("-cpp"))
        .unwrap_or(&project);
    header && (named_after(path, &project) || named_after(path, bare))
}

/// Whether a file is `include/<name>/<name>.h` (or `.hpp`): the header that includes the rest
/// of the library's directory.
fn is_umbrella_header(path: &[u8]) -> bool {
    let Some(rest) = path.strip_prefix(b"include/") else {
        return false;
    };
    let mut parts = rest.split(|&b| b == b'/');
    let (Some(dir), Some(file), None) = (parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    [&b".h"[..], b".hpp"]
        .iter()
        .any(|ext| file.strip_suffix(*ext) == Some(dir))
}

/// Whether a file is named after the project (`babel.js`, `git.c` for `git`): its name up to
/// the first `.`, in any case, is the project's name (the last part of a scoped or path-like
/// name: `widget` for `example.com/acme/widget`).
fn named_after(path: &[u8], project: &str) -> bool {
    let project = last_name(project);
    let file = paths::file_name(path);
    let stem = file.split(|&b| b == b'.').next().unwrap_or(file);
    !project.is_empty() && stem.eq_ignore_ascii_case(project.as_bytes())
}

/// The commands of the Makefile a root Makefile's `.DEFAULT` rule hands targets to
/// ([`ManifestFacts::make_delegate`]), as run from the root: Redis's `make test` is
/// `src/Makefile`'s (its overview listed `make install` and `make default` only). Those the
/// root's Makefile defines itself are left out.
fn delegated_make_commands(
    files: &[FileState],
    facts: &HashMap<String, Analysis>,
    manifest: &[u8],
    m: &ManifestFacts,
) -> Vec<crate::analyze::manifest::CommandFact> {
    let Some(dir) = m.make_delegate.as_deref() else {
        return Vec::new();
    };
    let base = &manifest[..manifest.len() - paths::file_name(manifest).len()];
    let delegate = [base, dir.as_bytes(), b"/Makefile"].concat();
    let Some(theirs) = files
        .iter()
        .find(|f| f.path == delegate)
        .and_then(|f| facts.get(f.digest.as_deref()?)?.manifest.as_ref())
    else {
        return Vec::new();
    };
    theirs
        .commands
        .iter()
        .filter(|c| !m.commands.iter().any(|own| own.command == c.command))
        .cloned()
        .collect()
}

fn commands(
    files: &[FileState],
    facts: &HashMap<String, Analysis>,
    root: &[(&FileState, &ManifestFacts)],
) -> Vec<(bool, CommandRef)> {
    let has = |name: &str| files.iter().any(|f| f.path == name.as_bytes());
    // The lock file says which package manager installs and runs the scripts; without one, the
    // root package.json's `packageManager` does (zod's `pnpm@…`: its commands read `npm run
    // build`).
    let declared = root
        .iter()
        .find(|(f, _)| f.path == b"package.json")
        .and_then(|(_, m)| m.package_manager.as_deref());
    let npm = if has("pnpm-lock.yaml") {
        "pnpm"
    } else if has("yarn.lock") {
        "yarn"
    } else if has("bun.lockb") || has("bun.lock") {
        "bun"
    } else {
        declared.unwrap_or("npm")
    };
    let beside = |manifest: &[u8], name: &[u8]| {
        let dir = &manifest[..manifest.len() - paths::file_name(manifest).len()];
        let sibling = [dir, name].concat();
        files.iter().any(|f| f.path == sibling)
    };
    // A Gemfile beside a Rakefile pins the gems its tasks need, rake among them: its tasks
    // run through Bundler (`bundle exec rake test`; a bare `rake` runs whatever is installed).
    let bundled = |manifest: &[u8]| beside(manifest, b"Gemfile");
    let is_rake = |command: &str| command == "rake" || command.starts_with("rake ");
    let mut primary = root.to_vec();
    let secondary: Vec<(&FileState, &ManifestFacts)> = if primary.is_empty() {
        // No root manifest: take manifests one level down (e.g. backend/, web/).
        manifests(files, facts, |p| {
            p.iter().filter(|&&b| b == b'/').count() == 1
        })
    } else {
        vec![]
    };
    let root_level = !primary.is_empty();
    primary.extend(secondary);
    const ORDER: [&str; 9] = [
        "build", "test", "run", "lint", "format", "install", "bench", "docs", "other",
    ];
    let mut out: Vec<(usize, bool, CommandRef)> = Vec::new();
    // A checked-in script named for its purpose (`scripts/test`) is how the maintainers run
    // it: a manifest's command for the same purpose (what its tool settings imply, `python
    // -m pytest`) comes after the leading commands.
    let scripts = directory_scripts(files);
    let scripted: HashSet<String> = scripts.iter().map(|(_, c)| c.purpose.clone()).collect();
    for (leads, c) in scripts {
        let order = ORDER
            .iter()
            .position(|o| *o == c.purpose)
            .unwrap_or(ORDER.len());
        out.push((order, leads && order <= 3, c));
    }
    for (f, m) in primary {
        // A Makefile checked in beside `configure.ac` builds without it (git's): its own
        // commands say how.
        if m.kind == "autotools" && beside(&f.path, b"Makefile") {
            continue;
        }
        let source = paths::display(&f.path);
        let delegated = delegated_make_commands(files, facts, &f.path, m);
        for c in m.commands.iter().chain(&delegated) {
            // The package manager the lock file names runs the scripts (`npm run build` is
            // `pnpm run build`; replacing `npm ` anywhere made that `ppnpm run build`).
            let command = match c.command.strip_prefix("npm ") {
                // `bun test` is Bun's own test runner, which ignores the script: Bun runs a
                // script by `bun run`.
                Some(rest @ ("test" | "start")) if m.kind == "npm" && npm == "bun" => {
                    format!("bun run {rest}")
                }
                Some(rest) if m.kind == "npm" => format!("{npm} {rest}"),
                _ if m.kind == "ruby" && bundled(&f.path) && is_rake(&c.command) => {
                    format!("bundle exec {}", c.command)
                }
                // The build wrapper checked in beside the manifest pins the tool's version:
                // `./mvnw test` (jackson-core ships one; `mvn` may be another version or none).
                // Without one, Gradle runs as installed.
                _ => match (m.kind.as_str(), c.command.split_once(' ')) {
                    ("maven", Some(("mvn", rest))) if beside(&f.path, b"mvnw") => {
                        format!("./mvnw {rest}")
                    }
                    ("gradle", Some(("./gradlew", rest))) if !beside(&f.path, b"gradlew") => {
                        format!("gradle {rest}")
                    }
                    // The project's own bootstrap script generates what `configure` needs
                    // (libuv's `autogen.sh` writes an m4 file its `configure.ac` includes:
                    // `autoreconf -i` alone fails on a fresh checkout).
                    ("autotools", Some(("autoreconf", rest))) if beside(&f.path, b"autogen.sh") => {
                        let rest = rest.strip_prefix("-i").unwrap_or(rest);
                        format!("sh autogen.sh{rest}")
                    }
                    // A `uv.lock` beside pyproject says uv keeps the environment (flask's,
                    // pydantic's): `uv sync` sets it up and `uv run` runs in it.
                    ("python", _) if beside(&f.path, b"uv.lock") => {
                        match c.command.strip_prefix("python -m ") {
                            Some(module) => format!("uv run {module}"),
                            None if c.command == "pip install -e ." => "uv sync".to_owned(),
                            None => c.command.clone(),
                        }
                    }
                    _ => c.command.clone(),
                },
            };
            let order = ORDER
                .iter()
                .position(|o| *o == c.purpose)
                .unwrap_or(ORDER.len());
            let is_primary = root_level && order <= 3 && !scripted.contains(&c.purpose);
            out.push((
                order,
                is_primary,
                CommandRef {
                    // `npm run tsc` runs `tsc`: the command says it.
                    runs: match c.runs.as_slice() {
                        [one] if command.rsplit(' ').next() == Some(one.as_str()) => Vec::new(),
                        runs => runs.to_vec(),
                    },
                    command,
                    purpose: c.purpose.clone(),
                    source: source.clone(),
                    ci: false,
                },
            ));
        }
    }
    ci_commands(files, facts, root_level, &mut out);
    // A linter's or formatter's configuration at the root says the project runs it (gin's
    // `.golangci.yml`, which its CI runs; guzzle's `phpstan.neon.dist`): after the commands
    // the manifests and scripts lead with.
    for (configs, command, purpose) in TOOL_CONFIGS {
        if let Some(config) = configs.iter().find(|c| has(c)) {
            let order = ORDER
                .iter()
                .position(|o| o == purpose)
                .unwrap_or(ORDER.len());
            out.push((
                order,
                false,
                CommandRef {
                    command: (*command).to_owned(),
                    purpose: (*purpose).to_owned(),
                    runs: Vec::new(),
                    source: (*config).to_owned(),
                    ci: false,
                },
            ));
        }
    }
    // The package scripts named for a purpose come before every variant: `npm test` before
    // the `coverage` and `test:ci` scripts declared ahead of it (fastify listed two `build:*`
    // and two `coverage` scripts, and no `npm test`), and before the variants of the build
    // (zod listed `pnpm run bundle:rollup` and `pnpm run bundle:esbuild`, and no `pnpm test`).
    out.sort_by(|a, b| {
        b.1.cmp(&a.1)
            .then(is_script_variant(&a.2).cmp(&is_script_variant(&b.2)))
            .then(a.0.cmp(&b.0))
    });
    // Two build files may say the same (Dapper's solution and its traversal project both
    // build with `dotnet build`): each command once, where it ranks first.
    let mut seen = std::collections::HashSet::new();
    out.into_iter()
        .filter(|(_, _, c)| seen.insert(c.command.clone()))
        .map(|(_, p, mut c)| {
            // What a purpose's own script runs says which tools the project uses; its
            // variants (`npm run test-cov`, `lint:fix`) mostly run the same again, and cost
            // express's overview an entry point at 250 tokens.
            if is_script_variant(&c) {
                c.runs.clear();
            }
            (p, c)
        })
        .collect()
}

/// Adds what the CI workflows run to the commands (`out`: order, leads, command), how the
/// maintainers check a change (jsoup's `mvn verify`, rayon's `cargo fmt --all --check`),
/// each said to come from CI. A command listed already is marked so (pino's `npm run
/// test-ci`, rake's `bundle exec rubocop`), and takes the options CI adds to it (testify's
/// `go test ./...` is `go test -v -race ./...`); one that runs a listed command and more is
/// left out (`mvn clean test --projects gson` is `mvn test`; `mvn verify` is not), and so is
/// a second of a program and subcommand. The first new one that tests and the first that
/// lints or formats lead with the manifests' commands, the rest follow them.
fn ci_commands(
    files: &[FileState],
    facts: &HashMap<String, Analysis>,
    root_level: bool,
    out: &mut Vec<(usize, bool, CommandRef)>,
) {
    use crate::analyze::workflow::{command_key, only_options_added, runs_within};
    const ORDER: [&str; 9] = [
        "build", "test", "run", "lint", "format", "install", "bench", "docs", "other",
    ];
    let steps: Vec<String> = out
        .iter()
        .flat_map(|(_, _, c)| c.command.split("&&").map(str::to_owned))
        .collect();
    let mut keys: HashSet<(String, String)> = HashSet::new();
    let mut led: HashSet<&str> = HashSet::new();
    // A step that runs in a directory with a manifest of its own (`cd test/bundler/webpack &&
    // npm run test`) checks that package, not the project: it follows the project's own
    // (fastify's bundler test took the lead from `npm run unit`).
    let in_sub_package = |command: &str| {
        command
            .strip_prefix("cd ")
            .and_then(|rest| rest.split_once(" && "))
            .is_some_and(|(dir, _)| {
                let dir = format!("{}/", dir.trim().trim_end_matches('/'));
                files.iter().any(|f| {
                    parent_dir(&f.path) == dir.as_bytes()
                        && crate::analyze::manifest::is_manifest(&f.path)
                })
            })
    };
    // A step that changes to a directory the repository does not hold builds what the job
    // fetched (curl's CI: `cd openssl && make`, `cd boringssl-src && cmake --build .`); not
    // one the build made (`cd build && ctest`).
    let fetched = |command: &str| {
        command
            .strip_prefix("cd ")
            .and_then(|rest| rest.split_once(" && "))
            .is_some_and(|(dir, _)| {
                let dir = dir.trim().trim_start_matches("./").trim_end_matches('/');
                let built = ["build", "_build", "builddir", "out", "bld", "obj"]
                    .iter()
                    .any(|b| dir.eq_ignore_ascii_case(b))
                    || dir.starts_with("build")
                    || dir.starts_with("cmake-build");
                let dir = format!("{dir}/");
                !built && !files.iter().any(|f| f.path.starts_with(dir.as_bytes()))
            })
    };
    let mut run_by_ci: Vec<String> = Vec::new();
    for (_, m) in manifests(files, facts, crate::analyze::workflow::is_workflow) {
        for c in m
            .commands
            .iter()
            .filter(|c| m.kind == "ci" && !fetched(&c.command))
        {
            run_by_ci.push(c.command.clone());
            // The same command, or one CI runs with more (options, or a lint's `-- -D
            // warnings`: axum's CI clippy was dropped as known and Cargo's default `cargo
            // clippy --all-targets` shown without it).
            // A command for another machine is no stand-in for the one listed.
            // A check the project does not run as listed is the one CI runs, which decides
            // whether a change passes (rand's `cargo clippy --workspace --lib --bins --tests --
            // -D warnings` was dropped for Cargo's `cargo clippy --all-targets`, which CI never
            // ran); a build stays as listed (`cargo build --workspace` over CI's `cargo build`).
            let cross = for_another_target(&c.command);
            let check = matches!(c.purpose.as_str(), "lint" | "format");
            let listed = out.iter_mut().find(|(_, _, l)| {
                !cross
                    && (script_alias(&l.command) == script_alias(&c.command)
                        || only_options_added(&l.command, &c.command)
                        || (command_key(&l.command) == command_key(&c.command)
                            && runs_within(&l.command, &c.command)
                            && l.command
                                .split_whitespace()
                                .all(|w| c.command.split_whitespace().any(|x| x == w)))
                        || (check
                            && !l.ci
                            && command_key(&l.command) == command_key(&c.command)
                            && runs_within(&l.command, &c.command)))
            });
            if let Some((_, _, l)) = listed {
                if !l.ci {
                    l.ci = true;
                    l.command.clone_from(&c.command);
                }
                continue;
            }
            let known = steps.iter().any(|s| runs_within(s, &c.command));
            if known || !keys.insert(command_key(&c.command)) {
                continue;
            }
            let order = ORDER
                .iter()
                .position(|o| *o == c.purpose)
                .unwrap_or(ORDER.len());
            let kind = match c.purpose.as_str() {
                "test" => "test",
                "lint" | "format" => "check",
                _ => "",
            };
            let leads =
                root_level && !kind.is_empty() && !in_sub_package(&c.command) && led.insert(kind);
            out.push((
                order,
                leads,
                CommandRef {
                    command: c.command.clone(),
                    purpose: c.purpose.clone(),
                    runs: Vec::new(),
                    source: String::new(),
                    ci: true,
                },
            ));
        }
    }
    // A listed command of several steps, each of which CI runs (with options of its own):
    // the workflows' `cmake -S . -B build -DFOO_CI=On` and `cmake --build build --target
    // ci_test` run the manifest's `cmake -B build && cmake --build build`.
    for (_, _, l) in out
        .iter_mut()
        .filter(|(_, _, l)| !l.ci && l.command.contains("&&"))
    {
        let mut steps = l.command.split("&&").map(str::trim);
        l.ci = steps.all(|s| run_by_ci.iter().any(|c| runs_within(s, c)));
    }
}

/// A package script's command as its runner also spells it: `npm run test` is `npm test` (and
/// `start`, `stop`, `restart`), `yarn run x` is `yarn x`, `pnpm run x` is `pnpm x` (got's CI
/// ran `npm run test`, and the listed `npm test` lost its `[ci]`). Bun's `bun test` is its own
/// runner, no script.
fn script_alias(command: &str) -> std::borrow::Cow<'_, str> {
    const NPM_OWN: &[&str] = &["test", "start", "stop", "restart"];
    let npm = command
        .strip_prefix("npm run ")
        .filter(|rest| NPM_OWN.contains(&rest.split(' ').next().unwrap_or("")));
    if let Some(rest) = npm {
        return format!("npm {rest}").into();
    }
    for runner in ["yarn", "pnpm"] {
        if let Some(rest) = command.strip_prefix(&format!("{runner} run ")) {
            return format!("{runner} {rest}").into();
        }
    }
    // A shell script run by its path or through the shell (`./scripts/test.sh`, `bash
    // scripts/test.sh`): sqlmodel listed both.
    let script = ["bash ", "sh "]
        .iter()
        .find_map(|shell| command.strip_prefix(shell))
        .unwrap_or(command);
    let script = script.strip_prefix("./").unwrap_or(script);
    let path = script.split(' ').next().unwrap_or("");
    if script.len() != command.len() && path.ends_with(".sh") && !path.starts_with('-') {
        return script.into();
    }
    command.into()
}

/// Whether a command builds or checks for another machine than the one it runs on (`cargo
/// build --target=thumbv6m-none-eabi`): rand's no_std CI job took the place of `cargo build`,
/// which a stock toolchain cannot run as shown.
fn for_another_target(command: &str) -> bool {
    let words: Vec<&str> = command.split_whitespace().collect();
    words.first() == Some(&"cargo")
        && words
            .iter()
            .any(|w| *w == "--target" || w.starts_with("--target="))
}

/// Configuration files at the root that say which tool checks the code, with the command that
/// runs it on the whole project and its purpose.
const TOOL_CONFIGS: &[(&[&str], &str, &str)] = &[
    (
        &[
            ".golangci.yml",
            ".golangci.yaml",
            ".golangci.toml",
            ".golangci.json",
        ],
        "golangci-lint run",
        "lint",
    ),
    (
        &["phpstan.neon", "phpstan.neon.dist", "phpstan.dist.neon"],
        "vendor/bin/phpstan analyse",
        "lint",
    ),
    (&["psalm.xml", "psalm.xml.dist"], "vendor/bin/psalm", "lint"),
    (
        &[".php-cs-fixer.php", ".php-cs-fixer.dist.php"],
        "vendor/bin/php-cs-fixer fix --dry-run --diff",
        "format",
    ),
    (&["pyrightconfig.json"], "pyright", "lint"),
    (
        &[".pre-commit-config.yaml"],
        "pre-commit run --all-files",
        "lint",
    ),
];

/// The directories at the root whose executables are the project's commands, by the
/// "scripts to rule them all" convention: `script/test`, `scripts/lint`.
const SCRIPT_DIRS: &[&str] = &["script/", "scripts/"];

/// The purpose of a script by its file name; other names (`clean`, `publish`, `release`) are
/// not what a contributor runs to work.
fn script_purpose(name: &str) -> Option<&'static str> {
    Some(match name {
        "build" | "compile" => "build",
        "test" | "tests" => "test",
        "server" | "serve" | "start" | "run" => "run",
        "lint" | "check" | "typecheck" => "lint",
        "format" | "fmt" => "format",
        "install" | "bootstrap" | "setup" => "install",
        "bench" | "benchmark" => "bench",
        "docs" => "docs",
        _ => return None,
    })
}

/// The commands of checked-in scripts: a root build script (below), and a root `script/` or
/// `scripts/` directory's executable files named for
/// a purpose without an extension ([`script_purpose`]), run by their path from the root
/// (starlette documents `scripts/install`, `scripts/test` and `scripts/lint` for its
/// contributors). A file Git does not record as executable is no command, and neither is a
/// helper with an extension where a root Makefile or the directory's scripts without one run
/// the project's tasks: babel's `scripts/test.sh` is what its `make test` runs; without them,
/// a shell script named for its purpose is how it is done (typer's contributors and CI run `bash scripts/test.sh`, which
/// sets what its tests need, and `bash scripts/lint.sh`).
/// Each with whether it leads its purpose: every script of the directory, the first build
/// script at the root (the others are the same build for other shells).
fn directory_scripts(files: &[FileState]) -> Vec<(bool, CommandRef)> {
    const EXECUTABLE: u32 = 0o100_755;
    let command = |command: String, purpose: &str| CommandRef {
        command,
        purpose: purpose.to_owned(),
        runs: Vec::new(),
        source: String::new(),
        ci: false,
    };
    // Who runs the helpers: a root Makefile, or the directory's own extensionless scripts.
    let make = files.iter().any(|f| {
        matches!(
            f.path.as_slice(),
            b"Makefile" | b"makefile" | b"GNUmakefile"
        ) || std::str::from_utf8(&f.path).is_ok_and(|path| {
            SCRIPT_DIRS
                .iter()
                .find_map(|d| path.strip_prefix(d))
                .and_then(script_purpose)
                .is_some()
        })
    });
    let mut out: Vec<(bool, CommandRef)> = files
        .iter()
        .filter(|f| regular(f))
        .filter_map(|f| {
            let path = std::str::from_utf8(&f.path).ok()?;
            let name = SCRIPT_DIRS.iter().find_map(|d| path.strip_prefix(d))?;
            let executable = f.index_mode == EXECUTABLE;
            match name.strip_suffix(".sh") {
                Some(stem) if !make && !stem.contains('/') => {
                    let run = match executable {
                        true => format!("./{path}"),
                        false => format!("bash {path}"),
                    };
                    Some((true, command(run, script_purpose(stem)?)))
                }
                Some(_) => None,
                None if executable => Some((true, command(path.to_owned(), script_purpose(name)?))),
                None => None,
            }
        })
        .collect();
    // A build script at the root, `build.sh`, `build.ps1`, `build.cmd` in any case: how a .NET
    // project's contributors build and test (AutoMapper's guide: "Run the PowerShell script
    // `Build.ps1`"; FluentValidation's: "`Build.cmd` (windows) or build.sh (Linux/mac)"). The
    // POSIX one first; a Windows script needs no executable bit.
    let mut roots: Vec<(usize, &str, bool)> = files
        .iter()
        .filter_map(|f| {
            let path = std::str::from_utf8(&f.path).ok()?;
            let (stem, ext) = path.rsplit_once('.')?;
            let rank = ["sh", "ps1", "cmd", "bat"]
                .iter()
                .position(|e| ext.eq_ignore_ascii_case(e))?;
            let executable = f.index_mode == EXECUTABLE;
            (stem.eq_ignore_ascii_case("build") && regular(f)).then_some((rank, path, executable))
        })
        .collect();
    roots.sort();
    // Each as it runs from a fresh checkout: a PowerShell script through `pwsh` (MediatR's
    // `Build.ps1`, not executable, was `./Build.ps1`: "Permission denied"), a shell script
    // without the executable bit through `bash`.
    out.extend(
        roots
            .into_iter()
            .enumerate()
            .map(|(i, (rank, path, executable))| {
                let run = match rank {
                    0 if executable => format!("./{path}"),
                    0 => format!("bash ./{path}"),
                    1 => format!("pwsh ./{path}"),
                    _ => path.to_owned(),
                };
                (i == 0, command(run, "build"))
            }),
    );
    out
}

/// Whether Git records a file as a regular file (executable or not): no symlink, no submodule.
fn regular(f: &FileState) -> bool {
    matches!(f.index_mode, 0o100_644 | 0o100_755)
}

/// Whether a command runs a package script named otherwise than its purpose
/// (`npm run coverage`, `pnpm run build:types`): a variant of the script named for it (`npm
/// test`, `pnpm run build`). Commands of other build tools are no scripts.
fn is_script_variant(c: &CommandRef) -> bool {
    let words: Vec<&str> = c.command.split(' ').collect();
    let script = match words.as_slice() {
        [runner, "run", name] | [runner, name] => {
            matches!(*runner, "npm" | "pnpm" | "yarn" | "bun" | "composer").then_some(*name)
        }
        _ => None,
    };
    script.is_some_and(|name| name != c.purpose)
}

/// Words in the path of a document that guides its reader (matched in the lower-case path
/// below the root): `GUIDE.md`, `user_guide.md`, `FAQ.md`, `gittutorial.adoc`,
/// `SubmittingPatches`, `doc/design/monorepo.md`.
const GUIDE_WORDS: &[&str] = &[
    "guide",
    "tutorial",
    "faq",
    "manual",
    "handbook",
    "getting",
    "quickstart",
    "howto",
    "design",
    "architecture",
    "submitting",
    "hacking",
];

/// Whether a document is an API reference by its path: under an `api/` or `reference/`
/// directory (koa's `docs/api/index.md`), or named `api` or `reference`.
fn is_api_reference(path: &[u8]) -> bool {
    let lower = String::from_utf8_lossy(path).to_ascii_lowercase();
    let mut parts: Vec<&str> = lower.split('/').collect();
    let name = parts.pop().unwrap_or_default();
    let stem = name.split('.').next().unwrap_or_default();
    parts.iter().any(|d| matches!(*d, "api" | "reference"))
        || matches!(
            stem,
            "api" | "reference" | "api-reference" | "api_reference"
        )
}

/// Whether a document's path says it guides an upgrade from an older version
/// (`docs/migration-v1-to-v2.md`, `MIGRATING.md`, `UPGRADE-GUIDE.md` is not one: its name says
/// guide).
fn is_migration_guide(path: &[u8]) -> bool {
    let name = String::from_utf8_lossy(paths::file_name(path)).to_ascii_lowercase();
    name.starts_with("migrat")
}

/// Whether a document's path says it guides (`GETTING_STARTED.md`, `user_guide.md`,
/// `doc/design/monorepo.md`), its words' separators left out: got's `quick-start.md` was no
/// guide and came after its migration guides.
fn is_guide_named(path: &[u8]) -> bool {
    let name: String = String::from_utf8_lossy(path)
        .to_ascii_lowercase()
        .chars()
        .filter(|c| !matches!(c, '-' | '_' | ' '))
        .collect();
    GUIDE_WORDS.iter().any(|w| name.contains(w))
}

/// The documents in the order a new contributor reads them: the README; the root's guides
/// for contributors (how to contribute, build, find one's way); the documents the README links
/// to (what its maintainers point readers at, wherever they live) that guide (a user guide,
/// an FAQ, a design note), the most linked first, then in the README's order; the change log;
/// the README's other links, in the same order, records of single decisions (ADRs, RFCs) last
/// among them; the other root documents; those of `docs/`; licenses last (their name says all
/// a reader needs).
/// The documents the overview lists, in order (see [`MAX_DOCUMENTS`]): the README, guides,
/// what the README links to, changelogs, other documents at the root, then `docs/`; license
/// texts last.
fn listed_documents<'f>(
    files: &'f [FileState],
    readme: Option<&FileState>,
    facts: &HashMap<String, Analysis>,
) -> Vec<&'f FileState> {
    // The instructions a repository keeps for coding agents first: they are written for the
    // reader of this cue (RestSharp's `CLAUDE.md` and `agents.md` were the first documents a
    // tight overview dropped).
    const GUIDES: &[&str] = &[
        "AGENTS",
        "CLAUDE",
        "CONTRIBUTING",
        "ARCHITECTURE",
        "DESIGN",
        "HACKING",
        "DEVELOPMENT",
        "INSTALL",
        "BUILDING",
    ];
    let stem = document_stem;
    let facts_of = |f: &FileState| f.digest.as_deref().and_then(|d| facts.get(d));
    // The README's links to repository paths, by first appearance, with how often the README
    // links to each (ripgrep's points at its GUIDE nine times, its CHANGELOG once).
    let mut linked: Vec<(String, usize)> = Vec::new();
    let is_readme = |f: &FileState| readme.is_some_and(|r| r.path == f.path);
    if let Some((f, doc)) = readme.and_then(|f| Some((f, facts_of(f)?.doc.as_ref()?))) {
        let from = paths::display(&f.path);
        for target in &doc.links {
            if let Some(p) = super::document::file_link(&from, target) {
                match linked.iter_mut().find(|(l, _)| *l == p) {
                    Some((_, n)) => *n += 1,
                    None => linked.push((p, 1)),
                }
            }
        }
    }
    let root_contributing = files
        .iter()
        .any(|f| f.is_document && !f.path.contains(&b'/') && stem(f) == "CONTRIBUTING");
    // (tier, then three keys within it): see the match below.
    type Order = (usize, usize, usize, usize);
    let mut docs: Vec<(Order, &FileState)> = files
        .iter()
        .filter_map(|f| {
            let link = linked
                .iter()
                .position(|(l, _)| l.as_bytes() == f.path.as_slice());
            // A plain text file the README links to is a document for its readers (git's
            // `Documentation/SubmittingPatches`), though its name does not say so.
            // Not a data file it links to (bat's `Manpage.sublime-syntax`).
            let plain = f.file_type == FileType::Text
                && f.language.is_none()
                && paths::extension(&f.path).is_none();
            // Instructions for coding agents where their tools read them, with the root's
            // `AGENTS.md` and `CLAUDE.md`: `.github/copilot-instructions.md`, `.claude/`,
            // `.cursorrules` (faraday keeps all four, and none was listed).
            if let Some(k) = agent_instructions(&f.path) {
                return Some(((1, 1, 1 + k, 0), f));
            }
            // A hidden file is a tool's (black's `.git_archival.txt`, `git archive`'s template).
            let hidden = paths::file_name(&f.path).starts_with(b".");
            if !(f.is_document || (link.is_some() && plain))
                || is_requirements(f)
                || hidden
                || is_translated_readme(paths::file_name(&f.path))
            {
                return None;
            }
            let depth = f.path.iter().filter(|&&b| b == b'/').count();
            let stem = stem(f);
            // The documentation's directory: `docs/` or `doc/`, or a site generator's pages
            // beside the code (Docusaurus's `website/docs/`: immer's listed only its README
            // and security policy).
            let in_docs = (depth == 1
                && (f.path.starts_with(b"docs/") || f.path.starts_with(b"doc/")))
                || (depth == 2 && f.path.starts_with(b"website/docs/"));
            // A documentation site's pages further down (NSubstitute's whole user guide is
            // `docs/help/<topic>/index.md`, and no page of it was ever listed): after the
            // pages right in `docs/`, the shallower and the guides by name first.
            let deeper_docs = depth >= 2
                && !in_docs
                && (f.path.starts_with(b"docs/") || f.path.starts_with(b"doc/"));
            let guide = GUIDES.iter().position(|k| stem == *k);
            // Where GitHub finds the contributing guide when the root has none (jekyll's
            // `.github/CONTRIBUTING.markdown`); after the root's own guides. (`docs/` is another
            // such place, but there the guide is a page of the documentation, listed with it.)
            let kept_guide = (stem == "CONTRIBUTING"
                && !root_contributing
                && depth == 1
                && f.path.starts_with(b".github/"))
            .then_some(GUIDES.len());
            // Of what the README links to, the guides come first (a user guide, an FAQ, a
            // tutorial, how to submit patches), then what it links to most, in its order; the
            // records of single decisions last (an ADR cited in passing is history, not where
            // a reader starts).
            let guide_named = is_guide_named(&f.path);
            let linked_rank = |i: usize| {
                // An API reference before the other links (koa's `docs/api/index.md`, "API
                // documentation", came after its migration guides); a migration guide is for
                // upgrading from an older version, with the records of single decisions.
                let order = match () {
                    _ if is_decision_record(&f.path) || is_migration_guide(&f.path) => 3,
                    _ if guide_named => 0,
                    _ if is_api_reference(&f.path) => 1,
                    _ => 2,
                };
                (order, usize::MAX - linked[i].1, i)
            };
            let tier = match (depth, link) {
                _ if is_readme(f) => (0, 0, 0, 0),
                _ if is_license(&stem) => (6, 0, 0, 0),
                (0, _) if guide.is_some() => (1, guide.unwrap_or_default(), 0, 0),
                (1, None) if kept_guide.is_some() => (1, kept_guide.unwrap_or_default(), 0, 0),
                // The change log, before what the README links to that guides no one (babel's
                // `SONG.md`).
                (0, _) if CHANGE_LOGS.contains(&stem.as_str()) => (3, 0, 0, 0),
                (_, Some(i)) => match linked_rank(i) {
                    (0, b, c) => (2, 0, b, c),
                    (a, b, c) => (3, a, b, c),
                },
                // A guide at the root is one whether or not the README links to it by its
                // path (factory_bot's `GETTING_STARTED.md`, linked by its URL, came after a
                // code of conduct that is one link).
                (0, None) if guide_named => (2, 1, 0, 0),
                (0, _) => (4, 0, 0, 0),
                // A top directory's README says what the directory is for (Autofac's
                // `test/README.md` on its two test suites): after the root's documents.
                (1, None) if stem == "README" => (4, 1, 0, 0),
                _ if in_docs => (5, 0, docs_page_order(&stem, guide, guide_named), 0),
                _ if deeper_docs => (5, depth, usize::from(!guide_named), 0),
                _ => return None,
            };
            let top_readme = depth == 1 && stem == "README";
            let kept = depth == 0
                || link.is_some()
                || in_docs
                || deeper_docs
                || kept_guide.is_some()
                || top_readme;
            (kept || is_readme(f)).then_some((tier, f))
        })
        .collect();
    docs.sort_by(|a, b| (a.0, &a.1.path).cmp(&(b.0, &b.1.path)));
    docs.into_iter().map(|(_, f)| f).collect()
}

/// Where a file holds instructions for coding agents in a place their tools read them (not
/// the root's `AGENTS.md` or `CLAUDE.md`, which are guides by name): its order among them.
/// GitHub Copilot's `.github/copilot-instructions.md` and `.github/instructions/*.md`, Claude
/// Code's `.claude/CLAUDE.md` and skills (`.claude/skills/x/SKILL.md`, `.agents/skills/…`),
/// Cursor's `.cursorrules` and `.cursor/rules/*`, Windsurf's and Cline's rules files.
fn agent_instructions(path: &[u8]) -> Option<usize> {
    const EXACT: &[&[u8]] = &[
        b".github/copilot-instructions.md",
        b".claude/CLAUDE.md",
        b".cursorrules",
        b".windsurfrules",
        b".clinerules",
    ];
    if let Some(k) = EXACT.iter().position(|e| *e == path) {
        return Some(k);
    }
    let dir = |d: &[u8]| {
        path.strip_prefix(d)
            .is_some_and(|rest| !rest.is_empty() && !rest.contains(&b'/'))
    };
    let markdown = matches!(paths::extension(path).as_deref(), Some("md" | "mdc"));
    if markdown && (dir(b".github/instructions/") || dir(b".cursor/rules/")) {
        return Some(EXACT.len());
    }
    let skill = [&b".claude/skills/"[..], b".agents/skills/"]
        .iter()
        .any(|d| {
            path.strip_prefix(*d).is_some_and(|rest| {
                rest.split(|&b| b == b'/')
                    .collect::<Vec<_>>()
                    .as_slice()
                    .len()
                    == 2
                    && rest.ends_with(b"/SKILL.md")
            })
        });
    skill.then_some(EXACT.len() + 1)
}

/// Whether a file is a README in another language, `README.<language>.md` with a language
/// code (`cn`, `de-ch`, `zh_TW`, `pt-BR`) after `.`, `_` or `-`: rich's seventeen translations
/// filled the documents before its guides. Not `README-VIM.md` (fzf's Vim integration).
fn is_translated_readme(name: &[u8]) -> bool {
    let name = String::from_utf8_lossy(name).to_ascii_lowercase();
    let Some(rest) = name.strip_prefix("readme") else {
        return false;
    };
    let Some(rest) = rest.strip_prefix(['.', '_', '-']) else {
        return false;
    };
    let code = rest.split('.').next().unwrap_or(rest);
    let mut parts = code.split(['-', '_']);
    let letters = |p: &str, n: std::ops::RangeInclusive<usize>| {
        n.contains(&p.len()) && p.bytes().all(|b| b.is_ascii_lowercase())
    };
    let language = parts.next().is_some_and(|p| letters(p, 2..=2));
    let region = parts.next().is_none_or(|p| letters(p, 2..=4));
    language && region && parts.next().is_none() && rest.len() > code.len()
}

/// Whether a README's title is a name (`RepoCue`, `yaml-cpp`, `Foo Bar`): one or two words of
/// letters, digits and `-_.+`, not a heading that names the page (`Introduction`, `README`).
fn is_a_name(title: &str) -> bool {
    const PAGES: &[&str] = &[
        "readme",
        "introduction",
        "overview",
        "about",
        "welcome",
        "documentation",
        "index",
        "home",
    ];
    let words: Vec<&str> = title.split_whitespace().collect();
    let word = |w: &&str| {
        w.chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | '.' | '+'))
            && w.chars().any(char::is_alphabetic)
            && !PAGES.contains(&w.to_lowercase().as_str())
    };
    (1..=2).contains(&words.len()) && title.len() <= 40 && words.iter().all(word)
}

/// Whether a document records one decision or proposal: it lies in a directory of them
/// (`docs/adr/0015-packed-relative-relocations.md`, `decisions/`, `rfcs/`).
fn is_decision_record(path: &[u8]) -> bool {
    const RECORD_DIRS: &[&[u8]] = &[
        b"adr",
        b"adrs",
        b"decisions",
        b"decision-records",
        b"rfc",
        b"rfcs",
    ];
    let dirs = path.split(|&b| b == b'/').rev().skip(1);
    dirs.map(<[u8]>::to_ascii_lowercase)
        .any(|d| RECORD_DIRS.contains(&d.as_slice()))
}

/// Most documents the overview lists.
const MAX_DOCUMENTS: usize = 20;

/// Whether a file is a list of pip requirements or constraints (`requirements.txt`,
/// `requirements-dev.txt`, urfave/cli's `mkdocs-requirements.txt`): httpx's, whose first
/// line is a comment, was listed as a document titled by it. Or a build's options file
/// named as text (Meson's `meson_options.txt`: tinyxml2's was a document titled by its
/// copyright line).
fn is_requirements(f: &FileState) -> bool {
    let name = paths::file_name(&f.path).to_ascii_lowercase();
    if name == b"meson_options.txt" {
        return true;
    }
    let Some(stem) = name.strip_suffix(b".txt") else {
        return false;
    };
    stem.split(|b| matches!(b, b'-' | b'_' | b'.'))
        .any(|w| w == b"requirements" || w == b"constraints")
}

/// The stems of change logs ([`document_stem`]).
const CHANGE_LOGS: &[&str] = &["CHANGELOG", "CHANGES", "HISTORY", "NEWS", "RELEASES"];

/// Where a page right in `docs/` comes among the others, by its stem: the documentation's
/// home, then the contributor's guides (`CONTRIBUTING`, `HACKING`, …) and the pages named as guides,
/// then the release notes, then the rest by path (sqlmodel's `docs/index.md` and
/// `docs/release-notes.md` came after `alternatives`, `databases` and `db-to-code`).
fn docs_page_order(stem: &str, guide: Option<usize>, guide_named: bool) -> usize {
    let notes = stem.replace(['-', '_'], "");
    match stem {
        "INDEX" | "README" | "HOME" | "INTRO" | "INTRODUCTION" | "OVERVIEW" => 0,
        _ if guide.is_some() || guide_named => 1,
        _ if CHANGE_LOGS.contains(&stem) || notes == "RELEASENOTES" => 2,
        _ => 3,
    }
}

/// The listed documents with their titles, where a title says more than the file name and
/// than the project's name and purpose (`said`) already say; a change log's title is its
/// latest version (bat's `unreleased`), no title.
fn documents(
    listed: &[&FileState],
    facts: &HashMap<String, Analysis>,
    said: &str,
) -> Vec<DocumentRef> {
    listed
        .iter()
        .map(|f| DocumentRef {
            path: paths::display(&f.path),
            title: f
                .digest
                .as_deref()
                .and_then(|d| facts.get(d)?.doc.as_ref()?.title.clone())
                .filter(|_| !CHANGE_LOGS.contains(&document_stem(f).as_str()))
                .filter(|t| !says_nothing_new(t, &document_stem(f), said)),
        })
        .collect()
}

/// Tells whether a document's title says nothing its path and the project's name and purpose
/// (`said`) do not: it only names the file ([`names_the_file`]), or each of its words is a word
/// of them, of the file name, a number, or a word that only joins others (`Contributing to
/// Cobra` for cobra's `CONTRIBUTING.md`, `gittutorial(7)` for git's `gittutorial.adoc`).
fn says_nothing_new(title: &str, stem: &str, said: &str) -> bool {
    const JOINING: &str = "a an the of to for in on and with";
    names_the_file(title, stem) || repeats(title, &format!("{said} {stem} {JOINING}"))
}

/// Tells whether every word of a title is a word of `said` or a number, in any case: a README titled
/// `Flask` in project Flask, or git's `Git - fast, scalable, distributed revision control
/// system` beside the purpose that begins with those words, tells a reader nothing new.
fn repeats(title: &str, said: &str) -> bool {
    let words = |s: &str| -> Vec<String> {
        s.split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect()
    };
    let said = words(said);
    let title = words(title);
    let number = |w: &String| w.chars().all(|c| c.is_ascii_digit());
    !title.is_empty() && title.iter().all(|w| said.contains(w) || number(w))
}

/// A document's file name up to its first dot, in upper case (`README`, `CONTRIBUTING`).
fn document_stem(f: &FileState) -> String {
    let name = String::from_utf8_lossy(paths::file_name(&f.path)).to_ascii_uppercase();
    name.split('.').next().unwrap_or_default().to_owned()
}

/// Whether a document's stem ([`document_stem`]) names a license: its name says all a reader
/// needs.
fn is_license(stem: &str) -> bool {
    stem.contains("LICENSE") || stem.contains("LICENCE") || matches!(stem, "COPYING" | "NOTICE")
}

/// Tells whether a document's title only repeats its file name (`Contributing` for
/// `CONTRIBUTING.md`, `Code of conduct` for `CODE_OF_CONDUCT.md`): it tells a reader nothing
/// the path does not, and the overview shows no such title. So does the file name itself
/// (mocha's `AGENTS.md` titled `# AGENTS.md`).
fn names_the_file(title: &str, stem: &str) -> bool {
    let title = match title.trim().rsplit_once('.') {
        Some((name, ext))
            if ["md", "markdown", "rst", "txt", "adoc", "rdoc"]
                .iter()
                .any(|e| ext.eq_ignore_ascii_case(e)) =>
        {
            name
        }
        _ => title,
    };
    let letters = |s: &str| -> String {
        s.chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_lowercase)
            .collect()
    };
    letters(title) == letters(stem)
}

/// What the reference graph tells the overview: the most important symbols, the programs'
/// `main` files and the package roots in rank order, and each file's rank (to order
/// components by the weight of their code rather than their file count).
struct CodeSummary {
    /// The main manifest's dependencies, the most imported first.
    dependencies: Vec<String>,
    symbols: Vec<SymbolEntry>,
    mains: Vec<String>,
    roots: Vec<String>,
    /// Package root → the names it exports, most important first (at most twice
    /// [`EXPORT_NAMES`]).
    exports: HashMap<String, Vec<String>>,
    file_rank: HashMap<Vec<u8>, f64>,
    /// Files that define nothing and import one other file of the project → that file.
    delegates: HashMap<String, String>,
    /// What later snapshots need to reuse the overview computed from this ranking.
    graph: reuse::GraphSummary,
}

/// A package's root namespace ([`ManifestFacts::namespace_roots`]): the manifest that declares
/// it and the directory whose own files make it.
struct NamespaceRoot {
    /// The manifest, as `entry_points` lists it (`composer.json`,
    /// `src/Polly.Core/Polly.Core.csproj`).
    manifest: String,
    /// The directory, with its `/` (`""` for the repository's root).
    dir: Vec<u8>,
}

/// A path's directory with its `/` (`""` at the root): a [`NamespaceRoot::dir`] holds the files
/// whose parent directory it is.
fn parent_dir(path: &[u8]) -> &[u8] {
    &path[..path.len() - paths::file_name(path).len()]
}

/// The root namespaces the project's own manifests declare (Composer's PSR-4 directories, .NET
/// library projects), each once: not those of tests, examples or support directories.
fn namespace_roots<'a>(
    manifests: impl Iterator<Item = &'a (&'a FileState, &'a ManifestFacts)>,
) -> Vec<NamespaceRoot> {
    let mut out: Vec<NamespaceRoot> = Vec::new();
    for (f, m) in manifests {
        let support = paths::top_dir(&f.path)
            .is_some_and(|d| component_rank(&format!("{}/", paths::display(d))) == 2);
        if support || importance::role(&f.path) != importance::Role::Source {
            continue;
        }
        for root in &m.namespace_roots {
            let mut d = [parent_dir(&f.path), root.as_bytes()].concat();
            if !root.is_empty() {
                d.push(b'/');
            }
            if !out.iter().any(|n| n.dir == d) {
                out.push(NamespaceRoot {
                    manifest: paths::display(&f.path),
                    dir: d,
                });
            }
        }
    }
    out
}

/// The files that only hand over to another file of the project, mapped to that file: those
/// that define nothing and import one project file by a relative path (express's `index.js`:
/// `module.exports = require('./lib/express')`), and programs whose `main` calls a main of
/// another name defined elsewhere, to the file defining it: the one named after the project
/// when several programs do (git's `common-main.c` calls `cmd_main`, which `git.c` defines to
/// dispatch the commands, and a dozen other programs of git define too), else the best ranked.
fn delegates(ranked: &[super::structure::Ranked<'_>], project: &str) -> HashMap<String, String> {
    let modules = super::structure::ModuleFiles::new(ranked);
    // Functions named like a main (`cmd_main`, `real_main`) → the files of the project's own
    // code defining them, the one named after the project first, then by rank (not headers: a
    // declaration is no handover).
    let header = |p: &[u8]| {
        [&b".h"[..], b".hh", b".hpp", b".hxx"]
            .iter()
            .any(|e| p.ends_with(e))
    };
    let mut mains: HashMap<&str, Vec<&[u8]>> = HashMap::new();
    for r in ranked.iter().filter(|r| {
        importance::role(&r.file.path) == importance::Role::Source && !header(&r.file.path)
    }) {
        for s in r.analysis.code.iter().flat_map(|c| &c.symbols) {
            let name = s.qualified_name.as_str();
            if s.kind == "function" && name != "main" && names_a_main(name) {
                mains.entry(name).or_default().push(r.file.path.as_slice());
            }
        }
    }
    for files in mains.values_mut() {
        // Stable: the others keep rank order.
        files.sort_by_key(|p| !named_after(p, project));
    }
    ranked
        .iter()
        .filter_map(|r| {
            let code = r.analysis.code.as_ref()?;
            // A short main: one that does the program's work itself and then runs a loop
            // named like a main (Redis's 340-line `main` ends with `aeMain(server.el)`, the
            // event loop of `ae.c`, a library) hands over to nothing.
            let target = if code.symbols.iter().any(|s| {
                s.qualified_name == "main"
                    && s.kind == "function"
                    && s.end_line.saturating_sub(s.start_line) < MAX_HANDOVER_LINES
            }) {
                let mut called = code
                    .references
                    .iter()
                    .filter_map(|name| mains.get(name.as_str())?.first().copied());
                // Only one such call: a main that calls several hands over to none of them.
                // Several programs may define it (each of git's links `common-main.c`): the
                // best ranked is the one to read first.
                let first = called.next()?;
                called.next().is_none().then_some(first)?
            } else {
                modules.handover(r)?
            };
            (target != r.file.path.as_slice())
                .then(|| (paths::display(&r.file.path), paths::display(target)))
        })
        .collect()
}

/// Most lines of a `main` that hands over to a main of another name ([`delegates`]): git's
/// `common-main.c` has ten.
const MAX_HANDOVER_LINES: u32 = 60;

/// Whether a function's name says it is a main of another name: `main` as a word of it
/// (`cmd_main`, `real_main`, `RealMain`, `mainLoop`), not inside a word (`domain_lookup`).
fn names_a_main(name: &str) -> bool {
    name.split('_').any(|w| w.eq_ignore_ascii_case("main"))
        || name.ends_with("Main")
        || name
            .strip_prefix("main")
            .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_uppercase()))
}

/// The entry points with the file each one hands over to right after it.
fn with_delegates(entries: Vec<String>, delegates: &HashMap<String, String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(entries.len());
    for e in entries {
        let next = delegates.get(&e).cloned();
        if !out.contains(&e) {
            out.push(e);
        }
        if let Some(d) = next.filter(|d| !out.contains(d)) {
            out.push(d);
        }
    }
    out
}

/// Symbols the overview offers first, and the most of them from one file.
const FIRST_SYMBOLS: usize = 20;
/// See [`FIRST_SYMBOLS`].
const FIRST_PER_FILE: usize = 2;
/// Symbols the overview offers in all (those after the first, for larger budgets), and the
/// most of them from one file.
const MORE_SYMBOLS: usize = 40;
/// See [`MORE_SYMBOLS`].
const MORE_PER_FILE: usize = 6;
/// The round of the symbols after the first: later than any other section's items.
const LATE_ROUND: usize = 100;

/// Most `main` files and package roots the graph adds to the entry points: four, not three,
/// brings `@babel/parser`'s root after `@babel/core`'s, `helper-plugin-utils`' and
/// `traverse`'s (bench/quality: babel's text overview at 1,000 tokens 0.80 → 0.83, nothing
/// lost); five, since `@babel/types`' root hands on its `export { default as cloneNode }`
/// names and ranks among them (JSON at 2,000 tokens: `parseExpression` back, nothing lost).
const RANKED_ENTRIES: usize = 5;

/// The overview's symbols from `ranked`: the first [`MORE_SYMBOLS`] of four picks in turn
/// (the first picks, at most [`FIRST_PER_FILE`] per file, what small budgets show; then the
/// further ones, at most [`MORE_PER_FILE`] per file: a framework's `application.js` defines a
/// dozen of its API's methods; exposed symbols before hidden ones in both), and the exposed
/// and the hidden picks' floors: how many of each pick the list went through tells what score
/// a further symbol must have to change it.
fn picked(
    weights: &super::structure::Weights<'_, '_>,
    ranked: &[super::structure::Ranked<'_>],
    fold: Option<super::structure::Fold<'_>>,
) -> (Vec<SymbolEntry>, [f64; 2]) {
    let tiers = |per_file, n| super::structure::ranked_symbol_tiers(weights, per_file, n, fold);
    let first = tiers(FIRST_PER_FILE, FIRST_SYMBOLS);
    let more = tiers(MORE_PER_FILE, MORE_SYMBOLS);
    let picks = [
        (&first.exposed, &first.exposed_scores, FIRST_SYMBOLS, false),
        (&more.exposed, &more.exposed_scores, MORE_SYMBOLS, false),
        (&first.hidden, &first.hidden_scores, FIRST_SYMBOLS, true),
        (&more.hidden, &more.hidden_scores, MORE_SYMBOLS, true),
    ];
    // A name shown once is enough: a C function's header declaration and its definition, or
    // a namesake in another directory, would spend a line on what the reader already has. A
    // type listed for a method is that method's namesake too: rack-protection's middleware
    // classes, each listed for its `call`, took a dozen lines of sinatra's overview. Where a
    // name is its package's (Go, Rust, Java, Python: a caller names `binding.Default`, not
    // `Default`), a namesake in another directory is another definition: gin's `Default()`,
    // which every example calls, was left out for `binding.Default`. Member names stay one
    // set: a dozen classes listed for their `get` would say little more (commons-lang).
    let mut shown = std::collections::HashSet::new();
    let mut scoped = std::collections::HashSet::new();
    let mut members_shown = std::collections::HashSet::new();
    let mut symbols: Vec<SymbolEntry> = Vec::new();
    // The ranked files by path, for what each entry's facts say (babel ranks 28,000 files).
    let by_path: HashMap<&[u8], &super::structure::Ranked<'_>> =
        ranked.iter().map(|r| (r.file.path.as_slice(), r)).collect();
    let mut floors = [f64::MAX; 2];
    for (entries, scores, n, hidden) in picks {
        let mut consumed = 0;
        for s in entries.iter() {
            if symbols.len() == MORE_SYMBOLS {
                break;
            }
            consumed += 1;
            // A test's or an example's code is no part of the API, however little else there
            // is: okhttp's overview (Kotlin, which RepoCue does not outline) listed the Java
            // classes of its samples and an Android test. The structure view still has them.
            // Nor is a Cargo build script's (anyhow's `build.rs` `fn main()`: what it probes
            // is no API).
            if importance::role(s.path.as_bytes()) != importance::Role::Source
                || in_support_top_dir(s.path.as_bytes())
                || paths::file_name(s.path.as_bytes()) == b"build.rs"
            {
                continue;
            }
            // Nor is a hidden member, a line of its own at any budget: monolog's overview
            // listed `[SyslogFormatter] private const NILVALUE` and three more beside it. A
            // type stays (rack's `Rack::Multipart::ParamList`, a class in a module).
            if hidden && s.name.contains('.') && !is_type_entry(ranked, s) {
                continue;
            }
            // Nor a C type's tag beside its typedef (`typedef struct foo_s { … } foo` was
            // two lines of one number): the typedef's name is the type's. Nor an export
            // macro, which names nothing, nor what a function's body defines (koa's `const
            // handleRequest` inside `Application.callback`): no other code can name it.
            if is_no_api_line(&by_path, s) {
                continue;
            }
            // A Rust `impl` block of a type the list names is that type's: its methods are the
            // type's members, not a line of their own (anyhow's `impl Error` below `pub struct
            // Error` with `.msg .context`).
            if impl_type(&s.name).is_some_and(|t| shown.contains(t)) {
                continue;
            }
            let (own, scope) = (last_segment(&s.name), package_scope(&s.path));
            let members = s.members.iter().map(String::as_str);
            let own_taken = match scope {
                "" => shown.contains(own),
                _ => scoped.contains(&(scope, own)) || members_shown.contains(own),
            };
            if !own_taken && members.clone().all(|n| !shown.contains(n)) {
                shown.insert(own);
                scoped.insert((scope, own));
                shown.extend(members.clone());
                members_shown.extend(members);
                symbols.push(s.clone());
            }
        }
        // (An `impl` picked before its type.)
        symbols.retain(|s| impl_type(&s.name).is_none_or(|t| !shown.contains(t)));
        let exhausted = symbols.len() < MORE_SYMBOLS;
        let floor = &mut floors[usize::from(hidden)];
        *floor = floor.min(super::structure::Tiers::floor(
            scores, consumed, n, exhausted,
        ));
    }
    (symbols, floors)
}

/// The type a Rust `impl` block's symbol name is of: `Error` of `impl Error`, `impl<T>
/// Error<T>`, `impl fmt::Display for Error`, `impl From<io::Error> for crate::Error`.
fn impl_type(name: &str) -> Option<&str> {
    let rest = name.strip_prefix("impl")?;
    let rest = match rest.strip_prefix('<') {
        // `impl<T: Clone> Error<T>`: after the generics' closing bracket.
        Some(_) => {
            let mut depth = 0usize;
            let end = rest.char_indices().find_map(|(i, c)| {
                match c {
                    '<' => depth += 1,
                    '>' => depth = depth.saturating_sub(1),
                    _ => {}
                }
                (depth == 0 && c == '>').then_some(i + 1)
            })?;
            &rest[end..]
        }
        None => rest,
    };
    let rest = rest.strip_prefix(' ')?;
    let ty = rest.rsplit_once(" for ").map_or(rest, |(_, t)| t);
    // A reference's lifetime and `mut`: the words before the type's.
    let ty = ty.split('<').next()?.rsplit([' ', '&']).next()?;
    let ty = ty.rsplit("::").next()?.trim();
    (!ty.is_empty()).then_some(ty)
}

/// Whether a listed symbol is a type (a class, struct, interface, enum, module…) of its
/// ranked file.
fn is_no_api_line(
    by_path: &HashMap<&[u8], &super::structure::Ranked<'_>>,
    s: &SymbolEntry,
) -> bool {
    by_path
        .get(s.path.as_bytes())
        .and_then(|r| r.analysis.code.as_ref())
        .is_some_and(|c| {
            c.symbols
                .iter()
                .find(|x| x.qualified_name == s.name && x.start_line == s.line)
                .is_some_and(|x| {
                    super::structure::is_typedefs_tag(x, &c.symbols)
                        || importance::is_attribute_macro(x)
                        || super::structure::is_local(x, &c.symbols)
                })
        })
}

fn is_type_entry(ranked: &[super::structure::Ranked<'_>], s: &SymbolEntry) -> bool {
    ranked
        .iter()
        .find(|r| r.file.path == s.path.as_bytes())
        .and_then(|r| r.analysis.code.as_ref())
        .and_then(|c| c.symbols.iter().find(|x| x.qualified_name == s.name))
        .is_some_and(|x| repocue_structure::symbol_priority(&x.kind) == 0)
}

/// Names among a listed type's members the methods of it that `unfolded` (the list with
/// every method on a line of its own) picks: what the type's line stands for.
fn name_picked_methods(
    symbols: &mut [SymbolEntry],
    unfolded: &[SymbolEntry],
    files: &HashMap<String, &super::structure::Ranked<'_>>,
) {
    for m in unfolded {
        let Some(all) = files
            .get(&m.path)
            .and_then(|r| r.analysis.code.as_ref())
            .map(|c| &c.symbols)
        else {
            continue;
        };
        // A hidden method is no member to name (devise's protected `resource_class`).
        let Some(method) = all
            .iter()
            .find(|x| x.qualified_name == m.name && !importance::is_hidden(x))
        else {
            continue;
        };
        let Some((at, Some(member))) = owner_line(all, method) else {
            continue;
        };
        let owner = &all[at].qualified_name;
        if let Some(line) = symbols
            .iter_mut()
            .find(|s| s.path == m.path && &s.name == owner)
        {
            if !line.members.contains(&member) {
                line.members.push(member);
            }
        }
    }
}

/// The line that lists a method ([`super::structure::Fold`]): the type that holds it, whose
/// members then name it. A Ruby method is used by its bare name, so a DSL's `enable` and `set`
/// outranked the class that defines them, and sinatra's `Sinatra::Base` was listed at no
/// budget; and a listed type's method took a line of its own for what a member name says
/// (cobra's `func (c *Command) Execute() error` after `Command`). The type is the method's
/// parent in its file: a class, struct, trait, interface, enum or type, or a module that is no
/// namespace (a mixin such as `Sinatra::Helpers`); a method of an `impl` block or of a
/// namespace stands for itself. A field is shown by its type too (cobra's `Use string`
/// took a line of `command.go`'s two), as is a constructor, a protocol method, a `_name`
/// ([`is_member_name`]) or a Rust method without `pub` (a trait's), none of them a member.
fn owner_line(all: &[SymbolFact], method: &SymbolFact) -> Option<(usize, Option<String>)> {
    let field = method.kind == "field";
    if !field && !matches!(method.kind.as_str(), "method" | "function") {
        return None;
    }
    // A top-level function has no parent to look for (the scan below is per symbol, so a C
    // file of a few hundred functions made it quadratic).
    let parent = method.parent()?;
    let at = all.iter().position(|x| x.qualified_name == parent)?;
    let parent = &all[at];
    let typed = repocue_structure::symbol_priority(&parent.kind) == 0
        || (parent.kind == "module" && !super::structure::is_namespace(parent, all));
    let name = last_segment(&method.qualified_name);
    typed.then(|| {
        let member = !field
            && is_member_name(name, (last_segment(&parent.qualified_name), &parent.kind))
            && !is_rust_unmarked_method(method, parent);
        (at, member.then(|| name.to_owned()))
    })
}

/// Where a file that defines `main` comes among the entry points, least first: whether its
/// `main` is conditional, whether it is in another language than the project's main one,
/// whether it lies below the root, and how many names it references, most first (see
/// `code_summary`).
type MainOrder = (bool, bool, bool, std::cmp::Reverse<usize>);

/// A file's `main` function, if it defines one: C's, Go's, Rust's (not `pub(crate)`) `main`, or a class's static
/// `main` (Java's `public static void main(String[] args)`, C#'s `static void Main`):
/// spring-petclinic's `PetClinicApplication` was no entry point.
fn main_function(code: &crate::analyze::structure::CodeFacts) -> Option<&SymbolFact> {
    // A Rust program's `main` is never `pub(crate)`: tokio-macros' `pub(crate) fn main(args:
    // TokenStream, …)` in `entry.rs` is a helper, and the file was listed as an entry point.
    let rust = code.language == "Rust";
    code.symbols.iter().find(|s| {
        (s.qualified_name == "main"
            && s.kind == "function"
            && !(rust && s.visibility.as_deref() == Some("internal")))
            || (s.kind == "method"
                && s.parent().is_some()
                && matches!(s.name(), "main" | "Main")
                && s.signature.split_whitespace().any(|w| w == "static"))
    })
}

/// Whether a Rust file can be a binary crate's root by Cargo's layout: a `main.rs`, or a
/// file of a `bin/` directory (`src/bin/tool.rs`, `src/bin/tool/main.rs`).
fn is_rust_program_root(path: &[u8]) -> bool {
    paths::file_name(path) == b"main.rs"
        || path.starts_with(b"bin/")
        || path.windows(5).any(|w| w == b"/bin/")
}

/// What the manifests declare, for [`code_summary`]: the entry points, the sources of those
/// that are build output, the root namespaces, and the package.json directories with whether
/// each names its entry points ([`declaring_packages`]).
type Declared<'a> = (
    &'a [String],
    &'a [String],
    &'a [NamespaceRoot],
    &'a [(Vec<u8>, bool)],
);

/// Ranks the snapshot's code once (the overview data that holds the result is cached per
/// snapshot, since ranking reads the code facts of every source file). Unlike the structure
/// view, edited files get no boost here: the overview lists them under `working_tree`
/// already, and a boost would reorder the symbols on every edit and break the stable prefix
/// that prompt caches reuse.
fn code_summary(
    state: &Reader,
    name: &str,
    (entries, roots, namespaces, declaring): Declared<'_>,
    dependencies: &[String],
    build_scripts: &[Vec<u8>],
) -> Result<CodeSummary> {
    let ranked = super::structure::ranked_files(state, b"", entries, roots, false)?;
    // The list, each picked method listed as its type ([`owner_line`]); and the list as it
    // would be with every method on a line of its own: a listed type names those of its
    // methods that that one picks among its members (cobra's `Execute`, sinatra's `set`).
    let weights = super::structure::Weights::new(&ranked, true).named_after(last_name(name));
    let (mut symbols, mut floors) = picked(&weights, &ranked, Some(&owner_line));
    let (unfolded, unfolded_floors) = picked(&weights, &ranked, None);
    drop(weights);
    for (floor, other) in floors.iter_mut().zip(unfolded_floors) {
        *floor = floor.min(other);
    }
    // The files of the picked symbols, found in one pass over the ranked files.
    let wanted: std::collections::HashSet<&str> = symbols.iter().map(|s| s.path.as_str()).collect();
    let files: HashMap<String, &super::structure::Ranked<'_>> = ranked
        .iter()
        .map(|r| (paths::display(&r.file.path), r))
        .filter(|(p, _)| wanted.contains(p.as_str()))
        .collect();
    name_picked_methods(&mut symbols, &unfolded, &files);
    let classes = classes(&ranked);
    let packages = go_packages(&ranked);
    let impls = rust_impls(&ranked);
    let partials = csharp_partials(&ranked);
    let mut member_sources = std::collections::BTreeSet::new();
    let mut earlier = std::collections::HashSet::new();
    let symbols: Vec<SymbolEntry> = symbols
        .into_iter()
        .map(|s| {
            let file = files.get(&s.path).copied();
            let key = (s.path.clone(), s.name.clone());
            let known = Known {
                classes: &classes,
                packages: &packages,
                impls: &impls,
                partials: &partials,
                earlier: &earlier,
            };
            let s = with_members(file, &known, &mut member_sources, s);
            earlier.insert(key);
            s
        })
        .collect();
    // A function wraps a method when both are found with the same parameters (a function in
    // its file, a method in the type's file or, for Go, any file of its package).
    let signature_of = |path: &str, qualified: &str| -> Option<&str> {
        let go = path.ends_with(".go");
        let dir = path.rsplit_once('/').map_or("", |(d, _)| d);
        ranked
            .iter()
            .filter(|r| {
                let p = paths::display(&r.file.path);
                p == path
                    || (go
                        && p.ends_with(".go")
                        && p.rsplit_once('/').map_or("", |(d, _)| d) == dir)
            })
            .filter_map(|r| r.analysis.code.as_ref())
            .flat_map(|c| &c.symbols)
            .find(|s| s.qualified_name == qualified)
            .map(|s| s.signature.as_str())
    };
    let wraps = |fpath: &str, fname: &str, tpath: &str, method: &str| {
        let last = last_segment(method);
        let f = signature_of(fpath, fname).and_then(|s| params_after(s, fname));
        let m = signature_of(tpath, method).and_then(|s| params_after(s, last));
        f.is_some() && f == m
    };
    let mut symbols = without_repeated_members(symbols, &wraps);
    // A file's first symbol names what else the file offers, but not itself, nor the first
    // symbols listed: those are there at the budgets that show the names.
    // Nor names an earlier file's `also` gave: a C source file defines what its header
    // declares, and git's `strbuf.c` repeated `strbuf.h`'s six names.
    let mut listed: std::collections::HashSet<String> = symbols
        .iter()
        .take(FIRST_SYMBOLS)
        .map(|s| last_segment(&s.name).to_owned())
        .collect();
    let mut named = std::collections::HashSet::new();
    // Nor a member of a type the file lists (viper's package-level `Get` beside `Viper`'s).
    let members: std::collections::HashSet<(String, String)> = symbols
        .iter()
        .flat_map(|s| s.members.iter().map(|m| (s.path.clone(), m.clone())))
        .collect();
    for s in &mut symbols {
        if let Some(r) = files.get(&s.path).filter(|_| named.insert(s.path.clone())) {
            // Nor the symbol it comes with, whatever its place in the list (`cmd0` beside
            // `int cmd0(void)`).
            let own = last_segment(&s.name).to_owned();
            let path = s.path.clone();
            let shown = |n: &str| {
                n == own || listed.contains(n) || members.contains(&(path.clone(), n.to_owned()))
            };
            s.also = super::structure::also_names(r, shown, ALSO_NAMES);
            listed.extend(s.also.iter().cloned());
        }
    }
    let source = |r: &&super::structure::Ranked<'_>| {
        importance::role(&r.file.path) == importance::Role::Source
    };
    // Programs in support directories (`scripts/`, `tools/`) are not where the project
    // starts, nor a package's own scripts (svelte's
    // `packages/svelte/scripts/generate-browser-support.ts`), nor the maintainers' scripts
    // beside the project (fmt's `support/printable.py`, pytest's `extra/get_issues.py`,
    // Kubernetes' `hack/`).
    let support = |r: &&super::structure::Ranked<'_>| {
        let path = &r.file.path;
        let dirs = &path[..path.iter().rposition(|&b| b == b'/').unwrap_or(0)];
        paths::top_dir(path)
            .is_some_and(|d| component_rank(&format!("{}/", paths::display(d))) == 2)
            || dirs.split(|&b| b == b'/').any(|d| {
                PROGRAM_SUPPORT_DIRS
                    .iter()
                    .any(|s| d.eq_ignore_ascii_case(s.as_bytes()))
            })
    };
    // Files that define `main`: programs in the project's main language (the family of most
    // of its own code files) first, git's `common-main.c` before its `git-p4.py`; then the
    // program that uses most (references most names): redis's `server.c` before its
    // `redis-cli.c` and `utils/corrupt_rdb.c`, prometheus's `cmd/prometheus/main.go` before a
    // code generator's (a file that was little else than its `main` came first, and those two
    // last). Last a `main` defined only under a
    // preprocessor condition (a platform's `#ifdef _WIN32`); the conditional `main` of a file
    // that defines other functions is their test or debug build's, no program: git's
    // `base85.c`, redis's `localtime.c` behind `#ifdef LOCALTIME_TEST_MAIN`. Cargo build
    // scripts are not programs of the project: `build.rs`, or what `build = "…"` names.
    let mut families: BTreeMap<&str, usize> = BTreeMap::new();
    for r in ranked.iter().filter(source) {
        if let Some(language) = r.code_language() {
            *families
                .entry(importance::language_family(language))
                .or_default() += 1;
        }
    }
    // The most files, then the first by name: deterministic on a tie.
    let main_family = families
        .iter()
        .max_by(|a, b| a.1.cmp(b.1).then(b.0.cmp(a.0)))
        .map(|(f, _)| *f);
    let mut mains: Vec<(MainOrder, &super::structure::Ranked<'_>)> = ranked
        .iter()
        .filter(source)
        .filter(|r| !support(r) && paths::file_name(&r.file.path) != b"build.rs")
        .filter(|r| !is_tool(&r.file.path))
        .filter(|r| !build_scripts.contains(&r.file.path))
        .filter_map(|r| {
            let code = r.analysis.code.as_ref()?;
            // A Rust program starts in a crate root, `main.rs` or a file of `bin/` (a
            // manifest declares any other): a module's `pub fn main(args)` is a function
            // its program calls (rayon-demo's `mergesort/mod.rs`, six of them listed).
            if code.language == "Rust" && !is_rust_program_root(&r.file.path) {
                return None;
            }
            let main = main_function(code)?;
            let functions = code.symbols.iter().filter(|s| s.kind == "function");
            // `main#2`, a platform's other variant, is no other function.
            if main.conditional && functions.clone().any(|s| s.name() != "main") {
                return None;
            }
            let other_language = Some(importance::language_family(&code.language)) != main_family;
            // A program at the root is the repository's own: hugo's `main.go` (a call of
            // `commands.Execute`) came after two code generators that use more names.
            let nested = r.file.path.contains(&b'/');
            let uses = std::cmp::Reverse(code.references.len());
            Some(((main.conditional, other_language, nested, uses), r))
        })
        .collect();
    // Stable: equal keys keep rank order.
    mains.sort_by_key(|(key, _)| *key);
    let mains = mains
        .into_iter()
        .take(RANKED_ENTRIES)
        .map(|(_, r)| paths::display(&r.file.path))
        .collect();
    // Package roots by the weight of what they expose, not by what they define themselves;
    // one that exposes nothing is no place to start (uvicorn's empty `loops/__init__.py`).
    // An `index.js` inside a package whose manifest names its entry points is one of its
    // modules, not one of them (axios's `lib/defaults/index.js`, `lib/platform/node/index.js`).
    let undeclared_index = |r: &&super::structure::Ranked<'_>| {
        let path = r.file.path.as_slice();
        // The package a file is in is that of the nearest manifest above it.
        let package = declaring
            .iter()
            .filter(|(dir, _)| path.starts_with(dir))
            .max_by_key(|(dir, _)| dir.len());
        is_directory_index(path)
            && package.is_some_and(|(_, declares)| *declares)
            && !entries.iter().chain(roots).any(|e| e.as_bytes() == path)
    };
    // With a `src/` layout, what is installed is what `src/` holds: a Python package beside
    // it is the project's own support (urllib3's `dummyserver/`, the test server its tests
    // import, was an entry point beside `src/urllib3/__init__.py`).
    let python_root = |r: &super::structure::Ranked<'_>| {
        r.root && paths::file_name(&r.file.path) == b"__init__.py"
    };
    let src_layout = ranked.iter().any(|r| is_src_layout_package(&r.file.path));
    let beside_src = |r: &&super::structure::Ranked<'_>| {
        src_layout && python_root(r) && !r.file.path.starts_with(b"src/")
    };
    let roots: Vec<&super::structure::Ranked<'_>> = ranked
        .iter()
        .filter(source)
        .filter(|r| !support(r) && r.root && !is_package_marker(r))
        .filter(|r| !undeclared_index(r) && !beside_src(r))
        .collect();
    // A root namespace is listed as its manifest, its weight what it exposes. The ranked files
    // by directory, once: a .NET solution may have hundreds of library projects.
    let mut by_dir: HashMap<&[u8], Vec<&super::structure::Ranked<'_>>> = HashMap::new();
    if !namespaces.is_empty() {
        for r in &ranked {
            by_dir.entry(parent_dir(&r.file.path)).or_default().push(r);
        }
    }
    let namespace_exports: Vec<(&NamespaceRoot, Vec<(String, f64)>)> = namespaces
        .iter()
        .map(|n| {
            let files = by_dir
                .get(n.dir.as_slice())
                .into_iter()
                .flatten()
                .filter_map(|r| Some((r.analysis.code.as_ref()?, &r.used_by, &r.client_uses)));
            (n, crate::analyze::graph::namespace_exports(files))
        })
        .filter(|(_, names)| !names.is_empty())
        .collect();
    let mut roots: Vec<(f64, String)> = roots
        .into_iter()
        .map(|r| (r.api_mass, paths::display(&r.file.path)))
        .chain(
            namespace_exports
                .iter()
                .map(|(n, names)| (names.iter().map(|(_, w)| w).sum(), n.manifest.clone())),
        )
        .collect();
    roots.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut roots: Vec<String> = roots
        .into_iter()
        .take(RANKED_ENTRIES)
        .map(|(_, path)| path)
        .collect();
    roots.extend(go_root_file(&ranked, name));
    // Twice the names shown at most ([`EXPORT_NAMES`] and then twice as many more): those
    // another root lists already are left out.
    let listed = |names: &[(String, f64)]| -> Vec<String> {
        let names = names.iter().take(4 * EXPORT_NAMES);
        names.map(|(n, _)| n.clone()).collect()
    };
    let exports = ranked
        .iter()
        .filter(|r| !r.root_exports.is_empty())
        .map(|r| (paths::display(&r.file.path), listed(&r.root_exports)))
        .chain(
            namespace_exports
                .iter()
                .map(|(n, names)| (n.manifest.clone(), listed(names))),
        )
        .collect();
    let file_rank = ranked
        .iter()
        .map(|r| (r.file.path.clone(), r.score))
        .collect();
    let imports = ranked
        .iter()
        .filter(source)
        .filter_map(|r| Some(r.analysis.code.as_ref()?.imports.as_slice()));
    Ok(CodeSummary {
        dependencies: by_use(dependencies, imports),
        symbols,
        mains,
        roots,
        exports,
        file_rank,
        delegates: delegates(&ranked, name),
        graph: reuse::GraphSummary::new(
            super::structure::score_bounds(&ranked, FIRST_SYMBOLS.max(MORE_SYMBOLS)),
            floors,
            ranked.iter().filter_map(|r| r.analysis.code.as_ref()),
            &super::structure::minor_families(&ranked),
            member_sources.into_iter().collect(),
            handed_roots(&ranked, namespaces),
        ),
    })
}

/// Whether a program is one of the project's own tools rather than one of its programs: a
/// code generator (in a `gen/`, `codegen/`, `generate/`, `generator(s)/` directory: hugo's
/// `livereload/gen/main.go`) or a Go program in an `internal/` directory, which Go lets
/// nothing outside the project use (zap's README generator `internal/readme/readme.go`,
/// hugo's `internal/warpc/genjs/main.go`). Not C++'s `internal/`, a convention only:
/// Catch2's `src/catch2/internal/catch_main.cpp` is the `main` it gives its users. A file
/// named as a generator is one wherever it lies (client_golang's
/// `prometheus/gen_go_collector_metrics_set.go`, run by `go generate`). Nor is a Go program in
/// a directory Go's tools skip (`_codegen/`, `testdata/`), nor a program CMake builds to check
/// a feature (`cmake/posix_regex.cpp`).
fn is_tool(path: &[u8]) -> bool {
    let dirs = &path[..path.iter().rposition(|&b| b == b'/').unwrap_or(0)];
    let go = path.ends_with(b".go");
    let stem = paths::file_name(path).to_ascii_lowercase();
    if [b"gen_".as_slice(), b"gen-", b"generate"]
        .iter()
        .any(|p| stem.starts_with(p))
    {
        return true;
    }
    dirs.split(|&b| b == b'/').any(|d| {
        let named = |t: &str| d.eq_ignore_ascii_case(t.as_bytes());
        // Go's tools skip a directory named `_…` or `testdata`: no `go build` builds a
        // program there (testify's `_codegen/main.go`).
        let go_skips = go && (d.starts_with(b"_") || named("testdata"));
        (go && named("internal"))
            || go_skips
            // The build's feature checks (google/benchmark's `cmake/posix_regex.cpp`).
            || named("cmake")
            || ["gen", "codegen", "generate", "generator", "generators"]
                .into_iter()
                .any(named)
    })
}

/// Whether a Go file defines methods alone: of a type another file of the package defines,
/// which is where a reader starts (lipgloss's `set.go`, a hundred setters of `Style`, was its
/// first entry point, before the file of `Style` and `NewStyle`).
fn only_methods(r: &super::structure::Ranked<'_>) -> bool {
    r.analysis.code.as_ref().is_some_and(|c| {
        c.language == "Go" && !c.symbols.is_empty() && c.symbols.iter().all(|s| s.kind == "method")
    })
}

/// The file a reader of a Go package at the repository's root starts with when none is named
/// after the module (`entry_points` lists `cobra.go` for `github.com/spf13/cobra`): the file
/// its clients use most. bubbletea's package `tea` is `tea.go`, toml's `decode.go`; neither was
/// listed. `None` without Go code at the root, with a file named after the module, or with a
/// program there (its `main` is the entry point).
fn go_root_file(ranked: &[super::structure::Ranked<'_>], project: &str) -> Option<String> {
    let own = format!("{}.go", last_name(project));
    let at_root = ranked.iter().filter(|r| {
        !r.file.path.contains(&b'/')
            && r.code_language() == Some("Go")
            && importance::role(&r.file.path) == importance::Role::Source
            && !only_methods(r)
    });
    let program = |r: &super::structure::Ranked<'_>| {
        r.analysis.code.as_ref().and_then(main_function).is_some()
    };
    if at_root
        .clone()
        .any(|r| r.file.path == own.as_bytes() || program(r))
    {
        return None;
    }
    // What the package's clients (its tests and examples) call most, then rank: toml's
    // `decode.go` (`Decode`, `Unmarshal`), not `type_toml.go`, the type every file uses.
    let clients = |r: &super::structure::Ranked<'_>| r.client_uses.values().sum::<f64>();
    at_root
        .max_by(|a, b| {
            clients(a)
                .total_cmp(&clients(b))
                .then(a.score.total_cmp(&b.score))
                .then(b.file.path.cmp(&a.file.path))
        })
        .map(|r| paths::display(&r.file.path))
}

/// The directories (with their `/`; empty at the top) of the package.json manifests, each
/// with whether it names its entry points (`main`, `exports`, `module`, …), sorted.
fn declaring_packages<'a>(
    manifests: impl Iterator<Item = &'a (&'a FileState, &'a ManifestFacts)>,
) -> Vec<(Vec<u8>, bool)> {
    let mut dirs: Vec<(Vec<u8>, bool)> = manifests
        .filter(|(f, _)| paths::file_name(&f.path) == b"package.json")
        .map(|(f, m)| {
            let dir = f.path[..f.path.len() - b"package.json".len()].to_vec();
            (dir, !m.entry_points.is_empty())
        })
        .collect();
    dirs.sort();
    dirs.dedup();
    dirs
}

/// Whether a path is a JavaScript or TypeScript directory's index module (`index.js`,
/// `index.ts`, …), a package root by its name alone ([`importance::is_package_root`]).
fn is_directory_index(path: &[u8]) -> bool {
    matches!(
        paths::file_name(path),
        b"index.js" | b"index.ts" | b"index.mjs" | b"index.tsx"
    )
}

/// Whether a ranked file is a Python package's `__init__.py` that defines, imports and exports
/// nothing (a sub-package's: defines and exports nothing of the project's): it only marks the
/// directory a package. So is a Java root package's
/// `package-info.java` whose package holds no public class: mybatis's `org/apache/ibatis/`
/// holds only packages, and its javadoc file was the one entry point listed.
fn is_package_marker(r: &super::structure::Ranked<'_>) -> bool {
    match paths::file_name(&r.file.path) {
        b"__init__.py" => {
            // A sub-package's that hands on only what other projects define (sqlmodel's
            // `pool/__init__.py`, SQLAlchemy's `StaticPool`) is no more.
            let depth = r.file.path.iter().filter(|&&b| b == b'/').count();
            let sub_package = depth >= 2 && !is_src_layout_package(&r.file.path);
            r.root_exports.is_empty()
                && r.analysis
                    .code
                    .as_ref()
                    .is_none_or(|c| c.symbols.is_empty() && (c.imports.is_empty() || sub_package))
        }
        b"package-info.java" => r.root_exports.is_empty(),
        _ => false,
    }
}

/// The files package roots hand over to, the roots a manifest declares rather than their path
/// makes ([`super::structure::Ranked::root`]), and the files roots hand on whole (`export *
/// from`), by path, sorted: an edit to one may change a root's exports.
fn handed_roots(
    ranked: &[super::structure::Ranked<'_>],
    namespaces: &[NamespaceRoot],
) -> Vec<String> {
    let namespace_dirs: HashSet<&[u8]> = namespaces.iter().map(|n| n.dir.as_slice()).collect();
    let declared = ranked
        .iter()
        .filter(|r| {
            (r.root && !importance::is_package_root(&r.file.path))
                || r.star_handed
                || namespace_dirs.contains(parent_dir(&r.file.path))
        })
        .map(|r| r.file.path.as_slice());
    let mut roots: Vec<String> = super::structure::handed_roots(ranked)
        .into_iter()
        .chain(declared)
        .map(paths::display)
        .collect();
    roots.sort();
    roots.dedup();
    roots
}

/// Most names a package root's exports list: six names cost about what one signature line
/// does.
const EXPORT_NAMES: usize = 6;

/// The round past every section's top items where a root's exports past the first
/// [`EXPORT_NAMES`] come (with `tiered`'s `top` of 0: round 10 + this + the entry's place).
const MORE_EXPORTS_ROUND: usize = 2;

/// Rounds between an entry point and its exports. Measured with `bench/quality/run.sh`
/// (overview, mean recall of the tuned repositories at 250, 500, 1,000 and 2,000 tokens;
/// before: text 0.5788 0.8277 0.9024 0.9482, JSON 0.3875 0.7175 0.8737 0.9482): after 2
/// rounds, text 0.5788 0.8277 0.9024 0.9538 and JSON 0.3875 0.7175 0.8739 0.9538 (ripgrep's
/// `GlobSet` at 1,000, babel's `parseExpression` at 2,000), nothing lost at any budget; after
/// 1 round, text at 500 gained (0.8334) but JSON lost (0.7060: flask's `url_for`, babel's test
/// command). The held-out repositories have no package root the overview lists. Measured
/// again once the lists named what users call (a name's uses, not its file's rank, weigh it:
/// see `graph::export_weight`), from text 0.6087 0.8616 0.9354 0.9548 and JSON 0.4032 0.7822
/// 0.9108 0.9548: after 1 round, text 0.6087 0.8666 0.9354 0.9548 (ripgrep's `GlobSet` at
/// 500) and JSON 0.4032 0.7870 0.9060 0.9548 (at 500 babel's `transformSync` and
/// `transformFromAstSync` and express's `createApplication` for flask's `Config` and
/// ripgrep's `grep` crate; at 1,000 babel's changelog lost): one round, for what 500 tokens
/// show in both formats.
const EXPORTS_DELAY: usize = 1;

/// The round of the sections' items the totals come with: past the fifth, so after every
/// section's first items (a line of counts names no fact a contributor must learn). Measured
/// with `bench/quality/run.sh` after the text format's terser lines (mean text overview recall
/// of the tuned repositories at 250, 500, 1,000 and 2,000 tokens): at round 3, 0.5853 0.8277
/// 0.9082 0.9596 (the room the terser lines freed went to the totals, which pushed flask's
/// dependencies out); at 6, 0.5853 0.8336 0.9137 0.9596. Held out: 0.5357 0.7679 0.7857
/// 0.8036 → 0.5357 0.7500 0.7857 0.8036 (gson's fifth component gave way to a type's members).
const TOTALS_ROUND: usize = 6;

/// Rounds per recent commit after the first two: the symbols, their members and other names
/// that come in between are what a newcomer needs more than the history of the week. One
/// round each, git's nine commits filled a 1,000-token overview where `commit.h` would have
/// named `lookup_commit`. Measured with `bench/quality/run.sh` (overview, mean recall of the
/// tuned repositories at 250, 500, 1,000 and 2,000 tokens): text 0.6036 0.8416 0.9104 0.9398
/// → 0.6036 0.8467 0.9153 0.9398, JSON 0.3978 0.7272 0.8861 0.9353 → 0.3978 0.7272 0.8861
/// 0.9402 (express's `sendFile`, git's `lookup_commit` and `run_command`), nothing lost; held
/// out, rack's `Request` in text at 500.
const LATER_COMMIT_STEP: usize = 2;

/// Rounds of symbols between a type and its members in the overview's ranking.
const MEMBER_DELAY: usize = 2;

/// Most names of a file's other definitions its first symbol brings (`also`): a name costs a
/// few tokens where a signature costs a line. Measured with `bench/quality/run.sh` (overview,
/// every budget and format, tuned repositories' mean recall, before: text 0.7927, JSON
/// 0.7202): 6 names give 0.8043 and 0.7288 (git's `parse_options` and `lookup_commit`,
/// babel's `transformSync` and `loadOptions`, express's `sendFile`, at 1,000-2,000 tokens);
/// 4 or 8 names 0.8028 and 0.7274. The held-out repositories' recall did not move.
const ALSO_NAMES: usize = 6;

/// Rounds of symbols between a file's first symbol and its `also` names, after the type's
/// members. Measured like [`ALSO_NAMES`] with 4 names, text recall: 0.7955 at 1 round, 0.7983
/// at 2, 0.8000 at 3, 0.8028 at 4, 0.7999 at 5 and 6; sooner, the names displace other
/// sections' items at 500 tokens.
const ALSO_DELAY: usize = 4;

/// Most members a type brings into the overview by use alone: its most used public methods,
/// by name. The methods the list picks join them beyond it ([`owner_line`]).
const MAX_MEMBERS: usize = 4;

/// Methods every type of a language may define to take part in its protocols (printing,
/// equality, ordering, sorting): never what distinguishes a type's API.
const PROTOCOL_METHODS: &[&str] = &[
    "toString",
    "equals",
    "hashCode",
    "compareTo",
    "clone",
    "String",
    "Error",
    "Len",
    "Less",
    "Swap",
    "GoString",
    "MarshalJSON",
    "UnmarshalJSON",
    "Equals",
    "GetHashCode",
    "ToString",
    "CompareTo",
    // Ruby's hooks and protocol: `method_missing` was a member of faraday's `Faraday`.
    "method_missing",
    "respond_to_missing?",
    "to_s",
    "inspect",
];

/// Completes an overview symbol: a type brings the names of its most important public methods
/// (what users of the type call: cobra's `Command.Execute`), its own and those it inherits from
/// the project's classes it extends (Flask's `route`, which `Flask` inherits from
/// `sansio/scaffold.py`'s `Scaffold`), and a long signature is cut to its head (see
/// [`OVERVIEW_SIGNATURE_CHARS`]). The files of the classes it extends are added to `sources`.
/// A class listed before it (`earlier`: paths and names) names its methods itself: they are
/// not repeated under each subclass (monolog's `StreamHandler` listed `.handle .handleBatch`
/// of the `Handler` above it, not its own `getStream`).
fn with_members<'r>(
    file: Option<&'r super::structure::Ranked<'_>>,
    known: &Known<'r, '_, '_>,
    sources: &mut std::collections::BTreeSet<String>,
    mut entry: SymbolEntry,
) -> SymbolEntry {
    let (classes, earlier) = (known.classes, known.earlier);
    entry.signature = abbreviate(&entry.signature, &entry.name);
    let Some(r) = file else {
        return entry;
    };
    let all = r.analysis.code.as_ref().map_or(&[][..], |c| &c.symbols[..]);
    let Some(ty) = all.iter().find(|s| {
        s.qualified_name == entry.name && repocue_structure::symbol_priority(&s.kind) == 0
    }) else {
        return entry;
    };
    let mut members = methods(r, ty);
    // What the type defines itself overrides what it inherits.
    let mut own: std::collections::HashSet<&str> = all
        .iter()
        .filter(|m| m.parent() == Some(ty.qualified_name.as_str()))
        .map(SymbolFact::name)
        .collect();
    // A Go type's methods may be declared in any file of its package (chi's `Middlewares` in
    // `chi.go`, its `Handler` and `HandlerFunc` in `chain.go`, listed as lines of their own).
    let go = r.analysis.code.as_ref().is_some_and(|c| c.language == "Go");
    let package = known.packages.get(package_dir(&r.file.path)).filter(|_| go);
    // A Rust type's methods may be implemented in any file of its crate (anyhow's `Error`
    // in `lib.rs`, its `impl Error` in `error.rs`).
    let impls = known
        .impls
        .get(&(importance::rust_crate_dir(&r.file.path), ty.name()))
        .filter(|_| ty.parent().is_none());
    // A C# partial type's members are those of all its parts (Polly's `ResiliencePipeline`
    // declares `Execute` in `ResiliencePipeline.Sync.cs`), and it is shown as the part in the
    // file named for it.
    let parts = known
        .partials
        .get(ty.qualified_name.as_str())
        .filter(|_| is_partial_type(ty));
    if let Some((main, part)) = parts.into_iter().flatten().find_map(|p| {
        let name = p.file.path.rsplit(|&b| b == b'/').next()?;
        let named = name.strip_suffix(b".cs") == Some(ty.name().as_bytes());
        let code = p.analysis.code.as_ref()?;
        let part = code
            .symbols
            .iter()
            .find(|s| s.qualified_name == ty.qualified_name && is_partial_type(s));
        part.filter(|_| named && !std::ptr::eq(*p, r))
            .map(|s| (*p, s))
    }) {
        entry.path = paths::display(&main.file.path);
        entry.line = part.start_line;
        entry.signature = abbreviate(&part.signature, &entry.name);
    }
    let elsewhere = package
        .into_iter()
        .flatten()
        .chain(impls.into_iter().flatten())
        .chain(parts.into_iter().flatten());
    for other in elsewhere.filter(|o| !std::ptr::eq(**o, r)) {
        let found = methods(other, ty);
        if !found.is_empty() {
            sources.insert(paths::display(&other.file.path));
            own.extend(found.iter().map(|(_, n)| *n));
            members.extend(found);
        }
    }
    let mut seen = vec![ty.qualified_name.as_str()];
    let mut next: Vec<(&super::structure::Ranked<'_>, &SymbolFact)> = vec![(r, ty)];
    while let Some((r, class)) = next.pop() {
        let language = r.analysis.code.as_ref().map_or("", |c| c.language.as_str());
        for base in importance::base_classes(language, &class.signature) {
            let Some(&Some((br, bt))) = classes.get(base) else {
                continue;
            };
            if seen.len() > MAX_ANCESTORS || seen.contains(&bt.qualified_name.as_str()) {
                continue;
            }
            seen.push(&bt.qualified_name);
            let base_path = paths::display(&br.file.path);
            let listed = earlier.contains(&(base_path.clone(), bt.qualified_name.clone()));
            sources.insert(base_path);
            if listed {
                continue;
            }
            members.extend(
                methods(br, bt)
                    .into_iter()
                    .filter(|(_, n)| !own.contains(n)),
            );
            next.push((br, bt));
        }
    }
    // The methods the type stands for in the list ([`owner_line`]) are kept, in the
    // order of the others; those fill what is left of `MAX_MEMBERS`.
    let listed = std::mem::take(&mut entry.members);
    let mut others = MAX_MEMBERS.saturating_sub(listed.len());
    for name in super::structure::heaviest_names(members, usize::MAX) {
        if listed.contains(&name) {
            entry.members.push(name);
        } else if others > 0 {
            others -= 1;
            entry.members.push(name);
        }
    }
    // A mixin module's methods, or one the type's own list leaves out, come last.
    for name in listed {
        if !entry.members.contains(&name) {
            entry.members.push(name);
        }
    }
    entry
}

/// Drops what a type's members already name: a method a type listed before it names among
/// its members takes no line of its own (cobra's `func (c *Command) Name()` after `Command`'s
/// `.Name`), nor does a top-level function of the same file and name (viper's package-level
/// `func Get(key string) any`, which calls the global `Viper`'s `Get`), and a type listed
/// after one of its methods, or after such a function, does not name that method again.
fn without_repeated_members(symbols: Vec<SymbolEntry>, wraps: Wraps<'_>) -> Vec<SymbolEntry> {
    // A Go type's methods may be in any file of its package, its directory.
    let key = |path: &str, name: &str| {
        let scope = match path.strip_suffix(".go") {
            Some(_) => path.rsplit_once('/').map_or("", |(dir, _)| dir),
            None => path,
        };
        format!("{scope}\0{name}")
    };
    let mut lines: HashMap<String, (String, String)> = HashMap::new();
    let mut named = std::collections::HashSet::new();
    // A member's name → the type that lists it (its path and name).
    let mut member_of: HashMap<String, (String, String)> = HashMap::new();
    let mut out = Vec::with_capacity(symbols.len());
    for mut s in symbols {
        let top_level = !s.name.contains('.');
        let wrapper = top_level
            && member_of
                .get(&key(&s.path, &s.name))
                .is_some_and(|(tp, tn)| wraps(&s.path, &s.name, tp, &format!("{tn}.{}", s.name)));
        if named.contains(&key(&s.path, &s.name)) || wrapper {
            continue;
        }
        let member = |m: &String| key(&s.path, &format!("{}.{m}", s.name));
        let members: Vec<String> = std::mem::take(&mut s.members)
            .into_iter()
            .filter(|m| {
                let function = lines.get(&key(&s.path, m)).is_some_and(|(fp, fname)| {
                    wraps(fp, fname, &s.path, &format!("{}.{m}", s.name))
                });
                !lines.contains_key(&member(m)) && !function
            })
            .collect();
        named.extend(members.iter().map(member));
        for m in &members {
            member_of.insert(key(&s.path, m), (s.path.clone(), s.name.clone()));
        }
        s.members = members;
        lines.insert(key(&s.path, &s.name), (s.path.clone(), s.name.clone()));
        out.push(s);
    }
    out
}

/// Whether a top-level function (its path and name) wraps a type's method (the type's path,
/// the method's qualified name): the same parameters, as viper's `func Get(key string) any`
/// calls the global `Viper`'s `Get(key string) any`; chi's `URLParam(r *http.Request, key
/// string)` is no wrapper of `Context.URLParam(key string)`.
type Wraps<'w> = &'w dyn Fn(&str, &str, &str, &str) -> bool;

/// The parameter list after `name(` in a signature: `key string` in `func Get(key string) any`
/// and in `func (v *Viper) Get(key string) any`. `None` without one, or when it was cut.
fn params_after<'s>(signature: &'s str, name: &str) -> Option<&'s str> {
    let open = signature.find(&format!("{name}("))? + name.len();
    let mut depth = 0usize;
    for (i, c) in signature[open..].char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return Some(&signature[open + 1..open + i]);
                }
            }
            _ => {}
        }
    }
    None
}

/// What [`with_members`] looks a type's members up in: the project's classes by name, its Go
/// packages' files by directory, and the symbols listed before the type (paths and names).
struct Known<'r, 'a, 'e> {
    classes: &'e Classes<'r, 'a>,
    packages: &'e HashMap<&'r [u8], Vec<&'r super::structure::Ranked<'a>>>,
    /// The files of a Rust crate that implement a type's methods, by crate and type name
    /// ([`rust_impls`]).
    impls: &'e RustImpls<'r, 'a>,
    /// The files of each C# partial type, by its qualified name ([`csharp_partials`]).
    partials: &'e HashMap<&'r str, Vec<&'r super::structure::Ranked<'a>>>,
    earlier: &'e std::collections::HashSet<(String, String)>,
}

/// The project's own Rust files that hold `impl` blocks of a type, by the type's crate
/// ([`importance::rust_crate_dir`]) and name: only for a name one file of the crate defines as a type.
type RustImpls<'r, 'a> = HashMap<(&'r [u8], &'r str), Vec<&'r super::structure::Ranked<'a>>>;

/// The project's own Rust files with `impl` blocks of a type ([`RustImpls`]): anyhow's
/// `Error` is a struct of `lib.rs` whose methods (`msg`, `context`, `downcast`) are in
/// `error.rs`. In path order.
fn rust_impls<'r, 'a>(ranked: &'r [super::structure::Ranked<'a>]) -> RustImpls<'r, 'a> {
    let rust = |r: &&'r super::structure::Ranked<'a>| {
        r.analysis
            .code
            .as_ref()
            .is_some_and(|c| c.language == "Rust")
            && importance::role(&r.file.path) == importance::Role::Source
    };
    let mut definers: HashMap<(&[u8], &str), usize> = HashMap::new();
    let mut out: RustImpls<'r, 'a> = HashMap::new();
    for r in ranked.iter().filter(rust) {
        let krate = importance::rust_crate_dir(&r.file.path);
        let symbols = r.analysis.code.as_ref().map_or(&[][..], |c| &c.symbols[..]);
        for s in symbols.iter().filter(|s| s.parent().is_none()) {
            if repocue_structure::symbol_priority(&s.kind) == 0 {
                *definers.entry((krate, s.name())).or_default() += 1;
            }
        }
        let mut owners: Vec<&str> = symbols
            .iter()
            .filter(|s| s.kind == "method")
            .filter_map(|s| s.parent().filter(|p| !p.contains('.')))
            .collect();
        owners.sort_unstable();
        owners.dedup();
        for owner in owners {
            out.entry((krate, owner)).or_default().push(r);
        }
    }
    out.retain(|key, _| definers.get(key) == Some(&1));
    for files in out.values_mut() {
        files.sort_by(|a, b| a.file.path.cmp(&b.file.path));
    }
    out
}

/// The project's own C# files that declare a part of a `partial` type, by the type's
/// qualified name, in path order.
fn csharp_partials<'r, 'a>(
    ranked: &'r [super::structure::Ranked<'a>],
) -> HashMap<&'r str, Vec<&'r super::structure::Ranked<'a>>> {
    let mut out: HashMap<&str, Vec<&super::structure::Ranked<'a>>> = HashMap::new();
    for r in ranked {
        let Some(code) = r.analysis.code.as_ref().filter(|c| c.language == "C#") else {
            continue;
        };
        if importance::role(&r.file.path) != importance::Role::Source {
            continue;
        }
        for s in code.symbols.iter().filter(|s| is_partial_type(s)) {
            out.entry(s.qualified_name.as_str()).or_default().push(r);
        }
    }
    for files in out.values_mut() {
        files.sort_by(|a, b| a.file.path.cmp(&b.file.path));
        files.dedup_by(|a, b| std::ptr::eq(*a, *b));
    }
    out
}

/// Whether a symbol is a part of a C# `partial` class, struct, interface or record.
fn is_partial_type(s: &SymbolFact) -> bool {
    repocue_structure::symbol_priority(&s.kind) == 0
        && s.signature.split_whitespace().any(|w| w == "partial")
}

/// The directory of a path (its package, for Go), empty at the root.
fn package_dir(path: &[u8]) -> &[u8] {
    &path[..path.iter().rposition(|&b| b == b'/').unwrap_or(0)]
}

/// The project's own Go files by directory (a Go package is a directory), not its tests.
fn go_packages<'r, 'a>(
    ranked: &'r [super::structure::Ranked<'a>],
) -> HashMap<&'r [u8], Vec<&'r super::structure::Ranked<'a>>> {
    let mut out: HashMap<&[u8], Vec<&super::structure::Ranked<'a>>> = HashMap::new();
    for r in ranked {
        let go = r.analysis.code.as_ref().is_some_and(|c| c.language == "Go");
        if go && importance::role(&r.file.path) == importance::Role::Source {
            out.entry(package_dir(&r.file.path)).or_default().push(r);
        }
    }
    out
}

/// Most classes a type's inherited members are looked up in (Flask → `App` → `Scaffold`).
const MAX_ANCESTORS: usize = 4;

/// The project's own classes by name, `None` for a name several files define (which one a
/// class extends is then unknown).
type Classes<'r, 'a> = HashMap<&'r str, Option<(&'r super::structure::Ranked<'a>, &'r SymbolFact)>>;

/// The top-level classes of the ranked files of the project's own code, by name.
fn classes<'r, 'a>(ranked: &'r [super::structure::Ranked<'a>]) -> Classes<'r, 'a> {
    let mut out: Classes<'r, 'a> = HashMap::new();
    for r in ranked {
        if importance::role(&r.file.path) != importance::Role::Source {
            continue;
        }
        let all = r.analysis.code.as_ref().map_or(&[][..], |c| &c.symbols[..]);
        for s in all
            .iter()
            .filter(|s| s.kind == "class" && s.parent().is_none())
        {
            out.entry(s.name())
                .and_modify(|e| *e = None)
                .or_insert(Some((r, s)));
        }
    }
    out
}

/// Tells whether a method `name` of the type `ty` (of kind `kind`) may be named among its
/// members: not a private-by-convention `_name`, not a constructor (named as the type, or
/// `new` by convention, as in Rust; but a module has no instances, and a Ruby module's
/// `self.new` is the factory its users call: `Faraday.new`), not a protocol method (the
/// language's API, not the type's), not a destructor or finalizer (`~Policy`), nor an
/// operator (`operator=`): leveldb's `FilterPolicy` was `.~FilterPolicy` among four.
fn is_member_name(name: &str, (ty, kind): (&str, &str)) -> bool {
    let operator = name
        .strip_prefix("operator")
        .is_some_and(|rest| !rest.starts_with(|c: char| c.is_alphanumeric() || c == '_'));
    let special = name.starts_with(['_', '~']) || operator;
    let constructor = name == ty || name == "constructor" || (name == "new" && kind != "module");
    !(special || constructor || PROTOCOL_METHODS.contains(&name))
}

/// Whether a C++ member is declared deleted or defaulted (`Policy(const Policy&) = delete`):
/// what the compiler makes or forbids, nothing the type does.
fn is_deleted_or_defaulted(signature: &str) -> bool {
    let head = signature.trim_end().trim_end_matches(';').trim_end();
    ["= delete", "=delete", "= default", "=default"]
        .iter()
        .any(|s| head.ends_with(s))
}

/// Whether a Rust method of a struct or enum has no `pub`: private, or a trait's method its
/// `impl Trait for Type` implements (hyper's `Protocol` named `.fmt` from `impl fmt::Debug`).
fn is_rust_unmarked_method(method: &SymbolFact, parent: &SymbolFact) -> bool {
    let sig = method.signature.trim_start();
    let fn_item = [
        "fn ",
        "async fn ",
        "const fn ",
        "unsafe fn ",
        "const unsafe fn ",
    ]
    .iter()
    .any(|p| sig.starts_with(p));
    fn_item && !matches!(parent.kind.as_str(), "trait" | "interface")
}

/// A type's public methods that could be its members, each with its weight: what the
/// project's other files, tests, examples and documents call most first.
fn methods<'r>(r: &'r super::structure::Ranked<'_>, ty: &SymbolFact) -> Vec<(f64, &'r str)> {
    let all = r.analysis.code.as_ref().map_or(&[][..], |c| &c.symbols[..]);
    // An interface's properties are its API as much as its methods: fastify's
    // `FastifyInstance` declares `register`, `get` and `post` as properties of function types,
    // and was listed with `.listen .close .after .inject` only.
    let interface = ty.kind == "interface";
    let callable = |m: &&SymbolFact| {
        m.parent() == Some(ty.qualified_name.as_str())
            && (matches!(m.kind.as_str(), "method" | "function")
                || (interface && m.kind == "field"))
    };
    // Where the language marks visibility, an unmarked method of a struct or class implements
    // a trait (Rust's `impl Clone for`); a trait's or interface's own methods are its API.
    let marked = all.iter().filter(callable).any(|m| m.visibility.is_some())
        && !matches!(ty.kind.as_str(), "trait" | "interface");
    all.iter()
        .filter(callable)
        .filter(|m| {
            let name = m.name();
            let visible = match m.visibility.as_deref() {
                None => !marked,
                Some(v) => matches!(v, "public" | "exported"),
            };
            // An interface has no constructor: chi's `Routes` declares `Routes() []Route`.
            let own_name = if interface { "" } else { ty.name() };
            visible
                && !m.qualified_name.contains('#')
                && is_member_name(name, (own_name, &ty.kind))
                && !is_deleted_or_defaulted(&m.signature)
        })
        .map(|m| {
            // The methods the project's tests and examples call are the ones its users call.
            let uses = |u: &NameWeights| u.get(m.name()).copied().unwrap_or(0.0);
            let used = uses(&r.used_by) + uses(&r.client_uses) + uses(&r.documented);
            (importance::symbol_weight(m, used), m.name())
        })
        .collect()
}

/// The name a qualified name ends with: `run` for `Flask.run` and `Flask.run#2`.
/// The scope a symbol's name is unique in for [`picked`]: its file where a module is one
/// (Python, Rust: structlog's `get_logger` of `_config.py`, which its package hands on, and
/// the `stdlib` module's own `get_logger` are two), its directory where a name is qualified
/// by its package (Go, Java), else the whole repository (a C function's header and source, a
/// Ruby class reopened across directories, a TypeScript declaration file beside its
/// JavaScript).
fn package_scope(path: &str) -> &str {
    let extension = path.rsplit_once('.').map(|(_, e)| e);
    if matches!(extension, Some("rs" | "py")) {
        return path;
    }
    let packaged = matches!(extension, Some("go" | "java"));
    match path.rsplit_once('/') {
        Some((dir, _)) if packaged => dir,
        _ if packaged => ".",
        _ => "",
    }
}

fn last_segment(qualified_name: &str) -> &str {
    let q = qualified_name.split('#').next().unwrap_or(qualified_name);
    q.rsplit('.').next().unwrap_or(q)
}

/// Cuts a signature after [`OVERVIEW_SIGNATURE_CHARS`] characters, at a word boundary when
/// there is one, ending with `…`; never before the end of the symbol's own name. A name that
/// ends more than twice that far in is shown with what precedes it on that width, after a `…`
/// (a macro-opened C++ header's run of forward declarations read as one: nlohmann/json's
/// `NLOHMANN_JSON_NAMESPACE_BEGIN template<…> struct adl_serializer; template<…` was 230
/// characters).
fn abbreviate(signature: &str, qualified_name: &str) -> String {
    if signature.chars().count() <= OVERVIEW_SIGNATURE_CHARS {
        return signature.to_owned();
    }
    let name = last_segment(qualified_name);
    let name_end = signature.find(name).map_or(0, |i| i + name.len());
    let width = |at: usize| signature[..at].chars().count();
    if width(name_end) > 2 * OVERVIEW_SIGNATURE_CHARS {
        let before = &signature[..name_end];
        let start = before
            .char_indices()
            .rev()
            .nth(OVERVIEW_SIGNATURE_CHARS - 2)
            .map_or(0, |(i, _)| i);
        // From a word's start, so no word is cut in half.
        let start = before[start..]
            .find(' ')
            .map_or(start, |i| start + i + 1)
            .min(name_end - name.len());
        let rest = if name_end < signature.len() {
            "…"
        } else {
            ""
        };
        return format!("…{}{rest}", &before[start..]);
    }
    let limit = signature
        .char_indices()
        .nth(OVERVIEW_SIGNATURE_CHARS - 1)
        .map_or(signature.len(), |(i, _)| i)
        .max(name_end);
    let head = &signature[..limit];
    // Prefer to end at a space past the name, so no word is cut in half.
    let cut = head
        .rfind(' ')
        .filter(|&i| i >= name_end)
        .map_or(head, |i| &head[..i]);
    format!("{}…", cut.trim_end_matches([' ', ',']))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A module has no instances: its `self.new` is a factory its users call (`Faraday.new`),
    /// a class's `new` is its constructor; Ruby's hooks are no member of either.
    #[test]
    fn a_modules_new_is_a_member_a_classs_is_not() {
        assert!(is_member_name("new", ("Faraday", "module")));
        assert!(!is_member_name("new", ("Connection", "class")));
        assert!(!is_member_name("method_missing", ("Faraday", "module")));
        assert!(is_member_name("default_connection", ("Faraday", "module")));
    }

    /// One Java module descriptor among the first entry points; the others follow the rest.
    #[test]
    fn later_module_descriptors_come_last() {
        let entries = [
            "api/src/main/java9/module-info.java",
            "nop/src/main/java9/module-info.java",
            "simple/src/main/java9/module-info.java",
            "migrator/src/main/java/org/ex/Main.java",
            "pom.xml",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(
            later_module_descriptors_last(entries),
            [
                "api/src/main/java9/module-info.java",
                "migrator/src/main/java/org/ex/Main.java",
                "pom.xml",
                "nop/src/main/java9/module-info.java",
                "simple/src/main/java9/module-info.java",
            ]
        );
    }

    /// C++'s special members say nothing of what a type does: no destructor, operator, nor a
    /// deleted or defaulted member is one of its members; a method whose name merely starts
    /// with `operator` is.
    #[test]
    fn special_members_are_no_members() {
        assert!(!is_member_name("~Policy", ("Policy", "class")));
        assert!(!is_member_name("operator=", ("Policy", "class")));
        assert!(!is_member_name("operator()", ("Policy", "class")));
        assert!(!is_member_name("operator bool", ("Policy", "class")));
        assert!(is_member_name("operatorName", ("Policy", "class")));
        assert!(is_member_name("CreateFilter", ("Policy", "class")));
        assert!(is_deleted_or_defaulted("Policy(const Policy&) = delete;"));
        assert!(is_deleted_or_defaulted(
            "Policy& operator=(Policy&&) =default"
        ));
        assert!(!is_deleted_or_defaulted(
            "virtual const char* Name() const = 0;"
        ));
    }

    #[test]
    fn an_impl_blocks_type_is_read_from_its_name() {
        assert_eq!(impl_type("impl Error"), Some("Error"));
        assert_eq!(impl_type("impl<T: Clone> Error<T>"), Some("Error"));
        assert_eq!(impl_type("impl fmt::Display for Error"), Some("Error"));
        assert_eq!(
            impl_type("impl From<io::Error> for crate::Error"),
            Some("Error")
        );
        assert_eq!(
            impl_type("impl<'a> Iterator for &'a mut Chain<'a>"),
            Some("Chain")
        );
        assert_eq!(impl_type("implode"), None);
        assert_eq!(impl_type("Error"), None);
    }

    /// A project's last name: a path's last part, a Go module's major version left out.
    #[test]
    fn a_projects_last_name() {
        assert_eq!(last_name("charm.land/bubbletea/v2"), "bubbletea");
        assert_eq!(last_name("github.com/spf13/cobra"), "cobra");
        assert_eq!(last_name("@babel/core"), "core");
        assert_eq!(last_name("v8"), "v8");
        assert_eq!(last_name("tools/vx"), "vx");
    }

    /// Source roots lead, support directories come last; the project's own compatibility
    /// shims are neither (ranked down like vendored code, but the project's), vendored code
    /// is support.
    #[test]
    fn shims_are_a_part_of_the_project_vendored_code_is_not() {
        assert_eq!(component_rank("src/"), 0);
        assert_eq!(component_rank("reftable/"), 1);
        assert_eq!(component_rank("compat/"), 1);
        assert_eq!(component_rank("lib/polyfills/"), 1);
        assert_eq!(component_rank("vendor/"), 2);
        assert_eq!(
            component_rank("cmake/"),
            2,
            "CMake's modules are the build's"
        );
        assert_eq!(component_rank("website/"), 2);
        assert_eq!(component_rank("third_party/"), 2);
        assert_eq!(component_rank("docs/"), 2);
        assert_eq!(component_rank("docs/compat/"), 2);
        assert_eq!(component_rank("tests/"), 2);
    }

    /// A README in another language is known by its language code, after `.`, `_` or `-`.
    #[test]
    fn translated_readmes() {
        for name in [
            "README.cn.md",
            "README.de-ch.md",
            "README_zh-TW.md",
            "readme-pt-br.md",
            "README.ja.rst",
        ] {
            assert!(is_translated_readme(name.as_bytes()), "{name}");
        }
        for name in [
            "README.md",
            "README",
            "README-VIM.md",
            "README.rst",
            "READMEs.md",
        ] {
            assert!(!is_translated_readme(name.as_bytes()), "{name}");
        }
    }

    /// A directory's README is the plain one, whatever sorts first; Markdown before others;
    /// not a translation (rich's `README.cn.md` sorts before its `README.md`).
    #[test]
    fn a_plain_readme_comes_before_a_suffixed_one() {
        let doc = |p: &str| FileState {
            is_document: true,
            ..crate::model::sample_file(p, p)
        };
        let files = [
            doc("README-VIM.md"),
            doc("README.rst"),
            doc("README.cn.md"),
            doc("README.md"),
            doc("docs/README.md"),
            doc("docs/README-ja.md"),
        ];
        let path = |dir: &[u8]| readme_in(&files, dir).map(|f| paths::display(&f.path));
        assert_eq!(path(b"").as_deref(), Some("README.md"));
        assert_eq!(path(b"docs").as_deref(), Some("docs/README.md"));
        assert_eq!(
            readme_in(&files[..2], b"").map(|f| &f.path[..]),
            Some(&b"README.rst"[..])
        );
        assert_eq!(path(b"src"), None);
    }

    /// A declared entry point is the tracked file itself, else the source a built file comes
    /// from, else nothing.
    #[test]
    fn a_built_entry_point_stands_for_its_source() {
        let files: std::collections::HashSet<&[u8]> = [
            b"packages/vite/src/node/index.ts".as_slice(),
            b"lib/app.js",
            b"src/index.tsx",
            b"source/main.ts",
            b"packages/lib/src/index.ts",
            b"packages/zod/src/index.ts",
        ]
        .into_iter()
        .collect();
        let of = |p: &str| source_counterpart(p, &files);
        // The build directory is the last one so named (`lib` here is a package's name), and
        // a file built beside its manifest comes from a source directory there (zod's
        // `"main": "./index.cjs"`).
        assert_eq!(
            of("packages/lib/dist/index.js").as_deref(),
            Some("packages/lib/src/index.ts")
        );
        assert_eq!(
            of("packages/zod/index.cjs").as_deref(),
            Some("packages/zod/src/index.ts")
        );
        assert_eq!(
            of("packages/vite/dist/node/index.js").as_deref(),
            Some("packages/vite/src/node/index.ts")
        );
        assert_eq!(of("lib/app.js").as_deref(), Some("lib/app.js"));
        assert_eq!(of("dist/index.mjs").as_deref(), Some("src/index.tsx"));
        assert_eq!(of("dist/other.js"), None);
        assert_eq!(
            of("distribution/main.js").as_deref(),
            Some("source/main.ts")
        );
        assert_eq!(of("dist/index.d.ts"), None);
        assert_eq!(of("index.js").as_deref(), Some("src/index.tsx"));
        assert_eq!(of("other.js"), None);
    }

    /// A method named among an earlier type's members takes no line, in any file of a Go
    /// type's package; a type listed after one of its methods leaves it out of its members;
    /// another package's namesake is kept.
    #[test]
    fn members_and_lines_never_name_a_method_twice() {
        let entry = |path: &str, name: &str, members: &[&str]| SymbolEntry {
            path: path.into(),
            name: name.into(),
            line: 1,
            signature: name.into(),
            members: members.iter().map(|m| (*m).to_owned()).collect(),
            also: vec![],
        };
        let kept = without_repeated_members(
            vec![
                entry("command.go", "Command", &["Name", "Run"]),
                entry("command.go", "Command.Name", &[]),
                entry("run.go", "Command.Run", &[]),
                entry("other/other.go", "Command.Run", &[]),
                entry("flag.go", "Flag.Set", &[]),
                entry("flag.go", "Flag", &["Set", "Get"]),
            ],
            &|_, _, _, _| true,
        );
        let shown: Vec<(&str, Vec<&str>)> = kept
            .iter()
            .map(|e| {
                let members = e.members.iter().map(String::as_str).collect();
                (e.name.as_str(), members)
            })
            .collect();
        assert_eq!(
            shown,
            [
                ("Command", vec!["Name", "Run"]),
                ("Command.Run", vec![]),
                ("Flag.Set", vec![]),
                ("Flag", vec!["Get"]),
            ]
        );
        // A top-level function named like a listed member is dropped only when it wraps it
        // (viper's `Get`), before or after the type; chi's `URLParam(r, key)` is kept.
        let names = |kept: &[SymbolEntry]| -> Vec<(String, Vec<String>)> {
            kept.iter()
                .map(|e| (e.name.clone(), e.members.clone()))
                .collect()
        };
        let wraps = |_: &str, f: &str, _: &str, _: &str| f == "Get";
        let kept = without_repeated_members(
            vec![
                entry("viper.go", "Viper", &["Get", "URLParam"]),
                entry("viper.go", "Get", &[]),
                entry("context.go", "URLParam", &[]),
            ],
            &wraps,
        );
        assert_eq!(
            names(&kept),
            [
                (
                    "Viper".to_owned(),
                    vec!["Get".to_owned(), "URLParam".to_owned()]
                ),
                ("URLParam".to_owned(), vec![]),
            ]
        );
        let kept = without_repeated_members(
            vec![
                entry("viper.go", "Get", &[]),
                entry("context.go", "URLParam", &[]),
                entry("viper.go", "Viper", &["Get", "URLParam", "Set"]),
            ],
            &wraps,
        );
        assert_eq!(
            names(&kept),
            [
                ("Get".to_owned(), vec![]),
                ("URLParam".to_owned(), vec![]),
                (
                    "Viper".to_owned(),
                    vec!["URLParam".to_owned(), "Set".to_owned()]
                ),
            ]
        );
    }

    /// Titles come from the facts of every listed document, at the root and one level down,
    /// though the overview reads the facts of only those it lists below the root.
    #[test]
    fn listed_documents_below_the_root_keep_their_titles() {
        use crate::refresh::{run, Operation};
        let mut files = vec![
            (
                "README.md",
                "# The Widget Toolkit\n\nMakes widgets. See [the guide](docs/guide.md).\n",
            ),
            ("CONTRIBUTING.md", "# How to send patches\n"),
            ("docs/guide.md", "# Writing plugins\n\nText.\n"),
            ("docs/deep/inner.md", "# Too deep to list\n"),
            ("src/widget.py", "def make():\n    return 1\n"),
        ];
        let names: Vec<String> = (0..30).map(|i| format!("docs/note{i:02}.md")).collect();
        for n in &names {
            files.push((n.as_str(), "# A note\n"));
        }
        let t = crate::testing::temp_repo(&files);
        run(&t.repo, &Operation::Init).unwrap();
        let reader = crate::read::prepare(&t.repo, false).unwrap();
        let d = compute_data(&reader, "work").unwrap();
        let title = |path: &str| {
            d.documents
                .iter()
                .find(|r| r.path == path)
                .map(|r| r.title.clone())
        };
        assert_eq!(title("README.md"), Some(Some("The Widget Toolkit".into())));
        assert_eq!(
            title("CONTRIBUTING.md"),
            Some(Some("How to send patches".into()))
        );
        assert_eq!(title("docs/guide.md"), Some(Some("Writing plugins".into())));
        assert_eq!(title("docs/note00.md"), Some(Some("A note".into())));
        assert_eq!(title("docs/deep/inner.md"), None, "not listed");
        assert_eq!(d.documents.len(), MAX_DOCUMENTS, "{:?}", d.documents);
    }

    #[test]
    fn the_change_log_comes_before_links_that_guide_no_one() {
        use crate::refresh::{run, Operation};
        let t = crate::testing::temp_repo(&[
            (
                "README.md",
                "# Widget\n\nMakes widgets. A [song](SONG.md), the [guide](GUIDE.md).\n",
            ),
            ("SONG.md", "# A song about widgets\n"),
            ("GUIDE.md", "# Using widgets\n"),
            ("CHANGELOG.md", "# Changes\n"),
            ("NOTES.md", "# Notes\n"),
        ]);
        run(&t.repo, &Operation::Init).unwrap();
        let reader = crate::read::prepare(&t.repo, false).unwrap();
        let d = compute_data(&reader, "work").unwrap();
        let listed: Vec<&str> = d.documents.iter().map(|r| r.path.as_str()).collect();
        assert_eq!(
            listed,
            [
                "README.md",
                "GUIDE.md",
                "CHANGELOG.md",
                "SONG.md",
                "NOTES.md"
            ]
        );
    }

    #[test]
    fn a_title_that_repeats_the_file_name_is_none() {
        assert!(names_the_file("Contributing", "CONTRIBUTING"));
        assert!(names_the_file("Code of Conduct", "CODE_OF_CONDUCT"));
        assert!(names_the_file("Change-log", "CHANGELOG"));
        assert!(!names_the_file("Flask", "README"));
        assert!(!names_the_file(
            "Contributor Covenant Code of Conduct",
            "CODE_OF_CONDUCT"
        ));
        assert!(!names_the_file("AGENTS instructions", "AGENTS"));
        assert!(names_the_file("AGENTS.md", "AGENTS"));
        assert!(names_the_file("claude.MD", "CLAUDE"));
        assert!(!names_the_file("AGENTS.py", "AGENTS"));
    }

    #[test]
    fn a_title_of_the_file_name_the_project_and_joining_words_says_nothing_new() {
        let said = "github.com/spf13/cobra Cobra is a library for creating CLI applications.";
        assert!(says_nothing_new(
            "Contributing to Cobra",
            "CONTRIBUTING",
            said
        ));
        assert!(says_nothing_new("gittutorial(7)", "GITTUTORIAL", said));
        assert!(says_nothing_new("Code of Conduct", "CODE_OF_CONDUCT", said));
        assert!(!says_nothing_new(
            "How to send patches",
            "CONTRIBUTING",
            said
        ));
        assert!(!says_nothing_new("AGENTS instructions", "AGENTS", said));
        assert!(!says_nothing_new(
            "Contributor Covenant Code of Conduct",
            "CODE_OF_CONDUCT",
            said
        ));
    }

    #[test]
    fn a_title_that_repeats_the_project_name_and_purpose_is_none() {
        let said = "git Git is a fast, scalable, distributed revision control system.";
        assert!(repeats(
            "Git - fast, scalable, distributed revision control system",
            said
        ));
        assert!(repeats("GIT", said));
        assert!(!repeats("Git internals", said), "a word of its own");
        assert!(!repeats("", said));
        assert!(!repeats("--", said), "no words: nothing to compare");
        assert!(repeats(
            "Flask",
            "Flask Flask is a lightweight WSGI web application framework."
        ));
    }

    /// Which README definitions are of another thing than the project (first-day
    /// repositories: serde_json's is Serde's; svelte's, imgui's and flask's are their own).
    #[test]
    fn a_definition_of_another_thing() {
        let serde = "Serde is a framework for serializing Rust data structures.";
        assert!(defines_another(serde, "serde_json", Some("Serde JSON")));
        assert!(!defines_another(serde, "serde", Some("Serde")));
        let svelte = "Svelte is a new way to build web applications.";
        assert!(!defines_another(svelte, "svelte-monorepo", None));
        let imgui = "Dear ImGui is a bloat-free graphical user interface library for C++.";
        assert!(!defines_another(imgui, "imgui", None));
        // Not a definition: nothing to tell.
        assert!(!defines_another(
            "The compiler for writing next generation JavaScript.",
            "babel",
            None
        ));
    }

    #[test]
    fn long_signatures_are_cut_at_a_word_after_the_name() {
        let short = "def f(x)";
        assert_eq!(abbreviate(short, "f"), short);
        let long = format!(
            "interface NodePath<{}> extends Base",
            "N extends Node, ".repeat(12)
        );
        let cut = abbreviate(&long, "NodePath");
        assert!(cut.ends_with('…'), "{cut}");
        assert!(cut.chars().count() <= OVERVIEW_SIGNATURE_CHARS + 1, "{cut}");
        assert!(long.starts_with(cut.trim_end_matches('…')), "{cut}");
        assert!(!cut.trim_end_matches('…').ends_with([' ', ',']), "{cut}");
        // The name survives even when it starts past the limit.
        let late = format!("{} fn the_name(x: u8)", "#[attr] ".repeat(12));
        let cut = abbreviate(&late, "Type.the_name");
        assert!(cut.contains("the_name"), "{cut}");
        // However far in: then with what precedes it on the width, no more.
        let far = format!(
            "{} class basic_json;",
            "template<typename T> struct x; ".repeat(12)
        );
        let cut = abbreviate(&far, "basic_json");
        assert!(
            cut.starts_with('…') && cut.ends_with("class basic_json…"),
            "{cut}"
        );
        assert!(cut.chars().count() <= OVERVIEW_SIGNATURE_CHARS + 2, "{cut}");
    }
}
