//! Key export and key wrap: KExp15/KImp15 (R 1323565.1.017-2018) for
//! Kuznyechik and Magma, and Dstu7624Wrap and the GOST 28147-89 wrap of
//! the Ukrainian CMS profile,
//! over [`multiblock::wrap`]. The library wipes its copies of the keys;
//! the `bytes` handed to Python are Python's to manage.

use multiblock::wrap::{self, Kexp15Cipher};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::buffers::{bytes_of, optional_bytes_of};
use crate::errors::to_py;

/// The KExp15 cipher of a name: "kuznyechik" or "magma".
fn kexp15_cipher(name: &str) -> PyResult<Kexp15Cipher> {
    match name {
        "kuznyechik" => Ok(Kexp15Cipher::Kuznyechik),
        "magma" => Ok(Kexp15Cipher::Magma),
        other => Err(PyValueError::new_err(format!(
            "KExp15 is defined for 'kuznyechik' and 'magma', got '{}'",
            other.escape_debug()
        ))),
    }
}

/// kexp15(cipher, key, kek_enc, kek_mac, iv) -> bytes: exports `key` (any
/// non-empty length) under the 32-byte encryption and MAC keys with an IV
/// of half a block (8 bytes for "kuznyechik", 4 for "magma"); the result
/// is the key's length plus one block.
#[pyfunction]
pub fn kexp15<'py>(
    py: Python<'py>,
    cipher: &str,
    key: &Bound<'py, PyAny>,
    kek_enc: &Bound<'py, PyAny>,
    kek_mac: &Bound<'py, PyAny>,
    iv: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyBytes>> {
    let c = kexp15_cipher(cipher)?;
    let (key, enc, mac, iv) = (bytes_of(key)?, bytes_of(kek_enc)?, bytes_of(kek_mac)?, bytes_of(iv)?);
    let blob = wrap::kexp15(c, key.as_bytes(), enc.as_bytes(), mac.as_bytes(), iv.as_bytes()).map_err(to_py)?;
    Ok(PyBytes::new(py, &blob))
}

/// kimp15(cipher, blob, kek_enc, kek_mac, iv) -> bytes: the key exported
/// in `blob`; AuthenticationError if its MAC does not match.
#[pyfunction]
pub fn kimp15<'py>(
    py: Python<'py>,
    cipher: &str,
    blob: &Bound<'py, PyAny>,
    kek_enc: &Bound<'py, PyAny>,
    kek_mac: &Bound<'py, PyAny>,
    iv: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyBytes>> {
    let c = kexp15_cipher(cipher)?;
    let (blob, enc, mac, iv) = (bytes_of(blob)?, bytes_of(kek_enc)?, bytes_of(kek_mac)?, bytes_of(iv)?);
    let key = wrap::kimp15(c, blob.as_bytes(), enc.as_bytes(), mac.as_bytes(), iv.as_bytes()).map_err(to_py)?;
    Ok(PyBytes::new(py, &key))
}

/// dstu7624_wrap(kek, key, iv=None) -> bytes: wraps the 32-byte `key`
/// under the 32-byte `kek` (96 bytes out); the 32-byte IV is drawn from
/// the operating system unless given (only to reproduce a vector).
#[pyfunction]
#[pyo3(signature = (kek, key, iv=None))]
pub fn dstu7624_wrap<'py>(
    py: Python<'py>,
    kek: &Bound<'py, PyAny>,
    key: &Bound<'py, PyAny>,
    iv: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let (kek, key) = (bytes_of(kek)?, bytes_of(key)?);
    let wrapped = match optional_bytes_of(iv)? {
        Some(iv) => wrap::dstu7624_wrap_with_iv(kek.as_bytes(), key.as_bytes(), iv.as_bytes()),
        None => wrap::dstu7624_wrap(kek.as_bytes(), key.as_bytes()),
    }
    .map_err(to_py)?;
    Ok(PyBytes::new(py, &wrapped))
}

/// dstu7624_unwrap(kek, wrapped) -> bytes: the 32-byte key in the 96-byte
/// `wrapped`; AuthenticationError if its MAC does not match.
#[pyfunction]
pub fn dstu7624_unwrap<'py>(
    py: Python<'py>,
    kek: &Bound<'py, PyAny>,
    wrapped: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyBytes>> {
    let (kek, wrapped) = (bytes_of(kek)?, bytes_of(wrapped)?);
    let key = wrap::dstu7624_unwrap(kek.as_bytes(), wrapped.as_bytes()).map_err(to_py)?;
    Ok(PyBytes::new(py, &key))
}

/// The S-box set of a name, "dstu4145" (DSTU 4145-2002's DKE No. 1) by default.
fn sbox_set(name: &str) -> PyResult<multiblock::magma::SboxSet> {
    multiblock::magma::SboxSet::from_name(name).map_err(to_py)
}

/// gost28147_wrap(kek, key, iv=None, sbox="dstu4145") -> bytes: the GOST
/// 28147-89 key wrap of the Ukrainian CMS profile; wraps the 32-byte `key`
/// under the 32-byte `kek` (44 bytes out); the 8-byte IV is drawn from the
/// operating system unless given (only to reproduce a vector).
#[pyfunction]
#[pyo3(signature = (kek, key, iv=None, sbox="dstu4145"))]
pub fn gost28147_wrap<'py>(
    py: Python<'py>,
    kek: &Bound<'py, PyAny>,
    key: &Bound<'py, PyAny>,
    iv: Option<&Bound<'py, PyAny>>,
    sbox: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    let set = sbox_set(sbox)?;
    let (kek, key) = (bytes_of(kek)?, bytes_of(key)?);
    let wrapped = match optional_bytes_of(iv)? {
        Some(iv) => wrap::gost28147_wrap_with_iv(set, kek.as_bytes(), key.as_bytes(), iv.as_bytes()),
        None => wrap::gost28147_wrap(set, kek.as_bytes(), key.as_bytes()),
    }
    .map_err(to_py)?;
    Ok(PyBytes::new(py, &wrapped))
}

/// gost28147_unwrap(kek, wrapped, sbox="dstu4145") -> bytes: the 32-byte
/// key in the 44-byte `wrapped`; AuthenticationError if its MAC does not match.
#[pyfunction]
#[pyo3(signature = (kek, wrapped, sbox="dstu4145"))]
pub fn gost28147_unwrap<'py>(
    py: Python<'py>,
    kek: &Bound<'py, PyAny>,
    wrapped: &Bound<'py, PyAny>,
    sbox: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    let set = sbox_set(sbox)?;
    let (kek, wrapped) = (bytes_of(kek)?, bytes_of(wrapped)?);
    let key = wrap::gost28147_unwrap(set, kek.as_bytes(), wrapped.as_bytes()).map_err(to_py)?;
    Ok(PyBytes::new(py, &key))
}
