//! Code-structure cases: symbol and import deltas, incremental analysis, and the structure,
//! entity and overview views over extracted symbols (docs/cues.md).

use repocue::api::Measure;
use serde_json::{json, Value};

use crate::support::{tokens, TestRepo};

/// A marker placed in comments and docstrings: no cue may ever copy it.
const MARK: &str = "MARKER_NEVER_COPIED";

/// Returns the sorted (op, entity, import) triples of the `symbol.*` and `import.*`
/// operations; the import name tells apart several import operations on one file.
fn structural_ops(ops: &[Value]) -> Vec<(String, String, String)> {
    let mut out: Vec<(String, String, String)> = ops
        .iter()
        .filter_map(|o| {
            let op = o["op"].as_str()?;
            if !(op.starts_with("symbol.") || op.starts_with("import.")) {
                return None;
            }
            let import = o["after"]["import"]
                .as_str()
                .or_else(|| o["before"]["import"].as_str())
                .unwrap_or("");
            Some((
                op.to_owned(),
                o["entity"].as_str()?.to_owned(),
                import.to_owned(),
            ))
        })
        .collect();
    out.sort();
    out
}

fn triple(op: &str, entity: &str, import: &str) -> (String, String, String) {
    (op.to_owned(), entity.to_owned(), import.to_owned())
}

#[test]
fn refresh_records_symbol_and_import_operations() {
    let repo = TestRepo::with_files(&[
        (
            "src/lib.rs",
            "use std::collections::HashMap;\nuse std::fmt;\n\n\
             pub fn parse_config(s: &str) -> u32 {\n    s.len() as u32\n}\n\n\
             pub fn old_helper() -> bool {\n    true\n}\n\n\
             pub fn to_move(x: i32) -> i32 {\n    x + 1\n}\n",
        ),
        ("src/other.rs", "pub fn other() -> u8 {\n    0\n}\n"),
        (
            "src/util.py",
            "import os\nimport sys\n\n\nclass Loader:\n    def load(self, path):\n        \
             return os.path.exists(path)\n\n\nclass Legacy:\n    pass\n\n\n\
             def keep(a):\n    return a\n\n\ndef drop_me():\n    return 1\n",
        ),
    ]);
    repo.init();
    // One signature change, a function and a struct added, a function and a class removed,
    // one import added and one removed per file, and `to_move` moved unchanged to other.rs.
    repo.write(
        "src/lib.rs",
        "use std::collections::HashMap;\nuse std::io;\n\n\
         pub fn parse_config(s: &str, strict: bool) -> u32 {\n    s.len() as u32\n}\n\n\
         pub fn new_helper() -> bool {\n    true\n}\n\n\
         pub struct Config {\n    pub name: String,\n}\n",
    );
    repo.write(
        "src/other.rs",
        "pub fn other() -> u8 {\n    0\n}\n\npub fn to_move(x: i32) -> i32 {\n    x + 1\n}\n",
    );
    repo.write(
        "src/util.py",
        "import os\nimport json\n\n\nclass Loader:\n    def load(self, path):\n        \
         return os.path.exists(path)\n\n\ndef keep(a):\n    return a\n",
    );
    repo.commit("restructure");
    let r = repo.refresh();
    assert_eq!(r.snapshot, "snapshot-000002");
    assert_eq!(r.changes.structural, 12, "{:?}", r.changes);

    let cue = repo.cue("delta", &["--max-tokens", "4000", "--provenance"]);
    assert_eq!(cue["content"]["from"], "snapshot-000001");
    let ops = cue["content"]["operations"].as_array().expect("operations");
    let mut expected = vec![
        triple(
            "symbol.signature_changed",
            "symbol:src/lib.rs:parse_config",
            "",
        ),
        triple("symbol.added", "symbol:src/lib.rs:new_helper", ""),
        triple("symbol.added", "symbol:src/lib.rs:Config", ""),
        triple("symbol.added", "symbol:src/lib.rs:Config.name", ""),
        triple("symbol.removed", "symbol:src/lib.rs:old_helper", ""),
        triple("symbol.removed", "symbol:src/util.py:Legacy", ""),
        triple("symbol.removed", "symbol:src/util.py:drop_me", ""),
        triple("symbol.moved", "symbol:src/other.rs:to_move", ""),
        triple("import.added", "file:src/lib.rs", "std::io"),
        triple("import.removed", "file:src/lib.rs", "std::fmt"),
        triple("import.added", "file:src/util.py", "json"),
        triple("import.removed", "file:src/util.py", "sys"),
    ];
    expected.sort();
    assert_eq!(structural_ops(ops), expected, "{cue:#}");

    let find = |op: &str, entity: &str| {
        ops.iter()
            .find(|o| o["op"] == op && o["entity"] == entity)
            .unwrap_or_else(|| panic!("no {op} on {entity}: {cue:#}"))
    };
    let sig = find("symbol.signature_changed", "symbol:src/lib.rs:parse_config");
    assert_eq!(
        sig["before"]["signature"],
        "pub fn parse_config(s: &str) -> u32"
    );
    assert_eq!(
        sig["after"]["signature"],
        "pub fn parse_config(s: &str, strict: bool) -> u32"
    );
    assert_eq!(sig["after"]["kind"], "function");
    let moved = find("symbol.moved", "symbol:src/other.rs:to_move");
    assert_eq!(moved["before"]["id"], "symbol:src/lib.rs:to_move");
    assert_eq!(moved["before"]["path"], "src/lib.rs");
    assert_eq!(moved["after"]["path"], "src/other.rs");
    let added = find("symbol.added", "symbol:src/lib.rs:Config");
    assert_eq!(added["after"]["kind"], "struct");
    assert_eq!(added["after"]["signature"], "pub struct Config");
    let removed = find("symbol.removed", "symbol:src/util.py:Legacy");
    assert_eq!(removed["before"]["kind"], "class");
    assert!(removed.get("after").is_none(), "{removed}");

    // File operations rank before symbol operations.
    let first_symbol = ops
        .iter()
        .position(|o| o["op"].as_str().is_some_and(|s| s.starts_with("symbol.")));
    let last_file = ops
        .iter()
        .rposition(|o| o["op"] == "file.content_changed" || o["op"] == "repository.head_changed");
    assert!(first_symbol > last_file, "{cue:#}");
}

