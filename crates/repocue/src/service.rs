//! The one core API: every front end (CLI, MCP, watch, hooks) calls [`Service`] and nothing
//! deeper. It orchestrates discovery, the Git basis, scanning, publishing and cue projection,
//! records metrics, and owns the freshness policy.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::analyze::Analysis;
use crate::delta::{self, DeltaItem, RepoFacts};
use crate::error::{Error, Result};
use crate::git::{self, Basis, Git, IndexEntry, StatusEntry};
use crate::model::{seq_id, FileState, Freshness, WorkingState};
use crate::output::{
    ChangeCounts, CueMetric, EpochInfo, Measure, MetricsOutput, OperationMetric, OperationSummary,
    RefreshOutput, RepositoryInfo, StatusOutput, Warning, WorkingCounts,
};
use crate::scan::{self, ScanItem};
use crate::store::{NewSnapshot, OperationRecord, Publish, SnapshotRow, Store};
use crate::{hint, paths};

/// How many recent commits a snapshot keeps for overviews.
const RECENT_COMMITS: usize = 10;
/// Recent snapshots of the active epoch that retention keeps (besides the baseline, the
/// current snapshot and checkpoints).
pub const KEEP_RECENT: usize = 20;
/// Automatic pruning runs once this many snapshots beyond retention have accumulated.
const PRUNE_SLACK: usize = 10;

/// How often a publish that lost the race to another writer is retried.
const PUBLISH_ATTEMPTS: usize = 4;

/// Where to find the repository and the cache.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Any path inside the work tree; the current directory when `None`.
    pub repository: Option<PathBuf>,
    /// Cache root; see [`cache_root`] for the default.
    pub cache_dir: Option<PathBuf>,
    /// Counters updated while files are scanned, for a progress display.
    pub progress: Option<std::sync::Arc<scan::Progress>>,
}

/// What kind of state-changing operation to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Operation {
    /// Baseline when uninitialized, refresh otherwise.
    Init,
    /// Incremental refresh; fails when uninitialized.
    Refresh,
    /// New epoch with a full baseline.
    Rebaseline {
        /// Label of the new epoch.
        label: String,
        /// Why it was started.
        reason: String,
    },
}

/// A repository bound to its cache: the entry point of every request.
pub struct Service {
    root: PathBuf,
    repo_id: String,
    repo_dir: PathBuf,
    git: Git,
    /// Messages for the user that are not part of any result (e.g. hint write failures).
    notices: std::cell::RefCell<Vec<String>>,
    /// Git processes already charged to an earlier operation of this service.
    charged: std::cell::Cell<u32>,
    progress: Option<std::sync::Arc<scan::Progress>>,
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

/// Returns the repository id of a canonical root: `repo-` + 24 hex digits of its SHA-256.
pub fn repo_id(root: &Path) -> String {
    use std::os::unix::ffi::OsStrExt;
    format!(
        "repo-{}",
        &git::hex_sha256(root.as_os_str().as_bytes())[..24]
    )
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
        let candidate_dir = cache.join(repo_id(&canonical));
        let hinted = hint::check(&candidate_dir.join("location.json"), &canonical);
        let (root, discovered) = match hinted {
            Some(root) => (root, false),
            None => (git::discover(&canonical)?, true),
        };
        let id = repo_id(&root);
        let repo_dir = cache.join(&id);
        let service = Service {
            git: Git::new(root.clone()),
            root,
            repo_id: id,
            repo_dir,
            notices: Default::default(),
            charged: Default::default(),
            progress: opts.progress.clone(),
            hint_pending: Default::default(),
        };
        if discovered {
            service.git.add_processes(1);
            if service.root == canonical {
                if service.repo_dir.is_dir() {
                    service.write_hint();
                } else {
                    service.hint_pending.set(true);
                }
            }
        }
        Ok(service)
    }

    fn write_hint(&self) {
        if let Some(w) = hint::write(&self.repo_dir.join("location.json"), &self.root) {
            self.notices.borrow_mut().push(w);
        }
    }

    /// Returns the work-tree root.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Returns the repository id.
    pub fn repo_id(&self) -> &str {
        &self.repo_id
    }

    /// Returns the state database path.
    pub fn db_path(&self) -> PathBuf {
        self.repo_dir.join("state.db")
    }

    /// Takes messages meant for a human (stderr) that are not part of any result.
    pub fn take_notices(&self) -> Vec<String> {
        std::mem::take(&mut self.notices.borrow_mut())
    }

    /// Installs Git hooks that refresh the cache after commits, checkouts, merges and
    /// rewrites; existing hooks are chained, never clobbered.
    pub fn install_hooks(&self, repocue_exe: &Path) -> Result<crate::hooks::HooksOutput> {
        crate::hooks::install(&self.git, repocue_exe)
    }

    /// Removes RepoCue's Git hooks and restores chained ones.
    pub fn uninstall_hooks(&self) -> Result<crate::hooks::HooksOutput> {
        crate::hooks::uninstall(&self.git)
    }

    /// Returns how many Git processes this service has started (discovery included).
    pub fn git_processes(&self) -> u32 {
        self.git.processes()
    }

    /// Opens the store; `None` when the repository was never initialized.
    pub fn open_store(&self, create: bool) -> Result<Option<Store>> {
        let store = Store::open(&self.db_path(), create)?;
        if let Some(s) = &store {
            if let Some(repo) = s.repository()? {
                use std::os::unix::ffi::OsStrExt;
                if repo.root != self.root.as_os_str().as_bytes() || repo.repo_id != self.repo_id {
                    return Err(Error::CorruptCache {
                        path: self.db_path(),
                        detail: format!(
                            "it belongs to {} at {}",
                            repo.repo_id,
                            paths::display(&repo.root)
                        ),
                    });
                }
            }
        }
        Ok(store)
    }

