//! The `entity` view: one symbol or file with its location and relations.

use std::collections::{BTreeMap, HashMap, HashSet};

use crate::analyze::graph;
use crate::analyze::structure::{CodeFacts, SymbolFact};
use crate::api::views::*;
use crate::api::{Cue, CueRequest, EntityId};
use crate::cue::envelope::envelope;
use crate::cue::fit::{fit, Item, Section};
use crate::error::{Error, Result};
use crate::paths;
use crate::read::Reader;

/// Splits an entity id into its path and, for a symbol, its qualified name.
fn parse_id(id: &str) -> Result<(String, Option<String>)> {
    Ok(if let Some(rest) = id.strip_prefix("symbol:") {
        // Paths may contain ':'; a qualified name only in `::` ([`crate::api::ids::split_symbol`]).
        let (path, name) = crate::api::ids::split_symbol(rest).ok_or_else(|| {
            Error::InvalidArgument(format!(
                "symbol id {id:?} needs a path and a name: symbol:<path>:<name> \
                 (`repocue search NAME` lists the ids)"
            ))
        })?;
        (path.to_owned(), Some(name.to_owned()))
    } else if let Some(p) = id.strip_prefix("file:") {
        (p.to_owned(), None)
    } else {
        return Err(Error::InvalidArgument(format!(
            "unknown entity id form {id:?}; use symbol:<path>:<name>, file:<path> or doc:<path>[#<slug>]"
        )));
    })
}

/// For a symbol (`wanted_name`): the other files that reference its name. For a file, which
/// imports `imports`: the other files that define a name it references (`wanted_refs`, sorted).
/// Sorted paths.
fn referenced_by(
    state: &Reader,
    file: &crate::model::FileState,
    wanted_name: Option<&str>,
    wanted_refs: &[String],
    imports: &[String],
    wanted_member: bool,
) -> Result<Vec<String>> {
    // File: the other files that define a name it references, from the search index. The
    // names its language provides (C's `free`) count only in the files it imports.
    if wanted_name.is_none() {
        let (standard, other): (Vec<String>, Vec<String>) =
            wanted_refs.iter().cloned().partition(|n| {
                graph::is_standard_name_at(&file.path, n) && !graph::imports_by_name(imports, n)
            });
        let found = |names: &[String]| state.store.defining_paths(&state.snapshot, names);
        if let (Some(other), Some(standard)) = (found(&other)?, found(&standard)?) {
            let imported = |p: &&Vec<u8>| graph::imports_name(&file.path, imports, p);
            // The project's own code uses no test's definition (as the ranking resolves
            // references): zap's `options.go` "referenced" ten tests' fake writers by `Write`.
            use crate::analyze::importance::{role, Role};
            let source = role(&file.path) == Role::Source;
            let mut refs: Vec<String> = other
                .iter()
                .chain(standard.iter().filter(imported))
                .filter(|p| **p != file.path && graph::languages_share_names(&file.path, p))
                .filter(|p| !(source && role(p) == Role::Test))
                .map(|p| paths::display(p))
                .collect();
            refs.sort();
            refs.dedup();
            return Ok(refs);
        }
    }
    // Symbol: the files the reference index says may name it, when it can tell (not for an
    // older snapshot, nor before the index's first build); their facts decide.
    let candidates = match wanted_name {
        Some(n) => state.store.referencing_paths(&state.snapshot, n)?,
        None => None,
    };
    from_facts(
        state,
        file,
        (wanted_name, wanted_member),
        wanted_refs,
        imports,
        candidates.as_ref(),
    )
}

/// [`referenced_by`] from the other files' facts: those of `candidates` when given (the files
/// the reference index says may reference the symbol's name), else every other file's. A
/// symbol that is no member (`wanted_member` false) is not what a use of its name as a value's
/// member means (`x.is_empty()` is no use of a free `fn is_empty`).
fn from_facts(
    state: &Reader,
    file: &crate::model::FileState,
    (wanted_name, wanted_member): (Option<&str>, bool),
    wanted_refs: &[String],
    imports: &[String],
    candidates: Option<&HashSet<Vec<u8>>>,
) -> Result<Vec<String>> {
    // Symbol: the other files that reference its name. File (from an older snapshot): the
    // other files that define a name it references. Only paths and digests are loaded.
    let others = other_files(state, file, candidates)?;
    let digests: Vec<&str> = others.iter().map(|(_, d)| d.as_str()).collect();
    // A file that references the name mentions it in its facts: only those are parsed, and
    // of them only what they reference (a symbol's file needs no other file's symbols).
    let all: HashMap<String, crate::analyze::Analysis> = match wanted_name {
        Some(_) => state
            .store
            .facts_mentioning::<crate::analyze::ReferenceFacts>(&digests, wanted_name)?
            .into_iter()
            .map(|(d, r)| (d, r.into()))
            .collect(),
        None => state.store.facts_mentioning(&digests, None)?,
    };
    let related = |path: &[u8], c: &crate::analyze::structure::CodeFacts| match wanted_name {
        Some(n) => {
            let has = |l: &[String]| l.binary_search_by(|r| r.as_str().cmp(n)).is_ok();
            has(&c.references) && (wanted_member || !has(&c.member_references))
        }
        None => c.symbols.iter().any(|s| {
            wanted_refs
                .binary_search_by(|r| r.as_str().cmp(s.name()))
                .is_ok()
                && graph::may_define(&file.path, imports, s.name(), path)
        }),
    };
    // Of several definitions of the name, a file whose imports name some of them means those
    // only (as the ranking resolves references): `parse` in a file importing `json.parse` is
    // no reference to `yaml.parse`. Without the search index's definitions, the bare name.
    let defining = match wanted_name {
        Some(n) => state
            .store
            .defining_paths(&state.snapshot, &[n.to_owned()])?,
        None => None,
    };
    let defining: Option<Vec<&[u8]>> = defining
        .as_ref()
        .map(|d| d.iter().map(Vec::as_slice).collect());
    let namespaces = php_namespaces(state, &file.path, defining.as_deref().unwrap_or_default())?;
    // A file's names come from files of languages it can name (C's `die` is not a shell's).
    let means = |path: &[u8], c: &crate::analyze::structure::CodeFacts| match defining.as_deref() {
        Some(d) => {
            let name = wanted_name.unwrap_or("");
            // A member of a type is reached through a value, however the use reads.
            let bare = !wanted_member
                && c.member_references
                    .binary_search_by(|m| m.as_str().cmp(name))
                    .is_err();
            // A Go name written only after a package's is no method or field.
            let packages: Vec<&str> = c.qualifying_packages(name).collect();
            (!wanted_member || packages.is_empty())
                && (!bare || php_means(&namespaces, c, name, d, &file.path) != Some(false))
                && graph::may_mean(path, (name, bare), &c.imports, &packages, d, &file.path)
        }
        None if wanted_name.is_some() => graph::languages_share_names(path, &file.path),
        None => graph::languages_share_names(&file.path, path),
    };
    let mut refs: Vec<String> = others
        .iter()
        .filter(|(path, d)| {
            all.get(d)
                .and_then(|a| a.code.as_ref())
                .is_some_and(|c| related(path, c) && means(path, c))
        })
        .map(|(path, _)| paths::display(path))
        .collect();
    refs.sort();
    Ok(refs)
}

/// The paths and digests of the analysed files other than `file`: those among `candidates`
/// (looked up by path) when given, else every one of the snapshot. Only paths and digests
/// are loaded.
fn other_files(
    state: &Reader,
    file: &crate::model::FileState,
    candidates: Option<&HashSet<Vec<u8>>>,
) -> Result<Vec<(Vec<u8>, String)>> {
    Ok(match candidates {
        Some(c) => {
            let mut wanted: Vec<&[u8]> = c.iter().map(Vec::as_slice).collect();
            wanted.sort_unstable();
            state
                .store
                .files_by_paths(&state.snapshot, &wanted)?
                .into_iter()
                .filter(|f| f.class == crate::model::FileClass::Source && f.path != file.path)
                .filter_map(|f| Some((f.path, f.digest?)))
                .collect()
        }
        None => state
            .store
            .analysed_digests_at(&state.snapshot)?
            .into_iter()
            .filter(|(path, _)| *path != file.path)
            .collect(),
    })
}

