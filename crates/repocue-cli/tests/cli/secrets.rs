//! No literal value written in code ever leaves the source file: secret-looking values planted
//! in every language (constants, statics, default parameters, object fields, class
//! attributes, enum values, annotations, struct tags, macros) appear in no cue of any view or
//! format, no search answer and no byte of the cache (the state database with its `-wal` and
//! `-shm` files included).
//!
//! The planted files are the extractor's own secret fixtures
//! (`crates/repocue-structure/tests/fixtures/secrets/`).

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::support::TestRepo;

/// The secret fixtures, one per language.
fn fixtures_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../repocue-structure/tests/fixtures/secrets")
}

/// `(file name, content)` of every fixture, in name order.
fn fixtures() -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = std::fs::read_dir(fixtures_dir())
        .expect("secret fixtures")
        .map(|e| {
            let path = e.expect("dir entry").path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&path).expect("read fixture"))
        })
        .collect();
    files.sort();
    assert_eq!(files.len(), 13, "one fixture per language");
    files
}

/// The planted values of a fixture: every `sk-…-Q7` token and every number of nine or more
/// digits starting with `7777`.
fn planted_values(source: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = source;
    while let Some(at) = rest.find("sk-") {
        let tail = &rest[at..];
        let len = tail
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
            .unwrap_or(tail.len());
        if tail[..len].ends_with("-Q7") {
            out.push(tail[..len].to_string());
        }
        rest = &tail[len.max(1)..];
    }
    let bytes = source.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit() && (i == 0 || !bytes[i - 1].is_ascii_alphanumeric()) {
            let end = (i..bytes.len())
                .find(|&k| !bytes[k].is_ascii_digit())
                .unwrap_or(bytes.len());
            if end - i >= 9 && source[i..end].starts_with("7777") {
                out.push(source[i..end].to_string());
            }
            i = end;
        } else {
            i += 1;
        }
    }
    out
}

/// The second version of a fixture: every planted value changed (`-Q7` → `-R8`,
/// `7777…` → `7778…`), so that a refresh sees changed declarations.
fn second_version(source: &str) -> String {
    source.replace("-Q7", "-R8").replace("7777", "7778")
}

/// Every file under `dir`, recursively.
fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read cache dir") {
        let path = entry.expect("dir entry").path();
        if path.is_dir() {
            files_under(&path, out);
        } else {
            out.push(path);
        }
    }
}

/// The symbol ids of a structure cue.
fn symbol_ids(cue: &Value) -> Vec<String> {
    cue["content"]["symbols"]
        .as_array()
        .expect("symbols")
        .iter()
        .filter_map(|s| s["id"].as_str().map(str::to_owned))
        .collect()
}

