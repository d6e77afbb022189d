//! Structural facts (symbols, imports, references) extracted from one source file.
//!
//! This crate is a pure library: it reads no files, prints nothing and keeps no global
//! mutable state besides the lazily built, per-language query configurations and a
//! per-thread parser. Everything starts at [`extract`]:
//!
//! ```
//! use repocue_structure::{extract, Language, Limits};
//!
//! let facts = extract(Language::Rust, b"pub fn parse(s: &str) -> u32 { s.len() as u32 }",
//!     &Limits::default()).unwrap();
//! assert_eq!(facts.symbols[0].qualified_name, "parse");
//! assert_eq!(facts.symbols[0].signature, "pub fn parse(s: &str) -> u32");
//! ```
//!
//! How it works: each language's grammar ships a tree-sitter *tags* query
//! (`@definition.*` / `@reference.*` / `@name` captures). That query, a few extra patterns
//! in the same format (`src/queries/<lang>-tags.scm`) and an imports query
//! (`src/queries/<lang>-imports.scm`) are compiled together once per process and run over
//! a single parse of the file. A small per-language module (`src/lang/<lang>.rs`)
//! then turns each captured definition into a [`Symbol`] (kind, visibility, where the
//! signature stops) and normalises imports; the shared engine (`engine.rs`) does the
//! rest: nesting, qualified names, signatures, de-duplication and references.

#![warn(missing_docs)]

mod cfg_macros;
mod conditionals;
mod conflicts;
mod decl_brackets;
mod detect;
mod engine;
mod export_macros;
mod guards;
mod lang;
mod matcher;
mod shield;
mod text;

use std::fmt;
use std::time::Duration;

pub use detect::{detect_language, language_name, LanguageInfo, LANGUAGES};

/// A version string that changes whenever extraction output could change.
///
/// Callers use it as part of a cache key; bump it whenever a query, a language module or
/// the engine changes what [`extract`] returns.
pub const EXTRACTOR_VERSION: &str = "113";

/// A programming language the extractor understands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Language {
    /// Rust.
    Rust,
    /// Python (also `.pyi` stubs).
    Python,
    /// Go.
    Go,
    /// JavaScript, including JSX.
    JavaScript,
    /// TypeScript without JSX.
    TypeScript,
    /// TypeScript with JSX (`.tsx`).
    Tsx,
    /// Java.
    Java,
    /// C (also `.h` headers).
    C,
    /// C++.
    Cpp,
    /// C#.
    CSharp,
    /// Ruby.
    Ruby,
    /// Bash and other POSIX-like shells.
    Bash,
    /// PHP.
    Php,
}

impl Language {
    /// Every supported language, in declaration order.
    pub fn all() -> &'static [Language] {
        use Language::*;
        &[
            Rust, Python, Go, JavaScript, TypeScript, Tsx, Java, C, Cpp, CSharp, Ruby, Bash, Php,
        ]
    }

    /// The display name used across RepoCue (`"C++"`, `"C#"`, `"Shell"`, …).
    pub fn name(self) -> &'static str {
        match self {
            Language::Rust => "Rust",
            Language::Python => "Python",
            Language::Go => "Go",
            Language::JavaScript => "JavaScript",
            Language::TypeScript => "TypeScript",
            Language::Tsx => "TSX",
            Language::Java => "Java",
            Language::C => "C",
            Language::Cpp => "C++",
            Language::CSharp => "C#",
            Language::Ruby => "Ruby",
            Language::Bash => "Shell",
            Language::Php => "PHP",
        }
    }

    /// The inverse of [`Language::name`]; ASCII case is ignored.
    pub fn from_name(name: &str) -> Option<Language> {
        Language::all()
            .iter()
            .copied()
            .find(|l| l.name().eq_ignore_ascii_case(name))
    }
}

