//! Preparing a snapshot to read: the refresh-on-read policy, and the [`Reader`] every view
//! works from, with the snapshot's rows loaded on first use and per-snapshot derived values
//! cached in the store.

use std::cell::OnceCell;

use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::api::{Freshness, Warning, WarningCode};
use crate::config::AnalysisRules;
use crate::error::{Error, Result};
use crate::freshness;
use crate::git::Basis;
use crate::model::FileState;
use crate::refresh::{self, Operation};
use crate::repo::{Repo, Rules};
use crate::store::{SnapshotRow, Store};

/// Version of the values derived from a snapshot and cached with it (view caches). It names
/// the code that derives them: an upgraded binary misses the old entries and derives them
/// again instead of serving values an older version computed.
pub(crate) fn derived_version() -> String {
    format!(
        "{}+{}+{DERIVATION}",
        env!("CARGO_PKG_VERSION"),
        crate::analyze::analyzer_version()
    )
}

/// Version of how views derive their cached values from the facts (ranking rules, section
/// data): bump it with any change to them, so existing caches derive them again.
const DERIVATION: &str = "d275";

/// A snapshot prepared for reading: what every view is a function of.
pub(crate) struct Reader {
    pub store: Store,
    pub snapshot: SnapshotRow,
    files: OnceCell<Vec<FileState>>,
    all_files: OnceCell<Vec<FileState>>,
    /// The analysis rules in force: which untracked paths are secrets (tracked files carry
    /// their class).
    pub rules: AnalysisRules,
    pub freshness: Freshness,
    pub warnings: Vec<Warning>,
    /// Repository id and root directory name, as stored.
    pub repo_id: String,
    pub name: String,
}

impl Reader {
    /// A reader over a snapshot with its freshness and warnings.
    pub fn new(
        store: Store,
        snapshot: SnapshotRow,
        freshness: Freshness,
        warnings: Vec<Warning>,
        rules: AnalysisRules,
    ) -> Result<Reader> {
        let repo = store.repository()?.ok_or(Error::NotInitialized)?;
        let root = crate::paths::display(&repo.root);
        let name = root.rsplit('/').next().unwrap_or_default().to_owned();
        Ok(Reader {
            store,
            snapshot,
            files: OnceCell::new(),
            all_files: OnceCell::new(),
            rules,
            freshness,
            warnings,
            repo_id: repo.repo_id,
            name,
        })
    }

    /// Returns the file states of the snapshot that views may name: every class but
    /// `excluded` and `secret`. Loaded on first use: views served from per-snapshot caches
    /// never pay for it.
    pub fn files(&self) -> Result<&[FileState]> {
        if let Some(f) = self.files.get() {
            return Ok(f);
        }
        let mut loaded = self.store.files_at(&self.snapshot)?;
        loaded.retain(|f| f.class.listed());
        label_cpp_headers(&mut loaded);
        Ok(self.files.get_or_init(|| loaded))
    }

    /// Returns every tracked file state of the snapshot, excluded and secret files included:
    /// for counts, and for views that filter by class themselves.
    pub fn all_files(&self) -> Result<&[FileState]> {
        if let Some(f) = self.all_files.get() {
            return Ok(f);
        }
        let mut loaded = self.store.files_at(&self.snapshot)?;
        label_cpp_headers(&mut loaded);
        Ok(self.all_files.get_or_init(|| loaded))
    }

    /// Tells whether an untracked path is a secret by name (built-in names or
    /// `secret_patterns`): such paths are counted, never named.
    pub fn secret_untracked(&self, path: &[u8]) -> bool {
        crate::classify::is_secret_path(path, &self.rules)
    }

