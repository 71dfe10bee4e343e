//! `encryptor`, `decryptor` and `mac_stream`: incremental objects in the
//! style of pyca/cryptography's `Cipher(...).encryptor()`, with
//! `update(data) -> bytes` and `finalize() -> bytes`, over the library's
//! `CipherStream`, `AeadStream` and `MacStream`. Any split of the input
//! gives the bytes of the one-shot `encrypt` / `decrypt` / `mac`.
//!
//! AEAD: MGM and GCM stream; the encryptor's tag is `.tag` after
//! `finalize()` (one-shot `encrypt` = the pieces then the tag). The
//! decryptor takes the tag as `tag=` or, if not given, as the last bytes of
//! the input (as `decrypt` does); its `update` returns plaintext that is
//! NOT yet authenticated, and `finalize()` raises AuthenticationError on a
//! wrong tag (as pyca's GCM decryptor). CCM (which needs the length first)
//! and KW (whole-message) collect the input and do everything in
//! `finalize()`, so their decryptors release nothing unauthenticated.

use multiblock::modes::aead_stream::AeadStream;
use multiblock::modes::stream::{CipherStream, MacStream};
use multiblock::modes::{self, Kind, Mode};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use std::sync::Mutex;

use crate::buffers::{bytes_of, optional_bytes_of, run_maybe_detached};
use crate::errors::to_py;
use crate::locked::busy;
use crate::request::{spec, Spec};

enum State {
    Cipher(CipherStream),
    Aead(AeadStream),
    /// CCM and KW: the whole input, processed by the one-shot call at the end.
    Whole(Spec, zeroize::Zeroizing<Vec<u8>>, Option<Vec<u8>>),
    /// Finalized; an AEAD encryptor's tag.
    Done(Option<Vec<u8>>),
}

/// An encryption or decryption in progress (see `encryptor`, `decryptor`).
///
/// Frozen: every method takes `&self` and the state sits behind one mutex
/// taken with `try_lock`, held for the whole call (also while the GIL is
/// released). A call from another thread meanwhile, to any method, gets
/// the `busy()` ValueError instead of waiting or a borrow error.
#[pyclass(frozen, module = "multiblock", name = "StreamContext")]
pub struct StreamContext {
    state: Mutex<State>,
    encrypt: bool,
}

fn finished() -> PyErr {
    PyValueError::new_err("this context is already finalized")
}

#[pymethods]
impl StreamContext {
    /// update(data) -> bytes: the output ready so far (a decryptor of MGM
    /// or GCM: plaintext not yet authenticated until finalize() returns).
    fn update<'py>(&self, py: Python<'py>, data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
        let data = bytes_of(data)?;
        let data = data.as_bytes();
        let mut state = self.state.try_lock().map_err(|_| busy())?;
        let state = &mut *state;
        if matches!(state, State::Done(_)) {
            return Err(finished());
        }
        let out = run_maybe_detached(py, data.len(), || {
            let mut out = Vec::new();
            match state {
                State::Cipher(s) => s.update(data, &mut out).map(|_| out),
                State::Aead(s) => s.update(data, &mut out).map(|_| out),
                State::Whole(_, all, _) => {
                    all.extend_from_slice(data);
                    Ok(out)
                }
                State::Done(_) => unreachable!("checked above"),
            }
        });
        Ok(PyBytes::new(py, &out.map_err(to_py)?))
    }

    /// finalize() -> bytes: the last output. An AEAD encryptor's tag is
    /// then `.tag`; a decryptor raises AuthenticationError on a wrong tag.
    fn finalize<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        // The lock stays held until the end, so that another thread sees
        // the object busy, not finalized without its tag yet.
        let mut guard = self.state.try_lock().map_err(|_| busy())?;
        if matches!(*guard, State::Done(_)) {
            return Err(finished());
        }
        let state = std::mem::replace(&mut *guard, State::Done(None));
        let encrypt = self.encrypt;
        let (out, tag) = py
            .detach(move || -> multiblock::Result<(Vec<u8>, Option<Vec<u8>>)> {
                let mut out = Vec::new();
                match state {
                    State::Cipher(s) => s.finalize(&mut out).map(|_| (out, None)),
                    State::Aead(s) => {
                        let tag = s.finalize(&mut out)?;
                        Ok((out, encrypt.then_some(tag)))
                    }
                    State::Whole(spec, mut all, tag) => whole(&spec, &mut all, tag, encrypt),
                    State::Done(_) => unreachable!("checked above"),
                }
            })
            .map_err(to_py)?;
        *guard = State::Done(tag);
        Ok(PyBytes::new(py, &out))
    }

    /// The AEAD tag, after an encryptor's finalize(); None otherwise.
    #[getter]
    fn tag<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyBytes>>> {
        let state = self.state.try_lock().map_err(|_| busy())?;
        Ok(match &*state {
            State::Done(Some(t)) => Some(PyBytes::new(py, t)),
            _ => None,
        })
    }
}

/// CCM / KW at the end: the one-shot call; CCM's tag split off.
fn whole(spec: &Spec, all: &mut Vec<u8>, tag: Option<Vec<u8>>, encrypt: bool) -> multiblock::Result<(Vec<u8>, Option<Vec<u8>>)> {
    let req = spec.request();
    if !encrypt {
        all.extend_from_slice(&tag.unwrap_or_default());
        return modes::decrypt(&req, all).map(|p| (p, None));
    }
    let mut sealed = modes::encrypt(&req, all)?;
    if spec.mode.kind() != Kind::Aead {
        return Ok((sealed, None));
    }
    // CCM's ciphertext is as long as the text: the tag is the rest.
    let tag = sealed.split_off(all.len());
    Ok((sealed, Some(tag)))
}

