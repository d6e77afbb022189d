//! What a new contributor needs first: the signals that rank files and symbols beyond the raw
//! reference graph. Each signal is a small pure function so its rule can be read and tested
//! alone:
//!
//! - [`role`]: tests, examples, benchmarks, fixtures and vendored code are ranked down (still
//!   reachable through `structure` and `search`);
//! - [`import_names_module`]: a reference is resolved through the referencing file's imports where
//!   the import names a module path, so `Flask` used in `views.py` points at `app.py` and not
//!   at a test fixture that happens to define a class of the same name;
//! - [`symbol_weight`]: exported/public definitions, type-like and top-level first, more for
//!   definitions that other non-test files use;
//! - [`diverse`]: a greedy pick that keeps any one file or directory from filling a section.

use std::collections::HashMap;

use crate::analyze::structure::{CodeFacts, SymbolFact};
use crate::paths;

/// What a path is for, as far as its name tells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    /// The project's own code.
    Source,
    /// Tests, test helpers, fixtures and test data.
    Test,
    /// Examples, samples, demos and benchmarks.
    Example,
    /// Vendored, generated or third-party code.
    Vendored,
}

impl Role {
    /// Returns the factor a file's rank is multiplied with.
    pub fn factor(self) -> f64 {
        match self {
            Role::Source => 1.0,
            Role::Example => 0.08,
            Role::Test => 0.04,
            Role::Vendored => 0.02,
        }
    }
}

/// Directories of what tests read: test directories too, but not where the tests are.
pub(crate) const TEST_DATA_DIRS: &[&str] = &[
    "testdata",
    "test-data",
    "test_data",
    "fixtures",
    "fixture",
    "__fixtures__",
    "__mocks__",
    "mocks",
];
const TEST_DIRS: &[&str] = &[
    "test",
    "tests",
    "testing",
    "__tests__",
    "spec",
    "specs",
    "e2e",
    "t",
    "testutil",
    "testutils",
    "fuzz",
    "fuzzing",
    "fuzzer",
    "fuzzers",
    // OSS-Fuzz's harnesses (lz4's `ossfuzz/`: their helpers ranked as its API, their `main`
    // was an entry point and the first hit for `main`).
    "ossfuzz",
    "oss-fuzz",
    "oss_fuzz",
    "libfuzzer",
    // Gradle's source sets of test fixtures and integration tests (mockito's
    // `src/testFixtures/java/`).
    "testfixtures",
    "integrationtest",
    // Regression suites (tmux's `regress/` of shell scripts, OpenBSD's convention).
    "regress",
    "regression",
    "regressions",
];
const EXAMPLE_DIRS: &[&str] = &[
    "example",
    "examples",
    "sample",
    "samples",
    "demo",
    "demos",
    "bench",
    "benches",
    "benchmark",
    "benchmarks",
    "benchmarking",
    "playground",
    "playgrounds",
    "tutorial",
    "tutorials",
    "snippets",
    "docs_src",
    // What a generator writes into another project (devise's `lib/generators/templates/`:
    // `class <%= @scope_prefix %>SessionsController` came before the real controller).
    "templates",
    // Performance measurements (marshmallow's `performance/benchmark.py`, lodash's
    // `perf/perf.js`, whose `run` and `log` were among its API).
    "performance",
    "perf",
    // A project's own tooling: release, build and CI helpers (fastapi's `scripts/docs.py`,
    // vite's `scripts/mergeChangelog.ts`), and libgit2's `script/user_model.c`, a static
    // analyser's model that redefines `git_vector_insert` and took its place in the API.
    "script",
    "scripts",
];
/// Vendored and generated code: the directories analysis skips
/// ([`crate::classify::VENDORED_DIRS`], [`crate::classify::GENERATED_DIRS`]), plus build
/// output, compatibility shims (`compat/`, `polyfills/`), which re-define system names that
/// the project's own code uses everywhere but does not define, and a library bundled as it
/// was released (spdlog's `include/spdlog/fmt/bundled/`, a copy of fmt), and the one-file
/// amalgamation a C or C++ library generates from its own sources (nlohmann/json's
/// `single_include/`, whose `json.hpp` repeats every class of `include/`), code the
/// project keeps but no longer offers (stb's `deprecated/stb.h` led its components and API),
/// and its ports to systems of the past (`os400/`, `vms/`).
const VENDORED_EXTRA_DIRS: &[&str] = &[
    "dist",
    "compat",
    "shims",
    "polyfills",
    "bundled",
    "single_include",
    "amalgamation",
    "deprecated",
    "obsolete",
    // Ports to systems of the past, glue beside the code (libssh2's `os400/include/`
    // redefines `assert` and `connect`, and `vms/man2help.c` was its only entry point).
    "os400",
    "vms",
    "amiga",
    "amigaos",
    "riscos",
    "msdos",
    "os2",
    "netware",
    "symbian",
    "beos",
    "wince",
];

/// Tells whether a directory holds the project's own compatibility shims (`compat/`,
/// `shims/`, `polyfills/`): ranked down like vendored code, but a part of the project a
/// contributor works in (git's `compat/`).
pub fn is_shim_dir(name: &str) -> bool {
    matches!(
        name.to_ascii_lowercase().as_str(),
        "compat" | "shims" | "polyfills"
    )
}

/// What a directory's name says of the files below it ([`dir_kind`]), as bits.
const VENDORED_DIR: u8 = 1;
const TEST_DIR: u8 = 2;
const EXAMPLE_DIR: u8 = 4;
/// No directory name the lists hold is longer.
const LONGEST_DIR_NAME: usize = 24;

/// The lists of directory names [`role`] knows, with the bit each sets.
fn dir_lists() -> [(&'static [&'static str], u8); 6] {
    [
        (VENDORED_EXTRA_DIRS, VENDORED_DIR),
        (crate::classify::VENDORED_DIRS, VENDORED_DIR),
        (crate::classify::GENERATED_DIRS, VENDORED_DIR),
        (TEST_DIRS, TEST_DIR),
        (TEST_DATA_DIRS, TEST_DIR),
        (EXAMPLE_DIRS, EXAMPLE_DIR),
    ]
}

/// The bits of the lists ([`dir_lists`]) that hold a directory name, in any case: one lookup
/// in a table built once, where comparing each directory of each path with every name of the
/// lists was a tenth of an overview of babel/babel.
fn dir_kind(name: &[u8]) -> u8 {
    type Table = std::collections::HashMap<Vec<u8>, u8, foldhash::fast::FixedState>;
    static TABLE: std::sync::OnceLock<Table> = std::sync::OnceLock::new();
    if name.len() > LONGEST_DIR_NAME {
        return 0;
    }
    let table = TABLE.get_or_init(|| {
        let mut table = Table::default();
        for (list, bit) in dir_lists() {
            for dir in list {
                *table
                    .entry(dir.to_ascii_lowercase().into_bytes())
                    .or_default() |= bit;
            }
        }
        table
    });
    let mut buf = [0u8; LONGEST_DIR_NAME];
    let lower = &mut buf[..name.len()];
    lower.copy_from_slice(name);
    lower.make_ascii_lowercase();
    table.get(&lower[..]).copied().unwrap_or(0)
}

/// Tells whether a directory name is one of `set`, in any case.
fn named(dir: &[u8], set: &[&str]) -> bool {
    set.iter().any(|s| dir.eq_ignore_ascii_case(s.as_bytes()))
}

/// Names of a module of helpers: a file's stem (guzzle's `src/Utils.php`) or its directory
/// (ky's `source/utils/merge.ts`).
const UTILITY_NAMES: &[&str] = &["util", "utils", "utility", "utilities", "helper", "helpers"];

/// The factor a file's rank is multiplied with when it is a module of helpers
/// ([`UTILITY_NAMES`]): every file uses its helpers, which makes them rank high, but they are
/// not where a contributor starts (ky's ten `source/utils/` files came before `source/core/`,
/// its request engine, among the components; bench/quality: tuned text recall at 500 tokens
/// 0.8180 → 0.8208, nothing lost). A class named for what it helps with (`StringUtils`,
/// commons-lang's API) is no such module.
pub fn utility_factor(path: &[u8]) -> f64 {
    let (dir, name) = match path.iter().rposition(|&b| b == b'/') {
        Some(i) => (&path[..i], &path[i + 1..]),
        None => (&b""[..], path),
    };
    let stem = match name.iter().position(|&b| b == b'.') {
        Some(dot) if dot > 0 => &name[..dot],
        _ => name,
    };
    let parent = dir.rsplit(|&b| b == b'/').next().unwrap_or_default();
    if named(stem, UTILITY_NAMES) || named(parent, UTILITY_NAMES) {
        UTILITY_FACTOR
    } else {
        1.0
    }
}

/// See [`utility_factor`].
const UTILITY_FACTOR: f64 = 0.5;

/// Classifies a repository path by its directory components and file name.
pub fn role(path: &[u8]) -> Role {
    // Called for every file, several times, by every ranking and overview (a tenth of an
    // overview of babel/babel's 27,674 files when it went over the path four times as text):
    // one pass over the directory names as bytes.
    let (dirs, name) = match path.iter().rposition(|&b| b == b'/') {
        Some(i) => (&path[..i], &path[i + 1..]),
        None => (&b""[..], path),
    };
    if named(name, BUILD_WRAPPERS) || is_amalgamation_name(name) {
        return Role::Vendored;
    }
    let (mut test, mut example) = (false, false);
    let parts = dirs.split(|&b| b == b'/').filter(|p| !p.is_empty());
    // The two parts before this one.
    let (mut before_last, mut last): (&[u8], &[u8]) = (b"", b"");
    for (i, part) in parts.enumerate() {
        // Below a JVM source set's language directory (`src/main/java/`) the directories are
        // a package's name: spring-petclinic's `org/springframework/samples/` is no examples
        // directory. The source set (`main`, `test`) has said what the files are; but a
        // package of examples is one (jsoup's `org/jsoup/examples/`, programs of its own).
        if before_last.eq_ignore_ascii_case(b"src") && named(part, JVM_LANGUAGES) {
            let package = dirs.rsplit(|&b| b == b'/').next().unwrap_or_default();
            example = example || (package != part && named(package, &["examples", "samples"]));
            break;
        }
        (before_last, last) = (last, part);
        // A leading underscore hides a directory from Go's tools: `_example/` is an example
        // (BurntSushi/toml's was its second entry point), echo's `_fixture/` test data. Only
        // examples and tests: fastapi's private `_compat/` is its own code, not a vendored
        // `compat/`.
        let kind = match part.strip_prefix(b"_") {
            Some(rest) => dir_kind(part) | (dir_kind(rest) & (EXAMPLE_DIR | TEST_DIR)),
            None => dir_kind(part),
        };
        if kind & VENDORED_DIR != 0 {
            return Role::Vendored;
        }
        test = test
            || kind & TEST_DIR != 0
            || is_fixture_package(part)
            || is_test_project(part)
            || is_test_support(part);
        // A top-level `contrib/` holds extras contributed beside the project (git's
        // credential helpers and completion scripts); a package's own `contrib` (Django's) is
        // its code.
        // Code in a top-level `build/` is how the project is built (bat's
        // `build/syntax_mapping.rs`, its build script's copy of a type `src/` defines); in a
        // top-level `docs/` it serves the documentation (requests'
        // `docs/_themes/flask_theme_support.py`; not `doc/`, which is cobra's package of
        // documentation generators, its API); in a forge's or CI's directory it is their
        // tooling (factory_bot's `.github/REPRODUCTION_SCRIPT.rb`, whose `class Post <
        // ActiveRecord::Base` was listed among its API). Their documents stay the project's.
        let tooling = &["build", "docs", ".github", ".gitlab", ".circleci"];
        example = example
            || kind & EXAMPLE_DIR != 0
            || (i == 0 && named(part, &["contrib"]))
            || (i == 0 && named(part, tooling) && is_code_name(name));
    }
    let name = String::from_utf8_lossy(name);
    // Sphinx's configuration beside the documents (marshmallow's `docs/conf.py`, whose
    // `version = …` was listed among the API) is the documentation's, like its examples.
    let sphinx_conf = name == "conf.py" && named(last, &["doc", "docs"]);
    if test || is_test_file_name(&name) {
        Role::Test
    } else if example || sphinx_conf || is_example_file_name(&name) {
        Role::Example
    } else {
        Role::Source
    }
}

