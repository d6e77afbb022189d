//! The language-independent part of extraction: parse once, run the language's combined
//! query once, then nest, name and describe the captured definitions.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::ops::{ControlFlow, Range};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use tree_sitter::{
    Node, ParseOptions, Parser, Query, QueryCursor, QueryCursorOptions, StreamingIterator,
};

use crate::lang::{self, Def, Info, LanguageSupport, Parent};
use crate::matcher::Matcher;
use crate::text::{self, Hole, LineIndex};
use crate::{ExtractError, FileFacts, Language, Symbol};

/// What a capture of the combined query means.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Role {
    Definition(String),
    Reference,
    Name,
    Ignore,
    Import,
    Local,
    Export,
    Reexport,
    StarExport,
    DefaultExport,
    Other,
}

/// A language's compiled query and the meaning of its captures; built once per process.
struct Config {
    grammar: tree_sitter::Language,
    query: Compiled,
    roles: Vec<Role>,
}

/// The query, compiled by our own matcher (microseconds) or, for a query it cannot read,
/// by tree-sitter (10–120 ms of parse-table analysis).
enum Compiled {
    Own(Matcher),
    TreeSitter(Query),
}

/// One slot per [`Language`], indexed by its discriminant (declaration order).
static CONFIGS: [OnceLock<Result<Config, String>>; 13] = [const { OnceLock::new() }; 13];

/// The language's configuration, built on first use and shared afterwards.
fn config(language: Language) -> Result<&'static Config, ExtractError> {
    let slot = CONFIGS
        .get(language as usize)
        .ok_or_else(|| ExtractError::Parse(format!("no slot for {}", language.name())))?;
    slot.get_or_init(|| build_config(lang::support(language)))
        .as_ref()
        .map_err(|e| ExtractError::Parse(format!("{} query: {e}", language.name())))
}

/// The language's tags and imports queries as one query text.
fn query_source(support: &dyn LanguageSupport) -> String {
    without_doc_comments(&format!(
        "{}\n{}",
        support.tags_query(),
        support.imports_query()
    ))
}

/// Compiles the language's tags and imports queries into one query.
fn build_config(support: &dyn LanguageSupport) -> Result<Config, String> {
    let grammar = support.grammar();
    let source = query_source(support);
    let query = match Matcher::new(&grammar, &source) {
        Ok(matcher) => Compiled::Own(matcher),
        Err(_) => Compiled::TreeSitter(Query::new(&grammar, &source).map_err(|e| e.to_string())?),
    };
    let names: Vec<&str> = match &query {
        Compiled::Own(m) => m.capture_names().iter().map(String::as_str).collect(),
        Compiled::TreeSitter(q) => q.capture_names().to_vec(),
    };
    let roles = names
        .iter()
        .map(|name| match *name {
            "name" => Role::Name,
            "ignore" => Role::Ignore,
            "import" => Role::Import,
            "local.definition" => Role::Local,
            "export" => Role::Export,
            "reexport" => Role::Reexport,
            "star_export" => Role::StarExport,
            "default_export" => Role::DefaultExport,
            _ => {
                if let Some(kind) = name.strip_prefix("definition.") {
                    Role::Definition(kind.to_string())
                } else if name.starts_with("reference.") {
                    Role::Reference
                } else {
                    Role::Other
                }
            }
        })
        .collect();
    Ok(Config {
        grammar,
        query,
        roles,
    })
}

