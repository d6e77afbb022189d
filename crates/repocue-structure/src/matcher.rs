//! A tree-pattern matcher for the part of the tree-sitter query language our queries use.
//!
//! `tree_sitter::Query::new` analyses the grammar's whole parse table for every parent node
//! a pattern names, so compiling one language's query costs 10–120 ms (C about 12 ms,
//! TypeScript 60–90, Ruby 100–120) — in every process that extracts one file of that language,
//! which is most of a one-file refresh. This module reads the same query text in
//! microseconds and matches it by walking the tree. It knows node patterns with fields,
//! negated fields, `(_)` and `_` wildcards, anonymous `"token"` nodes, alternations,
//! groups around one pattern, the `.` anchor, captures, and the text predicates `#eq?`,
//! `#not-eq?`, `#match?`, `#not-match?`, `#any-of?` and `#not-any-of?` (property predicates
//! such as `#is-not? local` are ignored, as the query cursor ignores them). Anything else
//! (quantifiers, sibling sequences) is a compile error, and the caller falls back to
//! tree-sitter's own query.
//!
//! Semantics follow tree-sitter's: a pattern can match at any node; its child patterns
//! match distinct children in order, other children in between (unless anchored); every
//! assignment of children gives its own match, and identical matches are reported once.

use std::collections::HashSet;
use std::num::NonZeroU16;

use tree_sitter::{Language, Node};

/// One capture of a match: the capture's index in [`Matcher::capture_names`] and its node.
pub(crate) type Capture<'t> = (u32, Node<'t>);

/// A compiled query.
pub(crate) struct Matcher {
    patterns: Vec<Pattern>,
    capture_names: Vec<String>,
    /// Pattern indices by the kind id of the node they can start at, in pattern order
    /// (patterns with a wildcard at their root are listed under every kind).
    by_kind: Vec<Vec<u32>>,
}

struct Pattern {
    root: Pat,
    predicates: Vec<Predicate>,
}

#[derive(Debug)]
enum KindTest {
    /// Any named node (`(_)`).
    AnyNamed,
    /// Any node (`_`).
    Any,
    /// One of these kind ids (the ids a grammar gives one name, aliases included).
    Ids(Vec<u16>),
}

enum Pat {
    Node {
        kind: KindTest,
        children: Vec<Child>,
        /// Fields the node must not have (`!source`).
        absent: Vec<NonZeroU16>,
        /// The last child pattern must match the last named child (`(a (b) .)`).
        anchored_end: bool,
        captures: Vec<u32>,
    },
    Alternation {
        options: Vec<Pat>,
        captures: Vec<u32>,
    },
}

struct Child {
    field: Option<NonZeroU16>,
    /// An anchor before this child: the first named child, or the named sibling right after
    /// the previous child's match.
    anchored: bool,
    pat: Pat,
}

enum Predicate {
    Eq {
        capture: u32,
        value: Operand,
        positive: bool,
    },
    Match {
        capture: u32,
        regex: regex::Regex,
        positive: bool,
    },
    AnyOf {
        capture: u32,
        values: Vec<String>,
        positive: bool,
    },
}

enum Operand {
    Text(String),
    Capture(u32),
}

impl Matcher {
    /// Compiles `source` for `grammar`; an error names what this matcher does not support.
    pub(crate) fn new(grammar: &Language, source: &str) -> Result<Matcher, String> {
        let tokens = tokenize(source)?;
        let mut parser = QueryParser {
            tokens,
            at: 0,
            grammar,
            capture_names: Vec::new(),
        };
        let mut patterns = Vec::new();
        while parser.at < parser.tokens.len() {
            let mut predicates = Vec::new();
            let root = parser.item(&mut predicates)?;
            patterns.push(Pattern { root, predicates });
        }
        let kinds = grammar.node_kind_count();
        let mut by_kind = vec![Vec::new(); kinds];
        let mut anywhere = Vec::new();
        for (index, pattern) in patterns.iter().enumerate() {
            let index = u32::try_from(index).map_err(|_| "too many patterns".to_string())?;
            let mut ids = Vec::new();
            if root_kinds(&pattern.root, &mut ids) {
                anywhere.push(index);
            } else {
                ids.sort_unstable();
                ids.dedup();
                for id in ids {
                    by_kind
                        .get_mut(usize::from(id))
                        .ok_or_else(|| format!("kind id {id} out of range"))?
                        .push(index);
                }
            }
        }
        for list in &mut by_kind {
            list.extend(&anywhere);
            list.sort_unstable();
        }
        Ok(Matcher {
            patterns,
            capture_names: parser.capture_names,
            by_kind,
        })
    }