/// Whether a file name ends in an extension of code (not of a document, an image or data).
fn is_code_name(name: &[u8]) -> bool {
    const CODE: &[&str] = &[
        "py", "js", "mjs", "cjs", "ts", "tsx", "jsx", "rb", "go", "rs", "java", "kt", "c", "h",
        "cc", "cpp", "hpp", "cs", "php", "sh",
    ];
    name.iter()
        .rposition(|&b| b == b'.')
        .is_some_and(|i| named(&name[i + 1..], CODE))
}

/// The language directories of a Maven or Gradle source set (`src/main/java`).
const JVM_LANGUAGES: &[&str] = &["java", "kotlin", "scala", "groovy"];

/// Whether a directory name is a Maven or Gradle source set's language directory (`java` of
/// `src/main/java`).
pub fn is_jvm_language_dir(name: &[u8]) -> bool {
    named(name, JVM_LANGUAGES)
}

/// The build tools' wrapper scripts a project checks in as generated (`gradle wrapper`):
/// spring-petclinic's `gradlew` and `mvnw` led its overview's symbols.
/// Also the sessions nox runs (`noxfile.py`: urllib3's `test` and `lint` functions were
/// listed among its API).
const BUILD_WRAPPERS: &[&str] = &["gradlew", "gradlew.bat", "mvnw", "mvnw.cmd", "noxfile.py"];

/// Whether a file is named as the one-file amalgamation a library generates from its own
/// sources (Catch2's `extras/catch_amalgamated.hpp`, which repeats every class of `src/`
/// and took their uses, their search hits and the overview's API): generated, wherever it
/// lies (see [`VENDORED_EXTRA_DIRS`] for the directories named so).
fn is_amalgamation_name(name: &[u8]) -> bool {
    name.split(|b| matches!(b, b'-' | b'_' | b'.'))
        .any(|w| w.eq_ignore_ascii_case(b"amalgamated") || w.eq_ignore_ascii_case(b"amalgamation"))
}

/// A package of test fixtures or mocks named as such (`babel-helper-fixtures`,
/// `test_mocks`): a word of the directory name, not a substring of it.
fn is_fixture_package(dir: &[u8]) -> bool {
    dir.split(|b| matches!(b, b'-' | b'_' | b'.'))
        .any(|w| named(w, &["fixtures", "fixture", "mocks"]))
}

/// A directory of what tests share, named so: koa's `test-helpers/`, `test_utils/`,
/// `tests-support/` (`test` and one word for helpers, dashed or snake). Not any `test-` name:
/// `test-shrinker/` is a tool of its own.
fn is_test_support(dir: &[u8]) -> bool {
    let mut words = dir.split(|b| matches!(b, b'-' | b'_'));
    let helpers = &[
        "helpers", "helper", "utils", "util", "support", "common", "shared",
    ];
    words.next().is_some_and(|w| named(w, &["test", "tests"]))
        && words.next().is_some_and(|w| named(w, helpers))
        && words.next().is_none()
}

/// A test project named as .NET and Java builds name theirs: `Newtonsoft.Json.Tests`,
/// `AutoMapper.DI.Tests`, `e2e_tests` (the last word of a dotted, dashed or snake name),
/// `UnitTests`, `IntegrationTest` (a capitalized last word), or a project of test programs and
/// helpers, `TestApp`, `TestDummies` (a capitalized word after `Test`). Not `latest`,
/// `Contests` or `Testcontainers`.
fn is_test_project(dir: &[u8]) -> bool {
    let last = dir
        .rsplit(|b| matches!(b, b'.' | b'-' | b'_'))
        .next()
        .unwrap_or(dir);
    if last.len() < dir.len() && named(last, &["test", "tests", "unittests", "integrationtests"]) {
        return true;
    }
    // A .NET project inside the tests' namespace: `FluentValidation.Tests.Benchmarks` (not a
    // project that only starts with the word, `Tests.Shared.Contracts`).
    if dir
        .split(|&b| b == b'.')
        .skip(1)
        .any(|segment| named(segment, &["test", "tests"]))
    {
        return true;
    }
    let capital_word_at = |i: usize| {
        last.get(i).is_some_and(u8::is_ascii_uppercase)
            && i > 0
            && last[i - 1].is_ascii_lowercase() | last[i - 1].is_ascii_digit()
    };
    let ends = [b"Tests".as_slice(), b"Test"]
        .iter()
        .any(|w| last.ends_with(w) && capital_word_at(last.len() - w.len()));
    let helpers = last.starts_with(b"Test") && last.get(4).is_some_and(u8::is_ascii_uppercase);
    ends || helpers
}

/// A benchmark or an example named as Java names its classes (`ParseBenchmark.java`,
/// `RawCollectionsExample.java`): a class with a `main` of its own, no entry point of the
/// project (gson's `metrics/` and `extras/`), whatever its package is called.
fn is_example_file_name(name: &str) -> bool {
    let stem = name.split('.').next().unwrap_or(name);
    // A file named for what it is (nlohmann/json's documentation's `example.cpp`); not a class
    // of that name (Spring Data's query by `Example`, its API).
    stem == "example"
        || stem == "examples"
        || ["Benchmark", "Benchmarks", "Example", "Examples"]
        .iter()
        .any(|w| stem.len() > w.len() && stem.ends_with(w))
        // As C, C++ and Python name them (abseil's `raw_hash_set_probe_benchmark.cc`, a
        // program with a `main` of its own).
        || ["_benchmark", "_benchmarks", "_bench"]
            .iter()
            .any(|w| stem.len() > w.len() && stem.to_ascii_lowercase().ends_with(w))
}

fn is_test_file_name(name: &str) -> bool {
    let stem = name.split('.').next().unwrap_or(name);
    // Go names its tests `_test.go`, and the compiler builds nothing else only for them:
    // gorilla/mux's `test_helpers.go` is `SetURLVars`, API its users' tests call.
    if name.ends_with(".go") {
        return stem.ends_with("_test")
            || stem.eq_ignore_ascii_case("testutil")
            || stem.eq_ignore_ascii_case("testutils");
    }
    let holds = |word: &[u8]| {
        name.as_bytes()
            .windows(word.len())
            .any(|w| w.eq_ignore_ascii_case(word))
    };
    // A file named for tests alone (cJSON's `test.c`, a Rust `tests.rs` module); not a Python
    // module, named for what it offers: werkzeug's `test.py` is its test client, its API.
    let named_test = (stem.eq_ignore_ascii_case("test") || stem.eq_ignore_ascii_case("tests"))
        && !name.ends_with(".py");
    stem.starts_with("test_")
        || named_test
        || stem.eq_ignore_ascii_case("testutil")
        || stem.eq_ignore_ascii_case("testutils")
        || stem.ends_with("_test")
        || stem.ends_with("_tests")
        || stem.ends_with("_spec")
        // A test's program (clap's `src/bin/stdio-fixture.rs`, listed as an entry point).
        || stem.ends_with("-fixture")
        || stem.ends_with("_fixture")
        || stem == "conftest"
        || holds(b".test.")
        || holds(b".spec.")
        // Type tests, as tsd names them (commander's `typings/index.test-d.ts`).
        || holds(b".test-d.")
        || (stem.len() > 4 && (stem.ends_with("Test") || stem.ends_with("Tests")))
}

/// Splits an import as written into the module path components it names, resolving relative
/// imports (`./x`, `../x`, Python's `.x`) against the importing file's directory. Returns an
/// empty list when the import names no path (a bare `*`, an empty string).
pub fn import_components(importer: &[u8], import: &str) -> Vec<String> {
    let raw = import
        .trim()
        .trim_matches(|c| matches!(c, '"' | '\'' | '<' | '>' | '`'));
    let dir: Vec<String> = {
        let p = String::from_utf8_lossy(importer);
        let mut parts: Vec<String> = p.split('/').map(str::to_owned).collect();
        parts.pop();
        parts
    };
    let mut out: Vec<String>;
    if raw.starts_with("./") || raw.starts_with("../") {
        out = dir.clone();
        for part in raw.split('/') {
            match part {
                "." | "" => {}
                ".." => {
                    out.pop();
                }
                p => out.push(p.to_owned()),
            }
        }
    } else if let Some(rest) = raw.strip_prefix('.') {
        // Python relative import: one leading dot is the current package, each extra one a
        // parent.
        out = dir.clone();
        let mut rest = rest;
        while let Some(r) = rest.strip_prefix('.') {
            out.pop();
            rest = r;
        }
        out.extend(rest.split('.').filter(|p| !p.is_empty()).map(str::to_owned));
    } else {
        let sep: &[_] = if raw.contains("::") {
            &["::"]
        } else if raw.contains('/') {
            &["/"]
        } else {
            &["."]
        };
        out = raw
            .split(sep[0])
            .filter(|p| !p.is_empty() && !matches!(*p, "crate" | "self" | "super" | "*"))
            .map(str::to_owned)
            .collect();
        // `foo.h`, `foo.js`: a file name, not two module components.
        if sep[0] == "." && out.len() == 2 && is_source_extension(&out[1]) {
            out = vec![format!("{}.{}", out[0], out[1])];
        }
    }
    for c in &mut out {
        if let Some((stem, ext)) = c.rsplit_once('.') {
            if is_source_extension(ext) {
                *c = stem.to_owned();
            }
        }
    }
    out.retain(|c| !c.is_empty());
    out
}

