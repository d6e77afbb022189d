//! C and C++ macros on lines of their own between declarations, hidden before parsing.
//!
//! A C library's headers open and close their declarations with a macro that expands to
//! `extern "C" {` and `}` for C++ compilers and to nothing for C: libgit2's `GIT_BEGIN_DECL`,
//! GLib's `G_BEGIN_DECLS`, glibc's `__BEGIN_DECLS`, autoconf's `BEGIN_C_DECLS`. C++ libraries
//! do the same with namespaces and export blocks (fmt's `FMT_BEGIN_NAMESPACE` and
//! `FMT_BEGIN_EXPORT`, nlohmann/json's `NLOHMANN_JSON_NAMESPACE_BEGIN`, Qt's `Q_OBJECT`), or
//! spell a class's template head as a macro (`NLOHMANN_BASIC_JSON_TPL_DECLARATION` before
//! `class basic_json`). The grammar, which knows no macro, reads the name as the type of the
//! declaration that follows, so the declarations after it run together into one: libgit2's
//! `repository.h` had no `git_repository_open`, its most used function, but a symbol of four
//! declarations named for the last; nlohmann/json's `json_fwd.hpp` listed its template
//! parameters `map`, `vector` and `StringType` as classes; fmt's `basic_string_view` lost its
//! class and its methods read as free functions.
//!
//! Such a line becomes spaces: lengths and line breaks stay, so every position the parse
//! reports is the file's own. Two kinds of line qualify:
//! - a declaration bracket, anywhere: a name in capitals with `BEGIN` or `END` and `DECL` or
//!   `EXTERN_C` (these open and close blocks, never end an expression);
//! - any macro name in capitals with a `_` (`FMT_BEGIN_EXPORT`), or one called with its
//!   arguments on the line (`PYBIND11_NAMESPACE_BEGIN(pybind11)`), where a declaration may
//!   begin: after a line that ends one (`;`, `{`, `}`), a comment's end, a preprocessor
//!   directive or the file's start, and not before a `{` (`PHP_FUNCTION(strlen)` then `{` is
//!   a function). After a `,` or an operator the name is a value (an enum's last
//!   enumerator, an operand) and stays.
//!
//! Macros that open a declaration's line before a type of the language (`int`, `void`,
//! `struct`, …) are blanked too: they are specifiers (`REDISMODULE_API int (*f)(…)`); so are
//! all but the last of several before a function's declarator, the last being its return type
//! (`LIBSSH2_API LIBSSH2_SESSION *libssh2_session_init_ex(…)`).
//!
//! A file without one is parsed as it is (no copy).

use std::borrow::Cow;

/// The bytes to parse for a C or C++ `source`: lines of a declaration-bracket macro, and
/// of a bare macro where a declaration may begin, blanked.
pub(crate) fn hidden(source: &[u8]) -> Cow<'_, [u8]> {
    let lines: Vec<(usize, &[u8])> = source
        .split(|&b| b == b'\n')
        .scan(0, |start, line| {
            let at = *start;
            *start += line.len() + 1;
            Some((at, line))
        })
        .collect();
    let mut out: Option<Vec<u8>> = None;
    // Whether the lines so far end a declaration, so that the next may begin one.
    let mut boundary = true;
    // Whether the last line continues a preprocessor directive onto the next (`\`).
    let mut continued = false;
    // The code of the last line that had any.
    let mut previous: &[u8] = b"";
    for (i, &(start, line)) in lines.iter().enumerate() {
        let code = code_of(line);
        let directive = continued || code.starts_with(b"#");
        let blank = !directive
            && (is_bracket_macro(code)
                || (boundary && is_bare_macro(code) && !opens_block(&lines[i + 1..])));
        if blank {
            let bytes = out.get_or_insert_with(|| source.to_vec());
            bytes[start..start + line.len()]
                .iter_mut()
                .filter(|b| !b.is_ascii_whitespace())
                .for_each(|b| *b = b' ');
            boundary = true;
            continue;
        }
        if directive {
            // A comment inside a multi-line macro ended the grammar's reading of its body,
            // and the rest of the body read as code: libuv's `tree.h` listed `attr struct`, a
            // function of its `RB_GENERATE` macro, six times.
            for range in block_comments(line) {
                let bytes = out.get_or_insert_with(|| source.to_vec());
                bytes[start + range.start..start + range.end].fill(b' ');
            }
        }
        if code.is_empty() {
            continue;
        }
        if !directive {
            let leading = match boundary {
                true => specifier_macros(line),
                false => Vec::new(),
            };
            for range in leading
                .into_iter()
                .chain(trailing_annotations(line, previous))
                .chain(calling_conventions(line))
            {
                let bytes = out.get_or_insert_with(|| source.to_vec());
                bytes[start + range.start..start + range.end].fill(b' ');
            }
        }
        previous = code;
        continued = directive && code.ends_with(b"\\");
        boundary = if directive {
            !continued
        } else {
            ends_declaration(code)
        };
    }
    out.map_or(Cow::Borrowed(source), Cow::Owned)
}

