//! The budget fitter: admits whole items in rank order while the exact serialized envelope
//! stays within `ceil(bytes / 4) <= max_tokens`.

use serde::Serialize;

use crate::api::{Cue, Envelope, Format, Freshness, More};
use crate::error::{Error, Result};

/// A unit of content admitted whole or not at all.
pub struct Item<C> {
    /// Index into the sections list.
    pub section: usize,
    /// Higher ranks are admitted first; ties keep list order.
    pub rank: i64,
    /// Adds the item to the content; `false` when there was nothing to add (an item that
    /// completes another which was left out): the item then counts as omitted.
    pub add: Box<dyn Fn(&mut C) -> bool>,
    /// Bytes the item certainly adds to the JSON, whatever else is admitted (0: unknown):
    /// see [`Item::push`].
    pub min_bytes: u64,
}

impl<C> Item<C> {
    /// Creates an item.
    pub fn new(section: usize, rank: i64, add: impl Fn(&mut C) + 'static) -> Self {
        Self::when(section, rank, move |c: &mut C| {
            add(c);
            true
        })
    }

    /// Creates an item that adds to the content only when `add` says it did (returns `true`):
    /// a package root's exports, which the overview shows only when its entry point is listed.
    /// Otherwise the item counts as omitted, as a larger budget would show it.
    pub fn when(section: usize, rank: i64, add: impl Fn(&mut C) -> bool + 'static) -> Self {
        Item {
            section,
            rank,
            add: Box::new(add),
            min_bytes: 0,
        }
    }

    /// Creates an item that appends `value` to the list `list` of the content (a plain
    /// serialized `Vec`): the JSON then grows by at least the value's compact JSON, so the
    /// fitter can skip an item that cannot fit by that much without measuring the envelope
    /// with it (it measures every other item: a warm structure cue offers 600).
    pub fn push<T>(section: usize, rank: i64, value: T, list: fn(&mut C) -> &mut Vec<T>) -> Self
    where
        T: Serialize + Clone + 'static,
        C: 'static,
    {
        let min_bytes = serde_json::to_vec(&value).map_or(0, |v| v.len() as u64);
        Item {
            section,
            rank,
            add: Box::new(move |c: &mut C| {
                list(c).push(value.clone());
                true
            }),
            min_bytes,
        }
    }
}

/// A group of items that is reported as one omission and points to one follow-up.
#[derive(Debug, Clone)]
pub struct Section {
    /// Section name: names the index that items refer to (the omission warning counts
    /// sections without naming them).
    pub name: &'static str,
    /// Items that exist but were not even offered to the fitter (pre-capped lists).
    pub hidden: u64,
    /// Where to get everything in this section.
    pub more: Option<More>,
    /// Whether the section changes with every edit (dirty paths): see [`fit`].
    pub volatile: bool,
    /// The bytes of the first thing of each kind a volatile section lists: room for them is
    /// held back from the stable sections.
    reserve: u64,
    /// Whether the section's items are admitted in rank order only: once one does not fit,
    /// none after it is tried, so a smaller, less important item never shows where a more
    /// important one did not (a delta's 300 tokens showed a trivial added method and not the
    /// changed signature of the central class, one line too long).
    pub in_order: bool,
}

impl Section {
    /// Creates a section.
    pub fn new(name: &'static str, more: Option<More>) -> Self {
        Section {
            name,
            hidden: 0,
            more,
            volatile: false,
            reserve: 0,
            in_order: false,
        }
    }

    /// Marks the section as volatile, the first thing of each kind it lists taking `bytes`
    /// together: room for them is held back, so a cut keeps one of each (a work tree of one
    /// edit and one new file read as no new file at 250 tokens: the edited path took the
    /// tenth of the budget held back).
    pub fn volatile_holding(mut self, bytes: u64) -> Self {
        self.volatile = true;
        self.reserve = bytes;
        self
    }

    /// Marks the section's items as admitted in rank order only ([`Section::in_order`]).
    pub fn in_order(mut self) -> Self {
        self.in_order = true;
        self
    }
}