    pub(crate) fn capture_names(&self) -> &[String] {
        &self.capture_names
    }

    /// Calls `each` with every match in the tree under `root` (`root` included), in
    /// pre-order of the node a match starts at, then pattern order. `step` is called once
    /// per node visited and per child tried, so the caller can meter the work; a `false`
    /// from it stops the walk.
    pub(crate) fn matches<'t>(
        &self,
        root: Node<'t>,
        source: &[u8],
        step: &mut dyn FnMut() -> bool,
        each: &mut dyn FnMut(u32, &[Capture<'t>]),
    ) {
        let mut cursor = root.walk();
        let mut found: Vec<Vec<Capture<'t>>> = Vec::new();
        let mut children = Vec::new();
        loop {
            if !step() {
                return;
            }
            let node = cursor.node();
            let listed = self
                .by_kind
                .get(usize::from(node.kind_id()))
                .map(Vec::as_slice)
                .unwrap_or_default();
            for &index in listed {
                let pattern = &self.patterns[index as usize];
                found.clear();
                let mut ctx = Ctx {
                    step: &mut *step,
                    stopped: false,
                    children: &mut children,
                };
                match_pat(&pattern.root, node, &mut Vec::new(), &mut found, &mut ctx);
                if ctx.stopped {
                    return;
                }
                // A hash set: a pattern such as `(translation_unit (declaration) @d)` finds
                // one match per top-level declaration at one node (thousands in a C file).
                let mut seen: HashSet<Vec<(u32, usize)>> = HashSet::new();
                for captures in &found {
                    if !pattern.predicates.iter().all(|p| p.holds(captures, source)) {
                        continue;
                    }
                    let mut key: Vec<(u32, usize)> =
                        captures.iter().map(|(c, n)| (*c, n.id())).collect();
                    key.sort_unstable();
                    if seen.insert(key) {
                        each(index, captures);
                    }
                }
            }
            if cursor.goto_first_child() {
                continue;
            }
            loop {
                if cursor.node() == root {
                    return;
                }
                if cursor.goto_next_sibling() {
                    break;
                }
                if !cursor.goto_parent() {
                    return;
                }
            }
        }
    }
}

/// Adds the kind ids a pattern can start at; true when it can start anywhere.
fn root_kinds(pat: &Pat, ids: &mut Vec<u16>) -> bool {
    match pat {
        Pat::Node { kind, .. } => match kind {
            KindTest::Ids(list) => {
                ids.extend(list);
                false
            }
            KindTest::AnyNamed | KindTest::Any => true,
        },
        Pat::Alternation { options, .. } => {
            let mut any = false;
            for option in options {
                any |= root_kinds(option, ids);
            }
            any
        }
    }
}

struct Ctx<'s, 'c, 't> {
    step: &'s mut dyn FnMut() -> bool,
    stopped: bool,
    children: &'c mut Vec<(Node<'t>, Option<NonZeroU16>)>,
}

impl Ctx<'_, '_, '_> {
    fn tick(&mut self) -> bool {
        if !self.stopped && !(self.step)() {
            self.stopped = true;
        }
        !self.stopped
    }
}

