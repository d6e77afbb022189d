//! The content of each cue view.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Commit, DeltaItem, DeltaOp, SearchKind};

/// Content of the `delta` view: one entry per changed path with symbol and import
/// operations nested under it; the full operations (digests, object ids) with `provenance`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct DeltaContent {
    /// The earlier snapshot, or `commit <id>` (ten hex digits) when `--since` named a commit
    /// no retained snapshot saw.
    pub from: String,
    /// The current snapshot.
    pub to: String,
    /// Changed paths and symbol/import operations in the whole delta (including those left
    /// out).
    pub totals: DeltaTotals,
    /// Branch, HEAD (abbreviated) and working-tree changes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub repository: Vec<RepoChange>,
    /// Changed paths per directory, when more paths changed than a small delta has and the
    /// budget cannot list them all.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub directories: Vec<DirectoryCount>,
    /// What happened to each path, with its symbol and import operations.
    pub paths: Vec<PathChange>,
    /// Every operation with before/after values (digests, object ids): with `provenance`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub operations: Vec<DeltaItem>,
}

/// Totals of a delta.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct DeltaTotals {
    /// Changed paths.
    pub paths: u64,
    /// Symbol and import operations.
    pub changes: u64,
    /// Changed secret paths (tracked or untracked): counted, never named.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub secret_paths: u64,
}

/// Number of changed paths in one directory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct DirectoryCount {
    /// Directory with a trailing `/` (`./` for the root).
    pub path: String,
    /// Changed paths directly in it.
    pub paths: u64,
}

/// A repository-level change.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct RepoChange {
    /// `repository.branch_changed`, `repository.head_changed` or
    /// `repository.working_tree_changed`.
    pub op: DeltaOp,
    /// Values before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<serde_json::Value>,
    /// Values after.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<serde_json::Value>,
}

/// What happened to one path.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PathChange {
    /// Repository path.
    pub path: String,
    /// The file operation (`file.added`, `file.content_changed`, ...); absent when only the
    /// path's symbols or imports changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub op: Option<DeltaOp>,
    /// The path a `file.renamed` file was at: the deleted file whose content it has, or whose
    /// every moved symbol moved here. That path has no entry of its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// Size of an added or restored file, in bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<i64>,
    /// Size change of a changed file, in bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size_delta: Option<i64>,
    /// Working state after the change (`staged`, `unstaged`, ...), when it changed; a file
    /// added to the index, or deleted from it, and not committed is `staged`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<String>,
    /// Other metadata fields that changed (`index_mode`, `file_type`, `language`, ...).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<String>,
    /// Symbol and import operations in this file.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<SymbolChange>,
}

impl PathChange {
    /// An entry for a path with nothing recorded yet.
    pub fn bare(path: &str) -> Self {
        PathChange {
            path: path.to_owned(),
            op: None,
            from: None,
            size: None,
            size_delta: None,
            state: None,
            fields: vec![],
            changes: vec![],
        }
    }
}

/// A symbol or import operation under its path.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SymbolChange {
    /// `symbol.added`, `symbol.removed`, `symbol.signature_changed`, `symbol.moved`,
    /// `import.added` or `import.removed`.
    pub op: DeltaOp,
    /// Qualified symbol name, or the import as written. Empty, and left out, in a delta cue
    /// when the signature and the path say it: the signature names it (a top-level function's
    /// `def parse(text)`), or names its last part and the path ends in the rest, the file's
    /// name without extensions last (`BooleanUtils.toBoolean` in `BooleanUtils.java`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// The (new) declaration.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    /// The old declaration of a `symbol.signature_changed`, without the start it shares with
    /// the new one when that is a dozen bytes or more (`…bool strict = false)`: cut where a
    /// parameter begins), and without the end it shares from the first parameter after what
    /// differs (`…debug: bool = False, …`); `… (a part not shown changed)` when the two read alike, a long
    /// signature having changed only where it is cut. For a `symbol.removed` overload (a name
    /// with a `#` number, `lib.f#3`), its declaration.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<String>,
    /// The path a moved symbol came from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// Whether the symbol only groups others by name (a Ruby module, a C++ namespace, a Rust
    /// `mod`): an added one is implied by its added members' qualified names. Not serialized.
    #[serde(skip)]
    #[schemars(skip)]
    pub namespace: bool,
    /// Whether such a namespace is a statement on one line that names what follows it in the
    /// file (C#'s `namespace Serilog.Core;`, PHP's `namespace League\Flysystem;`): its members'
    /// qualified names leave it out, yet an added one is implied by the symbols added after
    /// it. Not serialized.
    #[serde(skip)]
    #[schemars(skip)]
    pub statement: bool,
}

