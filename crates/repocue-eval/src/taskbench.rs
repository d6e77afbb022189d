//! The task-context benchmark (`repocue/task-benchmark-1`) of `evaluate-task`, and the
//! selector-derived expectation that preparation reads from the real task cue: the required
//! item ids and their sources, against which every delivery and every discovery answer is
//! checked.
//!
//! Pure stages over bytes: nothing here runs a process or touches the repository.

use std::collections::BTreeSet;
use std::path::Path;

use repocue::api::task::TaskKind;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::{EvalError, Result};

/// Version of the benchmark file.
pub const BENCHMARK_SCHEMA: &str = "repocue/task-benchmark-1";
/// Name of the arm that receives the overview cue (the baseline).
pub const OVERVIEW_ARM: &str = "overview";
/// Name of the arm that receives the task cue.
pub const TASK_ARM: &str = "task";
/// Largest benchmark file accepted.
const MAX_BENCHMARK_BYTES: usize = 1 << 20;

/// One task, as its author declares it for a task-context experiment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Benchmark {
    /// [`BENCHMARK_SCHEMA`].
    pub schema_version: String,
    /// Stable id of the task (`^[a-z0-9][a-z0-9._-]*$`).
    pub task_id: String,
    /// `discovery`, `explanation` or `verification`.
    pub task_kind: TaskKind,
    /// The task text both arms receive first, before their cue.
    pub prompt: String,
    /// Repository-relative path of the tracked `repocue/task-context-1` declaration.
    pub declaration: String,
    /// Target paths of the task cue (at least one; `.` is the whole repository).
    pub targets: Vec<String>,
    /// One budget for both cues (`--max-tokens` of the overview and of the task cue).
    pub max_tokens: u64,
}

impl Benchmark {
    /// Reads and strictly parses a benchmark file; returns it with its bytes.
    pub fn load(path: &Path) -> Result<(Benchmark, Vec<u8>)> {
        let bytes = std::fs::read(path)
            .map_err(|e| EvalError::arg(format!("--task-file {}: {e}", path.display())))?;
        if bytes.len() > MAX_BENCHMARK_BYTES {
            return Err(invalid(format!(
                "{} has {} bytes; at most {MAX_BENCHMARK_BYTES} are accepted",
                path.display(),
                bytes.len()
            )));
        }
        let b: Benchmark =
            crate::strict::parse(&bytes, "task benchmark").map_err(|e| invalid(e.message))?;
        b.validate()?;
        Ok((b, bytes))
    }

    fn validate(&self) -> Result<()> {
        if self.schema_version != BENCHMARK_SCHEMA {
            return Err(invalid(format!(
                "schema_version {:?}; this RepoCue reads {BENCHMARK_SCHEMA}",
                self.schema_version
            )));
        }
        let id_ok = self.task_id.bytes().enumerate().all(|(i, c)| {
            c.is_ascii_lowercase() || c.is_ascii_digit() || (i > 0 && b"._-".contains(&c))
        });
        if self.task_id.is_empty() || !id_ok {
            return Err(invalid(format!(
                "task_id {:?}: use lowercase letters, digits, '.', '_' and '-'",
                self.task_id
            )));
        }
        if self.prompt.trim().is_empty() {
            return Err(invalid("prompt is empty".into()));
        }
        if self.declaration.trim().is_empty() {
            return Err(invalid("declaration is empty".into()));
        }
        if self.targets.is_empty() || self.targets.iter().any(|t| t.is_empty()) {
            return Err(invalid("targets: give at least one non-empty path".into()));
        }
        if !(1..=repocue::MAX_MAX_TOKENS).contains(&self.max_tokens) {
            return Err(invalid(format!(
                "max_tokens {} is outside 1..={}",
                self.max_tokens,
                repocue::MAX_MAX_TOKENS
            )));
        }
        Ok(())
    }

    /// Returns the `repocue` arguments of the overview cue.
    pub fn overview_argv(&self) -> Vec<String> {
        let mut argv: Vec<String> = ["cue", "--view", "overview", "--max-tokens"]
            .map(String::from)
            .into();
        argv.extend([self.max_tokens.to_string(), "--no-refresh".into()]);
        argv
    }

