//! Full-text search: what gets indexed for each file (its path, its symbols, its document
//! headings), how a user query becomes an FTS5 query, and how stored matches become scored
//! hits. The store only stores the rows and runs the match.

use crate::analyze::importance::Role;
use crate::analyze::Analysis;
use crate::api::{EntityId, SearchKind};
use crate::error::{Error, Result};
use crate::model::FileState;
use crate::paths;
use crate::store::{MatchRow, SearchRow, Store};

/// One searchable entry. Only what cannot be derived is stored: the entity id, the short
/// name and the title of path and heading entries come from kind, path and name.
pub type Entry = SearchRow;

/// One scored search hit.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchHit {
    /// What it is.
    pub kind: SearchKind,
    /// Entity id.
    pub entity: String,
    /// File path bytes.
    pub path: Vec<u8>,
    /// Short name.
    pub name: String,
    /// Signature, heading or path.
    pub title: String,
    /// Line.
    pub line: Option<u32>,
    /// bm25 score (lower is better), adjusted.
    pub score: f64,
    /// Content digest of the file's current version, where a symbol's signature is read.
    pub digest: Option<String>,
    /// For an exact symbol match: its kind's priority (`repocue_structure::symbol_priority`,
    /// types and functions before variables), so a definition comes before an alias such as
    /// `var View = require("./view")`; then whether a package declares it as its API (see
    /// `declared_api`); then its visibility (public, unmarked, hidden), so a private helper
    /// comes after the public namesakes; a hidden one after every other. Encoded as
    /// `hidden * 24 + kind * 6 + undeclared * 3 + visibility`; 0 for everything else.
    pub priority: u8,
}

/// How many stored matches are ranked per hit returned: bm25 alone may put many test
/// fixtures of a name before its one definition, so the rank below sees well past them.
const CANDIDATES_PER_HIT: usize = 25;

/// Runs a query's terms in one mode and returns the best `limit` hits of the given kinds for
/// `query` (see [`rank`]), symbols with their signatures: symbols and headings through the
/// full-text index, paths from the path table.
pub fn find(
    store: &Store,
    terms: &Terms,
    query: &str,
    kinds: &[SearchKind],
    limit: usize,
) -> Result<Vec<SearchHit>> {
    let candidates = limit.saturating_mul(CANDIDATES_PER_HIT);
    let mut rows = match kinds.iter().any(|k| *k != SearchKind::Path) {
        true => store.search(&terms.expression(), &exact_name(query), candidates)?,
        false => vec![],
    };
    if kinds.contains(&SearchKind::Path) {
        rows.extend(store.search_paths(
            &terms.first_words(),
            terms.all(),
            |p| terms.path_score(p),
            candidates,
        )?);
    }
    let mut hits = Vec::with_capacity(rows.len());
    for r in rows {
        hits.push(hit(store, r)?);
    }
    for h in &mut hits {
        if h.kind == SearchKind::Symbol
            && h.entity.rsplit(':').next().is_some_and(|q| q.contains('.'))
        {
            h.score *= 0.5;
        }
    }
    hits.retain(|h| kinds.contains(&h.kind));
    prioritize(store, &mut hits, query)?;
    rank(&mut hits, query);
    hits.truncate(limit);
    sign(store, &mut hits)?;
    Ok(hits)
}

/// Orders hits totally: exact name matches first (a symbol-name query finds its definition
/// first; see [`exactness`]), then the project's own code before examples, tests and vendored code (a test
/// helper never outranks the definition it shadows), then, of what is not hidden, definitions
/// before TypeScript declaration files ([`is_declaration_file`]), then symbols before headings before
/// paths (a class named like the project comes before the README's title), then the
/// definition in the file named for it ([`named_for`]) and the one nearer the root
/// ([`shallower`]), the other way round for two Go definitions, then bm25 (a member match, whose
/// signature mentions its type's name, counts half), then id.
pub fn rank(hits: &mut [SearchHit], query: &str) {
    let q = exact_name(query);
    let role = |h: &SearchHit| match crate::analyze::importance::role(&h.path) {
        Role::Source => 0,
        Role::Example => 1,
        Role::Test => 2,
        Role::Vendored => 3,
    };
    // A namesake in another case is the asked name only in the project's own code:
    // urfave/cli's `search Flag` listed a `flag Flag` field of a table in each of six tests
    // before `FlagBase` and `StringFlag`. Nor is a hidden member, when a bare name
    // is asked: serde_json's `search Value` listed the `type Value = …` of every private
    // visitor's trait impl before `Value`'s own methods.
    let bare = !q.contains(['.', ':']);
    let hidden = |h: &SearchHit| h.priority >= HIDDEN_PRIORITY;
    // A type inside a module (Rust's inline `mod string { pub struct RegexBuilder }`,
    // `string.RegexBuilder`: a lower-case owner) is no member: regex's builder came 37th,
    // after another crate's 25 methods.
    let member = |h: &SearchHit| {
        let type_like = (h.priority % HIDDEN_PRIORITY) / 6 == 0;
        h.kind == SearchKind::Symbol
            && crate::api::ids::split_symbol(&h.entity).is_some_and(|(_, n)| {
                let owner = n
                    .rsplit_once('.')
                    .map(|(o, _)| o.rsplit('.').next().unwrap_or(o));
                owner.is_some_and(|o| !(type_like && o.starts_with(|c: char| c.is_lowercase())))
            })
    };
    // A constructor is named as its type: a bare type name asks for the type, not for
    // leveldb's `DB() = default` and `DB(const DB&) = delete`, hits 2 and 3 of `search DB`.
    let constructor = |h: &SearchHit| {
        h.kind == SearchKind::Symbol
            && crate::api::ids::split_symbol(&h.entity).is_some_and(|(_, n)| {
                let n = n.split('#').next().unwrap_or(n);
                let mut parts = n.rsplit('.');
                matches!((parts.next(), parts.next()), (Some(a), Some(b)) if a == b)
            })
    };
    let exactness = |h: &SearchHit| match exactness(h, &q) {
        1 if role(h) != 0 => 2,
        0 | 1 if bare && hidden(h) && member(h) => 2,
        0 | 1 if bare && constructor(h) => 2,
        e => e,
    };
    let kind_order = |h: &SearchHit| match h.kind {
        SearchKind::Symbol => 0,
        SearchKind::Doc => 1,
        SearchKind::Path => 2,
    };
    // What the compiler makes of a type (constructors, destructors, operators) after what the
    // type does: leveldb's `search Policy` listed `~Policy` twice and `operator=` before the
    // policy's methods.
    let special = |h: &SearchHit| {
        let last = h.name.as_str();
        let operator = last
            .strip_prefix("operator")
            .is_some_and(|rest| !rest.starts_with(|c: char| c.is_alphanumeric() || c == '_'));
        h.kind == SearchKind::Symbol && (last.starts_with('~') || operator || constructor(h))
    };
    hits.sort_by(|a, b| {
        exactness(a)
            .cmp(&exactness(b))
            .then(role(a).cmp(&role(b)))
            .then(hidden(a).cmp(&hidden(b)))
            .then(is_declaration_file(&a.path).cmp(&is_declaration_file(&b.path)))
            .then(kind_order(a).cmp(&kind_order(b)))
            .then(special(a).cmp(&special(b)))
            .then(a.priority.cmp(&b.priority))
            .then_with(|| {
                // A file named for the definition first; in Go, whose packages are
                // directories and whose file names say little, the definition nearer the
                // root (logrus's `Level` in `logrus.go`, not a hook's `level.go`).
                let named = named_for(&b.path, &b.name).cmp(&named_for(&a.path, &a.name));
                let shallow = shallower(a, b, &q);
                match is_go(&a.path) && is_go(&b.path) {
                    true => shallow.then(named),
                    false => named.then(shallow),
                }
            })
            .then(a.score.total_cmp(&b.score))
            .then(a.entity.cmp(&b.entity))
    });
}