/// How important a symbol kind is when symbols must be chosen (lower comes first): types,
/// then functions, implementations, modules and macros, then methods, then the rest. The one
/// order used wherever RepoCue ranks or drops symbols by kind.
pub fn symbol_priority(kind: &str) -> u8 {
    match kind {
        "class" | "struct" | "trait" | "interface" | "enum" | "type" => 0,
        "function" | "impl" | "module" | "macro" => 1,
        "method" => 2,
        _ => 3,
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One definition found in a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Symbol {
    /// The defined name, e.g. `parse`. Rust `impl` blocks are named after their header,
    /// e.g. `impl Display for Ast`.
    pub name: String,
    /// The enclosing scopes and the name joined with `.`, e.g. `Parser.parse`; later
    /// duplicates within a file get a `#2`, `#3`, … suffix.
    pub qualified_name: String,
    /// One of `function`, `method`, `class`, `struct`, `enum`, `interface`, `trait`, `type`,
    /// `module`, `constant`, `variable`, `macro`, `field`, `impl`.
    pub kind: &'static str,
    /// The declaration without its body, comments, docstrings or annotations, whitespace
    /// collapsed; at most 300 characters (a longer one keeps its start and its last 99
    /// characters, the return type and the last parameters, around ` … `). Never a
    /// value written in the code: every string, character, regex or macro-body literal, every
    /// number longer than 4 characters and the initialiser of every constant, variable or
    /// field is shown as `…` (`pub const TOKEN: &str = …`, `def f(token=…)`), so that a
    /// secret in the source never reaches a cue, a search index or a database row.
    pub signature: String,
    /// When the signature was cut, or shows literal values (a parameter's default
    /// `method='GET'`) as `…`: a 32-bit hash of the whole and of those values, so that two
    /// signatures that differ only in what is not shown still differ; the other overloads the
    /// symbol stands for (a TypeScript function's after the first, a Python implementation's
    /// `@overload`s) are part of it. A constant's, variable's or field's initialiser is not
    /// (its value is no declaration).
    pub cut_hash: Option<u32>,
    /// 1-based line where the declaration starts (after leading comments/annotations).
    pub start_line: u32,
    /// 1-based last line of the whole definition, body included.
    pub end_line: u32,
    /// The qualified name of the enclosing symbol, if any.
    pub parent: Option<String>,
    /// `public`, `private`, `protected`, `internal` or `exported` where the language says
    /// so; `None` when unknown.
    pub visibility: Option<&'static str>,
    /// Defined only under a preprocessor condition (C, C++: inside `#if`, `#ifdef`, `#else`,
    /// … other than the file's include guard): a test or debug build's `main`, a platform's
    /// variant.
    pub conditional: bool,
    /// Marked deprecated where it is defined: Java's `@Deprecated`, Rust's `#[deprecated]`,
    /// C#'s `[Obsolete]`, Python's `@deprecated` decorator, or in the comment just above it
    /// a JSDoc, PHPDoc or YARD `@deprecated` tag or Go's `Deprecated:` paragraph. What a
    /// project keeps for its old users, not what a newcomer should learn first.
    pub deprecated: bool,
    /// A declaration whose definition the file does not hold: a C or C++ prototype
    /// (`void free_client(client *c);`) or `extern` declaration. A header's are its API; a
    /// source file's only announce what another file defines.
    pub prototype: bool,
}

/// Everything extracted from one file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FileFacts {
    /// Definitions, sorted by `(start_line, qualified_name)`.
    pub symbols: Vec<Symbol>,
    /// Imported modules/paths as written (`std::collections::HashMap`, `os.path`, `./util`,
    /// `stdio.h`), sorted and de-duplicated.
    pub imports: Vec<String>,
    /// Identifiers referenced (calls, type uses) but not defined in this file, sorted and
    /// de-duplicated.
    pub references: Vec<String>,
    /// Of `references`, the names written only as a member of a value (`x.is_empty()`,
    /// `self.run()`, `p->next`), never on their own: each can mean a method, field or property
    /// only, not a free function or a type of that name. Sorted and de-duplicated. Where a
    /// plain name before the dot may be a module or package (Go's `fmt.Println`, Python's
    /// `os.path.join`, a JavaScript namespace), such a use is no member's: only `self`,
    /// `this`, `cls` or an expression before the dot make one.
    pub member_references: Vec<String>,
    /// Of `references`, the names written only after another package's name (Go's
    /// `zapcore.Core`, `zap.String(…)`), never on their own, each with the import path that
    /// name binds: `"Core go.uber.org/zap/zapcore"`, sorted and de-duplicated. Such a name
    /// is that package's top-level definition, not the file's own package's, nor a method or
    /// field of the name.
    pub qualified_references: Vec<String>,
    /// Names the file makes part of its module's interface without defining them, sorted
    /// and de-duplicated: JavaScript's and TypeScript's `export { a } from "./x"`, and an
    /// imported or required name that a separate `export { a }` or `module.exports` names,
    /// Rust's `pub use`, and what a Ruby file `autoload`s (`autoload :Builder, "rack/builder"`).
    /// What a package's index hands on is its API; what it merely imports and calls is not.
    /// Empty for languages whose re-exports are not told apart from imports. Names handed on
    /// as types alone are in `type_reexports` instead.
    pub reexports: Vec<String>,
    /// Names handed on as TypeScript types alone (`export type { a } from "./x"`, `export {
    /// type a }`), sorted and de-duplicated: a class's type, not the class a user constructs.
    pub type_reexports: Vec<String>,
    /// Modules handed on whole (`export * from "./schemas"`, Rust's `pub use crate::engine::*`),
    /// as imports are written, sorted and de-duplicated: every name they export is the file's.
    pub star_exports: Vec<String>,
    /// The name a JavaScript or TypeScript module exports as its default (`export default
    /// ky`, `export default class Ky {}`, CommonJS `module.exports = createApplication`): the
    /// one a user imports the package as. `None` elsewhere.
    pub default_export: Option<String>,
    /// The namespace the file declares once for all its definitions (PHP's `namespace
    /// App\Http;`), as written without a leading `\`; `Some("")` for a file that declares
    /// none (the global namespace). What a bare class name of the file, or the last part of
    /// a name it `use`s, resolves against. `None` where no single namespace holds the file
    /// (braced namespace blocks: their definitions' parents tell) and in other languages.
    pub namespace: Option<String>,
}

/// Resource limits for one [`extract`] call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Larger sources are refused with [`ExtractError::TooLarge`]. Default: 1 MiB.
    pub max_bytes: usize,
    /// Parsing plus querying that needs more work than this fails with
    /// [`ExtractError::OverBudget`]. Work is counted in tree-sitter's own units (parser
    /// operations and query-cursor steps), never by a clock, so whether a file is over budget
    /// depends only on its bytes and this crate's version: the outcome can be stored by
    /// content digest. Default: [`DEFAULT_MAX_WORK`].
    pub max_work: u64,
    /// A safety net: work that takes longer than this fails with [`ExtractError::TimedOut`].
    /// Work counts do not bound time everywhere (error recovery can be slow per operation),
    /// but this verdict depends on the machine and its load, not on the file. Default: 2 s.
    pub timeout: Duration,
}

