//! Repository-relative paths as Git sees them: bytes, not strings.
//!
//! Git paths may hold any byte but NUL. RepoCue keeps them as bytes everywhere and converts
//! to text only at the output edge. Paths that are not valid UTF-8 are rendered with each
//! invalid byte as `\xNN` and always reported in a `non_utf8_path` warning, never dropped.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};

/// Renders a path for JSON output; invalid UTF-8 bytes become `\xNN`. The rendering is
/// reversible, so two paths never render alike: a backslash that the path's text follows with
/// `x` and two hex digits (a file named `bad\xFF.py` in so many characters) is written
/// `\x5C`, as the byte it is.
pub fn display(path: &[u8]) -> String {
    let mut out = String::with_capacity(path.len() + 8);
    for chunk in path.utf8_chunks() {
        let valid = chunk.valid();
        if valid.contains("\\x") {
            let mut rest = valid;
            while let Some(at) = rest.find('\\') {
                out.push_str(&rest[..at]);
                let after = &rest.as_bytes()[at + 1..];
                let escape_like = after.len() >= 3
                    && after[0] == b'x'
                    && after[1..3].iter().all(u8::is_ascii_hexdigit);
                out.push_str(if escape_like { "\\x5C" } else { "\\" });
                rest = &rest[at + 1..];
            }
            out.push_str(rest);
        } else {
            out.push_str(valid);
        }
        for b in chunk.invalid() {
            out.push_str(&format!("\\x{b:02X}"));
        }
    }
    out
}

/// The path a [`display`] rendering names: each `\xNN` the byte it stands for, every other
/// character as written. What a request names a path by (`--path`), as the outputs show it.
pub fn from_display(shown: &str) -> Vec<u8> {
    let bytes = shown.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escape = bytes[i] == b'\\'
            && bytes.get(i + 1) == Some(&b'x')
            && bytes
                .get(i + 2..i + 4)
                .is_some_and(|h| h.iter().all(u8::is_ascii_hexdigit));
        if escape {
            let hex = std::str::from_utf8(&bytes[i + 2..i + 4]).expect("ASCII hex digits");
            out.push(u8::from_str_radix(hex, 16).expect("two hex digits"));
            i += 4;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    out
}

/// Tells whether the path renders losslessly as text.
pub fn is_utf8(path: &[u8]) -> bool {
    std::str::from_utf8(path).is_ok()
}

/// Joins a repository-relative byte path onto the work-tree root.
pub fn join(root: &Path, rel: &[u8]) -> PathBuf {
    use std::os::unix::ffi::OsStrExt;
    root.join(OsStr::from_bytes(rel))
}

/// Returns the file name part (after the last `/`).
pub fn file_name(path: &[u8]) -> &[u8] {
    match path.iter().rposition(|&b| b == b'/') {
        Some(i) => &path[i + 1..],
        None => path,
    }
}

/// Returns the directory part (before the last `/`), `None` for a path at the root.
pub fn parent(path: &[u8]) -> Option<&[u8]> {
    path.iter().rposition(|&b| b == b'/').map(|i| &path[..i])
}

/// Returns the extension (after the last `.` of the file name), lowercased, if any.
pub fn extension(path: &[u8]) -> Option<String> {
    let name = file_name(path);
    let dot = name.iter().rposition(|&b| b == b'.')?;
    if dot == 0 {
        return None;
    }
    std::str::from_utf8(&name[dot + 1..])
        .ok()
        .map(|s| s.to_ascii_lowercase())
}

/// Returns the first path component when the path has more than one.
pub fn top_dir(path: &[u8]) -> Option<&[u8]> {
    path.iter().position(|&b| b == b'/').map(|i| &path[..i])
}

/// A path as a request names it (`--path`), made repository-relative: `.` and empty segments
/// dropped, `..` taken back, and an absolute path inside the work tree at `root` made relative
/// to it (`./src/`, `src//lib/../`, `/home/me/repo/src` all name `src`; `.` names the whole
/// repository, as `""` does). `Err` with the reason for a path that leaves the repository.
/// Paths stay relative to the repository root, never to the working directory: what every
/// cue prints is the path to give back.
pub fn request_path(raw: &str, root: &Path) -> Result<String, String> {
    let outside = || format!("{raw:?} is outside the repository at {}", root.display());
    let absolute;
    let relative = if raw.starts_with('/') {
        let inside = |root: &Path| {
            Path::new(raw)
                .strip_prefix(root)
                .ok()
                .and_then(|p| p.to_str().map(str::to_owned))
        };
        // The root as Git reported it, or as the file system resolves it (a symbolic link in
        // the path the user typed, `/tmp` on macOS).
        absolute = inside(root)
            .or_else(|| inside(&root.canonicalize().ok()?))
            .ok_or_else(outside)?;
        absolute.as_str()
    } else {
        raw
    };
    let mut segments: Vec<&str> = Vec::new();
    for segment in relative.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                segments.pop().ok_or_else(outside)?;
            }
            s => segments.push(s),
        }
    }
    Ok(segments.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_displayed_path_reads_back_as_its_bytes() {
        for path in [
            b"plain/a.rs".as_slice(),
            b"inv\xff\xfeutf.py",
            b"inv\\xFF\\xFEutf.py",
            b"back\\slash\\x",
            b"\\x5C",
        ] {
            assert_eq!(from_display(&display(path)), path, "{}", display(path));
        }
    }

    #[test]
    fn request_paths_are_made_repository_relative() {
        let root = Path::new("/work/repo");
        let ok = |raw: &str| request_path(raw, root).unwrap();
        assert_eq!(ok("src"), "src");
        assert_eq!(ok("./src/"), "src");
        assert_eq!(ok("src//lib/./x.rs"), "src/lib/x.rs");
        assert_eq!(ok("src/lib/../main.rs"), "src/main.rs");
        assert_eq!(ok("."), "");
        assert_eq!(ok("./"), "");
        assert_eq!(ok(""), "");
        assert_eq!(ok("/work/repo/src/"), "src");
        assert_eq!(ok("/work/repo"), "");
        assert_eq!(ok("-odd name/ü"), "-odd name/ü");
        for bad in [
            "..",
            "../x",
            "src/../../x",
            "/etc",
            "/work/repository/src",
            "/work",
        ] {
            let err = request_path(bad, root).unwrap_err();
            assert!(err.contains("outside the repository"), "{bad}: {err}");
        }
    }

    #[test]
    fn renders_invalid_bytes_escaped() {
        assert_eq!(display(b"a\xffb.txt"), "a\\xFFb.txt");
        // A name that only looks escaped stays told apart from the bytes it spells.
        assert_eq!(display(b"bad\\xFF.py"), "bad\\x5CxFF.py");
        assert_ne!(display(b"bad\\xFF.py"), display(b"bad\xff.py"));
        // Other backslashes are plain text.
        assert_eq!(display(b"a\\b\\x1.txt\\"), "a\\b\\x1.txt\\");
        assert_eq!(display("ü/x".as_bytes()), "ü/x");
    }

    #[test]
    fn splits_names_and_extensions() {
        assert_eq!(file_name(b"a/b/c.RS"), b"c.RS");
        assert_eq!(extension(b"a/b/c.RS").as_deref(), Some("rs"));
        assert_eq!(extension(b".gitignore"), None);
        assert_eq!(top_dir(b"src/lib.rs"), Some(&b"src"[..]));
        assert_eq!(top_dir(b"lib.rs"), None);
    }
}
