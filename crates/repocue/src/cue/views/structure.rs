//! The `structure` view: files and ranked symbols with signatures under a path, and the
//! shared ranking used by `overview` for its most important symbols.

use std::collections::{BTreeMap, HashMap, HashSet};

use serde::{Deserialize, Serialize};

use crate::analyze::graph::{self, NameWeights, Node};
use crate::analyze::importance;
use crate::analyze::structure::{CodeFacts, SymbolFact, MAX_SYMBOLS};
use crate::analyze::Analysis;
use crate::api::views::*;
use crate::api::{Cue, CueRequest, More, View};
use crate::cue::envelope::envelope;
use crate::cue::fit::{fit, round_up, Item, Section};
use crate::error::{Error, Result};
use crate::model::{FileState, WorkingState};
use crate::paths;
use crate::read::Reader;

/// Most code files ranked in one request; beyond it the graph costs more than it tells.
const MAX_RANKED_FILES: usize = 20_000;

/// A file with its code facts and graph score.
pub(crate) struct Ranked<'a> {
    pub file: &'a FileState,
    pub analysis: Analysis,
    pub score: f64,
    /// Whether the file is a package root: by its path ([`importance::is_package_root`]), a
    /// JavaScript or TypeScript file a manifest declares the package's entry point (vite's
    /// `packages/vite/src/node/index.ts`, its package.json's `exports`), a Java library's root
    /// `package-info.java` ([`importance::java_root_packages`]), or a C or C++ library's
    /// umbrella header ([`importance::umbrella_includes`]).
    pub root: bool,
    /// Whether a package root hands on this file's names through `export * from`
    /// (`graph::Ranking::star_handed`).
    pub star_handed: bool,
    /// Defined name → how much other non-test files use it (weighted, see `graph::Ranking`).
    pub used_by: NameWeights,
    /// Defined name → how many test, example and other non-source files use it.
    pub client_uses: NameWeights,
    /// Defined name → the rank package roots that re-export it pass on (`graph::Ranking`).
    pub exported: NameWeights,
    /// The weight of the API the file exposes (`graph::Ranking::api_mass`).
    pub api_mass: f64,
    /// For a package root: the names it exports, most important first
    /// (`graph::Ranking::root_exports`).
    pub root_exports: Vec<(String, f64)>,
    /// Defined name → how many of the project's documents show it as code (see
    /// [`documented_names`]).
    pub documented: NameWeights,
    /// Whether the file is a Rust module private to its crate
    /// ([`importance::rust_private_modules`]): its `pub` items are no API unless a root
    /// hands them on.
    pub private_module: bool,
}

/// Whether a file is a package root ([`Ranked::root`]), given the JavaScript and TypeScript
/// files manifests declare their packages' roots and the Java libraries' root packages.
fn is_root(file: &FileState, code: &CodeFacts, declared_roots: &HashSet<&[u8]>) -> bool {
    // Facts that name no language (a `package-info.java` of a comment and its package line)
    // are of the file's own.
    let language = match code.language.as_str() {
        "" => file.language.as_deref().unwrap_or_default(),
        language => language,
    };
    importance::is_package_root(&file.path)
        || (matches!(importance::language_family(language), "JavaScript" | "Java")
            && declared_roots.contains(file.path.as_slice()))
        || !importance::umbrella_includes(&file.path, code).is_empty()
}

/// Tells whether a path lies under a directory prefix (or is that file); `""` is everything.
pub(crate) fn under(path: &[u8], prefix: &[u8]) -> bool {
    let prefix = prefix.strip_suffix(b"/").unwrap_or(prefix);
    prefix.is_empty()
        || path == prefix
        || (path.starts_with(prefix) && path.get(prefix.len()) == Some(&b'/'))
}

/// Directories of test data (a compiler's sample programs, recorded outputs): their files are
/// the tests' input, not code that uses the project.
const FIXTURE_DIRS: &[&str] = &[
    "fixtures",
    "fixture",
    "__fixtures__",
    "testdata",
    "__snapshots__",
];

/// Tells whether `path` lies in a test-data directory below `prefix`. Those files stay out of
/// the ranking of anything above them: 16,283 of babel/babel's 17,653 JavaScript and
/// TypeScript files are fixtures, whose identifiers (`foo`, `a`, `transform`) counted as uses
/// of the project's names and whose facts were nine tenths of ranking it. Asked for by
/// `--path` inside such a directory, they are ranked like any code.
pub(crate) fn below_fixtures(path: &[u8], prefix: &[u8]) -> bool {
    let prefix = prefix.strip_suffix(b"/").unwrap_or(prefix);
    let rest = match prefix.is_empty() {
        true => path,
        false => path.get(prefix.len() + 1..).unwrap_or_default(),
    };
    let mut dirs: Vec<&[u8]> = rest.split(|&b| b == b'/').collect();
    dirs.pop();
    dirs.iter().any(|d| {
        FIXTURE_DIRS
            .iter()
            .any(|f| d.eq_ignore_ascii_case(f.as_bytes()))
    })
}

/// Loads code facts of the files under `prefix` and ranks them; highest score first. With
/// `boost_dirty`, files that differ from HEAD rank higher (that is where the work is). Test
/// data below `prefix` is left out ([`below_fixtures`]).
pub(crate) fn ranked_files<'a>(
    state: &'a Reader,
    prefix: &[u8],
    entry_points: &[String],
    declared_roots: &[String],
    boost_dirty: bool,
) -> Result<Vec<Ranked<'a>>> {
    ranked_files_counting(
        state,
        prefix,
        (entry_points, declared_roots),
        boost_dirty,
        &mut BTreeMap::new(),
    )
}

/// [`ranked_files`], counting in `not_outlined` the code files left out because their
/// extraction failed or was skipped, by the reason their facts record (`over_budget`,
/// `too_large`, `crashed`, …).
pub(crate) fn ranked_files_counting<'a>(
    state: &'a Reader,
    prefix: &[u8],
    (entry_points, declared_roots): (&[String], &[String]),
    boost_dirty: bool,
    not_outlined: &mut BTreeMap<String, u64>,
) -> Result<Vec<Ranked<'a>>> {
    // Looked up once per file: a monorepo declares a root per package (babel: 150).
    let entry_points: HashSet<&[u8]> = entry_points.iter().map(String::as_bytes).collect();
    let declared_roots: HashSet<&[u8]> = declared_roots.iter().map(String::as_bytes).collect();
    let files: Vec<&FileState> = state
        .files()?
        .iter()
        .filter(|f| {
            under(&f.path, prefix)
                && !below_fixtures(&f.path, prefix)
                && f.class.analysed()
                && f.digest.is_some()
                && crate::analyze::structure::parser_language(&f.path, f.language.as_deref())
                    .is_some()
        })
        .take(MAX_RANKED_FILES)
        .collect();
    // A Java library's root package is declared by its place, not by a manifest.
    let java_roots = importance::java_root_packages(files.iter().map(|f| f.path.as_slice()));
    let declared_roots: HashSet<&[u8]> = declared_roots
        .into_iter()
        .chain(java_roots.iter().map(Vec::as_slice))
        .collect();
    let digests: Vec<&str> = files.iter().filter_map(|f| f.digest.as_deref()).collect();
    let mut facts: HashMap<String, Analysis> = state.store.facts(&digests)?;
    // Files with the same content share one analysis: the last of them takes it, the others
    // copy it (copying every file's facts was a fifth of ranking a large repository).
    let mut sharing: HashMap<&str, usize> = HashMap::new();
    for d in &digests {
        *sharing.entry(d).or_default() += 1;
    }
    let mut out: Vec<Ranked<'a>> = files
        .into_iter()
        .filter_map(|f| {
            let d = f.digest.as_deref()?;
            let left = sharing.get_mut(d)?;
            *left -= 1;
            let a = match *left {
                0 => facts.remove(d),
                _ => facts.get(d).cloned(),
            };
            let Some(a) = a else {
                // A file past the whole-read limit is hashed as a stream, never analysed: it
                // has no facts to record why.
                if f.size.is_some_and(|s| s > crate::scan::WHOLE_READ_LIMIT) {
                    *not_outlined.entry("too_large".to_owned()).or_default() += 1;
                }
                return None;
            };
            if let Some(reason) = a.code.as_ref().and_then(|c| c.error.as_deref()) {
                *not_outlined.entry(reason.to_owned()).or_default() += 1;
            }
            let root = a
                .code
                .as_ref()
                .is_some_and(|c| is_root(f, c, &declared_roots));
            // A package root without definitions of its own still says what the API is, and so
            // does a module that hands on others whole (zod's `v4/classic/external.ts`) or by
            // name (trpc's `@trpc/server/index.ts`, which its package's index hands on whole).
            a.code.as_ref().filter(|c| {
                !c.symbols.is_empty()
                    || root
                    || !c.star_exports.is_empty()
                    || !c.reexports.is_empty()
                    || !c.type_reexports.is_empty()
            })?;
            Some(Ranked::unranked(f, a, root))
        })
        .collect();
    facts.clear();
    let code: Vec<(&[u8], &CodeFacts)> = out
        .iter()
        .map(|r| {
            let code = r.analysis.code.as_ref().expect("filtered: code files only");
            (r.file.path.as_slice(), code)
        })
        .collect();
    let private = importance::rust_private_modules(&code);
    for (r, private) in out.iter_mut().zip(private) {
        r.private_module = private;
    }
    resolve_aliased_imports(state, &mut out)?;
    let nodes: Vec<Node<'_>> = out
        .iter()
        .map(|r| graph_node(r, &entry_points, boost_dirty))
        .collect();
    let ranking = graph::rank(&nodes);
    drop(nodes);
    let per_node = ranking
        .used_by
        .into_iter()
        .zip(ranking.client_uses)
        .zip(ranking.exported)
        .zip(ranking.api_mass)
        .zip(ranking.root_exports)
        .zip(ranking.star_handed);
    for ((r, s), (((((u, c), e), m), x), h)) in out.iter_mut().zip(ranking.scores).zip(per_node) {
        r.score = s;
        r.used_by = u;
        r.client_uses = c;
        r.exported = e;
        r.api_mass = m;
        r.root_exports = x;
        r.star_handed = h;
    }
    attach_handed_exports(&mut out);
    attach_documented(&mut out, &documented_names(state)?);
    out.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then(a.file.path.cmp(&b.file.path))
    });
    Ok(out)
}

