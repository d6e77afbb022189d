//! Ranking: a PageRank-style score over files, where a file that references a name defined in
//! another file links to it, if code of the one language can name the other's definitions
//! ([`name_space`]). A name defined in several files is resolved through the
//! referencing file's imports where they name a module path; test files never receive links
//! from the project's own code. Personalised toward entry points and package roots, files that
//! are dirty now, and paths the documentation names; tests, examples and vendored code are
//! ranked down (see [`importance`]).

use std::cell::OnceCell;
use std::collections::HashMap;

/// A hash map with a fast, fixed-seed hasher, for lookups only.
type FastMap<K, V> = HashMap<K, V, foldhash::fast::FixedState>;

/// Name → weight (uses, re-exports), per file: looked up and summed, never iterated in an
/// order that reaches the output. Hashed with the fixed-seed fast hasher: SipHash on every
/// counted use was a sixth of ranking git/git.
pub type NameWeights = FastMap<String, f64>;

use crate::analyze::importance::{self, Role};
use crate::analyze::structure::CodeFacts;
use crate::paths;

const DAMPING: f64 = 0.85;
const ITERATIONS: usize = 30;
/// Most candidate definitions a reference is resolved among through imports.
const MAX_NARROWED: usize = 32;

/// One node of the graph: a file with its code facts and a personalisation weight.
pub struct Node<'a> {
    /// Path bytes.
    pub path: &'a [u8],
    /// Code facts.
    pub facts: &'a CodeFacts,
    /// Personalisation weight (1.0 normal; more for entry points and changed files).
    pub boost: f64,
    /// Whether the file is a package or crate root: the names it takes from other files are
    /// the package's public API (see [`Ranking::exported`]).
    pub root: bool,
}

/// The result of ranking: a score per node and, per node, how many other non-test files use
/// each name it defines.
#[derive(Default)]
pub struct Ranking {
    /// Score per node (same order as the nodes), summing to 1 before role factors; after
    /// them, comparable only with each other.
    pub scores: Vec<f64>,
    /// Per node: defined name → how much other non-test files use it: each using file counts
    /// with its personalisation weight, so a name that a package root re-exports, an entry
    /// point calls or a file changed right now uses counts more.
    pub used_by: Vec<NameWeights>,
    /// Per node: defined name → how many test, example and other non-source files use it:
    /// what the project's own clients call, which tells the public methods of a type apart
    /// (`Command.Execute`) where the library itself hardly calls them.
    pub client_uses: Vec<NameWeights>,
    /// Per node: defined name → the rank that package roots re-exporting it pass on (each
    /// root's score, split over the files its reference may mean), and for a root, its own
    /// public top-level definitions at its full weight. A package's public API ranks by its
    /// root, however little of the package's own code uses it.
    pub exported: Vec<NameWeights>,
    /// Per node: the weight of the API it exposes: its own score plus, for a package root,
    /// the scores of the files whose names it re-exports (each re-export's share). It ranks
    /// package roots by what their packages hold rather than by what the roots define.
    pub api_mass: Vec<f64>,
    /// Per node: whether a package root hands on its names through `export * from` (see
    /// [`hand_on_stars`]): a change to what it exports may change that root's list.
    pub star_handed: Vec<bool>,
    /// Per node: for a package root, the names it exports, heaviest first: the public
    /// top-level definitions ([`importance::is_exportable`]) its references may mean in
    /// other files (each times its share of the reference) and its own, each at its
    /// definition's weight ([`export_weight`]: kind, and how much other files and clients use
    /// it; not the rank of the file that defines it). Empty for
    /// every other node. What `import { … } from "@babel/core"` offers, in the order a
    /// newcomer needs it; what the root's own code merely calls (a method, a variable) is
    /// left out.
    pub root_exports: Vec<Vec<(String, f64)>>,
}

/// Ranks the nodes. Deterministic: nodes are visited in the order given, and the hash maps
/// are only looked up, never iterated into the result.
///
/// long-fn: one pass over every reference, each narrowing step reading the same per-file
/// state (roles, name spaces, modules, imports); split, each step would take most of it.
pub fn rank(nodes: &[Node<'_>]) -> Ranking {
    let n = nodes.len();
    if n == 0 {
        return Ranking::default();
    }
    let roles: Vec<Role> = nodes.iter().map(|n| importance::role(n.path)).collect();
    let spaces: Vec<&str> = nodes
        .iter()
        .map(|n| name_space(&n.facts.language))
        .collect();
    let modules: Vec<Vec<String>> = nodes
        .iter()
        .map(|n| importance::module_components(n.path))
        .collect();
    // Each node's imports as module paths, parsed once when first needed: by a package root's
    // importers or by a reference that imports could narrow.
    let imports: Vec<OnceCell<Vec<Vec<String>>>> = vec![OnceCell::new(); n];
    let imports_of = |i: usize| {
        imports[i]
            .get_or_init(|| import_paths(&nodes[i]))
            .as_slice()
    };
    let importers = package_importers(nodes, &roles, &modules, imports_of);
    let defined = definitions(nodes);
    // Edges with weights: a reference to a name defined in k candidate files splits over them.
    let mut out_edges: Vec<FastMap<usize, f64>> = vec![FastMap::default(); n];
    let mut used_by: Vec<NameWeights> = vec![NameWeights::default(); n];
    let mut client_uses: Vec<NameWeights> = vec![NameWeights::default(); n];
    // (root, target, name, share): re-exports, weighted by the root's score once it is known.
    let mut reexports: Vec<(usize, usize, &str, f64)> = Vec::new();
    // Per node: (target, name, share) of the names it hands on by name (`export { a }` of an
    // imported `a`), for the roots that hand it on whole ([`hand_on_stars`]).
    let mut handed: Vec<Vec<(usize, &str, f64)>> = vec![Vec::new(); n];
    // Reused for every reference: most resolve to one file or none, and an allocation each was
    // a tenth of ranking git/git.
    let mut targets: Vec<usize> = Vec::new();
    // Per referencing file: whether its imports name a candidate's module. The same few
    // headers or modules come up for reference after reference (matching every import of a C
    // file against them each time was a tenth of ranking git/git).
    let mut imported: FastMap<usize, bool> = FastMap::default();
    let python = PythonScope::new(nodes, &spaces);
    for (i, node) in nodes.iter().enumerate() {
        imported.clear();
        let mut named = |t: usize| {
            *imported
                .entry(t)
                .or_insert_with(|| imports_module(imports_of(i), &modules[t]))
        };
        for r in &node.facts.references {
            let Some((all, standard)) = defined.get(r.as_str()) else {
                continue;
            };
            plausible(i, all, &roles, &spaces, &mut targets);
            if matches!(spaces[i], "Java" | "C#") {
                java_scope(imports_of(i), node.facts, r, nodes, &modules, &mut targets);
            } else if spaces[i] == "Rust" && uses_from_the_standard_library(&node.facts.imports, r)
            {
                targets.clear();
            } else if spaces[i] == "PHP"
                && targets.len() > 1
                && node.facts.member_references.binary_search(r).is_err()
            {
                // Only where there is a choice: the rank visits every reference.
                let wanted = php_namespaces(node.facts, r);
                narrow(&mut targets, &mut |t| {
                    php_declares(&wanted, nodes[t].facts.namespace.as_deref())
                });
            }
            // A name used only as a value's member (`x.is_empty()`) means a method, field or
            // property: not fd's free `fn is_empty`, which every `.is_empty()` made central.
            if node.facts.member_references.binary_search(r).is_ok() {
                targets.retain(|&t| defines_member(nodes[t].facts, r));
            }
            // A Go name written only after another package's (`zapcore.Core`) is that
            // package's top-level definition: not the file's own package's, which
            // `same_package_first` would keep (a method `Logger.Core` of the root took every
            // `zapcore.Core`), nor a field of the name (`Field.String` had `zap.String`'s).
            let packages: Vec<&str> = match spaces[i] {
                "Go" => node.facts.qualifying_packages(r).collect(),
                _ => Vec::new(),
            };
            if !packages.is_empty() {
                let defining: Vec<&[u8]> = all.iter().map(|&t| nodes[t].path).collect();
                targets.retain(|&t| {
                    dir_of(nodes[t].path) != dir_of(node.path)
                        && defines_top_level(nodes[t].facts, r)
                        && in_qualifying_package(&packages, nodes[t].path, &defining)
                });
            } else if own_package_first(spaces[i], &node.facts.imports, r) {
                same_package_first(nodes[i].path, nodes, &mut targets);
            }
            // A Python class, and any module-level name used on its own (not as a value's
            // member), comes from an import: a file that imports none of the modules defining
            // it means another (black's test data, which imports only `sys`, "used"
            // `src/black/__init__.py` and `blackd`). A method is reached through a value,
            // whatever the extraction took the value for (`app.route`, with `app` a name the
            // file's imports hold too).
            let capitalised = r.starts_with(|c: char| c.is_ascii_uppercase());
            let bare = node.facts.member_references.binary_search(r).is_err();
            if spaces[i] == "Python" && (bare || capitalised) {
                targets.retain(|&t| {
                    (!capitalised && !defines_top_level(nodes[t].facts, r))
                        || named(t)
                        || python.through_package(i, t, imports_of, &modules)
                        || python.through_module(i, t, imports_of, &modules, &spaces)
                });
            }
            if standard.in_space(spaces[i]) && !imports_by_name(&node.facts.imports, r) {
                targets.retain(|&t| named(t));
            } else if narrowable(&targets) {
                if !node.facts.imports.is_empty() {
                    narrow(&mut targets, &mut named);
                }
                narrow_by_file_name(spaces[i], r, &mut targets, &modules);
            }
            if targets.is_empty() {
                continue;
            }
            let w = 1.0 / targets.len() as f64;
            // A use that could mean any of dozens of definitions says nothing about each.
            let narrowed = targets.len() <= MAX_NARROWED;
            let counts = roles[i] == Role::Source && narrowed;
            let client = roles[i] != Role::Source && narrowed;
            let named = |l: &[String]| l.binary_search(r).is_ok();
            let names_it = named(&node.facts.reexports) || named(&node.facts.type_reexports);
            let member_only = node.facts.member_references.binary_search(r).is_ok();
            for &t in &targets {
                let share = member_share(spaces[i], member_only, node.facts, nodes[t].facts, r)
                    * annotation_share(roles[i], nodes[t].facts, r);
                let w = w * share;
                *out_edges[i].entry(t).or_default() += w;
                if node.root && counts && importance::hands_on(node.facts, r) {
                    reexports.push((i, t, r.as_str(), w));
                }
                if names_it && counts {
                    handed[i].push((t, r.as_str(), w));
                }
                if counts {
                    add_use(&mut used_by[t], r, node.boost * share);
                } else if client {
                    add_use(&mut client_uses[t], r, share);
                }
            }
        }
    }
    let star_handed = hand_on_stars(nodes, &modules, &handed, &mut reexports);
    let mut score = pagerank(out_edges, nodes);
    for ((s, r), node) in score.iter_mut().zip(&roles).zip(nodes) {
        *s *= r.factor() * importance::utility_factor(node.path);
    }
    let (exported, api_mass) = exported_and_mass(nodes, &score, &importers, &reexports);
    let root_exports = root_exports(nodes, &used_by, &client_uses, &reexports);
    Ranking {
        scores: score,
        used_by,
        client_uses,
        exported,
        api_mass,
        root_exports,
        star_handed,
    }
}

/// What each file exports, by name, and the weight of the API each root exposes: a root
/// weighs its own score times the number of files that import its package (plus one), so in a
/// monorepo the package everyone imports (`@babel/core`) is the API, whatever the rank of the
/// files that define it.
fn exported_and_mass(
    nodes: &[Node<'_>],
    score: &[f64],
    importers: &[u32],
    reexports: &[(usize, usize, &str, f64)],
) -> (Vec<NameWeights>, Vec<f64>) {
    let weight = |root: usize| score[root] * (1.0 + f64::from(importers[root]));
    let mut exported: Vec<NameWeights> = vec![NameWeights::default(); nodes.len()];
    let mut api_mass = score.to_vec();
    for &(root, t, name, share) in reexports {
        *exported[t].entry(name.to_owned()).or_default() += weight(root) * share;
        api_mass[root] += score[t] * share;
    }
    add_own_exports(nodes, &mut exported, |i, _| weight(i));
    for (i, m) in api_mass.iter_mut().enumerate() {
        *m *= 1.0 + f64::from(importers[i]);
    }
    (exported, api_mass)
}

/// Python names no class it does not import: a capitalised name another file defines means
/// that file's only where the using file imports its module ([`rank`] asks that first), or a
/// package whose `__init__.py` does. fastapi's `from starlette.responses import Response` made
/// twenty of its files users of its OpenAPI model `Response`.
struct PythonScope {
    /// The Python package roots (`__init__.py`) among the nodes.
    roots: Vec<usize>,
    /// Per node: the package roots it imports, found once it needs them.
    imported: Vec<OnceCell<Vec<usize>>>,
    /// The Python modules by module path, built once a reference needs it.
    by_module: OnceCell<HashMap<Vec<String>, usize>>,
    /// Per node: the project's modules it imports, found once it needs them.
    imported_modules: Vec<OnceCell<Vec<usize>>>,
}

impl PythonScope {
    fn new(nodes: &[Node<'_>], spaces: &[&str]) -> Self {
        let init = |i: usize| paths::file_name(nodes[i].path) == b"__init__.py";
        let roots = (0..nodes.len())
            .filter(|&i| spaces[i] == "Python" && init(i))
            .collect();
        PythonScope {
            roots,
            imported: vec![OnceCell::new(); nodes.len()],
            by_module: OnceCell::new(),
            imported_modules: vec![OnceCell::new(); nodes.len()],
        }
    }

    /// Whether node `i` imports a module of the project that imports the module of node `t`:
    /// uvicorn's `__init__.py` has `from uvicorn.main import Server`, and `main.py` has `from
    /// uvicorn.server import Server` (a stub `Server` of its websockets protocol took the
    /// package's export).
    fn through_module<'n>(
        &self,
        i: usize,
        t: usize,
        imports_of: impl Fn(usize) -> &'n [Vec<String>],
        modules: &[Vec<String>],
        spaces: &[&str],
    ) -> bool {
        let by_module = self.by_module.get_or_init(|| {
            (0..modules.len())
                .filter(|&m| spaces[m] == "Python" && !modules[m].is_empty())
                .map(|m| (modules[m].clone(), m))
                .collect()
        });
        let via = self.imported_modules[i].get_or_init(|| {
            let mut via: Vec<usize> = imports_of(i)
                .iter()
                .filter_map(|imp| by_module.get(imp).copied())
                .filter(|&m| m != i)
                .collect();
            via.sort_unstable();
            via.dedup();
            via
        });
        via.iter()
            .any(|&m| m != t && imports_module(imports_of(m), &modules[t]))
    }

    /// Whether node `i` imports a package whose `__init__.py` imports the module of node `t`.
    fn through_package<'n>(
        &self,
        i: usize,
        t: usize,
        imports_of: impl Fn(usize) -> &'n [Vec<String>],
        modules: &[Vec<String>],
    ) -> bool {
        let roots = self.imported[i].get_or_init(|| {
            let imports = imports_of(i);
            let imported = |&p: &usize| p != i && imports_module(imports, &modules[p]);
            self.roots.iter().copied().filter(imported).collect()
        });
        roots
            .iter()
            .any(|&p| imports_module(imports_of(p), &modules[t]))
    }
}

/// Whether a file defines `name` outside any other definition (a module's function, class
/// or variable, not a method).
fn defines_top_level(facts: &CodeFacts, name: &str) -> bool {
    facts
        .symbols
        .iter()
        .any(|s| s.parent().is_none() && s.name() == name)
}

/// Narrows what a Java or C# type name means as the languages scope it. A Java file that
/// imports a type of the name (`import java.util.List;`) means that type, not one of the
/// project's the import does not name: a nested `@interface List` of mybatis's `Select` had
/// every `java.util.List` use, and a nested `interface Test` every JUnit `@Test`. And a type
/// nested in another is named on its own only where its outer type is named too (inside it,
/// in a subclass, or as `Outer.Nested`).
fn java_scope(
    imports: &[Vec<String>],
    facts: &CodeFacts,
    r: &str,
    nodes: &[Node<'_>],
    modules: &[Vec<String>],
    targets: &mut Vec<usize>,
) {
    imported_by_name(imports, r, modules, targets);
    targets.retain(|&t| {
        let symbols = &nodes[t].facts.symbols;
        let mut defined = symbols.iter().filter(|s| s.name() == r).peekable();
        let nested = defined.peek().is_some()
            && defined.all(|s| {
                repocue_structure::symbol_priority(&s.kind) == 0
                    && s.parent().is_some_and(|outer| {
                        symbols.iter().any(|o| {
                            o.qualified_name == outer
                                && repocue_structure::symbol_priority(&o.kind) == 0
                        })
                    })
            });
        !nested
            || symbols.iter().filter(|s| s.name() == r).any(|s| {
                let outer = s.parent().map(|p| p.rsplit('.').next().unwrap_or(p));
                outer.is_some_and(|o| {
                    facts
                        .references
                        .binary_search_by(|x| x.as_str().cmp(o))
                        .is_ok()
                })
            })
    });
}

/// The namespaces a bare name `r` of a PHP file is resolved in: that of each `use` of a name
/// ending in it (`use Ramsey\Uuid\UuidInterface;` for `UuidInterface`), else the file's own
/// (`CodeFacts::namespace`); none where the file's namespace is unknown. PHP folds the case of
/// class names and namespaces.
pub(crate) fn php_namespaces<'a>(facts: &'a CodeFacts, r: &str) -> Vec<&'a str> {
    let used: Vec<&str> = facts
        .imports
        .iter()
        .filter_map(|imp| {
            let (space, last) = imp.rsplit_once('\\').unwrap_or(("", imp.as_str()));
            last.eq_ignore_ascii_case(r).then_some(space)
        })
        .collect();
    match used.is_empty() {
        true => facts.namespace.as_deref().into_iter().collect(),
        false => used,
    }
}

