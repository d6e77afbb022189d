//! Cues: token-budgeted, deterministic JSON projections of the store for one purpose.
//!
//! Every view builds a *base* content (what must always be there) and a list of ranked
//! *items*. [`fit`] admits whole items in rank order while the exact serialized envelope stays
//! within `ceil(bytes / 4) <= max_tokens` (two sevenths of the bytes for text), counts what it left out in warnings, and points to
//! the follow-up request that returns it (`more`). No string is ever cut to fit.

pub(crate) mod envelope;
pub(crate) mod fit;
pub mod markdown;
pub mod text;
pub(crate) mod views;

pub(crate) use views::{build, validate};

/// A string as it may appear on one line of a line-oriented format (text, Markdown): every
/// control character (a newline or an escape in a file name, say) and Unicode's line and
/// paragraph separators are written `\xNN` (`\u{NNNN}` past U+00FF), the escape non-UTF-8
/// path bytes already get, so no repository string can end a line early, start a forged one
/// or drive a terminal. The JSON carries the exact string.
pub(crate) fn one_line(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.chars().any(breaks_lines) {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c as u32 {
            _ if !breaks_lines(c) => out.push(c),
            n @ ..0x100 => out.push_str(&format!("\\x{n:02X}")),
            n => out.push_str(&format!("\\u{{{n:04X}}}")),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Whether a character may end or rewrite a line: see [`one_line`].
pub(crate) fn breaks_lines(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{2028}' | '\u{2029}')
        // Bidirectional overrides and isolates: they reorder what a reader sees of the rest
        // of the line (a commit subject's U+202E shows its tail backwards).
        || matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}
