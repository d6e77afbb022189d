//! `.repocue/config.toml` and the user-level configuration: strict validation that leaves the
//! cache alone, analysis rules that re-derive only what they affect, the default budget and
//! retention, and Git attributes.

use serde_json::Value;

use crate::support::TestRepo;

const CONFIG: &str = ".repocue/config.toml";
const EXTRA: &str = "libs/extra/helper.py";
const TABLE: &str = "src/parser_table.rs";
const DEP: &str = "deps/own/dep.rs";
const JQUERY: &str = "assets/jquery.js";
const MIN: &str = "web/app.min.js";

fn project() -> TestRepo {
    TestRepo::with_files(&[
        ("README.md", "# Demo\n\nA demo of configured analysis.\n"),
        ("src/lib.rs", "pub fn own_entry() -> u32 {\n    1\n}\n"),
        (
            "third_party/zlib/inflate.c",
            "int zlib_inflate(void) { return 0; }\n",
        ),
        (
            "libs/extra/helper.py",
            "def extra_helper():\n    return 1\n",
        ),
        ("libs/ours/kept.py", "def kept_helper():\n    return 2\n"),
    ])
}

/// The paths a search answer names, sorted and unique.
fn hit_paths(answer: &Value) -> Vec<String> {
    let mut paths: Vec<String> = answer["content"]["hits"]
        .as_array()
        .expect("hits")
        .iter()
        .map(|h| h["path"].as_str().unwrap_or_default().to_owned())
        .collect();
    paths.sort();
    paths.dedup();
    paths
}

/// The files whose symbols match `query`.
fn search(repo: &TestRepo, query: &str) -> Vec<String> {
    hit_paths(&repo.json(&["search", query, "--scope", "code", "--max-tokens", "4000"]))
}

/// The files whose paths match `query`.
fn search_paths(repo: &TestRepo, query: &str) -> Vec<String> {
    hit_paths(&repo.json(&["search", query, "--scope", "paths", "--max-tokens", "4000"]))
}

#[test]
fn an_invalid_configuration_names_file_key_and_line_and_leaves_the_cache_untouched() {
    let repo = project();
    repo.init();
    repo.cue("overview", &[]);
    let before = repo.cache_bytes();
    repo.write(
        CONFIG,
        "[analysis]\nexclude = [\"third_party/**\"]\nexclud = [\"libs/**\"]\n",
    );
    for args in [
        &["refresh"][..],
        &["cue"],
        &["cue", "--view", "manifest", "--max-tokens", "300"],
        &["search", "helper"],
        &["status"],
        &["prune", "--dry-run"],
        &["rebaseline", "--label", "x", "--reason", "y"],
    ] {
        let e = repo.repocue(args).error_code("invalid_config");
        let m = &e.error.message;
        assert!(
            m.contains(".repocue/config.toml:3: analysis.exclud") && m.contains("unknown key"),
            "{args:?}: {m}"
        );
        assert!(e.error.hint.is_some());
        assert_eq!(repo.cache_bytes(), before, "{args:?} touched the cache");
    }
    // Values are checked too: type, range, glob syntax, each with its line.
    for (text, place, detail) in [
        (
            "[cue]\nmax_tokens = \"many\"\n",
            ":2: cue.max_tokens",
            "expected an integer",
        ),
        (
            "[cue]\nmax_tokens = 99999\n",
            ":2: cue.max_tokens",
            "out of range 1..=20000",
        ),
        (
            "[analysis]\ninclude = [\n  \"ok/**\",\n  \"{unclosed\",\n]\n",
            ":4: analysis.include",
            "invalid glob",
        ),
        (
            "[retention]\nkeep_recent = -3\n",
            ":2: retention.keep_recent",
            "out of range",
        ),
        (
            "[watch]\nlanguages = 1\n",
            ":2: watch.languages",
            "unknown key",
        ),
        ("[analysis\n", ":1", "invalid"),
    ] {
        repo.write(CONFIG, text);
        let e = repo.repocue(&["refresh"]).error_code("invalid_config");
        let m = &e.error.message;
        assert!(m.contains(place) && m.contains(detail), "{text:?}: {m}");
    }
    assert_eq!(repo.cache_bytes(), before);
    // The user-level file is validated the same way and named by its own path.
    repo.remove(CONFIG);
    let user = repo.home().join(".config/repocue/config.toml");
    std::fs::create_dir_all(user.parent().unwrap()).unwrap();
    std::fs::write(&user, "[cue]\nmax_tokens = 0\n").unwrap();
    let e = repo.repocue(&["cue"]).error_code("invalid_config");
    assert!(
        e.error
            .message
            .contains(&format!("{}:2: cue.max_tokens", user.display())),
        "{}",
        e.error.message
    );
    assert_eq!(repo.cache_bytes(), before);
    std::fs::remove_file(&user).unwrap();
    repo.refresh();
}

