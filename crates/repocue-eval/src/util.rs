//! Small shared pieces: digests, timestamps, exclusive and atomic file writes, spawning a
//! program that was just written, and the rules that keep evidence outside the evaluated
//! repository.

use std::fs::OpenOptions;
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Component, Path, PathBuf};

use sha2::{Digest, Sha256};

use crate::error::{EvalError, Result};

/// Spawns `cmd`, retrying for a moment while its executable is busy (`ETXTBSY`): a program
/// written a moment ago (an agent or runner script) can still be open for writing in a child
/// that another thread forked before the file was closed, until that child execs. Any other
/// outcome is returned at once.
pub fn spawn(cmd: &mut std::process::Command) -> std::io::Result<std::process::Child> {
    let mut delay = std::time::Duration::from_millis(5);
    for _ in 0..6 {
        match cmd.spawn() {
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy => {
                std::thread::sleep(delay);
                delay *= 2;
            }
            other => return other,
        }
    }
    cmd.spawn()
}

/// Returns `sha256:<64 lowercase hex>` of `bytes`.
pub fn digest(bytes: &[u8]) -> String {
    format!("sha256:{}", hex_sha256(bytes))
}

/// Returns the lowercase hex SHA-256 of `bytes`.
pub fn hex_sha256(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// Returns the digest of a file's bytes.
pub fn file_digest(path: &Path) -> Result<String> {
    let bytes = std::fs::read(path).map_err(|e| EvalError::io(path, e))?;
    Ok(digest(&bytes))
}

/// Returns `ceil(bytes / 4)`, the token estimate RepoCue uses everywhere.
pub fn estimated_tokens(bytes: u64) -> u64 {
    bytes.div_ceil(4)
}

/// Returns the current time as RFC 3339 UTC with millisecond precision.
pub fn now() -> String {
    repocue::time::now_rfc3339()
}

/// Returns the current time in milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    repocue::time::now_ns() / 1_000_000
}

/// Parses an RFC 3339 UTC instant (`YYYY-MM-DDTHH:MM:SS[.fraction]Z`) into milliseconds since
/// the Unix epoch. Other offsets are rejected: every stored time is UTC.
pub fn parse_utc_ms(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    if b.len() < 20 || *b.last()? != b'Z' || b[4] != b'-' || b[7] != b'-' || b[10] != b'T' {
        return None;
    }
    if b[13] != b':' || b[16] != b':' {
        return None;
    }
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        let t = s.get(r)?;
        t.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| t.parse().ok())?
    };
    let (y, mo, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (h, mi, sec) = (num(11..13)?, num(14..16)?, num(17..19)?);
    // A day the month does not have is no instant: 2026-02-31 was read as 2026-03-03.
    if !(1..=12).contains(&mo) || !(1..=days_in_month(y, mo)).contains(&d) {
        return None;
    }
    if h > 23 || mi > 59 || sec > 60 {
        return None;
    }
    let frac = &s[19..s.len() - 1];
    let millis = if frac.is_empty() {
        0
    } else {
        let digits = frac.strip_prefix('.')?;
        if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
        let mut m: String = digits.chars().take(3).collect();
        while m.len() < 3 {
            m.push('0');
        }
        m.parse::<i64>().ok()?
    };
    let days = days_from_civil(y, mo as u32, d as u32);
    Some(((days * 86_400 + h * 3600 + mi * 60 + sec) * 1000) + millis)
}

/// The days of month `m` (1–12) of year `y`, in the proleptic Gregorian calendar.
fn days_in_month(y: i64, m: i64) -> i64 {
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    match m {
        2 if leap => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Hinnant's algorithm).
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m as i64 + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Formats milliseconds since the Unix epoch as RFC 3339 UTC.
pub fn format_ms(ms: i64) -> String {
    repocue::time::format_unix_millis(ms)
}

/// Creates `path` exclusively (mode 0600), writes `bytes` and flushes them to disk.
pub fn write_new(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut f = OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
        .map_err(|e| EvalError::io(path, e))?;
    f.write_all(bytes)
        .and_then(|()| f.sync_all())
        .map_err(|e| EvalError::io(path, e))
}

/// Writes `bytes` to `path` atomically: a temporary sibling, flushed, then one rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.{}.tmp", unique_suffix()));
    write_new(&tmp, bytes)?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        EvalError::io(path, e)
    })
}

/// Serializes `value` as pretty JSON with a trailing newline.
pub fn pretty<T: serde::Serialize>(value: &T) -> Vec<u8> {
    let mut v = serde_json::to_vec_pretty(value).expect("value serializes");
    v.push(b'\n');
    v
}

/// Returns a hard-to-guess suffix for staging names (time, process id and a counter hashed).
pub fn unique_suffix() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let seed = format!("{}:{}:{n}", repocue::time::now_ns(), std::process::id());
    hex_sha256(seed.as_bytes())[..12].to_owned()
}