#[test]
fn planted_literal_values_reach_no_cue_search_answer_or_database_byte() {
    let repo = TestRepo::new();
    let files = fixtures();
    let mut planted: Vec<String> = Vec::new();
    repo.write(
        "README.md",
        "# Planted\n\nA repository with planted secrets.\n",
    );
    for (name, content) in &files {
        repo.write(format!("src/planted/{name}"), content);
        let values = planted_values(content);
        assert!(values.len() >= 3, "{name}: too few planted values");
        planted.extend(values.iter().cloned());
        planted.extend(values.iter().map(|v| second_version(v)));
    }
    repo.commit("planted");

    // Every output, labelled, in the order it was produced.
    let mut outputs: Vec<(String, String)> = Vec::new();
    let run = |outputs: &mut Vec<(String, String)>, args: &[&str]| -> String {
        let ran = repo.repocue(args);
        ran.success();
        let text = format!("{}{}", ran.stdout(), ran.stderr());
        outputs.push((args.join(" "), text.clone()));
        text
    };
    run(&mut outputs, &["init"]);

    // A second commit changes every planted value: delta operations compare declarations.
    for (name, content) in &files {
        repo.write(format!("src/planted/{name}"), second_version(content));
    }
    repo.commit("rotate");
    run(&mut outputs, &["refresh"]);
    run(&mut outputs, &["status"]);

    let budget = ["--max-tokens", "20000"];
    let mut ids = Vec::new();
    for format in ["json", "markdown"] {
        let fmt = ["--format", format];
        for view in ["overview", "manifest"] {
            run(
                &mut outputs,
                &[&["cue", "--view", view][..], &fmt, &budget].concat(),
            );
        }
        run(
            &mut outputs,
            &[
                &["cue", "--view", "delta", "--since", "snapshot-000001"][..],
                &fmt,
                &budget,
            ]
            .concat(),
        );
        run(
            &mut outputs,
            &[
                &["cue", "--view", "document", "--path", "README.md"][..],
                &fmt,
            ]
            .concat(),
        );
        run(
            &mut outputs,
            &[
                &["cue", "--view", "structure", "--path", "src/"][..],
                &fmt,
                &budget,
            ]
            .concat(),
        );
        for (name, _) in &files {
            let path = format!("src/planted/{name}");
            let text = run(
                &mut outputs,
                &[
                    &["cue", "--view", "structure", "--path", &path][..],
                    &fmt,
                    &budget,
                ]
                .concat(),
            );
            if format == "json" {
                let cue: Value = serde_json::from_str(&text).expect("structure JSON");
                ids.extend(symbol_ids(&cue));
                ids.push(format!("file:{path}"));
            }
        }
    }
    // Every symbol of every planted file, as an entity, in both formats.
    assert!(ids.len() > 100, "too few planted symbols: {ids:?}");
    for id in &ids {
        for format in ["json", "markdown"] {
            run(
                &mut outputs,
                &[
                    "cue",
                    "--view",
                    "entity",
                    "--id",
                    id,
                    "--format",
                    format,
                    "--max-tokens",
                    "20000",
                ],
            );
        }
    }
    // Searches for the constructs, the planted words and the values themselves.
    let queries = [
        "SECRET_KEY",
        "AWS_SECRET_ACCESS_KEY",
        "TOKEN",
        "token",
        "password",
        "PASSWORD",
        "apiKey",
        "API_KEY",
        "secret",
        "key",
        "pin",
        "connect",
        "sk",
        "Q7",
        "R8",
        "const",
        "default",
        "sk-python-const-R8",
        "777800011",
    ];
    for query in queries {
        for format in ["json", "markdown"] {
            run(
                &mut outputs,
                &[
                    "search",
                    query,
                    "--format",
                    format,
                    "--max-tokens",
                    "20000",
                    "--max-results",
                    "200",
                ],
            );
            run(
                &mut outputs,
                &[
                    "cue",
                    "--view",
                    "search",
                    "--query",
                    query,
                    "--format",
                    format,
                    "--max-tokens",
                    "20000",
                ],
            );
        }
    }
    run(&mut outputs, &["metrics"]);

    // The checks are not vacuous: the planted constructs are in the cues.
    let all: String = outputs.iter().map(|(_, t)| t.as_str()).collect();
    for name in [
        "SECRET_KEY",
        "AWS_SECRET_ACCESS_KEY",
        "apiKey",
        "PASSWORD",
        "TOKEN",
        "API_KEY",
    ] {
        assert!(all.contains(name), "no cue names {name}");
    }

    let mut leaks = Vec::new();
    for (label, text) in &outputs {
        for value in &planted {
            let text = if label.contains(value.as_str()) {
                // A search for the value itself echoes the query; only its hits count.
                match serde_json::from_str::<Value>(text) {
                    Ok(answer) => answer["content"]["hits"].to_string(),
                    Err(_) => continue,
                }
            } else {
                text.clone()
            };
            if text.contains(value.as_str()) {
                leaks.push(format!("{value} in `repocue {label}`"));
            }
        }
    }
    let mut cache_files = Vec::new();
    files_under(repo.cache_dir(), &mut cache_files);
    let db = repo.db_path();
    assert!(cache_files.contains(&db), "no state.db in {cache_files:?}");
    for file in &cache_files {
        let bytes = std::fs::read(file).expect("read cache file");
        for value in &planted {
            if bytes.windows(value.len()).any(|w| w == value.as_bytes()) {
                leaks.push(format!("{value} in {}", file.display()));
            }
        }
    }
    // Content facts are stored deflated: the byte scan above cannot see inside them, so every
    // row of every table is also read back decoded.
    let rows = crate::support::decoded_db_dump(&db);
    assert!(rows.contains("SECRET_KEY"), "the dump decodes the facts");
    for value in &planted {
        if rows.contains(value.as_str()) {
            leaks.push(format!("{value} in a decoded row of {}", db.display()));
        }
    }
    assert!(
        leaks.is_empty(),
        "{} planted values leaked:\n{}",
        leaks.len(),
        leaks.join("\n")
    );
}