/// The steps in which room for volatile sections is held back ([`admit_stable`]).
const RESERVE_STEP: u64 = 16;

/// How the output is measured: bytes in its format, plus the newline a terminal or a pipe
/// receives after a JSON document (the text format ends with its own), so the printed output
/// never exceeds the budget. The estimate is `ceil(bytes / 4)`.
struct Meter {
    format: Format,
}

impl Meter {
    /// Whether an envelope of `bytes` grown by `item` certainly exceeds `max` tokens, known
    /// without adding it: in JSON (and Markdown, budgeted on it) a pushed value's bytes are
    /// all printed, and the only thing that shrinks as an item is admitted is its section's
    /// omitted count in `omitted` (by one digit at most), unless it was the section's last
    /// omitted item (which drops the section's `more`: those items are measured).
    fn cannot_fit(&self, bytes: u64, item_min: u64, section_omitted: u64, max: u64) -> bool {
        self.format != Format::Text
            && item_min > 0
            && section_omitted > 1
            && self.tokens(bytes + item_min - 1 + 1) > max
    }

    fn bytes<C: Serialize>(&self, env: &Envelope<C>) -> u64 {
        match self.format {
            Format::Text => {
                super::text::render(&serde_json::to_value(env).expect("cue serializes")).len()
                    as u64
            }
            Format::Json | Format::Markdown => to_json(env).len() as u64,
        }
    }

    fn printed<C: Serialize>(&self, env: &Envelope<C>) -> u64 {
        self.printed_bytes(self.bytes(env))
    }

    /// The estimated tokens of an envelope of `bytes` as printed.
    fn printed_bytes(&self, bytes: u64) -> u64 {
        let newline = u64::from(self.format != Format::Text);
        self.tokens(bytes + newline)
    }

    /// The estimated tokens of `bytes` of this format: a quarter of the bytes for JSON (and
    /// Markdown, budgeted on the JSON), two sevenths for text. Text spends more tokens per
    /// byte (paths, line numbers and indentation are most of it, JSON's quotes and commas
    /// merge into their neighbours): in o200k, 3.2–3.3 bytes per token on the text
    /// overviews of bench/quality against 3.6–3.9 on the JSON, so a quarter let a 500-token
    /// text overview run to 591 real tokens.
    fn tokens(&self, bytes: u64) -> u64 {
        match self.format {
            Format::Text => (bytes * 2).div_ceil(7),
            Format::Json | Format::Markdown => bytes.div_ceil(4),
        }
    }
}

/// Sets the omitted count and `more` of an envelope for the given omission counts: one count
/// of all omissions (per-section counts would eat the budget that the omitted items needed)
/// and the follow-ups of the sections that lost items. Sections `skip` rejects are not
/// reported.
fn decorate<C>(
    env: &mut Envelope<C>,
    sections: &[Section],
    omitted: &[u64],
    skip: fn(&Section) -> bool,
) {
    env.more.clear();
    let reported = || {
        sections
            .iter()
            .zip(omitted)
            .filter(|(s, &n)| n > 0 && !skip(s))
    };
    env.omitted = reported().map(|(_, n)| n).sum();
    for (s, _) in reported() {
        if let Some(m) = &s.more {
            if !env.more.contains(m) {
                env.more.push(m.clone());
            }
        }
    }
}

fn report_all(_: &Section) -> bool {
    false
}

fn volatile_sections(s: &Section) -> bool {
    s.volatile
}

