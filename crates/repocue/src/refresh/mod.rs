//! Refresh: a pipeline of values, one stage per module.
//!
//! ```text
//! basis::capture ─► plan::plan_scan ─► classes::assign ─► outcome::scan ─► changes::derive ─► publish::publish
//!   (Start)           (Plan)            (Plan, classed)     (ScanOutcome)     (Changes)          (RefreshOutput)
//! ```
//!
//! The configuration is loaded first: an invalid file fails the operation before the cache is
//! opened, so nothing is written.
//!
//! Each stage takes the previous stages' values and returns its own; the pure parts are unit
//! tested on in-memory data, the I/O (Git, the work tree, SQLite) stays at the stage edges.

pub(crate) mod basis;
pub(crate) mod changes;
pub(crate) mod classes;
pub(crate) mod outcome;
pub(crate) mod plan;
pub(crate) mod publish;

use std::time::{Duration, Instant};

use crate::api::{Commit, RefreshOutput};
use crate::error::{Error, Result};
use crate::repo::{Repo, Rules};
use crate::store::Store;

pub(crate) use basis::Observed;
pub use basis::Operation;
pub use publish::KEEP_RECENT;

/// How many recent commits a snapshot keeps for overviews.
const RECENT_COMMITS: usize = 10;
/// How often a publish that lost the race to another writer is retried.
const PUBLISH_ATTEMPTS: usize = 4;

/// Runs a baseline, refresh or rebaseline and publishes a snapshot when state changed. A
/// publish that lost the race to another writer adopts the winner's snapshot when that was
/// observed after this operation was asked for (it describes the repository at least as
/// recently as the caller asked), and is retried from a new basis otherwise.
pub(crate) fn run(repo: &Repo, op: &Operation) -> Result<RefreshOutput> {
    run_within(repo, op, None)
}

/// How long the baseline a first read runs (a cue, a search or a status into an empty cache)
/// may spend analyzing content: it answers from the files analyzed by then (the project's own
/// code and documents first, shallow paths first) and says the rest is `deferred`. Explicit
/// `init`, `refresh` and `rebaseline` analyze everything.
pub(crate) const FIRST_READ_ANALYSIS_BUDGET: Duration = Duration::from_millis(300);

/// How long a refresh a later read runs may spend analyzing: it carries deferred analysis
/// on (and bounds the wait after a checkout that changed thousands of files).
pub(crate) const READ_ANALYSIS_BUDGET: Duration = Duration::from_millis(1000);

