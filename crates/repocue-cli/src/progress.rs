//! A progress bar on stderr for scans that take longer than a second, shown only when stderr
//! is a terminal (indicatif hides itself otherwise), so pipes and agents see clean output.

use std::io::IsTerminal;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use repocue::Options;
use repocue::Progress;

/// Scans shorter than this never show a bar.
const DELAY: Duration = Duration::from_secs(1);

/// Watches the scan counters on a helper thread; dropping it removes the bar.
pub struct Display {
    stop: Option<mpsc::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Display {
    /// Attaches progress counters to the options and starts watching them, when stderr is a
    /// terminal: otherwise no bar would show, and a thread started and joined for nothing
    /// costs every command a fraction of a millisecond.
    pub fn start(opts: &mut Options) -> Display {
        if !std::io::stderr().is_terminal() {
            return Display {
                stop: None,
                thread: None,
            };
        }
        let counters = Arc::new(Progress::default());
        opts.progress = Some(counters.clone());
        let (stop, stopped) = mpsc::channel();
        let thread = std::thread::spawn(move || watch(&counters, &stopped));
        Display {
            stop: Some(stop),
            thread: Some(thread),
        }
    }
}

impl Drop for Display {
    fn drop(&mut self) {
        // Dropping the sender wakes the watcher at once: a fast command never waits on it.
        drop(self.stop.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn watch(counters: &Progress, stopped: &mpsc::Receiver<()>) {
    let started = Instant::now();
    let mut bar: Option<ProgressBar> = None;
    while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(Duration::from_millis(50)) {
        let total = counters.total.load(Relaxed);
        if bar.is_none() && total > 0 && started.elapsed() >= DELAY {
            let b = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
            b.set_style(
                ProgressStyle::with_template(
                    "{spinner} scanning {pos}/{len} files [{elapsed}] {wide_bar}",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            bar = Some(b);
        }
        if let Some(b) = &bar {
            b.set_length(total);
            b.set_position(counters.done.load(Relaxed));
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
}
