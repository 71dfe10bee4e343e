//! `encrypt`, `decrypt` and `mac`: one call per message through the
//! library's one-shot mode API (`multiblock::modes`).

use multiblock::modes;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use crate::buffers::{bytes_of, run_maybe_detached};
use crate::errors::to_py;
use crate::request::spec;

#[derive(Clone, Copy)]
enum Verb {
    Encrypt,
    Decrypt,
    Mac,
}

/// The arguments every verb shares, as Python passed them.
struct Call<'a, 'py> {
    cipher: &'a str,
    mode: &'a str,
    key: &'a Bound<'py, PyAny>,
    data: &'a Bound<'py, PyAny>,
    iv: Option<&'a Bound<'py, PyAny>>,
    aad: Option<&'a Bound<'py, PyAny>>,
    sbox: Option<&'a str>,
    backend: Option<&'a str>,
    kwargs: Option<&'a Bound<'py, PyDict>>,
}

fn run<'py>(py: Python<'py>, verb: Verb, c: Call<'_, 'py>) -> PyResult<Bound<'py, PyBytes>> {
    let spec = spec(c.cipher, c.mode, c.key, c.iv, c.aad, c.sbox, c.backend, c.kwargs)?;
    let data = bytes_of(c.data)?;
    let data = data.as_bytes();
    let req = spec.request();
    let out = run_maybe_detached(py, data.len(), || match verb {
        Verb::Encrypt => modes::encrypt(&req, data),
        Verb::Decrypt => modes::decrypt(&req, data),
        Verb::Mac => modes::mac(&req, data),
    })
    .map_err(to_py)?;
    Ok(PyBytes::new(py, &out))
}

/// Encrypts `data` with `cipher` (e.g. "kuznyechik", "kalyna-128-256") in
/// `mode` (e.g. "ctr", "mgm"; see `modes(cipher)`). AEAD modes (mgm, gcm,
/// ccm) return ciphertext || tag; kw returns the wrapped key.
///
/// `key`, `data`, `iv` and `aad` take bytes, bytearray, memoryview or any
/// buffer-protocol object. `sbox` names a GOST 28147-89 S-box set (gost89),
/// `backend` forces a backend by name (see `backends(cipher)`).
/// `params` are the mode parameters: padding ("none", "gost1", "gost2",
/// "gost3", "pkcs7"), s, m, mac_bits, tag_bits, section_bytes,
/// key_section_bytes, nb (ints) and key_meshing (bool); each has the
/// standard's default when left out.
///
/// Raises ValueError on bad input (unknown cipher or mode, wrong key or IV
/// length, a length the mode cannot take), TypeError on arguments of the
/// wrong type or an unknown keyword.
#[pyfunction]
#[pyo3(signature = (cipher, mode, key, data, iv=None, aad=None, sbox=None, *, backend=None, **params))]
#[allow(clippy::too_many_arguments)] // the Python signature of the contract
pub fn encrypt<'py>(
    py: Python<'py>,
    cipher: &str,
    mode: &str,
    key: &Bound<'py, PyAny>,
    data: &Bound<'py, PyAny>,
    iv: Option<&Bound<'py, PyAny>>,
    aad: Option<&Bound<'py, PyAny>>,
    sbox: Option<&str>,
    backend: Option<&str>,
    params: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let call = Call { cipher, mode, key, data, iv, aad, sbox, backend, kwargs: params };
    run(py, Verb::Encrypt, call)
}

/// The inverse of `encrypt` with the same arguments. AEAD modes take
/// ciphertext || tag and raise AuthenticationError (a ValueError) when the
/// tag does not match, as kw does when the unwrapped key fails its check;
/// no plaintext is returned then.
#[pyfunction]
#[pyo3(signature = (cipher, mode, key, data, iv=None, aad=None, sbox=None, *, backend=None, **params))]
#[allow(clippy::too_many_arguments)] // the Python signature of the contract
pub fn decrypt<'py>(
    py: Python<'py>,
    cipher: &str,
    mode: &str,
    key: &Bound<'py, PyAny>,
    data: &Bound<'py, PyAny>,
    iv: Option<&Bound<'py, PyAny>>,
    aad: Option<&Bound<'py, PyAny>>,
    sbox: Option<&str>,
    backend: Option<&str>,
    params: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let call = Call { cipher, mode, key, data, iv, aad, sbox, backend, kwargs: params };
    run(py, Verb::Decrypt, call)
}

/// The MAC (tag) of `data` in a MAC mode: mac and omac-acpkm (Kuznyechik,
/// Magma), mac (gost89), cmac and gmac (Kalyna; gmac takes an `iv`).
/// mac_bits / tag_bits truncate the tag as the standard allows.
#[pyfunction]
#[pyo3(signature = (cipher, mode, key, data, iv=None, aad=None, sbox=None, *, backend=None, **params))]
#[allow(clippy::too_many_arguments)] // the Python signature of the contract
pub fn mac<'py>(
    py: Python<'py>,
    cipher: &str,
    mode: &str,
    key: &Bound<'py, PyAny>,
    data: &Bound<'py, PyAny>,
    iv: Option<&Bound<'py, PyAny>>,
    aad: Option<&Bound<'py, PyAny>>,
    sbox: Option<&str>,
    backend: Option<&str>,
    params: Option<&Bound<'py, PyDict>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let call = Call { cipher, mode, key, data, iv, aad, sbox, backend, kwargs: params };
    run(py, Verb::Mac, call)
}