/// Fits items into an envelope within the budget and serializes it.
///
/// When a view has volatile sections, stable items are chosen first, against the budget less
/// a fixed reserve and measured with the volatile envelope fields at their longest and no
/// volatile items or base warnings: which stable items fit then does not depend on the
/// working tree, so an edit leaves the stable byte prefix of the next cue intact (provider
/// prompt caches key on it). Volatile items fill the rest.
pub fn fit<C: Serialize + Clone>(
    mut envelope: Envelope<C>,
    sections: &[Section],
    mut items: Vec<Item<C>>,
) -> Result<Cue> {
    let max = envelope.max_tokens;
    let meter = Meter {
        format: envelope.format,
    };
    // A stable sort keeps list order among equal ranks: deterministic output.
    items.sort_by_key(|it| std::cmp::Reverse(it.rank));
    let mut omitted: Vec<u64> = sections.iter().map(|s| s.hidden).collect();
    for it in &items {
        omitted[it.section] += 1;
    }
    // Worst case first: everything omitted. If even that does not fit (nor the complete
    // answer, below), the budget is too small.
    envelope.state_estimate(max);
    decorate(&mut envelope, sections, &omitted, report_all);
    let floor = meter.printed(&envelope);
    let stable_first = sections.iter().any(|s| s.volatile);
    let mut admitted = vec![false; items.len()];
    if stable_first && floor <= max {
        admit_stable(&envelope, sections, &items, &meter, &mut admitted);
    }
    let base = envelope.clone();
    let rebuild = |admitted: &[bool], omitted: &mut Vec<u64>| {
        let mut env = base.clone();
        *omitted = sections.iter().map(|s| s.hidden).collect();
        for (it, &a) in items.iter().zip(admitted) {
            if !(a && (it.add)(&mut env.content)) {
                omitted[it.section] += 1;
            }
        }
        decorate(&mut env, sections, omitted, report_all);
        env
    };
    // The complete answer, when it fits: adding items one by one measures each with the
    // follow-up it would still need (in text, a whole command line), so a budget that holds
    // everything could end with a cut answer longer than the complete one. Not where stable
    // items come first: what they are must not depend on the volatile ones.
    let mut complete_needs = None;
    if !stable_first && maybe_complete(&meter, &items, max) {
        let mut all_omitted = Vec::new();
        let complete = rebuild(&vec![true; items.len()], &mut all_omitted);
        if meter.printed(&complete) <= max {
            return finish(complete, &meter);
        }
        if floor > max {
            complete_needs = Some(smallest_budget(&complete, &meter));
        }
    }
    if floor > max {
        // The smallest budget that holds the answer with everything omitted, or the complete
        // one if that is less (a cut answer carries its follow-up).
        let needs = smallest_budget(&base, &meter);
        return Err(Error::BudgetTooSmall {
            max_tokens: max,
            minimum: enough(complete_needs.map_or(needs, |c| c.min(needs))),
        });
    }
    envelope = rebuild(&admitted, &mut omitted);
    let mut bytes = meter.bytes(&envelope);
    // The in-order sections an item did not fit in.
    let mut closed = vec![false; sections.len()];
    for (i, it) in items.iter().enumerate() {
        if admitted[i] || (stable_first && !sections[it.section].volatile) || closed[it.section] {
            continue;
        }
        if meter.cannot_fit(bytes, it.min_bytes, omitted[it.section], max) {
            closed[it.section] = sections[it.section].in_order;
            continue;
        }
        let mut trial = envelope.clone();
        if !(it.add)(&mut trial.content) {
            continue;
        }
        omitted[it.section] -= 1;
        decorate(&mut trial, sections, &omitted, report_all);
        let trial_bytes = meter.bytes(&trial);
        if meter.printed_bytes(trial_bytes) <= max {
            envelope = trial;
            bytes = trial_bytes;
            admitted[i] = true;
        } else {
            omitted[it.section] += 1;
            closed[it.section] = sections[it.section].in_order;
        }
    }
    // The stable choice was measured on a projection; should the real envelope (long base
    // warnings, say) not fit, the lowest-ranked stable items go until it does.
    while meter.printed(&envelope) > max {
        let Some(last) = admitted.iter().rposition(|&a| a) else {
            break;
        };
        admitted[last] = false;
        envelope = rebuild(&admitted, &mut omitted);
    }
    finish(envelope, &meter)
}