    /// Returns the `repocue` arguments of the task cue.
    pub fn task_argv(&self) -> Vec<String> {
        let mut argv: Vec<String> = ["cue", "--view", "task", "--context-file"]
            .map(String::from)
            .into();
        argv.push(self.declaration.clone());
        argv.extend(["--task-kind".into(), self.task_kind.as_str().into()]);
        for t in &self.targets {
            argv.extend(["--target".into(), t.clone()]);
        }
        argv.extend([
            "--max-tokens".into(),
            self.max_tokens.to_string(),
            "--no-refresh".into(),
        ]);
        argv
    }
}

fn invalid(message: String) -> EvalError {
    EvalError::new("invalid_benchmark", message)
}

/// A source the task cue must deliver.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ExpectedSource {
    /// Source id (`src-…`).
    pub id: String,
    /// Repository-relative path.
    pub path: String,
    /// `sha256:` of the delivered text.
    pub text_digest: String,
}

/// What the selector derived for the task at preparation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Expectation {
    /// `sha256:` of the declaration the task cue was built from.
    pub declaration_digest: String,
    /// Ids of the selected required items, sorted.
    pub required_ids: Vec<String>,
    /// Sources (primary and checks) of the required items, sorted by id.
    pub required_sources: Vec<ExpectedSource>,
}

/// The task-context part of a cue: what reached the agent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Delivered {
    /// Declaration digest, when the cue is a task cue.
    pub declaration_digest: Option<String>,
    /// Required item ids the cue lists.
    pub required_ids: BTreeSet<String>,
    /// Sources whose text matches their `text_digest`.
    pub sources: BTreeSet<ExpectedSource>,
}

/// Reads the task-context part of a cue's JSON output. A cue of another view (the overview)
/// delivers nothing; a task cue whose source text does not match its digest delivers that
/// source not at all.
pub fn delivered(cue: &[u8]) -> Result<Delivered> {
    let v: serde_json::Value = crate::strict::parse(cue, "cue output")?;
    let mut out = Delivered::default();
    if v["kind"] != "task" {
        return Ok(out);
    }
    let c = &v["content"];
    out.declaration_digest = c["declaration"]["content_digest"]
        .as_str()
        .map(str::to_owned);
    for id in c["required_ids"].as_array().into_iter().flatten() {
        if let Some(id) = id.as_str() {
            out.required_ids.insert(id.to_owned());
        }
    }
    for s in c["sources"].as_array().into_iter().flatten() {
        let (Some(id), Some(path), Some(text), Some(digest)) = (
            s["id"].as_str(),
            s["path"].as_str(),
            s["text"].as_str(),
            s["text_digest"].as_str(),
        ) else {
            continue;
        };
        if crate::util::digest(text.as_bytes()) == digest {
            out.sources.insert(ExpectedSource {
                id: id.into(),
                path: path.into(),
                text_digest: digest.into(),
            });
        }
    }
    Ok(out)
}

/// Derives the expectation from the task cue measured at preparation: the required ids and
/// the sources their items name.
pub fn expectation(task_cue: &[u8]) -> Result<Expectation> {
    let bad = |why: &str| EvalError::new("invalid_evidence", format!("task cue: {why}"));
    let v: serde_json::Value = crate::strict::parse(task_cue, "task cue")?;
    if v["kind"] != "task" {
        return Err(bad("not a task cue"));
    }
    let d = delivered(task_cue)?;
    let mut wanted: BTreeSet<&str> = BTreeSet::new();
    for it in v["content"]["items"].as_array().into_iter().flatten() {
        if it["required"] != true {
            continue;
        }
        wanted.insert(
            it["source"]
                .as_str()
                .ok_or_else(|| bad("item without source"))?,
        );
        for c in it["checks"].as_array().into_iter().flatten() {
            wanted.insert(c.as_str().ok_or_else(|| bad("bad check id"))?);
        }
    }
    let required_sources: Vec<ExpectedSource> = d
        .sources
        .iter()
        .filter(|s| wanted.contains(s.id.as_str()))
        .cloned()
        .collect();
    if required_sources.len() != wanted.len() {
        return Err(bad(
            "a required source is missing or its text does not match its digest",
        ));
    }
    Ok(Expectation {
        declaration_digest: d.declaration_digest.ok_or_else(|| bad("no declaration"))?,
        required_ids: d.required_ids.into_iter().collect(),
        required_sources,
    })
}

/// A checked outcome.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Outcome {
    /// `passed`, `failed` or `not_observed`.
    pub status: OutcomeStatus,
    /// Why it failed or could not be observed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// An outcome status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum OutcomeStatus {
    /// Checked and right.
    Passed,
    /// Checked and wrong.
    Failed,
    /// No check exists or no evidence to check.
    NotObserved,
}