/// Whether a file only declares what others define: a TypeScript declaration file
/// (`index.d.ts`, `.d.mts`, `.d.cts`) or a Python stub (`.pyi`). axios's `search AxiosError`
/// listed its three typings before the class in `lib/core/AxiosError.js`, attrs' `search
/// field` four `__init__.pyi` overloads before `_next_gen.py`'s `field`; where nothing else
/// defines a name, its declaration still comes first.
fn is_declaration_file(path: &[u8]) -> bool {
    [&b".d.ts"[..], b".d.mts", b".d.cts", b".pyi"]
        .iter()
        .any(|ext| path.ends_with(ext))
}

/// Of two definitions of the asked name, the one nearer the root first: logrus's `Level` is
/// `logrus.go`'s, not `hooks/slog/level.go`'s `type Level logrus.Level` (bm25 preferred its
/// shorter signature). Other hits are left to bm25.
fn shallower(a: &SearchHit, b: &SearchHit, q: &str) -> std::cmp::Ordering {
    let depth = |h: &SearchHit| h.path.iter().filter(|&&c| c == b'/').count();
    let named = |h: &SearchHit| h.kind == SearchKind::Symbol && exactness(h, q) == 0;
    if named(a) && named(b) {
        depth(a).cmp(&depth(b))
    } else {
        std::cmp::Ordering::Equal
    }
}

/// The name a query asks for, as entries name it: trimmed, with Rust's and Ruby's `::`
/// written `.` (`Command::new` is the entry `Command.new`); empty for a query of several
/// words, which names nothing.
fn exact_name(query: &str) -> String {
    let q = query.trim();
    match q.is_empty() || q.contains(char::is_whitespace) {
        true => String::new(),
        false => q.replace("::", "."),
    }
}

/// How exactly a hit is named `q` (an [`exact_name`]): 0 when its short name is `q`, or for
/// a symbol, when its qualified name (an overload's `#n` aside) is `q` or ends in `.q`
/// (`Command.Run` finds the method `Command.Run` before the helpers `runBefore` and
/// `shouldRunCompletion` that bm25 prefers), for a path, when its file's name without the
/// extension is, in its case (koa's `search response` found a test helper's `response`
/// before `lib/response.js`); 1 the same in any ASCII case (not a file's); 2 when the name
/// holds `q` as a word of its own; 3 otherwise.
fn exactness(h: &SearchHit, q: &str) -> u8 {
    if q.is_empty() {
        return 2;
    }
    let qualified = match h.kind {
        SearchKind::Symbol => crate::api::ids::split_symbol(&h.entity)
            .map(|(_, name)| name.split('#').next().unwrap_or(name)),
        _ => None,
    };
    let stem = match h.kind {
        SearchKind::Path => h.name.rsplit_once('.').map(|(stem, _)| stem),
        _ => None,
    };
    let names = |same: &dyn Fn(&str, &str) -> bool| {
        same(&h.name, q)
            || qualified.is_some_and(|n| {
                same(n, q)
                    || (n.len() > q.len()
                        && n.is_char_boundary(n.len() - q.len() - 1)
                        && n.as_bytes()[n.len() - q.len() - 1] == b'.'
                        && same(&n[n.len() - q.len()..], q))
            })
    };
    // A file's name only as written: urfave/cli's `flag.go` is no `Flag`.
    if names(&|a, b| a == b) || stem == Some(q) {
        0
    } else if names(&|a, b| a.eq_ignore_ascii_case(b)) {
        1
    } else if qualified
        .unwrap_or(&h.name)
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|word| word == q)
    {
        // The name holds the asked one as a word of its own: bytes' `impl Bytes`,
        // `Bytes.slice` and `impl Clone for Bytes` before sixteen `impl … for BytesMut`.
        2
    } else {
        3
    }
}

/// Whether a file is Go's.
fn is_go(path: &[u8]) -> bool {
    path.ends_with(b".go")
}

/// Tells whether a file is named for `name`: its name before its last extension is `name` in
/// any case, `_` and `-` aside (`ResiliencePipeline.cs`, `query_parser.rb` for `QueryParser`,
/// `node.h` for `Node`). A C# partial class is defined in many files (Polly's `Policy` in
/// every `…Syntax.cs`), of which the one named for it is where a reader starts; so are Java's,
/// Ruby's and PHP's by convention.
fn named_for(path: &[u8], name: &str) -> bool {
    let file = crate::paths::file_name(path);
    let stem = match file.iter().rposition(|&b| b == b'.') {
        Some(dot) if dot > 0 => &file[..dot],
        _ => file,
    };
    let plain = |b: &u8| *b != b'_' && *b != b'-';
    let stem = stem.iter().filter(|b| plain(b)).map(u8::to_ascii_lowercase);
    let name = name
        .as_bytes()
        .iter()
        .filter(|b| plain(b))
        .map(u8::to_ascii_lowercase);
    name.clone().next().is_some() && stem.eq(name)
}

