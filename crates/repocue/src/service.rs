//! The one core API: every front end (CLI, MCP, watch, hooks) calls [`Service`] and nothing
//! deeper. Each public method is one request: it validates the request, hands it to the
//! engine that owns it (`refresh`, `read` + `cue`, `freshness`, `store`) and records metrics.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use crate::api::{
    CheckpointId, CheckpointInfo, CheckpointOutput, Cue, CueMetric, CueRequest, EpochId, EpochInfo,
    Freshness, Measure, MetricsOutput, OperationKind, OperationMetric, OperationSummary,
    PruneOutput, RefreshOutput, SnapshotId, StatusOutput, WorkingCounts, MAX_MAX_TOKENS,
};
use crate::error::{Error, Result};
use crate::git::{self, Basis};
use crate::model::WorkingState;
use crate::refresh::{self, Operation};
use crate::repo::Repo;
use crate::scan::Progress;
use crate::store::{CueRow, OperationRecord};
use crate::{cue, freshness, hint, paths, read};

/// Where to find the repository and the cache.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Any path inside the work tree; the current directory when `None`.
    pub repository: Option<PathBuf>,
    /// Cache root; see [`cache_root`] for the default.
    pub cache_dir: Option<PathBuf>,
    /// Counters updated while files are scanned, for a progress display.
    pub progress: Option<Arc<Progress>>,
}

/// A repository bound to its cache: the entry point of every request.
pub struct Service {
    repo: Repo,
    /// Discovery confirmed an ordinary root but the cache did not exist yet: write the
    /// location hint once an operation has created it.
    hint_pending: std::cell::Cell<bool>,
}

/// Returns the cache root: `--cache-dir` > `REPOCUE_CACHE_DIR` > `$XDG_CACHE_HOME/repocue` >
/// `~/.cache/repocue`.
pub fn cache_root(explicit: Option<&Path>) -> Result<PathBuf> {
    if let Some(p) = explicit {
        return Ok(absolute(p));
    }
    let env = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(p) = env("REPOCUE_CACHE_DIR") {
        return Ok(absolute(&p));
    }
    if let Some(p) = env("XDG_CACHE_HOME").filter(|p| p.is_absolute()) {
        return Ok(p.join("repocue"));
    }
    if let Some(home) = env("HOME") {
        return Ok(home.join(".cache").join("repocue"));
    }
    Err(Error::InvalidArgument(
        "no cache directory: set REPOCUE_CACHE_DIR or pass --cache-dir".into(),
    ))
}

fn absolute(p: &Path) -> PathBuf {
    std::path::absolute(p).unwrap_or_else(|_| p.to_owned())
}

impl Service {
    /// Resolves the repository and its cache location. Costs one Git process unless a valid
    /// location hint says the requested directory is an ordinary repository root.
    pub fn open(opts: &Options) -> Result<Service> {
        let requested = opts
            .repository
            .clone()
            .unwrap_or_else(|| PathBuf::from("."));
        let cache = cache_root(opts.cache_dir.as_deref())?;
        let canonical = requested.canonicalize().map_err(|source| Error::BadPath {
            path: requested.clone(),
            source,
        })?;
        let candidate_dir = cache.join(crate::repo::repo_id(&canonical));
        let hinted = hint::check(&candidate_dir.join("location.json"), &canonical);
        let (root, discovered) = match hinted {
            Some(root) => (root, false),
            None => (git::discover(&canonical)?, true),
        };
        let service = Service {
            repo: Repo::new(root, &cache, opts.progress.clone()),
            hint_pending: Default::default(),
        };
        if discovered {
            service.repo.git.add_processes(1);
            if service.repo.root == canonical {
                if service.repo.repo_dir.is_dir() {
                    service.write_hint();
                } else {
                    service.hint_pending.set(true);
                }
            }
        }
        Ok(service)
    }

    fn write_hint(&self) {
        if let Some(w) = hint::write(&self.repo.repo_dir.join("location.json"), &self.repo.root) {
            self.repo.notice(w);
        }
    }

    /// Writes a pending location hint once an operation created the cache.
    fn settle_hint(&self) {
        if self.hint_pending.replace(false) {
            self.write_hint();
        }
    }

    /// Returns the work-tree root.
    pub fn root(&self) -> &Path {
        &self.repo.root
    }