/// How far a document can be trusted to describe the code it references.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum DocFreshness {
    /// Every referenced file exists and none changed after the document.
    Current,
    /// Every referenced file exists; the history does not say which changed last.
    LikelyCurrent,
    /// A referenced file changed after the document.
    PossiblyStale,
    /// The document references a path that does not exist.
    StaleConfirmed,
    /// The document references no repository path.
    Unknown,
}

/// Content of the `document` view.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct DocumentContent {
    /// Document path.
    pub path: String,
    /// First top-level heading.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Headings in order.
    pub outline: Vec<OutlineEntry>,
    /// Links: repository paths first, then URLs.
    pub links: Vec<Link>,
    /// Staleness verdict (after the document's own structure: it moves with other files).
    pub staleness: DocFreshness,
    /// Why (each item names a path and a snapshot).
    pub evidence: Vec<String>,
    /// Snapshot in which the document last changed (within the epoch).
    pub last_changed: Option<String>,
    /// Why the document has no outline or links to show, when it was not read for them:
    /// `too_large` (over 1 MiB: hashed as a stream, its text never held), `vendored` or
    /// `generated` (such files are not analysed), `deferred` (its analysis waits for a later
    /// read). Left out when it was read.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_outlined: Option<String>,
}

/// One heading.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct OutlineEntry {
    /// `doc:<path>#<slug>`.
    pub id: String,
    /// Level (1 = title).
    pub level: u8,
    /// Heading text.
    pub text: String,
    /// Line.
    pub line: u32,
}

/// One link target.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Link {
    /// Target as written.
    pub target: String,
    /// `file` (resolved repository path), `url` or `anchor`.
    pub kind: String,
    /// For files: the resolved repository path.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// For files: whether it exists in the snapshot (as a file or directory).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exists: Option<bool>,
}

/// Content of the `entity` view.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct EntityContent {
    /// The entity id asked for.
    pub id: String,
    /// `symbol`, `file`, `doc` (a document) or `section` (one of its headings).
    pub entity_type: String,
    /// The file that holds it.
    pub path: String,
    /// Symbol kind, the file's or document's language, or a section's heading level (`h2`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// Declaration without body or comments (symbols); a section's heading text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    /// First and last line (symbols; a section: its heading up to the line before the next
    /// heading of its level or above, left out for a document's last section).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines: Option<[u32; 2]>,
    /// Visibility where the language has it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub visibility: Option<String>,
    /// Enclosing symbol id.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    /// Symbols defined inside it (for a file: its top-level symbols; for a document or a
    /// section: the ids of the headings directly under it).
    pub children: Vec<String>,
    /// Imports of the defining file.
    pub imports: Vec<String>,
    /// Files that reference its name, or for a file, a name it defines at its top level (not
    /// a private one): of several definitions of the name, a file whose imports name some
    /// counts for those only. The project's own files first, then tests', examples' and
    /// vendored code's, each by path. For a document or a section, the project's other
    /// documents with a link to it.
    pub referenced_by: Vec<String>,
    /// The project's documents that explain it: for a symbol, those that show its name as
    /// code (an inline code span or a fenced block), and for a data member its owner's name
    /// too; for a file, those that link to it.
    /// Documents of tests and examples are not counted.
    #[serde(default)]
    pub documented_by: Vec<String>,
    /// For a file: the other files that define a name it references (its dependencies, where
    /// `referenced_by` are its users). Absent for symbols and documents.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub references: Vec<String>,
}

/// Content of the `manifest` view. Stable fields first (the views, the counts that change
/// only when files come or go), volatile ones last (bytes, working-tree counts, snapshots).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ManifestContent {
    /// Views that can be asked for next (`repocue cue --view <name>`).
    pub views: Vec<String>,
    /// Distinct languages.
    pub languages: u64,
    /// Documents among the tracked files.
    pub documents: u64,
    /// Tracked files.
    pub files: u64,
    /// Tracked bytes (working-tree sizes).
    pub bytes: u64,
    /// Tracked paths not clean, and the paths a staged deletion or rename took out of the
    /// index.
    pub dirty_paths: u64,
    /// Untracked paths.
    pub untracked_paths: u64,
    /// Tracked files classed as secrets (by name or content): counted, never named.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub secret_files: u64,
    /// Tracked files the configuration excludes from analysis, search and listings.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub excluded_files: u64,
    /// Retained snapshots usable as `--since` (most recent first).
    pub snapshots: Vec<String>,
}

