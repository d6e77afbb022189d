//! C (and the logic shared with C++): functions, prototypes, structs/unions/enums,
//! typedefs, macros, fields, enumerators and file-scope variables.

use std::borrow::Cow;

use tree_sitter::Node;

use super::{has_token, Def, Info, LanguageSupport, Parent};

/// C support.
pub(crate) struct C;

impl LanguageSupport for C {
    fn grammar(&self) -> tree_sitter::Language {
        tree_sitter_c::LANGUAGE.into()
    }

    fn tags_query(&self) -> Cow<'static, str> {
        Cow::Owned(format!(
            "{}\n{}",
            tree_sitter_c::TAGS_QUERY,
            include_str!("../queries/c-tags.scm")
        ))
    }

    fn imports_query(&self) -> &'static str {
        include_str!("../queries/c-imports.scm")
    }

    fn outer<'t>(&self, node: Node<'t>) -> Node<'t> {
        outer(node)
    }

    fn names<'t>(&self, node: Node<'t>) -> Vec<Node<'t>> {
        names(node)
    }

    fn describe<'t>(
        &self,
        def: &Def<'_, 't>,
        parent: Option<&Parent<'_, 't>>,
        source: &[u8],
    ) -> Option<Info<'t>> {
        describe(def, parent, source)
    }

    fn is_hole(&self, node: Node<'_>) -> bool {
        super::is_extra(node) || node.kind() == "comment" || node.kind() == "attribute_specifier"
    }
}

