//! `repocue report`: RepoCue's recorded maintenance cost H, and — when a calibration applies —
//! projections of direct (D) versus assisted (A + Q) agent cost for future consumers, with
//! break-even `floor(H / (D − (A + Q))) + 1`.
//!
//! It runs nothing, writes nothing and never refreshes: the database is opened read-only,
//! live Git/content checks are reported as current observations with their own cost.
//! JSON and Markdown are two renderings of one [`Report`] value.

use std::path::PathBuf;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::calibration::{self, Calibration, CalibrationPair, Sample};
use crate::contract::{Metric, Status};
use crate::db::{self, LanguageShare, Profile};
use crate::error::{EvalError, Result};
use crate::stats::{self, BreakEven, Paired};
use crate::util;

/// Version of the report.
pub const REPORT_SCHEMA: &str = "repocue/savings-report-1";
/// Consumer scenarios always shown.
pub const SCENARIOS: [u64; 5] = [1, 2, 3, 5, 10];

/// Report settings.
#[derive(Debug, Clone)]
pub struct ReportOptions {
    /// Window length in days (24 h each).
    pub window_days: u64,
    /// An extra consumer scenario.
    pub consumers: Option<u64>,
    /// The calibration to use.
    pub profile: Option<String>,
    /// Cutoff instant (RFC 3339 UTC); now when absent.
    pub as_of: Option<String>,
}

/// The report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Report {
    /// [`REPORT_SCHEMA`].
    pub schema_version: String,
    /// When the report was computed.
    pub generated_at: String,
    /// Cutoff `t`: history strictly before it counts.
    pub cutoff: String,
    /// The activity windows.
    pub window: Window,
    /// Repository id and name (no absolute path).
    pub repository: ReportRepository,
    /// The snapshot with the greatest `observed_at` before the cutoff.
    pub described_state: Option<DescribedState>,
    /// Live observations made now (not history), with their cost.
    pub current: Current,
    /// Recorded maintenance activity.
    pub maintenance: Maintenance,
    /// Calibration profiles visible at the cutoff.
    pub profiles: Vec<ProfileRef>,
    /// Which profile was used and why.
    pub selection: Selection,
    /// The selected calibration's evidence.
    pub calibration: Option<CalibrationEvidence>,
    /// Projections per dimension (empty when no calibration applies).
    pub projections: Vec<Projection>,
    /// Quantities never invented.
    pub not_observed: Vec<NotObserved>,
    /// What the report does not say.
    pub limitations: Vec<String>,
}

/// Activity windows `[start, end)` and the previous one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Window {
    /// Days.
    pub days: u64,
    /// Start (inclusive).
    pub start: String,
    /// End = cutoff (exclusive).
    pub end: String,
    /// Start of the previous window.
    pub previous_start: String,
}

/// Repository identity.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ReportRepository {
    /// Id.
    pub id: String,
    /// Directory name.
    pub name: String,
}

/// The described state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DescribedState {
    /// Epoch id.
    pub epoch: String,
    /// Snapshot id.
    pub snapshot: String,
    /// When it was observed.
    pub observed_at: String,
}

/// Observations made while reporting.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Current {
    /// When.
    pub observed_at: String,
    /// Live freshness of the cache (`current`, `dirty-but-indexed`, `refresh-needed`, …).
    pub freshness: String,
    /// Database + WAL bytes now.
    pub database_bytes: u64,
    /// Content fingerprint now.
    pub content_fingerprint: String,
    /// Untracked entries hashed now.
    pub untracked_entries: u64,
    /// Their bytes.
    pub untracked_bytes: u64,
    /// Cost of the live validation: wall time, ms.
    pub validation_duration_ms: u64,
    /// Cost of the live validation: Git processes (status included).
    pub validation_git_processes: u64,
}

/// Maintenance cost.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Maintenance {
    /// H of the epoch projections use.
    pub h: MaintenanceCost,
    /// The current window.
    pub window: Activity,
    /// The previous window (for trends).
    pub previous_window: Activity,
}

/// H: every baseline/rebaseline/refresh row of one epoch recorded before the cutoff.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MaintenanceCost {
    /// Epoch id.
    pub epoch: Option<String>,
    /// Operation row ids that contribute.
    pub operations: Vec<i64>,
    /// Summed full durations, µs.
    pub duration_us: Metric,
    /// Summed Git processes.
    pub git_processes: Metric,
    /// LLM tokens spent by maintenance: always 0 (derived).
    pub llm_tokens: Metric,
    /// What H leaves out.
    pub exclusions: Vec<String>,
}

