//! Git hooks that refresh the cache after commits, checkouts, merges and rewrites.
//!
//! Installing never clobbers a hook: an existing hook is moved aside to
//! `<name>.repocue-chained` and called first (with the same arguments and stdin) by the
//! RepoCue hook, which then starts a refresh in the background. Uninstalling restores it.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::git::Git;

/// The hooks RepoCue installs.
pub const HOOKS: &[&str] = &["post-commit", "post-checkout", "post-merge", "post-rewrite"];
const MARKER: &str = "# repocue-hook v1";
const CHAINED_SUFFIX: &str = ".repocue-chained";

/// What happened to one hook.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct HookChange {
    /// Hook name.
    pub hook: String,
    /// `installed`, `installed-chained` (an existing hook is kept and called first),
    /// `already-installed`, `removed`, `restored` (the chained hook is back), `not-installed`.
    pub action: String,
}

/// Output of `repocue hooks install|uninstall`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct HooksOutput {
    /// `repocue/hooks-1`.
    pub schema_version: String,
    /// The hooks directory.
    pub hooks_dir: String,
    /// One entry per hook.
    pub hooks: Vec<HookChange>,
}

fn hooks_dir(git: &Git) -> Result<PathBuf> {
    let out = git.run(&["rev-parse", "--git-path", "hooks"])?;
    let text = String::from_utf8_lossy(&out)
        .trim_end_matches('\n')
        .to_owned();
    let p = PathBuf::from(text);
    Ok(if p.is_absolute() {
        p
    } else {
        git.root().join(p)
    })
}

/// The hook script. `repocue` is the absolute path of the binary, quoted for the shell byte
/// for byte (any character, `'` included, survives). The hook runs `repocue init`, which
/// records the first baseline of a repository that was never initialised and is an ordinary
/// incremental refresh afterwards, so the cache appears after the first commit or checkout.
fn script(repocue: &Path, cache: Option<&Path>, hook: &str) -> Result<Vec<u8>> {
    let quoted = quote(repocue, "repocue binary")?;
    let head = format!(
        r#"#!/bin/sh
{MARKER}
# Refreshes the RepoCue cache in the background (the first run records the baseline);
# remove with `repocue hooks uninstall`.
hook_dir=$(dirname "$0")
status=0
if [ -x "$hook_dir/{hook}{CHAINED_SUFFIX}" ]; then
    "$hook_dir/{hook}{CHAINED_SUFFIX}" "$@" || status=$?
fi
repocue="#
    );
    let mut out = head.into_bytes();
    out.extend_from_slice(&quoted);
    out.extend_from_slice(
        b"\n[ -x \"$repocue\" ] || repocue=$(command -v repocue 2>/dev/null) || exit $status\n",
    );
    // The cache the hooks were installed for, when one was named (`--cache-dir`,
    // `REPOCUE_CACHE_DIR`): a hook runs wherever Git runs it, without either.
    let cache_arg = match cache {
        Some(dir) => {
            out.extend_from_slice(b"cache=");
            out.extend_from_slice(&quote(dir, "cache directory")?);
            out.push(b'\n');
            r#"--cache-dir "$cache" "#
        }
        None => "",
    };
    out.extend_from_slice(
        format!(
            r#"root=$(git rev-parse --show-toplevel 2>/dev/null) && \
    ("$repocue" {cache_arg}--repository "$root" init >/dev/null 2>&1 &)
exit $status
"#
        )
        .as_bytes(),
    );
    Ok(out)
}

/// A path quoted for the shell byte for byte (any character, `'` included, survives).
fn quote(path: &Path, what: &str) -> Result<Vec<u8>> {
    use std::os::unix::ffi::OsStrExt;
    shlex::bytes::try_quote(path.as_os_str().as_bytes())
        .map(|q| q.into_owned())
        .map_err(|e| {
            Error::InvalidArgument(format!(
                "cannot quote the {what} path {} for a hook: {e}",
                path.display()
            ))
        })
}

fn is_ours(path: &Path) -> bool {
    // Bytes, not text: the quoted binary path need not be UTF-8.
    std::fs::read(path).is_ok_and(|s| s.windows(MARKER.len()).any(|w| w == MARKER.as_bytes()))
}

