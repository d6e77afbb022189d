//! Classification of tracked paths: language and document flag, from name, extension and
//! the first bytes of content.

use crate::paths;

/// Returns the language of a path, from its file name, extension or shebang line (the one
/// table in `repocue_structure`).
pub fn language(path: &[u8], head: &[u8]) -> Option<&'static str> {
    repocue_structure::language_name(path, head)
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