/// Activity in one window.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Activity {
    /// Per operation kind, sorted by kind.
    pub operations: Vec<KindActivity>,
    /// Cues served.
    pub cues: u64,
    /// Their bytes.
    pub cue_bytes: u64,
    /// Their estimated tokens.
    pub cue_estimated_tokens: u64,
    /// Their summed duration, µs (observed from cue_metrics).
    pub cue_duration_us: u64,
}

/// One operation kind in a window.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct KindActivity {
    /// Kind.
    pub kind: String,
    /// Count.
    pub count: u64,
    /// Summed duration, µs.
    pub total_duration_us: u64,
    /// Median duration, µs.
    pub median_duration_us: Option<f64>,
    /// Summed Git processes (`null` when any row lacks it).
    pub git_processes: Metric,
    /// Summed files scanned (`null` when any row lacks it).
    pub files_scanned: Metric,
    /// Summed bytes scanned (`null` when any row lacks it).
    pub bytes_scanned: Metric,
}

/// A visible calibration reference.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ProfileRef {
    /// Id.
    pub calibration_id: String,
    /// Model.
    pub model: String,
    /// Task.
    pub benchmark: String,
    /// Bound epoch.
    pub epoch: String,
    /// Bound snapshot.
    pub snapshot: String,
    /// Evidence time.
    pub bound_at: String,
    /// Artifact digest.
    pub artifact_sha256: String,
}

/// Profile selection and applicability.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Selection {
    /// `none` (no calibration), `selected`, or `selection_required` (several; pass --profile).
    pub outcome: String,
    /// The selected id.
    pub calibration_id: Option<String>,
    /// `measured_reference`, `estimated`, `not_applicable` or `not_observed`.
    pub applicability: String,
    /// Why (for `not_applicable`/`not_observed`), or what changed (for `estimated`).
    pub reason: Option<String>,
    /// Differences from the calibrated snapshot (`estimated` only).
    pub drift: Option<Drift>,
}

/// What changed since the calibrated snapshot; no validity threshold is invented.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Drift {
    /// Tracked files now − then.
    pub tracked_files_delta: i64,
    /// Indexed bytes now − then.
    pub indexed_bytes_delta: i64,
    /// Per language (changed ones only): files and bytes now − then.
    pub languages: Vec<LanguageDelta>,
    /// Whether the content fingerprint (untracked content included) differs.
    pub content_changed: bool,
}

/// One language's change.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LanguageDelta {
    /// Language.
    pub language: String,
    /// Files delta.
    pub files: i64,
    /// Bytes delta.
    pub bytes: i64,
}

/// The selected calibration as dated source evidence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CalibrationEvidence {
    /// Id.
    pub calibration_id: String,
    /// Sample grade.
    pub sample_grade: String,
    /// Pairs.
    pub pair_count: u64,
    /// Synthetic runs (pipeline check only).
    pub synthetic: bool,
    /// Model.
    pub model: String,
    /// Adapter.
    pub adapter: String,
    /// Assisted arm.
    pub assisted_arm: String,
    /// Bound snapshot and time.
    pub binding: calibration::Binding,
    /// Git facts passed, direct, per pair.
    pub direct_facts_passed: Paired,
    /// Git facts passed, assisted, per pair.
    pub assisted_facts_passed: Paired,
    /// Paired difference assisted − direct.
    pub facts_passed_difference: Paired,
    /// Semantic quality.
    pub quality: NotObserved,
}

/// A projected dimension.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Projection {
    /// Dimension name.
    pub dimension: String,
    /// Unit.
    pub unit: String,
    /// H in this dimension.
    pub h: Metric,
    /// Per pair: D, A, Q, gap g = D − (A + Q), break-even.
    pub pairs: Vec<PairInputs>,
    /// Per consumer count.
    pub scenarios: Vec<Scenario>,
    /// Finite break-evens over the pairs.
    pub break_even: Paired,
    /// Always `estimated`: a projection is a model.
    pub status: Status,
}

/// The inputs of one pair in one dimension.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PairInputs {
    /// Pair id.
    pub pair_id: String,
    /// Direct cost D.
    pub direct: Option<i64>,
    /// Assisted agent cost A.
    pub assisted: Option<i64>,
    /// Cue cost Q.
    pub cue: Option<i64>,
    /// g = D − (A + Q).
    pub gap: Option<i64>,
    /// First consumer count at which assisted is strictly cheaper.
    pub break_even: BreakEven,
}

/// One consumer scenario.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Consumers N.
    pub consumers: u64,
    /// Whether N came from --consumers (an explicit scenario, never inferred).
    pub explicit: bool,
    /// N·D per pair.
    pub direct: Paired,
    /// H + N·(A + Q) per pair.
    pub assisted: Paired,
    /// Direct − assisted per pair (negative = assisted costs more).
    pub saving: Paired,
    /// 100 · saving / direct per pair (direct > 0 only), whole percent.
    pub saving_percent: Paired,
}