/// Whether a PHP file declared in `namespace` holds what a name resolved in `wanted`
/// ([`php_namespaces`]) means. Of a name's definitions, the ranking and the entity view keep
/// those where one does: `UuidInterface` in a file that uses `Ramsey\Uuid\UuidInterface` is
/// `src/UuidInterface.php`'s, not `src/Rfc4122/UuidInterface.php`'s (namespace
/// `Ramsey\Uuid\Rfc4122`). Where none does (a name written qualified in the code, which the
/// facts do not keep, or a definition outside the project), every definition stays.
pub(crate) fn php_declares(wanted: &[&str], namespace: Option<&str>) -> bool {
    namespace.is_some_and(|n| wanted.iter().any(|w| w.eq_ignore_ascii_case(n)))
}

/// Whether a Rust file brings the name `r` in from the standard library (`use
/// core::fmt::Display;`, `use std::error::Error;`): it means no definition of the project
/// then (thiserror's `attr.rs` had every `core::fmt::Display` user's reference). A workspace's
/// crates are used by their package names, which their directories need not share; their
/// uses stay resolved by name.
/// Imports are the `use` paths as written: `crate::core::configure` is the crate's own `core`.
fn uses_from_the_standard_library(imports: &[String], r: &str) -> bool {
    imports.iter().any(|imp| {
        let path = imp.trim().trim_start_matches("::");
        let standard = ["std::", "core::", "alloc::"]
            .iter()
            .any(|c| path.starts_with(c));
        standard && path.rsplit("::").next() == Some(r)
    })
}

/// Keeps the `targets` whose module an import that ends in the name `r` names, where one does:
/// a Java `import java.util.List;` decides what the name means in the file.
fn imported_by_name(
    imports: &[Vec<String>],
    r: &str,
    modules: &[Vec<String>],
    targets: &mut Vec<usize>,
) {
    let by_name: Vec<&Vec<String>> = imports
        .iter()
        .filter(|imp| imp.last().is_some_and(|last| last == r))
        .collect();
    if !by_name.is_empty() {
        targets.retain(|&t| {
            by_name
                .iter()
                .any(|imp| importance::import_names_module(imp, &modules[t]))
        });
    }
}

/// Name → the files defining it, and which languages provide it ([`Standard`]). Only looked
/// up, never iterated, so deterministic: spares a tree's string comparisons and SipHash (each
/// a tenth of ranking 20,000 files).
fn definitions<'a>(nodes: &[Node<'a>]) -> FastMap<&'a str, (Vec<usize>, Standard)> {
    let symbols = nodes.iter().map(|n| n.facts.symbols.len()).sum();
    let mut defined: FastMap<&str, (Vec<usize>, Standard)> =
        FastMap::with_capacity_and_hasher(symbols, Default::default());
    for (i, node) in nodes.iter().enumerate() {
        for s in &node.facts.symbols {
            let name = s.name();
            let (list, _) = defined
                .entry(name)
                .or_insert_with(|| (Vec::new(), Standard::of(name)));
            if list.last() != Some(&i) {
                list.push(i);
            }
        }
    }
    defined
}

/// What a member use counts in a Java or C# file that names no type of the project defining
/// the member ([`names_an_owner`]).
const UNNAMED_OWNER_SHARE: f64 = 0.2;

/// The share of a use of `name` by `user` (of name space `space`) that goes to `def`. In Java
/// and C#, a value's type is named where the value is declared: a member use (`member_only`)
/// in a file that names no type `def` defines the member in is most often one of a library's
/// type (`map.get`, `list.Add`: mockito's `HashCodeAndEqualsSafeSet` ranked by every
/// collection's `contains`), and counts [`UNNAMED_OWNER_SHARE`].
fn member_share(
    space: &str,
    member_only: bool,
    user: &CodeFacts,
    def: &CodeFacts,
    name: &str,
) -> f64 {
    if !member_only {
        return 1.0;
    }
    // A C# extension method (`public static string Humanize(this string input)`) is called on
    // a value of another type, never through its class: Humanizer's whole API counted a fifth.
    let extension = space == "C#"
        && def
            .symbols
            .iter()
            .any(|s| s.name() == name && s.kind == "method" && s.signature.contains("(this "));
    let unnamed_owner =
        matches!(space, "Java" | "C#") && !extension && !names_an_owner(user, def, name);
    match unnamed_owner || is_standard_method(space, name) {
        true => UNNAMED_OWNER_SHARE,
        false => 1.0,
    }
}

/// Whether a method name is one the language's standard types define and code calls all the
/// time, where no type names the receiver (Rust, Go, JavaScript and TypeScript, Python infer
/// or leave types unwritten): such a use means a project's method of the name less often than
/// an `Option`'s, a slice's or a console's. http's `Request.map` was "used" by every
/// `Option::map`, and execa's private `COLORS.error` by every `console.error()`.
fn is_standard_method(space: &str, name: &str) -> bool {
    const RUST: &[&str] = &[
        "and_then",
        "as_bytes",
        "as_mut",
        "as_ref",
        "as_str",
        "clear",
        "cmp",
        "collect",
        "contains",
        "default",
        "drain",
        "entry",
        "eq",
        "extend",
        "filter",
        "flush",
        "fmt",
        "from",
        "get",
        "get_mut",
        "hash",
        "insert",
        "into",
        "into_iter",
        "is_empty",
        "is_none",
        "is_some",
        "iter",
        "iter_mut",
        "keys",
        "len",
        "map",
        "map_err",
        "next",
        "ok",
        "partial_cmp",
        "pop",
        "push",
        "read",
        "remove",
        "take",
        "unwrap",
        "unwrap_or",
        "values",
        "write",
    ];
    const GO: &[&str] = &[
        "Add", "Bytes", "Close", "Del", "Done", "Err", "Get", "Len", "Lock", "Next", "Read",
        "Reset", "Scan", "Set", "Unlock", "Wait", "Write",
    ];
    const JAVASCRIPT: &[&str] = &[
        "add", "catch", "concat", "debug", "delete", "entries", "error", "every", "filter",
        "finally", "find", "forEach", "get", "has", "includes", "indexOf", "info", "join", "keys",
        "log", "map", "push", "reduce", "replace", "set", "slice", "some", "split", "then", "trim",
        "values", "warn",
    ];
    const PYTHON: &[&str] = &[
        "add",
        "append",
        "close",
        "copy",
        "decode",
        "encode",
        "endswith",
        "extend",
        "format",
        "get",
        "items",
        "join",
        "keys",
        "lower",
        "pop",
        "read",
        "remove",
        "replace",
        "split",
        "startswith",
        "strip",
        "update",
        "upper",
        "values",
        "write",
    ];
    let names: &[&str] = match space {
        "Rust" => RUST,
        "Go" => GO,
        "JavaScript" => JAVASCRIPT,
        "Python" => PYTHON,
        _ => return false,
    };
    names.contains(&name)
}

/// What a use of an annotation type by the project's own code counts
/// ([`annotation_share`]).
const ANNOTATION_SHARE: f64 = 0.2;

/// The share of a use of `name` by a file of `role` that goes to `def`: a Java annotation type
/// (`@interface`) or a C# attribute class (`…Attribute`) that the project's own code puts on
/// its declarations is metadata, not an API it calls (mockito's `@NotExtensible`, on every
/// public interface, joined its overview once annotations were uses); its users' uses
/// (tests', examples': `@Mock`) count in full.
fn annotation_share(role: Role, def: &CodeFacts, name: &str) -> f64 {
    if role != Role::Source || !matches!(def.language.as_str(), "Java" | "C#") {
        return 1.0;
    }
    let annotation = |s: &&crate::analyze::structure::SymbolFact| {
        s.signature.contains("@interface")
            || (def.language == "C#" && name.ends_with("Attribute") && s.kind == "class")
    };
    let annotates = role == Role::Source
        && def
            .symbols
            .iter()
            .filter(|s| s.name() == name && s.parent().is_none())
            .any(|s| annotation(&s));
    match annotates {
        true => ANNOTATION_SHARE,
        false => 1.0,
    }
}

/// Whether a file (`user`) names a type that `def` defines `member` in: the member's owner
/// (`Accessor` of `Accessor.get`).
fn names_an_owner(user: &CodeFacts, def: &CodeFacts, member: &str) -> bool {
    def.symbols
        .iter()
        .filter(|s| s.name() == member && s.is_member())
        .filter_map(|s| s.parent())
        .map(|p| p.rsplit(['.', ':']).next().unwrap_or(p))
        .any(|owner| {
            user.references
                .binary_search_by(|r| r.as_str().cmp(owner))
                .is_ok()
        })
}

/// Whether `facts` define `name` as a member of something (a method, field or property:
/// `Engine.is_empty`), not only at their top level.
fn defines_member(facts: &CodeFacts, name: &str) -> bool {
    facts
        .symbols
        .iter()
        .any(|s| s.name() == name && s.is_member())
}

/// How many `export * from` steps a package root's exports are followed through (zod's
/// `index.ts` → `v4/classic/external.ts` → `schemas.ts`).
const STAR_DEPTH: usize = 3;

/// The module a Rust file's `use` path names, as [`importance::module_components`] names a
/// file's: `crate::engine` from `src/lib.rs` is `src/engine` (`src/engine.rs` or
/// `src/engine/mod.rs`), `self::x` and a bare `x` are the file's own module's child. `None`
/// for a path from another crate's root or above (`super::`, `::`), which no file of this
/// crate's tree is.
fn rust_module(file: &[u8], path: &str) -> Option<Vec<String>> {
    let mut module = if path == "crate" || path.starts_with("crate::") {
        let dir = importance::rust_crate_dir(file);
        importance::module_components(&[dir, b"lib.rs"].concat())
    } else if path.starts_with("super") || path.starts_with("::") {
        return None;
    } else {
        importance::module_components(file)
    };
    module.extend(importance::import_components(file, path));
    Some(module)
}

