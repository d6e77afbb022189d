//! Java: classes, interfaces, enums, records, methods, constructors, fields.
//! Without an access modifier a member is package-private, reported as `internal`
//! (interface members are `public`).

use std::borrow::Cow;

use tree_sitter::Node;

use super::{
    access_modifier, child_of_kind, has_token, node_text, Def, Info, LanguageSupport, Parent,
};

/// Java support.
pub(crate) struct Java;

impl LanguageSupport for Java {
    fn grammar(&self) -> tree_sitter::Language {
        tree_sitter_java::LANGUAGE.into()
    }

    fn tags_query(&self) -> Cow<'static, str> {
        Cow::Owned(format!(
            "{}\n{}",
            tree_sitter_java::TAGS_QUERY,
            include_str!("../queries/java-tags.scm")
        ))
    }

    fn imports_query(&self) -> &'static str {
        include_str!("../queries/java-imports.scm")
    }

    fn describe<'t>(
        &self,
        def: &Def<'_, 't>,
        parent: Option<&Parent<'_, 't>>,
        source: &[u8],
    ) -> Option<Info<'t>> {
        let node = def.node;
        let modifiers = child_of_kind(node, &["modifiers"]);
        let declared = modifiers.and_then(|m| access_modifier(m, source));
        let in_interface = parent.is_some_and(|p| p.kind == "interface");
        let visibility = declared.or(if in_interface {
            Some("public")
        } else {
            Some("internal")
        });
        let body = node.child_by_field_name("body");
        let info = match node.kind() {
            "class_declaration" | "record_declaration" => Info::new("class").body(body),
            "interface_declaration" | "annotation_type_declaration" => {
                Info::new("interface").body(body)
            }
            "enum_declaration" => Info::new("enum").body(body),
            // An annotation type's element (`String level() default "normal";`) is how the
            // annotation is written, and its default a setting.
            "method_declaration"
            | "constructor_declaration"
            | "annotation_type_element_declaration" => Info::new("method").body(body),
            "field_declaration" => {
                let constant = modifiers.is_some_and(|m| {
                    has_token(m, source, "static") && has_token(m, source, "final")
                });
                Info::new(if constant { "constant" } else { "field" })
            }
            "constant_declaration" => Info::new("constant"),
            // A constant with a class body of its own (`PROD { String key() { … } }`) shows
            // its head, not the code of its methods.
            "enum_constant" => {
                return Some(Info::new("constant").body(body).visibility(Some("public")))
            }
            _ => return None,
        };
        Some(info.visibility(visibility))
    }

    fn imports(&self, node: Node<'_>, source: &[u8], out: &mut Vec<String>) {
        let Some(path) = child_of_kind(node, &["scoped_identifier", "identifier"]) else {
            return;
        };
        let mut path = node_text(path, source).into_owned();
        if child_of_kind(node, &["asterisk"]).is_some() {
            path.push_str(".*");
        }
        out.push(path);
    }

    fn is_builtin(&self, name: &str) -> bool {
        BUILTINS.contains(&name)
    }

    fn is_hole(&self, node: Node<'_>) -> bool {
        super::is_extra(node)
            || matches!(
                node.kind(),
                "line_comment" | "block_comment" | "marker_annotation" | "annotation"
            )
    }
}

/// `java.lang` types that every file sees.
const BUILTINS: &[&str] = &[
    "String",
    "Object",
    "Integer",
    "Long",
    "Double",
    "Float",
    "Boolean",
    "Character",
    "Byte",
    "Short",
    "Void",
    "Math",
    "System",
    "Override",
    "Exception",
    "RuntimeException",
    "IllegalArgumentException",
    "IllegalStateException",
    "Iterable",
    "Comparable",
    "Runnable",
    "Thread",
    "StringBuilder",
    "Class",
    "Enum",
    "Record",
    "Deprecated",
    "FunctionalInterface",
    "SuppressWarnings",
];
