//! Strict parsing of `repocue/task-context-1` declarations and the path rules they share with
//! the command line.
//!
//! Parsing is deliberately unforgiving: an author-owned file that decides what an agent reads
//! must not be half-understood. Unknown fields, duplicate members, trailing values, invalid
//! UTF-8, missing members (`tasks`, `paths` and `lines` must be present, `null` spelling
//! "every"), bad ids, unknown task kinds and non-canonical paths all fail as
//! `invalid_declaration` with the reason.

use std::collections::BTreeSet;

use serde::{Deserialize, Deserializer};

use super::ident::{DECLARATION_SCHEMA_VERSION, DIGEST_PREFIX};
pub use crate::api::task::{ItemKind, Lines, TaskKind};
use crate::error::{Error, Result};

/// Largest declaration accepted, in bytes.
pub const MAX_DECLARATION_BYTES: usize = 1 << 20;
/// Longest item id accepted.
pub const MAX_ID_LEN: usize = 128;

/// A pinned reference to original repository text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reference {
    /// Canonical repository-relative path.
    pub path: String,
    /// Declared `sha256:<hex>` digest of the whole file.
    pub content_digest: String,
    /// Line range; `None` is the whole file.
    pub lines: Option<Lines>,
}

/// One declared item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Item {
    /// Stable unique id.
    pub id: String,
    /// The author's classification.
    pub kind: ItemKind,
    /// Whether every task cue it applies to must carry it.
    pub required: bool,
    /// Task kinds it applies to; `None` is every kind.
    pub tasks: Option<Vec<TaskKind>>,
    /// Path scopes it applies to; `None` is every target.
    pub paths: Option<Vec<String>>,
    /// The primary source.
    pub source: Reference,
    /// Supporting check references.
    pub checks: Vec<Reference>,
}

impl Item {
    /// Returns the primary source followed by the checks.
    pub fn references(&self) -> impl Iterator<Item = &Reference> {
        std::iter::once(&self.source).chain(&self.checks)
    }
}

