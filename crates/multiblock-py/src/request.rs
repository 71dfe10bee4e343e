//! The arguments every call shares (cipher, mode, key, iv, aad, sbox,
//! backend, `**params`) read once into an owned [`Spec`], from which the
//! library's [`Request`] is borrowed: for the one-shot calls and the
//! streaming objects, which outlive the Python call.

use multiblock::modes::{Mode, Params, Request};
use multiblock::{BackendChoice, CipherId};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::buffers::{bytes_of, optional_bytes_of};
use crate::errors::to_py;
use crate::params;

/// What a request needs, owned (the streams outlive the Python call).
pub struct Spec {
    pub cipher: CipherId,
    pub mode: Mode,
    key: zeroize::Zeroizing<Vec<u8>>,
    sbox: Option<String>,
    backend: Option<String>,
    params: Params,
}

impl Spec {
    pub fn request(&self) -> Request<'_> {
        Request {
            cipher: self.cipher,
            mode: self.mode,
            key: &self.key,
            sbox: self.sbox.as_deref(),
            backend: self.backend.as_deref().map_or(BackendChoice::Auto, BackendChoice::Named),
            params: self.params.clone(),
        }
    }
}

#[allow(clippy::too_many_arguments)]
pub fn spec(
    cipher: &str,
    mode: &str,
    key: &Bound<'_, PyAny>,
    iv: Option<&Bound<'_, PyAny>>,
    aad: Option<&Bound<'_, PyAny>>,
    sbox: Option<&str>,
    backend: Option<&str>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<Spec> {
    let id = CipherId::from_name(cipher).map_err(to_py)?;
    let mode = Mode::parse(id, mode).map_err(to_py)?;
    let key = zeroize::Zeroizing::new(bytes_of(key)?.as_bytes().to_vec());
    let iv = optional_bytes_of(iv)?.map(|b| b.as_bytes().to_vec());
    let aad = optional_bytes_of(aad)?.map(|b| b.as_bytes().to_vec());
    let params = params::from_kwargs(iv, aad, kwargs)?;
    Ok(Spec { cipher: id, mode, key, sbox: sbox.map(str::to_string), backend: backend.map(str::to_string), params })
}

