//! What the objects whose state sits behind a `try_lock` mutex share: the
//! error of a call that finds another thread inside, and lowercase hex.

use pyo3::exceptions::PyValueError;
use pyo3::PyErr;

/// Another Python thread is inside a method of this object (waiting for
/// the lock with the GIL held could deadlock with it).
pub fn busy() -> PyErr {
    PyValueError::new_err("this context is in use by another thread")
}

/// Bytes as lowercase hex (what `hexdigest()` returns).
pub fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 15)]));
    }
    out
}
