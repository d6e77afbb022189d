//! Language detection from a path and the first bytes of a file: the one language table
//! shared by the scanner (display names) and the extractor (parsers).

use crate::Language;

/// Detects the language of `path` from its extension or file name and, when neither
/// matches, from a shebang (`#!`) on the first line of `head`.
///
/// `head` may be any prefix of the file (the first few hundred bytes are enough); pass an
/// empty slice to detect by name only.
///
/// ```
/// use repocue_structure::{detect_language, Language};
/// assert_eq!(detect_language("src/main.rs", b""), Some(Language::Rust));
/// assert_eq!(detect_language("bin/tool", b"#!/usr/bin/env python3\n"), Some(Language::Python));
/// assert_eq!(detect_language("README.md", b""), None);
/// ```
pub fn detect_language(path: &str, head: &[u8]) -> Option<Language> {
    language_name(path.as_bytes(), head).and_then(Language::from_name)
}

/// One language of the table: its display name and how it is recognized.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LanguageInfo {
    /// Display name, as stored and shown (`"C++"`, `"Shell"`); [`Language::from_name`]
    /// maps it to a parser when there is one.
    pub name: &'static str,
    /// Exact file names (`Makefile`).
    pub file_names: &'static [&'static str],
    /// Lowercase extensions without the dot.
    pub extensions: &'static [&'static str],
    /// Interpreters of a shebang line, version digits removed (`python3.12` is `python`).
    pub interpreters: &'static [&'static str],
}

const fn lang(
    name: &'static str,
    file_names: &'static [&'static str],
    extensions: &'static [&'static str],
    interpreters: &'static [&'static str],
) -> LanguageInfo {
    LanguageInfo {
        name,
        file_names,
        extensions,
        interpreters,
    }
}