/// Removes the doc-comment captures of the shipped tags queries (`(comment)* @doc .` before a
/// definition, and the `#strip!` / `#select-adjacent!` / `#set-adjacent!` predicates on
/// `@doc`). Extraction never copies comments, so the definitions matched are the same; the
/// quantified, anchored sibling patterns are what makes compiling a query slow (TypeScript's
/// took about 67 ms of every process that parses one TypeScript file, Ruby's 66 ms).
fn without_doc_comments(query: &str) -> String {
    let mut out = String::with_capacity(query.len());
    let mut lines = query.lines().peekable();
    while let Some(line) = lines.next() {
        let t = line.trim();
        if t == "(comment)* @doc" {
            if lines.peek().is_some_and(|next| next.trim() == ".") {
                lines.next();
            }
            continue;
        }
        if [
            "(#strip! @doc",
            "(#select-adjacent! @doc",
            "(#set-adjacent! @doc",
        ]
        .iter()
        .any(|p| t.starts_with(p))
        {
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

thread_local! {
    /// This thread's parser and query cursor, kept between calls.
    static PARSER: RefCell<Option<(Parser, QueryCursor)>> = const { RefCell::new(None) };
}

/// Runs `f` with this thread's parser and query cursor (fresh ones on first use, when
/// re-entered, or during thread teardown).
fn with_parser<R>(f: impl FnOnce(&mut Parser, &mut QueryCursor) -> R) -> R {
    let taken = PARSER.try_with(RefCell::take).ok().flatten();
    let (mut parser, mut cursor) = taken.unwrap_or_else(|| (Parser::new(), QueryCursor::new()));
    let result = f(&mut parser, &mut cursor);
    let _ = PARSER.try_with(|cell| cell.replace(Some((parser, cursor))));
    result
}

/// Work accounting in tree-sitter's own units, with a wall clock as a safety net.
///
/// Tree-sitter consults the progress callback after a fixed amount of work (every
/// [`PARSE_TICK`] parser operations, every [`QUERY_TICK`] query-cursor steps; both counters
/// start at zero for each parse and each query), so counting the calls measures effort
/// deterministically: the same bytes, grammar and library always cost the same, whatever the
/// machine's load, and an over-budget verdict can be stored with the content's facts. Work
/// is not time, though: an operation in error recovery can cost a hundred times an ordinary
/// one (a 780 KB garbage C# file takes seconds on 2.6 M units, a 820 KB TypeScript file
/// 0.4 s on 6.7 M), so the same callbacks also watch a deadline, whose verdict is only ever
/// about this attempt.
struct Meter {
    left: Cell<u64>,
    deadline: Option<Instant>,
    stopped: Cell<Option<Stop>>,
}

/// Why the meter stopped the work.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stop {
    OverBudget,
    TimedOut,
}

impl Stop {
    fn error(self) -> ExtractError {
        match self {
            Stop::OverBudget => ExtractError::OverBudget,
            Stop::TimedOut => ExtractError::TimedOut,
        }
    }
}

/// Parser operations between two progress callbacks (`OP_COUNT_PER_PARSER_CALLBACK_CHECK`).
const PARSE_TICK: u64 = 100;
/// Query-cursor steps between two progress callbacks (`WORK_PER_QUERY_CALLBACK_CHECK`).
const QUERY_TICK: u64 = 1_000;

impl Meter {
    fn new(budget: u64, timeout: Duration) -> Self {
        Meter {
            left: Cell::new(budget),
            deadline: Instant::now().checked_add(timeout),
            stopped: Cell::new(None),
        }
    }

    /// Charges `cost` units; breaks once the budget is spent or the deadline has passed.
    fn charge(&self, cost: u64) -> ControlFlow<()> {
        let stop = match self.left.get().checked_sub(cost) {
            None => Some(Stop::OverBudget),
            Some(left) => {
                self.left.set(left);
                self.deadline
                    .is_some_and(|d| Instant::now() >= d)
                    .then_some(Stop::TimedOut)
            }
        };
        match stop {
            Some(s) => {
                self.stopped.set(self.stopped.get().or(Some(s)));
                ControlFlow::Break(())
            }
            None => ControlFlow::Continue(()),
        }
    }

    /// Why the work was stopped, if it was.
    fn verdict(&self) -> Option<ExtractError> {
        self.stopped.get().map(Stop::error)
    }
}

/// Parses `source` and extracts its facts within the limits (work budget and deadline);
/// guards were already checked.
pub(crate) fn extract(
    language: Language,
    source: &[u8],
    limits: &crate::Limits,
) -> Result<FileFacts, ExtractError> {
    extract_with(config(language)?, language, source, limits)
}

fn extract_with(
    config: &'static Config,
    language: Language,
    source: &[u8],
    limits: &crate::Limits,
) -> Result<FileFacts, ExtractError> {
    let support = lang::support(language);
    let meter = Meter::new(limits.max_work, limits.timeout);
    with_parser(|parser, cursor| {
        parser
            .set_language(&config.grammar)
            .map_err(|e| ExtractError::Parse(e.to_string()))?;
        parser.reset();
        let mut progress = |_: &tree_sitter::ParseState| meter.charge(PARSE_TICK);
        let tree = parser.parse_with_options(
            &mut |offset, _| source.get(offset..).unwrap_or_default(),
            None,
            Some(ParseOptions::new().progress_callback(&mut progress)),
        );
        let Some(tree) = tree else {
            // A cancelled parse leaves state behind for resuming; drop it.
            parser.reset();
            return Err(meter
                .verdict()
                .unwrap_or_else(|| ExtractError::Parse("the parser gave no tree".into())));
        };
        let root = tree.root_node();
        let (scans, depth) = sibling_scans(root);
        if meter.charge(scans / SIBLING_SCANS_PER_UNIT).is_break() {
            return Err(meter.verdict().unwrap_or(ExtractError::OverBudget));
        }
        let captures = run_query(config, cursor, root, source, &meter)?;
        if depth > DEEP_TREE && meter.charge(definition_depths(root, &captures)).is_break() {
            return Err(meter.verdict().unwrap_or(ExtractError::OverBudget));
        }
        let mut facts = assemble(support, captures, source);
        facts.namespace = support.namespace(root, source);
        Ok(facts)
    })
}

/// A tree deeper than this has its definitions' depths charged ([`definition_depths`]).
const DEEP_TREE: usize = 256;

/// The cost the assembly cannot meter as it goes: the language modules walk up from every
/// definition, and tree-sitter's `Node::parent` searches down from the root, so each step up
/// costs the node's depth. Summed over the captured definitions, one unit per level, in one
/// walk of the tree. Only asked of deep trees: 20,000 classes nested in one another (320 KB of
/// JavaScript) cost 2·10⁸ units, minutes of assembly otherwise, and a deep expression with
/// shallow definitions costs next to nothing.
fn definition_depths(root: Node<'_>, captures: &Captures<'_, '_>) -> u64 {
    let definitions: HashSet<usize> = captures.definitions.iter().map(|d| d.0.id()).collect();
    let mut sum = 0u64;
    let mut depth = 0u64;
    let mut cursor = root.walk();
    loop {
        if definitions.contains(&cursor.node().id()) {
            sum = sum.saturating_add(depth);
        }
        if cursor.goto_first_child() {
            depth += 1;
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                return sum;
            }
            depth -= 1;
        }
    }
}

/// Sibling steps of [`sibling_scans`] that cost one unit of work (about what a parser
/// operation or a query step costs in time).
const SIBLING_SCANS_PER_UNIT: u64 = 32;

/// The query cost tree-sitter's progress callback does not see: for every node it visits, the
/// query cursor scans the later siblings up to the next named one
/// (`ts_tree_cursor_current_status`), so a run of `r` anonymous siblings (the `(` tokens of
/// an unclosed-bracket file under one `ERROR` node) costs `r²/2` steps. Counted up front from
/// the tree, in one walk, with the tree's depth.
fn sibling_scans(root: Node<'_>) -> (u64, usize) {
    let mut steps = 0u64;
    let mut cursor = root.walk();
    // The current run of anonymous siblings at each depth below the root.
    let mut runs: Vec<u64> = Vec::new();
    let mut deepest = 0;
    if !cursor.goto_first_child() {
        return (0, 0);
    }
    runs.push(0);
    loop {
        if let Some(run) = runs.last_mut() {
            *run = if cursor.node().is_named() {
                0
            } else {
                *run + 1
            };
            steps = steps.saturating_add(run.saturating_sub(1));
        }
        if cursor.goto_first_child() {
            runs.push(0);
            deepest = deepest.max(runs.len());
            continue;
        }
        while !cursor.goto_next_sibling() {
            runs.pop();
            if runs.is_empty() || !cursor.goto_parent() {
                return (steps, deepest);
            }
        }
    }
}

/// The raw captures of one file.
#[derive(Default)]
struct Captures<'q, 't> {
    definitions: Vec<(Node<'t>, Option<Node<'t>>, &'q str)>,
    references: Vec<Node<'t>>,
    imports: Vec<Node<'t>>,
    locals: Vec<Node<'t>>,
    exports: Vec<Node<'t>>,
    reexports: Vec<Node<'t>>,
    star_exports: Vec<Node<'t>>,
    default_exports: Vec<Node<'t>>,
}

fn run_query<'t>(
    config: &'static Config,
    cursor: &mut QueryCursor,
    root: Node<'t>,
    source: &[u8],
    meter: &Meter,
) -> Result<Captures<'static, 't>, ExtractError> {
    let mut out = Captures::default();
    match &config.query {
        Compiled::Own(matcher) => {
            let mut steps = 0u64;
            let mut step = || {
                steps += 1;
                !steps.is_multiple_of(QUERY_TICK) || meter.charge(QUERY_TICK).is_continue()
            };
            matcher.matches(root, source, &mut step, &mut |_, captures| {
                collect(config, captures.iter().copied(), &mut out);
            });
        }
        Compiled::TreeSitter(query) => {
            let mut progress = |_: &tree_sitter::QueryCursorState| meter.charge(QUERY_TICK);
            let options = QueryCursorOptions::new().progress_callback(&mut progress);
            let mut matches = cursor.matches_with_options(query, root, source, options);
            while let Some(m) = matches.next() {
                collect(
                    config,
                    m.captures().iter().map(|c| (c.index, c.node)),
                    &mut out,
                );
            }
        }
    }
    // A halted walk ends like a finished one; only the meter knows the matches are partial.
    if let Some(e) = meter.verdict() {
        return Err(e);
    }
    Ok(out)
}

/// Sorts the captures of one match into `out` by what they mean.
fn collect<'t>(
    config: &'static Config,
    captures: impl Iterator<Item = (u32, Node<'t>)>,
    out: &mut Captures<'static, 't>,
) {
    let mut definition = None;
    let mut reference = false;
    let mut name = None;
    let mut ignored = false;
    for (index, node) in captures {
        match config.roles.get(index as usize) {
            Some(Role::Definition(kind)) => definition = Some((node, kind.as_str())),
            Some(Role::Reference) => reference = true,
            Some(Role::Name) => name = Some(node),
            Some(Role::Ignore) => ignored = true,
            Some(Role::Import) => out.imports.push(node),
            Some(Role::Local) => out.locals.push(node),
            Some(Role::Export) => out.exports.push(node),
            Some(Role::Reexport) => out.reexports.push(node),
            Some(Role::StarExport) => out.star_exports.push(node),
            Some(Role::DefaultExport) => out.default_exports.push(node),
            Some(Role::Other) | None => {}
        }
    }
    if ignored {
        return;
    }
    if let Some((node, kind)) = definition {
        out.definitions.push((node, name, kind));
    } else if let (true, Some(name)) = (reference, name) {
        out.references.push(name);
    }
}

/// A captured definition with its name node and covered range, before judgement.
struct Candidate<'q, 't> {
    node: Node<'t>,
    outer: Node<'t>,
    name: Node<'t>,
    tag: &'q str,
}

/// A definition that survived the language module, with its place in the nesting.
struct Item<'t> {
    def_node: Node<'t>,
    outer: Node<'t>,
    range: Range<usize>,
    name: String,
    info: Info<'t>,
    parent: Option<usize>,
    qualified: String,
}

/// Turns the captures of one file into its facts.
fn assemble(support: &dyn LanguageSupport, captures: Captures<'_, '_>, source: &[u8]) -> FileFacts {
    let candidates = candidates(support, &captures.definitions);
    let mut items = nest(support, candidates, source);
    mark_exported(&mut items, &captures.exports, source);
    drop_superseded_prototypes(&mut items);
    merge_overloads(&mut items, source);
    merge_reopened(support, &mut items);
    name_items(&mut items);
    let all = support.exports_list_is_all();
    let reexported = reexports(&captures, &items, source, false, all);
    let type_reexports = reexports(&captures, &items, source, true, all);
    // What it hands on, it references: `const { Axios } = axios; export { Axios }` means the
    // definition of `Axios` elsewhere, as an import of it would.
    let imports = imports(support, &captures.imports, source);
    let (mut references, mut member_references, qualified_references) =
        references(support, &captures, &items, &imports, source);
    references.extend(reexported.iter().chain(&type_reexports).cloned());
    references.sort_unstable();
    references.dedup();
    // A name handed on is named on its own.
    member_references.retain(|n| {
        reexported.binary_search(n).is_err() && type_reexports.binary_search(n).is_err()
    });
    FileFacts {
        symbols: symbols(support, &items, source),
        imports,
        references,
        member_references,
        qualified_references,
        reexports: reexported,
        type_reexports,
        star_exports: star_exports(support, &captures.star_exports, source),
        default_export: default_export(&captures.default_exports, source),
        namespace: None,
    }
}

/// The name a module exports as its default: of several (a CommonJS module reassigning
/// `module.exports`), the first in the source.
fn default_export(nodes: &[Node], source: &[u8]) -> Option<String> {
    let first = nodes.iter().min_by_key(|n| n.start_byte())?;
    let name = std::str::from_utf8(&source[first.byte_range()]).ok()?;
    (!name.is_empty()).then(|| name.to_owned())
}

