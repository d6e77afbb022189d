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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{Budget, CueRepository, Freshness, View, CUE_SCHEMA_VERSION};
    use proptest::prelude::*;

    /// One item to offer: its section, rank and text.
    type Spec = (usize, i64, String);

    fn envelope(max_tokens: u64, format: Format) -> Envelope<Vec<String>> {
        Envelope {
            schema_version: CUE_SCHEMA_VERSION.into(),
            kind: View::Structure,
            content: vec![],
            warnings: vec![],
            more: vec![],
            budget: Budget {
                max_tokens,
                estimated_tokens: 0,
            },
            repository: CueRepository {
                name: "repo".into(),
                branch: Some("main".into()),
                head: Some("0123456789".into()),
                dirty: false,
            },
            snapshot: "snapshot-000001".into(),
            freshness: Freshness::Current,
            provenance: None,
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

    // 256 cases each (proptest's default); set `PROPTEST_CASES` to run more.
    proptest! {
        /// The printed output (with the newline after a JSON document) never exceeds the
        /// budget, the estimate is that of the exact output, and whatever was left out is
        /// counted in one `omitted` warning.
        #[test]
        fn never_exceeds_the_budget(specs in specs(), max in 1..700u64, format in format()) {
            match run(&specs, max, format) {
                Ok(cue) => {
                    let bytes = match format {
                        Format::Text => cue.output.len() as u64,
                        Format::Json | Format::Markdown => cue.json.len() as u64 + 1,
                    };
                    prop_assert!(bytes.div_ceil(4) <= max, "{} bytes for {}", bytes, max);
                    prop_assert_eq!(cue.value["budget"]["estimated_tokens"].as_u64(), Some(cue.estimated_tokens));
                    if format != Format::Text {
                        prop_assert_eq!(cue.estimated_tokens, (cue.json.len() as u64).div_ceil(4));
                    }
                    let left_out = (specs.len() - admitted(&cue).len()) as u64;
                    let omitted = cue.value["warnings"].as_array().unwrap().iter()
                        .find(|w| w["code"] == "omitted").map(|w| w["count"].as_u64().unwrap());
                    prop_assert_eq!(omitted.unwrap_or(0), left_out);
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
            more in 0..400u64,
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