/// The namespace each of the PHP files `defining` a name declares (`CodeFacts::namespace`),
/// when `file` is one: what resolves a bare name among its definitions as the ranking does
/// ([`graph::php_declares`]). Empty otherwise.
fn php_namespaces(
    state: &Reader,
    file: &[u8],
    defining: &[&[u8]],
) -> Result<HashMap<Vec<u8>, String>> {
    if defining.len() < 2 || repocue_structure::language_name(file, b"") != Some("PHP") {
        return Ok(HashMap::new());
    }
    let mut wanted = defining.to_vec();
    wanted.sort_unstable();
    wanted.dedup();
    let files = state.store.files_by_paths(&state.snapshot, &wanted)?;
    let digests: Vec<&str> = files.iter().filter_map(|f| f.digest.as_deref()).collect();
    let facts = state
        .store
        .facts_mentioning::<crate::analyze::ReferenceFacts>(&digests, None)?;
    Ok(files
        .into_iter()
        .filter_map(|f| {
            let namespace = facts.get(f.digest.as_deref()?)?.namespace()?.to_owned();
            Some((f.path, namespace))
        })
        .collect())
}

/// Whether a bare `name` of the PHP facts `c` means its definition in `target`, of those in
/// `defining`, by their `namespaces` ([`php_namespaces`]): `None` where namespaces do not
/// tell (no definition is declared where the name resolves).
fn php_means(
    namespaces: &HashMap<Vec<u8>, String>,
    c: &CodeFacts,
    name: &str,
    defining: &[&[u8]],
    target: &[u8],
) -> Option<bool> {
    if namespaces.is_empty() {
        return None;
    }
    let wanted = graph::php_namespaces(c, name);
    let declares = |p: &[u8]| graph::php_declares(&wanted, namespaces.get(p).map(String::as_str));
    defining
        .iter()
        .any(|p| declares(p))
        .then(|| declares(target))
}

/// Whether a symbol is a namespace declaration (C++, C#, PHP): a scope many files open.
fn is_namespace_declaration(s: &crate::analyze::structure::SymbolFact) -> bool {
    s.kind == "module" && s.signature.starts_with("namespace")
}

/// For a file: the other files that reference a name it defines at its top level, each name
/// resolved as a symbol's is (of several definitions, a file whose imports name some means
/// those only). A private name (C's `static`) is no other file's to reference. The reference
/// index names the candidates, whose references are read once for all names; where it cannot
/// tell (an older snapshot, before its first build), every analysed file's. Sorted paths.
fn file_referenced_by(
    state: &Reader,
    file: &crate::model::FileState,
    code: &crate::analyze::structure::CodeFacts,
) -> Result<Vec<String>> {
    // A C++, C# or PHP namespace is every file's that opens it: what the file defines is
    // what the namespace holds (leveldb's `include/leveldb/db.h`, whose only top-level symbol
    // is `namespace leveldb`, had no includers).
    let namespaces: HashSet<&str> = code
        .symbols
        .iter()
        .filter(|s| is_namespace_declaration(s))
        .map(|s| s.qualified_name.as_str())
        .collect();
    let outermost = |s: &crate::analyze::structure::SymbolFact| {
        let mut owner = s.parent();
        while let Some(name) = owner {
            if !namespaces.contains(name) {
                return false;
            }
            owner = name.rsplit_once('.').map(|(up, _)| up);
        }
        true
    };
    let mut names: Vec<&str> = code
        .symbols
        .iter()
        .filter(|s| {
            outermost(s)
                && !is_namespace_declaration(s)
                && s.visibility.as_deref() != Some("private")
        })
        .map(|s| s.name())
        .collect();
    names.sort_unstable();
    names.dedup();
    if names.is_empty() {
        return Ok(Vec::new());
    }
    let mut candidates: Option<HashSet<Vec<u8>>> = Some(HashSet::new());
    for n in &names {
        match (
            state.store.referencing_paths(&state.snapshot, n)?,
            &mut candidates,
        ) {
            (Some(found), Some(all)) => all.extend(found),
            _ => {
                candidates = None;
                break;
            }
        }
    }
    let others = other_files(state, file, candidates.as_ref())?;
    let digests: Vec<&str> = others.iter().map(|(_, d)| d.as_str()).collect();
    let facts: HashMap<String, crate::analyze::Analysis> = state
        .store
        .facts_mentioning::<crate::analyze::ReferenceFacts>(&digests, None)?
        .into_iter()
        .map(|(d, r)| (d, r.into()))
        .collect();
    // Each name's definitions, looked up once when some candidate references it, and the
    // namespaces of those of PHP.
    let mut defining: HashMap<&str, Option<Vec<Vec<u8>>>> = HashMap::new();
    let mut namespaces: HashMap<&str, HashMap<Vec<u8>, String>> = HashMap::new();
    let mut refs: Vec<String> = Vec::new();
    for (path, d) in &others {
        let Some(c) = facts.get(d).and_then(|a| a.code.as_ref()) else {
            continue;
        };
        for n in &names {
            // A top-level name is not what a value's member of that name means.
            if c.references
                .binary_search_by(|r| r.as_str().cmp(n))
                .is_err()
                || c.member_references
                    .binary_search_by(|r| r.as_str().cmp(n))
                    .is_ok()
            {
                continue;
            }
            let defs = match defining.get(n) {
                Some(d) => d,
                None => {
                    let d = state
                        .store
                        .defining_paths(&state.snapshot, &[(*n).to_owned()])?;
                    defining.entry(n).or_insert(d)
                }
            };
            // Without the search index's definitions, narrowed by the using file alone. The
            // names are top-level and their member uses were skipped above: each use is bare.
            let d: Vec<&[u8]> = defs.iter().flatten().map(Vec::as_slice).collect();
            let namespaces = match namespaces.get(n) {
                Some(ns) => ns,
                None => {
                    let ns = php_namespaces(state, &file.path, &d)?;
                    namespaces.entry(n).or_insert(ns)
                }
            };
            let means = (defs.is_some() || graph::languages_share_names(path, &file.path))
                && php_means(namespaces, c, n, &d, &file.path) != Some(false)
                && graph::may_mean(
                    path,
                    (n, true),
                    &c.imports,
                    &c.qualifying_packages(n).collect::<Vec<_>>(),
                    &d,
                    &file.path,
                );
            if means {
                refs.push(paths::display(path));
                break;
            }
        }
    }
    refs.sort();
    Ok(refs)
}

/// The file a view may show at `path` (as displayed): looked up by its bytes when the display
/// form is the path itself, so that one file does not load every row of the snapshot.
fn find_file(state: &Reader, path: &str) -> Result<Option<crate::model::FileState>> {
    if paths::display(path.as_bytes()) != path {
        let found = state
            .files()?
            .iter()
            .find(|f| paths::display(&f.path) == path);
        return Ok(found.cloned());
    }
    let found = state
        .store
        .files_by_paths(&state.snapshot, &[path.as_bytes()])?
        .into_iter()
        .find(|f| f.class.listed());
    Ok(found)
}

/// The id of the definition of `Class.member` that `Class`, a class of `code`, inherits from
/// the project's own classes it extends (up to four classes up), as the overview's members
/// name them: a base class is the one top-level class of its name in the project's own code.
fn inherited(
    state: &Reader,
    code: &crate::analyze::structure::CodeFacts,
    qualified: &str,
) -> Result<Option<String>> {
    use crate::analyze::importance;
    let Some((class, member)) = qualified.rsplit_once('.') else {
        return Ok(None);
    };
    let Some(start) = code
        .symbols
        .iter()
        .find(|s| s.qualified_name == class && s.kind == "class")
    else {
        return Ok(None);
    };
    let mut next = vec![(code.language.clone(), start.signature.clone())];
    let mut seen = vec![class.to_owned()];
    while let Some((language, signature)) = next.pop() {
        for base in importance::base_classes(&language, &signature) {
            if seen.len() > 4 || seen.iter().any(|s| s == base) {
                continue;
            }
            seen.push(base.to_owned());
            let Some(paths) = state
                .store
                .defining_paths(&state.snapshot, &[base.to_owned()])?
            else {
                return Ok(None);
            };
            let files = state.store.files_by_paths(
                &state.snapshot,
                &paths.iter().map(Vec::as_slice).collect::<Vec<_>>(),
            )?;
            let mut found = Vec::new();
            for f in files.iter().filter(|f| {
                f.class.analysed() && importance::role(&f.path) == importance::Role::Source
            }) {
                let Some(d) = f.digest.as_deref() else {
                    continue;
                };
                let Some(c) = state.store.facts(&[d])?.remove(d).and_then(|a| a.code) else {
                    continue;
                };
                if let Some(s) = c
                    .symbols
                    .iter()
                    .find(|s| s.kind == "class" && s.parent().is_none() && s.name() == base)
                {
                    let qualified = s.qualified_name.clone();
                    let signature = s.signature.clone();
                    found.push((paths::display(&f.path), c, qualified, signature));
                }
            }
            let [(path, c, qualified, signature)] = &found[..] else {
                continue;
            };
            let wanted = format!("{qualified}.{member}");
            if c.symbols.iter().any(|s| s.qualified_name == wanted) {
                return Ok(Some(EntityId::symbol(path.clone(), wanted).to_string()));
            }
            next.push((c.language.clone(), signature.clone()));
        }
    }
    Ok(None)
}

