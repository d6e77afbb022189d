//! Temporary: dump a tree.
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let src = std::fs::read(&args[2]).unwrap();
    let lang: tree_sitter::Language = match args[1].as_str() {
        "rust" => tree_sitter_rust::LANGUAGE.into(),
        "python" => tree_sitter_python::LANGUAGE.into(),
        "go" => tree_sitter_go::LANGUAGE.into(),
        "js" => tree_sitter_javascript::LANGUAGE.into(),
        "ts" => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
        "tsx" => tree_sitter_typescript::LANGUAGE_TSX.into(),
        "java" => tree_sitter_java::LANGUAGE.into(),
        "c" => tree_sitter_c::LANGUAGE.into(),
        "cpp" => tree_sitter_cpp::LANGUAGE.into(),
        "ruby" => tree_sitter_ruby::LANGUAGE.into(),
        "bash" => tree_sitter_bash::LANGUAGE.into(),
        "cs" => tree_sitter_c_sharp::LANGUAGE.into(),
        "php" => tree_sitter_php::LANGUAGE_PHP.into(),
        _ => panic!(),
    };
    let mut p = tree_sitter::Parser::new();
    p.set_language(&lang).unwrap();
    let t = p.parse(&src, None).unwrap();
    let mut c = t.walk();
    let mut depth = 0;
    loop {
        let n = c.node();
        if n.is_named() {
            let txt = n.utf8_text(&src).unwrap_or("");
            let short: String = txt.chars().take(40).collect::<String>().replace('\n', "\\n");
            println!("{}{}{} [{}-{}] {:?}", "  ".repeat(depth), c.field_name().map(|f| format!("{f}: ")).unwrap_or_default(), n.kind(), n.start_position().row + 1, n.end_position().row + 1, if n.child_count() == 0 || txt.len() < 40 { short } else { String::new() });
        }
        if c.goto_first_child() { depth += 1; continue; }
        loop {
            if c.goto_next_sibling() { break; }
            if !c.goto_parent() { return; }
            depth -= 1;
        }
    }
}