    /// What changed since the latest earlier snapshot of this epoch that cached a value under
    /// `key`, when no path came or went since: that snapshot's rows of the changed paths and
    /// this snapshot's rows of the same paths, both sorted by path. For values a snapshot can
    /// take from an earlier one's at the cost of these rows instead of every row (after a
    /// string of refreshes no cue read, the parent rarely has one). `None` when there is no
    /// such snapshot under the same rules, or a path was added, deleted or renamed since.
    pub fn changes_since_cached(&self, key: &str) -> Result<Option<EarlierChanges>> {
        let snap = &self.snapshot;
        let versioned = format!("{key}@{}", derived_version());
        let Some(since) = self.store.latest_cached_before(snap, &versioned)? else {
            return Ok(None);
        };
        let Some(before) = self.store.snapshot(since)? else {
            return Ok(None);
        };
        // Other faults: a file whose parse timed out then may have facts now (or lost them)
        // while its row stayed the same, so its rows alone do not tell what changed.
        if before.rules_digest != snap.rules_digest
            || before.faults != snap.faults
            || self.store.file_count_at(&before)? != self.store.file_count_at(snap)?
        {
            return Ok(None);
        }
        // Rows live at `since` that ended after it: the paths that changed, as they were. With
        // as many paths then as now, and each of them still there, no path came or went.
        let old = self.store.changed_since(snap, since)?;
        let paths: Vec<&[u8]> = old.iter().map(|f| f.path.as_slice()).collect();
        let new = self.store.files_by_paths(snap, &paths)?;
        let same_paths =
            new.len() == old.len() && old.iter().zip(&new).all(|(a, b)| a.path == b.path);
        Ok(same_paths.then_some(EarlierChanges { since, old, new }))
    }

    /// Tells whether this snapshot has a value cached under `key` by this version: whether
    /// [`Reader::cached`] would read it rather than compute it.
    pub fn is_cached(&self, key: &str) -> Result<bool> {
        let key = format!("{key}@{}", derived_version());
        Ok(self.store.view_cache(self.snapshot.seq, &key)?.is_some())
    }

    /// Returns the value another snapshot (`seq`) cached under `key`, if it has one that
    /// decodes.
    pub fn cached_at<T: DeserializeOwned>(&self, seq: i64, key: &str) -> Result<Option<T>> {
        let key = format!("{key}@{}", derived_version());
        Ok(self
            .store
            .view_cache(seq, &key)?
            .and_then(|json| serde_json::from_str(&json).ok()))
    }

    /// Returns a value derived from this snapshot, computed once and cached in the store under
    /// `key` and [`derived_version`]. A snapshot never changes, so entries never go stale;
    /// they are pruned with their snapshot. An entry that does not decode is recomputed.
    pub fn cached<T: Serialize + DeserializeOwned>(
        &self,
        key: &str,
        compute: impl FnOnce(&Reader) -> Result<T>,
    ) -> Result<T> {
        self.cached_as(key, false, compute)
    }

    /// Like [`Reader::cached`], for a value that later snapshots only ever take from the
    /// latest earlier snapshot that has one ([`Reader::changes_since_cached`]): storing it
    /// drops the older snapshots' values under the same key, which nothing reads any more
    /// (on git/git the overview's graph summary and the documents' code names are 164 KB per
    /// snapshot that ranked, kept until retention pruned the snapshot).
    pub fn cached_latest<T: Serialize + DeserializeOwned>(
        &self,
        key: &str,
        compute: impl FnOnce(&Reader) -> Result<T>,
    ) -> Result<T> {
        self.cached_as(key, true, compute)
    }

    /// A value derived from the project's documents alone (their code names, their links):
    /// this snapshot's own, else that of the latest earlier snapshot that cached one when no
    /// document changed since ([`Reader::changes_since_cached`]), else computed and cached here
    /// ([`Reader::cached_latest`], which drops the earlier ones: hence this snapshot's first).
    pub fn cached_from_documents<T: Serialize + DeserializeOwned>(
        &self,
        key: &str,
        compute: impl FnOnce(&Reader) -> Result<T>,
    ) -> Result<T> {
        if let Some(v) = self.cached_at(self.snapshot.seq, key)? {
            return Ok(v);
        }
        if let Some(changes) = self.changes_since_cached(key)? {
            let code_only = changes
                .old
                .iter()
                .chain(&changes.new)
                .all(|f| !f.is_document);
            if let Some(v) = code_only
                .then(|| self.cached_at(changes.since, key))
                .transpose()?
                .flatten()
            {
                return Ok(v);
            }
        }
        let v = compute(self)?;
        self.cached_latest(key, |_| Ok(v))
    }