/// The nearest of a symbol's enclosing names that the file defines: a method defined out of
/// its class (C++'s `Status DBImpl::Get(…)` in `db_impl.cc`, a Rust `impl Sink for Vec<T>`'s
/// `Vec.matched`, Ruby's `class Foo::Bar`) is the file's own child, not that of a parent no
/// entity has (the file's tree never reached it, and its `parent` was `not_found`).
fn defined_owner<'c>(code: &'c CodeFacts, s: &SymbolFact) -> Option<&'c str> {
    let mut at = s.parent();
    while let Some(name) = at {
        if let Some(owner) = code.symbols.iter().find(|o| o.qualified_name == name) {
            return Some(owner.qualified_name.as_str());
        }
        at = name.rfind('.').map(|i| &name[..i]);
    }
    None
}

/// A file's definitions its entity lists before the files that use it: the rest follow them.
const FILE_CHILDREN_FIRST: usize = 8;

/// Builds the entity cue.
pub(crate) fn build(state: &Reader, request: &CueRequest) -> Result<Cue> {
    let id = request.id.as_deref().ok_or_else(|| {
        Error::InvalidArgument(
            "the entity view needs --id (symbol:<path>:<name>, file:<path> or doc:<path>[#<slug>])"
                .into(),
        )
    })?;
    // An id is read as the outputs show it, as a path is: the text format writes a control
    // character of a path as `\xNN` (`symbol:ctl\x01.py:yo`), the JSON holds the character;
    // both name the same entity (the text form was `not_found`).
    let id = paths::display(&paths::from_display(id));
    let not_found = || Error::NotFound {
        kind: "entity",
        id: id.clone(),
    };
    if let Some(rest) = id.strip_prefix("doc:") {
        return doc_entity(state, request, rest).and_then(|c| c.ok_or_else(not_found));
    }
    let (path, symbol) = parse_id(&id)?;
    let Some(file) = &find_file(state, &path)? else {
        // Only tracked files are indexed: a file an agent has just written is a path of the
        // snapshot's untracked list until it is added, and says so.
        let untracked = state
            .snapshot
            .untracked
            .iter()
            .any(|u| paths::display(u) == path);
        return Err(match untracked {
            true => Error::NotFound {
                kind: "entity of an untracked file",
                id,
            },
            false => not_found(),
        });
    };
    // Facts are shared by digest: a vendored copy of an analysed file has none of its own.
    let facts = match file.digest.as_deref().filter(|_| file.class.analysed()) {
        Some(d) => state.store.facts(&[d])?.remove(d),
        None => None,
    };
    let code = facts.as_ref().and_then(|a| a.code.as_ref());
    let mut content = EntityContent {
        id: id.clone(),
        path: path.clone(),
        ..Default::default()
    };
    let wanted_name: Option<String>;
    // Whether the symbol is a member of another (a method, field or property).
    let mut wanted_member = false;
    // A data member's owner: documents must show both names ([`documenting`]).
    let mut owner: Option<String> = None;
    match &symbol {
        Some(q) => {
            let Some(s) = code.and_then(|c| c.symbols.iter().find(|s| &s.qualified_name == q))
            else {
                // A method the class inherits from a class of the project it extends (the
                // overview lists Flask's `route` among `Flask`'s members): its definition.
                let defined = match code {
                    Some(c) => inherited(state, c, q)?,
                    None => None,
                };
                let id = defined.ok_or_else(not_found)?;
                return build(
                    state,
                    &CueRequest {
                        id: Some(id),
                        ..request.clone()
                    },
                );
            };
            content.entity_type = "symbol".into();
            content.kind = Some(s.kind.clone());
            content.signature = Some(s.signature.clone());
            content.lines = Some([s.start_line, s.end_line]);
            content.visibility = s.visibility.clone();
            content.parent = code
                .and_then(|c| defined_owner(c, s))
                .map(|p| EntityId::symbol(path.clone(), p).to_string());
            wanted_name = Some(s.name().to_owned());
            wanted_member = s.is_member();
            owner = super::structure::data_member_owner(s).map(str::to_owned);
        }
        None => {
            content.entity_type = "file".into();
            // The language its code was read as: a `.h` of C++ is C++.
            content.kind = code
                .map(|c| c.language.clone())
                .filter(|l| !l.is_empty())
                .or_else(|| file.language.clone());
            wanted_name = None;
        }
    }
    let env = envelope(state, request, content);
    let mut items: Vec<Item<EntityContent>> = match code {
        Some(c) => code_items(state, file, &path, symbol.as_deref(), c)?,
        None => Vec::new(),
    };
    let wanted = wanted_name.as_deref().map(|n| (n, wanted_member));
    items.extend(relation_items(state, file, wanted, code)?);
    // Documented by: for a symbol, the documents that show its name as code; for a file, the
    // documents that link to it.
    let documented = match &wanted_name {
        Some(name) => documenting(state, name, owner.as_deref())?,
        None => linking_documents(state, &path)?,
    };
    // A document that explains it is worth more than the tenth file that calls it: they take
    // turns, one document after every ten referencing files.
    for (i, d) in documented.into_iter().enumerate() {
        items.push(Item::new(
            3,
            995 - 10 * i as i64,
            move |e: &mut EntityContent| e.documented_by.push(d.clone()),
        ));
    }
    let sections = sections(&id, &env, &items);
    fit(env, &sections, items)
}

