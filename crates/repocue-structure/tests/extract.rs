//! Integration tests: one fixture per language with every definition spelled out, plus
//! signatures without comments, guards, garbage input and determinism.

use std::path::PathBuf;
use std::time::Duration;

use repocue_structure::{
    detect_language, extract, ExtractError, FileFacts, Language, Limits, Symbol,
};

fn fixture_path(file: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(file)
}

fn read_fixture(file: &str) -> Vec<u8> {
    std::fs::read(fixture_path(file)).unwrap_or_else(|e| panic!("reading {file}: {e}"))
}

fn extract_fixture(language: Language, file: &str) -> FileFacts {
    assert_eq!(detect_language(file, b""), Some(language), "detect {file}");
    extract(language, &read_fixture(file), &Limits::default())
        .unwrap_or_else(|e| panic!("extracting {file}: {e}"))
}

/// All fixtures with their language.
const FIXTURES: &[(Language, &str)] = &[
    (Language::Rust, "rust.rs"),
    (Language::Python, "python.py"),
    (Language::Go, "go.go"),
    (Language::JavaScript, "javascript.js"),
    (Language::TypeScript, "typescript.ts"),
    (Language::Tsx, "tsx.tsx"),
    (Language::Java, "java.java"),
    (Language::C, "c.c"),
    (Language::Cpp, "cpp.cpp"),
    (Language::CSharp, "csharp.cs"),
    (Language::Ruby, "ruby.rb"),
    (Language::Bash, "bash.sh"),
    (Language::Php, "php.php"),
];

/// One symbol on one line: `start-end kind qualified_name [name=…] [in=parent] [visibility]
/// | signature`. The name is shown only when it is not the last segment of the qualified
/// name.
fn render(s: &Symbol) -> String {
    let last = s.qualified_name.rsplit('.').next().unwrap_or("");
    let last = last.split('#').next().unwrap_or("");
    let name = if s.name == last {
        String::new()
    } else {
        format!(" name={}", s.name)
    };
    let parent = s
        .parent
        .as_ref()
        .map(|p| format!(" in={p}"))
        .unwrap_or_default();
    let visibility = s.visibility.map(|v| format!(" {v}")).unwrap_or_default();
    format!(
        "{}-{} {} {}{name}{parent}{visibility} | {}",
        s.start_line, s.end_line, s.kind, s.qualified_name, s.signature
    )
}

/// Asserts the symbols are exactly `expected` (one rendered symbol per line, in order).
/// The visibility of the symbol named `name` (its last name); panics if there is none.
fn visibility_of(facts: &FileFacts, name: &str) -> Option<&'static str> {
    facts
        .symbols
        .iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("no {name} in {:?}", facts.symbols))
        .visibility
}

/// Each symbol's name and visibility, in order.
fn names_and_visibility(facts: &FileFacts) -> Vec<(&str, Option<&str>)> {
    facts
        .symbols
        .iter()
        .map(|s| (s.name.as_str(), s.visibility))
        .collect()
}

/// Each symbol's qualified name and kind, in order.
fn names_and_kinds(facts: &FileFacts) -> Vec<(&str, &str)> {
    facts
        .symbols
        .iter()
        .map(|s| (s.qualified_name.as_str(), s.kind))
        .collect()
}

fn assert_symbols(facts: &FileFacts, expected: &str) {
    let actual: Vec<String> = facts.symbols.iter().map(render).collect();
    let expected: Vec<&str> = expected
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    assert_eq!(actual, expected, "\nactual:\n{}\n", actual.join("\n"));
}

#[test]
fn rust_fixture() {
    let facts = extract_fixture(Language::Rust, "rust.rs");
    assert_symbols(
        &facts,
        r#"
        7-7 constant MAX_DEPTH public | pub const MAX_DEPTH: usize = …
        8-8 variable COUNTER private | static COUNTER: AtomicUsize = …
        12-15 struct Ast public | pub struct Ast
        13-13 field Ast.nodes in=Ast public | pub nodes: Vec<Node>
        14-14 field Ast.depth in=Ast private | depth: usize
        17-20 enum Error public | pub enum Error
        18-18 constant Error.Eof in=Error | Eof
        19-19 constant Error.Unexpected in=Error | Unexpected(Token)
        22-22 type Result internal | pub(crate) type Result<T> = std::result::Result<T, Error>
        24-28 trait Visitor public | pub trait Visitor
        26-26 method Visitor.visit in=Visitor | fn visit(&mut self, node: &Node) -> bool
        27-27 method Visitor.finish in=Visitor | fn finish(&mut self)
        30-39 impl impl Ast | impl Ast
        32-34 method Ast.new in=impl Ast public | pub fn new() -> Self
        36-38 method Ast.push in=impl Ast private | fn push(&mut self, node: Node)
        41-45 impl impl Display for Ast | impl Display for Ast
        42-44 method Ast.fmt in=impl Display for Ast | fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result
        48-53 function parse public | pub fn parse(input: &str) -> Result<Ast>
        55-59 module util private | mod util
        56-58 function util.helper in=util public | pub fn helper(tokens: &[Token]) -> usize
        61-65 macro square internal | macro_rules! square
        "#,
    );
    assert_eq!(
        facts.imports,
        &[
            "crate::lexer::Lexer",
            "crate::lexer::Token",
            "std::collections::HashMap",
            "std::fmt",
            "std::fmt::Display"
        ]
    );
}

#[test]
fn python_fixture() {
    let facts = extract_fixture(Language::Python, "python.py");
    assert_symbols(
        &facts,
        r#"
        7-7 constant DEFAULT_NAME public | DEFAULT_NAME = …
        8-8 variable _cache private | _cache = …
        11-17 class Base public | class Base
        14-14 field Base.kind in=Base public | kind = …
        16-17 method Base.describe in=Base public | def describe(self)
        20-40 class Parser public | class Parser(Base)
        23-24 method Parser.__init__ in=Parser public | def __init__(self, name: str = DEFAULT_NAME)
        27-30 method Parser.parse in=Parser public | def parse(self, text: str) -> List[str]
        33-34 method Parser._normalise in=Parser private | @staticmethod def _normalise(value: Optional[str]) -> str
        36-40 class Parser.Config in=Parser public | class Config
        37-37 field Parser.Config.verbose in=Parser.Config public | verbose = …
        39-40 method Parser.Config.enable in=Parser.Config public | def enable(self)
        43-46 function fetch public | async def fetch(url, timeout=10)
        49-52 function outer public | def outer(x)
        50-51 function outer.inner in=outer private | def inner(y)
        55-56 function _private_helper private | def _private_helper()
        "#,
    );
    assert_eq!(facts.imports, &[".util", "json", "os.path", "typing"]);
}

#[test]
fn go_fixture() {
    let facts = extract_fixture(Language::Go, "go.go");
    assert_symbols(
        &facts,
        r#"
        13-13 constant MaxDepth exported | const MaxDepth = …
        16-16 constant modeFast private | const modeFast = …
        17-17 constant ModeSlow exported | const ModeSlow
        20-20 variable defaultName private | var defaultName = …
        23-26 struct Parser exported | type Parser struct
        24-24 field Parser.Name in=Parser exported | Name string
        25-25 field Parser.depth in=Parser private | depth int
        29-31 interface Visitor exported | type Visitor interface
        30-30 method Visitor.Visit in=Visitor exported | Visit(n Node) error
        33-33 type ID exported | type ID int64
        36-38 function NewParser exported | func NewParser(name string) *Parser
        41-47 method Parser.Parse in=Parser exported | func (p *Parser) Parse(s string) error
        49-52 method Parser.walk in=Parser private | func (p Parser) walk(n Node) error
        54-56 function helper private | func helper()
        58-58 type byName private | type byName []string
        60-60 method byName.Len in=byName private | func (s byName) Len() int
        62-64 struct row private | type row struct
        63-63 field row.Name in=row private | Name string
        "#,
    );
    assert_eq!(facts.imports, &["errors", "fmt", "os", "strings"]);
}

#[test]
fn javascript_fixture() {
    let facts = extract_fixture(Language::JavaScript, "javascript.js");
    assert_symbols(
        &facts,
        r#"
        8-8 constant VERSION exported | export const VERSION = …
        9-9 variable counter | let counter = …
        14-36 class Parser exported | export class Parser extends Base
        15-15 field Parser.#secret name=#secret in=Parser private | #secret = …
        16-16 field Parser.name in=Parser public | name = …
        18-21 method Parser.constructor in=Parser public | constructor(name)
        24-27 method Parser.parse in=Parser public | parse(text)
        29-31 method Parser.create in=Parser public | static create()
        33-35 method Parser.#hidden name=#hidden in=Parser private | #hidden()
        39-42 function load exported | export async function load(file)
        44-46 function ids | function* ids()
        48-48 function double exported | export const double = (x) =>
        50-55 constant handlers | const handlers
        51-53 function handlers.onLoad in=handlers | onLoad: function ()
        54-54 function handlers.onSave in=handlers | onSave: () =>
        57-60 function main exported | export default function main()
        "#,
    );
    assert_eq!(
        facts.imports,
        &[
            "./helpers.js",
            "./util.js",
            "express",
            "fs/promises",
            "legacy-lib",
            "path"
        ]
    );
}

#[test]
fn typescript_fixture() {
    let facts = extract_fixture(Language::TypeScript, "typescript.ts");
    assert_symbols(
        &facts,
        r#"
        5-8 interface Shape exported | export interface Shape
        6-6 method Shape.area in=Shape public | area(): number
        7-7 field Shape.name in=Shape public | readonly name: string
        10-10 type Point exported | export type Point = { x: number; y: number }
        10-10 field Point.x in=Point public | x: number
        10-10 field Point.y in=Point public | y: number
        12-15 enum Color exported | export enum Color
        13-13 constant Color.Red in=Color | Red
        14-14 constant Color.Green in=Color | Green = …
        18-20 class Base exported | export abstract class Base
        19-19 method Base.describe in=Base public | abstract describe(): string
        22-39 class Circle exported | export class Circle extends Base implements Shape
        23-23 field Circle.name in=Circle public | readonly name: string = …
        24-24 field Circle.radius in=Circle private | private radius: number
        26-29 method Circle.constructor in=Circle public | constructor(radius: number)
        32-34 method Circle.area in=Circle public | area(): number
        36-38 method Circle.describe in=Circle protected | protected describe(): string
        41-43 function makeCircle exported | export function makeCircle<T extends Options>(opts: T): Circle
        45-47 function internal | function internal(a: number, b: number): number
        49-49 function scale exported | export const scale = (s: Shape, k: number): number =>
        51-55 module Geometry | namespace Geometry
        52-54 function Geometry.origin in=Geometry exported | export function origin(): Point
        57-57 function overloaded | declare function overloaded(x: string): string
        "#,
    );
    assert_eq!(facts.imports, &["./options", "events"]);
}

#[test]
fn tsx_fixture() {
    let facts = extract_fixture(Language::Tsx, "tsx.tsx");
    assert_symbols(
        &facts,
        r#"
        5-8 interface CounterProps exported | export interface CounterProps
        6-6 field CounterProps.initial in=CounterProps public | initial: number
        7-7 field CounterProps.label in=CounterProps public | label?: string
        11-19 function Counter exported | export function Counter({ initial, label }: CounterProps)
        21-21 function Title exported | export const Title = ({ text }: { text: string }) =>
        23-27 class Legacy exported | class Legacy extends React.Component<CounterProps>
        24-26 method Legacy.render in=Legacy public | render()
        "#,
    );
    assert_eq!(facts.imports, &["./button", "react"]);
}

#[test]
fn java_fixture() {
    let facts = extract_fixture(Language::Java, "java.java");
    assert_symbols(
        &facts,
        r#"
        11-51 class Parser public | public class Parser extends Base implements Visitor
        12-12 constant Parser.MAX_DEPTH in=Parser public | public static final int MAX_DEPTH = …
        13-13 field Parser.tokens in=Parser private | private final List<String> tokens = …
        14-14 field Parser.name in=Parser internal | String name
        16-18 method Parser.Parser in=Parser public | public Parser(String name)
        22-25 method Parser.parse in=Parser public | public List<String> parse(String text) throws ParseException
        27-29 method Parser.parse#2 in=Parser protected | protected void parse(int depth)
        31-33 method Parser.helper in=Parser private | private static List<String> helper(List<String> in)
        35-41 class Parser.Node in=Parser internal | static class Node
        36-36 field Parser.Node.kind#2 in=Parser.Node internal | int kind
        38-40 method Parser.Node.kind in=Parser.Node internal | int kind()
        43-50 enum Parser.Mode in=Parser public | public enum Mode
        44-44 constant Parser.Mode.FAST in=Parser.Mode public | FAST
        45-45 constant Parser.Mode.SLOW in=Parser.Mode public | SLOW
        47-49 method Parser.Mode.isFast in=Parser.Mode internal | boolean isFast()
        53-55 interface Visitor internal | interface Visitor
        54-54 method Visitor.visit in=Visitor public | void visit(Parser.Node node)
        57-61 class Pair internal | record Pair(String left, String right)
        58-60 method Pair.joined in=Pair internal | String joined()
        "#,
    );
    assert_eq!(
        facts.imports,
        &[
            "java.io.*",
            "java.util.ArrayList",
            "java.util.List",
            "java.util.Objects.requireNonNull"
        ]
    );
}

/// A file left with conflict markers by a merge is read as our side: its symbols are ours,
/// at their lines, with no marker in a signature and no second copy from their side.
#[test]
fn a_conflicted_file_is_read_as_our_side() {
    let source = b"public class Shape {\n<<<<<<< HEAD\n    public int area() { return 1; }\n=======\n    public long area() { return 2; }\n    public int other() { return 3; }\n>>>>>>> topic\n    public int sides() { return 4; }\n}\n";
    let facts = extract(Language::Java, source, &Limits::default()).unwrap();
    let symbols: Vec<(String, u32, &str)> = facts
        .symbols
        .iter()
        .map(|s| (s.qualified_name.clone(), s.start_line, s.signature.as_str()))
        .collect();
    assert_eq!(
        symbols,
        [
            ("Shape".to_owned(), 1, "public class Shape"),
            ("Shape.area".to_owned(), 3, "public int area()"),
            ("Shape.sides".to_owned(), 8, "public int sides()"),
        ]
    );
}

/// A numeric type is no value: Java's `double` and `float` stay in signatures (they were shown
/// as `…`, like a long number, and a change from one to the other was no change).
#[test]
fn java_floating_point_types_stay_in_signatures() {
    let source = b"public class Num {\n    public static final double PI2 = 6.2831853;\n    public double ratio(double x, float y) { return x; }\n}\n";
    let facts = extract(Language::Java, source, &Limits::default()).unwrap();
    let signatures: Vec<&str> = facts.symbols.iter().map(|s| s.signature.as_str()).collect();
    assert_eq!(
        signatures,
        [
            "public class Num",
            "public static final double PI2 = …",
            "public double ratio(double x, float y)"
        ]
    );
}

#[test]
fn c_fixture() {
    let facts = extract_fixture(Language::C, "c.c");
    assert_symbols(
        &facts,
        r#"
        6-6 macro MAX_DEPTH | #define MAX_DEPTH …
        7-7 macro SQUARE | #define SQUARE(x) …
        9-12 struct node | struct node
        9-12 type node_t | typedef struct node { … } node_t
        10-10 field node.kind in=node | int kind
        11-11 field node.next in=node | struct node *next
        14-17 struct parser | struct parser
        15-15 field parser.name in=parser | const char *name
        16-16 field parser.depth in=parser | unsigned depth
        19-19 enum mode | enum mode
        19-19 constant mode.MODE_FAST in=mode | MODE_FAST
        19-19 constant mode.MODE_SLOW in=mode | MODE_SLOW = …
        21-24 struct value | union value
        22-22 field value.i in=value | int i
        23-23 field value.d in=value | double d
        26-26 type visit_fn | typedef int (*visit_fn)(node_t *node, void *ctx)
        28-28 variable counter private | static int counter = …
        29-29 variable default_name | const char *default_name = …
        35-42 function parse | int parse(struct parser *p, const char *text)
        44-48 function helper private | static void helper(void)
        50-53 function make_array | int *make_array(size_t len)
        "#,
    );
    assert_eq!(facts.imports, &["parser.h", "stdio.h", "stdlib.h"]);
}

#[test]
fn cpp_fixture() {
    let facts = extract_fixture(Language::Cpp, "cpp.cpp");
    assert_symbols(
        &facts,
        r#"
        6-50 module repo | namespace repo
        7-11 module repo.detail in=repo internal | namespace detail
        9-9 function repo.detail.helper in=repo.detail | int helper(int x)
        14-24 class repo.Parser in=repo | class Parser : public Base
        16-16 method repo.Parser.Parser in=repo.Parser public | explicit Parser(std::string name)
        17-17 method repo.Parser.~Parser in=repo.Parser public | ~Parser()
        19-19 method repo.Parser.parse in=repo.Parser public | std::vector<std::string> parse(const std::string& text) const
        22-22 field repo.Parser.depth_ in=repo.Parser private | int depth_
        23-23 field repo.Parser.name_ in=repo.Parser private | std::string name_
        26-29 struct repo.Point in=repo | struct Point
        27-27 field repo.Point.x in=repo.Point public | int x
        28-28 field repo.Point.y in=repo.Point public | int y
        31-34 function repo.max_of in=repo | template <typename T> T max_of(T a, T b)
        48-48 enum repo.Mode in=repo | enum class Mode
        48-48 constant repo.Mode.Fast in=repo.Mode | Fast
        48-48 constant repo.Mode.Slow in=repo.Mode | Slow
        52-55 function main | int main()
        "#,
    );
    assert_eq!(facts.imports, &["parser.hpp", "string", "vector"]);
}

#[test]
fn csharp_fixture() {
    let facts = extract_fixture(Language::CSharp, "csharp.cs");
    assert_symbols(
        &facts,
        r#"
        9-12 interface IVisitor public | public interface IVisitor
        11-11 method IVisitor.Visit in=IVisitor public | void Visit(Node node)
        14-42 class Parser public | public class Parser : Base, IVisitor
        16-16 constant Parser.MaxDepth in=Parser public | public const int MaxDepth = …
        17-17 field Parser.tokens in=Parser private | private readonly List<string> tokens = …
        19-19 field Parser.Name in=Parser public | public string Name
        21-24 method Parser.Parser in=Parser public | public Parser(string name)
        28-32 method Parser.Parse in=Parser public | public List<string> Parse(string text)
        34-34 method Parser.Helper in=Parser private | static List<string> Helper(List<string> input)
        36-36 method Parser.Visit in=Parser public | public void Visit(Node node)
        38-41 struct Parser.Position in=Parser internal | internal struct Position
        40-40 field Parser.Position.Line in=Parser.Position public | public int Line
        44-48 enum Mode public | public enum Mode
        46-46 constant Mode.Fast in=Mode public | Fast
        47-47 constant Mode.Slow in=Mode public | Slow
        50-50 class Pair internal | record Pair(string Left, string Right)
        "#,
    );
    assert_eq!(
        facts.imports,
        &["System", "System.Collections.Generic", "System.IO"]
    );
}

#[test]
fn ruby_fixture() {
    let facts = extract_fixture(Language::Ruby, "ruby.rb");
    assert_symbols(
        &facts,
        r#"
        6-6 constant Parsing.VERSION | VERSION = …
        9-35 class Parsing.Parser | class Parser < Base
        10-10 field Parsing.Parser.name in=Parsing.Parser public | attr_reader :name
        12-14 method Parsing.Parser.initialize in=Parsing.Parser private | def initialize(name)
        17-20 method Parsing.Parser.parse in=Parsing.Parser public | def parse(text)
        22-24 method Parsing.Parser.create in=Parsing.Parser public | def self.create
        28-30 method Parsing.Parser.tokenize in=Parsing.Parser private | def tokenize(text)
        32-34 method Parsing.Parser.secret in=Parsing.Parser protected | def secret
        37-41 module Parsing.Util | module Util
        38-40 method Parsing.Util.helper in=Parsing.Util public | def self.helper(x)
        44-46 class Parsing.Extra | class Parsing::Extra
        45-45 method Parsing.Extra.run in=Parsing.Extra public | def run
        "#,
    );
    assert_eq!(facts.imports, &["json", "lib/helper"]);
}

