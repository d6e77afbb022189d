//! C++ macros that stand where the grammar expects a declaration's own words, hidden before
//! parsing.
//!
//! A C++ library marks the classes it exports with a macro that expands to a visibility
//! attribute: `class LEVELDB_EXPORT DB {`, `struct GTEST_API_ TestInfo : …`. The grammar, which
//! knows no macro, reads the macro as the class's name and the name as an error, so the class
//! is lost and its members read as free functions (leveldb's `include/leveldb/db.h` listed
//! `DB() = default` and no `DB`). The same macros open a line before `template` or `class`
//! (fmt's `FMT_EXPORT template <typename Context> class dynamic_format_arg_store {` lost the
//! class), and specifier macros open a constructor's or a destructor's line (fmt's
//! `FMT_CONSTEXPR buffer(grow_fun grow, size_t sz) noexcept : size_(sz) …` turned
//! `class buffer` and its members into fields of a function `get`), or stand for `constexpr`
//! after `if` (`if FMT_CONSTEXPR20 (cond)` broke the method around it, and its class).
//!
//! Such a macro is replaced by as many spaces: lengths and line breaks stay, so every position
//! the parse reports is the file's own, and the signature reads `class DB`. A macro that opens
//! a line is hidden only before `template`, `class`, `struct`, `union`, `enum`, `namespace`,
//! a specifier (`explicit`, `virtual`, `friend`, `static`, `inline`, `constexpr`,
//! `consteval`), a destructor's `~`, or the name of a class the file declares followed by `(`:
//! before a type or a function's name it may be the return type (`MY_HANDLE open(…)`), and
//! stays.

use std::borrow::Cow;
use std::collections::HashSet;

use crate::text::{is_word_byte, macro_name_len, skip_space};

/// The bytes to parse for a C++ `source`: export macros blanked, without a copy when it has
/// none.
pub(crate) fn hidden(source: &[u8]) -> Cow<'_, [u8]> {
    let mut out: Option<Vec<u8>> = None;
    let mut at = 0;
    // The names declared after `class` or `struct` (an export macro's, too: no harm).
    let mut classes: HashSet<&[u8]> = HashSet::new();
    while let Some(found) = next_keyword(source, at) {
        at = found.end;
        let name_start = skip_space(source, found.end);
        classes.insert(&source[name_start..word_end(source, name_start)]);
        if let Some(range) = export_macro(source, found.end) {
            let after = skip_space(source, range.end);
            classes.insert(&source[after..word_end(source, after)]);
            out.get_or_insert_with(|| source.to_vec())[range].fill(b' ');
        }
    }
    let mut start = 0;
    for line in source.split(|&b| b == b'\n') {
        for range in leading_macros(line, &classes)
            .into_iter()
            .chain(conditional_macros(line))
            .chain(exception_macro(line))
        {
            let range = start + range.start..start + range.end;
            out.get_or_insert_with(|| source.to_vec())[range].fill(b' ');
        }
        start += line.len() + 1;
    }
    out.map_or(Cow::Borrowed(source), Cow::Owned)
}

/// Keywords a macro that opens a line may stand before: what follows begins a declaration
/// whatever the macro expands to.
const OPENING_KEYWORDS: &[&[u8]] = &[
    b"template",
    b"class",
    b"struct",
    b"union",
    b"enum",
    b"namespace",
    // Specifiers no name comes before (fmt's `FMT_CONSTEXPR explicit basic_memory_buffer(`
    // added a field named `explicit`).
    b"explicit",
    b"virtual",
    b"friend",
    b"static",
    b"inline",
    b"constexpr",
    b"consteval",
];

/// The ranges in `line` of the macros that open it (`FMT_NORETURN FMT_API`), when what
/// follows them is an opening keyword, a destructor or a constructor of one of `classes`;
/// none otherwise.
fn leading_macros(line: &[u8], classes: &HashSet<&[u8]>) -> Vec<std::ops::Range<usize>> {
    let mut ranges = Vec::new();
    let mut at = skip_blank(line, 0);
    while let Some(len) = macro_name_len(&line[at..]) {
        let next = skip_blank(line, at + len);
        if next == at + len {
            return Vec::new();
        }
        ranges.push(at..at + len);
        at = next;
    }
    let rest = &line[at..];
    let word = &rest[..word_end(rest, 0)];
    let opens = OPENING_KEYWORDS.contains(&word)
        || rest.starts_with(b"~")
        || (!word.is_empty()
            && classes.contains(word)
            && rest[skip_blank(rest, word.len())..].starts_with(b"("))
        || defines_a_constructor(rest)
        || declares_function(rest);
    if opens {
        ranges
    } else {
        Vec::new()
    }
}