/// A parsed and validated declaration, items sorted by id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Declaration {
    /// Items in id order.
    pub items: Vec<Item>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDeclaration {
    schema_version: String,
    items: Vec<RawItem>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawItem {
    id: String,
    kind: ItemKind,
    required: bool,
    #[serde(deserialize_with = "present")]
    tasks: Option<Vec<String>>,
    #[serde(deserialize_with = "present")]
    paths: Option<Vec<String>>,
    source: RawReference,
    #[serde(default)]
    checks: Vec<RawReference>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawReference {
    path: String,
    content_digest: String,
    #[serde(deserialize_with = "present")]
    lines: Option<Lines>,
}

/// Deserializes a nullable member that must nevertheless be present: with `deserialize_with`,
/// serde reports a missing member instead of defaulting it to `None`.
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> std::result::Result<Option<T>, D::Error> {
    Option::deserialize(d)
}

/// Parses and validates a declaration; `path` names it in errors.
pub fn parse(path: &str, bytes: &[u8]) -> Result<Declaration> {
    let invalid = |detail: String| Error::InvalidDeclaration {
        path: path.to_owned(),
        detail,
    };
    if bytes.len() > MAX_DECLARATION_BYTES {
        return Err(invalid(format!(
            "{} bytes is larger than the limit of {MAX_DECLARATION_BYTES}",
            bytes.len()
        )));
    }
    let text = std::str::from_utf8(bytes)
        .map_err(|e| invalid(format!("not valid UTF-8 at byte {}", e.valid_up_to())))?;
    // `from_str` rejects trailing values; derived structs reject duplicate members but accept
    // arrays in place of objects, which the shape check rules out first.
    let value: serde_json::Value =
        serde_json::from_str(text).map_err(|e| invalid(e.to_string()))?;
    check_shape(&value).map_err(invalid)?;
    let raw: RawDeclaration = serde_json::from_str(text).map_err(|e| invalid(e.to_string()))?;
    if raw.schema_version != DECLARATION_SCHEMA_VERSION {
        return Err(invalid(format!(
            "schema_version is {:?}, expected {DECLARATION_SCHEMA_VERSION:?}",
            raw.schema_version
        )));
    }
    let mut items = Vec::with_capacity(raw.items.len());
    let mut ids = BTreeSet::new();
    for (n, it) in raw.items.into_iter().enumerate() {
        let at = |what: &str, detail: String| invalid(format!("items[{n}].{what}: {detail}"));
        check_id(&it.id).map_err(|d| at("id", d))?;
        if !ids.insert(it.id.clone()) {
            return Err(at("id", format!("duplicate id {:?}", it.id)));
        }
        let tasks = match it.tasks {
            None => None,
            Some(list) => {
                let mut kinds = Vec::with_capacity(list.len());
                for t in &list {
                    let k = TaskKind::parse(t).ok_or_else(|| {
                        at(
                            "tasks",
                            format!("unknown task kind {t:?} (known: {})", TaskKind::names()),
                        )
                    })?;
                    kinds.push(k);
                }
                Some(nonempty_unique(kinds).map_err(|d| at("tasks", d))?)
            }
        };
        let paths = match it.paths {
            None => None,
            Some(list) => {
                for p in &list {
                    check_path(p, true).map_err(|d| at("paths", format!("{p:?}: {d}")))?;
                }
                Some(nonempty_unique(list).map_err(|d| at("paths", d))?)
            }
        };
        let source = reference(it.source).map_err(|d| at("source", d))?;
        let mut checks = Vec::with_capacity(it.checks.len());
        for (c, r) in it.checks.into_iter().enumerate() {
            checks.push(reference(r).map_err(|d| at(&format!("checks[{c}]"), d))?);
        }
        items.push(Item {
            id: it.id,
            kind: it.kind,
            required: it.required,
            tasks,
            paths,
            source,
            checks,
        });
    }
    items.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(Declaration { items })
}

/// Requires objects wherever the contract has objects: serde's derived structs would also
/// take a positional array, which no author means.
fn check_shape(v: &serde_json::Value) -> std::result::Result<(), String> {
    use serde_json::Value;
    let object = |v: &Value, what: &str| match v {
        Value::Object(_) => Ok(()),
        _ => Err(format!("{what} must be an object")),
    };
    let object_or_null = |v: Option<&Value>, what: &str| match v {
        None | Some(Value::Null) => Ok(()),
        Some(v) => object(v, what),
    };
    object(v, "the declaration")?;
    let Some(Value::Array(items)) = v.get("items") else {
        return Ok(()); // the typed pass names the problem
    };
    for (n, it) in items.iter().enumerate() {
        object(it, &format!("items[{n}]"))?;
        let source = it.get("source");
        object_or_null(source, &format!("items[{n}].source"))?;
        object_or_null(
            source.and_then(|s| s.get("lines")),
            &format!("items[{n}].source.lines"),
        )?;
        if let Some(Value::Array(checks)) = it.get("checks") {
            for (c, r) in checks.iter().enumerate() {
                object(r, &format!("items[{n}].checks[{c}]"))?;
                object_or_null(r.get("lines"), &format!("items[{n}].checks[{c}].lines"))?;
            }
        }
    }
    Ok(())
}

fn reference(raw: RawReference) -> std::result::Result<Reference, String> {
    check_path(&raw.path, false).map_err(|d| format!("path {:?}: {d}", raw.path))?;
    check_digest(&raw.content_digest)?;
    if let Some(l) = raw.lines {
        if l.start == 0 || l.start > l.end {
            return Err(format!(
                "lines {{start: {}, end: {}}} is not a 1-based range with start <= end",
                l.start, l.end
            ));
        }
    }
    Ok(Reference {
        path: raw.path,
        content_digest: raw.content_digest,
        lines: raw.lines,
    })
}

/// Sorts a list, rejecting an empty one (say `null` for "every") and duplicates.
fn nonempty_unique<T: Ord + std::fmt::Debug>(
    mut list: Vec<T>,
) -> std::result::Result<Vec<T>, String> {
    if list.is_empty() {
        return Err("empty list; use null for \"every\"".into());
    }
    list.sort();
    if let Some(w) = list.windows(2).find(|w| w[0] == w[1]) {
        return Err(format!("duplicate entry {:?}", w[0]));
    }
    Ok(list)
}

/// Checks an item id: `^[a-z0-9][a-z0-9._-]*$`, at most [`MAX_ID_LEN`] bytes.
pub fn check_id(id: &str) -> std::result::Result<(), String> {
    let b = id.as_bytes();
    let ok_first = b
        .first()
        .is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
    let ok_rest = b
        .iter()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, b'.' | b'_' | b'-'));
    if !ok_first || !ok_rest || b.len() > MAX_ID_LEN {
        return Err(format!(
            "{id:?} is not an id (lowercase letters, digits, '.', '_', '-', starting with a \
             letter or digit, at most {MAX_ID_LEN} bytes)"
        ));
    }
    Ok(())
}

