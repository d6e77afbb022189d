//! Classification of tracked paths: language and document flag, from name, extension and
//! the first bytes of content; and the file's class (source, vendored, generated, excluded,
//! secret) from built-in name rules, the configuration, Git attributes and, for secrets, the
//! first bytes of content.

use crate::config::AnalysisRules;
use crate::model::FileClass;
use crate::paths;

/// Version of the built-in class rules below, and of the names that say a language
/// ([`language`]): part of the rules digest every snapshot records, so a release that changes
/// them re-classifies cached files on the next refresh, and reads again a file whose name now
/// says a language its row lacks (`classes-2`: `.rdoc` is RDoc, a document; `classes-3`: a
/// configured secret pattern matches whatever the case; `classes-4`: a script named
/// `install` or `README` whose shebang says a language is no document, and a JVM package
/// named like a vendored directory, `…/src/test/java/org/x/external/`, is the project's;
/// `classes-5`: `.tcl` is Tcl, Redis's test suite; `classes-6`: `.phps` is PHP; `classes-8`:
/// `.vb` is Visual Basic .NET, `.fs`, `.fsi` and `.fsx` are F#, `.feature` is Gherkin).
pub const RULES_VERSION: &str = "classes-8";

/// Directory names whose contents are vendored: hashed and tracked like every file, but never
/// analysed (their symbols would drown the project's own).
pub(crate) const VENDORED_DIRS: &[&str] = &[
    "vendor",
    "vendors",
    "third_party",
    "thirdparty",
    "third-party",
    "3rdparty",
    "node_modules",
    "bower_components",
    "external",
    "extern",
    "deps",
    ".yarn",
    "Pods",
    "Carthage",
];
/// Directory names whose contents are generated.
pub(crate) const GENERATED_DIRS: &[&str] = &["generated", "__generated__"];
/// File name endings of generated or minified files (and lock files).
const GENERATED_SUFFIXES: &[&str] = &[
    ".min.js",
    ".min.css",
    ".bundle.js",
    ".pb.go",
    "_pb2.py",
    ".pb.h",
    ".pb.cc",
    ".g.dart",
    ".designer.cs",
    ".generated.ts",
    ".lock",
];
/// File name endings of key material (compared case-insensitively).
const SECRET_SUFFIXES: &[&str] = &[".pem", ".key", ".p12", ".pfx", ".jks", ".keystore", ".env"];
/// Exact file names of credential stores (compared case-insensitively).
const SECRET_NAMES: &[&str] = &[
    ".env",
    "credentials",
    ".credentials",
    "credentials.json",
    "credentials.yml",
    "credentials.yaml",
    "credentials.xml",
    "credentials.toml",
    "credentials.ini",
    "credentials.csv",
    ".git-credentials",
    ".netrc",
    "_netrc",
    ".pgpass",
    ".htpasswd",
    ".pypirc",
];
/// `.env.<suffix>` files that are templates by convention, not secrets.
const ENV_TEMPLATES: &[&str] = &["example", "sample", "template", "dist", "defaults"];
/// Private SSH key file names (their `.pub` halves are public).
const SSH_KEY_PREFIXES: &[&str] = &["id_rsa", "id_dsa", "id_ecdsa", "id_ed25519"];

/// How much of a file's start is kept to classify it (binary detection, shebang, secrets).
pub const HEAD_BYTES: usize = 8 << 10;

/// Returns the language of a path, from its file name, extension or shebang line (the one
/// table in `repocue_structure`).
pub fn language(path: &[u8], head: &[u8]) -> Option<&'static str> {
    repocue_structure::language_name(path, head)
}

