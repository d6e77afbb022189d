//! TypeScript and TSX: the JavaScript tags query, then the TypeScript one (which alone
//! misses plain functions), then extra patterns; judged by the JavaScript logic.

use std::borrow::Cow;

use tree_sitter::Node;

use super::javascript::{self, BUILTINS};
use super::{Def, Info, LanguageSupport, Parent};

/// TypeScript support; `tsx` selects the TSX grammar.
pub(crate) struct TypeScript {
    /// Whether the source may contain JSX.
    pub tsx: bool,
}

impl LanguageSupport for TypeScript {
    fn grammar(&self) -> tree_sitter::Language {
        if self.tsx {
            tree_sitter_typescript::LANGUAGE_TSX.into()
        } else {
            tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into()
        }
    }

    fn tags_query(&self) -> Cow<'static, str> {
        let tsx = if self.tsx {
            include_str!("../queries/tsx-tags.scm")
        } else {
            ""
        };
        Cow::Owned(format!(
            "{}\n{}\n{}\n{}\n{tsx}",
            tree_sitter_javascript::TAGS_QUERY,
            tree_sitter_typescript::TAGS_QUERY,
            include_str!("../queries/ecma-tags.scm"),
            include_str!("../queries/typescript-tags.scm")
        ))
    }

    fn imports_query(&self) -> &'static str {
        include_str!("../queries/javascript-imports.scm")
    }

    fn outer<'t>(&self, node: Node<'t>) -> Node<'t> {
        javascript::outer(node)
    }

    fn describe<'t>(
        &self,
        def: &Def<'_, 't>,
        parent: Option<&Parent<'_, 't>>,
        source: &[u8],
    ) -> Option<Info<'t>> {
        javascript::describe(def, parent, source)
    }

    fn is_builtin(&self, name: &str) -> bool {
        BUILTINS.contains(&name) || TS_BUILTINS.contains(&name)
    }

    fn is_hole(&self, node: Node<'_>) -> bool {
        super::is_extra(node) || matches!(node.kind(), "comment" | "decorator")
    }
}

/// Utility types and the like.
const TS_BUILTINS: &[&str] = &[
    "Partial",
    "Required",
    "Readonly",
    "Record",
    "Pick",
    "Omit",
    "Exclude",
    "Extract",
    "NonNullable",
    "ReturnType",
    "Parameters",
    "InstanceType",
    "Awaited",
    "Array",
    "ReadonlyArray",
    "Promise",
    "PromiseLike",
    "Iterable",
    "AsyncIterable",
];
