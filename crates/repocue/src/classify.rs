//! Classification of tracked paths: language and document flag, from name, extension and
//! the first bytes of content.

use crate::paths;

/// Returns the language of a path, from its file name, extension or shebang line.
pub fn language(path: &[u8], head: &[u8]) -> Option<&'static str> {
    let name = paths::file_name(path);
    let by_name = match name {
        b"Makefile" | b"makefile" | b"GNUmakefile" => Some("Makefile"),
        b"Dockerfile" | b"Containerfile" => Some("Dockerfile"),
        b"CMakeLists.txt" => Some("CMake"),
        b"Rakefile" | b"Gemfile" => Some("Ruby"),
        b"meson.build" => Some("Meson"),
        b"BUILD" | b"BUILD.bazel" | b"WORKSPACE" => Some("Starlark"),
        b"justfile" | b"Justfile" => Some("Just"),
        _ => None,
    };
    if by_name.is_some() {
        return by_name;
    }
    if let Some(ext) = paths::extension(path) {
        if let Some(lang) = by_extension(&ext) {
            return Some(lang);
        }
    }
    shebang(head)
}

fn by_extension(ext: &str) -> Option<&'static str> {
    Some(match ext {
        "rs" => "Rust",
        "py" | "pyi" | "pyw" => "Python",
        "go" => "Go",
        "js" | "mjs" | "cjs" | "jsx" => "JavaScript",
        "ts" | "mts" | "cts" => "TypeScript",
        "tsx" => "TSX",
        "java" => "Java",
        "c" | "h" => "C",
        "cc" | "cpp" | "cxx" | "c++" | "hpp" | "hh" | "hxx" | "ipp" => "C++",
        "cs" => "C#",
        "rb" | "rake" | "gemspec" => "Ruby",
        "sh" | "bash" | "zsh" => "Shell",
        "php" => "PHP",
        "kt" | "kts" => "Kotlin",
        "swift" => "Swift",
        "scala" => "Scala",
        "m" => "Objective-C",
        "mm" => "Objective-C++",
        "lua" => "Lua",
        "pl" | "pm" => "Perl",
        "r" => "R",
        "dart" => "Dart",
        "ex" | "exs" => "Elixir",
        "erl" | "hrl" => "Erlang",
        "hs" => "Haskell",
        "ml" | "mli" => "OCaml",
        "clj" | "cljs" => "Clojure",
        "zig" => "Zig",
        "nim" => "Nim",
        "vue" => "Vue",
        "svelte" => "Svelte",
        "sql" => "SQL",
        "html" | "htm" => "HTML",
        "css" => "CSS",
        "scss" | "sass" => "SCSS",
        "md" | "markdown" | "mdx" => "Markdown",
        "rst" => "reStructuredText",
        "adoc" | "asciidoc" => "AsciiDoc",
        "txt" => "Text",
        "toml" => "TOML",
        "yaml" | "yml" => "YAML",
        "json" | "jsonc" => "JSON",
        "xml" => "XML",
        "proto" => "Protocol Buffers",
        "mk" => "Makefile",
        "cmake" => "CMake",
        "nix" => "Nix",
        "tf" => "HCL",
        "gradle" => "Gradle",
        "ps1" => "PowerShell",
        "bat" | "cmd" => "Batchfile",
        "asm" | "s" => "Assembly",
        _ => return None,
    })
}

fn shebang(head: &[u8]) -> Option<&'static str> {
    let line = head.strip_prefix(b"#!")?;
    let line = &line[..line.iter().position(|&b| b == b'\n').unwrap_or(line.len())];
    let line = String::from_utf8_lossy(line);
    let mut words = line.split_whitespace();
    let mut prog = words.next()?.rsplit('/').next()?;
    if prog == "env" {
        prog = words.find(|w| !w.starts_with('-'))?;
    }
    Some(
        match prog.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.') {
            "python" => "Python",
            "node" | "nodejs" | "deno" => "JavaScript",
            "bash" | "sh" | "zsh" | "dash" | "ksh" => "Shell",
            "ruby" => "Ruby",
            "php" => "PHP",
            "perl" => "Perl",
            _ => return None,
        },
    )
}

/// Tells whether a path is a document: Markdown, reStructuredText, AsciiDoc or plain text, or
/// a conventional extension-less document name (README, CONTRIBUTING, ...).
pub fn is_document(path: &[u8], language: Option<&str>) -> bool {
    if matches!(
        language,
        Some("Markdown" | "reStructuredText" | "AsciiDoc" | "Text")
    ) {
        return !paths::file_name(path).eq_ignore_ascii_case(b"CMakeLists.txt");
    }
    let name = String::from_utf8_lossy(paths::file_name(path)).to_ascii_uppercase();
    paths::extension(path).is_none()
        && [
            "README",
            "CONTRIBUTING",
            "CHANGELOG",
            "CHANGES",
            "HACKING",
            "INSTALL",
            "NEWS",
        ]
        .iter()
        .any(|d| name == *d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_by_name_extension_and_shebang() {
        assert_eq!(language(b"src/main.rs", b""), Some("Rust"));
        assert_eq!(language(b"Makefile", b""), Some("Makefile"));
        assert_eq!(
            language(b"bin/tool", b"#!/usr/bin/env python3\n"),
            Some("Python")
        );
        assert_eq!(language(b"bin/run", b"#!/bin/bash -e\n"), Some("Shell"));
        assert_eq!(language(b"data.bin", b"\0\0"), None);
    }

    #[test]
    fn flags_documents() {
        assert!(is_document(b"docs/guide.md", Some("Markdown")));
        assert!(is_document(b"README", None));
        assert!(!is_document(b"src/lib.rs", Some("Rust")));
    }
}
