//! The `structure` view: files and ranked symbols with signatures under a path, and the
//! shared ranking used by `overview` for its most important symbols.

use std::collections::HashMap;

use crate::analyze::graph::{self, Node};
use crate::analyze::importance;
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
    /// Defined name → how much other non-test files use it (weighted, see `graph::Ranking`).
    pub used_by: HashMap<String, f64>,
}

/// Tells whether a path lies under a directory prefix (or is that file); `""` is everything.
pub(crate) fn under(path: &[u8], prefix: &[u8]) -> bool {
    let prefix = prefix.strip_suffix(b"/").unwrap_or(prefix);
    prefix.is_empty()
        || path == prefix
        || (path.starts_with(prefix) && path.get(prefix.len()) == Some(&b'/'))
}

/// Loads code facts of the files under `prefix` and ranks them; highest score first. With
/// `boost_dirty`, files that differ from HEAD rank higher (that is where the work is).
pub(crate) fn ranked_files<'a>(
    state: &'a Reader,
    prefix: &[u8],
    entry_points: &[String],
    boost_dirty: bool,
) -> Result<Vec<Ranked<'a>>> {
    let files: Vec<&FileState> = state
        .files()?
        .iter()
        .filter(|f| {
            under(&f.path, prefix)
                && f.class.analysed()
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
                used_by: HashMap::new(),
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
            } else if is_package_root(&r.file.path) {
                boost += 2.0;
            }
            if boost_dirty && r.file.working_state != WorkingState::Clean {
                boost += 2.0;
            }
            Node {
                path: &r.file.path,
                facts: r.analysis.code.as_ref().expect("filtered"),
                boost,
            }
        })
        .collect();
    let ranking = graph::rank(&nodes);
    drop(nodes);
    for ((r, s), u) in out.iter_mut().zip(ranking.scores).zip(ranking.used_by) {
        r.score = s;
        r.used_by = u;
    }
    out.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then(a.file.path.cmp(&b.file.path))
    });
    Ok(out)
}

/// Tells whether a file is the root of a package or crate: what `import pkg` or a crate's
/// users reach first (`lib.rs`, a package's `__init__.py`, an `index` module, `mod.rs`).
pub(crate) fn is_package_root(path: &[u8]) -> bool {
    let name = paths::file_name(path);
    let depth = path.iter().filter(|&&b| b == b'/').count();
    match name {
        b"lib.rs" => true,
        b"__init__.py" => depth <= 2,
        b"index.ts" | b"index.js" | b"index.mjs" | b"index.tsx" => depth <= 3,
        _ => false,
    }
}

/// Returns the symbols of the ranked files, most important first: each symbol's weight
/// (visibility, kind, top level, use by other non-test files) times its file's rank, picked
/// so that no single file or directory fills the list (at most `per_file` from one file).
pub(crate) fn ranked_symbols(ranked: &[Ranked<'_>], per_file: usize, n: usize) -> Vec<SymbolEntry> {
    let mut candidates: Vec<(f64, usize, &[u8])> = Vec::new();
    let mut symbols: Vec<(&Ranked<'_>, &crate::analyze::structure::SymbolFact)> = Vec::new();
    // Only a file's best `per_file` symbols can be picked, and only from the best-ranked
    // files: the pick stays linear in what it can return.
    for (file, r) in ranked.iter().take(n.max(8) * 2).enumerate() {
        let path = &r.file.path;
        let dir = &path[..path.iter().rposition(|&b| b == b'/').unwrap_or(0)];
        let mut own: Vec<(f64, &crate::analyze::structure::SymbolFact)> = r
            .analysis
            .code
            .iter()
            .flat_map(|c| &c.symbols)
            .map(|s| {
                let used = r.used_by.get(s.name()).copied().unwrap_or(0.0);
                (importance::symbol_weight(s, used) * r.score / cost(s), s)
            })
            .collect();
        // Stable: equal weights keep source order.
        own.sort_by(|a, b| b.0.total_cmp(&a.0));
        for (w, s) in own.into_iter().take(per_file) {
            candidates.push((w, file, dir));
            symbols.push((r, s));
        }
    }
    // Equal scores keep candidate order: the files' rank order, then source order.
    importance::diverse(&candidates, n, per_file)
        .into_iter()
        .map(|i| {
            let (r, s) = symbols[i];
            SymbolEntry {
                id: EntityId::symbol(paths::display(&r.file.path), s.qualified_name.clone())
                    .to_string(),
                kind: s.kind.clone(),
                signature: s.signature.clone(),
                line: s.start_line,
            }
        })
        .collect()
}

/// What showing a symbol costs, relative to a typical one: a signature of hundreds of
/// characters (a generic TypeScript interface) buys one fact for the tokens of several.
fn cost(s: &crate::analyze::structure::SymbolFact) -> f64 {
    1.0 + s.signature.len() as f64 / 160.0
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
    let ranked = ranked_files(state, prefix.as_bytes(), &[], true)?;
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
    for (i, s) in ranked_symbols(&ranked, 12, 400).into_iter().enumerate() {
        let rank = 5_000 - i as i64;
        items.push(Item::new(1, rank, move |c: &mut StructureContent| {
            c.symbols.push(s.clone())
        }));
    }
    let more = More {
        path: Some(prefix),
        ..More::of(View::Structure, round_up(request.max_tokens * 2))
    };
    let sections = vec![
        Section::new("files", Some(more.clone())),
        Section::new("symbols", Some(more)),
    ];
    fit(env, &sections, items)
}
