//! Key export and key wrap formats that users exchange: KExp15/KImp15 of
//! R 1323565.1.017-2018 (TC26, the key transport of the GOST CMS and
//! TLS 1.2 profiles) for Kuznyechik and Magma, and Dstu7624Wrap of the
//! Ukrainian CMS profile (the technical specifications to RFC 5652 approved
//! by order No. 687 of the Administration of the State Service of Special
//! Communications of Ukraine, 27.10.2020).
//!
//! Both are built from the standard modes ([`crate::modes`]): KExp15 is
//! GOST R 34.13-2015 CTR over the key and its OMAC; Dstu7624Wrap is
//! DSTU 7624:2014 CMAC and CFB of Kalyna-256/256. Unwrapping checks the
//! MAC in constant time and releases nothing when it does not match
//! ([`crate::Error::Authentication`]). Unwrapped keys and every
//! intermediate buffer that holds key material are wiped on drop
//! ([`Zeroizing`](zeroize::Zeroizing)).
//!
//! ```
//! use multiblock::wrap::{self, Kexp15Cipher};
//! # fn hex(s: &str) -> Vec<u8> {
//! #     (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
//! # }
//! // R 1323565.1.017-2018 Appendix B.1: the Magma example.
//! let key = hex("8899aabbccddeeff0011223344556677fedcba98765432100123456789abcdef");
//! let kek_mac = hex("08090a0b0c0d0e0f0001020304050607101112131415161718191a1b1c1d1e1f");
//! let kek_enc = hex("202122232425262728292a2b2c2d2e2f38393a3b3c3d3e3f3031323334353637");
//! let iv = hex("67bed654");
//! let blob = wrap::kexp15(Kexp15Cipher::Magma, &key, &kek_enc, &kek_mac, &iv)?;
//! assert_eq!(blob, hex("cfd5a12d5b81b6e1e99c916d07900c6ac12703fb3abded55567bf3742c899c75\
//!                       5dafe7b42e3a8bd9"));
//! assert_eq!(wrap::kimp15(Kexp15Cipher::Magma, &blob, &kek_enc, &kek_mac, &iv)?[..], key[..]);
//!
//! // Dstu7624Wrap with a random IV, and back.
//! let kek = [7u8; 32];
//! let wrapped = wrap::dstu7624_wrap(&kek, &key)?;
//! assert_eq!(wrapped.len(), wrap::DSTU7624_WRAPPED_BYTES);
//! assert_eq!(wrap::dstu7624_unwrap(&kek, &wrapped)?[..], key[..]);
//! # Ok::<(), multiblock::Error>(())
//! ```

mod algorithm;
mod dstu7624;
mod gost28147;
mod kexp15;
#[cfg(test)]
mod tests;

pub use algorithm::Algorithm;
pub use dstu7624::{
    dstu7624_unwrap, dstu7624_wrap, dstu7624_wrap_with_iv, DSTU7624_IV_BYTES, DSTU7624_KEK_BYTES,
    DSTU7624_KEY_BYTES, DSTU7624_WRAPPED_BYTES,
};
pub use gost28147::{
    gost28147_unwrap, gost28147_wrap, gost28147_wrap_with_iv, GOST28147_IV_BYTES, GOST28147_KEK_BYTES,
    GOST28147_KEY_BYTES, GOST28147_WRAPPED_BYTES,
};
pub use kexp15::{kexp15, kimp15, Kexp15Cipher, KEXP15_KEK_BYTES};

use crate::error::{Bytes, Error, Result};

/// `Ok` if `got` is `expected` bytes long, else a one-line parameter error
/// that names the format and the value (`"dstu7624-wrap needs a KEK of 32
/// bytes (64 hex digits), got 16 bytes"`).
fn check_len(format: &str, what: &str, expected: usize, got: usize) -> Result<()> {
    if got == expected {
        Ok(())
    } else {
        Err(Error::Param(format!(
            "{format} needs {what} of {expected} bytes ({} hex digits), got {}",
            expected * 2,
            Bytes(got as u64)
        )))
    }
}

/// A fresh IV of `N` bytes from the operating system's generator, for the
/// wraps' convenience forms.
fn random_iv<const N: usize>(format: &str) -> Result<[u8; N]> {
    let mut iv = [0u8; N];
    getrandom::fill(&mut iv)
        .map_err(|e| Error::Param(format!("{format}: the operating system's random generator failed: {e}")))?;
    Ok(iv)
}