/// The analysis budget of a refresh a read runs: [`FIRST_READ_ANALYSIS_BUDGET`] for a
/// baseline, [`READ_ANALYSIS_BUDGET`] otherwise, or `REPOCUE_TEST_ANALYSIS_BUDGET_MS` for
/// both in tests.
pub(crate) fn read_budget(op: &Operation) -> Duration {
    let budget = match op {
        Operation::Refresh => READ_ANALYSIS_BUDGET,
        _ => FIRST_READ_ANALYSIS_BUDGET,
    };
    std::env::var("REPOCUE_TEST_ANALYSIS_BUDGET_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .map_or(budget, Duration::from_millis)
}

/// [`run`], analyzing content for at most `budget` from the start of the scan.
pub(crate) fn run_within(
    repo: &Repo,
    op: &Operation,
    budget: Option<Duration>,
) -> Result<RefreshOutput> {
    run_from(repo, op, budget, None)
}

/// [`run_within`], the first attempt starting from `observed` when it is still valid: its
/// basis was captured against the snapshot that is still current. A retry after a lost race
/// captures a new basis.
pub(crate) fn run_from(
    repo: &Repo,
    op: &Operation,
    budget: Option<Duration>,
    observed: Option<Observed>,
) -> Result<RefreshOutput> {
    run_attempts(repo, None, op, budget, observed)
}

/// [`run_from`] on the cache `store` has open: a read that refreshes first keeps reading
/// through the connection it assessed the snapshot with (each opening of the cache parses
/// its schema again: about a millisecond).
pub(crate) fn run_on(
    repo: &Repo,
    store: &mut Store,
    op: &Operation,
    budget: Option<Duration>,
    observed: Option<Observed>,
) -> Result<RefreshOutput> {
    run_attempts(repo, Some(store), op, budget, observed)
}

fn run_attempts(
    repo: &Repo,
    mut store: Option<&mut Store>,
    op: &Operation,
    budget: Option<Duration>,
    mut observed: Option<Observed>,
) -> Result<RefreshOutput> {
    let requested_at = crate::time::now_rfc3339();
    let mut attempt = 0;
    loop {
        attempt += 1;
        let store = store.as_deref_mut();
        match run_once(repo, store, op, &requested_at, budget, observed.take()) {
            Err(Error::Conflict { .. }) if attempt < PUBLISH_ATTEMPTS => continue,
            other => return other,
        }
    }
}

fn run_once(
    repo: &Repo,
    open: Option<&mut Store>,
    op: &Operation,
    requested_at: &str,
    budget: Option<Duration>,
    observed: Option<Observed>,
) -> Result<RefreshOutput> {
    let started = Instant::now();
    let rules = repo.rules()?;
    let mut opened;
    let store = match open {
        Some(store) => store,
        None => {
            // A refresh never creates a cache: only init and rebaseline start one.
            opened = repo.open_store(*op != Operation::Refresh)?;
            opened.as_mut().ok_or(Error::NotInitialized)?
        }
    };
    let mut start = basis::capture(repo, store, op, &rules, observed)?;
    // Git reads the recent commits while the files are scanned.
    let commits = RecentCommits::start(repo, &start, &rules)?;
    let scan_started = Instant::now();
    // The index listing is only the plan's input: freed before the scan, which holds a result
    // per path of its own.
    let index = std::mem::take(&mut start.index);
    let mut plan = plan::plan_scan(
        &index,
        &start.basis.changed,
        &start.prev_files,
        start.full(),
        &start.forced(),
        &repo.root,
    );
    drop(index);
    classes::assign(repo, &start, &mut plan, &rules.config.analysis)?;
    // Read by the classes only: 100,000 paths' attributes are not kept through the scan.
    start.basis.attributes = None;
    let deadline = budget.map(|b| scan_started + b);
    let outcome = outcome::scan(repo, store, &start, plan, deadline)?;
    let scan_us = scan_started.elapsed().as_micros() as i64;
    let changes = changes::derive(store, &start, &outcome, &rules)?;
    let commits = commits.finish(&repo.git)?;
    let clock = publish::Clock {
        started,
        scan_us,
        requested_at,
    };
    publish::publish(
        repo, store, &start, &outcome, changes, &commits, clock, &rules,
    )
}

/// The snapshot's recent commits: the previous snapshot's when HEAD did not move and it read
/// them under the rules in force (and no new epoch starts: a rebaseline derives everything
/// again, and history can change below an unmoved HEAD, as `git fetch --unshallow` does),
/// none without a HEAD, else read by a Git process that runs beside the scan.
enum RecentCommits {
    Known(Vec<Commit>),
    Reading(crate::git::RecentCommits),
}

impl RecentCommits {
    fn start(repo: &Repo, start: &basis::Start, rules: &Rules) -> Result<RecentCommits> {
        Ok(match (&start.previous, &start.basis.head) {
            (Some(p), head)
                if p.head == *head && start.new_epoch.is_none() && rules.describe(p) =>
            {
                Self::Known(p.recent_commits.clone())
            }
            (_, Some(head)) => Self::Reading(repo.git.start_recent_commits(RECENT_COMMITS, head)?),
            (_, None) => Self::Known(vec![]),
        })
    }

    fn finish(self, git: &crate::git::Git) -> Result<Vec<Commit>> {
        match self {
            Self::Known(commits) => Ok(commits),
            Self::Reading(run) => run.finish(git),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::analyzer_version;
    use crate::testing::{raw_db, temp_repo};

    #[test]
    fn a_new_analyzer_rereads_only_files_with_outdated_facts_without_a_rebaseline() {
        let t = temp_repo(&[
            ("a.rs", "pub fn alpha() {}\n"),
            ("b.rs", "pub fn beta() {}\n"),
            ("README.md", "# Title\n"),
        ]);
        let base = run(&t.repo, &Operation::Init).unwrap();
        assert_eq!(base.files_scanned, 3);
        // Status, listing, attributes (read once, with the listing) and the recent commits.
        assert_eq!(base.git_processes, 4);
        // A no-op refresh reads nothing.
        let noop = run(&t.repo, &Operation::Refresh).unwrap();
        assert_eq!((noop.files_scanned, noop.published), (0, false));
        // Pretend an older binary derived a.rs's facts.
        let db = raw_db(&t.repo);
        let a_digest: Vec<u8> = db
            .query_row(
                "SELECT f.digest FROM file_versions f JOIN paths p ON p.id = f.path
                 WHERE p.dir = 0 AND p.name = CAST('a.rs' AS BLOB)",
                [],
                |r| r.get(0),
            )
            .unwrap();
        db.execute(
            "UPDATE content_facts SET analyzer = 'a0-old' WHERE digest = ?1",
            [&a_digest],
        )
        .unwrap();
        db.execute("DELETE FROM settings", []).unwrap();
        let up = run(&t.repo, &Operation::Refresh).unwrap();
        assert_eq!(up.files_scanned, 1, "only the outdated file is read again");
        assert_eq!(up.files_analyzed, 1);
        assert!(
            !up.published,
            "the indexed state did not change: no new snapshot"
        );
        assert_eq!(up.epoch, base.epoch, "no rebaseline");
        let analyzer: String = db
            .query_row(
                "SELECT analyzer FROM content_facts WHERE digest = ?1",
                [&a_digest],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(analyzer, analyzer_version());
        // The check ran once for this analyzer: the next refresh reads nothing.
        let again = run(&t.repo, &Operation::Refresh).unwrap();
        assert_eq!(again.files_scanned, 0);
        // Search still finds the re-analyzed symbol (its entries were rebuilt, not lost).
        let store = t.repo.open_store(false).unwrap().unwrap();
        let hits = crate::search::find(
            &store,
            &crate::search::Terms::all_of(&["alpha"]),
            "alpha",
            &[crate::api::SearchKind::Symbol],
            5,
        )
        .unwrap();
        assert_eq!(hits.len(), 1, "{hits:?}");
    }

    /// A newer analyzer may find something where an older one found nothing (a binary that
    /// learnt `.csproj` files): after an upgrade the analysed text files without facts are
    /// read again, once, and binary files are not.
    #[test]
    fn a_new_analyzer_reads_again_what_an_older_one_found_nothing_in() {
        let t = temp_repo(&[
            ("a.rs", "pub fn alpha() {}\n"),
            ("notes.txt", "plain words\n"),
            ("logo.bin", "\0\x01binary"),
            ("Cargo.toml", "[package]\nname = \"tool\"\n"),
        ]);
        run(&t.repo, &Operation::Init).unwrap();
        // Pretend an older binary knew no manifests: Cargo.toml's facts are gone.
        let db = raw_db(&t.repo);
        let facts_of = |name: &str| -> i64 {
            db.query_row(
                "SELECT count(*) FROM file_versions f JOIN paths p ON p.id = f.path
                   JOIN content_facts c ON c.digest = f.digest
                 WHERE p.dir = 0 AND p.name = CAST(?1 AS BLOB)",
                [name],
                |r| r.get(0),
            )
            .unwrap()
        };
        assert_eq!(facts_of("Cargo.toml"), 1);
        db.execute(
            "DELETE FROM content_facts WHERE digest = (SELECT f.digest FROM file_versions f
               JOIN paths p ON p.id = f.path WHERE p.dir = 0 AND p.name = CAST('Cargo.toml' AS BLOB))",
            [],
        )
        .unwrap();
        db.execute("DELETE FROM settings", []).unwrap();
        let up = run(&t.repo, &Operation::Refresh).unwrap();
        // Cargo.toml and notes.txt (no facts either), not the binary nor a.rs.
        assert_eq!(up.files_scanned, 2);
        assert_eq!(facts_of("Cargo.toml"), 1, "the manifest is analysed again");
        assert_eq!(facts_of("notes.txt"), 0);
        let again = run(&t.repo, &Operation::Refresh).unwrap();
        assert_eq!(again.files_scanned, 0, "once per analyzer version");
    }

    fn symbol_hits(t: &crate::testing::TempRepo, name: &str) -> usize {
        let store = t.repo.open_store(false).unwrap().unwrap();
        let kinds = [crate::api::SearchKind::Symbol, crate::api::SearchKind::Path];
        crate::search::find(
            &store,
            &crate::search::Terms::all_of(&[name]),
            name,
            &kinds,
            10,
        )
        .unwrap()
        .len()
    }

    fn classes(t: &crate::testing::TempRepo) -> Vec<(String, String)> {
        let store = t.repo.open_store(false).unwrap().unwrap();
        let snap = store.current_snapshot().unwrap().unwrap();
        let files = store.files_at(&snap).unwrap();
        files
            .iter()
            .map(|f| (crate::paths::display(&f.path), f.class.as_str().to_owned()))
            .collect()
    }

    fn write(t: &crate::testing::TempRepo, path: &str, text: &str) {
        let p = t.repo.root.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    #[test]
    fn a_configuration_change_rederives_only_what_it_affects() {
        let t = temp_repo(&[
            ("src/a.rs", "pub fn alpha() {}\n"),
            ("libs/b.rs", "pub fn betafun() {}\n"),
        ]);
        let base = run(&t.repo, &Operation::Init).unwrap();
        assert_eq!(symbol_hits(&t, "betafun"), 1);
        write(
            &t,
            ".repocue/config.toml",
            "[analysis]\nexclude = [\"libs/**\"]\n",
        );
        let excluded = run(&t.repo, &Operation::Refresh).unwrap();
        assert!(excluded.published);
        assert_eq!(excluded.epoch, base.epoch, "no rebaseline");
        assert_eq!(excluded.files_scanned, 0, "a path rule needs no read");
        assert_eq!(excluded.changes.metadata_changed, 1);
        assert_eq!(symbol_hits(&t, "betafun"), 0);
        assert_eq!(symbol_hits(&t, "libs"), 0, "not even its path is found");
        assert_eq!(
            classes(&t),
            [
                ("libs/b.rs".into(), "excluded".into()),
                ("src/a.rs".into(), "source".into())
            ]
        );
        // The same rules again: nothing to do.
        let again = run(&t.repo, &Operation::Refresh).unwrap();
        assert!(!again.published);
        // `include` overrides `exclude`: the file is read again, its facts are known.
        write(
            &t,
            ".repocue/config.toml",
            "[analysis]\nexclude = [\"libs/**\"]\ninclude = [\"libs/b.rs\"]\n",
        );
        let included = run(&t.repo, &Operation::Refresh).unwrap();
        assert_eq!((included.files_scanned, included.files_analyzed), (1, 0));
        assert_eq!(symbol_hits(&t, "betafun"), 1);
        assert_eq!(included.epoch, base.epoch);
    }

    #[test]
    fn an_invalid_configuration_fails_before_anything_is_written() {
        let t = temp_repo(&[("a.rs", "pub fn alpha() {}\n")]);
        write(&t, ".repocue/config.toml", "[analysis]\nexclude = \"a\"\n");
        let e = run(&t.repo, &Operation::Init).unwrap_err();
        assert_eq!(e.code(), "invalid_config");
        assert!(!t.repo.db_path().exists(), "no cache was created");
    }

    #[test]
    fn git_attributes_mark_vendored_and_generated_files_and_their_changes_reclassify() {
        let t = temp_repo(&[
            ("src/a.rs", "pub fn alpha() {}\n"),
            ("src/parser.rs", "pub fn generated_parse() {}\n"),
            ("deps/own.rs", "pub fn own_dep() {}\n"),
        ]);
        run(&t.repo, &Operation::Init).unwrap();
        assert_eq!(symbol_hits(&t, "generated_parse"), 1);
        assert_eq!(
            symbol_hits(&t, "own_dep"),
            0,
            "deps/ is vendored by default"
        );
        write(
            &t,
            ".gitattributes",
            "src/parser.rs linguist-generated\ndeps/** linguist-vendored=false\n",
        );
        crate::testing::git(&t.repo.root, &["add", ".gitattributes"]);
        crate::testing::git(&t.repo.root, &["commit", "-q", "-m", "attributes"]);
        let out = run(&t.repo, &Operation::Refresh).unwrap();
        assert!(out.published);
        assert_eq!(symbol_hits(&t, "generated_parse"), 0);
        assert_eq!(
            symbol_hits(&t, "parser"),
            1,
            "a generated file's path is found"
        );
        assert_eq!(symbol_hits(&t, "own_dep"), 1);
        let c = classes(&t);
        assert!(
            c.contains(&("src/parser.rs".into(), "generated".into())),
            "{c:?}"
        );
        assert!(
            c.contains(&("deps/own.rs".into(), "source".into())),
            "{c:?}"
        );
        // Editing the attributes file (uncommitted) re-classifies too.
        write(&t, ".gitattributes", "deps/** linguist-vendored=false\n");
        run(&t.repo, &Operation::Refresh).unwrap();
        assert_eq!(symbol_hits(&t, "generated_parse"), 1);
    }

    #[test]
    fn secret_files_by_name_and_content_are_never_analysed_or_indexed() {
        let key = format!("AKIA{}", "Z7".repeat(8));
        let t = temp_repo(&[
            (
                "app/settings.py",
                &*format!("AWS_KEY = \"{key}\"\ndef leaky_setting(): pass\n"),
            ),
            (
                "app/credentials_test.go",
                "package app\nfunc TestCredentialsLoad() {}\n",
            ),
            ("deploy/server.pem", "not even a key\n"),
        ]);
        run(&t.repo, &Operation::Init).unwrap();
        let c = classes(&t);
        assert_eq!(
            c,
            [
                ("app/credentials_test.go".into(), "source".into()),
                ("app/settings.py".into(), "secret".into()),
                ("deploy/server.pem".into(), "secret".into())
            ]
        );
        assert_eq!(symbol_hits(&t, "leaky_setting"), 0);
        assert_eq!(symbol_hits(&t, "settings"), 0);
        assert_eq!(symbol_hits(&t, "server"), 0);
        assert_eq!(symbol_hits(&t, "TestCredentialsLoad"), 1);
        let facts: i64 = raw_db(&t.repo)
            .query_row("SELECT count(*) FROM content_facts", [], |r| r.get(0))
            .unwrap();
        assert_eq!(facts, 1, "only the Go file was analysed");
    }

    /// Known content is never analyzed again, whether a scan looks digests up one by one (a
    /// few paths) or loads them all (more than `PROBE_MAX_PATHS`): a rebaseline of 1,001
    /// files and a revert of one file both reuse the stored facts.
    #[test]
    fn stored_facts_are_reused_by_large_and_small_scans() {
        let files: Vec<(String, String)> = (0..1001)
            .map(|i| (format!("m/f{i:04}.py"), format!("def f{i}():\n    pass\n")))
            .collect();
        let t = temp_repo(&files);
        let base = run(&t.repo, &Operation::Init).unwrap();
        assert_eq!(base.files_analyzed, 1001);
        let again = Operation::Rebaseline {
            label: "again".into(),
            reason: "test".into(),
        };
        let re = run(&t.repo, &again).unwrap();
        assert_eq!((re.files_scanned, re.files_analyzed), (1001, 0), "{re:?}");
        let path = t.repo.root.join("m/f0000.py");
        std::fs::write(&path, "def g():\n    pass\n").unwrap();
        let edit = run(&t.repo, &Operation::Refresh).unwrap();
        assert_eq!(
            (edit.files_scanned, edit.files_analyzed),
            (1, 1),
            "{edit:?}"
        );
        std::fs::write(&path, "def f0():\n    pass\n").unwrap();
        let back = run(&t.repo, &Operation::Refresh).unwrap();
        assert_eq!(
            (back.files_scanned, back.files_analyzed),
            (1, 0),
            "{back:?}"
        );
    }

    #[test]
    fn a_cache_from_before_classes_is_classified_on_the_next_refresh_without_a_rebaseline() {
        let key = format!("ghp_{}", "x".repeat(36));
        let t = temp_repo(&[
            ("src/a.rs", "pub fn alpha() {}\n"),
            ("src/tokens.rs", &format!("const T: &str = \"{key}\";\n")),
            ("vendor/v.rs", "pub fn vend() {}\n"),
        ]);
        let base = run(&t.repo, &Operation::Init).unwrap();
        // What migration 0010 leaves: every row `source`, snapshots without rules.
        let db = raw_db(&t.repo);
        db.execute_batch(
            "UPDATE file_versions SET class = 0;
             UPDATE snapshots SET rules_digest = NULL, secret_content = NULL;",
        )
        .unwrap();
        let out = run(&t.repo, &Operation::Refresh).unwrap();
        assert_eq!(out.epoch, base.epoch);
        assert_eq!(
            out.files_scanned, 3,
            "every file is read once for the secret check"
        );
        assert!(out.published);
        assert_eq!(
            classes(&t),
            [
                ("src/a.rs".into(), "source".into()),
                ("src/tokens.rs".into(), "secret".into()),
                ("vendor/v.rs".into(), "vendored".into())
            ]
        );
        assert_eq!(symbol_hits(&t, "tokens"), 0);
        assert!(!run(&t.repo, &Operation::Refresh).unwrap().published);
    }

    /// A file whose name says a language only a later release knows (`.rdoc`) is read again
    /// on the first refresh under the new rules: its language, document flag and outline
    /// come with it, without a rebaseline; the other rows are reused.
    #[test]
    fn a_name_that_now_says_a_language_is_read_again_after_an_upgrade() {
        let t = temp_repo(&[
            (
                "SPEC.rdoc",
                "= The Spec\n\nThis specification aims to formalize the interface.\n",
            ),
            ("src/a.rs", "pub fn alpha() {}\n"),
        ]);
        let base = run(&t.repo, &Operation::Init).unwrap();
        let rdoc = |t: &crate::testing::TempRepo| {
            let store = t.repo.open_store(false).unwrap().unwrap();
            let snap = store.current_snapshot().unwrap().unwrap();
            let files = store.files_at(&snap).unwrap();
            let f = files.iter().find(|f| f.path == b"SPEC.rdoc").unwrap();
            (f.language.clone(), f.is_document)
        };
        assert_eq!(rdoc(&t), (Some("RDoc".to_owned()), true));
        // What an older release left: no language, no document, other rules.
        let db = raw_db(&t.repo);
        // (The spec is the repository's one document.)
        db.execute_batch(
            "UPDATE file_versions SET language = NULL, is_document = 0 WHERE is_document = 1;
             UPDATE snapshots SET rules_digest = 'older-rules';",
        )
        .unwrap();
        assert_eq!(rdoc(&t), (None, false));
        let out = run(&t.repo, &Operation::Refresh).unwrap();
        assert_eq!(out.epoch, base.epoch);
        assert_eq!(out.files_scanned, 1, "{out:?}");
        assert_eq!(rdoc(&t), (Some("RDoc".to_owned()), true));
        assert!(!run(&t.repo, &Operation::Refresh).unwrap().published);
    }

    /// A script named like a document (fzf's `install`, with a shebang) is no document, and a
    /// cache that an older release left calling it one is corrected by the first refresh
    /// under the new rules, without reading a file; an `INSTALL` of plain text stays one.
    #[test]
    fn a_script_named_like_a_document_is_none_even_in_an_older_cache() {
        let t = temp_repo(&[
            (
                "install",
                "#!/usr/bin/env bash\n# Setup fzf\n# ---------\necho hi\n",
            ),
            ("INSTALL", "Installing\n\nRun make.\n"),
        ]);
        run(&t.repo, &Operation::Init).unwrap();
        let documents = |t: &crate::testing::TempRepo| {
            let store = t.repo.open_store(false).unwrap().unwrap();
            let snap = store.current_snapshot().unwrap().unwrap();
            let files = store.files_at(&snap).unwrap();
            files
                .iter()
                .filter(|f| f.is_document)
                .map(|f| String::from_utf8_lossy(&f.path).into_owned())
                .collect::<Vec<_>>()
        };
        assert_eq!(documents(&t), ["INSTALL"]);
        // What an older release left: the script a document, other rules.
        let db = raw_db(&t.repo);
        db.execute_batch(
            "UPDATE file_versions SET is_document = 1;
             UPDATE snapshots SET rules_digest = 'older-rules';",
        )
        .unwrap();
        assert_eq!(documents(&t), ["INSTALL", "install"]);
        let out = run(&t.repo, &Operation::Refresh).unwrap();
        assert_eq!(out.files_scanned, 0, "{out:?}");
        assert_eq!(documents(&t), ["INSTALL"]);
        assert!(!run(&t.repo, &Operation::Refresh).unwrap().published);
    }

    #[test]
    fn corrupt_stored_json_is_a_corrupt_cache_error_not_a_default() {
        let t = temp_repo(&[("a.rs", "pub fn alpha() {}\n")]);
        run(&t.repo, &Operation::Init).unwrap();
        let store = t.repo.open_store(false).unwrap().unwrap();
        assert!(store
            .current_snapshot()
            .unwrap()
            .unwrap()
            .caveats
            .is_empty());
        let db = raw_db(&t.repo);
        db.execute(
            "UPDATE snapshots SET caveats = '[\"assume_unchanged\",'",
            [],
        )
        .unwrap();
        let e = store.current_snapshot().unwrap_err();
        assert_eq!(e.code(), "corrupt_cache", "{e}");
        db.execute("UPDATE snapshots SET caveats = '[\"no_such_caveat\"]'", [])
            .unwrap();
        assert_eq!(
            store.current_snapshot().unwrap_err().code(),
            "corrupt_cache"
        );
        db.execute("UPDATE snapshots SET caveats = '[]'", [])
            .unwrap();
        let digests: Vec<String> = store
            .files_at(&store.current_snapshot().unwrap().unwrap())
            .unwrap()
            .into_iter()
            .filter_map(|f| f.digest)
            .collect();
        let refs: Vec<&str> = digests.iter().map(String::as_str).collect();
        // Stored facts whose tag, deflate stream or JSON is broken.
        for broken in ["'{not json'", "X'00' || '{not json'", "X'01FF00'"] {
            db.execute(&format!("UPDATE content_facts SET facts = {broken}"), [])
                .unwrap();
            assert_eq!(
                store.facts(&refs).unwrap_err().code(),
                "corrupt_cache",
                "{broken}"
            );
        }
        // A refresh that reads the snapshot fails the same way instead of publishing a guess.
        db.execute("UPDATE snapshots SET recent_commits = 'x'", [])
            .unwrap();
        let e = run(&t.repo, &Operation::Refresh).unwrap_err();
        assert_eq!(e.code(), "corrupt_cache");
    }

    /// History can change below an unmoved HEAD (`git fetch --unshallow`): a refresh keeps the
    /// commits it knows, a rebaseline reads them again.
    #[test]
    fn a_rebaseline_reads_the_recent_commits_again() {
        let up = crate::testing::temp_repo(&[("a.txt", "one\n")]);
        std::fs::write(up.repo.root.join("b.txt"), "two\n").unwrap();
        crate::testing::git(&up.repo.root, &["add", "-A"]);
        crate::testing::git(&up.repo.root, &["commit", "-q", "-m", "second"]);
        let dir = tempfile::tempdir().unwrap();
        let url = format!("file://{}", up.repo.root.display());
        crate::testing::git(dir.path(), &["clone", "-q", "--depth", "1", &url, "clone"]);
        let root = dir.path().join("clone").canonicalize().unwrap();
        let repo = Repo::new(root.clone(), &dir.path().join("cache"), None);
        let commits = |repo: &Repo| {
            let store = repo.open_store(false).unwrap().unwrap();
            store
                .current_snapshot()
                .unwrap()
                .unwrap()
                .recent_commits
                .len()
        };
        run(&repo, &Operation::Init).unwrap();
        assert_eq!(commits(&repo), 1);
        crate::testing::git(&root, &["fetch", "-q", "--unshallow"]);
        run(&repo, &Operation::Refresh).unwrap();
        assert_eq!(commits(&repo), 1);
        let rebaseline = Operation::Rebaseline {
            label: "unshallow".into(),
            reason: "history deepened".into(),
        };
        run(&repo, &rebaseline).unwrap();
        assert_eq!(commits(&repo), 2);
    }

    /// The recent commits are the first-parent line: a merge that names only where it came
    /// from (a pull request) reads as what it brought (its message's title, else its commits),
    /// a topic's merge stays as it is, and a snapshot whose list was read under other rules
    /// (by an older version, every merge kept) has it read again though HEAD did not move.
    #[test]
    fn recent_commits_leave_out_merges_even_in_a_list_read_before() {
        let t = crate::testing::temp_repo(&[("a.txt", "one\n")]);
        let root = &t.repo.root;
        // A branch of one commit adding `file`, merged with a merge commit `message`.
        let merged = |branch: &str, file: &str, subject: &str, message: &str| {
            crate::testing::git(root, &["checkout", "-q", "-b", branch]);
            std::fs::write(root.join(file), "text\n").unwrap();
            crate::testing::git(root, &["add", "-A"]);
            crate::testing::git(root, &["commit", "-q", "-m", subject]);
            crate::testing::git(root, &["checkout", "-q", "-"]);
            crate::testing::git(root, &["merge", "-q", "--no-ff", branch, "-m", message]);
        };
        merged(
            "topic",
            "b.txt",
            "Add b",
            "Merge pull request #1 from topic",
        );
        merged("kh/doc", "c.txt", "Add c", "Merge branch 'kh/doc'");
        let subjects = |repo: &Repo| -> Vec<String> {
            let store = repo.open_store(false).unwrap().unwrap();
            let snap = store.current_snapshot().unwrap().unwrap();
            snap.recent_commits.into_iter().map(|c| c.subject).collect()
        };
        run(&t.repo, &Operation::Init).unwrap();
        let listed = subjects(&t.repo);
        assert_eq!(listed, ["Merge branch 'kh/doc'", "Add b (#1)", "initial"]);
        // An older version's list, merge first, under its own rules.
        let db = crate::testing::raw_db(&t.repo);
        let old = r#"[{"id":"abc1234","date":"2024-01-01T00:00:00Z","subject":"Merge pull request #1 from topic"}]"#;
        db.execute(
            "UPDATE snapshots SET recent_commits = ?1, rules_digest = 'older-rules'",
            [old],
        )
        .unwrap();
        run(&t.repo, &Operation::Refresh).unwrap();
        assert_eq!(subjects(&t.repo), listed);
        // Under the rules in force, an unmoved HEAD keeps the list it has.
        db.execute("UPDATE snapshots SET recent_commits = ?1", [old])
            .unwrap();
        std::fs::write(root.join("a.txt"), "changed\n").unwrap();
        run(&t.repo, &Operation::Refresh).unwrap();
        assert_eq!(subjects(&t.repo), ["Merge pull request #1 from topic"]);
    }
}