#[allow(clippy::too_many_arguments)]
fn context(spec: Spec, encrypt: bool, tag: Option<Vec<u8>>) -> PyResult<StreamContext> {
    let aead = spec.mode.kind() == Kind::Aead;
    if tag.is_some() && (encrypt || !aead) {
        return Err(PyValueError::new_err(format!("{} {} takes no tag", spec.cipher, spec.mode)));
    }
    let req = spec.request();
    let state = match spec.mode {
        Mode::Ccm | Mode::Kw => {
            // Key, S-box and mode now, without a key setup; the mode's own
            // parameters where it is made, at finalize().
            req.check().map_err(to_py)?;
            drop(req);
            State::Whole(spec, zeroize::Zeroizing::new(Vec::new()), tag)
        }
        _ if aead => {
            let s = if encrypt { AeadStream::encryptor(&req) } else { AeadStream::decryptor(&req) };
            let mut s = s.map_err(to_py)?;
            if let Some(t) = &tag {
                s = s.expect_tag(t).map_err(to_py)?;
            }
            State::Aead(s)
        }
        _ => State::Cipher(if encrypt { CipherStream::encryptor(&req) } else { CipherStream::decryptor(&req) }.map_err(to_py)?),
    };
    Ok(StreamContext { state: Mutex::new(state), encrypt })
}

/// encryptor(cipher, mode, key, iv=None, aad=None, sbox=None, *,
/// backend=None, **params): an object with update(data) -> bytes and
/// finalize() -> bytes whose outputs, joined, are encrypt()'s; for AEAD
/// modes encrypt() = the joined outputs + `.tag`. Every mode of encrypt().
#[pyfunction]
#[pyo3(signature = (cipher, mode, key, iv=None, aad=None, sbox=None, *, backend=None, **params))]
#[allow(clippy::too_many_arguments)]
pub fn encryptor(
    cipher: &str,
    mode: &str,
    key: &Bound<'_, PyAny>,
    iv: Option<&Bound<'_, PyAny>>,
    aad: Option<&Bound<'_, PyAny>>,
    sbox: Option<&str>,
    backend: Option<&str>,
    params: Option<&Bound<'_, PyDict>>,
) -> PyResult<StreamContext> {
    context(spec(cipher, mode, key, iv, aad, sbox, backend, params)?, true, None)
}

/// decryptor(cipher, mode, key, iv=None, aad=None, sbox=None, *, tag=None,
/// backend=None, **params): the inverse of `encryptor`. AEAD: the tag is
/// `tag`, or the input's last bytes if not given; finalize() raises
/// AuthenticationError when it does not match. MGM and GCM return
/// plaintext from update() before the tag is checked: use none of it
/// unless finalize() succeeds.
#[pyfunction]
#[pyo3(signature = (cipher, mode, key, iv=None, aad=None, sbox=None, *, tag=None, backend=None, **params))]
#[allow(clippy::too_many_arguments)]
pub fn decryptor(
    cipher: &str,
    mode: &str,
    key: &Bound<'_, PyAny>,
    iv: Option<&Bound<'_, PyAny>>,
    aad: Option<&Bound<'_, PyAny>>,
    sbox: Option<&str>,
    tag: Option<&Bound<'_, PyAny>>,
    backend: Option<&str>,
    params: Option<&Bound<'_, PyDict>>,
) -> PyResult<StreamContext> {
    let tag = optional_bytes_of(tag)?.map(|b| b.as_bytes().to_vec());
    context(spec(cipher, mode, key, iv, aad, sbox, backend, params)?, false, tag)
}

/// A MAC in progress (see `mac_stream`). Frozen, its state behind a mutex
/// taken with `try_lock`, as [`StreamContext`]: a call while another
/// thread is inside one gets the `busy()` ValueError.
#[pyclass(frozen, module = "multiblock", name = "MacStream")]
pub struct PyMacStream {
    state: Mutex<Option<MacStream>>,
}

#[pymethods]
impl PyMacStream {
    /// update(data): hashes more of the message.
    fn update(&self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<()> {
        let data = bytes_of(data)?;
        let data = data.as_bytes();
        let mut state = self.state.try_lock().map_err(|_| busy())?;
        let m = state.as_mut().ok_or_else(finished)?;
        run_maybe_detached(py, data.len(), || m.update(data)).map_err(to_py)
    }

    /// finalize() -> bytes: the tag, as mac() gives it.
    fn finalize<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let m = self.state.try_lock().map_err(|_| busy())?.take().ok_or_else(finished)?;
        Ok(PyBytes::new(py, &m.finalize().map_err(to_py)?))
    }
}

/// mac_stream(cipher, mode, key, iv=None, sbox=None, *, backend=None,
/// **params): update(data) as often as needed, then finalize() -> the tag
/// mac() gives for the whole message.
#[pyfunction]
#[pyo3(signature = (cipher, mode, key, iv=None, sbox=None, *, backend=None, **params))]
pub fn mac_stream(
    cipher: &str,
    mode: &str,
    key: &Bound<'_, PyAny>,
    iv: Option<&Bound<'_, PyAny>>,
    sbox: Option<&str>,
    backend: Option<&str>,
    params: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyMacStream> {
    let spec = spec(cipher, mode, key, iv, None, sbox, backend, params)?;
    let m = MacStream::new(&spec.request()).map_err(to_py)?;
    Ok(PyMacStream { state: Mutex::new(Some(m)) })
}
