//! Ruby: modules, classes, methods (`private`/`protected` sections and prefixes),
//! singleton methods, constants and attribute accessors.

use std::borrow::Cow;

use tree_sitter::Node;

use super::{node_text, Def, Info, LanguageSupport, Parent};

/// Ruby support.
pub(crate) struct Ruby;

impl LanguageSupport for Ruby {
    fn grammar(&self) -> tree_sitter::Language {
        tree_sitter_ruby::LANGUAGE.into()
    }

    /// Modules and classes are open: `module Sinatra` again adds to the first.
    fn reopens(&self, kind: &str) -> bool {
        matches!(kind, "module" | "class")
    }

    fn tags_query(&self) -> Cow<'static, str> {
        Cow::Owned(format!(
            "{}\n{}",
            tree_sitter_ruby::TAGS_QUERY,
            include_str!("../queries/ruby-tags.scm")
        ))
    }

    fn imports_query(&self) -> &'static str {
        include_str!("../queries/ruby-imports.scm")
    }

    fn describe<'t>(
        &self,
        def: &Def<'_, 't>,
        parent: Option<&Parent<'_, 't>>,
        source: &[u8],
    ) -> Option<Info<'t>> {
        let node = def.node;
        let mut info = match node.kind() {
            // Ruby makes these private whatever section they are in: `initialize` is called
            // through `new` (jekyll's overview listed a dozen `.initialize` as public API).
            "method" if ALWAYS_PRIVATE.contains(&def.name) => {
                Info::new("method").visibility(Some("private"))
            }
            // A method of `class << self` is the class's, as `def self.push` is (sidekiq's
            // `Client.push` read as an instance method beside the instance one).
            "method" if in_singleton_class(node) => {
                // `private :x` inside the block makes it private, as for instance methods.
                let v = named_visibility(node, def.name, false, source)
                    .unwrap_or_else(|| method_visibility(node, source));
                let mut info = Info::new("method").visibility(Some(v));
                info.restart = Some(("def ".into(), "def self.".into()));
                info
            }
            "method" => {
                let v = named_visibility(node, def.name, false, source)
                    .unwrap_or_else(|| method_visibility(node, source));
                Info::new("method").visibility(Some(v))
            }
            "singleton_method" => {
                let v = named_visibility(node, def.name, true, source).unwrap_or("public");
                Info::new("method").visibility(Some(v))
            }
            // `alias :draw :render` names `draw` (the id `Widget.:draw` found no entity).
            "alias" => {
                let mut info = Info::new("method");
                if let Some(bare) = def.name.strip_prefix(':') {
                    info.name = Some(bare.to_owned());
                }
                info
            }
            "class" | "singleton_class" => {
                let mut info = Info::new("class");
                info.scope_only = node.kind() == "class" && only_opens_a_scope(node);
                info
            }
            "module" => {
                let mut info = Info::new("module");
                info.scope_only = only_opens_a_scope(node);
                info
            }
            "assignment" => Info::new("constant"),
            "call" => {
                let method = node
                    .child_by_field_name("method")
                    .map(|m| node_text(m, source));
                if !matches!(
                    method.as_deref(),
                    Some("attr_reader" | "attr_writer" | "attr_accessor")
                ) {
                    return None;
                }
                // An accessor follows the section it is in, or a `private` before it
                // (`private attr_writer :secret`), as a method does.
                let mut info = Info::new("field").visibility(Some(method_visibility(node, source)));
                info.name = Some(def.name.trim_start_matches(':').to_string());
                return Some(info);
            }
            _ => return None,
        };
        if matches!(
            node.kind(),
            "method" | "singleton_method" | "class" | "module"
        ) {
            // Stop at the body, or at `end` when there is none (`def run; end`).
            let mut cursor = node.walk();
            let end = node
                .children(&mut cursor)
                .filter(|c| c.kind() == "end")
                .last();
            info.cut = node
                .child_by_field_name("body")
                .or(end)
                .map(|n| n.start_byte());
            // RDoc's `# :nodoc:` on the definition's line keeps it out of the documented API
            // (thor's `def command_exists?(command_name) #:nodoc:` was a member of `Thor`).
            if nodoc(node, source) && info.visibility.is_none_or(|v| v == "public") {
                info.visibility = Some("internal");
            }
        }
        // `class A::B` and `def Foo.bar` name their own scope.
        let name_parent = def.name_node.parent();
        if let Some(scope) = name_parent
            .filter(|p| p.kind() == "scope_resolution")
            .and_then(|p| p.child_by_field_name("scope"))
        {
            info.receiver = Some(node_text(scope, source).replace("::", "."));
        } else if node.kind() == "singleton_method" {
            let object = node.child_by_field_name("object");
            if let Some(object) = object.filter(|o| o.kind() == "constant") {
                let object = node_text(object, source);
                if parent.is_none_or(|p| p.name != object) {
                    info.receiver = Some(object.into_owned());
                }
            }
        }
        Some(info)
    }

    fn is_builtin(&self, name: &str) -> bool {
        BUILTINS.contains(&name)
    }

    /// A constant only checked for (`defined?(Rails::Railtie)`, a gem's optional integration)
    /// is no use of it: a Zeitwerk gem's entry file (`require 'mygem/railtie' if
    /// defined?(Rails::Railtie)`) exported its own `Railtie` as the gem's API.
    fn names_a_foreign_package(&self, name: Node<'_>, _source: &[u8], _imports: &[String]) -> bool {
        let mut at = name;
        while let Some(parent) = at.parent() {
            if parent.kind() == "unary"
                && parent
                    .child_by_field_name("operator")
                    .is_some_and(|o| o.kind() == "defined?")
            {
                return true;
            }
            if matches!(
                parent.kind(),
                "method" | "singleton_method" | "class" | "module" | "program"
            ) {
                return false;
            }
            at = parent;
        }
        false
    }
}

