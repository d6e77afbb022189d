//! `evaluate`: a model-neutral probe of what RepoCue costs and returns on a repository, run
//! against a temporary cache so the user's cache and the repository are left untouched.

use std::time::Instant;

use crate::api::{CueRequest, CueStep, EvaluationOutput, Step, View};
use crate::error::{Error, Result};
use crate::refresh::Operation;
use crate::service::{Options, Service};

/// Runs the probe on the repository of `opts` with a fresh temporary cache.
pub fn evaluate(opts: &Options, max_tokens: u64) -> Result<EvaluationOutput> {
    // A private (0700) directory, removed when the probe ends, however it ends.
    let tmp = tempfile::Builder::new()
        .prefix("repocue-eval-")
        .tempdir()
        .map_err(|source| Error::CacheUnwritable {
            path: std::env::temp_dir(),
            source,
        })?;
    let probe_opts = Options {
        cache_dir: Some(tmp.path().to_path_buf()),
        progress: None,
        ..opts.clone()
    };
    let service = Service::open(&probe_opts)?;
    let before = service.status()?;
    let step = |op: &Operation| -> Result<(Step, u64)> {
        let t = Instant::now();
        let out = service.update(op)?;
        Ok((
            Step {
                wall_ms: t.elapsed().as_secs_f64() * 1000.0,
                git_processes: out.git_processes,
                files_read: out.files_scanned,
                bytes_read: out.bytes_scanned,
            },
            out.tracked_files,
        ))
    };
    let (baseline, tracked_files) = step(&Operation::Init)?;
    let (noop_refresh, _) = step(&Operation::Refresh)?;
    let cue = |view: View| -> Result<CueStep> {
        let t = Instant::now();
        let c = service.cue(&CueRequest {
            max_tokens,
            ..CueRequest::new(view)
        })?;
        Ok(CueStep {
            wall_ms: t.elapsed().as_secs_f64() * 1000.0,
            max_tokens,
            output_bytes: c.json.len() as u64,
            estimated_tokens: c.estimated_tokens,
        })
    };
    let overview = cue(View::Overview)?;
    let manifest = cue(View::Manifest)?;
    let after = service.status()?;
    let database_bytes = service.database_bytes()?;
    Ok(EvaluationOutput {
        schema_version: "repocue/evaluation-1".into(),
        repository: service.repo_id().into(),
        tracked_files,
        baseline,
        noop_refresh,
        overview,
        manifest,
        database_bytes,
        repository_unchanged: before.repository == after.repository
            && before.working_tree == after.working_tree,
    })
}