/// Content of the `overview` view.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct OverviewContent {
    /// Name and purpose.
    pub project: Project,
    /// Languages by file count.
    pub languages: Vec<LanguageCount>,
    /// Top-level directories and workspace members with file counts.
    pub components: Vec<Component>,
    /// Where execution starts.
    pub entry_points: Vec<String>,
    /// What the listed package roots (`lib.rs`, `__init__.py`, a package's `index.ts`, the
    /// manifest of a PHP or .NET package's root namespace) export: their central public API by
    /// name, in `entry_points` order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exports: Vec<EntryExports>,
    /// Build, test, run and lint commands from manifests.
    pub commands: Vec<CommandRef>,
    /// Key documents with their titles.
    pub documents: Vec<DocumentRef>,
    /// The most important symbols (graph-ranked), with signatures.
    #[serde(serialize_with = "compact_symbols")]
    pub symbols: Vec<SymbolEntry>,
    /// Recent commit subjects (repository text), merges that name only where they came from
    /// (`Merge pull request #…`) and bots' dependency bumps left out: they change with each
    /// commit.
    pub recent_commits: Vec<Commit>,
    /// Totals over tracked files (after the structure and the history: sizes change with
    /// every edit, so a changed byte count leaves the prefix before it intact). Left out
    /// when the budget is spent on what a newcomer needs first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub totals: Option<Totals>,
    /// Paths that differ from HEAD (last: they change with every edit). Left out when there
    /// are none to show: a clean tree (`freshness` says `current`), or a budget that left them
    /// out (counted in `omitted`); never an empty object, which read as a clean tree.
    #[serde(default, skip_serializing_if = "WorkingTree::is_empty")]
    pub working_tree: WorkingTree,
}

/// Name and purpose of the project.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Project {
    /// Declared name (manifest) or the root directory name.
    pub name: String,
    /// The first meaningful sentence of the README or the manifest description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub purpose: Option<RepositoryText>,
    /// The README's sentence that says the project is deprecated, archived or no longer
    /// maintained (javapoet's "As of 2020-10-10, Square's JavaPoet project is deprecated."),
    /// what an agent must know before it builds on the code; left out when there is none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notice: Option<RepositoryText>,
    /// The language or runtime version the main manifest requires or targets, named:
    /// `Python >=3.10`, `Rust 1.85, edition 2024`, `Go 1.22`, `Node.js >=22`, `PHP ^8.0.2`,
    /// `Java 8`, `Ruby >= 2.7`, `C++17`, `.NET net8.0`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requires: Option<String>,
    /// What the project is built on: the direct runtime dependencies its main manifest
    /// declares (Cargo, npm, Composer, pyproject, go.mod), the most imported by its code
    /// first: three at most, whatever the budget (the manifest lists the rest).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dependencies: Vec<String>,
    /// Under what terms the project may be used and changed: the license its main manifest
    /// declares and its license file at the repository's root, either or both.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub license: Option<License>,
}

/// A project's license ([`Project::license`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct License {
    /// As the main manifest declares it, an SPDX expression mostly (`MIT`, `MIT OR
    /// Apache-2.0`): package.json, composer.json, Cargo.toml, pyproject.toml, a gemspec, an
    /// MSBuild project's `PackageLicenseExpression`; where none does, the SPDX identifiers of
    /// the root license files' texts, joined by `OR` (`GPL-2.0 OR BSD-3-Clause`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The license file at the repository's root (`LICENSE`, `LICENSE.md`, `COPYING`,
    /// `license`; of several, the first by name: `LICENSE-APACHE` before `LICENSE-MIT`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
}

/// Text copied from the repository, labelled as such: it is data, not instructions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct RepositoryText {
    /// The text.
    pub text: String,
    /// The file it comes from.
    pub source: String,
    /// Always `repository-text`.
    pub label: String,
}

/// Totals over the tracked files.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Totals {
    /// Tracked files.
    pub files: u64,
    /// Tracked bytes.
    pub bytes: u64,
    /// Documents.
    pub documents: u64,
    /// Tracked files classed as secrets: counted, never named.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub secret_files: u64,
    /// Tracked files the configuration excludes (not in the other sections).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub excluded_files: u64,
}

/// Serde helper: leaves out a zero count.
fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// Files of one language.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct LanguageCount {
    /// Language name.
    pub language: String,
    /// Files.
    pub files: u64,
}

