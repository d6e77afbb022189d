//! The `document` view: one document's outline, links and a staleness verdict with evidence.
//!
//! Staleness is deterministic and evidence-based: a link to a repository path that no longer
//! exists confirms staleness; a linked file that changed after the document (within the
//! epoch's history) makes it possibly stale. Without checkable references the verdict is
//! `unknown`, never a guess.

use crate::api::views::*;
use crate::api::{Cue, CueRequest};
use crate::api::{EntityId, SnapshotId};
use crate::cue::envelope::envelope;
use crate::cue::fit::{fit, Item, Section};
use crate::error::{Error, Result};
use crate::paths;
use crate::read::Reader;

/// Resolves a link of the document at `doc` to a repository path: `None` for URLs, anchors
/// and paths that escape the root.
pub(crate) fn file_link(doc: &str, target: &str) -> Option<String> {
    let url = target.contains("://") || target.starts_with("mailto:");
    (!url && !target.starts_with('#'))
        .then(|| resolve(doc, target))
        .flatten()
}

/// Resolves a relative link against the document's directory; `None` if it escapes the root.
fn resolve(doc: &str, target: &str) -> Option<String> {
    let target = target.split(['#', '?']).next()?;
    if target.is_empty() {
        return None;
    }
    let mut parts: Vec<&str> = if let Some(abs) = target.strip_prefix('/') {
        abs.split('/').collect()
    } else {
        let dir = doc.rfind('/').map_or("", |i| &doc[..i]);
        dir.split('/')
            .filter(|p| !p.is_empty())
            .chain(target.split('/'))
            .collect()
    };
    let mut out: Vec<&str> = Vec::new();
    for p in parts.drain(..) {
        match p {
            "" | "." => {}
            ".." => {
                out.pop()?;
            }
            other => out.push(other),
        }
    }
    (!out.is_empty()).then(|| out.join("/"))
}

/// Classifies a document's link targets (files resolved against its path, URLs, anchors),
/// files first; returns them with the resolved file paths.
fn links_of(
    path: &str,
    targets: &[String],
    all_files: &[crate::model::FileState],
) -> (Vec<Link>, Vec<String>) {
    let mut links: Vec<Link> = Vec::new();
    let mut file_links: Vec<String> = Vec::new();
    let tree = Tree::of(all_files);
    for t in targets {
        let link = if t.contains("://") || t.starts_with("mailto:") {
            Link {
                target: t.clone(),
                kind: "url".into(),
                path: None,
                exists: None,
            }
        } else if t.starts_with('#') {
            Link {
                target: t.clone(),
                kind: "anchor".into(),
                path: None,
                exists: None,
            }
        } else {
            let resolved = resolve(path, t);
            let exists = resolved.as_ref().map(|r| tree.holds(r));
            if let Some(r) = &resolved {
                file_links.push(r.clone());
            }
            Link {
                target: t.clone(),
                kind: "file".into(),
                path: resolved,
                exists: Some(exists.unwrap_or(false)),
            }
        };
        links.push(link);
    }
    links.sort_by_key(|l| match l.kind.as_str() {
        "file" => 0,
        "anchor" => 2,
        _ => 1,
    });
    (links, file_links)
}

/// The snapshot's paths in byte order, for link checks: one sort, then a binary search per
/// link (a README with 200 links on a 27,000-file repository compared every path with every
/// link).
struct Tree<'a> {
    paths: std::cell::OnceCell<Vec<(&'a [u8], bool)>>,
    files: &'a [crate::model::FileState],
}

impl<'a> Tree<'a> {
    fn of(files: &'a [crate::model::FileState]) -> Self {
        Tree {
            paths: std::cell::OnceCell::new(),
            files,
        }
    }

    /// Tells whether `target` is a file present in the work tree, or a directory holding a
    /// tracked path.
    fn holds(&self, target: &str) -> bool {
        let paths = self.paths.get_or_init(|| {
            let mut p: Vec<(&[u8], bool)> = self
                .files
                .iter()
                .map(|f| (f.path.as_slice(), f.exists()))
                .collect();
            p.sort_unstable();
            p
        });
        let first_from = |key: &[u8]| paths.partition_point(|(p, _)| *p < key);
        let file = target.as_bytes();
        if paths
            .get(first_from(file))
            .is_some_and(|(p, present)| *p == file && *present)
        {
            return true;
        }
        let dir = [file, b"/"].concat();
        paths
            .get(first_from(&dir))
            .is_some_and(|(p, _)| p.starts_with(&dir))
    }
}

