//! Magma (GOST R 34.12-2015, 64-bit block, RFC 8891) and GOST 28147-89
//! (RFC 5830): one Feistel core, two byte conventions.
//!
//! - `magma`: key and block bytes as printed in GOST R 34.12-2015 — the key's
//!   first 4 bytes read big-endian are K1, the block's last 4 bytes (big-endian)
//!   are the half a0 that enters the first round; S-box tc26-z.
//! - `gost89`: the little-endian words of RFC 5830 and of Crypto++, Botan,
//!   libgcrypt, gost-engine: key word i = bytes 4i..4i+3 little-endian,
//!   N1 = block bytes 0..3, N2 = bytes 4..7; any S-box set.
//!
//! Both run the same 32 rounds on (N1, N2) words (RFC 5830 §6.1):
//! N2 ^= rotl11(S(N1 + K)), swap; keys K0..K7 three times then K7..K0.
//!
//! SIMD backends: one Feistel kernel (`feistel`, generic over the vector
//! machine) on a layout of the blocks in registers: dword lanes (`lanes`,
//! load/store shuffles from `layout`) with the S-box layer of each
//! instruction set (`subs`, tables from `nibble`), or byte-sliced
//! (`sliced`). Each backend file holds only its batch cipher (batches and
//! tails go through `kernel::backend`'s one driver):
//! - `avx512-vbmi`: vpermb with position-tagged nibble indexes, 9
//!   instructions per round per 16 blocks, 64 blocks per batch;
//! - `avx512-vbmi-narrow`: the same on ymm (`vpermi2b`) with a shorter
//!   round chain, 8 blocks per group: the tier for short calls on AMD (on
//!   Intel, where `vpermi2b` ymm is slower than `vpermb` zmm, every call
//!   runs on zmm);
//! - `avx512`: AVX-512F+BW vpshufb, vpternlogd, vprold, 12 per 16 blocks;
//! - `avx2`: byte-sliced 32-block groups plus dword lanes for the tail;
//! - `ssse3`: pshufb on dword lanes, 16 blocks;
//! - `portable`: plain Rust, bitsliced on u64 (64 blocks), S-boxes as
//!   circuits per set: the constant-time default where no SIMD backend runs;
//! - `table12`, `table` (`table.rs`, one kernel over two g's): the papers'
//!   merged S-box tables (not constant-time, only by name);
//! - `reference`: the oracle.
//!
//! The GOST 28147-89 MAC step E16 (16 rounds, RFC 5830 §8) runs on the same
//! backends (`BlockKernel::imit_steps`): the dword-lane backends keep one
//! block in every lane of one group (`lanes`), the scalar ones share
//! `imit::steps` (`portable` with a constant-time SWAR g, one block at a
//! time rather than 64 bitsliced).
//!
//! `keys.rs` holds the byte conventions and the expanded key every backend
//! takes.

mod backends;
mod feistel;
mod imit;
mod lanes;
mod layout;
mod nibble;
mod sbox;
mod key_schedule;
mod keys;
mod sliced;
mod subs;

pub use keys::ByteOrder;
pub(crate) use keys::Keys;
pub use sbox::{Sbox, SboxSet};

use crate::backend::BackendChoice;
pub(crate) use backends::BACKENDS;
use crate::keyed::Cipher;
use crate::error::Result;
use crate::typed::block_cipher_type;
use crate::CipherId;
use cipher::consts::{U32, U64, U8};


pub(crate) fn keyed_magma(key: &[u8], choice: BackendChoice<'_>) -> Result<Cipher> {
    let keys = Keys::new(key, SboxSet::Tc26Z, ByteOrder::Magma);
    Cipher::keyed(CipherId::Magma, BACKENDS, &keys, choice)
}

pub(crate) fn keyed_gost89(key: &[u8], sbox: SboxSet, choice: BackendChoice<'_>) -> Result<Cipher> {
    let keys = Keys::new(key, sbox, ByteOrder::Gost89);
    Cipher::keyed(CipherId::Gost89, BACKENDS, &keys, choice)
}

