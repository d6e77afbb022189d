//! Build manifests: project name and description, workspace members, entry points and the
//! build/test/run commands a newcomer would type.
//!
//! Commands are derived from what the manifest declares, never guessed from prose.

use serde::{Deserialize, Serialize};

use crate::paths;

/// Most commands kept per manifest.
const MAX_COMMANDS: usize = 24;

/// What one manifest declares.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ManifestFacts {
    /// Which ecosystem: `cargo`, `npm`, `make`, `python`, `go`, `cmake`, `meson`, `just`,
    /// `maven`, `gradle`, `ruby`, `composer`, `tox`, `pnpm`, `dotnet`; `ci` for a CI
    /// workflow, which holds only the commands its steps run ([`super::workflow`]).
    pub kind: String,
    /// Declared package or project name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Declared one-line description (repository text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Commands, in declaration order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub commands: Vec<CommandFact>,
    /// Workspace members / packages (paths or globs relative to the manifest).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub members: Vec<String>,
    /// Declared entry points (paths relative to the manifest, or script names).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub entry_points: Vec<String>,
    /// Direct runtime dependencies by name, in declaration order (not development, build or
    /// indirect ones): what the project is built on.
    #[serde(rename = "d", default, skip_serializing_if = "Vec::is_empty")]
    pub dependencies: Vec<String>,
    /// Programs the build runs, not programs of the project (Cargo's `build = "build/main.rs"`;
    /// its default `build.rs` is known by name), relative to the manifest.
    #[serde(rename = "b", default, skip_serializing_if = "Vec::is_empty")]
    pub build_scripts: Vec<String>,
    /// The language or runtime version the project requires or targets, as the manifest
    /// states it, named: `Python >=3.10` (`requires-python`), `Rust 1.85, edition 2024`,
    /// `Go 1.22` (the `go` directive), `Node.js >=22` (`engines`), `PHP ^8.0.2`, `Java 8`
    /// (`maven.compiler.release`, `source`, or Spring's `java.version`), `Ruby >= 2.7`
    /// (`required_ruby_version`), `C++17` (CMake's `CXX_STANDARD`, `cxx_std_17`), `.NET
    /// net8.0` (`TargetFramework`). What code may use, which a contributor needs before
    /// writing any.
    #[serde(rename = "r", default, skip_serializing_if = "Option::is_none")]
    pub requires: Option<String>,
    /// Directories whose own files (not their subdirectories') make the package's root
    /// namespace, what its users name first: Composer's PSR-4 autoload directories
    /// (guzzle's `src` for `GuzzleHttp\`), a .NET library project's own directory (`""`).
    /// Relative to the manifest, without a trailing `/`.
    #[serde(rename = "n", default, skip_serializing_if = "Vec::is_empty")]
    pub namespace_roots: Vec<String>,
    /// The license the manifest declares, as it writes it (an SPDX expression mostly: `MIT`,
    /// `MIT OR Apache-2.0`; composer's list joined with ` OR `): package.json, composer.json,
    /// Cargo.toml, pyproject.toml, a gemspec, an MSBuild project's
    /// `PackageLicenseExpression`. At most [`MAX_LICENSE`] ASCII characters.
    #[serde(rename = "l", default, skip_serializing_if = "Option::is_none")]
    pub license: Option<String>,
    /// The directory a Makefile hands every target it does not define to (`.DEFAULT:` with a
    /// recipe `cd src && $(MAKE) $@`, or `$(MAKE) -C src $@`: Redis's), relative to it: that
    /// directory's Makefile's targets run from here too.
    #[serde(rename = "m", default, skip_serializing_if = "Option::is_none")]
    pub make_delegate: Option<String>,
    /// The package manager a package.json's `packageManager` names (`pnpm` of `pnpm@9.1.0`):
    /// the one that runs its scripts when no lock file says.
    #[serde(rename = "p", default, skip_serializing_if = "Option::is_none")]
    pub package_manager: Option<String>,
}

/// Longest license expression kept ([`ManifestFacts::license`]): a name, not a license text.
const MAX_LICENSE: usize = 60;

/// A declared license, trimmed, if it is short ASCII ([`MAX_LICENSE`]) and not empty.
fn license(value: &str) -> Option<String> {
    let value = value.trim();
    (!value.is_empty() && value.len() <= MAX_LICENSE && value.is_ascii() && !value.contains('\n'))
        .then(|| value.to_owned())
}

/// Most dependencies kept per manifest.
const MAX_DEPENDENCIES: usize = 40;

/// One runnable command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommandFact {
    /// The command line, run from the manifest's directory.
    pub command: String,
    /// `build`, `test`, `run`, `lint`, `format`, `install`, `bench`, `docs` or `other`.
    pub purpose: String,
    /// The programs a package script runs, by name and in order (`xo`, `ava` of ky's
    /// `xo && npm run build && ava`): which test runner, linter or compiler the command is.
    /// Names only, never an argument or a variable's value ([`script_step`]); scripts of
    /// package.json and composer.json only.
    #[serde(rename = "u", default, skip_serializing_if = "Vec::is_empty")]
    pub runs: Vec<String>,
}

/// Most programs kept per script ([`script_programs`]).
const MAX_SCRIPT_PROGRAMS: usize = 4;

/// What one step of a package script runs ([`script_step`]).
#[derive(Debug, PartialEq)]
enum Step<'a> {
    /// A program, by name.
    Program(&'a str),
    /// Another script of the same manifest (`npm run build`, composer's `@lint`).
    Script(&'a str),
    /// Nothing to name: the shell's own commands, the package manager, a word that is no
    /// plain program name.
    Nothing,
}

/// What a step of a package script's command line runs: its first word, after variable
/// assignments (`CI=1`) and the wrappers `npx`, `cross-env`, `env`, `exec` and `time`, by its
/// file name (`phpunit` of `vendor/bin/phpunit`). An interpreter (`node`, `php`) names the
/// dependency's program it runs (`node_modules/jest/bin/jest.js`), not the project's own
/// script (a wrapper that may run anything). Words that are no plain program name (quotes,
/// `$`, globs) name nothing: a script's arguments and values may hold anything, its
/// programs' names are what a contributor needs.
fn script_step(step: &str) -> Step<'_> {
    const WRAPPERS: &[&str] = &["npx", "cross-env", "env", "exec", "time", "@php"];
    const MANAGERS: &[&str] = &["npm", "yarn", "pnpm", "bun", "composer", "npm-run-all"];
    const INTERPRETERS: &[&str] = &["node", "php", "python", "python3", "tsx", "ts-node"];
    // The shell's own and file commands (npm's default `echo "Error: no test specified" &&
    // exit 1`, `cd docs && …`, `rm -rf dist`) and Git are no tool of the project's.
    const SHELL: &[&str] = &[
        "cd", "echo", "exit", "rm", "mkdir", "cp", "mv", "true", "false", "cat", "printf", "sleep",
        "touch", "export", "set", "test", "shx", "git",
    ];
    let plain = |w: &str| {
        let mut chars = w.chars();
        chars.next().is_some_and(|c| c.is_ascii_alphabetic())
            && w.len() <= 40
            && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '+'))
    };
    let assignment = |w: &str| {
        w.split_once('=').is_some_and(|(name, _)| {
            !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        })
    };
    let mut words = step
        .split_whitespace()
        .skip_while(|w| assignment(w) || WRAPPERS.contains(w));
    let Some(first) = words.next() else {
        return Step::Nothing;
    };
    if let Some(script) = first.strip_prefix('@') {
        return Step::Script(script);
    }
    if MANAGERS.contains(&first) {
        return match (words.next(), words.next()) {
            (Some("run" | "run-script"), Some(script)) => Step::Script(script),
            (Some(script @ ("test" | "start")), _) => Step::Script(script),
            _ => Step::Nothing,
        };
    }
    let word = match words.next() {
        Some(script) if INTERPRETERS.contains(&first) => {
            if script.contains("node_modules/") || script.contains("vendor/") {
                script
            } else {
                // The project's own script names nothing, unless it wraps a program named
                // next (axios's `node bin/ssl_hotfix.js mocha test/…`).
                match words
                    .find(|w| !assignment(w) && !WRAPPERS.contains(w))
                    .filter(|w| !w.contains(['/', '.']))
                {
                    Some(program) => program,
                    None => return Step::Nothing,
                }
            }
        }
        _ => first,
    };
    let name = word.rsplit('/').next().unwrap_or(word);
    let name = match word.contains('/') {
        // A file: its name without the extension.
        true => name.rsplit_once('.').map_or(name, |(stem, _)| stem),
        false => name,
    };
    if SHELL.contains(&name) || !plain(name) {
        return Step::Nothing;
    }
    Step::Program(name)
}

/// The steps of a shell command line: the parts `&`, `|` and `;` separate outside quotes.
/// Inline code is one step (zustand's `node -e "import …; const b = 1"` ran `import` and
/// `const`).
fn shell_steps(line: &str) -> Vec<&str> {
    let mut steps = Vec::new();
    let mut quote: Option<char> = None;
    let mut escaped = false;
    let mut start = 0;
    for (i, c) in line.char_indices() {
        match (quote, c) {
            _ if escaped => escaped = false,
            (Some('"') | None, '\\') => escaped = true,
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '&' | '|' | ';') => {
                steps.push(&line[start..i]);
                start = i + 1;
            }
            (None, _) => {}
        }
    }
    steps.push(&line[start..]);
    steps
}

/// The programs a package script runs ([`CommandFact::runs`]): those of each step of its
/// command lines (`&&`, `||`, `;`, `|` and `&` separate steps, [`script_step`]), and of the
/// scripts it runs (slim's `test` of `@phpunit`, `@phpcs`, `@phpstan`), in order, each once,
/// at most [`MAX_SCRIPT_PROGRAMS`]. `scripts` gives a script's command lines by name.
fn script_programs<'a>(name: &str, scripts: &dyn Fn(&str) -> Option<Vec<&'a str>>) -> Vec<String> {
    fn walk<'a>(
        name: &str,
        scripts: &dyn Fn(&str) -> Option<Vec<&'a str>>,
        seen: &mut Vec<String>,
        out: &mut Vec<String>,
    ) {
        if seen.iter().any(|s| s == name) {
            return;
        }
        seen.push(name.to_owned());
        for line in scripts(name).unwrap_or_default() {
            for step in shell_steps(line) {
                match script_step(step) {
                    Step::Program(p) => {
                        if !out.iter().any(|o| o == p) && out.len() < MAX_SCRIPT_PROGRAMS {
                            out.push(p.to_owned());
                        }
                    }
                    Step::Script(s) => walk(s, scripts, seen, out),
                    Step::Nothing => {}
                }
            }
        }
    }
    let mut out = Vec::new();
    walk(name, scripts, &mut Vec::new(), &mut out);
    out
}

/// Tells whether a file name is a manifest this module understands.
pub fn is_manifest(path: &[u8]) -> bool {
    manifest_kind(paths::file_name(path)).is_some()
}

fn manifest_kind(name: &[u8]) -> Option<&'static str> {
    Some(match name {
        b"Cargo.toml" => "cargo",
        b"package.json" => "npm",
        b"Makefile" | b"makefile" | b"GNUmakefile" => "make",
        b"pyproject.toml" | b"setup.py" | b"setup.cfg" => "python",
        b"go.mod" => "go",
        b"CMakeLists.txt" => "cmake",
        b"meson.build" => "meson",
        b"configure.ac" | b"configure.in" | b"Makefile.am" => "autotools",
        b"justfile" | b"Justfile" => "just",
        b"Taskfile.yml" | b"Taskfile.yaml" | b"taskfile.yml" | b"taskfile.yaml" => "task",
        b"pom.xml" => "maven",
        b"build.gradle" | b"build.gradle.kts" => "gradle",
        b"Gemfile" | b"Rakefile" => "ruby",
        b"composer.json" | b"phpunit.xml" | b"phpunit.xml.dist" => "composer",
        b"tox.ini" => "tox",
        b"noxfile.py" => "nox",
        b"pnpm-workspace.yaml" => "pnpm",
        n if is_gemspec(n) => "ruby",
        n if dotnet_file(n).is_some() => "dotnet",
        _ => return None,
    })
}

/// Tells whether a file name is a Ruby gem's specification (`sinatra.gemspec`).
fn is_gemspec(name: &[u8]) -> bool {
    name.len() > b".gemspec".len() && name.ends_with(b".gemspec")
}

/// What a .NET build file is: a solution (`Serilog.sln`, `App.slnx`, its projects listed)
/// or an MSBuild project (`Serilog.csproj`, `.fsproj`, `.vbproj`), with the name before its
/// extension.
fn dotnet_file(name: &[u8]) -> Option<(DotnetFile, &str)> {
    let name = std::str::from_utf8(name).ok()?;
    let (stem, ext) = name.rsplit_once('.')?;
    let kind = match ext {
        "sln" | "slnx" => DotnetFile::Solution,
        "csproj" | "fsproj" | "vbproj" => DotnetFile::Project,
        _ => return None,
    };
    (!stem.is_empty()).then_some((kind, stem))
}

#[derive(Clone, Copy, PartialEq)]
enum DotnetFile {
    Solution,
    Project,
}

/// Classifies a script or target name into a purpose.
pub fn purpose_of(name: &str) -> &'static str {
    let n = name.to_ascii_lowercase();
    let has = |words: &[&str]| {
        words.iter().any(|w| {
            n == *w
                || n.starts_with(&format!("{w}:"))
                || n.starts_with(&format!("{w}-"))
                || n.starts_with(&format!("{w}_"))
        })
    };
    if has(&[
        "test", "tests", "check", "spec", "ci", "e2e", "coverage", "unittest",
    ]) {
        "test"
    } else if has(&["release", "publish", "deploy"]) {
        // Shipping is no step of building: `rake release:tag_version` is not how to build.
        "other"
    } else if has(&["build", "compile", "all", "dist", "package", "bundle"]) {
        "build"
    } else if has(&["run", "start", "serve", "dev", "watch", "preview"]) {
        "run"
    } else if has(&["lint", "clippy", "vet", "typecheck", "tsc", "eslint"]) {
        "lint"
    } else if has(&["fmt", "format", "prettier", "style"]) {
        "format"
    } else if has(&["install", "setup", "bootstrap", "deps", "prepare"]) {
        "install"
    } else if has(&["bench", "benchmark", "benchmarks"]) {
        "bench"
    } else if has(&["doc", "docs", "documentation"]) {
        "docs"
    } else {
        "other"
    }
}

fn cmd(command: impl Into<String>, purpose: &str) -> CommandFact {
    CommandFact {
        command: command.into(),
        purpose: purpose.to_owned(),
        runs: Vec::new(),
    }
}

/// A CI workflow's facts: the commands its steps run ([`super::workflow`]), `None` when it
/// runs none a contributor would.
fn workflow(path: &[u8], text: &str) -> Option<ManifestFacts> {
    let commands: Vec<CommandFact> = super::workflow::commands_of(path, text)
        .into_iter()
        .map(|(command, purpose)| cmd(command, purpose))
        .collect();
    (!commands.is_empty()).then(|| ManifestFacts {
        kind: "ci".to_owned(),
        commands,
        ..Default::default()
    })
}