/// Checks a `sha256:` digest of 64 lowercase hex digits.
pub fn check_digest(d: &str) -> std::result::Result<(), String> {
    let hex = d.strip_prefix(DIGEST_PREFIX).unwrap_or("");
    if hex.len() != 64
        || !hex
            .bytes()
            .all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c))
    {
        return Err(format!(
            "content_digest {d:?} is not \"sha256:\" followed by 64 lowercase hex digits"
        ));
    }
    Ok(())
}

/// Checks a canonical repository-relative slash path with exact case. `allow_root` admits the
/// single `.` (the whole repository) used by scopes and targets.
///
/// Rejected: empty, absolute, drive-qualified, backslashes, control characters, `.` or `..`
/// segments, doubled or trailing slashes.
pub fn check_path(p: &str, allow_root: bool) -> std::result::Result<(), String> {
    if p.is_empty() {
        return Err("empty path".into());
    }
    if p == "." {
        return if allow_root {
            Ok(())
        } else {
            Err("\".\" names the repository, not a file".into())
        };
    }
    let b = p.as_bytes();
    if b[0] == b'/' {
        return Err("absolute path; use a repository-relative path".into());
    }
    if b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':' {
        return Err("drive-qualified path".into());
    }
    if b.contains(&b'\\') {
        return Err("backslash; use '/' as the separator".into());
    }
    if p.chars().any(char::is_control) {
        return Err("control character".into());
    }
    if b.ends_with(b"/") {
        return Err("trailing slash".into());
    }
    for seg in p.split('/') {
        match seg {
            "" => return Err("doubled slash".into()),
            "." | ".." => return Err(format!("{seg:?} segment; use the canonical path")),
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const D1: &str = "sha256:1111111111111111111111111111111111111111111111111111111111111111";

    fn item(id: &str) -> String {
        format!(
            r#"{{"id": "{id}", "kind": "instruction", "required": true, "tasks": null,
                "paths": null,
                "source": {{"path": "README.md", "content_digest": "{D1}", "lines": null}}}}"#
        )
    }

    fn doc(items: &[String]) -> String {
        format!(
            r#"{{"schema_version": "repocue/task-context-1", "items": [{}]}}"#,
            items.join(",")
        )
    }

    fn err(text: &str) -> String {
        match parse("ctx.json", text.as_bytes()) {
            Ok(d) => panic!("accepted: {d:?}"),
            Err(e) => {
                assert_eq!(e.code(), "invalid_declaration", "{e}");
                e.to_string()
            }
        }
    }

    #[test]
    fn parses_a_full_declaration_and_sorts_items_by_id() {
        let text = format!(
            r#"{{"schema_version": "repocue/task-context-1", "items": [
                {{"id": "zeta", "kind": "procedure", "required": false,
                  "tasks": ["verification", "discovery"], "paths": ["src", "."],
                  "source": {{"path": "Makefile", "content_digest": "{D1}",
                              "lines": {{"start": 2, "end": 4}}}},
                  "checks": [{{"path": ".ci/run", "content_digest": "{D1}", "lines": null}}]}},
                {}]}}"#,
            item("alpha")
        );
        let d = parse("ctx.json", text.as_bytes()).unwrap();
        assert_eq!(d.items.len(), 2);
        assert_eq!(d.items[0].id, "alpha");
        assert_eq!(d.items[0].tasks, None);
        assert!(d.items[0].checks.is_empty());
        let z = &d.items[1];
        assert_eq!(z.kind, ItemKind::Procedure);
        assert!(!z.required);
        assert_eq!(
            z.tasks,
            Some(vec![TaskKind::Discovery, TaskKind::Verification])
        );
        assert_eq!(z.paths, Some(vec![".".to_string(), "src".to_string()]));
        assert_eq!(z.source.lines, Some(Lines { start: 2, end: 4 }));
        assert_eq!(z.checks[0].path, ".ci/run");
        assert_eq!(z.references().count(), 2);
    }

    #[test]
    fn accepts_an_empty_item_list() {
        assert!(parse("c", doc(&[]).as_bytes()).unwrap().items.is_empty());
    }

    #[test]
    fn rejects_malformed_json_of_every_kind() {
        assert!(err("{").contains("EOF"));
        assert!(err(&format!("{} {{}}", doc(&[]))).contains("trailing"));
        assert!(err(&format!("{} []", doc(&[]))).contains("trailing"));
        assert!(
            err(r#"{"schema_version": "repocue/task-context-1", "items": [], "x": 1}"#)
                .contains("unknown field")
        );
        assert!(err(r#"{"schema_version": "repocue/task-context-1", "schema_version": "repocue/task-context-1", "items": []}"#)
            .contains("duplicate field"));
        assert!(
            err(r#"{"schema_version": "repocue/task-context-2", "items": []}"#)
                .contains("schema_version")
        );
        assert!(err(r#"{"items": []}"#).contains("missing field"));
        assert!(err("[]").contains("the declaration must be an object"));
        assert!(err(r#"["repocue/task-context-1", []]"#).contains("must be an object"));
        let positional = format!(
            r#"{{"schema_version": "repocue/task-context-1", "items": [["a", "instruction",
               true, null, null, {{"path": "README.md", "content_digest": "{D1}",
               "lines": null}}]]}}"#
        );
        assert!(err(&positional).contains("items[0] must be an object"));
        let lines = doc(&[item("a").replace(r#""lines": null"#, r#""lines": [1, 2]"#)]);
        assert!(err(&lines).contains("items[0].source.lines must be an object"));
        let source = doc(&[item("a").replace(
            &format!(r#"{{"path": "README.md", "content_digest": "{D1}", "lines": null}}"#),
            &format!(r#"["README.md", "{D1}", null]"#),
        )]);
        assert!(
            err(&source).contains("items[0].source must be an object"),
            "{source}"
        );
        let e = parse("c", b"{\"schema_version\": \"\xff\"}").unwrap_err();
        assert_eq!(e.code(), "invalid_declaration");
        assert!(e.to_string().contains("UTF-8 at byte 20"), "{e}");
        let big = vec![b' '; MAX_DECLARATION_BYTES + 1];
        assert!(parse("c", &big).unwrap_err().to_string().contains("limit"));
    }

    #[test]
    fn rejects_bad_members_inside_items() {
        let base = item("a");
        let cases: &[(&str, &str, &str)] = &[
            (
                r#""kind": "instruction""#,
                r#""kind": "rule""#,
                "unknown variant",
            ),
            (
                r#""required": true"#,
                r#""required": "yes""#,
                "invalid type",
            ),
            (r#""tasks": null,"#, "", "missing field `tasks`"),
            (r#""paths": null,"#, "", "missing field `paths`"),
            (r#", "lines": null"#, "", "missing field `lines`"),
            (
                r#""tasks": null"#,
                r#""tasks": ["deploy"]"#,
                "unknown task kind \"deploy\"",
            ),
            (
                r#""tasks": null"#,
                r#""tasks": ["Discovery"]"#,
                "unknown task kind",
            ),
            (r#""tasks": null"#, r#""tasks": []"#, "empty list"),
            (
                r#""tasks": null"#,
                r#""tasks": ["discovery", "discovery"]"#,
                "duplicate entry",
            ),
            (
                r#""paths": null"#,
                r#""paths": ["src", "src"]"#,
                "duplicate entry",
            ),
            (r#""paths": null"#, r#""paths": ["src/"]"#, "trailing slash"),
            (r#""paths": null"#, r#""paths": ["./src"]"#, "segment"),
            (
                r#""lines": null"#,
                r#""lines": {"start": 0, "end": 1}"#,
                "1-based",
            ),
            (
                r#""lines": null"#,
                r#""lines": {"start": 3, "end": 2}"#,
                "start <= end",
            ),
            (
                r#""lines": null"#,
                r#""lines": {"start": 1}"#,
                "missing field `end`",
            ),
            (
                r#""lines": null"#,
                r#""lines": {"start": 1, "end": 2, "x": 0}"#,
                "unknown field",
            ),
            (
                r#""lines": null"#,
                r#""lines": {"start": 1, "start": 1, "end": 2}"#,
                "duplicate field",
            ),
            (
                r#""lines": null"#,
                r#""lines": {"start": -1, "end": 2}"#,
                "invalid value",
            ),
            (
                r#""path": "README.md""#,
                r#""path": ".""#,
                "names the repository",
            ),
            (
                r#""path": "README.md""#,
                r#""path": "/etc/passwd""#,
                "absolute",
            ),
            (r#""id": "a""#, r#""id": "A""#, "is not an id"),
            (r#""id": "a""#, r#""id": """#, "is not an id"),
            (r#""id": "a""#, r#""id": "-a""#, "is not an id"),
            (r#""id": "a""#, r#""id": "a b""#, "is not an id"),
            (r#""id": "a""#, r#""id": "a", "id": "b""#, "duplicate field"),
            (
                r#""id": "a""#,
                r#""id": "a", "title": "x""#,
                "unknown field",
            ),
        ];
        for (from, to, want) in cases {
            assert!(base.contains(from), "{from}");
            let text = doc(&[base.replacen(from, to, 1)]);
            let e = err(&text);
            assert!(e.contains(want), "{from} -> {to}: {e}");
        }
        let d = D1.replace("sha256:", "sha256:A");
        let e = err(&doc(&[base.replace(D1, &d[..D1.len()])]));
        assert!(e.contains("content_digest"), "{e}");
        let e = err(&doc(&[base.replace(D1, "sha256:11")]));
        assert!(e.contains("content_digest"), "{e}");
        let e = err(&doc(&[base.replace(D1, &D1.replace("sha256:", "md5:"))]));
        assert!(e.contains("content_digest"), "{e}");
        let e = err(&doc(&[item("a"), item("b"), item("a")]));
        assert!(e.contains("items[2].id: duplicate id"), "{e}");
        let with_check = base.replacen(
            r#""lines": null}"#,
            r#""lines": null}, "checks": [{"path": "a//b", "content_digest": "x", "lines": null}]"#,
            1,
        );
        assert!(err(&doc(&[with_check])).contains("checks[0]: path \"a//b\": doubled slash"));
    }

    #[test]
    fn path_rules_reject_every_non_canonical_form() {
        for ok in [
            "README.md",
            "a/b/c.rs",
            ".ci/run",
            "a..b",
            "..a/b",
            "Ä/ü.md",
        ] {
            assert_eq!(check_path(ok, false), Ok(()), "{ok}");
        }
        assert_eq!(check_path(".", true), Ok(()));
        for (bad, why) in [
            ("", "empty"),
            (".", "names the repository"),
            ("/abs", "absolute"),
            ("C:/x", "drive"),
            ("c:x", "drive"),
            ("a\\b", "backslash"),
            ("a\tb", "control"),
            ("a\u{7f}", "control"),
            ("a/", "trailing"),
            ("a//b", "doubled"),
            ("./a", "segment"),
            ("a/./b", "segment"),
            ("a/..", "segment"),
            ("../a", "segment"),
            ("..", "segment"),
        ] {
            let e = check_path(bad, false).unwrap_err();
            assert!(e.contains(why), "{bad:?}: {e}");
        }
        assert!(check_path("./", true).is_err());
        assert!(check_path("..", true).is_err());
    }

    /// The worked example of this repository stays a valid declaration (its pins are checked
    /// with `repocue task-context check`, not here: they change with every README edit).
    #[test]
    fn the_repository_example_parses() {
        let text = include_str!("../../../../docs/task-context.example.json");
        let d = parse("docs/task-context.example.json", text.as_bytes()).unwrap();
        assert_eq!(d.items[0].id, "agent-skill");
        assert!(d
            .items
            .iter()
            .any(|i| i.id == "repository-context" && i.required));
    }

    #[test]
    fn task_kinds_parse_exactly() {
        assert_eq!(
            TaskKind::parse("verification"),
            Some(TaskKind::Verification)
        );
        assert_eq!(TaskKind::parse("Verification"), None);
        assert_eq!(TaskKind::names(), "discovery, explanation, verification");
    }
}