/// The modules a file hands on whole (`export * from "./schemas"`, Rust's `pub use
/// crate::engine::*`), as its imports are written; not `export * as ns from`, a namespace.
fn star_exports(support: &dyn LanguageSupport, nodes: &[Node], source: &[u8]) -> Vec<String> {
    let whole = nodes.iter().filter(|n| {
        n.parent().is_some_and(|statement| {
            let mut cursor = statement.walk();
            // A name beside the module's, not the module's own (Rust's `pub use engine::*`).
            let named = statement.children(&mut cursor).any(|c| {
                c.id() != n.id()
                    && matches!(
                        c.kind(),
                        "export_clause" | "namespace_export" | "identifier"
                    )
            });
            let mut cursor = statement.walk();
            let star = statement.children(&mut cursor).any(|c| c.kind() == "*");
            star && !named
        })
    });
    let whole: Vec<Node> = whole.copied().collect();
    imports(support, &whole, source)
}

/// One candidate per (definition node, name node), the first pattern winning, sorted
/// parents first. Of two names of one node where one holds the other (`Parser::parse`
/// and `parse`), the wider wins.
fn candidates<'q, 't>(
    support: &dyn LanguageSupport,
    definitions: &[(Node<'t>, Option<Node<'t>>, &'q str)],
) -> Vec<Candidate<'q, 't>> {
    let mut seen = HashSet::new();
    let mut candidates = Vec::new();
    for &(node, name, tag) in definitions {
        let names = match name {
            Some(name) => vec![name],
            None => support.names(node),
        };
        for name in names {
            if seen.insert((node.id(), name.id())) {
                let outer = support.outer(node);
                candidates.push(Candidate {
                    node,
                    outer,
                    name,
                    tag,
                });
            }
        }
    }
    let mut names_by_node: HashMap<usize, Vec<Range<usize>>> = HashMap::new();
    for c in &candidates {
        names_by_node
            .entry(c.node.id())
            .or_default()
            .push(c.name.byte_range());
    }
    candidates.retain(|c| {
        let name = c.name.byte_range();
        !names_by_node[&c.node.id()]
            .iter()
            .any(|other| *other != name && other.start <= name.start && name.end <= other.end)
    });
    // Parents before children: by start, then the widest first; ties keep the order of the
    // matches (a stable sort). Never by node id: that is an address, different in every
    // parse (fmt's format.h nested an equal-range C++ definition differently run to run).
    candidates.sort_by_key(|c| {
        let outer = c.outer.byte_range();
        (
            outer.start,
            std::cmp::Reverse(outer.end),
            c.node.start_byte(),
            std::cmp::Reverse(c.node.end_byte()),
            c.name.start_byte(),
        )
    });
    candidates
}

/// How deep definitions nest inside definitions before the deeper ones are left out. Code
/// written by people stays far below it; 20,000 classes nested in one another (320 KB of
/// generated or hostile JavaScript) made qualified names quadratic: minutes and 1.5 GB.
const MAX_NESTING: usize = 64;

/// Judges each candidate with its nearest kept enclosing definition as parent; candidates
/// nested [`MAX_NESTING`] deep are left out.
fn nest<'t>(
    support: &dyn LanguageSupport,
    candidates: Vec<Candidate<'_, 't>>,
    source: &[u8],
) -> Vec<Item<'t>> {
    let mut items: Vec<Item> = Vec::new();
    let mut stack: Vec<usize> = Vec::new();
    for Candidate {
        node,
        outer,
        name: name_node,
        tag,
    } in candidates
    {
        let range = outer.byte_range();
        while let Some(&top) = stack.last() {
            // Equal ranges are siblings (`int a, b;`), not parent and child.
            let enclosing = &items[top].range;
            if enclosing.start <= range.start && range.end <= enclosing.end && *enclosing != range {
                break;
            }
            stack.pop();
        }
        if stack.len() >= MAX_NESTING {
            continue;
        }
        // A preprocessor macro has no scope: googletest's `EXPECT_EQ`, defined inside
        // `namespace testing { … }`, is no `testing.EXPECT_EQ`.
        let unscoped = matches!(node.kind(), "preproc_def" | "preproc_function_def");
        let parent = stack.last().copied().filter(|_| !unscoped);
        let name_text = lang::node_text(name_node, source);
        let def = Def {
            node,
            outer,
            name_node,
            name: &name_text,
            tag,
        };
        let parent_view = parent.map(|p| Parent {
            node: items[p].def_node,
            kind: items[p].info.kind,
            name: &items[p].name,
        });
        let Some(mut info) = support.describe(&def, parent_view.as_ref(), source) else {
            continue;
        };
        let name = info
            .name
            .take()
            .unwrap_or_else(|| text::collapse(&name_text));
        if name.is_empty() {
            continue;
        }
        if !info.leaf {
            stack.push(items.len());
        }
        let qualified = String::new();
        items.push(Item {
            def_node: node,
            outer,
            range,
            name,
            info,
            parent,
            qualified,
        });
    }
    items
}

/// Marks top-level symbols named by a separate export (`export { a }`, `export default a`).
fn mark_exported(items: &mut [Item], exports: &[Node], source: &[u8]) {
    if exports.is_empty() {
        return;
    }
    let exported: HashSet<Cow<str>> = exports
        .iter()
        .map(|n| lang::node_text(*n, source))
        .collect();
    for item in items.iter_mut() {
        let top_level = item.parent.is_none() && item.info.visibility.is_none();
        if top_level && exported.contains(item.name.as_str()) {
            item.info.visibility = Some("exported");
        }
    }
}

/// The public symbols, sorted by (start line, qualified name).
fn symbols(support: &dyn LanguageSupport, items: &[Item], source: &[u8]) -> Vec<Symbol> {
    let lines = LineIndex::new(source);
    let on_request = support.built_on_request(source);
    let by_qualified: HashSet<&str> = items
        .iter()
        .filter(|i| !i.info.scope_only)
        .map(|i| i.qualified.as_str())
        .collect();
    let mut symbols: Vec<Symbol> = items
        .iter()
        .filter(|item| !is_include_guard(item.def_node, source) && !item.info.scope_only)
        .map(|item| {
            let (mut signature, first, literals) = signature(support, item, source);
            if let Some(keyword) = item.info.keyword {
                if !signature.starts_with(keyword) {
                    signature = format!("{keyword} {signature}");
                }
            }
            if let Some((from, to)) = &item.info.restart {
                if let Some(rest) = signature.strip_prefix(from.as_ref()) {
                    signature = format!("{to}{rest}");
                }
            }
            let (signature, cut) = text::cut(signature);
            // What the shown signature leaves out: its cut middle, its literal values.
            let literals = match (literals, item.info.unseen) {
                (l, None) => l,
                (l, Some(u)) => Some(text::fnv1a(
                    &[l.unwrap_or(0).to_le_bytes(), u.to_le_bytes()].concat(),
                )),
            };
            let cut_hash = match (cut, literals) {
                (cut, None) => cut,
                (None, Some(l)) => Some(l),
                (Some(c), Some(l)) => {
                    Some(text::fnv1a(&[c.to_le_bytes(), l.to_le_bytes()].concat()))
                }
            };
            let start = first.unwrap_or(item.range.start);
            let end = item.range.end.saturating_sub(1).max(start);
            // The nearest enclosing symbol: a scope the file only opens is none (its name stays
            // in the qualified names).
            let mut lexical = item.parent;
            while let Some(p) = lexical.filter(|&p| items[p].info.scope_only) {
                lexical = items[p].parent;
            }
            let lexical_parent = lexical.map(|p| items[p].qualified.clone());
            // A receiver names the owner (`func (p *Parser) Parse` belongs to `Parser`)
            // when the owner is defined in the file.
            let parent = match &item.info.receiver {
                Some(receiver) => {
                    let owner = join(&scope_of(items, item.parent), receiver);
                    Some(owner)
                        .filter(|o| by_qualified.contains(o.as_str()))
                        .or(lexical_parent)
                }
                None => lexical_parent,
            };
            Symbol {
                name: item.name.clone(),
                qualified_name: item.qualified.clone(),
                kind: item.info.kind,
                signature,
                cut_hash,
                start_line: lines.line(start),
                end_line: lines.line(end),
                parent,
                visibility: item.info.visibility,
                conditional: on_request || under_condition(item.def_node, source),
                deprecated: is_deprecated(item, source),
                prototype: item.info.prototype,
            }
        })
        .collect();
    // A function whose methods are assigned to it (JavaScript's `function View(name) {}` and
    // `View.prototype.render = function …`) is a class: its methods are its members, and the
    // overview lists it with them (express's `View` with `.render`).
    let owners: HashSet<String> = symbols
        .iter()
        .zip(
            items
                .iter()
                .filter(|item| !is_include_guard(item.def_node, source)),
        )
        .filter(|(s, item)| s.kind == "method" && item.info.receiver.is_some())
        .filter_map(|(s, _)| s.parent.clone())
        .collect();
    for s in &mut symbols {
        if s.kind == "function" && owners.contains(&s.qualified_name) {
            s.kind = "class";
        }
    }
    symbols
        .sort_by(|a, b| (a.start_line, &a.qualified_name).cmp(&(b.start_line, &b.qualified_name)));
    symbols
}

