//! PHP: namespaces, classes, interfaces, traits, enums, functions, methods, properties
//! and constants; `use` declarations and `require`/`include` paths as imports.

use std::borrow::Cow;

use tree_sitter::Node;

use super::{
    access_modifier, child_of_kind, node_text, unquote, Def, Info, LanguageSupport, Parent,
};

/// PHP support.
pub(crate) struct Php;

impl LanguageSupport for Php {
    fn grammar(&self) -> tree_sitter::Language {
        tree_sitter_php::LANGUAGE_PHP.into()
    }

    /// A namespace is open: a second block of the same namespace in a file adds to the first,
    /// as C++'s do.
    fn reopens(&self, kind: &str) -> bool {
        kind == "module"
    }

    fn tags_query(&self) -> Cow<'static, str> {
        Cow::Owned(format!(
            "{}\n{}",
            tree_sitter_php::TAGS_QUERY,
            include_str!("../queries/php-tags.scm")
        ))
    }

    fn imports_query(&self) -> &'static str {
        include_str!("../queries/php-imports.scm")
    }

    /// A constant alone in its `const` declaration covers the keyword and modifiers.
    fn outer<'t>(&self, node: Node<'t>) -> Node<'t> {
        match node.parent() {
            Some(p) if node.kind() == "const_element" && p.kind() == "const_declaration" => {
                let mut cursor = p.walk();
                let elements = p
                    .named_children(&mut cursor)
                    .filter(|c| c.kind() == "const_element");
                if elements.count() == 1 {
                    p
                } else {
                    node
                }
            }
            _ => node,
        }
    }

    fn describe<'t>(
        &self,
        def: &Def<'_, 't>,
        parent: Option<&Parent<'_, 't>>,
        source: &[u8],
    ) -> Option<Info<'t>> {
        let node = def.node;
        let in_type =
            parent.is_some_and(|p| matches!(p.kind, "class" | "interface" | "trait" | "enum"));
        let member = |n: Node<'_>| {
            let declared = access_modifier(n, source).or_else(|| {
                child_of_kind(n, &["visibility_modifier"]).and_then(|m| access_word(m, source))
            });
            declared.or(in_type.then_some("public"))
        };
        let body = node.child_by_field_name("body");
        let info = match node.kind() {
            // `namespace App\Http;` holds nothing: it names the file's namespace, as a `use`
            // line says it, and is no definition to list (Laravel's overview showed
            // `namespace Illuminate\Foundation` for `Application.php`, and the class only by
            // name). A braced namespace holds its definitions.
            "namespace_definition" if body.is_none() => return None,
            "namespace_definition" => Info::new("module").body(body),
            "class_declaration" => Info::new("class").body(body),
            "interface_declaration" => Info::new("interface").body(body),
            "trait_declaration" => Info::new("trait").body(body),
            "enum_declaration" => Info::new("enum").body(body),
            "function_definition" => Info::new("function").body(body),
            "method_declaration" => Info::new("method").visibility(member(node)).body(body),
            "property_declaration" => Info::new("field").visibility(member(node)),
            "const_element" => Info::new("constant").visibility(member(def.outer)),
            "enum_case" => Info::new("constant").visibility(Some("public")),
            _ => return None,
        };
        // A docblock's `@internal` keeps a definition out of the package's API however public
        // its modifier (guzzle's `EasyHandle` and `HeaderProcessor` were listed as its API).
        let marked_internal = matches!(
            node.kind(),
            "class_declaration"
                | "interface_declaration"
                | "trait_declaration"
                | "enum_declaration"
                | "function_definition"
                | "method_declaration"
        ) && docblock_tag(def.outer, source, "@internal");
        if marked_internal && info.visibility.is_none_or(|v| v == "public") {
            return Some(info.visibility(Some("internal")));
        }
        Some(info)
    }

    fn imports(&self, node: Node<'_>, source: &[u8], out: &mut Vec<String>) {
        if node.kind() != "namespace_use_declaration" {
            // require/include: the path string, as written.
            if let Some(path) = last_string(node) {
                out.push(unquote(&node_text(path, source)).to_string());
            }
            return;
        }
        let clean = |text: &str| text.trim().trim_start_matches('\\').to_string();
        let prefix = child_of_kind(node, &["namespace_name"]).map(|p| node_text(p, source));
        let mut cursor = node.walk();
        let clauses: Vec<Node> = match node.child_by_field_name("body") {
            Some(group) => group.named_children(&mut cursor).collect(),
            None => node.named_children(&mut cursor).collect(),
        };
        for clause in clauses
            .into_iter()
            .filter(|c| c.kind() == "namespace_use_clause")
        {
            let target = child_of_kind(clause, &["qualified_name", "name"]).unwrap_or(clause);
            let target = node_text(target, source);
            match &prefix {
                Some(prefix) => out.push(format!("{}\\{}", clean(prefix), clean(&target))),
                None => out.push(clean(&target)),
            }
        }
    }

    /// `namespace App\Http;` at the top of the file; `""` without one. Two such statements
    /// in one file, or a braced block, leave it `None`.
    fn namespace(&self, root: Node<'_>, source: &[u8]) -> Option<String> {
        let mut cursor = root.walk();
        let mut found: Option<String> = None;
        for child in root.named_children(&mut cursor) {
            if child.kind() != "namespace_definition" {
                continue;
            }
            if found.is_some() || child.child_by_field_name("body").is_some() {
                return None;
            }
            let name = child.child_by_field_name("name")?;
            found = Some(
                node_text(name, source)
                    .trim()
                    .trim_start_matches('\\')
                    .to_string(),
            );
        }
        Some(found.unwrap_or_default())
    }

    fn is_builtin(&self, name: &str) -> bool {
        BUILTINS.contains(&name)
    }

    fn is_hole(&self, node: Node<'_>) -> bool {
        super::is_extra(node) || matches!(node.kind(), "comment" | "attribute_list")
    }
}

