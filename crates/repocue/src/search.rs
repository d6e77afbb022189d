//! Full-text search: what gets indexed for each file (its path, its symbols, its document
//! headings), how a user query becomes an FTS5 query, and how stored matches become scored
//! hits. The store only stores the rows and runs the match.

use crate::analyze::Analysis;
use crate::api::{EntityId, SearchKind};
use crate::error::{Error, Result};
use crate::model::FileState;
use crate::paths;
use crate::store::{MatchRow, SearchRow, Store};

/// One searchable entry. Only what cannot be derived is stored: the entity id, the short
/// name and the title of path and heading entries come from kind, path and name.
pub type Entry = SearchRow;

/// One scored search hit.
#[derive(Debug, Clone, PartialEq)]
pub struct SearchHit {
    /// What it is.
    pub kind: SearchKind,
    /// Entity id.
    pub entity: String,
    /// File path bytes.
    pub path: Vec<u8>,
    /// Short name.
    pub name: String,
    /// Signature, heading or path.
    pub title: String,
    /// Line.
    pub line: Option<u32>,
    /// bm25 score (lower is better), adjusted.
    pub score: f64,
}

/// Runs a match expression and returns the hits of the given kinds, scored: a member match
/// (a field or method, whose signature mentions its type's name) is worth half.
pub fn find(
    store: &Store,
    expr: &str,
    kinds: &[SearchKind],
    limit: usize,
) -> Result<Vec<SearchHit>> {
    let rows = store.search(expr, limit * 4)?;
    let mut hits = Vec::with_capacity(rows.len());
    for r in rows {
        hits.push(hit(store, r)?);
    }
    for h in &mut hits {
        if h.kind == SearchKind::Symbol
            && h.entity.rsplit(':').next().is_some_and(|q| q.contains('.'))
        {
            h.score *= 0.5;
        }
    }
    hits.retain(|h| kinds.contains(&h.kind));
    Ok(hits)
}

fn hit(store: &Store, r: MatchRow) -> Result<SearchHit> {
    let kind: SearchKind = r.kind.parse().map_err(|e: String| Error::CorruptCache {
        path: store.path().to_owned(),
        detail: e,
    })?;
    Ok(SearchHit {
        entity: entity(kind, &r.path, &r.name),
        title: r.title.unwrap_or_else(|| {
            if kind == SearchKind::Doc {
                r.name.clone()
            } else {
                paths::display(&r.path)
            }
        }),
        name: short_name(kind, &r.path, &r.name),
        kind,
        path: r.path,
        line: r.line,
        score: r.score,
    })
}

/// Most symbols indexed per file (generated tables can hold thousands).
const MAX_SYMBOLS_PER_FILE: usize = 2_000;

/// Returns the entity id of an entry.
pub fn entity(kind: SearchKind, path: &[u8], name: &str) -> String {
    let path = paths::display(path);
    match kind {
        SearchKind::Symbol => EntityId::symbol(path, name),
        SearchKind::Doc => EntityId::doc(path, Some(crate::analyze::docs::slug(name))),
        SearchKind::Path => EntityId::file(path),
    }
    .to_string()
}

/// Returns the short name an entry is matched by exactly: a symbol's last segment, a
/// heading's text, a path's file name.
pub fn short_name(kind: SearchKind, path: &[u8], name: &str) -> String {
    match kind {
        SearchKind::Symbol => {
            let q = name.split('#').next().unwrap_or(name);
            q.rsplit('.').next().unwrap_or(q).to_owned()
        }
        SearchKind::Doc => name.to_owned(),
        SearchKind::Path => paths::display(paths::file_name(path)),
    }
}

/// Returns the search rows of one file: none for an excluded or secret file (it is never
/// found), its path only for vendored and generated files (whose facts, shared by digest
/// with an analysed copy, are not theirs to show).
pub fn rows(file: &FileState, analysis: Option<&Analysis>) -> Vec<Entry> {
    if !file.class.listed() {
        return vec![];
    }
    let analysis = analysis.filter(|_| file.class.analysed());
    let path = paths::display(&file.path);
    let name = paths::display(paths::file_name(&file.path));
    let mut out = vec![Entry {
        path: file.path.clone(),
        kind: "path",
        name: String::new(),
        title: None,
        line: None,
        index_name: words(&name),
        index_detail: words(&path),
    }];
    let Some(a) = analysis else { return out };
    if let Some(code) = &a.code {
        for s in code.symbols.iter().take(MAX_SYMBOLS_PER_FILE) {
            out.push(Entry {
                path: file.path.clone(),
                kind: "symbol",
                name: s.qualified_name.clone(),
                title: Some(s.signature.clone()),
                line: Some(s.start_line),
                index_name: words(s.name()),
                index_detail: format!(
                    "{} {} {}",
                    words(&s.qualified_name),
                    s.kind,
                    words(&s.signature)
                ),
            });
        }
    }
    if let Some(doc) = &a.doc {
        for h in &doc.headings {
            out.push(Entry {
                path: file.path.clone(),
                kind: "doc",
                name: h.text.clone(),
                title: None,
                line: Some(h.line),
                index_name: words(&h.text),
                index_detail: format!(
                    "{} {}",
                    doc.title.as_deref().unwrap_or_default(),
                    words(&path)
                ),
            });
        }
    }
    out
}