/// A quantity with no measurement path.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NotObserved {
    /// Name.
    pub name: String,
    /// Always `not_observed`.
    pub status: Status,
    /// Why.
    pub reason: String,
}

fn not_observed(name: &str, reason: &str) -> NotObserved {
    NotObserved {
        name: name.into(),
        status: Status::NotObserved,
        reason: reason.into(),
    }
}

fn sum_known(values: impl Iterator<Item = Option<i64>>, reason: &str) -> Metric {
    let mut total: u64 = 0;
    for v in values {
        match v {
            Some(v) => total = total.saturating_add(v.max(0) as u64),
            None => return Metric::missing(reason),
        }
    }
    Metric::observed(total)
}

fn activity(ops: &[&db::Operation], cues: &[&db::CueRow]) -> Activity {
    let mut kinds: Vec<&str> = ops.iter().map(|o| o.kind.as_str()).collect();
    kinds.sort_unstable();
    kinds.dedup();
    Activity {
        operations: kinds
            .into_iter()
            .map(|k| {
                let of: Vec<&&db::Operation> = ops.iter().filter(|o| o.kind == k).collect();
                let durations: Vec<i64> = of.iter().map(|o| o.duration_us).collect();
                KindActivity {
                    kind: k.into(),
                    count: of.len() as u64,
                    total_duration_us: durations.iter().map(|d| d.max(&0)).sum::<i64>() as u64,
                    median_duration_us: stats::median(&durations),
                    git_processes: sum_known(
                        of.iter().map(|o| o.git_processes),
                        "some operations did not record Git processes",
                    ),
                    files_scanned: sum_known(
                        of.iter().map(|o| o.files_scanned),
                        "some operations did not record files scanned",
                    ),
                    bytes_scanned: sum_known(
                        of.iter().map(|o| o.bytes_scanned),
                        "some operations did not record bytes scanned",
                    ),
                }
            })
            .collect(),
        cues: cues.len() as u64,
        cue_bytes: cues.iter().map(|c| c.output_bytes.max(0) as u64).sum(),
        cue_estimated_tokens: cues.iter().map(|c| c.estimated_tokens.max(0) as u64).sum(),
        cue_duration_us: cues.iter().map(|c| c.duration_us.max(0) as u64).sum(),
    }
}

fn maintenance_cost(ops: &[db::Operation], epoch: Option<i64>, cutoff: i64) -> MaintenanceCost {
    let rows: Vec<&db::Operation> = ops
        .iter()
        .filter(|o| epoch.is_some() && o.epoch == epoch)
        .filter(|o| matches!(o.kind.as_str(), "baseline" | "rebaseline" | "refresh"))
        .filter(|o| util::parse_utc_ms(&o.recorded_at).is_some_and(|t| t < cutoff))
        .collect();
    let has_baseline = rows
        .iter()
        .any(|o| o.kind == "baseline" || o.kind == "rebaseline");
    let exclusions = vec![
        "failed operations that recorded no row".to_owned(),
        "process start-up outside the recorded durations".to_owned(),
        "experiment and calibration runs (shown as experiment cost, never in H)".to_owned(),
    ];
    let (duration_us, git_processes) = if has_baseline {
        (
            sum_known(rows.iter().map(|o| Some(o.duration_us)), ""),
            sum_known(
                rows.iter().map(|o| o.git_processes),
                "some maintenance operations did not record Git processes",
            ),
        )
    } else {
        let why = "no baseline row of the epoch before the cutoff";
        (Metric::missing(why), Metric::missing(why))
    };
    MaintenanceCost {
        epoch: epoch.map(|e| repocue::api::EpochId(e).to_string()),
        operations: rows.iter().map(|o| o.id).collect(),
        duration_us,
        git_processes,
        llm_tokens: Metric::derived(0),
        exclusions,
    }
}

