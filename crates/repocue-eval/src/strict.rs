//! Strict JSON input: one value, no duplicate object members, valid UTF-8, and (through
//! `deny_unknown_fields` on every input type) no unknown fields.
//!
//! serde rejects duplicate struct fields but silently keeps the last duplicate inside a map
//! or a `serde_json::Value`, so a pre-pass walks the document and tracks keys per object.

use std::collections::HashSet;

use serde::de::{DeserializeOwned, DeserializeSeed, IgnoredAny, MapAccess, SeqAccess, Visitor};

use crate::error::{EvalError, Result};

/// Parses `bytes` as exactly one JSON value of type `T`, rejecting duplicate members.
pub fn parse<T: DeserializeOwned>(bytes: &[u8], what: &str) -> Result<T> {
    let bad = |e: String| EvalError::new("invalid_json", format!("{what}: {e}"));
    let mut de = serde_json::Deserializer::from_slice(bytes);
    NoDuplicates
        .deserialize(&mut de)
        .map_err(|e| bad(e.to_string()))?;
    de.end().map_err(|e| bad(e.to_string()))?;
    serde_json::from_slice(bytes).map_err(|e| bad(e.to_string()))
}

struct NoDuplicates;

impl<'de> DeserializeSeed<'de> for NoDuplicates {
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> std::result::Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for NoDuplicates {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> std::result::Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> std::result::Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> std::result::Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> std::result::Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> std::result::Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> std::result::Result<(), E> {
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<(), A::Error> {
        while seq.next_element_seed(NoDuplicates)?.is_some() {}
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<(), A::Error> {
        let mut seen = HashSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if !seen.insert(key.clone()) {
                return Err(serde::de::Error::custom(format!(
                    "duplicate object member {key:?}"
                )));
            }
            map.next_value_seed(NoDuplicates)?;
        }
        Ok(())
    }
}

/// Tells whether `bytes` hold exactly one JSON value (of any shape) without duplicates.
pub fn is_single_value(bytes: &[u8]) -> bool {
    parse::<IgnoredAny>(bytes, "value").is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct T {
        #[allow(dead_code)]
        a: u64,
        #[allow(dead_code)]
        m: serde_json::Value,
    }

    #[test]
    fn rejects_duplicates_trailing_values_and_unknown_fields() {
        assert!(parse::<T>(br#"{"a":1,"m":{"x":1}}"#, "t").is_ok());
        for bad in [
            &br#"{"a":1,"a":2,"m":{}}"#[..],
            br#"{"a":1,"m":{"x":1,"x":2}}"#,
            br#"{"a":1,"m":[{"y":1,"y":1}]}"#,
            br#"{"a":1,"m":{}} {"a":1,"m":{}}"#,
            br#"{"a":1,"m":{},"extra":true}"#,
            br#"{"a":-1,"m":{}}"#,
            b"{\"a\":1,\"m\":\"\xff\"}",
        ] {
            let e = parse::<T>(bad, "t").unwrap_err();
            assert_eq!(e.code, "invalid_json", "{}", String::from_utf8_lossy(bad));
        }
    }
}