    pub(crate) fn repository_info(&self, basis: &Basis) -> RepositoryInfo {
        RepositoryInfo {
            id: self.repo_id.clone(),
            name: {
                use std::os::unix::ffi::OsStrExt;
                self.root
                    .file_name()
                    .map(|n| paths::display(n.as_bytes()))
                    .unwrap_or_default()
            },
            branch: basis.branch.clone(),
            head: basis.head.clone(),
            dirty: basis.dirty(),
        }
    }

    /// Compares the live repository with the current snapshot without writing anything.
    pub fn status(&self) -> Result<StatusOutput> {
        let store = self.open_store(false)?;
        let current = match &store {
            Some(s) => s.current_snapshot()?.map(|snap| (s, snap)),
            None => None,
        };
        let basis = self
            .git
            .capture_basis_since(current.as_ref().and_then(|(_, p)| known_index(p)))?;
        let mut out = StatusOutput {
            schema_version: "repocue/status-1".into(),
            repository: self.repository_info(&basis),
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
            let a = assess(&self.root, &snap, &files, &basis)?;
            out.freshness = a.freshness;
            out.reasons = a.reasons;
            out.changed_since_snapshot = a
                .changed
                .iter()
                .take(20)
                .map(|p| paths::display(p))
                .collect();
            out.epoch = Some(seq_id("epoch", snap.epoch));
            out.snapshot = Some(seq_id("snapshot", snap.seq));
            out.snapshot_observed_at = Some(snap.observed_at.clone());
            out.tracked_files = Some(store.file_count_at(&snap)?);
            out.warnings = a.warnings;
        } else {
            out.reasons
                .push("no snapshot yet; run `repocue init`".into());
        }
        out.warnings.extend(non_utf8_warning(
            basis
                .changed
                .iter()
                .map(|c| &c.path)
                .chain(&basis.untracked),
        ));
        out.git_processes = self.charge_git();
        Ok(out)
    }

    /// Runs a baseline, refresh or rebaseline and publishes a snapshot when state changed.
    pub fn update(&self, op: &Operation) -> Result<RefreshOutput> {
        let mut attempt = 0;
        loop {
            attempt += 1;
            match self.update_once(op) {
                Err(Error::Conflict { .. }) if attempt < PUBLISH_ATTEMPTS => continue,
                other => {
                    if other.is_ok() && self.hint_pending.replace(false) {
                        self.write_hint();
                    }
                    return other;
                }
            }
        }
    }