/// A ranked file as the reference graph's node: personalised toward entry points, package
/// roots and (when `boost_dirty`) files dirty now.
fn graph_node<'r>(r: &'r Ranked<'_>, entry_points: &HashSet<&[u8]>, boost_dirty: bool) -> Node<'r> {
    let mut boost = 1.0;
    if entry_points.contains(r.file.path.as_slice()) {
        boost += 4.0;
    } else if r.root {
        boost += 2.0;
    }
    if boost_dirty && r.file.working_state != WorkingState::Clean {
        boost += 2.0;
    }
    Node {
        path: &r.file.path,
        facts: r.analysis.code.as_ref().expect("filtered"),
        boost,
        root: r.root,
    }
}

impl<'a> Ranked<'a> {
    /// A file with its analysis, before the ranking gives it a score.
    fn unranked(file: &'a FileState, analysis: Analysis, root: bool) -> Ranked<'a> {
        Ranked {
            file,
            analysis,
            score: 0.0,
            root,
            star_handed: false,
            used_by: NameWeights::default(),
            client_uses: NameWeights::default(),
            exported: NameWeights::default(),
            api_mass: 0.0,
            root_exports: Vec::new(),
            documented: NameWeights::default(),
            private_module: false,
        }
    }
}

/// Rewrites the imports of the workspace's packages by name (`@babel/core`, `grep_searcher`)
/// into the paths of their code ([`resolve_package`]), so that they resolve like paths do.
fn resolve_aliased_imports(state: &Reader, ranked: &mut [Ranked<'_>]) -> Result<()> {
    let aliases = package_aliases(state)?;
    if aliases.is_empty() {
        return Ok(());
    }
    for r in ranked {
        if let Some(code) = r.analysis.code.as_mut() {
            for import in &mut code.imports {
                if let Some(path) = resolve_package(&aliases, import) {
                    *import = path;
                }
            }
        }
    }
    Ok(())
}

/// Name → how many of the project's documents (not tests', fixtures' or vendored ones) show it
/// as code: a README's example calls what a user of the package calls first (cobra's
/// `cobra.OnInitialize(initConfig)`, ripgrep's `WalkBuilder`), which the project's own code may
/// hardly use. Counted per document, so a changelog that names a function a hundred times
/// counts once.
///
/// Reading every document's facts is a sixth of ranking git/git (986 documents), and edits to
/// code change none of it: the counts are cached with the snapshot that read them, and a later
/// snapshot whose changes since touch no document takes them from there.
pub(crate) fn documented_names(state: &Reader) -> Result<NameWeights> {
    state.cached_from_documents(DOCUMENTED_KEY, count_documented_names)
}

/// Tells whether a document of the project shows `name` as code ([`documented_names`]).
/// Once this snapshot holds the counts, a test of their stored text for the name's key, not a
/// decoding of every name (a symbol's entity cue asks this of one name; 2 ms on git/git).
pub(crate) fn is_documented(state: &Reader, name: &str) -> Result<bool> {
    let key = format!("{DOCUMENTED_KEY}@{}", crate::read::derived_version());
    if let Some(json) = state.store.view_cache(state.snapshot.seq, &key)? {
        // The counts are a map of names to numbers: a name's quoted key is followed by `:`,
        // which no number holds.
        let quoted = serde_json::to_string(name).expect("strings serialize");
        return Ok(json.contains(&format!("{quoted}:")));
    }
    Ok(documented_names(state)?.contains_key(name))
}

/// The view-cache key of [`documented_names`].
const DOCUMENTED_KEY: &str = "documented-names";

/// [`documented_names`], read from every document's facts.
fn count_documented_names(state: &Reader) -> Result<NameWeights> {
    let files = state.files()?;
    let digests: Vec<&str> = files
        .iter()
        .filter(|f| f.is_document && f.class.analysed() && importance::is_project_document(&f.path))
        .filter_map(|f| f.digest.as_deref())
        .collect();
    let mut out = NameWeights::default();
    if digests.is_empty() {
        return Ok(out);
    }
    let facts = state.store.facts(&digests)?;
    for d in &digests {
        let Some(doc) = facts.get(*d).and_then(|a| a.doc.as_ref()) else {
            continue;
        };
        for name in &doc.code_names {
            *out.entry(name.clone()).or_default() += 1.0;
        }
    }
    Ok(out)
}

/// Gives each ranked file the document counts of the names it defines.
fn attach_documented(ranked: &mut [Ranked<'_>], documented: &NameWeights) {
    if documented.is_empty() {
        return;
    }
    for r in ranked {
        let code = r.analysis.code.as_ref().expect("filtered");
        for s in &code.symbols {
            if let Some(&n) = documented.get(s.name()) {
                r.documented.insert(s.name().to_owned(), n);
            }
        }
    }
}

/// A workspace package by the name its users import (`@babel/core`, `grep_searcher`), and
/// the directory its code lives in (`packages/babel-core/src`).
type Alias = (String, String);

/// The packages of the repository's workspace: every `package.json` and `Cargo.toml` below
/// the root that declares a name. Imports by package name then resolve to the package's code,
/// as imports by relative path do; longest names first, so `@x/a-b` wins over `@x/a`.
fn package_aliases(state: &Reader) -> Result<Vec<Alias>> {
    let files = state.files()?;
    let manifests: Vec<&FileState> = files
        .iter()
        .filter(|f| {
            matches!(paths::file_name(&f.path), b"package.json" | b"Cargo.toml")
                && f.path.contains(&b'/')
                && f.path.iter().filter(|&&b| b == b'/').count() <= 3
                && importance::role(&f.path) == importance::Role::Source
        })
        .collect();
    if manifests.is_empty() {
        return Ok(vec![]);
    }
    let digests: Vec<&str> = manifests
        .iter()
        .filter_map(|f| f.digest.as_deref())
        .collect();
    let facts = state.store.facts(&digests)?;
    // Every directory that holds a tracked file, once: whether a package has a `src/`.
    let mut dirs: std::collections::HashSet<&[u8]> = std::collections::HashSet::new();
    for f in files {
        let mut p = f.path.as_slice();
        while let Some(i) = p.iter().rposition(|&b| b == b'/') {
            p = &p[..i];
            if !dirs.insert(p) {
                break;
            }
        }
    }
    let mut aliases: Vec<Alias> = Vec::new();
    for f in manifests {
        let Some(m) = f
            .digest
            .as_deref()
            .and_then(|d| facts.get(d)?.manifest.as_ref())
        else {
            continue;
        };
        let Some(name) = m.name.as_deref().filter(|n| !n.is_empty()) else {
            continue;
        };
        let manifest = paths::display(&f.path);
        let dir = manifest.rsplit_once('/').map_or("", |(d, _)| d);
        let src = format!("{dir}/src");
        let code = if dirs.contains(src.as_bytes()) {
            src
        } else {
            dir.to_owned()
        };
        if m.kind == "cargo" {
            aliases.push((name.replace('-', "_"), code));
        } else {
            aliases.push((name.to_owned(), code));
        }
    }
    aliases.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.cmp(b)));
    aliases.dedup_by(|a, b| a.0 == b.0);
    Ok(aliases)
}

/// Rewrites an import of a workspace package by name into the path of the package's code,
/// keeping the import's own separator (`@babel/core` → `packages/babel-core/src`,
/// `grep_searcher::sink::Sink` → `crates/searcher/src::sink::Sink`, joined by `::` after the
/// package). Returns `None` for imports of anything else.
fn resolve_package(aliases: &[Alias], import: &str) -> Option<String> {
    let raw = import
        .trim()
        .trim_matches(|c| matches!(c, '"' | '\'' | '`'));
    aliases.iter().find_map(|(name, code)| {
        let rest = raw.strip_prefix(name.as_str())?;
        if rest.is_empty() {
            return Some(code.clone());
        }
        if let Some(rest) = rest.strip_prefix("::") {
            let dir = code.replace('/', "::");
            return Some(format!("{dir}::{rest}"));
        }
        rest.starts_with('/').then(|| format!("{code}{rest}"))
    })
}

/// Returns the symbols of the ranked files, most important first: each symbol's weight
/// (visibility, kind, top level, use by other non-test files, documents and, for less, tests
/// and examples) times its file's rank, or the
/// rank a package root passes to what it re-exports when that is more, picked so that no
/// single file or directory fills the list (at most `per_file` from one file). With
/// `exposed_first`, hidden symbols (see [`HIDDEN_FACTOR`]) only fill what exposed ones leave:
/// the spread over directories never trades a library's own API for an example.
pub(crate) fn ranked_symbols(
    ranked: &[Ranked<'_>],
    per_file: usize,
    n: usize,
    exposed_first: bool,
) -> Vec<SymbolEntry> {
    let Tiers {
        mut exposed,
        hidden,
        ..
    } = ranked_symbol_tiers(&Weights::new(ranked, exposed_first), per_file, n, None);
    exposed.extend(hidden);
    exposed.truncate(n);
    exposed
}

/// What [`ranked_symbol_tiers`] picked.
pub(crate) struct Tiers {
    /// The exposed symbols (with `exposed_first`; else every symbol).
    pub exposed: Vec<SymbolEntry>,
    /// The hidden symbols (with `exposed_first`).
    pub hidden: Vec<SymbolEntry>,
    /// Each exposed pick's score when it was picked ([`importance::diverse`]).
    pub exposed_scores: Vec<f64>,
    /// The same for the hidden picks.
    pub hidden_scores: Vec<f64>,
}

impl Tiers {
    /// The least score a further symbol must have to change what a list took from a pick
    /// that could hold `n` symbols and made picks of `scores`: the first `consumed` of them,
    /// after which the list was full, or, when it was not (`exhausted`), every one. Then a
    /// further symbol would be taken unless the pick was full and it scores below the last.
    /// `f64::MAX` when the list took none (JSON has no infinity).
    pub fn floor(scores: &[f64], consumed: usize, n: usize, exhausted: bool) -> f64 {
        match (exhausted, consumed) {
            (true, _) if n > 0 && scores.len() == n => scores[n - 1],
            (true, _) => 0.0,
            (false, 0) => f64::MAX,
            (false, c) => scores[c - 1],
        }
    }
}

/// How a list shows a symbol that another one stands for ([`ranked_symbol_tiers`]): given a
/// file's symbols and one of them, the index of the symbol whose line shows it (a method's
/// type) and the name it adds to that line's members, if any; `None` where it is a line of
/// its own.
pub(crate) type Fold<'f> =
    &'f dyn Fn(&[SymbolFact], &SymbolFact) -> Option<(usize, Option<String>)>;

/// [`ranked_symbols`] in its two tiers: the exposed symbols, then the hidden ones (with
/// `exposed_first`; else every symbol is in the first), at most `n` each.
///
/// With `fold`, a symbol that another one stands for takes that one's line (a method is
/// listed as its type): `per_file` then counts a file's lines, and a further symbol of a line
/// the file has taken costs none (sinatra's `set` and `enable` left `class Base` one line of
/// `base.rb`'s two, the other went to no one). A line scores as the best symbol it shows, and
/// names that one among its members.
pub(crate) fn ranked_symbol_tiers<'r>(
    weights: &Weights<'r, '_>,
    per_file: usize,
    n: usize,
    fold: Option<Fold<'_>>,
) -> Tiers {
    // (score, the file's module, its directory): what `importance::diverse` picks from.
    type Candidate<'a> = (f64, &'a [u8], &'a [u8]);
    let mut candidates: Vec<Candidate<'_>> = Vec::new();
    // (file, the symbol of the line, hidden, the members other symbols gave it).
    let mut symbols: Vec<(&Ranked<'_>, &SymbolFact, bool, Vec<String>)> = Vec::new();
    // Name → the best weight among the exposed symbols a file's `per_file` left out.
    let mut left_out: HashMap<&str, f64> = HashMap::new();
    // Only a file's best `per_file` symbols can be picked, and only from
    // [`symbol_sources`].
    for (i, r) in symbol_sources(weights.ranked, n) {
        let path = &r.file.path;
        let dir = &path[..path.iter().rposition(|&b| b == b'/').unwrap_or(0)];
        let module = c_module(path);
        let all: &[SymbolFact] = r.analysis.code.as_ref().map_or(&[], |c| &c.symbols);
        let first = symbols.len();
        for &(w, s, hidden) in weights.of(i) {
            let (line, member) = match fold.and_then(|f| f(all, s)) {
                Some((at, member)) => (&all[at], member),
                None => (s, None),
            };
            if (first..symbols.len()).any(|i| std::ptr::eq(symbols[i].1, line)) {
                continue;
            }
            if symbols.len() - first == per_file {
                if !hidden && std::ptr::eq(line, s) && names_a_type(s) {
                    let best = left_out.entry(s.name()).or_insert(w);
                    *best = best.max(w);
                }
                continue;
            }
            candidates.push((w, module, dir));
            symbols.push((r, line, hidden, member.into_iter().collect()));
        }
    }
    // A namesake of a symbol its file had no room for would pass for that one: sinatra's
    // `Request` (`lib/sinatra/base.rb`, after `Base`, `Helpers` and `Application`) was shown
    // as sinatra-contrib's `WebDAV::Request`, the mixin that extends it.
    let shadowed: Vec<bool> = candidates
        .iter()
        .zip(&symbols)
        .map(|(c, s)| names_a_type(s.1) && left_out.get(s.1.name()).is_some_and(|&w| w > c.0))
        .collect();
    // Equal scores keep candidate order: the files' rank order, then source order. Exposed
    // symbols are picked first, then hidden ones fill what is left.
    let tier = |hidden: bool| -> (Vec<usize>, Vec<f64>) {
        let (index, tiered): (Vec<usize>, Vec<Candidate<'_>>) = candidates
            .iter()
            .enumerate()
            .filter(|(i, _)| symbols[*i].2 == hidden && !shadowed[*i])
            .map(|(i, c)| (i, *c))
            .unzip();
        let (picked, scores) = importance::diverse(&tiered, n, per_file);
        (picked.into_iter().map(|j| index[j]).collect(), scores)
    };
    let entries = |picked: Vec<usize>| -> Vec<SymbolEntry> {
        picked
            .into_iter()
            .map(|i| {
                let (r, s, _, ref members) = symbols[i];
                SymbolEntry {
                    path: paths::display(&r.file.path),
                    name: s.qualified_name.clone(),
                    line: s.start_line,
                    signature: s.signature.clone(),
                    members: members.clone(),
                    also: vec![],
                }
            })
            .collect()
    };
    let ((exposed, exposed_scores), (hidden, hidden_scores)) = (tier(false), tier(true));
    Tiers {
        exposed: entries(exposed),
        hidden: entries(hidden),
        exposed_scores,
        hidden_scores,
    }
}

/// The ranked files' symbols with their weights for the lists ([`weighed`]), each file's
/// worked out once, when a list first picks from it, and sorted best first (stable: equal
/// weights keep source order). The overview picks four lists from one ranking: weighing every
/// symbol of git/git four times was a tenth of ranking it.
pub(crate) struct Weights<'r, 'a> {
    ranked: &'r [Ranked<'a>],
    floors: RankFloors,
    minor: Vec<&'r str>,
    headers: bool,
    exposed_first: bool,
    /// The project's name, folded ([`folded_name`]): its namesake definition weighs more
    /// ([`NAMESAKE_FACTOR`]).
    project: Option<String>,
    per_file: Vec<std::cell::OnceCell<Vec<Weighed<'r>>>>,
}

/// A symbol's weight for the lists, the symbol, and whether it is hidden ([`weighed`]).
type Weighed<'s> = (f64, &'s SymbolFact, bool);

impl<'r, 'a> Weights<'r, 'a> {
    /// The weights of `ranked`'s symbols: with `exposed_first`, each with whether it is
    /// hidden ([`weighed`]).
    pub(crate) fn new(ranked: &'r [Ranked<'a>], exposed_first: bool) -> Self {
        Weights {
            ranked,
            floors: RankFloors::new(ranked),
            minor: minor_families(ranked),
            headers: keeps_public_headers(ranked),
            exposed_first,
            project: None,
            per_file: vec![std::cell::OnceCell::new(); ranked.len()],
        }
    }