    /// Returns the repository id.
    pub fn repo_id(&self) -> &str {
        &self.repo.repo_id
    }

    /// Returns the state database path.
    pub fn db_path(&self) -> PathBuf {
        self.repo.db_path()
    }

    /// Returns the size of the state database in bytes, 0 when there is none.
    pub fn database_bytes(&self) -> Result<u64> {
        Ok(self.repo.open_store(false)?.map_or(0, |s| s.size_bytes()))
    }

    /// Takes messages meant for a human (stderr) that are not part of any result.
    pub fn take_notices(&self) -> Vec<String> {
        std::mem::take(&mut self.repo.notices.borrow_mut())
    }

    /// Installs Git hooks that refresh the cache after commits, checkouts, merges and
    /// rewrites; existing hooks are chained, never clobbered.
    pub fn install_hooks(&self, repocue_exe: &Path) -> Result<crate::hooks::HooksOutput> {
        crate::hooks::install(&self.repo.git, repocue_exe)
    }

    /// Removes RepoCue's Git hooks and restores chained ones.
    pub fn uninstall_hooks(&self) -> Result<crate::hooks::HooksOutput> {
        crate::hooks::uninstall(&self.repo.git)
    }

    /// Returns how many Git processes this service has started (discovery included).
    pub fn git_processes(&self) -> u32 {
        self.repo.git.processes()
    }

    /// Runs a baseline, refresh or rebaseline and publishes a snapshot when state changed.
    pub fn update(&self, op: &Operation) -> Result<RefreshOutput> {
        let out = refresh::run(&self.repo, op);
        if out.is_ok() {
            self.settle_hint();
        }
        out
    }

    /// Produces a cue. Unless `request.refresh` is false, the cache is brought up to date
    /// first (initialized or refreshed, noted in warnings). Records a cue measurement.
    pub fn cue(&self, request: &CueRequest) -> Result<Cue> {
        let started = Instant::now();
        if request.max_tokens == 0 || request.max_tokens > MAX_MAX_TOKENS {
            return Err(Error::InvalidArgument(format!(
                "max_tokens must be between 1 and {MAX_MAX_TOKENS}, got {}",
                request.max_tokens
            )));
        }
        let reader = read::prepare(&self.repo, request.refresh);
        if reader.is_ok() {
            self.settle_hint();
        }
        let reader = reader?;
        let cue = cue::build(&reader, request)?;
        reader.store.record_cue(&CueRow {
            view: request.view.as_str().into(),
            recorded_at: crate::time::now_rfc3339(),
            max_tokens: request.max_tokens as i64,
            output_bytes: cue.json.len() as i64,
            estimated_tokens: cue.estimated_tokens as i64,
            duration_us: started.elapsed().as_micros() as i64,
            snapshot: Some(reader.snapshot.seq),
        })?;
        Ok(cue)
    }

    /// Compares the live repository with the current snapshot without writing anything.
    pub fn status(&self) -> Result<StatusOutput> {
        let store = self.repo.open_store(false)?;
        let current = match &store {
            Some(s) => s.current_snapshot()?.map(|snap| (s, snap)),
            None => None,
        };
        let basis = self
            .repo
            .git
            .capture_basis_since(current.as_ref().and_then(|(_, p)| p.known_index()))?;
        let mut out = StatusOutput {
            schema_version: "repocue/status-1".into(),
            repository: self.repo.repository_info(&basis),
            freshness: Freshness::Uninitialized,
            reasons: vec![],
            epoch: None,
            snapshot: None,
            snapshot_observed_at: None,
            tracked_files: None,
            working_tree: working_counts(&basis),
            changed_since_snapshot: vec![],
            git_processes: 0,
            warnings: vec![],
        };
        if let Some((store, snap)) = current {
            // Clean, unflagged paths are vouched for by Git's status and index digests; only
            // the others need a look.
            let files = store.unsettled_files_at(&snap)?;
            let content = freshness::changed_dirty_paths(&self.repo.root, &files)?;
            let a = freshness::assess(&snap, &files, &basis, content);
            out.freshness = a.freshness;
            out.reasons = a.reasons;
            out.changed_since_snapshot = a
                .changed
                .iter()
                .take(20)
                .map(|p| paths::display(p))
                .collect();
            out.epoch = Some(EpochId(snap.epoch).to_string());
            out.snapshot = Some(SnapshotId(snap.seq).to_string());
            out.snapshot_observed_at = Some(snap.observed_at.clone());
            out.tracked_files = Some(store.file_count_at(&snap)?);
            out.warnings = a.warnings;
        } else {
            out.reasons
                .push("no snapshot yet; run `repocue init`".into());
        }
        out.warnings.extend(freshness::non_utf8_warning(
            basis
                .changed
                .iter()
                .map(|c| &c.path)
                .chain(&basis.untracked),
        ));
        out.git_processes = self.repo.charge_git();
        Ok(out)
    }

