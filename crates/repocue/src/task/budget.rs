//! Fitting a task cue into its budget in whole units.
//!
//! The mandatory envelope comes first: provenance (rendered by the caller), the declaration,
//! the normalised request, the required ids, every required item with its primary and check
//! sources in full, and the omission accounting sized for every optional item omitted. If that
//! does not fit, the cue fails with `budget_too_small` and the smallest budget that fits.
//! Optional items then join whole, in id order, each with the sources not already present
//! (shared sources are emitted once); one that does not fit is listed as omitted and the next
//! is tried. Nothing is ever truncated.

use std::collections::BTreeMap;

use super::declaration::{Item, Lines};
use super::extract::Source;
pub use crate::api::task::{
    DeclarationRef, ItemRecord, Omitted, OmittedItem, SourceRecord, TaskContent, TaskRequest,
    ORIGIN,
};
use crate::error::{Error, Result};

/// One selected item with its validated sources (primary first, then checks).
pub struct Selected<'a> {
    /// The item.
    pub item: &'a Item,
    /// Its primary source followed by its check sources.
    pub sources: Vec<&'a Source>,
}

/// Renders a whole cue document around some content with the given budget fields.
pub type Render<'r> = dyn Fn(&TaskContent, u64, u64) -> String + 'r;

/// A fitted cue.
#[derive(Debug, Clone)]
pub struct Fitted {
    /// The content that went in (read by the unit tests; callers use the JSON).
    #[cfg_attr(not(test), allow(dead_code))]
    pub content: TaskContent,
    /// The rendered document.
    pub json: String,
    /// `ceil(bytes / 4)` of `json`, also written inside it.
    pub estimated_tokens: u64,
}

/// Fits the selected items into `max_tokens`. `render(content, max_tokens, estimated_tokens)`
/// must return the complete serialized document. `base` carries the declaration and request;
/// its lists are filled here. `selected` must be in id order.
pub fn fit(
    base: TaskContent,
    selected: &[Selected],
    max_tokens: u64,
    render: &Render,
) -> Result<Fitted> {
    let mut sources: BTreeMap<(String, Option<Lines>, String), SourceRecord> = BTreeMap::new();
    let mut items: Vec<ItemRecord> = Vec::new();
    let optional: Vec<&Selected> = selected.iter().filter(|s| !s.item.required).collect();
    let mut content = base;
    content.required_ids = selected
        .iter()
        .filter(|s| s.item.required)
        .map(|s| s.item.id.clone())
        .collect();
    content.omitted = omitted(optional.iter().map(|s| &s.item.id));
    // A source whose text was not even retained (larger than any budget) cannot be delivered.
    let mut too_large = 0u64;
    for s in selected.iter().filter(|s| s.item.required) {
        items.push(record(s));
        for src in &s.sources {
            match record_source(src) {
                Some(r) => {
                    sources.insert(key(&r), r);
                }
                None => too_large += src.text_bytes.div_ceil(4),
            }
        }
    }
    let assemble = |content: &mut TaskContent, items: &[ItemRecord], sources: &BTreeMap<_, _>| {
        content.items = items.to_vec();
        content.items.sort_by(|a, b| a.id.cmp(&b.id));
        content.sources = sources.values().cloned().collect();
    };
    assemble(&mut content, &items, &sources);
    let floor = tokens(&render(&content, max_tokens, max_tokens));
    if floor > max_tokens || too_large > 0 {
        return Err(Error::BudgetTooSmall {
            max_tokens,
            minimum: minimum(&content, too_large, render),
        });
    }
    let mut left_out = Vec::new();
    for s in optional {
        let Some(extra) = s
            .sources
            .iter()
            .map(|src| record_source(src))
            .collect::<Option<Vec<_>>>()
        else {
            left_out.push(&s.item.id);
            continue;
        };
        let mut trial_items = items.clone();
        trial_items.push(record(s));
        let mut trial_sources = sources.clone();
        for r in extra {
            trial_sources.entry(key(&r)).or_insert(r);
        }
        let mut trial = content.clone();
        assemble(&mut trial, &trial_items, &trial_sources);
        let still_out = left_out.iter().copied().chain(
            selected
                .iter()
                .filter(|o| !o.item.required && o.item.id > s.item.id)
                .map(|o| &o.item.id),
        );
        trial.omitted = omitted(still_out);
        if tokens(&render(&trial, max_tokens, max_tokens)) <= max_tokens {
            items = trial_items;
            sources = trial_sources;
        } else {
            left_out.push(&s.item.id);
        }
    }
    assemble(&mut content, &items, &sources);
    content.omitted = omitted(left_out.into_iter());
    // The estimate is part of the document it estimates: iterate to a fixed point. It starts
    // from the upper bound that was checked, so it only shrinks and converges quickly.
    let mut estimated = max_tokens;
    let mut json = render(&content, max_tokens, estimated);
    loop {
        let t = tokens(&json);
        if t == estimated {
            break;
        }
        estimated = t;
        json = render(&content, max_tokens, estimated);
    }
    Ok(Fitted {
        content,
        json,
        estimated_tokens: estimated,
    })
}