#[test]
fn exclude_and_include_rederive_only_what_they_affect_without_a_rebaseline() {
    let repo = project();
    let base = repo.init();
    assert!(search(&repo, "extra_helper").contains(&EXTRA.into()));
    let structure = |repo: &TestRepo| {
        repo.cue("structure", &["--max-tokens", "4000"])["content"]["files"].to_string()
    };
    assert!(structure(&repo).contains("libs/extra/helper.py"));

    repo.write(CONFIG, "[analysis]\nexclude = [\"libs/**\", \"*.c\"]\n");
    let status = repo.status();
    assert_eq!(status.freshness.as_str(), "refresh-needed");
    assert!(
        status
            .reasons
            .iter()
            .any(|r| r == "analysis configuration changed"),
        "{:?}",
        status.reasons
    );
    let excluded = repo.refresh();
    assert!(excluded.published);
    assert_eq!(excluded.epoch, base.epoch, "no rebaseline");
    assert_eq!(excluded.files_scanned, 0, "no file is read for a path rule");
    assert_eq!(excluded.changes.metadata_changed, 3);
    assert!(!search(&repo, "extra_helper").contains(&EXTRA.into()));
    assert!(
        search_paths(&repo, "helper").is_empty(),
        "not even the path is found"
    );
    assert!(search_paths(&repo, "inflate").is_empty());
    assert!(!structure(&repo).contains("libs/"));
    let overview = repo.cue("overview", &["--max-tokens", "4000"]);
    let text = overview["content"].to_string();
    assert!(
        !text.contains("libs/") && !text.contains("third_party"),
        "{text}"
    );
    assert_eq!(overview["content"]["totals"]["excluded_files"], 3);
    let manifest = repo.cue("manifest", &[]);
    assert_eq!(manifest["content"]["files"], 5, "still tracked: {manifest}");
    assert_eq!(manifest["content"]["excluded_files"], 3);
    // Content digests are kept: the rows changed their class only.
    let delta = repo.delta_ops("snapshot-000001");
    let files: Vec<&Value> = delta
        .iter()
        .filter(|op| op["entity"].as_str().unwrap().starts_with("file:"))
        .collect();
    assert_eq!(files.len(), 3, "{delta:?}");
    assert!(
        files.iter().all(|op| op["op"] == "file.metadata_changed"
            && op["after"]["class"] == "excluded"
            && op["after"].get("digest").is_none()),
        "{delta:?}"
    );

    // `include` wins over `exclude` (and over the built-in vendored rule): read, analysed.
    repo.write(
        CONFIG,
        "[analysis]\nexclude = [\"libs/**\", \"*.c\"]\ninclude = [\"libs/ours/**\", \"third_party/zlib\"]\n",
    );
    let included = repo.refresh();
    assert_eq!(included.epoch, base.epoch);
    assert_eq!(included.files_scanned, 2, "only the newly included files");
    assert_eq!(
        included.files_analyzed, 1,
        "zlib was never analysed; kept.py was"
    );
    assert!(search(&repo, "kept_helper").contains(&"libs/ours/kept.py".into()));
    assert!(search(&repo, "zlib_inflate").contains(&"third_party/zlib/inflate.c".into()));
    assert!(!search(&repo, "extra_helper").contains(&EXTRA.into()));
    let again = repo.refresh();
    assert!(!again.published, "the same rules again change nothing");
    assert_eq!(repo.status().freshness.as_str(), "dirty-but-indexed");
}