/// Whether a method is defined in a `class << self` block (its body's statement).
/// Whether a `class` or `module` only opens its namespace for what it holds: its body holds
/// classes, modules and constants and nothing of its own (no method, no call such as
/// `include` or `attr_reader`, no `class << self`), and a class names no superclass. A gem's
/// files reopen `module Faraday` (and `class Request`) to define one class each.
fn only_opens_a_scope(node: Node<'_>) -> bool {
    if node.child_by_field_name("superclass").is_some() {
        return false;
    }
    let Some(body) = node.child_by_field_name("body") else {
        return false;
    };
    let mut cursor = body.walk();
    let mut held = body
        .named_children(&mut cursor)
        .filter(|c| c.kind() != "comment");
    let mut any = false;
    held.all(|c| {
        any = true;
        match c.kind() {
            "class" | "module" => true,
            "assignment" => c
                .child_by_field_name("left")
                .is_some_and(|l| matches!(l.kind(), "constant" | "scope_resolution")),
            _ => false,
        }
    }) && any
}

fn in_singleton_class(method: Node<'_>) -> bool {
    let mut up = method.parent();
    while let Some(n) = up {
        match n.kind() {
            "singleton_class" => return true,
            "body_statement" | "begin" => up = n.parent(),
            _ => return false,
        }
    }
    false
}

/// Instance methods Ruby always makes private.
const ALWAYS_PRIVATE: [&str; 5] = [
    "initialize",
    "initialize_copy",
    "initialize_clone",
    "initialize_dup",
    "respond_to_missing?",
];

/// Whether the first line of a definition carries RDoc's `:nodoc:` directive in a comment
/// (`def run # :nodoc:`, `class Util #:nodoc:`).
fn nodoc(node: Node<'_>, source: &[u8]) -> bool {
    let rest = source.get(node.start_byte()..).unwrap_or_default();
    let line = &rest[..rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len())];
    line.iter().position(|&b| b == b'#').is_some_and(|hash| {
        let comment = line[hash + 1..].trim_ascii_start();
        comment.starts_with(b":nodoc:")
    })
}

