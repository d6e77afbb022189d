//! Pin maintenance: listing stale pins and rewriting declared digests in place.
//!
//! Refresh never renews a pin: that is the author's explicit action
//! (`repocue task-context pin --update`). The rewrite replaces only the `content_digest`
//! string values of the references that changed and keeps every other byte of the file
//! (indentation, member order, other strings) as it was.

use std::ops::Range;
use std::path::Path;

use super::declaration::{Declaration, Lines};
use super::extract::{check_tracked, read, SnapshotFiles};
pub use crate::api::task::{Pin, Role};
use crate::error::{Error, Result};

/// Reads every reference of the declaration and returns its pin state, items in id order.
///
/// Fails (rather than listing) when a path is untracked, irregular or linked, or when the
/// file differs from the snapshot (`changed_during_read`: refresh first).
pub fn pins(decl: &Declaration, snapshot: &dyn SnapshotFiles, root: &Path) -> Result<Vec<Pin>> {
    let mut out = Vec::new();
    // Each file is read once, however many references name it (a declaration of thousands of
    // line ranges of one large file read it thousands of times).
    let mut digests: std::collections::HashMap<&str, String> = Default::default();
    for item in &decl.items {
        for (n, r) in item.references().enumerate() {
            let in_snapshot = check_tracked(snapshot, root, &r.path)?;
            let digest = match digests.get(r.path.as_str()) {
                Some(d) => d.clone(),
                None => {
                    let d = read(root, &r.path, Some(Lines { start: 1, end: 0 }), 0)?.digest;
                    digests.insert(&r.path, d.clone());
                    d
                }
            };
            if digest != in_snapshot {
                return Err(Error::ChangedDuringRead {
                    detail: format!("{} differs from the snapshot", r.path),
                });
            }
            out.push(Pin {
                item: item.id.clone(),
                role: if n == 0 { Role::Source } else { Role::Check },
                index: n.checked_sub(1),
                path: r.path.clone(),
                lines: r.lines,
                expected: r.content_digest.clone(),
                actual: digest,
            });
        }
    }
    Ok(out)
}

/// Returns the declaration bytes with the digest of every pin replaced by its actual digest.
///
/// `bytes` must be the text `decl` was parsed from and `pins` the result of [`pins`] on it.
pub fn rewrite(bytes: &[u8], pins: &[Pin]) -> Result<Vec<u8>> {
    let spans = digest_spans(bytes).map_err(|detail| Error::InvalidDeclaration {
        path: "declaration".into(),
        detail,
    })?;
    // Spans come in document order; pins in id order. Match them by item id and position.
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    for span in &spans {
        let pin = pins
            .iter()
            .find(|p| p.item == span.item && p.index == span.check)
            .ok_or_else(|| Error::InvalidDeclaration {
                path: "declaration".into(),
                detail: format!("no pin for item {:?}", span.item),
            })?;
        out.extend_from_slice(&bytes[at..span.range.start]);
        if pin.is_stale() {
            out.extend_from_slice(serde_json::to_string(&pin.actual).unwrap().as_bytes());
        } else {
            out.extend_from_slice(&bytes[span.range.clone()]);
        }
        at = span.range.end;
    }
    out.extend_from_slice(&bytes[at..]);
    Ok(out)
}

/// Where one `content_digest` string value sits in the declaration text.
#[derive(Debug, PartialEq, Eq)]
struct Span {
    item: String,
    check: Option<usize>,
    range: Range<usize>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Seg {
    Key(String),
    Index(usize),
}

/// Finds the byte spans of `items[i].source.content_digest` and
/// `items[i].checks[j].content_digest` (quotes included) with each item's id, by walking the
/// JSON text once. The text has already passed the strict parser.
fn digest_spans(bytes: &[u8]) -> std::result::Result<Vec<Span>, String> {
    let mut w = Walker {
        b: bytes,
        pos: 0,
        path: Vec::new(),
        found: Vec::new(),
        ids: Vec::new(),
    };
    w.value()?;
    let mut out = Vec::new();
    for (path, range) in w.found {
        let (Some(Seg::Index(i)), check) = (path.get(1), path.get(3)) else {
            continue;
        };
        let id = w
            .ids
            .iter()
            .find(|(n, _)| n == i)
            .map(|(_, id)| id.clone())
            .ok_or("an item without an id")?;
        let check = match check {
            Some(Seg::Index(j)) => Some(*j),
            _ => None,
        };
        out.push(Span {
            item: id,
            check,
            range,
        });
    }
    Ok(out)
}

struct Walker<'a> {
    b: &'a [u8],
    pos: usize,
    path: Vec<Seg>,
    found: Vec<(Vec<Seg>, Range<usize>)>,
    ids: Vec<(usize, String)>,
}

