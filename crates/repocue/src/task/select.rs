//! Applicability: which declared items a task kind and a set of target paths select.
//!
//! An item applies when its task kinds contain the requested kind (or are `null`) AND some
//! target matches some of its path scopes (or its scopes are `null`). Matching is
//! path-component aware, the `.` scope and the `.` target cover everything, and a target that
//! is a directory also covers scopes below it. RepoCue never reads the items' prose to decide.

use super::declaration::{check_path, Declaration, Item, TaskKind};
use crate::error::{Error, Result};

/// Parses a task kind given on the command line.
pub fn task_kind(s: &str) -> Result<TaskKind> {
    TaskKind::parse(s).ok_or_else(|| {
        Error::InvalidArgument(format!(
            "unknown task kind {s:?} (known: {})",
            TaskKind::names()
        ))
    })
}

/// Validates targets (canonical paths or `.`), sorts and de-duplicates them.
pub fn targets(raw: &[String]) -> Result<Vec<String>> {
    if raw.is_empty() {
        return Err(Error::InvalidArgument(
            "the task view needs at least one --target".into(),
        ));
    }
    for t in raw {
        check_path(t, true)
            .map_err(|d| Error::InvalidArgument(format!("invalid --target {t:?}: {d}")))?;
    }
    let mut out = raw.to_vec();
    out.sort();
    out.dedup();
    Ok(out)
}

/// Tells whether `target` falls under `scope`, or (when the target is a directory) `scope`
/// lies under `target`. Both are canonical paths or `.`.
pub fn covers(scope: &str, target: &str, target_is_dir: bool) -> bool {
    if scope == "." || target == "." || scope == target {
        return true;
    }
    let under = |inner: &str, outer: &str| {
        inner.len() > outer.len()
            && inner.starts_with(outer)
            && inner.as_bytes()[outer.len()] == b'/'
    };
    under(target, scope) || (target_is_dir && under(scope, target))
}

/// Tells whether an item applies to the request.
pub fn applies(
    item: &Item,
    kind: TaskKind,
    targets: &[String],
    is_dir: &dyn Fn(&str) -> bool,
) -> bool {
    let kind_ok = item.tasks.as_ref().is_none_or(|ts| ts.contains(&kind));
    kind_ok
        && match &item.paths {
            None => true,
            Some(scopes) => targets.iter().any(|t| {
                let dir = is_dir(t);
                scopes.iter().any(|s| covers(s, t, dir))
            }),
        }
}

