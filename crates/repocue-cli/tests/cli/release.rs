//! What an installed binary offers besides its commands: a version naming the commit it was
//! built from, shell completions and a man page generated from the argument definitions.

use std::process::Command;

use crate::support::TestRepo;

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