/// The entity's `children` items (a file's definitions, or a symbol's members) and its file's
/// `imports`.
fn code_items(
    state: &Reader,
    file: &crate::model::FileState,
    path: &str,
    symbol: Option<&str>,
    c: &crate::analyze::structure::CodeFacts,
) -> Result<Vec<Item<EntityContent>>> {
    let mut items = Vec::new();
    // What the file or type exposes before what it hides: clap's `Command` listed sixty
    // private fields and no method at the default budget. A file's types and functions before
    // its constants, variables and aliases: lipgloss's `style.go` listed a dozen `Underline*`
    // constants and cut `Style` and `NewStyle`, sqlmodel's `main.py` its type aliases and
    // cut `SQLModel`. In source order within each.
    let minor = |s: &crate::analyze::structure::SymbolFact| {
        symbol.is_none() && repocue_structure::symbol_priority(&s.kind) > 1
    };
    let mut children: Vec<(bool, bool, String)> = c
        .symbols
        .iter()
        .filter(|s| defined_owner(c, s) == symbol)
        .map(|s| {
            let id = EntityId::symbol(path.to_owned(), s.qualified_name.clone()).to_string();
            // A protected member is what a subclass calls: the API of a class made to be
            // extended (guice's `AbstractModule` showed two of its `bind…` methods beside a
            // hundred files that extend it).
            let protected = s.visibility.as_deref() == Some("protected");
            let hidden = crate::analyze::importance::unexposed(s, &c.symbols)
                && (!protected || owner_hidden(s, &c.symbols));
            (hidden, minor(s), id)
        })
        .collect();
    if let Some(s) = symbol.and_then(|q| c.symbols.iter().find(|s| s.qualified_name == q)) {
        let exported = |id: &String| {
            let name = id.rsplit(['.', ':']).next().unwrap_or_default();
            name.starts_with(|c: char| c.is_uppercase())
        };
        children.extend(
            go_methods_elsewhere(state, file, c, s)?
                .into_iter()
                .map(|id| (!exported(&id), false, id)),
        );
        let elsewhere = csharp_parts_elsewhere(state, file, c, s)?
            .into_iter()
            .chain(rust_impls_elsewhere(state, file, c, s)?);
        children.extend(elsewhere.map(|(hidden, id)| (hidden, false, id)));
    }
    children.sort_by_key(|(hidden, minor, _)| (*hidden, *minor));
    // A file's first definitions lead; the rest come after its users and dependencies, which
    // a file with hundreds of definitions (a C header) would otherwise crowd out. So do a
    // type's further overloads (`ToString#2` of thirty) and hidden members: Newtonsoft.Json's
    // `JObject` at 900 tokens listed forty of them and none of its users.
    let rank = |i: usize, hidden: bool, id: &str| {
        let overload = id
            .rsplit(['.', ':'])
            .next()
            .is_some_and(|n| n.contains('#'));
        match (symbol.is_none() && i >= FILE_CHILDREN_FIRST) || overload || hidden {
            true => 500 - i as i64,
            false => 3_000 - i as i64,
        }
    };
    for (i, (hidden, _, ch)) in children.into_iter().enumerate() {
        items.push(Item::new(
            0,
            rank(i, hidden, &ch),
            move |e: &mut EntityContent| e.children.push(ch.clone()),
        ));
    }
    // A file's imports are what it depends on, before its users; a symbol's are its file's,
    // after the files that use it (jsoup's `addMethod` at 200 tokens showed `java.util.*`
    // and none of its callers).
    let imports_rank = match symbol {
        None => 2_000,
        Some(_) => 500,
    };
    for (i, imp) in c.imports.iter().cloned().enumerate() {
        items.push(Item::new(
            1,
            imports_rank - i as i64,
            move |e: &mut EntityContent| e.imports.push(imp.clone()),
        ));
    }
    Ok(items)
}

/// Whether a symbol's owner, or any up the chain, is hidden (a protected member of a private
/// class is hidden with it).
fn owner_hidden(
    s: &crate::analyze::structure::SymbolFact,
    all: &[crate::analyze::structure::SymbolFact],
) -> bool {
    let mut owner = s.parent();
    while let Some(p) = owner {
        if all
            .iter()
            .any(|o| o.qualified_name == p && crate::analyze::importance::is_hidden(o))
        {
            return true;
        }
        owner = p.rsplit_once('.').map(|(up, _)| up);
    }
    false
}

/// The entity's `referenced_by` items: the files that reference the symbol's name (`wanted`),
/// or for a file, a name it defines; and a file's `references`, the files that define a name
/// it references.
fn relation_items(
    state: &Reader,
    file: &crate::model::FileState,
    wanted: Option<(&str, bool)>,
    code: Option<&crate::analyze::structure::CodeFacts>,
) -> Result<Vec<Item<EntityContent>>> {
    let mut items = Vec::new();
    let incoming = match (wanted, code) {
        (Some((name, member)), _) => referenced_by(state, file, Some(name), &[], &[], member)?,
        (None, Some(c)) => file_referenced_by(state, file, c)?,
        (None, None) => Vec::new(),
    };
    for (i, r) in by_role(incoming).into_iter().enumerate() {
        items.push(Item::new(
            2,
            1_000 - i as i64,
            move |e: &mut EntityContent| e.referenced_by.push(r.clone()),
        ));
    }
    if let Some(c) = code.filter(|c| wanted.is_none() && !c.references.is_empty()) {
        let outgoing = referenced_by(state, file, None, &c.references, &c.imports, false)?;
        for (i, r) in by_role(outgoing).into_iter().enumerate() {
            items.push(Item::new(
                4,
                990 - 10 * i as i64,
                move |e: &mut EntityContent| e.references.push(r.clone()),
            ));
        }
    }
    Ok(items)
}

/// A Go type's methods declared in the other files of its package (its directory; not its
/// tests): urfave/cli's `Command` listed 105 children of `command.go`, not `Command.Run` of
/// `command_run.go`, the method every user calls. Each file's by line, the files by path.
/// The reference index names the candidates (a method's receiver names its type); without
/// it, none.
fn go_methods_elsewhere(
    state: &Reader,
    file: &crate::model::FileState,
    code: &crate::analyze::structure::CodeFacts,
    s: &crate::analyze::structure::SymbolFact,
) -> Result<Vec<String>> {
    let is_type = matches!(s.kind.as_str(), "struct" | "interface" | "type");
    if code.language != "Go" || !is_type || s.parent().is_some() {
        return Ok(Vec::new());
    }
    let Some(candidates) = state.store.referencing_paths(&state.snapshot, s.name())? else {
        return Ok(Vec::new());
    };
    let dir = |p: &[u8]| p[..p.iter().rposition(|&b| b == b'/').map_or(0, |i| i + 1)].to_vec();
    let package = dir(&file.path);
    let mut wanted: Vec<&[u8]> = candidates
        .iter()
        .map(Vec::as_slice)
        .filter(|p| {
            *p != file.path.as_slice()
                && dir(p) == package
                && p.ends_with(b".go")
                && !p.ends_with(b"_test.go")
        })
        .collect();
    wanted.sort_unstable();
    let mut out = Vec::new();
    for (display, c) in code_of(state, &wanted)? {
        out.extend(
            c.symbols
                .iter()
                .filter(|m| m.kind == "method" && m.parent() == Some(s.qualified_name.as_str()))
                .map(|m| EntityId::symbol(display.clone(), m.qualified_name.clone()).to_string()),
        );
    }
    Ok(out)
}

/// A Rust type's methods implemented in the other files of its crate
/// ([`importance::rust_crate_dir`]; not its tests): anyhow's `Error` is a struct of `lib.rs`
/// whose `impl Error` with `msg`, `context` and `downcast` is in `error.rs`. Each with
/// whether it is hidden; the files by path, each file's by line. Only for a name no other
/// file of the crate defines as a type; the reference index names the candidates (an
/// `impl` names its type), without it, none.
///
/// [`importance::rust_crate_dir`]: crate::analyze::importance::rust_crate_dir
fn rust_impls_elsewhere(
    state: &Reader,
    file: &crate::model::FileState,
    code: &crate::analyze::structure::CodeFacts,
    s: &crate::analyze::structure::SymbolFact,
) -> Result<Vec<(bool, String)>> {
    use crate::analyze::importance;
    let is_type = repocue_structure::symbol_priority(&s.kind) == 0;
    if code.language != "Rust" || !is_type || s.parent().is_some() {
        return Ok(Vec::new());
    }
    let Some(candidates) = state.store.referencing_paths(&state.snapshot, s.name())? else {
        return Ok(Vec::new());
    };
    let krate = importance::rust_crate_dir(&file.path);
    let mut wanted: Vec<&[u8]> = candidates
        .iter()
        .map(Vec::as_slice)
        .filter(|p| {
            *p != file.path.as_slice()
                && p.ends_with(b".rs")
                && importance::rust_crate_dir(p) == krate
                && importance::role(p) == importance::Role::Source
        })
        .collect();
    wanted.sort_unstable();
    // Another file of the crate that defines the name: which type an `impl` means is then
    // unknown (the search index says which files define it; without it, none).
    let Some(defining) = state
        .store
        .defining_paths(&state.snapshot, &[s.name().to_owned()])?
    else {
        return Ok(Vec::new());
    };
    let elsewhere = defining.iter().any(|p| {
        *p != file.path
            && p.ends_with(b".rs")
            && importance::rust_crate_dir(p) == krate
            && importance::role(p) == importance::Role::Source
    });
    if elsewhere {
        return Ok(Vec::new());
    }
    let others = code_of(state, &wanted)?;
    let mut out = Vec::new();
    for (display, c) in &others {
        out.extend(
            c.symbols
                .iter()
                .filter(|m| m.kind == "method" && m.parent() == Some(s.qualified_name.as_str()))
                .map(|m| {
                    let id = EntityId::symbol(display.clone(), m.qualified_name.clone());
                    (importance::unexposed(m, &c.symbols), id.to_string())
                }),
        );
    }
    Ok(out)
}

