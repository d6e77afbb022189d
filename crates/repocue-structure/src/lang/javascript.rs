//! JavaScript (and the shared JavaScript/TypeScript logic): functions, classes, methods,
//! fields, top-level variables; `export` makes a symbol `exported`.

use std::borrow::Cow;

use tree_sitter::Node;

use super::{node_text, Def, Info, LanguageSupport, Parent};

/// JavaScript support.
pub(crate) struct JavaScript;

impl LanguageSupport for JavaScript {
    fn grammar(&self) -> tree_sitter::Language {
        tree_sitter_javascript::LANGUAGE.into()
    }

    fn tags_query(&self) -> Cow<'static, str> {
        Cow::Owned(format!(
            "{}\n{}\n{}",
            tree_sitter_javascript::TAGS_QUERY,
            include_str!("../queries/ecma-tags.scm"),
            include_str!("../queries/javascript-tags.scm")
        ))
    }

    fn imports_query(&self) -> &'static str {
        include_str!("../queries/javascript-imports.scm")
    }

    fn outer<'t>(&self, node: Node<'t>) -> Node<'t> {
        outer(node)
    }

    fn describe<'t>(
        &self,
        def: &Def<'_, 't>,
        parent: Option<&Parent<'_, 't>>,
        source: &[u8],
    ) -> Option<Info<'t>> {
        describe(def, parent, source)
    }

    fn is_builtin(&self, name: &str) -> bool {
        BUILTINS.contains(&name)
    }

    fn is_hole(&self, node: Node<'_>) -> bool {
        super::is_extra(node) || matches!(node.kind(), "comment" | "decorator")
    }
}

