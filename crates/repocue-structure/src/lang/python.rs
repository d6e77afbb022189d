//! Python: classes, functions/methods, module constants and class attributes.

use std::borrow::Cow;

use tree_sitter::Node;

use super::{node_text, underscore_private, Def, Info, LanguageSupport, Parent};

/// Python support.
pub(crate) struct Python;

impl LanguageSupport for Python {
    fn grammar(&self) -> tree_sitter::Language {
        tree_sitter_python::LANGUAGE.into()
    }

    fn tags_query(&self) -> Cow<'static, str> {
        Cow::Owned(format!(
            "{}\n{}",
            tree_sitter_python::TAGS_QUERY,
            include_str!("../queries/python-tags.scm")
        ))
    }

    fn imports_query(&self) -> &'static str {
        include_str!("../queries/python-imports.scm")
    }

    fn describe<'t>(
        &self,
        def: &Def<'_, 't>,
        parent: Option<&Parent<'_, 't>>,
        source: &[u8],
    ) -> Option<Info<'t>> {
        let node = def.node;
        if node.kind() == "function_definition" && is_superseded(node, def.name, source) {
            return None;
        }
        // What a function defines inside it (click's `sort_key` in
        // `iter_params_for_processing`) is that function's own, no part of the module's API.
        let local = parent.is_some_and(|p| matches!(p.kind, "function" | "method"));
        let visibility = Some(
            if underscore_private(def.name)
                || local
                || is_type_parameter(node, source)
                || in_main_block(node, source)
                || is_module_logger(node, source)
            {
                "private"
            } else {
                "public"
            },
        );
        let body = node.child_by_field_name("body");
        let kind = match node.kind() {
            // A name a script's `if __name__ == "__main__":` block binds is that run's local,
            // never imported: rich's demo `table = Table()` blocks came second in `search
            // Table`, before its methods.
            "assignment" if in_main_block(node, source) => return None,
            // `__all__` lists the module's API; it is none of it. A name an `except` clause
            // binds that its `try` imports or binds is the fallback for what failed
            // (requests' `import chardet` … `chardet = None`), no definition of the module's.
            "assignment" if def.name == "__all__" || is_fallback(node, def.name, source) => {
                return None
            }
            "function_definition" if parent.is_some_and(|p| p.kind == "class") => "method",
            "function_definition" => "function",
            "class_definition" => "class",
            "assignment" if def.tag == "field" => "field",
            "assignment" if is_constant_name(def.name) => "constant",
            "assignment" => "variable",
            _ => return None,
        };
        let mut info = Info::new(kind).visibility(visibility).body(body);
        // The `@overload`s an implementation supersedes are what its callers read: a change
        // to one of them is a change of the function (requests' `HTTPBasicAuth.__init__`).
        if node.kind() == "function_definition" {
            info.unseen =
                super::declarations_hash(overloads_before(node, def.name, source), source);
        }
        // How a method is reached, which its `def` does not say: werkzeug's `Request.form` is a
        // `@cached_property`, read as `request.form`, not called.
        if kind == "method" {
            info.keyword = decorators(node, source).iter().find_map(|d| {
                let last = d.rsplit('.').next().unwrap_or(d);
                match last {
                    "property" => Some("@property"),
                    "cached_property" => Some("@cached_property"),
                    "staticmethod" => Some("@staticmethod"),
                    "classmethod" => Some("@classmethod"),
                    _ => None,
                }
            });
        }
        Some(info)
    }

    fn imports(&self, node: Node<'_>, source: &[u8], out: &mut Vec<String>) {
        let text = node_text(node, source);
        // `from . import a, b` names sibling modules: `.a`, `.b`.
        if node.kind() == "relative_import" && text.chars().all(|c| c == '.') {
            if let Some(statement) = node.parent() {
                let mut cursor = statement.walk();
                for name in statement.children_by_field_name("name", &mut cursor) {
                    let name = match name.kind() {
                        "aliased_import" => name.child_by_field_name("name").unwrap_or(name),
                        _ => name,
                    };
                    out.push(format!("{text}{}", node_text(name, source)));
                }
                return;
            }
        }
        out.push(text.into_owned());
    }

    fn is_builtin(&self, name: &str) -> bool {
        BUILTINS.contains(&name)
    }

    /// `__all__` is what `from package import *` takes, and what the package offers.
    fn exports_list_is_all(&self) -> bool {
        true
    }
}

