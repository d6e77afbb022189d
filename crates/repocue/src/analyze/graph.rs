//! Ranking: a PageRank-style score over files, where a file that references a name defined in
//! another file links to it. Personalised toward entry points and files that are dirty now.

use std::collections::{BTreeMap, HashMap};

use crate::analyze::structure::CodeFacts;

const DAMPING: f64 = 0.85;
const ITERATIONS: usize = 30;

/// One node of the graph: a file with its code facts and a personalisation weight.
pub struct Node<'a> {
    /// Code facts.
    pub facts: &'a CodeFacts,
    /// Personalisation weight (1.0 normal; more for entry points and changed files).
    pub boost: f64,
}

/// Returns a score per node (same order), summing to 1. Deterministic: nodes are visited in
/// the order given and name lookups use ordered maps.
pub fn rank(nodes: &[Node<'_>]) -> Vec<f64> {
    let n = nodes.len();
    if n == 0 {
        return vec![];
    }
    let mut defined: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, node) in nodes.iter().enumerate() {
        for s in &node.facts.symbols {
            let list = defined.entry(s.name()).or_default();
            if list.last() != Some(&i) {
                list.push(i);
            }
        }
    }
    // Edges with weights: a reference to a name defined in k files splits over those k.
    let mut out_edges: Vec<HashMap<usize, f64>> = vec![HashMap::new(); n];
    for (i, node) in nodes.iter().enumerate() {
        for r in &node.facts.references {
            if let Some(targets) = defined.get(r.as_str()) {
                let w = 1.0 / targets.len() as f64;
                for &t in targets.iter().filter(|&&t| t != i) {
                    *out_edges[i].entry(t).or_default() += w;
                }
            }
        }
    }
    let out_edges: Vec<Vec<(usize, f64)>> = out_edges
        .into_iter()
        .map(|m| {
            let mut v: Vec<(usize, f64)> = m.into_iter().collect();
            v.sort_by_key(|e| e.0);
            let total: f64 = v.iter().map(|e| e.1).sum();
            v.into_iter().map(|(t, w)| (t, w / total)).collect()
        })
        .collect();
    let boost_total: f64 = nodes.iter().map(|n| n.boost).sum();
    let personal: Vec<f64> = nodes.iter().map(|n| n.boost / boost_total).collect();
    let mut score = personal.clone();
    for _ in 0..ITERATIONS {
        let mut next: Vec<f64> = personal.iter().map(|p| (1.0 - DAMPING) * p).collect();
        let mut dangling = 0.0;
        for (i, edges) in out_edges.iter().enumerate() {
            if edges.is_empty() {
                dangling += score[i];
            }
            for &(t, w) in edges {
                next[t] += DAMPING * score[i] * w;
            }
        }
        for (x, p) in next.iter_mut().zip(&personal) {
            *x += DAMPING * dangling * p;
        }
        score = next;
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::structure::SymbolFact;

    fn facts(defs: &[&str], refs: &[&str]) -> CodeFacts {
        CodeFacts {
            language: "Rust".into(),
            symbols: defs
                .iter()
                .map(|d| SymbolFact {
                    qualified_name: (*d).into(),
                    kind: "function".into(),
                    signature: format!("fn {d}()"),
                    start_line: 1,
                    end_line: 1,
                    visibility: None,
                })
                .collect(),
            references: refs.iter().map(|r| (*r).into()).collect(),
            ..Default::default()
        }
    }

    #[test]
    fn referenced_files_rank_higher() {
        let core = facts(&["parse"], &[]);
        let a = facts(&["a"], &["parse"]);
        let b = facts(&["b"], &["parse", "a"]);
        let nodes = [
            Node {
                facts: &a,
                boost: 1.0,
            },
            Node {
                facts: &b,
                boost: 1.0,
            },
            Node {
                facts: &core,
                boost: 1.0,
            },
        ];
        let s = rank(&nodes);
        assert!(s[2] > s[0] && s[0] > s[1], "{s:?}");
        assert!((s.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    }
}