    /// Returns recorded measurements and the database size now.
    pub fn metrics(&self) -> Result<MetricsOutput> {
        let store = self.repo.open_store(false)?.ok_or(Error::NotInitialized)?;
        let ops = store.operations()?;
        let cues = store.cue_metrics()?;
        let snap = |s: Option<i64>| s.map(|s| SnapshotId(s).to_string());
        let mut kinds: Vec<OperationKind> = ops.iter().map(|o| o.record.kind).collect();
        kinds.sort_unstable_by_key(|k| k.as_str());
        kinds.dedup();
        let summary = kinds
            .into_iter()
            .map(|k| {
                let of = |f: fn(&OperationRecord) -> Option<i64>| {
                    median(
                        ops.iter()
                            .filter(|o| o.record.kind == k)
                            .filter_map(|o| f(&o.record))
                            .collect(),
                    )
                };
                OperationSummary {
                    kind: k,
                    count: ops.iter().filter(|o| o.record.kind == k).count() as u64,
                    median_duration_ms: Measure::ms_from_us(of(|r| Some(r.duration_us))),
                    median_scan_duration_ms: Measure::ms_from_us(of(|r| r.scan_duration_us)),
                    median_git_processes: Measure::from_opt(
                        of(|r| r.git_processes).map(|v| v as f64),
                    ),
                }
            })
            .collect();
        let recent = |n: usize| n.saturating_sub(20);
        Ok(MetricsOutput {
            schema_version: "repocue/metrics-1".into(),
            repository: self.repo.repo_id.clone(),
            database_path: self.db_path().display().to_string(),
            database_bytes: store.size_bytes(),
            epochs: store
                .epochs()?
                .into_iter()
                .map(|e| EpochInfo {
                    id: EpochId(e.seq).to_string(),
                    status: e.status,
                    label: e.label,
                    reason: e.reason,
                    created_at: e.created_at,
                })
                .collect(),
            snapshots: store
                .snapshot_seqs()?
                .into_iter()
                .map(|s| SnapshotId(s).to_string())
                .collect(),
            current_snapshot: snap(store.repository()?.and_then(|r| r.current)),
            summary,
            operations_total: ops.len() as u64,
            operations: ops[recent(ops.len())..]
                .iter()
                .map(|o| OperationMetric {
                    kind: o.record.kind,
                    recorded_at: o.recorded_at.clone(),
                    published: o.published,
                    epoch: o.epoch.map(|e| EpochId(e).to_string()),
                    snapshot: snap(o.snapshot),
                    duration_ms: Measure::ms_from_us(Some(o.record.duration_us)),
                    scan_duration_ms: Measure::ms_from_us(o.record.scan_duration_us),
                    git_processes: Measure::from_opt(o.record.git_processes.map(|v| v as f64)),
                    files_scanned: Measure::from_opt(o.record.files_scanned.map(|v| v as f64)),
                    bytes_scanned: Measure::from_opt(o.record.bytes_scanned.map(|v| v as f64)),
                    files_analyzed: Measure::from_opt(o.record.files_analyzed.map(|v| v as f64)),
                    changed_files: Measure::from_opt(o.record.changed_files.map(|v| v as f64)),
                })
                .collect(),
            cues_total: cues.len() as u64,
            cues: cues[recent(cues.len())..]
                .iter()
                .map(|c| CueMetric {
                    view: c.view.clone(),
                    recorded_at: c.recorded_at.clone(),
                    snapshot: snap(c.snapshot),
                    max_tokens: c.max_tokens as u64,
                    output_bytes: c.output_bytes as u64,
                    estimated_tokens: c.estimated_tokens as u64,
                    duration_ms: Measure::ms_from_us(Some(c.duration_us)),
                })
                .collect(),
        })
    }