    fn update_once(&self, op: &Operation) -> Result<RefreshOutput> {
        let started = Instant::now();
        // A refresh never creates a cache: only init and rebaseline start one.
        let Some(mut store) = self.open_store(*op != Operation::Refresh)? else {
            return Err(Error::NotInitialized);
        };
        let previous = store.current_snapshot()?;
        if previous.is_none() && *op == Operation::Refresh {
            return Err(Error::NotInitialized);
        }
        let (kind, new_epoch) = match (op, &previous) {
            (Operation::Rebaseline { label, reason }, _) => (
                "rebaseline",
                Some((Some(label.clone()), Some(reason.clone()))),
            ),
            (_, None) => ("baseline", Some((None, None))),
            (_, Some(_)) => ("refresh", None),
        };
        let full = new_epoch.is_some();
        let basis = self
            .git
            .capture_basis_since(previous.as_ref().filter(|_| !full).and_then(known_index))?;
        // With the index unchanged, the set of tracked paths and their index entries are the
        // snapshot's: only paths Git reports as changed, and paths that were not clean or are
        // flagged, can differ. Everything else is neither loaded nor compared.
        let incremental = !full
            && previous
                .as_ref()
                .is_some_and(|p| p.index_digest == basis.index_digest);
        let (prev_files, index) = match &previous {
            Some(p) if incremental => {
                let mut paths: Vec<Vec<u8>> =
                    basis.changed.iter().map(|c| c.path.clone()).collect();
                paths.extend(store.unsettled_files_at(p)?.into_iter().map(|f| f.path));
                paths.sort();
                paths.dedup();
                let refs: Vec<&[u8]> = paths.iter().map(Vec::as_slice).collect();
                let subset = store.files_by_paths(p, &refs)?;
                let index = subset
                    .iter()
                    .map(|f| IndexEntry {
                        path: f.path.clone(),
                        mode: f.index_mode,
                        oid: f.index_oid.clone(),
                        stage: 0,
                        assume_unchanged: f.assume_unchanged,
                        skip_worktree: f.skip_worktree,
                    })
                    .collect();
                (subset, index)
            }
            Some(p) => (store.files_at(p)?, basis.index.clone()),
            None => (vec![], basis.index.clone()),
        };
        let scan_started = Instant::now();
        let plan = plan_scan(&index, &basis.changed, &prev_files, full, &self.root);
        let known = if plan.to_scan.is_empty() {
            HashSet::new()
        } else {
            store.known_digests()?
        };
        // REPOCUE_ANALYSIS=off measures hashing alone (benchmarks); facts are then computed
        // later, when those files change.
        let analyze = std::env::var_os("REPOCUE_ANALYSIS").is_none_or(|v| v != "off");
        // A baseline streams its analyses to a writer thread (facts are content-keyed and
        // immutable, so committing them before the snapshot is safe: an interrupted baseline
        // leaves only facts that the next one reuses, or that prune removes).
        let (sink, writer) = if full && analyze {
            let (tx, rx) = std::sync::mpsc::sync_channel::<(String, Analysis)>(256);
            let db = self.db_path();
            let writer = std::thread::spawn(move || -> Result<u64> {
                let store = Store::open(&db, false)?.ok_or(Error::NotInitialized)?;
                let mut batch = Vec::with_capacity(512);
                let mut written = 0u64;
                for item in rx {
                    batch.push(item);
                    if batch.len() == 512 {
                        written += store.put_facts(&batch)?;
                        batch.clear();
                    }
                }
                written += store.put_facts(&batch)?;
                Ok(written)
            });
            (Some(tx), Some(writer))
        } else {
            (None, None)
        };
        let scanned = scan::scan(
            &self.root,
            plan.to_scan,
            &known,
            analyze,
            self.progress.as_deref(),
            sink.as_ref(),
        );
        drop(sink);
        let streamed = match writer {
            Some(w) => w
                .join()
                .map_err(|_| Error::InvalidArgument("facts writer panicked".into()))??,
            None => 0,
        };
        let scanned = scanned?;
        let scan_us = scan_started.elapsed().as_micros() as i64;

        let mut facts: Vec<(String, Analysis)> = Vec::new();
        let mut files = plan.reused;
        let (mut bytes, mut unstable, files_scanned) = (0u64, 0u64, scanned.len() as u64);
        // A file written after the basis was captured but before it was read would be
        // described with content newer than its Git state: flag it like a file that changed
        // while being read. (Future mtimes beyond the scan are clock skew, not a race.)
        let scan_end_ns = crate::time::now_ns();
        let mut stat_updates = plan.stat_updates;
        for s in scanned.iter().filter(|s| s.state.stat.is_some() && !full) {
            // Same content, new stat data (a touch, a rewrite with equal bytes): remember the
            // new stat so the next status need not hash the file again.
            let old = prev_files
                .binary_search_by(|f| f.path.cmp(&s.state.path))
                .ok()
                .map(|i| &prev_files[i]);
            if old.is_some_and(|o| o.same_state(&s.state) && o.stat != s.state.stat) {
                stat_updates.push((s.state.path.clone(), s.state.stat.expect("filtered")));
            }
        }
        for s in scanned {
            bytes += s.bytes_read;
            let raced = s
                .state
                .stat
                .is_some_and(|st| st.mtime_ns > basis.observed_ns && st.mtime_ns <= scan_end_ns);
            unstable += (s.unstable || raced) as u64;
            if let (Some(a), Some(d)) = (s.analysis, &s.state.digest) {
                facts.push((d.clone(), a));
            }
            files.push(s.state);
        }
        files.sort_by(|a, b| a.path.cmp(&b.path));
        // Identical content at several paths is analyzed once per digest in the store.
        facts.sort_by(|a, b| a.0.cmp(&b.0));
        facts.dedup_by(|a, b| a.0 == b.0);

        let mut caveats = Vec::new();
        let mut warnings = Vec::new();
        let (repository_digest, tracked_files) = match &previous {
            Some(p) if incremental => {
                // Flags live in the index, which did not change: keep the snapshot's caveats,
                // except a past scan race, which this scan re-decides.
                caveats = p
                    .caveats
                    .iter()
                    .filter(|c| *c != "changed_during_scan")
                    .cloned()
                    .collect();
                if unstable > 0 {
                    caveats.push("changed_during_scan".into());
                }
                warnings.extend(scan_race_warning(unstable));
                warnings.extend(
                    caveat_list_warnings(&caveats)
                        .into_iter()
                        .filter(|w| w.code != "changed_during_scan"),
                );
                let digest = update_repository_digest(&p.repository_digest, &prev_files, &files);
                (digest, store.file_count_at(p)?)
            }
            _ => {
                caveat_warnings(&files, unstable, &mut caveats, &mut warnings);
                (repository_digest(&files), files.len() as u64)
            }
        };
        warnings.extend(non_utf8_warning(
            files.iter().map(|f| &f.path).chain(&basis.untracked),
        ));

        let old_repo = previous.as_ref().map(|p| RepoFacts {
            branch: p.branch.as_deref(),
            head: p.head.as_deref(),
            dirty: p.dirty,
            untracked: &p.untracked,
        });
        let new_repo = RepoFacts {
            branch: basis.branch.as_deref(),
            head: basis.head.as_deref(),
            dirty: basis.dirty(),
            untracked: &basis.untracked,
        };
        let unchanged = !full
            && previous.as_ref().is_some_and(|p| {
                p.repository_digest == repository_digest
                    && p.status_digest == basis.status_digest
                    && p.index_digest == basis.index_digest
                    && p.caveats == caveats
                    && old_repo.as_ref() == Some(&new_repo)
            });
        let (mut items, changed_paths): (Vec<DeltaItem>, HashSet<Vec<u8>>) = match (&old_repo, full)
        {
            (Some(old), false) => delta::compute(&prev_files, &files, old, &new_repo),
            _ => (vec![], files.iter().map(|f| f.path.clone()).collect()),
        };
        if !full && !changed_paths.is_empty() {
            items.extend(structural_delta(
                &store,
                &prev_files,
                &files,
                &changed_paths,
                &facts,
            )?);
        }
        let recent_commits = match &previous {
            Some(p) if p.head == basis.head => p.recent_commits.clone(),
            _ if basis.head.is_some() => self.git.recent_commits(RECENT_COMMITS)?,
            _ => vec![],
        };
        let git_processes = self.charge_git();
        let operation = OperationRecord {
            kind: kind.into(),
            duration_us: started.elapsed().as_micros() as i64,
            scan_duration_us: Some(scan_us),
            git_processes: Some(git_processes as i64),
            files_scanned: Some(files_scanned as i64),
            bytes_scanned: Some(bytes as i64),
            files_analyzed: Some((facts.len() as u64 + streamed) as i64),
            changed_files: Some(if full {
                tracked_files
            } else {
                changed_paths.len() as u64
            } as i64),
        };
        use std::os::unix::ffi::OsStrExt;
        let snapshot = (!unchanged).then(|| NewSnapshot {
            branch: basis.branch.clone(),
            head: basis.head.clone(),
            dirty: basis.dirty(),
            status_digest: basis.status_digest.clone(),
            index_digest: basis.index_digest.clone(),
            repository_digest: repository_digest.clone(),
            untracked: &basis.untracked,
            recent_commits: &recent_commits,
            caveats: &caveats,
            observed_at: basis.observed_at.clone(),
            file_count: tracked_files,
            files: &files,
            changed_paths: &changed_paths,
            delta: &items,
        });
        // An index that is empty while files exist (a cache from before search existed) is
        // rebuilt whole.
        let reindex = tracked_files > 0 && store.search_is_empty()?;
        // An incremental refresh holds only the rows it looked at; a rebuild needs them all.
        let merged: Option<Vec<FileState>> = match &previous {
            Some(p) if reindex && incremental => {
                let seen: HashSet<&[u8]> = files.iter().map(|f| f.path.as_slice()).collect();
                let mut all: Vec<FileState> = store
                    .files_at(p)?
                    .into_iter()
                    .filter(|f| !seen.contains(f.path.as_slice()))
                    .collect();
                all.extend(files.iter().cloned());
                all.sort_by(|a, b| a.path.cmp(&b.path));
                Some(all)
            }
            _ => None,
        };
        let targets: &[FileState] = merged.as_deref().unwrap_or(&files);
        let search = if unchanged && !reindex {
            None
        } else {
            Some(search_update(
                targets,
                &changed_paths,
                &facts,
                full || reindex,
            ))
        };
        let published = store.publish(
            &self.repo_id,
            self.root.as_os_str().as_bytes(),
            Publish {
                expected: previous.as_ref().map(|p| p.seq),
                new_epoch,
                snapshot,
                index_stat: basis.index_sig.clone(),
                stat_updates: &stat_updates,
                facts: &facts,
                search,
                operation,
            },
        )?;
        let freshness = if !caveats.is_empty() {
            Freshness::PossiblyStale
        } else if basis.dirty() {
            Freshness::DirtyButIndexed
        } else {
            Freshness::Current
        };
        if !unchanged && published.snapshot as usize % PRUNE_SLACK == 0 {
            // Retention by the documented rule only; a failure here loses nothing.
            let unpinned = store.snapshot_seqs()?.len();
            if unpinned > KEEP_RECENT + PRUNE_SLACK {
                if let Err(e) = store.prune(KEEP_RECENT, false) {
                    self.notices
                        .borrow_mut()
                        .push(format!("automatic prune skipped: {e}"));
                }
            }
        }
        Ok(RefreshOutput {
            schema_version: "repocue/refresh-1".into(),
            operation: kind.into(),
            published: !unchanged,
            repository: self.repository_info(&basis),
            epoch: seq_id("epoch", published.epoch),
            snapshot: seq_id("snapshot", published.snapshot),
            previous_snapshot: previous.as_ref().map(|p| seq_id("snapshot", p.seq)),
            delta: published.delta.map(|d| seq_id("delta", d)),
            changes: count_changes(&items),
            freshness,
            tracked_files,
            files_scanned,
            bytes_scanned: bytes,
            files_analyzed: facts.len() as u64 + streamed,
            git_processes,
            duration_ms: started.elapsed().as_secs_f64() * 1000.0,
            warnings,
        })
    }

