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
use key_schedule::RoundKeys;
use zeroize::{Zeroize, ZeroizeOnDrop};

pub use multi_key::{decrypt_multi_key, encrypt_multi_key, multi_key};


/// The three uBlock variants (block bits / key bits).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// 128-bit block, 128-bit key, 16 rounds.
    U128_128,
    /// 128-bit block, 256-bit key, 24 rounds.
    U128_256,
    /// 256-bit block, 256-bit key, 24 rounds.
    U256_256,
}

impl Variant {
    /// The cipher of this variant.
    pub const fn id(self) -> CipherId {
        match self {
            Variant::U128_128 => CipherId::Ublock128_128,
            Variant::U128_256 => CipherId::Ublock128_256,
            Variant::U256_256 => CipherId::Ublock256_256,
        }
    }

    /// Block size n/8 in bytes.
    pub const fn block_bytes(self) -> usize {
        self.id().block_bytes()
    }

    /// Key size k/8 in bytes.
    pub const fn key_bytes(self) -> usize {
        self.id().key_bytes()
    }

    /// Number of rounds r (paper §1.2): r + 1 round keys.
    pub const fn rounds(self) -> usize {
        match self {
            Variant::U128_128 => 16,
            Variant::U128_256 | Variant::U256_256 => 24,
        }
    }
}

/// The key of one uBlock variant, wiped on drop. Each backend expands it
/// its own way when it is keyed: `reference` (and the tests) with the
/// spec-following key_schedule.rs, the SIMD backends with an in-register
/// schedule, so that their key setup is constant-time and fast too.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub(crate) struct Keys {
    key: [u8; 32],
    #[zeroize(skip)]
    pub(crate) variant: Variant,
}

impl Keys {
    /// `key` must be `variant.key_bytes()` bytes.
    pub fn new(variant: Variant, key: &[u8]) -> Keys {
        assert_eq!(key.len(), variant.key_bytes(), "uBlock key length");
        let mut k = [0u8; 32];
        k[..key.len()].copy_from_slice(key);
        Keys { key: k, variant }
    }

    /// The key bytes (k/8 of them).
    pub(crate) fn key(&self) -> &[u8] {
        &self.key[..self.variant.key_bytes()]
    }

    /// RK⁰..RK^r by the reference key schedule (key_schedule.rs). The
    /// caller zeroizes the result.
    pub(crate) fn round_keys(&self) -> RoundKeys {
        key_schedule::expand(self.variant, self.key())
    }
}

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
