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

/// The planted values of a fixture: every `sk-…-Q7` token (or `sk_…_Q7`, where a value must
/// be an identifier: a Ruby symbol) and every number of nine or more digits starting with
/// `7777`.
fn planted_values(source: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = source;
    while let Some(at) = rest.find("sk-").into_iter().chain(rest.find("sk_")).min() {
        let tail = &rest[at..];
        let len = tail
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-' || c == '_'))
            .unwrap_or(tail.len());
        if tail[..len].ends_with("-Q7") || tail[..len].ends_with("_Q7") {
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

/// The second version of a fixture: every planted value changed (`-Q7` → `-R8`, `_Q7` →
/// `_R8`, `7777…` → `7778…`), so that a refresh sees changed declarations.
fn second_version(source: &str) -> String {
    source
        .replace("-Q7", "-R8")
        .replace("_Q7", "_R8")
        .replace("7777", "7778")
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
        .map(crate::support::symbol_id)
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

/// The planted secret files of [`secret_files_are_counted_but_never_named_indexed_or_stored`]:
/// `(path, content)`, and the values and names that must never leave them. Every value is
/// assembled at run time, so this source file does not itself look like a secret.
struct PlantedSecrets {
    files: Vec<(&'static str, String)>,
    values: Vec<String>,
    names: Vec<&'static str>,
}

fn planted_secrets() -> PlantedSecrets {
    let pem_body = format!("MIIEpAIBAAKCAQEA{}", "PlantedPemBody".repeat(4));
    let dashes = "-".repeat(5);
    let pem = format!(
        "{dashes}BEGIN RSA PRIVATE KEY{dashes}\n{pem_body}\n{dashes}END RSA PRIVATE KEY{dashes}\n"
    );
    let aws_id = format!("AKIA{}", "PLANTED7KEY12345");
    let aws_secret = format!("wJalrXUtnFEMI{}", "PlantedSecretValue0123456789");
    let env_value = format!("hunter2-{}", "planted-env-value");
    let vault_value = format!("vault-{}", "planted-note-value");
    let settings = format!(
        "AWS_ACCESS_KEY_ID = \"{aws_id}\"\nAWS_SECRET_ACCESS_KEY = \"{aws_secret}\"\n\n\
         def cloud_client():\n    return None\n"
    );
    PlantedSecrets {
        files: vec![
            ("deploy/identity_material.txt", pem),
            ("app/cloud_settings.py", settings),
            ("deploy/prod.env", format!("DB_PASSWORD={env_value}\n")),
            (
                "ops/vault/notes.md",
                format!("# Vault notes\n\n{vault_value}\n"),
            ),
        ],
        values: vec![pem_body, aws_id, aws_secret, env_value, vault_value],
        names: vec![
            "identity_material",
            "cloud_settings",
            "prod.env",
            "vault/notes",
            "id_ed25519",
        ],
    }
}

/// Every text and blob value of every table of the state database, with its table and
/// column: what "no database row holds it" is checked against.
fn database_values(db: &Path) -> Vec<(String, String, Vec<u8>)> {
    let conn =
        rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .expect("open state.db");
    let tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap();
    let mut out = Vec::new();
    for table in tables {
        let mut stmt = conn.prepare(&format!("SELECT * FROM \"{table}\"")).unwrap();
        let columns: Vec<String> = stmt.column_names().map(|c| c.to_string()).collect();
        let mut rows = stmt.query([]).unwrap();
        while let Some(row) = rows.next().unwrap() {
            for (i, column) in columns.iter().enumerate() {
                let mut bytes = match row.get_ref(i).unwrap() {
                    rusqlite::types::ValueRef::Text(t) => t.to_vec(),
                    rusqlite::types::ValueRef::Blob(b) => b.to_vec(),
                    _ => continue,
                };
                // Content facts are a tag byte and JSON, raw (0) or deflated (1).
                if table == "content_facts" && column == "facts" {
                    bytes = match bytes.split_first() {
                        Some((1, z)) => miniz_oxide::inflate::decompress_to_vec(z)
                            .expect("stored facts inflate"),
                        Some((_, raw)) => raw.to_vec(),
                        None => bytes,
                    };
                }
                out.push((table.clone(), column.clone(), bytes));
            }
        }
    }
    out
}

fn contains(haystack: &[u8], needle: &str) -> bool {
    haystack
        .windows(needle.len())
        .any(|w| w == needle.as_bytes())
}

/// Secret files, by name (built-in names, configured `secret_patterns`) and by content (a PEM
/// private key, an AWS key in an ordinary `.py` file): tracked for freshness and counted, but
/// no cue of any view or format, search answer, status or refresh output names them or holds
/// their values, and no database row holds their values. The path of a tracked secret file is
/// stored in `paths.name` and `dirs.name` only (its file version keeps its size and content digest, for
/// freshness).
#[test]
fn secret_files_are_counted_but_never_named_indexed_or_stored() {
    let secrets = planted_secrets();
    let repo = TestRepo::new();
    repo.write("README.md", "# Keys\n\nA service with planted secrets.\n");
    repo.write(
        ".repocue/config.toml",
        "[analysis]\nsecret_patterns = [\"ops/vault/**\"]\n",
    );
    repo.write("app/main.py", "def main_entry():\n    return 0\n");
    repo.write(
        "auth/credentials_test.go",
        "package auth\n\nfunc TestCredentialsRotate() {}\n",
    );
    for (path, content) in &secrets.files {
        repo.write(path, content);
    }
    repo.commit("planted");

    let mut outputs: Vec<(String, String)> = Vec::new();
    let run = |outputs: &mut Vec<(String, String)>, args: &[&str]| -> String {
        let ran = repo.repocue(args);
        ran.success();
        let text = format!("{}{}", ran.stdout(), ran.stderr());
        outputs.push((args.join(" "), text.clone()));
        text
    };
    run(&mut outputs, &["init"]);
    // A secret file edited (a new key), an untracked key file and an untracked plain file.
    let (path, content) = &secrets.files[1];
    repo.write(
        path,
        content.replace("PLANTED7KEY12345", "PLANTED7KEY67890"),
    );
    repo.write("keys/id_ed25519", &secrets.files[0].1);
    repo.write("notes-untracked.txt", "plain\n");
    run(&mut outputs, &["status"]);
    run(&mut outputs, &["refresh"]);
    run(&mut outputs, &["status"]);

    let budget = ["--max-tokens", "20000"];
    for format in ["json", "markdown", "text"] {
        let fmt = ["--format", format];
        for extra in [
            &["--view", "overview"][..],
            &["--view", "manifest"],
            &["--view", "delta", "--since", "snapshot-000001"],
            &["--view", "structure"],
            &["--view", "structure", "--path", "app/"],
            &["--view", "structure", "--path", "deploy/"],
            &["--view", "document", "--path", "README.md"],
        ] {
            run(&mut outputs, &[&["cue"][..], extra, &fmt, &budget].concat());
        }
        for query in [
            "cloud",
            "settings",
            "identity",
            "material",
            "prod",
            "env",
            "vault",
            "notes",
            "AKIA",
            "PRIVATE",
            "KEY",
            "password",
            "secret",
            "ed25519",
            "cloud_client",
            "deploy",
        ] {
            run(
                &mut outputs,
                &[
                    &["search", query, "--max-results", "200"][..],
                    &fmt,
                    &budget,
                ]
                .concat(),
            );
        }
    }
    // Asked for by name, a secret file does not exist for the views.
    for args in [
        &[
            "cue",
            "--view",
            "entity",
            "--id",
            "file:app/cloud_settings.py",
        ][..],
        &["cue", "--view", "document", "--path", "ops/vault/notes.md"],
    ] {
        repo.repocue(args).error_code("not_found");
    }

    let all: String = outputs.iter().map(|(_, t)| t.as_str()).collect();
    for shown in [
        "app/main.py",
        "credentials_test.go",
        "TestCredentialsRotate",
        "notes-untracked.txt",
    ] {
        assert!(
            all.contains(shown),
            "the checks are vacuous: no output names {shown}"
        );
    }
    let mut leaks = Vec::new();
    for (label, text) in &outputs {
        for needle in secrets
            .values
            .iter()
            .map(String::as_str)
            .chain(secrets.names.iter().copied())
        {
            if text.contains(needle) {
                leaks.push(format!("{needle} in `repocue {label}`"));
            }
        }
    }
    // Values: in no byte of the cache. Names: in the path tables only.
    let mut cache_files = Vec::new();
    files_under(repo.cache_dir(), &mut cache_files);
    for file in &cache_files {
        let bytes = std::fs::read(file).expect("read cache file");
        for value in &secrets.values {
            if contains(&bytes, value) {
                leaks.push(format!("{value} in {}", file.display()));
            }
        }
    }
    let mut stored_names = std::collections::BTreeSet::new();
    for (table, column, bytes) in database_values(&repo.db_path()) {
        for needle in secrets
            .values
            .iter()
            .map(String::as_str)
            .chain(secrets.names.iter().copied())
        {
            if contains(&bytes, needle) {
                stored_names.insert(format!("{table}.{column}"));
                if !(matches!(table.as_str(), "paths" | "dirs") && column == "name")
                    || secrets.values.iter().any(|v| v == needle)
                {
                    leaks.push(format!("{needle} in {table}.{column}"));
                }
            }
        }
    }
    assert!(
        leaks.is_empty(),
        "{} leaks:\n{}",
        leaks.len(),
        leaks.join("\n")
    );
    assert_eq!(
        stored_names.into_iter().collect::<Vec<_>>(),
        ["paths.name"],
        "tracked secret paths are kept for freshness"
    );

    // Counted, tracked, never analysed or indexed.
    let manifest = repo.cue("manifest", &["--max-tokens", "1000"]);
    assert_eq!(manifest["content"]["secret_files"], 4, "{manifest}");
    assert_eq!(manifest["content"]["files"], 8);
    let overview = repo.cue("overview", &["--max-tokens", "4000"]);
    assert_eq!(overview["content"]["totals"]["secret_files"], 4);
    let delta = repo.cue(
        "delta",
        &["--since", "snapshot-000001", "--max-tokens", "4000"],
    );
    assert_eq!(delta["content"]["totals"]["secret_paths"], 2, "{delta}");
    let conn = rusqlite::Connection::open(repo.db_path()).unwrap();
    // 4: the stored code of the `secret` class (store::compact::FILE_CLASSES).
    let secret_rows: Vec<(Vec<u8>, Option<String>, i64)> = conn
        .prepare(
            // A path is its directory's (resolved through its parents) and its name.
            "WITH RECURSIVE full(id, path) AS (
                 SELECT 0, CAST('' AS BLOB)
                 UNION ALL SELECT d.id, full.path || d.name || '/' FROM dirs d
                   JOIN full ON d.parent = full.id)
             SELECT CAST(full.path || p.name AS BLOB) AS whole,
                    CASE WHEN f.digest IS NULL THEN NULL ELSE lower(hex(f.digest)) END,
                    p.id FROM file_versions f
             JOIN paths p ON p.id = f.path JOIN full ON full.id = p.dir
             WHERE f.class = 4 AND f.end_seq IS NULL
             ORDER BY whole",
        )
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap();
    let secret_paths: Vec<&[u8]> = secret_rows.iter().map(|(p, _, _)| p.as_slice()).collect();
    assert_eq!(
        secret_paths,
        [
            b"app/cloud_settings.py".as_slice(),
            b"deploy/identity_material.txt",
            b"deploy/prod.env",
            b"ops/vault/notes.md"
        ]
    );
    for (path, digest, path_id) in &secret_rows {
        let digest = digest.as_deref().expect("freshness needs the digest");
        let facts: i64 = conn
            .query_row(
                "SELECT count(*) FROM content_facts WHERE lower(hex(digest)) = ?1",
                [digest],
                |r| r.get(0),
            )
            .unwrap();
        let entries: i64 = conn
            .query_row(
                "SELECT count(*) FROM search_entries WHERE path = ?1",
                [path_id],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(
            (facts, entries),
            (0, 0),
            "{}",
            String::from_utf8_lossy(path)
        );
    }
}
