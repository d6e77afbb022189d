//! C#: classes, structs, interfaces, enums, records, methods, constructors, properties and
//! fields, with C#'s default accessibility when no modifier is written. Namespaces only name:
//! they are no symbols.

use std::borrow::Cow;

use tree_sitter::Node;

use super::{access_modifier, has_token, node_text, Def, Info, LanguageSupport, Parent};

/// The shipped query's last pattern captures `@module`, which is not a valid tags
/// capture (tree-sitter-tags refuses the whole query); it is dropped.
pub(crate) const INVALID_PATTERN: &str = "(namespace_declaration name: (identifier) @name) @module";

/// C# support.
pub(crate) struct CSharp;

impl LanguageSupport for CSharp {
    fn grammar(&self) -> tree_sitter::Language {
        tree_sitter_c_sharp::LANGUAGE.into()
    }

    /// A namespace is open: a second block of the same namespace in a file adds to the first,
    /// as C++'s do.
    fn reopens(&self, kind: &str) -> bool {
        kind == "module"
    }

    fn tags_query(&self) -> Cow<'static, str> {
        Cow::Owned(format!(
            "{}\n{}",
            shipped_tags_query(),
            include_str!("../queries/csharp-tags.scm")
        ))
    }

    fn imports_query(&self) -> &'static str {
        include_str!("../queries/csharp-imports.scm")
    }

    fn describe<'t>(
        &self,
        def: &Def<'_, 't>,
        parent: Option<&Parent<'_, 't>>,
        source: &[u8],
    ) -> Option<Info<'t>> {
        let node = def.node;
        let parent_kind = parent.map(|p| p.kind);
        let default = match parent_kind {
            Some("interface" | "enum") => "public",
            Some("class" | "struct") => "private",
            _ => "internal",
        };
        let visibility = Some(access_modifier(node, source).unwrap_or(default));
        let body = node.child_by_field_name("body");
        let info = match node.kind() {
            // A namespace only names: no code holds or calls it, and whether it is written as
            // a block or as a statement (`namespace Lib;`) changes no id (a block's names were
            // `Lib.Core.Beta.Run`, a statement's `Beta.Run`; moving between the two styles
            // read as every symbol removed and added). It was the overview's `namespace Lib`
            // and a delta's `added namespace` for every new file.
            "namespace_declaration" | "file_scoped_namespace_declaration" => return None,
            "class_declaration" | "record_declaration" => Info::new("class").body(body),
            "struct_declaration" => Info::new("struct").body(body),
            "interface_declaration" => Info::new("interface").body(body),
            "enum_declaration" => Info::new("enum").body(body),
            "method_declaration" | "constructor_declaration" => Info::new("method").body(body),
            // An expression-bodied property (`public bool Ok => Count > 0 && …;`) is cut
            // before its expression, a body like a method's: its signature held the whole
            // expression (AutoMapper's `PassesCtorValidation`, 262 characters).
            "property_declaration" => {
                let mut info = Info::new("field").body(node.child_by_field_name("accessors"));
                info.cut = super::child_of_kind(node, &["arrow_expression_clause"])
                    .map(|a| a.start_byte());
                info
            }
            "field_declaration" => {
                let constant = has_token(node, source, "const");
                Info::new(if constant { "constant" } else { "field" })
            }
            "enum_member_declaration" => Info::new("constant"),
            "delegate_declaration" => Info::new("type"),
            _ => return None,
        };
        Some(info.visibility(visibility))
    }

    fn imports(&self, node: Node<'_>, source: &[u8], out: &mut Vec<String>) {
        let alias = node.child_by_field_name("name").map(|n| n.id());
        let mut cursor = node.walk();
        let target = node
            .named_children(&mut cursor)
            .filter(|c| Some(c.id()) != alias && !c.is_extra())
            .last();
        if let Some(target) = target {
            out.push(node_text(target, source).into_owned());
        }
    }

    fn is_builtin(&self, name: &str) -> bool {
        BUILTINS.contains(&name)
    }

    fn is_hole(&self, node: Node<'_>) -> bool {
        super::is_extra(node) || matches!(node.kind(), "comment" | "attribute_list")
    }
}

/// The grammar's tags query without [`INVALID_PATTERN`].
pub(crate) fn shipped_tags_query() -> String {
    tree_sitter_c_sharp::TAGS_QUERY.replace(INVALID_PATTERN, "")
}

/// Types every C# file sees.
const BUILTINS: &[&str] = &[
    "String",
    "Object",
    "Int32",
    "Int64",
    "Boolean",
    "Double",
    "Console",
    "Math",
    "Exception",
    "ArgumentException",
    "ArgumentNullException",
    "InvalidOperationException",
    "Task",
    "var",
    "nameof",
    "Obsolete",
];
