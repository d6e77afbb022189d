//! Configuration: `.repocue/config.toml` in the work tree and a user-level file
//! (`$REPOCUE_CONFIG_HOME/config.toml`, else `$XDG_CONFIG_HOME/repocue/config.toml`, else
//! `~/.config/repocue/config.toml`). The repository file overrides the user file key by key,
//! except what makes a file a secret, which only adds up ([`Layer::over`]).
//!
//! Both files are validated strictly before anything is written: an unknown section or key, a
//! wrong type, an invalid glob or an out-of-range number is an `invalid_config` error naming
//! the file, the key and the line. `docs/configuration.md` documents every key.

use std::path::{Path, PathBuf};

use globset::{Candidate, GlobBuilder, GlobSet, GlobSetBuilder};
use toml::de::{DeTable, DeValue};
use toml::Spanned;

use crate::digest::hex_sha256;
use crate::error::{Error, Result};

/// The repository configuration file, relative to the work-tree root.
pub const REPOSITORY_FILE: &str = ".repocue/config.toml";
/// Overrides the directory of the user-level `config.toml` (tests, unusual setups).
pub const CONFIG_HOME_ENV: &str = "REPOCUE_CONFIG_HOME";
/// Largest `retention.keep_recent`: more would make retention meaningless.
const MAX_KEEP_RECENT: u64 = 100_000;
/// Bounds of `watch.debounce_ms` (the `watch --debounce-ms` range).
const DEBOUNCE_RANGE: (u64, u64) = (50, 600_000);
/// Largest configuration file read: anything bigger is not a hand-written configuration.
const MAX_FILE_BYTES: u64 = 1 << 20;

/// The effective configuration: built-in defaults, then the user file, then the repository
/// file, key by key.
#[derive(Debug, Clone, Default)]
pub struct Config {
    /// What analysis looks at (`[analysis]`).
    pub analysis: AnalysisRules,
    /// Default token budget when a request gives none (`cue.max_tokens`).
    pub max_tokens: Option<u64>,
    /// Recent snapshots retention keeps (`retention.keep_recent`).
    pub keep_recent: Option<u64>,
    /// Quiet period of `watch` (`watch.debounce_ms`).
    pub debounce_ms: Option<u64>,
}

/// The analysis-relevant settings: everything that decides a file's class.
#[derive(Debug, Clone)]
pub struct AnalysisRules {
    /// Paths never analysed, searched or listed (still tracked for freshness).
    pub exclude: Globs,
    /// Paths analysed even when `exclude` or a built-in vendored/generated rule says otherwise.
    pub include: Globs,
    /// Extra secret file names or paths.
    pub secret_patterns: Globs,
    /// Whether the first bytes of every file are checked for private keys and tokens.
    pub secret_content: bool,
}

impl Default for AnalysisRules {
    fn default() -> Self {
        AnalysisRules {
            exclude: Globs::default(),
            include: Globs::default(),
            secret_patterns: Globs::default(),
            secret_content: true,
        }
    }
}

impl AnalysisRules {
    /// Returns the canonical serialisation of the rules (patterns sorted and deduplicated),
    /// the input of their digest. `extra` names other inputs of classification (the rules'
    /// version, the repository's `info/attributes`).
    pub fn canonical(&self, extra: &str) -> String {
        serde_json::json!({
            "exclude": self.exclude.canonical(),
            "include": self.include.canonical(),
            "secret_patterns": self.secret_patterns.canonical(),
            "secret_content": self.secret_content,
            "extra": extra,
        })
        .to_string()
    }

    /// Returns the digest of [`AnalysisRules::canonical`].
    pub fn digest(&self, extra: &str) -> String {
        hex_sha256(self.canonical(extra).as_bytes())
    }
}

/// A compiled list of path globs with gitignore-like anchoring: a pattern without `/` matches
/// a name at any depth, one with `/` matches from the root; a pattern that matches a
/// directory matches everything below it.
#[derive(Debug, Clone, Default)]
pub struct Globs {
    set: GlobSet,
    patterns: Vec<String>,
    /// Whether case is ignored ([`Globs::ignoring_case`]).
    ignore_case: bool,
}