/// A function declarator widens to its definition or declaration; anything else to a
/// wrapping `template<…>` (C++).
pub(super) fn outer(node: Node<'_>) -> Node<'_> {
    let mut outer = node;
    if node.kind() == "function_declarator" {
        let mut current = node;
        while let Some(parent) = current.parent() {
            if !parent.kind().ends_with("declarator") {
                // Inside an ERROR or another odd spot, the declarator stands alone.
                if DECLARATIONS.contains(&parent.kind()) {
                    outer = parent;
                }
                break;
            }
            current = parent;
        }
    }
    while let Some(parent) = outer.parent() {
        if parent.kind() != "template_declaration" {
            break;
        }
        outer = parent;
    }
    outer
}

/// Nodes that hold a function declarator as a whole declaration.
const DECLARATIONS: &[&str] = &[
    "function_definition",
    "declaration",
    "field_declaration",
    "parameter_declaration",
    "type_definition",
];

/// C and C++ keywords, which a misparse around preprocessor conditionals can turn into
/// "function" names (`else if (x) {` split by `#if`).
const KEYWORDS: &[&str] = &[
    "if", "else", "for", "while", "do", "switch", "case", "return", "sizeof", "goto", "break",
    "continue", "default", "typedef", "struct", "union", "enum", "static", "extern", "const",
];

/// The names declared by a declaration, field declaration or typedef.
pub(super) fn names(node: Node<'_>) -> Vec<Node<'_>> {
    let typedef = node.kind() == "type_definition";
    let mut cursor = node.walk();
    let declarators: Vec<Node> = node
        .children_by_field_name("declarator", &mut cursor)
        .collect();
    let mut names: Vec<Node> = declarators
        .iter()
        .filter_map(|d| declarator_name(*d, typedef))
        .collect();
    // `__IO uint32_t CONTROL;`: an unknown qualifier macro makes the parser take the type
    // for the name and leave the real name in an ERROR node right after it.
    if let [single] = names.as_mut_slice() {
        let recovered = single
            .next_sibling()
            .filter(|e| e.kind() == "ERROR" && e.named_child_count() == 1)
            .and_then(|e| e.named_child(0))
            .filter(|n| {
                matches!(
                    n.kind(),
                    "identifier" | "field_identifier" | "type_identifier"
                )
            });
        if let Some(name) = recovered {
            *single = name;
        }
    }
    names
}

/// Follows a declarator down to its name. A plain function declarator yields nothing
/// outside typedefs (functions are captured on their own); a function *pointer* does.
fn declarator_name(mut node: Node<'_>, typedef: bool) -> Option<Node<'_>> {
    loop {
        node = match node.kind() {
            "identifier" | "field_identifier" | "type_identifier" => return Some(node),
            "function_declarator" => {
                let inner = node.child_by_field_name("declarator")?;
                if !typedef && inner.kind() != "parenthesized_declarator" {
                    return None;
                }
                inner
            }
            "parenthesized_declarator" => node.named_child(0)?,
            _ => match node.child_by_field_name("declarator") {
                Some(inner) => inner,
                None => {
                    node.named_child(u32::try_from(node.named_child_count().checked_sub(1)?).ok()?)?
                }
            },
        };
    }
}

/// Whether `node` sits inside a function body: its nearest ancestor that is not a
/// preprocessor conditional is a statement rather than a file, namespace, `extern "C"`
/// or class scope. (Only a few `parent()` calls, each of which costs a walk from the root.)
fn in_function(node: Node<'_>) -> bool {
    let mut current = node.parent();
    while let Some(n) = current {
        match n.kind() {
            "preproc_if"
            | "preproc_ifdef"
            | "preproc_else"
            | "preproc_elif"
            | "preproc_elifdef"
            | "template_declaration" => current = n.parent(),
            "translation_unit" | "declaration_list" | "field_declaration_list" | "ERROR" => {
                return false
            }
            _ => return true,
        }
    }
    false
}

/// The name a `typedef` gives, when it gives one plainly (`} point;`, not `} *point_p;`).
fn typedef_name<'s>(node: Node<'_>, source: &'s [u8]) -> Option<std::borrow::Cow<'s, str>> {
    if node.kind() != "type_definition" {
        return None;
    }
    let declarator = node.child_by_field_name("declarator")?;
    (declarator.kind() == "type_identifier").then(|| super::node_text(declarator, source))
}

/// The C/C++ judgement of one definition.
pub(super) fn describe<'t>(
    def: &Def<'_, 't>,
    parent: Option<&Parent<'_, 't>>,
    source: &[u8],
) -> Option<Info<'t>> {
    let node = def.node;
    let outer = def.outer;
    let is_static = has_token(outer, source, "static");
    let file_visibility = if is_static { Some("private") } else { None };
    let body = node.child_by_field_name("body");
    let info = match node.kind() {
        "function_declarator" => {
            // The function_definition/declaration, looking through `template<…>`.
            let declaration = if outer.kind() == "template_declaration" {
                super::child_of_kind(
                    outer,
                    &["function_definition", "declaration", "field_declaration"],
                )?
            } else {
                outer
            };
            let misplaced = matches!(
                declaration.kind(),
                "parameter_declaration" | "type_definition"
            );
            let local = in_function(outer) && declaration.kind() != "function_definition";
            if misplaced || local || KEYWORDS.contains(&def.name) {
                return None; // a parameter, a function typedef, a block-scope prototype
            }
            let in_type = parent.is_some_and(|p| matches!(p.kind, "class" | "struct" | "impl"));
            let mut info = Info::new(if in_type { "method" } else { "function" })
                .visibility(file_visibility)
                .body(declaration.child_by_field_name("body"));
            info.prototype = matches!(declaration.kind(), "declaration" | "field_declaration");
            // C++ constructors: leave the member initialiser list out too.
            if let Some(init) = super::child_of_kind(declaration, &["field_initializer_list"]) {
                info.cut = Some(init.start_byte());
            }
            info
        }
        "struct_specifier" | "union_specifier" | "class_specifier" | "enum_specifier" => {
            body?;
            // `typedef struct point {…} point;` is one definition: the typedef's.
            if node
                .parent()
                .is_some_and(|p| typedef_name(p, source).as_deref() == Some(def.name))
            {
                return None;
            }
            let kind = match node.kind() {
                "class_specifier" => "class",
                "enum_specifier" => "enum",
                _ => "struct",
            };
            Info::new(kind).body(body)
        }
        "type_definition" | "alias_declaration" => {
            let inner = node.child_by_field_name("type");
            let inner_body = inner.and_then(|t| t.child_by_field_name("body"));
            let mut info = Info::new("type").body(inner_body);
            // `typedef struct tag {…} name;` – the struct is a symbol of its own, beside it;
            // with `name` its tag too, the typedef holds the fields (jq's `block` was `block`
            // and `block#2`, with fields `block#2.first`).
            let tag = inner.and_then(|t| t.child_by_field_name("name"));
            info.leaf = tag.is_some_and(|t| super::node_text(t, source) != def.name);
            info
        }
        "preproc_def" | "preproc_function_def" => {
            let value = node.child_by_field_name("value");
            let multi_line = value.is_some_and(|v| v.start_position().row != v.end_position().row);
            Info::new("macro").body(value.filter(|_| multi_line))
        }
        "enumerator" => Info::new("constant"),
        "field_declaration" => Info::new("field"),
        "declaration" => {
            if def.tag != "variable" || in_function(node) {
                return None;
            }
            let mut info = Info::new("variable").visibility(file_visibility);
            info.prototype = has_token(node, source, "extern");
            let value = def
                .name_node
                .parent()
                .filter(|p| p.kind().ends_with("declarator"))
                .and_then(|p| init_value(p));
            info.body = value.filter(|v| v.start_position().row != v.end_position().row);
            info.leaf = true;
            // `static struct { rio *rio; robj *key; } rdbstate;`: the fields of a struct with
            // no name are the variable's (Redis's were top-level symbols `key` and `rio`).
            let anonymous = node
                .child_by_field_name("type")
                .filter(|t| matches!(t.kind(), "struct_specifier" | "union_specifier"))
                .filter(|t| t.child_by_field_name("name").is_none())
                .and_then(|t| t.child_by_field_name("body"));
            if let Some(fields) = anonymous {
                info.body = Some(fields);
                info.leaf = false;
            }
            info
        }
        _ => return None,
    };
    // A name with a double underscore is the implementation's, reserved by the language
    // (`__x`) or marked so by the project (libuv's `struct uv__work` and `UV__ERR` in its
    // public headers took three of its overview's five symbols).
    let reserved = def.name.contains("__");
    Some(match info.visibility {
        None if reserved => info.visibility(Some("internal")),
        _ => info,
    })
}

/// The initialiser of the `init_declarator` at or above `node`.
fn init_value(mut node: Node<'_>) -> Option<Node<'_>> {
    loop {
        if node.kind() == "init_declarator" {
            return node.child_by_field_name("value");
        }
        node = node.parent().filter(|p| p.kind().ends_with("declarator"))?;
    }
}