#[test]
fn the_configured_budget_retention_and_user_file_apply_and_the_repository_file_wins() {
    let repo = project();
    repo.init();
    let budget = |repo: &TestRepo, args: &[&str]| -> u64 {
        let mut args = args.to_vec();
        args.push("--provenance");
        let cue = repo.json(&args);
        cue["provenance"]["max_tokens"].as_u64().expect("budget")
    };
    assert_eq!(budget(&repo, &["cue"]), 500);
    let user = repo.home().join(".config/repocue/config.toml");
    std::fs::create_dir_all(user.parent().unwrap()).unwrap();
    std::fs::write(
        &user,
        "[cue]\nmax_tokens = 300\n[retention]\nkeep_recent = 3\n",
    )
    .unwrap();
    assert_eq!(budget(&repo, &["cue"]), 300);
    assert_eq!(budget(&repo, &["search", "helper"]), 300);
    repo.write(CONFIG, "[cue]\nmax_tokens = 700\n");
    assert_eq!(budget(&repo, &["cue", "--view", "manifest"]), 700);
    assert_eq!(
        budget(&repo, &["cue", "--max-tokens", "450"]),
        450,
        "the flag wins"
    );
    // Key by key: the user file's retention still applies.
    let prune = repo.json(&["prune", "--dry-run"]);
    assert_eq!(prune["keep_recent"], 3);
    assert_eq!(
        repo.json(&["prune", "--dry-run", "--keep", "5"])["keep_recent"],
        5
    );
    // REPOCUE_CONFIG_HOME moves the user file.
    let elsewhere = repo.outside().join("conf");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::fs::write(
        elsewhere.join("config.toml"),
        "[retention]\nkeep_recent = 9\n",
    )
    .unwrap();
    let mut cmd = repo.command(&["prune", "--dry-run"]);
    cmd.env("REPOCUE_CONFIG_HOME", &elsewhere);
    assert_eq!(repo.run(cmd).json()["keep_recent"], 9);
}

/// A repository file, even an untracked one, cannot lower what the user's file keeps secret:
/// with the user's `secret_patterns` and `secret_content = true`, a repository file that
/// empties the one and turns off the other still leaves both files secret (counted, never
/// named or searchable).
#[test]
fn a_repository_file_cannot_unsecret_what_the_user_file_keeps_secret() {
    let token = format!("token = \"ghp_{}\"\n", "a".repeat(36));
    let repo = TestRepo::with_files(&[
        ("prod.secret", "db_password=hunter2\n"),
        ("tok.txt", token.as_str()),
        ("a.py", "def a():\n    pass\n"),
    ]);
    let user = repo.home().join(".config/repocue/config.toml");
    std::fs::create_dir_all(user.parent().unwrap()).unwrap();
    std::fs::write(
        &user,
        "[analysis]\nsecret_patterns = [\"*.secret\"]\nsecret_content = true\n",
    )
    .unwrap();
    repo.write(
        CONFIG,
        "[analysis]\nsecret_patterns = []\nsecret_content = false\n",
    );
    let manifest = repo.cue("manifest", &[]);
    assert_eq!(manifest["content"]["secret_files"], 2, "{manifest:#}");
    let structure = repo.cue("structure", &["--max-tokens", "2000"]).to_string();
    assert!(
        !structure.contains("prod.secret") && !structure.contains("tok.txt"),
        "{structure}"
    );
}

/// The repository's configuration file is its own: a symbolic link (to a file outside the
/// repository, or dangling) is an `invalid_config` error, neither followed nor taken for no
/// file.
#[test]
fn a_repository_configuration_that_is_a_symbolic_link_is_refused() {
    let repo = TestRepo::with_files(&[("a.py", "def a():\n    pass\n")]);
    let outside = repo.outside().join("cfg.toml");
    std::fs::write(&outside, "[cue]\nmax_tokens = 77\n").unwrap();
    std::fs::create_dir_all(repo.path(".repocue")).unwrap();
    for target in [outside.clone(), repo.outside().join("missing.toml")] {
        let link = repo.path(CONFIG);
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let e = repo
            .repocue(&["cue", "--view", "manifest"])
            .error_code("invalid_config");
        assert!(e.error.message.contains("symbolic link"), "{e:?}");
    }
}

