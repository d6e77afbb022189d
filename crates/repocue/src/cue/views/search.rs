//! The `search` view: ranked hits over paths, symbols and document headings (SQLite FTS5,
//! bm25), within the token budget.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::cue::{fit, Cue, CueRequest, Item, More, Section, View};
use crate::error::{Error, Result};
use crate::paths;
use crate::search::match_expressions;
use crate::service::ReadState;

/// Content of the `search` view.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SearchContent {
    /// The query as given.
    pub query: String,
    /// Scopes searched.
    pub scopes: Vec<String>,
    /// `all` when every term matched, `any` when the fallback (any term) was used.
    pub matched: String,
    /// Hits found (before the budget).
    pub total_hits: u64,
    /// Ranked hits.
    pub hits: Vec<Hit>,
}

/// One search hit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Hit {
    /// Entity id: `file:…`, `symbol:…:…` or `doc:…#slug`.
    pub id: String,
    /// `path`, `symbol` or `doc`.
    pub kind: String,
    /// File path.
    pub path: String,
    /// Line, when meaningful.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// Signature (symbols) or heading (docs); omitted for path hits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

const DEFAULT_RESULTS: u32 = 20;
const MAX_RESULTS: u32 = 200;

/// Parses a scope list into index kinds.
pub fn scopes(scope: Option<&str>) -> Result<Vec<&'static str>> {
    let Some(scope) = scope else {
        return Ok(vec!["symbol", "doc", "path"]);
    };
    let mut kinds = Vec::new();
    for s in scope.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let k = match s {
            "code" | "symbols" => "symbol",
            "docs" | "doc" => "doc",
            "paths" | "path" | "files" => "path",
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

/// Builds the search cue.
pub(crate) fn build(state: &ReadState, request: &CueRequest) -> Result<Cue> {
    let (id, name) = super::identity(state)?;
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
    let (all, any) = match_expressions(&query)
        .ok_or_else(|| Error::InvalidArgument(format!("query {query:?} has no searchable word")))?;
    let mut matched = "all";
    let mut hits = state.store.search(&all, &kinds, limit as usize)?;
    if hits.is_empty() {
        matched = "any";
        hits = state.store.search(&any, &kinds, limit as usize)?;
    }
    // Exact name matches first (a symbol-name query finds its definition first), then bm25;
    // ties broken by kind and id so the order is total and deterministic.
    let q = query.trim();
    let exactness = |name: &str| {
        if name == q {
            0
        } else if name.eq_ignore_ascii_case(q) {
            1
        } else {
            2
        }
    };
    let kind_order = |h: &crate::store::SearchHit| match h.kind.as_str() {
        "symbol" => 0,
        "doc" => 1,
        _ => 2,
    };
    hits.sort_by(|a, b| {
        exactness(&a.name)
            .cmp(&exactness(&b.name))
            .then(a.score.total_cmp(&b.score))
            .then(kind_order(a).cmp(&kind_order(b)))
            .then(a.entity.cmp(&b.entity))
    });
    hits.truncate(limit as usize);
    let content = SearchContent {
        query: query.clone(),
        scopes: kinds
            .iter()
            .map(|k| {
                match *k {
                    "symbol" => "code",
                    "doc" => "docs",
                    _ => "paths",
                }
                .to_owned()
            })
            .collect(),
        matched: matched.into(),
        total_hits: hits.len() as u64,
        hits: vec![],
    };
    let env = super::envelope(state, request, &id, &name, content);
    let n = hits.len() as i64;
    let items = hits
        .into_iter()
        .enumerate()
        .map(|(i, h)| {
            let hit = Hit {
                id: h.entity,
                path: paths::display(&h.path),
                line: h.line,
                title: (h.kind != "path").then_some(h.title),
                kind: h.kind,
            };
            Item::new(0, n - i as i64, move |c: &mut SearchContent| {
                c.hits.push(hit.clone())
            })
        })
        .collect();
    let more = More {
        query: Some(query),
        scope: request.scope.clone(),
        max_results: request.max_results,
        ..More::of(
            View::Search,
            "the remaining hits",
            crate::cue::round_up(request.max_tokens * 2),
        )
    };
    fit(env, &[Section::new("hits", Some(more))], items)
}