/// Lines that hooks of earlier versions of this marker held and the current ones do not: they
/// refreshed rather than initialised, and said so.
const EARLIER_LINES: &[&str] = &[
    "# Refreshes the RepoCue cache in the background; remove with `repocue hooks uninstall`.",
    r#"    ("$repocue" --repository "$root" refresh >/dev/null 2>&1 &)"#,
];

/// Whether a hook holding RepoCue's marker is still what RepoCue wrote: every line one that a
/// script of this marker holds, for some binary and cache, in this version or an earlier one.
/// A line a user added (or a hand-written hook that copies the marker) makes it no longer
/// ours to delete.
fn is_unchanged(path: &Path, hook: &str) -> bool {
    let Ok(text) = std::fs::read(path) else {
        return false;
    };
    // The lines that name the binary and the cache vary; the others are the template's.
    let lines = |bytes: &[u8]| -> Vec<Vec<u8>> {
        bytes
            .split(|&b| b == b'\n')
            .filter(|l| !l.starts_with(b"repocue=") && !l.starts_with(b"cache="))
            .map(<[u8]>::to_vec)
            .collect()
    };
    let mut known: Vec<Vec<u8>> = EARLIER_LINES
        .iter()
        .map(|l| l.as_bytes().to_vec())
        .collect();
    for cache in [None, Some(Path::new("/cache"))] {
        match script(Path::new("/repocue"), cache, hook) {
            Ok(s) => known.extend(lines(&s)),
            Err(_) => return false,
        }
    }
    lines(&text).iter().all(|l| known.contains(l))
}

fn io(context: String) -> impl FnOnce(std::io::Error) -> Error {
    move |source| Error::Io { context, source }
}

/// Installs the refresh hooks, chaining any existing ones; the hooks refresh the cache under
/// `cache` when one was named, else the default one. Checks every hook first: a hook whose
/// place is taken twice (a hook and an earlier chained one) changes nothing at all.
pub fn install(git: &Git, repocue_exe: &Path, cache: Option<&Path>) -> Result<HooksOutput> {
    let dir = hooks_dir(git)?;
    let scripts: Vec<Vec<u8>> = HOOKS
        .iter()
        .map(|hook| script(repocue_exe, cache, hook))
        .collect::<Result<_>>()?;
    let taken: Vec<String> = HOOKS
        .iter()
        .filter(|hook| {
            let path = dir.join(hook);
            !is_ours(&path) && path.exists() && chained(&dir, hook).exists()
        })
        .map(|hook| format!("{hook} and {hook}{CHAINED_SUFFIX}"))
        .collect();
    if !taken.is_empty() {
        return Err(Error::HookConflict {
            detail: format!(
                "{} both exist in {}: RepoCue's hook would have to replace one",
                taken.join(", "),
                dir.display()
            ),
        });
    }
    std::fs::create_dir_all(&dir).map_err(io(format!("create {}", dir.display())))?;
    let mut changes = Vec::new();
    for (hook, text) in HOOKS.iter().zip(scripts) {
        let path = dir.join(hook);
        let action = if is_ours(&path) {
            "already-installed"
        } else {
            let chained = chained(&dir, hook);
            let had = path.exists();
            if had {
                std::fs::rename(&path, &chained)
                    .map_err(io(format!("move {} aside", path.display())))?;
            }
            write_executable(&path, &text)?;
            if had {
                "installed-chained"
            } else {
                "installed"
            }
        };
        changes.push(HookChange {
            hook: (*hook).into(),
            action: action.into(),
        });
    }
    Ok(output(&dir, changes))
}

fn output(dir: &Path, hooks: Vec<HookChange>) -> HooksOutput {
    HooksOutput {
        schema_version: "repocue/hooks-1".into(),
        hooks_dir: dir.display().to_string(),
        hooks,
    }
}

/// The place an existing hook is moved to, to be called first by RepoCue's.
fn chained(dir: &Path, hook: &str) -> PathBuf {
    dir.join(format!("{hook}{CHAINED_SUFFIX}"))
}