/// Whether a definition is marked deprecated ([`Symbol::deprecated`]): in its header (the
/// definition up to its body: Java annotations, C# attributes, Python decorators) or in the
/// comments and attributes that lie just above it (Rust's `#[deprecated]`, a doc comment's
/// `@deprecated` tag, Go's `// Deprecated:` paragraph).
fn is_deprecated(item: &Item, source: &[u8]) -> bool {
    // Python's decorators wrap the definition they decorate.
    let outer = item
        .outer
        .parent()
        .filter(|p| p.kind() == "decorated_definition")
        .unwrap_or(item.outer);
    let mut start = outer.start_byte();
    let mut prev = outer.prev_sibling();
    while let Some(p) = prev {
        let adjacent = source
            .get(p.end_byte()..start)
            .is_some_and(|gap| gap.iter().all(u8::is_ascii_whitespace));
        if !adjacent || !(p.kind().contains("comment") || p.kind() == "attribute_item") {
            break;
        }
        start = p.start_byte();
        prev = p.prev_sibling();
    }
    let end = item
        .info
        .body
        .map_or(item.def_node.end_byte(), |b| b.start_byte())
        .clamp(start, start + MAX_HEADER);
    let Some(header) = source.get(start..end.min(source.len())) else {
        return false;
    };
    let header = String::from_utf8_lossy(header);
    [
        "@Deprecated",
        "@deprecated",
        "#[deprecated",
        "[Obsolete",
        ".deprecated(",
    ]
    .iter()
    .any(|m| header.contains(m))
        || header.lines().any(|l| {
            l.trim_start_matches([' ', '\t', '/', '*', '#'])
                .starts_with("Deprecated:")
        })
}

/// The most of a definition's header (leading comments and attributes, then the definition
/// up to its body) read for a deprecation mark.
const MAX_HEADER: usize = 4096;

/// Whether a definition is compiled only when a build asks for it: inside the first branch of
/// `#ifdef X` or `#if X`, an `#elif`, or the `#else` of `#ifndef X` or `#if !X` (a test
/// build's `main`, `#ifdef LOCALTIME_TEST_MAIN`; a platform's variant, `#ifdef _WIN32`). What
/// a build compiles unless told otherwise is not: an include guard, `#ifndef UNITTESTS` around
/// curl's `main`, the `#else` of `#ifdef _UNICODE` that holds it.
fn under_condition(node: Node, source: &[u8]) -> bool {
    let (mut from, mut up) = (node, node.parent());
    while let Some(p) = up {
        // An `#else` or `#elif` is its conditional's `alternative`: the first branch's rule
        // is not its own.
        let in_alternative = p
            .child_by_field_name("alternative")
            .is_some_and(|a| a.id() == from.id());
        let opt_in = match p.kind() {
            "preproc_ifdef" | "preproc_if" => !in_alternative && !negated(p, source),
            "preproc_else" => p.parent().is_some_and(|owner| negated(owner, source)),
            "preproc_elif" | "preproc_elifdef" => true,
            _ => false,
        };
        if opt_in {
            return true;
        }
        (from, up) = (p, p.parent());
    }
    false
}

/// Whether a definition is a header's include guard: `#define X` with no value right inside
/// `#ifndef X` (jq's `JV_DTOA_H` was listed among the names its header offers).
fn is_include_guard(node: Node, source: &[u8]) -> bool {
    let Some(parent) = node.parent() else {
        return false;
    };
    let name = |n: Node| {
        n.child_by_field_name("name")
            .map(|c| lang::node_text(c, source))
    };
    node.kind() == "preproc_def"
        && node.child_by_field_name("value").is_none()
        && parent.kind() == "preproc_ifdef"
        && negated(parent, source)
        && name(node).is_some()
        && name(node) == name(parent)
}

/// Whether a conditional's first branch is taken when its macro is not defined: `#ifndef X`,
/// `#if !X`, `#if !defined(X)`.
fn negated(conditional: Node, source: &[u8]) -> bool {
    match conditional.kind() {
        "preproc_ifdef" => conditional.child(0).is_some_and(|c| c.kind() == "#ifndef"),
        "preproc_if" => conditional
            .child_by_field_name("condition")
            .is_some_and(|c| lang::node_text(c, source).trim_start().starts_with('!')),
        _ => false,
    }
}

/// The imports, whitespace collapsed, sorted and de-duplicated.
fn imports(support: &dyn LanguageSupport, nodes: &[Node], source: &[u8]) -> Vec<String> {
    let mut raw = Vec::new();
    for node in nodes {
        support.imports(*node, source, &mut raw);
    }
    let imports: BTreeSet<String> = raw
        .iter()
        .map(|i| text::collapse(i))
        .filter(|i| !i.is_empty())
        .collect();
    imports.into_iter().collect()
}

/// Referenced identifiers that are not defined, local or builtin, sorted and unique; of them,
/// those written only as a member of a value ([`is_member_access`]); and those written only
/// after a package's name, with its import path ([`FileFacts::qualified_references`]).
fn references(
    support: &dyn LanguageSupport,
    captures: &Captures,
    items: &[Item],
    imports: &[String],
    source: &[u8],
) -> (Vec<String>, Vec<String>, Vec<String>) {
    // A field typed by its own name (Go's `Logger *Logger`, C#'s `public Logger Logger { get;
    // set; }`) defines the field, not the type it uses: logrus's `entry.go` was no user of
    // `Logger`, nor `logger.go` of `Level` and `Formatter`.
    let defined: HashSet<&str> = items
        .iter()
        .filter(|i| !(matches!(i.info.kind, "field" | "property") && typed_by_own_name(i, source)))
        .filter(|i| !is_embedded_field(i))
        .filter(|i| !is_constructor(i))
        .map(|i| i.name.as_str())
        .collect();
    // Names the file defines as members only, where a language names members through a value
    // alone (Go): a use on its own is another definition's (validator's `func (r *NotRed)
    // Validate()` hid the file's `var v *Validate`); a use through a value stays the file's.
    let member_only: HashSet<&str> = match support.members_need_a_value() {
        true => {
            let member = |i: &&Item| matches!(i.info.kind, "method" | "field");
            let top: HashSet<&str> = items
                .iter()
                .filter(|i| !member(i))
                .map(|i| i.name.as_str())
                .collect();
            items
                .iter()
                .filter(member)
                .map(|i| i.name.as_str())
                .filter(|n| !top.contains(n))
                .collect()
        }
        false => HashSet::new(),
    };
    let locals: HashSet<Cow<str>> = captures
        .locals
        .iter()
        .map(|n| lang::node_text(*n, source))
        .collect();
    let bindings = module_bindings(&captures.imports, source);
    let packages = go_packages(&captures.imports, source);
    // Name → whether every use of it is a member's.
    let mut references: BTreeMap<Cow<str>, bool> = BTreeMap::new();
    // Name → the import paths of the packages that qualify it, `None` once it is used
    // on its own.
    let mut qualified: BTreeMap<Cow<str>, Option<BTreeSet<&str>>> = BTreeMap::new();
    for n in &captures.references {
        if support.names_a_foreign_package(*n, source, imports) {
            continue;
        }
        let name = attribute_class(*n, lang::node_text(*n, source));
        // A name imported under another (`from .core import meter as core_meter`) is the
        // other module's, whatever the file defines by that name later (`meter = meter_gui`):
        // tqdm's front ends hid its central class's every user.
        let aliased = n
            .parent()
            .and_then(|p| p.parent())
            .is_some_and(|g| g.kind() == "aliased_import");
        let own_member_only =
            || member_only.contains(name.as_ref()) && !is_member_access(*n, source, &bindings);
        if text::is_identifier(&name)
            && name != "_"
            && (aliased
                || !defined.contains(name.as_ref())
                || own_member_only()
                || names_an_imported_package(*n, source, &bindings))
            && !support.is_builtin(&name)
        {
            let member = is_member_access(*n, source, &bindings);
            // A local or parameter of the name, used on its own, is what the use means
            // (uvicorn's ASGI `await send(message)` made every `send` method central); after
            // a value's `.` it is still a member's.
            if !member && locals.contains(&name) {
                continue;
            }
            // Every value has these: a use says nothing of which class's override it means
            // (Newtonsoft.Json's `JsonSchema.ToString` was "used" by every `.ToString()`).
            if member && UNIVERSAL_MEMBERS.contains(&name.as_ref()) {
                continue;
            }
            let package = package_qualifier(*n, source).and_then(|q| packages.get(q));
            let paths = qualified
                .entry(name.clone())
                .or_insert(Some(BTreeSet::new()));
            match (package, paths.as_mut()) {
                (Some(path), Some(set)) => {
                    set.insert(path);
                }
                _ => *paths = None,
            }
            *references.entry(name).or_insert(member) &= member;
        }
    }
    let members = references
        .iter()
        .filter(|(_, &member)| member)
        .map(|(n, _)| n.to_string())
        .collect();
    let qualified = qualified
        .into_iter()
        .filter_map(|(n, paths)| Some(paths?.into_iter().map(move |p| format!("{n} {p}"))))
        .flatten()
        .collect();
    let all = references.into_keys().map(Cow::into_owned).collect();
    (all, members, qualified)
}

