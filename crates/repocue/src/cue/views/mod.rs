//! One module per cue view; this module dispatches requests and builds the shared envelope.

pub mod delta;
pub mod document;
pub mod entity;
pub mod manifest;
pub mod overview;
pub mod search;
pub mod structure;
pub mod task;

use crate::api::{Cue, CueRequest, View, MAX_MAX_TOKENS};
use crate::error::{Error, Result};
use crate::read::Reader;

/// Checks that every parameter given is one the view uses: a flag that would be silently
/// ignored is an error, never dropped.
pub(crate) fn validate(request: &CueRequest) -> Result<()> {
    if request.max_tokens == 0 || request.max_tokens > MAX_MAX_TOKENS {
        return Err(Error::InvalidArgument(format!(
            "max_tokens must be between 1 and {MAX_MAX_TOKENS}, got {}",
            request.max_tokens
        )));
    }
    let given = [
        ("since", request.since.is_some(), &[View::Delta][..]),
        (
            "path",
            request.path.is_some(),
            &[View::Structure, View::Document][..],
        ),
        ("id", request.id.is_some(), &[View::Entity][..]),
        ("query", request.query.is_some(), &[View::Search][..]),
        ("scope", request.scope.is_some(), &[View::Search][..]),
        (
            "max_results",
            request.max_results.is_some(),
            &[View::Search][..],
        ),
    ];
    for (name, present, views) in given {
        if present && !views.contains(&request.view) {
            let uses: Vec<&str> = views.iter().map(|v| v.as_str()).collect();
            return Err(Error::InvalidArgument(format!(
                "{name} is not used by the {} view (only by {})",
                request.view.as_str(),
                uses.join(", ")
            )));
        }
    }
    Ok(())
}

