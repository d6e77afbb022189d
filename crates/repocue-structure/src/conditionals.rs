//! C#'s conditional compilation, resolved to one variant before parsing; and C's and C++'s
//! `#if 0`, which never compiles ([`if0_blanked`]).
//!
//! A library built for several frameworks writes `#if`, `#elif`, `#else` and `#endif`
//! anywhere, also between a member's head and its body. serilog's `ILogger` declares
//! `ILogger ForContext(…)`, then under `#if FEATURE_DEFAULT_INTERFACE` a body and under
//! `#else` a `;`. The grammar reads each directive as a line of its own and both variants as
//! code, so the head was followed by a body and a `;`: the interface failed to parse and was
//! lost, its members listed as the file's own, a directive in their signatures.
//!
//! Each conditional's first branch is kept, as if its condition held; its other branches and
//! the directive lines become spaces, nested conditionals with them. One branch is always a
//! variant that compiles, and the first is the one that holds the code the conditional
//! exists for (a feature's members, a newer framework's signatures): a definition written
//! only under `#elif` or `#else` is not extracted. Lengths and line breaks stay, so every
//! position the parse reports is the file's own. A directive counts only where the compiler
//! reads one, first on a line that is not inside a comment or a string spanning lines
//! (verbatim `@"…"` and raw `"""…"""` strings). A file whose conditionals do not balance,
//! and one without any, is parsed as it is (no copy is made).

use std::borrow::Cow;

use crate::text::is_word_byte;

/// The bytes to parse for a C# `source`: every conditional resolved to its first branch.
pub(crate) fn first_branches(source: &[u8]) -> Cow<'_, [u8]> {
    let lines = directive_lines(source);
    if lines.is_empty() {
        return Cow::Borrowed(source);
    }
    // For each open conditional, whether its current branch is dropped.
    let mut open: Vec<bool> = Vec::new();
    let mut blank: Vec<(usize, usize)> = Vec::new();
    let mut dropped_from: Option<usize> = None;
    for (start, end, directive) in lines {
        let was_dropping = open.iter().any(|&d| d);
        match directive {
            Directive::If => open.push(false),
            Directive::Other => match open.last_mut() {
                Some(d) => *d = true,
                None => return Cow::Borrowed(source),
            },
            Directive::End => {
                if open.pop().is_none() {
                    return Cow::Borrowed(source);
                }
            }
        }
        let dropping = open.iter().any(|&d| d);
        match (was_dropping, dropping) {
            (false, true) => dropped_from = Some(end),
            (true, false) => {
                if let Some(from) = dropped_from.take() {
                    blank.push((from, start));
                }
            }
            _ => {}
        }
        blank.push((start, end));
    }
    if !open.is_empty() {
        return Cow::Borrowed(source);
    }
    Cow::Owned(blanked(source, &blank))
}

/// The bytes to parse for a C or C++ `source`: code under `#if 0` (up to its `#elif`,
/// `#else` or `#endif`) as spaces, nested conditionals with it. It never compiles: googletest's
/// `#if 0` usage example made `TEST_F(BaseTest, HasFoo)` a symbol of its 500-token overview and
/// a class `FooTest` of its API. Every other conditional keeps all its branches (the grammar
/// reads them as alternatives). Lengths and line breaks stay; a file whose conditionals do
/// not balance, and one without `#if 0`, is parsed as it is.
pub(crate) fn if0_blanked(source: &[u8]) -> Cow<'_, [u8]> {
    // For each open conditional, whether its current branch is an `#if 0`'s.
    let mut open: Vec<bool> = Vec::new();
    let mut blank: Vec<(usize, usize)> = Vec::new();
    let mut at = 0;
    while at < source.len() {
        let end = line_end(source, at);
        let line = &source[at..end];
        let disabled = open.iter().any(|&d| d);
        match c_directive(line) {
            Some((b"if", rest)) => {
                let zero = rest.first() == Some(&b'0')
                    && rest.get(1).is_none_or(|&b| !is_word_byte(b) && b != b'.');
                open.push(zero);
            }
            Some((b"ifdef" | b"ifndef", _)) => open.push(false),
            Some((b"elif" | b"else" | b"elifdef" | b"elifndef", _)) => match open.last_mut() {
                Some(d) => *d = false,
                None => return Cow::Borrowed(source),
            },
            Some((b"endif", _)) => {
                let Some(_) = open.pop() else {
                    return Cow::Borrowed(source);
                };
            }
            _ => {}
        }
        // The lines inside a disabled branch, its nested directives with them.
        if disabled && open.iter().any(|&d| d) {
            blank.push((at, end));
        }
        at = end + 1;
    }
    if !open.is_empty() || blank.is_empty() {
        return Cow::Borrowed(source);
    }
    Cow::Owned(blanked(source, &blank))
}