    /// Returns the Git processes started since the last charge (discovery is charged to the
    /// first operation of a service) and marks them charged.
    pub(crate) fn charge_git(&self) -> u32 {
        let n = self.git.processes() - self.charged.get();
        self.charged.set(self.git.processes());
        n
    }

    /// Brings the cache up to date for a read: initializes or refreshes when needed.
    ///
    /// Returns the store, the current snapshot, the live basis, its freshness assessment and
    /// warnings describing what was done.
    pub(crate) fn prepare_read(&self, refresh: bool) -> Result<ReadState> {
        let mut warnings = Vec::new();
        let store = self.open_store(refresh)?;
        let mut snapshot = match &store {
            Some(s) => s.current_snapshot()?,
            None => None,
        };
        if snapshot.is_none() {
            if !refresh {
                return Err(Error::NotInitialized);
            }
            let out = self.update(&Operation::Init)?;
            warnings.push(Warning::new(
                "initialized",
                format!(
                    "no cache existed: baseline {} of {} files recorded",
                    out.snapshot, out.tracked_files
                ),
            ));
            return self.read_after(warnings);
        }
        let store = store.expect("store exists when a snapshot exists");
        let snap = snapshot.take().expect("checked");
        let basis = self.git.capture_basis_since(known_index(&snap))?;
        let a = assess(&self.root, &snap, &store.unsettled_files_at(&snap)?, &basis)?;
        if a.freshness == Freshness::RefreshNeeded && refresh {
            let out = self.update(&Operation::Refresh)?;
            warnings.push(Warning::new(
                "refreshed",
                format!(
                    "cache was stale: refreshed to {} ({} files scanned)",
                    out.snapshot, out.files_scanned
                ),
            ));
            return self.read_after(warnings);
        }
        let mut all = a.warnings.clone();
        all.extend(warnings);
        all.extend(snapshot_path_warning(&store, &snap)?);
        Ok(ReadState {
            store,
            snapshot: snap,
            files: Default::default(),
            freshness: a.freshness,
            warnings: all,
        })
    }