/// The package name a Go name is qualified by (`zapcore` of `zapcore.Core`), if it is.
fn package_qualifier<'s>(n: Node<'_>, source: &'s [u8]) -> Option<&'s [u8]> {
    let parent = n.parent()?;
    let qualifier = match parent.kind() {
        "qualified_type" => parent.child_by_field_name("package"),
        "selector_expression" => parent
            .child_by_field_name("operand")
            .filter(|o| o.kind() == "identifier"),
        _ => None,
    }?;
    source.get(qualifier.byte_range())
}

/// A Go file's package names, each with the import path it binds (an import's alias, else
/// its path's package name as [`module_bindings`] reads it). A blank (`_`) or dot import binds
/// none.
fn go_packages<'s>(imports: &[Node<'_>], source: &'s [u8]) -> HashMap<&'s [u8], &'s str> {
    let mut out = HashMap::new();
    for import in imports {
        let Some(spec) = import.parent().filter(|p| p.kind() == "import_spec") else {
            continue;
        };
        let path = source.get(import.byte_range()).unwrap_or_default();
        let path = path.strip_prefix(b"\"").unwrap_or(path);
        let path = path.strip_suffix(b"\"").unwrap_or(path);
        let Ok(path) = std::str::from_utf8(path) else {
            continue;
        };
        let bound = match spec.child_by_field_name("name") {
            Some(alias) => source.get(alias.byte_range()),
            None => module_bindings(std::slice::from_ref(import), source)
                .into_iter()
                .next(),
        };
        if let Some(name) = bound.filter(|n| !matches!(*n, b"_" | b".")) {
            out.insert(name, path);
        }
    }
    out
}

/// Whether a name is qualified by a package the file imports (Go's `lib.Fs`, a type or a
/// selector): another package's definition, whatever the file defines by that name (afero's
/// `zipfs/fs.go` defines its own `Fs` and implements `afero.Fs`, and was no user of it).
fn names_an_imported_package(n: Node<'_>, source: &[u8], bindings: &HashSet<&[u8]>) -> bool {
    package_qualifier(n, source).is_some_and(|name| bindings.contains(name))
}

/// The class a C# attribute names: `[Tracked]` is `TrackedAttribute`, and `[TrackedAttribute]`
/// too (AutoMapper's `[AutoMap(…)]` was no use of `AutoMapAttribute`). Any other name is
/// itself.
fn attribute_class<'s>(n: Node<'_>, name: Cow<'s, str>) -> Cow<'s, str> {
    let attribute = n
        .parent()
        .is_some_and(|p| p.kind() == "attribute" && p.child_by_field_name("name") == Some(n));
    match attribute && !name.ends_with("Attribute") {
        true => Cow::Owned(format!("{name}Attribute")),
        false => name,
    }
}

/// Whether a receiver may be a module or package rather than a value: a name the file's
/// imports bind (`fmt`, `os`, `utils` of `import * as utils`, `express` of `const express =
/// require("express")`), or a dotted path that starts at one (`os.path`). Any other name is a
/// value: a variable, a parameter, `self`, `this`, a global object (`JSON`, `Math`).
fn may_name_a_module(receiver: Node<'_>, source: &[u8], bindings: &HashSet<&[u8]>) -> bool {
    match receiver.kind() {
        "identifier" => source
            .get(receiver.byte_range())
            .is_some_and(|name| bindings.contains(name)),
        "attribute" | "member_expression" | "selector_expression" => {
            let object = receiver
                .child_by_field_name("object")
                .or_else(|| receiver.child_by_field_name("operand"));
            object.is_some_and(|o| may_name_a_module(o, source, bindings))
        }
        _ => false,
    }
}

/// The names a file's imports bind, from the import nodes the query captured (their module
/// paths): Go's package names (an import's alias, else its path's last part without a
/// version or `go-`: `isatty` of `github.com/mattn/go-isatty`, `yaml` of `gopkg.in/yaml.v3`),
/// and every name a Python or JavaScript import statement or `require` declaration holds
/// (more than it binds, which only makes fewer uses members').
fn module_bindings<'s>(imports: &[Node<'_>], source: &'s [u8]) -> HashSet<&'s [u8]> {
    let mut out: HashSet<&[u8]> = HashSet::new();
    for import in imports {
        let mut statement = *import;
        while let Some(parent) = statement.parent() {
            statement = parent;
            if matches!(
                statement.kind(),
                "import_spec"
                    | "import_statement"
                    | "import_from_statement"
                    | "variable_declarator"
                    | "export_statement"
                    | "program"
                    | "module"
                    | "source_file"
            ) {
                break;
            }
        }
        if statement.kind() == "import_spec" {
            if let Some(alias) = statement.child_by_field_name("name") {
                out.extend(source.get(alias.byte_range()));
                continue;
            }
            let path = source.get(import.byte_range()).unwrap_or_default();
            let path = path.strip_prefix(b"\"").unwrap_or(path);
            let path = path.strip_suffix(b"\"").unwrap_or(path);
            let mut parts = path.rsplit(|&b| b == b'/');
            let mut last = parts.next().unwrap_or_default();
            let versioned =
                |p: &[u8]| p.len() >= 2 && p[0] == b'v' && p[1..].iter().all(u8::is_ascii_digit);
            if versioned(last) {
                last = parts.next().unwrap_or(last);
            }
            let last = last.strip_prefix(b"go-").unwrap_or(last);
            let last = match last.iter().position(|&b| b == b'.') {
                Some(i) => &last[..i],
                None => last,
            };
            out.insert(last);
            continue;
        }
        // Only an import statement or a `require` declaration binds names (a C `#include`
        // climbs to the file itself, whose walk per include made git/git's baseline twice
        // as long).
        if !matches!(
            statement.kind(),
            "import_statement"
                | "import_from_statement"
                | "variable_declarator"
                | "export_statement"
        ) {
            continue;
        }
        let mut stack = vec![statement];
        while let Some(n) = stack.pop() {
            if matches!(
                n.kind(),
                "identifier" | "shorthand_property_identifier_pattern" | "type_identifier"
            ) {
                out.extend(source.get(n.byte_range()));
            }
            let mut cursor = n.walk();
            stack.extend(n.children(&mut cursor));
        }
    }
    out
}

/// Methods every value of a language has (C#'s and Java's object methods, Ruby's and
/// JavaScript's `call`, the conversions to text): a use of one as a value's member is no use of
/// a particular definition.
const UNIVERSAL_MEMBERS: &[&str] = &[
    "Equals",
    // Go's `error` and `fmt.Stringer`: every `b.String()` of a `strings.Builder` made
    // bubbletea's message types' `String` methods its most used.
    "Error",
    "GetHashCode",
    "GetType",
    "String",
    "ToString",
    "call",
    "clone",
    "equals",
    "getClass",
    "hashCode",
    "inspect",
    "toString",
    "to_s",
    "to_str",
    "to_string",
    "valueOf",
];

/// Whether a referenced name `n` is written as a member of a value: the field or method after
/// the `.` or `->` of an expression (`x.len()`, `self.run()`, `p->next`, Ruby's `job.call`,
/// Java's `list.add(…)`), which can only mean a member definition. Told by the grammar nodes
/// around it, the same in every language that has them. Where the name before the dot may be
/// a module or package rather than a value (Go's selectors, Python's attributes, JavaScript's
/// member expressions: `fmt.Println`, `os.path.join`, `utils.parse`), only a receiver that is
/// no plain name, or is `self`, `this` or `cls`, makes it a member's.
fn is_member_access(n: Node<'_>, source: &[u8], bindings: &HashSet<&[u8]>) -> bool {
    let Some(parent) = n.parent() else {
        return false;
    };
    let is = |field: &str| parent.child_by_field_name(field) == Some(n);
    let has = |field: &str| parent.child_by_field_name(field).is_some();
    let a_value = |field: &str| {
        parent
            .child_by_field_name(field)
            .is_some_and(|r| !may_name_a_module(r, source, bindings))
    };
    match parent.kind() {
        // Rust, C and C++: `value.field`, `p->field`; a path (`a::b`) is no member access.
        "field_expression" => is("field"),
        // Java.
        "method_invocation" => is("name") && has("object"),
        "field_access" => is("field"),
        // C# (`expression.name`) and PHP (`$object->name`).
        "member_access_expression"
        | "member_call_expression"
        | "nullsafe_member_access_expression"
        | "nullsafe_member_call_expression" => is("name"),
        // Ruby: a call with a receiver (Python's `call` has no `method` field).
        "call" => is("method") && has("receiver"),
        "selector_expression" => is("field") && a_value("operand"),
        "member_expression" => is("property") && a_value("object"),
        "attribute" => is("attribute") && a_value("object"),
        _ => false,
    }
}