/// The part of a [`SearchHit::priority`] that says the definition is hidden.
const HIDDEN_PRIORITY: u8 = 24;

/// Most exact symbol matches whose kinds are looked up (each costs its file's facts).
const MAX_PRIORITIZED: usize = 64;

/// Sets the kind priority of symbol hits whose name is the query (see [`SearchHit::priority`]),
/// reading their files' facts, and the visibility part of it for the other symbols of those
/// files.
fn prioritize(store: &Store, hits: &mut [SearchHit], query: &str) -> Result<()> {
    let q = exact_name(query);
    let exact = |h: &SearchHit| h.kind == SearchKind::Symbol && exactness(h, &q) < 2;
    let digests: Vec<&str> = hits
        .iter()
        .filter(|h| exact(h))
        .filter_map(|h| h.digest.as_deref())
        .take(MAX_PRIORITIZED)
        .collect();
    // The other symbols of those files (a class's members, found by its name in their
    // signatures) are ordered by their visibility only: Polly's `search PredicateBuilder`
    // listed its private `_predicates`, `CreatePredicate` and `Add` before `Build`.
    let members = hits.iter().any(|h| {
        h.kind == SearchKind::Symbol
            && !exact(h)
            && h.digest.as_deref().is_some_and(|d| digests.contains(&d))
    });
    if digests.len() < 2 && !members {
        return Ok(());
    }
    let facts = store.facts(&digests)?;
    for h in hits
        .iter_mut()
        .filter(|h| h.kind == SearchKind::Symbol && h.digest.is_some())
    {
        let qualified = h.entity.rsplit(':').next().unwrap_or_default();
        let symbol = h
            .digest
            .as_deref()
            .and_then(|d| facts.get(d)?.code.as_ref())
            .and_then(|c| {
                c.symbols
                    .iter()
                    .find(|s| s.qualified_name == qualified && Some(s.start_line) == h.line)
            });
        if let Some(s) = symbol {
            let code = h
                .digest
                .as_deref()
                .and_then(|d| facts.get(d)?.code.as_ref());
            // A Go file built only on request is a variant: after the default build's.
            let language = code.map_or("", |c| c.language.as_str());
            // A definition inside a function's body is that function's local: zod's
            // `inst._zod.parse = …` in `$ZodObjectJIT` came before the `parse` users call.
            let local = s
                .parent()
                .and_then(|p| code?.symbols.iter().find(|x| x.qualified_name == p))
                .is_some_and(|p| matches!(p.kind.as_str(), "function" | "method"));
            // A member of anything hidden is hidden (serde_json's `type Value = …` of each
            // private visitor struct's trait impl came before `Value`'s own methods).
            let all = code.map_or(&[][..], |c| &c.symbols[..]);
            // A deprecated definition, or a member of a deprecated type, after the live one
            // of its name: junit4's `search Assert` led with the deprecated
            // `junit.framework.Assert`, not `org.junit.Assert`.
            let deprecated = s.deprecated
                || s.parent()
                    .and_then(|p| all.iter().find(|x| x.qualified_name == p))
                    .is_some_and(|p| p.deprecated);
            let visibility = match s.visibility.as_deref() {
                _ if s.conditional && language == "Go" => 2,
                _ if local => 2,
                _ if crate::analyze::importance::unexposed(s, all) => 2,
                _ if deprecated => 1,
                Some("public" | "exported") => 0,
                _ => 1,
            };
            // A name brought in from elsewhere ranks as an alias (`var View = require(…)`, a
            // variable): after what defines it. So does a macro only some builds define
            // (tmux's `#ifdef NEED_FUZZING` `#define main __weak main` came before the
            // program's `main`).
            let variant_macro = s.kind == "macro" && s.conditional;
            // So does a declaration of a module's file (`pub mod serve;`): what it holds first.
            let pointer = crate::analyze::importance::declares_a_module_file(s, all);
            let kind = match brings_in_namesake(s) || variant_macro || pointer {
                true => repocue_structure::symbol_priority("variable"),
                false => repocue_structure::symbol_priority(&s.kind),
            };
            // A hidden definition comes after every other, whatever its kind: pydantic-core's
            // private Rust `struct Field` came before the `Field` function users call.
            let hidden = u8::from(visibility == 2) * HIDDEN_PRIORITY;
            h.priority = match exact(h) {
                true => hidden + kind * 6 + visibility,
                false => hidden + visibility,
            };
        }
    }
    let declared = declared_api(store, hits.iter().filter(|h| exact(h)))?;
    for h in hits.iter_mut().filter(|h| exact(h)) {
        h.priority += 3 * u8::from(!declared.contains(&h.entity));
    }
    Ok(())
}

/// Tells whether a C++ definition only brings another one of the same name into its scope:
/// `typedef typename Impl::Node Node` (yaml-cpp's `contrib/graphbuilder.h`, whose typedef came
/// before `class Node` in a search for `Node`), `using Node = detail::Node;`, `using
/// detail::Node;`.
fn brings_in_namesake(s: &crate::analyze::structure::SymbolFact) -> bool {
    let name = s.name();
    let signature = s.signature.trim().trim_end_matches(';').trim_end();
    let names_it = |t: &str| t.contains("::") && t.rsplit("::").next() == Some(name);
    if let Some(rest) = signature.strip_prefix("typedef ") {
        let mut words = rest.split_whitespace().rev();
        return words.next() == Some(name) && words.next().is_some_and(names_it);
    }
    match signature.strip_prefix("using ") {
        Some(rest) => match rest.split_once('=') {
            Some((alias, target)) => alias.trim() == name && names_it(target.trim()),
            None => names_it(rest.trim()),
        },
        None => false,
    }
}

