use std::path::Path;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use notify_debouncer_full::notify::{EventKind, RecursiveMode};
use notify_debouncer_full::{new_debouncer, DebounceEventResult};
use repocue::Operation;
use repocue::Service;

use super::json_line;
use crate::CommandError;

/// Refresh the cache whenever the work tree or the Git index changes (debounced); prints one
/// JSON line per refresh with the measured freshness lag
#[derive(Debug, clap::Args)]
pub struct WatchArgs {
    /// Quiet period after the last change before refreshing, in milliseconds [default:
    /// watch.debounce_ms of the configuration, else 1500]
    #[arg(long, value_parser = clap::value_parser!(u64).range(50..=600_000))]
    pub debounce_ms: Option<u64>,
    /// Stop after this many refreshes, at least one (for scripts and tests)
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_refreshes: Option<u64>,
}

/// Tells whether a changed path can affect indexed state: anything in the work tree except
/// Git's internals and RepoCue's own cache when it lies there (`cache`, relative to the root:
/// each refresh writes it, and would wake the watcher for the next), plus the index, HEAD and
/// refs.
fn relevant(root: &Path, cache: Option<&Path>, path: &Path) -> bool {
    let Ok(rel) = path.strip_prefix(root) else {
        return false;
    };
    if cache.is_some_and(|c| rel.starts_with(c)) {
        return false;
    }
    let mut parts = rel.components();
    match parts.next() {
        Some(c) if c.as_os_str() == ".git" => {
            let rest = parts.as_path();
            rest == Path::new("index") || rest == Path::new("HEAD") || rest.starts_with("refs")
        }
        Some(_) => true,
        None => false,
    }
}

pub fn run_watch(service: &Service, args: WatchArgs) -> Result<String, CommandError> {
    use std::io::Write;
    let debounce_ms = match args.debounce_ms {
        Some(ms) => ms,
        None => service.default_debounce_ms()?,
    };
    let (tx, rx) = mpsc::channel::<DebounceEventResult>();
    let mut debouncer = new_debouncer(Duration::from_millis(debounce_ms), None, tx)
        .map_err(|e| repocue::Error::InvalidArgument(format!("cannot watch: {e}")))?;
    debouncer
        .watch(service.root(), RecursiveMode::Recursive)
        .map_err(|e| {
            repocue::Error::InvalidArgument(format!(
                "cannot watch {}: {e}",
                service.root().display()
            ))
        })?;
    // Arm the watcher first, then bring the cache up to date: a change made in between is
    // either in this refresh or produces an event, never lost.
    let first = service.update(&Operation::Init)?;
    print_line(&json_line(&serde_json::json!({
        "event": "ready", "snapshot": first.snapshot, "freshness": first.freshness, "debounce_ms": debounce_ms
    })));
    let cache = service.cache_in_tree();
    let mut refreshes = 0u64;
    for batch in rx {
        let events = match batch {
            Ok(events) => events,
            Err(errors) => {
                eprintln!(
                    "repocue: watch: {} notify errors; refreshing anyway",
                    errors.len()
                );
                Vec::new()
            }
        };
        let relevant_events: Vec<_> = events
            .iter()
            .filter(|e| !matches!(e.event.kind, EventKind::Access(_)))
            .filter(|e| {
                e.event
                    .paths
                    .iter()
                    .any(|p| relevant(service.root(), cache.as_deref(), p))
            })
            .collect();
        if relevant_events.is_empty() && !events.is_empty() {
            continue;
        }
        // Lag = first change of the batch → the refreshed snapshot is available.
        let first_change = relevant_events
            .iter()
            .map(|e| e.time)
            .min()
            .unwrap_or_else(Instant::now);
        let out = match service.update(&Operation::Init) {
            Ok(out) => out,
            Err(e) => {
                eprintln!(
                    "{}",
                    serde_json::to_string(&repocue::api::ErrorOutput::from(&e)).unwrap_or_default()
                );
                continue;
            }
        };
        refreshes += 1;
        print_line(&json_line(&serde_json::json!({
            "event": "refreshed",
            "published": out.published,
            "snapshot": out.snapshot,
            "freshness": out.freshness,
            "files_scanned": out.files_scanned,
            "refresh_ms": out.duration_ms,
            "lag_ms": first_change.elapsed().as_secs_f64() * 1000.0,
        })));
        let _ = std::io::stdout().flush();
        if args.max_refreshes.is_some_and(|m| refreshes >= m) {
            break;
        }
    }
    Ok(String::new())
}

fn print_line(line: &str) {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(line.as_bytes());
    let _ = out.flush();
}
