//! Code structure facts (symbols, imports, referenced names) via `repocue-structure`, keyed by
//! content digest like every other analysis.

use serde::{Deserialize, Serialize};

use repocue_structure::{ExtractError, Language, Limits};

/// Most symbols stored per file. Register-definition headers hold thousands of macros; the
/// ones kept are a `main` function, then types and functions first, top level first, in
/// source order. A central class holds hundreds (commons-lang's `StringUtils` about 250
/// methods, `ArrayUtils` about 390): at 200, `StringUtils.upperCase` was no symbol. A
/// single-header library holds thousands: at 1,000, cpp-httplib's `httplib.h` lost the
/// members of `Response` and `Server` (`set_content`, `listen`), to search and to deltas.
pub const MAX_SYMBOLS: usize = 5_000;
/// Most referenced names stored per file.
pub const MAX_REFERENCES: usize = 400;

/// Structural facts of one source file.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CodeFacts {
    /// Parser language name.
    pub language: String,
    /// Why extraction was skipped or failed, if it was (`too_large`, `minified`, `generated`,
    /// `over_budget`, `parse_error`). Every outcome depends on the content alone (the parse
    /// budget counts work, not time), so it is stored by digest like the facts themselves;
    /// so is `crashed`, the content whose parse killed processes (`scan::crashguard`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Definitions in source order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub symbols: Vec<SymbolFact>,
    /// Imported modules as written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub imports: Vec<String>,
    /// Names referenced but not defined in the file.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub references: Vec<String>,
    /// Of `references`, those written only as a member of a value (`x.is_empty()`): see
    /// `repocue_structure::FileFacts::member_references`.
    #[serde(rename = "mr", default, skip_serializing_if = "Vec::is_empty")]
    pub member_references: Vec<String>,
    /// Of `references`, those written only after another package's name, each with that
    /// package's import path (`"Core go.uber.org/zap/zapcore"`): see
    /// `repocue_structure::FileFacts::qualified_references`.
    #[serde(rename = "qr", default, skip_serializing_if = "Vec::is_empty")]
    pub qualified_references: Vec<String>,
    /// Names the file hands on from other modules without defining them (a JavaScript or
    /// TypeScript `export { a } from "./x"`): see `repocue_structure::FileFacts::reexports`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub reexports: Vec<String>,
    /// Names it hands on as TypeScript types alone (`export type { a } from "./x"`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub type_reexports: Vec<String>,
    /// Modules it hands on whole (`export * from "./schemas"`), as imports are written.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub star_exports: Vec<String>,
    /// The name it exports as its default: see
    /// `repocue_structure::FileFacts::default_export`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_export: Option<String>,
    /// The namespace the file declares for all its definitions: see
    /// `repocue_structure::FileFacts::namespace`.
    #[serde(rename = "ns", default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// More symbols existed than [`MAX_SYMBOLS`]; the least important were dropped.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
}

impl CodeFacts {
    /// The import paths of the packages that qualify every use of `name` in the file
    /// ([`CodeFacts::qualified_references`]); empty when the file uses it on its own, or
    /// not at all.
    pub fn qualifying_packages<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        let start = self
            .qualified_references
            .partition_point(|q| q.split(' ').next().unwrap_or_default() < name);
        self.qualified_references[start..]
            .iter()
            .map_while(move |q| match q.split_once(' ') {
                Some((n, path)) if n == name => Some(path),
                _ => None,
            })
    }

    /// See [`crate::analyze::Analysis::same_but_lines`].
    /// Whether the facts hold nothing but their language: no symbol, import, reference or
    /// export, and no error.
    pub fn is_bare(&self) -> bool {
        self.error.is_none()
            && self.symbols.is_empty()
            && self.imports.is_empty()
            && self.references.is_empty()
            && self.reexports.is_empty()
            && self.type_reexports.is_empty()
            && self.star_exports.is_empty()
            && self.default_export.is_none()
    }

    pub fn same_but_lines(&self, other: &CodeFacts) -> bool {
        let same_symbols = self.symbols.len() == other.symbols.len()
            && self.symbols.iter().zip(&other.symbols).all(|(a, b)| {
                (
                    &a.qualified_name,
                    &a.kind,
                    &a.signature,
                    &a.visibility,
                    a.deprecated,
                ) == (
                    &b.qualified_name,
                    &b.kind,
                    &b.signature,
                    &b.visibility,
                    b.deprecated,
                )
            });
        same_symbols
            && (
                &self.language,
                &self.error,
                &self.imports,
                &self.references,
                &self.member_references,
                &self.qualified_references,
                &self.reexports,
                &self.type_reexports,
                &self.star_exports,
                &self.default_export,
                &self.namespace,
                self.truncated,
            ) == (
                &other.language,
                &other.error,
                &other.imports,
                &other.references,
                &other.member_references,
                &other.qualified_references,
                &other.reexports,
                &other.type_reexports,
                &other.star_exports,
                &other.default_export,
                &other.namespace,
                other.truncated,
            )
            && nesting(&self.symbols) == nesting(&other.symbols)
    }
}

