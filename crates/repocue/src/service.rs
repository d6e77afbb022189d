//! The one core API: every front end (CLI, MCP, watch, hooks) calls [`Service`] and nothing
//! deeper. Each public method is one request: it validates the request, hands it to the
//! engine that owns it (`refresh`, `read` + `cue`, `freshness`, `store`) and records metrics.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use crate::api::task::{
    DeclarationRef, TaskContextCheck, TaskContextPinOutput, TASK_CONTEXT_CHECK_SCHEMA_VERSION,
    TASK_CONTEXT_PIN_SCHEMA_VERSION,
};
use crate::api::{
    CheckpointId, CheckpointInfo, CheckpointOutput, Cue, CueMetric, CueRequest, EpochId, EpochInfo,
    Freshness, Measure, MetricsOutput, OperationKind, OperationMetric, OperationSummary,
    PruneOutput, RefreshOutput, SnapshotId, StatusOutput, View, WorkingCounts,
};
use crate::error::{Error, Result};
use crate::git::{self, Basis};
use crate::model::WorkingState;
use crate::refresh::{self, Operation};
use crate::repo::Repo;
use crate::scan::Progress;
use crate::store::calibration::CalibrationReference;
use crate::store::{CueRow, OperationRecord};
use crate::{cue, freshness, hint, paths, read, task};

/// The quiet period of `watch` without a flag or configuration.
pub const DEFAULT_DEBOUNCE_MS: u64 = 1500;

/// Where to find the repository and the cache.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Any path inside the work tree; the current directory when `None`.
    pub repository: Option<PathBuf>,
    /// Cache root; see [`cache_root`] for the default.
    pub cache_dir: Option<PathBuf>,
    /// Counters updated while files are scanned, for a progress display.
    pub progress: Option<Arc<Progress>>,
    /// Never write to the cache, not even what a read writes on the side (cue metrics, views
    /// it caches, the index file's new stat signature, the location hint): for `report`,
    /// which promises to write nothing. Operations that publish still fail or write as asked.
    pub observe_only: bool,
}

