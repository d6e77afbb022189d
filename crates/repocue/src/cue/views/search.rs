//! The `search` view: ranked hits over paths, symbols and document headings (SQLite FTS5,
//! bm25), within the token budget.

use crate::api::views::*;
use crate::api::SearchKind;
use crate::api::{Cue, CueRequest, More, View};
use crate::cue::envelope::envelope;
use crate::cue::fit::{fit, Item, Section};
use crate::error::{Error, Result};
use crate::paths;
use crate::read::Reader;
use crate::search::{self, query_terms};

const DEFAULT_RESULTS: u32 = 20;
const MAX_RESULTS: u32 = 200;

/// Parses a scope list into index kinds.
pub fn scopes(scope: Option<&str>) -> Result<Vec<SearchKind>> {
    let Some(scope) = scope else {
        return Ok(vec![SearchKind::Symbol, SearchKind::Doc, SearchKind::Path]);
    };
    let mut kinds = Vec::new();
    for s in scope.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let k = match s {
            "code" | "symbols" => SearchKind::Symbol,
            "docs" | "doc" => SearchKind::Doc,
            "paths" | "path" | "files" => SearchKind::Path,
            other => {
                return Err(Error::InvalidArgument(format!(
                    "unknown search scope {other:?}; use code, docs or paths"
                )))
            }
        };
        if !kinds.contains(&k) {
            kinds.push(k);
        }
    }
    if kinds.is_empty() {
        return Err(Error::InvalidArgument("empty search scope".into()));
    }
    Ok(kinds)
}

/// Most untracked paths a search that found nothing names.
const NOT_SEARCHED_NAMED: usize = 5;

/// The untracked paths of the work tree, which the index never holds, unless there are none
/// (see [`SearchContent::not_searched`]).
fn not_searched(state: &Reader) -> Option<NotSearched> {
    let mut untracked: Vec<String> = state
        .snapshot
        .untracked
        .iter()
        .filter(|p| !state.secret_untracked(p))
        .map(|p| paths::display(p))
        .collect();
    if untracked.is_empty() {
        return None;
    }
    untracked.sort();
    let count = untracked.len() as u64;
    untracked.truncate(NOT_SEARCHED_NAMED);
    Some(NotSearched {
        untracked: count,
        paths: untracked,
    })
}

/// Builds the search cue.
pub(crate) fn build(state: &Reader, request: &CueRequest) -> Result<Cue> {
    let query = request
        .query
        .clone()
        .filter(|q| !q.trim().is_empty())
        .ok_or_else(|| Error::InvalidArgument("the search view needs a query".into()))?;
    let kinds = scopes(request.scope.as_deref())?;
    let limit = request.max_results.unwrap_or(DEFAULT_RESULTS);
    if limit == 0 || limit > MAX_RESULTS {
        return Err(Error::InvalidArgument(format!(
            "max_results must be between 1 and {MAX_RESULTS}"
        )));
    }
    let (all, any) = query_terms(&query)
        .ok_or_else(|| Error::InvalidArgument(format!("query {query:?} has no searchable word")))?;
    let mut matched = "all";
    let mut hits = search::find(&state.store, &all, &query, &kinds, limit as usize)?;
    if hits.is_empty() {
        matched = "any";
        hits = search::find(&state.store, &any, &query, &kinds, limit as usize)?;
    }
    let content = SearchContent {
        query: query.clone(),
        scopes: kinds
            .iter()
            .map(|k| {
                match k {
                    SearchKind::Symbol => "code",
                    SearchKind::Doc => "docs",
                    SearchKind::Path => "paths",
                }
                .to_owned()
            })
            .collect(),
        matched: matched.into(),
        total_hits: hits.len() as u64,
        hits: vec![],
        // Also when only some words matched: `brand_new_helper` defined in an untracked file
        // found `helper` elsewhere, and the file that defines it went unsaid.
        not_searched: (matched == "any").then(|| not_searched(state)).flatten(),
    };
    let env = envelope(state, request, content);
    let n = hits.len() as i64;
    let items = hits
        .into_iter()
        .enumerate()
        .map(|(i, h)| {
            let hit = Hit {
                id: h.entity,
                path: paths::display(&h.path),
                line: h.line,
                title: (h.kind != SearchKind::Path).then_some(h.title),
                kind: h.kind,
            };
            Item::push(0, n - i as i64, hit, |c: &mut SearchContent| &mut c.hits)
        })
        .collect();
    let more = More {
        query: Some(query),
        scope: request.scope.clone(),
        max_results: request.max_results,
        ..More::of(
            View::Search,
            crate::cue::fit::round_up(request.max_tokens * 2),
        )
    };
    fit(env, &[Section::new("hits", Some(more))], items)
}