fn is_source_extension(ext: &str) -> bool {
    matches!(
        ext,
        "h" | "hh"
            | "hpp"
            | "hxx"
            | "c"
            | "cc"
            | "cpp"
            | "js"
            | "jsx"
            | "mjs"
            | "cjs"
            | "ts"
            | "tsx"
            | "mts"
            | "cts"
            | "py"
            | "rb"
            | "php"
            | "rs"
            | "go"
    )
}

/// Returns the module path components of a file: its path without the extension, and
/// without a trailing package-index name (`__init__`, `mod`, `index`, `lib`).
pub fn module_components(path: &[u8]) -> Vec<String> {
    let p = String::from_utf8_lossy(path);
    let mut parts: Vec<String> = p.split('/').map(str::to_owned).collect();
    if let Some(last) = parts.last_mut() {
        if let Some((stem, _)) = last.rsplit_once('.') {
            *last = stem.to_owned();
        }
    }
    if parts.len() > 1
        && matches!(
            parts.last().map(String::as_str),
            Some("__init__" | "mod" | "index" | "lib")
        )
    {
        parts.pop();
    }
    parts
}

/// The source root of the Rust crate a file belongs to: the path up to its `src/` (`src/`,
/// `crates/core/src/`), else its directory.
pub(crate) fn rust_crate_dir(path: &[u8]) -> &[u8] {
    if path.starts_with(b"src/") {
        return &path[..4];
    }
    match path.windows(5).position(|w| w == b"/src/") {
        Some(i) => &path[..i + 5],
        None => &path[..path.iter().rposition(|&b| b == b'/').unwrap_or(0)],
    }
}

/// Tells whether an import (as components, see [`import_components`]) can name the file
/// `target`: some prefix of the import ends with the file's module path (the import may go on
/// to name an item inside the module), or names the file's directory (Go and Java import
/// packages, which are directories).
#[cfg(test)]
pub fn import_matches(import: &[String], target: &[u8]) -> bool {
    import_names_module(import, &module_components(target))
}

/// Tells whether an import names a file, given the file's precomputed [`module_components`]: ranking asks it
/// for every ambiguous reference, so the target's components are computed once per file.
pub fn import_names_module(import: &[String], module: &[String]) -> bool {
    if import.is_empty() || module.is_empty() {
        return false;
    }
    let ends_with = |prefix: &[String], m: &[String]| {
        let k = prefix.len().min(m.len());
        // At least the last component must agree, and every overlapping one.
        k >= 1 && prefix[prefix.len() - k..] == m[m.len() - k..]
    };
    // The import names the module, perhaps followed by an item inside it.
    if (1..=import.len()).any(|j| ends_with(&import[..j], module)) {
        return true;
    }
    // The whole import names the file's directory: a Go or Java package.
    module.len() > 1 && ends_with(import, &module[..module.len() - 1])
}

/// Tells whether a file is the root of a package or crate: what `import pkg` or a crate's
/// users reach first (`lib.rs`, a package's `__init__.py`, an `index` module, `mod.rs`, a Java
/// module's `module-info.java`), or
/// what `require 'gem'` loads: a Ruby file right in a gem's `lib/` (`lib/sinatra.rb`, a
/// monorepo member's `rack-protection/lib/rack/protection.rb` is not one, its
/// `rack-protection/lib/rack_protection.rb` is).
pub fn is_package_root(path: &[u8]) -> bool {
    let name = paths::file_name(path);
    let depth = path.iter().filter(|&&b| b == b'/').count();
    match name {
        b"lib.rs" => true,
        // A Java module's declaration: the packages it `exports` are its API (gson's
        // `gson/src/main/java/module-info.java`).
        b"module-info.java" => true,
        // A package whose name starts with `_` is private (fastapi's `_compat`).
        b"__init__.py" => depth <= 2 && !parent_name(path).starts_with(b"_"),
        b"index.ts" | b"index.js" | b"index.mjs" | b"index.tsx" => depth <= 3,
        _ => depth <= 2 && name.ends_with(b".rb") && is_gem_lib_file(path),
    }
}

/// Which of a path's components (split at `/`) is a public include directory: `include` at
/// the top or in a top directory (`include/`, `lib/include/`), where a C or C++ library keeps
/// the headers its users include.
fn include_component(parts: &[&[u8]]) -> Option<usize> {
    let dirs = &parts[..parts.len().saturating_sub(1)];
    dirs.iter().take(2).position(|p| *p == b"include")
}

/// Whether a file lies in a public include directory ([`include_component`]).
pub fn in_public_include(path: &[u8]) -> bool {
    let parts: Vec<&[u8]> = path.split(|&b| b == b'/').collect();
    include_component(&parts).is_some()
}

/// The root packages' `package-info.java` of a Java library's source sets (`…/src/main/java/`)
/// that declare no module (no `module-info.java`, whose exports are the API there): in each,
/// the shallowest (commons-lang's `org/apache/commons/lang3/package-info.java`, its user
/// guide), a package root as a Python `__init__.py` is one: its package's public classes are
/// the library's API (`StringUtils`, `Validate`, …). Sorted.
pub fn java_root_packages<'a>(paths: impl Iterator<Item = &'a [u8]>) -> Vec<Vec<u8>> {
    const SET: &[u8] = b"src/main/java/";
    /// The depth of a source set's shallowest `package-info.java` files, and their paths.
    type Shallowest<'p> = (usize, Vec<&'p [u8]>);
    // Source set → its shallowest, or `None` once a module is declared in it.
    let mut sets: HashMap<&[u8], Option<Shallowest<'_>>> = HashMap::new();
    for p in paths {
        let name = paths::file_name(p);
        if name != b"package-info.java" && name != b"module-info.java" {
            continue;
        }
        let Some(at) = p.windows(SET.len()).position(|w| w == SET) else {
            continue;
        };
        let (set, rest) = p.split_at(at + SET.len());
        if name == b"module-info.java" {
            sets.insert(set, None);
            continue;
        }
        if role(p) != Role::Source {
            continue;
        }
        let depth = rest.iter().filter(|&&b| b == b'/').count();
        match sets.entry(set).or_insert_with(|| Some((depth, Vec::new()))) {
            None => {}
            Some((d, found)) if depth < *d => {
                *d = depth;
                *found = vec![p];
            }
            Some((d, found)) if depth == *d => found.push(p),
            Some(_) => {}
        }
    }
    let mut roots: Vec<Vec<u8>> = sets
        .into_values()
        .flatten()
        .flat_map(|(_, found)| found.into_iter().map(<[u8]>::to_vec))
        .collect();
    roots.sort();
    roots
}

/// The headers a C or C++ library's umbrella header hands on, as paths: the one header its
/// users include to get the whole API (yaml-cpp's `include/yaml-cpp/yaml.h`, libgit2's
/// `include/git2.h`), a package root as a Python `__init__.py` is one. An umbrella header
/// lies in a public include directory (`include/` at the top or in a top directory, at most
/// one directory below it), includes at least three headers of its own tree (`yaml-cpp/…`
/// beside `include/yaml-cpp/yaml.h`, `git2/…` beside `include/git2.h`) and defines at most one
/// thing (not counting macros) per four headers it includes: leveldb's `dumpfile.h`, which
/// includes three to declare `DumpFile`, is none. Empty for any other file.
pub fn umbrella_includes(path: &[u8], code: &CodeFacts) -> Vec<Vec<u8>> {
    const HEADERS: &[&str] = &[".h", ".hh", ".hpp", ".hxx"];
    if language_family(&code.language) != "C"
        || !HEADERS.iter().any(|h| path.ends_with(h.as_bytes()))
    {
        return Vec::new();
    }
    let parts: Vec<&[u8]> = path.split(|&b| b == b'/').collect();
    let Some(at) = include_component(&parts) else {
        return Vec::new();
    };
    let below = &parts[at + 1..];
    let tree = match below {
        [dir, _] => dir.to_vec(),
        [file] => file[..file.iter().rposition(|&b| b == b'.').unwrap_or(file.len())].to_vec(),
        _ => return Vec::new(),
    };
    let include_dir = parts[..=at].join(&b'/');
    let prefix = [tree.as_slice(), b"/"].concat();
    let mut hands_on: Vec<Vec<u8>> = code
        .imports
        .iter()
        .map(|i| i.as_bytes())
        .filter(|i| i.starts_with(&prefix) && !i.windows(2).any(|w| w == b".."))
        .map(|i| [include_dir.as_slice(), b"/", i].concat())
        .filter(|p| p.as_slice() != path)
        .collect();
    hands_on.sort();
    hands_on.dedup();
    let own = code
        .symbols
        .iter()
        .filter(|s| s.kind != "macro" && s.kind != "module")
        .count();
    if hands_on.len() >= 3 && own * 4 <= hands_on.len() {
        hands_on
    } else {
        Vec::new()
    }
}

/// The name of the directory a file lies in (`b""` at the root).
fn parent_name(path: &[u8]) -> &[u8] {
    let dir = &path[..path.len() - paths::file_name(path).len()];
    paths::file_name(dir.strip_suffix(b"/").unwrap_or(dir))
}

/// Tells whether a file lies right in a directory named `lib` that is the repository's or a
/// member's top directory's (`lib/x.rb`, `member/lib/x.rb`).
fn is_gem_lib_file(path: &[u8]) -> bool {
    let mut dirs = path.split(|&b| b == b'/').rev().skip(1);
    dirs.next() == Some(b"lib".as_slice()) && dirs.count() <= 1
}

/// Tells whether a symbol only declares that a module lives in its own file (Rust's `pub mod
/// serve;`): a pointer to the definitions there, on one line with nothing inside it. axum's
/// `pub mod serve` came before the `pub fn serve` it holds in `search serve`, and module
/// declarations took overview lines.
pub fn declares_a_module_file(s: &SymbolFact, all: &[SymbolFact]) -> bool {
    s.kind == "module"
        && s.start_line == s.end_line
        && !s.signature.contains('{')
        && s.signature.split_whitespace().any(|w| w == "mod")
        && !all
            .iter()
            .any(|o| o.parent() == Some(s.qualified_name.as_str()))
}

