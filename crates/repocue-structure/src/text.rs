//! Text helpers: signature assembly, identifier checks and line lookup.

use std::ops::Range;

/// Maximum signature length in characters, the ellipsis included.
pub(crate) const MAX_SIGNATURE_CHARS: usize = 300;

/// How many characters of a cut signature's end are kept after its `…`: the last parameters
/// and the return type, where a signature changes as often as at its start.
const KEPT_END_CHARS: usize = 99;

/// How far back (forward, at the end) a cut looks for a space to fall on, in characters.
const WORD_SLACK: usize = 40;

/// What a hole in a signature's source range stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Hole {
    /// Left out without a trace (comments): a space only where it separates two identifier
    /// characters.
    Gap,
    /// An annotation, attribute or decorator: left out as a gap is, and hashed as a literal
    /// value is, so that a changed one is a changed signature (spring-petclinic's
    /// `@RequestParam(defaultValue = "1") int page` becoming `"2"` was no change at all).
    Mark,
    /// An elided body, shown as `{ … }`.
    Body,
    /// A literal value, shown as `…`: signatures never carry the values written in code
    /// (they may be secrets).
    Value,
    /// A constant's, variable's or field's initialiser, shown as `…` like a value.
    Initializer,
    /// An initialiser that is a plain value (no function, lambda or block in it): shown as
    /// `…`, and hashed as a literal value is, so that a new value is a changed signature
    /// (Polly's `MaxRetryAttempts { get; set; } = 3` becoming `5`, chi's `RequestIDHeader`).
    Setting,
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
            Hole::Value | Hole::Initializer | Hole::Setting => builder.push_text("…", hole.start),
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
    (out, builder.first)
}

/// Accumulates signature text with whitespace collapsed.
#[derive(Default)]
struct Builder {
    out: String,
    first: Option<usize>,
    pending_space: bool,
    /// The white space pending holds a line break.
    pending_break: bool,
    pending_separator: bool,
    /// Inside a `"…"` or `` `…` `` run the grammar did not recognise as a literal (error
    /// recovery): its closing quote, and whether the previous character was a backslash.
    quote: Option<(char, bool)>,
    /// How many `{` of the source the text has open.
    braces: usize,
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
            self.pending_break = false;
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
                // Not after an attribute left out right after an opening bracket or a dot:
                // C#'s `AddRetry<[DynamicallyAccessedMembers(…)] TResult>` read
                // `AddRetry< TResult>`, Java's `Conn.@Nullable Response` `Conn. Response`.
                let opened = matches!(self.out.chars().next_back(), Some('<' | '(' | '[' | '.'));
                let after_left_out = self.pending_separator && opened;
                self.pending_space = !(self.out.is_empty() || after_left_out);
                self.pending_break |= self.pending_space && c == '\n';
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
                // So too for angle brackets a line break opens or closes (a generic parameter
                // list laid out one per line: tracing's `Subscriber<\n    N = A,\n>` read
                // `Subscriber< N = A, >`); on one line, `<` and `>` may compare.
                let prev = self.out.chars().next_back();
                let (opens, closes) = match self.pending_break {
                    true => (
                        matches!(prev, Some('(' | '[' | '<')),
                        matches!(c, ')' | ']' | '>'),
                    ),
                    false => (matches!(prev, Some('(' | '[')), matches!(c, ')' | ']')),
                };
                // A line break between two members of a type written in braces is their
                // separator (a TypeScript object type without semicolons, a Go struct's
                // fields): `{ children?: string; store?: number }`, valid in both, not
                // `{ children?: string store?: number }`.
                let member_break = self.pending_break
                    && self.braces > 0
                    && prev.is_some_and(|p| is_word_char(p) || matches!(p, ')' | ']' | '>' | '…'))
                    && (is_word_char(c) || matches!(c, '[' | '\'' | '#'));
                if closes && prev == Some(',') {
                    self.out.pop();
                } else if member_break {
                    self.out.push_str("; ");
                } else if !opens && !closes {
                    self.out.push(' ');
                }
                self.pending_space = false;
                self.pending_break = false;
            }
            if self.first.is_none() {
                // Exact for valid UTF-8; lossy text can only drift within this piece.
                self.first = Some((piece.start + index).min(piece.end.saturating_sub(1)));
            }
            match c {
                '{' => self.braces += 1,
                '}' => self.braces = self.braces.saturating_sub(1),
                _ => {}
            }
            self.out.push(c);
        }
    }
}