/// Whether a definition is a Go embedded field, named by its type (`struct{ mock.Mock }`): it
/// uses that type, which its name does not define (testify's `Mock` had no `referenced_by`).
fn is_embedded_field(item: &Item) -> bool {
    let node = item.def_node;
    node.kind() == "field_declaration"
        && node
            .parent()
            .is_some_and(|p| p.kind() == "field_declaration_list")
        && node.child_by_field_name("name").is_none()
        && node.child_by_field_name("declarator").is_none()
}

/// Whether a definition is a constructor, named for its class (`Elem::Elem` defined out of
/// line in a C++ source file): it defines no class of the name, which the file still uses
/// (tinyxml2's `tinyxml2.cpp` was no user of the `XMLElement` it builds everywhere).
fn is_constructor(item: &Item) -> bool {
    let mut parts = item.qualified.rsplit(['.', ':']).filter(|p| !p.is_empty());
    parts.next() == Some(item.name.as_str()) && parts.next() == Some(item.name.as_str())
}

/// Whether a definition's text names it twice as a whole word: a field of the type of its name.
fn typed_by_own_name(item: &Item, source: &[u8]) -> bool {
    let text = lang::node_text(item.outer, source);
    let name = item.name.as_str();
    let whole = |(i, _): &(usize, &str)| {
        let before = text[..*i].bytes().next_back();
        let after = text[i + name.len()..].bytes().next();
        !before.is_some_and(text::is_word_byte) && !after.is_some_and(text::is_word_byte)
    };
    !name.is_empty() && text.match_indices(name).filter(whole).nth(1).is_some()
}

/// Names the file hands on from other modules, sorted and unique: those a query captures as
/// re-exported (`export { a } from "./x"`) and those a separate export names that the file
/// does not define at its top level (`import { a } from "./x"; export { a }`,
/// `module.exports = { a }` of a required `a`). With `types`, only those handed on as types
/// alone (`export type { a } from`, `export { type a }`); else only the others.
fn reexports(
    captures: &Captures,
    items: &[Item],
    source: &[u8],
    types: bool,
    all: bool,
) -> Vec<String> {
    let defined: HashSet<&str> = items
        .iter()
        .filter(|i| i.parent.is_none())
        .map(|i| i.name.as_str())
        .collect();
    let handed = captures.exports.iter().filter(|n| {
        let name = lang::node_text(**n, source);
        !defined.contains(name.as_ref())
    });
    // With a list that is all it exports (Python's `__all__`), what it imports and the list
    // leaves out is no export.
    let listed_only = all && !captures.exports.is_empty();
    let names: BTreeSet<Cow<str>> = captures
        .reexports
        .iter()
        .filter(|_| !listed_only)
        .filter(|n| !doc_hidden_statement(**n, source))
        .chain(handed)
        .filter(|n| exported_as_type(**n) == types)
        .map(|n| symbol_name(*n, source))
        .filter(|name| text::is_identifier(name) && name != "default")
        .collect();
    names.into_iter().map(Cow::into_owned).collect()
}

/// Whether the top-level statement holding `node` carries Rust's `#[doc(hidden)]`: what a
/// crate hands on so (tokio's `select_priv_clean_pattern`, "not intended to be used as part
/// of the public API") is no export.
fn doc_hidden_statement(node: Node, source: &[u8]) -> bool {
    let mut statement = node;
    while let Some(parent) = statement.parent() {
        if parent.parent().is_none() {
            break;
        }
        statement = parent;
    }
    lang::rust::doc_hidden(statement, source)
}

/// A captured name's text, without the colon of a Ruby symbol (`autoload :Builder`).
fn symbol_name<'s>(node: Node, source: &'s [u8]) -> Cow<'s, str> {
    match lang::node_text(node, source) {
        Cow::Borrowed(t) if node.kind() == "simple_symbol" => {
            Cow::Borrowed(t.trim_start_matches(':'))
        }
        text => text,
    }
}

/// Whether an exported name is exported as a type alone: its specifier or its whole export
/// statement says `type` (TypeScript's `export { type a }`, `export type { a } from`).
fn exported_as_type(name: Node) -> bool {
    let says_type = |n: Node| {
        let mut cursor = n.walk();
        let found = n.children(&mut cursor).any(|c| c.kind() == "type");
        found
    };
    let mut up = name.parent();
    while let Some(n) = up {
        if says_type(n) {
            return true;
        }
        if n.kind() == "export_statement" {
            return false;
        }
        up = n.parent();
    }
    false
}

/// The `.`-joined scope that children of `parent` are named in.
fn scope_of(items: &[Item], parent: Option<usize>) -> String {
    match parent {
        None => String::new(),
        Some(p) => match &items[p].info.scope {
            Some(segment) => join(&scope_of(items, items[p].parent), segment),
            None => items[p].qualified.clone(),
        },
    }
}

fn join(scope: &str, name: &str) -> String {
    if scope.is_empty() {
        name.to_string()
    } else {
        format!("{scope}.{name}")
    }
}

/// The qualified name of `item` without a duplicate suffix: scope, receiver, name.
fn base_name(items: &[Item], item: &Item) -> String {
    let mut scope = scope_of(items, item.parent);
    if let Some(receiver) = &item.info.receiver {
        scope = join(&scope, receiver);
    }
    join(&scope, &item.name)
}

/// Removes prototypes whose qualified name also has a real definition in the file.
fn drop_superseded_prototypes(items: &mut Vec<Item>) {
    if !items.iter().any(|i| i.info.prototype) {
        return;
    }
    // Provisional names (no duplicate suffixes) are enough to compare.
    for i in 0..items.len() {
        items[i].qualified = base_name(items, &items[i]);
    }
    let mut definitions: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, item) in items.iter().enumerate() {
        if !item.info.prototype {
            definitions
                .entry(item.qualified.as_str())
                .or_default()
                .push(i);
        }
    }
    let same_overload = |a: Option<usize>, b: Option<usize>| a.is_none() || b.is_none() || a == b;
    let superseded: Vec<Option<usize>> = items
        .iter()
        .map(|item| {
            let candidates = definitions.get(item.qualified.as_str())?;
            let found = candidates.iter().find(|&&d| {
                item.info.prototype && same_overload(items[d].info.overload, item.info.overload)
            });
            found.copied()
        })
        .collect();
    let mut keep = vec![true; items.len()];
    for (i, definition) in superseded.into_iter().enumerate() {
        if let Some(definition) = definition {
            // A C++ member declared in its class and defined out of line in the same file
            // (`inline T Request::get(…) { … }` below `struct Request`, as a single-header
            // library does) is the declaration: it is what callers read, with the default
            // arguments the definition may not repeat (cpp-httplib: changing `id = 0` to
            // `id = 1` changed no symbol). Split over a header and a source, it is the same.
            if items[definition].info.receiver.is_some() && items[i].parent.is_some() {
                keep[definition] = false;
                continue;
            }
            keep[i] = false;
            // An out-of-line C++ definition learns its access from the declaration.
            if items[definition].info.visibility.is_none() {
                items[definition].info.visibility = items[i].info.visibility;
            }
        }
    }
    retain_items(items, &keep);
}

/// Folds a TypeScript function's or method's overload signatures and its implementation into
/// one definition: the first signature's, what callers see, spanning to the implementation's
/// end and holding what the implementation defines. Each was a symbol of its own, and the
/// implementation's signature, which no caller can use (`export function
/// defineComponent(options: unknown, …)`), was the one `search` and the overview showed
/// first (vue's `reactive#2`, `defineComponent#4`). Signatures that no implementation follows
/// (an interface's, a declaration file's) stay as they are.
fn merge_overloads(items: &mut Vec<Item>, source: &[u8]) {
    const SIGNATURES: [&str; 2] = ["function_signature", "method_signature"];
    const BODIES: [&str; 3] = [
        "function_declaration",
        "generator_function_declaration",
        "method_definition",
    ];
    if !items
        .iter()
        .any(|i| SIGNATURES.contains(&i.def_node.kind()))
    {
        return;
    }
    let mut keep = vec![true; items.len()];
    let mut i = 0;
    while i < items.len() {
        let first = &items[i];
        if !SIGNATURES.contains(&first.def_node.kind()) {
            i += 1;
            continue;
        }
        // The signatures of the same name right after it, then the implementation.
        let same = |other: &Item| other.parent == first.parent && other.name == first.name;
        let mut end = i + 1;
        while end < items.len()
            && same(&items[end])
            && SIGNATURES.contains(&items[end].def_node.kind())
        {
            end += 1;
        }
        let implemented =
            end < items.len() && same(&items[end]) && BODIES.contains(&items[end].def_node.kind());
        if !implemented {
            i = end;
            continue;
        }
        let signature_end = items[i].range.end;
        items[i].info.cut = Some(items[i].info.cut.unwrap_or(signature_end));
        // The first overload is the signature; the others are hashed, so that a change to
        // one of them is a change of the function.
        if end > i + 1 {
            let others: Vec<Node> = items[i + 1..end].iter().map(|o| o.def_node).collect();
            items[i].info.unseen = lang::declarations_hash(others, source);
        }
        items[i].range.end = items[end].range.end;
        keep[i + 1..=end].fill(false);
        for child in items.iter_mut().skip(end + 1) {
            if child.parent == Some(end) {
                child.parent = Some(i);
            }
        }
        i = end + 1;
    }
    retain_items(items, &keep);
}

