//! Inputs that would make a grammar's C code read out of bounds, or that a grammar misreads
//! whole (a C# verbatim string opening with an escaped quote), made safe before parsing.
//!
//! tree-sitter-bash 0.25.1's external scanner, looking for a brace range (`{1..9}`), calls
//! C's `isdigit` on the character after a `{` and its digits, and again after `..` and its
//! digits. `isdigit` is only defined for bytes: glibc looks the argument up in a 384-entry
//! table, so a code point of U+0100 or above reads past it, up to 2.2 MB for U+10FFFF.
//! Where that lands outside mapped memory the process dies of SIGSEGV (on x86_64 Linux,
//! `{` then U+10FFFD; a CI run of the property tests found one among random bytes). The
//! upstream report is tree-sitter/tree-sitter-bash#337.
//!
//! The scanner reads only those two places, so only the one character at each is replaced
//! before the parse: its bytes become as many `_`, another word character to the shell.
//! (TypeScript: see [`call_signature_breaks`].)
//! Lengths and line breaks stay, so every position the parse reports is the file's own; a
//! name or signature that held such a character shows `_`s instead. Files of the other
//! languages, and Bash files without the pattern, are parsed as they are, without a copy.

use std::borrow::Cow;

use crate::Language;

/// The bytes to parse for `source` in `language`.
pub(crate) fn for_parser(language: Language, source: &[u8]) -> Cow<'_, [u8]> {
    if language == Language::CSharp {
        return verbatim_quotes(source);
    }
    if language == Language::TypeScript {
        return call_signature_breaks(source);
    }
    if language != Language::Bash {
        return Cow::Borrowed(source);
    }
    let mut shielded: Option<Vec<u8>> = None;
    for brace in source
        .iter()
        .enumerate()
        .filter_map(|(i, &b)| (b == b'{').then_some(i))
    {
        for at in digit_tests(source, brace) {
            let width = wide_char_width(&source[at..]);
            if width > 0 {
                let bytes = shielded.get_or_insert_with(|| source.to_vec());
                bytes[at..at + width].fill(b'_');
            }
        }
    }
    shielded.map_or(Cow::Borrowed(source), Cow::Owned)
}

/// The escaped quotes (`""`) of C# verbatim strings (`@"…"`, `$@"…"`, `@$"…"`): the grammar
/// reads some as a raw string's `"""` (`$@"""{stringValue}"""`, efcore's `ExpressionPrinter`)
/// and the rest of the file as its text, so every member after it was lost (the class had
/// none, its methods no owner). Each escaped quote's two bytes become `_`: the string's text
/// is never shown (literals are hidden), and lengths stay.
fn verbatim_quotes(source: &[u8]) -> Cow<'_, [u8]> {
    let mut out: Option<Vec<u8>> = None;
    let mut i = 0;
    while let Some(at) = source[i..].windows(2).position(|w| w == b"@\"") {
        let open = i + at + 1;
        let verbatim =
            open < 2 || !crate::text::is_word_byte(source[open - 2]) || source[open - 2] == b'$';
        let mut j = open + 1;
        while j < source.len() {
            match (source[j], source.get(j + 1)) {
                (b'"', Some(b'"')) => {
                    if verbatim {
                        let bytes = out.get_or_insert_with(|| source.to_vec());
                        bytes[j..j + 2].fill(b'_');
                    }
                    j += 2;
                }
                (b'"', _) => break,
                _ => j += 1,
            }
        }
        i = j + 1;
        if i >= source.len() {
            break;
        }
    }
    out.map_or(Cow::Borrowed(source), Cow::Owned)
}