/// For each symbol, the symbols whose lines strictly enclose its own (by index).
fn nesting(symbols: &[SymbolFact]) -> Vec<Vec<usize>> {
    symbols
        .iter()
        .map(|s| {
            symbols
                .iter()
                .enumerate()
                .filter(|(_, o)| {
                    o.start_line <= s.start_line
                        && s.end_line <= o.end_line
                        && (o.start_line, o.end_line) != (s.start_line, s.end_line)
                })
                .map(|(i, _)| i)
                .collect()
        })
        .collect()
}

/// One definition. Field names are short: facts of every source file are stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SymbolFact {
    /// Qualified name (`Parser.parse`).
    #[serde(rename = "q")]
    pub qualified_name: String,
    /// Kind (`function`, `class`, ...).
    #[serde(rename = "k")]
    pub kind: String,
    /// Declaration without body or comments.
    #[serde(rename = "s")]
    pub signature: String,
    /// When the signature was cut or shows literal values as `…`, a hash of what it leaves out
    /// ([`repocue_structure::Symbol::cut_hash`]): a change in that part is a change.
    #[serde(rename = "h", default, skip_serializing_if = "Option::is_none")]
    pub cut_hash: Option<u32>,
    /// First line (1-based).
    #[serde(rename = "l")]
    pub start_line: u32,
    /// Last line (1-based).
    #[serde(rename = "e")]
    pub end_line: u32,
    /// Visibility where the language has it.
    #[serde(rename = "v", default, skip_serializing_if = "Option::is_none")]
    pub visibility: Option<String>,
    /// Defined only under a preprocessor condition other than an include guard
    /// ([`repocue_structure::Symbol::conditional`]).
    #[serde(rename = "c", default, skip_serializing_if = "std::ops::Not::not")]
    pub conditional: bool,
    /// Marked deprecated where it is defined ([`repocue_structure::Symbol::deprecated`]).
    #[serde(rename = "x", default, skip_serializing_if = "std::ops::Not::not")]
    pub deprecated: bool,
}

/// The last segment of a qualified symbol name (`Outer.Inner.method#2` → `method`).
pub fn bare_name(qualified: &str) -> &str {
    // Byte scans: called for every symbol of every ranked file, where `split` and `rsplit`
    // with their pattern searchers were a twentieth of ranking git/git. `#` and `.` are ASCII,
    // so both ends are character boundaries.
    // The overload number (`#2`) is the last segment's own: `f#2.inner` is `inner`, in `f#2`.
    let b = qualified.as_bytes();
    let start = b.iter().rposition(|&c| c == b'.').map_or(0, |i| i + 1);
    let end = b[start..]
        .iter()
        .position(|&c| c == b'#')
        .map_or(b.len(), |i| start + i);
    &qualified[start..end]
}

impl SymbolFact {
    /// Whether `other` declares the same thing: the same kind and the same whole signature,
    /// the part a cut left out included.
    pub fn same_declaration(&self, other: &SymbolFact) -> bool {
        self.kind == other.kind
            && self.signature == other.signature
            && self.cut_hash == other.cut_hash
    }

    /// Returns the last segment of the qualified name.
    pub fn name(&self) -> &str {
        bare_name(&self.qualified_name)
    }

    /// Whether the symbol is a member of something (a method, field or property), which a use
    /// of its name after a value's `.` may mean: nested in another symbol (`Engine.is_empty`),
    /// or assigned to one's property (JavaScript's `app.use = function use(fn)`,
    /// `Foo.prototype.bar = …`, whose qualified name is the bare `use`).
    pub fn is_member(&self) -> bool {
        if self.qualified_name.contains('.') {
            return true;
        }
        let head = self.signature.split(['=', '(']).next().unwrap_or_default();
        head.trim_end()
            .strip_suffix(self.name())
            .is_some_and(|before| before.ends_with('.'))
    }

