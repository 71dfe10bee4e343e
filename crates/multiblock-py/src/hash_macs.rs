//! The keyed hashes: HMAC (RFC 2104; over Streebog, RFC 7836 §4.1) in the
//! shape of Python's `hmac` module (`hmac_new(key, msg=None, digestmod=...)`,
//! `hmac_digest(key, msg, digestmod)`), and Kupyna's MAC (DSTU 7564:2014)
//! in the same shape (`kupyna_mac_new`, `kupyna_mac`).

use multiblock::hash::{HashId, Hmac, KupynaMac};
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::sync::Mutex;

use crate::buffers::{bytes_of, run_maybe_detached};
use crate::errors::to_py;
use crate::hashes::choice;
use crate::locked::{busy, hex};

/// An HMAC in progress (see `hmac_new`): `update`, `digest`, `hexdigest`,
/// `copy`, `verify`, `name`, `digest_size`, `block_size`. One thread at a
/// time, as `Hash`.
#[pyclass(frozen, module = "multiblock", name = "HMAC")]
pub struct PyHmac {
    state: Mutex<Hmac>,
}

impl PyHmac {
    fn mac(&self) -> PyResult<Hmac> {
        Ok(self.state.try_lock().map_err(|_| busy())?.clone())
    }

    fn id(&self) -> PyResult<HashId> {
        Ok(self.state.try_lock().map_err(|_| busy())?.id())
    }
}

#[pymethods]
impl PyHmac {
    /// update(msg): MACs the next piece of the message.
    fn update(&self, py: Python<'_>, msg: &Bound<'_, PyAny>) -> PyResult<()> {
        let msg = bytes_of(msg)?;
        let msg = msg.as_bytes();
        let mut state = self.state.try_lock().map_err(|_| busy())?;
        let mac = &mut *state;
        run_maybe_detached(py, msg.len(), || mac.update(msg));
        Ok(())
    }

    /// digest() -> bytes: the tag of everything so far; updates may go on.
    fn digest<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        Ok(PyBytes::new(py, &self.mac()?.finalize()))
    }

    /// hexdigest() -> str: digest() in lowercase hex.
    fn hexdigest(&self) -> PyResult<String> {
        Ok(hex(&self.mac()?.finalize()))
    }

    /// verify(tag): raises AuthenticationError unless `tag` is the tag of
    /// everything so far (compared in constant time); updates may go on.
    fn verify(&self, tag: &Bound<'_, PyAny>) -> PyResult<()> {
        let tag = bytes_of(tag)?;
        self.mac()?.verify(tag.as_bytes()).map_err(to_py)
    }

    /// copy() -> HMAC: an independent copy of the keyed state.
    fn copy(&self) -> PyResult<PyHmac> {
        Ok(PyHmac { state: Mutex::new(self.mac()?) })
    }

    /// "hmac-" and the hash's name, e.g. "hmac-streebog-256" (as Python's
    /// `hmac` names its objects).
    #[getter]
    fn name(&self) -> PyResult<String> {
        Ok(format!("hmac-{}", self.id()?))
    }

    /// The tag length in bytes (the hash's digest).
    #[getter]
    fn digest_size(&self) -> PyResult<usize> {
        Ok(self.id()?.digest_bytes())
    }

    /// The hash's block in bytes (what the key is padded to).
    #[getter]
    fn block_size(&self) -> PyResult<usize> {
        Ok(self.id()?.block_bytes())
    }

    fn __repr__(&self) -> PyResult<String> {
        Ok(format!("<multiblock.HMAC {}>", self.name()?))
    }
}

/// The hash an HMAC runs over.
fn digestmod_id(digestmod: &str) -> PyResult<HashId> {
    HashId::from_name(digestmod).map_err(to_py)
}

/// hmac_new(key, msg=None, digestmod="streebog-256", *, backend=None) ->
/// HMAC, the shape of `hmac.new`; `digestmod` names the hash, `backend` one
/// of its backends (`backends(digestmod)`).
#[pyfunction]
#[pyo3(signature = (key, msg=None, digestmod="streebog-256", *, backend=None))]
pub fn hmac_new(
    py: Python<'_>,
    key: &Bound<'_, PyAny>,
    msg: Option<&Bound<'_, PyAny>>,
    digestmod: &str,
    backend: Option<&str>,
) -> PyResult<PyHmac> {
    let key = bytes_of(key)?;
    let mut mac = Hmac::with_backend(digestmod_id(digestmod)?, key.as_bytes(), choice(backend)).map_err(to_py)?;
    if let Some(msg) = msg {
        let msg = bytes_of(msg)?;
        let msg = msg.as_bytes();
        run_maybe_detached(py, msg.len(), || mac.update(msg));
    }
    Ok(PyHmac { state: Mutex::new(mac) })
}

/// hmac_digest(key, msg, digestmod="streebog-256", *, backend=None) ->
/// bytes: the tag of one message, the shape of `hmac.digest`.
#[pyfunction]
#[pyo3(signature = (key, msg, digestmod="streebog-256", *, backend=None))]
pub fn hmac_digest<'py>(
    py: Python<'py>,
    key: &Bound<'py, PyAny>,
    msg: &Bound<'py, PyAny>,
    digestmod: &str,
    backend: Option<&str>,
) -> PyResult<Bound<'py, PyBytes>> {
    let key = bytes_of(key)?;
    let mut mac = Hmac::with_backend(digestmod_id(digestmod)?, key.as_bytes(), choice(backend)).map_err(to_py)?;
    let msg = bytes_of(msg)?;
    let msg = msg.as_bytes();
    let tag = run_maybe_detached(py, msg.len(), || {
        mac.update(msg);
        mac.finalize()
    });
    Ok(PyBytes::new(py, &tag))
}