/// Folds every definition that reopens an earlier one of the same kind and name (see
/// [`LanguageSupport::reopens`]) into the first: its members move there, and it is no item
/// of its own. Without it, every `module Sinatra` a file adds after the first was a symbol
/// `Sinatra#2` (a delta's `symbol.added` for a block that defines nothing new) and its methods
/// were named under it.
fn merge_reopened(support: &dyn LanguageSupport, items: &mut Vec<Item>) {
    if !items.iter().any(|i| support.reopens(i.info.kind)) {
        return;
    }
    let mut first: HashMap<(String, &str), usize> = HashMap::new();
    let mut keep = vec![true; items.len()];
    // Parents come before children: a member's parent is final when the member is reached,
    // and so is the provisional name its scope is read from.
    for i in 0..items.len() {
        items[i].qualified = base_name(items, &items[i]);
        if !support.reopens(items[i].info.kind) {
            continue;
        }
        match first.entry((items[i].qualified.clone(), items[i].info.kind)) {
            std::collections::hash_map::Entry::Vacant(v) => {
                v.insert(i);
            }
            std::collections::hash_map::Entry::Occupied(o) => {
                let into = *o.get();
                keep[i] = false;
                // A scope only while every block of it only opens the scope.
                let scope_only = items[i].info.scope_only;
                items[into].info.scope_only &= scope_only;
                for child in items.iter_mut().skip(i + 1) {
                    if child.parent == Some(i) {
                        child.parent = Some(into);
                    }
                }
            }
        }
    }
    retain_items(items, &keep);
}

/// Removes the items `keep` does not keep, re-attaching children of removed items to their
/// nearest kept ancestor.
fn retain_items(items: &mut Vec<Item>, keep: &[bool]) {
    if keep.iter().all(|&k| k) {
        return;
    }
    // Re-index parents, re-attaching children of removed items to the nearest kept ancestor.
    let mut new_index = vec![None; items.len()];
    let mut next = 0;
    for (i, &k) in keep.iter().enumerate() {
        if k {
            new_index[i] = Some(next);
            next += 1;
        }
    }
    let parents: Vec<Option<usize>> = items.iter().map(|i| i.parent).collect();
    let resolve = |mut p: Option<usize>| {
        while let Some(i) = p {
            if keep[i] {
                return new_index[i];
            }
            p = parents[i];
        }
        None
    };
    let old = std::mem::take(items);
    for (i, mut item) in old.into_iter().enumerate() {
        if keep[i] {
            item.parent = resolve(item.parent);
            items.push(item);
        }
    }
}

/// Gives every item its final qualified name, suffixing later duplicates with `#n`; a field
/// after everything else of its name (a Rust getter named for its field, `pub fn
/// retries(&self)`, or Java's `name()` beside `private String name`, is what users call: it
/// was `retries#2`).
fn name_items(items: &mut [Item]) {
    let mut counts: HashMap<String, usize> = HashMap::new();
    let field = |item: &Item| item.info.kind == "field";
    // Parents come before children, so their final names are known when needed (a field is
    // a parent of nothing but fields).
    for fields in [false, true] {
        for i in 0..items.len() {
            if field(&items[i]) != fields {
                continue;
            }
            let base = base_name(items, &items[i]);
            let count = counts.entry(base.clone()).or_insert(0);
            *count += 1;
            items[i].qualified = if *count == 1 {
                base
            } else {
                format!("{base}#{count}")
            };
        }
    }
}

/// An item's signature, the byte where it starts, and the hash of the literal values it shows
/// as `…` ([`text::literals_hash`]).
fn signature(
    support: &dyn LanguageSupport,
    item: &Item,
    source: &[u8],
) -> (String, Option<usize>, Option<u32>) {
    let mut range = item.range.clone();
    let mut holes: Vec<(Range<usize>, Hole)> = Vec::new();
    if let Some(cut) = item.info.cut {
        range.end = cut.clamp(range.start, range.end);
    } else if let Some(body) = item.info.body {
        let body_range = body.byte_range();
        let rest = source.get(body_range.end..range.end).unwrap_or_default();
        // What follows the body ends the declaration: `;`, `,`, or a comment after it on its
        // line (`const isoTime = () => … // why`, whose body read `{ … }`).
        let after = rest
            .iter()
            .position(|b| !(b.is_ascii_whitespace() || *b == b';' || *b == b','))
            .map_or(&b""[..], |i| &rest[i..]);
        if after.is_empty() || after.starts_with(b"//") || after.starts_with(b"/*") {
            range.end = range.end.min(body_range.start).max(range.start);
        } else {
            holes.push((body_range, Hole::Body));
        }
    }
    // A constant's, variable's or field's initialiser is never shown, whatever it is; nor
    // those of the declarators beside it (`private int a = 1, b = 99;` showed `b = 99`).
    // A plain value's is hashed, unless the name says it is a secret's: a function's body
    // is no part of its declaration.
    if matches!(item.info.kind, "constant" | "variable" | "field") {
        let secret = names_a_secret(&item.name);
        for (value, plain) in initializers(support, item.def_node) {
            let hole = match plain && !secret {
                true => Hole::Setting,
                false => Hole::Initializer,
            };
            holes.push((value, hole));
        }
    }
    collect_holes(support, item.outer, &range, &mut holes);
    holes.sort_by_key(|(r, _)| (r.start, std::cmp::Reverse(r.end)));
    let literals = text::literals_hash(source, range.clone(), &holes);
    let (signature, first) = text::signature(source, range, &holes);
    (signature, first, literals)
}

/// Whether a definition's name says it holds a secret (`API_TOKEN`, `password`, `secretKey`):
/// not even a hash of its value is kept.
fn names_a_secret(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    [
        "secret",
        "token",
        "passw",
        "pwd",
        "key",
        "credential",
        "auth",
        "private",
        "salt",
    ]
    .iter()
    .any(|w| lower.contains(w))
}

/// Whether the nodes from `first` through its siblings up to byte `end` are a plain value:
/// no function, lambda, closure or block anywhere in them.
fn is_plain_value(first: Node<'_>, end: usize) -> bool {
    const CODE: [&str; 7] = [
        "function", "lambda", "closure", "arrow", "block", "method", "class",
    ];
    let mut next = Some(first);
    while let Some(node) = next.filter(|n| n.start_byte() < end) {
        // A stack, not recursion: a value nested thousands deep overflows no thread's stack.
        let mut stack = vec![node];
        while let Some(n) = stack.pop() {
            if CODE.iter().any(|k| n.kind().contains(k)) {
                return false;
            }
            let mut cursor = n.walk();
            stack.extend(n.children(&mut cursor));
        }
        next = node.next_named_sibling();
    }
    true
}

/// The source ranges of the values after each `=` in `node` (outside holes such as
/// annotations): `"x"` in `const A: &str = "x";`, `B = 2` in Python's `A = B = 2`, `1` and
/// `99` in Java's `int a = 1, b = 99;`; each with whether it is a plain value
/// ([`is_plain_value`]).
fn initializers(support: &dyn LanguageSupport, node: Node<'_>) -> Vec<(Range<usize>, bool)> {
    let mut out = Vec::new();
    let mut cursor = node.walk();
    loop {
        let current = cursor.node();
        let skip = current.id() != node.id() && support.is_hole(current);
        if !current.is_named() && current.kind() == "=" {
            let value = current.parent().and_then(|parent| {
                let first = current.next_named_sibling()?;
                let start = first.start_byte();
                let mut walk = parent.walk();
                let mut end = parent
                    .named_children(&mut walk)
                    .map(|c| c.end_byte())
                    .max()?;
                // A value cast to a type (`(…) as CreateAppFunction<Element>`, `… satisfies
                // Config`) keeps its type: it is the declaration's type, and vue's
                // `export const createApp` said nothing of what it is.
                if first.end_byte() == end
                    && matches!(first.kind(), "as_expression" | "satisfies_expression")
                {
                    end = first.named_child(0).map_or(end, |e| e.end_byte());
                }
                (start < end).then(|| (start..end, is_plain_value(first, end)))
            });
            out.extend(value);
        }
        if !skip && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.node().id() == node.id() {
                return out;
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return out;
            }
        }
    }
}

/// Whether a string is a Python annotation's, a type written ahead of its definition
/// (rich's `def get_console() -> "Console"` read `-> …`), not a value.
fn is_annotation_string(node: Node<'_>) -> bool {
    node.kind() == "string" && node.parent().is_some_and(|p| p.kind() == "type")
}