/// Tells whether a definition is what a package exports by name: a public top-level type or
/// function, or a public macro (a Rust derive macro: `Serialize`; a C macro declares no
/// visibility). Not a module declaration (`pub mod hash;` in a `lib.rs`: a container, whose
/// API is inside), an `impl` block, a constant or variable, nor a member (`unwrap`, `push`:
/// what a package root's code calls is no part of its API), nor a name that starts with two
/// underscores, which says "hidden" whatever the visibility (axum's `#[doc(hidden)] pub fn
/// __private_axum_test`, the support of its macros).
pub fn is_exportable(s: &SymbolFact) -> bool {
    s.parent().is_none()
        && !s.name().starts_with("__")
        && matches!(s.visibility.as_deref(), Some("public" | "exported"))
        && repocue_structure::symbol_priority(&s.kind) <= 1
        && !matches!(s.kind.as_str(), "module" | "impl")
}

/// Whether a package root hands on `name`, another file's definition it references, as its
/// package's API. JavaScript and TypeScript say which names they hand on (`export { a } from
/// "./x"`, see [`CodeFacts::reexports`]), and so does Rust (`pub use`): what an index merely
/// imports and calls (vite's `plugin-legacy` calls `normalizePath`, clap_complete_nushell's
/// `lib.rs` uses `clap::ValueHint`) is no part of its API. So does Python: what an
/// `__init__.py` imports at its top level, or its `__all__` (rich's root was listed handing
/// on `Inspect`, which a function imports in its body). Elsewhere a root's references are
/// what it re-exports.
pub fn hands_on(code: &CodeFacts, name: &str) -> bool {
    let listed = |l: &[String]| l.binary_search_by(|r| r.as_str().cmp(name)).is_ok();
    !matches!(
        language_family(&code.language),
        "JavaScript" | "Rust" | "Python"
    ) || listed(&code.reexports)
        || listed(&code.type_reexports)
}

/// The language family a parser language belongs to: C and C++ are one, as are JavaScript,
/// TypeScript and TSX (a project moves between them file by file).
pub fn language_family(language: &str) -> &str {
    match language {
        "C++" => "C",
        "TypeScript" | "TSX" => "JavaScript",
        other => other,
    }
}

/// The language families that hold under a tenth of `languages`, the project's own code files'
/// parser languages: git/git's few Rust files and CI shell scripts beside a thousand C files.
/// Their definitions are no part of the API a reader of the project starts with.
pub fn minor_families<'a>(languages: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut counts: Vec<(&str, usize)> = Vec::new();
    let mut total = 0;
    for l in languages {
        let family = language_family(l);
        total += 1;
        match counts.iter_mut().find(|(f, _)| *f == family) {
            Some((_, n)) => *n += 1,
            None => counts.push((family, 1)),
        }
    }
    let mut minor: Vec<&str> = counts
        .into_iter()
        .filter(|&(_, n)| n * 10 < total)
        .map(|(f, _)| f)
        .collect();
    minor.sort_unstable();
    minor
}

/// The names of the classes a class's signature says it extends, each the last segment of
/// its path: Python's `class Flask(App)`, Ruby's `class Base < Parent`, and `extends Base` in
/// JavaScript, TypeScript, Java and PHP (not a type parameter's bound, `<T extends B>`).
pub fn base_classes<'s>(language: &str, signature: &'s str) -> Vec<&'s str> {
    let name = |s: &'s str| -> Option<&'s str> {
        let s = s.trim().split(['[', '<', '(', ' ', '{']).next()?;
        let last = s.rsplit(['.', ':', '\\']).next()?;
        let ok = !last.is_empty()
            && last
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '$');
        ok.then_some(last)
    };
    match language {
        "Python" => {
            let (Some(open), Some(close)) = (signature.find('('), signature.rfind(')')) else {
                return vec![];
            };
            if close <= open {
                return vec![];
            }
            let mut depth = 0i32;
            let mut parts = Vec::new();
            let mut from = open + 1;
            for (i, c) in signature[open + 1..close].char_indices() {
                match c {
                    '[' | '(' => depth += 1,
                    ']' | ')' => depth -= 1,
                    ',' if depth == 0 => {
                        parts.push(&signature[from..open + 1 + i]);
                        from = open + 2 + i;
                    }
                    _ => {}
                }
            }
            parts.push(&signature[from..close]);
            parts
                .into_iter()
                .filter(|p| !p.contains('='))
                .filter_map(name)
                .collect()
        }
        "Ruby" => signature
            .split_once(" < ")
            .and_then(|(_, base)| name(base))
            .into_iter()
            .collect(),
        "JavaScript" | "TypeScript" | "TSX" | "Java" | "PHP" => {
            // The `extends` outside angle brackets.
            let mut depth = 0i32;
            for (i, c) in signature.char_indices() {
                match c {
                    '<' => depth += 1,
                    '>' => depth -= 1,
                    ' ' if depth == 0 && signature[i..].starts_with(" extends ") => {
                        return name(&signature[i + " extends ".len()..])
                            .into_iter()
                            .collect();
                    }
                    _ => {}
                }
            }
            vec![]
        }
        _ => vec![],
    }
}

/// Tells whether a symbol's language declares it hidden from other packages or files:
/// private, protected, internal, fileprivate (C's `static`, Go's lowercase names included).
pub fn is_hidden(symbol: &SymbolFact) -> bool {
    matches!(
        symbol.visibility.as_deref(),
        Some("private" | "protected" | "internal" | "fileprivate")
    )
}

/// Whether a symbol is no part of what its file exposes, by what the file says: hidden by
/// its language, a public method of a hidden class (Newtonsoft.Json's `internal static class
/// StringUtils`) or of anything hidden around it, or a namespace declaration (C#, C++, PHP: guzzle's overview listed
/// `namespace GuzzleHttp` first).
pub fn unexposed(s: &SymbolFact, all: &[SymbolFact]) -> bool {
    // Any owner up the chain: serde's `ContentVisitor::new` is a public method of a public
    // struct in a private `mod content`, and it made its struct an exposed line.
    let mut owner = s.parent();
    let mut owner_hidden = false;
    while let Some(p) = owner.filter(|_| !owner_hidden) {
        owner_hidden = all.iter().any(|o| o.qualified_name == p && is_hidden(o));
        owner = p.rsplit_once('.').map(|(up, _)| up);
    }
    let declaration = s.kind == "module" && s.signature.starts_with("namespace ");
    is_hidden(s) || owner_hidden || declaration || is_attribute_macro(s)
}

/// Whether a C or C++ macro marks declarations rather than naming anything of the API: an
/// export, visibility or calling-convention macro (`#define FOOLIB_API
/// __attribute__((visibility("default")))`, `#define ZSTDLIB_API ZSTDLIB_VISIBLE`, an empty
/// `#define LEVELDB_EXPORT`). zstd's `ZSTDLIB_API` was named among its header's functions.
pub fn is_attribute_macro(s: &SymbolFact) -> bool {
    if s.kind != "macro" {
        return false;
    }
    let name = s.name();
    let body = s
        .signature
        .trim_start()
        .strip_prefix("#define")
        .map(|rest| rest.trim_start().strip_prefix(name).unwrap_or(rest).trim())
        .unwrap_or_default();
    const MARKS: &[&str] = &["_API", "_EXPORT", "_EXPORTS", "_VISIBLE", "_HIDDEN", "_DLL"];
    body.contains("__attribute__")
        || body.contains("__declspec")
        || (MARKS.iter().any(|m| name.ends_with(m)) && !body.contains('('))
}

/// Per Rust file of `files` (path, code facts; other files are `false`): whether its module
/// is private to its crate, so that its `pub` items are no API of the crate unless a root
/// hands them on by `pub use`. A module is private when the file declaring it (`mod de;` in
/// `src/private/mod.rs` or `src/private.rs`, `mod private;` in `src/lib.rs`) does not say
/// `pub mod`, or when that file's own module is private. serde's overview listed
/// `ContentVisitor` of `src/private/de.rs` (lib.rs: `mod private;`, "Not public API") among
/// its central types. A crate root (`lib.rs`, `main.rs`) is public; a module whose declaring
/// file is not among `files`, or does not declare it (`#[path]`), counts as public.
pub fn rust_private_modules(files: &[(&[u8], &CodeFacts)]) -> Vec<bool> {
    let index: HashMap<&[u8], usize> = files
        .iter()
        .enumerate()
        .filter(|(_, (_, c))| c.language == "Rust")
        .map(|(i, (p, _))| (*p, i))
        .collect();
    // Per file: the declaring file's index and whether it declares the module `pub`.
    let link = |i: usize| -> Option<(usize, bool)> {
        let (path, facts) = files[i];
        if facts.language != "Rust" {
            return None;
        }
        let (dir, module) = rust_module_of(path)?;
        let declarer = ["lib.rs", "main.rs", "mod.rs"]
            .iter()
            .map(|name| [dir, b"/", name.as_bytes()].concat())
            .chain((!dir.is_empty()).then(|| [dir, b".rs"].concat()))
            .find_map(|p| index.get(p.as_slice()).copied())?;
        let declared =
            files[declarer].1.symbols.iter().find(|s| {
                s.kind == "module" && s.parent().is_none() && s.qualified_name == module
            })?;
        Some((declarer, declared.visibility.as_deref() == Some("public")))
    };
    let mut private: Vec<Option<bool>> = vec![None; files.len()];
    for start in 0..files.len() {
        // Up the declaring files to a root or to a file whose answer is known.
        let mut chain: Vec<(usize, bool)> = Vec::new();
        let mut at = start;
        let base = loop {
            if let Some(known) = private[at] {
                break known;
            }
            match link(at) {
                Some((up, public)) if up != start && !chain.iter().any(|(c, _)| *c == up) => {
                    chain.push((at, public));
                    at = up;
                }
                // A root, an unknown declaring file, or a cycle: public.
                _ => {
                    private[at] = Some(false);
                    break false;
                }
            }
        };
        let mut above = base;
        for &(i, public) in chain.iter().rev() {
            above = above || !public;
            private[i] = Some(above);
        }
    }
    private.into_iter().map(|p| p.unwrap_or(false)).collect()
}