/// Extracts manifest facts, `None` when the file is not a manifest or cannot be parsed.
pub fn analyze(path: &[u8], text: &str) -> Option<ManifestFacts> {
    if super::workflow::is_workflow(path) {
        return workflow(path, text);
    }
    let kind = manifest_kind(paths::file_name(path))?;
    let mut f = ManifestFacts {
        kind: kind.to_owned(),
        ..Default::default()
    };
    match paths::file_name(path) {
        b"Cargo.toml" => cargo(text, &mut f)?,
        b"package.json" | b"composer.json" => json_scripts(text, &mut f)?,
        b"pyproject.toml" => pyproject(text, &mut f)?,
        b"setup.cfg" => setup_cfg(text, &mut f),
        b"setup.py" => {
            f.requires = setup_py_python(text).map(|v| format!("Python {v}"));
            f.commands.push(cmd("pip install -e .", "install"));
        }
        b"go.mod" => {
            f.name = text
                .lines()
                .find_map(|l| l.trim().strip_prefix("module "))
                .map(|m| m.trim().trim_matches('"').to_owned());
            f.dependencies = go_requires(text);
            f.requires = text
                .lines()
                .find_map(|l| l.trim().strip_prefix("go "))
                .map(str::trim)
                .filter(|v| is_version(v))
                .map(|v| format!("Go {v}"));
            f.commands
                .extend([cmd("go build ./...", "build"), cmd("go test ./...", "test")]);
        }
        b"CMakeLists.txt" => cmake(text, &mut f),
        // Autotools: the build scripts are generated from `configure.ac` (jq had no
        // command), the name is `AC_INIT`'s first argument (`AC_INIT([jq], [1.8.2], …)`).
        b"configure.ac" | b"configure.in" => {
            f.name = text
                .find("AC_INIT(")
                .and_then(|i| call_first_arg(&text[i..].replacen('[', "", 1), "AC_INIT("));
            f.commands.extend([
                cmd("autoreconf -i && ./configure && make", "build"),
                cmd("make check", "test"),
            ]);
        }
        // Automake: the headers it installs are the library's public API (jq's
        // `include_HEADERS = src/jv.h src/jq.h`: its 500-token overview listed internal
        // headers' `dtoa_context` and `jv_mem_free`, never `jq_init` or `jq_compile`).
        b"Makefile.am" => f.entry_points = installed_headers(text),
        b"meson.build" => {
            f.name = call_first_arg(text, "project(");
            f.commands.extend([
                cmd("meson setup build", "install"),
                cmd("meson compile -C build", "build"),
                cmd("meson test -C build", "test"),
            ]);
        }
        b"pom.xml" => maven(text, &mut f),
        b"build.gradle" | b"build.gradle.kts" => gradle(text, &mut f),
        b"Gemfile" => {
            f.commands.push(cmd("bundle install", "install"));
            // The tools its gems bring run through the bundle (thor's contributors and CI run
            // `bundle exec rspec` and `bundle exec rubocop`; its commands had neither).
            if uses_gem(text, "rspec") {
                f.commands.push(cmd("bundle exec rspec", "test"));
            }
            if uses_gem(text, "rubocop") {
                f.commands.push(cmd("bundle exec rubocop", "lint"));
            }
        }
        // PHPUnit's configuration: how a PHP project's tests run (laravel's had no command).
        b"phpunit.xml" | b"phpunit.xml.dist" => f.commands.push(cmd("vendor/bin/phpunit", "test")),
        b"pnpm-workspace.yaml" => f.members = pnpm_packages(text),
        b"Rakefile" => {
            f.commands = rake_commands(text);
            if f.commands.is_empty() {
                f.commands.push(cmd("rake", "build"));
            }
        }
        b"tox.ini" => f.commands.push(cmd("tox", "test")),
        b"noxfile.py" => f.commands = nox_sessions(text),
        n if is_gemspec(n) => gemspec(&String::from_utf8_lossy(n), text, &mut f),
        n if dotnet_file(n).is_some() => dotnet(n, text, &mut f),
        b"justfile" | b"Justfile" => {
            for r in make_targets(text, true) {
                f.commands.push(cmd(format!("just {r}"), purpose_of(&r)));
            }
        }
        b"Taskfile.yml" | b"Taskfile.yaml" | b"taskfile.yml" | b"taskfile.yaml" => {
            f.commands = task_commands(text);
        }
        _ => make(text, &mut f),
    }
    f.commands.truncate(MAX_COMMANDS);
    f.dependencies.truncate(MAX_DEPENDENCIES);
    Some(f)
}

/// The sessions a `noxfile.py` defines, each as `nox -s <name>` with the purpose its name
/// says: a function under `@nox.session` (with or without arguments), named by the
/// decorator's `name=` when it gives one. urllib3's contributors run `nox -s test`, `nox -s
/// lint` and `nox -s docs`; its overview listed none and guessed `uv run pytest`. A name with
/// a leading `_` is a helper, and one nox cannot be asked for by `-s` as written is skipped.
fn nox_sessions(text: &str) -> Vec<CommandFact> {
    let mut out: Vec<CommandFact> = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let Some(rest) = line.trim_start().strip_prefix("@nox.session") else {
            continue;
        };
        // The decorator's arguments, over as many lines as its parentheses take.
        let mut decorator = rest.to_owned();
        let balance = |t: &str| t.matches('(').count() as isize - t.matches(')').count() as isize;
        while balance(&decorator) > 0 {
            match lines.next() {
                Some(l) => decorator.push_str(l),
                None => break,
            }
        }
        let named = decorator.split_once("name=").and_then(|(_, v)| {
            let v = v.trim_start();
            let quote = v.chars().next().filter(|c| matches!(c, '"' | '\''))?;
            v[1..].split_once(quote).map(|(n, _)| n.to_owned())
        });
        // The function the decorator is on: the next `def`, past other decorators.
        let function = lines.by_ref().find_map(|l| {
            let l = l.trim_start();
            let def = l.strip_prefix("def ")?;
            def.split_once('(').map(|(n, _)| n.trim().to_owned())
        });
        let Some(name) = named.or(function) else {
            continue;
        };
        let plain = name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
        let command = format!("nox -s {name}");
        if plain && !name.starts_with('_') && !out.iter().any(|c| c.command == command) {
            out.push(cmd(command, purpose_of(&name)));
        }
    }
    out
}

/// Whether a Gemfile asks for the gem `name` or one of its family (`rspec-rails`,
/// `rubocop-performance`): `gem "name"` or `gem 'name-…'` on a line of its own.
fn uses_gem(text: &str, name: &str) -> bool {
    text.lines().any(|line| {
        let Some(rest) = line.trim_start().strip_prefix("gem ") else {
            return false;
        };
        let rest = rest.trim_start();
        let Some(quoted) = rest.strip_prefix(['"', '\'']) else {
            return false;
        };
        quoted
            .strip_prefix(name)
            .is_some_and(|after| after.starts_with(['"', '\'', '-']))
    })
}

/// The direct requirements of a `go.mod` (`require x v1` and `require ( … )` blocks), without
/// those marked `// indirect`.
fn go_requires(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_block = false;
    for line in text.lines().map(str::trim) {
        let spec = if in_block {
            if line.starts_with(')') {
                in_block = false;
                continue;
            }
            line
        } else if let Some(rest) = line.strip_prefix("require") {
            let rest = rest.trim_start();
            if rest.starts_with('(') {
                in_block = true;
                continue;
            }
            rest
        } else {
            continue;
        };
        if spec.contains("// indirect") {
            continue;
        }
        if let Some(module) = spec
            .split_whitespace()
            .next()
            .filter(|m| !m.starts_with("//"))
        {
            out.push(module.to_owned());
        }
    }
    out
}

/// The project name of a PEP 508 requirement (`Werkzeug>=3.1`, `jinja2[i18n]; python_version
/// < "3.12"` → `Werkzeug`, `jinja2`).
fn requirement_name(spec: &str) -> Option<&str> {
    let end = spec
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')))
        .unwrap_or(spec.len());
    Some(&spec[..end]).filter(|n| !n.is_empty())
}

/// A setuptools `setup.cfg` (an INI file): the `[metadata]` name and description (not an
/// `attr:` or `file:` reference), the `[options]` `install_requires` and the
/// `[options.entry_points]` console and GUI scripts' functions, as `pyproject.toml`'s.
fn setup_cfg(text: &str, f: &mut ManifestFacts) {
    let mut section = String::new();
    // The key whose value continues on indented lines, and those lines.
    let mut key = String::new();
    let mut values: Vec<(String, String, String)> = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with(['#', ';']) {
            continue;
        }
        if line.starts_with([' ', '\t']) {
            if let Some(last) = values.last_mut().filter(|v| v.1 == key) {
                last.2.push('\n');
                last.2.push_str(trimmed);
            }
            continue;
        }
        if let Some(name) = trimmed.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
            section = name.trim().to_owned();
            key.clear();
            continue;
        }
        if let Some((k, v)) = trimmed.split_once(['=', ':']) {
            key = k.trim().to_owned();
            values.push((section.clone(), key.clone(), v.trim().to_owned()));
        }
    }
    let value = |s: &str, k: &str| {
        values
            .iter()
            .find(|v| v.0 == s && v.1 == k)
            .map(|v| v.2.as_str())
    };
    let plain = |v: &str| !v.is_empty() && !v.starts_with("attr:") && !v.starts_with("file:");
    f.name = value("metadata", "name")
        .filter(|v| plain(v))
        .map(str::to_owned);
    f.description = value("metadata", "description")
        .filter(|v| plain(v))
        .map(str::to_owned);
    f.requires = value("options", "python_requires")
        .filter(|v| plain(v) && v.len() <= MAX_REQUIREMENT && v.is_ascii())
        .map(|v| format!("Python {v}"));
    f.dependencies = value("options", "install_requires")
        .into_iter()
        .flat_map(str::lines)
        .filter_map(|r| requirement_name(r.trim()))
        .map(str::to_owned)
        .collect();
    for scripts in ["console_scripts", "gui_scripts"] {
        let lines = value("options.entry_points", scripts)
            .into_iter()
            .flat_map(str::lines);
        for (name, target) in lines.filter_map(|l| l.split_once('=')) {
            if !name.trim().is_empty() {
                push_script(f, name.trim(), Some(target));
            }
        }
    }
    f.commands.push(cmd("pip install -e .", "install"));
}

/// A Python console script's entry point: the function it runs (`scrapy.cmdline:execute`),
/// which the overview finds the file of, else its name (a Poetry script given as a table).
/// Two scripts of one function (httpie's `http` and `https`) are one entry point.
fn push_script(f: &mut ManifestFacts, name: &str, target: Option<&str>) {
    // `module:function [extra]`: the extras are no part of the reference.
    let reference = target
        .map(|t| t.split('[').next().unwrap_or(t).trim())
        .filter(|t| !t.is_empty() && !t.contains(char::is_whitespace));
    let entry = reference.unwrap_or(name).to_owned();
    if !f.entry_points.contains(&entry) {
        f.entry_points.push(entry);
    }
}

/// The keys of a TOML table, in the order the parser keeps them.
/// The packages a dependency table names, not those marked `optional = true` (a Cargo
/// feature's, a Poetry extra's: rich's `ipywidgets`, only for Jupyter, was listed as one of its
/// three dependencies).
fn table_keys(table: Option<&toml::Value>) -> Vec<String> {
    let optional = |v: &toml::Value| v.get("optional").and_then(toml::Value::as_bool) == Some(true);
    table
        .and_then(|t| t.as_table())
        .map(|t| {
            t.iter()
                .filter(|(_, v)| !optional(v))
                .map(|(k, _)| k.clone())
                .collect()
        })
        .unwrap_or_default()
}

fn cargo(text: &str, f: &mut ManifestFacts) -> Option<()> {
    let doc: toml::Table = text.parse().ok()?;
    if let Some(pkg) = doc.get("package").and_then(|p| p.as_table()) {
        f.name = pkg.get("name").and_then(|v| v.as_str()).map(str::to_owned);
        f.description = pkg
            .get("description")
            .and_then(|v| v.as_str())
            .map(str::to_owned);
        f.license = pkg
            .get("license")
            .and_then(|v| v.as_str())
            .and_then(license);
        if let Some(build) = pkg.get("build").and_then(|v| v.as_str()) {
            f.build_scripts
                .push(build.trim_start_matches("./").to_owned());
        }
    }
    if let Some(ws) = doc.get("workspace").and_then(|w| w.as_table()) {
        let list = |key: &str| -> Vec<String> {
            ws.get(key)
                .and_then(|m| m.as_array())
                .into_iter()
                .flatten()
                .filter_map(|m| m.as_str().map(str::to_owned))
                .collect()
        };
        f.members = list("members");
        // Cargo's `exclude` is a list of paths; as negations they read like npm's `!x`.
        f.members
            .extend(list("exclude").into_iter().map(|e| format!("!{e}")));
    }
    f.dependencies = table_keys(doc.get("dependencies"));
    f.requires = cargo_requires(&doc);
    let mut run = Vec::new();
    if let Some(bins) = doc.get("bin").and_then(|b| b.as_array()) {
        for b in bins {
            if let Some(p) = b.get("path").and_then(|p| p.as_str()) {
                f.entry_points.push(p.to_owned());
            }
            // The program's name, which its users type (ripgrep's `rg`).
            if let Some(name) = b.get("name").and_then(|n| n.as_str()) {
                run.push(cmd(format!("cargo run --bin {name}"), "run"));
            }
        }
    }
    // A package's own targets where Cargo finds them without being told: its program
    // (`src/main.rs`) and its library (`src/lib.rs`, or `[lib] path`). Listed whether or not
    // the files exist; the overview keeps the ones that are tracked. regex's own crate
    // (`src/lib.rs` at the root) came last among its entry points, after three members'.
    if doc.contains_key("package") {
        let lib = doc
            .get("lib")
            .and_then(|l| l.get("path"))
            .and_then(|p| p.as_str())
            .unwrap_or("src/lib.rs");
        for target in ["src/main.rs", lib] {
            let target = target.trim_start_matches("./");
            if !f.entry_points.iter().any(|e| e == target) {
                f.entry_points.push(target.to_owned());
            }
        }
    }
    // Tests that require features the default set lacks run only when asked for: hyper's
    // `[[test]]`s each require `full` (`default = []`), and `cargo test` ran none of them.
    let test = match test_features(&doc) {
        Some(features) => format!("cargo test --features {features}"),
        None => "cargo test".to_owned(),
    };
    // A workspace whose root is also a package builds and tests only that package unless told
    // otherwise (clap's root crate is a facade of `clap_builder`, `clap_derive`, …): the
    // whole workspace is what a contributor checks. A virtual manifest's commands already run
    // on every member; `default-members` says what the project means by default.
    let whole = doc.contains_key("package")
        && doc
            .get("workspace")
            .and_then(|w| w.as_table())
            .is_some_and(|w| w.contains_key("members") && !w.contains_key("default-members"));
    let all = if whole { " --workspace" } else { "" };
    let test = match test.strip_prefix("cargo test") {
        Some(rest) => format!("cargo test{all}{rest}"),
        None => test,
    };
    f.commands
        .extend([cmd(format!("cargo build{all}"), "build"), cmd(test, "test")]);
    f.commands.extend(run);
    f.commands
        .push(cmd(format!("cargo clippy{all} --all-targets"), "lint"));
    Some(())
}

/// The features every `[[test]]` target requires, when each requires some and the default
/// features hold none of them (comma-joined, in order), so that `cargo test` would skip them.
fn test_features(doc: &toml::Table) -> Option<String> {
    let tests = doc.get("test")?.as_array()?;
    let default: Vec<&str> = doc
        .get("features")
        .and_then(|f| f.get("default"))
        .and_then(|d| d.as_array())
        .map(|d| d.iter().filter_map(|v| v.as_str()).collect())
        .unwrap_or_default();
    let mut features: Vec<&str> = Vec::new();
    for t in tests {
        let required: Vec<&str> = t
            .get("required-features")?
            .as_array()?
            .iter()
            .filter_map(|v| v.as_str())
            .collect();
        if required.is_empty() || required.iter().all(|r| default.contains(r)) {
            return None;
        }
        for r in required {
            if !features.contains(&r) && !default.contains(&r) {
                features.push(r);
            }
        }
    }
    (!features.is_empty()).then(|| features.join(","))
}

fn json_scripts(text: &str, f: &mut ManifestFacts) -> Option<()> {
    let v: serde_json::Value = serde_json::from_str(text).ok()?;
    f.name = v.get("name").and_then(|n| n.as_str()).map(str::to_owned);
    f.description = v
        .get("description")
        .and_then(|n| n.as_str())
        .map(str::to_owned);
    let runner = if f.kind == "composer" {
        "composer run"
    } else {
        "npm run"
    };
    if let Some(scripts) = v.get("scripts").and_then(|s| s.as_object()) {
        // serde_json's preserve_order keeps the scripts in declaration order.
        // npm's script is a command line; composer's a line or a list of them.
        let lines = |name: &str| -> Option<Vec<&str>> {
            Some(match scripts.get(name)? {
                serde_json::Value::String(line) => vec![line.as_str()],
                serde_json::Value::Array(lines) => {
                    lines.iter().filter_map(serde_json::Value::as_str).collect()
                }
                _ => Vec::new(),
            })
        };
        for name in scripts.keys() {
            let command = match (f.kind.as_str(), name.as_str()) {
                ("npm", "test" | "start") => format!("npm {name}"),
                _ => format!("{runner} {name}"),
            };
            f.commands.push(CommandFact {
                runs: script_programs(name, &lines),
                ..cmd(command, purpose_of(name))
            });
        }
    }
    // Composer's `require` also names the PHP version and extensions: no packages.
    let key = if f.kind == "composer" {
        "require"
    } else {
        "dependencies"
    };
    let required = if f.kind == "composer" {
        ("PHP", v.get("require").and_then(|r| r.get("php")))
    } else {
        ("Node.js", v.get("engines").and_then(|e| e.get("node")))
    };
    f.requires = required
        .1
        .and_then(|r| r.as_str())
        .map(str::trim)
        .filter(|r| !r.is_empty() && r.len() <= MAX_REQUIREMENT && r.is_ascii())
        .map(|r| format!("{} {r}", required.0));
    if let Some(deps) = v.get(key).and_then(|d| d.as_object()) {
        f.dependencies = deps
            .keys()
            .filter(|k| *k != "php" && !k.starts_with("ext-"))
            .cloned()
            .collect();
    }
    if f.kind == "composer" {
        composer_facts(&v, f);
    }
    f.license = match v.get("license") {
        Some(serde_json::Value::String(l)) => license(l),
        Some(serde_json::Value::Array(a)) => {
            let names: Vec<&str> = a.iter().filter_map(|l| l.as_str()).collect();
            license(&names.join(" OR "))
        }
        _ => None,
    };
    let installs = installs_anything(&v, f);
    if f.kind == "npm" {
        f.package_manager = v
            .get("packageManager")
            .and_then(|m| m.as_str())
            .and_then(|m| m.split('@').next())
            .filter(|m| matches!(*m, "npm" | "pnpm" | "yarn" | "bun"))
            .map(str::to_owned);
        if installs {
            f.commands.insert(0, cmd("npm install", "install"));
        }
        let main = ["main", "module"]
            .iter()
            .filter_map(|key| v.get(*key).and_then(|m| m.as_str()))
            .chain(v.get("exports").and_then(package_export));
        for m in main {
            if !f.entry_points.iter().any(|e| e == m) {
                f.entry_points.push(m.to_owned());
            }
        }
        match v.get("bin") {
            Some(serde_json::Value::String(s)) => f.entry_points.push(s.clone()),
            Some(serde_json::Value::Object(m)) => f
                .entry_points
                .extend(m.values().filter_map(|v| v.as_str().map(str::to_owned))),
            _ => {}
        }
        match v.get("workspaces") {
            Some(serde_json::Value::Array(a)) => {
                f.members = a
                    .iter()
                    .filter_map(|m| m.as_str().map(str::to_owned))
                    .collect()
            }
            Some(serde_json::Value::Object(o)) => {
                if let Some(a) = o.get("packages").and_then(|p| p.as_array()) {
                    f.members = a
                        .iter()
                        .filter_map(|m| m.as_str().map(str::to_owned))
                        .collect();
                }
            }
            _ => {}
        }
    }
    Some(())
}

