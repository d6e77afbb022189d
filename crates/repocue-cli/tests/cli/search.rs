//! Search cases: ranking, scopes, budgets, freshness, query safety and determinism of
//! `repocue search` and `repocue cue --view search` (docs/cues.md).

use serde_json::Value;

use crate::support::{tokens, warning, TestRepo};

/// A project where `parse_config` is defined once and mentioned elsewhere: in a test file's
/// name and a symbol name, and in a document's path.
fn project() -> TestRepo {
    let repo = TestRepo::with_files(&[
        (
            "src/config.rs",
            "pub fn parse_config(s: &str) -> u32 {\n    s.len() as u32\n}\n\n\
             pub fn load_settings() -> u32 {\n    parse_config(\"a\")\n}\n",
        ),
        (
            "tests/parse_config_test.rs",
            "use crate::config::parse_config;\n\n\
             fn check_parse_config_works() {\n    parse_config(\"x\");\n}\n",
        ),
        (
            "docs/parse_config.md",
            "# Config\n\nHow parse_config reads files.\n\n## Options\n\nText.\n\n\
             ## Loading settings\n\nMore text.\n",
        ),
        ("README.md", "# Project\n\n## Usage\n\nRun it.\n"),
        ("src/main.rs", "fn main() {\n    println!(\"hi\");\n}\n"),
    ]);
    repo.init();
    repo
}

fn search(repo: &TestRepo, args: &[&str]) -> Value {
    let mut all = vec!["search"];
    all.extend_from_slice(args);
    repo.json(&all)
}

fn hits(cue: &Value) -> &Vec<Value> {
    cue["content"]["hits"].as_array().expect("hits")
}

fn ids(cue: &Value) -> Vec<&str> {
    hits(cue)
        .iter()
        .map(|h| h["id"].as_str().unwrap())
        .collect()
}

#[test]
fn a_definition_comes_before_an_alias_that_bm25_prefers() {
    // `View` is mentioned five times in application.js (a variable holding the import) and
    // once in view.js, where it is defined: the definition is the first hit.
    let repo = TestRepo::with_files(&[
        (
            "lib/application.js",
            "var View = require('./view');\n\nfunction render(name) {\n  var view = new View(name);\n  return view;\n}\n\nmodule.exports = { render: render, View: View };\n",
        ),
        (
            "lib/view.js",
            "function View(name) {\n  this.name = name;\n}\n\nmodule.exports = View;\n",
        ),
    ]);
    repo.init();
    let cue = search(&repo, &["View", "--no-refresh"]);
    assert_eq!(hits(&cue)[0]["id"], "symbol:lib/view.js:View", "{cue:#}");
}

/// A C++ typedef or `using` that brings a namesake into its scope (yaml-cpp's
/// `typedef typename Impl::Node Node` in `contrib/graphbuilder.h`) comes after the class it
/// names, though bm25 prefers it.
#[test]
fn a_cpp_class_comes_before_a_typedef_that_brings_it_in() {
    let repo = TestRepo::with_files(&[
        (
            "include/acme/node.h",
            "namespace Acme {\nclass Node {\n public:\n  int size() const;\n};\n}\n",
        ),
        (
            "include/acme/builder.h",
            "namespace Acme {\ntemplate <class Impl>\nclass Builder {\n public:\n  typedef typename Impl::Node Node;\n  Node build();\n};\n}\n",
        ),
        (
            "include/acme/tree.h",
            "namespace Acme {\nstruct Tree {\n  using Node = detail::Node;\n};\n}\n",
        ),
        ("src/node.cpp", "#include \"acme/node.h\"\nint Acme::Node::size() const { return 0; }\n"),
    ]);
    repo.init();
    let cue = search(&repo, &["Node", "--scope", "code"]);
    assert_eq!(
        ids(&cue).first().copied(),
        Some("symbol:include/acme/node.h:Acme.Node"),
        "{cue:#}"
    );
}

/// A C# partial class is defined in many files; a search for it finds first the one named for
/// it (Polly's `Policy` came first from `Bulkhead/AsyncBulkheadSyntax.cs`, not `Policy.cs`).
#[test]
fn a_partial_class_is_found_first_in_the_file_named_for_it() {
    let part =
        |extra: &str| format!("namespace Acme;\n\npublic partial class Widget\n{{\n{extra}}}\n");
    let repo = TestRepo::with_files(&[
        ("src/Acme/Async/WidgetAsyncSyntax.cs", &part("")),
        ("src/Acme/Widget.Sync.cs", &part("")),
        (
            "src/Acme/Widget.cs",
            &part("    public Widget(string name)\n    {\n        Name = name;\n    }\n\n    public string Name { get; }\n"),
        ),
    ]);
    repo.init();
    let cue = search(&repo, &["Widget", "--scope", "code"]);
    assert_eq!(
        ids(&cue).first().copied(),
        Some("symbol:src/Acme/Widget.cs:Widget"),
        "{cue:#}"
    );
}