/// Builds the report.
pub fn report(opts: &repocue::Options, ro: &ReportOptions) -> Result<Report> {
    let now = util::now_ms();
    let cutoff = match &ro.as_of {
        Some(s) => {
            let t = util::parse_utc_ms(s).ok_or_else(|| {
                EvalError::arg(format!(
                    "--as-of {s:?}: use an RFC 3339 UTC instant like 2026-11-30T12:00:00Z"
                ))
            })?;
            if t > now {
                return Err(EvalError::arg(format!("--as-of {s} lies in the future")));
            }
            t
        }
        None => now,
    };
    if ro.window_days == 0 {
        return Err(EvalError::arg("--window must be at least 1d"));
    }
    let span = (ro.window_days as i64)
        .checked_mul(86_400_000)
        .filter(|s| cutoff.checked_sub(2 * s).is_some())
        .ok_or_else(|| EvalError::arg("--window is too long"))?;
    let (start, prev_start) = (cutoff - span, cutoff - 2 * span);
    let repo = crate::facts::discover(
        opts.repository
            .as_deref()
            .unwrap_or(std::path::Path::new(".")),
    )?;
    let repo_id = repocue::repo_id(&repo.root);
    let cache = repocue::cache_root(opts.cache_dir.as_deref())?;
    let repo_dir: PathBuf = cache.join(&repo_id);
    let db_path = repo_dir.join("state.db");
    let conn = db::open(&db_path)?;
    // One read transaction: every table is read from the same database state.
    conn.execute_batch("BEGIN")?;
    let ops = db::operations(&conn)?;
    let cues = db::cues(&conn)?;
    let snaps = db::snapshots(&conn)?;
    let refs = db::references(&conn)?;
    let current_seq = db::current(&conn)?;
    let current_profile = match current_seq {
        Some((e, s)) => Some(db::profile(&conn, e, s)?),
        None => None,
    };
    conn.execute_batch("COMMIT")?;
    drop(conn);
    let at = |s: &str| util::parse_utc_ms(s);
    let described = snaps
        .iter()
        .filter(|s| at(&s.observed_at).is_some_and(|t| t < cutoff))
        .max_by_key(|s| (at(&s.observed_at), s.seq));

    // Live observations: read-only Git and content checks, reported with their cost.
    // Without the side writes of a status (the index file's new stat signature, a location
    // hint): the report writes nothing.
    let service = repocue::Service::open(&repocue::Options {
        observe_only: true,
        ..opts.clone()
    })?;
    let status = service.status()?;
    let fp = crate::facts::capture_fingerprint(&repo.root)?;
    let database_bytes = [db_path.clone(), db_path.with_extension("db-wal")]
        .iter()
        .filter_map(|p| std::fs::metadata(p).ok())
        .map(|m| m.len())
        .sum();
    let current = Current {
        observed_at: util::now(),
        freshness: status.freshness.as_str().into(),
        database_bytes,
        content_fingerprint: fp.value.clone(),
        untracked_entries: fp.untracked_entries,
        untracked_bytes: fp.untracked_bytes,
        validation_duration_ms: fp.duration_ms,
        validation_git_processes: fp.git_processes + u64::from(status.git_processes),
    };

    let in_range = |t: &str, a: i64, b: i64| at(t).is_some_and(|t| t >= a && t < b);
    let win_ops: Vec<&db::Operation> = ops
        .iter()
        .filter(|o| in_range(&o.recorded_at, start, cutoff))
        .collect();
    let prev_ops: Vec<&db::Operation> = ops
        .iter()
        .filter(|o| in_range(&o.recorded_at, prev_start, start))
        .collect();
    let win_cues: Vec<&db::CueRow> = cues
        .iter()
        .filter(|c| in_range(&c.recorded_at, start, cutoff))
        .collect();
    let prev_cues: Vec<&db::CueRow> = cues
        .iter()
        .filter(|c| in_range(&c.recorded_at, prev_start, start))
        .collect();

    let visible: Vec<&db::Reference> = refs
        .iter()
        .filter(|r| at(&r.bound_at).is_some_and(|t| t < cutoff))
        .collect();
    let profiles: Vec<ProfileRef> = visible
        .iter()
        .map(|r| ProfileRef {
            calibration_id: r.calibration_id.clone(),
            model: r.model.clone(),
            benchmark: r.benchmark.clone(),
            epoch: repocue::api::EpochId(r.epoch).to_string(),
            snapshot: repocue::api::SnapshotId(r.snapshot).to_string(),
            bound_at: r.bound_at.clone(),
            artifact_sha256: r.artifact_digest.clone(),
        })
        .collect();
    let chosen: Option<&db::Reference> = match &ro.profile {
        Some(id) => Some(
            refs.iter()
                .find(|r| &r.calibration_id == id)
                .ok_or_else(|| {
                    EvalError::new("not_found", format!("calibration not found: {id}"))
                })?,
        ),
        None if visible.len() == 1 => Some(visible[0]),
        None => None,
    };
    let mut selection = Selection {
        outcome: match (chosen, visible.len()) {
            (Some(_), _) => "selected",
            (None, 0) => "none",
            (None, _) => "selection_required",
        }
        .into(),
        calibration_id: chosen.map(|r| r.calibration_id.clone()),
        applicability: "not_observed".into(),
        reason: Some(match visible.len() {
            0 => "no calibration: run `repocue experiment` and `repocue calibration import`".into(),
            n => format!("{n} calibrations are visible; choose one with --profile"),
        }),
        drift: None,
    };
    let cal: Option<Calibration> = match chosen {
        Some(r) => Some(calibration::load_artifact(&repo_dir, r)?),
        None => None,
    };
    let mut applies = false;
    if let (Some(r), Some(c)) = (chosen, &cal) {
        let fresh = current.freshness.as_str();
        let (na, reason): (bool, String) = if at(&r.bound_at).is_none_or(|t| t >= cutoff) {
            (
                true,
                "evidence_unavailable: the calibration was bound after the cutoff".into(),
            )
        } else if fresh != "current" && fresh != "dirty-but-indexed" {
            (
                true,
                format!("refresh_needed: the cache is {fresh}; the report does not refresh"),
            )
        } else if current_seq.map(|(e, _)| e) != Some(r.epoch) {
            (
                true,
                "epoch_changed: the calibration belongs to an earlier epoch; import a new one"
                    .into(),
            )
        } else if c.binding.repository_id != repo_id {
            (
                true,
                "contract_incompatible: the calibration names another repository".into(),
            )
        } else {
            (false, String::new())
        };
        if na {
            selection.applicability = "not_applicable".into();
            selection.reason = Some(reason);
        } else {
            applies = true;
            let same_snapshot = current_seq.map(|(_, s)| s) == Some(r.snapshot);
            let same_content = fp.value == c.binding.content_fingerprint;
            if same_snapshot && same_content {
                selection.applicability = "measured_reference".into();
                selection.reason = None;
            } else {
                selection.applicability = "estimated".into();
                selection.reason = Some(if same_snapshot {
                    "same snapshot, but untracked or working-tree content differs from the calibrated checkout".into()
                } else {
                    "a later snapshot of the calibrated epoch".into()
                });
                selection.drift = current_profile
                    .as_ref()
                    .map(|p| drift(&c.profile, p, !same_content));
            }
        }
    }
    let epoch_for_h = match (&cal, current_seq) {
        (Some(c), _) => chosen.map(|r| r.epoch).or(c
            .binding
            .epoch
            .strip_prefix("epoch-")
            .and_then(|s| s.parse().ok())),
        (None, Some((e, _))) => Some(e),
        (None, None) => None,
    };
    let h = maintenance_cost(&ops, epoch_for_h, cutoff);
    let mut scenarios: Vec<(u64, bool)> = SCENARIOS.iter().map(|n| (*n, false)).collect();
    if let Some(n) = ro.consumers {
        if !SCENARIOS.contains(&n) {
            scenarios.push((n, true));
            scenarios.sort();
        }
    }
    let projections = match (&cal, applies) {
        (Some(c), true) => project(c, &h, &scenarios),
        _ => vec![],
    };
    let calibration = cal.as_ref().map(evidence);
    let mut limitations = vec![
        "projections are estimates from dated calibration evidence of one model and task; they are not observed savings".to_owned(),
        "consumer counts are scenarios chosen by the reader; cue runs are not users".to_owned(),
        "duration projections are serial sums, not concurrent elapsed time or task-ready latency".to_owned(),
        "repocue_git_processes (Trace2-observed) and agent_git_commands (classified shell commands) are different quantities and are never added".to_owned(),
    ];
    if cal.as_ref().is_some_and(|c| c.synthetic) {
        limitations.insert(0, "SYNTHETIC calibration: its agent numbers were fabricated by the synthetic runner to test the pipeline; they prove nothing".into());
    }
    Ok(Report {
        schema_version: REPORT_SCHEMA.into(),
        generated_at: util::now(),
        cutoff: util::format_ms(cutoff),
        window: Window {
            days: ro.window_days,
            start: util::format_ms(start),
            end: util::format_ms(cutoff),
            previous_start: util::format_ms(prev_start),
        },
        repository: ReportRepository {
            id: repo_id,
            name: repo
                .root
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
        },
        described_state: described.map(|s| DescribedState {
            epoch: repocue::api::EpochId(s.epoch).to_string(),
            snapshot: repocue::api::SnapshotId(s.seq).to_string(),
            observed_at: s.observed_at.clone(),
        }),
        current,
        maintenance: Maintenance {
            h,
            window: activity(&win_ops, &win_cues),
            previous_window: activity(&prev_ops, &prev_cues),
        },
        profiles,
        selection,
        calibration,
        projections,
        not_observed: vec![
            not_observed("cpu_time", "no per-process CPU accounting is recorded"),
            not_observed("memory", "no memory accounting is recorded"),
            not_observed("filesystem_io", "scan bytes and named-file sizes are proxies, not I/O; no I/O saving is claimed"),
            not_observed("task_ready_latency", "agents report wall time only"),
            not_observed("freshness_lag", "the time between a change and its refresh is not recorded"),
            not_observed("historical_database_size", "only the current size is observable"),
            not_observed("semantic_quality", "quality-not-assessed: answers are kept in the experiment sets for separate assessment"),
        ],
        limitations,
    })
}

