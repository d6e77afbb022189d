//! Content analysis, done once per content digest at scan time and stored beside the file
//! state: document outlines, manifest facts (project name, purpose, commands) and code
//! structure. Cues read these facts from the store and never parse files themselves.

pub mod docs;
pub mod graph;
pub mod importance;
pub mod manifest;
pub mod structure;
pub mod workflow;

use serde::{Deserialize, Serialize};

/// Returns the version of everything this module derives; stored facts of another version
/// are redone. It includes the structure extractor's version.
pub fn analyzer_version() -> &'static str {
    static VERSION: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    VERSION.get_or_init(|| format!("a102+s{}", repocue_structure::EXTRACTOR_VERSION))
}

/// Whether content is analyzed: `REPOCUE_ANALYSIS=off` skips it (benchmarks measure hashing
/// alone; facts are then computed later, when those files change).
pub fn enabled() -> bool {
    std::env::var_os("REPOCUE_ANALYSIS").is_none_or(|v| v != "off")
}

/// What a file's stored facts say it references: its code's language, imports and
/// references. Read instead of the whole [`Analysis`] where nothing else counts (which files
/// reference a name): the symbols, most of a code file's facts, are skipped unparsed.
#[derive(Debug, Default, Deserialize)]
pub struct ReferenceFacts {
    #[serde(default)]
    code: Option<ReferenceCode>,
}

/// See [`ReferenceFacts`]: [`structure::CodeFacts`]' fields of the same names.
#[derive(Debug, Default, Deserialize)]
struct ReferenceCode {
    language: String,
    #[serde(default)]
    imports: Vec<String>,
    #[serde(default)]
    references: Vec<String>,
    #[serde(rename = "mr", default)]
    member_references: Vec<String>,
    #[serde(rename = "qr", default)]
    qualified_references: Vec<String>,
    #[serde(rename = "ns", default)]
    namespace: Option<String>,
}

impl ReferenceFacts {
    /// The namespace the file declares: see [`structure::CodeFacts::namespace`].
    pub fn namespace(&self) -> Option<&str> {
        self.code.as_ref()?.namespace.as_deref()
    }
}

impl From<ReferenceFacts> for Analysis {
    /// An analysis with the references' part of the code facts only (no symbols).
    fn from(r: ReferenceFacts) -> Analysis {
        Analysis {
            code: r.code.map(|c| structure::CodeFacts {
                language: c.language,
                imports: c.imports,
                references: c.references,
                member_references: c.member_references,
                qualified_references: c.qualified_references,
                namespace: c.namespace,
                ..Default::default()
            }),
            ..Default::default()
        }
    }
}

/// Facts derived from one file's content.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Analysis {
    /// Outline of a document.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub doc: Option<docs::DocFacts>,
    /// Facts of a build manifest.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub manifest: Option<manifest::ManifestFacts>,
    /// Symbols, imports and references of source code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<structure::CodeFacts>,
}

impl Analysis {
    fn is_empty(&self) -> bool {
        self.doc.is_none() && self.manifest.is_none() && self.code.is_none()
    }

    /// Tells whether two analyses differ at most in where their symbols are: the same
    /// document and manifest facts, and code facts with the same symbols (names, kinds,
    /// signatures, visibility, in order) nested the same way, the same imports and
    /// references. What an edit inside function bodies leaves of a file's facts.
    pub fn same_but_lines(&self, other: &Analysis) -> bool {
        self.doc == other.doc
            && self.manifest == other.manifest
            && match (&self.code, &other.code) {
                (None, None) => true,
                (Some(a), Some(b)) => a.same_but_lines(b),
                _ => false,
            }
    }
}

/// Analyzes one text file; returns `Ok(None)` when there is nothing to record, and
/// [`structure::TimedOut`] when parsing ran out of time (then nothing may be recorded: the
/// analysis is incomplete for a reason that is not the content's). The caller decides whether
/// a file is analysed at all (its class, `crate::classify::path_class`).
pub fn analyze(
    path: &[u8],
    language: Option<&str>,
    content: &[u8],
) -> Result<Option<Analysis>, structure::TimedOut> {
    let code = structure::analyze(path, language, content)?;
    Ok(with_code(path, language, content, code))
}

/// [`analyze`] for content whose parse killed earlier processes (`scan::crashguard`): the
/// document and manifest facts, which no C code computes, and code facts that say `crashed`.
pub fn analyze_crashed(path: &[u8], language: Option<&str>, content: &[u8]) -> Option<Analysis> {
    with_code(path, language, content, structure::crashed(path, language))
}

/// The analysis of a file with these code facts: its document and manifest facts beside them.
fn with_code(
    path: &[u8],
    language: Option<&str>,
    content: &[u8],
    code: Option<structure::CodeFacts>,
) -> Option<Analysis> {
    let text = String::from_utf8_lossy(content);
    // A byte-order mark opens no heading and no JSON: `\u{feff}# Title` had no title, and a
    // `package.json` saved with one (which npm reads) had no name and no scripts.
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let mut a = Analysis {
        doc: docs::analyze(path, language, text),
        manifest: manifest::analyze(path, text),
        code,
    };
    if a.doc.as_ref().is_some_and(|d| {
        d.headings.is_empty()
            && d.title.is_none()
            && d.links.is_empty()
            && d.purpose.is_none()
            && d.license.is_none()
    }) {
        a.doc = None;
    }
    clamp(&mut a);
    (!a.is_empty()).then_some(a)
}

/// Most workspace members (paths or globs) a manifest's facts keep: a `package.json` of
/// 110,000 workspace globs cost every overview 1.6 s and 430 MB to match them; the largest
/// monorepos name a few hundred.
const MAX_MEMBERS: usize = 1_000;