/// Where files are not named for their types (Go), of two definitions of a name the one nearer
/// the root comes first, a deeper file named for it after: logrus's `Level` in `logrus.go`, not
/// a hook's `level.go` adapter.
#[test]
fn a_go_type_nearer_the_root_comes_before_a_deeper_file_named_for_it() {
    let repo = TestRepo::with_files(&[
        ("go.mod", "module example.com/lg\n\ngo 1.22\n"),
        (
            "lg.go",
            "package lg\n\n// Level is a logging level.\ntype Level uint32\n\ntype Logger struct{ Level Level }\n\nfunc (l *Logger) SetLevel(v Level) { l.Level = v }\n",
        ),
        (
            "hooks/bridge/level.go",
            "package bridge\n\nimport lg \"example.com/lg\"\n\n// Level adapts a lg.Level.\ntype Level lg.Level\n",
        ),
    ]);
    repo.init();
    let cue = search(&repo, &["Level", "--scope", "code"]);
    assert_eq!(
        ids(&cue).first().copied(),
        Some("symbol:lg.go:Level"),
        "{cue:#}"
    );
}

/// A deprecated class and its members come after the live namesake: junit4's `search Assert`
/// and `search assertTrue` led with the deprecated `junit.framework.Assert`.
#[test]
fn a_deprecated_definition_comes_after_the_live_namesake() {
    let repo = TestRepo::with_files(&[
        (
            "src/main/java/junit/framework/Assert.java",
            "package junit.framework;\n/** @deprecated use org.junit.Assert */\n@Deprecated\npublic class Assert { public static void assertTrue(boolean b) {} }\n",
        ),
        (
            "src/main/java/org/junit/Assert.java",
            "package org.junit;\npublic class Assert { public static void assertTrue(boolean b) {} }\n",
        ),
    ]);
    repo.init();
    for (query, want) in [
        (
            "Assert",
            "symbol:src/main/java/org/junit/Assert.java:Assert",
        ),
        (
            "assertTrue",
            "symbol:src/main/java/org/junit/Assert.java:Assert.assertTrue",
        ),
    ] {
        let cue = search(&repo, &[query, "--scope", "code"]);
        assert_eq!(ids(&cue).first().copied(), Some(want), "{cue:#}");
    }
}

/// Searching a class by its name finds the class, then its public members, then its private
/// ones (Polly's `search PredicateBuilder` listed a private field and two private methods,
/// bm25's favourites, before `Build`; phpdotenv's `search Dotenv` four private properties
/// before `createImmutable`).
#[test]
fn a_classes_public_members_come_before_its_private_ones() {
    let repo = TestRepo::with_files(&[(
        "src/PredicateBuilder.cs",
        "public class PredicateBuilder\n{\n    private readonly int _predicates = 0;\n    private static int CreatePredicate(PredicateBuilder p) => 1;\n    private PredicateBuilder Add(PredicateBuilder p) => p;\n    public PredicateBuilder HandleResult(int predicate, string reason, bool strict) => this;\n    public int Build(PredicateBuilder other, int first, int second, int third) => 1;\n}\n",
    )]);
    repo.init();
    let cue = search(&repo, &["PredicateBuilder", "--no-refresh"]);
    let names: Vec<&str> = ids(&cue)
        .into_iter()
        .filter_map(|i| i.strip_prefix("symbol:src/PredicateBuilder.cs:"))
        .collect();
    assert_eq!(names[0], "PredicateBuilder", "{cue:#}");
    let at = |n: &str| names.iter().position(|x| *x == n).unwrap_or(usize::MAX);
    for public in ["PredicateBuilder.HandleResult", "PredicateBuilder.Build"] {
        for private in ["PredicateBuilder.CreatePredicate", "PredicateBuilder.Add"] {
            assert!(at(public) < at(private), "{public} {private}: {names:?}");
        }
    }
}

#[test]
fn a_public_definition_comes_before_a_private_namesake() {
    // Three methods `sink`: a private one first in path order and with the shortest
    // signature, which bm25 prefers; the two public ones come first.
    let repo = TestRepo::with_files(&[
        (
            "src/a_impl.rs",
            "struct Inner;\n\nimpl Inner {\n    fn sink(&self) {}\n}\n",
        ),
        (
            "src/json.rs",
            "pub struct Json;\n\nimpl Json {\n    pub fn sink(&mut self, out: &mut Vec<u8>) -> usize {\n        out.len()\n    }\n}\n",
        ),
        (
            "src/standard.rs",
            "pub struct Standard;\n\nimpl Standard {\n    pub fn sink(&mut self, out: &mut Vec<u8>) -> usize {\n        out.len()\n    }\n}\n",
        ),
    ]);
    repo.init();
    let cue = search(&repo, &["sink", "--no-refresh"]);
    let ids = ids(&cue);
    let private = ids
        .iter()
        .position(|i| *i == "symbol:src/a_impl.rs:Inner.sink")
        .unwrap_or_else(|| panic!("{cue:#}"));
    for public in [
        "symbol:src/json.rs:Json.sink",
        "symbol:src/standard.rs:Standard.sink",
    ] {
        let at = ids.iter().position(|i| *i == public);
        assert!(at.is_some_and(|at| at < private), "{public}: {ids:?}");
    }
}