    fn cached_as<T: Serialize + DeserializeOwned>(
        &self,
        key: &str,
        supersede: bool,
        compute: impl FnOnce(&Reader) -> Result<T>,
    ) -> Result<T> {
        let key = format!("{key}@{}", derived_version());
        if let Some(json) = self.store.view_cache(self.snapshot.seq, &key)? {
            if let Ok(v) = serde_json::from_str(&json) {
                return Ok(v);
            }
        }
        let v = compute(self)?;
        let json = serde_json::to_string(&v).expect("derived values serialize");
        // A busy or read-only cache only costs the recomputation next time.
        let _ = match supersede {
            true => self
                .store
                .put_view_cache_superseding(self.snapshot.seq, &key, &json),
            false => self.store.put_view_cache(self.snapshot.seq, &key, &json),
        };
        Ok(v)
    }
}

/// See [`Reader::changes_since_cached`].
pub(crate) struct EarlierChanges {
    /// The earlier snapshot.
    pub since: i64,
    /// Its rows of the changed paths.
    pub old: Vec<FileState>,
    /// This snapshot's rows of the same paths.
    pub new: Vec<FileState>,
}

/// A value built from the current snapshot as it was recorded, on another thread, while Git
/// computes the status that tells whether the snapshot still describes the live repository.
/// When it does (a warm read, the common case), the view is ready when the status is instead
/// of being built after it: on git/git an entity cue took 1.70x `git status` and takes 1.4x.
/// [`Ahead::take`] hands the value over only for a reader of the same snapshot with the same
/// freshness and warnings, from which building it again gives the same value; otherwise it is
/// dropped. Its only writes are a snapshot's derived values, which hold whatever the
/// snapshot's freshness, and best effort like every read's.
pub(crate) struct Ahead<T> {
    /// Joined when taken, or when dropped: no thread outlives the request that started it.
    handle: Option<std::thread::JoinHandle<Option<Built<T>>>>,
}