/// The code facts of the current files at `paths` (sorted), each with its display path, in
/// path order; a file without code facts is left out.
fn code_of(
    state: &Reader,
    paths: &[&[u8]],
) -> Result<Vec<(String, crate::analyze::structure::CodeFacts)>> {
    let files = state.store.files_by_paths(&state.snapshot, paths)?;
    let digests: Vec<&str> = files.iter().filter_map(|f| f.digest.as_deref()).collect();
    let facts = state.store.facts(&digests)?;
    // Cloned, not taken: two files of the same content share their facts.
    Ok(files
        .iter()
        .filter_map(|f| {
            let code = f.digest.as_deref().and_then(|d| facts.get(d))?.code.clone();
            code.map(|c| (paths::display(&f.path), c))
        })
        .collect())
}

/// The members a C# `partial` type declares in its other parts (Polly's `ResiliencePipeline`:
/// `Execute` in `ResiliencePipeline.Sync.cs`, `ExecuteAsync` in `ResiliencePipeline.Async.cs`),
/// each with whether it is hidden: the parts' files by path, each file's by line. The search
/// index names the files that define the type's name; without it, none.
fn csharp_parts_elsewhere(
    state: &Reader,
    file: &crate::model::FileState,
    code: &crate::analyze::structure::CodeFacts,
    s: &crate::analyze::structure::SymbolFact,
) -> Result<Vec<(bool, String)>> {
    let partial = s.signature.split_whitespace().any(|w| w == "partial");
    if code.language != "C#" || !partial || s.parent().is_some() {
        return Ok(Vec::new());
    }
    let names = [s.name().to_owned()];
    let Some(mut candidates) = state.store.defining_paths(&state.snapshot, &names)? else {
        return Ok(Vec::new());
    };
    candidates.retain(|p| *p != file.path && p.ends_with(b".cs"));
    candidates.sort_unstable();
    let wanted: Vec<&[u8]> = candidates.iter().map(Vec::as_slice).collect();
    let mut out = Vec::new();
    for (display, c) in code_of(state, &wanted)? {
        let is_part = c.symbols.iter().any(|t| {
            t.qualified_name == s.qualified_name
                && t.signature.split_whitespace().any(|w| w == "partial")
        });
        if !is_part {
            continue;
        }
        out.extend(
            c.symbols
                .iter()
                .filter(|m| m.parent() == Some(s.qualified_name.as_str()))
                .map(|m| {
                    let hidden = crate::analyze::importance::unexposed(m, &c.symbols);
                    let id = EntityId::symbol(display.clone(), m.qualified_name.clone());
                    (hidden, id.to_string())
                }),
        );
    }
    Ok(out)
}

/// `paths` (sorted) with the project's own code first, then tests, examples and vendored
/// code: typer's `Option` is referenced by 150 files, and the first 19 a budget held were
/// documentation examples (`docs_src/…`), `typer/__init__.py` among those left out.
fn by_role(mut paths: Vec<String>) -> Vec<String> {
    // A stable sort: each role's paths stay in order.
    paths.sort_by_cached_key(|p| crate::analyze::importance::role(p.as_bytes()));
    paths
}

/// The paths and digests of the snapshot's analysed documents of the project's own (not of
/// tests, examples or vendored code, [`crate::analyze::importance::is_project_document`]), as [`super::structure::documented_names`] counts them.
fn project_documents(state: &Reader) -> Result<Vec<(String, &str)>> {
    use crate::analyze::importance::is_project_document;
    Ok(state
        .files()?
        .iter()
        .filter(|f| f.is_document && f.class.analysed() && is_project_document(&f.path))
        .filter_map(|f| Some((paths::display(&f.path), f.digest.as_deref()?)))
        .collect())
}

/// The entity view's sections, each with the follow-up that returns all of them: the same id
/// with a budget that fits every item.
fn sections(
    id: &str,
    env: &crate::api::Envelope<EntityContent>,
    items: &[Item<EntityContent>],
) -> Vec<Section> {
    let more = crate::api::More {
        id: Some(id.to_owned()),
        ..crate::api::More::of(
            crate::api::View::Entity,
            crate::cue::fit::full_budget(env, items),
        )
    };
    [
        "children",
        "imports",
        "referenced_by",
        "documented_by",
        "references",
    ]
    .into_iter()
    .map(|n| Section::new(n, Some(more.clone())))
    // Children in their order only: a member of another file that did not fit let six hidden
    // fields of the type's file in behind it (logrus's `Logger` at 500 tokens listed `mu` and
    // `pool`, not `Writer`; at 600 the other way round).
    .map(|s| match s.name == "children" {
        true => s.in_order(),
        false => s,
    })
    .collect()
}

/// The project's documents that show `name` as code (an inline code span or a fenced block),
/// and the name of its `owner` too for a data member (a field `name` is not documented by
/// every document that shows some `name`), sorted: where a symbol is explained. Only the
/// documents whose facts mention the name are parsed, and none when the snapshot's count of
/// documented names has no such name (the counts cover the same documents:
/// [`super::structure::documented_names`]).
fn documenting(state: &Reader, name: &str, owner: Option<&str>) -> Result<Vec<String>> {
    for n in std::iter::once(name).chain(owner) {
        if !super::structure::is_documented(state, n)? {
            return Ok(Vec::new());
        }
    }
    let documents = project_documents(state)?;
    let digests: Vec<&str> = documents.iter().map(|(_, d)| *d).collect();
    let facts = state
        .store
        .facts_mentioning::<crate::analyze::Analysis>(&digests, Some(name))?;
    let shows = |d: &crate::analyze::docs::DocFacts, n: &str| {
        d.code_names.binary_search_by(|c| c.as_str().cmp(n)).is_ok()
    };
    let mut kept = kept_documents(documents, &facts, |_, d| {
        shows(d, name) && owner.is_none_or(|o| shows(d, o))
    });
    // The page of the symbol's own first (curl's `docs/libcurl/curl_easy_perform.md` came
    // twelfth, after every page that mentions it, and a 600-token entity cut it). Stable.
    kept.sort_by_key(|doc| !is_page_of(doc, name));
    Ok(kept)
}

/// Whether a document is named as the symbol is (`curl_easy_perform.md`, `Session.rst`), in
/// any case: the page written for it.
fn is_page_of(doc: &str, name: &str) -> bool {
    let file = doc.rsplit('/').next().unwrap_or(doc);
    let stem = file.split('.').next().unwrap_or(file);
    !name.is_empty() && stem.eq_ignore_ascii_case(name)
}

/// The order documents are listed in: the originals before translations (rich's eleven
/// `README.<language>.md` pushed out `README.md`'s neighbours in `docs/`), nearer the root
/// first, then by path.
fn document_order(path: &str) -> (bool, usize, &str) {
    (is_translation(path), path.matches('/').count(), path)
}

/// Whether a document's name marks it as a translation of a project document: `README.ja.md`,
/// `README-zh_CN.md`, `CONTRIBUTING.pt-br.md` (a two-letter language, maybe a region, after a
/// README, a contributing guide, a change log and the like).
fn is_translation(path: &str) -> bool {
    const ORIGINALS: &[&str] = &[
        "readme",
        "contributing",
        "changelog",
        "code_of_conduct",
        "security",
        "install",
        "faq",
        "index",
    ];
    let name = path.rsplit('/').next().unwrap_or(path);
    let stem = name.rsplit_once('.').map_or(name, |(s, _)| s);
    let letters = |t: &str, n: std::ops::RangeInclusive<usize>| {
        n.contains(&t.len()) && t.bytes().all(|b| b.is_ascii_alphabetic())
    };
    ORIGINALS.iter().any(|o| {
        let Some(rest) = stem.get(..o.len()).filter(|s| s.eq_ignore_ascii_case(o)) else {
            return false;
        };
        let code = &stem[rest.len()..];
        let Some(code) = code.strip_prefix(['.', '-', '_']) else {
            return false;
        };
        match code.split_once(['-', '_']) {
            Some((language, region)) => letters(language, 2..=2) && letters(region, 2..=4),
            None => letters(code, 2..=2),
        }
    })
}

