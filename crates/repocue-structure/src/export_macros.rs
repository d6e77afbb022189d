//! C++ export macros between `class` and the class name, hidden before parsing.
//!
//! A C++ library marks the classes it exports with a macro that expands to a visibility
//! attribute: `class LEVELDB_EXPORT DB {`, `struct GTEST_API_ TestInfo : …`. The grammar, which
//! knows no macro, reads the macro as the class's name and the name as an error, so the class
//! is lost and its members read as free functions (leveldb's `include/leveldb/db.h` listed
//! `DB() = default` and no `DB`). Such a macro is replaced by as many spaces: lengths and line
//! breaks stay, so every position the parse reports is the file's own, and the signature reads
//! `class DB`.

use std::borrow::Cow;

use crate::text::{is_word_byte, skip_space};

/// The bytes to parse for a C++ `source`: export macros blanked, without a copy when it has
/// none.
pub(crate) fn hidden(source: &[u8]) -> Cow<'_, [u8]> {
    let mut out: Option<Vec<u8>> = None;
    let mut at = 0;
    while let Some(found) = next_keyword(source, at) {
        at = found.end;
        if let Some(range) = export_macro(source, found.end) {
            out.get_or_insert_with(|| source.to_vec())[range].fill(b' ');
        }
    }
    out.map_or(Cow::Borrowed(source), Cow::Owned)
}

/// The next `class` or `struct` keyword at or after `from`, as a whole word.
fn next_keyword(source: &[u8], from: usize) -> Option<std::ops::Range<usize>> {
    let mut i = from;
    while i < source.len() {
        let rest = &source[i..];
        let len = [&b"class"[..], b"struct"]
            .iter()
            .find(|k| rest.starts_with(k))
            .map(|k| k.len());
        match len {
            Some(n) if !word_at(source, i.wrapping_sub(1)) && !word_at(source, i + n) => {
                return Some(i..i + n);
            }
            _ => i += 1,
        }
    }
    None
}

/// The range of an export macro right after a `class` or `struct` keyword that ends at
/// `after`: an upper-case name (`LEVELDB_EXPORT`), then the class's name, then its body or
/// base list (`{`, `:`, `final`).
fn export_macro(source: &[u8], after: usize) -> Option<std::ops::Range<usize>> {
    let macro_start = skip_space(source, after);
    let macro_end = word_end(source, macro_start);
    let name = &source[macro_start..macro_end];
    let upper = name.len() >= 3
        && name
            .iter()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || *b == b'_')
        && name.first().is_some_and(u8::is_ascii_uppercase);
    if !upper || macro_start == after {
        return None;
    }
    let class_start = skip_space(source, macro_end);
    let class_end = word_end(source, class_start);
    if class_start == macro_end || class_end == class_start {
        return None;
    }
    let next = skip_space(source, class_end);
    let opens =
        matches!(source.get(next), Some(b'{' | b':')) || source[next..].starts_with(b"final");
    opens.then_some(macro_start..macro_end)
}

fn word_at(source: &[u8], i: usize) -> bool {
    source.get(i).copied().is_some_and(is_word_byte)
}

fn word_end(source: &[u8], from: usize) -> usize {
    let mut i = from;
    while word_at(source, i) {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_export_macro_is_blanked_and_nothing_else() {
        let source = "class LEVELDB_EXPORT DB {\n};\nstruct GTEST_API_ TestInfo : Base {};\nclass API Widget final {};\n";
        let blank = |m: &str| " ".repeat(m.len());
        let expected = source
            .replace("LEVELDB_EXPORT", &blank("LEVELDB_EXPORT"))
            .replace("GTEST_API_", &blank("GTEST_API_"))
            .replace(" API ", &format!(" {} ", blank("API")));
        assert_eq!(
            String::from_utf8_lossy(&hidden(source.as_bytes())),
            expected
        );
        // Not a class named in capitals, a variable of a struct type, a forward declaration,
        // nor a word that only ends in `class`.
        for kept in [
            &b"class DB : public Base {};\n"[..],
            b"struct STAT st;\n",
            b"class EXPORT Widget;\n",
            b"subclass API Widget {};\n",
            b"class Api Widget {};\n",
        ] {
            assert!(
                matches!(hidden(kept), Cow::Borrowed(_)),
                "{}",
                String::from_utf8_lossy(kept)
            );
        }
    }
}