fn drift(then: &Profile, now: &Profile, content_changed: bool) -> Drift {
    let mut names: Vec<&str> = then
        .languages
        .iter()
        .chain(&now.languages)
        .map(|l| l.language.as_str())
        .collect();
    names.sort_unstable();
    names.dedup();
    let get = |p: &Profile, n: &str| -> (i64, i64) {
        p.languages
            .iter()
            .find(|l: &&LanguageShare| l.language == n)
            .map_or((0, 0), |l| (l.files as i64, l.bytes as i64))
    };
    Drift {
        tracked_files_delta: now.tracked_files as i64 - then.tracked_files as i64,
        indexed_bytes_delta: now.indexed_bytes as i64 - then.indexed_bytes as i64,
        languages: names
            .into_iter()
            .filter_map(|n| {
                let (a, b) = (get(then, n), get(now, n));
                (a != b).then(|| LanguageDelta {
                    language: n.into(),
                    files: b.0 - a.0,
                    bytes: b.1 - a.1,
                })
            })
            .collect(),
        content_changed,
    }
}

fn evidence(c: &Calibration) -> CalibrationEvidence {
    let d: Vec<Option<i64>> = c
        .pairs
        .iter()
        .map(|p| Some(p.direct_score.passed as i64))
        .collect();
    let a: Vec<Option<i64>> = c
        .pairs
        .iter()
        .map(|p| Some(p.assisted_score.passed as i64))
        .collect();
    let diff: Vec<Option<i64>> = d.iter().zip(&a).map(|(d, a)| Some((*a)? - (*d)?)).collect();
    CalibrationEvidence {
        calibration_id: c.calibration_id.clone(),
        sample_grade: c.sample_grade.clone(),
        pair_count: c.pair_count,
        synthetic: c.synthetic,
        model: c.contracts.runner.model.clone(),
        adapter: c.contracts.runner.adapter.clone(),
        assisted_arm: c.contracts.assisted_arm.clone(),
        binding: c.binding.clone(),
        direct_facts_passed: stats::paired(&d),
        assisted_facts_passed: stats::paired(&a),
        facts_passed_difference: stats::paired(&diff),
        quality: not_observed("semantic_quality", "quality-not-assessed"),
    }
}

