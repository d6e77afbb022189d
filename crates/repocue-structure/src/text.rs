//! Text helpers: signature assembly, identifier checks and line lookup.

use std::ops::Range;

/// Maximum signature length in characters, the ellipsis included.
pub(crate) const MAX_SIGNATURE_CHARS: usize = 300;

/// What a hole in a signature's source range stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Hole {
    /// Left out without a trace (comments, annotations): a space only where it separates
    /// two identifier characters.
    Gap,
    /// An elided body, shown as `{ … }`.
    Body,
    /// A literal value or an initialiser, shown as `…`: signatures never carry the values
    /// written in code (they may be secrets).
    Value,
    /// A string that is no value, shown as written (on one line): a Python annotation's
    /// forward reference, `-> "Console"`.
    Verbatim,
}

/// Builds a signature from `source[range]`, leaving out the `holes` (comments, annotations,
/// elided bodies, literal values; sorted by start, inside `range`; a hole inside an earlier
/// one is skipped).
///
/// Whitespace runs collapse to one space (none just inside `(`/`[` … `)`/`]`); a hole
/// is shown as its [`Hole`] kind says. Trailing `{`, `:`, `;`, `,`
/// and `=` are trimmed. Returns the signature and the byte offset of its first character
/// (`None` when the signature is empty).
pub(crate) fn signature(
    source: &[u8],
    range: Range<usize>,
    holes: &[(Range<usize>, Hole)],
) -> (String, Option<usize>) {
    let mut builder = Builder::default();
    let mut cursor = range.start;
    for (hole, kind) in holes {
        if hole.start < cursor || hole.start >= range.end {
            // Inside an earlier hole, or past the end.
            continue;
        }
        let end = hole.start.min(range.end);
        if cursor < end {
            builder.push(source, cursor..end);
        }
        match kind {
            Hole::Body if !builder.out.is_empty() => {
                builder.out.push_str(" { … }");
                builder.pending_space = true;
            }
            Hole::Value => builder.push_text("…", hole.start),
            Hole::Verbatim => {
                let text = String::from_utf8_lossy(&source[hole.clone()]);
                let one_line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
                builder.push_text(&one_line, hole.start);
            }
            _ => builder.pending_separator = !builder.out.is_empty(),
        }
        cursor = cursor.max(hole.end);
    }
    if cursor < range.end {
        builder.push(source, cursor..range.end);
    }
    let mut out = builder.out;
    let trimmed = out.trim_end_matches(|c: char| c.is_whitespace() || "{:;,=".contains(c));
    out.truncate(trimmed.len());
    (truncate(out), builder.first)
}

/// Accumulates signature text with whitespace collapsed.
#[derive(Default)]
struct Builder {
    out: String,
    first: Option<usize>,
    pending_space: bool,
    pending_separator: bool,
    /// Inside a `"…"` or `` `…` `` run the grammar did not recognise as a literal (error
    /// recovery): its closing quote, and whether the previous character was a backslash.
    quote: Option<(char, bool)>,
}

impl Builder {
    /// Appends `text`, which stands for source starting at byte `offset`, as one token.
    fn push_text(&mut self, text: &str, offset: usize) {
        if self.pending_space {
            let prev = self.out.chars().next_back();
            if !matches!(prev, Some('(' | '[')) {
                self.out.push(' ');
            }
            self.pending_space = false;
        }
        self.pending_separator = false;
        self.first.get_or_insert(offset);
        self.out.push_str(text);
    }