impl<T> Drop for Ahead<T> {
    fn drop(&mut self) {
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

/// Labels the `.h` headers of a C++ project C++: a header's extension names C, which C and C++
/// share, and fmt's `include/fmt/*.h` made it "C 26, Python 6" (the C++ dropped as the
/// least of the project's own languages). A project is C++ when its own C++ files (neither
/// tests nor examples: fmt's `test/c-test.c` tests its C API) outnumber its C sources;
/// git, redis and libuv, all `.c`, stay C. A function of the snapshot's rows, so every view
/// of one snapshot says the same; the extraction reads each header's content itself.
pub(crate) fn label_cpp_headers(files: &mut [FileState]) {
    let is_header = |p: &[u8]| p.len() > 2 && p[p.len() - 2..].eq_ignore_ascii_case(b".h");
    let own = |f: &FileState| {
        crate::analyze::importance::role(&f.path) == crate::analyze::importance::Role::Source
    };
    let (mut c, mut cpp) = (0usize, 0usize);
    for f in files.iter() {
        match f.language.as_deref() {
            Some("C") if !is_header(&f.path) && own(f) => c += 1,
            Some("C++") if own(f) => cpp += 1,
            _ => {}
        }
    }
    if cpp <= c {
        return;
    }
    for f in files {
        if f.language.as_deref() == Some("C") && is_header(&f.path) {
            f.language = Some("C++".to_owned());
        }
    }
}

/// What [`Ahead`] built, and from what.
struct Built<T> {
    seq: i64,
    freshness: Freshness,
    warnings: Vec<Warning>,
    value: T,
}

impl<T: Send + 'static> Ahead<T> {
    /// Starts building `build(reader)` for the current snapshot of the cache at `db`, under
    /// the analysis `rules` in force, with the freshness and warnings the snapshot has when
    /// the live repository matches it. `None` when no thread could be started.
    pub fn start(
        db: std::path::PathBuf,
        rules: AnalysisRules,
        build: impl FnOnce(&Reader) -> Result<T> + Send + 'static,
    ) -> Option<Ahead<T>> {
        let work = move || -> Option<Built<T>> {
            let store = Store::open(&db, false).ok()??;
            let snap = store.current_snapshot().ok()??;
            let freshness = freshness::of_snapshot(&snap.caveats, snap.dirty);
            let mut warnings = freshness::caveat_warnings(&snap.caveats, &snap.faults);
            let seq = snap.seq;
            let reader = Reader::new(store, snap, freshness, vec![], rules).ok()?;
            warnings.extend(path_warning(&reader).ok()?);
            let reader = Reader {
                warnings: warnings.clone(),
                ..reader
            };
            let value = build(&reader).ok()?;
            Some(Built {
                seq,
                freshness,
                warnings,
                value,
            })
        };
        let handle = std::thread::Builder::new()
            .name("repocue-ahead".into())
            .spawn(work)
            .ok()?;
        Some(Ahead {
            handle: Some(handle),
        })
    }

    /// Waits for the value built ahead and returns it if `reader` is over the snapshot it was
    /// built from, with the same freshness and warnings (a reader that refreshed first, or
    /// that found the live repository changed, is not).
    pub fn take(mut self, reader: &Reader) -> Option<T> {
        let built = self.handle.take()?.join().ok()??;
        let same = built.seq == reader.snapshot.seq
            && built.freshness == reader.freshness
            && built.warnings == reader.warnings;
        same.then_some(built.value)
    }
}

/// Brings the cache up to date for a read (initializes or refreshes when `refresh` allows and
/// the state needs it) and returns a reader over the current snapshot, with warnings that say
/// what was done and how far the snapshot describes the live repository.
pub(crate) fn prepare(repo: &Repo, refresh: bool) -> Result<Reader> {
    prepare_under(repo, refresh, || repo.rules())
}

/// [`prepare`], with the analysis rules in force as `rules` gives them, called where the read
/// needs them: for a caller that loaded them already.
pub(crate) fn prepare_under(
    repo: &Repo,
    refresh: bool,
    rules: impl FnOnce() -> Result<Rules>,
) -> Result<Reader> {
    let store = repo.open_store(refresh)?;
    let snapshot = match &store {
        Some(s) => s.current_snapshot()?,
        None => None,
    };
    let (Some(mut store), Some(snap)) = (store, snapshot) else {
        if !refresh {
            return Err(Error::NotInitialized);
        }
        let out = refresh::run_within(
            repo,
            &Operation::Init,
            Some(refresh::read_budget(&Operation::Init)),
        )?;
        let w = Warning::new(
            WarningCode::Initialized,
            format!(
                "no cache existed: baseline {} of {} files recorded",
                out.snapshot, out.tracked_files
            ),
        );
        return after_update(repo, w);
    };
    let rules = rules()?;
    let (a, basis) = assess_live(repo, &store, &snap, &rules, refresh)?;
    if a.freshness == Freshness::RefreshNeeded && refresh {
        // The refresh starts from the basis just compared: one `git status`, not two.
        let observed = refresh::Observed {
            seq: snap.seq,
            basis,
        };
        let w = match refresh::run_on(
            repo,
            &mut store,
            &Operation::Refresh,
            Some(refresh::read_budget(&Operation::Refresh)),
            Some(observed),
        ) {
            // Nothing changed but what an earlier read deferred: the cache was not stale.
            Ok(out) if !a.differs => Warning::new(
                WarningCode::Refreshed,
                format!(
                    "analysis an earlier read deferred continued: refreshed to {} ({} files scanned)",
                    out.snapshot, out.files_scanned
                ),
            ),
            Ok(out) => Warning::new(
                WarningCode::Refreshed,
                format!(
                    "cache was stale: refreshed to {} ({} files scanned)",
                    out.snapshot, out.files_scanned
                ),
            ),
            // Other writers kept publishing while this refresh ran: serve the newest of their
            // snapshots, with the freshness it has against the live repository now.
            Err(Error::Conflict { detail }) => return lost_race(repo, &detail),
            Err(e) => return Err(e),
        };
        return read_updated(repo, store, w);
    }
    let mut warnings = a.warnings;
    let reader = Reader::new(store, snap, a.freshness, vec![], rules.config.analysis)?;
    warnings.extend(path_warning(&reader)?);
    Ok(Reader { warnings, ..reader })
}

/// Compares the live repository with the reader's snapshot again, without refreshing: what a
/// view that reads working-tree files checks after reading them.
pub(crate) fn live_freshness(repo: &Repo, reader: &Reader) -> Result<Freshness> {
    let rules = repo.rules()?;
    Ok(
        assess_live(repo, &reader.store, &reader.snapshot, &rules, false)?
            .0
            .freshness,
    )
}

/// Compares the live repository (one Git basis capture, the snapshot's unsettled files read
/// again) with a snapshot; returns the basis too, for the refresh the answer may ask for.
/// With `foresee`, when that refresh may follow, the unsettled files that changed are
/// analyzed while Git computes the status ([`crate::scan::foresight`]).
fn assess_live(
    repo: &Repo,
    store: &Store,
    snap: &SnapshotRow,
    rules: &Rules,
    foresee: bool,
) -> Result<(freshness::Assessment, Basis)> {
    let unsettled = store.unsettled_files_at(snap)?;
    if foresee {
        crate::scan::foresight::start(&repo.root, &repo.db_path(), &unsettled);
    }
    let basis = repo.git.capture_basis_since(snap.known_index(), false)?;
    settle_index(store, snap, &basis);
    let content = freshness::changed_dirty_paths(&repo.root, &unsettled, &snap.faults);
    let a = freshness::assess(
        snap,
        &unsettled,
        &basis,
        content,
        &outdated(store, snap, rules)?,
    );
    Ok((a, basis))
}

/// Remembers the index file's new signature when a read listed the index because the file
/// changed, yet found the snapshot's entries: Git rewrites the file without changing them (a
/// plain `git status` refreshing its stat data does), and until a refresh published, every
/// later read listed the index again (a Git process and, on a 27,000-file repository, tens of
/// milliseconds). Best effort: a read never waits for a writer, and never fails for what only
/// spares later reads work (a cache on a read-only file system answers as before).
pub(crate) fn settle_index(store: &Store, snap: &SnapshotRow, basis: &Basis) {
    let Some(sig) = basis.index_sig.as_deref() else {
        return;
    };
    let relisted = basis.index_listed && basis.index_digest == snap.index_digest;
    if relisted && snap.index_stat.as_deref() != Some(sig) {
        let _ = store.settle_index_stat(snap.seq, sig, &snap.index_digest);
    }
}

/// What the cache derived from a snapshot that a refresh must derive again: classes under
/// other analysis rules, a search index awaiting its rebuild (after a cache upgrade), facts an
/// older analyzer derived (after a binary upgrade: its symbols and ranking inputs would be
/// served as current until some file changed).
pub(crate) fn outdated(
    store: &Store,
    snap: &SnapshotRow,
    rules: &Rules,
) -> Result<Vec<&'static str>> {
    let mut out = Vec::new();
    if !rules.describe(snap) {
        out.push("analysis configuration changed");
    }
    if store.search_needs_rebuild()? {
        out.push("search index awaits its rebuild");
    }
    let analyzer = crate::analyze::analyzer_version();
    if crate::analyze::enabled() && store.facts_checked()?.as_deref() != Some(analyzer) {
        out.push("facts were derived by another analyzer version");
    }
    Ok(out)
}

