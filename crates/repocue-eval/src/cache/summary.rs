//! `evaluate-cache summary`: reads a prepared directory and recomputes everything from the
//! retained bytes — the requests from the frozen inputs, usage from each raw response body,
//! cost from the frozen profile, quality from the answer. It starts no process, opens no
//! socket, reads no credential and writes nothing.

use std::path::Path;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::manifest::{self, Block, CacheArm, CacheEval};
use super::profile::{self, ProfileTable};
use super::request;
use super::run::{CacheObservation, CacheState};
use super::usage::{self, CacheUsage, Cost};
use crate::contract::Metric;
use crate::error::{EvalError, Result};
use crate::experiment::{self, AttemptError};
use crate::stats::{self, Paired};
use crate::taskbench::{Outcome, OutcomeStatus};

/// Version of the summary.
pub const SUMMARY_SCHEMA: &str = "repocue/cache-summary-1";

/// The summary of a prepared directory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CacheSummary {
    /// [`SUMMARY_SCHEMA`].
    pub schema_version: String,
    /// The prepared directory's id.
    pub eval_id: String,
    /// Repository id.
    pub repository_id: String,
    /// Model, API version and cache lifetime.
    pub model: String,
    /// `anthropic-version`.
    pub api_version: String,
    /// `5m` or `1h`.
    pub ttl: super::profile::Ttl,
    /// Version of the frozen profile table and id of the rate record used.
    pub rates: String,
    /// The cached block.
    pub cached_block: Block,
    /// Every step in frozen order.
    pub steps: Vec<StepSummary>,
    /// Baseline steps against cache steps (the full cycle, first request included).
    pub pair: PairSummary,
    /// Whether a saving may be claimed, and why not.
    pub verdict: CacheVerdict,
    /// What the numbers do not cover.
    pub limitations: Vec<String>,
}

/// One step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StepSummary {
    /// Name.
    pub name: String,
    /// Arm.
    pub arm: CacheArm,
    /// How far the step got.
    pub status: StepStatus,
    /// Why it failed.
    pub error: Option<AttemptError>,
    /// Whether the retained request equals the one rebuilt from the frozen inputs.
    pub request_matches_frozen: bool,
    /// The step's reusable identity.
    pub reusable_identity: String,
    /// HTTP status.
    pub http_status: Option<u16>,
    /// HTTP start (the latest observed cache access, for TTL reasoning).
    pub http_started_at: Option<String>,
    /// HTTP duration in milliseconds.
    pub duration_ms: Option<u64>,
    /// Usage recomputed from the raw response.
    pub usage: Option<CacheUsage>,
    /// Cost from the frozen rates (known unsuccessful costs included).
    pub cost: Option<Cost>,
    /// Whether the response answered the task correctly.
    pub quality: Outcome,
}

/// How far a step got.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum StepStatus {
    /// No journal entry: never attempted.
    NotRun,
    /// A journal entry without a record: the attempt was interrupted.
    Interrupted,
    /// The record says completed.
    Completed,
    /// The record says failed.
    Failed,
}

/// Baseline against cache over the whole cycle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PairSummary {
    /// Baseline steps, in order.
    pub baseline_steps: Vec<String>,
    /// Cache steps, in order.
    pub cache_steps: Vec<String>,
    /// Full-cycle baseline cost; unknown unless every baseline step has a known cost.
    pub baseline_usd: Option<String>,
    /// Full-cycle cache cost, first request (and its write) included.
    pub cache_usd: Option<String>,
    /// `baseline − cache`.
    pub difference_usd: Option<String>,
    /// The first cache-arm request, whatever it observed.
    pub initial_request_usd: Option<String>,
    /// Every later cache-arm request; unknown when there is none.
    pub subsequent_requests_usd: Option<String>,
    /// Cache-arm requests with a positive cache read; unknown if any read counter is.
    pub observed_reuse_count: Metric,
    /// Per dimension, the baseline and cache cycle totals and `baseline − cache` with
    /// coverage (one pair per prepared directory).
    pub differences: Vec<Difference>,
}

/// One dimension of the pair.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Difference {
    /// `total_input_tokens`, `cache_read_input_tokens`, `output_tokens`, `cost_pico_usd`.
    pub name: String,
    /// Baseline cycle total.
    pub baseline: Option<i64>,
    /// Cache cycle total.
    pub cache: Option<i64>,
    /// `baseline − cache` over the pairs.
    pub difference: Paired,
}

/// The verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CacheVerdict {
    /// Whether a saving may be claimed.
    pub claim_allowed: bool,
    /// Whether the cache cycle cost less (descriptive; never enough on its own).
    pub cheaper: Option<bool>,
    /// Why a claim is not allowed.
    pub reasons: Vec<String>,
}