/// A top-level directory or workspace member.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Component {
    /// Directory path with a trailing `/`.
    pub path: String,
    /// Tracked files under it.
    pub files: u64,
    /// `member` (declared by a workspace manifest), `workspace` (the directory holding the
    /// members) or `directory`; omitted for a `directory`.
    #[serde(default = "directory_kind", skip_serializing_if = "is_directory_kind")]
    pub kind: String,
    /// Most common language of its own files (outside tests, fixtures and examples; code
    /// before manifests on a tie), else of all its files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// For the `workspace`: the directories of its members, most important first, as many as
    /// the budget left room for (omitted when none). A member costs a path here, not a
    /// component of its own.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub members: Vec<String>,
}

/// Tells whether a command's manifest is at the repository's root ([`CommandRef::source`]).
fn is_root_manifest(source: &str) -> bool {
    !source.contains('/')
}

fn directory_kind() -> String {
    "directory".into()
}

fn is_directory_kind(kind: &str) -> bool {
    kind == "directory"
}

/// A command derived from a manifest, or a checked-in script named for its purpose.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct CommandRef {
    /// Command line, run from the manifest's directory.
    pub command: String,
    /// `build`, `test`, `run`, `lint`, `format`, `install`, `bench`, `docs` or `other`.
    pub purpose: String,
    /// The programs a package script runs, by name and in order (`npm test` of ky runs `xo`
    /// and `ava`): which test runner, linter or compiler it is. Names only, never arguments;
    /// left out when the script runs none, or only the program it is named for.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub runs: Vec<String>,
    /// The manifest it comes from; left out for a manifest at the repository's root, where
    /// the command runs, and for a checked-in script the command names (`scripts/test`).
    #[serde(default, skip_serializing_if = "is_root_manifest")]
    pub source: String,
    /// The project's continuous integration runs it (a step of a GitHub Actions workflow,
    /// run from the repository's root); left out when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ci: bool,
}

/// A key document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct DocumentRef {
    /// Path.
    pub path: String,
    /// First heading (repository text), unless it only repeats the file name, or each of its
    /// words is a word of the file name or of the project's name and purpose, a number or a
    /// joining word (`Contributing to Cobra`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

/// Paths that differ from HEAD, by kind.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct WorkingTree {
    /// Conflicted paths.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conflicted: Vec<String>,
    /// Paths with staged changes: a staged deletion's path and a staged rename's old path
    /// too.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub staged: Vec<String>,
    /// Paths with unstaged changes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unstaged: Vec<String>,
    /// Tracked paths missing from the working tree.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deleted: Vec<String>,
    /// Untracked, non-ignored paths.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub untracked: Vec<String>,
}

impl WorkingTree {
    /// Whether it lists no path.
    pub fn is_empty(&self) -> bool {
        self.conflicted.is_empty()
            && self.staged.is_empty()
            && self.unstaged.is_empty()
            && self.deleted.is_empty()
            && self.untracked.is_empty()
    }
}

/// Content of the `search` view.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SearchContent {
    /// The query as given.
    pub query: String,
    /// Scopes searched.
    pub scopes: Vec<String>,
    /// `all` when every term matched, `any` when the fallback (any term) was used.
    pub matched: String,
    /// Hits found (before the budget).
    pub total_hits: u64,
    /// Ranked hits.
    pub hits: Vec<Hit>,
    /// When the query as a whole matched nothing (no hit, or hits of some of its words only:
    /// `"matched":"any"`) and the work tree has untracked paths: those paths, which are never
    /// indexed and so never searched (a file just created is found once `git add` tracks it).
    /// Secret-named paths are left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_searched: Option<NotSearched>,
}

/// Paths a search did not look into.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct NotSearched {
    /// How many untracked paths there are.
    pub untracked: u64,
    /// The first of them, sorted by path (at most five).
    pub paths: Vec<String>,
}

/// One search hit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Hit {
    /// Entity id: `file:…`, `symbol:…:…` or `doc:…#slug`.
    pub id: String,
    /// `path`, `symbol` or `doc`.
    pub kind: SearchKind,
    /// File path.
    pub path: String,
    /// Line, when meaningful.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// Signature (symbols) or heading (docs); omitted for path hits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

/// Content of the `structure` view.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct StructureContent {
    /// The path prefix described (`""` for the whole repository).
    pub path: String,
    /// Tracked files under it.
    pub files_total: u64,
    /// Files with extracted symbols under it.
    pub code_files: u64,
    /// Code files under it whose symbols were not extracted, by reason: `over_budget` (the
    /// parse's work budget ran out), `too_large`, `minified`, `generated`, `parse_error`,
    /// `crashed` (parsing it killed the process twice). Left out when none.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub not_outlined: BTreeMap<String, u64>,
    /// Ranked files.
    pub files: Vec<FileEntry>,
    /// Ranked symbols, each with its name (the ids a program lists symbols by).
    pub symbols: Vec<SymbolEntry>,
}