/// The paths of the `documents` whose document facts (of `facts`, by digest) `keep` holds,
/// in [`document_order`], without repeats.
fn kept_documents(
    documents: Vec<(String, &str)>,
    facts: &HashMap<String, crate::analyze::Analysis>,
    keep: impl Fn(&str, &crate::analyze::docs::DocFacts) -> bool,
) -> Vec<String> {
    let mut out: Vec<String> = documents
        .into_iter()
        .filter(|(doc, digest)| {
            facts
                .get(*digest)
                .and_then(|a| a.doc.as_ref())
                .is_some_and(|d| keep(doc, d))
        })
        .map(|(doc, _)| doc)
        .collect();
    out.sort_by(|a, b| document_order(a).cmp(&document_order(b)));
    out.dedup();
    out
}

/// The entity cue of a document (`doc:<path>`) or of one of its sections (`doc:<path>#<slug>`,
/// the ids the document view's outline and search hits give): its headings as a tree, and the
/// documents that link to it. `None` when the snapshot holds no such document or heading. A
/// path may hold `#` (a slug never does): the id names a section when what comes before its
/// last `#` is a document, else the document of the whole path.
fn doc_entity(state: &Reader, request: &CueRequest, rest: &str) -> Result<Option<Cue>> {
    let document = |path: &str| -> Result<Option<crate::model::FileState>> {
        Ok(find_file(state, path)?.filter(|f| f.is_document))
    };
    let split = rest.rsplit_once('#');
    let (file, slug) = match split {
        Some((path, slug)) if !path.is_empty() => match document(path)? {
            Some(f) => (f, Some(slug)),
            None => match document(rest)? {
                Some(f) => (f, None),
                None => return Ok(None),
            },
        },
        _ => match document(rest)? {
            Some(f) => (f, None),
            None => return Ok(None),
        },
    };
    let path = paths::display(&file.path);
    let facts = match file.digest.as_deref().filter(|_| file.class.analysed()) {
        Some(d) => state.store.facts(&[d])?.remove(d).and_then(|a| a.doc),
        None => None,
    }
    .unwrap_or_default();
    let headings = &facts.headings;
    let slugs = crate::analyze::docs::slugs(headings);
    let section_id = |i: usize| EntityId::doc(path.clone(), Some(slugs[i].clone())).to_string();
    // The heading a section starts with, and the headings it holds: those after it up to the
    // next of its level or above.
    let found = match slug {
        Some(slug) => match slugs.iter().position(|s| s == slug) {
            Some(i) => Some(i),
            None => return Ok(None),
        },
        None => None,
    };
    let level = found.map_or(0, |i| headings[i].level);
    let start = found.map_or(0, |i| i + 1);
    let end = headings[start..]
        .iter()
        .position(|h| h.level <= level)
        .map_or(headings.len(), |n| start + n);
    let mut content = EntityContent {
        id: request.id.clone().unwrap_or_default(),
        entity_type: if found.is_some() { "section" } else { "doc" }.into(),
        path: path.clone(),
        ..Default::default()
    };
    match found {
        Some(i) => {
            let h = &headings[i];
            content.kind = Some(format!("h{}", h.level));
            content.signature = Some(h.text.clone());
            // The last section runs to the end of the document, whose length the facts do
            // not hold: no line range rather than a made-up one.
            content.lines = headings.get(end).map(|next| [h.line, next.line - 1]);
            content.parent = Some(
                headings[..i]
                    .iter()
                    .rposition(|p| p.level < h.level)
                    .map_or_else(|| EntityId::doc(path.clone(), None).to_string(), section_id),
            );
        }
        None => content.kind = file.language.clone(),
    }
    // Direct children: the headings inside whose level no heading between lies at or under.
    let mut children = Vec::new();
    let mut floor = u8::MAX;
    for (i, h) in headings.iter().enumerate().take(end).skip(start) {
        if h.level <= floor {
            floor = h.level;
            children.push(section_id(i));
        }
    }
    let linking = linking_documents(state, &path)?;
    let env = envelope(state, request, content);
    let mut items: Vec<Item<EntityContent>> = Vec::new();
    for (i, ch) in children.into_iter().enumerate() {
        items.push(Item::new(
            0,
            3_000 - i as i64,
            move |e: &mut EntityContent| e.children.push(ch.clone()),
        ));
    }
    for (i, d) in linking.into_iter().enumerate() {
        items.push(Item::new(
            2,
            1_000 - i as i64,
            move |e: &mut EntityContent| e.referenced_by.push(d.clone()),
        ));
    }
    let id = env.content.id.clone();
    let sections = sections(&id, &env, &items);
    fit(env, &sections, items).map(Some)
}

/// The project's documents (not those of tests or examples) of the snapshot with a link that
/// resolves to the file at `path` (any anchor in it), sorted.
fn linking_documents(state: &Reader, path: &str) -> Result<Vec<String>> {
    Ok(document_links(state)?.remove(path).unwrap_or_default())
}

/// The view-cache key of [`document_links`].
const LINKS_KEY: &str = "document-links";

/// Every repository path the project's documents link to, with the documents that do, sorted.
/// Reading every document's facts for one file's links cost a file entity cue 11 ms on git/git
/// (986 documents): the map is cached with the snapshot that read it, and a later snapshot
/// whose changes since touch no document takes it from there (as
/// [`super::structure::documented_names`] does). A link resolves by its path alone.
fn document_links(state: &Reader) -> Result<BTreeMap<String, Vec<String>>> {
    state.cached_from_documents(LINKS_KEY, read_document_links)
}

