//! Usage normalisation and cost of one Messages response: four disjoint categories (ordinary
//! input, cache writes, cache reads, output), every counter nullable (absent is unknown, never
//! zero), the write aggregate checked against its lifetime parts, and one exact cost function.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::profile::{self, Rates, Ttl};
use crate::contract::{Metric, Status};

/// Largest counter accepted (JSON's exact integer range).
const MAX_COUNTER: u64 = (1 << 53) - 1;

/// The normalised usage of one response.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CacheUsage {
    /// `usage.input_tokens`: ordinary (uncached) input.
    pub input_tokens: Metric,
    /// `usage.cache_creation_input_tokens`: cache writes, all lifetimes.
    pub cache_creation_input_tokens: Metric,
    /// Writes with a five-minute lifetime (reported, or derived from the single frozen TTL).
    pub cache_write_5m_tokens: Metric,
    /// Writes with a one-hour lifetime.
    pub cache_write_1h_tokens: Metric,
    /// `usage.cache_read_input_tokens`.
    pub cache_read_input_tokens: Metric,
    /// `usage.output_tokens`.
    pub output_tokens: Metric,
    /// Ordinary + writes + reads, when all three are known.
    pub total_input_tokens: Metric,
    /// Counters the response did not report.
    pub missing: Vec<String>,
}

impl CacheUsage {
    /// Tells whether every counter a cost needs is known.
    pub fn complete(&self) -> bool {
        self.missing.is_empty()
    }
}

/// Reads one counter: absent or `null` is unknown; anything but a safe non-negative integer
/// is invalid.
fn counter(v: &serde_json::Value, name: &str) -> Result<Option<u64>, String> {
    match v.get(name) {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(x) => match x.as_u64() {
            Some(n) if n <= MAX_COUNTER => Ok(Some(n)),
            _ => Err(format!(
                "usage.{name} is {x}, not a safe non-negative integer"
            )),
        },
    }
}

/// Normalises the `usage` object of a response for a request whose cache lifetime is `ttl`
/// (`None` for a request without a cache breakpoint). Returns why it is invalid otherwise.
pub fn normalize(response: &serde_json::Value, ttl: Option<Ttl>) -> Result<CacheUsage, String> {
    let empty = serde_json::Value::Null;
    let u = response.get("usage").unwrap_or(&empty);
    if !(u.is_object() || u.is_null()) {
        return Err("usage is not an object".into());
    }
    let ordinary = counter(u, "input_tokens")?;
    let write = counter(u, "cache_creation_input_tokens")?;
    let read = counter(u, "cache_read_input_tokens")?;
    let output = counter(u, "output_tokens")?;
    let parts = u.get("cache_creation").unwrap_or(&empty);
    let w5 = counter(parts, "ephemeral_5m_input_tokens")?;
    let w1 = counter(parts, "ephemeral_1h_input_tokens")?;
    let (w5, w1, parts_status) = match (w5, w1, write) {
        (Some(a), Some(b), Some(w)) if a.checked_add(b) != Some(w) => {
            return Err(format!(
                "cache_creation parts {a} + {b} differ from cache_creation_input_tokens {w}"
            ))
        }
        (Some(a), Some(b), _) => (Some(a), Some(b), Status::Observed),
        // Without parts, the single lifetime the request asked for makes the split exact.
        (None, None, Some(w)) => match ttl {
            Some(Ttl::FiveMinutes) | None => (Some(w), Some(0), Status::Derived),
            Some(Ttl::OneHour) => (Some(0), Some(w), Status::Derived),
        },
        _ => (None, None, Status::NotObserved),
    };
    let metric = |v: Option<u64>, status: Status, name: &str| match v {
        Some(n) => Metric {
            value: Some(n),
            status,
            reason: None,
        },
        None => Metric::missing(format!("the response does not report {name}")),
    };
    let mut missing = vec![];
    for (name, v) in [
        ("input_tokens", ordinary),
        ("cache_creation_input_tokens", write),
        ("cache_read_input_tokens", read),
        ("output_tokens", output),
    ] {
        if v.is_none() {
            missing.push(name.to_owned());
        }
    }
    let total = match (ordinary, write, read) {
        (Some(a), Some(b), Some(c)) => a.checked_add(b).and_then(|x| x.checked_add(c)),
        _ => None,
    };
    Ok(CacheUsage {
        input_tokens: metric(ordinary, Status::Observed, "input_tokens"),
        cache_creation_input_tokens: metric(write, Status::Observed, "cache_creation_input_tokens"),
        cache_write_5m_tokens: metric(w5, parts_status, "the 5m write share"),
        cache_write_1h_tokens: metric(w1, parts_status, "the 1h write share"),
        cache_read_input_tokens: metric(read, Status::Observed, "cache_read_input_tokens"),
        output_tokens: metric(output, Status::Observed, "output_tokens"),
        total_input_tokens: metric(total, Status::Derived, "every input category"),
        missing,
    })
}

