//! Rust's configuration macros around items, unwrapped before parsing.
//!
//! A crate that compiles parts of itself by feature wraps them in macros of its own,
//! `cfg_rt! { pub fn spawn… }` (tokio defines most of its API so: `Runtime`, `spawn`,
//! `JoinHandle`). The grammar reads a macro's body as a token tree, not as items, so whatever
//! it defines was lost. A macro named `cfg_…` whose body is braced is taken for what it
//! conventionally is, items under a condition: its name, `!` and the braces become spaces, so
//! the items parse as the file's own. Lengths and line breaks stay, so every position the parse
//! reports is the file's own. `cfg_if!` and `cfg_match!`, whose bodies are conditions, are
//! left as they are, and so is a file without such a macro (no copy is made).

use std::borrow::Cow;

use crate::text::{is_word_byte, skip_space};

/// The bytes to parse for a Rust `source`: the `cfg_…! {` and `}` around items blanked.
pub(crate) fn unwrapped(source: &[u8]) -> Cow<'_, [u8]> {
    let mut out: Option<Vec<u8>> = None;
    let mut lexer = Lexer { source, at: 0 };
    // Each macro's body is read once more to find its end; nested ones are read again. A file
    // built to nest thousands (or to leave them open) would cost quadratic time: past a few
    // readings of the file, it is parsed as it is.
    let mut budget = source.len().saturating_mul(WORK_PER_BYTE);
    while let Some(start) = lexer.next_macro() {
        let (read, body) = match braced_body(source, start) {
            Body::None => continue,
            Body::Unclosed => (source.len() - start, None),
            Body::Closed(open, close) => (close - start, Some((open, close))),
        };
        budget = match budget.checked_sub(read) {
            Some(left) => left,
            None => return Cow::Borrowed(source),
        };
        let Some((open, close)) = body else {
            continue;
        };
        let bytes = out.get_or_insert_with(|| source.to_vec());
        let (head, tail) = bytes.split_at_mut(close);
        for b in head[start..=open].iter_mut().chain(tail[..1].iter_mut()) {
            // Line breaks stay where they are (`cfg_rt!` and its brace may be lines apart).
            if !matches!(*b, b'\n' | b'\r') {
                *b = b' ';
            }
        }
    }
    out.map_or(Cow::Borrowed(source), Cow::Owned)
}

/// How many times over the macros' bodies may be read, in bytes of the file.
const WORK_PER_BYTE: usize = 8;

/// Macros named `cfg_…` whose bodies are not items.
const NOT_ITEMS: &[&[u8]] = &[b"cfg_if", b"cfg_match"];

/// What stands at a word `cfg_…`: no configuration macro with a braced body, one whose body
/// does not close, or one with the positions of its opening and closing braces.
enum Body {
    None,
    Unclosed,
    Closed(usize, usize),
}

/// The [`Body`] of the macro whose name starts at `start` (`cfg_rt! {`).
fn braced_body(source: &[u8], start: usize) -> Body {
    let Some(len) = source[start..].iter().position(|b| !is_word_byte(*b)) else {
        return Body::None;
    };
    let name = &source[start..start + len];
    if !name.starts_with(b"cfg_") || NOT_ITEMS.contains(&name) {
        return Body::None;
    }
    let bang = skip_space(source, start + len);
    if source.get(bang) != Some(&b'!') {
        return Body::None;
    }
    let open = skip_space(source, bang + 1);
    if source.get(open) != Some(&b'{') {
        return Body::None;
    }
    let mut lexer = Lexer {
        source,
        at: open + 1,
    };
    let mut depth = 1usize;
    while let Some(b) = lexer.next_code_byte() {
        match b {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Body::Closed(open, lexer.at - 1);
                }
            }
            _ => {}
        }
    }
    Body::Unclosed
}

/// A walk over Rust source that steps over comments, strings and character literals.
struct Lexer<'s> {
    source: &'s [u8],
    at: usize,
}