/// [`document_links`], read from every document's facts.
fn read_document_links(state: &Reader) -> Result<BTreeMap<String, Vec<String>>> {
    let documents = project_documents(state)?;
    let digests: Vec<&str> = documents.iter().map(|(_, d)| *d).collect();
    let facts = state.store.facts(&digests)?;
    let mut links: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for (doc, digest) in &documents {
        let Some(d) = facts.get(*digest).and_then(|a| a.doc.as_ref()) else {
            continue;
        };
        for target in d
            .links
            .iter()
            .filter_map(|l| super::document::file_link(doc, l))
        {
            if target != *doc {
                links.entry(target).or_default().push(doc.clone());
            }
        }
    }
    for docs in links.values_mut() {
        docs.sort();
        docs.dedup();
    }
    Ok(links)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// rich's `documented_by` listed eleven `README.<language>.md` before `docs/`: originals
    /// first, nearer the root first.
    #[test]
    fn documents_are_listed_originals_first_nearer_the_root_first() {
        let mut docs = vec![
            "README.ja.md",
            "README-zh_CN.md",
            "docs/source/console.rst",
            "README.md",
            "CONTRIBUTING.pt-br.md",
            "docs/my_db.md",
            "docs/api_it.md",
            "README.md",
        ];
        docs.sort_by(|a, b| document_order(a).cmp(&document_order(b)));
        docs.dedup();
        assert_eq!(
            docs,
            [
                "README.md",
                "docs/api_it.md",
                "docs/my_db.md",
                "docs/source/console.rst",
                "CONTRIBUTING.pt-br.md",
                "README-zh_CN.md",
                "README.ja.md",
            ]
        );
    }
    use crate::refresh::{run, Operation};
    use crate::testing::temp_repo;

    /// The documents' links are read once per snapshot whose documents changed: a snapshot
    /// whose changes are code only takes them from the one that read them, and each value is
    /// what reading every document gives.
    #[test]
    fn document_links_are_read_again_only_when_a_document_changed() {
        let t = temp_repo(&[
            ("README.md", "# Work\n\nSee [the guide](docs/guide.md).\n"),
            ("docs/guide.md", "# Guide\n\nBack [home](../README.md).\n"),
            ("src/core.py", "def parse(text):\n    return text\n"),
        ]);
        run(&t.repo, &Operation::Init).unwrap();
        let links = || {
            let reader = crate::read::prepare(&t.repo, false).unwrap();
            let links = document_links(&reader).unwrap();
            let stored: Option<BTreeMap<String, Vec<String>>> =
                reader.cached_at(reader.snapshot.seq, LINKS_KEY).unwrap();
            // Read again from this snapshot's own value: the same.
            assert_eq!(document_links(&reader).unwrap(), links);
            (links, stored.is_some())
        };
        let (first, stored) = links();
        assert_eq!(first["docs/guide.md"], ["README.md"]);
        assert_eq!(first["README.md"], ["docs/guide.md"]);
        assert!(stored, "the first snapshot reads and stores them");
        let edit = |path: &str, content: &str| {
            std::fs::write(t.repo.root.join(path), content).unwrap();
            assert!(run(&t.repo, &Operation::Refresh).unwrap().published);
        };
        edit("src/core.py", "def parse(text):\n    return text.strip()\n");
        let (second, stored) = links();
        assert_eq!((&second, stored), (&first, false), "taken from the first");
        edit("docs/guide.md", "# Guide\n\nNo links any more.\n");
        let (third, stored) = links();
        assert!(!third.contains_key("README.md"), "{third:?}");
        assert!(stored, "read again after a document changed");
    }

    /// A file's users read through the reference index are those every file's facts give
    /// (the index describes only the current snapshot: a reader of an older one reads facts).
    #[test]
    fn a_files_users_from_the_index_are_those_the_facts_give() {
        let t = temp_repo(&[
            (
                "pkg/jsonish.py",
                "def parse(text):\n    return text\n\n\ndef _cache():\n    return {}\n",
            ),
            ("pkg/yamlish.py", "def parse(text):\n    return [text]\n"),
            (
                "pkg/use_json.py",
                "from pkg.jsonish import parse\n\ndef load(t):\n    return parse(t)\n",
            ),
            ("pkg/either.py", "def load(t):\n    return parse(t)\n"),
            ("pkg/private.py", "def peek():\n    return _cache()\n"),
            (
                "tests/test_json.py",
                "from pkg.jsonish import parse\n\nparse('x')\n",
            ),
        ]);
        run(&t.repo, &Operation::Init).unwrap();
        let reader = crate::read::prepare(&t.repo, false).unwrap();
        let users = |reader: &Reader| {
            let file = reader
                .files()
                .unwrap()
                .iter()
                .find(|f| f.path == b"pkg/jsonish.py")
                .unwrap()
                .clone();
            let digest = file.digest.clone().unwrap();
            let code = reader.store.facts(&[digest.as_str()]).unwrap()[&digest]
                .code
                .clone()
                .unwrap();
            file_referenced_by(reader, &file, &code).unwrap()
        };
        let indexed = users(&reader);
        assert_eq!(
            indexed,
            ["pkg/use_json.py", "tests/test_json.py"],
            "not private.py: `_cache` is private; not either.py, which imports no `parse`"
        );
        std::fs::write(t.repo.root.join("pkg/later.py"), "def later():\n    pass\n").unwrap();
        assert!(run(&t.repo, &Operation::Refresh).unwrap().published);
        assert!(
            reader
                .store
                .referencing_paths(&reader.snapshot, "parse")
                .unwrap()
                .is_none(),
            "the index no longer describes the reader's snapshot"
        );
        assert_eq!(users(&reader), indexed);
    }

    /// A file's `referenced_by` read from the search index is what every file's facts say:
    /// qualified names match by their last segment, the file itself, vendored files and
    /// files that define nothing it uses, or only in a language it cannot name, are left out.
    #[test]
    fn defining_files_from_the_index_are_those_the_facts_give() {
        let t = temp_repo(&[
            (
                "src/use.py",
                "from core import parse, Runner\nfrom opts import parse_options\n\ndef go():\n    parse(1)\n    parse_options(2)\n    Runner().run()\n    helper()\n\ndef helper():\n    pass\n",
            ),
            ("src/core.py", "def parse(x):\n    return x\n"),
            // Names the full-text phrase finds by words: the exact check keeps only equal ones.
            ("src/extra.py", "def parse_options_extra(x):\n    return x\n"),
            ("src/opts.py", "def parse_options(x):\n    return x\n"),
            (
                "src/app.js",
                "function createApplication() {}\nfunction $wrap() {}\nfunction createApp() {}\n",
            ),
            (
                "src/use.js",
                "const { createApplication, $wrap } = require('./app');\ncreateApplication();\n$wrap();\n",
            ),
            ("src/runner.py", "class Runner:\n    def run(self):\n        pass\n"),
            ("src/other.py", "def unrelated():\n    pass\n"),
            ("vendor/lib.py", "def parse(x):\n    return x\n"),
            // A shell function of the same name: no Python code can call it.
            ("scripts/tool.sh", "parse() {\n  echo \"$1\"\n}\n"),
            // The C library's `free`, redefined by a header only some files include: a call
            // means it in those files alone.
            (
                "lib/alloc.h",
                "#define free(p) lib_free(p)\nvoid lib_free(void *p);\n",
            ),
            (
                "lib/pool.c",
                "#include \"alloc.h\"\nvoid drain(void *p) { free(p); lib_free(p); }\n",
            ),
            ("tool.c", "#include <stdlib.h>\nvoid done(void *p) { free(p); }\n"),
        ]);
        run(&t.repo, &Operation::Init).unwrap();
        let reader = crate::read::prepare(&t.repo, false).unwrap();
        // A file's row and the names its facts say it references.
        let with_refs = |path: &[u8]| {
            let file = reader
                .files()
                .unwrap()
                .iter()
                .find(|f| f.path == path)
                .unwrap()
                .clone();
            let digest = file.digest.clone().unwrap();
            let facts = reader.store.facts(&[digest.as_str()]).unwrap();
            let code = facts[&digest].code.clone().unwrap();
            (file, code.references, code.imports)
        };
        let (file, refs, imports) = with_refs(b"src/use.py");
        let indexed = referenced_by(&reader, &file, None, &refs, &imports, false).unwrap();
        assert_eq!(indexed, ["src/core.py", "src/opts.py", "src/runner.py"]);
        let all = from_facts(&reader, &file, (None, false), &refs, &imports, None).unwrap();
        assert_eq!(indexed, all);
        // Through the full-text index and through every symbol row alike.
        let by = |words| {
            let found = reader.store.defining_paths_by(&refs, words).unwrap();
            found.iter().map(|p| paths::display(p)).collect::<Vec<_>>()
        };
        assert_eq!(
            by(true),
            [
                "scripts/tool.sh",
                "src/core.py",
                "src/opts.py",
                "src/runner.py"
            ]
        );
        assert_eq!(by(true), by(false));
        let (js, js_refs, js_imports) = with_refs(b"src/use.js");
        assert!(js_refs.contains(&"$wrap".to_owned()), "{js_refs:?}");
        let indexed = referenced_by(&reader, &js, None, &js_refs, &js_imports, false).unwrap();
        assert_eq!(indexed, ["src/app.js"]);
        let words = reader.store.defining_paths_by(&js_refs, true).unwrap();
        assert_eq!(
            words,
            reader.store.defining_paths_by(&js_refs, false).unwrap()
        );
        assert_eq!(words, [b"src/app.js".to_vec()]);
        let all = from_facts(&reader, &js, (None, false), &js_refs, &js_imports, None).unwrap();
        assert_eq!(indexed, all);
        // `free` means the header's only in the file that includes it.
        for (path, expected) in [(&b"lib/pool.c"[..], &["lib/alloc.h"][..]), (b"tool.c", &[])] {
            let (file, refs, imports) = with_refs(path);
            assert!(refs.contains(&"free".to_owned()), "{refs:?}");
            let indexed = referenced_by(&reader, &file, None, &refs, &imports, false).unwrap();
            assert_eq!(indexed, expected, "{}", paths::display(path));
            let all = from_facts(&reader, &file, (None, false), &refs, &imports, None).unwrap();
            assert_eq!(indexed, all);
        }
        // An older snapshot is not what the index describes: no answer from it.
        let older = crate::store::SnapshotRow {
            seq: reader.snapshot.seq + 1,
            ..reader.snapshot.clone()
        };
        assert!(reader
            .store
            .defining_paths(&older, &refs)
            .unwrap()
            .is_none());
    }

    /// A symbol's `referenced_by` over more files than are looked up one by one: one pass
    /// over every stored fact finds exactly the files that reference the name.
    #[test]
    fn a_name_is_found_in_every_file_that_references_it() {
        let mut files: Vec<(String, String)> =
            vec![("core.py".into(), "def parse(x):\n    return x\n".into())];
        for i in 0..300 {
            let body = match i % 10 {
                0 => "from core import parse\n\ndef use():\n    return parse(1)\n".to_owned(),
                _ => format!("def own_{i}():\n    return {i}\n"),
            };
            files.push((format!("m/f{i:03}.py"), body));
        }
        let t = temp_repo(&files);
        run(&t.repo, &Operation::Init).unwrap();
        let reader = crate::read::prepare(&t.repo, false).unwrap();
        let request = CueRequest {
            id: Some("symbol:core.py:parse".into()),
            max_tokens: 4000,
            ..CueRequest::new(crate::api::View::Entity)
        };
        let cue = build(&reader, &request).unwrap();
        let v: serde_json::Value = serde_json::from_str(&cue.json).unwrap();
        let expected: Vec<String> = (0..300)
            .step_by(10)
            .map(|i| format!("m/f{i:03}.py"))
            .collect();
        assert_eq!(v["content"]["referenced_by"], serde_json::json!(expected));
    }

    /// `referenced_by` lists the project's own files first, then tests, then examples, each
    /// group by path: documentation examples sort before the package, and took the budget.
    #[test]
    fn referenced_by_lists_the_projects_own_files_first() {
        let user = "from pkg.core import parse\n\ndef use():\n    return parse(1)\n";
        let files: Vec<(String, String)> = vec![
            ("pkg/core.py".into(), "def parse(x):\n    return x\n".into()),
            ("docs_src/a.py".into(), user.into()),
            ("examples/b.py".into(), user.into()),
            ("tests/test_c.py".into(), user.into()),
            ("pkg/z.py".into(), user.into()),
            ("pkg/cli.py".into(), user.into()),
        ];
        let t = temp_repo(&files);
        run(&t.repo, &Operation::Init).unwrap();
        let reader = crate::read::prepare(&t.repo, false).unwrap();
        let request = CueRequest {
            id: Some("symbol:pkg/core.py:parse".into()),
            max_tokens: 4000,
            ..CueRequest::new(crate::api::View::Entity)
        };
        let cue = build(&reader, &request).unwrap();
        let v: serde_json::Value = serde_json::from_str(&cue.json).unwrap();
        assert_eq!(
            v["content"]["referenced_by"],
            serde_json::json!([
                "pkg/cli.py",
                "pkg/z.py",
                "tests/test_c.py",
                "docs_src/a.py",
                "examples/b.py"
            ])
        );
    }

    /// The `referenced_by` of a symbol `id` through the reference index, and through every
    /// other file's facts: both, to compare.
    fn referenced_both_ways(reader: &Reader, id: &str) -> (Vec<String>, Vec<String>) {
        let (path, name) = parse_id(id).unwrap();
        let file = find_file(reader, &path).unwrap().unwrap();
        let digest = file.digest.clone().unwrap();
        let facts = reader.store.facts(&[digest.as_str()]).unwrap();
        let code = facts[&digest].code.clone().unwrap();
        let symbol = code
            .symbols
            .iter()
            .find(|s| Some(&s.qualified_name) == name.as_ref())
            .unwrap();
        let name = symbol.name();
        let candidates = reader
            .store
            .referencing_paths(&reader.snapshot, name)
            .unwrap()
            .expect("the index answers for the current snapshot");
        let indexed = from_facts(
            reader,
            &file,
            (Some(name), false),
            &[],
            &code.imports,
            Some(&candidates),
        );
        let scanned = from_facts(reader, &file, (Some(name), false), &[], &code.imports, None);
        (indexed.unwrap(), scanned.unwrap())
    }

    /// A symbol's `referenced_by` comes from the reference index (the files whose facts may
    /// name it) and is what every file's facts give, through refreshes that add a reference,
    /// delete a referencing file, and add a file that defines nothing; names the index cannot
    /// hold as one token, and older snapshots, are left to the facts.
    #[test]
    fn a_symbols_referencing_files_come_from_the_reference_index() {
        let t = temp_repo(&[
            ("core.py", "def parse_text(x):\n    return x\n"),
            (
                "a.py",
                "from core import parse_text\n\ndef go():\n    return parse_text(1)\n",
            ),
            ("b.py", "def other():\n    return 2\n"),
            // The same word in another case: a candidate the facts turn down.
            ("c.py", "def go():\n    return PARSE_TEXT\n"),
        ]);
        run(&t.repo, &Operation::Init).unwrap();
        let id = "symbol:core.py:parse_text";
        let reader = crate::read::prepare(&t.repo, false).unwrap();
        assert_eq!(
            referenced_both_ways(&reader, id),
            (vec!["a.py".into()], vec!["a.py".into()])
        );
        let candidates = reader
            .store
            .referencing_paths(&reader.snapshot, "parse_text")
            .unwrap()
            .unwrap();
        assert!(candidates.contains(b"a.py".as_slice()), "{candidates:?}");
        assert!(!candidates.contains(b"b.py".as_slice()), "{candidates:?}");
        for name in ["parse.text", "run!", ""] {
            let answer = reader
                .store
                .referencing_paths(&reader.snapshot, name)
                .unwrap();
            assert!(answer.is_none(), "{name:?}");
        }
        // b.py comes to call it, a.py goes, and a script that defines nothing (no search
        // entries) but calls it is added.
        std::fs::write(
            t.repo.root.join("b.py"),
            "from core import parse_text\n\ndef other():\n    return parse_text(2)\n",
        )
        .unwrap();
        std::fs::remove_file(t.repo.root.join("a.py")).unwrap();
        std::fs::write(
            t.repo.root.join("d.py"),
            "from core import parse_text\n\nparse_text(3)\n",
        )
        .unwrap();
        crate::testing::git(&t.repo.root, &["add", "d.py"]);
        run(&t.repo, &Operation::Refresh).unwrap();
        let reader = crate::read::prepare(&t.repo, false).unwrap();
        let (indexed, scanned) = referenced_both_ways(&reader, id);
        assert_eq!(indexed, scanned);
        assert_eq!(indexed, ["b.py", "d.py"]);
        let older = crate::store::SnapshotRow {
            seq: reader.snapshot.seq - 1,
            ..reader.snapshot.clone()
        };
        assert!(reader
            .store
            .referencing_paths(&older, "parse_text")
            .unwrap()
            .is_none());
        // A new epoch builds the index again from nothing.
        let again = Operation::Rebaseline {
            label: "again".into(),
            reason: "test".into(),
        };
        run(&t.repo, &again).unwrap();
        let reader = crate::read::prepare(&t.repo, false).unwrap();
        assert_eq!(referenced_both_ways(&reader, id).0, ["b.py", "d.py"]);
    }

    /// A cache from before the reference index (schema version 18) gains it: until the next
    /// refresh builds it, `referenced_by` is read from the facts, and the same after it.
    #[test]
    fn a_cache_without_the_reference_index_gains_it_at_its_next_refresh() {
        let t = temp_repo(&[
            ("core.py", "def parse_text(x):\n    return x\n"),
            ("a.py", "from core import parse_text\nparse_text(1)\n"),
        ]);
        run(&t.repo, &Operation::Init).unwrap();
        crate::store::downgrade_to_v18(&crate::testing::raw_db(&t.repo));
        let request = CueRequest {
            id: Some("symbol:core.py:parse_text".into()),
            ..CueRequest::new(crate::api::View::Entity)
        };
        let referenced = |reader: &Reader| {
            let cue = build(reader, &request).unwrap();
            let v: serde_json::Value = serde_json::from_str(&cue.json).unwrap();
            v["content"]["referenced_by"].clone()
        };
        let reader = crate::read::prepare(&t.repo, false).unwrap();
        let pending = reader
            .store
            .referencing_paths(&reader.snapshot, "parse_text");
        assert!(pending.unwrap().is_none(), "no answer before the rebuild");
        assert_eq!(referenced(&reader), serde_json::json!(["a.py"]));
        run(&t.repo, &Operation::Refresh).unwrap();
        let reader = crate::read::prepare(&t.repo, false).unwrap();
        let built = reader
            .store
            .referencing_paths(&reader.snapshot, "parse_text");
        assert!(built.unwrap().unwrap().contains(b"a.py".as_slice()));
        assert_eq!(referenced(&reader), serde_json::json!(["a.py"]));
    }
}