/// Returns text with every identifier also split into its parts: `parseHTTPConfig_v2` →
/// `parseHTTPConfig_v2 parse HTTP Config v2`, so both whole names and parts match.
pub fn words(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 2);
    for token in text.split(|c: char| !c.is_alphanumeric() && c != '_') {
        if token.is_empty() {
            continue;
        }
        out.push_str(token);
        out.push(' ');
        let parts = split_identifier(token);
        if parts.len() > 1 {
            for p in parts {
                out.push_str(p);
                out.push(' ');
            }
        }
    }
    out.trim_end().to_owned()
}

fn split_identifier(id: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let chars: Vec<(usize, char)> = id.char_indices().collect();
    let mut start = 0;
    for i in 0..chars.len() {
        let (pos, c) = chars[i];
        if c == '_' {
            if pos > start {
                parts.push(&id[start..pos]);
            }
            start = pos + 1;
            continue;
        }
        if i > 0 && pos > start {
            let prev = chars[i - 1].1;
            let next_lower = chars.get(i + 1).is_some_and(|n| n.1.is_lowercase());
            let boundary = (prev.is_lowercase() && c.is_uppercase())
                || (prev.is_uppercase() && c.is_uppercase() && next_lower)
                || (prev.is_alphabetic() && c.is_ascii_digit())
                || (prev.is_ascii_digit() && c.is_alphabetic());
            if boundary {
                parts.push(&id[start..pos]);
                start = pos;
            }
        }
    }
    if start < id.len() {
        parts.push(&id[start..]);
    }
    parts
}

/// Turns a user query into FTS5 match expressions: all terms (prefix-matched) first, any term
/// as the fallback. Returns `None` when the query has no searchable word.
pub fn match_expressions(query: &str) -> Option<(String, String)> {
    let mut terms: Vec<String> = Vec::new();
    for w in words(query).split(' ').filter(|w| !w.is_empty()) {
        let w = w.to_lowercase();
        if !terms.contains(&w) {
            terms.push(w);
        }
    }
    if terms.is_empty() {
        return None;
    }
    // Quoting makes every term a literal string: no FTS5 syntax can be injected.
    let quoted: Vec<String> = terms
        .iter()
        .map(|t| format!("\"{}\"*", t.replace('"', "")))
        .collect();
    Some((quoted.join(" AND "), quoted.join(" OR ")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_identifiers() {
        assert_eq!(
            words("parseHTTPConfig_v2"),
            "parseHTTPConfig_v2 parse HTTP Config v 2"
        );
        assert_eq!(words("src/cue/mod.rs"), "src cue mod rs");
    }

    #[test]
    fn excluded_and_secret_files_have_no_rows_and_vendored_ones_only_their_path() {
        use crate::model::FileClass;
        let a = Analysis {
            doc: Some(crate::analyze::docs::DocFacts {
                headings: vec![crate::analyze::docs::Heading {
                    level: 1,
                    text: "Title".into(),
                    line: 1,
                }],
                ..Default::default()
            }),
            ..Default::default()
        };
        let mut f = crate::model::sample_file("docs/a.md", "1");
        assert_eq!(rows(&f, Some(&a)).len(), 2);
        f.class = FileClass::Vendored;
        let r = rows(&f, Some(&a));
        assert_eq!((r.len(), r[0].kind), (1, "path"));
        for class in [FileClass::Excluded, FileClass::Secret] {
            f.class = class;
            assert!(rows(&f, Some(&a)).is_empty(), "{class:?}");
        }
    }

    #[test]
    fn builds_safe_match_expressions() {
        let (all, any) = match_expressions("fit \"budget\" OR NOT").unwrap();
        assert_eq!(all, "\"fit\"* AND \"budget\"* AND \"or\"* AND \"not\"*");
        assert!(any.contains(" OR "));
        assert!(match_expressions("  ::: ").is_none());
    }
}
