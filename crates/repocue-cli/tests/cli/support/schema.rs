//! Validation of real outputs against the checked-in JSON Schemas in `docs/schema/`.
//!
//! The schema files are read when a test runs (not compiled in), so the tests check outputs
//! against whatever `docs/schema/` holds at that moment.

use std::path::PathBuf;

use serde_json::Value;

/// The path of `docs/schema/<name>.schema.json`.
pub fn schema_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../docs/schema")
        .join(format!("{name}.schema.json"))
}

/// The errors of `value` against `docs/schema/<name>.schema.json`, as readable lines
/// (instance path: message); empty when it is valid.
pub fn schema_errors(name: &str, value: &Value) -> Vec<String> {
    let path = schema_path(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    let schema: Value = serde_json::from_str(&text)
        .unwrap_or_else(|e| panic!("{} is not JSON: {e}", path.display()));
    let validator = jsonschema::validator_for(&schema)
        .unwrap_or_else(|e| panic!("{} is not a valid schema: {e}", path.display()));
    validator
        .iter_errors(value)
        .map(|e| format!("{}: {e}", e.instance_path()))
        .collect()
}

/// Asserts that `value` is valid against `docs/schema/<name>.schema.json`.
#[track_caller]
pub fn assert_valid(name: &str, value: &Value) {
    let errors = schema_errors(name, value);
    assert!(
        errors.is_empty(),
        "output does not match docs/schema/{name}.schema.json:\n{}\n{value:#}",
        errors.join("\n")
    );
}
