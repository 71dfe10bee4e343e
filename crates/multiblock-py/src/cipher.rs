//! `Cipher` (a keyed cipher for ECB over whole blocks) and the listings
//! `ciphers()`, `modes(cipher)` and `backends(name)` (of a cipher or a hash).

use multiblock::modes::Mode;
use multiblock::CipherId;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::buffers::{bytes_of, run_maybe_detached};
use crate::errors::to_py;

/// `cipher` keyed with `key`, on the fastest constant-time backend this CPU
/// runs (or `MULTIBLOCK_BACKEND`, or the `backend` named here). The round
/// keys are zeroized when the object is freed.
#[pyclass(frozen, module = "multiblock", name = "Cipher")]
pub struct PyCipher {
    inner: multiblock::Cipher,
}

#[pymethods]
impl PyCipher {
    #[new]
    #[pyo3(signature = (cipher, key, sbox=None, backend=None))]
    fn new(cipher: &str, key: &Bound<'_, PyAny>, sbox: Option<&str>, backend: Option<&str>) -> PyResult<Self> {
        let key = bytes_of(key)?;
        let inner = multiblock::Cipher::new(cipher, key.as_bytes(), sbox, backend).map_err(to_py)?;
        Ok(PyCipher { inner })
    }

    /// encrypt_blocks(data) -> bytes: ECB encryption of whole blocks
    /// (ValueError if `len(data)` is not a multiple of `block_size`).
    fn encrypt_blocks<'py>(&self, py: Python<'py>, data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
        self.ecb(py, data, true)
    }

    /// decrypt_blocks(data) -> bytes: ECB decryption of whole blocks.
    fn decrypt_blocks<'py>(&self, py: Python<'py>, data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
        self.ecb(py, data, false)
    }

    /// The backend this cipher runs on, e.g. "avx2" or "reference".
    #[getter]
    fn backend(&self) -> &'static str {
        self.inner.backend().name
    }

    /// The cipher's name, e.g. "kalyna-128-256".
    #[getter]
    fn name(&self) -> &'static str {
        self.inner.id().name()
    }

    /// Block size in bytes.
    #[getter]
    fn block_size(&self) -> usize {
        self.inner.block_bytes()
    }

    /// Key size in bytes.
    #[getter]
    fn key_size(&self) -> usize {
        self.inner.id().key_bytes()
    }

    fn __repr__(&self) -> String {
        format!("<multiblock.Cipher {} backend={}>", self.name(), self.backend())
    }
}

impl PyCipher {
    fn ecb<'py>(&self, py: Python<'py>, data: &Bound<'py, PyAny>, encrypt: bool) -> PyResult<Bound<'py, PyBytes>> {
        let mut buf = bytes_of(data)?.as_bytes().to_vec();
        run_maybe_detached(py, buf.len(), || {
            if encrypt {
                self.inner.encrypt_blocks(&mut buf)
            } else {
                self.inner.decrypt_blocks(&mut buf)
            }
        })
        .map_err(to_py)?;
        Ok(PyBytes::new(py, &buf))
    }
}

/// ciphers() -> list[str]: every cipher name.
#[pyfunction]
pub fn ciphers() -> Vec<&'static str> {
    CipherId::ALL.iter().map(|c| c.name()).collect()
}

/// modes(cipher) -> list[str]: the modes of `cipher`, "ecb" first.
#[pyfunction]
pub fn modes(cipher: &str) -> PyResult<Vec<&'static str>> {
    let id = CipherId::from_name(cipher).map_err(to_py)?;
    Ok(Mode::for_cipher(id).iter().map(|m| m.name()).collect())
}

/// backends(name) -> list[str]: the backends of the cipher or hash `name`
/// that this CPU runs, fastest first (table and reference backends are not
/// constant-time and are used only when named).
#[pyfunction]
pub fn backends(name: &str) -> PyResult<Vec<&'static str>> {
    let all = match multiblock::hash::HashId::from_name(name) {
        Ok(hash) => multiblock::hash::backends(hash),
        Err(_) => multiblock::backends(name).map_err(to_py)?,
    };
    Ok(all.iter().filter(|b| b.available).map(|b| b.info.name).collect())
}