    /// Appends `source[piece]`.
    fn push(&mut self, source: &[u8], piece: Range<usize>) {
        let text = String::from_utf8_lossy(&source[piece.clone()]);
        let mut chars = text.char_indices().peekable();
        let mut prev = self.out.chars().next_back();
        let mut skip_until = 0;
        while let Some((index, c)) = chars.next() {
            let before = prev.replace(c);
            if index < skip_until {
                continue;
            }
            // Literal nodes are holes already; a quote left in the text comes from a misparse
            // and what follows it up to the closing quote is a value all the same.
            if let Some((close, escaped)) = self.quote {
                self.quote = match (escaped, c) {
                    (false, '\\') => Some((close, true)),
                    (false, c) if c == close => None,
                    _ => Some((close, false)),
                };
                continue;
            }
            if c == '"' || c == '`' {
                self.push_text("…", piece.start + index);
                self.quote = Some((c, false));
                continue;
            }
            // Likewise a long number the grammar did not see as one (a shell word).
            if c.is_ascii_digit() && !before.is_some_and(is_word_char) {
                let rest = &text[index..];
                let run = rest
                    .find(|ch: char| !(is_word_char(ch) || ch == '.'))
                    .unwrap_or(rest.len());
                if rest[..run].chars().count() > crate::lang::MAX_KEPT_NUMBER_CHARS {
                    self.push_text("…", piece.start + index);
                    skip_until = index + run;
                    continue;
                }
            }
            // A backslash-newline (C macro continuation) is whitespace too.
            let continuation = c == '\\' && matches!(chars.peek(), Some((_, '\n' | '\r')));
            if c.is_whitespace() || continuation {
                self.pending_space = !self.out.is_empty();
                continue;
            }
            if self.pending_separator {
                let prev = self.out.chars().next_back();
                if prev.is_some_and(is_word_char) && is_word_char(c) {
                    self.pending_space = true;
                }
                self.pending_separator = false;
            }
            if self.pending_space {
                // No space just inside brackets, and no comma a line break leaves before
                // the closing one: `f(\n  a,\n)` reads `f(a)` (rich's `def bar(a: Any,)`).
                // A comma right before it stays: `(u32,)` is a Rust tuple of one.
                let prev = self.out.chars().next_back();
                if matches!(c, ')' | ']') && prev == Some(',') {
                    self.out.pop();
                } else if !matches!(prev, Some('(' | '[')) && !matches!(c, ')' | ']') {
                    self.out.push(' ');
                }
                self.pending_space = false;
            }
            if self.first.is_none() {
                // Exact for valid UTF-8; lossy text can only drift within this piece.
                self.first = Some((piece.start + index).min(piece.end.saturating_sub(1)));
            }
            self.out.push(c);
        }
    }
}

/// Cuts `text` to [`MAX_SIGNATURE_CHARS`] characters, ending with `…` when cut.
pub(crate) fn truncate(mut text: String) -> String {
    if let Some((cut, _)) = text.char_indices().nth(MAX_SIGNATURE_CHARS - 1) {
        if text[cut..].chars().count() > 1 {
            text.truncate(cut);
            text.push('…');
        }
    }
    text
}

/// Collapses whitespace runs in `text` to single spaces and trims it.
pub(crate) fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether a byte belongs to a word of code: an ASCII letter, digit or `_`.
pub(crate) fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The length of the macro name `bytes` start with, if they start with one as C and C++
/// libraries spell them: capitals, digits and `_`, with a `_` and a capital, at least three
/// long (`FMT_BEGIN_EXPORT`, `Q_OBJECT`, `__BEGIN_DECLS`; not `BOOL`, `T`, `Py_BEGIN`).
pub(crate) fn macro_name_len(bytes: &[u8]) -> Option<usize> {
    let len = bytes
        .iter()
        .position(|b| !(b.is_ascii_uppercase() || b.is_ascii_digit() || *b == b'_'))
        .unwrap_or(bytes.len());
    let name = &bytes[..len];
    let named = len >= 3
        && !bytes.get(len).copied().is_some_and(is_word_byte)
        && name.contains(&b'_')
        && name.iter().any(u8::is_ascii_uppercase)
        && !name[0].is_ascii_digit();
    named.then_some(len)
}

