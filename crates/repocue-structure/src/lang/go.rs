//! Go: functions, methods (named `Receiver.Method`), types, fields, package-level
//! constants and variables. Exported means capitalised.

use std::borrow::Cow;

use tree_sitter::Node;

use super::{node_text, Def, Info, LanguageSupport, Parent};

/// Go support.
pub(crate) struct Go;

impl LanguageSupport for Go {
    fn members_need_a_value(&self) -> bool {
        true
    }

    fn grammar(&self) -> tree_sitter::Language {
        tree_sitter_go::LANGUAGE.into()
    }

    fn tags_query(&self) -> Cow<'static, str> {
        Cow::Owned(format!(
            "{}\n{}",
            tree_sitter_go::TAGS_QUERY,
            include_str!("../queries/go-tags.scm")
        ))
    }

    fn imports_query(&self) -> &'static str {
        include_str!("../queries/go-imports.scm")
    }

    /// A spec that is alone in its declaration covers the keyword too: `type X struct`.
    fn outer<'t>(&self, node: Node<'t>) -> Node<'t> {
        if matches!(
            node.kind(),
            "type_spec" | "type_alias" | "const_spec" | "var_spec"
        ) {
            if let Some(parent) = node.parent() {
                let declaration = matches!(
                    parent.kind(),
                    "type_declaration" | "const_declaration" | "var_declaration"
                );
                if declaration && super::named_children_but_extras(parent) == 1 {
                    return parent;
                }
            }
        }
        node
    }

    fn describe<'t>(
        &self,
        def: &Def<'_, 't>,
        parent: Option<&Parent<'_, 't>>,
        source: &[u8],
    ) -> Option<Info<'t>> {
        let node = def.node;
        let upper = |name: &str| name.chars().next().is_some_and(char::is_uppercase);
        // The blank identifier names nothing (`var _ Router = &Mux{}` asserts an interface),
        // and no code can call a package's `init`: neither is a definition anyone looks up.
        if def.name == "_" || (def.name == "init" && node.kind() == "function_declaration") {
            return None;
        }
        let info = match node.kind() {
            "function_declaration" => Info::new("function").body(node.child_by_field_name("body")),
            "method_declaration" => {
                let mut info = Info::new("method").body(node.child_by_field_name("body"));
                info.receiver = receiver_type(node, source);
                info
            }
            "type_spec" => {
                let ty = node.child_by_field_name("type");
                match ty.map(|t| t.kind()) {
                    Some("struct_type") => Info::new("struct").body(
                        ty.and_then(|t| super::child_of_kind(t, &["field_declaration_list"])),
                    ),
                    Some("interface_type") => {
                        let mut info = Info::new("interface");
                        info.cut = ty.and_then(|t| open_brace(t)).map(|b| b.start_byte());
                        info
                    }
                    _ => Info::new("type"),
                }
            }
            "type_alias" => Info::new("type"),
            "const_spec" => Info::new("constant"),
            "var_spec" => Info::new("variable"),
            // A member of a type written inside a function (`var c interface{ Any(string) }`
            // in zap's `Any`, a test table's `[]struct{ name string }`) is no definition of
            // the package: it was a method `Any.Any` of the function.
            "field_declaration" | "type_elem" | "method_elem" if in_function_body(node) => {
                return None
            }
            "field_declaration" | "type_elem" => Info::new("field"),
            "method_elem" => Info::new("method"),
            _ => return None,
        };
        // A method or field of an unexported type is no API of its package, whatever its own
        // name (`func (s byName) Len() int` sorts; nobody outside calls it by name, nor sets
        // the `Name` of cobra's `cmdOption`, a YAML document's row).
        let exported = upper(def.name)
            && info.receiver.as_deref().is_none_or(upper)
            && parent.is_none_or(|p| upper(p.name));
        let visibility = Some(if exported { "exported" } else { "private" });
        let mut info = info.visibility(visibility);
        // A field of several names (`Done, Total int`) reads as its own (`Total int`): two
        // identical lines said nothing of which field a delta added.
        if node.kind() == "field_declaration" {
            let mut cursor = node.walk();
            let names: Vec<Node> = node.children_by_field_name("name", &mut cursor).collect();
            if let (Some(first), Some(last)) = (names.first(), names.last()) {
                if names.len() > 1 {
                    let all = source
                        .get(first.start_byte()..last.end_byte())
                        .unwrap_or(&[]);
                    let all = String::from_utf8_lossy(all).into_owned();
                    info.restart = Some((all.into(), def.name.to_owned().into()));
                }
            }
        }
        // A spec of a group (`type ( … )`) says what it declares only through the group.
        info.keyword = match node.parent().map(|p| p.kind()) {
            Some("type_declaration") => Some("type"),
            Some("var_declaration" | "var_spec_list") => Some("var"),
            Some("const_declaration") => Some("const"),
            _ => None,
        };
        Some(info)
    }

    fn is_builtin(&self, name: &str) -> bool {
        BUILTINS.contains(&name)
    }

    /// A selector or a qualified type whose package is the name a standard-library import binds (`context` of
    /// `"context"`, `http` of `"net/http"`, `rand` of `"math/rand/v2"`): the standard library's
    /// paths have no dot in their first element, a module's always do. chi's `mux.go` was a
    /// user of its own `middleware.WithValue` through `context.WithValue`, viper's every file of
    /// its `New` through `errors.New`. A local variable of the package's name shadows it
    /// rarely enough.
    fn names_a_foreign_package(&self, name: Node<'_>, source: &[u8], imports: &[String]) -> bool {
        // `context.WithValue(…)` and the type `context.Context`.
        let operand = name.parent().and_then(|p| match p.kind() {
            "selector_expression" => p
                .child_by_field_name("operand")
                .filter(|o| o.kind() == "identifier"),
            "qualified_type" => p.child_by_field_name("package"),
            _ => None,
        });
        let Some(operand) = operand else {
            return false;
        };
        let package = node_text(operand, source);
        imports.iter().any(|path| {
            let standard = !path.split('/').next().unwrap_or("").contains('.');
            standard && package_name(path) == package
        })
    }

    /// A `//go:build` line above the package clause that names, not negated, a tag no
    /// platform or toolchain sets (`dedupelabels`: Prometheus's opt-in `Labels`, whose `New`
    /// was its first central symbol; `integration`), or `ignore` (a generator run by hand).
    fn built_on_request(&self, source: &[u8]) -> bool {
        let head = &source[..source.len().min(4096)];
        let text = String::from_utf8_lossy(head);
        let Some(constraint) = text
            .lines()
            .take_while(|l| !l.trim_start().starts_with("package "))
            .find_map(|l| l.trim().strip_prefix("//go:build "))
        else {
            return false;
        };
        let mut negated = false;
        let mut word = String::new();
        let mut requested = false;
        for c in constraint.chars().chain(std::iter::once(' ')) {
            if c.is_alphanumeric() || c == '_' || c == '.' {
                word.push(c);
                continue;
            }
            if !word.is_empty() {
                requested |= !negated && !is_platform_tag(&word);
                word.clear();
                negated = false;
            }
            if c == '!' {
                negated = true;
            } else if !c.is_whitespace() {
                negated = false;
            }
        }
        requested
    }
}