    /// The order in which a file's symbols are kept when it has more than [`MAX_SYMBOLS`]
    /// (lower first, then in source order): a program's `main` first, wherever it is
    /// (redis's `server.c` defines 200 types and functions before its `main` at line 6,936),
    /// then top-level symbols before members, then by kind (types, functions, methods, the
    /// rest). Every symbol of a better class than the worst a truncated file kept is kept.
    pub fn keep_priority(&self) -> (bool, bool, u8) {
        (
            !(self.kind == "function" && self.qualified_name == "main"),
            self.parent().is_some(),
            repocue_structure::symbol_priority(&self.kind),
        )
    }

    /// Returns the qualified name of the parent, if any.
    pub fn parent(&self) -> Option<&str> {
        // `f#2.inner`'s parent is the second `f`, `f#2` (it was none).
        let b = self.qualified_name.as_bytes();
        b.iter()
            .rposition(|&c| c == b'.')
            .map(|i| &self.qualified_name[..i])
    }
}

/// Returns the parser language for a classified language name.
pub fn parser_language(path: &[u8], language: Option<&str>) -> Option<Language> {
    match language? {
        // C headers are classified as C; a C++ project's `.h` is parsed as C++ when its
        // content says so ([`analyze`]).
        "Shell" => Some(Language::Bash),
        name => Language::from_name(name),
    }
    .filter(|_| !path.is_empty())
}

/// Whether a path is a C or C++ header by its extension (`.h`), which C and C++ share.
/// Whether a path names a C or C++ source file (`.c`, `.cc`, `.cpp`, …): no header, whose
/// prototypes are its API.
pub(crate) fn is_c_source(path: &[u8]) -> bool {
    let ext = crate::paths::extension(path);
    matches!(
        ext.as_deref(),
        Some("c" | "cc" | "cpp" | "cxx" | "c++" | "cp" | "m" | "mm" | "cu")
    )
}

/// Whether a path names a C or C++ header (`.h`).
pub(crate) fn is_header(path: &[u8]) -> bool {
    path.len() > 2 && path[path.len() - 2..].eq_ignore_ascii_case(b".h")
}

/// Whether a header is C++ by what it holds: a line that opens a namespace, a class or a
/// template, or a name qualified by `std::`. The C grammar made nothing of leveldb's
/// `class LEVELDB_EXPORT DB {` (`include/leveldb/db.h` had no symbols) and cut its
/// `slice.h` into constructor fragments.
fn looks_like_cpp(content: &[u8]) -> bool {
    let opens = |line: &[u8]| {
        let line = line.trim_ascii_start();
        [&b"namespace "[..], b"class ", b"template<", b"template <"]
            .iter()
            .any(|w| line.starts_with(w))
    };
    content.split(|&b| b == b'\n').any(opens) || content.windows(5).any(|w| w == b"std::")
}

/// Parsing a file took longer than its time limit: a fact about this attempt (the machine,
/// its load), not about the content, so nothing is stored and the file is parsed again by
/// the next refresh.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimedOut;

/// The code facts of a source file whose parse killed earlier processes
/// (`scan::crashguard`): its language and the error `crashed`, no symbols; `None` for files
/// in no supported language.
pub fn crashed(path: &[u8], language: Option<&str>) -> Option<CodeFacts> {
    parser_language(path, language).map(|lang| CodeFacts {
        language: lang.name().to_owned(),
        error: Some("crashed".to_owned()),
        ..Default::default()
    })
}

