//! Per-language knowledge, one module per language behind [`LanguageSupport`].
//!
//! Adding a language takes one module here (implementing the trait), its queries under
//! `src/queries/`, one arm in [`support`] and a fixture test.

use std::borrow::Cow;

use tree_sitter::Node;

use crate::Language;

mod bash;
mod c;
mod cpp;
mod csharp;
mod go;
mod java;
mod javascript;
mod php;
mod python;
mod ruby;
pub(crate) mod rust;
mod typescript;

/// A definition captured by the tags query, before the language module judged it.
pub(crate) struct Def<'a, 't> {
    /// The node captured as `@definition.*`.
    pub node: Node<'t>,
    /// The node whose range the symbol covers (see [`LanguageSupport::outer`]).
    pub outer: Node<'t>,
    /// The name node (captured as `@name`, or found by [`LanguageSupport::names`]).
    pub name_node: Node<'t>,
    /// The text of the name.
    pub name: &'a str,
    /// The tags kind: the `X` of `@definition.X` (`function`, `class`, …).
    pub tag: &'a str,
}

/// The nearest enclosing symbol that was kept.
pub(crate) struct Parent<'a, 't> {
    /// Its definition node.
    pub node: Node<'t>,
    /// Its final kind.
    pub kind: &'static str,
    /// Its name.
    pub name: &'a str,
}

/// What a language module decided about one definition.
pub(crate) struct Info<'t> {
    /// The final kind (`function`, `method`, …).
    pub kind: &'static str,
    /// Visibility, when the language says.
    pub visibility: Option<&'static str>,
    /// The body, left out of the signature (cut there, or shown as `{ … }` when more
    /// declaration text follows it).
    pub body: Option<Node<'t>>,
    /// Replaces the captured name (e.g. Rust `impl Display for Ast`).
    pub name: Option<String>,
    /// A scope written in the definition itself, `.`-joined: a Go receiver type, a C++
    /// `Foo::` qualifier, a Ruby `Foo::Bar` class path.
    pub receiver: Option<String>,
    /// The name segment children use instead of this symbol's name (Rust impl: the type).
    pub scope: Option<String>,
    /// A declaration that a definition of the same qualified name in the file supersedes
    /// (C/C++ prototypes).
    pub prototype: bool,
    /// Tells overloads apart when matching prototypes to definitions (C++: the number of
    /// parameters); `None` matches any.
    pub overload: Option<usize>,
    /// Where the signature stops when there is no single body node (Rust `macro_rules!`).
    pub cut: Option<usize>,
    /// Never a parent of the definitions inside its range (a C `typedef struct {…} t`
    /// holds its struct, which belongs beside it, not under it).
    pub leaf: bool,
    /// The keyword that declares it when its own text lacks it, written before its
    /// signature: a Go spec of a group (`type (` … `IntBase = Base[int]` … `)`).
    pub keyword: Option<&'static str>,
    /// A start of its signature to write otherwise, and how: a Ruby method of `class << self`
    /// reads `def self.push(item)`, as `def self.via` does (`("def ", "def self.")`).
    pub restart: Option<(Cow<'static, str>, Cow<'static, str>)>,
    /// A hash of declarations the symbol stands for that its signature does not show: the
    /// other overloads of a TypeScript function or a Python `@overload` set, so that a change
    /// to one of them is a change of the symbol.
    pub unseen: Option<u32>,
    /// Only opens a scope for the definitions it holds: no symbol of its own, yet their
    /// qualified names go through it. A Ruby `module Lib; class Request; class Retry` in
    /// `lib/lib/request/retry.rb` reopens `Lib` and `Lib::Request` to define `Retry`; as
    /// symbols they were a delta's `added class Request` and search hits above the real one.
    pub scope_only: bool,
}

impl<'t> Info<'t> {
    /// An [`Info`] of `kind` with everything else unset.
    pub fn new(kind: &'static str) -> Self {
        Info {
            kind,
            visibility: None,
            body: None,
            name: None,
            receiver: None,
            scope: None,
            prototype: false,
            overload: None,
            cut: None,
            leaf: false,
            keyword: None,
            restart: None,
            unseen: None,
            scope_only: false,
        }
    }

    /// Sets the visibility.
    pub fn visibility(mut self, visibility: Option<&'static str>) -> Self {
        self.visibility = visibility;
        self
    }

