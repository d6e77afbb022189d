//! Merge conflict markers, resolved to our side before parsing.
//!
//! A merge, rebase, cherry-pick or `stash pop` that conflicts leaves both sides of each
//! conflicting hunk in the file: our side after a `<<<<<<<` line, the common base after a
//! `|||||||` line (with `merge.conflictStyle = diff3` or `zdiff3`), their side after a
//! `=======` line, up to a `>>>>>>>` line. The grammar reads the marker lines and both sides
//! as code: a conflicted Java class gained a field `public` with the signature `other
//! public`, and the same method twice.
//!
//! Our side is kept, as the work tree holds it before the conflict; the marker lines, the base
//! and their side become spaces. Lengths and line breaks stay, so every position the parse
//! reports is the file's own. A marker counts as Git writes it: seven of its characters at the
//! start of a line, then a space or the line's end. A file whose markers do not follow one
//! another in that order, and one without any, is parsed as it is (no copy is made).

use std::borrow::Cow;

/// Where a line is, relative to the conflict it may be in.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Outside,
    Ours,
    Base,
    Theirs,
}

/// The bytes to parse for `source`: each conflicting hunk resolved to our side.
pub(crate) fn ours(source: &[u8]) -> Cow<'_, [u8]> {
    if !source.windows(7).any(|w| w == b"<<<<<<<") {
        return Cow::Borrowed(source);
    }
    let mut side = Side::Outside;
    let mut blank: Vec<(usize, usize)> = Vec::new();
    let mut start = 0;
    while start < source.len() {
        let end = source[start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(source.len(), |i| start + i);
        let line = &source[start..end];
        let next = match (side, marker(line)) {
            (Side::Outside, Some(b'<')) => Some(Side::Ours),
            (Side::Ours, Some(b'|')) => Some(Side::Base),
            (Side::Ours | Side::Base, Some(b'=')) => Some(Side::Theirs),
            (Side::Theirs, Some(b'>')) => Some(Side::Outside),
            // A marker out of its order: these are no markers Git wrote.
            (_, Some(_)) => return Cow::Borrowed(source),
            (_, None) => None,
        };
        if next.is_some() || matches!(side, Side::Base | Side::Theirs) {
            blank.push((start, end));
        }
        if let Some(next) = next {
            side = next;
        }
        start = end + 1;
    }
    if side != Side::Outside || blank.is_empty() {
        return Cow::Borrowed(source);
    }
    let mut out = source.to_vec();
    for (from, to) in blank {
        for b in &mut out[from..to] {
            if *b != b'\r' {
                *b = b' ';
            }
        }
    }
    Cow::Owned(out)
}

/// The kind of conflict marker a line is (`<`, `|`, `=` or `>`), if it is one: seven of the
/// character, then a space or the end of the line (`=======` has nothing after it).
fn marker(line: &[u8]) -> Option<u8> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    let &first = line.first()?;
    if !matches!(first, b'<' | b'|' | b'=' | b'>') || line.len() < 7 {
        return None;
    }
    if !line[..7].iter().all(|&b| b == first) {
        return None;
    }
    match (first, line.get(7)) {
        (b'=', None) => Some(first),
        (b'=', Some(_)) => None,
        (_, None | Some(b' ')) => Some(first),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolved(source: &str) -> String {
        String::from_utf8(ours(source.as_bytes()).into_owned()).unwrap()
    }

    #[test]
    fn our_side_stays_and_the_rest_becomes_spaces() {
        let source = "class A {\n<<<<<<< HEAD\n  int a;\n=======\n  long b;\n>>>>>>> topic\n}\n";
        let out = resolved(source);
        assert_eq!(out.len(), source.len());
        assert_eq!(out.lines().count(), source.lines().count());
        assert!(out.contains("  int a;") && !out.contains("long b") && !out.contains("<<<"));
        assert!(out.starts_with("class A {\n") && out.ends_with("}\n"));
    }

    #[test]
    fn a_diff3_base_goes_with_their_side() {
        let source = "<<<<<<< ours\nx = 1\n||||||| base\nx = 0\n=======\nx = 2\n>>>>>>> theirs\n";
        let out = resolved(source);
        assert!(out.contains("x = 1") && !out.contains("x = 0") && !out.contains("x = 2"));
    }

    #[test]
    fn markers_out_of_order_or_unfinished_leave_the_source_as_it_is() {
        for source in [
            "a\n=======\nb\n",
            "<<<<<<< HEAD\na\n",
            "<<<<<<< HEAD\na\n>>>>>>> x\n",
            "x = '<<<<<<<'\n",
        ] {
            assert!(
                matches!(ours(source.as_bytes()), Cow::Borrowed(_)),
                "{source}"
            );
        }
        // Eight of a marker's character, or text after `=======`, make no marker.
        assert_eq!(marker(b"========"), None);
        assert_eq!(marker(b"======= x"), None);
        assert_eq!(marker(b"<<<<<<<<"), None);
        assert_eq!(marker(b"<<<<<<<"), Some(b'<'));
        assert_eq!(marker(b">>>>>>> a1b2c3 (topic)\r"), Some(b'>'));
    }
}