/// Whether a line (after its leading macros) declares a function with a return type of a
/// name: a type, `*`s or `&`s, a name, `(` (`LZ4_stream_t* LZ4_createStream(void);`). Before
/// such a line a macro is an export or calling-convention marker: the grammar read lz4's
/// `LZ4LIB_API LZ4_stream_t* LZ4_createStream(void);` as a declaration of `LZ4_stream_t` of
/// type `LZ4LIB_API`, and the function was lost. (A macro before one word and `(` may be the
/// return type itself, `MY_HANDLE open(…)`, and stays.)
fn declares_function(rest: &[u8]) -> bool {
    let mut at = 0;
    // `const`, `unsigned` and the like before the type are words too.
    let mut words = 0;
    loop {
        let end = qualified_end(rest, at);
        if end == at {
            break;
        }
        words += 1;
        at = skip_blank(rest, end);
        while matches!(rest.get(at), Some(b'*' | b'&')) {
            at = skip_blank(rest, at + 1);
        }
    }
    words >= 2 && rest.get(at) == Some(&b'(') && !rest[..at].contains(&b'=')
}

/// The end of a possibly qualified, possibly templated name at `from` (`std::size_t`,
/// `App::name`, `std::vector<int>`): CLI11's `CLI11_NODISCARD std::size_t count() const`
/// kept its macro, which broke its class `App` around it.
fn qualified_end(rest: &[u8], from: usize) -> usize {
    let mut end = word_end(rest, from);
    if end == from {
        return from;
    }
    loop {
        if rest[end..].starts_with(b"::") && word_at(rest, end + 2) {
            end = word_end(rest, end + 2);
        } else if rest.get(end) == Some(&b'<') {
            let mut depth = 0usize;
            let close = rest[end..].iter().position(|&b| {
                match b {
                    b'<' => depth += 1,
                    b'>' => depth -= 1,
                    _ => {}
                }
                depth == 0 || matches!(b, b'(' | b';' | b'{' | b'=')
            });
            match close.map(|c| end + c) {
                Some(c) if rest[c] == b'>' => end = c + 1,
                _ => return end,
            }
        } else {
            return end;
        }
    }
}

/// Whether a line (after its leading macros) defines a constructor or destructor out of its
/// class, `Widget::Widget(` or `Widget::~Widget(`: CLI11's `CLI11_INLINE App::App(…) :
/// parent_(parent)` named the constructor `CLI.parent_.App.App` and invented `parent_`.
fn defines_a_constructor(rest: &[u8]) -> bool {
    let end = qualified_end(rest, 0);
    let parts: Vec<&[u8]> = rest[..end]
        .split(|&b| b == b':')
        .filter(|p| !p.is_empty())
        .collect();
    let Some(&class) = parts.last() else {
        return false;
    };
    // `Widget::Widget(`, or a destructor, `Widget::~Widget(`.
    let (member, after) = match rest[end..].strip_prefix(b"::~") {
        Some(dtor) => {
            let len = word_end(dtor, 0);
            (&dtor[..len], &dtor[len..])
        }
        None if parts.len() >= 2 => (parts[parts.len() - 2], &rest[end..]),
        None => return false,
    };
    let after = &after[skip_blank(after, 0)..];
    !member.is_empty() && class == member && after.starts_with(b"(")
}

/// The bytes to parse for a C `source`: the macros that open a function's declaration
/// ([`declares_function`]) blanked, without a copy when it has none.
pub(crate) fn hidden_in_c(source: &[u8]) -> Cow<'_, [u8]> {
    let mut out: Option<Vec<u8>> = None;
    let mut start = 0;
    let none = HashSet::new();
    for line in source.split(|&b| b == b'\n') {
        let mut ranges = leading_macros(line, &none);
        if ranges.is_empty() {
            ranges = marker_macros(line);
        }
        for range in ranges {
            let range = start + range.start..start + range.end;
            out.get_or_insert_with(|| source.to_vec())[range].fill(b' ');
        }
        start += line.len() + 1;
    }
    out.map_or(Cow::Borrowed(source), Cow::Owned)
}