/// The bytes to parse for a C or C++ `source`: a conditional inside a function's body (or any
/// braces) keeps its first branch, as C#'s do ([`first_branches`]); its other branches and
/// directive lines become spaces. A branch may split a statement or an expression: zlib's
/// `inflate.c` writes `if (!(flush & 1) ||` under `#ifdef GUNZIP` and `if (` under `#else`
/// before the condition's rest, and the grammar, which reads both, lost `inflate`'s return
/// type and extent and those of every function after it, its locals listed as the file's.
/// A conditional at the top level keeps every branch (the grammar reads alternative
/// declarations as such, and each is listed). Braces are counted outside comments, strings
/// and character literals, in first branches only. A file whose conditionals or braces do
/// not balance is parsed as it is.
pub(crate) fn body_first_branches(source: &[u8]) -> Cow<'_, [u8]> {
    if !source.contains(&b'#') {
        return Cow::Borrowed(source);
    }
    // Per open conditional: whether it is inside braces, and its branch (0 for the first).
    let mut open: Vec<(bool, usize)> = Vec::new();
    let mut blank: Vec<(usize, usize)> = Vec::new();
    let mut depth: i64 = 0;
    let mut in_block_comment = false;
    let mut at = 0;
    while at < source.len() {
        let end = line_end(source, at);
        let line = &source[at..end];
        let dropped = open.iter().any(|&(inside, branch)| inside && branch > 0);
        let counted = open.iter().all(|&(_, branch)| branch == 0);
        let directive = if in_block_comment {
            None
        } else {
            c_directive(line)
        };
        match directive.map(|(word, _)| word) {
            Some(b"if" | b"ifdef" | b"ifndef") => {
                let inside = depth > 0 && !dropped;
                open.push((inside || dropped, 0));
                if inside || dropped {
                    blank.push((at, end));
                }
            }
            Some(b"elif" | b"else" | b"elifdef" | b"elifndef") => {
                let Some(top) = open.last_mut() else {
                    return Cow::Borrowed(source);
                };
                top.1 += 1;
                if top.0 {
                    blank.push((at, end));
                }
            }
            Some(b"endif") => {
                let Some((inside, _)) = open.pop() else {
                    return Cow::Borrowed(source);
                };
                if inside {
                    blank.push((at, end));
                }
            }
            Some(_) => {
                if dropped {
                    blank.push((at, end));
                }
            }
            None => {
                if dropped {
                    blank.push((at, end));
                } else if counted {
                    depth += braces(line, &mut in_block_comment);
                    if depth < 0 {
                        return Cow::Borrowed(source);
                    }
                } else {
                    let mut comment = in_block_comment;
                    braces(line, &mut comment);
                    in_block_comment = comment;
                }
            }
        }
        at = end + 1;
    }
    if !open.is_empty() || depth != 0 || blank.is_empty() {
        return Cow::Borrowed(source);
    }
    Cow::Owned(blanked(source, &blank))
}