/// Returns the smallest budget, rounded up to a multiple of 50, that holds `content` (plus
/// `extra` tokens of text too large to retain). Budget digits change the document's length,
/// so the candidate is checked with itself as the budget.
/// The smallest budget the mandatory part fits: what it prints depends on the budget only
/// through the numbers it states, so the least fixed point from the budget-free size.
fn minimum(content: &TaskContent, extra: u64, render: &Render) -> u64 {
    let mut m = tokens(&render(content, 0, 0)) + extra;
    loop {
        let needs = tokens(&render(content, m, m)) + extra;
        if needs <= m {
            return m;
        }
        m = needs;
    }
}

fn record(s: &Selected) -> ItemRecord {
    ItemRecord {
        id: s.item.id.clone(),
        kind: s.item.kind,
        required: s.item.required,
        source: s.sources[0].id.clone(),
        checks: s.sources[1..].iter().map(|src| src.id.clone()).collect(),
    }
}

fn record_source(s: &Source) -> Option<SourceRecord> {
    Some(SourceRecord {
        id: s.id.clone(),
        origin: ORIGIN.into(),
        path: s.path.clone(),
        content_digest: s.content_digest.clone(),
        lines: s.lines,
        text: s.text.clone()?,
        text_digest: s.text_digest.clone(),
    })
}

/// Orders sources by path, then whole file before ranges, ranges by position.
fn key(r: &SourceRecord) -> (String, Option<Lines>, String) {
    (r.path.clone(), r.lines, r.id.clone())
}

fn omitted<'a>(ids: impl Iterator<Item = &'a String>) -> Omitted {
    let mut items: Vec<OmittedItem> = ids
        .map(|id| OmittedItem {
            id: id.clone(),
            reason: "budget".into(),
        })
        .collect();
    items.sort_by(|a, b| a.id.cmp(&b.id));
    Omitted {
        count: items.len() as u64,
        items,
    }
}