impl Lexer<'_> {
    /// The start of the next word `cfg_…` at the start of a line (after indentation), outside
    /// comments and strings: where an item-level macro invocation stands.
    fn next_macro(&mut self) -> Option<usize> {
        loop {
            let before = self.at;
            self.next_code_byte()?;
            let start = self.at - 1;
            if start != before || !self.source[start..].starts_with(b"cfg_") {
                continue;
            }
            let line_start = self.source[..start]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            if self.source[line_start..start]
                .iter()
                .all(|b| *b == b' ' || *b == b'\t')
            {
                return Some(start);
            }
        }
    }

    /// The next byte of code, past any comment, string or character literal in the way;
    /// `None` at the end.
    fn next_code_byte(&mut self) -> Option<u8> {
        loop {
            let s = self.source;
            let b = *s.get(self.at)?;
            let next = s.get(self.at + 1).copied();
            match (b, next) {
                (b'/', Some(b'/')) => {
                    self.at = s[self.at..]
                        .iter()
                        .position(|&c| c == b'\n')
                        .map_or(s.len(), |i| self.at + i);
                }
                (b'/', Some(b'*')) => self.block_comment(),
                (b'"', _) => self.string(self.at + 1, 0, false),
                (b'r' | b'b', _) if !self.after_word() && self.raw_string() => {}
                (b'\'', _) => self.char_or_lifetime(),
                _ => {
                    self.at += 1;
                    return Some(b);
                }
            }
        }
    }

    fn after_word(&self) -> bool {
        self.at > 0 && is_word_byte(self.source[self.at - 1])
    }

    /// Steps over a (nested) block comment starting at `self.at`.
    fn block_comment(&mut self) {
        let s = self.source;
        let mut depth = 0usize;
        let mut i = self.at;
        while i + 1 < s.len() {
            if s[i] == b'/' && s[i + 1] == b'*' {
                depth += 1;
                i += 2;
            } else if s[i] == b'*' && s[i + 1] == b'/' {
                depth -= 1;
                i += 2;
                if depth == 0 {
                    self.at = i;
                    return;
                }
            } else {
                i += 1;
            }
        }
        self.at = s.len();
    }

    /// Steps over a string whose content starts at `from`, closed by `"` and `hashes` `#`s; a
    /// backslash escapes the next byte unless the string is `raw`.
    fn string(&mut self, from: usize, hashes: usize, raw: bool) {
        let s = self.source;
        let mut i = from;
        while i < s.len() {
            match s[i] {
                b'\\' if !raw => i += 2,
                b'"' if s[i + 1..]
                    .iter()
                    .take(hashes)
                    .filter(|&&c| c == b'#')
                    .count()
                    == hashes =>
                {
                    self.at = i + 1 + hashes;
                    return;
                }
                _ => i += 1,
            }
        }
        self.at = s.len();
    }

    /// Steps over `r"…"`, `r#"…"#`, `b"…"` or `br#"…"#` at `self.at`, if one starts there.
    fn raw_string(&mut self) -> bool {
        let s = self.source;
        let mut i = self.at;
        if s[i] == b'b' {
            i += 1;
        }
        let raw = s.get(i) == Some(&b'r');
        if raw {
            i += 1;
        }
        let hashes = s[i.min(s.len())..]
            .iter()
            .take_while(|&&c| c == b'#')
            .count();
        if s.get(i + hashes) != Some(&b'"') || (!raw && hashes > 0) || i == self.at {
            return false;
        }
        self.string(i + hashes + 1, hashes, raw);
        true
    }

    /// Steps over a character literal (`'x'`, `'\n'`, `'\u{2764}'`, `'é'`) or a lifetime's
    /// quote (`'a`).
    fn char_or_lifetime(&mut self) {
        let s = self.source;
        let i = self.at + 1;
        if s.get(i) == Some(&b'\\') {
            // An escape (`'\''` too): past the escaped byte, up to the closing quote.
            let from = (i + 2).min(s.len());
            self.at = s[from..]
                .iter()
                .position(|&c| c == b'\'')
                .map_or(s.len(), |p| from + p + 1);
            return;
        }
        let width = s.get(i).map_or(1, |&c| utf8_width(c));
        if s.get(i + width) == Some(&b'\'') {
            self.at = i + width + 1;
        } else {
            self.at = i;
        }
    }
}