/// What only composer.json says: its PSR-4 namespace roots, and the scripts it installs for
/// its users to run (`bin`: Carbon's `bin/carbon`) as entry points.
fn composer_facts(v: &serde_json::Value, f: &mut ManifestFacts) {
    f.namespace_roots = psr4_roots(v);
    if let Some(bins) = v.get("bin").and_then(|b| b.as_array()) {
        f.entry_points
            .extend(bins.iter().filter_map(|b| b.as_str().map(str::to_owned)));
    }
}

/// The directories of a composer.json's `autoload.psr-4` map (a namespace prefix → a directory
/// or a list of them), in declaration order, each once; `""` for the manifest's own. Not
/// `autoload-dev`: that is the tests' namespace.
fn psr4_roots(v: &serde_json::Value) -> Vec<String> {
    let Some(map) = v.pointer("/autoload/psr-4").and_then(|m| m.as_object()) else {
        return Vec::new();
    };
    let mut out: Vec<String> = Vec::new();
    let dirs = map.values().flat_map(|d| match d {
        serde_json::Value::String(s) => vec![s.as_str()],
        serde_json::Value::Array(a) => a.iter().filter_map(|s| s.as_str()).collect(),
        _ => Vec::new(),
    });
    for d in dirs {
        let d = d.trim_start_matches("./").trim_end_matches('/');
        let d = if d == "." { "" } else { d };
        if !d.starts_with("..") && !out.iter().any(|o| o == d) {
            out.push(d.to_owned());
        }
    }
    out
}

/// The file a package.json `exports` field gives for the package itself: the string, the
/// `"."` entry of a subpath map, or of a conditions map the `import`, `node`, `default` or
/// `require` condition's (in that order), recursively; the first of an array that gives one.
fn package_export(v: &serde_json::Value) -> Option<&str> {
    use serde_json::Value;
    match v {
        Value::String(s) => Some(s),
        Value::Array(a) => a.iter().find_map(package_export),
        Value::Object(m) if m.keys().any(|k| k.starts_with('.')) => {
            m.get(".").and_then(package_export)
        }
        Value::Object(m) => ["import", "node", "default", "require"]
            .iter()
            .find_map(|k| m.get(*k).and_then(package_export)),
        _ => None,
    }
}

fn pyproject(text: &str, f: &mut ManifestFacts) -> Option<()> {
    let doc: toml::Table = text.parse().ok()?;
    let project = doc.get("project").and_then(|p| p.as_table());
    let poetry = doc
        .get("tool")
        .and_then(|t| t.get("poetry"))
        .and_then(|p| p.as_table());
    for table in [project, poetry].into_iter().flatten() {
        f.name = f.name.take().or_else(|| {
            table
                .get("name")
                .and_then(|v| v.as_str())
                .map(str::to_owned)
        });
        f.description = f.description.take().or_else(|| {
            table
                .get("description")
                .and_then(|v| v.as_str())
                .map(str::to_owned)
        });
        if let Some(scripts) = table.get("scripts").and_then(|s| s.as_table()) {
            for (name, target) in scripts {
                push_script(f, name, target.as_str());
            }
        }
        // `license = "MIT"` (PEP 639, poetry) or `license = { text = "MIT" }`, not a file.
        let declared = table.get("license");
        let declared = declared
            .and_then(|l| l.as_str())
            .or_else(|| declared?.get("text")?.as_str());
        f.license = f.license.take().or_else(|| declared.and_then(license));
    }
    let python = project
        .and_then(|p| p.get("requires-python"))
        .or_else(|| poetry?.get("dependencies")?.get("python"));
    f.requires = python
        .and_then(|v| v.as_str())
        .map(str::trim)
        .filter(|v| !v.is_empty() && v.len() <= MAX_REQUIREMENT && v.is_ascii())
        .map(|v| format!("Python {v}"));
    // PEP 621 lists requirement strings; Poetry a table whose `python` key is no package.
    if let Some(reqs) = project.and_then(|p| p.get("dependencies")?.as_array()) {
        f.dependencies = reqs
            .iter()
            .filter_map(|r| requirement_name(r.as_str()?.trim()))
            .map(str::to_owned)
            .collect();
    } else if let Some(poetry) = poetry {
        f.dependencies = table_keys(poetry.get("dependencies"));
        f.dependencies.retain(|d| d != "python");
    }
    // The extra a contributor installs (`dev`, else the tests'): marshmallow's contributing
    // guide says `pip install -e '.[dev]'`, and the overview said `pip install -e .`.
    let extras = project
        .and_then(|p| p.get("optional-dependencies")?.as_table())
        .cloned()
        .unwrap_or_default();
    let extra = ["dev", "develop", "tests", "test", "testing"]
        .into_iter()
        .find(|e| extras.contains_key(*e));
    f.commands.push(match (poetry.is_some(), extra) {
        (true, _) => cmd("poetry install", "install"),
        (false, Some(e)) => cmd(format!("pip install -e '.[{e}]'"), "install"),
        (false, None) => cmd("pip install -e .", "install"),
    });
    // pytest runs the tests where the configuration says so, or an extra asks for it.
    let tool = doc.get("tool").and_then(|t| t.as_table());
    let pytest_extra = extras
        .values()
        .filter_map(|v| v.as_array())
        .flatten()
        .any(|r| {
            r.as_str()
                .and_then(|r| requirement_name(r.trim()))
                .is_some_and(|n| n.eq_ignore_ascii_case("pytest"))
        });
    if tool.is_some_and(|t| t.contains_key("pytest")) || pytest_extra {
        f.commands.push(cmd("python -m pytest", "test"));
    }
    if tool.is_some_and(|t| t.contains_key("tox")) {
        f.commands.push(cmd("tox", "test"));
    }
    if tool.is_some_and(|t| t.contains_key("ruff")) {
        f.commands.push(cmd("ruff check .", "lint"));
    }
    // A type checker configured here checks the project as configured (requests' `pyright`);
    // mypy needs its `files` to run without arguments.
    if tool.is_some_and(|t| t.contains_key("pyright")) {
        f.commands.push(cmd("pyright", "lint"));
    }
    if tool
        .and_then(|t| t.get("mypy")?.as_table())
        .is_some_and(|m| m.contains_key("files"))
    {
        f.commands.push(cmd("mypy", "lint"));
    }
    Some(())
}

fn cmake(text: &str, f: &mut ManifestFacts) {
    // ASCII lowercasing keeps byte offsets, so a match in `lower` indexes `text` too.
    let lower = text.to_ascii_lowercase();
    f.name = lower
        .find("project(")
        .and_then(|i| call_first_arg(&text[i..], &text[i..i + 8]));
    f.requires = cmake_standard(&lower);
    // Building starts with configuring: `cmake --build build` alone fails in a fresh checkout
    // (it was listed first, the configure step last).
    f.commands
        .push(cmd("cmake -B build && cmake --build build", "build"));
    if lower.contains("enable_testing") || lower.contains("add_test") {
        // Tests an option leaves off are configured in first (yaml-cpp's
        // `option(YAML_CPP_BUILD_TESTS … OFF)`): else ctest finds none.
        let test = match cmake_test_option(text) {
            Some(option) => format!(
                "cmake -B build -D{option}=ON && cmake --build build && ctest --test-dir build"
            ),
            None => "ctest --test-dir build".to_owned(),
        };
        f.commands.push(cmd(&test, "test"));
    }
}

/// Whether a package.json installs anything: it depends on packages, runs scripts or holds
/// workspaces. libgit2's metadata-only `package.json` made a CMake library's overview say
/// `npm install`.
fn installs_anything(v: &serde_json::Value, f: &ManifestFacts) -> bool {
    [
        "dependencies",
        "devDependencies",
        "peerDependencies",
        "optionalDependencies",
    ]
    .iter()
    .any(|k| {
        v.get(*k)
            .and_then(|d| d.as_object())
            .is_some_and(|d| !d.is_empty())
    }) || !f.commands.is_empty()
        || v.get("workspaces").is_some()
}

/// The headers an automake file installs: the values of its `include_HEADERS`,
/// `pkginclude_HEADERS` and `nobase_…` variants, continued lines joined, variables left out.
fn installed_headers(text: &str) -> Vec<String> {
    let joined = text.replace("\\\r\n", " ").replace("\\\n", " ");
    let mut out: Vec<String> = Vec::new();
    for line in joined.lines() {
        let Some((name, value)) = line.split_once('=') else {
            continue;
        };
        let name = name.trim().trim_end_matches('+').trim();
        if !name.ends_with("include_HEADERS") || name.contains(char::is_whitespace) {
            continue;
        }
        for header in value.split_whitespace() {
            let header = header.trim_start_matches("./");
            if !header.contains('$') && !out.iter().any(|o| o == header) {
                out.push(header.to_owned());
            }
        }
    }
    out
}

/// The first `option(NAME "…" OFF)` whose name says tests (`YAML_CPP_BUILD_TESTS`,
/// `gtest_build_tests`), when no option whose name says tests is on by default: fmt's
/// `option(FMT_TEST … ${FMT_MASTER_PROJECT})` builds its tests, and turning its
/// `FMT_CUDA_TEST` on instead asked for a CUDA compiler.
fn cmake_test_option(text: &str) -> Option<&str> {
    let options = cmake_test_options(text);
    if options.iter().any(|(_, off)| !off) {
        return None;
    }
    options.first().map(|(name, _)| *name)
}

/// The `option(NAME "…" DEFAULT)` calls whose name says tests, with whether each is off by
/// default.
fn cmake_test_options(text: &str) -> Vec<(&str, bool)> {
    let lower = text.to_ascii_lowercase();
    lower
        .match_indices("option(")
        .filter_map(|(i, m)| {
            // A call, not the end of another word (`cmake_dependent_option(`).
            let word_start = i == 0
                || !text.as_bytes()[i - 1].is_ascii_alphanumeric()
                    && text.as_bytes()[i - 1] != b'_';
            let start = i + m.len();
            let end = start + lower[start..].find(')')?;
            let args = text[start..end].trim();
            let name = args.split_whitespace().next()?;
            let off = args
                .rsplit(|c: char| c.is_whitespace() || c == '"')
                .next()?
                .eq_ignore_ascii_case("off");
            // One that turns tests off (`DEMO_DISABLE_TESTS`, `SKIP_TESTS`, `X_NO_TESTS`) is
            // no switch to turn them on: the command set it ON and ran no test.
            let lower_name = name.to_ascii_lowercase();
            let negative = ["disable", "skip", "without", "no_test", "notest"]
                .iter()
                .any(|w| lower_name.contains(w))
                || lower_name.starts_with("no_");
            let testy = lower_name.contains("test") && !negative;
            (word_start && testy && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
                .then_some((name, off))
        })
        .collect()
}

fn call_first_arg(text: &str, call: &str) -> Option<String> {
    let start = text.find(call)? + call.len();
    let rest = &text[start..];
    let arg: String = rest
        .trim_start()
        .trim_start_matches(['\'', '"'])
        .chars()
        .take_while(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
        .collect();
    (!arg.is_empty()).then_some(arg)
}

/// A gem's specification: its name (`s.name = 'x'`, or `Gem::Specification.new 'x'`, else the
/// file's), its one-line description or summary, and the command that builds the gem.
fn gemspec(file: &str, text: &str, f: &mut ManifestFacts) {
    // The quoted string a line of the specification assigns to `field`, or passes first.
    let value = |line: &str, lead: &str| -> Option<String> {
        let rest = line.trim().split_once(lead)?.1.trim_start();
        let quote = rest.chars().next().filter(|c| matches!(c, '\'' | '"'))?;
        let (v, _) = rest[1..].split_once(quote)?;
        (!v.is_empty()).then(|| v.to_owned())
    };
    let assigned = |field: &str| {
        text.lines().find_map(|l| {
            let (lhs, _) = l.split_once('=')?;
            let lhs = lhs.trim();
            let attr = lhs.rsplit_once('.').map_or("", |(_, a)| a);
            (attr == field).then(|| value(l, "="))?
        })
    };
    f.name = assigned("name")
        .or_else(|| {
            text.lines()
                .find_map(|l| value(l, "Gem::Specification.new"))
        })
        .or_else(|| file.strip_suffix(".gemspec").map(str::to_owned));
    f.description = assigned("description").or_else(|| assigned("summary"));
    f.requires = assigned("required_ruby_version")
        .filter(|v| v.len() <= MAX_REQUIREMENT && v.is_ascii())
        .map(|v| format!("Ruby {v}"));
    // `s.license = "MIT"`, or the first of `s.licenses = ["MIT"]`.
    f.license = assigned("license")
        .or_else(|| {
            text.lines()
                .find_map(|l| value(l.split_once("licenses")?.1, "["))
        })
        .as_deref()
        .and_then(license);
    // Runtime dependencies, in order: `s.add_dependency 'rack', '>= 3'` (or
    // `add_runtime_dependency`, or the call with parentheses), not `add_development_dependency`.
    for line in text.lines() {
        let Some((lhs, rest)) = line.split_once("add_") else {
            continue;
        };
        let rest = rest
            .strip_prefix("runtime_dependency")
            .or_else(|| rest.strip_prefix("dependency"));
        let call = lhs.trim_end().ends_with('.') && !lhs.trim_start().starts_with('#');
        let Some(rest) = rest.filter(|r| call && r.starts_with([' ', '('])) else {
            continue;
        };
        let rest = rest.trim_start_matches([' ', '(']);
        if let Some(name) = value(rest, "") {
            if !f.dependencies.contains(&name) {
                f.dependencies.push(name);
            }
        }
    }
    f.commands.push(cmd(format!("gem build {file}"), "build"));
    // The programs the gem installs: what its users run (jekyll's `exe/jekyll`). Listed
    // (`["jekyll"]`, `%w[rake]`, one string) or, when computed (`files.grep(%r!^exe/!)`),
    // the one named for the gem, the convention; the overview drops a path the checkout lacks.
    let bindir = assigned("bindir").unwrap_or_else(|| "bin".to_owned());
    let listed = text.lines().find_map(|l| {
        let (lhs, rhs) = l.split_once('=')?;
        (lhs.trim().rsplit_once('.')?.1 == "executables").then(|| rhs.trim())
    });
    let names: Vec<String> = match listed {
        None => Vec::new(),
        Some(rhs) => match word_list(rhs) {
            Some(names) => names,
            None => f.name.iter().cloned().collect(),
        },
    };
    for name in names.into_iter().take(MAX_GEM_EXECUTABLES) {
        let entry = format!("{}/{name}", bindir.trim_end_matches('/'));
        if !f.entry_points.contains(&entry) {
            f.entry_points.push(entry);
        }
    }
}

/// A Maven POM: the project's own coordinates, its Java release, its build and test, and a
/// Spring Boot application's run.
fn maven(text: &str, f: &mut ManifestFacts) {
    // The project's own coordinates, not its parent POM's (`commons-parent` for Apache
    // Commons Lang, whose `<parent>` comes first).
    let own = without_element(text, "parent");
    // A multi-module build's root is the project's parent POM, named so (guice's
    // `guice-parent`): the project is what it is the parent of.
    f.name = xml_tag(&own, "artifactId").map(|n| match n.strip_suffix("-parent") {
        Some(project) if !project.is_empty() && own.contains("<modules>") => project.to_owned(),
        _ => n,
    });
    f.description = xml_tag(&own, "description");
    f.requires = java_release(&own).map(|v| format!("Java {v}"));
    // A build that names its default goal is run as bare `mvn`, what its contributors are
    // told to run (Apache Commons' `clean verify apache-rat:check checkstyle:check …`, every
    // check a pull request must pass); the goals say what it does.
    let build = match default_goal(&without_element(&own, "profiles")) {
        Some(goals) => CommandFact {
            runs: goals,
            ..cmd("mvn", "build")
        },
        None => cmd("mvn package", "build"),
    };
    f.commands.extend([build, cmd("mvn test", "test")]);
    // A Spring Boot application runs through its plugin (spring-petclinic's README:
    // `./mvnw spring-boot:run`; no budget named it).
    if own.contains("<artifactId>spring-boot-maven-plugin</artifactId>") {
        f.commands.push(cmd("mvn spring-boot:run", "run"));
    }
}

/// Most goals of a Maven default goal kept ([`default_goal`]).
const MAX_DEFAULT_GOALS: usize = 8;

/// The goals and phases of a POM's `<build><defaultGoal>` (outside its profiles), in order:
/// `clean verify apache-rat:check`. `None` when it has none, or any word is no plain goal
/// (a property, `${…}`).
fn default_goal(pom: &str) -> Option<Vec<String>> {
    let goals = xml_tag(pom, "defaultGoal")?;
    let plain = |w: &str| {
        w.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, ':' | '-' | '.' | '_'))
    };
    let words: Vec<String> = goals.split_whitespace().map(str::to_owned).collect();
    (!words.is_empty() && words.iter().all(|w| plain(w)))
        .then(|| words.into_iter().take(MAX_DEFAULT_GOALS).collect())
}