    /// The same, the project's namesake weighing more ([`NAMESAKE_FACTOR`]).
    pub(crate) fn named_after(mut self, project: &str) -> Self {
        self.project = Some(folded_name(project)).filter(|p| !p.is_empty());
        self
    }

    /// The weighed symbols of `ranked[i]`, best first.
    fn of(&self, i: usize) -> &[Weighed<'r>] {
        self.per_file[i].get_or_init(|| {
            let r = &self.ranked[i];
            let all: &'r [SymbolFact] = r.analysis.code.as_ref().map_or(&[], |c| &c.symbols);
            let context = (self.minor.as_slice(), self.headers, self.project.as_deref());
            let mut own = weighed(r, all, &self.floors, context, self.exposed_first);
            own.sort_by(|a, b| b.0.total_cmp(&a.0));
            own
        })
    }
}

/// A file's symbols with their weights for the lists ([`ranked_symbol_tiers`]), each with
/// whether it is hidden (with `exposed_first`: no part of what the project exposes).
fn weighed<'s>(
    r: &Ranked<'_>,
    all: &'s [SymbolFact],
    floors: &RankFloors,
    (minor, headers, project): (&[&str], bool, Option<&str>),
    exposed_first: bool,
) -> Vec<(f64, &'s SymbolFact, bool)> {
    let path = &r.file.path;
    // Tests, examples and vendored code are no part of what the project exposes: their
    // rank (git's test library, which a thousand test scripts call) is not the API's.
    let own_code = importance::role(path) == importance::Role::Source;
    // Nor is what its directory calls internal or a Rust module private to its crate, unless a
    // package root hands it on; nor a C or
    // C++ library's code outside the public headers it keeps (see [`keeps_public_headers`]).
    let internal = importance::in_internal_dir(path)
        || r.private_module
        || (headers && is_c_family(path) && !importance::in_public_include(path));
    // Nor is the code of a language the project hardly writes in.
    let language = r.analysis.code.as_ref().map_or("", |c| c.language.as_str());
    let major = !minor.contains(&importance::language_family(language)) || language.is_empty();
    all.iter()
        .map(|s| {
            let used = reached_uses(r, s);
            let rank = floors.rank(r, s.name(), own_code);
            let local = if is_private_to_file(path, s, all) {
                LOCAL_FACTOR
            } else if is_namespace(s, all) {
                NAMESPACE_FACTOR
            } else {
                1.0
            };
            // What a package root hands on is the package's, wherever it is defined
            // (svelte's index hands on `mount` from `src/internal/client/render.js`).
            let internal = internal && !r.exported.contains_key(s.name());
            // A Go file built only on request (`//go:build dedupelabels`) is a variant, not
            // the API a default build has (Prometheus's opt-in `labels.New` came first).
            let variant = s.conditional && language == "Go";
            let hidden = exposed_first
                && (!own_code || !major || internal || variant || importance::unexposed(s, all));
            let factor = if hidden {
                HIDDEN_FACTOR
            } else if local == 1.0 && project.is_some_and(|p| is_namesake(s, p)) {
                // Neither private to its file nor a namespace that only holds the API.
                NAMESAKE_FACTOR
            } else {
                1.0
            };
            (
                importance::symbol_weight(s, used) * rank * local * factor / cost(s),
                s,
                hidden,
            )
        })
        .collect()
}