/// Builds the cue a request asks for from a prepared snapshot.
pub(crate) fn build(reader: &Reader, request: &CueRequest) -> Result<Cue> {
    match request.view {
        View::Manifest => manifest::build(reader, request),
        View::Overview => overview::build(reader, request),
        View::Delta => delta::build(reader, request),
        View::Structure => structure::build(reader, request),
        View::Entity => entity::build(reader, request),
        View::Search => search::build(reader, request),
        View::Document => document::build(reader, request),
        View::Task => Err(crate::error::Error::InvalidArgument(
            "the task view is built by the service, which checks the work tree around it".into(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;
    use crate::read::{self, Reader};
    use crate::testing::{git, temp_repo, TempRepo};

    fn repo() -> TempRepo {
        temp_repo(&[
            (
                "Cargo.toml",
                "[package]\nname = \"demo\"\nversion = \"0.1.0\"\ndescription = \"A demo crate.\"\n",
            ),
            ("README.md", "# Demo\n\nA demo crate.\n\n## Usage\n\nSee [lib](src/lib.rs).\n"),
            (
                "src/lib.rs",
                "pub struct Parser;\n\nimpl Parser {\n    pub fn parse(&self) -> u32 {\n        1\n    }\n}\n",
            ),
            ("src/util.rs", "use crate::Parser;\n\npub fn helper(p: &Parser) -> u32 {\n    p.parse()\n}\n"),
        ])
    }

    fn reader(t: &TempRepo) -> Reader {
        read::prepare(&t.repo, true).unwrap()
    }

    fn cue(r: &Reader, view: View, f: impl FnOnce(&mut CueRequest)) -> Value {
        let mut req = CueRequest::new(view);
        req.max_tokens = 4000;
        f(&mut req);
        let c = build(r, &req).unwrap();
        assert!(c.estimated_tokens <= req.max_tokens);
        assert_eq!(c.value["kind"], view.as_str());
        c.value
    }

    #[test]
    fn manifest_counts_the_snapshot() {
        let t = repo();
        let v = cue(&reader(&t), View::Manifest, |_| {});
        assert_eq!(v["content"]["files"], 4);
        assert_eq!(v["snapshot"], "snapshot-000001");
    }

    #[test]
    fn overview_names_the_project_and_its_symbols() {
        let t = repo();
        let v = cue(&reader(&t), View::Overview, |_| {});
        assert_eq!(v["content"]["project"]["name"], "demo");
        let symbols = v["content"]["symbols"].as_array().unwrap();
        assert!(
            symbols
                .iter()
                .any(|s| s["path"] == "src/lib.rs" && s["signature"] == "pub struct Parser"),
            "{symbols:?}"
        );
    }

    /// A symbol whose signature holds its name leaves the name out of the overview, and the
    /// view cache (which the second cue reads) keeps every name: the members a type carries
    /// are still found by it. The structure view, which programs list ids by, names every
    /// symbol.
    #[test]
    fn a_cue_leaves_out_the_names_its_signatures_hold() {
        let t = repo();
        let cold = cue(&reader(&t), View::Overview, |_| {});
        let warm = cue(&reader(&t), View::Overview, |_| {});
        assert_eq!(cold["content"], warm["content"]);
        let symbols = cold["content"]["symbols"].as_array().unwrap();
        let parser = symbols
            .iter()
            .find(|s| s["signature"] == "pub struct Parser")
            .unwrap_or_else(|| panic!("{symbols:?}"));
        assert_eq!(parser.get("name"), None, "{parser}");
        assert_eq!(parser["members"], serde_json::json!(["parse"]), "{parser}");
        let structure = cue(&reader(&t), View::Structure, |_| {});
        let symbols = structure["content"]["symbols"].as_array().unwrap();
        let parse = symbols
            .iter()
            .find(|s| s["signature"] == "pub fn parse(&self) -> u32")
            .unwrap_or_else(|| panic!("{symbols:?}"));
        assert_eq!(parse["name"], "Parser.parse", "{parse}");
        assert!(symbols.iter().all(|s| s["name"].is_string()), "{symbols:?}");
        assert!(
            symbols
                .iter()
                .any(|s| s["name"] == "Parser" && s["signature"] == "pub struct Parser"),
            "{symbols:?}"
        );
    }

    #[test]
    fn a_name_is_in_a_signature_as_a_whole_word() {
        use crate::api::views::signature_names;
        assert!(signature_names("struct strbuf", "strbuf"));
        assert!(signature_names(
            "NORETURN void die(const char *err, ...)",
            "die"
        ));
        assert!(signature_names("export function $(sel)", "$"));
        assert!(signature_names("def match?(r)", "match?"));
        assert!(signature_names("def reset!", "reset!"));
        assert!(!signature_names("def match(r)", "match?"));
        assert!(!signature_names("int main(void)", "a"));
        assert!(!signature_names("struct strbuf_list", "strbuf"));
        assert!(!signature_names("def parse(self)", "Parser.parse"));
        assert!(!signature_names("def parse(self)", "parse#2"));
        assert!(!signature_names("def parse(self)", ""));
        assert!(!signature_names("impl Parser", "impl Parser"));
        assert!(!signature_names("bool operator==(const A&)", "operator=="));
    }

    /// A command of a root manifest runs at the root and says nothing of where it comes from;
    /// one of a manifest below says which, since it runs there.
    #[test]
    fn a_command_names_its_manifest_only_below_the_root() {
        let at_root = cue(&reader(&repo()), View::Overview, |_| {});
        let commands = at_root["content"]["commands"].as_array().unwrap();
        assert!(
            commands.iter().any(|c| c["command"] == "cargo build"),
            "{commands:?}"
        );
        assert!(
            commands.iter().all(|c| c.get("source").is_none()),
            "{commands:?}"
        );
        let below = temp_repo(&[
            (
                "web/package.json",
                r#"{"name": "web", "scripts": {"test": "jest"}}"#,
            ),
            ("web/index.js", "export function start() {}\n"),
        ]);
        let v = cue(&reader(&below), View::Overview, |_| {});
        let commands = v["content"]["commands"].as_array().unwrap();
        assert!(!commands.is_empty(), "{v:#}");
        assert!(
            commands.iter().all(|c| c["source"] == "web/package.json"),
            "{commands:?}"
        );
    }

    #[test]
    fn structure_lists_files_under_a_path() {
        let t = repo();
        let v = cue(&reader(&t), View::Structure, |r| {
            r.path = Some("src".into())
        });
        let files: Vec<&str> = v["content"]["files"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["path"].as_str().unwrap())
            .collect();
        assert!(
            files.contains(&"src/lib.rs") && files.contains(&"src/util.rs"),
            "{files:?}"
        );
        assert!(!files.contains(&"README.md"));
    }

    /// Under the project's own code the structure view lists what it exposes first: a public
    /// function of a file nothing uses before a `static` helper of the file everything uses.
    /// Inside the tests, their own ranking decides.
    #[test]
    fn structure_lists_exposed_symbols_before_hidden_ones_outside_tests() {
        let mut files: Vec<(String, String)> = vec![
            (
                "src/core.c".into(),
                "static int core_step(int x) { return x; }\nint core_run(int x) { return core_step(x); }\n".into(),
            ),
            ("src/util.c".into(), "int util_rare(void) { return 0; }\n".into()),
            (
                "tests/helpers.c".into(),
                "static int check_step(int x) { return x; }\nint check_all(void) { return check_step(1); }\n".into(),
            ),
        ];
        for i in 0..12 {
            files.push((
                format!("src/m{i}.c"),
                format!("int m{i}(void) {{ return core_run({i}); }}\n"),
            ));
        }
        let t = crate::testing::temp_repo(&files);
        crate::refresh::run(&t.repo, &crate::refresh::Operation::Init).unwrap();
        let r = reader(&t);
        let names = |path: Option<&str>| -> Vec<String> {
            let v = cue(&r, View::Structure, |q| q.path = path.map(str::to_owned));
            v["content"]["symbols"]
                .as_array()
                .unwrap()
                .iter()
                .map(|s| s["name"].as_str().unwrap().to_owned())
                .collect()
        };
        let all = names(None);
        let at = |n: &str| {
            all.iter()
                .position(|x| x == n)
                .unwrap_or_else(|| panic!("{n} in {all:?}"))
        };
        assert!(at("core_run") < at("util_rare"), "{all:?}");
        assert!(at("util_rare") < at("core_step"), "{all:?}");
        assert!(at("m0") < at("check_step"), "{all:?}");
        let tests = names(Some("tests"));
        assert_eq!(tests, ["check_all", "check_step"]);
    }

    #[test]
    fn entity_describes_a_symbol_and_rejects_bad_ids() {
        let t = repo();
        let r = reader(&t);
        let v = cue(&r, View::Entity, |q| {
            q.id = Some("symbol:src/lib.rs:Parser".into())
        });
        assert_eq!(v["content"]["kind"], "struct");
        let mut bad = CueRequest::new(View::Entity);
        bad.id = Some("thing:x".into());
        assert_eq!(build(&r, &bad).unwrap_err().code(), "invalid_argument");
    }

    #[test]
    fn search_ranks_the_definition_first() {
        let t = repo();
        let v = cue(&reader(&t), View::Search, |q| {
            q.query = Some("Parser".into())
        });
        assert_eq!(v["content"]["hits"][0]["id"], "symbol:src/lib.rs:Parser");
        assert_eq!(v["content"]["hits"][0]["kind"], "symbol");
    }

    #[test]
    fn document_outlines_headings_and_links() {
        let t = repo();
        let v = cue(&reader(&t), View::Document, |q| {
            q.path = Some("README.md".into())
        });
        assert_eq!(v["content"]["title"], "Demo");
        assert_eq!(v["content"]["outline"][1]["text"], "Usage");
    }

    #[test]
    fn delta_lists_file_and_symbol_operations() {
        let t = repo();
        reader(&t);
        std::fs::write(
            t.repo.root.join("src/util.rs"),
            "use crate::Parser;\n\npub fn helper(p: &Parser) -> u32 {\n    p.parse()\n}\n\npub fn extra() {}\n",
        )
        .unwrap();
        git(&t.repo.root, &["commit", "-q", "-am", "extra"]);
        let v = cue(&reader(&t), View::Delta, |_| {});
        assert_eq!(v["content"]["from"], "snapshot-000001");
        let c = &v["content"];
        assert_eq!(c["repository"][0]["op"], "repository.head_changed", "{c}");
        assert_eq!(c["paths"][0]["path"], "src/util.rs", "{c}");
        assert_eq!(c["paths"][0]["op"], "file.content_changed", "{c}");
        assert_eq!(c["paths"][0]["changes"][0]["op"], "symbol.added", "{c}");
        // The signature names it: no separate name.
        assert_eq!(c["paths"][0]["changes"][0].get("name"), None, "{c}");
        assert_eq!(
            c["paths"][0]["changes"][0]["signature"], "pub fn extra()",
            "{c}"
        );
        assert_eq!(c["totals"], serde_json::json!({"paths": 1, "changes": 1}));
        assert!(
            !v.to_string().contains("digest"),
            "no digests by default: {v}"
        );
    }

    #[test]
    fn flags_a_view_does_not_use_are_invalid() {
        let mut r = CueRequest::new(View::Overview);
        r.since = Some("snapshot-000001".into());
        let e = validate(&r).unwrap_err();
        assert!(e.to_string().contains("since"), "{e}");
        let mut r = CueRequest::new(View::Structure);
        r.query = Some("x".into());
        assert!(validate(&r).is_err());
        let mut r = CueRequest::new(View::Delta);
        r.since = Some("snapshot-000001".into());
        assert!(validate(&r).is_ok());
        let mut r = CueRequest::new(View::Document);
        r.path = Some("README.md".into());
        assert!(validate(&r).is_ok());
    }
}