/// The symbol hits a package declares as its API: defined in a package root (`lib.rs`, an
/// `index.ts`), or imported by name by the root of a package that holds the file (`from
/// .blueprints import Blueprint` in `flask/__init__.py`), which is what the package's users
/// import. Of two classes named `Blueprint`, that picks the one `flask.Blueprint` means.
fn declared_api<'a>(
    store: &Store,
    hits: impl Iterator<Item = &'a SearchHit>,
) -> Result<std::collections::HashSet<String>> {
    use crate::analyze::importance::{
        import_components, import_names_module, is_package_root, module_components,
    };
    let hits: Vec<&SearchHit> = hits.collect();
    let mut declared = std::collections::HashSet::new();
    let Some(snapshot) = store.current_snapshot()? else {
        return Ok(declared);
    };
    // The roots a package holding each file may have, in every directory above it.
    let mut roots: Vec<Vec<u8>> = Vec::new();
    for h in &hits {
        let mut dir: &[u8] = &h.path;
        while let Some(slash) = dir.iter().rposition(|&b| b == b'/') {
            dir = &dir[..slash];
            for name in [
                "__init__.py",
                "index.ts",
                "index.js",
                "index.mjs",
                "index.tsx",
                "lib.rs",
            ] {
                let root = [dir, b"/", name.as_bytes()].concat();
                if is_package_root(&root) && !roots.contains(&root) {
                    roots.push(root);
                }
            }
        }
    }
    let refs: Vec<&[u8]> = roots.iter().map(Vec::as_slice).collect();
    let files = store.files_by_paths(&snapshot, &refs)?;
    let digests: Vec<&str> = files.iter().filter_map(|f| f.digest.as_deref()).collect();
    let facts = store.facts(&digests)?;
    let roots: Vec<(&FileState, &crate::analyze::structure::CodeFacts)> = files
        .iter()
        .filter_map(|f| Some((f, facts.get(f.digest.as_deref()?)?.code.as_ref()?)))
        .collect();
    for h in hits {
        let module = module_components(&h.path);
        let reexported = || {
            roots.iter().any(|(root, code)| {
                let dir = &root.path[..root.path.iter().rposition(|&b| b == b'/').unwrap_or(0)];
                h.path.starts_with(dir)
                    && h.path.get(dir.len()) == Some(&b'/')
                    && code.references.contains(&h.name)
                    && crate::analyze::importance::hands_on(code, &h.name)
                    && code
                        .imports
                        .iter()
                        .any(|i| import_names_module(&import_components(&root.path, i), &module))
            })
        };
        if is_package_root(&h.path) || reexported() {
            declared.insert(h.entity.clone());
        }
    }
    Ok(declared)
}

/// Fills in symbol hits' signatures, which are not stored with the entries: they come from
/// the matched files' facts. A heading's id, too: its slug is unique in its document only
/// with the headings before it ([`crate::analyze::docs::slugs`]).
fn sign(store: &Store, hits: &mut [SearchHit]) -> Result<()> {
    let digests: Vec<&str> = hits
        .iter()
        .filter(|h| matches!(h.kind, SearchKind::Symbol | SearchKind::Doc))
        .filter_map(|h| h.digest.as_deref())
        .collect();
    let facts = store.facts(&digests)?;
    for h in hits.iter_mut() {
        let analysis = h.digest.as_deref().and_then(|d| facts.get(d));
        match h.kind {
            SearchKind::Symbol => {
                let qualified = h.entity.rsplit(':').next().unwrap_or_default();
                if let Some(sig) = signature(analysis, qualified, h.line) {
                    h.title = sig;
                }
            }
            SearchKind::Doc => {
                let headings = analysis.and_then(|a| a.doc.as_ref()).map(|d| &d.headings);
                let at = headings.and_then(|list| {
                    let i = list
                        .iter()
                        .position(|x| Some(x.line) == h.line && x.text == h.title)?;
                    crate::analyze::docs::slugs(list).into_iter().nth(i)
                });
                if let Some(slug) = at {
                    h.entity = EntityId::doc(paths::display(&h.path), Some(slug)).to_string();
                }
            }
            SearchKind::Path => {}
        }
    }
    Ok(())
}

fn hit(store: &Store, r: MatchRow) -> Result<SearchHit> {
    let kind: SearchKind = r.kind.parse().map_err(|e: String| Error::CorruptCache {
        path: store.path().to_owned(),
        detail: e,
    })?;
    let title = match kind {
        // A symbol's is replaced by its signature in `sign`.
        SearchKind::Symbol | SearchKind::Doc => r.name.clone(),
        SearchKind::Path => paths::display(&r.path),
    };
    Ok(SearchHit {
        entity: entity(kind, &r.path, &r.name),
        title,
        name: short_name(kind, &r.path, &r.name),
        kind,
        path: r.path,
        line: r.line,
        score: r.score,
        digest: r.digest,
        priority: 0,
    })
}

/// The signature of the symbol an entry names (qualified name and line), from its file's facts.
fn signature(analysis: Option<&Analysis>, qualified: &str, line: Option<u32>) -> Option<String> {
    analysis?
        .code
        .as_ref()?
        .symbols
        .iter()
        .find(|s| s.qualified_name == qualified && Some(s.start_line) == line)
        .map(|s| s.signature.clone())
}

/// Most symbols indexed per file (generated tables can hold thousands).
const MAX_SYMBOLS_PER_FILE: usize = 5_000;

/// Returns the entity id of an entry.
pub fn entity(kind: SearchKind, path: &[u8], name: &str) -> String {
    let path = paths::display(path);
    match kind {
        SearchKind::Symbol => EntityId::symbol(path, name),
        SearchKind::Doc => EntityId::doc(path, Some(crate::analyze::docs::slug(name))),
        SearchKind::Path => EntityId::file(path),
    }
    .to_string()
}

/// Returns the short name an entry is matched by exactly: a symbol's last segment, a
/// heading's text, a path's file name.
pub fn short_name(kind: SearchKind, path: &[u8], name: &str) -> String {
    match kind {
        SearchKind::Symbol => {
            let q = name.split('#').next().unwrap_or(name);
            q.rsplit('.').next().unwrap_or(q).to_owned()
        }
        SearchKind::Doc => name.to_owned(),
        SearchKind::Path => paths::display(paths::file_name(path)),
    }
}