/// The document's staleness from its links: a missing target confirms it stale, a target
/// changed after it makes it possibly stale. Returns the evidence and the snapshot the
/// document last changed in.
fn staleness(
    state: &Reader,
    doc: &[u8],
    links: &[Link],
    file_links: &[String],
) -> Result<(DocFreshness, Vec<String>, Option<i64>)> {
    let mut evidence = Vec::new();
    let missing: Vec<&Link> = links.iter().filter(|l| l.exists == Some(false)).collect();
    let mut wanted: Vec<&[u8]> = file_links.iter().map(|p| p.as_bytes()).collect();
    wanted.push(doc);
    let changed = state.store.last_changed(&state.snapshot, &wanted)?;
    let doc_seq = changed.get(doc).copied();
    let staleness = if !missing.is_empty() {
        for l in &missing {
            evidence.push(format!(
                "links to {} which does not exist",
                l.path.as_deref().unwrap_or(&l.target)
            ));
        }
        DocFreshness::StaleConfirmed
    } else if file_links.is_empty() {
        DocFreshness::Unknown
    } else {
        let newer: Vec<(String, i64)> = file_links
            .iter()
            .filter_map(|p| changed.get(p.as_bytes()).map(|s| (p.clone(), *s)))
            .filter(|(_, s)| doc_seq.is_some_and(|d| *s > d))
            .collect();
        for (p, s) in &newer {
            evidence.push(format!(
                "{p} changed in {} after the document",
                SnapshotId(*s)
            ));
        }
        let baseline_only = doc_seq.is_some_and(|d| {
            file_links
                .iter()
                .all(|p| changed.get(p.as_bytes()).is_none_or(|s| *s == d))
        });
        if !newer.is_empty() {
            DocFreshness::PossiblyStale
        } else if baseline_only {
            evidence.push(
                "the document and every linked file last changed in the same snapshot".into(),
            );
            DocFreshness::LikelyCurrent
        } else {
            evidence.push("the document changed after every file it links to".into());
            DocFreshness::Current
        }
    };
    Ok((staleness, evidence, doc_seq))
}