fn utf8_width(first: u8) -> usize {
    match first {
        0xF0..=0xF7 => 4,
        0xE0..=0xEF => 3,
        0xC0..=0xDF => 2,
        _ => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unwrap(source: &str) -> String {
        String::from_utf8(unwrapped(source.as_bytes()).into_owned()).expect("UTF-8 stays")
    }

    #[test]
    fn a_cfg_macro_around_items_is_blanked_and_nothing_else() {
        let source = "cfg_rt! {\n    pub fn spawn() { let s = \"}\"; let c = '}'; }\n}\n\nfn after<'a>(x: &'a str) {}\n";
        let out = unwrap(source);
        assert_eq!(out.len(), source.len());
        assert_eq!(out.lines().count(), source.lines().count());
        assert_eq!(
            out,
            "         \n    pub fn spawn() { let s = \"}\"; let c = '}'; }\n \n\nfn after<'a>(x: &'a str) {}\n"
        );
        // Indented, nested, with comments and raw strings in the body.
        let nested = "impl Runtime {\n    cfg_net! {\n        /* } */ // }\n        pub fn bind() { let r = r#\"}\"#; }\n    }\n}\n";
        let out = unwrap(nested);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), nested.lines().count());
        assert!(lines[1].trim().is_empty(), "{out:?}");
        assert_eq!(lines[2], "        /* } */ // }");
        assert!(lines[4].trim().is_empty(), "{out:?}");
        assert_eq!(lines[5], "}");
        assert_eq!(out.len(), nested.len());
        // The name and its brace lines apart, an escaped quote in the body.
        let apart = "cfg_io!\n{\n    const Q: char = '\\'';\n    pub struct Io;\n}\n";
        let out = unwrap(apart);
        assert_eq!(
            out,
            "       \n \n    const Q: char = '\\'';\n    pub struct Io;\n \n"
        );
    }

    #[test]
    fn thousands_of_nested_macros_are_parsed_as_they_are() {
        let n = 5_000;
        let source = format!("{}{}", "cfg_a! {\n".repeat(n), "}\n".repeat(n));
        assert!(matches!(unwrapped(source.as_bytes()), Cow::Borrowed(_)));
        // A few nested ones are unwrapped.
        let few = format!("{}{}", "cfg_a! {\n".repeat(3), "}\n".repeat(3));
        assert!(unwrap(&few).trim().is_empty());
        // Thousands left open are read a few times over at most, then left as they are.
        let open = "cfg_a! {\n".repeat(n);
        assert!(matches!(unwrapped(open.as_bytes()), Cow::Borrowed(_)));
    }

    #[test]
    fn other_macros_and_unclosed_bodies_are_left_alone() {
        for source in [
            "cfg_if::cfg_if! {\n    if #[cfg(unix)] { mod unix; } else { mod other; }\n}\n",
            "cfg_if! {\n    if #[cfg(unix)] { mod unix; }\n}\n",
            "lazy_static! {\n    static ref X: u8 = 1;\n}\n",
            "let x = cfg_rt! { 1 };\n",
            "cfg_rt! {\n    pub fn spawn() {\n",
            "// cfg_rt! {\nfn f() {}\n",
            "cfg_rt!(pub fn spawn() {});\n",
        ] {
            assert!(
                matches!(unwrapped(source.as_bytes()), Cow::Borrowed(_)),
                "{source}"
            );
        }
    }
}