    fn read_after(&self, warnings: Vec<Warning>) -> Result<ReadState> {
        let store = self.open_store(false)?.ok_or(Error::NotInitialized)?;
        let snap = store.current_snapshot()?.ok_or(Error::NotInitialized)?;
        // The update just captured the basis; its snapshot describes it, so no new capture.
        let freshness = if !snap.caveats.is_empty() {
            Freshness::PossiblyStale
        } else if snap.dirty {
            Freshness::DirtyButIndexed
        } else {
            Freshness::Current
        };
        let mut all = caveat_list_warnings(&snap.caveats);
        all.extend(warnings);
        all.extend(snapshot_path_warning(&store, &snap)?);
        Ok(ReadState {
            store,
            snapshot: snap,
            files: Default::default(),
            freshness,
            warnings: all,
        })
    }
}

/// The index signature and listing digest a snapshot was taken with, if remembered.
fn known_index(p: &SnapshotRow) -> Option<(&str, &str)> {
    Some((p.index_stat.as_deref()?, p.index_digest.as_str()))
}

/// What a read path works from.
pub(crate) struct ReadState {
    pub store: Store,
    pub snapshot: SnapshotRow,
    files: std::cell::OnceCell<Vec<FileState>>,
    pub freshness: Freshness,
    pub warnings: Vec<Warning>,
}

impl ReadState {
    /// Returns every file state of the snapshot, loaded on first use: views served from
    /// per-snapshot caches never pay for it.
    pub fn files(&self) -> Result<&[FileState]> {
        if let Some(f) = self.files.get() {
            return Ok(f);
        }
        let loaded = self.store.files_at(&self.snapshot)?;
        Ok(self.files.get_or_init(|| loaded))
    }
}

struct Plan {
    reused: Vec<FileState>,
    to_scan: Vec<ScanItem>,
    stat_updates: Vec<(Vec<u8>, crate::model::StatKey)>,
}

/// Decides which paths must be read again. Reuses a previous row when the index entry is the
/// same and the path was clean then and is clean now, or when it is dirty in the same way and
/// its stat data is unchanged.
fn plan_scan(
    index: &[IndexEntry],
    changed: &[StatusEntry],
    prev: &[FileState],
    full: bool,
    root: &Path,
) -> Plan {
    let status: HashMap<&[u8], &StatusEntry> =
        changed.iter().map(|c| (c.path.as_slice(), c)).collect();
    let prev: HashMap<&[u8], &FileState> = prev.iter().map(|f| (f.path.as_slice(), f)).collect();
    let mut plan = Plan {
        reused: vec![],
        to_scan: vec![],
        stat_updates: vec![],
    };
    for group in group_index(index) {
        let item = scan_item(&group, status.get(group[0].path.as_slice()).copied());
        let old = if full {
            None
        } else {
            prev.get(item.path.as_slice()).copied()
        };
        if let Some(old) = old.filter(|o| same_entry(o, &item)) {
            let hidden = item.assume_unchanged || item.skip_worktree;
            let clean_both = old.working_state == WorkingState::Clean
                && item.working_state == WorkingState::Clean;
            if clean_both && !hidden && old.index_mode != 0o160000 {
                plan.reused.push(old.clone());
                continue;
            }
            if old.index_mode == 0o160000 && old.working_state == item.working_state {
                plan.reused.push(old.clone());
                continue;
            }
            let live = scan::stat_of(root, &item.path);
            if old.working_state == item.working_state && old.stat.is_some() && live == old.stat {
                plan.reused.push(old.clone());
                continue;
            }
        }
        plan.to_scan.push(item);
    }
    plan
}

fn same_entry(old: &FileState, item: &ScanItem) -> bool {
    old.index_mode == item.index_mode
        && old.index_oid == item.index_oid
        && old.assume_unchanged == item.assume_unchanged
        && old.skip_worktree == item.skip_worktree
}

/// Groups index entries of the same path (conflict stages) together.
fn group_index(index: &[IndexEntry]) -> Vec<Vec<&IndexEntry>> {
    let mut groups: Vec<Vec<&IndexEntry>> = Vec::new();
    for e in index {
        match groups.last_mut() {
            Some(g) if g[0].path == e.path => g.push(e),
            _ => groups.push(vec![e]),
        }
    }
    groups
}

fn scan_item(group: &[&IndexEntry], status: Option<&StatusEntry>) -> ScanItem {
    // For a conflict, describe "ours" (stage 2) when present.
    let main = group
        .iter()
        .find(|e| e.stage == 0 || e.stage == 2)
        .unwrap_or(&group[0]);
    let conflicted = group.iter().any(|e| e.stage != 0);
    ScanItem {
        path: main.path.clone(),
        index_mode: main.mode,
        index_oid: main.oid.clone(),
        working_state: if conflicted {
            WorkingState::Conflicted
        } else {
            working_state(status)
        },
        assume_unchanged: main.assume_unchanged,
        skip_worktree: main.skip_worktree,
    }
}

fn working_state(status: Option<&StatusEntry>) -> WorkingState {
    let Some(s) = status else {
        return WorkingState::Clean;
    };
    if s.unmerged {
        return WorkingState::Conflicted;
    }
    match (s.x != b'.', s.y != b'.') {
        _ if s.y == b'D' => WorkingState::Deleted,
        (true, true) => WorkingState::StagedUnstaged,
        (true, false) => WorkingState::Staged,
        (false, true) => WorkingState::Unstaged,
        (false, false) => WorkingState::Clean,
    }
}