/// The visibility a later call in the same body gives a method by name: `private :helper`,
/// `protected :x`, `public :y`, or for a singleton method (`def self.build`)
/// `private_class_method :build` (rack's `private :accepts_html?` after its `def`; they read
/// as public).
fn named_visibility(
    method: Node<'_>,
    name: &str,
    singleton: bool,
    source: &[u8],
) -> Option<&'static str> {
    let mut sibling = method.next_named_sibling();
    while let Some(node) = sibling {
        sibling = node.next_named_sibling();
        if node.kind() != "call" {
            continue;
        }
        let called = node
            .child_by_field_name("method")
            .map(|m| node_text(m, source));
        let visibility = match (called.as_deref(), singleton) {
            (Some("private"), false) | (Some("private_class_method"), true) => "private",
            (Some("protected"), false) => "protected",
            (Some("public"), false) | (Some("public_class_method"), true) => "public",
            _ => continue,
        };
        let Some(arguments) = node.child_by_field_name("arguments") else {
            continue;
        };
        let mut cursor = arguments.walk();
        let names = arguments.named_children(&mut cursor).any(|a| {
            let text = node_text(a, source);
            let text = text
                .trim_start_matches(':')
                .trim_matches(|c| c == '"' || c == '\'');
            a.kind() != "method" && text == name
        });
        if names {
            return Some(visibility);
        }
    }
    None
}

/// `private`/`protected`/`public` from a `private def …` prefix or the nearest preceding
/// bare visibility call in the same body; `public` otherwise.
fn method_visibility(method: Node<'_>, source: &[u8]) -> &'static str {
    let word = |node: Node<'_>| match node_text(node, source).as_ref() {
        "private" => Some("private"),
        "protected" => Some("protected"),
        "public" => Some("public"),
        _ => None,
    };
    // `private def foo`: the method is the argument of a `private` call.
    let mut statement = method;
    if let Some(call) = method
        .parent()
        .filter(|p| p.kind() == "argument_list")
        .and_then(|a| a.parent())
    {
        if let Some(v) = call.child_by_field_name("method").and_then(word) {
            return v;
        }
        statement = call;
    }
    let mut sibling = statement.prev_named_sibling();
    while let Some(node) = sibling {
        if node.kind() == "identifier" {
            if let Some(v) = word(node) {
                return v;
            }
        }
        sibling = node.prev_named_sibling();
    }
    "public"
}

/// Kernel methods and keyword-like calls, and the methods of the core classes (`Object`,
/// `Hash`, `Array`, `String`, `Enumerable`) a Ruby file calls on almost every line. A call's
/// receiver is unknown, so `h.include?(k)` would count as a use of every `include?` the
/// project defines: sinatra's `alias include? key?` of its `IndifferentHash` outranked the
/// class itself.
const BUILTINS: &[&str] = &[
    "include?",
    "key?",
    "empty?",
    "any?",
    "all?",
    "none?",
    "size",
    "length",
    "count",
    "first",
    "last",
    "join",
    "split",
    "keys",
    "values",
    "merge",
    "merge!",
    "fetch",
    "delete",
    "dig",
    "each_with_object",
    "each_with_index",
    "inject",
    "reduce",
    "flatten",
    "compact",
    "uniq",
    "sort",
    "sort_by",
    "min",
    "max",
    "sum",
    "dup",
    "clone",
    "tap",
    "to_sym",
    "to_str",
    "to_proc",
    "inspect",
    "hash",
    "eql?",
    "equal?",
    "frozen?",
    "send",
    "public_send",
    "kind_of?",
    "instance_of?",
    "instance_variable_get",
    "instance_variable_set",
    "define_method",
    "start_with?",
    "end_with?",
    "gsub",
    "sub",
    "strip",
    "upcase",
    "downcase",
    "puts",
    "print",
    "p",
    "pp",
    "require",
    "require_relative",
    "load",
    "raise",
    "new",
    "attr_reader",
    "attr_writer",
    "attr_accessor",
    "private",
    "protected",
    "public",
    "include",
    "extend",
    "module_function",
    "lambda",
    "proc",
    "loop",
    "format",
    "sprintf",
    "freeze",
    "self",
    "nil",
    "true",
    "false",
    "super",
    "yield",
    "block_given?",
    "respond_to?",
    "is_a?",
    "nil?",
    "to_s",
    "to_i",
    "to_a",
    "to_h",
    "each",
    "map",
    "select",
    "reject",
    "Integer",
    "String",
    "Array",
    "Hash",
    "Float",
    "StandardError",
    "ArgumentError",
    "RuntimeError",
    "Struct",
    "Comparable",
    "Enumerable",
    "Kernel",
    "Object",
];