/// Tells whether a path is a document: Markdown, reStructuredText, AsciiDoc or plain text, or
/// a conventional extension-less document name (README, CONTRIBUTING, ...).
pub fn is_document(path: &[u8], language: Option<&str>) -> bool {
    if matches!(
        language,
        Some("Markdown" | "reStructuredText" | "AsciiDoc" | "RDoc" | "Text")
    ) {
        return !paths::file_name(path).eq_ignore_ascii_case(b"CMakeLists.txt");
    }
    // A name without an extension is a document's only when nothing says a language: fzf's
    // `install` is a shell script (its shebang says so), and its comments read as headings.
    let name = String::from_utf8_lossy(paths::file_name(path)).to_ascii_uppercase();
    language.is_none()
        && paths::extension(path).is_none()
        && [
            "README",
            "CONTRIBUTING",
            "CHANGELOG",
            "CHANGES",
            "HACKING",
            "INSTALL",
            "NEWS",
            "LICENSE",
            "LICENCE",
            "COPYING",
            "UNLICENSE",
        ]
        .iter()
        .any(|d| name == *d)
}

/// What Git attributes say about a path: `Some(true)` when `linguist-vendored` /
/// `linguist-generated` is set, `Some(false)` when unset or `false`, `None` when unspecified.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Attributes {
    /// `linguist-vendored`.
    pub vendored: Option<bool>,
    /// `linguist-generated`.
    pub generated: Option<bool>,
}

/// Tells whether a file name is a conventional secret: key material, `.env` files, credential
/// stores and private SSH keys. Precise names only: `credentials_test.go` is code.
pub fn is_secret_name(path: &[u8]) -> bool {
    let name = String::from_utf8_lossy(paths::file_name(path)).to_ascii_lowercase();
    if let Some(rest) = name.strip_prefix(".env.") {
        return !ENV_TEMPLATES.contains(&rest);
    }
    SECRET_NAMES.contains(&name.as_str())
        || SECRET_SUFFIXES.iter().any(|s| name.ends_with(s))
        || SSH_KEY_PREFIXES
            .iter()
            .any(|p| name.starts_with(p) && !name.ends_with(".pub"))
}

/// Tells whether a path is a secret by its name alone: a built-in secret name or one of the
/// configured `secret_patterns` (what can be decided for an untracked path).
pub fn is_secret_path(path: &[u8], rules: &AnalysisRules) -> bool {
    is_secret_name(path) || rules.secret_patterns.matches(path)
}

fn in_dir(path: &[u8], dirs: &[&str]) -> bool {
    let text = String::from_utf8_lossy(path);
    let mut parts = text.split('/');
    parts.next_back();
    parts.any(|d| dirs.contains(&d))
}

/// [`in_dir`] for the vendored names, which never name a JVM package: below a source set's
/// language directory (`src/main/java/`, `src/test/kotlin/`) the directories are a package's
/// name, and commons-lang's package `org.apache.commons.lang3.external` is its own code (its
/// tests were never analysed).
fn in_vendored_dir(path: &[u8]) -> bool {
    let text = String::from_utf8_lossy(path);
    let mut parts = text.split('/');
    parts.next_back();
    // The two directories before this one.
    let (mut before_last, mut last) = ("", "");
    for part in parts {
        if VENDORED_DIRS.contains(&part) {
            return true;
        }
        if before_last == "src" && matches!(part, "java" | "kotlin" | "scala" | "groovy") {
            return false;
        }
        (before_last, last) = (last, part);
    }
    false
}

fn is_generated_name(path: &[u8]) -> bool {
    let name = String::from_utf8_lossy(paths::file_name(path));
    GENERATED_SUFFIXES.iter().any(|s| name.ends_with(s))
}

