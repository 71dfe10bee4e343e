//! Printing to stdout without panicking on a closed pipe.

use std::io::Write;

/// Writes one line to stdout; a failure (e.g. a closed pipe) becomes an error.
pub fn line(s: impl AsRef<str>) -> Result<(), String> {
    let mut o = std::io::stdout().lock();
    writeln!(o, "{}", s.as_ref()).map_err(|e| format!("cannot write stdout: {}", crate::io::plain(&e)))
}