/// Whether a definition is the project's namesake: a top-level class, struct, interface,
/// trait, function or module named as the project is, in any case and without its
/// separators ([`folded_name`]). What a user of the library makes or calls first: ky's
/// `class Ky`, which only the package's index uses (its option types, which every module
/// names, came first), Flask's `Flask`, Gson's `Gson`, Hono's `Hono`, pino's `pino()`.
fn is_namesake(s: &SymbolFact, project: &str) -> bool {
    let kind = matches!(
        s.kind.as_str(),
        "class" | "struct" | "interface" | "trait" | "function" | "module"
    );
    kind && s.parent().is_none() && folded_name(s.name()) == project
}

/// A name in lower case without separators (`-`, `_`, `.`) and without the scope or path
/// before it: `@acme/Widget-Kit` and `widget_kit` are both `widgetkit`.
pub(crate) fn folded_name(name: &str) -> String {
    let last = name.rsplit(['/', '\\']).next().unwrap_or(name);
    last.chars()
        .filter(|c| !matches!(c, '-' | '_' | '.'))
        .flat_map(char::to_lowercase)
        .collect()
}

/// Whether the ranked files are a C or C++ library that keeps its users' headers in a public
/// include directory ([`importance::in_public_include`]): at least three of its own headers
/// there. Its other code is then its implementation, as a Go package's `internal/` is:
/// yaml-cpp's `src/scanner.h` and `src/setting.h` (and the copy of a float formatter in
/// `src/contrib/`) came before `include/yaml-cpp/emitter.h`'s `Emitter`. libgit2, leveldb,
/// fmt and curl keep theirs so too.
pub(crate) fn keeps_public_headers(ranked: &[Ranked<'_>]) -> bool {
    ranked
        .iter()
        .filter(|r| {
            is_c_family(&r.file.path)
                && !is_c_source(&r.file.path)
                && importance::in_public_include(&r.file.path)
                && importance::role(&r.file.path) == importance::Role::Source
        })
        .nth(2)
        .is_some()
}

/// Whether a file is C or C++ by its name: a source file or a header.
fn is_c_family(path: &[u8]) -> bool {
    matches!(
        paths::extension(path).as_deref(),
        Some("c" | "h" | "cc" | "cpp" | "cxx" | "c++" | "hh" | "hpp" | "hxx")
    )
}

/// Whether a symbol is a type or a module: what a namesake elsewhere would pass for (a method
/// named like another type's is no such confusion).
fn names_a_type(s: &SymbolFact) -> bool {
    repocue_structure::symbol_priority(&s.kind) == 0 || s.kind == "module"
}

/// The module a file belongs to when the overview spreads its picks: a C or C++ header and
/// the source file of the same name are one module (the header declares what the source
/// defines: git's `strbuf.h` and `strbuf.c`), every other file is its own.
fn c_module(path: &[u8]) -> &[u8] {
    let Some(dot) = path.iter().rposition(|&b| b == b'.') else {
        return path;
    };
    let c = matches!(
        &path[dot + 1..],
        b"c" | b"h" | b"cc" | b"cpp" | b"cxx" | b"hh" | b"hpp" | b"hxx"
    );
    if c && path[dot..].iter().all(|&b| b != b'/') {
        &path[..dot]
    } else {
        path
    }
}

/// [`importance::minor_families`] of the ranked files of the project's own code.
pub(crate) fn minor_families<'r>(ranked: &'r [Ranked<'_>]) -> Vec<&'r str> {
    importance::minor_families(
        ranked
            .iter()
            .filter(|r| importance::role(&r.file.path) == importance::Role::Source)
            .filter_map(Ranked::code_language),
    )
}

/// For each file [`ranked_symbol_tiers`] picks from ([`symbol_sources`]): the most any symbol
/// of it could score whatever definitions the file gained, changed or lost, as long as the
/// names other files use, document or re-export stay (the reference graph is the same): its
/// rank bound (the file's rank or the most any of its names' floors give) and its use bound
/// (the most any of its names is used). A symbol's score is at most
/// `(1 + ln(1 + uses))² × rank` ([`importance::use_factor`]): every other factor of [`importance::symbol_weight`] and of the
/// pick is at most 1. A name new to the file is used by documents only.
pub(crate) fn score_bounds<'r>(
    ranked: &'r [Ranked<'_>],
    n: usize,
) -> impl Iterator<Item = (&'r [u8], f64, f64)> {
    let floors = RankFloors::new(ranked);
    symbol_sources(ranked, n).map(move |(_, r)| {
        let own_code = importance::role(&r.file.path) == importance::Role::Source;
        let names = r
            .used_by
            .keys()
            .chain(r.exported.keys())
            .chain(r.client_uses.keys())
            .chain(r.documented.keys());
        let (rank, uses) = names.fold((r.score, 0.0f64), |(rank, uses), name| {
            (
                rank.max(floors.rank(r, name, own_code)),
                uses.max(r.uses(name)),
            )
        });
        (r.file.path.as_slice(), rank, uses)
    })
}

/// The most a symbol used `uses` times scores in a file of rank bound `rank`
/// ([`score_bounds`]).
pub(crate) fn score_bound(rank: f64, uses: f64) -> f64 {
    importance::use_factor(uses) * rank
}

impl Ranked<'_> {
    /// The language of the file's code, when it has code facts: its parser's, or, for facts
    /// that name none (an empty file's, shared by digest with every other empty file: see
    /// `analyze::structure::analyze`), the file's own.
    pub(crate) fn code_language(&self) -> Option<&str> {
        let code = self.analysis.code.as_ref()?;
        match code.language.as_str() {
            "" => self.file.language.as_deref(),
            language => Some(language),
        }
    }

    /// How much a name the file defines is used: by other non-test files, documents (each
    /// [`DOC_WEIGHT`]) and tests, examples and other clients (each [`CLIENT_WEIGHT`]).
    pub(crate) fn uses(&self, name: &str) -> f64 {
        let of = |m: &NameWeights| m.get(name).copied().unwrap_or(0.0);
        of(&self.used_by)
            + DOC_WEIGHT * of(&self.documented)
            + CLIENT_WEIGHT * of(&self.client_uses)
    }
}