type Inputs = fn(&CalibrationPair) -> (Option<i64>, Option<i64>, Option<i64>);

fn v(m: &Metric) -> Option<i64> {
    m.value.map(|x| x as i64)
}

fn dims() -> Vec<(&'static str, &'static str, Inputs)> {
    fn tok(
        p: &CalibrationPair,
        f: fn(&Sample) -> &Metric,
    ) -> (Option<i64>, Option<i64>, Option<i64>) {
        (v(f(&p.direct)), v(f(&p.assisted)), Some(0))
    }
    vec![
        ("input_tokens", "tokens", |p| tok(p, |s| &s.input_tokens)),
        ("cached_input_tokens", "tokens", |p| {
            tok(p, |s| &s.cached_input_tokens)
        }),
        ("output_tokens", "tokens", |p| tok(p, |s| &s.output_tokens)),
        ("reasoning_output_tokens", "tokens", |p| {
            tok(p, |s| &s.reasoning_output_tokens)
        }),
        ("total_tokens", "tokens", |p| tok(p, |s| &s.total_tokens)),
        ("duration_us", "microseconds", |p| {
            (
                v(&p.direct.duration_ms).map(|x| x * 1000),
                v(&p.assisted.duration_ms).map(|x| x * 1000),
                v(&p.cue.wall_us),
            )
        }),
        ("tool_calls", "calls", |p| tok(p, |s| &s.tool_calls)),
        ("commands", "commands", |p| tok(p, |s| &s.commands)),
        ("agent_git_commands", "commands", |p| {
            tok(p, |s| &s.agent_git_commands)
        }),
        ("repocue_git_processes", "processes", |p| {
            (Some(0), Some(0), v(&p.cue.git_processes))
        }),
    ]
}

