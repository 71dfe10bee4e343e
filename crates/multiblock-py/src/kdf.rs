//! The key derivations over Streebog-256 ([`multiblock::kdf`]):
//! KDF_GOSTR3411_2012_256 (RFC 7836 §4.5) as `kdf_256`,
//! KDF_TREE_GOSTR3411_2012_256 (RFC 7836 §4.4) as `kdf_tree_256`, and
//! TLSTREE, the record keys of the GOST TLS suites (RFC 9189 §8.1,
//! RFC 9367 §4.1.2), as `tlstree` and the caching `TlsTree`.
//!
//! Every argument is checked before anything is derived. The copies of the
//! keys made here and the derived keys are held in `Zeroizing` buffers,
//! wiped when they are dropped; the `bytes` handed to Python are Python's
//! to manage.

use multiblock::kdf::{self, Suite, TlsTree};
use multiblock::Error;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::sync::Mutex;
use zeroize::Zeroizing;

use crate::buffers::{bytes_of, run_maybe_detached};
use crate::errors::to_py;
use crate::locked::busy;
use crate::params::int_of;

/// The key of every derivation here: 256 bits (RFC 7836 §4.4 and §4.5,
/// RFC 9189 §8.1).
const KEY_BYTES: usize = 32;

/// The most bytes one `kdf_tree_256` call derives (32 768 keys of 256 bits),
/// as the command line's `kdf --length`: a guard against a mistyped length,
/// since the output is held in memory.
const MAX_LENGTH: usize = 1 << 20;

/// The 32-byte key of `who` (a function's Python name), copied into a
/// buffer that is wiped when dropped.
fn key_of(who: &'static str, key: &Bound<'_, PyAny>) -> PyResult<Zeroizing<[u8; KEY_BYTES]>> {
    let key = bytes_of(key)?;
    let key = key.as_bytes();
    if key.len() != KEY_BYTES {
        return Err(to_py(Error::KeyLength { cipher: who, expected: KEY_BYTES, got: key.len() }));
    }
    let mut out = Zeroizing::new([0u8; KEY_BYTES]);
    out.copy_from_slice(key);
    Ok(out)
}

/// The suite of a name as [`Suite::name`] gives it, e.g. "kuznyechik-mgm-l".
fn suite_of(name: &str) -> PyResult<Suite> {
    for suite in Suite::ALL {
        if suite.name() == name {
            return Ok(suite);
        }
    }
    let known: Vec<&str> = Suite::ALL.iter().map(|s| s.name()).collect();
    Err(PyValueError::new_err(format!(
        "unknown TLSTREE suite '{}' (expected one of: {})",
        name.escape_debug(),
        known.join(", ")
    )))
}

/// A TLS record's sequence number: an int from 0 to 2**64 - 1 (RFC 5246
/// §6.1, RFC 8446 §5.3).
fn seq_of(v: &Bound<'_, PyAny>) -> PyResult<u64> {
    int_of("seq", v, || PyValueError::new_err(format!("seq must be an integer from 0 to 2**64 - 1, got {v}")))
}

/// kdf_256(key, label, seed) -> bytes: KDF_GOSTR3411_2012_256 of RFC 7836
/// §4.5, the 32-byte key HMAC_GOSTR3411_2012_256(key, 0x01 | label | 0x00 |
/// seed | 0x01 | 0x00) under the 32-byte `key`.
#[pyfunction]
pub fn kdf_256<'py>(
    py: Python<'py>,
    key: &Bound<'py, PyAny>,
    label: &Bound<'py, PyAny>,
    seed: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyBytes>> {
    let key = key_of("kdf_256", key)?;
    let (label, seed) = (bytes_of(label)?, bytes_of(seed)?);
    let derived = kdf::kdf_gostr3411_2012_256(&key[..], label.as_bytes(), seed.as_bytes());
    Ok(PyBytes::new(py, &derived[..]))
}