/// The first position at or after `from` that holds no ASCII whitespace.
pub(crate) fn skip_space(source: &[u8], from: usize) -> usize {
    let mut i = from;
    while source.get(i).is_some_and(u8::is_ascii_whitespace) {
        i += 1;
    }
    i
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

/// Whether `name` looks like a plain identifier (`foo`, `$x`, `empty?`, `save!`).
pub(crate) fn is_identifier(name: &str) -> bool {
    let body = name.strip_suffix(['?', '!']).unwrap_or(name);
    let mut chars = body.chars();
    chars
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_' || c == '$')
        && chars.all(is_word_char)
}

/// Maps byte offsets to 1-based line numbers.
pub(crate) struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    /// Indexes the line starts of `source`.
    pub(crate) fn new(source: &[u8]) -> Self {
        let mut starts = vec![0];
        starts.extend(
            source
                .iter()
                .enumerate()
                .filter(|(_, &b)| b == b'\n')
                .map(|(i, _)| i + 1),
        );
        LineIndex { starts }
    }

    /// The 1-based line holding byte `offset`.
    pub(crate) fn line(&self, offset: usize) -> u32 {
        let line = match self.starts.binary_search(&offset) {
            Ok(i) => i + 1,
            Err(i) => i,
        };
        u32::try_from(line).unwrap_or(u32::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signature_skips_holes_and_collapses() {
        let src = b"int/*c*/foo(/* a */ int a,\n    int b /* b */) {\n}";
        let holes = [
            (3..8, Hole::Gap),
            (12..19, Hole::Gap),
            (37..44, Hole::Gap),
            (46..49, Hole::Gap),
        ];
        let (sig, first) = signature(src, 0..src.len(), &holes);
        assert_eq!(sig, "int foo(int a, int b)");
        assert_eq!(first, Some(0));
    }

    #[test]
    fn signature_elides_inner_bodies() {
        let src = b"typedef struct n { int a; } n_t;";
        let (sig, _) = signature(src, 0..src.len(), &[(17..27, Hole::Body)]);
        assert_eq!(sig, "typedef struct n { … } n_t");
    }

    #[test]
    fn signature_shows_values_as_ellipses() {
        let src = br#"const KEY: &str = "sk-1" ;"#;
        let holes = [(18..24, Hole::Value), (19..23, Hole::Value)];
        let (sig, _) = signature(src, 0..src.len(), &holes);
        assert_eq!(sig, "const KEY: &str = …");
        let src = b"f(a=\"x\",b='y')";
        let holes = [(4..7, Hole::Value), (10..13, Hole::Value)];
        let (sig, first) = signature(src, 0..src.len(), &holes);
        assert_eq!(sig, "f(a=…,b=…)");
        assert_eq!(first, Some(0));
        let (sig, first) = signature(b"\"x\" y", 0..5, &[(0..3, Hole::Value)]);
        assert_eq!((sig.as_str(), first), ("… y", Some(0)));
        // Quotes the grammar did not see as a literal (a misparse) hide their content too.
        let src = br#"f "a\"b" `c` "open"#;
        let (sig, _) = signature(src, 0..src.len(), &[]);
        assert_eq!(sig, "f … … …");
        let src = b"f() 123456789 0x7fffffff x12345 [u8; 32] 1.5";
        let (sig, _) = signature(src, 0..src.len(), &[]);
        assert_eq!(sig, "f() … … x12345 [u8; 32] 1.5");
    }

    #[test]
    fn truncation_is_char_safe() {
        let long = "é".repeat(400);
        let cut = truncate(long);
        assert_eq!(cut.chars().count(), MAX_SIGNATURE_CHARS);
        assert!(cut.ends_with('…'));
        let exact = "x".repeat(MAX_SIGNATURE_CHARS);
        assert_eq!(truncate(exact.clone()), exact);
    }

    #[test]
    fn identifiers() {
        assert!(is_identifier("foo_bar1"));
        assert!(is_identifier("empty?"));
        assert!(!is_identifier("a.b"));
        assert!(!is_identifier("1x"));
        assert!(!is_identifier(""));
    }

    #[test]
    fn lines() {
        let index = LineIndex::new(b"a\nbc\n\nd");
        assert_eq!(index.line(0), 1);
        assert_eq!(index.line(2), 2);
        assert_eq!(index.line(5), 3);
        assert_eq!(index.line(6), 4);
    }
}
