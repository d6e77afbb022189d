//! Bash and POSIX shells: functions; `source`/`.` files as imports; commands as
//! references.

use std::borrow::Cow;

use tree_sitter::Node;

use super::{Def, Info, LanguageSupport, Parent};

/// Shell support.
pub(crate) struct Bash;

impl LanguageSupport for Bash {
    fn grammar(&self) -> tree_sitter::Language {
        tree_sitter_bash::LANGUAGE.into()
    }

    fn tags_query(&self) -> Cow<'static, str> {
        Cow::Borrowed(include_str!("../queries/bash-tags.scm"))
    }

    fn imports_query(&self) -> &'static str {
        include_str!("../queries/bash-imports.scm")
    }

    fn describe<'t>(
        &self,
        def: &Def<'_, 't>,
        _parent: Option<&Parent<'_, 't>>,
        _source: &[u8],
    ) -> Option<Info<'t>> {
        let node = def.node;
        (node.kind() == "function_definition")
            .then(|| Info::new("function").body(node.child_by_field_name("body")))
    }

    fn is_builtin(&self, name: &str) -> bool {
        BUILTINS.contains(&name)
    }

    fn is_hole(&self, node: Node<'_>) -> bool {
        node.kind() == "comment"
    }
}

/// Shell builtins and keywords used as commands.
const BUILTINS: &[&str] = &[
    "echo",
    "printf",
    "read",
    "set",
    "unset",
    "export",
    "local",
    "declare",
    "typeset",
    "readonly",
    "cd",
    "pwd",
    "exit",
    "return",
    "shift",
    "source",
    "eval",
    "exec",
    "trap",
    "test",
    "true",
    "false",
    "wait",
    "let",
    "getopts",
    "command",
    "builtin",
    "type",
    "hash",
    "ulimit",
    "umask",
    "alias",
    "unalias",
    "break",
    "continue",
    "pushd",
    "popd",
    "dirs",
    "jobs",
    "kill",
    "mapfile",
    "readarray",
    "shopt",
];