/// Adds to `reexports` every exportable definition that a package root hands on through
/// `export * from "./x"` (and what `x` hands on the same way, [`STAR_DEPTH`] steps), each at
/// a full share, and the names `x` hands on by name (`handed`), at their shares; returns, per
/// node, whether some root's exports reach it that way.
fn hand_on_stars<'a>(
    nodes: &[Node<'a>],
    modules: &[Vec<String>],
    handed: &[Vec<(usize, &'a str, f64)>],
    reexports: &mut Vec<(usize, usize, &'a str, f64)>,
) -> Vec<bool> {
    let mut reached = vec![false; nodes.len()];
    let whole = handed_whole(nodes);
    let roots: Vec<usize> = (0..nodes.len())
        .filter(|&i| {
            nodes[i].root && !(nodes[i].facts.star_exports.is_empty() && whole[i].is_empty())
        })
        .collect();
    if roots.is_empty() {
        return reached;
    }
    let mut by_module: FastMap<&[String], Vec<usize>> = FastMap::default();
    for (i, m) in modules.iter().enumerate() {
        by_module.entry(m.as_slice()).or_default().push(i);
    }
    // The files a node hands on whole.
    let stars = |from: usize| -> Vec<usize> {
        let mut targets: Vec<usize> = whole[from].clone();
        for star in nodes[from].facts.star_exports.iter() {
            let module = if nodes[from].facts.language == "Rust" {
                rust_module(nodes[from].path, star)
            } else if star.starts_with('.') {
                Some(importance::import_components(nodes[from].path, star))
            } else {
                None
            };
            if let Some(module) = module {
                targets.extend(by_module.get(module.as_slice()).into_iter().flatten());
            }
        }
        targets
    };
    for root in roots {
        let mut seen = vec![root];
        let mut frontier = vec![root];
        for _ in 0..STAR_DEPTH {
            let mut next = Vec::new();
            for &from in &frontier {
                for t in stars(from) {
                    if seen.contains(&t) {
                        continue;
                    }
                    seen.push(t);
                    next.push(t);
                    reached[t] = true;
                    let names = nodes[t].facts.symbols.iter();
                    for s in names.filter(|s| is_listed_export(nodes[t].facts, s)) {
                        reexports.push((root, t, s.name(), 1.0));
                    }
                    // And what it hands on by name, from where it is defined (trpc's
                    // `export * from './@trpc/server'`, whose index imports `initTRPC`
                    // and exports it).
                    for &(defined, name, share) in &handed[t] {
                        reexports.push((root, defined, name, share));
                        reached[defined] = true;
                    }
                }
            }
            frontier = next;
        }
    }
    reached
}

/// Per node: the files a package root hands on whole without saying so in code: what a C or
/// C++ library's umbrella header includes ([`importance::umbrella_includes`]), and the
/// package a Java library's root `package-info.java` documents, the files of its directory
/// ([`importance::java_root_packages`]). Empty for every other node.
fn handed_whole(nodes: &[Node<'_>]) -> Vec<Vec<usize>> {
    let mut whole: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    let mut by_path: Option<FastMap<&[u8], usize>> = None;
    for (i, n) in nodes.iter().enumerate().filter(|(_, n)| n.root) {
        let umbrella = importance::umbrella_includes(n.path, n.facts);
        let package = n.path.ends_with(b"package-info.java");
        if umbrella.is_empty() && !package {
            continue;
        }
        let by_path = by_path
            .get_or_insert_with(|| nodes.iter().enumerate().map(|(i, n)| (n.path, i)).collect());
        whole[i] = umbrella
            .iter()
            .filter_map(|p| by_path.get(p.as_slice()).copied())
            .collect();
        if package {
            let dir = &n.path[..n.path.len() - b"package-info.java".len()];
            let mut members: Vec<(&[u8], usize)> = by_path
                .iter()
                .filter(|(p, &t)| t != i && p.starts_with(dir) && !p[dir.len()..].contains(&b'/'))
                .map(|(p, &t)| (*p, t))
                .collect();
            // By path: the map's order is no order.
            members.sort_unstable();
            whole[i] = members.into_iter().map(|(_, t)| t).collect();
        }
    }
    whole
}

/// [`Ranking::root_exports`], from the uses of the ranked nodes' names (`used_by`,
/// `client_uses`) and the roots' references to other files' definitions (`reexports`).
fn root_exports(
    nodes: &[Node<'_>],
    used_by: &[NameWeights],
    client_uses: &[NameWeights],
    reexports: &[(usize, usize, &str, f64)],
) -> Vec<Vec<(String, f64)>> {
    let mut exports: Vec<NameWeights> = vec![NameWeights::default(); nodes.len()];
    let weigh = |t: usize, s: &crate::analyze::structure::SymbolFact| {
        export_weight(nodes[t].facts, s, &used_by[t], &client_uses[t])
    };
    for &(root, t, name, share) in reexports {
        let public = nodes[t]
            .facts
            .symbols
            .iter()
            .filter(|s| {
                let facts = nodes[t].facts;
                s.name() == name && (is_listed_export(facts, s) || is_ruby_export(facts, s))
            })
            .map(|s| weigh(t, s))
            .reduce(f64::max);
        if let Some(w) = public {
            let factor = reexport_factor(&nodes[root], &nodes[t], name);
            add_use(&mut exports[root], name, share * w * factor);
        }
    }
    add_own_exports(nodes, &mut exports, weigh);
    // A root's default export, whatever it is (ky's `const ky`), and the constants it exports
    // are in its list, though only its types and functions weigh as API among the symbols
    // ([`add_own_exports`]).
    for (i, node) in nodes.iter().enumerate().filter(|(_, n)| n.root) {
        for s in node
            .facts
            .symbols
            .iter()
            .filter(|s| !importance::is_exportable(s) && is_listed_export(node.facts, s))
        {
            add_use(&mut exports[i], s.name(), weigh(i, s));
        }
    }
    exports
        .into_iter()
        .zip(nodes)
        .map(|(names, node)| default_first(by_weight(guards_after(names)), node.facts))
        .collect()
}

/// An exports list's type guards after the types they test: `isHTTPError` is a helper of
/// `HTTPError`, which every caller of it names too (ky's root listed `isHTTPError
/// isNetworkError isTimeoutError isForceRetryError` before any of its error classes). A name
/// `is<Name>` of a list that holds `<Name>` weighs at most half of it.
fn guards_after(mut names: NameWeights) -> NameWeights {
    let guards: Vec<(String, f64)> = names
        .keys()
        .filter_map(|n| {
            let tested = n.strip_prefix("is")?;
            tested
                .starts_with(|c: char| c.is_ascii_uppercase())
                .then_some(())?;
            Some((n.clone(), *names.get(tested)?))
        })
        .collect();
    for (guard, tested) in guards {
        if let Some(w) = names.get_mut(&guard) {
            *w = w.min(tested * 0.5);
        }
    }
    names
}

/// An exports list with the module's default export first, at the weight of the heaviest: it
/// is what a user imports the package as (`import ky from "ky"`), whatever else its code
/// calls more (ky's root listed `isHTTPError isNetworkError … KyError`, not `ky`).
fn default_first(mut list: Vec<(String, f64)>, facts: &CodeFacts) -> Vec<(String, f64)> {
    let at = facts
        .default_export
        .as_deref()
        .and_then(|d| list.iter().position(|(n, _)| n == d));
    if let Some(at) = at {
        let top = list[0].1;
        let mut default = list.remove(at);
        default.1 = default.1.max(top);
        list.insert(0, default);
    }
    list
}

/// What a name a package root hands on from another of its package's files weighs against
/// the same definition exported by the root itself: [`TYPE_ONLY_EXPORT`] for a TypeScript
/// type handed on alone (`export type { default as PluginPass }`, a class's type), times
/// [`FOREIGN_REEXPORT`] for a definition of another package, a convenience (`@babel/core`
/// hands on `@babel/traverse`'s `traverse` and `Scope`, which would lead its list by their
/// uses).
fn reexport_factor(root: &Node<'_>, target: &Node<'_>, name: &str) -> f64 {
    let listed = |l: &[String]| l.binary_search_by(|r| r.as_str().cmp(name)).is_ok();
    let facts = root.facts;
    let mut factor = 1.0;
    if listed(&facts.type_reexports) && !listed(&facts.reexports) {
        factor *= TYPE_ONLY_EXPORT;
    }
    if !target.path.starts_with(package_dir(root.path)) {
        factor *= FOREIGN_REEXPORT;
    }
    factor
}

/// What a package root's re-export of another package's definition counts for
/// ([`reexport_factor`]). Measured with `bench/quality/run.sh`; see the commit that set it.
const FOREIGN_REEXPORT: f64 = 0.25;

/// The directory of a package root's package, with its `/`: the root's own, or its parent
/// when that is `src` or `lib` (`packages/babel-core/` for `packages/babel-core/src/index.ts`).
fn package_dir(root: &[u8]) -> &[u8] {
    let dir = &root[..root.len() - crate::paths::file_name(root).len()];
    for source in [b"src/".as_slice(), b"lib/"] {
        if dir == source {
            return b"";
        }
        if dir.ends_with(source) && dir[dir.len() - source.len() - 1] == b'/' {
            return &dir[..dir.len() - source.len()];
        }
    }
    dir
}

/// What a test, example or other client file that uses a name counts for in an exports list,
/// against a use by the project's own code: what the tests call is what a package's users call
/// (`@babel/core`'s `transformSync`, which 17 test files call and 9 source files). Measured
/// with `bench/quality/run.sh` against 0, 0.5 (and 0.25): 0.5 put flask's `Flask` first but lost
/// babel's `transformFromAstSync`, 0 lost flask's `render_template` for `send_from_directory`
/// at 500 tokens, 0.25 keeps both.
const EXPORT_CLIENT_WEIGHT: f64 = 0.25;

/// What a definition weighs in an exports list: its kind and visibility, and how much the
/// project's other files (`used_by`) and its clients (`client_uses`) use it
/// ([`importance::symbol_weight`]). Not the rank of the file that defines it: a package's
/// exports are its API whichever of its files holds them, and the internal modules every file
/// of the package imports (`@babel/traverse`'s `Scope`, `@babel/core`'s configuration loader)
/// otherwise led the list for names a user hardly calls (`loadPartialConfigAsync`).
fn export_weight(
    facts: &CodeFacts,
    s: &crate::analyze::structure::SymbolFact,
    used_by: &NameWeights,
    client_uses: &NameWeights,
) -> f64 {
    let of = |m: &NameWeights| m.get(s.name()).copied().unwrap_or(0.0);
    let uses = of(used_by) + EXPORT_CLIENT_WEIGHT * of(client_uses);
    importance::symbol_weight(s, uses) * type_only_factor(&facts.language, s)
}

/// The exports list of a file that is its package's root in place of the root that hands over
/// to it, from its own definitions alone, as [`Ranking::root_exports`] lists a root's own:
/// `used_by` and `client_uses` are the uses of its names.
pub fn own_exports(
    facts: &CodeFacts,
    used_by: &NameWeights,
    client_uses: &NameWeights,
) -> Vec<(String, f64)> {
    let mut names = NameWeights::default();
    for s in facts.symbols.iter().filter(|s| is_listed_export(facts, s)) {
        add_use(
            &mut names,
            s.name(),
            export_weight(facts, s, used_by, client_uses),
        );
    }
    default_first(by_weight(guards_after(names)), facts)
}

/// The exports list of a package's root namespace ([`crate::analyze::manifest::ManifestFacts::
/// namespace_roots`]: guzzle's `src/`, Polly's `src/Polly.Core/`) from its own files' code
/// facts, each with the uses of its names: the PHP and C# types and functions they define
/// at the top or in a namespace ([`is_namespace_export`]), a name at the weight of its
/// heaviest definition (a C# partial class is defined in several files), heaviest first.
pub fn namespace_exports<'a>(
    files: impl Iterator<Item = (&'a CodeFacts, &'a NameWeights, &'a NameWeights)>,
) -> Vec<(String, f64)> {
    let mut names = NameWeights::default();
    for (facts, used_by, client_uses) in files {
        for s in facts
            .symbols
            .iter()
            .filter(|s| is_namespace_export(facts, s))
        {
            let of = |m: &NameWeights| m.get(s.name()).copied().unwrap_or(0.0);
            let w = importance::symbol_weight(s, of(used_by) + of(client_uses));
            let e = names.entry(s.name().to_owned()).or_default();
            *e = e.max(w);
        }
    }
    by_weight(names)
}

/// Whether a PHP or C# definition is what a package's root namespace gives its users: a type
/// or function at the top or in a namespace (PHP declares no visibility for either, and every
/// one is public; a C# one is unless `internal`), not a member, a name that starts with `_`.
fn is_namespace_export(facts: &CodeFacts, s: &crate::analyze::structure::SymbolFact) -> bool {
    if !matches!(facts.language.as_str(), "PHP" | "C#")
        || s.visibility.as_deref().is_some_and(|v| v != "public")
        || repocue_structure::symbol_priority(&s.kind) > 1
        || matches!(s.kind.as_str(), "module" | "impl" | "macro")
        || s.name().starts_with('_')
    {
        return false;
    }
    s.parent().is_none_or(|p| {
        facts
            .symbols
            .iter()
            .any(|o| o.qualified_name == p && o.kind == "module")
    })
}

/// How much a TypeScript type alias or interface counts in a package's exports list, against
/// its functions and classes. The types describe what the functions take and return, and
/// every module of the package names them, so by uses they led the list: `@babel/core`'s
/// read `NodePath Scope InputOptions PluginItem CallerMetadata NormalizedOptions`, without
/// the `transformSync` and `loadOptions` a user calls. (Only TypeScript: a Go or Java
/// interface, a Rust trait, is API a user implements or calls through.) Measured with
/// `bench/quality/run.sh`; see the commit that set it.
const TYPE_ONLY_EXPORT: f64 = 0.1;

/// [`TYPE_ONLY_EXPORT`] for a TypeScript type alias or interface, else 1.
fn type_only_factor(language: &str, s: &crate::analyze::structure::SymbolFact) -> f64 {
    let typescript = matches!(language, "TypeScript" | "TSX");
    if typescript && matches!(s.kind.as_str(), "type" | "interface") {
        TYPE_ONLY_EXPORT
    } else {
        1.0
    }
}

/// Names by weight, heaviest first (equal weights by name): a deterministic order from a map
/// that is never iterated into the output otherwise.
fn by_weight(names: NameWeights) -> Vec<(String, f64)> {
    let mut v: Vec<(String, f64)> = names.into_iter().collect();
    v.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    v
}

/// The stationary scores of a random walk along the weighted `out_edges` that restarts (and
/// leaves files without links) in proportion to each node's personalisation weight.
fn pagerank(out_edges: Vec<FastMap<usize, f64>>, nodes: &[Node<'_>]) -> Vec<f64> {
    let out_edges: Vec<Vec<(usize, f64)>> = out_edges
        .into_iter()
        .map(|m| {
            let mut v: Vec<(usize, f64)> = m.into_iter().collect();
            v.sort_by_key(|e| e.0);
            let total: f64 = v.iter().map(|e| e.1).sum();
            v.into_iter().map(|(t, w)| (t, w / total)).collect()
        })
        .collect();
    let boost_total: f64 = nodes.iter().map(|n| n.boost).sum();
    let personal: Vec<f64> = nodes.iter().map(|n| n.boost / boost_total).collect();
    let mut score = personal.clone();
    for _ in 0..ITERATIONS {
        let mut next: Vec<f64> = personal.iter().map(|p| (1.0 - DAMPING) * p).collect();
        let mut dangling = 0.0;
        for (i, edges) in out_edges.iter().enumerate() {
            if edges.is_empty() {
                dangling += score[i];
            }
            for &(t, w) in edges {
                next[t] += DAMPING * score[i] * w;
            }
        }
        for (x, p) in next.iter_mut().zip(&personal) {
            *x += DAMPING * dangling * p;
        }
        score = next;
    }
    score
}

/// Adds to `exported` each package root's own public top-level types and functions
/// ([`importance::is_exportable`]), at the `weight` of the root and definition: they are its
/// package's API as much as what it re-exports (`@babel/parser`'s `parseExpression`, defined
/// in its `index.ts`).
fn add_own_exports(
    nodes: &[Node<'_>],
    exported: &mut [NameWeights],
    weight: impl Fn(usize, &crate::analyze::structure::SymbolFact) -> f64,
) {
    for (i, node) in nodes.iter().enumerate().filter(|(_, n)| n.root) {
        for s in node
            .facts
            .symbols
            .iter()
            .filter(|s| importance::is_exportable(s))
        {
            *exported[i].entry(s.name().to_owned()).or_default() += weight(i, s);
        }
    }
}

/// Whether a file exports its definition `s` as part of its package's API: a public
/// top-level type or function ([`importance::is_exportable`]), or whatever top-level
/// definition it exports as its default (ky's `const ky = createInstance()`).
fn is_own_export(facts: &CodeFacts, s: &crate::analyze::structure::SymbolFact) -> bool {
    importance::is_exportable(s)
        || (s.parent().is_none() && facts.default_export.as_deref() == Some(s.name()))
}

/// Whether a file's definition `s` belongs in an exports list ([`Ranking::root_exports`]):
/// what it exports as its package's API ([`is_own_export`]) and, in JavaScript and
/// TypeScript, a top-level constant or variable it exports by keyword, which is how those
/// languages define much of their API: trpc's `export const initTRPC = new TRPCBuilder()`,
/// zustand's `export const create = (…) as Create`, neither of them listed before.
fn is_listed_export(facts: &CodeFacts, s: &crate::analyze::structure::SymbolFact) -> bool {
    is_own_export(facts, s)
        || (importance::language_family(&facts.language) == "JavaScript"
            && s.parent().is_none()
            && s.visibility.as_deref() == Some("exported")
            && matches!(s.kind.as_str(), "constant" | "variable")
            && !s.name().starts_with("__"))
        || is_header_export(facts, s)
}

/// Whether a Ruby definition is what a gem's root hands on when it `autoload`s or requires its
/// file (not what a root defines itself: sinatra's `main.rb` reopens `Application`): a class or module at the top or in a module (`Rack::Builder`, which rack's
/// `lib/rack.rb` autoloads; a module the file only opens is no symbol). Ruby declares no visibility for either, and every one is public:
/// without this rule rack's root listed no exports at all. Not a module that only holds
/// others (`module Sinatra` around `class Application`): a namespace, whose API is inside; a
/// module of methods is one (`Rack::Utils`).
fn is_ruby_export(facts: &CodeFacts, s: &crate::analyze::structure::SymbolFact) -> bool {
    let has_methods = || {
        facts.symbols.iter().any(|m| {
            m.parent() == Some(s.qualified_name.as_str())
                && matches!(m.kind.as_str(), "method" | "function")
        })
    };
    facts.language == "Ruby"
        && (s.kind == "class" || (s.kind == "module" && has_methods()))
        && s.visibility.as_deref().is_none_or(|v| v == "public")
        && s.parent().is_none_or(|p| {
            // A scope the file only opens (`module Rack` around `class Builder`) is no symbol
            // of its own: a namespace, as a module is.
            let mut owners = facts.symbols.iter().filter(|o| o.qualified_name == p);
            owners.all(|o| o.kind == "module")
        })
}

/// Whether a C or C++ definition is what including its header gives a library's user, for an
/// umbrella header's exports ([`importance::umbrella_includes`]): a type or function at the
/// top or in a namespace (yaml-cpp's `YAML::Emitter`; C and C++ mark no export, only `static`),
/// not an operator, nor a name that starts with `_` or is written as a macro's.
fn is_header_export(facts: &CodeFacts, s: &crate::analyze::structure::SymbolFact) -> bool {
    if importance::language_family(&facts.language) != "C"
        || s.visibility.as_deref().is_some_and(|v| v != "public")
        || repocue_structure::symbol_priority(&s.kind) > 1
        || matches!(s.kind.as_str(), "module" | "impl" | "macro")
        || s.name().starts_with('_')
        || is_operator(s.name())
        || is_macro_name(s.name())
    {
        return false;
    }
    let namespace = |p: &str| {
        facts.symbols.iter().any(|o| {
            o.qualified_name == p && o.kind == "module" && o.signature.starts_with("namespace")
        })
    };
    // One namespace at most: the library's (`YAML::`). A nested one is the name of what it
    // holds (yaml-cpp's `EmitterStyle::value`, an enum, would be listed as `value`), or its
    // implementation (`detail::`).
    s.qualified_name.matches('.').count() <= 1 && s.parent().is_none_or(namespace)
}

/// Tells whether a name is written as C and C++ write macros, in capitals (`GIT_EXTERN`, which
/// libgit2's `GIT_EXTERN(int) git_reflog_read(…)` can pass for a function's name to a parser
/// that does not expand it).
fn is_macro_name(name: &str) -> bool {
    name.chars().any(|c| c.is_ascii_uppercase())
        && name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// Tells whether a C++ function is an operator (`operator<<`, `operator bool`): what it
/// overloads, not a name a user calls.
fn is_operator(name: &str) -> bool {
    name.strip_prefix("operator")
        .is_some_and(|rest| !rest.starts_with(|c: char| c.is_alphanumeric() || c == '_'))
}

/// Counts one use of `name`, without allocating its key again when it is known.
fn add_use(uses: &mut NameWeights, name: &str, weight: f64) {
    match uses.get_mut(name) {
        Some(u) => *u += weight,
        None => {
            uses.insert(name.to_owned(), weight);
        }
    }
}

/// Per node: how many other source files import its package by name, for package roots (0
/// for every other node). An import counts when it names the package itself (`@babel/core`
/// once resolved, Python's `flask`) or an item of it (Rust's `grep_searcher::Searcher`), not
/// a module inside it (`.app`).
fn package_importers<'n>(
    nodes: &[Node<'_>],
    roles: &[Role],
    modules: &[Vec<String>],
    imports_of: impl Fn(usize) -> &'n [Vec<String>],
) -> Vec<u32> {
    let roots: HashMap<&[String], usize> = nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| n.root)
        .map(|(i, _)| (modules[i].as_slice(), i))
        .collect();
    let mut importers: Vec<u32> = vec![0; nodes.len()];
    if roots.is_empty() {
        return importers;
    }
    for (i, node) in nodes.iter().enumerate() {
        if roles[i] != Role::Source {
            continue;
        }
        let mut named: Vec<usize> = node
            .facts
            .imports
            .iter()
            .zip(imports_of(i))
            .filter_map(|(raw, imp)| {
                let whole = roots.get(imp.as_slice());
                let item = || {
                    let k = imp.len().checked_sub(1).filter(|_| raw.contains("::"))?;
                    roots.get(&imp[..k])
                };
                whole.or_else(item).copied()
            })
            .filter(|&r| r != i)
            .collect();
        named.sort_unstable();
        named.dedup();
        for r in named {
            importers[r] += 1;
        }
    }
    importers
}

/// Narrows the files defining a referenced name to the ones the reference can mean: never
/// the referencing file itself, never a test file from non-test code, and, when the
/// referencing file's imports name some of the candidates, only those, and of those, in Ruby,
/// the ones its file names ([`narrow_by_file_name`]).
fn resolve(
    from: usize,
    name: &str,
    candidates: &[usize],
    roles: &[Role],
    spaces: &[&str],
    imports: &[Vec<String>],
    modules: &[Vec<String>],
) -> Vec<usize> {
    let mut targets = Vec::new();
    plausible(from, candidates, roles, spaces, &mut targets);
    if narrowable(&targets) {
        narrow(&mut targets, &mut |t| imports_module(imports, &modules[t]));
        narrow_by_file_name(spaces[from], name, &mut targets, modules);
    }
    targets
}

/// Keeps, of a Ruby constant's several `targets`, the files its name names by the language's
/// convention (`QueryParser` in `query_parser.rb`, as Zeitwerk and `autoload` lay them out), if
/// any is. `Request` in rack's `lib/rack.rb` means `lib/rack/request.rb`'s class, not the
/// `Request` nested in `auth/basic.rb`'s `Basic`, which only code inside `Basic` names bare. A
/// method's name says nothing of its file: it is looked up on its receiver.
fn narrow_by_file_name(space: &str, name: &str, targets: &mut Vec<usize>, modules: &[Vec<String>]) {
    let constant = name.starts_with(|c: char| c.is_ascii_uppercase());
    if space != "Ruby" || targets.len() < 2 || !constant {
        return;
    }
    let file = snake_case(name);
    narrow(targets, &mut |t| modules[t].last() == Some(&file));
}

/// A constant's name as Ruby names its file: `QueryParser` → `query_parser`, `HTTPClient` →
/// `http_client`, `Utils` → `utils`.
fn snake_case(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::with_capacity(name.len() + 4);
    for (k, &c) in chars.iter().enumerate() {
        if c.is_ascii_uppercase() && k > 0 {
            let before = chars[k - 1];
            let after_lower = chars.get(k + 1).is_some_and(char::is_ascii_lowercase);
            if before.is_ascii_lowercase()
                || before.is_ascii_digit()
                || (before.is_ascii_uppercase() && after_lower)
            {
                out.push('_');
            }
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// Whether one of the `imports` (as module paths) names the `module` of a file: for a name its
/// language provides ([`is_standard_name`]), the only definitions of the project it can mean.
fn imports_module(imports: &[Vec<String>], module: &[String]) -> bool {
    imports
        .iter()
        .any(|imp| !imp.is_empty() && importance::import_names_module(imp, module))
}

/// Sets `out` to the `candidates` a reference from `from` can mean whatever it imports: not
/// `from` itself, no test file from non-test code, no file whose language names differently.
fn plausible(
    from: usize,
    candidates: &[usize],
    roles: &[Role],
    spaces: &[&str],
    out: &mut Vec<usize>,
) {
    out.clear();
    out.extend(candidates.iter().copied().filter(|&t| {
        t != from
            && (roles[from] != Role::Source || roles[t] != Role::Test)
            && can_name(spaces[from], spaces[t])
    }));
}

/// Whether a reference of a file of name space `space` means its own package's definition
/// when there is one: Go's always; Java's unless the file imports the name (a single-type
/// import shadows it: junit4's `junit.framework.TestCase` used its own package's `Assert`,
/// not `org.junit`'s).
fn own_package_first(space: &str, imports: &[String], name: &str) -> bool {
    space == "Go" || (space == "Java" && !imports_by_name(imports, name))
}

/// The directory of a path, empty at the root.
fn dir_of(p: &[u8]) -> &[u8] {
    p.iter()
        .rposition(|&b| b == b'/')
        .map_or(&[][..], |i| &p[..i])
}

/// Whether a Go import path names the directory `dir`: it is the path's end
/// (`go.uber.org/zap/zapcore` names `zapcore/`).
fn names_dir(import: &str, dir: &[u8]) -> bool {
    let import = import.as_bytes();
    !dir.is_empty()
        && import.ends_with(dir)
        && (import.len() == dir.len() || import[import.len() - dir.len() - 1] == b'/')
}

/// Whether a Go definition in `target`, of the files `defining` the name, is in a package one
/// of the import `paths` that qualify the name names: the directory a path ends in, or, for a
/// path that names none of theirs, the root (the module's own package: `zap.Logger` is the
/// root's, not `zapgrpc/`'s; a package outside the project keeps the root's too, which its
/// import path alone cannot tell apart).
fn in_qualifying_package(paths: &[&str], target: &[u8], defining: &[&[u8]]) -> bool {
    let dir = dir_of(target);
    paths.iter().any(|p| {
        names_dir(p, dir) || (dir.is_empty() && !defining.iter().any(|d| names_dir(p, dir_of(d))))
    })
}

/// Keeps the Go `targets` in the referencing file's own directory, if any is: a name used
/// without a package is its own package's (logrus's root files' `Level` is `logrus.go`'s, not
/// `hooks/slog/level.go`'s `type Level logrus.Level`, which took its uses and its place in the
/// overview). A name another package qualifies (`lg.Level`) has its definitions elsewhere.
fn same_package_first(from: &[u8], nodes: &[Node<'_>], targets: &mut Vec<usize>) {
    let dir = java_package_dir;
    let own = dir(from);
    if targets.len() > 1 && targets.iter().any(|&t| dir(nodes[t].path) == own) {
        targets.retain(|&t| dir(nodes[t].path) == own);
    }
}

/// The package a file is in, by its directory: below a JVM source set's language directory
/// (`src/main/java/`, `src/test/java/`) the package's path, which the main and test source
/// sets share (commons-cli's `src/test/java/…/cli/AppTest.java` is in the package of
/// `src/main/java/…/cli/HelpFormatter.java`, not of `…/cli/help/HelpFormatter.java`);
/// elsewhere the directory.
fn java_package_dir(p: &[u8]) -> &[u8] {
    let dir = dir_of(p);
    // Called for every reference a Go or Java file resolves: no allocation, the two parts
    // before each one carried along.
    let (mut before_last, mut last): (&[u8], &[u8]) = (b"", b"");
    let mut offset = 0;
    for part in dir.split(|&b| b == b'/') {
        offset += part.len() + 1;
        if before_last.eq_ignore_ascii_case(b"src") && importance::is_jvm_language_dir(part) {
            return dir.get(offset..).unwrap_or_default();
        }
        (before_last, last) = (last, part);
    }
    dir
}

/// Whether imports can pick among these plausible targets. A name defined in dozens of files
/// (C's file-static helpers) is not one an import can pick out: matching would cost time and
/// change nothing.
fn narrowable(plausible: &[usize]) -> bool {
    (2..=MAX_NARROWED).contains(&plausible.len())
}

/// Keeps the `targets` that are `named` (by the referencing file's imports, see
/// [`imports_module`]), if any of them is. An import that names no module path names none.
fn narrow(targets: &mut Vec<usize>, named: &mut impl FnMut(usize) -> bool) {
    if targets.iter().any(|&t| named(t)) {
        targets.retain(|&t| named(t));
    }
}

/// A node's imports as module paths, one per import as written (empty for one that names no
/// module path).
fn import_paths(node: &Node<'_>) -> Vec<Vec<String>> {
    node.facts
        .imports
        .iter()
        .map(|imp| importance::import_components(node.path, imp))
        .collect()
}

/// Whether a reference to a name in the file at `from`, with its `imports`, can mean the
/// definition in `target`, of the files `defining` the name: [`resolve`] by paths, as the
/// ranking resolves it, for a reader of one definition (the entity view's `referenced_by`).
/// A `target` the list does not hold is not narrowed away.
pub(crate) fn may_mean(
    from: &[u8],
    (name, bare): (&str, bool),
    imports: &[String],
    packages: &[&str],
    defining: &[&[u8]],
    target: &[u8],
) -> bool {
    let plausible = || {
        let (from_role, target_role) = (importance::role(from), importance::role(target));
        from != target
            && (from_role != Role::Source || target_role != Role::Test)
            && languages_share_names(from, target)
    };
    // A name the language provides means the definitions `from` imports, however many.
    if is_standard_name(path_name_space(from), name) && !imports_by_name(imports, name) {
        return plausible() && imports_name(from, imports, target);
    }
    // A Java file that imports a type of the name means that one ([`java_scope`]); a Rust file
    // that `use`s it from the standard library none ([`uses_from_the_standard_library`]).
    if path_name_space(from) == "Rust" && uses_from_the_standard_library(imports, name) {
        return false;
    }
    if path_name_space(from) == "Java" {
        let mut by_name = imports
            .iter()
            .map(|imp| importance::import_components(from, imp))
            .filter(|c| c.last().is_some_and(|last| last == name))
            .peekable();
        if by_name.peek().is_some() {
            let module = importance::module_components(target);
            if !by_name.any(|c| importance::import_names_module(&c, &module)) {
                return false;
            }
        }
    }
    // A Python class means a definition `from` imports, its module or a package around it
    // ([`rank`] follows the package's `__init__.py`; a reader of one definition has not its
    // imports at hand).
    // So does any name on its own (`bare`, not a value's member): [`rank`] says why.
    let capitalised = name.starts_with(|c: char| c.is_ascii_uppercase());
    if (capitalised || bare)
        && path_name_space(from) == "Python"
        && path_name_space(target) == "Python"
    {
        let module = importance::module_components(target);
        let around = |c: &[String]| {
            module
                .windows(c.len())
                .enumerate()
                .any(|(k, w)| w == c && k + c.len() < module.len())
        };
        let imported = imports.iter().any(|imp| {
            let c = importance::import_components(from, imp);
            !c.is_empty() && (importance::import_names_module(&c, &module) || around(&c))
        });
        if !imported {
            return false;
        }
    }
    // A Java name its file does not import, and any Go name, is its own package's when the
    // package defines it ([`rank`]'s [`same_package_first`]): afero's `tarfs.Fs` listed every
    // root file that names the root's own `Fs`.
    // A Go name written only after another package's name is in that package ([`rank`]):
    // `packages` are the import paths that qualify it in `from`.
    if path_name_space(from) == "Go" && !packages.is_empty() {
        if dir_of(target) == dir_of(from) || !in_qualifying_package(packages, target, defining) {
            return false;
        }
    } else if own_package_first(path_name_space(from), imports, name) {
        let own = |p: &[u8]| java_package_dir(p) == java_package_dir(from);
        if defining.iter().any(|p| *p != from && own(p)) && !own(target) {
            return false;
        }
    }
    // Without imports (and, but in Ruby, file names), or among more definitions than either
    // narrows (with `from` itself among them), `resolve` keeps every plausible one: spared the
    // module paths of each.
    let by_name = path_name_space(from) == "Ruby";
    if (imports.is_empty() && !by_name) || defining.len() > MAX_NARROWED + 1 {
        return plausible();
    }
    let mut paths: Vec<&[u8]> = vec![from];
    paths.extend(defining.iter().copied().filter(|p| *p != from));
    let Some(t) = paths.iter().skip(1).position(|p| *p == target) else {
        return true;
    };
    let roles: Vec<Role> = paths.iter().map(|p| importance::role(p)).collect();
    let spaces: Vec<&str> = paths.iter().map(|p| path_name_space(p)).collect();
    let modules: Vec<Vec<String>> = paths
        .iter()
        .map(|p| importance::module_components(p))
        .collect();
    let imports: Vec<Vec<String>> = imports
        .iter()
        .map(|imp| importance::import_components(from, imp))
        .filter(|c| !c.is_empty())
        .collect();
    let candidates: Vec<usize> = (1..paths.len()).collect();
    let meant = resolve(0, name, &candidates, &roles, &spaces, &imports, &modules);
    // A C or C++ function declared in a header and defined in a source file is one: a
    // reference the header's prototype resolves means the definition too (tmux's
    // `format_expand`, called through `tmux.h`, had no `referenced_by` in `format.c`).
    let through_header = || {
        crate::analyze::structure::is_c_source(target)
            && meant
                .iter()
                .any(|&i| crate::analyze::structure::is_header(paths[i]))
    };
    meant.contains(&(t + 1)) || through_header()
}

/// The name space of a language (a file's facts name it): the languages whose code can name one
/// another's definitions by a bare name share one. C with C++, JavaScript with TypeScript, every
/// other language only itself: a shell script's `die` is its own function, not C's; a Python
/// script's `parse` is no Go `parse`. Empty for no language: such a file may mean any
/// definition, and any file may mean its definitions, as before languages were told apart.
fn name_space(language: &str) -> &str {
    match language {
        "C++" => "C",
        "TypeScript" | "TSX" => "JavaScript",
        other => other,
    }
}

/// [`name_space`] of the language a file's path names; empty where only its content could tell
/// (an extensionless script).
fn path_name_space(path: &[u8]) -> &'static str {
    name_space(repocue_structure::language_name(path, b"").unwrap_or(""))
}

/// C library and POSIX functions, and shell utilities: names code of the language calls as the
/// system provides them, whatever a compatibility header or a wrapper script of the project
/// redefines (git's `reftable/basics.h` defines `free`, its `git-sh-setup.sh` a `sort`).
#[rustfmt::skip]
const C_STANDARD: &[&str] = &[
    "abort", "access", "atexit", "atof", "atoi", "atol", "bsearch", "calloc", "chdir", "chmod",
    "chown", "clearerr", "clock", "close", "closedir", "ctime", "difftime", "dup", "dup2", "execl",
    "execlp", "execv", "execve", "execvp", "exit", "fclose", "fcntl", "fdopen", "feof", "ferror",
    "fflush", "fgetc", "fgets", "fileno", "fopen", "fork", "fprintf", "fputc", "fputs", "fread",
    "free", "freopen", "fscanf", "fseek", "fstat", "fsync", "ftell", "ftruncate", "fwrite", "getc",
    "getchar", "getcwd", "getenv", "getopt", "getpid", "gettimeofday", "gmtime", "ioctl",
    "isalnum", "isalpha", "isatty", "isdigit", "islower", "isprint", "ispunct", "isspace",
    "isupper", "isxdigit", "kill", "localtime", "lseek", "lstat", "malloc", "memchr", "memcmp",
    "memcpy", "memmove", "memset", "mkdir", "mkstemp", "mktime", "mmap", "munmap", "open",
    "opendir", "pclose", "perror", "pipe", "poll", "popen", "printf", "putc", "putchar", "puts",
    "qsort", "raise", "rand", "read", "readdir", "readlink", "realloc", "realpath", "remove",
    "rename", "rmdir", "scanf", "select", "setbuf", "setenv", "setvbuf", "sigaction", "signal",
    "sleep", "snprintf", "sprintf", "srand", "sscanf", "stat", "strcasecmp", "strcat", "strchr",
    "strcmp", "strcpy", "strcspn", "strdup", "strerror", "strftime", "strlen", "strncasecmp",
    "strncmp", "strncpy", "strndup", "strpbrk", "strrchr", "strspn", "strstr", "strtod", "strtok",
    "strtol", "strtoll", "strtoul", "strtoull", "symlink", "time", "tmpfile", "tolower", "toupper",
    "truncate", "ungetc", "unlink", "unsetenv", "usleep", "vfprintf", "vprintf", "vsnprintf",
    "vsprintf", "wait", "waitpid", "write",
];

/// The methods of Rust's standard traits (`Default`, `Clone`, `Display`, `From`, `Iterator`,
/// …): `x.clone()` or `T::default()` calls whichever type's implementation, and every
/// `impl Default` of a crate defines a `default`; a bare `default` means the one a file
/// imports, if any (ripgrep's `line_buffer.rs` led its crate's structure for its
/// `fn default()`, which every `Default::default()` of the crate seemed to call).
#[rustfmt::skip]
const RUST_STANDARD: &[&str] = &[
    "as_mut", "as_ref", "borrow", "borrow_mut", "clone", "cmp", "default", "deref", "deref_mut",
    "drop", "eq", "fmt", "from", "from_iter", "from_str", "hash", "index", "into", "into_iter",
    "next", "partial_cmp", "to_owned", "to_string", "try_from", "try_into",
];

/// See [`C_STANDARD`].
#[rustfmt::skip]
const SHELL_STANDARD: &[&str] = &[
    "awk", "basename", "cat", "cd", "chmod", "cmp", "cp", "cut", "date", "diff", "dirname", "echo",
    "env", "expr", "find", "grep", "head", "ln", "ls", "mkdir", "mv", "printf", "pwd", "read",
    "rm", "rmdir", "sed", "sleep", "sort", "tail", "tee", "test", "touch", "tr", "uname", "uniq",
    "wc", "xargs",
];

/// Ruby's core classes and modules, the standard library's most used and Rails: a project
/// that reopens one (Rails's `active_support/core_ext/file/atomic.rb` adds to `class File`,
/// `core_ext/object/json.rb` to `class Time`) or nests one of the name (sidekiq's
/// `Sidekiq::Logger::Formatters::JSON`, `Sidekiq::Rails < ::Rails::Engine`) does not define what
/// every `File.join`, `Time.now` or `JSON.parse` of its code means; Rails's overview listed
/// `File` and `Time` among its API, sidekiq's entry point exported `JSON` and `Rails`.
#[rustfmt::skip]
const RUBY_STANDARD: &[&str] = &[
    "Array", "Base64", "BasicObject", "BigDecimal", "Class", "Comparable", "Complex", "Date",
    "DateTime", "Digest", "Dir", "ERB", "Encoding", "Enumerable", "Enumerator", "Exception",
    "FalseClass", "File", "Float", "Hash", "IO", "Integer", "JSON", "Kernel", "Logger", "Method",
    "Module", "NameError", "NilClass", "NoMethodError", "Numeric", "Object", "OpenSSL",
    "Pathname", "Proc", "Process", "Rails", "Range", "Rational", "Regexp", "SecureRandom", "Set",
    "Socket", "StandardError", "String", "StringIO", "Struct", "Symbol", "Thread", "Time",
    "Timeout", "TrueClass", "URI", "YAML",
];

/// Whether one of the `imports` of the file at `from` names the module of the file at `target`.
pub(crate) fn imports_name(from: &[u8], imports: &[String], target: &[u8]) -> bool {
    let module = importance::module_components(target);
    imports.iter().any(|imp| {
        let imp = importance::import_components(from, imp);
        !imp.is_empty() && importance::import_names_module(&imp, &module)
    })
}

/// Whether a definition of `name` in the file at `target` can be what the file at `from`, with
/// its `imports`, references by that name, whatever else defines it: the languages share names
/// and, for a name the language provides ([`is_standard_name`]), `from` imports `target`. For a
/// reader of one file's references (the entity view's defining files).
pub(crate) fn may_define(from: &[u8], imports: &[String], name: &str, target: &[u8]) -> bool {
    languages_share_names(from, target)
        && (!is_standard_name(path_name_space(from), name)
            || imports_by_name(imports, name)
            || imports_name(from, imports, target))
}

/// Whether the language of the file at `path` provides `name` ([`is_standard_name`]).
pub(crate) fn is_standard_name_at(path: &[u8], name: &str) -> bool {
    is_standard_name(path_name_space(path), name)
}

/// Whether one of the `imports` names `name` itself, from anywhere but the language's own
/// library (`serde_json::from_str`, not `std::ptr::write`): a name the language provides
/// ([`is_standard_name`]) that a file imports by name is the one it imports. serde_json's
/// tests call its `from_str` and `to_string`, which the ranking and `referenced_by` dropped as
/// the standard library's until their module was imported, and its crate root, which hands
/// them on, is all the tests import.
pub(crate) fn imports_by_name(imports: &[String], name: &str) -> bool {
    const LANGUAGE_LIBRARIES: [&str; 3] = ["std", "core", "alloc"];
    imports.iter().any(|imp| {
        let last = imp.rsplit(['.', '/', '\\', ':']).next().unwrap_or_default();
        let first = imp.split(['.', '/', '\\', ':']).next().unwrap_or_default();
        last == name && imp.len() > name.len() && !LANGUAGE_LIBRARIES.contains(&first)
    })
}

/// Whether `name` is one the language of name space `space` provides ([`C_STANDARD`]).
fn is_standard_name(space: &str, name: &str) -> bool {
    Provided::of_space(space).is_some_and(|p| p.names().binary_search(&name).is_ok())
}

/// A list of names a language provides.
#[derive(Clone, Copy)]
enum Provided {
    C,
    Shell,
    Rust,
    Ruby,
}

impl Provided {
    const ALL: [Provided; 4] = [Provided::C, Provided::Shell, Provided::Rust, Provided::Ruby];

    /// The list of name space `space`, if its language has one.
    fn of_space(space: &str) -> Option<Provided> {
        match space {
            "C" => Some(Provided::C),
            "Bash" | "Shell" => Some(Provided::Shell),
            "Rust" => Some(Provided::Rust),
            "Ruby" => Some(Provided::Ruby),
            _ => None,
        }
    }

    fn names(self) -> &'static [&'static str] {
        match self {
            Provided::C => C_STANDARD,
            Provided::Shell => SHELL_STANDARD,
            Provided::Rust => RUST_STANDARD,
            Provided::Ruby => RUBY_STANDARD,
        }
    }

    fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// The lists ([`Provided`]) that hold a name, as bits: looked up once per defined name rather
/// than once per reference.
#[derive(Clone, Copy, Default)]
struct Standard(u8);

impl Standard {
    /// One hash lookup: a binary search of every list for each of the 25,660 names git/git
    /// defines took 5 of the 25 ms of ranking it.
    fn of(name: &str) -> Standard {
        static BITS: std::sync::OnceLock<FastMap<&'static str, u8>> = std::sync::OnceLock::new();
        let bits = BITS.get_or_init(|| {
            let mut bits = FastMap::default();
            for p in Provided::ALL {
                for name in p.names() {
                    *bits.entry(*name).or_default() |= p.bit();
                }
            }
            bits
        });
        Standard(bits.get(name).copied().unwrap_or(0))
    }

    /// [`is_standard_name`] for name space `space`.
    fn in_space(self, space: &str) -> bool {
        Provided::of_space(space).is_some_and(|p| self.0 & p.bit() != 0)
    }
}

/// Whether code of name space `from` can name a definition in name space `to`.
fn can_name(from: &str, to: &str) -> bool {
    from == to || from.is_empty() || to.is_empty()
}

/// Whether code in the file at `from` can name a definition in the file at `to` by a bare name:
/// the languages their paths name share names ([`name_space`]). The ranking, which has both
/// files' facts, tells the languages of files their paths do not name (a script found by its
/// `#!` line) too.
pub(crate) fn languages_share_names(from: &[u8], to: &[u8]) -> bool {
    can_name(path_name_space(from), path_name_space(to))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::structure::SymbolFact;

    /// A C function declared in a header and defined in a source file: a file that includes
    /// the header means both (tmux's `format_expand`: callers through `tmux.h`, none of
    /// `format.c`'s own); a header it does not include, neither.
    #[test]
    fn a_reference_through_a_headers_prototype_means_its_definition() {
        let defining: [&[u8]; 3] = [b"app.h", b"format.c", b"other/app2.h"];
        let includes = ["app.h".to_owned()];
        let means = |target: &[u8]| {
            may_mean(
                b"use_a.c",
                ("format_expand", true),
                &includes,
                &[],
                &defining,
                target,
            )
        };
        assert!(means(b"app.h"));
        assert!(means(b"format.c"));
        assert!(!means(b"other/app2.h"));
    }

    #[test]
    fn a_reference_means_the_definitions_its_file_imports() {
        let defining: [&[u8]; 2] = [b"pkg/jsonish.py", b"pkg/yamlish.py"];
        let imports = ["pkg.jsonish".to_owned()];
        let means = |target: &[u8]| {
            may_mean(
                b"pkg/use.py",
                ("parse", true),
                &imports,
                &[],
                &defining,
                target,
            )
        };
        assert!(means(b"pkg/jsonish.py"));
        assert!(!means(b"pkg/yamlish.py"));
        // Imports that name neither, or none at all: a Python name on its own means neither
        // (black's test data, which imports only `sys`, "used" its package); a value's member
        // may mean either.
        let other = ["os".to_owned()];
        for imports in [&other[..], &[]] {
            let means = |bare| {
                may_mean(
                    b"pkg/use.py",
                    ("parse", bare),
                    imports,
                    &[],
                    &defining,
                    b"pkg/yamlish.py",
                )
            };
            assert!(!means(true));
            assert!(means(false));
        }
        // The project's code never means a test's definition, however many there are.
        let tests: [&[u8]; 2] = [b"pkg/jsonish.py", b"tests/test_x.py"];
        assert!(!may_mean(
            b"pkg/use.py",
            ("parse", true),
            &[],
            &[],
            &tests,
            b"tests/test_x.py"
        ));
        let many: Vec<Vec<u8>> = (0..40).map(|i| format!("m{i}.py").into_bytes()).collect();
        let mut many: Vec<&[u8]> = many.iter().map(Vec::as_slice).collect();
        many.push(b"tests/test_x.py");
        let import_m1 = ["m1".to_owned()];
        assert!(
            may_mean(
                b"pkg/use.py",
                ("parse", false),
                &import_m1,
                &[],
                &many,
                b"m2.py"
            ),
            "too many to narrow"
        );
        assert!(!may_mean(
            b"pkg/use.py",
            ("parse", true),
            &import_m1,
            &[],
            &many,
            b"tests/test_x.py"
        ));
    }

    fn facts(defs: &[&str], refs: &[&str]) -> CodeFacts {
        CodeFacts {
            language: "Rust".into(),
            symbols: defs
                .iter()
                .map(|d| SymbolFact {
                    qualified_name: (*d).into(),
                    kind: "function".into(),
                    signature: format!("fn {d}()"),
                    cut_hash: None,
                    start_line: 1,
                    end_line: 1,
                    visibility: None,
                    conditional: false,
                    deprecated: false,
                })
                .collect(),
            references: refs.iter().map(|r| (*r).into()).collect(),
            ..Default::default()
        }
    }

    /// A Go name written only after a package's name is that package's top-level
    /// definition: zap's root method `Logger.Core` took every `zapcore.Core` (the root's own
    /// package came first), `zapcore`'s field `Field.String` took `zap.String(…)`, and
    /// `zapgrpc.Logger` took `*zap.Logger`'s uses. The entity view's `may_mean` agrees.
    #[test]
    fn a_go_name_after_a_package_means_that_packages_definition() {
        let go = |defs: &[(&str, &str)], refs: &[&str], qualified: &[&str]| {
            let mut f = facts(&[], refs);
            f.language = "Go".into();
            f.symbols = defs
                .iter()
                .map(|(name, kind)| SymbolFact {
                    kind: (*kind).into(),
                    ..facts(&[name], &[]).symbols.remove(0)
                })
                .collect();
            f.qualified_references = qualified.iter().map(|q| (*q).into()).collect();
            f
        };
        let core = go(&[("Core", "interface")], &[], &[]);
        let field = go(&[("Field", "struct"), ("Field.String", "field")], &[], &[]);
        let root = go(
            &[
                ("Logger", "struct"),
                ("Logger.Core", "method"),
                ("String", "function"),
            ],
            &[],
            &[],
        );
        let grpc = go(&[("Logger", "struct")], &[], &[]);
        let options = go(
            &[("WrapCore", "function")],
            &["Core"],
            &["Core ex.com/m/core"],
        );
        let user = go(
            &[("Use", "function")],
            &["Logger", "String"],
            &["Logger ex.com/m", "String ex.com/m"],
        );
        let nodes = [
            node(b"core/core.go", &core),
            node(b"core/field.go", &field),
            node(b"grpc/logger.go", &grpc),
            node(b"logger.go", &root),
            node(b"options.go", &options),
            node(b"u/u.go", &user),
        ];
        let r = rank(&nodes);
        let uses = |i: usize, name: &str| r.used_by[i].get(name).copied().unwrap_or(0.0);
        assert!(uses(0, "Core") > 0.0, "{:?}", r.used_by);
        assert_eq!(uses(3, "Core"), 0.0, "{:?}", r.used_by);
        assert!(
            uses(3, "String") > 0.0 && uses(3, "Logger") > 0.0,
            "{:?}",
            r.used_by
        );
        assert_eq!(uses(1, "String"), 0.0, "{:?}", r.used_by);
        assert_eq!(uses(2, "Logger"), 0.0, "{:?}", r.used_by);
        let defining: [&[u8]; 2] = [b"grpc/logger.go", b"logger.go"];
        let means = |packages: &[&str], target: &[u8]| {
            may_mean(
                b"u/u.go",
                ("Logger", true),
                &[],
                packages,
                &defining,
                target,
            )
        };
        assert!(means(&["ex.com/m"], b"logger.go"));
        assert!(!means(&["ex.com/m"], b"grpc/logger.go"));
        assert!(means(&["ex.com/m/grpc"], b"grpc/logger.go"));
        assert!(!means(&["ex.com/m/grpc"], b"logger.go"));
    }

    /// A Rust name a file `use`s from the standard library is none of the project's:
    /// thiserror's `attr.rs` had every `core::fmt::Display` user's reference. One used from the
    /// crate is.
    #[test]
    fn a_rust_name_used_from_the_standard_library_is_not_the_projects() {
        let attr = facts(&["Display"], &[]);
        let mut show = facts(&["show"], &["Display"]);
        show.imports = vec!["core::fmt::Display".into()];
        let mut own = facts(&["own"], &["Display"]);
        own.imports = vec!["crate::core::Display".into()];
        let nodes = [
            node(b"src/attr.rs", &attr),
            node(b"src/own.rs", &own),
            node(b"src/show.rs", &show),
        ];
        let r = rank(&nodes);
        let uses = r.used_by[0].get("Display").copied().unwrap_or(0.0);
        assert!(uses > 0.0, "{:?}", r.used_by);
        let alone = rank(&[node(b"src/attr.rs", &attr), node(b"src/show.rs", &show)]);
        assert_eq!(alone.used_by[0].get("Display"), None, "{:?}", alone.used_by);
        let defining: [&[u8]; 1] = [b"src/attr.rs"];
        let show_imports = ["core::fmt::Display".to_owned()];
        assert!(!may_mean(
            b"src/show.rs",
            ("Display", true),
            &show_imports,
            &[],
            &defining,
            b"src/attr.rs"
        ));
    }

    #[test]
    fn referenced_files_rank_higher() {
        let core = facts(&["parse"], &[]);
        let a = facts(&["a"], &["parse"]);
        let b = facts(&["b"], &["parse", "a"]);
        let nodes = [
            node(b"a.rs", &a),
            node(b"b.rs", &b),
            node(b"core.rs", &core),
        ];
        let s = rank(&nodes).scores;
        assert!(s[2] > s[0] && s[0] > s[1], "{s:?}");
        assert!((s.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    }

    /// A module of helpers that every file uses ranks below a module as used that is no
    /// helper: ky's ten `source/utils/` files listed before `source/core/` (its request
    /// engine) among the components.
    #[test]
    fn a_module_of_helpers_ranks_below_a_module_as_used() {
        let utils = facts(&["clamp"], &[]);
        let engine = facts(&["run"], &[]);
        let a = facts(&["a"], &["clamp", "run"]);
        let b = facts(&["b"], &["clamp", "run"]);
        let nodes = [
            node(b"src/a.rs", &a),
            node(b"src/b.rs", &b),
            node(b"src/engine.rs", &engine),
            node(b"src/utils.rs", &utils),
        ];
        let s = rank(&nodes).scores;
        assert!(s[2] > s[3], "{s:?}");
    }

    #[test]
    fn imports_pick_the_definition_a_reference_means() {
        let app = facts(&["Flask"], &[]);
        let fixture = facts(&["Flask"], &[]);
        let mut views = facts(&["View"], &["Flask"]);
        views.imports = vec![".app".into()];
        let nodes = [
            node(b"src/flask/app.py", &app),
            node(b"src/flask/other.py", &fixture),
            node(b"src/flask/views.py", &views),
        ];
        let r = rank(&nodes);
        assert!(r.scores[0] > r.scores[1], "{:?}", r.scores);
        assert_eq!(r.used_by[0].get("Flask"), Some(&1.0));
        assert_eq!(r.used_by[1].get("Flask"), None);
    }

    /// A Python class name another file defines is used by the files that import that file's
    /// module, or a package whose `__init__.py` imports it; not by one that imports the name
    /// from elsewhere (fastapi's `from starlette.responses import Response`).
    #[test]
    fn python_names_only_the_classes_it_imports() {
        let models = in_language("Python", &["Response", "Model"], &[], &[]);
        let init = in_language("Python", &[], &["Model"], &[".models"]);
        let direct = in_language("Python", &["a"], &["Response"], &["pkg.models"]);
        let via_package = in_language("Python", &["b"], &["Model"], &["pkg"]);
        let elsewhere = in_language("Python", &["c"], &["Response"], &["starlette.responses"]);
        let nodes = [
            node(b"pkg/models.py", &models),
            node(b"pkg/__init__.py", &init),
            node(b"app/direct.py", &direct),
            node(b"app/via_package.py", &via_package),
            node(b"app/elsewhere.py", &elsewhere),
        ];
        let r = rank(&nodes);
        assert_eq!(r.used_by[0].get("Response"), Some(&1.0), "{:?}", r.used_by);
        assert_eq!(r.used_by[0].get("Model"), Some(&2.0), "{:?}", r.used_by);
        // The entity view's reader: the module, or a package around it, imported.
        let defining: [&[u8]; 1] = [b"pkg/models.py"];
        let means = |from: &[u8], imports: &[&str]| {
            let imports: Vec<String> = imports.iter().map(|i| (*i).to_owned()).collect();
            may_mean(
                from,
                ("Response", true),
                &imports,
                &[],
                &defining,
                b"pkg/models.py",
            )
        };
        assert!(means(b"app/direct.py", &["pkg.models"]));
        assert!(means(b"app/via_package.py", &["pkg"]));
        assert!(!means(b"app/elsewhere.py", &["starlette.responses"]));
        assert!(!means(b"app/nothing.py", &[]));
    }

    /// Facts of a file in `language` that defines `defs`, references `refs` and imports
    /// `imports`.
    fn in_language(language: &str, defs: &[&str], refs: &[&str], imports: &[&str]) -> CodeFacts {
        CodeFacts {
            language: language.into(),
            imports: imports.iter().map(|i| (*i).to_owned()).collect(),
            ..facts(defs, refs)
        }
    }

    /// A node of the usual weight, not a package root.
    fn node<'a>(path: &'a [u8], facts: &'a CodeFacts) -> Node<'a> {
        Node {
            path,
            facts,
            boost: 1.0,
            root: false,
        }
    }

    #[test]
    fn a_reference_means_only_definitions_its_language_can_name() {
        let c_def = in_language("C", &["die"], &[], &[]);
        let sh_def = in_language("Shell", &["die"], &[], &[]);
        // A hook script found to be shell by its `#!` line, not by its name.
        let hook_def = in_language("Shell", &["die"], &[], &[]);
        let c_use = in_language("C++", &["add"], &["die"], &[]);
        let sh_use = in_language("Shell", &["run"], &["die"], &[]);
        let nodes = [
            node(b"usage.h", &c_def),
            node(b"ci/lib.sh", &sh_def),
            node(b"hooks/pre-push.sample", &hook_def),
            node(b"builtin/add.cc", &c_use),
            node(b"ci/run.sh", &sh_use),
        ];
        let r = rank(&nodes);
        // The C++ file means the C header's `die` only; the shell script, the two scripts'.
        assert_eq!(r.used_by[0].get("die"), Some(&1.0), "{:?}", r.used_by);
        assert_eq!(r.used_by[1].get("die"), Some(&1.0), "{:?}", r.used_by);
        assert_eq!(r.used_by[2].get("die"), Some(&1.0), "{:?}", r.used_by);

        let defining: [&[u8]; 2] = [b"usage.c", b"ci/lib.sh"];
        let die = |from: &[u8], defining: &[&[u8]], target: &[u8]| {
            may_mean(from, ("die", true), &[], &[], defining, target)
        };
        assert!(die(b"builtin/add.c", &defining, b"usage.c"));
        assert!(!die(b"builtin/add.c", &defining, b"ci/lib.sh"));
        assert!(!die(b"ci/run.sh", &defining, b"usage.c"));
        // C and C++ share one space, as do JavaScript and TypeScript.
        assert!(die(b"a.cc", &[b"b.h", b"c.py"], b"b.h"));
        assert!(die(b"a.ts", &[b"b.js", b"c.py"], b"b.js"));
        assert!(!die(b"a.ts", &[b"b.js", b"c.py"], b"c.py"));
        // A file of no known language may mean any definition.
        assert!(die(b"Makefile.in", &defining, b"usage.c"));
    }

    /// A name the language provides (C's `free`, the shell's `sort`) means the project's own
    /// definition only in files that import it: a compatibility header's `#define free` is
    /// not what every C file calls.
    #[test]
    fn a_standard_name_means_the_projects_definition_only_where_imported() {
        let pool = ["pool/alloc.h"];
        let header = in_language("C", &["free", "pool_free"], &[], &[]);
        let includer = in_language("C", &["drain"], &["free", "pool_free"], &pool);
        let other = in_language("C", &["done"], &["free", "pool_free"], &["stdlib.h"]);
        let wrapper = in_language("Shell", &["sort"], &[], &[]);
        let script = in_language("Shell", &["run"], &["sort"], &[]);
        let nodes = [
            node(b"pool/alloc.h", &header),
            node(b"pool/pool.c", &includer),
            node(b"tool.c", &other),
            node(b"setup.sh", &wrapper),
            node(b"ci/run.sh", &script),
        ];
        let r = rank(&nodes);
        // `free` counts once (the includer), `pool_free` twice; nobody uses the wrapper.
        assert_eq!(r.used_by[0].get("free"), Some(&1.0), "{:?}", r.used_by);
        assert_eq!(r.used_by[0].get("pool_free"), Some(&2.0), "{:?}", r.used_by);
        assert_eq!(r.used_by[3].get("sort"), None, "{:?}", r.used_by);
        // The entity view's reading agrees.
        let defining: [&[u8]; 1] = [b"pool/alloc.h"];
        let includes = ["pool/alloc.h".to_owned()];
        let stdlib = ["stdlib.h".to_owned()];
        assert!(may_mean(
            b"pool/pool.c",
            ("free", true),
            &includes,
            &[],
            &defining,
            b"pool/alloc.h"
        ));
        assert!(!may_mean(
            b"tool.c",
            ("free", true),
            &stdlib,
            &[],
            &defining,
            b"pool/alloc.h"
        ));
        assert!(!may_mean(
            b"tool.c",
            ("free", true),
            &[],
            &[],
            &defining,
            b"pool/alloc.h"
        ));
        assert!(may_mean(
            b"tool.c",
            ("pool_free", true),
            &stdlib,
            &[],
            &defining,
            b"pool/alloc.h"
        ));
        assert!(!may_mean(
            b"ci/run.sh",
            ("sort", true),
            &[],
            &[],
            &[b"setup.sh"],
            b"setup.sh"
        ));
        assert!(may_define(
            b"pool/pool.c",
            &includes,
            "free",
            b"pool/alloc.h"
        ));
        assert!(!may_define(b"tool.c", &stdlib, "free", b"pool/alloc.h"));
        assert!(may_define(b"tool.c", &stdlib, "pool_free", b"pool/alloc.h"));
    }

    /// A Rust standard trait's method (`default`, `clone`, `fmt`) means a project's definition
    /// only in files that import its module: `T::default()` calls whichever type's.
    #[test]
    fn a_standard_trait_method_means_the_projects_only_where_imported() {
        let buffer = in_language("Rust", &["LineBuffer", "default"], &[], &[]);
        let filler = in_language(
            "Rust",
            &["fill"],
            &["default", "LineBuffer"],
            &["crate::buffer::LineBuffer"],
        );
        let runner = in_language("Rust", &["run"], &["default"], &["std::io"]);
        let nodes = [
            node(b"src/buffer.rs", &buffer),
            node(b"src/fill.rs", &filler),
            node(b"src/run.rs", &runner),
        ];
        let r = rank(&nodes);
        assert_eq!(r.used_by[0].get("default"), Some(&1.0), "{:?}", r.used_by);
        assert_eq!(
            r.used_by[0].get("LineBuffer"),
            Some(&1.0),
            "{:?}",
            r.used_by
        );
    }

    /// A name the language provides that a file imports by name (`use serde_json::from_str`)
    /// is the one it imports, also when the import goes through the crate root; one imported
    /// from the language's own library is not.
    #[test]
    fn a_standard_name_imported_by_name_is_the_projects() {
        let de = in_language("Rust", &["from_str"], &[], &[]);
        let tool = in_language("Rust", &["main"], &["from_str"], &["mini::from_str"]);
        let other = in_language("Rust", &["run"], &["from_str"], &["core::str::from_str"]);
        let nodes = [
            node(b"src/de.rs", &de),
            node(b"src/bin/tool.rs", &tool),
            node(b"src/run.rs", &other),
        ];
        let r = rank(&nodes);
        assert_eq!(r.used_by[0].get("from_str"), Some(&1.0), "{:?}", r.used_by);
        let imports = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert!(may_mean(
            b"tests/map.rs",
            ("from_str", true),
            &imports(&["serde_json::Map", "serde_json::from_str"]),
            &[],
            &[b"src/de.rs"],
            b"src/de.rs"
        ));
        assert!(!may_mean(
            b"src/run.rs",
            ("from_str", true),
            &imports(&["std::str::from_str"]),
            &[],
            &[b"src/de.rs"],
            b"src/de.rs"
        ));
        assert!(may_define(
            b"tests/map.rs",
            &imports(&["serde_json::from_str"]),
            "from_str",
            b"src/de.rs"
        ));
    }

    /// A Ruby core class a project reopens (Rails's `core_ext/file/atomic.rb`) is what its
    /// code means by the name only where the file is required; its own classes stay edges.
    #[test]
    fn a_reopened_ruby_core_class_is_no_definition_of_every_use() {
        let atomic = in_language("Ruby", &["File", "atomic_write"], &[], &[]);
        let cache = in_language(
            "Ruby",
            &["FileStore"],
            &["File", "atomic_write"],
            &["active_support/core_ext/file/atomic"],
        );
        let log = in_language("Ruby", &["Logger"], &["File", "FileStore"], &["logger"]);
        let nodes = [
            node(b"lib/active_support/core_ext/file/atomic.rb", &atomic),
            node(b"lib/active_support/cache/file_store.rb", &cache),
            node(b"lib/active_support/logger.rb", &log),
        ];
        let r = rank(&nodes);
        assert_eq!(r.used_by[0].get("File"), Some(&1.0), "{:?}", r.used_by);
        assert_eq!(r.used_by[1].get("FileStore"), Some(&1.0), "{:?}", r.used_by);
    }

    /// An override of a C library function (jq's `src/inject_errors.c` defines `ferror` for
    /// an `LD_PRELOAD` test build) is no definition the files that call `ferror` use: it led
    /// jq's 500-token overview.
    #[test]
    fn a_libc_override_is_not_what_the_project_calls() {
        let shim = in_language("C", &["ferror", "fgetc"], &[], &[]);
        let main = in_language("C", &["main"], &["ferror", "feof", "fgetc"], &["stdio.h"]);
        let util = in_language("C", &["slurp"], &["ferror", "strtod"], &["stdio.h"]);
        let nodes = [
            node(b"src/inject_errors.c", &shim),
            node(b"src/main.c", &main),
            node(b"src/util.c", &util),
        ];
        let r = rank(&nodes);
        assert!(r.used_by[0].is_empty(), "{:?}", r.used_by);
    }

    /// Sidekiq's `JSON.parse` is the standard library's, not a use of its nested
    /// `Formatters::JSON` class, nor `::Rails` of its `Sidekiq::Rails`.
    #[test]
    fn a_ruby_standard_constant_means_no_class_of_the_project_by_its_name() {
        let ruby = |defs: &[&str], refs: &[&str]| CodeFacts {
            language: "Ruby".into(),
            ..facts(defs, refs)
        };
        let formatter = ruby(
            &["Gem", "Gem.Formatters", "Gem.Formatters.JSON", "Gem.Rails"],
            &[],
        );
        let user = ruby(&["Gem", "Gem.Client"], &["JSON", "Rails"]);
        let nodes = [
            node(b"lib/gem/logger.rb", &formatter),
            node(b"lib/gem/client.rb", &user),
        ];
        let r = rank(&nodes);
        assert!(r.used_by[0].is_empty(), "{:?}", r.used_by[0]);
    }

    /// The lists are sorted: they are searched by bisection.
    #[test]
    fn the_standard_name_lists_are_sorted() {
        for list in [C_STANDARD, SHELL_STANDARD, RUST_STANDARD, RUBY_STANDARD] {
            assert!(list.windows(2).all(|w| w[0] < w[1]), "{list:?}");
        }
    }

    /// A name used only as a value's member (`v.is_empty()`) means a method of that name, never
    /// a free function: fd's never-called `pub fn is_empty` was its most central symbol.
    #[test]
    fn a_member_use_never_means_a_free_function() {
        let free = facts(&["is_empty"], &[]);
        let method = facts(&["Engine", "Engine.is_empty"], &[]);
        let mut user = facts(&["run"], &["is_empty"]);
        user.member_references = vec!["is_empty".into()];
        let nodes = [
            node(b"src/util.rs", &free),
            node(b"src/engine.rs", &method),
            node(b"src/run.rs", &user),
        ];
        let r = rank(&nodes);
        assert!(r.used_by[0].is_empty(), "{:?}", r.used_by[0]);
        // (A fifth: `is_empty` is a standard method name, [`is_standard_method`].)
        assert_eq!(r.used_by[1].get("is_empty"), Some(&UNNAMED_OWNER_SHARE));
        assert!(r.scores[1] > r.scores[0], "{:?}", r.scores);
        // Used on its own, the same name means either.
        user.member_references.clear();
        let nodes = [
            node(b"src/util.rs", &free),
            node(b"src/engine.rs", &method),
            node(b"src/run.rs", &user),
        ];
        let r = rank(&nodes);
        assert_eq!(r.used_by[0].get("is_empty"), Some(&1.0));
        // A JavaScript method assigned to a property (`app.use = function use(fn)`) is named
        // `use` alone, and is a member all the same.
        let mut assigned = facts(&["use"], &[]);
        assigned.symbols[0].signature = "app.use = function use(fn)".into();
        let free = facts(&["use"], &[]);
        let mut caller = facts(&["main"], &["use"]);
        caller.member_references = vec!["use".into()];
        let nodes = [
            node(b"lib/application.js", &assigned),
            node(b"src/jsx/hooks.js", &free),
            node(b"lib/main.js", &caller),
        ];
        let r = rank(&nodes);
        assert_eq!(r.used_by[0].get("use"), Some(&1.0));
        assert!(r.used_by[1].is_empty(), "{:?}", r.used_by[1]);
    }

    /// In Java and C#, a member use counts fully where the file names a type that defines
    /// the member, and a fifth elsewhere: mockito's `HashCodeAndEqualsSafeSet` was ranked by
    /// every collection's `contains`.
    #[test]
    fn a_java_member_use_counts_fully_where_the_file_names_its_type() {
        let java = |defs: &[&str], refs: &[&str]| CodeFacts {
            language: "Java".into(),
            ..facts(defs, refs)
        };
        let accessor = java(&["Accessor", "Accessor.get"], &[]);
        let mut untyped = java(&["Job", "Job.run"], &["Map", "get"]);
        untyped.member_references = vec!["get".into()];
        let mut typed = java(&["Cache", "Cache.load"], &["Accessor", "get"]);
        typed.member_references = vec!["get".into()];
        let nodes = [
            node(b"src/main/java/a/Accessor.java", &accessor),
            node(b"src/main/java/a/Job.java", &untyped),
            node(b"src/main/java/a/Cache.java", &typed),
        ];
        let r = rank(&nodes);
        let uses = r.used_by[0].get("get").copied().unwrap_or_default();
        assert!((uses - (1.0 + UNNAMED_OWNER_SHARE)).abs() < 1e-9, "{uses}");
        // Rust infers types: every member use counts.
        let owner = facts(&["Accessor", "Accessor.load"], &[]);
        let mut user = facts(&["run"], &["load"]);
        user.member_references = vec!["load".into()];
        let rust = [node(b"src/accessor.rs", &owner), node(b"src/job.rs", &user)];
        assert_eq!(rank(&rust).used_by[0].get("load"), Some(&1.0));
        // Save a name the standard types define and code calls all the time (`Option::map`,
        // `Vec::len`): a fifth (http's `Request.map`).
        let owner = facts(&["Request", "Request.map"], &[]);
        let mut user = facts(&["run"], &["map"]);
        user.member_references = vec!["map".into()];
        let rust = [node(b"src/request.rs", &owner), node(b"src/job.rs", &user)];
        let uses = rank(&rust).used_by[0]
            .get("map")
            .copied()
            .unwrap_or_default();
        assert!((uses - UNNAMED_OWNER_SHARE).abs() < 1e-9, "{uses}");
    }

    /// A Java file that imports a type of the name means that type, and a type nested in
    /// another is named on its own only where the outer one is named: mybatis's nested
    /// `@interface List` of `Select` had every `java.util.List` use, and `ResolverUtil`'s
    /// nested `interface Test` every JUnit `@Test`.
    #[test]
    fn java_names_mean_the_imported_type_and_nested_types_need_their_outer() {
        let java = |defs: &[&str], refs: &[&str], imports: &[&str]| {
            let mut f = CodeFacts {
                language: "Java".into(),
                imports: imports.iter().map(|i| (*i).into()).collect(),
                ..facts(defs, refs)
            };
            for s in &mut f.symbols {
                s.kind = "class".into();
            }
            f
        };
        let select = java(&["Select", "Select.List"], &[], &[]);
        let imported = java(&["Repo"], &["List"], &["java.util.List"]);
        let unimported = java(&["Store"], &["List"], &["java.util.*"]);
        let outer = java(&["Mapper"], &["List", "Select"], &["org.acme.Select"]);
        let own = java(&["Catalog"], &["Catalog"], &[]);
        let user = java(&["Shop"], &["Catalog"], &["org.acme.Catalog"]);
        let nodes = [
            node(b"src/main/java/org/acme/Select.java", &select),
            node(b"src/main/java/org/acme/Repo.java", &imported),
            node(b"src/main/java/org/acme/Store.java", &unimported),
            node(b"src/main/java/org/acme/Mapper.java", &outer),
            node(b"src/main/java/org/acme/Catalog.java", &own),
            node(b"src/main/java/org/acme/Shop.java", &user),
        ];
        let r = rank(&nodes);
        // Only `Mapper`, which names `Select`, may mean `Select.List`.
        assert_eq!(r.used_by[0].get("List"), Some(&1.0));
        // A type the import names is still the project's.
        assert_eq!(r.used_by[4].get("Catalog"), Some(&1.0));
    }

    /// A C# extension method is called on a value of another type, never through its class:
    /// its uses count in full where the file names no type that defines it (Humanizer's API is
    /// all extension methods, and counted a fifth).
    #[test]
    fn a_csharp_extension_method_use_counts_in_full() {
        let cs = |defs: &[&str], refs: &[&str]| CodeFacts {
            language: "C#".into(),
            ..facts(defs, refs)
        };
        let mut extensions = cs(
            &[
                "StringExtensions",
                "StringExtensions.Shout",
                "StringExtensions.Trim",
            ],
            &[],
        );
        extensions.symbols[1].kind = "method".into();
        extensions.symbols[1].signature = "public static string Shout(this string input)".into();
        extensions.symbols[2].kind = "method".into();
        extensions.symbols[2].signature = "public string Trim(string input)".into();
        let mut user = cs(&["Greeter"], &["Shout", "Trim"]);
        user.member_references = vec!["Shout".into(), "Trim".into()];
        let nodes = [
            node(b"src/Lib/StringExtensions.cs", &extensions),
            node(b"src/Lib/Greeter.cs", &user),
        ];
        let r = rank(&nodes);
        assert_eq!(r.used_by[0].get("Shout"), Some(&1.0));
        let trim = r.used_by[0].get("Trim").copied().unwrap_or_default();
        assert!((trim - UNNAMED_OWNER_SHARE).abs() < 1e-9, "{trim}");
    }

    /// An annotation type the project's own code puts on its declarations counts a fifth
    /// (mockito's `@NotExtensible` joined its overview); its tests' uses count in full.
    #[test]
    fn an_annotation_the_code_puts_on_itself_counts_a_fifth() {
        let java = |defs: &[&str], refs: &[&str]| CodeFacts {
            language: "Java".into(),
            ..facts(defs, refs)
        };
        let mut marker = java(&["NotExtensible"], &[]);
        marker.symbols[0].signature = "public @interface NotExtensible".into();
        let user = java(&["Invocation"], &["NotExtensible"]);
        let test = java(&["InvocationTest"], &["NotExtensible"]);
        let nodes = [
            node(b"src/main/java/a/NotExtensible.java", &marker),
            node(b"src/main/java/a/Invocation.java", &user),
            node(b"src/test/java/a/InvocationTest.java", &test),
        ];
        let r = rank(&nodes);
        let uses = r.used_by[0]
            .get("NotExtensible")
            .copied()
            .unwrap_or_default();
        assert!((uses - ANNOTATION_SHARE).abs() < 1e-9, "{uses}");
        assert_eq!(r.client_uses[0].get("NotExtensible"), Some(&1.0));
    }

    #[test]
    fn a_test_helper_never_outranks_the_definition_it_shadows() {
        let lib = facts(&["parse"], &[]);
        let helper = facts(&["parse"], &["parse"]);
        let user = facts(&["main"], &["parse"]);
        let nodes = [
            node(b"tests/helpers.rs", &helper),
            node(b"src/parse.rs", &lib),
            node(b"src/main.rs", &user),
        ];
        let r = rank(&nodes);
        assert!(r.scores[1] > r.scores[0], "{:?}", r.scores);
        // The source file's use counts for the library, never for the test helper.
        assert_eq!(r.used_by[1].get("parse"), Some(&1.0));
        assert!(r.used_by[0].is_empty());
    }

    /// A crate root's private `use` brings a name in to call it; only a `pub use` hands it on
    /// (clap_complete_nushell's `lib.rs` listed clap's `ValueHint` as its API).
    #[test]
    fn a_rust_root_hands_on_only_what_it_pub_uses() {
        let mut lib = facts(&["ValueHint", "Command"], &[]);
        for s in &mut lib.symbols {
            s.kind = "struct".into();
            s.visibility = Some("public".into());
        }
        let mut root = facts(&[], &["ValueHint", "Command"]);
        root.reexports = vec!["Command".into()];
        let nodes = [
            node(b"clap/src/builder.rs", &lib),
            Node {
                path: b"nushell/src/lib.rs",
                facts: &root,
                boost: 3.0,
                root: true,
            },
        ];
        let r = rank(&nodes);
        let names: Vec<&str> = r.root_exports[1].iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["Command"]);
    }

    /// A module's default export leads its root's exports list, even a constant, ahead of
    /// functions the project calls more (ky's root listed `isHTTPError isNetworkError …`, not
    /// `ky`); it weighs no more as a symbol for it.
    #[test]
    fn a_default_export_leads_its_roots_exports() {
        let ts = |defs: &[&str], refs: &[&str]| CodeFacts {
            language: "TypeScript".into(),
            ..facts(defs, refs)
        };
        let mut root = ts(&["ky", "isHTTPError"], &[]);
        root.symbols[0].kind = "constant".into();
        root.symbols[1].visibility = Some("exported".into());
        root.symbols[0].visibility = Some("exported".into());
        let users: Vec<CodeFacts> = (0..3).map(|_| ts(&[], &["isHTTPError"])).collect();
        let ranked = |root: &CodeFacts| {
            let mut nodes = vec![Node {
                path: b"source/index.ts",
                facts: root,
                boost: 3.0,
                root: true,
            }];
            let paths = [b"source/a.ts", b"source/b.ts", b"source/c.ts"];
            nodes.extend(users.iter().zip(paths).map(|(f, p)| node(p, f)));
            rank(&nodes)
        };
        let names = |r: &Ranking| -> Vec<String> {
            r.root_exports[0].iter().map(|(n, _)| n.clone()).collect()
        };
        // An exported constant is listed, after what the project uses more.
        assert_eq!(names(&ranked(&root)), ["isHTTPError", "ky"]);
        root.default_export = Some("ky".into());
        let r = ranked(&root);
        assert_eq!(names(&r), ["ky", "isHTTPError"]);
        assert!(!r.exported[0].contains_key("ky"), "{:?}", r.exported);
    }

    /// In JavaScript and TypeScript an exported constant is API an index hands on (trpc's
    /// `export const initTRPC = new TRPCBuilder()`); elsewhere a constant is no export.
    /// A type guard comes after the type it tests, however much more it is called; one whose
    /// type the list does not hold keeps its place.
    #[test]
    fn a_type_guard_comes_after_the_type_it_tests() {
        let ts = |defs: &[&str], refs: &[&str]| CodeFacts {
            language: "TypeScript".into(),
            ..facts(defs, refs)
        };
        let mut root = ts(&["HttpError", "isHttpError", "isReady"], &[]);
        root.symbols[0].kind = "class".into();
        for s in &mut root.symbols {
            s.visibility = Some("exported".into());
        }
        let users: Vec<CodeFacts> = (0..4)
            .map(|i| match i {
                0 => ts(&[], &["HttpError", "isHttpError", "isReady"]),
                _ => ts(&[], &["isHttpError", "isReady"]),
            })
            .collect();
        let mut nodes = vec![Node {
            path: b"src/index.ts",
            facts: &root,
            boost: 3.0,
            root: true,
        }];
        let paths = [b"src/a.ts", b"src/b.ts", b"src/c.ts", b"src/d.ts"];
        nodes.extend(users.iter().zip(paths).map(|(f, p)| node(p, f)));
        let r = rank(&nodes);
        let names: Vec<&str> = r.root_exports[0].iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["isReady", "HttpError", "isHttpError"]);
    }

    #[test]
    fn an_exported_javascript_constant_is_handed_on() {
        for (language, listed) in [("TypeScript", true), ("Rust", false)] {
            let mut lib = CodeFacts {
                language: language.into(),
                ..facts(&["initTRPC"], &[])
            };
            lib.symbols[0].kind = "constant".into();
            lib.symbols[0].visibility = Some("exported".into());
            let mut root = CodeFacts {
                language: language.into(),
                ..facts(&[], &["initTRPC"])
            };
            root.reexports = vec!["initTRPC".into()];
            let nodes = [
                node(b"packages/server/src/initTRPC.ts", &lib),
                Node {
                    path: b"packages/server/src/index.ts",
                    facts: &root,
                    boost: 3.0,
                    root: true,
                },
            ];
            let r = rank(&nodes);
            let names: Vec<&str> = r.root_exports[1].iter().map(|(n, _)| n.as_str()).collect();
            assert_eq!(names.contains(&"initTRPC"), listed, "{language}: {names:?}");
        }
    }

    /// A Ruby constant lives in the file named for it: rack's `lib/rack.rb` autoloads
    /// `Request` from `rack/request.rb`, not the `Request` nested in `auth/basic.rb`'s `Basic`
    /// (which led rack's API instead of `Rack::Request`).
    #[test]
    fn a_ruby_name_means_the_file_named_for_it() {
        let ruby = |defs: &[&str], refs: &[&str]| CodeFacts {
            language: "Ruby".into(),
            ..facts(defs, refs)
        };
        let (request, basic) = (ruby(&["Request"], &[]), ruby(&["Basic", "Request"], &[]));
        let root = ruby(&[], &["Request", "QueryParser"]);
        let parser = ruby(&["QueryParser"], &[]);
        let other_parser = ruby(&["QueryParser"], &[]);
        let nodes = [
            node(b"lib/rack/auth/basic.rb", &basic),
            node(b"lib/rack/request.rb", &request),
            Node {
                path: b"lib/rack.rb",
                facts: &root,
                boost: 3.0,
                root: true,
            },
            node(b"lib/rack/query_parser.rb", &parser),
            node(b"lib/rack/parsers.rb", &other_parser),
        ];
        let r = rank(&nodes);
        let exported = |i: usize, name: &str| r.exported[i].get(name).copied().unwrap_or(0.0);
        assert!(exported(1, "Request") > 0.0, "{:?}", r.exported);
        assert_eq!(exported(0, "Request"), 0.0, "{:?}", r.exported);
        assert!(exported(3, "QueryParser") > 0.0 && exported(4, "QueryParser") == 0.0);
        let defining: [&[u8]; 2] = [b"lib/rack/request.rb", b"lib/rack/auth/basic.rb"];
        let means = |target: &[u8]| {
            may_mean(
                b"lib/rack.rb",
                ("Request", true),
                &[],
                &[],
                &defining,
                target,
            )
        };
        assert!(means(b"lib/rack/request.rb") && !means(b"lib/rack/auth/basic.rb"));
        // Nor does it of a method's: `parse` is whichever receiver's.
        let methods: [&[u8]; 2] = [b"lib/rack/parse.rb", b"lib/rack/utils.rb"];
        assert!(may_mean(
            b"lib/rack.rb",
            ("parse", true),
            &[],
            &[],
            &methods,
            b"lib/rack/utils.rb"
        ));
        // Elsewhere a file's name says nothing of what it defines.
        let python: [&[u8]; 2] = [b"pkg/request.py", b"pkg/basic.py"];
        assert!(may_mean(
            b"app.py",
            ("Request", true),
            &["pkg".to_owned()],
            &[],
            &python,
            b"pkg/basic.py"
        ));
    }

    #[test]
    fn ruby_file_names_are_snake_case() {
        for (name, file) in [
            ("QueryParser", "query_parser"),
            ("HTTPClient", "http_client"),
            ("Utils", "utils"),
            ("OAuth2Strategy", "o_auth2_strategy"),
            ("URI", "uri"),
        ] {
            assert_eq!(snake_case(name), file, "{name}");
        }
    }

    #[test]
    fn names_a_package_root_uses_count_more() {
        let helpers = facts(&["url_for", "get_debug_flag"], &[]);
        // A Rust root hands on what it `pub use`s.
        let mut root = facts(&[], &["url_for"]);
        root.reexports = vec!["url_for".into()];
        let user = facts(&["view"], &["get_debug_flag"]);
        let nodes = [
            node(b"flask/helpers.py", &helpers),
            Node {
                path: b"flask/__init__.py",
                facts: &root,
                boost: 3.0,
                root: true,
            },
            node(b"flask/views.py", &user),
        ];
        let r = rank(&nodes);
        let used = |name: &str| r.used_by[0].get(name).copied().unwrap_or(0.0);
        assert!(
            used("url_for") > used("get_debug_flag"),
            "{:?}",
            r.used_by[0]
        );
        // The root passes its rank to what it re-exports, and only to that.
        let exported = r.exported[0].get("url_for").copied().unwrap_or(0.0);
        assert!(
            exported > 0.0 && exported <= r.scores[1],
            "{:?}",
            r.exported
        );
        assert_eq!(r.exported[0].get("get_debug_flag"), None);
        assert!(r.exported[2].is_empty() && r.exported[1].is_empty());
        // The root weighs what it exposes.
        assert!(
            r.api_mass[1] > r.scores[1] + r.scores[0] * 0.99,
            "{:?}",
            r.api_mass
        );
        assert_eq!(r.api_mass[2], r.scores[2]);
    }

    #[test]
    fn a_package_roots_own_public_definitions_are_exported() {
        let mut root = facts(
            &[
                "parseExpression",
                "helper",
                "Parser.parse",
                "ast",
                "VERSION",
            ],
            &[],
        );
        root.symbols[0].visibility = Some("exported".into());
        root.symbols[2].visibility = Some("exported".into());
        // `pub mod ast;`, a public constant.
        for (i, kind) in [(3, "module"), (4, "constant")] {
            root.symbols[i].visibility = Some("public".into());
            root.symbols[i].kind = kind.into();
        }
        let mut plain = facts(&["parseFile"], &[]);
        plain.symbols[0].visibility = Some("exported".into());
        let nodes = [
            Node {
                root: true,
                ..node(b"packages/parser/src/index.ts", &root)
            },
            node(b"packages/parser/src/file.ts", &plain),
        ];
        let r = rank(&nodes);
        // Exported and top-level: the root's weight; not exported, or a member: nothing.
        assert_eq!(r.exported[0].get("parseExpression"), Some(&r.scores[0]));
        assert_eq!(r.exported[0].get("helper"), None);
        assert_eq!(r.exported[0].get("parse"), None);
        assert_eq!(r.exported[0].get("ast"), None);
        assert_eq!(r.exported[0].get("VERSION"), None);
        // Only roots declare a package's API.
        assert!(r.exported[1].is_empty(), "{:?}", r.exported);
    }

    #[test]
    fn the_package_other_files_import_by_name_weighs_most() {
        // `core` is imported by its package path from three files; `util` is not imported by
        // package but defines the names everything uses.
        let core = facts(&[], &["run"]);
        let run = facts(&["run"], &[]);
        let util = facts(&["helper"], &[]);
        let mut users = Vec::new();
        for _ in 0..3 {
            let mut u = facts(&[], &["helper"]);
            u.imports = vec!["\"packages/core/src\"".into()];
            users.push(u);
        }
        let mut core_root = core;
        core_root.imports = vec!["./run".into()];
        core_root.reexports = vec!["run".into()];
        let mut nodes = vec![
            Node {
                path: b"packages/core/src/index.ts",
                facts: &core_root,
                boost: 3.0,
                root: true,
            },
            node(b"packages/core/src/run.ts", &run),
            Node {
                path: b"packages/util/src/index.ts",
                facts: &util,
                boost: 3.0,
                root: true,
            },
        ];
        let paths: Vec<String> = (0..3)
            .map(|i| format!("packages/app/src/u{i}.ts"))
            .collect();
        for (p, u) in paths.iter().zip(&users) {
            nodes.push(node(p.as_bytes(), u));
        }
        let r = rank(&nodes);
        // util's own score is higher (every user references its `helper`)...
        assert!(r.scores[2] > r.scores[0], "{:?}", r.scores);
        // ...but core is the package the others import: its API weighs more.
        assert!(r.api_mass[0] > r.api_mass[2], "{:?}", r.api_mass);
        assert!(r.exported[1].get("run").copied().unwrap_or(0.0) > r.scores[0]);
    }
}
