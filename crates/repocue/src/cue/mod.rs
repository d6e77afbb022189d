//! Cues: token-budgeted, deterministic JSON projections of the store for one purpose.
//!
//! Every view builds a *base* content (what must always be there) and a list of ranked
//! *items*. [`fit`] admits whole items in rank order while the exact serialized envelope stays
//! within `ceil(bytes / 4) <= max_tokens`, counts what it left out in warnings, and points to
//! the follow-up request that returns it (`more`). No string is ever cut to fit.

pub mod markdown;
pub mod views;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::model::Freshness;
use crate::output::{RepositoryInfo, Warning};

/// Version of the cue envelope contract.
pub const CUE_SCHEMA_VERSION: &str = "repocue/cue-1";
/// Budget used when none is given.
pub const DEFAULT_MAX_TOKENS: u64 = 500;
/// Largest budget accepted; MCP answers stay far below 25,000 tokens.
pub const MAX_MAX_TOKENS: u64 = 20_000;

/// Which projection to produce.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum View {
    /// Identity, freshness, counts and what to ask next (~200 tokens).
    Manifest,
    /// What the project is, where to start, how to build it, what state it is in.
    Overview,
    /// What changed since an earlier snapshot.
    Delta,
    /// Files and ranked symbols under a path.
    Structure,
    /// One symbol, file or document with its relations.
    Entity,
    /// One document's outline, links and staleness.
    Document,
    /// Ranked hits over paths, symbols and document sections.
    Search,
}

impl View {
    /// Returns the public name.
    pub fn as_str(self) -> &'static str {
        match self {
            View::Manifest => "manifest",
            View::Overview => "overview",
            View::Delta => "delta",
            View::Structure => "structure",
            View::Entity => "entity",
            View::Document => "document",
            View::Search => "search",
        }
    }
}

/// Output format of a cue.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// Canonical JSON.
    #[default]
    Json,
    /// The same data rendered for a person.
    Markdown,
}

/// A cue request: the view and its parameters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct CueRequest {
    /// The view.
    pub view: View,
    /// Token budget (`ceil(bytes / 4)` of the output).
    pub max_tokens: u64,
    /// For `delta`: the earlier snapshot id (default: the parent of the current snapshot).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since: Option<String>,
    /// For `structure` and `document`: a repository path or directory prefix.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// For `entity`: an entity id such as `symbol:src/lib.rs:Parser.parse`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// For `search`: the query.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
    /// For `search`: comma-separated scopes among `code`, `docs`, `paths` (default all).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    /// For `search`: most hits to consider (default 20, at most 200).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_results: Option<u32>,
    /// Bring the cache up to date first (default true).
    #[serde(default = "yes")]
    pub refresh: bool,
}

fn yes() -> bool {
    true
}

impl CueRequest {
    /// Creates a request for a view with the default budget.
    pub fn new(view: View) -> Self {
        CueRequest {
            view,
            max_tokens: DEFAULT_MAX_TOKENS,
            since: None,
            path: None,
            id: None,
            query: None,
            scope: None,
            max_results: None,
            refresh: true,
        }
    }
}

/// A follow-up request that returns what a cue left out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct More {
    /// View to ask for.
    pub view: View,
    /// What the follow-up returns.
    pub reason: String,
    /// Path parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Since parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub since: Option<String>,
    /// Id parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Query parameter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
    /// Scope parameter (search).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    /// Result limit (search).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_results: Option<u32>,
    /// Budget that fits it.
    pub max_tokens: u64,
}

impl More {
    /// Creates a follow-up request for a view with no parameters; set the ones it needs with
    /// struct update syntax.
    pub fn of(view: View, reason: &str, max_tokens: u64) -> Self {
        More {
            view,
            reason: reason.into(),
            path: None,
            since: None,
            id: None,
            query: None,
            scope: None,
            max_results: None,
            max_tokens: max_tokens.min(MAX_MAX_TOKENS),
        }
    }
}

/// Provenance of the snapshot a cue describes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct CueBasis {
    /// Digest of Git's status records at the snapshot (first 16 hex digits of SHA-256).
    pub status_digest: String,
    /// Digest over all indexed file states (first 16 hex digits of SHA-256).
    pub repository_digest: String,
    /// When the snapshot's Git basis was observed.
    pub observed_at: String,
}

/// The token budget and the estimate of the exact output.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Budget {
    /// The budget asked for.
    pub max_tokens: u64,
    /// `ceil(bytes / 4)` of this exact JSON document: an estimate, not a tokenizer count.
    pub estimated_tokens: u64,
}

/// The envelope every cue view shares.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Envelope<C> {
    /// `repocue/cue-1`.
    pub schema_version: String,
    /// The view.
    pub kind: View,
    /// Repository identity and Git state at the snapshot.
    pub repository: RepositoryInfo,
    /// Epoch id.
    pub epoch: String,
    /// Snapshot id.
    pub snapshot: String,
    /// Snapshot provenance.
    pub basis: CueBasis,
    /// How far this cue describes the live repository.
    pub freshness: Freshness,
    /// Budget and estimate.
    pub budget: Budget,
    /// The view's content.
    pub content: C,
    /// Everything omitted or uncertain.
    pub warnings: Vec<Warning>,
    /// Follow-up requests that return what was left out.
    pub more: Vec<More>,
}