impl Globs {
    /// Compiles patterns as written, case-sensitive; returns the index and message of the
    /// first bad one.
    #[cfg(test)]
    pub fn new<S: AsRef<str>>(patterns: &[S]) -> std::result::Result<Globs, (usize, String)> {
        Globs::build(patterns, false)
    }

    /// Compiles patterns as written; returns the index and message of the first bad one.
    /// `ignore_case` for secret patterns, which match whatever the case, as the built-in
    /// secret names do (`NOTES.TXT` keeps `notes.txt` secret, the same file on a file system
    /// that ignores case).
    fn build<S: AsRef<str>>(
        patterns: &[S],
        ignore_case: bool,
    ) -> std::result::Result<Globs, (usize, String)> {
        let mut builder = GlobSetBuilder::new();
        let mut kept = Vec::with_capacity(patterns.len());
        for (i, p) in patterns.iter().enumerate() {
            let p = p.as_ref();
            builder.add(compile(p, ignore_case).map_err(|e| (i, e))?);
            kept.push(p.to_owned());
        }
        let set = builder.build().map_err(|e| (0, e.to_string()))?;
        Ok(Globs {
            set,
            patterns: kept,
            ignore_case,
        })
    }

    /// These patterns and `other`'s, in that order, repeats left out.
    pub fn union(&self, other: &Globs) -> std::result::Result<Globs, String> {
        let mut all = self.patterns.clone();
        for p in &other.patterns {
            if !all.contains(p) {
                all.push(p.clone());
            }
        }
        Globs::build(&all, self.ignore_case || other.ignore_case).map_err(|(_, e)| e)
    }

    /// Tells whether a repository-relative path, or one of its directories, matches.
    pub fn matches(&self, path: &[u8]) -> bool {
        if self.patterns.is_empty() {
            return false;
        }
        let ends = path
            .iter()
            .enumerate()
            .filter(|(_, &b)| b == b'/')
            .map(|(i, _)| i)
            .chain([path.len()]);
        ends.into_iter().any(|end| {
            self.set
                .is_match_candidate(&Candidate::from_bytes(&path[..end]))
        })
    }

    fn canonical(&self) -> Vec<String> {
        let mut v = self.patterns.clone();
        v.sort();
        v.dedup();
        v
    }
}

/// Compiles one pattern: `/x` is anchored at the root, `x` without a `/` matches at any
/// depth, a trailing `/` is dropped; `*` and `?` never cross a `/`, `**` does.
fn compile(pattern: &str, ignore_case: bool) -> std::result::Result<globset::Glob, String> {
    let trimmed = pattern.trim_end_matches('/');
    if trimmed.is_empty() {
        return Err("an empty pattern matches nothing".into());
    }
    if trimmed.starts_with('!') {
        return Err("negated patterns are not supported; list the paths under `include`".into());
    }
    let anchored = trimmed.strip_prefix('/');
    let glob = match anchored {
        Some(rest) => rest.to_owned(),
        None if !trimmed.contains('/') => format!("**/{trimmed}"),
        None => trimmed.to_owned(),
    };
    GlobBuilder::new(&glob)
        .literal_separator(true)
        .backslash_escape(true)
        .case_insensitive(ignore_case)
        .build()
        .map_err(|e| e.kind().to_string())
}

/// One file's settings, each remembered only when the file sets it.
#[derive(Debug, Default)]
struct Layer {
    exclude: Option<Globs>,
    include: Option<Globs>,
    secret_patterns: Option<Globs>,
    secret_content: Option<bool>,
    max_tokens: Option<u64>,
    keep_recent: Option<u64>,
    debounce_ms: Option<u64>,
}

impl Layer {
    /// This layer over `below`: every key this layer sets wins, except what makes a file a
    /// secret, which no layer lowers: secret patterns add up, and a `secret_content = true`
    /// below stays on. A repository's file (committed by anyone, or written by a program in
    /// the work tree) must not expose what the user's own file keeps secret.
    fn over(self, below: Layer) -> std::result::Result<Layer, String> {
        let secret_patterns = match (self.secret_patterns, below.secret_patterns) {
            (Some(own), Some(below)) => Some(below.union(&own)?),
            (own, below) => own.or(below),
        };
        let secret_content = match below.secret_content {
            Some(true) => Some(true),
            _ => self.secret_content.or(below.secret_content),
        };
        Ok(Layer {
            exclude: self.exclude.or(below.exclude),
            include: self.include.or(below.include),
            secret_patterns,
            secret_content,
            max_tokens: self.max_tokens.or(below.max_tokens),
            keep_recent: self.keep_recent.or(below.keep_recent),
            debounce_ms: self.debounce_ms.or(below.debounce_ms),
        })
    }

