//! Temporary: parse-only timing.
use std::time::Instant;
fn main() {
    let list = std::fs::read_to_string("/tmp/cfiles.txt").unwrap();
    let mut p = tree_sitter::Parser::new();
    p.set_language(&tree_sitter_c::LANGUAGE.into()).unwrap();
    let files: Vec<Vec<u8>> = list.lines().map(|f| std::fs::read(format!("/tmp/riot/{f}")).unwrap()).filter(|s| s.len() < 1 << 20).collect();
    let bytes: usize = files.iter().map(|f| f.len()).sum();
    let t = Instant::now();
    for src in &files { let _ = p.parse(src, None); }
    let parse = t.elapsed();
    let q = tree_sitter::Query::new(&tree_sitter_c::LANGUAGE.into(), &format!("{}\n{}", tree_sitter_c::TAGS_QUERY, include_str!("../src/queries/c-tags.scm"))).unwrap();
    let mut cur = tree_sitter::QueryCursor::new();
    use tree_sitter::StreamingIterator;
    let t = Instant::now();
    let mut n = 0;
    for src in &files { let tree = p.parse(src, None).unwrap(); let mut m = cur.matches(&q, tree.root_node(), src.as_slice()); while let Some(_) = m.next() { n += 1; } }
    let pq = t.elapsed();
    let t = Instant::now();
    for src in &files { let _ = repocue_structure::extract(repocue_structure::Language::C, src, &Default::default()); }
    let full = t.elapsed();
    println!("{} MB: parse {:?} ({:.1} MB/s), parse+query {:?} ({} matches), extract {:?}", bytes/1000000, parse, bytes as f64/1e6/parse.as_secs_f64(), pq, n, full);
}