/// A C definition compiled only when a build asks for it is conditional: under `#ifdef X`,
/// `#if X` or the `#else` of `#ifndef X` (a test build's `main`, a platform's variant). One
/// under a header's include guard, `#ifndef X` (curl's `main` under `#ifndef UNITTESTS`), the
/// `#else` of `#ifdef X` or `#if X`, or outside any, is not.
#[test]
fn a_c_definition_under_a_preprocessor_condition_is_conditional() {
    let source = b"#ifndef UTIL_H\n#define UTIL_H\n\nstatic inline int twice(int x) { return 2 * x; }\n\nint run(void) { return 0; }\n\n#ifdef UTIL_TEST_MAIN\nint main(void) { return run(); }\n#endif\n\n#if defined(_WIN32)\nint sep(void) { return 1; }\n#else\nint sep_posix(void) { return 0; }\n#endif\n\n#ifndef NO_TOOL\nint tool(void) { return 0; }\n#else\nint stub(void) { return 1; }\n#endif\n\n#if !defined(SMALL)\nint big(void) { return 0; }\n#endif\n\n#endif\n";
    for language in [Language::C, Language::Cpp] {
        let facts = extract(language, source, &Limits::default()).unwrap();
        let conditional: Vec<(&str, bool)> = facts
            .symbols
            .iter()
            .map(|s| (s.qualified_name.as_str(), s.conditional))
            .collect();
        assert_eq!(
            conditional,
            [
                ("twice", false),
                ("run", false),
                ("main", true),
                ("sep", true),
                ("sep_posix", false),
                ("tool", false),
                ("stub", true),
                ("big", false)
            ],
            "{language}"
        );
    }
}

/// A header's include guard is no name the header offers (jq's `JV_DTOA_H` was listed with
/// its functions); a default value a header gives when none is set is one.
#[test]
fn an_include_guard_is_no_symbol() {
    let source = b"#ifndef JV_DTOA_H\n#define JV_DTOA_H\n#ifndef KMAX\n#define KMAX 7\n#endif\n#define FMT_LEN 64\nvoid jvp_freedtoa(char *s);\n#endif\n";
    for language in [Language::C, Language::Cpp] {
        let facts = extract(language, source, &Limits::default()).unwrap();
        let names: Vec<&str> = facts.symbols.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["KMAX", "FMT_LEN", "jvp_freedtoa"], "{language}");
    }
}

/// A class exported by a macro (`class LEVELDB_EXPORT DB`) is the class, its members its own:
/// leveldb's `db.h` listed `DB() = default` and no `DB`.
#[test]
fn a_cpp_class_behind_an_export_macro_is_a_class() {
    let source = b"namespace leveldb {\nclass LEVELDB_EXPORT DB {\n public:\n  virtual Status Put(const Slice& key);\n};\n}\n";
    let facts = extract(Language::Cpp, source, &Limits::default()).unwrap();
    let db = facts
        .symbols
        .iter()
        .find(|s| s.name == "DB")
        .unwrap_or_else(|| panic!("{:?}", facts.symbols));
    assert_eq!(db.signature, "class DB");
    assert!(
        facts
            .symbols
            .iter()
            .any(|s| s.name == "Put" && s.parent.as_deref() == Some(db.qualified_name.as_str())),
        "{:?}",
        facts.symbols
    );
}

/// A macro on a line of its own where a declaration may begin (a namespace or export block,
/// a class's template head spelt as a macro) is no part of the declaration after it:
/// nlohmann/json's `json_fwd.hpp` listed its template parameters `map` and `vector` as classes
/// and `json.hpp` had no `class basic_json`; fmt's `basic_string_view` lost its class.
#[test]
fn cpp_declarations_after_a_bare_macro_line_are_whole() {
    let source = b"#include <map>\n/*!\n@brief namespace\n*/\nJSON_NAMESPACE_BEGIN\n\ntemplate<template<typename U, typename... Args> class ObjectType = std::map, class StringType = std::string>\nclass basic_json;\n\nusing json = basic_json<>;\n}  // namespace detail\n\nFMT_BEGIN_EXPORT\n\n/** A view. */\ntemplate <typename Char> class basic_string_view {\n public:\n  constexpr auto size() const noexcept -> size_t { return size_; }\n};\nJSON_TPL_DECLARATION\nclass basic_json : public base\n{\n public:\n  void clear() {}\n};\nJSON_NAMESPACE_END\n";
    let facts = extract(Language::Cpp, source, &Limits::default()).unwrap();
    let names: Vec<(&str, u32)> = facts
        .symbols
        .iter()
        .map(|s| (s.qualified_name.as_str(), s.start_line))
        .collect();
    for (name, line) in [
        ("json", 10),
        ("basic_string_view", 16),
        ("basic_string_view.size", 18),
        ("basic_json", 21),
        ("basic_json.clear", 24),
    ] {
        assert!(
            names.contains(&(name, line)),
            "no {name} at {line}: {names:?}"
        );
    }
    for s in &facts.symbols {
        assert!(
            !["map", "vector", "StringType", "ObjectType"].contains(&s.name.as_str()),
            "a template parameter read as a symbol: {s:?}"
        );
        assert!(!s.signature.contains("_BEGIN"), "{s:?}");
        assert!(!s.signature.contains("JSON_TPL"), "{s:?}");
    }
}

/// A macro that opens a declaration's line (an export macro before `template`, a specifier
/// before a constructor with an initializer list) leaves the class and its members whole:
/// fmt's `dynamic_format_arg_store` was lost (and again by an `if FMT_CONSTEXPR20 (…)` in a
/// method), and `class buffer` became fields of a method.
#[test]
fn cpp_classes_with_macros_opening_their_lines_are_whole() {
    let source = b"FMT_EXPORT template <typename Context> class store {\n public:\n  template <typename T> void count(const T& arg) {\n    if FMT_CONSTEXPR20 (need_copy<T>::value) {\n      emplace_arg(args_.push<stored_t<T>>(arg));\n    } else {\n      emplace_arg(arg);\n    }\n  }\n  int size() const { return 0; }\n};\n\ntemplate <typename T> class buffer {\n protected:\n  FMT_CONSTEXPR buffer(grow_fun grow, size_t sz) noexcept\n      : size_(sz), grow_(grow) {\n    ptr_ = nullptr;\n  }\n  FMT_CONSTEXPR20 ~buffer() = default;\n\n public:\n  int get() const { return 1; }\n};\n";
    let facts = extract(Language::Cpp, source, &Limits::default()).unwrap();
    let names: Vec<(&str, u32)> = facts
        .symbols
        .iter()
        .map(|s| (s.qualified_name.as_str(), s.start_line))
        .collect();
    assert_eq!(
        names,
        [
            ("store", 1),
            ("store.count", 3),
            ("store.size", 10),
            ("buffer", 13),
            ("buffer.buffer", 15),
            ("buffer.~buffer", 19),
            ("buffer.get", 22),
        ]
    );
}