/// The directory that holds a Rust file's module declaration's file, and the module's name:
/// `src/a/b.rs` → (`src/a`, `b`), `src/a/mod.rs` → (`src`, `a`); `None` for a crate root
/// (`lib.rs`, `main.rs`, `build.rs`) and a file at the top of the repository.
fn rust_module_of(path: &[u8]) -> Option<(&[u8], &str)> {
    let slash = path.iter().rposition(|&b| b == b'/')?;
    let (dir, file) = (&path[..slash], &path[slash + 1..]);
    match file {
        b"lib.rs" | b"main.rs" | b"build.rs" => None,
        b"mod.rs" => {
            let up = dir.iter().rposition(|&b| b == b'/');
            let (parent, name) = match up {
                Some(i) => (&dir[..i], &dir[i + 1..]),
                None => (&b""[..], dir),
            };
            Some((parent, std::str::from_utf8(name).ok()?))
        }
        _ => Some((dir, std::str::from_utf8(file.strip_suffix(b".rs")?).ok()?)),
    }
}

/// Whether a document is the project's own documentation: not a test's, an example's or
/// vendored code's, but a tutorial in the documentation is one (fastapi's user guide is
/// `docs/en/docs/tutorial/`, though a `tutorial/` directory elsewhere holds examples).
pub fn is_project_document(path: &[u8]) -> bool {
    match role(path) {
        Role::Source => true,
        Role::Example => path.starts_with(b"docs/") || path.starts_with(b"doc/"),
        _ => false,
    }
}

/// Whether a path lies in a directory its project names internal (`internal/`, `_internal/`,
/// `internals/`): Go's compiler keeps such a package from other modules, and JavaScript and
/// Java projects name so what users must not call (svelte's `src/internal/client/`, gson's
/// `com/google/gson/internal/`). C++ libraries keep theirs in `detail/` (its namespace
/// `detail` by convention: yaml-cpp's `node/detail/`, nlohmann/json's `detail/`).
///
/// So is a Python module whose name starts with one underscore (`_internal_utils.py`): by the
/// language's convention its package's own, whatever other modules of it use it (requests'
/// helpers outranked `adapters.py`'s `HTTPAdapter`, which its API documents), and a C or
/// C++ file whose name ends in `_internal` or `_private`.
pub fn in_internal_dir(path: &[u8]) -> bool {
    let (dirs, name) = match path.iter().rposition(|&b| b == b'/') {
        Some(i) => (&path[..i], &path[i + 1..]),
        None => (&path[..0], path),
    };
    let private_module = name
        .strip_suffix(b".py")
        .is_some_and(|stem| stem.starts_with(b"_") && !stem.starts_with(b"__"));
    // A C or C++ file named internal or private (zstd's `zstd_compress_internal.h`,
    // `error_private.h`): the library's own, beside the public header it keeps.
    let dot = name.iter().rposition(|&b| b == b'.');
    let private_c = dot
        .map(|i| (&name[..i], &name[i + 1..]))
        .is_some_and(|(stem, ext)| {
            matches!(
                ext,
                b"h" | b"hh" | b"hpp" | b"hxx" | b"c" | b"cc" | b"cpp" | b"cxx"
            ) && [&b"_internal"[..], b"-internal", b"_private", b"-private"]
                .iter()
                .any(|s| stem.ends_with(s))
        });
    private_module
        || private_c
        || dirs
            .split(|&b| b == b'/')
            .any(|d| named(d, &["internal", "_internal", "internals", "detail"]))
}

/// Returns how much a definition matters to a reader of the project's API, before the file's
/// rank is applied: exported and public first, type-like and top-level first, more when other
/// files use it.
pub fn symbol_weight(symbol: &SymbolFact, used_by: f64) -> f64 {
    let visibility = match symbol.visibility.as_deref() {
        Some("public" | "exported") => 1.0,
        _ if is_hidden(symbol) => 0.12,
        _ => 0.5,
    };
    // The one symbol-priority order of the project, as a factor. An `impl` block shares
    // the functions' priority when symbols are kept, but it is a container named after its
    // header, not an API a reader calls: ranked like a member.
    let kind = match repocue_structure::symbol_priority(&symbol.kind) {
        _ if symbol.kind == "impl" => 0.2,
        // A macro is rarely what a reader calls first, and a C header defines dozens; one its
        // language exports is API like a function (log's `info!`, serde_json's `json!`, which
        // first appeared at 1,750 tokens).
        _ if symbol.kind == "macro" && symbol.visibility.as_deref() == Some("public") => 0.8,
        // A macro defined only under a condition is a platform's or a build option's
        // (zlib's `Z_PREFIX` renames, `#define deflate z_deflate` of every API name, took
        // the uses of the functions they rename).
        _ if symbol.kind == "macro" && symbol.conditional => 0.1,
        _ if symbol.kind == "macro" => 0.4,
        // A C typedef that renames a scalar type (zlib's `typedef unsigned int uInt`,
        // `typedef Byte FAR Bytef`, which every prototype names) is plumbing: zlib's overview
        // led with five of them, not with `deflate` or `inflate`.
        _ if symbol.kind == "type" && renames_a_scalar(&symbol.signature) => 0.1,
        // One that declares the struct, union or enum it names (jq's `typedef struct { … }
        // jv`, the value type of its whole API, never made its overview) is that type.
        _ if symbol.kind == "type"
            && symbol.signature.starts_with("typedef ")
            && symbol.signature.contains('{') =>
        {
            1.0
        }
        // A type alias names another type (TypeScript's option shapes, Go's `type X = string`):
        // what users call are the functions and classes that take it.
        _ if symbol.kind == "type" => 0.45,
        0 => 1.0,
        1 => 0.8,
        2 => 0.45,
        _ => 0.25,
    };
    let member = if symbol.parent().is_some() { 0.5 } else { 1.0 };
    let private_name = symbol.name().starts_with('_') as u8 as f64;
    let deprecated = if symbol.deprecated { DEPRECATED } else { 1.0 };
    visibility
        * kind
        * member
        * deprecated
        * error_factor(symbol)
        * (1.0 - 0.7 * private_name)
        * use_factor(used_by)
}

/// Whether a C or C++ `typedef` renames a scalar or another alias (`typedef unsigned long
/// uLong`, `typedef Byte FAR *Bytef`, `typedef void *voidp`): no struct, union or enum, no
/// function pointer, no template.
fn renames_a_scalar(signature: &str) -> bool {
    let Some(rest) = signature.strip_prefix("typedef ") else {
        return false;
    };
    !rest.contains(['{', '(', '<', ':'])
        && !rest
            .split_whitespace()
            .any(|w| matches!(w, "struct" | "union" | "enum" | "class"))
}

/// What a deprecated definition ([`SymbolFact::deprecated`]) weighs against the same one
/// undeprecated: what a project keeps for its old users is no API to learn first.
/// commons-lang's deprecated `text.StrBuilder`, which every `StrSubstitutor` and
/// `StrTokenizer` of its deprecated package uses, came fourth among its overview's symbols.
/// Still listed once nothing else is left.
const DEPRECATED: f64 = 0.1;

/// How much being used counts in a symbol's weight: `(1 + ln(1 + uses))²`. Squared, the
/// uses tell apart the definitions of one file, whose rank they share: cobra's `Group`, which
/// hardly anything uses, no longer comes before its `CheckErr` or `Command.Execute`, nor
/// ripgrep's `LineTerminator` before `Searcher`. Measured with `bench/quality/run.sh` against
/// the power 1 (before), 1.5 and 3, mean overview recall of the tuned repositories per budget
/// (250, 500, 1,000, 2,000 tokens): text 0.5733 0.8221 0.9082 0.9482 → 0.5788 0.8277 0.9024
/// 0.9482, JSON 0.3875 0.7234 0.8737 0.9365 → 0.3875 0.7175 0.8737 0.9482 with the export
/// floor raised to match (`EXPORT_SHARE`; 1.5 gains less, 3 loses at 1,000); held out, JSON at
/// 2,000 0.8035 → 0.8393, nothing lost.
pub fn use_factor(uses: f64) -> f64 {
    let f = 1.0 + uses.ln_1p();
    f * f
}

/// How much a type that reports failure counts (`Error`, `ParseError`, `JsonSyntaxException`):
/// every fallible function names it, so uses make it look central, yet a newcomer learns
/// the types that do the work first and meets the error type through their signatures.
fn error_factor(symbol: &SymbolFact) -> f64 {
    // The interface every error of a PHP or Java package implements is one too (symfony's
    // `ExceptionInterface`, its third symbol).
    let name = symbol.name();
    let name = name.strip_suffix("Interface").unwrap_or(name);
    let is_type = matches!(
        symbol.kind.as_str(),
        "class" | "struct" | "enum" | "type" | "interface"
    );
    if is_type && (name.ends_with("Error") || name.ends_with("Exception")) {
        ERROR_TYPE_FACTOR
    } else {
        1.0
    }
}

/// See [`error_factor`].
const ERROR_TYPE_FACTOR: f64 = 0.3;

/// How much a directory of error types counts among the components, by its name
/// (`Exception/`, `exceptions/`, `errors/`): as an error type does among the symbols
/// ([`error_factor`]). Every module throws them, so their uses made symfony/console's
/// `Exception/` its first component, before `Command/` and `Helper/`.
pub fn errors_dir_factor(dir: &str) -> f64 {
    let last = dir.trim_end_matches('/').rsplit('/').next().unwrap_or(dir);
    let errors = ["exception", "exceptions", "error", "errors"]
        .iter()
        .any(|e| last.eq_ignore_ascii_case(e));
    if errors {
        ERROR_TYPE_FACTOR
    } else {
        1.0
    }
}