    /// Lists, pins (`Some(label)`, current snapshot unless `snapshot` is given) or deletes
    /// checkpoints.
    pub fn checkpoint(&self, action: CheckpointAction) -> Result<CheckpointOutput> {
        let mut store = self.repo.open_store(false)?.ok_or(Error::NotInitialized)?;
        let info = |c: &crate::store::lifecycle::CheckpointRow| CheckpointInfo {
            id: CheckpointId(c.seq).to_string(),
            snapshot: SnapshotId(c.snapshot).to_string(),
            label: c.label.clone(),
            created_at: c.created_at.clone(),
        };
        let (name, touched) = match action {
            CheckpointAction::List => ("list", None),
            CheckpointAction::Pin { snapshot, label } => {
                if label.trim().is_empty() {
                    return Err(Error::InvalidArgument(
                        "a checkpoint needs a non-empty label".into(),
                    ));
                }
                let seq = match snapshot {
                    Some(id) => {
                        id.parse::<SnapshotId>()
                            .map_err(|_| {
                                Error::InvalidArgument(format!("not a snapshot id: {id:?}"))
                            })?
                            .0
                    }
                    None => store.current_snapshot()?.ok_or(Error::NotInitialized)?.seq,
                };
                let cp = store.pin(seq, &label)?;
                (
                    "pin",
                    store.checkpoints()?.into_iter().find(|c| c.seq == cp),
                )
            }
            CheckpointAction::Delete { id } => {
                let seq = id
                    .parse::<CheckpointId>()
                    .map_err(|_| Error::InvalidArgument(format!("not a checkpoint id: {id:?}")))?
                    .0;
                ("delete", Some(store.unpin(seq)?))
            }
        };
        Ok(CheckpointOutput {
            schema_version: "repocue/checkpoint-1".into(),
            action: name.into(),
            checkpoint: touched.as_ref().map(info),
            checkpoints: store.checkpoints()?.iter().map(info).collect(),
        })
    }

    /// Removes snapshots outside retention (or only reports them with `dry_run`).
    pub fn prune(&self, keep_recent: usize, dry_run: bool) -> Result<PruneOutput> {
        let mut store = self.repo.open_store(false)?.ok_or(Error::NotInitialized)?;
        let plan = store.prune(keep_recent, dry_run)?;
        let ids = |v: &[i64]| v.iter().map(|s| SnapshotId(*s).to_string()).collect();
        Ok(PruneOutput {
            schema_version: "repocue/prune-1".into(),
            dry_run,
            keep_recent: keep_recent as u64,
            kept: ids(&plan.kept),
            removed: ids(&plan.removed),
            file_versions_removed: plan.file_versions,
            deltas_removed: plan.deltas,
            facts_removed: plan.facts,
            database_bytes: store.size_bytes(),
        })
    }
}

/// What `checkpoint` does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CheckpointAction {
    /// List checkpoints.
    List,
    /// Pin a snapshot (the current one when `None`).
    Pin {
        /// Snapshot id.
        snapshot: Option<String>,
        /// Label.
        label: String,
    },
    /// Delete a checkpoint.
    Delete {
        /// Checkpoint id.
        id: String,
    },
}

/// Returns the median (lower middle for even counts), `None` for no values.
fn median(mut v: Vec<i64>) -> Option<i64> {
    v.sort_unstable();
    (!v.is_empty()).then(|| v[(v.len() - 1) / 2])
}

/// Counts the live working tree's changes by kind.
fn working_counts(basis: &Basis) -> WorkingCounts {
    let mut c = WorkingCounts {
        untracked: basis.untracked.len() as u64,
        ..Default::default()
    };
    for e in &basis.changed {
        match git::working_state(Some(e)) {
            WorkingState::Conflicted => c.conflicted += 1,
            WorkingState::Deleted => {
                c.deleted += 1;
                c.staged += (e.x != b'.') as u64;
            }
            WorkingState::Staged => c.staged += 1,
            WorkingState::Unstaged => c.unstaged += 1,
            WorkingState::StagedUnstaged => {
                c.staged += 1;
                c.unstaged += 1;
            }
            WorkingState::Clean => {}
        }
    }
    c
}