/// What a Python module defines under `if __name__ == "__main__":` runs only as a script,
/// and what a function defines inside it is its own: private, not the module's API (rich's
/// `traceback.py` listed its demo `foo` and `bar`, click's `sort_key` was public). A
/// signature written over several lines drops the comma before its closing bracket; a Rust
/// tuple of one keeps its own.
#[test]
fn python_script_blocks_are_private_and_trailing_commas_go() {
    let source = b"def greet(\n    name: str,\n    loud: bool = False,\n) -> str:\n    def key(x):\n        return x\n    return name\n\n\nif __name__ == \"__main__\":\n    def demo(a: int) -> None:\n        print(greet(str(a)))\n\n    class Shown:\n        pass\n";
    let facts = extract(Language::Python, source, &Limits::default()).unwrap();
    let seen: Vec<(&str, Option<&str>, &str)> = facts
        .symbols
        .iter()
        .map(|s| {
            (
                s.qualified_name.as_str(),
                s.visibility,
                s.signature.as_str(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            (
                "greet",
                Some("public"),
                "def greet(name: str, loud: bool = False) -> str"
            ),
            ("greet.key", Some("private"), "def key(x)"),
            ("demo", Some("private"), "def demo(a: int) -> None"),
            ("Shown", Some("private"), "class Shown"),
        ]
    );
    let rust = b"pub fn one() -> (u32,) { (1,) }\n";
    let facts = extract(Language::Rust, rust, &Limits::default()).unwrap();
    assert_eq!(facts.symbols[0].signature, "pub fn one() -> (u32,)");
}

/// A C++ class defined under its enclosing class's name (leveldb's `struct DBImpl::Writer {`)
/// is a class, and a template's specialization (fmt's `template <> struct formatter<bytes> {`)
/// an `impl` of it, the members of each their own; annotations after a declarator (`GUARDED_BY(mutex_)`) and a
/// macro before `explicit` are no members.
#[test]
fn cpp_qualified_and_specialized_classes_keep_their_members() {
    let source = b"namespace fmt {\ntemplate <> struct formatter<bytes> {\n private:\n  int specs_;\n public:\n  constexpr auto parse(int ctx) -> const char* { return 0; }\n};\nstruct DBImpl::Writer {\n  explicit Writer(int mu) {}\n  bool done;\n};\nclass DBImpl {\n private:\n  void CompactMemTable() EXCLUSIVE_LOCKS_REQUIRED(mutex_);\n  int Recover(int* edit,\n              bool* save)\n      EXCLUSIVE_LOCKS_REQUIRED(mutex_);\n  MemTable* imm_ GUARDED_BY(mutex_);\n  int Status() const WARN_UNUSED_RESULT;\n public:\n  FMT_CONSTEXPR explicit DBImpl(const A& a) : x(a) {}\n  int Get() { return MAKE_STATUS(x); }\n};\n}\n";
    let facts = extract(Language::Cpp, source, &Limits::default()).unwrap();
    let seen = names_and_kinds(&facts);
    assert_eq!(
        seen,
        [
            ("fmt", "module"),
            ("fmt.formatter", "impl"),
            ("fmt.formatter.specs_", "field"),
            ("fmt.formatter.parse", "method"),
            ("fmt.DBImpl.Writer", "struct"),
            ("fmt.DBImpl.Writer.Writer", "method"),
            ("fmt.DBImpl.Writer.done", "field"),
            ("fmt.DBImpl", "class"),
            ("fmt.DBImpl.CompactMemTable", "method"),
            ("fmt.DBImpl.Recover", "method"),
            ("fmt.DBImpl.imm_", "field"),
            ("fmt.DBImpl.Status", "method"),
            ("fmt.DBImpl.DBImpl", "method"),
            ("fmt.DBImpl.Get", "method"),
        ]
    );
    let signature = |name: &str| {
        facts
            .symbols
            .iter()
            .find(|s| s.qualified_name == name)
            .map(|s| s.signature.as_str())
    };
    assert_eq!(
        signature("fmt.formatter"),
        Some("template <> struct formatter<bytes>")
    );
    assert_eq!(signature("fmt.DBImpl.imm_"), Some("MemTable* imm_"));
    assert_eq!(
        signature("fmt.DBImpl.DBImpl"),
        Some("explicit DBImpl(const A& a)")
    );
}

/// A Go type embedded in a struct or an interface is a field named by its type: gin's
/// `Engine` embeds `RouterGroup`, whose methods it offers, and the field was missing. A
/// constraint's union of types (`int | float64`) names no field.
#[test]
fn go_embedded_types_are_fields() {
    let source = b"package gin\n\ntype Engine struct {\n\tRouterGroup\n\t*sync.Mutex\n\ta, b int\n}\n\ntype RW interface {\n\thttp.ResponseWriter\n\tStatus() int\n}\n\ntype Number interface {\n\tint | float64\n}\n";
    let facts = extract(Language::Go, source, &Limits::default()).unwrap();
    let seen: Vec<(&str, &str, &str)> = facts
        .symbols
        .iter()
        .map(|s| (s.qualified_name.as_str(), s.kind, s.signature.as_str()))
        .collect();
    assert_eq!(
        seen,
        [
            ("Engine", "struct", "type Engine struct"),
            ("Engine.RouterGroup", "field", "RouterGroup"),
            ("Engine.Mutex", "field", "*sync.Mutex"),
            ("Engine.a", "field", "a int"),
            ("Engine.b", "field", "b int"),
            ("RW", "interface", "type RW interface"),
            ("RW.ResponseWriter", "field", "http.ResponseWriter"),
            ("RW.Status", "method", "Status() int"),
            ("Number", "interface", "type Number interface"),
        ]
    );
}

/// Go's blank identifier names nothing and a package's `init` cannot be called: chi's
/// `var _ Router = &Mux{}` was a symbol named `_` and its `func init()` a listed function.
/// A method named `init` is an ordinary method.
#[test]
fn go_blank_identifiers_and_init_functions_are_no_symbols() {
    let source = b"package chi\n\nvar _ Router = &Mux{}\n\nvar (\n\t_ = 1\n\tErrX = 2\n)\n\nconst _, Y = 0, 1\n\nfunc init() {}\n\nfunc (m *Mux) init() {}\n\ntype Mux struct{}\n";
    let facts = extract(Language::Go, source, &Limits::default()).unwrap();
    assert_eq!(
        names_and_kinds(&facts),
        [
            ("ErrX", "variable"),
            ("Y", "constant"),
            ("Mux.init", "method"),
            ("Mux", "struct"),
        ]
    );
}

/// Rust's anonymous constant (`const _: () = { … };`, a compile-time assertion or probe)
/// names nothing, and what its block defines cannot be named from outside: anyhow's
/// `_`, `_#2` and `_.MyError.fmt` led a deleted file's delta. A named constant and the items
/// of a function's body stay.
#[test]
fn rust_anonymous_constants_and_their_items_are_no_symbols() {
    let source = b"const _: () = {\n    struct MyError;\n    impl core::fmt::Debug for MyError {\n        fn fmt(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result { Ok(()) }\n    }\n};\nconst _: Option<&str> = option_env!(\"X\");\npub const LIMIT: u32 = 3;\npub fn provide(x: u32) -> u32 {\n    struct Local;\n    x\n}\n";
    let facts = extract(Language::Rust, source, &Limits::default()).unwrap();
    assert_eq!(
        names_and_kinds(&facts),
        [
            ("LIMIT", "constant"),
            ("provide", "function"),
            ("provide.Local", "struct"),
        ]
    );
}

/// A TypeScript interface of generic call signatures without semicolons, one spanning
/// lines (immer's `IProduce`), lost every declaration after it in the file: the grammar
/// reads `C` and the next line's `<R extends …>` as one type with arguments.
#[test]
fn typescript_generic_call_signatures_on_their_own_lines_lose_nothing_after_them() {
    let source = b"export function before(): void {}\n\nexport interface IProduce {\n\t<C>(recipe: C): C\n\t<R extends Function>(\n\t\trecipe: R\n\t): R\n\t<B>(base: B, recipe: (d: B) => void): B\n}\n\nexport type Producer<T> = (draft: T) => void\n\nexport function after(x: number): number {\n\treturn x\n}\n";
    let facts = extract(Language::TypeScript, source, &Limits::default()).unwrap();
    let names: Vec<(&str, &str)> = names_and_kinds(&facts)
        .into_iter()
        .filter(|(_, kind)| *kind != "method")
        .collect();
    assert_eq!(
        names,
        [
            ("before", "function"),
            ("IProduce", "interface"),
            ("Producer", "type"),
            ("after", "function"),
        ],
        "{facts:?}"
    );
    let after = facts.symbols.iter().find(|s| s.name == "after").unwrap();
    assert_eq!(after.signature, "export function after(x: number): number");
    assert_eq!(after.start_line, 13);
    // A list a formatter broke after its `<` (hono's `CreateHandlersInterface`): the class
    // and the function after it were lost, the class's method made a top-level function.
    let broken = b"export interface CH<E> {\n  <I>(h: I): I\n\n  // two handlers\n  <\n    E3 extends Env = DefaultEnvironmentOfTheFactoryForAllHandlers,\n  >(h: H): [H]\n}\n\nexport class Factory<E> {\n  make(): number { return 1 }\n}\n\nexport const createThing = (x: number): number => x\n";
    let facts = extract(Language::TypeScript, broken, &Limits::default()).unwrap();
    let qualified: Vec<&str> = facts
        .symbols
        .iter()
        .map(|s| s.qualified_name.as_str())
        .filter(|q| !q.starts_with("CH."))
        .collect();
    assert_eq!(
        qualified,
        ["CH", "Factory", "Factory.make", "createThing"],
        "{facts:?}"
    );
}

/// A Go call or type qualified by a standard-library package names none of the project's
/// definitions (chi's `context.WithValue` counted as a use of its own `WithValue`, viper's
/// `errors.New` of its `New`); one qualified by a module's package, a method call and a plain
/// call still do.
#[test]
fn go_standard_library_calls_are_no_references() {
    let source = b"package chi\n\nimport (\n\t\"context\"\n\t\"errors\"\n\t\"math/rand/v2\"\n\t\"example.com/chi/middleware\"\n)\n\nfunc Handle(ctx context.Context, r *Router) error {\n\tctx = context.WithValue(ctx, 1, 2)\n\t_ = rand.N(3)\n\tmiddleware.Logger(ctx)\n\tr.Mount()\n\tReset(ctx)\n\treturn errors.New(\"x\")\n}\n";
    let facts = extract(Language::Go, source, &Limits::default()).unwrap();
    assert_eq!(
        facts.references,
        ["Logger", "Mount", "Reset", "Router"],
        "{facts:?}"
    );
}

/// A trait a PHP class uses is a reference of its file, as the class it extends is: monolog's
/// `FormattableHandlerTrait` had no `referenced_by`. A namespace `use` is an import.
#[test]
fn a_php_classes_traits_are_references() {
    let source = b"<?php\nnamespace A;\n\nuse Psr\\Log\\LoggerInterface;\n\nclass Service\n{\n    use Loggable, \\Lib\\Formattable;\n}\n";
    let facts = extract(Language::Php, source, &Limits::default()).unwrap();
    for name in ["Loggable", "Formattable"] {
        assert!(facts.references.iter().any(|r| r == name), "{facts:?}");
    }
    assert!(
        !facts.references.iter().any(|r| r == "LoggerInterface"),
        "{facts:?}"
    );
    assert_eq!(facts.imports, ["Psr\\Log\\LoggerInterface"]);
}

/// A class field holding a function is a method with its parameters (a React class
/// component's handlers): it was a field `handler = …`. A field holding a value stays one.
#[test]
fn class_fields_holding_functions_are_methods() {
    let source = b"export class Panel {\n  private count = 42;\n  handleClick = (e: Event): void => {\n    this.count += 1;\n  };\n  static create = function (name: string) { return new Panel(); };\n}\n";
    let facts = extract(Language::TypeScript, source, &Limits::default()).unwrap();
    let seen: Vec<(&str, &str, &str)> = facts
        .symbols
        .iter()
        .map(|s| (s.qualified_name.as_str(), s.kind, s.signature.as_str()))
        .collect();
    assert_eq!(
        seen,
        [
            ("Panel", "class", "export class Panel"),
            ("Panel.count", "field", "private count = …"),
            (
                "Panel.handleClick",
                "method",
                "handleClick = (e: Event): void =>"
            ),
            (
                "Panel.create",
                "method",
                "static create = function (name: string)"
            ),
        ]
    );
}

/// Every declarator's value of a declaration is hidden, not the first's alone: Dapper's
/// `private const int COLLECT_PER_ITEMS = …, COLLECT_HIT_COUNT_MIN = 0` showed the second.
#[test]
fn every_declarators_value_is_hidden() {
    for (language, source, want) in [
        (
            Language::Java,
            &b"class K {\n    private int a = 1, b = 99;\n}\n"[..],
            "private int a = …, b = …",
        ),
        (
            Language::CSharp,
            b"class K {\n    private const int A = 64, B = 0;\n}\n",
            "private const int A = …, B = …",
        ),
        (Language::C, b"int a = 1, b = 99;\n", "int a = …, b = …"),
    ] {
        let facts = extract(language, source, &Limits::default()).unwrap();
        let fields: Vec<&str> = facts
            .symbols
            .iter()
            .filter(|s| matches!(s.kind, "field" | "constant" | "variable"))
            .map(|s| s.signature.as_str())
            .collect();
        assert!(!fields.is_empty(), "{language}: {:?}", facts.symbols);
        for signature in fields {
            assert_eq!(signature, want, "{language}");
        }
    }
}

/// A C# expression-bodied property shows its type and name, not its expression (a method's
/// body is no part of its signature either).
#[test]
fn csharp_expression_bodied_properties_hide_their_expression() {
    let source = b"namespace N {\n  public class Bag {\n    public bool Ok => Count > 0 && Items.Count != 0;\n    public int Answer => 42;\n    public int Count { get; }\n  }\n}\n";
    let facts = extract(Language::CSharp, source, &Limits::default()).unwrap();
    let signatures: Vec<(&str, &str)> = facts
        .symbols
        .iter()
        .map(|s| (s.qualified_name.as_str(), s.signature.as_str()))
        .collect();
    assert_eq!(
        signatures,
        [
            ("Bag", "public class Bag"),
            ("Bag.Ok", "public bool Ok"),
            ("Bag.Answer", "public int Answer"),
            ("Bag.Count", "public int Count"),
        ]
    );
}

/// Ruby's accessors follow the section they are in, and a later `private :name` (or
/// `private_class_method :name`) makes the method it names private (rack's
/// `private :accepts_html?` and `attr_reader` under `private` read as public).
#[test]
fn ruby_visibility_by_name_and_for_accessors() {
    let source = b"class Cfg\n  attr_accessor :open\n  def helper; end\n  private :helper\n  def self.build; end\n  private_class_method :build\n  def shown; end\n  private\n  attr_reader :token\nend\n\nclass Other\n  private attr_writer :secret\n  public\n  def initialize(a); end\nend\n";
    let facts = extract(Language::Ruby, source, &Limits::default()).unwrap();
    let seen: Vec<(&str, Option<&str>)> = facts
        .symbols
        .iter()
        .map(|s| (s.qualified_name.as_str(), s.visibility))
        .collect();
    assert_eq!(
        seen,
        [
            ("Cfg", None),
            ("Cfg.open", Some("public")),
            ("Cfg.helper", Some("private")),
            ("Cfg.build", Some("private")),
            ("Cfg.shown", Some("public")),
            ("Cfg.token", Some("private")),
            ("Other", None),
            ("Other.secret", Some("private")),
            ("Other.initialize", Some("private")),
        ]
    );
}

/// A named function assigned or bound is one definition, the assignment's (express's
/// `app.init = function init() {}` was listed as `init` and `init.init`).
#[test]
fn a_named_function_assigned_is_one_definition() {
    let source = b"var app = exports = module.exports = {};\napp.init = function init() {\n  function getrouter() {}\n};\nfunction Router() {}\nRouter.prototype.route = function route(path) {};\nconst f = function f(x) { return x; };\n";
    let facts = extract(Language::JavaScript, source, &Limits::default()).unwrap();
    let names: Vec<&str> = facts
        .symbols
        .iter()
        .map(|s| s.qualified_name.as_str())
        .collect();
    for dup in ["init.init", "route.route", "f.f"] {
        assert!(!names.contains(&dup), "{dup}: {names:?}");
    }
    for name in ["init", "init.getrouter", "Router", "f"] {
        assert!(names.contains(&name), "{name}: {names:?}");
    }
}

/// A Python module's names bound in a conditional or a `try` at its top level are its
/// definitions (requests' `preferred_clock`; type aliases under `if TYPE_CHECKING:`); a
/// function's locals are not, nor an import's fallback.
#[test]
fn python_module_names_bound_in_conditionals_are_definitions() {
    let source = b"import sys\nif sys.platform == \"win32\":\n    preferred_clock = 1\nelif sys.platform == \"darwin\":\n    mac_clock = 2\nelse:\n    preferred_clock = 3\nif TYPE_CHECKING:\n    Alias: TypeAlias = int\n    class Hidden:\n        pass\ntry:\n    import simplejson as json\n    has_simplejson = True\nexcept ImportError:\n    fallback = None\n\ndef f():\n    if True:\n        local = 1\n";
    let facts = extract(Language::Python, source, &Limits::default()).unwrap();
    let names: Vec<&str> = facts
        .symbols
        .iter()
        .map(|s| s.qualified_name.as_str())
        .collect();
    for name in [
        "preferred_clock",
        "mac_clock",
        "Alias",
        "Hidden",
        "has_simplejson",
    ] {
        assert!(names.contains(&name), "{name}: {names:?}");
    }
    // What an `except ImportError:` binds is the fallback of an import that failed, no
    // definition (requests' `OpenSSL = None`).
    assert!(!names.contains(&"fallback"), "{names:?}");
    assert!(!names.iter().any(|n| n.contains("local")), "{names:?}");
}

/// A Python property's setter and an `@overload` stub followed by its implementation are
/// facets of one definition: the implementation is `f`, not `f#3` (requests'
/// `Response.iter_content`), and the property is one symbol. A stub file's overloads stay.
#[test]
fn python_overload_stubs_and_setters_are_one_definition() {
    let source = b"class C:\n    @overload  # the first form\n    def f(self, x: int) -> int: ...\n    @typing.overload\n    def f(self, x: str) -> str: ...\n    def f(self, x):\n        def inner():\n            pass\n        return x\n\n    @property\n    def p(self) -> int:\n        return 1\n\n    @p.setter  # type: ignore\n    def p(self, v: int) -> None:\n        pass\n";
    let facts = extract(Language::Python, source, &Limits::default()).unwrap();
    let seen: Vec<(&str, u32)> = facts
        .symbols
        .iter()
        .map(|s| (s.qualified_name.as_str(), s.start_line))
        .collect();
    assert_eq!(seen, [("C", 1), ("C.f", 6), ("C.f.inner", 7), ("C.p", 12)]);
    let stubs = b"@overload\ndef g(x: int) -> int: ...\n@overload\ndef g(x: str) -> str: ...\n";
    let facts = extract(Language::Python, stubs, &Limits::default()).unwrap();
    let names: Vec<&str> = facts
        .symbols
        .iter()
        .map(|s| s.qualified_name.as_str())
        .collect();
    assert_eq!(names, ["g", "g#2"]);
}

/// A header's declaration bracket (`GIT_BEGIN_DECL`, which C++ compilers read as `extern "C"
/// {`) is no type of the declaration after it: libgit2's `repository.h` ran its first four
/// functions together into one symbol and had no `git_repository_open`.
#[test]
fn c_functions_after_a_declaration_bracket_macro_are_each_a_symbol() {
    let source = b"#include \"common.h\"\n\nGIT_BEGIN_DECL\n\nGIT_EXTERN(int) git_repository_open(git_repository **out, const char *path);\n\nGIT_EXTERN(int) git_repository_wrap_odb(git_repository **out, git_odb *odb);\n\nGIT_END_DECL\n";
    for language in [Language::C, Language::Cpp] {
        let facts = extract(language, source, &Limits::default()).unwrap();
        let at = |name: &str| {
            facts
                .symbols
                .iter()
                .find(|s| s.name == name)
                .unwrap_or_else(|| panic!("{language}: no {name} in {:?}", facts.symbols))
        };
        let open = at("git_repository_open");
        assert_eq!(open.start_line, 5, "{language}");
        assert!(!open.signature.contains("BEGIN"), "{}", open.signature);
        assert!(!open.signature.contains("wrap_odb"), "{}", open.signature);
        if language == Language::C {
            // (C++ reads `GIT_EXTERN(int)` as a call of its own; a C++ project's headers
            // rarely use it.)
            assert_eq!(at("git_repository_wrap_odb").start_line, 7, "{language}");
        }
    }
}

/// An item only tests compile (`#[cfg(test)]`, `#[cfg(doctest)]`, or inside a `mod` that
/// is) is no part of the crate's API, whatever it declares: clap's `#[cfg(doctest)] pub
/// struct ReadmeDoctests` led its crate's exports.
#[test]
fn rust_items_only_tests_compile_are_private() {
    let source = b"/// Doc.\npub struct Parser;\n\n#[doc = include_str!(\"../README.md\")]\n#[cfg(doctest)]\npub struct ReadmeDoctests;\n\n#[cfg(test)]\nmod tests {\n    pub fn helper() {}\n}\n\n#[cfg(feature = \"std\")]\npub fn with_std() {}\n";
    let facts = extract(Language::Rust, source, &Limits::default()).unwrap();
    let visibility = |name: &str| visibility_of(&facts, name);
    assert_eq!(visibility("Parser"), Some("public"));
    assert_eq!(visibility("ReadmeDoctests"), Some("private"));
    assert_eq!(visibility("helper"), Some("private"));
    assert_eq!(visibility("with_std"), Some("public"));
}

/// A Python type parameter (`T = TypeVar("T")`, `ParamSpec`, `TypeVarTuple`) is private: a
/// name generic signatures share, not the module's API (click's `R` was listed among
/// `utils.py`'s exports). Another call's result stays public.
#[test]
fn python_type_parameters_are_private() {
    let source = b"import typing as t\nfrom typing import ParamSpec\n\nR = t.TypeVar(\"R\")\nP = ParamSpec(\"P\")\nTs = t.TypeVarTuple(\"Ts\")\nlogger = make_logger(\"x\")\n";
    let facts = extract(Language::Python, source, &Limits::default()).unwrap();
    let visibility = |name: &str| visibility_of(&facts, name);
    for name in ["R", "P", "Ts"] {
        assert_eq!(visibility(name), Some("private"), "{name}");
    }
    assert_eq!(visibility("logger"), Some("public"));
}

/// The first line, signature and parent of the symbol named `name`.
fn line_signature_parent(facts: &FileFacts, name: &str) -> Option<(u32, String, Option<String>)> {
    facts
        .symbols
        .iter()
        .find(|s| s.name == name)
        .map(|s| (s.start_line, s.signature.clone(), s.parent.clone()))
}

/// A C# member whose body is chosen by `#if` (serilog's `ILogger`: a default implementation
/// under a feature, else `;`) leaves its interface whole: the first branch is parsed, the
/// others and the directives are blank, at the file's own lines.
#[test]
fn csharp_conditional_branches_leave_the_declaration_whole() {
    let source = b"namespace Serilog;\n\npublic interface ILogger\n{\n#if FEATURE\n    private static readonly object[] None = new object[0];\n#endif\n\n    ILogger ForContext(string name)\n#if FEATURE\n    {\n        return this;\n    }\n#else\n        ;\n#endif\n\n    void Write(string message, params object?[]? values)\n#if FEATURE\n        => Write(message, (Exception?)null, values)\n#endif\n    ;\n}\n\n#if LEGACY\npublic class Current { }\n#else\npublic class Fallback { }\n#endif\n";
    let facts = extract(Language::CSharp, source, &Limits::default()).unwrap();
    let at = |name: &str| line_signature_parent(&facts, name);
    let interface = Some("ILogger".to_string());
    assert_eq!(
        at("ILogger"),
        Some((3, "public interface ILogger".into(), None))
    );
    assert_eq!(
        at("ForContext"),
        Some((
            9,
            "ILogger ForContext(string name)".into(),
            interface.clone()
        ))
    );
    assert_eq!(
        at("Write"),
        Some((
            18,
            "void Write(string message, params object?[]? values)".into(),
            interface
        ))
    );
    assert_eq!(at("Current").map(|a| a.0), Some(26));
    assert_eq!(at("Fallback"), None, "{facts:?}");
    assert!(facts.symbols.iter().all(|s| !s.signature.contains('#')));
}

/// Items inside a configuration macro (`cfg_rt! { … }`, as tokio defines most of its API) are
/// the file's own, at their own lines; a `cfg_if!` is no list of items.
#[test]
fn rust_items_inside_a_cfg_macro_are_definitions() {
    let source = b"cfg_rt! {\n    pub use task::spawn;\n\n    /// The runtime.\n    pub struct Runtime;\n}\n\nimpl Runtime {\n    cfg_net! {\n        pub fn bind(&self) {}\n    }\n}\n";
    let facts = extract(Language::Rust, source, &Limits::default()).unwrap();
    let at = |name: &str| line_signature_parent(&facts, name);
    assert_eq!(at("Runtime"), Some((5, "pub struct Runtime".into(), None)));
    assert_eq!(
        at("bind"),
        Some((10, "pub fn bind(&self)".into(), Some("impl Runtime".into())))
    );
    assert!(facts.references.iter().any(|r| r == "spawn"), "{facts:?}");
}

/// A Python module's `__all__` lists what it exports: the names it hands on from other modules
/// (httpx's `__init__.py` imports its API with `from ._client import *`) are its re-exports
/// and references; those it defines (`main`) are not.
/// A property descriptor's accessors are no functions of the module (mongoose's overview
/// listed `get: function()`); an object's functions otherwise are, a `get` among them.
#[test]
fn a_property_descriptors_accessors_are_no_definitions() {
    let source = b"Object.defineProperty(ObjectId.prototype, '_id', {\n  enumerable: false,\n  configurable: true,\n  get: function() {\n    return this;\n  },\n  set: function(v) {}\n});\n\nmodule.exports = {\n  get: function(key) {\n    return key;\n  },\n  parse: function(text) {\n    return text;\n  }\n};\n";
    for language in [Language::JavaScript, Language::TypeScript] {
        let facts = extract(language, source, &Limits::default()).unwrap();
        let names: Vec<(&str, u32)> = facts
            .symbols
            .iter()
            .map(|s| (s.name.as_str(), s.start_line))
            .collect();
        assert_eq!(names, [("get", 11), ("parse", 14)], "{language}");
    }
}

/// What a Ruby file `autoload`s it hands on (rack's `lib/rack.rb`: "all modules meant for use
/// in your application are autoloaded here"): the names are its re-exports and references, the
/// paths its imports. A symbol passed to any other call is neither.
#[test]
fn a_ruby_files_autoloads_are_what_it_hands_on() {
    let source = b"module Rack\n  autoload :Builder, \"rack/builder\"\n  autoload(:Lint, 'rack/lint')\n  module Auth\n    autoload :Basic, \"rack/auth/basic\"\n  end\n  attr_reader :app\n  send :Other\nend\n";
    let facts = extract(Language::Ruby, source, &Limits::default()).unwrap();
    assert_eq!(facts.reexports, ["Basic", "Builder", "Lint"]);
    for name in ["Basic", "Builder", "Lint"] {
        assert!(facts.references.iter().any(|r| r == name), "{facts:?}");
    }
    assert!(!facts
        .references
        .iter()
        .any(|r| r == "Other" || r == ":Other"));
    assert_eq!(
        facts.imports,
        ["rack/auth/basic", "rack/builder", "rack/lint"]
    );
}

#[test]
fn a_python_modules_all_lists_what_it_hands_on() {
    let source = b"from ._client import *\nfrom ._models import *\n\ndef main():\n    pass\n\n__all__ = [\n    \"Client\",\n    'Response',\n    \"main\",\n]\n\nother = [\"NotExported\"]\n";
    let facts = extract(Language::Python, source, &Limits::default()).unwrap();
    assert_eq!(facts.reexports, ["Client", "Response"]);
    for name in ["Client", "Response"] {
        assert!(
            facts.references.iter().any(|r| r == name),
            "{:?}",
            facts.references
        );
    }
    assert!(!facts.references.iter().any(|r| r == "NotExported"));
    // A tuple, in parentheses or not (pydantic's `__all__ = ('BaseModel', …)` and
    // `__all__ = 'BaseModel', 'create_model'`).
    for source in [
        "from .main import *\n__all__ = (\n    'BaseModel',\n    'create_model',\n)\n",
        "from .main import *\n__all__ = 'BaseModel', 'create_model'\n",
    ] {
        let facts = extract(Language::Python, source.as_bytes(), &Limits::default()).unwrap();
        assert_eq!(facts.reexports, ["BaseModel", "create_model"], "{source}");
    }
}

#[test]
fn a_reopened_ruby_module_or_class_adds_to_the_first() {
    let source = b"module App\n  def self.a; end\nend\n\nclass Other\nend\n\nmodule App\n  class Other\n  end\n  def self.b; end\nend\n\nmodule App\n  class Other\n    def c; end\n  end\nend\n";
    let facts = extract(Language::Ruby, source, &Limits::default()).unwrap();
    let names: Vec<&str> = facts
        .symbols
        .iter()
        .map(|s| s.qualified_name.as_str())
        .collect();
    // One `App` and one `App.Other`; the top-level `Other` is another class. No `#2`.
    assert_eq!(
        names,
        ["App", "App.a", "Other", "App.Other", "App.b", "App.Other.c"],
        "{:?}",
        facts.symbols
    );
    let app = &facts.symbols[0];
    assert_eq!((app.start_line, app.kind), (1, "module"));
}

/// A call's receiver is unknown to the extractor, so a call of a core class's method
/// (`h.include?(k)`) would count as a use of the project's own `include?`: it is no reference.
#[test]
fn a_ruby_core_method_call_is_no_reference() {
    let source = b"class Registry\n  alias include? key?\nend\n\nclass User\n  def check(h)\n    h.include?(:a) && !h.empty? && h.key?(:b) && validate(h.fetch(:c))\n  end\nend\n";
    let facts = extract(Language::Ruby, source, &Limits::default()).unwrap();
    assert!(
        facts.references.iter().any(|r| r == "validate"),
        "{:?}",
        facts.references
    );
    for core in ["include?", "empty?", "key?", "fetch"] {
        assert!(
            !facts.references.iter().any(|r| r == core),
            "{core}: {:?}",
            facts.references
        );
    }
}

#[test]
fn bash_fixture() {
    let facts = extract_fixture(Language::Bash, "bash.sh");
    assert_symbols(
        &facts,
        r#"
        11-13 function log | log()
        15-18 function build | function build
        20-22 function cleanup | cleanup()
        24-28 function main | main()
        "#,
    );
    assert_eq!(facts.imports, &["$HOME/.profile", "./lib/common.sh"]);
}

#[test]
fn php_fixture() {
    let facts = extract_fixture(Language::Php, "php.php");
    assert_symbols(
        &facts,
        r#"
        9-9 constant VERSION | const VERSION = …
        11-14 interface Visitable | interface Visitable
        13-13 method Visitable.accept in=Visitable public | public function accept(Visitor $v): void
        16-22 trait Loggable | trait Loggable
        18-21 method Loggable.log in=Loggable protected | protected function log(string $msg): void
        27-54 class Parser | final class Parser extends Base implements Visitable
        31-31 constant Parser.MAX_DEPTH in=Parser public | public const MAX_DEPTH = …
        32-32 field Parser.tokens in=Parser private | private array $tokens = …
        34-36 method Parser.__construct in=Parser public | public function __construct(private string $name)
        39-43 method Parser.parse in=Parser public | public function parse(string $text): array
        45-48 method Parser.accept in=Parser public | public function accept(Visitor $v): void
        50-53 method Parser.helper in=Parser private | private static function helper(): int
        56-59 function make_parser | function make_parser(string $name): Parser
        "#,
    );
    assert_eq!(
        facts.imports,
        &[
            "/helpers.php",
            "App\\Contracts\\Visitor",
            "App\\Support\\Arr",
            "App\\Support\\Str"
        ]
    );
}

/// The C# and PHP references the shipped tags queries miss: a generic type by its name (a base
/// class, a parameter's, a property's or return type, a type argument, a generic method), the
/// type of a static member; PHP's unqualified `new X`, `X::f()`, `X::class` and calls.
#[test]
fn csharp_and_php_references_name_generic_and_unqualified_uses() {
    let cases: &[(Language, &str, &[&str])] = &[
        (
            Language::CSharp,
            "namespace Acme;\n\npublic class PersonValidator : AbstractValidator<Person>\n{\n    public IRuleSet<Rule> Rules { get; }\n    public Result<Outcome> Run(IList<Item> items, Context ctx)\n    {\n        var s = Options.Global;\n        var t = s.Length + ctx.Count;\n        Policy.Handle<TimeoutError>();\n        Build<Widget>();\n        return typeof(Marker) == null ? null : null;\n    }\n}\n",
            &[
                "AbstractValidator",
                "Person",
                "IRuleSet",
                "Rule",
                "Result",
                "Outcome",
                "IList",
                "Item",
                "Options",
                "Policy",
                "Handle",
                "TimeoutError",
                "Build",
                "Widget",
                "Marker",
            ],
        ),
        (
            Language::Php,
            "<?php\n\nnamespace Acme\\Tests;\n\nuse Acme\\Client;\n\nfinal class ClientTest\n{\n    public function testSend(): void\n    {\n        $c = new Client();\n        Utils::normalize('x');\n        $l = Level::Debug;\n        $n = Handler::class;\n        describe_type($c);\n    }\n}\n",
            &["Client", "Utils", "Level", "Handler", "describe_type"],
        ),
    ];
    for (language, source, expected) in cases {
        let facts = extract(*language, source.as_bytes(), &Limits::default()).expect("extracts");
        // A local variable's member is no use of a type.
        assert!(!facts.references.iter().any(|r| r == "s" || r == "ctx"));
        for name in *expected {
            assert!(
                facts.references.iter().any(|r| r == name),
                "{language:?} {name}: {:?}",
                facts.references
            );
        }
    }
}

#[test]
fn references_are_external_identifiers() {
    let expectations: &[(Language, &str, &[&str], &[&str])] = &[
        // (language, fixture, must contain, must not contain)
        (
            Language::Rust,
            "rust.rs",
            &["AtomicUsize", "Lexer", "Token"],
            &["Ast", "helper", "T"],
        ),
        (
            Language::Python,
            "python.py",
            &["download", "helper"],
            &["print", "Parser", "tokens"],
        ),
        (
            Language::Go,
            "go.go",
            // `fmt.Println` names the standard library's, no definition of the project.
            &["Node"],
            &["string", "error", "Parser", "int", "Println"],
        ),
        (
            Language::JavaScript,
            "javascript.js",
            &["tokenize", "readFile"],
            &["require", "Parser"],
        ),
        (
            Language::Tsx,
            "tsx.tsx",
            &["Button", "useState"],
            &["div", "span", "Counter"],
        ),
        (
            Language::Java,
            "java.java",
            &["ArrayList", "ParseException"],
            &["String", "T"],
        ),
        (
            Language::C,
            "c.c",
            &["malloc", "printf"],
            &["helper", "node_t"],
        ),
        (
            Language::Cpp,
            "cpp.cpp",
            &["Base", "push_back"],
            &["T", "Parser"],
        ),
        (
            Language::CSharp,
            "csharp.cs",
            &["Base", "Node"],
            &["Helper", "Parser"],
        ),
        (
            Language::Ruby,
            "ruby.rb",
            &["Helper", "JSON"],
            &["tokens", "t", "puts", "private"],
        ),
        (
            Language::Bash,
            "bash.sh",
            &["make", "rm"],
            &["echo", "log", "trap"],
        ),
        (
            Language::Php,
            "php.php",
            &["Base", "Visitor"],
            &["Parser", "error_log2"],
        ),
    ];
    for (language, file, present, absent) in expectations {
        let facts = extract_fixture(*language, file);
        for name in *present {
            assert!(
                facts.references.iter().any(|r| r == name),
                "{file}: missing {name}"
            );
        }
        for name in *absent {
            assert!(
                !facts.references.iter().any(|r| r == name),
                "{file}: unexpected {name}"
            );
        }
        let mut sorted = facts.references.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted, facts.references, "{file}: sorted and unique");
        assert!(facts
            .references
            .iter()
            .all(|r| !r.contains(['.', ':', ' ', '('])));
    }
}

/// Comment text from a fixture: line comments, block comments, docstrings.
fn comment_texts(source: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = source;
    while let Some(start) = rest.find("/*") {
        let end = rest[start..]
            .find("*/")
            .map_or(rest.len(), |e| start + e + 2);
        out.extend(
            rest[start + 2..end.saturating_sub(2).max(start + 2)]
                .lines()
                .map(|l| l.trim().trim_start_matches('*').trim().to_string()),
        );
        rest = &rest[end..];
    }
    for line in source.lines() {
        let line = line.trim();
        for marker in ["///", "//", "# ", "\"\"\""] {
            if let Some(text) = line.strip_prefix(marker) {
                out.push(text.trim().trim_end_matches("\"\"\"").to_string());
            }
        }
    }
    out.retain(|t| t.len() >= 8);
    out
}

#[test]
fn signatures_never_contain_comments_or_docstrings() {
    for (language, file) in FIXTURES {
        let source = String::from_utf8(read_fixture(file)).expect("fixtures are UTF-8");
        let comments = comment_texts(&source);
        assert!(!comments.is_empty(), "{file} has comments to check");
        let facts = extract_fixture(*language, file);
        for symbol in &facts.symbols {
            for comment in &comments {
                assert!(
                    !symbol.signature.contains(comment.as_str()),
                    "{file}: {:?} contains comment {comment:?}",
                    symbol.signature
                );
            }
            for marker in ["/*", "*/", "//", "\"\"\""] {
                assert!(
                    !symbol.signature.contains(marker),
                    "{file}: {:?}",
                    symbol.signature
                );
            }
            assert!(
                !symbol.signature.contains("  "),
                "{file}: {:?}",
                symbol.signature
            );
            assert!(
                !symbol.signature.contains('\n'),
                "{file}: {:?}",
                symbol.signature
            );
        }
    }
}

#[test]
fn documented_definitions_start_after_their_comments() {
    // (fixture, qualified name, line of the declaration right after its doc comment)
    let cases = [
        ("rust.rs", "parse", 48),
        ("python.py", "Parser.parse", 27),
        ("go.go", "Parser.Parse", 41),
        ("javascript.js", "load", 39),
        ("java.java", "Parser.parse", 22),
        ("c.c", "parse", 35),
        ("csharp.cs", "Parser.Parse", 28),
        ("ruby.rb", "Parsing.Parser.parse", 17),
        ("bash.sh", "log", 11),
        ("php.php", "Parser.parse", 39),
    ];
    for (file, qualified, line) in cases {
        let language = detect_language(file, b"").expect("fixture language");
        let facts = extract_fixture(language, file);
        let symbol = facts.symbols.iter().find(|s| s.qualified_name == qualified);
        let symbol = symbol.unwrap_or_else(|| panic!("{file}: no {qualified}"));
        assert_eq!(symbol.start_line, line, "{file}: {qualified}");
    }
}

#[test]
fn symbols_are_sorted_and_well_formed() {
    for (language, file) in FIXTURES {
        let facts = extract_fixture(*language, file);
        assert!(!facts.symbols.is_empty(), "{file}");
        let keys: Vec<(u32, &str)> = facts
            .symbols
            .iter()
            .map(|s| (s.start_line, s.qualified_name.as_str()))
            .collect();
        let mut sorted = keys.clone();
        sorted.sort();
        assert_eq!(
            keys, sorted,
            "{file}: sorted by (start_line, qualified_name)"
        );
        let mut names: Vec<&str> = facts
            .symbols
            .iter()
            .map(|s| s.qualified_name.as_str())
            .collect();
        names.sort();
        let before = names.len();
        names.dedup();
        assert_eq!(before, names.len(), "{file}: qualified names are unique");
        for s in &facts.symbols {
            assert!(
                s.start_line >= 1 && s.start_line <= s.end_line,
                "{file}: {s:?}"
            );
            if let Some(parent) = &s.parent {
                let p = facts.symbols.iter().find(|p| &p.qualified_name == parent);
                let p = p.unwrap_or_else(|| panic!("{file}: parent {parent} of {s:?}"));
                // Lexically enclosing, or named as its owner (Go receivers, C++ `A::f`).
                let encloses = p.start_line <= s.start_line && s.end_line <= p.end_line;
                let owner = s.qualified_name.starts_with(&format!("{parent}."));
                assert!(encloses || owner, "{file}: {s:?}");
            }
        }
        let mut imports = facts.imports.clone();
        imports.sort();
        imports.dedup();
        assert_eq!(imports, facts.imports, "{file}: imports sorted and unique");
    }
}

#[test]
fn duplicates_get_numbered_and_prototypes_yield_to_definitions() {
    let c = b"int f(int x);\nint f(int x) { return x; }\nint g(void);\n";
    let facts = extract(Language::C, c, &Limits::default()).expect("C");
    let names: Vec<(&str, u32)> = facts
        .symbols
        .iter()
        .map(|s| (s.qualified_name.as_str(), s.start_line))
        .collect();
    assert_eq!(names, [("f", 2), ("g", 3)]);

    let rust = b"#[cfg(unix)]\nfn f() {}\n#[cfg(not(unix))]\nfn f() {}\n";
    let facts = extract(Language::Rust, rust, &Limits::default()).expect("Rust");
    let names: Vec<&str> = facts
        .symbols
        .iter()
        .map(|s| s.qualified_name.as_str())
        .collect();
    assert_eq!(names, ["f", "f#2"]);
}

#[test]
fn long_signatures_keep_start_and_end_around_an_ellipsis() {
    let wide = |last: &str| {
        let params: Vec<String> = (0..100).map(|i| format!("a{i}: u32")).collect();
        format!("fn wide({}) -> {last} {{}}\n", params.join(", "))
    };
    let facts = extract(Language::Rust, wide("u8").as_bytes(), &Limits::default()).expect("Rust");
    let s = &facts.symbols[0];
    assert!(s.signature.chars().count() <= 300, "{}", s.signature);
    assert!(s.signature.starts_with("fn wide(a0: u32, a1: u32"));
    assert!(s.signature.contains(" … "));
    assert!(s.signature.ends_with("a99: u32) -> u8"), "{}", s.signature);
    assert!(s.cut_hash.is_some());
    let other = extract(Language::Rust, wide("u16").as_bytes(), &Limits::default()).expect("Rust");
    assert_ne!(other.symbols[0].signature, s.signature);
    let short = extract(Language::Rust, b"fn f(a: u8) {}\n", &Limits::default()).expect("Rust");
    assert_eq!(short.symbols[0].cut_hash, None);
}

#[test]
fn guard_too_large() {
    let limits = Limits {
        max_bytes: 16,
        ..Limits::default()
    };
    let result = extract(Language::Rust, b"fn main() { let x = 1; }", &limits);
    assert_eq!(
        result,
        Err(ExtractError::TooLarge {
            bytes: 24,
            limit: 16
        })
    );
}

#[test]
fn guard_minified() {
    let line = format!("var a={};\n", "1+".repeat(6000));
    let result = extract(Language::JavaScript, line.as_bytes(), &Limits::default());
    assert_eq!(result, Err(ExtractError::Minified));

    // Over 300 bytes of code (not white space, not comments) per line on average in a file
    // over 4 KiB, any language.
    let wide = format!("x = [{}]\n", "1,".repeat(200)).repeat(20);
    let result = extract(Language::Python, wide.as_bytes(), &Limits::default());
    assert_eq!(result, Err(ExtractError::Minified));

    // Long lines are fine in small files of other languages.
    let short = format!("x = [{}]\n", "1, ".repeat(150));
    assert!(extract(Language::Python, short.as_bytes(), &Limits::default()).is_ok());
}

#[test]
fn guard_generated() {
    let cases: [(Language, &[u8]); 3] = [
        (
            Language::Go,
            b"// Code generated by protoc-gen-go. DO NOT EDIT.\npackage x\n",
        ),
        (
            Language::Python,
            b"# -*- coding: utf-8 -*-\n# @generated by tool\nx = 1\n",
        ),
        (
            Language::C,
            b"/*\n * AUTOMATICALLY GENERATED FILE\n */\nint x;\n",
        ),
    ];
    for (language, source) in cases {
        assert_eq!(
            extract(language, source, &Limits::default()),
            Err(ExtractError::Generated)
        );
    }
    // A marker far below the top does not count.
    let late = format!("{}// generated by hand\nint x;\n", "\n".repeat(10));
    assert!(extract(Language::C, late.as_bytes(), &Limits::default()).is_ok());
}

/// `count` small C functions.
fn c_functions(count: usize) -> String {
    (0..count)
        .map(|i| format!("int f{i}(int x) {{ return x + {i}; }}\n"))
        .collect()
}

/// Limits with a work budget and no deadline, so only the work decides.
fn work_only(max_work: u64) -> Limits {
    Limits {
        max_work,
        timeout: Duration::MAX,
        ..Limits::default()
    }
}

#[test]
fn the_work_budget_verdict_is_deterministic() {
    let source = c_functions(300);
    let over = |budget: u64| match extract(Language::C, source.as_bytes(), &work_only(budget)) {
        Ok(facts) => {
            assert_eq!(facts.symbols.len(), 300);
            false
        }
        Err(ExtractError::OverBudget) => true,
        Err(e) => panic!("unexpected {e}"),
    };
    // The smallest budget that suffices, found by bisection.
    let (mut lo, mut hi) = (0u64, Limits::default().max_work);
    assert!(over(lo) && !over(hi));
    while lo + 1 < hi {
        let mid = lo + (hi - lo) / 2;
        if over(mid) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    assert!(hi > 1_000, "the work is counted: {hi}");
    // The same verdict at the boundary every time, on this thread after other work (its
    // parser is reused) and on fresh threads.
    for round in 0..3 {
        let _ = extract(
            Language::Rust,
            b"fn main() { let x = (1, [2]); }",
            &work_only(hi),
        );
        assert!(over(hi - 1) && !over(hi), "round {round}");
    }
    let source = std::sync::Arc::new(source);
    let threads: Vec<_> = (0..2)
        .map(|_| {
            let source = source.clone();
            std::thread::spawn(move || {
                let run = |b| extract(Language::C, source.as_bytes(), &work_only(b)).is_ok();
                (run(hi - 1), run(hi))
            })
        })
        .collect();
    for t in threads {
        assert_eq!(t.join().unwrap(), (false, true));
    }
}

#[test]
fn quadratic_query_input_is_over_budget_before_the_query_runs() {
    // 100,000 unclosed brackets become one ERROR node with 100,000 anonymous children; the
    // query cursor would scan later siblings from each (about 5·10⁹ steps, many seconds)
    // without calling its progress callback often enough to notice.
    let source = format!("x = {}", "(\n".repeat(100_000));
    assert_eq!(
        extract(
            Language::JavaScript,
            source.as_bytes(),
            &work_only(Limits::default().max_work)
        ),
        Err(ExtractError::OverBudget)
    );
    // An ordinary source of the same size stays far below the default budget.
    let ordinary = c_functions(6_000);
    let facts = extract(
        Language::C,
        ordinary.as_bytes(),
        &work_only(Limits::default().max_work / 20),
    );
    assert_eq!(facts.map(|f| f.symbols.len()), Ok(6_000));
}

#[test]
fn the_deadline_is_a_separate_verdict() {
    let limits = Limits {
        timeout: Duration::ZERO,
        ..Limits::default()
    };
    assert_eq!(
        extract(Language::C, c_functions(20_000).as_bytes(), &limits),
        Err(ExtractError::TimedOut)
    );
    // The same thread can parse again afterwards.
    let facts = extract(
        Language::C,
        b"int g(void) { return 0; }",
        &Limits::default(),
    );
    assert_eq!(facts.map(|f| f.symbols.len()), Ok(1));
}

#[test]
fn errors_display() {
    let messages = [
        ExtractError::TooLarge { bytes: 2, limit: 1 }.to_string(),
        ExtractError::Minified.to_string(),
        ExtractError::Generated.to_string(),
        ExtractError::OverBudget.to_string(),
        ExtractError::TimedOut.to_string(),
        ExtractError::Parse("x".into()).to_string(),
    ];
    assert!(messages.iter().all(|m| !m.is_empty()));
    let error: Box<dyn std::error::Error> = Box::new(ExtractError::Minified);
    assert_eq!(error.to_string(), "file looks minified");
}

/// A small deterministic generator (xorshift64*), so the garbage is the same every run.
struct Noise(u64);

impl Noise {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next() as u8).collect()
    }

    /// Random snippets of real syntax, so the parser gets deep into its grammar.
    fn tokens(&mut self, len: usize) -> Vec<u8> {
        const TOKENS: &[&str] = &[
            "fn ",
            "def ",
            "class ",
            "{",
            "}",
            "(",
            ")",
            "[",
            "]",
            "<",
            ">",
            ";",
            ":",
            "::",
            ".",
            ",",
            "=",
            "=>",
            "->",
            "\"",
            "'",
            "`",
            "/*",
            "*/",
            "//",
            "#",
            "\n",
            " ",
            "\t",
            "\\",
            "x",
            "Foo",
            "struct ",
            "impl ",
            "pub ",
            "export ",
            "import ",
            "#define ",
            "#if X\n",
            "#endif\n",
            "template<",
            "end\n",
            "do\n",
            "$",
            "@",
            "é",
            "\u{feff}",
            "\0",
            "\r\n",
        ];
        let mut out = Vec::new();
        while out.len() < len {
            out.extend_from_slice(TOKENS[(self.next() % TOKENS.len() as u64) as usize].as_bytes());
        }
        out
    }
}