/// Cuts `text` to at most [`MAX_SIGNATURE_CHARS`] characters: its start and its last
/// [`KEPT_END_CHARS`] (the return type, the last parameters), joined by `…`, each cut on a
/// space when one is near. Returns the text and, when it was cut, a hash of the whole, so
/// that a change in the part left out still tells two signatures apart (typer's `Option`,
/// forty parameters long, changed its return type without a trace in the delta).
pub(crate) fn cut(text: String) -> (String, Option<u32>) {
    let chars = text.chars().count();
    if chars <= MAX_SIGNATURE_CHARS {
        return (text, None);
    }
    let byte_at = |n: usize| text.char_indices().nth(n).map_or(text.len(), |(i, _)| i);
    let char_of = |byte: usize| text[..byte].chars().count();
    // Between parameters when a list's comma is near: `…, transient: bool = False, … ` and
    // never `… object = None` (rich's `track` read as a parameter named `object`), nor `… = …
    // ((resolvedPlugins`, a long last parameter cut through its name (vite's `resolveConfig`):
    // the tail may start up to [`PARAMETER_SLACK`] characters earlier at a comma, the head
    // then ending as much earlier.
    let commas = parameter_commas(&text);
    let tail_start = byte_at(chars - KEPT_END_CHARS);
    let tail_ceiling = byte_at(chars - KEPT_END_CHARS + PARAMETER_SLACK);
    let tail_floor = byte_at((chars - KEPT_END_CHARS).saturating_sub(PARAMETER_SLACK));
    let tail_comma = commas
        .iter()
        .find(|&&c| c >= tail_start && c + 2 <= tail_ceiling)
        .or_else(|| {
            commas
                .iter()
                .rev()
                .find(|&&c| c >= tail_floor && c < tail_start)
        });
    let tail_start = match tail_comma {
        Some(&c) => c + 2,
        None => {
            let ceiling = byte_at(chars - KEPT_END_CHARS + WORD_SLACK);
            text[tail_start..ceiling]
                .find(' ')
                .map_or(tail_start, |i| tail_start + i + 1)
        }
    };
    let tail_chars = chars - char_of(tail_start);
    let head_chars = (MAX_SIGNATURE_CHARS - " … ".chars().count())
        .saturating_sub(tail_chars.max(KEPT_END_CHARS))
        .max(PARAMETER_SLACK);
    let head_end = byte_at(head_chars);
    let head_floor = byte_at(head_chars.saturating_sub(PARAMETER_SLACK));
    let head_comma = commas
        .iter()
        .rev()
        .find(|&&c| c >= head_floor && c < head_end);
    let head_end = match head_comma {
        Some(&c) => c + 1,
        None => {
            let floor = byte_at(head_chars.saturating_sub(WORD_SLACK));
            text[floor..head_end]
                .rfind(' ')
                .map_or(head_end, |i| floor + i)
        }
    };
    let head = text[..head_end.min(tail_start)].trim_end();
    let shown = format!("{head} … {}", &text[tail_start..]);
    (shown, Some(fnv1a(text.as_bytes())))
}

/// How far from a cut's place a comma between parameters may move it, in characters.
const PARAMETER_SLACK: usize = 60;

/// The byte offsets of the `, ` that separate a parameter list's items: at the depth of the
/// first opening bracket (`(`, `[`, `{`), so not a comma inside a parameter's type
/// (`Dict[str, int]`) or default value.
fn parameter_commas(text: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut list = None;
    let mut out = Vec::new();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'(' | b'[' | b'{' => {
                depth += 1;
                list.get_or_insert(depth);
            }
            b')' | b']' | b'}' => depth = depth.saturating_sub(1),
            b',' if Some(depth) == list && bytes.get(i + 1) == Some(&b' ') => out.push(i),
            _ => {}
        }
    }
    out
}

/// A hash of the literal values and plain initialisers ([`Hole::Setting`]) a signature built
/// from the same `range` and `holes` shows as `…`, when it shows any: `def send(method='GET')`
/// and `method='POST'` read alike and must still differ. Only the 32-bit hash is kept, never a
/// value.
pub(crate) fn literals_hash(
    source: &[u8],
    range: Range<usize>,
    holes: &[(Range<usize>, Hole)],
) -> Option<u32> {
    let mut cursor = range.start;
    let mut bytes: Vec<u8> = Vec::new();
    let mut any = false;
    for (hole, kind) in holes {
        if hole.start < cursor || hole.start >= range.end {
            continue;
        }
        if matches!(kind, Hole::Value | Hole::Setting | Hole::Mark) {
            any = true;
            bytes.extend_from_slice(source.get(hole.clone()).unwrap_or_default());
            bytes.push(0);
        }
        cursor = cursor.max(hole.end);
    }
    any.then(|| fnv1a(&bytes))
}

