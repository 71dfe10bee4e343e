//! Many independent (key, message) streams in one call — the multi-key
//! scenario of Gao et al. 2024 (§2.0, §3.3: four keys, short messages, key
//! setup included).
//!
//! On the `avx2` backend the streams share SIMD lanes: up to four keys are
//! expanded together and block j of four streams is encrypted in one group
//! (avx2_multi.rs). On any other backend each stream is keyed and run on its
//! own. Either way the result equals one [`crate::Cipher`] per stream.

use super::variant::{Keys, Variant};
use super::BACKENDS;
#[cfg(target_arch = "x86_64")]
use crate::cpu::CpuFeatures;
use crate::backend::{self, BackendChoice};
use crate::error::{Error, Result};
use crate::Direction;

/// ECB-encrypts every stream in place under its own key:
/// `streams[i] = (key, data)`, each key `variant.key_bytes()` long, each data
/// a whole number of blocks (possibly none). Nothing is written unless every
/// stream is valid. The backend is chosen as for [`crate::Cipher`]
/// (`MULTIBLOCK_BACKEND`, else the fastest constant-time one).
///
/// Two uBlock-128/128 messages under two keys, checked against the uBlock
/// design document's vector (§8) and the competition test set's `ECB/1`:
///
/// ```
/// use multiblock::ublock::{decrypt_multi_key, encrypt_multi_key, Variant};
/// # fn hex(s: &str) -> Vec<u8> {
/// #     (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
/// # }
/// let (k1, k2) = (hex("0123456789abcdeffedcba9876543210"), hex("17fccf03cbfcbf9ef9b1242777292145"));
/// let mut m1 = hex("0123456789abcdeffedcba9876543210");
/// let mut m2 = hex("fa1d0d63640426ec84b13f8749e26b02");
/// encrypt_multi_key(Variant::U128_128, &mut [(&k1[..], &mut m1[..]), (&k2[..], &mut m2[..])])?;
/// assert_eq!(m1, hex("32122bedd023c429023470e1158c147d"));
/// assert_eq!(m2, hex("edfb51e91841540d3ec8bea5ac75b25e"));
/// decrypt_multi_key(Variant::U128_128, &mut [(&k1[..], &mut m1[..]), (&k2[..], &mut m2[..])])?;
/// assert_eq!(m2, hex("fa1d0d63640426ec84b13f8749e26b02"));
/// # Ok::<(), multiblock::Error>(())
/// ```
pub fn encrypt_multi_key(variant: Variant, streams: &mut [(&[u8], &mut [u8])]) -> Result<()> {
    multi_key(variant, streams, Direction::Encrypt, BackendChoice::Auto).map(|_| ())
}

/// ECB-decrypts every stream in place under its own key; see
/// [`encrypt_multi_key`].
pub fn decrypt_multi_key(variant: Variant, streams: &mut [(&[u8], &mut [u8])]) -> Result<()> {
    multi_key(variant, streams, Direction::Decrypt, BackendChoice::Auto).map(|_| ())
}


/// [`encrypt_multi_key`] / [`decrypt_multi_key`] on a chosen backend.
/// Returns the name of the backend that ran.
pub fn multi_key(
    variant: Variant,
    streams: &mut [(&[u8], &mut [u8])],
    direction: Direction,
    choice: BackendChoice<'_>,
) -> Result<&'static str> {
    let name = variant.id().name();
    for (key, data) in streams.iter() {
        if key.len() != variant.key_bytes() {
            return Err(Error::KeyLength { cipher: name, expected: variant.key_bytes(), got: key.len() });
        }
        if data.len() % variant.block_bytes() != 0 {
            return Err(Error::DataLength { cipher: name, block_bytes: variant.block_bytes(), got: data.len() });
        }
    }
    let backend = backend::select(name, BACKENDS, choice)?;
    let enc = direction == Direction::Encrypt;
    #[cfg(target_arch = "x86_64")]
    // The lane-sharing path is AVX2 (ymm groups); an AVX-512 choice runs it too.
    if matches!(backend.info.name, "avx2" | "avx512-vbmi")
        && super::avx2_multi::run(CpuFeatures::get(), variant, enc, streams)
    {
        return Ok(backend.info.name);
    }
    for (key, data) in streams.iter_mut() {
        let kernel = (backend.new)(&Keys::new(variant, key));
        if enc {
            kernel.encrypt_blocks(data);
        } else {
            kernel.decrypt_blocks(data);
        }
    }
    Ok(backend.info.name)
}