/// Returns the full-text rows of one file: its symbols and document headings; none for an
/// excluded or secret file (it is never found), nor for vendored and generated files (whose
/// facts, shared by digest with an analysed copy, are not theirs to show). Paths have no rows:
/// [`Terms::path_score`] matches them.
pub fn rows(file: &FileState, analysis: Option<&Analysis>) -> Vec<Entry> {
    let mut out = Vec::new();
    let Some(a) = analysis.filter(|_| file.class.listed() && file.class.analysed()) else {
        return out;
    };
    let path_words = || words(&paths::display(&file.path));
    if let Some(code) = &a.code {
        for s in code.symbols.iter().take(MAX_SYMBOLS_PER_FILE) {
            let name_words = words(s.name());
            out.push(Entry {
                path: file.path.clone(),
                kind: "symbol",
                name: s.qualified_name.clone(),
                line: Some(s.start_line),
                index_detail: detail(
                    &name_words,
                    &[&words(&s.qualified_name), &words(&s.signature)],
                )
                .split(' ')
                .filter(|w| !is_signature_keyword(w))
                .collect::<Vec<_>>()
                .join(" "),
                index_name: name_words,
            });
        }
    }
    if let Some(doc) = &a.doc {
        for h in &doc.headings {
            let name_words = words(&h.text);
            out.push(Entry {
                path: file.path.clone(),
                kind: "doc",
                name: h.text.clone(),
                line: Some(h.line),
                index_detail: detail(
                    &name_words,
                    &[doc.title.as_deref().unwrap_or_default(), &path_words()],
                ),
                index_name: name_words,
            });
        }
    }
    out
}

/// The detail column of an entry: the words of `parts`, each once, without the words its name
/// column already holds. A symbol's parts are its qualified name and signature: its kind word
/// (`function`, `field`) was in every entry of that kind (0.17 MB of git/git's index) and
/// told a query nothing the signature does not (`class Flask(App)`, `struct strbuf`). A match in the detail column only needs the word there once (bm25
/// counts repeats, but the name column decides most ranks, at 8 times the weight), and the
/// repeats were a fifth of the full-text index: `struct strbuf *sb` in every signature of
/// git's strbuf.h, a file's name in its path.
fn detail(name_words: &str, parts: &[&str]) -> String {
    // The lowered words seen so far, one after another in `lowered`: no allocation per word,
    // and a linear scan is quick for the few dozen words of a path or signature.
    let mut lowered = String::new();
    let mut seen: Vec<std::ops::Range<usize>> = Vec::new();
    let mut is_new = |w: &str| {
        let start = lowered.len();
        push_lowercase(&mut lowered, w);
        let fresh = !seen.iter().any(|r| lowered[r.clone()] == lowered[start..]);
        match fresh {
            true => seen.push(start..lowered.len()),
            false => lowered.truncate(start),
        }
        fresh
    };
    for w in name_words.split(' ') {
        is_new(w);
    }
    let mut out = String::new();
    for w in parts.iter().flat_map(|p| p.split(' ')) {
        if w.is_empty() || !is_new(w) {
            continue;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

/// Appends `word` lowered as [`str::to_lowercase`] lowers it, without allocating for ASCII.
fn push_lowercase(out: &mut String, word: &str) {
    match word.is_ascii() {
        true => out.extend(word.bytes().map(|b| b.to_ascii_lowercase() as char)),
        false => out.push_str(&word.to_lowercase()),
    }
}

/// Keywords and built-in types that fill signatures in every language (`static int`,
/// `const char *`, `pub fn`, `export function`, `: string`): in nearly every entry's detail,
/// they tell a query nothing (a fifth of git/git's full-text index) and are not indexed
/// there; a query's all-terms expression leaves them out too. Sorted.
const SIGNATURE_KEYWORDS: &[&str] = &[
    "abstract",
    "any",
    "async",
    "await",
    "bool",
    "boolean",
    "char",
    "class",
    "cls",
    "const",
    "def",
    "default",
    "double",
    "enum",
    "export",
    "extern",
    "final",
    "float",
    "fn",
    "function",
    "impl",
    "inline",
    "int",
    "let",
    "long",
    "mut",
    "new",
    "number",
    "private",
    "protected",
    "pub",
    "public",
    "register",
    "return",
    "self",
    "short",
    "signed",
    "static",
    "string",
    "struct",
    "this",
    "type",
    "union",
    "unsigned",
    "var",
    "void",
    "volatile",
];

/// The length of the longest of [`SIGNATURE_KEYWORDS`].
const LONGEST_KEYWORD: usize = {
    let (mut i, mut longest) = (0, 0);
    while i < SIGNATURE_KEYWORDS.len() {
        if SIGNATURE_KEYWORDS[i].len() > longest {
            longest = SIGNATURE_KEYWORDS[i].len();
        }
        i += 1;
    }
    longest
};

/// Tells whether a word (any case) is one of [`SIGNATURE_KEYWORDS`]. An ASCII word is lowered
/// on the stack: this runs for every word of every signature a baseline indexes.
fn is_signature_keyword(word: &str) -> bool {
    if !word.is_ascii() {
        return SIGNATURE_KEYWORDS
            .binary_search(&word.to_lowercase().as_str())
            .is_ok();
    }
    if word.len() > LONGEST_KEYWORD {
        return false;
    }
    let mut buf = [0u8; LONGEST_KEYWORD];
    let lower = &mut buf[..word.len()];
    lower.copy_from_slice(word.as_bytes());
    lower.make_ascii_lowercase();
    std::str::from_utf8(lower).is_ok_and(|l| SIGNATURE_KEYWORDS.binary_search(&l).is_ok())
}

/// Returns text with every identifier also split into its parts: `parseHTTPConfig_v2` →
/// `parseHTTPConfig_v2 parse HTTP Config v2`, so both whole names and parts match.
pub fn words(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 2);
    let mut parts = Vec::new();
    for token in text.split(|c: char| !c.is_alphanumeric() && c != '_') {
        if token.is_empty() {
            continue;
        }
        out.push_str(token);
        out.push(' ');
        split_identifier(token, &mut parts);
        if parts.len() > 1 {
            for p in &parts {
                out.push_str(p);
                out.push(' ');
            }
        }
    }
    out.truncate(out.trim_end().len());
    out
}

/// Fills `parts` with the parts of an identifier: split at underscores, at lower-to-upper case
/// changes, before the last capital of a run followed by a lower-case letter (`HTTPConfig` →
/// `HTTP Config`) and between letters and digits.
fn split_identifier<'a>(id: &'a str, parts: &mut Vec<&'a str>) {
    parts.clear();
    let mut start = 0;
    let mut prev: Option<char> = None;
    let mut chars = id.char_indices().peekable();
    while let Some((pos, c)) = chars.next() {
        if c == '_' {
            if pos > start {
                parts.push(&id[start..pos]);
            }
            start = pos + 1;
        } else if let Some(prev) = prev.filter(|_| pos > start) {
            let next_lower = chars.peek().is_some_and(|n| n.1.is_lowercase());
            let boundary = (prev.is_lowercase() && c.is_uppercase())
                || (prev.is_uppercase() && c.is_uppercase() && next_lower)
                || (prev.is_alphabetic() && c.is_ascii_digit())
                || (prev.is_ascii_digit() && c.is_alphabetic());
            if boundary {
                parts.push(&id[start..pos]);
                start = pos;
            }
        }
        prev = Some(c);
    }
    if start < id.len() {
        parts.push(&id[start..]);
    }
}

/// A query's terms in one matching mode: every term (tried first) or any of them (the
/// fallback). Each term is a lowercased word of the query, matched as a prefix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Terms {
    terms: Vec<String>,
    all: bool,
    /// Each term as the phrase of tokens the index makes of it (see [`Terms::path_score`]).
    phrases: Vec<Vec<String>>,
}

