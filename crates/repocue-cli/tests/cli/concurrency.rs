//! Several processes on one cache: reads never wait for a writer, and a cue or refresh that
//! loses a race to another writer still answers.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::Duration;

use repocue::api::{Freshness, RefreshOutput};

use crate::support::TestRepo;

/// Another process (Python's sqlite3) that takes the database's write lock and keeps it until
/// its stdin closes.
struct WriteLock(Child);

impl WriteLock {
    fn hold(db: &std::path::Path) -> WriteLock {
        let script = "import sqlite3, sys\n\
                      c = sqlite3.connect(sys.argv[1], isolation_level=None)\n\
                      c.execute('BEGIN IMMEDIATE')\n\
                      print('locked', flush=True)\n\
                      sys.stdin.read()\n\
                      c.execute('ROLLBACK')\n";
        let mut child = Command::new("python3")
            .args(["-c", script])
            .arg(db)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("python3 runs");
        let mut line = String::new();
        BufReader::new(child.stdout.as_mut().expect("stdout"))
            .read_line(&mut line)
            .expect("lock holder answers");
        assert_eq!(
            line.trim(),
            "locked",
            "the lock holder did not take the lock"
        );
        WriteLock(child)
    }
}

impl Drop for WriteLock {
    fn drop(&mut self) {
        // Closing stdin ends the holder, which rolls back and exits.
        drop(self.0.stdin.take());
        let _ = self.0.wait();
    }
}

#[test]
fn reads_answer_while_another_process_holds_the_write_lock() {
    let repo = TestRepo::with_files(&[
        ("src/lib.rs", "pub fn alpha() {}\n"),
        ("README.md", "# Demo\n\nA demo.\n"),
    ]);
    repo.init();
    let cues_before = repo.metrics().cues_total;
    {
        let _lock = WriteLock::hold(&repo.db_path());
        // Before, each of these waited for the busy timeout (15 s) to record a cue metric or a
        // cached view value, then failed with database_busy.
        for args in [
            &["cue", "--no-refresh", "--view", "overview"][..],
            &[
                "cue",
                "--no-refresh",
                "--view",
                "structure",
                "--max-tokens",
                "800",
            ],
            &["cue", "--no-refresh", "--view", "manifest"],
            &["search", "--no-refresh", "alpha"],
            &["status"],
        ] {
            let ran = repo.repocue(args);
            assert_eq!(
                ran.code(),
                Some(0),
                "{args:?} under a held write lock{}",
                ran.describe()
            );
        }
    }
    // The measurements made under the lock were dropped (best effort), later ones are kept.
    assert_eq!(repo.metrics().cues_total, cues_before);
    repo.cue("overview", &["--no-refresh"]);
    assert_eq!(repo.metrics().cues_total, cues_before + 1);
}

#[test]
fn concurrent_refreshes_and_cues_all_answer_while_a_file_keeps_changing() {
    let repo = Arc::new(TestRepo::with_files(&[
        ("src/lib.rs", "pub fn alpha() {}\n"),
        ("src/util.rs", "pub fn beta() {}\n"),
        ("README.md", "# Demo\n"),
    ]));
    repo.init();
    let stop = Arc::new(AtomicBool::new(false));
    let editor = {
        let (repo, stop) = (Arc::clone(&repo), Arc::clone(&stop));
        thread::spawn(move || {
            let mut i = 0u32;
            while !stop.load(Ordering::Relaxed) {
                i += 1;
                repo.write(
                    "src/util.rs",
                    format!("pub fn beta() {{}}\npub fn gamma{i}() {{}}\n"),
                );
                thread::sleep(Duration::from_millis(20));
            }
        })
    };
    let workers: Vec<_> = (0..6)
        .map(|w| {
            let repo = Arc::clone(&repo);
            thread::spawn(move || {
                let args: &[&str] = if w % 2 == 0 {
                    &["refresh"]
                } else {
                    &["cue", "--view", "overview", "--max-tokens", "300"]
                };
                let mut failures = vec![];
                for _ in 0..8 {
                    let ran = repo.repocue(args);
                    if ran.code() != Some(0) {
                        failures.push(ran.describe());
                    }
                }
                failures
            })
        })
        .collect();
    let failures: Vec<String> = workers
        .into_iter()
        .flat_map(|w| w.join().expect("worker thread"))
        .collect();
    stop.store(true, Ordering::Relaxed);
    editor.join().expect("editor thread");
    assert!(
        failures.is_empty(),
        "{} of 48 calls failed:{}",
        failures.len(),
        failures.join("\n")
    );
    // Whatever won, the cache ends consistent with the work tree after one more refresh.
    repo.refresh();
    assert_eq!(repo.status().freshness, Freshness::DirtyButIndexed);
}

#[test]
fn losing_refreshes_adopt_the_winners_snapshot() {
    let repo = TestRepo::with_files(&[("a.txt", "one\n"), ("b.txt", "two\n")]);
    repo.init();
    repo.write("a.txt", "edited\n");
    let children: Vec<_> = (0..5).map(|_| repo.spawn(&["refresh"])).collect();
    let outputs: Vec<RefreshOutput> = children
        .into_iter()
        .map(|c| repo.finish(c, &["refresh"]).typed())
        .collect();
    let published = outputs.iter().filter(|r| r.published).count();
    assert_eq!(published, 1, "exactly one process publishes the change");
    for r in &outputs {
        assert_eq!(
            r.snapshot, "snapshot-000002",
            "every process reports the one snapshot"
        );
    }
    assert_eq!(
        repo.metrics().snapshots,
        vec!["snapshot-000001", "snapshot-000002"]
    );
}