/// Words a type name follows: before a capitalised word, they make it the type.
const QUALIFIERS: &[&[u8]] = &[
    b"const",
    b"enum",
    b"extern",
    b"inline",
    b"signed",
    b"static",
    b"struct",
    b"union",
    b"unsigned",
    b"volatile",
];

/// The ranges in a top-level `line` declaring a function of the capitalised macros around its
/// return type that mark it exported or its calling convention, whatever their names: zlib's
/// `ZEXTERN uLong ZEXPORT crc32(…)` and `int ZEXPORT deflate(…)` (its names have no `_`, so
/// [`leading_macros`] left them, and the grammar lost every such function). Of the words
/// before the function's name: the last when capitalised and after a type (not after a
/// qualifier: `const HANDLE f(` returns a `HANDLE`), and then the first when capitalised and
/// followed by a type. A lone capitalised word before the name is its return type (`BOOL
/// f(`), and stays.
fn marker_macros(line: &[u8]) -> Vec<std::ops::Range<usize>> {
    const STATEMENTS: &[&[u8]] = &[
        b"return", b"else", b"case", b"goto", b"typedef", b"sizeof", b"if", b"while", b"for",
        b"switch", b"do", b"define",
    ];
    if !line.first().copied().is_some_and(is_word_byte) {
        return Vec::new();
    }
    let mut words: Vec<std::ops::Range<usize>> = Vec::new();
    let mut at = 0;
    loop {
        let end = word_end(line, at);
        if end == at {
            break;
        }
        words.push(at..end);
        at = skip_blank(line, end);
        while matches!(line.get(at), Some(b'*' | b'&')) {
            at = skip_blank(line, at + 1);
        }
    }
    if line.get(at) != Some(&b'(') || words.len() < 3 || line[..at].contains(&b'=') {
        return Vec::new();
    }
    let word = |i: usize| &line[words[i].clone()];
    if STATEMENTS.contains(&word(0)) {
        return Vec::new();
    }
    let capitalised = |w: &[u8]| {
        w.len() >= 3
            && w.iter().any(u8::is_ascii_uppercase)
            && w.iter()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || *b == b'_')
    };
    // The words before the name (the last word).
    let before = words.len() - 1;
    let last = before - 1;
    let mut ranges = Vec::new();
    if capitalised(word(last)) && !QUALIFIERS.contains(&word(last - 1)) {
        ranges.push(words[last].clone());
        if last >= 2 && capitalised(word(0)) {
            ranges.push(words[0].clone());
        }
    }
    ranges
}