#[test]
fn the_definition_a_package_exports_comes_before_a_namesake() {
    // Two classes `Blueprint`: the base one in a subpackage, mentioned more often, and the
    // one the package root imports by name, which is what `shop.Blueprint` means. And two
    // functions `declare`: one in a package's `index.ts`, one in a shim nobody exports.
    let repo = TestRepo::with_files(&[
        (
            "src/shop/__init__.py",
            "from .blueprints import Blueprint as Blueprint\n",
        ),
        (
            "src/shop/blueprints.py",
            "from .base.blueprints import Blueprint as Base\n\n\nclass Blueprint(Base):\n    pass\n",
        ),
        (
            "src/shop/base/blueprints.py",
            "class Blueprint:\n    \"\"\"Blueprint, Blueprint.\"\"\"\n\n    def blueprint(self):\n        return Blueprint\n",
        ),
        (
            "packages/utils/src/index.ts",
            "export function declare(builder: (api: unknown, options: unknown) => unknown): unknown {\n  return builder;\n}\n",
        ),
        (
            "packages/standalone/src/utils-shim.ts",
            "export function declare(x: any) {\n  return x;\n}\n",
        ),
    ]);
    repo.init();
    let cue = search(&repo, &["Blueprint", "--no-refresh"]);
    assert_eq!(
        hits(&cue)[0]["id"],
        "symbol:src/shop/blueprints.py:Blueprint",
        "{cue:#}"
    );
    let cue = search(&repo, &["declare", "--no-refresh"]);
    assert_eq!(
        hits(&cue)[0]["id"],
        "symbol:packages/utils/src/index.ts:declare",
        "{cue:#}"
    );
}

#[test]
fn symbol_name_query_finds_the_definition_first() {
    let repo = project();
    let cue = search(&repo, &["parse_config", "--no-refresh"]);
    assert_eq!(cue["kind"], "search");
    assert_eq!(cue["content"]["query"], "parse_config");
    assert_eq!(cue["content"]["matched"], "all");
    let first = &hits(&cue)[0];
    assert_eq!(first["id"], "symbol:src/config.rs:parse_config", "{cue:#}");
    assert_eq!(first["kind"], "symbol");
    assert_eq!(first["path"], "src/config.rs");
    assert_eq!(first["line"], 1);
    assert_eq!(first["title"], "pub fn parse_config(s: &str) -> u32");
    // The other mentions are found too, after the definition.
    let found = ids(&cue);
    for other in [
        "file:docs/parse_config.md",
        "file:tests/parse_config_test.rs",
        "symbol:tests/parse_config_test.rs:check_parse_config_works",
    ] {
        assert!(found.contains(&other), "{other} missing: {found:?}");
    }
    assert_eq!(cue["content"]["total_hits"], found.len() as u64);
    // The defining file is what a path query for its name finds first.
    let by_file = search(&repo, &["config.rs", "--no-refresh"]);
    assert_eq!(hits(&by_file)[0]["id"], "file:src/config.rs", "{by_file:#}");
    // The query may be given as an option too, as `cue --view search` takes it.
    let as_option = search(&repo, &["--query", "parse_config", "--no-refresh"]);
    assert_eq!(as_option, cue);
    // Exactly one of them: both, or neither, is a usage error.
    for args in [&["search", "a", "--query", "b"][..], &["search"]] {
        let ran = repo.repocue(args);
        assert_eq!(ran.code(), Some(2), "{args:?}");
        assert!(ran.stderr().contains("Usage: repocue search"), "{args:?}");
    }
}

#[test]
fn scopes_restrict_the_kinds_of_hits() {
    let repo = project();
    for (scope, kind) in [("code", "symbol"), ("docs", "doc"), ("paths", "path")] {
        let cue = search(&repo, &["config", "--scope", scope, "--no-refresh"]);
        assert_eq!(cue["content"]["scopes"], serde_json::json!([scope]));
        let hits = hits(&cue);
        assert!(!hits.is_empty(), "{scope}: {cue:#}");
        assert!(hits.iter().all(|h| h["kind"] == kind), "{scope}: {cue:#}");
        if kind == "doc" {
            assert!(
                hits.iter().all(|h| h["id"]
                    .as_str()
                    .unwrap()
                    .starts_with("doc:docs/parse_config.md#")),
                "{cue:#}"
            );
        }
        if kind == "path" {
            assert!(hits.iter().all(|h| h.get("title").is_none()), "{cue:#}");
        }
    }
    let both = search(&repo, &["config", "--scope", "code,docs", "--no-refresh"]);
    assert!(hits(&both).iter().all(|h| h["kind"] != "path"), "{both:#}");
    assert!(hits(&both).iter().any(|h| h["kind"] == "doc"), "{both:#}");
    assert!(
        hits(&both).iter().any(|h| h["kind"] == "symbol"),
        "{both:#}"
    );

    for bad in ["bogus", "code,bogus", "", ","] {
        repo.repocue(&["search", "config", "--scope", bad, "--no-refresh"])
            .error_code("invalid_argument");
    }
    repo.repocue(&[
        "cue", "--view", "search", "--query", "config", "--scope", "bogus",
    ])
    .error_code("invalid_argument");
    repo.repocue(&["cue", "--view", "search", "--no-refresh"])
        .error_code("invalid_argument");
}