/// A rendered cue.
#[derive(Debug, Clone)]
pub struct Cue {
    /// The canonical JSON document (no trailing newline).
    pub json: String,
    /// Estimated tokens of `json`.
    pub estimated_tokens: u64,
    /// The envelope as a JSON value (for rendering and adapters).
    pub value: serde_json::Value,
}

/// A unit of content admitted whole or not at all.
pub struct Item<C> {
    /// Index into the sections list.
    pub section: usize,
    /// Higher ranks are admitted first; ties keep list order.
    pub rank: i64,
    /// Adds the item to the content.
    pub add: Box<dyn Fn(&mut C)>,
}

impl<C> Item<C> {
    /// Creates an item.
    pub fn new(section: usize, rank: i64, add: impl Fn(&mut C) + 'static) -> Self {
        Item {
            section,
            rank,
            add: Box::new(add),
        }
    }
}

/// A group of items that is reported as one omission and points to one follow-up.
#[derive(Debug, Clone)]
pub struct Section {
    /// Section name used in the omission warning (`omitted:<name>`).
    pub name: &'static str,
    /// Items that exist but were not even offered to the fitter (pre-capped lists).
    pub hidden: u64,
    /// Where to get everything in this section.
    pub more: Option<More>,
}

impl Section {
    /// Creates a section.
    pub fn new(name: &'static str, more: Option<More>) -> Self {
        Section {
            name,
            hidden: 0,
            more,
        }
    }
}

/// Fits items into an envelope within the budget and serializes it.
pub fn fit<C: Serialize + Clone>(
    mut envelope: Envelope<C>,
    sections: &[Section],
    mut items: Vec<Item<C>>,
) -> Result<Cue> {
    let max = envelope.budget.max_tokens;
    // A stable sort keeps list order among equal ranks: deterministic output.
    items.sort_by_key(|it| std::cmp::Reverse(it.rank));
    let mut omitted: Vec<u64> = sections.iter().map(|s| s.hidden).collect();
    for it in &items {
        omitted[it.section] += 1;
    }
    let base_warnings = envelope.warnings.clone();
    // One compact warning for all omissions: per-section warnings would eat the budget that
    // the omitted items needed.
    let decorate = |env: &mut Envelope<C>, omitted: &[u64]| {
        env.warnings = base_warnings.clone();
        env.more.clear();
        let total: u64 = omitted.iter().sum();
        if total == 0 {
            return;
        }
        let detail: Vec<String> = sections
            .iter()
            .zip(omitted)
            .filter(|(_, &n)| n > 0)
            .map(|(s, n)| format!("{} {n}", s.name))
            .collect();
        env.warnings
            .push(Warning::counted("omitted", total, detail.join(", ")));
        for (s, &n) in sections.iter().zip(omitted) {
            if let Some(m) = s.more.as_ref().filter(|_| n > 0) {
                if !env.more.contains(m) {
                    env.more.push(m.clone());
                }
            }
        }
    };
    // Worst case first: everything omitted. If even that does not fit, the budget is too small.
    envelope.budget.estimated_tokens = max;
    decorate(&mut envelope, &omitted);
    let floor = tokens(&to_json(&envelope));
    if floor > max {
        return Err(Error::BudgetTooSmall {
            max_tokens: max,
            minimum: round_up(floor),
        });
    }
    for it in &items {
        let mut trial = envelope.clone();
        (it.add)(&mut trial.content);
        omitted[it.section] -= 1;
        decorate(&mut trial, &omitted);
        if tokens(&to_json(&trial)) <= max {
            envelope = trial;
        } else {
            omitted[it.section] += 1;
        }
    }
    decorate(&mut envelope, &omitted);
    // The estimate is part of the document it estimates: iterate to a fixed point. Bytes only
    // shrink from the upper bound `max`, so this converges in a step or two.
    let mut json = to_json(&envelope);
    loop {
        let t = tokens(&json);
        if envelope.budget.estimated_tokens == t {
            break;
        }
        envelope.budget.estimated_tokens = t;
        json = to_json(&envelope);
    }
    let value = serde_json::from_str(&json).expect("own JSON parses");
    Ok(Cue {
        estimated_tokens: envelope.budget.estimated_tokens,
        json,
        value,
    })
}

fn to_json<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).expect("cue serializes")
}

/// Returns `ceil(bytes / 4)`.
pub fn tokens(json: &str) -> u64 {
    (json.len() as u64).div_ceil(4)
}

/// Rounds a token count up to a friendly budget (next multiple of 50).
pub fn round_up(t: u64) -> u64 {
    t.div_ceil(50) * 50
}
