use super::*;
use crate::contract::{self, Metric};
use crate::experiment::{Dimension, FileRef};
use crate::taskbench::Expectation;

fn file() -> FileRef {
    FileRef {
        path: "benchmark.json".into(),
        sha256: crate::util::digest(b""),
        bytes: 0,
    }
}

fn tc(kind: repocue::api::task::TaskKind) -> TaskContextRef {
    TaskContextRef {
        benchmark: file(),
        task_kind: kind,
        declaration: "ctx.json".into(),
        targets: vec![".".into()],
        max_tokens: 2000,
        expectation: Expectation {
            declaration_digest: "sha256:d".into(),
            required_ids: vec!["rules".into()],
            required_sources: vec![ExpectedSource {
                id: "src-1".into(),
                path: "README.md".into(),
                text_digest: "sha256:t".into(),
            }],
        },
        cues: vec![],
    }
}

fn attempt(pair: &str, arm: &str, correct: OutcomeStatus) -> TaskAttempt {
    let not = || Metric::missing("x");
    TaskAttempt {
        attempt_id: format!("{pair}/{arm}"),
        pair_id: pair.into(),
        arm: arm.into(),
        position: 1,
        status: AttemptStatus::Completed,
        error: None,
        delivery: Delivery {
            status: DeliveryStatus::Complete,
            cue_in_prompt: Some(true),
            required_ids_missing: vec![],
            required_sources_missing: vec![],
        },
        correctness: Outcome {
            status: correct,
            reason: None,
        },
        compliance: Outcome::not_observed("x"),
        metrics: AttemptSummary {
            attempt_id: format!("{pair}/{arm}"),
            pair_id: pair.into(),
            arm: arm.into(),
            status: AttemptStatus::Completed,
            error: None,
            usage: None,
            tool_calls: not(),
            commands: not(),
            agent_git_commands: not(),
            duration_ms: not(),
            cue_wall_us: not(),
            cue_git_processes: not(),
            context_bytes: None,
            context_estimated_tokens: None,
            score: None,
            answer_error: None,
        },
    }
}

/// A comparison whose total-token saving per pair is `savings`.
fn comparison(savings: &[i64]) -> Comparison {
    let per: Vec<Option<i64>> = savings.iter().map(|s| Some(*s)).collect();
    Comparison {
        arm: TASK_ARM.into(),
        baseline: OVERVIEW_ARM.into(),
        complete_pairs: savings.len() as u64,
        dimensions: vec![Dimension {
            name: "total_tokens".into(),
            unit: "tokens".into(),
            baseline: per.clone(),
            arm_with_cue: per.clone(),
            saving: stats::paired(&per),
            saving_percent: stats::paired(&per),
        }],
        correctness_difference: stats::paired(&per),
    }
}

#[test]
fn verdict_needs_a_cheaper_and_correct_task_arm() {
    use repocue::api::task::TaskKind::*;
    use OutcomeStatus::*;
    let ok = vec![
        attempt("pair-01", OVERVIEW_ARM, Failed),
        attempt("pair-01", TASK_ARM, Passed),
    ];
    let v = verdict(&tc(Discovery), &ok, &comparison(&[500]), 1, false);
    assert_eq!(v.outcome, VerdictOutcome::Improved, "{v:?}");
    assert_eq!(v.sample_grade.as_deref(), Some("exploratory"));
    // More expensive: not improved.
    let v = verdict(&tc(Discovery), &ok, &comparison(&[-10]), 1, false);
    assert_eq!(v.outcome, VerdictOutcome::NotImproved);
    // The cheaper wrong answer is never an improvement.
    let wrong = vec![
        attempt("pair-01", OVERVIEW_ARM, Passed),
        attempt("pair-01", TASK_ARM, Failed),
    ];
    let v = verdict(&tc(Discovery), &wrong, &comparison(&[900]), 1, false);
    assert_eq!(v.outcome, VerdictOutcome::NotImproved);
    assert!(v.reasons.iter().any(|r| r.contains("wrong")), "{v:?}");
    // Missing pairs, synthetic numbers, unobservable correctness: unavailable.
    for (t, pairs, synthetic) in [
        (tc(Discovery), 2, false),
        (tc(Discovery), 1, true),
        (tc(Explanation), 1, false),
    ] {
        let mut attempts = ok.clone();
        if t.task_kind == Explanation {
            attempts[1].correctness = Outcome::not_observed("needs assessment");
        }
        let v = verdict(&t, &attempts, &comparison(&[500]), pairs, synthetic);
        assert_eq!(v.outcome, VerdictOutcome::Unavailable, "{v:?}");
    }
    let mut undelivered = ok.clone();
    undelivered[1].delivery.status = DeliveryStatus::Incomplete;
    let v = verdict(&tc(Discovery), &undelivered, &comparison(&[500]), 1, false);
    assert_eq!(v.outcome, VerdictOutcome::Unavailable);
}

#[test]
fn discovery_answers_must_name_exactly_the_required_items_and_sources() {
    use repocue::api::task::TaskKind::*;
    let answer = |ids: &[&str], src: &[&str]| {
        serde_json::json!({"schema_version": contract::TASK_ANSWER_SCHEMA,
            "required_ids": ids, "source_ids": src, "answer": "x"})
    };
    let t = tc(Discovery);
    let c = |v: serde_json::Value| correctness(&t, Some(&v)).status;
    assert_eq!(c(answer(&["rules"], &["src-1"])), OutcomeStatus::Passed);
    assert_eq!(c(answer(&["rules"], &[])), OutcomeStatus::Failed);
    assert_eq!(
        c(answer(&["rules", "x"], &["src-1"])),
        OutcomeStatus::Failed
    );
    assert_eq!(c(serde_json::json!({"git": {}})), OutcomeStatus::Failed);
    assert_eq!(correctness(&t, None).status, OutcomeStatus::Failed);
    assert_eq!(
        correctness(&tc(Verification), Some(&answer(&["rules"], &["src-1"]))).status,
        OutcomeStatus::NotObserved
    );
}