/// A repository bound to its cache: the entry point of every request.
pub struct Service {
    repo: Repo,
    /// Discovery confirmed an ordinary root but the cache did not exist yet: write the
    /// location hint once an operation has created it.
    hint_pending: std::cell::Cell<bool>,
    /// The cache root when one was named (`--cache-dir`, `REPOCUE_CACHE_DIR`) rather than
    /// the default: the hooks must name it too.
    named_cache: Option<PathBuf>,
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

/// Whether the cache root was named rather than the default ([`cache_root`]).
fn named_cache(opts: &Options) -> bool {
    opts.cache_dir.is_some() || std::env::var_os("REPOCUE_CACHE_DIR").is_some_and(|v| !v.is_empty())
}

/// Fails with `refresh_needed` when a snapshot does not describe the work tree.
fn refuse_refresh_needed(reader: &read::Reader) -> Result<()> {
    if reader.freshness != Freshness::RefreshNeeded {
        return Ok(());
    }
    let detail = reader
        .warnings
        .iter()
        .find(|w| w.code == crate::api::WarningCode::RefreshNeeded)
        .and_then(|w| w.detail.clone())
        .unwrap_or_else(|| "the live repository differs from the snapshot".into());
    Err(Error::RefreshNeeded { detail })
}

/// Replaces a file by writing a sibling and renaming it over the original, keeping its
/// permissions: a reader sees the old or the new bytes, never a half-written file.
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    let io = |context: String| move |source| Error::Io { context, source };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.repocue-{}", std::process::id()));
    let perms = std::fs::metadata(path)
        .map_err(io(format!("cannot read {}", path.display())))?
        .permissions();
    std::fs::write(&tmp, bytes).map_err(io(format!("cannot write {}", tmp.display())))?;
    let done = std::fs::set_permissions(&tmp, perms)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(io(format!("cannot replace {}", path.display())));
    if done.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    done
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
            repo: Repo::new(root, &cache, opts.progress.clone()).observing(opts.observe_only),
            hint_pending: Default::default(),
            named_cache: named_cache(opts).then(|| cache.clone()),
        };
        if discovered {
            service.repo.git.add_processes(1);
            if service.repo.root == canonical && !opts.observe_only {
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

    /// The cache directory relative to the work tree, when it lies in it
    /// ([`Repo::cache_in_tree`]).
    pub fn cache_in_tree(&self) -> Option<std::path::PathBuf> {
        self.repo.cache_in_tree()
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
    /// rewrites (the cache this service uses, when it was named); existing hooks are chained,
    /// never clobbered.
    pub fn install_hooks(&self, repocue_exe: &Path) -> Result<crate::hooks::HooksOutput> {
        crate::hooks::install(&self.repo.git, repocue_exe, self.named_cache.as_deref())
    }

    /// Removes RepoCue's Git hooks and restores chained ones.
    pub fn uninstall_hooks(&self) -> Result<crate::hooks::HooksOutput> {
        crate::hooks::uninstall(&self.repo.git)
    }

    /// Returns how many Git processes this service has started (discovery included).
    pub fn git_processes(&self) -> u32 {
        self.repo.git.processes()
    }

    /// Returns the token budget of a request that gives none: `cue.max_tokens` of the
    /// configuration, else [`crate::DEFAULT_MAX_TOKENS`]. Fails with `invalid_config` when a
    /// configuration file is invalid.
    pub fn default_max_tokens(&self) -> Result<u64> {
        let config = crate::config::load(&self.repo.root)?;
        Ok(config.max_tokens.unwrap_or(crate::DEFAULT_MAX_TOKENS))
    }

    /// Returns how many recent snapshots retention keeps when a prune gives no number:
    /// `retention.keep_recent` of the configuration, else [`crate::KEEP_RECENT`]. Automatic
    /// pruning after a refresh keeps the same number.
    pub fn default_keep_recent(&self) -> Result<usize> {
        let config = crate::config::load(&self.repo.root)?;
        Ok(config
            .keep_recent
            .map_or(crate::KEEP_RECENT, |k| k as usize))
    }

    /// Returns the quiet period of `watch` when none is given: `watch.debounce_ms` of the
    /// configuration, else 1500 ms.
    pub fn default_debounce_ms(&self) -> Result<u64> {
        let config = crate::config::load(&self.repo.root)?;
        Ok(config.debounce_ms.unwrap_or(DEFAULT_DEBOUNCE_MS))
    }

    /// Runs a baseline, refresh or rebaseline and publishes a snapshot when state changed.
    pub fn update(&self, op: &Operation) -> Result<RefreshOutput> {
        self.repo.git.prefetch_status();
        let out = refresh::run(&self.repo, op);
        crate::scan::foresight::finish();
        if out.is_ok() {
            self.settle_hint();
        }
        out
    }

    /// Produces a cue. Unless `request.refresh` is false, the cache is brought up to date
    /// first (initialized or refreshed, noted in warnings). Records a cue measurement.
    pub fn cue(&self, request: &CueRequest) -> Result<Cue> {
        let started = Instant::now();
        // The task view's own check first: it names the flags as the command line spells them.
        let task = cue::views::task::check_flags(request)?;
        cue::validate(request)?;
        let normalized;
        let request = match &request.path {
            Some(raw) => {
                let path =
                    paths::request_path(raw, &self.repo.root).map_err(Error::InvalidArgument)?;
                normalized = CueRequest {
                    path: Some(path),
                    ..request.clone()
                };
                &normalized
            }
            None => request,
        };
        self.repo.git.prefetch_status();
        // Loaded once, for the view built ahead and the read. A configuration that does not
        // load builds nothing ahead and fails the read, with its own error where it would.
        let rules = self.repo.rules();
        let ahead = rules
            .as_ref()
            .ok()
            .and_then(|r| self.build_ahead(request, r));
        let reader = read::prepare_under(&self.repo, request.refresh, || rules);
        crate::scan::foresight::finish();
        if reader.is_ok() {
            self.settle_hint();
        }
        let reader = reader?;
        let resolved;
        let mut since_tree = None;
        let request = match self.since_commit(&reader, request)? {
            Some(Since::Snapshot(since)) => {
                resolved = CueRequest {
                    since: Some(since),
                    ..request.clone()
                };
                &resolved
            }
            Some(Since::Commit(commit)) => {
                since_tree = Some(commit);
                request
            }
            None => request,
        };
        let cue = match (&task, since_tree) {
            (None, Some(commit)) => self.delta_since_commit(&reader, request, &commit)?,
            (None, None) => match ahead.and_then(|a| a.take(&reader)).flatten() {
                Some(cue) => cue,
                None => cue::build(&reader, request)?,
            },
            (Some(q), _) => {
                // Original text is delivered only from a snapshot that describes the work tree,
                // before and after the files are read.
                refuse_refresh_needed(&reader)?;
                let cue = cue::views::task::build(&reader, request, q, &self.repo.root)?;
                if read::live_freshness(&self.repo, &reader)? == Freshness::RefreshNeeded {
                    return Err(Error::ChangedDuringRead {
                        detail: "the work tree no longer matches the snapshot".into(),
                    });
                }
                cue
            }
        };
        reader.store.record_cue(&CueRow {
            view: request.view.as_str().into(),
            recorded_at: crate::time::now_rfc3339(),
            max_tokens: request.max_tokens as i64,
            output_bytes: cue.output.len() as i64,
            estimated_tokens: cue.estimated_tokens as i64,
            duration_us: started.elapsed().as_micros() as i64,
            snapshot: Some(reader.snapshot.seq),
        })?;
        Ok(cue)
    }

    /// What a delta's `--since` names when it names a commit rather than a snapshot
    /// (`--since HEAD~1`, `--since main`, `--since 5673792`): the latest retained snapshot
    /// whose work tree was that commit with no tracked change, else the commit itself. An agent
    /// knows the commit it started from, or the branch it forked, not a snapshot id. `None`
    /// when `--since` is a snapshot id or absent.
    fn since_commit(&self, reader: &read::Reader, request: &CueRequest) -> Result<Option<Since>> {
        let Some(since) = request.since.as_deref() else {
            return Ok(None);
        };
        if since.parse::<SnapshotId>().is_ok() {
            return Ok(None);
        }
        let not_a_revision = || {
            Error::InvalidArgument(format!(
                "--since must be a snapshot id like snapshot-000001 or a commit, got {since:?}"
            ))
        };
        // A revision is never read as an option of `git rev-parse`.
        if since.is_empty() || since.starts_with('-') || since.contains(['\0', '\n']) {
            return Err(not_a_revision());
        }
        let spec = format!("{since}^{{commit}}");
        let out = self
            .repo
            .git
            .run(&["rev-parse", "--verify", "--quiet", &spec])
            .map_err(|_| not_a_revision())?;
        let commit = String::from_utf8_lossy(&out).trim().to_owned();
        Ok(Some(match reader.store.clean_snapshot_at(&commit)? {
            Some(seq) => Since::Snapshot(SnapshotId(seq).to_string()),
            None => Since::Commit(commit),
        }))
    }

    /// The delta since a commit no retained snapshot saw: its tree, and the old contents of
    /// the paths that differ, read from Git ([`cue::views::delta::build_since_commit`]).
    fn delta_since_commit(
        &self,
        reader: &read::Reader,
        request: &CueRequest,
        commit: &str,
    ) -> Result<Cue> {
        use cue::views::delta::{build_since_commit, differing, TreeEntry};
        let tree: Vec<TreeEntry> = self
            .repo
            .git
            .tree_entries(commit)?
            .into_iter()
            .map(|(mode, oid, path)| TreeEntry { mode, oid, path })
            .collect();
        let oids: Vec<&str> = differing(reader, &tree)?
            .into_iter()
            .filter(|e| e.mode != 0o160000)
            .map(|e| e.oid.as_str())
            .collect();
        // Every old content is read and analysed for this one answer: a commit so far back
        // that most of a large repository differs is a baseline's work, refused plainly.
        if oids.len() > MAX_COMMIT_DELTA_FILES {
            return Err(Error::InvalidArgument(format!(
                "{} files differ from commit {}: more than a delta since a commit reads \
                 ({MAX_COMMIT_DELTA_FILES}); pass a later commit or --since SNAPSHOT",
                oids.len(),
                &commit[..commit.len().min(12)]
            )));
        }
        let contents = self.repo.git.blobs(&oids)?;
        build_since_commit(reader, request, commit, &tree, &contents)
    }

    /// Starts building the cue of the current snapshot while Git computes the status that will
    /// most likely confirm it ([`read::Ahead`]): the views whose answer is computed per
    /// request, and the overview when its snapshot's data is cached (else `None` is built:
    /// after an edit the old snapshot's ranking would be computed for nothing, on the cores
    /// the refresh needs). Not the task view, which reads the work tree, nor the manifest and
    /// delta views, which cost little.
    fn build_ahead(
        &self,
        request: &CueRequest,
        rules: &crate::repo::Rules,
    ) -> Option<read::Ahead<Option<Cue>>> {
        let overview = request.view == View::Overview;
        let computed = matches!(
            request.view,
            View::Entity | View::Structure | View::Search | View::Document
        );
        if !computed && !overview {
            return None;
        }
        let (analysis, request) = (rules.config.analysis.clone(), request.clone());
        read::Ahead::start(self.repo.db_path(), analysis, move |r| {
            if overview && !cue::views::overview::is_warm(r)? {
                return Ok(None);
            }
            cue::build(r, &request).map(Some)
        })
    }

    /// Compares every pinned digest of a task-context declaration with the files (after
    /// refresh-on-read) and lists the stale ones. Writes nothing but the refresh.
    pub fn task_context_check(&self, context_file: &str) -> Result<TaskContextCheck> {
        let (reader, files, decl, digest, _) = self.task_context(context_file)?;
        let pins = task::pin::pins(&decl, &files, &self.repo.root)?;
        Ok(TaskContextCheck {
            schema_version: TASK_CONTEXT_CHECK_SCHEMA_VERSION.into(),
            declaration: DeclarationRef {
                path: context_file.into(),
                content_digest: digest,
            },
            snapshot: SnapshotId(reader.snapshot.seq).to_string(),
            pins: pins.len() as u64,
            stale: pins.into_iter().filter(|p| p.is_stale()).collect(),
        })
    }

    /// Rewrites the stale digests of a task-context declaration to the files' digests: the
    /// author's explicit renewal, never done by refresh. Only the digest strings change; the
    /// file is replaced atomically, and left untouched when nothing is stale.
    pub fn task_context_pin_update(&self, context_file: &str) -> Result<TaskContextPinOutput> {
        let (_, files, decl, digest, bytes) = self.task_context(context_file)?;
        let pins = task::pin::pins(&decl, &files, &self.repo.root)?;
        let updated: Vec<_> = pins.iter().filter(|p| p.is_stale()).cloned().collect();
        let mut content_digest = digest;
        if !updated.is_empty() {
            let new = task::pin::rewrite(&bytes, &pins)?;
            task::parse_again(context_file, &new)?;
            write_atomically(&self.repo.root.join(context_file), &new)?;
            content_digest = task::digest_of(&new);
        }
        Ok(TaskContextPinOutput {
            schema_version: TASK_CONTEXT_PIN_SCHEMA_VERSION.into(),
            declaration: DeclarationRef {
                path: context_file.into(),
                content_digest,
            },
            pins: pins.len() as u64,
            updated,
        })
    }

    /// Prepares a current snapshot and loads a declaration from it.
    #[allow(clippy::type_complexity)]
    fn task_context(
        &self,
        context_file: &str,
    ) -> Result<(
        read::Reader,
        std::collections::BTreeMap<String, task::extract::Entry>,
        task::declaration::Declaration,
        String,
        Vec<u8>,
    )> {
        task::declaration::check_path(context_file, false).map_err(|d| {
            Error::InvalidArgument(format!("invalid --context-file {context_file:?}: {d}"))
        })?;
        let reader = read::prepare(&self.repo, true)?;
        self.settle_hint();
        refuse_refresh_needed(&reader)?;
        let files = cue::views::task::snapshot_files(&reader)?;
        let (decl, digest, bytes) = task::load(&files, &self.repo.root, context_file)?;
        Ok((reader, files, decl, digest, bytes))
    }

    /// Compares the live repository with the current snapshot without refreshing or publishing
    /// anything (a read's side write, the index file's new stat signature, is best effort and
    /// skipped under [`Options::observe_only`]).
    pub fn status(&self) -> Result<StatusOutput> {
        self.repo.git.prefetch_status();
        let store = self.repo.open_store(false)?;
        let current = match &store {
            Some(s) => s.current_snapshot()?.map(|snap| (s, snap)),
            None => None,
        };
        let basis = self
            .repo
            .git
            .capture_basis_since(current.as_ref().and_then(|(_, p)| p.known_index()), false)?;
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
            faults: vec![],
            git_processes: 0,
            warnings: vec![],
        };
        if let Some((store, snap)) = current {
            read::settle_index(store, &snap, &basis);
            // Clean, unflagged paths are vouched for by Git's status and index digests; only
            // the others need a look.
            let files = store.unsettled_files_at(&snap)?;
            let content = freshness::changed_dirty_paths(&self.repo.root, &files, &snap.faults);
            let rules = self.repo.rules()?;
            let outdated = read::outdated(store, &snap, &rules)?;
            let a = freshness::assess(&snap, &files, &basis, content, &outdated);
            out.freshness = a.freshness;
            out.reasons = a.reasons;
            out.changed_since_snapshot = shown_paths(store, &snap, &a.changed, &rules)?
                .iter()
                .take(20)
                .map(|p| paths::display(p))
                .collect();
            out.epoch = Some(EpochId(snap.epoch).to_string());
            out.snapshot = Some(SnapshotId(snap.seq).to_string());
            out.snapshot_observed_at = Some(snap.observed_at.clone());
            out.tracked_files = Some(store.file_count_at(&snap)?);
            out.faults = crate::model::Fault::listed(&snap.faults);
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
        let plan = store.prune(keep_recent, dry_run, crate::store::lifecycle::Sweep::Full)?;
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

    /// Returns the active epoch and current snapshot sequences a calibration would bind to;
    /// `None` before the first baseline. Fails with `not_initialized` without a database.
    pub fn calibration_binding(&self) -> Result<Option<(i64, i64)>> {
        let store = self.repo.open_store(false)?.ok_or(Error::NotInitialized)?;
        store.calibration_binding()
    }

    /// Records a calibration reference when its epoch and snapshot are still the active
    /// ones; returns `false` when the same id was already recorded (idempotent). A refresh or
    /// rebaseline in between fails with `concurrent_update` and writes nothing.
    pub fn record_calibration(&self, r: &CalibrationReference) -> Result<bool> {
        let mut store = self.repo.open_store(false)?.ok_or(Error::NotInitialized)?;
        store.record_calibration(r)
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

/// The paths of a list that may be named: not secret by name, and not a secret file of the
/// snapshot (by content).
fn shown_paths<'a>(
    store: &crate::store::Store,
    snap: &crate::store::SnapshotRow,
    list: &'a [Vec<u8>],
    rules: &crate::repo::Rules,
) -> Result<Vec<&'a Vec<u8>>> {
    let by_name = |p: &Vec<u8>| crate::classify::is_secret_path(p, &rules.config.analysis);
    let candidates: Vec<&[u8]> = list
        .iter()
        .filter(|p| !by_name(p))
        .map(|p| p.as_slice())
        .collect();
    let secret: std::collections::HashSet<Vec<u8>> = store
        .files_by_paths(snap, &candidates)?
        .into_iter()
        .filter(|f| f.class == crate::model::FileClass::Secret)
        .map(|f| f.path)
        .collect();
    Ok(list
        .iter()
        .filter(|p| !by_name(p) && !secret.contains(*p))
        .collect())
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

/// Most files whose old contents a delta since a commit reads from Git and analyses.
const MAX_COMMIT_DELTA_FILES: usize = 5_000;

/// What a delta's `--since` that names a commit compares with.
enum Since {
    /// The latest retained snapshot that saw the commit with no tracked change.
    Snapshot(String),
    /// The commit itself (its full id): no snapshot saw it.
    Commit(String),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::temp_repo;

    fn service(t: &crate::testing::TempRepo) -> Service {
        Service {
            repo: Repo::new(t.repo.root.clone(), &t._dir.path().join("cache"), None),
            hint_pending: Default::default(),
            named_cache: None,
        }
    }

    /// The cue built while Git computed the status is served only when the status confirmed
    /// its snapshot, and is then byte for byte what building after the status gives; after an
    /// edit the live state is served, and without a refresh its freshness says so.
    #[test]
    fn a_cue_built_ahead_is_served_only_for_the_snapshot_it_describes() {
        let t = temp_repo(&[
            ("src/core.py", "def parse(x):\n    return x\n"),
            (
                "src/use.py",
                "from core import parse\n\ndef go():\n    parse(1)\n",
            ),
        ]);
        let s = service(&t);
        s.update(&Operation::Init).unwrap();
        let rules = s.repo.rules().unwrap();
        let entity = CueRequest {
            id: Some("file:src/core.py".into()),
            max_tokens: 2000,
            ..CueRequest::new(View::Entity)
        };
        let search = CueRequest {
            query: Some("parse".into()),
            ..CueRequest::new(View::Search)
        };
        for request in [&entity, &search] {
            let ahead = s.build_ahead(request, &rules).unwrap();
            let reader = read::prepare(&s.repo, true).unwrap();
            let taken = ahead.take(&reader).flatten();
            let taken = taken.expect("the status confirmed the snapshot");
            let built = cue::build(&reader, request).unwrap();
            assert_eq!(taken.output, built.output);
            assert_eq!(s.cue(request).unwrap().output, built.output);
        }
        // The overview is built ahead only from its snapshot's cached data.
        let overview = CueRequest::new(View::Overview);
        let cold = read::prepare(&s.repo, false).unwrap();
        assert!(!cue::views::overview::is_warm(&cold).unwrap());
        assert_eq!(
            s.build_ahead(&overview, &rules)
                .unwrap()
                .take(&cold)
                .map(|c| c.is_none()),
            Some(true)
        );
        let built = s.cue(&overview).unwrap();
        let warm = read::prepare(&s.repo, false).unwrap();
        assert!(cue::views::overview::is_warm(&warm).unwrap());
        let taken = s
            .build_ahead(&overview, &rules)
            .unwrap()
            .take(&warm)
            .flatten();
        assert_eq!(taken.unwrap().output, built.output);
        // An edit: the refreshed snapshot's entity, never the one built ahead from the old.
        std::fs::write(
            t.repo.root.join("src/core.py"),
            "def parse(x):\n    return x\n\ndef added(y):\n    return y\n",
        )
        .unwrap();
        for refresh in [false, true] {
            let ahead = s.build_ahead(&entity, &rules).unwrap();
            let reader = read::prepare(&s.repo, refresh).unwrap();
            assert!(ahead.take(&reader).is_none(), "refresh: {refresh}");
        }
        std::fs::write(
            t.repo.root.join("src/core.py"),
            "def parse(x):\n    return x\n\ndef renamed(y):\n    return y\n",
        )
        .unwrap();
        let stale = s
            .cue(&CueRequest {
                refresh: false,
                ..entity.clone()
            })
            .unwrap();
        assert_eq!(stale.value["freshness"], "refresh-needed", "{}", stale.json);
        assert!(!stale.json.contains("renamed"), "{}", stale.json);
        let fresh = s.cue(&entity).unwrap();
        assert!(
            fresh.json.contains("symbol:src/core.py:renamed"),
            "{}",
            fresh.json
        );
        assert!(fresh.json.contains("refreshed"), "{}", fresh.json);
    }
}