/// The result of comparing a snapshot with the live repository.
pub(crate) struct Assessment {
    pub freshness: Freshness,
    pub reasons: Vec<String>,
    pub changed: Vec<Vec<u8>>,
    pub warnings: Vec<Warning>,
}

/// Compares the live basis and the cheaply observable state of dirty paths (stat data, then
/// content digest when stat changed) with a snapshot. Git's path lists alone are not enough:
/// a dirty file can change again, and a revert can make Git's answer match an older state.
pub(crate) fn assess(
    root: &Path,
    snap: &SnapshotRow,
    files: &[FileState],
    basis: &Basis,
) -> Result<Assessment> {
    let mut reasons = Vec::new();
    let mut changed: Vec<Vec<u8>> = Vec::new();
    if snap.branch != basis.branch {
        reasons.push("branch changed".into());
    }
    if snap.head != basis.head {
        reasons.push("HEAD moved".into());
    }
    if snap.index_digest != basis.index_digest {
        reasons.push("index changed".into());
    }
    if snap.status_digest != basis.status_digest {
        reasons.push("git status changed".into());
        let by_path: HashMap<&[u8], &FileState> =
            files.iter().map(|f| (f.path.as_slice(), f)).collect();
        for c in &basis.changed {
            let ws = working_state(Some(c));
            if by_path
                .get(c.path.as_slice())
                .is_none_or(|f| f.working_state != ws)
            {
                changed.push(c.path.clone());
            }
        }
        let live: HashSet<&[u8]> = basis.changed.iter().map(|c| c.path.as_slice()).collect();
        for f in files {
            if f.working_state != WorkingState::Clean && !live.contains(f.path.as_slice()) {
                changed.push(f.path.clone());
            }
        }
    }
    if snap.untracked != basis.untracked {
        reasons.push("untracked paths changed".into());
    }
    // Dirty (and hidden) paths: Git's answer can stay the same while their content changes.
    for f in files
        .iter()
        .filter(|f| f.working_state != WorkingState::Clean || f.assume_unchanged || f.skip_worktree)
    {
        if f.index_mode == 0o160000 {
            continue;
        }
        let live = scan::stat_of(root, &f.path);
        if live.is_some() && live == f.stat {
            continue;
        }
        let now = scan::digest_of(root, &f.path)?;
        let same = match (&now, &f.digest) {
            (None, None) => true,
            (Some((d, _)), Some(old)) => d == old,
            _ => false,
        };
        if !same && !changed.contains(&f.path) {
            changed.push(f.path.clone());
        }
    }
    if !changed.is_empty() && reasons.is_empty() {
        reasons.push("content of a dirty path changed".into());
    }
    changed.sort();
    changed.dedup();
    let mut warnings = caveat_list_warnings(&snap.caveats);
    let freshness = if !reasons.is_empty() || !changed.is_empty() {
        Freshness::RefreshNeeded
    } else if !snap.caveats.is_empty() {
        reasons.push(format!("snapshot caveats: {}", snap.caveats.join(", ")));
        Freshness::PossiblyStale
    } else if basis.dirty() {
        reasons.push("indexed state equals the dirty working tree".into());
        Freshness::DirtyButIndexed
    } else {
        reasons.push("indexed state equals the clean working tree".into());
        Freshness::Current
    };
    if freshness == Freshness::RefreshNeeded {
        warnings.push(Warning::counted(
            "refresh_needed",
            changed.len() as u64,
            format!(
                "live repository differs from the snapshot: {}",
                reasons.join(", ")
            ),
        ));
    }
    Ok(Assessment {
        freshness,
        reasons,
        changed,
        warnings,
    })
}

fn caveat_warnings(
    files: &[FileState],
    unstable: u64,
    caveats: &mut Vec<String>,
    warnings: &mut Vec<Warning>,
) {
    let assumed = files.iter().filter(|f| f.assume_unchanged).count() as u64;
    let skipped = files.iter().filter(|f| f.skip_worktree).count() as u64;
    if assumed > 0 {
        caveats.push("assume_unchanged".into());
    }
    if skipped > 0 {
        caveats.push("skip_worktree".into());
    }
    if unstable > 0 {
        caveats.push("changed_during_scan".into());
    }
    warnings.extend(scan_race_warning(unstable));
    warnings.extend(
        caveat_list_warnings(caveats)
            .into_iter()
            .filter(|w| w.code != "changed_during_scan"),
    );
}

fn scan_race_warning(unstable: u64) -> Option<Warning> {
    (unstable > 0).then(|| {
        Warning::counted(
            "changed_during_scan",
            unstable,
            "files changed while being read; run `repocue refresh` again when the repository is idle",
        )
    })
}

fn caveat_list_warnings(caveats: &[String]) -> Vec<Warning> {
    caveats
        .iter()
        .map(|c| match c.as_str() {
            "assume_unchanged" => Warning::new(
                "assume_unchanged",
                "index entries marked assume-unchanged: Git may hide their changes; RepoCue re-checks them by stat and digest",
            ),
            "skip_worktree" => Warning::new(
                "skip_worktree",
                "index entries marked skip-worktree (sparse checkout): their working-tree state is not what Git reports",
            ),
            other => Warning::new(other, "the snapshot may not match the repository exactly"),
        })
        .collect()
}