fn check_never_panics(language: Language, source: &[u8]) {
    match extract(language, source, &Limits::default()) {
        Ok(facts) => {
            for s in &facts.symbols {
                assert!(
                    s.start_line >= 1 && s.start_line <= s.end_line,
                    "{language}: {s:?}"
                );
                assert!(s.signature.chars().count() <= 300, "{language}: {s:?}");
                assert!(
                    !s.name.is_empty() && !s.qualified_name.is_empty(),
                    "{language}: {s:?}"
                );
            }
        }
        Err(
            ExtractError::Minified
            | ExtractError::Generated
            | ExtractError::TooLarge { .. }
            | ExtractError::OverBudget
            | ExtractError::TimedOut,
        ) => {}
        Err(ExtractError::Parse(message)) => panic!("{language}: parse error {message}"),
    }
}

#[test]
fn garbage_input_never_panics() {
    let mut noise = Noise(0x9E37_79B9_7F4A_7C15);
    let fixed: [&[u8]; 8] = [
        b"",
        b"\0",
        b"\xff\xfe\xfd",
        b"\xc3\x28\xa0\xa1\xe2\x28\xa1",
        b"(((((((((((((((((((((((((((((((((((((((((((((((((((",
        b"}}}}}}}}]]]]]]))))))",
        b"#!/bin/sh\n\xef\xbb\xbf",
        b"fn \xff() { \xc3 }\nclass \x80:\n def \xfe(self): pass\n",
    ];
    for &language in Language::all() {
        for source in fixed {
            check_never_panics(language, source);
        }
        for len in [1, 7, 64, 500, 3000] {
            check_never_panics(language, &noise.bytes(len));
            check_never_panics(language, &noise.tokens(len));
        }
        // Every fixture cut at arbitrary byte offsets (mid UTF-8 sequences included).
        for (_, file) in FIXTURES {
            let source = read_fixture(file);
            let cut = (noise.next() as usize) % (source.len() + 1);
            check_never_panics(language, &source[..cut]);
        }
    }
}

/// Definitions nested in one another thousands deep (generated or hostile code) made
/// walking up from each quadratic: minutes and gigabytes for 320 KB. Such a file is over its
/// work budget, decided before the assembly; a merely deep one keeps the symbols of its
/// outermost 64 levels of nesting.
#[test]
fn deeply_nested_definitions_are_over_budget_or_cut() {
    let js = |n: usize| format!("{}{}", "class A { m() {\n".repeat(n), "}}\n".repeat(n));
    let c = format!("{}{}", "struct a {\n".repeat(20_000), "};\n".repeat(20_000));
    for (language, source) in [(Language::JavaScript, js(20_000)), (Language::C, c)] {
        let result = extract(language, source.as_bytes(), &Limits::default());
        assert!(
            matches!(result, Err(ExtractError::OverBudget)),
            "{language}: {:?}",
            result.map(|f| f.symbols.len())
        );
    }
    let facts = extract(Language::JavaScript, js(200).as_bytes(), &Limits::default()).unwrap();
    let names: Vec<&str> = facts
        .symbols
        .iter()
        .map(|s| s.qualified_name.as_str())
        .collect();
    assert_eq!(names.len(), 64, "{names:?}");
    assert_eq!(names[63], vec!["A.m"; 32].join("."));
}

/// A `{` followed by a character of U+0100 or above made tree-sitter-bash's scanner call C's
/// `isdigit` with it, a read far past glibc's table: `{` then U+10FFFD killed the process
/// with SIGSEGV on x86_64 Linux (tree-sitter/tree-sitter-bash#337). Such files are parsed,
/// with their functions and line numbers.
#[test]
fn a_brace_before_a_wide_character_is_parsed_safely_in_bash() {
    for wide in ['\u{10FFFD}', '\u{F0000}', '\u{31E20}', '😀', '→'] {
        for brace in ["{", "{12..", "{1..2"] {
            let source = format!(
                "first() {{ echo {brace}{wide}; }}\n\nsecond() {{\n  echo \"{wide}\"\n}}\n"
            );
            let facts = extract(Language::Bash, source.as_bytes(), &Limits::default())
                .unwrap_or_else(|e| panic!("{source:?}: {e}"));
            let names: Vec<(&str, u32)> = facts
                .symbols
                .iter()
                .map(|s| (s.name.as_str(), s.start_line))
                .collect();
            assert_eq!(names, [("first", 1), ("second", 3)], "{source:?}");
        }
    }
}

