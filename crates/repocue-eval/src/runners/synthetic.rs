//! The synthetic runner: deterministic, offline, no model. It answers the Git facts correctly
//! by asking Git itself and fabricates usage numbers from the request (a fixed function of
//! pair, arm kind and context size), so the whole pipeline can be exercised and tested.
//! Its numbers are never evidence of anything; every summary says so.

use crate::contract::{
    self, ArmKind, CommandRecord, Metric, Observation, RunnerInfo, RunnerRequest, Turn,
};
use crate::error::Result;
use crate::facts;

/// Adapter version of the synthetic runner.
pub const VERSION: &str = "1";

/// Produces the observation for one request.
pub fn observe(req: &RunnerRequest) -> Result<Observation> {
    let root = std::path::Path::new(&req.repository.root);
    let f = facts::capture_facts(root)?;
    let h = crate::util::hex_sha256(format!("{}\0{}", req.pair_id, req.arm).as_bytes());
    let jitter = u64::from_str_radix(&h[..8], 16).unwrap_or(0);
    let ctx = req.context.as_ref().map_or(0, |c| c.estimated_tokens);
    // A fixed model of an agent: exploring costs input tokens and commands; a relevant
    // context replaces most of the exploration, an irrelevant one replaces none.
    let (explore_cmds, explore_tokens) = match req.arm_kind {
        ArmKind::Direct | ArmKind::Placebo => (10 + jitter % 5, 20_000 + jitter % 4_000),
        ArmKind::Cue => (3 + jitter % 3, 6_000 + jitter % 2_000),
    };
    let prompt_tokens = crate::util::estimated_tokens(req.prompt.len() as u64);
    let input = prompt_tokens + explore_tokens + ctx;
    let output = 800 + jitter % 300;
    let first_in = input / 3;
    let turns = vec![
        Turn {
            turn: 1,
            input_tokens: Some(first_in),
            cached_input_tokens: Some(0),
            output_tokens: Some(output / 4),
            reasoning_output_tokens: Some(output / 8),
        },
        Turn {
            turn: 2,
            input_tokens: Some(input - first_in),
            cached_input_tokens: Some(first_in / 2),
            output_tokens: Some(output - output / 4),
            reasoning_output_tokens: Some(output / 8),
        },
    ];
    let pool = [
        "git status --porcelain=v2 --branch",
        "git log --oneline -5",
        "ls",
        "cat README.md",
        "rg --files",
        "sed -n 1,80p Cargo.toml",
        "git diff --stat",
        "find . -maxdepth 2 -type d",
        "head -40 docs/index.md",
        "wc -l src/lib.rs",
    ];
    let commands: Vec<CommandRecord> = (0..explore_cmds)
        .map(|i| {
            let c = pool[(i as usize) % pool.len()];
            CommandRecord {
                command: c.into(),
                classification: contract::classify(c),
            }
        })
        .collect();
    let duration = 15_000 + explore_cmds * 2_500 + jitter % 3_000;
    let answer = if req.answer_schema_version == contract::TASK_ANSWER_SCHEMA {
        task_answer(req)
    } else {
        git_answer(f)
    };
    Ok(Observation {
        schema_version: contract::OBSERVATION_SCHEMA.into(),
        attempt_id: req.attempt_id.clone(),
        runner: RunnerInfo {
            adapter: "synthetic".into(),
            adapter_version: VERSION.into(),
            agent_version: None,
            model: "synthetic-1".into(),
            reasoning_effort: None,
            sandbox: "read-only".into(),
        },
        usage: crate::runners::usage_from_turns(&turns)?,
        turns,
        tool_calls: Metric::observed(explore_cmds + 1),
        commands,
        duration_ms: Metric::observed(duration),
        answer: Some(answer),
        limitations: vec![
            "synthetic: usage, commands and duration are a fixed function of the request, not measurements of an agent".into(),
        ],
    })
}

/// Answers the Git facts from Git itself.
fn git_answer(f: facts::GitFacts) -> serde_json::Value {
    let answer = contract::Answer {
        schema_version: contract::ANSWER_SCHEMA.into(),
        git: contract::GitAnswer {
            branch: f.branch,
            head: f.head,
            dirty: f.dirty,
            tracked_changes: f.tracked_changes,
            untracked: f.untracked,
        },
        semantic: contract::SemanticAnswer {
            purpose: "synthetic runner: no model read this repository".into(),
            entry_points: vec![],
            components: vec![],
            documentation: vec![],
            uncertainties: vec!["everything semantic: this answer is synthetic".into()],
        },
    };
    serde_json::to_value(answer).expect("answer serializes")
}

/// Answers a task-context task by reading the required items straight out of a task cue; a
/// context without one (the overview) yields empty lists, as a reader would.
fn task_answer(req: &RunnerRequest) -> serde_json::Value {
    let expected = req
        .context
        .as_ref()
        .and_then(|c| crate::taskbench::expectation(c.text.as_bytes()).ok());
    let answer = contract::TaskAnswer {
        schema_version: contract::TASK_ANSWER_SCHEMA.into(),
        required_ids: expected
            .as_ref()
            .map(|e| e.required_ids.clone())
            .unwrap_or_default(),
        source_ids: expected
            .map(|e| e.required_sources.into_iter().map(|s| s.id).collect())
            .unwrap_or_default(),
        answer: "synthetic runner: no model read the context".into(),
    };
    serde_json::to_value(answer).expect("answer serializes")
}