/// Whether a build tag is one a platform or the toolchain sets: an operating system, an
/// architecture, `unix`, `cgo`, a compiler, a Go release (`go1.21`).
/// The name an import of `path` binds when it has no alias: its last element, or the one
/// before a major version (`math/rand/v2` binds `rand`).
fn package_name(path: &str) -> &str {
    let mut parts = path.rsplit('/');
    let last = parts.next().unwrap_or(path);
    let version =
        last.len() > 1 && last.starts_with('v') && last[1..].bytes().all(|b| b.is_ascii_digit());
    match parts.next() {
        Some(before) if version => before,
        _ => last,
    }
}

fn is_platform_tag(tag: &str) -> bool {
    const SET: &[&str] = &[
        "aix",
        "android",
        "darwin",
        "dragonfly",
        "freebsd",
        "hurd",
        "illumos",
        "ios",
        "js",
        "linux",
        "nacl",
        "netbsd",
        "openbsd",
        "plan9",
        "solaris",
        "wasip1",
        "windows",
        "zos",
        "386",
        "amd64",
        "amd64p32",
        "arm",
        "arm64",
        "arm64be",
        "armbe",
        "loong64",
        "mips",
        "mips64",
        "mips64le",
        "mips64p32",
        "mips64p32le",
        "mipsle",
        "ppc",
        "ppc64",
        "ppc64le",
        "riscv",
        "riscv64",
        "s390",
        "s390x",
        "sparc",
        "sparc64",
        "wasm",
        "unix",
        "cgo",
        "gc",
        "gccgo",
        "purego",
        "race",
        "msan",
        "asan",
    ];
    SET.contains(&tag)
        || tag
            .strip_prefix("go1.")
            .is_some_and(|v| v.parse::<u32>().is_ok())
}

/// The `{` token of a node.
fn open_brace(node: Node<'_>) -> Option<Node<'_>> {
    let mut cursor = node.walk();
    let found = node.children(&mut cursor).find(|c| c.kind() == "{");
    found
}

/// `Parser` for `func (p *Parser[T]) …`.
fn receiver_type(method: Node<'_>, source: &[u8]) -> Option<String> {
    let receiver = method.child_by_field_name("receiver")?;
    let parameter = super::child_of_kind(receiver, &["parameter_declaration"])?;
    let mut ty = parameter.child_by_field_name("type")?;
    loop {
        ty = match ty.kind() {
            "pointer_type" => ty.named_child(0)?,
            "generic_type" => ty.child_by_field_name("type")?,
            _ => break,
        };
    }
    Some(node_text(ty, source).into_owned())
}

/// Predeclared types and functions.
const BUILTINS: &[&str] = &[
    "bool",
    "byte",
    "rune",
    "string",
    "error",
    "any",
    "comparable",
    "int",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "uintptr",
    "float32",
    "float64",
    "complex64",
    "complex128",
    "append",
    "cap",
    "clear",
    "close",
    "complex",
    "copy",
    "delete",
    "imag",
    "len",
    "make",
    "max",
    "min",
    "new",
    "panic",
    "print",
    "println",
    "real",
    "recover",
];

/// Whether a member's type is written inside a function's body, before any declared type
/// holds it.
fn in_function_body(node: Node<'_>) -> bool {
    let mut at = node.parent();
    while let Some(n) = at {
        match n.kind() {
            "type_spec" | "type_alias" | "source_file" => return false,
            "block" | "func_literal" => return true,
            _ => at = n.parent(),
        }
    }
    false
}