/// Pushes onto `out` every capture list (each extending `bound`) with which `pat` matches
/// `node`.
fn match_pat<'t>(
    pat: &Pat,
    node: Node<'t>,
    bound: &mut Vec<Capture<'t>>,
    out: &mut Vec<Vec<Capture<'t>>>,
    ctx: &mut Ctx<'_, '_, 't>,
) {
    match pat {
        Pat::Alternation { options, captures } => {
            let mark = bound.len();
            bound.extend(captures.iter().map(|&c| (c, node)));
            for option in options {
                match_pat(option, node, bound, out, ctx);
            }
            bound.truncate(mark);
        }
        Pat::Node {
            kind,
            children,
            absent,
            anchored_end,
            captures,
        } => {
            let kind_ok = match kind {
                // As in tree-sitter, a wildcard never matches an `ERROR` node.
                KindTest::Any => !node.is_error(),
                KindTest::AnyNamed => node.is_named() && !node.is_error(),
                KindTest::Ids(ids) => ids.contains(&node.kind_id()),
            };
            if !kind_ok
                || absent
                    .iter()
                    .any(|&f| node.child_by_field_id(f.get()).is_some())
            {
                return;
            }
            let mark = bound.len();
            bound.extend(captures.iter().map(|&c| (c, node)));
            if children.is_empty() {
                out.push(bound.clone());
            } else {
                let start = ctx.children.len();
                let mut cursor = node.walk();
                if cursor.goto_first_child() {
                    loop {
                        ctx.children.push((cursor.node(), cursor.field_id()));
                        if !cursor.goto_next_sibling() {
                            break;
                        }
                    }
                }
                let end = ctx.children.len();
                match_children(children, *anchored_end, start, end, None, bound, out, ctx);
                ctx.children.truncate(start);
            }
            bound.truncate(mark);
        }
    }
}

/// Matches `steps` against the children `ctx.children[from..end]` (the node's children
/// begin at `first`); `previous` is the index the previous step matched.
#[allow(clippy::too_many_arguments)]
fn match_children<'t>(
    steps: &[Child],
    anchored_end: bool,
    first: usize,
    end: usize,
    previous: Option<usize>,
    bound: &mut Vec<Capture<'t>>,
    out: &mut Vec<Vec<Capture<'t>>>,
    ctx: &mut Ctx<'_, '_, 't>,
) {
    let Some((step, rest)) = steps.split_first() else {
        if anchored_end {
            let last = previous.unwrap_or(first);
            if ctx.children[last + 1..end]
                .iter()
                .any(|(n, _)| n.is_named())
            {
                return;
            }
        }
        out.push(bound.clone());
        return;
    };
    let from = previous.map_or(first, |p| p + 1);
    for at in from..end {
        if !ctx.tick() {
            return;
        }
        let (child, field) = ctx.children[at];
        if step.anchored && ctx.children[from..at].iter().any(|(n, _)| n.is_named()) {
            return;
        }
        if step.field.is_some() && field != step.field {
            continue;
        }
        let mut matched = Vec::new();
        match_pat(&step.pat, child, bound, &mut matched, ctx);
        for captures in matched {
            let mut extended = captures;
            match_children(
                rest,
                anchored_end,
                first,
                end,
                Some(at),
                &mut extended,
                out,
                ctx,
            );
        }
    }
}

