//! Paired statistics: per-pair values first, then median, range and coverage; break-even in
//! exact integer arithmetic. Differences of medians are never computed.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Aggregate of per-pair values of one dimension.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Paired {
    /// Pairs with a value.
    pub count: u64,
    /// All pairs.
    pub pairs: u64,
    /// Median of the per-pair values (mean of the two middle ones for an even count);
    /// `null` when no pair is complete.
    pub median: Option<f64>,
    /// Smallest per-pair value (a range, not a confidence interval).
    pub min: Option<i64>,
    /// Largest per-pair value.
    pub max: Option<i64>,
    /// `derived` when at least one pair is complete, else `not_observed`.
    pub status: crate::contract::Status,
}

/// Returns the median of `v` (sorted internally); `None` when empty.
pub fn median(v: &[i64]) -> Option<f64> {
    let mut v = v.to_vec();
    v.sort_unstable();
    let n = v.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(v[n / 2] as f64),
        _ => Some((v[n / 2 - 1] as f64 + v[n / 2] as f64) / 2.0),
    }
}

/// Aggregates per-pair values (`None` = that pair is incomplete for this dimension).
pub fn paired(values: &[Option<i64>]) -> Paired {
    let known: Vec<i64> = values.iter().flatten().copied().collect();
    Paired {
        count: known.len() as u64,
        pairs: values.len() as u64,
        median: median(&known),
        min: known.iter().min().copied(),
        max: known.iter().max().copied(),
        status: if known.is_empty() {
            crate::contract::Status::NotObserved
        } else {
            crate::contract::Status::Derived
        },
    }
}

/// Break-even of one pair: the first consumer count at which the assisted path is strictly
/// cheaper.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", tag = "kind", content = "consumers")]
pub enum BreakEven {
    /// `floor(H / g) + 1` consumers, where `g = D − (A + Q) > 0`.
    Finite(u64),
    /// `g ≤ 0`: the assisted path never becomes cheaper.
    NoFiniteBreakEven,
    /// An input is missing.
    NotObserved,
}

/// Computes `floor(H / g) + 1` for `g = d − (a + q) > 0`.
pub fn break_even(h: Option<i64>, d: Option<i64>, a: Option<i64>, q: Option<i64>) -> BreakEven {
    let (Some(h), Some(d), Some(a), Some(q)) = (h, d, a, q) else {
        return BreakEven::NotObserved;
    };
    let g = d as i128 - (a as i128 + q as i128);
    if g <= 0 {
        return BreakEven::NoFiniteBreakEven;
    }
    let h = (h as i128).max(0);
    BreakEven::Finite((h / g + 1) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_of_paired_differences_not_difference_of_medians() {
        let direct = [100, 200, 300];
        let assisted = [90, 1, 299];
        let savings: Vec<Option<i64>> = direct
            .iter()
            .zip(assisted)
            .map(|(d, a)| Some(d - a))
            .collect();
        let p = paired(&savings);
        assert_eq!(p.median, Some(10.0));
        assert_ne!(p.median, Some(110.0));
        assert_eq!((p.min, p.max, p.count), (Some(1), Some(199), 3));
    }

    #[test]
    fn even_counts_average_the_middle_and_missing_pairs_lower_coverage() {
        let p = paired(&[Some(4), None, Some(1), Some(2), Some(3)]);
        assert_eq!((p.median, p.count, p.pairs), (Some(2.5), 4, 5));
        let none = paired(&[None, None]);
        assert_eq!(none.median, None);
        assert_eq!(none.status, crate::contract::Status::NotObserved);
    }

    #[test]
    fn break_even_examples() {
        // H = 1000, D = 500, A = 300, Q = 50 → g = 150 → 7 (6: 3000 vs 3100; 7: 3500 vs 3450).
        assert_eq!(
            break_even(Some(1000), Some(500), Some(300), Some(50)),
            BreakEven::Finite(7)
        );
        // H = 300, g = 150 → 3 (2 consumers is a tie, not break-even).
        assert_eq!(
            break_even(Some(300), Some(500), Some(300), Some(50)),
            BreakEven::Finite(3)
        );
        assert_eq!(
            break_even(Some(0), Some(10), Some(5), Some(0)),
            BreakEven::Finite(1)
        );
        assert_eq!(
            break_even(Some(10), Some(10), Some(5), Some(5)),
            BreakEven::NoFiniteBreakEven
        );
        assert_eq!(
            break_even(Some(10), Some(10), Some(5), None),
            BreakEven::NotObserved
        );
    }
}