/// How many `git check-attr` processes a command started (from Git's own trace).
fn check_attr_runs(repo: &TestRepo, args: &[&str]) -> (Value, usize) {
    let trace = repo.outside().join("git-trace");
    let _ = std::fs::remove_file(&trace);
    let mut cmd = repo.command(args);
    cmd.env("GIT_TRACE", &trace);
    let out = repo.run(cmd).json();
    let log = std::fs::read_to_string(&trace).unwrap_or_default();
    let runs = log
        .lines()
        .filter(|l| l.contains("built-in: git check-attr"))
        .count();
    (out, runs)
}

#[test]
fn linguist_attributes_class_files_with_one_check_attr_per_refresh() {
    let repo = TestRepo::with_files(&[
        ("src/lib.rs", "pub fn own_entry() {}\n"),
        ("src/parser_table.rs", "pub fn generated_table() {}\n"),
        ("assets/jquery.js", "function vendoredQuery() {}\n"),
        ("deps/own/dep.rs", "pub fn own_dependency() {}\n"),
    ]);
    let (_, runs) = check_attr_runs(&repo, &["init"]);
    assert_eq!(runs, 1, "one check-attr for the whole baseline");
    assert!(search(&repo, "generated_table").contains(&TABLE.into()));
    assert!(
        !search(&repo, "own_dependency").contains(&DEP.into()),
        "deps/ is vendored by default"
    );
    repo.write(
        ".gitattributes",
        "src/parser_table.rs linguist-generated\nassets/** linguist-vendored\n\
         deps/** -linguist-vendored\n",
    );
    repo.commit("attributes");
    let (out, runs) = check_attr_runs(&repo, &["refresh"]);
    assert_eq!(runs, 1);
    assert_eq!(out["published"], true);
    assert!(!search(&repo, "generated_table").contains(&TABLE.into()));
    assert!(!search(&repo, "vendoredQuery").contains(&JQUERY.into()));
    assert!(search(&repo, "own_dependency").contains(&DEP.into()));
    // Vendored and generated files keep their paths in search, like built-in vendored ones.
    assert_eq!(search_paths(&repo, "parser_table"), ["src/parser_table.rs"]);
    assert_eq!(search_paths(&repo, "jquery"), ["assets/jquery.js"]);
    let (out, runs) = check_attr_runs(&repo, &["refresh"]);
    assert_eq!(
        (out["published"].as_bool(), runs),
        (Some(false), 0),
        "nothing to classify"
    );
    // An edit of a known path keeps the class its attributes gave it, without asking Git
    // again; a new path is asked about.
    repo.write("src/parser_table.rs", "pub fn generated_table_two() {}\n");
    let (out, runs) = check_attr_runs(&repo, &["refresh"]);
    assert_eq!((out["published"].as_bool(), runs), (Some(true), 0));
    assert!(
        search(&repo, "generated_table_two").is_empty(),
        "still generated"
    );
    repo.write("assets/more.js", "function moreVendored() {}\n");
    repo.commit("more");
    let (_, runs) = check_attr_runs(&repo, &["refresh"]);
    assert_eq!(runs, 1);
    assert!(
        search(&repo, "moreVendored").is_empty(),
        "vendored by its attribute"
    );
    // `linguist-generated=false` turns a built-in rule off; an uncommitted edit counts.
    repo.write("web/app.min.js", "function minifiedButOurs() {}\n");
    repo.commit("minified");
    assert!(!search(&repo, "minifiedButOurs").contains(&MIN.into()));
    repo.write(
        ".gitattributes",
        "*.min.js linguist-generated=false\ndeps/** -linguist-vendored\n",
    );
    let refreshed = repo.refresh();
    assert!(refreshed.published);
    assert!(search(&repo, "minifiedButOurs").contains(&MIN.into()));
    assert!(search(&repo, "generated_table").contains(&TABLE.into()));
    // `include` overrides attributes too.
    repo.write(CONFIG, "[analysis]\ninclude = [\"assets/**\"]\n");
    repo.refresh();
    assert!(search(&repo, "vendoredQuery").contains(&JQUERY.into()));
}