/// Generic call signatures on lines of their own in a TypeScript interface or type literal
/// written without semicolons (immer's `IProduce`):
///
/// ```text
///     <C>(recipe: C): C
///     <R extends Function>(
/// ```
///
/// The grammar reads the line break as no separator, `C<R extends …` as a type with
/// arguments, fails, and its recovery lost every declaration after it in the file (without a
/// parse error to say so). Where such a line (indented, `<` and a type parameter) follows one
/// that ends a type (a word, `)`, `]` or `>`, no comment), its indentation's last byte
/// becomes `;`, the separator the author left out: lengths and line breaks stay. Not for
/// `.tsx`, where a line opening with `<` is an element.
fn call_signature_breaks(source: &[u8]) -> Cow<'_, [u8]> {
    let mut out: Option<Vec<u8>> = None;
    let mut previous_end: Option<u8> = None;
    let mut previous_comment = false;
    let mut start = 0;
    while start < source.len() {
        let end = source[start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(source.len(), |i| start + i);
        let line = &source[start..end];
        let indent = line
            .iter()
            .take_while(|b| matches!(b, b' ' | b'\t'))
            .count();
        let rest = &line[indent..];
        // The list may start on the next line (`<` alone, as formatters break a long one:
        // hono's `CreateHandlersInterface`).
        let opens = |after: &[u8]| match after.trim_ascii() {
            b"" => {
                let next = source[(end + 1).min(source.len())..]
                    .split(|&b| b == b'\n')
                    .next()
                    .unwrap_or_default();
                opens_type_parameters(next.trim_ascii())
            }
            _ => opens_type_parameters(after),
        };
        if indent > 0
            && rest.first() == Some(&b'<')
            && opens(&rest[1..])
            && !previous_comment
            && previous_end
                .is_some_and(|b| crate::text::is_word_byte(b) || matches!(b, b')' | b']' | b'>'))
        {
            let bytes = out.get_or_insert_with(|| source.to_vec());
            bytes[start + indent - 1] = b';';
        }
        let trimmed = rest.trim_ascii_end();
        // A line of comment alone (`// handler x2` before each of hono's signatures) leaves
        // the line before it the one that ends a type.
        let comment_alone =
            trimmed.starts_with(b"//") || (trimmed.starts_with(b"/*") && trimmed.ends_with(b"*/"));
        if let Some(&last) = trimmed.last().filter(|_| !comment_alone) {
            previous_end = Some(last);
            previous_comment = trimmed.starts_with(b"//")
                || trimmed.starts_with(b"*")
                || trimmed.ends_with(b"*/")
                || trimmed.windows(2).any(|w| w == b"//");
        }
        start = end + 1;
    }
    out.map_or(Cow::Borrowed(source), Cow::Owned)
}

/// Whether `rest` (after a `<`) opens a type parameter list: a name, then `extends`, `,`,
/// `=` or `>`.
fn opens_type_parameters(rest: &[u8]) -> bool {
    let name = rest
        .iter()
        .take_while(|&&b| crate::text::is_word_byte(b) || b == b'$')
        .count();
    if name == 0 || rest[0].is_ascii_digit() {
        return false;
    }
    let after = &rest[name..];
    let spaced = after.trim_ascii_start();
    spaced.starts_with(b"extends ")
        || spaced
            .first()
            .is_some_and(|b| matches!(b, b',' | b'=' | b'>'))
}

/// The offsets (at most two) whose character the Bash scanner hands to `isdigit` when it
/// tries a brace range at the `{` at `brace`: after the brace and its digits, and, when
/// `..` follows them, after the `..` and its digits.
fn digit_tests(source: &[u8], brace: usize) -> impl Iterator<Item = usize> {
    let after_digits = |from: usize| {
        from + source.get(from..).map_or(0, |rest| {
            rest.iter().take_while(|b| b.is_ascii_digit()).count()
        })
    };
    let first = after_digits(brace + 1);
    let second = (source.get(first..first + 2) == Some(b"..")).then(|| after_digits(first + 2));
    let len = source.len();
    std::iter::once(first)
        .chain(second)
        .filter(move |&at| at < len)
}

