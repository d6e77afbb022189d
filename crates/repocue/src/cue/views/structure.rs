//! The `structure` view: files and ranked symbols with signatures under a path, and the
//! shared ranking used by `overview` for its most important symbols.

use std::collections::HashMap;

use crate::analyze::graph::{self, Node};
use crate::analyze::Analysis;
use crate::api::views::*;
use crate::api::{Cue, CueRequest, EntityId, More, View};
use crate::cue::envelope::envelope;
use crate::cue::fit::{fit, round_up, Item, Section};
use crate::error::Result;
use crate::model::{FileState, WorkingState};
use crate::paths;
use crate::read::Reader;

/// Most code files ranked in one request; beyond it the graph costs more than it tells.
const MAX_RANKED_FILES: usize = 20_000;

/// A file with its code facts and graph score.
pub(crate) struct Ranked<'a> {
    pub file: &'a FileState,
    pub analysis: Analysis,
    pub score: f64,
}

/// Tells whether a path lies under a directory prefix (or is that file); `""` is everything.
pub(crate) fn under(path: &[u8], prefix: &[u8]) -> bool {
    let prefix = prefix.strip_suffix(b"/").unwrap_or(prefix);
    prefix.is_empty()
        || path == prefix
        || (path.starts_with(prefix) && path.get(prefix.len()) == Some(&b'/'))
}

/// Loads code facts of the files under `prefix` and ranks them; highest score first.
pub(crate) fn ranked_files<'a>(
    state: &'a Reader,
    prefix: &[u8],
    entry_points: &[String],
) -> Result<Vec<Ranked<'a>>> {
    let files: Vec<&FileState> = state
        .files()?
        .iter()
        .filter(|f| {
            under(&f.path, prefix)
                && f.digest.is_some()
                && crate::analyze::structure::parser_language(&f.path, f.language.as_deref())
                    .is_some()
        })
        .take(MAX_RANKED_FILES)
        .collect();
    let digests: Vec<&str> = files.iter().filter_map(|f| f.digest.as_deref()).collect();
    let mut facts: HashMap<String, Analysis> = state.store.facts(&digests)?;
    let mut out: Vec<Ranked<'a>> = files
        .into_iter()
        .filter_map(|f| {
            let a = facts.get(f.digest.as_deref()?)?.clone();
            a.code.as_ref().filter(|c| !c.symbols.is_empty())?;
            Some(Ranked {
                file: f,
                analysis: a,
                score: 0.0,
            })
        })
        .collect();
    facts.clear();
    let nodes: Vec<Node<'_>> = out
        .iter()
        .map(|r| {
            let p = paths::display(&r.file.path);
            let mut boost = 1.0;
            if entry_points.contains(&p) {
                boost += 4.0;
            }
            if r.file.working_state != WorkingState::Clean {
                boost += 2.0;
            }
            Node {
                facts: r.analysis.code.as_ref().expect("filtered"),
                boost,
            }
        })
        .collect();
    let scores = graph::rank(&nodes);
    drop(nodes);
    for (r, s) in out.iter_mut().zip(scores) {
        r.score = s;
    }
    out.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then(a.file.path.cmp(&b.file.path))
    });
    Ok(out)
}

/// Returns the symbols of ranked files in rank order: exported and type-like first within a
/// file, members after their containers.
pub(crate) fn ranked_symbols(ranked: &[Ranked<'_>], per_file: usize) -> Vec<SymbolEntry> {
    let mut out = Vec::new();
    for r in ranked {
        let path = paths::display(&r.file.path);
        let mut syms: Vec<_> = r
            .analysis
            .code
            .as_ref()
            .map(|c| c.symbols.iter().collect())
            .unwrap_or_else(Vec::new);
        syms.sort_by_key(|s| {
            let vis = matches!(s.visibility.as_deref(), Some("public" | "exported")) as u8;
            let kind = repocue_structure::symbol_priority(&s.kind);
            (
                s.parent().is_some(),
                std::cmp::Reverse(vis),
                kind,
                s.start_line,
            )
        });
        for s in syms.into_iter().take(per_file) {
            out.push(SymbolEntry {
                id: EntityId::symbol(path.clone(), s.qualified_name.clone()).to_string(),
                kind: s.kind.clone(),
                signature: s.signature.clone(),
                line: s.start_line,
            });
        }
    }
    out
}

/// Builds the structure cue.
pub(crate) fn build(state: &Reader, request: &CueRequest) -> Result<Cue> {
    let prefix = request.path.clone().unwrap_or_default();
    let prefix = prefix.trim_start_matches("./").to_owned();
    let files_total = state
        .files()?
        .iter()
        .filter(|f| under(&f.path, prefix.as_bytes()))
        .count() as u64;
    let ranked = ranked_files(state, prefix.as_bytes(), &[])?;
    let content = StructureContent {
        path: prefix.clone(),
        files_total,
        code_files: ranked.len() as u64,
        ..Default::default()
    };
    let env = envelope(state, request, content);
    let mut items: Vec<Item<StructureContent>> = Vec::new();
    for (i, r) in ranked.iter().take(200).enumerate() {
        let e = FileEntry {
            path: paths::display(&r.file.path),
            language: r.file.language.clone(),
            symbols: r
                .analysis
                .code
                .as_ref()
                .map_or(0, |c| c.symbols.len() as u64),
        };
        let rank = if i < 8 {
            10_000 - i as i64
        } else {
            1_000 - i as i64
        };
        items.push(Item::new(0, rank, move |c: &mut StructureContent| {
            c.files.push(e.clone())
        }));
    }
    for (i, s) in ranked_symbols(&ranked, 12)
        .into_iter()
        .take(400)
        .enumerate()
    {
        let rank = 5_000 - i as i64;
        items.push(Item::new(1, rank, move |c: &mut StructureContent| {
            c.symbols.push(s.clone())
        }));
    }
    let more = More {
        path: Some(prefix),
        ..More::of(
            View::Structure,
            "a narrower path, or a larger budget",
            round_up(request.max_tokens * 2),
        )
    };
    let sections = vec![
        Section::new("files", Some(more.clone())),
        Section::new("symbols", Some(more)),
    ];
    fit(env, &sections, items)
}