/// A cost, or why there is none.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Cost {
    /// USD as an exact decimal string; `null` when unknown.
    pub usd: Option<String>,
    /// `derived` when computed, else `not_observed`.
    pub status: Status,
    /// The rate record used.
    pub rates_id: String,
    /// Why the cost is unknown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// Computes `(ordinary·input + w5·write_5m + w1·write_1h + read·read + output·output) / 1e6`
/// in pico-USD, or why it cannot be known.
pub fn cost_pico(
    u: &CacheUsage,
    rates: &Rates,
    requested_model: &str,
    response_model: Option<&str>,
) -> Result<i128, String> {
    if response_model != Some(requested_model) {
        return Err(format!(
            "the response model {response_model:?} is not the rated model {requested_model:?}"
        ));
    }
    let terms = [
        (&u.input_tokens, &rates.input),
        (&u.cache_write_5m_tokens, &rates.cache_write_5m),
        (&u.cache_write_1h_tokens, &rates.cache_write_1h),
        (&u.cache_read_input_tokens, &rates.cache_read),
        (&u.output_tokens, &rates.output),
    ];
    let mut sum: i128 = 0;
    for (m, rate) in terms {
        let n = m
            .value
            .ok_or_else(|| format!("usage is incomplete: {}", u.missing.join(", ")))?;
        let r = profile::micro(rate)?;
        // tokens × micro-USD per million tokens = pico-USD.
        sum += i128::from(n) * i128::from(r);
    }
    Ok(sum)
}

/// Wraps [`cost_pico`] as a reported cost.
pub fn cost(
    u: &CacheUsage,
    rates: &Rates,
    requested_model: &str,
    response_model: Option<&str>,
) -> Cost {
    match cost_pico(u, rates, requested_model, response_model) {
        Ok(p) => Cost {
            usd: Some(profile::format_usd(p)),
            status: Status::Derived,
            rates_id: rates.id.clone(),
            reason: None,
        },
        Err(why) => Cost {
            usd: None,
            status: Status::NotObserved,
            rates_id: rates.id.clone(),
            reason: Some(why),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn rates() -> Rates {
        Rates {
            id: "r".into(),
            as_of: "2025-01-01".into(),
            unit: profile::USD_PER_MILLION_TOKENS.into(),
            input: "3".into(),
            cache_write_5m: "3.75".into(),
            cache_write_1h: "6".into(),
            cache_read: "0.30".into(),
            output: "15".into(),
        }
    }

    #[test]
    fn categories_are_disjoint_and_absence_is_unknown() {
        let r = json!({"usage": {"input_tokens": 10, "cache_creation_input_tokens": 2000,
            "cache_read_input_tokens": 0, "output_tokens": 100}});
        let u = normalize(&r, Some(Ttl::FiveMinutes)).unwrap();
        assert_eq!(u.total_input_tokens.value, Some(2010));
        assert_eq!(u.cache_write_5m_tokens.status, Status::Derived);
        // 10·3 + 2000·3.75 + 100·15 = 30 + 7500 + 1500 = 9030 micro-USD per million → $0.00903
        let c = cost(&u, &rates(), "m", Some("m"));
        assert_eq!(c.usd.as_deref(), Some("0.00903"));
        assert_eq!(
            cost(&u, &rates(), "m", Some("other")).status,
            Status::NotObserved
        );
        let partial = json!({"usage": {"input_tokens": 0, "output_tokens": 5}});
        let u = normalize(&partial, None).unwrap();
        assert_eq!(
            u.missing,
            ["cache_creation_input_tokens", "cache_read_input_tokens"]
        );
        assert_eq!(
            u.input_tokens.value,
            Some(0),
            "an explicit 0 is an observed zero"
        );
        assert!(cost(&u, &rates(), "m", Some("m")).usd.is_none());
        assert_eq!(normalize(&json!({}), None).unwrap().missing.len(), 4);
    }

    #[test]
    fn lifetime_parts_must_add_up_and_counters_must_be_safe() {
        let parts = |a: u64, b: u64| {
            json!({"usage": {"input_tokens": 1, "cache_creation_input_tokens": 10,
                "cache_creation": {"ephemeral_5m_input_tokens": a, "ephemeral_1h_input_tokens": b},
                "cache_read_input_tokens": 0, "output_tokens": 1}})
        };
        let u = normalize(&parts(4, 6), Some(Ttl::OneHour)).unwrap();
        assert_eq!(u.cache_write_1h_tokens.value, Some(6));
        assert!(normalize(&parts(4, 7), None)
            .unwrap_err()
            .contains("differ"));
        for bad in [json!(-1), json!(1.5), json!("3"), json!(1u64 << 60)] {
            let r = json!({"usage": {"input_tokens": bad}});
            assert!(normalize(&r, None).is_err(), "{r}");
        }
    }
}