fn project(c: &Calibration, h: &MaintenanceCost, scenarios: &[(u64, bool)]) -> Vec<Projection> {
    dims()
        .into_iter()
        .map(|(name, unit, f)| {
            let hm = match name {
                "duration_us" => h.duration_us.clone(),
                "repocue_git_processes" => h.git_processes.clone(),
                _ => Metric::derived(0),
            };
            let hv = v(&hm);
            let pairs: Vec<PairInputs> = c
                .pairs
                .iter()
                .map(|p| {
                    let (d, a, q) = f(p);
                    let gap = match (d, a, q) {
                        (Some(d), Some(a), Some(q)) => Some(d - (a + q)),
                        _ => None,
                    };
                    PairInputs {
                        pair_id: p.pair_id.clone(),
                        direct: d,
                        assisted: a,
                        cue: q,
                        gap,
                        break_even: stats::break_even(hv, d, a, q),
                    }
                })
                .collect();
            let scen = scenarios
                .iter()
                .map(|&(n, explicit)| {
                    let n = n as i64;
                    let direct: Vec<Option<i64>> =
                        pairs.iter().map(|p| p.direct?.checked_mul(n)).collect();
                    let assisted: Vec<Option<i64>> = pairs
                        .iter()
                        .map(|p| hv?.checked_add(p.assisted?.checked_add(p.cue?)?.checked_mul(n)?))
                        .collect();
                    let saving: Vec<Option<i64>> = direct
                        .iter()
                        .zip(&assisted)
                        .map(|(d, a)| Some((*d)? - (*a)?))
                        .collect();
                    let pct: Vec<Option<i64>> = direct
                        .iter()
                        .zip(&saving)
                        .map(|(d, s)| match (d, s) {
                            (Some(d), Some(s)) if *d > 0 => Some(s * 100 / d),
                            _ => None,
                        })
                        .collect();
                    Scenario {
                        consumers: n as u64,
                        explicit,
                        direct: stats::paired(&direct),
                        assisted: stats::paired(&assisted),
                        saving: stats::paired(&saving),
                        saving_percent: stats::paired(&pct),
                    }
                })
                .collect();
            let finite: Vec<Option<i64>> = pairs
                .iter()
                .map(|p| match p.break_even {
                    BreakEven::Finite(n) => Some(n as i64),
                    _ => None,
                })
                .collect();
            Projection {
                dimension: name.into(),
                unit: unit.into(),
                h: hm,
                pairs,
                scenarios: scen,
                break_even: stats::paired(&finite),
                status: Status::Estimated,
            }
        })
        .collect()
}

fn num(x: Option<f64>) -> String {
    match x {
        None => "not observed".into(),
        Some(v) if v.fract() == 0.0 => format!("{v:.0}"),
        Some(v) => format!("{v:.1}"),
    }
}

fn opt(x: Option<i64>) -> String {
    x.map_or_else(|| "not observed".into(), |v| v.to_string())
}

fn metric(m: &Metric) -> String {
    match m.value {
        Some(v) => v.to_string(),
        None => format!(
            "not observed ({})",
            m.reason.as_deref().unwrap_or("missing")
        ),
    }
}

