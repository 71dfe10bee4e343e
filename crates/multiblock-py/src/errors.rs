//! The library's errors as Python exceptions: `ValueError`, and
//! `AuthenticationError` (a `ValueError`) for a wrong tag or key-wrap check.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

pyo3::create_exception!(
    multiblock,
    AuthenticationError,
    PyValueError,
    "A tag (MGM, GCM, CCM, a MAC) or key-wrap integrity check failed; nothing was returned."
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
    without_hex_digits(&out)
}

/// Drops the " (N hex digits)" the CLI's messages give after a length in
/// bytes: from Python keys and IVs are bytes, not hex.
fn without_hex_digits(msg: &str) -> String {
    let mut out = String::with_capacity(msg.len());
    let mut rest = msg;
    while let Some(at) = rest.find(" (") {
        let inner = &rest[at + 2..];
        let digits = inner.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && inner[digits..].starts_with(" hex digits)") {
            out.push_str(&rest[..at]);
            rest = &inner[digits + " hex digits)".len()..];
        } else {
            out.push_str(&rest[..at + 2]);
            rest = inner;
        }
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

    #[test]
    fn hex_digit_counts_are_dropped() {
        assert_eq!(pythonic("magma needs a key of 32 bytes (64 hex digits), got 5 bytes"), "magma needs a key of 32 bytes, got 5 bytes");
        assert_eq!(pythonic("an --iv of 8 bytes (16 hex digits, the tweak)"), "an iv of 8 bytes (16 hex digits, the tweak)");
        assert_eq!(pythonic("x (a) (12 hex digits) y (3 hex digits)"), "x (a) y");
        assert_eq!(pythonic("ends with ("), "ends with (");
    }
}