#[test]
fn search_fits_every_budget_and_offers_the_rest() {
    let repo = project();
    let mut omitted = 0;
    let mut complete = 0;
    for max in [100u64, 150, 200, 250, 300, 400, 500, 1000, 2000] {
        let m = max.to_string();
        let ran = repo.repocue(&[
            "search",
            "config",
            "--scope",
            "code,docs,paths",
            "--max-tokens",
            &m,
            "--no-refresh",
        ]);
        if ran.code() != Some(0) {
            let e = ran.error_code("budget_too_small");
            assert!(max < 300, "search failed at {max}: {e:?}");
            continue;
        }
        let out = ran.stdout();
        let json = out.strip_suffix('\n').expect("newline-terminated");
        let cue: Value = serde_json::from_str(json).unwrap();
        let est = tokens(json);
        assert!(est <= max, "{est} tokens over {max}");
        let total = cue["content"]["total_hits"].as_u64().unwrap();
        let shown = hits(&cue).len() as u64;
        match cue.get("omitted").and_then(Value::as_u64) {
            Some(n) => {
                omitted += 1;
                assert_eq!(shown + n, total, "{cue:#}");
                let more = &cue["more"][0];
                assert_eq!(more["view"], "search", "{cue:#}");
                assert_eq!(more["query"], "config");
                assert_eq!(more["scope"], "code,docs,paths");
                assert!(more["max_tokens"].as_u64().unwrap() > max);
            }
            None => {
                complete += 1;
                assert_eq!(shown, total, "{cue:#}");
                assert!(cue.get("more").is_none(), "{cue:#}");
            }
        }
    }
    assert!(omitted > 0 && complete > 0, "{omitted} / {complete}");
}

#[test]
fn search_reads_fresh_state_after_a_rename() {
    let repo = project();
    let old_id = "symbol:src/config.rs:load_settings";
    let new_id = "symbol:src/config.rs:read_settings";
    assert_eq!(
        ids(&search(&repo, &["load_settings", "--no-refresh"]))[0],
        old_id
    );
    let text = String::from_utf8(repo.read("src/config.rs")).unwrap();
    repo.write(
        "src/config.rs",
        text.replace("load_settings", "read_settings"),
    );

    let stale = search(&repo, &["load_settings", "--no-refresh"]);
    assert_eq!(stale["freshness"], "refresh-needed");
    assert!(warning(&stale, "refresh_needed").is_some(), "{stale:#}");
    assert_eq!(stale["snapshot"], "snapshot-000001");

    let old = search(&repo, &["load_settings"]);
    assert!(warning(&old, "refreshed").is_some(), "{old:#}");
    assert_eq!(old["snapshot"], "snapshot-000002");
    assert_eq!(old["freshness"], "dirty-but-indexed");
    assert!(!ids(&old).contains(&old_id), "{old:#}");

    let new = search(&repo, &["read_settings"]);
    assert_eq!(new["content"]["matched"], "all");
    assert_eq!(ids(&new)[0], new_id, "{new:#}");
    assert!(
        warning(&new, "refreshed").is_none(),
        "already fresh: {new:#}"
    );
}

/// A Python stub declares what a module defines: the definition comes first (attrs' `search
/// field` listed four `__init__.pyi` overloads before `_next_gen.py`'s `field`).
#[test]
fn a_definition_comes_before_its_python_stub() {
    let repo = TestRepo::with_files(&[
        (
            "src/lib/_impl.py",
            "def build(name, *, size=3, strict=False):\n    return name\n",
        ),
        ("src/lib/__init__.py", "from ._impl import build\n"),
        (
            "src/lib/__init__.pyi",
            "from typing import overload\n\n@overload\ndef build(name: str) -> str: ...\n@overload\ndef build(name: str, *, size: int) -> str: ...\n",
        ),
    ]);
    repo.init();
    assert_eq!(
        ids(&search(&repo, &["build"]))[0],
        "symbol:src/lib/_impl.py:build"
    );
}

/// A macro only some builds define comes after the definition it stands in for: tmux's
/// `#ifdef NEED_FUZZING` `#define main __weak main` came before the program's `main`.
#[test]
fn a_conditional_macro_comes_after_the_definition_of_its_name() {
    let repo = TestRepo::with_files(&[
        (
            "compat.h",
            "#ifdef NEED_FUZZING\n#define main __weak main\n#endif\n",
        ),
        (
            "tool.c",
            "#include \"compat.h\"\nint\nmain(int argc, char **argv)\n{\n\treturn (0);\n}\n",
        ),
    ]);
    repo.init();
    assert_eq!(
        ids(&search(&repo, &["main"]))[..2],
        ["symbol:tool.c:main", "symbol:compat.h:main"]
    );
}