/// Returns the class a path has before its content is seen. Secrets first (by built-in name
/// or `secret_patterns`; nothing overrides them), then `include` (overrides everything
/// below), `exclude`, Git attributes, and the built-in vendored and generated rules (which an
/// attribute set to false turns off).
pub fn path_class(path: &[u8], rules: &AnalysisRules, attrs: Attributes) -> FileClass {
    if is_secret_path(path, rules) {
        return FileClass::Secret;
    }
    if rules.include.matches(path) {
        return FileClass::Source;
    }
    if rules.exclude.matches(path) {
        return FileClass::Excluded;
    }
    if attrs.vendored == Some(true) {
        return FileClass::Vendored;
    }
    if attrs.generated == Some(true) {
        return FileClass::Generated;
    }
    if attrs.vendored != Some(false) && in_vendored_dir(path) {
        return FileClass::Vendored;
    }
    if attrs.generated != Some(false) && (in_dir(path, GENERATED_DIRS) || is_generated_name(path)) {
        return FileClass::Generated;
    }
    FileClass::Source
}

/// Tells whether the first bytes of a file hold a private key or a well-known token shape:
/// PEM private keys (`-----BEGIN … PRIVATE KEY-----`, OpenSSH, PGP private key blocks), AWS
/// access key ids, GitHub, Slack, Stripe, npm and Google API tokens, and a JSON
/// `"private_key": "…"` value. Every scanned file's head passes here: one Aho-Corasick pass
/// finds where a pattern's literal prefix starts (rare in ordinary text), and hand-written
/// matchers over bytes check the rest there. A byte-by-byte scan of babel/babel's 27,674 heads
/// was a tenth of its content baseline's CPU.
pub fn has_secret_content(head: &[u8]) -> bool {
    // Every position where some prefix starts, each once: the leftmost match from `at` on,
    // then on from the byte after its start (a match may start inside another).
    let mut at = 0;
    while let Some(m) = SECRET_PREFIXES.find(aho_corasick::Input::new(head).range(at..)) {
        if secret_at(head, m.start()) {
            return true;
        }
        at = m.start() + 1;
    }
    false
}

/// The literal prefixes [`secret_at`] starts from: a match there is necessary, not sufficient.
static SECRET_PREFIXES: std::sync::LazyLock<aho_corasick::AhoCorasick> =
    std::sync::LazyLock::new(|| {
        aho_corasick::AhoCorasick::builder()
            .match_kind(aho_corasick::MatchKind::LeftmostFirst)
            .build([
                "-----BEGIN ",
                "\"private_key\"",
                "AKIA",
                "ASIA",
                "AIza",
                "ghp_",
                "gho_",
                "ghu_",
                "ghs_",
                "ghr_",
                "github_pat_",
                "xox",
                "sk_live_",
                "rk_live_",
                "npm_",
            ])
            .expect("fixed literal patterns build")
    });

fn secret_at(s: &[u8], i: usize) -> bool {
    let rest = &s[i..];
    let after_word = i == 0 || !s[i - 1].is_ascii_alphanumeric();
    match rest[0] {
        b'-' => pem_private_key(rest),
        b'"' => private_key_json(rest),
        _ if !after_word => false,
        b'A' => aws_key(rest) || run(rest, b"AIza", |c| is_alnum(c) || c == b'-', 35, 35),
        b'g' => {
            ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"]
                .iter()
                .any(|p| run(rest, p.as_bytes(), |c| c.is_ascii_alphanumeric(), 36, 255))
                || run(rest, b"github_pat_", is_alnum, 40, 255)
        }
        b'x' => slack_token(rest),
        b's' | b'r' => {
            run(rest, b"sk_live_", |c| c.is_ascii_alphanumeric(), 16, 255)
                || run(rest, b"rk_live_", |c| c.is_ascii_alphanumeric(), 16, 255)
        }
        b'n' => run(rest, b"npm_", |c| c.is_ascii_alphanumeric(), 36, 36),
        _ => false,
    }
}

