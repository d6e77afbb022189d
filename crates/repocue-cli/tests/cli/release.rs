//! What an installed binary offers besides its commands: a version naming the commit it was
//! built from, shell completions and a man page generated from the argument definitions.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::{Ran, TestRepo};

/// The subcommands every generated artefact must know.
const COMMANDS: &[&str] = &[
    "init",
    "status",
    "refresh",
    "rebaseline",
    "cue",
    "search",
    "metrics",
    "serve",
    "hooks",
    "watch",
    "checkpoint",
    "prune",
    "evaluate",
    "completions",
    "man",
];

#[test]
fn version_names_the_commit() {
    let repo = TestRepo::new();
    let out = repo.repocue_bare(&["--version"]).success().stdout();
    let prefix = format!("repocue {} (", env!("CARGO_PKG_VERSION"));
    let commit = out
        .trim_end()
        .strip_prefix(&prefix)
        .and_then(|rest| rest.strip_suffix(')'))
        .unwrap_or_else(|| panic!("unexpected version line {out:?}"));
    if commit == "commit unknown" {
        // Built without Git or outside a checkout: nothing more to check.
        return;
    }
    assert!(
        commit.len() == 12 && commit.bytes().all(|b| b.is_ascii_hexdigit()),
        "{commit:?}"
    );
    // The commit exists in the checkout the binary was built from.
    let exists = Command::new("git")
        .args(["cat-file", "-e", &format!("{commit}^{{commit}}")])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .status()
        .expect("run git");
    assert!(
        exists.success(),
        "{commit} is not a commit of this checkout"
    );
    // Every subcommand reports the same version.
    let sub = repo.repocue_bare(&["cue", "--version"]).success().stdout();
    assert_eq!(
        sub.trim_end(),
        out.trim_end().replacen("repocue", "repocue-cue", 1)
    );
}

#[test]
fn completions_are_generated_for_every_shell() {
    let repo = TestRepo::new();
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let script = repo
            .repocue_bare(&["completions", shell])
            .success()
            .stdout();
        for command in COMMANDS {
            assert!(script.contains(command), "{shell}: no {command}");
        }
        assert!(script.contains("max-tokens"), "{shell}: no cue options");
    }
    let bash = repo.repocue_bare(&["completions", "bash"]).stdout();
    assert!(bash.contains("complete -F _repocue"), "{bash}");
    // The bash script parses.
    let dir = repo.outside().join("repocue.bash");
    std::fs::write(&dir, &bash).unwrap();
    let check = Command::new("bash").arg("-n").arg(&dir).output();
    if let Ok(check) = check {
        assert!(
            check.status.success(),
            "{}",
            String::from_utf8_lossy(&check.stderr)
        );
    }
    repo.repocue_bare(&["completions", "tcsh"]).usage_error();
    repo.repocue_bare(&["completions"]).usage_error();
}

#[test]
fn man_page_is_generated_from_the_arguments() {
    let repo = TestRepo::new();
    let page = repo.repocue_bare(&["man"]).success().stdout();
    assert!(page.contains(".TH repocue 1"), "{page}");
    assert!(page.contains(env!("CARGO_PKG_VERSION")));
    for command in COMMANDS {
        assert!(page.contains(command), "man page lacks {command}");
    }
    assert!(
        page.contains("cache\\-dir"),
        "global options are documented"
    );
    repo.repocue_bare(&["man", "extra"]).usage_error();
}

/// Runs the installed binary against `repo` with extra environment variables.
fn run_installed(bin: &Path, repo: &TestRepo, args: &[&str], env: &[(&str, &str)]) -> Ran {
    let mut cmd = Command::new(bin);
    repo.hermetic(&mut cmd)
        .current_dir(repo.root())
        .arg("--repository")
        .arg(repo.root())
        .arg("--cache-dir")
        .arg(repo.cache_dir())
        .args(args)
        .envs(env.iter().copied());
    repo.run(cmd)
}

/// The documented install command works from this checkout and gives a binary that runs
/// without the source tree and without test hooks.
///
/// Ignored by default: it builds the `dist` profile (minutes on two cores). `.ci/run` runs it
/// with `--ignored`, in `REPOCUE_TEST_INSTALL_ROOT` so it can report the installed size; the
/// build reuses `CARGO_TARGET_DIR` (else the workspace's `target/`).
#[test]
#[ignore = "builds the dist profile; run by .ci/run with --ignored"]
fn cargo_install_gives_a_working_binary_without_test_hooks() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let scratch = tempfile::tempdir().unwrap();
    let root = std::env::var_os("REPOCUE_TEST_INSTALL_ROOT")
        .map(PathBuf::from)
        .unwrap_or_else(|| scratch.path().to_owned());
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace.join("target"));
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args([
            "install",
            "--locked",
            "--force",
            "--profile",
            "dist",
            "--path",
        ])
        .arg(workspace.join("crates/repocue-cli"))
        .arg("--root")
        .arg(&root)
        .arg("--target-dir")
        .arg(&target)
        .output()
        .expect("run cargo install");
    assert!(
        out.status.success(),
        "cargo install failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let bin = root.join("bin/repocue");
    let bytes = std::fs::read(&bin).expect("installed binary");
    println!("installed {}: {} bytes", bin.display(), bytes.len());
    // The fault-injection hooks exist only in test builds.
    let hook = b"REPOCUE_TEST_UNREADABLE";
    assert!(
        !bytes.windows(hook.len()).any(|w| w == hook),
        "the installed binary carries test hooks"
    );
    drop(bytes);

    let repo = TestRepo::with_files(&[
        ("src/lib.rs", "pub fn alpha() {}\n"),
        ("README.md", "# Demo\n"),
    ]);
    let version = run_installed(&bin, &repo, &["--version"], &[])
        .success()
        .stdout();
    let prefix = format!("repocue {} (", env!("CARGO_PKG_VERSION"));
    assert!(version.starts_with(&prefix), "{version:?}");
    // It works on its own: a baseline, and symbols from the linked grammars.
    let cue = run_installed(&bin, &repo, &["search", "alpha"], &[]).json();
    assert_eq!(
        cue["content"]["hits"][0]["id"], "symbol:src/lib.rs:alpha",
        "{cue:#}"
    );
    // And it ignores the hook variables a test build obeys.
    repo.write("src/lib.rs", "pub fn beta() {}\n");
    let env = [("REPOCUE_TEST_UNREADABLE", "src/lib.rs")];
    let refresh = run_installed(&bin, &repo, &["refresh"], &env).json();
    assert!(refresh.get("faults").is_none(), "{refresh:#}");
    assert_eq!(refresh["freshness"], "dirty-but-indexed", "{refresh:#}");
}
