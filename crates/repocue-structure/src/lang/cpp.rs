//! C++: the C logic plus classes, namespaces, access sections, templates and out-of-line
//! member definitions (`void Parser::parse()` is named `Parser.parse`).

use std::borrow::Cow;

use tree_sitter::Node;

use super::{c, node_text, Def, Info, LanguageSupport, Parent};

/// C++ support.
pub(crate) struct Cpp;

impl LanguageSupport for Cpp {
    fn grammar(&self) -> tree_sitter::Language {
        tree_sitter_cpp::LANGUAGE.into()
    }

    /// A namespace is open: `namespace leveldb {` again in the same file adds to the first
    /// (its definitions were `leveldb#2.…`, and a delta reported the second block as moved).
    fn reopens(&self, kind: &str) -> bool {
        kind == "module"
    }

    fn tags_query(&self) -> Cow<'static, str> {
        Cow::Owned(format!(
            "{}\n{}\n{}",
            tree_sitter_cpp::TAGS_QUERY,
            include_str!("../queries/c-tags.scm"),
            include_str!("../queries/cpp-tags.scm")
        ))
    }

    fn imports_query(&self) -> &'static str {
        include_str!("../queries/c-imports.scm")
    }

    fn outer<'t>(&self, node: Node<'t>) -> Node<'t> {
        c::outer(node)
    }

    fn names<'t>(&self, node: Node<'t>) -> Vec<Node<'t>> {
        c::names(node)
    }

    fn describe<'t>(
        &self,
        def: &Def<'_, 't>,
        parent: Option<&Parent<'_, 't>>,
        source: &[u8],
    ) -> Option<Info<'t>> {
        let node = def.node;
        if node.kind() == "namespace_definition" {
            let mut info = Info::new("module").body(node.child_by_field_name("body"));
            info.name = Some(def.name.replace("::", "."));
            // `namespace detail` (or `internal`, `impl`) is what a library keeps from its
            // users by convention: fmt's `detail::buffer` and `count_digits` were listed as
            // its API. Its members are unexposed through it.
            let last = def.name.rsplit("::").next().unwrap_or(def.name);
            if INTERNAL_NAMESPACES.contains(&last) {
                info.visibility = Some("internal");
            }
            return Some(info);
        }
        let mut info = c::describe(def, parent, source)?;
        // What an unnamed namespace holds has internal linkage, as a `static` function has.
        if info.visibility.is_none() && in_unnamed_namespace(node) {
            info.visibility = Some("private");
        }
        if node.kind() == "function_declarator" {
            info.overload = node
                .child_by_field_name("parameters")
                .map(|p| p.named_child_count());
        }
        // A template's specialization (`template <> struct convert<Node> {`) implements the
        // template for a type, as a Rust `impl` does a trait: yaml-cpp's dozens of
        // `convert<…>` ranked above its `Emitter` and `Parser` as classes.
        if def
            .name_node
            .parent()
            .is_some_and(|p| p.kind() == "template_type")
            && matches!(info.kind, "class" | "struct")
        {
            info.kind = "impl";
        }
        let name_kind = def.name_node.kind();
        if name_kind == "qualified_identifier" {
            // `a::B::parse` -> receiver `a.B`, name `parse`.
            let text = node_text(def.name_node, source);
            let segments = split_qualified(&text);
            let (name, scope) = segments.split_last()?;
            info.name = Some(name.to_string());
            if !scope.is_empty() {
                info.receiver = Some(scope.join("."));
                // `struct DBImpl::Writer {` is a class of its own, under `DBImpl`.
                if !matches!(info.kind, "class" | "struct") {
                    info.kind = "method";
                }
            }
        }
        if let Some(p) = parent.filter(|p| matches!(p.kind, "class" | "struct" | "impl")) {
            info.visibility = Some(access(def.outer, p, source));
        }
        Some(info)
    }

    fn is_hole(&self, node: Node<'_>) -> bool {
        super::is_extra(node)
            || matches!(
                node.kind(),
                "comment" | "attribute_declaration" | "attribute_specifier"
            )
    }
}

/// The names C++ libraries give the namespace of their implementation.
const INTERNAL_NAMESPACES: &[&str] = &["detail", "details", "internal", "impl"];

/// Whether `node` lies in a `namespace { … }` without a name.
fn in_unnamed_namespace(node: Node<'_>) -> bool {
    let mut at = node.parent();
    while let Some(n) = at {
        if n.kind() == "namespace_definition" && n.child_by_field_name("name").is_none() {
            return true;
        }
        at = n.parent();
    }
    false
}

/// The access of a member: the last `public:`/`private:`/`protected:` label before it, or
/// the default of its class (`private`) or struct (`public`).
fn access(member: Node<'_>, class: &Parent<'_, '_>, source: &[u8]) -> &'static str {
    let mut sibling = member.prev_sibling();
    while let Some(node) = sibling {
        if node.kind() == "access_specifier" {
            return match node_text(node, source).trim() {
                "private" => "private",
                "protected" => "protected",
                _ => "public",
            };
        }
        sibling = node.prev_sibling();
    }
    if class.node.kind() == "class_specifier" {
        "private"
    } else {
        "public"
    }
}

/// Splits `a::B<T>::f` into `a`, `B`, `f`, dropping template arguments and keeping
/// operator names whole (`A::operator<` -> `A`, `operator<`).
fn split_qualified(text: &str) -> Vec<String> {
    let (scope, operator) = match text.find("operator") {
        Some(i) => (&text[..i], Some(&text[i..])),
        None => (text, None),
    };
    let mut segments = Vec::new();
    let mut current = String::new();
    let mut depth = 0usize;
    // Whether a word ended at depth 0: a further word means what came before was a return type
    // the grammar took into the name, as a macro before it makes it do
    // (`YAML_CPP_API std::vector<Node> LoadAll(…)` read `std::vector<Node> LoadAll` as one
    // qualified name: `std.vectorLoadAll`).
    let mut spaced = false;
    let mut chars = scope.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '<' => depth += 1,
            '>' => {
                depth = depth.saturating_sub(1);
                spaced = false;
            }
            ':' if depth == 0 && chars.peek() == Some(&':') => {
                chars.next();
                segments.push(std::mem::take(&mut current));
                spaced = false;
            }
            _ if depth == 0 && c.is_whitespace() => spaced = true,
            _ if depth == 0 => {
                if spaced && (c.is_alphanumeric() || c == '_' || c == '~') {
                    segments.clear();
                    current.clear();
                }
                spaced = false;
                current.push(c);
            }
            _ => {}
        }
    }
    if let Some(operator) = operator {
        current.push_str(&crate::text::collapse(operator));
    }
    segments.push(current);
    segments.retain(|s| !s.is_empty());
    segments
}

#[cfg(test)]
mod tests {
    #[test]
    fn qualified_names() {
        assert_eq!(super::split_qualified("a::B<T, U>::f"), ["a", "B", "f"]);
        assert_eq!(
            super::split_qualified("Parser::~Parser"),
            ["Parser", "~Parser"]
        );
        assert_eq!(super::split_qualified("::g"), ["g"]);
        // A return type the grammar read into the name, after an export macro.
        assert_eq!(
            super::split_qualified("std::vector<Node> LoadAll"),
            ["LoadAll"]
        );
        assert_eq!(
            super::split_qualified("std::map<K, V> Table::rows"),
            ["Table", "rows"]
        );
        assert_eq!(super::split_qualified("A::operator<"), ["A", "operator<"]);
    }
}