    /// Sets the body node.
    pub fn body(mut self, body: Option<Node<'t>>) -> Self {
        self.body = body;
        self
    }
}

/// Everything the engine needs to know about one language.
pub(crate) trait LanguageSupport: Sync {
    /// The tree-sitter grammar.
    fn grammar(&self) -> tree_sitter::Language;

    /// The tags query: the grammar's shipped one (patched where needed) followed by this
    /// crate's extra patterns. Captures: `@definition.*`, `@reference.*`, `@name`,
    /// `@ignore`, `@doc`, `@local.definition` (names excluded from references).
    fn tags_query(&self) -> Cow<'static, str>;

    /// Captures `@import` nodes, turned into strings by [`LanguageSupport::imports`], and
    /// `@export` names (top-level symbols of that name become `exported`).
    fn imports_query(&self) -> &'static str;

    /// The node whose range a definition covers, e.g. the `export` statement around a
    /// JavaScript function or the `function_definition` around a C declarator.
    fn outer<'t>(&self, node: Node<'t>) -> Node<'t> {
        node
    }

    /// Name nodes for a `@definition.*` capture whose pattern has no `@name` (C
    /// declarations hide the name in nested declarators).
    fn names<'t>(&self, _node: Node<'t>) -> Vec<Node<'t>> {
        Vec::new()
    }

    /// Judges one definition; `None` drops it. Called parents first.
    fn describe<'t>(
        &self,
        def: &Def<'_, 't>,
        parent: Option<&Parent<'_, 't>>,
        source: &[u8],
    ) -> Option<Info<'t>>;

    /// Turns one `@import` node into import strings (default: its text, unquoted).
    fn imports(&self, node: Node<'_>, source: &[u8], out: &mut Vec<String>) {
        out.push(unquote(&node_text(node, source)).to_string());
    }

    /// The namespace the whole file is declared in ([`crate::FileFacts::namespace`]), read
    /// from the tree's `root` (default: none).
    fn namespace(&self, _root: Node<'_>, _source: &[u8]) -> Option<String> {
        None
    }

    /// Whether a referenced name is a builtin that should not be reported.
    fn is_builtin(&self, _name: &str) -> bool {
        false
    }

    /// Whether a reference (its `@name` node) is qualified by a package of no project, so
    /// that it names none of the project's definitions (Go's `context.WithValue` is no use
    /// of chi's `WithValue`). `imports` are the file's, as [`Self::imports`] made them.
    fn names_a_foreign_package(
        &self,
        _name: Node<'_>,
        _source: &[u8],
        _imports: &[String],
    ) -> bool {
        false
    }

    /// Whether `node` is left out of signatures (comments by default; annotations,
    /// decorators and the like per language).
    fn is_hole(&self, node: Node<'_>) -> bool {
        is_extra(node) || node.kind().contains("comment")
    }

    /// Whether a module's list of exports (`@export`, Python's `__all__`) is all it hands
    /// on: then the names it imports (`@reexport`) count only when the list names them.
    fn exports_list_is_all(&self) -> bool {
        false
    }

    /// Whether a definition of this kind that repeats an earlier one of the same name in the
    /// file reopens it (Ruby's `module Sinatra ... end` twice) rather than defining another:
    /// the later one is then no symbol of its own, and its members belong to the first.
    fn reopens(&self, _kind: &str) -> bool {
        false
    }

    /// Whether a member (a method, a field) is only ever named through a value or its type
    /// (Go's `r.Thing()`), never on its own: then a member of a name hides no use of another
    /// definition of it (a method `R.Thing` beside a `var t *Thing`).
    fn members_need_a_value(&self) -> bool {
        false
    }

    /// Whether the whole file is built only when asked for: a Go file whose build constraint
    /// needs a tag of the project's own (`//go:build dedupelabels`) or `ignore`. Its symbols
    /// are then [`crate::Symbol::conditional`], as a C definition under `#ifdef` is.
    fn built_on_request(&self, _source: &[u8]) -> bool {
        false
    }
}

