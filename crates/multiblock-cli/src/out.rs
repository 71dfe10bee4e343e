//! Printing to stdout without panicking on a closed pipe, and without
//! reporting success when nothing could be written (a closed stdout, a full
//! disk: `--help >/dev/full`).

use std::io::Write;

/// Writes one line to stdout; a failure (e.g. a closed pipe) becomes an error.
pub fn line(s: impl AsRef<str>) -> Result<(), String> {
    text(&format!("{}\n", s.as_ref()))
}

/// Writes `s` to stdout and flushes it.
pub fn text(s: &str) -> Result<(), String> {
    crate::std_fds::stdout_open()?;
    let mut o = std::io::stdout().lock();
    o.write_all(s.as_bytes()).and_then(|_| o.flush()).map_err(|e| crate::std_fds::stdout_error(&e))
}