#[test]
fn refresh_analyzes_only_the_edited_file() {
    let files: Vec<(String, String)> = (1..=5)
        .map(|i| {
            (
                format!("src/m{i}.py"),
                format!("def f{i}():\n    return {i}\n"),
            )
        })
        .collect();
    let repo = TestRepo::with_files(&files);
    let init = repo.init();
    assert_eq!((init.files_scanned, init.files_analyzed), (5, 5));

    repo.write("src/m3.py", "def f3():\n    return 33\n");
    let r = repo.refresh();
    assert!(r.published);
    assert_eq!((r.files_scanned, r.files_analyzed), (1, 1), "{r:?}");
    let last = repo
        .metrics()
        .operations
        .last()
        .cloned()
        .expect("an operation");
    assert_eq!(last.kind, "refresh");
    assert_eq!(last.snapshot.as_deref(), Some(r.snapshot.as_str()));
    assert_eq!(last.files_scanned, Measure::Observed(1.0));
    assert_eq!(last.files_analyzed, Measure::Observed(1.0));
    assert_eq!(last.changed_files, Measure::Observed(1.0));

    let noop = repo.refresh();
    assert!(!noop.published);
    assert_eq!(
        (noop.files_scanned, noop.files_analyzed),
        (0, 0),
        "{noop:?}"
    );
    let last = repo
        .metrics()
        .operations
        .last()
        .cloned()
        .expect("an operation");
    assert_eq!(last.files_analyzed, Measure::Observed(0.0));

    // Content seen before is hashed again but never re-analyzed: facts are kept per digest.
    repo.write("src/m3.py", "def f3():\n    return 3\n");
    let back = repo.refresh();
    assert!(back.published);
    assert_eq!(
        (back.files_scanned, back.files_analyzed),
        (1, 0),
        "{back:?}"
    );
}