/// The bytes to parse for a C or C++ `source`: a conditional at the top level whose branches
/// each hold only a function's head (no `;`, no braces), right before the body they share,
/// keeps its last branch; its other branches and its directive lines become spaces. curl's
/// `tool_main.c` writes `#ifdef _UNICODE` `int wmain(…)` `#else` `int main(…)` `#endif` and
/// one body: the grammar read two heads and no function, and curl's `main` was no symbol and
/// no entry point. The last branch is the portable one (`#else`). Directives in a branch
/// (nested conditionals, `#pragma`s) go with it; a conditional whose branches hold anything
/// else is left as it is.
pub(crate) fn split_heads_last_branch(source: &[u8]) -> Cow<'_, [u8]> {
    if !source.contains(&b'#') {
        return Cow::Borrowed(source);
    }
    // The lines, as (start, end).
    let mut lines: Vec<(usize, usize)> = Vec::new();
    let mut at = 0;
    while at < source.len() {
        let end = line_end(source, at);
        lines.push((at, end));
        at = end + 1;
    }
    let word = |i: usize| c_directive(&source[lines[i].0..lines[i].1]).map(|(w, _)| w);
    let mut blank: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if !matches!(word(i), Some(b"if" | b"ifdef" | b"ifndef")) {
            i += 1;
            continue;
        }
        // The branches' directive lines up to the `#endif`, if nothing nests and every other
        // line is part of a head.
        let mut directives = vec![i];
        let mut j = i + 1;
        let mut plain = true;
        // Conditionals nested in a branch (curl's `#ifdef CURL_HAVE_DIAG` of `#pragma`s
        // before its `wmain`) go with it.
        let mut depth = 0usize;
        while j < lines.len() {
            match word(j) {
                Some(b"if" | b"ifdef" | b"ifndef") => depth += 1,
                Some(b"elif" | b"else" | b"elifdef" | b"elifndef") if depth == 0 => {
                    directives.push(j)
                }
                Some(b"endif") if depth == 0 => break,
                Some(b"endif") => depth -= 1,
                Some(_) => {}
                None => {
                    let line = &source[lines[j].0..lines[j].1];
                    plain &= !line.iter().any(|b| matches!(b, b';' | b'{' | b'}' | b'"'));
                }
            }
            j += 1;
        }
        let body_next = lines
            .get(j + 1..)
            .unwrap_or_default()
            .iter()
            .map(|&(a, b)| source[a..b].trim_ascii())
            .find(|l| !l.is_empty())
            .is_some_and(|l| l.starts_with(b"{"));
        let heads = (j < lines.len() && plain && directives.len() > 1 && body_next)
            .then(|| directives.last().copied())
            .flatten();
        match heads {
            Some(last) => {
                // Every line of the other branches, and the `#endif`.
                blank.extend(&lines[i..last]);
                blank.push(lines[j]);
                i = j + 1;
            }
            // The conditionals inside it may be (curl's `main` is inside `#ifndef
            // UNITTESTS`): each is looked at in turn.
            None => i += 1,
        }
    }
    if blank.is_empty() {
        return Cow::Borrowed(source);
    }
    Cow::Owned(blanked(source, &blank))
}

