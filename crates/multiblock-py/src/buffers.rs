//! Byte arguments: `bytes` as they are, any other buffer-protocol object
//! (bytearray, memoryview, array.array, numpy arrays, mmap, ...) copied once
//! through `memoryview(obj).tobytes()`, which takes every format and layout.
//!
//! The copy is deliberate: the cipher runs with the GIL released, and a
//! mutable buffer could then be changed under it by another thread.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyMemoryView};

/// An immutable `bytes` holding the argument's bytes.
pub fn bytes_of<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
    if let Ok(b) = obj.cast_exact::<PyBytes>() {
        return Ok(b.clone());
    }
    let view = PyMemoryView::from(obj)?;
    Ok(view.call_method0("tobytes")?.cast_into::<PyBytes>()?)
}

/// Like [`bytes_of`], for optional arguments (`None` = not given).
pub fn optional_bytes_of<'py>(obj: Option<&Bound<'py, PyAny>>) -> PyResult<Option<Bound<'py, PyBytes>>> {
    match obj {
        Some(o) if !o.is_none() => bytes_of(o).map(Some),
        _ => Ok(None),
    }
}

/// Inputs at least this long are processed with the GIL released, so other
/// Python threads run meanwhile; below it the release costs more than it gives.
pub const RELEASE_GIL_BYTES: usize = 64 * 1024;

/// Runs `f` with the GIL released when `len` is large.
pub fn run_maybe_detached<T: Send>(py: Python<'_>, len: usize, f: impl FnOnce() -> T + Send) -> T {
    if len >= RELEASE_GIL_BYTES {
        py.detach(f)
    } else {
        f()
    }
}
