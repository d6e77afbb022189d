//! Property tests: extraction never panics on any input, and no signature, name or parent
//! ever carries a literal value planted in any construct of any language.
//!
//! The cases come from a fixed seed, so every run (CI's included) tries the same ones and a
//! failure is reproducible: under Cargo, `PROPTEST_RNG_SEED` from `.cargo/config.toml`, as for
//! every property test of the workspace; run directly, the seed below. To explore others, set
//! `PROPTEST_RNG_SEED` (and `PROPTEST_CASES`) in the environment: `for s in $(seq 1 50); do
//! PROPTEST_RNG_SEED=$s PROPTEST_CASES=2000 cargo test -p repocue-structure --test properties
//! || break; done`. Random seeds found the Bash scanner's out-of-bounds read
//! (`a_brace_before_a_wide_character_is_parsed_safely_in_bash`).

use proptest::prelude::*;
use proptest::test_runner::RngSeed;
use repocue_structure::{extract, Language, Limits, Symbol};

/// One source per language with the string `V` and the number `N` planted in constants,
/// statics, defaults, fields, enum values and macros.
fn planted_source(language: Language, v: &str, n: u64) -> String {
    match language {
        Language::Rust => format!(
            "pub const NAME: &str = \"{v}\";\nstatic S: u64 = {n};\npub enum E {{ A = {n} }}\npub fn f(x: u32) -> u32 {{ x }}\n"
        ),
        Language::Python => format!(
            "NAME = \"{v}\"\nN = {n}\ndef f(a=\"{v}\", b={n}):\n    pass\nclass C:\n    x = '{v}'\n"
        ),
        Language::Go => format!(
            "package p\nconst NAME = \"{v}\"\nvar X = {n}\ntype T struct {{\n\tF string `json:\"{v}\"`\n}}\n"
        ),
        Language::JavaScript => format!(
            "export const NAME = \"{v}\";\nfunction f(a = \"{v}\", b = {n}) {{}}\nclass C {{ x = '{v}'; static y = {n}; }}\n"
        ),
        Language::TypeScript | Language::Tsx => format!(
            "export const NAME: string = \"{v}\";\nenum E {{ A = \"{v}\", B = {n} }}\nfunction f(a: string = \"{v}\"): void {{}}\n"
        ),
        Language::Java => format!(
            "class C {{\n  static final String NAME = \"{v}\";\n  long n = {n}L;\n  void f() {{}}\n}}\n"
        ),
        Language::C => format!(
            "#define NAME \"{v}\"\n#define NUM {n}\nstatic const char *s = \"{v}\";\nenum e {{ A = {n} }};\n"
        ),
        Language::Cpp => format!(
            "class C {{\n public:\n  std::string t = \"{v}\";\n  long n = {n};\n  void f(const char *s = \"{v}\");\n}};\n"
        ),
        Language::CSharp => format!(
            "class C {{\n  const string NAME = \"{v}\";\n  long n = {n};\n  void F(string s = \"{v}\") {{}}\n}}\n"
        ),
        Language::Ruby => format!(
            "NAME = \"{v}\"\nNUM = {n}\ndef f(a = \"{v}\", b: {n})\nend\n"
        ),
        Language::Bash => format!("NAME=\"{v}\"\nf() {{\n  echo \"{v}\" {n}\n}}\n"),
        Language::Php => format!(
            "<?php\nconst NAME = \"{v}\";\nclass C {{\n  private $p = '{v}';\n  public $n = {n};\n  function f($a = \"{v}\") {{}}\n}}\n"
        ),
    }
}

fn texts(s: &Symbol) -> [&str; 4] {
    [
        &s.name,
        &s.qualified_name,
        &s.signature,
        s.parent.as_deref().unwrap_or(""),
    ]
}

fn language() -> impl Strategy<Value = Language> {
    proptest::sample::select(Language::all().to_vec())
}

/// 200 cases from a fixed seed, unless `PROPTEST_CASES` or `PROPTEST_RNG_SEED` say otherwise
/// (the default configuration reads both).
fn config() -> ProptestConfig {
    let mut config = ProptestConfig::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        config.cases = 200;
    }
    if std::env::var_os("PROPTEST_RNG_SEED").is_none() {
        config.rng_seed = RngSeed::Fixed(0x0072_6570_6f63_7565);
    }
    config
}

