//! Reads UTF-8 text on stdin and prints its o200k_base token count.
//!
//! With `--batch`, reads NUL-separated documents instead and prints one
//! count per document, one per line, so the harness can count many outputs
//! with a single process (loading the BPE tables takes most of the time).

use std::io::{self, Read, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    let batch = match std::env::args().nth(1).as_deref() {
        None => false,
        Some("--batch") => true,
        Some(other) => {
            eprintln!("tokcount: unknown argument {other:?} (usage: tokcount [--batch] < input)");
            return ExitCode::from(2);
        }
    };
    let mut input = Vec::new();
    if let Err(error) = io::stdin().read_to_end(&mut input) {
        eprintln!("tokcount: cannot read stdin: {error}");
        return ExitCode::from(1);
    }
    let bpe = match tiktoken_rs::o200k_base() {
        Ok(bpe) => bpe,
        Err(error) => {
            eprintln!("tokcount: cannot load o200k_base: {error}");
            return ExitCode::from(1);
        }
    };
    let documents: Vec<&[u8]> = if batch {
        let mut parts: Vec<&[u8]> = input.split(|byte| *byte == 0).collect();
        if parts.last().is_some_and(|last| last.is_empty()) {
            parts.pop();
        }
        parts
    } else {
        vec![&input[..]]
    };
    let mut out = io::stdout().lock();
    for document in documents {
        let Ok(text) = std::str::from_utf8(document) else {
            eprintln!("tokcount: input is not UTF-8");
            return ExitCode::from(1);
        };
        let count = bpe.encode_with_special_tokens(text).len();
        if writeln!(out, "{count}").is_err() {
            return ExitCode::from(1);
        }
    }
    ExitCode::SUCCESS
}
