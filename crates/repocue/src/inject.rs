//! Fault injection for the tests of per-file faults: ways to make a readable file fail to
//! read, or a parse time out, on a machine where neither happens on its own (tests running as
//! root read files whatever their permissions).
//!
//! Compiled in only for unit tests and with the `testing` feature, which the CLI's
//! integration tests enable through their dev-dependency; `cargo build` and `cargo install`
//! builds contain no hook and read no variable.
//!
//! - `REPOCUE_TEST_UNREADABLE`: repository-relative paths, one per line, whose reads fail with
//!   an I/O error (`EIO`).
//! - `REPOCUE_TEST_PARSE_TIMEOUT_MS`: the wall-clock limit of every parse, in milliseconds.
//! - `REPOCUE_TEST_CRASH_ON`: a parse of source code that holds this text aborts the process
//!   (SIGABRT: no unwinding, nothing recorded), as a fault in a grammar's C code would.

use std::time::Duration;

/// The error reading `path` fails with, when a test asked for one.
#[cfg(any(test, feature = "testing"))]
pub(crate) fn read_error(path: &[u8]) -> Option<std::io::Error> {
    use std::os::unix::ffi::OsStrExt;
    let list = std::env::var_os("REPOCUE_TEST_UNREADABLE")?;
    list.as_bytes()
        .split(|&b| b == b'\n')
        .any(|p| p == path)
        .then(|| std::io::Error::from_raw_os_error(libc::EIO))
}

/// The error reading `path` fails with, when a test asked for one: never, in this build.
#[cfg(not(any(test, feature = "testing")))]
#[inline(always)]
pub(crate) fn read_error(_path: &[u8]) -> Option<std::io::Error> {
    None
}

/// The parse time limit, when a test set one.
#[cfg(any(test, feature = "testing"))]
pub(crate) fn parse_timeout() -> Option<Duration> {
    let ms = std::env::var("REPOCUE_TEST_PARSE_TIMEOUT_MS").ok()?;
    ms.parse().ok().map(Duration::from_millis)
}

/// The parse time limit, when a test set one: never, in this build.
#[cfg(not(any(test, feature = "testing")))]
#[inline(always)]
pub(crate) fn parse_timeout() -> Option<Duration> {
    None
}

/// Aborts the process when a test asked for parses of content holding a marker to crash.
#[cfg(any(test, feature = "testing"))]
pub(crate) fn parse_crash(content: &[u8]) {
    use std::os::unix::ffi::OsStrExt;
    let Some(marker) = std::env::var_os("REPOCUE_TEST_CRASH_ON") else {
        return;
    };
    let marker = marker.as_bytes();
    if !marker.is_empty() && content.windows(marker.len()).any(|w| w == marker) {
        std::process::abort();
    }
}

/// Aborts the process when a test asked for it: never, in this build.
#[cfg(not(any(test, feature = "testing")))]
#[inline(always)]
pub(crate) fn parse_crash(_content: &[u8]) {}