/// Renders the report as Markdown: headline, tables, a text bar chart of D vs A+Q per pair,
/// the break-even line, and the canonical JSON as an appendix (the same numbers).
pub fn markdown(r: &Report) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(s, "# RepoCue savings report — {}\n", r.repository.name);
    for l in r.limitations.iter().filter(|l| l.starts_with("SYNTHETIC")) {
        let _ = writeln!(s, "> **{l}**\n");
    }
    let _ = writeln!(
        s,
        "Cutoff {} · window {} d ({} – {}) · cache {} · state {}\n",
        r.cutoff,
        r.window.days,
        r.window.start,
        r.window.end,
        r.current.freshness,
        r.described_state
            .as_ref()
            .map_or("none".into(), |d| format!("{} / {}", d.epoch, d.snapshot))
    );
    let h = &r.maintenance.h;
    let _ = writeln!(s, "## Maintenance (observed)\n");
    let _ = writeln!(
        s,
        "H for {}: {} µs over {} operations, {} Git processes, {} LLM tokens.\n",
        h.epoch.as_deref().unwrap_or("no epoch"),
        metric(&h.duration_us),
        h.operations.len(),
        metric(&h.git_processes),
        metric(&h.llm_tokens)
    );
    let _ = writeln!(
        s,
        "| window | kind | count | total µs | median µs | Git processes |"
    );
    let _ = writeln!(s, "|---|---|---:|---:|---:|---:|");
    for (label, a) in [
        ("current", &r.maintenance.window),
        ("previous", &r.maintenance.previous_window),
    ] {
        for k in &a.operations {
            let _ = writeln!(
                s,
                "| {label} | {} | {} | {} | {} | {} |",
                k.kind,
                k.count,
                k.total_duration_us,
                num(k.median_duration_us),
                metric(&k.git_processes)
            );
        }
        let _ = writeln!(
            s,
            "| {label} | cues | {} | {} | | |",
            a.cues, a.cue_duration_us
        );
    }
    let _ = writeln!(s, "\n## Calibration\n");
    let _ = writeln!(
        s,
        "Selection: {} · applicability: **{}**{}\n",
        r.selection.outcome,
        r.selection.applicability,
        r.selection
            .reason
            .as_ref()
            .map_or(String::new(), |x| format!(" — {x}"))
    );
    if let Some(c) = &r.calibration {
        let _ = writeln!(
            s,
            "{} · {} pairs ({}) · model {} via {} · assisted arm `{}` · bound to {} at {}\n",
            c.calibration_id,
            c.pair_count,
            c.sample_grade,
            c.model,
            c.adapter,
            c.assisted_arm,
            c.binding.snapshot,
            c.binding.bound_at
        );
        let _ = writeln!(
            s,
            "Git facts passed (of 5), median per pair: direct {}, assisted {}, paired difference {}. Semantic quality: not observed.\n",
            num(c.direct_facts_passed.median),
            num(c.assisted_facts_passed.median),
            num(c.facts_passed_difference.median)
        );
    }
    if !r.projections.is_empty() {
        let _ = writeln!(s, "## Projections (estimated)\n");
        let _ = writeln!(s, "Median saving per consumer count (direct − assisted, per pair first; negative = RepoCue costs more):\n");
        let ns: Vec<u64> = r.projections[0]
            .scenarios
            .iter()
            .map(|x| x.consumers)
            .collect();
        let _ = write!(s, "| dimension | unit | H |");
        for n in &ns {
            let _ = write!(s, " N={n} |");
        }
        let _ = writeln!(s, " break-even (median) |");
        let _ = writeln!(s, "|---|---|---:|{}---:|", "---:|".repeat(ns.len()));
        for p in &r.projections {
            let _ = write!(
                s,
                "| {} | {} | {} |",
                p.dimension,
                p.unit,
                opt(p.h.value.map(|x| x as i64))
            );
            for sc in &p.scenarios {
                let _ = write!(s, " {} |", num(sc.saving.median));
            }
            let be = if p.break_even.count == 0 {
                "none".to_owned()
            } else {
                format!(
                    "{} ({} of {} pairs)",
                    num(p.break_even.median),
                    p.break_even.count,
                    p.break_even.pairs
                )
            };
            let _ = writeln!(s, " {be} |");
        }
        for dim in ["total_tokens", "duration_us"] {
            let Some(p) = r.projections.iter().find(|p| p.dimension == dim) else {
                continue;
            };
            let _ = writeln!(
                s,
                "\n### {dim}: direct D vs assisted A+Q per pair\n\n```text"
            );
            let max = p
                .pairs
                .iter()
                .flat_map(|x| [x.direct, x.assisted.zip(x.cue).map(|(a, q)| a + q)])
                .flatten()
                .max()
                .unwrap_or(0)
                .max(1);
            let bar = |v: Option<i64>| match v {
                Some(v) => format!(
                    "{:<40} {v}",
                    "#".repeat(((v.max(0) * 40 + max - 1) / max) as usize)
                ),
                None => "not observed".into(),
            };
            for x in &p.pairs {
                let _ = writeln!(s, "{}", x.pair_id);
                let _ = writeln!(s, "  D    {}", bar(x.direct));
                let _ = writeln!(
                    s,
                    "  A+Q  {}",
                    bar(x.assisted.zip(x.cue).map(|(a, q)| a + q))
                );
            }
            let _ = writeln!(s, "```\n");
            let _ = writeln!(
                s,
                "Break-even ({dim}): {} — the first consumer count at which H + N·(A+Q) < N·D, floor(H / (D − (A + Q))) + 1, per pair: {}.",
                if p.break_even.count == 0 {
                    "no finite break-even".to_owned()
                } else {
                    format!(
                        "median {} consumers (range {}–{})",
                        num(p.break_even.median),
                        opt(p.break_even.min),
                        opt(p.break_even.max)
                    )
                },
                p.pairs
                    .iter()
                    .map(|x| match x.break_even {
                        BreakEven::Finite(n) => n.to_string(),
                        BreakEven::NoFiniteBreakEven => "none".into(),
                        BreakEven::NotObserved => "not observed".into(),
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
    }
    let _ = writeln!(s, "\n## Not observed\n");
    for n in &r.not_observed {
        let _ = writeln!(s, "- {}: {}", n.name, n.reason);
    }
    let _ = writeln!(s, "\n## Limitations\n");
    for l in &r.limitations {
        let _ = writeln!(s, "- {l}");
    }
    let _ = writeln!(
        s,
        "\n## Appendix: canonical JSON\n\n```json\n{}\n```",
        serde_json::to_string(r).expect("report serializes")
    );
    s
}