/// The range in `line` of an exception macro that stands for `try` or `catch (…)` as a
/// statement of its own (nlohmann/json's `JSON_TRY {` and `JSON_CATCH (...) {`, Boost's and
/// Qt's alike: a name ending in `_TRY` or holding `_CATCH`), with its arguments: the grammar
/// read `JSON_CATCH(...)` as a call missing its `;`, and the class around it fell apart
/// (`basic_json::dump` was lost). Blanked, what follows is a block of its own.
fn exception_macro(line: &[u8]) -> Option<std::ops::Range<usize>> {
    let at = skip_blank(line, 0);
    let len = macro_name_len(&line[at..])?;
    let name = &line[at..at + len];
    let marker = name.ends_with(b"_TRY") || name.windows(6).any(|w| w == b"_CATCH");
    if !marker {
        return None;
    }
    let mut end = at + len;
    let open = skip_blank(line, end);
    if line.get(open) == Some(&b'(') {
        let mut depth = 0;
        let mut i = open;
        loop {
            match line.get(i)? {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
            i += 1;
        }
        end = i + 1;
    }
    // Only a block or nothing may follow (the block's `{` on the next line).
    let rest = &line[skip_blank(line, end)..];
    matches!(rest.trim_ascii_end(), b"" | b"{" | b"{}").then_some(at..end)
}

/// The ranges in `line` of macros between `if` and its condition (`if FMT_CONSTEXPR20
/// (need_copy<T>::value)`, which expands to `if constexpr`): the grammar read the condition as
/// a call, the statement fell apart and took the class around it.
fn conditional_macros(line: &[u8]) -> Vec<std::ops::Range<usize>> {
    let mut ranges = Vec::new();
    let mut from = 0;
    while let Some(found) = line[from..].windows(2).position(|w| w == b"if") {
        let at = from + found;
        from = at + 2;
        if at > 0 && is_word_byte(line[at - 1]) {
            continue;
        }
        let start = skip_blank(line, at + 2);
        if start == at + 2 {
            continue;
        }
        let Some(len) = macro_name_len(&line[start..]) else {
            continue;
        };
        if line[skip_blank(line, start + len)..].starts_with(b"(") {
            ranges.push(start..start + len);
        }
    }
    ranges
}

/// The first position at or after `from` in a line that holds no space or tab.
fn skip_blank(line: &[u8], from: usize) -> usize {
    let mut i = from;
    while matches!(line.get(i), Some(b' ' | b'\t')) {
        i += 1;
    }
    i
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
    // A macro's arguments go with it (fmt's `class FMT_SO_VISIBILITY("default")
    // format_error`, lost with every definition of its namespace after it).
    let mut hidden_end = macro_end;
    let open = skip_space(source, macro_end);
    if source.get(open) == Some(&b'(') {
        hidden_end = open + closing_paren(&source[open..])? + 1;
    }
    // Attributes after the macro go with it (googletest's `class GTEST_API_ [[nodiscard]]
    // Test {`, 44 classes of its API, lost their names), and so do further macros before the
    // name (google/benchmark's `class BENCHMARK_EXPORT BENCHMARK_INTERNAL_CACHE_ALIGNED State
    // {`, its central class, was no symbol).
    let mut class_start = skip_space(source, hidden_end);
    loop {
        if source[class_start..].starts_with(b"[[") {
            let close = source[class_start..].windows(2).position(|w| w == b"]]")?;
            hidden_end = class_start + close + 2;
        } else if let Some(end) = further_macro(source, class_start) {
            hidden_end = end;
        } else {
            break;
        }
        class_start = skip_space(source, hidden_end);
    }
    let class_end = word_end(source, class_start);
    if class_start == macro_end || class_end == class_start {
        return None;
    }
    let next = skip_space(source, class_end);
    let opens =
        matches!(source.get(next), Some(b'{' | b':')) || source[next..].starts_with(b"final");
    opens.then_some(macro_start..hidden_end)
}

/// The end of a macro in capitals at `start` (with its arguments) that another word or an
/// attribute follows: one more of the macros between `class` and the class's name.
fn further_macro(source: &[u8], start: usize) -> Option<usize> {
    let end = word_end(source, start);
    let name = &source[start..end];
    let upper = name.len() >= 3
        && name.first().is_some_and(u8::is_ascii_uppercase)
        && name
            .iter()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || *b == b'_');
    if !upper {
        return None;
    }
    let mut end = end;
    let open = skip_space(source, end);
    if source.get(open) == Some(&b'(') {
        end = open + closing_paren(&source[open..])? + 1;
    }
    let next = skip_space(source, end);
    // `class URL final {` names the class `URL`.
    let word_follows = source
        .get(next)
        .is_some_and(|&b| b.is_ascii_alphabetic() || b == b'_')
        && &source[next..word_end(source, next)] != b"final";
    (word_follows || source[next..].starts_with(b"[[")).then_some(end)
}