proptest! {
    #![proptest_config(config())]

    /// Whatever the planted value, it reaches no symbol text, and the constructs are still
    /// extracted.
    #[test]
    fn planted_values_never_reach_symbols(
        language in language(),
        v in "zq[A-Za-z0-9_./+=: -]{3,30}",
        n in 100_000u64..u64::MAX,
    ) {
        let source = planted_source(language, &v, n);
        let facts = extract(language, source.as_bytes(), &Limits::default())
            .map_err(|e| TestCaseError::fail(format!("{language}: {e}")))?;
        prop_assert!(!facts.symbols.is_empty(), "{} extracted nothing", language);
        let number = n.to_string();
        for symbol in &facts.symbols {
            for text in texts(symbol) {
                prop_assert!(!text.contains(v.as_str()), "{}: {:?} in {:?}", language, v, symbol);
                prop_assert!(!text.contains(number.as_str()), "{}: {} in {:?}", language, n, symbol);
            }
        }
    }

    /// Any bytes in any language: a result or an error, never a panic; signatures stay
    /// within their length limit.
    #[test]
    fn arbitrary_input_never_panics(
        language in language(),
        source in proptest::collection::vec(any::<u8>(), 0..400),
    ) {
        if let Ok(facts) = extract(language, &source, &Limits::default()) {
            for symbol in &facts.symbols {
                prop_assert!(symbol.signature.chars().count() <= 300);
                prop_assert!(symbol.start_line <= symbol.end_line);
            }
        }
    }

    /// Bash text where braces, brace ranges and characters of every width meet: the scanner
    /// reads the character after `{`, `{12` or `{1..2` with C's `isdigit`.
    #[test]
    fn bash_braces_before_any_character_never_crash(
        pieces in proptest::collection::vec(
            prop_oneof![
                Just("{".to_owned()), Just("}".to_owned()), Just("..".to_owned()),
                Just("f() ".to_owned()), Just("echo ".to_owned()), Just("\n".to_owned()),
                Just("\"".to_owned()), Just("$".to_owned()), "[0-9]{1,3}",
                any::<char>().prop_map(String::from),
            ],
            0..40,
        ),
    ) {
        let source: String = pieces.concat();
        let _ = extract(Language::Bash, source.as_bytes(), &Limits::default());
    }

    /// Code-like text (keywords, brackets, double-quoted strings, long numbers) in any
    /// language never panics, and a string or long number in it never reaches a signature.
    #[test]
    fn code_like_input_never_panics_or_leaks(
        language in language(),
        pieces in proptest::collection::vec(
            prop_oneof![
                Just("const "), Just("def "), Just("fn "), Just("class "), Just("let "),
                Just("function "), Just("static "), Just("= "), Just("("), Just(")"),
                Just("{"), Just("}"), Just(";"), Just("\n"), Just("    "), Just(":"),
                Just(","), Just("x"), Just("Y "), Just("#define "), Just("\"zqSECRET\""),
                Just("<?php "), Just("enum "),
                Just("@"), Just("["), Just("]"), Just(" 123456789 "),
            ],
            0..60,
        ),
    ) {
        let source: String = pieces.concat();
        if let Ok(facts) = extract(language, source.as_bytes(), &Limits::default()) {
            // In malformed code the parser may recover a quoted word as a definition's name
            // (`#define "zqSECRET"`); a name is shown, so such symbols are not judged. Nor is
            // the bare word: error recovery may pair the quotes of two strings the other way
            // round (`"zqSECRET":"zqSECRET"` read as the string `":"` between two words), and
            // then it is no literal. The string as a string never shows.
            let named = |s: &Symbol| s.name.contains("zqSECRET") || s.name.contains("123456789");
            for symbol in facts.symbols.iter().filter(|s| !named(s)) {
                prop_assert!(
                    !symbol.signature.contains("\"zqSECRET\"")
                        && !symbol.signature.contains("123456789"),
                    "{}: {:?}\nsource: {:?}", language, symbol, source
                );
            }
        }
    }
}