/// The braces a line of C opens less those it closes, outside comments, strings and character
/// literals; `in_comment` carries a block comment from line to line.
fn braces(line: &[u8], in_comment: &mut bool) -> i64 {
    let mut n = 0;
    let mut i = 0;
    while i < line.len() {
        if *in_comment {
            if line[i..].starts_with(b"*/") {
                *in_comment = false;
                i += 2;
            } else {
                i += 1;
            }
            continue;
        }
        match line[i] {
            b'/' if line.get(i + 1) == Some(&b'/') => break,
            b'/' if line.get(i + 1) == Some(&b'*') => {
                *in_comment = true;
                i += 2;
                continue;
            }
            quote @ (b'"' | b'\'') => {
                i += 1;
                while i < line.len() && line[i] != quote {
                    i += if line[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'{' => n += 1,
            b'}' => n -= 1,
            _ => {}
        }
        i += 1;
    }
    n
}

/// A copy of `source` with the byte ranges `blank` as spaces, line breaks kept: every
/// position a parse of it reports is the file's own.
fn blanked(source: &[u8], blank: &[(usize, usize)]) -> Vec<u8> {
    let mut out = source.to_vec();
    for &(from, to) in blank {
        for b in &mut out[from..to] {
            if !matches!(*b, b'\n' | b'\r') {
                *b = b' ';
            }
        }
    }
    out
}

/// A C preprocessor line's directive word and what follows it (spaces skipped), if the line
/// is one: `#`, after nothing but spaces and tabs.
fn c_directive(line: &[u8]) -> Option<(&[u8], &[u8])> {
    fn skip(s: &[u8]) -> &[u8] {
        let n = s.iter().take_while(|&&b| b == b' ' || b == b'\t').count();
        &s[n..]
    }
    let rest = skip(skip(line).strip_prefix(b"#")?);
    let word_len = rest.iter().take_while(|&&b| is_word_byte(b)).count();
    Some((&rest[..word_len], skip(&rest[word_len..])))
}

/// A conditional directive: one that opens a conditional, one that starts another branch
/// (`#elif`, `#else`), one that closes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Directive {
    If,
    Other,
    End,
}

/// Where the lexer stands at a byte: in code or in a construct that hides a `#`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Code,
    /// `// …`, to the end of the line.
    LineComment,
    /// `/* … */`.
    BlockComment,
    /// `"…"` or `'…'` (the quote byte), to its quote or the end of the line.
    Quoted(u8),
    /// `@"…"`, where `""` is a quote.
    Verbatim,
    /// `"""…"""`: as many quotes close it as opened it.
    Raw(usize),
}

/// The conditional directive lines of `source`, each as its byte range (without the line
/// break) and kind, in order.
fn directive_lines(source: &[u8]) -> Vec<(usize, usize, Directive)> {
    let mut found = Vec::new();
    let mut state = State::Code;
    let mut at = 0;
    let mut line_start = true;
    while at < source.len() {
        let at_line_start = std::mem::take(&mut line_start);
        if at_line_start && state == State::Code {
            let end = line_end(source, at);
            if let Some(d) = directive(&source[at..end]) {
                found.push((at, end, d));
                at = end;
                continue;
            }
        }
        let b = source[at];
        if b == b'\n' {
            line_start = true;
            if matches!(state, State::LineComment | State::Quoted(_)) {
                state = State::Code;
            }
            at += 1;
            continue;
        }
        let rest = &source[at..];
        let (next, step) = match state {
            State::Code => match b {
                b'/' if rest.starts_with(b"//") => (State::LineComment, 2),
                b'/' if rest.starts_with(b"/*") => (State::BlockComment, 2),
                b'"' => match quote_run(rest) {
                    n if n >= 3 => (State::Raw(n), n),
                    // `""`, an empty string.
                    2 => (State::Code, 2),
                    _ => (State::Quoted(b'"'), 1),
                },
                b'\'' => (State::Quoted(b'\''), 1),
                b'@' | b'$' => match verbatim_opening(rest) {
                    Some(len) => (State::Verbatim, len),
                    None => (State::Code, 1),
                },
                _ => (State::Code, 1),
            },
            State::LineComment => (state, 1),
            State::BlockComment if rest.starts_with(b"*/") => (State::Code, 2),
            State::BlockComment => (state, 1),
            State::Quoted(_) if b == b'\\' => (state, 2),
            State::Quoted(q) if b == q => (State::Code, 1),
            State::Quoted(_) => (state, 1),
            State::Verbatim if rest.starts_with(b"\"\"") => (state, 2),
            State::Verbatim if b == b'"' => (State::Code, 1),
            State::Verbatim => (state, 1),
            State::Raw(n) if b == b'"' => match quote_run(rest) {
                run if run >= n => (State::Code, run),
                run => (state, run),
            },
            State::Raw(_) => (state, 1),
        };
        state = next;
        // An escape at the end of the line does not take its line break.
        at += if step == 2 && rest.get(1) == Some(&b'\n') {
            1
        } else {
            step
        };
    }
    found
}

/// The end of the line that starts at `at` (its line break's position, or the end).
fn line_end(source: &[u8], at: usize) -> usize {
    source[at..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(source.len(), |i| at + i)
}

/// The conditional directive a line holds: `#`, then `if`, `elif`, `else` or `endif` as a
/// whole word, after nothing but spaces and tabs (and between `#` and the word).
fn directive(line: &[u8]) -> Option<Directive> {
    fn skip(s: &[u8]) -> &[u8] {
        let n = s.iter().take_while(|&&b| b == b' ' || b == b'\t').count();
        &s[n..]
    }
    let rest = skip(line).strip_prefix(b"#")?;
    let rest = skip(rest);
    let word_len = rest.iter().take_while(|&&b| is_word_byte(b)).count();
    match &rest[..word_len] {
        b"if" => Some(Directive::If),
        b"elif" | b"else" => Some(Directive::Other),
        b"endif" => Some(Directive::End),
        _ => None,
    }
}

/// How many `"` start `s`.
fn quote_run(s: &[u8]) -> usize {
    s.iter().take_while(|&&b| b == b'"').count()
}

/// The length of a verbatim string's opening at the start of `s` (`@"`, `$@"`, `@$"`), if it
/// is one.
fn verbatim_opening(s: &[u8]) -> Option<usize> {
    [b"@\"".as_slice(), b"$@\"", b"@$\""]
        .into_iter()
        .find(|open| s.starts_with(open))
        .map(<[u8]>::len)
}

#[cfg(test)]
mod tests {
    #[test]
    fn c_code_under_if_0_is_blanked() {
        let blanked =
            |src: &str| String::from_utf8(super::if0_blanked(src.as_bytes()).into_owned()).unwrap();
        let src = "#if 0\nint a(void);\n#ifdef X\nint b(void);\n#endif\n#else\nint c(void);\n#endif\n# if 0 // old\nint d(void);\n#elif Y\nint e(void);\n#endif\n#if 01\nint f(void);\n#endif\n#if 0x1\nint g(void);\n#endif\n";
        let out = blanked(src);
        assert_eq!(out.len(), src.len());
        for kept in [
            "int c(void);",
            "int e(void);",
            "#if 0\n",
            "#endif\n",
            "#else\n",
        ] {
            assert!(out.contains(kept), "{kept}: {out}");
        }
        for gone in ["int a", "int b", "#ifdef X", "int d"] {
            assert!(!out.contains(gone), "{gone}: {out}");
        }
        // `#if 01` is no literal 0 for this purpose (octal 1); `#if 0x1` is 1.
        assert!(
            out.contains("int f(void);") && out.contains("int g(void);"),
            "{out}"
        );
        // Unbalanced, or no `#if 0`: as it is.
        assert!(matches!(
            super::if0_blanked(b"#if 0\nint a;\n"),
            std::borrow::Cow::Borrowed(_)
        ));
        assert!(matches!(
            super::if0_blanked(b"#if X\nint a;\n#endif\n"),
            std::borrow::Cow::Borrowed(_)
        ));
    }

    use super::*;

    fn resolved(source: &str) -> String {
        String::from_utf8(first_branches(source.as_bytes()).into_owned()).unwrap()
    }

    #[test]
    fn the_first_branch_stays_and_the_others_become_spaces() {
        let src = "void F()\n#if A\n{ }\n#elif B\n => 1;\n#else\n;\n#endif\nint G;\n";
        let out = resolved(src);
        assert_eq!(out.len(), src.len());
        assert_eq!(out.lines().count(), src.lines().count());
        let kept: Vec<&str> = out
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        assert_eq!(kept, ["void F()", "{ }", "int G;"]);
    }

    #[test]
    fn a_conditional_inside_a_dropped_branch_is_dropped_whole() {
        let src = "#if A\nint a;\n#else\n#if B\nint b;\n#else\nint c;\n#endif\n#endif\nint d;\n";
        let kept: Vec<String> = resolved(src)
            .lines()
            .map(|l| l.trim().to_string())
            .filter(|l| !l.is_empty())
            .collect();
        assert_eq!(kept, ["int a;", "int d;"]);
    }

    #[test]
    fn directives_in_comments_and_strings_spanning_lines_are_text() {
        for src in [
            "/*\n#if A\n*/\nint a;\n#if B\nint b;\n#else\nint c;\n#endif\n",
            "var s = @\"\n#if A\n\"\"\";\nint a;\n#if B\nint b;\n#else\nint c;\n#endif\n",
            "var s = \"\"\"\n#if A\n\"\" \"\"\";\nint a;\n#if B\nint b;\n#else\nint c;\n#endif\n",
        ] {
            let out = resolved(src);
            assert!(out.contains("#if A"), "{out}");
            assert!(out.contains("int b;") && !out.contains("int c;"), "{out}");
        }
    }

    #[test]
    fn a_string_or_comment_on_one_line_ends_with_it() {
        // An unclosed character literal and a line comment end at the line break.
        let src = "char c = '\"';\n// \"\n#if A\nint a;\n#else\nint b;\n#endif\n";
        let out = resolved(src);
        assert!(out.contains("int a;") && !out.contains("int b;"), "{out}");
    }

    #[test]
    fn unbalanced_conditionals_and_none_are_parsed_as_written() {
        for src in [
            "#if A\nint a;\n",
            "int a;\n#endif\n",
            "#else\nint a;\n",
            "int a;\n#region R\n#endregion\n",
            "#ifdef is no C# directive\nint a;\n",
        ] {
            assert!(
                matches!(first_branches(src.as_bytes()), Cow::Borrowed(_)),
                "{src}"
            );
        }
    }

    #[test]
    fn a_directive_may_be_indented_and_spaced() {
        let src = "  \t#  if A\nint a;\n\t# else // old\nint b;\n  #endif\n";
        let out = resolved(src);
        assert!(!out.contains('#') && out.contains("int a;") && !out.contains("int b;"));
    }
}