/// A Gradle build: its build and test, and the Spring Boot plugin's task that runs the
/// application.
fn gradle(text: &str, f: &mut ManifestFacts) {
    f.commands.extend([
        cmd("./gradlew build", "build"),
        cmd("./gradlew test", "test"),
    ]);
    if text.contains("org.springframework.boot") {
        f.commands.push(cmd("./gradlew bootRun", "run"));
    }
}

/// Most programs of a gem listed as entry points.
const MAX_GEM_EXECUTABLES: usize = 3;

/// The names of a Ruby literal list of words: `["a", 'b']`, `%w[a b]`, `%w(a b)`, or one
/// quoted string; `None` for anything computed.
fn word_list(rhs: &str) -> Option<Vec<String>> {
    let plain = |w: &str| {
        !w.is_empty()
            && w.chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
    };
    let words: Vec<String> = if let Some(inner) = rhs
        .strip_prefix("%w[")
        .and_then(|r| r.split_once(']'))
        .or_else(|| rhs.strip_prefix("%w(").and_then(|r| r.split_once(')')))
        .map(|(inner, _)| inner)
    {
        inner.split_whitespace().map(str::to_owned).collect()
    } else if let Some((inner, _)) = rhs.strip_prefix('[').and_then(|r| r.split_once(']')) {
        inner
            .split(',')
            .map(|w| w.trim().trim_matches(['"', '\'']).to_owned())
            .filter(|w| !w.is_empty())
            .collect()
    } else {
        let quote = rhs.chars().next().filter(|c| matches!(c, '"' | '\''))?;
        let (word, _) = rhs[1..].split_once(quote)?;
        vec![word.to_owned()]
    };
    words.iter().all(|w| plain(w)).then_some(words)
}

/// A .NET solution or project. A solution (Visual Studio's `Project("{…}") = "Name",
/// "src\\Name\\Name.csproj", "{…}"` lines, or `<Project Path="…"/>` in `.slnx`) is named
/// after its file, its projects' directories are its members, and `dotnet build` and
/// `dotnet test` run it all. A project (MSBuild XML) is named by its `AssemblyName` or
/// `PackageId`, else its file; it is described by its `Description`, depends on its
/// `PackageReference`s (not the build-time ones, `PrivateAssets="all"`), runs with `dotnet
/// run` when it builds a program (its `Program.cs` the entry point) and with `dotnet test` when
/// it is a test project.
fn dotnet(file: &[u8], text: &str, f: &mut ManifestFacts) {
    let Some((kind, stem)) = dotnet_file(file) else {
        return;
    };
    let text = without_comments(text);
    if kind == DotnetFile::Solution {
        f.name = Some(stem.to_owned());
        let (projects, others): (Vec<String>, Vec<String>) = solution_projects(&text)
            .into_iter()
            .partition(|p| dotnet_file(paths::file_name(p.as_bytes())).is_some());
        // A solution of C++ projects only (imgui's `examples/imgui_examples.sln` of
        // `.vcxproj`) is no .NET build: `dotnet build` cannot build it.
        if projects.is_empty() && !others.is_empty() {
            return;
        }
        for path in projects {
            let path = path.replace('\\', "/");
            if let Some((dir, _)) = path.trim_start_matches("./").rsplit_once('/') {
                if !dir.is_empty() && !dir.starts_with("..") && !f.members.iter().any(|m| m == dir)
                {
                    f.members.push(dir.to_owned());
                }
            }
        }
        f.commands
            .extend([cmd("dotnet build", "build"), cmd("dotnet test", "test")]);
        return;
    }
    let sdk = text
        .split_once("<Project")
        .and_then(|(_, rest)| attribute(rest.split('>').next()?, "Sdk"))
        .unwrap_or_default();
    // A traversal project (`Sdk="Microsoft.Build.Traversal/…"`, Dapper's `Build.csproj`)
    // builds the projects it lists: it builds nothing of its own and names nothing.
    if sdk.starts_with("Microsoft.Build.Traversal") {
        f.commands.push(cmd("dotnet build", "build"));
        return;
    }
    f.name = xml_tag(&text, "AssemblyName")
        .or_else(|| xml_tag(&text, "PackageId"))
        .filter(|n| !n.contains("$("))
        .or_else(|| Some(stem.to_owned()));
    f.description = xml_tag(&text, "Description").filter(|d| !d.contains("$("));
    f.license = xml_tag(&text, "PackageLicenseExpression")
        .filter(|l| !l.contains("$("))
        .as_deref()
        .and_then(license);
    // The first framework list that names frameworks: one under a `Condition` counts
    // (Newtonsoft.Json's), one that is a property (`$(LibraryFrameworks)`) does not.
    // A long list keeps the frameworks that fit, in its order: `net8.0;net6.0;net45;…`.
    f.requires = xml_values(&text, "TargetFramework")
        .chain(xml_values(&text, "TargetFrameworks"))
        .find(|t| !t.contains("$(") && t.is_ascii())
        .map(|t| {
            let mut kept = String::new();
            for framework in t.split(';').map(str::trim).filter(|f| !f.is_empty()) {
                if kept.len() + framework.len() + 2 > MAX_REQUIREMENT {
                    kept.push_str(";…");
                    break;
                }
                if !kept.is_empty() {
                    kept.push(';');
                }
                kept.push_str(framework);
            }
            format!(".NET {kept}")
        });
    let references = package_references(&text);
    let test = references
        .iter()
        .any(|(name, _)| name.eq_ignore_ascii_case("Microsoft.NET.Test.Sdk"))
        || xml_tag(&text, "IsTestProject").is_some_and(|v| v.eq_ignore_ascii_case("true"));
    let program = xml_tag(&text, "OutputType")
        .is_some_and(|t| t.eq_ignore_ascii_case("exe") || t.eq_ignore_ascii_case("winexe"))
        || matches!(
            sdk.as_str(),
            "Microsoft.NET.Sdk.Web" | "Microsoft.NET.Sdk.Worker"
        );
    f.dependencies = references
        .into_iter()
        .filter(|(_, build_time)| !build_time)
        .map(|(name, _)| name)
        .collect();
    f.commands.push(cmd("dotnet build", "build"));
    if test {
        f.commands.push(cmd("dotnet test", "test"));
        f.dependencies.clear();
    } else if program {
        f.commands.push(cmd("dotnet run", "run"));
        f.entry_points.push("Program.cs".to_owned());
    } else {
        // A library: its directory is its root namespace (`Polly.Core.csproj`'s
        // `ResiliencePipeline`, the types a user of the package names first).
        f.namespace_roots.push(String::new());
    }
}

/// The project paths a solution lists, in file order.
fn solution_projects(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines().map(str::trim_start) {
        let path = if line.starts_with("Project(") {
            // Project("{type}") = "Name", "path", "{guid}": the path is the second string
            // after `=` (a solution folder's "path" is its name, no project file).
            line.split_once('=')
                .and_then(|(_, rest)| rest.split('"').nth(3))
                .map(str::to_owned)
        } else if line.starts_with("<Project ") {
            attribute(line, "Path")
        } else {
            None
        };
        // A solution folder's "path" is its name, no file.
        if let Some(p) = path.filter(|p| paths::extension(p.as_bytes()).is_some()) {
            out.push(p);
        }
    }
    out
}

/// A project's `PackageReference`s without repeats, each with whether it is build-time only
/// (`PrivateAssets="all"`: analyzers, source link, polyfills).
fn package_references(text: &str) -> Vec<(String, bool)> {
    let mut out: Vec<(String, bool)> = Vec::new();
    for element in text.split("<PackageReference").skip(1) {
        let tag = element.split('>').next().unwrap_or_default();
        let Some(name) = attribute(tag, "Include") else {
            continue;
        };
        let build_time =
            attribute(tag, "PrivateAssets").is_some_and(|v| v.eq_ignore_ascii_case("all"));
        if !out.iter().any(|(n, _)| n.eq_ignore_ascii_case(&name)) {
            out.push((name, build_time));
        }
    }
    out
}

/// The value of XML attribute `name` in the text of one tag (`Include="xunit"`).
fn attribute(tag: &str, name: &str) -> Option<String> {
    let at = tag
        .match_indices(name)
        .find(|(i, _)| *i == 0 || tag.as_bytes()[i - 1].is_ascii_whitespace())?
        .0;
    let rest = tag[at + name.len()..]
        .trim_start()
        .strip_prefix('=')?
        .trim_start();
    let quote = rest.chars().next().filter(|c| matches!(c, '"' | '\''))?;
    let (value, _) = rest[1..].split_once(quote)?;
    (!value.trim().is_empty()).then(|| value.trim().to_owned())
}

/// `text` without its first `<tag>…</tag>` element (and without XML comments, which may
/// hold elements too).
fn without_element(text: &str, tag: &str) -> String {
    let mut out = without_comments(text);
    let (open, close) = (format!("<{tag}>"), format!("</{tag}>"));
    if let Some(start) = out.find(&open) {
        if let Some(end) = out[start..].find(&close) {
            out.replace_range(start..start + end + close.len(), "");
        }
    }
    out
}

/// `text` without its XML comments (`<!-- … -->`; one left open runs to the end).
fn without_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find("<!--") {
        out.push_str(&rest[..at]);
        rest = rest[at..]
            .find("-->")
            .map_or("", |end| &rest[at + end + 3..]);
    }
    out.push_str(rest);
    out
}

/// Longest version requirement kept as written (`>=3.10`, `^8.0.2 || ^7.4`): a longer one is
/// no requirement a reader needs spelled out.
const MAX_REQUIREMENT: usize = 40;

/// The quoted `python_requires=` argument of a `setup.py`'s `setup(…)` call.
fn setup_py_python(text: &str) -> Option<String> {
    let (_, rest) = text.split_once("python_requires")?;
    let rest = rest.trim_start().strip_prefix('=')?.trim_start();
    let quote = rest.chars().next().filter(|c| matches!(c, '"' | '\''))?;
    let (v, _) = rest[1..].split_once(quote)?;
    let v = v.trim();
    (!v.is_empty() && v.len() <= MAX_REQUIREMENT && v.is_ascii()).then(|| v.to_owned())
}

/// Whether `v` reads as a version number (`1.22`, `1.22.3`, `2024`).
fn is_version(v: &str) -> bool {
    !v.is_empty()
        && v.len() <= 16
        && v.starts_with(|c: char| c.is_ascii_digit())
        && v.chars().all(|c| c.is_ascii_digit() || c == '.')
}

/// A Cargo package's (or workspace's) minimum Rust version and edition: `Rust 1.85, edition
/// 2024`, either alone. A package that inherits them (`edition.workspace = true`) has them
/// in the same manifest's `[workspace.package]` when it is the workspace's root.
fn cargo_requires(doc: &toml::Table) -> Option<String> {
    let tables = [
        doc.get("package"),
        doc.get("workspace").and_then(|w| w.get("package")),
    ];
    let key = |name: &str| {
        tables
            .iter()
            .flatten()
            .find_map(|t| t.get(name)?.as_str().filter(|v| is_version(v)))
    };
    match (key("rust-version"), key("edition")) {
        (Some(v), Some(e)) => Some(format!("Rust {v}, edition {e}")),
        (Some(v), None) => Some(format!("Rust {v}")),
        (None, Some(e)) => Some(format!("Rust edition {e}")),
        (None, None) => None,
    }
}

/// The Java release a POM compiles for: `maven.compiler.release`, else `.source`, else
/// Spring Boot's `java.version` property, else the compiler plugin's `<release>` or
/// `<source>`; `1.8` is Java 8. A property reference (`${java.version}`) says nothing.
fn java_release(pom: &str) -> Option<String> {
    let v = [
        "maven.compiler.release",
        "maven.compiler.source",
        "java.version",
        "release",
        "source",
    ]
    .iter()
    .find_map(|tag| xml_tag(pom, tag).filter(|v| is_version(v)))?;
    Some(
        v.strip_prefix("1.")
            .filter(|r| !r.is_empty())
            .unwrap_or(&v)
            .to_owned(),
    )
}

/// The C++ or C standard a CMake project sets (`CMAKE_CXX_STANDARD 17`, a target's
/// `CXX_STANDARD 11`, `cxx_std_20` compile features; `C_STANDARD 99`), from the lowercased
/// text: `C++17`, `C99`. One set outside any `if()` block is the project's, the first such;
/// else the oldest the branches set, what a build without options gets: spdlog sets C++20
/// only `if(SPDLOG_USE_STD_FORMAT)`, C++11 otherwise.
fn cmake_standard(lower: &str) -> Option<String> {
    // (unconditional, C++ rather than C, the standard's year, the name), in file order.
    let mut found: Vec<(bool, bool, u32, String)> = Vec::new();
    let mut depth = 0usize;
    for line in lower.lines() {
        let code = line.split('#').next().unwrap_or("").trim();
        let opens = |word: &str| {
            code.strip_prefix(word)
                .is_some_and(|rest| rest.trim_start().starts_with('('))
        };
        if opens("endif") {
            depth = depth.saturating_sub(1);
            continue;
        }
        if let Some((cxx, n)) = cmake_standard_in(code) {
            let year = match n.parse::<u32>().unwrap_or(0) {
                y @ 90..=99 => 1900 + y,
                y => 2000 + y,
            };
            let name = if cxx {
                format!("C++{n}")
            } else {
                format!("C{n}")
            };
            found.push((depth == 0, cxx, year, name));
        }
        if opens("if") {
            depth += 1;
        }
    }
    // C++ before C: a C++ project compiles its C sources too.
    let cxx = found.iter().any(|f| f.1);
    let all: Vec<_> = found.into_iter().filter(|f| f.1 == cxx).collect();
    all.iter()
        .find(|f| f.0)
        .or_else(|| all.iter().min_by_key(|f| f.2))
        .map(|f| f.3.clone())
}

/// The standard one line of lowercased CMake sets: (C++ rather than C, its two digits).
fn cmake_standard_in(line: &str) -> Option<(bool, String)> {
    // The two digits after `key` and a blank (`cxx_standard 11`, not `cxx_standard_required`),
    // where `key` starts a word or follows `cmake_`.
    let number_after = |key: &str| {
        line.match_indices(key).find_map(|(i, _)| {
            if line[..i].ends_with(|c: char| c.is_ascii_alphanumeric()) {
                return None;
            }
            let rest = &line[i + key.len()..];
            let value = rest.trim_start_matches([' ', '\t', '"']);
            let digits: String = value.chars().take_while(char::is_ascii_digit).collect();
            (value.len() < rest.len() && digits.len() == 2).then_some(digits)
        })
    };
    let feature = line.match_indices("cxx_std_").find_map(|(i, _)| {
        let n: String = line[i + 8..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        (n.len() == 2).then_some(n)
    });
    number_after("cxx_standard")
        .or(feature)
        .map(|n| (true, n))
        .or_else(|| number_after("c_standard").map(|n| (false, n)))
}

fn xml_tag(text: &str, tag: &str) -> Option<String> {
    xml_values(text, tag).next()
}

/// Every value of an element `tag` in `text`, in order, with or without attributes
/// (Newtonsoft.Json's `<TargetFrameworks Condition="…">net8.0;…</TargetFrameworks>`); empty
/// values and ones holding markup are skipped.
fn xml_values<'t>(text: &'t str, tag: &'t str) -> impl Iterator<Item = String> + 't {
    let open = format!("<{tag}");
    let mut from = 0;
    std::iter::from_fn(move || loop {
        let at = text[from..].find(&open)? + from;
        let after = at + open.len();
        from = after;
        // `<TargetFrameworks>` or `<TargetFrameworks Condition=…>`, not `<TargetFrameworksX>`.
        let attributes = match text[after..].chars().next()? {
            '>' => "",
            c if c.is_whitespace() => &text[after..],
            _ => continue,
        };
        let start = after + attributes.find('>').unwrap_or(0) + 1;
        if text[after..start].contains('/') {
            continue;
        }
        let len = text[start..].find("</")?;
        let v = text[start..start + len].trim();
        if !v.is_empty() && !v.contains('<') {
            return Some(v.to_owned());
        }
    })
}

/// The commands a Rakefile's tasks are run by, in file order without repeats: a task inside
/// `namespace :release do … end` is `rake release:tag`; the `default` task is plain `rake`,
/// for the purpose of its first prerequisite (`task default: :test`); a `Rake::TestTask` or
/// `Minitest::TestTask` defines `rake test`. A task named by a variable
/// (`task gem => …` in a loop) has no name to type and is skipped.
fn rake_commands(text: &str) -> Vec<CommandFact> {
    let mut out: Vec<CommandFact> = Vec::new();
    // Open namespaces: (indentation of their `namespace` line, name).
    let mut spaces: Vec<(usize, String)> = Vec::new();
    for line in text.lines() {
        let body = line.trim_start();
        let indent = line.len() - body.len();
        if body.trim_end() == "end" && spaces.last().is_some_and(|(i, _)| *i == indent) {
            spaces.pop();
            continue;
        }
        if let Some(rest) = body.strip_prefix("namespace ") {
            if let Some((name, _)) = rake_name(rest) {
                spaces.push((indent, name));
            }
            continue;
        }
        let command = if let Some(rest) = body
            .strip_prefix("task ")
            .or_else(|| body.strip_prefix("task("))
        {
            let Some((name, after)) = rake_name(rest) else {
                continue;
            };
            if name == "default" && spaces.is_empty() {
                let prerequisite = rake_name(after.trim_start_matches([' ', '=', '>']))
                    .map_or_else(|| "build".to_owned(), |(p, _)| p);
                cmd("rake", purpose_of(&prerequisite))
            } else {
                let full = spaces
                    .iter()
                    .map(|(_, n)| n.as_str())
                    .chain([name.as_str()])
                    .collect::<Vec<_>>()
                    .join(":");
                cmd(format!("rake {full}"), purpose_of(&full))
            }
        } else if body.contains("TestTask.new") || body.contains("TestTask.create") {
            cmd("rake test", "test")
        } else {
            continue;
        };
        if !out.iter().any(|c| c.command == command.command) {
            out.push(command);
        }
    }
    out.truncate(MAX_COMMANDS);
    out
}

/// The name a Rake `task` or `namespace` line starts with and the text after it: a symbol
/// (`:test`), a string (`'doc:api'`) or a hash key (`all: [...]`); `None` for anything else
/// (a variable, an expression).
fn rake_name(rest: &str) -> Option<(String, &str)> {
    let word = |s: &str| {
        s.find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(s.len())
    };
    let (name, after) = if let Some(sym) = rest.strip_prefix(':') {
        sym.split_at(word(sym))
    } else if let Some(quote) = rest.chars().next().filter(|c| matches!(c, '\'' | '"')) {
        let inner = &rest[1..];
        let end = inner.find(quote)?;
        (&inner[..end], &inner[end + 1..])
    } else {
        let (name, after) = rest.split_at(word(rest));
        // `all: [...]` names a task; `gem => [...]` is a variable.
        (
            name,
            after.strip_prefix(':').filter(|a| !a.starts_with(':'))?,
        )
    };
    (!name.is_empty()).then(|| (name.to_owned(), after))
}

/// The prerequisites of a Makefile's rules for `target` (`lint: lint-go lint-yaml`): the words
/// after the colon, before a recipe's `;` or a comment.
fn make_prerequisites(text: &str, target: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with([' ', '\t', '#', '.']))
    {
        let Some((names, rest)) = line.split_once(':') else {
            continue;
        };
        if rest.starts_with(['=', ':']) || !names.split_whitespace().any(|n| n == target) {
            continue;
        }
        let rest = rest.split([';', '#']).next().unwrap_or_default();
        out.extend(rest.split_whitespace().map(str::to_owned));
    }
    out
}

