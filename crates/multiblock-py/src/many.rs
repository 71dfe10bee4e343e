//! `mac_many` and `encrypt_many`: many messages under one key through the
//! library's many-streams API (`multiblock::modes::many`), which runs the
//! serial modes (CBC/CFB/OFB encryption, GOST MAC, OMAC-ACPKM, DSTU CMAC)
//! in the SIMD lanes.

use multiblock::modes::many;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};

use crate::buffers::{bytes_of, run_maybe_detached};
use crate::errors::to_py;
use crate::request::spec;

/// The messages as owned bytes objects (any buffer-protocol object each).
fn messages<'py>(list: &Bound<'py, PyAny>) -> PyResult<Vec<Bound<'py, PyBytes>>> {
    list.try_iter()?.map(|m| bytes_of(&m?)).collect()
}

#[allow(clippy::too_many_arguments)] // the Python signature of the contract
fn run<'py>(
    py: Python<'py>,
    mac: bool,
    cipher: &str,
    mode: &str,
    key: &Bound<'py, PyAny>,
    msgs: &Bound<'py, PyAny>,
    iv: Option<&Bound<'py, PyAny>>,
    aad: Option<&Bound<'py, PyAny>>,
    sbox: Option<&str>,
    backend: Option<&str>,
    params: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyList>> {
    let spec = spec(cipher, mode, key, iv, aad, sbox, backend, params)?;
    let owned = messages(msgs)?;
    let refs: Vec<&[u8]> = owned.iter().map(|b| b.as_bytes()).collect();
    let total = refs.iter().map(|m| m.len()).sum();
    let req = spec.request();
    let out = run_maybe_detached(py, total, || match mac {
        true => many::mac_many(&req, &refs),
        false => many::encrypt_many(&req, &refs),
    })
    .map_err(to_py)?;
    PyList::new(py, out.iter().map(|o| PyBytes::new(py, o)))
}

/// The MACs of every message of `messages` (an iterable of buffers) under
/// one key, as `[mac(cipher, mode, key, m, ...) for m in messages]` gives
/// them, computed together: one wide cipher call per block step over every
/// message (mac, omac-acpkm, cmac; other MAC modes one message at a time).
#[pyfunction]
#[pyo3(signature = (cipher, mode, key, messages, iv=None, aad=None, sbox=None, *, backend=None, **params))]
#[allow(clippy::too_many_arguments)] // the Python signature of the contract
pub fn mac_many<'py>(
    py: Python<'py>,
    cipher: &str,
    mode: &str,
    key: &Bound<'py, PyAny>,
    messages: &Bound<'py, PyAny>,
    iv: Option<&Bound<'py, PyAny>>,
    aad: Option<&Bound<'py, PyAny>>,
    sbox: Option<&str>,
    backend: Option<&str>,
    params: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyList>> {
    run(py, true, cipher, mode, key, messages, iv, aad, sbox, backend, params)
}

/// The encryptions of every message under one key and IV, as
/// `[encrypt(cipher, mode, key, m, iv, ...) for m in messages]`, with CBC,
/// CFB and OFB (a one-block register) computed together in the SIMD lanes
/// and the other cipher modes one message at a time.
///
/// Not for AEAD (mgm, gcm, ccm) or kw: every message needs its own nonce
/// (AEAD) or integrity check (KW), so they raise ValueError; encrypt such
/// messages one at a time with `encrypt`. No mode it runs authenticates
/// data, so it takes no `aad`.
#[pyfunction]
#[pyo3(signature = (cipher, mode, key, messages, iv=None, sbox=None, *, backend=None, **params))]
#[allow(clippy::too_many_arguments)] // the Python signature of the contract
pub fn encrypt_many<'py>(
    py: Python<'py>,
    cipher: &str,
    mode: &str,
    key: &Bound<'py, PyAny>,
    messages: &Bound<'py, PyAny>,
    iv: Option<&Bound<'py, PyAny>>,
    sbox: Option<&str>,
    backend: Option<&str>,
    params: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyList>> {
    if let Some(p) = params {
        if p.contains("aad")? {
            return Err(PyTypeError::new_err(
                "encrypt_many takes no aad: none of its modes authenticates data \
                 (AEAD messages each need their own nonce: encrypt them one at a time with encrypt())",
            ));
        }
    }
    run(py, false, cipher, mode, key, messages, iv, None, sbox, backend, params)
}