/// The ranges in `line` of the block comments (`/* … */`) that open and close on it.
fn block_comments(line: &[u8]) -> Vec<std::ops::Range<usize>> {
    let mut ranges = Vec::new();
    let mut at = 0;
    while let Some(open) = contains_at(&line[at..], b"/*") {
        let from = at + open;
        let Some(close) = contains_at(&line[from + 2..], b"*/") else {
            break;
        };
        let to = from + 2 + close + 2;
        ranges.push(from..to);
        at = to;
    }
    ranges
}

/// Where `needle` first occurs in `haystack`.
fn contains_at(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// The words that name a type of the language itself: a name before one cannot be the
/// declaration's type.
const TYPE_WORDS: &[&[u8]] = &[
    b"void",
    b"char",
    b"short",
    b"int",
    b"long",
    b"float",
    b"double",
    b"signed",
    b"unsigned",
    b"_Bool",
    b"bool",
    b"struct",
    b"union",
    b"enum",
];

/// The ranges in `line` of the macros that open a declaration before a type of the language
/// (`REDISMODULE_API int (*RedisModule_CreateCommand)(…)`, `MY_API struct foo *make(void)`):
/// specifiers, since a type name cannot precede `int` or `struct`. The grammar read the macro
/// as the type and `int` as the name: Redis's module API was 300 symbols named `int` and
/// `void`.
fn specifier_macros(line: &[u8]) -> Vec<std::ops::Range<usize>> {
    let mut found = Vec::new();
    let mut at = crate::text::skip_space(line, 0);
    while let Some(len) = capitals_len(&line[at..]) {
        found.push(at..at + len);
        at = crate::text::skip_space(line, at + len);
    }
    let word = line[at..]
        .iter()
        .position(|&b| !crate::text::is_word_byte(b))
        .map_or(&line[at..], |end| &line[at..at + end]);
    if TYPE_WORDS.contains(&word) {
        return found;
    }
    // Before a function's declarator (`*name(` or `name(`) the last of two or more is the
    // return type (`LIBSSH2_API LIBSSH2_SESSION *libssh2_session_init_ex(…)`), and the others
    // specifiers: the grammar read the macro as the type, and the signature lost the real one.
    if found.len() >= 2 && starts_declarator(&line[at..]) {
        found.pop();
        return found;
    }
    Vec::new()
}

/// Whether `rest` starts a function's declarator: pointers' `*`s, a name, then `(`.
fn starts_declarator(rest: &[u8]) -> bool {
    let stars = rest
        .iter()
        .position(|b| !matches!(b, b'*' | b' ' | b'\t'))
        .unwrap_or(rest.len());
    let rest = &rest[stars..];
    let name = rest
        .iter()
        .position(|&b| !crate::text::is_word_byte(b))
        .unwrap_or(rest.len());
    name > 0 && !rest[0].is_ascii_digit() && rest[name..].trim_ascii_start().starts_with(b"(")
}

/// The ranges in `line` of calling-convention macros between a declaration's type and its
/// name (`int CJSON_CDECL main(void)`, `void * SQLITE_CDECL f(int)`) or inside a function
/// pointer's declarator (`void *(CJSON_CDECL *malloc_fn)(size_t)`): the grammar read cJSON's
/// tests' `main` as a symbol named `CJSON_CDECL`, and its hooks' `malloc_fn` field the same,
/// so the project had no entry point. A macro right after a specifier (`static MY_TYPE f(…)`)
/// is the type, and stays.
fn calling_conventions(line: &[u8]) -> Vec<std::ops::Range<usize>> {
    let mut ranges = Vec::new();
    for (i, len) in macro_names(line) {
        let before = line[..i].trim_ascii_end();
        let after = line[i + len..].trim_ascii_start();
        let previous_word = last_word(before);
        // After the type: a word that is no specifier or keyword, or a pointer's `*`.
        let after_type = before.ends_with(b"*")
            || (!previous_word.is_empty()
                && !SPECIFIER_WORDS.contains(&previous_word)
                && !VALUE_KEYWORDS.contains(&previous_word)
                && !previous_word[0].is_ascii_digit());
        // Before the name and its parameters.
        let name = after
            .iter()
            .position(|&b| !crate::text::is_word_byte(b))
            .unwrap_or(after.len());
        let named = name > 0
            && !after[0].is_ascii_digit()
            && after[name..].trim_ascii_start().starts_with(b"(");
        // `(MACRO *name)`, not a cast's `(TYPE_T *)`.
        let pointer = before.ends_with(b"(")
            && after.strip_prefix(b"*").is_some_and(|rest| {
                let rest = rest.trim_ascii_start();
                let word = rest
                    .iter()
                    .position(|&b| !crate::text::is_word_byte(b))
                    .unwrap_or(rest.len());
                // A function pointer's parameters follow (`(CJSON_CDECL *malloc_fn)(size_t)`); a
                // parameter of a type in capitals (`f(MYLIB_SESSION *session)`) ends the list.
                let closed = rest[word..].trim_ascii_start();
                word > 0
                    && closed.starts_with(b")")
                    && closed[1..].trim_ascii_start().starts_with(b"(")
            });
        if (after_type && named) || pointer {
            ranges.push(i..i + len);
        }
    }
    ranges
}

/// The length of the word in capitals (and digits and `_`, at least three characters) that
/// `bytes` starts with: a macro's name by convention (`NORETURN`, `REDISMODULE_API`).
fn capitals_len(bytes: &[u8]) -> Option<usize> {
    let len = bytes
        .iter()
        .position(|&b| !crate::text::is_word_byte(b))
        .unwrap_or(bytes.len());
    let word = &bytes[..len];
    let capitals = len >= 3
        && word.iter().any(u8::is_ascii_uppercase)
        && !word[0].is_ascii_digit()
        && word
            .iter()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || *b == b'_');
    capitals.then_some(len)
}