/// A declaration of a module's file comes after what the module holds by that name: axum's
/// `pub mod serve;` in `lib.rs` came before the `pub fn serve` of `serve/mod.rs`.
#[test]
fn a_module_declaration_comes_after_the_function_of_its_name() {
    let repo = TestRepo::with_files(&[
        (
            "Cargo.toml",
            "[package]\nname = \"p\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        ),
        (
            "src/lib.rs",
            "pub mod routing;\npub mod serve;\npub use self::serve::serve;\n",
        ),
        (
            "src/serve/mod.rs",
            "/// Serve the app.\npub fn serve(port: u16) -> u16 { port }\n",
        ),
        ("src/routing/mod.rs", "pub struct Router;\n"),
    ]);
    repo.init();
    assert_eq!(
        ids(&search(&repo, &["serve"]))[..2],
        ["symbol:src/serve/mod.rs:serve", "symbol:src/lib.rs:serve"]
    );
    // A module of no namesake is still found first.
    assert_eq!(
        ids(&search(&repo, &["routing"]))[0],
        "symbol:src/lib.rs:routing"
    );
}

#[test]
fn a_search_that_finds_nothing_names_the_untracked_paths_it_did_not_read() {
    // An agent creates a file and searches for what it defines: untracked files are never
    // indexed (SPEC: only tracked files are), and "no hit" must not read as "nowhere".
    let repo = project();
    repo.write(
        "src/fresh.rs",
        "pub fn brand_new_helper() -> u32 {\n    2\n}\n",
    );
    repo.write(".env", "TOKEN=1\n");
    let none = search(&repo, &["brand_new_helper"]);
    assert_eq!(none["content"]["total_hits"], 0, "{none:#}");
    assert_eq!(
        none["content"]["not_searched"],
        serde_json::json!({"untracked": 1, "paths": ["src/fresh.rs"]}),
        "a secret-named path is not named: {none:#}"
    );
    let text = repo
        .repocue(&["search", "brand_new_helper", "--format", "text"])
        .success()
        .stdout();
    assert!(text.contains("src/fresh.rs"), "{text}");
    // A search that finds something says nothing of them.
    let found = search(&repo, &["parse_config"]);
    assert!(found["content"].get("not_searched").is_none(), "{found:#}");
    // Once tracked, the definition is found.
    repo.git(&["add", "src/fresh.rs"]);
    let tracked = search(&repo, &["brand_new_helper"]);
    assert_eq!(
        ids(&tracked)[0],
        "symbol:src/fresh.rs:brand_new_helper",
        "{tracked:#}"
    );
    assert!(
        tracked["content"].get("not_searched").is_none(),
        "{tracked:#}"
    );
    // Nor is a search that finds some of its words only: `brand_new_helper` is not `helper`.
    repo.write(
        "src/later.rs",
        "pub fn fresh_parse_helper() -> u32 {\n    2\n}\n",
    );
    let words = search(&repo, &["fresh_parse_helper"]);
    assert_eq!(words["content"]["matched"], "any", "{words:#}");
    assert!(
        words["content"]["total_hits"].as_u64() > Some(0),
        "{words:#}"
    );
    assert_eq!(
        words["content"]["not_searched"]["paths"],
        serde_json::json!(["src/later.rs"]),
        "{words:#}"
    );
}

#[test]
fn query_syntax_cannot_break_the_index() {
    let repo = project();
    let queries = [
        "\"",
        "\"unterminated",
        "AND OR NOT",
        "NOT",
        "a OR",
        "*",
        "*config*",
        "a:b",
        "path:config",
        "NEAR(x y)",
        "NEAR(config, 2)",
        ")",
        "(",
        "{config load}",
        "^config",
        "config^",
        "-config",
        "--",
        "'",
        "x\"y",
        "\\",
        "%_",
        "über 日本語",
        "İstanbul",
        "config\tload",
    ];
    for q in queries {
        let query = format!("--query={q}");
        for args in [
            vec!["search", "--no-refresh", "--", q],
            vec!["cue", "--view", "search", "--no-refresh", &query],
        ] {
            let ran = repo.repocue(&args);
            if ran.code() == Some(0) {
                let cue = ran.json();
                assert_eq!(cue["kind"], "search");
                assert_eq!(cue["content"]["query"], q);
            } else {
                ran.error_code("invalid_argument");
            }
        }
    }
    // The index still answers.
    let cue = search(&repo, &["parse_config", "--no-refresh"]);
    assert_eq!(hits(&cue)[0]["id"], "symbol:src/config.rs:parse_config");
}

#[test]
fn search_is_deterministic() {
    let repo = project();
    for args in [
        vec!["search", "config"],
        vec!["search", "config", "--max-tokens", "250"],
        vec![
            "search",
            "settings",
            "--scope",
            "code,docs",
            "--format",
            "markdown",
        ],
    ] {
        let a = repo.repocue(&args);
        let b = repo.repocue(&args);
        assert_eq!(a.success().stdout(), b.success().stdout(), "{args:?}");
    }
}

#[test]
fn cue_search_view_equals_the_search_command() {
    let repo = project();
    for (query, scope, max) in [
        ("parse_config", None, "500"),
        ("config", Some("docs,paths"), "2000"),
        ("settings", Some("code"), "1000"),
        ("config", None, "250"),
    ] {
        let mut a = vec!["search", query, "--max-tokens", max, "--no-refresh"];
        let mut b = vec![
            "cue",
            "--view",
            "search",
            "--query",
            query,
            "--max-tokens",
            max,
            "--no-refresh",
        ];
        if let Some(s) = scope {
            a.extend(["--scope", s]);
            b.extend(["--scope", s]);
        }
        let from_search = repo.json(&a);
        let from_cue = repo.json(&b);
        assert_eq!(
            from_search["content"], from_cue["content"],
            "{query} {scope:?} {max}"
        );
        for key in ["kind", "snapshot", "freshness", "warnings"] {
            assert_eq!(from_search[key], from_cue[key], "{key}");
        }
    }
}

#[test]
fn a_name_many_entries_mention_still_finds_its_definition() {
    // Forty methods `model` score better by bm25 than the one class `Model`, whose long
    // signature dilutes it: ranking only bm25's best candidates (25 per hit asked for) cut the
    // class before the exact-name rule could put it first (Laravel's `Model`).
    let mut files: Vec<(String, String)> = (0..40)
        .map(|i| {
            (
                format!("app/part{i:02}.py"),
                format!("class Part{i}:\n    def model(self):\n        return {i}\n"),
            )
        })
        .collect();
    files.push((
        "orm/model.py".into(),
        "class Model(Arrayable, ArrayAccess, CanBeEscaped, HasBroadcastChannel, Jsonable, \
         JsonSerializable, QueueableEntity, Stringable, UrlRoutable):\n    pass\n"
            .into(),
    ));
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, c)| (p.as_str(), c.as_str()))
        .collect();
    let repo = TestRepo::with_files(&refs);
    repo.init();
    let cue = search(&repo, &["Model", "--max-results", "1"]);
    assert_eq!(ids(&cue), ["symbol:orm/model.py:Model"], "{cue}");
    // In another case, the methods come first, and all of them rank before mere mentions.
    let cue = search(&repo, &["model", "--max-results", "3"]);
    assert!(
        ids(&cue).iter().all(|i| i.ends_with(".model")),
        "{:?}",
        ids(&cue)
    );
}