/// Resolves `path` like `realpath`, also for paths that do not exist yet: the longest existing
/// ancestor is canonicalized (symlinks followed) and the missing tail appended.
pub fn canonical_lenient(path: &Path) -> Result<PathBuf> {
    let abs = std::path::absolute(path).map_err(|e| EvalError::io(path, e))?;
    let mut tail = Vec::new();
    let mut cur = abs.as_path();
    loop {
        match cur.canonicalize() {
            Ok(c) => {
                let mut out = c;
                for part in tail.iter().rev() {
                    out.push(part);
                }
                return Ok(out);
            }
            Err(_) => match (cur.parent(), cur.file_name()) {
                (Some(p), Some(n)) => {
                    tail.push(n.to_owned());
                    cur = p;
                }
                _ => return Ok(abs),
            },
        }
    }
}

/// Fails unless `dir` (canonicalized) lies outside both the work tree and the Git directory.
pub fn require_outside(dir: &Path, root: &Path, git_dir: &Path, what: &str) -> Result<PathBuf> {
    let c = canonical_lenient(dir)?;
    for inner in [root, git_dir] {
        if c.starts_with(inner) {
            return Err(EvalError::new(
                "output_inside_repository",
                format!(
                    "{what} {} lies inside {}; evidence must stay outside the work tree and its Git directory",
                    c.display(),
                    inner.display()
                ),
            ));
        }
    }
    Ok(c)
}

/// Checks a set-relative reference: relative, non-empty, no `.`/`..` components, and (after
/// following symlinks) inside `base`. Returns the resolved path.
pub fn resolve_reference(base: &Path, rel: &str, field: &str) -> Result<PathBuf> {
    let bad = |why: &str| {
        EvalError::new(
            "bad_reference",
            format!("{field}: {rel:?} {why}; references must be relative paths inside the set"),
        )
    };
    if rel.is_empty() {
        return Err(bad("is empty"));
    }
    let p = Path::new(rel);
    if p.is_absolute() {
        return Err(bad("is absolute"));
    }
    if p.components().any(|c| !matches!(c, Component::Normal(_))) {
        return Err(bad("escapes or is not normalised"));
    }
    let joined = base.join(p);
    let resolved = joined
        .canonicalize()
        .map_err(|e| EvalError::new("bad_reference", format!("{field}: {rel:?}: {e}")))?;
    let base_c = base.canonicalize().map_err(|e| EvalError::io(base, e))?;
    if !resolved.starts_with(&base_c) {
        return Err(bad("resolves outside the set"));
    }
    Ok(resolved)
}

/// Replaces characters that are unsafe in file names with `-`.
pub fn safe_name(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
                c
            } else {
                '-'
            }
        })
        .collect()
}

/// Returns lowercase hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_utc_instants_with_any_fraction_width() {
        assert_eq!(parse_utc_ms("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(parse_utc_ms("1970-01-01T00:00:01.5Z"), Some(1500));
        assert_eq!(
            parse_utc_ms("2000-02-29T00:00:00.123456Z"),
            Some(951_782_400_123)
        );
        let t = parse_utc_ms("2026-12-31T23:59:59.999Z").unwrap();
        assert_eq!(format_ms(t), "2026-12-31T23:59:59.999Z");
        for bad in [
            "2026-12-31T23:59:59+01:00",
            "2026-12-31 23:59:59Z",
            "2026-13-01T00:00:00Z",
            "2026-02-31T00:00:00Z",
            "2025-04-31T00:00:00Z",
            "2026-02-29T00:00:00Z",
            "1900-02-29T00:00:00Z",
            "2026-12-31T23:59:59.Z",
            "yesterday",
        ] {
            assert_eq!(parse_utc_ms(bad), None, "{bad}");
        }
    }

    #[test]
    fn references_must_stay_inside_the_set() {
        let tmp = tempfile::tempdir().unwrap();
        let base = tmp.path().join("set");
        std::fs::create_dir(&base).unwrap();
        std::fs::write(base.join("a.json"), "{}").unwrap();
        std::fs::write(tmp.path().join("outside.json"), "{}").unwrap();
        std::os::unix::fs::symlink("../outside.json", base.join("link.json")).unwrap();
        assert!(resolve_reference(&base, "a.json", "f").is_ok());
        for bad in [
            "/etc/passwd",
            "../outside.json",
            "link.json",
            "./a.json",
            "",
        ] {
            let e = resolve_reference(&base, bad, "f").unwrap_err();
            assert_eq!(e.code, "bad_reference", "{bad}: {e}");
        }
    }

    #[test]
    fn outside_check_follows_symlinks_and_missing_tails() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap().join("repo");
        std::fs::create_dir_all(root.join(".git")).unwrap();
        let git = root.join(".git");
        let link = tmp.path().join("link");
        std::os::unix::fs::symlink(&root, &link).unwrap();
        assert!(require_outside(&link.join("new/dir"), &root, &git, "out").is_err());
        assert!(require_outside(&root, &root, &git, "out").is_err());
        assert!(require_outside(&tmp.path().join("elsewhere"), &root, &git, "out").is_ok());
    }
}