/// Words after which a macro called with arguments is a value or a condition, not an
/// annotation (`return MAKE_ERROR(x);`, `if FMT_CONSTEXPR20 (cond) {`).
const VALUE_KEYWORDS: &[&[u8]] = &[
    b"if",
    b"while",
    b"for",
    b"switch",
    b"catch",
    b"return",
    b"case",
    b"else",
    b"do",
    b"throw",
    b"co_return",
    b"co_yield",
    b"sizeof",
    b"new",
    b"delete",
    b"goto",
];

/// Words before a declaration's type that are no part of it.
const SPECIFIER_WORDS: &[&[u8]] = &[
    b"static",
    b"inline",
    b"extern",
    b"const",
    b"constexpr",
    b"virtual",
    b"explicit",
    b"friend",
    b"nodiscard",
];

/// The ranges in `line` of annotation macros that end a declarator: after its parameters
/// (`void Compact() EXCLUSIVE_LOCKS_REQUIRED(mutex_);`, `int f(void) WARN_UNUSED_RESULT;`, on
/// this line or, when the macro opens it, on the `previous` line with code) or,
/// called with arguments, after its name (`MemTable* imm_ GUARDED_BY(mutex_);`), before the
/// `;`, `{`, `=` or `,` that ends it. The grammar read leveldb's `DBImpl` annotations as
/// methods named `GUARDED_BY`, and lost the fields they annotate.
fn trailing_annotations(line: &[u8], previous: &[u8]) -> Vec<std::ops::Range<usize>> {
    let mut ranges = Vec::new();
    for (i, len) in macro_names(line) {
        // An annotation that opens its line follows the previous line's code
        // (`Status Recover(VersionEdit* edit)` then `    EXCLUSIVE_LOCKS_REQUIRED(mutex_);`).
        let before = match line[..i].trim_ascii_end() {
            b"" => previous,
            before => before,
        };
        let after_name = &line[i + len..];
        let args = call_len(after_name);
        let after = after_name[args.unwrap_or(0)..].trim_ascii_start();
        let ends = matches!(after.first(), Some(b';' | b'{' | b'=' | b','));
        let previous_word = last_word(before);
        let after_parameters = before.ends_with(b")");
        // After a declarator's name, which follows its type: `MemTable* imm_ GUARDED_BY(…)`.
        // After a type alone the macro is the function's name (googletest's `int
        // RUN_ALL_TESTS()`, `inline int RUN_ALL_TESTS() {`, was no symbol).
        let words = before
            .split(|&b| !crate::text::is_word_byte(b))
            .filter(|w| !w.is_empty() && !SPECIFIER_WORDS.contains(w))
            .count();
        let after_name = args.is_some()
            && before.last().is_some_and(|&b| crate::text::is_word_byte(b))
            && !VALUE_KEYWORDS.contains(&previous_word)
            && !TYPE_WORDS.contains(&previous_word)
            && words >= 2;
        if ends && (after_parameters || after_name) {
            ranges.push(i..i + len + args.unwrap_or(0));
        }
    }
    ranges
}