/// Widens a definition to its declaration statement and any `export`/`declare` around it.
pub(super) fn outer(node: Node<'_>) -> Node<'_> {
    let mut outer = node;
    if node.kind() == "variable_declarator" {
        match node.parent() {
            Some(p) if super::named_children_but_extras(p) == 1 => outer = p,
            _ => return node,
        }
    }
    while let Some(parent) = outer.parent() {
        if !matches!(parent.kind(), "export_statement" | "ambient_declaration") {
            break;
        }
        outer = parent;
    }
    outer
}

/// The JavaScript/TypeScript judgement of one definition.
pub(super) fn describe<'t>(
    def: &Def<'_, 't>,
    _parent: Option<&Parent<'_, 't>>,
    source: &[u8],
) -> Option<Info<'t>> {
    let node = def.node;
    let body = node.child_by_field_name("body");
    let member_visibility = || {
        if def.name.starts_with('#') {
            return Some("private");
        }
        let modifier = super::child_of_kind(node, &["accessibility_modifier"]);
        Some(match modifier.map(|m| node_text(m, source)) {
            Some(m) if m == "private" => "private",
            Some(m) if m == "protected" => "protected",
            _ => "public",
        })
    };
    let exported = is_exported(def.outer);
    let visibility = if exported { Some("exported") } else { None };
    // A named function assigned or bound (`app.init = function init() {}`, `const f =
    // function f() {}`, `{ key: function key() {} }`) is the definition the assignment
    // makes; its own name made a second, nested under the first (express listed `init` and
    // `init.init` for each method of `app`).
    let bound = node.parent().is_some_and(|p| {
        matches!(
            p.kind(),
            "assignment_expression" | "variable_declarator" | "pair" | "public_field_definition"
        )
    });
    // But a module's export of a named function (`module.exports = function noopSet () {}`) is
    // that function: the assignment would name it `exports`, and a delta said `removed
    // exports`, `removed exports.add` for fastify's `noop-set.js`.
    let exported_whole = |assignment: Node<'_>| {
        assignment.kind() == "assignment_expression"
            && assignment
                .child_by_field_name("left")
                .is_some_and(|l| node_text(l, source) == "module.exports")
    };
    if matches!(
        node.kind(),
        "function_expression" | "generator_function" | "function"
    ) && bound
        && !node.parent().is_some_and(exported_whole)
    {
        return None;
    }
    if exported_whole(node)
        && node
            .child_by_field_name("right")
            .filter(|f| {
                matches!(
                    f.kind(),
                    "function_expression" | "generator_function" | "function"
                )
            })
            .is_some_and(|f| f.child_by_field_name("name").is_some())
    {
        return None;
    }
    // A method signature is a member of the interface or type alias whose body holds it, not
    // of an object type deeper in a member's type: fastify's `schemaController?: { bucket?:
    // () => { add(schema): … } }` made `add` a symbol of `fastify.d.ts`'s top level, and the
    // one its overview showed for the file.
    if matches!(
        node.kind(),
        "method_signature" | "abstract_method_signature"
    ) && !node.parent().is_some_and(|body| match body.kind() {
        "interface_body" | "class_body" => true,
        "object_type" => body
            .parent()
            .is_some_and(|t| t.kind() == "type_alias_declaration"),
        _ => false,
    }) {
        return None;
    }
    // A property descriptor's accessors are how a property is read, not functions of the
    // module (fastify's `Object.defineProperties(Request.prototype, { url: { get () { … } } })`
    // listed fifteen `get ()`, and `fastify.get#2` … `#11` beside its route method `get`).
    if matches!(node.kind(), "method_definition" | "pair")
        && node.parent().is_some_and(|o| in_descriptor(o, source))
    {
        return None;
    }
    // A function in an object handed to a call is that call's argument, an option or a
    // callback, no definition of the module: yargs's `YargsFactory({argv: () => process.argv})`
    // listed `argv: () =>` in its overview. Not `Object.freeze({…})`, which only seals what
    // the module defines.
    if node.kind() == "pair" && node.parent().is_some_and(|o| is_call_argument(o, source)) {
        return None;
    }
    let info = match node.kind() {
        "function_declaration"
        | "generator_function_declaration"
        | "function_expression"
        | "generator_function"
        | "function_signature" => Info::new("function").visibility(visibility).body(body),
        "method_definition" | "method_signature" | "abstract_method_signature" => {
            Info::new("method")
                .visibility(member_visibility())
                .body(body)
        }
        "class_declaration" | "class" | "abstract_class_declaration" => {
            Info::new("class").visibility(visibility).body(body)
        }
        "interface_declaration" => Info::new("interface").visibility(visibility).body(body),
        "enum_declaration" => Info::new("enum").visibility(visibility).body(body),
        "type_alias_declaration" => Info::new("type").visibility(visibility),
        "module" | "internal_module" => Info::new("module").visibility(visibility).body(body),
        // A field holding a function is a method (a React class component's
        // `handleClick = (e: Event): void => { … }`): its parameters are its signature, not
        // a value to hide.
        "field_definition" | "public_field_definition" => {
            let value = node.child_by_field_name("value");
            match value.map(|v| v.kind()) {
                Some("arrow_function" | "function_expression" | "function") => Info::new("method")
                    .visibility(member_visibility())
                    .body(value.and_then(|v| v.child_by_field_name("body"))),
                _ => Info::new("field").visibility(member_visibility()),
            }
        }
        "property_signature" => Info::new("field").visibility(Some("public")),
        "property_identifier" | "enum_assignment" => Info::new("constant"),
        "variable_declarator" => {
            let value = node.child_by_field_name("value");
            match value.map(|v| v.kind()) {
                Some(
                    "arrow_function" | "function_expression" | "function" | "generator_function",
                ) => Info::new("function")
                    .visibility(visibility)
                    .body(value.and_then(|v| v.child_by_field_name("body"))),
                // `const x = require("x")` (or `require("x").y`) binds what another module
                // defines: an import, not a definition of this one (express's
                // `var parse = require('parseurl')` in `request.js`).
                _ if value.is_some_and(|v| is_require(v, source)) => return None,
                _ => {
                    let constant = node
                        .parent()
                        .is_some_and(|d| super::has_token(d, source, "const"));
                    // A value cast to a type keeps the type in the signature (its value is
                    // hidden all the same): `export const createApp = … as CreateAppFunction`.
                    let cast = value.is_some_and(|v| {
                        matches!(v.kind(), "as_expression" | "satisfies_expression")
                    });
                    Info::new(if constant { "constant" } else { "variable" })
                        .visibility(visibility)
                        .body(
                            value.filter(|v| {
                                !cast && v.start_position().row != v.end_position().row
                            }),
                        )
                }
            }
        }
        "assignment_expression" | "pair" => {
            let value = node.child_by_field_name(if node.kind() == "pair" {
                "value"
            } else {
                "right"
            });
            let body = value.and_then(|v| v.child_by_field_name("body"));
            // `Reply.prototype.send = function (payload) { … }` defines a method of `Reply`
            // (fastify's and express's were top-level functions `send`, and `Reply` had no
            // members).
            match prototype_owner(node, source) {
                Some(owner) => {
                    let mut info = Info::new("method").body(body);
                    info.receiver = Some(owner);
                    info
                }
                None => Info::new("function").body(body),
            }
        }
        "export_statement" => Info::new("constant").visibility(Some("exported")),
        _ => return None,
    };
    Some(info)
}

