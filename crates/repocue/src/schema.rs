//! The JSON Schemas of every public output, generated from the [`crate::api`] types.

use schemars::JsonSchema;

/// Returns every public output schema as `(file stem, JSON Schema)`, in a stable order.
///
/// The checked-in copies live in `docs/schema/<stem>.json`; a test fails when they drift.
pub fn schemas() -> Vec<(&'static str, serde_json::Value)> {
    use crate::api::views::{
        DeltaContent, DocumentContent, EntityContent, ManifestContent, OverviewContent,
        SearchContent, StructureContent,
    };
    use crate::api::*;
    use crate::hooks::HooksOutput;
    fn schema<T: JsonSchema>() -> serde_json::Value {
        serde_json::to_value(schemars::schema_for!(T)).expect("schema serializes")
    }
    vec![
        ("status", schema::<StatusOutput>()),
        ("refresh", schema::<RefreshOutput>()),
        ("metrics", schema::<MetricsOutput>()),
        ("error", schema::<ErrorOutput>()),
        ("cue-request", schema::<CueRequest>()),
        ("hooks", schema::<HooksOutput>()),
        ("checkpoint", schema::<CheckpointOutput>()),
        ("prune", schema::<PruneOutput>()),
        ("evaluation", schema::<EvaluationOutput>()),
        ("cue-manifest", schema::<Envelope<ManifestContent>>()),
        ("cue-overview", schema::<Envelope<OverviewContent>>()),
        ("cue-delta", schema::<Envelope<DeltaContent>>()),
        ("cue-structure", schema::<Envelope<StructureContent>>()),
        ("cue-entity", schema::<Envelope<EntityContent>>()),
        ("cue-search", schema::<Envelope<SearchContent>>()),
        ("cue-document", schema::<Envelope<DocumentContent>>()),
        ("cue-task", schema::<Envelope<task::TaskContent>>()),
        ("task-context-check", schema::<task::TaskContextCheck>()),
        ("task-context-pin", schema::<task::TaskContextPinOutput>()),
    ]
}

/// Compares schemas with their checked-in copies `dir/<stem>.schema.json` and returns the
/// paths that differ; with `REPOCUE_BLESS` set it rewrites them instead. The drift test of
/// every crate that owns public output types runs through it.
pub fn schema_drift(dir: &std::path::Path, schemas: &[(&str, serde_json::Value)]) -> Vec<String> {
    let bless = std::env::var_os("REPOCUE_BLESS").is_some();
    let mut stale = Vec::new();
    for (stem, schema) in schemas {
        let path = dir.join(format!("{stem}.schema.json"));
        let text = serde_json::to_string_pretty(schema).expect("schemas serialize") + "\n";
        if bless {
            let written = std::fs::create_dir_all(dir).and_then(|()| std::fs::write(&path, &text));
            if written.is_err() {
                stale.push(path.display().to_string());
            }
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            stale.push(path.display().to_string());
        }
    }
    stale
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    /// Fails when `docs/schema/` differs from the types; `REPOCUE_BLESS=1` rewrites it.
    #[test]
    fn checked_in_schemas_match_the_types() {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/schema");
        let stale = super::schema_drift(&dir, &super::schemas());
        assert!(
            stale.is_empty(),
            "schemas drifted from the Rust types: {stale:?}\nregenerate with: REPOCUE_BLESS=1 cargo test -p repocue schema"
        );
    }
}