/// Most characters a fact keeps of a name (a project's, a license's, a required toolchain's).
const MAX_NAME_CHARS: usize = 120;

/// Most characters a fact keeps of a line of text (a title, a heading, a description, a
/// command).
const MAX_LINE_CHARS: usize = 300;

/// Cuts the texts a cue prints whole, in its fixed part or as one item, to a length any budget
/// holds, marking each cut with `…`: a 100,000-character project name made every overview
/// need more tokens than a cue may ask for, and a 400,000-character heading every document
/// view of its file.
fn clamp(a: &mut Analysis) {
    let cut = |text: &mut String, max: usize| {
        if text.len() > max {
            *text = docs::truncate_chars(text, max);
        }
    };
    let cut_some = |text: &mut Option<String>, max: usize| {
        if let Some(t) = text {
            cut(t, max);
        }
    };
    if let Some(d) = &mut a.doc {
        cut_some(&mut d.title, MAX_LINE_CHARS);
        cut_some(&mut d.definition, MAX_LINE_CHARS);
        for h in &mut d.headings {
            cut(&mut h.text, MAX_LINE_CHARS);
        }
    }
    if let Some(m) = &mut a.manifest {
        m.members.truncate(MAX_MEMBERS);
        cut_some(&mut m.name, MAX_NAME_CHARS);
        cut_some(&mut m.requires, MAX_NAME_CHARS);
        cut_some(&mut m.license, MAX_NAME_CHARS);
        cut_some(&mut m.description, MAX_LINE_CHARS);
        for c in &mut m.commands {
            cut(&mut c.command, MAX_LINE_CHARS);
            cut(&mut c.purpose, MAX_NAME_CHARS);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Stored facts read as [`ReferenceFacts`] keep the code's language, imports and
    /// references exactly, and nothing else.
    #[test]
    fn reference_facts_are_the_code_facts_without_symbols() {
        let code =
            "import os\nfrom app import helper\n\ndef run(x):\n    return helper(os.sep, x)\n";
        let full = Analysis {
            code: structure::analyze(b"app/run.py", Some("Python"), code.as_bytes()).unwrap(),
            ..Default::default()
        };
        let c = full.code.as_ref().unwrap();
        assert!(!c.symbols.is_empty() && !c.imports.is_empty() && !c.references.is_empty());
        let json = serde_json::to_string(&full).unwrap();
        let light: Analysis = serde_json::from_str::<ReferenceFacts>(&json)
            .unwrap()
            .into();
        let mut expected = full.clone();
        let code = expected.code.as_mut().unwrap();
        code.symbols.clear();
        // (What a module hands on, `helper` here, is no reference fact either.)
        assert_eq!(code.reexports, ["helper"]);
        code.reexports.clear();
        assert_eq!(light, expected);
        // A document's facts have no code to read.
        let doc: Analysis = serde_json::from_str::<ReferenceFacts>(r##"{"doc":{"title":"x"}}"##)
            .unwrap()
            .into();
        assert_eq!(doc, Analysis::default());
    }

    /// A byte-order mark before a document's first heading or a manifest's JSON is no text of
    /// theirs.
    #[test]
    fn a_byte_order_mark_hides_no_title_and_no_manifest() {
        let doc = analyze(
            b"README.md",
            Some("Markdown"),
            "\u{feff}# My Project\n\n## Usage\n".as_bytes(),
        )
        .unwrap()
        .unwrap();
        assert_eq!(doc.doc.unwrap().title.as_deref(), Some("My Project"));
        let npm = analyze(
            b"package.json",
            Some("JSON"),
            "\u{feff}{\"name\": \"widget\", \"scripts\": {\"test\": \"node t.js\"}}".as_bytes(),
        )
        .unwrap()
        .unwrap();
        assert_eq!(npm.manifest.unwrap().name.as_deref(), Some("widget"));
    }

    /// A name, title or heading of any length is cut to one a cue can print: each cut ends in
    /// `…`, and what is short enough stays as written.
    #[test]
    fn long_names_and_headings_are_cut() {
        let long = "x".repeat(100_000);
        let cargo = format!("[package]\nname = \"{long}\"\nversion = \"1.0.0\"\n");
        let a = analyze(b"Cargo.toml", Some("TOML"), cargo.as_bytes())
            .unwrap()
            .unwrap();
        let name = a.manifest.unwrap().name.unwrap();
        assert_eq!(name.chars().count(), MAX_NAME_CHARS);
        assert!(name.ends_with('…'));
        let doc = format!("# {long}\n\n## Short\n");
        let a = analyze(b"README.md", Some("Markdown"), doc.as_bytes())
            .unwrap()
            .unwrap()
            .doc
            .unwrap();
        assert!(a.title.unwrap().chars().count() <= MAX_LINE_CHARS);
        let texts: Vec<&str> = a.headings.iter().map(|h| h.text.as_str()).collect();
        assert_eq!(texts.len(), 2);
        assert!(texts[0].ends_with('…') && texts[0].chars().count() <= MAX_LINE_CHARS);
        assert_eq!(texts[1], "Short");
        let globs: Vec<String> = (0..5_000).map(|i| format!("\"p{i}/*\"")).collect();
        let npm = format!("{{\"workspaces\": [{}]}}", globs.join(","));
        let a = analyze(b"package.json", Some("JSON"), npm.as_bytes())
            .unwrap()
            .unwrap();
        assert_eq!(a.manifest.unwrap().members.len(), MAX_MEMBERS);
    }
}