/// A ranked file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct FileEntry {
    /// Path.
    pub path: String,
    /// Language.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// Number of symbols defined.
    pub symbols: u64,
}

/// The names a package root listed under `entry_points` exports.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct EntryExports {
    /// The entry point, as `entry_points` lists it.
    pub path: String,
    /// Names it re-exports or defines publicly (entity id `symbol:<defining path>:<name>`;
    /// `search` finds the definition), most important first: the rank of the defining file
    /// times how much the project's other files use the name.
    pub names: Vec<String>,
}

/// A ranked symbol, compact: its entity id is `symbol:<path>:<name>`, its kind is in its
/// signature.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SymbolEntry {
    /// Repository-relative path of the defining file.
    pub path: String,
    /// Qualified name (`Parser.parse`; `#2` for a later duplicate in the same file). Left out
    /// of an overview when the signature names it already: a one-word name that is a whole
    /// word of its signature (`struct strbuf`, `def render_template(…)`), see
    /// [`signature_names`].
    #[serde(default)]
    pub name: String,
    /// First line.
    pub line: u32,
    /// Declaration without body or comments; in `overview`, cut after
    /// [`OVERVIEW_SIGNATURE_CHARS`] characters with `…` (the name is always kept).
    pub signature: String,
    /// `overview` only: the type's most important public methods, its own or inherited from
    /// the project's classes it extends, by name (entity id `symbol:<path>:<name>.<member>`,
    /// which names an inherited method's definition), most important first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub members: Vec<String>,
    /// `overview` only, on the first symbol of a file: the names of other public top-level
    /// definitions of the same file that the overview's first 20 symbols do not list (entity id
    /// `symbol:<path>:<name>`), most used first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<String>,
}

/// Serializes the overview's symbol list, each without `name` where [`signature_names`] says
/// its signature holds it: a fifth of a symbol's bytes in JSON, and the entity id is still
/// `symbol:<path>:<the name in the signature>`. Only the overview's content does this (what an
/// agent reads first, on a tight budget); `structure`, which programs list symbols by, and the
/// view cache (`completing` finds a symbol by its name) keep every name.
fn compact_symbols<S: serde::Serializer>(
    symbols: &[SymbolEntry],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_seq(symbols.iter().map(CompactSymbol))
}

/// A [`SymbolEntry`] as a cue shows it ([`compact_symbols`]).
struct CompactSymbol<'a>(&'a SymbolEntry);

impl Serialize for CompactSymbol<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let e = self.0;
        let named = !signature_names(&e.signature, &e.name);
        let fields = 3
            + usize::from(named)
            + usize::from(!e.members.is_empty())
            + usize::from(!e.also.is_empty());
        let mut s = serializer.serialize_struct("SymbolEntry", fields)?;
        s.serialize_field("path", &e.path)?;
        if named {
            s.serialize_field("name", &e.name)?;
        }
        s.serialize_field("line", &e.line)?;
        s.serialize_field("signature", &e.signature)?;
        for (key, list) in [("members", &e.members), ("also", &e.also)] {
            if !list.is_empty() {
                s.serialize_field(key, list)?;
            }
        }
        s.end()
    }
}

/// Tells whether `signature` names the symbol `name` so that a reader needs no separate name:
/// `name` is one word (letters, digits, `_`, `$`, and a Ruby method's closing `?`, `!` or `=`:
/// not qualified, not `#2` of a duplicate, not `impl Parser`) and a whole word of the signature (`strbuf` in `struct strbuf`, not `a` in
/// `int main(void)`).
pub fn signature_names(signature: &str, name: &str) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    // A Ruby predicate, bang or setter method keeps its mark (`match?`, `reset!`).
    let stem = name.strip_suffix(['?', '!', '=']).unwrap_or(name);
    if stem.is_empty() || !stem.chars().all(word) {
        return false;
    }
    signature.match_indices(name).any(|(at, _)| {
        let before = signature[..at].chars().next_back();
        let after = signature[at + name.len()..].chars().next();
        !before.is_some_and(word) && !after.is_some_and(word)
    })
}

/// Longest signature an overview shows before cutting it with `…`: a declaration's head names
/// what it is; a 300-character generic parameter list buys no fact for its tokens. 64 rather
/// than 100 (`bench/quality/run.sh`): the tuned repositories' text overview at 500 tokens
/// found 0.816 → 0.822 of their facts (flask's purpose fits), nothing was lost at any budget.
pub const OVERVIEW_SIGNATURE_CHARS: usize = 64;