    fn into_config(self) -> Config {
        let defaults = AnalysisRules::default();
        Config {
            analysis: AnalysisRules {
                exclude: self.exclude.unwrap_or(defaults.exclude),
                include: self.include.unwrap_or(defaults.include),
                secret_patterns: self.secret_patterns.unwrap_or(defaults.secret_patterns),
                secret_content: self.secret_content.unwrap_or(defaults.secret_content),
            },
            max_tokens: self.max_tokens,
            keep_recent: self.keep_recent,
            debounce_ms: self.debounce_ms,
        }
    }
}

/// Returns the user-level configuration file, `None` when no home is known.
pub fn user_file() -> Option<PathBuf> {
    // Unit tests run in the developer's environment: their own file must not leak in (the
    // CLI tests cover this lookup with a private home).
    if cfg!(test) {
        return None;
    }
    let env = |k: &str| {
        std::env::var_os(k)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    if let Some(dir) = env(CONFIG_HOME_ENV) {
        return Some(dir.join("config.toml"));
    }
    if let Some(dir) = env("XDG_CONFIG_HOME").filter(|p| p.is_absolute()) {
        return Some(dir.join("repocue").join("config.toml"));
    }
    env("HOME").map(|h| h.join(".config").join("repocue").join("config.toml"))
}

/// Loads the effective configuration of the work tree at `root`. Missing files are empty;
/// an unreadable or invalid one is an `invalid_config` error.
pub fn load(root: &Path) -> Result<Config> {
    let user = match user_file() {
        Some(p) => read_layer(&p)?,
        None => Layer::default(),
    };
    let path = root.join(REPOSITORY_FILE);
    // The repository's file is the repository's own: a symbolic link (to a file outside it, or
    // to nothing) is refused, not followed or taken for no file. The user's may be one.
    if std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink()) {
        return Err(Error::Config {
            path: path.display().to_string(),
            line: None,
            key: None,
            detail: "a symbolic link; the repository's configuration must be a regular file in \
                     the work tree"
                .into(),
        });
    }
    let repo = read_layer(&path)?;
    let merged = repo.over(user).map_err(|detail| Error::Config {
        path: path.display().to_string(),
        line: None,
        key: Some("analysis.secret_patterns".into()),
        detail: format!("with the user file's secret patterns: {detail}"),
    })?;
    Ok(merged.into_config())
}

fn read_layer(path: &Path) -> Result<Layer> {
    let shown = path.display().to_string();
    let fail = |detail: String| Error::Config {
        path: shown.clone(),
        line: None,
        key: None,
        detail,
    };
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Layer::default()),
        Err(e) => return Err(fail(format!("cannot read it: {e}"))),
    };
    if !meta.is_file() {
        return Err(fail("not a regular file".into()));
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(fail(format!("larger than {MAX_FILE_BYTES} bytes")));
    }
    let bytes = std::fs::read(path).map_err(|e| fail(format!("cannot read it: {e}")))?;
    let text = String::from_utf8(bytes).map_err(|_| fail("not valid UTF-8".into()))?;
    parse(&shown, &text)
}

/// Where a problem is: the 1-based line of a byte offset.
fn line_of(text: &str, offset: usize) -> u64 {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count() as u64
        + 1
}