/// Builds the document cue.
pub(crate) fn build(state: &Reader, request: &CueRequest) -> Result<Cue> {
    let path = request
        .path
        .clone()
        .ok_or_else(|| Error::InvalidArgument("the document view needs --path".into()))?;
    let not_found = || Error::NotFound {
        kind: "document",
        id: EntityId::doc(path.clone(), None).to_string(),
    };
    // One read of the snapshot's rows serves the lookup and the link checks.
    let all_files = state.all_files()?;
    let listed = |f: &&crate::model::FileState| f.class.listed();
    let file = all_files
        .iter()
        .filter(listed)
        .find(|f| f.path == path.as_bytes())
        .or_else(|| {
            all_files
                .iter()
                .filter(listed)
                .find(|f| paths::display(&f.path) == path)
        })
        .ok_or_else(not_found)?;
    if !file.is_document {
        use crate::model::FileType;
        // Named like a document, it may still be none: say why.
        let why = match file.file_type {
            FileType::Binary => "its content is binary (it holds a NUL byte)",
            FileType::Missing => {
                "it is not in the work tree (deleted, or outside a sparse checkout)"
            }
            FileType::Unreadable => "it could not be read",
            FileType::Symlink => "it is a symbolic link",
            FileType::Gitlink => "it is a submodule",
            FileType::Text => "it is no Markdown, reStructuredText, AsciiDoc or text file",
        };
        return Err(Error::InvalidArgument(format!(
            "{path} is not a document: {why}"
        )));
    }
    let facts = match file.digest.as_deref().filter(|_| file.class.analysed()) {
        Some(d) => state.store.facts(&[d])?.remove(d),
        None => None,
    };
    // A document without facts was not read for them, or was and holds no heading, title,
    // link or sentence (a plain `NOTES.md`: its analysis keeps nothing): say why its outline
    // is empty when it was not read, and only then.
    let faulted = state.snapshot.faults.iter().any(|f| f.path == file.path);
    let not_outlined = match &facts {
        Some(_) => None,
        None if file.size.is_some_and(|s| s > crate::scan::WHOLE_READ_LIMIT) => Some("too_large"),
        None if file.class == crate::model::FileClass::Vendored => Some("vendored"),
        None if file.class == crate::model::FileClass::Generated => Some("generated"),
        None if faulted => Some("deferred"),
        None => None,
    };
    let facts = facts.and_then(|a| a.doc).unwrap_or_default();
    // An excluded or secret file still exists: a link to it is not a broken link (its path
    // is the document's own text).
    let (links, file_links) = links_of(&path, &facts.links, all_files);
    let (staleness, evidence, doc_seq) = staleness(state, &file.path, &links, &file_links)?;
    let content = DocumentContent {
        path: path.clone(),
        title: facts.title.clone(),
        staleness,
        evidence,
        last_changed: doc_seq.map(|s| SnapshotId(s).to_string()),
        outline: vec![],
        links: vec![],
        not_outlined: not_outlined.map(str::to_owned),
    };
    let env = envelope(state, request, content);
    let mut items: Vec<Item<DocumentContent>> = Vec::new();
    let slugs = crate::analyze::docs::slugs(&facts.headings);
    for (i, (h, slug)) in facts.headings.iter().zip(slugs).enumerate() {
        let e = OutlineEntry {
            id: EntityId::doc(path.clone(), Some(slug)).to_string(),
            level: h.level,
            text: h.text.clone(),
            line: h.line,
        };
        let rank = 3_000 - i64::from(h.level) * 500 - i as i64;
        items.push(Item::push(0, rank, e, |c: &mut DocumentContent| {
            &mut c.outline
        }));
    }
    for (i, l) in links.into_iter().enumerate() {
        let rank = if l.kind == "file" {
            2_000 - i as i64
        } else {
            500 - i as i64
        };
        items.push(Item::push(1, rank, l, |c: &mut DocumentContent| {
            &mut c.links
        }));
    }
    let more = crate::api::More {
        path: Some(path.clone()),
        ..crate::api::More::of(
            crate::api::View::Document,
            crate::cue::fit::full_budget(&env, &items),
        )
    };
    let sections = [
        Section::new("headings", Some(more.clone())),
        Section::new("links", Some(more)),
    ];
    let mut cue = fit(env, &sections, items)?;
    // Admission follows rank (top-level headings first); display follows the document.
    // Reordering the same items leaves the byte count, and so the estimate, unchanged.
    crate::cue::fit::reorder(&mut cue, |v| {
        if let Some(outline) = v["content"]["outline"].as_array_mut() {
            outline.sort_by_key(|h| h["line"].as_u64());
        }
    });
    Ok(cue)
}

#[cfg(test)]
mod tests {
    use super::{resolve, Tree};

    /// A link names a present file or a directory holding a tracked path; a path that sorts
    /// between a directory and its contents (`a/b-c` before `a/b/d`) hides neither.
    #[test]
    fn a_link_target_is_a_present_file_or_a_directory_with_files() {
        let mut gone = crate::model::sample_file("src/gone.rs", "d");
        gone.file_type = crate::model::FileType::Missing;
        let files = [
            crate::model::sample_file("a/b-c", "d"),
            crate::model::sample_file("a/b/d.md", "d"),
            crate::model::sample_file("src/lib.rs", "d"),
            gone,
        ];
        let tree = Tree::of(&files);
        for present in ["a/b-c", "a/b", "a", "a/b/d.md", "src", "src/lib.rs"] {
            assert!(tree.holds(present), "{present}");
        }
        for absent in ["a/b/", "src/gone.rs", "src/li", "src/lib", "b", "a/b/d"] {
            assert!(!tree.holds(absent), "{absent}");
        }
    }

    #[test]
    fn resolves_relative_links() {
        assert_eq!(
            resolve("docs/guide.md", "../src/lib.rs").as_deref(),
            Some("src/lib.rs")
        );
        assert_eq!(
            resolve("docs/guide.md", "api.md#x").as_deref(),
            Some("docs/api.md")
        );
        assert_eq!(
            resolve("README.md", "/crates/a").as_deref(),
            Some("crates/a")
        );
        assert_eq!(resolve("README.md", "../../etc/passwd"), None);
    }
}