/// Removes the refresh hooks and restores chained ones. A hook with RepoCue's marker that is
/// no longer what RepoCue wrote (a line added to it, a hand-written copy) is not removed: the
/// command changes nothing and names it.
pub fn uninstall(git: &Git) -> Result<HooksOutput> {
    let dir = hooks_dir(git)?;
    let edited: Vec<&str> = HOOKS
        .iter()
        .copied()
        .filter(|hook| is_ours(&dir.join(hook)) && !is_unchanged(&dir.join(hook), hook))
        .collect();
    if !edited.is_empty() {
        return Err(Error::HookConflict {
            detail: format!(
                "{} in {} changed since RepoCue installed it: removing it would lose those changes",
                edited.join(", "),
                dir.display()
            ),
        });
    }
    let mut changes = Vec::new();
    for hook in HOOKS {
        let path = dir.join(hook);
        let chained = chained(&dir, hook);
        let action = if !is_ours(&path) {
            "not-installed"
        } else if chained.exists() {
            std::fs::rename(&chained, &path)
                .map_err(io(format!("restore {}", chained.display())))?;
            "restored"
        } else {
            std::fs::remove_file(&path).map_err(io(format!("remove {}", path.display())))?;
            "removed"
        };
        changes.push(HookChange {
            hook: (*hook).into(),
            action: action.into(),
        });
    }
    Ok(output(&dir, changes))
}

fn write_executable(path: &Path, text: &[u8]) -> Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let tmp = path.with_extension("repocue-tmp");
    std::fs::write(&tmp, text).map_err(io(format!("write {}", tmp.display())))?;
    std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o755))
        .map_err(io(format!("chmod {}", tmp.display())))?;
    std::fs::rename(&tmp, path).map_err(io(format!("install {}", path.display())))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A hook an earlier version wrote (it ran `refresh`) is still RepoCue's to remove, and so
    /// is one of this version for any binary and cache; a line a user added makes it theirs.
    #[test]
    fn a_hook_is_ours_to_remove_only_as_written() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("post-commit");
        let earlier = format!(
            "#!/bin/sh\n{MARKER}\n# Refreshes the RepoCue cache in the background; remove with \
             `repocue hooks uninstall`.\nhook_dir=$(dirname \"$0\")\nstatus=0\nif [ -x \
             \"$hook_dir/post-commit{CHAINED_SUFFIX}\" ]; then\n    \
             \"$hook_dir/post-commit{CHAINED_SUFFIX}\" \"$@\" || status=$?\nfi\n\
             repocue='/usr/bin/repocue'\n[ -x \"$repocue\" ] || repocue=$(command -v repocue \
             2>/dev/null) || exit $status\nroot=$(git rev-parse --show-toplevel 2>/dev/null) && \\\n    \
             (\"$repocue\" --repository \"$root\" refresh >/dev/null 2>&1 &)\nexit $status\n"
        );
        let current = script(
            Path::new("/opt/it's/repocue"),
            Some(Path::new("/c a")),
            "post-commit",
        );
        for text in [earlier.into_bytes(), current.unwrap()] {
            std::fs::write(&path, &text).unwrap();
            assert!(
                is_unchanged(&path, "post-commit"),
                "{}",
                String::from_utf8_lossy(&text)
            );
            let mut edited = text.clone();
            edited.extend_from_slice(b"make notify\n");
            std::fs::write(&path, &edited).unwrap();
            assert!(!is_unchanged(&path, "post-commit"));
        }
    }

    /// The quoted path reads back byte for byte in `sh`, whatever it holds.
    #[test]
    fn script_quotes_any_path() {
        for name in ["plain", "it's", "a b", "\"$(x)\"`y`\\", "'", "é'\n'"] {
            let exe = PathBuf::from(format!("/tmp/{name}/repocue"));
            let text = script(&exe, None, "post-commit").unwrap();
            let text = String::from_utf8(text).unwrap();
            let line = text.lines().find(|l| l.starts_with("repocue=")).unwrap();
            let assignment = &text[text.find(line).unwrap()..text.find("\n[ -x").unwrap()];
            let out = std::process::Command::new("sh")
                .arg("-c")
                .arg(format!("{assignment}\nprintf %s \"$repocue\""))
                .output()
                .unwrap();
            assert_eq!(out.stdout, exe.as_os_str().as_encoded_bytes(), "{name:?}");
        }
        assert!(script(Path::new("/a\0b"), None, "post-commit").is_err());
    }
}
