//! uBlock, winner of the 2019 Chinese national cipher design competition
//! (Wu W., Zhang L., Zheng Y., Li L., J. Cryptologic Research 2019, 6(6)),
//! as summarized in Gao et al. 2024 (fast software uBlock with AVX2, J.
//! National Univ. of Defense Technology 46(6)), §1.
//!
//! Variants uBlock-n/k: 128/128 (16 rounds), 128/256 (24), 256/256 (24).
//! Bytes: a block or key byte string is read big-endian by nibbles (nibble 0
//! = high nibble of byte 0); the left half X0 is the first n/16 bytes, K0 the
//! first k/32 bytes — as in the design document's examples and the official
//! test files. Round constant RC12 is 8e9adfcb (the paper misprints it).
//!
//! `variant.rs` holds the parameter sets and the key every backend takes;
//! each backend expands it its own way (`key_schedule.rs` is the
//! standard's schedule, for `reference` and the tests).

mod backends;
#[cfg(target_arch = "x86_64")]
mod avx2_multi;
mod groups;
mod key_schedule;
mod key_schedule_simd;
mod layouts;
mod masks;
mod multi_key;
#[cfg(target_arch = "x86_64")]
mod packed;
mod plain;
mod rounds;
mod variant;
mod constants;
#[cfg(test)]
mod tests;

use crate::backend::BackendChoice;
pub(crate) use backends::BACKENDS;
use crate::keyed::Cipher;
use crate::error::Result;
use crate::typed::block_cipher_type;
use crate::CipherId;
use cipher::consts::{U12, U16, U32};
pub use variant::Variant;
pub(crate) use variant::Keys;

pub use multi_key::{decrypt_multi_key, encrypt_multi_key, multi_key};


pub(crate) fn keyed(v: Variant, key: &[u8], choice: BackendChoice<'_>) -> Result<Cipher> {
    let keys = Keys::new(v, key);
    Cipher::keyed(v.id(), BACKENDS, &keys, choice)
}

block_cipher_type!(
    /// uBlock-128/128: 128-bit block, 128-bit key, 16 rounds.
    ///
    /// Checked against the test vector of the uBlock design document
    /// (Wu et al. 2019, §8) through the RustCrypto traits:
    ///
    /// ```
    /// use multiblock::cipher::{Block, BlockCipherDecrypt, BlockCipherEncrypt, KeyInit};
    /// use multiblock::ublock::Ublock128_128;
    /// # fn hex(s: &str) -> Vec<u8> {
    /// #     (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
    /// # }
    /// let key = hex("0123456789abcdeffedcba9876543210");
    /// let ublock = Ublock128_128::new_from_slice(&key).unwrap();
    /// let mut block = Block::<Ublock128_128>::try_from(&key[..]).unwrap(); // the plaintext is the key
    /// ublock.encrypt_block(&mut block);
    /// assert_eq!(block.as_slice(), hex("32122bedd023c429023470e1158c147d"));
    /// ublock.decrypt_block(&mut block);
    /// assert_eq!(block.as_slice(), key);
    /// ```
    Ublock128_128, id = CipherId::Ublock128_128, block = U16, key = U16, par = U16,
    make = |key, choice| keyed(Variant::U128_128, key, choice), backends = BACKENDS
);

block_cipher_type!(
    /// uBlock-128/256: 128-bit block, 256-bit key, 24 rounds.
    Ublock128_256, id = CipherId::Ublock128_256, block = U16, key = U32, par = U16,
    make = |key, choice| keyed(Variant::U128_256, key, choice), backends = BACKENDS
);

block_cipher_type!(
    /// uBlock-256/256: 256-bit block, 256-bit key, 24 rounds.
    Ublock256_256, id = CipherId::Ublock256_256, block = U32, key = U32, par = U12,
    make = |key, choice| keyed(Variant::U256_256, key, choice), backends = BACKENDS
);