/// `[A-Za-z0-9_]`.
fn is_alnum(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// Tells whether `s` starts with `prefix` followed by between `min` and `max` bytes of
/// `class`, and then by a byte outside it (or the end).
fn run(s: &[u8], prefix: &[u8], class: impl Fn(u8) -> bool, min: usize, max: usize) -> bool {
    let Some(tail) = s.strip_prefix(prefix) else {
        return false;
    };
    let n = tail.iter().take_while(|&&c| class(c)).count();
    (min..=max).contains(&n)
}

/// `AKIA`/`ASIA` and 16 upper-case letters or digits; AWS's documentation example (ending in
/// `EXAMPLE`) is not a secret.
fn aws_key(s: &[u8]) -> bool {
    let upper = |c: u8| c.is_ascii_uppercase() || c.is_ascii_digit();
    let key = (run(s, b"AKIA", upper, 16, 16) || run(s, b"ASIA", upper, 16, 16)) && s.len() >= 20;
    key && !s[..20].ends_with(b"EXAMPLE")
}

/// `xox[baprs]-` and at least ten token characters.
fn slack_token(s: &[u8]) -> bool {
    s.len() > 5
        && s.starts_with(b"xox")
        && b"baprs".contains(&s[3])
        && run(&s[4..], b"-", |c| is_alnum(c) || c == b'-', 10, 255)
}

/// `-----BEGIN ` + upper-case words + `PRIVATE KEY-----` (RSA, EC, DSA, ENCRYPTED, OPENSSH
/// and plain PKCS#8 keys) or `PGP PRIVATE KEY BLOCK-----`.
fn pem_private_key(s: &[u8]) -> bool {
    let Some(tail) = s.strip_prefix(b"-----BEGIN ") else {
        return false;
    };
    let label_len = tail
        .iter()
        .take(48)
        .take_while(|&&c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == b' ')
        .count();
    let label = &tail[..label_len];
    let closed = tail[label_len..].starts_with(b"-----");
    closed && (label.ends_with(b"PRIVATE KEY") || label == b"PGP PRIVATE KEY BLOCK")
}

/// `"private_key"` `:` `"` and a value of at least 32 characters (a service-account key file).
fn private_key_json(s: &[u8]) -> bool {
    let Some(tail) = s.strip_prefix(b"\"private_key\"") else {
        return false;
    };
    let skip_ws = |t: &[u8]| -> usize { t.iter().take_while(|c| c.is_ascii_whitespace()).count() };
    let t = &tail[skip_ws(tail)..];
    let Some(t) = t.strip_prefix(b":") else {
        return false;
    };
    let t = &t[skip_ws(t)..];
    let Some(value) = t.strip_prefix(b"\"") else {
        return false;
    };
    value.iter().take_while(|&&c| c != b'"').count() >= 32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whole secrets of every pattern, and their prefixes.
    fn secret_pieces() -> Vec<String> {
        let n = |c: char, k: usize| c.to_string().repeat(k);
        vec![
            "-----BEGIN OPENSSH PRIVATE KEY-----".to_owned(),
            "-----BEGIN PGP PRIVATE KEY BLOCK-----".to_owned(),
            "\"private_key\": \"k\"".to_owned(),
            format!("AKIA{}", n('Q', 16)),
            format!("AIza{}", n('b', 35)),
            format!("ghp_{}", n('a', 36)),
            format!("github_pat_{}", n('a', 40)),
            format!("xoxb-{}", n('a', 12)),
            format!("sk_live_{}", n('a', 16)),
            format!("rk_live_{}", n('a', 16)),
            format!("npm_{}", n('a', 36)),
            "ghp_".to_owned(),
            "AKIA".to_owned(),
        ]
    }

    proptest::proptest! {
        /// The prefix search only skips positions where no pattern can match.
        #[test]
        fn the_prefix_search_skips_no_secret(parts in proptest::collection::vec(
            proptest::prop_oneof![
                proptest::sample::select(secret_pieces()),
                "[A-Za-z0-9_ \"-]{0,12}",
            ],
            0..6,
        )) {
            let text = parts.concat();
            let b = text.as_bytes();
            proptest::prop_assert_eq!(
                has_secret_content(b),
                (0..b.len()).any(|i| secret_at(b, i))
            );
        }
    }

    #[test]
    fn detects_by_name_extension_and_shebang() {
        assert_eq!(language(b"src/main.rs", b""), Some("Rust"));
        assert_eq!(language(b"Makefile", b""), Some("Makefile"));
        assert_eq!(
            language(b"bin/tool", b"#!/usr/bin/env python3\n"),
            Some("Python")
        );
        assert_eq!(language(b"bin/run", b"#!/bin/bash -e\n"), Some("Shell"));
        assert_eq!(language(b"data.bin", b"\0\0"), None);
    }

    #[test]
    fn flags_documents() {
        assert!(is_document(b"docs/guide.md", Some("Markdown")));
        assert!(is_document(b"README", None));
        assert!(is_document(b"INSTALL", None));
        assert!(!is_document(b"install", Some("Shell")));
        assert!(!is_document(b"src/lib.rs", Some("Rust")));
    }

    fn class(path: &[u8]) -> FileClass {
        path_class(path, &AnalysisRules::default(), Attributes::default())
    }

    #[test]
    fn built_in_rules_class_vendored_generated_and_secret_paths() {
        assert_eq!(class(b"cpu/stm32/vendor/stm32f4xx.h"), FileClass::Vendored);
        assert_eq!(class(b"web/node_modules/x/index.js"), FileClass::Vendored);
        assert_eq!(class(b"dist/app.min.js"), FileClass::Generated);
        assert_eq!(class(b"api/service.pb.go"), FileClass::Generated);
        assert_eq!(class(b"src/__generated__/q.ts"), FileClass::Generated);
        assert_eq!(class(b".env.production"), FileClass::Secret);
        assert_eq!(class(b"deploy/tls.PEM"), FileClass::Secret);
        assert_eq!(class(b"home/.ssh/id_ed25519"), FileClass::Secret);
        assert_eq!(class(b"config/credentials.json"), FileClass::Secret);
        assert_eq!(class(b"src/vendor_api.rs"), FileClass::Source);
        assert_eq!(class(b"src/lib.rs"), FileClass::Source);
        // A JVM package is named by its directories, whatever they are; a vendored tree above
        // the source set is still one.
        let package = b"src/test/java/org/apache/commons/lang3/external/AnnotationTest.java";
        assert_eq!(class(package), FileClass::Source);
        assert_eq!(class(b"app/src/main/kotlin/x/deps/D.kt"), FileClass::Source);
        assert_eq!(
            class(b"vendor/lib/src/main/java/a/A.java"),
            FileClass::Vendored
        );
        assert_eq!(
            class(b"src/main/resources/external/a.js"),
            FileClass::Vendored
        );
    }

    /// The old rule excluded every name containing `credentials`.
    #[test]
    fn secret_names_are_precise() {
        for p in [
            "auth/credentials_test.go",
            "src/credentials.go",
            "lib/aws_credentials_provider.py",
            "docs/credentials.md",
            ".env.example",
            "keys/id_rsa.pub",
            "src/keyboard.rs",
        ] {
            assert!(!is_secret_name(p.as_bytes()), "{p}");
        }
        for p in [
            ".env",
            "prod.env",
            "x/.env.local",
            "credentials",
            ".netrc",
            "id_rsa",
        ] {
            assert!(is_secret_name(p.as_bytes()), "{p}");
        }
    }

    #[test]
    fn configuration_and_attributes_override_the_built_in_rules() {
        let rules = AnalysisRules {
            exclude: crate::config::Globs::new(&["third_party/**", "*.snap"]).unwrap(),
            include: crate::config::Globs::new(&["third_party/ours/**", "vendor/own/**"]).unwrap(),
            secret_patterns: crate::config::Globs::new(&["config/prod/**"]).unwrap(),
            secret_content: true,
        };
        let none = Attributes::default();
        let c = |p: &[u8], a| path_class(p, &rules, a);
        assert_eq!(c(b"third_party/zlib/z.c", none), FileClass::Excluded);
        assert_eq!(c(b"tests/__snapshots__/a.snap", none), FileClass::Excluded);
        assert_eq!(c(b"third_party/ours/a.c", none), FileClass::Source);
        assert_eq!(c(b"vendor/own/a.go", none), FileClass::Source);
        assert_eq!(c(b"config/prod/db.yml", none), FileClass::Secret);
        let included_secret = AnalysisRules {
            include: crate::config::Globs::new(&["**"]).unwrap(),
            ..rules.clone()
        };
        assert_eq!(
            path_class(b"keys/server.key", &included_secret, none),
            FileClass::Secret,
            "include never reveals a secret"
        );
        let vendored = Attributes {
            vendored: Some(true),
            generated: None,
        };
        let generated = Attributes {
            vendored: None,
            generated: Some(true),
        };
        let own = Attributes {
            vendored: Some(false),
            generated: Some(false),
        };
        assert_eq!(c(b"lib/jquery.js", vendored), FileClass::Vendored);
        assert_eq!(c(b"src/parser.c", generated), FileClass::Generated);
        assert_eq!(c(b"deps/ours/a.c", own), FileClass::Source);
        assert_eq!(c(b"web/app.min.js", own), FileClass::Source);
        assert_eq!(c(b"third_party/ours/x.c", vendored), FileClass::Source);
    }

    /// Token values are assembled at run time: this file must not itself look like a secret.
    fn token(prefix: &str, fill: char, n: usize) -> Vec<u8> {
        format!("x = \"{prefix}{}\"\n", fill.to_string().repeat(n)).into_bytes()
    }

    #[test]
    fn detects_private_keys_and_token_shapes_in_the_first_bytes() {
        let begin = "-----BEGIN";
        for label in [
            "RSA PRIVATE KEY",
            "PRIVATE KEY",
            "OPENSSH PRIVATE KEY",
            "ENCRYPTED PRIVATE KEY",
            "PGP PRIVATE KEY BLOCK",
        ] {
            let pem = format!("# key\n{begin} {label}-----\nMIIE...\n");
            assert!(has_secret_content(pem.as_bytes()), "{label}");
        }
        assert!(!has_secret_content(
            format!("{begin} CERTIFICATE-----\nMIIB\n").as_bytes()
        ));
        assert!(!has_secret_content(
            format!("{begin} PUBLIC KEY-----\n").as_bytes()
        ));
        assert!(has_secret_content(&token("AKIA", 'Q', 16)));
        assert!(!has_secret_content(&token("AKIA", 'Q', 15)));
        assert!(!has_secret_content(&token("AKIA", 'Q', 17)));
        assert!(
            !has_secret_content(&token("XAKIA", 'Q', 16)),
            "inside a word"
        );
        assert!(!has_secret_content(b"AKIAIOSFODNN7EXAMPLE"));
        assert!(has_secret_content(&token("ghp_", 'a', 36)));
        assert!(!has_secret_content(&token("ghp_", 'a', 20)));
        assert!(has_secret_content(&token("github_pat_", 'B', 60)));
        assert!(has_secret_content(&token("xoxb-", '1', 24)));
        assert!(!has_secret_content(b"xoxb-short"));
        assert!(has_secret_content(&token("sk_live_", 'z', 24)));
        assert!(!has_secret_content(&token("sk_test_", 'z', 24)));
        assert!(has_secret_content(&token("AIza", 'Y', 35)));
        assert!(has_secret_content(&token("npm_", 'N', 36)));
        let json = format!("{{\n  \"private_key\" : \"{}\"\n}}", "k".repeat(40));
        assert!(has_secret_content(json.as_bytes()));
        assert!(!has_secret_content(b"key = data[\"private_key\"]\n"));
        assert!(!has_secret_content(b"{\"private_key\": \"\"}"));
        assert!(!has_secret_content(b"fn main() { println!(\"hello\"); }\n"));
        assert!(!has_secret_content(b""));
    }
}