/// Returns the items that apply, in id order. `targets` must come from [`targets`];
/// `is_dir` tells whether a target names a directory of the repository.
pub fn select<'a>(
    decl: &'a Declaration,
    kind: TaskKind,
    targets: &[String],
    is_dir: &dyn Fn(&str) -> bool,
) -> Vec<&'a Item> {
    let mut out: Vec<&Item> = decl
        .items
        .iter()
        .filter(|it| applies(it, kind, targets, is_dir))
        .collect();
    out.sort_by(|a, b| a.id.cmp(&b.id));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::task::declaration::{ItemKind, Reference};

    fn item(id: &str, tasks: Option<&[TaskKind]>, paths: Option<&[&str]>) -> Item {
        Item {
            id: id.into(),
            kind: ItemKind::Instruction,
            required: true,
            tasks: tasks.map(|t| t.to_vec()),
            paths: paths.map(|p| p.iter().map(|s| s.to_string()).collect()),
            source: Reference {
                path: "README.md".into(),
                content_digest: crate::task::ident::digest_of(b""),
                lines: None,
            },
            checks: vec![],
        }
    }

    fn t(list: &[&str]) -> Vec<String> {
        targets(&list.iter().map(|s| s.to_string()).collect::<Vec<_>>()).unwrap()
    }

    fn no_dirs(_: &str) -> bool {
        false
    }

    #[test]
    fn scopes_match_whole_components_only() {
        assert!(covers("cmd", "cmd", false));
        assert!(covers("cmd", "cmd/main.go", false));
        assert!(!covers("cmd", "cmdline/main.go", false));
        assert!(!covers("cmd", "cmdline/main.go", true));
        assert!(
            !covers("cmd/main.go", "cmd", false),
            "a file target does not cover deeper"
        );
        assert!(
            covers("cmd/main.go", "cmd", true),
            "a directory target does"
        );
        assert!(!covers("cmdline/x", "cmd", true));
        assert!(covers("internal/cue", "internal", true));
        assert!(covers(".", "anything/at/all", false));
        assert!(covers("deep/scope", ".", true));
        assert!(!covers("a/b", "a/c", true));
    }

    #[test]
    fn targets_are_validated_sorted_and_deduplicated() {
        assert_eq!(t(&["b", "a/x", "b", "."]), vec![".", "a/x", "b"]);
        for bad in ["", "/x", "x/", "a\\b", "../x", "C:x", "a//b"] {
            let e = targets(&[bad.to_string()]).unwrap_err();
            assert_eq!(e.code(), "invalid_argument", "{bad:?}");
        }
        assert_eq!(targets(&[]).unwrap_err().code(), "invalid_argument");
    }

    #[test]
    fn unknown_task_kinds_are_invalid_arguments() {
        assert_eq!(task_kind("discovery").unwrap(), TaskKind::Discovery);
        let e = task_kind("deploy").unwrap_err();
        assert_eq!(e.code(), "invalid_argument");
        assert!(e.to_string().contains("discovery, explanation"), "{e}");
    }

    #[test]
    fn selection_is_and_across_dimensions_and_or_within_them() {
        use TaskKind::*;
        let decl = Declaration {
            items: vec![
                item("any", None, None),
                item("cmd-only", None, Some(&["cmd"])),
                item("verify-cmd", Some(&[Verification]), Some(&["cmd"])),
                item("verify-any", Some(&[Verification, Explanation]), None),
                item("root", Some(&[Discovery]), Some(&["."])),
                item("deep", None, Some(&["internal/cue", "docs"])),
            ],
        };
        let ids = |kind, targets: &[&str], is_dir: &dyn Fn(&str) -> bool| {
            select(&decl, kind, &t(targets), is_dir)
                .into_iter()
                .map(|i| i.id.as_str())
                .collect::<Vec<_>>()
        };
        assert_eq!(
            ids(Discovery, &["cmd/main.go"], &no_dirs),
            ["any", "cmd-only", "root"]
        );
        assert_eq!(
            ids(Discovery, &["cmdline/main.go"], &no_dirs),
            ["any", "root"]
        );
        assert_eq!(
            ids(Verification, &["cmd"], &no_dirs),
            ["any", "cmd-only", "verify-any", "verify-cmd"]
        );
        assert_eq!(
            ids(Explanation, &["src/x.rs"], &no_dirs),
            ["any", "verify-any"]
        );
        // A directory target covers a deeper scope; the same name as a file does not.
        let internal_is_dir = |p: &str| p == "internal";
        assert_eq!(
            ids(Explanation, &["internal"], &internal_is_dir),
            ["any", "deep", "verify-any"]
        );
        assert_eq!(
            ids(Explanation, &["internal"], &no_dirs),
            ["any", "verify-any"]
        );
        // A future file that does not exist matches lexically.
        assert_eq!(
            ids(Discovery, &["docs/new-page.md"], &no_dirs),
            ["any", "deep", "root"]
        );
        // Several targets are a union.
        assert_eq!(
            ids(Discovery, &["docs/x.md", "cmd/y"], &no_dirs),
            ["any", "cmd-only", "deep", "root"]
        );
        // The `.` target covers every scope.
        assert_eq!(
            ids(Discovery, &["."], &no_dirs),
            ["any", "cmd-only", "deep", "root"]
        );
    }
}