/// The reader after a refresh that lost every race to other writers: the current snapshot
/// (theirs), assessed against the live repository again, never claimed fresher than it is.
fn lost_race(repo: &Repo, detail: &str) -> Result<Reader> {
    let store = repo.open_store(false)?.ok_or(Error::NotInitialized)?;
    let snap = store.current_snapshot()?.ok_or(Error::NotInitialized)?;
    let rules = repo.rules()?;
    let (a, _) = assess_live(repo, &store, &snap, &rules, false)?;
    let mut warnings = a.warnings;
    warnings.push(Warning::new(
        WarningCode::RefreshLostRace,
        format!("other processes published while this refresh ran ({detail}): serving their newest snapshot"),
    ));
    let reader = Reader::new(store, snap, a.freshness, vec![], rules.config.analysis)?;
    warnings.extend(path_warning(&reader)?);
    Ok(Reader { warnings, ..reader })
}

/// The reader right after an update: the update just captured the basis and its snapshot
/// describes it, so no new capture.
fn after_update(repo: &Repo, done: Warning) -> Result<Reader> {
    let store = repo.open_store(false)?.ok_or(Error::NotInitialized)?;
    read_updated(repo, store, done)
}

/// [`after_update`] through the connection the update published with.
fn read_updated(repo: &Repo, store: Store, done: Warning) -> Result<Reader> {
    let snap = store.current_snapshot()?.ok_or(Error::NotInitialized)?;
    let fresh = freshness::of_snapshot(&snap.caveats, snap.dirty);
    let mut warnings = freshness::caveat_warnings(&snap.caveats, &snap.faults);
    warnings.push(done);
    let rules = repo.rules()?.config.analysis;
    let reader = Reader::new(store, snap, fresh, vec![], rules)?;
    warnings.extend(path_warning(&reader)?);
    Ok(Reader { warnings, ..reader })
}