/// The 32-bit FNV-1a hash of `bytes`: written out here, so that stored hashes never change
/// with a hashing crate's version.
pub(crate) fn fnv1a(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5, |h: u32, &b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
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

    /// A generic parameter list laid out one per line reads as on one line; on one line,
    /// `<` and `>` keep their spaces (they may compare).
    #[test]
    fn signature_closes_angle_brackets_a_line_break_opened() {
        let src = b"pub struct Subscriber<\n    N = A,\n    W = B,\n> {\n}";
        let (sig, _) = signature(src, 0..src.len() - 3, &[]);
        assert_eq!(sig, "pub struct Subscriber<N = A, W = B>");
        let src = b"fn f(a: u32) -> bool where A: B < C";
        assert_eq!(
            signature(src, 0..src.len(), &[]).0,
            "fn f(a: u32) -> bool where A: B < C"
        );
    }

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

    /// rich's `track` was cut to `…, get_time: object | None = None, … object = None, …`: a
    /// parameter named `object`. A cut falls between two parameters, not inside a type's
    /// brackets.
    #[test]
    fn a_long_signature_is_cut_between_parameters() {
        let track = "def track(sequence: list, total: float | None = None, completed: int = 0, auto_refresh: bool = True, console: object | None = None, transient: bool = False, get_time: object | None = None, refresh_per_second: float = 10, style: object = None, complete_style: object = None, finished_style: object = None, pulse_style: object = None, update_period: float = 0.1, disable: bool = False, show_speed: bool = True, columns: Dict[str, Tuple[int, int]] = None) -> list";
        let (shown, _) = cut(track.to_owned());
        assert!(shown.chars().count() <= MAX_SIGNATURE_CHARS, "{shown}");
        let (head, tail) = shown.split_once(" … ").unwrap();
        assert!(head.ends_with(','), "{shown}");
        let names = |part: &str| -> Vec<String> {
            part.trim_start_matches("def track(")
                .split(", ")
                .filter(|p| p.contains(": "))
                .filter_map(|p| p.split(':').next())
                .map(|n| n.trim_end_matches(',').to_owned())
                .collect()
        };
        for name in names(head).into_iter().chain(names(tail)) {
            assert!(track.contains(&format!("{name}: ")), "{name} in {shown}");
        }
        assert!(tail.ends_with("columns: Dict[str, Tuple[int, int]] = None) -> list"));
    }

    /// A long last parameter starts the kept end rather than being cut through its name
    /// (vite's `resolveConfig` read `= … ((resolvedPlugins`, `patchPlugins:` gone).
    #[test]
    fn a_long_last_parameter_is_kept_whole() {
        let resolve = "export async function resolveConfig(inlineConfig: InlineConfig, command: … | …, defaultMode = …, defaultNodeEnv = …, isPreview = false, patchConfig: ((config: ResolvedConfig) => void) | undefined = undefined, patchPlugins: ((resolvedPlugins: Plugin[]) => void) | undefined = undefined): Promise<ResolvedConfig>";
        let (shown, _) = cut(resolve.to_owned());
        assert!(shown.chars().count() <= MAX_SIGNATURE_CHARS, "{shown}");
        let (_, tail) = shown.split_once(" … patch").unwrap_or(("", ""));
        assert!(
            tail.starts_with("Plugins: ((resolvedPlugins: Plugin[]) => void)"),
            "{shown}"
        );
    }

    #[test]
    fn cuts_are_char_safe() {
        let long = "é".repeat(400);
        let (shown, hash) = cut(long.clone());
        assert!(shown.chars().count() <= MAX_SIGNATURE_CHARS, "{shown}");
        assert!(shown.contains(" … "));
        assert_eq!(hash, Some(fnv1a(long.as_bytes())));
        let exact = "x".repeat(MAX_SIGNATURE_CHARS);
        assert_eq!(cut(exact.clone()), (exact, None));
    }

    #[test]
    fn a_cut_keeps_the_end_and_tells_a_change_in_the_middle() {
        let params = |middle: &str| {
            let list: Vec<String> = (0..40)
                .map(|i| {
                    if i == 20 {
                        middle.to_owned()
                    } else {
                        format!("p{i}: int = None")
                    }
                })
                .collect();
            format!("def option({}) -> OptionInfo", list.join(", "))
        };
        let (a, ha) = cut(params("p20: int = None"));
        let (b, hb) = cut(params("p20: str = None"));
        assert!(a.ends_with("p39: int = None) -> OptionInfo"), "{a}");
        assert!(a.starts_with("def option(p0: int = None, "), "{a}");
        assert!(a.chars().count() <= MAX_SIGNATURE_CHARS);
        // Between parameters: no parameter is shown cut in two.
        assert!(a.contains(", … p"), "{a}");
        let listed = |s: &str| {
            s.split(", ")
                .filter(|p| p.starts_with('p') || p.starts_with("… p"))
                .all(|p| p.trim_start_matches("… ").ends_with(": int = None") || p.contains(')'))
        };
        assert!(listed(&a), "{a}");
        assert_eq!(a, b, "the change is in the part left out");
        assert_ne!(ha, hb);
        assert!(ha.is_some());
    }

    #[test]
    fn fnv1a_matches_the_published_vectors() {
        assert_eq!(fnv1a(b""), 0x811c_9dc5);
        assert_eq!(fnv1a(b"a"), 0xe40c_292c);
        assert_eq!(fnv1a(b"foobar"), 0xbf9c_f968);
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