/// The module for `language`.
pub(crate) fn support(language: Language) -> &'static dyn LanguageSupport {
    match language {
        Language::Rust => &rust::Rust,
        Language::Python => &python::Python,
        Language::Go => &go::Go,
        Language::JavaScript => &javascript::JavaScript,
        Language::TypeScript => &typescript::TypeScript { tsx: false },
        Language::Tsx => &typescript::TypeScript { tsx: true },
        Language::Java => &java::Java,
        Language::C => &c::C,
        Language::Cpp => &cpp::Cpp,
        Language::CSharp => &csharp::CSharp,
        Language::Ruby => &ruby::Ruby,
        Language::Bash => &bash::Bash,
        Language::Php => &php::Php,
    }
}

/// The text of `node`, lossily decoded.
pub(crate) fn node_text<'s>(node: Node<'_>, source: &'s [u8]) -> Cow<'s, str> {
    String::from_utf8_lossy(source.get(node.byte_range()).unwrap_or_default())
}

/// The text of `node` as a signature shows it: literal values as `…` ([`is_literal`]),
/// whitespace collapsed. For a name built from source text (a Rust `impl` block's header,
/// `impl Tr for [u8; …]`): a name reaches ids, search entries and every cue, so it must hold
/// no value written in code either.
pub(crate) fn value_free_text(node: Node<'_>, source: &[u8]) -> String {
    let mut holes = Vec::new();
    let mut cursor = node.walk();
    'walk: loop {
        let current = cursor.node();
        if current.id() != node.id() && is_literal(current) {
            holes.push((current.byte_range(), crate::text::Hole::Value));
        } else if cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.node().id() == node.id() {
                break 'walk;
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                break 'walk;
            }
        }
    }
    crate::text::cut(crate::text::signature(source, node.byte_range(), &holes).0).0
}

/// A hash of the declarations `nodes` (their text with whitespace collapsed), for
/// [`Info::unseen`]; `None` for none.
pub(crate) fn declarations_hash<'t>(
    nodes: impl IntoIterator<Item = Node<'t>>,
    source: &[u8],
) -> Option<u32> {
    let mut text = String::new();
    for node in nodes {
        let one = node_text(node, source);
        text.push_str(&one.split_whitespace().collect::<Vec<_>>().join(" "));
        text.push('\n');
    }
    (!text.is_empty()).then(|| crate::text::fnv1a(text.as_bytes()))
}

/// `text` without one pair of surrounding quotes (`"`, `'`, `` ` ``, `<>`).
pub(crate) fn unquote(text: &str) -> &str {
    let text = text.trim();
    for (open, close) in [('"', '"'), ('\'', '\''), ('`', '`'), ('<', '>')] {
        if let Some(inner) = text.strip_prefix(open).and_then(|t| t.strip_suffix(close)) {
            return inner;
        }
    }
    text
}

/// How many named children `node` has besides comments and other extras: a declaration of
/// one declarator with a comment after it (`const f = () => x // why`) still declares one
/// (pino's `isoTime` read `isoTime = () =>`, without its `const`, and adding the comment was a
/// changed signature).
pub(crate) fn named_children_but_extras(node: Node<'_>) -> usize {
    let mut cursor = node.walk();
    let count = node
        .named_children(&mut cursor)
        .filter(|c| !c.is_extra())
        .count();
    count
}

/// The first named child of `node` whose kind is one of `kinds`.
pub(crate) fn child_of_kind<'t>(node: Node<'t>, kinds: &[&str]) -> Option<Node<'t>> {
    let mut cursor = node.walk();
    let found = node
        .named_children(&mut cursor)
        .find(|c| kinds.contains(&c.kind()));
    found
}

/// Whether `node` has a direct child (named or not) whose text is `word`.
pub(crate) fn has_token(node: Node<'_>, source: &[u8], word: &str) -> bool {
    let mut cursor = node.walk();
    let word = Some(word.as_bytes());
    let found = node
        .children(&mut cursor)
        .any(|c| source.get(c.byte_range()) == word);
    found
}