impl Predicate {
    fn holds(&self, captures: &[Capture<'_>], source: &[u8]) -> bool {
        let text = |capture: u32| -> Vec<&[u8]> {
            captures
                .iter()
                .filter(|(c, _)| *c == capture)
                .map(|(_, n)| source.get(n.byte_range()).unwrap_or_default())
                .collect()
        };
        match self {
            Predicate::Eq {
                capture,
                value,
                positive,
            } => text(*capture).iter().all(|t| {
                let equal = match value {
                    Operand::Text(s) => *t == s.as_bytes(),
                    Operand::Capture(other) => text(*other).iter().all(|o| o == t),
                };
                equal == *positive
            }),
            Predicate::Match {
                capture,
                regex,
                positive,
            } => text(*capture).iter().all(|t| {
                let found = std::str::from_utf8(t).is_ok_and(|s| regex.is_match(s));
                found == *positive
            }),
            Predicate::AnyOf {
                capture,
                values,
                positive,
            } => text(*capture)
                .iter()
                .all(|t| values.iter().any(|v| v.as_bytes() == *t) == *positive),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Open,
    Close,
    OpenAlt,
    CloseAlt,
    Anchor,
    Capture(String),
    Field(String),
    Negated(String),
    Text(String),
    Word(String),
}

fn tokenize(source: &str) -> Result<Vec<Token>, String> {
    let mut tokens = Vec::new();
    let mut chars = source.char_indices().peekable();
    let word_char = |c: char| c.is_alphanumeric() || "_-.?!#".contains(c);
    while let Some((at, c)) = chars.next() {
        match c {
            c if c.is_whitespace() => {}
            ';' => while chars.next_if(|&(_, c)| c != '\n').is_some() {},
            '(' => tokens.push(Token::Open),
            ')' => tokens.push(Token::Close),
            '[' => tokens.push(Token::OpenAlt),
            ']' => tokens.push(Token::CloseAlt),
            '.' => tokens.push(Token::Anchor),
            '"' => {
                let mut text = String::new();
                loop {
                    match chars.next() {
                        None => return Err(format!("unterminated string at {at}")),
                        Some((_, '"')) => break,
                        Some((_, '\\')) => match chars.next() {
                            Some((_, 'n')) => text.push('\n'),
                            Some((_, 't')) => text.push('\t'),
                            Some((_, c)) => text.push(c),
                            None => return Err(format!("unterminated string at {at}")),
                        },
                        Some((_, c)) => text.push(c),
                    }
                }
                tokens.push(Token::Text(text));
            }
            '@' | '!' => {
                let mut name = String::new();
                while let Some((_, c)) = chars.next_if(|&(_, c)| word_char(c)) {
                    name.push(c);
                }
                if name.is_empty() {
                    return Err(format!("'{c}' without a name at {at}"));
                }
                tokens.push(if c == '@' {
                    Token::Capture(name)
                } else {
                    Token::Negated(name)
                });
            }
            c if word_char(c) => {
                let mut word = String::from(c);
                while let Some((_, c)) = chars.next_if(|&(_, c)| word_char(c)) {
                    word.push(c);
                }
                if chars.next_if(|&(_, c)| c == ':').is_some() {
                    tokens.push(Token::Field(word));
                } else {
                    tokens.push(Token::Word(word));
                }
            }
            other => return Err(format!("unsupported '{other}' at {at}")),
        }
    }
    Ok(tokens)
}

struct QueryParser<'g> {
    tokens: Vec<Token>,
    at: usize,
    grammar: &'g Language,
    capture_names: Vec<String>,
}

impl QueryParser<'_> {
    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.at)
    }

    fn peek2(&self) -> Option<&Token> {
        self.tokens.get(self.at + 1)
    }

    fn next(&mut self) -> Result<Token, String> {
        let token = self
            .tokens
            .get(self.at)
            .cloned()
            .ok_or_else(|| "unexpected end of query".to_string())?;
        self.at += 1;
        Ok(token)
    }

    fn capture(&mut self, name: &str) -> u32 {
        let index = match self.capture_names.iter().position(|n| n == name) {
            Some(i) => i,
            None => {
                self.capture_names.push(name.to_string());
                self.capture_names.len() - 1
            }
        };
        u32::try_from(index).unwrap_or(u32::MAX)
    }

    /// The captures after a pattern.
    fn captures(&mut self) -> Vec<u32> {
        let mut captures = Vec::new();
        while let Some(Token::Capture(name)) = self.peek().cloned() {
            self.at += 1;
            captures.push(self.capture(&name));
        }
        captures
    }

    fn field(&self, name: &str) -> Result<NonZeroU16, String> {
        self.grammar
            .field_id_for_name(name)
            .ok_or_else(|| format!("unknown field {name}"))
    }

    fn kind(&self, name: &str, named: bool) -> Result<KindTest, String> {
        if name == "_" {
            return Ok(if named {
                KindTest::AnyNamed
            } else {
                KindTest::Any
            });
        }
        let count = u16::try_from(self.grammar.node_kind_count()).unwrap_or(u16::MAX);
        let ids: Vec<u16> = (0..count)
            .filter(|&id| {
                self.grammar.node_kind_for_id(id) == Some(name)
                    && self.grammar.node_kind_is_named(id) == named
                    && self.grammar.node_kind_is_visible(id)
            })
            .collect();
        if !ids.is_empty() {
            return Ok(KindTest::Ids(ids));
        }
        // A supertype (`(type)` in C#) is hidden in the tree: it matches the visible nodes
        // it stands for.
        let mut ids = Vec::new();
        let mut pending: Vec<u16> = self
            .grammar
            .supertypes()
            .iter()
            .copied()
            .filter(|&id| self.grammar.node_kind_for_id(id) == Some(name))
            .collect();
        let mut seen = Vec::new();
        while let Some(id) = pending.pop() {
            if seen.contains(&id) {
                continue;
            }
            seen.push(id);
            for &sub in self.grammar.subtypes_for_supertype(id) {
                if self.grammar.node_kind_is_supertype(sub) {
                    pending.push(sub);
                } else if self.grammar.node_kind_is_visible(sub) {
                    ids.push(sub);
                }
            }
        }
        if ids.is_empty() {
            return Err(format!("no visible node kind {name:?}"));
        }
        ids.sort_unstable();
        ids.dedup();
        Ok(KindTest::Ids(ids))
    }

    /// One pattern (with the captures after it); predicates go to `predicates`.
    fn item(&mut self, predicates: &mut Vec<Predicate>) -> Result<Pat, String> {
        match self.next()? {
            Token::Open => {
                if matches!(self.peek(), Some(Token::Word(w)) if !w.starts_with('#')) {
                    self.node(predicates)
                } else {
                    self.group(predicates)
                }
            }
            Token::OpenAlt => {
                let mut options = Vec::new();
                while self.peek() != Some(&Token::CloseAlt) {
                    options.push(self.item(predicates)?);
                }
                self.at += 1;
                let captures = self.captures();
                Ok(Pat::Alternation { options, captures })
            }
            Token::Text(text) => {
                let kind = self.kind(&text, false)?;
                let captures = self.captures();
                Ok(Pat::Node {
                    kind,
                    children: Vec::new(),
                    absent: Vec::new(),
                    anchored_end: false,
                    captures,
                })
            }
            Token::Word(word) if word == "_" => {
                let captures = self.captures();
                Ok(Pat::Node {
                    kind: KindTest::Any,
                    children: Vec::new(),
                    absent: Vec::new(),
                    anchored_end: false,
                    captures,
                })
            }
            other => Err(format!("unsupported {other:?} where a pattern starts")),
        }
    }

    /// `( kind children… )` after its `(`.
    fn node(&mut self, predicates: &mut Vec<Predicate>) -> Result<Pat, String> {
        let Token::Word(name) = self.next()? else {
            return Err("a node pattern without a kind".into());
        };
        let kind = self.kind(&name, true)?;
        let mut children = Vec::new();
        let mut absent = Vec::new();
        let mut anchored = false;
        let mut anchored_end = false;
        loop {
            match self.peek().cloned() {
                Some(Token::Close) => {
                    self.at += 1;
                    break;
                }
                Some(Token::Anchor) => {
                    self.at += 1;
                    if self.peek() == Some(&Token::Close) {
                        anchored_end = true;
                    } else {
                        anchored = true;
                    }
                }
                Some(Token::Negated(field)) => {
                    self.at += 1;
                    absent.push(self.field(&field)?);
                }
                Some(Token::Open) if matches!(self.peek2(), Some(Token::Word(w)) if w.starts_with('#')) =>
                {
                    self.at += 1;
                    predicates.extend(self.predicate()?);
                }
                Some(Token::Field(field)) => {
                    self.at += 1;
                    let field = Some(self.field(&field)?);
                    let pat = self.item(predicates)?;
                    children.push(Child {
                        field,
                        anchored: std::mem::take(&mut anchored),
                        pat,
                    });
                }
                Some(_) => {
                    let pat = self.item(predicates)?;
                    children.push(Child {
                        field: None,
                        anchored: std::mem::take(&mut anchored),
                        pat,
                    });
                }
                None => return Err(format!("unclosed ({name}")),
            }
        }
        if anchored_end && children.is_empty() {
            return Err("an anchor without a child".into());
        }
        let captures = self.captures();
        Ok(Pat::Node {
            kind,
            children,
            absent,
            anchored_end,
            captures,
        })
    }

    /// `( pattern predicates… )` after its `(`: one pattern, grouped with its predicates.
    fn group(&mut self, predicates: &mut Vec<Predicate>) -> Result<Pat, String> {
        let mut inner = None;
        loop {
            match self.peek() {
                Some(Token::Close) => {
                    self.at += 1;
                    break;
                }
                Some(Token::Open) if matches!(self.peek2(), Some(Token::Word(w)) if w.starts_with('#')) =>
                {
                    self.at += 1;
                    predicates.extend(self.predicate()?);
                }
                Some(_) => {
                    if inner.is_some() {
                        return Err("sibling sequences are not supported".into());
                    }
                    inner = Some(self.item(predicates)?);
                }
                None => return Err("unclosed group".into()),
            }
        }
        let mut pat = inner.ok_or("an empty group")?;
        let extra = self.captures();
        match &mut pat {
            Pat::Node { captures, .. } | Pat::Alternation { captures, .. } => {
                captures.extend(extra)
            }
        }
        Ok(pat)
    }

    /// `#name? args… )` after its `(`; `None` for property predicates.
    fn predicate(&mut self) -> Result<Option<Predicate>, String> {
        let Token::Word(name) = self.next()? else {
            return Err("a predicate without a name".into());
        };
        let mut args = Vec::new();
        loop {
            match self.next()? {
                Token::Close => break,
                token => args.push(token),
            }
        }
        let capture_arg = |parser: &mut Self, arg: Option<&Token>| match arg {
            Some(Token::Capture(c)) => Ok(parser.capture(c)),
            _ => Err(format!("{name} needs a capture first")),
        };
        let positive = !name.starts_with("#not-");
        let predicate = match name.as_str() {
            "#eq?" | "#not-eq?" => {
                let capture = capture_arg(self, args.first())?;
                let value = match args.get(1) {
                    Some(Token::Text(t)) => Operand::Text(t.clone()),
                    Some(Token::Capture(c)) => Operand::Capture(self.capture(c)),
                    _ => return Err(format!("{name} needs a second argument")),
                };
                Predicate::Eq {
                    capture,
                    value,
                    positive,
                }
            }
            "#match?" | "#not-match?" => {
                let capture = capture_arg(self, args.first())?;
                let Some(Token::Text(pattern)) = args.get(1) else {
                    return Err(format!("{name} needs a pattern"));
                };
                let regex = regex::Regex::new(pattern).map_err(|e| e.to_string())?;
                Predicate::Match {
                    capture,
                    regex,
                    positive,
                }
            }
            "#any-of?" | "#not-any-of?" => {
                let capture = capture_arg(self, args.first())?;
                let values = args[1..]
                    .iter()
                    .map(|a| match a {
                        Token::Text(t) => Ok(t.clone()),
                        _ => Err(format!("{name} takes strings")),
                    })
                    .collect::<Result<_, _>>()?;
                Predicate::AnyOf {
                    capture,
                    values,
                    positive,
                }
            }
            "#is?" | "#is-not?" | "#set!" => return Ok(None),
            other => return Err(format!("unsupported predicate {other}")),
        };
        Ok(Some(predicate))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tree_sitter::{Parser, Query, QueryCursor, StreamingIterator};

    fn python() -> Language {
        tree_sitter_python::LANGUAGE.into()
    }

    /// Every match as `pattern: capture=start..end …`, sorted, from both engines.
    fn both(query: &str, source: &str) -> (Vec<String>, Vec<String>) {
        let grammar = python();
        let mut parser = Parser::new();
        parser.set_language(&grammar).expect("grammar");
        let tree = parser.parse(source, None).expect("tree");
        let ours = Matcher::new(&grammar, query).expect("our matcher reads the query");
        let mut a = Vec::new();
        ours.matches(
            tree.root_node(),
            source.as_bytes(),
            &mut || true,
            &mut |p, captures| {
                let mut parts: Vec<String> = captures
                    .iter()
                    .map(|(c, n)| {
                        format!("{}={:?}", ours.capture_names()[*c as usize], n.byte_range())
                    })
                    .collect();
                parts.sort();
                a.push(format!("{p}: {}", parts.join(" ")));
            },
        );
        let theirs = Query::new(&grammar, query).expect("tree-sitter reads the query");
        let mut cursor = QueryCursor::new();
        let mut matches = cursor.matches(&theirs, tree.root_node(), source.as_bytes());
        let mut b = Vec::new();
        while let Some(m) = matches.next() {
            let mut parts: Vec<String> = m
                .captures()
                .iter()
                .map(|c| {
                    format!(
                        "{}={:?}",
                        theirs.capture_names()[c.index as usize],
                        c.node.byte_range()
                    )
                })
                .collect();
            parts.sort();
            b.push(format!("{}: {}", m.pattern_index, parts.join(" ")));
        }
        a.sort();
        a.dedup();
        b.sort();
        b.dedup();
        (a, b)
    }

    const SOURCE: &str = "import os, sys\n\
from a import b as c\n\
def f(x, y=1, *args):\n    return g(x, y)\n\n\
def h():\n    pass\n\n\
class K(Base, Mixin):\n    z = 1\n    def m(self):\n        return self.z\n\
f(1)\ng(g)\nos.path.join('a', 'b')\n";

    #[test]
    fn features_our_shipped_queries_do_not_use_yet_match_like_tree_sitter() {
        for query in [
            // The anchor before the first and after the last child, and between two.
            "(parameters . (identifier) @first)",
            "(parameters (_) @last .)",
            "(argument_list (identifier) @a . (identifier) @b)",
            // A negated field, an anonymous wildcard, alternations with a capture.
            "(function_definition !return_type name: (identifier) @name)",
            "(import_statement _ @any)",
            "[(class_definition name: (_) @n) (function_definition name: (_) @n)] @def",
            // Predicates: two captures compared, a list, negated forms.
            "((call function: (identifier) @f arguments: (argument_list (identifier) @a)) (#eq? @f @a))",
            "((identifier) @i (#any-of? @i \"os\" \"sys\"))",
            "((identifier) @i (#not-any-of? @i \"x\" \"y\" \"self\"))",
            "((identifier) @i (#match? @i \"^[A-Z]\"))",
            // Every assignment of children is its own match.
            "(argument_list (_) @x (_) @y)",
        ] {
            let (ours, theirs) = both(query, SOURCE);
            assert!(!theirs.is_empty(), "{query} matches nothing: a useless case");
            assert_eq!(ours, theirs, "{query}");
        }
    }

    #[test]
    fn what_the_matcher_cannot_read_is_an_error_for_tree_sitter_to_take() {
        for query in [
            "(parameters (identifier)* @all)",
            "(parameters (identifier)+ @all)",
            "(parameters (identifier)? @one)",
            "((identifier) @a (identifier) @b)",
            "((identifier) @i (#unknown? @i))",
            "(no_such_kind) @x",
            "(call nosuchfield: (_) @x)",
        ] {
            assert!(Matcher::new(&python(), query).is_err(), "{query}");
        }
    }
}