/// Extracts structure from a source file in a supported language; `Ok(None)` for other files.
pub fn analyze(
    path: &[u8],
    language: Option<&str>,
    content: &[u8],
) -> Result<Option<CodeFacts>, TimedOut> {
    let Some(lang) = parser_language(path, language) else {
        return Ok(None);
    };
    let lang = match lang {
        Language::C if is_header(path) && looks_like_cpp(content) => Language::Cpp,
        other => other,
    };
    let mut facts = CodeFacts {
        language: lang.name().to_owned(),
        ..Default::default()
    };
    let mut limits = Limits::default();
    if let Some(t) = crate::inject::parse_timeout() {
        limits.timeout = t;
    }
    crate::inject::parse_crash(content);
    match repocue_structure::extract(lang, content, &limits) {
        Ok(f) => {
            // A source file's prototypes announce what another file defines: Redis's `aof.c`
            // declares `void freeClientArgv(client *c);`, which `search` ranked before the
            // definition in `networking.c`, and which made `aof.c` a second definer of it.
            let source_file = matches!(lang, Language::C | Language::Cpp) && is_c_source(path);
            facts.symbols = f
                .symbols
                .into_iter()
                .filter(|s| !(source_file && s.prototype))
                .map(|s| SymbolFact {
                    qualified_name: s.qualified_name,
                    kind: s.kind.to_owned(),
                    signature: s.signature,
                    cut_hash: s.cut_hash,
                    start_line: s.start_line,
                    end_line: s.end_line,
                    visibility: s.visibility.map(str::to_owned),
                    conditional: s.conditional,
                    deprecated: s.deprecated,
                })
                .collect();
            if facts.symbols.len() > MAX_SYMBOLS {
                let mut order: Vec<usize> = (0..facts.symbols.len()).collect();
                order.sort_by_key(|&i| (facts.symbols[i].keep_priority(), i));
                let mut keep: Vec<usize> = order.into_iter().take(MAX_SYMBOLS).collect();
                keep.sort_unstable();
                let all = std::mem::take(&mut facts.symbols);
                let mut it = keep.into_iter().peekable();
                facts.symbols = all
                    .into_iter()
                    .enumerate()
                    .filter(|(i, _)| it.next_if_eq(i).is_some())
                    .map(|(_, s)| s)
                    .collect();
                facts.truncated = true;
            }
            facts.imports = f.imports;
            facts.references = f.references;
            facts.references.truncate(MAX_REFERENCES);
            facts.member_references = f.member_references;
            let kept = &facts.references;
            facts
                .member_references
                .retain(|r| kept.binary_search(r).is_ok());
            facts.qualified_references = f.qualified_references;
            facts.qualified_references.retain(|q| {
                let name = q.split(' ').next().unwrap_or_default();
                kept.binary_search_by(|r| r.as_str().cmp(name)).is_ok()
            });
            facts.reexports = f.reexports;
            facts.reexports.truncate(MAX_REFERENCES);
            facts.type_reexports = f.type_reexports;
            facts.type_reexports.truncate(MAX_REFERENCES);
            facts.star_exports = f.star_exports;
            facts.star_exports.truncate(MAX_REFERENCES);
            facts.default_export = f.default_export;
            facts.namespace = f.namespace;
        }
        Err(ExtractError::TimedOut) => return Err(TimedOut),
        Err(e) => {
            facts.error = Some(
                match e {
                    ExtractError::TooLarge { .. } => "too_large",
                    ExtractError::Minified => "minified",
                    ExtractError::Generated => "generated",
                    ExtractError::OverBudget => "over_budget",
                    // (A time-out returned above: it is never stored.)
                    ExtractError::TimedOut | ExtractError::Parse(_) => "parse_error",
                }
                .to_owned(),
            )
        }
    }
    // Facts that hold nothing but their language (an empty file's, or one of comments only)
    // are the same for every language: the same bytes in another language's file share them
    // by digest, and which language they named depended on which analysis was stored last (an
    // empty `lib.rs` beside an empty `App.java` counted as Java in one baseline of four, and
    // the overview's entry points changed order). Such facts name none; readers take the
    // file's own language ([`crate::cue::views::structure::Ranked::code_language`]).
    if facts.is_bare() {
        facts.language.clear();
    }
    Ok(Some(facts))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Facts that hold nothing but a language are the same whatever the language: an empty file
    /// of any language shares them by digest with every other.
    #[test]
    fn bare_facts_name_no_language() {
        let facts = |path: &[u8], language: &str, text: &str| {
            analyze(path, Some(language), text.as_bytes())
                .unwrap()
                .unwrap()
        };
        let rust = facts(b"src/lib.rs", "Rust", "");
        let java = facts(b"App.java", "Java", "");
        assert_eq!(rust, java);
        assert_eq!(rust.language, "");
        assert_eq!(facts(b"a.py", "Python", "# only a comment\n").language, "");
        assert_eq!(
            facts(b"a.py", "Python", "def f():\n    pass\n").language,
            "Python"
        );
    }

    /// A `.h` that holds C++ is parsed as C++ (leveldb's `db.h` had no symbols as C); a C
    /// header, or a C++ word in a `.c` file, stays C.
    #[test]
    fn a_cpp_header_is_parsed_as_cpp() {
        let cpp = b"#pragma once\nnamespace leveldb {\nclass LEVELDB_EXPORT DB {\n public:\n  DB() = default;\n};\n}\n";
        let facts = analyze(b"include/leveldb/db.h", Some("C"), cpp)
            .unwrap()
            .unwrap();
        assert_eq!(facts.language, "C++");
        assert!(
            facts
                .symbols
                .iter()
                .any(|s| s.name() == "DB" && s.kind == "class"),
            "{facts:?}"
        );
        let c =
            b"#ifndef UTIL_H\n#define UTIL_H\nstruct list { int n; };\nint run(void);\n#endif\n";
        assert_eq!(
            analyze(b"util.h", Some("C"), c).unwrap().unwrap().language,
            "C"
        );
        assert_eq!(
            analyze(b"util.c", Some("C"), cpp)
                .unwrap()
                .unwrap()
                .language,
            "C"
        );
        assert!(looks_like_cpp(b"int f(std::string s);\n"));
        assert!(!looks_like_cpp(
            b"/* a namespace of names */\nint f(void);\n"
        ));
    }

    fn symbol(q: &str, lines: (u32, u32)) -> SymbolFact {
        SymbolFact {
            qualified_name: q.into(),
            kind: "function".into(),
            signature: format!("def {q}()"),
            cut_hash: None,
            start_line: lines.0,
            end_line: lines.1,
            visibility: None,
            conditional: false,
            deprecated: false,
        }
    }

    #[test]
    fn facts_are_the_same_but_lines_only_when_names_nesting_and_references_are() {
        let facts = |symbols: Vec<SymbolFact>, references: &[&str]| CodeFacts {
            language: "python".into(),
            symbols,
            references: references.iter().map(|r| r.to_string()).collect(),
            ..Default::default()
        };
        let base = facts(vec![symbol("a", (1, 5)), symbol("b", (7, 9))], &["x"]);
        let moved = facts(vec![symbol("a", (3, 8)), symbol("b", (10, 12))], &["x"]);
        assert!(base.same_but_lines(&moved));
        // `b` inside `a` now, under the same name (an extractor that does not scope it).
        let nested = facts(vec![symbol("a", (1, 9)), symbol("b", (3, 4))], &["x"]);
        assert!(!base.same_but_lines(&nested));
        let called = facts(vec![symbol("a", (1, 5)), symbol("b", (7, 9))], &["x", "y"]);
        assert!(!base.same_but_lines(&called));
        let renamed = facts(vec![symbol("a", (1, 5)), symbol("c", (7, 9))], &["x"]);
        assert!(!base.same_but_lines(&renamed));
    }

    /// Of a file with more symbols than are stored, its `main` is kept wherever it is; the
    /// others are types and functions in source order.
    #[test]
    fn a_file_over_the_symbol_cap_keeps_its_main() {
        let mut source = String::from("struct server { int port; };\n");
        for i in 0..MAX_SYMBOLS + 50 {
            source.push_str(&format!("int command{i}(void) {{ return {i}; }}\n"));
        }
        source.push_str("int main(void) { return command0(); }\n");
        let facts = analyze(b"server.c", Some("C"), source.as_bytes())
            .unwrap()
            .unwrap();
        assert!(facts.truncated);
        assert_eq!(facts.symbols.len(), MAX_SYMBOLS);
        let names: Vec<&str> = facts
            .symbols
            .iter()
            .map(|s| s.qualified_name.as_str())
            .collect();
        assert_eq!(names[..2], ["server", "command0"], "{names:?}");
        assert_eq!(names.last(), Some(&"main"), "{names:?}");
    }

    #[test]
    fn a_symbols_name_is_its_last_segment_before_its_ordinal() {
        let cases = [
            ("parse", "parse", None),
            ("Parser.parse", "parse", Some("Parser")),
            ("Outer.Inner.method#2", "method", Some("Outer.Inner")),
            ("main#3", "main", None),
            // What the second `f` defines is `inner`, in `f#2` (it had no parent and
            // was named `f`).
            ("f#2.inner", "inner", Some("f#2")),
            ("a.b#2.c#3", "c", Some("a.b#2")),
            ("Größe.maß", "maß", Some("Größe")),
            ("", "", None),
            (".hidden", "hidden", Some("")),
        ];
        for (q, name, parent) in cases {
            let s = symbol(q, (1, 1));
            assert_eq!(s.name(), name, "{q}");
            assert_eq!(bare_name(q), name, "{q}");
            assert_eq!(s.parent(), parent, "{q}");
        }
    }
}
