//! The model profile table of `evaluate-cache`: per model the API version, the cache TTLs it
//! accepts, its minimum cacheable prefix, its output bound and one dated rate record. It is
//! data (`data/anthropic-profiles.json`, or a file given with `--profiles`), validated when
//! loaded and frozen into every prepared directory, so adding a model or a price is a data
//! change and old prepared directories keep the table they were prepared with.
//!
//! Money is exact: rates are decimal strings with at most six fractional digits, held as
//! integer micro-USD per million tokens; costs are integer pico-USD (1e-12), never floats.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::{EvalError, Result};

/// Version of the table format.
pub const PROFILES_SCHEMA: &str = "repocue/model-profiles-1";
/// The table shipped with this build.
pub const DEFAULT_PROFILES: &str = include_str!("../../data/anthropic-profiles.json");
/// The one rate unit of a profile table.
pub const USD_PER_MILLION_TOKENS: &str = "usd_per_million_tokens";
/// API versions this client speaks.
const API_VERSIONS: &[&str] = &["2023-06-01"];

/// A cache lifetime.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum Ttl {
    /// Five minutes (the provider's default).
    #[serde(rename = "5m")]
    FiveMinutes,
    /// One hour.
    #[serde(rename = "1h")]
    OneHour,
}

impl Ttl {
    /// Returns the wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Ttl::FiveMinutes => "5m",
            Ttl::OneHour => "1h",
        }
    }
}

/// The profile table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ProfileTable {
    /// [`PROFILES_SCHEMA`].
    pub schema_version: String,
    /// Version of this table's content (a date and a counter).
    pub table_version: String,
    /// `anthropic`.
    pub provider: String,
    /// Where the numbers come from.
    pub source: String,
    /// One entry per model, sorted by model.
    pub profiles: Vec<Profile>,
}

/// One model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    /// Exact model id sent in requests.
    pub model: String,
    /// The `anthropic-version` header.
    pub api_version: String,
    /// Cache lifetimes the model accepts.
    pub ttls: Vec<Ttl>,
    /// Smallest prefix the provider caches; smaller prefixes are sent but not cached.
    pub min_cacheable_tokens: u64,
    /// Largest `max_tokens` the model accepts.
    pub max_output_tokens: u64,
    /// Prices.
    pub rates: Rates,
}

/// A dated rate record: decimal strings in [`USD_PER_MILLION_TOKENS`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Rates {
    /// Record id.
    pub id: String,
    /// The date the prices hold from (`YYYY-MM-DD`, not in the future).
    pub as_of: String,
    /// [`USD_PER_MILLION_TOKENS`].
    pub unit: String,
    /// Ordinary input.
    pub input: String,
    /// Cache writes with a five-minute lifetime.
    pub cache_write_5m: String,
    /// Cache writes with a one-hour lifetime.
    pub cache_write_1h: String,
    /// Cache reads.
    pub cache_read: String,
    /// Output.
    pub output: String,
}

impl ProfileTable {
    /// Parses and validates a table; `now_ms` bounds the rate dates.
    pub fn parse(bytes: &[u8], what: &str, now_ms: i64) -> Result<ProfileTable> {
        let t: ProfileTable =
            crate::strict::parse(bytes, what).map_err(|e| invalid(what, e.message))?;
        t.validate(what, now_ms)?;
        Ok(t)
    }

    fn validate(&self, what: &str, now_ms: i64) -> Result<()> {
        let bad = |m: String| Err(invalid(what, m));
        if self.schema_version != PROFILES_SCHEMA {
            return bad(format!("schema_version {:?}", self.schema_version));
        }
        if self.provider != "anthropic" {
            return bad(format!("provider {:?}: only anthropic", self.provider));
        }
        for w in self.profiles.windows(2) {
            if w[0].model >= w[1].model {
                return bad(format!(
                    "profiles: {:?} is out of order or repeated",
                    w[1].model
                ));
            }
        }
        for p in &self.profiles {
            let m = &p.model;
            if m.is_empty() || !API_VERSIONS.contains(&p.api_version.as_str()) {
                return bad(format!("{m:?}: empty model or unknown api_version"));
            }
            if p.ttls.is_empty() || p.min_cacheable_tokens == 0 || p.max_output_tokens == 0 {
                return bad(format!(
                    "{m:?}: ttls, min_cacheable_tokens and max_output_tokens must be set"
                ));
            }
            let r = &p.rates;
            if r.unit != USD_PER_MILLION_TOKENS || r.id.is_empty() {
                return bad(format!(
                    "{m:?}: rates need an id and unit {USD_PER_MILLION_TOKENS}"
                ));
            }
            match crate::util::parse_utc_ms(&format!("{}T00:00:00Z", r.as_of)) {
                Some(t) if t <= now_ms => {}
                _ => {
                    return bad(format!(
                        "{m:?}: rates.as_of {:?} is not a past date",
                        r.as_of
                    ))
                }
            }
            for (name, v) in r.prices() {
                if let Err(e) = micro(v) {
                    return bad(format!("{m:?}: rates.{name}: {e}"));
                }
            }
        }
        Ok(())
    }