/// Returns `ceil(bytes / 4)`.
pub fn tokens(json: &str) -> u64 {
    (json.len() as u64).div_ceil(4)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::task::declaration::{ItemKind, Reference, TaskKind};
    use crate::task::ident::{digest_of, source_id};

    fn source(path: &str, text: &str) -> Source {
        let d = digest_of(text.as_bytes());
        Source {
            id: source_id(path, &d, None),
            path: path.into(),
            content_digest: d,
            lines: None,
            text: Some(text.into()),
            text_bytes: text.len() as u64,
            text_digest: digest_of(text.as_bytes()),
        }
    }

    fn item(id: &str, required: bool) -> Item {
        Item {
            id: id.into(),
            kind: ItemKind::Instruction,
            required,
            tasks: None,
            paths: None,
            source: Reference {
                path: "unused".into(),
                content_digest: digest_of(b""),
                lines: None,
            },
            checks: vec![],
        }
    }

    fn base() -> TaskContent {
        TaskContent {
            declaration: DeclarationRef {
                path: "ctx.json".into(),
                content_digest: digest_of(b"{}"),
            },
            request: TaskRequest {
                task_kind: TaskKind::Discovery,
                targets: vec![".".into()],
            },
            required_ids: vec![],
            items: vec![],
            sources: vec![],
            omitted: omitted(std::iter::empty()),
        }
    }

    /// A stand-in for the real envelope: the budget fields around the content.
    fn render(c: &TaskContent, max: u64, est: u64) -> String {
        serde_json::to_string(&serde_json::json!({
            "budget": {"max_tokens": max, "estimated_tokens": est},
            "content": c,
        }))
        .unwrap()
    }

    fn run(selected: &[Selected], max: u64) -> Result<Fitted> {
        fit(base(), selected, max, &render)
    }

    fn ids(f: &Fitted) -> (Vec<&str>, Vec<&str>) {
        (
            f.content.items.iter().map(|i| i.id.as_str()).collect(),
            f.content
                .omitted
                .items
                .iter()
                .map(|i| i.id.as_str())
                .collect(),
        )
    }

    #[test]
    fn delivers_everything_when_it_fits_with_an_exact_estimate() {
        let (a, b) = (source("a.md", "alpha\n"), source("b.md", "beta\n"));
        let (ia, ib) = (item("a", true), item("b", false));
        let sel = [
            Selected {
                item: &ia,
                sources: vec![&a],
            },
            Selected {
                item: &ib,
                sources: vec![&b, &a],
            },
        ];
        let f = run(&sel, 2000).unwrap();
        assert_eq!(ids(&f), (vec!["a", "b"], vec![]));
        assert_eq!(f.content.required_ids, ["a"]);
        assert_eq!(f.content.sources.len(), 2, "a shared source appears once");
        assert_eq!(f.content.items[1].checks, vec![a.id.clone()]);
        assert_eq!(f.estimated_tokens, tokens(&f.json));
        assert_eq!(f.json, render(&f.content, 2000, f.estimated_tokens));
        assert!(f.json.contains("\"origin\":\"repository_text\""));
    }

    #[test]
    fn required_overflow_fails_with_a_minimum_that_works() {
        let big = source("big.md", &"x".repeat(4000));
        let (ia, ib) = (item("a", true), item("b", false));
        let small = source("s.md", "s");
        let sel = [
            Selected {
                item: &ia,
                sources: vec![&big],
            },
            Selected {
                item: &ib,
                sources: vec![&small],
            },
        ];
        let e = run(&sel, 500).unwrap_err();
        let Error::BudgetTooSmall {
            max_tokens,
            minimum,
        } = e
        else {
            panic!("{e:?}")
        };
        assert_eq!(max_tokens, 500);
        let f = run(&sel, minimum).unwrap();
        assert_eq!(f.content.required_ids, ["a"]);
        assert!(
            run(&sel, minimum - 1).is_err(),
            "the minimum is the smallest budget that fits"
        );
        // The minimum budget reserves room to account for every optional item as omitted.
        assert!(f.content.omitted.count <= 1);
    }

    #[test]
    fn optional_items_go_whole_in_id_order_skipping_what_does_not_fit() {
        let req = source("req.md", "r");
        let huge = source("huge.md", &"h".repeat(3000));
        let tiny = source("tiny.md", "t");
        let (ir, i1, i2, i3) = (
            item("req", true),
            item("opt-1", false),
            item("opt-2-huge", false),
            item("opt-3", false),
        );
        let sel = [
            Selected {
                item: &i1,
                sources: vec![&tiny],
            },
            Selected {
                item: &i2,
                sources: vec![&huge],
            },
            Selected {
                item: &i3,
                sources: vec![&tiny, &req],
            },
            Selected {
                item: &ir,
                sources: vec![&req],
            },
        ];
        let f = run(&sel, 400).unwrap();
        assert_eq!(ids(&f), (vec!["opt-1", "opt-3", "req"], vec!["opt-2-huge"]));
        assert_eq!(f.content.omitted.count, 1);
        assert_eq!(f.content.omitted.items[0].reason, "budget");
        assert!(
            !f.json.contains("hhhh"),
            "an omitted item's text is not delivered"
        );
        assert_eq!(f.content.sources.len(), 2);
        assert!(f.estimated_tokens <= 400);
        // With room for everything, nothing is omitted.
        let f = run(&sel, 2000).unwrap();
        assert_eq!(f.content.omitted.count, 0);
        assert_eq!(f.content.sources.len(), 3);
    }

    #[test]
    fn a_shared_source_costs_an_optional_item_only_its_record() {
        let shared = source("shared.md", &"s".repeat(1200));
        let (ir, io) = (item("a-req", true), item("b-opt", false));
        let sel = [
            Selected {
                item: &ir,
                sources: vec![&shared],
            },
            Selected {
                item: &io,
                sources: vec![&shared],
            },
        ];
        let alone = run(&sel[..1], 2000).unwrap().estimated_tokens;
        let f = run(&sel, alone + 40).unwrap();
        assert_eq!(ids(&f), (vec!["a-req", "b-opt"], vec![]));
        assert_eq!(f.content.sources.len(), 1);
    }

    #[test]
    fn text_too_large_to_retain_cannot_be_delivered() {
        let mut big = source("big.md", "x");
        big.text = None;
        big.text_bytes = 400_000;
        let ir = item("a", true);
        let sel = [Selected {
            item: &ir,
            sources: vec![&big],
        }];
        match run(&sel, 20_000).unwrap_err() {
            Error::BudgetTooSmall { minimum, .. } => assert!(minimum >= 100_000, "{minimum}"),
            e => panic!("{e:?}"),
        }
        let io = item("b", false);
        let ok = source("ok.md", "ok");
        let iok = item("a", true);
        let sel = [
            Selected {
                item: &iok,
                sources: vec![&ok],
            },
            Selected {
                item: &io,
                sources: vec![&big],
            },
        ];
        assert_eq!(ids(&run(&sel, 20_000).unwrap()), (vec!["a"], vec!["b"]));
    }

    #[test]
    fn output_is_deterministic() {
        let (a, b) = (source("a.md", "alpha\n"), source("b.md", "beta\n"));
        let (ia, ib) = (item("a", true), item("b", false));
        let sel = [
            Selected {
                item: &ia,
                sources: vec![&a, &b],
            },
            Selected {
                item: &ib,
                sources: vec![&b],
            },
        ];
        assert_eq!(run(&sel, 900).unwrap().json, run(&sel, 900).unwrap().json);
        let paths: Vec<_> = run(&sel, 900)
            .unwrap()
            .content
            .sources
            .iter()
            .map(|s| s.path.clone())
            .collect();
        assert_eq!(paths, ["a.md", "b.md"]);
    }
}