/// The default work budget of one file, in tree-sitter's units (parser operations, query
/// steps). Ordinary sources stay far below it: 3.1 M for 780 KB of C (20,000 functions),
/// 6.7 M for 820 KB of dense TypeScript, 1.3 M for a 630 KB Rust table. Pathological ones
/// exceed it: 625 M for 400 KB of unclosed JavaScript brackets (47 s of querying
/// otherwise), 400 M for 80,000 unclosed C++ template lists.
pub const DEFAULT_MAX_WORK: u64 = 50_000_000;

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_bytes: 1 << 20,
            max_work: DEFAULT_MAX_WORK,
            timeout: Duration::from_secs(2),
        }
    }
}

/// Why a file yielded no facts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExtractError {
    /// The source is larger than [`Limits::max_bytes`].
    TooLarge {
        /// Size of the source.
        bytes: usize,
        /// The limit it exceeded.
        limit: usize,
    },
    /// The source looks minified (very long lines).
    Minified,
    /// The source carries a "generated" / "do not edit" marker near its top.
    Generated,
    /// Parsing and querying needed more work than [`Limits::max_work`]: a property of the
    /// source, the same on every run.
    OverBudget,
    /// Parsing and querying took longer than [`Limits::timeout`]: a property of this attempt
    /// (machine, load), not of the source. Never store it as a fact of the content; try again.
    TimedOut,
    /// The parser or a query could not be set up or run.
    Parse(String),
}

impl fmt::Display for ExtractError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExtractError::TooLarge { bytes, limit } => {
                write!(
                    f,
                    "file too large: {bytes} bytes exceeds the limit of {limit} bytes"
                )
            }
            ExtractError::Minified => f.write_str("file looks minified"),
            ExtractError::Generated => f.write_str("file is marked as generated"),
            ExtractError::OverBudget => f.write_str("parsing exceeded its work budget"),
            ExtractError::TimedOut => f.write_str("parsing timed out"),
            ExtractError::Parse(msg) => write!(f, "parse error: {msg}"),
        }
    }
}

impl std::error::Error for ExtractError {}

/// Extracts the symbols, imports and references of one file written in `language`.
///
/// Thread-safe: query configurations are built once per process and language (well under a
/// millisecond, on first use; see `matcher`) and shared; each thread keeps its own parser. Never panics on any
/// input; invalid UTF-8 is read lossily.
pub fn extract(
    language: Language,
    source: &[u8],
    limits: &Limits,
) -> Result<FileFacts, ExtractError> {
    guards::check(language, source, limits)?;
    let shielded = shield::for_parser(language, source);
    let source = conflicts::ours(&shielded);
    match language {
        Language::Cpp => {
            let source = conditionals::if0_blanked(&source);
            let source = conditionals::split_heads_last_branch(&source);
            let source = conditionals::body_first_branches(&source);
            let source = decl_brackets::hidden(&source);
            engine::extract(language, &export_macros::hidden(&source), limits)
        }
        Language::C => {
            let source = conditionals::if0_blanked(&source);
            let source = conditionals::split_heads_last_branch(&source);
            let source = conditionals::body_first_branches(&source);
            let source = decl_brackets::hidden(&source);
            engine::extract(language, &export_macros::hidden_in_c(&source), limits)
        }
        Language::Rust => engine::extract(language, &cfg_macros::unwrapped(&source), limits),
        Language::CSharp => {
            engine::extract(language, &conditionals::first_branches(&source), limits)
        }
        _ => engine::extract(language, &source, limits),
    }
}