/// The `non_utf8_path` warning of a snapshot, computed once per snapshot and cached.
fn snapshot_path_warning(store: &Store, snap: &SnapshotRow) -> Result<Option<Warning>> {
    if let Some(json) = store.view_cache(snap.seq, "non_utf8")? {
        if let Ok(w) = serde_json::from_str(&json) {
            return Ok(w);
        }
    }
    let files = store.files_at(snap)?;
    let w = non_utf8_warning(files.iter().map(|f| &f.path).chain(&snap.untracked));
    let json = serde_json::to_string(&w).expect("warning serializes");
    // A busy or read-only cache only costs the recomputation next time.
    let _ = store.put_view_cache(snap.seq, "non_utf8", &json);
    Ok(w)
}

fn non_utf8_warning<'a>(paths: impl Iterator<Item = &'a Vec<u8>>) -> Option<Warning> {
    let bad: Vec<String> = paths
        .filter(|p| !paths::is_utf8(p))
        .map(|p| paths::display(p))
        .collect();
    (!bad.is_empty()).then(|| {
        Warning::counted(
            "non_utf8_path",
            bad.len() as u64,
            format!(
                "paths that are not UTF-8 are shown with \\xNN escapes: {}",
                bad.iter().take(5).cloned().collect::<Vec<_>>().join(", ")
            ),
        )
    })
}

