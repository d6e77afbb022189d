//! Temporary: show facts.
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let src = std::fs::read(&args[1]).unwrap();
    let lang = repocue_structure::detect_language(&args[1], &src).unwrap();
    let t = std::time::Instant::now();
    let facts = repocue_structure::extract(lang, &src, &Default::default());
    eprintln!("{:?}", t.elapsed());
    let facts = match facts { Ok(f) => f, Err(e) => { println!("ERR {e}"); return; } };
    for s in &facts.symbols {
        println!("{:>3}-{:<3} {:<9} {:<28} parent={:<22} vis={:<10} | {}", s.start_line, s.end_line, s.kind, s.qualified_name, s.parent.clone().unwrap_or_default(), s.visibility.unwrap_or("-"), s.signature);
    }
    println!("imports: {:?}", facts.imports);
    println!("refs: {:?}", facts.references);
}