/// Adds the ranges of comments/annotations (gaps) and literal values inside `range` to
/// `holes`, without descending into the holes already there (the elided body, the
/// initialiser).
fn collect_holes(
    support: &dyn LanguageSupport,
    root: Node<'_>,
    range: &Range<usize>,
    holes: &mut Vec<(Range<usize>, Hole)>,
) {
    let elided: Vec<Range<usize>> = holes.iter().map(|(r, _)| r.clone()).collect();
    let mut cursor = root.walk();
    let mut descend = true;
    loop {
        let node = cursor.node();
        let r = node.byte_range();
        let overlaps = r.start < range.end && r.end > range.start;
        let inside_elided = elided.iter().any(|e| e.start <= r.start && r.end <= e.end);
        if descend && overlaps && !inside_elided {
            if support.is_hole(node) && node.id() != root.id() {
                let comment = lang::is_extra(node) || node.kind().contains("comment");
                holes.push((r, if comment { Hole::Gap } else { Hole::Mark }));
            } else if is_annotation_string(node) {
                holes.push((r, Hole::Verbatim));
            } else if lang::is_literal(node) && node.id() != root.id() {
                holes.push((r, Hole::Value));
            } else if cursor.goto_first_child() {
                continue;
            }
        }
        // Next sibling, or climb until one exists.
        descend = true;
        loop {
            if cursor.node().id() == root.id() {
                return;
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return;
            }
        }
        if cursor.node().start_byte() >= range.end {
            descend = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The language's query compiled by tree-sitter, as every process compiled it before
    /// [`Matcher`] (leaked: extraction borrows its configuration for `'static`).
    fn tree_sitter_config(language: Language) -> &'static Config {
        static BUILT: [OnceLock<&'static Config>; 13] = [const { OnceLock::new() }; 13];
        BUILT[language as usize].get_or_init(|| build_tree_sitter_config(language))
    }

    fn build_tree_sitter_config(language: Language) -> &'static Config {
        let support = lang::support(language);
        let grammar = support.grammar();
        let query = Query::new(&grammar, &query_source(support)).expect("query compiles");
        let own = build_config(support).expect("own config");
        Box::leak(Box::new(Config {
            grammar,
            query: Compiled::TreeSitter(query),
            roles: own.roles,
        }))
    }

    /// Every match of a query on `source`, as (pattern, sorted captures), sorted.
    fn all_matches(config: &Config, source: &[u8], language: Language) -> Vec<String> {
        let mut parser = Parser::new();
        parser.set_language(&config.grammar).expect("grammar");
        let tree = parser.parse(source, None).expect("tree");
        let names: Vec<String> = match &config.query {
            Compiled::Own(m) => m.capture_names().to_vec(),
            Compiled::TreeSitter(q) => q.capture_names().iter().map(|n| n.to_string()).collect(),
        };
        let describe = |pattern: usize, captures: &mut dyn Iterator<Item = (u32, Node<'_>)>| {
            let mut parts: Vec<String> = captures
                .map(|(i, n)| format!("{}={:?}{}", names[i as usize], n.byte_range(), n.kind()))
                .collect();
            parts.sort();
            format!("{pattern}: {}", parts.join(" "))
        };
        let mut out = Vec::new();
        match &config.query {
            Compiled::Own(m) => m.matches(tree.root_node(), source, &mut || true, &mut |p, c| {
                out.push(describe(p as usize, &mut c.iter().copied()))
            }),
            Compiled::TreeSitter(q) => {
                let mut cursor = QueryCursor::new();
                let mut matches = cursor.matches(q, tree.root_node(), source);
                while let Some(m) = matches.next() {
                    // Property predicates (`#is-not? local`) are the caller's; both ignore them.
                    let _ = language;
                    out.push(describe(
                        m.pattern_index,
                        &mut m.captures().iter().map(|c| (c.index, c.node)),
                    ));
                }
            }
        }
        out.sort();
        out.dedup();
        out
    }

    /// Checks that our matcher and tree-sitter's query find the same matches and give the
    /// same facts for `source`.
    fn assert_same_as_tree_sitter(language: Language, source: &[u8], label: &str) {
        let ours = config(language).expect("config");
        assert!(
            matches!(ours.query, Compiled::Own(_)),
            "{}: our matcher must read the query",
            language.name()
        );
        let theirs = tree_sitter_config(language);
        assert_eq!(
            all_matches(ours, source, language),
            all_matches(theirs, source, language),
            "{label}: matches differ"
        );
        let limits = crate::Limits::default();
        let a = extract_with(ours, language, source, &limits);
        let b = extract_with(theirs, language, source, &limits);
        assert_eq!(format!("{a:?}"), format!("{b:?}"), "{label}: facts differ");
    }

    #[test]
    fn our_matcher_reads_every_languages_query() {
        for &language in Language::all() {
            let support = lang::support(language);
            if let Err(e) = Matcher::new(&support.grammar(), &query_source(support)) {
                panic!("{}: {e}", language.name());
            }
        }
    }

    #[test]
    fn our_matcher_finds_what_tree_sitters_query_finds() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let mut checked = 0;
        let mut paths = Vec::new();
        for dir in [dir.clone(), dir.join("secrets")] {
            for entry in std::fs::read_dir(&dir).expect("fixtures") {
                paths.push(entry.expect("entry").path());
            }
        }
        paths.sort();
        for path in paths {
            if !path.is_file() {
                continue;
            }
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            let source = std::fs::read(&path).expect("fixture");
            let Some(language) = crate::detect_language(&name, &source) else {
                continue;
            };
            assert_same_as_tree_sitter(language, &source, &name);
            checked += 1;
        }
        assert!(
            checked >= 2 * Language::all().len(),
            "only {checked} fixtures"
        );
    }

    /// The same comparison on real files: `REPOCUE_MATCHER_CORPUS` names a file listing
    /// paths, one per line (run by hand on fetched repositories).
    #[test]
    #[ignore]
    fn our_matcher_agrees_on_a_corpus() {
        let Ok(list) = std::env::var("REPOCUE_MATCHER_CORPUS") else {
            return;
        };
        let list = std::fs::read_to_string(list).expect("corpus list");
        let mut failures = Vec::new();
        let mut checked = 0;
        for path in list.lines() {
            let Ok(source) = std::fs::read(path) else {
                continue;
            };
            if source.len() > 300_000 {
                continue;
            }
            let Some(language) = crate::detect_language(path, &source) else {
                continue;
            };
            checked += 1;
            if let Err(e) =
                std::panic::catch_unwind(|| assert_same_as_tree_sitter(language, &source, path))
            {
                let message = e.downcast_ref::<String>().cloned().unwrap_or_default();
                failures.push(message.clone());
                if let Ok(dir) = std::env::var("REPOCUE_MATCHER_DUMP") {
                    let _ = std::fs::write(format!("{dir}/{}.txt", failures.len()), &message);
                }
            }
        }
        eprintln!("{checked} files, {} differ", failures.len());
        for f in failures.iter().take(5) {
            eprintln!("{f}\n");
        }
        assert!(failures.is_empty());
    }

    #[test]
    fn config_slots_follow_declaration_order() {
        assert_eq!(Language::all().len(), CONFIGS.len());
        for (i, &language) in Language::all().iter().enumerate() {
            assert_eq!(language as usize, i);
        }
    }

    #[test]
    fn doc_comment_captures_are_left_out_of_every_query() {
        for &language in Language::all() {
            let support = lang::support(language);
            let raw = format!("{}\n{}", support.tags_query(), support.imports_query());
            let query = without_doc_comments(&raw);
            assert!(!query.contains("@doc"), "{}", language.name());
            // Nothing else is dropped: every other line is kept, in order.
            let kept: Vec<&str> = raw
                .lines()
                .filter(|l| !l.contains("@doc") && l.trim() != ".")
                .collect();
            let left: Vec<&str> = query.lines().filter(|l| l.trim() != ".").collect();
            assert_eq!(kept, left, "{}", language.name());
        }
    }

    #[test]
    fn configurations_built_on_several_threads_are_built_once() {
        let handles: Vec<_> = (0..3)
            .map(|_| {
                std::thread::spawn(|| {
                    for &language in Language::all() {
                        config(language).expect("config");
                    }
                })
            })
            .collect();
        for h in handles {
            h.join().unwrap();
        }
        for &language in Language::all() {
            let first = config(language).unwrap() as *const Config;
            assert_eq!(first, config(language).unwrap() as *const Config);
        }
        let facts = crate::extract(
            Language::TypeScript,
            b"export function f(): number { return 1; }",
            &crate::Limits::default(),
        )
        .unwrap();
        assert_eq!(facts.symbols[0].name, "f");
    }

    #[test]
    fn every_query_compiles() {
        for &language in Language::all() {
            assert!(config(language).is_ok(), "{}", language.name());
        }
    }
}
