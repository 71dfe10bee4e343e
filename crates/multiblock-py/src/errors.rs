//! The library's errors as Python exceptions: `ValueError`, and
//! `AuthenticationError` (a `ValueError`) for a wrong tag or key-wrap check.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

pyo3::create_exception!(
    multiblock,
    AuthenticationError,
    PyValueError,
    "A tag (MGM, GCM, CCM) or key-wrap integrity check failed; no plaintext was returned."
);

/// Converts a library error into the exception the Python contract names.
pub fn to_py(e: multiblock::Error) -> PyErr {
    match e {
        multiblock::Error::Authentication => AuthenticationError::new_err(e.to_string()),
        other => PyValueError::new_err(pythonic(&other.to_string())),
    }
}

/// The library's messages name CLI flags (`--iv`, `--tag-bits`); from Python
/// the same thing is the keyword `iv`, `tag_bits`, so say that instead.
fn pythonic(msg: &str) -> String {
    let mut out = String::with_capacity(msg.len());
    let mut rest = msg;
    while let Some(at) = rest.find("--") {
        out.push_str(&rest[..at]);
        let flag = &rest[at + 2..];
        let len = flag.find(|c: char| !(c.is_ascii_lowercase() || c == '-')).unwrap_or(flag.len());
        if len == 0 {
            out.push_str("--");
        } else {
            out.push_str(&flag[..len].replace('-', "_"));
        }
        rest = &flag[len..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::pythonic;

    #[test]
    fn flags_become_keywords() {
        assert_eq!(pythonic("kuznyechik ctr needs --iv (8 bytes)"), "kuznyechik ctr needs iv (8 bytes)");
        assert_eq!(pythonic("needs --tag-bits 32..128, got 7"), "needs tag_bits 32..128, got 7");
        assert_eq!(pythonic("a -- b"), "a -- b");
        assert_eq!(pythonic("no flags"), "no flags");
    }
}