/// Summarises a prepared directory read-only.
pub fn summary(dir: &Path) -> Result<CacheSummary> {
    let m = manifest::load(dir)?;
    for f in [&m.benchmark, &m.profiles, &m.cue, &m.answer_schema] {
        experiment::read_ref(dir, f, "manifest")?;
    }
    // Reconstruct every request from the frozen inputs.
    let asof = crate::util::now_ms();
    let table = ProfileTable::parse(
        &std::fs::read(dir.join("profiles.json")).map_err(|e| EvalError::io(dir, e))?,
        "profiles.json",
        asof,
    )?;
    let (bench, profile) = manifest::load_benchmark(
        &std::fs::read(dir.join("benchmark.json")).map_err(|e| EvalError::io(dir, e))?,
        &table,
    )?;
    if profile != m.profile {
        return Err(EvalError::new(
            "invalid_evidence",
            "the frozen profile differs from profiles.json",
        ));
    }
    let (stable, volatile) = request::split_cue(
        &std::fs::read(dir.join("cue.json")).map_err(|e| EvalError::io(dir, e))?,
    )?;
    let mut steps = vec![];
    let mut costs = vec![];
    for (spec, step) in bench.steps.iter().zip(&m.steps) {
        let ttl = (spec.arm == CacheArm::Cache).then_some(bench.ttl);
        let rebuilt = request::body(
            &profile,
            bench.max_output_tokens,
            &stable,
            ttl,
            &spec.task_text,
            &volatile,
        );
        let retained = experiment::read_ref(dir, &step.request, "request")?;
        let (s, pico) = step_summary(dir, &m, step, rebuilt == retained)?;
        steps.push(s);
        costs.push(pico);
    }
    let pair = pair(&steps, &costs);
    let verdict = verdict(&m, &steps, &pair);
    Ok(CacheSummary {
        schema_version: SUMMARY_SCHEMA.into(),
        eval_id: m.eval_id.clone(),
        repository_id: m.repository.id.clone(),
        model: m.profile.model.clone(),
        api_version: m.profile.api_version.clone(),
        ttl: m.ttl,
        rates: format!("{} / {}", table.table_version, m.profile.rates.id),
        cached_block: m.cached_block.clone(),
        steps,
        pair,
        verdict,
        limitations: vec![
            "costs are estimates from the frozen rate record, not invoices; account billing is not observed".into(),
            "a cache intention (cache_control) establishes nothing: only a positive cache_read_input_tokens shows reuse".into(),
            "CPU, memory, file I/O, task-ready latency and time to first token are not observed".into(),
        ],
    })
}

/// Summarises one step and returns its cost in pico-USD when known.
fn step_summary(
    dir: &Path,
    m: &CacheEval,
    step: &manifest::Step,
    request_matches_frozen: bool,
) -> Result<(StepSummary, Option<i128>)> {
    let mut s = StepSummary {
        name: step.name.clone(),
        arm: step.arm,
        status: StepStatus::NotRun,
        error: None,
        request_matches_frozen,
        reusable_identity: step.reusable_identity.clone(),
        http_status: None,
        http_started_at: None,
        duration_ms: None,
        usage: None,
        cost: None,
        quality: Outcome::not_observed("the step has no response"),
    };
    let rec = dir.join("attempts").join(&step.name).join("record.json");
    if !rec.exists() {
        if dir
            .join("journal")
            .join(format!("{}.json", step.name))
            .exists()
        {
            s.status = StepStatus::Interrupted;
        }
        return Ok((s, None));
    }
    let rel = format!("attempts/{}/record.json", step.name);
    let p = crate::util::resolve_reference(dir, &rel, "record")?;
    let bytes = std::fs::read(&p).map_err(|e| EvalError::io(&p, e))?;
    let o: CacheObservation = crate::strict::parse(&bytes, &rel)?;
    if o.eval_id != m.eval_id || o.step != step.name || o.request != step.request {
        return Err(EvalError::new(
            "invalid_evidence",
            format!("{rel}: does not belong to this step"),
        ));
    }
    experiment::read_ref(dir, &o.journal, "journal")?;
    s.status = match o.state {
        CacheState::Completed => StepStatus::Completed,
        CacheState::Failed => StepStatus::Failed,
    };
    s.error = o.error.clone();
    s.http_status = o.http_status;
    s.http_started_at = o.http_started_at.clone();
    s.duration_ms = o.duration_ms;
    let Some(body_ref) = &o.response else {
        return Ok((s, None));
    };
    let body = experiment::read_ref(dir, body_ref, "response")?;
    let Ok(v) = crate::strict::parse::<serde_json::Value>(&body, "response") else {
        s.quality = Outcome::not_observed("the response body is not JSON");
        return Ok((s, None));
    };
    if o.http_status != Some(200) {
        s.quality = Outcome::not_observed("the request was not successful");
        return Ok((s, None));
    }
    let ttl = (step.arm == CacheArm::Cache).then_some(m.ttl);
    let u = match usage::normalize(&v, ttl) {
        Ok(u) => u,
        Err(e) => {
            s.quality = Outcome::not_observed(format!("invalid usage: {e}"));
            return Ok((s, None));
        }
    };
    let model = v["model"].as_str();
    let pico = usage::cost_pico(&u, &m.profile.rates, &m.profile.model, model).ok();
    s.cost = Some(usage::cost(&u, &m.profile.rates, &m.profile.model, model));
    s.usage = Some(u);
    s.quality = quality(m, &v);
    Ok((s, pico))
}