/// Parses and validates one configuration file's text; `path` is how errors name it.
fn parse(path: &str, text: &str) -> Result<Layer> {
    let err =
        |span: Option<std::ops::Range<usize>>, key: Option<String>, detail: String| Error::Config {
            path: path.to_owned(),
            line: span.map(|s| line_of(text, s.start)),
            key,
            detail,
        };
    let doc = DeTable::parse(text).map_err(|e| err(e.span(), None, e.message().to_owned()))?;
    let mut layer = Layer::default();
    for (section, value) in doc.get_ref().iter() {
        let name = section.get_ref().as_ref();
        let DeValue::Table(table) = value.get_ref() else {
            return Err(err(
                Some(section.span()),
                Some(name.to_owned()),
                "unknown key; settings belong to [analysis], [cue], [retention] or [watch]".into(),
            ));
        };
        if !matches!(name, "analysis" | "cue" | "retention" | "watch") {
            return Err(err(
                Some(section.span()),
                Some(name.to_owned()),
                "unknown section; known sections are [analysis], [cue], [retention] and [watch]"
                    .into(),
            ));
        }
        for (key, v) in table.iter() {
            let full = format!("{name}.{}", key.get_ref());
            let at = |detail: String| err(Some(v.span()), Some(full.clone()), detail);
            set_key(&mut layer, &full, v, &at).map_err(|e| match e {
                KeyError::Unknown => err(
                    Some(key.span()),
                    Some(full.clone()),
                    format!("unknown key in [{name}]; known keys: {}", known_keys(name)),
                ),
                KeyError::Bad(e) => e,
                KeyError::Element(span, detail) => err(Some(span), Some(full.clone()), detail),
            })?;
        }
    }
    Ok(layer)
}

enum KeyError {
    Unknown,
    Bad(Error),
    Element(std::ops::Range<usize>, String),
}

fn known_keys(section: &str) -> &'static str {
    match section {
        "analysis" => "exclude, include, secret_patterns, secret_content",
        "cue" => "max_tokens",
        "retention" => "keep_recent",
        _ => "debounce_ms",
    }
}

/// Validates and stores one key's value.
fn set_key(
    layer: &mut Layer,
    key: &str,
    v: &Spanned<DeValue<'_>>,
    at: &dyn Fn(String) -> Error,
) -> std::result::Result<(), KeyError> {
    let number = |lo: u64, hi: u64| -> std::result::Result<u64, KeyError> {
        let n = integer(v.get_ref()).ok_or_else(|| {
            KeyError::Bad(at(format!(
                "expected an integer, found {}",
                v.get_ref().type_str()
            )))
        })?;
        if n < lo as i128 || n > hi as i128 {
            return Err(KeyError::Bad(at(format!(
                "{n} is out of range {lo}..={hi}"
            ))));
        }
        Ok(n as u64)
    };
    match key {
        "analysis.exclude" => layer.exclude = Some(globs(v, at, false)?),
        "analysis.include" => layer.include = Some(globs(v, at, false)?),
        "analysis.secret_patterns" => layer.secret_patterns = Some(globs(v, at, true)?),
        "analysis.secret_content" => {
            layer.secret_content = Some(v.get_ref().as_bool().ok_or_else(|| {
                KeyError::Bad(at(format!(
                    "expected true or false, found {}",
                    v.get_ref().type_str()
                )))
            })?)
        }
        "cue.max_tokens" => layer.max_tokens = Some(number(1, crate::api::MAX_MAX_TOKENS)?),
        "retention.keep_recent" => layer.keep_recent = Some(number(0, MAX_KEEP_RECENT)?),
        "watch.debounce_ms" => {
            layer.debounce_ms = Some(number(DEBOUNCE_RANGE.0, DEBOUNCE_RANGE.1)?)
        }
        _ => return Err(KeyError::Unknown),
    }
    Ok(())
}

fn integer(v: &DeValue<'_>) -> Option<i128> {
    let i = v.as_integer()?;
    i128::from_str_radix(i.as_str(), i.radix()).ok()
}