/// A small Python project: `core.py` defines `parse` (called by three modules) and a class
/// whose method `driver.py` calls; `lonely.py` is referenced by nobody; `tools/` lies outside
/// `src/`. Comments and docstrings carry [`MARK`].
fn code_project() -> TestRepo {
    let mut files: Vec<(String, String)> = vec![
        (
            "src/core.py".into(),
            format!(
                "# {MARK} comment\ndef parse(text):\n    \"\"\"{MARK} docstring.\"\"\"\n    \
                 return text.split()\n\n\nclass Parser:\n    \"\"\"{MARK} class docstring.\"\"\"\n\n    \
                 def run(self, text):\n        return parse(text)\n"
            ),
        ),
        (
            "src/driver.py".into(),
            "from core import Parser\n\n\ndef go(t):\n    return Parser().run(t)\n".into(),
        ),
        (
            "src/lonely.py".into(),
            format!("def lonely():\n    # {MARK}\n    return 0\n"),
        ),
        ("tools/tool.py".into(), "def tool():\n    return 1\n".into()),
        ("README.md".into(), "# Demo\n\nDemo parses text.\n".into()),
    ];
    for m in ["a", "b", "c"] {
        files.push((
            format!("src/use_{m}.py"),
            format!("from core import parse\n\n\ndef use_{m}(t):\n    return parse(t)\n"),
        ));
    }
    let repo = TestRepo::with_files(&files);
    repo.init();
    repo
}

fn paths_of(list: &Value, key: &str) -> Vec<String> {
    list.as_array()
        .expect("array")
        .iter()
        .map(|e| e[key].as_str().expect("string").to_owned())
        .collect()
}

/// Past its first eight files, a structure cue lists a further file with every fourth symbol:
/// a budget that holds a good part of the symbols holds every file's line, where files came
/// only once every symbol had (fastapi's listed 8 of 56 files at 6,000 tokens).
#[test]
fn structure_files_come_with_the_symbols_not_after_them() {
    let mut files: Vec<(String, String)> = Vec::new();
    for m in 0..20 {
        let body: String = (0..20)
            .map(|k| format!("def helper_{m}_{k}(value: int = {k}) -> None:\n    return None\n\n"))
            .collect();
        files.push((format!("pkg/mod_{m:02}.py"), body));
    }
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("structure", &["--path", "pkg", "--max-tokens", "3000"]);
    let c = &cue["content"];
    let listed = c["files"].as_array().unwrap().len();
    let symbols = c["symbols"].as_array().unwrap().len();
    assert!(
        symbols < 400,
        "the budget holds a part of the symbols: {symbols}"
    );
    assert_eq!(listed, 20, "{c:#}");
}

#[test]
fn structure_view_ranks_referenced_files_under_the_path() {
    let repo = code_project();
    let args = [
        "cue",
        "--view",
        "structure",
        "--path",
        "src/",
        "--max-tokens",
        "4000",
        "--no-refresh",
    ];
    let ran = repo.repocue(&args);
    assert!(!ran.stdout().contains(MARK), "{}", ran.stdout());
    let cue = ran.json();
    let c = &cue["content"];
    assert_eq!(c["path"], "src", "normalised");
    assert_eq!(c["files_total"], 6);
    assert_eq!(c["code_files"], 6);
    let files = paths_of(&c["files"], "path");
    assert_eq!(files.len(), 6, "{cue:#}");
    assert!(files.iter().all(|p| p.starts_with("src/")), "{files:?}");
    assert_eq!(files[0], "src/core.py", "the most referenced file first");
    let pos = |p: &str| files.iter().position(|f| f == p).expect(p);
    assert!(pos("src/core.py") < pos("src/lonely.py"), "{files:?}");
    let symbols = c["symbols"].as_array().expect("symbols");
    assert!(symbols
        .iter()
        .all(|s| s["path"].as_str().unwrap().starts_with("src/")));
    let parse = symbols
        .iter()
        .find(|s| crate::support::symbol_id(s) == "symbol:src/core.py:parse")
        .unwrap_or_else(|| panic!("parse is listed: {cue:#}"));
    assert_eq!(
        parse,
        &json!({"path": "src/core.py", "name": "parse",
                "signature": "def parse(text)", "line": 2})
    );
    let run = symbols
        .iter()
        .find(|s| crate::support::symbol_id(s) == "symbol:src/core.py:Parser.run")
        .unwrap_or_else(|| panic!("Parser.run is listed: {cue:#}"));
    assert_eq!(run["signature"], "def run(self, text)");
    // The same view over the whole repository includes tools/.
    let all = repo.cue("structure", &["--max-tokens", "4000", "--no-refresh"]);
    assert!(paths_of(&all["content"]["files"], "path").contains(&"tools/tool.py".to_owned()));
}