/// The first of `public`/`private`/`protected`/`internal` among the modifier words in
/// `modifiers` (a modifiers node or the declaration itself).
pub(crate) fn access_modifier(modifiers: Node<'_>, source: &[u8]) -> Option<&'static str> {
    let mut cursor = modifiers.walk();
    let mut found = None;
    for child in modifiers.children(&mut cursor) {
        let word = node_text(child, source);
        let access = match word.trim() {
            "public" => "public",
            "private" => "private",
            "protected" => "protected",
            "internal" => "internal",
            _ => continue,
        };
        // `protected internal` / `private protected` (C#): keep the first word.
        found.get_or_insert(access);
    }
    found
}

/// Whether a Go/Python-style name is conventionally private (`_x`, not `__x__`).
pub(crate) fn underscore_private(name: &str) -> bool {
    name.starts_with('_') && !(name.starts_with("__") && name.ends_with("__") && name.len() > 4)
}

/// Numeric literals of at most this many characters stay in signatures (`[u8; 32]`,
/// `port = 8080`); longer ones are shown as `…`.
pub(crate) const MAX_KEPT_NUMBER_CHARS: usize = 4;

/// Whether `node` is a literal value that signatures show as `…`: every string, character,
/// regular-expression, heredoc or macro-body literal of any supported grammar, and numbers
/// longer than [`MAX_KEPT_NUMBER_CHARS`]. Values written in code may be secrets.
pub(crate) fn is_literal(node: Node<'_>) -> bool {
    let kind = node.kind();
    if !node.is_named() {
        return false;
    }
    let textual = kind.contains("string")
        || kind.contains("heredoc")
        || kind.contains("nowdoc")
        || kind.contains("regex")
        || matches!(
            kind,
            "char_literal"
                | "character_literal"
                | "rune_literal"
                | "text_block"
                | "delimited_symbol"
                | "preproc_arg"
                // Ruby's `?Z`: a value, as a string is.
                | "character"
                // JSX in a default value (`label = <b>Hello</b>`): text written in code.
                | "jsx_element"
                | "jsx_self_closing_element"
                | "jsx_fragment"
                // A Rust macro's tokens (`key: secret_ty!{ … }`): a macro body.
                | "token_tree"
        );
    // A type is no value: Java's `floating_point_type` (`double x`) hid every `double` and
    // `float` of a signature, and with them a change from one to the other.
    let numeric = !kind.ends_with("_type")
        && (kind.contains("integer") || kind.contains("float") || kind.contains("number"))
        || matches!(
            kind,
            "int_literal" | "imaginary_literal" | "real_literal" | "rational" | "complex"
        );
    // Ruby's `:production` is a value (`def connect(env = :production)`), except as a call's
    // argument, where it names what the call defines (`attr_reader :name`, `Struct.new(:host)`).
    let symbol =
        kind == "simple_symbol" && node.parent().is_none_or(|p| p.kind() != "argument_list");
    textual || symbol || (numeric && node.byte_range().len() > MAX_KEPT_NUMBER_CHARS)
}

/// Whether `node` is an "extra" (a comment and the like) rather than part of the syntax.
/// ERROR nodes can be extras too; they hold real text and are not.
pub(crate) fn is_extra(node: Node<'_>) -> bool {
    node.is_extra() && !node.is_error()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each language's tags query (shipped + extras) is a valid tree-sitter-tags
    /// configuration, so it stays usable by standard tags tooling.
    #[test]
    fn tags_queries_are_valid_tags_configurations() {
        for &language in Language::all() {
            let support = support(language);
            let result = tree_sitter_tags::TagsConfiguration::new(
                support.grammar(),
                &support.tags_query(),
                "",
            );
            assert!(result.is_ok(), "{}: {:?}", language.name(), result.err());
        }
    }

    /// The C# fix removes exactly the pattern that makes tree-sitter-tags fail.
    #[test]
    fn csharp_invalid_pattern_is_dropped() {
        let shipped = tree_sitter_c_sharp::TAGS_QUERY;
        assert!(
            shipped.contains(csharp::INVALID_PATTERN),
            "upstream query changed"
        );
        let broken = tree_sitter_tags::TagsConfiguration::new(
            tree_sitter_c_sharp::LANGUAGE.into(),
            shipped,
            "",
        );
        assert!(broken.is_err());
        assert!(!csharp::shipped_tags_query().contains("@module"));
    }

    #[test]
    fn unquote_strips_one_pair() {
        assert_eq!(unquote("\"a\""), "a");
        assert_eq!(unquote("<stdio.h>"), "stdio.h");
        assert_eq!(unquote("'x'"), "x");
        assert_eq!(unquote("plain"), "plain");
        assert_eq!(unquote("\""), "\"");
    }

    #[test]
    fn private_names() {
        assert!(underscore_private("_x"));
        assert!(underscore_private("__x"));
        assert!(!underscore_private("__init__"));
        assert!(!underscore_private("x"));
    }
}