#[test]
fn a_qualified_name_finds_its_member_first() {
    // `Command.Run` (or `Command::Run`) asks for the method, not for the helpers whose names
    // hold `run` and which bm25 prefers (urfave/cli's `runBefore`, `shouldRunCompletion`).
    let repo = TestRepo::with_files(&[
        ("go.mod", "module example.com/app\n\ngo 1.22\n"),
        (
            "app.go",
            "package app\n\ntype Command struct{ Name string }\n\n\
             func (c *Command) Run(args []string) error { return c.run(args) }\n\n\
             func (c *Command) run(args []string) error { return runBefore(c) }\n\n\
             func runBefore(c *Command) error { return nil }\n\n\
             func shouldRunCompletion(c *Command) bool { return false }\n\n\
             func runCompletion(c *Command) {}\n",
        ),
    ]);
    repo.init();
    for query in ["Command.Run", "Command::Run"] {
        let cue = search(&repo, &[query]);
        let found = ids(&cue);
        assert_eq!(
            found.first(),
            Some(&"symbol:app.go:Command.Run"),
            "{query}: {found:?}"
        );
        assert_eq!(
            found.get(1),
            Some(&"symbol:app.go:Command.run"),
            "{query}: {found:?}"
        );
    }
}

#[test]
fn a_source_files_prototype_is_no_definition() {
    // Redis's `aof.c` declares `void freeClientArgv(client *c);`, defined in `networking.c`:
    // the declaration came first in a search for it. A header's declaration stays: it is the
    // API (and the definition still comes first).
    let repo = TestRepo::with_files(&[
        (
            "a.c",
            "void freeThing(int *c);\nvoid useA(int *c) { freeThing(c); }\n",
        ),
        (
            "b.c",
            "#include <stdlib.h>\nvoid freeThing(int *c)\n{\n    free(c);\n}\n",
        ),
        ("thing.h", "void freeThing(int *c);\n"),
    ]);
    repo.init();
    let cue = search(&repo, &["freeThing"]);
    let found = ids(&cue);
    assert_eq!(found.first(), Some(&"symbol:b.c:freeThing"), "{found:?}");
    assert!(!found.contains(&"symbol:a.c:freeThing"), "{found:?}");
    assert!(found.contains(&"symbol:thing.h:freeThing"), "{found:?}");
}

#[test]
fn a_hidden_type_comes_after_a_public_function_of_its_name() {
    // A private Rust `struct Field` (pydantic-core's) ranks as a type before functions, but
    // hidden: the `Field` function users call comes first.
    let repo = TestRepo::with_files(&[
        ("core/src/a.rs", "struct Field {\n    name: String,\n}\n"),
        (
            "pkg/fields.py",
            "def Field(default=None, *, alias=None, title=None, description=None, examples=None):\n    return default\n",
        ),
    ]);
    repo.init();
    let cue = search(&repo, &["Field"]);
    let found = ids(&cue);
    assert_eq!(
        found[..2],
        ["symbol:pkg/fields.py:Field", "symbol:core/src/a.rs:Field"],
        "{found:?}"
    );
}