    /// Returns the profile of `model`.
    pub fn find(&self, model: &str) -> Option<&Profile> {
        self.profiles.iter().find(|p| p.model == model)
    }

    /// Returns the supported model ids, comma separated.
    pub fn models(&self) -> String {
        let names: Vec<&str> = self.profiles.iter().map(|p| p.model.as_str()).collect();
        names.join(", ")
    }
}

impl Rates {
    /// Returns every price with its field name.
    pub fn prices(&self) -> [(&'static str, &str); 5] {
        [
            ("input", &self.input),
            ("cache_write_5m", &self.cache_write_5m),
            ("cache_write_1h", &self.cache_write_1h),
            ("cache_read", &self.cache_read),
            ("output", &self.output),
        ]
    }
}

fn invalid(what: &str, message: String) -> EvalError {
    EvalError::new("invalid_profiles", format!("{what}: {message}"))
}

/// Parses a non-negative decimal string with at most six fractional digits into millionths.
pub fn micro(s: &str) -> std::result::Result<u64, String> {
    let (int, frac) = s.split_once('.').unwrap_or((s, ""));
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|c| c.is_ascii_digit());
    if !digits(int) || (s.contains('.') && !digits(frac)) || frac.len() > 6 {
        return Err(format!(
            "{s:?} is not a decimal with at most six fractional digits"
        ));
    }
    let mut f = frac.to_owned();
    while f.len() < 6 {
        f.push('0');
    }
    let i: u64 = int.parse().map_err(|_| format!("{s:?} is too large"))?;
    let f: u64 = f.parse().map_err(|_| format!("{s:?} is not a decimal"))?;
    i.checked_mul(1_000_000)
        .and_then(|v| v.checked_add(f))
        .ok_or_else(|| format!("{s:?} is too large"))
}

/// Formats pico-USD (1e-12) as a plain decimal string, trailing zeros trimmed.
pub fn format_usd(pico: i128) -> String {
    let sign = if pico < 0 { "-" } else { "" };
    let p = pico.unsigned_abs();
    let int = p / 1_000_000_000_000;
    let frac = format!("{:012}", p % 1_000_000_000_000);
    let frac = frac.trim_end_matches('0');
    if frac.is_empty() {
        format!("{sign}{int}")
    } else {
        format!("{sign}{int}.{frac}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_table_is_valid_and_sorted() {
        let t = ProfileTable::parse(DEFAULT_PROFILES.as_bytes(), "shipped", i64::MAX).unwrap();
        assert!(t.find("claude-sonnet-4-5-20250929").is_some());
        assert!(t.find("claude-unknown").is_none());
    }

    #[test]
    fn decimals_are_exact() {
        assert_eq!(micro("3"), Ok(3_000_000));
        assert_eq!(micro("0.30"), Ok(300_000));
        assert_eq!(micro("3.75"), Ok(3_750_000));
        assert_eq!(micro("0.000001"), Ok(1));
        for bad in [
            "",
            "-1",
            "1.",
            ".5",
            "1e3",
            "0.0000001",
            "1,5",
            "99999999999999999999",
        ] {
            assert!(micro(bad).is_err(), "{bad}");
        }
        assert_eq!(format_usd(9_000_000_000), "0.009");
        assert_eq!(format_usd(-1_500_000_000_000), "-1.5");
        assert_eq!(format_usd(0), "0");
    }

    #[test]
    fn tables_are_validated_when_loaded() {
        let good = DEFAULT_PROFILES;
        let past = crate::util::parse_utc_ms("2030-01-01T00:00:00Z").unwrap();
        for (from, to) in [
            ("\"input\": \"3\"", "\"input\": \"three\""),
            ("\"as_of\": \"2025-11-24\"", "\"as_of\": \"2999-01-01\""),
            ("\"ttls\": [\"5m\", \"1h\"]", "\"ttls\": [\"2h\"]"),
            ("usd_per_million_tokens", "credits_per_million_tokens"),
            ("\"2023-06-01\"", "\"2099-01-01\""),
            ("claude-opus-4-5-20251101", "claude-haiku-4-5-20251001"),
            ("\"provider\"", "\"extra\": 1, \"provider\""),
        ] {
            assert!(good.contains(from), "{from}");
            let bad = good.replacen(from, to, 1);
            let e = ProfileTable::parse(bad.as_bytes(), "t", past).unwrap_err();
            assert_eq!(e.code, "invalid_profiles", "{to}: {e}");
        }
    }
}