impl Terms {
    fn new(terms: Vec<String>, all: bool) -> Terms {
        let phrases = terms
            .iter()
            .map(|t| tokens(t).into_iter().map(str::to_owned).collect())
            .collect();
        Terms {
            terms,
            all,
            phrases,
        }
    }

    /// Every one of `words`, each a word with a letter or digit.
    #[cfg(test)]
    pub fn all_of(words: &[&str]) -> Terms {
        Terms::new(words.iter().map(|w| w.to_lowercase()).collect(), true)
    }

    /// Whether every term must match (or any).
    pub fn all(&self) -> bool {
        self.all
    }

    /// Each term's first word: a path a term matches holds it, in any ASCII case (a
    /// non-ASCII word may be lowered differently: a caller must not refuse a path on it).
    pub fn first_words(&self) -> Vec<&str> {
        self.phrases
            .iter()
            .filter_map(|p| p.first().map(String::as_str))
            .collect()
    }

    /// The FTS5 match expression: the quoted prefix terms joined by AND or OR. Quoting makes
    /// every term a literal string: no FTS5 syntax can be injected.
    pub fn expression(&self) -> String {
        let quote = |t: &String| format!("\"{}\"*", t.replace('"', ""));
        let joint = if self.all { " AND " } else { " OR " };
        self.terms.iter().map(quote).collect::<Vec<_>>().join(joint)
    }

    /// Matches a path as the full-text index matched its entry when paths had one (the name
    /// column: the words of the file name; the detail column: the other words of the path):
    /// each term is a phrase of the tokens FTS5's `unicode61` tokenizer makes of it (runs of
    /// letters and digits, lowercased), its last token a prefix, found in one column. Returns
    /// `None` when the path does not match (every term, or any, by mode); otherwise a score,
    /// lower is better like bm25's: a term in the file name counts eight times one in its
    /// directories (the weights the index ranked with), and longer paths count less.
    /// Non-ASCII letters are lowered but keep their diacritics, which the index removed.
    pub fn path_score(&self, path: &[u8]) -> Option<f64> {
        // Cheap refusal first: most paths hold no term's first token anywhere.
        let holds = |w: &&str| !w.is_ascii() || contains_ignore_ascii_case(path, w.as_bytes());
        let possible = match self.all {
            true => self.first_words().iter().all(holds),
            false => self.first_words().iter().any(holds),
        };
        if !possible {
            return None;
        }
        // Lowered once: tokens are then slices, not a string each.
        let name_words = words(&paths::display(paths::file_name(path))).to_lowercase();
        let rest_words = detail(&name_words, &[&words(&paths::display(path))]).to_lowercase();
        let name = tokens(&name_words);
        let rest = tokens(&rest_words);
        let mut weight = 0.0;
        for phrase in &self.phrases {
            let w = if has_phrase(&name, phrase) {
                8.0
            } else if has_phrase(&rest, phrase) {
                1.0
            } else if self.all {
                return None;
            } else {
                0.0
            };
            weight += w;
        }
        (weight > 0.0).then(|| -weight / (1.0 + 0.05 * (name.len() + rest.len()) as f64))
    }
}

/// The tokens FTS5's `unicode61` tokenizer makes of lowered text: runs of letters and digits.
fn tokens(lowered: &str) -> Vec<&str> {
    lowered
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect()
}

/// Tells whether `phrase` occurs in `tokens`, its last token as a prefix (FTS5's `"a b"*`).
fn has_phrase(tokens: &[&str], phrase: &[String]) -> bool {
    let Some((last, head)) = phrase.split_last() else {
        return false;
    };
    tokens.windows(phrase.len()).any(|w| {
        w[..head.len()]
            .iter()
            .zip(head)
            .all(|(a, b)| *a == b.as_str())
            && w[head.len()].starts_with(last.as_str())
    })
}

/// Tells whether `needle` occurs in `hay`, ASCII letters compared without case.
fn contains_ignore_ascii_case(hay: &[u8], needle: &[u8]) -> bool {
    needle.is_empty()
        || hay
            .windows(needle.len())
            .any(|w| w.eq_ignore_ascii_case(needle))
}

/// Turns a user query into its terms: all of them (every signature keyword left out, unless
/// nothing else is left) and any of them. Returns `None` when the query has no searchable word.
pub fn query_terms(query: &str) -> Option<(Terms, Terms)> {
    let mut terms: Vec<String> = Vec::new();
    // A word of underscores alone (`_`, `__`) is no token for FTS5's tokenizer: as a term it
    // would be an empty phrase, which matches nothing, so the all-terms expression would find
    // nothing at all.
    for w in words(query)
        .split(' ')
        .filter(|w| w.chars().any(char::is_alphanumeric))
    {
        let w = w.to_lowercase();
        if !terms.contains(&w) {
            terms.push(w);
        }
    }
    if terms.is_empty() {
        return None;
    }
    // A symbol's detail holds no signature keyword: `struct repository` must find the
    // struct by its name alone. A query of keywords only keeps them (names hold them).
    let mut all: Vec<String> = terms
        .iter()
        .filter(|t| !is_signature_keyword(t))
        .cloned()
        .collect();
    if all.is_empty() {
        all = terms.clone();
    }
    Some((Terms::new(all, true), Terms::new(terms, false)))
}