/// A structure cue of one file lists every symbol the budget holds, and counts the rest:
/// fmt's `format.h` showed 12 of its 200 symbols at any budget, with no sign of the others.
#[test]
fn structure_view_of_a_file_lists_all_its_symbols() {
    let module: String = (0..40)
        .map(|i| format!("def function_{i:02}(x):\n    return x\n\n\n"))
        .collect();
    let repo = TestRepo::with_files(&[
        ("src/big.py", module.as_str()),
        ("src/other.py", "def o():\n    pass\n"),
    ]);
    let names = |cue: &Value| -> Vec<String> {
        cue["content"]["symbols"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["name"].as_str().unwrap().to_owned())
            .collect()
    };
    let full = repo.cue(
        "structure",
        &["--path", "src/big.py", "--max-tokens", "4000"],
    );
    let mut listed = names(&full);
    listed.sort();
    let all: Vec<String> = (0..40).map(|i| format!("function_{i:02}")).collect();
    assert_eq!(listed, all, "{full:#}");
    assert!(full.get("omitted").is_none(), "{full:#}");
    let tight = repo.cue(
        "structure",
        &[
            "--path",
            "src/big.py",
            "--max-tokens",
            "300",
            "--no-refresh",
        ],
    );
    let shown = names(&tight).len() as u64;
    assert!(shown < 40, "{tight:#}");
    assert_eq!(tight["omitted"].as_u64(), Some(40 - shown), "{tight:#}");
    assert_eq!(tight["more"][0]["path"], "src/big.py");
    // Over the directory, the other file's symbol is listed before most of `big.py`'s.
    let dir = repo.cue(
        "structure",
        &["--path", "src/", "--max-tokens", "4000", "--no-refresh"],
    );
    let order = names(&dir);
    assert_eq!(order.len(), 41, "{dir:#}");
    let at = order.iter().position(|n| n == "o").unwrap();
    assert!(at < 10, "{order:?}");
}

#[test]
fn structure_view_fits_its_budget_and_counts_omissions() {
    let repo = code_project();
    let full = repo.cue(
        "structure",
        &["--path", "src/", "--max-tokens", "4000", "--no-refresh"],
    );
    let n = |c: &Value| {
        c["content"]["files"].as_array().unwrap().len()
            + c["content"]["symbols"].as_array().unwrap().len()
    };
    let all_items = n(&full);
    let mut omitted_somewhere = false;
    for max in [120u64, 200, 260, 350, 500, 1000] {
        let m = max.to_string();
        let ran = repo.repocue(&[
            "cue",
            "--view",
            "structure",
            "--path",
            "src/",
            "--max-tokens",
            &m,
            "--no-refresh",
        ]);
        if ran.code() != Some(0) {
            let e = ran.error_code("budget_too_small");
            assert!(max < 300, "failed at {max}: {e:?}");
            continue;
        }
        let out = ran.stdout();
        assert!(!out.contains(MARK));
        let json = out.trim_end_matches('\n');
        let cue: Value = serde_json::from_str(json).unwrap();
        let est = tokens(json);
        assert!(est <= max, "{est} > {max}");
        let shown = n(&cue);
        match cue.get("omitted").and_then(Value::as_u64) {
            Some(count) => {
                omitted_somewhere = true;
                assert_eq!(shown as u64 + count, all_items as u64, "{cue:#}");
                let more = &cue["more"][0];
                assert_eq!(more["view"], "structure");
                assert_eq!(more["path"], "src");
                assert!(more["max_tokens"].as_u64().unwrap() > max);
            }
            None => assert_eq!(shown, all_items, "{cue:#}"),
        }
        if let Some(first) = cue["content"]["files"].as_array().unwrap().first() {
            assert_eq!(
                first["path"], "src/core.py",
                "rank order survives the budget"
            );
        }
    }
    assert!(
        omitted_somewhere,
        "no budget was tight enough to omit items"
    );
}

#[test]
fn structure_path_names_a_directory_not_a_name_prefix() {
    let repo = TestRepo::with_files(&[
        ("src/a.py", "def a():\n    pass\n"),
        ("src2/b.py", "def b():\n    pass\n"),
        ("srcgen.py", "def c():\n    pass\n"),
    ]);
    let cue = repo.cue("structure", &["--path", "src", "--max-tokens", "2000"]);
    assert_eq!(cue["content"]["files_total"], 1, "{cue:#}");
    assert_eq!(paths_of(&cue["content"]["files"], "path"), ["src/a.py"]);
}