/// A file named as asked is an exact match: koa's `search response` found a test helper's
/// `response` before `lib/response.js`, the module it asked for.
#[test]
fn a_file_named_as_asked_comes_before_a_tests_namesake() {
    let repo = TestRepo::with_files(&[
        (
            "lib/response.js",
            "module.exports = {\n  get body () { return this._body },\n  redirect (url) { this.url = url }\n}\n",
        ),
        (
            "test-helpers/context.js",
            "module.exports.response = (req, res) => ({ req, res })\n",
        ),
        ("lib/responses.js", "module.exports = {}\n"),
    ]);
    repo.init();
    let cue = search(&repo, &["response"]);
    let found = ids(&cue);
    assert_eq!(found[0], "file:lib/response.js", "{found:?}");
    let at = |id: &str| found.iter().position(|f| *f == id);
    assert!(
        at("symbol:test-helpers/context.js:response") > Some(0),
        "{found:?}"
    );
}

#[test]
fn a_namesake_in_another_case_counts_only_where_the_project_exposes_it() {
    // urfave/cli's `search Flag` listed a `flag Flag` field of a test's table in each of six
    // tests before `FlagBase` and `StringFlag`.
    let mut files = vec![(
        "flag.go".to_owned(),
        "package cli\n\ntype Flag interface{ Names() []string }\n\ntype FlagBase struct{ Name string }\n"
            .to_owned(),
    )];
    for i in 1..=3 {
        files.push((
            format!("flag{i}_test.go"),
            format!("package cli\n\nimport \"testing\"\n\nfunc TestFlag{i}(t *testing.T) {{\n\tcases := []struct {{\n\t\tflag Flag\n\t}}{{}}\n\t_ = cases\n}}\n"),
        ));
    }
    let borrowed: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, c)| (p.as_str(), c.as_str()))
        .collect();
    let repo = TestRepo::with_files(&borrowed);
    repo.init();
    let cue = search(&repo, &["Flag"]);
    let found = ids(&cue);
    // The asked type, its own members (a word of their names is `Flag`), then the types its
    // name begins: no test's field in between.
    assert_eq!(
        found[..3],
        [
            "symbol:flag.go:Flag",
            "symbol:flag.go:Flag.Names",
            "symbol:flag.go:FlagBase"
        ],
        "{found:?}"
    );
}

/// A name that holds the asked one as a word of its own comes before one that only begins
/// with it: bytes' `search Bytes` listed sixteen `impl … for BytesMut` before `impl Bytes` and
/// `Bytes.slice`.
#[test]
fn the_asked_types_own_members_come_before_longer_names() {
    let mut bytes_mut = String::from("pub struct BytesMut { len: usize }\n");
    for t in [
        "Borrow", "Clone", "Debug", "Default", "Deref", "Display", "Drop", "Eq",
    ] {
        bytes_mut.push_str(&format!("impl {t} for BytesMut {{}}\n"));
    }
    let repo = TestRepo::with_files(&[
        (
            "src/lib.rs",
            "mod bytes;\nmod bytes_mut;\npub use crate::bytes::Bytes;\npub use crate::bytes_mut::BytesMut;\n",
        ),
        (
            "src/bytes.rs",
            "pub struct Bytes { len: usize }\nimpl Bytes {\n    pub fn slice(&self, a: usize, b: usize) -> Self { Bytes { len: b - a } }\n}\nimpl Clone for Bytes {\n    fn clone(&self) -> Self { Bytes { len: self.len } }\n}\n",
        ),
        ("src/bytes_mut.rs", &bytes_mut),
    ]);
    repo.init();
    let cue = search(&repo, &["Bytes"]);
    let found = ids(&cue);
    let at = |id: &str| found.iter().position(|f| *f == id);
    let first_mut = found
        .iter()
        .position(|f| f.ends_with("for BytesMut"))
        .unwrap_or(found.len());
    for own in [
        "symbol:src/bytes.rs:impl Bytes",
        "symbol:src/bytes.rs:Bytes.slice",
        "symbol:src/bytes.rs:impl Clone for Bytes",
    ] {
        assert!(at(own).is_some_and(|i| i < first_mut), "{own}: {found:?}");
    }
}

/// A type's constructors are named as it is, but a bare type name asks for the type: leveldb's
/// `search DB` listed `DB() = default` and `DB(const DB&) = delete` second and third. They come
/// with the type's other members now, after what the type does (`DB.Open`), as its destructor
/// does.
#[test]
fn a_types_constructors_come_after_other_names_of_the_type() {
    let repo = TestRepo::with_files(&[
        (
            "include/db.h",
            "namespace leveldb {\nclass DB {\n public:\n  DB() = default;\n  DB(const DB&) = delete;\n  virtual ~DB();\n  static int Open(const char* name, DB** db);\n};\n}\n",
        ),
        (
            "db/db_impl.h",
            "namespace leveldb {\nclass DBImpl : public DB {\n public:\n  int Get();\n};\n}\n",
        ),
    ]);
    repo.init();
    let cue = search(&repo, &["DB"]);
    let found = ids(&cue);
    assert_eq!(found[0], "symbol:include/db.h:leveldb.DB", "{found:?}");
    let at = |id: &str| found.iter().position(|f| *f == id);
    let open = at("symbol:include/db.h:leveldb.DB.Open").expect("DB.Open");
    for special in [
        "symbol:include/db.h:leveldb.DB.DB",
        "symbol:include/db.h:leveldb.DB.DB#2",
        "symbol:include/db.h:leveldb.DB.~DB",
    ] {
        assert!(at(special).is_none_or(|i| i > open), "{special}: {found:?}");
    }
}