/// The one language table of RepoCue: the scanner classifies every file with it and the
/// extractor picks its parser from the same answer.
pub const LANGUAGES: &[LanguageInfo] = &[
    lang("Rust", &[], &["rs"], &[]),
    lang("Python", &[], &["py", "pyi", "pyw"], &["python", "pypy"]),
    lang("Go", &[], &["go"], &[]),
    lang(
        "JavaScript",
        &[],
        &["js", "mjs", "cjs", "jsx"],
        &["node", "nodejs", "deno", "bun"],
    ),
    lang("TypeScript", &[], &["ts", "mts", "cts"], &[]),
    lang("TSX", &[], &["tsx"], &[]),
    lang("Java", &[], &["java"], &[]),
    lang("C", &[], &["c", "h"], &[]),
    lang(
        "C++",
        &[],
        &["cc", "cpp", "cxx", "c++", "hpp", "hh", "hxx", "h++", "ipp"],
        &[],
    ),
    lang("C#", &[], &["cs"], &[]),
    lang(
        "Ruby",
        &["Rakefile", "Gemfile", "Guardfile", "Vagrantfile"],
        &["rb", "rake", "gemspec"],
        &["ruby"],
    ),
    lang(
        "Shell",
        &[],
        &["sh", "bash", "zsh"],
        &["sh", "bash", "zsh", "dash", "ksh", "ash"],
    ),
    // `.phps`: PHP source kept to be shown as text (PHPMailer's examples).
    lang("PHP", &[], &["php", "phps"], &["php"]),
    lang(
        "Makefile",
        &["Makefile", "makefile", "GNUmakefile"],
        &["mk"],
        &[],
    ),
    lang("Dockerfile", &["Dockerfile", "Containerfile"], &[], &[]),
    lang("CMake", &["CMakeLists.txt"], &["cmake"], &[]),
    lang("Meson", &["meson.build"], &[], &[]),
    lang("Starlark", &["BUILD", "BUILD.bazel", "WORKSPACE"], &[], &[]),
    lang("Just", &["justfile", "Justfile"], &[], &[]),
    lang("Kotlin", &[], &["kt", "kts"], &[]),
    lang("Swift", &[], &["swift"], &[]),
    lang("Scala", &[], &["scala"], &[]),
    lang("Objective-C", &[], &["m"], &[]),
    lang("Objective-C++", &[], &["mm"], &[]),
    lang("Lua", &[], &["lua"], &[]),
    lang("Perl", &[], &["pl", "pm"], &["perl"]),
    lang("R", &[], &["r"], &[]),
    lang("Tcl", &[], &["tcl"], &["tclsh", "wish"]),
    lang("Dart", &[], &["dart"], &[]),
    lang("Elixir", &[], &["ex", "exs"], &[]),
    lang("Erlang", &[], &["erl", "hrl"], &[]),
    lang("Haskell", &[], &["hs"], &[]),
    lang("OCaml", &[], &["ml", "mli"], &[]),
    lang("Clojure", &[], &["clj", "cljs"], &[]),
    lang("Zig", &[], &["zig"], &[]),
    lang("Nim", &[], &["nim"], &[]),
    lang("Vue", &[], &["vue"], &[]),
    lang("Svelte", &[], &["svelte"], &[]),
    lang("SQL", &[], &["sql"], &[]),
    lang("HTML", &[], &["html", "htm"], &[]),
    lang("CSS", &[], &["css"], &[]),
    lang("SCSS", &[], &["scss", "sass"], &[]),
    lang("Markdown", &[], &["md", "markdown", "mdx"], &[]),
    lang("reStructuredText", &[], &["rst"], &[]),
    lang("AsciiDoc", &[], &["adoc", "asciidoc"], &[]),
    lang("RDoc", &[], &["rdoc"], &[]),
    lang("Text", &[], &["txt"], &[]),
    lang("TOML", &[], &["toml"], &[]),
    lang("YAML", &[], &["yaml", "yml"], &[]),
    lang("JSON", &[], &["json", "jsonc"], &[]),
    lang("XML", &[], &["xml"], &[]),
    lang("Protocol Buffers", &[], &["proto"], &[]),
    lang("Nix", &[], &["nix"], &[]),
    lang("HCL", &[], &["tf"], &[]),
    lang("Gradle", &[], &["gradle"], &[]),
    lang("PowerShell", &[], &["ps1"], &[]),
    lang("Batchfile", &[], &["bat", "cmd"], &[]),
    lang("Assembly", &[], &["asm", "s"], &[]),
    // commandline's demos: its `languages:` said C# alone.
    lang("Visual Basic .NET", &[], &["vb"], &[]),
    lang("F#", &[], &["fs", "fsi", "fsx"], &[]),
    // Cucumber's scenarios (capybara's `features/`).
    lang("Gherkin", &[], &["feature"], &[]),
];

/// Returns the display name of the language of `path` (bytes; `/` or `\\` separated): by
/// exact file name, then by extension (ASCII case ignored; a leading-dot name has none),
/// then by the shebang on the first line of `head`.
pub fn language_name(path: &[u8], head: &[u8]) -> Option<&'static str> {
    let name = path
        .rsplit(|&b| b == b'/' || b == b'\\')
        .next()
        .unwrap_or(path);
    if let Some(l) = LANGUAGES
        .iter()
        .find(|l| l.file_names.iter().any(|n| n.as_bytes() == name))
    {
        return Some(l.name);
    }
    if let Some(ext) = extension(name) {
        if let Some(l) = LANGUAGES
            .iter()
            .find(|l| l.extensions.contains(&ext.as_str()))
        {
            return Some(l.name);
        }
    }
    let program = interpreter(head)?;
    LANGUAGES
        .iter()
        .find(|l| l.interpreters.contains(&program.as_str()))
        .map(|l| l.name)
}

/// The lowercase extension of a file name; `None` without a dot, for a leading-dot name, or
/// when it is not UTF-8.
fn extension(name: &[u8]) -> Option<String> {
    let dot = name.iter().rposition(|&b| b == b'.')?;
    if dot == 0 {
        return None;
    }
    std::str::from_utf8(&name[dot + 1..])
        .ok()
        .map(|s| s.to_ascii_lowercase())
}