/// The `non_utf8_path` warning of a snapshot. Its tracked paths that are not UTF-8 are
/// computed once per snapshot and cached, or taken from an earlier snapshot's when no path
/// came or went since and no changed path became (or stopped being) one a view may show.
fn path_warning(reader: &Reader) -> Result<Option<Warning>> {
    const KEY: &str = "non_utf8_tracked";
    // Only paths a view may show: excluded and secret ones are never rendered.
    let tracked: Vec<Vec<u8>> = reader.cached(KEY, |r| {
        if let Some(c) = r.changes_since_cached(KEY)? {
            let same = c.old.iter().zip(&c.new);
            if same
                .clone()
                .all(|(a, b)| a.class.listed() == b.class.listed())
            {
                if let Some(v) = r.cached_at(c.since, KEY)? {
                    return Ok(v);
                }
            }
        }
        let files = r.files()?.iter();
        Ok(files
            .filter(|f| !crate::paths::is_utf8(&f.path))
            .map(|f| f.path.clone())
            .collect())
    })?;
    let untracked = reader.snapshot.untracked.iter();
    Ok(freshness::non_utf8_warning(
        tracked
            .iter()
            .chain(untracked.filter(|p| !reader.secret_untracked(p))),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{git, raw_db, temp_repo};

    fn commit_change(t: &crate::testing::TempRepo, content: &str) {
        std::fs::write(t.repo.root.join("a.txt"), content).unwrap();
        git(&t.repo.root, &["commit", "-q", "-am", content]);
    }

    #[test]
    fn cached_values_are_keyed_by_the_deriving_version() {
        let t = temp_repo(&[("a.txt", "one\n")]);
        let reader = prepare(&t.repo, true).unwrap();
        let seq = reader.snapshot.seq;
        // An entry an older binary wrote under the same name is not served.
        reader
            .store
            .put_view_cache(seq, "answer@0.0.0+old", "41")
            .unwrap();
        reader.store.put_view_cache(seq, "answer", "40").unwrap();
        let mut computed = 0;
        let v: u32 = reader
            .cached("answer", |_| {
                computed += 1;
                Ok(42)
            })
            .unwrap();
        assert_eq!((v, computed), (42, 1));
        // The current version's entry is served from now on.
        let v: u32 = reader.cached("answer", |_| Ok(0)).unwrap();
        assert_eq!(v, 42);
    }

    #[test]
    fn view_cache_rows_are_pruned_with_their_snapshot() {
        let t = temp_repo(&[("a.txt", "one\n")]);
        prepare(&t.repo, true).unwrap();
        commit_change(&t, "two\n");
        let middle = prepare(&t.repo, true).unwrap();
        assert_eq!(middle.snapshot.seq, 2);
        let _: u32 = middle.cached("answer", |_| Ok(7)).unwrap();
        commit_change(&t, "three\n");
        let mut current = prepare(&t.repo, true).unwrap();
        assert_eq!(current.snapshot.seq, 3);
        let count = |seq: i64| -> i64 {
            raw_db(&t.repo)
                .query_row(
                    "SELECT count(*) FROM view_cache WHERE snapshot = ?1",
                    [seq],
                    |r| r.get(0),
                )
                .unwrap()
        };
        assert!(count(2) >= 1);
        let plan = current
            .store
            .prune(0, false, crate::store::lifecycle::Sweep::Full)
            .unwrap();
        assert_eq!(plan.removed, [2]);
        assert_eq!(count(2), 0, "pruning removed the snapshot's cached values");
    }

    /// A value only the latest snapshot's is read of replaces the earlier snapshots' under its
    /// key, and only under its key; `changes_since_cached` then starts from the latest one.
    #[test]
    fn a_latest_only_value_replaces_earlier_snapshots_values() {
        let t = temp_repo(&[("a.txt", "one\n")]);
        let first = prepare(&t.repo, true).unwrap();
        let _: u32 = first.cached_latest("summary", |_| Ok(1)).unwrap();
        let _: u32 = first.cached("answer", |_| Ok(1)).unwrap();
        commit_change(&t, "two\n");
        let second = prepare(&t.repo, true).unwrap();
        let _: u32 = second.cached("answer", |_| Ok(2)).unwrap();
        let rows = |view: &str| -> Vec<i64> {
            let db = raw_db(&t.repo);
            let mut stmt = db
                .prepare("SELECT snapshot FROM view_cache WHERE view LIKE ?1 ORDER BY snapshot")
                .unwrap();
            let found = stmt.query_map([format!("{view}@%")], |r| r.get(0)).unwrap();
            found.map(Result::unwrap).collect()
        };
        assert_eq!(rows("summary"), [1]);
        let _: u32 = second.cached_latest("summary", |_| Ok(2)).unwrap();
        assert_eq!(
            rows("summary"),
            [2],
            "the earlier snapshot's value is dropped"
        );
        assert_eq!(rows("answer"), [1, 2], "other keys keep theirs");
        // A snapshot that has one already keeps it, and still drops the older ones.
        let _: u32 = second.cached_latest("summary", |_| Ok(3)).unwrap();
        assert_eq!(second.cached_at::<u32>(2, "summary").unwrap(), Some(2));
        commit_change(&t, "three\n");
        let third = prepare(&t.repo, true).unwrap();
        let since = third
            .changes_since_cached("summary")
            .unwrap()
            .unwrap()
            .since;
        assert_eq!(since, 2);
    }

    #[test]
    fn a_stale_snapshot_is_refreshed_on_read_and_served_as_is_without_refresh() {
        let t = temp_repo(&[("a.txt", "one\n")]);
        let first = prepare(&t.repo, true).unwrap();
        assert_eq!(first.warnings[0].code, WarningCode::Initialized);
        assert_eq!(first.freshness, Freshness::Current);
        commit_change(&t, "two\n");
        let stale = prepare(&t.repo, false).unwrap();
        assert_eq!(stale.freshness, Freshness::RefreshNeeded);
        assert_eq!(stale.snapshot.seq, 1);
        assert_eq!(stale.warnings[0].code, WarningCode::RefreshNeeded);
        let fresh = prepare(&t.repo, true).unwrap();
        assert_eq!(fresh.snapshot.seq, 2);
        assert_eq!(fresh.freshness, Freshness::Current);
        assert_eq!(fresh.warnings[0].code, WarningCode::Refreshed);
    }

    /// After a binary upgrade the stored facts are an older analyzer's: no snapshot is current
    /// until a refresh derived them again, and a refreshing read does.
    #[test]
    fn facts_of_another_analyzer_make_a_read_refresh() {
        let t = temp_repo(&[("lib.py", "def run():\n    pass\n")]);
        prepare(&t.repo, true).unwrap();
        let db = raw_db(&t.repo);
        db.execute_batch(
            "UPDATE content_facts SET analyzer = 'a0+s0';
             UPDATE settings SET value = 'a0+s0' WHERE name = 'facts_checked';",
        )
        .unwrap();
        drop(db);
        let stale = prepare(&t.repo, false).unwrap();
        assert_eq!(stale.freshness, Freshness::RefreshNeeded);
        assert!(
            format!("{:?}", stale.warnings).contains("another analyzer version"),
            "{:?}",
            stale.warnings
        );
        drop(stale);
        let fresh = prepare(&t.repo, true).unwrap();
        assert_eq!(fresh.freshness, Freshness::Current, "{:?}", fresh.warnings);
        drop(fresh);
        let analyzers: Vec<String> = {
            let db = raw_db(&t.repo);
            let mut stmt = db
                .prepare("SELECT DISTINCT analyzer FROM content_facts")
                .unwrap();
            let rows = stmt.query_map([], |r| r.get(0)).unwrap();
            rows.map(Result::unwrap).collect()
        };
        assert_eq!(analyzers, [crate::analyze::analyzer_version()]);
        assert_eq!(
            prepare(&t.repo, false).unwrap().freshness,
            Freshness::Current
        );
    }
}