#[test]
fn a_hidden_member_of_the_asked_name_comes_after_the_others() {
    // serde_json's `search Value` listed the `type Value = …` of every private visitor's trait
    // impl before `Value`'s own methods.
    let repo = TestRepo::with_files(&[(
        "src/lib.rs",
        "pub trait Visitor { type Value; }\npub enum Value { Null }\nimpl Value {\n    pub fn as_str(&self) -> Option<&str> { None }\n}\nstruct NumberVisitor;\nimpl Visitor for NumberVisitor { type Value = u8; }\nstruct MapVisitor;\nimpl Visitor for MapVisitor { type Value = u16; }\n",
    )]);
    repo.init();
    let cue = search(&repo, &["Value"]);
    let found = ids(&cue);
    let at = |id: &str| found.iter().position(|f| *f == id).unwrap_or(usize::MAX);
    assert_eq!(found[0], "symbol:src/lib.rs:Value", "{found:?}");
    assert!(
        at("symbol:src/lib.rs:Value.as_str") < at("symbol:src/lib.rs:NumberVisitor.Value"),
        "{found:?}"
    );
    assert!(
        at("symbol:src/lib.rs:MapVisitor.Value") < usize::MAX,
        "{found:?}"
    );
}

#[test]
fn a_definition_comes_before_its_typescript_declaration() {
    // axios's `search AxiosError` listed its typings' classes before the function that
    // defines it in `lib/core/AxiosError.js`.
    let repo = TestRepo::with_files(&[
        (
            "lib/core/AxiosError.js",
            "function AxiosError(message, code) {\n  Error.call(this);\n  this.message = message;\n}\nexport default AxiosError;\n",
        ),
        (
            "index.d.ts",
            "export class AxiosError<T = unknown> extends Error {\n  constructor(message?: string);\n}\n",
        ),
        (
            "index.d.cts",
            "declare class AxiosError<T = unknown> extends Error {\n  constructor(message?: string);\n}\n",
        ),
    ]);
    repo.init();
    let cue = search(&repo, &["AxiosError"]);
    let found = ids(&cue);
    assert_eq!(
        found[0], "symbol:lib/core/AxiosError.js:AxiosError",
        "{found:?}"
    );
    assert!(found.contains(&"symbol:index.d.ts:AxiosError"), "{found:?}");
}

#[test]
fn a_functions_local_comes_after_a_reachable_definition_of_its_name() {
    // A function defined inside another's body is that function's local (fastify's
    // `createServer.listen`, zod's `inst._zod.parse = …`): the interface method users call
    // comes first.
    let repo = TestRepo::with_files(&[
        (
            "lib/server.js",
            "function createServer (opts) {\n  function listen (port) { return port }\n  return { listen }\n}\nmodule.exports = { createServer }\n",
        ),
        (
            "index.d.ts",
            "export interface Instance {\n  listen(port: number): Promise<string>\n}\nexport default function app(): Instance\n",
        ),
    ]);
    repo.init();
    let cue = search(&repo, &["listen"]);
    let found = ids(&cue);
    assert_eq!(
        found[..2],
        [
            "symbol:index.d.ts:Instance.listen",
            "symbol:lib/server.js:createServer.listen"
        ],
        "{found:?}"
    );
}

/// A type in a private inline module (`mod string { pub struct RegexBuilder }`, regex's
/// builders) is an exact match of its name, not a member's: it comes before another crate's
/// methods whose signatures name it.
#[test]
fn a_type_in_an_inline_module_is_an_exact_match() {
    let mut lite = String::from("pub struct RegexBuilder;\nimpl RegexBuilder {\n");
    for i in 0..25 {
        lite.push_str(&format!(
            "    pub fn opt{i}(&mut self) -> &mut RegexBuilder {{ self }}\n"
        ));
    }
    lite.push_str("}\n");
    let repo = TestRepo::with_files(&[
        (
            "Cargo.toml",
            "[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        ),
        (
            "src/builders.rs",
            "pub(crate) mod string {\n    pub struct RegexBuilder { size: usize }\n}\n",
        ),
        (
            "src/lib.rs",
            "mod builders;\npub use crate::builders::string::*;\n",
        ),
        (
            "lite/Cargo.toml",
            "[package]\nname = \"lite\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        ),
        ("lite/src/lib.rs", &lite),
    ]);
    repo.init();
    let cue = search(&repo, &["RegexBuilder", "--max-results", "5"]);
    let ids = ids(&cue);
    let at = ids
        .iter()
        .position(|i| *i == "symbol:src/builders.rs:string.RegexBuilder")
        .unwrap_or_else(|| panic!("{ids:?}"));
    assert!(at < 2, "{ids:?}");
}