fn working_counts(basis: &Basis) -> WorkingCounts {
    let mut c = WorkingCounts {
        untracked: basis.untracked.len() as u64,
        ..Default::default()
    };
    for e in &basis.changed {
        match working_state(Some(e)) {
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

fn count_changes(items: &[DeltaItem]) -> ChangeCounts {
    let mut c = ChangeCounts::default();
    for i in items {
        match i.op.as_str() {
            delta::FILE_ADDED => c.added += 1,
            delta::FILE_DELETED => c.deleted += 1,
            delta::FILE_RESTORED => c.restored += 1,
            delta::FILE_CONTENT_CHANGED => c.content_changed += 1,
            delta::FILE_METADATA_CHANGED => c.metadata_changed += 1,
            delta::FILE_STATE_CHANGED => c.state_changed += 1,
            op if op.starts_with("repository.") => c.repository += 1,
            _ => c.structural += 1,
        }
    }
    c
}

/// Digest over every file's indexed state (stat data excluded): the sum modulo 2^256 of one
/// SHA-256 per file. A sum is order-free and updatable: a refresh that touched three files
/// subtracts their old hashes and adds their new ones instead of rehashing every file.
pub fn repository_digest(files: &[FileState]) -> String {
    let mut acc = [0u8; 32];
    for f in files {
        add256(&mut acc, &file_hash(f), false);
    }
    git::hex(&acc)
}

/// Updates a [`repository_digest`] for files whose state went from `old` to `new` (each the
/// same set of paths' rows before and after, absent rows simply missing).
fn update_repository_digest(prev: &str, old: &[FileState], new: &[FileState]) -> String {
    let mut acc = [0u8; 32];
    for (i, byte) in acc.iter_mut().enumerate() {
        *byte = prev
            .get(i * 2..i * 2 + 2)
            .and_then(|h| u8::from_str_radix(h, 16).ok())
            .unwrap_or(0);
    }
    for f in old {
        add256(&mut acc, &file_hash(f), true);
    }
    for f in new {
        add256(&mut acc, &file_hash(f), false);
    }
    git::hex(&acc)
}

fn file_hash(f: &FileState) -> [u8; 32] {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    h.update((f.path.len() as u64).to_le_bytes());
    h.update(&f.path);
    let line = format!(
        "|{:o}|{}|{:?}|{:?}|{:?}|{}|{:?}|{}|{}|{}|{}",
        f.index_mode,
        f.index_oid,
        f.worktree_mode,
        f.size,
        f.digest,
        f.file_type.as_str(),
        f.language,
        f.is_document,
        f.working_state.as_str(),
        f.assume_unchanged,
        f.skip_worktree
    );
    h.update(line.as_bytes());
    h.finalize().into()
}

/// Adds (or subtracts) two 256-bit big-endian numbers in place, modulo 2^256.
fn add256(acc: &mut [u8; 32], x: &[u8; 32], subtract: bool) {
    let mut carry = 0i16;
    for i in (0..32).rev() {
        let v = if subtract {
            acc[i] as i16 - x[i] as i16 - carry
        } else {
            acc[i] as i16 + x[i] as i16 + carry
        };
        let (byte, c) = if subtract {
            if v < 0 {
                (v + 256, 1)
            } else {
                (v, 0)
            }
        } else if v > 255 {
            (v - 256, 1)
        } else {
            (v, 0)
        };
        acc[i] = byte as u8;
        carry = c;
    }
}

impl Service {
    /// Returns recorded measurements and the database size now.
    pub fn metrics(&self) -> Result<MetricsOutput> {
        let store = self.open_store(false)?.ok_or(Error::NotInitialized)?;
        let ops = store.operations()?;
        let cues = store.cue_metrics()?;
        let snap = |s: Option<i64>| s.map(|s| seq_id("snapshot", s));
        let mut kinds: Vec<&str> = ops.iter().map(|o| o.record.kind.as_str()).collect();
        kinds.sort_unstable();
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
                    kind: k.into(),
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
            repository: self.repo_id.clone(),
            database_path: self.db_path().display().to_string(),
            database_bytes: store.size_bytes(),
            epochs: store
                .epochs()?
                .into_iter()
                .map(|e| EpochInfo {
                    id: seq_id("epoch", e.seq),
                    status: e.status,
                    label: e.label,
                    reason: e.reason,
                    created_at: e.created_at,
                })
                .collect(),
            snapshots: store
                .snapshot_seqs()?
                .into_iter()
                .map(|s| seq_id("snapshot", s))
                .collect(),
            current_snapshot: snap(store.repository()?.and_then(|r| r.current)),
            summary,
            operations_total: ops.len() as u64,
            operations: ops[recent(ops.len())..]
                .iter()
                .map(|o| OperationMetric {
                    kind: o.record.kind.clone(),
                    recorded_at: o.recorded_at.clone(),
                    published: o.published,
                    epoch: o.epoch.map(|e| seq_id("epoch", e)),
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
}

/// Returns the median (lower middle for even counts), `None` for no values.
fn median(mut v: Vec<i64>) -> Option<i64> {
    v.sort_unstable();
    (!v.is_empty()).then(|| v[(v.len() - 1) / 2])
}

/// Symbol and import operations for the changed paths, from the code facts of their old and
/// new digests.
pub(crate) fn structural_delta(
    store: &Store,
    old: &[FileState],
    new: &[FileState],
    changed: &HashSet<Vec<u8>>,
    fresh: &[(String, Analysis)],
) -> Result<Vec<DeltaItem>> {
    let digest_of = |files: &[FileState], p: &[u8]| {
        files
            .binary_search_by(|f| f.path.as_slice().cmp(p))
            .ok()
            .and_then(|i| files[i].digest.clone())
    };
    let mut paths: Vec<&Vec<u8>> = changed.iter().collect();
    paths.sort();
    let pairs: Vec<(&Vec<u8>, Option<String>, Option<String>)> = paths
        .into_iter()
        .map(|p| (p, digest_of(old, p), digest_of(new, p)))
        .collect();
    let wanted: Vec<&str> = pairs
        .iter()
        .flat_map(|(_, a, b)| [a.as_deref(), b.as_deref()])
        .flatten()
        .filter(|d| fresh.binary_search_by(|(k, _)| k.as_str().cmp(d)).is_err())
        .collect();
    let stored = store.facts(&wanted)?;
    let code = |d: &Option<String>| {
        let d = d.as_deref()?;
        let fresh = fresh
            .binary_search_by(|(k, _)| k.as_str().cmp(d))
            .ok()
            .map(|i| &fresh[i].1);
        fresh.or_else(|| stored.get(d))?.code.as_ref()
    };
    let changes: Vec<_> = pairs
        .iter()
        .filter(|(_, a, b)| a != b)
        .map(|(p, a, b)| ((*p).clone(), code(a), code(b)))
        .filter(|(_, a, b)| a.is_some() || b.is_some())
        .collect();
    Ok(delta::structural(&changes))
}

/// Index entries for the changed paths (every path for a new epoch).
fn search_update<'a>(
    files: &'a [FileState],
    changed: &HashSet<Vec<u8>>,
    fresh: &'a [(String, Analysis)],
    full: bool,
) -> crate::store::SearchUpdate<'a> {
    let add: Vec<&FileState> = files
        .iter()
        .filter(|f| (full || changed.contains(&f.path)) && f.exists())
        .collect();
    let mut remove: Vec<Vec<u8>> = if full {
        vec![]
    } else {
        changed.iter().cloned().collect()
    };
    remove.sort();
    crate::store::SearchUpdate {
        reset: full,
        remove,
        add,
        fresh,
    }
}

impl Service {
    /// Lists, pins (`Some(label)`, current snapshot unless `snapshot` is given) or deletes
    /// checkpoints.
    pub fn checkpoint(&self, action: CheckpointAction) -> Result<crate::output::CheckpointOutput> {
        use crate::output::{CheckpointInfo, CheckpointOutput};
        let mut store = self.open_store(false)?.ok_or(Error::NotInitialized)?;
        let info = |c: &crate::store::CheckpointRow| CheckpointInfo {
            id: seq_id("checkpoint", c.seq),
            snapshot: seq_id("snapshot", c.snapshot),
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
                    Some(id) => crate::model::parse_seq_id("snapshot", &id).ok_or_else(|| {
                        Error::InvalidArgument(format!("not a snapshot id: {id:?}"))
                    })?,
                    None => store.current_snapshot()?.ok_or(Error::NotInitialized)?.seq,
                };
                let cp = store.pin(seq, &label)?;
                (
                    "pin",
                    store.checkpoints()?.into_iter().find(|c| c.seq == cp),
                )
            }
            CheckpointAction::Delete { id } => {
                let seq = crate::model::parse_seq_id("checkpoint", &id).ok_or_else(|| {
                    Error::InvalidArgument(format!("not a checkpoint id: {id:?}"))
                })?;
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
    pub fn prune(&self, keep_recent: usize, dry_run: bool) -> Result<crate::output::PruneOutput> {
        let mut store = self.open_store(false)?.ok_or(Error::NotInitialized)?;
        let plan = store.prune(keep_recent, dry_run)?;
        let ids = |v: &[i64]| v.iter().map(|s| seq_id("snapshot", *s)).collect();
        Ok(crate::output::PruneOutput {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn file(path: &str, digest: &str) -> FileState {
        crate::model::sample_file(path, digest)
    }

    #[test]
    fn incremental_repository_digest_equals_a_full_one() {
        let before = vec![file("a", "1"), file("b", "2"), file("c", "3")];
        let after = vec![file("a", "1"), file("b", "22"), file("d", "4")];
        let full_before = repository_digest(&before);
        let updated = update_repository_digest(
            &full_before,
            &[file("b", "2"), file("c", "3")],
            &[file("b", "22"), file("d", "4")],
        );
        assert_eq!(updated, repository_digest(&after));
        assert_ne!(updated, full_before);
        // Order does not matter.
        let mut reversed = after.clone();
        reversed.reverse();
        assert_eq!(repository_digest(&reversed), repository_digest(&after));
    }
}