/// [`query_terms`] as FTS5 match expressions (see [`Terms::expression`]).
#[cfg(test)]
pub fn match_expressions(query: &str) -> Option<(String, String)> {
    let (all, any) = query_terms(query)?;
    Some((all.expression(), any.expression()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn symbol(path: &str, name: &str, score: f64) -> SearchHit {
        SearchHit {
            kind: SearchKind::Symbol,
            entity: entity(SearchKind::Symbol, path.as_bytes(), name),
            path: path.as_bytes().to_vec(),
            name: name.into(),
            title: name.into(),
            line: Some(1),
            score,
            digest: None,
            priority: 0,
        }
    }

    #[test]
    fn a_definition_comes_before_an_alias_of_the_same_name() {
        let alias = SearchHit {
            priority: 18,
            ..symbol("lib/application.js", "View", -9.0)
        };
        let definition = SearchHit {
            priority: 3,
            ..symbol("lib/view.js", "View", -2.0)
        };
        let mut hits = vec![alias, definition];
        rank(&mut hits, "View");
        assert_eq!(hits[0].path, b"lib/view.js");
    }

    #[test]
    fn a_cpp_alias_of_a_namesake_brings_it_in() {
        let symbol =
            |name: &str, kind: &str, signature: &str| crate::analyze::structure::SymbolFact {
                qualified_name: name.to_owned(),
                kind: kind.to_owned(),
                signature: signature.to_owned(),
                cut_hash: None,
                start_line: 1,
                end_line: 1,
                visibility: None,
                conditional: false,
                deprecated: false,
            };
        for (name, signature) in [
            ("Node", "typedef typename Impl::Node Node"),
            ("Node", "using Node = detail::Node;"),
            ("Node", "using detail::Node"),
        ] {
            assert!(
                brings_in_namesake(&symbol(name, "type", signature)),
                "{signature}"
            );
        }
        for (name, signature) in [
            ("Node", "class Node"),
            ("NodePtr", "typedef std::shared_ptr<Node> NodePtr"),
            ("iterator", "using iterator = YAML::iterator_base<Node>"),
            ("value", "typedef int value"),
        ] {
            assert!(
                !brings_in_namesake(&symbol(name, "type", signature)),
                "{signature}"
            );
        }
    }

    #[test]
    fn a_test_helper_never_outranks_the_definition_it_shadows() {
        // bm25 prefers the helpers (more negative is better); the definition still comes first.
        let mut hits = vec![
            symbol("tests/helpers.py", "parse", -9.0),
            symbol("src/fixtures/parse.py", "parse", -8.0),
            symbol("examples/demo.py", "parse", -7.0),
            symbol("lib/parser.py", "parse", -1.0),
            symbol("lib/other.py", "Parse", -20.0),
            symbol("lib/parsers.py", "parse_all", -30.0),
            SearchHit {
                kind: SearchKind::Doc,
                ..symbol("README.md", "parse", -50.0)
            },
        ];
        rank(&mut hits, "parse");
        let order: Vec<&[u8]> = hits.iter().map(|h| h.path.as_slice()).collect();
        assert_eq!(
            order,
            [
                &b"lib/parser.py"[..],
                b"README.md",
                b"examples/demo.py",
                // Of two test helpers, the one in the file named for it.
                b"src/fixtures/parse.py",
                b"tests/helpers.py",
                b"lib/other.py",
                b"lib/parsers.py",
            ]
        );
    }

    #[test]
    fn signature_keywords_are_neither_indexed_nor_required() {
        let mut sorted = SIGNATURE_KEYWORDS.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted, SIGNATURE_KEYWORDS, "sorted, unique: binary search");
        let code = crate::analyze::structure::CodeFacts {
            symbols: vec![serde_json::from_str(
                r#"{"q":"cmd_add","k":"function","s":"static int cmd_add(int argc, struct repository *repo)","l":3,"e":9}"#,
            )
            .unwrap()],
            ..Default::default()
        };
        let a = Analysis {
            code: Some(code),
            ..Default::default()
        };
        let f = crate::model::sample_file("builtin/add.c", "1");
        let entries = rows(&f, Some(&a));
        assert_eq!(entries[0].index_detail, "argc repository repo");
        let (all, any) = match_expressions("struct Repository").unwrap();
        assert_eq!(all, "\"repository\"*");
        assert_eq!(any, "\"struct\"* OR \"repository\"*");
        let (all, _) = match_expressions("const").unwrap();
        assert_eq!(all, "\"const\"*", "a query of keywords only keeps them");
    }

    #[test]
    fn a_signature_repeating_its_types_is_indexed_once() {
        let d = detail(
            &words("strbuf_addbuf"),
            &[
                &words("strbuf_addbuf"),
                "function",
                &words("void strbuf_addbuf(struct strbuf *sb, const struct strbuf *sb2)"),
            ],
        );
        assert_eq!(d, "function void struct sb const sb2 2");
    }

    #[test]
    fn splits_identifiers() {
        assert_eq!(
            words("parseHTTPConfig_v2"),
            "parseHTTPConfig_v2 parse HTTP Config v 2"
        );
        assert_eq!(words("src/cue/mod.rs"), "src cue mod rs");
    }

    #[test]
    fn only_the_projects_own_listed_files_have_rows() {
        use crate::model::FileClass;
        let a = Analysis {
            doc: Some(crate::analyze::docs::DocFacts {
                headings: vec![crate::analyze::docs::Heading {
                    level: 1,
                    text: "Title".into(),
                    line: 1,
                }],
                ..Default::default()
            }),
            ..Default::default()
        };
        let mut f = crate::model::sample_file("docs/a.md", "1");
        let r = rows(&f, Some(&a));
        assert_eq!((r.len(), r[0].kind), (1, "doc"));
        // Paths have no rows: `Terms::path_score` matches them (and the store keeps
        // excluded and secret files out of its path results).
        for class in [FileClass::Vendored, FileClass::Excluded, FileClass::Secret] {
            f.class = class;
            assert!(rows(&f, Some(&a)).is_empty(), "{class:?}");
        }
    }

    #[test]
    fn builds_safe_match_expressions() {
        let (all, any) = match_expressions("fit \"budget\" OR NOT").unwrap();
        assert_eq!(all, "\"fit\"* AND \"budget\"* AND \"or\"* AND \"not\"*");
        assert!(any.contains(" OR "));
        assert!(match_expressions("  ::: ").is_none());
        // Found by `an_entry_holding_the_query_is_found`.
        assert_eq!(match_expressions("fit _").unwrap().0, "\"fit\"*");
        assert!(match_expressions("__").is_none());
    }

    /// Property tests of the query tokenizer. 256 cases each (proptest's default); set
    /// `PROPTEST_CASES` to run more.
    mod properties {
        use super::super::*;
        use proptest::prelude::*;

        /// A table made like the store's (migration 0003), to run expressions against.
        fn fts() -> rusqlite::Connection {
            let db = rusqlite::Connection::open_in_memory().unwrap();
            db.execute_batch(
                "CREATE VIRTUAL TABLE search_fts USING fts5(name, detail, content = '',
                    contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2');",
            )
            .unwrap();
            db
        }

        fn matches(db: &rusqlite::Connection, expr: &str) -> rusqlite::Result<Vec<i64>> {
            let mut stmt = db.prepare("SELECT rowid FROM search_fts WHERE search_fts MATCH ?1")?;
            let rows = stmt.query_map([expr], |r| r.get(0))?;
            rows.collect()
        }

        proptest! {
            /// Any query: no panic; every term is a lowercased word of the query (a substring
            /// of it made of letters, digits and `_`), unique, with a letter or digit; the
            /// expressions are exactly the quoted prefix terms joined by AND / OR, so FTS5
            /// accepts them (no syntax can be injected); no term means no expression.
            #[test]
            fn queries_become_safe_expressions(query in "(?s).{0,60}") {
                let indexed = words(&query);
                let words: Vec<&str> = indexed.split(' ').filter(|w| !w.is_empty()).collect();
                for w in &words {
                    prop_assert!(query.contains(w), "{:?} is not in {:?}", w, query);
                    prop_assert!(w.chars().all(|c| c.is_alphanumeric() || c == '_'));
                }
                let Some((all, any)) = match_expressions(&query) else {
                    prop_assert!(!query.chars().any(char::is_alphanumeric), "{:?}", query);
                    return Ok(());
                };
                let terms: Vec<&str> = any.split(" OR ").collect();
                // The all-terms expression: the same terms but signature keywords, unless
                // nothing else is left.
                let kept: Vec<&str> = terms
                    .iter()
                    .copied()
                    .filter(|t| !is_signature_keyword(t.trim_matches(|c| c == '"' || c == '*')))
                    .collect();
                let expected = if kept.is_empty() { terms.clone() } else { kept };
                prop_assert_eq!(&all, &expected.join(" AND "));
                let mut seen = std::collections::HashSet::new();
                for t in &terms {
                    let inner = t.strip_prefix('"').and_then(|t| t.strip_suffix("\"*"));
                    let inner = inner.ok_or_else(|| TestCaseError::fail(format!("{t:?}")))?;
                    prop_assert!(!inner.contains('"'));
                    prop_assert!(inner.chars().any(char::is_alphanumeric), "{:?}", inner);
                    prop_assert!(words.iter().any(|w| w.to_lowercase() == inner), "{:?}", inner);
                    prop_assert!(seen.insert(inner), "{:?} twice", inner);
                }
                let db = fts();
                prop_assert!(matches(&db, &all).is_ok(), "{:?}", all);
                prop_assert!(matches(&db, &any).is_ok(), "{:?}", any);
            }

            /// The detail column holds every word of its parts that the name column lacks,
            /// each once: deduplicating costs no match.
            #[test]
            fn detail_keeps_every_word_once(name in "[A-Za-z_ ]{0,20}", sig in "[A-Za-z_(),* ]{0,60}") {
                let lower = |t: &str| -> Vec<String> {
                    t.split(' ').filter(|w| !w.is_empty()).map(str::to_lowercase).collect()
                };
                let name_words = words(&name);
                let d = detail(&name_words, &[&words(&sig), "function"]);
                let kept = lower(&d);
                let unique: std::collections::HashSet<&String> = kept.iter().collect();
                prop_assert_eq!(unique.len(), kept.len(), "{:?}", d);
                let named: std::collections::HashSet<String> = lower(&name_words).into_iter().collect();
                for w in lower(&words(&sig)).into_iter().chain(["function".to_owned()]) {
                    prop_assert!(named.contains(&w) != kept.contains(&w), "{:?} in {:?} / {:?}", w, name_words, d);
                }
            }

            /// A path is matched outside the index exactly as the index matched the entry it
            /// held for each path (the file name's words; the path's other words), in both
            /// modes, whatever the case, punctuation or identifier style of path and query.
            #[test]
            fn a_path_matches_as_its_index_entry_did(
                path in "(src|lib|Foo|bar_baz|parseHTTP|x1|a-b)(/(src|lib|Foo|bar_baz|parseHTTP|x1|a-b)){0,3}(\\.rs|\\.ts)?",
                query in "(src|li|foo|Bar|baz|parse|http|x|1|rs|_|-| |HTTPFoo|b_ba){0,4}",
            ) {
                let Some((all, any)) = query_terms(&query) else {
                    return Ok(());
                };
                let db = fts();
                let name_words = words(&paths::display(paths::file_name(path.as_bytes())));
                let rest = detail(&name_words, &[&words(&path)]);
                db.execute(
                    "INSERT INTO search_fts (rowid, name, detail) VALUES (7, ?1, ?2)",
                    [&name_words, &rest],
                ).unwrap();
                for terms in [&all, &any] {
                    let indexed = !matches(&db, &terms.expression()).unwrap().is_empty();
                    let scored = terms.path_score(path.as_bytes());
                    prop_assert_eq!(scored.is_some(), indexed, "{:?} {:?}", path, terms);
                    prop_assert!(scored.is_none_or(|s| s < 0.0));
                }
            }

            /// A name holding the query's words is found by the all-terms expression, the way
            /// the store indexes names (`words`), whatever the case, punctuation or
            /// identifier style of the query.
            #[test]
            fn an_entry_holding_the_query_is_found(query in "[ -~]{0,40}") {
                let Some((all, _)) = match_expressions(&query) else {
                    return Ok(());
                };
                let db = fts();
                db.execute(
                    "INSERT INTO search_fts (rowid, name, detail) VALUES (7, ?1, '')",
                    [words(&query)],
                ).unwrap();
                prop_assert_eq!(matches(&db, &all).unwrap(), vec![7], "{:?}", all);
            }
        }
    }
}