/// kdf_tree_256(key, label, seed, length, r=1) -> bytes:
/// KDF_TREE_GOSTR3411_2012_256 of RFC 7836 §4.4, `length` bytes (L = 8 ·
/// `length` bits, 1 to 1 MiB) under the 32-byte `key`, with a counter of
/// `r` bytes (1 to 4; R = 1 allows at most 255 blocks of 32 bytes).
#[pyfunction]
#[pyo3(signature = (key, label, seed, length, r=None), text_signature = "(key, label, seed, length, r=1)")]
pub fn kdf_tree_256<'py>(
    py: Python<'py>,
    key: &Bound<'py, PyAny>,
    label: &Bound<'py, PyAny>,
    seed: &Bound<'py, PyAny>,
    length: &Bound<'py, PyAny>,
    r: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyBytes>> {
    let too_long =
        || PyValueError::new_err(format!("kdf_tree_256 derives 1 to {MAX_LENGTH} bytes at once, got length {length}"));
    let length: usize = int_of("length", length, too_long)?;
    if length > MAX_LENGTH {
        return Err(too_long());
    }
    // R = 1 unless given; a negative or huge R gets the library's message
    // for any R outside 1..=4.
    let r: usize = match r {
        Some(r) if !r.is_none() => int_of("r", r, || {
            to_py(Error::Param(format!("KDF_TREE_GOSTR3411_2012_256 needs a counter of R = 1 to 4 bytes, got R = {r}")))
        })?,
        _ => 1,
    };
    let key = key_of("kdf_tree_256", key)?;
    let (label, seed) = (bytes_of(label)?, bytes_of(seed)?);
    let (label, seed) = (label.as_bytes(), seed.as_bytes());
    let mut out = Zeroizing::new(vec![0u8; length]);
    let buf = &mut out[..];
    run_maybe_detached(py, length, || kdf::kdf_tree_gostr3411_2012_256(&key[..], label, seed, r, buf)).map_err(to_py)?;
    Ok(PyBytes::new(py, &out))
}

/// tlstree(key, suite, seq) -> bytes: TLSTREE(K_root, seq) of RFC 9189 §8.1
/// and RFC 9367 §4.1.2, the 32-byte key of record `seq` under the 32-byte
/// root `key` with the masks of `suite`. For a run of records a `TlsTree`
/// reuses the upper levels.
#[pyfunction]
pub fn tlstree<'py>(
    py: Python<'py>,
    key: &Bound<'py, PyAny>,
    suite: &str,
    seq: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyBytes>> {
    let suite = suite_of(suite)?;
    let seq = seq_of(seq)?;
    let root = key_of("tlstree", key)?;
    let derived = kdf::tlstree(&root, suite, seq);
    Ok(PyBytes::new(py, &derived[..]))
}

/// TlsTree(key, suite): TLSTREE over one 32-byte root key with each level's
/// last key cached, so `key(seq)` derives only the levels whose masked
/// sequence number changed since the last call (none within a level-3
/// span). Any order of sequence numbers gives the same keys as `tlstree`.
/// The root and the cached keys are wiped when the object is freed. One
/// thread at a time, as `Hash`.
#[pyclass(frozen, module = "multiblock", name = "TlsTree")]
pub struct PyTlsTree {
    tree: Mutex<TlsTree>,
}

#[pymethods]
impl PyTlsTree {
    #[new]
    fn new(key: &Bound<'_, PyAny>, suite: &str) -> PyResult<Self> {
        let suite = suite_of(suite)?;
        let root = key_of("TlsTree", key)?;
        Ok(PyTlsTree { tree: Mutex::new(TlsTree::new(&root, suite)) })
    }

    /// key(seq) -> bytes: TLSTREE(K_root, seq), the 32-byte key of record
    /// `seq` (an int from 0 to 2**64 - 1).
    fn key<'py>(&self, py: Python<'py>, seq: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
        let seq = seq_of(seq)?;
        let mut tree = self.tree.try_lock().map_err(|_| busy())?;
        Ok(PyBytes::new(py, tree.key(seq)))
    }

    /// The suite's name, e.g. "kuznyechik-mgm-l".
    #[getter]
    fn suite(&self) -> PyResult<&'static str> {
        Ok(self.tree.try_lock().map_err(|_| busy())?.suite().name())
    }

    /// Names the suite, never a key.
    fn __repr__(&self) -> PyResult<String> {
        Ok(format!("<multiblock.TlsTree {}>", self.suite()?))
    }
}