/// Most lint and format targets of a Makefile listed besides its common ones.
const MAX_MAKE_CHECKS: usize = 3;

fn make(text: &str, f: &mut ManifestFacts) {
    // A target named with a leading `_` is a helper of other rules, not for running: nvm's
    // first rule `_no-target-specified` only says to name one (and is no default to list).
    let all = make_targets(text, false);
    let default = all.first().filter(|t| !t.starts_with('_')).cloned();
    let targets: Vec<String> = all.into_iter().filter(|t| !t.starts_with('_')).collect();
    const COMMON: &[&str] = &[
        "all", "build", "test", "check", "lint", "fmt", "format", "install", "run", "dev", "serve",
        "release", "docs", "bench", "clean",
    ];
    let mut chosen: Vec<&String> = targets
        .iter()
        .filter(|t| COMMON.contains(&t.as_str()))
        .collect();
    if chosen.is_empty() {
        chosen = targets.iter().take(1).collect();
    }
    // The checks a contributor runs before sending a change, under their own names: rich's
    // `make typecheck` and `make format-check` (its CI runs them) were never listed. Not a
    // part of a listed target: viper's `lint: lint-go lint-yaml` runs both.
    let parts: Vec<String> = chosen
        .iter()
        .flat_map(|t| make_prerequisites(text, t))
        .collect();
    let checks = targets
        .iter()
        .filter(|t| !chosen.contains(t) && !parts.contains(t))
        .filter(|t| matches!(purpose_of(t), "lint" | "format"))
        .take(MAX_MAKE_CHECKS)
        .collect::<Vec<_>>();
    chosen.extend(checks);
    if let Some(first) = default.as_ref() {
        if !chosen.contains(&first) {
            chosen.insert(0, first);
        }
    }
    for t in chosen {
        f.commands.push(cmd(format!("make {t}"), purpose_of(t)));
    }
    f.make_delegate = make_delegate(text);
}

/// The first word of `word`'s value when it is a make variable (`$(SUBDIRS)`, `${SUBDIRS}`:
/// the first `SUBDIRS = src …`, `:=`, `?=`), else the word itself.
fn make_value(text: &str, word: &str) -> Option<String> {
    let name = word
        .strip_prefix("$(")
        .and_then(|w| w.strip_suffix(')'))
        .or_else(|| word.strip_prefix("${").and_then(|w| w.strip_suffix('}')));
    let Some(name) = name else {
        return Some(word.to_owned());
    };
    text.lines().find_map(|l| {
        let (lhs, rhs) = l.split_once('=')?;
        let lhs = lhs.trim_end_matches([':', '?', '+']).trim();
        (lhs == name).then(|| rhs.split_whitespace().next().map(str::to_owned))?
    })
}

/// The directory a Makefile's `.DEFAULT` rule runs make in for the target asked
/// ([`ManifestFacts::make_delegate`]).
fn make_delegate(text: &str) -> Option<String> {
    let mut lines = text.lines().skip_while(|l| !l.starts_with(".DEFAULT:"));
    lines.next()?;
    let recipe: Vec<&str> = lines.take_while(|l| l.starts_with('\t')).collect();
    recipe.iter().find_map(|line| {
        let line = line.trim();
        let runs_make = line.contains("$(MAKE)") || line.contains("${MAKE}");
        if !runs_make || !line.contains("$@") {
            return None;
        }
        let dir = match (line.split_once("cd "), line.split_once("-C ")) {
            (Some((_, rest)), _) | (None, Some((_, rest))) => rest.split_whitespace().next()?,
            (None, None) => return None,
        };
        let dir = dir.trim_end_matches([';', '&']);
        // A shell loop's variable (`for dir in $(SUBDIRS); do $(MAKE) -C $$dir $@; done`):
        // the first directory of its list, through a make variable's value (Redis's).
        let dir = match dir.strip_prefix("$$") {
            Some(var) => {
                let list = line.split_once(&format!("for {var} in "))?.1;
                let first = list.split([';', ' ']).find(|w| !w.is_empty())?;
                make_value(text, first)?
            }
            None => dir.to_owned(),
        };
        let dir = dir.trim_end_matches('/');
        let plain = !dir.is_empty()
            && !dir.starts_with('/')
            && !dir.split('/').any(|s| s == "..")
            && dir
                .chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '/'));
        plain.then(|| dir.to_owned())
    })
}

/// The tasks of a Taskfile (`task test`), in order, each with the programs its `cmds:` run
/// (bubbletea's `task test` runs `go test -race -count 4 -cpu 1,4 ./...`; its overview listed
/// Go's default `go test ./...`). Read line by line: a task is a key right under `tasks:`, its
/// commands the `- ` items (or their `cmd:`) under its `cmds:`. An internal task is no command.
fn task_commands(text: &str) -> Vec<CommandFact> {
    let mut out: Vec<CommandFact> = Vec::new();
    let mut tasks_at: Option<usize> = None;
    let mut task_indent: Option<usize> = None;
    let mut in_cmds: Option<usize> = None;
    // The task the lines belong to (none for an internal one).
    let mut current: Option<usize> = None;
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let indent = line.len() - trimmed.len();
        if trimmed.trim_end() == "tasks:" {
            tasks_at = Some(indent);
            continue;
        }
        let Some(at) = tasks_at else {
            continue;
        };
        if indent <= at {
            tasks_at = None;
            continue;
        }
        let keys = *task_indent.get_or_insert(indent);
        if indent == keys {
            in_cmds = None;
            current = None;
            let name = trimmed.trim_end().strip_suffix(':').unwrap_or("");
            let name = name.trim_matches(['"', '\'']);
            let plain = !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_alphanumeric() || matches!(c, '-' | '_' | ':'));
            if plain {
                out.push(cmd(format!("task {name}"), purpose_of(name)));
                current = Some(out.len() - 1);
            }
            continue;
        }
        let Some(task) = current.and_then(|i| out.get_mut(i)) else {
            continue;
        };
        if trimmed.starts_with("internal: true") {
            out.pop();
            current = None;
            continue;
        }
        if trimmed.trim_end() == "cmds:" {
            in_cmds = Some(indent);
            continue;
        }
        match in_cmds {
            Some(c) if indent > c => {
                let item = trimmed.strip_prefix("- ").unwrap_or(trimmed);
                let item = item.strip_prefix("cmd:").unwrap_or(item).trim();
                let program = item
                    .trim_matches(['"', '\''])
                    .split_whitespace()
                    .next()
                    .unwrap_or("");
                let named =
                    !program.is_empty() && !program.ends_with(':') && !program.contains(['{', '$']);
                if named && !task.runs.iter().any(|r| r == program) {
                    task.runs.push(program.to_owned());
                }
            }
            Some(_) => in_cmds = None,
            None => {}
        }
    }
    out
}

/// Returns rule names of a Makefile or recipe names of a justfile, in order.
fn make_targets(text: &str, just: bool) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    for (at, line) in lines.iter().enumerate() {
        if line.starts_with([' ', '\t', '#', '.']) {
            continue;
        }
        let Some(colon) = line.find(':') else {
            continue;
        };
        if line[colon + 1..].starts_with('=') || line[..colon].contains('=') {
            continue;
        }
        let is_name = |name: &str| {
            name.chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '/'))
                && !name.contains('%')
                && !name.is_empty()
        };
        let mut names = line[..colon].split_whitespace();
        if just {
            // A recipe's name, then its parameters.
            let name = names.next().unwrap_or_default().trim_start_matches('@');
            if is_name(name) && !out.iter().any(|o| o == name) {
                out.push(name.to_owned());
            }
            continue;
        }
        // A rule names only targets before its colon: a line with anything else there is not
        // a rule (cobra's `$(warning "could not find ... run: curl ...")` named `not` and
        // `run`), and neither is a target made of variables.
        let names: Vec<&str> = names.collect();
        if !names.iter().all(|n| is_name(n)) {
            continue;
        }
        // A rule that only prints (chi's `all:` echoes a banner, "chi build tool") builds
        // nothing: `make all` led its commands before `go build ./...`.
        if prints_only(&line[colon + 1..], &lines[at + 1..]) {
            continue;
        }
        for name in names {
            if !out.iter().any(|o| o == name) {
                out.push(name.to_owned());
            }
        }
    }
    out
}

/// Whether a Make rule with these `prerequisites` (what follows its colon) and the lines after
/// it has no prerequisite and a recipe that only prints (`@echo`, `printf`).
fn prints_only(prerequisites: &str, after: &[&str]) -> bool {
    let prerequisites = prerequisites.split('#').next().unwrap_or_default().trim();
    let recipe: Vec<&str> = after
        .iter()
        .take_while(|l| l.starts_with('\t') || l.trim().is_empty())
        .map(|l| l.trim())
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    let prints = |l: &&str| {
        let command = l.trim_start_matches(['@', '-', '+']);
        command.starts_with("echo ") || command.starts_with("printf ") || command == "echo"
    };
    prerequisites.is_empty() && !recipe.is_empty() && recipe.iter().all(prints)
}

/// The `packages:` list of a `pnpm-workspace.yaml`: the `- item` lines below the key (quotes
/// removed), up to the next top-level key. A tiny reader for this one shape, not YAML.
fn pnpm_packages(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        let body = line.split(" #").next().unwrap_or_default();
        if body.trim().is_empty() || body.trim_start().starts_with('#') {
            continue;
        }
        if !line.starts_with([' ', '\t', '-']) {
            inside = body.trim_end() == "packages:";
            continue;
        }
        if let Some(item) = body.trim().strip_prefix('-').filter(|_| inside) {
            let item = item.trim().trim_matches(|c| c == '\'' || c == '"');
            if !item.is_empty() {
                out.push(item.to_owned());
            }
        }
    }
    out
}

