//! The hashes in the shape of Python's `hashlib`: `new(name, data=b"")`
//! returns an object with `update`, `digest`, `hexdigest`, `copy`, `name`,
//! `digest_size` and `block_size`; `hash(name, data)` is the one-shot call
//! and `hash_many(name, messages)` hashes many messages together (in the
//! SIMD lanes where the backend can). Names: streebog-256, streebog-512,
//! kupyna-256, kupyna-384, kupyna-512 and kupyna-N (N from 8 to 512 in
//! steps of 8).
//!
//! Python's `hmac` over these objects feeds K ⊕ ipad as a fresh object's
//! first update, one block, and copies that state for each tag, so the
//! objects update by `Hasher::update_for_copies`: no copy compresses the
//! keyed block again.

use multiblock::hash::{self, HashId, Hasher};
use multiblock::BackendChoice;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList};
use std::sync::Mutex;

use crate::buffers::{bytes_of, run_maybe_detached};
use crate::errors::to_py;
use crate::locked::{busy, hex};

/// `backend=None` is the default choice (`MULTIBLOCK_BACKEND`, else the
/// fastest constant-time backend); a name forces that backend.
pub fn choice(backend: Option<&str>) -> BackendChoice<'_> {
    backend.map_or(BackendChoice::Auto, BackendChoice::Named)
}

/// A hash in progress (see `new`). Frozen, its state behind a mutex taken
/// with `try_lock` (as the stream objects): a call while another thread is
/// inside one (an update of a large buffer runs with the GIL released)
/// raises ValueError instead of waiting.
#[pyclass(frozen, module = "multiblock", name = "Hash")]
pub struct PyHash {
    state: Mutex<Hasher>,
}

impl PyHash {
    fn hasher(&self) -> PyResult<Hasher> {
        Ok(self.state.try_lock().map_err(|_| busy())?.clone())
    }
}

#[pymethods]
impl PyHash {
    /// update(data): hashes the next piece of the message.
    fn update(&self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<()> {
        let data = bytes_of(data)?;
        let data = data.as_bytes();
        let mut state = self.state.try_lock().map_err(|_| busy())?;
        let hasher = &mut *state;
        run_maybe_detached(py, data.len(), || hasher.update_for_copies(data));
        Ok(())
    }

    /// digest() -> bytes: the digest of everything so far; the object can
    /// go on taking updates (as hashlib's).
    fn digest<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        Ok(PyBytes::new(py, &self.hasher()?.finalize()))
    }

    /// hexdigest() -> str: digest() in lowercase hex.
    fn hexdigest(&self) -> PyResult<String> {
        Ok(hex(&self.hasher()?.finalize()))
    }

    /// copy() -> Hash: an independent copy of the state (to hash several
    /// messages that share a prefix).
    fn copy(&self) -> PyResult<PyHash> {
        Ok(PyHash { state: Mutex::new(self.hasher()?) })
    }

    /// The hash's name, e.g. "streebog-256".
    #[getter]
    fn name(&self) -> PyResult<String> {
        Ok(self.hasher_id()?.to_string())
    }

    /// The digest length in bytes.
    #[getter]
    fn digest_size(&self) -> PyResult<usize> {
        Ok(self.hasher_id()?.digest_bytes())
    }

    /// The bytes of one compression block (what HMAC pads its key to).
    #[getter]
    fn block_size(&self) -> PyResult<usize> {
        Ok(self.hasher_id()?.block_bytes())
    }

    /// The backend the hash runs on.
    #[getter]
    fn backend(&self) -> PyResult<&'static str> {
        Ok(self.state.try_lock().map_err(|_| busy())?.backend().name)
    }

    fn __repr__(&self) -> PyResult<String> {
        Ok(format!("<multiblock.Hash {} backend={}>", self.name()?, self.backend()?))
    }
}

impl PyHash {
    fn hasher_id(&self) -> PyResult<HashId> {
        Ok(self.state.try_lock().map_err(|_| busy())?.id())
    }
}

/// new(name, data=b"", *, backend=None) -> Hash: a hashlib-shaped object.
#[pyfunction]
#[pyo3(signature = (name, data=None, *, backend=None))]
pub fn new(py: Python<'_>, name: &str, data: Option<&Bound<'_, PyAny>>, backend: Option<&str>) -> PyResult<PyHash> {
    let id = HashId::from_name(name).map_err(to_py)?;
    let mut hasher = Hasher::with_backend(id, choice(backend)).map_err(to_py)?;
    if let Some(data) = data {
        let data = bytes_of(data)?;
        let data = data.as_bytes();
        run_maybe_detached(py, data.len(), || hasher.update_for_copies(data));
    }
    Ok(PyHash { state: Mutex::new(hasher) })
}

/// hash(name, data, *, backend=None) -> bytes: the digest of one message.
#[pyfunction]
#[pyo3(name = "hash", signature = (name, data, *, backend=None))]
pub fn hash_one<'py>(py: Python<'py>, name: &str, data: &Bound<'py, PyAny>, backend: Option<&str>) -> PyResult<Bound<'py, PyBytes>> {
    let id = HashId::from_name(name).map_err(to_py)?;
    let mut hasher = Hasher::with_backend(id, choice(backend)).map_err(to_py)?;
    let data = bytes_of(data)?;
    let data = data.as_bytes();
    let out = run_maybe_detached(py, data.len(), || {
        hasher.update(data);
        hasher.finalize()
    });
    Ok(PyBytes::new(py, &out))
}

/// hash_many(name, messages, *, backend=None) -> list[bytes]: the digest of
/// every message, as `[hash(name, m) for m in messages]`, computed together.
#[pyfunction]
#[pyo3(signature = (name, messages, *, backend=None))]
pub fn hash_many<'py>(py: Python<'py>, name: &str, messages: &Bound<'py, PyAny>, backend: Option<&str>) -> PyResult<Bound<'py, PyList>> {
    let id = HashId::from_name(name).map_err(to_py)?;
    let owned: Vec<Bound<'py, PyBytes>> = messages.try_iter()?.map(|m| bytes_of(&m?)).collect::<PyResult<_>>()?;
    let refs: Vec<&[u8]> = owned.iter().map(|b| b.as_bytes()).collect();
    let total = refs.iter().map(|m| m.len()).sum();
    let out = run_maybe_detached(py, total, || hash::digest_many_with_backend(id, &refs, choice(backend))).map_err(to_py)?;
    PyList::new(py, out.iter().map(|d| PyBytes::new(py, d)))
}

/// hashes() -> list[str]: the hash names protocols use (kupyna-N takes any
/// N from 8 to 512 in steps of 8 besides).
#[pyfunction]
pub fn hashes() -> Vec<&'static str> {
    HashId::NAMES.to_vec()
}