/// How many bytes the character at the start of `bytes` spans when the lexer could decode
/// it to a code point of U+0100 or above (a UTF-8 lead byte of 0xC4 or more, and the
/// continuation bytes after it); 0 otherwise. Malformed sequences count too: what the
/// lexer cannot decode it reads as an error, which is harmless, but nothing here depends
/// on telling the two apart.
fn wide_char_width(bytes: &[u8]) -> usize {
    match bytes.first() {
        Some(&lead) if lead >= 0xC4 => {
            1 + bytes[1..]
                .iter()
                .take(3)
                .take_while(|&&b| (0x80..=0xBF).contains(&b))
                .count()
        }
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verbatim_strings_escaped_quotes_become_word_bytes() {
        let cases: [(&[u8], &[u8]); 6] = [
            (b"x = $@\"\"\"{v}\"\"\";", b"x = $@\"__{v}__\";"),
            (b"@\"a\"\"b\" + \"c\"\"\"", b"@\"a__b\" + \"c\"\"\""),
            (b"s = \"mail@\"; t = \"\";", b"s = \"mail@\"; t = \"\";"),
            (b"unterminated @\"abc\"\"", b"unterminated @\"abc__"),
            (b"@", b"@"),
            (b"ends @\"", b"ends @\""),
        ];
        for (source, want) in cases {
            let got = for_parser(Language::CSharp, source);
            assert_eq!(
                String::from_utf8_lossy(&got),
                String::from_utf8_lossy(want),
                "{}",
                String::from_utf8_lossy(source)
            );
            assert_eq!(got.len(), source.len());
        }
    }

    /// The code points the Bash scanner would hand to `isdigit` in `source`, read as it reads
    /// them: from every `{`, past ASCII digits, then, past `..` and digits again.
    fn digit_tested(source: &[u8]) -> Vec<u32> {
        let text = String::from_utf8_lossy(source);
        let chars: Vec<char> = text.chars().collect();
        let mut tested = Vec::new();
        for (i, _) in chars.iter().enumerate().filter(|(_, &c)| c == '{') {
            let mut j = i + 1;
            while chars.get(j).is_some_and(char::is_ascii_digit) {
                j += 1;
            }
            let Some(&c) = chars.get(j) else { continue };
            tested.push(u32::from(c));
            if c != '.' || chars.get(j + 1) != Some(&'.') {
                continue;
            }
            j += 2;
            while chars.get(j).is_some_and(char::is_ascii_digit) {
                j += 1;
            }
            if let Some(&c) = chars.get(j) {
                tested.push(u32::from(c));
            }
        }
        tested
    }

    #[test]
    fn no_wide_character_reaches_isdigit_and_nothing_else_changes() {
        let wide = ['\u{100}', 'é', '→', '\u{31860}', '\u{10FFFD}', '😀'];
        let around = ["{", "{12", "{1..", "{1..23", "x {", "{{", "{..", "{9.."];
        for c in wide {
            for before in around {
                let source = format!("{before}{c}}} tail é→\n");
                let shielded = for_parser(Language::Bash, source.as_bytes());
                assert_eq!(shielded.len(), source.len(), "{source:?}");
                assert!(
                    digit_tested(&shielded).iter().all(|&cp| cp < 0x100),
                    "{source:?} -> {:?}",
                    String::from_utf8_lossy(&shielded)
                );
                // Only the character at the tested place changed.
                let kept = String::from_utf8_lossy(&shielded);
                assert!(
                    kept.starts_with(before) && kept.ends_with("} tail é→\n"),
                    "{kept:?}"
                );
            }
        }
    }

    #[test]
    fn other_languages_and_harmless_bash_are_not_copied() {
        let source = "f() {\n  echo \"😀\" {1..9} \"{ é}\"\n}\n".as_bytes();
        assert!(matches!(
            for_parser(Language::Bash, source),
            Cow::Borrowed(_)
        ));
        let risky = "{😀}".as_bytes();
        assert!(matches!(for_parser(Language::Bash, risky), Cow::Owned(_)));
        assert!(matches!(for_parser(Language::Php, risky), Cow::Borrowed(_)));
    }

    #[test]
    fn malformed_and_truncated_sequences_are_covered() {
        for source in [
            &b"{\xF4"[..],
            b"{\xF0\x9F",
            b"{\xF0\x9F\x98\x80\x80",
            b"{1..\xC4",
        ] {
            let shielded = for_parser(Language::Bash, source);
            assert!(!shielded.iter().any(|&b| b >= 0xC4), "{source:?}");
            assert_eq!(shielded.len(), source.len());
        }
    }
}
