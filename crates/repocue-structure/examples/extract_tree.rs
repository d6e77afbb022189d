//! Extracts every source file under a directory and reports throughput per language.
//!
//! ```text
//! cargo run -p repocue-structure --release --example extract_tree -- DIR [--tsv]
//! ```
//!
//! Without `--tsv` it prints, per language: files, bytes, symbols, failures (by reason) and
//! MB/s (extraction only, after all query configurations were built), then totals. With `--tsv` it prints one line per definition instead:
//! `path<TAB>line<TAB>kind<TAB>name<TAB>end_line` (path relative to DIR), for comparing
//! against universal-ctags, and lists refused files as `path<TAB>reason` on stderr. Single-threaded, std only; `.git` directories are skipped.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use repocue_structure::{detect_language, extract, ExtractError, Language, Limits};

#[derive(Default)]
struct Stats {
    files: usize,
    bytes: usize,
    symbols: usize,
    failures: BTreeMap<&'static str, usize>,
    time: Duration,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let tsv = args.iter().any(|a| a == "--tsv");
    let Some(root) = args.iter().find(|a| !a.starts_with("--")) else {
        eprintln!("usage: extract_tree DIR [--tsv]");
        std::process::exit(2);
    };
    let root = PathBuf::from(root);
    let mut files = Vec::new();
    walk(&root, &mut files);
    files.sort();

    let limits = Limits::default();
    // Build every language's query configuration up front so that per-language
    // throughput measures extraction, not one-off query compilation.
    let warm_up = Instant::now();
    for &language in Language::all() {
        let _ = extract(language, b"", &limits);
    }
    let warm_up = warm_up.elapsed();
    let mut stats: BTreeMap<Language, Stats> = BTreeMap::new();
    let mut out = String::new();
    for path in &files {
        let relative = path
            .strip_prefix(&root)
            .unwrap_or(path)
            .to_string_lossy()
            .into_owned();
        let Ok(source) = std::fs::read(path) else {
            continue;
        };
        let head = &source[..source.len().min(256)];
        let Some(language) = detect_language(&relative, head) else {
            continue;
        };
        let started = Instant::now();
        let result = extract(language, &source, &limits);
        let entry = stats.entry(language).or_default();
        entry.time += started.elapsed();
        entry.files += 1;
        entry.bytes += source.len();
        match result {
            Ok(facts) => {
                entry.symbols += facts.symbols.len();
                if tsv {
                    for s in &facts.symbols {
                        let line = format!(
                            "{relative}\t{}\t{}\t{}\t{}\n",
                            s.start_line, s.kind, s.name, s.end_line
                        );
                        out.push_str(&line);
                    }
                }
            }
            Err(error) => {
                *entry.failures.entry(reason(&error)).or_default() += 1;
                if tsv {
                    eprintln!("{relative}\t{}", reason(&error));
                }
            }
        }
    }
    if tsv {
        print!("{out}");
        return;
    }

    println!(
        "{:<11} {:>7} {:>12} {:>9} {:>9} {:>8}  failure reasons",
        "language", "files", "bytes", "symbols", "failures", "MB/s"
    );
    let mut total = Stats::default();
    for (language, s) in &stats {
        let failures: usize = s.failures.values().sum();
        println!(
            "{:<11} {:>7} {:>12} {:>9} {:>9} {:>8.2}  {:?}",
            language.name(),
            s.files,
            s.bytes,
            s.symbols,
            failures,
            mb_per_s(s.bytes, s.time),
            s.failures
        );
        total.files += s.files;
        total.bytes += s.bytes;
        total.symbols += s.symbols;
        total.time += s.time;
        for (reason, n) in &s.failures {
            *total.failures.entry(reason).or_default() += n;
        }
    }
    println!(
        "{:<11} {:>7} {:>12} {:>9} {:>9} {:>8.2}  {:?}",
        "total",
        total.files,
        total.bytes,
        total.symbols,
        total.failures.values().sum::<usize>(),
        mb_per_s(total.bytes, total.time),
        total.failures
    );
    println!("extraction time: {:.2} s", total.time.as_secs_f64());
    println!(
        "query compilation, all languages: {:.0} ms",
        warm_up.as_secs_f64() * 1e3
    );
}

/// Recursively collects regular files under `dir`, skipping `.git` and symlinks.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let Ok(file_type) = entry.file_type() else {
            continue;
        };
        let path = entry.path();
        if file_type.is_dir() {
            if entry.file_name() != ".git" {
                walk(&path, out);
            }
        } else if file_type.is_file() {
            out.push(path);
        }
    }
}

fn reason(error: &ExtractError) -> &'static str {
    match error {
        ExtractError::TooLarge { .. } => "too-large",
        ExtractError::Minified => "minified",
        ExtractError::Generated => "generated",
        ExtractError::OverBudget => "over-budget",
        ExtractError::TimedOut => "timed-out",
        ExtractError::Parse(_) => "parse",
    }
}

fn mb_per_s(bytes: usize, time: Duration) -> f64 {
    let seconds = time.as_secs_f64();
    if seconds == 0.0 {
        0.0
    } else {
        bytes as f64 / 1e6 / seconds
    }
}