/// The offset of the `)` that closes the `(` at the start of `text`, on the same line and
/// within a short macro argument list.
fn closing_paren(text: &[u8]) -> Option<usize> {
    let mut depth = 0usize;
    for (i, &b) in text.iter().enumerate().take(200) {
        match b {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            b'\n' | b';' | b'{' => return None,
            _ => {}
        }
    }
    None
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

    /// A visibility macro with arguments goes whole (fmt's `FMT_SO_VISIBILITY("default")`);
    /// a call that never closes on its line is left alone.
    #[test]
    fn an_export_macro_with_arguments_is_blanked_whole() {
        let source = "class FMT_SO_VISIBILITY(\"default\") format_error : public std::runtime_error {\n};\nclass LIB_VIS(a, (b)) widget {};\nclass BROKEN_(x\n) thing {};\n";
        let blank = |m: &str| " ".repeat(m.len());
        let expected = source
            .replace(
                "FMT_SO_VISIBILITY(\"default\")",
                &blank("FMT_SO_VISIBILITY(\"default\")"),
            )
            .replace("LIB_VIS(a, (b))", &blank("LIB_VIS(a, (b))"));
        assert_eq!(
            String::from_utf8_lossy(&hidden(source.as_bytes())),
            expected
        );
    }

    /// A macro before a qualified or templated return type, or before a constructor or
    /// destructor defined out of its class, goes: CLI11's `CLI11_NODISCARD std::size_t
    /// count() const` broke its class `App`, and `CLI11_INLINE App::App(…) : parent_(p)`
    /// invented `parent_`.
    #[test]
    fn a_macro_before_a_qualified_type_or_an_out_of_line_constructor_is_blanked() {
        let source = "class App {\n  LIB_NODISCARD std::size_t count() const { return 1; }\n  LIB_NODISCARD std::vector<std::string> names() const;\n};\nLIB_INLINE App::App(int p) : parent_(p) {}\nLIB_INLINE App::~App() {}\nLIB_INLINE std::string App::name() const { return n; }\nMY_HANDLE App::open(int x);\n";
        let blank = |m: &str| " ".repeat(m.len());
        let expected = source
            .replace("LIB_NODISCARD", &blank("LIB_NODISCARD"))
            .replace("LIB_INLINE", &blank("LIB_INLINE"));
        assert_eq!(
            String::from_utf8_lossy(&hidden(source.as_bytes())),
            expected
        );
    }

    /// Every macro between `class` and the name goes (google/benchmark's `class
    /// BENCHMARK_EXPORT BENCHMARK_INTERNAL_CACHE_ALIGNED State {`); a class named in capitals
    /// stays, before `final` too.
    #[test]
    fn several_macros_before_a_class_name_are_blanked() {
        let source = "class LIB_EXPORT LIB_ALIGNED(64) State {\n};\nclass LIB_EXPORT URL final {\n};\nclass LIB_EXPORT LIB_ALIGNED [[nodiscard]] Run : Base {};\n";
        let blank = |m: &str| " ".repeat(m.len());
        let expected = source
            .replace(
                "LIB_EXPORT LIB_ALIGNED(64)",
                &blank("LIB_EXPORT LIB_ALIGNED(64)"),
            )
            .replace(
                "LIB_EXPORT LIB_ALIGNED [[nodiscard]]",
                &blank("LIB_EXPORT LIB_ALIGNED [[nodiscard]]"),
            )
            .replace("LIB_EXPORT", &blank("LIB_EXPORT"));
        assert_eq!(
            String::from_utf8_lossy(&hidden(source.as_bytes())),
            expected
        );
    }

    #[test]
    fn an_export_macro_is_blanked_and_nothing_else() {
        let source = "class LEVELDB_EXPORT DB {\n};\nstruct GTEST_API_ TestInfo : Base {};\nclass API Widget final {};\nclass GTEST_API_ [[nodiscard]] [[deprecated(\"x\")]] Test {\n};\n";
        let blank = |m: &str| " ".repeat(m.len());
        let expected = source
            .replace("LEVELDB_EXPORT", &blank("LEVELDB_EXPORT"))
            .replace(
                "GTEST_API_ [[nodiscard]] [[deprecated(\"x\")]]",
                &blank("GTEST_API_ [[nodiscard]] [[deprecated(\"x\")]]"),
            )
            .replace("GTEST_API_", &blank("GTEST_API_"))
            .replace(" API ", &format!(" {} ", blank("API")));
        assert_eq!(
            String::from_utf8_lossy(&hidden(source.as_bytes())),
            expected
        );
        // A macro opening a line before `template`, `class`, a destructor, a constructor
        // of a class the file declares or a return type and a function's name; not before a
        // function's name alone (the macro may be its return type).
        let source = "FMT_EXPORT template <typename C> class store {\n  FMT_CONSTEXPR20 ~store() = default;\n  void f() { if FMT_CONSTEXPR20 (x) g(); elif MAX_N (y); }\n  FMT_NORETURN FMT_API store(int x)\n      : x_(x) {}\n  MY_HANDLE open(int x);\n  FMT_CONSTEXPR auto size() const -> int;\n};\nAPI_EXPORT struct point { int x; };\n";
        let expected = source
            .replace("FMT_EXPORT", &blank("FMT_EXPORT"))
            .replace("FMT_CONSTEXPR20", &blank("FMT_CONSTEXPR20"))
            .replace("FMT_NORETURN FMT_API", &blank("FMT_NORETURN FMT_API"))
            .replace(
                "FMT_CONSTEXPR auto",
                &format!("{} auto", blank("FMT_CONSTEXPR")),
            )
            .replace("API_EXPORT", &blank("API_EXPORT"));
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