/// Reads an array of glob strings; a bad element is named by its own line.
fn globs(
    v: &Spanned<DeValue<'_>>,
    at: &dyn Fn(String) -> Error,
    ignore_case: bool,
) -> std::result::Result<Globs, KeyError> {
    let Some(items) = v.get_ref().as_array() else {
        return Err(KeyError::Bad(at(format!(
            "expected an array of glob strings, found {}",
            v.get_ref().type_str()
        ))));
    };
    let mut patterns = Vec::with_capacity(items.len());
    for item in items.iter() {
        match item.get_ref().as_str() {
            Some(s) => patterns.push(s.to_owned()),
            None => {
                return Err(KeyError::Element(
                    item.span(),
                    format!(
                        "expected a glob string, found {}",
                        item.get_ref().type_str()
                    ),
                ))
            }
        }
    }
    Globs::build(&patterns, ignore_case).map_err(|(i, detail)| {
        KeyError::Element(
            items[i].span(),
            format!("invalid glob {:?}: {detail}", patterns[i]),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_ok(text: &str) -> Layer {
        parse("c.toml", text).unwrap()
    }

    fn parse_err(text: &str) -> (Option<u64>, Option<String>, String) {
        match parse("c.toml", text).unwrap_err() {
            Error::Config {
                path,
                line,
                key,
                detail,
            } => {
                assert_eq!(path, "c.toml");
                (line, key, detail)
            }
            other => panic!("not a config error: {other}"),
        }
    }

    #[test]
    fn reads_every_key() {
        let l = parse_ok(
            "[analysis]\nexclude = [\"third_party/**\", \"*.min.js\"]\ninclude = [\"third_party/ours/**\"]\n\
             secret_patterns = [\"*.pem\"]\nsecret_content = false\n\
             [cue]\nmax_tokens = 800\n[retention]\nkeep_recent = 5\n[watch]\ndebounce_ms = 200\n",
        );
        let c = l.into_config();
        assert!(c.analysis.exclude.matches(b"third_party/x/y.c"));
        assert!(c.analysis.exclude.matches(b"web/dist/app.min.js"));
        assert!(!c.analysis.exclude.matches(b"src/app.js"));
        assert!(c.analysis.include.matches(b"third_party/ours/a.c"));
        assert!(c.analysis.secret_patterns.matches(b"deploy/tls.pem"));
        assert!(!c.analysis.secret_content);
        assert_eq!(
            (c.max_tokens, c.keep_recent, c.debounce_ms),
            (Some(800), Some(5), Some(200))
        );
    }

    #[test]
    fn anchors_patterns_like_gitignore() {
        let g = Globs::new(&["/build", "docs/*.md", "vendor", "a/**/z.txt", "{x,y}/k"]).unwrap();
        assert!(g.matches(b"build/out.o"));
        assert!(!g.matches(b"src/build/out.o"), "/build is anchored");
        assert!(g.matches(b"docs/a.md"));
        assert!(!g.matches(b"docs/sub/a.md"), "* does not cross /");
        assert!(
            g.matches(b"lib/vendor/x.c"),
            "a bare name matches at any depth"
        );
        assert!(g.matches(b"a/b/c/z.txt") && g.matches(b"a/z.txt"));
        assert!(g.matches(b"y/k/file"));
        assert!(!g.matches(b"src/vendored.rs"));
    }

    #[test]
    fn errors_name_the_key_and_the_line() {
        let (line, key, d) = parse_err("[analysis]\nexclude = [\"a\"]\nexclud = [\"b\"]\n");
        assert_eq!((line, key.as_deref()), (Some(3), Some("analysis.exclud")));
        assert!(d.contains("unknown key"), "{d}");
        let (line, key, _) = parse_err("[cue]\nmax_tokens = 500\n\n[nope]\nx = 1\n");
        assert_eq!((line, key.as_deref()), (Some(4), Some("nope")));
        let (line, key, d) = parse_err("[cue]\nmax_tokens = \"500\"\n");
        assert_eq!((line, key.as_deref()), (Some(2), Some("cue.max_tokens")));
        assert!(d.contains("expected an integer, found string"), "{d}");
        let (line, _, d) = parse_err("[cue]\nmax_tokens = 0\n");
        assert_eq!(line, Some(2));
        assert!(d.contains("out of range 1..=20000"), "{d}");
        let (line, _, d) = parse_err("[retention]\nkeep_recent = -1\n");
        assert_eq!(line, Some(2));
        assert!(d.contains("out of range"), "{d}");
        let (line, key, d) = parse_err("[analysis]\nexclude = [\n  \"ok/**\",\n  \"bad[\",\n]\n");
        assert_eq!((line, key.as_deref()), (Some(4), Some("analysis.exclude")));
        assert!(d.contains("invalid glob \"bad[\""), "{d}");
        let (line, _, d) = parse_err("[analysis]\ninclude = [\"!x\"]\n");
        assert_eq!(line, Some(2));
        assert!(d.contains("negated"), "{d}");
        let (line, _, d) = parse_err("[analysis]\nsecret_content = \"yes\"\n");
        assert_eq!(line, Some(2));
        assert!(d.contains("true or false"), "{d}");
        let (_, key, _) = parse_err("max_tokens = 5\n");
        assert_eq!(key.as_deref(), Some("max_tokens"));
        let (line, key, _) = parse_err("[analysis]\nexclude = [1]\n");
        assert_eq!((line, key.as_deref()), (Some(2), Some("analysis.exclude")));
        let (line, key, _) = parse_err("[cue]\nmax_tokens = 1\nmax_tokens = 2\n");
        assert_eq!((line, key), (Some(3), None), "a TOML error keeps its line");
    }

    #[test]
    fn the_repository_file_overrides_the_user_file_key_by_key() {
        let user = parse_ok("[analysis]\nexclude = [\"u/**\"]\n[cue]\nmax_tokens = 300\n");
        let repo = parse_ok("[analysis]\nexclude = [\"r/**\"]\n");
        let c = repo.over(user).unwrap().into_config();
        assert!(c.analysis.exclude.matches(b"r/x") && !c.analysis.exclude.matches(b"u/x"));
        assert_eq!(
            c.max_tokens,
            Some(300),
            "a key the repository file leaves alone"
        );
        assert!(c.analysis.secret_content, "the default");
    }

    /// What makes a file a secret only adds up: the repository file (anyone may commit or
    /// write one) neither drops the user's secret patterns nor turns off a content check the
    /// user turned on; it may add patterns, and turn the check off where the user said nothing.
    #[test]
    fn a_repository_file_never_lowers_the_users_secrets() {
        let user =
            || parse_ok("[analysis]\nsecret_patterns = [\"*.secret\"]\nsecret_content = true\n");
        let repo = parse_ok("[analysis]\nsecret_patterns = []\nsecret_content = false\n");
        let c = repo.over(user()).unwrap().into_config();
        assert!(c.analysis.secret_patterns.matches(b"prod.secret"));
        assert!(c.analysis.secret_content);
        let repo = parse_ok("[analysis]\nsecret_patterns = [\"*.pem\"]\n");
        let c = repo.over(user()).unwrap().into_config();
        assert!(c.analysis.secret_patterns.matches(b"prod.secret"));
        assert!(c.analysis.secret_patterns.matches(b"tls.pem"));
        // Whatever the case, as the built-in secret names; other lists keep it.
        assert!(c.analysis.secret_patterns.matches(b"PROD.SECRET"));
        let exclude = parse_ok("[analysis]\nexclude = [\"*.log\"]\n").into_config();
        assert!(!exclude.analysis.exclude.matches(b"RUN.LOG"));
        let silent = parse_ok("[cue]\nmax_tokens = 300\n");
        let repo = parse_ok("[analysis]\nsecret_content = false\n");
        assert!(
            !repo
                .over(silent)
                .unwrap()
                .into_config()
                .analysis
                .secret_content
        );
    }

    #[test]
    fn the_digest_is_canonical() {
        let a = parse_ok("[analysis]\nexclude = [\"b\", \"a\", \"a\"]\n").into_config();
        let b =
            parse_ok("[analysis]\nexclude = [\"a\", \"b\"]\n[cue]\nmax_tokens = 9\n").into_config();
        assert_eq!(a.analysis.digest("v1"), b.analysis.digest("v1"));
        assert_ne!(a.analysis.digest("v1"), b.analysis.digest("v2"));
        let c = parse_ok("[analysis]\nexclude = [\"a\"]\n").into_config();
        assert_ne!(a.analysis.digest("v1"), c.analysis.digest("v1"));
    }

    #[test]
    fn files_load_from_the_work_tree_and_missing_ones_are_empty() {
        let dir = tempfile::tempdir().unwrap();
        let layer = read_layer(&dir.path().join("absent.toml")).unwrap();
        assert!(layer.exclude.is_none());
        std::fs::create_dir(dir.path().join(".repocue")).unwrap();
        let file = dir.path().join(REPOSITORY_FILE);
        std::fs::write(&file, "[cue]\nmax_tokens = 7\n").unwrap();
        assert_eq!(read_layer(&file).unwrap().max_tokens, Some(7));
        std::fs::write(&file, b"\xff\n").unwrap();
        let e = read_layer(&file).unwrap_err();
        assert_eq!(e.code(), "invalid_config");
        assert!(e.to_string().contains(".repocue/config.toml"), "{e}");
    }
}