/// A budget sure to hold an answer that needs `tokens` at this request's budget: the next ten
/// at least five above. A view's follow-ups name budgets that grow with the request's (a digit
/// more or less), which the envelope measured here cannot know.
fn enough(tokens: u64) -> u64 {
    (tokens + 5).div_ceil(10) * 10
}

/// The smallest budget `m` at which `envelope` prints within `m` tokens: what it prints
/// depends on the budget only through the estimate `--provenance` states.
fn smallest_budget<C: Serialize + Clone>(envelope: &Envelope<C>, meter: &Meter) -> u64 {
    let mut env = envelope.clone();
    let mut m = 1;
    loop {
        env.state_estimate(m);
        let needs = meter.printed(&env);
        if needs <= m {
            return m;
        }
        m = needs;
    }
}

/// Most items a text cue is rendered with all at once to see whether the complete answer
/// fits ([`fit`]); past it the items are only added one by one.
const COMPLETE_TRIAL_ITEMS: usize = 300;

/// Whether the complete answer may fit the budget: for JSON (and Markdown), unless the pushed
/// values' own bytes already exceed it; for text, when there are few enough items to render
/// them all once.
fn maybe_complete<C>(meter: &Meter, items: &[Item<C>], max: u64) -> bool {
    match meter.format {
        Format::Text => items.len() <= COMPLETE_TRIAL_ITEMS,
        Format::Json | Format::Markdown => {
            meter.tokens(items.iter().map(|it| it.min_bytes).sum()) <= max
        }
    }
}

/// Marks the stable items that fit the budget less the volatile reserve, measured on a
/// projection that depends on nothing volatile.
fn admit_stable<C: Serialize + Clone>(
    envelope: &Envelope<C>,
    sections: &[Section],
    items: &[Item<C>],
    meter: &Meter,
    admitted: &mut [bool],
) {
    let max = envelope.max_tokens;
    let mut projection = envelope.clone();
    projection.warnings.clear();
    // The warnings, which come and go with the work tree too (the cue that refreshes after an
    // edit says so: its work tree kept one path of three kinds, the next call's all three).
    let warnings = meter
        .bytes(envelope)
        .saturating_sub(meter.bytes(&projection));
    // Room for them and the first listed thing of each kind, in steps of [`RESERVE_STEP`]
    // tokens (a next edit of a path of about the same length holds back the same), at least a
    // tenth of the budget, at most three tenths.
    let first: u64 = sections
        .iter()
        .map(|s| meter.tokens(s.reserve))
        .sum::<u64>()
        + meter.tokens(warnings);
    let held = (first.div_ceil(RESERVE_STEP) * RESERVE_STEP)
        .max(max / 10)
        .min(max * 3 / 10);
    let allowance = max - held;
    projection.freshness = Freshness::DirtyButIndexed;
    let mut omitted: Vec<u64> = sections.iter().map(|s| s.hidden).collect();
    for it in items {
        omitted[it.section] += 1;
    }
    decorate(&mut projection, sections, &omitted, volatile_sections);
    let mut bytes = meter.bytes(&projection);
    // The in-order sections an item did not fit in.
    let mut closed = vec![false; sections.len()];
    for (i, it) in items.iter().enumerate() {
        if sections[it.section].volatile || closed[it.section] {
            continue;
        }
        if meter.cannot_fit(bytes, it.min_bytes, omitted[it.section], allowance) {
            closed[it.section] = sections[it.section].in_order;
            continue;
        }
        let mut trial = projection.clone();
        if !(it.add)(&mut trial.content) {
            continue;
        }
        omitted[it.section] -= 1;
        decorate(&mut trial, sections, &omitted, volatile_sections);
        let trial_bytes = meter.bytes(&trial);
        if meter.printed_bytes(trial_bytes) <= allowance {
            projection = trial;
            bytes = trial_bytes;
            admitted[i] = true;
        } else {
            omitted[it.section] += 1;
            closed[it.section] = sections[it.section].in_order;
        }
    }
}