/// Whether an assignment declares a type parameter, `T = TypeVar("T")` (or `ParamSpec`,
/// `TypeVarTuple`, qualified or not): a name generic signatures share, not part of the
/// module's API (click's `R`, starlette's `P` were listed among the names a module exports).
fn is_type_parameter(node: Node<'_>, source: &[u8]) -> bool {
    let Some(call) = node
        .child_by_field_name("right")
        .filter(|r| r.kind() == "call")
    else {
        return false;
    };
    let Some(function) = call.child_by_field_name("function") else {
        return false;
    };
    let name = node_text(function, source);
    let last = name.rsplit('.').next().unwrap_or_default();
    matches!(last, "TypeVar" | "ParamSpec" | "TypeVarTuple")
}

/// The decorators of a definition, as written without `@` and without a comment after them
/// (`overload`, `name.setter`; pydantic writes `@overload  # type: ignore`).
fn decorators(node: Node<'_>, source: &[u8]) -> Vec<String> {
    let Some(decorated) = node.parent().filter(|p| p.kind() == "decorated_definition") else {
        return Vec::new();
    };
    let mut cursor = decorated.walk();
    decorated
        .named_children(&mut cursor)
        .filter(|c| c.kind() == "decorator")
        .map(|d| {
            let mut inner = d.walk();
            let expression = d.named_children(&mut inner).find(|e| e.kind() != "comment");
            node_text(expression.unwrap_or(d), source)
                .trim_start_matches('@')
                .trim()
                .to_owned()
        })
        .collect()
}

/// Whether a function is a facet of another definition of its name: a property's setter or
/// deleter (`@name.setter`), or an `@overload` stub that an implementation follows in the same
/// body. Each was a symbol of its own (`Response.iter_content` named the first stub and the
/// implementation was `iter_content#3`, requests' `models.py`); a stub file's overloads, with
/// no implementation, stay.
fn is_superseded(node: Node<'_>, name: &str, source: &[u8]) -> bool {
    let own = decorators(node, source);
    let accessor = own
        .iter()
        .any(|d| d == &format!("{name}.setter") || d == &format!("{name}.deleter"));
    let overload = |d: &[String]| {
        d.iter()
            .any(|d| d == "overload" || d.ends_with(".overload"))
    };
    if accessor {
        return true;
    }
    if !overload(&own) {
        return false;
    }
    let statement = node
        .parent()
        .filter(|p| p.kind() == "decorated_definition")
        .unwrap_or(node);
    let mut next = statement.next_named_sibling();
    while let Some(n) = next {
        next = n.next_named_sibling();
        let function = match n.kind() {
            "function_definition" => Some(n),
            "decorated_definition" => n.child_by_field_name("definition"),
            _ => None,
        };
        let Some(f) = function.filter(|f| f.kind() == "function_definition") else {
            continue;
        };
        let same = f
            .child_by_field_name("name")
            .is_some_and(|n| node_text(n, source) == name);
        if same && !overload(&decorators(f, source)) {
            return true;
        }
    }
    false
}

/// Whether `node` binds `name` in an `except` clause that catches a failed import
/// (`except ImportError:`, requests' `OpenSSL = None`), or whose `try` names it too (imports or
/// binds it): the fallback of what the `try` did.
fn is_fallback(node: Node<'_>, name: &str, source: &[u8]) -> bool {
    let mut at = node.parent();
    while let Some(n) = at {
        match n.kind() {
            "except_clause" => {
                let caught = n
                    .named_child(0)
                    .filter(|c| c.kind() != "block")
                    .map(|c| node_text(c, source));
                if caught
                    .is_some_and(|c| c.contains("ImportError") || c.contains("ModuleNotFoundError"))
                {
                    return true;
                }
                let body = n
                    .parent()
                    .filter(|t| t.kind() == "try_statement")
                    .and_then(|t| t.child_by_field_name("body"));
                return body.is_some_and(|b| {
                    let text = node_text(b, source);
                    let word = |c: char| c.is_alphanumeric() || c == '_';
                    text.match_indices(name).any(|(i, _)| {
                        !text[..i].chars().next_back().is_some_and(word)
                            && !text[i + name.len()..].chars().next().is_some_and(word)
                    })
                });
            }
            "function_definition" | "class_definition" => return false,
            _ => at = n.parent(),
        }
    }
    false
}