/// The macro names of `line` ([`crate::text::macro_name_len`]), each as its start and length,
/// in order: words that start where no word character precedes them.
fn macro_names(line: &[u8]) -> impl Iterator<Item = (usize, usize)> + '_ {
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < line.len() {
            let starts_word = !line[..i]
                .last()
                .is_some_and(|&b| crate::text::is_word_byte(b));
            if let Some(len) = starts_word
                .then(|| crate::text::macro_name_len(&line[i..]))
                .flatten()
            {
                let found = (i, len);
                i += len;
                return Some(found);
            }
            i += 1;
        }
        None
    })
}

/// The word `text` ends with (empty when it ends with no word character).
fn last_word(text: &[u8]) -> &[u8] {
    let start = text
        .iter()
        .rposition(|&b| !crate::text::is_word_byte(b))
        .map_or(0, |p| p + 1);
    &text[start..]
}

/// The length of the parenthesised argument list `rest` starts with (after spaces), if it
/// closes on the line.
fn call_len(rest: &[u8]) -> Option<usize> {
    let open = rest.iter().position(|b| !matches!(b, b' ' | b'\t'))?;
    if rest[open] != b'(' {
        return None;
    }
    let mut depth = 0usize;
    for (i, &b) in rest.iter().enumerate().skip(open) {
        match b {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
    }
    None
}

/// A line without its `//` comment and surrounding white space.
fn code_of(line: &[u8]) -> &[u8] {
    let end = line
        .windows(2)
        .position(|w| w == b"//")
        .unwrap_or(line.len());
    line[..end].trim_ascii()
}

/// Whether a line's code ([`code_of`]) ends a declaration or a comment: what follows it may
/// begin a declaration.
fn ends_declaration(code: &[u8]) -> bool {
    code.ends_with(b"*/") || matches!(code.last(), Some(b';' | b'{' | b'}'))
}

/// Whether the next line with code opens a block: a macro before it names a function.
fn opens_block(rest: &[(usize, &[u8])]) -> bool {
    rest.iter()
        .map(|(_, line)| code_of(line))
        .find(|code| !code.is_empty())
        .is_some_and(|code| code.starts_with(b"{"))
}

/// Whether a line's code is one macro name in capitals with a `_` (at least three
/// characters, a capital among them), alone or called with arguments that close on the line.
fn is_bare_macro(code: &[u8]) -> bool {
    let Some(len) = crate::text::macro_name_len(code) else {
        return false;
    };
    let rest = code[len..].trim_ascii_start();
    rest.is_empty() || closes_call(rest)
}

/// Whether `rest` is one parenthesised argument list that closes at the line's end.
fn closes_call(rest: &[u8]) -> bool {
    rest.first() == Some(&b'(')
        && call_len(rest) == Some(rest.len())
        && !rest
            .iter()
            .any(|b| matches!(b, b'"' | b'\'' | b';' | b'{' | b'}'))
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

    fn blanked(source: &[u8]) -> String {
        let hidden = hidden(source);
        assert_eq!(hidden.len(), source.len());
        String::from_utf8(hidden.into_owned()).unwrap()
    }

    #[test]
    fn comments_inside_a_multi_line_macro_become_spaces() {
        let source =
            b"#define GEN(a) \\\n  int a;   \\\n/* Inserts */ \\\n  int b;\nint c; /* kept */\n";
        assert_eq!(
            blanked(source),
            "#define GEN(a) \\\n  int a;   \\\n              \\\n  int b;\nint c; /* kept */\n"
        );
    }

    #[test]
    fn calling_conventions_between_type_and_name_become_spaces() {
        let source = b"int CJSON_CDECL main(void)\n{\n    return 0;\n}\nvoid * SQLITE_CDECL f(int x);\nstruct h {\n  void *(CJSON_CDECL *malloc_fn)(unsigned long);\n};\nstatic MY_TYPE helper(void);\nint x = (FOO_T *) p;\nint RUN_ALL_TESTS();\n";
        assert_eq!(
            blanked(source),
            "int             main(void)\n{\n    return 0;\n}\nvoid *              f(int x);\nstruct h {\n  void *(            *malloc_fn)(unsigned long);\n};\nstatic MY_TYPE helper(void);\nint x = (FOO_T *) p;\nint RUN_ALL_TESTS();\n"
        );
    }

    /// A type in capitals stays: as a parameter's (`f(MYLIB_SESSION *session)`, no function
    /// pointer's declarator) and as the return type after an export macro, which goes
    /// (libssh2's `LIBSSH2_API LIBSSH2_SESSION *libssh2_session_init_ex(…)` read as
    /// `LIBSSH2_API *…`, and `int libssh2_session_free(*session)` lost its parameter's type).
    #[test]
    fn types_in_capitals_stay_and_the_export_macro_before_them_goes() {
        let source = b"MY_API MY_SESSION *my_session_new(int flags);\nMY_API int my_free(MY_SESSION *session);\nMY_CHANNEL *my_open(MY_SESSION *s)\n{\n}\n";
        assert_eq!(
            blanked(source),
            "       MY_SESSION *my_session_new(int flags);\n       int my_free(MY_SESSION *session);\nMY_CHANNEL *my_open(MY_SESSION *s)\n{\n}\n"
        );
    }

    #[test]
    fn bare_macro_lines_become_spaces_only_where_a_declaration_may_begin() {
        // After a comment's end, a block's end (with its comment), a directive, a blanked
        // line, and at the file's start; with arguments closed on the line.
        let text = blanked(b"FMT_BEGIN_NAMESPACE\n/* x */\nFMT_BEGIN_EXPORT\nQ_OBJECT // moc\n}  // namespace detail\n\nNS_BEGIN(fmt)\n#include <x>\nEXPORT_TPL\nint f();\n");
        for name in ["FMT_BEGIN", "Q_OBJECT", "NS_BEGIN", "EXPORT_TPL"] {
            assert!(!text.contains(name), "{name} stayed: {text}");
        }
        assert!(
            text.contains("int f();") && text.contains("#include <x>"),
            "{text}"
        );
        // A value after `,`, `=` or an operator; a directive's continuation; a function a
        // macro defines (its body follows); a name without `_`; a call with a string or
        // more after it; lower case.
        for source in [
            &b"enum e {\n  FIRST,\n  LAST_ONE\n};\n"[..],
            b"int x =\n    MAX_SIZE\n    + 1;\n",
            b"#define A \\\n    MAX_SIZE\n",
            b"}\nPHP_FUNCTION(strlen)\n{\n}\n",
            b"}\nPHP_FUNCTION\n{\n}\n",
            b"};\nBOOL\nWINAPI\n",
            b"};\nLOG_AT(\"x\")\n",
            b"};\nMY_CALL(x) + 1\n",
            b"};\nPy_BEGIN_ALLOW_THREADS\n",
        ] {
            let text = blanked(source);
            assert_eq!(
                text.as_bytes(),
                source,
                "{}",
                String::from_utf8_lossy(source)
            );
        }
    }
}