/// The visibility word of a `visibility_modifier` node.
fn access_word(node: Node<'_>, source: &[u8]) -> Option<&'static str> {
    match node_text(node, source).trim() {
        "public" => Some("public"),
        "private" => Some("private"),
        "protected" => Some("protected"),
        _ => None,
    }
}

/// The last string literal inside `node`.
fn last_string(node: Node<'_>) -> Option<Node<'_>> {
    let mut found = None;
    let mut cursor = node.walk();
    for child in node.named_children(&mut cursor) {
        if matches!(child.kind(), "string" | "encapsed_string") {
            found = Some(child);
        } else if let Some(inner) = last_string(child) {
            found = Some(inner);
        }
    }
    found
}

/// Functions and classes every PHP file sees.
const BUILTINS: &[&str] = &[
    "array",
    "isset",
    "unset",
    "empty",
    "count",
    "strlen",
    "sprintf",
    "printf",
    "implode",
    "explode",
    "array_map",
    "array_filter",
    "array_merge",
    "in_array",
    "is_array",
    "is_string",
    "json_encode",
    "json_decode",
    "Exception",
    "self",
    "static",
    "parent",
    "string",
    "int",
    "bool",
    "float",
    "void",
    "mixed",
];

/// Whether the comment right before `node` (only whitespace between) holds the docblock tag
/// `tag` as a word of its own (`@internal`, not `@internals`).
fn docblock_tag(node: Node<'_>, source: &[u8], tag: &str) -> bool {
    let Some(comment) = node.prev_sibling().filter(|p| p.kind() == "comment") else {
        return false;
    };
    let adjacent = source
        .get(comment.end_byte()..node.start_byte())
        .is_some_and(|gap| gap.iter().all(u8::is_ascii_whitespace));
    let text = node_text(comment, source);
    adjacent
        && text.match_indices(tag).any(|(i, _)| {
            !text[i + tag.len()..]
                .chars()
                .next()
                .is_some_and(|c| c.is_alphanumeric() || c == '_')
        })
}
