//! Rust: items, impl blocks, trait members, fields, enum variants, `use` trees.

use std::borrow::Cow;

use tree_sitter::Node;

use super::{node_text, value_free_text, Def, Info, LanguageSupport, Parent};

/// Rust support.
pub(crate) struct Rust;

impl LanguageSupport for Rust {
    fn grammar(&self) -> tree_sitter::Language {
        tree_sitter_rust::LANGUAGE.into()
    }

    fn tags_query(&self) -> Cow<'static, str> {
        Cow::Owned(format!(
            "{}\n{}",
            tree_sitter_rust::TAGS_QUERY,
            include_str!("../queries/rust-tags.scm")
        ))
    }

    fn imports_query(&self) -> &'static str {
        include_str!("../queries/rust-imports.scm")
    }

    fn describe<'t>(
        &self,
        def: &Def<'_, 't>,
        parent: Option<&Parent<'_, 't>>,
        source: &[u8],
    ) -> Option<Info<'t>> {
        let node = def.node;
        // `const _: () = { … };` (a compile-time assertion, a probe) names nothing, and what
        // its block defines no code outside can name: anyhow's `_`, `_#2`, `_.MyError.fmt`.
        if def.name == "_" || in_anonymous_const(node, source) {
            return None;
        }
        let parent_kind = parent.map(|p| p.kind);
        // Trait members and trait-impl members inherit their visibility.
        let inherits = match parent {
            Some(p) if p.kind == "trait" => true,
            Some(p) if p.kind == "impl" => p.node.child_by_field_name("trait").is_some(),
            _ => false,
        };
        let visibility = if inherits {
            None
        } else {
            Some(visibility(node, source))
        };
        let body = node.child_by_field_name("body");
        let info = match node.kind() {
            "function_item" if derive_name(node, source).is_some() => {
                let mut info = Info::new("macro").visibility(visibility).body(body);
                info.name = derive_name(node, source);
                info
            }
            "function_item" | "function_signature_item" => {
                let in_type = matches!(parent_kind, Some("impl" | "trait"));
                Info::new(if in_type { "method" } else { "function" })
                    .visibility(visibility)
                    .body(body)
            }
            "struct_item" | "union_item" => {
                // Keep tuple-struct fields in the signature: `struct Id(u32)`.
                let body = body.filter(|b| b.kind() == "field_declaration_list");
                Info::new("struct").visibility(visibility).body(body)
            }
            "enum_item" => Info::new("enum").visibility(visibility).body(body),
            "trait_item" => Info::new("trait").visibility(visibility).body(body),
            "mod_item" => Info::new("module").visibility(visibility).body(body),
            "type_item" => Info::new("type").visibility(visibility),
            "associated_type" => Info::new("type"),
            "const_item" => Info::new("constant").visibility(visibility),
            "static_item" => Info::new("variable").visibility(visibility),
            "field_declaration" => Info::new("field").visibility(visibility),
            "enum_variant" => Info::new("constant"),
            "macro_definition" => {
                // A `macro_rules!` is the crate's own unless exported: serde_json's overview
                // named its private `tri` and `overflow` beside `from_str`.
                let exported = attributes(node, source)
                    .iter()
                    .any(|a| a == "#[macro_export]" || a.starts_with("#[macro_export("));
                let macro_visibility = match visibility {
                    // `#[doc(hidden)]` (internal) or compiled for tests only (private).
                    Some("internal" | "public") | None => visibility,
                    _ if test_only(node, source) => visibility,
                    _ if exported => Some("public"),
                    _ => Some("internal"),
                };
                let mut info = Info::new("macro").visibility(macro_visibility);
                let mut cursor = node.walk();
                let rules: Vec<Node<'_>> = node
                    .named_children(&mut cursor)
                    .filter(|c| c.kind() == "macro_rule")
                    .collect();
                info.cut = rules.first().map(|rule| rule.start_byte());
                // Its rules' matchers are how it is called, which `macro_rules! info` does not
                // show: a changed or added pattern is a changed declaration (log's `info!`).
                info.unseen = super::declarations_hash(
                    rules.iter().filter_map(|r| r.child_by_field_name("left")),
                    source,
                );
                info
            }
            "impl_item" => {
                let ty = node.child_by_field_name("type")?;
                let ty_text = value_free_text(ty, source);
                let mut info = Info::new("impl").body(body);
                info.name = Some(match node.child_by_field_name("trait") {
                    Some(t) => format!("impl {} for {}", value_free_text(t, source), ty_text),
                    None => format!("impl {ty_text}"),
                });
                // A blanket impl's type is a parameter of its own (`impl<A> SeqAccess for &mut
                // A`): its members are the impl's, not of a type `A` (serde's `A.Error`).
                let base = base_type_name(ty, source);
                let generic = node
                    .child_by_field_name("type_parameters")
                    .is_some_and(|params| {
                        let mut cursor = params.walk();
                        // `A`, `T: Clone`, `const N: usize`: the name before any bound.
                        let declared = params.named_children(&mut cursor).any(|p| {
                            let text = node_text(p, source);
                            let text = text.strip_prefix("const ").unwrap_or(&text);
                            text.split([':', '=']).next().map(str::trim) == Some(base.as_str())
                        });
                        declared
                    });
                info.scope = (!generic).then_some(base);
                info
            }
            _ => return None,
        };
        Some(info)
    }

    /// A `use` that only tests compile (`#[cfg(test)] mod tests { use super::*; … }`) is no
    /// import of the file's: log's entity for `Log` listed `super::Log` and `super::Record`.
    fn imports(&self, node: Node<'_>, source: &[u8], out: &mut Vec<String>) {
        if !test_only(node, source) {
            use_paths(node, source, "", out);
        }
    }

    fn is_builtin(&self, name: &str) -> bool {
        BUILTINS.contains(&name)
    }
}