/// The type an assignment to `Type.prototype.name` defines a method of.
fn prototype_owner(node: Node<'_>, source: &[u8]) -> Option<String> {
    if node.kind() != "assignment_expression" {
        return None;
    }
    let left = node.child_by_field_name("left")?;
    let object = left.child_by_field_name("object")?;
    let prototype = object.child_by_field_name("property")?;
    if left.kind() != "member_expression"
        || object.kind() != "member_expression"
        || node_text(prototype, source) != "prototype"
    {
        return None;
    }
    let owner = object.child_by_field_name("object")?;
    (owner.kind() == "identifier").then(|| node_text(owner, source).into_owned())
}

/// Whether an object literal is an argument of a call of anything but `Object`'s functions.
fn is_call_argument(object: Node<'_>, source: &[u8]) -> bool {
    callee(object).is_some_and(|f| !node_text(f, source).starts_with("Object."))
}

/// The function called with an object literal as an argument, if it is one.
fn callee(object: Node<'_>) -> Option<Node<'_>> {
    object
        .parent()
        .filter(|a| a.kind() == "arguments")
        .and_then(|a| a.parent())
        .filter(|c| c.kind() == "call_expression")
        .and_then(|c| c.child_by_field_name("function"))
}

/// Whether an object literal holds a property's accessors: a property descriptor
/// ([`is_property_descriptor`]), or a value of the object `Object.defineProperties` takes,
/// where each key names a property and each value describes it (a lone `{ value: f }` too).
fn in_descriptor(object: Node<'_>, source: &[u8]) -> bool {
    if is_property_descriptor(object, source) {
        return true;
    }
    let Some(properties) = object
        .parent()
        .filter(|p| p.kind() == "pair")
        .and_then(|p| p.parent())
    else {
        return false;
    };
    callee(properties).is_some_and(|f| node_text(f, source) == "Object.defineProperties")
}

/// Whether an object literal is a property descriptor: each of its keys is one a descriptor
/// has (`get`, `set`, `value`, `enumerable`, `configurable`, `writable`), and one besides
/// `value` (a lone `{ value: f }` may be any options object).
fn is_property_descriptor(object: Node<'_>, source: &[u8]) -> bool {
    if object.kind() != "object" {
        return false;
    }
    let mut cursor = object.walk();
    let keys: Vec<String> = object
        .named_children(&mut cursor)
        .filter(|c| c.kind() != "comment")
        .map(|c| match c.kind() {
            "pair" => c
                .child_by_field_name("key")
                .map_or_else(String::new, |k| node_text(k, source).into_owned()),
            _ => String::new(),
        })
        .collect();
    const DESCRIPTOR: &[&str] = &[
        "get",
        "set",
        "value",
        "enumerable",
        "configurable",
        "writable",
    ];
    keys.iter().all(|k| DESCRIPTOR.contains(&k.as_str())) && keys.iter().any(|k| k != "value")
}

/// Whether a value is a CommonJS `require(…)` call, or a member of one.
fn is_require(value: Node<'_>, source: &[u8]) -> bool {
    match value.kind() {
        "call_expression" => value
            .child_by_field_name("function")
            .is_some_and(|f| f.kind() == "identifier" && node_text(f, source) == "require"),
        "member_expression" => value
            .child_by_field_name("object")
            .is_some_and(|o| is_require(o, source)),
        _ => false,
    }
}

/// Whether `outer` is (inside) an `export` statement.
fn is_exported(outer: Node<'_>) -> bool {
    outer.kind() == "export_statement"
        || outer
            .parent()
            .is_some_and(|p| p.kind() == "export_statement")
}

/// Globals of the language and its common runtimes.
pub(super) const BUILTINS: &[&str] = &[
    "require",
    "console",
    "Object",
    "Array",
    "String",
    "Number",
    "Boolean",
    "Symbol",
    "BigInt",
    "Error",
    "TypeError",
    "RangeError",
    "Promise",
    "Map",
    "Set",
    "WeakMap",
    "WeakSet",
    "JSON",
    "Math",
    "Date",
    "RegExp",
    "parseInt",
    "parseFloat",
    "isNaN",
    "isFinite",
    "setTimeout",
    "clearTimeout",
    "setInterval",
    "clearInterval",
    "encodeURIComponent",
    "decodeURIComponent",
    "structuredClone",
    "fetch",
    "super",
];
