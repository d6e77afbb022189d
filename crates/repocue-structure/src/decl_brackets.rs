//! C declaration-bracket macros on lines of their own, hidden before parsing.
//!
//! A C library's headers open and close their declarations with a macro that expands to
//! `extern "C" {` and `}` for C++ compilers and to nothing for C: libgit2's `GIT_BEGIN_DECL`,
//! GLib's `G_BEGIN_DECLS`, glibc's `__BEGIN_DECLS`, autoconf's `BEGIN_C_DECLS`. The grammar,
//! which knows no macro, reads the name as the type of the declaration that follows, so the
//! first declarations after it run together into one (libgit2's `repository.h` had no
//! `git_repository_open`, its most used function, but a symbol of four declarations named
//! for the last). A line holding only such a name (one with `BEGIN` or `END` and `DECL` or
//! `EXTERN_C`, in capitals) becomes spaces: lengths and line breaks stay, so every position
//! the parse reports is the file's own. A file without one is parsed as it is (no copy).

use std::borrow::Cow;

/// The bytes to parse for a C or C++ `source`: lines of a declaration-bracket macro blanked.
pub(crate) fn hidden(source: &[u8]) -> Cow<'_, [u8]> {
    if !contains(source, b"DECL") && !contains(source, b"EXTERN_C") {
        return Cow::Borrowed(source);
    }
    let mut out: Option<Vec<u8>> = None;
    let mut start = 0;
    for line in source.split(|&b| b == b'\n') {
        let end = start + line.len();
        let word = line.trim_ascii();
        if is_bracket_macro(word) {
            let bytes = out.get_or_insert_with(|| source.to_vec());
            bytes[start..end]
                .iter_mut()
                .filter(|b| !b.is_ascii_whitespace())
                .for_each(|b| *b = b' ');
        }
        start = end + 1;
    }
    out.map_or(Cow::Borrowed(source), Cow::Owned)
}

/// Whether a line's only word is a declaration-bracket macro's name: capitals, digits and
/// `_`, with `BEGIN` or `END`, and `DECL` or `EXTERN_C`.
fn is_bracket_macro(word: &[u8]) -> bool {
    word.len() >= 8
        && word
            .iter()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || *b == b'_')
        && (contains(word, b"BEGIN") || contains(word, b"END"))
        && (contains(word, b"DECL") || contains(word, b"EXTERN_C"))
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bracket_macro_lines_become_spaces_and_keep_their_length() {
        let source = b"#include \"common.h\"\n\nGIT_BEGIN_DECL\n\nGIT_EXTERN(int) git_repository_open(git_repository **out, const char *path);\n  G_END_DECLS  \nGIT_END_DECL\n";
        let hidden = hidden(source);
        assert_eq!(hidden.len(), source.len());
        let text = String::from_utf8(hidden.into_owned()).unwrap();
        assert!(
            !text.contains("BEGIN_DECL") && !text.contains("END_DECL"),
            "{text}"
        );
        assert!(
            text.contains("GIT_EXTERN(int) git_repository_open("),
            "{text}"
        );
        assert_eq!(text.matches('\n').count(), 7);
        // Not a bracket: a name in code, an enumerator, a macro with arguments.
        for word in [
            &b"Py_BEGIN_ALLOW_THREADS"[..],
            b"LAST_DECL",
            b"BEGIN_DECL(x)",
            b"begin_decls",
        ] {
            assert!(!is_bracket_macro(word), "{}", String::from_utf8_lossy(word));
        }
        for word in [
            &b"__BEGIN_DECLS"[..],
            b"G_END_DECLS",
            b"BEGIN_C_DECLS",
            b"EXTERN_C_BEGIN",
        ] {
            assert!(is_bracket_macro(word), "{}", String::from_utf8_lossy(word));
        }
        let plain = b"int main(void) { return 0; }\n";
        assert!(matches!(super::hidden(plain), Cow::Borrowed(_)));
    }
}
