//! Language detection from a path and the first bytes of a file.

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
    let file_name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    by_file_name(file_name).or_else(|| by_shebang(head))
}

fn by_file_name(file_name: &str) -> Option<Language> {
    match file_name {
        "Rakefile" | "Gemfile" | "Guardfile" | "Vagrantfile" => return Some(Language::Ruby),
        _ => {}
    }
    let (_, ext) = file_name.rsplit_once('.')?;
    let language = match ext {
        "rs" => Language::Rust,
        "py" | "pyi" | "pyw" => Language::Python,
        "go" => Language::Go,
        "js" | "mjs" | "cjs" | "jsx" => Language::JavaScript,
        "ts" | "mts" | "cts" => Language::TypeScript,
        "tsx" => Language::Tsx,
        "java" => Language::Java,
        "c" | "h" => Language::C,
        "cc" | "cpp" | "cxx" | "c++" | "hpp" | "hh" | "hxx" | "h++" => Language::Cpp,
        "cs" => Language::CSharp,
        "rb" | "rake" | "gemspec" => Language::Ruby,
        "sh" | "bash" => Language::Bash,
        "php" => Language::Php,
        _ => return None,
    };
    Some(language)
}

fn by_shebang(head: &[u8]) -> Option<Language> {
    let rest = head.strip_prefix(b"#!")?;
    let line = &rest[..rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len())];
    let line = String::from_utf8_lossy(line);
    let mut words = line.split_whitespace();
    let mut program = words.next()?.rsplit('/').next()?;
    if program == "env" {
        // `#!/usr/bin/env -S python3 -u`: skip env's own options.
        program = words.find(|w| !w.starts_with('-') && !w.contains('='))?;
    }
    // `python3.12` -> `python`, `ruby2.7` -> `ruby`.
    let program = program.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    match program {
        "python" | "pypy" => Some(Language::Python),
        "node" | "nodejs" | "deno" | "bun" => Some(Language::JavaScript),
        "sh" | "bash" | "zsh" | "dash" | "ksh" | "ash" => Some(Language::Bash),
        "ruby" => Some(Language::Ruby),
        "php" => Some(Language::Php),
        _ => None,
    }
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
        ];
        for (path, language) in cases {
            assert_eq!(detect_language(path, b""), Some(language), "{path}");
        }
        assert_eq!(detect_language("Makefile", b""), None);
        assert_eq!(detect_language("x.txt", b"no shebang"), None);
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