impl Walker<'_> {
    fn ws(&mut self) {
        while self.pos < self.b.len() && matches!(self.b[self.pos], b' ' | b'\t' | b'\n' | b'\r') {
            self.pos += 1;
        }
    }

    fn peek(&self) -> std::result::Result<u8, String> {
        self.b
            .get(self.pos)
            .copied()
            .ok_or_else(|| "unexpected end".into())
    }

    fn value(&mut self) -> std::result::Result<(), String> {
        self.ws();
        match self.peek()? {
            b'{' => {
                self.pos += 1;
                self.ws();
                if self.peek()? == b'}' {
                    self.pos += 1;
                    return Ok(());
                }
                loop {
                    self.ws();
                    let key = self.string()?;
                    let key: String =
                        serde_json::from_slice(&self.b[key]).map_err(|e| e.to_string())?;
                    self.ws();
                    self.pos += 1; // ':'
                    self.path.push(Seg::Key(key));
                    self.value()?;
                    self.path.pop();
                    self.ws();
                    let c = self.peek()?;
                    self.pos += 1;
                    if c == b'}' {
                        return Ok(());
                    }
                }
            }
            b'[' => {
                self.pos += 1;
                self.ws();
                if self.peek()? == b']' {
                    self.pos += 1;
                    return Ok(());
                }
                let mut n = 0;
                loop {
                    self.path.push(Seg::Index(n));
                    self.value()?;
                    self.path.pop();
                    self.ws();
                    let c = self.peek()?;
                    self.pos += 1;
                    if c == b']' {
                        return Ok(());
                    }
                    n += 1;
                }
            }
            b'"' => {
                let range = self.string()?;
                let key = |s: &str| Seg::Key(s.into());
                let p = &self.path;
                let in_item = p.len() >= 2 && p[0] == key("items");
                if in_item && p.len() == 3 && p[2] == key("id") {
                    if let Seg::Index(i) = p[1] {
                        let id = serde_json::from_slice(&self.b[range.clone()])
                            .map_err(|e| e.to_string())?;
                        self.ids.push((i, id));
                    }
                }
                let digest = p.last() == Some(&key("content_digest"));
                let source = p.len() == 4 && p[2] == key("source");
                let check = p.len() == 5 && p[2] == key("checks");
                if in_item && digest && (source || check) {
                    self.found.push((p.clone(), range));
                }
                Ok(())
            }
            _ => {
                while self.pos < self.b.len()
                    && !matches!(
                        self.b[self.pos],
                        b',' | b'}' | b']' | b' ' | b'\t' | b'\n' | b'\r'
                    )
                {
                    self.pos += 1;
                }
                Ok(())
            }
        }
    }

    /// Skips a string and returns its span, quotes included.
    fn string(&mut self) -> std::result::Result<Range<usize>, String> {
        let start = self.pos;
        if self.peek()? != b'"' {
            return Err(format!("expected a string at byte {start}"));
        }
        self.pos += 1;
        loop {
            match self.peek()? {
                b'\\' => self.pos += 2,
                b'"' => {
                    self.pos += 1;
                    return Ok(start..self.pos);
                }
                _ => self.pos += 1,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::model::FileType;
    use crate::task::declaration::parse;
    use crate::task::extract::Entry;
    use crate::task::ident::digest_of;

    const OLD: &str = "sha256:0000000000000000000000000000000000000000000000000000000000000000";

    /// A hand-formatted declaration: odd spacing, members out of the usual order, an escaped
    /// key, items out of id order.
    fn text(readme: &str, make: &str, guide: &str) -> String {
        format!(
            "{{\n  \"items\" : [\n    {{ \"source\": {{\"lines\": null, \"path\": \"README.md\",\
             \n        \"content_\\u0064igest\":\"{readme}\"}},\n      \"id\": \"zz-readme\", \"kind\": \"instruction\",\
             \n      \"required\": true, \"tasks\": null, \"paths\": [\".\"],\
             \n      \"checks\": [ {{\"path\": \"Makefile\", \"content_digest\": \"{make}\", \"lines\": {{\"start\": 1, \"end\": 1}}}},\
             \n                  {{\"path\": \"docs/guide.md\", \"content_digest\": \"{guide}\", \"lines\": null}} ] }},\
             \n    {{\"id\":\"aa-guide\",\"kind\":\"reference\",\"required\":false,\"tasks\":[\"explanation\"],\"paths\":null,\
             \"source\":{{\"path\":\"docs/guide.md\",\"content_digest\":\"{guide}\",\"lines\":{{\"start\":2,\"end\":2}}}}}}\n  ],\
             \n  \"schema_version\": \"repocue/task-context-1\"\n}}\n"
        )
    }

    struct Fixture {
        dir: tempfile::TempDir,
        snapshot: BTreeMap<String, Entry>,
    }

    fn fixture(files: &[(&str, &[u8])]) -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let mut snapshot = BTreeMap::new();
        for (p, b) in files {
            let full = dir.path().join(p);
            std::fs::create_dir_all(full.parent().unwrap()).unwrap();
            std::fs::write(full, b).unwrap();
            let d = digest_of(b);
            snapshot.insert(
                p.to_string(),
                Entry {
                    file_type: FileType::Text,
                    digest: Some(d["sha256:".len()..].to_string()),
                },
            );
        }
        Fixture { dir, snapshot }
    }

    #[test]
    fn lists_stale_pins_and_rewrites_only_their_digests() {
        let files: [(&str, &[u8]); 3] = [
            ("README.md", b"readme\n"),
            ("Makefile", b"all:\n"),
            ("docs/guide.md", b"# g\nline\n"),
        ];
        let f = fixture(&files);
        let (readme, make, guide) = (
            digest_of(files[0].1),
            digest_of(files[1].1),
            digest_of(files[2].1),
        );
        let before = text(OLD, &make, OLD);
        let decl = parse("ctx.json", before.as_bytes()).unwrap();
        let pins = pins(&decl, &f.snapshot, f.dir.path()).unwrap();
        let stale: Vec<_> = pins
            .iter()
            .filter(|p| p.is_stale())
            .map(|p| (p.item.as_str(), p.role, p.index, p.path.as_str()))
            .collect();
        assert_eq!(
            stale,
            [
                ("aa-guide", Role::Source, None, "docs/guide.md"),
                ("zz-readme", Role::Source, None, "README.md"),
                ("zz-readme", Role::Check, Some(1), "docs/guide.md"),
            ]
        );
        let after = String::from_utf8(rewrite(before.as_bytes(), &pins).unwrap()).unwrap();
        assert_eq!(
            after,
            text(&readme, &make, &guide),
            "only the digests changed"
        );
        let decl = parse("ctx.json", after.as_bytes()).unwrap();
        let again = super::pins(&decl, &f.snapshot, f.dir.path()).unwrap();
        assert!(again.iter().all(|p| !p.is_stale()));
        assert_eq!(rewrite(after.as_bytes(), &again).unwrap(), after.as_bytes());
    }

    #[test]
    fn refuses_files_that_changed_since_the_snapshot_or_are_untracked() {
        let f = fixture(&[
            ("README.md", b"readme\n"),
            ("Makefile", b"x"),
            ("docs/guide.md", b""),
        ]);
        let decl = parse("c", text(OLD, OLD, OLD).as_bytes()).unwrap();
        std::fs::write(f.dir.path().join("Makefile"), b"changed").unwrap();
        assert_eq!(
            pins(&decl, &f.snapshot, f.dir.path()).unwrap_err().code(),
            "changed_during_read"
        );
        let mut snapshot = f.snapshot.clone();
        snapshot.remove("Makefile");
        assert_eq!(
            pins(&decl, &snapshot, f.dir.path()).unwrap_err().code(),
            "not_tracked"
        );
    }

    #[test]
    fn walker_handles_escapes_and_nesting() {
        let t = r#"{"items": [{"id": "a\"b", "x": [1, {"content_digest": "no"}], "source": {"content_digest": "s\\"}, "checks": [{"content_digest": "c"}]}]}"#;
        let spans = digest_spans(t.as_bytes()).unwrap();
        let got: Vec<_> = spans
            .iter()
            .map(|s| (s.item.as_str(), s.check, &t[s.range.clone()]))
            .collect();
        assert_eq!(
            got,
            [("a\"b", None, r#""s\\""#), ("a\"b", Some(0), r#""c""#)]
        );
    }
}