#[test]
fn extraction_is_deterministic_across_runs_and_threads() {
    let first: Vec<FileFacts> = FIXTURES
        .iter()
        .map(|(language, file)| extract_fixture(*language, file))
        .collect();
    let second: Vec<FileFacts> = FIXTURES
        .iter()
        .map(|(language, file)| extract_fixture(*language, file))
        .collect();
    assert_eq!(first, second);
    let threads: Vec<_> = (0..4)
        .map(|_| {
            std::thread::spawn(|| {
                FIXTURES
                    .iter()
                    .rev()
                    .map(|(language, file)| extract_fixture(*language, file))
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    for handle in threads {
        let mut facts = handle.join().expect("no panic");
        facts.reverse();
        assert_eq!(facts, first);
    }
}

#[test]
fn language_names_round_trip() {
    assert_eq!(Language::all().len(), 13);
    for &language in Language::all() {
        assert_eq!(Language::from_name(language.name()), Some(language));
        assert_eq!(language.to_string(), language.name());
    }
    let names: Vec<&str> = Language::all().iter().map(|l| l.name()).collect();
    assert_eq!(
        names,
        [
            "Rust",
            "Python",
            "Go",
            "JavaScript",
            "TypeScript",
            "TSX",
            "Java",
            "C",
            "C++",
            "C#",
            "Ruby",
            "Shell",
            "PHP"
        ]
    );
    assert_eq!(Language::from_name("c++"), Some(Language::Cpp));
    assert_eq!(Language::from_name("Bash"), None);
}

/// The planted-secret fixtures (`tests/fixtures/secrets/`), one per language; the RepoCue CLI
/// tests plant the same files in a repository.
const SECRET_FIXTURES: &[(Language, &str)] = &[
    (Language::Rust, "rust.rs"),
    (Language::Python, "python.py"),
    (Language::Go, "go.go"),
    (Language::JavaScript, "javascript.js"),
    (Language::TypeScript, "typescript.ts"),
    (Language::Tsx, "tsx.tsx"),
    (Language::Java, "java.java"),
    (Language::C, "c.c"),
    (Language::Cpp, "cpp.cpp"),
    (Language::CSharp, "csharp.cs"),
    (Language::Ruby, "ruby.rb"),
    (Language::Bash, "bash.sh"),
    (Language::Php, "php.php"),
];

/// The planted values of a secrets fixture with their 1-based line: every `sk-…-Q7` token (or
/// `sk_…_Q7`, where a value must be an identifier: a Ruby symbol) and every number of nine or
/// more digits starting with `7777`.
fn planted_values(source: &str) -> Vec<(String, u32)> {
    let mut out = Vec::new();
    for (i, line) in source.lines().enumerate() {
        let line_no = i as u32 + 1;
        let mut rest = line;
        while let Some(at) = rest.find("sk-").into_iter().chain(rest.find("sk_")).min() {
            let tail = &rest[at..];
            let len = tail
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
                .unwrap_or(tail.len());
            let token = &tail[..len];
            if token.ends_with("-Q7") || token.ends_with("_Q7") {
                out.push((token.to_string(), line_no));
            }
            rest = &tail[len.max(1)..];
        }
        let bytes = line.as_bytes();
        let mut j = 0;
        while j < bytes.len() {
            if bytes[j].is_ascii_digit() && (j == 0 || !bytes[j - 1].is_ascii_alphanumeric()) {
                let end = (j..bytes.len())
                    .find(|&k| !bytes[k].is_ascii_digit())
                    .unwrap_or(bytes.len());
                let digits = &line[j..end];
                if digits.len() >= 9 && digits.starts_with("7777") {
                    out.push((digits.to_string(), line_no));
                }
                j = end;
            } else {
                j += 1;
            }
        }
    }
    out
}

/// Every text a symbol carries.
fn symbol_texts(s: &Symbol) -> [&str; 4] {
    [
        &s.name,
        &s.qualified_name,
        &s.signature,
        s.parent.as_deref().unwrap_or(""),
    ]
}

/// No symbol text (name, qualified name, signature, parent) holds a planted value, in any
/// language or construct: constants, statics, default parameters, object fields, class
/// attributes, enum values, annotations, struct tags, macros. Each construct must really be
/// extracted (a symbol covers the planted line), so the check is not vacuous.
#[test]
fn planted_literal_values_never_reach_symbols() {
    let mut leaks = Vec::new();
    let mut matrix = Vec::new();
    for &(language, file) in SECRET_FIXTURES {
        let path = format!("secrets/{file}");
        let source = String::from_utf8(read_fixture(&path)).unwrap();
        let facts = extract(language, source.as_bytes(), &Limits::default())
            .unwrap_or_else(|e| panic!("extracting {path}: {e}"));
        let planted = planted_values(&source);
        assert!(planted.len() >= 3, "{path}: too few planted values");
        let mut covered = 0;
        for (value, line) in &planted {
            let leaked: Vec<&Symbol> = facts
                .symbols
                .iter()
                .filter(|s| symbol_texts(s).iter().any(|t| t.contains(value.as_str())))
                .collect();
            let on_line = facts
                .symbols
                .iter()
                .any(|s| s.start_line <= *line && *line <= s.end_line);
            covered += usize::from(on_line);
            matrix.push(format!(
                "{:<10} {:<28} line {:>2} {:<9} {}",
                language.name(),
                value,
                line,
                if on_line { "in-symbol" } else { "no-symbol" },
                if leaked.is_empty() { "ok" } else { "LEAKED" }
            ));
            for s in leaked {
                leaks.push(format!("{}: {} ← {}", language.name(), value, render(s)));
            }
        }
        if language != Language::Bash {
            assert!(
                covered * 2 >= planted.len(),
                "{path}: only {covered} of {} planted values sit in extracted symbols",
                planted.len()
            );
        }
    }
    println!("{}", matrix.join("\n"));
    assert!(
        leaks.is_empty(),
        "planted values leaked:\n{}",
        leaks.join("\n")
    );
}

/// What a package root re-exports is its public API: the names it takes from other modules
/// are references (resolved to their definitions through the imports), in every language that
/// names them in the import itself.
#[test]
fn imported_and_reexported_names_are_references() {
    let cases: &[(Language, &str, &[&str], &[&str])] = &[
        (
            Language::Python,
            "from .app import Flask as Flask\nfrom .helpers import url_for, abort\nimport os\nfrom . import json\n",
            &["Flask", "url_for", "abort", "json"],
            &["os", "app", "helpers"],
        ),
        (
            Language::TypeScript,
            "import { parse, tokTypes as tt } from \"./parser\";\nexport { transformSync, transformAsync as ta } from \"./transform.ts\";\nexport * from \"./types\";\nconst local = 1;\nexport { local };\n",
            &["parse", "tokTypes", "transformSync", "transformAsync"],
            &["tt", "ta", "types", "local"],
        ),
        (
            Language::JavaScript,
            "import { View } from './view';\nexport { Router } from './router';\n",
            &["View", "Router"],
            &["view", "router"],
        ),
        (
            Language::Rust,
            "pub use crate::walk::{Walk, WalkBuilder};\npub use crate::dir::Ignore as Ign;\nuse std::io;\n",
            &["Walk", "WalkBuilder", "Ignore", "io"],
            &["walk", "dir", "Ign", "crate"],
        ),
    ];
    for (language, source, must, must_not) in cases {
        let facts = extract(*language, source.as_bytes(), &Limits::default())
            .unwrap_or_else(|e| panic!("{language}: {e}"));
        for name in *must {
            assert!(
                facts.references.iter().any(|r| r == name),
                "{language}: {name} missing from {:?}",
                facts.references
            );
        }
        for name in *must_not {
            assert!(
                !facts.references.iter().any(|r| r == name),
                "{language}: {name} wrongly in {:?}",
                facts.references
            );
        }
    }
}

#[test]
fn what_a_commonjs_module_assigns_to_its_exports_is_exported() {
    let source = r#"
exports = module.exports = createApplication;
function createApplication() {}
function View(name) {}
module.exports.View = View;
function tryStat(path) {}
var res = Object.create(null);
exports.res = res;
function render() {}
function send() {}
module.exports = { render, sendAlias: send };
function helper() {}
other.exports = helper;
exports.local = function local() {};
"#;
    let facts = extract(Language::JavaScript, source.as_bytes(), &Limits::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let visibility = |name: &str| {
        facts
            .symbols
            .iter()
            .find(|s| s.qualified_name == name)
            .unwrap_or_else(|| panic!("{name} missing: {:?}", facts.symbols))
            .visibility
    };
    for name in ["createApplication", "View", "res", "render", "send"] {
        assert_eq!(visibility(name), Some("exported"), "{name}");
    }
    for name in ["tryStat", "helper"] {
        assert_eq!(visibility(name), None, "{name}");
    }
}

/// Of the names a JavaScript or TypeScript module takes from others, only those it hands on
/// are its re-exports: `export { a } from`, and an imported or required name that a separate
/// `export { a }` or `module.exports` names. Names it imports to call are not, nor its own
/// definitions, nor `default`, nor a name handed on under another (trpc's index was listed as
/// exporting `createRecursiveProxy`, which it exports as `createTRPCRecursiveProxy`).
#[test]
fn a_module_reexports_only_the_names_it_hands_on() {
    let cases: &[(Language, &str, &[&str])] = &[
        (
            Language::TypeScript,
            "import { normalizePath, build } from \"vite\";\nimport { detect } from \"./detect\";\nimport Parser from \"./parser\";\nexport { transformSync, transformAsync as ta } from \"./transform.ts\";\nexport type { Options } from \"./types\";\nexport { type Options, transformSync } from \"./transform.ts\";\nexport { default as File } from \"./file\";\nexport { default } from \"./main\";\nexport { detect, Parser };\nexport function plugin() { return normalizePath(build()); }\nconst local = 1;\nexport { local };\n",
            // `transformAsync as ta`: the module's name is `ta`, which `./transform.ts` does
            // not define; neither is listed (the original is still referenced, below).
            &["File", "Parser", "detect", "transformSync"],
        ),
        (
            Language::JavaScript,
            "const { Router } = require('./router');\nconst view = require('./view');\nfunction app() { return view.render(); }\nmodule.exports = { app, Router };\n",
            &["Router"],
        ),
        (
            Language::JavaScript,
            "import axios from './lib/axios.js';\nconst { Axios, spread } = axios;\nexport { axios as default, Axios, spread };\n",
            &["Axios", "axios", "spread"],
        ),
        // Python hands on what it imports at its top level (`X as X` too), not what a
        // function imports, nor what it imports for type checking, nor under a private alias;
        // with `__all__`, what that lists.
        (
            Language::Python,
            "from typing import TYPE_CHECKING\nfrom .app import Flask\nfrom .app import Request as Request\nfrom ._impl import helper as _helper\nif TYPE_CHECKING:\n    from .types import OnlyForTyping\n\ndef run():\n    from ._lazy import LazyThing\n    return LazyThing\n",
            &["Flask", "Request", "TYPE_CHECKING"],
        ),
        (
            Language::Python,
            "from ._impl import public_fn\nfrom ._impl import other_fn\n__all__ = [\"public_fn\", \"run\"]\n\ndef run():\n    pass\n",
            &["public_fn"],
        ),
        // Rust hands on what it `pub use`s: a name, the names of a list, nested a level; not
        // a name under an alias (its original stays a reference), nor what it `use`s or
        // `pub(crate) use`s, nor a module it declares, nor what an inline module `pub use`s
        // (anyhow's `pub mod __private`).
        (
            Language::Rust,
            "use clap::ValueHint;\nuse std::{fmt, io::Write};\npub(crate) use crate::util::Hidden;\npub use crate::searcher::Searcher;\npub use crate::sink::{Sink, sinks::{Lossy, UTF8}, SinkError as Error};\npub use crate::line::LineStep as Step;\npub use std::{io::Read, fmt::Display};\npub mod builder;\npub struct Local;\n#[doc(hidden)]\npub mod __private {\n    pub use crate::kind::{AdhocKind, TraitKind};\n}\n",
            &["Display", "Lossy", "Read", "Searcher", "Sink", "UTF8"],
        ),
    ];
    for (language, source, want) in cases {
        let facts = extract(*language, source.as_bytes(), &Limits::default())
            .unwrap_or_else(|e| panic!("{language}: {e}"));
        assert_eq!(facts.reexports, *want, "{language}");
        if *language == Language::TypeScript {
            assert_eq!(facts.type_reexports, ["Options"]);
            assert!(facts.references.iter().any(|r| r == "transformAsync"));
            assert!(!facts.references.iter().any(|r| r == "ta"));
        }
        if *language == Language::Rust {
            for original in ["LineStep", "SinkError"] {
                assert!(facts.references.iter().any(|r| r == original), "{original}");
            }
        }
        // What it hands on is what it references: the graph resolves it to a definition.
        for name in *want {
            assert!(
                facts.references.iter().any(|r| r == name),
                "{language}: {name}"
            );
        }
    }
}

/// `export * from` hands on a whole module; a namespace (`export * as ns from`) does not, nor
/// does a named re-export.
#[test]
fn a_module_hands_on_whole_modules_by_export_star() {
    let source = "export * from \"./v4/classic/external.js\";\nexport * from './checks';\nexport * as locales from \"./locales\";\nexport { a } from \"./a\";\nimport { b } from \"./b\";\n";
    for language in [Language::TypeScript, Language::JavaScript] {
        let facts = extract(language, source.as_bytes(), &Limits::default())
            .unwrap_or_else(|e| panic!("{language}: {e}"));
        assert_eq!(
            facts.star_exports,
            ["./checks", "./v4/classic/external.js"],
            "{language}"
        );
    }
}

/// A Java class named as the object of a static call, a field access or a method reference
/// is used there (`StringUtils.isEmpty(s)` names `StringUtils` by an identifier, not a type);
/// a variable (lowerCamelCase) or a constant (UPPER_CASE) receiver names no class.
#[test]
fn a_java_class_called_statically_is_referenced() {
    let source = "class A {\n  void f(String s, Logger log) {\n    StringUtils.isEmpty(s);\n    Object e = ArrayUtils.EMPTY_OBJECT_ARRAY;\n    java.util.function.Predicate<String> p = Validate::notBlank;\n    builder.append(s);\n    LOGGER.info(s);\n    log.warn(s);\n  }\n}\n";
    let facts = extract(Language::Java, source.as_bytes(), &Limits::default())
        .unwrap_or_else(|e| panic!("{e}"));
    for name in ["StringUtils", "ArrayUtils", "Validate"] {
        assert!(
            facts.references.iter().any(|r| r == name),
            "{name}: {:?}",
            facts.references
        );
    }
    for name in ["builder", "LOGGER", "log"] {
        assert!(
            !facts.references.iter().any(|r| r == name),
            "{name}: {:?}",
            facts.references
        );
    }
}

/// A module's default export: a name, a declaration, or CommonJS's `module.exports = a`.
#[test]
fn a_module_names_its_default_export() {
    let cases: &[(Language, &str, Option<&str>)] = &[
        (
            Language::TypeScript,
            "const createInstance = () => 1;\nconst ky = createInstance();\nexport default ky;\nexport {KyError} from './errors/KyError.js';\n",
            Some("ky"),
        ),
        (Language::TypeScript, "export default class Ky {}\n", Some("Ky")),
        (Language::JavaScript, "export default function got() {}\n", Some("got")),
        (
            Language::JavaScript,
            "function createApplication() {}\nexports = module.exports = createApplication;\nexports.Router = Router;\n",
            Some("createApplication"),
        ),
        (Language::JavaScript, "export const a = 1;\nexport { a as b };\n", None),
    ];
    for (language, source, want) in cases {
        let facts = extract(*language, source.as_bytes(), &Limits::default())
            .unwrap_or_else(|e| panic!("{language}: {e}"));
        assert_eq!(
            facts.default_export.as_deref(),
            *want,
            "{language}: {source}"
        );
    }
}

/// A definition marked deprecated, each language its way; its undeprecated neighbour is not.
#[test]
fn a_deprecated_definition_is_marked() {
    let cases: &[(Language, &str)] = &[
        (
            Language::Java,
            "/** @deprecated Use commons-text. */\n@Deprecated\npublic class Old {}\n\npublic class New {}\n",
        ),
        (
            Language::Rust,
            "#[deprecated(since = \"1.2\", note = \"use New\")]\npub fn old() {}\n\npub fn new() {}\n",
        ),
        (
            Language::CSharp,
            "[Obsolete(\"Use New\")]\npublic class Old {}\n\npublic class New {}\n",
        ),
        (
            Language::Python,
            "@deprecated(\"use new\")\ndef old():\n    pass\n\n\ndef new():\n    pass\n",
        ),
        (
            Language::TypeScript,
            "/**\n * @deprecated Use `New`.\n */\nexport function old() {}\n\nexport function new_() {}\n",
        ),
        (
            Language::Go,
            "package p\n\n// Old does things.\n//\n// Deprecated: use New.\nfunc Old() {}\n\n// New does things.\nfunc New() {}\n",
        ),
        (
            Language::Php,
            "<?php\nclass C {\n    /** @deprecated */\n    public function old() {}\n\n    public function new() {}\n}\n",
        ),
    ];
    for (language, source) in cases {
        let facts = extract(*language, source.as_bytes(), &Limits::default())
            .unwrap_or_else(|e| panic!("{language}: {e}"));
        let marked = |name: &str| {
            facts
                .symbols
                .iter()
                .find(|s| s.name.eq_ignore_ascii_case(name))
                .unwrap_or_else(|| panic!("{language}: {name} missing: {:?}", facts.symbols))
                .deprecated
        };
        assert!(marked("old"), "{language}: {:?}", facts.symbols);
        let new = if *language == Language::TypeScript {
            "new_"
        } else {
            "new"
        };
        assert!(!marked(new), "{language}: {:?}", facts.symbols);
    }
}

/// A C++ namespace reopened in the same file is one namespace: its definitions are named
/// under it, not under a `#2` namesake (so are C#'s and PHP's).
#[test]
fn a_reopened_cpp_namespace_is_one() {
    // C#'s namespaces only name: there the classes are `A` and `B` whatever the blocks.
    let source = "namespace Lib\n{\n    class A {}\n}\nnamespace Lib\n{\n    class B {}\n}\n";
    let facts = extract(Language::CSharp, source.as_bytes(), &Limits::default()).unwrap();
    assert_eq!(names_and_kinds(&facts), [("A", "class"), ("B", "class")]);
    // PHP's braced namespaces hold their definitions.
    let source = "<?php\nnamespace Lib {\n    class A {}\n}\nnamespace Lib {\n    class B {}\n}\n";
    let facts = extract(Language::Php, source.as_bytes(), &Limits::default()).unwrap();
    assert_eq!(
        names_and_kinds(&facts),
        [("Lib", "module"), ("Lib.A", "class"), ("Lib.B", "class")]
    );
    let source = "namespace lib {\nint a() { return 1; }\n}  // namespace lib\n\nstatic int helper() { return 0; }\n\nnamespace lib {\nint b() { return 2; }\nnamespace detail {\nint c() { return 3; }\n}\n}  // namespace lib\n";
    let facts = extract(Language::Cpp, source.as_bytes(), &Limits::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let names: Vec<&str> = facts
        .symbols
        .iter()
        .map(|s| s.qualified_name.as_str())
        .collect();
    assert_eq!(
        names,
        [
            "lib",
            "lib.a",
            "helper",
            "lib.b",
            "lib.detail",
            "lib.detail.c"
        ],
        "{:?}",
        facts.symbols
    );
}

/// A macro before a type of the language opens a declaration as a specifier: Redis's module
/// API (`REDISMODULE_API int (*RedisModule_CreateCommand)(…)`) was hundreds of symbols named
/// `int` and `void`, and `MY_API struct foo *make(void)` a variable named `struct`.
#[test]
fn c_macros_before_a_builtin_type_are_specifiers() {
    let source = b"#define MYAPI\nREDISMODULE_API int (*RedisModule_CreateCommand)(const char *name, int flags) REDISMODULE_ATTR;\nMYAPI void (*My_Free)(void *ptr);\nMY_API struct foo *make_foo(void);\nNORETURN void die(const char *err, ...);\nMY_HANDLE open_handle(const char *path);\nenum { A, B = LAST_VALUE };\n";
    for language in [Language::C, Language::Cpp] {
        let facts = extract(language, source, &Limits::default()).unwrap();
        let seen: Vec<(&str, &str)> = facts
            .symbols
            .iter()
            .filter(|s| !matches!(s.kind, "macro" | "enum" | "constant"))
            .map(|s| (s.qualified_name.as_str(), s.kind))
            .collect();
        assert_eq!(
            seen,
            [
                ("RedisModule_CreateCommand", "variable"),
                ("My_Free", "variable"),
                ("make_foo", "function"),
                ("die", "function"),
                ("open_handle", "function"),
            ],
            "{language}: {:?}",
            facts.symbols
        );
    }
}

/// A derive macro is named as users derive it: `#[derive(Encode)]`, not by its function
/// (serde's overview exported `derive_serialize` and `derive_deserialize`).
#[test]
fn rust_derive_macros_are_named_as_users_derive_them() {
    let source = b"use proc_macro::TokenStream;\n\n/// Derives it.\n#[proc_macro_derive(Encode, attributes(encode))]\npub fn derive_encode(input: TokenStream) -> TokenStream {\n    input\n}\n\n#[proc_macro]\npub fn make(input: TokenStream) -> TokenStream {\n    input\n}\n";
    let facts = extract(Language::Rust, source, &Limits::default()).unwrap();
    let seen: Vec<(&str, &str, Option<&str>)> = facts
        .symbols
        .iter()
        .map(|s| (s.qualified_name.as_str(), s.kind, s.visibility))
        .collect();
    assert_eq!(
        seen,
        [
            ("Encode", "macro", Some("public")),
            ("make", "function", Some("public"))
        ]
    );
}

/// A declaration whose definition the file does not hold is marked a prototype; one the file
/// defines is dropped for the definition.
#[test]
fn c_prototypes_are_marked() {
    let source = b"static void helper(int x);\nvoid free_thing(int *c);\nextern int counter;\nvoid use_a(int *c) { helper(1); free_thing(c); }\nstatic void helper(int x)\n{\n    (void)x;\n}\n";
    let facts = extract(Language::C, source, &Limits::default()).unwrap();
    let seen: Vec<(&str, bool)> = facts
        .symbols
        .iter()
        .map(|s| (s.qualified_name.as_str(), s.prototype))
        .collect();
    assert_eq!(
        seen,
        [
            ("free_thing", true),
            ("counter", true),
            ("use_a", false),
            ("helper", false)
        ]
    );
}

/// The fields of a struct with no name belong to the variable it types (Redis's
/// `rdbstate.key` was a top-level field `key`).
#[test]
fn c_fields_of_an_anonymous_struct_variable_are_its_members() {
    let source = b"struct {\n    int rio;\n    char *key;\n} rdbstate;\n\nstruct named {\n    int y;\n} instance;\n";
    for language in [Language::C, Language::Cpp] {
        let facts = extract(language, source, &Limits::default()).unwrap();
        let seen = names_and_kinds(&facts);
        assert_eq!(
            seen,
            [
                ("rdbstate", "variable"),
                ("rdbstate.rio", "field"),
                ("rdbstate.key", "field"),
                ("instance", "variable"),
                ("named", "struct"),
                ("named.y", "field"),
            ],
            "{language}"
        );
    }
}

/// A Go spec of a group says what it declares (`type IntBase = Base[int]`, not
/// `IntBase = Base[int]`: urfave/cli's `StringSlice = SliceBase[…]`).
#[test]
fn go_grouped_specs_keep_their_keyword() {
    let source = b"package g\n\ntype (\n\tIntBase = Base[int]\n\tStrBase struct{ s string }\n)\n\nvar (\n\tA = 1\n\tB int\n)\n";
    let facts = extract(Language::Go, source, &Limits::default()).unwrap();
    let seen: Vec<&str> = facts
        .symbols
        .iter()
        .filter(|s| s.kind != "field")
        .map(|s| s.signature.as_str())
        .collect();
    assert_eq!(
        seen,
        [
            "type IntBase = Base[int]",
            "type StrBase struct",
            "var A = …",
            "var B int"
        ]
    );
}

/// A blanket impl's members are the impl's, not of a type named like its parameter (serde's
/// `impl<'de, 'a, A> SeqAccess<'de> for &'a mut A` gave `A.Error`).
#[test]
fn rust_blanket_impl_members_belong_to_the_impl() {
    let source = b"impl<'de, 'a, A> SeqAccess<'de> for &'a mut A {\n    type Error = A::Error;\n}\nimpl<T: Clone + Send> Trait for T {\n    fn go(&self) {}\n}\nimpl<T> Wrapper<T> {\n    pub fn get(&self) {}\n}\n";
    let facts = extract(Language::Rust, source, &Limits::default()).unwrap();
    let members: Vec<(&str, Option<&str>)> = facts
        .symbols
        .iter()
        .filter(|s| s.kind != "impl")
        .map(|s| (s.qualified_name.as_str(), s.parent.as_deref()))
        .collect();
    assert_eq!(
        members,
        [
            (
                "impl SeqAccess<'de> for &'a mut A.Error",
                Some("impl SeqAccess<'de> for &'a mut A")
            ),
            ("impl Trait for T.go", Some("impl Trait for T")),
            ("Wrapper.get", Some("impl Wrapper<T>")),
        ]
    );
}

/// A TypeScript function's overload signatures and implementation are one definition, shown
/// by its first signature (vue's `reactive` was `reactive` and `reactive#2`, the
/// implementation's `reactive(target: object)` first in search); signatures no implementation
/// follows stay.
#[test]
fn typescript_overloads_and_their_implementation_are_one_definition() {
    let source = b"export function reactive<T extends object>(target: T): T\nexport function reactive(target: object) {\n  function inner() {}\n  return target\n}\n\nclass K {\n  get(a: number): number\n  get(a: string): string\n  get(a: any) { return a }\n}\n\ninterface I {\n  on(a: number): void\n  on(a: string): void\n}\n";
    let facts = extract(Language::TypeScript, source, &Limits::default()).unwrap();
    let seen: Vec<(&str, u32, u32, &str)> = facts
        .symbols
        .iter()
        .map(|s| {
            (
                s.qualified_name.as_str(),
                s.start_line,
                s.end_line,
                s.signature.as_str(),
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            (
                "reactive",
                1,
                5,
                "export function reactive<T extends object>(target: T): T"
            ),
            ("reactive.inner", 3, 3, "function inner()"),
            ("K", 7, 11, "class K"),
            ("K.get", 8, 10, "get(a: number): number"),
            ("I", 13, 16, "interface I"),
            ("I.on", 14, 14, "on(a: number): void"),
            ("I.on#2", 15, 15, "on(a: string): void"),
        ]
    );
}

/// A value cast to a type keeps the type, never the value (vue's `export const createApp =
/// ((…) => {…}) as CreateAppFunction<Element>` read `export const createApp`).
#[test]
fn typescript_casts_keep_their_type_and_hide_their_value() {
    let source = b"export const createApp = ((...args: unknown[]) => {\n  return 1\n}) as CreateAppFunction<Element>\nexport const mode = \"secret-mode\" as \"secret-mode\" | \"y\"\nconst cfg = { token: 12345678 } satisfies Config\n";
    let facts = extract(Language::TypeScript, source, &Limits::default()).unwrap();
    let signatures: Vec<&str> = facts.symbols.iter().map(|s| s.signature.as_str()).collect();
    assert_eq!(
        signatures,
        [
            "export const createApp = … as CreateAppFunction<Element>",
            "export const mode = … as … | …",
            "const cfg = … satisfies Config",
        ]
    );
}

/// A Ruby alias written with symbols is named without the colon (devise's `alias
/// :scope_name :resource_name` was `DeviseController.:scope_name`, an id no entity had).
#[test]
fn ruby_aliases_of_symbols_are_named_plainly() {
    let source =
        b"class Widget\n  def render\n  end\n  alias :draw :render\n  alias paint render\nend\n";
    let facts = extract(Language::Ruby, source, &Limits::default()).unwrap();
    let names: Vec<&str> = facts
        .symbols
        .iter()
        .map(|s| s.qualified_name.as_str())
        .collect();
    assert_eq!(
        names,
        ["Widget", "Widget.render", "Widget.draw", "Widget.paint"]
    );
}

/// A Python method's signature says how it is reached when a decorator decides it: werkzeug's
/// `Request.form` (`@cached_property`) read `def form(self) -> …`, a call.
#[test]
fn python_properties_and_static_methods_say_so() {
    let source = b"from functools import cached_property\n\nclass Request:\n    @cached_property\n    def form(self) -> dict:\n        return {}\n\n    @property\n    def data(self) -> bytes:\n        return b''\n\n    @staticmethod\n    def parse(raw: bytes) -> 'Request':\n        return Request()\n\n    @classmethod\n    def empty(cls):\n        return cls()\n\n    def plain(self):\n        pass\n";
    let facts = extract(Language::Python, source, &Limits::default()).unwrap();
    let signatures: Vec<&str> = facts
        .symbols
        .iter()
        .filter(|s| s.kind == "method")
        .map(|s| s.signature.as_str())
        .collect();
    assert_eq!(
        signatures,
        [
            "@cached_property def form(self) -> dict",
            "@property def data(self) -> bytes",
            "@staticmethod def parse(raw: bytes) -> 'Request'",
            "@classmethod def empty(cls)",
            "def plain(self)",
        ]
    );
}

/// What `#[doc(hidden)]` marks is no API, however `pub`: tokio's root re-exported
/// `select_priv_clean_pattern` and its overview listed it among the crate's exports.
#[test]
fn rust_doc_hidden_items_and_reexports_are_no_api() {
    let source = b"pub mod net;\npub use macros::main;\n#[doc(hidden)]\npub use macros::select_priv_helper;\n\n#[doc(hidden)]\npub fn internal_helper() {}\n\npub fn shown() {}\n";
    let facts = extract(Language::Rust, source, &Limits::default()).unwrap();
    assert_eq!(facts.reexports, ["main"]);
    let visibility: Vec<(&str, Option<&str>)> = facts
        .symbols
        .iter()
        .map(|s| (s.qualified_name.as_str(), s.visibility))
        .collect();
    assert_eq!(
        visibility,
        [
            ("net", Some("public")),
            ("internal_helper", Some("internal")),
            ("shown", Some("public")),
        ]
    );
}

/// An attribute on a C# type parameter is left out without a space in its place:
/// Polly's `AddRetry<[DynamicallyAccessedMembers(…)] TResult>` read `AddRetry< TResult>`.
#[test]
fn csharp_type_parameter_attributes_leave_no_space() {
    let source = b"public static class RetryExtensions\n{\n    public static Builder<TResult> AddRetry<[DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.All)] TResult>(this Builder<TResult> builder, [NotNull] Options<TResult> options) { return builder; }\n}\n";
    let facts = extract(Language::CSharp, source, &Limits::default()).unwrap();
    let add = facts
        .symbols
        .iter()
        .find(|s| s.name == "AddRetry")
        .unwrap_or_else(|| panic!("{facts:?}"));
    assert_eq!(
        add.signature,
        "public static Builder<TResult> AddRetry<TResult>(this Builder<TResult> builder, Options<TResult> options)"
    );
}

/// A Go embedded field uses the type it is named by: testify's `struct{ mock.Mock }` was no
/// reference to `Mock`; a named field's type is one as before, and a C struct's fields are
/// untouched.
#[test]
fn go_embedded_fields_are_references_to_their_types() {
    let source = b"package svc\n\nimport \"example.com/m/mock\"\n\ntype Svc struct {\n\tmock.Mock\n\t*Group\n\tname string\n}\n";
    let facts = extract(Language::Go, source, &Limits::default()).unwrap();
    for name in ["Mock", "Group"] {
        assert!(
            facts.references.iter().any(|r| r == name),
            "{name}: {facts:?}"
        );
    }
    let fields: Vec<&str> = facts
        .symbols
        .iter()
        .map(|s| s.qualified_name.as_str())
        .collect();
    assert_eq!(fields, ["Svc", "Svc.Mock", "Svc.Group", "Svc.name"]);
}

/// A Python decorator applied without a call references its name as a call does: attrs'
/// `@define` and `@attr.define` were no use of `define`.
#[test]
fn python_bare_decorators_are_references() {
    let source = b"import attr\nfrom attrs import define\n\n@define\nclass A:\n    x: int\n\n@attr.frozen\nclass B:\n    pass\n\n@attr.s(auto_attribs=True)\nclass C:\n    pass\n";
    let facts = extract(Language::Python, source, &Limits::default()).unwrap();
    for name in ["define", "frozen", "s"] {
        assert!(
            facts.references.iter().any(|r| r == name),
            "{name}: {facts:?}"
        );
    }
}

/// A comment after a declaration on its line is no part of it: pino's `const isoTime = () =>
/// … // using Date.now()` read `isoTime = () =>` without its `const`, its body as `{ … }`,
/// and adding such a comment was a changed signature. Go's one-spec declarations alike.
#[test]
fn a_trailing_comment_changes_no_declaration() {
    let js = |text: &str| {
        let facts = extract(Language::JavaScript, text.as_bytes(), &Limits::default()).unwrap();
        facts
            .symbols
            .iter()
            .map(|s| s.signature.clone())
            .collect::<Vec<_>>()
    };
    let plain = "const nullTime = () => ''\nconst isoTime = () => `,\"time\"`\n";
    let commented =
        "const nullTime = () => '' // no time\nconst isoTime = () => `,\"time\"` /* iso */\n";
    assert_eq!(
        js(plain),
        ["const nullTime = () =>", "const isoTime = () =>"]
    );
    assert_eq!(js(commented), js(plain));
    let go = |text: &str| {
        let facts = extract(Language::Go, text.as_bytes(), &Limits::default()).unwrap();
        facts
            .symbols
            .iter()
            .map(|s| s.signature.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        go("package p\n\nconst Limit = 3 // at most\n"),
        go("package p\n\nconst Limit = 3\n")
    );
}

/// A C library's export macro before a declaration with a named return type is no type:
/// lz4's `LZ4LIB_API LZ4_stream_t* LZ4_createStream(void);` was a symbol `LZ4_stream_t` of
/// type `LZ4LIB_API`, and the function was lost. A macro before one word and `(` may be the
/// return type itself, and stays.
#[test]
fn c_export_macros_before_a_named_return_type_are_no_type() {
    let source = b"typedef struct LZ4_stream_u LZ4_stream_t;\nMYLIB_API LZ4_stream_t* LZ4_createStream(void);\nMYLIB_API const char * LZ4_versionString(void);\nMYLIB_API int LZ4_freeStream(LZ4_stream_t* s);\nMY_HANDLE open_it(int x);\n";
    let facts = extract(Language::C, source, &Limits::default()).unwrap();
    let found: Vec<(&str, &str)> = facts
        .symbols
        .iter()
        .map(|s| (s.qualified_name.as_str(), s.signature.as_str()))
        .collect();
    assert_eq!(
        found,
        [
            ("LZ4_stream_t", "typedef struct LZ4_stream_u LZ4_stream_t"),
            ("LZ4_createStream", "LZ4_stream_t* LZ4_createStream(void)"),
            ("LZ4_versionString", "const char * LZ4_versionString(void)"),
            ("LZ4_freeStream", "int LZ4_freeStream(LZ4_stream_t* s)"),
            ("open_it", "MY_HANDLE open_it(int x)"),
        ],
        "{facts:?}"
    );
    // Markers without a `_` around a named return type (zlib's `ZEXTERN uLong ZEXPORT
    // crc32(…)`): every such function was lost, `ZEXTERN uLong` read as a declaration.
    let zlib = b"#define ZEXTERN extern\n#define ZEXPORT\ntypedef unsigned long uLong;\nZEXTERN int ZEXPORT deflate(int strm, int flush);\nZEXTERN uLong ZEXPORT crc32(uLong crc, unsigned len);\nZEXTERN const char * ZEXPORT zlibVersion(void);\nuLong ZEXPORT adler32(uLong adler, unsigned len);\nBOOL WINAPI DllMain(int x);\nconst HANDLE get_handle(int x);\n";
    let facts = extract(Language::C, zlib, &Limits::default()).unwrap();
    let found: Vec<&str> = facts
        .symbols
        .iter()
        .map(|s| s.qualified_name.as_str())
        .collect();
    assert_eq!(
        found,
        [
            "ZEXTERN",
            "ZEXPORT",
            "uLong",
            "deflate",
            "crc32",
            "zlibVersion",
            "adler32",
            "DllMain",
            "get_handle"
        ],
        "{facts:?}"
    );
}

/// A Java annotation type's elements are its members, their defaults hidden as values are:
/// javapoet's annotation elements had no symbol, so a changed default was a bare content
/// change.
#[test]
fn java_annotation_type_elements_are_members() {
    let source = b"public @interface Level {\n    String level() default \"normal\";\n    int[] codes() default {1, 2};\n    Class<?> type();\n}\n";
    let facts = extract(Language::Java, source, &Limits::default()).unwrap();
    let members: Vec<(&str, &str, &str)> = facts
        .symbols
        .iter()
        .map(|s| (s.qualified_name.as_str(), s.kind, s.signature.as_str()))
        .collect();
    assert_eq!(
        members,
        [
            ("Level", "interface", "public @interface Level"),
            ("Level.level", "method", "String level() default …"),
            ("Level.codes", "method", "int[] codes() default {1, 2}"),
            ("Level.type", "method", "Class<?> type()"),
        ],
        "{facts:?}"
    );
}

/// A Java type-use annotation after a qualifier's dot leaves no space: jsoup's
/// `HttpConnection.@Nullable Response` read `HttpConnection. Response`.
#[test]
fn java_type_use_annotations_after_a_dot_leave_no_space() {
    let source = b"class Conn {\n    public void follow(Conn.@Nullable Response prev, @Nullable String name) {}\n}\n";
    let facts = extract(Language::Java, source, &Limits::default()).unwrap();
    let follow = facts
        .symbols
        .iter()
        .find(|s| s.name == "follow")
        .unwrap_or_else(|| panic!("{facts:?}"));
    assert_eq!(
        follow.signature,
        "public void follow(Conn.Response prev, String name)"
    );
}

/// A C# verbatim string with escaped quotes loses nothing after it: efcore's
/// `$@"""{stringValue}"""` left `ExpressionPrinter` without its members.
#[test]
fn csharp_members_after_a_verbatim_string_with_escaped_quotes_are_whole() {
    let source = b"namespace Demo;\npublic class Printer\n{\n    public string Quote(string stringValue)\n    {\n        return $@\"\"\"{stringValue}\"\"\";\n    }\n    public virtual Printer Append(string value)\n    {\n        return this;\n    }\n}\n";
    let facts = extract(Language::CSharp, source, &Limits::default()).unwrap();
    let seen: Vec<(&str, u32, u32)> = facts
        .symbols
        .iter()
        .map(|s| (s.qualified_name.as_str(), s.start_line, s.end_line))
        .collect();
    assert_eq!(
        seen,
        [
            ("Printer", 2, 12),
            ("Printer.Quote", 4, 7),
            ("Printer.Append", 8, 11)
        ]
    );
}

/// A Go file built only on request (a tag of the project's own, or `ignore`) holds
/// conditional symbols; one excluded by negations, or built for a platform, does not.
#[test]
fn go_files_built_on_request_are_conditional() {
    let conditional = |source: &[u8]| {
        let facts = extract(Language::Go, source, &Limits::default()).unwrap();
        facts.symbols.iter().all(|s| s.conditional) && !facts.symbols.is_empty()
    };
    let body = "\n\npackage labels\n\ntype Labels struct{ data string }\n\nfunc New() Labels { return Labels{} }\n";
    for (constraint, expected) in [
        ("//go:build dedupelabels", true),
        ("//go:build ignore", true),
        ("//go:build linux && integration", true),
        ("//go:build !slicelabels && !dedupelabels", false),
        ("//go:build linux || darwin", false),
        ("//go:build go1.21 && !windows", false),
        ("// a comment only", false),
    ] {
        let source = format!("{constraint}{body}");
        assert_eq!(conditional(source.as_bytes()), expected, "{constraint}");
    }
}

/// `typedef struct point {…} point;` is one definition, holding the fields (jq's `block` was
/// `block` and `block#2`, its fields `block#2.first`); with another name the struct stays a
/// symbol of its own beside the typedef.
#[test]
fn c_typedef_of_a_same_named_struct_is_one_symbol() {
    let source = b"typedef struct point {\n  int x;\n  int y;\n} point;\n\ntypedef struct node {\n  int v;\n} node_t;\n";
    for language in [Language::C, Language::Cpp] {
        let facts = extract(language, source, &Limits::default()).unwrap();
        let seen = names_and_kinds(&facts);
        assert_eq!(
            seen,
            [
                ("point", "type"),
                ("point.x", "field"),
                ("point.y", "field"),
                ("node", "struct"),
                ("node_t", "type"),
                ("node.v", "field"),
            ],
            "{language}"
        );
    }
}

/// A C++ macro defined inside a namespace has no scope (googletest's `EXPECT_EQ` was
/// `testing.EXPECT_EQ`).
#[test]
fn cpp_macros_inside_a_namespace_are_top_level() {
    let source = b"namespace testing {\nint Compare(int a, int b);\n#define EXPECT_EQ(a, b) ::testing::Compare((a), (b))\n#define GTEST_FLAG_PREFIX \"gtest_\"\n}\n";
    let facts = extract(Language::Cpp, source, &Limits::default()).unwrap();
    let names: Vec<&str> = facts
        .symbols
        .iter()
        .map(|s| s.qualified_name.as_str())
        .collect();
    assert_eq!(
        names,
        [
            "testing",
            "testing.Compare",
            "EXPECT_EQ",
            "GTEST_FLAG_PREFIX"
        ]
    );
}

/// A field typed by its own name uses the type (logrus's `Logger *Logger` in `entry.go`):
/// the name is a reference of the file though a field of that name is defined in it; a field
/// of another type is no reference to its own name.
#[test]
fn a_field_typed_by_its_own_name_references_the_type() {
    let go =
        b"package lg\n\ntype Entry struct {\n\tLogger *Logger\n\tLevel Level\n\tName string\n}\n";
    let facts = extract(Language::Go, go, &Limits::default()).unwrap();
    for used in ["Logger", "Level"] {
        assert!(
            facts.references.iter().any(|r| r == used),
            "{used}: {:?}",
            facts.references
        );
    }
    assert!(
        !facts.references.iter().any(|r| r == "Name"),
        "{:?}",
        facts.references
    );
    let cs = b"namespace Acme;\npublic class Entry\n{\n    public Logger Logger { get; set; }\n    public string Title { get; set; }\n}\n";
    let facts = extract(Language::CSharp, cs, &Limits::default()).unwrap();
    assert!(
        facts.references.iter().any(|r| r == "Logger"),
        "{:?}",
        facts.references
    );
    assert!(
        !facts.references.iter().any(|r| r == "Title"),
        "{:?}",
        facts.references
    );
}

/// `Reply.prototype.send = function` defines a method of `Reply`, a class then, and the accessors of
/// `Object.defineProperties` are no symbols (fastify's `Reply` had no members, and fifteen
/// `get ()` were its request file's symbols).
#[test]
fn javascript_prototype_methods_have_their_owner_and_accessors_are_no_symbols() {
    let source = b"function Reply (res) { this.res = res }\nReply.prototype.send = function (payload) { return this }\nReply.prototype['code'] = function (c) { return this }\nexports.helper = function () {}\nObject.defineProperties(Reply.prototype, {\n  url: { get () { return this.res.url } },\n  validate: { value: function (schema) { return true } }\n})\nmodule.exports = Reply\n";
    let facts = extract(Language::JavaScript, source, &Limits::default()).unwrap();
    let seen = names_and_kinds(&facts);
    assert_eq!(
        seen,
        [
            ("Reply", "class"),
            ("Reply.send", "method"),
            ("helper", "function"),
        ]
    );
}

/// A function in an object handed to a call is the call's option or callback, no symbol
/// (yargs's `YargsFactory({argv: () => process.argv})` listed `argv: () =>`); one in an
/// object the module exports, or only seals (`Object.freeze({…})`), stays.
#[test]
fn javascript_functions_in_a_calls_object_argument_are_no_symbols() {
    let source = b"import {YargsFactory} from './factory.mjs';\nexport default YargsFactory({argv: () => process.argv, cwd() { return '/' }});\nexport const api = Object.freeze({ parse: (s) => s });\nmodule.exports = { helper: function () {} };\n";
    let facts = extract(Language::JavaScript, source, &Limits::default()).unwrap();
    let seen = names_and_kinds(&facts);
    assert!(!seen.iter().any(|(n, _)| *n == "argv"), "{seen:?}");
    assert!(
        seen.iter().any(|(n, _)| *n == "api.parse" || *n == "parse"),
        "{seen:?}"
    );
    assert!(seen.iter().any(|(n, _)| *n == "helper"), "{seen:?}");
}

/// A method of `class << self` is the class's and reads so, as `def self.via` does (sidekiq's
/// `Client.push` and `Client.enqueue` read as instance methods); `private` in the block hides.
#[test]
fn ruby_methods_of_class_self_read_as_class_methods() {
    let source = b"class Client\n  def push(item)\n  end\n\n  def self.via(pool)\n  end\n\n  class << self\n    def enqueue(klass)\n    end\n\n    private\n\n    def secret\n    end\n  end\nend\n";
    let facts = extract(Language::Ruby, source, &Limits::default()).unwrap();
    let seen: Vec<(&str, &str, Option<&str>)> = facts
        .symbols
        .iter()
        .map(|s| {
            (
                s.qualified_name.as_str(),
                s.signature.as_str(),
                s.visibility,
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            ("Client", "class Client", None),
            ("Client.push", "def push(item)", Some("public")),
            ("Client.via", "def self.via(pool)", Some("public")),
            ("Client.enqueue", "def self.enqueue(klass)", Some("public")),
            ("Client.secret", "def self.secret", Some("private")),
        ]
    );
}

/// A C/C++ function named in capitals is a function: after a type alone the name is no
/// annotation of a declarator (googletest's `int RUN_ALL_TESTS()`, its main entry call, was
/// no symbol, while leveldb's `MemTable* imm_ GUARDED_BY(mutex_);` stays a field).
#[test]
fn c_functions_named_in_capitals_are_functions() {
    let source = b"int RUN_ALL(void);\ninline int RUN_ALL_TESTS() { return 0; }\nstatic const char *GET_NAME(int x);\nstruct S {\n  MemTable* imm_ GUARDED_BY(mutex_);\n};\n";
    for language in [Language::C, Language::Cpp] {
        let facts = extract(language, source, &Limits::default()).unwrap();
        let names: Vec<&str> = facts
            .symbols
            .iter()
            .map(|s| s.qualified_name.as_str())
            .collect();
        assert_eq!(
            names,
            ["RUN_ALL", "RUN_ALL_TESTS", "GET_NAME", "S", "S.imm_"],
            "{language}"
        );
    }
}

/// A getter named for its field keeps the plain name; the field is the later duplicate
/// (hyper's `ExtraConfig.retries#2` was the `pub fn retries(&self)` users call).
#[test]
fn a_method_named_for_a_field_keeps_the_plain_name() {
    let source = b"pub struct Config {\n    retries: u32,\n}\n\nimpl Config {\n    pub fn retries(&self) -> u32 {\n        self.retries\n    }\n}\n";
    let facts = extract(Language::Rust, source, &Limits::default()).unwrap();
    let seen = names_and_kinds(&facts);
    assert!(seen.contains(&("Config.retries", "method")), "{seen:?}");
    assert!(seen.contains(&("Config.retries#2", "field")), "{seen:?}");
}

/// A name a script's `if __name__ == "__main__":` block binds is no symbol of the module
/// (rich's demo `table = Table()` came second in `search Table`); one bound under another
/// condition is.
#[test]
fn python_main_block_variables_are_no_symbols() {
    let source = b"import sys\n\nif sys.platform == 'win32':\n    clock = 1\n\n\nclass Table:\n    pass\n\n\nif __name__ == \"__main__\":\n    table = Table()\n    console = None\n";
    let facts = extract(Language::Python, source, &Limits::default()).unwrap();
    let names: Vec<&str> = facts
        .symbols
        .iter()
        .map(|s| s.qualified_name.as_str())
        .collect();
    assert_eq!(names, ["clock", "Table"]);
}

/// A Python annotation's string is a type (a forward reference), kept in the signature; a
/// default value's string stays hidden.
#[test]
fn python_forward_reference_annotations_are_kept() {
    let source = b"def get_console() -> \"Console\":\n    pass\n\n\ndef inspect(obj, *, console: Optional[\"Console\"] = None, title: str = \"secret\") -> None:\n    pass\n";
    let facts = extract(Language::Python, source, &Limits::default()).unwrap();
    let sigs: Vec<&str> = facts.symbols.iter().map(|s| s.signature.as_str()).collect();
    assert_eq!(
        sigs,
        [
            "def get_console() -> \"Console\"",
            "def inspect(obj, *, console: Optional[\"Console\"] = None, title: str = …) -> None"
        ]
    );
}

#[test]
fn a_rust_macro_is_public_only_when_exported() {
    let source = b"macro_rules! tri {\n    ($e:expr) => { $e };\n}\n\n#[macro_export]\nmacro_rules! json {\n    ($e:tt) => { 0 };\n}\n\n#[macro_export]\n#[doc(hidden)]\nmacro_rules! json_internal {\n    () => { 0 };\n}\n";
    let facts = extract(Language::Rust, source, &Limits::default()).expect("Rust");
    let seen = names_and_visibility(&facts);
    assert_eq!(
        seen,
        [
            ("tri", Some("internal")),
            ("json", Some("public")),
            ("json_internal", Some("internal"))
        ]
    );
}

#[test]
fn a_calling_convention_macro_is_no_name() {
    let source = b"#include \"cJSON.h\"\n\nint CJSON_CDECL main(void)\n{\n    return 0;\n}\n\ntypedef struct cJSON_Hooks {\n    void *(CJSON_CDECL *malloc_fn)(size_t sz);\n    void (CJSON_CDECL *free_fn)(void *ptr);\n} cJSON_Hooks;\n";
    let facts = extract(Language::C, source, &Limits::default()).expect("C");
    let names: Vec<&str> = facts
        .symbols
        .iter()
        .map(|s| s.qualified_name.as_str())
        .collect();
    assert!(names.contains(&"main"), "{names:?}");
    assert!(names.contains(&"cJSON_Hooks.malloc_fn"), "{names:?}");
    assert!(names.contains(&"cJSON_Hooks.free_fn"), "{names:?}");
    assert!(
        !names.iter().any(|n| n.contains("CJSON_CDECL")),
        "{names:?}"
    );
}

#[test]
fn a_c_name_with_a_double_underscore_is_internal() {
    let source = b"struct uv__work {\n  int n;\n};\n#define UV__ERR(x) (-(x))\nint uv_run(void);\nstatic int helper(void) { return 0; }\n";
    let facts = extract(Language::C, source, &Limits::default()).expect("C");
    let seen: Vec<(&str, Option<&str>)> = facts
        .symbols
        .iter()
        .filter(|s| s.parent.is_none())
        .map(|s| (s.name.as_str(), s.visibility))
        .collect();
    assert_eq!(
        seen,
        [
            ("uv__work", Some("internal")),
            ("UV__ERR", Some("internal")),
            ("uv_run", None),
            ("helper", Some("private"))
        ]
    );
}

/// A Rust file's imports are what its own code uses, not what its `#[cfg(test)]` module does.
#[test]
fn a_rust_test_modules_uses_are_no_imports_of_the_file() {
    let source = b"use std::fmt;\n\npub struct Log;\n\n#[cfg(test)]\nmod tests {\n    use super::Log;\n    use std::cell::Cell;\n\n    #[test]\n    fn t() {}\n}\n";
    let facts = extract(Language::Rust, source, &Limits::default()).expect("Rust");
    assert_eq!(facts.imports, ["std::fmt"]);
}

/// A PHP docblock's `@internal` keeps a class or method out of the API, whatever its modifier
/// (guzzle's `EasyHandle`); a comment further up, or `@internals`, does not.
#[test]
fn a_php_docblocks_internal_tag_makes_a_definition_internal() {
    let source = b"<?php\nnamespace Acme;\n\n/**\n * @internal\n */\nfinal class EasyHandle\n{\n    /** @internal */\n    public function run() {}\n    public function keep() {}\n}\n\n/** @internals */\nclass Client\n{\n}\n";
    let facts = extract(Language::Php, source, &Limits::default()).expect("PHP");
    let seen = names_and_visibility(&facts);
    assert_eq!(
        seen,
        [
            ("EasyHandle", Some("internal")),
            ("run", Some("internal")),
            ("keep", Some("public")),
            ("Client", None)
        ]
    );
}

/// A Python module's `__all__` lists its API and is none of it; a name an `except` clause
/// binds that its `try` imports is the fallback of an import that failed (requests' `chardet =
/// None`).
#[test]
fn python_all_and_import_fallbacks_are_no_symbols() {
    let source = b"try:\n    import chardet\nexcept ImportError:\n    chardet = None\n    OpenSSL = None\ntry:\n    import x\nexcept ValueError:\n    x = None\n    kept = 1\n\n__all__ = [\"get\"]\n__version__ = \"1\"\n\n\ndef get(url):\n    try:\n        return url\n    except ValueError:\n        fallback = None\n        return fallback\n";
    let facts = extract(Language::Python, source, &Limits::default()).expect("Python");
    let names: Vec<&str> = facts.symbols.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["kept", "__version__", "get"]);
}

/// A C++ library's `namespace detail` is its implementation by convention, and what an
/// unnamed namespace holds has internal linkage (fmt's `detail::buffer` and a `.cc` file's
/// helpers were listed as its API).
#[test]
fn cpp_detail_and_unnamed_namespaces_are_not_public() {
    let source = b"namespace mini {\nnamespace detail {\nstruct buffer_impl { int size; };\n}\nnamespace {\nint anon_helper() { return 1; }\n}\nstatic int static_helper() { return 2; }\nint format(int v) { return v; }\n}\n";
    let facts = extract(Language::Cpp, source, &Limits::default()).expect("C++");
    let seen = names_and_visibility(&facts);
    for expected in [
        ("detail", Some("internal")),
        ("anon_helper", Some("private")),
        ("static_helper", Some("private")),
        ("format", None),
        ("mini", None),
    ] {
        assert!(seen.contains(&expected), "{expected:?} not in {seen:?}");
    }
}

#[test]
fn a_comment_inside_a_multi_line_macro_leaves_its_body_a_macro() {
    let source = b"#define GEN(name, type, attr) \\\nattr void \\\nname##_COLOR(struct name *head) \\\n{ \\\n} \\\n/* Inserts a node into the tree */ \\\nattr struct type * \\\nname##_INSERT(struct name *head, struct type *elm) \\\n{ \\\n  return elm; \\\n}\n\nint after(void);\n";
    let facts = extract(Language::C, source, &Limits::default()).expect("C");
    let names: Vec<&str> = facts
        .symbols
        .iter()
        .map(|s| s.qualified_name.as_str())
        .collect();
    assert_eq!(names, ["GEN", "after"]);
}

#[test]
fn a_ruby_definition_marked_nodoc_is_internal() {
    let source = b"class Thor\n  def desc(usage) # documented\n  end\n\n  def command_exists?(name) #:nodoc:\n  end\n\n  class Util # :nodoc:\n  end\n\n  private\n\n  def helper # :nodoc:\n  end\nend\n";
    let facts = extract(Language::Ruby, source, &Limits::default()).expect("Ruby");
    let seen: Vec<(&str, Option<&str>)> = facts
        .symbols
        .iter()
        .map(|s| (s.qualified_name.as_str(), s.visibility))
        .collect();
    assert!(seen.contains(&("Thor.desc", Some("public"))), "{seen:?}");
    assert!(
        seen.contains(&("Thor.command_exists?", Some("internal"))),
        "{seen:?}"
    );
    assert!(seen.contains(&("Thor.Util", Some("internal"))), "{seen:?}");
    assert!(seen.contains(&("Thor.helper", Some("private"))), "{seen:?}");
}

/// A name used only as a value's member (`v.is_empty()`, `self.run()`, `p->next`) is told
/// apart from one used on its own: it can only mean a method, field or property (fd's free
/// `fn is_empty` was central because every `.is_empty()` counted for it). Where the name before
/// the dot may be a module (`fmt.Println`, `os.path.join`, `utils.parse`), the use is no
/// member's; `self`, `this` and expressions are values. Methods every value has are no use of
/// any one definition.
#[test]
fn member_uses_are_told_apart_from_uses_on_their_own() {
    let members = |language: Language, source: &str| {
        let facts = extract(language, source.as_bytes(), &Limits::default()).unwrap();
        assert!(
            facts
                .member_references
                .iter()
                .all(|m| facts.references.binary_search(m).is_ok()),
            "{facts:?}"
        );
        (facts.references, facts.member_references)
    };
    let (refs, m) = members(
        Language::Rust,
        "fn f(v: &[u8]) -> bool { v.is_empty() && helper(v) && v.both() && both(v) }\n\
         fn g(x: &X) -> String { x.to_string() }\n",
    );
    assert!(refs.contains(&"helper".to_owned()), "{refs:?}");
    assert_eq!(m, ["is_empty"], "{refs:?}");
    assert!(!refs.contains(&"to_string".to_owned()), "{refs:?}");
    let (_, m) = members(
        Language::Python,
        "import os\nfrom pkg import utils as u\nclass A:\n    def f(self, job):\n        self.run()\n        os.path.join('a')\n        parse(1)\n        make().build()\n        u.load()\n        job.perform()\n",
    );
    assert_eq!(m, ["build", "perform", "run"]);
    let (refs, m) = members(
        Language::Go,
        "package p\nimport (\n\t\"fmt\"\n\t\"github.com/mattn/go-isatty\"\n\tlr \"example.com/logrus/v2\"\n)\nfunc f(l *L, b *strings.Builder, err error) { fmt.Println(1); l.Info(); New().Close(); isatty.IsTerminal(1); lr.WithField(); b.String(); err.Error() }\n",
    );
    assert!(refs.contains(&"IsTerminal".to_owned()), "{refs:?}");
    assert!(!refs.contains(&"String".to_owned()), "{refs:?}");
    assert_eq!(m, ["Close", "Info"], "{refs:?}");
    let (refs, m) = members(
        Language::TypeScript,
        "import * as u from './u'\nconst express = require('express')\nexport function f(app: App) { this.go(); u.parse(); make().done(); app.use(1); JSON.stringify(2); express.Router(); }\n",
    );
    assert!(refs.contains(&"Router".to_owned()), "{refs:?}");
    assert_eq!(m, ["done", "go", "stringify", "use"], "{refs:?}");
    let (refs, m) = members(
        Language::CSharp,
        "class A { void F(B b) { b.Run(); Helper(); b.ToString(); } }\n",
    );
    assert_eq!(m, ["Run"], "{refs:?}");
    assert!(!refs.contains(&"ToString".to_owned()), "{refs:?}");
    let (_, m) = members(
        Language::Java,
        "class A { void f(B b) { b.run(); helper(); } }\n",
    );
    assert_eq!(m, ["run"]);
    let (refs, m) = members(
        Language::Ruby,
        "class A\n  def f(app)\n    app.serve(1)\n    helper(2)\n    app.call(3)\n  end\nend\n",
    );
    assert_eq!(m, ["serve"], "{refs:?}");
    assert!(!refs.contains(&"call".to_owned()), "{refs:?}");
}

/// A parameter used on its own is what the use means, no definition of its name: uvicorn's
/// ASGI `await send(message)` made every `send` method central, and so does a callback's
/// `next()` or `cb(err)`. After a value's `.`, the name is still a member's.
#[test]
fn a_parameter_called_on_its_own_is_no_reference() {
    let refs = |language: Language, source: &str| {
        let facts = extract(language, source.as_bytes(), &Limits::default()).unwrap();
        (facts.references, facts.member_references)
    };
    let (r, m) = refs(
        Language::Python,
        "async def app(scope, receive, send, *, log=None):\n    await send({})\n    log()\n    helper()\n    scope.send(1)\n",
    );
    assert!(r.contains(&"helper".to_owned()), "{r:?}");
    assert!(!r.contains(&"log".to_owned()), "{r:?}");
    assert_eq!(m, ["send"], "{r:?}");
    let (r, _) = refs(
        Language::JavaScript,
        "function mw(req, res, next = noop) { next(); helper(); }\nconst f = cb => cb(1);\n",
    );
    assert!(r.contains(&"helper".to_owned()), "{r:?}");
    assert!(!r.contains(&"next".to_owned()), "{r:?}");
    assert!(!r.contains(&"cb".to_owned()), "{r:?}");
    let (r, _) = refs(
        Language::TypeScript,
        "export function run(done: () => void, fail?: () => void) { done(); fail?.(); helper(); }\n",
    );
    assert!(r.contains(&"helper".to_owned()), "{r:?}");
    assert!(!r.contains(&"done".to_owned()), "{r:?}");
}

/// An annotation or attribute uses the type it names: mockito's `@Mock` and `@InjectMocks`
/// had no users and AutoMapper's `[AutoMap(…)]` was no use of `AutoMapAttribute`, whose class
/// C# names without its suffix.
#[test]
fn annotations_and_attributes_use_their_types() {
    let refs = |language: Language, source: &str| {
        extract(language, source.as_bytes(), &Limits::default())
            .unwrap()
            .references
    };
    let r = refs(
        Language::Java,
        "class T {\n    @Mock Service s;\n    @Tracked(name = \"x\") void f() {}\n}\n",
    );
    assert!(r.contains(&"Mock".to_owned()), "{r:?}");
    assert!(r.contains(&"Tracked".to_owned()), "{r:?}");
    let r = refs(
        Language::CSharp,
        "namespace Lib;\n[Tracked(Name = \"s\")]\npublic class S { [Ignore] public int X { get; set; } [LegacyAttribute] void F() {} }\n",
    );
    for class in ["TrackedAttribute", "IgnoreAttribute", "LegacyAttribute"] {
        assert!(r.contains(&class.to_owned()), "{class}: {r:?}");
    }
    assert!(!r.contains(&"Tracked".to_owned()), "{r:?}");
}

/// A C++ source file that defines a class's constructor out of line still uses the class:
/// tinyxml2's `tinyxml2.cpp` builds `XMLElement`s everywhere and was no user of it.
#[test]
fn an_out_of_line_constructor_defines_no_class() {
    let source = "#include \"lib.h\"\nnamespace lib {\nElem::Elem(Doc* d) {}\nint Doc::LoadFile(const char* p) { Elem e(this); return e.Attr(p); }\nElem* Doc::Root() { return new Elem(this); }\n}\n";
    let facts = extract(Language::Cpp, source.as_bytes(), &Limits::default()).unwrap();
    assert!(facts.references.contains(&"Elem".to_owned()), "{facts:?}");
}

/// A C++ member declared in its class and defined out of line in the same file is its
/// declaration, with the default arguments the definition does not repeat: cpp-httplib's
/// `httplib.h` changed `size_t id = 0` to `id = 1` and no symbol changed.
#[test]
fn a_cpp_member_defined_out_of_line_in_its_file_is_its_declaration() {
    let source = "namespace lib {\nstruct Request {\n  std::string value(const std::string &key, size_t id = 0) const;\n  int plain();\n};\ninline std::string Request::value(const std::string &key, size_t id) const {\n  return key;\n}\nint Request::plain() { return 1; }\nint helper(int a) { return a; }\n}\n";
    let facts = extract(Language::Cpp, source.as_bytes(), &Limits::default()).unwrap();
    let symbols: Vec<(&str, &str, u32)> = facts
        .symbols
        .iter()
        .map(|s| {
            (
                s.qualified_name.as_str(),
                s.signature.as_str(),
                s.start_line,
            )
        })
        .collect();
    let value = symbols
        .iter()
        .filter(|s| s.0 == "lib.Request.value")
        .collect::<Vec<_>>();
    assert_eq!(value.len(), 1, "{symbols:?}");
    assert!(value[0].1.contains("size_t id = 0"), "{symbols:?}");
    assert_eq!(value[0].2, 3, "{symbols:?}");
    assert!(
        symbols
            .iter()
            .any(|s| s.0 == "lib.Request.plain" && s.2 == 4),
        "{symbols:?}"
    );
    assert!(symbols.iter().any(|s| s.0 == "lib.helper"), "{symbols:?}");
}

/// A TypeScript method signature belongs to the interface or type alias whose body holds it:
/// one in an object type deeper in a member's type is no symbol (fastify's `fastify.d.ts`
/// had a top-level `add` from `schemaController?: { bucket?: () => { add(…) } }`).
#[test]
fn a_typescript_method_signature_deep_in_a_member_type_is_no_symbol() {
    let source = "export interface Instance { listen(): void }\nexport type Options = {\n  logger?: boolean,\n  controller?: {\n    bucket?: () => {\n      add(schema: unknown): Instance;\n    };\n  };\n  close(): void;\n}\n";
    let facts = extract(Language::TypeScript, source.as_bytes(), &Limits::default()).unwrap();
    let names: Vec<&str> = facts
        .symbols
        .iter()
        .map(|s| s.qualified_name.as_str())
        .collect();
    assert!(!names.iter().any(|n| n.ends_with("add")), "{names:?}");
    assert!(names.contains(&"Instance.listen"), "{names:?}");
    assert!(names.contains(&"Options.close"), "{names:?}");
}

/// A CommonJS module that exports a named function whole defines that function: fastify's
/// `module.exports = function noopSet () {…}` was a symbol `exports` with members `add`, `has`.
#[test]
fn a_module_exporting_a_named_function_defines_it() {
    let source = "'use strict'\n\nmodule.exports = function noopSet () {\n  return {\n    add () {},\n    has () { return true }\n  }\n}\n";
    let facts = extract(Language::JavaScript, source.as_bytes(), &Limits::default()).unwrap();
    let names: Vec<&str> = facts
        .symbols
        .iter()
        .map(|s| s.qualified_name.as_str())
        .collect();
    assert_eq!(names.first(), Some(&"noopSet"), "{names:?}");
    assert!(!names.iter().any(|n| n.starts_with("exports")), "{names:?}");
    // An anonymous one is still what the module exports.
    let anonymous = "module.exports = function (a) { return a }\n";
    let facts = extract(
        Language::JavaScript,
        anonymous.as_bytes(),
        &Limits::default(),
    )
    .unwrap();
    assert_eq!(facts.symbols.len(), 1, "{:?}", facts.symbols);
}

/// A Python annotation or base class qualified by its module names the class as a bare one
/// does: blackd's `-> black.Mode` was no use of `Mode`.
#[test]
fn a_module_qualified_python_annotation_is_a_reference() {
    let source = "import pkg\nimport pkg.mode\n\n\ndef parse(h: dict) -> pkg.Mode:\n    return h\n\n\ndef use(m: pkg.mode.Options) -> None:\n    pass\n\n\nclass Server(pkg.Base):\n    pass\n";
    let facts = extract(Language::Python, source.as_bytes(), &Limits::default()).unwrap();
    for name in ["Mode", "Options", "Base"] {
        assert!(
            facts.references.contains(&name.to_owned()),
            "{name}: {facts:?}"
        );
        assert!(
            !facts.member_references.contains(&name.to_owned()),
            "{name}: {facts:?}"
        );
    }
}

/// A Ruby constant only checked for (`defined?(Rails::Railtie)`) is no reference: a Zeitwerk
/// gem's entry file exported its own `Railtie` as its API.
#[test]
fn a_ruby_constant_checked_by_defined_is_no_reference() {
    let source = "require 'zeitwerk'\nloader = Zeitwerk::Loader.for_gem\nloader.setup\nmodule Mygem\n  def self.api = API.new\nend\nrequire 'mygem/railtie' if defined?(Rails::Railtie)\n";
    let facts = extract(Language::Ruby, source.as_bytes(), &Limits::default()).unwrap();
    assert!(
        !facts.references.contains(&"Railtie".to_owned()),
        "{:?}",
        facts.references
    );
    assert!(
        facts.references.contains(&"API".to_owned()),
        "{:?}",
        facts.references
    );
    assert!(
        facts.references.contains(&"Loader".to_owned()),
        "{:?}",
        facts.references
    );
}

/// A Go field of several names reads as its own (`Total int`, not `Done, Total int`): a
/// delta listed `added [Progress] Done, Total int` twice.
#[test]
fn a_go_field_of_several_names_reads_as_its_own() {
    let source = "package p\n\ntype Progress struct {\n\tDone, Total int\n\tName string\n}\n";
    let facts = extract(Language::Go, source.as_bytes(), &Limits::default()).unwrap();
    let fields: Vec<(&str, &str)> = facts
        .symbols
        .iter()
        .filter(|s| s.kind == "field")
        .map(|s| (s.qualified_name.as_str(), s.signature.as_str()))
        .collect();
    assert_eq!(
        fields,
        [
            ("Progress.Done", "Done int"),
            ("Progress.Total", "Total int"),
            ("Progress.Name", "Name string")
        ]
    );
}

/// A conditional inside a C function keeps its first branch: zlib's `inflate.c` splits an
/// `if (` condition between `#ifdef GUNZIP` and `#else`, and `inflate` lost its return type
/// and extent, and so did every function after it. At the top level both variants of a
/// declaration stay.
#[test]
fn c_conditionals_inside_a_function_keep_their_first_branch() {
    let source = b"#ifdef _WIN32\nint open_it(const wchar_t *p);\n#else\nint open_it(const char *p);\n#endif\n\nint decode(int *state, int flush) {\n    int hold = 0; /* { */\n    for (;;)\n        switch (*state) {\n        case 1:\n#ifdef GUNZIP\n            if (hold == 0x8b1f) {\n                break;\n            }\n            if (!(flush & 1) ||\n#else\n            if (\n#endif\n                ((hold << 8) + (hold >> 8)) % 31) {\n                *state = 9;\n                break;\n            }\n            break;\n        case 2:\n            if ((\n#ifdef GUNZIP\n                 flush ? hold :\n#endif\n                 hold + 1) != *state) {\n                break;\n            }\n            return '}';\n        default:\n            return -1;\n        }\n}\n\nint decode_end(int *state) {\n    return *state;\n}\n";
    let facts = extract(Language::C, source, &Limits::default()).unwrap();
    let found: Vec<(&str, &str, u32, u32)> = facts
        .symbols
        .iter()
        .map(|s| {
            (
                s.qualified_name.as_str(),
                s.signature.as_str(),
                s.start_line,
                s.end_line,
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            ("open_it", "int open_it(const wchar_t *p)", 2, 2),
            ("open_it#2", "int open_it(const char *p)", 4, 4),
            ("decode", "int decode(int *state, int flush)", 7, 37),
            ("decode_end", "int decode_end(int *state)", 39, 41),
        ],
        "{facts:?}"
    );
}

/// A macro that stands for `try` or `catch (…)` (nlohmann/json's `JSON_TRY` and
/// `JSON_CATCH(...)`) breaks no class: `basic_json::dump` was lost, the class filed under a
/// later member.
#[test]
fn cpp_exception_macros_break_no_class() {
    let source = b"#define DOC_TRY try\n#define DOC_CATCH(e) catch(e)\nclass Doc\n{\n  public:\n    void check() const noexcept\n    {\n        DOC_TRY\n        {\n            validate();\n        }\n        DOC_CATCH(...) {}\n        JSON_INTERNAL_CATCH (std::exception& e)\n        {\n        }\n    }\n    static Doc parse(const char* s, bool strict = true);\n    int dump(const int indent = -1) const;\n};\n";
    let facts = extract(Language::Cpp, source, &Limits::default()).unwrap();
    let names: Vec<&str> = facts
        .symbols
        .iter()
        .map(|s| s.qualified_name.as_str())
        .filter(|q| !q.starts_with("DOC_"))
        .collect();
    assert_eq!(
        names,
        ["Doc", "Doc.check", "Doc.parse", "Doc.dump"],
        "{facts:?}"
    );
}

/// A name imported under another is a reference of the file whatever it defines by that name
/// later: tqdm's front ends (`from .std import tqdm as std_tqdm`, then `tqdm = tqdm_gui`) were
/// no users of its central class.
#[test]
fn python_a_name_imported_under_another_is_a_reference() {
    let source = b"from .core import meter as core_meter\n\n\nclass meter_gui(core_meter):\n    pass\n\n\nmeter = meter_gui\n";
    let facts = extract(Language::Python, source, &Limits::default()).unwrap();
    assert!(facts.references.iter().any(|r| r == "meter"), "{facts:?}");
}

/// A Ruby class or module that only opens its namespace for what it holds (a gem's
/// `module Lib; class Request; class Retry` in `lib/lib/request/retry.rb`) is no symbol:
/// its definitions keep their qualified names. One with anything of its own is one: a
/// method (in any block of it in the file), a call such as `include`, a superclass.
#[test]
fn a_ruby_namespace_only_opened_for_its_definitions_is_no_symbol() {
    let names = |source: &str| -> Vec<String> {
        let facts = extract(Language::Ruby, source.as_bytes(), &Limits::default()).unwrap();
        let mut names: Vec<String> = facts
            .symbols
            .iter()
            .map(|s| s.qualified_name.clone())
            .collect();
        names.sort();
        names
    };
    let wrapped = "module Lib\n  # The retry policy.\n  class Request\n    class Retry < Object\n      def on_request(env) = env\n    end\n  end\n  VERSION = \"1.0\"\nend\n";
    assert_eq!(
        names(wrapped),
        [
            "Lib.Request.Retry",
            "Lib.Request.Retry.on_request",
            "Lib.VERSION"
        ]
    );
    let own =
        "module Lib\n  class Request\n  end\nend\nmodule Lib\n  def self.new = Request.new\nend\n";
    assert_eq!(names(own), ["Lib", "Lib.Request", "Lib.new"]);
    let mixin = "module Lib\n  class Base < Object\n    class Inner\n    end\n  end\n  module Helpers\n    include Comparable\n    class Inner\n    end\n  end\nend\n";
    assert_eq!(
        names(mixin),
        [
            "Lib.Base",
            "Lib.Base.Inner",
            "Lib.Helpers",
            "Lib.Helpers.Inner"
        ]
    );
}

/// A Go name written only after an imported package's name is recorded with that package's
/// import path (an alias's too); one also used on its own, or after a value, is not.
#[test]
fn a_go_name_after_a_package_keeps_the_packages_import_path() {
    let source = "package m\n\nimport (\n\t\"ex.com/m/core\"\n\tzc \"go.uber.org/zap/zapcore\"\n\t_ \"embed\"\n)\n\nfunc Wrap(c core.Core, l zc.Level) core.Core {\n\tvar v Value\n\tv.Run()\n\treturn Run(c)\n}\n";
    let facts = extract(Language::Go, source.as_bytes(), &Limits::default()).unwrap();
    assert_eq!(
        facts.qualified_references,
        ["Core ex.com/m/core", "Level go.uber.org/zap/zapcore"],
        "{:?}",
        facts.references
    );
    assert!(
        facts.references.contains(&"Run".to_owned()),
        "{:?}",
        facts.references
    );
}

/// A class constructed through a namespace import (`new lib.Widget()`, in TypeScript too) is
/// a reference to it, not a member's use; `new this.Kind()` stays a member's (commander's
/// tests construct `new commander.Command()`).
#[test]
fn a_name_after_a_namespace_import_is_a_reference() {
    let js = "import * as lib from '../index.js';\nexport const w = new lib.Widget();\nexport class A { make() { return new this.Kind(); } }\n";
    let facts = extract(Language::JavaScript, js.as_bytes(), &Limits::default()).unwrap();
    assert!(
        facts.references.contains(&"Widget".to_owned()),
        "{:?}",
        facts.references
    );
    assert!(
        !facts.member_references.contains(&"Widget".to_owned()),
        "{:?}",
        facts.member_references
    );
    assert!(
        facts.member_references.contains(&"Kind".to_owned()),
        "{:?}",
        facts.member_references
    );
    let ts = "import * as ns from './lib/gadget';\nexport const g = new ns.Gadget();\n";
    let facts = extract(Language::TypeScript, ts.as_bytes(), &Limits::default()).unwrap();
    assert!(
        facts.references.contains(&"Gadget".to_owned()),
        "{:?}",
        facts.references
    );
    assert!(
        !facts.member_references.contains(&"Gadget".to_owned()),
        "{:?}",
        facts.member_references
    );
}

/// An annotation left out of a signature still counts in what it stands for: a changed
/// `@RequestParam(defaultValue = "1")` changes the symbol, a changed comment does not.
#[test]
fn a_changed_annotation_changes_the_signature_a_comment_does_not() {
    let hash = |source: &str| {
        let facts = extract(Language::Java, source.as_bytes(), &Limits::default()).unwrap();
        let s = facts
            .symbols
            .iter()
            .find(|s| s.name == "list")
            .unwrap_or_else(|| panic!("{:?}", facts.symbols));
        (s.signature.clone(), s.cut_hash)
    };
    let java = |default: &str, comment: &str| {
        format!("class C {{\n  public String list(/* {comment} */ @RequestParam(defaultValue = \"{default}\") int page) {{ return \"\"; }}\n}}\n")
    };
    let one = hash(&java("1", "a"));
    assert_eq!(one.0, "public String list(int page)");
    assert_ne!(one, hash(&java("2", "a")));
    assert_eq!(one, hash(&java("1", "b")));
}

/// A member of a Go type written inside a function (an anonymous interface, a test table's
/// struct) is no definition; one of a declared type, however nested, is.
#[test]
fn a_go_member_of_a_type_inside_a_function_is_no_symbol() {
    let source = "package m\n\ntype Config struct {\n\tServer struct {\n\t\tPort int\n\t}\n}\n\nfunc Any(key string) int {\n\tvar c interface{ Any(string) int }\n\ttests := []struct{ name string }{{\"a\"}}\n\t_, _ = c, tests\n\treturn 0\n}\n";
    let facts = extract(Language::Go, source.as_bytes(), &Limits::default()).unwrap();
    let names: Vec<&str> = facts
        .symbols
        .iter()
        .map(|s| s.qualified_name.as_str())
        .collect();
    assert_eq!(
        names,
        ["Config", "Config.Server", "Config.Server.Port", "Any"]
    );
}

/// The class a PHP value is tested for is a reference, as the one a `catch` names: symfony's
/// `$output instanceof SymfonyStyle` was no use of `SymfonyStyle`.
#[test]
fn a_php_instanceof_names_a_class() {
    let php = "<?php\nclass Asker {\n    public function ask(object $o): void {\n        if ($o instanceof Fancy) { return; }\n        if ($o instanceof \\A\\Plain) { return; }\n    }\n}\n";
    let facts = extract(Language::Php, php.as_bytes(), &Limits::default()).unwrap();
    for name in ["Fancy", "Plain"] {
        assert!(
            facts.references.contains(&name.to_owned()),
            "{name}: {:?}",
            facts.references
        );
    }
}

/// A line break between two members of a type written in braces is their separator: a
/// TypeScript object type without semicolons, a Go struct type's fields.
#[test]
fn members_a_line_break_separates_stay_apart_in_signatures() {
    let ts = "export function options(opts: {\n  retries: number\n  delay?: number\n  run(): void\n}, a: [\n  number,\n  string\n]): void {}\n";
    let facts = extract(Language::TypeScript, ts.as_bytes(), &Limits::default()).unwrap();
    assert_eq!(
        facts.symbols[0].signature,
        "export function options(opts: { retries: number; delay?: number; run(): void }, a: [number, string]): void"
    );
    let go =
        "package p\n\nfunc F(opts struct {\n\tA int\n\tB string\n}) error {\n\treturn nil\n}\n";
    let facts = extract(Language::Go, go.as_bytes(), &Limits::default()).unwrap();
    let f = facts.symbols.iter().find(|s| s.name == "F").unwrap();
    assert_eq!(f.signature, "func F(opts struct { A int; B string }) error");
}

/// A Rust file's `pub use path::*` hands the module on whole; a private glob `use` does not,
/// and neither does a glob inside an inline module.
#[test]
fn a_rust_public_glob_use_hands_a_module_on_whole() {
    let rs = "mod engine;\nmod util;\npub use crate::engine::*;\npub use util::*;\nuse std::io::*;\nmod inner { pub use super::x::*; }\n";
    let facts = extract(Language::Rust, rs.as_bytes(), &Limits::default()).unwrap();
    assert_eq!(facts.star_exports, ["crate::engine", "util"]);
}

/// A Go method or field of a name hides no use of another definition of it: Go names them
/// through a value only (validator's `func (r *NotRed) Validate()` hid `var v *Validate`).
#[test]
fn a_go_member_of_a_name_hides_no_use_of_the_name() {
    let go = "package m\n\ntype R struct{ Size int }\n\nfunc (R) Thing() error { return nil }\n\nfunc Use() int {\n\tvar t *Thing\n\tvar s Size\n\t_ = s\n\treturn t.N\n}\n";
    let facts = extract(Language::Go, go.as_bytes(), &Limits::default()).unwrap();
    for name in ["Thing", "Size"] {
        assert!(
            facts.references.contains(&name.to_owned()),
            "{name}: {:?}",
            facts.references
        );
    }
    // Its own method called through a value stays the file's.
    let own = "package m\n\ntype R struct{}\n\nfunc (R) Own() {}\n\nfunc Use(r R) { r.Own() }\n";
    let facts = extract(Language::Go, own.as_bytes(), &Limits::default()).unwrap();
    assert!(
        !facts.references.contains(&"Own".to_owned()),
        "{:?}",
        facts.references
    );
}

/// A Python module's logger is the module's own, no API: private whatever its name.
#[test]
fn a_python_module_logger_is_private() {
    let py = "import logging\nfrom logging import getLogger\n\nlog = logging.getLogger(__name__)\nLOGGER = getLogger(\"x\")\nlevel = logging.DEBUG\n";
    let facts = extract(Language::Python, py.as_bytes(), &Limits::default()).unwrap();
    let visibility = |n: &str| {
        let s = facts.symbols.iter().find(|s| s.name == n).unwrap();
        s.visibility
    };
    assert_eq!(visibility("log"), Some("private"));
    assert_eq!(visibility("LOGGER"), Some("private"));
    assert_eq!(visibility("level"), Some("public"));
}

/// A C function whose head a top-level conditional writes twice, before the one body both
/// share, is the last branch's function (curl's `wmain` under `#ifdef _UNICODE`, `main` under
/// `#else`); a conditional of whole declarations keeps every branch.
#[test]
fn a_c_head_written_per_branch_is_the_last_branchs_function() {
    let c = "#include \"tool.h\"\n#ifndef UNITTESTS\n#ifdef _UNICODE\n#ifdef DIAG\n#pragma GCC diagnostic push\n#endif\nint wmain(int argc, wchar_t *argv[])\n#else\nint main(int argc, char *argv[])\n#endif\n{\n  return tool_run(argc, argv);\n}\n#endif\n\n#ifdef WIN32\nint a(void);\n#else\nint b(void);\n#endif\n";
    let facts = extract(Language::C, c.as_bytes(), &Limits::default()).unwrap();
    let main = facts.symbols.iter().find(|s| s.name == "main");
    let main = main.unwrap_or_else(|| panic!("{:?}", facts.symbols));
    assert_eq!(main.signature, "int main(int argc, char *argv[])");
    assert_eq!((main.start_line, main.end_line), (9, 13));
    assert!(!facts.symbols.iter().any(|s| s.name == "wmain"));
    for name in ["a", "b"] {
        assert!(facts.symbols.iter().any(|s| s.name == name), "{name}");
    }
}