/// A package root that only hands over to another file (express's `index.js`:
/// `module.exports = require('./lib/express')`) makes that file the package's root: what it
/// defines is what the package exports. Only its exports list: the names it uses are not
/// re-exports, and its rank stays its own (ranked as a root, express's `lib/express.js`
/// moved `app.use` and `app.listen` out of the 500-token overview for `app.init`, which
/// `createApplication` calls).
fn attach_handed_exports(ranked: &mut [Ranked<'_>]) {
    let handed: HashSet<Vec<u8>> = handed_roots(ranked)
        .into_iter()
        .map(<[u8]>::to_vec)
        .collect();
    for r in ranked.iter_mut().filter(|r| handed.contains(&r.file.path)) {
        if let Some(code) = r.analysis.code.as_ref() {
            r.root_exports = graph::own_exports(code, &r.used_by, &r.client_uses);
        }
    }
}

/// The files package roots hand over to ([`ModuleFiles::handover`]): roots of their packages
/// in their place.
pub(crate) fn handed_roots<'r>(ranked: &'r [Ranked<'_>]) -> HashSet<&'r [u8]> {
    let roots: Vec<&Ranked<'_>> = ranked
        .iter()
        .filter(|r| r.root)
        .filter(|r| {
            r.analysis
                .code
                .as_ref()
                .is_some_and(|c| c.symbols.is_empty())
        })
        .collect();
    // Most projects have no such root: then no file's module path is computed.
    if roots.is_empty() {
        return HashSet::new();
    }
    let modules = ModuleFiles::new(ranked);
    roots
        .into_iter()
        .filter_map(|r| modules.handover(r))
        .collect()
}

/// The ranked files by the module path an import resolves to.
pub(crate) struct ModuleFiles<'r>(HashMap<Vec<String>, &'r [u8]>);

impl<'r> ModuleFiles<'r> {
    pub(crate) fn new(ranked: &'r [Ranked<'_>]) -> Self {
        ModuleFiles(
            ranked
                .iter()
                .map(|r| {
                    (
                        importance::module_components(&r.file.path),
                        r.file.path.as_slice(),
                    )
                })
                .collect(),
        )
    }

    /// The file of the project a file hands over to when it defines nothing and imports one
    /// file by a relative path (express's `index.js`: `module.exports =
    /// require('./lib/express')`), or a Ruby gem's root one file of its `lib/` (sinatra's
    /// `lib/sinatra.rb`: `require 'sinatra/main'`), if that is another file.
    pub(crate) fn handover(&self, r: &Ranked<'_>) -> Option<&'r [u8]> {
        let code = r.analysis.code.as_ref()?;
        let [import] = code.imports.as_slice() else {
            return None;
        };
        let relative = import.trim_matches(|c| matches!(c, '"' | '\'' | '`'));
        if !code.symbols.is_empty() {
            return None;
        }
        let module = match relative.starts_with('.') {
            true => importance::import_components(&r.file.path, import),
            // `require` reads a gem's `lib/` as the load path.
            false if r.file.path.ends_with(b".rb") && importance::is_package_root(&r.file.path) => {
                let path = paths::display(&r.file.path);
                let (lib, _) = path.rsplit_once('/')?;
                let mut module: Vec<String> = lib.split('/').map(str::to_owned).collect();
                module.extend(
                    relative
                        .split('/')
                        .filter(|p| !p.is_empty())
                        .map(str::to_owned),
                );
                module
            }
            false => return None,
        };
        let target = *self.0.get(&module)?;
        (target != r.file.path.as_slice()).then_some(target)
    }
}

/// How much a symbol is used ([`Ranked::uses`]), where a data member (a field, or a constant
/// or variable inside a type) is reached through its owner: it is used no more than the
/// owner's name. By bare name, a field `name` or `line` of a C source file's own struct is
/// "used" by every file and document that shows some `name` (git's `parse_cmd.name`: 97
/// documents), and `builtin/cat-file.c` listed ten such fields before anything but its
/// command.
fn reached_uses(r: &Ranked<'_>, s: &SymbolFact) -> f64 {
    let own = r.uses(s.name());
    match data_member_owner(s) {
        Some(owner) => own.min(r.uses(owner)),
        None => own,
    }
}

/// The name of the type a data member (a field, or a constant or variable inside a type)
/// belongs to: what a reader reaches it through. `None` for anything else.
pub(crate) fn data_member_owner(s: &SymbolFact) -> Option<&str> {
    let owner = s
        .parent()
        .filter(|_| matches!(s.kind.as_str(), "field" | "constant" | "variable"))?;
    owner.rsplit(['.', ':']).next()
}

/// Tells whether no other file can use a symbol of `path`: a function inside another
/// function, a type, macro or member a C source file (not a header) defines, or a variable a
/// JavaScript or TypeScript module keeps to itself.
fn is_private_to_file(path: &[u8], s: &SymbolFact, all: &[SymbolFact]) -> bool {
    is_local(s, all)
        || is_translation_unit_type(path, s)
        || is_translation_unit_member(path, s)
        || is_module_variable(path, s)
        || is_unexported_module_definition(path, s, all)
        || is_typedefs_tag(s, all)
}

/// Tells whether a C struct, union or enum is the tag of a typedef on its line (`typedef
/// struct foo_inBuffer_s { … } foo_inBuffer`): one type, which the typedef's name stands for;
/// both were listed, on one line number.
pub(crate) fn is_typedefs_tag(s: &SymbolFact, all: &[SymbolFact]) -> bool {
    matches!(s.kind.as_str(), "struct" | "union" | "enum")
        && all.iter().any(|o| {
            !std::ptr::eq(o, s)
                && o.start_line == s.start_line
                && ["typedef struct", "typedef union", "typedef enum"]
                    .iter()
                    .any(|t| o.signature.starts_with(t))
        })
}

/// Tells whether a module is a namespace: a `namespace` declaration, or a module that holds
/// types or modules of its file, at least as many as its own methods: `module Sinatra` around
/// `class Base`, reopened in every file of the gem. What a reader uses are the types inside it; the module is their namespace, as an `impl` block is
/// its methods' container. A module of more methods than types is a mixin that happens to hold
/// a class (`Sinatra::Helpers` and its `Stream`): what a reader uses is the module.
pub(crate) fn is_namespace(s: &SymbolFact, all: &[SymbolFact]) -> bool {
    if s.kind != "module" {
        return false;
    }
    // A C++, C# or PHP `namespace` says so, whatever it holds (yaml-cpp's `node/parse.h` holds
    // `namespace YAML` of functions only: `Load` was listed as `namespace YAML .Load`).
    if s.signature.starts_with("namespace") || importance::declares_a_module_file(s, all) {
        return true;
    }
    let (mut types, mut methods) = (0usize, 0usize);
    for o in all
        .iter()
        .filter(|o| o.parent() == Some(s.qualified_name.as_str()))
    {
        // A Ruby module with instance methods of its own is a mixin, whatever types it also
        // holds: sidekiq's `Sidekiq::Job` (what every job includes) holds `Options`,
        // `Setter` and `ClassMethods` beside `logger` and `jid`, and was listed at no budget.
        if o.kind == "method"
            && o.signature.starts_with("def ")
            && !o.signature.starts_with("def self.")
        {
            return false;
        }
        if o.kind == "module" || repocue_structure::symbol_priority(&o.kind) == 0 {
            types += 1;
        } else if matches!(o.kind.as_str(), "method" | "function") {
            methods += 1;
        }
    }
    types > 0 && types >= methods
}

/// Tells whether a symbol is a top-level variable or constant that a JavaScript or TypeScript
/// module does not export: only the module sees it (express's `var join = path.join` in
/// `lib/view.js`). What a CommonJS module exports it assigns to `exports.name`, a symbol of its
/// own; a declaration file's (`.d.ts`) top-level names are ambient, seen everywhere.
fn is_module_variable(path: &[u8], s: &SymbolFact) -> bool {
    is_module_file(path)
        && s.parent().is_none()
        && matches!(s.kind.as_str(), "variable" | "constant")
        && s.visibility.is_none()
}

/// Tells whether a symbol is a function or class that a JavaScript or TypeScript module
/// declares but does not export, while it exports something else: a helper of the module's
/// own (express's `function tryStat(path)` beside `module.exports = View` in `lib/view.js`
/// was listed among the framework's symbols). A file that exports nothing is a script, whose
/// declarations are globals; a property assignment (`exports.one = function one()`,
/// `res.send = function send()`) is no declaration.
fn is_unexported_module_definition(path: &[u8], s: &SymbolFact, all: &[SymbolFact]) -> bool {
    let declaration = |o: &SymbolFact| {
        o.parent().is_none()
            && matches!(o.kind.as_str(), "function" | "class")
            && ["function", "async function", "class"]
                .iter()
                .any(|k| o.signature.starts_with(k))
    };
    let exports = |o: &SymbolFact| {
        o.parent().is_none()
            && (o.visibility.as_deref() == Some("exported")
                || o.signature.starts_with("exports.")
                || o.signature.starts_with("module.exports"))
    };
    is_module_file(path) && s.visibility.is_none() && declaration(s) && all.iter().any(exports)
}

/// Whether a path is a JavaScript or TypeScript module's source, not a declaration file
/// (`.d.ts`), whose top-level names are ambient, seen everywhere.
fn is_module_file(path: &[u8]) -> bool {
    matches!(
        paths::extension(path).as_deref(),
        Some("js" | "mjs" | "cjs" | "jsx" | "ts" | "mts" | "cts" | "tsx")
    ) && !path.ends_with(b".d.ts")
}

/// The names of a file's public top-level definitions that `shown` does not hold, most used
/// first (by [`importance::symbol_weight`]), at most `n`: what else the file offers, for the
/// price of its names (git's `parse-options.h` beside its `struct option`: `parse_options`).
/// None for tests, examples and vendored code, nor module declarations and `impl` blocks.
pub(crate) fn also_names(r: &Ranked<'_>, shown: impl Fn(&str) -> bool, n: usize) -> Vec<String> {
    if importance::role(&r.file.path) != importance::Role::Source {
        return vec![];
    }
    let all: &[SymbolFact] = r.analysis.code.as_ref().map_or(&[], |c| &c.symbols);
    let named: Vec<(f64, &str)> = all
        .iter()
        .filter(|s| {
            s.parent().is_none()
                && !s.qualified_name.contains('#')
                && !importance::unexposed(s, all)
                && !matches!(s.kind.as_str(), "module" | "impl")
                && !s.name().starts_with('_')
                && !is_private_to_file(&r.file.path, s, all)
                && !shown(s.name())
        })
        .map(|s| (importance::symbol_weight(s, r.uses(s.name())), s.name()))
        .collect();
    heaviest_names(named, n)
}

/// The names of the `n` heaviest of `weighted`, each once, heaviest first; equal weights keep
/// their order in `weighted` (source order, a type's own methods before inherited ones).
pub(crate) fn heaviest_names(mut weighted: Vec<(f64, &str)>, n: usize) -> Vec<String> {
    weighted.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut out: Vec<String> = Vec::new();
    for (_, name) in weighted {
        if out.len() == n {
            break;
        }
        if !out.iter().any(|o| o == name) {
            out.push(name.to_owned());
        }
    }
    out
}

/// The files [`ranked_symbol_tiers`] picks `n` symbols from, with their places in `ranked`:
/// the best-ranked ones and the files whose names a package root re-exports. The pick stays
/// linear in what it can return.
pub(crate) fn symbol_sources<'r, 'a>(
    ranked: &'r [Ranked<'a>],
    n: usize,
) -> impl Iterator<Item = (usize, &'r Ranked<'a>)> {
    let best = n.max(8) * 2;
    ranked
        .iter()
        .enumerate()
        .filter(move |(i, r)| *i < best || !r.exported.is_empty())
}