/// Expands workspace member patterns (relative to the workspace root, as Cargo, npm and pnpm
/// write them) against tracked paths, with globset: `*` and `?` stay within one directory,
/// `**` crosses directories, `{a,b}` alternates; a pattern starting with `!` removes what it
/// matches. A plain path is a member when files are tracked below it; a glob matches the
/// directories that directly hold a manifest (what those tools require of a member). An
/// invalid pattern is skipped: a manifest is repository data, not configuration. Sorted.
pub fn expand_members<'a>(
    patterns: &[&str],
    paths: impl Iterator<Item = &'a [u8]> + Clone,
) -> Vec<Vec<u8>> {
    let glob = |p: &str| {
        globset::GlobBuilder::new(p)
            .literal_separator(true)
            .build()
            .ok()
    };
    let is_glob = |p: &str| p.contains(['*', '?', '[', '{']);
    let (mut keep, mut drop) = (
        globset::GlobSetBuilder::new(),
        globset::GlobSetBuilder::new(),
    );
    let mut literal: Vec<&str> = Vec::new();
    for raw in patterns {
        let (negated, p) = match raw.strip_prefix('!') {
            Some(rest) => (true, rest),
            None => (false, *raw),
        };
        let p = p.trim_start_matches("./").trim_end_matches('/');
        if p.is_empty() {
            continue;
        }
        if !negated && !is_glob(p) {
            literal.push(p);
        } else if let Some(g) = glob(p) {
            if negated {
                drop.add(g);
            } else {
                keep.add(g);
            }
        }
    }
    let (keep, drop) = (
        keep.build().unwrap_or_default(),
        drop.build().unwrap_or_default(),
    );
    let mut out: Vec<Vec<u8>> = Vec::new();
    for path in paths.clone() {
        let Some(slash) = path.iter().rposition(|&b| b == b'/') else {
            continue;
        };
        let dir = &path[..slash];
        if is_manifest(path) && keep.is_match_candidate(&globset::Candidate::from_bytes(dir)) {
            out.push(dir.to_vec());
        }
    }
    for p in literal {
        let dir = p.as_bytes();
        if paths
            .clone()
            .any(|f| f.starts_with(dir) && f.get(dir.len()) == Some(&b'/'))
        {
            out.push(dir.to_vec());
        }
    }
    out.retain(|d| !drop.is_match_candidate(&globset::Candidate::from_bytes(d)));
    out.sort();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A manifest's commands as (command, purpose) pairs, in order.
    fn commands(f: &ManifestFacts) -> Vec<(&str, &str)> {
        f.commands
            .iter()
            .map(|c| (c.command.as_str(), c.purpose.as_str()))
            .collect()
    }

    fn members(patterns: &[&str], files: &[&str]) -> Vec<String> {
        expand_members(patterns, files.iter().map(|f| f.as_bytes()))
            .into_iter()
            .map(|d| String::from_utf8(d).unwrap())
            .collect()
    }

    const TREE: &[&str] = &[
        "Cargo.toml",
        "packages/core/package.json",
        "packages/core/src/index.js",
        "packages/legacy/package.json",
        "packages/notes/README.md",
        "packages/group/inner/package.json",
        "apps/web/tools/Cargo.toml",
        "apps/cli/tools/Cargo.toml",
        "apps/cli/src/main.rs",
        "x/package.json",
        "y/package.json",
        "z/package.json",
        "plain/src/lib.rs",
    ];

    /// A Taskfile's tasks are commands, each with the programs it runs (bubbletea's `task
    /// test` runs `go test -race …`); an internal task is none.
    #[test]
    fn a_taskfiles_tasks_are_commands() {
        let text = "version: \"3\"\n\nvars:\n  X: 1\n\ntasks:\n  lint:\n    cmds:\n      - golangci-lint run --fix\n  test:\n    desc: Run tests\n    cmds:\n      - go test -race -count 4 -cpu 1,4 ./...\n      - cmd: go vet ./...\n  helper:\n    internal: true\n    cmds:\n      - echo hi\n";
        let f = analyze(b"Taskfile.yaml", text).unwrap();
        assert_eq!(f.kind, "task");
        assert_eq!(commands(&f), [("task lint", "lint"), ("task test", "test")]);
        assert_eq!(f.commands[0].runs, ["golangci-lint"]);
        assert_eq!(f.commands[1].runs, ["go"]);
    }

    /// A solution of C++ projects only (imgui's `examples/imgui_examples.sln`) is no .NET
    /// build: no `dotnet build`, no members.
    #[test]
    fn a_solution_of_cpp_projects_is_no_dotnet_build() {
        let sln = "Microsoft Visual Studio Solution File, Format Version 12.00\nProject(\"{8BC9CEB8-8B4A-11D0-8D11-00A0C91E6BF8}\") = \"example_glfw\", \"example_glfw\\\\example_glfw.vcxproj\", \"{9CDA}\"\nEndProject\n";
        let f = analyze(b"imgui_examples.sln", sln).unwrap();
        assert!(f.commands.is_empty(), "{f:?}");
        assert!(f.members.is_empty(), "{f:?}");
    }

    /// A .NET solution lists its projects' directories as members and builds and tests them
    /// all; Visual Studio writes `\` in paths, and a solution folder is no project.
    #[test]
    fn a_dotnet_solution_lists_its_projects() {
        let sln = "\u{feff}\nMicrosoft Visual Studio Solution File, Format Version 12.00\nProject(\"{2150E333-8FDC-42A3-9474-1A3956D46DE8}\") = \"src\", \"src\", \"{791D}\"\nEndProject\nProject(\"{9A19103F-16F7-4668-BE54-9A1E7A4F7556}\") = \"Serilog\", \"src\\Serilog\\Serilog.csproj\", \"{AB00}\"\nEndProject\nProject(\"{9A19}\") = \"Serilog.Tests\", \"test\\Serilog.Tests\\Serilog.Tests.csproj\", \"{B11B}\"\nEndProject\n";
        let f = analyze(b"Serilog.sln", sln).unwrap();
        assert_eq!(f.kind, "dotnet");
        assert_eq!(f.name.as_deref(), Some("Serilog"));
        assert_eq!(f.members, ["src/Serilog", "test/Serilog.Tests"]);
        assert_eq!(
            commands(&f),
            [("dotnet build", "build"), ("dotnet test", "test")]
        );
        let slnx = "<Solution>\n  <Folder Name=\"/src/\">\n    <Project Path=\"src/App/App.fsproj\" />\n  </Folder>\n</Solution>\n";
        assert_eq!(analyze(b"App.slnx", slnx).unwrap().members, ["src/App"]);
    }

    /// A .NET project: its name, description and runtime packages; a program runs, a test
    /// project tests; a commented element says nothing.
    #[test]
    fn a_dotnet_project_says_what_it_builds() {
        let lib = "\u{feff}<Project Sdk=\"Microsoft.NET.Sdk\">\n  <PropertyGroup>\n    <!-- <AssemblyName>Old</AssemblyName> -->\n    <Description>Simple .NET logging</Description>\n  </PropertyGroup>\n  <ItemGroup>\n    <PackageReference Include=\"PolySharp\" Version=\"1.15.0\" PrivateAssets=\"All\" />\n    <PackageReference Include=\"System.Threading.Channels\" Version=\"8.0.0\" />\n  </ItemGroup>\n  <ItemGroup Condition=\" '$(TargetFramework)' == 'net462' \">\n    <PackageReference Include=\"System.Threading.Channels\" Version=\"8.0.0\" />\n  </ItemGroup>\n</Project>\n";
        let f = analyze(b"src/Serilog/Serilog.csproj", lib).unwrap();
        assert_eq!(f.name.as_deref(), Some("Serilog"));
        assert_eq!(f.description.as_deref(), Some("Simple .NET logging"));
        assert_eq!(f.dependencies, ["System.Threading.Channels"]);
        assert_eq!(commands(&f), [("dotnet build", "build")]);
        assert!(f.entry_points.is_empty());

        let app = "<Project Sdk=\"Microsoft.NET.Sdk\"><PropertyGroup><OutputType>Exe</OutputType><AssemblyName>todo</AssemblyName></PropertyGroup></Project>";
        let f = analyze(b"App.csproj", app).unwrap();
        assert_eq!(f.name.as_deref(), Some("todo"));
        assert_eq!(
            commands(&f),
            [("dotnet build", "build"), ("dotnet run", "run")]
        );
        assert_eq!(f.entry_points, ["Program.cs"]);
        let web = "<Project Sdk='Microsoft.NET.Sdk.Web'></Project>";
        assert_eq!(
            analyze(b"Web.csproj", web).unwrap().entry_points,
            ["Program.cs"]
        );

        let tests = "<Project Sdk=\"Microsoft.NET.Sdk\"><ItemGroup><PackageReference Include=\"Microsoft.NET.Test.Sdk\" Version=\"17\" /><PackageReference Include=\"xunit\" Version=\"2\" /></ItemGroup></Project>";
        let f = analyze(b"App.Tests.fsproj", tests).unwrap();
        assert_eq!(
            commands(&f),
            [("dotnet build", "build"), ("dotnet test", "test")]
        );
        assert!(f.dependencies.is_empty());
        assert!(analyze(b".csproj", lib).is_none());

        // A traversal project builds what it lists: no name, no package of its own.
        let traversal = "<Project Sdk=\"Microsoft.Build.Traversal/2.0.24\">\n  <ItemGroup>\n    <ProjectReference Include=\"Dapper*/*.csproj\" />\n  </ItemGroup>\n</Project>\n";
        let f = analyze(b"Build.csproj", traversal).unwrap();
        assert_eq!(f.name, None);
        assert_eq!(commands(&f), [("dotnet build", "build")]);
    }

    /// A POM's name and description are its own, not its parent's, nor a comment's.
    /// Each ecosystem's statement of the language or runtime version, named; none where the
    /// manifest states none or only refers to a variable.
    #[test]
    fn a_manifest_says_which_language_version_it_requires() {
        let cases: &[(&[u8], &str, Option<&str>)] = &[
            (b"pyproject.toml", "[project]\nname = \"flask\"\nrequires-python = \">=3.10\"\n", Some("Python >=3.10")),
            (b"pyproject.toml", "[tool.poetry]\nname = \"p\"\n[tool.poetry.dependencies]\npython = \"^3.9\"\nrich = \"*\"\n", Some("Python ^3.9")),
            (b"setup.cfg", "[metadata]\nname = x\n[options]\npython_requires = >=3.8\n", Some("Python >=3.8")),
            (b"setup.py", "setup(\n    name=\"x\",\n    python_requires = \">=3.7\",\n)\n", Some("Python >=3.7")),
            (b"Cargo.toml", "[package]\nname = \"rg\"\nedition.workspace = true\nrust-version.workspace = true\n[workspace]\nmembers = []\n[workspace.package]\nedition = \"2024\"\nrust-version = \"1.85\"\n", Some("Rust 1.85, edition 2024")),
            (b"Cargo.toml", "[package]\nname = \"x\"\nedition = \"2021\"\n", Some("Rust edition 2021")),
            (b"Cargo.toml", "[package]\nname = \"x\"\n", None),
            (b"go.mod", "module github.com/spf13/cobra\n\ngo 1.15\n", Some("Go 1.15")),
            (b"package.json", "{\"name\": \"ky\", \"engines\": {\"node\": \">=22\"}}", Some("Node.js >=22")),
            (b"package.json", "{\"name\": \"x\"}", None),
            (b"composer.json", "{\"name\": \"league/flysystem\", \"require\": {\"php\": \"^8.0.2\", \"ext-json\": \"*\"}}", Some("PHP ^8.0.2")),
            (b"pom.xml", "<project><parent><artifactId>commons-parent</artifactId><properties><maven.compiler.source>17</maven.compiler.source></properties></parent><artifactId>x</artifactId><properties><maven.compiler.source>1.8</maven.compiler.source></properties></project>", Some("Java 8")),
            (b"pom.xml", "<project><artifactId>petclinic</artifactId><properties><java.version>17</java.version></properties></project>", Some("Java 17")),
            (b"pom.xml", "<project><artifactId>x</artifactId><build><plugins><plugin><configuration><release>${java.version}</release></configuration></plugin></plugins></build></project>", None),
            (b"sinatra.gemspec", "Gem::Specification.new 'sinatra' do |s|\n  s.required_ruby_version = '>= 2.7.8'\nend\n", Some("Ruby >= 2.7.8")),
            (b"CMakeLists.txt", "project(yaml-cpp)\nset_target_properties(yaml-cpp PROPERTIES\n  CXX_STANDARD_REQUIRED ON)\nif (NOT DEFINED CMAKE_CXX_STANDARD)\n  set_target_properties(yaml-cpp PROPERTIES CXX_STANDARD 11)\nendif()\n", Some("C++11")),
            (b"CMakeLists.txt", "project(fmt)\ntarget_compile_features(fmt PUBLIC cxx_std_11)\n", Some("C++11")),
            (b"CMakeLists.txt", "project(z C)\nset(CMAKE_C_STANDARD 99)\n", Some("C99")),
            (b"CMakeLists.txt", "project(z)\nset(CMAKE_CXX_STANDARD ${STD})\n", None),
            (b"CMakeLists.txt", "project(spdlog)\nif(SPDLOG_USE_STD_FORMAT)\n  set(CMAKE_CXX_STANDARD 20)\nelseif(NOT CMAKE_CXX_STANDARD)\n  set(CMAKE_CXX_STANDARD 11)\nendif()\n", Some("C++11")),
            (b"CMakeLists.txt", "project(z)\nif(WITH_MODULES) # C++20 modules\n  set(CMAKE_CXX_STANDARD 20)\nendif()\nset(CMAKE_CXX_STANDARD 17)\nset(CMAKE_C_STANDARD 99)\n", Some("C++17")),
            (b"CMakeLists.txt", "project(z)\nif(A)\n  if(B)\n    set(CMAKE_CXX_STANDARD 98)\n  endif()\nendif()\nif(C)\n  set(CMAKE_CXX_STANDARD 14)\nendif()\n", Some("C++98")),
            (b"src/App/App.csproj", "<Project Sdk=\"Microsoft.NET.Sdk\"><PropertyGroup><TargetFramework>net8.0</TargetFramework></PropertyGroup></Project>", Some(".NET net8.0")),
            // Newtonsoft.Json's: frameworks under a condition, and a property under another.
            (b"Src/Lib/Lib.csproj", "<Project Sdk=\"Microsoft.NET.Sdk\"><PropertyGroup><TargetFrameworks Condition=\"'$(F)'==''\">net8.0;net6.0;net45;net40;net35;net20;netstandard2.0</TargetFrameworks><TargetFrameworks Condition=\"'$(F)'!=''\">$(F)</TargetFrameworks></PropertyGroup></Project>", Some(".NET net8.0;net6.0;net45;net40;net35;net20;…")),
            (b"Src/Lib/Lib.csproj", "<Project Sdk=\"Microsoft.NET.Sdk\"><PropertyGroup><TargetFrameworks Condition=\"'$(F)'!=''\">$(F)</TargetFrameworks></PropertyGroup></Project>", None),
        ];
        for (path, text, want) in cases {
            let f = analyze(path, text).unwrap_or_else(|| panic!("{text}"));
            assert_eq!(f.requires.as_deref(), *want, "{text}");
        }
    }

    /// An optional dependency (a Cargo feature's, a Poetry extra's) is no dependency of the
    /// project's.
    #[test]
    fn optional_dependencies_are_left_out() {
        let poetry = "[tool.poetry]\nname = \"rich\"\n[tool.poetry.dependencies]\npython = \"^3.8\"\npygments = \"^2\"\nipywidgets = { version = \"^8\", optional = true }\nmarkdown-it-py = \">=2\"\n";
        assert_eq!(
            analyze(b"pyproject.toml", poetry).unwrap().dependencies,
            ["pygments", "markdown-it-py"]
        );
        let cargo = "[package]\nname = \"x\"\n[dependencies]\nserde = { version = \"1\", optional = true }\nmemchr = \"2\"\n";
        assert_eq!(
            analyze(b"Cargo.toml", cargo).unwrap().dependencies,
            ["memchr"]
        );
    }

    /// An automake file's installed headers are its entry points, a continued line joined.
    #[test]
    fn automake_installed_headers_are_entry_points() {
        let am = "AUTOMAKE_OPTIONS = foreign\ninclude_HEADERS = src/jv.h \\\n  src/jq.h\npkginclude_HEADERS += $(EXTRA) ./src/extra.h\nnoinst_HEADERS = src/internal.h\n";
        let f = analyze(b"Makefile.am", am).unwrap();
        assert_eq!(f.kind, "autotools");
        assert_eq!(f.entry_points, ["src/jv.h", "src/jq.h", "src/extra.h"]);
        assert!(f.commands.is_empty(), "{f:?}");
    }

    /// A crate whose test targets all require features its default set lacks tests with them
    /// (hyper's `[[test]]`s require `full`, `default = []`).
    #[test]
    fn cargo_tests_that_require_features_are_run_with_them() {
        let hyper = "[package]\nname = \"hyper\"\n[features]\ndefault = []\nfull = [\"client\"]\nclient = []\n[[test]]\nname = \"client\"\nrequired-features = [\"full\"]\n[[test]]\nname = \"server\"\nrequired-features = [\"full\"]\n";
        let f = analyze(b"Cargo.toml", hyper).unwrap();
        assert_eq!(f.commands[1].command, "cargo test --features full");
        let plain = "[package]\nname = \"x\"\n[[test]]\nname = \"t\"\n";
        assert_eq!(
            analyze(b"Cargo.toml", plain).unwrap().commands[1].command,
            "cargo test"
        );
        let defaulted = "[package]\nname = \"x\"\n[features]\ndefault = [\"std\"]\nstd = []\n[[test]]\nname = \"t\"\nrequired-features = [\"std\"]\n";
        assert_eq!(
            analyze(b"Cargo.toml", defaulted).unwrap().commands[1].command,
            "cargo test"
        );
    }

    /// A Make rule that only prints is no command (chi's `all:` echoes a banner); one that
    /// prints and builds, or depends on others, is.
    #[test]
    fn a_make_rule_that_only_prints_is_no_command() {
        let text = ".PHONY: all\nall:\n\t@echo \"** chi build tool **\"\n\t@echo \"**\"\n\ntest:\n\tgo test ./...\n\nhelp:\n\t@echo all test\n\nbuild: deps\n\t@echo building\n\nrelease:\n\t@echo releasing\n\t./release.sh\n";
        assert_eq!(make_targets(text, false), ["test", "build", "release"]);
    }

    /// A package.json that only describes (no dependencies, scripts or workspaces) installs
    /// nothing: libgit2's made its overview say `npm install`.
    #[test]
    fn a_metadata_only_package_installs_nothing() {
        let bare = analyze(
            b"package.json",
            "{\"name\": \"lib\", \"version\": \"1.0.0\", \"install\": \"see README\"}",
        )
        .unwrap();
        assert!(commands(&bare).is_empty(), "{bare:?}");
        let deps = analyze(
            b"package.json",
            "{\"name\": \"app\", \"dependencies\": {\"ky\": \"1\"}}",
        )
        .unwrap();
        assert_eq!(commands(&deps), [("npm install", "install")]);
    }

    /// CMake builds from a fresh checkout: configure, then build; tests an option leaves off
    /// are configured in first.
    #[test]
    fn cmake_commands_configure_first() {
        let plain = analyze(
            b"CMakeLists.txt",
            "project(hello C)\nenable_testing()\nadd_test(NAME t COMMAND t)\n",
        )
        .unwrap();
        assert_eq!(
            commands(&plain),
            [
                ("cmake -B build && cmake --build build", "build"),
                ("ctest --test-dir build", "test")
            ]
        );
        let gated = "project(yaml-cpp)\ncmake_dependent_option(YAML_BUILD_SHARED_LIBS \"x\" ON \"A\" OFF)\noption(YAML_CPP_BUILD_TESTS \"Enable yaml-cpp tests\" OFF)\nif (YAML_CPP_BUILD_TESTS)\n  enable_testing()\nendif()\n";
        assert_eq!(
            commands(&analyze(b"CMakeLists.txt", gated).unwrap())[1],
            (
                "cmake -B build -DYAML_CPP_BUILD_TESTS=ON && cmake --build build && ctest --test-dir build",
                "test"
            )
        );
        // A test option on by default (fmt's `FMT_TEST`, on for the top-level project) builds
        // the tests: another one that is off (`FMT_CUDA_TEST`, which needs CUDA) is not them.
        let on = "project(FMT CXX)\noption(FMT_TEST \"Generate the test target.\" ${FMT_MASTER_PROJECT})\noption(FMT_CUDA_TEST \"Generate the cuda-test target.\" OFF)\nenable_testing()\n";
        assert_eq!(
            commands(&analyze(b"CMakeLists.txt", on).unwrap())[1],
            ("ctest --test-dir build", "test")
        );
        let untested = analyze(b"CMakeLists.txt", "project(z)\n").unwrap();
        assert_eq!(commands(&untested).len(), 1);
        // An option that turns the tests off is no switch to turn them on (CLI11's review: the
        // command set `-DDEMO_DISABLE_TESTS=ON` and ran ctest).
        let disabling = "project(demo)\noption(DEMO_DISABLE_TESTS \"Skip the tests\" OFF)\nif(NOT DEMO_DISABLE_TESTS)\n  enable_testing()\nendif()\n";
        assert_eq!(
            commands(&analyze(b"CMakeLists.txt", disabling).unwrap())[1],
            ("ctest --test-dir build", "test")
        );
    }

    #[test]
    fn a_pom_is_named_by_its_own_artifact_not_its_parents() {
        let pom = "<project>\n  <!-- <artifactId>commented</artifactId> -->\n  <parent>\n    <groupId>org.apache.commons</groupId>\n    <artifactId>commons-parent</artifactId>\n  </parent>\n  <artifactId>commons-lang3</artifactId>\n  <description>Utilities for java.lang.</description>\n  <dependencies><dependency><artifactId>junit</artifactId></dependency></dependencies>\n</project>\n";
        let f = analyze(b"pom.xml", pom).unwrap();
        assert_eq!(f.name.as_deref(), Some("commons-lang3"));
        assert_eq!(f.description.as_deref(), Some("Utilities for java.lang."));
        // A multi-module build's parent POM names the project it is the parent of.
        let parent = "<project>\n  <artifactId>guice-parent</artifactId>\n  <modules>\n    <module>core</module>\n  </modules>\n</project>\n";
        assert_eq!(
            analyze(b"pom.xml", parent).unwrap().name.as_deref(),
            Some("guice")
        );
        let alone = "<project>\n  <artifactId>lone-parent</artifactId>\n</project>\n";
        assert_eq!(
            analyze(b"pom.xml", alone).unwrap().name.as_deref(),
            Some("lone-parent")
        );
    }

    /// A package's root namespace: the directories of Composer's PSR-4 autoload map (not the
    /// tests' `autoload-dev`), and a .NET library project's own directory (not a test
    /// project's, not a program's).
    #[test]
    fn namespace_roots_are_psr4_directories_and_library_projects() {
        let composer = r#"{"autoload": {"psr-4": {"GuzzleHttp\\": "src/", "A\\": ["./lib", "src"], "B\\": "."}, "files": ["src/functions_include.php"]}, "autoload-dev": {"psr-4": {"GuzzleHttp\\Tests\\": "tests/"}}}"#;
        let f = analyze(b"composer.json", composer).unwrap();
        assert_eq!(f.namespace_roots, ["src", "lib", ""]);
        assert!(analyze(b"composer.json", "{\"name\": \"a/b\"}")
            .unwrap()
            .namespace_roots
            .is_empty());
        let lib = "<Project Sdk=\"Microsoft.NET.Sdk\"><PropertyGroup><TargetFramework>net8.0</TargetFramework></PropertyGroup></Project>";
        assert_eq!(
            analyze(b"src/Lib/Lib.csproj", lib).unwrap().namespace_roots,
            [""]
        );
        let test = "<Project Sdk=\"Microsoft.NET.Sdk\"><ItemGroup><PackageReference Include=\"Microsoft.NET.Test.Sdk\" Version=\"17.0.0\" /></ItemGroup></Project>";
        let app = "<Project Sdk=\"Microsoft.NET.Sdk\"><PropertyGroup><OutputType>Exe</OutputType></PropertyGroup></Project>";
        for other in [test, app] {
            assert!(analyze(b"x/X.csproj", other)
                .unwrap()
                .namespace_roots
                .is_empty());
        }
    }

    /// The license a manifest declares, in each ecosystem's way; nothing for a text too long
    /// to be a name.
    /// A package script's programs are named, through the scripts it runs, without its
    /// arguments or values: what tool the test command is, and nothing a script may hide.
    #[test]
    fn a_package_scripts_programs_are_named_without_arguments() {
        let npm = r#"{"name": "ky", "scripts": {
            "build": "del-cli distribution && tsc --project tsconfig.dist.json",
            "test": "xo && npm run build && ava",
            "test:unit": "node bin/ssl_hotfix.js cross-env LISTEN_ADDR=:: mocha test/**/*.js",
            "jest": "node node_modules/jest/bin/jest.js --ci",
            "deploy": "API_TOKEN=s3cr3t ./scripts/publish.sh 'x: $PASSWORD' && git push",
            "none": "echo \"Error: no test specified\" && exit 1",
            "self": "npm run self",
            "run-own": "node scripts/gen.js docs/api.md",
            "inline": "rollup -c && node --input-type=module -e \"import { a } from './x.mjs'; const b = 1\" && json -I -f p.json -e 'this.x=1; y()' | prettier"
        }}"#;
        let f = analyze(b"package.json", npm).expect("a manifest");
        let runs = |command: &str| -> Vec<String> {
            let c = f.commands.iter().find(|c| c.command == command);
            c.unwrap_or_else(|| panic!("{command} in {:?}", f.commands))
                .runs
                .clone()
        };
        assert_eq!(runs("npm run build"), ["del-cli", "tsc"]);
        assert_eq!(runs("npm test"), ["xo", "del-cli", "tsc", "ava"]);
        assert_eq!(runs("npm run test:unit"), ["mocha"]);
        assert_eq!(runs("npm run jest"), ["jest"]);
        assert_eq!(runs("npm run deploy"), ["publish"]);
        assert!(runs("npm run none").is_empty());
        assert!(runs("npm run self").is_empty());
        assert!(runs("npm run run-own").is_empty());
        // Inline code is no step of its own (zustand's `import`, `const`).
        assert_eq!(runs("npm run inline"), ["rollup", "json", "prettier"]);
        let stored = serde_json::to_string(&f).expect("facts serialize");
        for secret in ["s3cr3t", "PASSWORD", "API_TOKEN", "tsconfig"] {
            assert!(!stored.contains(secret), "{secret} in {stored}");
        }
        // Composer: a list of lines, `@script` references and `@php`.
        let composer = r#"{"name": "slim/slim", "scripts": {
            "test": ["@phpunit", "@phpcs", "@phpstan"],
            "phpunit": "phpunit",
            "phpcs": "phpcs",
            "phpstan": "@php vendor/bin/phpstan analyse Slim"
        }}"#;
        let f = analyze(b"composer.json", composer).expect("a manifest");
        assert!(f.entry_points.is_empty(), "{:?}", f.entry_points);
        // The scripts a package installs for its users are its entry points (Carbon's).
        let carbon = r#"{"name": "nesbot/carbon", "bin": ["bin/carbon"]}"#;
        let bins = analyze(b"composer.json", carbon)
            .expect("a manifest")
            .entry_points;
        assert_eq!(bins, ["bin/carbon"]);
        let test = f.commands.iter().find(|c| c.command == "composer run test");
        assert_eq!(
            test.expect("the test script").runs,
            ["phpunit", "phpcs", "phpstan"]
        );
    }

    #[test]
    fn a_manifest_declares_its_license() {
        let cases: &[(&[u8], &str, Option<&str>)] = &[
            (b"package.json", r#"{"name": "ky", "license": "MIT"}"#, Some("MIT")),
            (b"composer.json", r#"{"license": ["MIT", "GPL-2.0-only"]}"#, Some("MIT OR GPL-2.0-only")),
            (b"Cargo.toml", "[package]\nname = \"x\"\nlicense = \"MIT OR Apache-2.0\"\n", Some("MIT OR Apache-2.0")),
            (b"pyproject.toml", "[project]\nname = \"x\"\nlicense = \"BSD-3-Clause\"\n", Some("BSD-3-Clause")),
            (b"pyproject.toml", "[project]\nname = \"x\"\nlicense = { text = \"Apache-2.0\" }\n", Some("Apache-2.0")),
            (b"pyproject.toml", "[project]\nname = \"x\"\nlicense = { file = \"LICENSE\" }\n", None),
            (b"x.gemspec", "Gem::Specification.new do |s|\n  s.name = \"x\"\n  s.license = \"MIT\"\nend\n", Some("MIT")),
            (b"x.gemspec", "Gem::Specification.new do |s|\n  s.name = \"x\"\n  s.licenses = [\"Ruby\", \"BSD-2-Clause\"]\nend\n", Some("Ruby")),
            (b"X.csproj", "<Project Sdk=\"Microsoft.NET.Sdk\"><PropertyGroup><PackageLicenseExpression>Apache-2.0</PackageLicenseExpression></PropertyGroup></Project>", Some("Apache-2.0")),
            (b"package.json", r#"{"name": "x"}"#, None),
        ];
        for (file, text, expected) in cases {
            let f = analyze(file, text).unwrap();
            assert_eq!(f.license.as_deref(), *expected, "{text}");
        }
        let long = format!(
            "{{\"license\": \"{}\"}}",
            "Permission is hereby granted ".repeat(4)
        );
        assert_eq!(analyze(b"package.json", &long).unwrap().license, None);
    }

    /// A PHPUnit configuration says how a PHP project's tests run.
    #[test]
    fn a_phpunit_configuration_is_the_test_command() {
        for name in ["phpunit.xml", "phpunit.xml.dist"] {
            let f = analyze(name.as_bytes(), "<phpunit><testsuites/></phpunit>\n").unwrap();
            assert_eq!(f.kind, "composer");
            assert_eq!(f.commands, [cmd("vendor/bin/phpunit", "test")]);
        }
    }

    /// Autotools' `configure.ac` names the project by `AC_INIT` and says how to generate,
    /// build and check it (jq's overview had no command).
    #[test]
    fn an_autoconf_script_names_the_project_and_its_build() {
        for (name, init) in [
            (
                "configure.ac",
                "AC_INIT([jq], [1.8.2], [https://github.com/jqlang/jq/issues])",
            ),
            ("configure.in", "AC_INIT(jq, 1.6)"),
        ] {
            let text = format!("dnl comment\n{init}\nAC_PROG_CC\n");
            let f = analyze(name.as_bytes(), &text).unwrap();
            assert_eq!(
                (f.kind.as_str(), f.name.as_deref()),
                ("autotools", Some("jq"))
            );
            assert_eq!(
                f.commands,
                [
                    cmd("autoreconf -i && ./configure && make", "build"),
                    cmd("make check", "test"),
                ]
            );
        }
    }

    /// A `setup.cfg` names the project, describes it, lists its dependencies and scripts
    /// (httpie's was read for `pip install -e .` only).
    #[test]
    fn setup_cfg_reads_metadata_requirements_and_scripts() {
        let text = "[metadata]\nname = httpie\nversion = attr: httpie.__version__\ndescription = HTTPie: a command-line HTTP client.\nlong_description = file: README.md\n\n[options]\n# what it needs\ninstall_requires =\n    pip\n    charset_normalizer>=2.0.0\n    requests[socks] >=2.22.0\n\n[options.entry_points]\nconsole_scripts =\n    http = httpie.__main__:main\n    https = httpie.__main__:main\n\n[tool:pytest]\naddopts = --tb=native\n";
        let f = analyze(b"setup.cfg", text).unwrap();
        assert_eq!(f.kind, "python");
        assert_eq!(f.name.as_deref(), Some("httpie"));
        assert_eq!(
            f.description.as_deref(),
            Some("HTTPie: a command-line HTTP client.")
        );
        assert_eq!(f.dependencies, ["pip", "charset_normalizer", "requests"]);
        assert_eq!(f.entry_points, ["httpie.__main__:main"]);
        assert_eq!(f.commands[0].command, "pip install -e .");
        // A description by reference is none.
        let f = analyze(b"setup.cfg", "[metadata]\ndescription = file: README.rst\n").unwrap();
        assert_eq!(f.description, None);
    }

    /// A pyproject's install takes the extra a contributor needs (`dev`, else the tests'),
    /// and an extra that asks for pytest says how the tests run: marshmallow's overview said
    /// `pip install -e .` and no test command.
    #[test]
    fn a_pyprojects_install_takes_its_dev_extra() {
        let text = "[project]\nname = \"pkg\"\n[project.optional-dependencies]\ntests = [\"pytest>=8\"]\ndev = [\"pkg[tests]\", \"tox\"]\n";
        let f = analyze(b"pyproject.toml", text).unwrap();
        assert_eq!(
            commands(&f),
            [
                ("pip install -e '.[dev]'", "install"),
                ("python -m pytest", "test")
            ]
        );
        let plain = analyze(b"pyproject.toml", "[project]\nname = \"pkg\"\n").unwrap();
        assert_eq!(commands(&plain), [("pip install -e .", "install")]);
    }

    #[test]
    fn a_star_matches_one_directory_level_holding_a_manifest() {
        assert_eq!(
            members(&["packages/*"], TREE),
            ["packages/core", "packages/legacy"],
            "notes/ has no manifest; group/inner is two levels down"
        );
        assert_eq!(
            members(&["./packages/*/"], TREE),
            members(&["packages/*"], TREE)
        );
    }

    #[test]
    fn a_star_in_the_middle_and_a_double_star() {
        assert_eq!(
            members(&["apps/*/tools"], TREE),
            ["apps/cli/tools", "apps/web/tools"]
        );
        assert_eq!(
            members(&["packages/**"], TREE),
            ["packages/core", "packages/group/inner", "packages/legacy"]
        );
    }

    #[test]
    fn alternatives_negations_and_plain_paths() {
        assert_eq!(members(&["{x,y}"], TREE), ["x", "y"]);
        assert_eq!(
            members(&["packages/*", "!packages/legacy"], TREE),
            ["packages/core"]
        );
        assert_eq!(
            members(&["packages/**", "!**/inner"], TREE),
            ["packages/core", "packages/legacy"]
        );
        assert_eq!(members(&["plain", "missing"], TREE), ["plain"]);
        assert!(
            members(&["[unclosed", "!"], TREE).is_empty(),
            "invalid ones skipped"
        );
    }

    #[test]
    fn reads_cargo_excludes_and_pnpm_packages_as_members() {
        let f = analyze(
            b"Cargo.toml",
            "[workspace]\nmembers = [\"crates/*\"]\nexclude = [\"crates/old\"]\n",
        )
        .unwrap();
        assert_eq!(f.members, ["crates/*", "!crates/old"]);
        let f = analyze(
            b"pnpm-workspace.yaml",
            "# workspace\npackages:\n  - 'packages/*'\n  - \"apps/**\" # all apps\n  - '!**/test/**'\n\
             catalog:\n  - not-a-package\n",
        )
        .unwrap();
        assert_eq!(f.kind, "pnpm");
        assert_eq!(f.members, ["packages/*", "apps/**", "!**/test/**"]);
    }

    #[test]
    fn a_makefiles_default_rule_names_its_delegate() {
        let at = |text: &str| analyze(b"Makefile", text).unwrap().make_delegate;
        assert_eq!(
            at(".DEFAULT:\n\tcd src && $(MAKE) $@\n").as_deref(),
            Some("src")
        );
        assert_eq!(
            at(".DEFAULT:\n\t$(MAKE) -C deps/lib/ $@\n").as_deref(),
            Some("deps/lib")
        );
        assert_eq!(at(".DEFAULT:\n\t@echo no such target $@\n"), None);
        assert_eq!(at(".DEFAULT:\n\tcd ../x && $(MAKE) $@\n"), None, "outside");
        assert_eq!(at("all:\n\tcd src && $(MAKE) all\n"), None);
        // Redis's: a loop over a variable's directories.
        let redis = "SUBDIRS = src\nifeq ($(X), yes)\n\tSUBDIRS += modules\nendif\n\ndefault: all\n\n.DEFAULT:\n\tfor dir in $(SUBDIRS); do $(MAKE) -C $$dir $@; done\n";
        assert_eq!(at(redis).as_deref(), Some("src"));
    }

    /// A noxfile's sessions are run by name, with the purpose the name says; a decorator's
    /// `name=` names its session, and a helper is none.
    #[test]
    fn a_noxfiles_sessions_are_commands() {
        let noxfile = "import nox\n\n\n@nox.session(python=[\"3.10\", \"3.12\"])\ndef test(session: nox.Session) -> None:\n    session.run(\"pytest\")\n\n\n@nox.session()\ndef lint(session):\n    pass\n\n\n@nox.session(\n    name=\"docs-build\",\n    python=\"3.12\",\n)\ndef build_docs(session):\n    pass\n\n\n@nox.session\n@nox.parametrize(\"x\", [1])\ndef format(session, x):\n    pass\n\n\ndef _install(session):\n    pass\n";
        let f = analyze(b"noxfile.py", noxfile).unwrap();
        assert_eq!(f.kind, "nox");
        assert_eq!(
            f.commands,
            [
                cmd("nox -s test", "test"),
                cmd("nox -s lint", "lint"),
                cmd("nox -s docs-build", "docs"),
                cmd("nox -s format", "format"),
            ]
        );
    }

    /// A POM's default goal is what bare `mvn` runs, listed with its goals; a profile's is
    /// not the build's, and a goal made of a property is not named.
    #[test]
    fn a_maven_default_goal_is_run_as_bare_mvn() {
        let pom = "<project><artifactId>lib</artifactId><build>\
                   <defaultGoal>clean verify apache-rat:check checkstyle:check</defaultGoal>\
                   </build><profiles><profile><build><defaultGoal>site</defaultGoal></build>\
                   </profile></profiles></project>";
        let f = analyze(b"pom.xml", pom).unwrap();
        let goals = ["clean", "verify", "apache-rat:check", "checkstyle:check"];
        let expected = CommandFact {
            runs: goals.map(str::to_owned).to_vec(),
            ..cmd("mvn", "build")
        };
        assert_eq!(f.commands, [expected, cmd("mvn test", "test")]);
        let profile_only = "<project><artifactId>lib</artifactId><profiles><profile><build>\
                            <defaultGoal>site</defaultGoal></build></profile></profiles></project>";
        let f = analyze(b"pom.xml", profile_only).unwrap();
        assert_eq!(f.commands[0], cmd("mvn package", "build"));
        let property = "<project><artifactId>lib</artifactId><build>\
                        <defaultGoal>${goal}</defaultGoal></build></project>";
        let f = analyze(b"pom.xml", property).unwrap();
        assert_eq!(f.commands[0], cmd("mvn package", "build"));
    }

    /// A Spring Boot application's build runs it through the plugin's task.
    #[test]
    fn a_spring_boot_build_runs_the_application() {
        let pom = "<project><artifactId>app</artifactId><build><plugins><plugin>\
                   <artifactId>spring-boot-maven-plugin</artifactId></plugin></plugins></build></project>";
        let f = analyze(b"pom.xml", pom).unwrap();
        assert!(
            f.commands.contains(&cmd("mvn spring-boot:run", "run")),
            "{:?}",
            f.commands
        );
        let gradle = "plugins {\n  id 'java'\n  id 'org.springframework.boot' version '4.0.3'\n}\n";
        let f = analyze(b"build.gradle", gradle).unwrap();
        assert!(
            f.commands.contains(&cmd("./gradlew bootRun", "run")),
            "{:?}",
            f.commands
        );
        let plain = analyze(b"build.gradle", "plugins {\n  id 'java'\n}\n").unwrap();
        assert!(
            plain.commands.iter().all(|c| c.purpose != "run"),
            "{:?}",
            plain.commands
        );
    }

    #[test]
    fn reads_a_gemspec() {
        let text =
            "# frozen_string_literal: true\n\nGem::Specification.new 'sinatra', version do |s|\n  \
                    s.description       = 'Sinatra is a DSL for web applications.'\n  \
                    s.summary           = 'Classy web-development'\nend\n";
        let f = analyze(b"sinatra.gemspec", text).expect("a manifest");
        assert_eq!(f.kind, "ruby");
        assert_eq!(f.name.as_deref(), Some("sinatra"));
        assert_eq!(
            f.description.as_deref(),
            Some("Sinatra is a DSL for web applications.")
        );
        assert_eq!(f.commands, [cmd("gem build sinatra.gemspec", "build")]);
        // Runtime dependencies, as faraday declares them; not development ones.
        let deps = "Gem::Specification.new do |spec|\n  spec.name = 'faraday'\n  \
                    spec.add_dependency 'faraday-net_http', '>= 2.0', '< 3.5'\n  \
                    spec.add_runtime_dependency(\"json\")\n  \
                    spec.add_development_dependency 'rspec'\n  \
                    # spec.add_dependency 'old'\n  spec.add_dependency 'logger'\nend\n";
        let f = analyze(b"faraday.gemspec", deps).unwrap();
        assert_eq!(f.dependencies, ["faraday-net_http", "json", "logger"]);
        let spec = "Gem::Specification.new do |spec|\n  spec.name = \"rack\"\n  \
                    spec.summary = \"A modular Ruby webserver interface.\"\nend\n";
        let f = analyze(b"sub/rack.gemspec", spec).expect("a manifest");
        assert_eq!(f.name.as_deref(), Some("rack"));
        assert_eq!(
            f.description.as_deref(),
            Some("A modular Ruby webserver interface.")
        );
        // The programs it installs: listed, or computed and then the one named for the gem.
        let listed = "Gem::Specification.new do |s|\n  s.name = 'rack'\n  s.executables = ['rackup', \"rack-lint\"]\nend\n";
        let f = analyze(b"rack.gemspec", listed).unwrap();
        assert_eq!(f.entry_points, ["bin/rackup", "bin/rack-lint"]);
        let computed = "Gem::Specification.new do |s|\n  s.name = \"jekyll\"\n  s.executables   = all_files.grep(%r!^exe/!) { |f| File.basename(f) }\n  s.bindir        = \"exe\"\nend\n";
        let f = analyze(b"jekyll.gemspec", computed).unwrap();
        assert_eq!(f.entry_points, ["exe/jekyll"]);
        let words =
            "Gem::Specification.new do |s|\n  s.name = 'x'\n  s.executables = %w[a b]\nend\n";
        assert_eq!(
            analyze(b"x.gemspec", words).unwrap().entry_points,
            ["bin/a", "bin/b"]
        );
        let bare = analyze(b"tool.gemspec", "Gem::Specification.new do |s|\nend\n").unwrap();
        assert!(bare.entry_points.is_empty(), "no programs");
        assert_eq!(bare.name.as_deref(), Some("tool"), "the file's name");
        assert!(analyze(b".gemspec", "").is_none(), "no name at all");
    }

    #[test]
    fn reads_cargo_workspace() {
        let f = analyze(
            b"Cargo.toml",
            "[workspace]\nmembers = [\"crates/a\", \"crates/b\"]\n[package]\nname = \"x\"\ndescription = \"Does x\"\n",
        )
        .unwrap();
        assert_eq!(f.name.as_deref(), Some("x"));
        assert_eq!(f.description.as_deref(), Some("Does x"));
        assert_eq!(f.members, vec!["crates/a", "crates/b"]);
        // The root package and its workspace: the whole workspace is built and tested
        // (clap's root crate is a facade; `cargo test` there skipped every member).
        assert_eq!(f.commands[0].command, "cargo build --workspace");
        assert_eq!(f.commands[1].command, "cargo test --workspace");
        assert!(f
            .commands
            .iter()
            .any(|c| c.command == "cargo clippy --workspace --all-targets"));
        assert!(f.build_scripts.is_empty());
        // A virtual manifest's commands run on every member already; `default-members` says
        // what the project builds by default.
        for text in [
            "[workspace]\nmembers = [\"a\"]\n",
            "[workspace]\nmembers = [\"a\"]\ndefault-members = [\"a\"]\n[package]\nname = \"x\"\n",
        ] {
            let f = analyze(b"Cargo.toml", text).unwrap();
            assert_eq!(f.commands[1].command, "cargo test", "{text}");
        }
        // The build script Cargo runs, where the package names one; `build = false` is none.
        let f = analyze(
            b"Cargo.toml",
            "[package]\nname = \"bat\"\nbuild = \"./build/main.rs\"\n",
        )
        .unwrap();
        assert_eq!(f.build_scripts, ["build/main.rs"]);
        let f = analyze(b"Cargo.toml", "[package]\nname = \"x\"\nbuild = false\n").unwrap();
        assert!(f.build_scripts.is_empty());
    }

    /// A type checker configured in pyproject is run as configured; mypy only with its files.
    #[test]
    fn a_configured_type_checker_is_a_lint_command() {
        let f = analyze(
            b"pyproject.toml",
            "[project]\nname = \"r\"\n[tool.pyright]\ninclude = [\"src\"]\n[tool.mypy]\nstrict = true\n",
        )
        .unwrap();
        let lint: Vec<&str> = f
            .commands
            .iter()
            .filter(|c| c.purpose == "lint")
            .map(|c| c.command.as_str())
            .collect();
        assert_eq!(lint, ["pyright"]);
        let f = analyze(
            b"pyproject.toml",
            "[project]\nname = \"r\"\n[tool.mypy]\nfiles = [\"src\"]\n",
        )
        .unwrap();
        assert!(f.commands.iter().any(|c| c.command == "mypy"), "{f:?}");
    }

    #[test]
    fn a_cargo_binary_is_run_by_its_name() {
        let f = analyze(
            b"Cargo.toml",
            "[package]\nname = \"ripgrep\"\n\n[[bin]]\nbench = false\npath = \"crates/core/main.rs\"\nname = \"rg\"\n",
        )
        .unwrap();
        let cmds = commands(&f);
        assert_eq!(
            cmds,
            [
                ("cargo build", "build"),
                ("cargo test", "test"),
                ("cargo run --bin rg", "run"),
                ("cargo clippy --all-targets", "lint"),
            ]
        );
        assert_eq!(
            f.entry_points,
            ["crates/core/main.rs", "src/main.rs", "src/lib.rs"]
        );
        // A library at the place `[lib]` names; a workspace without a package has none.
        let f = analyze(
            b"Cargo.toml",
            "[package]\nname = \"x\"\n\n[lib]\npath = \"./lib.rs\"\n",
        )
        .unwrap();
        assert_eq!(f.entry_points, ["src/main.rs", "lib.rs"]);
        let f = analyze(b"Cargo.toml", "[workspace]\nmembers = [\"a\"]\n").unwrap();
        assert!(f.entry_points.is_empty(), "{:?}", f.entry_points);
    }

    #[test]
    fn a_packages_exports_field_names_its_entry_point() {
        let entry = |exports: &str| {
            let text = format!(r#"{{"name":"p","bin":{{"p":"bin/p.js"}},"exports":{exports}}}"#);
            analyze(b"package.json", &text).unwrap().entry_points
        };
        assert_eq!(
            entry(r#""./dist/index.js""#),
            ["./dist/index.js", "bin/p.js"]
        );
        assert_eq!(
            entry(r#"{".":"./dist/node/index.js","./client":{"types":"./client.d.ts"}}"#),
            ["./dist/node/index.js", "bin/p.js"]
        );
        assert_eq!(
            entry(r#"{".":{"types":"./a.d.ts","require":"./a.cjs","import":"./a.mjs"}}"#),
            ["./a.mjs", "bin/p.js"]
        );
        assert_eq!(
            entry(r#"{"require":"./a.cjs","default":"./a.js"}"#),
            ["./a.js", "bin/p.js"]
        );
        assert_eq!(
            entry(r#"[{"node":"./n.js"},"./f.js"]"#),
            ["./n.js", "bin/p.js"]
        );
        assert_eq!(entry(r#"{"./sub":"./sub.js"}"#), ["bin/p.js"]);
        assert_eq!(entry("null"), ["bin/p.js"]);
        // `main` and `exports` naming one file name it once.
        let f = analyze(
            b"package.json",
            r#"{"name":"p","main":"./index.js","exports":"./index.js"}"#,
        )
        .unwrap();
        assert_eq!(f.entry_points, ["./index.js"]);
    }

    #[test]
    fn reads_npm_scripts() {
        let f = analyze(
            b"web/package.json",
            r#"{"name":"web","scripts":{"test":"vitest","build":"vite build","lint":"eslint ."},"main":"index.js","workspaces":["packages/*"]}"#,
        )
        .unwrap();
        let cmds = commands(&f);
        assert_eq!(
            cmds,
            vec![
                ("npm install", "install"),
                ("npm test", "test"),
                ("npm run build", "build"),
                ("npm run lint", "lint")
            ]
        );
        assert_eq!(f.members, vec!["packages/*"]);
        assert_eq!(f.entry_points, vec!["index.js"]);
    }

    /// Direct runtime dependencies per ecosystem, in declaration order; development, build,
    /// indirect ones and interpreter versions are not packages the project is built on.
    #[test]
    fn reads_direct_runtime_dependencies() {
        let deps = |path: &str, text: &str| analyze(path.as_bytes(), text).unwrap().dependencies;
        let cargo = "[package]\nname = \"x\"\n[dependencies]\nserde = \"1\"\nanyhow = \"1\"\n\
                     [dev-dependencies]\ntempfile = \"3\"\n[build-dependencies]\ncc = \"1\"\n";
        assert_eq!(deps("Cargo.toml", cargo), ["serde", "anyhow"]);
        let npm = r#"{"name": "x", "dependencies": {"zod": "3", "accepts": "1"},
                      "devDependencies": {"mocha": "10"}}"#;
        assert_eq!(deps("package.json", npm), ["zod", "accepts"]);
        let composer = r#"{"require": {"php": ">=8.1", "ext-json": "*", "guzzle/guzzle": "7"}}"#;
        assert_eq!(deps("composer.json", composer), ["guzzle/guzzle"]);
        let pep621 = "[project]\nname = \"flask\"\ndependencies = [\"Werkzeug>=3.1\", \
                      \"jinja2[i18n] ; python_version < '3.12'\", \"click\"]\n";
        assert_eq!(
            deps("pyproject.toml", pep621),
            ["Werkzeug", "jinja2", "click"]
        );
        let poetry = "[tool.poetry]\nname = \"x\"\n[tool.poetry.dependencies]\npython = \"^3.9\"\n\
                      requests = \"2\"\n";
        assert_eq!(deps("pyproject.toml", poetry), ["requests"]);
        let gomod = "module github.com/spf13/cobra\n\ngo 1.15\n\nrequire github.com/a/one v1.0.0\n\
                     require (\n\tgithub.com/spf13/pflag v1.0.9\n\tgolang.org/x/sys v0.1.0 // indirect\n\
                     \t// a comment\n)\n";
        assert_eq!(
            deps("go.mod", gomod),
            ["github.com/a/one", "github.com/spf13/pflag"]
        );
        assert!(deps("Makefile", "all:\n\tcc x.c\n").is_empty());
    }

    #[test]
    fn reads_make_targets() {
        let f = analyze(
            b"Makefile",
            "CC := gcc\n.PHONY: all test\nall: build\nbuild: a.o\n\tcc\ntest:\n\t./t\n%.o: %.c\n",
        )
        .unwrap();
        let cmds: Vec<_> = f.commands.iter().map(|c| c.command.as_str()).collect();
        assert_eq!(cmds, vec!["make all", "make build", "make test"]);
    }

    /// The lint and format targets a contributor runs are listed under their own names, at
    /// most three: rich's `make typecheck` and `make format-check` were never listed.
    #[test]
    fn a_makefiles_lint_and_format_targets_are_commands() {
        let text = "test:\n\tpytest\nformat-check:\n\tblack --check .\nformat:\n\tblack .\ntypecheck:\n\tmypy -p pkg\nlint-fix:\n\truff --fix\nstyle:\n\tx\nrelease-notes:\n\ty\n";
        // A part of a listed target is not listed apart (viper's `lint: lint-go lint-yaml`).
        let viper = "lint: lint-go lint-yaml # all\nlint-go:\n\tgolangci-lint run\nlint-yaml:\n\tyamllint .\nfmt:\n\tgofmt -w .\n";
        let f = analyze(b"Makefile", viper).unwrap();
        let cmds: Vec<_> = f.commands.iter().map(|c| c.command.as_str()).collect();
        assert_eq!(cmds, ["make lint", "make fmt"]);
        let f = analyze(b"Makefile", text).unwrap();
        let cmds: Vec<_> = f.commands.iter().map(|c| c.command.as_str()).collect();
        assert_eq!(
            cmds,
            [
                "make test",
                "make format",
                "make format-check",
                "make typecheck",
                "make lint-fix"
            ]
        );
    }

    /// Only a line that names targets before its colon is a rule: not a function call whose
    /// text has a colon (spf13/cobra's Makefile showed `make not` and `make run`), not a
    /// target made of variables.
    #[test]
    fn a_colon_in_a_function_call_names_no_target() {
        let text = "BIN=\"./bin\"\n\
ifeq (, $(shell which golangci-lint))\n\
$(warning \"could not find golangci-lint in $(PATH), run: curl -sfL https://x | sh\")\n\
endif\n\
default: all\n\
all: fmt test\n\
$(BIN)/tool: main.go\n\
fmt test:\n\
\tgo test ./...\n";
        assert_eq!(make_targets(text, false), ["default", "all", "fmt", "test"]);
        let f = analyze(b"Makefile", text).unwrap();
        let cmds: Vec<_> = f.commands.iter().map(|c| c.command.as_str()).collect();
        assert_eq!(cmds, ["make default", "make all", "make fmt", "make test"]);

        let nvm = ".PHONY: _no-target-specified\n_no-target-specified:\n\t$(error Please specify the target)\n_ensure-tag:\n\ttrue\ntest: _ensure-tag\n\t./run\n";
        let f = analyze(b"Makefile", nvm).unwrap();
        let cmds: Vec<_> = f.commands.iter().map(|c| c.command.as_str()).collect();
        assert_eq!(cmds, ["make test"]);
    }

    /// A Gemfile's test and lint gems run through the bundle (thor's `bundle exec rspec`
    /// and `bundle exec rubocop`); a gem that only shares the start of the name is none.
    #[test]
    fn a_gemfiles_rspec_and_rubocop_are_commands() {
        let gemfile = "source 'https://rubygems.org'\ngem \"rake\"\ngroup :test do\n  gem 'rspec', '~> 3.2'\n  gem \"rubocop-performance\"\nend\ngem \"rspectacular\"\ngemspec\n";
        assert_eq!(
            commands(&analyze(b"Gemfile", gemfile).unwrap()),
            [
                ("bundle install", "install"),
                ("bundle exec rspec", "test"),
                ("bundle exec rubocop", "lint")
            ]
        );
        let plain = "source 'https://rubygems.org'\ngem \"rspectacular\"\n";
        assert_eq!(
            commands(&analyze(b"Gemfile", plain).unwrap()),
            [("bundle install", "install")]
        );
    }

    #[test]
    fn rake_tasks_are_run_by_their_namespaced_names_once_each() {
        let rakefile = "require 'rake/testtask'\n\
task default: :test\n\
Rake::TestTask.new do |t|\n  t.pattern = 'test/*_test.rb'\nend\n\
task('doc:api') { sh 'yardoc' }\n\
namespace :package do\n\
  GEMS.each do |gem|\n    task gem => [:build]\n  end\n\
  task all: GEMS\n\
end\n\
namespace :install do\n  task all: GEMS\nend\n\
namespace 'release' do\n  task :tag_version do\n    sh 'git tag'\n  end\n  task all: %i[test]\nend\n\
task :coverage do\nend\n";
        let f = analyze(b"Rakefile", rakefile).unwrap();
        assert_eq!(
            commands(&f),
            [
                ("rake", "test"),
                ("rake test", "test"),
                ("rake doc:api", "docs"),
                ("rake package:all", "build"),
                ("rake install:all", "install"),
                ("rake release:tag_version", "other"),
                ("rake release:all", "other"),
                ("rake coverage", "test"),
            ],
            "a namespace's tasks carry its name, a task named by a variable is skipped, \
             and `all` of three namespaces is three commands, not one repeated"
        );
        assert_eq!(
            commands(&analyze(b"Rakefile", "puts 1\n").unwrap()),
            [("rake", "build")]
        );
    }

    #[test]
    fn broken_manifest_is_skipped() {
        assert!(analyze(b"Cargo.toml", "[package\nname=").is_none());
        assert!(analyze(b"package.json", "{").is_none());
    }
}