/// Sets the estimate and renders the cue.
fn finish<C: Serialize>(mut envelope: Envelope<C>, meter: &Meter) -> Result<Cue> {
    // A stated estimate is part of the document it estimates: iterate to a fixed point. Bytes
    // only shrink from the upper bound `max`, so this converges in a step or two.
    let estimated = loop {
        let t = meter.tokens(meter.bytes(&envelope));
        if envelope.stated_estimate().is_none_or(|s| s == t) {
            break t;
        }
        envelope.state_estimate(t);
    };
    let json = to_json(&envelope);
    let value: serde_json::Value = serde_json::from_str(&json).expect("own JSON parses");
    let output = render(envelope.format, &value, &json);
    Ok(Cue {
        estimated_tokens: estimated,
        json,
        value,
        output,
        format: envelope.format,
    })
}

/// Changes the order of items a cue already admitted (never their set, so the byte count and
/// the estimate stay the same) and renders it again.
pub(crate) fn reorder(cue: &mut Cue, f: impl FnOnce(&mut serde_json::Value)) {
    f(&mut cue.value);
    cue.json = to_json(&cue.value);
    cue.output = render(cue.format, &cue.value, &cue.json);
}

fn render(format: Format, value: &serde_json::Value, json: &str) -> String {
    match format {
        Format::Json => json.to_owned(),
        Format::Markdown => super::markdown::render(value),
        Format::Text => super::text::render(value),
    }
}

fn to_json<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).expect("cue serializes")
}

/// Rounds a token count up to a friendly budget (next multiple of 50).
pub fn round_up(t: u64) -> u64 {
    t.div_ceil(50) * 50
}