/// The least rank a symbol of a file has, whatever the file's own rank, for what declares it
/// central (see [`ranked_symbol_tiers`]).
struct RankFloors {
    /// The best file's rank.
    top: f64,
    /// The rank the most exported name gets from the package roots that export it.
    most_exported: f64,
    /// How many of the project's own files use the most used name.
    most_used: f64,
    /// How many of the project's documents show the most shown name as code.
    most_documented: f64,
}

impl RankFloors {
    fn new(ranked: &[Ranked<'_>]) -> Self {
        let max = |values: &mut dyn Iterator<Item = f64>| values.fold(0.0, f64::max);
        let own = |r: &&Ranked<'_>| importance::role(&r.file.path) == importance::Role::Source;
        RankFloors {
            top: max(&mut ranked.iter().map(|r| r.score)),
            most_exported: max(&mut ranked
                .iter()
                .filter(own)
                .flat_map(|r| r.exported.values().copied())),
            most_used: max(&mut ranked
                .iter()
                .filter(own)
                .flat_map(|r| r.used_by.values().copied())),
            most_documented: max(&mut ranked
                .iter()
                .filter(own)
                .flat_map(|r| r.documented.values().copied())),
        }
    }

    /// The rank of `name`, defined in `r`: the file's, or more for a name of the project's own
    /// code (`own_code`)
    /// - a package root defines or re-exports: the package's public API by declaration, whatever
    ///   the rank of the file that happens to define it. It ranks like a file up to
    ///   [`EXPORT_SHARE`] times the best one, scaled by how much the exporting root weighs (a
    ///   package among examples or extras, such as git's `contrib/libgit-sys`, declares no API
    ///   of the project);
    /// - many of the project's own files use: central whatever the rank of the file
    ///   that defines it. It ranks like a file up to [`USE_SHARE`] times the best one, in
    ///   proportion to its users over the most used name's (git's `parse_options`, which every
    ///   command calls, in a header only commands include);
    /// - the project's documents show as code: ranks like a file up to [`DOC_SHARE`] times the
    ///   best one, in proportion to the documents that show it over the most shown name's.
    fn rank(&self, r: &Ranked<'_>, name: &str, own_code: bool) -> f64 {
        let share = |of: &NameWeights, most: f64, factor: f64| match of.get(name) {
            Some(v) if most > 0.0 => factor * self.top * v / most,
            _ => 0.0,
        };
        if !own_code {
            return r.score;
        }
        r.score
            .max(share(&r.exported, self.most_exported, EXPORT_SHARE))
            .max(share(&r.used_by, self.most_used, USE_SHARE))
            .max(share(&r.documented, self.most_documented, DOC_SHARE))
    }
}

/// How much a symbol its language declares hidden (private, `static`, an unexported Go name),
/// or one of a test, example or vendored file or of a language the ranked files hardly use
/// ([`minor_families`]), counts where only what a package exposes
/// belongs (the overview): it comes after every exposed symbol of comparable files, and fills
/// the list only when they run out. A private sort helper of the best-ranked file (cobra's
/// `byName` in `doc/util.go`) is no API, nor is git's test library.
const HIDDEN_FACTOR: f64 = 0.01;

/// What the project's namesake definition ([`is_namesake`]) weighs against another of the
/// same kind, file rank and uses.
const NAMESAKE_FACTOR: f64 = 4.0;

/// What a document that shows a name as code counts for, in files that use the name.
pub(crate) const DOC_WEIGHT: f64 = 3.0;

/// What a test, example or other client file that uses a name counts for, in files that use
/// the name: what the project's own tests call is what its users call (express's `app.use`,
/// cobra's `GenMarkdownTree`), where the library itself hardly does. Measured with
/// `bench/quality/run.sh` (overview, every budget and format) against 0, 1 and 2: the tuned
/// repositories' mean recall 0.7455 → 0.7479 at 0.5 (0.7479 at 1, 0.7472 at 2), the
/// held-out ones' 0.6541 → 0.6697.
const CLIENT_WEIGHT: f64 = 0.5;

/// The rank of the most exported name, relative to the best file's rank: four times the best
/// file's, so a package's declared API comes before the internal types its own code uses most
/// (babel's parser base classes before `@babel/core`'s `transformSync`). Measured with
/// `bench/quality/run.sh` against 0.5 and 4 when uses counted `1 + ln(1 + uses)`: 2 gained
/// flask's `Blueprint`, `render_template` and `Config` and babel's `declare` at 500-1,000
/// tokens, 4 nothing more. Since uses count squared ([`importance::use_factor`]), 2 lets the
/// internal classes a package's modules use of each other pass the names its root declares
/// (the CLI test `what_a_package_root_defines_outranks_busier_internals`); 4 keeps them first
/// and, against 2, costs one fact on the harness (ripgrep's `WalkBuilder` in JSON at 500
/// tokens).
const EXPORT_SHARE: f64 = 4.0;

/// The rank of the name the project's own files use most, relative to the best file's rank
/// (see [`ranked_symbol_tiers`]). Measured with `bench/quality/run.sh` against 0 and 2: at 1
/// the tuned repositories' mean overview recall is 0.7912 → 0.7941 (text) and 0.7101 → 0.7144
/// (JSON), the held-out ones' 0.7009 → 0.7188 and 0.6384 → 0.6473; 2 loses what 1 gains.
const USE_SHARE: f64 = 1.0;

/// The rank of the name the project's documents show most as code, relative to the best
/// file's rank (see [`ranked_symbol_tiers`]): what the README and guides show a user writing
/// is API whatever imports its file. starlette's `Starlette` and `Route`, which 26 of its
/// documents show and none of its modules imports, were in no overview below 3,000 tokens;
/// guzzle's `Client` and FluentValidation's `AbstractValidator` came after internals.
/// Measured with `bench/quality/run.sh` on the tuned repositories against 1 and 2: mean
/// overview recall at 250 / 500 / 1,000 / 2,000 tokens, text 0.5531 / 0.8152 / 0.8780 / 0.9060
/// → 0.5501 / 0.8154 / 0.8780 / 0.9060 at 0.5, JSON 0.3896 / 0.7434 / 0.8491 / 0.9032 →
/// 0.3896 / 0.7405 / 0.8549 / 0.9032; at 1 text 0.8037 and JSON 0.7289 at 500 (cobra's
/// `AddCommand` and `OnInitialize` gave way to names its documents show), at 2 worse again.
const DOC_SHARE: f64 = 0.5;

/// What showing a symbol costs, relative to a typical one: a signature of hundreds of
/// characters (a generic TypeScript interface) buys one fact for the tokens of several, while
/// any signature up to two lines' worth costs as much as a short one.
fn cost(s: &SymbolFact) -> f64 {
    1.0 + s.signature.len().saturating_sub(160) as f64 / 160.0
}

/// How much a module that holds types counts ([`is_namespace`]): every use of a name inside
/// it counted as a use of it. Measured with `bench/quality/run.sh` together with Ruby's core
/// method names (`repocue-structure`'s Ruby builtins), after the later commits' rounds: the
/// tuned repositories' text recall at 1,000 and 2,000 tokens 0.9153 0.9398 → 0.9204 0.9449
/// (sinatra's `IndifferentHash`), JSON unchanged (sinatra at 500: `set` for the change log);
/// held out, rack's `Request` and `MockRequest` at every budget, its `Utils` lost in text.
/// A quarter left `module Rack` in sinatra's overview.
const NAMESPACE_FACTOR: f64 = 0.05;

/// How much a function defined inside another function counts: a closure or helper that no
/// other file can call (Python's nested `def`, which the extractor names without its scope).
const LOCAL_FACTOR: f64 = 0.01;

/// Tells whether a path is a C or C++ source file, not a header.
fn is_c_source(path: &[u8]) -> bool {
    [".c", ".cc", ".cpp", ".cxx", ".c++"]
        .iter()
        .any(|e| path.ends_with(e.as_bytes()))
}

/// Tells whether a symbol is a member (a field, an enumerator) of a type that a C or C++
/// source file defines: as private to the translation unit as its type (git's
/// `branch_info.merge` in `builtin/remote.c`, which every file calling some `merge` seemed to
/// use).
fn is_translation_unit_member(path: &[u8], s: &SymbolFact) -> bool {
    is_c_source(path) && s.parent().is_some() && !matches!(s.kind.as_str(), "function" | "method")
}

/// Tells whether a symbol is a type or macro that a C or C++ source file (not a header)
/// defines: only that translation unit sees it (git's `struct branch_info` in
/// `builtin/remote.c`), whatever names other files happen to share with it.
fn is_translation_unit_type(path: &[u8], s: &SymbolFact) -> bool {
    is_c_source(path)
        && matches!(
            s.kind.as_str(),
            "struct" | "union" | "enum" | "class" | "type" | "macro"
        )
}

/// Tells whether a symbol lies inside the body of a function-like symbol of the same file: a
/// nested function, or a function's local variable (express's `var app = function(req, res,
/// next)` inside `createApplication`, koa's `const handleRequest` inside a method), which no
/// other file can name.
pub(crate) fn is_local(s: &SymbolFact, all: &[SymbolFact]) -> bool {
    let callable = |k: &str| matches!(k, "function" | "method");
    // Anything else lies in a function's body only as the function's own: its owner is one.
    // (A nested function may be named without its scope: Python's nested `def`.)
    if !callable(&s.kind) {
        let Some(owner) = s.parent() else {
            return false;
        };
        if !all
            .iter()
            .any(|o| o.qualified_name == owner && callable(&o.kind))
        {
            return false;
        }
    }
    all.iter().any(|o| {
        callable(&o.kind)
            && !std::ptr::eq(o, s)
            && o.start_line <= s.start_line
            && s.end_line <= o.end_line
            && (o.start_line, o.end_line) != (s.start_line, s.end_line)
    })
}

/// Builds the structure cue.
pub(crate) fn build(state: &Reader, request: &CueRequest) -> Result<Cue> {
    // Repository-relative and normalised by the service (`paths::request_path`).
    let prefix = request.path.clone().unwrap_or_default();
    let ranking = state.cached(&format!("structure:{prefix}"), |state| {
        ranking(state, &prefix)
    })?;
    // A typo (`--path scr`) is no empty directory. A directory of excluded or secret files
    // exists, and answers with its counts (which name none of them).
    let exists = |state: &Reader| -> Result<bool> {
        let all = state.all_files()?;
        Ok(all
            .iter()
            .any(|f| under(&f.path, &paths::from_display(&prefix))))
    };
    if !prefix.is_empty() && ranking.files_total == 0 && !exists(state)? {
        return Err(Error::NotFound {
            kind: "path",
            id: prefix,
        });
    }
    let content = StructureContent {
        path: prefix.clone(),
        files_total: ranking.files_total,
        code_files: ranking.code_files,
        not_outlined: ranking.not_outlined,
        ..Default::default()
    };
    let env = envelope(state, request, content);
    let mut items: Vec<Item<StructureContent>> = Vec::new();
    // The first eight files lead; each further one comes with every fourth symbol, a line
    // beside four: past the eighth, files came only once every symbol had, and fastapi's
    // structure listed 8 of its 56 files at 6,000 tokens.
    for (i, e) in ranking.files.into_iter().enumerate() {
        let rank = if i < 8 {
            10_000 - i as i64
        } else {
            5_000 - FILE_EVERY_SYMBOLS * (i as i64 - 8)
        };
        items.push(Item::push(0, rank, e, |c: &mut StructureContent| {
            &mut c.files
        }));
    }
    for (i, s) in ranking.symbols.into_iter().enumerate() {
        let rank = 5_000 - i as i64;
        items.push(Item::push(1, rank, s, |c: &mut StructureContent| {
            &mut c.symbols
        }));
    }
    let more = More {
        // The whole repository needs no `--path ''`.
        path: Some(prefix).filter(|p| !p.is_empty()),
        ..More::of(View::Structure, round_up(request.max_tokens * 2))
    };
    let sections = vec![
        Section::new("files", Some(more.clone())),
        Section::new("symbols", Some(more)),
    ];
    fit(env, &sections, items)
}

/// Symbols a structure cue lists per further file, past its first eight.
const FILE_EVERY_SYMBOLS: i64 = 4;

/// What a structure cue under one prefix ranks, before the budget: computed once per snapshot
/// and prefix and cached, since ranking reads the code facts of every file under the prefix
/// (a snapshot differs from the previous one in whatever is dirty, so the dirty-file boost is
/// part of what is cached).
#[derive(Debug, Serialize, Deserialize)]
struct StructureRanking {
    files_total: u64,
    code_files: u64,
    #[serde(default)]
    not_outlined: BTreeMap<String, u64>,
    files: Vec<FileEntry>,
    symbols: Vec<SymbolEntry>,
}

/// Most symbols a structure cue ranks: more than the largest budget shows (20,000 tokens hold
/// about 1,000 symbol lines), so what a budget leaves out is counted in `omitted` and offered
/// by `more`, never dropped unsaid. Every symbol of a file can be listed: a further symbol of
/// a file weighs less and less ([`importance::diverse`]), so the first lines stay those of
/// many files, and a request for one file gets all of it (fmt's `format.h` showed 12 of its
/// 200 symbols at any budget, with no sign of the others).
const STRUCTURE_SYMBOLS: usize = 1_000;

fn ranking(state: &Reader, prefix: &str) -> Result<StructureRanking> {
    // The path as outputs show it (`inv\xFF.py`), read back as bytes.
    let prefix = paths::from_display(prefix);
    let files_total = state
        .files()?
        .iter()
        .filter(|f| under(&f.path, &prefix))
        .count() as u64;
    let mut not_outlined = BTreeMap::new();
    let ranked = ranked_files_counting(state, &prefix, (&[], &[]), true, &mut not_outlined)?;
    // Under the project's own code, what it exposes comes first (as in the overview); inside
    // tests or examples, whose every symbol is hidden that way, their own ranking decides.
    let exposed_first = prefix.is_empty() || {
        let mut probe = prefix.strip_suffix(b"/").unwrap_or(&prefix).to_vec();
        probe.extend_from_slice(b"/x");
        importance::role(&probe) == importance::Role::Source
    };
    let files = ranked
        .iter()
        .take(200)
        .map(|r| FileEntry {
            path: paths::display(&r.file.path),
            language: r.file.language.clone(),
            symbols: r
                .analysis
                .code
                .as_ref()
                .map_or(0, |c| c.symbols.len() as u64),
        })
        .collect();
    Ok(StructureRanking {
        files_total,
        code_files: ranked.len() as u64,
        not_outlined,
        files,
        symbols: ranked_symbols(&ranked, MAX_SYMBOLS, STRUCTURE_SYMBOLS, exposed_first),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The documents' counts of code names are read once: a later snapshot whose changes are
    /// code only takes them from the snapshot that read them, one whose documents changed
    /// reads them again.
    #[test]
    fn documented_names_are_read_again_only_when_a_document_changed() {
        use crate::refresh::{run, Operation};
        let t = crate::testing::temp_repo(&[
            ("README.md", "# Work\n\nCall `parse` first.\n"),
            ("src/core.py", "def parse(text):\n    return text\n"),
        ]);
        run(&t.repo, &Operation::Init).unwrap();
        let counts = |t: &crate::testing::TempRepo| {
            let reader = crate::read::prepare(&t.repo, false).unwrap();
            let counts = documented_names(&reader).unwrap();
            let stored: Option<NameWeights> = reader
                .cached_at(reader.snapshot.seq, DOCUMENTED_KEY)
                .unwrap();
            assert_eq!(counts, count_documented_names(&reader).unwrap());
            (counts, stored.is_some())
        };
        let (first, stored) = counts(&t);
        assert_eq!(first.get("parse"), Some(&1.0));
        assert!(stored, "the first snapshot reads and stores them");
        let edit = |path: &str, content: &str| {
            std::fs::write(t.repo.root.join(path), content).unwrap();
            assert!(run(&t.repo, &Operation::Refresh).unwrap().published);
        };
        edit(
            "src/core.py",
            "def parse(text):\n    return text\n\ndef render(d):\n    pass\n",
        );
        let (second, stored) = counts(&t);
        assert_eq!(
            (second, stored),
            (first, false),
            "taken from the first snapshot"
        );
        edit("README.md", "# Work\n\nCall `parse`, then `render`.\n");
        let (third, stored) = counts(&t);
        assert_eq!(third.get("render"), Some(&1.0));
        assert!(stored, "read again after the README changed");
    }

    /// Test data is left out of rankings above it, kept in those within it.
    #[test]
    fn fixtures_are_test_data_below_the_prefix_only() {
        let input = b"packages/parser/test/fixtures/es2015/arrow/input.js".as_slice();
        assert!(below_fixtures(input, b""));
        assert!(below_fixtures(input, b"packages/parser"));
        assert!(!below_fixtures(input, b"packages/parser/test/fixtures"));
        assert!(!below_fixtures(
            input,
            b"packages/parser/test/fixtures/es2015/"
        ));
        assert!(below_fixtures(b"pkg/testdata/a.go", b""));
        assert!(below_fixtures(
            b"src/__snapshots__/App.test.js.snap",
            b"src"
        ));
        assert!(below_fixtures(b"t/Fixtures/x.c", b""), "any case");
        // A file named like one, or a directory that only contains the word, is code.
        assert!(!below_fixtures(b"src/fixtures.rs", b""));
        assert!(!below_fixtures(b"src/fixtures_loader/mod.rs", b""));
        assert!(!below_fixtures(b"lib/app.js", b""));
    }

    /// A symbol `q` of `kind` at `line`, without a visibility marker.
    fn unmarked(q: &str, kind: &str, line: u32) -> SymbolFact {
        SymbolFact {
            qualified_name: q.into(),
            kind: kind.into(),
            signature: format!("{kind} {q}"),
            cut_hash: None,
            start_line: line,
            end_line: line,
            visibility: None,
            conditional: false,
            deprecated: false,
        }
    }

    /// A JavaScript or TypeScript module's declared function or class is its own when it
    /// exports something else; a script's (no exports) and a declaration file's are not, nor
    /// is a property assignment.
    #[test]
    fn a_module_keeps_what_it_does_not_export() {
        let sig = |q: &str, signature: &str, visibility: Option<&str>| SymbolFact {
            signature: signature.into(),
            visibility: visibility.map(Into::into),
            ..unmarked(q, "function", 1)
        };
        let helper = sig("tryStat", "function tryStat(path)", None);
        let class = SymbolFact {
            kind: "class".into(),
            ..sig("Cache", "class Cache", None)
        };
        let exported = sig("View", "function View(name)", Some("exported"));
        let assigned = sig("one", "exports.one = function one()", None);
        for (path, exports) in [
            (&b"lib/view.js"[..], &exported),
            (b"lib/c.cjs", &assigned),
            (b"src/a.ts", &exported),
        ] {
            let all = [helper.clone(), class.clone(), exports.clone()];
            for own in [&helper, &class] {
                assert!(is_private_to_file(path, own, &all), "{path:?} {own:?}");
            }
            assert!(!is_private_to_file(path, exports, &all), "{path:?}");
        }
        // A function's local variable is its own, whatever the file exports.
        let outer = SymbolFact {
            end_line: 9,
            ..sig(
                "createApplication",
                "function createApplication()",
                Some("exported"),
            )
        };
        let inner = SymbolFact {
            kind: "variable".into(),
            start_line: 3,
            end_line: 5,
            ..sig(
                "createApplication.app",
                "var app = function(req, res, next)",
                None,
            )
        };
        let all = [outer.clone(), inner.clone()];
        assert!(is_private_to_file(b"lib/express.js", &inner, &all));
        assert!(!is_private_to_file(b"lib/express.js", &outer, &all));
        // A script exports nothing: its functions are globals.
        let script = [helper.clone(), sig("main", "function main()", None)];
        assert!(!is_private_to_file(b"bin/serve.js", &helper, &script));
        // Declaration files, other languages.
        let all = [helper.clone(), exported.clone()];
        assert!(!is_private_to_file(b"types/index.d.ts", &helper, &all));
        assert!(!is_private_to_file(b"src/view.py", &helper, &all));
    }

    /// A ranked file of `language` defining `symbols`, of rank `score`, its names used by
    /// other files as `used` says.
    fn ranked_with_uses<'a>(
        file: &'a FileState,
        language: &str,
        symbols: Vec<SymbolFact>,
        score: f64,
        used: &[(&str, f64)],
    ) -> Ranked<'a> {
        Ranked {
            file,
            analysis: Analysis {
                code: Some(crate::analyze::structure::CodeFacts {
                    language: language.into(),
                    symbols,
                    ..Default::default()
                }),
                ..Default::default()
            },
            score,
            root: importance::is_package_root(&file.path),
            star_handed: false,
            used_by: used.iter().map(|(n, u)| ((*n).to_owned(), *u)).collect(),
            client_uses: NameWeights::default(),
            exported: NameWeights::default(),
            api_mass: 0.0,
            root_exports: Vec::new(),
            documented: NameWeights::default(),
            private_module: false,
        }
    }

    /// A function every command calls, in a header only commands include, comes before the
    /// types of the best-ranked file that one other file uses.
    #[test]
    fn a_name_many_files_use_ranks_whatever_its_files_rank() {
        let sym = unmarked;
        let file = |path: &str| crate::model::sample_file(path, path);
        let (core, opts) = (file("core.h"), file("parse-options.h"));
        let ranked = |file, symbols, score, used: &[(&str, f64)]| {
            ranked_with_uses(file, "C", symbols, score, used)
        };
        let files = [
            ranked(
                &core,
                vec![sym("core_a", "struct", 1), sym("core_b", "struct", 2)],
                1.0,
                &[("core_a", 1.0), ("core_b", 1.0)],
            ),
            ranked(
                &opts,
                vec![
                    sym("parse_options", "function", 1),
                    sym("opt_rare", "function", 2),
                ],
                0.1,
                &[("parse_options", 40.0), ("opt_rare", 1.0)],
            ),
        ];
        let names: Vec<String> = ranked_symbols(&files, 2, 4, true)
            .into_iter()
            .map(|s| s.name)
            .collect();
        assert_eq!(names, ["parse_options", "core_a", "core_b", "opt_rare"]);
    }

    /// Uses tell apart what a file defines, beyond the file's rank: a function that other
    /// files call comes before a type of a better-ranked file that hardly anything uses
    /// (cobra's `CheckErr` and `Group`, with `Command` first).
    #[test]
    fn a_function_many_files_call_outranks_a_type_nothing_uses() {
        let sym = |q: &str, kind: &str| unmarked(q, kind, 1);
        let file = |path: &str| crate::model::sample_file(path, path);
        let (command, check) = (file("command.go"), file("util/check.go"));
        let ranked = |file, symbols, score, used: &[(&str, f64)]| {
            ranked_with_uses(file, "Go", symbols, score, used)
        };
        let files = [
            ranked(
                &command,
                vec![sym("Command", "struct"), sym("Group", "struct")],
                0.5,
                &[("Command", 40.0), ("Group", 1.0)],
            ),
            ranked(
                &check,
                vec![sym("CheckErr", "function")],
                0.05,
                &[("CheckErr", 8.0)],
            ),
        ];
        let names: Vec<String> = ranked_symbols(&files, 2, 3, true)
            .into_iter()
            .map(|s| s.name)
            .collect();
        assert_eq!(names, ["Command", "CheckErr", "Group"]);
    }

    /// A package root among extras beside the project (git's `contrib/libgit-sys`) declares no
    /// API of the project: what it exports ranks like its file, and does not scale down what
    /// the project's own roots export.
    #[test]
    fn only_the_projects_own_packages_declare_its_api() {
        let sym = |q: &str| SymbolFact {
            qualified_name: q.into(),
            kind: "function".into(),
            signature: format!("fn {q}()"),
            cut_hash: None,
            start_line: 1,
            end_line: 1,
            visibility: Some("public".into()),
            conditional: false,
            deprecated: false,
        };
        let file = |path: &str| crate::model::sample_file(path, path);
        let (core, api, extra) = (
            file("src/core.rs"),
            file("src/api.rs"),
            file("contrib/sys/src/lib.rs"),
        );
        let ranked = |file, name: &str, score, exported: f64| Ranked {
            file,
            analysis: Analysis {
                code: Some(crate::analyze::structure::CodeFacts {
                    language: "Rust".into(),
                    symbols: vec![sym(name)],
                    ..Default::default()
                }),
                ..Default::default()
            },
            score,
            root: importance::is_package_root(&file.path),
            star_handed: false,
            used_by: NameWeights::default(),
            client_uses: NameWeights::default(),
            exported: match exported {
                0.0 => NameWeights::default(),
                e => NameWeights::from_iter([(name.to_owned(), e)]),
            },
            api_mass: 0.0,
            root_exports: Vec::new(),
            documented: NameWeights::default(),
            private_module: false,
        };
        let files = [
            ranked(&core, "core_a", 1.0, 0.0),
            ranked(&api, "api", 0.1, 1.0),
            ranked(&extra, "free", 0.05, 5.0),
        ];
        for exposed_first in [false, true] {
            let names: Vec<String> = ranked_symbols(&files, 1, 3, exposed_first)
                .into_iter()
                .map(|s| s.name)
                .collect();
            assert_eq!(names, ["api", "core_a", "free"], "{exposed_first}");
        }
    }

    #[test]
    fn functions_inside_functions_are_local_and_methods_are_not() {
        let sym = |q: &str, kind: &str, start: u32, end: u32| SymbolFact {
            qualified_name: q.into(),
            kind: kind.into(),
            signature: String::new(),
            cut_hash: None,
            start_line: start,
            end_line: end,
            visibility: None,
            conditional: false,
            deprecated: false,
        };
        let all = vec![
            sym("stream", "function", 1, 20),
            sym("generator", "function", 5, 9),
            sym("Cart", "class", 22, 40),
            sym("Cart.total", "method", 23, 25),
            sym("public_api", "function", 42, 44),
        ];
        let local: Vec<bool> = all.iter().map(|s| is_local(s, &all)).collect();
        assert_eq!(local, [false, true, false, false, false]);
        // The penalty outweighs any use count a bare name can collect.
        assert!(LOCAL_FACTOR * importance::use_factor(1000.0) < 1.0);
        // A C source file's own types and macros are its own; a header's are everyone's.
        let info = sym("branch_info", "struct", 1, 5);
        assert!(is_translation_unit_type(b"builtin/remote.c", &info));
        assert!(!is_translation_unit_type(b"remote.h", &info));
        let main = sym("cmd_remote", "function", 7, 9);
        assert!(!is_translation_unit_type(b"builtin/remote.c", &main));
    }

    #[test]
    fn imports_of_workspace_packages_resolve_to_their_code() {
        let aliases: Vec<Alias> = vec![
            ("@babel/core-x".into(), "packages/babel-core-x/src".into()),
            ("@babel/core".into(), "packages/babel-core/src".into()),
            ("grep_searcher".into(), "crates/searcher/src".into()),
        ];
        let r = |i: &str| resolve_package(&aliases, i);
        assert_eq!(
            r("\"@babel/core\"").as_deref(),
            Some("packages/babel-core/src")
        );
        assert_eq!(
            r("'@babel/core/lib/config'").as_deref(),
            Some("packages/babel-core/src/lib/config")
        );
        assert_eq!(
            r("@babel/core-x").as_deref(),
            Some("packages/babel-core-x/src")
        );
        assert_eq!(
            r("grep_searcher::sink::Sink").as_deref(),
            Some("crates::searcher::src::sink::Sink")
        );
        // A longer name that merely starts like a package is not that package.
        assert_eq!(r("@babel/corejs"), None);
        assert_eq!(r("grep_searcherx::A"), None);
        assert_eq!(r("./core"), None);
        // The rewritten import names the package's root module.
        let import = importance::import_components(
            b"packages/babel-cli/src/index.ts",
            &r("@babel/core").unwrap(),
        );
        assert!(importance::import_names_module(
            &import,
            &importance::module_components(b"packages/babel-core/src/index.ts")
        ));
        let import = importance::import_components(
            b"crates/core/main.rs",
            &r("grep_searcher::Searcher").unwrap(),
        );
        assert!(importance::import_names_module(
            &import,
            &importance::module_components(b"crates/searcher/src/lib.rs")
        ));
    }
}