/// `public` for `pub`, `internal` for `pub(crate)`/`pub(super)`/`pub(in …)`, else
/// `private`; `private` too for an item that only tests compile ([`test_only`]), whatever it
/// declares: clap's `#[cfg(doctest)] pub struct ReadmeDoctests` led its crate's exports.
/// Whether a node lies inside the value of a `const _` item.
fn in_anonymous_const(node: Node<'_>, source: &[u8]) -> bool {
    let mut at = node.parent();
    while let Some(n) = at {
        if n.kind() == "const_item"
            && n.child_by_field_name("name")
                .map(|name| node_text(name, source))
                .as_deref()
                == Some("_")
        {
            return true;
        }
        at = n.parent();
    }
    false
}

fn visibility(node: Node<'_>, source: &[u8]) -> &'static str {
    if test_only(node, source) {
        return "private";
    }
    // Public to the compiler, hidden from the crate's users.
    if doc_hidden(node, source) {
        return "internal";
    }
    let mut cursor = node.walk();
    let modifier = node
        .children(&mut cursor)
        .find(|c| c.kind() == "visibility_modifier");
    match modifier.map(|m| node_text(m, source)) {
        Some(text) if text.trim() == "pub" => "public",
        Some(_) => "internal",
        None => "private",
    }
}

/// The attributes written right before an item (comments between them aside), nearest first,
/// without white space: `#[doc(hidden)]`, `#[cfg(test)]`.
fn attributes(node: Node<'_>, source: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    let mut prev = node.prev_sibling();
    while let Some(p) = prev {
        match p.kind() {
            "attribute_item" => out.push(
                node_text(p, source)
                    .chars()
                    .filter(|c| !c.is_whitespace())
                    .collect(),
            ),
            "line_comment" | "block_comment" => {}
            _ => break,
        }
        prev = p.prev_sibling();
    }
    out
}

/// Whether an item carries `#[doc(hidden)]` among the attributes right before it: public to
/// the compiler, no API its users are shown (tokio's `select_priv_declare_output_enum`).
pub(crate) fn doc_hidden(node: Node<'_>, source: &[u8]) -> bool {
    attributes(node, source)
        .iter()
        .any(|a| a == "#[doc(hidden)]")
}

/// Whether an item, or an item around it (a `mod tests`), carries `#[cfg(test)]` or
/// `#[cfg(doctest)]`: it exists in test builds only, and is no part of the crate's API.
fn test_only(node: Node<'_>, source: &[u8]) -> bool {
    let mut item = Some(node);
    while let Some(current) = item {
        let tested = attributes(current, source)
            .iter()
            .any(|a| a == "#[cfg(test)]" || a == "#[cfg(doctest)]");
        if tested {
            return true;
        }
        item = current.parent();
    }
    false
}

/// The name a derive macro is used by: `Serialize` for a function under
/// `#[proc_macro_derive(Serialize, attributes(serde))]`. Users write `#[derive(Serialize)]`;
/// the function's own name (`derive_serialize`) is nothing they can name, yet serde's
/// overview listed it as the crate's export.
fn derive_name(node: Node<'_>, source: &[u8]) -> Option<String> {
    attributes(node, source).iter().find_map(|a| {
        let args = a.strip_prefix("#[proc_macro_derive(")?;
        let name: String = args
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        (!name.is_empty()).then_some(name)
    })
}

/// `Foo` for `Foo`, `Foo<T>`, `crate::a::Foo<T>`, `&'a Foo`.
fn base_type_name(ty: Node<'_>, source: &[u8]) -> String {
    let mut node = ty;
    loop {
        let next = match node.kind() {
            "generic_type" => node.child_by_field_name("type"),
            "scoped_type_identifier" => node.child_by_field_name("name"),
            "reference_type" | "pointer_type" => node.child_by_field_name("type"),
            _ => None,
        };
        match next {
            Some(n) => node = n,
            None => return value_free_text(node, source),
        }
    }
}

/// Expands a `use` tree: `a::{b, c::d as e, f::*}` -> `a::b`, `a::c::d`, `a::f::*`.
fn use_paths(node: Node<'_>, source: &[u8], prefix: &str, out: &mut Vec<String>) {
    let join = |path: &str| {
        if prefix.is_empty() {
            path.to_string()
        } else if path == "self" {
            prefix.to_string()
        } else {
            format!("{prefix}::{path}")
        }
    };
    match node.kind() {
        "scoped_use_list" => {
            let path = node
                .child_by_field_name("path")
                .map(|p| node_text(p, source));
            let prefix = join(path.as_deref().unwrap_or(""));
            if let Some(list) = node.child_by_field_name("list") {
                use_paths(list, source, &prefix, out);
            }
        }
        "use_list" => {
            let mut cursor = node.walk();
            for child in node.named_children(&mut cursor) {
                use_paths(child, source, prefix, out);
            }
        }
        "use_as_clause" => {
            if let Some(path) = node.child_by_field_name("path") {
                use_paths(path, source, prefix, out);
            }
        }
        "use_wildcard" => {
            let text = node_text(node, source);
            out.push(join(&text));
        }
        kind if kind.contains("comment") => {}
        _ => out.push(join(&node_text(node, source))),
    }
}

/// Prelude names and standard macros that say nothing about the file's dependencies.
const BUILTINS: &[&str] = &[
    "Self",
    "Some",
    "None",
    "Ok",
    "Err",
    "Option",
    "Result",
    "Box",
    "Vec",
    "String",
    "Default",
    "Clone",
    "Copy",
    "Debug",
    "Send",
    "Sync",
    "Sized",
    "Drop",
    "Fn",
    "FnMut",
    "FnOnce",
    "From",
    "Into",
    "Iterator",
    "IntoIterator",
    "ToString",
    "PartialEq",
    "Eq",
    "PartialOrd",
    "Ord",
    "println",
    "print",
    "eprintln",
    "eprint",
    "format",
    "write",
    "writeln",
    "vec",
    "panic",
    "assert",
    "assert_eq",
    "assert_ne",
    "debug_assert",
    "debug_assert_eq",
    "debug_assert_ne",
    "todo",
    "unimplemented",
    "unreachable",
    "matches",
    "concat",
    "stringify",
    "include_str",
    "include_bytes",
    "env",
    "cfg",
    "dbg",
    "format_args",
    "line",
    "file",
    "column",
];
