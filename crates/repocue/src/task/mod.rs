//! Task context: author-declared original repository text for a kind of task.
//!
//! A `repocue/task-context-1` declaration is a tracked JSON file listing *items*: a stable id,
//! a kind, the task kinds and path scopes it applies to, whether it is required, and a pinned
//! source reference (path, full-file SHA-256, optional inclusive line range) with supporting
//! check references of the same shape. This module owns everything between the declaration's
//! bytes and the task cue's content, as pure stages over plain inputs:
//!
//! - [`declaration`]: strict parsing and path rules;
//! - [`select`]: which items apply to a task kind and target paths;
//! - [`extract`]: tracked/regular/symlink checks, streamed digests, line extraction;
//! - [`budget`]: the mandatory envelope, then optional items whole, or `budget_too_small`;
//! - [`pin`]: stale-pin listing and the digest rewrite behind `task-context pin --update`.
//!
//! RepoCue never reads the prose to decide anything: applicability is the declared data only,
//! and the delivered text is the original bytes, never a summary.

pub mod budget;
pub mod declaration;
pub mod extract;
pub mod ident;
pub mod pin;
pub mod select;

pub use ident::{digest_of, source_id};

/// A task cue request, already parsed from flags.
#[derive(Debug, Clone)]
pub struct TaskQuery {
    /// Repository-relative path of the declaration.
    pub context_file: String,
    /// The task kind.
    pub task_kind: declaration::TaskKind,
    /// Target paths, validated, sorted and de-duplicated (see [`select::targets`]).
    pub targets: Vec<String>,
    /// Token budget.
    pub max_tokens: u64,
}

/// Parses the raw task flags into a [`TaskQuery`], or `invalid_argument`.
pub fn query(
    context_file: &str,
    task_kind: &str,
    targets: &[String],
    max_tokens: u64,
) -> crate::Result<TaskQuery> {
    declaration::check_path(context_file, false).map_err(|d| {
        crate::Error::InvalidArgument(format!("invalid --context-file {context_file:?}: {d}"))
    })?;
    Ok(TaskQuery {
        context_file: context_file.to_owned(),
        task_kind: select::task_kind(task_kind)?,
        targets: select::targets(targets)?,
        max_tokens,
    })
}

/// Reads the declaration: tracked, regular, not linked, its bytes equal to the snapshot's,
/// strictly parsed. Returns it with its `sha256:` digest.
pub fn load(
    snapshot: &dyn extract::SnapshotFiles,
    root: &std::path::Path,
    path: &str,
) -> crate::Result<(declaration::Declaration, String, Vec<u8>)> {
    let in_snapshot = extract::check_tracked(snapshot, root, path)?;
    let limit = declaration::MAX_DECLARATION_BYTES as u64;
    let read = extract::read(root, path, None, limit)?;
    if read.digest != in_snapshot {
        return Err(crate::Error::StalePin {
            path: path.to_owned(),
            expected: in_snapshot.clone(),
            snapshot: in_snapshot,
            actual: read.digest,
        });
    }
    let bytes = match read.text {
        Some(t) => t.into_bytes(),
        // Invalid UTF-8 or too large: read the bytes again only to let the parser say which.
        None => std::fs::read(root.join(path)).map_err(|source| crate::Error::UnreadableFile {
            path: path.to_owned(),
            source,
        })?,
    };
    let decl = declaration::parse(path, &bytes)?;
    Ok((decl, read.digest, bytes))
}

/// Most bytes one task cue reads: each distinct source (a file, or a line range of one) is
/// read whole, to check its pin, so a declaration of thousands of line ranges of one large
/// file read it thousands of times (4,800 ranges of a 100 MB file: a cue that never ended).
pub const MAX_READ_BYTES: u64 = 1 << 30;

/// Refuses a selection whose distinct sources would read more than [`MAX_READ_BYTES`], before
/// any is read (sizes from the work tree; a file that cannot be looked at counts nothing here
/// and fails when read).
fn within_read_budget(
    declaration: &str,
    root: &std::path::Path,
    items: &[&declaration::Item],
) -> crate::Result<()> {
    let mut seen = std::collections::HashSet::new();
    let mut total = 0u64;
    for r in items.iter().flat_map(|it| it.references()) {
        if seen.insert(source_id(&r.path, &r.content_digest, r.lines)) {
            let size = std::fs::symlink_metadata(root.join(&r.path)).map_or(0, |m| m.len());
            total = total.saturating_add(size);
        }
    }
    if total > MAX_READ_BYTES {
        return Err(crate::Error::InvalidDeclaration {
            path: declaration.to_owned(),
            detail: format!(
                "its {} selected sources would read {total} bytes (each source reads its file \
                 whole); a task cue reads at most {MAX_READ_BYTES}: reference fewer line ranges \
                 of large files",
                seen.len()
            ),
        });
    }
    Ok(())
}

/// Parses rewritten declaration bytes once more: a rewrite must never produce a file that no
/// longer parses.
pub fn parse_again(path: &str, bytes: &[u8]) -> crate::Result<declaration::Declaration> {
    declaration::parse(path, bytes)
}