/// Checks the answer of a successful response.
fn quality(m: &CacheEval, v: &serde_json::Value) -> Outcome {
    let blocks = v["content"].as_array().cloned().unwrap_or_default();
    if blocks.iter().any(|b| b["type"] != "text") {
        return Outcome::failed(
            "the response has a non-text block (thinking or tool use); the answer contract is text only",
        );
    }
    let text: String = blocks.iter().filter_map(|b| b["text"].as_str()).collect();
    let Some(answer) = crate::runners::answer_from_text(&text) else {
        return Outcome::failed("the answer is not one JSON object");
    };
    if m.task_kind == repocue::api::task::TaskKind::Explanation {
        return Outcome::not_observed("explanation answers need an independent assessment");
    }
    match crate::taskbench::check_discovery(&m.expectation, &answer) {
        Ok(()) => Outcome::passed(),
        Err(why) => Outcome::failed(why),
    }
}

fn pair(steps: &[StepSummary], costs: &[Option<i128>]) -> PairSummary {
    let of = |arm: CacheArm| -> Vec<usize> {
        (0..steps.len()).filter(|&i| steps[i].arm == arm).collect()
    };
    let (b, c) = (of(CacheArm::Baseline), of(CacheArm::Cache));
    let sum_cost = |ix: &[usize]| -> Option<i128> {
        if ix.is_empty() {
            return None;
        }
        ix.iter().map(|&i| costs[i]).sum()
    };
    let usd = |v: Option<i128>| v.map(profile::format_usd);
    let (bc, cc) = (sum_cost(&b), sum_cost(&c));
    let reads: Option<Vec<u64>> = c
        .iter()
        .map(|&i| steps[i].usage.as_ref()?.cache_read_input_tokens.value)
        .collect();
    let tokens = |ix: &[usize], get: fn(&CacheUsage) -> &Metric| -> Option<i64> {
        if ix.is_empty() {
            return None;
        }
        ix.iter()
            .map(|&i| get(steps[i].usage.as_ref()?).value.map(|v| v as i64))
            .sum()
    };
    type Get = fn(&CacheUsage) -> &Metric;
    let dims: [(&str, Get); 3] = [
        ("total_input_tokens", |u| &u.total_input_tokens),
        ("cache_read_input_tokens", |u| &u.cache_read_input_tokens),
        ("output_tokens", |u| &u.output_tokens),
    ];
    let mut differences: Vec<Difference> = dims
        .iter()
        .map(|(name, get)| difference(name, tokens(&b, *get), tokens(&c, *get)))
        .collect();
    let pico = |v: Option<i128>| v.and_then(|x| i64::try_from(x).ok());
    differences.push(difference("cost_pico_usd", pico(bc), pico(cc)));
    PairSummary {
        baseline_steps: b.iter().map(|&i| steps[i].name.clone()).collect(),
        cache_steps: c.iter().map(|&i| steps[i].name.clone()).collect(),
        baseline_usd: usd(bc),
        cache_usd: usd(cc),
        difference_usd: usd(bc.zip(cc).map(|(x, y)| x - y)),
        initial_request_usd: usd(c.first().and_then(|&i| costs[i])),
        subsequent_requests_usd: usd(sum_cost(c.get(1..).unwrap_or(&[]))),
        observed_reuse_count: match reads {
            Some(r) => Metric::derived(r.iter().filter(|&&x| x > 0).count() as u64),
            None => Metric::missing("a cache-arm read counter is unknown"),
        },
        differences,
    }
}

fn difference(name: &str, baseline: Option<i64>, cache: Option<i64>) -> Difference {
    Difference {
        name: name.into(),
        baseline,
        cache,
        difference: stats::paired(&[baseline.zip(cache).map(|(b, c)| b - c)]),
    }
}

fn verdict(m: &CacheEval, steps: &[StepSummary], pair: &PairSummary) -> CacheVerdict {
    let mut reasons = vec![];
    if let Some(s) = steps.iter().find(|s| s.status != StepStatus::Completed) {
        reasons.push(format!("step {} is {:?}", s.name, s.status));
    }
    if steps.iter().any(|s| !s.request_matches_frozen) {
        reasons
            .push("a retained request differs from the one rebuilt from the frozen inputs".into());
    }
    if pair.difference_usd.is_none() {
        reasons.push("the full-cycle cost of an arm is unknown".into());
    }
    if pair.observed_reuse_count.value.unwrap_or(0) == 0 {
        reasons.push("no cache-arm request observed a positive cache read".into());
    }
    if steps
        .iter()
        .any(|s| s.quality.status != OutcomeStatus::Passed)
    {
        reasons.push("not every answer is correct".into());
    }
    reasons.push(
        "instruction compliance needs bound independent assessments, which this version does not read".into(),
    );
    if m.expectation.required_ids.is_empty() {
        reasons.push("the selector derived no required item".into());
    }
    let cheaper = pair
        .differences
        .iter()
        .find(|d| d.name == "cost_pico_usd")
        .and_then(|d| d.difference.median)
        .map(|x| x > 0.0);
    CacheVerdict {
        claim_allowed: false,
        cheaper,
        reasons,
    }
}