/// Kupyna's MAC in progress (see `kupyna_mac_new`): `update`, `digest`,
/// `hexdigest`, `copy`, `verify`, `name`, `digest_size`, `block_size`. One
/// thread at a time, as `Hash`.
#[pyclass(frozen, module = "multiblock", name = "KupynaMAC")]
pub struct PyKupynaMac {
    state: Mutex<KupynaMac>,
}

impl PyKupynaMac {
    fn mac(&self) -> PyResult<KupynaMac> {
        Ok(self.state.try_lock().map_err(|_| busy())?.clone())
    }

    fn tag_bytes(&self) -> PyResult<usize> {
        Ok(self.state.try_lock().map_err(|_| busy())?.tag_bytes())
    }
}

#[pymethods]
impl PyKupynaMac {
    /// update(msg): MACs the next piece of the message.
    fn update(&self, py: Python<'_>, msg: &Bound<'_, PyAny>) -> PyResult<()> {
        let msg = bytes_of(msg)?;
        let msg = msg.as_bytes();
        let mut state = self.state.try_lock().map_err(|_| busy())?;
        let mac = &mut *state;
        run_maybe_detached(py, msg.len(), || mac.update(msg));
        Ok(())
    }

    /// digest() -> bytes: the tag of everything so far; updates may go on.
    fn digest<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        Ok(PyBytes::new(py, &self.mac()?.finalize_reset()))
    }

    /// hexdigest() -> str: digest() in lowercase hex.
    fn hexdigest(&self) -> PyResult<String> {
        Ok(hex(&self.mac()?.finalize_reset()))
    }

    /// verify(tag): raises AuthenticationError unless `tag` is the tag of
    /// everything so far (compared in constant time); updates may go on.
    fn verify(&self, tag: &Bound<'_, PyAny>) -> PyResult<()> {
        let tag = bytes_of(tag)?;
        self.mac()?.verify_reset(tag.as_bytes()).map_err(to_py)
    }

    /// copy() -> KupynaMAC: an independent copy of the keyed state.
    fn copy(&self) -> PyResult<PyKupynaMac> {
        Ok(PyKupynaMac { state: Mutex::new(self.mac()?) })
    }

    /// "kupyna-mac-" and the tag length in bits, e.g. "kupyna-mac-256".
    #[getter]
    fn name(&self) -> PyResult<String> {
        Ok(format!("kupyna-mac-{}", self.tag_bytes()? * 8))
    }

    /// The tag length in bytes.
    #[getter]
    fn digest_size(&self) -> PyResult<usize> {
        self.tag_bytes()
    }

    /// The bytes of the hash's block (64 for 256-bit tags, 128 beyond).
    #[getter]
    fn block_size(&self) -> PyResult<usize> {
        let bits = u16::try_from(self.tag_bytes()? * 8).unwrap_or(512);
        Ok(HashId::Kupyna { digest_bits: bits }.block_bytes())
    }

    fn __repr__(&self) -> PyResult<String> {
        Ok(format!("<multiblock.KupynaMAC {}>", self.name()?))
    }
}

/// The tag length: `tag_bits`, or the key's length when not given (the
/// standard's key is as long as the tag).
fn tag_bits_of(key: &[u8], tag_bits: Option<usize>) -> PyResult<usize> {
    match (tag_bits, key.len()) {
        (Some(bits), _) => Ok(bits),
        (None, 32 | 48 | 64) => Ok(key.len() * 8),
        (None, n) => Err(to_py(multiblock::Error::Param(format!(
            "Kupyna's MAC takes a key of 32, 48 or 64 bytes (the tag's length), got {n}"
        )))),
    }
}

/// kupyna_mac_new(key, msg=None, tag_bits=None, *, backend=None) ->
/// KupynaMAC: Kupyna's MAC with a tag of 256, 384 or 512 bits (by default
/// the key's length) under `key` (as long as the tag).
#[pyfunction]
#[pyo3(signature = (key, msg=None, tag_bits=None, *, backend=None))]
pub fn kupyna_mac_new(
    py: Python<'_>,
    key: &Bound<'_, PyAny>,
    msg: Option<&Bound<'_, PyAny>>,
    tag_bits: Option<usize>,
    backend: Option<&str>,
) -> PyResult<PyKupynaMac> {
    let key = bytes_of(key)?;
    let key = key.as_bytes();
    let mut mac = KupynaMac::with_backend(tag_bits_of(key, tag_bits)?, key, choice(backend)).map_err(to_py)?;
    if let Some(msg) = msg {
        let msg = bytes_of(msg)?;
        let msg = msg.as_bytes();
        run_maybe_detached(py, msg.len(), || mac.update(msg));
    }
    Ok(PyKupynaMac { state: Mutex::new(mac) })
}

/// kupyna_mac(key, msg, tag_bits=None, *, backend=None) -> bytes: the tag
/// of one message.
#[pyfunction]
#[pyo3(signature = (key, msg, tag_bits=None, *, backend=None))]
pub fn kupyna_mac<'py>(
    py: Python<'py>,
    key: &Bound<'py, PyAny>,
    msg: &Bound<'py, PyAny>,
    tag_bits: Option<usize>,
    backend: Option<&str>,
) -> PyResult<Bound<'py, PyBytes>> {
    let key = bytes_of(key)?;
    let key = key.as_bytes();
    let mut mac = KupynaMac::with_backend(tag_bits_of(key, tag_bits)?, key, choice(backend)).map_err(to_py)?;
    let msg = bytes_of(msg)?;
    let msg = msg.as_bytes();
    let tag = run_maybe_detached(py, msg.len(), || {
        mac.update(msg);
        mac.finalize_reset()
    });
    Ok(PyBytes::new(py, &tag))
}