/// The parameters and return types of the `@overload` declarations of `name` right before the
/// definition `node`, nearest first.
fn overloads_before<'t>(node: Node<'t>, name: &str, source: &[u8]) -> Vec<Node<'t>> {
    let statement = node
        .parent()
        .filter(|p| p.kind() == "decorated_definition")
        .unwrap_or(node);
    let mut out = Vec::new();
    let mut previous = statement.prev_named_sibling();
    while let Some(p) = previous {
        previous = p.prev_named_sibling();
        if p.kind() == "comment" {
            continue;
        }
        let function = (p.kind() == "decorated_definition")
            .then(|| p.child_by_field_name("definition"))
            .flatten()
            .filter(|f| f.kind() == "function_definition");
        let overload = function.is_some_and(|f| {
            f.child_by_field_name("name")
                .is_some_and(|n| node_text(n, source) == name)
                && decorators(f, source)
                    .iter()
                    .any(|d| d == "overload" || d.ends_with(".overload"))
        });
        let Some(f) = function.filter(|_| overload) else {
            break;
        };
        // What a caller reads of it: its parameters and return type, not a docstring.
        out.extend(
            ["parameters", "return_type"]
                .iter()
                .filter_map(|field| f.child_by_field_name(field)),
        );
    }
    out
}

/// Whether a definition is inside an `if __name__ == "__main__":` block: what the module
/// runs as a script (rich's `traceback.py` defines demo functions `foo` and `bar` there), no
/// part of what it offers an importer.
fn in_main_block(node: Node<'_>, source: &[u8]) -> bool {
    let mut at = node.parent();
    while let Some(n) = at {
        if n.kind() == "if_statement" {
            let condition = n
                .child_by_field_name("condition")
                .map(|c| node_text(c, source));
            if condition.is_some_and(|c| c.contains("__name__") && c.contains("__main__")) {
                return true;
            }
        }
        at = n.parent();
    }
    false
}

/// `MAX_SIZE`, `DEFAULT` (upper case, digits and underscores, at least one letter).
fn is_constant_name(name: &str) -> bool {
    name.chars().any(|c| c.is_ascii_uppercase())
        && name
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
}

/// Builtin functions and types.
const BUILTINS: &[&str] = &[
    "print",
    "len",
    "range",
    "str",
    "int",
    "float",
    "bool",
    "bytes",
    "list",
    "dict",
    "set",
    "tuple",
    "frozenset",
    "object",
    "type",
    "isinstance",
    "issubclass",
    "super",
    "open",
    "enumerate",
    "zip",
    "map",
    "filter",
    "sorted",
    "reversed",
    "min",
    "max",
    "sum",
    "any",
    "all",
    "abs",
    "round",
    "repr",
    "hash",
    "id",
    "iter",
    "next",
    "getattr",
    "setattr",
    "hasattr",
    "delattr",
    "callable",
    "vars",
    "dir",
    "format",
    "input",
    "chr",
    "ord",
    "hex",
    "divmod",
    "Exception",
    "ValueError",
    "TypeError",
    "KeyError",
    "IndexError",
    "RuntimeError",
    "NotImplementedError",
    "AttributeError",
    "OSError",
    "StopIteration",
    "None",
    "property",
    "staticmethod",
    "classmethod",
];

/// Whether an assignment binds the module's logger (`log = logging.getLogger(__name__)`, as
/// nearly every module of urllib3 does): the module's own, no API, however public its name.
fn is_module_logger(node: Node<'_>, source: &[u8]) -> bool {
    node.kind() == "assignment"
        && node
            .child_by_field_name("right")
            .filter(|v| v.kind() == "call")
            .and_then(|call| call.child_by_field_name("function"))
            .is_some_and(|f| {
                let text = node_text(f, source);
                text == "getLogger" || text.ends_with(".getLogger")
            })
}