/// The interpreter a shebang line names, version digits removed.
fn interpreter(head: &[u8]) -> Option<String> {
    let rest = head.strip_prefix(b"#!")?;
    let line = &rest[..rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len())];
    let line = String::from_utf8_lossy(line);
    let mut words = line.split_whitespace();
    let mut program = words.next()?.rsplit('/').next()?;
    if program == "env" {
        // `#!/usr/bin/env -S python3 -u`: skip env's own options and assignments.
        program = words.find(|w| !w.starts_with('-') && !w.contains('='))?;
    }
    // `python3.12` -> `python`, `ruby2.7` -> `ruby`.
    Some(
        program
            .trim_end_matches(|c: char| c.is_ascii_digit() || c == '.')
            .to_owned(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_and_names() {
        let cases = [
            ("a/b.rs", Language::Rust),
            ("x.pyi", Language::Python),
            ("x.mjs", Language::JavaScript),
            ("x.cts", Language::TypeScript),
            ("x.tsx", Language::Tsx),
            ("x.h", Language::C),
            ("x.hh", Language::Cpp),
            ("x.cs", Language::CSharp),
            ("lib/tasks/db.rake", Language::Ruby),
            ("Rakefile", Language::Ruby),
            ("dir\\Gemfile", Language::Ruby),
            ("x.bash", Language::Bash),
            ("x.php", Language::Php),
            ("examples/send.phps", Language::Php),
        ];
        for (path, language) in cases {
            assert_eq!(detect_language(path, b""), Some(language), "{path}");
        }
        assert_eq!(detect_language("Makefile", b""), None);
        // Named, with no parser: Redis's test suite.
        assert_eq!(language_name(b"tests/unit/type/list.tcl", b""), Some("Tcl"));
        assert_eq!(
            language_name(b"runtest", b"#!/usr/bin/env tclsh\n"),
            Some("Tcl")
        );
        assert_eq!(detect_language("x.txt", b"no shebang"), None);
        // .NET's other languages and Cucumber's scenarios (commandline's demos, capybara's
        // `features/`).
        for (path, language) in [
            (
                &b"demo/ReadText.Demo.VB/Program.vb"[..],
                "Visual Basic .NET",
            ),
            (b"demo/fsharp-demo.fsx", "F#"),
            (b"src/Lib.fs", "F#"),
            (b"features/step.feature", "Gherkin"),
        ] {
            assert_eq!(language_name(path, b""), Some(language));
        }
    }

    #[test]
    fn the_table_names_every_parser_language_and_has_no_duplicates() {
        for l in Language::all() {
            assert!(
                LANGUAGES.iter().any(|i| i.name == l.name()),
                "{l} is missing from the table"
            );
        }
        let mut exts: Vec<&str> = LANGUAGES
            .iter()
            .flat_map(|l| l.extensions.iter().copied())
            .collect();
        let n = exts.len();
        exts.sort_unstable();
        exts.dedup();
        assert_eq!(exts.len(), n, "an extension maps to two languages");
        assert_eq!(language_name(b"X.RS", b""), Some("Rust"));
        assert_eq!(language_name(b".bashrc", b""), None);
        assert_eq!(language_name(b"Makefile", b""), Some("Makefile"));
        assert_eq!(
            language_name(b"tool", b"#!/usr/bin/env perl\n"),
            Some("Perl")
        );
    }

    #[test]
    fn shebangs() {
        let cases: [(&[u8], Option<Language>); 8] = [
            (b"#!/usr/bin/env python3\nprint(1)", Some(Language::Python)),
            (b"#!/usr/bin/python3.12", Some(Language::Python)),
            (b"#!/usr/bin/env node", Some(Language::JavaScript)),
            (b"#!/bin/sh\n", Some(Language::Bash)),
            (b"#!/usr/bin/env -S zsh -f\n", Some(Language::Bash)),
            (b"#!/usr/bin/ruby -w", Some(Language::Ruby)),
            (b"#!/usr/bin/env perl", None),
            (b"#!\xff\xfe", None),
        ];
        for (head, expected) in cases {
            assert_eq!(detect_language("script", head), expected, "{head:?}");
        }
        // An extension wins over the shebang.
        assert_eq!(detect_language("x.rb", b"#!/bin/sh"), Some(Language::Ruby));
    }
}
