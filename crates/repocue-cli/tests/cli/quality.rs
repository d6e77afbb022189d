//! Cue quality per token: the ranking rules that put what a new contributor needs first, and
//! the terse text format's budget.

use serde_json::{json, Value};

use crate::support::{symbol_id, text_tokens, tokens, TestRepo};

/// Asserts that the overview lists both symbols, `first` before `second`.
fn assert_listed_before(cue: &Value, first: &str, second: &str) {
    let ids = symbol_ids(cue);
    assert!(index_in(&ids, first) < index_in(&ids, second), "{ids:?}");
}

/// Where `item` is in `list`; a panic that shows the list when it is not there.
fn index_in(list: &[String], item: &str) -> usize {
    list.iter()
        .position(|x| x == item)
        .unwrap_or_else(|| panic!("{item} missing from {list:?}"))
}

/// The paths of an overview's components, in their order.
fn component_paths(cue: &Value) -> Vec<&str> {
    cue["content"]["components"]
        .as_array()
        .expect("components")
        .iter()
        .map(|c| c["path"].as_str().expect("a path"))
        .collect()
}

fn symbol_ids(cue: &Value) -> Vec<String> {
    cue["content"]["symbols"]
        .as_array()
        .expect("symbols")
        .iter()
        .map(symbol_id)
        .collect()
}

/// A Python library: a package whose public class is used by other modules, private helpers
/// in the same files, and a test helper that shadows the public name.
fn python_library() -> TestRepo {
    let mut helpers = String::new();
    for i in 0..12 {
        helpers.push_str(&format!("def _helper_{i}(x):\n    return x\n\n\n"));
    }
    TestRepo::with_files(&[
        ("README.md", "# Shop\n\nA small shop library.\n"),
        ("pyproject.toml", "[project]\nname = \"shop\"\n"),
        (
            "shop/__init__.py",
            "from .cart import Cart\nfrom .pricing import price\n",
        ),
        (
            "shop/cart.py",
            &format!(
                "from .pricing import price\n\n\n{helpers}class Cart:\n    def total(self):\n        return price(self)\n"
            ),
        ),
        (
            "shop/pricing.py",
            "def price(cart):\n    return 0\n\n\ndef _round(x):\n    return x\n",
        ),
        (
            "shop/checkout.py",
            "from .cart import Cart\n\n\ndef checkout():\n    return Cart().total()\n",
        ),
        (
            "shop/orders.py",
            "from .cart import Cart\n\n\ndef order():\n    return Cart()\n",
        ),
        (
            "tests/helpers.py",
            "class Cart:\n    pass\n\n\ndef make_cart():\n    return Cart()\n",
        ),
        (
            "tests/test_cart.py",
            "from shop.cart import Cart\nfrom helpers import make_cart\n\n\ndef test_total():\n    assert Cart().total() == 0\n    make_cart()\n",
        ),
        ("docs/index.md", "# Docs\n"),
    ])
}

#[test]
fn a_public_class_used_by_other_files_outranks_private_helpers() {
    let repo = python_library();
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let ids = symbol_ids(&cue);
    let cart = ids
        .iter()
        .position(|i| i == "symbol:shop/cart.py:Cart")
        .unwrap_or_else(|| panic!("Cart missing from {ids:?}"));
    for (i, id) in ids.iter().enumerate() {
        if id.contains(":_") {
            assert!(i > cart, "private {id} before Cart: {ids:?}");
        }
    }
}

/// A Go package whose busiest file holds only unexported helpers (cobra's `doc/util.go`):
/// the overview lists what the package exposes first, and a method of an unexported type is
/// no API, whatever its own name.
#[test]
fn a_busy_file_of_unexported_helpers_comes_after_the_exported_api() {
    let mut files: Vec<(String, String)> = vec![
        ("go.mod".into(), "module example.com/cli\n\ngo 1.22\n".into()),
        (
            "util.go".into(),
            "package cli\n\ntype byName []*Command\n\nfunc (s byName) Len() int { return len(s) }\n\nfunc hasSeeAlso(c *Command) bool { return c != nil }\n".into(),
        ),
        (
            "command.go".into(),
            "package cli\n\ntype Command struct{ Use string }\n\nfunc (c *Command) Execute() error { return nil }\n".into(),
        ),
        (
            "args.go".into(),
            "package cli\n\ntype PositionalArgs func(c *Command, args []string) error\n\nfunc ExactArgs(n int) PositionalArgs { return nil }\n".into(),
        ),
    ];
    for i in 0..8 {
        files.push((
            format!("gen_{i}.go"),
            format!(
                "package cli\n\nfunc gen{i}(c *Command) {{\n\t_ = hasSeeAlso(c)\n\t_ = byName(nil).Len()\n}}\n"
            ),
        ));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "4000"]);
    let ids = symbol_ids(&cue);
    let hidden = |id: &String| {
        ["byName", "hasSeeAlso", ":gen"]
            .iter()
            .any(|n| id.contains(n))
    };
    let first_hidden = ids.iter().position(hidden).unwrap_or(ids.len());
    for exposed in ["symbol:command.go:Command", "symbol:args.go:ExactArgs"] {
        let at = ids
            .iter()
            .position(|i| i == exposed)
            .unwrap_or_else(|| panic!("{exposed} missing from {ids:?}"));
        assert!(
            at < first_hidden,
            "{exposed} after a hidden symbol: {ids:?}"
        );
    }
}

/// Two functions alike in every other signal: the one the README shows as code is what a
/// user calls first.
#[test]
fn a_function_the_readme_shows_as_code_outranks_its_twin() {
    let repo = TestRepo::with_files(&[
        ("pyproject.toml", "[project]\nname = \"shop\"\n"),
        (
            "README.md",
            "# Shop\n\nA shop.\n\n```python\nimport shop\nshop.settle(cart)\n```\n",
        ),
        ("shop/__init__.py", ""),
        ("shop/alpha.py", "def arrange(cart):\n    return cart\n"),
        ("shop/beta.py", "def settle(cart):\n    return cart\n"),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    assert_listed_before(
        &cue,
        "symbol:shop/beta.py:settle",
        "symbol:shop/alpha.py:arrange",
    );
}

#[test]
fn a_function_the_tests_call_outranks_its_twin() {
    // What the project's own tests call is what its users call: `settle`, not `arrange`
    // (defined first, in the same file), though nothing in the library uses either.
    let test = "from shop.cart import settle\n\n\
def test_settle():\n    assert settle([]) == []\n";
    let repo = TestRepo::with_files(&[
        ("pyproject.toml", "[project]\nname = \"shop\"\n"),
        ("shop/__init__.py", ""),
        (
            "shop/cart.py",
            "def arrange(cart):\n    return cart\n\n\ndef settle(cart):\n    return cart\n",
        ),
        ("tests/test_cart.py", test),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    assert_listed_before(
        &cue,
        "symbol:shop/cart.py:settle",
        "symbol:shop/cart.py:arrange",
    );
}

/// A compiler's test fixtures (sample programs that use each other's names a lot) are the
/// tests' data: no ranking above them counts them, so they never fill the overview; asked for
/// by path, they are ranked like any code.
#[test]
fn fixtures_stay_out_of_the_rankings_above_them() {
    let mut files: Vec<(String, String)> = vec![
        (
            "package.json".into(),
            "{\"name\": \"compiler\", \"main\": \"lib/index.js\"}\n".into(),
        ),
        (
            "lib/index.js".into(),
            "function compile(source) {\n  return source;\n}\nmodule.exports = { compile };\n"
                .into(),
        ),
        (
            "test/compile.test.js".into(),
            "const { compile } = require('../lib');\ntest('x', () => compile('a'));\n".into(),
        ),
    ];
    for i in 0..12 {
        files.push((
            format!("test/fixtures/case{i}/input.js"),
            format!(
                "function sampleHelper(a) {{\n  return a;\n}}\nfunction case{i}() {{\n  return sampleHelper(sampleHelper({i}));\n}}\n"
            ),
        ));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let ids = symbol_ids(&cue);
    assert!(
        ids.contains(&"symbol:lib/index.js:compile".to_owned()),
        "{ids:?}"
    );
    assert!(!ids.iter().any(|i| i.contains("fixtures/")), "{ids:?}");
    let st = repo.cue("structure", &["--max-tokens", "3000"]);
    assert_eq!(st["content"]["code_files"], 1, "{st:#}");
    let inside = repo.cue(
        "structure",
        &["--path", "test/fixtures", "--max-tokens", "3000"],
    );
    assert_eq!(inside["content"]["code_files"], 12, "{inside:#}");
    assert!(
        symbol_ids(&inside)
            .iter()
            .any(|i| i.ends_with(":sampleHelper")),
        "{inside:#}"
    );
}

#[test]
fn a_test_helper_never_outranks_the_definition_it_shadows() {
    let repo = python_library();
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let ids = symbol_ids(&cue);
    let library = ids.iter().position(|i| i == "symbol:shop/cart.py:Cart");
    let helper = ids.iter().position(|i| i == "symbol:tests/helpers.py:Cart");
    assert!(library.is_some(), "{ids:?}");
    if let Some(h) = helper {
        assert!(h > library.unwrap(), "{ids:?}");
    }
    // Structure of the whole repository too.
    let st = repo.cue("structure", &["--max-tokens", "3000"]);
    let ids = symbol_ids(&st);
    let library = ids
        .iter()
        .position(|i| i == "symbol:shop/cart.py:Cart")
        .unwrap();
    if let Some(h) = ids.iter().position(|i| i == "symbol:tests/helpers.py:Cart") {
        assert!(h > library, "{ids:?}");
    }
}

/// A library's namesake (ky's `class Ky`, used by its index alone) comes before the option
/// type every module names.
#[test]
fn the_projects_namesake_outranks_a_type_every_module_names() {
    let mut files: Vec<(String, String)> = vec![
        (
            "package.json".into(),
            r#"{"name": "widget", "main": "src/index.ts"}"#.into(),
        ),
        (
            "src/types.ts".into(),
            "export interface Options { retries?: number }\n".into(),
        ),
        (
            "src/core/widget.ts".into(),
            "import type { Options } from '../types';\n\nexport class Widget {\n  static create(options: Options) { return new Widget(); }\n}\n".into(),
        ),
        (
            "src/index.ts".into(),
            "import { Widget } from './core/widget';\nimport type { Options } from './types';\n\nexport default (o: Options) => Widget.create(o);\n".into(),
        ),
    ];
    for i in 0..6 {
        files.push((
            format!("src/utils/u{i}.ts"),
            format!("import type {{ Options }} from '../types';\n\nexport function u{i}(o: Options): Options {{ return o; }}\n"),
        ));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    assert_listed_before(
        &cue,
        "symbol:src/core/widget.ts:Widget",
        "symbol:src/types.ts:Options",
    );
}

#[test]
fn one_file_cannot_fill_a_section() {
    let repo = python_library();
    for (view, budget) in [("overview", "3000"), ("structure", "3000")] {
        let cue = repo.cue(view, &["--max-tokens", budget]);
        let ids = symbol_ids(&cue);
        assert!(ids.len() >= 8, "{view}: {ids:?}");
        // Whatever the budget admits first: the best-ranked eight.
        let top = &ids[..8];
        let from_cart = top
            .iter()
            .filter(|i| i.starts_with("symbol:shop/cart.py:"))
            .count();
        assert!(
            from_cart <= 4,
            "{view}: cart.py has {from_cart} of the first 8: {ids:?}"
        );
    }
}

/// A framework whose central file defines most of its API (express's `application.js`): the
/// first symbols hold two of it at most, whatever the budget; a large budget then shows the
/// rest of its public functions, after the first symbols of every other file.
#[test]
fn a_large_budget_shows_more_of_the_central_file_after_every_files_first() {
    let mut api = String::new();
    let mut calls = String::new();
    for i in 0..10 {
        api.push_str(&format!("def route_{i}(path):\n    return path\n\n\n"));
        calls.push_str(&format!("    app.route_{i}('/')\n"));
    }
    let mut files: Vec<(String, String)> = vec![
        (
            "pyproject.toml".into(),
            "[project]\nname = \"web\"\n".into(),
        ),
        ("web/__init__.py".into(), "from web.app import *\n".into()),
        ("web/app.py".into(), api),
    ];
    for i in 0..8 {
        files.push((
            format!("web/part{i}.py"),
            format!("from web import app\n\n\ndef part_{i}():\n{calls}    return {i}\n\n\ndef extra_{i}():\n    return part_{i}()\n"),
        ));
    }
    let repo = TestRepo::with_files(&files);
    let central = |ids: &[String]| {
        ids.iter()
            .filter(|i| i.starts_with("symbol:web/app.py:"))
            .count()
    };
    let large = symbol_ids(&repo.cue("overview", &["--max-tokens", "6000"]));
    assert!(central(&large[..10]) <= 2, "{large:?}");
    assert!(
        central(&large) >= 6,
        "the rest of the central file's API: {large:?}"
    );
    // The third symbol of the central file comes after the first of every other file.
    let third = large
        .iter()
        .enumerate()
        .filter(|(_, i)| i.starts_with("symbol:web/app.py:"))
        .nth(2)
        .map(|(at, _)| at)
        .unwrap();
    for part in 0..8 {
        let first = large
            .iter()
            .position(|i| i.starts_with(&format!("symbol:web/part{part}.py:")))
            .unwrap_or_else(|| panic!("part{part}: {large:?}"));
        assert!(
            first < third,
            "part{part} after the central file's third: {large:?}"
        );
    }
}

/// A type its file has no room for is not listed as a namesake of another file's instead:
/// sinatra's `Request`, the seventh of `base.rb`'s types, was shown as sinatra-contrib's
/// `WebDAV::Request`, the mixin that extends it.
#[test]
fn a_namesake_does_not_stand_in_for_a_type_its_file_had_no_room_for() {
    let names = [
        "Base",
        "Helpers",
        "Application",
        "Router",
        "Settings",
        "Template",
        "Request",
    ];
    let mut core = String::new();
    let mut uses = String::new();
    for n in names {
        core.push_str(&format!(
            "class {n}:\n    def run(self):\n        return 1\n\n\n"
        ));
        uses.push_str(&format!("    {n}()\n"));
    }
    let mut files: Vec<(String, String)> = vec![
        (
            "pyproject.toml".into(),
            "[project]\nname = \"web\"\n".into(),
        ),
        ("web/__init__.py".into(), "from web.core import *\n".into()),
        ("web/core.py".into(), core),
        (
            "web/webdav.py".into(),
            "class Request:\n    pass\n\n\nclass Lock:\n    pass\n".into(),
        ),
        (
            "web/locking.py".into(),
            "from web.webdav import Request, Lock\n\n\ndef lock():\n    return Lock(), Request()\n"
                .into(),
        ),
    ];
    for i in 0..8 {
        files.push((
            format!("web/part{i}.py"),
            format!("from web.core import *\n\n\ndef part_{i}():\n{uses}    return {i}\n"),
        ));
    }
    let repo = TestRepo::with_files(&files);
    let ids = symbol_ids(&repo.cue("overview", &["--max-tokens", "6000"]));
    assert!(
        ids.iter().any(|i| i == "symbol:web/webdav.py:Lock"),
        "the namesake's file keeps its other types: {ids:?}"
    );
    assert!(
        !ids.iter().any(|i| i.ends_with(":Request")),
        "no Request but core.py's: {ids:?}"
    );
}

#[test]
fn components_list_source_roots_before_tests_and_docs() {
    let repo = python_library();
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let comps = component_paths(&cue);
    let pos = |p: &str| comps.iter().position(|c| *c == p).unwrap();
    assert!(pos("shop/") < pos("tests/"), "{comps:?}");
    assert!(pos("shop/") < pos("docs/"), "{comps:?}");
}

/// A hidden directory configures a tool (go-redis's and hiredis's `.claude/` of agent
/// instructions, `.github/` workflows, click's `.devcontainer/` scripts): no component of
/// the project, least of all its documentation brought forward among its packages.
/// A directory is labelled by the language of most of its code: the maintainers' Python
/// scripts of `tools/scripts/` beside one C++ program there make `tools/` a Python one.
#[test]
fn a_component_is_in_the_language_of_most_of_its_code() {
    let mut files: Vec<(String, String)> = vec![
        (
            "CMakeLists.txt".into(),
            "cmake_minimum_required(VERSION 3.16)\nproject(Lib CXX)\n".into(),
        ),
        (
            "tools/misc/coverage.cpp".into(),
            "int main() { return 0; }\n".into(),
        ),
    ];
    for i in 0..6 {
        files.push((
            format!("src/f{i}.cpp"),
            format!("int f{i}() {{ return {i}; }}\n"),
        ));
    }
    for i in 0..5 {
        files.push((
            format!("tools/scripts/s{i}.py"),
            format!("def main():\n    return {i}\n"),
        ));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let components = cue["content"]["components"].as_array().expect("components");
    let tools = components
        .iter()
        .find(|c| c["path"] == "tools/")
        .unwrap_or_else(|| panic!("{components:?}"));
    assert_eq!(tools["language"], "Python", "{tools}");
    let src = components
        .iter()
        .find(|c| c["path"] == "src/")
        .expect("src/");
    assert_eq!(src["language"], "C++", "{src}");
}

/// The best source package's subpackages come after the other source roots at the top:
/// curl's `lib/curlx/` and `lib/vtls/` came before `include/` (its public headers).
#[test]
fn subpackages_come_after_the_other_source_roots() {
    let mut files: Vec<(String, String)> = vec![(
        "include/lib/api.h".into(),
        "int api_run(void);\nint api_stop(void);\n".into(),
    )];
    for i in 0..6 {
        files.push((
            format!("lib/core{i}.c"),
            format!("#include \"lib/api.h\"\nint core{i}(void) {{ return api_run(); }}\n"),
        ));
    }
    for sub in ["vtls", "curlx"] {
        for i in 0..3 {
            files.push((
                format!("lib/{sub}/{sub}{i}.c"),
                format!("int {sub}{i}(void) {{ return {i}; }}\n"),
            ));
        }
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "3000"]);
    let paths = component_paths(&cue);
    let at = |p: &str| {
        paths
            .iter()
            .position(|x| *x == p)
            .unwrap_or_else(|| panic!("{p}: {paths:?}"))
    };
    assert!(at("lib/") < at("include/lib/"), "{paths:?}");
    assert!(at("include/lib/") < at("lib/vtls/"), "{paths:?}");
    assert!(at("include/lib/") < at("lib/curlx/"), "{paths:?}");
}

#[test]
fn a_hidden_directory_is_no_component() {
    let mut files: Vec<(String, String)> = Vec::new();
    for dir in ["core", "api", "store", "util"] {
        for i in 0..4 {
            files.push((
                format!("{dir}/m{i}.py"),
                format!("def {dir}_{i}(x):\n    return x + {i}\n"),
            ));
        }
    }
    for i in 0..4 {
        files.push((
            format!(".claude/skills/s{i}.md"),
            format!("# Skill {i}\n\nHow the agent runs step {i} of the release.\n"),
        ));
    }
    files.push((
        ".github/workflows/ci.yml".into(),
        "on: push\njobs: {}\n".into(),
    ));
    files.push((
        ".devcontainer/setup.sh".into(),
        "setup() {\n  pip install -e .\n}\n".into(),
    ));
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "3000"]);
    let comps = section_paths(&cue, "components");
    assert!(!comps.iter().any(|c| c.starts_with('.')), "{comps:?}");
    for dir in ["core/", "api/", "store/", "util/"] {
        index_in(&comps, dir);
    }
}

/// The `path` of every item of an overview section (`documents`, `components`).
/// A directory named like a source root (`src/`, `pkg/`) that holds only code of a language
/// the project hardly writes in comes after the project's own code: git's `src/` of seven Rust
/// files beside a thousand C files is no source root of git's.
#[test]
fn a_source_root_in_a_minor_language_comes_after_the_projects_code() {
    let mut files: Vec<(String, String)> = vec![(
        "src/lib.rs".into(),
        "pub fn bridge() -> i32 {\n    1\n}\n".into(),
    )];
    for i in 0..12 {
        files.push((
            format!("engine/part{i}.c"),
            format!("int part{i}(void)\n{{\n\treturn {i};\n}}\n"),
        ));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let comps = section_paths(&cue, "components");
    let pos = |p: &str| index_in(&comps, p);
    assert!(pos("engine/") < pos("src/"), "{comps:?}");
}

/// The command lines of an overview, in order.
fn command_lines(cue: &Value) -> Vec<&str> {
    cue["content"]["commands"]
        .as_array()
        .unwrap_or_else(|| panic!("no commands: {cue:#}"))
        .iter()
        .map(|c| c["command"].as_str().unwrap())
        .collect()
}

fn section_paths(cue: &Value, section: &str) -> Vec<String> {
    cue["content"][section]
        .as_array()
        .unwrap_or_else(|| panic!("no {section}: {cue:#}"))
        .iter()
        .map(|d| d["path"].as_str().unwrap().to_owned())
        .collect()
}

fn entry_points(repo: &TestRepo) -> Vec<String> {
    repo.cue("overview", &["--max-tokens", "3000"])["content"]["entry_points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_str().unwrap().to_owned())
        .collect()
}

/// A console script is listed as the file of the function it runs (scrapy's `scrapy =
/// "scrapy.cmdline:execute"`: `scrapy/cmdline.py`; pytest's `src/_pytest/config/__init__.py`),
/// not by its bare name; a function no tracked file holds is listed as written.
#[test]
fn a_console_script_is_the_file_of_its_function() {
    let repo = TestRepo::with_files(&[
        (
            "pyproject.toml",
            "[project]\nname = \"crawl\"\n\n[project.scripts]\ncrawl = \"crawl.cmdline:execute\"\ncrawl-config = \"_crawl.config:main [extra]\"\ngone = \"crawl.removed:run\"\n",
        ),
        ("src/crawl/__init__.py", "from .spider import Spider\n"),
        ("src/crawl/spider.py", "class Spider:\n    pass\n"),
        (
            "src/crawl/cmdline.py",
            "from crawl.spider import Spider\n\ndef execute():\n    return Spider()\n",
        ),
        ("src/_crawl/config/__init__.py", "def main():\n    return 0\n"),
    ]);
    let e = entry_points(&repo);
    for file in ["src/crawl/cmdline.py", "src/_crawl/config/__init__.py"] {
        assert!(e.contains(&file.to_owned()), "{file}: {e:?}");
    }
    assert!(e.contains(&"crawl.removed:run".to_owned()), "{e:?}");
    for name in ["crawl", "crawl-config", "gone"] {
        assert!(!e.contains(&name.to_owned()), "{name}: {e:?}");
    }
}

/// An empty sub-package `__init__.py` is no place to start (uvicorn listed its empty
/// `loops/__init__.py` and `middleware/__init__.py` as entry points); the package's root is.
/// With a `src/` layout, a Python package beside `src/` is the project's own support, not
/// what it installs (urllib3's `dummyserver/`, the server its tests import).
#[test]
fn a_python_package_beside_a_src_layout_is_no_entry_point() {
    let repo = TestRepo::with_files(&[
        ("pyproject.toml", "[project]\nname = \"pkg\"\n"),
        (
            "src/pkg/__init__.py",
            "def get(url: str) -> str:\n    return url\n",
        ),
        ("dummyserver/__init__.py", "from .server import serve\n"),
        ("dummyserver/server.py", "def serve() -> None:\n    pass\n"),
        (
            "test/test_x.py",
            "from dummyserver.server import serve\n\n\ndef test_x():\n    serve()\n",
        ),
    ]);
    let e = entry_points(&repo);
    assert!(e.contains(&"src/pkg/__init__.py".to_owned()), "{e:?}");
    assert!(!e.iter().any(|p| p.starts_with("dummyserver/")), "{e:?}");
}

#[test]
fn an_empty_package_root_is_no_entry_point() {
    let repo = TestRepo::with_files(&[
        (
            "pyproject.toml",
            "[project]\nname = \"pkg\"\n\n[project.scripts]\npkg = \"pkg.main:main\"\n",
        ),
        ("pkg/__init__.py", "from pkg.main import main\n"),
        (
            "pkg/main.py",
            "from pkg.loops.auto import loop\n\n\ndef main():\n    loop()\n",
        ),
        ("pkg/loops/__init__.py", ""),
        ("pkg/loops/auto.py", "def loop():\n    pass\n"),
        ("pkg/middleware/__init__.py", ""),
        ("pkg/middleware/mw.py", "class Mw:\n    pass\n"),
        // Handing on only another project's name (sqlmodel's `pool/__init__.py`).
        (
            "pkg/pool/__init__.py",
            "from sqlalchemy.pool import StaticPool as StaticPool  # noqa: F401\n",
        ),
    ]);
    let e = entry_points(&repo);
    assert!(e.contains(&"pkg/__init__.py".to_owned()), "{e:?}");
    for empty in [
        "pkg/loops/__init__.py",
        "pkg/middleware/__init__.py",
        "pkg/pool/__init__.py",
    ] {
        assert!(!e.contains(&empty.to_owned()), "{empty}: {e:?}");
    }
}

/// A Python package comes before its sub-packages: uvicorn's `supervisors/__init__.py`, which
/// hands on one class, was listed before `uvicorn/__init__.py`.
#[test]
fn a_python_package_comes_before_its_sub_packages() {
    let repo = TestRepo::with_files(&[
        (
            "pyproject.toml",
            "[project]\nname = \"app\"\n\n[project.scripts]\napp = \"app.main:main\"\n",
        ),
        (
            "app/__init__.py",
            "from app.main import main, run\n__all__ = [\"main\", \"run\"]\n",
        ),
        (
            "app/main.py",
            "from app.supervisors import Multiprocess\n\ndef run() -> None:\n    Multiprocess()\n\ndef main() -> None:\n    run()\n",
        ),
        ("app/supervisors/multiprocess.py", "class Multiprocess:\n    pass\n"),
        (
            "app/supervisors/__init__.py",
            "from app.supervisors.multiprocess import Multiprocess\n__all__ = [\"Multiprocess\"]\n",
        ),
    ]);
    let e = entry_points(&repo);
    let at = |p: &str| e.iter().position(|x| x == p);
    assert!(at("app/__init__.py").is_some(), "{e:?}");
    assert!(
        at("app/supervisors/__init__.py").is_none_or(|s| at("app/__init__.py") < Some(s)),
        "{e:?}"
    );
}

/// A directory's `index.js` inside a package whose package.json names its entry points is one
/// of its modules (axios listed `lib/defaults/index.js` and three `lib/platform/**/index.js`);
/// in a package that names none, it is still a root.
#[test]
fn an_index_module_of_a_package_that_names_its_entry_is_no_entry_point() {
    let repo = TestRepo::with_files(&[
        (
            "package.json",
            "{ \"name\": \"httpish\", \"version\": \"1.0.0\", \"main\": \"index.js\" }\n",
        ),
        (
            "index.js",
            "import Client from './lib/core/Client.js';\nimport defaults from './lib/defaults/index.js';\nexport default new Client(defaults);\n",
        ),
        (
            "lib/core/Client.js",
            "export default class Client {\n  constructor(d) { this.d = d; }\n}\n",
        ),
        (
            "lib/defaults/index.js",
            "const defaults = { timeout: 0 };\nexport default defaults;\n",
        ),
        (
            "packages/kit/index.js",
            "export function kit() { return 1; }\n",
        ),
        (
            "packages/kit/package.json",
            "{ \"name\": \"kit\", \"version\": \"1.0.0\" }\n",
        ),
    ]);
    let e = entry_points(&repo);
    assert!(e.contains(&"index.js".to_owned()), "{e:?}");
    assert!(!e.contains(&"lib/defaults/index.js".to_owned()), "{e:?}");
    assert!(e.contains(&"packages/kit/index.js".to_owned()), "{e:?}");
}

#[test]
fn entry_points_per_ecosystem() {
    // Python package root.
    let e = entry_points(&python_library());
    assert!(e.contains(&"shop/__init__.py".to_owned()), "{e:?}");
    // Rust workspace: member crates' lib.rs and main.rs.
    let rust = TestRepo::with_files(&[
        ("Cargo.toml", "[workspace]\nmembers = [\"crates/*\"]\n"),
        ("crates/core/Cargo.toml", "[package]\nname = \"core\"\n"),
        ("crates/core/src/lib.rs", "pub fn run() {}\n"),
        ("crates/cli/Cargo.toml", "[package]\nname = \"cli\"\n"),
        ("crates/cli/src/main.rs", "fn main() { core::run() }\n"),
    ]);
    let e = entry_points(&rust);
    assert!(e.contains(&"crates/core/src/lib.rs".to_owned()), "{e:?}");
    assert!(e.contains(&"crates/cli/src/main.rs".to_owned()), "{e:?}");
    // A build script is no program of the project, by its name or by Cargo's `build` key
    // (bat's `build = "build/main.rs"`).
    let built = TestRepo::with_files(&[
        (
            "Cargo.toml",
            "[package]\nname = \"bat\"\nbuild = \"build/main.rs\"\n",
        ),
        ("src/lib.rs", "pub fn run() {}\n"),
        ("src/bin/bat/main.rs", "fn main() { bat::run() }\n"),
        (
            "build/main.rs",
            "mod syntax;\nfn main() { syntax::generate() }\n",
        ),
        ("build/syntax.rs", "pub fn generate() {}\n"),
        ("crates/x/build.rs", "fn main() {}\n"),
    ]);
    let e = entry_points(&built);
    assert!(e.contains(&"src/bin/bat/main.rs".to_owned()), "{e:?}");
    for script in ["build/main.rs", "crates/x/build.rs"] {
        assert!(!e.contains(&script.to_owned()), "{script}: {e:?}");
    }
    // Go module: the root package file and cmd mains.
    let go = TestRepo::with_files(&[
        ("go.mod", "module example.com/acme/widget\n\ngo 1.22\n"),
        (
            "widget.go",
            "package widget\n\nfunc New() int { return 1 }\n",
        ),
        ("cmd/widgetctl/main.go", "package main\n\nfunc main() {}\n"),
    ]);
    let e = entry_points(&go);
    assert!(e.contains(&"widget.go".to_owned()), "{e:?}");
    assert!(e.contains(&"cmd/widgetctl/main.go".to_owned()), "{e:?}");
    // A root package named otherwise than the module: the file its clients (tests, examples)
    // use most (bubbletea's package `tea` is `tea.go`), and none of the others.
    let tea = TestRepo::with_files(&[
        ("go.mod", "module charm.land/bubbletea/v2\n\ngo 1.22\n"),
        (
            "tea.go",
            "package tea\n\ntype Program struct{}\n\nfunc NewProgram() *Program { return &Program{} }\n",
        ),
        (
            "key.go",
            "package tea\n\ntype Key struct{}\n\nfunc Read() Key { return Key{} }\n",
        ),
        (
            "commands.go",
            "package tea\n\nfunc Quit(k Key) *Program { return NewProgram() }\n",
        ),
        (
            "screen.go",
            "package tea\n\nfunc Clear(k Key) Key { return k }\n",
        ),
        (
            "mouse.go",
            "package tea\n\nfunc Click(k Key) Key { return Read() }\n",
        ),
        (
            "focus.go",
            "package tea\n\nfunc Focus(k Key) Key { return Read() }\n",
        ),
        // Methods alone, of a type another file defines, are no place to start, however much
        // the clients call them (lipgloss's `set.go`, a hundred setters of `Style`).
        (
            "set.go",
            "package tea\n\nfunc (p *Program) SetWidth(w int) *Program { return p }\n\nfunc (p *Program) SetHeight(h int) *Program { return p }\n",
        ),
        (
            "examples/basics/main.go",
            "package main\n\nimport tea \"charm.land/bubbletea/v2\"\n\nfunc main() { tea.NewProgram().SetWidth(1).SetHeight(2).SetWidth(3) }\n",
        ),
        (
            "tea_test.go",
            "package tea\n\nfunc TestRun() { NewProgram(); NewProgram().SetWidth(1).SetHeight(1).SetWidth(2).SetHeight(2) }\n",
        ),
    ]);
    let e = entry_points(&tea);
    let root_files: Vec<&String> = e
        .iter()
        .filter(|p| p.ends_with(".go") && !p.contains('/'))
        .collect();
    assert_eq!(root_files, ["tea.go"], "{e:?}");
    // JS monorepo: workspace members' declared main.
    let js = TestRepo::with_files(&[
        (
            "package.json",
            "{\"name\": \"mono\", \"private\": true, \"workspaces\": [\"packages/*\"]}\n",
        ),
        (
            "packages/core/package.json",
            "{\"name\": \"@mono/core\", \"main\": \"src/index.js\"}\n",
        ),
        ("packages/core/src/index.js", "export function core() {}\n"),
    ]);
    let e = entry_points(&js);
    assert!(
        e.contains(&"packages/core/src/index.js".to_owned()),
        "{e:?}"
    );
    // Java module: its declaration, `module-info.java` (gson's), not a test's.
    let java = TestRepo::with_files(&[
        ("pom.xml", "<project><artifactId>json</artifactId></project>\n"),
        (
            "src/main/java/module-info.java",
            "module com.acme.json {\n  exports com.acme.json;\n}\n",
        ),
        (
            "src/main/java/com/acme/json/Json.java",
            "package com.acme.json;\n\npublic final class Json {\n  public String toJson(Object o) { return \"\"; }\n}\n",
        ),
        (
            "src/test/java/module-info.java",
            "open module com.acme.json.test {\n  requires com.acme.json;\n}\n",
        ),
    ]);
    let e = entry_points(&java);
    assert!(
        e.contains(&"src/main/java/module-info.java".to_owned()),
        "{e:?}"
    );
    assert!(!e.contains(&"src/test/java/module-info.java".to_owned()));
    // C program: main.c.
    let c = TestRepo::with_files(&[
        ("Makefile", "all:\n\tcc -o tool main.c\n"),
        ("main.c", "int main(void) { return 0; }\n"),
    ]);
    let e = entry_points(&c);
    assert!(e.contains(&"main.c".to_owned()), "{e:?}");
    // Java: a class's static main, in a package whose name holds `samples` (spring-petclinic's
    // `org.springframework.samples`); a test's main is no entry point.
    let java = TestRepo::with_files(&[
        ("pom.xml", "<project><artifactId>clinic</artifactId></project>\n"),
        (
            "src/main/java/org/example/samples/clinic/ClinicApplication.java",
            "package org.example.samples.clinic;\n\npublic class ClinicApplication {\n    public static void main(String[] args) {\n        new Owner();\n    }\n}\n",
        ),
        (
            "src/main/java/org/example/samples/clinic/Owner.java",
            "package org.example.samples.clinic;\n\npublic class Owner {\n}\n",
        ),
        (
            "src/test/java/org/example/samples/clinic/TestApplication.java",
            "package org.example.samples.clinic;\n\npublic class TestApplication {\n    public static void main(String[] args) {\n        ClinicApplication.main(args);\n    }\n}\n",
        ),
    ]);
    let e = entry_points(&java);
    let app = "src/main/java/org/example/samples/clinic/ClinicApplication.java".to_owned();
    assert_eq!(e.first(), Some(&app), "{e:?}");
    assert!(!e.iter().any(|p| p.contains("src/test/")), "{e:?}");
}

/// A .NET solution names the project, lists its projects, says how to build and test it, and
/// a program's `Program.cs` is where it starts (serilog's overview had none of these), a test
/// program's or a tool's is not. A traversal project beside the solution (Dapper's `Build.csproj`)
/// neither names the project nor repeats its commands.
#[test]
fn a_dotnet_solution_is_read_like_any_workspace() {
    let repo = TestRepo::with_files(&[
        (
            "Build.csproj",
            "<Project Sdk=\"Microsoft.Build.Traversal/2.0.24\">\n  <ItemGroup>\n    <ProjectReference Include=\"src/**/*.csproj\" />\n  </ItemGroup>\n</Project>\n",
        ),
        (
            "Todo.sln",
            "\nMicrosoft Visual Studio Solution File, Format Version 12.00\nProject(\"{9A19103F-16F7-4668-BE54-9A1E7A4F7556}\") = \"Todo\", \"src\\Todo\\Todo.csproj\", \"{1}\"\nEndProject\nProject(\"{9A19103F-16F7-4668-BE54-9A1E7A4F7556}\") = \"Todo.Tests\", \"tests\\Todo.Tests\\Todo.Tests.csproj\", \"{2}\"\nEndProject\nProject(\"{9A19103F-16F7-4668-BE54-9A1E7A4F7556}\") = \"SmokeApp\", \"tests\\SmokeApp\\SmokeApp.csproj\", \"{3}\"\nEndProject\nProject(\"{9A19103F-16F7-4668-BE54-9A1E7A4F7556}\") = \"Gen\", \"tools\\Gen\\Gen.csproj\", \"{4}\"\nEndProject\n",
        ),
        (
            "tools/Gen/Gen.csproj",
            "<Project Sdk=\"Microsoft.NET.Sdk\"><PropertyGroup><OutputType>Exe</OutputType></PropertyGroup></Project>\n",
        ),
        ("tools/Gen/Program.cs", "System.Console.WriteLine(\"data\");\n"),
        (
            "tests/SmokeApp/SmokeApp.csproj",
            "<Project Sdk=\"Microsoft.NET.Sdk\"><PropertyGroup><OutputType>Exe</OutputType></PropertyGroup></Project>\n",
        ),
        ("tests/SmokeApp/Program.cs", "new Todo.TodoList().Add(\"smoke\");\n"),
        (
            "src/Todo/Todo.csproj",
            "<Project Sdk=\"Microsoft.NET.Sdk\">\n  <PropertyGroup>\n    <OutputType>Exe</OutputType>\n  </PropertyGroup>\n  <ItemGroup>\n    <PackageReference Include=\"Spectre.Console\" Version=\"0.49\" />\n  </ItemGroup>\n</Project>\n",
        ),
        (
            "src/Todo/Program.cs",
            "var list = new Todo.TodoList();\nlist.Add(args[0]);\n",
        ),
        (
            "src/Todo/TodoList.cs",
            "namespace Todo;\n\npublic class TodoList\n{\n    public void Add(string item) { }\n}\n",
        ),
        (
            "tests/Todo.Tests/Todo.Tests.csproj",
            "<Project Sdk=\"Microsoft.NET.Sdk\">\n  <ItemGroup>\n    <PackageReference Include=\"Microsoft.NET.Test.Sdk\" Version=\"17\" />\n  </ItemGroup>\n</Project>\n",
        ),
        (
            "tests/Todo.Tests/TodoListTests.cs",
            "namespace Todo.Tests;\n\npublic class TodoListTests\n{\n    public void Adds() { new TodoList().Add(\"x\"); }\n}\n",
        ),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "3000"]);
    assert_eq!(cue["content"]["project"]["name"], "Todo", "{cue:#}");
    let commands = command_lines(&cue);
    assert_eq!(commands[..2], ["dotnet build", "dotnet test"], "{cue:#}");
    assert_eq!(
        commands.iter().filter(|c| **c == "dotnet build").count(),
        1,
        "{cue:#}"
    );
    let e = entry_points(&repo);
    assert!(e.contains(&"src/Todo/Program.cs".to_owned()), "{e:?}");
    // A test program is not where a newcomer starts (serilog's `test/AotTestApp/`), nor is
    // a tool's (Humanizer's `tools/Humanizer.UnicodeDataGenerator/`).
    assert!(
        !e.contains(&"tests/SmokeApp/Program.cs".to_owned()),
        "{e:?}"
    );
    assert!(!e.contains(&"tools/Gen/Program.cs".to_owned()), "{e:?}");
    let text = serde_json::to_string(&cue["content"]["components"]).unwrap();
    assert!(text.contains("src/Todo/"), "{cue:#}");
}

/// A source directory whose files all lie in the subpackages listed after it gives its line
/// to them (attrs' `src/ 31` beside `src/attr/ 23` and `src/attrs/ 8`).
#[test]
fn a_source_directory_of_subpackages_only_is_named_by_them() {
    let mut files: Vec<(String, String)> = vec![(
        "pyproject.toml".to_owned(),
        "[project]\nname = \"attrs\"\n".to_owned(),
    )];
    for i in 1..=12 {
        files.push((
            format!("src/attr/m{i}.py"),
            format!("def f{i}():\n    return {i}\n"),
        ));
    }
    for i in 1..=4 {
        files.push((
            format!("src/attrs/n{i}.py"),
            format!("def g{i}():\n    return {i}\n"),
        ));
    }
    for i in 1..=5 {
        files.push((
            format!("tests/test_{i}.py"),
            format!("def test_{i}():\n    pass\n"),
        ));
    }
    let files: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, c)| (p.as_str(), c.as_str()))
        .collect();
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let comps = component_paths(&cue);
    assert!(!comps.contains(&"src/"), "{comps:?}");
    assert!(
        comps.contains(&"src/attr/") && comps.contains(&"src/attrs/"),
        "{comps:?}"
    );
}

/// A Maven project's tests are the component of the package they share in the test source
/// set, not a `src/` of tests and resources beside the main package (commons-lang's 362 test
/// files read `src/ 430 XML`).
#[test]
fn a_jvm_test_source_set_is_a_component_of_its_package() {
    let mut files: Vec<(String, String)> = vec![(
        "pom.xml".to_owned(),
        "<project><modelVersion>4.0.0</modelVersion><groupId>a</groupId><artifactId>poet</artifactId><version>1</version></project>\n".to_owned(),
    )];
    for c in ["TypeSpec", "MethodSpec", "JavaFile"] {
        files.push((
            format!("src/main/java/com/acme/poet/{c}.java"),
            format!("package com.acme.poet;\n\npublic final class {c} {{\n  public static {c} of() {{ return null; }}\n}}\n"),
        ));
    }
    for c in ["TypeSpecTest", "MethodSpecTest", "JavaFileTest", "CodeTest"] {
        files.push((
            format!("src/test/java/com/acme/poet/{c}.java"),
            format!("package com.acme.poet;\n\npublic class {c} {{\n  @org.junit.Test public void t() {{ TypeSpec.of(); }}\n}}\n"),
        ));
    }
    for r in ["a.xml", "b.xml", "c.xml", "d.xml", "e.xml"] {
        files.push((format!("src/test/resources/{r}"), "<x/>\n".to_owned()));
    }
    let files: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, c)| (p.as_str(), c.as_str()))
        .collect();
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let comps = component_paths(&cue);
    assert_eq!(
        comps[..2],
        [
            "src/main/java/com/acme/poet/",
            "src/test/java/com/acme/poet/"
        ],
        "{cue:#}"
    );
}

/// A Rust program starts in a crate root: a module's `pub fn main(args)`, which its program
/// calls, is no entry point (rayon-demo's six `*/mod.rs`); `src/bin/*.rs` are.
#[test]
fn a_rust_modules_main_is_no_entry_point() {
    let repo = TestRepo::with_files(&[
        (
            "Cargo.toml",
            "[package]\nname = \"x\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        ),
        (
            "src/main.rs",
            "mod cmd;\n\nfn main() {\n    cmd::main(&[]);\n}\n",
        ),
        (
            "src/cmd/mod.rs",
            "pub fn main(args: &[String]) {\n    let _ = args;\n}\n",
        ),
        (
            "src/bin/tool.rs",
            "fn main() {\n    println!(\"tool\");\n}\n",
        ),
    ]);
    let entries = entry_points(&repo);
    assert!(entries.contains(&"src/main.rs".to_owned()), "{entries:?}");
    assert!(
        entries.contains(&"src/bin/tool.rs".to_owned()),
        "{entries:?}"
    );
    assert!(
        !entries.contains(&"src/cmd/mod.rs".to_owned()),
        "{entries:?}"
    );
}

/// A Rust type's methods implemented in another file of its crate are its members, in the
/// overview and the entity (anyhow's `Error` in `lib.rs`, its `impl Error` in `error.rs`);
/// not when another type of the name in the crate makes the `impl` ambiguous. The build
/// script's `main` is no API.
#[test]
fn a_rust_types_methods_in_another_file_are_its_members() {
    let repo = TestRepo::with_files(&[
        (
            "Cargo.toml",
            "[package]\nname = \"errs\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        ),
        (
            "src/lib.rs",
            "mod error;\npub use error::Report;\n\n/// The error type.\npub struct Error {\n    inner: Box<str>,\n}\n",
        ),
        (
            "src/error.rs",
            "use crate::Error;\n\nimpl Error {\n    pub fn msg(m: &str) -> Self {\n        Error { inner: m.into() }\n    }\n    pub fn context(self, c: &str) -> Self {\n        self\n    }\n}\n\npub struct Report;\n",
        ),
        (
            "tests/use.rs",
            "use errs::Error;\n\n#[test]\nfn t() {\n    let _ = Error::msg(\"x\").context(\"y\");\n}\n",
        ),
        (
            "build.rs",
            "fn main() {\n    println!(\"cargo:rerun-if-changed=build.rs\");\n}\n",
        ),
    ]);
    let entity = repo.cue("entity", &["--id", "symbol:src/lib.rs:Error"]);
    let children: Vec<&str> = entity["content"]["children"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    assert!(
        children.contains(&"symbol:src/error.rs:Error.msg")
            && children.contains(&"symbol:src/error.rs:Error.context"),
        "{entity:#}"
    );
    let cue = repo.cue("overview", &["--max-tokens", "3000"]);
    let error = cue["content"]["symbols"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["signature"] == "pub struct Error")
        .unwrap_or_else(|| panic!("{cue:#}"));
    let members = error["members"].to_string();
    assert!(
        members.contains("msg") && members.contains("context"),
        "{cue:#}"
    );
    // The `impl` block takes no line of its own, nor does the build script's `main`.
    let listed = cue["content"]["symbols"].to_string();
    assert!(
        !listed.contains("impl Error") && !listed.contains("build.rs"),
        "{cue:#}"
    );

    // A second `Error` type in the crate: whose methods the `impl` holds is unknown.
    repo.write("src/other.rs", "pub struct Error;\n");
    repo.write(
        "src/lib.rs",
        "mod error;\nmod other;\npub use error::Report;\n\n/// The error type.\npub struct Error {\n    inner: Box<str>,\n}\n",
    );
    repo.git(&["add", "-A"]);
    let entity = repo.cue("entity", &["--id", "symbol:src/lib.rs:Error"]);
    assert!(
        !entity["content"]["children"]
            .to_string()
            .contains("error.rs"),
        "{entity:#}"
    );
}

/// A C library's public header comes before its internal ones (zstd's `lib/zstd.h` never
/// made the overview for `zstd_compress_internal.h` and `error_private.h`); its export macro is
/// no name of the API; a typedef and its struct tag are one type, listed once.
#[test]
fn a_c_librarys_public_header_comes_before_its_internal_ones() {
    let repo = TestRepo::with_files(&[
        (
            "lib/foo.h",
            "#ifndef FOO_H\n#define FOO_H\n#include <stddef.h>\n#define FOOLIB_API __attribute__((visibility(\"default\")))\nFOOLIB_API size_t foo_compress(void* dst, size_t cap, const void* src, size_t n);\nFOOLIB_API size_t foo_decompress(void* dst, size_t cap, const void* src, size_t n);\ntypedef struct foo_inBuffer_s { const void* src; size_t size; } foo_inBuffer;\nFOOLIB_API size_t foo_compressStream(foo_inBuffer* in);\n#endif\n",
        ),
        (
            "lib/common/foo_internal.h",
            "#ifndef FOO_INTERNAL_H\n#define FOO_INTERNAL_H\ntypedef struct { unsigned hashLog; } seqStore_t;\nstruct foo_matchState_t { seqStore_t seqs; unsigned next; };\n#endif\n",
        ),
        (
            "lib/compress/foo_compress.c",
            "#include \"../foo.h\"\n#include \"../common/foo_internal.h\"\nsize_t foo_compress(void* dst, size_t cap, const void* src, size_t n) {\n  seqStore_t s; struct foo_matchState_t ms; foo_inBuffer in; s.hashLog = 1; ms.next = 0;\n  return s.hashLog + ms.next + n;\n}\n",
        ),
        (
            "lib/decompress/foo_decompress.c",
            "#include \"../foo.h\"\n#include \"../common/foo_internal.h\"\nsize_t foo_decompress(void* dst, size_t cap, const void* src, size_t n) {\n  seqStore_t s; struct foo_matchState_t ms; s.hashLog = 2; ms.next = 1;\n  return s.hashLog + ms.next + n;\n}\n",
        ),
        ("Makefile", "all:\n\t$(CC) -Ilib lib/*/*.c -o foo\n"),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let symbols = cue["content"]["symbols"].as_array().unwrap();
    let first = |path: &str| symbols.iter().position(|s| s["path"] == path);
    assert!(
        first("lib/foo.h") < first("lib/common/foo_internal.h")
            || first("lib/common/foo_internal.h").is_none(),
        "{cue:#}"
    );
    let text = serde_json::to_string(symbols).unwrap();
    assert!(!text.contains("FOOLIB_API"), "{text}");
    let typedef_lines = symbols
        .iter()
        .filter(|s| s["path"] == "lib/foo.h" && s["line"] == 7)
        .count();
    assert_eq!(typedef_lines, 1, "{text}");
}

/// A Python module is a namespace: two modules' functions of one name are two definitions.
/// structlog's `get_logger` of `_config.py`, which its package hands on, was left out of every
/// overview for the `stdlib` module's own `get_logger` in the same directory.
#[test]
fn two_python_modules_functions_of_one_name_are_both_listed() {
    let repo = TestRepo::with_files(&[
        ("pyproject.toml", "[project]\nname = \"pkg\"\n"),
        (
            "src/pkg/__init__.py",
            "from pkg import stdlib\nfrom pkg._config import configure, get_logger\n__all__ = [\"configure\", \"get_logger\", \"stdlib\"]\n",
        ),
        (
            "src/pkg/_config.py",
            "def configure(processors=None) -> None:\n    pass\n\ndef get_logger(*args, **initial_values):\n    return None\n",
        ),
        (
            "src/pkg/stdlib.py",
            "from pkg._config import get_logger as _generic\n\ndef get_logger(*args, **initial_values):\n    return _generic(*args)\n",
        ),
        (
            "tests/test_config.py",
            "from pkg import get_logger, configure\n\ndef test_it():\n    configure()\n    assert get_logger() is None\n",
        ),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let ids = symbol_ids(&cue);
    for id in [
        "symbol:src/pkg/_config.py:get_logger",
        "symbol:src/pkg/stdlib.py:get_logger",
    ] {
        assert!(ids.iter().any(|i| i == id), "{id}: {ids:?}");
    }
}

/// The languages the project's own code is written in come first; a language of a few own
/// files beside them is a minor one, listed among the others by its files, code before
/// documents (zstd's ten Windows build scripts came before its 93 Shell test scripts).
#[test]
fn a_language_of_a_few_own_files_is_listed_by_its_files() {
    let mut files: Vec<(String, String)> = (1..=20)
        .map(|i| {
            (
                format!("lib/f{i}.c"),
                format!("int f{i}(void) {{ return {i}; }}\n"),
            )
        })
        .collect();
    files.extend((1..=6).map(|i| {
        (
            format!("tests/t{i}.sh"),
            format!("#!/bin/sh\nset -e\n./prog --test {i}\n"),
        )
    }));
    files.extend((1..=9).map(|i| (format!("docs/page{i}.md"), format!("# Page {i}\n"))));
    files.push((
        "build/win/build.cmd".into(),
        "@echo off\r\nmsbuild proj.sln\r\n".into(),
    ));
    files.push((
        "build/win/clean.cmd".into(),
        "@echo off\r\ndel *.obj\r\n".into(),
    ));
    let files: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, c)| (p.as_str(), c.as_str()))
        .collect();
    let cue = TestRepo::with_files(&files).cue("overview", &["--max-tokens", "2000"]);
    let order: Vec<&str> = cue["content"]["languages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["language"].as_str().unwrap())
        .collect();
    assert_eq!(order, ["C", "Shell", "Batchfile", "Markdown"], "{cue:#}");
    // In a tiny repository, one own script beside four C files is a minor language too.
    let mut files: Vec<(String, String)> = (1..=4)
        .map(|i| {
            (
                format!("src/f{i}.c"),
                format!("int f{i}(void) {{ return {i}; }}\n"),
            )
        })
        .collect();
    files.extend((1..=6).map(|i| (format!("tests/t{i}.sh"), format!("./prog --test {i}\n"))));
    files.push((
        "win/build.cmd".into(),
        "@echo off\r\nmsbuild proj.sln\r\n".into(),
    ));
    let files: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, c)| (p.as_str(), c.as_str()))
        .collect();
    let cue = TestRepo::with_files(&files).cue("overview", &["--max-tokens", "2000"]);
    let order: Vec<&str> = cue["content"]["languages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["language"].as_str().unwrap())
        .collect();
    assert_eq!(order, ["C", "Shell", "Batchfile"], "{cue:#}");
}

/// TypeScript with JSX (`.tsx`) is TypeScript in the languages and the components, as
/// JavaScript with JSX is JavaScript (zustand read `TypeScript 22, TSX 13`, its tests `TSX`).
#[test]
fn tsx_files_count_as_typescript() {
    let mut files: Vec<(String, String)> = (1..=3)
        .map(|i| (format!("src/a{i}.ts"), format!("export const a{i} = {i}\n")))
        .collect();
    files.extend((1..=4).map(|i| {
        (
            format!("tests/t{i}.test.tsx"),
            format!("export const T{i} = () => <div/>\n"),
        )
    }));
    let files: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, c)| (p.as_str(), c.as_str()))
        .collect();
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    assert_eq!(
        cue["content"]["languages"],
        json!([{"language": "TypeScript", "files": 7}]),
        "{cue:#}"
    );
    let components = cue["content"]["components"].as_array().unwrap();
    assert!(
        components.iter().all(|c| c["language"] == "TypeScript"),
        "{cue:#}"
    );
}

/// A Docusaurus site's pages beside the code (`website/docs/`) are the project's
/// documentation, listed as `docs/`'s are (immer's overview listed only its README and
/// security policy); a page deeper down is not.
#[test]
fn a_documentation_sites_pages_are_documents() {
    let repo = TestRepo::with_files(&[
        ("readme.md", "# lib\n\nCreate the next immutable state.\n"),
        ("SECURITY.md", "# Security Policy\n\nReport to us.\n"),
        (
            "src/index.ts",
            "export function produce(base: any): any { return base }\n",
        ),
        (
            "website/docs/introduction.md",
            "# Introduction\n\nThe library lets you produce state.\n",
        ),
        ("website/docs/api.md", "# API overview\n\nEvery function.\n"),
        ("website/docs/old/v1.md", "# Version one\n\nHistory.\n"),
        ("website/blog/post.md", "# A post\n\nNews.\n"),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "3000"]);
    let docs = section_paths(&cue, "documents");
    for listed in ["website/docs/api.md", "website/docs/introduction.md"] {
        assert!(docs.contains(&listed.to_owned()), "{docs:?}");
    }
    assert!(
        !docs
            .iter()
            .any(|d| d.contains("old/") || d.contains("blog")),
        "{docs:?}"
    );
    assert!(index_in(&docs, "SECURITY.md") < index_in(&docs, "website/docs/api.md"));
}

/// Of the documents a README links to, an API reference comes before its other links, and a
/// migration guide from an older version after them (koa's `docs/api/index.md`, "API
/// documentation", came after both its migration guides).
#[test]
fn a_linked_api_reference_comes_before_migration_guides() {
    let repo = TestRepo::with_files(&[
        (
            "Readme.md",
            "# koa\n\nSee the [Migration Guide](docs/migration-v1-to-v2.md) and [notes](docs/notes.md).\n\nLearn more in the [API documentation](docs/api/index.md).\n",
        ),
        ("docs/migration-v1-to-v2.md", "# Migrating\n\nFrom v1.\n"),
        ("docs/notes.md", "# Notes\n\nNotes.\n"),
        ("docs/api/index.md", "# Application\n\nThe application object.\n"),
        ("lib/application.js", "module.exports = class Application {}\n"),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "3000"]);
    let docs = section_paths(&cue, "documents");
    let at = |p: &str| index_in(&docs, p);
    assert!(at("docs/api/index.md") < at("docs/notes.md"), "{docs:?}");
    assert!(
        at("docs/notes.md") < at("docs/migration-v1-to-v2.md"),
        "{docs:?}"
    );
}

/// The pages of a documentation site further down `docs/` are documents too, after those
/// right in it (NSubstitute's user guide, `docs/help/<topic>/index.md`, was never listed with
/// 93% of a budget left).
#[test]
fn a_docs_directorys_deeper_pages_come_after_its_own() {
    let mut files: Vec<(String, String)> = vec![
        ("README.md".into(), "# Lib\n\nA library.\n".into()),
        (
            "src/Api.cs".into(),
            "namespace L; public static class Api { public static int Go() => 1; }\n".into(),
        ),
        ("docs/index.md".into(), "# Welcome\n\nThe library.\n".into()),
    ];
    for topic in ["getting-started", "received-calls"] {
        files.push((
            format!("docs/help/{topic}/index.md"),
            format!("# Using {topic}\n\nText.\n"),
        ));
    }
    let files: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, c)| (p.as_str(), c.as_str()))
        .collect();
    let cue = TestRepo::with_files(&files).cue("overview", &["--max-tokens", "3000"]);
    let docs = section_paths(&cue, "documents");
    let at = |p: &str| index_in(&docs, p);
    assert!(
        at("docs/index.md") < at("docs/help/getting-started/index.md"),
        "{docs:?}"
    );
    assert!(
        docs.contains(&"docs/help/received-calls/index.md".to_owned()),
        "{docs:?}"
    );
}

/// What the CI workflows run is listed, said to come from CI: the commands a manifest does
/// not already give (jsoup's CI runs `mvn verify`, its pom implies `mvn test`), without the
/// options CI sets for its logs, in the directory they run in; a listed command CI runs is
/// marked so, with the options CI adds; a release workflow's steps and installs are not, nor
/// a build of what the job fetched, nor the environment it makes.
#[test]
fn the_commands_ci_runs_are_listed_as_from_ci() {
    let repo = TestRepo::with_files(&[
        ("README.md", "# Lib\n\nLib parses things for Java programs quickly.\n"),
        (
            "pom.xml",
            "<project><modelVersion>4.0.0</modelVersion><groupId>a</groupId><artifactId>lib</artifactId><version>1</version></project>\n",
        ),
        (
            "src/main/java/a/Lib.java",
            "package a;\n\npublic class Lib {\n    public static int run() { return 1; }\n}\n",
        ),
        (
            ".github/workflows/ci.yml",
            "name: ci\non: [push]\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: mvn -B install -DskipTests\n      - run: mvn -B --no-transfer-progress verify\n      - run: mvn test\n      - run: mvn -Pci package\n      - run: cd openssl && mvn spotbugs:check\n      - run: python3 -m venv ~/venv\n      - name: lint\n        run: ./ci/check-style.sh\n        working-directory: tools\n",
        ),
        // A directory the repository holds, unlike the `openssl/` the job fetched.
        ("tools/ci/check-style.sh", "#!/bin/sh\nexit 0\n"),
        (
            ".github/workflows/release.yml",
            "jobs:\n  ship:\n    steps:\n      - run: mvn deploy\n      - run: mvn site\n",
        ),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "3000"]);
    let commands = cue["content"]["commands"].as_array().unwrap();
    let ci: Vec<(&str, &str)> = commands
        .iter()
        .filter(|c| c["ci"] == json!(true))
        .map(|c| {
            (
                c["command"].as_str().unwrap(),
                c["purpose"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        ci,
        [
            ("mvn -Pci package", "build"),
            ("mvn test", "test"),
            ("mvn verify", "test"),
            ("cd tools && ./ci/check-style.sh", "lint")
        ],
        "{cue:#}"
    );
    // A listed command CI runs is marked so, with the options CI adds to it.
    let lines = command_lines(&cue);
    assert_eq!(
        lines.iter().filter(|c| **c == "mvn test").count(),
        1,
        "{cue:#}"
    );
    assert_eq!(lines[0], "mvn -Pci package", "{cue:#}");
    assert!(!lines.iter().any(|c| c.contains("site")), "{cue:#}");
    let text = repo
        .repocue(&["cue", "--format", "text", "--max-tokens", "3000"])
        .success()
        .stdout();
    assert!(text.contains("mvn verify [ci]"), "{text}");
}

/// A default command CI runs with more is listed as CI runs it: axum's CI runs `cargo clippy
/// --manifest-path ${{ matrix.workspace }}/Cargo.toml … -- -D warnings` over a matrix whose
/// first workspace is `.`, and the overview showed Cargo's `cargo clippy --all-targets`
/// without the `-D warnings` that fails a change.
#[test]
fn a_default_command_ci_runs_with_more_is_listed_as_ci_runs_it() {
    let repo = TestRepo::with_files(&[
        (
            "Cargo.toml",
            "[package]\nname = \"p\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        ),
        ("src/lib.rs", "pub fn f() {}\n"),
        (
            ".github/workflows/CI.yml",
            "on: [push]\njobs:\n  check:\n    strategy:\n      matrix:\n        workspace: [\".\", examples]\n    steps:\n      - run: cargo clippy --manifest-path ${{ matrix.workspace }}/Cargo.toml --all-targets -- -D warnings\n",
        ),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let lints: Vec<(&str, bool)> = cue["content"]["commands"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["purpose"] == "lint")
        .map(|c| (c["command"].as_str().unwrap(), c["ci"] == json!(true)))
        .collect();
    assert_eq!(
        lints,
        [("cargo clippy --all-targets -- -D warnings", true)],
        "{cue:#}"
    );
    // Not one CI runs with less: ripgrep's `cargo build --workspace` read `cargo build`.
    let repo = TestRepo::with_files(&[
        (
            "Cargo.toml",
            "[workspace]\nmembers = [\"a\"]\n\n[package]\nname = \"p\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        ),
        ("src/lib.rs", "pub fn f() {}\n"),
        (
            "a/Cargo.toml",
            "[package]\nname = \"a\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        ),
        ("a/src/lib.rs", "pub fn g() {}\n"),
        (
            ".github/workflows/CI.yml",
            "on: [push]\njobs:\n  b:\n    steps:\n      - run: cargo build --verbose\n",
        ),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let builds: Vec<&str> = cue["content"]["commands"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["purpose"] == "build")
        .map(|c| c["command"].as_str().unwrap())
        .collect();
    assert!(builds.contains(&"cargo build --workspace"), "{cue:#}");
}

/// The pages right in `docs/` list the documentation's home first, then the guides, then the
/// release notes, then the rest by path: sqlmodel's `docs/index.md` and
/// `docs/release-notes.md` came after `alternatives`, `databases` and `db-to-code`.
#[test]
fn the_docs_home_and_release_notes_lead_the_docs_pages() {
    let repo = TestRepo::with_files(&[
        ("README.md", "# mylib\n\nmylib maps rows to objects.\n"),
        ("mylib/__init__.py", "class Model:\n    pass\n"),
        ("docs/alternatives.md", "# Alternatives\n\nText.\n"),
        ("docs/databases.md", "# Databases\n\nText.\n"),
        ("docs/index.md", "# mylib\n\nDocumentation home.\n"),
        (
            "docs/release-notes.md",
            "# Release Notes\n\n## 1.0\n\n* First.\n",
        ),
        ("docs/tutorial.md", "# Tutorial\n\nStep one.\n"),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let docs: Vec<String> = section_paths(&cue, "documents")
        .into_iter()
        .filter(|d| d.starts_with("docs/"))
        .collect();
    assert_eq!(
        docs,
        [
            "docs/index.md",
            "docs/tutorial.md",
            "docs/release-notes.md",
            "docs/alternatives.md",
            "docs/databases.md"
        ],
        "{cue:#}"
    );
}

/// A library's umbrella header in `include/`, named after its directory, is an entry point,
/// before a binding's in another language: google/benchmark's first entry point was its
/// Rust binding's `lib.rs`, and `include/benchmark/benchmark.h` none.
#[test]
fn the_umbrella_header_in_include_is_an_entry_point() {
    let repo = TestRepo::with_files(&[
        ("README.md", "# mylib\n\nmylib measures code.\n"),
        (
            "CMakeLists.txt",
            "project(mylib CXX)\nadd_library(mylib src/state.cc)\n",
        ),
        (
            "include/mylib/mylib.h",
            "#include \"mylib/state.h\"\nnamespace mylib {\nint Run();\n}\n",
        ),
        (
            "include/mylib/state.h",
            "namespace mylib {\nclass State {\n public:\n  bool KeepRunning();\n};\n}\n",
        ),
        (
            "src/state.cc",
            "#include \"mylib/mylib.h\"\nnamespace mylib {\nbool State::KeepRunning() { return Run() > 0; }\nint Run() { return 1; }\n}\n",
        ),
        (
            "bindings/rust/Cargo.toml",
            "[package]\nname = \"mylib\"\nversion = \"0.1.0\"\n",
        ),
        ("bindings/rust/src/lib.rs", "pub fn run() -> i32 { 1 }\n"),
    ]);
    let e = entry_points(&repo);
    assert_eq!(
        e.first().map(String::as_str),
        Some("include/mylib/mylib.h"),
        "{e:?}"
    );
    assert!(!e.contains(&"include/mylib/state.h".to_owned()), "{e:?}");
}

/// A port to a system of the past is glue beside the code, no API and no entry point:
/// libssh2's `os400/include/assert.h` redefines `assert`, and `vms/man2help.c`, a VMS tool,
/// was its only entry point.
#[test]
fn a_port_to_an_old_system_is_no_api_and_no_entry_point() {
    let mut header = String::from("#ifndef MYLIB_H\n#define MYLIB_H\n");
    for i in 0..6 {
        header.push_str(&format!("int mylib_op{i}(int arg);\n"));
    }
    header.push_str("#endif\n");
    let repo = TestRepo::with_files(&[
        ("README.md", "# mylib\n\nmylib is a library implementing a protocol.\n"),
        ("include/mylib.h", header.as_str()),
        (
            "src/ops.c",
            "#include \"mylib.h\"\n#include <assert.h>\nint mylib_op0(int arg) { assert(arg); return mylib_op1(arg); }\n",
        ),
        (
            "os400/include/assert.h",
            "#ifndef OS400_ASSERT_H\n#define OS400_ASSERT_H\n#define assert(expr) ((void)(expr))\n#endif\n",
        ),
        (
            "vms/man2help.c",
            "#include <stdio.h>\nint main(int argc, char *argv[]) { (void)argc; (void)argv; return 0; }\n",
        ),
    ]);
    let text = repo
        .repocue(&["cue", "--format", "text", "--max-tokens", "2000"])
        .success()
        .stdout();
    assert!(text.contains("mylib_op0"), "{text}");
    // Listed among the components, as git's `compat/` is, but no line of the API.
    assert!(!text.contains("os400/include/assert.h"), "{text}");
    assert!(!text.contains("vms/man2help.c"), "{text}");
}

/// CI's own check replaces a tool's default it never runs (rand's `cargo clippy --workspace
/// --lib --bins --tests -- -D warnings` was dropped for Cargo's `cargo clippy
/// --all-targets`); a build for another machine (`--target=thumbv6m-none-eabi`) does not
/// replace `cargo build`; a build in the release configuration is no release; a script run
/// through the shell is the script (sqlmodel listed `./scripts/test.sh; bash
/// scripts/test.sh [ci]`).
#[test]
fn ci_commands_replace_defaults_they_stand_for_and_no_others() {
    let repo = TestRepo::with_files(&[
        (
            "Cargo.toml",
            "[package]\nname = \"p\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        ),
        ("src/lib.rs", "pub fn f() {}\n"),
        ("scripts/test.sh", "#!/bin/sh\ncargo test\n"),
        (
            ".github/workflows/ci.yml",
            "on: [push]\njobs:\n  a:\n    steps:\n      - run: bash scripts/test.sh\n      - run: cargo build --target=thumbv6m-none-eabi --no-default-features\n      - run: cargo clippy --workspace --lib -- -D warnings\n      - run: cargo doc --release\n",
        ),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let lines = command_lines(&cue);
    let has = |c: &str| lines.contains(&c);
    assert!(
        has("cargo clippy --workspace --lib -- -D warnings"),
        "{lines:?}"
    );
    assert!(
        !lines.iter().any(|l| l.contains("--all-targets")),
        "{lines:?}"
    );
    assert!(has("cargo build"), "{lines:?}");
    assert!(!lines.iter().any(|l| l.contains("thumbv6m")), "{lines:?}");
    assert!(has("cargo doc --release"), "{lines:?}");
    let scripts: Vec<&&str> = lines.iter().filter(|l| l.contains("test.sh")).collect();
    assert_eq!(scripts, [&"bash scripts/test.sh"], "{lines:?}");
}

/// A package script CI runs by another spelling is CI's: got's workflow runs `npm run test`,
/// which is `npm test`, and the listed `npm test` had no `[ci]`.
#[test]
fn a_script_ci_runs_by_another_spelling_is_cis() {
    let repo = TestRepo::with_files(&[
        (
            "package.json",
            r#"{"name":"demo","version":"1.0.0","main":"src/index.js","scripts":{"test":"ava","build":"tsc","lint":"xo"}}"#,
        ),
        ("src/index.js", "export const x = 1;\n"),
        (
            ".github/workflows/main.yml",
            "on: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm install\n      - run: npm run test\n      - run: npm run build\n",
        ),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let commands = cue["content"]["commands"].as_array().unwrap();
    let tests: Vec<(&str, bool)> = commands
        .iter()
        .filter(|c| c["purpose"] == "test")
        .map(|c| (c["command"].as_str().unwrap(), c["ci"] == json!(true)))
        .collect();
    assert_eq!(tests, [("npm run test", true)], "{cue:#}");
}

/// A solution kept in the source directory, with no build file at the root, stands for the
/// root (Newtonsoft.Json's `Src/Newtonsoft.Json.slnx`); its commands run there, which the
/// text format says. Its test projects are tests by their names, not the API.
#[test]
fn a_nested_dotnet_solution_stands_for_the_root() {
    let repo = TestRepo::with_files(&[
        ("README.md", "# Lib\n\nLib parses things for .NET programs quickly.\n"),
        (
            "Src/Lib.slnx",
            "<Solution>\n  <Project Path=\"Lib/Lib.csproj\" />\n  <Project Path=\"Lib.UnitTests/Lib.UnitTests.csproj\" />\n</Solution>\n",
        ),
        (
            "Src/Lib/Lib.csproj",
            "<Project Sdk=\"Microsoft.NET.Sdk\"><PropertyGroup><Description>Parses.</Description></PropertyGroup></Project>\n",
        ),
        (
            "Src/Lib/Parser.cs",
            "namespace Lib;\n\npublic class Parser\n{\n    public static Parser Create() => new Parser();\n}\n",
        ),
        (
            "Src/Lib.UnitTests/Lib.UnitTests.csproj",
            "<Project Sdk=\"Microsoft.NET.Sdk\"><ItemGroup><PackageReference Include=\"xunit\" /></ItemGroup></Project>\n",
        ),
        (
            "Src/Lib.UnitTests/FixtureBase.cs",
            "namespace Lib.UnitTests;\n\npublic abstract class FixtureBase\n{\n    public Parser Make() => Parser.Create();\n}\n",
        ),
        (
            "Src/Lib.UnitTests/ParserTests.cs",
            "namespace Lib.UnitTests;\n\npublic class ParserTests : FixtureBase\n{\n    public void Parses() { Make(); }\n}\n",
        ),
        (
            "Src/Lib.UnitTests/MoreTests.cs",
            "namespace Lib.UnitTests;\n\npublic class MoreTests : FixtureBase\n{\n    public void More() { Make(); }\n}\n",
        ),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "3000"]);
    assert_eq!(cue["content"]["project"]["name"], "Lib", "{cue:#}");
    let build = &cue["content"]["commands"][0];
    assert_eq!(
        (&build["command"], &build["source"]),
        (&json!("dotnet build"), &json!("Src/Lib.slnx")),
        "{cue:#}"
    );
    // One component for `Src/`, the solution beside its members included, and the library
    // before its tests among them.
    let comps = section_paths(&cue, "components");
    assert_eq!(comps.iter().filter(|c| *c == "Src/").count(), 1, "{cue:#}");
    let src = &cue["content"]["components"][0];
    assert_eq!(src["path"], "Src/", "{cue:#}");
    assert_eq!(
        src["members"],
        json!(["Src/Lib/", "Src/Lib.UnitTests/"]),
        "{cue:#}"
    );
    // The library's class is listed, the tests' fixture is not.
    let ids = symbol_ids(&cue);
    assert!(
        ids.contains(&"symbol:Src/Lib/Parser.cs:Parser".to_owned()),
        "{ids:?}"
    );
    assert!(!ids.iter().any(|i| i.contains("UnitTests")), "{ids:?}");
    let text = repo
        .repocue(&["cue", "--format", "text", "--max-tokens", "3000"])
        .success()
        .stdout();
    assert!(text.contains("commands: cd Src && dotnet build;"), "{text}");
}

#[test]
fn a_monorepo_command_named_after_the_project_comes_before_other_members_programs() {
    // `mono`'s own command lives in `packages/mono-cli`; a helper program of a member that
    // sorts before it comes after it.
    let package = |name: &str, bin: &str| {
        format!("{{\"name\": \"@mono/{name}\", \"bin\": {{\"{name}\": \"./bin/{bin}\"}}}}\n")
    };
    let repo = TestRepo::with_files(&[
        (
            "package.json",
            "{\"name\": \"mono\", \"private\": true, \"workspaces\": [\"packages/*\"]}\n",
        ),
        (
            "packages/a-helpers/package.json",
            &package("a-helpers", "a-helpers.js"),
        ),
        ("packages/a-helpers/bin/a-helpers.js", "console.log(1);\n"),
        (
            "packages/mono-cli/package.json",
            &package("mono", "mono.js"),
        ),
        ("packages/mono-cli/bin/mono.js", "console.log(2);\n"),
    ]);
    let e = entry_points(&repo);
    let at = |p: &str| index_in(&e, p);
    assert!(
        at("packages/mono-cli/bin/mono.js") < at("packages/a-helpers/bin/a-helpers.js"),
        "{e:?}"
    );
}

/// Of several programs in the project's language, the one that uses most comes first, however
/// small the others are: redis's `server.c` (thousands of functions) after `utils/corrupt_rdb.c`, and
/// prometheus's `cmd/prometheus/main.go` after a code generator's `main.go`, were listed last.
#[test]
fn the_program_that_uses_most_of_the_project_is_the_first_entry_point() {
    let mut files: Vec<(String, String)> =
        vec![("Makefile".into(), "all:\n\tcc -o server src/*.c\n".into())];
    let mut calls = String::new();
    for i in 0..6 {
        files.push((
            format!("src/part{i}.c"),
            format!("int part{i}(void)\n{{\n\treturn {i};\n}}\n"),
        ));
        calls.push_str(&format!(" + part{i}()"));
    }
    let mut server = String::new();
    for i in 0..6 {
        server.push_str(&format!("static int helper{i}(void) {{ return {i}; }}\n"));
    }
    server.push_str(&format!(
        "int main(void)\n{{\n\treturn helper0(){calls};\n}}\n"
    ));
    files.push(("src/server.c".into(), server));
    files.push((
        "utils/dump.c".into(),
        "int main(void)\n{\n\treturn part0();\n}\n".into(),
    ));
    // A helper program in another language, however much it references, comes after the
    // programs in the project's own (git's `git-p4.py` after `common-main.c`).
    let names: Vec<String> = (0..20).map(|i| format!("lib.call{i}()")).collect();
    files.push((
        "helper.py".into(),
        format!(
            "import lib\n\n\ndef main():\n    return [{}]\n",
            names.join(", ")
        ),
    ));
    let repo = TestRepo::with_files(&files);
    let e = entry_points(&repo);
    let at = |p: &str| index_in(&e, p);
    assert!(at("src/server.c") < at("utils/dump.c"), "{e:?}");
    assert!(at("utils/dump.c") < at("helper.py"), "{e:?}");
}

/// The program at the root comes before the programs below it, however few names it uses:
/// hugo's `main.go` (a call of `commands.Execute`) came after two code generators'.
#[test]
fn the_program_at_the_root_is_the_first_entry_point() {
    let mut files: Vec<(String, String)> = vec![
        ("go.mod".into(), "module example.com/site\n\ngo 1.22\n".into()),
        (
            "main.go".into(),
            "package main\n\nimport \"example.com/site/commands\"\n\nfunc main() {\n\tcommands.Execute()\n}\n".into(),
        ),
        (
            "commands/commands.go".into(),
            "package commands\n\n// Execute runs the command line.\nfunc Execute() {}\n".into(),
        ),
    ];
    // The other program uses a dozen names of a library; the root's, one of its own. (Not in
    // a generator's directory: those are no entry points at all.)
    let calls: Vec<String> = (0..12).map(|i| format!("\tgen.Part{i}()\n")).collect();
    let other = format!(
        "package main\n\nimport \"example.org/gen\"\n\nfunc main() {{\n{}}}\n",
        calls.concat()
    );
    files.push(("livereload/server/main.go".into(), other));
    let repo = TestRepo::with_files(&files);
    let e = entry_points(&repo);
    let at = |p: &str| index_in(&e, p);
    assert!(at("main.go") < at("livereload/server/main.go"), "{e:?}");
}

/// A source root by name that holds little of the code is one package among the others, and a
/// package of code named as a directory of data is code: hugo's `modules/` (13 files) led its
/// components before `hugolib/`, and `resources/` (287 Go files) came among the support.
#[test]
fn packages_rank_by_their_code_not_their_names() {
    let mut files: Vec<(String, String)> = vec![
        (
            "go.mod".into(),
            "module example.com/site\n\ngo 1.22\n".into(),
        ),
        (
            "modules/modules.go".into(),
            "package modules\n\nfunc Lonely() {}\n".into(),
        ),
    ];
    for i in 0..6 {
        let calls: String = (0..4)
            .map(|j| format!("\tresources.Load{j}()\n\tBuild{}()\n", (i + 1) % 6))
            .collect();
        files.push((
            format!("site/build{i}.go"),
            format!("package site\n\nfunc Build{i}() {{\n{calls}}}\n"),
        ));
    }
    for j in 0..4 {
        files.push((
            format!("resources/load{j}.go"),
            format!("package resources\n\nfunc Load{j}() {{}}\n"),
        ));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "3000"]);
    let components = section_paths(&cue, "components");
    let at = |p: &str| index_in(&components, p);
    assert!(at("site/") < at("modules/"), "{components:?}");
    assert!(at("resources/") < at("modules/"), "{components:?}");
}

/// A `main` behind `#ifdef` in a file of other functions is their test or debug build's, no
/// entry point (redis's `localtime.c` with `#ifdef LOCALTIME_TEST_MAIN` came before its
/// `server.c`, git's `base85.c`); one alone in its file (a platform's) comes after the
/// programs' own `main`s, even one in a file busy with much else.
#[test]
fn a_conditional_main_comes_after_the_programs_own() {
    let mut server = String::from("#include \"clock.h\"\n");
    for i in 0..8 {
        server.push_str(&format!("int command{i}(void) {{ return {i}; }}\n"));
    }
    server.push_str("int main(void) { return command0() + now() + encode(); }\n");
    let repo = TestRepo::with_files(&[
        ("Makefile", "all:\n\tcc -o server server.c clock.c localtime.c\n"),
        ("server.c", server.as_str()),
        ("clock.h", "int now(void);\nint encode(void);\n"),
        (
            "win_main.c",
            "#ifdef _WIN32\nint main(void) { return 0; }\n#else\nint main(void) { return 1; }\n#endif\n",
        ),
        (
            "base85.c",
            "int encode(void) { return 85; }\n\n#ifdef DEBUG_85\nint main(void) { return encode(); }\n#endif\n",
        ),
        ("clock.c", "#include \"clock.h\"\nint now(void) { return 1; }\n"),
        (
            "localtime.c",
            "int local_offset(void) { return 0; }\n\n#ifdef LOCALTIME_TEST_MAIN\nint main(void) { return local_offset(); }\n#endif\n",
        ),
        // A build compiles this `main` unless told otherwise (curl's `#ifndef UNITTESTS`, its
        // `#else` of `#ifdef _UNICODE`): it is a program.
        (
            "tool_main.c",
            "#ifndef UNITTESTS\nstatic int setup(void) { return 0; }\n#ifdef _UNICODE\nint wmain(void) { return setup(); }\n#else\nint main(void) { return setup() + now(); }\n#endif\n#endif\n",
        ),
    ]);
    let e = entry_points(&repo);
    let at = |p: &str| index_in(&e, p);
    assert!(at("server.c") < at("win_main.c"), "{e:?}");
    assert!(at("tool_main.c") < at("win_main.c"), "{e:?}");
    for library in ["localtime.c", "base85.c"] {
        assert!(!e.contains(&library.to_owned()), "{e:?}");
    }
}

#[test]
fn a_c_program_main_is_an_entry_point_whatever_the_file_is_called() {
    let repo = TestRepo::with_files(&[
        ("Makefile", "all:\n\tcc -o tool common-main.c tool.c\n"),
        (
            "common-main.c",
            "#include \"tool.h\"\nint main(int argc, char **argv) { return tool_main(argc, argv); }\n",
        ),
        ("tool.h", "int tool_main(int argc, char **argv);\n"),
        ("tool.c", "#include \"tool.h\"\nint tool_main(int argc, char **argv) { return 0; }\n"),
        ("scripts/gen.c", "int main(void) { return 0; }\n"),
        ("t/helper/test-tool.c", "int main(void) { return 0; }\n"),
    ]);
    let e = entry_points(&repo);
    assert!(e.contains(&"common-main.c".to_owned()), "{e:?}");
    // Mains of tests and support scripts are not where the project starts.
    assert!(!e.contains(&"t/helper/test-tool.c".to_owned()), "{e:?}");
    assert!(!e.contains(&"scripts/gen.c".to_owned()), "{e:?}");
    // A function declared in a header and defined in a source file is listed once.
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let names: Vec<&str> = cue["content"]["symbols"]
        .as_array()
        .unwrap()
        .iter()
        .map(crate::support::symbol_name)
        .collect();
    assert_eq!(
        names.iter().filter(|n| **n == "tool_main").count(),
        1,
        "{names:?}"
    );
}

#[test]
fn a_type_brings_the_public_methods_its_clients_call() {
    // A Java class whose public API the tests call (`send`, `close`), with a constructor, a
    // protocol method, a private method and a public method nobody calls.
    let client = |i: usize| {
        format!(
            "package shop;\n\nclass Test{i} {{\n    void t() {{\n        Mailer m = new Mailer();\n        m.send(\"x\");\n        m.close();\n    }}\n}}\n"
        )
    };
    let mut files: Vec<(String, String)> = vec![(
        "src/main/java/shop/Mailer.java".into(),
        "package shop;\n\npublic class Mailer {\n    public Mailer() {}\n    public String toString() { return \"m\"; }\n    public void idle() {}\n    private void retry() {}\n    public void send(String to) { retry(); }\n    public void close() {}\n}\n".into(),
    )];
    for i in 0..3 {
        files.push((format!("src/test/java/shop/Test{i}.java"), client(i)));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let members = members_of(&cue, "Mailer");
    // The called methods first; never the constructor, `toString` or a private method.
    assert_eq!(
        members.get(..2),
        Some(&["send", "close"][..]),
        "{members:?}"
    );
    for hidden in ["Mailer", "toString", "retry"] {
        assert!(!members.contains(&hidden), "{hidden} in {members:?}");
    }
    // The text format lists them under the type's line.
    let text = repo
        .repocue(&["cue", "--format", "text", "--max-tokens", "2000"])
        .success()
        .stdout();
    assert!(text.contains("\n      .send .close"), "{text}");
    // A budget that holds the type but not its members shows it without them.
    let small = repo.cue("overview", &["--max-tokens", "250"]);
    for s in small["content"]["symbols"].as_array().into_iter().flatten() {
        assert!(
            s.get("members").is_none() || crate::support::is_symbol(s, "Mailer"),
            "{s}"
        );
    }
}

/// What every type of a language has is no member that tells a type's API: a JavaScript
/// `constructor`, C#'s `Equals`, `GetHashCode`, `ToString` and `CompareTo`, and a Rust method
/// without `pub` (hyper's `Protocol` named `.fmt` from its `impl fmt::Debug`).
#[test]
fn a_languages_protocol_methods_are_no_members() {
    let members = |files: &[(&str, &str)], ty: &str| -> Vec<String> {
        let repo = TestRepo::with_files(files);
        let cue = repo.cue("overview", &["--max-tokens", "2000"]);
        cue["content"]["symbols"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| crate::support::is_symbol(s, ty))
            .unwrap_or_else(|| panic!("{ty} missing: {cue:#}"))["members"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|m| m.as_str().unwrap().to_owned())
            .collect()
    };
    let js = members(
        &[
            (
                "server.js",
                "class Server {\n  constructor (o) { this.o = o }\n  listen (p) { return p }\n}\nmodule.exports = Server\n",
            ),
            ("package.json", "{\"name\":\"srv\",\"main\":\"server.js\"}"),
        ],
        "Server",
    );
    assert_eq!(js, ["listen"]);
    let cs = members(
        &[
            (
                "Unit.cs",
                "namespace Acme;\npublic readonly struct Unit\n{\n    public int CompareTo(Unit other) => 0;\n    public bool Equals(Unit other) => true;\n    public override int GetHashCode() => 0;\n    public override string ToString() => \"()\";\n    public Unit Then(Unit u) => u;\n}\n",
            ),
            (
                "Use.cs",
                "namespace Acme;\npublic static class Use\n{\n    public static bool Same(Unit a, Unit b) => a.Equals(b) && a.GetHashCode() == 0 && a.CompareTo(b) == 0 && a.ToString() == \"()\" && a.Then(b).Equals(b);\n}\n",
            ),
        ],
        "Unit",
    );
    assert_eq!(cs, ["Then"]);
    let rust = members(
        &[
            ("Cargo.toml", "[package]\nname = \"proto\"\nversion = \"0.1.0\"\nedition = \"2021\"\n"),
            (
                "src/lib.rs",
                "pub struct Protocol(String);\n\nimpl Protocol {\n    pub fn as_str(&self) -> &str {\n        &self.0\n    }\n\n    fn helper(&self) -> usize {\n        0\n    }\n}\n\nimpl std::fmt::Debug for Protocol {\n    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {\n        f.write_str(&self.0)\n    }\n}\n",
            ),
        ],
        "Protocol",
    );
    assert_eq!(rust, ["as_str"]);
}

/// A .NET solution at the root says nothing of the runtime or license: the library project
/// users install does (MediatR's `src/MediatR/MediatR.csproj` with `<TargetFrameworks>` and
/// `<PackageLicenseExpression>`; the overview said `license: LICENSE` and no runtime).
#[test]
fn a_workspace_says_what_the_installed_member_requires_and_is_licensed_under() {
    let repo = TestRepo::with_files(&[
        ("LICENSE", "Apache License\nVersion 2.0, January 2004\n"),
        (
            "Acme.sln",
            "Microsoft Visual Studio Solution File, Format Version 12.00\nProject(\"{9A19103F-16F7-4668-BE54-9A1E7A4F7556}\") = \"Gen\", \"codegen\\Gen\\Gen.csproj\", \"{11DA}\"\nEndProject\nProject(\"{9A19103F-16F7-4668-BE54-9A1E7A4F7556}\") = \"Acme\", \"src\\Acme\\Acme.csproj\", \"{12DA}\"\nEndProject\n",
        ),
        // A code generator the build runs is no member users install.
        (
            "codegen/Gen/Gen.csproj",
            "<Project Sdk=\"Microsoft.NET.Sdk\">\n  <PropertyGroup>\n    <TargetFramework>netstandard2.0</TargetFramework>\n    <PackageLicenseExpression>MIT</PackageLicenseExpression>\n  </PropertyGroup>\n</Project>\n",
        ),
        ("codegen/Gen/Generator.cs", "namespace Gen;\npublic class Generator { }\n"),
        (
            "src/Acme/Acme.csproj",
            "<Project Sdk=\"Microsoft.NET.Sdk\">\n  <PropertyGroup>\n    <TargetFrameworks>netstandard2.0;net8.0</TargetFrameworks>\n    <PackageLicenseExpression>Apache-2.0</PackageLicenseExpression>\n  </PropertyGroup>\n</Project>\n",
        ),
        (
            "src/Acme/IMediator.cs",
            "namespace Acme;\npublic interface IMediator { void Send(object r); }\n",
        ),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "1000"]);
    let project = &cue["content"]["project"];
    assert_eq!(
        project["requires"], ".NET netstandard2.0;net8.0",
        "{project:#}"
    );
    assert_eq!(project["license"]["name"], "Apache-2.0", "{project:#}");
    assert_eq!(project["license"]["file"], "LICENSE", "{project:#}");
}

/// A Ruby module with instance methods of its own is a mixin users include, not a namespace,
/// whatever types it holds (sidekiq's `Sidekiq::Job` was listed at no budget).
#[test]
fn a_ruby_mixin_holding_types_is_listed() {
    let mut files: Vec<(String, String)> = vec![
        (
            "lib/kiq/job.rb".into(),
            "module Kiq\n  module Job\n    module Options\n      def opts; end\n    end\n    class Setter\n      def perform_async(*a); end\n    end\n    module ClassMethods\n      def perform_async(*a); end\n    end\n    def self.included(base); base.extend(ClassMethods); end\n    def logger; end\n    def jid; end\n  end\nend\n".into(),
        ),
        (
            "lib/kiq/client.rb".into(),
            "module Kiq\n  class Client\n    def push(item); end\n  end\nend\n".into(),
        ),
        ("lib/kiq.rb".into(), "require \"kiq/job\"\nrequire \"kiq/client\"\n".into()),
    ];
    for n in 1..=3 {
        files.push((
            format!("test/t{n}_test.rb"),
            format!("class T{n}Job\n  include Kiq::Job\n  def perform; Kiq::Client.new.push(1); end\nend\n"),
        ));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let names: Vec<&str> = cue["content"]["symbols"]
        .as_array()
        .unwrap()
        .iter()
        .map(crate::support::symbol_name)
        .collect();
    assert!(names.contains(&"Kiq.Job"), "{names:?}");
}

/// A TypeScript interface's properties are members as its methods are, by use: fastify's
/// `FastifyInstance` declares `register`, `get` and `post` as properties of function types.
#[test]
fn an_interfaces_used_properties_are_members() {
    let mut files: Vec<(String, String)> = vec![
        (
            "index.d.ts".into(),
            "export type Shorthand = (url: string, handler: () => void) => Instance\nexport interface Instance {\n  register: (plugin: (i: Instance) => void) => Instance;\n  get: Shorthand;\n  post: Shorthand;\n  version: string;\n  printPlugins(): string;\n}\nexport default function app(): Instance\n".into(),
        ),
        (
            "package.json".into(),
            "{\"name\":\"app\",\"types\":\"index.d.ts\",\"main\":\"index.js\"}".into(),
        ),
    ];
    for n in 1..=4 {
        files.push((
            format!("test/t{n}.test.js"),
            "const app = require('..')()\napp.register(() => {})\napp.get('/', () => {})\napp.post('/', () => {})\n".into(),
        ));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "1000"]);
    let members = members_of(&cue, "Instance");
    for used in ["register", "get", "post"] {
        assert!(members.contains(&used), "{used}: {members:?}");
    }
}

/// A Go module's root package is a component (logrus's twenty root files were in none, and
/// its `hooks/` led).
#[test]
fn a_go_modules_root_package_is_a_component() {
    let mut files: Vec<(String, String)> =
        vec![("go.mod".into(), "module example.com/lg\n\ngo 1.21\n".into())];
    for f in ["logger", "entry", "level", "formatter"] {
        let ty = format!("{}{}", f[..1].to_uppercase(), &f[1..]);
        files.push((
            format!("{f}.go"),
            format!("package lg\n\ntype {ty} struct{{}}\n"),
        ));
    }
    files.push((
        "hooks/writer/writer.go".into(),
        "package writer\n\nimport \"example.com/lg\"\n\ntype Hook struct{ L *lg.Logger; E *lg.Entry }\n".into(),
    ));
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "1000"]);
    let components: Vec<(&str, u64)> = cue["content"]["components"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["path"].as_str().unwrap(), c["files"].as_u64().unwrap()))
        .collect();
    assert_eq!(components.first(), Some(&("./", 4)), "{components:?}");
}

/// A C library kept at the root alone is a component (cJSON's `cJSON.h` and `cJSON.c` were
/// in none: its components were its tests' and fuzzers' directories); where the project's C
/// lives in directories too, they name it (git's `builtin/`).
#[test]
fn a_c_library_at_the_root_alone_is_a_component() {
    let components = |files: &[(&str, &str)]| -> Vec<String> {
        let repo = TestRepo::with_files(files);
        let cue = repo.cue("overview", &["--max-tokens", "1000"]);
        cue["content"]["components"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["path"].as_str().unwrap().to_owned())
            .collect()
    };
    let mut files = vec![
        (
            "CMakeLists.txt",
            "project(mylib C)\nadd_library(mylib mylib.c)\n",
        ),
        ("mylib.h", "int mylib_parse(const char *text);\n"),
        (
            "mylib.c",
            "#include \"mylib.h\"\nint mylib_parse(const char *text) { return 0; }\n",
        ),
        (
            "tests/t1.c",
            "#include \"../mylib.h\"\nint main(void) { return mylib_parse(\"\"); }\n",
        ),
        (
            "tests/t2.c",
            "#include \"../mylib.h\"\nint main(void) { return mylib_parse(\"x\"); }\n",
        ),
    ];
    let found = components(&files);
    assert_eq!(found.first().map(String::as_str), Some("./"), "{found:?}");
    files.push((
        "builtin/add.c",
        "#include \"../mylib.h\"\nint cmd_add(void) { return mylib_parse(\"a\"); }\n",
    ));
    files.push((
        "builtin/rm.c",
        "#include \"../mylib.h\"\nint cmd_rm(void) { return mylib_parse(\"r\"); }\n",
    ));
    let found = components(&files);
    assert!(!found.contains(&"./".to_owned()), "{found:?}");
}

/// A Go name used without a package is its own package's: the root package's `Level` and
/// `Hook` (what `SetLevel` and `AddHook` take) outrank a sub-package's `type Level lg.Level`
/// in the overview and in search (logrus's `hooks/slog/level.go` took both).
#[test]
fn a_go_name_without_a_package_is_its_own_packages() {
    let repo = TestRepo::with_files(&[
        ("go.mod", "module example.com/lg\n\ngo 1.21\n"),
        (
            "lg.go",
            "package lg\n\ntype Level uint32\n\nconst InfoLevel Level = 1\n\ntype Hook interface{ Fire(l Level) error }\n\ntype Logger struct {\n\tLevel Level\n\tHooks []Hook\n}\n\nfunc New() *Logger { return &Logger{Level: InfoLevel} }\n\nfunc SetLevel(l Level) {}\n\nfunc AddHook(h Hook) {}\n",
        ),
        (
            "configure.go",
            "package lg\n\nfunc Configure(l Level, h Hook) { SetLevel(l); AddHook(h) }\n",
        ),
        (
            "reset.go",
            "package lg\n\nfunc Reset(l Level, h Hook) *Logger { return New() }\n",
        ),
        (
            "hooks/adapter/adapter.go",
            "package adapter\n\nimport \"example.com/lg\"\n\ntype Level lg.Level\n\ntype Hook struct{ L Level }\n\nfunc (h *Hook) Fire(l lg.Level) error { return nil }\n",
        ),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let position = |path: &str, name: &str| {
        cue["content"]["symbols"]
            .as_array()
            .unwrap()
            .iter()
            .position(|s| s["path"] == path && crate::support::is_symbol(s, name))
    };
    for name in ["Level", "Hook"] {
        let root = position("lg.go", name).unwrap_or_else(|| panic!("lg.go {name}: {cue:#}"));
        if let Some(sub) = position("hooks/adapter/adapter.go", name) {
            assert!(root < sub, "{name}: {cue:#}");
        }
        let hits = repo.json(&["search", name]);
        assert_eq!(
            hits["content"]["hits"][0]["id"],
            format!("symbol:lg.go:{name}"),
            "{hits:#}"
        );
    }
}

/// A Python package root's name imported through another module of the package is that
/// module's import: uvicorn's `__init__.py` has `from uvicorn.main import Server`, `main.py`
/// has `from uvicorn.server import Server`; a stub `Server` of its websockets protocol took
/// the export and the place.
#[test]
fn a_python_name_handed_through_a_module_is_the_imported_definition() {
    let repo = TestRepo::with_files(&[
        ("pyproject.toml", "[project]\nname = \"pkg\"\n"),
        (
            "pkg/__init__.py",
            "from pkg.main import Server, run\nfrom pkg.config import Config\n__all__ = [\"Server\", \"Config\", \"run\"]\n",
        ),
        ("pkg/config.py", "class Config:\n    def load(self):\n        pass\n"),
        (
            "pkg/server.py",
            "from pkg.config import Config\n\n\nclass Server:\n    def __init__(self, config: Config):\n        self.config = config\n\n    def run(self):\n        pass\n",
        ),
        (
            "pkg/main.py",
            "from pkg.server import Server\n\n\ndef run(app):\n    Server(None).run()\n",
        ),
        (
            "pkg/proto/impl.py",
            "class Server:\n    closing = False\n\n    def is_serving(self):\n        return True\n\n\nclass Proto:\n    def __init__(self):\n        self.ws_server: Server = Server()\n",
        ),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let servers: Vec<&str> = cue["content"]["symbols"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| crate::support::is_symbol(s, "Server"))
        .map(|s| s["path"].as_str().unwrap())
        .collect();
    assert_eq!(servers.first(), Some(&"pkg/server.py"), "{cue:#}");
    let text = repo
        .repocue(&["cue", "--format", "text", "--max-tokens", "2000"])
        .success()
        .stdout();
    let exports = text
        .lines()
        .find(|l| l.trim_start().starts_with("pkg/__init__.py:"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(
        exports.split_whitespace().any(|w| w == "Server"),
        "{exports}"
    );
}

#[test]
fn what_a_package_root_re_exports_outranks_busier_internals() {
    // `Engine` is used by every internal module; `render` is used by none of them, but the
    // package root re-exports it: it is the package's API and must be listed.
    let mut files: Vec<(String, String)> = vec![
        (
            "pyproject.toml".into(),
            "[project]\nname = \"web\"\n".into(),
        ),
        (
            "src/web/__init__.py".into(),
            "from .templating import render as render\nfrom .app import App as App\n".into(),
        ),
        (
            "src/web/app.py".into(),
            "from .engine import Engine\n\n\nclass App:\n    engine: Engine\n".into(),
        ),
        (
            "src/web/engine.py".into(),
            "class Engine:\n    pass\n".into(),
        ),
        (
            "src/web/templating.py".into(),
            "def render(name):\n    return name\n\n\ndef _load(name):\n    return name\n".into(),
        ),
        (
            "src/web/routing/table.py".into(),
            "class Table:\n    pass\n".into(),
        ),
    ];
    // Internal modules that use each other: their files outrank the one `render` lives in.
    for i in 0..12 {
        let (a, b) = ((i + 1) % 12, (i + 2) % 12);
        files.push((
            format!("src/web/internal/mod{i}.py"),
            format!(
                "from ..engine import Engine\nfrom .mod{a} import Part{a}\nfrom .mod{b} import Part{b}\n\n\nclass Part{i}:\n    e: Engine\n    a: Part{a}\n    b: Part{b}\n"
            ),
        ));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "4000"]);
    let ids = symbol_ids(&cue);
    let pos = |id: &str| ids.iter().position(|i| i == id);
    let render = pos("symbol:src/web/templating.py:render")
        .unwrap_or_else(|| panic!("render missing: {ids:?}"));
    assert!(render < 3, "{ids:?}");
    for i in 0..12 {
        if let Some(p) = pos(&format!("symbol:src/web/internal/mod{i}.py:Part{i}")) {
            assert!(p > render, "{ids:?}");
        }
    }
    assert!(pos("symbol:src/web/templating.py:_load").is_none_or(|p| p > render));
    // Components name the package, not its `src/` wrapper, and its subpackages follow it.
    let comps = component_paths(&cue);
    assert_eq!(comps.first(), Some(&"src/web/"), "{comps:?}");
    assert!(comps.contains(&"src/web/internal/"), "{comps:?}");
    assert!(comps.contains(&"src/web/routing/"), "{comps:?}");
}

#[test]
fn a_directory_named_by_its_only_subdirectory_is_no_source_root() {
    // gin: the Go package at the root, its subpackages `render/` and `binding/`, and `codec/`
    // whose files all lie in `codec/json/` (which `render/` uses). Named by that subdirectory,
    // `codec/json/` is not below a source root for being nested, and does not lead the
    // packages the root uses.
    let repo = TestRepo::with_files(&[
        ("go.mod", "module example.com/web\n\ngo 1.22\n"),
        (
            "web.go",
            "package web\n\nimport (\n\t\"example.com/web/binding\"\n\t\"example.com/web/render\"\n)\n\nfunc Run() {\n\trender.HTML()\n\trender.JSON()\n\trender.Text()\n\tbinding.Bind()\n}\n",
        ),
        ("render/html.go", "package render\n\nfunc HTML() {}\n"),
        ("render/text.go", "package render\n\nfunc Text() {}\n"),
        (
            "render/json.go",
            "package render\n\nimport \"example.com/web/codec/json\"\n\nfunc JSON() {\n\tjson.Marshal()\n}\n",
        ),
        ("binding/form.go", "package binding\n\nfunc Bind() {}\n"),
        ("codec/json/api.go", "package json\n\nfunc Marshal() {}\n"),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "4000"]);
    let comps = component_paths(&cue);
    let pos = |p: &str| comps.iter().position(|c| *c == p);
    let codec = pos("codec/json/").unwrap_or_else(|| panic!("{comps:?}"));
    assert!(pos("render/").is_some_and(|r| r < codec), "{comps:?}");
}

#[test]
fn a_directory_of_build_files_does_not_lead_the_components() {
    // cJSON: its code at the root, its CMake package configuration in `library_config/`. A
    // directory of build files only is support, after the tests.
    let mut files: Vec<(String, String)> = vec![
        (
            "json.c".into(),
            "#include \"json.h\"\n\nint json_parse(const char *s) { return s != 0; }\n".into(),
        ),
        ("json.h".into(), "int json_parse(const char *s);\n".into()),
        (
            "CMakeLists.txt".into(),
            "project(json C)\nadd_library(json json.c)\n".into(),
        ),
        (
            "library_config/jsonConfig.cmake".into(),
            "include(jsonTargets.cmake)\n".into(),
        ),
        (
            "library_config/uninstall.cmake".into(),
            "message(STATUS uninstall)\n".into(),
        ),
    ];
    for i in 0..3 {
        files.push((
            format!("tests/parse_{i}.c"),
            format!("#include \"../json.h\"\n\nint main(void) {{ return json_parse(\"{i}\"); }}\n"),
        ));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "4000"]);
    let comps = component_paths(&cue);
    let pos = |p: &str| comps.iter().position(|c| *c == p);
    let config = pos("library_config/").unwrap_or_else(|| panic!("{comps:?}"));
    assert!(pos("tests/").is_some_and(|t| t < config), "{comps:?}");
}

#[test]
fn example_members_are_named_by_their_listed_directory() {
    // A workspace whose examples are members of their own: `examples/` names them all; a line
    // for each would spend the room of the project's own components.
    let mut files: Vec<(String, String)> = vec![
        (
            "Cargo.toml".into(),
            "[workspace]\nmembers = [\"core\", \"examples/*\"]\n".into(),
        ),
        (
            "core/Cargo.toml".into(),
            "[package]\nname = \"core\"\nversion = \"0.1.0\"\n".into(),
        ),
        ("core/src/lib.rs".into(), "pub fn run() {}\n".into()),
    ];
    for name in ["hello", "server"] {
        files.push((
            format!("examples/{name}/Cargo.toml"),
            format!("[package]\nname = \"{name}\"\nversion = \"0.1.0\"\n"),
        ));
        files.push((
            format!("examples/{name}/src/main.rs"),
            "fn main() {\n    core::run();\n}\n".into(),
        ));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "4000"]);
    let comps = component_paths(&cue);
    assert!(comps.contains(&"core/"), "{comps:?}");
    assert!(comps.contains(&"examples/"), "{comps:?}");
    assert!(!comps.contains(&"examples/hello/"), "{comps:?}");
    assert!(!comps.contains(&"examples/server/"), "{comps:?}");
}

#[test]
fn maintainers_scripts_are_no_entry_points() {
    // pytest's `extra/get_issues.py`, fmt's `support/printable.py`: programs the maintainers
    // run beside the project, not where a newcomer starts.
    let script = "def main():\n    pass\n\n\nif __name__ == \"__main__\":\n    main()\n";
    let repo = TestRepo::with_files(&[
        ("pyproject.toml", "[project]\nname = \"pkg\"\n"),
        ("src/pkg/__init__.py", "def run():\n    pass\n"),
        ("src/pkg/__main__.py", script),
        ("extra/get_issues.py", script),
        ("support/printable.py", script),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "4000"]);
    let entries: Vec<&str> = cue["content"]["entry_points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e.as_str().unwrap())
        .collect();
    assert!(entries.contains(&"src/pkg/__main__.py"), "{entries:?}");
    assert!(!entries.contains(&"extra/get_issues.py"), "{entries:?}");
    assert!(!entries.contains(&"support/printable.py"), "{entries:?}");
}

#[test]
fn a_jvm_projects_code_is_named_by_its_package() {
    // A single Maven module: its code in `src/main/java/org/acme/shop/`, its tests beside it in
    // `src/test/java/`. The component is the package, followed by its subpackages, not `src/`.
    let repo = TestRepo::with_files(&[
        ("pom.xml", "<project><artifactId>shop</artifactId></project>\n"),
        (
            "src/main/java/org/acme/shop/App.java",
            "package org.acme.shop;\n\nimport org.acme.shop.cart.Cart;\nimport org.acme.shop.pay.Pay;\n\npublic class App {\n    public Cart cart;\n    public Pay pay;\n}\n",
        ),
        (
            "src/main/java/org/acme/shop/cart/Cart.java",
            "package org.acme.shop.cart;\n\npublic class Cart {\n    public Item item;\n}\n",
        ),
        (
            "src/main/java/org/acme/shop/cart/Item.java",
            "package org.acme.shop.cart;\n\npublic class Item {}\n",
        ),
        (
            "src/main/java/org/acme/shop/pay/Pay.java",
            "package org.acme.shop.pay;\n\npublic class Pay {}\n",
        ),
        (
            "src/test/java/org/acme/shop/AppTest.java",
            "package org.acme.shop;\n\npublic class AppTest {\n    App app;\n}\n",
        ),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "4000"]);
    let comps = component_paths(&cue);
    assert_eq!(
        comps.first(),
        Some(&"src/main/java/org/acme/shop/"),
        "{comps:?}"
    );
    assert!(
        comps.contains(&"src/main/java/org/acme/shop/cart/"),
        "{comps:?}"
    );
    assert!(
        comps.contains(&"src/main/java/org/acme/shop/pay/"),
        "{comps:?}"
    );
}

#[test]
fn a_package_with_one_subpackage_is_listed_once() {
    // `lib/` is `lib/gem.rb` beside `lib/gem/`: a line for `lib/gem/` would say again what the
    // line for `lib/` says, and spend the room of another component.
    let mut files: Vec<(String, String)> = vec![(
        "lib/gem.rb".into(),
        "require \"gem/core\"\n\nmodule Gem\nend\n".into(),
    )];
    for i in 0..6 {
        files.push((
            format!("lib/gem/part{i}.rb"),
            format!("module Gem\n  class Part{i}\n    def run\n    end\n  end\nend\n"),
        ));
    }
    files.push(("test/part_test.rb".into(), "require \"gem\"\n".into()));
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "4000"]);
    let comps = component_paths(&cue);
    assert_eq!(comps.first(), Some(&"lib/"), "{comps:?}");
    assert!(!comps.contains(&"lib/gem/"), "{comps:?}");
}

#[test]
fn what_a_package_root_defines_outranks_busier_internals() {
    // `parseExpression` is defined and exported by the package root itself; the internal
    // modules use each other's classes much more. The root's public definitions are the
    // package's API and come first; what it keeps to itself does not.
    let mut files: Vec<(String, String)> = vec![
        (
            "package.json".into(),
            r#"{"name": "parser-repo", "private": true, "workspaces": ["packages/*"]}"#.into(),
        ),
        (
            "packages/parser/package.json".into(),
            r#"{"name": "@x/parser", "main": "src/index.ts"}"#.into(),
        ),
        (
            "packages/parser/src/index.ts".into(),
            "import { Part0 } from \"./internal/mod0.ts\";\n\nexport function parseExpression(code: string): Part0 {\n  return new Part0();\n}\n\nfunction normalize(code: string): string {\n  return code;\n}\n".into(),
        ),
    ];
    for i in 0..12 {
        let (a, b) = ((i + 1) % 12, (i + 2) % 12);
        files.push((
            format!("packages/parser/src/internal/mod{i}.ts"),
            format!(
                "import {{ Part{a} }} from \"./mod{a}.ts\";\nimport {{ Part{b} }} from \"./mod{b}.ts\";\n\nexport class Part{i} {{\n  a?: Part{a};\n  b?: Part{b};\n}}\n"
            ),
        ));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "4000"]);
    let ids = symbol_ids(&cue);
    let pos = |id: &str| ids.iter().position(|i| i == id);
    let parse = pos("symbol:packages/parser/src/index.ts:parseExpression")
        .unwrap_or_else(|| panic!("parseExpression missing: {ids:?}"));
    // Only the class it returns (which the root itself uses) may come before it.
    assert!(parse <= 1, "{ids:?}");
    for i in 1..12 {
        if let Some(p) = pos(&format!(
            "symbol:packages/parser/src/internal/mod{i}.ts:Part{i}"
        )) {
            assert!(p > parse, "{ids:?}");
        }
    }
    assert!(
        pos("symbol:packages/parser/src/index.ts:normalize").is_none_or(|p| p > parse),
        "{ids:?}"
    );
}

#[test]
fn imports_of_workspace_packages_by_name_rank_their_definitions() {
    // Two packages define `parse`; the app imports it from `@mono/parser` by package name.
    let repo = TestRepo::with_files(&[
        (
            "package.json",
            "{\"name\": \"mono\", \"private\": true, \"workspaces\": [\"packages/*\"]}\n",
        ),
        ("packages/parser/package.json", "{\"name\": \"@mono/parser\"}\n"),
        (
            "packages/parser/src/index.ts",
            "export function parse(text: string): number { return text.length; }\n",
        ),
        ("packages/legacy/package.json", "{\"name\": \"@mono/legacy\"}\n"),
        (
            "packages/legacy/src/index.ts",
            "export function parse(text: string): number { return 0; }\n",
        ),
        ("packages/app/package.json", "{\"name\": \"@mono/app\"}\n"),
        (
            "packages/app/src/main.ts",
            "import { parse } from \"@mono/parser\";\nexport function run(): number { return parse(\"x\"); }\n",
        ),
        (
            "packages/app/src/other.ts",
            "import { parse } from \"@mono/parser\";\nexport function other(): number { return parse(\"y\"); }\n",
        ),
        // More JSON test fixtures than TypeScript: the packages are still TypeScript.
        ("packages/parser/test/fixtures/a/output.json", "{\"type\": \"File\"}\n"),
        ("packages/parser/test/fixtures/b/output.json", "{\"type\": \"File\"}\n"),
        ("packages/parser/test/fixtures/c/output.json", "{\"type\": \"File\"}\n"),
        ("packages/parser/test/fixtures/d/output.json", "{\"type\": \"File\"}\n"),
        ("packages/parser/test/fixtures/e/output.json", "{\"type\": \"File\"}\n"),
        ("packages/parser/test/fixtures/f/output.json", "{\"type\": \"File\"}\n"),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "4000"]);
    let workspace = &cue["content"]["components"][0];
    assert_eq!(workspace["language"], "TypeScript", "{cue:#}");
    assert!(
        workspace["members"]
            .as_array()
            .unwrap()
            .contains(&json!("packages/parser/")),
        "{cue:#}"
    );
    let ids = symbol_ids(&cue);
    let pos = |id: &str| ids.iter().position(|i| i == id);
    let parser = pos("symbol:packages/parser/src/index.ts:parse")
        .unwrap_or_else(|| panic!("parser's parse missing: {ids:?}"));
    if let Some(legacy) = pos("symbol:packages/legacy/src/index.ts:parse") {
        assert!(parser < legacy, "{ids:?}");
    }
    // The workspace directory leads the components.
    assert_eq!(
        cue["content"]["components"][0]["path"], "packages/",
        "{cue:#}"
    );
    assert_eq!(
        cue["content"]["components"][0]["kind"], "workspace",
        "{cue:#}"
    );
}

/// A directory of test crates is no workspace leading the components (syn's `tests/` of
/// `tests/crates` and `tests/features` came before its `src/`); the root package's own `src/`
/// leads, before the members; a code generator's crate is no entry point (syn's
/// `codegen/src/main.rs`).
#[test]
fn test_crates_lead_no_workspace() {
    let repo = TestRepo::with_files(&[
        (
            "Cargo.toml",
            "[package]\nname = \"syntax\"\nversion = \"1.0.0\"\n\n[workspace]\nmembers = [\"tests/crates\", \"tests/features\", \"codegen\"]\n",
        ),
        (
            "src/lib.rs",
            "pub mod parse;\npub use parse::Parser;\n",
        ),
        (
            "src/parse.rs",
            "pub struct Parser;\n\nimpl Parser {\n    pub fn parse(&self) {}\n}\n",
        ),
        (
            "tests/crates/Cargo.toml",
            "[package]\nname = \"syntax-test-crates\"\nversion = \"0.0.0\"\n",
        ),
        (
            "tests/crates/src/main.rs",
            "fn main() { let p = syntax::Parser; p.parse(); }\n",
        ),
        (
            "tests/features/Cargo.toml",
            "[package]\nname = \"syntax-test-features\"\nversion = \"0.0.0\"\n",
        ),
        (
            "tests/features/src/lib.rs",
            "pub fn check() { let p = syntax::Parser; p.parse(); }\n",
        ),
        (
            "codegen/Cargo.toml",
            "[package]\nname = \"syntax-codegen\"\nversion = \"0.0.0\"\n",
        ),
        (
            "codegen/src/main.rs",
            "fn main() { emit(); }\n\nfn emit() {}\n",
        ),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "3000"]);
    let components = cue["content"]["components"].as_array().unwrap();
    assert!(
        !components
            .iter()
            .any(|c| c["path"] == "tests/" && c["kind"] == "workspace"),
        "{cue:#}"
    );
    assert_eq!(components[0]["path"], "src/", "{cue:#}");
    let e = entry_points(&repo);
    assert!(!e.contains(&"codegen/src/main.rs".to_owned()), "{e:?}");
}

/// Parses the `~N/Mt` budget of a text cue's header line.
fn text_budget(text: &str) -> (u64, u64) {
    let head = text.lines().next().unwrap();
    let b = head.rsplit(' ').next().unwrap();
    let b = b.trim_start_matches('~').trim_end_matches('t');
    let (n, m) = b.split_once('/').unwrap();
    (n.parse().unwrap(), m.parse().unwrap())
}

#[test]
fn text_format_is_budgeted_on_its_own_bytes() {
    let repo = python_library();
    for view in [
        vec!["--view", "overview"],
        vec!["--view", "manifest"],
        vec!["--view", "structure"],
        vec!["--view", "search", "--query", "cart"],
        vec!["--view", "entity", "--id", "symbol:shop/cart.py:Cart"],
        vec!["--view", "document", "--path", "README.md"],
    ] {
        for budget in ["120", "250", "500", "2000"] {
            // The provenance states the estimate and budget in the header line.
            let mut args = vec![
                "cue",
                "--format",
                "text",
                "--max-tokens",
                budget,
                "--provenance",
            ];
            args.extend(&view);
            let ran = repo.repocue(&args);
            if ran.code() != Some(0) {
                assert_eq!(
                    ran.error().error.code,
                    "budget_too_small",
                    "{}",
                    ran.describe()
                );
                continue;
            }
            let text = ran.stdout();
            let (estimated, max) = text_budget(&text);
            assert_eq!(estimated, text_tokens(&text), "{view:?} {budget}: {text}");
            assert!(estimated <= max, "{view:?} {budget}: {text}");
            assert_eq!(max.to_string(), budget);
            assert!(!text.trim_start().starts_with('{'), "{text}");
        }
    }
}

#[test]
fn text_format_costs_a_third_less_than_json_for_the_same_items() {
    let repo = python_library();
    repo.write("shop/new.py", "x = 1\n");
    for view in [
        vec!["--view", "overview"],
        vec!["--view", "structure"],
        vec!["--view", "search", "--query", "cart"],
    ] {
        // A budget that fits everything: both formats carry every item.
        let mut args = vec!["cue", "--max-tokens", "20000"];
        args.extend(&view);
        let json = repo.repocue(&args).success().stdout();
        args.extend(["--format", "text"]);
        let text = repo.repocue(&args).success().stdout();
        assert!(!text.contains("\nomitted:"), "{text}");
        assert!(
            tokens(&text) * 100 <= tokens(&json) * 65,
            "{view:?}: text {} vs json {} estimated tokens\n{text}",
            tokens(&text),
            tokens(&json)
        );
    }
}

#[test]
fn text_format_is_deterministic_and_lists_symbols_under_their_path() {
    let repo = python_library();
    repo.init();
    let a = repo
        .repocue(&["cue", "--format", "text", "--max-tokens", "800"])
        .success()
        .stdout();
    let b = repo
        .repocue(&["cue", "--format", "text", "--max-tokens", "800"])
        .success()
        .stdout();
    assert_eq!(a, b);
    let lines: Vec<&str> = a.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.trim() == "shop/cart.py")
        .unwrap_or_else(|| panic!("{a}"));
    assert!(
        lines[at + 1].starts_with("      ") || lines[at + 1].starts_with("    "),
        "{a}"
    );
    assert!(lines[at + 1].contains("class Cart"), "{a}");
}

/// The text's follow-up is a command line that runs as printed: the view a command implies
/// is left out (`cue` alone is the overview, `cue --since` the delta), and what it returns is
/// what was omitted.
#[test]
fn text_follow_ups_run_as_printed_and_leave_out_the_implied_view() {
    let repo = python_library();
    repo.init();
    let follow_up = |args: &[&str]| -> Vec<String> {
        let text = repo.repocue(args).success().stdout();
        let line = text
            .lines()
            .find(|l| l.starts_with("more"))
            .unwrap_or_else(|| panic!("a cut cue has a follow-up: {text}"));
        let (_, command) = line.split_once(": ").unwrap();
        let words: Vec<String> = command.split(' ').map(str::to_owned).collect();
        assert_eq!(words[..2], ["repocue", "cue"], "{line}");
        assert!(!words.iter().any(|w| w == "--view"), "{line}");
        words[1..].to_vec()
    };
    let args = follow_up(&["cue", "--format", "text", "--max-tokens", "120"]);
    // It answers in the format it was offered in, whole.
    assert!(
        args.ends_with(&["--format".into(), "text".into()]),
        "{args:?}"
    );
    let full = repo.repocue(&args).success().stdout();
    assert!(full.starts_with("repocue overview "), "{full}");
    assert!(!full.lines().any(|l| l.starts_with("more")), "{full}");
    // A delta since the first snapshot, cut: its follow-up keeps `--since`, which implies the
    // view.
    let first = repo.cue("manifest", &["--no-refresh"])["snapshot"]
        .as_str()
        .unwrap()
        .to_owned();
    for i in 0..6 {
        repo.write(
            format!("shop/extra_{i}.py"),
            format!("def extra_{i}():\n    return {i}\n"),
        );
    }
    repo.commit("more modules");
    let args = follow_up(&[
        "cue",
        "--since",
        &first,
        "--format",
        "text",
        "--max-tokens",
        "100",
    ]);
    assert!(args.iter().any(|a| a == "--since"), "{args:?}");
    let delta = repo.repocue(&args).success().stdout();
    assert!(delta.starts_with("repocue delta "), "{delta}");
}

#[test]
fn the_envelope_of_a_cut_overview_is_lean() {
    let repo = python_library();
    repo.init();
    let cue = repo.cue("overview", &["--max-tokens", "300", "--no-refresh"]);
    assert!(
        cue["omitted"].as_u64().unwrap() > 0,
        "a cut overview: {cue:#}"
    );
    // Everything but the content: no repository id or name, digests, timestamps or budget
    // echo by default, an abbreviated head, one count of the omissions and a follow-up that
    // does not repeat the view.
    let mut envelope = cue.clone();
    envelope.as_object_mut().unwrap().remove("content");
    let text = envelope.to_string();
    for absent in [
        "repo-",
        "digest",
        "observed_at",
        "epoch",
        "detail",
        "budget",
        "max_tokens\":300",
        "repository",
        "name",
        "dirty",
    ] {
        assert!(!text.contains(absent), "{absent} in {text}");
    }
    assert_eq!(cue["head"].as_str().unwrap().len(), 10, "{cue:#}");
    assert_eq!(cue["branch"], "main");
    // Issue 10's target: envelope, warnings and `more` within 60 estimated tokens (the key
    // `"content":` included). Measured on the bench/quality overviews at 500 tokens: 55 on each.
    let whole = serde_json::to_string(&cue).unwrap();
    let content = cue["content"].to_string();
    let envelope_tokens = tokens(&whole) - tokens(&content);
    assert!(envelope_tokens <= 60, "{envelope_tokens} tokens: {text}");
    // The full provenance stays available on request.
    let full = repo.cue("overview", &["--max-tokens", "300", "--provenance"]);
    assert!(full["provenance"]["repository_id"].is_string(), "{full:#}");
    assert_eq!(full["provenance"]["max_tokens"], 300, "{full:#}");
    assert!(full["provenance"]["name"].is_string(), "{full:#}");
}

/// A workspace names its members by path inside its own component: a monorepo's packages are
/// what a contributor looks for first, and as components of their own (path, files, kind,
/// language) three of them cost what eight paths do.
#[test]
fn a_small_overview_names_every_member_of_a_workspace() {
    const CRATES: [&str; 8] = [
        "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta",
    ];
    let mut files: Vec<(String, String)> = vec![
        (
            "Cargo.toml".into(),
            "[workspace]\nmembers = [\"crates/*\"]\n".into(),
        ),
        (
            "README.md".into(),
            "# Mono\n\nA workspace of eight crates.\n".into(),
        ),
    ];
    for name in CRATES {
        files.push((
            format!("crates/{name}/Cargo.toml"),
            format!("[package]\nname = \"{name}\"\nversion = \"0.1.0\"\n"),
        ));
        files.push((
            format!("crates/{name}/src/lib.rs"),
            format!("pub fn {name}_entry(input: &str) -> usize {{\n    input.len()\n}}\n"),
        ));
    }
    let repo = TestRepo::with_files(&files);
    // At 500 tokens eight member components did not fit: the workspace and two members did.
    let cue = repo.cue("overview", &["--max-tokens", "500"]);
    let components = cue["content"]["components"].as_array().unwrap();
    let workspace = &components[0];
    assert_eq!(workspace["path"], "crates/", "{cue:#}");
    assert_eq!(workspace["kind"], "workspace", "{cue:#}");
    let listed = workspace["members"].as_array().unwrap();
    assert_eq!(listed.len(), CRATES.len(), "{cue:#}");
    for name in CRATES {
        assert!(
            listed.contains(&json!(format!("crates/{name}/"))),
            "{cue:#}"
        );
    }
    assert!(
        components.iter().all(|c| c["kind"] != "member"),
        "no member is a component of its own: {cue:#}"
    );
    // The text format lists them on the workspace's line, which says it is one.
    let text = repo
        .repocue(&["cue", "--format", "text", "--max-tokens", "500"])
        .success()
        .stdout();
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("crates/ "))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(line.contains(" workspace"), "{line}");
    for name in CRATES {
        assert!(line.contains(&format!(" crates/{name}/")), "{line}");
    }
}

/// A manifest whose languages hold under a tenth of the project's code (git/git's
/// `Cargo.toml` beside its C) names neither the project nor its first build command, and its
/// crate root is not the first entry point. With the Rust code in the majority, Cargo leads.
#[test]
fn a_minor_ecosystem_does_not_name_or_lead_the_project() {
    // A Makefile, a Cargo crate of one file, one more file of the other language, and twelve
    // files of the majority language (C or Rust).
    let overview = |c_majority: bool| {
        let mut files: Vec<(String, String)> = vec![
            (
                "Makefile".into(),
                "all:\n\tcc -o tool *.c\ntest:\n\t./run-tests\n".into(),
            ),
            (
                "Cargo.toml".into(),
                "[package]\nname = \"corelib\"\nversion = \"0.1.0\"\n".into(),
            ),
            (
                "src/lib.rs".into(),
                "pub fn helper() -> u32 {\n    1\n}\n".into(),
            ),
            ("main.c".into(), "int main(void) { return run(); }\n".into()),
        ];
        for i in 0..12 {
            files.push(if c_majority {
                (
                    format!("part{i}.c"),
                    format!("int part{i}(int x) {{ return x + {i}; }}\n"),
                )
            } else {
                (
                    format!("src/part{i}.rs"),
                    format!("pub fn part{i}(x: u32) -> u32 {{\n    x + {i}\n}}\n"),
                )
            });
        }
        TestRepo::with_files(&files).cue("overview", &["--max-tokens", "2000"])
    };
    let cue = overview(true);
    let c = &cue["content"];
    assert_ne!(c["project"]["name"], "corelib", "{cue:#}");
    assert_eq!(c["commands"][0]["command"], "make all", "{cue:#}");
    let entries = c["entry_points"].as_array().unwrap();
    assert_eq!(entries[0], "main.c", "{cue:#}");
    assert_eq!(entries.last().unwrap(), "src/lib.rs", "{cue:#}");

    // The same manifests over mostly Rust: Cargo names the project and builds it first.
    let cue = overview(false);
    let c = &cue["content"];
    assert_eq!(c["project"]["name"], "corelib", "{cue:#}");
    assert_eq!(c["commands"][0]["command"], "cargo build", "{cue:#}");
}

/// A field of a type that a C source file defines is as private as its type, however many
/// files use some name it shares (git's `branch_info.merge` in `builtin/remote.c`); the
/// functions of git's `t/` test library rank after the project's code.
#[test]
fn translation_unit_members_rank_after_their_type_and_tests_after_code() {
    let mut files: Vec<(String, String)> = vec![
        (
            "merge.h".into(),
            "struct list;\nint merge(struct list *a, struct list *b);\n".into(),
        ),
        (
            "remote.c".into(),
            "#include \"merge.h\"\nstruct branch_info {\n\tstruct list *merge;\n\tint rebase;\n};\nint cmd_remote(int argc)\n{\n\treturn argc;\n}\n".into(),
        ),
        (
            "t/test-lib.sh".into(),
            "perl () {\n\tcommand perl \"$@\"\n}\nsetup_repo () {\n\tgit init\n}\n".into(),
        ),
    ];
    for i in 0..6 {
        files.push((
            format!("user{i}.c"),
            format!("int use{i}(struct list *a)\n{{\n\treturn merge(a, a) + perl_count{i};\n}}\n"),
        ));
    }
    // A test library every test script calls: a rank far above the project's own files.
    for i in 0..40 {
        files.push((
            format!("t/t{i:04}-basic.sh"),
            format!(". ./test-lib.sh\ncheck_{i} () {{\n\tsetup_repo\n\tperl -e 1\n}}\ncheck_{i}\n"),
        ));
    }
    let repo = TestRepo::with_files(&files);
    // The file's own view: its type before the type's fields.
    let cue = repo.cue("structure", &["--path", "remote.c", "--max-tokens", "4000"]);
    let ids = symbol_ids(&cue);
    let pos = |id: &str| ids.iter().position(|i| i == id);
    let (Some(ty), Some(field)) = (
        pos("symbol:remote.c:branch_info"),
        pos("symbol:remote.c:branch_info.merge"),
    ) else {
        panic!("{ids:?}");
    };
    assert!(ty < field, "a member of a translation unit's type: {ids:?}");
    let cue = repo.cue("overview", &["--max-tokens", "4000"]);
    let ids = symbol_ids(&cue);
    assert!(ids.contains(&"symbol:merge.h:merge".to_owned()), "{ids:?}");
    // The test library, however high its rank, is no part of the overview's API.
    assert!(
        !ids.iter().any(|i| i.starts_with("symbol:t/")),
        "tests listed: {ids:?}"
    );
    // The structure view ranks it after the project's own code (its translation unit's type
    // aside, which counts as local).
    let cue = repo.cue("structure", &["--max-tokens", "4000"]);
    let ids = symbol_ids(&cue);
    let first_test = ids
        .iter()
        .position(|i| i.starts_with("symbol:t/"))
        .unwrap_or_else(|| panic!("{ids:?}"));
    let own_after = ids[first_test..]
        .iter()
        .filter(|i| !i.starts_with("symbol:t/") && !i.ends_with(":branch_info"))
        .collect::<Vec<_>>();
    assert!(own_after.is_empty(), "{own_after:?} after tests: {ids:?}");
}

/// A file's first listed symbol names the file's other public definitions that the first
/// symbols do not list, most used first: git's `parse-options.h` brings `parse_options` beside
/// `struct option`. Never a private one, and never a name listed already.
#[test]
fn a_files_first_symbol_names_what_else_it_offers() {
    let mut files: Vec<(String, String)> = vec![(
        "opts.h".into(),
        "struct option { int kind; };\n\nint parse_options(int argc, struct option *o);\n\nvoid usage_with_options(struct option *o);\n\nint option_count(void);\n\nstatic int opt_internal(void) { return 0; }\n".into(),
    )];
    // Enough other files with public functions that the first symbols cannot hold them all.
    for i in 0..12 {
        files.push((
            format!("lib{i}.h"),
            format!("int lib{i}_open(void);\n\nint lib{i}_close(void);\n"),
        ));
        let parse = if i < 8 {
            "parse_options(argc, &o)"
        } else {
            "0"
        };
        let usage = match i {
            0..3 => "usage_with_options(&o); option_count(); ",
            3..6 => "option_count(); ",
            _ => "",
        };
        files.push((
            format!("cmd{i}.c"),
            format!("#include \"opts.h\"\n#include \"lib{i}.h\"\n\nint cmd{i}(int argc)\n{{\n\tstruct option o;\n\tlib{i}_open();\n\tlib{i}_close();\n\t{usage}return {parse};\n}}\n"),
        ));
    }
    let repo = TestRepo::with_files(&files);
    // A budget that lists opts.h but not every definition on a line of its own.
    let cue = repo.cue("overview", &["--max-tokens", "400"]);
    let symbols = cue["content"]["symbols"].as_array().unwrap();
    let first = symbols
        .iter()
        .find(|s| s["path"] == "opts.h")
        .unwrap_or_else(|| panic!("opts.h missing: {symbols:?}"));
    let also: Vec<&str> = first["also"]
        .as_array()
        .unwrap_or_else(|| panic!("no also: {first}"))
        .iter()
        .map(|n| n.as_str().unwrap())
        .collect();
    // The most called first (not in source order); the private helper never; nor a name on a
    // line of its own.
    let listed: Vec<&str> = symbols.iter().map(crate::support::symbol_name).collect();
    let expected: Vec<&str> = ["parse_options", "option_count", "usage_with_options"]
        .into_iter()
        .filter(|n| !listed.contains(n))
        .collect();
    assert!(!expected.is_empty(), "every name is listed: {listed:?}");
    assert_eq!(also, expected, "{first}");
    // Only the file's first symbol carries them.
    let carriers = symbols.iter().filter(|s| s.get("also").is_some()).count();
    let files_listed: std::collections::BTreeSet<&str> = symbols
        .iter()
        .map(|s| s["path"].as_str().unwrap())
        .collect();
    assert!(carriers <= files_listed.len(), "{symbols:?}");
    // The text format puts them under the file's symbols.
    let text = repo
        .repocue(&["cue", "--format", "text", "--max-tokens", "250"])
        .success()
        .stdout();
    assert!(
        text.contains(&format!("    also: {}\n", expected.join(" "))),
        "{text}"
    );
}

/// A name a file's `also` gave is not repeated once a larger budget gives it a line of its
/// own (uvicorn's `also: is_dir …` then `124 def is_dir` at 2,400 tokens).
#[test]
fn a_name_on_a_line_of_its_own_leaves_the_files_also() {
    let mut files: Vec<(String, String)> =
        vec![("go.mod".into(), "module example.com/lg\n\ngo 1.21\n".into())];
    let mut calls = String::new();
    for f in ["a", "b", "c", "d", "e", "f", "g"] {
        let upper = f.to_uppercase();
        let mut body = String::from("package lg\n");
        for i in 1..=5 {
            body.push_str(&format!("func {upper}Func{i}(x int) int {{ return x }}\n"));
            calls.push_str(&format!("\t{upper}Func{i}(1)\n"));
        }
        files.push((format!("{f}.go"), body));
    }
    files.push((
        "use.go".into(),
        format!("package lg\n\nfunc use() {{\n{calls}}}\n"),
    ));
    let repo = TestRepo::with_files(&files);
    let mut repeated_at = vec![];
    let mut named = 0;
    for budget in ["600", "1000", "1500", "3000"] {
        let cue = repo.cue("overview", &["--max-tokens", budget]);
        let symbols = cue["content"]["symbols"].as_array().unwrap();
        for s in symbols {
            for n in s["also"].as_array().into_iter().flatten() {
                named += 1;
                let line = symbols.iter().any(|l| {
                    l["path"] == s["path"] && crate::support::symbol_name(l) == n.as_str().unwrap()
                });
                if line {
                    repeated_at.push(format!("{budget}: {n}"));
                }
            }
        }
    }
    assert!(named > 0, "no budget named a file's other definitions");
    assert!(repeated_at.is_empty(), "{repeated_at:?}");
}

/// A Ruby module that only holds the gem's classes is their namespace, reopened in every
/// file: every `App::Server` counts as a use of `App`, but what a reader needs are the
/// classes.
#[test]
fn a_namespace_module_comes_after_the_classes_it_holds() {
    let mut files: Vec<(String, String)> = vec![
        (
            "lib/app.rb".into(),
            "require 'app/server'\nrequire 'app/router'\n".into(),
        ),
        (
            "lib/app/server.rb".into(),
            "module App\n  class Server\n    def start(port)\n      port\n    end\n  end\nend\n"
                .into(),
        ),
        (
            "lib/app/router.rb".into(),
            "module App\n  class Router\n    def route(path)\n      path\n    end\n  end\nend\n"
                .into(),
        ),
    ];
    for i in 0..6 {
        files.push((
            format!("lib/app/plugin{i}.rb"),
            format!("module App\n  class Plugin{i}\n    def run\n      App::Server.new.start({i})\n      App::Router.new.route('/{i}')\n    end\n  end\nend\n"),
        ));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "4000"]);
    let ids = symbol_ids(&cue);
    let at = |id: &str| ids.iter().position(|s| s == id);
    let classes: Vec<usize> = ids
        .iter()
        .enumerate()
        .filter(|(_, id)| id.contains(":App."))
        .map(|(i, _)| i)
        .collect();
    assert!(
        at("symbol:lib/app/server.rb:App.Server").is_some(),
        "{ids:?}"
    );
    assert!(classes.len() >= 8, "{ids:?}");
    for (i, id) in ids.iter().enumerate() {
        if id.ends_with(":App") {
            assert!(
                classes.iter().all(|&c| c < i),
                "{id} before a class: {ids:?}"
            );
        }
    }
}

/// A Ruby DSL's methods are called by their bare names (`set :port, 1`) and shown in the
/// README, while the class that defines them shares its name with another: the methods
/// outrank the class, which no budget then listed. The overview lists the class in their
/// place, with the methods as its members.
#[test]
fn a_method_is_listed_as_the_type_that_holds_it() {
    let mut files: Vec<(String, String)> = vec![
        (
            "lib/web/base.rb".into(),
            "module Web\n  class Base\n    def self.set(key, value)\n      key\n    end\n\n    def self.enable(key)\n      key\n    end\n\n    def self.route(path)\n      path\n    end\n  end\nend\n".into(),
        ),
        (
            "lib/other/base.rb".into(),
            "module Other\n  class Base\n    def call(env)\n      env\n    end\n  end\nend\n".into(),
        ),
        ("apps/main.rb".into(), "class Main < Web::Base\nend\n".into()),
        (
            "README.md".into(),
            "# Web\n\nA web DSL.\n\n```ruby\nset :port, 80\nenable :sessions\nroute '/'\n```\n".into(),
        ),
    ];
    for i in 0..8 {
        files.push((
            format!("apps/config{i}.rb"),
            format!("Main.set :port, {i}\nMain.enable :logging\nMain.route '/{i}'\n"),
        ));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "4000"]);
    let symbols = cue["content"]["symbols"].as_array().unwrap();
    // The file's symbols besides its namespace module.
    let base: Vec<&Value> = symbols
        .iter()
        .filter(|s| s["path"] == "lib/web/base.rb" && s["signature"] != "module Web")
        .collect();
    assert_eq!(base.len(), 1, "{symbols:#?}");
    assert_eq!(
        crate::support::symbol_name(base[0]),
        "Web.Base",
        "{symbols:#?}"
    );
    let members: Vec<&str> = base[0]["members"]
        .as_array()
        .map(|m| m.iter().map(|n| n.as_str().unwrap()).collect())
        .unwrap_or_default();
    for method in ["set", "enable", "route"] {
        assert!(members.contains(&method), "{method} in {members:?}");
    }
    // First of the project's symbols, where its most used method was.
    assert_eq!(symbols[0]["path"], "lib/web/base.rb", "{symbols:#?}");
}

/// A type listed for its methods takes one of its file's two first lines, and its further
/// methods none: the file's second line goes to its next type, before other files' lesser
/// ones (sinatra's `base.rb` showed `class Base` alone, for `set` and `enable`, and its
/// `Request` and `Helpers` came after every file's first two symbols).
#[test]
fn a_types_methods_leave_its_file_room_for_another_type() {
    let mut files: Vec<(String, String)> = vec![(
        "lib/web/base.rb".into(),
        "class Base\n  def self.set(key, value)\n    key\n  end\n\n  def self.enable(key)\n    key\n  end\n\n  def self.route(path)\n    path\n  end\nend\n\nclass Request\n  def params\n    {}\n  end\nend\n".into(),
    ),
    (
        "README.md".into(),
        "# Web\n\nA web DSL.\n\n```ruby\nset :port, 80\nenable :sessions\nroute '/'\n```\n".into(),
    )];
    // The DSL's methods are called by their bare names, as the README shows them.
    for i in 0..8 {
        files.push((
            format!("apps/config{i}.rb"),
            format!("def configure{i}\n  set :port, {i}\n  enable :logging\n  route '/{i}'\nend\n"),
        ));
    }
    files.push((
        "apps/request.rb".into(),
        "def handle\n  Request.new.params[0]\nend\n".into(),
    ));
    // Lesser types of other files, which no file uses.
    for i in 0..6 {
        files.push((
            format!("lib/part{i}/part.rb"),
            format!("class Part{i}\n  def draw{i}(x)\n    x\n  end\nend\n"),
        ));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "4000"]);
    let symbols = cue["content"]["symbols"].as_array().unwrap();
    let at = |name: &str| {
        symbols
            .iter()
            .position(|s| crate::support::symbol_name(s) == name)
            .unwrap_or_else(|| panic!("{name} not listed: {symbols:#?}"))
    };
    let (base, request) = (at("Base"), at("Request"));
    assert!(base < request, "{symbols:#?}");
    for i in 0..6 {
        assert!(request < at(&format!("Part{i}")), "{symbols:#?}");
    }
    // The methods are the type's members, not lines of their own.
    for method in ["set", "enable", "route"] {
        assert!(
            !symbols
                .iter()
                .any(|s| crate::support::symbol_name(s).ends_with(method)),
            "{method} has a line: {symbols:#?}"
        );
    }
}

/// A module with more methods than types is a mixin, not a namespace: its methods are listed
/// as the module, as a class's are (sinatra's `Sinatra::Helpers`, which also holds a
/// `Stream` class, was listed as `def status(value = nil)`). A module of types with a few
/// functions beside them stays a namespace: its types are listed for themselves.
#[test]
fn a_module_of_methods_is_listed_for_them() {
    let mut files: Vec<(String, String)> = vec![(
        "lib/web.rb".into(),
        "module Web\n  module Helpers\n    class Stream\n    end\n\n    def status(value = nil)\n      value\n    end\n\n    def redirect(uri)\n      uri\n    end\n  end\n\n  class Base\n    include Helpers\n  end\n\n  class Router\n  end\n\n  def self.version\n    1\n  end\nend\n".into(),
    )];
    for i in 0..6 {
        files.push((
            format!("apps/app{i}.rb"),
            format!("def handle{i}\n  status {i}\n  redirect '/{i}'\nend\n"),
        ));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "4000"]);
    let symbols = cue["content"]["symbols"].as_array().unwrap();
    let names: Vec<&str> = symbols.iter().map(crate::support::symbol_name).collect();
    let helpers = symbols
        .iter()
        .find(|s| crate::support::symbol_name(s) == "Web.Helpers")
        .unwrap_or_else(|| panic!("Web.Helpers not listed: {symbols:#?}"));
    let members = helpers["members"].as_array().unwrap();
    assert!(members.iter().any(|m| m == "status"), "{helpers:#}");
    for method in ["Web.Helpers.status", "Web.Helpers.redirect"] {
        assert!(!names.contains(&method), "{names:?}");
    }
    // `Web` holds three types and one function: a namespace, whose function stands for
    // itself.
    assert!(names.contains(&"Web.version"), "{names:?}");
}

/// The commits after the first two come every other round of symbols: a tight overview
/// spends its room on the project's API before the history of the week.
#[test]
fn later_commits_give_way_to_the_first_symbols() {
    let mut files: Vec<(String, String)> = Vec::new();
    for i in 0..14 {
        files.push((
            format!("lib{i}.h"),
            format!("int lib{i}_open(void);\n\nint lib{i}_close(void);\n"),
        ));
        files.push((
            format!("cmd{i}.c"),
            format!("#include \"lib{i}.h\"\n\nint cmd{i}(void)\n{{\n\treturn lib{i}_open() + lib{i}_close();\n}}\n"),
        ));
    }
    let repo = TestRepo::with_files(&files);
    for i in 0..6 {
        repo.write(format!("notes{i}.txt"), "x\n");
        repo.commit(&format!(
            "commit number {i} with a subject as long as most subjects are"
        ));
    }
    let full = repo.cue("overview", &["--max-tokens", "8000"]);
    let count = |c: &Value, key: &str| c[key].as_array().map_or(0, |a| a.len());
    assert!(count(&full["content"], "recent_commits") >= 6, "{full:#}");
    assert!(count(&full["content"], "symbols") >= 12, "{full:#}");
    let mut fourth = false;
    for budget in (200..=2000).step_by(20) {
        let ran = repo.repocue(&["cue", "--max-tokens", &budget.to_string()]);
        if ran.code() != Some(0) {
            continue;
        }
        let c = &ran.json()["content"];
        // The fourth commit comes at round 16, after the first eleven symbols (the eleventh
        // at round 15); before, it came at round 13.
        if count(c, "recent_commits") >= 4 {
            fourth = true;
            assert!(
                count(c, "symbols") >= 11,
                "a fourth commit before the eleventh symbol at {budget}: {c:#}"
            );
        }
    }
    assert!(fourth, "no budget showed four commits");
}

/// A Rust type's `new` is its constructor, however often it is called: the members name what
/// the type does.
#[test]
fn a_rust_constructor_is_no_member() {
    let client = |i: usize| {
        format!("use shop::Walker;\n\n#[test]\nfn walks{i}() {{\n    let w = Walker::new();\n    w.run();\n    Walker::new().stop();\n}}\n")
    };
    let mut files: Vec<(String, String)> = vec![
        ("Cargo.toml".into(), "[package]\nname = \"shop\"\nversion = \"0.1.0\"\n".into()),
        (
            "src/lib.rs".into(),
            "pub struct Walker;\n\nimpl Walker {\n    pub fn new() -> Walker {\n        Walker\n    }\n\n    pub fn run(&self) {}\n\n    pub fn stop(&self) {}\n}\n".into(),
        ),
    ];
    for i in 0..3 {
        files.push((format!("tests/walk{i}.rs"), client(i)));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    assert_eq!(members_of(&cue, "Walker"), ["run", "stop"]);
}

/// The members an overview lists for the symbol `name`; panics when the symbol or its members
/// are missing.
fn members_of<'a>(cue: &'a Value, name: &str) -> Vec<&'a str> {
    // A signature names other types too (`function app(): Instance`): the first entry with
    // members, else the first.
    let named: Vec<&Value> = cue["content"]["symbols"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| crate::support::is_symbol(s, name))
        .collect();
    let symbol = named
        .iter()
        .find(|s| s.get("members").is_some())
        .or(named.first())
        .unwrap_or_else(|| panic!("{name} missing: {}", cue["content"]["symbols"]));
    symbol["members"]
        .as_array()
        .unwrap_or_else(|| panic!("no members: {symbol}"))
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect()
}

/// A `main` that calls a main of another name hands over to the file defining it, listed right
/// after it: the one named after the project when several programs define it (git's
/// `common-main.c` calls `cmd_main`, which `git.c` and a dozen other programs define), never a
/// header that only declares it.
#[test]
fn a_main_is_followed_by_the_file_it_hands_over_to() {
    let program = |name: &str| {
        format!("int {name}_helper(void)\n{{\n\treturn 0;\n}}\nint cmd_main(int argc, const char **argv)\n{{\n\treturn {name}_helper();\n}}\n")
    };
    let repo = TestRepo::with_files(&[
        (
            "common-main.c".to_owned(),
            "#include \"compat.h\"\nint main(int argc, const char **argv)\n{\n\tsetup();\n\treturn cmd_main(argc, argv);\n}\n".to_owned(),
        ),
        // `domain` holds no main: this program hands over to nobody.
        (
            "resolve.c".to_owned(),
            "int main(int argc, const char **argv)\n{\n\treturn domain_lookup(argv[1]);\n}\n".to_owned(),
        ),
        (
            "domain.c".to_owned(),
            "int domain_lookup(const char *name)\n{\n\treturn 0;\n}\n".to_owned(),
        ),
        (
            "compat.h".to_owned(),
            "int cmd_main(int argc, const char **argv);\nvoid setup(void);\n".to_owned(),
        ),
        ("compat.c".to_owned(), "void setup(void)\n{\n}\n".to_owned()),
        ("daemon.c".to_owned(), program("daemon")),
        ("repo.c".to_owned(), program("repo")),
        ("shell.c".to_owned(), program("shell")),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    assert_eq!(cue["content"]["project"]["name"], "repo", "{cue:#}");
    let entries: Vec<&str> = cue["content"]["entry_points"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|e| e.as_str())
        .collect();
    let main = entries.iter().position(|e| *e == "common-main.c");
    let program = entries.iter().position(|e| *e == "repo.c");
    assert!(
        main.is_some() && program == main.map(|m| m + 1),
        "{entries:?}"
    );
    assert!(!entries.contains(&"compat.h"), "{entries:?}");
    assert!(!entries.contains(&"domain.c"), "{entries:?}");
}

/// A `main` that does the program's work and ends by running a loop named like a main hands
/// over to nothing: Redis's `server.c` ends its 340-line `main` with `aeMain(server.el)`, and
/// the event-loop library `ae.c` was listed as an entry point.
#[test]
fn a_long_main_running_a_loop_hands_over_to_nothing() {
    let body: String = (0..70).map(|i| format!("\tinit_part{i}();\n")).collect();
    let parts: String = (0..70)
        .map(|i| format!("void init_part{i}(void)\n{{\n}}\n"))
        .collect();
    let repo = TestRepo::with_files(&[
        ("src/ae.h".to_owned(), "void aeMain(int *el);\n".to_owned()),
        (
            "src/ae.c".to_owned(),
            "#include \"ae.h\"\nvoid aeMain(int *el)\n{\n\t(void)el;\n}\n".to_owned(),
        ),
        (
            "src/server.c".to_owned(),
            format!("#include \"ae.h\"\n{parts}int main(void)\n{{\n{body}\taeMain(0);\n\treturn 0;\n}}\n"),
        ),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let entries = cue["content"]["entry_points"].to_string();
    assert!(entries.contains("src/server.c"), "{entries}");
    assert!(!entries.contains("src/ae.c"), "{entries}");
}

/// A C file whose other functions the project calls is a library with a `main` of its own
/// behind `#ifdef` (a debug build's, a self-test): no entry point, however much better the
/// library ranks than the program whose file is little else than its `main`.
#[test]
fn a_library_with_a_debug_main_is_no_entry_point() {
    let mut files: Vec<(String, String)> = vec![
        (
            "base85.c".into(),
            "int encode_85(char *buf, int len)\n{\n\treturn len;\n}\n#ifdef DEBUG_85\nint main(int ac, char **av)\n{\n\treturn encode_85(0, ac);\n}\n#endif\n".into(),
        ),
        (
            "common-main.c".into(),
            "int cmd_main(int argc, const char **argv);\nint main(int argc, const char **argv)\n{\n\treturn cmd_main(argc, argv);\n}\n".into(),
        ),
    ];
    for i in 0..6 {
        files.push((
            format!("user{i}.c"),
            format!("int user{i}(char *b)\n{{\n\treturn encode_85(b, {i});\n}}\n"),
        ));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let entries = cue["content"]["entry_points"].as_array().unwrap();
    let pos = |p: &str| entries.iter().position(|e| e == p);
    assert_eq!(pos("common-main.c"), Some(0), "{entries:?}");
    assert_eq!(pos("base85.c"), None, "{entries:?}");
}

/// Fresh caches of one state give one overview: an empty `lib.rs` beside an empty Java file
/// (the same bytes, so one stored analysis) counted as Java in about one baseline of four, the
/// project's main language flipped from Rust to Python and its entry points changed order.
#[test]
fn empty_files_of_two_languages_leave_the_overview_deterministic() {
    let repo = TestRepo::with_files(&[
        ("java/src/main/java/com/acme/App.java", ""),
        ("src/lib.rs", ""),
        (
            "src/main.rs",
            "use acme::parse;\n\npub fn main() -> i32 {\n    0\n}\n",
        ),
        ("src/engine.rs", "pub fn start(a: i32) -> i32 {\n    a\n}\n"),
        (
            "src/parser.rs",
            "pub fn parse(s: &str) -> i32 {\n    0\n}\n",
        ),
        (
            "src/render.rs",
            "pub fn render(a: i32) -> i32 {\n    a\n}\n",
        ),
        ("py/acmepy/__init__.py", "from .core import run\n"),
        (
            "py/acmepy/cli.py",
            "from acmepy.core import run\n\ndef main():\n    return run()\n",
        ),
        (
            "py/acmepy/core.py",
            "from acmepy.util import slug\n\ndef run():\n    return slug()\n",
        ),
        ("py/acmepy/util.py", "def slug():\n    return 1\n"),
    ]);
    let mut seen = std::collections::BTreeSet::new();
    for i in 0..8 {
        let cache = repo.outside().join(format!("fresh-{i}"));
        repo.repocue_with(repo.path(""), &cache, &["init"])
            .success();
        let cue = repo
            .repocue_with(
                repo.path(""),
                &cache,
                &["cue", "--max-tokens", "2000", "--no-refresh"],
            )
            .success()
            .json();
        seen.insert(cue["content"]["entry_points"].to_string());
    }
    assert_eq!(seen.len(), 1, "{seen:#?}");
    let entries = seen.first().unwrap();
    let at = |p: &str| entries.find(p).unwrap_or_else(|| panic!("{p}: {entries}"));
    assert!(at("src/main.rs") < at("py/acmepy/cli.py"), "{entries}");
}

/// Without a manifest that names it, the project is named by its README's title when that is
/// a name, else by its directory (here `repo`): a checkout is often named for a branch.
#[test]
fn a_readme_titled_by_a_name_names_a_project_no_manifest_names() {
    for (title, name) in [
        ("Widgetry", "Widgetry"),
        ("yaml-cpp", "yaml-cpp"),
        ("Introduction", "repo"),
        ("Widgetry - draws widgets fast", "repo"),
    ] {
        let readme = format!("# {title}\n\nWidgetry draws widgets.\n");
        let repo = TestRepo::with_files(&[
            ("README.md", readme.as_str()),
            ("src/main.c", "int main(void)\n{\n\treturn 0;\n}\n"),
        ]);
        let cue = repo.cue("overview", &["--max-tokens", "500"]);
        assert_eq!(cue["content"]["project"]["name"], name, "{cue:#}");
    }
}

/// The README, the root's guides for contributors, then the guides the README links to (the
/// most linked first, then in its order, wherever they live) and the root's other guides, the
/// change log, the README's other links (a reference-style link's definition and a plain text
/// file count; a record of one decision after the others), other root documents, `docs/`,
/// licenses last. A guide's words may be written apart (got's `quick-start.md` came after its
/// migration guides); a root guide the README links by URL is one (factory_bot's
/// `GETTING_STARTED.md` came after a code of conduct of one link).
#[test]
fn documents_the_readme_links_to_come_before_the_other_documents() {
    let repo = TestRepo::with_files(&[
        (
            "README.md",
            "# Tool\n\nBuilt small ([ADR 7](docs/adr/0007-one-binary.md)). \
             Does things for [these users](site/content/users.md).\n\n\
             Read the [FAQ](FAQ.md), the \
             [guide](./site/content/guide.md#start) and the [license](LICENSE.txt); \
             see [the site](https://example.org/x.md) and [Documentation/Notes][], \
             [its second part](Documentation/Notes#part-2). \
             [Start](docs/quick-start.md).\n\n\
             [Documentation/Notes]: Documentation/Notes\n",
        ),
        ("docs/quick-start.md", "# Quick start\n"),
        ("GETTING_STARTED.md", "# Getting started\n"),
        ("CODE_OF_CONDUCT.md", "# Code of conduct\n"),
        ("site/content/users.md", "# Users\n"),
        ("docs/adr/0007-one-binary.md", "# One binary\n"),
        ("Documentation/Notes", "How we work.\n"),
        ("FAQ.md", "# FAQ\n"),
        ("site/content/guide.md", "# Guide\n"),
        ("site/content/other.md", "# Other\n"),
        ("CONTRIBUTING.md", "# Contributing\n"),
        (
            "AGENTS.md",
            "# Agents\n\nRun the tests before you commit.\n",
        ),
        (
            ".github/copilot-instructions.md",
            "# Copilot\n\nRun the tests.\n",
        ),
        (".cursorrules", "Run the tests before you commit.\n"),
        (
            ".claude/skills/release/SKILL.md",
            "# Release\n\nTag, then publish.\n",
        ),
        (".github/workflows/notes.md", "# Not for agents\n"),
        ("CHANGELOG.md", "# Changes\n"),
        ("AUTHORS.md", "# Authors\n"),
        ("LICENSE.txt", "MIT\n"),
        ("docs/api.md", "# API\n"),
        ("src/lib.rs", "pub fn run() {}\n"),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let docs = section_paths(&cue, "documents");
    assert_eq!(
        docs,
        [
            "README.md",
            "AGENTS.md",
            ".github/copilot-instructions.md",
            ".cursorrules",
            ".claude/skills/release/SKILL.md",
            "CONTRIBUTING.md",
            "FAQ.md",
            "site/content/guide.md",
            "docs/quick-start.md",
            "GETTING_STARTED.md",
            "CHANGELOG.md",
            "Documentation/Notes",
            "site/content/users.md",
            "docs/adr/0007-one-binary.md",
            "AUTHORS.md",
            "CODE_OF_CONDUCT.md",
            "docs/api.md",
            "LICENSE.txt",
        ],
        "{cue:#}"
    );
}

/// The project names what it is built on: its main manifest's runtime dependencies, the most
/// imported by its code first (not the alphabetical head of the list), at most three.
#[test]
fn the_overview_names_the_dependencies_the_code_imports_most() {
    let repo = TestRepo::with_files(&[
        (
            "pyproject.toml",
            "[project]\nname = \"tool\"\ndependencies = [\"alpha>=1\", \"Beta_Lib\", \
             \"gamma[extra]\", \"delta\"]\n[project.optional-dependencies]\ndev = [\"pytest\"]\n",
        ),
        ("tool/__init__.py", "import gamma\nfrom beta_lib import x\n"),
        (
            "tool/a.py",
            "from gamma.sub import y\n\ndef a():\n    return y\n",
        ),
        (
            "tool/b.py",
            "import gamma.core as g\n\ndef b():\n    return g\n",
        ),
        ("tests/test_a.py", "import delta\nimport delta.more\n"),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    assert_eq!(
        cue["content"]["project"]["dependencies"],
        json!(["gamma", "Beta_Lib", "alpha"]),
        "{cue:#}"
    );
}

/// A directory is judged by what it holds where its name misleads: cobra's Go package `doc/`
/// is code, its `site/content/` of Markdown is documentation (source first, then the
/// documentation brought forward), not a source root because it is nested.
#[test]
fn components_are_judged_by_what_they_hold() {
    let mut files: Vec<(String, String)> = vec![
        (
            "go.mod".into(),
            "module example.com/tool\n\ngo 1.21\n".into(),
        ),
        ("tool.go".into(), "package tool\n\nfunc Run() {}\n".into()),
        (".github/workflows/ci.yml".into(), "on: push\n".into()),
    ];
    for i in 0..3 {
        files.push((
            format!("doc/gen{i}.go"),
            format!(
                "package doc\n\nimport \"example.com/tool\"\n\nfunc Gen{i}() {{ tool.Run() }}\n"
            ),
        ));
    }
    for i in 0..5 {
        files.push((
            format!("site/content/page{i}.md"),
            format!("# Page {i}\n\nText.\n"),
        ));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let comps = section_paths(&cue, "components");
    assert_eq!(comps[..2], ["doc/", "site/content/"], "{cue:#}");
}

/// A README that opens with what the project is for, not what it is, gives the sentence that
/// names and defines the project (fastify's "An efficient server implies…", then "Fastify is a
/// web framework…"); one whose opening names the project keeps it.
#[test]
fn the_purpose_is_the_sentence_that_defines_the_project() {
    let readme = "<div align=\"center\">\n<img src=\"logo.png\">\n</div>\n\nAn efficient server implies a lower cost of the infrastructure and happy users.\n\nEnter Fastify. Fastify is a web framework focused on developer experience.\n";
    let repo = TestRepo::with_files(&[
        (
            "package.json",
            "{\"name\": \"fastify\", \"main\": \"fastify.js\"}\n",
        ),
        ("fastify.js", "module.exports = function fastify () {}\n"),
        ("README.md", readme),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "1000"]);
    assert_eq!(
        cue["content"]["project"]["purpose"]["text"],
        "Fastify is a web framework focused on developer experience.",
        "{cue:#}"
    );
    let repo = TestRepo::with_files(&[
        ("package.json", "{\"name\": \"other\"}\n"),
        ("README.md", readme),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "1000"]);
    let text = cue["content"]["project"]["purpose"]["text"]
        .as_str()
        .unwrap();
    assert!(text.starts_with("An efficient server"), "{cue:#}");
    // An opening that defines something else than the project is no definition of it
    // (okhttp's "HTTP is the way modern applications network.").
    let readme = "OkHttp\n======\n\nHTTP is the way modern applications network. It is how we exchange data.\n\nOkHttp is an HTTP client that is efficient by default:\n\n * HTTP/2 support.\n";
    let repo = TestRepo::named(std::ffi::OsStr::new("okhttp"));
    repo.write("README.md", readme);
    repo.write("Client.java", "public class Client {}\n");
    repo.commit("okhttp");
    let cue = repo.cue("overview", &["--max-tokens", "1000"]);
    assert_eq!(
        cue["content"]["project"]["purpose"]["text"],
        "OkHttp is an HTTP client that is efficient by default:",
        "{cue:#}"
    );
    // An opening that names the project without saying what it is gives way too
    // (werkzeug's "*werkzeug* German noun: "tool".").
    let readme = "# Werkzeug\n\n*werkzeug* German noun: \"tool\". Etymology: *werk* (\"work\"), *zeug* (\"stuff\")\n\nWerkzeug is a comprehensive WSGI web application library. It began small.\n";
    let repo = TestRepo::with_files(&[
        ("pyproject.toml", "[project]\nname = \"Werkzeug\"\n"),
        ("src/werkzeug/__init__.py", "def run_simple():\n    pass\n"),
        ("README.md", readme),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "1000"]);
    assert_eq!(
        cue["content"]["project"]["purpose"]["text"],
        "Werkzeug is a comprehensive WSGI web application library.",
        "{cue:#}"
    );
    // A README that defines another thing (serde_json's opens with its parent framework's
    // purpose) gives way to the manifest's description; with none, it stays.
    let readme = "# Serde JSON &emsp; [![Build Status]][actions]\n\n**Serde is a framework for *ser*ializing and *de*serializing Rust data structures efficiently and generically.**\n\nJSON is a ubiquitous open-standard format.\n";
    let manifest = |description: &str| {
        format!("[package]\nname = \"serde_json\"\nversion = \"1.0.0\"\n{description}")
    };
    for (description, want) in [
        (
            "description = \"A JSON serialization file format\"\n",
            "A JSON serialization file format",
        ),
        (
            "",
            "Serde is a framework for serializing and deserializing Rust data structures efficiently and generically.",
        ),
    ] {
        let repo = TestRepo::with_files(&[
            ("Cargo.toml", manifest(description).as_str()),
            ("src/lib.rs", "pub fn to_string() {}\n"),
            ("README.md", readme),
        ]);
        let cue = repo.cue("overview", &["--max-tokens", "1000"]);
        assert_eq!(
            cue["content"]["project"]["purpose"]["text"], want,
            "{cue:#}"
        );
    }
    // A sentence about the name (tqdm's etymology) gives way to the manifest's description.
    let repo = TestRepo::with_files(&[
        (
            "pyproject.toml",
            "[project]\nname = \"tqdm\"\ndescription = \"Fast, Extensible Progress Meter\"\n",
        ),
        ("tqdm/__init__.py", "def trange():\n    pass\n"),
        (
            "README.rst",
            "tqdm\n====\n\ntqdm derives from the Arabic word taqaddum which can mean progress.\n",
        ),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "1000"]);
    assert_eq!(
        cue["content"]["project"]["purpose"]["text"], "Fast, Extensible Progress Meter",
        "{cue:#}"
    );
    // So does a sentence that neither names nor defines anything, where the manifest
    // describes the project by name (PHPMailer's "Many PHP developers need to send email").
    let repo = TestRepo::with_files(&[
        (
            "composer.json",
            r#"{"name":"acme/mailer","description":"Mailer is a full-featured email class for PHP"}"#,
        ),
        ("src/Mailer.php", "<?php\nnamespace Acme;\n\nclass Mailer\n{\n}\n"),
        (
            "README.md",
            "[![Tests](https://example.com/badge.svg)](https://example.com)\n\n- SMTP support\n\nMany PHP developers need to send email from their code.\n",
        ),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "1000"]);
    assert_eq!(
        cue["content"]["project"]["purpose"]["text"],
        "Mailer is a full-featured email class for PHP",
        "{cue:#}"
    );
}

/// A member in a support directory says nothing of the project: RestSharp's overview
/// required `.NET net9.0`, its benchmark's target, though the library targets
/// netstandard2.0 on (set in a `Directory.Build.props`, which is not read).
#[test]
fn a_benchmarks_target_is_no_requirement_of_the_project() {
    let repo = TestRepo::with_files(&[
        (
            "src/Lib/Lib.csproj",
            "<Project Sdk=\"Microsoft.NET.Sdk\">\n  <PropertyGroup><PackageId>Lib</PackageId></PropertyGroup>\n</Project>\n",
        ),
        ("src/Lib/Client.cs", "namespace Lib;\npublic class Client { public void Run() {} }\n"),
        (
            "benchmarks/Bench/Bench.csproj",
            "<Project Sdk=\"Microsoft.NET.Sdk\">\n  <PropertyGroup>\n    <OutputType>Exe</OutputType>\n    <TargetFramework>net9.0</TargetFramework>\n  </PropertyGroup>\n</Project>\n",
        ),
        ("benchmarks/Bench/Program.cs", "public static class Program { public static void Main() {} }\n"),
        (
            "Lib.slnx",
            "<Solution>\n  <Project Path=\"benchmarks/Bench/Bench.csproj\" />\n  <Project Path=\"src/Lib/Lib.csproj\" />\n</Solution>\n",
        ),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    assert!(cue["content"]["project"]["requires"].is_null(), "{cue:#}");
}

/// A public method of an internal class is no API, nor is a namespace declaration:
/// Newtonsoft.Json's `internal static class
/// StringUtils` (whose public methods every file calls) and serilog's `static class Guard`
/// came before its public types.
#[test]
fn a_public_method_of_an_internal_class_is_hidden() {
    let mut files: Vec<(String, String)> = vec![
        (
            "Lib/Lib.csproj".into(),
            "<Project Sdk=\"Microsoft.NET.Sdk\"></Project>\n".into(),
        ),
        (
            "Lib/Guard.cs".into(),
            "namespace Lib\n{\n    internal static class Guard\n    {\n        public static T AgainstNull<T>(T value) { return value; }\n    }\n}\n".into(),
        ),
        (
            "Lib/Logger.cs".into(),
            "namespace Lib\n{\n    public class Logger\n    {\n        public void Write(string text) { Guard.AgainstNull(text); }\n    }\n}\n".into(),
        ),
    ];
    // Every file checks its arguments with the guard; two use the logger.
    for i in 0..16 {
        let uses = if i < 2 {
            "Logger logger"
        } else {
            "object value"
        };
        files.push((
            format!("Lib/Sink{i}.cs"),
            format!("namespace Lib\n{{\n    public class Sink{i}\n    {{\n        public void Emit({uses}) {{ Guard.AgainstNull(this); }}\n    }}\n}}\n"),
        ));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "3000"]);
    assert_listed_before(
        &cue,
        "symbol:Lib/Logger.cs:Logger",
        "symbol:Lib/Guard.cs:Guard",
    );
    // A namespace declaration is no API either (guzzle's overview listed `namespace
    // GuzzleHttp` first); C#'s are no symbols at all (Polly's `namespace Polly`).
    let ids = symbol_ids(&cue);
    assert!(
        !ids.iter()
            .any(|id| id.ends_with(":Lib") || id.contains("namespace")),
        "{ids:?}"
    );
}

/// The workspace members a minor ecosystem declares are no parts of the project: rails's
/// `package.json` lists the three gems that ship JavaScript, which came before its
/// `activerecord/` and `actionpack/`.
#[test]
fn a_minor_ecosystems_workspace_makes_no_members() {
    let mut files: Vec<(String, String)> = vec![
        (
            "rails.gemspec".into(),
            "Gem::Specification.new do |s|\n  s.name = \"rails\"\nend\n".into(),
        ),
        (
            "package.json".into(),
            "{\"private\": true, \"workspaces\": [\"cable\"]}\n".into(),
        ),
        (
            "cable/package.json".into(),
            "{\"name\": \"@rails/cable\", \"main\": \"app/index.js\"}\n".into(),
        ),
        (
            "cable/app/index.js".into(),
            "export function connect() {}\n".into(),
        ),
        ("cable/lib/cable.rb".into(), "module Cable\nend\n".into()),
    ];
    for i in 0..12 {
        files.push((
            format!("record/lib/record/part{i}.rb"),
            format!(
                "module Record\n  class Part{i}\n    def run; Record::Base.new; end\n  end\nend\n"
            ),
        ));
    }
    files.push((
        "record/lib/record.rb".into(),
        "module Record\n  class Base\n  end\nend\n".into(),
    ));
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let comps = cue["content"]["components"].as_array().unwrap();
    assert!(comps.iter().all(|c| c.get("kind").is_none()), "{cue:#}");
    assert!(
        comps[0]["path"].as_str().unwrap().starts_with("record/"),
        "{cue:#}"
    );
}

/// The test directory brought forward is where tests are, not what they read: gin's
/// `testdata/` of certificates and templates came second, before its packages (Go's tests lie
/// beside the code).
#[test]
fn test_data_is_not_brought_forward_as_the_tests() {
    let mut files: Vec<(String, String)> = vec![
        (
            "go.mod".into(),
            "module example.com/web\n\ngo 1.21\n".into(),
        ),
        (
            "web.go".into(),
            "package web\n\nfunc New() *Engine { return nil }\n\ntype Engine struct{}\n".into(),
        ),
        (
            "web_test.go".into(),
            "package web\n\nimport \"testing\"\n\nfunc TestNew(t *testing.T) { New() }\n".into(),
        ),
    ];
    for pkg in ["render", "binding"] {
        for i in 0..3 {
            files.push((
                format!("{pkg}/{pkg}{i}.go"),
                format!(
                    "package {pkg}\n\nimport \"example.com/web\"\n\nfunc F{i}() {{ web.New() }}\n"
                ),
            ));
        }
    }
    for name in ["cert.pem", "key.pem", "hello.tmpl"] {
        files.push((format!("testdata/{name}"), "data\n".into()));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let comps = section_paths(&cue, "components");
    let at = |p: &str| comps.iter().position(|c| c == p);
    assert!(at("testdata/").is_some(), "{cue:#}");
    assert!(
        at("testdata/") > at("render/") && at("testdata/") > at("binding/"),
        "{cue:#}"
    );
}

/// A package of code with more data files than code files is in the language of its code,
/// and so is the project (redis's `src/`: 190 C files beside 403 JSON command descriptions,
/// read `src/ 594 JSON` and `languages: JSON 402, C 706`).
#[test]
fn a_package_with_more_data_than_code_is_in_its_codes_language() {
    let mut files: Vec<(String, String)> = vec![(
        "Makefile".into(),
        "all:\n\tcc -o server src/server.c src/db.c src/net.c\n".into(),
    )];
    for name in ["server", "db", "net"] {
        files.push((
            format!("src/{name}.c"),
            format!("int {name}_start(void)\n{{\n\treturn 0;\n}}\n"),
        ));
    }
    for i in 0..9 {
        files.push((
            format!("src/commands/cmd{i}.json"),
            format!("{{\"name\": \"cmd{i}\", \"arity\": {i}}}\n"),
        ));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let src = cue["content"]["components"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["path"] == "src/")
        .unwrap_or_else(|| panic!("no src/: {cue:#}"));
    assert_eq!(src["language"], "C", "{cue:#}");
    assert_eq!(cue["content"]["languages"][0]["language"], "C", "{cue:#}");
}

/// After the code the project writes, languages come by their files, code (test scripts too)
/// before documents and data: starlette's one YAML, HTML and TOML file came before its
/// Markdown documents and test scripts. A repository of configuration stays one of its data
/// format. Code no parser reads is code all the same (AutoMapper's PowerShell build scripts
/// came after its Markdown and YAML).
#[test]
fn a_few_data_files_come_after_the_documents_and_scripts() {
    let languages = |cue: &Value| -> Vec<String> {
        let list = cue["content"]["languages"].as_array().unwrap().iter();
        list.map(|l| l["language"].as_str().unwrap().to_owned())
            .collect()
    };
    let mut files: Vec<(String, String)> = vec![
        (
            "pyproject.toml".into(),
            "[project]\nname = \"web\"\n".into(),
        ),
        (".github/workflows/ci.yml".into(), "on: push\n".into()),
        ("web/templates/index.html".into(), "<p>hi</p>\n".into()),
        ("build.ps1".into(), "dotnet build\n".into()),
        ("tools/release.ps1".into(), "dotnet pack\n".into()),
    ];
    for i in 0..4 {
        files.push((
            format!("web/m{i}.py"),
            format!("def f{i}():\n    return {i}\n"),
        ));
        files.push((format!("docs/page{i}.md"), format!("# Page {i}\n\nText.\n")));
        files.push((format!("docs/more{i}.md"), format!("# More {i}\n\nText.\n")));
        files.push((format!("tests/run{i}.sh"), format!("echo {i}\n")));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    assert_eq!(
        languages(&cue)[..4],
        ["Python", "PowerShell", "Shell", "Markdown"],
        "{cue:#}"
    );
    let mut files: Vec<(String, String)> = vec![("deploy.py".into(), "X = 1\n".into())];
    for i in 0..12 {
        files.push((format!("charts/app{i}.yaml"), format!("name: app{i}\n")));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    assert_eq!(languages(&cue)[0], "YAML", "{cue:#}");
}

/// The `.h` headers of a C++ project are C++ (fmt's `include/fmt/*.h` read "C 26" and the
/// C++ went last); a C project's stay C, its headers beside its sources.
#[test]
fn the_headers_of_a_cpp_project_are_cpp() {
    let languages = |cue: &Value| -> Vec<String> {
        cue["content"]["languages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["language"].as_str().unwrap().to_owned())
            .collect()
    };
    let mut files: Vec<(String, String)> = vec![(
        "test/c-test.c".into(),
        "#include \"fmt/c.h\"\nint main(void) { return 0; }\n".into(),
    )];
    for name in ["base", "format", "args", "color", "chrono"] {
        files.push((
            format!("include/fmt/{name}.h"),
            format!("namespace fmt {{\nclass {name}_t {{}};\n}}\n"),
        ));
    }
    for name in ["format", "os"] {
        files.push((
            format!("src/{name}.cc"),
            format!("#include \"fmt/{name}.h\"\nnamespace fmt {{ int {name}_n = 0; }}\n"),
        ));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    assert_eq!(languages(&cue)[0], "C++", "{cue:#}");
    let include = cue["content"]["components"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["path"] == "include/fmt/")
        .unwrap_or_else(|| panic!("no include/fmt/: {cue:#}"));
    assert_eq!(include["language"], "C++", "{cue:#}");
    // The test of the C API is C still.
    assert!(languages(&cue).contains(&"C".to_owned()), "{cue:#}");

    let mut files: Vec<(String, String)> = Vec::new();
    for name in ["server", "db", "net"] {
        files.push((
            format!("src/{name}.c"),
            format!("#include \"{name}.h\"\nint {name}_start(void) {{ return 0; }}\n"),
        ));
        files.push((
            format!("src/{name}.h"),
            format!("int {name}_start(void);\n"),
        ));
    }
    files.push(("src/glue.cc".into(), "namespace glue { int n; }\n".into()));
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    assert_eq!(languages(&cue)[0], "C", "{cue:#}");
    let c = cue["content"]["languages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["language"] == "C")
        .unwrap();
    assert_eq!(c["files"], 6, "{cue:#}");
}

/// A workspace whose root says nothing of its purpose takes its main member's README's
/// (tokio-rs/axum's root `README.md` is a symlink to `axum/README.md`: tracked as its link
/// text, it has no sentence to read).
#[test]
fn a_workspace_without_a_root_purpose_takes_its_main_members() {
    let mut files: Vec<(String, String)> = vec![
        (
            "Cargo.toml".into(),
            "[workspace]\nmembers = [\"web\", \"web-core\"]\n".into(),
        ),
        (
            "web/Cargo.toml".into(),
            "[package]\nname = \"web\"\nversion = \"0.1.0\"\n".into(),
        ),
        (
            "web/README.md".into(),
            "# web\n\nWeb is a framework for building fast services.\n".into(),
        ),
        (
            "web-core/Cargo.toml".into(),
            "[package]\nname = \"web-core\"\nversion = \"0.1.0\"\n".into(),
        ),
        (
            "web-core/README.md".into(),
            "# web-core\n\nCore types shared by the web crates, not for direct use.\n".into(),
        ),
        (
            "web-core/src/lib.rs".into(),
            "pub fn unused_core() -> u32 {\n    1\n}\n".into(),
        ),
    ];
    let mut lib = String::new();
    for i in 0..5 {
        lib.push_str(&format!("pub mod part{i};\n"));
        let next = (i + 1) % 5;
        files.push((
            format!("web/src/part{i}.rs"),
            format!("pub fn part{i}() -> u32 {{\n    crate::part{next}::part{next}()\n}}\n"),
        ));
    }
    files.push(("web/src/lib.rs".into(), lib));
    let repo = TestRepo::with_files(&files);
    repo.symlink("web/README.md", "README.md");
    repo.commit("the root README is the main crate's");
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let purpose = &cue["content"]["project"]["purpose"];
    assert_eq!(
        purpose["text"], "Web is a framework for building fast services.",
        "{cue:#}"
    );
    assert_eq!(purpose["source"], "web/README.md", "{cue:#}");
}

/// A lock file names the package manager that runs the scripts: each command once, with it
/// (vite's pnpm scripts read `ppnpm run build`). Bun runs the `test` script by `bun run test`:
/// `bun test` is its own test runner, which ignores the script (hono's read `bun test`).
#[test]
fn the_lock_files_package_manager_runs_the_scripts() {
    for (lock, manager) in [
        ("pnpm-lock.yaml", "pnpm"),
        ("yarn.lock", "yarn"),
        ("bun.lock", "bun"),
    ] {
        let repo = TestRepo::with_files(&[
            (
                "package.json",
                r#"{"name": "web", "scripts": {"build": "tsc", "test": "vitest", "lint": "eslint ."}}"#,
            ),
            (lock, "lock\n"),
            ("src/index.ts", "export const x = 1;\n"),
        ]);
        let cue = repo.cue("overview", &["--max-tokens", "2000"]);
        let commands = command_lines(&cue);
        let test = if manager == "bun" { "run test" } else { "test" };
        for expected in ["run build", test, "run lint", "install"] {
            let want = format!("{manager} {expected}");
            assert!(commands.contains(&want.as_str()), "{want}: {commands:?}");
        }
    }
}

/// The package scripts named for a purpose come first, whatever the order they are declared
/// in, before every variant of any purpose: fastify declares `coverage` and
/// `coverage:ci-check-coverage` before `test`, and its overview listed both and no `npm test`;
/// zod's listed two variants of its build (`bundle:rollup`, `bundle:esbuild`) and no test.
#[test]
fn the_script_named_for_its_purpose_comes_before_its_variants() {
    let repo = TestRepo::with_files(&[
        (
            "package.json",
            r#"{"name": "web", "scripts": {"build:types": "tsc", "coverage": "c8 borp", "test:ci": "borp", "build": "node build.js", "test": "npm run lint && borp", "lint": "eslint"}}"#,
        ),
        ("index.js", "module.exports = 1;\n"),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let commands = command_lines(&cue);
    let at = |c: &str| {
        index_in(
            &commands.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            c,
        )
    };
    assert!(
        at("npm run build") < at("npm run build:types"),
        "{commands:?}"
    );
    assert!(at("npm test") < at("npm run coverage"), "{commands:?}");
    assert!(at("npm test") < at("npm run build:types"), "{commands:?}");
    assert!(
        at("npm run lint") < at("npm run build:types"),
        "{commands:?}"
    );
    assert!(
        at("npm run coverage") < at("npm run test:ci"),
        "declared order otherwise: {commands:?}"
    );
}

/// A Gemfile beside a Rakefile runs its tasks through Bundler (sinatra's `rake test` needs the
/// gems the Gemfile pins); without one, rake runs them as they are.
#[test]
fn a_gemfile_runs_the_rake_tasks_through_bundler() {
    let rakefile = "require 'rake/testtask'\n\nRake::TestTask.new(:test)\n\ntask default: :test\n";
    for (gemfile, expected) in [
        (
            true,
            [
                "bundle exec rake",
                "bundle exec rake test",
                "bundle install",
            ],
        ),
        (false, ["rake", "rake test", "gem build web.gemspec"]),
    ] {
        let mut files = vec![
            ("Rakefile", rakefile),
            (
                "web.gemspec",
                "Gem::Specification.new do |s|\n  s.name = 'web'\nend\n",
            ),
            (
                "lib/web.rb",
                "module Web\n  def self.call(env)\n    env\n  end\nend\n",
            ),
        ];
        if gemfile {
            files.push(("Gemfile", "source 'https://rubygems.org'\ngemspec\n"));
        }
        let repo = TestRepo::with_files(&files);
        let cue = repo.cue("overview", &["--max-tokens", "2000"]);
        let commands = command_lines(&cue);
        for want in expected {
            assert!(commands.contains(&want), "{want}: {commands:?}");
        }
        let bare = commands.iter().any(|c| c.starts_with("rake"));
        assert_eq!(bare, !gemfile, "{commands:?}");
    }
}

/// A test's or an example's code is never the overview's API, even when nothing else is
/// outlined: okhttp (Kotlin, which RepoCue does not parse) listed its Java samples and an
/// Android test. The structure view still shows them.
#[test]
fn the_api_is_never_a_tests_or_an_examples() {
    let mut files: Vec<(String, String)> = vec![(
        "README.md".into(),
        "# Http\n\nHttp is a client for the web.\n".into(),
    )];
    for i in 0..4 {
        files.push((
            format!("http/src/main/kotlin/Client{i}.kt"),
            format!("class Client{i} {{ fun call() = {i} }}\n"),
        ));
    }
    files.push((
        "samples/guide/src/main/java/Recipe.java".into(),
        "public final class Recipe {\n  public void run() {}\n}\n".into(),
    ));
    files.push((
        "regression-test/src/test/java/ClientTest.java".into(),
        "public class ClientTest {\n  public void get() {}\n}\n".into(),
    ));
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "3000"]);
    let symbols = cue["content"]["symbols"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(symbols.is_empty(), "{cue:#}");
    let structure = repo.cue("structure", &["--path", "samples"]);
    assert!(structure.to_string().contains("Recipe"), "{structure:#}");
}

/// A C project built with autotools says how (jq had no command); one whose Makefile is
/// checked in beside its `configure.ac` builds with that (git's `make`).
#[test]
fn an_autotools_project_says_how_to_build_it() {
    for makefile in [false, true] {
        let mut files = vec![
            ("configure.ac", "AC_INIT([jq], [1.8.2])\nAC_PROG_CC\n"),
            ("Makefile.am", "bin_PROGRAMS = jq\n"),
            ("src/main.c", "int main(void)\n{\n\treturn 0;\n}\n"),
        ];
        if makefile {
            files.push(("Makefile", "all:\n\tcc -o jq src/main.c\n\ntest:\n\t./jq\n"));
        }
        let repo = TestRepo::with_files(&files);
        let cue = repo.cue("overview", &["--max-tokens", "2000"]);
        let commands = command_lines(&cue);
        let autotools = ["autoreconf -i && ./configure && make", "make check"];
        for c in autotools {
            assert_eq!(commands.contains(&c), !makefile, "{c}: {commands:?}");
        }
        assert_eq!(cue["content"]["project"]["name"], "jq", "{cue:#}");
    }
}

/// What a project's directory calls internal is no API however much its own code calls it,
/// and a package's own scripts are no entry points: svelte's overview listed `push`, `get`
/// and `flushSync` of `src/internal/client/` and `packages/svelte/scripts/…` before its
/// `index-client.js`.
#[test]
fn internal_code_and_scripts_are_not_what_users_call() {
    let mut files: Vec<(String, String)> = vec![
        (
            "package.json".into(),
            "{\"name\": \"ui\", \"main\": \"src/index.js\"}\n".into(),
        ),
        (
            "src/internal/runtime.js".into(),
            "export function get(signal) {\n  return signal.v;\n}\n".into(),
        ),
        (
            "src/internal/render.js".into(),
            "export function render(component) {\n  return component;\n}\n".into(),
        ),
        (
            "src/index.js".into(),
            "import { get } from './internal/runtime.js';\nexport { render } from './internal/render.js';\n\nexport function mount(component) {\n  return get(component);\n}\n".into(),
        ),
        (
            "src/scripts/generate.js".into(),
            "async function main() {\n  return 1;\n}\n\nmain();\n".into(),
        ),
    ];
    for i in 0..8 {
        files.push((
            format!("src/parts/part{i}.js"),
            format!("import {{ get }} from '../internal/runtime.js';\n\nexport function part{i}(s) {{\n  return get(s);\n}}\n"),
        ));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "3000"]);
    let ids = symbol_ids(&cue);
    let at = |id: &str| index_in(&ids, id);
    assert!(
        at("symbol:src/index.js:mount") < at("symbol:src/internal/runtime.js:get"),
        "{ids:?}"
    );
    // What the package's root hands on is its API, wherever it is defined: among what the
    // package exposes, not after it.
    assert!(
        at("symbol:src/internal/render.js:render") < at("symbol:src/parts/part0.js:part0"),
        "{ids:?}"
    );
    let entries = cue["content"]["entry_points"].to_string();
    assert!(!entries.contains("generate.js"), "{entries}");
}

/// A Python package that imports its API with `from ._client import *` and names it in
/// `__all__` exports those names (httpx's root listed only its own `main`).
#[test]
fn a_python_packages_all_is_its_exports() {
    let mut files: Vec<(String, String)> = vec![
        (
            "pyproject.toml".into(),
            "[project]\nname = \"web\"\n".into(),
        ),
        (
            "web/__init__.py".into(),
            "from ._client import *\n\n\ndef main():\n    pass\n\n\n__all__ = [\"Client\", \"main\"]\n".into(),
        ),
        (
            "web/_client.py".into(),
            "class Client:\n    def get(self, url):\n        return url\n".into(),
        ),
    ];
    for i in 0..3 {
        files.push((
            format!("web/_part{i}.py"),
            format!("from ._client import Client\n\n\ndef part{i}():\n    return Client()\n"),
        ));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "3000"]);
    let exports = cue["content"]["exports"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let root = exports
        .iter()
        .find(|x| x["path"] == "web/__init__.py")
        .unwrap_or_else(|| panic!("{cue:#}"));
    assert!(root["names"].to_string().contains("\"Client\""), "{root}");
}

/// A root that re-exports more than six names lists the rest once every section has shown
/// its first items: http's `lib.rs` re-exports twelve, and `StatusCode` and `HeaderName`
/// were listed at no budget.
#[test]
fn a_roots_exports_past_the_first_six_come_at_larger_budgets() {
    let names = [
        "Alpha", "Beta", "Gamma", "Delta", "Epsilon", "Zeta", "Eta", "Theta", "Iota", "Kappa",
    ];
    let mut files: Vec<(String, String)> = vec![(
        "Cargo.toml".into(),
        "[package]\nname = \"p\"\nversion = \"0.1.0\"\nedition = \"2021\"\n".into(),
    )];
    let mut lib = String::new();
    for n in names {
        let module = n.to_lowercase();
        lib.push_str(&format!("mod {module};\npub use {module}::{n};\n"));
        files.push((format!("src/{module}.rs"), format!("pub struct {n};\n")));
    }
    files.push(("src/lib.rs".into(), lib));
    let repo = TestRepo::with_files(&files);
    let listed = |budget: &str| -> usize {
        let cue = repo.cue("overview", &["--max-tokens", budget]);
        cue["content"]["exports"]
            .as_array()
            .and_then(|x| x.iter().find(|x| x["path"] == "src/lib.rs"))
            .and_then(|x| x["names"].as_array())
            .map_or(0, Vec::len)
    };
    assert_eq!(listed("3000"), names.len());
}

/// A Rust crate root that hands a private module on whole (`pub use crate::engine::*`, as
/// regex's root does) exports that module's public items; a private glob `use` exports none.
#[test]
fn a_rust_roots_glob_re_export_exports_the_modules_items() {
    let repo = TestRepo::with_files(&[
        (
            "Cargo.toml",
            "[package]\nname = \"p\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        ),
        (
            "src/lib.rs",
            "mod engine;\nmod nested;\nmod private;\npub use crate::engine::*;\npub use nested::*;\nuse private::*;\n",
        ),
        ("src/engine.rs", "pub struct Widget;\npub fn spin(w: &Widget) {}\nfn hidden() {}\n"),
        ("src/nested/mod.rs", "pub struct Gadget;\n"),
        ("src/private.rs", "pub struct Internal;\n"),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "3000"]);
    let names = cue["content"]["exports"]
        .as_array()
        .and_then(|x| x.iter().find(|x| x["path"] == "src/lib.rs"))
        .map(|x| x["names"].to_string())
        .unwrap_or_else(|| panic!("{cue:#}"));
    for name in ["Widget", "spin", "Gadget"] {
        assert!(names.contains(&format!("\"{name}\"")), "{name}: {names}");
    }
    for name in ["hidden", "Internal"] {
        assert!(!names.contains(&format!("\"{name}\"")), "{name}: {names}");
    }
}

/// A plain-text file with nothing to read (a `requirements.txt`, a version number) is no
/// document until it says something; a contributing guide where GitHub finds it
/// (`.github/`) comes right after the README.
/// A top directory's README says what the directory is for: listed after the root's
/// documents, before the documentation's pages; a README deeper down is not.
#[test]
fn a_top_directorys_readme_is_a_document() {
    let repo = TestRepo::with_files(&[
        ("README.md", "# Lib\n\nLib parses widgets.\n"),
        ("CHANGELOG.md", "# 1.0\n\n- First.\n"),
        (
            "test/README.md",
            "# Test Projects\n\nUnit tests and API tests.\n",
        ),
        ("docs/guide.md", "# Guide\n\nHow to parse.\n"),
        ("src/gen/README.md", "# Gen\n\nThe generator.\n"),
        ("src/lib.py", "def parse():\n    return 1\n"),
    ]);
    let documents = section_paths(
        &repo.cue("overview", &["--max-tokens", "3000"]),
        "documents",
    );
    let at = |p: &str| index_in(&documents, p);
    assert!(at("CHANGELOG.md") < at("test/README.md"), "{documents:?}");
    assert!(at("test/README.md") < at("docs/guide.md"), "{documents:?}");
    assert!(
        !documents.iter().any(|d| d == "src/gen/README.md"),
        "{documents:?}"
    );
}

#[test]
fn documents_are_what_can_be_read() {
    let repo = TestRepo::with_files(&[
        (
            "README.md",
            "# Site\n\nSite builds pages.\n\nSee the [man page syntax](assets/Manpage.sublime-syntax).\n",
        ),
        ("assets/Manpage.sublime-syntax", "%YAML 1.2\n---\nname: Manpage\n"),
        ("CHANGELOG.md", "# unreleased\n\n- Faster pages.\n"),
        ("requirements.txt", "requests>=2\n"),
        (
            "requirements-dev.txt",
            "# We pin our tooling, because it is an environment we control.\nruff==0.1\n",
        ),
        ("NOTES.txt", "Run the builder twice. It caches the pages.\n"),
        ("docs/guide.md", "# Guide\n\nHow to build a site.\n"),
        ("docs/requirements.txt", "sphinx==7.0\n"),
        (
            "mkdocs-requirements.txt",
            "# The site's tools, pinned so that builds repeat.\nmkdocs==1.6\n",
        ),
        ("docs/latest_version.txt", "4.4.1\n"),
        (
            "meson_options.txt",
            "# Copyright © 2020 Dylan Baker\noption('tests', type : 'boolean', value : true)\n",
        ),
        (
            ".git_archival.txt",
            "node: $Format:%H$\nnode-date: $Format:%cI$\nref-names: $Format:%D$\n",
        ),
        (
            ".github/CONTRIBUTING.md",
            "# Contributing\n\nOpen an issue first.\n",
        ),
        ("site.py", "def build():\n    return 1\n"),
    ]);
    let documents = |repo: &TestRepo| {
        section_paths(
            &repo.cue("overview", &["--max-tokens", "3000"]),
            "documents",
        )
    };
    let listed = documents(&repo);
    // A data file the README links to is no document; a change log's first heading (its
    // next version) is no title.
    assert!(
        !listed.iter().any(|d| d.ends_with(".sublime-syntax")),
        "{listed:?}"
    );
    let cue = repo.cue("overview", &["--max-tokens", "3000"]);
    let changelog = cue["content"]["documents"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["path"] == "CHANGELOG.md")
        .cloned()
        .unwrap_or_else(|| panic!("{cue:#}"));
    assert!(changelog.get("title").is_none(), "{changelog}");
    assert_eq!(
        listed[..2],
        ["README.md".to_owned(), ".github/CONTRIBUTING.md".to_owned()],
        "{listed:?}"
    );
    for kept in ["NOTES.txt", "docs/guide.md"] {
        assert!(listed.iter().any(|d| d == kept), "{kept}: {listed:?}");
    }
    for bare in [
        "requirements.txt",
        "requirements-dev.txt",
        "docs/requirements.txt",
        "mkdocs-requirements.txt",
        "docs/latest_version.txt",
        ".git_archival.txt",
        "meson_options.txt",
    ] {
        assert!(!listed.iter().any(|d| d == bare), "{bare}: {listed:?}");
    }
    // Once it says something, it is read.
    repo.write(
        "docs/latest_version.txt",
        "The latest version is 4.4.1. Upgrade with the installer.\n",
    );
    let listed = documents(&repo);
    assert!(
        listed.iter().any(|d| d == "docs/latest_version.txt"),
        "{listed:?}"
    );
}

/// A repository of documents (tldr's pages in forty languages beside a few scripts) is its
/// documents: their directories lead the components (the largest parts first) and their
/// language the languages, and a directory of files in no language (images, fonts) comes last
/// whatever its name.
#[test]
fn a_repository_of_documents_leads_with_its_documents() {
    let mut files: Vec<(String, String)> =
        vec![("README.md".into(), "# Pages\n\nHelp pages.\n".into())];
    for name in ["build", "lint", "render"] {
        files.push((
            format!("scripts/{name}.py"),
            format!("def {name}():\n    return 1\n"),
        ));
    }
    files.push(("images/logo.png".into(), "not really a PNG\n".into()));
    files.push(("images/font.ttf".into(), "not really a font\n".into()));
    // The platforms' pages: many common ones, a few of one platform (named first).
    for i in 0..30 {
        let platform = if i < 4 { "android" } else { "common" };
        files.push((
            format!("pages/{platform}/tool{i}.md"),
            format!("# tool{i}\n\n> Does {i}.\n"),
        ));
    }
    for i in 0..20 {
        files.push((
            format!("pages.fr/tool{i}.md"),
            format!("# tool{i}\n\n> Fait {i}.\n"),
        ));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let comps = section_paths(&cue, "components");
    assert_eq!(
        comps,
        [
            "pages/",
            "pages/common/",
            "pages/android/",
            "pages.fr/",
            "scripts/",
            "images/"
        ],
        "{cue:#}"
    );
    assert_eq!(
        cue["content"]["languages"][0]["language"], "Markdown",
        "{cue:#}"
    );
}

/// An entry point that only hands over (defines nothing, imports one project file by a
/// relative path) is followed by the file it hands over to.
#[test]
fn an_entry_point_that_only_hands_over_is_followed_by_its_target() {
    let repo = TestRepo::with_files(&[
        (
            "package.json",
            r#"{"name": "web", "main": "index.js", "scripts": {"test": "mocha"}}"#,
        ),
        (
            "index.js",
            "'use strict';\n\nmodule.exports = require('./lib/web');\n",
        ),
        (
            "lib/web.js",
            "var router = require('./router');\n\nexports = module.exports = createApp;\n\n\
             function createApp() {\n  return router();\n}\n",
        ),
        (
            "lib/router.js",
            "module.exports = function router() {\n  return {};\n};\n",
        ),
    ]);
    let entries = entry_points(&repo);
    assert_eq!(entries[..2], ["index.js", "lib/web.js"], "{entries:?}");
}

/// A README in another language is neither the README nor a document to list: rich's
/// `README.cn.md` sorted first and gave its purpose (a row of links to its translations), and
/// its seventeen translations filled the documents.
#[test]
fn translated_readmes_are_not_the_readme() {
    let mut files: Vec<(String, String)> = vec![
        (
            "README.md".into(),
            "# Rich\n\n[English readme](README.md) • [简体中文 readme](README.cn.md) • [Deutsche readme](README.de.md)\n\nRich is a Python library for rich text in the terminal.\n".into(),
        ),
        ("CONTRIBUTING.md".into(), "# Contributing\n\nOpen an issue.\n".into()),
        ("rich/console.py".into(), "class Console:\n    pass\n".into()),
    ];
    for code in ["cn", "de", "es", "fa", "ja"] {
        files.push((
            format!("README.{code}.md"),
            "# Rich\n\nRich ist eine Python-Bibliothek für das Terminal.\n".into(),
        ));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    assert_eq!(
        cue["content"]["project"]["purpose"]["text"],
        "Rich is a Python library for rich text in the terminal.",
        "{cue:#}"
    );
    let listed = section_paths(&cue, "documents");
    assert_eq!(listed[..2], ["README.md", "CONTRIBUTING.md"], "{listed:?}");
    assert!(
        !listed
            .iter()
            .any(|d| d.starts_with("README.") && d != "README.md"),
        "{listed:?}"
    );
}

/// Without a README at the root, the one GitHub shows is read: `.github/`'s, else `docs/`'s
/// (imgui's `docs/README.md`; its overview had no purpose).
#[test]
fn a_readme_in_docs_gives_the_purpose_when_the_root_has_none() {
    let repo = TestRepo::with_files(&[
        (
            "docs/README.md",
            "# Dear ImGui\n\nDear ImGui is a bloat-free graphical user interface library for C++.\n",
        ),
        ("docs/FAQ.md", "# FAQ\n\nQuestions people ask.\n"),
        ("imgui.cpp", "int ImGuiBegin() { return 1; }\n"),
        ("imgui.h", "int ImGuiBegin();\n"),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "1000"]);
    assert_eq!(
        cue["content"]["project"]["purpose"]["text"],
        "Dear ImGui is a bloat-free graphical user interface library for C++.",
        "{cue:#}"
    );
    assert_eq!(
        cue["content"]["project"]["purpose"]["source"], "docs/README.md",
        "{cue:#}"
    );
}

/// A README at the root that is a symbolic link is the document it links to, as GitHub shows
/// it: it names the project, gives its purpose and leads the documents (axum's `README.md` →
/// `axum/README.md`).
#[test]
fn a_readme_linked_from_the_root_is_the_first_document() {
    for target in ["web/README.md", "./web/README.md"] {
        let repo = TestRepo::with_files(&[
            (
                "web/README.md",
                "# webkit\n\nwebkit is a library that routes web requests to handlers.\n\n\
                 Read the [guide](../docs/guide.md).\n",
            ),
            ("web/Cargo.toml", "[package]\nversion = \"1.0.0\"\n"),
            ("web/src/lib.rs", "pub fn route() {}\n"),
            ("docs/aardvark.md", "# Aardvark\n\nAn animal.\n"),
            ("docs/guide.md", "# Usage\n\nHow to route.\n"),
        ]);
        repo.symlink(target, "README.md");
        repo.commit("link the README");
        let cue = repo.cue("overview", &["--max-tokens", "1000"]);
        let c = &cue["content"];
        assert_eq!(c["project"]["name"], "webkit", "{cue:#}");
        assert_eq!(
            c["project"]["purpose"]["source"], "web/README.md",
            "{cue:#}"
        );
        let docs = section_paths(&cue, "documents");
        assert_eq!(
            docs,
            ["web/README.md", "docs/guide.md", "docs/aardvark.md"],
            "{cue:#}"
        );
    }
}

/// The README GitHub shows when the root has none gives the purpose, is the first document,
/// and what it links to follows it (FluentValidation's `.github/README.md` was read for
/// neither: the overview loaded the facts of the root's documents only).
#[test]
fn a_readme_in_dot_github_is_the_first_document() {
    let repo = TestRepo::with_files(&[
        (
            ".github/README.md",
            "# Acme\n\nAcme is a library that validates web forms against declared rules.\n\nRead the [user guide](../docs/guide.md).\n",
        ),
        ("docs/aardvark.md", "# Aardvark\n\nAn animal.\n"),
        ("docs/guide.md", "# Usage\n\nHow to validate.\n"),
        ("Changelog.md", "# Changes\n\n- first\n"),
        ("src/acme.py", "def validate(form):\n    return form\n"),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "1000"]);
    assert_eq!(
        cue["content"]["project"]["purpose"]["source"], ".github/README.md",
        "{cue:#}"
    );
    let documents: Vec<&str> = cue["content"]["documents"]
        .as_array()
        .expect("documents")
        .iter()
        .map(|d| d["path"].as_str().expect("path"))
        .collect();
    assert_eq!(
        documents,
        [
            ".github/README.md",
            "docs/guide.md",
            "Changelog.md",
            "docs/aardvark.md"
        ],
        "{cue:#}"
    );
}

/// A code generator and a Go program in `internal/` are the project's tools, not its
/// programs (hugo's `livereload/gen/main.go`, zap's `internal/readme/readme.go`,
/// client_golang's `prometheus/gen_go_collector_metrics_set.go`), and nor is a Go program in
/// a directory Go's tools skip (testify's `_codegen/main.go`), nor a CMake feature check
/// (google/benchmark's `cmake/posix_regex.cpp`); C++'s `internal/` is a convention only (Catch2's `internal/catch_main.cpp` is its users' `main`).
#[test]
fn generators_and_internal_go_programs_are_no_entry_points() {
    let repo = TestRepo::with_files(&[
        ("go.mod", "module example.com/site\n\ngo 1.22\n"),
        (
            "main.go",
            "package main\n\nimport \"example.com/site/commands\"\n\nfunc main() { commands.Execute() }\n",
        ),
        (
            "commands/commands.go",
            "package commands\n\nfunc Execute() {}\n",
        ),
        (
            "livereload/gen/main.go",
            "package main\n\nfunc main() { generate() }\n\nfunc generate() {}\n",
        ),
        (
            "internal/readme/readme.go",
            "package main\n\nfunc main() { write() }\n\nfunc write() {}\n",
        ),
        (
            "commands/gen_commands_list.go",
            "//go:build ignore\n\npackage main\n\nfunc main() { list() }\n\nfunc list() {}\n",
        ),
        (
            "_codegen/main.go",
            "package main\n\nfunc main() { emit() }\n\nfunc emit() {}\n",
        ),
        (
            "_readme-gofmt/main.go",
            "package main\n\nfunc main() { format() }\n\nfunc format() {}\n",
        ),
        (
            "cmake/posix_regex.cpp",
            "#include <regex.h>\nint main() { return 0; }\n",
        ),
    ]);
    let e = entry_points(&repo);
    assert!(e.contains(&"main.go".to_owned()), "{e:?}");
    for tool in [
        "livereload/gen/main.go",
        "internal/readme/readme.go",
        "commands/gen_commands_list.go",
        "_codegen/main.go",
        "_readme-gofmt/main.go",
        "cmake/posix_regex.cpp",
    ] {
        assert!(!e.contains(&tool.to_owned()), "{tool}: {e:?}");
    }
    let repo = TestRepo::with_files(&[
        (
            "src/catch2/internal/catch_main.cpp",
            "int main(int argc, char* argv[]) { return run(argc, argv); }\n",
        ),
        (
            "src/catch2/catch_session.cpp",
            "int run(int argc, char* argv[]) { return argc; }\n",
        ),
    ]);
    let e = entry_points(&repo);
    assert!(
        e.contains(&"src/catch2/internal/catch_main.cpp".to_owned()),
        "{e:?}"
    );
}

/// A monorepo's private root package named for its place (trpc's `"name": "root"`) does not
/// name the project; the repository's directory does.
#[test]
fn a_placeholder_root_package_name_is_no_name() {
    let repo = TestRepo::named(std::ffi::OsStr::new("trpc"));
    repo.write(
        "package.json",
        "{\"name\": \"root\", \"private\": true, \"workspaces\": [\"packages/*\"]}\n",
    );
    repo.write(
        "packages/server/package.json",
        "{\"name\": \"@trpc/server\", \"main\": \"src/index.ts\"}\n",
    );
    repo.write(
        "packages/server/src/index.ts",
        "export function initTRPC(): number {\n  return 1;\n}\n",
    );
    repo.commit("trpc");
    let cue = repo.cue("overview", &["--max-tokens", "1000"]);
    assert_eq!(cue["content"]["project"]["name"], "trpc", "{cue:#}");
}

/// An example's crate is no package root of the project (reqwest's
/// `examples/wasm_github_fetch/src/lib.rs` was its second entry point).
#[test]
fn an_examples_crate_is_no_entry_point() {
    let repo = TestRepo::with_files(&[
        (
            "Cargo.toml",
            "[package]\nname = \"reqwest\"\n\n[workspace]\nmembers = [\".\"]\n",
        ),
        ("src/lib.rs", "pub fn get() -> u32 {\n    1\n}\n"),
        (
            "examples/wasm_fetch/src/lib.rs",
            "pub fn run() -> u32 {\n    reqwest::get()\n}\n",
        ),
        (
            "examples/wasm_fetch/Cargo.toml",
            "[package]\nname = \"wasm\"\n",
        ),
    ]);
    let entries = entry_points(&repo);
    assert!(entries.iter().any(|e| e == "src/lib.rs"), "{entries:?}");
    assert!(
        !entries.iter().any(|e| e.starts_with("examples/")),
        "{entries:?}"
    );
}

/// A declared entry point the checkout lacks (zustand's `"main": "./index.js"`, written by its
/// build) is not listed; its source is, and so is a declared script name or directory.
#[test]
fn a_declared_entry_point_that_is_not_there_is_not_listed() {
    let repo = TestRepo::with_files(&[
        (
            "package.json",
            r#"{"name": "store", "main": "./index.js", "bin": {"store": "./cli/"}}"#,
        ),
        (
            "src/index.ts",
            "export function create(): number {\n  return 1;\n}\n",
        ),
        ("cli/run.js", "require('../src/index');\n"),
    ]);
    let entries = entry_points(&repo);
    assert!(!entries.iter().any(|e| e == "index.js"), "{entries:?}");
    assert!(entries.iter().any(|e| e == "src/index.ts"), "{entries:?}");
    assert!(entries.iter().any(|e| e == "cli"), "{entries:?}");
}

#[test]
fn examples_fill_only_what_the_librarys_own_api_leaves() {
    // Every library function sits in one directory, every example in a directory of its
    // own: spreading the overview over directories must not trade the library's API for
    // examples (express's `lib/` against `examples/*/`).
    let mut files: Vec<(String, String)> = Vec::new();
    // The examples call each other a lot (a demo's controllers), the library is called once.
    for i in 0..10 {
        files.push((
            format!("lib/mod{i}.js"),
            format!(
                "function open{i}(name) {{\n  return name;\n}}\n\nfunction close{i}(name) {{\n  return name;\n}}\n\nmodule.exports = {{ open{i}, close{i} }};\n"
            ),
        ));
        let uses: String = (0..10)
            .filter(|j| *j != i)
            .map(|j| format!("const d{j} = require('../demo{j}/index.js');\n"))
            .collect();
        let calls: String = (0..10)
            .filter(|j| *j != i)
            .map(|j| format!("  d{j}.demo{j}();\n"))
            .collect();
        files.push((
            format!("examples/demo{i}/index.js"),
            format!(
                "const m = require('../../lib/mod{i}.js');\n{uses}\nfunction demo{i}() {{\n{calls}  return m.open{i}('x');\n}}\n\nmodule.exports = {{ demo{i} }};\n"
            ),
        ));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "6000"]);
    let ids = symbol_ids(&cue);
    // The overview lists 20 symbols: the library's 20 functions, none displaced.
    for i in 0..10 {
        for f in ["open", "close"] {
            let id = format!("symbol:lib/mod{i}.js:{f}{i}");
            assert!(ids.contains(&id), "{id} displaced by an example: {ids:?}");
        }
    }
    let first_example = ids.iter().position(|id| id.starts_with("symbol:examples/"));
    let last_lib = ids.iter().rposition(|id| id.starts_with("symbol:lib/"));
    assert!(first_example.is_none_or(|e| last_lib < Some(e)), "{ids:?}");
}

#[test]
fn an_error_type_comes_after_the_types_that_do_the_work() {
    // Every module returns the crate's `Error`, so it has the most uses; the `Client` that
    // users build and call is used by fewer files but is what a newcomer needs first.
    let mut files: Vec<(String, String)> = vec![
        (
            "Cargo.toml".into(),
            "[package]\nname = \"net\"\nversion = \"0.1.0\"\n".into(),
        ),
        (
            "src/lib.rs".into(),
            "pub mod error;\npub mod client;\npub use error::Error;\npub use client::Client;\n"
                .into(),
        ),
        (
            "src/error.rs".into(),
            "pub struct Error {\n    pub code: u32,\n}\n".into(),
        ),
        (
            "src/client.rs".into(),
            "use crate::error::Error;\n\npub struct Client {\n    pub host: String,\n}\n\nimpl Client {\n    pub fn get(&self) -> Result<(), Error> {\n        Ok(())\n    }\n}\n".into(),
        ),
    ];
    for i in 0..6 {
        let client = if i < 2 {
            "use crate::client::Client;\n\npub fn open(c: &Client) {}\n"
        } else {
            ""
        };
        files.push((
            format!("src/part{i}.rs"),
            format!(
                "use crate::error::Error;\n{client}\npub fn step{i}() -> Result<(), Error> {{\n    Err(Error {{ code: {i} }})\n}}\n"
            ),
        ));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "4000"]);
    assert_listed_before(
        &cue,
        "symbol:src/client.rs:Client",
        "symbol:src/error.rs:Error",
    );
}

#[test]
fn a_tight_overview_spends_the_totals_tokens_on_the_sections_first_items() {
    let repo = python_library();
    let full = repo.cue("overview", &["--max-tokens", "6000"]);
    assert!(
        full["content"]["totals"]["files"].as_u64() > Some(0),
        "{full:#}"
    );
    // Some budget that shows symbols leaves the totals out: they come after the sections'
    // first items.
    let mut without = false;
    for budget in (100..=600).step_by(10) {
        let ran = repo.repocue(&[
            "cue",
            "--view",
            "overview",
            "--max-tokens",
            &budget.to_string(),
        ]);
        if ran.code() != Some(0) {
            continue;
        }
        let c = &ran.json()["content"];
        let has = |key: &str| c[key].as_array().is_some_and(|a| !a.is_empty());
        if c.get("totals").is_none() && has("symbols") {
            without = true;
        }
        // The fitter admits items in rank order and skips one that does not fit, so a long
        // first item may give way to later ones; the first symbol is short here.
        if c.get("totals").is_some() {
            assert!(
                has("symbols"),
                "totals before the first symbol at {budget}: {c:#}"
            );
        }
    }
    assert!(without, "no budget left the totals out");
}

/// A package root that only hands over to another file (`module.exports =
/// require('./lib/tool')`) makes that file the root: its exported functions are the package's
/// exports, the names its code calls are not.
#[test]
fn the_file_a_package_root_hands_over_to_exports_the_api() {
    let mut files: Vec<(String, String)> = vec![
        (
            "package.json".into(),
            "{\"name\": \"tool\", \"version\": \"1.0.0\"}\n".into(),
        ),
        (
            "index.js".into(),
            "'use strict';\n\nmodule.exports = require('./lib/tool');\n".into(),
        ),
        (
            "lib/tool.js".into(),
            "'use strict';\n\nvar proto = require('./application');\n\n\
             exports = module.exports = createTool;\n\n\
             function createTool() {\n  var t = {};\n  proto.init(t);\n  return t;\n}\n"
                .into(),
        ),
        (
            "lib/application.js".into(),
            "'use strict';\n\nvar app = exports = module.exports = {};\n\n\
             app.init = function init(t) {\n  t.ready = true;\n};\n"
                .into(),
        ),
    ];
    for i in 0..3 {
        files.push((
            format!("examples/use{i}.js"),
            format!("var tool = require('../');\n\nvar t{i} = tool();\n"),
        ));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "4000"]);
    let content = &cue["content"];
    let entries: Vec<&str> = content["entry_points"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(entries.contains(&"lib/tool.js"), "{content:#}");
    let exports = content["exports"].as_array().expect("exports listed");
    let tool = exports
        .iter()
        .find(|x| x["path"] == "lib/tool.js")
        .unwrap_or_else(|| panic!("no exports of lib/tool.js: {exports:?}"));
    assert_eq!(tool["names"], json!(["createTool"]), "{exports:?}");
    // A function it comes to export is listed at once: the overview of the edited snapshot is
    // not taken over from the last one.
    let edited = String::from_utf8(repo.read("lib/tool.js")).unwrap()
        + "\nexports.version = version;\n\nfunction version() {\n  return 1;\n}\n";
    repo.write("lib/tool.js", edited);
    let cue = repo.cue("overview", &["--max-tokens", "4000"]);
    let exports = cue["content"]["exports"]
        .as_array()
        .expect("exports listed");
    let tool = exports.iter().find(|x| x["path"] == "lib/tool.js").unwrap();
    assert_eq!(
        tool["names"],
        json!(["createTool", "version"]),
        "{exports:?}"
    );
}

/// A crate that re-exports its core crate's API (rayon's `src/lib.rs` hands on
/// `rayon-core`'s `ThreadPool`, `join`, `scope`) lists its own names, not the same ones again.
#[test]
fn a_root_lists_no_names_another_root_lists() {
    let mut files: Vec<(String, String)> = vec![
        (
            "Cargo.toml".into(),
            "[package]\nname = \"pool\"\nversion = \"0.1.0\"\n\n[workspace]\nmembers = [\"pool-core\"]\n\n[dependencies]\npool-core = { path = \"pool-core\" }\n".into(),
        ),
        (
            "pool-core/Cargo.toml".into(),
            "[package]\nname = \"pool-core\"\nversion = \"0.1.0\"\n".into(),
        ),
        (
            "pool-core/src/lib.rs".into(),
            "pub struct ThreadPool {\n    pub threads: usize,\n}\n\npub fn join(a: usize, b: usize) -> usize {\n    a + b\n}\n\npub fn scope(n: usize) -> ThreadPool {\n    ThreadPool { threads: n }\n}\n".into(),
        ),
        (
            "src/lib.rs".into(),
            "pub mod iter;\n\npub use pool_core::{join, scope, ThreadPool};\npub use crate::iter::{ParallelIterator, IntoParallelIterator};\n".into(),
        ),
        (
            "src/iter.rs".into(),
            "pub trait ParallelIterator {\n    fn drive(self) -> usize;\n}\n\npub trait IntoParallelIterator {\n    fn into_par_iter(self) -> usize;\n}\n".into(),
        ),
    ];
    for i in 0..3 {
        files.push((
            format!("src/use{i}.rs"),
            format!(
                "use crate::iter::ParallelIterator;\nuse pool_core::ThreadPool;\n\npub fn run{i}(p: &ThreadPool) -> usize {{\n    pool_core::join(p.threads, {i})\n}}\n"
            ),
        ));
        files.push((
            format!("pool-core/src/use{i}.rs"),
            format!(
                "use crate::ThreadPool;\n\npub fn size{i}(p: &ThreadPool) -> usize {{\n    crate::join(p.threads, {i})\n}}\n"
            ),
        ));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "4000"]);
    let exports = cue["content"]["exports"]
        .as_array()
        .unwrap_or_else(|| panic!("no exports: {cue:#}"));
    let names: Vec<&str> = exports
        .iter()
        .flat_map(|x| x["names"].as_array().into_iter().flatten())
        .filter_map(Value::as_str)
        .collect();
    assert!(names.contains(&"ThreadPool"), "{exports:?}");
    assert!(names.contains(&"ParallelIterator"), "{exports:?}");
    let mut once = names.clone();
    once.sort_unstable();
    once.dedup();
    assert_eq!(once.len(), names.len(), "a name listed twice: {exports:?}");
}

#[test]
fn a_package_roots_exports_name_its_api_not_what_its_code_calls() {
    // `lib.rs` re-exports two types and defines a function of its own; its own code also
    // calls a method and a private helper. Other files use `GlobSet` most.
    let mut files: Vec<(String, String)> = vec![
        (
            "Cargo.toml".into(),
            "[package]\nname = \"globs\"\nversion = \"0.1.0\"\nedition = \"2021\"\n".into(),
        ),
        (
            "src/lib.rs".into(),
            "mod glob;\nmod util;\n\npub use crate::glob::{Glob, GlobSet};\n\n\
             pub fn escape(s: &str) -> String {\n    let mut set = GlobSet::new();\n    \
             set.push(util::helper(s));\n    s.to_string()\n}\n"
                .into(),
        ),
        (
            "src/glob.rs".into(),
            "pub struct Glob {\n    pub text: String,\n}\n\npub struct GlobSet {\n    \
             pub globs: Vec<Glob>,\n}\n\nimpl GlobSet {\n    pub fn new() -> GlobSet {\n        \
             GlobSet { globs: Vec::new() }\n    }\n\n    pub fn push(&mut self, g: Glob) {\n        \
             self.globs.push(g);\n    }\n}\n"
                .into(),
        ),
        (
            "src/util.rs".into(),
            "use crate::glob::Glob;\n\npub(crate) fn helper(s: &str) -> Glob {\n    \
             Glob { text: s.to_string() }\n}\n"
                .into(),
        ),
    ];
    for i in 0..4 {
        files.push((
            format!("src/use{i}.rs"),
            format!(
                "use crate::glob::GlobSet;\n\npub fn build{i}(set: &GlobSet) -> usize {{\n    \
                 let other: GlobSet = GlobSet::new();\n    set.globs.len() + other.globs.len()\n}}\n"
            ),
        ));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "4000"]);
    let content = &cue["content"];
    assert!(
        content["entry_points"]
            .as_array()
            .is_some_and(|e| e.iter().any(|e| e == "src/lib.rs")),
        "{content}"
    );
    let exports = content["exports"].as_array().expect("exports listed");
    let lib = exports
        .iter()
        .find(|x| x["path"] == "src/lib.rs")
        .unwrap_or_else(|| panic!("no exports of src/lib.rs: {exports:?}"));
    let names: Vec<&str> = lib["names"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    for api in ["GlobSet", "Glob", "escape"] {
        assert!(names.contains(&api), "{api} missing: {names:?}");
    }
    for not_api in ["push", "new", "helper", "util", "glob"] {
        assert!(!names.contains(&not_api), "{not_api} listed: {names:?}");
    }
    let pos = |n: &str| names.iter().position(|x| *x == n).unwrap();
    assert!(
        pos("GlobSet") < pos("Glob"),
        "the most used first: {names:?}"
    );
    // The text format puts them on the entry point's line.
    let text = repo
        .repocue(&["cue", "--format", "text", "--max-tokens", "4000"])
        .success()
        .stdout();
    let line = format!("\n  src/lib.rs: {}\n", names.join(" "));
    assert!(text.contains(&line), "{line:?} not in {text}");
    assert!(!text.contains("\nexports"), "{text}");
    // At any budget, exports come only with their entry point, and after it.
    for budget in ["150", "200", "250", "300", "400"] {
        let c = repo.cue("overview", &["--max-tokens", budget])["content"].clone();
        let entries = c["entry_points"].as_array().cloned().unwrap_or_default();
        for x in c["exports"].as_array().into_iter().flatten() {
            assert!(entries.contains(&x["path"]), "{budget}: {c}");
        }
    }
}

#[test]
fn a_package_exports_its_most_called_names_first_whichever_file_holds_them() {
    // `lib.rs` re-exports `configure`, from the module every other module imports (the
    // crate's best-ranked file), and `transform`, from a module nothing else imports. Each is
    // called by one other source file; the crate's tests call `transform`. What a package's
    // users call comes first, not what its busiest file defines.
    let mut files: Vec<(String, String)> = vec![
        (
            "Cargo.toml".into(),
            "[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n".into(),
        ),
        (
            "src/lib.rs".into(),
            "mod core;\nmod text;\nmod steps;\n\npub use crate::core::configure;\n\
             pub use crate::text::transform;\n"
                .into(),
        ),
        (
            "src/core.rs".into(),
            "pub struct Ctx {\n    pub n: usize,\n}\n\npub fn configure(n: usize) -> Ctx {\n    \
             Ctx { n }\n}\n"
                .into(),
        ),
        (
            "src/text.rs".into(),
            "pub fn transform(s: &str) -> String {\n    s.to_string()\n}\n".into(),
        ),
        (
            "src/steps.rs".into(),
            "use crate::core::{configure, Ctx};\nuse crate::text::transform;\n\n\
             pub fn start(c: &Ctx) -> usize {\n    configure(c.n).n + transform(\"x\").len()\n}\n"
                .into(),
        ),
    ];
    for i in 0..6 {
        files.push((
            format!("src/step{i}.rs"),
            format!(
                "use crate::core::Ctx;\n\npub fn step{i}(c: &Ctx) -> usize {{\n    c.n + {i}\n}}\n"
            ),
        ));
    }
    for i in 0..4 {
        files.push((
            format!("tests/t{i}.rs"),
            format!(
                "use demo::transform;\n\n#[test]\nfn t{i}() {{\n    assert_eq!(transform(\"a\"), \"a\");\n}}\n"
            ),
        ));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "4000"]);
    let content = &cue["content"];
    let exports = content["exports"].as_array().expect("exports listed");
    let lib = exports
        .iter()
        .find(|x| x["path"] == "src/lib.rs")
        .unwrap_or_else(|| panic!("no exports of src/lib.rs: {content:#}"));
    assert_eq!(
        lib["names"],
        json!(["transform", "configure"]),
        "{content:#}"
    );
}

/// Shell functions beside a C project (git's `ci/util/extract-trash-dirs.sh` `error`, listed
/// among `struct repository` and `die`) fill only what the project's own language leaves: the
/// same scripts lead when the project is as much shell as C. (In a top directory of tools, as
/// git's `ci/` is, they are no API at all: `the_maintainers_scripts_are_no_part_of_the_api`.)
#[test]
fn a_language_the_project_hardly_writes_in_fills_only_what_its_main_language_leaves() {
    let ids = |c_files: usize| {
        // The scripts call their `error` five times as often as `main.c` calls each library
        // function.
        let mut files: Vec<(String, String)> = vec![(
            "sh/lib.sh".into(),
            "error () {\n\techo \"error: $*\" >&2\n\texit 1\n}\n".into(),
        )];
        for s in 0..5 {
            files.push((
                format!("sh/step{s}.sh"),
                format!(". sh/lib.sh\nstep{s} () {{\n\ttest -d build || error \"no build\"\n}}\nstep{s}\n"),
            ));
        }
        let calls: String = (0..c_files).map(|i| format!("\tlib{i}_run();\n")).collect();
        files.push((
            "main.c".into(),
            format!("int main(void)\n{{\n{calls}\treturn 0;\n}}\n"),
        ));
        for i in 0..c_files {
            files.push((
                format!("lib{i}.c"),
                format!("int lib{i}_run(void)\n{{\n\treturn {i};\n}}\n"),
            ));
        }
        let cue = TestRepo::with_files(&files).cue("overview", &["--max-tokens", "6000"]);
        symbol_ids(&cue)
    };
    let error = "symbol:sh/lib.sh:error";
    // Six shell scripts beside 61 C files: under a tenth of the project's code.
    let ids_c = ids(60);
    let last_c = ids_c.iter().rposition(|id| id.ends_with("_run"));
    let first_shell = ids_c.iter().position(|id| id.starts_with("symbol:sh/"));
    assert!(last_c.is_some(), "{ids_c:?}");
    assert!(first_shell.is_none_or(|s| last_c < Some(s)), "{ids_c:?}");
    // Beside six C files, the busiest function is the scripts' own.
    let ids_mixed = ids(5);
    assert_eq!(
        ids_mixed.first().map(String::as_str),
        Some(error),
        "{ids_mixed:?}"
    );
}

/// A C source file defines what its header declares: when both are listed (a header in
/// another directory, which the picks do not take for the source file's own), the second does
/// not name again what the first one's `also` named.
#[test]
fn also_never_names_what_an_earlier_file_named() {
    let names = [
        "buf_init",
        "buf_add",
        "buf_addf",
        "buf_detach",
        "buf_grow",
        "buf_trim",
    ];
    let extra = ["buf_read", "buf_write"];
    let declarations: String = names
        .iter()
        .chain(&extra)
        .map(|n| format!("int {n}(struct buf *b);\n\n"))
        .collect();
    let definitions: String = names
        .iter()
        .chain(&extra)
        .map(|n| format!("int {n}(struct buf *b)\n{{\n\treturn b->len;\n}}\n\n"))
        .collect();
    let mut files: Vec<(String, String)> = vec![
        (
            "include/buf.h".into(),
            format!("struct buf {{ int len; }};\n\nvoid buf_release(struct buf *b);\n\n{declarations}"),
        ),
        (
            "buf.c".into(),
            format!("#include \"buf.h\"\n\nvoid buf_release(struct buf *b)\n{{\n\tb->len = 0;\n}}\n\n{definitions}"),
        ),
    ];
    // Enough other headers with public functions that the first symbols cannot hold them all.
    for i in 0..12 {
        files.push((
            format!("lib{i}.h"),
            format!("int lib{i}_open(void);\n\nint lib{i}_close(void);\n"),
        ));
        let calls: String = names.iter().map(|n| format!("\t{n}(&b);\n")).collect();
        files.push((
            format!("cmd{i}.c"),
            format!("#include \"buf.h\"\n#include \"lib{i}.h\"\n\nint cmd{i}(void)\n{{\n\tstruct buf b;\n\tlib{i}_open();\n\tlib{i}_close();\n{calls}\tbuf_release(&b);\n\treturn 0;\n}}\n"),
        ));
    }
    let cue = TestRepo::with_files(&files).cue("overview", &["--max-tokens", "6000"]);
    let symbols = cue["content"]["symbols"].as_array().unwrap();
    let also = |path: &str| -> Vec<&str> {
        symbols
            .iter()
            .filter(|s| s["path"] == path)
            .filter_map(|s| s.get("also")?.as_array())
            .flatten()
            .map(|n| n.as_str().unwrap())
            .collect()
    };
    // Both files are listed, and the header names six functions the first symbols leave
    // out, which the source file defines as well (and named again before).
    assert!(symbols.iter().any(|s| s["path"] == "buf.c"), "{symbols:?}");
    let (header, source) = (also("include/buf.h"), also("buf.c"));
    assert_eq!(header.len(), 6, "{symbols:?}");
    assert!(
        source.iter().all(|n| !header.contains(n)),
        "{header:?} {source:?}"
    );
    // Nor does a file's `also` name the symbol it comes with (each `cmd{i}.c` defines one
    // function, listed past the first symbols).
    for s in symbols {
        let name = crate::support::symbol_name(s);
        let also = s.get("also").and_then(|a| a.as_array());
        assert!(
            also.is_none_or(|a| a.iter().all(|n| n != name)),
            "{name} names itself: {s}"
        );
    }
    assert!(symbols.iter().any(|s| s["path"] == "cmd0.c"), "{symbols:?}");
}

/// A directory with a `go.mod` of its own under a Go module is another module, a member: the
/// root's `go test ./...` does not reach it (viper's `remote/` read as an ordinary
/// component); an example's module stays an example, and one in a directory Go's tools skip
/// is none.
#[test]
fn a_nested_go_module_is_a_member() {
    let repo = TestRepo::with_files(&[
        ("go.mod", "module example.com/lib\n\ngo 1.23\n"),
        (
            "lib.go",
            "package lib\n\nfunc Get(key string) any { return nil }\n",
        ),
        (
            "remote/go.mod",
            "module example.com/lib/remote\n\ngo 1.23\n",
        ),
        (
            "remote/remote.go",
            "package remote\n\ntype Provider struct{}\n",
        ),
        ("plain/plain.go", "package plain\n\nfunc P() {}\n"),
        (
            "_examples/rest/go.mod",
            "module example.com/rest\n\ngo 1.23\n",
        ),
        ("_examples/rest/main.go", "package main\n\nfunc main() {}\n"),
        (
            "_codegen/go.mod",
            "module example.com/lib/codegen\n\ngo 1.23\n",
        ),
        ("_codegen/main.go", "package main\n\nfunc main() {}\n"),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let components = cue["content"]["components"].as_array().unwrap();
    let kind = |path: &str| {
        components
            .iter()
            .find(|c| c["path"] == path)
            .map(|c| c["kind"].as_str().unwrap_or("directory").to_owned())
    };
    assert_eq!(kind("remote/").as_deref(), Some("member"), "{cue:#}");
    assert_eq!(kind("plain/").as_deref(), Some("directory"), "{cue:#}");
    assert_ne!(
        kind("_examples/rest/").as_deref(),
        Some("member"),
        "{cue:#}"
    );
    // A module in a directory Go's tools skip is a tool of the project's (testify's
    // `_codegen/`), no member.
    assert_ne!(kind("_codegen/").as_deref(), Some("member"), "{cue:#}");
}

/// A C# partial type is one type: its members are those of all its parts, it is shown as the
/// part in the file named for it, and its entity lists the other parts' members (Polly's
/// `ResiliencePipeline` showed `ResiliencePipeline.Sync.cs`'s part with `.Execute` only, and
/// its entity only `ResiliencePipeline.cs`'s internal members).
#[test]
fn a_csharp_partial_types_parts_are_one_type() {
    let repo = TestRepo::with_files(&[
        (
            "src/Lib/Pipeline.cs",
            "namespace Lib;\n\npublic sealed partial class Pipeline\n{\n    internal Pipeline(int id) { }\n}\n",
        ),
        (
            "src/Lib/Pipeline.Async.cs",
            "namespace Lib;\n\npublic partial class Pipeline\n{\n    public Task ExecuteAsync(Func<Task> callback) => callback();\n}\n",
        ),
        (
            "src/Lib/Pipeline.Sync.cs",
            "namespace Lib;\n\npublic partial class Pipeline\n{\n    public void Execute(Action callback) => callback();\n}\n",
        ),
        (
            "src/Lib/User.cs",
            "namespace Lib;\npublic class User { public void Run(Pipeline p) { p.Execute(() => {}); } }\n",
        ),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let symbols = cue["content"]["symbols"].as_array().unwrap();
    let pipelines: Vec<&Value> = symbols
        .iter()
        .filter(|s| crate::support::is_symbol(s, "Pipeline"))
        .collect();
    assert_eq!(pipelines.len(), 1, "{cue:#}");
    assert_eq!(pipelines[0]["path"], "src/Lib/Pipeline.cs", "{cue:#}");
    let mut members: Vec<&str> = pipelines[0]["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    members.sort_unstable();
    assert_eq!(members, ["Execute", "ExecuteAsync"], "{cue:#}");
    let entity = repo.cue("entity", &["--id", "symbol:src/Lib/Pipeline.cs:Pipeline"]);
    let children: Vec<&str> = entity["content"]["children"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap())
        .collect();
    assert_eq!(
        children[..2],
        [
            "symbol:src/Lib/Pipeline.Async.cs:Pipeline.ExecuteAsync",
            "symbol:src/Lib/Pipeline.Sync.cs:Pipeline.Execute"
        ],
        "{entity:#}"
    );
}

/// A Go type's methods declared in another file of its package are its members, not lines of
/// their own: chi's `Middlewares` (`chi.go`) showed no members while `chain.go`'s
/// `[Middlewares] func (mws Middlewares) HandlerFunc(…)` took a line at 500 tokens.
#[test]
fn a_go_types_methods_in_other_files_of_its_package_are_its_members() {
    let repo = TestRepo::with_files(&[
        ("go.mod", "module example.com/chi\n\ngo 1.22\n"),
        (
            "chi.go",
            "package chi\n\nimport \"net/http\"\n\n// Middlewares is a middleware stack.\ntype Middlewares []func(http.Handler) http.Handler\n",
        ),
        (
            "chain.go",
            "package chi\n\nimport \"net/http\"\n\nfunc Chain(m ...func(http.Handler) http.Handler) Middlewares { return Middlewares(m) }\n\nfunc (mws Middlewares) Handler(h http.Handler) http.Handler { return h }\n\nfunc (mws Middlewares) HandlerFunc(h http.HandlerFunc) http.Handler { return h }\n",
        ),
        // Another package's type of the same name keeps its own.
        (
            "other/other.go",
            "package other\n\ntype Middlewares struct{}\n\nfunc (m Middlewares) Use() {}\n",
        ),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let ids = symbol_ids(&cue);
    let symbols = cue["content"]["symbols"].as_array().unwrap();
    let members = |path: &str| -> Vec<&str> {
        let s = symbols
            .iter()
            .find(|s| s["path"] == path && crate::support::is_symbol(s, "Middlewares"));
        let s = s.unwrap_or_else(|| panic!("{path}: {ids:?}"));
        s["members"]
            .as_array()
            .map_or(vec![], |m| m.iter().map(|n| n.as_str().unwrap()).collect())
    };
    assert_eq!(members("chi.go"), ["Handler", "HandlerFunc"]);
    assert_eq!(members("other/other.go"), ["Use"]);
    assert!(
        !ids.iter()
            .any(|i| i.starts_with("symbol:chain.go:Middlewares.")),
        "{ids:?}"
    );
    assert!(ids.contains(&"symbol:chain.go:Chain".to_owned()), "{ids:?}");
}

/// An interface has no constructor: a method named like it is one of its members (chi's
/// `Routes` interface declares `Routes() []Route`, which the overview left out), while a
/// class's constructor is none.
#[test]
fn an_interfaces_method_named_like_it_is_a_member() {
    let repo = TestRepo::with_files(&[
        ("go.mod", "module example.com/chi\n\ngo 1.22\n"),
        (
            "chi.go",
            "package chi\n\ntype Route struct{}\n\ntype Routes interface {\n\tRoutes() []Route\n\tMatch(path string) bool\n}\n",
        ),
        (
            "Parser.java",
            "public class Parser {\n    public Parser() {}\n    public int parse(String s) { return 0; }\n}\n",
        ),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let symbols = cue["content"]["symbols"].as_array().unwrap();
    let members = |name: &str| -> Vec<&str> {
        let s = symbols.iter().find(|s| crate::support::is_symbol(s, name));
        let s = s.unwrap_or_else(|| panic!("{name}: {cue:#}"));
        s["members"]
            .as_array()
            .map_or(vec![], |m| m.iter().map(|n| n.as_str().unwrap()).collect())
    };
    assert_eq!(members("Routes"), ["Routes", "Match"]);
    assert_eq!(members("Parser"), ["parse"]);
}

/// A hidden member takes no line of the overview, whatever the budget: monolog's listed
/// `[SyslogFormatter] private const NILVALUE` and three more; a public one still may.
#[test]
fn a_hidden_member_takes_no_line() {
    let repo = TestRepo::with_files(&[
        (
            "src/Formatter.php",
            "<?php\nnamespace A;\n\nclass Formatter\n{\n    private const SECRET_FORMAT = 1;\n    protected const FACILITY = 2;\n    public const LEVEL = 3;\n    public function format(array $r): string { return sprintf(self::SECRET_FORMAT, self::FACILITY); }\n}\n",
        ),
        (
            "src/f1.php",
            "<?php\nnamespace A;\nfunction f1(Formatter $f) { return $f->format([]) . Formatter::LEVEL; }\n",
        ),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "3000"]);
    let ids = symbol_ids(&cue);
    assert!(
        ids.contains(&"symbol:src/Formatter.php:Formatter".to_owned()),
        "{ids:?}"
    );
    for hidden in ["SECRET_FORMAT", "FACILITY"] {
        assert!(
            !ids.iter()
                .any(|i| i.ends_with(&format!("Formatter.{hidden}"))),
            "{hidden}: {ids:?}"
        );
    }
}

/// A package-level function of a type's file named like one of the type's listed members,
/// with its parameters, takes no line of its own nor a place among the file's other names:
/// viper's `func Get(key string) any { return v.Get(key) }` repeated `Viper`'s `.Get`, and four
/// such lines pushed out `AddConfigPath` and `AutomaticEnv` at 500 tokens. A function of other
/// parameters is no such wrapper (chi's `URLParam(r, key)` beside `Context.URLParam(key)`).
#[test]
fn a_global_wrapper_of_a_listed_member_takes_no_line() {
    let mut go = String::from("package viper\n\ntype Viper struct {\n\tconfig map[string]any\n}\n\nvar v = New()\n\nfunc New() *Viper { return &Viper{} }\n\n");
    for name in [
        "Get",
        "GetString",
        "SetDefault",
        "Set",
        "AddConfigPath",
        "AutomaticEnv",
    ] {
        go.push_str(&format!("func {name}(key string) any {{ return v.{name}(key) }}\n\nfunc (v *Viper) {name}(key string) any {{ return nil }}\n\n"));
    }
    // chi's `URLParam(r, key)` is no wrapper of `Context.URLParam(key)`: other parameters.
    go.push_str("func URLParam(r *Viper, key string) any { return r.URLParam(key) }\n\nfunc (v *Viper) URLParam(key string) any { return nil }\n\n");
    let mut test = String::from(
        "package viper\n\nimport \"testing\"\n\nfunc TestAll(t *testing.T) {\n\tx := New()\n\t_ = URLParam(x, \"a\")\n\t_ = URLParam(x, \"b\")\n\t_ = x.URLParam(\"c\")\n",
    );
    for name in [
        "Get",
        "GetString",
        "SetDefault",
        "Get",
        "GetString",
        "SetDefault",
    ] {
        test.push_str(&format!("\t_ = x.{name}(\"a\")\n\t_ = {name}(\"a\")\n"));
    }
    test.push_str("}\n");
    let repo = TestRepo::with_files(&[
        ("go.mod", "module example.com/viper\n\ngo 1.22\n"),
        ("viper.go", go.as_str()),
        ("viper_test.go", test.as_str()),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let symbols = cue["content"]["symbols"].as_array().unwrap();
    assert!(
        symbols
            .iter()
            .any(|s| crate::support::is_symbol(s, "Viper")),
        "{cue:#}"
    );
    // Each name once: as a line, a member or one of the file's other names.
    let mut said: Vec<String> = symbol_ids(&cue)
        .iter()
        .map(|id| id.rsplit(':').next().unwrap().to_owned())
        .collect();
    for s in symbols {
        for key in ["members", "also"] {
            let names = s[key].as_array().into_iter().flatten();
            said.extend(names.map(|n| n.as_str().unwrap().to_owned()));
        }
    }
    for name in ["Get", "GetString", "SetDefault"] {
        let times = said.iter().filter(|n| *n == name).count();
        assert_eq!(times, 1, "{name}: {said:?}");
    }
    assert!(
        symbol_ids(&cue).contains(&"symbol:viper.go:URLParam".to_owned()),
        "{said:?}"
    );
}

/// A class listed before its subclass names its methods itself: the subclass lists its own
/// (monolog's `StreamHandler` repeated `.handle .handleBatch` of the handler above it and never
/// showed its own `getStream`).
#[test]
fn a_listed_base_class_methods_are_not_repeated_under_its_subclass() {
    let mut files: Vec<(String, String)> = vec![
        (
            "src/BaseHandler.php".into(),
            "<?php\nnamespace A;\n\nabstract class BaseHandler\n{\n    public function handle(array $r): bool { return true; }\n    public function handleBatch(array $rs): void {}\n    public function close(): void {}\n}\n".into(),
        ),
        (
            "src/StreamHandler.php".into(),
            "<?php\nnamespace A;\n\nclass StreamHandler extends BaseHandler\n{\n    public function getStream() { return null; }\n    public function getUrl(): ?string { return null; }\n}\n".into(),
        ),
    ];
    for i in 0..3 {
        files.push((
            format!("src/use{i}.php"),
            format!("<?php\nnamespace A;\n\nfunction use{i}(StreamHandler $h, BaseHandler $b) {{ $h->handle([]); $b->handleBatch([]); }}\n"),
        ));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    assert_listed_before(
        &cue,
        "symbol:src/BaseHandler.php:BaseHandler",
        "symbol:src/StreamHandler.php:StreamHandler",
    );
    let symbols = cue["content"]["symbols"].as_array().unwrap();
    let members = |name: &str| -> Vec<&str> {
        let s = symbols.iter().find(|s| crate::support::is_symbol(s, name));
        let s = s.unwrap_or_else(|| panic!("{name} missing: {symbols:?}"));
        s["members"]
            .as_array()
            .map_or(vec![], |m| m.iter().map(|n| n.as_str().unwrap()).collect())
    };
    assert_eq!(members("BaseHandler"), ["handle", "handleBatch", "close"]);
    assert_eq!(members("StreamHandler"), ["getStream", "getUrl"]);
}

/// A framework's central class inherits the method its users call most (Flask's `route`,
/// defined on `sansio/scaffold.py`'s `Scaffold`, which `Flask` extends through `App`): its
/// members name it. A method the class overrides is named once; a base name two files define
/// is not followed.
#[test]
fn a_class_brings_the_methods_it_inherits_from_the_project() {
    let mut files: Vec<(String, String)> = vec![
        // The package exports the class (Flask's `__init__.py`): it is listed before the
        // classes it extends, which would otherwise name those methods themselves.
        (
            "pkg/__init__.py".into(),
            "from .app import Flask\nfrom .widget import Widget\n".into(),
        ),
        (
            "pkg/scaffold.py".into(),
            "class Scaffold:\n    def route(self, rule):\n        return rule\n\n    def errorhandler(self, code):\n        return code\n\n    def run(self):\n        return None\n".into(),
        ),
        (
            "pkg/base.py".into(),
            "from .scaffold import Scaffold\n\n\nclass App(Scaffold):\n    def add_url_rule(self, rule):\n        return rule\n".into(),
        ),
        (
            "pkg/app.py".into(),
            "from .base import App\n\n\nclass Flask(App):\n    def run(self):\n        return self\n\n    def test_client(self):\n        return self\n".into(),
        ),
        // Two files define `Plugin`: which one `Widget` extends is unknown.
        (
            "pkg/plugins/a.py".into(),
            "class Plugin:\n    def load(self):\n        return 1\n".into(),
        ),
        (
            "pkg/plugins/b.py".into(),
            "class Plugin:\n    def load(self):\n        return 2\n".into(),
        ),
        // Classes that extend each other: the lookups end.
        (
            "pkg/loop_a.py".into(),
            "class LoopA(LoopB):\n    def a(self):\n        return 1\n".into(),
        ),
        (
            "pkg/loop_b.py".into(),
            "class LoopB(LoopA):\n    def b(self):\n        return 2\n".into(),
        ),
        (
            "pkg/widget.py".into(),
            "from .plugins.a import Plugin\n\n\nclass Widget(Plugin):\n    def draw(self):\n        return 0\n".into(),
        ),
    ];
    for i in 0..6 {
        files.push((
            format!("tests/test_app{i}.py"),
            format!("from pkg.app import Flask\nfrom pkg.widget import Widget\n\n\ndef test_{i}():\n    app = Flask()\n    app.route('/{i}')\n    app.route('/x{i}')\n    Widget().draw()\n"),
        ));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "4000"]);
    let symbols = cue["content"]["symbols"].as_array().unwrap();
    let members = |name: &str| -> Vec<&str> {
        let s = symbols
            .iter()
            .find(|s| crate::support::is_symbol(s, name))
            .unwrap_or_else(|| panic!("{name} missing: {symbols:?}"));
        s["members"]
            .as_array()
            .map(|m| m.iter().map(|n| n.as_str().unwrap()).collect())
            .unwrap_or_default()
    };
    // The most called first, then its own methods (`run` once: `Scaffold.run` is
    // overridden), then the nearest class's.
    assert_eq!(
        members("Flask"),
        ["route", "run", "test_client", "add_url_rule"]
    );
    assert_eq!(members("Widget"), ["draw"]);
    // The member's entity is the definition it inherits.
    let entity = repo.cue("entity", &["--id", "symbol:pkg/app.py:Flask.route"]);
    assert_eq!(
        entity["content"]["id"],
        "symbol:pkg/scaffold.py:Scaffold.route"
    );
    assert_eq!(entity["content"]["kind"], "method", "{entity:#}");
    let entity = repo.cue("entity", &["--id", "symbol:pkg/app.py:Flask.add_url_rule"]);
    assert_eq!(
        entity["content"]["id"],
        "symbol:pkg/base.py:App.add_url_rule"
    );
    // Nothing of that name, or a base name two files define.
    let entity = repo.cue("entity", &["--id", "symbol:pkg/loop_a.py:LoopA.b"]);
    assert_eq!(entity["content"]["id"], "symbol:pkg/loop_b.py:LoopB.b");
    for missing in [
        "app.py:Flask.nothing",
        "widget.py:Widget.load",
        "loop_a.py:LoopA.c",
    ] {
        repo.repocue(&[
            "cue",
            "--view",
            "entity",
            "--id",
            &format!("symbol:pkg/{missing}"),
        ])
        .error_code("not_found");
    }
}

/// A JavaScript module's top-level variables that it does not export are its own (express's
/// `var join = path.join` in `lib/view.js`): `also` names what the module exports.
#[test]
fn a_modules_unexported_variables_are_not_what_it_offers() {
    let mut files: Vec<(String, String)> = vec![(
        "opts.js".into(),
        "import path from 'node:path';\n\nvar join = path.join;\nconst internalTable = new Map();\n\nexport class Options {}\n\nexport function parseOptions(argv) {\n  return join(argv);\n}\n\nexport function usageWithOptions(o) {\n  return internalTable.get(o);\n}\n\nexport const OPTION_COUNT = 3;\n".into(),
    )];
    // Enough other modules with exported functions that the first symbols cannot hold them.
    for i in 0..12 {
        files.push((
            format!("lib{i}.js"),
            format!("export function lib{i}Open() {{\n  return {i};\n}}\n\nexport function lib{i}Close() {{\n  return {i};\n}}\n"),
        ));
        files.push((
            format!("cmd{i}.js"),
            format!("import {{ Options, parseOptions }} from './opts.js';\nimport {{ lib{i}Open, lib{i}Close }} from './lib{i}.js';\n\nexport function cmd{i}(argv) {{\n  lib{i}Open();\n  lib{i}Close();\n  return parseOptions(new Options(argv));\n}}\n"),
        ));
    }
    let cue = TestRepo::with_files(&files).cue("overview", &["--max-tokens", "4000"]);
    let symbols = cue["content"]["symbols"].as_array().unwrap();
    // What the overview says the module offers: its listed symbols and their `also` names.
    let mut offered: Vec<&str> = Vec::new();
    for s in symbols.iter().filter(|s| s["path"] == "opts.js") {
        offered.push(crate::support::symbol_name(s));
        let also = s.get("also").and_then(Value::as_array);
        offered.extend(also.into_iter().flatten().map(|n| n.as_str().unwrap()));
    }
    for exported in [
        "Options",
        "parseOptions",
        "usageWithOptions",
        "OPTION_COUNT",
    ] {
        assert!(offered.contains(&exported), "{exported}: {offered:?}");
    }
    for own in ["join", "internalTable"] {
        assert!(!offered.contains(&own), "{own}: {offered:?}");
    }
}

/// A function a JavaScript module declares but does not export, while it exports something
/// else, is the module's own helper (express's `function tryStat(path)` beside
/// `module.exports = View` in `lib/view.js` was listed among the framework's symbols), in
/// CommonJS and in ES modules alike. A script that exports nothing keeps its functions.
#[test]
fn a_modules_unexported_functions_are_not_what_it_offers() {
    let mut files: Vec<(String, String)> = vec![
        (
            "lib/view.js".into(),
            "'use strict';\nmodule.exports = View;\n\nfunction View(name, options) {\n  this.name = name;\n  this.path = tryStat(name) || tryStat(options);\n}\n\nView.prototype.render = function render(fn) {\n  return tryStat(this.path) && fn(this.path);\n};\n\nfunction tryStat(path) {\n  return lookUpPath(path);\n}\n\nfunction lookUpPath(path) {\n  return path;\n}\n".into(),
        ),
        (
            "lib/format.mjs".into(),
            "export function formatName(name) {\n  return padLeft(name) + padLeft(name);\n}\n\nfunction padLeft(text) {\n  return ' ' + text;\n}\n".into(),
        ),
        (
            "bin/serve.js".into(),
            "function startServer(port) {\n  return port;\n}\n\nstartServer(8080);\n".into(),
        ),
        (
            "lib/app.js".into(),
            "exports.callback = function callback() {\n  const handleRequest = (req) => {\n    return req;\n  };\n  return handleRequest;\n};\n".into(),
        ),
    ];
    // Many users of the module, each also calling a helper's namesake of its own making, so
    // that bare-name uses would count the helpers as used everywhere.
    for i in 0..10 {
        files.push((
            format!("lib/route{i}.js"),
            format!("const View = require('./view');\nconst {{ formatName }} = require('./format.mjs');\n\nexports.route{i} = function route{i}(name) {{\n  const tryStat = (p) => p;\n  const padLeft = (p) => p;\n  const lookUpPath = (p) => p;\n  return new View(formatName(name), tryStat(padLeft(lookUpPath(name))));\n}};\n"),
        ));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "4000"]);
    let symbols = cue["content"]["symbols"].as_array().unwrap();
    let names: Vec<&str> = symbols.iter().map(crate::support::symbol_name).collect();
    let at = |name: &str| names.iter().position(|n| *n == name);
    // Every definition a module exports comes before the helpers, wherever they are listed.
    let exports: Vec<String> = ["View".to_string(), "formatName".to_string()]
        .into_iter()
        .chain((0..10).map(|i| format!("route{i}")))
        .collect();
    let last_export = exports
        .iter()
        .map(|n| at(n).unwrap_or_else(|| panic!("{n} listed: {names:?}")))
        .max()
        .unwrap();
    for helper in ["tryStat", "lookUpPath", "padLeft"] {
        assert!(
            at(helper).is_none_or(|i| i > last_export),
            "{helper} before an export: {names:?}"
        );
    }
    // What a function's body defines is no line of its own at any budget.
    assert!(
        !names.iter().any(|n| n.ends_with("handleRequest")),
        "{names:?}"
    );
    // Nor does the module's `also` offer them.
    for s in symbols.iter().filter(|s| s["path"] == "lib/view.js") {
        let also = s.get("also").and_then(Value::as_array);
        for n in also.into_iter().flatten() {
            assert!(
                !["tryStat", "lookUpPath"].contains(&n.as_str().unwrap()),
                "{s}"
            );
        }
    }
    // The helpers stay reachable: the module's structure lists them.
    let structure = repo.cue("structure", &["--path", "lib/view.js"]);
    let listed: Vec<&str> = structure["content"]["symbols"]
        .as_array()
        .unwrap()
        .iter()
        .map(crate::support::symbol_name)
        .collect();
    assert!(listed.contains(&"tryStat"), "{listed:?}");
}

/// A type's members name its methods: a method the ranking picks takes no line of its own but
/// joins its type's members, beyond the four most used if need be (cobra's
/// `func (c *Command) Execute() error` after `Command` is its `.Execute`).
#[test]
fn a_picked_method_joins_its_types_members() {
    let methods = ["Name", "Execute", "AddCommand", "Flags", "Run", "Help"];
    let bodies: String = methods
        .iter()
        .map(|m| format!("func (c *Command) {m}() string {{\n\treturn c.name\n}}\n\n"))
        .collect();
    let mut files: Vec<(String, String)> = vec![(
        "command.go".into(),
        format!("package cobra\n\ntype Command struct {{\n\tname string\n}}\n\n{bodies}"),
    )];
    for i in 0..8 {
        let calls: String = methods.iter().map(|m| format!("\tc.{m}()\n")).collect();
        files.push((
            format!("use{i}.go"),
            format!("package cobra\n\nfunc Use{i}(c *Command) {{\n{calls}}}\n"),
        ));
    }
    let cue = TestRepo::with_files(&files).cue("overview", &["--max-tokens", "4000"]);
    let symbols = cue["content"]["symbols"].as_array().unwrap();
    let command = symbols
        .iter()
        .find(|s| crate::support::is_symbol(s, "Command"))
        .unwrap_or_else(|| panic!("Command missing: {symbols:?}"));
    let members: Vec<&str> = command["members"]
        .as_array()
        .unwrap_or_else(|| panic!("Command has no members: {command}"))
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    // The four most used, and a method picked beyond them.
    assert!(members.len() > 4, "{members:?}");
    let lines: Vec<&str> = symbols
        .iter()
        .filter(|s| s["path"] == "command.go")
        .map(crate::support::symbol_name)
        .collect();
    // No method is a line: the list's room goes to other files.
    assert_eq!(lines, ["Command"], "{symbols:#?}");
    assert!(members.iter().all(|m| methods.contains(m)), "{members:?}");
}

/// A C header and the source file of the same name are one module: the source's definitions
/// come after other modules' first symbols, as a second pick of the header's would (git's
/// `strbuf.c` listed beside `strbuf.h` while `parse-options.h` waited).
#[test]
fn a_c_header_and_its_source_file_share_their_picks() {
    let mut files: Vec<(String, String)> = vec![
        (
            "buf.h".into(),
            "struct buf { int len; };\n\nint buf_add(struct buf *b, int c);\n".into(),
        ),
        (
            "buf.c".into(),
            "#include \"buf.h\"\n\nint buf_add(struct buf *b, int c)\n{\n\treturn b->len + c;\n}\n\nint buf_grow(struct buf *b, int n)\n{\n\treturn b->len + n;\n}\n".into(),
        ),
    ];
    for i in 0..6 {
        files.push((
            format!("lib{i}.h"),
            format!("struct lib{i} {{ int fd; }};\n\nint lib{i}_open(struct lib{i} *l);\n"),
        ));
    }
    for i in 0..10 {
        let libs: String = (0..6)
            .filter(|j| (i + j) % 3 == 0)
            .map(|j| format!("#include \"lib{j}.h\"\n"))
            .collect();
        let opens: String = (0..6)
            .filter(|j| (i + j) % 3 == 0)
            .map(|j| format!("\tstruct lib{j} l{j};\n\tlib{j}_open(&l{j});\n"))
            .collect();
        files.push((
            format!("cmd{i}.c"),
            format!("#include \"buf.h\"\n{libs}\nint cmd{i}(void)\n{{\n\tstruct buf b;\n{opens}\tbuf_add(&b, 1);\n\treturn buf_grow(&b, 2);\n}}\n"),
        ));
    }
    let cue = TestRepo::with_files(&files).cue("overview", &["--max-tokens", "4000"]);
    let symbols = cue["content"]["symbols"].as_array().unwrap();
    let paths: Vec<&str> = symbols
        .iter()
        .map(|s| s["path"].as_str().unwrap())
        .collect();
    let first = |path: &str| {
        paths
            .iter()
            .position(|p| *p == path)
            .unwrap_or_else(|| panic!("{path} missing: {paths:?}"))
    };
    assert_eq!(first("buf.h"), 0, "{paths:?}");
    for i in 0..6 {
        assert!(
            first(&format!("lib{i}.h")) < first("buf.c"),
            "lib{i}.h after buf.c: {paths:?}"
        );
    }
}

/// A Ruby gem's root is the file right in its `lib/` that `require 'gem'` loads; one that
/// only requires another file of `lib/` hands over to it (sinatra's `lib/sinatra.rb`:
/// `require 'sinatra/main'`), and the overview lists both. A Ruby file deeper in `lib/` is no
/// root.
#[test]
fn a_ruby_gems_root_and_the_file_it_requires_are_entry_points() {
    let repo = TestRepo::with_files(&[
        ("lib/widget.rb", "require 'widget/main'\n"),
        (
            "lib/widget/main.rb",
            "require 'widget/base'\n\nmodule Widget\n  def self.run!\n    Base.new.start\n  end\nend\n",
        ),
        (
            "lib/widget/base.rb",
            "module Widget\n  class Base\n    def start\n      true\n    end\n  end\nend\n",
        ),
        (
            "test/widget_test.rb",
            "require 'widget'\n\nWidget.run!\n",
        ),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "4000"]);
    let entries: Vec<&str> = cue["content"]["entry_points"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(entries.contains(&"lib/widget.rb"), "{cue:#}");
    assert!(entries.contains(&"lib/widget/main.rb"), "{cue:#}");
    assert!(!entries.contains(&"lib/widget/base.rb"), "{cue:#}");
}

/// A JavaScript or TypeScript package's index lists what it hands on, never what it merely
/// imports to call: vite's `plugin-legacy` index calls `normalizePath` and `build`, which its
/// exports list named as if the plugin exported them.
#[test]
fn a_package_index_exports_what_it_hands_on_not_what_it_calls() {
    let mut files: Vec<(String, String)> = vec![
        (
            "package.json".into(),
            r#"{"name":"demo","version":"1.0.0","main":"src/index.ts"}"#.into(),
        ),
        (
            "src/index.ts".into(),
            "import { normalizePath, buildAll } from \"./util\";\n\
             import { detect } from \"./detect\";\n\
             export { transform } from \"./transform\";\n\
             export { detect };\n\n\
             export function plugin(p: string): string {\n  return normalizePath(p) + buildAll();\n}\n"
                .into(),
        ),
        (
            "src/util.ts".into(),
            "export function normalizePath(p: string): string {\n  return p;\n}\n\n\
             export function buildAll(): string {\n  return \"\";\n}\n"
                .into(),
        ),
        (
            "src/detect.ts".into(),
            "export function detect(s: string): boolean {\n  return s.length > 0;\n}\n".into(),
        ),
        (
            "src/transform.ts".into(),
            "export function transform(s: string): string {\n  return s;\n}\n".into(),
        ),
    ];
    // The package's own modules call the helpers everywhere: by uses they would lead.
    for i in 0..5 {
        files.push((
            format!("src/step{i}.ts"),
            format!(
                "import {{ normalizePath, buildAll }} from \"./util\";\n\n\
                 export function step{i}(p: string): string {{\n  return normalizePath(p) + buildAll();\n}}\n"
            ),
        ));
    }
    let repo = TestRepo::with_files(&files);
    let (names, content) = sorted_exports(&repo, "src/index.ts");
    assert_eq!(names, ["detect", "plugin", "transform"], "{content:#}");
}

/// The names the 4,000-token overview lists as `path`'s exports, sorted, and the overview's
/// content (for failure messages).
fn sorted_exports(repo: &TestRepo, path: &str) -> (Vec<String>, Value) {
    let cue = repo.cue("overview", &["--max-tokens", "4000"]);
    let content = cue["content"].clone();
    let exports = content["exports"].as_array().expect("exports listed");
    let entry = exports
        .iter()
        .find(|x| x["path"] == path)
        .unwrap_or_else(|| panic!("no exports of {path}: {content:#}"));
    let mut names: Vec<String> = entry["names"]
        .as_array()
        .expect("names")
        .iter()
        .filter_map(|n| n.as_str().map(str::to_owned))
        .collect();
    names.sort_unstable();
    (names, content)
}

/// A build directory that holds the source tree as it is (got's `"exports":
/// "./dist/source/index.js"`, built from `source/index.ts` with no `rootDir`) is entered at the
/// source: got's overview had no entry point at any budget.
#[test]
fn a_build_of_the_source_tree_as_it_is_is_entered_at_the_source() {
    let repo = TestRepo::with_files(&[
        (
            "package.json",
            r#"{"name":"demo","type":"module","exports":{"types":"./dist/source/index.d.ts","default":"./dist/source/index.js"}}"#,
        ),
        ("tsconfig.json", r#"{"compilerOptions":{"outDir":"dist"}}"#),
        (
            "source/core/client.ts",
            "export default class Client { get(url: string): string { return url; } }\n",
        ),
        (
            "source/index.ts",
            "export {default as Client} from \"./core/client.js\";\n",
        ),
    ]);
    let entries = entry_points(&repo);
    assert_eq!(
        entries.first().map(String::as_str),
        Some("source/index.ts"),
        "{entries:?}"
    );
}

/// A workspace member whose package.json names only its build output (`"exports":
/// "./dist/node/index.js"`, untracked) is entered at the source that output is built from.
#[test]
fn a_members_built_entry_point_is_read_as_its_source() {
    let repo = TestRepo::with_files(&[
        (
            "package.json",
            r#"{"name":"mono","private":true,"workspaces":["packages/*"]}"#,
        ),
        (
            "packages/tool/package.json",
            r#"{"name":"tool","exports":{".":"./dist/node/index.js","./client":"./client.d.ts"}}"#,
        ),
        (
            "packages/tool/src/node/index.ts",
            "export { serve } from \"./server\";\n",
        ),
        (
            "packages/tool/src/node/server.ts",
            "export function serve(port: number): number {\n  return port;\n}\n",
        ),
        (
            "packages/tool/src/node/cli.ts",
            "import { serve } from \"./server\";\nserve(1);\n",
        ),
    ]);
    let entries = entry_points(&repo);
    assert!(
        entries
            .iter()
            .any(|e| e == "packages/tool/src/node/index.ts"),
        "{entries:?}"
    );
    assert!(!entries.iter().any(|e| e.contains("dist/")), "{entries:?}");
}

/// A package index that hands on modules whole (`export * from`), through a module that does
/// the same, lists their names as its exports (zod's `index.ts` → `v4/classic/external.ts` →
/// `schemas.ts`); a namespace (`export * as ns`) and a module only imported are not handed on.
#[test]
fn a_package_index_exports_what_it_hands_on_whole() {
    let mut files: Vec<(String, String)> = vec![
        (
            "package.json".into(),
            r#"{"name":"valid","version":"1.0.0","main":"src/index.ts"}"#.into(),
        ),
        (
            "src/index.ts".into(),
            "import { helper } from \"./internal/helper\";\n\
             export * from \"./external\";\n\
             export * as locales from \"./locales\";\n"
                .into(),
        ),
        (
            "src/external.ts".into(),
            "export * from \"./schemas\";\n".into(),
        ),
        (
            "src/schemas.ts".into(),
            "export function string(): number {\n  return 1;\n}\n\n\
             export function object(): number {\n  return 2;\n}\n"
                .into(),
        ),
        (
            "src/locales.ts".into(),
            "export function english(): string {\n  return \"en\";\n}\n".into(),
        ),
        (
            "src/internal/helper.ts".into(),
            "export function helper(): number {\n  return 3;\n}\n".into(),
        ),
    ];
    for i in 0..3 {
        files.push((
            format!("test/t{i}.ts"),
            format!(
                "import {{ string, object }} from \"../src/index\";\n\n\
                 export function t{i}(): number {{\n  return string() + object();\n}}\n"
            ),
        ));
    }
    let repo = TestRepo::with_files(&files);
    let (names, content) = sorted_exports(&repo, "src/index.ts");
    assert_eq!(names, ["object", "string"], "{content:#}");
    // A module handed on whole that hands on names by name, which define nothing itself
    // (trpc's `export * from './@trpc/server'`, whose index imports `initTRPC` and exports
    // it): those names are the package's exports too.
    repo.write(
        "src/index.ts",
        "export * from \"./external\";\nexport * from \"./api\";\n",
    );
    repo.write(
        "src/api.ts",
        "import { build } from \"./builder/build\";\nexport { build };\n",
    );
    repo.write(
        "src/builder/build.ts",
        "export function build(): number {\n  return 4;\n}\n",
    );
    repo.commit("a module handed on by name");
    let (names, content) = sorted_exports(&repo, "src/index.ts");
    assert_eq!(names, ["build", "object", "string"], "{content:#}");
}

/// The overview says which language version the main manifest requires, in the JSON and the
/// text, and a member's manifest does not speak for the project; within 250 tokens, since it
/// comes with every section's second item.
#[test]
fn the_overview_says_which_language_version_the_project_requires() {
    let repo = TestRepo::with_files(&[
        (
            "pyproject.toml",
            "[project]\nname = \"demo\"\nrequires-python = \">=3.10\"\n",
        ),
        (
            "web/package.json",
            r#"{"name": "web", "engines": {"node": ">=22"}}"#,
        ),
        ("src/demo/__init__.py", "def run():\n    pass\n"),
        ("README.md", "# demo\n\nDemo runs things.\n"),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "250"]);
    assert_eq!(
        cue["content"]["project"]["requires"], "Python >=3.10",
        "{cue:#}"
    );
    let text = repo
        .repocue(&["cue", "--format", "text", "--max-tokens", "250"])
        .success()
        .stdout();
    assert!(text.contains("\n  requires: Python >=3.10\n"), "{text}");
    assert!(!text.contains("Node.js"), "{text}");
}

/// A deprecated class comes after the one that replaces it, though the project's old code
/// uses it more (commons-lang's deprecated `text.StrBuilder`, used by its deprecated `text`
/// package, came before `ObjectUtils`).
#[test]
fn a_deprecated_definition_comes_after_its_replacement() {
    let dir = "src/main/java/org/demo";
    let user = |name: &str, uses: &str| {
        (
            format!("{dir}/{name}.java"),
            format!("package org.demo;\n\npublic class {name} {{\n    public void run() {{\n        {uses}\n    }}\n}}\n"),
        )
    };
    let mut files = vec![
        (
            format!("{dir}/OldBuilder.java"),
            "package org.demo;\n\n/** @deprecated Use {@link Builder}. */\n@Deprecated\npublic class OldBuilder {\n    public OldBuilder() {}\n}\n".to_owned(),
        ),
        (
            format!("{dir}/Builder.java"),
            "package org.demo;\n\npublic class Builder {\n    public Builder() {}\n}\n".to_owned(),
        ),
        user("Report", "new Builder();"),
    ];
    for name in ["Table", "Chart", "Sheet"] {
        files.push(user(name, "new OldBuilder();"));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let ids = symbol_ids(&cue);
    let at = |name: &str| {
        ids.iter()
            .position(|i| i == &format!("symbol:{dir}/{name}.java:{name}"))
            .unwrap_or_else(|| panic!("{name}: {ids:?}"))
    };
    assert!(at("Builder") < at("OldBuilder"), "{ids:?}");
}

/// A C++ library keeps its users' headers in `include/`: its umbrella header is an entry
/// point that lists the API it hands on, and its implementation's headers in `src/` come
/// after the public ones, however much the implementation uses them (yaml-cpp's
/// `src/scanner.h` came before `include/yaml-cpp/emitter.h`'s `Emitter`, and `yaml.h` was
/// no entry point).
#[test]
fn a_cpp_librarys_umbrella_header_and_public_headers_lead() {
    let header = |guard: &str, body: &str| {
        format!("#ifndef {guard}\n#define {guard}\n\nnamespace Acme {{\n{body}}}\n\n#endif\n")
    };
    let mut files: Vec<(String, String)> = vec![
        ("CMakeLists.txt".into(), "project(acme CXX)\nadd_library(acme src/parser.cpp)\n".into()),
        (
            "include/acme/acme.h".into(),
            "#ifndef ACME_H\n#define ACME_H\n#include \"acme/parser.h\"\n#include \"acme/emitter.h\"\n#include \"acme/node.h\"\n#include \"acme/parse.h\"\n#endif\n".into(),
        ),
        (
            "include/acme/parser.h".into(),
            header("PARSER_H", "class Parser {\n public:\n  bool Next();\n};\n"),
        ),
        (
            "include/acme/emitter.h".into(),
            header(
                "EMITTER_H",
                "class Emitter {\n public:\n  void Write(const char* s);\n};\nEmitter& operator<<(Emitter& out, const char* s);\nnamespace Style {\nenum value { Block, Flow };\n}\n",
            ),
        ),
        (
            "include/acme/node.h".into(),
            header("NODE_H", "class Node {\n public:\n  int size() const;\n};\n"),
        ),
        // A namespace of functions only.
        (
            "include/acme/parse.h".into(),
            header("PARSE_H", "Node Load(const char* input);\nNode LoadFile(const char* path);\n"),
        ),
        (
            "src/scanner.h".into(),
            header("SCANNER_H", "class Scanner {\n public:\n  int Peek();\n  void Skip();\n};\n"),
        ),
    ];
    // The implementation uses its scanner everywhere, the public types here and there.
    for (name, public) in [
        ("parser", "Parser parser;\n  parser.Next();"),
        ("emitter", "Emitter out;\n  out.Write(\"-\");"),
        ("node", "Node node = Load(\"x\");"),
        ("stream", ""),
        ("tag", ""),
        ("token", ""),
    ] {
        files.push((
            format!("src/{name}.cpp"),
            format!("#include \"scanner.h\"\n#include \"acme/acme.h\"\n\nnamespace Acme {{\nint {name}_step(Scanner& scanner) {{\n  {public}\n  scanner.Skip();\n  return scanner.Peek();\n}}\n}}\n"),
        ));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let content = &cue["content"];
    let entries = content["entry_points"].as_array().expect("entry points");
    assert_eq!(entries[0], "include/acme/acme.h", "{content:#}");
    let exports: Vec<&str> = content["exports"][0]["names"]
        .as_array()
        .expect("exports")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(content["exports"][0]["path"], "include/acme/acme.h");
    for name in ["Parser", "Emitter", "Node", "Load"] {
        assert!(exports.contains(&name), "{name}: {exports:?}");
    }
    // An operator and a nested namespace's `value` are no names a user calls.
    assert!(
        !exports
            .iter()
            .any(|n| n.starts_with("operator") || *n == "value"),
        "{exports:?}"
    );
    let ids = symbol_ids(&cue);
    let at = |id: &str| ids.iter().position(|i| i == id);
    let parser = at("symbol:include/acme/parser.h:Acme.Parser").expect("Parser");
    if let Some(scanner) = at("symbol:src/scanner.h:Acme.Scanner") {
        assert!(parser < scanner, "{ids:?}");
    }
    // A function in a namespace is listed as itself, not as its namespace.
    let text = repo
        .repocue(&["cue", "--format", "text", "--max-tokens", "2000"])
        .success()
        .stdout();
    assert!(text.contains("Node Load(const char* input)"), "{text}");
    assert!(!text.contains("namespace Acme\n      .Load"), "{text}");
}

/// A Java root package that holds no class of its own is no entry point: mybatis's
/// `org/apache/ibatis/package-info.java` (its packages are `session/`, `mapping/`, …) was the
/// one entry point listed, naming nothing.
#[test]
fn a_java_root_package_without_classes_is_no_entry_point() {
    let files = [
        ("pom.xml", "<project><artifactId>acme</artifactId></project>\n"),
        (
            "src/main/java/org/acme/package-info.java",
            "/** Acme root. */\npackage org.acme;\n",
        ),
        (
            "src/main/java/org/acme/session/SessionFactory.java",
            "package org.acme.session;\n\npublic class SessionFactory {\n    public void open() {}\n}\n",
        ),
        (
            "src/main/java/org/acme/session/Builder.java",
            "package org.acme.session;\n\npublic class Builder {\n    public SessionFactory build() { return new SessionFactory(); }\n}\n",
        ),
    ];
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "1000"]);
    let entries = cue["content"]["entry_points"].to_string();
    assert!(!entries.contains("package-info.java"), "{entries}");
}

/// A Java application's `main` class comes before its package's `package-info.java`, which
/// documents the package (spring-petclinic's 250 tokens listed the package doc alone).
#[test]
fn a_java_programs_main_comes_before_its_package_doc() {
    let files = [
        ("pom.xml", "<project><artifactId>app</artifactId></project>\n"),
        (
            "src/main/java/com/acme/app/package-info.java",
            "/** The app. */\npackage com.acme.app;\n",
        ),
        (
            "src/main/java/com/acme/app/App.java",
            "package com.acme.app;\n\npublic class App {\n    public static void main(String[] args) {\n        new Helper().run();\n    }\n}\n",
        ),
        (
            "src/main/java/com/acme/app/Helper.java",
            "package com.acme.app;\n\npublic class Helper {\n    public void run() {}\n}\n",
        ),
    ];
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "1000"]);
    let entries = &cue["content"]["entry_points"];
    assert_eq!(
        entries[0], "src/main/java/com/acme/app/App.java",
        "{entries}"
    );
}

/// A Java library that declares no module has its root package as its entry point: the
/// shallowest `package-info.java` of its source set, listing the package's public classes
/// (commons-lang had no entry point; its `org/apache/commons/lang3/package-info.java` now
/// lists `StringUtils ArrayUtils … Validate`).
#[test]
fn a_java_librarys_root_package_is_its_entry_point() {
    let root = "src/main/java/org/acme/lang";
    let class = |package: &str, name: &str, body: &str| {
        format!("package {package};\n\npublic class {name} {{\n{body}}}\n")
    };
    let mut files = vec![
        (
            "pom.xml".to_owned(),
            "<project><artifactId>acme-lang</artifactId></project>\n".to_owned(),
        ),
        (
            format!("{root}/package-info.java"),
            "/** Helpers for the core classes. */\npackage org.acme.lang;\n".to_owned(),
        ),
        (
            format!("{root}/Strings.java"),
            class("org.acme.lang", "Strings", "    public static boolean isEmpty(String s) {\n        return s == null || s.isEmpty();\n    }\n"),
        ),
        (
            format!("{root}/Checks.java"),
            class("org.acme.lang", "Checks", "    public static void notNull(Object o) {\n        if (Strings.isEmpty(String.valueOf(o))) {\n            throw new IllegalArgumentException();\n        }\n    }\n"),
        ),
        (
            format!("{root}/text/package-info.java"),
            "/** Text tools. */\npackage org.acme.lang.text;\n".to_owned(),
        ),
    ];
    for name in ["Wrapper", "Joiner", "Padder"] {
        files.push((
            format!("{root}/text/{name}.java"),
            class(
                "org.acme.lang.text",
                name,
                "    public String run(String s) {\n        org.acme.lang.Checks.notNull(s);\n        return org.acme.lang.Strings.isEmpty(s) ? \"\" : s;\n    }\n",
            ),
        ));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "1000"]);
    let content = &cue["content"];
    let info = format!("{root}/package-info.java");
    let entries = content["entry_points"].as_array().expect("entry points");
    assert_eq!(
        entries.first().and_then(Value::as_str),
        Some(info.as_str()),
        "{content:#}"
    );
    assert!(
        !entries
            .iter()
            .any(|e| e.as_str().is_some_and(|e| e.contains("/text/"))),
        "{entries:?}"
    );
    assert_eq!(content["exports"][0]["path"], info.as_str(), "{content:#}");
    let names: Vec<&str> = content["exports"][0]["names"]
        .as_array()
        .expect("names")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        names.contains(&"Strings") && names.contains(&"Checks"),
        "{names:?}"
    );
    assert!(
        !names.contains(&"Wrapper"),
        "a subpackage's class: {names:?}"
    );
}

/// Asserts that an overview's first entry point is `path`.
fn assert_first_entry_point(content: &Value, path: &str) {
    let entries = content["entry_points"].as_array().expect("entry points");
    assert_eq!(
        entries.first().and_then(Value::as_str),
        Some(path),
        "{content:#}"
    );
}

/// The names an overview's exports list gives for the entry point `path`.
fn exports_of<'v>(content: &'v Value, path: &str) -> Vec<&'v str> {
    let exports = content["exports"].as_array().expect("exports");
    let entry = exports.iter().find(|x| x["path"] == path);
    let names = entry.and_then(|x| x["names"].as_array());
    names
        .map(|n| n.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// A PHP library's root namespace is its entry point: the directory Composer's PSR-4 autoload
/// maps it to, listed as `composer.json` with the classes of that directory's own files, the
/// ones its tests create (`new Client()`, a reference the grammar's shipped query missed) first
/// (guzzle had no entry point, and its `Client` was in no list at 500 tokens).
#[test]
fn a_php_librarys_psr4_namespace_is_its_entry_point() {
    let php = |body: &str| format!("<?php\n\nnamespace Acme;\n\n{body}\n");
    let files: Vec<(String, String)> = vec![
        (
            "composer.json".into(),
            r#"{"name": "acme/http", "autoload": {"psr-4": {"Acme\\": "src/"}}, "autoload-dev": {"psr-4": {"Acme\\Tests\\": "tests/"}}}"#.into(),
        ),
        (
            "src/Client.php".into(),
            php("class Client\n{\n    public function send(string $uri): string\n    {\n        return Utils::normalize($uri);\n    }\n}"),
        ),
        (
            "src/Utils.php".into(),
            php("final class Utils\n{\n    public static function normalize(string $uri): string\n    {\n        return trim($uri);\n    }\n}"),
        ),
        ("src/Aaa.php".into(), php("class Aaa\n{\n}")),
        (
            "src/Handler/Curl.php".into(),
            "<?php\n\nnamespace Acme\\Handler;\n\nuse Acme\\Utils;\n\nclass Curl\n{\n    public function handle(string $uri): string\n    {\n        return Utils::normalize($uri);\n    }\n}\n".into(),
        ),
        (
            "tests/ClientTest.php".into(),
            "<?php\n\nnamespace Acme\\Tests;\n\nuse Acme\\Client;\n\nfinal class ClientTest\n{\n    public function testSend(): void\n    {\n        $client = new Client();\n        $client->send('x');\n    }\n}\n".into(),
        ),
    ];
    let cue = TestRepo::with_files(&files).cue("overview", &["--max-tokens", "1000"]);
    let content = &cue["content"];
    assert_first_entry_point(content, "composer.json");
    let names = exports_of(content, "composer.json");
    let at = |n: &str| names.iter().position(|x| *x == n);
    assert!(
        at("Utils").is_some() && !names.contains(&"Curl"),
        "{names:?}"
    );
    assert!(
        at("Client") < at("Aaa") && at("Client").is_some(),
        "{names:?}"
    );
}

/// A .NET library project is its package's entry point, listing the public types of its own
/// directory, the ones its tests derive from (`: Validator<Person>`, a generic base the
/// grammar's shipped query captured whole, no name) first; no `internal` type, none of a
/// subdirectory, and no test project.
#[test]
fn a_dotnet_library_project_is_its_entry_point() {
    let cs = |body: &str| format!("namespace Acme;\n\n{body}\n");
    let files: Vec<(String, String)> = vec![
        (
            "src/Acme/Acme.csproj".into(),
            "<Project Sdk=\"Microsoft.NET.Sdk\">\n  <PropertyGroup><TargetFramework>net8.0</TargetFramework></PropertyGroup>\n</Project>\n".into(),
        ),
        (
            "src/Acme/Validator.cs".into(),
            cs("public abstract class Validator<T>\n{\n    public bool Validate(T item) => Helper.Check(item);\n}"),
        ),
        (
            "src/Acme/Helper.cs".into(),
            cs("internal static class Helper\n{\n    public static bool Check(object item) => item != null;\n}"),
        ),
        ("src/Acme/Aaa.cs".into(), cs("public class Aaa\n{\n}")),
        (
            "src/Acme/Rules/Rule.cs".into(),
            "namespace Acme.Rules;\n\npublic class Rule\n{\n}\n".into(),
        ),
        (
            "test/Acme.Tests/Acme.Tests.csproj".into(),
            "<Project Sdk=\"Microsoft.NET.Sdk\">\n  <ItemGroup><PackageReference Include=\"Microsoft.NET.Test.Sdk\" Version=\"17.0.0\" /></ItemGroup>\n</Project>\n".into(),
        ),
        (
            "test/Acme.Tests/PersonValidator.cs".into(),
            "using Acme;\n\nnamespace Acme.Tests;\n\npublic class Person\n{\n}\n\npublic class PersonValidator : Validator<Person>\n{\n}\n".into(),
        ),
    ];
    let cue = TestRepo::with_files(&files).cue("overview", &["--max-tokens", "1000"]);
    let content = &cue["content"];
    assert_first_entry_point(content, "src/Acme/Acme.csproj");
    let entries = content["entry_points"].as_array().expect("entry points");
    assert!(
        !entries
            .iter()
            .any(|e| e.as_str().is_some_and(|e| e.starts_with("test/"))),
        "{entries:?}"
    );
    let names = exports_of(content, "src/Acme/Acme.csproj");
    let at = |n: &str| names.iter().position(|x| *x == n);
    assert!(
        at("Validator").is_some() && at("Validator") < at("Aaa"),
        "{names:?}"
    );
    assert!(
        !names.contains(&"Helper") && !names.contains(&"Rule"),
        "{names:?}"
    );
}

/// A class the project's documents show a user writing is API, whatever imports its file:
/// starlette's `Starlette`, which 26 of its documents show and none of its modules imports,
/// came after every internal class its modules use of each other.
#[test]
fn a_class_the_documents_show_is_listed_though_no_module_imports_it() {
    let mut files: Vec<(String, String)> = vec![
        ("kit/__init__.py".into(), "__version__ = \"1.0\"\n".into()),
        (
            "kit/app.py".into(),
            "class Toolkit:\n    def route(self, path):\n        return path\n".into(),
        ),
    ];
    // Internals the modules use, so that their files lead the ranking.
    let internals: Vec<String> = (0..10).map(|i| format!("Part{i}")).collect();
    for name in &internals {
        let file = name.to_lowercase();
        files.push((
            format!("kit/{file}.py"),
            format!("class {name}:\n    def run(self, x):\n        return x\n"),
        ));
    }
    // Module i uses parts i and i + 1: each part has two users.
    for i in 0..10 {
        let (a, b) = (&internals[i], &internals[(i + 1) % 10]);
        let (fa, fb) = (a.to_lowercase(), b.to_lowercase());
        files.push((
            format!("kit/mod{i}.py"),
            format!("from kit.{fa} import {a}\nfrom kit.{fb} import {b}\n\n\ndef handle_{i}(x):\n    return {a}().run({b}().run(x))\n"),
        ));
    }
    let example =
        "```python\nfrom kit.app import Toolkit\n\napp = Toolkit()\napp.route(\"/\")\n```\n";
    files.push((
        "README.md".into(),
        format!("# kit\n\nA small web toolkit.\n\n{example}"),
    ));
    for guide in ["routing", "requests", "deploy"] {
        files.push((
            format!("docs/{guide}.md"),
            format!("# {guide}\n\n{example}"),
        ));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "3000"]);
    let ids = symbol_ids(&cue);
    let at = |id: &str| ids.iter().position(|i| i == id);
    let toolkit = at("symbol:kit/app.py:Toolkit").unwrap_or_else(|| panic!("Toolkit: {ids:?}"));
    assert!(toolkit < 3, "{ids:?}");
}

/// The overview says under what license the project is: the one its main manifest declares
/// and its license file at the root (not one of a subdirectory), in JSON and as one text line.
#[test]
fn the_overview_names_the_projects_license() {
    let repo = TestRepo::with_files(&[
        (
            "package.json",
            r#"{"name": "acme", "license": "MIT", "main": "index.js"}"#,
        ),
        ("LICENSE", "MIT License\n\nCopyright (c) Acme\n"),
        ("vendor/lib/COPYING", "GPL\n"),
        ("index.js", "module.exports = function acme() {}\n"),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "1000"]);
    assert_eq!(
        cue["content"]["project"]["license"],
        serde_json::json!({"name": "MIT", "file": "LICENSE"}),
        "{cue:#}"
    );
    let text = repo
        .repocue(&["cue", "--format", "text", "--max-tokens", "1000"])
        .success()
        .stdout();
    assert!(text.contains("\n  license: MIT (LICENSE)\n"), "{text}");
    // No manifest: the file alone.
    let repo = TestRepo::with_files(&[
        ("COPYING", "GNU GENERAL PUBLIC LICENSE\n"),
        ("main.c", "int main(void) { return 0; }\n"),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "1000"]);
    assert_eq!(
        cue["content"]["project"]["license"],
        serde_json::json!({"file": "COPYING"}),
        "{cue:#}"
    );
    // No manifest field for it (Go): the license the file's text is (resty's "The MIT License
    // (MIT)" was `license: LICENSE`).
    let repo = TestRepo::with_files(&[
        ("go.mod", "module example.com/m\n\ngo 1.22\n"),
        (
            "LICENSE",
            "The MIT License (MIT)\n\nCopyright (c) 2015 Someone\n\nPermission is hereby granted, free of charge, to any person obtaining a copy\n",
        ),
        ("m.go", "package m\n\n// F is f.\nfunc F() int { return 1 }\n"),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "1000"]);
    assert_eq!(
        cue["content"]["project"]["license"],
        serde_json::json!({"name": "MIT", "file": "LICENSE"}),
        "{cue:#}"
    );
    // Two license files of two licenses are a choice (zstd's BSD `LICENSE`, GPL-2.0
    // `COPYING`); the GPL's own text, which points to the Lesser GPL, is the GPL.
    let repo = TestRepo::with_files(&[
        (
            "COPYING",
            "                    GNU GENERAL PUBLIC LICENSE\n                       Version 2, June 1991\n\n Preamble\n\n(Some other Free Software Foundation software is covered by\nthe GNU Lesser General Public License instead.)\n",
        ),
        (
            "LICENSE",
            "BSD License\n\nRedistribution and use in source and binary forms, with or without\nmodification, are permitted ... * Neither the name Facebook nor the names of its contributors may be used\n",
        ),
        ("lib.c", "int f(void) { return 0; }\n"),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "1000"]);
    assert_eq!(
        cue["content"]["project"]["license"],
        serde_json::json!({"name": "GPL-2.0 OR BSD-3-Clause", "file": "COPYING"}),
        "{cue:#}"
    );
}

/// The overview says what a package's test, build and lint scripts run (`npm test (xo, ava)`):
/// which test runner and linter the project uses, what an agent runs a single test with.
/// Rounds after the commands, and not for a purpose's variants (`test:watch`) nor a script
/// named for its program (`tsc`).
#[test]
fn the_overview_says_what_a_package_script_runs() {
    let repo = TestRepo::with_files(&[
        (
            "package.json",
            r#"{"name": "acme", "main": "index.js", "scripts": {
                "build": "tsc",
                "test": "xo && npm run build && ava",
                "test:watch": "ava --watch",
                "tsc": "tsc --noEmit"
            }}"#,
        ),
        ("index.js", "module.exports = function acme() {}\n"),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "1000"]);
    let commands = &cue["content"]["commands"];
    assert_eq!(
        commands,
        &serde_json::json!([
            {"command": "npm run build", "purpose": "build", "runs": ["tsc"]},
            {"command": "npm test", "purpose": "test", "runs": ["xo", "tsc", "ava"]},
            {"command": "npm run test:watch", "purpose": "test"},
            // Named for what it runs: the command says it.
            {"command": "npm run tsc", "purpose": "lint"},
            {"command": "npm install", "purpose": "install"}
        ]),
        "{cue:#}"
    );
    let text = repo
        .repocue(&["cue", "--format", "text", "--max-tokens", "1000"])
        .success()
        .stdout();
    assert!(
        text.contains(
            "\ncommands: npm run build (tsc); npm test (xo, tsc, ava); npm run test:watch; npm run tsc; npm install\n"
        ),
        "{text}"
    );
}

/// A Ruby gem's root lists what it `autoload`s as its exports: Ruby declares no visibility,
/// and every class is public (rack's `lib/rack.rb` listed no exports at all; now `Utils
/// Request BodyProxy Lint …`). A module that only holds others is no export of its own.
#[test]
fn a_ruby_gems_autoloads_are_its_exports() {
    let class = |name: &str, method: &str| {
        format!("module Acme\n  class {name}\n    def {method}(x)\n      x\n    end\n  end\nend\n")
    };
    let repo = TestRepo::with_files(&[
        (
            "acme.gemspec",
            "Gem::Specification.new do |s|\n  s.name = \"acme\"\n  s.files = Dir[\"lib/**/*.rb\"]\nend\n",
        ),
        (
            "lib/acme.rb",
            "module Acme\n  autoload :Builder, \"acme/builder\"\n  autoload :Request, \"acme/request\"\nend\n",
        ),
        ("lib/acme/builder.rb", &class("Builder", "use")),
        ("lib/acme/request.rb", &class("Request", "params")),
        (
            "test/builder_test.rb",
            "require \"acme\"\n\nclass BuilderTest\n  def test_use\n    Acme::Builder.new.use(1)\n  end\nend\n",
        ),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "1000"]);
    let names = exports_of(&cue["content"], "lib/acme.rb");
    assert!(
        names.contains(&"Builder") && names.contains(&"Request"),
        "{:#}",
        cue["content"]
    );
    assert!(!names.contains(&"Acme"), "{names:?}");
}

/// A root `scripts/` directory's executables named for a purpose are the project's commands,
/// ahead of what its manifest's tool settings imply (starlette's contributors run
/// `scripts/test`, not `python -m pytest`). A script Git does not record as executable, one
/// with an extension (a helper another command runs) and one named for no purpose are none.
#[test]
fn a_scripts_directorys_executables_are_the_commands() {
    let repo = TestRepo::with_files(&[
        (
            "pyproject.toml",
            "[project]\nname = \"acme\"\n\n[tool.pytest.ini_options]\naddopts = \"-q\"\n\n[tool.ruff]\nline-length = 99\n",
        ),
        ("acme/__init__.py", "def greet(name):\n    return name\n"),
        ("scripts/test", "#!/bin/sh\nset -ex\npytest \"$@\"\n"),
        ("scripts/lint", "#!/bin/sh\nruff check acme\n"),
        ("scripts/install", "#!/bin/sh\npip install -e .\n"),
        ("scripts/clean", "#!/bin/sh\nrm -rf build\n"),
        ("scripts/build.sh", "#!/bin/sh\npython -m build\n"),
        ("scripts/check", "#!/bin/sh\nmypy acme\n"),
    ]);
    for script in ["test", "lint", "install", "clean", "build.sh"] {
        repo.git(&["update-index", "--chmod=+x", &format!("scripts/{script}")]);
    }
    repo.commit_staged("scripts are executable");
    let cue = repo.cue("overview", &["--max-tokens", "1000"]);
    let commands = commands_of(&cue);
    assert_eq!(
        commands,
        [
            "scripts/test",
            "scripts/lint",
            "python -m pytest",
            "ruff check .",
            "scripts/install",
            "pip install -e ."
        ],
        "{cue:#}"
    );
    assert_eq!(
        cue["content"]["commands"][0],
        serde_json::json!({"command": "scripts/test", "purpose": "test"}),
        "a script is its own source: {cue:#}"
    );
}

/// Without a Makefile or extensionless scripts to run them, a `scripts/` shell script named
/// for its purpose is the command (typer's contributors and CI run `bash scripts/test.sh`,
/// which sets what its tests need), run through `bash` when Git does not record it as
/// executable.
#[test]
fn a_scripts_directorys_shell_scripts_are_the_commands_when_nothing_runs_them() {
    let files = [
        (
            "pyproject.toml",
            "[project]\nname = \"acme\"\n\n[tool.pytest.ini_options]\naddopts = \"-q\"\n",
        ),
        ("acme/__init__.py", "def greet(name):\n    return name\n"),
        (
            "scripts/test.sh",
            "#!/bin/sh\nexport TERMINAL_WIDTH=3000\npytest \"$@\"\n",
        ),
        ("scripts/lint.sh", "#!/bin/sh\nmypy acme\n"),
        ("scripts/release.sh", "#!/bin/sh\ntwine upload dist/*\n"),
    ];
    let repo = TestRepo::with_files(&files);
    repo.git(&["update-index", "--chmod=+x", "scripts/lint.sh"]);
    repo.commit_staged("lint.sh is executable");
    let cue = repo.cue("overview", &["--max-tokens", "1000"]);
    let commands = commands_of(&cue);
    assert_eq!(
        commands[..3],
        [
            "bash scripts/test.sh",
            "./scripts/lint.sh",
            "python -m pytest"
        ],
        "{cue:#}"
    );
    // A root Makefile runs them: babel's `make test` runs `scripts/test.sh`.
    let mut with_make = files.to_vec();
    with_make.push(("Makefile", "test:\n\tbash scripts/test.sh\n"));
    let repo = TestRepo::with_files(&with_make);
    let cue = repo.cue("overview", &["--max-tokens", "1000"]);
    let commands = commands_of(&cue);
    assert!(
        !commands.iter().any(|c| c.contains("scripts/")),
        "{commands:?}"
    );
}

/// A build script at the root is how a .NET project's contributors build and test
/// (AutoMapper's guide: "Run the PowerShell script `Build.ps1`"): the POSIX one leads, the
/// others follow the leading commands, and a Windows script needs no executable bit.
#[test]
fn a_root_build_script_is_the_build_command() {
    let repo = TestRepo::with_files(&[
        (
            "Acme.sln",
            "Microsoft Visual Studio Solution File, Format Version 12.00\n",
        ),
        (
            "src/Acme/Acme.csproj",
            "<Project Sdk=\"Microsoft.NET.Sdk\"></Project>\n",
        ),
        (
            "src/Acme/Greeter.cs",
            "namespace Acme { public class Greeter { } }\n",
        ),
        ("Build.cmd", "@echo off\r\npowershell ./build.ps1\r\n"),
        ("build.ps1", "dotnet build\ndotnet test\n"),
        ("build.sh", "#!/bin/sh\ndotnet build && dotnet test\n"),
    ]);
    repo.git(&["update-index", "--chmod=+x", "build.sh"]);
    repo.commit_staged("build.sh is executable");
    let cue = repo.cue("overview", &["--max-tokens", "1000"]);
    let commands = commands_of(&cue);
    assert_eq!(commands[0], "./build.sh", "{cue:#}");
    // PowerShell runs a `.ps1` (MediatR's `./Build.ps1`, not executable, failed in bash).
    for later in ["pwsh ./build.ps1", "Build.cmd", "dotnet build"] {
        let at = commands.iter().position(|c| *c == later);
        assert!(
            at.is_some_and(|i| i > 1),
            "{later} after the leading commands: {commands:?}"
        );
    }
    assert!(commands.contains(&"dotnet test"), "{commands:?}");
    // A shell script without the executable bit runs through bash.
    repo.git(&["update-index", "--chmod=-x", "build.sh"]);
    repo.commit_staged("build.sh is not executable");
    let cue = repo.cue("overview", &["--max-tokens", "1000"]);
    assert_eq!(commands_of(&cue)[0], "bash ./build.sh", "{cue:#}");
}

/// A CI step that runs in a directory with a manifest of its own checks that package, not the
/// project: it never leads the commands (fastify's `cd test/bundler/webpack && npm run test`
/// came second, before `npm run unit`, even at 250 tokens).
#[test]
fn a_ci_step_in_a_sub_package_does_not_lead() {
    let repo = TestRepo::with_files(&[
        (
            "package.json",
            r#"{"name": "srv", "main": "index.js", "scripts": {"test": "borp", "lint": "eslint"}}"#,
        ),
        ("index.js", "module.exports = function server () {}\n"),
        (
            "test/bundler/webpack/package.json",
            r#"{"name": "bundle-test", "scripts": {"test": "webpack"}}"#,
        ),
        (
            ".github/workflows/ci.yml",
            "name: ci\non: [push]\njobs:\n  bundler:\n    runs-on: ubuntu-latest\n    steps:\n      - run: cd test/bundler/webpack && npm run build\n  types:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npx jest --ci\n",
        ),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "1000"]);
    let commands = commands_of(&cue);
    let at = |c: &str| commands.iter().position(|x| *x == c);
    let sub = at("cd test/bundler/webpack && npm run build").expect("listed");
    let types = at("npx jest --ci").expect("listed");
    assert!(types < sub, "{commands:?}");
}

/// A single-header C++ library at the top, named after the project (or after it without
/// `cpp-`), is its first entry point: cpp-httplib's `httplib.h` was never one, its example
/// program and a script were.
#[test]
fn a_single_header_library_is_its_entry_point() {
    for title in ["minihttp", "cpp-minihttp"] {
        let readme = format!("# {title}\n\nA C++11 single-file header-only HTTP library.\n");
        let repo = TestRepo::with_files(&[
            ("README.md", readme.as_str()),
            (
                "minihttp.h",
                "#pragma once\nnamespace minihttp {\nclass Server {\n public:\n  int listen(int port);\n};\n}\n",
            ),
            (
                "example/main.cc",
                "#include \"../minihttp.h\"\nint main() { minihttp::Server s; return s.listen(80); }\n",
            ),
            ("split.py", "def main() -> None:\n    pass\n\nif __name__ == \"__main__\":\n    main()\n"),
        ]);
        let cue = repo.cue("overview", &["--max-tokens", "1000"]);
        assert_eq!(
            cue["content"]["entry_points"][0], "minihttp.h",
            "{title}: {cue:#}"
        );
    }
}

/// The command lines of an overview cue, in order.
fn commands_of(cue: &serde_json::Value) -> Vec<&str> {
    cue["content"]["commands"]
        .as_array()
        .expect("commands")
        .iter()
        .map(|c| c["command"].as_str().expect("command"))
        .collect()
}

/// A proc-macro crate exports its derive macros by the names users derive (serde_derive's
/// `Serialize`, `Deserialize`), not by their functions' (`derive_serialize`).
#[test]
fn a_derive_crate_exports_what_users_derive() {
    let repo = TestRepo::with_files(&[
        (
            "Cargo.toml",
            "[package]\nname = \"demo_derive\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[lib]\nproc-macro = true\n",
        ),
        (
            "src/lib.rs",
            "use proc_macro::TokenStream;\n\nmod expand;\n\n#[proc_macro_derive(Encode, attributes(encode))]\npub fn derive_encode(input: TokenStream) -> TokenStream {\n    expand::run(input)\n}\n",
        ),
        (
            "src/expand.rs",
            "use proc_macro::TokenStream;\n\npub fn run(input: TokenStream) -> TokenStream {\n    input\n}\n",
        ),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "3000"]);
    let exports = cue["content"]["exports"].to_string();
    assert!(exports.contains("\"Encode\""), "{cue:#}");
    assert!(!exports.contains("derive_encode"), "{exports}");
    // The text names it too: its signature does not.
    let text = repo
        .repocue(&["cue", "--view", "structure", "--format", "text"])
        .success()
        .stdout();
    assert!(
        text.contains(" Encode: pub fn derive_encode(input: TokenStream) -> TokenStream\n"),
        "{text}"
    );
}

/// A Rust module the crate root declares without `pub` is private: its `pub` items come after
/// the crate's API (serde's `private/de.rs` `ContentVisitor` was among its central types),
/// unless the root hands them on with `pub use`.
#[test]
fn a_rust_crates_private_modules_are_no_api() {
    let repo = TestRepo::with_files(&[
        (
            "Cargo.toml",
            "[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        ),
        (
            "src/lib.rs",
            "mod inner;\npub mod codec;\n\npub use inner::Shown;\n\npub trait Encode {\n    fn encode(&self) -> inner::Helper;\n}\n",
        ),
        (
            "src/inner.rs",
            "pub struct Helper(pub u8);\n\npub struct Shown;\n\npub fn helper_a() -> Helper {\n    Helper(1)\n}\n\npub fn helper_b() -> Helper {\n    Helper(2)\n}\n",
        ),
        (
            "src/codec.rs",
            "use crate::inner::{helper_a, helper_b, Helper};\n\npub struct Codec;\n\npub fn run() -> Helper {\n    helper_a();\n    helper_b()\n}\n",
        ),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "3000"]);
    let ids = symbol_ids(&cue);
    let at = |id: &str| ids.iter().position(|i| i == id);
    let helper = at("symbol:src/inner.rs:Helper").unwrap_or(usize::MAX);
    for api in [
        "symbol:src/lib.rs:Encode",
        "symbol:src/codec.rs:Codec",
        "symbol:src/inner.rs:Shown",
    ] {
        let found = at(api).unwrap_or_else(|| panic!("{api}: {ids:?}"));
        assert!(found < helper, "{api} after Helper: {ids:?}");
    }
}

/// A gem's program is an entry point (jekyll's `exe/jekyll`, from `s.bindir = "exe"` and
/// computed `s.executables`), before its library root.
#[test]
fn a_gems_program_is_an_entry_point() {
    let repo = TestRepo::with_files(&[
        (
            "tool.gemspec",
            "Gem::Specification.new do |s|\n  s.name = \"tool\"\n  s.version = \"1.0\"\n  s.summary = \"A static site generator.\"\n  s.executables = all_files.grep(%r!^exe/!) { |f| File.basename(f) }\n  s.bindir = \"exe\"\nend\n",
        ),
        (
            "exe/tool",
            "#!/usr/bin/env ruby\nrequire \"tool\"\nTool::Site.new(ARGV).process\n",
        ),
        ("lib/tool.rb", "module Tool\n  autoload :Site, \"tool/site\"\nend\n"),
        (
            "lib/tool/site.rb",
            "module Tool\n  class Site\n    def initialize(a)\n      @a = a\n    end\n\n    def process\n    end\n  end\nend\n",
        ),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let entries: Vec<&str> = cue["content"]["entry_points"]
        .as_array()
        .unwrap_or_else(|| panic!("{cue:#}"))
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(entries.first(), Some(&"exe/tool"), "{entries:?}");
    assert!(entries.contains(&"lib/tool.rb"), "{entries:?}");
}

/// A build wrapper checked in beside the manifest runs the build (`./mvnw test`:
/// jackson-core ships one); without one, Gradle runs as installed (`gradle test`).
#[test]
fn a_checked_in_build_wrapper_runs_the_build() {
    let commands = |files: &[(&str, &str)]| -> String {
        let repo = TestRepo::with_files(files);
        let cue = repo.cue("overview", &["--max-tokens", "2000"]);
        cue["content"]["commands"].to_string()
    };
    let pom = "<project><modelVersion>4.0.0</modelVersion><groupId>c</groupId><artifactId>ex</artifactId><version>1</version></project>\n";
    let java = "package ex;\npublic class Parser {}\n";
    let wrapped = commands(&[
        ("pom.xml", pom),
        ("mvnw", "#!/bin/sh\nexec java -jar wrapper.jar \"$@\"\n"),
        ("src/main/java/ex/Parser.java", java),
    ]);
    assert!(wrapped.contains("\"./mvnw test\""), "{wrapped}");
    assert!(!wrapped.contains("\"mvn "), "{wrapped}");
    let plain = commands(&[("pom.xml", pom), ("src/main/java/ex/Parser.java", java)]);
    assert!(plain.contains("\"mvn test\""), "{plain}");
    let gradle = commands(&[
        ("build.gradle", "plugins { id 'java' }\n"),
        ("src/main/java/ex/Parser.java", java),
    ]);
    assert!(gradle.contains("\"gradle test\""), "{gradle}");
    let gradlew = commands(&[
        ("build.gradle", "plugins { id 'java' }\n"),
        ("gradlew", "#!/bin/sh\nexec java -jar wrapper.jar \"$@\"\n"),
        ("src/main/java/ex/Parser.java", java),
    ]);
    assert!(gradlew.contains("\"./gradlew test\""), "{gradlew}");
    // uv keeps a project with a `uv.lock` (flask's, pydantic's).
    let py = "[project]\nname = \"web\"\n\n[tool.pytest.ini_options]\ntestpaths = [\"tests\"]\n";
    let code = "def run():\n    return 1\n";
    let uv = commands(&[
        ("pyproject.toml", py),
        ("uv.lock", "version = 1\n"),
        ("web/__init__.py", code),
    ]);
    assert!(uv.contains("\"uv run pytest\""), "{uv}");
    assert!(uv.contains("\"uv sync\""), "{uv}");
    let pip = commands(&[("pyproject.toml", py), ("web/__init__.py", code)]);
    assert!(pip.contains("\"python -m pytest\""), "{pip}");
}

/// A public type in a private inline module is hidden, and so are its public methods: serde's
/// `ContentVisitor::new` made `mod content`'s `ContentVisitor` an exposed line.
#[test]
fn a_public_method_inside_a_private_module_is_hidden() {
    let repo = TestRepo::with_files(&[
        (
            "Cargo.toml",
            "[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        ),
        (
            "src/lib.rs",
            "mod content {\n    pub struct Visitor;\n\n    impl Visitor {\n        pub fn new() -> Visitor {\n            Visitor\n        }\n\n        pub fn visit(&self) {}\n    }\n}\n\npub struct Api;\n\nimpl Api {\n    pub fn call(&self) -> content::Visitor {\n        content::Visitor::new()\n    }\n}\n",
        ),
    ]);
    for i in 0..6 {
        repo.write(
            format!("src/user{i}.rs"),
            "use crate::content::Visitor;\n\npub fn run() {\n    let v = Visitor::new();\n    v.visit();\n}\n",
        );
    }
    repo.commit("users");
    let cue = repo.cue("overview", &["--max-tokens", "3000"]);
    let ids = symbol_ids(&cue);
    let at = |id: &str| ids.iter().position(|i| i == id);
    let visitor = at("symbol:src/lib.rs:content.Visitor").unwrap_or(usize::MAX);
    for exposed in ["symbol:src/lib.rs:Api", "symbol:src/user0.rs:run"] {
        let found = at(exposed).unwrap_or_else(|| panic!("{exposed}: {ids:?}"));
        assert!(found < visitor, "{exposed} after Visitor: {ids:?}");
    }
}

/// A root Makefile that hands what it does not define to another (`.DEFAULT:` then
/// `cd src && $(MAKE) $@`, Redis's) runs that one's targets too: `make test`.
#[test]
fn a_makefiles_default_rule_hands_on_its_delegates_targets() {
    let repo = TestRepo::with_files(&[
        (
            "Makefile",
            "default: all\n\n.DEFAULT:\n\tcd src && $(MAKE) $@\n\ninstall:\n\tcd src && $(MAKE) $@\n\n.PHONY: install\n",
        ),
        (
            "src/Makefile",
            "all: server\n\nserver: server.o\n\tcc -o server server.o\n\ntest: server\n\ttclsh ../tests/run.tcl\n\nclean:\n\trm -f server\n",
        ),
        ("src/server.c", "int main(void)\n{\n\treturn 0;\n}\n"),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let commands: Vec<&str> = cue["content"]["commands"]
        .as_array()
        .unwrap_or_else(|| panic!("{cue:#}"))
        .iter()
        .filter_map(|c| c["command"].as_str())
        .collect();
    assert!(commands.contains(&"make test"), "{commands:?}");
    assert!(commands.contains(&"make install"), "{commands:?}");
}

/// A workspace whose root says nothing of its purpose takes its members', first of the member
/// users install (none of the others depends on it, it depends on the most of them):
/// vuejs/core's was a note of `packages/reactivity/README.md`, not `vue`'s description.
#[test]
fn a_workspaces_purpose_comes_from_the_member_users_install() {
    let repo = TestRepo::with_files(&[
        (
            "package.json",
            "{\"private\":true,\"scripts\":{\"build\":\"node build.js\",\"test\":\"vitest\"}}\n",
        ),
        ("pnpm-workspace.yaml", "packages:\n  - \"packages/*\"\n"),
        (
            "README.md",
            "# org/core\n\n## Getting Started\n\nPlease follow the documentation at [example.org](https://example.org/)!\n",
        ),
        (
            "packages/reactivity/README.md",
            "# @x/reactivity\n\n## Usage Note\n\nThis package is inlined into browser builds, but also published standalone.\n",
        ),
        (
            "packages/reactivity/package.json",
            "{\"name\":\"@x/reactivity\",\"description\":\"@x/reactivity\",\"main\":\"src/index.ts\"}\n",
        ),
        (
            "packages/reactivity/src/index.ts",
            "export function ref(v: unknown) {\n  return { value: v }\n}\n",
        ),
        (
            "packages/vue/package.json",
            "{\"name\":\"vue\",\"description\":\"The progressive JavaScript framework for building modern web UI.\",\"main\":\"src/index.ts\",\"dependencies\":{\"@x/reactivity\":\"workspace:*\"}}\n",
        ),
        (
            "packages/vue/src/index.ts",
            "export { ref } from '@x/reactivity'\n",
        ),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let purpose = &cue["content"]["project"]["purpose"];
    assert_eq!(
        purpose["text"], "The progressive JavaScript framework for building modern web UI.",
        "{cue:#}"
    );
    assert_eq!(purpose["source"], "packages/vue/package.json", "{purpose}");
}

/// A Rust program's `main` is a plain `fn main`: a crate's `pub(crate) fn main(…)` helper
/// (tokio-macros' `entry.rs`) makes no entry point.
#[test]
fn a_rust_helper_named_main_is_no_entry_point() {
    let repo = TestRepo::with_files(&[
        (
            "Cargo.toml",
            "[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        ),
        ("src/lib.rs", "mod entry;\n\npub struct Client;\n"),
        (
            "src/entry.rs",
            "pub(crate) fn main(x: u32) -> u32 {\n    x\n}\n",
        ),
        (
            "src/bin/tool.rs",
            "fn main() {\n    println!(\"tool\");\n}\n",
        ),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let entries = cue["content"]["entry_points"].to_string();
    assert!(!entries.contains("src/entry.rs"), "{entries}");
    assert!(entries.contains("src/bin/tool.rs"), "{entries}");
}

/// A type's members are its public methods: a protected one its code calls most (devise's
/// `resource_class` of `DeviseController`) is not named among them.
#[test]
fn a_protected_method_is_no_member_of_its_type() {
    let mut files: Vec<(String, String)> = vec![
        ("lib/foo.rb".into(), "module Foo\nend\n".into()),
        (
            "lib/foo/widget.rb".into(),
            "module Foo\n  class Widget\n    def render\n      helper\n    end\n\n    protected\n\n    def helper\n      1\n    end\n  end\nend\n".into(),
        ),
    ];
    for i in 0..4 {
        files.push((
            format!("lib/foo/part{i}.rb"),
            format!("module Foo\n  class Part{i} < Widget\n    def run\n      helper\n      helper\n      render\n    end\n  end\nend\n"),
        ));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "3000"]);
    let symbols = cue["content"]["symbols"].as_array().expect("symbols");
    for s in symbols {
        let members = s["members"].to_string();
        assert!(!members.contains("\"helper\""), "{s}");
    }
    assert!(
        symbols.iter().any(|s| s["path"] == "lib/foo/widget.rb"),
        "{cue:#}"
    );
}

/// A Go file built only on request (`//go:build fastlabels`) is a variant: the default build's
/// definitions come first in the overview and in search (Prometheus's opt-in `labels.New` was
/// its first central symbol).
#[test]
fn a_go_variant_built_on_request_comes_after_the_default() {
    let repo = TestRepo::with_files(&[
        ("go.mod", "module example.com/demo\n\ngo 1.22\n"),
        (
            "labels/labels_fast.go",
            "//go:build fastlabels\n\npackage labels\n\ntype Labels struct{ data string }\n\nfunc New(ls ...string) Labels { return Labels{} }\n",
        ),
        (
            "labels/labels_default.go",
            "//go:build !fastlabels\n\npackage labels\n\ntype Labels []string\n\nfunc New(ls ...string) Labels { return Labels(ls) }\n",
        ),
        (
            "main.go",
            "package main\n\nimport \"example.com/demo/labels\"\n\nfunc main() {\n\t_ = labels.New(\"a\")\n}\n",
        ),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let ids = symbol_ids(&cue);
    let at = |id: &str| ids.iter().position(|i| i == id);
    let default = at("symbol:labels/labels_default.go:Labels").unwrap_or_else(|| panic!("{ids:?}"));
    if let Some(variant) = at("symbol:labels/labels_fast.go:Labels") {
        assert!(default < variant, "{ids:?}");
    }
    let hits = repo.json(&["search", "Labels"]);
    assert_eq!(
        hits["content"]["hits"][0]["id"], "symbol:labels/labels_default.go:Labels",
        "{hits:#}"
    );
}

/// An autotools project's own `autogen.sh` bootstraps it: libuv's writes an m4 file its
/// `configure.ac` includes, so `autoreconf -i` alone fails on a fresh checkout.
#[test]
fn an_autotools_project_bootstraps_with_its_autogen_script() {
    let files = [
        ("configure.ac", "AC_INIT([libuv], [1.0])\nAC_PROG_CC\n"),
        ("src/uv.c", "int uv_run(void) { return 0; }\n"),
        ("autogen.sh", "#!/bin/sh\nautoreconf -i\n"),
    ];
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "1000"]);
    assert!(
        commands_of(&cue).contains(&"sh autogen.sh && ./configure && make"),
        "{cue:#}"
    );
    let repo = TestRepo::with_files(&files[..2]);
    let cue = repo.cue("overview", &["--max-tokens", "1000"]);
    assert!(
        commands_of(&cue).contains(&"autoreconf -i && ./configure && make"),
        "{cue:#}"
    );
}

/// In Go a caller names a function with its package (`binding.Default`, `web.Default`): two
/// packages' namesakes are two definitions, and the overview shows both. gin's `Default()`,
/// the constructor every example calls, was left out because `binding.Default` was listed.
#[test]
fn a_go_namesake_in_another_package_is_listed_too() {
    let repo = TestRepo::with_files(&[
        ("go.mod", "module example.com/web\n\ngo 1.22\n"),
        (
            "web.go",
            "package web\n\ntype Engine struct{ Name string }\n\nfunc New() *Engine { return &Engine{} }\n\nfunc Default() *Engine { return New() }\n\nfunc (e *Engine) Run(addr string) error { return nil }\n",
        ),
        (
            "binding/binding.go",
            "package binding\n\ntype Binding interface{ Name() string }\n\nfunc Default(method, contentType string) Binding { return nil }\n",
        ),
        (
            "example_test.go",
            "package web_test\n\nimport \"example.com/web\"\n\nfunc Example() { web.Default().Run(\":8080\") }\n",
        ),
    ]);
    repo.init();
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let ids = symbol_ids(&cue);
    index_in(&ids, "symbol:web.go:Default");
    index_in(&ids, "symbol:binding/binding.go:Default");
}

/// A linter's configuration at the root is its command, after the manifests' own: gin's
/// `.golangci.yml` (its CI runs golangci-lint), guzzle's `phpstan.neon.dist` and
/// `.php-cs-fixer.dist.php`; the same file below the root is some package's business.
#[test]
fn a_linters_configuration_at_the_root_is_a_command() {
    let repo = TestRepo::with_files(&[
        ("go.mod", "module example.com/web\n\ngo 1.22\n"),
        ("web.go", "package web\n\nfunc New() {}\n"),
        (".golangci.yml", "linters:\n  enable:\n    - gofmt\n"),
        ("tools/.pre-commit-config.yaml", "repos: []\n"),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let commands = commands_of(&cue);
    assert_eq!(
        commands,
        ["go build ./...", "go test ./...", "golangci-lint run"],
        "{cue:#}"
    );
    let repo = TestRepo::with_files(&[
        (
            "composer.json",
            "{\"name\": \"acme/http\", \"autoload\": {\"psr-4\": {\"Acme\\\\\": \"src/\"}}}\n",
        ),
        (
            "src/Client.php",
            "<?php\nnamespace Acme;\n\nclass Client {}\n",
        ),
        ("phpunit.xml.dist", "<phpunit/>\n"),
        ("phpstan.neon.dist", "parameters:\n  level: max\n"),
        (".php-cs-fixer.dist.php", "<?php\nreturn [];\n"),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let commands: Vec<String> = commands_of(&cue).into_iter().map(String::from).collect();
    let at = |c: &str| index_in(&commands, c);
    assert!(
        at("vendor/bin/phpunit") < at("vendor/bin/phpstan analyse"),
        "{commands:?}"
    );
    at("vendor/bin/php-cs-fixer fix --dry-run --diff");
}

/// A Python module named with one leading underscore is its package's own: what it defines
/// comes after the public modules' API however much they use it (requests' `_internal_utils`
/// outranked `adapters.py`'s `HTTPAdapter`, which its API documents).
#[test]
fn a_private_python_modules_helpers_come_after_the_public_api() {
    let repo = TestRepo::with_files(&[
        ("pyproject.toml", "[project]\nname = \"mini\"\n"),
        (
            "src/mini/__init__.py",
            "from .api import get\nfrom .sessions import Session\n",
        ),
        (
            "src/mini/api.py",
            "from ._internal_utils import to_native\nfrom .sessions import Session\n\n\ndef get(url):\n    return Session().send(to_native(url))\n",
        ),
        (
            "src/mini/sessions.py",
            "from ._internal_utils import to_native, is_ascii\nfrom .adapters import HTTPAdapter\n\n\nclass Session:\n    def send(self, url):\n        return HTTPAdapter().send(to_native(url)) if is_ascii(url) else url\n",
        ),
        (
            "src/mini/adapters.py",
            "from ._internal_utils import to_native\n\n\nclass HTTPAdapter:\n    def send(self, url):\n        return to_native(url)\n",
        ),
        (
            "src/mini/_internal_utils.py",
            "def to_native(s):\n    return s\n\n\ndef is_ascii(s):\n    return s.isascii()\n",
        ),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    assert_listed_before(
        &cue,
        "symbol:src/mini/adapters.py:HTTPAdapter",
        "symbol:src/mini/_internal_utils.py:to_native",
    );
}

/// A Go module's `internal/` is kept from its users by the compiler: it comes after the
/// module's public packages however much the root package imports it, and its subpackages
/// are not listed as the leading package's (gin's `internal/`, `internal/bytesconv/` and
/// `internal/fs/` came before `binding/`).
#[test]
fn a_go_modules_internal_packages_come_after_its_public_ones() {
    let mut files: Vec<(String, String)> = vec![
        (
            "go.mod".into(),
            "module example.com/web\n\ngo 1.22\n".into(),
        ),
        (
            "internal/bytesconv/bytesconv.go".into(),
            "package bytesconv\n\nfunc S(b []byte) string { return string(b) }\n".into(),
        ),
        (
            "internal/fs/fs.go".into(),
            "package fs\n\ntype FS struct{}\n".into(),
        ),
    ];
    for n in ["A", "B", "C", "D"] {
        files.push((
            format!("{}.go", n.to_lowercase()),
            format!("package web\n\nimport (\n\t\"example.com/web/binding\"\n\t\"example.com/web/internal/bytesconv\"\n\t\"example.com/web/internal/fs\"\n)\n\nvar _ fs.FS\n\nfunc {n}() {{ binding.B0(); _ = bytesconv.S(nil) }}\n"),
        ));
    }
    for i in 0..12 {
        files.push((
            format!("binding/b{i}.go"),
            format!("package binding\n\nfunc B{i}() {{}}\n"),
        ));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "1000"]);
    let paths = component_paths(&cue);
    let at = |p: &str| {
        paths
            .iter()
            .position(|x| *x == p)
            .unwrap_or_else(|| panic!("{p} missing from {paths:?}"))
    };
    assert!(at("binding/") < at("internal/"), "{paths:?}");
    assert!(at("./") < at("internal/"), "{paths:?}");
    assert!(!paths.contains(&"internal/fs/"), "{paths:?}");
}

/// A workspace package whose manifest names its build output (`"main": "./dist/index.js"`,
/// or zod's `./index.cjs` built beside it) is entered at the source it is built from: the
/// overview listed no entry point (`lib` of `packages/lib/dist/` was read as the build
/// directory), and the package's `src/index.ts` was dropped as an undeclared index.
#[test]
fn a_workspace_packages_built_entry_point_is_its_source() {
    for main in ["./dist/index.js", "./index.cjs"] {
        let manifest = format!("{{ \"name\": \"lib\", \"main\": \"{main}\" }}");
        let repo = TestRepo::with_files(&[
            ("package.json", "{ \"private\": true }"),
            ("pnpm-workspace.yaml", "packages:\n  - packages/*\n"),
            ("pnpm-lock.yaml", ""),
            ("packages/lib/package.json", manifest.as_str()),
            (
                "packages/lib/src/index.ts",
                "export * from \"./schemas.js\";\n",
            ),
            (
                "packages/lib/src/schemas.ts",
                "export function object(shape: object) { return shape; }\n",
            ),
            (
                "packages/app/package.json",
                "{ \"name\": \"app\", \"private\": true }",
            ),
            (
                "packages/app/src/main.ts",
                "import { object } from \"lib\";\nexport const s = object({});\n",
            ),
        ]);
        let cue = repo.cue("overview", &["--max-tokens", "1000"]);
        let entries = cue["content"]["entry_points"].to_string();
        assert!(
            entries.contains("packages/lib/src/index.ts"),
            "{main}: {cue:#}"
        );
    }
}

/// The maintainers' scripts in a top directory of tools (`support/`, `scripts/`) are no part
/// of the API, whatever their language: fmt's `support/` Python scripts outnumber its headers,
/// and their `main()`, `args = …` and `path = …` took three of its five overview symbols.
#[test]
fn the_maintainers_scripts_are_no_part_of_the_api() {
    let mut files: Vec<(String, String)> = vec![
        (
            "CMakeLists.txt".into(),
            "project(mini CXX)\nadd_library(mini src/mini.cc)\n".into(),
        ),
        (
            "include/mini/mini.h".into(),
            "namespace mini {\nint format(int v);\nvoid print(int v);\n}\n".into(),
        ),
        (
            "src/mini.cc".into(),
            "#include \"mini/mini.h\"\nnamespace mini {\nint format(int v) { return v; }\nvoid print(int v) { format(v); }\n}\n".into(),
        ),
    ];
    for i in 0..6 {
        files.push((
            format!("support/tool{i}.py"),
            format!("import sys\n\npath = sys.argv[1]\n\n\ndef main{i}():\n    return path\n"),
        ));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let ids = symbol_ids(&cue);
    assert!(
        ids.iter().all(|id| !id.starts_with("symbol:support/")),
        "{ids:?}"
    );
    index_in(&ids, "symbol:include/mini/mini.h:mini.format");
    // A documentation directory may be a package of code: cobra's Go package `doc/` is API.
    let repo = TestRepo::with_files(&[
        (
            "go.mod",
            "module example.com/cli

go 1.22
",
        ),
        (
            "command.go",
            "package cli

type Command struct{}
",
        ),
        (
            "doc/md_docs.go",
            "package doc

import \"example.com/cli\"

func GenMarkdownTree(c *cli.Command) error { return nil }
",
        ),
        (
            "tools/gen.go",
            "package main

func Generate() {}

func main() { Generate() }
",
        ),
    ]);
    let ids = symbol_ids(&repo.cue("overview", &["--max-tokens", "2000"]));
    index_in(&ids, "symbol:doc/md_docs.go:GenMarkdownTree");
    assert!(
        !ids.iter().any(|id| id.starts_with("symbol:tools/")),
        "{ids:?}"
    );
}

/// Without a lock file, the root package.json's `packageManager` says who runs the scripts
/// (zod's `pnpm@…`, whose commands read `npm run build`); a lock file says it first.
#[test]
fn the_declared_package_manager_runs_the_scripts() {
    let manifest = "{ \"name\": \"lib\", \"packageManager\": \"pnpm@9.15.0\", \"scripts\": { \"build\": \"tsc\", \"test\": \"vitest run\" }, \"devDependencies\": { \"vitest\": \"1\" } }";
    let repo = TestRepo::with_files(&[
        ("package.json", manifest),
        ("src/index.ts", "export const a = 1;\n"),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let commands = commands_of(&cue);
    assert!(commands.contains(&"pnpm test"), "{commands:?}");
    assert!(commands.contains(&"pnpm run build"), "{commands:?}");
    assert!(
        !commands.iter().any(|c| c.starts_with("npm ")),
        "{commands:?}"
    );
    let repo = TestRepo::with_files(&[
        ("package.json", manifest),
        ("yarn.lock", ""),
        ("src/index.ts", "export const a = 1;\n"),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    assert!(commands_of(&cue).contains(&"yarn test"), "{cue:#}");
}

/// A documentation directory with a script among its pages is in the language of its pages
/// (fmt's `doc/`: five Markdown pages and `fmt.js` read `doc/ 7 JavaScript`).
#[test]
fn a_docs_directorys_script_does_not_name_its_language() {
    let mut files: Vec<(String, String)> = vec![
        (
            "CMakeLists.txt".into(),
            "project(m CXX)\nadd_library(m src/m.cc)\n".into(),
        ),
        ("include/m.h".into(), "namespace m { int f(); }\n".into()),
        ("src/m.cc".into(), "int f() { return 1; }\n".into()),
        ("doc/fmt.js".into(), "document.title = 'x';\n".into()),
        ("doc/fmt.css".into(), "body { color: black; }\n".into()),
    ];
    for p in ["index", "api", "syntax", "get-started", "changelog"] {
        files.push((format!("doc/{p}.md"), format!("# {p}\n\nText.\n")));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let doc = cue["content"]["components"]
        .as_array()
        .expect("components")
        .iter()
        .find(|c| c["path"] == "doc/")
        .unwrap_or_else(|| panic!("no doc/: {cue:#}"));
    assert_eq!(doc["language"], "Markdown", "{cue:#}");
}

/// A Go module's root package counts its tests as any directory does: gin read `./ 3 Go`
/// (its `_test.go` files left out) beside `render/ 6 Go` (with them).
#[test]
fn a_go_root_package_counts_its_files_as_a_directory_does() {
    let repo = TestRepo::with_files(&[
        ("go.mod", "module example.com/web\n\ngo 1.22\n"),
        ("web.go", "package web\n\nfunc New() {}\n"),
        ("context.go", "package web\n\nfunc Bind() { New() }\n"),
        (
            "web_test.go",
            "package web\n\nimport \"testing\"\n\nfunc TestNew(t *testing.T) { New() }\n",
        ),
        ("render/json.go", "package render\n\nfunc JSON() {}\n"),
        (
            "render/json_test.go",
            "package render\n\nimport \"testing\"\n\nfunc TestJSON(t *testing.T) { JSON() }\n",
        ),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let files = |path: &str| {
        cue["content"]["components"]
            .as_array()
            .expect("components")
            .iter()
            .find(|c| c["path"] == path)
            .map(|c| c["files"].clone())
            .unwrap_or_else(|| panic!("no {path}: {cue:#}"))
    };
    assert_eq!(files("./"), 3, "{cue:#}");
    assert_eq!(files("render/"), 2, "{cue:#}");
}

/// A CMake project's configure-and-build command is CI's when its workflows run each step,
/// with options of their own (nlohmann/json's `cmake -S . -B build -D…` and `cmake --build
/// build --target …`): the overview listed it without `[ci]`.
#[test]
fn a_command_whose_every_step_ci_runs_is_cis() {
    let repo = TestRepo::with_files(&[
        (
            "CMakeLists.txt",
            "cmake_minimum_required(VERSION 3.5)\nproject(foo CXX)\nadd_library(foo src/foo.cpp)\n",
        ),
        ("src/foo.cpp", "int foo() { return 1; }\n"),
        (
            ".github/workflows/ubuntu.yml",
            "name: Ubuntu\non: [push]\njobs:\n  gcc:\n    runs-on: ubuntu-latest\n    steps:\n      - run: cmake -S . -B build -DFOO_CI=On\n      - run: cmake --build build --target ci_test_gcc\n",
        ),
    ]);
    let cue = repo.cue("overview", &["--max-tokens", "2000"]);
    let build = cue["content"]["commands"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["command"] == "cmake -B build && cmake --build build")
        .unwrap_or_else(|| panic!("{cue:#}"));
    assert_eq!(build["ci"], true, "{cue:#}");
}