/// Builds a task cue: loads the declaration, selects the items, validates and extracts every
/// selected source (even those whose text the budget will leave out), then fits them.
/// `render(content, max_tokens, estimated_tokens)` returns the whole document.
pub fn build(
    snapshot: &dyn extract::SnapshotFiles,
    root: &std::path::Path,
    q: &TaskQuery,
    retain_limit: u64,
    render: &budget::Render,
) -> crate::Result<budget::Fitted> {
    let (decl, digest, _) = load(snapshot, root, &q.context_file)?;
    let is_dir = |p: &str| snapshot.is_dir(p);
    let items = select::select(&decl, q.task_kind, &q.targets, &is_dir);
    within_read_budget(&q.context_file, root, &items)?;
    let mut sources: std::collections::BTreeMap<String, extract::Source> = Default::default();
    let mut per_item = Vec::with_capacity(items.len());
    for it in &items {
        let mut ids = Vec::new();
        for r in it.references() {
            let id = source_id(&r.path, &r.content_digest, r.lines);
            if !sources.contains_key(&id) {
                let src = extract::extract(snapshot, root, r, retain_limit)?;
                sources.insert(id.clone(), src);
            }
            ids.push(id);
        }
        per_item.push(ids);
    }
    let selected: Vec<budget::Selected> = items
        .iter()
        .zip(&per_item)
        .map(|(it, ids)| budget::Selected {
            item: it,
            sources: ids.iter().map(|id| &sources[id]).collect(),
        })
        .collect();
    let base = budget::TaskContent {
        declaration: budget::DeclarationRef {
            path: q.context_file.clone(),
            content_digest: digest,
        },
        request: budget::TaskRequest {
            task_kind: q.task_kind,
            targets: q.targets.clone(),
        },
        required_ids: vec![],
        items: vec![],
        sources: vec![],
        omitted: budget::Omitted {
            count: 0,
            items: vec![],
        },
    };
    budget::fit(base, &selected, q.max_tokens, render)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::task::Lines;
    use ident::DIGEST_PREFIX;

    #[test]
    fn digests_are_prefixed_lowercase_hex() {
        assert_eq!(
            digest_of(b""),
            "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }

    #[test]
    fn source_ids_depend_on_path_digest_and_range() {
        let d = digest_of(b"x");
        let whole = source_id("README.md", &d, None);
        assert!(whole.starts_with("src-") && whole.len() == 20, "{whole}");
        assert_eq!(whole, source_id("README.md", &d, None));
        assert_ne!(
            whole,
            source_id("README.md", &d, Some(Lines { start: 1, end: 1 }))
        );
        assert_ne!(whole, source_id("docs/README.md", &d, None));
        assert_ne!(whole, source_id("README.md", &digest_of(b"y"), None));
        assert_ne!(
            source_id("a", &d, Some(Lines { start: 1, end: 23 })),
            source_id("a", &d, Some(Lines { start: 12, end: 3 }))
        );
    }

    use std::collections::BTreeMap;

    use crate::model::FileType;
    use extract::Entry;

    struct Repo {
        dir: tempfile::TempDir,
        snapshot: BTreeMap<String, Entry>,
    }

    impl Repo {
        fn new() -> Self {
            Repo {
                dir: tempfile::tempdir().unwrap(),
                snapshot: BTreeMap::new(),
            }
        }

        fn file(&mut self, path: &str, bytes: &[u8]) -> String {
            let full = self.dir.path().join(path);
            std::fs::create_dir_all(full.parent().unwrap()).unwrap();
            std::fs::write(full, bytes).unwrap();
            let d = digest_of(bytes);
            let entry = Entry {
                file_type: FileType::Text,
                digest: Some(d[DIGEST_PREFIX.len()..].to_owned()),
            };
            self.snapshot.insert(path.into(), entry);
            d
        }

        fn build(&self, kind: &str, targets: &[&str], max: u64) -> crate::Result<budget::Fitted> {
            let targets: Vec<String> = targets.iter().map(|s| s.to_string()).collect();
            let q = query("ctx.json", kind, &targets, max)?;
            build(&self.snapshot, self.dir.path(), &q, 80_000, &render)
        }
    }

    fn render(c: &budget::TaskContent, max: u64, est: u64) -> String {
        let v = serde_json::json!({"max": max, "est": est, "content": c});
        serde_json::to_string(&v).unwrap()
    }

    fn declaration(items: &[(&str, bool, &str, &str, Option<&str>)]) -> String {
        let items: Vec<_> = items
            .iter()
            .map(|(id, required, paths, src, check)| {
                let r = |p: &str| {
                    format!(r#"{{"path": "{p}", "content_digest": "DIGEST:{p}", "lines": null}}"#)
                };
                let checks = check
                    .map(|c| format!(", \"checks\": [{}]", r(c)))
                    .unwrap_or_default();
                format!(
                    r#"{{"id": "{id}", "kind": "procedure", "required": {required},
                         "tasks": null, "paths": {paths}, "source": {}{checks}}}"#,
                    r(src)
                )
            })
            .collect();
        format!(
            r#"{{"schema_version": "repocue/task-context-1", "items": [{}]}}"#,
            items.join(",")
        )
    }

    fn pinned(repo: &Repo, text: &str) -> String {
        let mut out = text.to_owned();
        for (p, e) in &repo.snapshot {
            let d = format!("{DIGEST_PREFIX}{}", e.digest.as_deref().unwrap());
            out = out.replace(&format!("DIGEST:{p}\""), &format!("{d}\""));
        }
        // Files that do not exist get a well-formed digest of nothing in particular.
        let mut rest = out.as_str();
        let mut fixed = String::new();
        while let Some(i) = rest.find("DIGEST:") {
            let end = i + rest[i..].find('"').unwrap();
            fixed.push_str(&rest[..i]);
            fixed.push_str(&digest_of(&rest.as_bytes()[i..end]));
            rest = &rest[end..];
        }
        fixed.push_str(rest);
        fixed
    }

    #[test]
    fn builds_a_cue_from_files_on_disk() {
        let mut repo = Repo::new();
        repo.file("README.md", b"# Project\n");
        repo.file("docs/build.md", b"run make\n");
        repo.file("internal/cue/a.go", b"package cue\n");
        let text = declaration(&[
            ("repository-context", true, "[\".\"]", "README.md", None),
            (
                "build",
                false,
                "[\"internal/cue\"]",
                "docs/build.md",
                Some("README.md"),
            ),
            ("elsewhere", true, "[\"cmd\"]", "missing.md", None),
        ]);
        let text = pinned(&repo, &text);
        repo.file("ctx.json", text.as_bytes());
        let f = repo
            .build("discovery", &["internal", "internal"], 2000)
            .unwrap();
        assert_eq!(f.content.required_ids, ["repository-context"]);
        assert_eq!(f.content.request.targets, ["internal"]);
        let items: Vec<_> = f.content.items.iter().map(|i| i.id.as_str()).collect();
        assert_eq!(items, ["build", "repository-context"]);
        assert_eq!(f.content.sources.len(), 2, "README.md is shared");
        assert_eq!(
            f.content.declaration.content_digest,
            digest_of(text.as_bytes())
        );
        // A file target does not cover the deeper scope: only the root item applies.
        let f = repo
            .build("discovery", &["internal/cue/a.go"], 2000)
            .unwrap();
        assert_eq!(f.content.items.len(), 2);
        let f = repo.build("discovery", &["README.md"], 2000).unwrap();
        assert_eq!(f.content.items.len(), 1);
        // Selecting the item whose source is not tracked fails, as does a bad flag.
        assert_eq!(
            repo.build("discovery", &["cmd"], 2000).unwrap_err().code(),
            "not_tracked"
        );
        assert_eq!(
            repo.build("deploy", &["."], 2000).unwrap_err().code(),
            "invalid_argument"
        );
        assert_eq!(
            repo.build("discovery", &[], 2000).unwrap_err().code(),
            "invalid_argument"
        );
    }

    #[test]
    fn an_omitted_optional_item_with_a_stale_pin_still_fails() {
        let mut repo = Repo::new();
        repo.file("README.md", b"short\n");
        repo.file("big.md", "x".repeat(8000).as_bytes());
        let text = declaration(&[
            ("a", true, "null", "README.md", None),
            ("b", false, "null", "big.md", None),
        ]);
        let text = pinned(&repo, &text);
        repo.file("ctx.json", text.as_bytes());
        let f = repo.build("verification", &["."], 600).unwrap();
        assert_eq!(f.content.omitted.count, 1);
        repo.file("big.md", b"changed");
        assert_eq!(
            repo.build("verification", &["."], 600).unwrap_err().code(),
            "stale_pin"
        );
    }

    #[test]
    fn the_declaration_must_match_the_snapshot_and_parse() {
        let mut repo = Repo::new();
        repo.file("ctx.json", declaration(&[]).as_bytes());
        assert_eq!(
            repo.build("discovery", &["."], 500)
                .unwrap()
                .content
                .items
                .len(),
            0
        );
        std::fs::write(repo.dir.path().join("ctx.json"), b"{}").unwrap();
        assert_eq!(
            repo.build("discovery", &["."], 500).unwrap_err().code(),
            "stale_pin"
        );
        repo.file("ctx.json", b"{\"schema_version\": \"\xff\"}");
        let e = repo.build("discovery", &["."], 500).unwrap_err();
        assert_eq!(e.code(), "invalid_declaration", "{e}");
        repo.snapshot.remove("ctx.json");
        assert_eq!(
            repo.build("discovery", &["."], 500).unwrap_err().code(),
            "not_tracked"
        );
        let e = query("/abs.json", "discovery", &[".".into()], 500).unwrap_err();
        assert_eq!(e.code(), "invalid_argument");
    }
}
