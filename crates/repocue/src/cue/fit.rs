//! The budget fitter: admits whole items in rank order while the exact serialized envelope
//! stays within `ceil(bytes / 4) <= max_tokens`.

use serde::Serialize;

use crate::api::{Cue, Envelope, Format, More, Warning, WarningCode};
use crate::error::{Error, Result};

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
        env.warnings.push(Warning::counted(
            WarningCode::Omitted,
            total,
            detail.join(", "),
        ));
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
    // Bytes of the output in its format. The estimate is `ceil(bytes / 4)`; what is admitted
    // must also fit with the newline a terminal or a pipe receives after a JSON document
    // (the text format ends with its own), so the printed output never exceeds the budget.
    let measure = |env: &Envelope<C>| -> u64 {
        match env.format {
            Format::Text => {
                super::text::render(&serde_json::to_value(env).expect("cue serializes")).len()
                    as u64
            }
            Format::Json | Format::Markdown => to_json(env).len() as u64,
        }
    };
    let newline = u64::from(envelope.format != Format::Text);
    let printed = |env: &Envelope<C>| (measure(env) + newline).div_ceil(4);
    let floor = printed(&envelope);
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
        if printed(&trial) <= max {
            envelope = trial;
        } else {
            omitted[it.section] += 1;
        }
    }
    decorate(&mut envelope, &omitted);
    // The estimate is part of the document it estimates: iterate to a fixed point. Bytes only
    // shrink from the upper bound `max`, so this converges in a step or two.
    loop {
        let t = measure(&envelope).div_ceil(4);
        if envelope.budget.estimated_tokens == t {
            break;
        }
        envelope.budget.estimated_tokens = t;
    }
    let json = to_json(&envelope);
    let value: serde_json::Value = serde_json::from_str(&json).expect("own JSON parses");
    let output = render(envelope.format, &value, &json);
    Ok(Cue {
        estimated_tokens: envelope.budget.estimated_tokens,
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
