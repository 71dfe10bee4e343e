//! The Python module `multiblock`: one-shot calls, streaming objects,
//! many-message calls and a keyed `Cipher`, over the library's dynamic API
//! ([`multiblock::Cipher`], [`multiblock::modes`]), and the hashes in the
//! shape of `hashlib` and `hmac` ([`multiblock::hash`]), the key derivations
//! of RFC 7836 and TLSTREE ([`multiblock::kdf`]); the library's errors
//! become `ValueError` and `AuthenticationError`.

mod buffers;
mod cipher;
mod errors;
mod hash_macs;
mod hashes;
mod kdf;
mod locked;
mod many;
mod oneshot;
mod params;
mod request;
mod streams;
mod wrap;

use pyo3::prelude::*;

/// Fast constant-time Kalyna (DSTU 7624:2014), Kuznyechik and Magma
/// (GOST R 34.12-2015), GOST 28147-89 and uBlock, with their standard modes,
/// and the hashes Streebog (GOST R 34.11-2012) and Kupyna (DSTU 7564:2014).
///
/// encrypt / decrypt / mac(cipher, mode, key, data, iv=None, aad=None,
/// sbox=None, **params) for one-shot use; Cipher(cipher, key) for ECB over
/// whole blocks; encryptor / decryptor / mac_stream(...) for messages in
/// pieces (update(data), finalize()); mac_many / encrypt_many(cipher, mode,
/// key, messages, ...) for many messages at once in the SIMD lanes (not
/// AEAD or kw). Hashes: new(name, data=b"") as hashlib.new, hash(name,
/// data), hash_many(name, messages); hmac_new(key, msg=None,
/// digestmod="streebog-256") as hmac.new; kupyna_mac_new(key, msg=None).
/// Key derivation over Streebog-256: kdf_256(key, label, seed) (RFC 7836
/// §4.5), kdf_tree_256(key, label, seed, length, r=1) (RFC 7836 §4.4),
/// tlstree(key, suite, seq) and TlsTree(key, suite).key(seq) (RFC 9189
/// §8.1, RFC 9367 §4.1.2).
/// Key export and wrap: kexp15 / kimp15(cipher, key_or_blob, kek_enc,
/// kek_mac, iv) (R 1323565.1.017-2018), dstu7624_wrap(kek, key, iv=None) /
/// dstu7624_unwrap(kek, wrapped), gost28147_wrap(kek, key, iv=None,
/// sbox="dstu4145") / gost28147_unwrap(kek, wrapped, sbox="dstu4145").
/// Errors are ValueError; a wrong tag is AuthenticationError.
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
    m.add_function(wrap_pyfunction!(hashes::new, m)?)?;
    m.add_function(wrap_pyfunction!(hashes::hash_one, m)?)?;
    m.add_function(wrap_pyfunction!(hashes::hash_many, m)?)?;
    m.add_function(wrap_pyfunction!(hashes::hashes, m)?)?;
    m.add_class::<hashes::PyHash>()?;
    m.add_function(wrap_pyfunction!(hash_macs::hmac_new, m)?)?;
    m.add_function(wrap_pyfunction!(hash_macs::hmac_digest, m)?)?;
    m.add_class::<hash_macs::PyHmac>()?;
    m.add_function(wrap_pyfunction!(hash_macs::kupyna_mac_new, m)?)?;
    m.add_function(wrap_pyfunction!(hash_macs::kupyna_mac, m)?)?;
    m.add_class::<hash_macs::PyKupynaMac>()?;
    m.add_function(wrap_pyfunction!(kdf::kdf_256, m)?)?;
    m.add_function(wrap_pyfunction!(kdf::kdf_tree_256, m)?)?;
    m.add_function(wrap_pyfunction!(kdf::tlstree, m)?)?;
    m.add_class::<kdf::PyTlsTree>()?;
    m.add_function(wrap_pyfunction!(wrap::kexp15, m)?)?;
    m.add_function(wrap_pyfunction!(wrap::kimp15, m)?)?;
    m.add_function(wrap_pyfunction!(wrap::dstu7624_wrap, m)?)?;
    m.add_function(wrap_pyfunction!(wrap::dstu7624_unwrap, m)?)?;
    m.add_function(wrap_pyfunction!(wrap::gost28147_wrap, m)?)?;
    m.add_function(wrap_pyfunction!(wrap::gost28147_unwrap, m)?)?;
    m.add("AuthenticationError", m.py().get_type::<errors::AuthenticationError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