impl Outcome {
    /// Checked and right.
    pub fn passed() -> Self {
        Outcome {
            status: OutcomeStatus::Passed,
            reason: None,
        }
    }
    /// Checked and wrong, with why.
    pub fn failed(why: impl Into<String>) -> Self {
        Outcome {
            status: OutcomeStatus::Failed,
            reason: Some(why.into()),
        }
    }
    /// Not checkable, with why.
    pub fn not_observed(why: impl Into<String>) -> Self {
        Outcome {
            status: OutcomeStatus::NotObserved,
            reason: Some(why.into()),
        }
    }
}

/// Checks a discovery answer: its required ids and source ids must equal the expectation
/// exactly. Returns why not.
pub fn check_discovery(
    e: &Expectation,
    value: &serde_json::Value,
) -> std::result::Result<(), String> {
    let a =
        crate::contract::parse_task_answer(value).map_err(|e| format!("invalid answer: {e}"))?;
    let want_ids: BTreeSet<&str> = e.required_ids.iter().map(String::as_str).collect();
    let want_src: BTreeSet<&str> = e.required_sources.iter().map(|s| s.id.as_str()).collect();
    let got_ids: BTreeSet<&str> = a.required_ids.iter().map(String::as_str).collect();
    let got_src: BTreeSet<&str> = a.source_ids.iter().map(String::as_str).collect();
    if got_ids == want_ids && got_src == want_src {
        return Ok(());
    }
    Err(format!(
        "required_ids {got_ids:?} and source_ids {got_src:?}; the selector derived {want_ids:?} and {want_src:?}"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cue(text: &str, digest: &str) -> Vec<u8> {
        serde_json::to_vec(&serde_json::json!({
            "kind": "task",
            "content": {
                "declaration": {"path": "ctx.json", "content_digest": "sha256:d"},
                "required_ids": ["a"],
                "items": [
                    {"id": "a", "required": true, "source": "src-1", "checks": ["src-2"]},
                    {"id": "b", "required": false, "source": "src-3", "checks": []}
                ],
                "sources": [
                    {"id": "src-1", "path": "README.md", "text": text, "text_digest": digest},
                    {"id": "src-2", "path": "Makefile", "text": "", "text_digest": crate::util::digest(b"")},
                    {"id": "src-3", "path": "x.md", "text": "x", "text_digest": crate::util::digest(b"x")}
                ]
            }
        }))
        .unwrap()
    }

    #[test]
    fn the_expectation_is_the_required_items_and_their_sources() {
        let e = expectation(&cue("hi\n", &crate::util::digest(b"hi\n"))).unwrap();
        assert_eq!(e.required_ids, ["a"]);
        let ids: Vec<&str> = e.required_sources.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(ids, ["src-1", "src-2"]);
        // A text that does not match its digest was not delivered.
        let e = expectation(&cue("hi\n", &crate::util::digest(b"other"))).unwrap_err();
        assert_eq!(e.code, "invalid_evidence");
        let overview = br#"{"kind":"overview","content":{}}"#;
        assert_eq!(delivered(overview).unwrap(), Delivered::default());
        assert!(expectation(overview).is_err());
    }

    #[test]
    fn benchmarks_are_parsed_strictly() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("b.json");
        let good = r#"{"schema_version":"repocue/task-benchmark-1","task_id":"find-rules",
            "task_kind":"discovery","prompt":"Find the rules.","declaration":"ctx.json",
            "targets":["src"],"max_tokens":2000}"#;
        std::fs::write(&p, good).unwrap();
        let (b, _) = Benchmark::load(&p).unwrap();
        assert_eq!(b.task_argv()[4], "ctx.json");
        assert!(b
            .task_argv()
            .ends_with(&["2000".into(), "--no-refresh".into()]));
        for bad in [
            good.replace("find-rules", "Find Rules"),
            good.replace("discovery", "deploy"),
            good.replace("[\"src\"]", "[]"),
            good.replace("2000", "0"),
            good.replace("\"prompt\"", "\"extra\":1,\"prompt\""),
            good.replace("task-benchmark-1", "task-benchmark-2"),
        ] {
            std::fs::write(&p, &bad).unwrap();
            let e = Benchmark::load(&p).unwrap_err();
            assert_eq!(e.code, "invalid_benchmark", "{bad}: {e}");
        }
    }
}
