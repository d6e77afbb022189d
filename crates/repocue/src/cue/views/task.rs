//! The `task` view: author-declared original repository text for a task kind and targets.
//!
//! The stages live in [`crate::task`]; this module checks the request's flags, builds the
//! snapshot lookup from the prepared reader and renders the shared envelope around the
//! fitted content.

use std::collections::BTreeMap;
use std::path::Path;

use crate::api::task::TaskContent;
use crate::api::{Cue, CueRequest, Format, View, MAX_MAX_TOKENS};
use crate::cue::envelope::envelope;
use crate::error::{Error, Result};
use crate::read::Reader;
use crate::task::{self, extract::Entry, TaskQuery};

/// Text longer than the largest budget can never be delivered; it is hashed, not kept.
const RETAIN_LIMIT: u64 = 4 * MAX_MAX_TOKENS;

/// Checks the flag combination of a request: the task flags with the task view only, and no
/// other view's flags (not even empty ones) with it. Returns the parsed task query for the
/// task view.
pub(crate) fn check_flags(request: &CueRequest) -> Result<Option<TaskQuery>> {
    if request.view != View::Task {
        if request.context_file.is_some()
            || request.task_kind.is_some()
            || !request.targets.is_empty()
        {
            return Err(Error::InvalidArgument(
                "--context-file, --task-kind and --target apply only to --view task".into(),
            ));
        }
        return Ok(None);
    }
    let foreign = [
        ("--since", request.since.is_some()),
        ("--path", request.path.is_some()),
        ("--id", request.id.is_some()),
        ("--query", request.query.is_some()),
        ("--scope", request.scope.is_some()),
        ("--max-results", request.max_results.is_some()),
    ];
    if let Some((flag, _)) = foreign.iter().find(|(_, given)| *given) {
        return Err(Error::InvalidArgument(format!(
            "{flag} does not apply to the task view (even empty)"
        )));
    }
    if request.format == Format::Text {
        // The text format is budgeted on its own rendering; the task view budgets the JSON
        // that carries the original bytes, so it offers JSON and Markdown only.
        return Err(Error::InvalidArgument(
            "the task view is available as json or markdown, not text".into(),
        ));
    }
    let need = |v: &Option<String>, flag: &str| {
        v.clone()
            .ok_or_else(|| Error::InvalidArgument(format!("the task view needs {flag}")))
    };
    let file = need(&request.context_file, "--context-file")?;
    let kind = need(&request.task_kind, "--task-kind")?;
    task::query(&file, &kind, &request.targets, request.max_tokens).map(Some)
}

/// The snapshot's tracked paths as the task stages look them up (paths that are not UTF-8
/// cannot be declared and are left out). Secret files are left out too: a declaration that
/// names one fails as if it were not tracked, and its content is never delivered. Excluded
/// files stay available: a task source is declared explicitly by the author.
pub(crate) fn snapshot_files(state: &Reader) -> Result<BTreeMap<String, Entry>> {
    Ok(state
        .all_files()?
        .iter()
        .filter(|f| f.class != crate::model::FileClass::Secret)
        .filter_map(|f| {
            let path = String::from_utf8(f.path.clone()).ok()?;
            let entry = Entry {
                file_type: f.file_type,
                digest: f.digest.clone(),
            };
            Some((path, entry))
        })
        .collect())
}

/// Builds the task cue from a prepared snapshot of the repository at `root`.
pub(crate) fn build(
    state: &Reader,
    request: &CueRequest,
    q: &TaskQuery,
    root: &Path,
) -> Result<Cue> {
    let files = snapshot_files(state)?;
    let render = |content: &TaskContent, max: u64, estimated: u64| {
        let mut env = envelope(state, request, content.clone());
        env.max_tokens = max;
        if let Some(p) = &mut env.provenance {
            p.max_tokens = max;
            p.estimated_tokens = estimated;
        }
        // The items themselves, with their reasons, are listed in `content.omitted`.
        env.omitted = content.omitted.count;
        serde_json::to_string(&env).expect("cue serializes")
    };
    let fitted = task::build(&files, root, q, RETAIN_LIMIT, &render)?;
    let value = serde_json::from_str(&fitted.json).expect("own JSON parses");
    let output = match request.format {
        Format::Markdown => crate::cue::markdown::render(&value),
        Format::Json | Format::Text => fitted.json.clone(),
    };
    Ok(Cue {
        json: fitted.json,
        estimated_tokens: fitted.estimated_tokens,
        value,
        output,
        format: request.format,
    })
}