block_cipher_type!(
    /// Magma, GOST R 34.12-2015 (RFC 8891), bytes as printed in the standard.
    ///
    /// Besides the RustCrypto traits, whole buffers in place (ECB) on the
    /// default or a named backend; checked against GOST R 34.13-2015 A.2.1:
    ///
    /// ```
    /// use multiblock::magma::Magma;
    /// use multiblock::BackendChoice;
    /// # fn hex(s: &str) -> Vec<u8> {
    /// #     (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
    /// # }
    /// let key = hex("ffeeddccbbaa99887766554433221100f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff");
    /// let magma = Magma::with_backend(&key, BackendChoice::Auto)?;
    /// let mut data = hex("92def06b3c130a59db54c704f8189d204a98fb2e67a8024c8912409b17b57e41");
    /// magma.encrypt_buffer(&mut data)?;
    /// assert_eq!(data, hex("2b073f0494f372a0de70e715d3556e4811d8d9e9eacfbc1e7c68260996c67efb"));
    /// magma.decrypt_buffer(&mut data)?;
    /// assert_eq!(data, hex("92def06b3c130a59db54c704f8189d204a98fb2e67a8024c8912409b17b57e41"));
    /// # Ok::<(), multiblock::Error>(())
    /// ```
    Magma, id = CipherId::Magma, block = U8, key = U32, par = U64,
    make = |key, choice| keyed_magma(key, choice), backends = BACKENDS
);

macro_rules! gost89_type {
    ($name:ident, $set:expr, $(#[$doc:meta])*) => {
        block_cipher_type!(
            $(#[$doc])*
            $name, id = CipherId::Gost89, block = U8, key = U32, par = U64,
            make = |key, choice| keyed_gost89(key, $set, choice), backends = BACKENDS
        );
    };
}

gost89_type!(Gost89Tc26Z, SboxSet::Tc26Z,
    /// GOST 28147-89 (RFC 5830 byte order) with the tc26-z S-box.
);
gost89_type!(Gost89Test, SboxSet::Test,
    /// GOST 28147-89 with id-GostR3411-94-TestParamSet.
);
gost89_type!(
    Gost89CryptoProA,
    SboxSet::CryptoProA,
    /// GOST 28147-89 with CryptoPro-A (RFC 4357).
    ///
    /// Checked against gost-engine's `testecb1` (computed with CryptoPro
    /// CSP), through the RustCrypto traits:
    ///
    /// ```
    /// use multiblock::cipher::{Block, BlockCipherEncrypt, KeyInit};
    /// use multiblock::magma::Gost89CryptoProA;
    /// # fn hex(s: &str) -> Vec<u8> {
    /// #     (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
    /// # }
    /// let key = hex("bbf1edd320af8a628e11c8a951ccbe81477b41a16af67f05e8512f9e01f8cf49");
    /// let gost = Gost89CryptoProA::new_from_slice(&key).unwrap();
    /// let data = hex("743d76f91bee353ca25c3b10eb64cff5");
    /// let mut blocks: Vec<Block<Gost89CryptoProA>> =
    ///     data.chunks(8).map(|b| Block::<Gost89CryptoProA>::try_from(b).unwrap()).collect();
    /// gost.encrypt_blocks(&mut blocks);
    /// assert_eq!(blocks.concat(), hex("c373909535580863cb68859677e8fba9"));
    /// ```
);
gost89_type!(Gost89CryptoProB, SboxSet::CryptoProB,
    /// GOST 28147-89 with CryptoPro-B (RFC 4357).
);
gost89_type!(Gost89CryptoProC, SboxSet::CryptoProC,
    /// GOST 28147-89 with CryptoPro-C (RFC 4357).
);
gost89_type!(Gost89CryptoProD, SboxSet::CryptoProD,
    /// GOST 28147-89 with CryptoPro-D (RFC 4357).
);