/// A field of a source file's own struct is reached through that struct: a name sixty other
/// files use as a field of their own and thirty documents show (`name`) does not rank it above
/// the struct, nor make those documents its documentation (git's `builtin/cat-file.c` listed
/// ten such fields before anything but its command, `parse_cmd.name` twenty documents).
#[test]
fn a_field_ranks_by_its_struct_not_by_its_bare_name() {
    let mut files: Vec<(String, String)> = vec![
        (
            "thing.h".into(),
            "struct thing {\n\tconst char *name;\n};\nint run_tool(int argc);\n".into(),
        ),
        (
            "tool.c".into(),
            "#include \"thing.h\"\n\nstruct queued {\n\tconst char *name;\n\tint size;\n};\n\n\
             struct listed {\n\tconst char *name;\n};\n\n\
             static int helper(struct queued *q)\n{\n\treturn q->size;\n}\n\n\
             int run_tool(int argc)\n{\n\tstruct queued q = { 0 };\n\treturn helper(&q) + argc;\n}\n"
                .into(),
        ),
        (
            "main.c".into(),
            "#include \"thing.h\"\n\nint main(int argc, char **argv)\n{\n\treturn run_tool(argc);\n}\n"
                .into(),
        ),
    ];
    for i in 0..60 {
        files.push((
            format!("user{i}.c"),
            format!(
                "#include \"thing.h\"\n\nconst char *user{i}(struct thing *t)\n{{\n\treturn t->name;\n}}\n"
            ),
        ));
    }
    // Documents that show some `name` as code, and one that explains `listed` and its `name`.
    for i in 0..30 {
        files.push((
            format!("docs/note{i}.md"),
            format!("# Note {i}\n\nSet `name` first.\n"),
        ));
    }
    files.push((
        "docs/listed.md".into(),
        "# Listed\n\nEach `listed` entry has a `name`.\n".into(),
    ));
    let repo = TestRepo::with_files(&files);
    let cue = repo.cue("structure", &["--path", "tool.c", "--max-tokens", "2000"]);
    let names: Vec<&str> = cue["content"]["symbols"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    let at = |n: &str| {
        names
            .iter()
            .position(|x| *x == n)
            .unwrap_or_else(|| panic!("{n} in {names:?}"))
    };
    assert!(at("run_tool") < at("queued.name"), "{names:?}");
    assert!(at("queued") < at("queued.name"), "{names:?}");
    // A field is documented by the documents that name its struct too, and by no other.
    let documented_by = |id: &str| {
        let entity = repo.cue("entity", &["--id", id, "--max-tokens", "2000"]);
        entity["content"]["documented_by"].clone()
    };
    assert_eq!(
        documented_by("symbol:tool.c:listed.name"),
        json!(["docs/listed.md"])
    );
    assert_eq!(documented_by("symbol:tool.c:queued.name"), json!([]));
}

#[test]
fn entity_view_describes_symbols_and_files() {
    let repo = code_project();
    let entity = |id: &str| repo.cue("entity", &["--id", id, "--no-refresh"]);

    let run = entity("symbol:src/core.py:Parser.run");
    let c = &run["content"];
    assert_eq!(c["entity_type"], "symbol");
    assert_eq!(c["path"], "src/core.py");
    assert_eq!(c["kind"], "method");
    assert_eq!(c["signature"], "def run(self, text)");
    assert_eq!(c["lines"], json!([10, 11]));
    assert_eq!(c["parent"], "symbol:src/core.py:Parser");
    assert_eq!(c["referenced_by"], json!(["src/driver.py"]));

    let parse = entity("symbol:src/core.py:parse");
    assert_eq!(parse["content"]["lines"], json!([2, 4]));
    assert!(parse["content"].get("parent").is_none(), "{parse:#}");
    assert_eq!(
        parse["content"]["referenced_by"],
        json!(["src/use_a.py", "src/use_b.py", "src/use_c.py"])
    );

    let class = entity("symbol:src/core.py:Parser");
    assert_eq!(class["content"]["kind"], "class");
    assert_eq!(
        class["content"]["children"],
        json!(["symbol:src/core.py:Parser.run"])
    );

    let file = entity("file:src/core.py");
    let c = &file["content"];
    assert_eq!(c["entity_type"], "file");
    assert_eq!(c["kind"], "Python");
    assert_eq!(
        c["children"],
        json!(["symbol:src/core.py:parse", "symbol:src/core.py:Parser"])
    );
    let driver = entity("file:src/driver.py");
    assert_eq!(driver["content"]["imports"], json!(["core"]));
    for cue in [&run, &parse, &class, &file] {
        assert!(!cue.to_string().contains(MARK), "{cue:#}");
    }

    for id in [
        "symbol:src/core.py:nope",
        "symbol:src/nope.py:parse",
        "file:src/nope.py",
    ] {
        let e = repo
            .repocue(&["cue", "--view", "entity", "--id", id, "--no-refresh"])
            .error_code("not_found");
        assert!(e.error.message.contains(id), "{e:?}");
    }
    for id in ["bogus", "src/core.py", "sym:src/core.py:parse", ""] {
        repo.repocue(&["cue", "--view", "entity", "--id", id, "--no-refresh"])
            .error_code("invalid_argument");
    }
    repo.repocue(&["cue", "--view", "entity", "--no-refresh"])
        .error_code("invalid_argument");
}

/// The `referenced_by` of an entity, read without a refresh.
fn referenced_by(repo: &TestRepo, id: &str) -> Value {
    repo.cue("entity", &["--id", id, "--no-refresh"])["content"]["referenced_by"].clone()
}

#[test]
fn a_symbol_is_referenced_by_the_files_whose_imports_can_mean_it() {
    // Two modules define `parse`. A file that imports one of them means that one; a Python
    // file that imports neither means neither: a name on its own comes from an import.
    let repo = TestRepo::with_files(&[
        ("pkg/__init__.py", ""),
        ("pkg/jsonish.py", "def parse(text):\n    return text\n"),
        ("pkg/yamlish.py", "def parse(text):\n    return [text]\n"),
        (
            "pkg/use_json.py",
            "from pkg.jsonish import parse\n\n\ndef load(t):\n    return parse(t)\n",
        ),
        (
            "pkg/use_yaml.py",
            "from pkg.yamlish import parse\n\n\ndef load(t):\n    return parse(t)\n",
        ),
        (
            "pkg/either.py",
            "import os\n\n\ndef load(t):\n    return parse(t)\n",
        ),
    ]);
    repo.init();
    let referenced_by = |id: &str| referenced_by(&repo, id);
    assert_eq!(
        referenced_by("symbol:pkg/jsonish.py:parse"),
        json!(["pkg/use_json.py"])
    );
    assert_eq!(
        referenced_by("symbol:pkg/yamlish.py:parse"),
        json!(["pkg/use_yaml.py"])
    );
}

/// Go: a name means its own package's definition, and one a package qualifies (`lib.Fs`) the
/// imported package's, even in a file that defines its own: afero's `tarfs.Fs` listed every
/// root file, and the root's `Fs` missed `zipfs/fs.go`, which implements `afero.Fs`.
#[test]
fn a_go_name_means_its_own_package_or_the_one_that_qualifies_it() {
    let repo = TestRepo::with_files(&[
        ("go.mod", "module example.com/lib\n\ngo 1.22\n"),
        (
            "fs.go",
            "package lib\n\n// Fs is a file system.\ntype Fs interface {\n\tName() string\n}\n",
        ),
        (
            "util.go",
            "package lib\n\nfunc Walk(fs Fs) string { return fs.Name() }\n",
        ),
        (
            "sub/fs.go",
            "package sub\n\nimport \"example.com/lib\"\n\n// Fs wraps another.\ntype Fs struct {\n\tsource lib.Fs\n}\n\nfunc (f *Fs) Name() string { return \"sub\" }\n",
        ),
        (
            "sub/file.go",
            "package sub\n\nfunc Open(f *Fs) string { return f.Name() }\n",
        ),
    ]);
    repo.init();
    let referenced_by = |id: &str| referenced_by(&repo, id);
    assert_eq!(
        referenced_by("symbol:fs.go:Fs"),
        json!(["sub/fs.go", "util.go"])
    );
    assert_eq!(referenced_by("symbol:sub/fs.go:Fs"), json!(["sub/file.go"]));
}

#[test]
fn file_entity_lists_its_users_and_what_it_references() {
    let repo = code_project();
    let cue = repo.cue("entity", &["--id", "file:src/use_a.py", "--no-refresh"]);
    assert_eq!(
        cue["content"]["references"],
        json!(["src/core.py"]),
        "{cue:#}"
    );
    assert_eq!(
        cue["content"]["referenced_by"],
        json!([]),
        "no file calls use_a"
    );
    // The files that use what core.py defines are its users; it references nothing of
    // another file, so it has no `references`.
    let core = repo.cue("entity", &["--id", "file:src/core.py", "--no-refresh"]);
    assert_eq!(
        core["content"]["referenced_by"],
        json!([
            "src/driver.py",
            "src/use_a.py",
            "src/use_b.py",
            "src/use_c.py"
        ]),
        "{core:#}"
    );
    assert!(core["content"].get("references").is_none(), "{core:#}");
}

#[test]
fn a_file_entity_in_text_writes_its_childrens_common_id_once() {
    let repo = code_project();
    let args = [
        "cue",
        "--view",
        "entity",
        "--id",
        "file:src/core.py",
        "--no-refresh",
    ];
    let json = repo.cue("entity", &["--id", "file:src/core.py", "--no-refresh"]);
    assert_eq!(
        json["content"]["children"],
        json!(["symbol:src/core.py:parse", "symbol:src/core.py:Parser"]),
        "the JSON keeps whole ids"
    );
    let mut text_args = args.to_vec();
    text_args.extend(["--format", "text"]);
    let text = repo.repocue(&text_args).success().stdout();
    assert!(
        text.contains("\nchildren: symbol:src/core.py:{parse, Parser}\n"),
        "{text}"
    );
    // A class's children are its methods, ids of the same file.
    let class = repo
        .repocue(&[
            "cue",
            "--view",
            "entity",
            "--id",
            "symbol:src/core.py:Parser",
            "--no-refresh",
            "--format",
            "text",
        ])
        .success()
        .stdout();
    assert!(
        class.contains("children: symbol:src/core.py:Parser.run\n"),
        "one child: its whole id\n{class}"
    );
}

#[test]
fn a_file_is_referenced_through_the_names_it_exposes() {
    // Two modules define `parse`: a file importing one of them uses that one only. A private
    // name is no other file's to use, whoever names it.
    let repo = TestRepo::with_files(&[
        ("pkg/__init__.py", ""),
        (
            "pkg/jsonish.py",
            "def parse(text):\n    return text\n\n\ndef _cache():\n    return {}\n",
        ),
        ("pkg/yamlish.py", "def parse(text):\n    return [text]\n"),
        (
            "pkg/use_json.py",
            "from pkg.jsonish import parse\n\n\ndef load(t):\n    return parse(t)\n",
        ),
        (
            "pkg/use_yaml.py",
            "from pkg.yamlish import parse\n\n\ndef load(t):\n    return parse(t)\n",
        ),
        (
            "pkg/private.py",
            "import os\n\n\ndef peek():\n    return _cache()\n",
        ),
    ]);
    repo.init();
    let users = |id: &str| {
        repo.cue("entity", &["--id", id, "--no-refresh"])["content"]["referenced_by"].clone()
    };
    assert_eq!(users("file:pkg/jsonish.py"), json!(["pkg/use_json.py"]));
    assert_eq!(users("file:pkg/yamlish.py"), json!(["pkg/use_yaml.py"]));
}

#[test]
fn symbol_id_without_a_name_is_invalid_argument() {
    let repo = code_project();
    repo.repocue(&[
        "cue",
        "--view",
        "entity",
        "--id",
        "symbol:src",
        "--no-refresh",
    ])
    .error_code("invalid_argument");
}

#[test]
fn overview_lists_graph_ranked_symbols() {
    let repo = code_project();
    let ran = repo.repocue(&["cue", "--view", "overview", "--max-tokens", "2000"]);
    assert!(!ran.stdout().contains(MARK), "{}", ran.stdout());
    let cue = ran.json();
    let ids: Vec<String> = cue["content"]["symbols"]
        .as_array()
        .expect("symbols")
        .iter()
        .map(crate::support::symbol_id)
        .collect();
    assert!(!ids.is_empty(), "{cue:#}");
    assert!(
        ids[0].starts_with("symbol:src/core.py:"),
        "the most referenced file's symbols first: {ids:?}"
    );
    assert!(
        ids.contains(&"symbol:src/core.py:parse".to_owned()),
        "{ids:?}"
    );
    let pos = |prefix: &str| ids.iter().position(|i| i.starts_with(prefix));
    assert!(
        pos("symbol:src/core.py:") < pos("symbol:src/lonely.py:"),
        "{ids:?}"
    );
    for s in cue["content"]["symbols"].as_array().unwrap() {
        assert!(!s["signature"].as_str().unwrap().is_empty(), "{s}");
    }
}

#[test]
fn every_supported_language_yields_symbols() {
    const FILES: [(&str, &str, &str); 13] = [
        ("l/a.rs", "Rust", "pub fn hello() -> u32 {\n    1\n}\n"),
        ("l/a.py", "Python", "def hello():\n    return 1\n"),
        (
            "l/a.go",
            "Go",
            "package main\n\nfunc Hello() int {\n\treturn 1\n}\n",
        ),
        (
            "l/a.js",
            "JavaScript",
            "function hello() {\n  return 1;\n}\n",
        ),
        (
            "l/a.ts",
            "TypeScript",
            "export function hello(): number {\n  return 1;\n}\n",
        ),
        (
            "l/a.tsx",
            "TSX",
            "export function Hello(): JSX.Element {\n  return <div />;\n}\n",
        ),
        (
            "l/Hello.java",
            "Java",
            "public class Hello {\n    public int hi() { return 1; }\n}\n",
        ),
        ("l/a.c", "C", "int hello(void) {\n    return 1;\n}\n"),
        (
            "l/a.cpp",
            "C++",
            "class Hello {\npublic:\n    int hi() { return 1; }\n};\n",
        ),
        (
            "l/a.cs",
            "C#",
            "public class Hello {\n    public int Hi() { return 1; }\n}\n",
        ),
        (
            "l/a.rb",
            "Ruby",
            "class Hello\n  def hi\n    1\n  end\nend\n",
        ),
        ("l/a.sh", "Shell", "#!/bin/sh\nhello() {\n  echo 1\n}\n"),
        (
            "l/a.php",
            "PHP",
            "<?php\nfunction hello() {\n    return 1;\n}\n",
        ),
    ];
    let files: Vec<(&str, &str)> = FILES.iter().map(|(p, _, c)| (*p, *c)).collect();
    let repo = TestRepo::with_files(&files);
    repo.init();
    let mut failures = Vec::new();
    for (path, language, _) in FILES {
        let id = format!("file:{path}");
        let cue = repo.cue("entity", &["--id", &id, "--no-refresh"]);
        let c = &cue["content"];
        let children = c["children"].as_array().cloned().unwrap_or_default();
        let prefix = format!("symbol:{path}:");
        if c["kind"] != language
            || children.is_empty()
            || !children
                .iter()
                .all(|ch| ch.as_str().is_some_and(|s| s.starts_with(&prefix)))
        {
            failures.push(format!("{path}: kind {} children {children:?}", c["kind"]));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn a_members_owner_is_named_in_text() {
    // Two `def __init__(self)` of one file: the text says whose each is, as the JSON's names
    // do.
    let repo = TestRepo::with_files(&[(
        "pkg/m.py",
        "class A:\n    def __init__(self):\n        pass\n\n\nclass B:\n    def __init__(self):\n        pass\n",
    )]);
    let text = repo
        .repocue(&[
            "cue",
            "--view",
            "structure",
            "--path",
            "pkg/m.py",
            "--format",
            "text",
        ])
        .success()
        .stdout();
    assert!(text.contains("\n    2 [A] def __init__(self)\n"), "{text}");
    assert!(text.contains("\n    7 [B] def __init__(self)\n"), "{text}");
    assert!(text.contains("\n    1 class A\n"), "{text}");
}

/// The whole repository's structure reads `path: .`, and its follow-up needs no `--path ''`.
#[test]
fn the_whole_repositorys_structure_names_its_path() {
    let repo = code_project();
    let text = repo
        .repocue(&[
            "cue",
            "--view",
            "structure",
            "--path",
            ".",
            "--max-tokens",
            "90",
            "--format",
            "text",
        ])
        .success()
        .stdout();
    assert!(text.contains("\npath: .\n"), "{text}");
    assert!(text.contains("more ("), "{text}");
    assert!(!text.contains("--path ''"), "{text}");
}
