//! The Python module `multiblock`: one-shot calls, streaming objects,
//! many-message calls and a keyed `Cipher`, over the library's dynamic API
//! ([`multiblock::Cipher`], [`multiblock::modes`]), whose errors become
//! `ValueError` and `AuthenticationError`.

mod buffers;
mod cipher;
mod errors;
mod many;
mod oneshot;
mod params;
mod request;
mod streams;

use pyo3::prelude::*;

/// Fast constant-time Kalyna (DSTU 7624:2014), Kuznyechik and Magma
/// (GOST R 34.12-2015), GOST 28147-89 and uBlock, with their standard modes.
///
/// encrypt / decrypt / mac(cipher, mode, key, data, iv=None, aad=None,
/// sbox=None, **params) for one-shot use; Cipher(cipher, key) for ECB over
/// whole blocks; encryptor / decryptor / mac_stream(...) for messages in
/// pieces (update(data), finalize()); mac_many / encrypt_many(cipher, mode,
/// key, messages, ...) for many messages at once in the SIMD lanes (not
/// AEAD or kw). Errors are ValueError; a wrong tag is AuthenticationError.
#[pymodule]
fn multiblock(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(oneshot::encrypt, m)?)?;
    m.add_function(wrap_pyfunction!(oneshot::decrypt, m)?)?;
    m.add_function(wrap_pyfunction!(oneshot::mac, m)?)?;
    m.add_function(wrap_pyfunction!(many::mac_many, m)?)?;
    m.add_function(wrap_pyfunction!(many::encrypt_many, m)?)?;
    m.add_function(wrap_pyfunction!(streams::encryptor, m)?)?;
    m.add_function(wrap_pyfunction!(streams::decryptor, m)?)?;
    m.add_function(wrap_pyfunction!(streams::mac_stream, m)?)?;
    m.add_class::<streams::StreamContext>()?;
    m.add_class::<streams::PyMacStream>()?;
    m.add_function(wrap_pyfunction!(cipher::ciphers, m)?)?;
    m.add_function(wrap_pyfunction!(cipher::modes, m)?)?;
    m.add_function(wrap_pyfunction!(cipher::backends, m)?)?;
    m.add_class::<cipher::PyCipher>()?;
    m.add("AuthenticationError", m.py().get_type::<errors::AuthenticationError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