/// Picks up to `n` candidates in order of score, while each further pick from a file or
/// directory that already has picks counts for less, so no single file or directory fills
/// the list. Candidates are `(score, file key, directory key)`; returns indices, in pick
/// order, with each pick's adjusted score when it was picked. Deterministic: ties keep
/// candidate order.
///
/// The adjusted scores never rise from one pick to the next, and never exceed the raw ones: a
/// further candidate whose raw score is below the `k`-th pick's changes none of the first `k`
/// picks (nor, when `n` were picked, any pick).
pub fn diverse<F: Eq + std::hash::Hash, D: Eq + std::hash::Hash>(
    candidates: &[(f64, F, D)],
    n: usize,
    per_file: usize,
) -> (Vec<usize>, Vec<f64>) {
    use std::cmp::{Ordering, Reverse};
    use std::collections::BinaryHeap;

    /// A score with a total order; equal scores prefer the earlier candidate.
    #[derive(PartialEq)]
    struct Key(f64, Reverse<usize>);
    impl Eq for Key {}
    impl PartialOrd for Key {
        fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
            Some(self.cmp(other))
        }
    }
    impl Ord for Key {
        fn cmp(&self, other: &Self) -> Ordering {
            self.0.total_cmp(&other.0).then(self.1.cmp(&other.1))
        }
    }

    let mut by_file: HashMap<&F, usize> = HashMap::new();
    let mut by_dir: HashMap<&D, usize> = HashMap::new();
    let adjusted = |i: usize, by_file: &HashMap<&F, usize>, by_dir: &HashMap<&D, usize>| {
        let (score, file, dir) = &candidates[i];
        let f = by_file.get(file).copied().unwrap_or(0);
        let d = by_dir.get(dir).copied().unwrap_or(0);
        (f < per_file).then(|| score * 0.6f64.powi(f as i32) * 0.75f64.powi(d as i32))
    };
    // Lazy greedy: an adjusted score only ever falls as picks accumulate, so a popped entry
    // whose fresh score still beats the best stale one is the true best.
    let mut heap: BinaryHeap<Key> = (0..candidates.len())
        .map(|i| Key(candidates[i].0, Reverse(i)))
        .collect();
    let mut picked: Vec<usize> = Vec::new();
    let mut scores: Vec<f64> = Vec::new();
    while picked.len() < n {
        let Some(Key(stale, Reverse(i))) = heap.pop() else {
            break;
        };
        let Some(fresh) = adjusted(i, &by_file, &by_dir) else {
            continue;
        };
        if fresh < stale && heap.peek().is_some_and(|top| Key(fresh, Reverse(i)) < *top) {
            heap.push(Key(fresh, Reverse(i)));
            continue;
        }
        picked.push(i);
        scores.push(fresh);
        *by_file.entry(&candidates[i].1).or_default() += 1;
        *by_dir.entry(&candidates[i].2).or_default() += 1;
    }
    (picked, scores)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sym(q: &str, kind: &str, vis: Option<&str>) -> SymbolFact {
        SymbolFact {
            qualified_name: q.into(),
            kind: kind.into(),
            signature: String::new(),
            cut_hash: None,
            start_line: 1,
            end_line: 1,
            visibility: vis.map(str::to_owned),
            conditional: false,
            deprecated: false,
        }
    }

    /// A C typedef of a scalar and a macro defined under a condition weigh little beside a
    /// function, however much they are used: zlib's overview led with `uInt`, `Bytef` and the
    /// `Z_PREFIX` renames of its API.
    #[test]
    fn scalar_typedefs_and_conditional_macros_are_plumbing() {
        let with = |kind: &str, signature: &str, conditional: bool| SymbolFact {
            signature: signature.into(),
            conditional,
            ..sym("x", kind, None)
        };
        let function = symbol_weight(&with("function", "int deflate(z_streamp s)", false), 5.0);
        for plumbing in [
            with("type", "typedef unsigned int uInt", false),
            with("type", "typedef Byte FAR *Bytef", false),
            with("macro", "#define deflate …", true),
        ] {
            assert!(symbol_weight(&plumbing, 50.0) < function, "{plumbing:?}");
        }
        for kept in [
            "typedef struct z_stream_s z_stream",
            "typedef voidpf (*alloc_func)(voidpf opaque, uInt items, uInt size)",
        ] {
            assert!(!renames_a_scalar(kept), "{kept}");
        }
        // One that declares the struct it names weighs as that struct: jq's `jv`.
        let declared = with("type", "typedef struct { … } jv", false);
        let record = with("struct", "struct jv_refcnt", false);
        assert_eq!(
            symbol_weight(&declared, 5.0),
            symbol_weight(&record, 5.0),
            "{declared:?}"
        );
    }

    /// A module is private to its crate when a file on the way from the crate root declares it
    /// without `pub`; a root, an undeclared module and another language's file are not.
    #[test]
    fn rust_modules_private_to_their_crate() {
        let rust = |modules: &[(&str, &str)]| CodeFacts {
            language: "Rust".into(),
            symbols: modules
                .iter()
                .map(|(name, vis)| sym(name, "module", Some(vis)))
                .collect(),
            ..Default::default()
        };
        let lib = rust(&[
            ("private", "private"),
            ("de", "public"),
            ("ser", "internal"),
        ]);
        let private_mod = rust(&[("content", "public")]);
        let public_mod = rust(&[("value", "public"), ("hidden", "private")]);
        let leaf = rust(&[]);
        let python = CodeFacts {
            language: "Python".into(),
            ..Default::default()
        };
        let files: Vec<(&[u8], &CodeFacts)> = vec![
            (b"serde/src/lib.rs", &lib),
            (b"serde/src/private/mod.rs", &private_mod),
            (b"serde/src/private/content.rs", &leaf),
            (b"serde/src/de.rs", &public_mod),
            (b"serde/src/de/value.rs", &leaf),
            (b"serde/src/de/hidden.rs", &leaf),
            (b"serde/src/ser.rs", &leaf),
            (b"serde/src/other.rs", &leaf),
            (b"serde/src/private/x.py", &python),
        ];
        let private: Vec<(&str, bool)> = files
            .iter()
            .zip(rust_private_modules(&files))
            .map(|((p, _), v)| (std::str::from_utf8(p).unwrap(), v))
            .collect();
        assert_eq!(
            private,
            [
                ("serde/src/lib.rs", false),
                ("serde/src/private/mod.rs", true),
                ("serde/src/private/content.rs", true),
                ("serde/src/de.rs", false),
                ("serde/src/de/value.rs", false),
                ("serde/src/de/hidden.rs", true),
                ("serde/src/ser.rs", true),
                ("serde/src/other.rs", false),
                ("serde/src/private/x.py", false),
            ]
        );
    }

    /// A package exports its public top-level types and functions, not its members, modules,
    /// macros, nor the names whose two leading underscores say they are hidden.
    #[test]
    fn what_a_package_exports() {
        assert!(is_exportable(&sym("Router", "struct", Some("public"))));
        assert!(is_exportable(&sym("serve", "function", Some("exported"))));
        assert!(!is_exportable(&sym("helper", "function", None)));
        assert!(!is_exportable(&sym(
            "Router.route",
            "method",
            Some("public")
        )));
        assert!(!is_exportable(&sym("routing", "module", Some("public"))));
        assert!(is_exportable(&sym("Serialize", "macro", Some("public"))));
        assert!(!is_exportable(&sym("MAX_LEN", "macro", None)));
        assert!(!is_exportable(&sym(
            "__private_axum_test",
            "function",
            Some("public")
        )));
        assert!(!is_exportable(&sym("__private", "struct", Some("public"))));
    }

    #[test]
    fn base_classes_read_what_a_class_extends() {
        let cases: &[(&str, &str, &[&str])] = &[
            ("Python", "class Flask(App)", &["App"]),
            (
                "Python",
                "class View(base.View, Generic[T], metaclass=Meta)",
                &["View", "Generic"],
            ),
            ("Python", "class Plain", &[]),
            ("Ruby", "class Application < Sinatra::Base", &["Base"]),
            ("Ruby", "class Base", &[]),
            (
                "TypeScript",
                "export class Map<K extends Key> extends Base<K> implements I",
                &["Base"],
            ),
            ("TypeScript", "export class Box<T extends Item>", &[]),
            (
                "Java",
                "public final class Gson extends Object implements Cloneable",
                &["Object"],
            ),
            ("PHP", "class Kernel extends \\Http\\Kernel", &["Kernel"]),
            ("Rust", "pub struct Match", &[]),
        ];
        for (language, signature, expected) in cases {
            assert_eq!(&base_classes(language, signature), expected, "{signature}");
        }
    }

    #[test]
    fn directory_names_are_looked_up_in_any_case() {
        for (list, bit) in dir_lists() {
            for dir in list {
                assert!(dir.len() <= LONGEST_DIR_NAME, "{dir}");
                for name in [dir.to_string(), dir.to_ascii_uppercase()] {
                    assert_ne!(dir_kind(name.as_bytes()) & bit, 0, "{name}");
                }
            }
        }
        assert_eq!(dir_kind(b"Tests"), TEST_DIR);
        assert_eq!(dir_kind(b"Node_Modules"), VENDORED_DIR);
        assert_eq!(dir_kind(b"Benchmarks"), EXAMPLE_DIR);
        for other in [
            "src",
            "lib",
            "testing-library",
            "vendored",
            "",
            "é",
            "a".repeat(40).as_str(),
        ] {
            assert_eq!(dir_kind(other.as_bytes()), 0, "{other}");
        }
    }

    #[test]
    fn roles_follow_directory_and_file_names() {
        assert_eq!(role(b"src/flask/app.py"), Role::Source);
        assert_eq!(role(b"tests/test_app.py"), Role::Test);
        assert_eq!(role(b"ossfuzz/standaloneengine.c"), Role::Test);
        // Go names its tests `_test.go` only: `test_helpers.go` is a package's API.
        assert_eq!(role(b"test_helpers.go"), Role::Source);
        assert_eq!(role(b"mux_test.go"), Role::Test);
        assert_eq!(role(b"internal/testutil.go"), Role::Test);
        // A forge's files, a top-level build directory's, and code serving the documents are
        // the project's tooling; documents under `docs/` and a package's own `build` are not.
        assert_eq!(role(b".github/REPRODUCTION_SCRIPT.rb"), Role::Example);
        assert_eq!(role(b"build/syntax_mapping.rs"), Role::Example);
        assert_eq!(role(b"docs/_themes/flask_theme_support.py"), Role::Example);
        assert_eq!(role(b"docs/guide.md"), Role::Source);
        assert_eq!(role(b".github/CONTRIBUTING.md"), Role::Source);
        assert_eq!(role(b"src/build/mod.rs"), Role::Source);
        assert_eq!(role(b"doc/md_docs.go"), Role::Source);
        assert_eq!(role(b"src/bin/stdio-fixture.rs"), Role::Test);
        assert_eq!(role(b"t/test-lib-functions.sh"), Role::Test);
        assert_eq!(role(b"t/helper/test-tool.c"), Role::Test);
        assert_eq!(role(b"t.c"), Role::Source);
        assert_eq!(role(b"src/test_utils.py"), Role::Test);
        // Shared test helpers by their usual names: Rust's `testutil.rs`, Go's `testutil/`.
        assert_eq!(role(b"crates/searcher/src/testutil.rs"), Role::Test);
        assert_eq!(role(b"internal/testutil/server.go"), Role::Test);
        assert_eq!(role(b"src/testutils.ts"), Role::Test);
        assert_eq!(role(b"src/utility.rs"), Role::Source);
        assert_eq!(utility_factor(b"src/Utils.php"), UTILITY_FACTOR);
        assert_eq!(utility_factor(b"source/utils/merge.ts"), UTILITY_FACTOR);
        assert_eq!(utility_factor(b"lib/helpers.rb"), UTILITY_FACTOR);
        assert_eq!(utility_factor(b"src/main/java/StringUtils.java"), 1.0);
        assert_eq!(utility_factor(b"utils.go"), UTILITY_FACTOR);
        assert_eq!(utility_factor(b"src/utils/sub/deep.ts"), 1.0);
        assert_eq!(role(b"cmd/root_test.go"), Role::Test);
        assert_eq!(role(b"packages/x/src/a.spec.ts"), Role::Test);
        assert_eq!(
            role(b"packages/babel-helper-fixtures/src/index.ts"),
            Role::Test
        );
        assert_eq!(role(b"packages/prefixtures/src/index.ts"), Role::Source);
        assert_eq!(role(b"gson/src/test/java/GsonTest.java"), Role::Test);
        assert_eq!(role(b"examples/tutorial/app.py"), Role::Example);
        assert_eq!(
            role(b"lib/generators/templates/controllers/sessions_controller.rb"),
            Role::Example
        );
        // What tests share, named for them first (koa's `test-helpers/context.js`); not a
        // library named for testing.
        assert_eq!(role(b"test-helpers/context.js"), Role::Test);
        assert_eq!(role(b"pkg/test_utils/fake.go"), Role::Test);
        assert_eq!(role(b"packages/testing-library/src/index.ts"), Role::Source);
        assert_eq!(role(b"src/test-/a.js"), Role::Source);
        // Documentation's code samples (Polly's `src/Snippets/Docs/`, typer's `docs_src/`).
        assert_eq!(role(b"src/Snippets/Docs/Retry.cs"), Role::Example);
        assert_eq!(role(b"docs_src/app_dir/__init__.py"), Role::Example);
        // A project's own tooling (libgit2's static-analysis model redefined its API).
        assert_eq!(role(b"script/user_model.c"), Role::Example);
        assert_eq!(
            role(b"packages/vite/scripts/generateTarget.ts"),
            Role::Example
        );
        assert_eq!(role(b"src/scripting/engine.c"), Role::Source);

        // Fuzzers and a file named for tests (cJSON's `fuzzing/afl.c`, its `test.c`).
        assert_eq!(role(b"fuzzing/afl.c"), Role::Test);
        assert_eq!(role(b"fuzz/fuzz_targets/parse.rs"), Role::Test);
        assert_eq!(role(b"test.c"), Role::Test);
        assert_eq!(role(b"src/tests.rs"), Role::Test);
        assert_eq!(role(b"src/testing_tools.rs"), Role::Source);
        assert_eq!(role(b"src/werkzeug/test.py"), Role::Source);
        // A library bundled as released (spdlog's copy of fmt).
        assert_eq!(role(b"include/spdlog/fmt/bundled/core.h"), Role::Vendored);
        assert_eq!(role(b"single_include/nlohmann/json.hpp"), Role::Vendored);
        assert_eq!(role(b"deprecated/stb.h"), Role::Vendored);
        // A one-file amalgamation, wherever it lies (Catch2's `extras/`); a word of the name.
        assert_eq!(role(b"extras/catch_amalgamated.hpp"), Role::Vendored);
        assert_eq!(role(b"extras/catch_amalgamated.cpp"), Role::Vendored);
        assert_eq!(role(b"src/amalgamate.py"), Role::Source);
        assert!(in_internal_dir(
            b"packages/svelte/src/internal/client/runtime.js"
        ));
        assert!(in_internal_dir(b"internal/tag/add.go"));
        assert!(!in_internal_dir(b"internal.go"));
        assert!(!in_internal_dir(b"src/internals.rs"));
        assert!(in_internal_dir(b"include/yaml-cpp/node/detail/node.h"));
        assert!(!in_internal_dir(b"src/detail.cpp"));
        assert!(in_internal_dir(b"src/requests/_internal_utils.py"));
        assert!(in_internal_dir(b"_compat.py"));
        assert!(!in_internal_dir(b"src/requests/__init__.py"));
        assert!(!in_internal_dir(b"src/requests/__main__.py"));
        assert!(!in_internal_dir(b"src/_private.rs"));
        // A leading underscore hides an example's name, not what it is (Go's `_example/`);
        // a private package is source.
        assert_eq!(role(b"_example/example.go"), Role::Example);
        assert_eq!(role(b"benchmarking/compare/index.js"), Role::Example);
        assert_eq!(role(b"playgrounds/sandbox/run.js"), Role::Example);
        assert_eq!(role(b"tutorials/basics/main.go"), Role::Example);
        assert_eq!(role(b"fastapi/_compat/v2.py"), Role::Source);
        // Tests hidden from Go's tools, a regression suite, Gradle's test fixtures; benchmarks
        // by their directory or as C, C++ and Python name them; Sphinx's configuration.
        for (path, expected) in [
            ("_fixture/folder/index.html", Role::Test),
            ("pandas/_testing/asserters.py", Role::Test),
            ("regress/copy-mode-test.sh", Role::Test),
            (
                "mockito-core/src/testFixtures/java/org/mockitoutil/TestBase.java",
                Role::Test,
            ),
            ("performance/benchmark.py", Role::Example),
            ("perf/perf.js", Role::Example),
            ("docs/conf.py", Role::Example),
            ("src/conf.py", Role::Source),
            (
                "absl/container/internal/raw_hash_set_probe_benchmark.cc",
                Role::Example,
            ),
            ("absl/random/internal/randen_benchmarks.cc", Role::Example),
            ("src/benchmark.cc", Role::Source),
            ("src/benchmark_runner.cc", Role::Source),
            // Files named for what they are: a documentation's example program, type tests.
            ("docs/integration/conan/example.cpp", Role::Example),
            (
                "src/main/java/org/springframework/data/domain/Example.java",
                Role::Source,
            ),
            ("src/example_parser.py", Role::Source),
            ("typings/index.test-d.ts", Role::Test),
            ("typings/index.d.ts", Role::Source),
        ] {
            assert_eq!(role(path.as_bytes()), expected, "{path}");
        }
        assert_eq!(role(b"benches/parse.rs"), Role::Example);
        // Extras beside the project, not a package's own `contrib` module.
        assert_eq!(role(b"contrib/subtree/git-subtree.sh"), Role::Example);
        assert_eq!(role(b"django/contrib/admin/sites.py"), Role::Source);
        assert_eq!(role(b"vendor/lib/x.c"), Role::Vendored);
        assert_eq!(role(b"compat/vcbuild/include/unistd.h"), Role::Vendored);
        assert_eq!(role(b"t/helper/test-tool.c"), Role::Test);
        // A name that merely contains "test" is source.
        assert_eq!(role(b"src/attestation.rs"), Role::Source);
        assert_eq!(role(b"src/Contest.java"), Role::Source);
        assert_eq!(role(b"src/App.Test.tsx"), Role::Test, "any case");
        // A JVM package's directories are its name; the source set says what the files are.
        assert_eq!(
            role(b"src/main/java/org/springframework/samples/petclinic/vet/Vet.java"),
            Role::Source
        );
        assert_eq!(
            role(b"src/test/java/org/example/samples/VetTests.java"),
            Role::Test
        );
        assert_eq!(role(b"src/test/kotlin/org/example/Fixtures.kt"), Role::Test);
        assert_eq!(role(b"samples/src/main/java/demo/App.java"), Role::Example);
        // A package of examples in the source set is one (jsoup's); a package inside one is not.
        assert_eq!(
            role(b"src/main/java/org/jsoup/examples/ListLinks.java"),
            Role::Example
        );
        assert_eq!(
            role(b"src/main/java/org/example/samples/api/Client.java"),
            Role::Source
        );
        assert_eq!(
            role(b"metrics/src/main/java/com/google/gson/metrics/ParseBenchmark.java"),
            Role::Example
        );
        assert_eq!(role(b"src/Benchmark.java"), Role::Source);
        assert_eq!(
            role(
                b"extras/src/main/java/com/google/gson/extras/examples/RawCollectionsExample.java"
            ),
            Role::Example
        );
        // Spring Initializr's default package is no example: `com.example.demo`.
        assert_eq!(
            role(b"src/main/java/com/example/demo/DemoApplication.java"),
            Role::Source
        );
        assert_eq!(role(b"gradlew"), Role::Vendored);
        assert_eq!(role(b"sub/mvnw.cmd"), Role::Vendored);
        assert_eq!(role(b"noxfile.py"), Role::Vendored);
        // .NET and Java test projects by their names.
        for test in [
            "Src/Newtonsoft.Json.Tests/JsonReaderTest.cs",
            "src/AutoMapper.DI.Tests/Setup.cs",
            "src/UnitTests/Bug/BaseEntity.cs",
            "src/IntegrationTests/Db.cs",
            "src/TestApp/Program.cs",
            "Src/Newtonsoft.Json.TestConsole/Program.cs",
            "test/TestDummies/Dummy.cs",
            "e2e_tests/run.py",
            "web-tests/page.ts",
            "src/FluentValidation.Tests.Benchmarks/Program.cs",
        ] {
            assert_eq!(role(test.as_bytes()), Role::Test, "{test}");
        }
        for source in [
            "src/latest/x.py",
            "src/Contests/Board.cs",
            "src/Testcontainers/Container.cs",
            "src/Serilog/Core/Logger.cs",
            "test-shrinker/src/Main.java",
            "src/Tests.Shared.Contracts/Api.cs",
        ] {
            assert_eq!(role(source.as_bytes()), Role::Source, "{source}");
        }
    }

    #[test]
    fn package_roots_per_ecosystem() {
        for root in [
            "src/lib.rs",
            "crates/core/src/lib.rs",
            "src/flask/__init__.py",
            "fastapi/__init__.py",
            "packages/core/src/index.ts",
            "lib/sinatra.rb",
            "rack-protection/lib/rack_protection.rb",
            "gson/src/main/java/module-info.java",
        ] {
            assert!(is_package_root(root.as_bytes()), "{root}");
        }
        for other in [
            "src/main.rs",
            "a/b/c/pkg/__init__.py",
            "lib/sinatra/base.rb",
            "rack-protection/lib/rack/protection.rb",
            "app.rb",
            "lib/tasks.rake",
            // A Python package named with a leading `_` is private (fastapi's `_compat`).
            "fastapi/_compat/__init__.py",
            "_internal/__init__.py",
        ] {
            assert!(!is_package_root(other.as_bytes()), "{other}");
        }
    }

    #[test]
    fn a_java_librarys_root_package_is_its_shallowest_package_info() {
        let roots = |paths: &[&str]| -> Vec<String> {
            java_root_packages(paths.iter().map(|p| p.as_bytes()))
                .iter()
                .map(|p| String::from_utf8_lossy(p).into_owned())
                .collect()
        };
        let lang = "src/main/java/org/apache/commons/lang3";
        assert_eq!(
            roots(&[
                &format!("{lang}/builder/package-info.java"),
                &format!("{lang}/package-info.java"),
                &format!("{lang}/StringUtils.java"),
                "src/test/java/org/apache/commons/lang3/package-info.java",
            ]),
            [format!("{lang}/package-info.java")]
        );
        // A module's declaration is the root of its source set; each set has its own.
        assert_eq!(
            roots(&[
                "gson/src/main/java/module-info.java",
                "gson/src/main/java/com/google/gson/package-info.java",
                "extras/src/main/java/com/google/gson/extras/package-info.java",
            ]),
            ["extras/src/main/java/com/google/gson/extras/package-info.java"]
        );
        assert!(roots(&["src/org/x/package-info.java"]).is_empty());
    }

    #[test]
    fn a_c_librarys_umbrella_header_hands_on_its_tree() {
        let code = |language: &str, imports: &[&str], symbols: &[(&str, &str)]| CodeFacts {
            language: language.into(),
            imports: imports.iter().map(|i| i.to_string()).collect(),
            symbols: symbols
                .iter()
                .map(|(name, kind)| sym(name, kind, None))
                .collect(),
            ..Default::default()
        };
        let three = [
            "yaml-cpp/parser.h",
            "yaml-cpp/emitter.h",
            "yaml-cpp/node/node.h",
        ];
        let umbrella = code("C++", &three, &[("YAML_H_", "macro")]);
        assert_eq!(
            umbrella_includes(b"include/yaml-cpp/yaml.h", &umbrella),
            [
                b"include/yaml-cpp/emitter.h".to_vec(),
                b"include/yaml-cpp/node/node.h".to_vec(),
                b"include/yaml-cpp/parser.h".to_vec()
            ]
        );
        // A header named for its tree, beside it; in a member's include directory.
        let git2 = code(
            "C",
            &["git2/common.h", "git2/errors.h", "git2/repository.h"],
            &[],
        );
        assert_eq!(umbrella_includes(b"include/git2.h", &git2).len(), 3);
        assert_eq!(umbrella_includes(b"lib/include/git2.h", &git2).len(), 3);
        // Not: outside an include directory, too deep in it, including too little, defining
        // more than it includes, or another tree's headers.
        assert!(umbrella_includes(b"src/yaml.h", &umbrella).is_empty());
        assert!(umbrella_includes(b"include/yaml-cpp/node/all.h", &umbrella).is_empty());
        let two = code("C++", &three[..2], &[]);
        assert!(umbrella_includes(b"include/yaml-cpp/yaml.h", &two).is_empty());
        let defines: Vec<(&str, &str)> = vec![("DumpFile", "function")];
        let busy = code("C++", &three, &defines);
        assert!(umbrella_includes(b"include/yaml-cpp/yaml.h", &busy).is_empty());
        assert!(umbrella_includes(b"include/other/all.h", &umbrella).is_empty());
        assert!(umbrella_includes(b"include/yaml-cpp/yaml.py", &umbrella).is_empty());
    }

    #[test]
    fn imports_resolve_per_ecosystem() {
        let m = |importer: &[u8], import: &str, target: &[u8]| {
            import_matches(&import_components(importer, import), target)
        };
        // Python absolute and relative imports, package __init__.
        assert!(m(b"src/flask/views.py", "flask.app", b"src/flask/app.py"));
        assert!(m(b"src/flask/views.py", ".app", b"src/flask/app.py"));
        assert!(m(b"src/flask/json/tag.py", "..app", b"src/flask/app.py"));
        assert!(m(b"src/x.py", "flask", b"src/flask/__init__.py"));
        assert!(!m(b"src/flask/views.py", "flask.app", b"tests/app.py"));
        assert!(!m(b"src/flask/views.py", ".app", b"tests/test_app.py"));
        // Rust paths, with an item after the module.
        assert!(m(
            b"crates/core/src/main.rs",
            "crate::cue::views::overview::build",
            b"crates/core/src/cue/views/overview.rs"
        ));
        assert!(m(b"src/main.rs", "crate::cue::fit", b"src/cue/mod.rs"));
        // JS relative imports with and without extensions, index files.
        assert!(m(
            b"packages/a/src/x.ts",
            "./util/y",
            b"packages/a/src/util/y.ts"
        ));
        assert!(m(
            b"packages/a/src/x.ts",
            "../lib",
            b"packages/a/lib/index.js"
        ));
        assert!(!m(
            b"packages/a/src/x.ts",
            "./util/y",
            b"packages/b/src/util/z.ts"
        ));
        // C includes, Java and Go packages.
        assert!(m(
            b"builtin/add.c",
            "\"git-compat-util.h\"",
            b"git-compat-util.h"
        ));
        assert!(m(
            b"a/B.java",
            "com.google.gson.Gson",
            b"gson/src/main/java/com/google/gson/Gson.java"
        ));
        assert!(m(b"doc/md_docs.go", "github.com/spf13/cobra", b"cobra.go"));
        assert!(m(b"main.go", "github.com/x/y/pkg/cli", b"pkg/cli/root.go"));
        assert!(import_components(b"a.py", "*").is_empty());
    }

    #[test]
    fn public_types_used_elsewhere_outweigh_private_helpers() {
        let public_type = symbol_weight(&sym("Flask", "class", Some("public")), 5.0);
        let unused_public = symbol_weight(&sym("Flask", "class", Some("public")), 0.0);
        let private_helper = symbol_weight(&sym("_split", "function", Some("private")), 5.0);
        let method = symbol_weight(&sym("Flask.route", "method", Some("public")), 5.0);
        let private_struct = symbol_weight(&sym("Inner", "struct", Some("private")), 0.0);
        assert!(public_type > unused_public);
        assert!(unused_public > private_helper);
        assert!(public_type > method);
        assert!(unused_public > private_struct * 5.0);
    }

    /// The plain quadratic greedy pick that [`diverse`] must equal.
    fn naive(c: &[(f64, usize, usize)], n: usize, per_file: usize) -> Vec<usize> {
        let mut picked = vec![];
        let (mut f, mut d): (HashMap<usize, usize>, HashMap<usize, usize>) =
            (HashMap::new(), HashMap::new());
        while picked.len() < n {
            let mut best: Option<(f64, usize)> = None;
            for (i, (s, file, dir)) in c.iter().enumerate() {
                let nf = *f.get(file).unwrap_or(&0);
                if picked.contains(&i) || nf >= per_file {
                    continue;
                }
                let nd = *d.get(dir).unwrap_or(&0);
                let adj = s * 0.6f64.powi(nf as i32) * 0.75f64.powi(nd as i32);
                if best.is_none_or(|(b, _)| adj > b) {
                    best = Some((adj, i));
                }
            }
            let Some((_, i)) = best else { break };
            picked.push(i);
            *f.entry(c[i].1).or_insert(0) += 1;
            *d.entry(c[i].2).or_insert(0) += 1;
        }
        picked
    }

    /// An error type, and the interface a package's errors share, weigh less; so does a
    /// directory of them among the components.
    #[test]
    fn errors_count_for_less() {
        let public = Some("public");
        let command = symbol_weight(&sym("Command", "class", public), 5.0);
        for error in ["ExceptionInterface", "LogicException", "ParseError"] {
            let kind = if error.ends_with("Interface") {
                "interface"
            } else {
                "class"
            };
            assert!(
                symbol_weight(&sym(error, kind, public), 5.0) < command,
                "{error}"
            );
        }
        let output = symbol_weight(&sym("OutputInterface", "interface", public), 5.0);
        assert!(output >= command, "{output} {command}");
        assert!(errors_dir_factor("Exception/") < 1.0);
        assert!(errors_dir_factor("src/errors/") < 1.0);
        assert_eq!(errors_dir_factor("Command/"), 1.0);
        assert_eq!(errors_dir_factor("src/error_handling/"), 1.0);
    }

    #[test]
    fn lazy_diverse_pick_equals_the_plain_greedy_one() {
        let c = spread(0x2545_f491_4f6c_dd1d, 300, (50, 7.0), 23, 5);
        for (n, per_file) in [(1, 1), (20, 2), (150, 12), (400, 3)] {
            assert_eq!(
                diverse(&c, n, per_file).0,
                naive(&c, n, per_file),
                "{n} {per_file}"
            );
        }
    }

    /// A deterministic pseudo-random spread (xorshift from `seed`) of `count` candidates:
    /// scores `k / divisor` for `k` below `levels` (ties included), over `files` files and
    /// `dirs` directories.
    fn spread(
        seed: u64,
        count: usize,
        (levels, divisor): (u64, f64),
        files: usize,
        dirs: usize,
    ) -> Vec<(f64, usize, usize)> {
        let mut x = seed;
        (0..count)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                (
                    (x % levels) as f64 / divisor,
                    (x >> 8) as usize % files,
                    (x >> 16) as usize % dirs,
                )
            })
            .collect()
    }

    /// The picks' scores never rise, and a further candidate scoring below the `k`-th pick's
    /// leaves the first `k` picks as they were, whatever its file and directory.
    #[test]
    fn a_candidate_below_a_picks_score_changes_no_earlier_pick() {
        let c = spread(0x9e37_79b9_7f4a_7c15, 200, (40, 3.0), 17, 4);
        let (picks, scores) = diverse(&c, 30, 2);
        assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{scores:?}");
        for k in [1, 10, 30] {
            let below = scores[k - 1] * 0.999;
            for (file, dir) in [(0, 0), (99, 9), (c[picks[0]].1, c[picks[0]].2)] {
                let mut more = c.clone();
                more.insert(0, (below, file, dir));
                let (again, _) = diverse(&more, 30, 2);
                let shifted: Vec<usize> = again[..k].iter().map(|i| i - 1).collect();
                assert!(!again[..k].contains(&0), "{k} {file} {dir}");
                assert_eq!(shifted, picks[..k], "{k} {file} {dir}");
            }
        }
    }

    #[test]
    fn diverse_picks_keep_one_file_from_filling_the_list() {
        let c = [
            (10.0, "a.rs", "src"),
            (9.0, "a.rs", "src"),
            (8.5, "a.rs", "src"),
            (8.0, "a.rs", "src"),
            (2.0, "b.rs", "src"),
            (1.0, "c.rs", "lib"),
        ];
        let picks = diverse(&c, 4, 2).0;
        assert_eq!(picks.len(), 4);
        let from_a = picks.iter().filter(|&&i| c[i].1 == "a.rs").count();
        assert_eq!(from_a, 2, "{picks:?}");
        assert_eq!(picks[0], 0);
        assert!(picks.contains(&4) && picks.contains(&5));
        // Deterministic.
        assert_eq!(picks, diverse(&c, 4, 2).0);
    }
}