/// The budget of the follow-up that returns every item: the envelope with all `items` added,
/// estimated with room to spare and rounded up, at most the largest budget a request may ask.
pub fn full_budget<C: Serialize + Clone>(envelope: &Envelope<C>, items: &[Item<C>]) -> u64 {
    let mut all = envelope.clone();
    for it in items {
        (it.add)(&mut all.content);
    }
    let full = serde_json::to_string(&all).map_or(0, |s| s.len() as u64 / 4) + 200;
    round_up(full).min(crate::api::MAX_MAX_TOKENS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{Freshness, Provenance, View, CUE_SCHEMA_VERSION};
    use proptest::prelude::*;

    /// One item to offer: its section, rank and text.
    type Spec = (usize, i64, String);

    fn envelope(max_tokens: u64, format: Format) -> Envelope<Vec<String>> {
        // Odd budgets carry a provenance, whose stated estimate is part of what it estimates.
        let provenance = (max_tokens % 2 == 1).then(|| Provenance {
            name: "repo".into(),
            repository_id: "repo-000000000000000000000000".into(),
            epoch: "epoch-000001".into(),
            head: Some("0123456789abcdef0123456789abcdef01234567".into()),
            dirty: false,
            status_digest: "0123456789abcdef".into(),
            repository_digest: "0123456789abcdef".into(),
            observed_at: "2026-12-01T00:00:00.000Z".into(),
            faults: vec![],
            max_tokens,
            estimated_tokens: 0,
        });
        Envelope {
            schema_version: CUE_SCHEMA_VERSION.into(),
            kind: View::Structure,
            content: vec![],
            warnings: vec![],
            omitted: 0,
            more: vec![],
            branch: Some("main".into()),
            head: Some("0123456789".into()),
            snapshot: "snapshot-000001".into(),
            freshness: Freshness::Current,
            provenance,
            max_tokens,
            format,
        }
    }

    fn sections() -> Vec<Section> {
        vec![
            Section::new("files", Some(More::of(View::Structure, 800))),
            Section::new("symbols", None),
        ]
    }

    fn run(specs: &[Spec], max_tokens: u64, format: Format) -> Result<Cue> {
        let items = specs
            .iter()
            .map(|(section, rank, text)| {
                let text = text.clone();
                Item::new(*section, *rank, move |c: &mut Vec<String>| {
                    c.push(text.clone())
                })
            })
            .collect();
        fit(envelope(max_tokens, format), &sections(), items)
    }

    /// The texts admitted, in content order.
    fn admitted(cue: &Cue) -> Vec<String> {
        serde_json::from_value(cue.value["content"].clone()).unwrap()
    }

    /// How many items, taken in rank order (ties in list order), were all admitted.
    fn admitted_prefix(specs: &[Spec], cue: &Cue) -> usize {
        let mut order: Vec<&Spec> = specs.iter().collect();
        order.sort_by_key(|s| std::cmp::Reverse(s.1));
        let mut left = admitted(cue);
        order
            .iter()
            .take_while(|s| match left.iter().position(|t| *t == s.2) {
                Some(i) => {
                    left.remove(i);
                    true
                }
                None => false,
            })
            .count()
    }

    fn specs() -> impl Strategy<Value = Vec<Spec>> {
        prop::collection::vec((0..2usize, -3..3i64, "[a-z \"\\\\é]{0,60}"), 0..24)
    }

    fn format() -> impl Strategy<Value = Format> {
        prop::sample::select(vec![Format::Json, Format::Markdown, Format::Text])
    }

    /// [`run`] with the items made by [`Item::push`], which the fitter may skip unmeasured;
    /// `volatile` marks the second section volatile (stable items are chosen first).
    fn run_pushed(specs: &[Spec], max_tokens: u64, format: Format, volatile: bool) -> Result<Cue> {
        let items = specs
            .iter()
            .map(|(section, rank, text)| {
                Item::push(*section, *rank, text.clone(), |c: &mut Vec<String>| c)
            })
            .collect();
        let mut sections = sections();
        if volatile {
            sections[1] = sections[1].clone().volatile_holding(0);
        }
        fit(envelope(max_tokens, format), &sections, items)
    }

    // 256 cases each (proptest's default); set `PROPTEST_CASES` to run more.
    proptest! {
        /// Skipping the pushed items that cannot fit changes nothing: the same cue, byte for
        /// byte, as measuring every item.
        #[test]
        fn pushed_items_fit_exactly_like_measured_ones(
            specs in specs(), max in 1..700u64, format in format(), volatile in any::<bool>()
        ) {
            let measured = {
                let items = specs
                    .iter()
                    .map(|(section, rank, text)| {
                        let text = text.clone();
                        Item::new(*section, *rank, move |c: &mut Vec<String>| c.push(text.clone()))
                    })
                    .collect();
                let mut sections = sections();
                if volatile {
                    sections[1] = sections[1].clone().volatile_holding(0);
                }
                fit(envelope(max, format), &sections, items)
            };
            let pushed = run_pushed(&specs, max, format, volatile);
            match (measured, pushed) {
                (Ok(a), Ok(b)) => {
                    prop_assert_eq!(a.json, b.json);
                    prop_assert_eq!(a.output, b.output);
                }
                (Err(a), Err(b)) => prop_assert_eq!(a.to_string(), b.to_string()),
                (a, b) => prop_assert!(false, "{:?} vs {:?}", a.map(|c| c.json), b.map(|c| c.json)),
            }
        }

        /// The printed output (with the newline after a JSON document) never exceeds the
        /// budget, the estimate is that of the exact output, and whatever was left out is
        /// counted in the envelope's `omitted`.
        /// An in-order section admits its items in rank order only: a prefix of them, never
        /// a smaller item past one that did not fit; also where another section is volatile
        /// and the stable sections are chosen first (a dirty work tree's overview).
        #[test]
        fn an_in_order_section_admits_a_prefix_of_its_items(
            specs in specs(), max in 1..700u64, format in format(), volatile in proptest::bool::ANY
        ) {
            let label = |(section, i, text): (usize, usize, &String)| format!("{section}.{i}:{text}");
            let items = specs
                .iter()
                .enumerate()
                .map(|(i, (section, rank, text))| {
                    let text = label((*section, i, text));
                    Item::new(*section, *rank, move |c: &mut Vec<String>| c.push(text.clone()))
                })
                .collect();
            let mut sections = sections();
            sections[1] = sections[1].clone().in_order();
            if volatile {
                sections[0] = sections[0].clone().volatile_holding(16);
            }
            if let Ok(cue) = fit(envelope(max, format), &sections, items) {
                let shown = admitted(&cue);
                let mut order: Vec<(usize, &Spec)> =
                    specs.iter().enumerate().filter(|(_, s)| s.0 == 1).collect();
                order.sort_by_key(|(_, s)| std::cmp::Reverse(s.1));
                let mut missing = false;
                for (i, (section, _, text)) in order {
                    let listed = shown.contains(&label((*section, i, text)));
                    prop_assert!(!(listed && missing), "{:?}", shown);
                    missing |= !listed;
                }
            }
        }

        #[test]
        fn never_exceeds_the_budget(specs in specs(), max in 1..700u64, format in format()) {
            match run(&specs, max, format) {
                Ok(cue) => {
                    let bytes = match format {
                        Format::Text => cue.output.len() as u64,
                        Format::Json | Format::Markdown => cue.json.len() as u64 + 1,
                    };
                    let tokens = match format {
                        Format::Text => (bytes * 2).div_ceil(7),
                        Format::Json | Format::Markdown => bytes.div_ceil(4),
                    };
                    prop_assert!(tokens <= max, "{} bytes for {}", bytes, max);
                    // Only a provenance states the estimate; when it does, it is the cue's own.
                    let stated = cue.value["provenance"]["estimated_tokens"].as_u64();
                    prop_assert_eq!(stated.is_some(), max % 2 == 1);
                    if let Some(stated) = stated {
                        prop_assert_eq!(stated, cue.estimated_tokens);
                        prop_assert_eq!(cue.value["provenance"]["max_tokens"].as_u64(), Some(max));
                    }
                    match format {
                        Format::Text => prop_assert_eq!(cue.estimated_tokens, tokens),
                        Format::Json | Format::Markdown => prop_assert_eq!(cue.estimated_tokens, (cue.json.len() as u64).div_ceil(4)),
                    }
                    let left_out = (specs.len() - admitted(&cue).len()) as u64;
                    let omitted = cue.value["omitted"].as_u64();
                    prop_assert_eq!(omitted.unwrap_or(0), left_out);
                    prop_assert!(omitted != Some(0), "a zero count is left out");
                }
                Err(Error::BudgetTooSmall { max_tokens, minimum }) => {
                    prop_assert_eq!(max_tokens, max);
                    prop_assert!(minimum > max);
                    // The minimum it names is enough.
                    prop_assert!(run(&specs, minimum, format).is_ok(), "minimum {} fails", minimum);
                }
                Err(e) => prop_assert!(false, "unexpected error {}", e),
            }
        }

        /// A larger budget never admits less of the ranking: the rank-order prefix that was
        /// admitted whole only grows, and once everything fits, it keeps fitting.
        #[test]
        fn monotone_in_the_budget(
            specs in specs(),
            max in 100..600u64,
            // Even, so both budgets carry a provenance or neither does.
            more in (0..200u64).prop_map(|m| m * 2),
            format in format(),
        ) {
            let (Ok(small), Ok(large)) = (run(&specs, max, format), run(&specs, max + more, format))
            else {
                return Err(TestCaseError::reject("budget below the envelope"));
            };
            prop_assert!(admitted_prefix(&specs, &large) >= admitted_prefix(&specs, &small));
            if admitted(&small).len() == specs.len() {
                prop_assert_eq!(admitted(&large).len(), specs.len());
            }
        }

        /// The same items and budget give byte-identical output.
        #[test]
        fn deterministic(specs in specs(), max in 1..700u64, format in format()) {
            match (run(&specs, max, format), run(&specs, max, format)) {
                (Ok(a), Ok(b)) => prop_assert_eq!(a.output, b.output),
                (Err(a), Err(b)) => prop_assert_eq!(a.to_string(), b.to_string()),
                _ => prop_assert!(false, "one run failed, the other did not"),
            }
        }
    }
}
